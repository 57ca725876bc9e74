"""NERTZ-HOUSE-1 (house rule ``nertz-2026-12-15.bonus``): a bonus for calling nertz.

The seat that emptied its nertz pile (the game's ``caller`` slot) scores ``nertz_bonus``
more points for the hand. A hand that ended stuck or at the idle limit has no caller and
no bonus.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import GameState, Option, RuleInfo, hookimpl

NAME = "nertz-2026-12-15.bonus"

RULE = RuleInfo(
    id="NERTZ-HOUSE-1",
    name=NAME,
    game="nertz-2026-12-15",
    summary="The seat that calls nertz scores a bonus",
    version="1.0.0",
    options=(
        Option(
            "nertz_bonus",
            default=10,
            minimum=0,
            maximum=50,
            doc="Points the seat that calls nertz adds to its hand score",
        ),
    ),
)


@hookimpl
def score_round(state: GameState, scores: Sequence[int]) -> list[int] | None:
    """Add ``nertz_bonus`` to the caller's score; ``None`` when nobody called."""
    caller = getattr(state, "caller", -1)
    if caller < 0:
        return None
    out = list(scores)
    out[caller] += int(state.options["nertz_bonus"])
    return out
