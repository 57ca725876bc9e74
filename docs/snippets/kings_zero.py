"""A house rule for the test game ``drawgame``: kings score 0 (override a card's points)."""

from __future__ import annotations

from cardcore import Card, RuleInfo, hookimpl

RULE = RuleInfo(
    id="DOCS-VAR-1", name="drawgame.kings-zero", game="drawgame", summary="Kings score 0"
)


@hookimpl
def card_points(card: Card) -> int | None:
    """Kings are worth nothing; every other card is left to the game (``None``)."""
    return 0 if card.label == "K" else None
