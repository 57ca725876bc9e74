"""Fixes of 2026-12-06 in the session layer not pinned by the race review's own tests."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from cardcore.session import Limits, Session, SessionConfig, aio


def test_a_connection_closed_with_a_full_queue_reads_every_message_then_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The queue keeps room for the end marker: closing a connection whose reader is
    exactly at the limit drops none of its messages (it dropped the oldest unread one)."""

    async def play() -> list[dict[str, Any]]:
        config = SessionConfig(limits=Limits(rate=1000.0, burst=1000))
        session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7, config=config)
        host = aio.AsyncHost(session, clock=lambda: 1.0)
        monkeypatch.setattr(aio, "QUEUE", 8)
        ann = host.connect("ann")  # a queue of 8 messages
        monkeypatch.undo()
        await ann.send({"type": "join", "seat": 0})
        while ann._queue.qsize() < 7:
            await ann.send({"type": "ping", "id": ann._queue.qsize()})
        host.deliver(session.close(1.0))  # the 8th message, then the end
        assert ann.closed and not ann.too_slow
        return [json.loads(text) async for text in ann]

    got = asyncio.run(play())
    assert len(got) == 8
    assert got[0]["type"] == "welcome" and got[-1]["type"] == "closed"
    pongs = [m["id"] for m in got if m["type"] == "pong"]
    assert pongs == sorted(pongs) and pongs == list(range(pongs[0], pongs[0] + len(pongs)))
