"""Public signature sweep (2026-12-07o): hostile values of the wrong kind or out of range
given to the public entry points a server, a bot or a study passes untrusted input to.

Expectation (design.md, api.rst "Errors"): a CardcoreError subclass naming what was wrong,
messages quoting the input cut short, and nothing changed. Bugs are strict xfails; claims
that held are plain tests.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random

import pytest

import cardcore
from cardcore import (
    ArgumentError,
    CardcoreError,
    CorruptStateError,
    Event,
    RandomAgent,
    Suit,
    new_game,
)


class EvilInt(int):
    def __eq__(self, other):
        raise RuntimeError("eq")

    def __hash__(self):
        raise RuntimeError("hash")

    def __index__(self):
        raise RuntimeError("index")

    def __str__(self):
        raise RuntimeError("str")

    __repr__ = __str__


class EvilStr(str):
    def __eq__(self, other):
        raise RuntimeError("eq")

    def __hash__(self):
        raise RuntimeError("hash")

    def __str__(self):
        raise RuntimeError("str")

    __repr__ = __str__


class BadIter:
    def __iter__(self):
        raise RuntimeError("iter")

    def __len__(self):
        raise RuntimeError("len")


class BadRepr:
    def __repr__(self):
        raise ValueError("repr")


def raising_gen(first="x"):
    yield first
    raise ValueError("midway")


def deep(n=10_000):
    x: list = []
    for _ in range(n):
        x = [x]
    return x


HOSTILE = {
    "none": lambda: None,
    "text-int": lambda: "0",
    "bytes": lambda: b"0",
    "nan": lambda: float("nan"),
    "inf": lambda: float("inf"),
    "minus-one": lambda: -1,
    "huge": lambda: 2**200,
    "true": lambda: True,
    "false": lambda: False,
    "evil-int": lambda: EvilInt(0),
    "evil-str": lambda: EvilStr("x"),
    "dict": lambda: {"a": 1},
    "gen-raises": raising_gen,
    "bad-iter": BadIter,
    "deep": deep,
    "ten-mb": lambda: "x" * 10_000_000,
    "nul": lambda: "a\x00b",
    "surrogate": lambda: "\ud800",
    "rtl": lambda: "\u202eabc",
    "float": lambda: 1.5,
    "object": object,
}
IDS = list(HOSTILE)


def _golf():
    return new_game("golf", 2, seed=1)


def _snapshot(game):
    return (
        json.dumps(game.record(), sort_keys=True),
        json.dumps(game.view(0), sort_keys=True),
        game.version,
    )


# ---------------------------------------------------------------- claims that held


@pytest.mark.parametrize("kind", IDS)
@pytest.mark.parametrize(
    "param", ["name", "players", "rules", "without", "options", "deck", "position", "subscribers"]
)
def test_new_game_refuses_hostile_argument_with_cardcore_error(param, kind):
    value = HOSTILE[kind]()
    kwargs = {"seed": 1}
    name, players = "golf", 2
    if param == "name":
        name = value
    elif param == "players":
        players = value
    else:
        kwargs[param] = value
    if value is None and param in ("options", "deck", "position"):
        assert new_game(name, players, **kwargs).version == 0  # None is the documented default
        return
    with pytest.raises(CardcoreError):
        new_game(name, players, **kwargs)


@pytest.mark.parametrize("kind", IDS)
@pytest.mark.parametrize("where", ["act-seat", "act-text", "act-seen", "legal", "view", "apply"])
def test_game_methods_refuse_hostile_input_and_change_nothing(where, kind):
    game = _golf()
    value = HOSTILE[kind]()
    before = _snapshot(game)
    if value is None and where in ("view", "act-seen"):
        pytest.skip("None is documented: the spectator's view, or no seen")
    with pytest.raises(CardcoreError):
        if where == "act-seat":
            game.act(value, "flip 0")
        elif where == "act-text":
            game.act(0, value)
        elif where == "act-seen":
            game.act(0, "flip 0", seen=value)
        elif where == "legal":
            game.legal_actions(value)
        elif where == "view":
            game.view(value)
        else:
            game.apply(value)
    assert _snapshot(game) == before


@pytest.mark.parametrize(
    "kind", ["nan", "inf", "huge", "true", "text-int", "bytes", "dict", "object"]
)
def test_act_at_refuses_hostile_time(kind):
    game = _golf()
    before = _snapshot(game)
    with pytest.raises(CardcoreError) as info:
        game.act(0, "flip 0", at=HOSTILE[kind]())
    assert info.value.rule_id == "CORE-RECORD-1"
    assert _snapshot(game) == before


@pytest.mark.parametrize("kind", IDS)
def test_load_and_replay_refuse_hostile_data(kind):
    for fn in (cardcore.load, cardcore.replay):
        with pytest.raises(CardcoreError) as info:
            fn(HOSTILE[kind]())
        assert len(str(info.value)) < 2000


@pytest.mark.parametrize("kind", [k for k in IDS if k != "none"])
@pytest.mark.parametrize("param", ["event", "handler", "seat"])
def test_events_subscribe_refuses_hostile_argument(param, kind):
    game = _golf()
    value = HOSTILE[kind]()
    args = [Event, lambda e: None]
    kwargs = {}
    if param == "event":
        args[0] = value
    elif param == "handler":
        args[1] = value
    else:
        kwargs["seat"] = value
    with pytest.raises(CardcoreError):
        game.events.subscribe(*args, **kwargs)


def test_new_game_rules_generator_raising_midway_is_argument_error():
    with pytest.raises(ArgumentError, match="rules"):
        new_game("golf", 2, rules=raising_gen("golf-joker-minus-2"), seed=1)


def test_signed_save_with_any_text_key_round_trips_and_wrong_key_refused():
    game = _golf()
    game.act(0, "flip 0")
    for key in ("\ud800", "a\x00b", b"\xff", "\u202ek"):
        assert cardcore.load(game.save(key=key), key=key).version == 1
        with pytest.raises(CorruptStateError):
            cardcore.load(game.save(key=key), key="other")
    for empty in ("", b""):
        with pytest.raises(ArgumentError):
            game.save(key=empty)


SESSION_MESSAGES = [
    None,
    5,
    b"\xff\xfe",
    "[]",
    "{}",
    "NaN",
    '{"type": "ping", "t": NaN}',
    '{"type": "act", "action": "flip 0", "seen": 0, "seen": 0}',
    "[" * 50_000 + "]" * 50_000,
    "x" * 10_000_000,
    '{"type": "ping", "t": ' + "9" * 5000 + "}",
    EvilStr("x"),
    {"type": EvilStr("ping")},
    {"type": "ping", "id": EvilInt(1)},
    {"type": "act", "action": EvilStr("flip 0"), "seen": 0},
    {"type": "act", "action": "flip 0", "seen": EvilInt(0)},
    {"type": "act", "action": "flip 0", "seen": 0, "seat": EvilInt(0)},
    {"type": "act", "action": "flip 0", "seen": True},
    {"type": "act", "action": "flip 0", "seen": 2**200},
    {"type": "act", "action": "\ud800", "seen": 0},
    {"type": "act", "action": "flip\x000", "seen": 0},
    {"type": "act", "action": "x" * 10_000, "seen": 0},
    {"type": "history", "since": deep(5000)},
    {"type": "act", "action": "flip 0", "seen": 0, "extra": 1},
    {1: 2},
    BadIter(),
]


@pytest.mark.parametrize("index", range(len(SESSION_MESSAGES)))
def test_session_handle_turns_hostile_message_into_error_and_changes_nothing(index):
    from cardcore.session import Session

    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    before = json.dumps(session.game.record(), sort_keys=True)
    out = session.handle("ann", SESSION_MESSAGES[index], now=3.0)
    assert [o.conn for o in out] == ["ann"]
    assert out[0].message["type"] == "error"
    assert out[0].message["code"] not in ("internal",)
    assert len(out[0].text) < 2000
    assert json.dumps(session.game.record(), sort_keys=True) == before


def _mutated_views():
    game = new_game("golf", 2, seed=3)
    view = game.view(0)
    values = [
        None,
        -1,
        True,
        "x",
        [],
        {},
        2**200,
        float("nan"),
        "\ud800",
        [["ZZ"]],
        deep(3000),
        EvilInt(1),
    ]
    for key in view:
        for i, value in enumerate(values):
            mutated = copy.deepcopy(view)
            mutated[key] = value
            yield f"{key}-{i}", mutated


@pytest.mark.parametrize(
    ("label", "view"), list(_mutated_views()), ids=lambda x: x if isinstance(x, str) else ""
)
def test_search_sampling_of_a_tampered_view_is_a_cardcore_error(label, view):
    from cardcore.search import sample_position, view_config

    for fn in (lambda: view_config(view), lambda: sample_position(view, random.Random(1))):
        with contextlib.suppress(CardcoreError):
            fn()


@pytest.mark.parametrize("kind", IDS)
def test_rl_gym_step_refuses_hostile_action(kind):
    rl = pytest.importorskip("cardcore.rl")
    env = rl.gym_env("golf", 2)
    env.reset(seed=1)
    with pytest.raises(CardcoreError):
        env.step(HOSTILE[kind]())


@pytest.mark.parametrize(
    "kind", [k for k in IDS if k not in ("none", "evil-int")]
)  # an int subclass is an int
def test_rl_gym_reset_refuses_hostile_seed(kind):
    rl = pytest.importorskip("cardcore.rl")
    env = rl.gym_env("golf", 2)
    with pytest.raises(CardcoreError):
        env.reset(seed=HOSTILE[kind]())


@pytest.mark.parametrize(
    "kind", ["none", "nan", "float", "dict", "bad-iter", "gen-raises", "ten-mb"]
)
@pytest.mark.parametrize("param", ["max_actions", "agents"])
def test_play_refuses_hostile_argument(param, kind):
    game = _golf()
    value = HOSTILE[kind]()
    if param == "max_actions" and value is None:
        return  # None: the game's own bound, documented
    kwargs = {"max_actions": 3}
    agents = [RandomAgent(0), RandomAgent(1)]
    if param == "max_actions":
        kwargs["max_actions"] = value
    else:
        agents = value
    with pytest.raises(CardcoreError):
        cardcore.play(game, agents, **kwargs)
    assert game.version == 0


@pytest.mark.parametrize(
    "field", ["commitment", "server_seed", "salt", "seed", "record", "entropy", "format"]
)
@pytest.mark.parametrize(
    "value", [None, 1, "x", [], 2**200, float("nan"), deep(3000), "x" * 1_000_000]
)
def test_verify_bundle_refuses_tampered_fields(field, value, fair_bundle):
    from cardcore.session import verify_bundle

    bundle = dict(fair_bundle)
    bundle[field] = value
    with pytest.raises(CardcoreError):
        verify_bundle(bundle)


@pytest.fixture(scope="module")
def fair_bundle():
    from cardcore.session import Session, SessionConfig

    session = Session.create("golf", ["A", "B"], now=0.0, config=SessionConfig(fair=True))
    session.handle("a", {"type": "join", "seat": 0}, 1.0)
    session.handle("b", {"type": "join", "seat": 1}, 1.0)
    session.handle("a", {"type": "act", "action": "flip 0", "seen": 0}, 2.0)
    session.end(3.0)
    bundle = session.fair_bundle()
    from cardcore.session import verify_bundle

    assert verify_bundle(bundle).game == "golf"
    return bundle


# ---------------------------------------------------------------- findings (strict xfails)


def test_card_constructor_message_is_cut_short():
    with pytest.raises(ArgumentError) as info:
        cardcore.Card("x" * 1_000_000, Suit.HEARTS)
    assert len(str(info.value)) < 1000


@pytest.mark.parametrize("rank", [deep, BadRepr], ids=["deep-list", "bad-repr"])
def test_card_constructor_refuses_unprintable_rank_with_argument_error(rank):
    with pytest.raises(ArgumentError):
        cardcore.Card(rank(), Suit.HEARTS)


@pytest.mark.parametrize("param", ["rules", "without"])
def test_simulate_argument_iterable_failing_midway_is_argument_error(param):
    with pytest.raises(ArgumentError, match=param):
        cardcore.simulate("golf", games=1, **{param: raising_gen()})


@pytest.mark.parametrize("param", ["rules", "vs", "without", "vs_without"])
def test_compare_argument_iterable_failing_midway_is_argument_error(param):
    with pytest.raises(ArgumentError, match=param):
        cardcore.compare("golf", games=2, **{param: raising_gen()})


def test_win_rewards_zero_dim_array_is_argument_error():
    np = pytest.importorskip("numpy")
    rl = pytest.importorskip("cardcore.rl")
    with pytest.raises(ArgumentError):
        rl.win_rewards(np.array(0), 2)


def test_win_rewards_generator_failing_midway_is_argument_error():
    rl = pytest.importorskip("cardcore.rl")

    def winners():
        yield 0
        raise ValueError("midway")

    with pytest.raises(ArgumentError):
        rl.win_rewards(winners(), 2)


def test_session_diff_of_deep_documents_is_a_cardcore_error():
    from cardcore.session import diff

    with pytest.raises(CardcoreError):
        diff(deep(), deep())


def test_session_apply_patch_deep_and_malformed_held():
    from cardcore.session import apply_patch

    doc = {"a": [1, 2], "c": "x"}
    for ops in (
        None,
        [None],
        [["set"]],
        [["mv", ["a"]]],
        [["set", [], deep()]],
        [["del", []]],
        BadIter(),
    ):
        with pytest.raises(CorruptStateError):
            apply_patch(doc, ops)
    assert doc == {"a": [1, 2], "c": "x"}


def test_session_apply_patch_refuses_del_with_a_value():
    from cardcore.session import apply_patch

    with pytest.raises(CorruptStateError):
        apply_patch({"a": 1, "b": 2}, [["del", ["a"], 5]])
