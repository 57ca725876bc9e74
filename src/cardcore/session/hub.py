"""The :class:`Hub`: many sessions behind one host, one store.

A server gives every connection to the hub; the first ``join`` or ``watch``
names its session (``"session": id``) and from then on the connection's
messages go to that session. The hub limits each connection's rate before
anything else, resumes every stored session after a restart, and ticks them
all. Like a :class:`~cardcore.session.Session` it is sans I/O and never raises
from :meth:`Hub.handle`, :meth:`Hub.tick` or :meth:`Hub.disconnect`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardcore._stamps import plain_clock
from cardcore._text import one_line, plain, shown
from cardcore.cards import Card
from cardcore.game import MAX_TIME
from cardcore.session.config import Limits, SessionConfig
from cardcore.session.protocol import Outbound, ProtocolError, RateLimiter, dumps, read_message
from cardcore.session.session import Session, SessionError
from cardcore.session.store import Store

__all__ = ["Hub"]

LOG = logging.getLogger("cardcore.session")


class Hub:
    """Routes connections to sessions, keeps them in one store, and ticks them.

    :param store: Where every session is kept (``None``: nowhere).
    :param limits: Per-connection limits applied before routing (default :class:`Limits`).
    """

    def __init__(self, store: Store | None = None, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.sessions: dict[str, Session] = {}
        """The sessions, by id."""
        self._closing: dict[str, tuple[Session, int]] = {}  # closed, unwritten: (it, tries)
        self._routes: dict[str, str] = {}
        self._limiter = RateLimiter(self.limits.rate, self.limits.burst, self.limits.close_after)
        self._now = 0.0  # the last good time given to a call

    def _time(self, now: Any) -> float:
        """*now* if it is a time a session may use (finite, of at most MAX_TIME in size), else
        the last good one: a bad time never reaches the limiter or a comparison."""
        plain = plain_clock(now)  # a plain number (a subclass's own code never runs: it could lie)
        if plain is not None and -MAX_TIME <= plain <= MAX_TIME:  # (NaN compares false)
            self._now = max(self._now, float(plain))
        return self._now

    def create(
        self,
        game: str,
        players: int | Sequence[str],
        *,
        now: float,
        rules: Iterable[str] = (),
        without: Iterable[str] = (),
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        deck: str | Sequence[str | Card] | None = None,
        position: str | None = None,
        config: SessionConfig | None = None,
        session_id: str | None = None,
    ) -> Session:
        """Create a session in this hub's store (arguments as for :meth:`Session.create`; the
        default *config* has the hub's limits)."""
        session_id = plain(session_id)  # a str subclass could hash its own way
        if type(session_id) is str and session_id in self.sessions:  # (a store refuses it too)
            raise SessionError(f"a session {shown(session_id, 40)} runs in this hub already")
        session = Session.create(
            game,
            players,
            now=now,
            rules=rules,
            without=without,
            options=options,
            seed=seed,
            deck=deck,
            position=position,
            config=SessionConfig(limits=self.limits) if config is None else config,
            store=self.store,
            session_id=session_id,
        )
        self.sessions[session.id] = session
        return session

    def resume_all(self, now: float) -> list[str]:
        """Resume every session of the store not yet closed; return the ids of those that failed.

        Each failure is logged; the others run on.
        """
        failed: list[str] = []
        if self.store is None:
            return failed
        for session_id in self.store.session_ids():
            if session_id in self.sessions or session_id in self._closing:  # (closed, unwritten)
                continue
            try:
                self.sessions[session_id] = Session.resume(self.store, session_id, now)
            except Exception as exc:  # one damaged session never stops the others (or the server)
                LOG.error("%s", one_line(exc))  # one line: escaped, cut
                failed.append(session_id)
        return failed

    def handle(self, conn: str, message: str | bytes | Mapping[str, Any], now: float) -> list[Outbound]:
        """Read one message of *conn*: route it to its session (see the module docstring)."""
        now = self._time(now)
        allowed, tell, close = self._limiter.take(conn, now)
        if not allowed:
            if not (tell or close):
                return []
            error = ProtocolError("rate-limited", "too many messages: this one was dropped unread (slow down)")
            return [_error(conn, error, None, close=close)]
        session_id = self._routes.get(conn)
        if session_id is not None and session_id in self.sessions:
            session = self.sessions[session_id]
            out = session.dispatch(conn, message, now)
            if conn not in session.conns:
                self._routes.pop(conn, None)
            return out
        ref: Any = None
        try:
            msg = read_message(message, self.limits.max_message)
            ref = msg.get("id")
            kind = msg["type"]
            if kind == "ping":
                return [_out(conn, {"type": "pong", "id": ref, "t": msg.get("t"), "server_time": now})]
            if kind not in ("join", "watch"):
                raise ProtocolError("not-joined", f"join a seat or watch before sending {kind!r}")
            wanted = msg.get("session")
            found = self.sessions.get(wanted) if isinstance(wanted, str) else None
            if found is None:
                raise ProtocolError("no-session", f"no session {wanted!r} here (name it in 'session')")
            if found.config.limits.max_message < self.limits.max_message:  # the session's own
                read_message(message, found.config.limits.max_message)  # limit, as for the rest
        except ProtocolError as exc:
            return [_error(conn, exc, ref if ref is not None else exc.ref)]
        except Exception as exc:  # pragma: no cover - a bug: tell the client
            LOG.exception("hub: unexpected error")
            return [_error(conn, ProtocolError("internal", f"internal error: {type(exc).__name__}"), ref)]
        out = found.dispatch(conn, msg, now)
        if conn in found.conns:
            self._routes[conn] = found.id
        return out

    def joined(self, conn: str) -> bool:
        """Whether *conn* holds a seat or watches a session now."""
        return conn in self._routes

    def disconnect(self, conn: str, now: float) -> list[Outbound]:
        """Forget *conn* (closed by the transport)."""
        if not self._limiter.keyable(conn):  # a list: no connection of ours
            return []
        now = self._time(now)
        self._limiter.forget(conn)
        session_id = self._routes.pop(conn, None)
        session = None if session_id is None else self.sessions.get(session_id)
        return [] if session is None else session.disconnect(conn, now)

    def tick(self, now: float) -> list[Outbound]:
        """Tick every session whose deadline has come."""
        now = self._time(now)
        out: list[Outbound] = []
        for session in list(self.sessions.values()):
            deadline = session.next_deadline()
            if deadline is not None and deadline <= now:
                out.extend(session.tick(now))
        for sid in list(self._closing):  # a close the store failed: tried again
            self._retry_close(sid, now)
        return out

    def _retry_close(self, session_id: str, now: float) -> None:
        session, tries = self._closing[session_id]
        session.tick(now)  # (writes what is unsaved, the close included)
        if session.store_error is None:
            del self._closing[session_id]
        elif tries + 1 >= CLOSE_TRIES:  # refused for good (the row deleted, another writer)
            del self._closing[session_id]
            LOG.error("session %s: its close could not be written %d times; given up", session_id, CLOSE_TRIES)
        else:
            self._closing[session_id] = (session, tries + 1)

    def next_deadline(self) -> float | None:
        """The earliest deadline of all sessions (``None``: none)."""
        times = [d for d in (s.next_deadline() for s in tuple(self.sessions.values())) if d is not None]
        times += [s.now + RETRY_CLOSE for s, _ in self._closing.values()]
        return min(times) if times else None

    def close(self, session_id: str, now: float) -> list[Outbound]:
        """Close a session and drop it from the hub (the store marks it ``closed``: a
        :class:`MemoryStore` keeps only the last few); an id the hub does not hold (or no
        text) closes nothing."""
        session = self.sessions.pop(session_id, None) if isinstance(session_id, str) else None
        if session is None:
            if isinstance(session_id, str) and session_id in self._closing:  # closed, unwritten
                self._retry_close(session_id, self._time(now))
            return []
        for conn in list(session.conns):
            self._routes.pop(conn, None)
        out = session.close(now)
        if session.store_error is not None:  # the store failed: tried again by tick (RETRY_CLOSE)
            self._closing[session.id] = (session, 0)
        return out


RETRY_CLOSE = 5.0
"""Seconds after which a hub asks for a tick to write again a close its store failed (every
tick, and closing the session again, tries it, :data:`CLOSE_TRIES` times at most)."""

CLOSE_TRIES = 60
"""How many times a hub tries again to write a close its store failed before giving up
(logged): about five minutes of ticks at :data:`RETRY_CLOSE`."""


def _out(conn: str, message: dict[str, Any], *, close: bool = False) -> Outbound:
    return Outbound(conn, message, dumps(message), close)


def _error(conn: str, exc: ProtocolError, ref: Any, *, close: bool = False) -> Outbound:
    return _out(conn, {"type": "error", "code": exc.code, "message": str(exc), "id": ref}, close=close)
