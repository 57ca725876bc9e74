"""The asyncio helper's queues: a connection that does not read is dropped by bytes, not only by count."""

from __future__ import annotations

import asyncio

from cardcore.session import Outbound, Session, SessionConfig
from cardcore.session.aio import MAX_QUEUED, QUEUE, AsyncHost


def _big(conn: str, size: int) -> Outbound:
    return Outbound(conn, {"type": "pong"}, "x" * size)


def test_a_connection_that_never_reads_is_dropped_past_max_queued_characters() -> None:
    async def scenario() -> None:
        session = Session.create("golf", 2, now=0.0, seed=4, config=SessionConfig())
        host = AsyncHost(session)
        conn = host.connect("w")
        await conn.send({"type": "watch"})
        assert "w" in session.conns
        size = 200_000
        sent = 0
        while not conn.closed and sent < 100:  # 100 messages: far below the count cap
            host.deliver([_big("w", size)])
            sent += 1
        assert QUEUE > 100
        assert conn.closed and conn.too_slow
        assert sent == MAX_QUEUED // size + 1  # the one that would pass 1 MiB
        assert "w" not in session.conns  # the session forgot it
        assert [text async for text in conn] == []  # its unread messages are freed at once

    asyncio.run(scenario())


def test_a_connection_that_reads_keeps_up_however_much_it_is_sent() -> None:
    async def scenario() -> None:
        session = Session.create("golf", 2, now=0.0, seed=4, config=SessionConfig())
        host = AsyncHost(session)
        conn = host.connect("w")
        await conn.send({"type": "watch"})
        while conn.queued:
            await conn.__anext__()
        for _ in range(200):  # 40 MB in all, read as it comes
            host.deliver([_big("w", 200_000)])
            assert len(await conn.__anext__()) == 200_000
        assert not conn.closed and conn.queued == 0
        host.deliver([_big("w", MAX_QUEUED + 1)])  # one message longer than the cap, alone
        assert not conn.closed and len(await conn.__anext__()) == MAX_QUEUED + 1

    asyncio.run(scenario())
