"""Rules whose named tests let a broken rule pass (a mutation audit of 2026-12-24).

Each test is named after the rule it guards (seeds/tonk.md) and fails when that rule breaks:
the audit broke each rule in turn and ran only the tests named after it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.games.tonk.helpers import pass_turn, tonk

import cardcore
from cardcore import IllegalActionError
from cardcore_tonk.actions import Drop

H20 = "10S 4H 3D 2C AS"
H15 = "5D 4C 3H 2D AD"
H30 = "10H 6S 7C 3C 4D"
N49 = "10C JH QD KC 9S"  # 10 + 10 + 10 + 10 + 9
N50 = "JD JS QS KS 10D"  # 5 x 10
LOW = ["10S 5H 3D AC AS", "2S 3H 4D 2C AH", "AD 2D 3C 4S 2H"]  # 20, 12, 12: no spread


def _tonk_out(stake: int) -> cardcore.Game:
    game = tonk(["5H 6H 7H 9C 9D", H15, H30], stock="9S", stake=stake)
    for text in ("draw", "spread 5H 6H 7H", "spread 9S 9C 9D"):
        game.act(0, text)
    return game


def _out_by_discard(stake: int) -> cardcore.Game:
    game = tonk(["5H 6H 7H 8H KC", H15, H30], stock="9H", stake=stake)
    for text in ("draw", "spread 5H 6H 7H 8H 9H", "discard KC"):
        game.act(0, text)
    return game


def _stock_out(stake: int) -> cardcore.Game:
    game = tonk(LOW, stake=stake)
    while not game.is_over:
        pass_turn(game, game.to_act[0])
    return game


def _caught_drop(stake: int) -> cardcore.Game:
    game = tonk([H20, H15, H30], stake=stake)
    game.act(0, "drop")
    return game


def _won_drop(stake: int) -> cardcore.Game:
    game = tonk([H15, H20, H30], stake=stake)
    game.act(0, "drop")
    return game


def _natural(stake: int) -> cardcore.Game:
    return tonk([H20, N50, H30], natural=True, stake=stake)


ENDINGS: dict[str, tuple[Callable[[int], cardcore.Game], tuple[int, ...]]] = {
    "tonk-out": (_tonk_out, (4, -2, -2)),  # TONK-OUT-1: 2S from each
    "out": (_out_by_discard, (2, -1, -1)),  # TONK-OUT-2: S from each
    "stock-out": (_stock_out, (-2, 1, 1)),  # TONK-STOCK-2: the tied lowest collect S each
    "caught drop": (_caught_drop, (-2, 3, -1)),  # TONK-DROP-3/4
    "won drop": (_won_drop, (2, -1, -1)),  # TONK-DROP-2
    "natural": (_natural, (-2, 4, -2)),  # TONK-49-1: 50 collects 2S from each
}


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_tonk_stake_1_every_ending_pays_in_multiples_of_the_stake(ending: str) -> None:
    play, at_one = ENDINGS[ending]
    one = play(1).result
    assert one is not None and one.payouts == at_one
    for stake in (2, 5):
        result = play(stake).result
        assert result is not None and result.reason == one.reason
        assert result.payouts == tuple(stake * p for p in at_one)


def test_tonk_dealer_2_the_deal_passes_after_a_void_deal() -> None:
    # two naturals: the hand is void (TONK-49-2); seat 2 dealt it, so seat 0 deals next
    game = tonk([N49, N50, H30], natural=True, hands=2)
    table = game.view(None)["table"]
    assert table["dealer"] == 0 and game.to_act == (0,)
    game.act(0, "deal")
    table = game.view(None)["table"]
    assert table["dealer"] == 0 and game.to_act == (1,)  # left of the new dealer plays first


def test_tonk_turn_2_no_drop_after_drawing_without_a_legal_set_asked_first() -> None:
    # the engine asks Tonk whether the action is legal: no cached legal set decides it
    for attempt in ("act", "apply"):
        game = tonk([H20, H15, H30], stock="9D")
        game.act(0, "draw")
        with pytest.raises(IllegalActionError, match="TONK-TURN-2"):
            if attempt == "act":
                game.act(0, "drop")
            else:
                game.apply(Drop(0))
        assert not game.is_over and game.to_act == (0,)
        assert len(game.view(0)["table"]["hand"]) == 6


# -- a second pass (the other rule IDs) ------------------------------------------------------------


def test_tonk_deal_2_the_upcard_is_face_up_to_everyone() -> None:
    game = tonk(["2H 3H 4S 6D 8C", "5S 5H 7C 9D JS"], upcard="QC", stock="KD 2C")
    assert "| discard: QC! |" in game.position()  # "!": known to all, not only shown on top
    for seat in (0, 1, None):
        assert game.view(seat)["table"]["discard_top"] == "QC"


def test_tonk_spread_1_a_book_of_three_with_only_three_of_the_rank_held() -> None:
    game = tonk(["7H 7S 7D 8D KC", "2H 3C 4S 6D 9C"], stock="2C 5D")
    game.act(0, "draw")  # three 7s and no fourth: the book is of exactly three
    assert "spread 7S 7H 7D" in [str(a) for a in game.legal_actions(0)]
    game.act(0, "spread 7S 7H 7D")
    assert game.view(1)["table"]["spreads"] == [
        {"number": 1, "owner": 0, "cards": ["7S", "7H", "7D"]}
    ]


# -- a third pass ----------------------------------------------------------------------------------

H45 = "10S JC QH KD 5D"  # 45 points: never the lowest


def test_tonk_spread_3_spread_cards_do_not_count_when_a_drop_is_judged() -> None:
    from tests.games.tonk.helpers import last_hand

    # P0 lays 5H 6H 7H and keeps AD AC (2). P1 drops on 15: caught by P0 only if the spread
    # does not count (2 <= 15; counting it P0 would hold 20 and P1 would win)
    game = tonk(["5H 6H 7H 2C AD", "9S 2H 2D AS AH", H45], stock="AC")
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard 2C")
    assert game.view(0)["table"]["total"] == 2
    game.act(1, "drop")
    last = last_hand(game)
    assert last is not None and last["reason"] == "drop-caught"
    assert last["amounts"][1] < 0 < last["amounts"][0]


def test_tonk_legal_1_discards_in_card_order_when_nothing_can_be_laid() -> None:
    game = tonk(["KS 2C 9D 4H 7S", "9S 2H 2D AS AH", H45], stock="JD")
    game.act(0, "draw")  # no book, no run, no spread to hit: only discards
    assert [str(a) for a in game.legal_actions(0)] == [
        "discard 2C", "discard 4H", "discard 7S", "discard 9D", "discard JD", "discard KS",
    ]  # fmt: skip


def test_tonk_legal_1_start_order_with_the_stock_out_under_a_house_rule() -> None:
    game = tonk(["KS 2C 9D 4H 7S", "9S 2H 2D AS AH", H45], rules=["tonk.stock-out-discard-only"])
    seat = 0
    while game.view(None)["table"]["stock"]:
        pass_turn(game, seat)
        seat = (seat + 1) % 3
    assert not game.is_over and game.to_act == (seat,)
    assert [str(a) for a in game.legal_actions(seat)] == ["drop", "draw", "take"]
