"""DRAW-VAR-2: hearts may not be discarded (a veto only: the core applies it)."""

from __future__ import annotations

from cardcore import Action, GameState, RuleInfo, Veto, hookimpl

RULE = RuleInfo(
    "DRAW-VAR-2",
    "drawgame.no-hearts",
    "drawgame",
    "hearts may not be discarded",
    conflicts=("DRAW-VAR-3",),
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    card = getattr(action, "card", None)
    if card is not None and card.suit is not None and card.suit.letter == "H":
        return Veto(RULE.id, f"hearts may not be discarded: {str(card)!r}")
    return None
