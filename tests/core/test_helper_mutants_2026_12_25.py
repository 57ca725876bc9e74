"""Mutation audit (2026-12-25) of the public helper modules a plugin author uses.

Each test pins a behaviour of ``cardcore.cards``, ``deck``, ``zones``, ``dealing``,
``tricks``, ``scoring`` or ``setup`` that a small change to the source left unnoticed
by the tests that exercise that module (the surviving mutant is named in each
docstring). Every test is deterministic: fixed cards, fixed seeds.
"""

from __future__ import annotations

import hashlib
import struct

import pytest

from cardcore import (
    ALL,
    JOKER,
    ArgumentError,
    Card,
    CardcoreError,
    Chance,
    GameState,
    Layout,
    PluginError,
    Suit,
    Visibility,
    Zones,
    ZoneSpec,
    decks,
    new_game,
    parse_cards,
    standard_52,
    with_jokers,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.scoring import Ledger, LedgerError, ScoreTable
from cardcore.tricks import trick_winner

LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("discard", None, Visibility.TOP),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("hand.1", 1, Visibility.OWNER),
        ZoneSpec("grid", None, Visibility.NOBODY),
    ]
)
STOCK, DISCARD, HAND0, HAND1, GRID = range(5)


def _state(text: str) -> GameState:
    state = GameState(2, {}, Zones(LAYOUT))
    state.seed = 11
    fill_stock(state, STOCK, parse_cards(text))
    return state


# -- deck ----------------------------------------------------------------------------


def test_with_jokers_adds_two_jokers_by_default() -> None:
    """Mutant deck.py: ``with_jokers(cards, n=2)`` default changed to 1."""
    deck = with_jokers(standard_52())
    assert len(deck) == 54
    assert deck[:52] == standard_52()
    assert deck[52:] == (JOKER, JOKER)


def test_decks_put_each_decks_jokers_after_its_52_cards() -> None:
    """Mutant deck.py: ``decks`` put each deck's jokers before its 52 cards.

    The order of the unshuffled deck is what a seed shuffles, so it decides every
    seeded deal of a game built on ``decks(...)`` (and the replay of its records).
    """
    one = standard_52()
    assert decks(2, jokers_per_deck=1) == (*one, JOKER, *one, JOKER)
    assert decks(1, jokers_per_deck=2) == with_jokers(one, 2)


def test_chance_getrandbits_reads_the_first_word_as_the_most_significant() -> None:
    """Mutant deck.py: ``Chance.getrandbits`` kept the low *k* bits instead of the high ones.

    The stream is SHAKE-128 of ``cardcore-chance/3:s:k`` read as little-endian 32-bit
    words (CORE-CHANCE-1); ``randrange``, ``choice`` and ``sample`` draw through
    ``getrandbits``, so this decides what a seeded game's own draws give.
    """
    w0, w1 = struct.unpack("<2I", hashlib.shake_128(b"cardcore-chance/3:7:3").digest(8))
    assert Chance(7, 3).getrandbits(64) == w0 << 32 | w1
    assert Chance(7, 3).getrandbits(5) == w0 >> 27
    assert Chance(7, 3).getrandbits(40) == (w0 << 32 | w1) >> 24


# -- zones ---------------------------------------------------------------------------


def test_is_visible_names_the_top_of_a_top_pile_by_minus_one() -> None:
    """Mutant zones.py: ``is_visible`` on a ``TOP`` pile dropped ``or index == -1``.

    ``-1`` names the top card everywhere else in :class:`Zones` (``pop``, ``move``,
    ``reveal``, ``tell``), so it must name it here too.
    """
    zones = Zones(LAYOUT)
    for card in parse_cards("3C 9D"):
        zones.put(DISCARD, card)
    for seat in (0, 1, None):
        assert zones.is_visible(DISCARD, -1, seat) is True
        assert zones.is_visible(DISCARD, 1, seat) is True
        assert zones.is_visible(DISCARD, 0, seat) is False
    assert zones.show(DISCARD, 1) == ["9D", None]


def test_zone_spec_owner_is_a_seat_from_0_to_63() -> None:
    """Mutant zones.py: ``ZoneSpec`` accepted ``owner=64`` (``<= 64`` for ``< 64``).

    Knowledge masks keep one bit per seat below 64; bit 64 is the spectator's.
    """
    assert ZoneSpec("hand.63", 63, Visibility.OWNER).owner == 63
    with pytest.raises(PluginError, match="owner must be None or a seat from 0 to 63"):
        ZoneSpec("hand.64", 64, Visibility.OWNER)


def test_tell_adds_the_seat_to_those_that_already_know() -> None:
    """Mutant zones.py: ``tell`` replaced the card's mask by the peeking seat's bit,
    so a second peek made the first seat forget the card."""
    zones = Zones(LAYOUT)
    zones.put(GRID, parse_cards("7S")[0])
    assert zones.show(GRID, 0) == [None]
    zones.tell(GRID, -1, 0)
    zones.tell(GRID, -1, 1)
    assert zones.seen[GRID] == [0b11]
    assert zones.show(GRID, 0) == ["7S"] and zones.show(GRID, 1) == ["7S"]
    assert zones.show(GRID, None) == [None]
    zones.reveal(GRID)
    zones.tell(GRID, -1, 1)  # a card known to all stays known to all
    assert zones.seen[GRID] == [ALL]


# -- dealing -------------------------------------------------------------------------


def test_deal_round_robin_deals_a_stock_that_holds_exactly_enough() -> None:
    """Mutant dealing.py: the "too few cards" check became ``<=``, refusing a deal that
    uses every card of the stock (a 52-card deck dealt 13 each to 4 seats)."""
    state = _state("2S 3S 4S 5S")  # bottom to top: 5S is dealt first
    deal_round_robin(state, STOCK, [HAND0, HAND1], 2)
    cards = state.zones.cards
    assert cards[STOCK] == []
    assert cards[HAND0] == list(parse_cards("5S 3S"))
    assert cards[HAND1] == list(parse_cards("4S 2S"))
    short = _state("2S 3S 4S")
    with pytest.raises(CardcoreError, match="cannot deal 2 cards to 2 hands from 3"):
        deal_round_robin(short, STOCK, [HAND0, HAND1], 2)
    assert len(short.zones.cards[STOCK]) == 3  # nothing dealt


def test_fill_stock_refuses_a_list_holding_text_before_its_last_card() -> None:
    """Found while reading ``fill_stock`` for mutants: ``["AS", Card.parse("KH")]``
    is accepted (only ``cards[-1]`` is type-checked), and the text ``"AS"`` then lies
    in the stock, where ``Zones.snapshot`` and views fail on it later."""
    state = GameState(2, {}, Zones(LAYOUT))
    with pytest.raises(ArgumentError, match="fill_stock takes a list of cards"):
        fill_stock(state, STOCK, ["AS", Card.parse("KH")])  # type: ignore[list-item]
    assert state.zones.cards[STOCK] == []


# -- tricks --------------------------------------------------------------------------


def _joker_is_a_spade(card: Card) -> Suit | None:
    return Suit.SPADES if card.is_joker else card.suit


def test_trick_winner_takes_the_suit_led_from_suit_of() -> None:
    """Mutant tricks.py: the suit led was the lead card's printed suit, not ``suit_of``'s.

    The docstring: a joker neither follows nor trumps "unless *suit_of* gives it one";
    a joker led as a spade makes spades the suit led.
    """
    plays = parse_cards("JK 5S AS 9H")
    assert trick_winner(plays, suit_of=_joker_is_a_spade) == 2  # the ace of spades
    assert trick_winner(plays) == 0  # without suit_of, only jokers follow a joker
    # a trump named but not played: the suit led (from suit_of) still decides
    assert trick_winner(plays, trump=Suit.CLUBS, suit_of=_joker_is_a_spade) == 2


def test_trick_winner_with_a_trump_nobody_played_goes_to_the_suit_led() -> None:
    """Mutant tricks.py: a trump suit named but not played made the lead win.

    (Killed before only by a game author's test outside the core's helper tests.)
    """
    plays = parse_cards("10H AH 2S KH")
    assert trick_winner(plays, trump=Suit.CLUBS) == 1
    assert trick_winner(plays, trump=Suit.DIAMONDS) == 1
    assert trick_winner(plays, trump=Suit.SPADES) == 2


# -- scoring -------------------------------------------------------------------------


def test_score_table_default_scores_every_rank_not_named_the_joker_too() -> None:
    """Mutant scoring.py: ``from_ranks(default=...)`` left the joker unscored."""
    table = ScoreTable.from_ranks({"A": 1}, default=10)
    assert table[JOKER] == 10
    assert table.total(parse_cards("AS KD JK")) == 21
    unscored = ScoreTable.from_ranks({"A": 1})  # no default: unnamed ranks have no points
    with pytest.raises(KeyError):
        unscored[JOKER]


def test_score_table_replace_leaves_the_original_table_alone() -> None:
    """Mutant scoring.py: ``replace`` shared the exact-card points with the original.

    (Killed before only by a review test outside ``tests/core``.)
    """
    base = ScoreTable.from_ranks({"J": 10}, default=5).replace({"JH": -2})
    wild = base.replace({"JS": 0, "K": 1})
    assert (wild[parse_cards("JS")[0]], wild[parse_cards("KC")[0]]) == (0, 1)
    assert base[parse_cards("JS")[0]] == 10 and base[parse_cards("KC")[0]] == 5
    assert base[parse_cards("JH")[0]] == -2 and dict(base.by_card) == {parse_cards("JH")[0]: -2}


def test_score_table_as_dict_lists_ranks_in_rank_order() -> None:
    """Mutant scoring.py: ``as_dict`` listed ranks in the order given, not rank order."""
    table = ScoreTable.from_ranks({"K": 0, "2": -2, "A": 1}).replace({"JH": 7})
    assert list(table.as_dict()) == ["A", "2", "K", "JH"]


def test_ledger_refuses_an_amount_over_10_15_even_when_balances_stay_inside() -> None:
    """Mutant scoring.py: ``post`` checked only the smallest amount against 10**15.

    Its docstring: each amount at most 10**15 in size, as is every balance after it.
    """
    ledger = Ledger(3)
    ledger.post([-(10**15), 5 * 10**14, 5 * 10**14], "start")
    with pytest.raises(LedgerError, match="at most 10"):
        ledger.post([2 * 10**15, -(10**15), -(10**15)], "too much")
    assert ledger.totals == [-(10**15), 5 * 10**14, 5 * 10**14]
    assert len(ledger.entries) == 1


# -- setup ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 2026])
def test_an_empty_stacked_deck_deals_as_the_seed_alone(seed: int) -> None:
    """Mutant setup.py: the cards below a stacked ``deck=`` were shuffled with chance
    event 1 instead of 0 (the first deal is event 0, CORE-CHANCE-1), so a stacked
    game's seed dealt other cards than the records made with it."""
    plain = new_game("golf", 2, seed=seed)
    stacked = new_game("golf", 2, seed=seed, deck=[])
    assert stacked.position() == plain.position()
