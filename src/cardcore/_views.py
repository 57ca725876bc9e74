"""Views and view schemas of a game (see :meth:`cardcore.Game.view`); nothing here is public."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardcore._driver import failed
from cardcore.state import GameState
from cardcore.zones import Layout, Visibility

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["VIEW_FORMAT", "make_history", "make_view", "schema_of", "zones_view"]

_VIS = {v: v.value for v in Visibility}
_HEADS: dict[int, tuple[Layout, tuple[tuple[int, dict[str, Any]], ...]]] = {}
"""Each layout's piles as (index, {name, owner, visibility}), by the layout's id, for zones_view."""


VIEW_FORMAT = "cardcore-view/2"
"""The envelope format every :meth:`Game.view` carries under ``"format"``."""


def make_history(game: Game, seat: int | None, since: int) -> list[dict[str, Any]]:
    """The past rounds of *game* from *since* as *seat* sees them (checked; under its lock)."""
    try:
        return game.logic.history(game._state, seat, since)
    except BaseException as exc:  # put back what the failing code changed
        error = failed(game, exc, "history")
        if error is exc:
            raise
        raise error from exc


def make_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The view of *seat* (checked) of *game*, under its lock (see :meth:`Game.view`)."""
    state = game._state
    legal = [] if seat is None else [str(a) for a in game._legal_for(seat)]
    try:
        table = game.logic.table(state, seat)
    except BaseException as exc:  # put back what the failing code changed
        error = failed(game, exc, "table")
        if error is exc:
            raise
        raise error from exc
    return {
        "format": VIEW_FORMAT,
        "game": game.name,
        "version": game.version,
        "seat": seat,
        "players": list(game.players),
        "to_act": list(state.to_act),
        "is_over": state.is_over,
        "result": None if state.result is None else state.result.to_json(),
        "rules": list(game.rules),
        "options": dict(game.options),
        "legal": legal,
        "zones": zones_view(state, seat),
        "table": table,
    }


def zones_view(state: GameState, seat: int | None) -> list[dict[str, Any]]:
    """Every pile as *seat* may see it: name, owner, visibility, count and cards (``None`` hidden)."""
    zones = state.zones
    layout = zones.layout
    known = _HEADS.get(id(layout))
    if known is not None and known[0] is layout:
        heads = known[1]
    else:
        heads = tuple(
            (z, {"name": s.name, "owner": s.owner, "visibility": _VIS[s.visibility]})
            for z, s in enumerate(layout.specs)
        )
        if len(_HEADS) >= 256:
            _HEADS.clear()
        _HEADS[id(layout)] = (layout, heads)
    show = zones.show
    out = []
    for z, head in heads:
        pile = head.copy()
        pile["count"] = len(cards := show(z, seat))
        pile["cards"] = cards
        out.append(pile)
    return out


def schema_of(game: Game) -> dict[str, Any]:
    """The declared structure of *game*'s views (see :meth:`Game.view_schema`)."""
    zones = game._state.zones.layout.specs
    return {
        "game": game.name,
        "zones": [
            {"name": z.name, "owner": z.owner, "visibility": z.visibility.value} for z in zones
        ],
        "fields": [f.to_json() for f in game.ruleset.game.fields],
    }
