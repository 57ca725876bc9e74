"""After an action is applied: its record, the checkpoints, and the game's action bound.

Every game declares an action bound (``GameLogic.action_bound``). A game that
reaches it without ending by its rules ends as ``"truncated"`` (CORE-BOUND-1):
the runners stopped there already, and now a game driven through ``apply`` by
hand does too, so no game outlives its bound and every record a game makes
replays (a record holding more actions than the bound is refused, unread).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardcore._actionlog import CHUNK, seal
from cardcore._driver import (
    BASE_EVERY,
    COLD,
    STALE_WINDOW,
    cause,
    failed,
    numbered,
    plugin_error,
    restore,
    undo,
)
from cardcore._faults import check_turn, result_fault, turn_error
from cardcore._text import shown
from cardcore.actions import Action, EndMatch, Resign
from cardcore.errors import CardcoreError, PluginError
from cardcore.events import Event, GameEnded
from cardcore.plugins import plugin_from_traceback
from cardcore.state import Result

if TYPE_CHECKING:
    from cardcore.game import Game
    from cardcore.plugins import Ruleset

__all__ = ["bound_of", "checkpoint", "commit", "end_truncated", "truncate"]


def bound_of(ruleset: Ruleset, players: int, options: Any) -> int:
    """The game's action bound for *players* and the resolved *options*, checked: a whole
    number of at least 1, else a :class:`~cardcore.PluginError` naming the game."""
    name = ruleset.game.name
    try:
        bound = ruleset.logic.action_bound(players, options)
    except CardcoreError:
        raise
    except Exception as exc:  # the game's own mistake, not a raw error for the caller
        plugin = plugin_from_traceback(ruleset, exc) or name
        msg = f"plugin {plugin!r} raised {type(exc).__name__} in action_bound: {shown(str(exc), 200)}"
        raise PluginError(msg, plugin=plugin) from exc
    if type(bound) is not int or bound < 1:
        msg = f"game {name!r} answered action_bound with {shown(bound)}: it must be an int of at least 1"
        raise PluginError(msg, plugin=name)
    return bound


def commit(
    game: Game, action: Action, at: float | None
) -> tuple[tuple[int, list[Event]] | None, BaseException | None]:
    """Apply a validated *action* to *game* and record it (under the lock): the path of every
    action but a legal one of the seat just asked (``Game.apply`` inlines that one).

    :returns: Its events, numbered, for the caller to deliver after the lock (or ``None``),
        and what to raise after them (see :func:`checkpoint`).
    """
    state = game._state
    seat = action.seat
    kind = type(action)
    bus = game._bus
    batch: list[Event] | None = [] if bus.active else None
    game._hot = COLD  # a hook's call back to legal_actions finds the lock (refused)
    try:
        if kind is Resign:
            game.logic.resign(state, seat)
        elif kind is EndMatch:
            game.logic.end_match(state)
        else:
            emit = batch.append if batch is not None and bus.wants_game_events else None
            game._logic_apply(state, action, emit)
        to_act = state.to_act  # checked whole unless it is one seat of a tuple
        if state.is_over or to_act.__class__ is not tuple or len(to_act) != 1 or (
            to_act[0].__class__ is not int or not 0 <= to_act[0] < state.players
        ):
            check_turn(game.name, state, "apply")
    except BaseException as exc:
        fault = turn_error(game.name, state) if isinstance(exc, TypeError) else None
        restore(game)  # as it was before this apply, calling no hook
        if not isinstance(exc, Exception):
            raise
        where = "resign" if kind is Resign else "end_match" if kind is EndMatch else "apply"
        raise (err := fault or plugin_error(game, exc, where)) from cause(err, exc)
    if at is not None:
        game._times[game.version] = game._last_at = at
    record = game._record
    record.append(action)
    if len(record) == CHUNK:
        seal(game)
    version = game.version = game.version + 1
    game.to_act, game.is_over = state.to_act, state.is_over
    if game._realtime and not version % STALE_WINDOW:
        game._checkpoints.append((version, state.clone()))
        game._base = game._checkpoints[-1]
        game._mark = game._hooks.value
        game._next_base = min(version + BASE_EVERY, game._bound)
    late = None
    if game._hooks.value is not game._mark or version >= game._next_base:
        late = checkpoint(game)
        state = game._state  # (restored, should the game's scores fail at its bound)
    return None if batch is None else numbered(bus, batch, action, version, at, state), late


def checkpoint(game: Game) -> BaseException | None:
    """Keep the state now as the base restores replay from (a hook ran, or every
    ``BASE_EVERY``); at the game's action bound, end it as ``"truncated"`` first.

    :returns: What the game's ``scores`` raised at the bound (the action stands and the
        game stays open, tried again at the next action): raised after the events.
    """
    error = None
    if game.version >= game._bound and not game._state.is_over:
        try:
            end_truncated(game)
        except BaseException as exc:
            error = exc
    game._mark = game._hooks.value
    game._base = (game.version, game._state.clone())
    game._next_base = min(game.version + BASE_EVERY, game._bound)
    return error


def truncate(game: Game) -> tuple[int, list[Event]] | None:
    """End *game* as ``"truncated"`` (under its lock); recorded as the record's ``truncated``.

    :returns: The :class:`GameEnded` to deliver after the lock, numbered; or ``None``.
    """
    if game._state.is_over:
        return None
    result = end_truncated(game)
    bus = game._bus
    if not (bus.active and bus.wants_ended):
        return None
    batch: list[Event] = [GameEnded(result.winners, result.scores, result.payouts, "truncated")]
    return bus.ticket(batch), batch


def end_truncated(game: Game) -> Result:
    """Set *game* over as ``"truncated"`` (no winner; the scores and payouts now), or raise
    what its ``scores`` or ``payouts`` raised (as a PluginError), the game unchanged."""
    state = game._state
    logic = game.logic
    try:
        result = Result((), logic.scores(state), logic.payouts(state), "truncated")
    except BaseException as exc:  # put back what the failing code changed
        error = failed(game, exc, "scores")
        if error is exc:
            raise
        raise error from exc
    fault = result_fault(result, state.players)
    if fault is not None:
        error = PluginError(
            f"game {game.name!r} answered a bad result at its action bound: {fault}", plugin=game.name
        )
        undo(game, error)  # (what scores or payouts changed, put back)
        raise error
    state.is_over = True
    state.to_act = ()
    state.result = result
    game._truncated = result
    game._legal_v = -1
    game._hot = COLD
    game.to_act = ()
    game.is_over = True
    return result
