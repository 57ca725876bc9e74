"""A house rule for ``drawgame``: two jokers join the deck (add cards)."""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from cardcore import JOKER, Card, RuleInfo, hookimpl

RULE = RuleInfo(
    id="DOCS-VAR-4", name="drawgame.two-jokers", game="drawgame", summary="Two jokers in the deck"
)


@hookimpl(wrapper=True)
def build_deck(
    players: int, options: Mapping[str, Any]
) -> Generator[None, tuple[Card, ...], tuple[Card, ...]]:
    """Take the deck the inner hooks build (``build_deck`` is firstresult) and add two jokers."""
    deck = yield
    return (*deck, JOKER, JOKER)
