"""Read review of the plugin building blocks (zones, dealing, turns, tricks, scoring, deck, cards).

Each ``xfail(strict=True)`` is one finding: a docstring claim that does not hold, a card
lost, a hidden card shown to the wrong watcher, or a bad argument met by a raw Python
exception. The passing tests pin claims that held when read and tried.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from cardcore import (
    ALL,
    ArgumentError,
    Card,
    CardcoreError,
    GameState,
    Layout,
    Suit,
    Visibility,
    Zones,
    ZoneSpec,
    parse_cards,
)
from cardcore.dealing import deal_round_robin, draw_card, fill_stock, gather, rebuild_stock
from cardcore.deck import Chance, shuffle
from cardcore.scoring import Ledger, LedgerError, ScoreSheet, ScoreTable
from cardcore.tricks import trick_winner
from cardcore.turns import end_game

LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("discard", None, Visibility.TOP),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("hand.1", 1, Visibility.OWNER),
        ZoneSpec("table", None, Visibility.EVERYONE),
    ]
)
STOCK, DISCARD, H0, H1, TABLE = range(5)


def _state(text: str = "", seed: int = 7) -> GameState:
    state = GameState(2, {}, Zones(LAYOUT))
    state.seed = seed
    fill_stock(state, STOCK, list(parse_cards(text)))
    return state


def _census(zones: Zones) -> Counter[str]:
    assert [len(p) for p in zones.cards] == [len(s) for s in zones.seen]  # parallel lists
    return Counter(c.text for c in zones.all_cards())


# -- findings -------------------------------------------------------------------------------


def test_show_and_is_visible_agree_for_a_spectator_on_a_mask_without_all() -> None:
    zones = Zones(LAYOUT)
    zones.put(STOCK, Card.parse("AS"), ~1)  # every seat but seat 0 has seen it (Hanabi-like)
    assert zones.show(STOCK, 0) == [None] and not zones.is_visible(STOCK, 0, 0)  # agree
    assert zones.show(STOCK, 1) == ["AS"] and zones.is_visible(STOCK, 0, 1)  # agree
    assert (zones.show(STOCK, None) == ["AS"]) == zones.is_visible(STOCK, 0, None)


def test_fill_stock_on_a_stock_holding_cards_loses_none() -> None:
    state = _state("AS 2S 3S")
    try:
        fill_stock(state, STOCK, list(parse_cards("4S")))
    except CardcoreError:
        assert [c.text for c in state.zones.cards[STOCK]] == ["AS", "2S", "3S"]
    else:
        assert _census(state.zones) == Counter(["AS", "2S", "3S", "4S"])


def test_rebuild_stock_refuses_the_stock_as_its_own_discard() -> None:
    state = _state()
    for card in parse_cards("AS 2S 3S"):
        state.zones.put(DISCARD, card)
    with pytest.raises(ArgumentError):
        rebuild_stock(state, DISCARD, DISCARD)
    assert state.zones.seen[DISCARD] == [ALL] * 3  # nothing moved


def test_score_table_lookup_of_a_non_card_is_an_argument_error() -> None:
    table = ScoreTable.from_ranks({"A": 1}, default=0)
    with pytest.raises(ArgumentError):
        table["KH"]  # type: ignore[index]


def test_score_table_replace_takes_a_card_key() -> None:
    jh = Card.parse("JH")
    table = ScoreTable.from_ranks({}, default=1).replace({jh: -2})  # type: ignore[dict-item]
    assert table[jh] == -2


def test_chance_randint_refuses_a_non_int_bound_with_argument_error() -> None:
    with pytest.raises(ArgumentError):
        Chance(1, 0).randint(0, "3")  # type: ignore[arg-type]


def test_score_sheet_snapshot_stays_json_ready() -> None:
    sheet = ScoreSheet(1)
    try:
        sheet.add_round([1e308])  # type: ignore[list-item]
        sheet.add_round([1e308])  # type: ignore[list-item]
    except ArgumentError:
        pass
    json.dumps(sheet.snapshot(), allow_nan=False)


# -- claims that held -----------------------------------------------------------------------


def test_a_card_moved_from_a_hand_face_down_keeps_its_owners_knowledge_only() -> None:
    zones = Zones(LAYOUT)
    zones.put(H0, Card.parse("QH"))
    assert zones.seen[H0] == [1]  # the owner's bit, added by the hand
    zones.move(H0, STOCK)  # mask=None keeps it
    assert zones.show(STOCK, 0) == ["QH"] and zones.show(STOCK, 1) == [None]
    assert zones.show(STOCK, None) == [None]
    zones.move(STOCK, STOCK, 0, mask=0)  # and mask=0 clears it
    assert zones.show(STOCK, 0) == [None] and zones.seen[STOCK] == [0]


def test_a_card_through_a_face_up_pile_is_known_to_all_in_a_hand() -> None:
    zones = Zones(LAYOUT)
    zones.put(STOCK, Card.parse("2C"))
    zones.put(H1, Card.parse("3C"))
    zones.move(STOCK, TABLE)
    zones.move(TABLE, H1)
    assert zones.seen[H1] == [2, ALL]
    assert zones.knows(H1, 1, 0) and not zones.knows(H1, 0, 0)
    assert zones.show(H1, 0) == [None, None]  # not all known: the hand stays closed


def test_bad_mask_or_bad_index_leaves_every_pile_as_it_was() -> None:
    zones = Zones(LAYOUT)
    for card in parse_cards("AS 2S"):
        zones.put(STOCK, card)
    before = (zones.clone().cards, zones.clone().seen)
    with pytest.raises(ArgumentError):
        zones.move(STOCK, H0, mask=1.5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        zones.insert(H0, 0, Card.parse("3S"), mask="1")  # type: ignore[arg-type]
    with pytest.raises(IndexError):  # documented: indices are the game's, unchecked
        zones.move(STOCK, H0, 5)
    with pytest.raises(IndexError):
        zones.move(STOCK, 99)
    assert (zones.cards, zones.seen) == before


def test_moving_a_card_onto_its_own_pile_loses_and_duplicates_nothing() -> None:
    zones = Zones(LAYOUT)
    for card in parse_cards("AS 2S 3S"):
        zones.put(STOCK, card, 1)
    zones.move(STOCK, STOCK, 0)
    assert [c.text for c in zones.cards[STOCK]] == ["2S", "3S", "AS"]
    assert zones.seen[STOCK] == [1, 1, 1]


@pytest.mark.parametrize(("index", "order"), [(99, "AS 2S X"), (-1, "AS X 2S"), (-99, "X AS 2S")])
def test_insert_out_of_range_and_negative_as_list_insert(index: int, order: str) -> None:
    zones = Zones(LAYOUT)
    for card in parse_cards("AS 2S"):
        zones.put(STOCK, card)
    zones.insert(STOCK, index, Card.parse("KD"), 4)
    assert [c.text for c in zones.cards[STOCK]] == order.replace("X", "KD").split()
    assert zones.seen[STOCK][order.split().index("X")] == 4  # its mask beside it


def test_zones_shuffle_is_the_seeded_shuffle_and_forgets() -> None:
    cards = list(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S"))
    runs = []
    for _ in range(2):
        zones = Zones(LAYOUT)
        for card in cards:
            zones.put(STOCK, card, ALL)
        zones.shuffle(STOCK, Chance(11, 3))
        runs.append(zones.cards[STOCK])
        assert zones.seen[STOCK] == [0] * 8
    expected = cards[:]
    shuffle(expected, Chance(11, 3))
    assert runs[0] == runs[1] == expected != cards


def test_clone_and_snapshot_are_independent_and_json_ready() -> None:
    zones = Zones(LAYOUT)
    zones.put(DISCARD, Card.parse("JK"))
    zones.put(H0, Card.parse("10H"), 2)
    twin = zones.clone()
    twin.move(H0, STOCK)
    twin.tell(STOCK, 0, 1)
    twin.seen[DISCARD][0] = 0
    assert zones.cards[H0] == [Card.parse("10H")] and zones.seen == [[], [ALL], [3], [], []]
    snap = zones.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    assert snap["hand.0"] == {"cards": ["10H"], "seen": [3]}


def test_dealing_to_a_hand_listed_twice_conserves_the_cards() -> None:
    state = _state("AS 2S 3S 4S 5S 6S")
    deal_round_robin(state, STOCK, [H0, H0, H1], 2)
    assert _census(state.zones) == Counter(["AS", "2S", "3S", "4S", "5S", "6S"])
    assert [len(p) for p in state.zones.cards] == [0, 0, 4, 2, 0]  # twice named: twice dealt


def test_a_short_stock_deals_nothing() -> None:
    state = _state("AS 2S 3S")
    with pytest.raises(CardcoreError, match="cannot deal"):
        deal_round_robin(state, STOCK, [H0, H1], 2)
    assert len(state.zones.cards[STOCK]) == 3


def test_drawing_from_the_stock_onto_itself_or_gathering_conserves_the_cards() -> None:
    state = _state("AS 2S 3S")
    assert draw_card(state, STOCK, STOCK) == Card.parse("3S")
    assert _census(state.zones) == Counter(["AS", "2S", "3S"])
    state.zones.move(STOCK, TABLE)
    state.zones.move(STOCK, H1)
    gather(state, STOCK)
    assert _census(state.zones) == Counter(["AS", "2S", "3S"])
    assert len(state.zones.cards[STOCK]) == 3 and state.zones.seen[STOCK] == [0, 0, 0]


def test_rebuild_stock_answers_the_cards_moved_not_the_stocks_size() -> None:
    """Doc gap: ':returns: How many cards the new stock holds' is true only of an empty stock."""
    state = _state("AS")
    for card in parse_cards("2H 3H 4H"):
        state.zones.put(DISCARD, card)
    assert rebuild_stock(state, STOCK, DISCARD) == 2
    assert len(state.zones.cards[STOCK]) == 3
    assert _census(state.zones) == Counter(["AS", "2H", "3H", "4H"])


def test_chance_reads_one_stream_however_it_is_drawn() -> None:
    one = Chance(5, 9)
    words = [one.getrandbits(32) for _ in range(100)]  # across block boundaries (42 words)
    whole = Chance(5, 9).getrandbits(32 * 100)
    assert whole == int("".join(f"{w:032b}" for w in words), 2)


def test_chance_shuffles_a_numpy_array_as_a_list() -> None:
    items = list(range(60))
    array = np.arange(60)
    shuffle(items, Chance(3, 1))
    shuffle(array, Chance(3, 1))  # type: ignore[arg-type]
    assert array.tolist() == items != list(range(60))
    with pytest.raises(ArgumentError):
        grid = np.arange(6).reshape(2, 3)  # rows are views: refused
        shuffle(grid, Chance(3, 1))  # type: ignore[arg-type]


def test_trick_winner_with_a_joker_lead_goes_to_the_first_joker() -> None:
    assert trick_winner(parse_cards("JK AS JK")) == 0
    assert trick_winner(parse_cards("JK AS JK 2H"), trump=Suit.HEARTS) == 3


def test_end_game_refusing_its_arguments_changes_nothing() -> None:
    state = _state("AS")
    with pytest.raises(ArgumentError):
        end_game(state, [0], [1, 2], "out", payouts=[1.5, -1.5])  # type: ignore[list-item]
    assert not state.is_over and state.result is None and state.zones.seen[STOCK] == [0]


def test_score_sheet_keeps_numpy_scores_as_python_numbers() -> None:
    sheet = ScoreSheet(2)
    sheet.add_round([np.int64(3), np.float64(1.5)])  # type: ignore[list-item]
    assert [type(x) for x in sheet.totals] == [int, float]
    json.dumps(sheet.snapshot(), allow_nan=False)
    for bad in ([True, 0], [float("nan"), 0], [1], (1, "2")):
        with pytest.raises(ArgumentError):
            sheet.add_round(bad)  # type: ignore[arg-type]
    assert sheet.totals == [3, 1.5] and len(sheet.rounds) == 1


def test_ledger_refusals_post_nothing_and_clones_are_independent() -> None:
    ledger = Ledger(3)
    ledger.post([5, -2, -3], "hand")
    for amounts in ([1, -1, 1], [1.0, -1.0, 0], [True, -1, 0], [10**15 + 1, -(10**15 + 1), 0]):
        with pytest.raises(LedgerError):
            ledger.post(amounts, "x")  # type: ignore[arg-type]
    with pytest.raises(LedgerError):
        ledger.post([10**15, -(10**15), 0], "beyond")  # seat 1's balance past 10**15
    for payer, payee, amount in ((0, 0, 1), (0, 3, 1), (0, 1, -1)):
        with pytest.raises(LedgerError):
            ledger.pay(payer=payer, payee=payee, amount=amount, reason="x")
    assert ledger.totals == [5, -2, -3] and len(ledger.entries) == 1
    twin = ledger.clone()
    twin.pay(payer=0, payee=1, amount=4, reason="bet")
    assert ledger.totals == [5, -2, -3] and twin.totals == [1, 2, -3] and sum(twin.totals) == 0
    assert json.loads(json.dumps(twin.snapshot())) == twin.snapshot()
