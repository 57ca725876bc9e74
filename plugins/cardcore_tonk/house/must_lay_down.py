"""TONK-VAR-2: spreads may not be kept in hand, except a book of exactly three aces.

Checked at each discard (TONK-GAP-12): a discard that would leave any book or
run in hand, other than a book of exactly three aces, is vetoed. Drops are not
restricted, and a spread dealt before the first turn simply counts in the total
if the player drops.
"""

from __future__ import annotations

from cardcore import RuleInfo, Veto, hookimpl
from cardcore_tonk.actions import Discard, TonkAction
from cardcore_tonk.melds import CARDS, index_of, spreads_of
from cardcore_tonk.state import HAND0, TonkState

__all__ = ["RULE", "forbid_action", "held_spread"]

RULE = RuleInfo(
    id="TONK-VAR-2",
    name="tonk.must-lay-down",
    game="tonk",
    summary="Spreads must be laid down (three aces may be held)",
    conflicts=(),
)

_THREE_ACES = 3  # a book of three aces is cards 0..3 (the aces), three of them


def held_spread(hand: list[int]) -> tuple[int, ...] | None:
    """Return a spread in *hand* (sorted card indices) that may not be held, or ``None``.

    :param hand: Card indices, sorted ascending.
    :returns: The first offending spread, or ``None``.
    """
    for sp in spreads_of(hand):
        if len(sp) == _THREE_ACES and sp[-1] < 4:  # three aces: indices 0..3
            continue
        return sp
    return None


@hookimpl
def forbid_action(state: TonkState, action: TonkAction) -> Veto | None:
    """TONK-VAR-2: veto a discard that leaves a spread in hand."""
    if type(action) is not Discard:
        return None
    card = action.card
    x = index_of(card)
    hand = sorted(index_of(c) for c in state.zones.cards[HAND0 + action.seat])
    if x not in hand:  # not held: some other rule forbids it
        return None
    hand.remove(x)
    sp = held_spread(hand)
    if sp is None:
        return None
    cards = " ".join(str(CARDS[i]) for i in sp)
    return Veto("TONK-VAR-2", f"discarding {str(card)!r} would keep the spread {cards} in hand")
