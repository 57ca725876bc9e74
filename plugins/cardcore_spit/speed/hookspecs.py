"""Speed's own hookspecs, through which its house rules work.

The game answers each ``trylast`` in :mod:`cardcore_spit.speed.rules`. Each hook is
resolved and called once when a configuration is built and the answer is kept,
so house rules cost nothing per decision.
"""

from __future__ import annotations

from cardcore import hookspec

__all__ = ["speed_stuck_detection"]


@hookspec(firstresult=True)
def speed_stuck_detection() -> bool | None:
    """Return whether the game itself sees that neither player can play (SPEED-STUCK-1).

    Stops at the first non-``None`` result; the game answers ``True`` ``trylast``:
    when no card in either hand fits either play pile, the side cards turn at
    once, without waiting for both players to declare ``stuck``. ``False`` (a house
    rule's answer) leaves only the declarations, so nothing tells a player whether
    the other holds a playable card.

    :returns: ``True`` or ``False``.

    .. versionadded:: 0.3
    """
    raise NotImplementedError
