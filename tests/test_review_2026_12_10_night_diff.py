"""Review of ``git diff 18e0306..HEAD -- src plugins docs`` (sessions, agents, notation).

Passing tests: claims of the diff that hold, and valid use that still works as before
(the pinned digests were computed with a worktree of 18e0306). Strict xfails: bugs.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math

import numpy as np
import pytest

import cardcore
from cardcore import ArgumentError, NotationError, OptionError
from cardcore.search.ismcts import ISMCTSAgent
from cardcore.session import Hub, Session, SessionConfig, SessionError
from cardcore.session.config import Limits
from cardcore.session.protocol import ProtocolError, read_message
from cardcore.session.sqlite import SQLiteStore
from cardcore.session.store import MemoryStore
from cardcore.simulate import _make_agent, _seed_of
from cardcore_golf.actions import read_notation
from cardcore_golf.agents import GolfGreedyAgent
from cardcore_spit.agents import SpitGreedyAgent, SpitHumanAgent, reaction_delay
from cardcore_spit.piles import row_wise_order
from cardcore_tonk.actions import parse_action
from cardcore_tonk.agents import TonkHeuristicAgent


def _digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


# -- agents: same play as 18e0306 for the same seeds --------------------------------------


def test_tonk_heuristic_plays_as_before_for_same_seeds() -> None:
    out = []
    for seed in (3, 11, 2026):
        game = cardcore.new_game("tonk", 3, seed=seed)
        result = cardcore.play(game, [TonkHeuristicAgent(seed=seed * 10 + s) for s in range(3)])
        out.append([list(result.scores), game.record()["actions"]])
    assert _digest(out) == "73e4048f1a46fc6030e7"  # the digest 18e0306 gives


def test_spit_agents_games_and_reaction_delays_as_before() -> None:
    out = []
    for seed in (1, 7):
        game = cardcore.new_game("spit", 2, seed=seed)
        agents = [SpitGreedyAgent(seed=1), SpitHumanAgent(seed=2)]
        result = cardcore.run_realtime(game, agents, seed=seed)
        out.append([list(result.scores), game.record()["actions"]])
    a, b = SpitGreedyAgent(seed=5), SpitHumanAgent(seed=6)
    out.append([reaction_delay(x.rng, x.mean, x.sigma) for x in (a, b) for _ in range(10)])
    assert _digest(out) == "0c11222da7975c0e4452"  # the digest 18e0306 gives


# -- agents: how the core builds them ---------------------------------------------------------


def test_core_derived_seeds_are_never_negative_and_build_every_builtin_agent() -> None:
    seeds = [
        _seed_of(_seed_of(study, i), 1000 + s)
        for study in (0, 1, 2**62)
        for i in range(50)
        for s in range(4)
    ]
    assert min(seeds) >= 0
    for spec in (
        "random",
        "ismcts:iterations=5",
        "golf-greedy",
        "spit-greedy",
        "spit-human",
        "tonk-heuristic",
    ):
        assert _make_agent(spec, seeds[0]) is not None
        assert _make_agent(spec, 0) is not None


def test_simulate_plays_with_builtin_agents() -> None:
    summary = cardcore.simulate(
        "tonk", players=2, agents=["tonk-heuristic:samples=4", "random"], games=2, seed=3
    )
    assert summary.games == 2


def test_agents_as_docs_build_them() -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    result = cardcore.play(game, [GolfGreedyAgent(seed=1), cardcore.RandomAgent(seed=2)])
    assert len(result.scores) == 2
    game = cardcore.new_game("golf", 2, seed=5)
    result = cardcore.play(game, [ISMCTSAgent(seed=7, iterations=10), cardcore.RandomAgent(1)])
    assert len(result.scores) == 2


def test_tonk_samples_numpy_int_accepted_and_bounds_inclusive() -> None:
    assert TonkHeuristicAgent(seed=0, samples=np.int64(12)).samples == 12
    assert TonkHeuristicAgent(seed=0, samples=10_000, drop_margin=-100.0).samples == 10_000
    assert SpitGreedyAgent(seed=0, mean=60.0, sigma=3.0).mean == 60.0
    assert SpitGreedyAgent(seed=0, mean=0, sigma=0).mean == 0
    for bad in ({"samples": 10_001}, {"drop_margin": math.nan}, {"drop_margin": 100.5}):
        with pytest.raises(OptionError):
            TonkHeuristicAgent(seed=0, **bad)
    for bad in ({"mean": 60.5}, {"sigma": math.nan}, {"mean": 10**400}):
        with pytest.raises(OptionError):
            SpitGreedyAgent(seed=0, **bad)


@pytest.mark.parametrize(
    "factory",
    [
        cardcore.RandomAgent,
        ISMCTSAgent,
        GolfGreedyAgent,
        SpitGreedyAgent,
        SpitHumanAgent,
        TonkHeuristicAgent,
    ],
)
def test_negative_seed_refused_zero_and_none_accepted(factory: type) -> None:
    with pytest.raises(OptionError):
        factory(seed=-1)
    assert factory(seed=0) is not None
    assert factory(seed=None) is not None
    assert factory(seed=2**100) is not None


@pytest.mark.parametrize("name", ["random", "golf-greedy", "spit-greedy", "tonk-heuristic"])
def test_negative_seed_refused_by_name(name: str) -> None:
    with pytest.raises(OptionError):
        cardcore.load_agent(name, seed=-3)


def _view_and_legal(game_name: str, seed: int) -> tuple[object, int, list]:
    game = cardcore.new_game(game_name, 2, seed=seed)
    for _ in range(200):
        for seat in range(2):
            legal = list(game.legal_actions(seat))
            if len(legal) > 1:
                return game.view(seat), seat, legal
        game.apply(next(iter(game.legal_actions(game.to_act[0]))))
    raise AssertionError("no decision with several legal actions")


@pytest.mark.parametrize(
    ("game_name", "factory"),
    [("golf", GolfGreedyAgent), ("spit", SpitGreedyAgent), ("tonk", TonkHeuristicAgent)],
)
def test_choose_empty_legal_is_argument_error(game_name: str, factory: type) -> None:
    view, _seat, legal = _view_and_legal(game_name, 1)
    agent = factory(seed=0)
    with pytest.raises(ArgumentError):
        agent.choose(view, [])
    assert agent.choose(view, legal) in legal


def test_tonk_choose_empty_leaves_memory_and_later_choices_unchanged() -> None:
    view, _seat, legal = _view_and_legal("tonk", 2)
    a, b = TonkHeuristicAgent(seed=9), TonkHeuristicAgent(seed=9)
    before = copy.deepcopy((a._hand_key, a._last, a._seen, a.rng.getstate()))
    with pytest.raises(ArgumentError):
        a.choose(view, [])
    assert (a._hand_key, a._last, a._seen, a.rng.getstate()) == before
    assert a.choose(view, legal) == b.choose(view, legal)


# -- notation helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", [None, 5, ["draw"], {"a": 1}, b"draw"])
def test_notation_helpers_refuse_no_text_with_notation_error(text: object) -> None:
    with pytest.raises(NotationError):
        read_notation(text)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        parse_action(0, text)  # type: ignore[arg-type]
    assert str(parse_action(0, "draw")) == "draw"
    assert read_notation("flip 2")[1] == 2


def test_row_wise_order_checks_counts() -> None:
    assert row_wise_order(7) == (0, 1, 2, 3, 4, 1, 2)
    assert row_wise_order(0) == ()
    for bad in (-1, 1.0, True, None):
        with pytest.raises(ArgumentError):
            row_wise_order(bad)  # type: ignore[arg-type]


def test_row_wise_order_takes_numpy_int_as_before() -> None:
    assert row_wise_order(np.int64(7)) == (0, 1, 2, 3, 4, 1, 2)


# -- sessions -----------------------------------------------------------------------------------


def test_session_config_given_accepted_and_empty_dict_refused() -> None:
    session = Session.create(
        "golf", 2, now=1.0, config=SessionConfig(limits=Limits(max_message=100_000))
    )
    assert session.config.limits.max_message == 100_000
    assert isinstance(Session.create("golf", 2, now=1.0, config=None).config, SessionConfig)
    with pytest.raises(OptionError):
        Session.create("golf", 2, now=1.0, config={})  # type: ignore[arg-type]


def test_resume_from_sqlite_at_ordinary_time_and_bad_times_refused(tmp_path) -> None:
    store = SQLiteStore(str(tmp_path / "s.db"))
    session = Session.create("golf", 2, now=1_700_000_000.0, store=store, session_id="abc")
    session.issue_token(0, 1_700_000_001.0)
    resumed = Session.resume(store, "abc", 1_700_000_100.5)
    assert resumed.id == "abc"
    assert resumed.phase == session.phase
    assert Session.resume(store, "abc", 5).id == "abc"  # an int time
    for bad in (math.nan, math.inf, -math.inf, 1e16, "1", None):
        with pytest.raises(OptionError):
            Session.resume(store, "abc", bad)  # type: ignore[arg-type]
    hub = Hub(store)
    assert hub.resume_all(1_700_000_200.0) == []
    assert "abc" in hub.sessions
    store.close()


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_create_refuses_stored_id_and_keeps_stored_session(kind: str, tmp_path) -> None:
    store = MemoryStore() if kind == "memory" else SQLiteStore(str(tmp_path / "d.db"))
    first = Session.create("golf", 2, now=10.0, store=store, session_id="dup", seed=1)
    with pytest.raises(SessionError):
        Session.create("tonk", 3, now=20.0, store=store, session_id="dup")
    again = Session.resume(store, "dup", 30.0)
    assert again.players == first.players == 2
    hub = Hub(store)
    with pytest.raises(SessionError):
        hub.create("golf", 2, now=40.0, session_id="dup")
    assert "dup" not in hub.sessions


def test_create_refuses_a_non_store() -> None:
    with pytest.raises(OptionError):
        Session.create("golf", 2, now=1.0, store=object())  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        Session.create("golf", 2, now=1.0, store={})  # type: ignore[arg-type]


def test_storeless_hub_refuses_an_id_it_holds() -> None:
    hub = Hub()
    first = hub.create("golf", 2, now=1.0, session_id="x")
    with pytest.raises(SessionError):
        hub.create("golf", 2, now=2.0, session_id="x")
    assert hub.sessions["x"] is first


def test_hub_close_of_no_text_closes_nothing_and_ordinary_close_works() -> None:
    hub = Hub(MemoryStore())
    session = hub.create("golf", 2, now=1.0)
    assert hub.close(123, 2.0) == []  # type: ignore[arg-type]
    assert hub.close(["x"], 2.0) == []  # type: ignore[arg-type]
    assert session.id in hub.sessions
    hub.close(session.id, 3.0)
    assert session.id not in hub.sessions
    assert session.phase == "closed"


# -- protocol -----------------------------------------------------------------------------------


def test_read_message_deep_nesting_is_a_protocol_error() -> None:
    deep_text = '{"type": "ping", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(ProtocolError) as info:
        read_message(deep_text, 10**7)
    assert info.value.code in ("bad-json", "bad-message")
    nested: list = []
    cur = nested
    for _ in range(100_000):
        cur.append([])
        cur = cur[0]
    with pytest.raises(ProtocolError) as info:
        read_message({"type": "act", "id": 1, "action": nested}, 100)
    assert info.value.code == "bad-message"
    with pytest.raises(ProtocolError) as info:
        read_message({"type": "ping", "deep": nested}, 100)
    assert info.value.code == "bad-message"


def test_read_message_max_size() -> None:
    assert read_message('{"type": "ping"}', 8192)["type"] == "ping"
    assert read_message(b'{"type": "ping"}', 16)["type"] == "ping"
    with pytest.raises(ProtocolError) as info:
        read_message('{"type": "ping"}', 15)
    assert info.value.code == "too-large"
    for bad in (0, -1, True, 1.5, None, "8192"):
        with pytest.raises(ArgumentError):
            read_message('{"type": "ping"}', bad)  # type: ignore[arg-type]


class _Id(str):
    """A str subclass, as a StrEnum member or a framework's text type is."""


def test_hub_close_of_str_subclass_id_closes_as_before() -> None:
    hub = Hub(MemoryStore())
    session = hub.create("golf", 2, now=1.0, session_id=_Id("abc"))
    hub.close(_Id("abc"), 2.0)
    assert "abc" not in hub.sessions
    assert session.phase == "closed"
