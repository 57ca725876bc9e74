"""Fuzzing ``Session.handle`` with hostile messages: no exception ever escapes, a refused
message is an error to its sender only and changes nothing, other seats are undisturbed.

Each example builds a fresh session (a turn-based and a real-time game), joins two seats
and a spectator, then sends a list of hostile messages from a seat, the spectator and a
stranger. The figures (messages tried, refused, accepted, escaped) are collected in
:data:`FIGURES` and checked by the last test; run with ``-s`` to see them printed.
"""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore.session import Session, SessionConfig, TimeControl
from cardcore.session.config import Limits
from cardcore.session.protocol import MESSAGE_TYPES

EXAMPLES = int(os.environ.get("SESSION_FUZZ_EXAMPLES", "150"))
"""Examples per fuzz test (``SESSION_FUZZ_EXAMPLES=5000`` for a long run)."""

FIGURES = {"tried": 0, "refused": 0, "accepted": 0, "escaped": 0, "examples": 0}
"""Counts over every fuzz example of this module."""

SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=40)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=15,
)
FIELDS = sorted({f for fields, _ in MESSAGE_TYPES.values() for f in fields} | {"id", "session", "type"})
TEMPLATES: list[dict[str, Any]] = [
    {"type": "join", "seat": 0},
    {"type": "join", "seat": 1, "token": "guess"},
    {"type": "watch"},
    {"type": "act", "action": "draw", "seen": 0},
    {"type": "act", "action": "play 1 L", "seen": 3, "seat": 1},
    {"type": "resync", "last": 0},
    {"type": "takeback", "op": "request"},
    {"type": "takeback", "op": "accept"},
    {"type": "entropy", "value": "x"},
    {"type": "history", "since": 0},
    {"type": "record"},
    {"type": "ping"},
    {"type": "leave"},
]


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    """A valid-looking message with one to three things wrong (or nothing)."""
    message = dict(draw(st.sampled_from(TEMPLATES)))
    for _ in range(draw(st.integers(0, 3))):
        how = draw(st.sampled_from(["drop", "add", "change", "type"]))
        if how == "drop" and message:
            message.pop(draw(st.sampled_from(sorted(message))))
        elif how == "add":
            message[draw(st.sampled_from(FIELDS) | st.text(max_size=8))] = draw(JSON)
        elif how == "change" and message:
            message[draw(st.sampled_from(sorted(message)))] = draw(JSON)
        else:
            message["type"] = draw(st.sampled_from(sorted(MESSAGE_TYPES)) | st.text(max_size=8))
    return message


def _encode(message: Any) -> str | None:
    try:
        return json.dumps(message, allow_nan=True)
    except (ValueError, TypeError, RecursionError):
        return None


HOSTILE = st.one_of(
    mutated().map(_encode),
    JSON.map(_encode),
    st.text(max_size=200),
    st.binary(max_size=200),
    st.integers(9000, 20000).map(lambda n: '{"type": "ping", "id": "' + "x" * n + '"}'),
    st.sampled_from(["{", "[]", "null", '{"type": "act"}', "[" * 3000, '{"type": "join", "seat": 0, "seat": 1}']),
)
SENDERS = st.sampled_from(["a", "b", "w", "x"])


def _picture(session: Session) -> tuple[Any, ...]:
    game = session.game
    return (
        session.phase,
        None if game is None else game.version,
        [s.n for s in session.streams],
        session.spectators.n,
        dict(session.tokens),
        session.takeback,
    )


def _session(game: str) -> Session:
    config = SessionConfig(time=TimeControl(turn=30.0), limits=Limits(rate=1000.0, burst=1000))
    session = Session.create(game, ["A", "B"], now=0.0, seed=5, config=config)
    session.handle("a", '{"type": "join", "seat": 0}', 0.0)
    session.handle("b", '{"type": "join", "seat": 1}', 0.0)
    session.handle("w", '{"type": "watch"}', 0.0)
    return session


def _attack(game: str, attacks: list[tuple[str, str | bytes | None]]) -> None:
    session = _session(game)
    FIGURES["examples"] += 1
    now = 1.0
    for sender, raw in attacks:
        if raw is None:
            continue
        now += 0.01
        before = _picture(session)
        FIGURES["tried"] += 1
        try:
            out = session.handle(sender, raw, now)
        except Exception:  # pragma: no cover - the failure this test exists to catch
            FIGURES["escaped"] += 1
            raise
        for o in out:
            assert json.loads(o.text.encode("utf-8")) == json.loads(json.dumps(o.message))
        errors = [o for o in out if o.message["type"] == "error"]
        if errors:
            FIGURES["refused"] += 1
            assert [o.conn for o in out] == [sender], out
            assert errors[0].message["code"] and errors[0].message["message"]
            assert _picture(session) == before, raw
        else:
            FIGURES["accepted"] += 1


@settings(max_examples=EXAMPLES)
@given(st.lists(st.tuples(SENDERS, HOSTILE), min_size=1, max_size=25))
def test_fuzz_a_turn_based_session(attacks: list[tuple[str, str | bytes | None]]) -> None:
    _attack("golf", attacks)


@settings(max_examples=EXAMPLES * 2 // 3)
@given(st.lists(st.tuples(SENDERS, HOSTILE), min_size=1, max_size=25))
def test_fuzz_a_real_time_session(attacks: list[tuple[str, str | bytes | None]]) -> None:
    _attack("spit", attacks)


def test_zz_fuzz_figures() -> None:
    """Runs last in this module: every message tried was refused cleanly or accepted; none escaped."""
    print(f"\nsession fuzz: {FIGURES}")
    assert FIGURES["escaped"] == 0
    assert FIGURES["tried"] >= 500
    assert FIGURES["refused"] + FIGURES["accepted"] == FIGURES["tried"]
    assert FIGURES["refused"] > FIGURES["accepted"]
