"""A bare, plain-Python random playout of 6-card Golf: the yardstick for the engine.

Tuned again after an audit of 2026-12-06 that beat the earlier loop by ~10% with the same
rules, decisions and ``random()`` draws: scoring is one generated straight-line function per
seat count over a table of column pairs, the turns after a grid is complete run in a loop of
their own without the end-of-round bookkeeping, and ``float.__trunc__`` is called directly.

No cardcore, no classes, no events: a card is its rank as an int (ace 1 ... king
13), a seat's face-up positions are a 6-bit mask, every grid lives in one flat
list, no legal-action tuple is built and nothing is allocated per decision: a
choice among *n* legal actions is ``float.__trunc__(random() * n)`` (``int`` of a
positive float, only faster), the index the engine's random driver takes in its
legal tuple, which lists the same actions in the same order. The rules and the decisions are those of random play through
``cardcore.new_game("golf", 4)`` with default options (GOLF6, 9 rounds, one
deck for 2-3 players, two for 4-7, three for 8+; the last seat deals first so
seat 0 moves first), as ``benchmarks/run.py`` drives it::

    legal = game.legal_actions(game.to_act[0])
    game.apply(legal[int(rand() * len(legal))])

* setup: each seat from the dealer's left flips two of its face-down cards, one
  decision each, among the positions still face down in ascending order
  (GOLF6-SETUP-2, GOLF-DEAL-4): the first among 6, the second among 5;
* a turn: ``draw`` or ``take`` (GOLF-TURN-1, legal ``(draw, take)``, so index 0
  is ``random() < 0.5``); after a draw ``replace 0..5`` or ``discard`` (7
  choices), after a take ``replace 0..5`` only (6 choices, GOLF-TURN-3);
* the replaced card goes face up onto the discard pile; the placed card is face up;
* a seat with no face-down card after its turn gives each other seat one more
  turn, then the round ends (GOLF6-END-1/2);
* drawing from an empty stock rebuilds it from the discards but the top one,
  shuffled; with only the top discard left the draw ends the round (GOLF-STOCK-1);
* a column whose two cards share a rank scores 0, other cards score A 1,
  2-10 face value, J/Q 10, K 0 (GOLF6-SCORE-1, GOLF-SCORE-1);
* after a round every card is gathered into the stock (stock, discard pile, then
  the grids seat by seat, the engine's zone order) and shuffled, and the deal
  passes left; after 9 rounds the match is over.

Every choice, even among one action, is one *decision*, exactly as one
``Game.legal_actions`` -> ``Game.apply`` round trip is one for the engine
(``game.version`` at the end of a match). The chance work is the engine's too: a
full Fisher-Yates shuffle over ``random()`` of the whole deck at every deal and
of the discards at every rebuilt stock (``random.shuffle`` is slower and would
flatter the engine).

:func:`check_against_engine` proves the claim card for card: fed the engine's
shuffles (from the game seed, as ``cardcore.Chance`` derives them)
and the same choice stream, the bare loop must end every match with the
engine's decision count and the engine's totals. :func:`self_check` checks the
loop's own invariants and needs no cardcore.

Run from the repository root::

    python benchmarks/bare_golf.py                     # 7 rounds of ~1 s, median decisions/s
    python benchmarks/bare_golf.py --rounds 9 --seconds 2
    python benchmarks/bare_golf.py --check             # self-check, then lockstep vs the engine

Rounds are timed with ``time.process_time`` (CPU time of this process), as in
``benchmarks/run.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from itertools import cycle, islice
from operator import itemgetter
from typing import cast

__all__ = [
    "check_against_engine",
    "deck_count",
    "main",
    "measure",
    "play_game",
    "play_match",
    "self_check",
]

Rand = Callable[[], float]
Shuffle = Callable[[list[int], Rand], None]
OnRound = Callable[[list[int], list[int], list[int], list[int], int, int, list[int]], object]

POINTS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0)
"""GOLF-SCORE-1 (BASIC) by rank: index 1 = ace ... 13 = king."""

PAIR_POINTS = tuple(
    tuple(0 if x == y else POINTS[x] + POINTS[y] for y in range(14)) for x in range(14)
)
"""GOLF6-SCORE-1 for a column: ``PAIR_POINTS[top][bottom]``, 0 for a pair."""

FULL = 0b111111
"""Face-up mask of a grid with no face-down card."""

SETUP_MASKS = tuple(tuple((1 << a) | (1 << b) for b in range(6) if b != a) for a in range(6))
"""``SETUP_MASKS[a][k]``: the face-up mask after flipping *a* (index *a* of positions 0-5),
then the *k*-th position still face down (ascending)."""


def deck_count(players: int) -> int:
    """GOLF-DECK-1/3 for GOLF6: 1 deck for 2-3 players, 2 for 4-7, 3 for 8+, then more
    while the stock after the deal and the upcard would hold fewer cards than players."""
    decks = 1 if players < 4 else 2 if players < 8 else 3
    while 52 * decks - 6 * players - 1 < players:
        decks += 1
    return decks


def _deal_getters(players: int) -> tuple[Callable[[list[int]], tuple[int, ...]], ...]:
    """Per first seat: ``itemgetter`` of the grid cells (seat *s*, position *p* at
    ``6 * s + p``) from the top of the stock, dealt one card at a time from the
    dealer's left, position 0 first (the *k*-th card off the top is ``stock[-1 - k]``)."""
    getters = []
    n = 6 * players
    for first in range(players):
        off_top = [0] * n
        for k in range(n):
            off_top[6 * ((first + k % players) % players) + k // players] = k
        getters.append(itemgetter(*(-1 - k for k in off_top)))
    return tuple(getters)


_SCORERS: dict[int, Callable[[list[int], list[int]], list[int]]] = {}

_TABLES: dict[
    int, tuple[tuple[Callable[[list[int]], tuple[int, ...]], ...], tuple[tuple[int, ...], ...]]
] = {}
"""Per seat count: the deal's getters and the turn orders by first seat (built once)."""


def _scorer(players: int) -> Callable[[list[int], list[int]], list[int]]:
    """GOLF6-SCORE-1 for *players* grids, straight-line: ``score(cells, totals)`` returns
    the round's scores and adds them to *totals*; a column scores
    ``PAIR_POINTS[top][bottom]`` (0 for a pair). Generated once per seat count."""
    f = _SCORERS.get(players)
    if f is None:
        n = 6 * players
        lines = ["def score(cells, totals, pt=pt):"]
        lines.append("    " + ", ".join(f"c{i}" for i in range(n)) + ", = cells")
        for s in range(players):
            b = 6 * s
            lines.append(
                f"    s{s} = pt[c{b}][c{b + 3}] + pt[c{b + 1}][c{b + 4}] + pt[c{b + 2}][c{b + 5}]"
            )
            lines.append(f"    totals[{s}] += s{s}")
        lines.append("    return [" + ", ".join(f"s{s}" for s in range(players)) + "]")
        ns: dict[str, object] = {"pt": PAIR_POINTS}
        exec("\n".join(lines), ns)  # generated from ints only
        f = _SCORERS[players] = cast(Callable[[list[int], list[int]], list[int]], ns["score"])
    return f


_UNROLLED: dict[int, Callable[[list[int], Rand], None]] = {}


def _unrolled(n: int) -> Callable[[list[int], Rand], None]:
    """A straight-line Fisher-Yates for *n* items: step *i*, from ``n - 1`` down to 1,
    swaps ``a[i]`` with ``a[trunc(random() * (i + 1))]``, one line per step with ``i`` and
    ``float(i + 1)`` as constants (faster than the loop: the yardstick as a careful
    engineer writes it, found by an audit of 2026-12-04)."""
    lines = ["def shuffle(a, rand, trunc=trunc):"]  # trunc is float.__trunc__ here
    lines += [
        f"    j = trunc(rand() * {float(i + 1)!r}); a[{i}], a[j] = a[j], a[{i}]"
        for i in range(n - 1, 0, -1)
    ]
    lines.append("    return None")
    ns: dict[str, object] = {"trunc": float.__trunc__}  # a method descriptor: specialised call
    exec("\n".join(lines), ns)  # generated from ints only
    return cast(Callable[[list[int], Rand], None], ns["shuffle"])


def _shuffle(
    items: list[int],
    rand: Rand,
    cache: dict[int, Callable[[list[int], Rand], None]] = _UNROLLED,
) -> None:
    """Fisher-Yates over ``random()``, as cardcore's shuffle, unrolled per length."""
    n = len(items)
    f = cache.get(n)
    if f is None:
        f = cache[n] = _unrolled(n)
    f(items, rand)


def play_match(
    rand: Rand,
    players: int = 4,
    rounds: int = 9,
    shuffle: Shuffle = _shuffle,
    on_round: OnRound | None = None,
) -> tuple[int, list[int]]:
    """Play one random match of GOLF6; return (decisions made, total per seat).

    :param rand: ``random()`` of the generator for the players' choices (and, with the
        default *shuffle*, for chance too).
    :param players: Seats.
    :param rounds: Rounds in the match.
    :param shuffle: ``shuffle(cards, rand)`` shuffles a list of ranks in place; called
        for the whole deck before each deal and for the discards of a rebuilt stock.
    :param on_round: Called after each round is scored with ``(cells, up, stock,
        discard, turns, ended_by_stock, scores)``: the grids (seat *s*, position *p* at
        ``6 * s + p``), the face-up masks (seat *s* at ``up[6 * s]``; as they stood when the
        first grid was complete: the final turns leave them, since nothing reads them), the piles, the
        turns played, 1 if an empty stock ended the round, and the round's scores.
    :returns: How many decisions the players made, and the match totals.
    """
    trunc = float.__trunc__  # called directly: CPython 3.11 specialises the method descriptor
    score = _scorer(players)
    bits = (1, 2, 4, 8, 16, 32)
    setup_masks = SETUP_MASKS
    n_cells = 6 * players
    tables = _TABLES.get(players)
    if tables is None:  # built once per seat count (25 µs: a tenth of a match)
        tables = _TABLES[players] = (
            _deal_getters(players),
            tuple(
                tuple(range(6 * f, n_cells, 6)) + tuple(range(0, 6 * f, 6)) for f in range(players)
            ),
        )
    deals, turn_orders = tables
    stock = list(range(1, 14)) * (4 * deck_count(players))  # the engine's deck order
    up = [0] * n_cells  # face-up mask of the seat whose grid starts at that cell
    totals = [0] * players
    last = players - 1
    decisions = 0
    first = 0  # GOLF-DEAL-3: the last seat deals, seat 0 starts
    shuffle(stock, rand)
    for round_no in range(rounds):
        # GOLF-DEAL-1/2: six cards each, one at a time from the dealer's left; the upcard
        cells = list(deals[first](stock))
        del stock[-n_cells:]
        pop = stock.pop
        discard = [pop()]
        push = discard.append
        # GOLF6-SETUP-2: two flips each, from the dealer's left
        order = turn_orders[first]
        for base in order:
            up[base] = setup_masks[trunc(rand() * 6.0)][trunc(rand() * 5.0)]
        ended_by_stock = 0
        turns = 0
        seats = enumerate(cycle(order), 1)
        for turns, base in seats:  # noqa: B007 (read after the loop) until a grid is complete
            if rand() < 0.5:  # draw
                if not stock:
                    if len(discard) <= 1:
                        ended_by_stock = 1  # GOLF-STOCK-1
                        break
                    top = discard.pop()
                    stock = discard
                    shuffle(stock, rand)
                    discard = [top]
                    push = discard.append
                    pop = stock.pop
                k = trunc(rand() * 7.0)
                if k == 6:
                    push(pop())  # discard the drawn card
                    continue
                i = base + k
                push(cells[i])
                cells[i] = pop()
            else:  # take: the top discard must replace a grid card (GOLF-TURN-3)
                k = trunc(rand() * 6.0)
                i = base + k
                held = discard[-1]
                discard[-1] = cells[i]
                cells[i] = held
            u = up[base] | bits[k]
            up[base] = u
            if u == 63:
                break
        if not ended_by_stock:
            # GOLF6-END-1: one more turn each; no face-up state matters any more
            for turns, base in islice(seats, last):  # noqa: B007 (read after the loop)
                if rand() < 0.5:  # draw
                    if not stock:
                        if len(discard) <= 1:
                            ended_by_stock = 1  # GOLF-STOCK-1
                            break
                        top = discard.pop()
                        stock = discard
                        shuffle(stock, rand)
                        discard = [top]
                        push = discard.append
                        pop = stock.pop
                    k = trunc(rand() * 7.0)
                    if k == 6:
                        push(pop())
                        continue
                    i = base + k
                    push(cells[i])
                    cells[i] = pop()
                else:
                    i = base + trunc(rand() * 6.0)
                    held = discard[-1]
                    discard[-1] = cells[i]
                    cells[i] = held
        decisions += 2 * (players + turns) - ended_by_stock
        scores = score(cells, totals)  # GOLF6-SCORE-1, straight-line per seat count
        if on_round is not None:
            on_round(cells, up, stock, discard, turns, ended_by_stock, scores)
        first += 1
        if first == players:
            first = 0
        if round_no < rounds - 1:  # gather in the engine's zone order, shuffle, deal left
            stock.extend(discard)
            stock.extend(cells)
            shuffle(stock, rand)
    return decisions, totals


def play_game(rnd: random.Random, players: int = 4, rounds: int = 9) -> int:
    """Play one random match of GOLF6 and return the number of decisions made.

    :param rnd: The generator for both chance (shuffles) and the players' choices.
    :param players: Seats.
    :param rounds: Rounds in the match.
    :returns: How many decisions the players made.
    """
    return play_match(rnd.random, players, rounds)[0]


def measure(seconds: float = 1.0, seed: int = 1, players: int = 4) -> tuple[float, float]:
    """Play whole matches for about *seconds* of CPU time; return (games/s, decisions/s)."""
    rand = random.Random(seed).random
    clock = time.process_time
    games = decisions = 0
    start = clock()
    end = start + seconds
    now = start
    while now < end or games == 0:
        decisions += play_match(rand, players)[0]
        games += 1
        now = clock()
    elapsed = now - start
    return games / elapsed, decisions / elapsed


# -- checks ----------------------------------------------------------------------------------


def _expect(ok: bool, msg: str) -> None:
    if not ok:
        raise AssertionError(msg)


def _score(grid: list[int]) -> int:
    """GOLF6-SCORE-1 written plainly, to check the loop's inlined scoring."""
    return sum(
        0 if grid[c] == grid[c + 3] else POINTS[grid[c]] + POINTS[grid[c + 3]] for c in range(3)
    )


class _RoundChecker:
    """The ``on_round`` callback of :func:`self_check`: checks one round, keeps its figures."""

    def __init__(self, where: str, deck: Counter[int], players: int) -> None:
        self.where = where
        self.deck = deck
        self.players = players
        self.rows: list[tuple[int, list[int]]] = []  # (decisions, scores) per round

    def __call__(
        self,
        cells: list[int],
        up: list[int],
        stock: list[int],
        discard: list[int],
        turns: int,
        ended_by_stock: int,
        scores: list[int],
    ) -> None:
        players = self.players
        where = f"{self.where}, round {len(self.rows) + 1}"
        _expect(len(cells) == 6 * players, f"{where}: {len(cells)} grid cells")
        _expect(Counter(stock + discard + cells) == self.deck, f"{where}: cards lost or doubled")
        _expect(len(discard) >= 1, f"{where}: empty discard pile")
        masks = up[::6]
        _expect(all(0 <= m <= FULL for m in masks), f"{where}: bad face-up mask")
        _expect(all(m.bit_count() >= 2 for m in masks), f"{where}: fewer than two flips")
        if not ended_by_stock:
            _expect(FULL in masks, f"{where}: the round ended with no complete grid")
            _expect(turns >= players, f"{where}: fewer turns than the final turns")
        for s in range(players):
            _expect(scores[s] == _score(cells[6 * s : 6 * s + 6]), f"{where}: seat {s} score")
        self.rows.append((2 * players + 2 * turns - ended_by_stock, list(scores)))


def self_check(
    games: int = 200, seed: int = 1, players: tuple[int, ...] = (3, 4), rounds: int = 9
) -> dict[str, int]:
    """Play *games* seeded matches per seat count and check the loop's invariants.

    After every round: every card of the deck is in exactly one place (the multiset of
    ranks in the stock, the discard pile and the grids is the deck's); every seat
    flipped two cards; a round that did not end on an empty stock has a complete grid
    and at least the final turns; the scores are those of a plain re-count; the
    round's decisions are ``2 * players`` flips plus two per turn (one fewer if a draw
    met an empty stock). Over a match the round decisions add up to what
    :func:`play_match` returns and the round scores to its totals, and the seed
    replays the same match. Three players rebuild the stock now and then, so the
    default covers that path too. Needs no cardcore: a test can call it.

    :returns: ``matches``, ``decisions`` and ``rebuilt_stocks`` (mid-round shuffles) seen.
    :raises AssertionError: An invariant does not hold.
    """
    out = {"matches": 0, "decisions": 0, "rebuilt_stocks": 0}
    shuffles = [0]

    def counting_shuffle(items: list[int], rand: Rand) -> None:
        shuffles[0] += 1
        _shuffle(items, rand)

    for n in players:
        deck = Counter(list(range(1, 14)) * (4 * deck_count(n)))
        for g in range(games):
            check = _RoundChecker(f"{n} players, seed {seed + g}", deck, n)
            shuffles[0] = 0
            rand = random.Random(seed + g).random
            decisions, totals = play_match(rand, n, rounds, counting_shuffle, check)
            where = check.where
            _expect(len(check.rows) == rounds, f"{where}: {len(check.rows)} rounds")
            _expect(decisions == sum(d for d, _ in check.rows), f"{where}: decisions differ")
            for s in range(n):
                _expect(totals[s] == sum(sc[s] for _, sc in check.rows), f"{where}: totals")
            again = play_match(random.Random(seed + g).random, n, rounds)
            _expect(again == (decisions, totals), f"{where}: the seed does not replay")
            out["matches"] += 1
            out["decisions"] += decisions
            out["rebuilt_stocks"] += shuffles[0] - rounds
    return out


def _engine_shuffle(seed: int) -> Shuffle:
    """The engine's chance for game *seed*: draw 0 shuffles the deck (bottom first, so the
    list is reversed), each later shuffle takes the next draw from 2 on."""
    from cardcore.deck import Chance

    counter = [0]

    def shuffle(items: list[int], rand: Rand) -> None:
        draw = counter[0]
        counter[0] = 2 if draw == 0 else draw + 1
        Chance(seed, draw).shuffle(items)
        if draw == 0:
            items.reverse()

    return shuffle


def check_against_engine(games: int = 100, seed: int = 0, players: int = 4) -> int:
    """Play *games* matches through cardcore and through the bare loop in lockstep.

    Match *i* is ``new_game("golf", players, options={"layout": 6}, seed=seed + i)``
    played by ``run.py``'s random driver with ``random.Random(seed + i)``; the bare
    loop gets the same choice stream and the engine's shuffles. Both must make the
    same number of decisions and end with the same totals. Needs cardcore.

    :returns: The decisions checked.
    :raises AssertionError: A match differs.
    """
    import cardcore

    total = 0
    for i in range(games):
        s = seed + i
        game = cardcore.new_game("golf", players, options={"layout": 6}, seed=s)
        rand = random.Random(s).random
        legal_actions = game.legal_actions
        apply = game.apply
        while not game.is_over:
            legal = legal_actions(game.to_act[0])
            apply(legal[int(rand() * len(legal))])
        result = game.result
        _expect(result is not None, f"seed {s}: no result")
        assert result is not None
        engine = (game.version, [int(x) for x in result.scores])
        bare = play_match(random.Random(s).random, players, 9, shuffle=_engine_shuffle(s))
        _expect(bare == engine, f"seed {s}: engine {engine}, bare {bare}")
        total += bare[0]
    return total


# -- command line ----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Print the bare loop's speed (median of rounds), or run the checks."""
    parser = argparse.ArgumentParser(description="bare GOLF6 random playout")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (median reported)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per round")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--check", action="store_true", help="self-check, then lockstep vs cardcore"
    )
    args = parser.parse_args(argv)
    if args.check:
        seen = self_check(players=(3, args.players))
        print(
            f"self-check: {seen['matches']} matches, {seen['decisions']:,} decisions,"
            f" {seen['rebuilt_stocks']} rebuilt stocks, invariants hold"
        )
        n = check_against_engine(players=args.players)
        print(f"lockstep with cardcore: {n:,} decisions, every match identical")
        return 0
    measure(0.2, players=args.players)  # warm up
    rows = [measure(args.seconds, seed=r + 1, players=args.players) for r in range(args.rounds)]
    for r, (gps, dps) in enumerate(rows):
        print(f"round {r + 1}: {gps:,.0f} games/s, {dps:,.0f} decisions/s")
    rates = sorted(d for _, d in rows)
    print(
        f"bare GOLF6, {args.players} players: median {statistics.median(rates):,.0f} decisions/s"
        f" (range {rates[0]:,.0f}-{rates[-1]:,.0f}), {statistics.median(g for g, _ in rows):,.0f}"
        f" games/s, {args.rounds} rounds of {args.seconds:g} s CPU"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
