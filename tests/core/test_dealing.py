"""Building blocks: filling the stock, dealing round-robin and drawing (:mod:`cardcore.dealing`)."""

from __future__ import annotations

import pytest

from cardcore import (
    ALL,
    ArgumentError,
    CardcoreError,
    Chance,
    GameState,
    Layout,
    Visibility,
    Zones,
    ZoneSpec,
    parse_cards,
    shuffle,
)
from cardcore.dealing import deal_all, deal_round_robin, draw_card, fill_stock, rebuild_stock

LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("discard", None, Visibility.EVERYONE),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("hand.1", 1, Visibility.OWNER),
        ZoneSpec("hand.2", 2, Visibility.OWNER),
    ]
)
STOCK, DISCARD, HANDS = 0, 1, (2, 3, 4)


def _state(text: str, seed: int = 9) -> GameState:
    st = GameState(3, {}, Zones(LAYOUT))
    st.seed = seed
    fill_stock(st, STOCK, parse_cards(text))
    return st


def test_fill_stock_is_face_down_bottom_to_top() -> None:
    st = _state("2S 3S 4S")
    assert [str(c) for c in st.zones.cards[STOCK]] == ["2S", "3S", "4S"]
    assert st.zones.seen[STOCK] == [0, 0, 0] and st.zones.top(STOCK) == parse_cards("4S")[0]


def test_deal_round_robin_from_the_top_starting_with_first() -> None:
    st = _state("2S 3S 4S 5S 6S 7S 8S")  # top is 8S
    deal_round_robin(st, STOCK, HANDS, 2, first=1)
    hands = [[str(c) for c in st.zones.cards[h]] for h in HANDS]
    assert hands == [["6S", "3S"], ["8S", "5S"], ["7S", "4S"]]
    assert st.zones.show(HANDS[1], 1) == ["5S", "8S"] and st.zones.show(HANDS[1], 0) == [None, None]
    with pytest.raises(CardcoreError, match="cannot deal 1 cards to 3 hands from 1"):
        deal_round_robin(st, STOCK, HANDS, 1)
    assert len(st.zones.cards[STOCK]) == 1  # nothing dealt when the stock is short


def test_deal_all_deals_out_the_stock_the_first_hands_one_more() -> None:
    st = _state("2S 3S 4S 5S 6S 7S 8S")  # 7 cards to 3 hands, from seat 1: 3, 2, 2
    deal_all(st, STOCK, HANDS, first=1)
    hands = [[str(c) for c in st.zones.cards[h]] for h in HANDS]
    assert hands == [["6S", "3S"], ["8S", "5S", "2S"], ["7S", "4S"]]
    assert st.zones.cards[STOCK] == [] and st.zones.show(HANDS[1], 1) == ["2S", "5S", "8S"]
    assert st.zones.show(HANDS[1], 0) == [None, None, None]
    full = _state(" ".join(str(c) for c in cardcore_deck()))
    deal_all(full, STOCK, HANDS)
    assert [len(full.zones.cards[h]) for h in HANDS] == [18, 17, 17]
    deal_all(full, STOCK, HANDS)  # an empty stock: nothing to do
    assert [len(full.zones.cards[h]) for h in HANDS] == [18, 17, 17]


@pytest.mark.parametrize(
    ("hands", "first", "message"),
    [
        ((), 0, "no hands to deal the stock's 2 cards to"),
        ((2, 0), 0, r"the stock \(pile 0\) cannot be one of the hands"),
        ((2, 9), 0, "each hand must be a pile id from 0 to 4, not 9"),
        ("23", 0, "hands must be a list of pile ids"),
        ((2, 3), 1.0, "first must be an int, not 1.0"),
    ],
)
def test_deal_all_refuses_bad_arguments_and_deals_nothing(
    hands: object, first: object, message: str
) -> None:
    st = _state("2S 3S")
    with pytest.raises(ArgumentError, match=message):
        deal_all(st, STOCK, hands, first=first)  # type: ignore[arg-type]
    assert [str(c) for c in st.zones.cards[STOCK]] == ["2S", "3S"]
    assert all(st.zones.cards[h] == [] for h in HANDS)


def cardcore_deck() -> list[str]:
    return [r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]


def test_rebuild_stock_keeps_the_top_discard_and_uses_the_games_chance() -> None:
    st = _state("2S 3S", seed=41)
    for text in ("4H", "5H", "6H", "7H"):
        st.zones.put(DISCARD, parse_cards(text)[0])
    st.draws = 3
    assert rebuild_stock(st, STOCK, DISCARD) == 3
    assert [str(c) for c in st.zones.cards[DISCARD]] == ["7H"] and st.zones.seen[DISCARD] == [ALL]
    expected = list(parse_cards("4H 5H 6H 2S 3S"))
    shuffle(expected, Chance(41, 4))  # the next chance event of this game
    assert st.zones.cards[STOCK] == expected and st.draws == 4
    assert st.zones.seen[STOCK] == [0] * 5  # nobody knows the new order
    assert rebuild_stock(st, STOCK, DISCARD) == 0  # only the top card left: nothing to rebuild
    assert rebuild_stock(st, STOCK, DISCARD, keep_top=False) == 1
    assert st.zones.cards[DISCARD] == []


def test_draw_card_rebuilds_an_empty_stock_first() -> None:
    st = _state("2S")
    assert str(draw_card(st, STOCK, HANDS[0])) == "2S"
    assert draw_card(st, STOCK, HANDS[0]) is None  # empty and no discard pile given
    assert draw_card(st, STOCK, HANDS[0], discard=DISCARD) is None  # nothing to rebuild from
    for text in ("4H", "5H"):
        st.zones.put(DISCARD, parse_cards(text)[0])
    assert str(draw_card(st, STOCK, HANDS[0], discard=DISCARD)) == "4H"
    assert [str(c) for c in st.zones.cards[DISCARD]] == ["5H"] and st.draws == 1


def test_gather_puts_every_card_back_face_down_and_shuffled() -> None:
    import cardcore
    from cardcore.dealing import gather

    game = cardcore.new_game("gofish", 3, seed=2)
    state = game.clone().state
    total = sum(len(p) for p in state.zones.cards)
    before = sorted(str(c) for p in state.zones.cards for c in p)
    draws = state.draws
    gather(state, 0)
    assert len(state.zones.cards[0]) == total and all(not p for p in state.zones.cards[1:])
    assert sorted(str(c) for c in state.zones.cards[0]) == before  # nothing lost or doubled
    assert state.zones.seen[0] == [0] * total and state.draws == draws + 1  # forgotten, one chance event
    again = game.clone().state
    gather(again, 0)
    assert [str(c) for c in again.zones.cards[0]] == [str(c) for c in state.zones.cards[0]]
