"""GOLF-SCORE-4 / GOLF-DECK-4: two jokers per deck join the deck and score -2."""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from cardcore import JOKER, Card, RuleInfo, hookimpl
from cardcore_golf.grids import deck_count, layout_for

__all__ = ["RULE", "build_deck", "card_points"]

RULE = RuleInfo(
    id="GOLF-SCORE-4",
    name="golf.jokers",
    game="golf",
    summary="Two jokers per deck, each -2; a joker pair cancels to 0",
    conflicts=("golf.bonus-twos", "golf.one-eyed-jacks", "golf.bonus-card"),
)


@hookimpl(wrapper=True)
def build_deck(
    players: int, options: Mapping[str, Any]
) -> Generator[None, tuple[Card, ...], tuple[Card, ...]]:
    """Add two jokers per 52-card deck in use (GOLF-DECK-4), counting them in the stock
    GOLF-DECK-3 keeps: a deck the jokers make unneeded is left out."""
    deck = yield
    count = len(deck) // 52
    layout = layout_for(options.get("layout", 6))
    if layout is not None and len(deck) == 52 * count:
        fewer = deck_count(layout, players, per_deck=54)
        if fewer < count:  # only past GOLF-DECK-1/2's counts, i.e. a large table
            deck, count = deck[: 52 * fewer], fewer
    return (*deck, *(JOKER,) * (2 * count))


@hookimpl
def card_points(card: Card) -> int | None:
    """A joker scores -2 (GOLF-SCORE-4); other cards are left to the table."""
    return -2 if card.is_joker else None
