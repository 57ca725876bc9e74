"""The issue's repros through the oldest public API, to run against the code before the fixes.

Some findings of the hardening issue (non-ASCII digits, bogus seats, the ``seen`` replay,
option caches, agents reaching the game, ``deck=`` without a seed) were fixed by the
"core owns the flow" work before the hardening commits, and the test modules here do not
import on that old code (``tests/conftest.py`` needs today's API). This script uses only
calls 082019a already had, so the same repros run on both::

    mkdir /tmp/v01 && git archive 082019a src plugins | tar -x -C /tmp/v01
    PYTHONPATH=/tmp/v01/src:/tmp/v01/plugins python -m tests.hardening.before   # the bugs
    python -m tests.hardening.before                                           # fixed

Each line says ``BUG`` (the finding reproduces) or ``ok``; exits 1 if any ``BUG``.
"""

from __future__ import annotations

import contextlib
import gc
import json
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import cardcore

BUGS: list[str] = []


def report(finding: str, bug: bool, detail: str) -> None:
    print(f"{'BUG' if bug else 'ok ':3}  {finding}: {detail}")
    if bug:
        BUGS.append(finding)


def outcome(call: Callable[[], object]) -> tuple[bool, str]:
    """(raised a raw non-cardcore error, what happened)."""
    try:
        result = call()
    except cardcore.CardcoreError as exc:
        return False, f"{type(exc).__name__}"
    except Exception as exc:
        return True, f"raw {type(exc).__name__}: {str(exc)[:60]}"
    return False, f"returned {str(result)[:40]}"


def non_ascii_digits() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    raw, what = outcome(lambda: game.act(game.to_act[0], "flip \u00b2"))
    report("5 act(0, 'flip \u00b2')", raw, what)
    game.act(game.to_act[0], "flip 2")
    save = json.loads(json.dumps(game.save()))
    save["record"]["actions"][0][1] = "flip \u00b2"
    raw, what = outcome(lambda: cardcore.load(save))
    report("5 load() of a save holding 'flip \u00b2'", raw, what)


def bogus_seats() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    accepted, what = True, ""
    try:
        game.legal_actions(99)
        what = "legal_actions(99) accepted"
    except cardcore.CardcoreError as exc:
        accepted, what = False, f"legal_actions(99): {type(exc).__name__}"
    report("5 bogus seat", accepted, what)
    raw, what = outcome(lambda: game.legal_actions("1"))  # type: ignore[arg-type]
    report("5 legal_actions('1')", raw or what.startswith("returned"), what)
    raw, what = outcome(
        lambda: game.events.subscribe(cardcore.CardDrawn, print, seat=cardcore.HOST)
    )
    report("5 subscribe(seat=HOST)", raw or what.startswith("returned"), what)


def seen_replay() -> None:
    game = cardcore.new_game("spit", 2, seed=0, options={"stall_limit": 1000})
    rng = random.Random(0)
    while not game.is_over and game.version < 6000:
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        if legal:
            slow = [a for a in legal if str(a).split()[0] in ("fill", "combine")]
            game.apply(rng.choice(slow if slow and rng.random() < 0.97 else legal))
    now = set(game.legal_actions(0))
    action = next(
        a
        for _, a, _ in reversed(game.record_entries())
        if a.seat == 0 and a not in now and type(a).__name__ != "Resign"
    )

    def median_us(call: Callable[[], object], n: int = 30) -> float:
        times = []
        for _k in range(n):
            start = time.perf_counter()
            with contextlib.suppress(cardcore.CardcoreError):
                call()
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1e6

    view = median_us(lambda: game.view(0))
    olds = iter(range(1, 10_000))  # a fresh old version each time (some were never shown)
    rejected = median_us(lambda: game.apply(action, seen=next(olds)))
    ratio = rejected / view
    report(
        f"4 old seen values at version {game.version}",
        ratio > 20,
        f"{rejected:.0f} us per rejected action, {view:.0f} us per view ({ratio:.1f}x)",
    )


def option_caches() -> None:
    tracemalloc.start()
    sizes = []
    for batch in range(2):
        for stake in range(1 + 300 * batch, 301 + 300 * batch):
            cardcore.new_game("tonk", 2, options={"stake": stake}, seed=1)
        sizes.append(tracemalloc.get_traced_memory()[0])
    tracemalloc.stop()
    grown = sizes[1] - sizes[0]
    report("7 300 more Tonk stakes", grown > 150_000, f"{grown:,} bytes more")


def agents_reach_the_game() -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    found: list[str] = []

    class Peek(cardcore.RandomAgent):
        def choose(self, view: Any, legal: Any) -> Any:
            todo, done = [view], set()
            while todo and not found:
                obj = todo.pop()
                if id(obj) in done or isinstance(obj, type) or type(obj).__name__ == "module":
                    continue
                done.add(id(obj))
                if isinstance(obj, cardcore.Game):
                    found.append("the Game")
                todo.extend(gc.get_referents(obj))
            return super().choose(view, legal)

    cardcore.play(game, [Peek(1), Peek(2)], max_actions=2)
    report("8 agent's view", bool(found), f"reaches {found[0]}" if found else "reaches no Game")


def deck_without_seed() -> None:
    seeds = {cardcore.new_game("tonk", 2, deck="5H 9C KD").record()["seed"] for _ in range(3)}
    report("9 deck= without seed=", seeds == {0}, f"seeds {sorted(seeds)[:3]}")


def main() -> int:
    print(f"cardcore from {cardcore.__file__}")
    for check in (
        non_ascii_digits,
        bogus_seats,
        seen_replay,
        option_caches,
        agents_reach_the_game,
        deck_without_seed,
    ):
        try:
            check()
        except Exception as exc:  # a repro that cannot run on this code
            print(f"?    {check.__name__}: could not run: {type(exc).__name__}: {exc}")
    return 1 if BUGS else 0


if __name__ == "__main__":
    sys.exit(main())
