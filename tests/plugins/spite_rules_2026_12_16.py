"""House rule for ``spite-2026-12-16``: jokers wild too (SPITE-JOKERS-1).

``spite_jokers`` jokers (option, default 4, 1..8) join the two decks, and a joker is wild as a
king is: it may stand for any rank, the next rank the build pile needs (through the game's own
hook ``spite_wild_labels``).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from cardcore import JOKER, Card, Option, RuleInfo, hookimpl

NAME = "spite-2026-12-16.jokers-wild"

RULE = RuleInfo(
    id="SPITE-JOKERS-1",
    name=NAME,
    game="spite-2026-12-16",
    summary="Jokers join the decks and are wild, as kings are",
    version="1.0.0",
    options=(Option("spite_jokers", 4, "How many jokers join the decks.", minimum=1, maximum=8),),
)


@hookimpl(wrapper=True)
def build_deck(
    players: int, options: Mapping[str, Any]
) -> Generator[None, tuple[Card, ...], tuple[Card, ...]]:
    """Add the jokers to the game's two decks."""
    deck = yield
    return (*deck, *([JOKER] * int(options["spite_jokers"])))


@hookimpl
def spite_wild_labels(options: Mapping[str, Any]) -> tuple[str, ...]:
    """Kings and jokers are wild."""
    return ("K", "JK")
