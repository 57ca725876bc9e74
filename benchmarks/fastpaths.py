"""Games' ``is_legal`` fast paths: checked against the legal set, and what they would save.

``GameLogic.is_legal(state, action)`` answers ``action in legal_actions(state,
action.seat)``; a game may override it to judge an action from the few cards
it touches. The core's ``Game`` validates an action that is not the one just
listed (every action of a replay, every real-time action) against the full
legal set today; this script measures what replay would gain if the driver
asked ``is_legal`` instead (by patching ``Game._validate`` in this process
only: the exact change is in docs/performance.rst). Run from the repository
root::

    python benchmarks/fastpaths.py            # check, then 7 alternating rounds
    python benchmarks/fastpaths.py --check    # the equivalence check only

The check plays random games and, at every state, compares ``is_legal`` with
membership in the legal set for every interned action of both seats.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import cardcore
from cardcore import Action, EndMatch, Game, GameLogic, Resign

__all__ = ["check", "main", "patched_validate", "replay_rate"]

clock = time.process_time


def universe(game: Game) -> tuple[Action, ...]:
    """Every interned action of a Spit configuration, both seats."""
    logic: Any = game.logic
    out: list[Action] = []
    for table in (logic.plays, logic.combines, logic.fills):
        for per_seat in table:
            for row in per_seat:
                out.extend(row)
    for table in (logic.readies, logic.requests):
        out.extend(table)
    for claims in logic.claims:
        out.extend(claims)
    return tuple(out)


def check(name: str = "spit", games: int = 30, seed: int = 0) -> int:
    """Compare ``is_legal`` with the legal set at every state of *games* random games.

    :returns: How many (state, action) pairs were compared.
    :raises AssertionError: They disagree somewhere.
    """
    compared = 0
    for g in range(games):
        game = cardcore.new_game(name, 2, seed=seed + g)
        rnd = random.Random(seed + g)
        logic: GameLogic[Any, Any] = game.logic
        actions = universe(game)
        steps = 0
        while not game.is_over and steps < 3000:
            state = game.state
            legal = {s: logic.legal_actions(state, s) for s in (0, 1)}
            for a in actions:
                assert logic.is_legal(state, a) == (a in legal[a.seat]), (
                    name,
                    seed + g,
                    steps,
                    str(a),
                )
            compared += len(actions)
            seat = rnd.choice(game.to_act)
            options = game.legal_actions(seat)
            game.apply(options[rnd.randrange(len(options))])
            steps += 1
    return compared


@contextmanager
def patched_validate() -> Iterator[None]:
    """Make ``Game._validate`` ask ``logic.is_legal`` first (this process only)."""
    original = Game._validate

    def _validate(self: Game, action: Action, seen: int | None) -> None:
        kind = type(action)
        if (
            seen is None
            and isinstance(action, Action)
            and kind is not Resign
            and kind is not EndMatch
            and self.ruleset.veto is None
            and not self._state.is_over
        ):
            self._check_seat(action.seat, action)
            if self.logic.is_legal(self._state, action):
                return
        original(self, action, seen)

    Game._validate = _validate  # type: ignore[method-assign]
    try:
        yield
    finally:
        Game._validate = original  # type: ignore[method-assign]


def records(name: str, count: int, seed: int) -> list[dict[str, Any]]:
    """Whole records of two ``spit-greedy`` bots on the virtual clock."""
    bot = cardcore.load_agent("spit-greedy")
    out = []
    for i in range(count):
        game = cardcore.new_game(name, 2, seed=seed + i)
        cardcore.run_realtime(
            game, [bot(seed=2 * (seed + i)), bot(seed=2 * (seed + i) + 1)], seed=seed + i
        )
        out.append(game.record())
    return out


def replay_rate(recs: Sequence[dict[str, Any]]) -> float:
    """Actions per CPU second replaying *recs*."""
    actions = sum(len(r["actions"]) for r in recs)
    start = clock()
    for r in recs:
        cardcore.replay(r)
    return actions / (clock() - start)


def alternate(
    rounds: int, a: Callable[[], float], b: Callable[[], float]
) -> tuple[list[float], list[float]]:
    """Run *a* and *b* in alternating order *rounds* times each."""
    xs: list[float] = []
    ys: list[float] = []
    for r in range(rounds):
        if r % 2:
            ys.append(b())
            xs.append(a())
        else:
            xs.append(a())
            ys.append(b())
    return xs, ys


def main(argv: Sequence[str] | None = None) -> int:
    """Check, then measure replay with and without the fast path."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="the equivalence check only")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--records", type=int, default=6)
    args = parser.parse_args(argv)
    n = check("spit", games=10 if args.check else 4)
    print(f"spit is_legal agrees with the legal set on {n:,} (state, action) pairs")
    if args.check:
        return 0
    recs = records("spit", args.records, 100)
    mean = statistics.mean(len(r["actions"]) for r in recs)

    def fast() -> float:
        with patched_validate():
            return replay_rate(recs)

    def slow() -> float:
        return replay_rate(recs)

    base, quick = alternate(args.rounds, slow, fast)
    ratio = [q / b for b, q in zip(base, quick, strict=True)]
    print(
        f"spit replay, {len(recs)} records of {mean:.0f} actions on average, {args.rounds} alternating rounds:"
    )
    print(
        f"  legal set (today):  {statistics.median(base):>9,.0f} actions/s  range {min(base):,.0f} .. {max(base):,.0f}"
    )
    print(
        f"  is_legal (patched): {statistics.median(quick):>9,.0f} actions/s  range {min(quick):,.0f} .. {max(quick):,.0f}"
    )
    print(f"  gain: {statistics.median(ratio):.2f}x (range {min(ratio):.2f} .. {max(ratio):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
