"""Tonk house rules and multi-hand sessions examined (2026-12-02): worked examples by hand.

Authority: ``shared/seeds/tonk.en.md`` (the seed, its "Variations"), the Tonk part of
``shared/rules-decisions.md`` and the engine's rule spec ``seeds/tonk.md`` (TONK-VAR-1..7,
TONK-SESSION-*, TONK-NOTE-*). Every expected value was worked out from those texts before
the engine was run; the arithmetic is in each docstring. Payouts are net per seat, in money
(stake S = 1 unless stated), and always sum to zero.

Decks are stacked as in ``test_examined_2026_12_02.py`` (helpers copied, not imported):
one card at a time from the dealer's left (TONK-DEAL-1), then the upcard (unless
``tonk.no-upcard``), then the stock top first. Later deals of a session are stacked through
a position's ``next`` field (TONK-NOTE-2, ``stack_deals``).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import cardcore
from cardcore import IllegalActionError, NotationError, OptionError
from cardcore_tonk.position import stack_deals

NATURAL = "tonk.natural-49-50"
NO_UPCARD = "tonk.no-upcard"
MUST_LAY = "tonk.must-lay-down"
DOUBLE_SPREAD = "tonk.double-needs-spread"
HIT_BLOCKS = "tonk.hit-blocks-drop"
DISCARD_ONLY = "tonk.stock-out-discard-only"
ANY_TURNS = "tonk.quiet-round-any-turns"
VOID_COUNTS = "tonk.void-deal-counts"
VARIANTS = (NO_UPCARD, MUST_LAY, DOUBLE_SPREAD, HIT_BLOCKS, DISCARD_ONLY, ANY_TURNS, VOID_COUNTS)

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL_CARDS = [r + s for s in "SHDC" for r in RANKS]

# Hands without any book or run, with their totals (TONK-VAL-1).
A20 = "10S 4H 3D 2C AS"  # 10 + 4 + 3 + 2 + 1 = 20
B15 = "5D 4C 3H 2D AD"  # 5 + 4 + 3 + 2 + 1 = 15
C30 = "10H 6S 7C 3C 4D"  # 10 + 6 + 7 + 3 + 4 = 30
D20 = "10D 5S 2H 2S AH"  # 10 + 5 + 2 + 2 + 1 = 20
N49 = "KS QH JD 10C 9S"  # 10 + 10 + 10 + 10 + 9 = 49
N50 = "KH KD QS JC 10D"  # 50


# -- helpers (deck stacking as in test_examined_2026_12_02.py) ------------------------------


def deal_order(n: int, dealer: int) -> list[int]:
    return [(dealer + k) % n for k in range(1, n + 1)]


def deck_for(hands: list[str], dealer: int, upcard: str | None = "QC", stock: str = "") -> str:
    """A deck (top first) that deals *hands* (one per seat) with *dealer* dealing."""
    n = len(hands)
    split = [h.split() for h in hands]
    order = [split[s][r] for r in range(5) for s in deal_order(n, dealer)]
    if upcard is not None:
        order.append(upcard)
    return " ".join(order + stock.split())


def full_deck(hands: list[str], dealer: int, upcard: str | None, tail: str) -> str:
    """All 52 cards: *hands*, the upcard, filler, and *tail* as the last cards of the stock."""
    used = set(" ".join(hands).split()) | set(tail.split())
    if upcard is not None:
        used.add(upcard)
    filler = [c for c in ALL_CARDS if c not in used]
    deck = deck_for(hands, dealer, upcard, " ".join([*filler, *tail.split()]))
    assert len(deck.split()) == 52
    return deck


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
    """A Tonk game with stacked hands; by default the last seat deals (seat 0 first)."""
    n = len(seats)
    if dealer is None:
        dealer = n - 1
    opts: dict[str, Any] = {"first_dealer": dealer}
    opts.update(options)
    if NO_UPCARD in rules:
        upcard = None
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


def legal(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def pass_turn(game: cardcore.Game, seat: int) -> str:
    """Draw from the stock and throw the drawn card away (the hand is unchanged)."""
    before = set(table(game, seat)["hand"])
    game.act(seat, "draw")
    (drawn,) = set(table(game, seat)["hand"]) - before
    game.act(seat, f"discard {drawn}")
    return drawn


def pass_turns(game: cardcore.Game, count: int) -> None:
    for _ in range(count):
        pass_turn(game, game.to_act[0])


def hand_entries(game: cardcore.Game) -> list[dict[str, Any]]:
    return [e for e in game.history(None) if e["kind"] == "hand"]


def result(game: cardcore.Game) -> cardcore.Result:
    assert game.result is not None
    return game.result


def payouts(game: cardcore.Game) -> tuple[int, ...]:
    money = result(game).payouts
    assert money is not None
    return tuple(money)


def scores(game: cardcore.Game) -> tuple[float, ...]:
    return tuple(result(game).scores)


def winners(game: cardcore.Game) -> tuple[int, ...]:
    return tuple(result(game).winners)


def reason(game: cardcore.Game) -> str:
    return result(game).reason


def restack(game: cardcore.Game, decks: list[str], **new_game: Any) -> cardcore.Game:
    """The same game read back from its position with the coming deals stacked (NOTE-2)."""
    return cardcore.new_game(
        "tonk",
        len(table(game, None)["hand_sizes"]),
        position=stack_deals(game.position(), decks),
        **new_game,
    )


# ============================================================================================
# TONK-VAR-1: no upcard
# ============================================================================================


def test_TONK_VAR_1_two_players_no_upcard_first_draw_is_the_next_card() -> None:
    """Ex 1. Two players, no upcard: stock 52 - 10 = 42, pile empty. P0 may only drop or draw;
    the draw is the 11th card of the deck (9D); P0 discards KC: the pile is 1 card, top KC."""
    game = deal([A20, B15], stock="9D", rules=(NO_UPCARD,))
    t = table(game, 0)
    assert (t["stock"], t["discard_count"], t["discard_top"]) == (42, 0, None)
    assert legal(game, 0) == ["drop", "draw"]
    game.act(0, "draw")
    assert "9D" in table(game, 0)["hand"]
    game.act(0, "discard 9D")
    t = table(game, 1)
    assert (t["stock"], t["discard_count"], t["discard_top"]) == (41, 1, "9D")
    assert legal(game, 1) == ["drop", "draw", "take"]


def test_TONK_VAR_1_drop_on_the_first_turn_is_still_allowed() -> None:
    """Ex 2. No upcard; P0 (15) drops at once against 20 and 30: wins (+2, -1, -1)."""
    game = deal([B15, A20, C30], rules=(NO_UPCARD,))
    game.act(0, "drop")
    assert reason(game) == "drop-won"
    assert payouts(game) == (2, -1, -1)


def test_TONK_VAR_1_natural_still_checked_and_pays_double() -> None:
    """Ex 3. No upcard, P1 dealt 49 (TONK-GAP-13): natural, (-2, +4, -2)."""
    game = deal([A20, N49, C30], rules=(NO_UPCARD,))
    assert reason(game) == "natural"
    assert payouts(game) == (-2, 4, -2)


def test_TONK_VAR_1_every_hand_of_a_session_has_no_upcard() -> None:
    """Ex 4. Two-hand session: hand 1 P0 (15) drops and wins (+2, -1, -1); seat 0 deals
    hand 2 (random pack): again no upcard, stock 37, pile empty; seat 1 may drop or draw."""
    game = deal([B15, A20, C30], rules=(NO_UPCARD,), hands=2, natural=False)
    game.act(0, "drop")
    game.act(0, "deal")
    t = table(game, 1)
    assert (t["hand_number"], t["dealer"], t["stock"], t["discard_count"]) == (2, 0, 37, 0)
    assert legal(game, 1) == ["drop", "draw"]


# ============================================================================================
# TONK-VAR-2: must lay down (three aces exempt)
# ============================================================================================


def test_TONK_VAR_2_legal_actions_leave_only_discards_that_break_the_book() -> None:
    """Ex 5. P0 7H 7S 7D 2C KC draws 9S. Discarding 2C, KC or 9S would keep 7-7-7: illegal.
    Legal (TONK-LEGAL-1 order): the book, then discards of a seven (rank, then S-H-D-C)."""
    game = deal(["7H 7S 7D 2C KC", B15, C30], stock="9S", rules=(MUST_LAY,))
    game.act(0, "draw")
    assert legal(game, 0) == ["spread 7S 7H 7D", "discard 7S", "discard 7H", "discard 7D"]
    with pytest.raises(IllegalActionError, match="TONK-VAR-2"):
        game.act(0, "discard 9S")
    game.act(0, "discard 7H")  # breaking the book up is allowed
    assert game.to_act == (1,)


def test_TONK_VAR_2_a_four_card_run_may_only_be_broken_in_the_middle() -> None:
    """Ex 6. P0 3H 4H 5H 6H KC draws QD. Discarding 3H keeps 4-5-6, 6H keeps 3-4-5, KC or QD
    keep the run: only 4H and 5H may go. Legal: runs 3-5, 3-6, 4-6, then discard 4H, 5H."""
    game = deal(["3H 4H 5H 6H KC", D20, C30], stock="QD", rules=(MUST_LAY,))
    game.act(0, "draw")
    assert legal(game, 0) == [
        "spread 3H 4H 5H",
        "spread 3H 4H 5H 6H",
        "spread 4H 5H 6H",
        "discard 4H",
        "discard 5H",
    ]


def test_TONK_VAR_2_four_of_a_kind_leaves_no_legal_discard() -> None:
    """Ex 7. P0 8S 8H 8D 8C KC draws 3D: every discard keeps at least three eights, so only
    spreads are legal: the four 3-card books and the 4-card book, no discard."""
    game = deal(["8S 8H 8D 8C KC", C30, D20], stock="3D", rules=(MUST_LAY,))
    game.act(0, "draw")
    actions = legal(game, 0)
    assert not any(a.startswith("discard") for a in actions)
    assert set(actions) == {
        "spread 8S 8H 8D",
        "spread 8S 8H 8C",
        "spread 8S 8D 8C",
        "spread 8H 8D 8C",
        "spread 8S 8H 8D 8C",
    }
    game.act(0, "spread 8S 8H 8D 8C")
    game.act(0, "discard KC")
    assert table(game, 0)["total"] == 3


def test_TONK_VAR_2_drop_is_not_restricted_by_a_dealt_book() -> None:
    """Ex 8. P0 dealt 7H 7S 7D 2C AC (24, a book in hand) may drop: the book counts in the
    total (GAP-12). 24 against 30 and 28: P0 lowest, (+2, -1, -1)."""
    game = deal(["7H 7S 7D 2C AC", C30, "10D 5S 2H KS AH"], rules=(MUST_LAY,))
    assert legal(game, 0)[0] == "drop"
    game.act(0, "drop")
    assert hand_entries(game)[-1]["totals"] == [24, 30, 28]
    assert payouts(game) == (2, -1, -1)


def test_TONK_VAR_2_three_aces_may_be_kept_through_several_turns() -> None:
    """Ex 9. P0 AH AS AD 5C KC keeps the aces: draws 9S, discards KC; next turn draws 8S,
    discards 9S; hand AS AH AD 5C 8S = 16. Then P0 drops against 30 and 23: (+2, -1, -1)."""
    game = deal(["AH AS AD 5C KC", C30, "10D 5S 2H 2S 4S"], stock="9S QS JS 8S", rules=(MUST_LAY,))
    game.act(0, "draw")
    game.act(0, "discard KC")
    pass_turn(game, 1)
    pass_turn(game, 2)
    game.act(0, "draw")
    game.act(0, "discard 9S")
    pass_turn(game, 1)
    pass_turn(game, 2)
    assert table(game, 0)["total"] == 16
    game.act(0, "drop")
    assert payouts(game) == (2, -1, -1)


# ============================================================================================
# TONK-VAR-3: double needs a spread
# ============================================================================================

_VAR3_SEATS = ["2C 3C 4C 5C 6C", D20, "10H 6S 7D 3D 4D"]


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        ((), (12, -6, -6)),
        ((DOUBLE_SPREAD,), (6, -3, -3)),
        ((DOUBLE_SPREAD, MUST_LAY), (6, -3, -3)),
        ((MUST_LAY,), (12, -6, -6)),
    ],
)
def test_TONK_VAR_3_tonk_out_by_hits_alone_stake_three(
    rules: tuple[str, ...], expected: tuple[int, ...]
) -> None:
    """Ex 10-13. Stake 3. P0 2C-6C draws JH, lays 2C 3C 4C, discards JH (5C 6C left: no run,
    so must-lay-down allows it). P1, P2 pass. P0 draws 7C and hits 5C, 6C, 7C: tonked out
    by hits alone. Base and must-lay-down: 2S = 6 each (+12, -6, -6); with
    double-needs-spread: S = 3 each (+6, -3, -3)."""
    game = deal(_VAR3_SEATS, stock="JH QS KD 7C", rules=rules, stake=3)
    game.act(0, "draw")
    game.act(0, "spread 2C 3C 4C")
    game.act(0, "discard JH")
    pass_turn(game, 1)
    pass_turn(game, 2)
    game.act(0, "draw")
    for card in ("5C", "6C", "7C"):
        game.act(0, f"hit 1 {card}")
    assert reason(game) == "tonk-out"
    assert payouts(game) == expected
    assert scores(game) == tuple(p / 3 for p in expected)


def test_TONK_VAR_3_two_new_spreads_four_players_stake_two() -> None:
    """Ex 14. max_players 4, stake 2, double-needs-spread. P0 6H 7H 8H JC JD draws JS, lays
    6H 7H 8H and JS JC JD: empty with new spreads: 2S = 4 from each of three:
    (+12, -4, -4, -4)."""
    game = deal(
        ["6H 7H 8H JC JD", B15, C30, D20],
        stock="JS",
        rules=(DOUBLE_SPREAD,),
        stake=2,
        max_players=4,
    )
    game.act(0, "draw")
    game.act(0, "spread 6H 7H 8H")
    game.act(0, "spread JS JC JD")
    assert reason(game) == "tonk-out"
    assert payouts(game) == (12, -4, -4, -4)


def test_TONK_VAR_3_out_by_discard_still_pays_single() -> None:
    """Ex 15. double-needs-spread: P0 2C 3C 4C 5C KH draws 6C, lays 2C..6C, discards KH:
    out by discard (TONK-OUT-2): (+2, -1, -1)."""
    game = deal(["2C 3C 4C 5C KH", D20, "10H 6S 7D 3D 4D"], stock="6C", rules=(DOUBLE_SPREAD,))
    game.act(0, "draw")
    game.act(0, "spread 2C 3C 4C 5C 6C")
    game.act(0, "discard KH")
    assert reason(game) == "out"
    assert payouts(game) == (2, -1, -1)


# ============================================================================================
# TONK-VAR-4: hit blocks drop
# ============================================================================================


def test_TONK_VAR_4_two_players_blocked_once_then_free() -> None:
    """Ex 16. P0 5H 6H 7H KD QD draws AC, lays 5H 6H 7H, discards KD. P1 draws JD, hits
    P0's run with 4H, discards JD. P0's next turn: only draw or take (drop is TONK-VAR-4
    illegal). P0 draws 8C, discards it; P1 passes; now P0 may drop: QD AC = 11 against
    2S 9S KC 3D = 24: (+1, -1)."""
    game = deal(["5H 6H 7H KD QD", "4H 2S 9S KC 3D"], stock="AC JD 8C 9C", rules=(HIT_BLOCKS,))
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KD")
    game.act(1, "draw")
    game.act(1, "hit 1 4H")
    game.act(1, "discard JD")
    assert legal(game, 0) == ["draw", "take"]
    with pytest.raises(IllegalActionError, match="TONK-VAR-4"):
        game.act(0, "drop")
    pass_turn(game, 0)
    pass_turn(game, 1)
    assert legal(game, 0)[0] == "drop"
    game.act(0, "drop")
    assert hand_entries(game)[-1]["totals"] == [11, 24]
    assert payouts(game) == (1, -1)


# ============================================================================================
# TONK-VAR-5: stock out, play on from the discards
# ============================================================================================

_P3 = [A20, B15, C30]


def test_TONK_VAR_5_three_players_quiet_round_from_the_discards_stake_two() -> None:
    """Ex 17. Stake 2; 36 stock cards, the last KH. 36 passing turns (P2 throws KH away
    last). The stock is out: P0 may drop or take. P0 takes KH, discards 10S (20); P1 takes
    10S, discards 5D (4C 3H 2D AD 10S = 20); P2 takes 5D, discards 10H (6S 7C 3C 4D 5D = 25).
    A full quiet round from the discards: the hand ends as TONK-STOCK-2 when P0's turn
    begins. P0, P1 tie at 20: each collects S from P2: (+2, +2, -4), scores (1, 1, -2)."""
    game = cardcore.new_game(
        "tonk",
        3,
        deck=full_deck(_P3, 2, "QC", "KH"),
        seed=5,
        options={"first_dealer": 2, "stake": 2},
        rules=(DISCARD_ONLY,),
    )
    pass_turns(game, 36)
    assert table(game, None)["stock"] == 0 and not game.is_over
    assert legal(game, 0) == ["drop", "draw", "take"]
    asked = game.clone()  # asking for the empty stock ends the hand there (TONK-GAP-3)
    asked.act(0, "draw")
    assert asked.is_over and reason(asked) == "stock-out"
    for seat, out in ((0, "10S"), (1, "5D")):
        game.act(seat, "take")
        game.act(seat, f"discard {out}")
        assert not game.is_over
    game.act(2, "take")
    game.act(2, "discard 10H")
    assert game.is_over
    assert reason(game) == "stock-out"
    assert hand_entries(game)[-1]["totals"] == [20, 20, 25]
    assert payouts(game) == (2, 2, -4)
    assert scores(game) == (1, 1, -2)


def test_TONK_VAR_5_a_spread_from_the_discards_restarts_the_quiet_round() -> None:
    """Ex 18. Two players; P0 20, P1 7H 8H 2D 3S KC; the last stock card (41st, P0's) is 9H,
    which P0 throws away. P1 takes 9H, lays 7H 8H 9H, discards KC (not quiet; P1 2D 3S).
    P0 takes KC, discards 10S (quiet 1; 4H 3D 2C AS KC = 20); P1 takes 10S, discards 3S
    (quiet 2; 2D 10S = 12). P0's turn begins: over. 20 vs 12: (-1, +1)."""
    game = cardcore.new_game(
        "tonk",
        2,
        deck=full_deck([A20, "7H 8H 2D 3S KC"], 1, "QC", "9H"),
        seed=5,
        options={"first_dealer": 1},
        rules=(DISCARD_ONLY,),
    )
    pass_turns(game, 41)
    assert not game.is_over and game.to_act == (1,)
    game.act(1, "take")
    game.act(1, "spread 7H 8H 9H")
    game.act(1, "discard KC")
    game.act(0, "take")
    game.act(0, "discard 10S")
    assert not game.is_over
    game.act(1, "take")
    game.act(1, "discard 3S")
    assert game.is_over
    assert reason(game) == "stock-out"
    assert hand_entries(game)[-1]["totals"] == [20, 12]
    assert payouts(game) == (-1, 1)


def test_TONK_VAR_5_drop_from_the_discard_phase_is_a_normal_drop() -> None:
    """Ex 19. Three players pass 36 turns; the stock is out and P0 (20) drops against 15
    and 30: caught: pays 2 to P1, P1 collects 1 from P2: (-2, +3, -1), 'drop-caught'."""
    game = deal(_P3, rules=(DISCARD_ONLY,))
    pass_turns(game, 36)
    game.act(0, "drop")
    assert reason(game) == "drop-caught"
    assert payouts(game) == (-2, 3, -1)


# ============================================================================================
# TONK-VAR-6: quiet-round-any-turns; TONK-VAR-7: void-deal-counts
# ============================================================================================

_VAR6_DECK = full_deck([A20, "7H 8H 2D 3S KC"], 1, "QC", "9H JD")


def _var6_game(rules: tuple[str, ...]) -> cardcore.Game:
    """Two players; turns 1-39 pass; turn 40 (P1) draws 9H, lays 7H 8H 9H, discards KC
    (P1 2D 3S = 5); turn 41 (P0) draws the last card JD and throws it away."""
    game = cardcore.new_game(
        "tonk", 2, deck=_VAR6_DECK, seed=5, options={"first_dealer": 1}, rules=rules
    )
    pass_turns(game, 39)
    game.act(1, "draw")
    game.act(1, "spread 7H 8H 9H")
    game.act(1, "discard KC")
    pass_turn(game, 0)
    return game


def test_TONK_VAR_6_alone_changes_nothing() -> None:
    """Ex 20. quiet-round-any-turns without stock-out-discard-only: the base game, the hand
    ends when P1's turn 42 starts with an empty stock: 20 vs 5: (-1, +1)."""
    game = _var6_game((ANY_TURNS,))
    assert game.is_over and reason(game) == "stock-out"
    assert payouts(game) == (-1, 1)


def test_TONK_VAR_6_turns_before_the_stock_ran_out_count() -> None:
    """Ex 21. Both rules: turn 42 (P1) starts after only one quiet turn (41), so P1 plays on:
    takes JD, discards 3S (2D JD = 12). Turns 41 and 42 are a quiet round: the hand ends as
    P0's turn 43 begins. 20 vs 12: (-1, +1)."""
    game = _var6_game((DISCARD_ONLY, ANY_TURNS))
    assert not game.is_over
    assert legal(game, 1) == ["drop", "draw", "take"]
    game.act(1, "take")
    game.act(1, "discard 3S")
    assert game.is_over
    assert reason(game) == "stock-out"
    assert payouts(game) == (-1, 1)


def test_TONK_VAR_5_without_var_6_needs_a_round_from_the_discards() -> None:
    """Ex 22. The same deal with stock-out-discard-only alone: turn 41 drew from the stock,
    so it does not count; after P1's turn 42 (take JD, discard 3S; 2D JD = 12) P0 plays
    on too: takes 3S, discards 10S (4H 3D 2C AS 3S = 13). Turns 42 and 43 are the quiet
    round from the discards: the hand ends as P1's turn 44 begins. 13 vs 12: (-1, +1)."""
    game = _var6_game((DISCARD_ONLY,))
    game.act(1, "take")
    game.act(1, "discard 3S")
    assert not game.is_over
    assert legal(game, 0) == ["drop", "draw", "take"]
    game.act(0, "take")
    game.act(0, "discard 10S")
    assert game.is_over
    assert reason(game) == "stock-out"
    assert hand_entries(game)[-1]["totals"] == [13, 12]
    assert payouts(game) == (-1, 1)


def test_TONK_VAR_6_with_var_5_three_passing_players_end_at_once() -> None:
    """Ex 23. Both rules, three players passing 36 turns: the last round was quiet, so the
    hand ends as P0's turn begins, as TONK-STOCK-1: 20, 15, 30 -> (-1, +2, -1)."""
    game = deal(_P3, rules=(DISCARD_ONLY, ANY_TURNS))
    pass_turns(game, 36)
    assert game.is_over and reason(game) == "stock-out"
    assert payouts(game) == (-1, 2, -1)


def test_TONK_VAR_7_a_void_deal_ends_a_one_hand_session() -> None:
    """Ex 24. void-deal-counts, one hand: P0 49 and P1 50: void, the session is over with
    reason 'void', nobody paid, all three tied as winners."""
    game = deal([N49, N50, C30], rules=(VOID_COUNTS,))
    assert game.is_over
    assert reason(game) == "void"
    assert payouts(game) == (0, 0, 0)
    assert winners(game) == (0, 1, 2)


def test_TONK_VAR_7_a_void_deal_is_hand_one_of_two() -> None:
    """Ex 25. void-deal-counts, two hands: hand 1 void; seat 0 deals hand 2 (stacked: P0 20,
    P1 15, P2 30); P1 moves first and drops: (-1, +2, -1), and the session is over."""
    game = deal([N49, N50, C30], rules=(VOID_COUNTS,), hands=2, seed=3)
    assert not game.is_over and game.to_act == (0,)
    game = restack(
        game,
        [deck_for(_P3, 0)],
        seed=3,
        rules=(VOID_COUNTS,),
        options={"first_dealer": 2, "hands": 2},
    )
    game.act(0, "deal")
    t = table(game, 1)
    assert (t["hand_number"], t["dealer"]) == (2, 0)
    game.act(1, "drop")
    assert game.is_over
    assert reason(game) == "drop-won"
    assert payouts(game) == (-1, 2, -1)


def test_TONK_49_2_without_var_7_a_void_deal_keeps_its_number() -> None:
    """Ex 26. Base, two hands: hand 1 void (dealer 2); seat 0 deals it again (P0 20, P1 15,
    P2 30): still hand 1; P1 drops and wins (-1, +2, -1); seat 1 deals hand 2 (P0 15, P1 30,
    P2 20), P2 moves first and drops 20: caught by P0 (15): P2 pays 2 to P0, P0 collects 1
    from P1: (+3, -1, -2). Session (+2, +1, -3), winner seat 0, reason 'drop-caught'."""
    game = deal([N49, N50, C30], hands=2, seed=3)
    game = restack(
        game,
        [deck_for(_P3, 0), deck_for([B15, C30, A20], 1)],
        seed=3,
        options={"first_dealer": 2, "hands": 2},
    )
    assert "played=0" in game.position()
    game.act(0, "deal")
    assert (table(game, 1)["hand_number"], table(game, 1)["dealer"]) == (1, 0)
    game.act(1, "drop")
    assert not game.is_over and game.to_act == (1,)
    game.act(1, "deal")
    assert (table(game, 2)["hand_number"], game.to_act) == (2, (2,))
    game.act(2, "drop")
    assert payouts(game) == (2, 1, -3)
    assert winners(game) == (0,)
    assert reason(game) == "drop-caught"


# ============================================================================================
# Combinations
# ============================================================================================


def test_TONK_VAR_every_combination_of_house_rules_is_legal() -> None:
    """Ex 27. All 2^7 subsets of the seven variants, with and without the natural: each
    builds; P0 (20) is offered drop and draw, and take unless no-upcard."""
    for size in range(len(VARIANTS) + 1):
        for combo in itertools.combinations(VARIANTS, size):
            for natural in (True, False):
                game = deal(_P3, rules=combo, natural=natural)
                expected = ["drop", "draw"] if NO_UPCARD in combo else ["drop", "draw", "take"]
                assert legal(game, 0) == expected, combo


def test_TONK_VAR_1_and_VAR_2_combined() -> None:
    """Ex 28. No upcard and must-lay-down: P0 7H 7S 7D 2C KC may drop or draw; draws 9S (the
    16th card); must break or lay the book: as Ex 5."""
    game = deal(["7H 7S 7D 2C KC", B15, C30], stock="9S", rules=(NO_UPCARD, MUST_LAY))
    assert legal(game, 0) == ["drop", "draw"]
    game.act(0, "draw")
    assert legal(game, 0) == ["spread 7S 7H 7D", "discard 7S", "discard 7H", "discard 7D"]


def test_TONK_VAR_4_and_VAR_5_a_hit_from_the_discards_blocks_the_drop() -> None:
    """Ex 29. Two players, both rules. Turn 1: P0 5H 6H 7H KD QD draws, lays 5H 6H 7H and
    throws the card away (KD QD left). Turns 2-40 pass; turn 41 P0 draws the last card AC and
    throws it away. P1 (4H 2S 9S KC 3D) takes AC, hits P0's run with 4H, discards KC (not
    quiet). P0's turn: no stock, drop blocked: only take. P0 takes KC, discards QD (KD KC =
    20, quiet 1); P1 takes QD, discards 9S (2S 3D AC QD = 16, quiet 2): over. (-1, +1)."""
    game = cardcore.new_game(
        "tonk",
        2,
        deck=full_deck(["5H 6H 7H KD QD", "4H 2S 9S KC 3D"], 1, "QC", "AC"),
        seed=5,
        options={"first_dealer": 1},
        rules=(HIT_BLOCKS, DISCARD_ONLY),
    )
    before = set(table(game, 0)["hand"])
    game.act(0, "draw")
    (drawn,) = set(table(game, 0)["hand"]) - before
    game.act(0, "spread 5H 6H 7H")
    game.act(0, f"discard {drawn}")
    pass_turns(game, 39)
    assert pass_turn(game, 0) == "AC"
    game.act(1, "take")
    game.act(1, "hit 1 4H")
    game.act(1, "discard KC")
    assert legal(game, 0) == ["draw", "take"]
    game.act(0, "take")
    game.act(0, "discard QD")
    assert not game.is_over
    game.act(1, "take")
    game.act(1, "discard 9S")
    assert game.is_over
    assert hand_entries(game)[-1]["totals"] == [20, 16]
    assert payouts(game) == (-1, 1)


# ============================================================================================
# Stakes other than 1
# ============================================================================================


def test_TONK_STAKE_1_natural_four_players_stake_seven() -> None:
    """Ex 30. max_players 4, stake 7: seat 3 (dealer) dealt 49: 2S = 14 from each of three:
    (-14, -14, -14, +42); scores (-2, -2, -2, 6)."""
    game = deal([A20, B15, C30, N49], stake=7, max_players=4)
    assert payouts(game) == (-14, -14, -14, 42)
    assert scores(game) == (-2, -2, -2, 6)


# ============================================================================================
# Sessions
# ============================================================================================


def test_TONK_SESSION_1_three_hands_stake_two() -> None:
    """Ex 31. Stake 2, three hands, seat 2 deals first. Hand 1: P0 (15) drops against 20, 30:
    (+2, -1, -1) units. Hand 2 (seat 0 deals): P2 dealt 49: (-2, -2, +4). Hand 3 (seat 1
    deals, P2 first): P2 (20) drops against 15 and 30: caught: (+3, -1, -2). Balances in
    money after each hand: (4,-2,-2), (0,-6,6), (6,-8,2); result (6,-8,2), scores (3,-4,1),
    winner seat 0, reason 'drop-caught'."""
    opts = {"first_dealer": 2, "hands": 3, "stake": 2}
    game = deal([B15, A20, C30], hands=3, stake=2, seed=3)
    game = restack(
        game, [deck_for([A20, B15, N49], 0), deck_for([B15, C30, A20], 1)], seed=3, options=opts
    )
    game.act(0, "drop")
    assert table(game, 0)["balances"] == [4, -2, -2]
    assert legal(game, 0) == ["deal"] and legal(game, 1) == [] and legal(game, 2) == []
    game.act(0, "deal")
    assert table(game, 0)["balances"] == [0, -6, 6]
    assert game.to_act == (1,) and legal(game, 1) == ["deal"]
    game.act(1, "deal")
    assert game.to_act == (2,)
    game.act(2, "drop")
    assert game.is_over
    entries = hand_entries(game)
    assert [e["hand"] for e in entries] == [1, 2, 3]
    assert [e["dealer"] for e in entries] == [2, 0, 1]
    assert [e["reason"] for e in entries] == ["drop-won", "natural", "drop-caught"]
    assert [e["amounts"] for e in entries] == [[4, -2, -2], [-4, -4, 8], [6, -2, -4]]
    assert [e["balances"] for e in entries] == [[4, -2, -2], [0, -6, 6], [6, -8, 2]]
    assert payouts(game) == (6, -8, 2)
    assert scores(game) == (3, -4, 1)
    assert winners(game) == (0,)
    assert reason(game) == "drop-caught"


def test_TONK_SESSION_1_a_tied_session_has_two_winners() -> None:
    """Ex 32. Two players, two hands. Hand 1 (seat 1 deals): P0 (20) drops against 15:
    caught, (-2, +2). Hand 2 (seat 0 deals, P1 first): P1 (20) drops against P0 15: caught,
    (+2, -2). Session (0, 0): winners (0, 1)."""
    game = deal([A20, B15], hands=2, seed=3)
    game = restack(game, [deck_for([B15, A20], 0)], seed=3, options={"first_dealer": 1, "hands": 2})
    game.act(0, "drop")
    game.act(0, "deal")
    assert game.to_act == (1,)
    game.act(1, "drop")
    assert payouts(game) == (0, 0)
    assert winners(game) == (0, 1)
    assert reason(game) == "drop-caught"


def test_TONK_SESSION_3_deal_is_the_only_action_between_hands() -> None:
    """Ex 33. Between hands only the next dealer acts, and only 'deal'; 'drop' or 'draw'
    then are illegal; the shown hands stay; 'deal' during play is illegal too."""
    game = deal(_P3, hands=2)
    with pytest.raises(IllegalActionError, match=r"\(TONK-SESSION-3\)"):
        game.act(0, "deal")
    game.act(0, "drop")
    assert table(game, None)["phase"] == "between"
    assert game.to_act == (0,)
    for text in ("drop", "draw", "take"):
        with pytest.raises(IllegalActionError, match=r"\(TONK-SESSION-3\)"):
            game.act(0, text)
    with pytest.raises((IllegalActionError, cardcore.SeatError)):
        game.act(1, "deal")
    action = game.act(0, "DEAL")
    assert str(action) == "deal"
    assert table(game, None)["hand_sizes"] == [5, 5, 5]


def test_TONK_SESSION_1_the_last_hand_needs_no_deal() -> None:
    """Ex 34. hands=2: after the second hand the game is over; nobody is asked to deal."""
    game = deal(_P3, hands=2, natural=False)
    game.act(0, "drop")
    game.act(0, "deal")
    game.act(1, "drop")
    assert game.is_over
    assert game.to_act == ()
    assert all(legal(game, s) == [] for s in range(3))


# ============================================================================================
# Four players
# ============================================================================================


def test_TONK_GEN_1_four_seats_need_max_players() -> None:
    """Ex 35. Four seats with the default max_players (3): an option error naming it."""
    with pytest.raises(OptionError, match="max_players"):
        cardcore.new_game("tonk", 4, seed=1)
    with pytest.raises(OptionError, match="max_players"):
        cardcore.new_game("tonk", 3, seed=1, options={"max_players": 2})


def test_TONK_DROP_3_four_players_caught() -> None:
    """Ex 36. Four players: P0 20 drops against 15, 30, 20. Caught: pays 2 to P1 (15) and
    to P3 (20, equal); P1 (lowest non-dropper) collects 1 from P2 and from P3:
    (-4, +4, -1, +1)."""
    game = deal([A20, B15, C30, D20], max_players=4)
    assert table(game, None)["stock"] == 31
    game.act(0, "drop")
    assert reason(game) == "drop-caught"
    assert payouts(game) == (-4, 4, -1, 1)


def test_TONK_DEALER_2_four_players_four_hands() -> None:
    """Ex 37. max_players 4, four hands, seat 3 deals first: dealers 3, 0, 1, 2; first
    players 0, 1, 2, 3; between hands the next dealer deals."""
    game = cardcore.new_game(
        "tonk",
        4,
        seed=8,
        without=(NATURAL,),
        options={"max_players": 4, "hands": 4, "first_dealer": 3},
    )
    dealers, firsts, dealing = [], [], []
    while not game.is_over:
        t = table(game, None)
        if t["phase"] == "between":
            dealing.append(game.to_act[0])
            game.act(game.to_act[0], "deal")
            continue
        dealers.append(t["dealer"])
        firsts.append(game.to_act[0])
        game.act(game.to_act[0], "drop")
    assert dealers == [3, 0, 1, 2]
    assert firsts == [0, 1, 2, 3]
    assert dealing == [0, 1, 2]
    assert sum(payouts(game)) == 0


def test_TONK_VAR_1_four_players_no_upcard() -> None:
    """Ex 38. Four players, no upcard: stock 52 - 20 = 32, pile empty."""
    game = deal([A20, B15, C30, D20], rules=(NO_UPCARD,), max_players=4)
    t = table(game, None)
    assert (t["stock"], t["discard_count"]) == (32, 0)


# ============================================================================================
# TONK-NOTE-1: notation
# ============================================================================================


def test_TONK_NOTE_1_books_print_in_suit_order_and_deal_is_one_word() -> None:
    """Ex 39. 'spread 9c 9s 9d' prints 'spread 9S 9D 9C' (rank, then S-H-D-C); 'deal now'
    and 'deal 2' are malformed."""
    game = deal(["9S 9D 9C 2H KC", B15, C30], stock="4S", hands=2)
    game.act(0, "draw")
    assert str(game.act(0, "spread 9c 9s 9d")) == "spread 9S 9D 9C"
    for bad in ("deal now", "deal 2", "drop 1", "take 5H"):
        with pytest.raises(NotationError):
            game.act(0, bad)


def test_TONK_NOTE_1_illegal_text_cites_the_house_rule() -> None:
    """Ex 40. Well-formed but forbidden actions name the rule: 'take' with no pile under
    no-upcard names a Tonk rule; a must-lay-down discard names TONK-VAR-2."""
    game = deal(["7H 7S 7D 2C KC", B15, C30], stock="9S", rules=(NO_UPCARD, MUST_LAY))
    with pytest.raises(IllegalActionError, match="TONK-"):
        game.act(0, "take")
    game.act(0, "draw")
    with pytest.raises(IllegalActionError, match="TONK-VAR-2"):
        game.act(0, "discard KC")


# ============================================================================================
# TONK-NOTE-2: positions
# ============================================================================================


def test_TONK_NOTE_2_round_trip_keeps_the_hit_block() -> None:
    """Ex 41. hit-blocks-drop: after P1 hits P0's run (as Ex 16) the position has a 'hit'
    field; read back with the same rules, P0 still may not drop; views and position equal."""
    rules = (HIT_BLOCKS, MUST_LAY)
    game = deal(["5H 6H 7H KD QD", "4H 2S 9S KC 3D"], stock="AC JD 8C 9C", rules=rules)
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KD")
    game.act(1, "draw")
    game.act(1, "hit 1 4H")
    game.act(1, "discard JD")
    text = game.position()
    head = text.split(" | ")[0].split()
    assert head[0] == "tonk"
    fields = {w.split("=")[0] for w in head[1:]}
    assert {"played", "dealer", "turn", "phase", "balances", "chance", "spreads", "hit"} <= fields
    copy = cardcore.new_game(
        "tonk", 2, position=text, seed=1, rules=rules, options={"first_dealer": 1}
    )
    assert copy.position() == text
    for seat in (0, 1, None):
        assert copy.view(seat)["table"] == game.view(seat)["table"]
        assert copy.view(seat)["zones"] == game.view(seat)["zones"]
    assert legal(copy, 0) == ["draw", "take"]


def test_TONK_NOTE_2_round_trip_keeps_the_quiet_count() -> None:
    """Ex 42. Ex 17 cut after P0's quiet turn from the discards: the position carries
    'quiet'; the copy ends after P1's and P2's turns with (+2, +2, -4) like the original."""
    opts = {"first_dealer": 2, "stake": 2}
    game = cardcore.new_game(
        "tonk", 3, deck=full_deck(_P3, 2, "QC", "KH"), seed=5, options=opts, rules=(DISCARD_ONLY,)
    )
    pass_turns(game, 36)
    game.act(0, "take")
    game.act(0, "discard 10S")
    text = game.position()
    assert "quiet=" in text.split(" | ")[0]
    copy = cardcore.new_game("tonk", 3, position=text, seed=99, options=opts, rules=(DISCARD_ONLY,))
    for g in (game, copy):
        g.act(1, "take")
        g.act(1, "discard 5D")
        assert not g.is_over
        g.act(2, "take")
        g.act(2, "discard 10H")
        assert g.is_over
        assert payouts(g) == (2, 2, -4)


def test_TONK_NOTE_2_between_hands_and_over_positions() -> None:
    """Ex 43. Two hands: after hand 1 (P0 15 drops, +2) the position says played=1,
    phase "between", balances [2,-1,-1]; read back, seat 0 may only deal. After hand 2 the
    position says phase "over" and reading it back gives a finished game with the same
    winners and reason."""
    opts = {"first_dealer": 2, "hands": 2}
    game = deal([B15, A20, C30], hands=2, natural=False)
    game.act(0, "drop")
    text = game.position()
    head = text.split(" | ")[0]
    assert "played=1" in head and 'phase="between"' in head and "balances=[2,-1,-1]" in head
    copy = cardcore.new_game("tonk", 3, position=text, seed=2, options=opts, without=(NATURAL,))
    assert legal(copy, 0) == ["deal"]
    copy.act(0, "deal")
    copy.act(1, "drop")
    assert copy.is_over
    final = copy.position()
    assert 'phase="over"' in final.split(" | ")[0]
    again = cardcore.new_game("tonk", 3, position=final, seed=4, options=opts, without=(NATURAL,))
    assert again.is_over
    assert winners(again) == winners(copy)
    assert reason(again) == reason(copy)


def test_TONK_NOTE_2_stacked_next_deals_deal_in_order() -> None:
    """Ex 44. Three hands; next = [deck for hand 2 (dealer 0), deck for hand 3 (dealer 1)]:
    hand 2 gives seat 1 (first) 5D 4C 3H 2D AD, upcard QC; hand 3 gives seat 2 20 points."""
    game = deal(_P3, hands=3, natural=False)
    game = restack(
        game,
        [deck_for([C30, B15, A20], 0), deck_for([C30, A20, B15], 1)],
        seed=6,
        options={"first_dealer": 2, "hands": 3},
        without=(NATURAL,),
    )
    game.act(0, "drop")
    game.act(0, "deal")
    t = table(game, 1)
    assert sorted(t["hand"]) == sorted(B15.split()) and t["discard_top"] == "QC"
    assert table(game, 0)["total"] == 30
    game.act(1, "drop")
    game.act(1, "deal")
    assert table(game, 2)["total"] == 15 and table(game, 1)["total"] == 20
    assert game.to_act == (2,)


def test_TONK_NOTE_2_cut_field_stacks_the_first_dealer() -> None:
    """Ex 45. A start position (seat 2 deals, nothing played) with cut=[["K","2","K"],["3",
    null,"J"]]: seats 0 and 2 tie on kings and cut again, J beats 3: the cut chose seat 2.
    Read back, history entry 0 is that cut and the hand is unchanged. A cut that does not end
    with one seat alone highest is a bad position. (Ambiguity: "must choose the first
    dealer". The engine reads it as "must end with one dealer" and accepts a cut naming
    another seat than the position's dealer, since void deals pass the deal without a hand.)"""
    game = cardcore.new_game("tonk", 3, seed=5, options={"first_dealer": 2})
    text = game.position()
    cut = 'cut=[["K","2","K"],["3",null,"J"]] '
    copy = cardcore.new_game(
        "tonk", 3, position=text.replace("chance=", cut + "chance=", 1), seed=5
    )
    assert copy.history(None)[0] == {
        "kind": "cut",
        "dealer": 2,
        "rounds": [["K", "2", "K"], ["3", None, "J"]],
    }
    assert copy.view(0)["table"] == game.view(0)["table"]
    for bad in ('cut=[["K","2","K"]] ', 'cut=[["K","2","K"],["3",null,"3"]] '):
        with pytest.raises(OptionError, match=r"\(CORE-POSITION-1\)"):
            cardcore.new_game(
                "tonk", 3, position=text.replace("chance=", bad + "chance=", 1), seed=5
            )
    other = text.replace("chance=", 'cut=[["K","7","9"]] chance=', 1)
    assert cardcore.new_game("tonk", 3, position=other, seed=5).history(None)[0]["dealer"] == 0


def test_TONK_NOTE_2_balances_must_sum_to_zero() -> None:
    """Ex 46. A position whose balances do not sum to zero is refused."""
    text = deal(_P3, hands=2).position()
    assert "balances=[0,0,0]" in text
    bad = text.replace("balances=[0,0,0]", "balances=[1,0,0]")
    with pytest.raises(OptionError, match=r"\(CORE-POSITION-1\)"):
        cardcore.new_game("tonk", 3, position=bad, seed=1, options={"hands": 2})


def test_TONK_VAR_5_four_players_quiet_round_is_four_turns_stake_three() -> None:
    """Ex 47. max_players 4, stake 3, stock 31, last card KH drawn and thrown away by P2 on
    turn 31. From the discards: P3 takes KH, discards 10D (5S 2H 2S AH KH = 20); P0 takes
    10D, discards 10S (4H 3D 2C AS 10D = 20); P1 takes 10S, discards 5D (4C 3H 2D AD 10S =
    20); P2 takes 5D, discards 10H (6S 7C 3C 4D 5D = 25). Four quiet turns: over when P3's
    turn begins. P0, P1, P3 tie lowest, each collects S from P2: (+3, +3, -9, +3)."""
    seats = [A20, B15, C30, D20]
    game = cardcore.new_game(
        "tonk",
        4,
        deck=full_deck(seats, 3, "QC", "KH"),
        seed=5,
        options={"first_dealer": 3, "stake": 3, "max_players": 4},
        rules=(DISCARD_ONLY,),
    )
    pass_turns(game, 31)
    for seat, out in ((3, "10D"), (0, "10S"), (1, "5D")):
        assert legal(game, seat) == ["drop", "draw", "take"]
        game.act(seat, "take")
        game.act(seat, f"discard {out}")
        assert not game.is_over
    game.act(2, "take")
    game.act(2, "discard 10H")
    assert game.is_over
    assert hand_entries(game)[-1]["totals"] == [20, 20, 25, 20]
    assert payouts(game) == (3, 3, -9, 3)


def test_TONK_VAR_4_the_block_does_not_reach_into_the_next_hand() -> None:
    """Ex 48. hit-blocks-drop, two hands. Hand 1: P0 draws AC, lays 5H 6H 7H, discards KD;
    P1 (4H 8H 9S 9D 9C) draws 2S, lays 9S 9D 9C, hits P0's run with 4H and 8H, discards 2S:
    out by discard, (-1, +1). P0's next turn is in hand 2 (seat 0 deals, P1 passes): the
    spreads are gone and P0 may drop. (The text says "next turn"; read within the hand.)"""
    game = deal(
        ["5H 6H 7H KD QD", "4H 8H 9S 9D 9C"],
        stock="AC 2S",
        rules=(HIT_BLOCKS,),
        hands=2,
        natural=False,
    )
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard KD")
    game.act(1, "draw")
    game.act(1, "spread 9S 9D 9C")
    game.act(1, "hit 1 4H")
    game.act(1, "hit 1 8H")
    game.act(1, "discard 2S")
    assert table(game, 0)["balances"] == [-1, 1]
    game.act(0, "deal")
    pass_turn(game, 1)
    assert legal(game, 0)[0] == "drop"


def test_TONK_NOTE_2_round_trip_keeps_the_taken_card() -> None:
    """Ex 49. P0 takes the upcard QC; the position carries 'taken'; read back, discarding QC
    is still illegal (TONK-TURN-4) and the other discards are legal."""
    game = deal([A20, B15, C30], rules=(DOUBLE_SPREAD,))
    game.act(0, "take")
    text = game.position()
    assert "taken=" in text.split(" | ")[0]
    copy = cardcore.new_game(
        "tonk", 3, position=text, seed=3, rules=(DOUBLE_SPREAD,), options={"first_dealer": 2}
    )
    assert "discard QC" not in legal(copy, 0)
    with pytest.raises(IllegalActionError, match="TONK-TURN-4"):
        copy.act(0, "discard QC")
    assert legal(copy, 0) == legal(game, 0)
