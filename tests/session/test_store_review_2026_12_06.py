"""Review of the session stores and the hub (2026-12-06): two store objects on one SQLite
file, batches failing half-way, ``merged``, ``MemoryStore(keep_closed=...)``, ``Hub.close``
and ``Hub.resume_all``, odd ids and the schema version.

Interleavings are forced deterministically: a :class:`_Spy` wraps a store's connection and
runs another writer's commit (or raises a disk error) just before a chosen statement; no
threads, no sleeps. The tests that were strict xfails pin the six bugs found (each failed
on the code before its fix).
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardcore.session import (
    Batch,
    Hub,
    MemoryStore,
    Session,
    SessionConfig,
    SQLiteStore,
    StoredSession,
    StoreError,
    TokenRow,
)
from cardcore.session.store import merged


class _Spy:
    """A store's connection, calling *hook(sql)* before each statement it runs."""

    def __init__(self, db: sqlite3.Connection, hook: Callable[[str], None]) -> None:
        self._db = db
        self._hook = hook

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        self._hook(sql)
        return self._db.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:
        self._hook(sql)
        return self._db.executemany(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def _spy(store: SQLiteStore, hook: Callable[[str], None]) -> None:
    store._db = _Spy(store._db, hook)  # type: ignore[assignment]


def _once(prefix: str, then: Callable[[], None]) -> Callable[[str], None]:
    """A hook running *then* the first time a statement starting with *prefix* runs."""
    fired: list[bool] = []

    def hook(sql: str) -> None:
        if sql.startswith(prefix) and not fired:
            fired.append(True)
            then()

    return hook


def _join(hub: Hub, sid: str, now: float = 0.0) -> None:
    for seat in (0, 1):
        out = hub.handle(
            f"{sid}-c{seat}", json.dumps({"type": "join", "session": sid, "seat": seat}), now
        )
        assert any(o.message["type"] == "welcome" for o in out)


def _act(hub: Hub, session: Session, now: float) -> None:
    game = session.game
    assert game is not None
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[0])
    msg = {"type": "act", "action": text, "seen": game.version}
    out = hub.handle(f"{session.id}-c{seat}", json.dumps(msg), now)
    assert any(o.message["type"] == "ok" for o in out), [o.message for o in out]


def _golf(hub: Hub, sid: str, *, seed: int = 3, config: SessionConfig | None = None) -> Session:
    session = hub.create("golf", ["Ann", "Bob"], now=0.0, seed=seed, session_id=sid, config=config)
    _join(hub, sid)
    return session


# -- findings ------------------------------------------------------------------------------


def test_a_load_racing_another_writers_commit_never_lets_its_store_overwrite_that_commit(
    tmp_path: Path,
) -> None:
    path = tmp_path / "one.db"
    first = SQLiteStore(path)
    first.create(StoredSession("g", "playing", 0.0, {"v": 0}))
    second = SQLiteStore(path)
    _spy(
        second,
        _once(
            "SELECT updated, status, meta",  # the mark load takes after its reads
            lambda: first.commit(
                "g", Batch("playing", 1.0, meta={"v": 1}, actions=[(0, 0, "first's move", 1.0)])
            ),
        ),
    )
    seen = second.load("g")
    assert (
        seen is not None and seen.meta == {"v": 0} and seen.actions == []
    )  # read before the commit
    with contextlib.suppress(StoreError):  # from what it read, it appends its own action 0
        second.commit(
            "g", Batch("playing", 2.0, meta={"v": 2}, actions=[(0, 1, "second's move", 2.0)])
        )
    kept = SQLiteStore(path).load("g")
    assert kept is not None
    assert kept.actions == [(0, "first's move", 1.0)]  # today: [(1, "second's move", 2.0)]


def test_a_load_racing_a_commit_returns_the_rows_of_one_commit(tmp_path: Path) -> None:
    path = tmp_path / "one.db"
    first = SQLiteStore(path)
    first.create(StoredSession("g", "playing", 0.0, {"v": 0}))
    second = SQLiteStore(path)
    _spy(
        second,
        _once(
            "SELECT seat, notation, at FROM actions",
            lambda: first.commit(
                "g", Batch("playing", 1.0, meta={"v": 1}, actions=[(0, 0, "move", 1.0)])
            ),
        ),
    )
    seen = second.load("g")
    assert seen is not None
    assert (seen.meta, seen.actions) in (({"v": 0}, []), ({"v": 1}, [(0, "move", 1.0)]))


def test_a_commit_to_a_session_never_created_is_refused_and_leaves_nothing() -> None:
    store = SQLiteStore(":memory:")
    batch = Batch(
        "playing",
        1.0,
        actions=[(0, 0, "orphan", None)],
        tokens=[TokenRow(0, "ab" * 32, None)],
        messages=[("seat.0", 1, "{}")],
    )
    with pytest.raises((KeyError, StoreError)):
        store.commit("ghost", batch)
    store.create(StoredSession("ghost", "waiting", 2.0, {}))
    fresh = store.load("ghost")
    assert fresh is not None
    assert (fresh.actions, fresh.tokens, fresh.messages) == ([], [], {})


def test_memory_store_refuses_a_commit_to_a_session_never_created() -> None:
    with pytest.raises(KeyError):
        MemoryStore().commit("ghost", Batch("playing", 1.0, actions=[(0, 0, "x", None)]))


class _Flaky(SQLiteStore):
    """A file store whose commits fail (a disk error) while *down*, or only its 'closed' ones."""

    down = False
    down_for_close = False
    batches: list[Batch]

    def commit(self, session_id: str, batch: Batch) -> None:
        self.batches = [*getattr(self, "batches", []), batch]
        if self.down or (self.down_for_close and batch.status == "closed"):
            raise StoreError("cannot write: disk I/O error")
        super().commit(session_id, batch)


def test_a_close_the_store_failed_is_written_once_the_store_is_back(tmp_path: Path) -> None:
    path = tmp_path / "close.db"
    store = _Flaky(path)
    hub = Hub(store)
    session = _golf(hub, "g")
    _act(hub, session, 1.0)
    store.down_for_close = True
    out = hub.close("g", 2.0)
    assert {o.message["type"] for o in out} == {"closed"} and session.store_error
    store.down_for_close = False
    hub.close("g", 3.0)  # the host closes it again (or the hub retries on its own)
    hub.tick(4.0)
    store.close()
    restarted = Hub(SQLiteStore(path))
    assert restarted.resume_all(5.0) == []
    assert "g" not in restarted.sessions  # today: the closed game is back


def test_a_dropped_closed_session_never_writes_over_the_new_session_reusing_its_id() -> None:
    store = MemoryStore(keep_closed=1)
    hub = Hub(store)
    old = hub.create("golf", ["Ann", "Bob"], now=0.0, seed=1, session_id="g")
    hub.create("golf", ["Ann", "Bob"], now=0.0, seed=9, session_id="h")
    hub.close("g", 1.0)
    hub.close("h", 1.5)  # keep_closed=1: g is dropped, its id free again
    assert store.load("g") is None
    new = hub.create("golf", ["Ann", "Bob"], now=2.0, seed=2, session_id="g")
    old.close(3.0)  # a second close of the old object (a late timer, a bot, a careless host)
    kept = store.load("g")
    assert kept is not None
    assert (kept.status, kept.meta["seed"]) == (new.phase, 2)  # today: ("closed", 1)


def test_an_outage_retry_carries_no_message_its_own_prune_drops(tmp_path: Path) -> None:
    store = _Flaky(tmp_path / "outage.db")
    hub = Hub(store)
    session = _golf(hub, "g", config=SessionConfig(resync_keep=2))
    store.down = True
    for k in range(8):
        _act(hub, session, 1.0 + k)
    store.down = False
    _act(hub, session, 20.0)
    last = store.batches[-1]
    assert session.store_error is None and last.prune
    dropped = [(s, n) for s, n, _ in last.messages if n < last.prune.get(s, 0)]
    assert dropped == []


# -- claims that hold ----------------------------------------------------------------------


def test_two_stores_on_one_file_never_create_one_id_twice(tmp_path: Path) -> None:
    path = tmp_path / "one.db"
    first, second = SQLiteStore(path), SQLiteStore(path)
    first.create(StoredSession("g", "waiting", 1.0, {"by": "first"}))
    with pytest.raises(KeyError):
        second.create(StoredSession("g", "waiting", 2.0, {"by": "second"}))
    kept = second.load("g")
    assert kept is not None and kept.meta == {"by": "first"} and kept.created == 1.0


def test_a_store_that_read_a_session_before_another_writer_committed_it_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "one.db"
    first = SQLiteStore(path)
    first.create(StoredSession("g", "playing", 0.0, {"v": 0}))
    second = SQLiteStore(path)
    assert second.load("g") is not None
    first.commit("g", Batch("playing", 1.0, meta={"v": 1}, actions=[(0, 0, "first's move", 1.0)]))
    with pytest.raises(StoreError, match="another writer"):
        second.commit(
            "g", Batch("playing", 2.0, meta={"v": 2}, actions=[(0, 1, "second's move", 2.0)])
        )
    first.commit("g", Batch("playing", 3.0, meta={"v": 3}, actions=[(1, 1, "reply", 3.0)]))
    kept = SQLiteStore(path).load("g")
    assert kept is not None and kept.meta == {"v": 3}
    assert kept.actions == [(0, "first's move", 1.0), (1, "reply", 3.0)]


@pytest.mark.parametrize(
    "where",
    ["INSERT INTO actions", "INSERT OR REPLACE INTO messages", "DELETE FROM messages", "COMMIT"],
)
def test_a_commit_failing_half_way_is_undone_whole_and_retried_with_the_next(
    tmp_path: Path, where: str
) -> None:
    path = tmp_path / "half.db"
    store = SQLiteStore(path)
    hub = Hub(store)
    session = _golf(hub, "g", config=SessionConfig(resync_keep=1))  # every message prunes
    for k in range(3):
        _act(hub, session, 1.0 + k)
    assert session.game is not None
    before = session.game.version
    saved_before = session.game.save()

    def fail() -> None:
        raise sqlite3.OperationalError("disk I/O error")

    _spy(store, _once(where, fail))
    _act(hub, session, 10.0)  # plays an action, emits and prunes messages: its commit fails
    assert session.store_error is not None and "disk I/O error" in session.store_error
    stored = SQLiteStore(path).load("g")
    assert stored is not None and len(stored.actions) == before  # nothing of the failed call
    at_failure = Session.resume(SQLiteStore(path), "g", now=11.0)  # consistent: it resumes
    assert at_failure.game is not None and at_failure.game.save() == saved_before
    _act(hub, session, 12.0)  # the next call writes both batches
    assert session.store_error is None
    resumed = Session.resume(SQLiteStore(path), "g", now=13.0)
    assert resumed.game is not None and resumed.game.save() == session.game.save()
    stored = SQLiteStore(path).load("g")
    assert stored is not None
    for name, rows in stored.messages.items():  # tails pruned as one commit would have
        assert len(rows) == 1, name


def _random_batches(rng: random.Random, count: int) -> list[Batch]:
    """Batches as a session makes them: actions appended in order, takebacks cutting the
    record, per-stream messages numbered upwards, prune markers rising, tokens by seat."""
    length, numbers, batches = 0, {"a": 0, "b": 0}, []
    pruned = {"a": 0, "b": 0}
    for k in range(count):
        batch = Batch(
            rng.choice(["playing", "over"]), float(k), meta={"k": k} if rng.random() < 0.7 else None
        )
        if length and rng.random() < 0.4:
            length = rng.randrange(length + 1)
            batch.keep_actions = length
        for _ in range(rng.randrange(4)):
            batch.actions.append(
                (length, rng.randrange(3), f"a{k}-{length}", rng.choice([None, float(k)]))
            )
            length += 1
        for _ in range(rng.randrange(4)):
            stream = rng.choice("ab")
            numbers[stream] += 1
            batch.messages.append((stream, numbers[stream], json.dumps({"k": k})))
        for stream in "ab":
            if rng.random() < 0.3:
                pruned[stream] = rng.randint(pruned[stream], numbers[stream] + 1)
                batch.prune[stream] = pruned[stream]
        for _ in range(rng.randrange(2)):
            batch.tokens.append(
                TokenRow(rng.randrange(3), f"{k:064x}", rng.choice([None, float(k)]))
            )
        batches.append(batch)
    return batches


def _state(store: Any) -> tuple[Any, ...]:
    got = store.load("g")
    return (got.status, got.meta, got.actions, got.tokens, got.messages)


@pytest.mark.parametrize("seed", range(24))
def test_a_merged_batch_stores_what_its_batches_store_one_by_one(seed: int) -> None:
    rng = random.Random(seed)
    batches = _random_batches(rng, 14)
    for make in (MemoryStore, lambda: SQLiteStore(":memory:")):
        one_by_one, in_runs = make(), make()
        for store in (one_by_one, in_runs):
            store.create(StoredSession("g", "playing", 0.0, {"k": -1}))
        for batch in batches:
            one_by_one.commit("g", batch)
        run: Batch | None = None
        for k, batch in enumerate(batches):  # failed writes: runs of 1 to 3 batches merged
            run = batch if run is None else merged(run, batch)
            if k % 3 == seed % 3 or k == len(batches) - 1:
                in_runs.commit("g", run)
                run = None
        assert _state(in_runs) == _state(one_by_one)


def test_a_merged_run_of_takebacks_cuts_the_record_to_the_lowest() -> None:
    actions = [(k, k % 2, f"a{k}", None) for k in range(5)]
    batches = [
        Batch("playing", 1.0, meta={"k": 1}, actions=actions),
        Batch("playing", 2.0, keep_actions=3),  # two takebacks whose writes failed
        Batch("playing", 3.0, keep_actions=1),
        Batch("playing", 4.0, keep_actions=1, actions=[(1, 0, "again", 4.0)]),
    ]
    for make in (MemoryStore, lambda: SQLiteStore(":memory:")):
        store = make()
        store.create(StoredSession("g", "playing", 0.0, {}))
        store.commit("g", batches[0])
        store.commit("g", merged(batches[1], batches[2]))
        assert _state(store)[2] == [(0, "a0", None)]
        store.commit("g", merged(merged(batches[1], batches[2]), batches[3]))
        assert _state(store)[2] == [(0, "a0", None), (0, "again", 4.0)]


def test_resume_all_resumes_every_session_but_the_damaged_ones(tmp_path: Path) -> None:
    path = tmp_path / "many.db"
    hub = Hub(SQLiteStore(path))
    for sid in ("a", "edited", "b", "garbled", "c"):
        session = _golf(hub, sid)
        _act(hub, session, 1.0)
    hub.store.close()  # type: ignore[union-attr]
    db = sqlite3.connect(path)
    meta = json.loads(db.execute("SELECT meta FROM sessions WHERE id = 'edited'").fetchone()[0])
    meta["seed"] += 1
    db.execute("UPDATE sessions SET meta = ? WHERE id = 'edited'", (json.dumps(meta),))
    db.execute("UPDATE sessions SET meta = '{not json' WHERE id = 'garbled'")
    db.commit()
    db.close()
    restarted = Hub(SQLiteStore(path))
    assert sorted(restarted.resume_all(5.0)) == ["edited", "garbled"]
    assert sorted(restarted.sessions) == ["a", "b", "c"]
    assert all(s.game is not None and s.game.version == 1 for s in restarted.sessions.values())


@pytest.mark.parametrize("store_kind", ["memory", "sqlite"])
def test_odd_ids_are_bound_as_values_and_kept_apart(tmp_path: Path, store_kind: str) -> None:
    # (no NUL: a session id holding one is refused since 2026-12-06, see the session review)
    ids = ["x'); DROP TABLE sessions; --", "a\x01b", "a", "ü%_*?", 'q"uote', "g' OR '1'='1"]
    store = MemoryStore() if store_kind == "memory" else SQLiteStore(tmp_path / "odd.db")
    hub = Hub(store)
    for k, sid in enumerate(ids):
        session = hub.create("golf", ["Ann", "Bob"], now=float(k), seed=k, session_id=sid)
        assert session.id == sid
    assert store.load("a\x01c") is None and store.load("g") is None
    restarted = Hub(store)
    assert restarted.resume_all(10.0) == []
    assert sorted(restarted.sessions) == sorted(ids)
    assert {sid: s.seed for sid, s in restarted.sessions.items()} == {
        sid: k for k, sid in enumerate(ids)
    }


def test_a_newer_schema_is_refused_untouched_and_an_unversioned_store_adopted(
    tmp_path: Path,
) -> None:
    old = tmp_path / "old.db"
    store = SQLiteStore(old)
    store.create(StoredSession("kept", "playing", 1.0, {"a": 1}))
    store.close()
    db = sqlite3.connect(old)
    db.execute("PRAGMA user_version = 0")  # tables of a store whose version was never written
    db.close()
    reopened = SQLiteStore(old)
    assert reopened.session_ids() == ["kept"]
    reopened.close()
    db = sqlite3.connect(old)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    db.execute("PRAGMA user_version = 2")
    db.close()
    before = old.read_bytes()
    with pytest.raises(StoreError, match="newer schema"):
        SQLiteStore(old)
    assert old.read_bytes() == before


def test_a_message_for_a_session_the_hub_closed_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "closed.db"
    store = SQLiteStore(path)
    hub = Hub(store)
    session = _golf(hub, "g")
    _act(hub, session, 1.0)
    out = hub.close("g", 2.0)
    assert {o.conn for o in out if o.close} == {"g-c0", "g-c1"}
    closed = store.load("g")
    assert closed is not None and closed.status == "closed"
    act = {"type": "act", "action": "x", "seen": 1}
    told = hub.handle("g-c0", json.dumps(act), 3.0)
    assert [o.message.get("code") for o in told] == ["not-joined"]
    told = hub.handle("g-c1", json.dumps({"type": "join", "session": "g", "seat": 1}), 3.5)
    assert [o.message.get("code") for o in told] == ["no-session"]
    assert hub.tick(100.0) == [] and hub.close("g", 4.0) == []
    after = SQLiteStore(path).load("g")
    assert after is not None
    assert (after.status, after.meta, after.actions) == (closed.status, closed.meta, closed.actions)
    assert Hub(SQLiteStore(path)).resume_all(5.0) == [] and "g" not in hub.sessions
