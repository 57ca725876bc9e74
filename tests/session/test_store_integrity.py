"""A stored session's rows agree with the digests committed with them, or it is not resumed;
token hashes name their seat and session; an unreadable kept message costs a fresh view."""

from __future__ import annotations

import dataclasses
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cardcore import CorruptStateError
from cardcore.session import (
    CorruptSessionError,
    MemoryStore,
    Session,
    SessionError,
    SQLiteStore,
    StoredSession,
    TokenRow,
)
from cardcore.session.tokens import hash_token, token_matches

V2 = Path(__file__).resolve().parent / "data" / "golf_v2_session.json"
MOVES = [(0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1"), (0, "draw")]


def _played(path: Path) -> tuple[Session, dict[int, str]]:
    """A Golf session in *path*, both seats claimed, five actions played (version 5)."""
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=SQLiteStore(path))
    tokens = {}
    for seat in (0, 1):
        out = session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
        tokens[seat] = next(o.message for o in out if o.message["type"] == "welcome")["token"]
    for i, (seat, action) in enumerate(MOVES):
        msg = {"type": "act", "action": action, "seen": i}
        session.handle(f"c{seat}", json.dumps(msg), now=2.0 + i)
    assert session.game is not None and session.game.version == 5
    return session, tokens


def _sql(path: Path, query: str, *args: Any) -> list[Any]:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        return db.execute(query, args).fetchall()
    finally:
        db.close()


def _refused(path: Path, session_id: str, match: str) -> CorruptSessionError:
    with pytest.raises(CorruptSessionError, match=match) as info:
        Session.resume(SQLiteStore(path), session_id, now=50.0)
    error = info.value
    assert isinstance(error, SessionError) and isinstance(error, CorruptStateError)
    assert repr(session_id) in str(error)
    return error


def test_an_untouched_store_resumes_at_the_same_version_with_the_same_cards(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    session, _ = _played(path)
    assert session.game is not None
    resumed = Session.resume(SQLiteStore(path), session.id, now=50.0)
    assert resumed.game is not None and resumed.game.save() == session.game.save()
    meta = json.loads(_sql(path, "SELECT meta FROM sessions")[0][0])
    assert meta["format_version"] == 3 and meta["integrity"]["actions"] == 5


def test_a_changed_seed_is_refused_not_dealt_again(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    session, _ = _played(path)
    meta = json.loads(_sql(path, "SELECT meta FROM sessions")[0][0])
    meta["seed"] += 1  # would deal other cards, some of them already shown face up
    _sql(path, "UPDATE sessions SET meta = ?", json.dumps(meta))
    _refused(path, session.id, "its stored meta differs from the one last committed")


def test_a_lost_last_action_row_is_refused_not_rolled_back(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    session, _ = _played(path)
    _sql(path, "DELETE FROM actions WHERE idx = 4")  # the clients have seen version 5
    _refused(path, session.id, r"holds 4 actions, but 5 were committed")


@pytest.mark.parametrize("column, value", [("notation", "flip 2"), ("seat", 1), ("at", 9.0)])
def test_an_edited_action_row_is_refused(column: str, value: Any, tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    session, _ = _played(path)
    _sql(path, f"UPDATE actions SET {column} = ? WHERE idx = 1", value)
    _refused(path, session.id, "its stored action rows differ")


def test_swapped_token_rows_are_refused_and_a_hash_opens_only_its_own_seat(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    session, tokens = _played(path)
    rows = _sql(path, "SELECT seat, digest FROM tokens ORDER BY seat")
    _sql(path, "UPDATE tokens SET digest = ? WHERE seat = 0", rows[1][1])
    _sql(path, "UPDATE tokens SET digest = ? WHERE seat = 1", rows[0][1])
    _refused(path, session.id, "its stored token rows differ")
    # the hash itself names its session and seat: seat 0's hash under seat 1 opens nothing
    assert rows[0][1] == hash_token(tokens[0], session.id, 0)
    assert not token_matches(tokens[0], rows[0][1], session.id, 1)
    assert not token_matches(tokens[0], rows[0][1], "another session", 0)
    session.tokens[1] = TokenRow(1, rows[0][1], None)  # as if swapped in memory
    out = session.handle(
        "evil", json.dumps({"type": "join", "seat": 1, "token": tokens[0]}), now=60.0
    )
    assert [o.message.get("code") for o in out if o.conn == "evil"] == ["bad-token"]


def test_damaged_settings_name_the_field_in_our_words(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    session, _ = _played(path)
    meta = json.loads(_sql(path, "SELECT meta FROM sessions")[0][0])
    meta["config"]["entroqy_wait"] = meta["config"].pop("entropy_wait")
    _sql(path, "UPDATE sessions SET meta = ?", json.dumps(meta))
    error = _refused(
        path,
        session.id,
        "its stored settings are damaged: no field 'entroqy_wait' in session settings",
    )
    assert "__init__" not in str(error) and "keyword" not in str(error)


def test_an_unreadable_kept_message_is_logged_and_rejoins_get_a_fresh_view(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "s.db"
    session, tokens = _played(path)
    n, body = _sql(
        path, "SELECT n, body FROM messages WHERE stream = 'seat.0' ORDER BY n DESC LIMIT 1"
    )[0]
    _sql(path, "UPDATE messages SET body = ? WHERE stream = 'seat.0' AND n = ?", body[:-3], n)
    with caplog.at_level(logging.ERROR, logger="cardcore.session"):
        resumed = Session.resume(SQLiteStore(path), session.id, now=50.0)
    at_resume = [r.getMessage() for r in caplog.records]
    assert resumed.game is not None
    for k in range(2):
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="cardcore.session"):
            join = {"type": "join", "seat": 0, "token": tokens[0], "last": n - 1}
            out = resumed.handle(f"ann{k}", json.dumps(join), now=51.0 + k)
        mine = [o.message for o in out if o.conn == f"ann{k}"]
        assert [m["type"] for m in mine] == ["welcome", "view", "presence"]
        assert mine[1]["version"] == 5 and mine[1]["view"] == resumed.game.view(0)
        logged = [r.getMessage() for r in caplog.records]
        if k == 0:  # logged once, naming the session and the stream: the edited tail is
            # dropped at resume (its digest is not the one committed; format 3 with tails),
            # or its row when it is read back (a session stored without tails)
            assert any(
                session.id in line
                and (
                    f"stored message {n} of stream seat.0" in line
                    or "stream seat.0 are not the ones committed" in line
                )
                for line in logged + at_resume
            )
        else:
            assert not logged
    # a client that had everything but the bad row's successors still gets exactly what it missed
    out = resumed.handle(
        "ann9", json.dumps({"type": "join", "seat": 0, "token": tokens[0], "last": n}), now=60.0
    )
    assert [o.message["type"] for o in out if o.conn == "ann9"] == ["welcome", "presence"]


def test_a_gap_in_a_stored_stream_gets_a_fresh_view(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "s.db"
    session, tokens = _played(path)
    n = _sql(path, "SELECT max(n) FROM messages WHERE stream = 'seat.0'")[0][0]
    _sql(path, "DELETE FROM messages WHERE stream = 'seat.0' AND n = ?", n - 1)
    with caplog.at_level(logging.ERROR, logger="cardcore.session"):
        resumed = Session.resume(SQLiteStore(path), session.id, now=50.0)
    assert any("not numbered up to" in r.getMessage() for r in caplog.records)
    join = {"type": "join", "seat": 0, "token": tokens[0], "last": n - 3}
    out = resumed.handle("ann", json.dumps(join), now=51.0)
    assert [o.message["type"] for o in out if o.conn == "ann"] == ["welcome", "view", "presence"]


def _v2_store() -> tuple[MemoryStore, dict[str, Any]]:
    data = json.loads(V2.read_text())
    store = MemoryStore()
    stored = StoredSession(
        data["id"],
        data["status"],
        data["created"],
        data["meta"],
        [tuple(a) for a in data["actions"]],  # type: ignore[misc]
        [TokenRow(**t) for t in data["tokens"]],
        {k: [tuple(m) for m in v] for k, v in data["messages"].items()},  # type: ignore[misc]
    )
    store._data[stored.id] = stored
    return store, data


def test_a_session_stored_in_format_2_resumes_and_binds_its_tokens_at_the_next_join() -> None:
    store, data = _v2_store()
    sid = data["id"]
    assert data["meta"]["format_version"] == 2 and "integrity" not in data["meta"]
    resumed = Session.resume(store, sid, now=50.0)
    assert resumed.game is not None and resumed.game.save() == data["expected_save"]
    plain = {int(k): v for k, v in data["plain_tokens"].items()}
    assert resumed.tokens[0].digest == hash_token(plain[0])  # unbound, as format 2 wrote it
    out = resumed.handle(
        "ann", json.dumps({"type": "join", "seat": 0, "token": plain[0], "last": 0}), now=51.0
    )
    assert next(o.message["type"] for o in out if o.conn == "ann") == "welcome"
    stored = store.load(sid)
    assert stored is not None and stored.meta["format_version"] == 3
    digests = {t.seat: t.digest for t in stored.tokens}
    assert digests[0] == hash_token(plain[0], sid, 0)  # bound now
    assert digests[1] == hash_token(plain[1])  # not joined yet: still as written
    assert stored.meta["unbound_tokens"] == [1]
    again = Session.resume(store, sid, now=60.0)  # format 3 now: checked, and both tokens work
    for seat in (0, 1):
        msg = {"type": "join", "seat": seat, "token": plain[seat]}
        out = again.handle(f"c{seat}", json.dumps(msg), now=61.0)
        assert next(o.message["type"] for o in out if o.conn == f"c{seat}") == "welcome"
    # seat 0's bound hash moved into seat 1's row opens nothing, even where seat 1 is unbound
    swapped = store.load(sid)
    assert swapped is not None
    swapped.tokens = [dataclasses.replace(t, digest=digests[0]) for t in swapped.tokens]
    swapped.meta.pop("integrity")
    swapped.meta["format_version"] = 2
    store._data[sid] = swapped
    third = Session.resume(store, sid, now=70.0)
    out = third.handle("evil", json.dumps({"type": "join", "seat": 1, "token": plain[0]}), now=71.0)
    assert [o.message.get("code") for o in out if o.conn == "evil"] == ["bad-token"]


def test_a_format_3_meta_without_its_digests_is_refused() -> None:
    store = MemoryStore()
    session = Session.create("golf", 2, now=0.0, seed=1, store=store)
    stored = store.load(session.id)
    assert stored is not None
    del stored.meta["integrity"]
    store._data[session.id] = stored
    with pytest.raises(CorruptSessionError, match="no integrity digests"):
        Session.resume(store, session.id, now=1.0)
