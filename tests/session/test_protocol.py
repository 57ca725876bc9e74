"""The wire protocol: every client message checked completely, the rate limit, view patches."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcore
from cardcore.session import ERROR_CODES, ProtocolError, apply_patch, diff
from cardcore.session.patch import card_words
from cardcore.session.protocol import MESSAGE_TYPES, RateLimiter, read_message

GOOD = [
    {"type": "join", "seat": 0},
    {"type": "join", "seat": 1, "token": "x" * 43, "last": 5, "entropy": "dice", "id": "r1"},
    {"type": "watch", "last": 0, "session": "abc"},
    {"type": "act", "action": "draw", "seen": 3, "seat": 0, "id": 7},
    {"type": "resync", "last": 2},
    {"type": "takeback", "op": "accept"},
    {"type": "entropy", "value": "coin"},
    {"type": "history", "since": 1},
    {"type": "record"},
    {"type": "ping", "t": 1.5},
    {"type": "leave"},
]


@pytest.mark.parametrize("message", GOOD, ids=lambda m: m["type"])
def test_every_message_type_reads_back_as_sent(message: dict[str, Any]) -> None:
    assert read_message(json.dumps(message), 8192) == message
    assert read_message(json.dumps(message).encode(), 8192) == message
    assert read_message(message, 8192) == message


def test_every_type_is_documented_with_an_example() -> None:
    assert {m["type"] for m in GOOD} == set(MESSAGE_TYPES)


BAD = [
    ("{", "bad-json"),
    ("", "bad-json"),
    ("[1, 2]", "bad-json"),
    ('"join"', "bad-json"),
    ('{"type": "ping", "t": NaN}', "bad-json"),
    ('{"type": "ping", "t": Infinity}', "bad-json"),
    ('{"type": "join", "seat": 0, "seat": 1}', "bad-json"),
    ("[" * 5000 + "]" * 5000, "bad-json"),
    ('{"seat": 0}', "bad-message"),
    ('{"type": "fly"}', "bad-message"),
    ('{"type": 3}', "bad-message"),
    ('{"type": "join"}', "bad-message"),
    ('{"type": "join", "seat": true}', "bad-message"),
    ('{"type": "join", "seat": 1.0}', "bad-message"),
    ('{"type": "join", "seat": -1}', "bad-message"),
    ('{"type": "join", "seat": 0, "hack": 1}', "bad-message"),
    ('{"type": "join", "seat": 0, "token": ""}', "bad-message"),
    ('{"type": "join", "seat": 0, "token": 5}', "bad-message"),
    ('{"type": "act", "action": "draw"}', "bad-message"),
    ('{"type": "act", "action": "draw", "seen": "3"}', "bad-message"),
    ('{"type": "act", "action": ["draw"], "seen": 3}', "bad-message"),
    ('{"type": "act", "action": "' + "x" * 201 + '", "seen": 3}', "bad-message"),
    ('{"type": "takeback", "op": "force"}', "bad-message"),
    ('{"type": "ping", "id": "' + "i" * 65 + '"}', "bad-message"),
    ('{"type": "ping", "id": [1]}', "bad-message"),
    ('{"type": "ping", "t": "now"}', "bad-message"),
    ('{"type": "ping", "id": "\\ud800"}', "bad-message"),
    ('{"type": "act", "action": "draw \\udfff", "seen": 0}', "bad-message"),
    ('{"type": "ping", "t": ' + "9" * 400 + "}", "bad-message"),  # beyond a float: no OverflowError
    ('{"type": "ping", "t": -' + "9" * 400 + "}", "bad-message"),
]


@pytest.mark.parametrize(("text", "code"), BAD, ids=[b[0][:30] for b in BAD])
def test_malformed_messages_are_refused_with_a_clear_code(text: str, code: str) -> None:
    with pytest.raises(ProtocolError) as info:
        read_message(text, 100_000)
    assert info.value.code == code
    assert code in ERROR_CODES
    assert str(info.value) and len(str(info.value)) < 300


def test_an_int_beyond_a_float_is_bad_message_not_internal() -> None:
    from cardcore.session import Session

    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    out = session.handle("ann", '{"type": "ping", "t": ' + "9" * 400 + "}", now=2.0)
    assert [(o.message["type"], o.message.get("code")) for o in out] == [("error", "bad-message")]
    session.handle("ann", '{"type": "ping"}', now=10**400)  # a host's int time beyond a float
    assert session.now == 2.0  # ignored, as a NaN time is


def test_session_settings_refuse_an_int_beyond_a_float() -> None:
    from cardcore.errors import OptionError
    from cardcore.session import TimeControl

    with pytest.raises(OptionError, match="turn must be a positive number"):
        TimeControl(turn=10**400)


def test_oversize_and_non_utf8_messages_are_refused_unread() -> None:
    big = json.dumps({"type": "ping", "id": "x" * 60}) + " " * 10_000
    for raw in (big, big.encode()):
        with pytest.raises(ProtocolError) as info:
            read_message(raw, 8192)
        assert info.value.code == "too-large"
    with pytest.raises(ProtocolError) as info:
        read_message(b'{"type": "ping", "id": "\xff"}', 8192)
    assert info.value.code == "bad-json"
    wide = json.dumps({"type": "ping", "id": "é" * 60}, ensure_ascii=False)
    assert read_message(wide, len(wide.encode())) is not None
    with pytest.raises(ProtocolError):
        read_message(wide, len(wide.encode()) - 1)  # counted in bytes, not characters


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (
            '{"type": "ping", "t": ' + "9" * 5000 + "}",
            "the message holds a number too long to read",
        ),
        ("[" * 100_000 + "]" * 100_000, "the message is nested too deeply to read"),
        ('{"type": ', "the message is not JSON: expecting value at character 9"),
    ],
)
def test_unreadable_messages_are_told_in_our_words_not_pythons(raw: str, said: str) -> None:
    """No Python wording (``sys.set_int_max_str_digits``, "recursion") reaches a client."""
    with pytest.raises(ProtocolError) as info:
        read_message(raw, 10**6)
    assert info.value.code == "bad-json"
    assert str(info.value) == said


def test_rate_limit_lets_a_burst_through_then_refills_and_tells_once_a_second() -> None:
    limiter = RateLimiter(rate=2.0, burst=3, close_after=10)
    assert [limiter.take("c", 0.0)[0] for _ in range(3)] == [True, True, True]
    assert limiter.take("c", 0.0) == (False, True, False)  # the first drop is told
    assert limiter.take("c", 0.1) == (False, False, False)  # the next ones within a second are not
    assert limiter.take("c", 0.6)[0] is True  # refilled: 2 a second
    assert limiter.take("other", 0.6)[0] is True  # per connection
    drops = [limiter.take("c", 0.6) for _ in range(10)]
    assert drops[-1][2] is True  # closed after 10 drops in a row
    limiter.forget("c")
    assert limiter.take("c", 0.6)[0] is True


# -- view patches -------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["QS", "10H", "x", "", "JK"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("abcd"), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(JSON, JSON)
def test_a_patch_turns_the_old_view_into_the_new_one(old: Any, new: Any) -> None:
    ops = diff(old, new)
    assert apply_patch(old, ops) == new
    assert json.loads(json.dumps(ops)) == ops  # JSON-ready
    if old == new and type(old) is type(new):
        assert ops == []


def test_a_patch_of_a_real_view_is_small_and_exact() -> None:
    import cardcore

    game = cardcore.new_game("golf", 2, seed=3)
    old = game.view(0)
    game.act(0, "flip 0")
    new = game.view(0)
    ops = diff(old, new)
    assert apply_patch(old, ops) == new
    assert len(json.dumps(ops)) < len(json.dumps(new)) / 3


def test_apply_patch_refuses_operations_that_do_not_fit() -> None:
    for ops in (
        [["set", ["a", "b"], 1]],
        [["del", []]],
        [["mv", ["a"], 1]],
        ["set"],
        [["set", "a", 1]],
    ):
        with pytest.raises(ValueError):
            apply_patch({"a": 1}, ops)


def test_card_words_finds_cards_in_any_text() -> None:
    assert sorted(card_words({"x": "play 7H L", "y": ["JK", None, "10C"], "z": "hand.0"})) == [
        "10C",
        "7H",
        "JK",
    ]


def test_hostile_host_arguments_are_cardcore_errors_or_no_ops() -> None:
    from cardcore.session import Session

    for players in (10**9, 0, -1, True, "ab", None):
        with pytest.raises(cardcore.OptionError, match="players"):
            Session.create("golf", players, now=0.0)  # type: ignore[arg-type]
    with pytest.raises(cardcore.OptionError, match="SessionConfig"):
        Session.create("golf", 2, now=0.0, config="x")  # type: ignore[arg-type]
    session = Session.create("golf", 2, now=0.0, seed=1)
    with pytest.raises(cardcore.CardcoreError, match="cannot issue a token"):
        session.issue_token("x", 1.0)  # type: ignore[arg-type]
    assert session.disconnect([], 1.0) == []  # type: ignore[arg-type]
    for now in (1.8e15, float("nan"), "x"):  # a game records times of at most 1e15 in size
        with pytest.raises(cardcore.OptionError, match="now must be a time"):
            Session.create("golf", 2, now=now)  # type: ignore[arg-type]
    for session_id in ("", "\ud800", 5, "x" * 201):
        with pytest.raises(cardcore.OptionError, match="session_id"):
            Session.create("golf", 2, now=0.0, session_id=session_id)  # type: ignore[arg-type]
    from cardcore.session import SessionConfig

    for bad in ({"time": "x"}, {"limits": "x"}):
        with pytest.raises(cardcore.OptionError, match="must be a"):
            SessionConfig(**bad)  # type: ignore[arg-type]
    late = Session.create("golf", 2, now=10.0, seed=1)
    late.handle("a", '{"type": "ping", "t": 1}', now=2e15)  # a host clock beyond: ignored
    assert late.now == 10.0
