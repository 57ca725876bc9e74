"""What every HTTP answer of ``cardcore serve`` shares: security headers, JSON errors, the
lobby's JSON body read strictly, the WebSocket's origin, and replays off the event loop.

Nothing here is public; :mod:`cardcore.web.app` uses it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardcore._text import why_unreadable
from cardcore.web._requests import MAX_DEPTH, _error

T = TypeVar("T")

CSP = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self';"
    " script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
"""Nothing is loaded from another site."""

REPLAYS_AT_ONCE = 2
"""Replay steps rebuilt at the same time (each in a worker thread); more requests wait."""


def secure(headers: MutableHeaders) -> None:
    """Set the security headers every HTTP answer carries."""
    headers["Content-Security-Policy"] = CSP
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"


class Headers:
    """Adds the security headers to every HTTP response (the CSP: nothing from another site)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                secure(MutableHeaders(scope=message))
            await send(message)

        await self.app(scope, receive, send_with_headers)


def page(path: Path) -> Response:
    """A page of the client, never cached (a new release must not meet an old script)."""
    return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-store"})


async def http_error(request: Request, exc: Exception) -> Response:
    """Every answer is JSON, an unknown path or a method a route does not take too."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status == 404:
        return _error(f"no such page: {request.url.path[:200]}", 404)
    if status == 405:
        return _error(f"{request.method[:20]} is not taken at {request.url.path[:200]}", 405)
    detail = exc.detail if isinstance(exc, HTTPException) else "the server failed"
    return _error(str(detail)[:200], status)


async def server_error(request: Request, exc: Exception) -> Response:
    """A failure of the server's own (a bug): JSON with the security headers too, as every
    answer, though Starlette answers it outside the middleware that adds them."""
    response = _error("the server failed", 500)
    secure(response.headers)
    return response


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:  # JSON leaves it open; the last one winning would hide the first
            msg = f"the request names {key[:80]!r} twice"
            raise _Refused(msg)
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    msg = f"{name} is not JSON"
    raise _Refused(msg)


class _Refused(ValueError):
    """A reason to refuse a body, in our words."""


def read_body(body: bytes) -> dict[str, Any] | Response:
    """The lobby request in *body* as a JSON object, or the HTTP 400 that refuses it."""
    try:
        # bytes: json finds the encoding (a UTF-8 byte order mark, as Windows tools write)
        data = json.loads(body, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except _Refused as exc:
        return _error(str(exc))
    except RecursionError:
        return _error(f"the request is not JSON nested at most {MAX_DEPTH} levels")
    except ValueError as exc:  # UnicodeDecodeError is one
        return _error(f"the request {why_unreadable(exc)}")
    if not isinstance(data, dict):
        return _error("the request must be a JSON object")
    return data


def same_origin(conn: HTTPConnection) -> bool:
    """Whether a browser's WebSocket (or lobby request) comes from a page of this server
    (or from no browser).

    A page of another site could otherwise open sockets to the server from its visitors'
    browsers (cross-site WebSocket hijacking). Programs send no ``Origin``. The origin's
    host and port must be the ones the client asked for: ``Host``, or a proxy's
    ``X-Forwarded-Host`` or ``Forwarded: host=`` (a page can set none of them); a host
    asked for without a port matches an origin on its scheme's default port.
    """
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    headers = conn.headers
    asked = [headers.get("host"), headers.get("x-forwarded-host")]
    asked += [
        part.strip()[5:].strip('"')
        for part in headers.get("forwarded", "").replace(",", ";").split(";")
        if part.strip().lower().startswith("host=")
    ]
    try:
        url = urlsplit(origin)
        default = _DEFAULT_PORTS.get(url.scheme)  # a page is http or https
        name, port = url.hostname, url.port if url.port is not None else default
    except ValueError:  # a malformed port or address
        return False
    if name is None or default is None:
        return False
    for value in asked:
        try:
            there = urlsplit("//" + value.split(",")[0].strip()) if value else None
            if (
                there is not None
                and there.hostname == name
                and (there.port == port or (there.port is None and port == default))
            ):
                return True
        except ValueError:  # a malformed header: the next one may still match
            continue
    return False


_DEFAULT_PORTS = {"http": 80, "https": 443}


async def off_the_loop(gate: asyncio.Semaphore, work: Callable[[], T]) -> T:
    """Run *work* (a replay rebuilt from its seed) in a worker thread, as many at a time
    as *gate* lets through, so the event loop keeps serving every game meanwhile."""
    async with gate:
        return await asyncio.to_thread(work)
