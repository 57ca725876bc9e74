"""The bots of ``cardcore serve``: an agent holding one seat of a session, as a person would.

A bot thinks in a worker thread (``asyncio.to_thread``), never on the event loop, so a
search agent's decision delays no other game or request. The thread gets the seat's view
and legal actions, read on the loop, and the agent alone: never the session or its game.
One bot's decisions run one at a time (a lock), and a turn-based decision made on a view
that is no longer current is thrown away and made again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cardcore.plugins import load_agent
from cardcore.session.aio import AsyncConnection

if TYPE_CHECKING:
    from cardcore.web.app import WebServer

__all__ = ["Bot"]

LOG = logging.getLogger("cardcore.web")


class Bot:
    """An agent holding one seat of one session, over an in-process connection."""

    def __init__(
        self, server: WebServer, session: str, seat: int, agent: str, params: Mapping[str, Any]
    ) -> None:
        self.server = server
        self.session = session
        self.seat = seat
        self.name = agent
        self.params = dict(params)
        self.agent = load_agent(agent, **self.params) if self.params else load_agent(agent)()
        self.conn: AsyncConnection | None = None
        self.task: asyncio.Task[None] | None = None
        self.thinking: asyncio.Task[None] | None = None
        self.errors = 0
        self._lock = threading.Lock()  # one decision of this agent at a time

    def join(self, token: str | None) -> None:
        """Join the seat (claim it, or with *token*) and start reading."""
        host = self.server.host
        conn = host.connect(f"bot-{self.session}-{self.seat}")
        self.conn = conn
        message: dict[str, Any] = {"type": "join", "session": self.session, "seat": self.seat}
        if token is not None:
            message["token"] = token
        host.deliver(self.server.hub.handle(conn.id, message, host.clock()))
        self.task = asyncio.get_running_loop().create_task(self._read(conn))

    async def _read(self, conn: AsyncConnection) -> None:
        async for text in conn:
            kind = json.loads(text).get("type")
            if kind == "error":
                self.errors += 1
            elif kind in ("view", "update"):
                self.errors = 0
            if kind in ("view", "update", "error", "lobby", "welcome"):
                self.poke()

    def poke(self) -> None:
        """Think again: the game changed (or the last action was refused)."""
        if self.thinking is not None and not self.thinking.done():
            self.thinking.cancel()
        self.thinking = asyncio.get_running_loop().create_task(self._think())

    async def _think(self) -> None:
        try:
            await self._decide()
        except asyncio.CancelledError:
            raise
        except Exception:
            LOG.exception("bot %s of session %s failed", self.name, self.session)

    async def _decide(self) -> None:
        session = self.server.hub.sessions.get(self.session)
        game = None if session is None else session.game
        if session is None or game is None or game.is_over or self.conn is None:
            return
        if self.errors > 2:  # refused again and again: let the game move first
            await asyncio.sleep(0.5)
        seat = self.seat
        if session.realtime:
            seen = game.version
            plan = await self._apart(
                self.agent.plan, game.view(seat), game.legal_actions(seat), self.server.host.clock()
            )
            if plan is None:
                return
            await asyncio.sleep(max(0.0, plan.delay) * self.server.bot_pace)
            self.act(str(plan.action), seen)  # a plan made on an old view: the session says stale
            return
        if seat not in game.to_act:
            return
        await asyncio.sleep(self.server.bot_delay)
        while not game.is_over and seat in game.to_act and session.game is game:
            seen = game.version
            action = await self._apart(self.agent.choose, game.view(seat), game.legal_actions(seat))
            if game.version == seen and session.game is game:
                self.act(str(action), seen)
                return

    async def _apart(self, decide: Callable[..., Any], *args: Any) -> Any:
        """Run one decision in a worker thread: the event loop serves everybody else meanwhile."""

        def run() -> Any:
            with self._lock:  # a cancelled decision may still be running: wait for its end
                return decide(*args)

        return await asyncio.to_thread(run)

    def act(self, text: str, seen: int) -> None:
        """Send one action, as a client would (no rate limit: the server trusts its own bots)."""
        session = self.server.hub.sessions.get(self.session)
        conn = self.conn
        if session is None or conn is None or conn.closed:
            return
        host = self.server.host
        host.deliver(
            session.dispatch(conn.id, {"type": "act", "action": text, "seen": seen}, host.clock())
        )
        host.wake()

    def stop(self) -> None:
        """Stop reading and thinking."""
        for task in (self.thinking, self.task):
            if task is not None:
                task.cancel()
