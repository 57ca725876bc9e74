"""A strictly typed user's view of cardcore (2026-12-19): ``mypy --strict`` on user code.

``tests/typing_user_2026_12_19/`` holds user code written from the docs and docstrings
only: host code, event subscribers, agents, search, simulate and compare, a session
embedded without the web server, the RL environments, and a small game plugin with a
hookspec and a house rule. One mypy run (no config file, as a user's project would run it
against the installed package) checks the whole package; each test reads its part of the
output.

* clean modules must type-check with no error;
* ``reveals.py``: each ``# R: T`` comment is the type mypy must reveal on that line
  (module prefixes stripped);
* ``rejects.py`` and ``findings/*.py``: the lines marked ``# expect-error`` must be exactly
  the lines with errors (a findings file without marks must be clean). Each findings file
  is a typing problem of cardcore, so its test is a strict xfail: it passes once fixed.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")

HERE = Path(__file__).parent
PACKAGE = HERE / "typing_user_2026_12_19"
ROOT = HERE.parent

LINE = re.compile(
    r"^(?P<path>[^:]+\.py):(?P<line>\d+):(?:\d+:)? (?P<kind>error|note): (?P<text>.*)$"
)
QUALIFIED = re.compile(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_]\w*\b)")


class Output:
    """mypy's messages per file (relative to the package), per line."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.errors: dict[str, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
        self.notes: dict[str, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
        for raw in text.splitlines():
            m = LINE.match(raw)
            if not m:
                continue
            path = Path(m["path"])
            rel = (
                (path if path.is_absolute() else ROOT / path)
                .resolve()
                .relative_to(PACKAGE)
                .as_posix()
            )
            target = self.errors if m["kind"] == "error" else self.notes
            target[rel][int(m["line"])].append(m["text"])


@pytest.fixture(scope="module")
def mypy_output() -> Output:
    limit = sys.getrecursionlimit()  # mypy raises it to 2**14 for good, in this process:
    try:  # put back, or a later test of nesting too deep (here, in this worker) passes wrongly
        stdout, stderr, status = _mypy_run()
    finally:
        sys.setrecursionlimit(limit)
    assert status in (0, 1), f"mypy crashed ({status}): {stderr}\n{stdout}"
    assert "syntax" not in stdout, stdout
    return Output(stdout)


def _mypy_run() -> tuple[str, str, int]:
    return mypy_api.run(
        [
            "--config-file=",  # no project config: a user's project against the installed package
            "--strict",
            "--python-version=3.11",
            "--no-incremental",
            "--cache-dir=/dev/null",
            "--show-column-numbers",
            "--no-error-summary",
            "--no-pretty",
            "--show-error-codes",
            str(PACKAGE.relative_to(ROOT)),
        ]
    )


def marked(rel: str, mark: str) -> dict[int, str]:
    """The lines of *rel* carrying ``# <mark>``, with what follows the mark."""
    lines = (PACKAGE / rel).read_text().splitlines()
    return {
        i: line.split(f"# {mark}", 1)[1].strip()
        for i, line in enumerate(lines, 1)
        if f"# {mark}" in line
    }


def check_marked_errors(out: Output, rel: str) -> None:
    expected = set(marked(rel, "expect-error"))
    got = out.errors.get(rel, {})
    assert set(got) == expected, (
        f"{rel}: errors on lines {sorted(got)}, expected {sorted(expected)}:\n"
        + "\n".join(f"  {line}: {msg}" for line, msgs in sorted(got.items()) for msg in msgs)
    )


# -- claims that hold -----------------------------------------------------------------------

CLEAN = [
    "__init__.py",
    "play_api.py",
    "events_api.py",
    "agents_api.py",
    "session_api.py",
    "rl_api.py",
    "plugin_api.py",
    "exports.py",
    "reveals.py",
    "highcard/__init__.py",
    "highcard/actions.py",
    "highcard/state.py",
    "highcard/logic.py",
    "highcard/hookspecs.py",
    "highcard/rules.py",
    "highcard/must_hit.py",
]


def test_every_package_file_is_accounted_for() -> None:
    files = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}
    findings = {f for f in files if f.startswith("findings/")}
    assert files == set(CLEAN) | {"rejects.py"} | findings
    assert findings == {f"findings/{name}.py" for name in FINDINGS} | {"findings/__init__.py"}


@pytest.mark.parametrize("rel", CLEAN)
def test_user_code_type_checks_strict(mypy_output: Output, rel: str) -> None:
    """Typed user code over the documented API passes ``mypy --strict`` without a cast."""
    errors = mypy_output.errors.get(rel, {})
    assert not errors, "\n".join(
        f"{rel}:{line}: {msg}" for line, msgs in sorted(errors.items()) for msg in msgs
    )


def test_revealed_types_are_precise(mypy_output: Output) -> None:
    """Result, Game, Summary, Comparison, events (Self), subscribe (generic) reveal precise types."""
    expected = marked("reveals.py", "R:")
    assert len(expected) >= 20
    notes = mypy_output.notes.get("reveals.py", {})
    for line, want in expected.items():
        revealed = [n for n in notes.get(line, []) if n.startswith("Revealed type is")]
        assert len(revealed) == 1, f"reveals.py:{line}: no reveal_type note ({notes.get(line)})"
        got = QUALIFIED.sub("", revealed[0].removeprefix("Revealed type is ").strip('"'))
        assert got == QUALIFIED.sub("", want), (
            f"reveals.py:{line}: revealed {got!r}, expected {want!r}"
        )


def test_annotations_catch_user_mistakes(mypy_output: Output) -> None:
    """Mismatched handlers, text for actions, wrong agent kinds, frozen events are errors."""
    check_marked_errors(mypy_output, "rejects.py")


def test_api_page_names_are_in_all() -> None:
    """api.rst: every ``cardcore.X`` it documents is in ``cardcore.__all__`` (but LedgerError)."""
    import cardcore

    text = (ROOT / "docs" / "api.rst").read_text()
    names = set(
        re.findall(
            r"^\.\. auto(?:class|function|exception):: cardcore\.([A-Za-z_]\w*)\b(?!\.)", text, re.M
        )
    )
    names |= set(re.findall(r"^\.\. py:data:: ([A-Z_]+|__version__)$", text, re.M))
    names -= {"MAX_PLAYERS", "MAX_DECKS", "LEGACY_CHANCE", "RECORD_FORMAT", "RECORD_VERSIONS"}
    names -= {
        "SAVE_FORMAT",
        "SAVE_VERSIONS",
        "MAX_GAMES",
        "DECK_CACHE",
        "MAX_SEED_BITS",
        "MAX_NOTATION",
        "MAX_TIME",
        "BASE_EVERY",
        "MAX_BYTES",
        "MAX_DEPTH",
        "MAX_INT_BITS",
    }  # module-level, documented so
    assert len(names) >= 75
    assert names - set(cardcore.__all__) == set()


def test_typed_plugin_runs() -> None:
    """The typed plugin is real: registered, played plain and with its house rule's option."""
    from tests.typing_user_2026_12_19 import plugin_api

    plugin_api.register()
    try:
        plain, house, game = plugin_api.play_both(seed=3)
        assert plain.reason == house.reason == "all stood"
        assert game.view(0)["table"]["stood"] == [True, True]
    finally:
        plugin_api.unregister()


# -- findings: typing problems of cardcore (strict xfail: they pass once fixed) --------------

FINDINGS = {
    "compare_attribute": "cardcore.compare.Estimate, documented as an attribute, is attr-defined to mypy",
    "view_envelope": "Game.view() is dict[str, Any]: documented envelope fields need casts",
    "game_options": "Game.options is Any, not Mapping[str, Any] (a mappingproxy at run time)",
    "aec_last": "CardEnv.last() is typed ObsType | None: the rl page's first example fails",
    "aec_match": "CardEnv.match is Match | None: env.match.game (documented) fails",
    "aec_agents_any": "CardEnv does not parametrize AECEnv: agent ids are Any",
    "seat_env_space": "SeatEnv.action_space is Space, not Discrete: .n (documented) fails",
    "seat_env_unwrapped": "SeatEnv.unwrapped is gymnasium's Env: .runner (documented) fails",
    "hub_create_kwargs": "Hub.create(**kwargs: Any) loses Session.create's keyword types",
    "session_create_deck": "Session.create(deck=) is narrower than new_game's, as its docstring claims",
    "rule_applies": "RuleInfo(applies=) is Any though documented as name -> tuple of values",
}


OPEN: set[str] = set()  # findings still open (each a strict xfail); every other one is fixed
"""Fixed on 2026-12-19: game_options, aec_*, seat_env_*, hub_create_kwargs, session_create_deck,
rule_applies. Judged, their errors now expected (marked ``# expect-error`` in their files):
compare_attribute (the docs tell typed code to import the names) and view_envelope (a view is
JSON data read with any ``str`` key)."""


def _finding(name: str) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=FINDINGS[name])] if name in OPEN else []
    return pytest.param(name, id=name, marks=marks)


@pytest.mark.parametrize("name", [_finding(name) for name in FINDINGS])
def test_finding(mypy_output: Output, name: str) -> None:
    check_marked_errors(mypy_output, f"findings/{name}.py")


def test_documented_module_names_in_all() -> None:
    """testing.rst documents cardcore.testing.MAX_FAILURES; api.rst cardcore.scoring.LedgerError."""
    import cardcore.scoring
    import cardcore.testing

    assert "MAX_FAILURES" in cardcore.testing.__all__
    assert "LedgerError" in cardcore.scoring.__all__
