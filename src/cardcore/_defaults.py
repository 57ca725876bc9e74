"""The core's own default answers, registered first and marked ``trylast``."""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from typing import Any

from cardcore._markers import hookimpl
from cardcore.cards import Card
from cardcore.deck import shuffle, standard_52
from cardcore.state import GameState


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """One standard 52-card deck."""
    return standard_52()


_TEXT = operator.attrgetter("text")  # any order of the cards' own will do: their notation


@hookimpl(trylast=True)
def determinize(state: GameState, seat: int, rng: random.Random) -> bool:
    """Shuffle every card *seat* does not know among the places those cards occupy."""
    zones = state.zones
    slots = [
        (z, i)
        for z in range(len(zones.cards))
        for i in range(len(zones.cards[z]))
        if not zones.knows(z, i, seat)
    ]
    # in an order of their own first: shuffled where they lie, the caller's generator
    # would undo the shuffle and find every hidden card's true place
    cards = sorted((zones.cards[z][i] for z, i in slots), key=_TEXT)
    shuffle(cards, rng)
    for (z, i), card in zip(slots, cards, strict=True):
        zones.cards[z][i] = card
    return True
