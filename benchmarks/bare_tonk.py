"""A bare, plain-Python random playout of Tonk: the yardstick for the engine.

Tuned again after an audit of 2026-12-06 that beat the earlier never-drop loop by ~25% with
the same rules, decisions and ``random()`` draws: a hand's mask, per-rank counts and total
live in one int, the common turn (no spread or hit possible) runs straight through, and
spreads and hits are counted rather than listed unless one is chosen.

No cardcore, no classes, no events: a card is an int ``4 * (rank - 1) + suit``
(suits S-H-D-C), so sorting by int sorts by rank then suit. A hand is a sorted
list kept sorted (``bisect.insort``) beside one int kept up to date with it: a
52-bit mask of its cards, a per-rank count (one nibble per rank) and the hand's
total, each card adding or taking away one precomputed int, so the
common decision -- no spread, no hit, only discards -- is told apart with a few
integer operations and no legal-action list is built: a choice among *n* legal
actions is ``float.__trunc__(random() * n)`` (``int`` of a positive float, only
faster), the index the engine's random driver takes in its legal tuple, and the
action at that index is worked out from the counts. Hand totals are kept as
cards move. The rules and the decisions are those of random play through
``cardcore.new_game("tonk", 3)`` with default options (one hand, stake 1, the
default natural 49/50 rule), as ``benchmarks/run.py`` drives it::

    legal = game.legal_actions(game.to_act[0])
    game.apply(legal[int(rand() * len(legal))])

Random play takes every legal action, ``drop`` included, so most hands are short.

* the first dealer is cut for (TONK-DEALER-1): one card each from a separately
  shuffled pack (a partial Fisher-Yates), ties cut again;
* five cards each, one at a time from the dealer's left, one upcard, the rest
  is the stock (TONK-DEAL-1/2);
* a dealt total of 49 or 50 is a natural: 2 from each; two naturals void the
  hand (TONK-49-1/2); either way no decision is made;
* a turn that begins with an empty stock ends the hand, the lowest total
  collecting (TONK-STOCK-1/2);
* a turn starts with ``drop``, ``draw`` or ``take`` (the last only if there is
  a discard), in that order;
* after drawing, the legal actions are, in this order: new spreads (books by
  rank -- three-card combinations, then the four -- then runs by suit, lowest
  card, length), hits (by spread number, then card), discards (ascending). The
  taken discard may not be discarded (TONK-TURN-4), and a spread or hit that
  would leave only the taken card in hand is not offered unless that card could
  then hit a spread (TONK-TURN-5);
* an empty hand after a spread or hit tonks out (2 from each, TONK-OUT-1); after
  the discard it is out (1 from each, TONK-OUT-2); drops are settled by
  TONK-DROP-1..5.

Every choice, even among one action, is one *decision*, exactly as one
``Game.legal_actions`` -> ``Game.apply`` round trip is one for the engine
(``game.version`` at the end). The chance work is the engine's too: a full
Fisher-Yates shuffle over ``random()`` of the deck for every hand.

:func:`check_against_engine` proves the claim card for card: fed the engine's
shuffle and cut (from the game seed, as ``cardcore.Chance`` derives
them) and the same choice stream, the bare loop must end every hand with the
engine's decision count and payouts. :func:`self_check` checks the loop's own
invariants and needs no cardcore.

Run from the repository root::

    python benchmarks/bare_tonk.py                     # 7 rounds of ~1 s, median decisions/s
    python benchmarks/bare_tonk.py --rounds 9 --seconds 2
    python benchmarks/bare_tonk.py --no-drop           # players who never drop (long hands)
    python benchmarks/bare_tonk.py --check             # self-check, then lockstep vs the engine

Rounds are timed with ``time.process_time`` (CPU time of this process), as in
``benchmarks/run.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from bisect import insort
from collections.abc import Callable
from itertools import combinations, cycle, pairwise, product
from typing import cast

__all__ = ["check_against_engine", "main", "measure", "play_game", "play_hand", "self_check"]

Rand = Callable[[], float]
Shuffle = Callable[[list[int], Rand], None]
OnEnd = Callable[[str, list[list[int]], list[int], list[int], list[list[int]]], object]

VALUE = tuple(min(c // 4 + 1, 10) for c in range(52))
"""TONK-VAL-1 by card int: ace 1, two to ten face value, court cards 10."""

BIT = tuple(1 << c for c in range(52))
"""The card's bit in a hand mask."""

RANK_ONE = tuple(1 << (4 * (c >> 2)) for c in range(52))
"""The card's one in a hand's per-rank count (a nibble per rank)."""

FIVES = sum(5 << (4 * r) for r in range(13))
EIGHTS = sum(8 << (4 * r) for r in range(13))
FOURS = sum(4 << (4 * r) for r in range(13))

F52 = FIVES << 52
E52 = EIGHTS << 52
FOURS52 = FOURS << 52
"""The per-rank tests above, for the counts held above the mask in a hand's state (BOTH)."""

LOW52 = (1 << 52) - 1
"""A hand state's mask bits."""

LOW44 = (1 << 44) - 1
"""Three in a row of a suit can start no higher than card 43."""

ORDERS = {
    n: tuple(tuple(range(f, n)) + tuple(range(f)) for f in range(n)) for n in range(2, 5)
}
"""Per seat count and first seat: the seats in turn order."""

BOTH = tuple(BIT[c] | RANK_ONE[c] << 52 | VALUE[c] << 104 for c in range(52))
"""A hand's state as one int: its mask (bits 0-51), its per-rank counts (a nibble per rank,
from bit 52) and its total (from bit 104); a card joins with ``+ BOTH[c]`` and leaves with
``- BOTH[c]``, so the one addition keeps all three. ``(counts + FIVES) & EIGHTS`` is not
zero when some rank has three or four cards."""

PACK = list(range(52))
"""The cut's pack, copied for every cut."""

DECK = tuple(4 * r + s for s in range(4) for r in range(13))
"""The engine's deck order (``standard_52()``: suits S-H-D-C, ace to king) as card ints."""


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


def _spreads(cards: list[int]) -> list[tuple[int, ...]]:
    """Spreads among sorted *cards*, in the engine's order: books by rank (threes, then
    the four), then runs by suit, lowest card, length."""
    out: list[tuple[int, ...]] = []
    n = len(cards)
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


_BOOKS = tuple(
    tuple(
        (*combinations(g, 3), *((tuple(g),) if len(g) == 4 else ()))
        for g in ([4 * r + s for s in range(4) if pattern >> s & 1] for pattern in range(16))
    )
    for r in range(13)
)
"""Per rank and per 4-bit pattern of its suits held: the books, threes then the four."""

_SUITS = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))
"""The mask of each suit's cards."""

_RUNS = {(c, h): tuple(range(c, h + 1, 4)) for c in range(52) for h in range(c + 8, 52, 4)}
"""The run from card *c* up to card *h* of its suit, as a tuple."""


def _spreads_of(
    m: int,
    c4: int,
    fives: int = FIVES,
    eights: int = EIGHTS,
    books: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = _BOOKS,
    suits: tuple[int, ...] = _SUITS,
    runs: dict[tuple[int, int], tuple[int, ...]] = _RUNS,
    bit: tuple[int, ...] = BIT,
) -> list[tuple[int, ...]]:
    """:func:`_spreads` read off a hand's mask *m* and per-rank counts *c4* (the same list,
    the same order), with no scan of the hand: books from the ranks holding three or four,
    runs from each card that starts three in a row of its suit (the benchmark honesty
    review of 2026-12-18 found the scan made the never-drop yardstick 25% slower)."""
    out: list[tuple[int, ...]] = []
    b = (c4 + fives) & eights
    while b:
        low = b & -b
        b ^= low
        r = (low.bit_length() - 1) >> 2  # bit 4r+3: rank r holds three or four
        out.extend(books[r][m >> (4 * r) & 15])
    x3 = m & (m >> 4) & (m >> 8)
    if x3:
        for sm in suits:
            x = x3 & sm
            while x:
                low = x & -x
                x ^= low
                c = low.bit_length() - 1
                h = c + 8
                while True:
                    out.append(runs[c, h])
                    h += 4
                    if h > 51 or not m & bit[h]:
                        break
    return out


def _run_targets(low: int, high: int) -> int:
    """The mask of the cards that may hit a run from card *low* to card *high*."""
    return (BIT[low - 4] if low >= 4 else 0) | (BIT[high + 4] if high < 48 else 0)


def _new_targets(spread: tuple[int, ...]) -> int:
    """The mask of the cards that may hit a new *spread* (ascending card indices)."""
    if spread[0] >> 2 == spread[-1] >> 2:  # a book: the fourth card may hit it
        return 0 if len(spread) == 4 else 15 << (spread[0] & ~3)
    return _run_targets(spread[0], spread[-1])


def _grown_targets(meld: list[int], x: int) -> int:
    """The mask of the cards that may hit *meld* once card *x* has hit it."""
    if meld[0] >> 2 == meld[-1] >> 2:
        return 0  # a book of four takes nothing
    return _run_targets(min(meld[0], x), max(meld[-1], x))


def _strand_hits(targets: list[int], taken: int, new: int, number: int = -1) -> bool:
    """TONK-TURN-5: whether the taken card, left alone in hand, could hit a spread (spread
    *number*'s targets becoming *new*, or a new spread's being *new*)."""
    if new & BIT[taken]:
        return True
    return any(tg & BIT[taken] for k, tg in enumerate(targets) if k != number)


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


def _drop(dropper: int, ms: list[int]) -> list[int]:
    """TONK-DROP-1..5 from the hands' states, in one pass and no comprehension: the same
    payouts as :func:`_drop_plain`."""
    mine = ms[dropper] >> 104
    n = len(ms)
    low = 999
    nlow = caught = 0
    i = 0
    for st in ms:
        if i != dropper:
            t = st >> 104
            if t <= mine:
                caught += 1
            if t < low:
                low = t
                nlow = 1
            elif t == low:
                nlow += 1
        i += 1  # noqa: SIM113  (a counter: cheaper than enumerate's tuples here)
    if not caught:  # TONK-DROP-2: strictly lowest, 1 from each
        out = [-1] * n
        out[dropper] = n - 1
        return out
    out = [0] * n
    gain = n - 1 - nlow  # each other seat not at the low pays each lowest one 1
    i = 0
    for st in ms:
        if i != dropper:
            t = st >> 104
            v = gain if t == low else -nlow
            if t <= mine:
                v += 2
            out[i] = v
        i += 1  # noqa: SIM113
    out[dropper] = -2 * caught
    return out


def _drop_plain(dropper: int, totals: list[int]) -> list[int]:
    """TONK-DROP-1..5 as the rules read, from the totals: what :func:`_drop` must pay
    (:func:`self_check` compares them over every small combination of totals)."""
    n = len(totals)
    mine = totals[dropper]
    for i in range(n):
        if totals[i] <= mine and i != dropper:
            break
    else:
        return _from_each(dropper, n, 1)  # TONK-DROP-2: strictly lowest
    out = [0] * n
    others = [i for i in range(n) if i != dropper]
    for i in others:
        if totals[i] <= mine:
            out[i] += 2
            out[dropper] -= 2
    _lowest_collect(out, totals, others)
    return out


def _acts(
    m: int,
    c4: int,
    spreadable: object,
    strand: bool,
    n: int,
    taken: int,
    targets: list[int],
    melds: list[list[int]],
) -> list[tuple[int, ...] | int]:
    """The spreads and hits on offer, in the engine's order (the original loop's code)."""
    acts: list[tuple[int, ...] | int] = []
    for sp in _spreads_of(m, c4) if spreadable else ():
        if (
            strand
            and n - len(sp) == 1
            and taken not in sp
            and not _strand_hits(targets, taken, _new_targets(sp))
        ):
            continue  # TONK-TURN-5
        acts.append(sp)
    for number, tg in enumerate(targets):
        hit = tg & m
        while hit:
            low = hit & -hit
            hit ^= low
            x = low.bit_length() - 1
            if strand and n == 2 and x != taken:
                grown = _grown_targets(melds[number], x)
                if not _strand_hits(targets, taken, grown, number):
                    continue  # TONK-TURN-5
            acts.append(64 * number + x)
    return acts


def play_hand(
    rand: Rand,
    players: int = 3,
    shuffle: Shuffle = _shuffle,
    cut_rand: Rand | None = None,
    on_end: OnEnd | None = None,
    drop: bool = True,
) -> tuple[int, list[int]]:
    """Play one random hand of Tonk; return (decisions made, payouts per seat).

    Each hand is one int (:data:`BOTH`: its mask, per-rank counts and total), kept up to
    date by one addition per card; a turn whose hand, after the draw or take, holds no
    spread and no hit (the common case) is played straight through; two decisions are
    counted per turn.
    """
    trunc = float.__trunc__  # a method descriptor: CPython 3.11 specialises the call
    bit = BIT
    both = BOTH
    # TONK-DEALER-1: the cut, a partial Fisher-Yates over a separate pack
    crand = rand if cut_rand is None else cut_rand
    pack = PACK[:]
    contenders: list[int] | range = range(players)
    ranks = [0] * players
    pos = 0
    while True:
        best = -1
        ties = dealer = 0
        for s in contenders:
            j = pos + trunc(crand() * (52 - pos))
            x = pack[j]
            pack[j] = pack[pos]  # pack[pos] is never read again: no need to store x there
            pos += 1
            r = x >> 2
            if r > best:
                best = r
                dealer = s
                ties = 0
            elif r == best:
                ties += 1
            ranks[s] = r
        if not ties:
            break
        contenders = [s for s in contenders if ranks[s] == best]
    first = dealer + 1
    if first == players:
        first = 0
    stock = list(DECK)
    shuffle(stock, rand)
    # TONK-DEAL-1/2: five each from the dealer's left (k-th card off the top: stock[-1 - k])
    hands: list[list[int]] = [[]] * players
    ms = [0] * players  # per seat: the hand's state (BOTH): mask, counts << 52, total << 104
    naturals = 0
    natural = -1
    for j in range(players):
        seat = (first + j) % players
        hand = stock[-1 - j : -1 - j - 5 * players : -players]
        hand.sort()
        hands[seat] = hand
        a, b, c, d, e = hand  # TONK-DEAL-1: five cards
        ms[seat] = st = both[a] + both[b] + both[c] + both[d] + both[e]
        t = st >> 104
        if t == 49 or t == 50:  # TONK-49-1/2: a natural
            naturals += 1
            natural = seat
    del stock[-5 * players :]
    discard = [stock.pop()]
    melds: list[list[int]] = []  # cards of each spread on the table, ascending
    targets: list[int] = []  # per spread: the mask of the cards that may hit it
    hittable = 0  # the union of targets: no card of a hand in it, no hit to offer
    if naturals:  # TONK-49-1: one natural collects 2 from each; TONK-49-2: more void the hand
        pay = [0] * players if naturals > 1 else _from_each(natural, players, 2)
        if on_end is not None:
            on_end("void" if naturals > 1 else "natural", hands, stock, discard, melds)
        return 0, pay
    f52 = F52
    e52 = E52
    fours52 = FOURS52
    low52 = LOW52
    low44 = LOW44
    both = BOTH
    spop = stock.pop
    dpop = discard.pop
    dpush = discard.append
    stock0 = len(stock)
    takes = extra = 0  # decisions: two per draw or take, +1 per spread or hit, -1 a tonk-out
    order = ORDERS.get(players) if players in ORDERS else None
    for seat in cycle(order[first] if order else [*range(first, players), *range(first)]):
        if not stock:  # TONK-STOCK-1/2
            # TONK-STOCK-2: each higher total pays each lowest one
            totals = [st >> 104 for st in ms]
            low = min(totals)
            winners = totals.count(low)
            losers = players - winners
            pay = [losers if t == low else -winners for t in totals]
            reason = "stock-out"
            break
        if drop:
            k = trunc(rand() * (3.0 if discard else 2.0))
        else:  # (draw, take) or (draw): the same draw of random() as trunc(...) + 1
            k = 1 if rand() < 0.5 or not discard else 2
        hand = hands[seat]
        if k == 1:  # draw
            c = spop()
            insort(hand, c)
            mc = ms[seat] + both[c]
            if not ((mc + f52) & e52 or mc & (mc >> 4) & (mc >> 8) & low44 or mc & hittable):
                # the common turn: discards only; the hand keeps at least one card
                c = hand.pop(trunc(rand() * len(hand)))
                ms[seat] = mc - both[c]
                dpush(c)
                continue
            taken = -1
            strand = False
        elif k == 2:  # take
            takes += 1
            c = taken = dpop()
            insort(hand, c)
            mc = ms[seat] + both[c]
            if not ((mc + f52) & e52 or mc & (mc >> 4) & (mc >> 8) & low44 or mc & hittable):
                # the common turn: discard any card but the taken one (TONK-TURN-4)
                k = trunc(rand() * (len(hand) - 1))
                if hand[k] >= taken:
                    k += 1
                c = hand.pop(k)
                ms[seat] = mc - both[c]
                dpush(c)
                continue
            strand = True  # the taken card still in hand (kept as spreads and hits go)
        else:  # drop: one decision
            extra += 1
            pay = _drop(seat, ms)
            reason = "drop"
            break
        while True:  # spreads and hits, then the discard that ends the turn
            n = len(hand)
            books = (mc + f52) & e52
            x = mc & (mc >> 4) & (mc >> 8) & low44  # the cards starting three in a row
            if books or x or mc & hittable:
                # rare: spreads or hits to offer, in the engine's order
                m = mc & low52
                lay = longest = 0
                if books:  # a three is one book, a four is four threes and itself
                    fours = (mc + fours52) & e52
                    lay = books.bit_count() + 4 * fours.bit_count()
                    longest = 4 if fours else 3
                if x:  # one run per start and length
                    sh = 12
                    run = 2
                    while x:
                        lay += x.bit_count()
                        x &= m >> sh
                        sh += 4
                        run += 1
                    if run > longest:
                        longest = run
                if m & hittable:
                    for tg in targets:
                        hit = tg & m
                        if hit:
                            lay += hit.bit_count()
                if strand and (n == 2 or longest >= n - 1):
                    # TONK-TURN-5 may strike some: build them
                    acts = _acts(m, mc >> 52 & LOW52, longest, True, n, taken, targets, melds)
                    lay = len(acts)
                    k = trunc(rand() * (lay + n - 1))
                else:  # none struck: build them only if one is chosen
                    k = trunc(rand() * (lay + n - strand))
                    if k < lay:
                        acts = _acts(m, mc >> 52 & LOW52, True, strand, n, taken, targets, melds)
            else:
                lay = 0
                k = trunc(rand() * (n - strand))
            if k >= lay:  # discard the (k - lay)-th card, passing over the taken one
                k -= lay
                if strand and hand[k] >= taken:
                    k += 1
                c = hand.pop(k)
                ms[seat] = mc - both[c]
                dpush(c)
                if not hand:
                    pay = _from_each(seat, players, 1)  # TONK-OUT-2
                    reason = "out"
                break
            extra += 1  # a spread or a hit
            act = acts[k]
            if isinstance(act, tuple):  # a new spread
                for c in act:
                    hand.remove(c)
                    mc -= both[c]
                meld = list(act)
                melds.append(meld)
                tg = _new_targets(act)
                targets.append(tg)
                hittable |= tg
            else:  # a hit
                number = act >> 6
                c = act & 63
                hand.remove(c)
                mc -= both[c]
                meld = melds[number]
                if meld[0] >> 2 == meld[-1] >> 2:
                    meld.append(c)
                    meld.sort()
                    targets[number] = 0  # a book of four takes nothing
                else:
                    if c < meld[0]:
                        meld.insert(0, c)
                    else:
                        meld.append(c)
                    targets[number] = _run_targets(meld[0], meld[-1])
                hittable = 0
                for tg in targets:
                    hittable |= tg
            strand = taken >= 0 and mc & bit[taken] != 0
            if not hand:
                ms[seat] = mc
                extra -= 1  # no discard after the last spread or hit
                pay = _from_each(seat, players, 2)  # TONK-OUT-1
                reason = "tonk-out"
                break
        if not hand:
            break
    if on_end is not None:
        on_end(reason, hands, stock, discard, melds)
    return 2 * (stock0 - len(stock) + takes) + extra, pay


def play_game(rnd: random.Random, players: int = 3) -> tuple[int, list[int]]:
    """Play one random hand of Tonk; return (decisions made, payouts per seat).

    :param rnd: The generator for chance (the cut, the shuffle) and the players' choices.
    :param players: Seats (2 to 4; the engine takes a fourth with ``max_players=4``).
    """
    return play_hand(rnd.random, players)


def measure(
    seconds: float = 1.0, seed: int = 1, players: int = 3, drop: bool = True
) -> tuple[float, float]:
    """Play whole hands for about *seconds* of CPU time; return (games/s, decisions/s)."""
    rand = random.Random(seed).random
    clock = time.process_time
    games = decisions = 0
    start = clock()
    end = start + seconds
    now = start
    while now < end or games == 0:
        for _ in range(100):
            decisions += play_hand(rand, players, drop=drop)[0]
        games += 100
        now = clock()
    elapsed = now - start
    return games / elapsed, decisions / elapsed


# -- checks ----------------------------------------------------------------------------------


def _expect(ok: bool, msg: str) -> None:
    if not ok:
        raise AssertionError(msg)


def _is_meld(cards: list[int]) -> bool:
    """A book of three or four, or a run of three or more in one suit (TONK-SPREAD-1/2)."""
    if len(cards) < 3:
        return False
    if all(c >> 2 == cards[0] >> 2 for c in cards):
        return len(cards) <= 4
    return all(c & 3 == cards[0] & 3 for c in cards) and all(b - a == 4 for a, b in pairwise(cards))


def self_check(
    games: int = 500, seed: int = 1, players: tuple[int, ...] = (2, 3, 4)
) -> dict[str, int]:
    """Play *games* seeded hands per seat count, with and without drops, and check the
    loop's invariants.

    At the end of every hand: every card is in exactly one place (the hands, the stock,
    the discard pile and the spreads hold the 52 cards once each); every hand is sorted,
    every spread on the table is a book or a run; the payouts add up to zero and match
    the way the hand ended (a natural, out, tonk-out, drop, stock-out, void); a natural
    or a void took no decision, any other ending at least one; the seed replays the
    same hand. Random play drops within a few turns; the hands without drops reach
    spreads, hits, outs, tonk-outs and stock-outs. Needs no cardcore: a test can call it.

    :returns: ``hands``, ``decisions``, and a count per ending (``drop``, ``out`` ...).
    :raises AssertionError: An invariant does not hold.
    """
    out: dict[str, int] = {"hands": 0, "decisions": 0}
    rnd = random.Random(seed)  # the spreads the loop reads off its masks are the scan's
    for hand in [sorted(rnd.sample(range(52), rnd.randint(3, 14))) for _ in range(games)]:
        mask, counts = sum(BIT[c] for c in hand), sum(RANK_ONE[c] for c in hand)
        assert _spreads_of(mask, counts) == _spreads(hand), hand
    for n in players:  # the fast drop settlement pays as the plain one, for all small totals
        for totals in product(range(8), repeat=n):
            ms = [t << 104 for t in totals]
            for seat in range(n):
                assert _drop(seat, ms) == _drop_plain(seat, list(totals)), (seat, totals)
    for n in players:
        for drop in (True, False):
            for g in range(games):
                reason, decisions = _check_hand(n, seed + g, drop)
                out["hands"] += 1
                out["decisions"] += decisions
                out[reason] = out.get(reason, 0) + 1
    return out


def _check_hand(players: int, seed: int, drop: bool) -> tuple[str, int]:
    """Play and check one hand of :func:`self_check`; return (ending, decisions)."""
    where = f"{players} players, seed {seed}" + ("" if drop else ", no drops")
    seen: list[str] = []

    def on_end(
        reason: str,
        hands: list[list[int]],
        stock: list[int],
        discard: list[int],
        melds: list[list[int]],
    ) -> None:
        cards = [c for h in hands for c in h] + stock + discard
        cards += [c for meld in melds for c in meld]
        _expect(sorted(cards) == list(range(52)), f"{where}: cards lost or doubled")
        _expect(all(h == sorted(h) for h in hands), f"{where}: an unsorted hand")
        _expect(all(_is_meld(meld) for meld in melds), f"{where}: a bad spread")
        seen.append(reason)

    decisions, pay = play_hand(random.Random(seed).random, players, on_end=on_end, drop=drop)
    _expect(len(seen) == 1, f"{where}: {len(seen)} endings")
    reason = seen[0]
    _expect(sum(pay) == 0, f"{where}: payouts {pay} do not add up")
    _expect((decisions == 0) == (reason in ("natural", "void")), f"{where}: {reason}")
    if reason in ("natural", "tonk-out", "out"):
        unit = 1 if reason == "out" else 2
        _expect(sorted(pay)[:-1] == [-unit] * (players - 1), f"{where}: {reason} pays {pay}")
    again = play_hand(random.Random(seed).random, players, drop=drop)
    _expect(again == (decisions, pay), f"{where}: the seed does not replay")
    return reason, decisions


def _engine_chance(seed: int) -> tuple[Shuffle, Rand]:
    """The engine's chance for game *seed*: draw 0 shuffles the deck (bottom first, so the
    list is reversed), draw 2 cuts for the dealer."""
    from cardcore.deck import Chance

    def shuffle(items: list[int], rand: Rand) -> None:
        Chance(seed, 0).shuffle(items)
        items.reverse()

    return shuffle, Chance(seed, 2).random


def check_against_engine(
    games: int = 2000, seed: int = 0, players: int = 3, drop: bool = True
) -> dict[str, int]:
    """Play *games* hands through cardcore and through the bare loop in lockstep.

    Hand *i* is ``new_game("tonk", players, seed=seed + i)`` played by ``run.py``'s
    random driver with ``random.Random(seed + i)`` (without *drop*, the driver first
    leaves ``drop`` out of the legal actions); the bare loop gets the same choice stream
    and the engine's shuffle and cut. Both must make the same number of decisions and
    end with the same payouts. Needs cardcore.

    :returns: ``hands``, ``decisions``, the ``spreads`` and ``hits`` laid, and a count
        per ending (the engine's reasons), so a reader can see which paths were taken.
    :raises AssertionError: A hand differs.
    """
    import cardcore

    out = {"hands": 0, "decisions": 0, "spreads": 0, "hits": 0}
    for i in range(games):
        s = seed + i
        game = cardcore.new_game("tonk", players, seed=s)
        rand = random.Random(s).random
        legal_actions = game.legal_actions
        apply = game.apply
        while not game.is_over:
            legal = legal_actions(game.to_act[0])
            if not drop:
                legal = tuple(a for a in legal if str(a) != "drop")
            action = legal[int(rand() * len(legal))]
            verb = str(action).split()[0]
            if verb in ("spread", "hit"):
                out[verb + "s"] += 1
            apply(action)
        result = game.result
        _expect(result is not None and result.payouts is not None, f"seed {s}: no payouts")
        assert result is not None and result.payouts is not None
        engine = (game.version, list(result.payouts))
        shuffle, cut = _engine_chance(s)
        bare = play_hand(random.Random(s).random, players, shuffle, cut, drop=drop)
        _expect(bare == engine, f"seed {s}: engine {engine}, bare {bare}")
        out[result.reason] = out.get(result.reason, 0) + 1
        out["hands"] += 1
        out["decisions"] += bare[0]
    return out


# -- command line ----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Print the bare loop's speed (median of rounds), or run the checks."""
    parser = argparse.ArgumentParser(description="bare Tonk random playout")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (median reported)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per round")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--no-drop", action="store_true", help="players never drop (long hands)")
    parser.add_argument(
        "--check", action="store_true", help="self-check, then lockstep vs cardcore"
    )
    args = parser.parse_args(argv)
    if args.check:
        print(f"self-check, invariants hold: {self_check()}")
        for drop in (True, False):
            seen = check_against_engine(players=args.players, drop=drop)
            label = "" if drop else ", no drops"
            print(f"lockstep with cardcore{label}, every hand identical: {seen}")
        return 0
    drop = not args.no_drop
    measure(0.2, players=args.players, drop=drop)  # warm up
    rows = [
        measure(args.seconds, seed=r + 1, players=args.players, drop=drop)
        for r in range(args.rounds)
    ]
    for r, (gps, dps) in enumerate(rows):
        print(f"round {r + 1}: {gps:,.0f} games/s, {dps:,.0f} decisions/s")
    rates = sorted(d for _, d in rows)
    print(
        f"bare Tonk, {args.players} players{'' if drop else ', no drops'}: median {statistics.median(rates):,.0f} decisions/s"
        f" (range {rates[0]:,.0f}-{rates[-1]:,.0f}), {statistics.median(g for g, _ in rows):,.0f}"
        f" games/s, {args.rounds} rounds of {args.seconds:g} s CPU"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
