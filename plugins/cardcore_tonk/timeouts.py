"""What a seat does when its time runs out: the game's ``default_action`` on a timeout.

A host with turn timers (:mod:`cardcore.session`) asks for one action at a
time while the seat stays to act, so a timed-out turn is finished in safe
steps that use nothing the seat does not know:

* start of a turn: ``draw`` from the stock (``take`` the discard only when
  the stock is empty); never ``drop``;
* during the turn: ``discard`` the card worth the most points (the first
  such card in the order of the legal actions); no spread, no hit, unless no
  discard is legal (the hand holds only the taken discard, TONK-TURN-5, or a
  house rule leaves only spreads): then the first spread or hit offered;
* between hands: ``deal``.

The actions a house rule vetoes are left out first (:func:`timeout_for`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cardcore import Card
from cardcore_tonk.actions import Deal, Discard, Draw, Hit, Spread, Take, TonkAction

if TYPE_CHECKING:
    from cardcore_tonk.logic import TonkLogic
    from cardcore_tonk.state import TonkState

__all__ = ["timeout_action", "timeout_for"]


def timeout_action(
    legal: Sequence[TonkAction], points: Callable[[Sequence[Card]], int]
) -> TonkAction | None:
    """Return the action a timed-out seat plays among *legal*, or ``None``.

    :param legal: The seat's legal actions.
    :param points: The configuration's card values (``TonkLogic.hand_total``).

    >>> from cardcore_tonk.actions import Drop
    >>> timeout_action([Drop(0), Draw(0), Take(0)], len)
    Draw(seat=0)
    """
    for kind in (Draw, Take, Deal):
        for action in legal:
            if type(action) is kind:
                return action
    best: Discard | None = None
    worth = -1
    for action in legal:
        if type(action) is Discard:
            value = points((action.card,))
            if value > worth:
                best, worth = action, value
    if best is None:  # no discard: only the taken card is left (TONK-TURN-5), or a house
        return next((a for a in legal if type(a) is Spread or type(a) is Hit), None)  # rule
    return best


def timeout_for(logic: TonkLogic, state: TonkState, seat: int) -> TonkAction | None:
    """:func:`timeout_action` among *seat*'s legal actions less those a house rule vetoes
    (``forbid_action``): the highest card the rules let it discard."""
    legal = logic.legal_actions(state, seat)
    veto = logic.ruleset.veto
    if veto is not None:
        legal = tuple([a for a in legal if not veto(state=state, action=a)])
    return timeout_action(legal, logic.hand_total)
