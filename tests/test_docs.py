"""The documentation builds without a single warning, and every example in it runs.

Both builds run Sphinx in a subprocess with warnings as errors:
``python -m sphinx -W --keep-going -b html docs <tmp>`` and the same with
``-b doctest``, which runs every ``.. doctest::`` block and every ``>>>``
example (including those of the docstrings that autodoc pulls in).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _start(builder: str, out: Path) -> subprocess.Popen[str]:
    cmd = [
        sys.executable,
        "-m",
        "sphinx",
        "-W",
        "--keep-going",
        "-q",
        "-b",
        builder,
        str(DOCS),
        str(out),
    ]
    return subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    )


Build = tuple[Path, int, str]


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Build]:
    """The HTML and doctest builds, run side by side once for the whole module."""
    if os.environ.get("CI") != "true":  # in CI a missing piece fails the build instead
        if importlib.util.find_spec("gymnasium") is None:
            pytest.skip("the docs document cardcore.rl: install the rl extra (README set-up)")
        if importlib.util.find_spec("cardcore_gofish") is None:
            pytest.skip("the plugin guide runs the Go Fish example: pip install ./examples/go_fish")
    base = tmp_path_factory.mktemp("docs")
    procs = {
        builder: (base / builder, _start(builder, base / builder))
        for builder in ("html", "doctest")
    }
    out: dict[str, Build] = {}
    for builder, (path, proc) in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        out[builder] = (path, proc.returncode, stderr + stdout)
    return out


@pytest.fixture
def html(builds: dict[str, Build]) -> Build:
    return builds["html"]


def test_docs_html_build_has_no_warnings(html: Build) -> None:
    out, code, log = html
    assert code == 0, f"sphinx html failed:\n{log}"
    assert "WARNING" not in log, log
    for page in (
        "index",
        "tutorial",
        "embedding",
        "hooks",
        "events",
        "api",
        "core-rules",
        "plugin-guide/index",
    ):
        assert (out / f"{page}.html").is_file(), page


def _dt_text(html: str, anchor: str) -> str:
    """The text of the ``<dt>`` signature line whose id is *anchor*."""
    start = html.index(f'id="{anchor}"')
    end = html.index("</dt>", start)
    text = re.sub(r"<[^>]+>", "", html[html.index(">", start) + 1 : end])
    return " ".join(text.replace("&#x2192;", "->").replace("¶", "").split())


def test_docs_show_every_hook_signature_and_public_name(html: Build) -> None:
    """The built pages hold each hook's full signature and an entry for every public name."""
    import inspect

    import cardcore
    from cardcore import hookspecs

    out, code, log = html
    assert code == 0, log
    hooks_html = (out / "hooks.html").read_text(encoding="utf-8")
    for name in hookspecs.__all__:
        if name == "hookspec":
            continue
        expected = name + str(inspect.signature(getattr(hookspecs, name))).replace("'", "")
        expected = re.sub(r"\b(?:[a-z_]\w*\.)+(?=[A-Za-z_])", "", expected)  # shown unqualified
        assert _dt_text(hooks_html, f"cardcore.hookspecs.{name}") == expected
    pages = "".join(
        (out / f"{page}.html").read_text(encoding="utf-8") for page in ("api", "events")
    )
    missing = [name for name in cardcore.__all__ if f'id="cardcore.{name}"' not in pages]
    assert not missing, f"public names with no entry in the built api/events pages: {missing}"


def test_docs_doctests_pass(builds: dict[str, Build]) -> None:
    out, code, log = builds["doctest"]
    report = (
        (out / "output.txt").read_text(encoding="utf-8") if (out / "output.txt").is_file() else ""
    )
    assert code == 0, f"sphinx doctest failed:\n{log}\n{report}"
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
        assert _plain(body) == text, (
            f"{rule_id} differs from seeds/core.md:\n{_plain(body)}\n{text}"
        )


_CHECKOUT_ONLY = re.compile(
    r"\bfrom\s+(?:tests|docs)\b|\bimport\s+[\w., ]*\b(?:tests|docs)\b(?!\.)|\bdocs\.snippets\b"
    r"|\btests\.plugins\b"
)


def _examples(text: str) -> list[str]:
    """The lines of *text* that Sphinx runs: ``>>>``/``...`` lines and ``testcode``/``testsetup`` bodies."""
    lines: list[str] = []
    block_indent: int | None = None
    for line in text.splitlines():
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if block_indent is not None:
            if stripped and indent <= block_indent:
                block_indent = None
            else:
                lines.append(stripped)
                continue
        if re.match(r"\.\.\s+(?:testcode|testsetup|testcleanup)::", stripped):
            block_indent = indent
        elif stripped.startswith((">>>", "...")):
            lines.append(stripped)
    return lines


def test_docs_examples_run_from_an_installed_package() -> None:
    """No example imports the checkout's ``tests`` or ``docs`` packages (a wheel has neither)."""
    found = [
        f"{path.relative_to(DOCS)}: {line}"
        for path in sorted(DOCS.rglob("*.rst"))
        for line in _examples(path.read_text(encoding="utf-8"))
        if _CHECKOUT_ONLY.search(line)
    ]
    assert not found, "examples that only run in a checkout:\n" + "\n".join(found)


def test_docs_have_no_optional_toctree_or_stale_words() -> None:
    """Every toctree entry exists (no ``toctree-existing``), and no page keeps words we retired."""
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert "toctree-existing" not in conf and "OptionalTocTree" not in conf
    stale = re.compile(
        r"toctree-existing|when present|stated in the seed|garbled in the seed|team's rule decisions"
        r"|/work/|cardcore-view/1"
    )
    found = [
        f"{path.relative_to(DOCS)}:{n}: {line.strip()}"
        for path in sorted(DOCS.rglob("*.rst"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if stale.search(line)
    ]
    assert not found, "\n".join(found)


def test_migration_guide_is_linked() -> None:
    """The migration guide is in the plugin guide's toctree and the changelog points to it."""
    assert (DOCS / "plugin-guide" / "migration.rst").is_file()
    index = (DOCS / "plugin-guide" / "index.rst").read_text(encoding="utf-8")
    assert re.search(r"^\s+migration\s*$", index, re.M)
    assert ":doc:`plugin-guide/migration`" in (DOCS / "changelog.rst").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "name", ["kings_zero", "no_hearts", "cap_twenty", "two_jokers", "event_log"]
)
def test_docs_snippets_are_tested(name: str) -> None:
    """Every plugin module the docs show is exercised in tests/test_hooks.py."""
    assert f'_snippet("{name}")' in (ROOT / "tests" / "test_hooks.py").read_text(encoding="utf-8")


_BLOCKS = re.compile(r"^\s*\.\.\s+(?:testcode|doctest)::|^\s*>>>", re.M)
_FROM_INNER = re.compile(r"\bfrom\s+(cardcore\.[\w.]+)\s+import\s+\(?([\w\s,]+)")


def test_docs_examples_import_from_one_place() -> None:
    """Examples import a public name from ``cardcore`` itself, never from the inner module
    that defines it (``from cardcore.cards import Card``): one import style to learn.
    Modules that are not re-exported (``cardcore.notation``, ``cardcore.rl``...) are
    imported from where they are."""
    import cardcore

    public = set(cardcore.__all__)
    found = []
    for path in sorted(DOCS.rglob("*.rst")):
        for line in _examples(path.read_text(encoding="utf-8")):
            m = _FROM_INNER.search(line)
            if m is None:
                continue
            names = {part.split(" as ")[0].strip() for part in m.group(2).split(",")}
            if names & public:
                found.append(f"{path.relative_to(DOCS)}: {line}")
    assert not found, "examples importing public names from inner modules:\n" + "\n".join(found)


RUN_EVERY_EXAMPLE = ["cli", "tutorial", "agents", "embedding", "testing-kit", "games/[!i]*"]
"""Pages whose Python examples are all run (doctest or testcode), none a mere code block."""


@pytest.mark.parametrize("pattern", RUN_EVERY_EXAMPLE)
def test_docs_python_examples_are_run(pattern: str) -> None:
    pages = sorted(DOCS.glob(f"{pattern}.rst"))
    assert pages, pattern
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert ".. code-block:: python" not in text, f"{page.name}: a Python example nobody runs"
        assert _BLOCKS.search(text), f"{page.name} runs no example"


def test_wheel_docs_script_runs_the_doctests_from_wheels() -> None:
    """``.ci/wheel_docs.sh`` (CI) is valid shell that builds wheels and runs Sphinx's doctests."""
    script = ROOT / ".ci" / "wheel_docs.sh"
    subprocess.run(["bash", "-n", str(script)], check=True)
    text = script.read_text(encoding="utf-8")
    assert " wheel " in text and "-b doctest" in text and "examples/go_fish" in text


def test_no_page_takes_the_name_of_a_page_sphinx_writes() -> None:
    """A page called ``search`` (or ``genindex``) is overwritten by Sphinx's own in the HTML."""
    taken = {"search", "genindex", "py-modindex", "modindex"}
    clash = [p.name for p in DOCS.glob("*.rst") if p.stem in taken]
    assert not clash, f"rename {clash}: Sphinx writes its own page under that name"
