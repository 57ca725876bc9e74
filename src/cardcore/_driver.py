"""The driver's private helpers: vetoes, stale judgement, clones and rebuilds.

Kept apart from :mod:`cardcore.game` so the :class:`~cardcore.Game` class stays
readable; nothing here is public.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardcore.actions import Action, EndMatch, Resign
from cardcore.errors import CardcoreError, IllegalActionError
from cardcore.events import EventBus
from cardcore.info import Veto
from cardcore.logic import GameLogic
from cardcore.state import GameState
from cardcore.zones import Visibility

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = [
    "STALE_WINDOW",
    "clone_game",
    "legal_at",
    "rebuild_state",
    "replay_one",
    "vetoing",
    "zones_view",
]

STALE_WINDOW = 64
"""Real time: how many versions back an explicit ``seen`` is judged exactly.

A ``seen`` older than that (or newer than the game) is refused with a clear
error; judging one inside the window costs at most ``2 * STALE_WINDOW`` applies
from a checkpoint, never a replay of the whole game.
"""


def vetoing(
    legal: Callable[[Any, int], tuple[Action, ...]], veto: Callable[..., list[Veto]]
) -> Callable[[Any, int], tuple[Action, ...]]:
    """Wrap a game's ``legal_actions`` so the house rules' vetoes remove actions."""

    def legal_actions(state: Any, seat: int) -> tuple[Action, ...]:
        return tuple(a for a in legal(state, seat) if not veto(state=state, action=a))

    return legal_actions


def replay_one(logic: GameLogic[Any, Any], state: GameState, action: Action) -> None:
    kind = type(action)
    if kind is Resign:
        logic.resign(state, action.seat)
    elif kind is EndMatch:
        logic.end_match(state)
    else:
        logic.apply(state, action, None)


_VIS = {v: v.value for v in Visibility}


def zones_view(state: GameState, seat: int | None) -> list[dict[str, Any]]:
    """Every pile as *seat* may see it: name, owner, visibility, count and cards (``None`` hidden)."""
    zones = state.zones
    out = []
    show = zones.show
    for z, spec in enumerate(zones.layout.specs):
        cards = show(z, seat)
        out.append(
            {
                "name": spec.name,
                "owner": spec.owner,
                "visibility": _VIS[spec.visibility],
                "count": len(cards),
                "cards": cards,
            }
        )
    return out


def legal_at(game: Game, seat: int, seen: int, action: Action) -> tuple[Action, ...]:
    """The legal actions of *seat* at version *seen* (real time, inside the window)."""
    if seen > game.version or seen < game.version - STALE_WINDOW or seen < 0:
        msg = (
            f"seen={seen} is outside the window of versions judged for staleness"
            f" ({max(0, game.version - STALE_WINDOW)} to {game.version}) (CORE-RT-3)"
        )
        raise IllegalActionError(msg, action=action, rule_id="CORE-RT-3")
    known = game._past.get(seen)
    if known is not None and seat in known:
        return known[seat]
    base = None
    for version, checkpoint in reversed(game._checkpoints):
        if version <= seen:
            base = (version, checkpoint)
            break
    if base is None:  # the window reaches before the oldest checkpoint kept
        return ()
    state = base[1].clone()
    logic = game.logic
    try:
        for old in game._record[base[0] : seen]:
            replay_one(logic, state, old)
        if state.is_over or seat not in state.to_act:
            return ()
        return game._logic_legal(state, seat)
    except CardcoreError:
        raise
    except Exception as exc:
        raise game._plugin_error(exc, "legal_actions") from exc


def rebuild_state(game: Game) -> GameState:
    """Replay the record from the deal (or the starting position) into a fresh state."""
    from cardcore.setup import deal  # setup imports game, which imports this module

    state = deal(
        game.ruleset,
        len(game.players),
        game.options,
        game.seed,
        game._deck_top,
        game._start_position,
        None,
    )
    logic = game.logic
    for action in game._record:
        replay_one(logic, state, action)
    return state


def clone_game(game: Game) -> Game:
    """Return an independent copy of *game* (under its lock) with no subscribers."""
    new = object.__new__(type(game))
    new.ruleset = game.ruleset
    new.logic = game.logic
    new.name = game.name
    new.players = game.players
    new.options = game.options
    new.seed = game.seed
    new.version = game.version
    new.events = EventBus(game.ruleset.observers)
    new._deck_top = game._deck_top
    new._start_position = game._start_position
    new._state = game._state.clone()
    new._record = game._record  # shared until either game appends (copy-on-write)
    new._times = game._times
    new._record_shared = game._record_shared = True
    new._lock = threading.Lock()
    new._legal = {}
    new._legal_v = -1
    new._realtime = game._realtime
    new._past = {}
    new._checkpoints = deque(game._checkpoints, maxlen=2)
    new._determinized = game._determinized
    new._hot_v = -1
    new._hot_seat = -1
    new._hot_legal = ()
    new._logic_apply = game._logic_apply
    new._logic_legal = game._logic_legal
    new.to_act = new._state.to_act
    new.is_over = new._state.is_over
    return new
