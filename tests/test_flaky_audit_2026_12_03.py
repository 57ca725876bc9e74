"""Findings of the flaky-test audit of 2026-12-03: library races the audit met (strict xfails)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest

import cardcore

pytest.importorskip("rich")

from rich.console import Console

from cardcore.agents import lend_views
from cardcore.cli import realtime


class _AtOnce(threading.Thread):
    """A thread that runs its target as it starts: the scheduler's choice, made every time."""

    def start(self) -> None:
        self.run()


def test_a_piped_first_line_is_played_whichever_thread_runs_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cardcore.new_game("speed", ["Me", "Bot"], seed=3)
    first = str(game.legal_actions(0)[0])
    monkeypatch.setattr(realtime.threading, "Thread", _AtOnce)
    out = StringIO()
    console = Console(file=out, width=200, color_system=None)

    def lines() -> Iterator[str | None]:
        yield first
        yield None  # the end of the input: the game is left

    with lend_views(game) as views:
        agents: list[Any] = [None, None]
        session = realtime._Realtime(console, game, 0, agents, views, 0.01)
        session.run(lines)
    text = out.getvalue()
    assert f"you: {first}" in text, text[-400:]
