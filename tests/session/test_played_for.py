"""What played each action: ``Session.cause(version)`` keeps a loss on time, a timeout's default,
the game clock and the host apart from a seat's own moves, across a restart and a takeback, and
the web server's replay and session description say it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardcore import Resign
from cardcore.session import Session, SessionConfig, SessionError, SQLiteStore, TimeControl
from tests.session.kit import Table, table


def test_a_loss_on_time_is_told_apart_from_a_resign() -> None:
    t = table("golf", time=TimeControl(turn=5.0, forfeit=True))
    t.act("a", "flip 0", 1.0)
    t.tick(10.0)  # seat 0 holds its second flip past the clock: it resigns
    game = t.session.game
    assert game is not None and game.is_over
    assert game.record_entries()[-1][1] == Resign(0)
    assert [t.session.cause(v) for v in (1, 2)] == ["player", "timeout"]


def test_a_timeout_default_and_the_host_are_named() -> None:
    t = table("golf", time=TimeControl(turn=5.0))
    t.tick(5.1)  # seat 0's two flips are played for it
    assert [t.session.cause(v) for v in (1, 2)] == ["timeout", "timeout"]
    t.act("b", "flip 0", 1.0)
    t.session.end(t.now + 1.0)
    game = t.session.game
    assert game is not None and game.is_over
    assert [t.session.cause(v) for v in range(1, game.version + 1)] == [
        "timeout",
        "timeout",
        "player",
        "host",
    ]


def test_the_game_clock_is_named() -> None:
    t = table("golf", time=TimeControl(total=3.0))
    t.tick(4.0)
    game = t.session.game
    assert game is not None and game.is_over
    assert t.session.cause(game.version) == "clock"


@pytest.mark.parametrize("bad", [0, -1, 3, True, "1", 1.0, None])
def test_a_version_no_action_made_is_refused(bad: object) -> None:
    t = table("golf", time=TimeControl(turn=5.0))
    t.act("a", "flip 0", 1.0)
    t.act("a", "flip 1", 1.0)
    with pytest.raises(SessionError, match="no action made version"):
        t.session.cause(bad)  # type: ignore[arg-type]


def test_causes_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    config = SessionConfig(time=TimeControl(turn=5.0))
    session = Session.create("golf", 2, now=0.0, seed=5, config=config, store=SQLiteStore(path))
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    t.tick(5.1)  # two timeout flips
    t.act("b", "flip 0", 1.0)
    resumed = Session.resume(SQLiteStore(path), session.id, now=100.0)
    assert [resumed.cause(v) for v in (1, 2, 3)] == ["timeout", "timeout", "player"]


def test_a_taken_back_timeout_is_forgotten() -> None:
    """A timeout's ``replace`` of a face-up card may be taken back (nothing learned); the same
    move made again by the seat is its own."""
    t = table("golf", time=TimeControl(turn=30.0))
    for conn, flip in [("a", 0), ("a", 1), ("b", 0), ("b", 1)]:
        t.act(conn, f"flip {flip}", 1.0)
    t.act("a", "take", 1.0)
    t.tick(31.0)  # seat 0 holds the taken card past its clock: "replace 0" is played for it
    game = t.session.game
    assert game is not None and game.version == 6
    assert str(game.record_entries()[-1][1]) == "replace 0"
    assert t.session.cause(6) == "timeout"
    t.send("a", {"type": "takeback", "op": "request"})
    t.send("b", {"type": "takeback", "op": "accept"}, 1.0)
    game = t.session.game
    assert game is not None and game.version == 5
    t.act("a", "replace 0", 1.0)
    assert t.session.cause(6) == "player"


def test_the_web_server_tells_a_loss_on_time_in_its_description_and_replay() -> None:
    from tests.web.helpers import Player, create, serve

    now = [1_000.0]
    with serve(clock=lambda: now[0]) as (client, server, _dog):
        made = create(
            client, "golf", [{"name": "Ann"}, {"name": "Bob"}], time={"turn": 30, "forfeit": True}
        )
        sid = made["session"]
        with client.websocket_connect("/ws") as ws0, client.websocket_connect("/ws") as ws1:
            ann, bob = Player(ws0), Player(ws1)
            ann.send({"type": "join", "session": sid, "seat": 0})
            ann.until("welcome")
            bob.send({"type": "join", "session": sid, "seat": 1})
            bob.until("welcome")
            assert client.get(f"/api/sessions/{sid}").json()["ended_by"] is None  # playing
            now[0] += 31
            client.portal.call(server.host.wake)
            bob.until("update")
        described = client.get(f"/api/sessions/{sid}").json()
        assert described["ended_by"] == {"seat": 0, "text": "resign", "cause": "timeout"}
        step = client.get(f"/api/sessions/{sid}/replay/1").json()
        assert (step["actor"], step["action"], step["cause"]) == (0, "resign", "timeout")
        assert client.get(f"/api/sessions/{sid}/replay/0").json()["cause"] is None


def test_a_game_its_seats_ended_has_no_ended_by() -> None:
    from tests.web.helpers import Player, create, serve

    with serve() as (client, _server, _dog):
        sid = create(client, "golf", [{"name": "Ann"}, {"name": "Bob"}])["session"]
        with client.websocket_connect("/ws") as ws0, client.websocket_connect("/ws") as ws1:
            ann, bob = Player(ws0), Player(ws1)
            ann.send({"type": "join", "session": sid, "seat": 0})
            ann.until("welcome")
            bob.send({"type": "join", "session": sid, "seat": 1})
            bob.until("welcome")
            ann.send({"type": "act", "action": "resign", "seen": 0})
            bob.until("update")
        described = client.get(f"/api/sessions/{sid}").json()
        assert described["phase"] == "over" and described["ended_by"] is None
        assert client.get(f"/api/sessions/{sid}/replay/1").json()["cause"] == "player"


def test_a_session_takes_a_deck_of_cards_as_new_game_does() -> None:
    """Session.create and Hub.create take ``deck=`` as cards too (before: a raw json TypeError)."""
    import cardcore
    from cardcore.session import Hub, MemoryStore

    top = list(cardcore.standard_52())[:5]
    session = Session.create("spit", 2, now=0.0, deck=top, seed=2)
    assert session.setup.to_json()["deck"] == [str(c) for c in top]
    hub = Hub(MemoryStore())
    made = hub.create("golf", 2, now=0.0, deck=top, seed=3)
    assert made.setup.to_json()["deck"] == [str(c) for c in top]
    assert made.config.limits == hub.limits  # the hub's default config
    with pytest.raises(SessionError, match="runs in this hub already"):
        hub.create("golf", 2, now=0.0, session_id=made.id)


def _stored_before_causes(t: Table) -> tuple[Any, str]:
    """*t*'s stored row as a cardcore before ``played_for`` wrote it (no such field; the meta
    digest recomputed, as that cardcore sealed it)."""
    import copy

    from cardcore.session import MemoryStore
    from cardcore.session import _integrity as integrity

    store = t.session.store
    assert isinstance(store, MemoryStore)
    row = copy.deepcopy(store.load(t.session.id))
    assert row is not None
    del row.meta["played_for"], row.meta["played_from"]
    row.meta[integrity.KEY]["meta"] = integrity._meta(row.id, row.meta)
    fresh = MemoryStore()
    fresh.create(row)
    return fresh, row.id


def test_a_session_stored_before_causes_reads_them_from_its_updates() -> None:
    t = table("golf", time=TimeControl(turn=5.0))
    t.tick(5.1)  # two timeout flips, then seat 1's own
    t.act("b", "flip 0", 1.0)
    store, sid = _stored_before_causes(t)
    resumed = Session.resume(store, sid, now=100.0)
    assert [resumed.cause(v) for v in (1, 2, 3)] == ["timeout", "timeout", "player"]


def test_causes_older_than_the_updates_kept_are_unknown() -> None:
    t = table("golf", time=TimeControl(turn=5.0), resync_keep=2)
    t.tick(5.1)  # v1, v2: timeouts
    t.act("b", "flip 0", 1.0)
    t.act("b", "flip 1", 1.0)
    t.act("a", "draw", 1.0)  # only the last two updates are kept
    store, sid = _stored_before_causes(t)
    resumed = Session.resume(store, sid, now=100.0)
    causes = [resumed.cause(v) for v in range(1, resumed.game.version + 1)]  # type: ignore[union-attr]
    assert causes[:2] == ["unknown", "unknown"] and causes[-1] == "player"
    resumed.tick(106.0)  # seat 0 holds its drawn card past its clock: a timeout discard
    assert resumed.cause(resumed.game.version) == "timeout"  # type: ignore[union-attr]
