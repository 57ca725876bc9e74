"""Losing on time: ``TimeControl(forfeit=True)`` has a timed-out seat resign instead of having
its game's default played, in the session and through the web lobby."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardcore import OptionError, Resign
from cardcore.session import Session, SessionConfig, SQLiteStore, TimeControl
from cardcore.web._requests import WebError, time_control
from tests.session.kit import Table, messages, table


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_a_timed_out_seat_resigns_and_loses(name: str) -> None:
    t = table(name, time=TimeControl(turn=5.0, forfeit=True))
    game = t.session.game
    assert game is not None and not game.is_over
    t.tick(4.9)
    assert game.version == 0  # not yet
    out = t.tick(0.2)
    entries = game.record_entries()
    assert len(entries) >= 1 and all(type(a) is Resign for _, a, _ in entries)
    seat = entries[0][0]
    assert game.is_over and game.result is not None
    assert seat not in game.result.winners  # it lost on time
    assert [entries[0][2]] == [5.0]  # resigned at the deadline
    assert messages(out, "a", "update")[0]["action"]["cause"] == "timeout"


def test_without_forfeit_the_game_default_is_played_instead() -> None:
    t = table("golf", time=TimeControl(turn=5.0))  # the control: the same deal, no forfeit
    game = t.session.game
    assert game is not None
    t.tick(5.1)
    assert [str(a) for _, a, _ in game.record_entries()] == ["flip 0", "flip 1"]
    assert not game.is_over


def test_a_seat_that_acts_in_time_keeps_its_game() -> None:
    t = table("golf", time=TimeControl(turn=5.0, forfeit=True))
    game = t.session.game
    assert game is not None
    t.act("a", "flip 0", 3.0)
    t.act("a", "flip 1", 1.0)  # seat 0 done in time: seat 1's clock from now
    assert not game.is_over and game.to_act == (1,)
    t.tick(4.9)
    assert not game.is_over
    t.tick(0.2)
    assert game.is_over and game.record_entries()[-1][1] == Resign(1)


def test_forfeit_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    config = SessionConfig(time=TimeControl(turn=10.0, forfeit=True))
    session = Session.create("golf", 2, now=0.0, seed=5, config=config, store=SQLiteStore(path))
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    t.act("a", "flip 0", 4.0)
    resumed = Session.resume(SQLiteStore(path), session.id, now=100.0)
    assert resumed.config.time.forfeit is True
    resumed.tick(106.5)  # paused across the restart: 6 seconds left from 100
    assert resumed.game is not None and resumed.game.is_over
    assert resumed.game.record_entries()[-1][1] == Resign(0)


def test_forfeit_is_stored_and_read_back() -> None:
    config = SessionConfig(time=TimeControl(turn=3.0, forfeit=True))
    assert SessionConfig.from_data(config.to_json()) == config
    assert config.public()["time"]["forfeit"] is True
    # settings stored before forfeit existed read as False
    old = config.to_json()
    del old["time"]["forfeit"]
    assert SessionConfig.from_data(old).time.forfeit is False


@pytest.mark.parametrize("bad", [1, 0, "yes", None, 1.0])
def test_forfeit_must_be_a_bool(bad: object) -> None:
    with pytest.raises(OptionError, match="forfeit must be True or False"):
        TimeControl(turn=5.0, forfeit=bad)  # type: ignore[arg-type]


def test_the_lobby_request_takes_forfeit() -> None:
    assert time_control({"turn": 30, "forfeit": True}).forfeit is True
    assert time_control({"turn": 30}).forfeit is False
    assert time_control({"turn": 30, "forfeit": False}).forfeit is False
    for bad in (1, "true", None, [True], {"x": 1}):
        with pytest.raises(WebError, match="'forfeit' must be true or false"):
            time_control({"turn": 30, "forfeit": bad})
    with pytest.raises(WebError, match="'forfeit'"):  # the refusal of another key lists it
        time_control({"turn": 30, "lose": True})


def test_a_web_game_with_forfeit_ends_when_a_seat_runs_out_of_time() -> None:
    from tests.web.helpers import Player, create, serve

    now = [1_000.0]
    with serve(clock=lambda: now[0]) as (client, server, dog):
        made = create(
            client, "golf", [{"name": "Ann"}, {"name": "Bob"}], time={"turn": 30, "forfeit": True}
        )
        sid = made["session"]
        shown = client.get(f"/api/sessions/{sid}").json()["time"]
        assert shown == {"turn": 30.0, "total": None, "fallback": "first", "forfeit": True}
        with client.websocket_connect("/ws") as ws0, client.websocket_connect("/ws") as ws1:
            ann, bob = Player(ws0), Player(ws1)
            ann.send({"type": "join", "session": sid, "seat": 0})
            ann.until("welcome")
            bob.send({"type": "join", "session": sid, "seat": 1})
            bob.until("welcome")
            now[0] += 31  # Ann lets her clock run out
            client.portal.call(server.host.wake)
            update = bob.until("update")
            assert update["action"]["seat"] == 0 and update["action"]["cause"] == "timeout"
            game = server.hub.sessions[sid].game
            assert game.is_over and game.record_entries()[-1][1] == Resign(0)
            assert game.result.winners == (1,)
        assert dog.frames > 0  # every frame was checked for leaks
