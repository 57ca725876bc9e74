"""EIGHTS-HOUSE-2: a two makes the next seat draw two cards and lose its turn."""

from __future__ import annotations

from cardcore import Card, Rank, RuleInfo, hookimpl

RULE = RuleInfo(
    id="EIGHTS-HOUSE-2",
    name="eights-1211.draw-two",
    game="eights-1211",
    summary="A two makes the next player draw two",
    version="1.0.0",
)


@hookimpl
def eights_card_penalty(card: Card) -> int | None:
    """Twos cost the next seat two cards; the game answers for the rest."""
    return 2 if card.rank is Rank.TWO else None
