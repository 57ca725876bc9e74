"""Review of commit a30a7d22 (2026-12-06 store fixes): ``SQLiteStore.load`` in one read
transaction, ``commit`` refusing a session never created (KeyError), the hub retrying a
close its store failed (``Hub._closing``, ``RETRY_CLOSE``), ``_end`` writing an unsaved batch
though nothing is new, a second ``Session.close``, ``merged`` dropping pruned messages, and
``stale_at_end`` judging ``seen == version`` of a truncated real-time game.

Deterministic: no threads, no sleeps; a second SQLite connection stands in for another
writer. The four bugs found are pinned by tests of the right behaviour, each failing on the
code before its fix (the truncated-game rule was decided instead: CORE-OVER-1, documented).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import MappingProxyType

import pytest

import cardcore
from cardcore import IllegalActionError, StaleActionError
from cardcore.session import (
    Batch,
    Hub,
    MemoryStore,
    Session,
    SQLiteStore,
    StoredSession,
    StoreError,
)
from cardcore.session.hub import RETRY_CLOSE
from cardcore.session.store import merged
from cardcore_spit.logic import SpitLogic

DECK = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)


class _Flaky(SQLiteStore):
    """A file store whose commits fail (a disk error) while *down*, or only its 'closed' ones."""

    down = False
    down_for_close = False
    calls = 0

    def commit(self, session_id: str, batch: Batch) -> None:
        self.calls += 1
        if self.down or (self.down_for_close and batch.status == "closed"):
            raise StoreError("cannot write: disk I/O error")
        super().commit(session_id, batch)


def _golf(hub: Hub, sid: str) -> Session:
    session = hub.create("golf", ["Ann", "Bob"], now=0.0, seed=3, session_id=sid)
    for seat in (0, 1):
        msg = json.dumps({"type": "join", "session": sid, "seat": seat})
        out = hub.handle(f"{sid}-c{seat}", msg, 0.0)
        assert any(o.message["type"] == "welcome" for o in out)
    return session


def _spit_at_2() -> cardcore.Game:
    game = cardcore.new_game("spit", ["Ann", "Bob"], deck=DECK, seed=2)
    game.act(0, "ready", at=0.5)
    game.act(1, "ready", at=0.6)
    return game


def _status(path: Path, sid: str) -> str | None:
    db = sqlite3.connect(path)
    try:
        row = db.execute("SELECT status FROM sessions WHERE id = ?", (sid,)).fetchone()
    finally:
        db.close()
    return None if row is None else row[0]


# -- findings ------------------------------------------------------------------------------


def test_resume_all_never_brings_back_a_session_whose_close_awaits_its_retry(
    tmp_path: Path,
) -> None:
    store = _Flaky(tmp_path / "g.db")
    hub = Hub(store)
    _golf(hub, "g")
    store.down_for_close = True
    hub.close("g", 1.0)
    assert "g" not in hub.sessions and hub.next_deadline() == 1.0 + RETRY_CLOSE
    assert hub.resume_all(2.0) == []  # e.g. a host resuming after a store reconnect
    assert "g" not in hub.sessions  # today: a live 'g' again, joinable


def test_an_action_on_the_version_the_core_truncated_at_its_bound_is_game_over_not_stale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    free = cardcore.new_game("spit", ["Ann", "Bob"], deck=DECK, seed=2)
    for seat, text in ((0, "ready"), (1, "ready"), (0, "play 1 L")):
        free.act(seat, text, at=1.0)
    legal_at_3 = free.view(1)["legal"]
    assert legal_at_3  # the logic alone lets Bob act at version 3

    monkeypatch.setattr(SpitLogic, "action_bound", lambda self, players, options: 3)
    answers = []
    for viewed in (True, False):
        fresh = MappingProxyType({})  # (no plain dict: its bound is asked again, never cached)
        game = cardcore.new_game("spit", ["Ann", "Bob"], deck=DECK, seed=2, options=fresh)
        for seat, text in ((0, "ready"), (1, "ready"), (0, "play 1 L")):
            game.act(seat, text, at=1.0)
        assert game.version == 3 and game.is_over and game.result.reason == "truncated"
        if viewed:  # what a view at version 3 shows Bob: nothing to play
            assert game.view(1)["legal"] == []
        with pytest.raises(IllegalActionError) as info:
            game.act(1, legal_at_3[0], seen=3)
        answers.append(info.value.rule_id)
    # the same action at the same seen: today CORE-OVER-1 once Bob's view was taken (it caches
    # his empty legal set at 3), CORE-RT-1 'truncated first' if not
    assert answers == ["CORE-OVER-1", "CORE-OVER-1"]


def test_an_action_on_the_view_the_host_truncated_is_game_over_shown_the_end_or_not() -> None:
    """Review finding: the stale answer for a truncated game hung on whether anyone had been
    shown the end (a view after truncate() cached an empty legal set at that version). The
    rule was decided instead: truncating is no action, so such an action is CORE-OVER-1
    either way (docs/core-rules.rst, CORE-RT-1)."""
    for shown in (False, True):
        game = _spit_at_2()
        game.view(1)  # Bob's view at version 2: 'play 3 L' among his moves
        game.truncate()
        if shown:
            game.view(1)  # the host shows Bob the end (a session, a server: every view is sent)
        with pytest.raises(IllegalActionError, match="CORE-OVER-1") as caught:
            game.act(1, "play 3 L", seen=2)
        assert not isinstance(caught.value, StaleActionError)


def test_a_close_the_store_refuses_for_good_is_not_retried_forever(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = _Flaky(path)
    hub = Hub(store)
    _golf(hub, "g")
    other = sqlite3.connect(path, isolation_level=None)  # an operator purges the session
    other.execute("DELETE FROM sessions WHERE id = 'g'")
    other.close()
    hub.close("g", 1.0)
    before = store.calls
    for k in range(100):
        hub.tick(2.0 + k * RETRY_CLOSE)
    assert store.calls - before < 100 and hub.next_deadline() is None


# -- claims that hold: the SQLite store ------------------------------------------------------


def test_load_failing_on_bad_meta_leaves_no_transaction_open(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = SQLiteStore(path)
    store.create(StoredSession("g", "playing", 0.0, {"v": 0}))
    store.create(StoredSession("h", "playing", 0.0, {"v": 0}))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("UPDATE sessions SET meta = 'not json' WHERE id = 'g'")
    other.close()
    with pytest.raises(StoreError):
        store.load("g")
    assert not store._db.in_transaction
    assert store.load("h") is not None  # a second BEGIN: no 'transaction within a transaction'
    store.commit("h", Batch("playing", 1.0, meta={"v": 1}))
    assert store.load("h").meta == {"v": 1}


def test_load_of_a_missing_session_and_after_a_failed_commit_leaves_no_transaction_open() -> None:
    store = SQLiteStore(":memory:")
    assert store.load("ghost") is None
    assert not store._db.in_transaction
    with pytest.raises(KeyError):
        store.commit("ghost", Batch("closed", 1.0, actions=[(0, 0, "x", None)]))
    assert not store._db.in_transaction
    assert store.load("ghost") is None  # nothing written, not even an orphan action
    assert store._db.execute("SELECT count(*) FROM actions").fetchone()[0] == 0


def test_load_reads_the_last_commit_while_another_writer_holds_the_write_lock(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    store = SQLiteStore(path)
    store.create(StoredSession("g", "playing", 0.0, {"v": 0}))
    other = sqlite3.connect(path, isolation_level=None, timeout=0.1)
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE sessions SET meta = '{\"v\":9}' WHERE id = 'g'")
    seen = store.load("g")  # the write-ahead log: a reader is never blocked by the writer
    assert seen is not None and seen.meta == {"v": 0}
    other.execute("COMMIT")
    other.close()
    with pytest.raises(StoreError, match="another writer"):  # its mark is of the old row
        store.commit("g", Batch("playing", 1.0, meta={"v": 1}))


def test_resume_all_reads_every_session_through_load(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    hub = Hub(SQLiteStore(path))
    _golf(hub, "a")
    _golf(hub, "b")
    hub.close("b", 1.0)
    restarted = Hub(SQLiteStore(path))
    assert restarted.resume_all(2.0) == []
    assert sorted(restarted.sessions) == ["a"]
    assert not restarted.store._db.in_transaction


# -- claims that hold: the hub's retried close ----------------------------------------------


def test_a_failed_close_is_asked_for_at_retry_close_and_written_then(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = _Flaky(path)
    hub = Hub(store)
    _golf(hub, "g")
    store.down_for_close = True
    hub.close("g", 10.0)
    assert _status(path, "g") == "waiting" or _status(path, "g") == "playing"
    assert hub.next_deadline() == 10.0 + RETRY_CLOSE
    hub.tick(11.0)  # still down: asked again RETRY_CLOSE after this try
    assert hub.next_deadline() == 11.0 + RETRY_CLOSE
    store.down_for_close = False
    assert hub.tick(16.0) == []
    assert _status(path, "g") == "closed" and hub.next_deadline() is None


def test_closing_again_through_the_hub_writes_a_failed_close(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = _Flaky(path)
    hub = Hub(store)
    _golf(hub, "g")
    store.down_for_close = True
    assert {o.message["type"] for o in hub.close("g", 1.0)} == {"closed"}
    store.down_for_close = False
    assert hub.close("g", 2.0) == []  # nothing told twice
    assert _status(path, "g") == "closed" and hub.next_deadline() is None


def test_a_second_session_close_returns_nothing_and_writes_nothing() -> None:
    store = MemoryStore()
    hub = Hub(store)
    session = _golf(hub, "g")
    assert hub.close("g", 1.0)
    kept = store.load("g")
    assert kept is not None and kept.status == "closed"
    store.commit = None  # type: ignore[assignment,method-assign]  # any write would fail loudly
    assert session.close(2.0) == []
    assert session.now == 1.0 and session.store_error is None


def test_an_unsaved_batch_is_written_by_the_next_call_though_nothing_is_new(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    store = _Flaky(path)
    hub = Hub(store)
    session = _golf(hub, "g")
    store.down = True
    game = session.game
    assert game is not None
    seat = game.to_act[0]
    act = {"type": "act", "action": str(game.legal_actions(seat)[0]), "seen": game.version}
    out = hub.handle(f"g-c{seat}", json.dumps(act), 1.0)
    assert any(o.message["type"] == "ok" for o in out)
    assert session.store_error is not None
    store.down = False
    session.tick(2.0)  # no clock ran out: nothing new, the unsaved batch written
    assert session.store_error is None and session._unsaved is None
    again = SQLiteStore(path).load("g")
    assert again is not None and len(again.actions) == 1


# -- claims that hold: merged ---------------------------------------------------------------


def test_merged_drops_only_messages_below_their_own_streams_marker() -> None:
    old = Batch("playing", 1.0, messages=[("seat.0", 1, "a"), ("seat.1", 1, "b")])
    new = Batch(
        "playing",
        2.0,
        messages=[("seat.0", 2, "c"), ("spectators", 1, "d")],
        prune={"seat.0": 2},
    )
    both = merged(old, new)
    assert both.messages == [("seat.1", 1, "b"), ("seat.0", 2, "c"), ("spectators", 1, "d")]
    assert both.prune == {"seat.0": 2}


def test_merged_then_committed_stores_what_the_two_commits_would() -> None:
    one, two = SQLiteStore(":memory:"), SQLiteStore(":memory:")
    for store in (one, two):
        store.create(StoredSession("g", "playing", 0.0, {}))
    a = Batch("playing", 1.0, messages=[("s", n, str(n)) for n in range(1, 5)], prune={"s": 2})
    b = Batch("playing", 2.0, messages=[("s", n, str(n)) for n in range(5, 8)], prune={"s": 6})
    one.commit("g", a)
    one.commit("g", b)
    two.commit("g", merged(a, b))
    assert one.load("g").messages == two.load("g").messages == {"s": [(6, "6"), (7, "7")]}


# -- claims that hold: stale at the end -----------------------------------------------------


def test_an_action_on_the_view_the_host_truncated_is_game_over_legal_there_or_not() -> None:
    game = _spit_at_2()
    game.truncate()
    assert game.version == 2
    for text in ("play 3 L", "play 1 R"):  # legal at 2, and never legal there: both over
        with pytest.raises(IllegalActionError) as info:
            game.act(1, text, seen=2)
        assert info.value.rule_id == "CORE-OVER-1"
        assert not isinstance(info.value, StaleActionError)


def test_a_truncated_turn_based_game_answers_game_over_whatever_seen() -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=3)
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[0])
    game.truncate()
    with pytest.raises(IllegalActionError) as info:
        game.act(seat, text, seen=game.version)
    assert info.value.rule_id == "CORE-OVER-1" and not isinstance(info.value, StaleActionError)
