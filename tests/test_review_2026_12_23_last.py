"""Review of 2992fc5 (2026-12-23): the house rules on the terminal's game screen and on the web
play page, ``cardcore verify`` naming its file, the SQLite store's table check, and the docs.

Every game is dealt from a fixed seed or a stacked deck. Claims that hold pass; each bug is a
strict xfail that asserts the right behaviour.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import subprocess
import sys
import types
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import cardcore
from cardcore import Option, RuleInfo, cli
from cardcore.cli.render import render_view
from cardcore.session import SQLiteStore, StoreError
from cardcore.session.fair import BUNDLE_FORMAT
from tests.games.golf.helpers import stack

CLI = [sys.executable, "-m", "cardcore.cli"]
EVIL_NAME = "golf.x[bold]y<img src=x onerror=window.__pwned=1>"
EVIL_VALUE = "[red]r[/red]<img src=x onerror=window.__pwned=2>\\"


def _env(columns: int) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NO_COLOR", "FORCE_COLOR", "CARDCORE_TRACEBACK", "PYTHONIOENCODING")
    }
    env.update({"COLUMNS": str(columns), "LINES": "50", "PYTHONUTF8": "1", "LC_ALL": "C.UTF-8"})
    return env


def _run(args: list[str], stdin: str = "", columns: int = 100) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=30,
        env=_env(columns),
        check=False,
    )


def _main(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def _flat(text: str) -> str:
    """Screen text without the panel's borders and without any whitespace (lines rejoined)."""
    return "".join(text.replace("│", " ").split())


def _screen(game: cardcore.Game, seat: int | None = 0, width: int = 100) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(render_view(game.view(seat), game.view_schema()))
    return console.export_text()


@contextlib.contextmanager
def _evil_rule() -> Iterator[str]:
    """A third-party Golf rule whose name and str option's default hold markup and HTML."""
    rule = RuleInfo(
        id="XGOLF-EVIL-1",
        name=EVIL_NAME,
        game="golf",
        summary="a rule with hostile text",
        options=(
            Option("evil_text", default=EVIL_VALUE, kind=str, doc="text", rule_id="XGOLF-EVIL-1"),
        ),
    )
    module = types.ModuleType("golf_evil")
    module.RULE = rule  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", EVIL_NAME, module)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (it implements no hook: changes nothing)
            yield EVIL_NAME
    finally:
        cardcore.unregister("cardcore.rules", EVIL_NAME)


# --- the terminal's game screen --------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rules", "options", "line"),
    [
        ("golf", [], {}, None),
        ("golf", ["golf.hard"], {}, "rules: golf.hard"),
        (
            "golf",
            ["golf.bonus-card"],
            {"bonus_card": "QH"},
            "rules: golf.bonus-card (bonus_card=QH)",
        ),
        ("tonk", [], {}, "rules: tonk.natural-49-50"),  # Tonk's default rule
        ("tonk", ["tonk.no-upcard"], {}, "rules: tonk.natural-49-50, tonk.no-upcard"),
        ("spit", [], {}, None),
        ("spit", ["spit.same-rank", "spit.canfield"], {}, "rules: spit.same-rank, spit.canfield"),
        ("speed", ["speed.stuck-on-request"], {}, "rules: speed.stuck-on-request"),
        ("gofish", [], {}, None),
    ],
)
def test_screen_lists_the_rules_in_its_body_not_its_title(
    game: str, rules: list[str], options: dict[str, Any], line: str | None
) -> None:
    g = cardcore.new_game(game, 2, rules=rules, options=options, seed=3)
    text = _screen(g)
    title = text.splitlines()[0]
    assert "rules" not in title
    found = [ln[ln.index("rules:") :].rstrip("│ ") for ln in text.splitlines() if "rules:" in ln]
    assert found == ([] if line is None else [line])
    assert "rules:" not in _screen(g, None).splitlines()[0]  # a spectator's title neither
    if line is not None:
        assert line in _screen(g, None)


def test_screen_prints_a_third_party_rules_markup_and_control_characters_as_text() -> None:
    with _evil_rule() as name:
        game = cardcore.new_game(
            "golf", 2, rules=[name], options={"evil_text": "a\x1b[2J[bold]b"}, seed=1
        )
        text = _screen(game)
    assert f"rules: {EVIL_NAME} (evil_text=a\\x1b[2J[bold]b)" in text
    assert "\x1b" not in text


def test_play_golf_at_40_columns_wraps_both_rules_and_the_option() -> None:
    done = _run(
        [
            "play",
            "golf",
            "-o",
            "layout=4h",
            "-o",
            "rounds=1",
            "--seed",
            "22",
            "--no-record",
            "--rules",
            "golf.bonus-card,golf.hand-same-value",
            "-o",
            "bonus_card=Q",
        ],
        stdin="k\n",
        columns=40,
    )
    assert done.returncode == 0, done.stderr
    assert "rules:golf.bonus-card(bonus_card=Q),golf.hand-same-value" in _flat(done.stdout)
    assert max(len(line) for line in done.stdout.splitlines()) <= 40


def test_replay_final_of_a_third_party_rules_record_shows_its_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    path = tmp_path / "evil.json"
    with _evil_rule() as name:
        game = cardcore.new_game("golf", 2, rules=[name, "golf.bonus-card"], seed=1)
        game.act(0, "flip 0")
        path.write_text(json.dumps(game.record()), encoding="utf-8")
        code, out, err = _main(["replay", str(path), "--final"])
    assert code == 0, err
    assert f"{EVIL_NAME} (evil_text={EVIL_VALUE})" in out
    assert "golf.bonus-card (bonus_card=2)" in out


def test_replay_of_a_record_whose_rule_is_not_installed_names_the_rule_and_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "gone-rule.json"
    with _evil_rule() as name:
        game = cardcore.new_game("golf", 2, rules=[name], seed=1)
        path.write_text(json.dumps(game.record()), encoding="utf-8")
    for command in (["replay", str(path), "--final"], ["verify", str(path)]):
        code, _, err = _main(command)
        assert code == 2
        assert "gone-rule.json" in err and "not installed" in err and "Traceback" not in err


def test_realtime_spit_screen_at_40_columns_lists_the_rules() -> None:
    done = _run(
        [
            "play",
            "spit",
            "--seed",
            "3",
            "--bot-speed",
            "30",
            "--no-record",
            "--rules",
            "spit.same-rank,spit.canfield",
        ],
        stdin="quit\n",
        columns=40,
    )
    assert done.returncode == 0, done.stderr
    assert "rules:spit.same-rank,spit.canfield" in _flat(done.stdout)


# --- cardcore verify ---------------------------------------------------------------------------


def test_verify_names_the_file_of_a_damaged_record(tmp_path: Path) -> None:
    path = tmp_path / "bad-record.json"
    path.write_text(json.dumps({"format": "cardcore-record", "game": "golf"}), encoding="utf-8")
    code, _, err = _main(["verify", str(path)])
    assert code == 2 and "bad-record.json" in err


def test_verify_names_the_file_of_a_damaged_bundle(tmp_path: Path) -> None:
    path = tmp_path / "bad-bundle.json"
    path.write_text(json.dumps({"format": BUNDLE_FORMAT[0]}), encoding="utf-8")
    code, _, err = _main(["verify", str(path)])
    assert code == 2 and "not a fair-deal bundle" in err
    assert "bad-bundle.json" in err


# --- the SQLite store's table check -------------------------------------------------------------

SESSIONS = (
    "CREATE TABLE sessions (id TEXT PRIMARY KEY, status TEXT NOT NULL, created REAL NOT NULL,"
    " updated REAL NOT NULL, meta TEXT NOT NULL);"
)


def _file(path: Path, sql: str) -> bytes:
    db = sqlite3.connect(path)
    db.executescript(sql)
    db.commit()
    db.close()
    return path.read_bytes()


def _tables(path: Path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return sorted(
            r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        )
    finally:
        db.close()


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE TABLE actions (session TEXT, idx INTEGER, seat INTEGER, notation TEXT, at REAL);",
        "CREATE TABLE tokens (session TEXT, seat INTEGER, digest TEXT, expires REAL); CREATE TABLE users (id);",
        "CREATE TABLE users (id INTEGER, name TEXT);",
    ],
)
def test_a_file_without_cardcores_sessions_table_is_refused_unchanged(
    tmp_path: Path, sql: str
) -> None:
    path = tmp_path / "other.db"
    before = _file(path, sql)
    with pytest.raises(StoreError, match="no sessions table of cardcore's"):
        SQLiteStore(path)
    assert path.read_bytes() == before


def test_a_first_open_cut_short_after_sessions_is_completed(tmp_path: Path) -> None:
    path = tmp_path / "cut.db"
    _file(path, SESSIONS)
    SQLiteStore(path)._db.close()
    assert _tables(path) == ["actions", "messages", "sessions", "tokens"]


def test_an_existing_store_opens_again(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    SQLiteStore(path)._db.close()
    SQLiteStore(path)._db.close()
    assert _tables(path) == ["actions", "messages", "sessions", "tokens"]


def test_another_apps_database_with_a_lookalike_sessions_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "webapp.db"
    before = _file(path, SESSIONS + " CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);")
    with pytest.raises(StoreError):
        SQLiteStore(path)
    assert path.read_bytes() == before


def test_a_file_with_a_sessions_view_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "views.db"
    _file(path, "CREATE VIEW sessions AS SELECT 1 AS id;")
    with pytest.raises(StoreError):
        SQLiteStore(path)
    assert _tables(path) == []


# --- docs claims --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "ok"), [("Q", True), ("QH", True), ("10H", True), ("qh", False), ("Qh", False)]
)
def test_golf_bonus_card_is_written_in_capitals(value: str, ok: bool) -> None:
    """golf.rst GOLF-SCORE-10: a rank such as Q or a card such as QH, in capitals."""

    def make():
        return cardcore.new_game(
            "golf", 2, rules=["golf.bonus-card"], options={"bonus_card": value}, seed=1
        )

    if ok:
        assert make().options["bonus_card"] == value
    else:
        with pytest.raises(cardcore.OptionError):
            make()


def test_golf_greedy_plays_alike_whatever_the_scoring_rules() -> None:
    """golf.rst Agent: golf-greedy values cards by BASIC whatever the house rules; the queens
    named as bonus cards (-2) do not make it take the upcard QC."""
    agent = cardcore.load_agent("golf-greedy")
    deck = stack(["QH QS 5C 7D 9H 3C", "QD 10H 5H 7S 4D 6H"], "QC", "2C 3H 4S 5S 6S 7C 8C 9C")

    def moves(rules: list[str], **options: Any) -> list[str]:
        g = cardcore.new_game(
            "golf", 2, rules=rules, options={"rounds": 1, **options}, deck=deck, seed=1
        )
        agents = [agent(seed=0), agent(seed=0)]
        out = []
        while not g.is_over and len(out) < 12:
            seat = g.to_act[0]
            act = str(agents[seat].choose(g.view(seat), g.legal_actions(seat)))
            out.append(act)
            g.act(seat, act)
        return out

    basic = moves([])
    assert "take" not in basic[:6]
    assert moves(["golf.bonus-card"], bonus_card="Q") == basic
    assert moves(["golf.hard"]) == basic


def test_store_error_holds_the_errors_type_and_text(tmp_path: Path) -> None:
    """session.rst: store_error is the error's type and text."""
    from tests.test_docs_claims_2026_12_23 import _act, _session

    db = tmp_path / "live.db"
    _store, session = _session(db)
    _act(session, 1.0)
    other = tmp_path / "other.db"
    SQLiteStore(other)._db.close()
    os.replace(other, db)
    assert "ok" in _act(session, 2.0)
    assert session.store_error is not None
    assert session.store_error.startswith("StoreError: cannot write to ")


# --- the web play page --------------------------------------------------------------------------

try:
    from cardcore.session import SessionConfig
    from tests.web.test_browser import browser, no_frame_leaks, server  # noqa: F401

    WEB = Path("/usr/bin/chromium").exists()
except Exception:  # pragma: no cover - no browser stack
    WEB = False

web = pytest.mark.skipif(not WEB, reason="no browser")


def _pages(
    browser: Any, server: Any, game: str, seed: int, rules: list[str], options: dict[str, Any]
) -> list[Any]:
    base, hub = server
    session = hub.hub.create(
        game,
        ["Ann", "Bob"],
        now=hub.host.clock(),
        seed=seed,
        rules=rules,
        options=options or None,
        config=SessionConfig(limits=hub.limits, spectator_delay=0),
    )
    url = f"{base}/play/{session.id}"
    pages = []
    for tail in ("#seat=0", "#seat=1", "#watch"):
        context = browser.new_context(viewport={"width": 360, "height": 640})
        page = context.new_page()
        page.goto(url + tail)
        pages.append(page)
    for page in pages:  # the deal starts when both seats have joined
        page.wait_for_function("() => window.cardcore.view !== null")
    return pages


def _close(pages: list[Any]) -> None:
    for page in pages:
        page.context.close()


@web
def test_play_page_shows_rules_and_options_to_seats_and_watchers(browser: Any, server: Any) -> None:
    pages = _pages(
        browser, server, "golf", 11, ["golf.bonus-card"], {"bonus_card": "QH", "layout": "4"}
    )
    try:
        for page in pages:
            assert page.inner_text("#rules") == (
                "House rules: golf.bonus-card. Options: layout 4 · bonus_card QH."
            )
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        _close(pages)


@web
def test_play_page_sets_a_hostile_rule_name_and_option_as_text(browser: Any, server: Any) -> None:
    with _evil_rule() as name:
        pages = _pages(browser, server, "golf", 11, [name], {})
    try:
        for page in pages:
            text = page.inner_text("#rules")
            assert f"House rules: {EVIL_NAME}." in text and f"evil_text {EVIL_VALUE}." in text
            assert page.evaluate("document.querySelectorAll('#rules *').length") == 0
            assert page.evaluate("window.__pwned === undefined")
    finally:
        _close(pages)


@web
def test_realtime_play_page_shows_rules_and_options(browser: Any, server: Any) -> None:
    pages = _pages(browser, server, "spit", 3, ["spit.same-rank"], {})
    try:
        for page in pages:
            assert (
                page.inner_text("#rules") == "House rules: spit.same-rank. Options: stall_limit 20."
            )
    finally:
        _close(pages)


@web
def test_a_long_option_value_does_not_widen_a_360_px_page(browser: Any, server: Any) -> None:
    with _evil_rule() as name:
        pages = _pages(browser, server, "golf", 11, [name], {"evil_text": "x" * 120})
    try:
        widths = [
            page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            for page in pages
        ]
        assert all(scroll <= inner for scroll, inner in widths), widths
    finally:
        _close(pages)
