"""The mutable state of one game of Go Fish, and where its piles are."""

from __future__ import annotations

from functools import cache

from cardcore import GameState, Layout, Visibility, ZoneSpec

STOCK = 0
"""The zone id of the stock (face down)."""


def hand(seat: int) -> int:
    """The zone id of *seat*'s hand: its owner sees it, the others only its size."""
    return 1 + seat


def books(seat: int, players: int) -> int:
    """The zone id of *seat*'s books, laid face up four by four."""
    return 1 + players + seat


def book_counts(state: GameState) -> list[int]:
    """How many books each seat has laid down."""
    return [len(state.zones.cards[books(s, state.players)]) // 4 for s in range(state.players)]


@cache
def layout(players: int) -> Layout:
    """The piles: ``stock``, ``hand.0`` ... and ``books.0`` ... (built once per player count)."""
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    laid = [ZoneSpec(f"books.{s}", s, Visibility.EVERYONE) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), *hands, *laid])


class GoFishState(GameState):
    """The cards (in :class:`~cardcore.Zones`), the seat to act, and what the asks made public."""

    __slots__ = ("asked",)
    _mutable = ("zones", "asked")
    asked: list[int]
    """Per seat, bit *i* set while it is known to hold rank ``RANKS[i]`` (GOFISH-KNOW-1)."""
