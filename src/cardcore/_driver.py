"""The driver's private helpers: vetoes, stale judgement, clones and rebuilds.

Kept apart from :mod:`cardcore.game` so the :class:`~cardcore.Game` class stays
readable; nothing here is public.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from cardcore import _blame
from cardcore._actionlog import actions as recorded
from cardcore._faults import as_legal, check_listed, offered, parse_step
from cardcore._hookcall import message_of
from cardcore._subscriptions import kept
from cardcore._text import shown
from cardcore._unasked import HUSHED, UNASKED
from cardcore.actions import HOST, Action, EndMatch, Resign
from cardcore.deck import _VERSION as _CHANCE
from cardcore.deck import CHANCE
from cardcore.errors import (
    CardcoreError,
    IllegalActionError,
    NotationError,
    PluginError,
    StaleActionError,
)
from cardcore.events import ActionApplied, Event, EventBus, GameEnded
from cardcore.logic import GameLogic
from cardcore.plugins import plugin_from_traceback
from cardcore.state import GameState

if TYPE_CHECKING:
    from cardcore.game import Game
    from cardcore.plugins import Ruleset

__all__ = [
    "BASE_EVERY",
    "COLD",
    "MAX_TIME",
    "STALE_WINDOW",
    "Stamp",
    "bus_for",
    "clone_game",
    "failed",
    "legal_at",
    "legal_for",
    "numbered",
    "parse_failed",
    "plugin_error",
    "publish_legal",
    "rebuild_state",
    "reject",
    "replay_one",
    "restore",
    "undo",
    "validate",
]

BASE_EVERY = 4096
"""Turn-based games: a restore replays at most this many actions (a checkpoint every so many).

A failed ``apply`` is undone by cloning the last checkpoint and replaying the
actions recorded since. A checkpoint is taken after every ``apply`` during which
a hook ran (so the replay calls no hook, not even the one that failed) and every
``BASE_EVERY`` versions (real-time games: every :data:`STALE_WINDOW`).
"""

MAX_REASON = 300
"""The longest reason a game or house rule gives for a refusal that a message quotes whole."""

MAX_TIME = 1e15
"""The largest time stamp (``at=``) an action may carry, in size: finite and at most this."""

COLD: tuple[int, int, tuple[Action, ...]] = (-1, -1, ())
"""``Game._hot`` when no legal set is published (no version matches -1)."""

STALE_WINDOW = 64
"""Real time: how many versions back an explicit ``seen`` is judged exactly.

A ``seen`` older than that (or newer than the game) is refused with a clear
error; judging one inside the window costs at most ``2 * STALE_WINDOW`` applies
from a checkpoint, never a replay of the whole game.
"""


def replay_one(logic: GameLogic[Any, Any], state: GameState, action: Action) -> None:
    kind = type(action)
    if kind is Resign:
        logic.resign(state, action.seat)
    elif kind is EndMatch:
        logic.end_match(state)
    else:
        logic.apply(state, action, None)


def check_seen(game: Game, seen: Any, action: Any) -> None:
    """Refuse a ``seen`` that is not a version inside the window judged for staleness."""
    if type(seen) is not int:
        msg = f"seen must be a version number (an int), not {shown(seen)} (CORE-RT-3)"
        raise IllegalActionError(msg, action=action, rule_id="CORE-RT-3")
    if seen > game.version or seen < game.version - STALE_WINDOW or seen < 0:
        msg = (
            f"seen={shown(seen)} is outside the window of versions judged for staleness"
            f" ({max(0, game.version - STALE_WINDOW)} to {game.version}) (CORE-RT-3)"
        )
        raise IllegalActionError(msg, action=action, rule_id="CORE-RT-3")


def stale_at_end(game: Game, action: Action, seen: Any, text: str) -> None:
    """Real time, the game over: raise :class:`~cardcore.StaleActionError` if *action* was
    legal at *seen* (another action came first and ended the game), as during play."""
    if type(seen) is not int or seen == game.version:
        return
    try:
        old = legal_at(game, action.seat, seen, action)
    except CardcoreError:  # a seen outside the window: the game's end is the answer
        return
    # resigning (and the host's end) is accepted whatever the view while the game runs, and
    # it ran at any seen before now (nothing is applied once it is over)
    kind, seat = type(action), action.seat
    if action in old or (kind is Resign and seat >= 0) or (kind is EndMatch and seat == HOST):
        msg = (
            f"{text} was legal at version {seen} but another action came first and ended"
            f" the game (now version {game.version}) (CORE-RT-1)"
        )
        raise StaleActionError(msg, action=action, rule_id="CORE-RT-1")


def legal_at(game: Game, seat: int, seen: int, action: Action) -> tuple[Action, ...]:
    """The legal actions of *seat* at version *seen* (real time, inside the window)."""
    if seen > game.version or seen < game.version - STALE_WINDOW or seen < 0:
        msg = (
            f"seen={shown(seen)} is outside the window of versions judged for staleness"
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
        if game._determinized:  # its past was dealt again: nothing to judge seen by
            msg = (
                f"seen={seen} is before this determinized game's own past: it judges only"
                f" versions it played (CORE-RT-3)"
            )
            raise IllegalActionError(msg, action=action, rule_id="CORE-RT-3")
        return ()
    logic = game.logic
    try:
        state = _deal_again(game) if base[1] is None else base[1].clone()
        for old in recorded(game, base[0], seen):
            replay_one(logic, state, old)
        got: tuple[Action, ...] = (
            () if state.is_over or seat not in state.to_act else game._logic_legal(state, seat)
        )
    except PluginError:
        raise
    except Exception as exc:  # the game's code, a cardcore error it raised included
        raise (error := plugin_error(game, exc, "legal_actions")) from cause(error, exc)
    if known is not None:
        known[seat] = got  # a flood of the same seen costs one replay
    elif len(game._past) <= STALE_WINDOW:
        game._past[seen] = {seat: got}
    return got


Stamp = float | Callable[[], float]
"""An action's time: a number, or a clock (``time.time``) read under the game's lock."""


def plugin_error(game: Game, exc: Exception, where: str) -> CardcoreError:
    """The error to raise for *exc* raised by a plugin in *where*: a PluginError naming the
    plugin (one already named passes through). A cardcore error raised there is the
    plugin's too: a ``LedgerError`` refusing its payments, a ``NotationError``."""
    if _blame.is_blamed(exc):  # a plugin named, or none of several alike
        return exc
    plugin = plugin_from_traceback(game.ruleset, exc) or game.name
    msg = f"plugin {plugin!r} raised {type(exc).__name__} in {where}: {message_of(exc)}"
    return PluginError(msg, plugin=plugin)


def cause(error: BaseException, exc: BaseException) -> BaseException | None:
    """What *error*, raised for *exc*, is raised ``from``: *exc*, or, when *exc* passes
    through as it is, its own cause (``raise exc from exc`` would hide the plugin's error)."""
    return exc.__cause__ if error is exc else exc


def reject(game: Game, action: Action, seen: int | None) -> None:
    """Raise the error that explains why *action* is not legal now (changes nothing)."""
    state = game._state
    seat = action.seat
    try:
        text = str(action)
    except Exception:  # an action object built with values its class cannot write
        msg = f"malformed action {shown(action)}: it has no notation (CORE-ACTION-1)"
        raise IllegalActionError(msg, action=action, rule_id="CORE-ACTION-1") from None
    if game._realtime and seen is not None and seen != game.version:
        old = legal_at(game, seat, seen, action)
        if action in old:
            msg = (
                f"{shown(text)} was legal at version {seen} but another action came first"
                f" (now version {game.version}) (CORE-RT-1)"
            )
            raise StaleActionError(msg, action=action, rule_id="CORE-RT-1")
    if seat not in state.to_act:
        if refusal := offered(game, action):
            raise refusal
        if (answer := _ask(game, action, text, "waiting_rule")) is not None:
            raise IllegalActionError(f"{answer[1]} ({answer[0]})", action=action, rule_id=answer[0])
        why = f"seat {seat} may not act now" if game._realtime else f"it is not seat {seat}'s turn"
        msg = f"{why}: {shown(text)} rejected (seats to act: {list(state.to_act)}) (CORE-TURN-1)"
        raise IllegalActionError(msg, action=action, rule_id="CORE-TURN-1")
    veto = game.ruleset.veto
    if veto is not None:
        try:
            vetoes = veto(state=state, action=action)
        except BaseException as exc:
            error = failed(game, exc, "forbid_action")
            if error is exc:
                raise
            raise error from exc
        if vetoes:
            first = vetoes[0]
            msg = f"{shown(text)} is forbidden: {brief(first.reason)} ({first.rule_id})"
            raise IllegalActionError(msg, action=action, rule_id=first.rule_id)
    rule_id, reason = _ask(game, action, text, "rule_for") or ("", "")
    raise IllegalActionError(f"{reason} ({rule_id})", action=action, rule_id=rule_id)


def _ask(game: Game, action: Action, text: str, hook: str) -> tuple[str, str] | None:
    """The game's ``(rule ID, reason)`` for refusing *action*, from its ``rule_for`` or
    ``waiting_rule`` (*hook*; only the latter may answer ``None``)."""
    try:
        answer = getattr(game.logic, hook)(game._state, action)
    except BaseException as exc:
        undo(game, exc)
        if not isinstance(exc, Exception):
            raise
        # not the plugin's fault: a malformed object (a waiting seat's text may not parse)
        if hook == "rule_for" and not _well_formed(game, action, text):
            msg = f"{shown(text)} is not an action of {game.name} (CORE-ACTION-1)"
            raise IllegalActionError(msg, action=action, rule_id="CORE-ACTION-1") from None
        raise (error := plugin_error(game, exc, hook)) from cause(error, exc)
    if answer is None and hook == "waiting_rule":
        return None
    pair = isinstance(answer, tuple | list) and len(answer) == 2
    if not (pair and all(isinstance(x, str) and x for x in answer)):
        msg = (
            f"game {game.name!r} answered {hook} for {shown(text)} with {shown(answer)}:"
            " it must answer (rule ID, reason), both non-empty text"
        )
        raise PluginError(msg, plugin=game.name)
    return answer[0], brief(answer[1])


def brief(reason: str) -> str:
    """A game's or house rule's *reason* for a refusal, cut to :data:`MAX_REASON` characters
    (one quoting an action of a huge number would otherwise make a huge message)."""
    return reason if len(reason) <= MAX_REASON else reason[: MAX_REASON - 3] + "..."


def _well_formed(game: Game, action: Action, text: str) -> bool:
    """Whether *action* is what the game reads its own notation as (not a hand-built oddity)."""
    try:
        return bool(game.logic.parse_action(game._state, action.seat, text) == action)
    except Exception:
        return False


def restore(game: Game, *, refusal: bool = False) -> bool:
    """Put the state back as it was before a failed ``apply``, calling no hook.

    Clones the checkpoint ``game._base`` (or deals again, when no hook ran since the
    deal) and replays the actions recorded since: none of them ran a hook (see
    :data:`BASE_EVERY`). Should that replay fail all the same (a game calling plugin
    code the core cannot see), the whole record is replayed from the deal; for a
    *refusal* (see :func:`undo`) the state is left as it is instead, ``False`` returned.
    """
    logic = game.logic
    version, base = game._base
    try:
        state = _deal_again(game) if base is None else base.clone()
        for action in recorded(game, version):
            replay_one(logic, state, action)
    except BaseException:
        if refusal:
            return False
        try:
            state = rebuild_state(game)
        except BaseException as exc:
            msg = (
                f"the game could not be restored after a failed apply ({exc!r}); it refuses"
                " every call now: replay its record (Game.record()) to get it back as it was"
            )
            _break(game, msg)
            raise PluginError(msg, plugin=game.name) from exc
    _still_truncated(game, state)
    game._state = state
    game._legal_v = -1
    game._hot = COLD
    game.to_act = state.to_act
    game.is_over = state.is_over
    return True


def failed(game: Game, exc: BaseException, where: str) -> BaseException:
    """Undo what plugin code that raised *exc* in *where* changed (see :func:`undo`); return
    the error to raise: *exc* itself for an interrupt, a PluginError, or a cardcore error of
    ``parse_action`` (the text's fault), else a :class:`~cardcore.PluginError` naming it."""
    undo(game, exc)
    if not isinstance(exc, Exception) or isinstance(exc, PluginError):
        return exc
    if isinstance(exc, CardcoreError) and where == "parse_action":  # its NotationError, say
        return exc
    return plugin_error(game, exc, where)


def parse_failed(game: Game, exc: BaseException, words: str = "") -> NoReturn:
    """Raise for the game's ``parse_action`` that raised *exc* (undone; see :func:`failed`);
    *words*, the text read, says when it was the core's ``resign`` with words after it."""
    error = failed(game, exc, parse_step(exc))
    if isinstance(error, NotationError) and words.split(None, 1)[0:1] == ["resign"]:
        msg = f"'resign' takes no other words, not {shown(words, 60)} (CORE-NOTATION-1)"
        raise NotationError(msg) from None
    if type(error) is NotationError and error.rule_id is None:  # a game's own, citing nothing
        raise NotationError(f"{error} (CORE-NOTATION-1)") from exc
    if error is exc:
        raise exc
    raise error from exc


def undo(game: Game, exc: BaseException) -> None:
    """After plugin code failed outside ``apply`` (legal actions, a veto, a view, text read;
    *exc*, whatever it raised): put back any change it made to the state, calling no hook.

    A refusal too (:class:`~cardcore.IllegalActionError`, :class:`~cardcore.NotationError`
    from ``parse_action`` or ``is_legal``): the game may have changed its state first. The
    state restored becomes the checkpoint, so bad text sent again and again costs a clone
    each time, never a replay of the game. Should a refusal's replay fail (the game's logic
    is not deterministic), the state stays as the refusal left it: bad text breaks nothing.
    """
    refusal = isinstance(exc, IllegalActionError | NotationError)
    if restore(game, refusal=refusal) and game._base[0] != game.version:
        game._base = (game.version, game._state.clone())


class _Broken:
    """Stands in for the logic of a game whose state could not be restored: every use raises."""

    def __init__(self, msg: str, plugin: str) -> None:
        self._msg = msg
        self._plugin = plugin

    def __getattr__(self, name: str) -> Any:
        raise PluginError(self._msg, plugin=self._plugin)

    def __call__(self, *args: Any, **kw: Any) -> Any:
        raise PluginError(self._msg, plugin=self._plugin)


def _break(game: Game, msg: str) -> None:
    """Make *game* refuse every move and read (its state is half-applied); its record stays whole."""
    broken: Any = _Broken(msg, game.name)
    game.logic = broken
    game._logic_apply = game._logic_legal = game._is_legal = broken
    game._legal_v = -1
    game._hot = COLD


def _deal_again(game: Game) -> GameState:
    from cardcore.setup import deal  # setup imports game, which imports this module

    # with the game's own chance: a game replayed from a record of format 1 or 2 keeps its own
    token = _CHANCE.set(getattr(game._state, "chance", CHANCE))
    try:
        return deal(
            game.ruleset,
            len(game.players),
            game.options,
            game.seed,
            game._deck_top,
            game._start_position,
            None,
        )
    finally:
        _CHANCE.reset(token)


def rebuild_state(game: Game) -> GameState:
    """Replay the record from the deal (or the starting position) into a fresh state."""
    state = _deal_again(game)
    logic = game.logic
    for action in recorded(game):
        replay_one(logic, state, action)
    _still_truncated(game, state)
    return state


def _still_truncated(game: Game, state: GameState) -> None:
    """End the replayed *state* as *game* was ended by ``truncate`` (no action of the record
    says so): a restore never reopens a truncated game."""
    if game._truncated is not None and not state.is_over:
        state.is_over = True
        state.to_act = ()
        state.result = game._truncated


_NO_LEGAL: dict[int, tuple[Action, ...]] = {}  # shared by clones, never written


def numbered(
    bus: EventBus,
    batch: list[Event],
    action: Action,
    version: int,
    at: float | None,
    state: GameState,
) -> tuple[int, list[Event]] | None:
    """The events of the action just applied (the game's own in *batch*), framed by
    :class:`ActionApplied` and :class:`GameEnded` where wanted, and numbered for delivery."""
    if bus.wants_applied:  # every field given: the tuple is built in C, as ActionApplied(...) does
        text = action._text
        text = text if text is not None else str(action)
        batch.insert(0, _new_event(ActionApplied, (action.seat, text, version, at)))
    if state.is_over and state.result is not None and bus.wants_ended:
        r = state.result
        batch.append(GameEnded(r.winners, r.scores, r.payouts, r.reason))
    if not batch:
        return None
    return kept(bus._queued, bus._tickets, batch), batch  # bus.ticket(batch): a bus is built


_new_event: Any = tuple.__new__  # ActionApplied(...) without its Python __new__


def bus_for(ruleset: Ruleset, seats: int) -> EventBus:
    """A new game's bus: its own if a plugin observes every game, else the shared unasked one."""
    return EventBus(ruleset.observers, seats) if ruleset.observers else UNASKED


def validate(game: Game, action: Action, seen: int | None) -> Action:
    """Raise the documented error unless *action* may be applied now (changes nothing);
    return the action to apply: the legal one where the legal set decided."""
    if not isinstance(action, Action):
        msg = f"not an action: {shown(action)} (CORE-ACTION-1)"
        raise offered(game, action) or IllegalActionError(
            msg, action=action, rule_id="CORE-ACTION-1"
        )
    state = game._state
    seat = action.seat
    if state.is_over:
        try:
            text = repr(str(action))
        except Exception:  # a hand-built action its class cannot write
            text = shown(action)
        if game._realtime and seen is not None and type(seat) is int and -1 <= seat < state.players:
            stale_at_end(game, action, seen, text)  # lost the race to the last action
        msg = f"the game is over; {text} is not accepted (CORE-OVER-1)"
        raise IllegalActionError(msg, action=action, rule_id="CORE-OVER-1")
    kind = type(action)
    if kind is Resign or kind is EndMatch:
        if seen is not None and (type(seen) is not int or seen < 0):  # any version, but one
            msg = f"seen must be a version number (an int from 0), not {shown(seen)} (CORE-RT-3)"
            raise IllegalActionError(msg, action=action, rule_id="CORE-RT-3")
        if kind is Resign:
            game._check_seat(seat, action)
        elif type(seat) is not int or seat != HOST:
            msg = f"only the host (seat {HOST}) may end the match, not seat {shown(seat)} (CORE-END-1)"
            raise IllegalActionError(msg, action=action, rule_id="CORE-END-1")
    else:  # resigning (or ending) is allowed whatever the view was
        game._check_seat(seat, action)
        if seen is not None:
            check_seen(game, seen, action)
        hot = game._hot
        if hot[0] == game.version and hot[1] is seat and type(hot[2]) is tuple:
            legal = hot[2]  # (published unchecked: another kind is checked by _legal_for)
        elif game._is_legal is None:  # no check of the game's own: the legal set decides
            legal = game._legal_for(seat)
        else:
            try:  # the game's fast check; should the game's own code fail, the legal set decides
                if game._is_legal(state, action):
                    return action
                legal = ()
            except BaseException as exc:
                undo(game, exc)
                if not isinstance(exc, Exception) or isinstance(exc, PluginError):
                    raise  # an interrupt, or a house rule's failure (a veto): named, not retried
                legal = game._legal_for(seat)
        try:  # identity first, then equality: the legal one, should an equal copy be given
            return legal[legal.index(action)]  # (True for 1: never recorded as such)
        except ValueError:
            reject(game, action, seen)
    return action


def publish_legal(game: Game, seat: int) -> tuple[Action, ...]:
    """The legal actions of *seat*, who is to act in a turn-based game, published as
    ``apply`` publishes them (under the lock)."""
    try:
        legal = game._logic_legal(game._state, seat)
    except BaseException as exc:  # put back what the failing code changed
        error = failed(game, exc, "legal_actions")
        if error is exc:
            raise
        raise error from exc
    if type(legal) is not tuple:
        legal = as_legal(game, seat, legal)
    check_listed(game, seat, legal)
    game._hot = (game.version, seat, legal)
    return legal


def legal_for(game: Game, seat: int) -> tuple[Action, ...]:
    """The legal actions of *seat* now, computed once per version (under the lock)."""
    version = game.version
    if game._legal_v != version:
        game._legal = {}
        game._legal_v = version
        if game._realtime:
            past = game._past
            past[version] = game._legal
            while len(past) > STALE_WINDOW + 1:
                del past[next(iter(past))]
    got = game._legal.get(seat)
    if got is None:
        state = game._state
        hot = game._hot
        if state.is_over or seat not in state.to_act:
            got = ()
        elif hot[0] == version and hot[1] is seat and type(hot[2]) is tuple:
            got = hot[2]
        else:
            try:
                got = game._logic_legal(state, seat)
            except BaseException as exc:  # put back what the failing code changed
                error = failed(game, exc, "legal_actions")
                if error is exc:
                    raise
                raise error from exc
            if type(got) is not tuple:
                got = as_legal(game, seat, got)
            check_listed(game, seat, got)
        game._legal[seat] = got
    return got


_new_lock = threading.Lock


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
    new._bus = HUSHED  # a copy tells no plugin's on_event (a search agent makes thousands)
    new._deck_top = game._deck_top
    new._start_position = game._start_position
    new._state = game._state.clone()
    # the record: its sealed chunks shared, the open part copied (see _actionlog)
    new._chunks = game._chunks[:]
    new._time_chunks = game._time_chunks[:]
    new._record = game._record[:]
    new._times = game._times.copy()
    new._last_at = game._last_at
    new._truncated = game._truncated
    new._base = game._base  # never changed, only cloned: shared
    new._hooks = game._hooks
    new._mark = game._mark
    new._next_base = game._next_base
    new._bound = game._bound
    new._lock = _new_lock()
    new._hot_lock = None if game._hot_lock is None else new._lock
    new._legal = _NO_LEGAL  # replaced by a new dict at the first version asked (_legal_v = -1)
    new._legal_v = -1
    new._realtime = game._realtime
    new._past = {} if game._realtime else game._past  # turn-based: the shared empty one
    # real time keeps checkpoints (a copy keeps the maxlen); a turn-based game's stay empty,
    # so its clones share them
    new._checkpoints = game._checkpoints.copy() if game._realtime else game._checkpoints
    new._determinized = game._determinized
    new._hot = game._hot  # the same state, so the same legal actions
    new._logic_apply = game._logic_apply
    new._logic_legal = game._logic_legal
    new._is_legal = game._is_legal
    new.to_act = new._state.to_act
    new.is_over = new._state.is_over
    return new
