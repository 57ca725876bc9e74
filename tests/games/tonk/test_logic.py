"""Tests of the pure Tonk logic (spreads, hits, totals, payouts), hand-computed."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore_tonk.melds import (
    BOOK,
    RUN,
    CardLike,
    Meld,
    caught_drop_payout,
    classify,
    drop_payout,
    hand_total,
    hit,
    pay_from_each,
    sort_cards,
    spread_candidates,
    stock_out_payout,
)


@dataclass(frozen=True)
class _Suit:
    letter: str


@dataclass(frozen=True)
class _Card:
    rank: int
    suit: _Suit

    def __str__(self) -> str:
        return _LABELS[self.rank] + self.suit.letter


_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}
_RANKS = {v: k for k, v in _LABELS.items()}


def c(text: str) -> _Card:
    return _Card(_RANKS[text[:-1]], _Suit(text[-1]))


def cs(text: str) -> list[_Card]:
    return [c(t) for t in text.split()]


def _value(card: CardLike) -> int:
    return min(int(card.rank), 10)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7H 7S 7D", Meld(BOOK, "", 7, 7, 3)),
        ("7H 7S 7D 7C", Meld(BOOK, "", 7, 7, 4)),
        ("JH JS", None),
        ("7H 7S 8D", None),
    ],
)
def test_tonk_spread_1_book_three_or_four_of_a_rank(text: str, expected: Meld | None) -> None:
    assert classify(cs(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS 2S 3S", Meld(RUN, "S", 1, 3, 3)),
        ("4S 2S 3S AS", Meld(RUN, "S", 1, 4, 4)),
        ("9H 10H JH QH KH", Meld(RUN, "H", 9, 13, 5)),
        ("QS KS AS", None),  # ace is low only
        ("KS AS 2S", None),
        ("5H 6H 7C", None),  # one suit
        ("5H 6H 8H", None),  # gap
        ("5H 6H", None),
    ],
)
def test_tonk_spread_2_run_same_suit_ace_low(text: str, expected: Meld | None) -> None:
    assert classify(cs(text)) == expected


def test_tonk_hit_1_book_to_four_run_at_either_end() -> None:
    book = Meld(BOOK, "", 7, 7, 3)
    four = hit(book, c("7C"))
    assert four == Meld(BOOK, "", 7, 7, 4)
    assert hit(four, c("7C")) is None  # never five
    assert hit(book, c("8C")) is None
    run = Meld(RUN, "C", 5, 7, 3)
    assert hit(run, c("4C")) == Meld(RUN, "C", 4, 7, 4)
    assert hit(run, c("8C")) == Meld(RUN, "C", 5, 8, 4)
    assert hit(run, c("8H")) is None
    assert hit(run, c("9C")) is None
    assert hit(Meld(RUN, "C", 1, 3, 3), c("KC")) is None  # no wrap below the ace
    assert hit(Meld(RUN, "C", 11, 13, 3), c("AC")) is None  # no wrap above the king


def test_tonk_val_1_values() -> None:
    assert hand_total(cs("AS 2H 10D JC QS KH"), _value) == 1 + 2 + 10 + 10 + 10 + 10
    assert hand_total(cs("5S 9H"), {c("5S"): 5, c("9H"): 9}) == 14


def test_tonk_legal_1_spread_candidates_order() -> None:
    hand = cs("5H 4H 4S 4D 6H 3H")
    got = [" ".join(map(str, sp)) for sp in spread_candidates(hand)]
    assert got == [
        "4S 4H 4D",
        "3H 4H 5H",
        "3H 4H 5H 6H",
        "4H 5H 6H",
    ]
    four = [" ".join(map(str, sp)) for sp in spread_candidates(cs("9C 9D 9H 9S"))]
    assert four == ["9S 9H 9D", "9S 9H 9C", "9S 9D 9C", "9H 9D 9C", "9S 9H 9D 9C"]
    assert spread_candidates(cs("QS KS AS 2S")) == []


def test_sort_cards_rank_then_suit() -> None:
    assert [str(x) for x in sort_cards(cs("KC 2D 2S AH"))] == ["AH", "2S", "2D", "KC"]


def test_pay_from_each_takes_the_amount_from_every_other_seat() -> None:
    """The helper behind TONK-OUT-1/2 (whose own tests play a tonk-out and an out by
    discard through the engine, tests/games/tonk/test_rules.py)."""
    assert pay_from_each(1, 3, 2) == [-2, 4, -2]
    assert pay_from_each(2, 3, 1) == [-1, -1, 2]


def test_tonk_drop_2_strictly_lowest_dropper_wins() -> None:
    assert drop_payout(0, [3, 7, 9], 1) == ([2, -1, -1], False)
    assert drop_payout(1, [3, 7, 9], 5)[1] is True


def test_tonk_drop_3_caught_dropper_pays_double_to_equal_or_lower() -> None:
    # dropper 10; P1 5 (<=) paid 2, P2 20 not paid; P1 lowest collects 1 from P2
    assert caught_drop_payout(0, [10, 5, 20], 1) == [-2, 3, -1]
    # both at or below the dropper
    assert caught_drop_payout(0, [10, 5, 8], 1) == [-4, 3, 1]
    # equal counts as caught
    assert caught_drop_payout(0, [10, 10, 20], 1) == [-2, 3, -1]


def test_tonk_drop_4_lowest_collects_from_others_not_dropper() -> None:
    # 4 players, stake 2: dropper 1 with 9; P0 3, P2 8, P3 30
    # dropper pays 4 to P0 and P2; P0 lowest collects 2 from P2 and P3
    assert caught_drop_payout(1, [3, 9, 8, 30], 2) == [8, -8, 2, -2]
    # two players: caught drop costs exactly 2S
    assert drop_payout(0, [12, 4], 1) == ([-2, 2], True)


def test_tonk_drop_5_tied_lowest_all_paid() -> None:
    assert caught_drop_payout(0, [9, 4, 4], 1) == [-4, 2, 2]
    # 4 players: P1, P2 tie lowest at 4; P3 (6) pays each of them 1
    assert caught_drop_payout(0, [9, 4, 4, 6], 1) == [-6, 3, 3, 0]
    # dropper tied with the lowest non-dropper: the other is the sole lowest
    assert drop_payout(0, [6, 6, 20], 1) == ([-2, 3, -1], True)


def test_tonk_stock_2_lowest_collects_ties_share() -> None:
    assert stock_out_payout([12, 5, 20], 1) == [-1, 2, -1]
    assert stock_out_payout([12, 5, 5], 1) == [-2, 1, 1]
    assert stock_out_payout([5, 5, 5], 3) == [0, 0, 0]
    assert stock_out_payout([8, 3], 2) == [-2, 2]


def test_tonk_legal_1_int_enumeration_matches_card_enumeration() -> None:
    from cardcore_tonk.melds import card_index, spreads_of

    hand = cs("5H 4H 4S 4D 6H 3H 4C")
    idx = sorted(card_index(x) for x in hand)
    by_int = [tuple(sorted(sp)) for sp in spreads_of(idx)]
    by_card = [tuple(card_index(x) for x in sp) for sp in spread_candidates(hand)]
    assert by_int == by_card


def test_tonk_hit_1_targets() -> None:
    from cardcore_tonk.melds import card_index, hit_targets, meld_of

    run = meld_of([card_index(x) for x in cs("5C 6C 7C")])
    assert run == Meld(RUN, "C", 5, 7, 3)
    assert sorted(hit_targets(run)) == sorted(card_index(x) for x in cs("4C 8C"))
    low = meld_of([card_index(x) for x in cs("AD 2D 3D")])
    assert low is not None
    assert hit_targets(low) == (card_index(c("4D")),)
    top = meld_of([card_index(x) for x in cs("JD QD KD")])
    assert top is not None
    assert hit_targets(top) == (card_index(c("10D")),)
    assert hit_targets(Meld(BOOK, "", 9, 9, 4)) == ()
    assert meld_of([card_index(x) for x in cs("QS KS AS")]) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 60), min_size=2, max_size=4), st.integers(1, 5), st.data())
def test_tonk_drop_3_payout_properties(totals: list[int], stake: int, data: st.DataObject) -> None:
    dropper = data.draw(st.integers(0, len(totals) - 1))
    payouts, caught = drop_payout(dropper, totals, stake)
    assert sum(payouts) == 0
    others = [i for i in range(len(totals)) if i != dropper]
    at_or_below = [i for i in others if totals[i] <= totals[dropper]]
    assert caught == bool(at_or_below)
    if caught:
        assert payouts[dropper] == -2 * stake * len(at_or_below)
        low = min(totals[i] for i in others)
        for i in others:
            if totals[i] == low:
                assert payouts[i] > 0
    else:
        assert payouts[dropper] == stake * len(others)
    stock = stock_out_payout(totals, stake)
    assert sum(stock) == 0
    low = min(totals)
    assert all((p > 0) == (t == low) for p, t in zip(stock, totals, strict=True)) or all(
        t == low for t in totals
    )
