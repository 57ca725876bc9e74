"""Embedding a session without the web server: a virtual clock and in-memory connections."""

from __future__ import annotations

import contextlib
import json
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from cardcore.session import (
    PROTOCOL,
    Hub,
    Limits,
    MemoryStore,
    Mirror,
    Outbound,
    Session,
    SessionConfig,
    SessionError,
    TimeControl,
)


class Wire:
    """A fake transport: each connection's received messages, in order."""

    def __init__(self) -> None:
        self.inbox: defaultdict[str, list[Mapping[str, Any]]] = defaultdict(list)
        self.closed: set[str] = set()

    def deliver(self, out: list[Outbound]) -> list[Outbound]:
        for item in out:
            assert json.loads(item.text) == dict(item.message)
            self.inbox[item.conn].append(item.message)
            if item.close:
                self.closed.add(item.conn)
        return out


def golf_session() -> tuple[Session, Wire, str]:
    """The session page's example, typed: two joins, a flip, an out-of-turn flip."""
    wire = Wire()
    config = SessionConfig(
        time=TimeControl(turn=30.0, fallback="first"), spectator_delay=1, limits=Limits(rate=100.0)
    )
    session = Session.create(
        "golf", ["Ann", "Bob"], now=0.0, seed=7, config=config, store=MemoryStore()
    )
    out = wire.deliver(session.handle("ann", '{"type": "join", "seat": 0}', now=1.0))
    assert [o.message["type"] for o in out] == ["welcome", "lobby", "presence"]
    welcome = out[0].message
    assert welcome["protocol"] == PROTOCOL
    token: str = welcome["token"]
    wire.deliver(session.handle("bob", {"type": "join", "seat": 1}, now=2.0))
    assert session.phase == "playing"
    out = wire.deliver(
        session.handle("ann", {"type": "act", "action": "flip 0", "seen": 0}, now=3.0)
    )
    out = wire.deliver(
        session.handle("bob", {"type": "act", "action": "flip 0", "seen": 1}, now=3.5)
    )
    assert out[0].message["code"] == "illegal" and out[0].message["rule"] == "CORE-TURN-1"
    return session, wire, token


def run_clock(session: Session, wire: Wire, until: float) -> float:
    """Drive the session's deadlines on a virtual clock up to *until*."""
    now = 0.0
    while (deadline := session.next_deadline()) is not None and deadline <= until:
        now = deadline
        wire.deliver(session.tick(now))
    return now


def rejoin(session: Session, wire: Wire, token: str, now: float) -> Mirror:
    """A dropped connection rejoins with its token; a Mirror rebuilds its view."""
    wire.deliver(session.disconnect("ann", now))
    mirror = Mirror()
    for message in wire.deliver(
        session.handle("ann2", {"type": "join", "seat": 0, "token": token, "last": 0}, now)
    ):
        mirror.feed(message.message)
    return mirror


def mid_game_record(session: Session) -> dict[str, Any] | None:
    """The host's privileged record mid-game (``None`` before the deal)."""
    game = session.game
    return None if game is None else game.record()


def hub_of_two() -> Hub:
    """A hub routes on each message's ``session``."""
    hub = Hub(MemoryStore())
    one = hub.create("golf", ["Ann", "Bob"], now=0.0)
    two = hub.create("tonk", 3, now=0.0)
    for item in hub.handle("c1", {"type": "join", "seat": 0, "session": one.id}, now=1.0):
        assert item.conn == "c1"
    assert two.id != one.id
    with contextlib.suppress(SessionError):
        Session.create("golf", 2, now=0.0, session_id=one.id, store=MemoryStore())
    return hub
