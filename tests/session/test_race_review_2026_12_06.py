"""A review of the online-play layer for races and ordering: two clients at one moment, a
reconnect or resync against an action, a clock running out as an action arrives, a takeback
against a move, a store failing mid-game, a reader dropped mid-broadcast.

Every test is deterministic: a virtual clock, controlled call order, a store or a game
method patched to fail at one chosen moment; no sleeps. The tests under "bugs found" pin
the seven bugs the review found (each failed on the code before its fix); the others are
claims checked that hold.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from cardcore import Game
from cardcore.session import (
    Limits,
    MemoryStore,
    Mirror,
    Session,
    SessionConfig,
    StreamGapError,
    TimeControl,
    aio,
)
from cardcore.session.store import Batch
from tests.session.kit import Table, messages, table

# -- helpers ----------------------------------------------------------------------------------


class FlakyStore(MemoryStore):
    """A MemoryStore whose commits fail while :attr:`failing` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.failing = False
        self.failed = 0

    def commit(self, session_id: str, batch: Batch) -> None:
        if self.failing:
            self.failed += 1
            raise OSError("disk full")
        super().commit(session_id, batch)


def _golf_after_setup(**config: Any) -> Table:
    t = table("golf", **config)
    for conn in ("a", "a", "b", "b"):
        t.act(conn, t.legal(conn)[0], 1.0)
    game = t.session.game
    assert game is not None and game.to_act == (0,) and "take" in t.legal("a")
    return t


async def _drain(conn: aio.AsyncConnection, mirror: Mirror | None = None) -> list[dict[str, Any]]:
    """Read what is queued for *conn* now (never waits for more)."""
    got: list[dict[str, Any]] = []
    while not conn._queue.empty():
        try:
            text = await conn.__anext__()
        except StopAsyncIteration:
            break
        got.append(json.loads(text))
        if mirror is not None:
            mirror.feed(got[-1])
    return got


# -- bugs found (fixed since; each test fails on the code before the fix) -----------------


def test_an_invitation_token_that_starts_the_game_tells_the_seated_player_the_deal() -> None:
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    t = Table(session)
    t.join("a", 0)
    assert session.phase == "waiting" and t.mirrors["a"].view is None
    token = session.issue_token(1, 1.0)  # the invitation for Bob: every seat is claimed now
    assert session.phase == "playing"  # dealt, and seat 0's stream holds its start view
    t.send("b", {"type": "join", "seat": 1, "token": token}, 1.0)  # Bob follows his link
    starts = [m for m in messages(t.outbound, "a", "view") if m["reason"] == "start"]
    assert starts, "Ann's connection was never sent the deal"
    assert t.mirrors["a"].view == session.game.view(0)


def test_a_replaced_token_closes_the_old_tab_through_the_host() -> None:
    async def play() -> None:
        session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
        host = aio.AsyncHost(session, clock=lambda: 1.0)
        ann, bob = host.connect("ann"), host.connect("bob")
        await ann.send({"type": "join", "seat": 0})
        await bob.send({"type": "join", "seat": 1})
        await _drain(ann)
        session.issue_token(0, 1.0, replace=True)  # the host reissues Ann's invitation
        host.wake()
        await bob.send({"type": "ping"})  # any later call
        got = await _drain(ann)
        assert "ann" not in session.conns  # the session forgot the old tab ...
        assert [m["type"] for m in got][-1:] == ["closed"]  # ... and must say so
        assert ann.closed

    asyncio.run(play())


def test_a_reader_dropped_as_too_slow_mid_broadcast_leaves_the_others_with_the_true_presence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def play() -> None:
        config = SessionConfig(limits=Limits(rate=1000.0, burst=1000))
        session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7, config=config)
        host = aio.AsyncHost(session, clock=lambda: 1.0)
        monkeypatch.setattr(aio, "QUEUE", 16)
        bob = host.connect("bob")  # Bob's client reads nothing: its queue holds 16
        monkeypatch.undo()
        ann = host.connect("ann")
        mirror = Mirror()
        await ann.send({"type": "join", "seat": 0})
        await bob.send({"type": "join", "seat": 1})
        await _drain(ann, mirror)
        await ann.close()  # Ann's socket drops ...
        while bob._queue.qsize() < getattr(bob, "_limit", bob._queue.maxsize):  # ... Bob's fills up
            await bob.send({"type": "ping"})
        back = host.connect("ann2")
        fresh = Mirror()
        await back.send({"type": "join", "seat": 0, "token": mirror.token, "last": mirror.last})
        await _drain(back, fresh)
        assert bob.too_slow and bob.closed  # dropped while Ann's return was broadcast
        truth = [bool(stream.conns) for stream in session.streams]
        assert truth == [True, False]
        assert fresh.presence is not None and fresh.presence["connected"] == truth

    asyncio.run(play())


def test_a_seat_whose_view_failed_once_is_caught_up_by_its_next_update_or_a_resync(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    mirrors = {"a": Mirror(), "b": Mirror()}

    def feed(out: list[Any]) -> None:
        for o in out:
            mirror = mirrors.get(o.conn)
            if mirror is None:
                continue
            try:
                mirror.feed(o.message)
            except StreamGapError:  # the client does as told: resync from its last
                again = session.handle(o.conn, {"type": "resync", "last": mirror.last}, 9.0)
                for m in again:
                    mirror.feed(m.message)

    feed(session.handle("a", {"type": "join", "seat": 0}, 1.0))
    feed(session.handle("b", {"type": "join", "seat": 1}, 1.0))
    game = session.game
    assert game is not None
    real = Game.view
    failed: list[int] = []

    def view(self: Game, seat: int | None = None) -> Any:
        if self is game and seat == 1 and self.version == 1 and not failed:
            failed.append(self.version)
            raise RuntimeError("a plugin's view failed")
        return real(self, seat)

    monkeypatch.setattr(Game, "view", view)
    for now in (2.0, 3.0, 4.0):  # seat 0's setup flips
        seat = game.to_act[0]
        action = str(game.legal_actions(seat)[0])
        feed(
            session.handle("ab"[seat], {"type": "act", "action": action, "seen": game.version}, now)
        )
    assert failed == [1]
    assert mirrors["b"].version == game.version
    assert mirrors["b"].view == game.view(1)


def test_a_mirror_that_refuses_an_update_keeps_its_last_number() -> None:
    mirror = Mirror()
    mirror.feed({"type": "view", "n": 1, "version": 3, "view": {"x": 1}, "reason": "start"})
    with pytest.raises(StreamGapError):  # an update to a version not after the view's
        mirror.feed(
            {
                "type": "update",
                "n": 2,
                "version": 3,
                "patch": [["set", ["x"], 3]],
                "events": [],
                "action": {},
            }
        )
    assert (mirror.last, mirror.version, mirror.view) == (1, 3, {"x": 1})


def test_a_plugin_failing_after_a_real_time_action_leaves_no_seat_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = Session.create("speed", ["Ann", "Bob"], now=0.0, seed=11)
    mirrors = {"a": Mirror(), "b": Mirror()}

    def feed(out: list[Any]) -> list[dict[str, Any]]:
        for o in out:
            if o.conn in mirrors:
                mirrors[o.conn].feed(o.message)
        return [o.message for o in out]

    feed(session.handle("a", {"type": "join", "seat": 0}, 0.0))
    feed(session.handle("b", {"type": "join", "seat": 1}, 0.0))
    game = session.game
    assert game is not None
    seat = next(s for s in game.to_act if game.legal_actions(s))
    version = game.version
    action = str(game.legal_actions(seat)[0])
    real = Game.legal_actions
    fired: list[int] = []

    def legal_actions(self: Game, s: int) -> Any:
        if self is game and self.version == version + 1 and not fired:
            fired.append(s)
            raise RuntimeError("a plugin's legal_actions failed")
        return real(self, s)

    monkeypatch.setattr(Game, "legal_actions", legal_actions)
    act = {"type": "act", "action": action, "seen": version}
    replies = feed(session.handle("ab"[seat], act, 1.0))
    monkeypatch.undo()
    assert fired
    if [m.get("code") for m in replies if m["type"] == "error"] == ["internal"]:
        assert game.version == version  # "the server failed (a plugin's error); nothing changed"
    for conn in ("a", "b"):
        assert mirrors[conn].version == game.version, f"{conn} was not told"


def test_a_closed_session_asks_for_no_tick_and_its_streams_stay_as_closed() -> None:
    t = _golf_after_setup()
    session = t.session
    t.act("a", "take", 1.0)
    assert t.errors(t.send("a", {"type": "takeback", "op": "request"}, 1.0)) == []
    session.close(t.now)
    numbers = [s.n for s in session.streams]
    deadline = session.next_deadline()
    session.tick(t.now + 3600.0)
    assert (deadline, [s.n for s in session.streams]) == (None, numbers)


# -- claims checked that hold ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_two_seats_acting_at_one_instant_in_real_time_see_every_version_once(name: str) -> None:
    """Both seats act on the same version at the same instant, again and again: the first is
    applied, the second is applied only if still legal, else ``stale`` (CORE-RT-1); every
    stream stays gapless, each mirror equals its seat's view (the kit's leak check runs on
    every message), and no version is applied twice."""
    t = table(name)
    game = t.session.game
    assert game is not None
    rng = random.Random(5)
    stale = 0
    for _ in range(120):
        if game.is_over:
            break
        t.now += 0.5
        plans = []
        for conn in ("a", "b"):
            legal = [a for a in t.legal(conn) if not a.startswith("resign")]
            if legal:
                plans.append((conn, rng.choice(legal), t.mirrors[conn].version))
        before = game.version
        applied = 0
        for conn, action, seen in plans:  # one instant: no time passes between them
            replies = t.send(conn, {"type": "act", "action": action, "seen": seen})
            codes = t.errors(replies)
            if not codes:
                applied += 1
            else:
                assert codes[0] in ("stale", "illegal"), replies
                stale += codes[0] == "stale"
        assert game.version == before + applied
    assert stale > 0, "the race never happened"
    for conn, seat in (("a", 0), ("b", 1)):
        assert t.mirrors[conn].version == game.version
        assert t.mirrors[conn].view == game.view(seat)


def test_an_act_arriving_at_its_deadline_is_read_after_the_timeout_and_never_played_twice() -> None:
    """docs: "A message that arrives at or after a deadline is read after the timeout is
    played (an action made on the view before it is then answered stale)"."""
    t = table("golf", time=TimeControl(turn=10.0))
    game = t.session.game
    assert game is not None
    seat = game.to_act[0]
    conn = "ab"[seat]
    seen = t.mirrors[conn].version
    deadline = t.session.next_deadline()
    assert deadline is not None
    t.now = deadline
    replies = t.send(conn, {"type": "act", "action": t.legal(conn)[-1], "seen": seen})
    assert t.errors(replies) == ["stale"]
    played = game.version - seen
    assert played >= 1
    assert all(t.session.cause(v) == "timeout" for v in range(seen + 1, game.version + 1))
    assert t.mirrors["a"].view == game.view(0) and t.mirrors["b"].view == game.view(1)


def test_a_move_overtaking_a_takeback_request_cancels_it_and_a_late_accept_is_refused() -> None:
    t = _golf_after_setup()
    game = t.session.game
    assert game is not None
    t.act("a", "take", 1.0)
    taken = game.version
    assert t.errors(t.send("a", {"type": "takeback", "op": "request"}, 1.0)) == []
    assert t.mirrors["b"].takeback is not None
    replace = next(a for a in t.legal("a") if a.startswith("replace"))
    t.act("a", replace, 1.0)  # Ann moves on before Bob's answer arrives
    assert game.version == taken + 1 and t.session.takeback is None
    assert t.errors(t.send("b", {"type": "takeback", "op": "accept"}, 1.0)) == ["takeback-refused"]
    assert t.session.game is game and game.version == taken + 1  # nothing rolled back
    kinds = [(m["type"], m.get("op")) for m in messages(t.outbound, "b") if "n" in m]
    assert kinds[-3:] == [("takeback", "requested"), ("takeback", "cancelled"), ("update", None)]
    assert t.mirrors["b"].takeback is None and t.mirrors["b"].view == game.view(1)


def test_a_move_made_before_an_accepted_takeback_is_refused_on_the_game_taken_back() -> None:
    t = _golf_after_setup()
    game = t.session.game
    assert game is not None
    t.act("a", "take", 1.0)
    seen = t.mirrors["a"].version
    replace = next(a for a in t.legal("a") if a.startswith("replace"))
    t.send("a", {"type": "takeback", "op": "request"}, 1.0)
    t.send("b", {"type": "takeback", "op": "accept"}, 1.0)  # granted: the game is rebuilt
    prev = t.session.game
    assert prev is not game and prev.version == seen - 1
    replies = t.send("a", {"type": "act", "action": replace, "seen": seen}, 1.0)  # sent before
    assert t.errors(replies) in (["stale"], ["bad-message"])
    assert prev.version == seen - 1 and t.session.game is prev


def test_a_store_failing_mid_game_loses_no_message_and_the_next_commit_writes_everything() -> None:
    """docs: "If the store fails, the game goes on and the next call writes both batches";
    checked across a takeback written while the store failed, then a restart."""
    store = FlakyStore()
    t = _golf_after_setup(store=store, takebacks=True)
    session = t.session
    store.failing = True
    t.act("a", "take", 1.0)
    t.send("a", {"type": "takeback", "op": "request"}, 1.0)
    t.send("b", {"type": "takeback", "op": "accept"}, 1.0)  # cut back an action never written
    assert t.errors(t.act("a", "draw", 1.0)) == []
    assert store.failed >= 4 and session.store_error is not None
    store.failing = False
    discard = next(a for a in t.legal("a") if a.startswith("discard"))
    assert t.errors(t.act("a", discard, 1.0)) == []
    assert session.store_error is None
    game = session.game
    assert game is not None
    for conn, seat in (("a", 0), ("b", 1)):
        assert t.mirrors[conn].view == game.view(seat)
    again = Session.resume(store, session.id, t.now)
    assert again.game is not None and again.game.record() == game.record()
    assert [s.n for s in again.streams] == [s.n for s in session.streams]
    # a client rejoining the resumed session from its last number gets nothing new
    out = again.handle(
        "a2",
        {"type": "join", "seat": 0, "token": t.mirrors["a"].token, "last": t.mirrors["a"].last},
        t.now,
    )
    assert [o.message["type"] for o in out if o.conn == "a2"] == ["welcome", "presence"]


def test_a_resync_crossing_updates_in_flight_resends_the_same_texts_and_mirrors_skip_them() -> None:
    t = _golf_after_setup()
    texts = {o.message["n"]: o.text for o in t.outbound if o.conn == "b" and "n" in o.message}
    last = t.mirrors["b"].last
    # Bob's client thought it missed the last two messages (they were still on the wire)
    out = t.session.handle("b", {"type": "resync", "last": last - 2}, t.now)
    assert [o.text for o in out] == [texts[last - 1], texts[last]]
    before = (t.mirrors["b"].last, t.mirrors["b"].view)
    for o in out:
        t.mirrors["b"].feed(o.message)  # received twice: already applied
    assert (t.mirrors["b"].last, t.mirrors["b"].view) == before


def test_a_spectator_joining_mid_game_never_sees_a_version_inside_the_delay() -> None:
    t = table("golf", watch=False, spectator_delay=2)
    game = t.session.game
    assert game is not None
    rng = random.Random(3)
    for _ in range(6):
        seat = game.to_act[0]
        t.act("ab"[seat], rng.choice(t.legal("ab"[seat])), 1.0)
    replies = t.send("w", {"type": "watch"}, 1.0)
    views = [m for m in replies if m["type"] == "view"]
    assert views and views[0]["version"] == game.version - 2
    for _ in range(6):
        seat = game.to_act[0]
        t.act("ab"[seat], rng.choice(t.legal("ab"[seat])), 1.0)
        assert t.mirrors["w"].version == game.version - 2
    shown = [m.get("version") for m in messages(t.outbound, "w") if m["type"] in ("view", "update")]
    assert shown == sorted(shown) and max(shown) == game.version - 2


def test_two_windows_of_one_seat_get_the_same_numbered_texts() -> None:
    t = table("golf")
    t.join("a2", 0, token=t.mirrors["a"].token)  # a second window, no last: the whole view
    start = len(t.outbound)
    game = t.session.game
    assert game is not None
    for conn in ("a2", "a", "b", "b"):  # each window acts once, on its own view
        t.act(conn, t.legal(conn)[0], 1.0)
    numbered = {
        c: [o.text for o in t.outbound[start:] if o.conn == c and "n" in o.message]
        for c in ("a", "a2")
    }
    assert numbered["a"] and numbered["a"] == numbered["a2"]
    assert t.mirrors["a"].view == t.mirrors["a2"].view == game.view(0)


def test_a_reader_that_never_reads_is_dropped_and_its_queue_freed_while_others_read_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def play() -> None:
        config = SessionConfig(limits=Limits(rate=1000.0, burst=1000))
        session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7, config=config)
        host = aio.AsyncHost(session, clock=lambda: 1.0)
        monkeypatch.setattr(aio, "QUEUE", 8)
        bob = host.connect("bob")
        monkeypatch.undo()
        ann = host.connect("ann")
        mirror = Mirror()
        await ann.send({"type": "join", "seat": 0})
        await bob.send({"type": "join", "seat": 1})
        game = session.game
        assert game is not None
        while not bob.closed:
            await _drain(ann, mirror)
            seat = game.to_act[0]
            conn = ann if seat == 0 else bob
            if conn.closed:
                break
            action = str(game.legal_actions(seat)[0])
            await conn.send({"type": "act", "action": action, "seen": game.version})
        await _drain(ann, mirror)
        assert bob.too_slow and bob._queue.qsize() == 1 and bob.queued == 0
        assert "bob" not in session.conns and "bob" not in host.connections
        assert mirror.view == game.view(0)

    asyncio.run(play())
