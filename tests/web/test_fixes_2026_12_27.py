"""Web server fixes of 2026-12-27, each test failing on the code before its fix."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from cardcore.web import WebServer, create_app


def _post(length: bytes, body: bytes) -> tuple[int, dict[str, Any]]:
    """POST /api/sessions straight to the ASGI app with the Content-Length *length*."""
    app = create_app(WebServer())
    sent = False
    status = 0
    parts: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            parts.append(message.get("body", b""))

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
        "headers": [(b"host", b"testserver"), (b"content-length", length)],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }
    asyncio.run(app(scope, receive, send))
    return status, json.loads(b"".join(parts))


@pytest.mark.parametrize("length", [b"abc", b"-5", b"1e3", b"12 ", "\uff19".encode()])
def test_a_content_length_that_is_not_a_number_gets_400_not_413(length: bytes) -> None:
    """It was answered "the request is larger than 64 KiB" (413), which it need not be."""
    status, answer = _post(length, b"{}")
    assert status == 400
    assert answer["error"].startswith("Content-Length must be a number of bytes, not ")


@pytest.mark.parametrize("length", [b"65537", b"99999999999999999999"])
def test_a_content_length_past_the_limit_still_gets_413(length: bytes) -> None:
    status, answer = _post(length, b"{}")
    assert (status, answer) == (413, {"error": "the request is larger than 64 KiB"})


def test_a_small_declared_body_is_read() -> None:
    seats = [{"name": "Ann"}, {"name": "Bot", "agent": "random"}]
    body = json.dumps({"game": "golf", "seats": seats}).encode()
    status, answer = _post(str(len(body)).encode(), body)
    assert status == 201 and "session" in json.dumps(answer)
