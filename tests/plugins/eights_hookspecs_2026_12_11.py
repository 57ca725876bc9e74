"""Crazy Eights' own hooks for its house rules (``GameInfo(hookspecs=...)``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import Card, hookspec


@hookspec(firstresult=True)
def eights_draw_limit(players: int, options: Mapping[str, Any]) -> int | None:
    """Return how many cards a seat that cannot play may draw in one turn.

    Stops at the first non-``None`` result; the game answers 1 (``trylast``).

    :param players: The number of seats.
    :param options: The game's options.
    :returns: The most cards drawn per turn before the seat must pass, or ``None``.

    .. versionadded:: 0.1
    """


@hookspec(firstresult=True)
def eights_card_penalty(card: Card) -> int | None:
    """Return how many cards the next seat must draw when *card* is played.

    Stops at the first non-``None`` result; the game answers 0 (``trylast``).

    :param card: The card just played.
    :returns: The cards the next seat draws (losing its turn), or ``None`` to defer.

    .. versionadded:: 0.1
    """
