"""A review of the race-review fix (67be50c2, b0b0ec8c): ``issue_token``'s messages held for
the session's next call, a too-slow reader's going told after its batch, the end marker's own
slot, ``Mirror`` taking an update that skips versions, ``may_act`` counting a failing
``legal_actions`` as "may act", ``close`` dropping a pending takeback.

Every test is deterministic: virtual clocks, a chosen call order, a game method patched to
fail at one chosen moment; no sleeps. The tests under "bugs found" pin the five bugs the
review found in that fix (each failed on the code before its own fix); the others pin claims
of the fix that hold.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from cardcore import Game
from cardcore.session import (
    Hub,
    MemoryStore,
    Mirror,
    Outbound,
    Session,
    SessionConfig,
    StreamGapError,
    TimeControl,
    aio,
)
from tests.session.kit import Table

# -- helpers ----------------------------------------------------------------------------------


def _drain(conn: aio.AsyncConnection) -> list[dict[str, Any]]:
    """What is queued for *conn* now, read without waiting (the end marker stops it)."""
    got: list[dict[str, Any]] = []
    while not conn._queue.empty():
        item = conn._queue.get_nowait()
        if item is None:
            break
        conn.queued -= len(item)
        got.append(json.loads(item))
    return got


class _Mirrors:
    """Mirrors per connection, fed from a session's outbound; a gap makes the client resync."""

    def __init__(self) -> None:
        self.mirrors: dict[str, Mirror] = {}
        self.gaps = 0

    def feed(self, session: Session, out: list[Outbound], now: float) -> None:
        for o in out:
            mirror = self.mirrors.setdefault(o.conn, Mirror())
            try:
                mirror.feed(o.message)
            except StreamGapError:  # as the client is told: resync from its last
                self.gaps += 1
                for again in session.handle(o.conn, {"type": "resync", "last": mirror.last}, now):
                    mirror.feed(again.message)


def _speed_with_idle_clock() -> tuple[Session, Game, int, int]:
    config = SessionConfig(time=TimeControl(turn=5.0))
    session = Session.create("speed", ["Ann", "Bob"], now=0.0, seed=11, config=config)
    session.handle("a", {"type": "join", "seat": 0}, 0.0)
    session.handle("b", {"type": "join", "seat": 1}, 0.0)
    game = session.game
    assert game is not None and session.phase == "playing"
    seat = next(s for s in game.to_act if game.legal_actions(s))
    other = 1 - seat
    assert other in game.to_act
    return session, game, seat, other


# -- bugs found ---------------------------------------------------------------------------------


def test_two_tokens_issued_between_calls_send_each_message_once() -> None:
    session = Session.create("golf", ["Ann", "Bob", "Cy"], now=0.0, seed=7)
    session.handle("ann", {"type": "join", "seat": 0}, 0.5)
    session.handle("w", {"type": "watch"}, 0.5)
    session.issue_token(0, 1.0, replace=True)  # Ann's tab is told closed, the spectator presence
    session.issue_token(1, 1.0)  # a second invitation before the session's next call
    session.issue_token(2, 1.0)  # the last seat: the deal
    out = session.tick(1.0)
    sent = [(o.conn, o.text) for o in out]
    assert [o.message["type"] for o in out if o.conn == "ann"] == ["closed"]
    assert len(sent) == len(set(sent)), "a message was sent twice"


def test_a_seat_whose_view_failed_just_before_a_restart_is_caught_up_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = MemoryStore()
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7, store=store)
    clients = _Mirrors()
    clients.feed(session, session.handle("a", {"type": "join", "seat": 0}, 1.0), 1.0)
    clients.feed(session, session.handle("b", {"type": "join", "seat": 1}, 1.0), 1.0)
    game = session.game
    assert game is not None
    real = Game.view

    def view(self: Game, seat: int | None = None) -> Any:
        if self is game and seat == 1 and self.version == 1:
            raise RuntimeError("a plugin's view failed")
        return real(self, seat)

    monkeypatch.setattr(Game, "view", view)
    seat = game.to_act[0]
    act = {"type": "act", "action": str(game.legal_actions(seat)[0]), "seen": 0}
    clients.feed(session, session.handle("ab"[seat], act, 2.0), 2.0)
    monkeypatch.undo()
    assert game.version == 1 and clients.mirrors["b"].version == 0  # Bob was told nothing
    back = Session.resume(store, session.id, 3.0)  # the server restarts
    for conn, seat_ in (("a", 0), ("b", 1)):
        old = clients.mirrors.pop(conn)
        clients.mirrors[conn + "2"] = old
        join = {"type": "join", "seat": seat_, "token": old.token, "last": old.last}
        clients.feed(back, back.handle(conn + "2", join, 3.0), 3.0)
    again = back.game
    assert again is not None
    for now in (4.0, 5.0):
        seat = again.to_act[0]
        act = {"type": "act", "action": str(again.legal_actions(seat)[0]), "seen": again.version}
        clients.feed(back, back.handle(("a2", "b2")[seat], act, now), now)
    bob = clients.mirrors["b2"]
    assert bob.version == again.version
    assert bob.view == again.view(1), "Bob's picture silently differs from his seat's view"


def test_a_real_time_clock_of_a_seat_whose_legal_actions_fail_does_not_leave_a_past_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session, game, seat, other = _speed_with_idle_clock()
    version = game.version
    real = Game.legal_actions

    def legal_actions(self: Game, s: int) -> Any:
        if self is game and s == other and self.version > version:  # a plugin bug in this state
            raise RuntimeError("a plugin's legal_actions failed")
        return real(self, s)

    monkeypatch.setattr(Game, "legal_actions", legal_actions)
    act = {"type": "act", "action": str(real(game, seat)[0]), "seen": version}
    session.handle("ab"[seat], act, 1.0)
    assert game.version == version + 1
    session.tick(100.0)
    deadline = session.next_deadline()
    assert deadline is None or deadline > 100.0, "a host ticking on deadlines spins"
    replies = session.handle("ab"[seat], {"type": "ping"}, 100.0)
    assert [o.message["type"] for o in replies] == ["pong"]


def test_a_tab_told_closed_by_issue_token_that_joins_again_first_never_loses_a_claimed_token() -> (
    None
):
    async def play() -> None:
        session = Session.create("golf", ["Ann", "Bob", "Cy"], now=0.0, seed=7)
        host = aio.AsyncHost(session, clock=lambda: 1.0)
        ann = host.connect("ann")
        await ann.send({"type": "join", "seat": 0})
        _drain(ann)
        session.issue_token(0, 1.0, replace=True)  # Ann's seat reissued ...
        await ann.send({"type": "join", "seat": 1})  # ... as her tab, not yet told, takes seat 1
        got = _drain(ann)
        tokens = [m["token"] for m in got if m["type"] == "welcome" and "token" in m]
        assert 1 not in session.tokens or tokens, "seat 1 is claimed by a token nobody got"

    asyncio.run(play())


def test_an_invitation_claiming_a_seat_before_the_deal_updates_everyones_lobby() -> None:
    session = Session.create("golf", ["Ann", "Bob", "Cy"], now=0.0, seed=7)
    t = Table(session)
    t.join("a", 0)
    assert t.mirrors["a"].lobby is not None
    session.issue_token(1, 1.0)
    t.tick(1.0)  # the next call returns what issuing told
    lobby = t.mirrors["a"].lobby
    assert lobby is not None and lobby["claimed"] == [True, True, False]


# -- claims that hold ---------------------------------------------------------------------------


def test_a_hub_ticks_a_session_holding_an_invitations_deal_at_once_and_then_rests() -> None:
    hub = Hub(MemoryStore())
    quiet = hub.create("golf", ["X", "Y"], now=0.0, seed=3)
    session = hub.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    hub.handle("ann", {"type": "join", "session": session.id, "seat": 0}, 1.0)
    assert hub.next_deadline() is None
    session.issue_token(1, 2.0)
    assert session.phase == "playing"
    assert hub.next_deadline() == 2.0 == session.next_deadline()  # now: tick at once
    assert quiet.next_deadline() is None
    out = hub.tick(2.0)
    starts = [o.message for o in out if o.conn == "ann" and o.message["type"] == "view"]
    assert [m["reason"] for m in starts] == ["start"]
    assert hub.next_deadline() is None  # nothing held any more: a host waits, never spins
    assert hub.tick(3.0) == []  # and the deal is never sent twice


def test_held_messages_are_numbered_and_stored_once() -> None:
    store = MemoryStore()
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7, store=store)
    session.handle("ann", {"type": "join", "seat": 0}, 1.0)
    session.issue_token(1, 2.0)
    before = {name: list(rows) for name, rows in store.load(session.id).messages.items()}
    out = session.tick(2.0)
    after = store.load(session.id).messages
    assert after == before  # the tick wrote nothing again
    numbers = [n for n, _ in after["seat.0"]]
    assert numbers == sorted(set(numbers))
    sent = [o.message["n"] for o in out if o.conn == "ann" and "n" in o.message]
    # the lobby (the seat claimed, as a join tells it) and the deal, each numbered once
    assert sent == numbers[-2:] and session.streams[0].n == numbers[-1]


def test_a_held_message_to_a_connection_gone_meanwhile_is_skipped_by_the_async_host() -> None:
    async def play() -> None:
        session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
        host = aio.AsyncHost(session, clock=lambda: 1.0)
        ann, watcher = host.connect("ann"), host.connect("w")
        await ann.send({"type": "join", "seat": 0})
        await watcher.send({"type": "watch"})
        _drain(ann)
        _drain(watcher)
        session.issue_token(1, 1.0)  # the deal, for Ann and the spectator: held
        await ann.close()  # Ann's socket closes first: the held deal goes out with it
        assert ann.closed and "ann" not in session.conns
        assert [m["type"] for m in _drain(watcher)] == ["lobby", "view", "presence"]
        assert session.next_deadline() is None

    asyncio.run(play())


def test_close_after_an_invitation_sends_the_held_deal_before_closed() -> None:
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    session.handle("ann", {"type": "join", "seat": 0}, 1.0)
    session.issue_token(1, 2.0)
    out = session.close(3.0)
    assert [(o.message["type"], o.close) for o in out] == [
        ("lobby", False),
        ("view", False),
        ("closed", True),
    ]
    assert session.next_deadline() is None


def test_a_mirror_still_refuses_a_gap_in_the_numbers_whatever_the_version() -> None:
    mirror = Mirror()
    mirror.feed({"type": "view", "n": 1, "version": 3, "view": {"x": 1}, "reason": "start"})
    skip = {"type": "update", "patch": [["set", ["x"], 5]], "events": [], "action": {}}
    with pytest.raises(StreamGapError):  # message 2 is lost: a real loss, refused
        mirror.feed({**skip, "n": 3, "version": 5})
    assert (mirror.last, mirror.version, mirror.view) == (1, 3, {"x": 1})
    mirror.feed({**skip, "n": 2, "version": 5})  # the next number to a later version: taken
    assert (mirror.last, mirror.version, mirror.view) == (2, 5, {"x": 5})


def test_a_too_slow_reader_gets_nothing_after_it_is_dropped_and_its_queue_holds_queue_messages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def play() -> None:
        session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
        host = aio.AsyncHost(session, clock=lambda: 1.0)
        monkeypatch.setattr(aio, "QUEUE", 3)  # a connection takes QUEUE when it is made
        slow = host.connect("slow")
        monkeypatch.undo()
        assert (slow._limit, slow._queue.maxsize) == (3, 4)
        await slow.send({"type": "join", "seat": 0})  # welcome, lobby, presence: full
        assert slow._queue.qsize() == 3 and not slow.closed
        ann = host.connect("ann")
        await ann.send({"type": "join", "seat": 1})  # the deal: one too many for the slow one
        assert slow.too_slow and slow.closed and "slow" not in session.conns
        assert slow._queue.qsize() == 1 and slow._queue.get_nowait() is None  # only the end
        told = [m for m in _drain(ann) if m["type"] == "presence"]
        assert told[-1]["connected"] == [False, True]  # after the deal, not before it

    asyncio.run(play())


def test_a_real_time_legal_actions_failing_once_starts_the_seats_clock_and_tells_every_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session, game, seat, other = _speed_with_idle_clock()
    version = game.version
    real = Game.legal_actions
    fired: list[int] = []

    def legal_actions(self: Game, s: int) -> Any:
        if self is game and s == other and self.version == version + 1 and not fired:
            fired.append(s)
            raise RuntimeError("a plugin's legal_actions failed once")
        return real(self, s)

    monkeypatch.setattr(Game, "legal_actions", legal_actions)
    act = {"type": "act", "action": str(real(game, seat)[0]), "seen": version}
    out = session.handle("ab"[seat], act, 1.0)
    monkeypatch.undo()
    assert fired == [other] and game.version == version + 1
    assert [o.message.get("code") for o in out if o.message["type"] == "error"] == []
    assert {o.conn for o in out if o.message["type"] == "update"} == {"a", "b"}
    assert other in session.clocks.turn  # its clock runs: it was counted as able to act
    session.tick(100.0)  # a transient failure: the timeout plays as usual
    deadline = session.next_deadline()
    assert deadline is None or deadline > 100.0
