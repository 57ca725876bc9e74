"""A bare, plain-Python random playout of Tonk: the yardstick for the engine.

No cardcore, no classes, no events: a card is an int ``4 * (rank - 1) + suit``
(suits S-H-D-C), so sorting by int sorts by rank then suit. The rules and the
decisions are those the engine's random agent faces in
``cardcore.new_game("tonk", 3)`` with default options (one hand, stake 1, the
default natural 49/50 rule):

* the first dealer is cut for (TONK-DEALER-1): one card each from a separately
  shuffled pack, ties cut again;
* five cards each from the dealer's left, one upcard, the rest is the stock;
* a dealt total of 49 or 50 is a natural (2 from each; two naturals void the hand);
* a turn that begins with an empty stock ends the hand (TONK-STOCK-1/2);
* a turn starts with ``drop``, ``draw`` or ``take`` (if there is a discard);
* after drawing: new spreads (books, then runs), hits, discards -- the taken
  discard may not be discarded (TONK-TURN-4), and a spread or hit that would leave
  only the taken card in hand is not offered (TONK-TURN-5);
* an empty hand after a spread or hit tonks out (2 from each); after the
  discard it is out (1 from each); drops are settled by TONK-DROP-1..5.

Every choice, even among one action, is one *decision*, drawn the way a random
agent draws: ``legal[int(random() * len(legal))]``. The legal set is built the
same way the engine builds it (the same candidates, the same order).

Run ``python benchmarks/bare_tonk.py`` for decisions per second.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from itertools import combinations

__all__ = ["measure", "play_game"]

VALUE = tuple(min(c // 4 + 1, 10) for c in range(52))
"""TONK-VAL-1 by card int: ace 1, two to ten face value, court cards 10."""

DROP = ("drop",)
DRAW = ("draw",)
TAKE = ("take",)
START_WITH_DISCARD = (DROP, DRAW, TAKE)
START_NO_DISCARD = (DROP, DRAW)


def _shuffle(items: list[int], rand: Callable[[], float]) -> None:
    """Fisher-Yates over ``random()`` (as cardcore's shuffle)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]


def _spreads(cards: list[int]) -> list[tuple[int, ...]]:
    """Spreads among sorted *cards*: books by rank (threes, then the four), then runs by suit."""
    out: list[tuple[int, ...]] = []
    n = len(cards)
    if n < 3:
        return out
    i = 0
    while i < n:
        r = cards[i] >> 2
        j = i + 1
        while j < n and cards[j] >> 2 == r:
            j += 1
        if j - i >= 3:
            group = cards[i:j]
            out.extend(combinations(group, 3))
            if j - i == 4:
                out.append(tuple(group))
        i = j
    for suit in range(4):
        group = [c for c in cards if c & 3 == suit]
        m = len(group)
        if m < 3:
            continue
        start = 0
        while start < m:
            end = start
            while end + 1 < m and group[end + 1] == group[end] + 4:
                end += 1
            for lo in range(start, end - 1):
                for hi in range(lo + 2, end + 1):
                    out.append(tuple(group[lo : hi + 1]))
            start = end + 1
    return out


def _targets(meld: list[int]) -> tuple[int, ...]:
    """Cards that may hit *meld* (sorted): the rest of a book of three, or a run's ends."""
    low = meld[0]
    high = meld[-1]
    if low >> 2 == high >> 2:  # a book
        if len(meld) >= 4:
            return ()
        base = low & ~3
        return (base, base + 1, base + 2, base + 3)
    out = []
    if low >= 4:
        out.append(low - 4)
    if high + 4 < 52:
        out.append(high + 4)
    return tuple(out)


def _lowest_collect(out: list[int], totals: list[int], eligible: list[int]) -> None:
    low = min(totals[i] for i in eligible)
    winners = [i for i in eligible if totals[i] == low]
    for p in eligible:
        if totals[p] != low:
            out[p] -= len(winners)
            for w in winners:
                out[w] += 1


def _from_each(winner: int, players: int, amount: int) -> list[int]:
    out = [-amount] * players
    out[winner] = amount * (players - 1)
    return out


def _drop(dropper: int, totals: list[int]) -> list[int]:
    n = len(totals)
    mine = totals[dropper]
    if all(t > mine for i, t in enumerate(totals) if i != dropper):
        return _from_each(dropper, n, 1)
    out = [0] * n
    others = [i for i in range(n) if i != dropper]
    for i in others:
        if totals[i] <= mine:
            out[i] += 2
            out[dropper] -= 2
    _lowest_collect(out, totals, others)
    return out


def play_game(rnd: random.Random, players: int = 3) -> tuple[int, list[int]]:
    """Play one random hand of Tonk; return (decisions made, payouts per seat).

    :param rnd: The generator for chance (the cut, the shuffle) and the players' choices.
    :param players: Seats (2 to 4).
    """
    rand = rnd.random
    # TONK-DEALER-1: the cut, a partial Fisher-Yates over a separate pack
    pack = list(range(52))
    contenders = list(range(players))
    pos = 0
    while True:
        best = -1
        ranks = {}
        for s in contenders:
            j = pos + int(rand() * (52 - pos))
            pack[pos], pack[j] = pack[j], pack[pos]
            r = pack[pos] >> 2
            pos += 1
            ranks[s] = r
            if r > best:
                best = r
        contenders = [s for s in contenders if ranks[s] == best]
        if len(contenders) == 1:
            break
    dealer = contenders[0]
    stock = list(range(52))
    _shuffle(stock, rand)
    first = (dealer + 1) % players
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(5):
        for k in range(players):
            hands[(first + k) % players].append(stock.pop())
    discard = [stock.pop()]
    # TONK-49-1/2: naturals
    naturals = [s for s in range(players) if sum(VALUE[c] for c in hands[s]) in (49, 50)]
    if naturals:
        if len(naturals) > 1:
            return 0, [0] * players
        return 0, _from_each(naturals[0], players, 2)
    melds: list[list[int]] = []
    targets: list[tuple[int, ...]] = []
    decisions = 0
    turn = first
    while True:
        if not stock:  # TONK-STOCK-1/2
            totals = [sum(VALUE[c] for c in h) for h in hands]
            out = [0] * players
            _lowest_collect(out, totals, list(range(players)))
            return decisions, out
        legal = START_WITH_DISCARD if discard else START_NO_DISCARD
        choice = legal[int(rand() * len(legal))]
        decisions += 1
        hand = hands[turn]
        if choice is DROP:
            return decisions, _drop(turn, [sum(VALUE[c] for c in h) for h in hands])
        if choice is DRAW:
            hand.append(stock.pop())
            taken = -1
        else:
            taken = discard.pop()
            hand.append(taken)
        while True:
            cards = sorted(hand)
            n = len(cards)
            strand = taken >= 0 and taken in cards  # TONK-TURN-5
            acts: list[tuple[object, ...]] = []
            for sp in _spreads(cards):
                if strand and n - len(sp) == 1 and taken not in sp:
                    continue
                acts.append(("spread", sp))
            for num, tg in enumerate(targets):
                for x in tg:
                    if x in cards:
                        if strand and n == 2 and x != taken:
                            continue
                        acts.append(("hit", num, x))
            for x in cards:
                if x != taken:  # TONK-TURN-4
                    acts.append(("discard", x))
            act = acts[int(rand() * len(acts))]
            decisions += 1
            verb = act[0]
            if verb == "discard":
                card = act[1]
                assert isinstance(card, int)
                hand.remove(card)
                discard.append(card)
                if not hand:  # TONK-OUT-2
                    return decisions, _from_each(turn, players, 1)
                break
            if verb == "spread":
                laid = act[1]
                assert isinstance(laid, tuple)
                for c in laid:
                    hand.remove(c)
                meld = list(laid)
                melds.append(meld)
                targets.append(_targets(meld))
            else:
                number = act[1]
                hitter = act[2]
                assert isinstance(number, int) and isinstance(hitter, int)
                hand.remove(hitter)
                meld = melds[number]
                meld.append(hitter)
                meld.sort()
                targets[number] = _targets(meld)
            if not hand:  # TONK-OUT-1
                return decisions, _from_each(turn, players, 2)
        turn = (turn + 1) % players


def measure(seconds: float = 1.0, seed: int = 1, players: int = 3) -> tuple[float, float]:
    """Play whole games for about *seconds*; return (games per second, decisions per second)."""
    rnd = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    end = start + seconds
    now = start
    while now < end or games == 0:
        decisions += play_game(rnd, players)[0]
        games += 1
        now = time.perf_counter()
    elapsed = now - start
    return games / elapsed, decisions / elapsed


def main(argv: list[str] | None = None) -> int:
    """Print the bare loop's speed."""
    del argv
    gps, dps = measure(2.0)
    print(f"bare Tonk, 3 players: {gps:,.0f} games/s, {dps:,.0f} decisions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
