"""What a seat does when it stays idle too long: Speed's ``default_action``.

Speed has no turns, so a host's timer (:mod:`cardcore.session`) measures each
seat's idle time while it may act. On a timeout the seat declares itself
``stuck`` (so the side cards can turn when both are); once it has, nothing.
It never plays a card for the seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcore_spit.speed.actions import SpeedAction, Stuck

__all__ = ["timeout_action"]


def timeout_action(legal: Sequence[SpeedAction]) -> SpeedAction | None:
    """Return the action an idle seat plays among *legal* (its legal actions), or ``None``.

    >>> timeout_action([Stuck(0)])
    Stuck(seat=0)
    """
    for action in legal:
        if type(action) is Stuck:
            return action
    return None
