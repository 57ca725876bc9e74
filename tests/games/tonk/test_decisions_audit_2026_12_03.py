"""Tonk's engine decisions audited against the seed (2026-12-03).

Authority: ``shared/seeds/tonk.en.md`` (the seed). Every ``[D]``, ``[S~/D]`` and
*(new)* rule of ``seeds/tonk.md`` was tried against a concrete table; a strict
xfail marks a decision that forbids what the seed allows or pays otherwise, and
its docstring quotes the seed sentence it contradicts. Payouts are net per seat
(stake S = 1), listed by seat.

Three candidate disagreements were dropped because ``shared/rules-decisions.md`` (the user's
decisions) settles them as the engine plays: the hand ends when a turn starts with an empty
stock, with no playing out (TONK-STOCK-1, TONK-GAP-3); the taken discard is never discarded the
same turn, even as the last card under ``tonk.stock-out-discard-only`` (TONK-TURN-4); a caught
dropper does not pay the lowest hand's stake (TONK-DROP-4, TONK-GAP-5).
"""

from __future__ import annotations

import json
from typing import Any

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


# -- TONK-TURN-4 [D] (with TONK-TURN-5) under TONK-VAR-5: a last card that hits is stuck ---------


# -- TONK-DROP-4 [S~/D]: the caught dropper does not pay the lowest hand its basic stake ---------


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
