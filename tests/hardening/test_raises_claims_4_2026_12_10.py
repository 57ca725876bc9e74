"""Audit 2026-12-10, fourth part: documented ``:raises X:`` clauses and odd inputs of the
public names the first three audits did not reach.

Covered here: :class:`cardcore.session.Session` (``create``, ``resume``, ``handle``,
``tick``, ``issue_token``), :class:`cardcore.session.Hub`,
:func:`cardcore.session.protocol.read_message`; the built-in games' agents, notation
helpers and options at their bounds (Golf, Tonk, Spit, Speed); the RL environments'
``step``/``reset`` and :func:`cardcore.rl.observe` / :func:`cardcore.rl.encoding_for`.

Bugs are strict xfails asserting the right behaviour; claims that hold are plain tests.
Nothing here calls what would hang: ``TonkHeuristicAgent(samples=10**400)`` is accepted,
and its ``choose`` would sample (practically) forever, so its test only builds it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import re
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import (
    ArgumentError,
    CardcoreError,
    IllegalActionError,
    NotationError,
    OptionError,
    RandomAgent,
    SeatError,
    load_agent,
    new_game,
    play,
    run_realtime,
)
from cardcore.rl import aec_env, encoding_for, gym_env, observe, vector_env
from cardcore.session import (
    CorruptSessionError,
    Hub,
    MemoryStore,
    ProtocolError,
    Session,
    SessionConfig,
    SessionError,
    TimeControl,
)
from cardcore.session.protocol import read_message

HUGE = 10**400


class Sub(str):
    """A str subclass, as a host's framework may hand over."""


def _deep(levels: int = 100_000) -> list[Any]:
    value: list[Any] = []
    for _ in range(levels):
        value = [value]
    return value


def _show(value: Any) -> str:
    if type(value) is int and abs(value) > 10**30:
        return "HUGE"
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))[:30]  # the same id in every process


@pytest.fixture(autouse=True)
def _quiet_session_log() -> Any:
    """The session logs the exceptions it swallows; they are what the tests look at."""
    logging.disable(logging.CRITICAL)
    yield
    logging.disable(logging.NOTSET)


def _golf_session(store: Any = None, **kwargs: Any) -> tuple[Session, list[str]]:
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7, store=store, **kwargs)
    out = session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    out += session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    tokens = [o.message["token"] for o in out if o.message.get("type") == "welcome"]
    assert session.phase == "playing"
    return session, tokens


def _codes(out: list[Any]) -> list[tuple[Any, Any]]:
    return [(o.message.get("type"), o.message.get("code")) for o in out]


# -- the protocol -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ('{"type":"ping","t":' + "9" * 5000 + "}", "bad-json"),
        ("[" * 100_000, "bad-json"),
        ('{"type":"ping","id":"\\ud800"}', "bad-message"),
        ('{"type":"ping","t":1e999}', "bad-message"),
        ('{"type":"ping"}\x00', "bad-json"),
        ('{"type":"ping","type":"ping"}', "bad-json"),
        ('{"type":"ping","t":NaN}', "bad-json"),
        (b"\xff\xfe", "bad-json"),
        ({1: 2, "type": "ping"}, "bad-message"),
        ({"\ud800": 1, "type": "ping"}, "bad-message"),
        ({"type": "join", "seat": True}, "bad-message"),
        ({"type": "ping", "t": HUGE}, "bad-message"),
        ({"type": "act", "action": Sub("flip 0"), "seen": 0}, "bad-message"),
        ({"type": "act", "action": "x" * 201, "seen": 0}, "bad-message"),
        ({"type": "act", "action": b"flip 0", "seen": 0}, "bad-message"),
    ],
    ids=lambda v: _show(v) if not isinstance(v, str) or len(v) < 40 else "long",
)
def test_read_message_refuses_hostile_json_with_protocol_errors(raw: Any, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        read_message(raw, 1_000_000)
    assert caught.value.code == code


@pytest.mark.parametrize("field", ["id", "t"])
def test_read_message_of_a_deeply_nested_mapping_is_a_protocol_error(field: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        read_message({"type": "ping", field: _deep()}, 1_000_000)
    assert caught.value.code == "bad-message"


def test_handle_of_a_deeply_nested_mapping_answers_bad_message() -> None:
    session, _ = _golf_session()
    out = session.handle("ann", {"type": "act", "action": _deep(), "seen": 0}, now=3.0)
    assert _codes(out) == [("error", "bad-message")]
    assert session.game.version == 0


@pytest.mark.parametrize("max_size", [None, "10"])
def test_read_message_refuses_a_max_size_that_is_not_a_size(max_size: Any) -> None:
    with pytest.raises(CardcoreError):
        read_message('{"type": "ping"}', max_size)


# -- Session.handle / tick with odd actions and times -----------------------------------------


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "act", "action": "flip 0\x00", "seen": 0}, "notation"),
        ({"type": "act", "action": "flip " + "9" * 20, "seen": 0}, "notation"),
        ({"type": "act", "action": "x" * 200, "seen": 0}, "notation"),
        ({"type": "act", "action": "flip 99", "seen": 0}, "illegal"),
        ({"type": "act", "action": "flip 0", "seen": 2**53}, "bad-message"),
        ({"type": "act", "action": "flip 0", "seen": 5}, "bad-message"),
        ({"type": "act", "action": "flip 0", "seen": 0, "seat": 1}, "not-your-seat"),
        ({"type": "act", "action": 7, "seen": 0}, "bad-message"),
        ({"type": "act", "action": None, "seen": 0}, "bad-message"),
        ({"type": "takeback", "op": "REQUEST"}, "bad-message"),
        ({"type": "entropy", "value": "abc"}, "entropy-refused"),
        ({"type": "record"}, "not-over"),
    ],
    ids=lambda v: _show(v) if isinstance(v, dict) else str(v),
)
def test_handle_refuses_odd_messages_of_a_seat_and_changes_nothing(message: Any, code: str) -> None:
    session, _ = _golf_session()
    views = [json.dumps(session.game.view(s)) for s in range(2)]
    out = session.handle("ann", message, now=3.0)
    assert _codes(out) == [("error", code)]
    assert session.game.version == 0
    assert [json.dumps(session.game.view(s)) for s in range(2)] == views


def test_handle_reads_a_str_subclass_message_as_plain_text() -> None:
    session, _ = _golf_session()
    out = session.handle("ann", Sub('{"type":"act","action":"flip 0","seen":0}'), now=3.0)
    assert ("ok", None) in _codes(out)
    assert session.game.version == 1


@pytest.mark.parametrize(
    "now", [math.nan, math.inf, -math.inf, -1.0, HUGE, -HUGE, "5", None, 1e300], ids=_show
)
def test_handle_and_tick_with_an_odd_time_never_raise_nor_move_the_clock(now: Any) -> None:
    session, _ = _golf_session()
    session.handle("ann", '{"type":"ping"}', now=3.0)
    out = session.handle("ann", '{"type":"ping"}', now=now)
    assert _codes(out) == [("pong", None)]
    assert out[0].message["server_time"] == 3.0
    assert session.tick(now) == []
    assert session.now == 3.0


def test_handle_of_a_connection_id_that_cannot_be_a_key_is_dropped_untold() -> None:
    session, _ = _golf_session()
    assert session.handle(["x"], '{"type":"ping"}', now=3.0) == []
    assert session.disconnect(["x"], now=3.0) == []


def test_join_refuses_odd_seats_and_tokens_and_claims_nothing() -> None:
    session, tokens = _golf_session()
    for text, code in [
        ('{"type":"join","seat":5}', "no-seat"),
        ('{"type":"join","seat":64}', "bad-message"),
        ('{"type":"join","seat":-1}', "bad-message"),
        ('{"type":"join","seat":1.0}', "bad-message"),
        ('{"type":"join","seat":1,"token":"' + "a" * 128 + '"}', "bad-token"),
        ('{"type":"join","seat":1,"token":"' + "a" * 129 + '"}', "bad-message"),
        ('{"type":"join","seat":1,"token":"' + tokens[0] + '"}', "bad-token"),
        ('{"type":"join","seat":1}', "seat-taken"),
    ]:
        out = session.handle("zed", text, now=3.0)
        assert _codes(out) == [("error", code)], text
    assert "zed" not in session.conns
    assert sorted(session.tokens) == [0, 1]


# -- Session.create / issue_token / resume ---------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": None},
        {"players": np.int64(2)},
        {"players": HUGE},
        {"players": -HUGE},
        {"players": [1, 2]},
        {"players": ["a\x00", "b"]},
        {"players": ["a" * 10**6, "b"]},
        {"players": ["\ud800", "b"]},
        {"players": [[[]], "b"]},
        {"players": iter(["a", "b"])},
        {"now": math.nan},
        {"now": np.float32(1.0)},  # (a numpy float64 is a float: taken, as a plain float)
        {"now": True},
        {"now": HUGE},
        {"seed": "1"},
        {"seed": HUGE},
        {"seed": -1},
        {"seed": True},
        {"seed": np.int64(3)},
        {"session_id": 5},
        {"session_id": ""},
        {"session_id": "\ud800"},
        {"options": [("rounds", 1)]},
        {"options": {1: 2}},
        {"rules": "abc"},
        {"deck": 5},
        {"position": 5},
        {"config": {"fair": True}},
    ],
    ids=lambda kw: ",".join(f"{k}={_show(v)}" for k, v in kw.items()),
)
def test_create_refuses_odd_arguments_with_cardcore_errors(kwargs: dict[str, Any]) -> None:
    call: dict[str, Any] = {"players": 2, "now": 0.0, **kwargs}
    players = call.pop("players")
    with pytest.raises(CardcoreError):
        Session.create("golf", players, **call)


def test_create_with_a_session_id_already_stored_is_a_cardcore_error_and_keeps_the_first() -> None:
    store = MemoryStore()
    _golf_session(store, session_id="dup")
    before = store.load("dup").actions
    try:
        with pytest.raises(CardcoreError):
            Session.create("golf", 2, now=0.0, store=store, session_id="dup")
    finally:
        assert store.load("dup").actions == before
        assert Session.resume(store, "dup", 5.0).phase == "playing"


def test_create_refuses_a_store_that_is_not_a_store() -> None:
    with pytest.raises(CardcoreError):
        Session.create("golf", 2, now=0.0, store=object())


def test_create_refuses_an_empty_dict_for_config_as_it_refuses_any_dict() -> None:
    with pytest.raises(OptionError):
        Session.create("golf", 2, now=0.0, config={})


@pytest.mark.parametrize("seat", [np.int64(0), True, -1, 2, HUGE, "0", None, 0.0], ids=_show)
def test_issue_token_refuses_odd_seats_with_session_errors_and_claims_nothing(seat: Any) -> None:
    session = Session.create("golf", 2, now=0.0, seed=7)
    with pytest.raises(SessionError):
        session.issue_token(seat, 1.0)
    assert session.tokens == {}
    assert session.phase == "waiting"


@pytest.mark.parametrize("seat", [10**5000, "x" * 10**6], ids=["10**5000", "1MB-text"])
def test_issue_token_refuses_a_monstrous_seat_with_a_short_session_error(seat: Any) -> None:
    session = Session.create("golf", 2, now=0.0, seed=7)
    with pytest.raises(SessionError) as caught:
        session.issue_token(seat, 1.0)
    assert len(str(caught.value)) < 500
    assert session.tokens == {}


def _stored_golf_with_a_turn_clock() -> MemoryStore:
    store = MemoryStore()
    config = SessionConfig(time=TimeControl(turn=10.0))
    session, _ = _golf_session(store, session_id="g", config=config)
    assert session.next_deadline() == 12.0
    return store


@pytest.mark.parametrize("now", [math.nan, math.inf, 1e300], ids=_show)
def test_resume_refuses_a_time_create_refuses_or_the_session_keeps_running(now: float) -> None:
    store = _stored_golf_with_a_turn_clock()
    try:
        session = Session.resume(store, "g", now)
    except CardcoreError:
        return  # refused: fine
    out = session.tick(100.0)  # documented: never raises
    assert session.now == 100.0
    assert session.game.version > 0, "the turn clock (deadline 12.0) played its timeouts"
    assert out == [] or all(o.text for o in out)
    pong = session.handle("ann", '{"type":"ping"}', now=200.0)
    assert pong[0].message["server_time"] == 200.0


def test_resume_with_a_good_time_plays_the_expired_turn_clock() -> None:
    store = _stored_golf_with_a_turn_clock()
    session = Session.resume(store, "g", 5.0)
    session.tick(100.0)
    assert session.now == 100.0
    assert session.game.version > 0


@pytest.mark.parametrize("now", ["x", HUGE], ids=_show)
def test_resume_with_a_bad_time_does_not_call_the_stored_session_damaged(now: Any) -> None:
    store = _stored_golf_with_a_turn_clock()
    with pytest.raises(CardcoreError) as caught:
        Session.resume(store, "g", now)
    assert not isinstance(caught.value, CorruptSessionError)
    assert "damaged" not in str(caught.value)


@pytest.mark.parametrize("session_id", [None, 5, "nope", "g\x00"], ids=_show)
def test_resume_of_no_such_session_is_a_session_error(session_id: Any) -> None:
    store = _stored_golf_with_a_turn_clock()
    with pytest.raises(SessionError):
        Session.resume(store, session_id, 5.0)


def test_hub_never_raises_after_resume_all_with_an_infinite_time() -> None:
    store = MemoryStore()
    hub = Hub(store)
    config = SessionConfig(time=TimeControl(turn=10.0))
    hub.create("golf", ["A", "B"], now=0.0, seed=7, session_id="g", config=config)
    hub.handle("a", '{"type":"join","seat":0,"session":"g"}', now=1.0)
    hub.handle("b", '{"type":"join","seat":1,"session":"g"}', now=2.0)
    restarted = Hub(store)
    restarted.resume_all(math.inf)
    out = restarted.handle("a", '{"type":"join","seat":0,"session":"g"}', now=60.0)
    assert out
    restarted.tick(70.0)


def test_hub_close_of_an_id_that_is_no_text_is_refused_or_a_no_op() -> None:
    hub = Hub(MemoryStore())
    hub.create("golf", 2, now=0.0, seed=7, session_id="g")
    with contextlib.suppress(CardcoreError):
        assert hub.close(["x"], 1.0) == []
    assert "g" in hub.sessions


def test_an_illegal_tonk_action_naming_a_hidden_card_does_not_say_who_holds_it() -> None:
    session = Session.create("tonk", ["A", "B"], now=0.0, seed=7)
    session.handle("a", '{"type":"join","seat":0}', now=1.0)
    session.handle("b", '{"type":"join","seat":1}', now=2.0)
    game = session.game
    card = r'"((?:10|[2-9AJQK])[SHDC])"'
    hidden = sorted(
        set(re.findall(card, json.dumps(game.view(1))))
        - set(re.findall(card, json.dumps(game.view(0))))
    )
    assert hidden
    session.handle("a", json.dumps({"type": "act", "action": "draw", "seen": 0}), now=3.0)
    version = game.version
    text = "discard " + hidden[0]
    out = session.handle("a", json.dumps({"type": "act", "action": text, "seen": version}), 4.0)
    assert _codes(out) == [("error", "illegal")]
    message = out[0].message["message"]
    assert "seat 1" not in message and "holds" not in message.replace("does not hold", "")
    assert game.version == version


# -- built-in games: agents, helpers, options ---------------------------------------------------

AGENTS = ["golf-greedy", "spit-greedy", "spit-human", "tonk-heuristic"]
GAME_OF = {
    "golf-greedy": "golf",
    "spit-greedy": "spit",
    "spit-human": "spit",
    "tonk-heuristic": "tonk",
}


@pytest.mark.parametrize("name", AGENTS)
@pytest.mark.parametrize("seed", [True, 1.5, np.int64(3), "1", math.nan], ids=_show)
def test_agent_constructors_refuse_odd_seeds_with_option_errors(name: str, seed: Any) -> None:
    with pytest.raises(OptionError):
        load_agent(name)(seed=seed)
    with pytest.raises(OptionError):
        load_agent(name, seed=seed)


@pytest.mark.parametrize("name", AGENTS)
def test_agent_classes_refuse_a_negative_seed_as_load_agent_does(name: str) -> None:
    with pytest.raises(OptionError):
        load_agent(name, seed=-1)
    with pytest.raises(OptionError):
        load_agent(name)(seed=-1)


def test_spit_agent_refuses_a_mean_no_float_holds() -> None:
    cls = load_agent("spit-greedy")
    try:
        agent = cls(seed=1, mean=HUGE)
    except OptionError:
        return
    game = new_game("spit", 2, seed=5)
    with pytest.raises(CardcoreError):
        run_realtime(game, [agent, cls(seed=2)], max_actions=50)


@pytest.mark.parametrize(
    ("name", "param"), [("tonk-heuristic", "samples"), ("spit-greedy", "sigma")]
)
def test_agent_classes_refuse_a_huge_parameter(name: str, param: str) -> None:
    with pytest.raises(OptionError):
        load_agent(name, **{param: HUGE})
    with pytest.raises(OptionError):
        load_agent(name)(**{param: HUGE})


@pytest.mark.parametrize("name", ["golf-greedy", "spit-greedy", "tonk-heuristic"])
def test_plugin_agent_choose_with_nothing_legal_is_an_argument_error(name: str) -> None:
    game = new_game(GAME_OF[name], 2, seed=1)
    seat = game.to_act[0]
    with pytest.raises(ArgumentError):
        load_agent(name, seed=1).choose(game.view(seat), [])


def test_random_agent_choose_with_nothing_legal_is_an_argument_error() -> None:
    game = new_game("golf", 2, seed=1)
    with pytest.raises(ArgumentError):
        RandomAgent(seed=1).choose(game.view(0), [])


@pytest.mark.parametrize("which", ["golf", "tonk"])
def test_notation_helpers_refuse_what_is_no_text_with_notation_errors(which: str) -> None:
    from cardcore_golf.actions import read_notation
    from cardcore_tonk.actions import parse_action

    with pytest.raises(NotationError):
        if which == "golf":
            read_notation(None)  # type: ignore[arg-type]
        else:
            parse_action(0, None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    ["flip\x000", "flip " + "9" * 5000, "x" * 10**6, "\ud800", "flip -1", "flip \uff10", b"flip 0"],
    ids=_show,
)
def test_notation_helpers_refuse_odd_text_with_notation_errors(text: Any) -> None:
    from cardcore_golf.actions import read_notation
    from cardcore_tonk.actions import parse_action

    with pytest.raises(NotationError):
        read_notation(text)
    with pytest.raises(NotationError):
        parse_action(0, text)


def test_golf_read_notation_reads_a_str_subclass_as_plain_text() -> None:
    from cardcore_golf.actions import Flip, read_notation

    assert read_notation(Sub("flip 0")) == (Flip, 0)


@pytest.mark.parametrize("n", [-1, 1.5, None], ids=_show)
def test_row_wise_order_refuses_a_count_that_is_not_a_count(n: Any) -> None:
    from cardcore_spit.piles import row_wise_order

    with pytest.raises(CardcoreError):
        row_wise_order(n)


def _bounds(game: str) -> list[tuple[str, Any, bool]]:
    """(option, value, accepted) at each declared bound and just beyond."""
    cases: list[tuple[str, Any, bool]] = []
    for option in cardcore.game_info(game).options:
        if option.choices:
            cases += [(option.name, c, True) for c in option.choices if type(c) is int][:2]
        if option.minimum is not None:
            cases += [(option.name, option.minimum, True), (option.name, option.minimum - 1, False)]
        if option.maximum is not None and option.name not in ("dealer", "first_dealer"):
            cases += [(option.name, option.maximum, True), (option.name, option.maximum + 1, False)]
        cases += [(option.name, True, False), (option.name, HUGE, False)]
    return cases


@pytest.mark.parametrize(
    ("game", "option", "value", "accepted"),
    [(g, *case) for g in ("golf", "tonk", "spit", "speed") for case in _bounds(g)],
    ids=lambda v: _show(v),
)
def test_game_options_at_their_bounds_play_and_beyond_them_are_option_errors(
    game: str, option: str, value: Any, accepted: bool
) -> None:
    players = 4 if game == "tonk" and option == "max_players" and value == 4 else 2
    if not accepted:
        with pytest.raises(OptionError) as caught:
            new_game(game, players, seed=3, options={option: value})
        assert option in str(caught.value)
        return
    g = new_game(game, players, seed=3, options={option: value})
    if cardcore.game_info(game).realtime:
        agents = [load_agent("spit-greedy", seed=s) for s in range(players)]
        run_realtime(g, agents, max_actions=2000)
    else:
        play(g, [RandomAgent(seed=s) for s in range(players)], max_actions=1500)
    assert g.is_over


# -- RL environments ----------------------------------------------------------------------------


class Hostile:
    def __index__(self) -> int:
        raise RuntimeError("boom")

    def __int__(self) -> int:
        raise RuntimeError("boom")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("boom")

    __hash__ = None  # type: ignore[assignment]


ODD_ACTIONS = [
    None,
    -1,
    HUGE,
    -HUGE,
    1.0,
    math.nan,
    np.int8(-1),
    np.uint64(2**64 - 1),
    np.array([0]),
    np.array([[0]]),
    np.array(0.0),
    np.float32(0),
    True,
    "0",
    b"0",
    [0],
    complex(0),
    2**63,
    Hostile(),
]


@pytest.mark.parametrize("game", ["golf", "tonk", "speed"])
def test_gym_step_refuses_odd_actions_and_changes_nothing(game: str) -> None:
    opponents = ["spit-greedy"] if game == "speed" else ["random"]
    env = gym_env(game, seat=0, opponents=opponents)
    obs, _ = env.reset(seed=1)
    match = env.runner._live()
    version = match.game.version
    for action in [*ODD_ACTIONS, env.action_space.n]:
        if type(action) is int and 0 <= action < env.action_space.n and obs["action_mask"][action]:
            continue
        with pytest.raises(IllegalActionError):
            env.step(action)
        assert match.game.version == version, _show(action)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(np.int64(legal))  # a numpy integer in the mask is an action
    assert match.game.version > version or match.over


@pytest.mark.parametrize("game", ["golf", "tonk", "spit"])
def test_aec_step_refuses_odd_actions_and_takes_a_zero_d_array(game: str) -> None:
    env = aec_env(game)
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    version = env.match.game.version
    for action in ODD_ACTIONS:
        if type(action) is int and 0 <= action < len(mask) and mask[action]:
            continue
        with pytest.raises(CardcoreError):
            env.step(action)
        assert env.match.game.version == version and env.agent_selection == agent
    env.step(np.array(int(np.flatnonzero(mask)[0])))  # taken (in real time: queued)
    assert env.match.game.version > version or env.agent_selection != agent


@pytest.mark.parametrize("agent", [None, 0, "player_9", ["x"], "player_0\x00"], ids=_show)
def test_aec_observe_of_an_agent_it_does_not_have_is_a_cardcore_error(agent: Any) -> None:
    env = aec_env("golf")
    env.reset(seed=1)
    with pytest.raises(CardcoreError):
        env.observe(agent)


@pytest.mark.parametrize("seed", [-1, 2**128, HUGE, 1.5, True, "1", np.uint64(5), [1]], ids=_show)
def test_reset_refuses_odd_seeds_with_option_errors(seed: Any) -> None:
    env = gym_env("golf", seat=0)
    with pytest.raises(OptionError):
        env.reset(seed=seed)
    aec = aec_env("golf")
    with pytest.raises(OptionError):
        aec.reset(seed=seed)


@pytest.mark.parametrize("options", [{"x": 1}, [], "x", {1: 2}, {"rounds": 3}], ids=_show)
def test_gym_reset_refuses_options_that_are_not_empty(options: Any) -> None:
    env = gym_env("golf", seat=0)
    with pytest.raises(OptionError):
        env.reset(seed=1, options=options)


@pytest.mark.parametrize(
    "actions",
    [
        None,
        [0],
        [0, 0, 0],
        np.array([0.5, 1.5]),
        np.array([-1, -1]),
        np.array([[0, 0]]),
        [HUGE, 0],
        ["0", "0"],
        np.array([np.nan, 0]),
        5,
        [Hostile(), 0],
    ],
    ids=_show,
)
def test_vector_step_refuses_odd_actions_with_cardcore_errors(actions: Any) -> None:
    env = vector_env("golf", 2, seat=0)
    env.reset(seed=1)
    with pytest.raises(CardcoreError):
        env.step(actions)


@pytest.mark.parametrize(
    "seat", [2, -1, None, True, 1.0, HUGE, "0", np.array(1), Hostile()], ids=_show
)
def test_observe_refuses_odd_seats_with_cardcore_errors(seat: Any) -> None:
    game = new_game("golf", 2, seed=1)
    with pytest.raises(CardcoreError) as caught:
        observe(game, seat)
    assert isinstance(caught.value, SeatError | ArgumentError)


def test_observe_takes_numpy_seats_and_an_encoding_of_the_same_configuration() -> None:
    game = new_game("tonk", 2, seed=1)
    plain = observe(game, 1)
    assert (observe(game, np.int64(1))["action_mask"] == plain["action_mask"]).all()
    again = encoding_for(new_game("tonk", 2, seed=9))
    assert (observe(game, 1, again)["observation"] == plain["observation"]).all()


@pytest.mark.parametrize("encoding", ["x", 5, object(), "golf"], ids=_show)
def test_observe_refuses_what_is_no_encoding_with_an_argument_error(encoding: Any) -> None:
    game = new_game("golf", 2, seed=1)
    with pytest.raises(ArgumentError):
        observe(game, 0, encoding)


def test_observe_refuses_an_encoding_of_another_game() -> None:
    game = new_game("golf", 2, seed=1)
    with pytest.raises(ArgumentError):
        observe(game, 0, encoding_for(new_game("tonk", 2, seed=1)))


@pytest.mark.parametrize("what", [None, "golf", object(), {"seat": 0}], ids=_show)
def test_encoding_for_what_is_no_game_is_an_argument_error(what: Any) -> None:
    with pytest.raises(ArgumentError):
        encoding_for(what)
