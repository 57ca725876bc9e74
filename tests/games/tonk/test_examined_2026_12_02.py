"""Tonk examined against the seed (2026-12-02): worked examples computed by hand.

Authority: ``shared/seeds/tonk.en.md`` (the seed) and the Tonk part of
``shared/rules-decisions.md``. Every expected value below was worked out from
those texts before the engine was run; the arithmetic is in each test's
docstring or comments. Payouts are net per seat, in money (stake S = 1 unless
stated), and always sum to zero.

The decks are stacked with this file's own helper (``deal``), which follows
TONK-DEAL-1/2: one card at a time from the dealer's left, then the upcard, then
the top of the stock; the rest of the pack is filled in by the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

import cardcore
from cardcore import IllegalActionError, NotationError
from cardcore_tonk.position import stack_deals

NATURAL = "tonk.natural-49-50"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL_CARDS = [r + s for s in "SHDC" for r in RANKS]

# Hands without any book or run, with their totals (TONK-VAL-1).
A20 = "10S 4H 3D 2C AS"  # 10 + 4 + 3 + 2 + 1 = 20
B15 = "5D 4C 3H 2D AD"  # 5 + 4 + 3 + 2 + 1 = 15
C30 = "10H 6S 7C 3C 4D"  # 10 + 6 + 7 + 3 + 4 = 30
D20 = "10D 5S 2H 2S AH"  # 10 + 5 + 2 + 2 + 1 = 20 (disjoint from A20, B15, C30)
E15 = "5S 4D 3C 2H AH"  # 5 + 4 + 3 + 2 + 1 = 15 (disjoint from A20, B15)
F12 = "2S 3H 4D 2H AH"  # 2 + 3 + 4 + 2 + 1 = 12 (disjoint from A20)
G15 = "5D 4C 3C 2D AD"  # 15 (disjoint from A20, F12)
N49 = "KS QH JD 10C 9S"  # 10 + 10 + 10 + 10 + 9 = 49
N50 = "KH KD QS JC 10D"  # 5 x 10 = 50
N48 = "KC QD JH 10D 8S"  # 48: not a natural


def deal_order(n: int, dealer: int) -> list[int]:
    """Seats in the order they receive cards: the dealer's left first (TONK-DEAL-1)."""
    return [(dealer + k) % n for k in range(1, n + 1)]


def deck_for(hands: list[str], dealer: int, upcard: str | None = "QC", stock: str = "") -> str:
    """Return a deck (top first) that deals *hands* (one per seat) with *dealer* dealing."""
    n = len(hands)
    split = [h.split() for h in hands]
    order = [split[s][r] for r in range(5) for s in deal_order(n, dealer)]
    if upcard is not None:
        order.append(upcard)
    return " ".join(order + stock.split())


def deal(
    seats: list[str],
    *,
    dealer: int | None = None,
    upcard: str | None = "QC",
    stock: str = "",
    rules: tuple[str, ...] = (),
    natural: bool = True,
    seed: int = 11,
    **options: Any,
) -> cardcore.Game:
    """Start a Tonk game with stacked hands; by default the last seat deals (seat 0 first)."""
    n = len(seats)
    if dealer is None:
        dealer = n - 1
    opts: dict[str, Any] = {"first_dealer": dealer}
    opts.update(options)
    return cardcore.new_game(
        "tonk",
        n,
        deck=deck_for(seats, dealer, upcard, stock),
        seed=seed,
        rules=rules,
        without=() if natural else (NATURAL,),
        options=opts,
    )


def table(game: cardcore.Game, seat: int | None = 0) -> dict[str, Any]:
    view: dict[str, Any] = game.view(seat)["table"]
    return view


def my_hand(game: cardcore.Game, seat: int) -> list[str]:
    return list(table(game, seat)["hand"])


def legal(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def pass_turn(game: cardcore.Game, seat: int) -> str:
    """Draw from the stock and throw the drawn card away (the hand is unchanged)."""
    before = set(my_hand(game, seat))
    game.act(seat, "draw")
    (drawn,) = set(my_hand(game, seat)) - before
    game.act(seat, f"discard {drawn}")
    return drawn


def hand_entries(game: cardcore.Game) -> list[dict[str, Any]]:
    return [e for e in game.history(None) if e["kind"] == "hand"]


def result(game: cardcore.Game) -> cardcore.Result:
    assert game.result is not None
    return game.result


def payouts(game: cardcore.Game) -> tuple[int, ...]:
    money = result(game).payouts
    assert money is not None
    return tuple(money)


def reason(game: cardcore.Game) -> str:
    assert game.result is not None
    return game.result.reason


# ============================================================================================
# Setup: values, stake, dealer, deal
# ============================================================================================


def test_TONK_VAL_1_ace_one_faces_ten_numbers_face_value() -> None:
    """Ex 1. A+2+10+J+K = 1+2+10+10+10 = 33; Q+9+8+7+6 = 10+9+8+7+6 = 40."""
    game = deal(["AS 2H 10D JC KH", "QS 9C 8D 7S 6H"])
    assert table(game, 0)["total"] == 33
    assert table(game, 1)["total"] == 40


def test_TONK_STAKE_1_every_payment_is_a_multiple_of_the_stake() -> None:
    """Ex 2. Stake 5: P0 (20) drops against 15 and 30 and is caught.

    In stakes: P0 pays 2 to P1 (15 <= 20); P1 (lowest) takes 1 from P2 -> (-2, +3, -1)S
    = (-10, +15, -5).
    """
    game = deal([A20, B15, C30], stake=5)
    game.act(0, "drop")
    assert payouts(game) == (-10, 15, -5)
    assert tuple(result(game).scores) == (-2, 3, -1)


def test_TONK_DEALER_1_cut_highest_card_deals_king_high_ace_low() -> None:
    """Ex 3. Without first_dealer the players cut; the highest rank (K high, A low) deals.

    For every seeded cut: in the last round exactly one seat holds the highest rank and that
    seat is the dealer; earlier rounds are ties for highest among those still drawing; the
    player to the dealer's left moves first.
    """
    order = {r: i for i, r in enumerate(RANKS)}  # A=0 ... K=12
    for seed in range(40):
        game = cardcore.new_game("tonk", 3, seed=seed, without=(NATURAL,))
        (cut,) = [e for e in game.history(None) if e["kind"] == "cut"]
        contenders = {0, 1, 2}
        for row in cut["rounds"]:
            drawn = {s: order[r] for s, r in enumerate(row) if r is not None}
            assert set(drawn) == contenders
            best = max(drawn.values())
            contenders = {s for s, v in drawn.items() if v == best}
        assert len(contenders) == 1
        dealer = contenders.pop()
        assert cut["dealer"] == dealer == table(game, None)["dealer"]
        assert game.to_act == ((dealer + 1) % 3,)


def test_TONK_DEALER_2_deal_passes_left_after_every_hand() -> None:
    """Ex 4. Three hands, seat 1 deals first: dealers 1, 2, 0; first players 2, 0, 1."""
    game = cardcore.new_game(
        "tonk", 3, seed=4, without=(NATURAL,), options={"hands": 3, "first_dealer": 1}
    )
    dealers, firsts = [], []
    while not game.is_over:
        t = table(game, None)
        if t["phase"] == "between":
            game.act(game.to_act[0], "deal")
            continue
        dealers.append(t["dealer"])
        firsts.append(game.to_act[0])
        game.act(game.to_act[0], "drop")
    assert dealers == [1, 2, 0]
    assert firsts == [2, 0, 1]


def test_TONK_DEAL_1_five_cards_one_at_a_time_from_dealers_left() -> None:
    """Ex 5. Seat 0 deals 3 players: deck cards 1,4,7,10,13 go to seat 1, 2,5,... to seat 2,
    3,6,... to the dealer; seat 1 (dealer's left) moves first."""
    deck = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H"
    game = cardcore.new_game(
        "tonk", 3, deck=deck, seed=1, without=(NATURAL,), options={"first_dealer": 0}
    )
    assert set(my_hand(game, 1)) == {"AS", "4S", "7S", "10S", "KS"}
    assert set(my_hand(game, 2)) == {"2S", "5S", "8S", "JS", "AH"}
    assert set(my_hand(game, 0)) == {"3S", "6S", "9S", "QS", "2H"}
    assert table(game, 0)["discard_top"] == "3H"  # the 16th card is the upcard
    assert game.to_act == (1,)


def test_TONK_DEAL_2_upcard_then_stock_three_and_two_players() -> None:
    """Ex 6. 3 players: 52 - 15 - 1 = 36 stock cards; 2 players: 52 - 10 - 1 = 41.

    The upcard is the only discard; the next stock card is the first one drawn.
    """
    game = deal([A20, B15, C30], upcard="KD", stock="9D")
    t = table(game, 0)
    assert (t["discard_top"], t["discard_count"], t["stock"]) == ("KD", 1, 36)
    game.act(0, "draw")
    assert "9D" in my_hand(game, 0)
    two = deal([A20, B15], upcard="KD")
    t = table(two, 1)
    assert (t["discard_top"], t["discard_count"], t["stock"]) == ("KD", 1, 41)


def test_TONK_DISC_1_only_the_top_discard_is_visible() -> None:
    """Ex 7. Upcard KD, then discards 9D and 8H: everybody sees 8H and a count of 3, nothing
    of KD or 9D."""
    game = deal([A20, B15, C30], upcard="KD", stock="9D 8H")
    game.act(0, "draw")
    game.act(0, "discard 9D")
    game.act(1, "draw")
    game.act(1, "discard 8H")
    for seat in (None, 0, 1, 2):
        t = table(game, seat)
        assert (t["discard_top"], t["discard_count"]) == ("8H", 3)
        text = repr(t)
        assert "KD" not in text and "9D" not in text


# ============================================================================================
# The turn
# ============================================================================================


def test_TONK_TURN_1_play_starts_left_of_dealer_and_goes_clockwise() -> None:
    """Ex 8. Seat 1 deals 3 players: turns go 2, 0, 1, 2."""
    game = deal([A20, B15, C30], dealer=1)
    order = []
    for _ in range(4):
        seat = game.to_act[0]
        order.append(seat)
        pass_turn(game, seat)
    assert order == [2, 0, 1, 2]


def test_TONK_TURN_2_drop_allowed_at_start_of_very_first_turn() -> None:
    """Ex 9. Right after the deal the first player's options are drop, draw, take."""
    game = deal([A20, B15, C30])
    assert legal(game, 0) == ["drop", "draw", "take"]
    assert legal(game, 1) == [] and legal(game, 2) == []


def test_TONK_TURN_2_no_drop_after_drawing_nor_out_of_turn() -> None:
    """Ex 10. After 'draw' the player may not drop; another seat may never drop out of turn."""
    game = deal([A20, B15, C30], stock="9D")
    with pytest.raises(IllegalActionError, match=r"\(CORE-TURN-1\)"):
        game.act(1, "drop")
    game.act(0, "draw")
    assert "drop" not in legal(game, 0)
    with pytest.raises(IllegalActionError, match=r"\(TONK-TURN-2\)"):
        game.act(0, "drop")
    assert not game.is_over


def test_TONK_TURN_3_must_draw_before_discarding_and_draw_only_once() -> None:
    """Ex 11. Discard before drawing: illegal. Draw then draw/take again: illegal.
    Discard ends the turn and passes it left."""
    game = deal([A20, B15, C30], upcard="KD", stock="9D 8D")
    with pytest.raises(IllegalActionError, match=r"\(TONK-TURN-3\)"):
        game.act(0, "discard 10S")
    game.act(0, "draw")
    with pytest.raises(IllegalActionError, match=r"\(TONK-TURN-2\)"):
        game.act(0, "draw")
    with pytest.raises(IllegalActionError, match=r"\(TONK-TURN-2\)"):
        game.act(0, "take")
    game.act(0, "discard 10S")
    assert game.to_act == (1,)
    assert table(game, 1)["discard_top"] == "10S"
    assert table(game, 1)["hand_sizes"] == [5, 5, 5]


def test_TONK_TURN_3_take_the_top_discard() -> None:
    """Ex 12. 'take' puts the upcard KD in hand (6 cards); the pile is empty until the discard."""
    game = deal([A20, B15, C30], upcard="KD")
    game.act(0, "take")
    assert "KD" in my_hand(game, 0)
    assert table(game, 1)["hand_sizes"][0] == 6
    assert table(game, 1)["discard_count"] == 0
    game.act(0, "discard AS")
    t = table(game, 1)
    assert (t["discard_top"], t["discard_count"], t["hand_sizes"][0]) == ("AS", 1, 5)


def test_TONK_TURN_3_no_spread_or_hit_before_drawing() -> None:
    """Ex 13. P0 holds a book 7-7-7 but must draw first: 'spread' at the start is illegal."""
    game = deal(["7H 7S 7D 2C KC", B15, C30], stock="9S")
    with pytest.raises(IllegalActionError, match=r"\(TONK-TURN-3\)"):
        game.act(0, "spread 7H 7S 7D")
    game.act(0, "draw")
    game.act(0, "spread 7H 7S 7D")
    assert table(game, 1)["spreads"][0]["cards"] == ["7S", "7H", "7D"]


def test_TONK_TURN_4_taken_discard_may_not_be_thrown_back() -> None:
    """Ex 14. P0 takes KD: 'discard KD' is illegal this turn; P1 may then take P0's discard."""
    game = deal([A20, B15, C30], upcard="KD")
    game.act(0, "take")
    assert "discard KD" not in legal(game, 0)
    with pytest.raises(IllegalActionError, match=r"\(TONK-TURN-4\)"):
        game.act(0, "discard KD")
    game.act(0, "discard 10S")
    game.act(1, "take")
    assert "10S" in my_hand(game, 1)


# ============================================================================================
# Spreads and hits
# ============================================================================================


def test_TONK_SPREAD_1_books_of_three_or_four_only() -> None:
    """Ex 15. 7-7-7 is a book, 7-7-7-7 is a book; 7-7 and 7-7-8 are not."""
    game = deal(["7H 7S 7D 8D KC", B15, A20], stock="7C")
    game.act(0, "draw")
    for bad in ("spread 7H 7S", "spread 7H 7S 8D"):
        with pytest.raises(IllegalActionError, match=r"\(TONK-SPREAD-1\)"):
            game.act(0, bad)
    assert "spread 7S 7H 7D" in legal(game, 0)
    game.act(0, "spread 7S 7H 7D 7C")
    assert table(game, 1)["spreads"] == [
        {"number": 1, "owner": 0, "cards": ["7S", "7H", "7D", "7C"]}
    ]
    assert table(game, 0)["total"] == 8 + 10


def test_TONK_SPREAD_2_run_ace_low_only() -> None:
    """Ex 16. A-2-3 (spades) is a run; Q-K-A and K-A-2 are not (ace is low only)."""
    game = deal(["QS KS AS 2S 3S", B15, C30], stock="8D")
    game.act(0, "draw")
    for bad in ("spread QS KS AS", "spread KS AS 2S"):
        with pytest.raises(IllegalActionError, match=r"\(TONK-SPREAD-2\)"):
            game.act(0, bad)
    game.act(0, "spread AS 2S 3S")
    assert table(game, 0)["total"] == 10 + 10 + 8


def test_TONK_SPREAD_2_run_needs_one_suit_and_no_gap() -> None:
    """Ex 17. 5H-6C-7H (mixed suits) and 5H-6H-8H (gap) are not runs; J-Q-K of hearts is, and
    5H-6H-7H-8H in any written order is."""
    game = deal(["5H 6H 8H 6C 7H", "JH QH KH 2C 3D", C30], stock="9C 9D")
    game.act(0, "draw")
    for bad in ("spread 5H 6C 7H", "spread 5H 6H 8H"):
        with pytest.raises(IllegalActionError, match=r"\(TONK-SPREAD-2\)"):
            game.act(0, bad)
    game.act(0, "spread 8H 6H 7H 5H")
    game.act(0, "discard 9C")
    game.act(1, "draw")
    game.act(1, "spread KH JH QH")
    assert [s["cards"] for s in table(game, 2)["spreads"]] == [
        ["5H", "6H", "7H", "8H"],
        ["JH", "QH", "KH"],
    ]


def test_TONK_SPREAD_3_spread_cards_leave_the_hand_total() -> None:
    """Ex 18. P0 5H 6H 7H KC QD + AC: 18 + 20 + 1 = 39; after laying the run: 21; after
    discarding KC: 11. Then P1 (9S 9D 8C 2H 3S = 31) drops: caught by P0 (11) and P2 (30)
    -> P1 pays 2 + 2; P0 lowest takes 1 from P2: (+3, -4, +1)."""
    game = deal(["5H 6H 7H KC QD", "9S 9D 8C 2H 3S", C30], stock="AC")
    game.act(0, "draw")
    assert table(game, 0)["total"] == 39
    game.act(0, "spread 5H 6H 7H")
    assert table(game, 0)["total"] == 21
    game.act(0, "discard KC")
    assert table(game, 0)["total"] == 11
    game.act(1, "drop")
    assert reason(game) == "drop-caught"
    assert payouts(game) == (3, -4, 1)
    assert hand_entries(game)[-1]["totals"] == [11, 31, 30]


def test_TONK_HIT_1_run_extended_at_either_end() -> None:
    """Ex 19. P0 lays 5H 6H 7H; P1 hits 4H (low end) and 8H (high end) -> 4H..8H."""
    game = deal(["5H 6H 7H 9C 9D", "4H 8H 9S KD QD", C30], stock="KC 2C")
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")
    game.act(1, "hit 1 4H")
    game.act(1, "hit 1 8H")
    assert table(game, 0)["spreads"][0]["cards"] == ["4H", "5H", "6H", "7H", "8H"]
    assert table(game, 1)["total"] == 9 + 10 + 10 + 2


def test_TONK_HIT_1_invalid_hits_are_illegal() -> None:
    """Ex 20. On run 5H-6H-7H: 9H (gap), 8S (wrong suit), 9S (nothing) cannot be added;
    a hit to a spread number that does not exist is illegal."""
    game = deal(["5H 6H 7H 9C 9D", "9H 8S 9S KD QD", C30], stock="KC 2C")
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")
    assert [a for a in legal(game, 1) if a.startswith("hit")] == []
    for bad in ("hit 1 9H", "hit 1 8S", "hit 1 9S", "hit 2 9S"):
        with pytest.raises(IllegalActionError, match=r"\(TONK-HIT-1\)"):
            game.act(1, bad)


def test_TONK_HIT_1_no_wraparound_hits_on_runs() -> None:
    """Ex 21. Ace is low only: KS cannot go below AS-2S-3S, AH cannot go above JH-QH-KH."""
    game = deal(["AS 2S 3S AH 9D", "JH QH KH KS 2C", C30], stock="8C 8D 7D")
    game.act(0, "draw")  # 8C
    game.act(0, "spread AS 2S 3S")
    game.act(0, "discard 8C")
    game.act(1, "draw")  # 8D
    game.act(1, "spread JH QH KH")
    with pytest.raises(IllegalActionError, match=r"\(TONK-HIT-1\)"):
        game.act(1, "hit 1 KS")
    game.act(1, "discard 8D")
    pass_turn(game, 2)
    game.act(0, "draw")  # a card from the unstacked stock
    with pytest.raises(IllegalActionError, match=r"\(TONK-HIT-1\)"):
        game.act(0, "hit 2 AH")
    assert "hit 2 AH" not in legal(game, 0)


def test_TONK_HIT_1_book_grows_to_four_and_no_further() -> None:
    """Ex 22. Book 9S 9H 9D takes 9C (four); nothing more can be added to a four-card book."""
    game = deal(["9S 9H 9D 2C 5C", "9C KD QD JD 4S", C30], stock="KC 8H 8C")
    game.act(0, "draw")
    game.act(0, "spread 9S 9H 9D")
    game.act(0, "discard KC")
    game.act(1, "draw")
    game.act(1, "hit 1 9C")
    assert table(game, 0)["spreads"][0]["cards"] == ["9S", "9H", "9D", "9C"]
    game.act(1, "discard 8H")
    game.act(2, "draw")  # 8C
    assert [a for a in legal(game, 2) if a.startswith("hit")] == []


def test_TONK_HIT_2_any_spread_several_hits_and_spreads_per_turn() -> None:
    """Ex 23. P0 lays 5H 6H 7H and discards KC. P1 takes KC and hits P0's run three times
    (4H, 8H, 9H) in one turn, then discards 2D: run 4H..9H; P1 keeps 2S KC = 12."""
    game = deal(
        ["5H 6H 7H KC JS", "4H 8H 9H 2S 2D", "2H 2C 3C 3D 4D"],
        upcard="3S",
        stock="QD 10C AC",
    )
    game.act(0, "draw")  # QD
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "take")  # KC
    game.act(1, "hit 1 4H")
    game.act(1, "hit 1 8H")
    game.act(1, "hit 1 9H")
    game.act(1, "discard 2D")
    assert table(game, 2)["spreads"][0]["cards"] == ["4H", "5H", "6H", "7H", "8H", "9H"]
    assert my_hand(game, 1) == ["2S", "KC"]
    assert table(game, 1)["total"] == 12


def test_TONK_HIT_2_hit_your_own_new_spread_in_the_same_turn() -> None:
    """Ex 24. P0 draws 8H, lays 5H 6H 7H and hits it with 8H in the same turn (any order)."""
    game = deal(["5H 6H 7H KC QD", B15, C30], stock="8H")
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "hit 1 8H")
    game.act(0, "discard KC")
    assert table(game, 1)["spreads"][0]["cards"] == ["5H", "6H", "7H", "8H"]
    assert table(game, 0)["total"] == 10


# ============================================================================================
# Going out: tonk-out (no discard) and out by the last discard
# ============================================================================================


def test_TONK_OUT_1_tonk_out_with_two_spreads_pays_double() -> None:
    """Ex 25. P0 JH JD JC 2S 3S draws 4S, lays J-J-J and 2-3-4 spades: hand empty without a
    discard -> tonk-out, 2S from each of two players: (+4, -2, -2). The hand ends at once."""
    game = deal(["JH JD JC 2S 3S", B15, C30], stock="4S")
    game.act(0, "draw")
    game.act(0, "spread JH JD JC")
    assert not game.is_over
    game.act(0, "spread 2S 3S 4S")
    assert game.is_over
    assert reason(game) == "tonk-out"
    assert payouts(game) == (4, -2, -2)
    assert legal(game, 1) == []


def test_TONK_OUT_1_tonk_out_two_players_stake_five() -> None:
    """Ex 26. Same tonk-out for 2 players at stake 5: P1 pays 2 x 5 = 10: (+10, -10)."""
    game = deal(["JH JD JC 2S 3S", B15], stock="4S", stake=5)
    game.act(0, "draw")
    game.act(0, "spread JH JD JC")
    game.act(0, "spread 2S 3S 4S")
    assert reason(game) == "tonk-out"
    assert payouts(game) == (10, -10)


def test_TONK_OUT_1_tonk_out_by_hits_alone_pays_double_in_the_base_game() -> None:
    """Ex 27. P0 lays 2C 3C 4C (turn 1), keeps 5C 6C; turn 2 draws 7C and hits 5C, 6C, 7C:
    empty without discard. Base game (VAR-3 off): 2S -> (+2, -2)."""
    game = deal(["2C 3C 4C 5C 6C", "KH KS 8D 8S 10D"], stock="JH QS 7C")
    game.act(0, "draw")
    game.act(0, "spread 2C 3C 4C")
    game.act(0, "discard JH")
    game.act(1, "draw")
    game.act(1, "discard QS")
    game.act(0, "draw")
    for card in ("5C", "6C", "7C"):
        game.act(0, f"hit 1 {card}")
    assert reason(game) == "tonk-out"
    assert payouts(game) == (2, -2)


def test_TONK_OUT_1_tonk_out_with_the_taken_discard() -> None:
    """Ex 28. P0 9H 9D 5H 6H 7H takes the upcard 9C: spreads 9-9-9 and 5-6-7 spades use all
    six cards; emptying the hand is allowed even with the taken card -> (+4, -2, -2)."""
    game = deal(["9H 9D 5H 6H 7H", B15, C30], upcard="9C")
    game.act(0, "take")
    game.act(0, "spread 9H 9D 9C")
    game.act(0, "spread 5H 6H 7H")
    assert reason(game) == "tonk-out"
    assert payouts(game) == (4, -2, -2)


def test_TONK_OUT_2_out_by_discarding_the_last_card_pays_single() -> None:
    """Ex 29. P0 5H 6H 7H 8H KC draws 9H, lays 5H..9H, discards KC: empty after the discard
    -> S from each: (+2, -1, -1)."""
    game = deal(["5H 6H 7H 8H KC", B15, C30], stock="9H")
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H 8H 9H")
    assert not game.is_over
    game.act(0, "discard KC")
    assert reason(game) == "out"
    assert payouts(game) == (2, -1, -1)


def test_TONK_OUT_2_out_by_discard_by_seat_two_stake_three() -> None:
    """Ex 30. Stake 3; P0 and P1 pass; P2 (4S 5S 6S 7S KD) draws 8S, lays 4S..8S, discards
    KD -> out by discard: P2 collects 3 from each: (-3, -3, +6)."""
    game = deal([A20, B15, "4S 5S 6S 7S KD"], stock="9S 9H 8S", stake=3)
    pass_turn(game, 0)
    pass_turn(game, 1)
    game.act(2, "draw")
    game.act(2, "spread 4S 5S 6S 7S 8S")
    game.act(2, "discard KD")
    assert reason(game) == "out"
    assert payouts(game) == (-3, -3, 6)


# ============================================================================================
# Drops
# ============================================================================================


def test_TONK_DROP_1_every_hand_shown_and_totalled() -> None:
    """Ex 31. P0 drops: the hand entry shows all three hands and totals 20, 15, 30."""
    game = deal([A20, B15, C30])
    game.act(0, "drop")
    entry = hand_entries(game)[-1]
    assert entry["totals"] == [20, 15, 30]
    assert [set(h) for h in entry["shown"]] == [
        set(A20.split()),
        set(B15.split()),
        set(C30.split()),
    ]
    assert entry["seat"] == 0


def test_TONK_DROP_2_strictly_lowest_dropper_wins_single() -> None:
    """Ex 32. P0 15 against 20 and 30: lowest -> S from each: (+2, -1, -1)."""
    game = deal([B15, A20, C30])
    game.act(0, "drop")
    assert reason(game) == "drop-won"
    assert payouts(game) == (2, -1, -1)


def test_TONK_DROP_2_two_players_dropper_wins() -> None:
    """Ex 33. Two players, P0 15 vs 20: (+1, -1)."""
    game = deal([B15, A20])
    game.act(0, "drop")
    assert reason(game) == "drop-won"
    assert payouts(game) == (1, -1)


def test_TONK_DROP_2_dropper_lowest_against_two_tied_others() -> None:
    """Ex 34. P0 15 vs 20 and 20 (the others tie, but above the dropper): (+2, -1, -1)."""
    game = deal([B15, A20, D20])
    game.act(0, "drop")
    assert reason(game) == "drop-won"
    assert payouts(game) == (2, -1, -1)


def test_TONK_DROP_3_caught_by_one_player() -> None:
    """Ex 35. P0 20 vs P1 15, P2 30: P0 pays 2 to P1; P1 lowest takes 1 from P2 (not from the
    dropper): (-2, +3, -1)."""
    game = deal([A20, B15, C30])
    game.act(0, "drop")
    assert reason(game) == "drop-caught"
    assert payouts(game) == (-2, 3, -1)


def test_TONK_DROP_3_two_players_caught_costs_double() -> None:
    """Ex 36. Two players, P0 20 vs 15: P0 pays 2 (and nothing more: GAP-5): (-2, +2)."""
    game = deal([A20, B15])
    game.act(0, "drop")
    assert reason(game) == "drop-caught"
    assert payouts(game) == (-2, 2)


def test_TONK_DROP_3_tie_with_dropper_is_caught_two_players() -> None:
    """Ex 37. Two players, P0 20 vs P1 20: a tie is not lowest -> caught, pays 2: (-2, +2)."""
    game = deal([A20, D20])
    game.act(0, "drop")
    assert reason(game) == "drop-caught"
    assert payouts(game) == (-2, 2)


def test_TONK_DROP_4_caught_by_both_lowest_collects_from_the_other() -> None:
    """Ex 38. P0 20, P1 12, P2 15: P0 pays 2 to each (-4); P1 lowest takes 1 from P2:
    P1 +3, P2 +1 -> (-4, +3, +1)."""
    game = deal([A20, F12, G15])
    game.act(0, "drop")
    assert payouts(game) == (-4, 3, 1)


def test_TONK_DROP_4_player_equal_to_dropper_is_paid_and_pays_lowest() -> None:
    """Ex 39. P0 20, P1 15, P2 20: P2 equals the dropper so is paid 2; P1 too (-4); P1 lowest
    takes 1 from P2: P1 +3, P2 +1 -> (-4, +3, +1)."""
    game = deal([A20, B15, D20])
    game.act(0, "drop")
    assert payouts(game) == (-4, 3, 1)


def test_TONK_DROP_5_dropper_tied_with_lowest_other_is_sole_lowest() -> None:
    """Ex 40. P0 20, P1 20, P2 30: caught; P0 pays 2 to P1; P1 is the sole lowest and takes 1
    from P2: (-2, +3, -1)."""
    game = deal([A20, D20, C30])
    game.act(0, "drop")
    assert reason(game) == "drop-caught"
    assert payouts(game) == (-2, 3, -1)


def test_TONK_DROP_5_two_non_droppers_tie_for_lowest() -> None:
    """Ex 41. P0 20, P1 15, P2 15: P0 pays 2 to each; P1 and P2 pay each other nothing:
    (-4, +2, +2)."""
    game = deal([A20, B15, E15])
    game.act(0, "drop")
    assert payouts(game) == (-4, 2, 2)


def test_TONK_DROP_5_all_three_tie() -> None:
    """Ex 42. 20, 20, 20: the dropper is caught by both (-4); the two others tie lowest and
    pay each other nothing: (-4, +2, +2)."""
    game = deal([A20, D20, "10H 5C 3C AD AC"])
    game.act(0, "drop")
    assert payouts(game) == (-4, 2, 2)


def test_TONK_DROP_2_dropper_in_seat_one() -> None:
    """Ex 43. P0 (30) passes; P1 (15) drops against 30 and 20 -> (-1, +2, -1)."""
    game = deal([C30, B15, A20], stock="KS")
    pass_turn(game, 0)
    game.act(1, "drop")
    assert reason(game) == "drop-won"
    assert payouts(game) == (-1, 2, -1)


def test_TONK_DROP_3_dropper_in_seat_two_caught() -> None:
    """Ex 44. P2 (30) drops after two passes against P0 20, P1 15: both at or below ->
    P2 pays 2 + 2; P1 lowest takes 1 from P0: (+1, +3, -4)."""
    game = deal([A20, B15, C30], stock="KS KH")
    pass_turn(game, 0)
    pass_turn(game, 1)
    game.act(2, "drop")
    assert payouts(game) == (1, 3, -4)


def test_TONK_DROP_4_four_players() -> None:
    """Ex 45. max_players 4. P0 20 drops; P1 12, P2 15, P3 30. P0 pays 2 to P1 and P2 (-4);
    P1 lowest takes 1 from P2 and 1 from P3: P1 +4, P2 +1, P3 -1 -> (-4, +4, +1, -1)."""
    game = deal([A20, F12, G15, "10H 6S 7C 3S 4S"], max_players=4)
    game.act(0, "drop")
    assert payouts(game) == (-4, 4, 1, -1)


def test_TONK_DROP_5_four_players_two_tied_lowest() -> None:
    """Ex 46. P0 20 drops; P1 15, P2 15, P3 35. P0 pays 2 + 2; P1 and P2 each take 1 from P3:
    (-4, +3, +3, -2)."""
    game = deal([A20, B15, E15, "10H 6S 7C 3S 9D"], max_players=4)
    game.act(0, "drop")
    assert payouts(game) == (-4, 3, 3, -2)


def test_TONK_DROP_1_a_held_spread_counts_in_the_drop_total() -> None:
    """Ex 47. P0 holds 2S 3S 4S AH AD (a run kept in hand: 9 + 2 = 11) and drops against
    P1 4C 2H AC 2D AS (10): 11 > 10 -> caught: (-2, +2)."""
    game = deal(["2S 3S 4S AH AD", "4C 2H AC 2D AS"])
    game.act(0, "drop")
    assert hand_entries(game)[-1]["totals"] == [11, 10]
    assert payouts(game) == (-2, 2)


def test_TONK_DROP_2_spreads_on_the_table_do_not_count() -> None:
    """Ex 48. P0 (5H 6H 7H KC QD) draws AC, lays 5H 6H 7H, discards KC -> hand QD AC = 11.
    P1 and P2 pass; P0 drops with 11 vs 15 and 30: the run on the table does not count; P0
    wins (+2, -1, -1)."""
    game = deal(["5H 6H 7H KC QD", B15, C30], stock="AC 8S 8H 2C")
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    pass_turn(game, 1)
    pass_turn(game, 2)
    game.act(0, "drop")
    assert hand_entries(game)[-1]["totals"] == [11, 15, 30]
    assert payouts(game) == (2, -1, -1)


# ============================================================================================
# Natural tonk: 49 or 50 on the deal
# ============================================================================================


def test_TONK_49_1_natural_49_collects_double_hand_not_played() -> None:
    """Ex 49. P1 dealt K Q J 10 9 = 49: the hand is not played; P1 takes 2S from each:
    (-2, +4, -2)."""
    game = deal([A20, N49, C30])
    assert game.is_over
    assert reason(game) == "natural"
    assert payouts(game) == (-2, 4, -2)


def test_TONK_49_1_natural_50_for_the_dealer_stake_three() -> None:
    """Ex 50. Seat 2 (dealer) dealt five ten-counters = 50; stake 3: (-6, -6, +12)."""
    game = deal([A20, B15, N50], stake=3)
    assert reason(game) == "natural"
    assert payouts(game) == (-6, -6, 12)


def test_TONK_49_1_forty_eight_is_not_a_natural() -> None:
    """Ex 51. 48 is not 49 or 50: play starts normally."""
    game = deal([N48, B15, C30])
    assert not game.is_over
    assert game.to_act == (0,)
    assert legal(game, 0) == ["drop", "draw", "take"]


def test_TONK_49_2_two_naturals_void_no_payment_deal_passes_left() -> None:
    """Ex 52. P0 49 and P1 50: draw, nobody paid; the next hand is dealt by the next dealer
    (seat 2 dealt, so seat 0 deals), balances stay 0."""
    game = deal([N49, N50, C30], hands=2)
    entry = hand_entries(game)[-1]
    assert entry["reason"] == "void"
    assert entry["amounts"] == [0, 0, 0]
    t = table(game, 0)
    assert t["balances"] == [0, 0, 0]
    assert t["phase"] == "between" and t["dealer"] == 0
    assert game.to_act == (0,)
    game.act(0, "deal")
    assert table(game, 1)["hand_sizes"] == [5, 5, 5]


def test_TONK_49_2_two_player_void_deal_pays_nothing() -> None:
    """Ex 53. Two players, both natural (49, 50): a draw; both hands shown, nobody paid."""
    game = deal([N49, N50])
    entry = hand_entries(game)[0]
    assert entry["reason"] == "void"
    assert entry["amounts"] == [0, 0]
    assert entry["totals"] == [49, 50]
    assert table(game, 0)["balances"] == [0, 0]


def test_TONK_49_2_void_deal_is_followed_by_a_new_deal_in_a_one_hand_game() -> None:
    """Ex 53b. Default options (hands=1), both players natural: nobody is paid and a new hand
    is dealt (by the next dealer, TONK-DEALER-2), so the game is not over."""
    game = deal([N49, N50])
    assert hand_entries(game)[0]["amounts"] == [0, 0]
    assert not game.is_over
    if legal(game, game.to_act[0]) == ["deal"]:
        game.act(game.to_act[0], "deal")
    assert table(game, None)["hand_sizes"] == [5, 5]


def test_TONK_49_3_reaching_49_later_has_no_effect() -> None:
    """Ex 54. P0 dealt 10S JH QD 9C AC = 40; draws KD, discards AC: holds 49; nothing happens."""
    game = deal(["10S JH QD 9C AC", B15, C30], stock="KD")
    game.act(0, "draw")
    game.act(0, "discard AC")
    assert table(game, 0)["total"] == 49
    assert not game.is_over and game.to_act == (1,)


def test_TONK_49_1_natural_on_a_later_hand_of_the_session() -> None:
    """Ex 55. Hand 1: P0 (20) drops vs 15, 30 -> (-2, +3, -1). Hand 2 dealt by seat 0 with
    seat 2 holding 50 -> (-2, -2, +4). Session: (-4, +1, +3); winner seat 2."""
    game = deal([A20, B15, C30], hands=2, seed=3)
    game.act(0, "drop")
    position = stack_deals(game.position(), [deck_for([A20, B15, N50], 0)])
    game = cardcore.new_game(
        "tonk", 3, position=position, seed=3, options={"first_dealer": 2, "hands": 2}
    )
    game.act(0, "deal")
    assert reason(game) == "natural"
    assert payouts(game) == (-4, 1, 3)
    assert tuple(result(game).winners) == (2,)


def test_TONK_GAP_13_natural_still_checked_without_upcard() -> None:
    """Ex 56. With tonk.no-upcard, P0 holding 49 still wins the natural: (+4, -2, -2)."""
    game = deal([N49, B15, C30], upcard=None, rules=("tonk.no-upcard",))
    assert reason(game) == "natural"
    assert payouts(game) == (4, -2, -2)


# ============================================================================================
# Stock exhaustion
# ============================================================================================


def _play_out_the_stock(game: cardcore.Game) -> int:
    turns = 0
    while not game.is_over:
        pass_turn(game, game.to_act[0])
        turns += 1
    return turns


def test_TONK_STOCK_1_two_players_41_turns_then_the_hand_ends() -> None:
    """Ex 57. Two players pass (draw, discard the drawn card) until the stock (41 cards) is
    gone: turn 41 (P0) takes the last card and completes the turn; P1's turn then starts with
    an empty stock and the hand ends at once. P1 15 < P0 20 -> (-1, +1)."""
    game = deal([A20, B15])
    turns = 0
    while table(game, None)["stock"] > 0:
        seat = game.to_act[0]
        before = set(my_hand(game, seat))
        game.act(seat, "draw")
        assert not game.is_over  # the player who took the last card finishes the turn
        (drawn,) = set(my_hand(game, seat)) - before
        game.act(seat, f"discard {drawn}")
        turns += 1
    assert turns == 41
    assert game.is_over
    assert reason(game) == "stock-out"
    assert legal(game, 1) == [] and legal(game, 0) == []
    assert payouts(game) == (-1, 1)
    assert hand_entries(game)[-1]["totals"] == [20, 15]


def test_TONK_STOCK_2_three_players_lowest_collects_single() -> None:
    """Ex 58. 36 stock cards, totals 20, 15, 30 at the end: P1 takes 1 from each:
    (-1, +2, -1)."""
    game = deal([A20, B15, C30])
    assert _play_out_the_stock(game) == 36
    assert reason(game) == "stock-out"
    assert payouts(game) == (-1, 2, -1)


def test_TONK_STOCK_2_tied_lowest_share() -> None:
    """Ex 59. Totals 20, 15, 15: P1 and P2 each take 1 from P0, nothing from each other:
    (-2, +1, +1)."""
    game = deal([A20, B15, E15])
    _play_out_the_stock(game)
    assert payouts(game) == (-2, 1, 1)


def test_TONK_STOCK_2_all_tied_nobody_pays() -> None:
    """Ex 60. Totals 15, 15, 15: nobody pays: (0, 0, 0)."""
    game = deal([B15, E15, "5H 4S 3D 2C AC"])
    _play_out_the_stock(game)
    assert reason(game) == "stock-out"
    assert payouts(game) == (0, 0, 0)


def test_TONK_STOCK_1_last_card_drawer_may_still_go_out() -> None:
    """Ex 61. Full deck stacked for 2 players; P0 holds 4S 5S 6S 7S KD and the last stock card
    is 8S. Both pass 40 turns; on turn 41 P0 draws 8S, lays 4S..8S and discards KD: out by
    discard (not stock-out) -> (+1, -1)."""
    hands = ["4S 5S 6S 7S KD", B15]
    used = set(" ".join(hands).split()) | {"QC", "8S"}
    filler = [c for c in ALL_CARDS if c not in used]
    assert len(filler) == 40
    deck = deck_for(hands, 1, "QC", " ".join([*filler, "8S"]))
    game = cardcore.new_game(
        "tonk", 2, deck=deck, seed=2, options={"first_dealer": 1}, without=(NATURAL,)
    )
    for _ in range(40):
        pass_turn(game, game.to_act[0])
    assert table(game, None)["stock"] == 1 and game.to_act == (0,)
    game.act(0, "draw")
    game.act(0, "spread 4S 5S 6S 7S 8S")
    game.act(0, "discard KD")
    assert reason(game) == "out"
    assert payouts(game) == (1, -1)


# ============================================================================================
# Session, notation
# ============================================================================================


def test_TONK_SESSION_balances_accumulate_and_next_dealer_deals() -> None:
    """Ex 62. Two hands at stake 2. Hand 1: P0 20 drops vs 15, 30 -> (-4, +6, -2). Then seat
    0 (next dealer) must 'deal' (the only legal action); hand 2 starts with seat 1."""
    game = deal([A20, B15, C30], hands=2, stake=2)
    game.act(0, "drop")
    t = table(game, 0)
    assert t["balances"] == [-4, 6, -2]
    assert t["phase"] == "between"
    assert game.to_act == (0,)
    assert legal(game, 0) == ["deal"]
    game.act(0, "deal")
    assert game.to_act == (1,)
    assert table(game, 1)["dealer"] == 0
    assert table(game, 1)["hand_number"] == 2


def test_TONK_NOTE_1_notation_forms() -> None:
    """Ex 63. Case and order in 'spread' text are free and it prints sorted; 'hit N card'
    names the spread by its number; malformed text raises NotationError; legal-looking but
    forbidden text raises IllegalActionError."""
    game = deal(["5H 6H 7H 9C 9D", B15, C30], stock="8H")
    with pytest.raises(NotationError):
        game.act(0, "knock please")
    game.act(0, "DRAW")
    action = game.act(0, "spread 7h  5H 6h")
    assert str(action) == "spread 5H 6H 7H"
    assert str(game.act(0, "Hit 1 8h")) == "hit 1 8H"
    for bad in ("discard", "discard 5X", "hit x 5H", "spread"):
        with pytest.raises(NotationError):
            game.act(0, bad)
    with pytest.raises(IllegalActionError, match=r"\(TONK-SPREAD-1\)"):
        game.act(0, "spread 9C 9D")
    with pytest.raises(IllegalActionError, match=r"\(TONK-TURN-3\)"):
        game.act(0, "discard 2S")  # not held
    assert str(game.act(0, "discard 9c")) == "discard 9C"


# ============================================================================================
# Seed variants (house rules, off by default)
# ============================================================================================


def test_TONK_VAR_1_no_upcard_first_player_must_draw() -> None:
    """Ex 64. No upcard: stock 52 - 15 = 37, pile empty; first player: drop or draw only;
    the pile starts with the first discard."""
    game = deal([A20, B15, C30], upcard=None, stock="9D", rules=("tonk.no-upcard",))
    t = table(game, 0)
    assert (t["discard_top"], t["discard_count"], t["stock"]) == (None, 0, 37)
    assert legal(game, 0) == ["drop", "draw"]
    with pytest.raises(IllegalActionError, match=r"\(TONK-TURN-3\)"):
        game.act(0, "take")
    game.act(0, "draw")
    game.act(0, "discard 9D")
    assert table(game, 1)["discard_top"] == "9D"
    assert "take" in legal(game, 1)


def test_TONK_VAR_2_must_lay_down_spreads_three_aces_exempt() -> None:
    """Ex 65. must-lay-down: holding 7-7-7 after the discard is illegal; three aces may be kept;
    four aces may not; A-2-3 of hearts is a run, not 'three aces'."""
    rules = ("tonk.must-lay-down",)
    game = deal(["7H 7S 7D 2C KC", B15, C30], stock="9S", rules=rules)
    game.act(0, "draw")
    with pytest.raises(IllegalActionError, match=r"\(TONK-VAR-2\)"):
        game.act(0, "discard KC")
    game.act(0, "spread 7H 7S 7D")
    game.act(0, "discard KC")
    aces = deal(["AH AS AD 5C KC", "9D 4C 3H 2D 6D", C30], stock="9S", rules=rules)
    aces.act(0, "draw")
    aces.act(0, "discard KC")
    assert not aces.is_over and aces.to_act == (1,)
    four = deal(["AH AS AD 5C KC", "9D 4C 3H 2D 6D", C30], stock="AC", rules=rules)
    four.act(0, "draw")
    with pytest.raises(IllegalActionError, match=r"\(TONK-VAR-2\)"):
        four.act(0, "discard KC")
    run = deal(["AH 2H 3H 9C KC", A20, C30], stock="9S", rules=rules)
    run.act(0, "draw")
    with pytest.raises(IllegalActionError, match=r"\(TONK-VAR-2\)"):
        run.act(0, "discard KC")


def test_TONK_VAR_3_double_only_with_a_new_spread() -> None:
    """Ex 66. double-needs-spread. (a) Tonk-out by hits alone (Ex 27) pays S: (+1, -1).
    (b) P0 2C 3C 4C 5C 6C draws 7C, lays 2C 3C 4C then hits 5C 6C 7C in the same turn: a new
    spread was laid -> 2S: (+2, -2)."""
    rules = ("tonk.double-needs-spread",)
    game = deal(["2C 3C 4C 5C 6C", "KH KS 8D 8S 10D"], stock="JH QS 7C", rules=rules)
    game.act(0, "draw")
    game.act(0, "spread 2C 3C 4C")
    game.act(0, "discard JH")
    game.act(1, "draw")
    game.act(1, "discard QS")
    game.act(0, "draw")
    for card in ("5C", "6C", "7C"):
        game.act(0, f"hit 1 {card}")
    assert reason(game) == "tonk-out"
    assert payouts(game) == (1, -1)
    same = deal(["2C 3C 4C 5C 6C", "KH KS 8D 8S 10D"], stock="7C", rules=rules)
    same.act(0, "draw")
    same.act(0, "spread 2C 3C 4C")
    for card in ("5C", "6C", "7C"):
        same.act(0, f"hit 1 {card}")
    assert reason(same) == "tonk-out"
    assert payouts(same) == (2, -2)


def test_TONK_GAP_2_hit_does_not_block_drop_by_default() -> None:
    """Ex 67. Base game: P1 hits P0's run; on P0's next turn P0 may still drop. P0 holds
    QD AC = 11, P1 (after hitting 4H, discarding JD) 2S 9S KD 3D = 24, P2 30: P0 wins
    (+2, -1, -1)."""
    game = deal(["5H 6H 7H KC QD", "4H 2S 9S KD 3D", C30], stock="AC JD 8C")
    game.act(0, "draw")  # AC
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")  # JD
    game.act(1, "hit 1 4H")
    game.act(1, "discard JD")
    pass_turn(game, 2)
    assert legal(game, 0)[0] == "drop"
    game.act(0, "drop")
    assert hand_entries(game)[-1]["totals"] == [11, 24, 30]
    assert payouts(game) == (2, -1, -1)


def test_TONK_VAR_4_hit_blocks_drop_for_the_next_turn_only() -> None:
    """Ex 68. hit-blocks-drop: the same sequence as Ex 67; P0 may not drop on the next turn."""
    game = deal(
        ["5H 6H 7H KC QD", "4H 2S 9S KD 3D", C30],
        stock="AC JD 8C",
        rules=("tonk.hit-blocks-drop",),
    )
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")
    game.act(1, "hit 1 4H")
    game.act(1, "discard JD")
    pass_turn(game, 2)
    assert "drop" not in legal(game, 0)
    with pytest.raises(IllegalActionError, match=r"\(TONK-VAR-4\)"):
        game.act(0, "drop")
    pass_turn(game, 0)
    pass_turn(game, 1)
    pass_turn(game, 2)
    assert legal(game, 0)[0] == "drop"


# ============================================================================================
# More corners: spread numbers, secrecy, four players, variants
# ============================================================================================


def test_TONK_HIT_2_spreads_are_numbered_in_the_order_laid() -> None:
    """Ex 69. P0 lays 5H 6H 7H (spread 1), P1 lays 9S 9D 9C (spread 2); P2 hits spread 2 with
    9H and spread 1 with 8H: spread 1 = 5H..8H (owner 0), spread 2 = four nines (owner 1)."""
    game = deal(["5H 6H 7H KC QD", "9S 9D 9C 2S 3S", "9H 8H 4C 5C JD"], stock="AC AD KS")
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KC")
    game.act(1, "draw")
    game.act(1, "spread 9S 9D 9C")
    game.act(1, "discard AD")
    game.act(2, "draw")
    game.act(2, "hit 2 9H")
    game.act(2, "hit 1 8H")
    game.act(2, "discard KS")
    assert table(game, 0)["spreads"] == [
        {"number": 1, "owner": 0, "cards": ["5H", "6H", "7H", "8H"]},
        {"number": 2, "owner": 1, "cards": ["9S", "9H", "9D", "9C"]},
    ]
    assert table(game, 2)["total"] == 4 + 5 + 10


def test_TONK_DISC_1_hands_are_secret() -> None:
    """Ex 70. Each seat sees its own five cards and only the sizes of the others; a spectator
    sees no hand at all (hands are secret: the seed's VAR-2 remark)."""
    game = deal([A20, B15, C30], upcard="KD")
    for seat, mine in ((0, A20), (1, B15), (2, C30)):
        t = table(game, seat)
        assert set(t["hand"]) == set(mine.split())
        assert t["hand_sizes"] == [5, 5, 5]
        text = repr(t)
        for other in (A20, B15, C30):
            if other != mine:
                assert not any(f"'{c}'" in text for c in other.split())
    assert table(game, None)["hand"] == []


def test_TONK_VAR_2_three_aces_do_not_excuse_an_overlapping_run() -> None:
    """Ex 71. must-lay-down; P0 AS AH AD 2D 3D draws KS. Discarding KS would keep AD-2D-3D
    (a run) besides the aces: illegal; discarding 2D leaves just three aces: legal."""
    game = deal(
        ["AS AH AD 2D 3D", C30, "10D 5S 2H 2S 9C"], stock="KS", rules=("tonk.must-lay-down",)
    )
    game.act(0, "draw")
    with pytest.raises(IllegalActionError, match=r"\(TONK-VAR-2\)"):
        game.act(0, "discard KS")
    with pytest.raises(IllegalActionError, match=r"\(TONK-VAR-2\)"):
        game.act(0, "discard AS")  # leaves AH AD 2D 3D: the run AD 2D 3D
    game.act(0, "discard 2D")
    assert game.to_act == (1,)


def test_TONK_49_1_natural_with_four_players() -> None:
    """Ex 72. max_players 4; seat 3 (the dealer) is dealt 49: 2S from each of three players:
    (-2, -2, -2, +6)."""
    game = deal([A20, B15, C30, N49], max_players=4)
    assert reason(game) == "natural"
    assert payouts(game) == (-2, -2, -2, 6)


def test_TONK_DROP_2_four_players_dropper_wins() -> None:
    """Ex 73. max_players 4; P0 15 drops against 20, 30, 20: (+3, -1, -1, -1)."""
    game = deal([B15, A20, C30, D20], max_players=4)
    game.act(0, "drop")
    assert reason(game) == "drop-won"
    assert payouts(game) == (3, -1, -1, -1)


def test_TONK_STOCK_2_four_players_tied_lowest() -> None:
    """Ex 74. max_players 4: 52 - 20 - 1 = 31 stock turns; totals 20, 12, 12, 30: P1 and P2
    each collect 1 from P0 and from P3: (-2, +2, +2, -2)."""
    game = deal([A20, F12, "3S 5C 2D AD AC", "10H 6S 7C 3C 4C"], max_players=4)
    assert table(game, None)["stock"] == 31
    assert _play_out_the_stock(game) == 31
    assert reason(game) == "stock-out"
    assert payouts(game) == (-2, 2, 2, -2)


def test_TONK_VAR_4_only_a_hit_by_another_player_blocks_the_drop() -> None:
    """Ex 75. hit-blocks-drop: P0 hits its own run (5H 6H 7H + 8H): P0 may still drop on its
    next turn; P1 hitting P0's run does not stop P2 from dropping."""
    rules = ("tonk.hit-blocks-drop",)
    game = deal(["5H 6H 7H KC QD", B15, C30], stock="8H 9S 9D", rules=rules)
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "hit 1 8H")
    game.act(0, "discard KC")
    pass_turn(game, 1)
    pass_turn(game, 2)
    assert legal(game, 0)[0] == "drop"
    other = deal(["5H 6H 7H KC QD", "4H 2S 9S KD 3D", C30], stock="AC JD", rules=rules)
    other.act(0, "draw")
    other.act(0, "spread 5H 6H 7H")
    other.act(0, "discard KC")
    other.act(1, "draw")
    other.act(1, "hit 1 4H")
    other.act(1, "discard JD")
    assert legal(other, 2)[0] == "drop"


def _two_player_deck(p0: str, p1: str, last: str, upcard: str = "QC") -> str:
    """A full 2-player deck (seat 1 deals): the 41st (last) stock card is *last*."""
    used = set(f"{p0} {p1} {upcard} {last}".split())
    filler = [c for c in ALL_CARDS if c not in used]
    assert len(filler) == 40
    return deck_for([p0, p1], 1, upcard, " ".join([*filler, last]))


def test_TONK_VAR_5_play_on_from_the_discards_after_a_spread() -> None:
    """Ex 76. stock-out-discard-only, 2 players. P0 (4S 5S KD QD JC) draws the last stock card
    6S on turn 41, lays 4S 5S 6S, discards KD (a turn with a spread). P1's turn starts with an
    empty stock: P1 may drop or take. P1 takes KD, discards 5D (quiet 1); P0 takes 5D,
    discards QD (quiet 2): a full quiet round -> the hand ends at P1's next turn as at stock
    exhaustion. P0 JC 5D = 15, P1 4C 3H 2D AD KD = 20: (+1, -1)."""
    deck = _two_player_deck("4S 5S KD QD JC", B15, "6S")
    game = cardcore.new_game(
        "tonk",
        2,
        deck=deck,
        seed=5,
        options={"first_dealer": 1},
        rules=("tonk.stock-out-discard-only",),
    )
    for _ in range(40):
        pass_turn(game, game.to_act[0])
    game.act(0, "draw")
    game.act(0, "spread 4S 5S 6S")
    game.act(0, "discard KD")
    assert not game.is_over
    assert legal(game, 1) == ["drop", "draw", "take"]
    game.act(1, "take")
    game.act(1, "discard 5D")
    assert not game.is_over
    game.act(0, "take")
    game.act(0, "discard QD")
    assert game.is_over
    assert reason(game) == "stock-out"
    assert payouts(game) == (1, -1)


def test_TONK_VAR_5_play_continues_when_the_stock_runs_out_after_quiet_turns() -> None:
    """Ex 77. stock-out-discard-only, 3 players, everybody draws and throws the drawn card away
    for 36 turns. The stock is now empty; under the variant 'the hand does not end: the player
    may drop or take the top discard' (docs TONK-VAR-5; GAP-3: players 'keep drawing the top
    discard'). The quiet round that ends the hand is a round played from the discards, so
    seat 0 must now be offered drop and take."""
    game = deal([A20, B15, C30], rules=("tonk.stock-out-discard-only",))
    assert _play_out_the_stock_turns(game) == 36
    assert not game.is_over
    assert legal(game, 0) == ["drop", "draw", "take"]


def _play_out_the_stock_turns(game: cardcore.Game) -> int:
    turns = 0
    while table(game, None)["stock"] > 0:
        pass_turn(game, game.to_act[0])
        turns += 1
    return turns
