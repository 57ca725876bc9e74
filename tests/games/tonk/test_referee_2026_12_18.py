"""Tonk referee audit (2026-12-18): independent worked examples, checked against the engine.

Authority: ``shared/seeds/tonk.en.md`` (the seed; rule IDs as in ``seeds/tonk.md``) and
``shared/rules-decisions.md`` section 3, which wins where it applies. Every expected value
below was worked out by hand from those texts before the engine was run; the arithmetic is in
the comments. Payouts are net per seat (stake units times the stake S) and sum to zero.

Only the public API is used: ``new_game(..., deck=..., options=..., rules=..., without=...)``
(the deck is stacked top first and dealt one card at a time from the dealer's left,
TONK-DEAL-1), ``act`` with the notation of TONK-NOTE-1, ``legal_actions``, ``view``,
``history``, ``position`` with ``stack_deals`` for the later deals of a session, and
``result``. These examples avoid the ones already in ``test_examined*`` and
``test_worked_interactions_2026_12_03``: they favour house-rule combinations, two- and
four-seat tables, ties at a drop and at the stock's end, and stakes above 1.
"""

from __future__ import annotations

from typing import Any

import pytest

import cardcore
from cardcore import IllegalActionError, OptionError
from cardcore_tonk.position import stack_deals

NATURAL = "tonk.natural-49-50"
NO_UPCARD = "tonk.no-upcard"
MUST_LAY = "tonk.must-lay-down"
DOUBLE_SPREAD = "tonk.double-needs-spread"
HIT_BLOCKS = "tonk.hit-blocks-drop"
DISCARD_ONLY = "tonk.stock-out-discard-only"
SHOW_ALL = "tonk.deal-shows-every-hand"

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL_CARDS = [r + s for s in "SHDC" for r in RANKS]


# -- helpers -------------------------------------------------------------------------------


def deck_for(hands: list[str], dealer: int, upcard: str | None = "QC", stock: str = "") -> str:
    """A deck, top first, dealing ``hands[s]`` to seat ``s`` one card at a time from the
    dealer's left (TONK-DEAL-1), then the upcard (TONK-DEAL-2), then the top of the stock."""
    n = len(hands)
    split = [h.split() for h in hands]
    order = [split[s][r] for r in range(5) for s in [(dealer + k) % n for k in range(1, n + 1)]]
    if upcard is not None:
        order.append(upcard)
    top = order + stock.split()
    assert len(set(top)) == len(top), "a card used twice"
    return " ".join(top)


def full_deck(hands: list[str], dealer: int, upcard: str | None, last: str) -> str:
    """Every card: the deal, the upcard, then every unused card (fixed order) with *last*
    at the very bottom of the stock."""
    top = deck_for(hands, dealer, upcard).split()
    rest = [c for c in ALL_CARDS if c not in top and c != last]
    deck = [*top, *rest, last]
    assert sorted(deck) == sorted(ALL_CARDS)
    return " ".join(deck)


def table(game: cardcore.Game, seat: int | None) -> dict[str, Any]:
    view: dict[str, Any] = game.view(seat)["table"]
    return view


def zone_cards(game: cardcore.Game, viewer: int | None, owner: int) -> list[str | None]:
    """The cards of ``hand.<owner>`` as *viewer*'s view shows them (``None`` = face down)."""
    for z in game.view(viewer)["zones"]:
        if z["name"] == f"hand.{owner}":
            return list(z["cards"])
    raise AssertionError(f"no hand.{owner}")


def last_hand(game: cardcore.Game) -> dict[str, Any]:
    return [e for e in game.history(None) if e["kind"] == "hand"][-1]


def legal(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def pass_turn(game: cardcore.Game) -> str:
    """The seat to act draws from the stock and discards the card it drew."""
    seat = game.to_act[0]
    before = set(table(game, seat)["hand"])
    game.act(seat, "draw")
    (drawn,) = set(table(game, seat)["hand"]) - before
    game.act(seat, f"discard {drawn}")
    return str(drawn)


# -- drops and catches ----------------------------------------------------------------------


def test_four_seats_stake_three_caught_by_an_equal_hand_and_two_tied_lowest() -> None:
    """Four seats (max_players=4), S = 3, seat 3 deals, so seat 0 moves first (TONK-TURN-1).

    Dealt totals (TONK-VAL-1): P0 KS 5S 2H AS AH = 10+5+2+1+1 = 19;
    P1 KH 5H 2D AD AC = 19; P2 2S 3D 4S 3H 4H = 16; P3 2C 3C 4D 3S 4C = 16 (no 49/50).
    P0 drops at once (TONK-TURN-2). 19 is not strictly lowest (TONK-DROP-2): caught.
    TONK-DROP-3: P0 pays 2S to every seat at or below 19: P1, P2, P3 -> P0 -6S.
    TONK-DROP-4/5: P2 and P3 tie lowest among the non-droppers; each collects S from the
    other non-dropper not tied, P1 -> P1 -2S.
    Net: P0 -6S, P1 +2S-2S = 0, P2 +2S+S = 3S, P3 3S  ->  (-18, 0, 9, 9).
    """
    hands = ["KS 5S 2H AS AH", "KH 5H 2D AD AC", "2S 3D 4S 3H 4H", "2C 3C 4D 3S 4C"]
    game = cardcore.new_game(
        "tonk",
        4,
        deck=deck_for(hands, 3),
        seed=3,
        options={"max_players": 4, "stake": 3, "first_dealer": 3},
    )
    game.act(0, "drop")
    assert game.result is not None
    assert game.result.reason == "drop-caught"
    assert game.result.payouts == (-18, 0, 9, 9)
    assert game.result.scores == (-6.0, 0.0, 3.0, 3.0)
    assert game.result.winners == (2, 3)
    assert last_hand(game)["totals"] == [19, 19, 16, 16]
    # TONK-DROP-1 / TONK-VIEW-1: every hand face up for every seat (and spectators)
    for viewer in (None, 0, 1, 2, 3):
        for owner in range(4):
            assert None not in zone_cards(game, viewer, owner)
        assert table(game, viewer)["shown"] == [True] * 4


def test_four_seats_stake_four_dropper_tied_with_two_and_beaten_by_one() -> None:
    """Four seats, S = 4, seat 1 deals, so seat 2 moves first and drops at once.

    Totals: P0 KH 4H 3S 2C AC = 20, P1 AS AH 2S 2H 4D = 10, P2 (dropper) KS 4S 3H 2D AD = 20,
    P3 5D 5C 4C 3D 3C = 20. P2 is not strictly lowest: caught (TONK-DROP-2).
    TONK-DROP-3: P2 pays 2S to P0, P1 and P3 (all at or below 20) = -6S.
    TONK-DROP-4: P1 (10) is the lowest non-dropper and collects S from P0 and P3.
    Net: P0 +2S-S = +S, P1 +2S+2S = +4S, P2 -6S, P3 +S -> (4, 16, -24, 4).
    """
    hands = ["KH 4H 3S 2C AC", "AS AH 2S 2H 4D", "KS 4S 3H 2D AD", "5D 5C 4C 3D 3C"]
    game = cardcore.new_game(
        "tonk",
        4,
        deck=deck_for(hands, 1),
        seed=7,
        options={"max_players": 4, "stake": 4, "first_dealer": 1},
    )
    assert game.to_act == (2,)
    game.act(2, "drop")
    assert game.result is not None
    assert last_hand(game)["totals"] == [20, 10, 20, 20]
    assert game.result.payouts == (4, 16, -24, 4)
    assert game.result.winners == (1,)


# Two seats, seat 1 deals, so P0 moves first.
# P0 5H 6H 7H 9C 8D (35), P1 4H 8H 3D 3C 4C (22); upcard QC; stock 2C JS KS ...
TIE_HANDS = ["5H 6H 7H 9C 8D", "4H 8H 3D 3C 4C"]
TIE_DECK = deck_for(TIE_HANDS, 1, "QC", "2C JS KS 9D")


def _play_to_tie(rules: tuple[str, ...]) -> cardcore.Game:
    """Turn 1: P0 draws 2C, lays 5H 6H 7H, discards 9C -> P0 holds 8D 2C = 10.
    P1 draws JS, hits P0's run with 4H and 8H (TONK-HIT-1/2: any spread may be hit, at either
    end) and discards JS -> P1 holds 3D 3C 4C = 10. Spread 1 is now 4H..8H."""
    game = cardcore.new_game(
        "tonk", 2, deck=TIE_DECK, seed=5, rules=rules, options={"stake": 7, "first_dealer": 1}
    )
    for text in ["draw", "spread 5H 6H 7H", "discard 9C"]:
        game.act(0, text)
    for text in ["draw", "hit 1 4H", "hit 1 8H", "discard JS"]:
        game.act(1, text)
    assert table(game, 0)["total"] == 10 and table(game, 1)["total"] == 10
    assert table(game, 0)["spreads"][0]["cards"] == ["4H", "5H", "6H", "7H", "8H"]
    return game


def test_two_seats_stake_seven_drop_into_a_tie_after_hits_is_caught() -> None:
    """P0 drops at the start of turn 2 with 10 against P1's 10. A tie is not lowest
    (TONK-DROP-2 [D]): caught; P0 pays 2S to P1 (TONK-DROP-3); P1 is the lowest non-dropper
    but there is nobody else to pay it (TONK-DROP-4/5) -> (-14, +14): "pay double" (GAP-5)."""
    game = _play_to_tie(())
    assert legal(game, 0) == ["drop", "draw", "take"]  # no hit penalty by default (GAP-2)
    game.act(0, "drop")
    assert game.result is not None
    assert game.result.reason == "drop-caught"
    assert game.result.payouts == (-14, 14)
    assert last_hand(game)["shown"] == [["2C", "8D"], ["3D", "3C", "4C"]]


def test_two_seats_hit_blocks_drop_then_the_hitter_drops_into_the_tie() -> None:
    """Same table under ``tonk.hit-blocks-drop`` (TONK-VAR-4): P1 hit P0's spread, so P0 may
    not drop at the start of turn 2. P0 draws KS and throws it back (still 10). P1 was never
    hit, drops with 10 against P0's 10: caught (TONK-DROP-2/3), P1 pays 2S = 14 to P0.
    -> (+14, -14)."""
    game = _play_to_tie((HIT_BLOCKS,))
    assert legal(game, 0) == ["draw", "take"]
    with pytest.raises(IllegalActionError, match="TONK-VAR-4"):
        game.act(0, "drop")
    game.act(0, "draw")
    game.act(0, "discard KS")
    assert legal(game, 1) == ["drop", "draw", "take"]
    game.act(1, "drop")
    assert game.result is not None
    assert game.result.payouts == (14, -14)
    assert game.result.winners == (0,)


def test_four_seats_hit_by_the_third_seat_blocks_the_drop_only_for_one_turn() -> None:
    """Four seats, S = 5, ``tonk.hit-blocks-drop``; seat 3 deals, upcard 9S.

    P0 5H 6H 7H KC QC (38), P1 10S 10H 9D 8S 7S (44), P2 8H 2S 3D 4C 6C (23),
    P3 KD KH 2D 4D 5C (31). Stock JD JS JH 10D 10C 9C 8C 7C ...
    Round 1: P0 draws JD, lays 5H 6H 7H, discards JD (P0 = KC QC = 20); P1 passes (JS);
    P2 draws JH, hits P0's run with 8H, discards JH (P2 = 2S 3D 4C 6C = 15); P3 passes (10D).
    Round 2: P0 was hit by another player since its last turn: no drop (TONK-VAR-4); it
    passes (10C). P1, P2, P3 pass (9C, 8C, 7C).
    Round 3: P0 may drop again (the block lasts one turn) and drops with 20:
    P2 has 15 < 20 -> caught. TONK-DROP-3: P0 pays 2S to P2 only (P1 44, P3 31 are higher).
    TONK-DROP-4: P2 collects S from P1 and from P3.
    Net: P0 -2S, P1 -S, P2 +2S+2S = +4S, P3 -S -> (-10, -5, 20, -5).
    """
    hands = ["5H 6H 7H KC QC", "10S 10H 9D 8S 7S", "8H 2S 3D 4C 6C", "KD KH 2D 4D 5C"]
    deck = deck_for(hands, 3, "9S", "JD JS JH 10D 10C 9C 8C 7C 6D")
    game = cardcore.new_game(
        "tonk",
        4,
        deck=deck,
        seed=11,
        rules=(HIT_BLOCKS,),
        options={"max_players": 4, "stake": 5, "first_dealer": 3},
    )
    for text in ["draw", "spread 5H 6H 7H", "discard JD"]:
        game.act(0, text)
    assert pass_turn(game) == "JS"
    for text in ["draw", "hit 1 8H", "discard JH"]:
        game.act(2, text)
    assert pass_turn(game) == "10D"
    assert game.to_act == (0,) and "drop" not in legal(game, 0)
    assert [pass_turn(game) for _ in range(4)] == ["10C", "9C", "8C", "7C"]
    assert game.to_act == (0,) and legal(game, 0)[0] == "drop"
    game.act(0, "drop")
    assert game.result is not None
    assert last_hand(game)["totals"] == [20, 44, 15, 31]
    assert game.result.payouts == (-10, -5, 20, -5)


# -- house-rule combination: must lay down + double needs a spread --------------------------


def test_must_lay_down_forces_both_spreads_for_a_first_turn_tonk_out_paying_double() -> None:
    """Four seats, S = 2, ``must-lay-down`` + ``double-needs-spread``; seat 3 deals.

    P0 5H 6H 7H 9C 9D (36) takes the upcard 9S. Hand: 5H 6H 7H 9S 9D 9C.
    TONK-TURN-4: 9S may not be discarded. TONK-VAR-2: every other discard keeps a spread
    (drop 5H/6H/7H: book 9S 9D 9C stays; drop 9D/9C: run 5H 6H 7H stays), so only the two
    spreads are legal, books first (TONK-LEGAL-1): ``spread 9S 9D 9C``, ``spread 5H 6H 7H``.
    P0 lays both: the hand is empty without a discard, a tonk-out (TONK-OUT-1) with new
    spreads this turn, so 2S each under TONK-VAR-3: P0 +2S*3 = +12, others -4.
    No hand is shown after a tonk-out (TONK-VIEW-1).
    """
    hands = ["5H 6H 7H 9C 9D", "10S 10H 9H 8S 7S", "8H 2S 3D 4C 6C", "KD KH 2D 4D 5C"]
    game = cardcore.new_game(
        "tonk",
        4,
        deck=deck_for(hands, 3, "9S", "JD"),
        seed=13,
        rules=(MUST_LAY, DOUBLE_SPREAD),
        options={"max_players": 4, "stake": 2, "first_dealer": 3, "hands": 2},
    )
    game.act(0, "take")
    assert legal(game, 0) == ["spread 9S 9D 9C", "spread 5H 6H 7H"]
    with pytest.raises(IllegalActionError, match="TONK-VAR-2"):
        game.act(0, "discard 5H")
    game.act(0, "spread 9C 9D 9S")
    game.act(0, "spread 5H 6H 7H")
    hand = last_hand(game)
    assert hand["reason"] == "tonk-out"
    assert hand["amounts"] == [12, -4, -4, -4]
    assert hand["shown"] is None
    for viewer in (None, 1, 2, 3):
        t = table(game, viewer)
        assert t["shown"] == [False] * 4
        for owner in (1, 2, 3):
            if owner != viewer:
                assert zone_cards(game, viewer, owner) == [None] * 5


# -- the stock running out ------------------------------------------------------------------

P0_30 = "2S 4D 6C 8H 10S"  # 2 + 4 + 6 + 8 + 10 = 30, no spread
P1_30 = "3S 5D 7C 9H 6H"  # 3 + 5 + 7 + 9 + 6 = 30, no spread
P1_35 = "3S 5D 7C 9H JS"  # 3 + 5 + 7 + 9 + 10 = 35, no spread


def _run_stock_out(hands: list[str], rules: tuple[str, ...], stake: int) -> cardcore.Game:
    """Two seats, seat 1 deals, upcard QC; the whole deck is stacked with AD at the bottom.
    52 - 10 - 1 = 41 stock cards: both seats draw and throw back what they drew; P0 draws
    turns 1, 3, ..., 41, so P0 draws the last card (AD) on its 21st turn."""
    game = cardcore.new_game(
        "tonk",
        2,
        deck=full_deck(hands, 1, "QC", "AD"),
        seed=17,
        rules=rules,
        options={"stake": stake, "first_dealer": 1},
    )
    drawn = [pass_turn(game) for _ in range(41)]
    assert drawn[-1] == "AD" and table(game, 0)["stock"] == 0
    return game


def test_two_seats_stock_out_tie_pays_nothing_and_shows_both_hands() -> None:
    """TONK-STOCK-1 [D]: P1's turn begins with an empty stock, so the hand ends at once (P1
    may not drop first). Totals 30 and 30: tied lowest players pay each other nothing
    (TONK-STOCK-2 [D]) -> (0, 0) at S = 4; both seats have the highest balance."""
    game = _run_stock_out([P0_30, P1_30], (), 4)
    assert game.result is not None
    assert game.result.reason == "stock-out"
    assert game.result.payouts == (0, 0)
    assert game.result.winners == (0, 1)
    assert last_hand(game)["totals"] == [30, 30]
    assert sorted(str(c) for c in zone_cards(game, 0, 1)) == sorted(P1_30.split())
    assert None not in zone_cards(game, 1, 0)


def test_two_seats_stock_out_default_lowest_collects_single_stake() -> None:
    """Same run with P1 = 35: at P1's empty-stock turn the hand ends; P0 30 < 35 collects S
    from P1 (TONK-STOCK-2) -> (+3, -3) at S = 3."""
    game = _run_stock_out([P0_30, P1_35], (), 3)
    assert game.result is not None
    assert game.result.reason == "stock-out"
    assert game.result.payouts == (3, -3)


def test_two_seats_stock_out_discard_only_quiet_round_of_two_turns() -> None:
    """Same run under ``tonk.stock-out-discard-only`` (TONK-VAR-5), S = 3.

    P1's turn begins with the stock out but nobody has played from the discards yet: play
    goes on (legal: drop, draw = ask for the stock, take). P1 takes AD, discards JS
    (P1 = 3+5+7+9+1 = 25). P0 takes JS, discards 2S (P0 = 4+6+8+10+10 = 38). Two quiet turns
    from the discards = a full round for two players, so P1's next turn ends the hand as
    TONK-STOCK-2: P1 25 < 38 collects S -> (-3, +3).
    """
    game = _run_stock_out([P0_30, P1_35], (DISCARD_ONLY,), 3)
    assert game.result is None
    assert legal(game, 1) == ["drop", "draw", "take"]
    game.act(1, "take")
    game.act(1, "discard JS")
    assert legal(game, 0) == ["drop", "draw", "take"]
    game.act(0, "take")
    game.act(0, "discard 2S")
    assert game.result is not None
    assert game.result.reason == "stock-out"
    assert last_hand(game)["totals"] == [38, 25]
    assert game.result.payouts == (-3, 3)


def test_two_seats_stock_out_discard_only_asking_for_the_stock_ends_the_hand() -> None:
    """Same run under TONK-VAR-5, S = 3: at P1's first empty-stock turn P1 asks for the stock
    (``draw``), which ends the hand as TONK-STOCK-2 at once: P0 30 < P1 35 -> (+3, -3)."""
    game = _run_stock_out([P0_30, P1_35], (DISCARD_ONLY,), 3)
    game.act(1, "draw")
    assert game.result is not None
    assert game.result.reason == "stock-out"
    assert game.result.payouts == (3, -3)


# -- naturals and stakes ----------------------------------------------------------------------


def test_two_seats_dealers_own_natural_50_at_the_largest_stake() -> None:
    """Two seats, seat 1 deals; P1 KH KD QS JC 10D = 50 (TONK-49-1, the dealer included),
    P0 2S 4D 6C 8H 10S = 30. Not played; P1 collects 2S from P0 at S = 1,000,000 (the largest
    stake, TONK-STAKE-1) -> (-2,000,000, +2,000,000). Only the natural's hand is shown."""
    game = cardcore.new_game(
        "tonk",
        2,
        deck=deck_for([P0_30, "KH KD QS JC 10D"], 1),
        seed=19,
        options={"stake": 1_000_000, "first_dealer": 1},
    )
    assert game.result is not None
    assert game.result.reason == "natural"
    assert game.result.payouts == (-2_000_000, 2_000_000)
    assert game.result.scores == (-2.0, 2.0)
    assert last_hand(game)["shown"] == [None, ["10D", "JC", "QS", "KH", "KD"]]
    assert zone_cards(game, 1, 0) == [None] * 5
    assert None not in zone_cards(game, 0, 1)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"stake": 0}),
        (2, {"stake": 1_000_001}),
        (2, {"stake": True}),
        (2, {"stake": 2.0}),
        (5, {"max_players": 4}),
        (5, {"max_players": 5}),
        (4, {}),
        (1, {}),
        (3, {"hands": 0}),
        (3, {"hands": 100_001}),
        (3, {"first_dealer": 3}),
    ],
)
def test_out_of_range_stakes_and_seat_counts_are_refused(
    players: int, options: dict[str, Any]
) -> None:
    """TONK-STAKE-1: S is a whole number from 1 to 1,000,000. TONK-GEN-1: 2-3 seats, 4 only
    with max_players=4, never 5 or 1. TONK-SESSION-1: 1 to 100,000 hands. TONK-DEALER-1:
    first_dealer is a seat of the table."""
    with pytest.raises(OptionError):
        cardcore.new_game("tonk", players, seed=1, options=options)


def test_natural_shows_every_hand_only_under_var_8() -> None:
    """Three seats, seat 2 deals, S = 2. P1 KH QH JD 10C 9S = 49, P0 19, P2 16.
    TONK-49-1: P1 +2S*2 = +8, P0 -4, P2 -4 under both rules. Default: only P1's hand shows;
    ``tonk.deal-shows-every-hand`` (TONK-VAR-8): every hand shows."""
    hands = ["KS 5S 2H AS AH", "KH QH JD 10C 9S", "2S 3D 4S 3H 4H"]
    for rules, shown in (((), [False, True, False]), ((SHOW_ALL,), [True, True, True])):
        game = cardcore.new_game(
            "tonk",
            3,
            deck=deck_for(hands, 2),
            seed=23,
            rules=rules,
            options={"stake": 2, "first_dealer": 2},
        )
        assert game.result is not None
        assert game.result.payouts == (-4, 8, -4)
        for viewer in (None, 0, 1, 2):
            assert table(game, viewer)["shown"] == shown
            for owner in range(3):
                visible = None not in zone_cards(game, viewer, owner)
                assert visible == (shown[owner] or owner == viewer)


# -- a session with the deal passing left -----------------------------------------------------


def test_four_seat_session_three_hands_stake_two_deal_passes_left() -> None:
    """Four seats, hands=3, S = 2, seat 3 deals first (TONK-DEALER-2: then 0, then 1).

    Hand 1 (dealer 3, P0 first): P0 AS 2H 3D 4C 6S = 16, P1 10S JH QD 5C 9H = 44,
    P2 8S 8H 7D 7C 6H = 36, P3 KS KH 2S 3S 5D = 30. P0 drops, strictly lowest
    (TONK-DROP-2): +3S = +6, others -2. Balances (6, -2, -2, -2).
    Hand 2 (dealer 0, P1 first): P0 KS QH JD 10C 9S = 49, a natural for the dealer
    (TONK-49-1): +2S*3 = +12, others -4; P1 16, P2 36, P3 2S 3S 5D KH 4H = 24 (no other
    natural). Balances (18, -6, -6, -6).
    Hand 3 (dealer 1, P2 first): P2 8S 8H 7D 7C 6H = 36, P3 AS 2H 3D 4C 6S = 16,
    P0 KS KH QS QH 5D = 45, P1 10S 9H 9D 2C 3C = 33. P2 drops with 36: caught.
    TONK-DROP-3: P2 pays 2S to P3 (16) and to P1 (33) = -4S. TONK-DROP-4: P3 collects S
    from P0 and P1. Hand: P0 -S, P1 +2S-S = +S, P2 -4S, P3 +2S+2S = +4S
    -> (-2, +2, -8, +8). Final (16, -4, -14, 2): winner P0, scores (8, -2, -7, 1).
    """
    opts = {"max_players": 4, "stake": 2, "first_dealer": 3, "hands": 3}
    h1 = ["AS 2H 3D 4C 6S", "10S JH QD 5C 9H", "8S 8H 7D 7C 6H", "KS KH 2S 3S 5D"]
    h2 = ["KS QH JD 10C 9S", "AS 2H 3D 4C 6S", "8S 8H 7D 7C 6H", "2S 3S 5D KH 4H"]
    h3 = ["KS KH QS QH 5D", "10S 9H 9D 2C 3C", "8S 8H 7D 7C 6H", "AS 2H 3D 4C 6S"]
    start = cardcore.new_game("tonk", 4, deck=deck_for(h1, 3, "9C"), seed=29, options=opts)
    text = stack_deals(start.position(), [deck_for(h2, 0, "9C"), deck_for(h3, 1, "9C")])
    game = cardcore.new_game("tonk", 4, position=text, seed=29, options=opts)
    assert game.to_act == (0,) and table(game, 0)["total"] == 16
    game.act(0, "drop")
    assert table(game, 0)["balances"] == [6, -2, -2, -2]
    assert game.to_act == (0,) and legal(game, 0) == ["deal"]
    game.act(0, "deal")
    assert last_hand(game)["reason"] == "natural" and last_hand(game)["dealer"] == 0
    assert table(game, 1)["balances"] == [18, -6, -6, -6]
    assert game.to_act == (1,) and legal(game, 1) == ["deal"]
    game.act(1, "deal")
    assert table(game, 2)["dealer"] == 1 and game.to_act == (2,)
    assert [table(game, s)["total"] for s in range(4)] == [45, 33, 36, 16]
    game.act(2, "drop")
    assert last_hand(game)["amounts"] == [-2, 2, -8, 8]
    assert game.result is not None
    assert game.result.reason == "drop-caught"
    assert game.result.payouts == (16, -4, -14, 2)
    assert game.result.scores == (8.0, -2.0, -7.0, 1.0)
    assert game.result.winners == (0,)


# -- knowledge: what each seat may see -----------------------------------------------------------


def test_views_after_a_caught_drop_and_the_next_deal_hide_every_new_hand() -> None:
    """Three seats, hands=2, seat 2 deals, no-upcard (TONK-VAR-1), S = 2.

    P0 5H 6H 7H 9C 8D (35), P1 4H 8H 3D 3C 4C (22), P2 KS 5S 2H AS AH (19); no upcard, so
    P0 must draw (``take`` is not legal). Stock 2C JS QD ...
    P0 draws 2C, lays 5H 6H 7H, discards 9C (P0 = 8D 2C = 10). P1 takes 9C (public:
    everybody saw it), discards 4C (P1 = 4H 8H 3D 3C 9C = 27). While the hand runs, no seat
    sees another's hand (TONK-VIEW-1): not P0's drawn 2C, not P1's cards.
    P2 drops with 19: P0 has 10 < 19 -> caught (TONK-DROP-2/3): P2 pays 2S to P0;
    P0, the lowest non-dropper, collects S from P1 (TONK-DROP-4) -> (+6, -2, -4).
    Every hand is then face up until the next deal; after P0 deals hand 2, no seat sees
    another's cards.
    """
    hands = ["5H 6H 7H 9C 8D", "4H 8H 3D 3C 4C", "KS 5S 2H AS AH"]
    game = cardcore.new_game(
        "tonk",
        3,
        deck=deck_for(hands, 2, None, "2C JS QD"),
        seed=31,
        rules=(NO_UPCARD,),
        options={"stake": 2, "first_dealer": 2, "hands": 2},
    )
    assert legal(game, 0) == ["drop", "draw"]
    for text in ["draw", "spread 5H 6H 7H", "discard 9C"]:
        game.act(0, text)
    assert zone_cards(game, 1, 0) == [None, None]  # 8D and the drawn 2C stay hidden
    game.act(1, "take")
    assert table(game, 0)["taken"] == "9C"
    game.act(1, "discard 4C")
    # TONK-VIEW-1: a hand shows only its size to others, even the publicly taken 9C
    # (knowledge stays in the ``taken`` field of the turn); never more than that card
    assert zone_cards(game, 0, 1) == [None] * 5
    assert [c for c in zone_cards(game, 2, 0) if c is not None] == []
    game.act(2, "drop")
    hand = last_hand(game)
    assert hand["totals"] == [10, 27, 19]
    assert hand["amounts"] == [6, -2, -4]
    for viewer in (None, 0, 1, 2):
        for owner in range(3):
            assert None not in zone_cards(game, viewer, owner)
    game.act(0, "deal")
    assert table(game, 1)["shown"] == [False] * 3
    for viewer in (None, 0, 1, 2):
        for owner in range(3):
            cards = zone_cards(game, viewer, owner)
            assert len(cards) == 5
            if owner != viewer:
                assert cards == [None] * 5


def test_three_seats_last_stock_card_completes_a_run_then_the_stock_out_pays_it() -> None:
    """Three seats, seat 2 deals, upcard QC, S = 2; the whole deck stacked with 6D last.

    52 - 15 - 1 = 36 stock cards; draws go P0, P1, P2, ... so the 36th (6D) is P2's.
    Every earlier turn draws and throws back the drawn card. P2 (4D 5D KS KH QS = 39)
    draws 6D, lays 4D 5D 6D and discards KS (TONK-STOCK-1: the last drawer finishes its
    turn normally): P2 = KH QS = 20. P0's turn begins with an empty stock: the hand ends.
    Totals P0 2S 4S 6C 8H 10S = 30, P1 3S 5H 7C 9H AC = 25, P2 20: P2 is lowest and
    collects S from each (TONK-STOCK-2) -> (-2, -2, +4).
    """
    hands = ["2S 4S 6C 8H 10S", "3S 5H 7C 9H AC", "4D 5D KS KH QS"]
    game = cardcore.new_game(
        "tonk",
        3,
        deck=full_deck(hands, 2, "QC", "6D"),
        seed=37,
        options={"stake": 2, "first_dealer": 2},
    )
    for _ in range(35):
        pass_turn(game)
    assert game.to_act == (2,) and table(game, 2)["stock"] == 1
    for text in ["draw", "spread 4D 5D 6D", "discard KS"]:
        game.act(2, text)
    assert game.result is not None
    assert game.result.reason == "stock-out"
    assert last_hand(game)["totals"] == [30, 25, 20]
    assert game.result.payouts == (-2, -2, 4)


def test_drawn_cards_reach_only_the_drawer_and_a_caught_drop_shows_every_hand() -> None:
    """Events (TONK-VIEW-1): a card drawn from the stock reaches only its drawer's stream; a
    card taken from the discards is public; ``hand-ended`` after a drop carries every hand.

    Three seats, seat 2 deals, upcard QC, stock 2C JS. P0 5H 6H 7H 9C 8D draws 2C and
    discards 9C; P1 4H 8H 3D 3C 4C takes 9C and discards 4C; P2 KS 5S 2H AS AH (19) drops.
    Totals: P0 5H 6H 7H 8D 2C = 28, P1 4H 8H 3D 3C 9C = 27, P2 19: P2 strictly lowest
    (TONK-DROP-2) -> (-1, -1, +2).
    """
    hands = ["5H 6H 7H 9C 8D", "4H 8H 3D 3C 4C", "KS 5S 2H AS AH"]
    streams: dict[Any, list[Any]] = {0: [], 1: [], 2: [], cardcore.SPECTATOR: []}
    game = cardcore.new_game(
        "tonk",
        3,
        deck=deck_for(hands, 2, "QC", "2C JS"),
        seed=41,
        options={"first_dealer": 2},
        subscribers=[(cardcore.Event, streams[s].append, s) for s in streams],
    )
    for seat, text in [(0, "draw"), (0, "discard 9C"), (1, "take"), (1, "discard 4C")]:
        game.act(seat, text)
    game.act(2, "drop")
    for seat, events in streams.items():
        drawn = [e.to_json() for e in events if e.to_json()["event"] == "card-drawn"]
        assert [d["source"] for d in drawn] == ["stock", "discard"]
        assert drawn[0]["card"] == ("2C" if seat == 0 else None)
        assert drawn[1]["card"] == "9C"
        (ended,) = [e.to_json() for e in events if e.to_json()["event"] == "hand-ended"]
        assert ended["amounts"] == [-1, -1, 2]
        assert ended["hand_totals"] == [28, 27, 19]
        assert None not in ended["shown"]


# A strict xfail: the view's ``shown`` marks a hand "face up" after a tonk-out.

PUBLIC_HAND_HANDS = ["2S 3S 4S 9D 9H", "5C 6C 7C KD 5S"]


def test_no_hand_is_shown_after_a_tonk_out_even_one_made_of_public_cards() -> None:
    """Two seats, seat 1 deals, hands=2, upcard QC, stock JD JS 8C 9C.

    P0 2S 3S 4S 9D 9H draws JD, lays 2S 3S 4S, discards JD (P0 = 9D 9H).
    P1 5C 6C 7C KD 5S draws JS, lays 5C 6C 7C, discards JS (P1 = KD 5S).
    P0 draws 8C and discards it. P1 takes 8C (public), hits P0's run with 5S, discards KD:
    P1 holds only 8C. P0 draws 9C and lays 9D 9H 9C: a tonk-out (TONK-OUT-1), 2S -> (+2, -2).
    TONK-VIEW-1: "after a tonk-out ... no hand is shown"; the history agrees (shown None),
    so ``table['shown']`` should be [False, False] until the next deal. (Seat 0 may of course
    know the 8C: everybody saw it taken, so this is no leak, only a wrong face-up flag.)
    """
    game = cardcore.new_game(
        "tonk",
        2,
        deck=deck_for(PUBLIC_HAND_HANDS, 1, "QC", "JD JS 8C 9C"),
        seed=43,
        options={"first_dealer": 1, "hands": 2},
    )
    moves = [
        (0, "draw"),
        (0, "spread 2S 3S 4S"),
        (0, "discard JD"),
        (1, "draw"),
        (1, "spread 5C 6C 7C"),
        (1, "discard JS"),
        (0, "draw"),
        (0, "discard 8C"),
        (1, "take"),
        (1, "hit 1 5S"),
        (1, "discard KD"),
        (0, "draw"),
        (0, "spread 9D 9H 9C"),
    ]
    for seat, text in moves:
        game.act(seat, text)
    hand = last_hand(game)
    assert hand["reason"] == "tonk-out" and hand["amounts"] == [2, -2]
    assert hand["shown"] is None
    assert table(game, 0)["shown"] == [False, False]
