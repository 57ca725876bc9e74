"""Count the lines of code of the Go Fish package: no blank lines, comments or docstrings.

Run ``python count_lines.py`` from anywhere. It prints each module's count, the
game's code (every module but ``agents.py``, which holds a player, not the
game) and the total with the agent. A docstring is a string statement that
opens a module, class or function, or follows an assignment (an attribute's
docstring).
"""

from __future__ import annotations

import ast
import io
import itertools
import sys
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent / "cardcore_gofish"
NOT_GAME = ("agents.py",)
"""Modules counted in the total but not in the game's code."""


def _is_text(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def docstring_lines(tree: ast.Module) -> set[int]:
    """Return the line numbers of every docstring in *tree*."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        docs = [body[0]] if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) else []
        docs += [b for a, b in itertools.pairwise(body) if isinstance(a, ast.Assign | ast.AnnAssign)]
        for stmt in docs:
            if _is_text(stmt):
                lines.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
    return lines


def code_lines(source: str) -> int:
    """Return how many lines of *source* hold code (not blank, a comment or a docstring)."""
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    code: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in skip and tok.type != tokenize.ENDMARKER:
            code.update(range(tok.start[0], tok.end[0] + 1))
    return len(code - docstring_lines(ast.parse(source)))


def count(package: Path = PACKAGE) -> dict[str, int]:
    """Return the code lines of each module of *package*, by file name."""
    return {p.name: code_lines(p.read_text(encoding="utf-8")) for p in sorted(package.glob("*.py"))}


def main() -> int:
    counts = count()
    for name, n in counts.items():
        print(f"{n:5d}  {name}")
    game = sum(n for name, n in counts.items() if name not in NOT_GAME)
    print(f"{game:5d}  game code (without {', '.join(NOT_GAME)})")
    print(f"{sum(counts.values()):5d}  total")
    return 0


if __name__ == "__main__":
    sys.exit(main())
