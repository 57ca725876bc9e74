"""What a seat does when its time runs out: the game's ``default_action`` on a timeout.

A host with turn timers (:mod:`cardcore.session`) asks for one action at a
time while the seat stays to act, so a timed-out turn is finished in safe
steps that use nothing the seat does not know:

* start of a turn: ``draw`` from the stock (``take`` the discard only when
  the stock is empty); never ``drop``;
* during the turn: ``discard`` the card worth the most points (the first
  such card in the order of the legal actions); no spread, no hit;
* between hands: ``deal``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardcore import Card
from cardcore_tonk.actions import Deal, Discard, Draw, Take, TonkAction

__all__ = ["timeout_action"]


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
    return best
