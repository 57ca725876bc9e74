"""Count the lines of code of the Go Fish package: no blank lines, comments or docstrings.

Run ``python count_lines.py`` (from anywhere); it prints each module's count and the total.
A docstring is a string statement that opens a module, class or function.
"""

from __future__ import annotations

import ast
import io
import itertools
import sys
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent / "cardcore_gofish"


def code_lines(source: str) -> int:
    """Return how many lines of *source* hold code (not blank, comment or docstring)."""
    doc_lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                doc_lines.update(range(first.lineno, (first.end_lineno or 0) + 1))
        # attribute docstrings: a string statement right after an assignment
        for field in ("body", "orelse"):
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):
                continue
            for prev, stmt in itertools.pairwise(stmts):
                if (
                    isinstance(prev, ast.Assign | ast.AnnAssign)
                    and isinstance(stmt, ast.Expr)
                    and isinstance(stmt.value, ast.Constant)
                    and isinstance(stmt.value.value, str)
                ):
                    doc_lines.update(range(stmt.lineno, (stmt.end_lineno or 0) + 1))
    code: set[int] = set()
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in skip or tok.type == tokenize.ENDMARKER:
            continue
        code.update(range(tok.start[0], tok.end[0] + 1))
    return len(code - doc_lines)


def main() -> int:
    total = 0
    for path in sorted(PACKAGE.glob("*.py")):
        n = code_lines(path.read_text(encoding="utf-8"))
        total += n
        print(f"{n:5d}  {path.name}")
    print(f"{total:5d}  total")
    return 0


if __name__ == "__main__":
    sys.exit(main())
