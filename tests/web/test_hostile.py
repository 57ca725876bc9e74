"""Hostile lobby requests: text UTF-8 cannot carry, huge path numbers, unbounded bots."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cardcore.errors import OptionError
from cardcore.session import Session
from cardcore.web import _bots
from tests.web.helpers import serve

TWO = '[{"name": "A"}, {"name": "B"}]'

SURROGATES = [
    ('{"game": "golf", "seats": [{"name": "A\\ud800"}, {"name": "B"}]}', "seats[0].name"),
    ('{"game": "golf", "seats": ' + TWO + ', "rules": ["x\\ud800"]}', "rules[0]"),
    ('{"game": "golf", "seats": ' + TWO + ', "without": ["x\\udfff"]}', "without[0]"),
    ('{"game": "g\\ud800", "seats": ' + TWO + "}", "game"),
    ('{"game": "golf", "seats": [{"name": "A", "agent": "r\\ud800"}, {"name": "B"}]}', "agent"),
    (
        '{"game": "golf", "seats": [{"name": "A", "agent": "random", "params": {"\\ud800": 1}},'
        ' {"name": "B"}]}',
        "seats[0].params",
    ),
    ('{"game": "golf", "seats": ' + TWO + ', "options": {"layout": "\\ud800"}}', "options.layout"),
    ('{"game": "golf", "seats": ' + TWO + ', "\\ud800": 1}', "the request"),
]


@pytest.mark.parametrize(("body", "field"), SURROGATES, ids=[f for _, f in SURROGATES])
def test_text_utf8_cannot_carry_is_refused_before_anything_is_created(
    body: str, field: str
) -> None:
    with serve() as (client, server, _):
        r = client.post("/api/sessions", content=body)
        assert r.status_code == 400 and field in r.json()["error"]
        assert not server.hub.sessions and not server.bots  # the hostile request changed nothing
        assert client.get("/api/sessions").status_code == 200


def test_nan_in_a_request_is_not_json() -> None:
    with serve() as (client, server, _):
        body = '{"game": "golf", "seats": ' + TWO + ', "options": {"rounds": NaN}}'
        r = client.post("/api/sessions", content=body)
        assert r.status_code == 400 and "NaN is not JSON" in r.json()["error"]
        assert not server.hub.sessions


def test_a_session_refuses_a_player_name_utf8_cannot_carry() -> None:
    with pytest.raises(OptionError, match="UTF-8"):
        Session.create("golf", ["A\ud800", "B"], now=0.0, seed=1)


def test_a_replay_step_is_a_number_of_at_most_twelve_digits() -> None:
    bots = [{"name": n, "agent": "random"} for n in ("A", "B")]
    with serve() as (client, server, _):
        r = client.post(
            "/api/sessions", json={"game": "golf", "options": {"rounds": 1}, "seats": bots}
        )
        sid = r.json()["session"]
        for _ in range(200):
            if server.hub.sessions[sid].phase in ("over", "closed"):
                break
            time.sleep(0.05)
        assert client.get(f"/api/sessions/{sid}/replay/3").json()["step"] == 3
        last = client.get(f"/api/sessions/{sid}/replay/999999999999").json()
        assert last["step"] == last["steps"]
        for bad in ("9" * 5000, "9" * 13, "-1", "x", "１"):
            r = client.get(f"/api/sessions/{sid}/replay/{bad}")
            assert r.status_code == 400 and "the step is a number" in r.json()["error"], bad
        assert client.get("/api/sessions/nope/replay/" + "9" * 5000).status_code == 404


def test_a_bot_asking_an_unbounded_search_is_refused() -> None:
    seats = [{"name": "Bot", "agent": "ismcts", "params": {"iterations": 10**9}}, {"name": "B"}]
    with serve() as (client, server, _):
        r = client.post("/api/sessions", json={"game": "golf", "seats": seats})
        assert r.status_code == 400
        assert "iterations must be a number from 1 to 2000" in r.json()["error"]
        assert not server.hub.sessions
        ismcts = next(
            a for a in client.get("/api/games").json()[0]["agents"] if a["name"] == "ismcts"
        )
        assert ismcts["bounds"]["iterations"] == [1, 2000]


class _Slow:
    """An agent that thinks for a while (as a search does) and says when it started."""

    def __init__(self) -> None:
        self.started = threading.Event()

    def choose(self, view: Any, legal: Any) -> Any:
        self.started.set()
        time.sleep(1.5)
        return legal[0]


class _Held(_Slow):
    """An agent whose first decision lasts until the test lets it go (at most 20 s), the
    others none: no race with a clock."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def choose(self, view: Any, legal: Any) -> Any:
        if not self.started.is_set():
            self.started.set()
            self.release.wait(20)
        return legal[0]


def test_a_thinking_bot_does_not_stop_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    held = _Held()
    monkeypatch.setattr(_bots, "load_agent", lambda name, **params: held)
    seats = [{"name": n, "agent": "random", "params": {"seed": 1}} for n in ("Al", "Bo")]
    with serve() as (client, _, _):
        r = client.post("/api/sessions", json={"game": "golf", "seats": seats})
        assert r.status_code == 201
        assert held.started.wait(10)
        start = time.perf_counter()
        try:  # the bot still thinks: it is let go only after the answer
            assert client.get("/api/sessions").status_code == 200
            took = time.perf_counter() - start
        finally:
            held.release.set()
        # a loop the bot stopped would answer only when the bot gives up, 20 s on
        assert took < 10.0, f"{took:.1f} s: the bot thinks on the loop, not in a thread"


def test_a_stored_bot_its_agent_now_refuses_is_skipped_at_start(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    seats = [{"name": "Bot", "agent": "golf-greedy"}, {"name": "Bob"}]
    with serve(db) as (client, _, _):
        sid = client.post("/api/sessions", json={"game": "golf", "seats": seats}).json()["session"]
    with sqlite3.connect(db) as conn:  # stored by an older version, before the bounds
        conn.execute(
            "UPDATE web_bots SET agent = 'ismcts', params = '{\"iterations\": 1000000000}'"
        )
    with serve(db) as (client, server, _):
        assert client.get(f"/api/sessions/{sid}").status_code == 200
        assert sid not in server.bots


class _Counting(_Slow):
    """A slow agent that counts its decisions, and how many ran at once."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()
        self.running = self.most = self.calls = 0

    def choose(self, view: Any, legal: Any) -> Any:
        with self.lock:
            self.running += 1
            self.calls += 1
            self.most = max(self.most, self.running)
        try:
            self.started.set()
            time.sleep(0.3)
            return legal[0]
        finally:
            with self.lock:
                self.running -= 1


def test_a_bot_poked_while_thinking_runs_one_decision_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    agent = _Counting()
    monkeypatch.setattr(_bots, "load_agent", lambda name, **params: agent)
    seats = [{"name": "Al", "agent": "random", "params": {"seed": 1}}, {"name": "Bo"}]
    with serve() as (client, server, _):
        sid = client.post("/api/sessions", json={"game": "golf", "seats": seats}).json()["session"]
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "session": sid, "seat": 1}))
            assert agent.started.wait(10)
            bot = server.bots[sid][0]
            calls = agent.calls
            assert bot.task is not None
            loop = bot.task.get_loop()
            for _ in range(40):  # the view changes 40 times while it thinks
                loop.call_soon_threadsafe(bot.poke)
                time.sleep(0.01)
            time.sleep(3.0)
        assert agent.most == 1  # never two decisions of one bot at once
        assert agent.calls - calls <= 5  # the 40 pokes did not queue stale decisions (9 did)


def _post_raw(headers: list[tuple[bytes, bytes]], chunks: int, size: int) -> tuple[int, int]:
    """POST /api/sessions straight to the ASGI app, the body in *chunks* of *size* bytes;
    return the status and how many chunks the server read."""
    import asyncio

    from cardcore.web import WebServer, create_app

    app = create_app(WebServer())
    reads = 0
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal reads
        reads += 1
        if reads > chunks:
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": b"[" * size, "more_body": reads < chunks}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/sessions",
        "raw_path": b"/api/sessions",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }
    asyncio.run(app(scope, receive, send))
    return status, reads


def test_a_body_declared_larger_than_64_kib_is_refused_unread() -> None:
    status, reads = _post_raw([(b"content-length", str(400 << 20).encode())], 6400, 1 << 16)
    assert status == 413 and reads == 0


def test_a_streamed_body_is_read_no_further_than_64_kib() -> None:
    status, reads = _post_raw([(b"transfer-encoding", b"chunked")], 1000, 1 << 14)
    assert status == 413 and reads == 5  # 5 x 16 KiB: the first chunk past 64 KiB
    with serve() as (client, server, _):
        r = client.post("/api/sessions", content=b" " * 65537)
        assert r.status_code == 413 and "64 KiB" in r.json()["error"]
        assert not server.hub.sessions


DEEP = [
    '{"a":' * 10_000 + "1" + "}" * 10_000,  # 60 KB: under the size limit
    "[" * 60_000,
    '{"game": "golf", "seats": ' + TWO + ', "options": {"rounds": ' + "[" * 40 + "]" * 40 + "}}",
]


@pytest.mark.parametrize("body", DEEP, ids=["objects", "lists", "deep-option"])
def test_deeply_nested_json_is_a_bad_request_not_a_crash(body: str) -> None:
    with serve() as (client, server, _):
        r = client.post("/api/sessions", content=body)
        assert r.status_code == 400 and "nested" in r.json()["error"]
        assert not server.hub.sessions
