"""Clocks in web games: a lobby request's ``time`` (``turn``, ``total``, ``fallback``) runs
the session's :class:`~cardcore.session.TimeControl`; a seat that does not act in time is
played for, and the game page shows the clocks."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import Player, create, serve

PEOPLE = [{"name": "Ann"}, {"name": "Bob"}]


class FakeClock:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def _join(client: Any, sid: str, seat: int) -> tuple[Any, Player]:
    ws = client.websocket_connect("/ws").__enter__()
    player = Player(ws)
    player.send({"type": "join", "session": sid, "seat": seat})
    player.until("welcome")
    return ws, player


def test_a_turn_clock_plays_for_a_seat_that_runs_out_of_time() -> None:
    clock = FakeClock()
    with serve(clock=clock) as (client, server, dog):
        made = create(client, "golf", PEOPLE, time={"turn": 30, "fallback": "first"})
        sid = made["session"]
        ws0, ann = _join(client, sid, 0)
        ws1, bob = _join(client, sid, 1)
        view = ann.until("view")
        assert view["version"] == 0 and view["view"]["to_act"] == [0]
        assert view["clocks"]["turn"] == {"0": clock.now + 30}  # a deadline on the server's clock
        welcome = next(m for m in ann.received if m["type"] == "welcome")
        assert welcome["config"]["time"]["turn"] == 30
        clock.now += 31  # Ann lets her clock run out
        client.portal.call(server.host.wake)
        update = ann.until("update")
        assert update["action"]["seat"] == 0 and update["action"]["cause"] == "timeout"
        assert update["version"] == 1 and server.hub.sessions[sid].game.version >= 1
        assert bob.until("update")["action"]["cause"] == "timeout"
        assert dog.frames > 0  # every frame was checked for leaks
        ws0.__exit__(None, None, None)
        ws1.__exit__(None, None, None)


def test_without_time_no_clock_runs() -> None:
    with serve() as (client, server, _):
        sid = create(client, "golf", PEOPLE)["session"]
        session = server.hub.sessions[sid]
        assert not session.config.time.is_on and session.next_deadline() is None


@pytest.mark.parametrize(
    ("time", "said"),
    [
        ("60", "'time' must be an object"),
        ([60], "'time' must be an object"),
        ({"turn": 0.5}, "'time' 'turn' must be null or seconds from 1 to 86400"),
        ({"turn": 86401}, "'time' 'turn' must be null or seconds from 1 to 86400"),
        ({"turn": True}, "'time' 'turn' must be null or seconds"),
        ({"turn": "60"}, "'time' 'turn' must be null or seconds"),
        ({"total": -5}, "'time' 'total' must be null or seconds"),
        ({"turn": float("nan")}, None),  # JSON has no NaN: the body itself is refused
        ({"turn": 60, "fallback": "pass"}, "'time' 'fallback' must be one of"),
        (
            {"turn": 60, "restart": "continue"},
            "'time' takes 'turn', 'total', 'fallback' and 'forfeit', not 'restart'",
        ),
    ],
)
def test_a_bad_time_is_refused_naming_it_and_creates_nothing(time: Any, said: str | None) -> None:
    with serve() as (client, server, _):
        if said is None:
            r = client.post(
                "/api/sessions",
                content='{"game": "golf", "seats": [{"name": "A"}, {"name": "B"}], "time": {"turn": NaN}}',
                headers={"content-type": "application/json"},
            )
        else:
            r = client.post("/api/sessions", json={"game": "golf", "seats": PEOPLE, "time": time})
        assert r.status_code == 400, r.text
        if said is not None:
            assert said in r.json()["error"]
        assert not server.hub.sessions


def test_a_real_time_idle_clock_and_a_game_clock_are_taken() -> None:
    clock = FakeClock()
    with serve(clock=clock) as (client, server, _):
        sid = create(client, "spit", PEOPLE, time={"turn": 20, "total": 600})["session"]
        config = server.hub.sessions[sid].config.time
        assert (config.turn, config.total, config.fallback) == (20, 600, "first")


def test_the_session_answer_shows_its_clocks() -> None:
    """``GET /api/sessions/{id}`` (a new user could not see over HTTP that a clock was set)."""
    with serve() as (client, _, _):
        timed = create(client, "golf", PEOPLE, time={"turn": 45})
        assert timed["time"] == {"turn": 45.0, "total": None, "fallback": "first", "forfeit": False}
        assert client.get(f"/api/sessions/{timed['session']}").json()["time"] == timed["time"]
        plain = create(client, "spit", PEOPLE)
        assert plain["time"] == {"turn": None, "total": None, "fallback": "first", "forfeit": False}
