"""The web server: a Starlette application on a :class:`~cardcore.session.Hub` and its store.

One process holds one hub. Every WebSocket connection is one hub connection
(:class:`~cardcore.session.aio.AsyncHost` queues its messages); the hub
routes it to its session on ``join``/``watch`` and answers bad frames with an
``error`` to that connection only. Bots are connections too: each holds its
seat with a token like a person, and acts through the same session calls, so
the record and the streams do not tell them apart.

HTTP routes::

    GET  /                                the lobby (static page)
    GET  /play/{session}                  the game page: #seat=N (and token=...) or #watch
    GET  /api/games                       installed games: seats, options, house rules, agents
    GET  /api/sessions                    the sessions of this server, newest first, in pages
                                          (?offset=K&limit=N; the total in X-Total-Count)
    POST /api/sessions                    create one (JSON; errors are the library's messages)
    GET  /api/sessions/{id}               one session
    GET  /api/sessions/{id}/record        its record, once the game is over
    GET  /api/sessions/{id}/replay/{k}    the public view after k actions, once it is over
    WS   /ws                              the session protocol (docs/session.rst)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardcore._text import one_line, shown
from cardcore.errors import CardcoreError
from cardcore.plugins import game_info
from cardcore.session import Hub, Limits, MemoryStore, Outbound, Session, SessionConfig, SQLiteStore
from cardcore.session.aio import AsyncHost
from cardcore.session.sqlite import StoreError
from cardcore.session.store import Store
from cardcore.web._args import MAX_BOT_DELAY, MAX_BOT_PACE, bounded, checked_arguments
from cardcore.web._bots import Bot, bot_rows, seat_agent, stored_bot
from cardcore.web._http import (
    REPLAYS_AT_ONCE,
    Headers,
    http_error,
    off_the_loop,
    page,
    read_body,
    same_origin,
    server_error,
)
from cardcore.web._lobby import lobby_games
from cardcore.web._quota import LimitError, Quota, ServerLimits
from cardcore.web._requests import (
    _TIME_KEYS,
    MAX_BODY,
    MAX_DEPTH,
    WebError,
    _body,
    _check_text,
    _count,
    _error,
    _get,
    _seat_name,
    _text,
    check_seat_count,
    check_setup,
    same_name,
    time_control,
)

__all__ = [
    "MAX_BODY",
    "MAX_DEPTH",
    "STATIC",
    "LimitError",
    "ServerLimits",
    "WebError",
    "WebServer",
    "create_app",
]

LOG = logging.getLogger("cardcore.web")

STATIC = Path(__file__).parent / "static"
"""The browser client's files."""

MAX_FRAME = 1 << 20
"""The largest WebSocket frame the transport reads (bigger ones close the socket, code 1009);
frames above the session's ``max_message`` are read and refused with ``too-large``."""

TOO_SLOW = "too slow: more than 1 MiB (or 4,096 messages) waiting to be read"
"""The reason of the close (code 1008) of a socket dropped for not reading its messages."""


_BOTS = "CREATE TABLE IF NOT EXISTS web_bots (session TEXT, seat INTEGER, agent TEXT, params TEXT, PRIMARY KEY (session, seat))"


class _Host(AsyncHost):
    """An :class:`AsyncHost` that shows every outbound frame to its observers first."""

    def __init__(self, hub: Hub, clock: Callable[[], float]) -> None:
        super().__init__(hub, clock)
        self.observers: list[Callable[[Outbound], None]] = []

    def deliver(self, outbound: list[Outbound]) -> None:
        """See :meth:`AsyncHost.deliver`."""
        for observe in self.observers:
            for out in outbound:
                observe(out)
        super().deliver(outbound)


class WebServer:
    """The hub, its store, the bots and the connections of one server process.

    :param db: The SQLite database (``None``: in memory, nothing survives a restart).
    :param limits: Per-connection limits (default :class:`~cardcore.session.Limits`).
    :param bot_delay: Seconds a turn-based bot waits before it acts (so people see it play);
        at most a quarter of the session's turn clock, so the pause alone never uses up a
        bot's turn (a bot slow to decide, or a clock restarted short, still may).
    :param bot_pace: Factor on a real-time bot's reaction delays.
    :param clock: The time source.
    :param instance: This process's name among several behind one address (default: the
        environment variable ``CARDCORE_INSTANCE``, else none): session ids start with
        ``<instance>-``, so a proxy can send every request of a game to its process.
    :param server_limits: How many games the server holds (default: :class:`ServerLimits`
        read from the environment, :meth:`ServerLimits.from_env`).
    :raises StoreError: *db* is no path (text, bytes or a path object) or holds a NUL character, or the database
        cannot be opened or written.
    :raises WebError: The instance name is not 1-16 letters, digits or ``_``, *limits* or
        *server_limits* of another type, *bot_delay* no number of seconds from 0 to 60,
        *bot_pace* no factor from 0 to 100, *clock* not callable (all checked before the
        database is opened), or a limit in the environment is not a number from 0.
    """

    def __init__(
        self,
        db: str | None = None,
        *,
        limits: Limits | None = None,
        bot_delay: float = 0.4,
        bot_pace: float = 1.0,
        clock: Callable[[], float] = time.time,
        instance: str | None = None,
        server_limits: ServerLimits | None = None,
    ) -> None:
        self.bot_delay = bounded("bot_delay", bot_delay, MAX_BOT_DELAY, "a number of seconds")
        self.bot_pace = bounded("bot_pace", bot_pace, MAX_BOT_PACE, "a factor")
        instance = checked_arguments(db, limits, server_limits, clock, instance)
        self.server_limits = server_limits or ServerLimits.from_env()
        self.quota = Quota(self.server_limits)
        self.instance = instance
        self.db = db
        self.store: Store = (
            MemoryStore() if db is None else SQLiteStore(db, check_same_thread=False)
        )
        self._bots_db: sqlite3.Connection | None = None
        if db is not None:
            try:
                self._bots_db = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
                self._bots_db.execute(_BOTS)
                # a web_bots table of another layout: refused here, not at start
                self._bots_db.execute("SELECT session, seat, agent, params FROM web_bots LIMIT 0")
            except sqlite3.Error as exc:
                msg = f"cannot use {db!r} for the server's bots (its web_bots table): {exc}"
                raise StoreError(msg) from None
        self.limits = limits or Limits()
        self.hub = Hub(self.store, self.limits)
        self.host = _Host(self.hub, clock)
        self.bots: dict[str, list[Bot]] = {}
        self.done_bots: dict[str, dict[int, str]] = {}
        """The bots' seats shown, not run: every stored bot's seat (run or left out) and those
        of bots done with their game (their agents' names; a running bot's entry wins)."""
        self._runner: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None

    # -- life -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Resume every stored session (bots take their seats again) and run the clocks."""
        now = self.host.clock()
        for failed in self.hub.resume_all(now):
            LOG.error("session %s could not be resumed", failed)
        if self._bots_db is not None:
            rows = self._bots_db.execute(
                "SELECT session, seat, agent, params FROM web_bots"
            ).fetchall()
            for row in rows:
                sid, seat = row[0], row[1]
                session = self.hub.sessions.get(sid)
                if session is not None and type(seat) is int and isinstance(row[2], str):
                    self.done_bots.setdefault(sid, {})[seat] = row[2]  # a bot's seat, run or not
                if session is None or session.phase in ("over", "closed"):
                    continue
                try:  # a damaged row, a bot stored before its agent's bounds, an agent removed
                    bot = stored_bot(self, session, row)
                    token = session.issue_token(bot.seat, now, replace=True)
                except CardcoreError as exc:
                    LOG.error("the bot of seat %.20r of session %s cannot resume: %s", seat, sid, one_line(exc, 300))
                    continue
                self.bots.setdefault(sid, []).append(bot)
                bot.join(token)
        self._runner = asyncio.get_running_loop().create_task(self.host.run())
        if self.server_limits.idle_close or self.server_limits.keep_over:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_often())

    async def stop(self) -> None:
        """Stop the bots and the clocks; close the store."""
        for bots in self.bots.values():
            for bot in bots:
                bot.stop()
        self.host.stop()
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._runner is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
        self.store.close()
        if self._bots_db is not None:
            self._bots_db.close()

    async def _sweep_often(self) -> None:
        wait = min(60.0, *(t / 4 for t in (self.server_limits.idle_close, self.server_limits.keep_over) if t))
        while True:
            await asyncio.sleep(wait)
            try:
                self.sweep()
            except Exception:  # pragma: no cover - a bug: keep sweeping
                LOG.exception("closing idle sessions failed")

    def sweep(self, now: float | None = None, wait: float | None = None) -> list[str]:
        """Close the sessions idle *wait* seconds (default ``idle_close``, see
        :class:`ServerLimits`), and with no *wait* those over for ``keep_over``; return their ids."""
        now = self.host.clock() if now is None else now
        closed = self.quota.to_close(self.hub.sessions, self._bot_only(), now, wait)
        for sid in closed:
            self.host.deliver(self.hub.close(sid, now))
            for bot in self.bots.pop(sid, []):
                bot.stop()
            bot_rows(self._bots_db, "DELETE FROM web_bots WHERE session = ?", (sid,))
            self.done_bots.pop(sid, None)
            self.quota.forget(sid)
            LOG.info("session %s closed: nobody at its table for a while", sid)
        return closed

    def _bot_only(self) -> list[str]:
        sessions = self.hub.sessions
        return [
            sid
            for sid, bots in self.bots.items()
            if sid in sessions and len(bots) >= sessions[sid].players
        ]

    # -- the lobby ------------------------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        """What the lobby offers: every installed game with its seats, options, rules and agents."""
        return lobby_games()

    def create(self, request: Mapping[str, Any], client: str | None = None) -> dict[str, Any]:
        """Create a session from a lobby request; bots take their seats at once.

        ``{"game": "golf", "seats": [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy",
        "params": {"seed": 1}}], "rules": [], "without": [], "options": {}, "spectators": true,
        "time": {"turn": 60, "fallback": "first"}}``

        :raises CardcoreError: The game, a rule, an option or an agent refused (its own message).
        :param client: The address of the client asking (for ``max_per_client``).
        :raises WebError: A malformed request, or one holding text UTF-8 cannot carry.
        :raises LimitError: The server holds as many games as its limits allow (HTTP 429).
        """
        _check_text(request, "")
        game = _get(request, "game", str)
        seats = _get(request, "seats", list)
        rules = [_text(r, "rules") for r in _get(request, "rules", list, [])]
        without = [_text(r, "without") for r in _get(request, "without", list, [])]
        options = _get(request, "options", dict, {})
        spectators = _get(request, "spectators", bool, True)
        time = time_control(_get(request, "time", object, None))  # no clock unless asked
        info = game_info(game)
        check_seat_count(len(seats), info)  # before any name is compared; then what new_game checks
        check_setup(game, len(seats), rules, without, options)  # (before the agents are built)
        names: list[str] = []
        bots: list[tuple[int, str, Any, dict[str, Any]]] = []  # seat, name, agent, its params
        for seat, entry in enumerate(seats):
            if not isinstance(entry, dict):
                msg = f"seat {seat} must be an object with a 'name' (and an 'agent' for a bot)"
                raise WebError(msg)
            name = entry.get("name")  # missing, null or "": "Player N"; another type: refused
            names.append(_seat_name(name) if name != "" and name is not None else f"Player {seat + 1}")
            if any(same_name(n, names[-1]) for n in names[:-1]):  # or a default's
                raise WebError(f"seat {seat}'s 'name' {names[-1]!r} is another seat's name")
            agent = entry.get("agent")  # missing or null: a person; else text naming an agent
            if agent is not None:
                params = entry.get("params")
                params = {} if params is None else params
                if not isinstance(params, dict):
                    msg = f"seat {seat}: 'params' must be an object"
                    raise WebError(msg)
                # built now (with a fresh seed unless given): refused before anything is created
                bots.append((seat, agent, *seat_agent(seat, _text(agent, "agent"), params, info)))
        now, wait = self.host.clock(), min(self.server_limits.idle_close, self.server_limits.idle_when_full)
        if self.quota.admit(self.hub.sessions, self._bot_only(), client, len(bots) == len(names), now, wait):
            self.sweep(now, wait)  # full: the idle ones make room, for a request let in only
        config = SessionConfig(
            time=time,
            spectators=spectators,
            limits=self.limits,
            spectator_delay=0 if not bots else 2,
        )
        session = self.hub.create(
            game,
            names,
            now=self.host.clock(),
            rules=rules,
            without=without,
            options=options,
            config=config,
            session_id=None
            if self.instance is None
            else f"{self.instance}-{secrets.token_urlsafe(16)}",
        )
        sid = session.id
        if client is not None:
            self.quota.creators[sid] = client
        for seat, agent, built, params in bots:
            bot = Bot(self, sid, seat, agent, params, built)
            self.bots.setdefault(sid, []).append(bot)
            bot_rows(
                self._bots_db,
                "INSERT OR REPLACE INTO web_bots VALUES (?, ?, ?, ?)",
                (sid, seat, agent, json.dumps(params)),
            )  # (failing: the game goes on, as a failing session store lets it)
            bot.join(None)
        return self.describe(session)

    def describe(self, session: Session) -> dict[str, Any]:
        """A session as the lobby shows it."""
        sid = session.id
        bot_seats = {**self.done_bots.get(sid, {}), **{b.seat: b.name for b in self.bots.get(sid, [])}}
        bot_seats = {s: spec.partition(":")[0].strip() for s, spec in bot_seats.items()}
        return {
            "session": sid,
            "game": session.setup.game,
            "phase": session.phase,
            "realtime": session.realtime,
            "rules": list(session.setup.rules),
            "options": session.setup.to_json()["options"],  # every option: the same after a restart
            "seats": [
                {
                    "seat": s,
                    "name": name,
                    "bot": bot_seats.get(s),
                    "claimed": s in session.tokens,
                    "link": None if s in bot_seats else f"/play/{sid}#seat={s}",  # (bots: none)
                }
                for s, name in enumerate(session.setup.players)
            ],
            "watch": f"/play/{sid}#watch" if session.config.spectators else None,
            "time": {k: getattr(session.config.time, k) for k in _TIME_KEYS},
            "schema": None if session.game is None else session.game.view_schema(),
            "record": f"/api/sessions/{sid}/record"
            if session.phase in ("over", "closed")
            else None,
            "ended_by": _ended_by(session),
        }

    # -- a WebSocket ------------------------------------------------------------------------

    async def serve_socket(self, websocket: WebSocket) -> None:
        """Carry one client's frames to the hub and the hub's messages back."""
        if not same_origin(websocket):  # a page of another site, in a visitor's browser
            await websocket.close(1008, "this server's pages only")
            return
        peer = getattr(websocket, "client", None)  # (None: a transport that tells no address)
        client = None if peer is None else peer.host
        refused = self.quota.open_socket(client)  # max_sockets, max_sockets_per_client
        if refused is not None:
            await websocket.accept()  # (so that the client reads why)
            await websocket.close(1013, refused)  # 1013: try again later
            return
        try:
            await self._carry(websocket)
        finally:
            self.quota.close_socket(client)

    async def _carry(self, websocket: WebSocket) -> None:
        await websocket.accept()
        conn = self.host.connect()

        async def pump() -> None:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                async for text in conn:
                    await websocket.send_text(text)
                # the session closed it (a flood, a new token ...) or it read too slowly
                await websocket.close(1008, TOO_SLOW if conn.too_slow else "")

        loop = asyncio.get_running_loop()
        sender = loop.create_task(pump())
        ended: asyncio.Task[Any] = loop.create_task(conn.ended.wait())  # closed by the session
        receiving = ended  # (then each frame's receive: cancelled with the handler too)
        wait = self.server_limits.join_wait
        join_by = loop.time() + wait if wait else None  # (None: a connection may never join)
        try:
            while not conn.closed:
                receiving = loop.create_task(websocket.receive())
                joined = join_by is None or self.hub.joined(conn.id)  # (then no timeout)
                left = None if join_by is None or joined else max(0.0, join_by - loop.time())
                await asyncio.wait((receiving, ended), timeout=left, return_when=asyncio.FIRST_COMPLETED)
                if not receiving.done():
                    if not ended.done():  # no join or watch in time
                        why = f"no join or watch within {wait:,.10g} second{'s' * (wait != 1)}"
                        with contextlib.suppress(Exception):
                            await websocket.close(1008, why)
                    break
                frame = receiving.result()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                await conn.send(text if text is not None else frame.get("bytes") or b"")
                if joined and join_by is not None:  # should it have left: join_wait from now
                    join_by = loop.time() + wait
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            for task in (receiving, ended):  # (done ones are left as they are)
                task.cancel()
            await conn.close()  # ends the pump once it has sent what is queued
            try:  # too slow: its writes wait on a client that reads nothing, not on them
                await asyncio.wait_for(sender, 0 if conn.too_slow else 5.0)
            except (TimeoutError, asyncio.CancelledError, Exception):
                sender.cancel()  # stuck on a write: the close is written all the same
                with contextlib.suppress(Exception):
                    reason = TOO_SLOW if conn.too_slow else ""
                    await asyncio.wait_for(websocket.close(1008, reason), 5.0)


def _ended_by(session: Session) -> dict[str, Any] | None:
    """The game's last action, when not its seat but a timeout, the game clock or the host
    played it and ended the game: ``{"seat", "text", "cause"}`` (a timeout's resign: lost on time)."""
    game = session.game
    if game is None or not game.is_over or not game.version:
        return None
    cause = session.cause(game.version)
    if cause in ("player", "unknown"):  # (unknown: stored before causes were kept)
        return None
    seat, action, _ = game.record_entries()[-1]
    return {"seat": seat, "text": str(action), "cause": cause}


def create_app(server: WebServer | None = None, **kwargs: Any) -> Starlette:
    """The Starlette application around *server* (default: ``WebServer(**kwargs)``, which
    raises as :class:`WebServer` does).

    :raises WebError: *server* is neither ``None`` nor a :class:`WebServer`."""
    if server is not None and not isinstance(server, WebServer):
        msg = f"create_app serves a WebServer (or None: one of **kwargs), not {shown(server)}"
        raise WebError(msg)
    web = server if server is not None else WebServer(**kwargs)
    replays = asyncio.Semaphore(REPLAYS_AT_ONCE)  # rebuilt in threads, a few at a time

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await web.start()
        try:
            yield
        finally:
            await web.stop()

    async def page_lobby(request: Request) -> Response:
        return page(STATIC / "index.html")

    async def page_play(request: Request) -> Response:
        return page(STATIC / "play.html")

    async def api_games(request: Request) -> Response:
        return JSONResponse(web.games())

    async def api_sessions(request: Request) -> Response:
        if request.method == "POST":
            if not same_origin(request):  # a page of another site, in a visitor's browser
                return _error("games are created from this server's pages only", 403)
            body = await _body(request)  # (or its 400 or 413)
            data = body if isinstance(body, Response) else read_body(body)
            if isinstance(data, Response):
                return data
            client = None if request.client is None else request.client.host
            try:
                return JSONResponse(web.create(data, client), status_code=201)
            except LimitError as exc:
                return JSONResponse({"error": str(exc)}, 429, headers={"Retry-After": "60"})
            except CardcoreError as exc:
                return _error(str(exc))
        return _list_sessions(request)

    def _list_sessions(request: Request) -> Response:
        limits = web.server_limits
        try:
            offset = _count(request.query_params.get("offset"), 0, "offset")
            limit = _count(request.query_params.get("limit"), limits.page, "limit")
        except WebError as exc:
            return _error(str(exc))
        limit = max(1, min(limit, limits.max_page))
        sessions = web.hub.sessions
        # a game still waiting for people is not listed: its id is its seats' invitation
        # (the first to open a seat's link claims it), known to whoever created it
        shown = [s for s in reversed(tuple(sessions.values())) if s.phase != "waiting"]
        headers = {"X-Total-Count": str(len(shown))}  # (newest first, below)
        return JSONResponse([web.describe(s) for s in shown[offset : offset + limit]], headers=headers)

    def _session(request: Request) -> Session | None:
        return web.hub.sessions.get(request.path_params["sid"])

    async def api_session(request: Request) -> Response:
        session = _session(request)
        if session is None:
            return _error("no such session", 404)
        return JSONResponse(web.describe(session))

    async def api_record(request: Request) -> Response:
        session = _session(request)
        if session is None:
            return _error("no such session", 404)
        record = session.record()
        if record is None:
            return _error("the record is shown once the game is over", 409)
        headers = {
            "Content-Disposition": f'attachment; filename="{session.setup.game}-{session.id}.json"'
        }
        return JSONResponse(record, headers=headers)

    async def api_replay(request: Request) -> Response:
        session = _session(request)
        if session is None:
            return _error("no such session", 404)
        game = session.game
        if game is None or session.phase not in ("over", "closed"):
            return _error("the replay is shown once the game is over", 409)
        steps = game.version  # every action the record holds
        text = request.path_params["step"]
        if not (text.isascii() and text.isdigit()) or len(text) > 12:
            return _error(  # (beyond the end: the last step)
                f"the step is a number of actions from 0, at most 12 digits (this game has {steps}), not {text[:20]!r}"
            )
        step = min(int(text), steps)
        seed = session.fair.seed if session.fair is not None else (session.seed or 0)
        setup, chance = session.setup, session.chance  # a 0.2.0 session: its own chance

        def rebuild() -> tuple[dict[str, Any], tuple[Any, ...]]:
            """The public view after *step* actions, from the record (the game is over:
            nothing changes it; its lock guards the read)."""
            rows = [tuple(row) for row in game.record()["actions"][:step]]
            return setup.build(seed, rows, chance=chance).view(None), rows[-1] if rows else ()

        view, last = await off_the_loop(replays, rebuild)
        return JSONResponse(
            {
                "step": step,
                "steps": steps,
                "view": view,
                "action": last[1] if last else None,
                "actor": last[0] if last else None,
                "cause": session.cause(step) if step else None,
            }
        )

    routes = [
        Route("/", page_lobby),
        Route("/play/{sid}", page_play),
        Route("/api/games", api_games),
        Route("/api/sessions", api_sessions, methods=["GET", "POST"]),
        Route("/api/sessions/{sid}", api_session),
        Route("/api/sessions/{sid}/record", api_record),
        Route("/api/sessions/{sid}/replay/{step}", api_replay),
        WebSocketRoute("/ws", web.serve_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(Headers)],
        exception_handlers={404: http_error, 405: http_error, 500: server_error},
    )
    app.state.web = web
    return app
