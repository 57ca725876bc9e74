"""Real-time games under several threads submitting actions at once.

Only the documented rejections may be raised, every accepted action is
recorded exactly once and in order, events arrive once each in version order,
no card is lost, and the record replays to the same final state.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

import pytest

import cardcore
from cardcore import ActionApplied, Event, IllegalActionError, NotationError
from cardcore.testing import assert_conserved
from cardcore.testing._util import fingerprint

REALTIME = [g for g in ("spit", "speed", "racegame") if g in cardcore.available_games()]
THREADS_PER_SEAT = 3
SECONDS = 1.0


def _hammer(
    game: cardcore.Game,
    seat: int,
    seed: int,
    stop: float,
    out: list[object],
    errors: list[BaseException],
) -> None:
    rng = random.Random(seed)
    mine: list[object] = []
    try:
        while time.monotonic() < stop and not game.is_over:
            legal = game.legal_actions(seat)
            if not legal:
                time.sleep(0)
                continue
            action = rng.choice(legal)
            try:
                if rng.random() < 0.5:
                    game.apply(action)
                else:
                    game.act(seat, str(action))
            except (IllegalActionError, NotationError):  # StaleActionError is an IllegalActionError
                continue
            mine.append(action)
    except BaseException as exc:
        errors.append(exc)
    out.extend(mine)


@pytest.mark.parametrize("name", REALTIME)
@pytest.mark.parametrize("seed", [1, 2])
def test_concurrent_submissions_lose_and_duplicate_nothing(name: str, seed: int) -> None:
    game = cardcore.new_game(name, 2, seed=seed)
    events: list[Event] = []
    game.events.subscribe(Event, events.append)
    accepted: list[object] = []
    errors: list[BaseException] = []
    stop = time.monotonic() + SECONDS
    threads = [
        threading.Thread(target=_hammer, args=(game, seat, seed * 100 + k, stop, accepted, errors))
        for seat in range(2)
        for k in range(THREADS_PER_SEAT)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    assert errors == [], f"unexpected errors: {errors!r}"
    entries = game.record_entries()
    assert game.version == len(entries) == len(accepted) > 0
    assert Counter(str(a) for _, a, _ in entries) == Counter(str(a) for a in accepted)
    applied = [e for e in events if isinstance(e, ActionApplied)]
    assert [e.version for e in applied] == list(range(1, game.version + 1))
    assert [e.action for e in applied] == [str(a) for _, a, _ in entries]
    assert_conserved(game)
    again = cardcore.replay(game.record())
    assert fingerprint(again) == fingerprint(game)
    assert again.view(None) == game.view(None)


def _race(game: cardcore.Game, action: cardcore.Action, seen: int, threads: int) -> list[str]:
    """Submit *action* from *threads* threads released at once; return what each got."""
    barrier = threading.Barrier(threads)
    results: list[str] = []

    def go() -> None:
        barrier.wait()
        try:
            game.apply(action, seen=seen)
            results.append("ok")
        except IllegalActionError as exc:
            results.append(type(exc).__name__)

    workers = [threading.Thread(target=go) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return results


@pytest.mark.parametrize("name", REALTIME)
def test_same_action_from_two_threads_is_applied_once(name: str) -> None:
    """Both threads submit the very same legal action at once: exactly one wins."""
    for seed in range(5):
        game = cardcore.new_game(name, 2, seed=seed)
        seat = next(s for s in range(2) if game.legal_actions(s))
        action = game.legal_actions(seat)[0]
        results = _race(game, action, game.version, 4)
        if action in game.legal_actions(seat):
            continue  # the action stays legal after it is taken (rare): nothing to race for
        assert sorted(results) == ["StaleActionError"] * 3 + ["ok"], results
        assert game.version == len(game.record_entries()) == 1
