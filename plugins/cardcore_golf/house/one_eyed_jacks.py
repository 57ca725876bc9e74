"""GOLF-SCORE-9: the one-eyed jacks (JH, JS) are bonus cards worth -2."""

from __future__ import annotations

from cardcore import Card, RuleInfo, hookimpl

__all__ = ["ONE_EYED", "RULE", "card_points"]

RULE = RuleInfo(
    id="GOLF-SCORE-9",
    name="golf.one-eyed-jacks",
    game="golf",
    summary="Bonus cards: the one-eyed jacks JH and JS score -2",
    conflicts=("golf.jokers", "golf.bonus-twos", "golf.bonus-card"),
)

#: The one-eyed jacks.
ONE_EYED = frozenset({Card.parse("JH"), Card.parse("JS")})


@hookimpl
def card_points(card: Card) -> int | None:
    """JH and JS score -2; they still pair with other jacks by rank (GOLF-SCORE-6)."""
    return -2 if card in ONE_EYED else None
