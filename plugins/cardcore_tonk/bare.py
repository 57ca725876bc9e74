"""A bare plain-Python Tonk loop: the yardstick for the engine's speed.

Random play of whole hands with the base rules (drop, draw or take, spreads,
hits, discard; TONK-TURN-4/5; stock exhaustion), cards as ints, no engine, no
events, no hooks. Every choice among the legal actions is one *decision*, as
with ``Game.legal_actions`` -> ``Game.apply``. ``python -m cardcore_tonk.bare``
prints decisions per second.
"""

from __future__ import annotations

import random
import sys
import time

__all__ = ["play_hands"]

_VALUE = [min(r, 10) for r in range(14)]


def _spreads(hand: list[int]) -> list[tuple[int, ...]]:
    """List the spreads in *hand* (card = 4 * (rank - 1) + suit), books then runs."""
    cards = sorted(hand)
    out: list[tuple[int, ...]] = []
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_rank.setdefault(c >> 2, []).append(c)
        by_suit.setdefault(c & 3, []).append(c)
    for group in by_rank.values():
        n = len(group)
        if n >= 3:
            for i in range(n):
                for j in range(i + 1, n):
                    for k in range(j + 1, n):
                        out.append((group[i], group[j], group[k]))
            if n == 4:
                out.append(tuple(group))
    for group in by_suit.values():
        n = len(group)
        if n < 3:
            continue
        start = 0
        while start < n:
            end = start
            while end + 1 < n and (group[end + 1] >> 2) == (group[end] >> 2) + 1:
                end += 1
            for lo in range(start, end - 1):
                for hi in range(lo + 2, end + 1):
                    out.append(tuple(group[lo : hi + 1]))
            start = end + 1
    return out


def _hit(meld: tuple[int, int, int, int], card: int) -> tuple[int, int, int, int] | None:
    kind, suit, low, high = meld
    r = card >> 2
    if kind == 0:
        return (0, suit, low, high + 1) if r == low and high < 4 else None
    if card & 3 != suit:
        return None
    if r == low - 1:
        return (1, suit, r, high)
    if r == high + 1:
        return (1, suit, low, r)
    return None


def _meld(cards: tuple[int, ...]) -> tuple[int, int, int, int]:
    if cards[0] >> 2 == cards[-1] >> 2:
        return (0, -1, cards[0] >> 2, len(cards))  # book: rank, size
    return (1, cards[0] & 3, cards[0] >> 2, cards[-1] >> 2)


def play_hands(hands: int, players: int = 3, seed: int = 0) -> int:
    """Play *hands* random hands and return the number of decisions made.

    :param hands: Number of hands.
    :param players: Seats at the table.
    :param seed: Seed of the random generator.
    :returns: Decisions (legal-action choices) made.
    """
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    balances = [0] * players
    dealer = 0
    for h in range(hands):
        if h:
            decisions += 1  # the next dealer's "deal", as in the engine's sessions
        deck = list(range(52))
        rng.shuffle(deck)
        hs: list[list[int]] = [[] for _ in range(players)]
        for _r in range(5):
            for i in range(1, players + 1):
                hs[(dealer + i) % players].append(deck.pop())
        discard = [deck.pop()]
        melds: list[tuple[int, int, int, int]] = []
        turn = (dealer + 1) % players
        while True:
            if not deck:
                _settle(hs, balances, None)
                break
            hand = hs[turn]
            start = ["drop", "draw", "take"] if discard else ["drop", "draw"]
            a = choice(start)
            decisions += 1
            if a == "drop":
                _settle(hs, balances, turn)
                break
            taken = -1
            if a == "draw":
                hand.append(deck.pop())
            else:
                taken = discard.pop()
                hand.append(taken)
            out = False
            while True:
                acts: list[tuple[int, object]] = []
                n = len(hand)
                strand = taken >= 0 and taken in hand
                for sp in _spreads(hand):
                    if strand and n - len(sp) == 1 and taken not in sp:
                        continue
                    acts.append((0, sp))
                for i, m in enumerate(melds):
                    for c in sorted(hand):
                        if _hit(m, c) is not None and not (strand and n == 2 and c != taken):
                            acts.append((1, (i, c)))
                for c in sorted(hand):
                    if c != taken:
                        acts.append((2, c))
                kind, arg = choice(acts)
                decisions += 1
                if kind == 0:
                    assert isinstance(arg, tuple)
                    for c in arg:
                        hand.remove(c)
                    melds.append(_meld(arg))
                elif kind == 1:
                    assert isinstance(arg, tuple)
                    i, c = arg
                    hand.remove(c)
                    grown = _hit(melds[i], c)
                    assert grown is not None
                    melds[i] = grown
                else:
                    assert isinstance(arg, int)
                    hand.remove(arg)
                    discard.append(arg)
                    if not hand:
                        out = True
                    break
                if not hand:
                    out = True
                    break
            if out:
                for i in range(players):
                    balances[i] -= 1
                balances[turn] += players
                break
            turn = (turn + 1) % players
        dealer = (dealer + 1) % players
    return decisions


def _settle(hands: list[list[int]], balances: list[int], dropper: int | None) -> None:
    totals = [sum(_VALUE[(c >> 2) + 1] for c in h) for h in hands]
    low = min(totals)
    for i, t in enumerate(totals):
        balances[i] += 1 if t == low else -1
    if dropper is not None:
        balances[dropper] -= 1


def main(argv: list[str] | None = None) -> None:
    """Print the bare loop's decisions per second (``[hands] [seed]``)."""
    args = sys.argv[1:] if argv is None else argv
    hands = int(args[0]) if args else 20000
    seed = int(args[1]) if len(args) > 1 else 1
    t0 = time.perf_counter()
    n = play_hands(hands, 3, seed)
    dt = time.perf_counter() - t0
    print(f"bare tonk: {hands} hands, {n} decisions, {n / dt:,.0f} decisions/s")


if __name__ == "__main__":
    main()
