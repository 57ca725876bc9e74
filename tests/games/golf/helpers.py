"""Helpers for the Golf tests: stacked decks in deal order and quick accessors."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import cardcore
from cardcore import Card, Game
from cardcore_golf.state import GolfState


def stack(grids: Sequence[str], upcard: str, stock: str = "") -> str:
    """Return a deck (top first) dealing *grids* (row-major, one per seat, seat 0 first).

    Assumes the default dealer (the last seat), so seat 0 receives the first card
    (GOLF-DEAL-1): card ``k`` goes to seat ``k % N``, position ``k // N``.
    """
    rows = [g.split() for g in grids]
    size = len(rows[0])
    out = [rows[seat][pos] for pos in range(size) for seat in range(len(rows))]
    return " ".join([*out, upcard, *stock.split()])


def golf(players: int = 2, deck: str | None = None, **kwargs: Any) -> Game:
    """Start a Golf game (seed 1 unless given)."""
    kwargs.setdefault("seed", 1)
    return cardcore.new_game("golf", players, deck=deck, **kwargs)


def state(game: Game) -> GolfState:
    """The privileged Golf state of *game*."""
    st = game.state
    assert isinstance(st, GolfState)
    return st


def grid(game: Game, seat: int) -> list[str | None]:
    """*seat*'s cards by position (privileged; ``None`` = empty position)."""
    st = state(game)
    return [
        None if c is None else str(c)
        for c in (st.card_at(seat, p) for p in range(st.plan.layout.size))
    ]


def play(game: Game, *moves: tuple[int, str]) -> None:
    """Act each ``(seat, text)`` in order."""
    for seat, text in moves:
        game.act(seat, text)


def setup_flips(game: Game, flips: Sequence[Sequence[int]]) -> None:
    """Seat by seat from seat 0, flip the given positions."""
    for seat, positions in enumerate(flips):
        for pos in positions:
            game.act(seat, f"flip {pos}")


def all_cards(game: Game) -> Counter[Card]:
    """Every card on the table, counted."""
    return Counter(game.state.zones.all_cards())


def view_cards(view: Any) -> list[str]:
    """Every card text anywhere in a view's table (for leak checks)."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            try:
                Card.parse(value)
            except cardcore.NotationError:
                return
            found.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v)

    walk(view["table"])
    return found
