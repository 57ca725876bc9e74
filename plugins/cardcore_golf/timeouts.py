"""What a seat does when its time runs out: the game's ``default_action`` on a timeout.

A host with turn timers (:mod:`cardcore.session`) asks for one action at a
time while the seat stays to act, so a timed-out turn is finished in safe
steps that use nothing the seat does not know:

* setup: the first ``flip`` (or ``peek``) offered, position by position;
* start of a turn: ``draw`` from the stock (never ``take``, never ``knock``);
* holding a drawn card: ``discard`` it;
* holding a card taken from the discard pile (the seat took it, then ran out
  of time): ``replace`` the first position offered.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcore_golf.actions import Discard, Draw, Flip, GolfAction, Peek, Replace

__all__ = ["PREFERENCE", "timeout_action"]

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
