"""Mutation audit of the session layer (2026-12-24): each test kills a mutant the suite missed
(33 mutants of streams and resync, clocks and restarts, the stores, the asyncio host).

Deterministic: fixed seeds, explicit ``now`` values, no sleeps, no wall clock.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from cardcore.session import (
    Batch,
    Hub,
    MemoryStore,
    Outbound,
    Session,
    SessionConfig,
    SQLiteStore,
    StoreError,
    TimeControl,
)
from cardcore.session.aio import AsyncHost

CONNS = ("a", "b")


def _seated(
    config: SessionConfig, store: Any = None, *, seed: int | None = 11
) -> tuple[Session, list[str]]:
    """A two-seat Golf session, both seats joined at time 0 (as "a" and "b"); their tokens."""
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=seed, config=config, store=store)
    tokens = []
    for seat, conn in enumerate(CONNS):
        out = session.handle(conn, {"type": "join", "seat": seat}, now=0.0)
        tokens.append(next(o.message["token"] for o in out if o.message["type"] == "welcome"))
    return session, tokens


def _play_one(session: Session, now: float) -> None:
    """The first seat to act plays its first legal action that does not knock."""
    game = session.game
    assert game is not None and not game.is_over
    seat = game.to_act[0]
    action = next(str(a) for a in game.legal_actions(seat) if str(a) != "knock")
    msg = {"type": "act", "action": action, "seen": game.version}
    out = session.handle(CONNS[seat], msg, now=now)
    assert [o.message for o in out if o.message["type"] == "error"] == []


def _rejoin(
    session: Session, conn: str, seat: int, token: str, last: int, now: float
) -> list[dict[str, Any]]:
    """Join *seat* again as *conn* with *token* and *last*: the numbered messages it gets."""
    msg = {"type": "join", "seat": seat, "token": token, "last": last}
    out = session.handle(conn, msg, now=now)
    got = [
        dict(o.message)
        for o in out
        if o.conn == conn and "n" in o.message and o.message["type"] != "welcome"
    ]
    session.disconnect(conn, now)
    return got


def _golf_after_setup(session: Session, now: float) -> None:
    """Both seats flip their two setup cards; seat 0 then may take the discard."""
    for conn in ("a", "a", "b", "b"):
        seat = CONNS.index(conn)
        game = session.game
        assert game is not None
        action = str(game.legal_actions(seat)[0])
        out = session.handle(conn, {"type": "act", "action": action, "seen": game.version}, now=now)
        assert [o.message for o in out if o.message["type"] == "error"] == []
    assert session.game is not None and session.game.to_act == (0,)


# -- streams and resync ---------------------------------------------------------------------


def test_a_resync_gets_every_missed_message_in_order_or_a_fresh_view_at_the_tail_edge() -> None:
    """The tail's reach is exact either way, and it keeps ``resync_keep`` messages."""
    keep = 2
    session, tokens = _seated(SessionConfig(resync_keep=keep))
    stream = session.streams[1]
    now = 1.0
    while True:
        _play_one(session, now)
        now += 1.0
        if stream.n < 8:
            continue
        fresh = _rejoin(session, "probe", 1, tokens[1], 0, now)  # from 0: a fresh view
        assert len(fresh) == 1 and fresh[0]["type"] == "view"
        view_size = len(json.dumps(fresh[0], separators=(",", ":")))
        if sum(len(text) for _, text in stream.tail) <= view_size - 50:
            break  # the kept tail is shorter than a fresh view: it is what a resync sends
        assert stream.n < 200
    n = stream.n
    for last in range(n - keep - 3, n + 1):
        got = _rejoin(session, f"b{last}", 1, tokens[1], last, now)
        if got and got[0]["type"] == "view":  # the whole picture at the stream's number
            assert len(got) == 1 and got[0]["n"] == n and got[0]["reason"] == "resync", last
        else:  # exactly the missed messages, none lost, none twice
            assert [m["n"] for m in got] == list(range(last + 1, n + 1)), last
            assert all(m["type"] == "update" for m in got)
    # a client that missed exactly resync_keep messages gets them, not a fresh view
    got = _rejoin(session, "edge", 1, tokens[1], n - keep, now)
    assert [m["n"] for m in got] == list(range(n - keep + 1, n + 1))


def test_the_stored_tail_keeps_resync_keep_messages_across_a_restart(tmp_path: Path) -> None:
    keep = 3
    path = str(tmp_path / "s.db")
    store = SQLiteStore(path)
    session, tokens = _seated(SessionConfig(resync_keep=keep), store)
    stream = session.streams[1]
    now = 1.0
    while stream.n < 2 * keep or stream.n % keep:  # a prune just ran
        _play_one(session, now)
        now += 1.0
    n = stream.n
    stored = store.load(session.id)
    assert stored is not None
    assert [k for k, _ in stored.messages["seat.1"]] == list(range(n - keep + 1, n + 1))
    store.close()
    resumed = Session.resume(SQLiteStore(path), session.id, now=now + 1)
    got = _rejoin(resumed, "b2", 1, tokens[1], n - keep, now + 1)
    assert [m["n"] for m in got] == list(range(n - keep + 1, n + 1))
    assert all(m["type"] == "update" for m in got)
    assert resumed.store is not None
    resumed.store.close()


def test_a_client_that_missed_nothing_gets_nothing_numbered() -> None:
    session = Session.create("golf", 2, now=0.0, seed=4, config=SessionConfig())
    assert session.spectators.n == 0
    out = session.handle("w", {"type": "watch", "last": 0}, now=0.0)
    assert [o.message["type"] for o in out if o.conn == "w"] == ["welcome", "presence"]


# -- clocks and restarts ----------------------------------------------------------------------


def test_a_paused_restart_tells_a_rejoining_seat_its_moved_deadline_after_what_it_missed(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "s.db")
    store = SQLiteStore(path)
    session, tokens = _seated(SessionConfig(time=TimeControl(turn=30.0, restart="pause")), store)
    last = session.streams[1].n
    _play_one(session, 2.0)
    _play_one(session, 3.0)
    n = session.streams[1].n
    before = session.clocks.public(1)["turn"]
    store.close()
    resumed = Session.resume(SQLiteStore(path), session.id, now=103.0)  # 100 s down
    after = resumed.clocks.public(1)["turn"]
    assert after == {s: d + 100.0 for s, d in before.items()}
    got = _rejoin(resumed, "b2", 1, tokens[1], last, 103.0)
    assert [m["n"] for m in got[:-1]] == list(range(last + 1, n + 1))
    fresh = got[-1]
    assert fresh["type"] == "view" and fresh["n"] == n and fresh["clocks"]["turn"] == after
    assert resumed.store is not None
    resumed.store.close()


def test_a_paused_restart_moves_the_entropy_deadline(tmp_path: Path) -> None:
    path = str(tmp_path / "s.db")
    store = SQLiteStore(path)
    config = SessionConfig(fair=True, seat_entropy=True, entropy_wait=60.0)
    session, _ = _seated(config, store, seed=None)
    assert session.phase == "waiting" and session.next_deadline() == 60.0
    store.close()
    resumed = Session.resume(SQLiteStore(path), session.id, now=100.0)
    assert resumed.next_deadline() == 160.0
    resumed.tick(159.0)
    assert resumed.phase == "waiting"
    resumed.tick(160.0)
    assert resumed.phase == "playing"
    assert resumed.store is not None
    resumed.store.close()


def test_a_paused_restart_moves_a_pending_takebacks_deadline(tmp_path: Path) -> None:
    path = str(tmp_path / "s.db")
    store = SQLiteStore(path)
    session, _ = _seated(SessionConfig(takeback_timeout=60.0), store)
    _golf_after_setup(session, 1.0)
    game = session.game
    assert game is not None
    session.handle("a", {"type": "act", "action": "take", "seen": game.version}, now=2.0)
    out = session.handle("a", {"type": "takeback", "op": "request"}, now=3.0)
    assert [o.message for o in out if o.message["type"] == "error"] == []
    assert session.takeback is not None and session.takeback["deadline"] == 63.0
    store.close()
    resumed = Session.resume(SQLiteStore(path), session.id, now=103.0)  # 100 s down
    assert resumed.takeback is not None and resumed.takeback["deadline"] == 163.0
    assert resumed.next_deadline() == 163.0
    assert resumed.store is not None
    resumed.store.close()


def test_a_takeback_request_expires_at_its_deadline_exactly() -> None:
    session, _ = _seated(SessionConfig(takeback_timeout=60.0))
    _golf_after_setup(session, 1.0)
    game = session.game
    assert game is not None
    session.handle("a", {"type": "act", "action": "take", "seen": game.version}, now=2.0)
    session.handle("a", {"type": "takeback", "op": "request"}, now=3.0)
    assert session.takeback is not None
    session.tick(62.999)
    assert session.takeback is not None
    out = session.tick(63.0)
    assert session.takeback is None
    assert any(o.message["type"] == "takeback" and o.message["op"] == "expired" for o in out)


def test_the_game_clock_ends_the_match_at_its_deadline_exactly() -> None:
    session, _ = _seated(SessionConfig(time=TimeControl(total=10.0)))
    assert session.phase == "playing" and session.next_deadline() == 10.0
    session.tick(9.999)
    assert session.phase == "playing"
    session.tick(10.0)
    assert session.phase == "over"


def test_a_hub_ticks_a_session_at_its_deadline_exactly() -> None:
    hub = Hub()
    config = SessionConfig(time=TimeControl(turn=5.0))
    session = hub.create("golf", ["Ann", "Bob"], now=0.0, seed=11, config=config)
    for seat, conn in enumerate(CONNS):
        hub.handle(conn, {"type": "join", "session": session.id, "seat": seat}, now=0.0)
    assert session.phase == "playing" and hub.next_deadline() == 5.0
    assert session.game is not None and session.game.version == 0
    out = hub.tick(5.0)
    assert session.game.version > 0 and session.cause(1) == "timeout"
    assert any(o.message["type"] == "update" for o in out)


# -- the store ------------------------------------------------------------------------------


def test_a_timeouts_move_is_stored_and_resumes(tmp_path: Path) -> None:
    path = str(tmp_path / "s.db")
    store = SQLiteStore(path)
    session, _ = _seated(SessionConfig(time=TimeControl(turn=5.0)), store)
    session.tick(5.0)
    game = session.game
    assert game is not None and game.version > 0
    version, record = game.version, [str(a) for _, a, _ in game.record_entries()]
    stored = store.load(session.id)
    assert stored is not None and len(stored.actions) == version
    store.close()
    resumed = Session.resume(SQLiteStore(path), session.id, now=6.0)
    assert resumed.game is not None and resumed.game.version == version
    assert [str(a) for _, a, _ in resumed.game.record_entries()] == record
    assert resumed.cause(version) == "timeout"
    assert resumed.store is not None
    resumed.store.close()


class _FailingOnce(MemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.fail = False

    def commit(self, session_id: str, batch: Batch) -> None:
        if self.fail:
            self.fail = False
            msg = "disk on fire"
            raise StoreError(msg)
        super().commit(session_id, batch)


def test_a_failed_write_is_retried_whole_with_its_stream_messages() -> None:
    store = _FailingOnce()
    session, tokens = _seated(SessionConfig(), store)
    last = session.streams[1].n
    store.fail = True
    _play_one(session, 1.0)
    assert session.store_error is not None
    _play_one(session, 2.0)
    assert session.store_error is None
    stored = store.load(session.id)
    assert stored is not None
    for stream in [*session.streams, session.spectators]:
        assert stored.messages[stream.name] == list(stream.tail), stream.name
    resumed = Session.resume(store, session.id, now=3.0)
    got = _rejoin(resumed, "b2", 1, tokens[1], last, 3.0)
    assert [m["n"] for m in got] == list(range(last + 1, session.streams[1].n + 1))
    assert all(m["type"] == "update" for m in got)


def test_a_failed_sqlite_commit_is_rolled_back_whole(tmp_path: Path) -> None:
    path = str(tmp_path / "s.db")
    store = SQLiteStore(path)
    session, _ = _seated(SessionConfig(), store)
    before = store.load(session.id)
    assert before is not None and before.status == "playing"
    odd: Any = object()  # SQLite cannot bind it: the commit fails half-way
    bad = Batch("over", 50.0, meta={"broken": True}, messages=[("seat.0", 10_000, odd)])
    with pytest.raises(StoreError):
        store.commit(session.id, bad)
    store.close()
    again = SQLiteStore(path)
    after = again.load(session.id)
    again.close()
    assert after is not None and after.status == "playing" and after.meta == before.meta
    assert after.messages == before.messages


# -- the asyncio host -------------------------------------------------------------------------


def test_a_message_for_a_gone_connection_never_costs_another_its_message() -> None:
    async def scenario() -> None:
        session = Session.create("golf", 2, now=0.0, seed=4, config=SessionConfig())
        host = AsyncHost(session, clock=lambda: 0.0)
        conn = host.connect("ann")
        host.deliver(
            [
                Outbound("gone", {"type": "pong"}, "first"),
                Outbound("ann", {"type": "pong"}, "second"),
            ]
        )
        assert conn.queued > 0
        assert await conn.__anext__() == "second"

    asyncio.run(scenario())


def test_a_change_with_no_message_is_stored_too(tmp_path: Path) -> None:
    """A call that changes the session but numbers no message (the host closing it) still
    reaches the store."""
    path = str(tmp_path / "s.db")
    store = SQLiteStore(path)
    session, _ = _seated(SessionConfig(), store)
    session.close(5.0)
    store.close()
    again = SQLiteStore(path)
    stored = again.load(session.id)
    again.close()
    assert stored is not None and stored.status == "closed"
