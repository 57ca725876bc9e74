"""House rule for ``euchre-2026-12-15``: Canadian loner (EUCHRE-CANADIAN-1).

The dealer's partner may not go alone when ordering up in round 1 (the dealer would gain the
upcard for a hand the dealer sits out). A veto only: ``order up`` stays legal, so the seat is
never left without an action.
"""

from __future__ import annotations

from cardcore import Action, GameState, RuleInfo, Veto, hookimpl

NAME = "euchre-2026-12-15.canadian-loner"

RULE = RuleInfo(
    id="EUCHRE-CANADIAN-1",
    name=NAME,
    game="euchre-2026-12-15",
    summary="The dealer's partner may not order up alone",
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Veto ``order up alone`` from the dealer's partner."""
    dealer = getattr(state, "dealer", None)
    alone = action.verb == "order" and getattr(action, "alone", False)
    if alone and dealer is not None and action.seat == (dealer + 2) % 4:
        return Veto("EUCHRE-CANADIAN-1", "the dealer's partner may not order up alone")
    return None
