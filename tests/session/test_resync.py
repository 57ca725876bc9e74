"""Resyncs: exactly what was missed, or a fresh view when that is shorter; never another seat's."""

from __future__ import annotations

import json
import random

from cardcore.session import Mirror, Session, SessionConfig, SQLiteStore, TimeControl
from tests.session.kit import Table, messages, table


def _play(t: Table, actions: int, rng: random.Random) -> None:
    """Play *actions* versions: a connected seat acts at random, an absent one times out."""
    game = t.session.game
    assert game is not None
    target = game.version + actions
    while game.version < target and not game.is_over:
        seat = game.to_act[0]
        conn = "ab"[seat]
        if conn not in t.session.conns:
            t.tick_to_next()
            continue
        legal = [a for a in game.legal_actions(seat) if str(a) != "knock"]
        assert not t.errors(t.act(conn, str(rng.choice(legal)), 1.0, seen=game.version))


TURN = TimeControl(turn=5.0)


def test_a_short_absence_gets_exactly_the_missed_messages() -> None:
    t = table("golf", time=TURN)
    sent: list[str] = []
    t.disconnect("b")
    mirror = t.mirrors["b"]
    last = mirror.last
    start = len(t.outbound)
    _play(t, 2, random.Random(1))
    stream = t.session.streams[1]
    missed = [text for n, text in stream.tail if n > last]
    assert len(missed) == 2
    del t.outbound[start:]
    replies = t.join("b", 1)
    texts = [o.text for o in t.outbound if o.conn == "b" and o.message["type"] == "update"]
    sent = texts
    assert sent == missed  # the very same messages, numbered as before
    assert replies[0]["type"] == "welcome" and mirror.view == t.session.game.view(1)


def test_a_long_absence_gets_a_fresh_view_because_it_is_shorter() -> None:
    t = table("golf", time=TURN)
    t.disconnect("b")
    _play(t, 30, random.Random(2))
    replies = t.join("b", 1)
    kinds = [r["type"] for r in replies]
    assert kinds[:2] == ["welcome", "view"] and "update" not in kinds
    view = replies[1]
    assert view["reason"] == "resync" and view["n"] == t.session.streams[1].n
    missed = sum(len(text) for n, text in t.session.streams[1].tail if n > 1)
    assert len(json.dumps(view)) < missed
    assert t.mirrors["b"].view == t.session.game.view(1)


def test_resync_on_a_joined_connection_and_numbers_from_the_future() -> None:
    t = table("golf")
    _play(t, 3, random.Random(3))
    n = t.session.streams[0].n
    replies = t.send("a", {"type": "resync", "last": n - 1})
    assert [r["type"] for r in replies] == ["update"] and replies[0]["n"] == n
    assert t.send("a", {"type": "resync", "last": n}) == []  # up to date: nothing
    replies = t.send("a", {"type": "resync", "last": n + 50})  # a number the stream never had
    assert [r["type"] for r in replies] == ["view"]
    assert t.mirrors["a"].view == t.session.game.view(0)


def test_a_resync_never_carries_another_seats_stream() -> None:
    t = table("golf")
    _play(t, 6, random.Random(4))
    t.disconnect("a")
    start = len(t.outbound)
    t.join("a", 0)
    mine = {o.text for o in t.outbound[start:] if o.conn == "a"}
    theirs = {text for _, text in t.session.streams[1].tail}
    assert not mine & theirs
    for o in t.outbound[start:]:
        if o.message["type"] in ("view", "update"):
            assert o.message.get("view", {}).get("seat", 0) == 0


def test_after_a_restart_the_missed_messages_come_from_the_store(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "s.db"
    session = Session.create(
        "golf", ["Ann", "Bob"], now=0.0, seed=8, store=SQLiteStore(path), config=SessionConfig(time=TURN)
    )
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    t.disconnect("b")
    last = t.mirrors["b"].last
    _play(t, 2, random.Random(5))
    missed = [text for n, text in session.streams[1].tail if n > last]
    resumed = Session.resume(SQLiteStore(path), session.id, t.now + 60)
    assert resumed.game is not None and resumed.game.version == session.game.version
    assert resumed.game.view(1) == session.game.view(1)
    t.restart(resumed)
    start = len(t.outbound)
    t.join("b", 1)
    got = [o.text for o in t.outbound[start:] if o.message["type"] == "update"]
    fresh_size = len(json.dumps(resumed._view_message(resumed.streams[1], "resync", 0)))
    assert sum(len(m) for m in missed) < fresh_size  # so the missed messages are sent
    assert got == missed
    assert t.mirrors["b"].view == resumed.game.view(1)
    # a fresh mirror (a new device) with the token gets a whole view
    fresh = Mirror()
    out = resumed.handle("b-new", json.dumps({"type": "join", "seat": 1, "token": t.mirrors["b"].token}), t.now)
    for o in out:
        fresh.feed(o.message)
    assert fresh.view == resumed.game.view(1)
    assert messages(out, "b-new", "view")
