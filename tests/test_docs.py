"""The documentation builds without a single warning, and every example in it runs.

Both builds run Sphinx in a subprocess with warnings as errors:
``python -m sphinx -W --keep-going -b html docs <tmp>`` and the same with
``-b doctest``, which runs every ``.. doctest::`` block and every ``>>>``
example (including those of the docstrings that autodoc pulls in).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _sphinx(builder: str, out: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", builder, str(DOCS), str(out)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT, check=False)


def test_docs_html_build_has_no_warnings(tmp_path: Path) -> None:
    proc = _sphinx("html", tmp_path / "html")
    assert proc.returncode == 0, f"sphinx html failed:\n{proc.stderr}\n{proc.stdout}"
    assert "WARNING" not in proc.stderr, proc.stderr
    for page in ("index", "tutorial", "embedding", "hooks", "events", "api", "core-rules", "plugin-guide/index"):
        assert (tmp_path / "html" / f"{page}.html").is_file(), page


def test_docs_doctests_pass(tmp_path: Path) -> None:
    proc = _sphinx("doctest", tmp_path / "doctest")
    report = (tmp_path / "doctest" / "output.txt").read_text(encoding="utf-8") if proc.returncode == 0 else ""
    assert proc.returncode == 0, f"sphinx doctest failed:\n{proc.stderr}\n{proc.stdout}"
    match = re.search(r"^\s*(\d+) tests\s*\n\s*(\d+) failures in tests", report, re.M)
    assert match is not None, report
    assert int(match.group(1)) >= 40 and match.group(2) == "0", report
    assert "tutorial" in report


def _plain(text: str) -> str:
    """Reduce Markdown or reST to its words (markup, punctuation of markup and spacing dropped)."""
    text = re.sub(r"\*\*|``|`|\\", "", text)
    return " ".join(text.split())


def _md_rules(path: Path) -> dict[str, str]:
    rules: dict[str, str] = {}
    current: str | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\s*[-*]\s+\*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\*(.*)$", line)
        if m:
            current = m.group(1)
            rules[current] = m.group(2)
        elif current is not None and line.startswith("  ") and line.strip():
            rules[current] += " " + line.strip()
        else:
            current = None
    return {k: _plain(v) for k, v in rules.items()}


def test_core_rules_page_matches_seed() -> None:
    """``docs/core-rules.rst`` states each rule of ``seeds/core.md`` word for word, under its label."""
    seed = _md_rules(ROOT / "seeds" / "core.md")
    page = (DOCS / "core-rules.rst").read_text(encoding="utf-8")
    assert seed, "no rules found in seeds/core.md"
    for rule_id, text in seed.items():
        label = f".. _rule-{rule_id.lower()}:"
        assert label in page, f"core-rules.rst has no label {label!r}"
        block = page.split(label, 1)[1]
        m = re.search(r"\n\n((?:\S.*\n|\s{3,}.*\n)+?)(?:\n|$)", block)
        assert m is not None, rule_id
        body = re.sub(r"^\*\*[A-Z0-9-]+\*\*", "", m.group(1).strip())
        assert _plain(body) == text, f"{rule_id} differs from seeds/core.md:\n{_plain(body)}\n{text}"


@pytest.mark.parametrize("name", ["kings_zero", "no_hearts", "cap_twenty", "two_jokers", "event_log"])
def test_docs_snippets_are_tested(name: str) -> None:
    """Every plugin module the docs show is exercised in tests/test_hooks.py."""
    assert f'_snippet("{name}")' in (ROOT / "tests" / "test_hooks.py").read_text(encoding="utf-8")
