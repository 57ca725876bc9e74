"""SLAP-HOUSE-1 (house rule ``slapjack-2026-12-13.doubles``): slap on doubles.

A slap also wins the pile when the top card has the rank of the card ``doubles_gap``
places below it (1: doubles, two alike in a row; 2: sandwiches, ``7 K 7``). Jokers never
pair. Every card of the pile it compares is face up (the game's wrong-slap cards go face
up under the pile), so the rule reads only public cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import Card, GameState, Option, RuleInfo, hookimpl

NAME = "slapjack-2026-12-13.doubles"

RULE = RuleInfo(
    id="SLAP-HOUSE-1",
    name=NAME,
    game="slapjack-2026-12-13",
    summary="A slap also wins on two cards of a rank doubles_gap apart",
    version="1.0.0",
    options=(
        Option(
            "doubles_gap",
            default=1,
            minimum=1,
            maximum=2,
            doc="How far below the top the matching card lies: 1 doubles, 2 sandwiches",
        ),
    ),
)


@hookimpl
def slapjack_slap_wins(state: GameState, pile: Sequence[Card]) -> bool | None:
    """``True`` for a pair ``doubles_gap`` apart; ``None`` leaves it to the game."""
    gap = state.options["doubles_gap"]
    if len(pile) <= gap:
        return None
    top, below = pile[-1], pile[-1 - gap]
    if not top.is_joker and not below.is_joker and top.rank is below.rank:
        return True
    return None
