"""Docs figures audit (2026-12-07): non-timed figures and claims of the user pages.

Each test names the page and line of the claim it checks. A claim found false is a
strict xfail whose reason says what is true. Timed figures are not asserted here.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import math
import tomllib
from pathlib import Path

import pytest

import cardcore

ROOT = Path(__file__).resolve().parent.parent


def _outcome(game, seat, text):
    """The action's text as recorded, or the name of the error it raised."""
    try:
        return str(game.act(seat, text))
    except cardcore.CardcoreError as error:
        return type(error).__name__


# --- search-agents.rst -------------------------------------------------------


AGENT_TABLE = {
    # search-agents.rst:286-305: parameter (default; [bounds])
    "random": (
        {"seed": 0, "reaction": 0.5, "spread": 0.3},
        {"reaction": (0, 60), "spread": (0, 3)},
    ),
    "ismcts": (
        {
            "seed": 0,
            "iterations": 200,
            "time": None,
            "c": 0.7,
            "rollout": "game",
            "max_rollout": 500,
            "observe": True,
            "depth": None,
            "prior": 1.0,
            "reuse": 1,
            "reaction": 0.5,
            "spread": 0.3,
        },
        {
            "iterations": (1, 2000),
            "time": (0, 2),
            "c": (0, 100),
            "max_rollout": (1, 1000),
            "depth": (1, 1000),
            "prior": (0, 100),
            "reuse": (1, 2000),
            "reaction": (0, 60),
            "spread": (0, 3),
        },
    ),
    "golf-greedy": ({"seed": 0}, {}),
    "tonk-heuristic": (
        {"seed": 0, "samples": 48, "drop_margin": 0.9},
        {"samples": (1, 10000), "drop_margin": (-100, 100)},
    ),
    "spit-greedy": ({"seed": 0, "mean": 0.3, "sigma": 0.35}, {"mean": (0, 60), "sigma": (0, 3)}),
    "spit-human": ({"seed": 0, "mean": 0.9, "sigma": 0.5}, {"mean": (0, 60), "sigma": (0, 3)}),
    "gofish-basic": ({"seed": 0}, {}),
}


@pytest.mark.parametrize("name", sorted(AGENT_TABLE))
def test_search_agents_286_parameter_table(name):
    defaults, bounds = AGENT_TABLE[name]
    factory = cardcore.load_agent(name)
    params = {k: p.default for k, p in inspect.signature(factory).parameters.items()}
    assert params == defaults
    assert dict(getattr(factory, "parameter_bounds", None) or {}) == bounds


def test_search_agents_302_spit_greedy_median_about_028():
    median = 0.3 * math.exp(-(0.35**2) / 2)
    assert round(median, 2) == 0.28


def test_search_agents_78_time_only_spec_parses():
    assert cardcore.parse_agent_spec("ismcts:time=0.5,iterations=none") == (
        "ismcts",
        {"time": 0.5, "iterations": None},
    )


def test_search_agents_162_sample_drawn_again_up_to_20_times():
    from cardcore.search import ismcts

    assert ismcts.ATTEMPTS == 20


# --- agents.rst --------------------------------------------------------------


def test_agents_68_max_time_and_constants():
    # agents.rst:68 MAX_TIME 1e15; embedding.rst:203 VIEW_FORMAT; embedding.rst:400 HOST -1
    from cardcore import _driver

    assert _driver.MAX_TIME == 1e15
    assert cardcore.VIEW_FORMAT == "cardcore-view/2"
    assert cardcore.HOST == -1
    assert isinstance(cardcore.STALE_WINDOW, int) and cardcore.STALE_WINDOW > 0


def test_agents_124_aliases_of_cardcore_01():
    import cardcore_golf.agents as golf
    import cardcore_spit.agents as spit
    import cardcore_tonk.agents as tonk

    assert golf.GreedyGolfAgent is golf.GolfGreedyAgent
    assert tonk.HeuristicAgent is tonk.TonkHeuristicAgent
    assert spit.GreedyBot is spit.SpitGreedyAgent
    assert spit.HumanBot is spit.SpitHumanAgent


def test_agents_157_builtin_agents_bound_every_numeric_parameter_but_seed():
    for name in cardcore.available_agents():
        factory = cardcore.load_agent(name)
        bounds = getattr(factory, "parameter_bounds", None) or {}
        for key, param in inspect.signature(factory).parameters.items():
            numeric = isinstance(param.default, int | float) and not isinstance(param.default, bool)
            if key != "seed" and (numeric or key in ("time", "depth")):
                assert key in bounds, (name, key)


# --- notation.rst ------------------------------------------------------------


def test_notation_13_to_22_numbers_and_lengths():
    golf = cardcore.new_game("golf", 2, seed=5)
    assert _outcome(golf.clone(), 0, "flip 00") == "flip 0"  # :14
    assert _outcome(golf.clone(), 0, "flip 6") == "IllegalActionError"  # :20
    assert _outcome(golf.clone(), 0, "flip " + "0" * 15) == "flip 0"  # :19
    assert _outcome(golf.clone(), 0, "flip " + "0" * 16) == "NotationError"
    assert _outcome(golf.clone(), 0, "flip\x1c0") == "flip 0"  # :9
    assert _outcome(golf.clone(), 0, "flip\u00a00") == "NotationError"  # :10 ASCII only
    assert _outcome(golf.clone(), 0, "flip 0" + " " * 195) == "NotationError"  # :16 200 chars
    tonk = cardcore.new_game("tonk", 2, seed=11)
    seat = tonk.to_act[0]
    assert _outcome(tonk.clone(), seat, "hit 0 AS") == "NotationError"  # :21
    assert _outcome(tonk.clone(), seat, "hit 9 AS") == "IllegalActionError"
    spit = cardcore.new_game("spit", 2, seed=2)
    spit.act(0, "ready")
    spit.act(1, "ready")
    assert _outcome(spit.clone(), 0, "play 6 L") == "NotationError"  # :22
    assert _outcome(spit.clone(), 0, "play 05 L") == "NotationError"  # :15 single digits


def test_notation_85_golf_short_forms_are_read():
    golf = cardcore.new_game("golf", 2, seed=5)
    for short in ("d", "t", "r 0", "x", "f 0", "p 0", "k"):
        assert _outcome(golf.clone(), 0, short) != "NotationError", short


def test_notation_46_fifty_three_card_codes():
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    codes = {str(cardcore.Card.parse(r + s)) for r in ranks for s in "SHDC"}
    codes.add(str(cardcore.Card.parse("JK")))
    assert len(codes) == 53
    with pytest.raises(cardcore.NotationError):
        cardcore.Card.parse("11H")


def test_notation_66_resign_and_end_not_in_legal_actions():
    for name in ("golf", "tonk", "spit", "speed"):
        game = cardcore.new_game(name, 2, seed=3)
        for seat in range(2):
            verbs = {str(a) for a in game.legal_actions(seat)}
            assert "resign" not in verbs and "end" not in verbs


def test_notation_126_max_position():
    from cardcore import positions

    assert positions.MAX_POSITION == 20_000


# --- embedding.rst / tutorial.rst / README / index ---------------------------


def test_embedding_337_record_format_3_and_old_formats_recorded_as_2():
    game = cardcore.new_game("golf", 2, seed=3)
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], max_actions=10)
    record = game.record()
    assert record["format_version"] == 3
    for old in (1, 2):
        again = cardcore.replay(dict(record, format_version=old))
        assert again.record()["format_version"] == 2


def test_tutorial_21_golf_match_is_nine_rounds_by_default():
    game = cardcore.new_game("golf", 2, seed=1)
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert game.result.reason == "rounds"
    assert len(game.history(None)) == 9


def test_index_13_games_and_readme_layouts():
    assert {"golf", "tonk", "spit", "speed"} <= set(cardcore.available_games())
    golf = {o.name: o for o in cardcore.get_ruleset("golf").logic.info.options}
    # README:10 6-, 8-, 9-, 10-card grids, 4-card face-down, 4 cards in hand
    assert set(golf["layout"].choices) == {6, 8, 9, 10, 4, "4h"}
    tonk = {o.name: o for o in cardcore.get_ruleset("tonk").logic.info.options}
    assert tonk["max_players"].default == 3  # web.rst:191


def test_readme_30_python_and_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11"
    extras = project["optional-dependencies"]
    assert set(extras) == {"cli", "dask", "dev", "rl", "plot", "web", "web-test"}
    dev = {req.split(">")[0].split("<")[0].split("=")[0] for req in extras["dev"]}
    assert {
        "pytest",
        "pytest-xdist",
        "hypothesis",
        "sphinx",
        "furo",
        "mypy",
        "ruff",
        "matplotlib",
        "mutmut",
    } <= dev


# --- hooks.rst ---------------------------------------------------------------


def test_hooks_22_each_core_hook_has_a_test_hook_name():
    from cardcore import hookspecs

    names = [
        n for n, f in inspect.getmembers(hookspecs, inspect.isfunction) if not n.startswith("_")
    ]
    assert names
    tree = ast.parse((ROOT / "tests" / "test_hooks.py").read_text())
    tests = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    assert {f"test_hook_{n}" for n in names} <= tests


# --- session.rst -------------------------------------------------------------


def test_session_defaults_and_sizes():
    from cardcore import session
    from cardcore.session import _flow, fair, protocol, tokens

    assert _flow.MAX_STEPS_PER_CALL == 10_000  # :30
    assert tokens.TOKEN_BYTES == 32  # :62
    config = {k: p.default for k, p in inspect.signature(session.SessionConfig).parameters.items()}
    assert config["spectator_delay"] == 2  # :122
    clock = {k: p.default for k, p in inspect.signature(session.TimeControl).parameters.items()}
    assert clock["fallback"] == "first" and clock["restart"] == "pause"  # :188, :245
    assert clock["turn"] is None and clock["total"] is None  # :164 all off by default
    assert fair.SEED_BYTES == 32 and fair.SALT_BYTES == 16  # :308
    assert protocol.MAX_ID == 64  # :480
    assert cardcore.CHANCE == 3  # :314


def test_session_311_commitment_formula():
    from cardcore.session import fair

    seed, salt = bytes(range(32)), bytes(range(16))
    expected = hashlib.sha256(b"cardcore-fair/2\0" + bytes([3]) + seed + salt).hexdigest()
    assert fair.commitment_of(seed, salt) == expected
    legacy = hashlib.sha256(b"cardcore-fair/1\0" + seed + salt).hexdigest()
    assert fair.commitment_of(seed, salt, None) == legacy


# --- web.rst -----------------------------------------------------------------


def test_web_limits():
    from cardcore import info
    from cardcore.cli import serve
    from cardcore.session import aio
    from cardcore.web import _args, _requests, app

    assert app.MAX_DEPTH == 32  # :438
    assert _requests.MAX_BODY == 65_536  # :440
    assert serve.MAX_HEAD == 64 * 1024  # :446
    assert aio.QUEUE == 4096 and aio.MAX_QUEUED == 1 << 20  # :404-406
    assert _args.MAX_BOT_DELAY == 60 and _args.MAX_BOT_PACE == 100  # :64-66
    assert _requests.MAX_CLOCK == 86_400  # :325
    assert info.MAX_PLAYERS == 64  # :366


def _tests_in(path):
    tree = ast.parse((ROOT / path).read_text())
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test")
    ]


def test_web_590_fifteen_browser_tests():
    count = len(_tests_in("tests/web/test_browser.py")) + len(
        _tests_in("tests/web/test_two_windows.py")
    )
    assert count == 15


def test_web_464_server_limits_table():
    from cardcore.web.app import ServerLimits

    defaults = {k: p.default for k, p in inspect.signature(ServerLimits).parameters.items()}
    assert defaults == {
        "max_sessions": 1000,
        "max_per_client": 0,
        "max_bot_games": 4,
        "idle_close": 3600,
        "idle_when_full": 300,
        "page": 50,
        "max_page": 200,
        "max_sockets": 4096,
        "max_sockets_per_client": 0,
        "join_wait": 60,
        "keep_over": 3600,
    }
    env = {
        "CARDCORE_MAX_SESSIONS": "7",
        "CARDCORE_MAX_BOT_GAMES": "2",
        "CARDCORE_MAX_SESSIONS_PER_CLIENT": "3",
        "CARDCORE_IDLE_CLOSE": "10.5",
        "CARDCORE_MAX_SOCKETS": "9",
        "CARDCORE_MAX_SOCKETS_PER_CLIENT": "4",
        "CARDCORE_JOIN_WAIT": "5.5",
        "CARDCORE_KEEP_OVER": "0",
    }
    limits = ServerLimits.from_env(env)
    assert (limits.max_sessions, limits.max_bot_games, limits.max_per_client) == (7, 2, 3)
    assert (limits.idle_close, limits.max_sockets, limits.max_sockets_per_client) == (10.5, 9, 4)
    assert (limits.join_wait, limits.keep_over) == (5.5, 0)
    for bad in ("1_000", "1e3", "inf", "1.5"):
        with pytest.raises(cardcore.CardcoreError):
            ServerLimits.from_env({"CARDCORE_MAX_SESSIONS": bad})
    for var in ("CARDCORE_IDLE_CLOSE", "CARDCORE_JOIN_WAIT"):
        with pytest.raises(cardcore.CardcoreError):
            ServerLimits.from_env({var: "0.5"})  # 0 or at least 1 second


def test_web_458_keep_over_takes_seconds_as_the_other_seconds_do():
    from cardcore.web.app import ServerLimits

    assert ServerLimits.from_env({"CARDCORE_KEEP_OVER": "1.5"}).keep_over == 1.5
    with pytest.raises(cardcore.CardcoreError):
        ServerLimits.from_env({"CARDCORE_KEEP_OVER": "0.5"})


def _default(game, seat):
    action = game.logic.default_action(game.state, seat)
    return None if action is None else str(action)


def test_session_214_default_moves_of_the_builtin_games():
    golf = cardcore.new_game("golf", 2, seed=7)
    assert _default(golf, 0) == "flip 0"
    for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
        golf.act(seat, text)
    assert _default(golf, 0) == "draw"
    golf.act(0, "draw")
    assert _default(golf, 0) == "discard"
    golf.act(0, "discard")
    golf.act(1, "take")
    assert _default(golf, 1) == str(golf.legal_actions(1)[0]) == "replace 0"

    tonk = cardcore.new_game("tonk", 2, seed=4)
    seat = tonk.to_act[0]
    assert _default(tonk, seat) == "draw"
    tonk.act(seat, "draw")
    chosen = _default(tonk, seat)
    assert chosen.startswith("discard ")
    hand = next(z for z in tonk.view(seat)["zones"] if z["name"] == f"hand.{seat}")["cards"]
    rank = {"A": 1, "J": 10, "Q": 10, "K": 10}
    value = {card: rank.get(card[:-1]) or int(card[:-1]) for card in hand}
    assert value[chosen.split()[1]] == max(value.values()), (chosen, hand)

    spit = cardcore.new_game("spit", 2, seed=2)
    assert _default(spit, 0) == "ready"
    spit.act(0, "ready")
    spit.act(1, "ready")
    assert _default(spit, 0) == "spit"
    spit.act(0, "spit")
    assert _default(spit, 0) is None

    speed = cardcore.new_game("speed", 2, seed=2)
    assert _default(speed, 0) == "stuck"
    speed.act(0, "stuck")
    assert _default(speed, 0) is None


def test_session_478_protocol_store_and_tables():
    from cardcore import session
    from cardcore.session import sqlite

    assert session.PROTOCOL == "cardcore-session/1"
    methods = {n for n, _ in inspect.getmembers(session.Store) if not n.startswith("_")}
    assert len(methods) == 5  # :458 "the same five methods"
    for table in ("sessions", "actions", "tokens", "messages"):
        assert (
            f"CREATE TABLE IF NOT EXISTS {table}" in sqlite.SCHEMA
            or f"CREATE TABLE {table}" in sqlite.SCHEMA
        )


def test_rl_105_about_one_game_in_forty_lost_before_the_first_decision():
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
    assert 1 / 60 < lost / games < 1 / 25
