"""The bots of ``cardcore serve``: an agent holding one seat of a session, as a person would.

A bot thinks in a thread of its own (a daemon thread per decision, never the event loop
nor the executor that replays use), so a search agent's decision delays no other game or
request, and an agent that hangs holds only its own seat (and never the server's exit).
The thread gets the seat's view and legal actions, read on the loop, and the agent alone:
never the session or its game. A bot runs one decision at a time: a newer view waits for
the last decision to end (even one it cancelled) rather than queue another, and a
turn-based decision made on a view that is no longer current is thrown away and made
again. An agent that raises is logged and asked again when the game next changes, or
after a pause if nothing does (0.5 s, doubling to 30 s while it keeps failing). A bot whose game is over (or closed) lets go of its
connection, its task and its agent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cardcore._agentspec import build_agent, parameters_of, parse_agent_spec
from cardcore._text import one_line
from cardcore.agents import check_agent
from cardcore.errors import CardcoreError, OptionError, UnknownPluginError
from cardcore.plugins import game_info, load_agent
from cardcore.session.aio import AsyncConnection

if TYPE_CHECKING:
    from cardcore.info import GameInfo
    from cardcore.session import Session
    from cardcore.web.app import WebServer

__all__ = ["Bot", "bot_agent", "bot_rows", "refused_pause", "seat_agent", "stored_bot"]

LOG = logging.getLogger("cardcore.web")


def refused_pause(errors: int) -> float:
    """Seconds a bot waits before deciding again after *errors* refusals in a row (any view
    or update sets it back to 0): none for the first two, then 0.5 doubling to 30."""
    return 0.0 if errors <= 2 else min(30.0, 0.5 * 2 ** min(errors - 3, 6))


class Bot:
    """An agent holding one seat of one session, over an in-process connection."""

    def __init__(
        self,
        server: WebServer,
        session: str,
        seat: int,
        name: str,
        params: Mapping[str, Any],
        agent: Any,
    ) -> None:
        self.server = server
        self.session = session
        self.seat = seat
        self.name = name
        """The agent as the lobby named it (a name or a spec such as ``golf-greedy:seed=3``)."""
        self.params = dict(params)
        """The parameters it was built with (:func:`bot_agent`), as stored."""
        self.agent = agent
        self.conn: AsyncConnection | None = None
        self.task: asyncio.Task[None] | None = None
        self.thinking: asyncio.Task[None] | None = None
        self.errors = 0
        self.failures = 0
        """The agent's failures in a row (each asks again later, after a longer pause)."""
        self._retry: asyncio.TimerHandle | None = None
        self._busy: asyncio.Future[Any] | None = None  # the decision running in a thread

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
            message = json.loads(text)
            kind = message.get("type")
            if kind == "error":
                self.errors += 1
                if self.errors == 3:  # once a run: the agent answers what the game refuses
                    LOG.warning("bot %s of session %s: refused 3 times in a row (asked again after a pause): %.300s", self.name, self.session, message.get("message"))
            elif kind in ("view", "update"):
                self.errors = 0
            session = self.server.hub.sessions.get(self.session)
            if session is None or session.phase in ("over", "closed"):
                break  # nothing more to play: let go of the seat's connection and the agent
            if kind in ("view", "update", "error", "lobby", "welcome"):
                self.poke()
        self.stop(reading=False)
        await conn.close()
        self._retire()

    def _retire(self) -> None:
        """Let go of this bot, its game over or closed: still shown as the seat's bot."""
        server = self.server
        bots = server.bots.get(self.session, [])
        if self in bots:
            bots.remove(self)
            server.done_bots.setdefault(self.session, {})[self.seat] = self.name
            if not bots:
                del server.bots[self.session]

    def poke(self) -> None:
        """Think again: the game changed (or the last action was refused)."""
        if self._retry is not None:  # thinking now: one chain of retries at most
            self._retry.cancel()
            self._retry = None
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
            self.failures += 1  # asked again later: nothing else would (the game waits on it)
            pause = min(30.0, 0.5 * 2 ** min(self.failures - 1, 6))
            self._retry = asyncio.get_running_loop().call_later(pause, self.poke)
        else:
            self.failures = 0

    async def _decide(self) -> None:
        session = self.server.hub.sessions.get(self.session)
        game = None if session is None else session.game
        if session is None or game is None or game.is_over or self.conn is None:
            return
        if self.errors > 2:  # refused again and again: let the game move first
            await asyncio.sleep(refused_pause(self.errors))
        seat = self.seat
        if session.realtime:
            await self._idle()
            if game.is_over or session.game is not game:
                return
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
        turn = session.config.time.turn  # the pause is for people to watch: never the bot's
        pause = self.server.bot_delay  # time to lose (a quarter of its turn clock at most)
        await asyncio.sleep(pause if turn is None else min(pause, turn / 4))
        while True:
            await self._idle()
            if game.is_over or seat not in game.to_act or session.game is not game:
                return
            seen = game.version
            action = await self._apart(self.agent.choose, game.view(seat), game.legal_actions(seat))
            if game.version == seen and session.game is game:
                self.act(str(action), seen)
                return

    async def _idle(self) -> None:
        """Wait until no decision of this bot runs (one cancelled by a newer view may still)."""
        while self._busy is not None and not self._busy.done():
            await asyncio.wait([self._busy])

    async def _apart(self, decide: Callable[..., Any], *args: Any) -> Any:
        """Run one decision in a worker thread: the event loop serves everybody else meanwhile.

        Call it right after :meth:`_idle`, with nothing awaited between: one thread per bot.
        """
        busy = self._busy = _in_thread(decide, *args)
        busy.add_done_callback(lambda f: f.cancelled() or f.exception())  # no unread exceptions
        return await asyncio.shield(busy)  # cancelling this task leaves the thread's future be

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

    def stop(self, reading: bool = True) -> None:
        """Stop thinking (and reading, unless *reading* is false: the reader stops itself)."""
        if self._retry is not None:
            self._retry.cancel()
        for task in (self.thinking, self.task if reading else None):
            if task is not None:
                task.cancel()


def bot_rows(db: Any, sql: str, row: tuple[Any, ...]) -> None:
    """Write the server's bots table (``web_bots``) through *db*; a failure is logged, never
    raised: the games go on (a restart then lacks what was not written)."""
    try:
        if db is not None:
            db.execute(sql, row)
    except Exception as exc:
        LOG.error("the server's bots table could not be written: %s", one_line(exc, 200))


def _in_thread(decide: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
    """Run *decide* in a daemon thread of its own; its answer (or exception) in a future of the
    running loop. Not a pool: a hung agent holds no thread another bot or a replay needs."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(answer: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is None:
            future.set_result(answer)
        else:
            future.set_exception(error)

    def run() -> None:
        error: BaseException | None
        try:
            answer, error = decide(*args), None
        except BaseException as exc:  # handed to the loop, as an executor does, but
            answer, error = None, exc
            if isinstance(exc, StopIteration) or not isinstance(exc, Exception):
                # a future refuses StopIteration (the bot would wait for good), and an agent's
                # sys.exit() must not stop the server: both a failed decision of this bot
                error = RuntimeError(f"the agent raised {type(exc).__name__}: {exc}".rstrip(": "))
                error.__cause__ = exc
        with contextlib.suppress(RuntimeError):  # the loop closed (the server stopped): nobody waits
            loop.call_soon_threadsafe(settle, answer, error)

    threading.Thread(target=run, name="cardcore-bot", daemon=True).start()
    return future


def stored_bot(server: WebServer, session: Session, row: tuple[Any, ...]) -> Bot:
    """The bot of a ``web_bots`` row (session, seat, agent, params), checked as a new one is.

    :raises CardcoreError: The row is damaged (params that are no JSON object, a seat the game
        does not have) or its agent now refuses it (gone, another game's, parameters past
        its bounds); the message says which.
    """
    sid, seat, agent, params = row
    try:
        data = json.loads(params) if isinstance(params, str) else None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        msg = f"its params are not a JSON object: {str(params)[:60]!r}"
        raise CardcoreError(msg)
    if type(seat) is not int or not 0 <= seat < session.players:
        msg = f"seat {str(seat)[:20]!r} is not a seat of its {session.players}-player game"
        raise CardcoreError(msg)
    if not isinstance(agent, str):
        msg = f"its agent is not a name: {str(agent)[:60]!r}"
        raise CardcoreError(msg)
    built, params = bot_agent(agent, data, game_info(session.setup.game))
    return Bot(server, sid, seat, agent, params, built)


def bot_agent(agent: str, params: Mapping[str, Any], game: GameInfo) -> tuple[Any, dict[str, Any]]:
    """A bot's agent, checked for *game* and built now, and the parameters it was built with.

    *agent* is an agent's name or spec (``golf-greedy:seed=3``); *params* add to (and
    override) the spec's. When neither gives a ``seed`` and the agent takes a ``seed``
    keyword, the bot gets a fresh one from the operating system (within the agent's
    declared bounds, if any), added to the parameters returned: stored with them, it
    rebuilds the same bot after a restart.

    :raises CardcoreError: The agent is unknown, does not play *game*, or refuses the
        parameters (one it does not take, one past its bounds, a required one missing,
        or any failure of its constructor); the message names the agent.
    """
    base, spec = parse_agent_spec(agent) if ":" in agent else (agent, {})
    factory = load_agent(base)
    check_agent(base, factory, game)
    chosen = dict(params)
    if "seed" not in chosen and "seed" not in spec and "seed" in parameters_of(factory):
        chosen["seed"] = _fresh_seed(factory)
    given = {**spec, **chosen}
    try:
        built = load_agent(base, **given) if given else build_agent(base, factory, {})
    except CardcoreError:
        raise
    except Exception as exc:  # the agent's constructor failed on these parameters
        msg = f"agent {base!r} cannot be built with {json.dumps(given)[:80]}: {exc!r}"[:300]
        raise OptionError(msg) from None
    return built, chosen


def seat_agent(
    seat: int, agent: str, params: Mapping[str, Any], game: GameInfo
) -> tuple[Any, dict[str, Any]]:
    """:func:`bot_agent` for a lobby's seat *seat*: a refusal's message names the seat too."""
    try:
        return bot_agent(agent, params, game)
    except UnknownPluginError as exc:
        raise UnknownPluginError(f"seat {seat}: {exc}") from None
    except CardcoreError as exc:
        raise OptionError(f"seat {seat}: {exc}") from None


def _fresh_seed(factory: Any) -> int:
    """A seed from the operating system: 62 bits, or an int within the agent's bounds."""
    bounds = getattr(factory, "parameter_bounds", None)
    span: Any = bounds.get("seed") if isinstance(bounds, Mapping) else None
    try:  # None, or bounds that are no two numbers: 62 bits
        low: int = math.ceil(span[0])
        high: int = math.floor(span[1])
    except (TypeError, ValueError, OverflowError, IndexError, KeyError):
        return secrets.randbits(62)
    if high < low:
        return low
    return low + secrets.randbelow(min(high - low, 2**62 - 1) + 1)
