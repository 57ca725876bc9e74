"""Helpers for the Golf tests: stacked decks in deal order and quick accessors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cardcore
from cardcore import Game
from cardcore_golf.logic import GolfLogic
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


def logic(game: Game) -> GolfLogic:
    """The Golf logic of *game*."""
    found = game.logic
    assert isinstance(found, GolfLogic)
    return found


def round_scores(game: Game, ender: int = -1) -> list[int]:
    """Score *game*'s layouts as a round ending now with *ender* (reads the state only)."""
    return logic(game).round_scores(state(game), ender)


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
