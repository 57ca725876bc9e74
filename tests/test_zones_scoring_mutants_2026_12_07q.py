"""Mutation review (2026-12-07q) of the core's card places and scoring: zones, dealing,
scoring and deck.

Each test here kills a mutant that survived the whole existing suite (named in its
docstring): a knowledge mask left out of step with its card when a card is moved or
popped from below the top, a ledger posting that sums below zero, a ledger whose
totals list is replaced under a game that holds it, ``ScoreTable.replace`` reading
only upper-case rank labels, ``draw_card`` not checking its discard pile, a
two-card shuffle never shuffled, ``MAX_DECKS`` itself refused. Every promise tested
is the docstring's (docs/api.rst renders them), the source's, or
docs/core-rules.rst's (CORE-CHANCE-1).
"""

from __future__ import annotations

import hashlib
from array import array

import pytest

from cardcore import (
    Card,
    GameState,
    Layout,
    Ledger,
    ScoreTable,
    Visibility,
    Zones,
    ZoneSpec,
    dealing,
)
from cardcore.deck import MAX_DECKS, Chance, with_jokers
from cardcore.errors import ArgumentError
from cardcore.scoring import LedgerError

LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("discard", None, Visibility.EVERYONE),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("grid.1", 1, Visibility.NOBODY),
    ]
)
STOCK, DISCARD, HAND, GRID = range(4)


def _cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


# -- zones --------------------------------------------------------------------------


def test_move_from_below_the_top_keeps_the_other_cards_masks_in_step() -> None:
    """Mutant zones.py ``Zones.move``: ``del self.seen[src][-1]`` instead of ``[index]``
    (the moved card's mask stays; the top card's mask goes)."""
    zones = Zones(LAYOUT)
    for card, mask in zip(_cards("2S 3S 4S"), (0b01, 0b10, 0), strict=True):
        zones.put(GRID, card, mask)
    moved = zones.move(GRID, DISCARD, 0)  # the bottom card, 2S, which seat 0 knew
    assert str(moved) == "2S"
    assert [str(c) for c in zones.cards[GRID]] == ["3S", "4S"]
    assert zones.seen[GRID] == [0b10, 0]  # 3S still known to seat 1, 4S to nobody
    assert zones.show(GRID, 1) == [None, "3S"]
    assert zones.show(GRID, 0) == [None, None]


def test_pop_from_below_the_top_returns_that_cards_mask() -> None:
    """Mutant zones.py ``Zones.pop``: the top card's mask popped (``seen[z].pop()``) whatever
    *index* the card comes from."""
    zones = Zones(LAYOUT)
    for card, mask in zip(_cards("2S 3S"), (0b01, 0), strict=True):
        zones.put(GRID, card, mask)
    card, mask = zones.pop(GRID, 0)
    assert (str(card), mask) == ("2S", 0b01)
    assert [str(c) for c in zones.cards[GRID]] == ["3S"] and zones.seen[GRID] == [0]


# -- scoring ------------------------------------------------------------------------


def test_a_ledger_posting_summing_below_zero_is_refused() -> None:
    """Mutant scoring.py ``Ledger.post``: ``sum(amounts) > 0`` instead of ``!= 0`` (money
    destroyed rather than created would pass)."""
    ledger = Ledger(3)
    with pytest.raises(LedgerError, match="sum to zero"):
        ledger.post([-1, 0, 0], "lost")
    with pytest.raises(LedgerError, match="sum to zero"):
        ledger.post([2, -3, 0], "lost")
    assert ledger.totals == [0, 0, 0] and ledger.entries == []


def test_a_ledgers_totals_list_is_updated_in_place() -> None:
    """Mutant scoring.py ``Ledger.post``: ``self.totals = totals`` (a new list) instead of
    ``self.totals[:] = totals`` (the source: "the same list: a game may hold it")."""
    ledger = Ledger(3)
    held = ledger.totals
    ledger.post([4, -2, -2], "out")
    ledger.pay(payer=1, payee=2, amount=1, reason="side bet")
    assert held is ledger.totals and held == [4, -3, -1]


def test_score_table_replace_reads_rank_labels_in_any_case() -> None:
    """Mutant scoring.py ``ScoreTable.replace``: a rank label matched only in upper case,
    so ``"k"`` is read as a card and refused (``from_ranks`` reads ``"k"`` as the king)."""
    table = ScoreTable.face_values()
    lower = table.replace({"k": 0, "jk": -2})
    assert lower == table.replace({"K": 0, "JK": -2})
    assert lower[Card.parse("KD")] == 0 and lower[Card.parse("JK")] == -2
    assert lower.by_card == {}


# -- dealing ------------------------------------------------------------------------

DEAL = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("discard", None, Visibility.TOP),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
    ]
)


def test_draw_card_checks_the_discard_pile_even_when_the_stock_has_cards() -> None:
    """Mutant dealing.py ``draw_card``: *discard* not checked (the docstring: a *discard*
    that is not a pile raises ArgumentError, nothing moves)."""
    state = GameState(1, {}, Zones(DEAL))
    dealing.fill_stock(state, 0, _cards("AS 2S"))
    for bad in (99, -1, "discard"):
        with pytest.raises(ArgumentError, match="discard must be a pile id"):
            dealing.draw_card(state, 0, 2, discard=bad)  # type: ignore[arg-type]
    assert [len(p) for p in state.zones.cards] == [2, 0, 0]


# -- deck ---------------------------------------------------------------------------


def _documented_shuffle(seed: int, counter: int, n: int) -> list[int]:
    """CORE-CHANCE-1 as docs/core-rules.rst words it: the SHAKE-128 stream of
    ``cardcore-chance/3:s:k`` read as little-endian 32-bit words; step i swaps with
    ``word % (i + 1)`` (a Fisher-Yates from the last place down)."""
    digest = hashlib.shake_128(b"cardcore-chance/3:%d:%d" % (seed, counter)).digest(168)
    words = array("I" if array("I").itemsize == 4 else "L", digest)
    assert words.itemsize == 4
    if array("H", b"\x01\x00")[0] != 1:  # a big-endian machine reads the bytes swapped
        words.byteswap()
    items = list(range(n))
    for step, i in enumerate(range(n - 1, 0, -1)):
        j = words[step] % (i + 1)
        items[i], items[j] = items[j], items[i]
    return items


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
def test_chance_shuffles_short_lists_as_documented(n: int) -> None:
    """Mutant deck.py ``Chance.shuffle``: ``if i < 3: return`` (two cards never shuffled;
    the existing derivation test shuffles 52 cards only)."""
    for counter in range(12):
        items = list(range(n))
        Chance(7, counter).shuffle(items)
        assert items == _documented_shuffle(7, counter, n)


def test_two_cards_come_out_in_both_orders() -> None:
    """The same mutant seen as a player would: a two-card pile never changes order."""
    orders = set()
    for counter in range(16):
        items = ["a", "b"]
        Chance(2026, counter).shuffle(items)
        orders.add(tuple(items))
    assert orders == {("a", "b"), ("b", "a")}


def test_a_count_of_max_decks_is_allowed() -> None:
    """Mutant deck.py ``_count``: ``n < MAX_DECKS`` (the docstrings: an int from 0 to
    ``MAX_DECKS``, both included)."""
    assert len(with_jokers((), MAX_DECKS)) == MAX_DECKS
    with pytest.raises(ArgumentError, match="from 0 to 10,000"):
        with_jokers((), MAX_DECKS + 1)
