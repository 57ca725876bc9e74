"""The stores: SQLite and memory keep the same thing; a restart resumes exactly; a failing
store never stops the game, and its writes are retried."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cardcore.errors import ArgumentError
from cardcore.session import (
    Batch,
    Hub,
    MemoryStore,
    Session,
    SessionConfig,
    SessionError,
    SQLiteStore,
    Store,
    StoredSession,
    StoreError,
    TimeControl,
    TokenRow,
)
from tests.session.kit import Table


def _stores(tmp_path: Path) -> list[Store]:
    return [MemoryStore(), SQLiteStore(tmp_path / "s.db"), SQLiteStore(":memory:")]


def test_both_stores_keep_the_same_thing(tmp_path: Path) -> None:
    loaded = []
    for store in _stores(tmp_path):
        assert isinstance(store, Store)
        store.create(StoredSession("s1", "waiting", 1.0, {"a": 1}))
        with pytest.raises(KeyError):
            store.create(StoredSession("s1", "waiting", 1.0, {}))
        store.commit(
            "s1",
            Batch(
                "playing",
                2.0,
                meta={"a": 2},
                actions=[(0, 0, "draw", 1.5), (1, 1, "take", None)],
                tokens=[TokenRow(0, "ab" * 32, None)],
                messages=[("seat.0", 1, "{}"), ("seat.0", 2, "{}"), ("seat.1", 1, "{}")],
            ),
        )
        store.commit(
            "s1",
            Batch(
                "playing",
                3.0,
                keep_actions=1,
                actions=[(1, 1, "draw", 2.5)],
                prune={"seat.0": 2},
                tokens=[TokenRow(0, "cd" * 32, 9.0)],
            ),
        )
        store.create(StoredSession("s2", "over", 2.0, {}))
        got = store.load("s1")
        assert got is not None
        loaded.append((got.status, got.meta, got.actions, got.tokens, got.messages))
        assert store.load("nope") is None
        assert store.session_ids() == ["s1", "s2"] and store.session_ids(("playing",)) == ["s1"]
        store.close()
    assert loaded[0] == loaded[1] == loaded[2]
    assert loaded[0][2] == [(0, "draw", 1.5), (1, "draw", 2.5)]
    assert loaded[0][4] == {"seat.0": [(2, "{}")], "seat.1": [(1, "{}")]}


def test_a_memory_store_keeps_only_the_last_closed_sessions() -> None:
    store = MemoryStore(keep_closed=2)
    for k in range(5):
        store.create(StoredSession(f"s{k}", "playing", float(k), {}))
    for k in range(4):  # s4 stays open
        store.commit(f"s{k}", Batch("closed", 10.0 + k))
    assert store.session_ids(("closed",)) == ["s2", "s3"]  # the oldest closed dropped
    assert store.load("s0") is None and store.load("s3") is not None
    assert store.session_ids() == ["s4"]  # an open session is never dropped
    none_kept = MemoryStore(keep_closed=0)
    none_kept.create(StoredSession("a", "over", 1.0, {}))
    none_kept.commit("a", Batch("closed", 2.0))
    assert none_kept.load("a") is None
    assert MemoryStore().keep_closed == 16
    for bad in (-1, 1.5, True, "3", None):
        with pytest.raises(ArgumentError, match="keep_closed"):
            MemoryStore(keep_closed=bad)  # type: ignore[arg-type]


def test_sqlite_refuses_a_newer_schema_and_an_unusable_path(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(StoreError, match="newer schema"):
        SQLiteStore(path)
    with pytest.raises(StoreError):
        SQLiteStore(tmp_path / "no" / "such" / "dir.db")
    (tmp_path / "text.db").write_text("not a database at all " * 100)
    with pytest.raises(StoreError):
        SQLiteStore(tmp_path / "text.db")


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_a_restart_resumes_every_game_exactly(name: str, tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    config = SessionConfig(time=TimeControl(turn=30.0), spectator_delay=3)
    session = Session.create(
        name, ["A", "B"], now=0.0, seed=21, config=config, store=SQLiteStore(path)
    )
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    t.send("w", {"type": "watch"})
    rng = random.Random(2)
    game = session.game
    assert game is not None
    for _ in range(25):
        if game.is_over:
            break
        seat = rng.choice(game.to_act)
        legal = [str(a) for a in game.legal_actions(seat) if str(a) not in ("knock", "drop")]
        if legal:
            t.act("ab"[seat], rng.choice(legal), 0.5, seen=game.version)
    resumed = Session.resume(SQLiteStore(path), session.id, t.now)
    again = resumed.game
    assert again is not None
    assert again.record() == game.record()
    assert again.position() == game.position()
    for seat in (0, 1, None):
        assert again.view(seat) == game.view(seat)
    assert [s.n for s in resumed.streams] == [s.n for s in session.streams]
    assert resumed.spec.released == session.spec.released and resumed.spec.view == session.spec.view
    assert [e.version for e in resumed.spec.pending] == [e.version for e in session.spec.pending]
    assert resumed.clocks.turn == session.clocks.turn and resumed.foreign == session.foreign
    assert resumed.tokens == session.tokens and resumed.phase == session.phase


def test_a_waiting_session_resumes_waiting(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    session = Session.create("golf", 2, now=0.0, seed=1, store=store)
    t = Table(session)
    t.join("a", 0)
    resumed = Session.resume(store, session.id, 5.0)
    assert resumed.phase == "waiting" and resumed.game is None and 0 in resumed.tokens
    t.restart(resumed)
    t.join("b", 1)
    assert resumed.phase == "playing"


def test_resume_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    store = MemoryStore()
    with pytest.raises(SessionError, match="no session"):
        Session.resume(store, "nope", 0.0)
    store.create(StoredSession("x", "playing", 0.0, {"format": "other"}))
    with pytest.raises(SessionError, match="format"):
        Session.resume(store, "x", 0.0)
    session = Session.create("golf", 2, now=0.0, seed=1, store=store)
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    t.act("a", "flip 0", 1.0)
    stored = store.load(session.id)
    assert stored is not None
    stored.actions[0] = (0, "flip 99", 1.0)  # damaged
    store._data[session.id] = stored
    with pytest.raises(SessionError, match="cannot be resumed"):
        Session.resume(store, session.id, 2.0)


class FlakyStore(MemoryStore):
    """A store whose commits fail while ``down`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False

    def commit(self, session_id: str, batch: Batch) -> None:
        if self.down:
            raise OSError("disk full")
        super().commit(session_id, batch)


def test_a_failing_store_never_stops_the_game_and_catches_up(tmp_path: Path) -> None:
    store = FlakyStore()
    session = Session.create("golf", 2, now=0.0, seed=3, store=store)
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    store.down = True
    t.act("a", "flip 0", 1.0)
    t.act("a", "flip 1", 1.0)
    assert session.store_error is not None and "disk full" in session.store_error
    assert not t.errors(t.act("b", "flip 2", 1.0))
    store.down = False
    t.act("b", "flip 3", 1.0)
    assert session.store_error is None
    resumed = Session.resume(store, session.id, t.now)
    assert resumed.game is not None and resumed.game.record() == session.game.record()


def test_every_stored_message_is_json_and_numbered_in_order(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    session = Session.create(
        "tonk", 2, now=0.0, seed=2, store=SQLiteStore(path), config=SessionConfig(resync_keep=4)
    )
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    rng = random.Random(3)
    game = session.game
    assert game is not None
    for _ in range(12):
        seat = game.to_act[0]
        legal = [str(a) for a in game.legal_actions(seat) if str(a) != "drop"]
        t.act("ab"[seat], rng.choice(legal), 1.0, seen=game.version)
    rows = (
        sqlite3.connect(path)
        .execute("SELECT stream, n, body FROM messages ORDER BY stream, n")
        .fetchall()
    )
    by_stream: dict[str, list[tuple[int, Any]]] = {}
    for stream, n, body in rows:
        by_stream.setdefault(stream, []).append((n, json.loads(body)))
    for stream, items in by_stream.items():
        numbers = [n for n, _ in items]
        assert numbers == sorted(numbers) and all(m["n"] == n for n, m in items)
        assert len(items) <= 2 * 4, stream  # pruned as it grows


@pytest.mark.parametrize("meta", ["[]", "clocks-overflow", "not json"])
def test_a_damaged_stored_session_is_skipped_at_start_and_the_others_resume(
    meta: str, tmp_path: Path
) -> None:
    path = tmp_path / "s.db"
    store = SQLiteStore(path)
    bad = Session.create("golf", 2, now=0.0, seed=1, store=store)
    good = Session.create("golf", 2, now=0.0, seed=2, store=store)
    bad.handle("a", '{"type":"join","seat":0}', now=1.0)
    db = sqlite3.connect(path, isolation_level=None)
    if meta == "clocks-overflow":
        data = json.loads(
            db.execute("SELECT meta FROM sessions WHERE id=?", (bad.id,)).fetchone()[0]
        )
        data["clocks"] = {"since": 10**400}
        meta = json.dumps(data)
    db.execute("UPDATE sessions SET meta=? WHERE id=?", (meta, bad.id))
    db.close()
    hub = Hub(store=SQLiteStore(path))
    assert hub.resume_all(now=5.0) == [bad.id]
    assert good.id in hub.sessions and bad.id not in hub.sessions
    with pytest.raises(SessionError, match=r"cannot be resumed|damaged|format"):
        Session.resume(SQLiteStore(path), bad.id, now=5.0)
