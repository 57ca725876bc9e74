"""House rule for ``spades-2026-12-16``: blind nil only when behind (SPADES-HOUSE-BLIND-1).

A seat may declare blind nil only while its team trails the other team by at least
``blind_nil_deficit`` points (default 100, 0..1000). A veto only: ``look`` stays legal, so the
seat is never left without an action.
"""

from __future__ import annotations

from cardcore import Action, GameState, Option, RuleInfo, Veto, hookimpl

NAME = "spades-2026-12-16.blind-nil-when-behind"

RULE = RuleInfo(
    id="SPADES-HOUSE-BLIND-1",
    name=NAME,
    game="spades-2026-12-16",
    summary="Blind nil only for a team trailing by blind_nil_deficit points",
    options=(
        Option(
            "blind_nil_deficit",
            default=100,
            minimum=0,
            maximum=1000,
            doc="How far a team must trail to bid blind nil",
        ),
    ),
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Veto ``blind`` unless the seat's team trails by the option's points."""
    if action.verb != "blind":
        return None
    score = getattr(state, "score", None)
    if score is None:
        return None
    seat = action.seat
    behind = score[(seat + 1) % 4] - score[seat]
    need = state.options["blind_nil_deficit"]
    if behind >= need:
        return None
    return Veto(
        "SPADES-HOUSE-BLIND-1",
        f"blind nil needs the team to trail by {need} points, not {behind}",
    )
