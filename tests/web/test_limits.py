"""The server's limits: live sessions, bot-only games, sessions per client, idle sessions closed,
and ``GET /api/sessions`` in pages."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore.web import WebServer
from cardcore.web.app import ServerLimits, WebError
from tests.web.helpers import create, serve

PEOPLE = [{"name": "A"}, {"name": "B"}]
BOTS = [{"name": n, "agent": "random"} for n in ("A", "B")]


def _post(client: Any, seats: list[dict[str, Any]]) -> Any:
    return client.post("/api/sessions", json={"game": "golf", "seats": seats})


def test_past_max_sessions_a_new_game_is_refused_with_429() -> None:
    limits = ServerLimits(max_sessions=3, idle_close=0)
    with serve(server_limits=limits) as (client, server, _):
        for _ in range(3):
            create(client, "golf", PEOPLE)
        r = _post(client, PEOPLE)
        assert r.status_code == 429 and "at most 3" in r.json()["error"]
        assert r.headers["Retry-After"] == "60"
        assert len(server.hub.sessions) == 3  # nothing was created


def test_past_max_bot_games_a_game_of_bots_only_is_refused() -> None:
    limits = ServerLimits(max_bot_games=1, idle_close=0)
    with serve(server_limits=limits, bot_delay=60.0) as (
        client,
        server,
        _,
    ):  # bots wait: still live
        create(client, "golf", BOTS)
        r = _post(client, BOTS)
        assert r.status_code == 429 and "bots only" in r.json()["error"]
        create(client, "golf", [PEOPLE[0], BOTS[1]])  # a person and a bot: not bots only
        assert len(server.hub.sessions) == 2


def test_past_max_per_client_one_address_is_refused() -> None:
    limits = ServerLimits(max_per_client=2, idle_close=0)
    with serve(server_limits=limits) as (client, server, _):
        create(client, "golf", PEOPLE)
        create(client, "golf", PEOPLE)
        r = _post(client, PEOPLE)
        assert r.status_code == 429 and "your address" in r.json()["error"]
        assert len(server.hub.sessions) == 2


def test_limits_come_from_the_environment() -> None:
    env = {"CARDCORE_MAX_SESSIONS": "5", "CARDCORE_MAX_BOT_GAMES": "0", "CARDCORE_IDLE_CLOSE": "90"}
    limits = ServerLimits.from_env(env)
    assert (limits.max_sessions, limits.max_bot_games, limits.idle_close) == (5, 0, 90.0)
    assert ServerLimits.from_env({}) == ServerLimits()
    with pytest.raises(WebError, match="CARDCORE_MAX_SESSIONS"):
        ServerLimits.from_env({"CARDCORE_MAX_SESSIONS": "many"})
    with pytest.raises(WebError, match="CARDCORE_MAX_BOT_GAMES"):  # as the operator wrote it
        ServerLimits.from_env({"CARDCORE_MAX_BOT_GAMES": "-1"})


def test_a_session_nobody_is_connected_to_is_closed_after_idle_close() -> None:
    clock = [1000.0]
    limits = ServerLimits(idle_close=3600)
    with serve(server_limits=limits, clock=lambda: clock[0]) as (client, server, _):
        idle = create(client, "golf", PEOPLE)["session"]
        used = create(client, "golf", PEOPLE)["session"]
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "session": used, "seat": 0})
            assert ws.receive_json()["type"] == "welcome"
            assert server.sweep(1000.0) == []
            assert server.sweep(4599.0) == []
            assert server.sweep(4600.0) == [idle]  # an hour with nobody there
        assert idle not in server.hub.sessions and used in server.hub.sessions
        assert client.get(f"/api/sessions/{idle}").status_code == 404


def test_a_spectator_does_not_keep_a_session_open() -> None:
    """Watchers of games nobody plays could otherwise hold the server full for ever."""
    clock = [1000.0]
    limits = ServerLimits(idle_close=3600)
    with serve(server_limits=limits, clock=lambda: clock[0]) as (client, server, _):
        watched = create(client, "golf", PEOPLE)["session"]
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "watch", "session": watched})
            assert ws.receive_json()["type"] == "welcome"
            assert server.sweep(1000.0) == []
            assert server.sweep(4600.0) == [watched]  # an hour with only a spectator there
        assert watched not in server.hub.sessions


def test_a_full_server_makes_room_by_closing_sessions_idle_for_five_minutes() -> None:
    clock = [1000.0]
    limits = ServerLimits(max_sessions=2, idle_close=3600, idle_when_full=300)
    with serve(server_limits=limits, clock=lambda: clock[0]) as (client, server, _):
        first = create(client, "golf", PEOPLE)["session"]
        create(client, "golf", PEOPLE)
        server.sweep()  # the server's own sweep sees both idle from now
        clock[0] += 200
        assert _post(client, PEOPLE).status_code == 429  # idle 200 s only
        clock[0] += 100
        new = create(client, "golf", PEOPLE)["session"]  # both idle 300 s: closed to make room
        assert first not in server.hub.sessions and list(server.hub.sessions) == [new]


def test_a_game_waiting_for_people_is_not_listed() -> None:
    """Its id lets anyone claim its open seats: only its creator knows it."""
    with serve() as (client, _server, _):
        waiting = create(client, "golf", PEOPLE)["session"]
        assert client.get(f"/api/sessions/{waiting}").json()["phase"] == "waiting"
        playing = create(client, "golf", BOTS)["session"]
        r = client.get("/api/sessions")
        assert [s["session"] for s in r.json()] == [playing]
        assert r.headers["X-Total-Count"] == "1"
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
            for seat, ws in enumerate((ann, bob)):
                ws.send_json({"type": "join", "session": waiting, "seat": seat})
                assert ws.receive_json()["type"] == "welcome"
            listed = [s["session"] for s in client.get("/api/sessions").json()]
            assert listed == [playing, waiting]  # every seat claimed: listed, to watch


def test_the_session_list_is_paged_newest_first() -> None:
    limits = ServerLimits(page=2, max_page=3, max_bot_games=0)
    with serve(server_limits=limits, bot_delay=60.0) as (client, _server, _):
        ids = [create(client, "golf", BOTS)["session"] for _ in range(5)]
        r = client.get("/api/sessions")
        assert [s["session"] for s in r.json()] == ids[::-1][:2]
        assert r.headers["X-Total-Count"] == "5"
        got = client.get("/api/sessions?limit=100").json()
        assert [s["session"] for s in got] == ids[::-1][:3]  # at most max_page
        got = client.get("/api/sessions?offset=3&limit=3").json()
        assert [s["session"] for s in got] == ids[1::-1]
        for bad in ("limit=x", "offset=-1", "limit=" + "9" * 10):
            r = client.get("/api/sessions?" + bad)
            assert r.status_code == 400 and "number" in r.json()["error"], bad


def test_a_web_server_takes_its_limits_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CARDCORE_MAX_SESSIONS", "7")
    assert WebServer().server_limits.max_sessions == 7
    monkeypatch.setenv("CARDCORE_MAX_SESSIONS", "x")
    with pytest.raises(WebError):
        WebServer()


@pytest.mark.parametrize("text", ["\u0661\u0660", "1_000", " 5", "5 ", "1e3", "-1", "inf", "nan", "0x10"])
def test_a_limit_variable_takes_ascii_digits_only(text: str) -> None:
    with pytest.raises(WebError, match="CARDCORE_MAX_SESSIONS"):
        ServerLimits.from_env({"CARDCORE_MAX_SESSIONS": text})
    with pytest.raises(WebError, match="CARDCORE_IDLE_CLOSE"):
        ServerLimits.from_env({"CARDCORE_IDLE_CLOSE": text})


def test_idle_close_is_off_or_at_least_a_second() -> None:
    assert ServerLimits.from_env({"CARDCORE_IDLE_CLOSE": "0"}).idle_close == 0
    assert ServerLimits.from_env({"CARDCORE_IDLE_CLOSE": "7.5"}).idle_close == 7.5
    for bad in ("0.001", "0.5"):
        with pytest.raises(WebError, match="at least 1 second"):
            ServerLimits.from_env({"CARDCORE_IDLE_CLOSE": bad})
    with pytest.raises(WebError, match="finite"):
        ServerLimits(idle_close=float("inf"))
