"""The game's own hook for its house rules."""

from __future__ import annotations

from cardcore import hookspec


@hookspec(firstresult=True)
def highcard_bonus(players: int) -> int | None:
    """Return points taken off every seat's distance from 21.

    The first answer that is not ``None`` wins.

    :param players: The number of seats.
    :returns: The bonus, or ``None`` to leave it alone.
    """
