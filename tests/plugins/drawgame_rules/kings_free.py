"""DRAW-VAR-1: kings score 0 (overrides ``card_points``)."""

from __future__ import annotations

from cardcore import Card, RuleInfo, hookimpl

RULE = RuleInfo("DRAW-VAR-1", "drawgame.kings-free", "drawgame", "kings score 0")


@hookimpl
def card_points(card: Card) -> int | None:
    return 0 if card.label == "K" else None
