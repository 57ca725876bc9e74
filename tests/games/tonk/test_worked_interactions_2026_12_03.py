"""Tonk worked examples (2026-12-03): interactions of rules, house rules, options and money.

Authority: ``shared/seeds/tonk.en.md`` (the seed), ``seeds/tonk.md`` (rule IDs) and
``shared/rules-decisions.md`` section 3. Only the public API is used, as ``docs/games/tonk.rst``
and ``docs/embedding.rst`` teach it: ``new_game(..., deck=..., options=..., rules=...)``,
``act``, ``legal_actions``, ``view``, ``history``, ``position`` (with ``stack_deals`` for the
later deals of a session) and ``result``. Every expected value was worked out by hand from the
seed first; the arithmetic is in the comments. Payouts are net per seat and sum to zero.
"""

from __future__ import annotations

from typing import Any

import pytest

import cardcore
from cardcore import IllegalActionError, NotationError
from cardcore_tonk.position import stack_deals

NATURAL = "tonk.natural-49-50"
NO_UPCARD = "tonk.no-upcard"
MUST_LAY = "tonk.must-lay-down"
DOUBLE_SPREAD = "tonk.double-needs-spread"
HIT_BLOCKS = "tonk.hit-blocks-drop"
DISCARD_ONLY = "tonk.stock-out-discard-only"
ANY_TURNS = "tonk.quiet-round-any-turns"
VOID_COUNTS = "tonk.void-deal-counts"
SHOW_ALL = "tonk.deal-shows-every-hand"

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL_CARDS = [r + s for s in "SHDC" for r in RANKS]

N49 = "KS QH JD 10C 9S"  # 10 + 10 + 10 + 10 + 9 = 49
N50 = "KH KD QS JC 10D"  # 10 * 5 = 50
C30 = "10H 6S 7C 3C 4D"  # 10 + 6 + 7 + 3 + 4 = 30
B15 = "5D 4C 3H 2D AD"  # 5 + 4 + 3 + 2 + 1 = 15
A20 = "10S 4H 3D 2C AS"  # 10 + 4 + 3 + 2 + 1 = 20


# -- helpers -------------------------------------------------------------------------------


def deck_for(hands: list[str], dealer: int, upcard: str | None = "QC", stock: str = "") -> str:
    """A deck, top first: one card at a time from the dealer's left (TONK-DEAL-1)."""
    n = len(hands)
    split = [h.split() for h in hands]
    order = [split[s][r] for r in range(5) for s in [(dealer + k) % n for k in range(1, n + 1)]]
    if upcard is not None:
        order.append(upcard)
    return " ".join(order + stock.split())


def full_deck(hands: list[str], dealer: int, upcard: str | None, stock: str) -> str:
    """``deck_for`` completed with every unused card (in a fixed order) under the stock."""
    top = deck_for(hands, dealer, upcard, stock).split()
    rest = [c for c in ALL_CARDS if c not in top]
    assert len(set(top)) == len(top)
    return " ".join(top + rest)


def start(
    seats: list[str],
    *,
    upcard: str | None = "QC",
    stock: str = "",
    dealer: int | None = None,
    rules: tuple[str, ...] = (),
    without: tuple[str, ...] = (),
    seed: int = 11,
    **options: Any,
) -> cardcore.Game:
    n = len(seats)
    dealer = n - 1 if dealer is None else dealer
    opts: dict[str, Any] = {"first_dealer": dealer, **options}
    if n == 4:
        opts.setdefault("max_players", 4)
    return cardcore.new_game(
        "tonk",
        n,
        deck=deck_for(seats, dealer, upcard, stock),
        options=opts,
        rules=rules,
        without=without,
        seed=seed,
    )


def table(game: cardcore.Game, seat: int = 0) -> dict[str, Any]:
    return game.view(seat)["table"]


def hands_done(game: cardcore.Game) -> list[dict[str, Any]]:
    return [e for e in game.history(None) if e["kind"] == "hand"]


def assert_money(game: cardcore.Game, opening: list[int] | None = None) -> None:
    """Money is never created or lost: each hand sums to zero; balances are the running sums.

    *opening*: the balances a position started from (a position holds no finished hands).
    """
    running = list(opening) if opening else [0] * len(game.players)
    assert sum(running) == 0
    for entry in hands_done(game):
        assert sum(entry["amounts"]) == 0
        running = [a + b for a, b in zip(running, entry["amounts"], strict=True)]
        assert entry["balances"] == running
    for seat in range(len(game.players)):
        assert table(game, seat)["balances"] == running
    if game.is_over:
        assert list(game.result.payouts) == running


def pass_turn(game: cardcore.Game, seat: int) -> str:
    """Draw from the stock and discard the card drawn."""
    before = set(table(game, seat)["hand"])
    game.act(seat, "draw")
    (drawn,) = set(table(game, seat)["hand"]) - before
    game.act(seat, f"discard {drawn}")
    return drawn


def snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    n = len(game.players)
    return (game.version, game.position(), [game.view(s) for s in range(n)], game.to_act)


# -- a session mixing a natural, a caught drop with ties and a won drop, four seats ------------


def test_session_four_seats_stake_five_natural_caught_tie_then_won_drop() -> None:
    """Three hands, four seats (max_players 4), stake S = 5, every house rule that can ride along.

    Hand 1, seat 3 deals: seat 3 holds 49 (a natural, TONK-49-1); with deal-shows-every-hand
    every hand is shown. Seat 3 collects 2S = 10 from each of three: +30, the others -10.
    Balances (-10, -10, -10, +30).

    Hand 2, seat 0 deals (TONK-DEALER-2), seat 1 moves first and drops with 20; seat 2 holds 20,
    seat 3 and seat 0 hold 12. The dropper is caught (tie is not lowest) and pays 2S = 10 to
    each player at or below 20: seats 2, 3, 0 -> -30. The lowest non-droppers (seats 3 and 0,
    tied) each collect S = 5 from every player but the dropper and each other: seat 2 pays
    5 + 5. Amounts: seat 0 +10 +5 = 15, seat 1 -30, seat 2 +10 -10 = 0, seat 3 +15.
    Balances (5, -40, -10, 45).

    Hand 3, seat 1 deals, seat 2 drops first with 12 against 22, 45, 33: strictly lowest,
    collects S from each: +15, the others -5. Final (0, -45, 5, 40), scores / S =
    (0, -9, 1, 8), winner seat 3, reason drop-won.
    """
    rules = (DOUBLE_SPREAD, HIT_BLOCKS, SHOW_ALL, MUST_LAY, DISCARD_ONLY)
    opts = {"first_dealer": 3, "max_players": 4, "stake": 5, "hands": 3}
    first = cardcore.new_game(
        "tonk", 4, deck=deck_for([A20, B15, C30, N49], 3), options=opts, rules=rules, seed=5
    )
    assert set(first.view(0)["rules"]) == {NATURAL, *rules}
    (h1,) = hands_done(first)
    assert (h1["reason"], h1["seat"], h1["amounts"]) == ("natural", 3, [-10, -10, -10, 30])
    assert h1["totals"] == [20, 15, 30, 49]
    assert table(first)["shown"] == [True, True, True, True]
    assert first.to_act == (0,)
    assert [str(a) for a in first.legal_actions(0)] == ["deal"]
    assert_money(first)

    hand2 = ["AD AC 2D 4S 4H", "2S 3S 4C 5D 6H", "2H 3H 4D 5C 6S", "AS AH 2C 3C 5H"]
    hand3 = ["KS QH JD 8C 7D", "9S 9H 4S 5H 6D", "AS AH 2D 3C 5S", "2S 3H 4D 6C 7S"]
    text = stack_deals(first.position(), [deck_for(hand2, 0), deck_for(hand3, 1)])
    game = cardcore.new_game("tonk", 4, options=opts, rules=rules, position=text, seed=5)
    assert table(game)["balances"] == [-10, -10, -10, 30]

    game.act(0, "deal")
    assert (table(game)["dealer"], table(game)["hand_number"], game.to_act) == (0, 2, (1,))
    assert [table(game, s)["total"] for s in range(4)] == [12, 20, 20, 12]
    game.act(1, "drop")
    h2 = hands_done(game)[-1]
    assert (h2["reason"], h2["seat"], h2["totals"]) == ("drop-caught", 1, [12, 20, 20, 12])
    assert h2["amounts"] == [15, -30, 0, 15]
    assert h2["balances"] == [5, -40, -10, 45]
    assert game.to_act == (1,)

    game.act(1, "deal")
    assert (table(game)["dealer"], table(game)["hand_number"], game.to_act) == (1, 3, (2,))
    game.act(2, "drop")
    h3 = hands_done(game)[-1]
    assert (h3["reason"], h3["totals"], h3["amounts"]) == (
        "drop-won",
        [45, 33, 12, 22],
        [-5, -5, 15, -5],
    )
    assert game.is_over and game.to_act == ()
    result = game.result
    assert result.payouts == (0, -45, 5, 40)
    assert tuple(result.scores) == (0, -9, 1, 8)
    assert (result.winners, result.reason) == ((3,), "drop-won")
    assert_money(game, opening=[-10, -10, -10, 30])


# -- void deals with the house rules that change them -----------------------------------------


def test_void_deal_then_redealt_hand_then_natural_two_hand_session() -> None:
    """Hands = 2, seat 2 deals, default rules plus deal-shows-every-hand.

    Deal 1: seats 0 (49) and 1 (50) both hold naturals: void, nobody paid (TONK-49-2), every
    hand shown (TONK-VAR-8), and it is not one of the two hands: hand_number stays 1 and
    seat 0, the next dealer, deals again. Deal 2 (seat 0 deals, seat 1 first): seat 1 drops 15
    against 20 and 30: wins S = 1 from each: (-1, +2, -1). Deal 3 (seat 1 deals): seat 2 holds
    50, a natural: +4, the others -2. Totals (-3, 0, +3); winner seat 2, reason natural.
    """
    opts = {"first_dealer": 2, "hands": 2}
    first = cardcore.new_game(
        "tonk", 3, deck=deck_for([N49, N50, C30], 2), options=opts, rules=(SHOW_ALL,), seed=9
    )
    (void,) = hands_done(first)
    assert (void["reason"], void["amounts"], void["totals"]) == ("void", [0, 0, 0], [49, 50, 30])
    assert table(first)["hand_number"] == 1 and first.to_act == (0,)
    deal2 = deck_for([A20, B15, C30], 0)
    deal3 = deck_for([A20, B15, N50], 1)
    text = stack_deals(first.position(), [deal2, deal3])
    game = cardcore.new_game("tonk", 3, options=opts, rules=(SHOW_ALL,), position=text, seed=9)
    game.act(0, "deal")
    assert (table(game)["hand_number"], table(game)["dealer"], game.to_act) == (1, 0, (1,))
    game.act(1, "drop")
    assert hands_done(game)[-1]["amounts"] == [-1, 2, -1]
    assert game.to_act == (1,)
    game.act(1, "deal")
    assert game.is_over
    last = hands_done(game)[-1]
    assert (last["reason"], last["dealer"], last["amounts"]) == ("natural", 1, [-2, -2, 4])
    assert last["totals"] == [20, 15, 50]  # deal-shows-every-hand: all three shown
    assert game.result.payouts == (-3, 0, 3)
    assert (game.result.winners, game.result.reason) == ((2,), "natural")
    assert_money(game, opening=[0, 0, 0])


def test_void_deal_counts_and_shows_every_hand_end_a_one_hand_session() -> None:
    """VAR-7 + VAR-8, four seats: seats 1 and 3 hold naturals (49, 50): the void deal is the
    session's only hand, so the game ends on it with reason void, nobody paid, all tied as
    winners, every hand (four) shown."""
    game = start([A20, N49, B15, N50], rules=(VOID_COUNTS, SHOW_ALL), stake=3)
    assert game.is_over
    (entry,) = hands_done(game)
    assert (entry["reason"], entry["totals"]) == ("void", [20, 49, 15, 50])
    assert game.result.payouts == (0, 0, 0, 0)
    assert (game.result.winners, game.result.reason) == ((0, 1, 2, 3), "void")
    assert table(game)["shown"] == [True] * 4
    assert_money(game)


def test_three_naturals_among_four_seats_void_without_var_8_show_only_naturals() -> None:
    """Three naturals (49, 50, 50) among four seats are still a void deal (two or more,
    TONK-49-2); only those three hands are shown, the fourth stays hidden (TONK-VIEW-1)."""
    n50b = "KC QD JH JS 10H"  # 10 * 5 = 50
    game = start([N49, A20, N50, n50b], hands=2)
    (entry,) = hands_done(game)
    assert (entry["reason"], entry["amounts"]) == ("void", [0, 0, 0, 0])
    assert entry["totals"] == [49, None, 50, 50]
    assert table(game, 1)["shown"] == [True, False, True, True]
    assert table(game)["hand_number"] == 1 and game.to_act == (0,)


# -- hits, the hit block and the double for a tonk-out -----------------------------------------


def test_hit_block_then_tonk_out_by_hits_alone_pays_single_under_double_needs_spread() -> None:
    """Three seats, stake S = 2, hit-blocks-drop + double-needs-spread.

    Seat 0 (dealt 4H 5H 6H 7H 8H = 30) draws 2C, lays 4H-7H, discards 2C: holds 8H (8).
    Seat 1 draws JS, hits seat 0's run with 3H (3H-7H), discards JS. Seat 2 passes (2D).
    Seat 0 was hit by another player: no drop this turn (TONK-VAR-4) although 8 is low;
    only draw and take are legal, and the refusal changes nothing. Seat 0 draws 9H, hits 8H
    then 9H: the hand is empty without a discard, a tonk-out (TONK-OUT-1), but by hits alone,
    so it pays S, not 2S (TONK-VAR-3): (+4, -2, -2). Reason tonk-out; no hand is shown.
    """
    game = start(
        ["4H 5H 6H 7H 8H", "3H 3S 9D KC KD", "10S 6S 7C 3C 4D"],
        stock="2C JS 2D 9H",
        rules=(HIT_BLOCKS, DOUBLE_SPREAD),
        stake=2,
    )
    for text in ["draw", "spread 4H 5H 6H 7H", "discard 2C"]:
        game.act(0, text)
    for text in ["draw", "hit 1 3H", "discard JS"]:
        game.act(1, text)
    assert pass_turn(game, 2) == "2D"
    assert table(game)["hand"] == ["8H"] and table(game)["total"] == 8
    assert [str(a) for a in game.legal_actions(0)] == ["draw", "take"]
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="TONK-VAR-4"):
        game.act(0, "drop")
    assert snapshot(game) == before
    for text in ["draw", "hit 1 8H", "hit 1 9H"]:
        game.act(0, text)
    assert game.is_over
    (entry,) = hands_done(game)
    assert (entry["reason"], entry["seat"], entry["amounts"]) == ("tonk-out", 0, [4, -2, -2])
    assert entry["shown"] is None
    assert game.result.payouts == (4, -2, -2) and game.result.winners == (0,)
    assert_money(game)


def test_taken_discard_left_alone_may_still_be_hit_for_a_tonk_out() -> None:
    """Seed: "If you use all the cards in your hand during a turn, the game ends and you have
    won" (tonk-out, 2S from each). Two seats. Seat 0 (4H 5H 6H 7H 8H) draws AS, lays 4H-7H,
    discards AS: holds 8H. Seat 1 draws 9H and discards it. Seat 0 takes 9H: hitting 8H
    (4H-8H) and then 9H (4H-9H) empties the hand. TONK-TURN-5's reason ("that card could
    never be discarded, so the turn could not end") does not hold here: the taken card can be
    hit. Expected: tonk-out, (+2, -2)."""
    game = start(["4H 5H 6H 7H 8H", "2S 3D 9C 10D KC"], stock="AS 9H 2C 3C")
    for text in ["draw", "spread 4H 5H 6H 7H", "discard AS"]:
        game.act(0, text)
    assert pass_turn(game, 1) == "9H"
    game.act(0, "take")
    assert "hit 1 8H" in [str(a) for a in game.legal_actions(0)]
    game.act(0, "hit 1 8H")
    game.act(0, "hit 1 9H")
    assert game.result.reason == "tonk-out" and game.result.payouts == (2, -2)


def test_stock_out_from_discards_tonk_out_by_hits_with_the_taken_card_pays_single() -> None:
    """Two seats, stake S = 3, stock-out-discard-only + double-needs-spread + must-lay-down.

    Seat 0 (dealt 4H 5H 6H 7H 8H) draws, lays 4H-7H, discards the drawn card: holds 8H.
    Both seats then pass (draw and discard the card drawn) until the 41-card stock is gone;
    seat 0 draws cards 1, 3, ..., 41, so seat 1's turn begins with an empty stock. Under
    TONK-VAR-5 the hand goes on: seat 1 may drop, take or ask for the stock. Seat 1 takes the
    top discard (the 41st stock card, KC, the last card of the fixed order) and may not throw
    it back (TONK-TURN-4); it discards 3H. Seat 0 takes 3H, hits it (3H-7H) and then 8H
    (3H-8H): empty hand, no discard, by hits alone -> S from the other seat (TONK-VAR-3):
    (+3, -3).
    """
    hands = ["4H 5H 6H 7H 8H", "3H 2D 4C 5D 9C"]
    deck = full_deck(hands, 1, "QC", "")
    game = cardcore.new_game(
        "tonk",
        2,
        deck=deck,
        options={"first_dealer": 1, "stake": 3},
        rules=(DISCARD_ONLY, DOUBLE_SPREAD, MUST_LAY),
        seed=2,
    )
    first = pass_turn_keep(game, 0, "spread 4H 5H 6H 7H")
    assert first == deck.split()[11] and table(game)["hand"] == ["8H"]
    seat = 1
    while table(game)["stock"] > 0:
        pass_turn(game, seat)
        seat = 1 - seat
    assert seat == 1 and game.to_act == (1,)
    assert table(game)["discard_top"] == "KC"
    assert [str(a) for a in game.legal_actions(1)] == ["drop", "draw", "take"]
    game.act(1, "take")
    with pytest.raises(IllegalActionError, match="TONK-TURN-4"):
        game.act(1, "discard KC")
    game.act(1, "discard 3H")
    for text in ["take", "hit 1 3H", "hit 1 8H"]:
        game.act(0, text)
    (entry,) = hands_done(game)
    assert (entry["reason"], entry["seat"], entry["amounts"]) == ("tonk-out", 0, [3, -3])
    assert game.result.payouts == (3, -3)
    assert_money(game)


def pass_turn_keep(game: cardcore.Game, seat: int, spread: str) -> str:
    """Draw, lay *spread*, discard the card drawn; return it."""
    before = set(table(game, seat)["hand"])
    game.act(seat, "draw")
    (drawn,) = set(table(game, seat)["hand"]) - before
    game.act(seat, spread)
    game.act(seat, f"discard {drawn}")
    return drawn


# -- stock exhaustion with several house rules, four seats, a three-way tie --------------------


def test_stock_out_four_seats_no_upcard_three_tied_lowest_stake_three() -> None:
    """Four seats, stake S = 3, no-upcard + must-lay-down + double-needs-spread.

    No upcard: 52 - 20 = 32 cards of stock and the first player may only drop or draw
    (TONK-VAR-1). Everybody passes (draws, discards the card drawn; no spread is ever held,
    so must-lay-down allows each discard). Draw k is made by seat (k - 1) mod 4: the 32nd by
    seat 3, who finishes that turn; seat 0's turn then begins with an empty stock and the
    hand ends (TONK-STOCK-1). Totals stay as dealt: 14, 14, 14, 47. The three tied lowest
    each collect S = 3 from the one player not tied, and nothing from each other
    (TONK-STOCK-2): (+3, +3, +3, -9).
    """
    hands = ["AS AH 2C 3C 7H", "AD AC 2D 4S 6H", "2S 2H 3S 3D 4C", "KS QH JD 9C 8D"]
    #         1+1+2+3+7 = 14    1+1+2+4+6 = 14    2+2+3+3+4 = 14    10+10+10+9+8 = 47
    game = cardcore.new_game(
        "tonk",
        4,
        deck=full_deck(hands, 3, None, ""),
        options={"first_dealer": 3, "max_players": 4, "stake": 3},
        rules=(NO_UPCARD, MUST_LAY, DOUBLE_SPREAD),
        seed=4,
    )
    assert [table(game, s)["total"] for s in range(4)] == [14, 14, 14, 47]
    assert (table(game)["stock"], table(game)["discard_count"]) == (32, 0)
    assert [str(a) for a in game.legal_actions(0)] == ["drop", "draw"]
    draws = 0
    while not game.is_over:
        (seat,) = game.to_act
        assert seat == draws % 4
        pass_turn(game, seat)
        draws += 1
    assert draws == 32
    (entry,) = hands_done(game)
    assert (entry["reason"], entry["totals"]) == ("stock-out", [14, 14, 14, 47])
    assert entry["amounts"] == [3, 3, 3, -9]
    assert game.result.winners == (0, 1, 2)
    assert table(game, 3)["shown"] == [True] * 4
    assert_money(game)


# -- drops, four seats: every seat tied ---------------------------------------------------------


def test_drop_four_seats_everybody_tied_dropper_pays_each_double() -> None:
    """Four seats, stake S = 10, seat 3 deals, seat 0 drops at once with 18; the others hold
    18 too. A tie with the dropper is not lowest (TONK-DROP-2): caught, seat 0 pays 2S = 20
    to each of the three (all at or below 18): -60. The three non-droppers tie for lowest
    and pay each other nothing (TONK-DROP-4/5): (-60, +20, +20, +20). Winners 1, 2, 3."""
    hands = ["AS 2H 3D 5C 7S", "AH 2D 3C 5S 7D", "AD 2C 3S 5H 7C", "AC 2S 3H 5D 7H"]
    game = start(hands, stake=10)  # each 1 + 2 + 3 + 5 + 7 = 18
    game.act(0, "drop")
    (entry,) = hands_done(game)
    assert (entry["reason"], entry["totals"]) == ("drop-caught", [18, 18, 18, 18])
    assert entry["amounts"] == [-60, 20, 20, 20]
    assert game.result.winners == (1, 2, 3)
    assert_money(game)


# -- refusals: each names its rule and changes nothing ----------------------------------------

REFUSALS = [
    # (house rules, steps before, seat, text, error, rule cited)
    ((), [], 1, "drop", IllegalActionError, "CORE-TURN-1"),  # drop out of turn
    ((), [], 0, "discard 5H", IllegalActionError, "TONK-TURN-3"),  # discard before drawing
    ((), [], 0, "hit 1 5H", IllegalActionError, "TONK-TURN-3"),  # hit before drawing
    ((), [], 0, "deal", IllegalActionError, "TONK-SESSION-3"),  # deal mid-hand
    ((), [], 0, "hit 0 5H", NotationError, "TONK-NOTE-1"),  # spreads count from 1
    ((), ["draw"], 0, "drop", IllegalActionError, "TONK-TURN-2"),  # drop after drawing
    ((), ["draw"], 0, "take", IllegalActionError, "TONK-TURN-2"),  # second draw
    ((), ["draw"], 0, "spread QS KS AS", IllegalActionError, "TONK-SPREAD-2"),  # ace not high
    ((), ["draw"], 0, "spread 5H 6H", IllegalActionError, "TONK-SPREAD-2"),  # two cards
    ((), ["draw"], 0, "spread 5H 6H 7S", IllegalActionError, "TONK-TURN-3"),  # 7S not held
    ((), ["draw"], 0, "hit 1 7H", IllegalActionError, "TONK-HIT-1"),  # no spread yet
    ((), ["draw", "spread 5H 6H 7H"], 0, "hit 1 QS", IllegalActionError, "TONK-HIT-1"),
    ((), ["draw", "spread 5H 6H 7H"], 0, "hit 2 AS", IllegalActionError, "TONK-HIT-1"),
    ((), ["take"], 0, "discard QC", IllegalActionError, "TONK-TURN-4"),
    ((HIT_BLOCKS,), [], 0, "deal", IllegalActionError, "TONK-SESSION-3"),
    ((MUST_LAY,), ["draw"], 0, "discard QS", IllegalActionError, "TONK-VAR-2"),
]


@pytest.mark.parametrize(("rules", "steps", "seat", "text", "error", "rule"), REFUSALS)
def test_refused_input_names_its_rule_and_changes_nothing(
    rules: tuple[str, ...], steps: list[str], seat: int, text: str, error: type, rule: str
) -> None:
    """Seat 0 holds QS KS AS 5H 6H (32), draws 7H. Under must-lay-down, with 5H 6H 7H in
    hand, discarding QS would keep the run in hand: refused (TONK-VAR-2)."""
    game = start(
        ["QS KS AS 5H 6H", "5D 4C 3H 2D AD", "10H 6S 7C 3C 4D"], stock="7H 9H 2S", rules=rules
    )
    for step in steps:
        game.act(0, step)
    before = snapshot(game)
    legal = [str(a) for a in game.legal_actions(seat)] if seat in game.to_act else []
    assert text not in legal
    with pytest.raises(error) as caught:
        game.act(seat, text)
    assert f"({rule}" in str(caught.value)
    assert snapshot(game) == before


def test_resign_mid_session_pays_nothing_for_the_hand_in_play() -> None:
    """Three seats, stake S = 4, hands = 3. Hand 1: seat 0 drops 18 against 23 and 30, wins
    S from each: (+8, -4, -4). Hand 2 is dealt; seat 1 draws and resigns. As documented
    (docs/games/tonk.rst, Results): nothing is paid for the hand in play, the payouts are the
    balances so far, (+8, -4, -4), and every other seat is a winner (0 and 2)."""
    game = start(["AS 2H 3D 5C 7S", "5D 4C 3H 2D 9C", C30], hands=3, stake=4)
    assert [table(game, s)["total"] for s in range(3)] == [18, 23, 30]
    game.act(0, "drop")
    assert hands_done(game)[-1]["amounts"] == [8, -4, -4]
    game.act(0, "deal")
    game.act(1, "draw")
    game.act(1, "resign")
    assert game.is_over and len(hands_done(game)) == 1
    assert (game.result.reason, game.result.payouts) == ("resigned", (8, -4, -4))
    assert game.result.winners == (0, 2)
    assert_money(game)


def test_quiet_round_from_the_discards_ends_hand_one_and_does_not_carry_into_hand_two() -> None:
    """Two seats, hands = 2, stock-out-discard-only, natural rule off.

    Hand 1, seat 1 deals: seat 0 holds AS 2H 3D 5C 7S (18), seat 1 5D 4C 3H 2D 9C (23), upcard
    QC; the rest of the pack in a fixed order, KC last. Both pass until the 41-card stock is
    gone (seat 0 draws the 41st, KC, and discards it). Seat 1's turn begins with an empty stock:
    drop, draw or take (TONK-VAR-5). Seat 1 takes KC, discards 9C (23 - 9 + 10 = 24); seat 0
    takes 9C, discards 7S (18 - 7 + 9 = 20). A full round from the discards without a spread
    or hit: seat 1's next turn ends the hand as TONK-STOCK-2: seat 0 lowest, (+1, -1).
    Hand 2 (seat 0 deals) starts a fresh quiet count: after 41 passes, seat 0's turn begins
    with an empty stock and may again drop, draw or take instead of the hand ending.
    """
    hands = ["AS 2H 3D 5C 7S", "5D 4C 3H 2D 9C"]
    game = cardcore.new_game(
        "tonk",
        2,
        deck=full_deck(hands, 1, "QC", ""),
        options={"first_dealer": 1, "hands": 2},
        rules=(DISCARD_ONLY,),
        without=(NATURAL,),
        seed=1,
    )
    seat = 0
    while table(game)["stock"] > 0:
        pass_turn(game, seat)
        seat = 1 - seat
    assert (seat, table(game)["discard_top"]) == (1, "KC")
    assert [str(a) for a in game.legal_actions(1)] == ["drop", "draw", "take"]
    game.act(1, "take")
    game.act(1, "discard 9C")
    game.act(0, "take")
    game.act(0, "discard 7S")
    (entry,) = hands_done(game)
    assert (entry["reason"], entry["totals"], entry["amounts"]) == ("stock-out", [20, 24], [1, -1])
    assert game.to_act == (0,)
    game.act(0, "deal")
    seat = 1
    while table(game)["stock"] > 0:
        pass_turn(game, seat)
        seat = 1 - seat
    assert not game.is_over and game.to_act == (0,)
    assert [str(a) for a in game.legal_actions(0)] == ["drop", "draw", "take"]
    game.act(0, "draw")  # asks for the stock: the hand ends as TONK-STOCK-2
    last = hands_done(game)[-1]
    assert last["reason"] == "stock-out" and game.is_over
    low = min(last["totals"])
    lows = [s for s in range(2) if last["totals"][s] == low]
    expected = [0, 0] if len(lows) == 2 else [1 if s in lows else -1 for s in range(2)]
    assert last["amounts"] == expected
    assert_money(game)


def test_must_lay_down_with_the_fourth_ace_taken_from_the_discards() -> None:
    """Two seats, must-lay-down. Seat 0 holds AH AS AD (three aces may be kept, TONK-VAR-2),
    draws 5D, discards KD; seat 1 draws AC and discards it. Seat 0 takes AC: AH AS AD AC 9C 5D.
    Worked legality: discarding 9C or 5D would keep four aces, a book that is not exactly
    three aces: refused; AC may not be thrown back (TONK-TURN-4); discarding AH, AS or AD
    keeps three aces (AC among them): allowed. Spreads: any three of the four aces, or all
    four (9C and 5D stay, so TONK-TURN-5 does not bite)."""
    game = start(["AH AS AD 9C KD", "2S 3D 9S 10D KC"], stock="5D AC 2C 3C", rules=(MUST_LAY,))
    game.act(0, "draw")
    game.act(0, "discard KD")
    assert pass_turn(game, 1) == "AC"
    game.act(0, "take")
    assert [str(a) for a in game.legal_actions(0)] == [
        "spread AS AH AD",
        "spread AS AH AC",
        "spread AS AD AC",
        "spread AH AD AC",
        "spread AS AH AD AC",
        "discard AS",
        "discard AH",
        "discard AD",
    ]
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="TONK-VAR-2"):
        game.act(0, "discard 9C")
    assert snapshot(game) == before
    game.act(0, "discard AH")
    assert table(game)["hand"] == ["AS", "AD", "AC", "5D", "9C"]
    assert game.to_act == (1,)


def test_void_deal_has_a_history_entry_and_the_redeal_needs_a_deal_action() -> None:
    """One-hand session, seat 2 deals, seats 0 (50) and 1 (49) hold naturals: void. The void
    deal leaves an entry in the history (reason "void", hand 1, dealer 2, nothing paid) and
    the game waits for seat 0, the next dealer, to act ``deal`` (TONK-SESSION-3); the hand
    dealt again is hand 1 too. Seat 1 moves first and drops; the session ends on that hand.
    (The history's documentation speaks of "one entry per finished hand" and does not list
    the reason "void".)"""
    game = start([N50, N49, C30], seed=1)
    assert (table(game)["phase"], game.to_act) == ("between", (0,))
    game.act(0, "deal")
    assert (table(game)["hand_number"], table(game)["dealer"], game.to_act) == (1, 0, (1,))
    game.act(1, "drop")
    entries = hands_done(game)
    void = entries[0]
    assert (void["hand"], void["dealer"], void["reason"]) == (1, 2, "void")
    assert [e["hand"] for e in entries] == [1, 1]
    assert entries[0]["amounts"] == [0, 0, 0]
    assert game.is_over and game.result.reason in ("drop-won", "drop-caught")
    assert_money(game)


def test_host_ends_a_session_between_hands_winners_by_balance() -> None:
    """Three seats, stake S = 4, hands = 3. Hand 1: seat 0 drops 18 against 23 and 30 and wins
    (+8, -4, -4). Between hands the host ends the match (CORE-END-1): the balances are the
    payouts, the highest balance wins (seat 0), reason "ended"."""
    game = start(["AS 2H 3D 5C 7S", "5D 4C 3H 2D 9C", C30], hands=3, stake=4)
    game.act(0, "drop")
    game.act(cardcore.HOST, "end")
    assert (game.result.reason, game.result.payouts, game.result.winners) == (
        "ended",
        (8, -4, -4),
        (0,),
    )
    assert_money(game)


def test_natural_to_the_dealer_at_the_largest_stake_four_seats() -> None:
    """Four seats, stake S = 1,000,000 (the option's maximum), seat 3 deals and holds 49:
    2S = 2,000,000 from each of three: (-2e6, -2e6, -2e6, +6e6), exact integers; the hand is
    not played and only the natural is shown (TONK-49-1, TONK-VIEW-1)."""
    game = start([A20, B15, C30, N49], stake=1_000_000)
    (entry,) = hands_done(game)
    assert entry["amounts"] == [-2_000_000, -2_000_000, -2_000_000, 6_000_000]
    assert entry["totals"] == [None, None, None, 49]
    assert game.result.payouts == (-2_000_000, -2_000_000, -2_000_000, 6_000_000)
    assert tuple(game.result.scores) == (-2, -2, -2, 6)
    assert_money(game)
