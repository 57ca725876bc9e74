"""Seats and tokens, and bad input: a clear error to the sender only, nothing changed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cardcore.session import (
    MemoryStore,
    Session,
    SessionConfig,
    SessionError,
    SQLiteStore,
    TimeControl,
)
from cardcore.session.config import Limits
from tests.session.kit import Table, messages, table


def _state(t: Table) -> tuple[Any, ...]:
    s = t.session
    game = s.game
    return (
        s.phase,
        None if game is None else game.version,
        None if game is None else [game.view(p) for p in range(s.players)],
        [st.n for st in s.streams],
        s.spectators.n,
        dict(s.tokens),
    )


def test_a_seat_is_claimed_once_and_its_token_shown_only_then() -> None:
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=1)
    t = Table(session)
    first = t.join("a", 0)
    assert first[0]["type"] == "welcome" and len(first[0]["token"]) == 43
    assert session.phase == "waiting"
    t.join("b", 1)
    assert session.phase == "playing"
    t.disconnect("a")
    again = t.join("a", 0)  # the mirror sends its token and last number
    assert again[0]["type"] == "welcome" and "token" not in again[0]
    assert t.mirrors["a"].view == session.game.view(0)


BAD_JOINS = [
    ({"type": "join", "seat": 0}, "seat-taken"),
    ({"type": "join", "seat": 0, "token": "not-the-token"}, "bad-token"),
    ({"type": "join", "seat": 5}, "no-seat"),
    ({"type": "act", "action": "draw", "seen": 0}, "not-joined"),
    ({"type": "takeback", "op": "request"}, "not-joined"),
    ({"type": "join", "seat": 0, "session": "elsewhere"}, "no-session"),
    ('{"type": "join", "seat": 0', "bad-json"),
    ({"type": "join", "seat": 0, "admin": True}, "bad-message"),
]


@pytest.mark.parametrize(("message", "code"), BAD_JOINS, ids=[c for _, c in BAD_JOINS])
def test_bad_joins_are_told_to_the_sender_only_and_change_nothing(message: Any, code: str) -> None:
    t = table("golf")
    before = _state(t)
    out = t.session.handle("x", message if isinstance(message, str) else json.dumps(message), t.now + 1)
    assert [o.conn for o in out] == ["x"]
    assert out[0].message["type"] == "error" and out[0].message["code"] == code
    assert _state(t) == before


def test_wrong_seat_spectator_and_early_actions_are_refused() -> None:
    t = table("golf")
    before = _state(t)
    seat = t.session.game.to_act[0]
    other = "ab"[1 - seat]
    assert t.errors(t.send(other, {"type": "act", "action": "flip 0", "seen": 0, "seat": seat})) == [
        "not-your-seat"
    ]
    assert t.errors(t.act(other, "flip 0")) == ["illegal"]  # not its turn (CORE-TURN-1)
    assert t.errors(t.act("w", "flip 0")) == ["not-a-seat"]
    assert t.errors(t.act("ab"[seat], "fly away")) == ["notation"]
    assert t.errors(t.send("w", {"type": "entropy", "value": "x"})) == ["not-a-seat"]
    assert t.errors(t.send("a", {"type": "join", "seat": 0})) == ["already-joined"]
    assert _state(t) == before
    early = Session.create("golf", 2, now=0.0, seed=1)
    e = Table(early)
    e.join("a", 0)
    assert e.errors(e.act("a", "flip 0", seen=0)) == ["not-started"]


def test_an_error_disturbs_no_other_connection() -> None:
    t = table("golf")
    out = t.session.handle("b", '{"type": "act", "action": "???", "seen": 0}', t.now + 1)
    assert {o.conn for o in out} == {"b"}


def test_tokens_expire_after_the_game_ends() -> None:
    t = table("golf", options={"rounds": 1}, token_ttl=100.0)
    t.session.end(t.now + 1)  # the host ends the match
    t.now += 1
    t.disconnect("a")
    assert t.join("a", 0)[0]["type"] == "welcome"  # still valid
    t.disconnect("a")
    t.now += 200
    replies = t.join("a", 0)
    assert t.errors(replies) == ["token-expired"]
    assert t.errors(t.join("z", 1)) == ["seat-taken"]  # claimed seats cannot be claimed again


def test_an_invitation_token_claims_a_seat_and_a_new_one_shuts_the_old_out() -> None:
    session = Session.create("tonk", 2, now=0.0, seed=4)
    token = session.issue_token(1, now=0.0)
    t = Table(session)
    t.join("a", 0)
    assert t.errors(t.join("b", 1)) == ["seat-taken"]
    replies = t.send("b2", {"type": "join", "seat": 1, "token": token})
    assert replies[0]["type"] == "welcome" and session.phase == "playing"
    fresh = session.issue_token(1, now=1.0, replace=True)
    assert fresh != token
    assert t.errors(t.send("b3", {"type": "join", "seat": 1, "token": token})) == ["bad-token"]
    assert t.send("b4", {"type": "join", "seat": 1, "token": fresh})[0]["type"] == "welcome"
    with pytest.raises(SessionError):
        session.issue_token(0, now=2.0)  # claimed
    with pytest.raises(SessionError):
        session.issue_token(9, now=2.0)


def test_a_seat_open_in_too_many_connections_is_full() -> None:
    t = table("golf", limits=Limits(max_per_seat=2, max_spectators=1))
    token = t.mirrors["a"].token
    assert t.send("a2", {"type": "join", "seat": 0, "token": token})[0]["type"] == "welcome"
    assert t.errors(t.send("a3", {"type": "join", "seat": 0, "token": token})) == ["full"]
    assert t.errors(t.send("w2", {"type": "watch"})) == ["full"]


def test_tokens_are_stored_only_as_hashes(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    session = Session.create("golf", 2, now=0.0, seed=3, store=SQLiteStore(path))
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    tokens = [t.mirrors[c].token for c in "ab"]
    assert all(tokens)
    raw = path.read_bytes() + (tmp_path / "s.db-wal").read_bytes()
    for token in tokens:
        assert token is not None and token.encode() not in raw
    digests = sqlite3.connect(path).execute("SELECT digest FROM tokens").fetchall()
    assert len(digests) == 2 and all(len(d[0]) == 64 for d in digests)


def test_a_flood_is_dropped_with_one_error_and_then_closed() -> None:
    t = table("golf", limits=Limits(rate=1.0, burst=2, close_after=5))
    before = _state(t)
    t.now += 100  # a full bucket
    out = [t.session.handle("b", '{"type": "ping"}', t.now) for _ in range(8)]
    kinds = [[o.message["type"] for o in batch] for batch in out]
    assert kinds[:2] == [["pong"], ["pong"]]
    assert kinds[2] == ["error"] and out[2][0].message["code"] == "rate-limited"
    assert kinds[3] == []  # told once a second, not for every message
    assert out[6][0].close  # the fifth drop in a row closes the connection
    assert _state(t) == before
    assert t.session.handle("a", '{"type": "ping"}', t.now)[0].message["type"] == "pong"


def test_a_spectator_cannot_watch_a_session_without_spectators() -> None:
    t = table("golf", watch=False, spectators=False)
    assert t.errors(t.send("w", {"type": "watch"})) == ["full"]


def test_pings_leave_and_presence() -> None:
    t = table("golf")
    pong = t.send("x", {"type": "ping", "t": 3.5, "id": "p"})
    assert pong == [{"type": "pong", "id": "p", "t": 3.5, "server_time": t.now}]
    out = t.session.handle("b", '{"type": "leave", "id": 1}', t.now)
    assert messages(out, "b", "ok")
    presence = messages(out, "a", "presence")[0]
    assert presence["connected"] == [True, False] and presence["spectators"] == 1
    assert t.errors(t.send("b", {"type": "history"})) == ["not-joined"]


def test_creation_refuses_bad_games_before_storing_anything() -> None:
    store = MemoryStore()
    from cardcore import OptionError, UnknownPluginError

    with pytest.raises(UnknownPluginError):
        Session.create("no-such-game", 2, now=0.0, store=store)
    with pytest.raises(OptionError):
        Session.create("golf", 2, now=0.0, options={"rounds": 0}, store=store)
    with pytest.raises(OptionError):
        Session.create("golf", 2, now=0.0, config=SessionConfig(time=TimeControl(turn=-1)))
    assert store.session_ids() == []


def test_naming_another_session_says_which_one_this_connection_is_in() -> None:
    t = table("golf")
    out = t.session.handle("x", json.dumps({"type": "join", "seat": 0, "session": "B"}), t.now + 1)
    text = out[0].message["message"]
    assert out[0].message["code"] == "no-session"
    assert f"this connection is in session {t.session.id!r}, not 'B'" in text
