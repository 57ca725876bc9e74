"""RACE-VAR-1: kings may not be played (a veto only, in a real-time game: the core applies it)."""

from __future__ import annotations

from cardcore import Action, GameState, RuleInfo, Veto, hookimpl

RULE = RuleInfo("RACE-VAR-1", "racegame.no-kings", "racegame", "kings may not be played")


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    card = getattr(action, "card", None)
    if card is not None and card.label == "K":
        return Veto(RULE.id, f"kings may not be played: {str(card)!r}")
    return None
