"""Review of the late fixes (``git log c253756d..HEAD``, and the deal digest and replay notes
they finish): compare's deal digests and ``GameRecord.deal``, the options named by
``check_agent_specs``, ``cardcore replay``'s notes, the bare Golf loop's cached tables and
the new benchmark scripts, and the docs' new sentences (web, session, performance, rl, events).

A strict xfail marks each claim found false; every other test is a claim that held.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import pickle
import random
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import attrs
import pytest
from rich.console import Console

import cardcore
from cardcore import Event, plugins
from cardcore.agents import RandomAgent, run_realtime
from cardcore.cli import commands
from cardcore.compare import GameRecord

ROOT = Path(__file__).resolve().parent.parent


def _cli(*argv: str) -> tuple[int, str, str]:
    from cardcore import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _replay(path: Path, **kwargs: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    console = Console(file=out, width=200, color_system=None, force_terminal=False)
    args = argparse.Namespace(
        record=str(path),
        seat=kwargs.get("seat"),
        at=kwargs.get("at"),
        final=kwargs.get("final", False),
        step=False,
    )
    with contextlib.redirect_stderr(err):
        code = commands.cmd_replay(console, args, input)
    return code, out.getvalue(), err.getvalue()


# -- 1. compare: GameRecord.deal, deals, to_json ----------------------------------------------

_FIELDS = (
    ("side", 1),
    ("probe", False),
    ("index", 3),
    ("seed", 99),
    ("strong", -1),
    ("lineup", 1),
    ("first", 0),
    ("winners", (1,)),
    ("scores", (3.0, 1.0)),
    ("reason", "rounds"),
    ("actions", 40),
    ("rounds", 1),
    ("overruns", (0, 0)),
    ("slowest", (0.1, 0.2)),
    ("seconds", (0.3, 0.4)),
    ("decisions", (10, 11)),
)


def test_game_record_builds_by_position_and_keyword_and_pickles() -> None:
    values = [v for _, v in _FIELDS]
    old = GameRecord(*values)  # the 16 fields of before: deal defaults to 0
    assert old.deal == 0
    assert GameRecord(*values, 12345).deal == 12345
    kw = GameRecord(**dict(_FIELDS), deal=7)
    assert kw == attrs.evolve(old, deal=7)
    assert [f.name for f in attrs.fields(GameRecord)][-1] == "deal"
    for record in (old, kw):
        back = pickle.loads(pickle.dumps(record))
        assert back == record and type(back) is GameRecord


def test_comparison_to_json_holds_no_deal_digest_and_its_fields_as_documented() -> None:
    result = cardcore.compare("golf", players=2, games=2, seed=1, skill=None, options={"rounds": 1})
    data = result.to_json()
    fields = {f.name for f in attrs.fields(type(result))}
    assert set(data) == fields
    assert '"deal"' not in json.dumps(data)
    assert data["same_deals"] is True
    assert data["deals"] == (
        "both configurations deal the same cards from the same seed: duplicate deals"
    )


def test_compare_counts_only_the_studys_games_with_probes_on() -> None:
    kwargs: dict[str, Any] = {
        "players": 2,
        "games": 8,
        "seed": 2,
        "options": {"first_dealer": 1},
        "vs_options": {},
    }
    on = cardcore.compare("tonk", skill=("tonk-heuristic", "random"), **kwargs)
    assert "in 1 of 8 games" in on.deals and not on.same_deals


def test_cli_compare_json_keeps_the_documented_deals_sentence(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    code, _, err = _cli(
        "compare", "golf", "--games", "2", "--players", "2", "--skill", "none",
        "--option", "rounds=1", "--json", str(out),
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out.read_text())
    assert data["same_deals"] is True and "duplicate deals" in data["deals"]


# -- 2. check_agent_specs: the option named, and play/simulate unchanged ---------------------


@pytest.mark.parametrize(
    ("argv", "start"),
    [
        (("compare", "golf", "--games", "2", "--agents", "nope"), "--agents: no agent called"),
        (("compare", "golf", "--games", "2", "--vs-agents", "nope"), "--vs-agents: no agent"),
        (("compare", "golf", "--games", "2", "--skill", "nope"), "--skill: no agent called"),
        (
            ("compare", "golf", "--games", "2", "--vs-agents", "ismcts:iterations=-1"),
            "--vs-agents: agent 'ismcts': iterations must be",
        ),
        (("compare", "golf", "--games", "2", "--agents", "tonk-heuristic"), "--agents: "),
        (("simulate", "golf", "--games", "2", "--agents", "nope"), "no agent called 'nope'"),
        (
            ("simulate", "golf", "--games", "2", "--agents", "ismcts:iterations=-1"),
            "agent 'ismcts': iterations must be",
        ),
        (("play", "golf", "--agent", "nope"), "no agent called 'nope'"),
        (("play", "golf", "--agent", "ismcts:iterations=-1"), "agent 'ismcts': iterations"),
    ],
)
def test_agent_refusals_are_one_line_status_2_named_only_by_compare(
    argv: tuple[str, ...], start: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", *argv],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and done.stdout == ""
    assert lines[0].startswith(f"error: {start}"), lines
    if argv[0] != "compare":
        assert "--agent" not in lines[0]


# -- 3. cardcore replay: notes that fail, a game without notes -------------------------------

_BROKEN = "speed-notes-raise"


@pytest.fixture
def broken_notes_game() -> Any:
    speed = plugins._load("cardcore.games", "speed")
    calls: list[int] = []

    def broken(events: object, action: object) -> list[str]:
        calls.append(1)
        raise KeyError("hand")

    ns = types.SimpleNamespace(**{k: getattr(speed, k) for k in dir(speed) if k[:2] != "__"})
    ns.GAME = attrs.evolve(speed.GAME, name=_BROKEN, notes=broken)
    plugins.register("cardcore.games", _BROKEN, ns)
    try:
        yield calls
    finally:
        plugins.unregister("cardcore.games", _BROKEN)


def test_replay_goes_on_past_a_notes_hook_that_raises(
    tmp_path: Path, broken_notes_game: list[int]
) -> None:
    game = cardcore.new_game(_BROKEN, 2, seed=5)
    run_realtime(
        game, [RandomAgent(1, reaction=0.3), RandomAgent(2, reaction=0.3)], seed=5, max_actions=60
    )
    rec = game.record()
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(rec))
    for seat in (None, 0):
        broken_notes_game.clear()
        code, out, err = _replay(path, seat=seat)
        assert code == 0
        numbered = [line for line in out.splitlines() if line.startswith("#")]
        assert len(numbered) == len(rec["actions"])  # every action shown, none cut short
        assert broken_notes_game == [1]  # the hook was called once (and raised): asked no more
        assert out.count("the game's notes failed (KeyError)") == 1  # one line, no traceback
        assert "Traceback" not in err and "KeyError" not in err
    plain = cardcore.replay(rec)
    assert plain.version == len(rec["actions"])


def test_replay_of_a_game_without_notes_prints_every_action(tmp_path: Path) -> None:
    game = cardcore.new_game("golf", 2, seed=3, options={"rounds": 1})
    cardcore.play(game, [RandomAgent(1), RandomAgent(2)])
    assert game.ruleset.game.notes is None
    path = tmp_path / "golf.json"
    path.write_text(json.dumps(game.record()))
    code, out, err = _replay(path)
    assert code == 0 and err == ""
    assert sum(line.startswith("#") for line in out.splitlines()) == game.version
    assert "game over" in out


# -- 4. benchmarks ---------------------------------------------------------------------------


def _load(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bare_golf() -> types.ModuleType:
    return _load("rv9_bare_golf", ROOT / "benchmarks" / "bare_golf.py")


def test_bare_golf_cached_tables_are_the_fresh_ones(bare_golf: types.ModuleType) -> None:
    bare_golf._TABLES.clear()
    for players in (4, 2, 8, 3, 5, 7, 6, 2, 4):  # mixed order: each seat count its own entry
        bare_golf.play_match(random.Random(players).random, players, 1)
        getters, orders = bare_golf._TABLES[players]
        fresh = bare_golf._deal_getters(players)
        stock = list(range(1000, 1000 + 60 * players))
        assert [g(stock) for g in getters] == [g(stock) for g in fresh]
        n = 6 * players
        assert orders == tuple(
            tuple(range(6 * f, n, 6)) + tuple(range(0, 6 * f, 6)) for f in range(players)
        )
    assert sorted(bare_golf._TABLES) == list(range(2, 9))


def test_bare_golf_plays_the_same_matches_as_before_the_cache(
    bare_golf: types.ModuleType, tmp_path: Path
) -> None:
    text = subprocess.run(
        ["git", "show", "f0df1e2d^:benchmarks/bare_golf.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    (tmp_path / "bare_golf_old.py").write_text(text)
    old = _load("rv9_bare_golf_old", tmp_path / "bare_golf_old.py")
    for players in (2, 3, 4, 5, 6, 7, 8, 3, 2):
        for seed in range(2):
            assert bare_golf.play_match(random.Random(seed).random, players, 3) == (
                old.play_match(random.Random(seed).random, players, 3)
            )


def test_bare_golf_lockstep_with_the_engine_after_the_cache(
    bare_golf: types.ModuleType,
) -> None:
    for players in (4, 2, 3, 4):
        assert bare_golf.check_against_engine(games=2, seed=10 * players, players=players) > 0


@pytest.mark.parametrize("loop", ["golf", "tonk"])
def test_bare_ab_runs_and_prints_its_summary(loop: str) -> None:
    done = subprocess.run(
        [
            *(sys.executable, "benchmarks/bare_ab.py", "f0df1e2d^", "--loop", loop),
            "--rounds",
            "2",
            "--matches",
            "20",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("this tree / f0df1e2d^: median x") and "of 2 rounds" in last


# -- 5. docs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("var", ["CARDCORE_KEEP_OVER", "CARDCORE_IDLE_CLOSE", "CARDCORE_JOIN_WAIT"])
def test_web_rst_seconds_variables(var: str) -> None:
    from cardcore.web.app import ServerLimits, WebError

    field = var.removeprefix("CARDCORE_").lower()
    assert getattr(ServerLimits.from_env({var: "1.5"}), field) == 1.5
    assert getattr(ServerLimits.from_env({var: "0"}), field) == 0
    for bad in ("0.5", "1e3", "1_000", "inf"):
        with pytest.raises(WebError, match=var):
            ServerLimits.from_env({var: bad})


def test_session_rst_names_the_script_that_prints_its_figures() -> None:
    page = (ROOT / "docs" / "session.rst").read_text()
    assert page.count("python benchmarks/session_costs.py") >= 3
    script = (ROOT / "benchmarks" / "session_costs.py").read_text()
    for label in (
        "history, Tonk at version",
        "takeback, Tonk",
        "the first (a rebuild)",
        "the digests (seal)",
        "the SQLite commit",
        "tail digest, 256 messages kept",
        "each after a decline (allowed)",
    ):
        assert label in script, label


def test_performance_rst_new_section_names_real_commits_and_files() -> None:
    page = (ROOT / "docs" / "performance.rst").read_text()
    section = page.split("The Golf loop builds its tables once")[1].split("A run with")[0]
    for sha in ("f0df1e2d", "37ca7c6a", "4e03803a"):
        assert sha in section
        subprocess.run(["git", "cat-file", "-e", f"{sha}^{{commit}}"], cwd=ROOT, check=True)
    assert (ROOT / "tests" / "test_yardstick_review_2026_12_07.py").is_file()
    assert (ROOT / "benchmarks" / "bare_ab.py").is_file()
    changed = subprocess.run(
        ["git", "diff", "--name-only", "4e03803a", "37ca7c6a", "--", "src/cardcore/records.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert changed.strip() == "src/cardcore/records.py"  # replay's one comparison


def test_rl_rst_22_of_1026_games() -> None:
    import warnings

    pytest.importorskip("gymnasium")
    import cardcore.rl as rl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = rl.gym_env("tonk", 2, opponents="tonk-heuristic")
        games = lost = 0
        for seed in range(1000):
            _, info = env.reset(seed=seed)
            skipped = info.get("skipped", [])
            games += 1 + len(skipped)
            lost += sum(1 for game in skipped if game["reward"] < 0)
    assert (lost, games) == (22, 1026)


def test_events_rst_a_handler_subscribed_from_action_applied_hears_the_next_action() -> None:
    from cardcore import ActionApplied

    game = cardcore.new_game("golf", 2, seed=4)
    heard: list[Event] = []
    actions: list[ActionApplied] = []

    def on_action(event: ActionApplied) -> None:
        actions.append(event)
        if len(actions) == 1:
            game.events.subscribe(Event, heard.append)

    game.events.subscribe(ActionApplied, on_action)
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert heard == []  # this action's events were never built
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert heard and type(heard[0]) is ActionApplied
    assert any(type(e) is not ActionApplied for e in heard)  # the game's own events


def test_events_rst_to_json_one_way_and_pickling_round_trips() -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    heard: list[Event] = []
    game.events.subscribe(Event, heard.append)
    for _ in range(4):
        game.apply(game.legal_actions(game.to_act[0])[0])
    assert heard
    for event in heard:
        assert not hasattr(type(event), "from_json")
        json.dumps(event.to_json())
        back = pickle.loads(pickle.dumps(event))
        assert back == event and type(back) is type(event)
    cards = [e for e in heard if any(isinstance(v, cardcore.Card) for v in e.fields().values())]
    for event in cards:
        data = event.to_json()
        assert all(not isinstance(v, cardcore.Card) for v in data.values())
