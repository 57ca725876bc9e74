"""Fixes and claims of 2026-12-06 (evening): where a subscriber added by a handler starts,
and the refusal benchmark runs (it cannot rot)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cardcore
from cardcore import ActionApplied, Event

ROOT = Path(__file__).resolve().parents[1]


def test_a_subscriber_added_by_a_handler_starts_at_the_next_event_of_the_batch() -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    first: list[Event] = []
    late: list[Event] = []
    added: list[int] = []

    def watcher(event: Event) -> None:
        first.append(event)
        if not added:
            added.append(len(first))
            game.events.subscribe(Event, late.append)

    game.events.subscribe(Event, watcher)
    seat = game.to_act[0]
    game.apply(game.legal_actions(seat)[0])
    batch = list(first)
    assert len(batch) >= 2 and isinstance(batch[0], ActionApplied)
    assert late == batch[added[0] :]  # the rest of the batch, from the next event on
    seat = game.to_act[0]
    game.apply(game.legal_actions(seat)[0])
    assert late[len(batch) - added[0] :] == first[len(batch) :]  # then every later batch


def test_refusals_benchmark_runs() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "refusals.py")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    rows = [line.split() for line in out.splitlines()[1:]]
    assert [r[0] for r in rows] == ["golf", "tonk", "spit", "speed"]
    assert all(float(r[1]) > 0 for r in rows)
