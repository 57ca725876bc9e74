"""What a seat does when it stays idle too long: Spit's ``default_action``.

Spit has no turns, so a host's timer (:mod:`cardcore.session`) measures each
seat's idle time while it may act, and on a timeout plays one action that
uses nothing the seat does not know and never plays a card for it:

* setup: ``ready``;
* play: ask for a spit (``spit``), as a stuck player does; nothing once asked;
* end of a two-pile deal: claim the smaller spit pile (``slap L`` or ``slap R``;
  the left one when they are equal).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cardcore_spit.actions import Claim, Ready, RequestSpit, SpitAction

if TYPE_CHECKING:
    from cardcore_spit.logic import SpitLogic
    from cardcore_spit.state import SpitState

__all__ = ["spit_default", "timeout_action"]


def timeout_action(legal: Sequence[SpitAction], pile_size: Callable[[int], int]) -> SpitAction | None:
    """Return the action an idle seat plays among *legal*, or ``None``.

    :param legal: The seat's legal actions.
    :param pile_size: The number of cards in centre pile 0 (L) or 1 (R).

    >>> timeout_action([Ready(1)], len)
    Ready(seat=1)
    """
    for action in legal:
        if type(action) is Ready or type(action) is RequestSpit:
            return action
    claims = [a for a in legal if type(a) is Claim]
    if claims:
        return min(claims, key=lambda a: (pile_size(a.target), a.target))
    return None


def spit_default(logic: SpitLogic, state: SpitState, seat: int) -> SpitAction | None:
    """``SpitLogic.default_action``: what an idle seat plays (``timeout_action`` on its legal actions)."""
    cards = state.zones.cards
    centre = logic.centre
    return timeout_action(logic.legal_actions(state, seat), lambda p: len(cards[centre[p]]))
