"""A house rule for ``drawgame``: hearts may not be discarded (veto an action)."""

from __future__ import annotations

from cardcore import Action, GameState, RuleInfo, Veto, hookimpl

RULE = RuleInfo(
    id="DOCS-VAR-2", name="drawgame.hearts-stay", game="drawgame", summary="Hearts stay in hand"
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Veto every discard of a heart; allow everything else."""
    card = getattr(action, "card", None)
    if (
        action.verb == "discard"
        and card is not None
        and card.suit is not None
        and card.suit.letter == "H"
    ):
        return Veto(RULE.id, f"hearts may not be discarded: {str(card)!r}")
    return None
