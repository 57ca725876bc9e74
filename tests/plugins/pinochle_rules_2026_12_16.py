"""House rule for ``pinochle-2026-12-16``: a higher minimum bid (PINOCHLE-MINBID-1).

Bids below ``min_bid`` (default 300, 250..500) are vetoed. A veto only: bids up to 600
stay legal, so the seat stuck with the bid always has one.
"""

from __future__ import annotations

from cardcore import Action, GameState, Option, RuleInfo, Veto, hookimpl

NAME = "pinochle-2026-12-16.minimum-bid"

RULE = RuleInfo(
    id="PINOCHLE-MINBID-1",
    name=NAME,
    game="pinochle-2026-12-16",
    summary="No bid below min_bid",
    options=(Option("min_bid", 300, "The lowest bid allowed.", minimum=250, maximum=500),),
)


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Veto ``bid N`` below the minimum."""
    amount = getattr(action, "amount", None)
    if action.verb == "bid" and isinstance(amount, int) and amount < state.options["min_bid"]:
        return Veto("PINOCHLE-MINBID-1", f"bids start at {state.options['min_bid']}")
    return None
