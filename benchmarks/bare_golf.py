"""A bare, plain-Python random playout of 6-card Golf: the yardstick for the engine.

No cardcore, no classes, no events: ranks are ints and a seat's legal actions are
small tuples. The rules and the decisions are those the engine's random agent
faces in ``cardcore.new_game("golf", 4)`` with default options (GOLF6, 9 rounds,
two decks, the last seat deals so seat 0 moves first):

* setup: each seat in turn flips two of its face-down cards, one decision each,
  chosen among the positions still face down (GOLF6-SETUP-2, GOLF-DEAL-4);
* a turn: ``draw`` or ``take`` (GOLF-TURN-1); after a draw ``replace 0..5`` or
  ``discard`` (7 choices), after a take ``replace 0..5`` only (GOLF-TURN-3);
* a replaced card goes face up onto the discard pile; the placed card is face up;
* a seat with no face-down card after its turn triggers one more turn for each
  other seat, then the round ends (GOLF6-END-1/2);
* drawing from an empty stock rebuilds it from the discards but the top one,
  shuffled; with only the top discard left the round ends (GOLF-STOCK-1);
* a column whose two cards share a rank scores 0, other cards score
  A 1, 2-10 face value, J/Q 10, K 0 (GOLF6-SCORE-1, GOLF-SCORE-1);
* the deal passes left every round; after 9 rounds the lowest total wins.

Every choice, even among one action, is one *decision*, exactly as one
``Game.legal_actions`` -> ``Game.apply`` round trip is one for the engine, and it
is drawn the way a random agent draws: ``legal[int(random() * len(legal))]``.

Run ``python benchmarks/bare_golf.py`` for decisions per second.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

__all__ = ["measure", "play_game"]

DRAW = -1
TAKE = -2
DISCARD = -3

POINTS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0)
"""GOLF-SCORE-1 (BASIC) by rank: index 1 = ace ... 13 = king."""

LEGAL_DRAW = (DRAW, TAKE)
LEGAL_PLACE = (0, 1, 2, 3, 4, 5, DISCARD)
LEGAL_TAKEN = (0, 1, 2, 3, 4, 5)


def _shuffle(items: list[int], rand: Callable[[], float]) -> None:
    """Fisher-Yates over ``random()`` (as cardcore's shuffle; ``random.shuffle`` is slower)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]


def _score(grid: list[int]) -> int:
    total = 0
    for c in range(3):
        a = grid[c]
        b = grid[c + 3]
        if a != b:
            total += POINTS[a] + POINTS[b]
    return total


def play_game(rnd: random.Random, players: int = 4, rounds: int = 9) -> int:
    """Play one random match of GOLF6 and return the number of decisions made.

    :param rnd: The generator for both chance (shuffles) and the players' choices.
    :param players: Seats (2 decks for 4-7 players, 1 for 2-3).
    :param rounds: Rounds in the match.
    :returns: How many decisions the players made.
    """
    rand = rnd.random
    decks = 1 if players <= 3 else 2
    deck = [r for r in range(1, 14) for _ in range(4 * decks)]
    totals = [0] * players
    decisions = 0
    dealer = players - 1
    for _ in range(rounds):
        stock = deck[:]
        _shuffle(stock, rand)
        first = (dealer + 1) % players
        grids = [[0] * 6 for _ in range(players)]
        up = [[False] * 6 for _ in range(players)]
        for j in range(6):
            for k in range(players):
                grids[(first + k) % players][j] = stock.pop()
        discard = [stock.pop()]
        down = [6] * players
        # setup: two flips each, clockwise from left of the dealer
        for k in range(players):
            seat = (first + k) % players
            u = up[seat]
            for _ in range(2):
                legal = tuple(p for p in range(6) if not u[p])
                pos = legal[int(rand() * len(legal))]
                decisions += 1
                u[pos] = True
                down[seat] -= 1
        seat = first
        final_left = -1
        while True:
            # start of a turn: draw or take
            legal = LEGAL_DRAW
            choice = legal[int(rand() * 2)]
            decisions += 1
            if choice == DRAW:
                if not stock:
                    if len(discard) <= 1:
                        break  # GOLF-STOCK-1: nothing to rebuild, the round ends
                    top = discard.pop()
                    stock = discard
                    _shuffle(stock, rand)
                    discard = [top]
                held = stock.pop()
                legal = LEGAL_PLACE
            else:
                held = discard.pop()
                legal = LEGAL_TAKEN
            choice = legal[int(rand() * len(legal))]
            decisions += 1
            if choice == DISCARD:
                discard.append(held)
            else:
                grid = grids[seat]
                discard.append(grid[choice])
                grid[choice] = held
                u = up[seat]
                if not u[choice]:
                    u[choice] = True
                    down[seat] -= 1
            # end of the turn
            if final_left >= 0:
                final_left -= 1
                if final_left == 0:
                    break
            elif down[seat] == 0:
                final_left = players - 1
            seat += 1
            if seat == players:
                seat = 0
        for s in range(players):
            totals[s] += _score(grids[s])
        dealer = (dealer + 1) % players
    return decisions


def measure(seconds: float = 1.0, seed: int = 1, players: int = 4) -> tuple[float, float]:
    """Play whole matches for about *seconds*; return (games per second, decisions per second)."""
    rnd = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    end = start + seconds
    now = start
    while now < end or games == 0:
        decisions += play_game(rnd, players)
        games += 1
        now = time.perf_counter()
    elapsed = now - start
    return games / elapsed, decisions / elapsed


def main(argv: list[str] | None = None) -> int:
    """Print the bare loop's speed."""
    del argv
    gps, dps = measure(2.0)
    print(f"bare GOLF6, 4 players: {gps:,.0f} games/s, {dps:,.0f} decisions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
