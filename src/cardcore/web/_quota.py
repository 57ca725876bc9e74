"""How much one ``cardcore serve`` holds: live sessions, bot-only games, idle sessions closed.

Every figure is a :class:`ServerLimits` field, read from the environment by
:meth:`ServerLimits.from_env` (so ``cardcore serve`` takes them too). A request
past a limit is refused with HTTP 429 before anything is created.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from cardcore._text import counted
from cardcore.session import Session
from cardcore.web._requests import WebError

__all__ = ["LIVE", "LimitError", "Quota", "ServerLimits"]

LIVE = ("waiting", "playing")
"""The phases of a live session: not dealt yet, or being played."""


class LimitError(WebError):
    """A request past one of the server's limits (HTTP 429 with the message)."""


_SECONDS = ("idle_close", "idle_when_full", "join_wait", "keep_over")
"""The fields of :class:`ServerLimits` that are seconds; every other is a whole count."""


@dataclass(frozen=True)
class ServerLimits:
    """What one server holds at once (``0``: no limit, for each count and for *idle_close*).

    Each count is a whole number (an ``int``); *idle_close*, *idle_when_full* and
    *join_wait* are seconds, and may have a fraction (each 0, off, or at least 1).

    :param max_sessions: Live sessions (waiting or playing) on the server
        (environment ``CARDCORE_MAX_SESSIONS``).
    :param max_per_client: Live sessions created from one client address
        (``CARDCORE_MAX_SESSIONS_PER_CLIENT``; off by default: behind a proxy every
        client has the proxy's address unless uvicorn is told to trust its headers).
    :param max_bot_games: Live sessions whose every seat is a bot (``CARDCORE_MAX_BOT_GAMES``).
    :param idle_close: Seconds after which a live session that no person is connected
        to (bots aside) is closed; bot-only games are never closed so
        (``CARDCORE_IDLE_CLOSE``).
    :param idle_when_full: When the server holds ``max_sessions``, a new session first
        closes those idle this many seconds (at most *idle_close*).
    :param page: Sessions ``GET /api/sessions`` lists when not asked for a ``limit``.
    :param max_page: The largest ``limit`` it takes.
    :param max_sockets: WebSocket connections open at once (``CARDCORE_MAX_SOCKETS``):
        each may hold up to 1 MiB of messages its client has not read yet.
    :param max_sockets_per_client: WebSocket connections open at once from one client
        address (``CARDCORE_MAX_SOCKETS_PER_CLIENT``; off by default, as *max_per_client*).
    :param join_wait: Seconds a WebSocket connection may stay open without holding a seat
        or watching a game (``join`` or ``watch``), from its opening and again from a
        ``leave``; then it is closed with code 1008, so connections that never join cannot
        hold every one of *max_sockets* (``CARDCORE_JOIN_WAIT``; 0: never closed so).
    :param keep_over: Seconds a finished game (its result, record and replay) stays on the
        server once no person holds one of its seats (bots and spectators aside); then it is
        closed, so a long-running server does not hold every game it ever finished
        (``CARDCORE_KEEP_OVER``; 0: kept until the server stops).
    """

    max_sessions: int = 1000
    max_per_client: int = 0
    max_bot_games: int = 4
    idle_close: float = 3600.0
    idle_when_full: float = 300.0
    page: int = 50
    max_page: int = 200
    max_sockets: int = 4096
    max_sockets_per_client: int = 0
    join_wait: float = 60.0
    keep_over: float = 3600.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name not in _SECONDS:  # a count: 2.5 sessions would slice a page with a float
                if type(value) is not int or value < 0:
                    msg = f"{f.name} must be a whole number from 0, not {value!r}"
                    raise WebError(msg)
            elif (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not 0 <= value < math.inf
            ):
                msg = f"{f.name} must be a finite number of seconds from 0, not {value!r}"
                raise WebError(msg)
        for name in _SECONDS:  # 0 is off; a tiny one spins the sweeper (or closes at once)
            value = getattr(self, name)
            if 0 < value < 1:
                msg = f"{name} must be 0 (off) or at least 1 second, not {value!r}"
                raise WebError(msg)
        if self.page < 1 or self.max_page < self.page:
            msg = f"page must be from 1 to max_page ({self.max_page}), not {self.page}"
            raise WebError(msg)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServerLimits:
        """The defaults, each replaced by its environment variable when set.

        :raises WebError: A variable that is not a number from 0.
        """
        env = os.environ if environ is None else environ
        names = {
            "max_sessions": "CARDCORE_MAX_SESSIONS",
            "max_per_client": "CARDCORE_MAX_SESSIONS_PER_CLIENT",
            "max_bot_games": "CARDCORE_MAX_BOT_GAMES",
            "idle_close": "CARDCORE_IDLE_CLOSE",
            "max_sockets": "CARDCORE_MAX_SOCKETS",
            "max_sockets_per_client": "CARDCORE_MAX_SOCKETS_PER_CLIENT",
            "join_wait": "CARDCORE_JOIN_WAIT",
            "keep_over": "CARDCORE_KEEP_OVER",
        }
        values: dict[str, Any] = {}
        for field, var in names.items():
            text = env.get(var)
            if not text:
                continue
            # plain ASCII digits (a decimal point for seconds): int() and float() also read
            # "1_000", " 5", other scripts' digits, "inf" and "1e-300"
            seconds = field in _SECONDS
            pattern = r"[0-9]{1,12}(\.[0-9]{1,6})?" if seconds else r"[0-9]{1,12}"
            if not re.fullmatch(pattern, text):
                msg = f"{var} must be a number from 0 in digits, not {text[:40]!r}"
                raise WebError(msg)
            value: float = float(text) if seconds else int(text)
            if seconds and 0 < value < 1:  # (named here: the variable was set)
                msg = f"{var} must be 0 (off) or at least 1 second, not {text!r}"
                raise WebError(msg)
            values[field] = value
        return cls(**values)


class Quota:
    """The server's limits applied: who created which live session, and since when each is idle."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self.creators: dict[str, str] = {}
        """The client address that created each session (since this process started)."""
        self.idle: dict[str, float] = {}
        """Since when no person has been connected to each live session."""
        self.ended: dict[str, float] = {}
        """Since when no person has been connected to each finished session."""
        self.sockets: Counter[str | None] = Counter()
        """The WebSocket connections open now, by client address (``None``: unknown)."""

    def open_socket(self, client: str | None) -> str | None:
        """Count a new WebSocket connection from *client*, or say why it is refused."""
        limits, sockets = self.limits, self.sockets
        if limits.max_sockets and sockets.total() >= limits.max_sockets:
            return f"the server holds {counted(limits.max_sockets, 'connection')}: try again later"
        most = limits.max_sockets_per_client
        if most and client is not None and sockets[client] >= most:
            return f"{counted(most, 'connection')} from your address {'is' if most == 1 else 'are'} open already"
        sockets[client] += 1
        return None

    def close_socket(self, client: str | None) -> None:
        """A connection counted by :meth:`open_socket` closed."""
        self.sockets[client] -= 1
        if self.sockets[client] <= 0:
            del self.sockets[client]

    def check(
        self,
        sessions: Mapping[str, Session],
        bot_only: Sequence[str],
        client: str | None,
        bots: bool,
    ) -> None:
        """Refuse a new session (a bot-only game if *bots*) from *client* past a limit.

        :param bot_only: The ids of the sessions whose every seat is a bot.
        :raises LimitError: Naming the limit.
        """
        limits = self.limits
        live = [s.id for s in tuple(sessions.values()) if s.phase in LIVE]
        if limits.max_sessions and len(live) >= limits.max_sessions:
            msg = f"the server holds {counted(len(live), 'game')} already (at most {limits.max_sessions}): try again later"
            raise LimitError(msg)
        if client is not None and limits.max_per_client:
            mine = sum(1 for sid in live if self.creators.get(sid) == client)
            if mine >= limits.max_per_client:
                msg = f"{counted(mine, 'game')} from your address {'is' if mine == 1 else 'are'} waiting or being played (at most {limits.max_per_client})"
                raise LimitError(msg)
        if bots and limits.max_bot_games:
            running = sum(1 for sid in bot_only if sid in sessions and sessions[sid].phase in LIVE)
            if running >= limits.max_bot_games:
                msg = f"{counted(running, 'game')} of bots only {'is' if running == 1 else 'are'} being played (at most {limits.max_bot_games}): try again later"
                raise LimitError(msg)

    def admit(
        self,
        sessions: Mapping[str, Session],
        bot_only: Sequence[str],
        client: str | None,
        bots: bool,
        now: float,
        wait: float,
    ) -> list[str]:
        """:meth:`check` a new session as if the sessions idle for *wait* seconds (when the
        server is full and ``idle_close`` is on) had closed to make room, and return them
        for the caller to close: a request refused closes nobody's game.

        :raises LimitError: Naming the limit.
        """
        idle: list[str] = []
        if self.limits.idle_close and self.is_full(sessions):
            idle = self.idle_sessions(sessions, bot_only, now, wait)
        self.check({k: s for k, s in tuple(sessions.items()) if k not in idle}, bot_only, client, bots)
        return idle

    def is_full(self, sessions: Mapping[str, Session]) -> bool:
        """Whether the server holds ``max_sessions`` live sessions."""
        most = self.limits.max_sessions
        return bool(most) and sum(1 for s in tuple(sessions.values()) if s.phase in LIVE) >= most

    def idle_sessions(
        self,
        sessions: Mapping[str, Session],
        bot_only: Sequence[str],
        now: float,
        wait: float | None = None,
    ) -> list[str]:
        """The live sessions no person has held a seat of for *wait* seconds by *now*
        (default ``idle_close``; ``0``: none), as seen by the calls so far. Spectators
        do not count."""
        wait = self.limits.idle_close if wait is None else wait
        out: list[str] = []
        if not wait:
            return out
        skip = set(bot_only)
        for sid, session in tuple(sessions.items()):  # (a snapshot: another thread may add)
            if session.phase not in LIVE or sid in skip or _seated(session):
                # a person in a seat; a spectator keeps nothing open (watchers could hold
                # the whole server full of games nobody plays)
                self.idle.pop(sid, None)
                continue
            since = self.idle.setdefault(sid, now)
            if now - since >= wait:
                out.append(sid)
        return out

    def to_close(
        self,
        sessions: Mapping[str, Session],
        bot_only: Sequence[str],
        now: float,
        wait: float | None = None,
    ) -> list[str]:
        """The sessions a sweep closes: :meth:`idle_sessions`, and with no *wait* (the
        server's own sweep, not one making room) :meth:`finished_sessions` too."""
        idle = self.idle_sessions(sessions, bot_only, now, wait)
        return idle if wait is not None else idle + self.finished_sessions(sessions, now)

    def finished_sessions(self, sessions: Mapping[str, Session], now: float) -> list[str]:
        """The finished sessions no person has held a seat of for ``keep_over`` seconds by
        *now* (``0``: none), as seen by the calls so far; bot-only games included."""
        wait = self.limits.keep_over
        out: list[str] = []
        if not wait:
            return out
        for sid, session in tuple(sessions.items()):
            if session.phase != "over" or _seated(session):
                self.ended.pop(sid, None)
                continue
            since = self.ended.setdefault(sid, now)
            if now - since >= wait:
                out.append(sid)
        return out

    def forget(self, sid: str) -> None:
        """A session closed."""
        self.creators.pop(sid, None)
        self.idle.pop(sid, None)
        self.ended.pop(sid, None)


def _seated(session: Session) -> bool:
    """Whether a person (no bot) holds a seat of *session* now."""
    return any(
        c.seat is not None and not cid.startswith("bot-") for cid, c in session.conns.items()
    )
