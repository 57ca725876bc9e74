"""House rule for Old Maid (2026-12-14): the odd card is of another rank (OLDMAID-VAR-1).

``oldmaid-2026-12-14.odd-rank``: instead of the queen of clubs, the club of the rank named
by the rule's own option ``maid_rank`` (``"A"``, ``"J"`` or ``"K"``; default ``"J"``, the
French *vieux garçon*) is taken out of the deck, so the odd card left at the end is of
that rank and all four queens pair away.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import Card, Option, RuleInfo, decks, hookimpl

NAME = "oldmaid-2026-12-14.odd-rank"

RULE = RuleInfo(
    id="OLDMAID-VAR-1",
    name=NAME,
    game="oldmaid-2026-12-14",
    summary="The club of another rank (maid_rank) is taken out instead of the queen",
    options=(
        Option(
            "maid_rank",
            default="J",
            kind=str,
            choices=("A", "J", "K"),
            doc="The rank whose club is taken out of the deck",
        ),
    ),
)


@hookimpl
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """One deck less the club of ``maid_rank`` (asked before the game's own answer)."""
    removed = Card.parse(f"{options['maid_rank']}C")
    return tuple(c for c in decks(1) if c != removed)
