"""Web fixes of 2026-12-07 (from ``test_web_read_review_2026_12_07.py``'s doc gaps): a bot
whose actions the game refuses again and again is logged once and asked after a growing
pause (it was asked every 0.5 s for ever, silently)."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import cardcore
from cardcore.session import Outbound
from cardcore.web._bots import refused_pause
from tests.web.helpers import Player, create, serve

BOUND = 5.0
"""Seconds a test waits for what must happen at once (only a bug reaches it)."""


class RefusedAgent:
    """Answers an action text no game takes, every time."""

    def choose(self, view: Any, legal: Any) -> Any:
        return "no-such-move"

    def plan(self, view: Any, legal: Any, now: float) -> Any:
        return None


@pytest.fixture(autouse=True)
def agents() -> Iterator[None]:
    cardcore.register("cardcore.agents", "review-refused", RefusedAgent)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.agents", "review-refused")


def test_refused_pause_grows_from_half_a_second_to_thirty() -> None:
    assert [refused_pause(n) for n in range(0, 3)] == [0.0, 0.0, 0.0]
    assert [refused_pause(n) for n in range(3, 11)] == [0.5, 1, 2, 4, 8, 16, 30, 30]
    assert refused_pause(10**6) == 30.0


def test_a_bot_refused_again_and_again_is_logged_once() -> None:
    warnings: list[str] = []
    fifth = threading.Event()

    class Caught(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "refused 3 times in a row" in record.getMessage():
                warnings.append(record.getMessage())

    handler = Caught(logging.WARNING)
    logger = logging.getLogger("cardcore.web")
    logger.addHandler(handler)
    try:
        with serve() as (client, server, _):
            seats = [{"name": "Bot", "agent": "review-refused"}, {"name": "Ann"}]
            sid = create(client, "golf", seats)["session"]
            refusals: list[dict[str, Any]] = []

            def observe(out: Outbound) -> None:
                message = json.loads(out.text)
                if out.conn == f"bot-{sid}-0" and message["type"] == "error":
                    refusals.append(message)
                    if len(refusals) >= 5:  # after the pauses of 0.5 and 1 s
                        fifth.set()

            server.host.observers.append(observe)
            with client.websocket_connect("/ws") as ws:
                ann = Player(ws)
                ann.send({"type": "join", "session": sid, "seat": 1})
                ann.until("view")
                assert fifth.wait(BOUND)
                assert server.hub.sessions[sid].game.version == 0  # nothing played
    finally:
        logger.removeHandler(handler)
    assert len(warnings) == 1, warnings  # once a run of refusals, not at each
    assert "no-such-move" in warnings[0] and "GOLF-NOTE-1" in warnings[0]
