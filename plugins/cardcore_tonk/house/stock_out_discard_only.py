"""TONK-VAR-5: when the stock is out, play on drawing only from the discard pile.

A turn that begins with an empty stock does not end the hand: the player may
drop, take the top discard, or ask for the stock (``draw``), which ends it as at
stock exhaustion (TONK-GAP-3: "until someone wants the stock"). So that two players cannot trade the same two
discards forever (TONK-GAP-3), the hand ends as at stock exhaustion
(TONK-STOCK-2) when such a turn begins after a full round of turns played from
the discards, one per player, in which nobody laid a spread or hit, or when the
discard pile is empty (``state.quiet_turns`` counts those turns).
"""

from __future__ import annotations

from collections.abc import Callable

from cardcore import RuleInfo, hookimpl
from cardcore_tonk.state import DISCARD, TonkState

__all__ = ["RULE", "ends_hand", "tonk_hand_ends_on_empty_stock"]

RULE = RuleInfo(
    id="TONK-VAR-5",
    name="tonk.stock-out-discard-only",
    game="tonk",
    summary="With the stock out, players draw only discards until a quiet round",
    conflicts=(),
)


def ends_hand(state: TonkState) -> bool:
    """Return whether a turn that begins with an empty stock ends the hand.

    :param state: The table at the start of the turn.
    :returns: ``True`` after a full quiet round or with nothing to take.
    """
    return state.quiet_turns >= state.players or not state.zones.cards[DISCARD]


@hookimpl
def tonk_hand_ends_on_empty_stock() -> Callable[[TonkState], bool]:
    """TONK-VAR-5: keep playing from the discards until a quiet round."""
    return ends_hand
