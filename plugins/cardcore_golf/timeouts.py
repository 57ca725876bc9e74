"""What a seat does when its time runs out: the game's ``default_action`` on a timeout.

A host with turn timers (:mod:`cardcore.session`) asks for one action at a
time while the seat stays to act, so a timed-out turn is finished in safe
steps that use nothing the seat does not know:

* setup: the first ``flip`` (or ``peek``) offered, position by position;
* start of a turn: ``draw`` from the stock (never ``take``, never ``knock``);
* holding a drawn card: ``discard`` it;
* holding a card taken from the discard pile (the seat took it, then ran out
  of time): ``replace`` the first position offered.

The actions a house rule vetoes are left out first (:func:`timeout_for`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardcore_golf.actions import Discard, Draw, Flip, GolfAction, Peek, Replace

if TYPE_CHECKING:
    from cardcore_golf.logic import GolfLogic
    from cardcore_golf.state import GolfState

__all__ = ["PREFERENCE", "timeout_action", "timeout_for"]

PREFERENCE: tuple[type[GolfAction], ...] = (Flip, Peek, Draw, Discard, Replace)
"""The kinds of action a timeout plays, most preferred first."""


def timeout_action(legal: Sequence[GolfAction]) -> GolfAction | None:
    """Return the action a timed-out seat plays among *legal* (its legal actions), or ``None``.

    >>> from cardcore_golf.actions import Draw, Take
    >>> timeout_action([Draw(0), Take(0)])
    Draw(seat=0)
    """
    for kind in PREFERENCE:
        for action in legal:
            if type(action) is kind:
                return action
    return None


def timeout_for(logic: GolfLogic, state: GolfState, seat: int) -> GolfAction | None:
    """:func:`timeout_action` among *seat*'s legal actions less those a house rule vetoes
    (``forbid_action``): a setup flip a house rule forbids is passed over."""
    legal = logic.legal_actions(state, seat)
    veto = logic.ruleset.veto
    if veto is not None:
        legal = tuple([a for a in legal if not veto(state=state, action=a)])
    return timeout_action(legal)
