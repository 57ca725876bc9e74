"""An asyncio helper: each connection an object to send to and an async iterator of its messages.

::

    host = AsyncHost(hub)                     # or a single Session
    runner = asyncio.create_task(host.run())  # plays the clocks on time
    conn = host.connect()
    await conn.send({"type": "join", "session": sid, "seat": 0})
    async for text in conn:                   # the JSON texts for this connection
        ...
    await conn.close()
    host.stop(); await runner

The session stays sans I/O: this module only reads the clock, queues each
:class:`~cardcore.session.Outbound` for its connection, and wakes up for the
next deadline. A WebSocket server forwards ``send`` and the iterator to its
socket: per client, one task reads the socket and awaits ``send`` for each
message, another writes each text of ``async for text in conn`` (the iterator
ends when the connection closes, by either side or dropped as ``too_slow``);
on the socket's end or a failed write, ``await conn.close()``. A message the
host changes outside ``send`` (``hub.create(..., start="now")``, ``resume_all``,
``session.end`` or ``close``, a token issued) may move a deadline: call
:meth:`AsyncHost.wake` after it, or the clocks wait for the next message.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol

from cardcore._text import shown
from cardcore.errors import ArgumentError
from cardcore.session.protocol import Outbound

__all__ = ["MAX_QUEUED", "QUEUE", "AsyncConnection", "AsyncHost", "Host"]

QUEUE = 4096
"""Messages queued for one connection before it is dropped as too slow."""

MAX_QUEUED = 1 << 20
"""Characters of messages (1 MiB; JSON text, mostly ASCII) queued for one connection before it
is dropped as too slow. One message longer than this is still queued when it queues alone."""

_IDS = itertools.count(1)


class Host(Protocol):
    """What :class:`AsyncHost` drives: a :class:`~cardcore.session.Session` or a :class:`~cardcore.session.Hub`."""

    def handle(
        self, conn: str, message: str | bytes | Mapping[str, Any], now: float
    ) -> list[Outbound]:
        """Read one message."""

    def tick(self, now: float) -> list[Outbound]:
        """Play the clocks."""

    def disconnect(self, conn: str, now: float) -> list[Outbound]:
        """Forget a connection."""

    def next_deadline(self) -> float | None:
        """When to tick next."""


class AsyncConnection:
    """One connection of an :class:`AsyncHost`: :meth:`send` messages, iterate over replies.

    A reader that falls :data:`QUEUE` messages (or :data:`MAX_QUEUED` characters) behind
    is dropped as :attr:`too_slow`: the session forgets it and what it never read is freed.
    """

    def __init__(self, host: AsyncHost, conn: str) -> None:
        self.host = host
        self.id = conn
        """The connection's id, as the session knows it (one open connection each)."""
        self.closed = False
        """Whether it is closed (its iterator ends after what was queued before)."""
        self.too_slow = False
        """Whether the connection was dropped because it did not read its messages."""
        self.queued = 0
        """Characters of the messages queued and not yet read."""
        self._limit = QUEUE  # messages; the queue holds one more, for the end marker
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE + 1)
        self.ended = asyncio.Event()
        """Set once the connection is closed (by either side, or dropped as too slow)."""

    async def send(self, message: str | bytes | Mapping[str, Any]) -> None:
        """Hand one client message to the session (replies arrive through the iterator)."""
        if self.closed:
            return
        host = self.host
        host.deliver(host.host.handle(self.id, message, host.clock()))
        host.wake()

    async def close(self) -> None:
        """Close the connection: the session forgets it and the iterator ends."""
        if self.closed:
            return
        host = self.host
        host.deliver(host.host.disconnect(self.id, host.clock()))
        self._end()

    def _put(self, text: str) -> bool:
        """Queue *text*; ``False``: the reader is too slow (marked so, not yet ended: the
        host ends it and tells the others after the batch at hand)."""
        if self.closed:
            return True
        size = len(text)
        if self._queue.qsize() >= self._limit or (self.queued and self.queued + size > MAX_QUEUED):
            self.too_slow = True  # a reader too slow: dropped, as a server drops a stuck socket
            return False
        self._queue.put_nowait(text)
        self.queued += size
        return True

    def _end(self) -> None:
        if not self.closed:
            self.closed = True
            self.ended.set()
            self.host.connections.pop(self.id, None)
            while self.too_slow and not self._queue.empty():  # what it never read: freed now
                self._queue.get_nowait()
            if self.too_slow:
                self.queued = 0
            self._queue.put_nowait(None)  # (the queue keeps room for it)

    def __aiter__(self) -> AsyncConnection:
        return self

    async def __anext__(self) -> str:
        item = await self._queue.get()
        if item is None:  # the end: left for the next reader too, so it stays ended
            self._queue.put_nowait(None)
            raise StopAsyncIteration
        self.queued -= len(item)
        return item


class AsyncHost:
    """Runs a session (or hub) under asyncio.

    :param host: A :class:`~cardcore.session.Session` or :class:`~cardcore.session.Hub`.
    :param clock: The time source (default :func:`time.time`, which survives restarts).
    """

    def __init__(self, host: Host, clock: Callable[[], float] = time.time) -> None:
        self.host = host
        self.clock = clock
        self.connections: dict[str, AsyncConnection] = {}
        self._wake = asyncio.Event()
        self._stops = 0
        """How many times :meth:`stop` was called: a run ends when it grows."""

    def connect(self, conn: str | None = None) -> AsyncConnection:
        """Open a connection (with a fresh id unless given one).

        :param conn: Its id, which names one open connection (the session keeps a seat
            by it); ``None``: a fresh ``conn-N``, never one open already.
        :raises ArgumentError: *conn* is not text, or names a connection still open (the
            new one would take over the seat the open one holds).
        """
        if conn is None:
            cid = f"conn-{next(_IDS)}"
            while cid in self.connections:  # (an id chosen by the embedder)
                cid = f"conn-{next(_IDS)}"
        elif type(conn) is not str:
            raise ArgumentError(f"a connection id must be text, not {shown(conn, 40)}")
        elif conn in self.connections:
            msg = f"connection id {shown(conn, 60)} is open already: close it first (one id, one connection)"
            raise ArgumentError(msg)
        else:
            cid = conn
        connection = AsyncConnection(self, cid)
        self.connections[cid] = connection
        return connection

    def deliver(self, outbound: list[Outbound]) -> None:
        """Queue each message for its connection (closing those the session asks to close,
        and dropping those too slow to read; what their going tells the others, ``presence``,
        is delivered after the batch, so it is not overtaken by the batch's older news)."""
        told: list[Outbound] = []
        for out in outbound:
            connection = self.connections.get(out.conn)
            if connection is None:
                continue
            if not connection._put(out.text) or out.close:  # closed, or dropped as too slow
                told.extend(self.host.disconnect(out.conn, self.clock()))
                connection._end()
        if told:
            self.deliver(told)  # (through a subclass's deliver too: its observers see them)

    def wake(self) -> None:
        """Look at the deadlines again: call it after changing a session other than through
        :meth:`AsyncConnection.send` (creating, resuming, ending or closing one), whose
        deadlines the running :meth:`run` does not know yet."""
        self._wake.set()

    def run(self) -> Coroutine[Any, Any, None]:
        """Tick the host at each deadline until :meth:`stop`: a coroutine, which a ``stop()``
        called after ``run()`` ends even before its task first runs."""
        return self._run(self._stops)  # the count now: not when the task first runs

    async def _run(self, stops: int) -> None:
        while self._stops == stops:
            deadline = self.host.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)
            if self._stops == stops:
                self.deliver(self.host.tick(self.clock()))

    def stop(self) -> None:
        """End :meth:`run` (every run started before)."""
        self._stops += 1
        self._wake.set()
