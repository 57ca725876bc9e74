"""What a hostile HTTP or WebSocket client meets at the edges of ``cardcore serve``'s app:
JSON answers for unknown paths and methods, strict bodies, this server's pages only, and
replays rebuilt off the event loop."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from cardcore.session.config import GameSetup
from tests.web.helpers import serve

pytest.importorskip("starlette")
from starlette.websockets import WebSocketDisconnect

BOTS = [{"name": n, "agent": "random"} for n in ("A", "B")]


def test_unknown_paths_and_methods_are_answered_in_json() -> None:
    with serve() as (client, _server, _):
        for method, path, status in (
            ("GET", "/api/nope", 404),
            ("GET", "/api/sessions/a/b", 404),
            ("PUT", "/api/sessions", 405),
            ("DELETE", "/api/sessions", 405),
        ):
            r = client.request(method, path)
            assert r.status_code == status, (method, path)
            assert r.headers["content-type"].startswith("application/json")
            assert r.json()["error"], (method, path)
            assert r.headers["Content-Security-Policy"]  # the security headers still


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b'{"game": "golf", "game": "spit", "seats": []}', "the request names 'game' twice"),
        (b'{"game": "golf", "seats": [], "x": ' + b"9" * 5000 + b"}", "a number too long"),
        (b'{"game": "\xff"}', "not UTF-8"),
        (b'{"game": ', "the request is not JSON: expecting value at character 9"),
    ],
)
def test_a_request_body_is_read_strictly_and_told_in_our_words(body: bytes, said: str) -> None:
    with serve() as (client, server, _):
        r = client.post("/api/sessions", content=body)
        assert r.status_code == 400 and said in r.json()["error"]
        assert "sys." not in r.json()["error"] and "codec" not in r.json()["error"]
        assert not server.hub.sessions  # nothing was created


def test_a_request_body_may_start_with_a_byte_order_mark() -> None:
    """PowerShell's ``Out-File -Encoding utf8`` writes one; it used to be read."""
    body = '{"game": "golf", "seats": [{"name": "A"}, {"name": "B"}]}'
    with serve() as (client, _server, _):
        r = client.post("/api/sessions", content=b"\xef\xbb\xbf" + body.encode())
        assert r.status_code == 201, r.text


def test_a_websocket_from_a_page_of_another_site_is_refused() -> None:
    with serve() as (client, _server, _):
        evil = {"origin": "https://evil.example"}
        with (
            pytest.raises(WebSocketDisconnect) as info,
            client.websocket_connect("/ws", headers=evil) as ws,
        ):
            ws.send_json({"type": "ping"})
            ws.receive_json()
        assert info.value.code == 1008
        for ok in (
            {"origin": "http://testserver"},  # this server's own page
            {"origin": "https://TestServer:443"},  # a default port, in any case
            {"origin": "https://games.example", "x-forwarded-host": "games.example"},
            {"origin": "http://g.example:8000", "forwarded": 'for=1.2.3.4;host="g.example:8000"'},
        ):
            with client.websocket_connect("/ws", headers=ok) as ws:
                ws.send_json({"type": "ping", "id": "x"})
                assert ws.receive_json()["type"] == "pong"
        for bad in (
            "null",
            "http://testserver.evil.example",
            "http://testserver:9999",  # another server on the same host
            "http://[::1",
            "not a url",
        ):
            with (
                pytest.raises(WebSocketDisconnect),
                client.websocket_connect("/ws", headers={"origin": bad}) as ws,
            ):
                ws.send_json({"type": "ping"})
                ws.receive_json()


def test_a_replay_step_is_rebuilt_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    started = threading.Event()
    release = threading.Event()  # the build runs until the test lets it go (20 s at most)
    build = GameSetup.build

    def slow_build(self: GameSetup, *args: Any, **kwargs: Any) -> Any:
        started.set()
        release.wait(20)
        return build(self, *args, **kwargs)

    with serve() as (client, server, _):
        r = client.post(
            "/api/sessions", json={"game": "golf", "options": {"rounds": 1}, "seats": BOTS}
        )
        sid = r.json()["session"]
        for _ in range(1200):  # bots at 0.05 s a move: a long random game, on a slow machine
            if server.hub.sessions[sid].phase in ("over", "closed"):
                break
            time.sleep(0.05)
        assert server.hub.sessions[sid].phase in ("over", "closed")
        monkeypatch.setattr(GameSetup, "build", slow_build)
        got: list[Any] = []
        asker = threading.Thread(
            target=lambda: got.append(client.get(f"/api/sessions/{sid}/replay/2"))
        )
        asker.start()
        assert started.wait(10)
        start = time.perf_counter()
        try:  # the replay is still being built: it is let go only after the answer
            assert client.get("/api/games").status_code == 200
            took = time.perf_counter() - start
        finally:
            release.set()
        # a loop the build stopped would answer only when the build goes on, 20 s later
        assert took < 10.0, f"{took:.1f} s: the loop answered only after the replay was built"
        asker.join(10)
        assert got and got[0].status_code == 200 and got[0].json()["step"] == 2


def test_a_replay_step_reads_nothing_from_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a stored game (every action and message) on the event loop stalled it for
    60-100 ms a request; the record of the finished game in memory is enough."""
    with serve() as (client, server, _):
        r = client.post(
            "/api/sessions", json={"game": "golf", "options": {"rounds": 1}, "seats": BOTS}
        )
        sid = r.json()["session"]
        for _ in range(1200):  # bots at 0.05 s a move: a long random game, on a slow machine
            if server.hub.sessions[sid].phase in ("over", "closed"):
                break
            time.sleep(0.05)
        assert server.hub.sessions[sid].phase in ("over", "closed")

        def no_load(*args: Any) -> Any:
            raise AssertionError("the store was read")

        monkeypatch.setattr(server.store, "load", no_load)
        record = client.get(f"/api/sessions/{sid}/record").json()
        got = client.get(f"/api/sessions/{sid}/replay/3").json()
        seat, text, _ = record["actions"][2]
        assert (got["step"], got["steps"]) == (3, len(record["actions"]))
        assert (got["actor"], got["action"]) == (seat, text)


def test_a_game_is_created_from_this_servers_pages_only() -> None:
    """A page of another site could create games from its visitors' browsers."""
    body = {"game": "golf", "seats": [{"name": "A"}, {"name": "B"}]}
    with serve() as (client, server, _):
        r = client.post("/api/sessions", json=body, headers={"origin": "https://evil.example"})
        assert r.status_code == 403 and "this server's pages" in r.json()["error"]
        assert not server.hub.sessions
        assert (
            client.post(
                "/api/sessions", json=body, headers={"origin": "http://testserver"}
            ).status_code
            == 201
        )
        assert client.post("/api/sessions", json=body).status_code == 201  # a program: no Origin


@pytest.mark.parametrize(
    ("origin", "headers", "same"),
    [
        ("http://[::1]:8000", {"host": "[::1]:8000"}, True),
        ("https://g.example:443", {"host": "g.example"}, True),
        ("http://g.example", {"host": "g.example:abc", "x-forwarded-host": "g.example"}, True),
        ("http://g.example:0", {"host": "g.example"}, False),  # port 0 is no default port
        ("chrome-extension://g.example", {"host": "g.example"}, False),  # pages are http(s)
        ("ws://g.example", {"host": "g.example"}, False),
        ("http://g.example:99999", {"host": "g.example"}, False),  # never raises
        ("http://g.example:8000", {"host": "g.example"}, False),  # a proxy must keep the port
    ],
)
def test_the_origin_check_case_by_case(origin: str, headers: dict[str, str], same: bool) -> None:
    from types import SimpleNamespace

    from cardcore.web._http import same_origin

    assert same_origin(SimpleNamespace(headers={**headers, "origin": origin})) is same  # type: ignore[arg-type]
