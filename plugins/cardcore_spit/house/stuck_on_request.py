"""SPEED-STUCK-4 (house rule ``speed.stuck-on-request``): side cards turn only on request.

The base game turns the side cards as soon as neither player can play
(SPEED-STUCK-1). That tells each player that the other holds no playable card.
Under this rule only both players' ``stuck`` declarations turn them, so neither
``to_act``, the legal actions nor any event reveals anything about a hidden hand.
"""

from __future__ import annotations

from cardcore import RuleInfo, hookimpl

__all__ = ["RULE", "speed_stuck_detection"]

RULE = RuleInfo(
    id="SPEED-STUCK-4",
    name="speed.stuck-on-request",
    game="speed",
    summary="Side cards turn only when both players declare stuck: no automatic detection",
    default_before="0.3.0",  # Speed's own behaviour until 0.3.0: its records replay with it
)
"""The rule's description."""


@hookimpl
def speed_stuck_detection() -> bool:
    """No automatic detection: only both declarations count (SPEED-STUCK-4)."""
    return False
