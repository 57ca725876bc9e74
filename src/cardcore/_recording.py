"""Writing records and saves (the reading side, with validation, is :mod:`cardcore.records`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["RECORD_FORMAT", "SAVE_FORMAT", "make_record", "make_save"]

RECORD_FORMAT = ("cardcore-record", 2)
"""The name and version of the record format (2: positions; version 1 still replays)."""
SAVE_FORMAT = ("cardcore-save", 2)
"""The name and version of the saved-game format (version 1 still loads)."""


def make_record(game: Game) -> dict[str, Any]:
    """Build the record of *game* (called by :meth:`Game.record` under its lock)."""
    defaults = set(game.ruleset.game.default_rules)
    active = set(game.rules)
    times = game._times
    state = game._state
    return {
        "format": RECORD_FORMAT[0],
        "format_version": RECORD_FORMAT[1],
        "game": game.name,
        "game_version": game.ruleset.game.version,
        "rules": [{"name": r.name, "id": r.id, "version": r.version} for r in game.ruleset.rules],
        "without": sorted(defaults - active),
        "options": dict(game.options),
        "players": list(game.players),
        "seed": game.seed,
        "deck": None if game._deck_top is None else [str(c) for c in game._deck_top],
        "position": game._start_position,
        "actions": [[a.seat, str(a), times.get(i)] for i, a in enumerate(game._record)],
        "result": None if state.result is None else state.result.to_json(),
    }


def make_save(game: Game) -> dict[str, Any]:
    """Build a saved game: the record plus the state snapshot and version."""
    return {
        "format": SAVE_FORMAT[0],
        "format_version": SAVE_FORMAT[1],
        "record": make_record(game),
        "version": game.version,
        "state": game._state.snapshot(),
    }
