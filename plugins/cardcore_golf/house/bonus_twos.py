"""GOLF-SCORE-8: without jokers, every 2 is a bonus card worth -2."""

from __future__ import annotations

from cardcore import Card, Rank, RuleInfo, hookimpl

__all__ = ["RULE", "card_points"]

RULE = RuleInfo(
    id="GOLF-SCORE-8",
    name="golf.bonus-twos",
    game="golf",
    summary="Bonus cards: every 2 scores -2 (a pair of 2s cancels to 0)",
    conflicts=("golf.jokers", "golf.one-eyed-jacks", "golf.bonus-card"),
)


@hookimpl
def card_points(card: Card) -> int | None:
    """A 2 scores -2; other cards are left to the table."""
    return -2 if card.rank is Rank.TWO else None
