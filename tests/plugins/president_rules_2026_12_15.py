"""House rule for ``president-2026-12-15``: Revolution (PRESREV-1).

Playing four of a kind reverses the rank order (2 lowest, 3 highest) until the next four of a
kind. It answers the game's own hook ``president_revolution``; no ``if`` in the game. The
reversed order lasts across rounds (the exchange's "best cards" follow it too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore import Card, RuleInfo, hookimpl

NAME = "president-2026-12-15.revolution"

RULE = RuleInfo(
    id="PRESREV-1",
    name=NAME,
    game="president-2026-12-15",
    summary="Four of a kind reverses the rank order until the next four of a kind",
)


@hookimpl
def president_revolution(cards: Sequence[Card], options: Mapping[str, Any]) -> bool:
    """A play of four cards (necessarily of one rank) is a revolution."""
    return len(cards) == 4
