"""The record of applied actions, kept in sealed chunks so a clone shares them.

A game appends to a short open list (``Game._record``, with its times in
``Game._times``); every :data:`CHUNK` actions the list is sealed into a tuple
that the game and all its clones share. A clone copies only the open list and
the list of chunk references, so ``clone()`` and the first ``apply`` after it
cost the same at action 100 as at action 20,000.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardcore.actions import Action
    from cardcore.game import Game

CHUNK = 128
"""Actions per sealed chunk."""


def seal(game: Game) -> None:
    """Seal the open list of *game*'s record into a shared chunk (it holds :data:`CHUNK`)."""
    game._chunks.append(tuple(game._record))
    game._time_chunks.append(game._times)
    game._record = []
    game._times = {}


def actions(game: Game, start: int = 0, stop: int | None = None) -> list[Action]:
    """Return the recorded actions from index *start* up to *stop* (all by default)."""
    first = start // CHUNK
    out: list[Action] = []
    for chunk in game._chunks[first:]:
        out += chunk
    out += game._record
    offset = first * CHUNK
    return out[start - offset : None if stop is None else stop - offset]


def times(game: Game) -> dict[int, float]:
    """Return the recorded times by action index (actions with no time are absent)."""
    merged: dict[int, float] = {}
    for part in game._time_chunks:
        merged.update(part)
    merged.update(game._times)
    return merged
