"""Tonk's engine decisions audited against the seed (2026-12-03).

Authority: ``shared/seeds/tonk.en.md`` (the seed). Every ``[D]``, ``[S~/D]`` and
*(new)* rule of ``seeds/tonk.md`` was tried against a concrete table; a strict
xfail marks a decision that forbids what the seed allows or pays otherwise, and
its docstring quotes the seed sentence it contradicts. Payouts are net per seat
(stake S = 1), listed by seat.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import cardcore
from cardcore import Game

NATURAL = "tonk.natural-49-50"
DISCARD_ONLY = "tonk.stock-out-discard-only"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ALL = [r + s for s in "SHDC" for r in RANKS]


def stacked(hands: list[str], upcard: str, stock: list[str]) -> Game:
    """Deal *hands* (seat 0 first, the last seat deals), then *upcard*, then *stock* (top first)."""
    split = [h.split() for h in hands]
    order = [split[s][r] for r in range(5) for s in range(len(hands))]
    deck = " ".join([*order, upcard, *stock])
    return cardcore.new_game(
        "tonk",
        len(hands),
        deck=deck,
        seed=1,
        without=(NATURAL,),
        options={"first_dealer": len(hands) - 1},
    )


def position(
    hands: list[str],
    *,
    stock: list[str],
    top: str,
    spreads: list[tuple[str, int]],
    rules: tuple[str, ...] = (),
) -> Game:
    """Start from a position: seat 0 to act at the start of its turn, *stock* bottom to top,
    *top* the top discard; every other card lies face down under it."""
    used = [c for h in hands for c in h.split()] + stock + [top]
    used += [c for s, _ in spreads for c in s.split()]
    rest = [c for c in ALL if c not in used]
    n = len(hands)
    shape = json.dumps([[len(s.split()), o] for s, o in spreads]).replace(" ", "")
    head = (
        f'tonk played=0 dealer={n - 1} turn=0 phase="start" '
        f"balances={json.dumps([0] * n).replace(' ', '')} chance=1 spreads={shape}"
    )
    piles = [
        f"stock: {' '.join(stock)}",
        f"discard: {' '.join([*rest, top + '!'])}",
        *(f"hand.{i}: {' '.join(f'{c}@{i}' for c in h.split())}" for i, h in enumerate(hands)),
        f"spreads: {' '.join(c + '!' for s, _ in spreads for c in s.split())}",
    ]
    text = " | ".join([head, *piles])
    return cardcore.new_game(
        "tonk", n, position=text, seed=1, rules=rules, without=(NATURAL,), options={}
    )


def legal(game: Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def last_hand(game: Game) -> dict[str, Any]:
    return [e for e in game.history(None) if e["kind"] == "hand"][-1]


# -- TONK-STOCK-1 [S~/D]: the hand ends before anybody may play out ------------------------------


@pytest.mark.xfail(
    strict=True,
    reason="TONK-STOCK-1 ends the hand the moment a turn starts with an empty stock "
    "(logic.py apply/Discard, ends_on_empty): no player may first play out cards that "
    "hit spreads, against the seed's 'players have played all the cards they can'",
)
def test_tonk_stock_1_players_may_play_out_their_hits_once_the_stock_dries_up() -> None:
    """Seed: "play on until the stock runs out ("dries up") and the players have played all
    the cards they can from their hands."

    Two seats, seat 1 deals; 41 stock cards. Both pass (draw, discard the drawn card) for
    40 turns; on turn 41 seat 0 draws the last card 9C, lays 5H 6H 7H and discards 9C
    (seat 0 holds KS 2C = 12). Seat 1 holds 8H AD 2D AC 3S = 15, and 8H hits the new run.
    The seed lets seat 1 play 8H before the hand is settled (then 7 < 12: seat 1 collects).
    The engine ends the hand at once, counts 8H and pays seat 0: (+1, -1).
    """
    p0, p1 = "5H 6H 7H KS 2C", "8H AD 2D AC 3S"
    held = set(f"{p0} {p1} QC 9C".split())
    filler = [c for c in ALL if c not in held]
    assert len(filler) == 40
    game = stacked([p0, p1], "QC", [*filler, "9C"])
    for k in range(40):
        seat = k % 2
        game.act(seat, "draw")
        game.act(seat, f"discard {filler[k]}")
    assert game.view(0)["table"]["stock"] == 1
    game.act(0, "draw")
    game.act(0, "spread 5H 6H 7H")
    game.act(0, "discard 9C")
    # Either seat 1 may still play 8H, or the settlement no longer charges it for 8H.
    if game.is_over:
        assert last_hand(game)["totals"] == [12, 7]
        assert game.result.payouts == (-1, 1)
    else:
        assert "hit 1 8H" in legal(game, 1)


# -- TONK-TURN-4 [D] (with TONK-TURN-5) under TONK-VAR-5: a last card that hits is stuck ---------


@pytest.mark.xfail(
    strict=True,
    reason="TONK-TURN-4 (actions.py _play_actions/why_illegal, via TONK-TURN-5): under "
    "tonk.stock-out-discard-only a one-card hand that hits can never be played out: the "
    "only draw is the discard, which may not be thrown back, so 'hit' is refused",
)
def test_tonk_turn_4_a_one_card_hand_may_go_out_from_the_discards() -> None:
    """Seed: "You can carry on playing by drawing or picking up the top card of the stock or
    of the discard pile ... Your turn ends when you have discarded a card"; "If you have no
    cards left after discarding, you win." The seed never forbids throwing back the card
    taken.

    Stock out, house rule tonk.stock-out-discard-only. Seat 0 holds only 8H; seat 1's run
    5H 6H 7H is on the table; the top discard is KC. Seed: take KC, hit 8H, discard KC: out
    by discarding, (+1, -1). The engine refuses the hit (TONK-TURN-5, because KC may not be
    discarded, TONK-TURN-4); 'draw' would end the hand with 8H counted, so seat 0 can never
    play 8H while this lasts. (With stock left, 'draw' reaches the same payout, so the base
    game loses nothing.)
    """
    game = position(
        ["8H", "9S 2D"],
        stock=[],
        top="KC",
        spreads=[("5H 6H 7H", 1)],
        rules=(DISCARD_ONLY,),
    )
    assert legal(game, 0) == ["drop", "draw", "take"]
    game.act(0, "take")
    assert "hit 1 8H" in legal(game, 0)
    game.act(0, "hit 1 8H")
    game.act(0, "discard KC")
    assert game.result.reason == "out"
    assert game.result.payouts == (1, -1)


# -- TONK-DROP-4 [S~/D]: the caught dropper does not pay the lowest hand its basic stake ---------


@pytest.mark.xfail(
    strict=True,
    reason="TONK-DROP-4 (melds.py caught_drop_payout: _lowest_collect over 'others' only) "
    "exempts the caught dropper from the lowest hand's basic stake; the seed says 'from "
    "each player', and the decision's stated reason (TONK-GAP-5) covers two players only",
)
def test_tonk_drop_4_the_lowest_hand_collects_from_each_player_dropper_included() -> None:
    """Seed: "[If] the player who knocked does not have the lowest total, they pay double the
    stake to every player whose hand is equal or lower. In addition, the player who actually
    holds the lowest hand receives the basic stake from each player."

    Three seats; seat 0 drops at once with 15 against 9 and 30 (as the spec's table row
    "caught": 10, 5, 20). Seed: seat 0 pays 2 to seat 1; seat 1 receives 1 from seat 0 and 1
    from seat 2: (-3, +4, -1). The engine excludes the dropper from the basic stake:
    (-2, +3, -1).
    rules-decisions TONK-GAP-5 justifies the exclusion only by the two-seat case ("pay
    double" in WP/PAGAT), yet applies it to every table size.
    """
    game = stacked(["4S 5H 3D 2S AD", "AS AH 2D 2C 3H", "10H 6S 7C 3C 4D"], "QC", [])
    game.act(0, "drop")
    assert last_hand(game)["totals"] == [15, 9, 30]
    assert game.result.payouts == (-3, 4, -1)


# -- TONK-TURN-5 [D]: checked behaviour (passes) --------------------------------------------------


def test_tonk_turn_5_last_card_may_be_hit_when_it_makes_the_end_the_taken_card_hits() -> None:
    """Seat 0 holds only 8H; run 5H 6H 7H (seat 1's) is on the table; seat 0 takes 9H, which
    hits nothing yet. Hitting 8H leaves 9H alone, but 9H then hits the grown run 5H-8H, so
    TONK-TURN-5 allows it and the tonk-out follows (seed: "If you use all the cards in your
    hand during a turn, the game ends and you have won"): (+2, -2)."""
    game = position(["8H", "KS 3C 4C"], stock=["JD"], top="9H", spreads=[("5H 6H 7H", 1)])
    game.act(0, "take")
    assert legal(game, 0) == ["hit 1 8H", "discard 8H"]
    game.act(0, "hit 1 8H")
    game.act(0, "hit 1 9H")
    assert game.result.reason == "tonk-out"
    assert game.result.payouts == (2, -2)
