"""The state: a stock, one face-down hand per seat, who has stood."""

from __future__ import annotations

from functools import cache

from cardcore import Card, GameState, Layout, Visibility, ZoneSpec

STOCK = 0


def hand(seat: int) -> int:
    """The zone id of *seat*'s hand."""
    return 1 + seat


@cache
def layout(players: int) -> Layout:
    """``stock`` then ``hand.0`` ...; each hand seen by its owner only."""
    return Layout.of(
        [ZoneSpec("stock"), *(ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players))]
    )


def points(cards: list[Card]) -> int:
    """A hand's total: ace 1, 2-10 face value, J Q K 11 12 13."""
    return sum(card.rank for card in cards)


class HighState(GameState):
    """The cards, and per seat whether it stood (HC-TURN-2)."""

    __slots__ = ("stood",)
    _mutable = ("zones", "stood")
    stood: list[bool]
