"""Checks of what a game's own code answers: the turn fields and result it sets, its legal actions.

A game's mistake here (``to_act`` left empty, legal actions that are not actions)
becomes a :class:`~cardcore.PluginError` naming the game, raised where the core can
still restore the game, instead of a raw exception somewhere later.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from itertools import repeat
from operator import attrgetter, eq
from typing import TYPE_CHECKING, Any, NoReturn

from cardcore import _blame
from cardcore._text import shown
from cardcore.actions import Action
from cardcore.errors import PluginError
from cardcore.state import Result

if TYPE_CHECKING:
    from cardcore.events import Event, EventBus
    from cardcore.game import Game
    from cardcore.logic import GameLogic
    from cardcore.plugins import Ruleset
    from cardcore.state import GameState

_LOG = logging.getLogger("cardcore.events")

REQUIRED = ("action_bound", "new_state", "legal_actions", "apply", "table")
"""The :class:`~cardcore.GameLogic` methods every game must implement."""


def check_logic(ruleset: Ruleset) -> None:
    """Raise a :class:`~cardcore.PluginError` naming the game unless its ``create_logic``
    answered a :class:`~cardcore.GameLogic` that implements every required method."""
    from cardcore.logic import GameLogic

    logic: GameLogic[Any, Any] = ruleset.logic
    name = ruleset.game.name
    missing = (
        []
        if not isinstance(logic, GameLogic)
        else [m for m in REQUIRED if getattr(type(logic), m) is getattr(GameLogic, m)]
    )
    if isinstance(logic, GameLogic) and not missing:
        return
    hook = ruleset.pm.hook.create_logic  # a house rule's create_logic may have answered
    by = _blame.answerer(hook, logic, {"ruleset": ruleset}) or name
    who = f"game {name!r}" if by == name else f"house rule {by!r} of game {name!r}"
    names = list(dict.fromkeys(i.plugin_name for i in reversed(hook.get_hookimpls())))
    impls = f" ({', '.join(names)})" if len(names) > 1 else ""  # of several, which
    if missing:
        msg = (
            f"{who}: create_logic{impls} answered {type(logic).__name__}, which does not"
            f" implement the required GameLogic method{'s' * (len(missing) > 1)} {', '.join(missing)}"
        )
    else:
        msg = f"{who}: create_logic{impls} answered {shown(logic)}, not a cardcore.GameLogic"
    raise PluginError(msg, plugin=by)


def turn_fault(state: GameState) -> str | None:
    """What is wrong with *state*'s turn fields after a game's hook set them, or ``None``.

    ``to_act`` must be a tuple of distinct seats, empty only once the game is over, and an
    ended game must carry its result (see :class:`~cardcore.GameState`).
    """
    to_act = state.to_act
    if type(to_act) is not tuple:
        return f"state.to_act is {shown(to_act)}: it must be a tuple of seats"
    players = state.players
    seen = 0  # the seats named so far, as bits
    for s in to_act:
        if type(s) is not int or not 0 <= s < players:
            return f"state.to_act holds {shown(s)}: not a seat from 0 to {players - 1}"
        if seen >> s & 1:
            return f"state.to_act names seat {s} twice: {shown(to_act)}"
        seen |= 1 << s
    if state.is_over:
        if state.result is None:
            return "state.is_over is set but state.result is None: set both when the game ends"
        return result_fault(state.result, players)
    elif not to_act:
        return "state.to_act is empty but the game is not over: name who acts, or end the game"
    return None


def result_fault(result: Any, players: int) -> str | None:
    """What is wrong with the :class:`~cardcore.Result` a game's code set, or ``None``.

    Its winners must be distinct seats, its scores one finite number per seat, its
    payouts ``None`` or one int per seat, its reason text (not empty): a result that is not
    is refused where the game can still be put back, not found in a summary later.
    """
    if not isinstance(result, Result):
        return f"state.result is {shown(result)}: it must be a cardcore.Result"
    winners, scores, payouts = result.winners, result.scores, result.payouts
    if not isinstance(winners, tuple | list):
        return f"Result.winners is {shown(winners)}: it must be a tuple of seats"
    for w in winners:
        if type(w) is not int or not 0 <= w < players:
            return f"Result.winners holds {shown(w)}: not a seat from 0 to {players - 1}"
    if len(set(winners)) != len(winners):
        return f"Result.winners {shown(winners)} names a seat twice"
    if not isinstance(scores, tuple | list) or len(scores) != players:
        return f"Result.scores is {shown(scores)}: it must hold one number per seat ({players})"
    for x in scores:
        if (type(x) is not float and type(x) is not int) or not math.isfinite(x):
            return f"Result.scores holds {shown(x)}: every score must be a finite number"
    if payouts is not None:
        if not isinstance(payouts, tuple | list) or len(payouts) != players:
            return f"Result.payouts is {shown(payouts)}: it must be None or one int per seat ({players})"
        for x in payouts:
            if type(x) is not int:
                return f"Result.payouts holds {shown(x)}: every payout must be an int"
    if type(result.reason) is not str or not result.reason:
        return f"Result.reason is {shown(result.reason)}: it must be text, a word or two"
    return None


def turn_error(name: str, state: GameState, where: str = "apply") -> PluginError | None:
    """The :class:`~cardcore.PluginError` naming the game if *state*'s turn fields are bad."""
    fault = turn_fault(state)
    if fault is None:
        return None
    return PluginError(f"game {name!r} left a bad turn in {where}: {fault}", plugin=name)


def check_turn(name: str, state: GameState, where: str) -> None:
    """Raise :func:`turn_error`'s error if *state*'s turn fields are bad."""
    error = turn_error(name, state, where)
    if error is not None:
        raise error


def not_an_action(name: str, text: str, action: Any) -> PluginError:
    """The error for a game that read *text* as something else than an action."""
    msg = f"game {name!r} read {text!r} as {shown(action)}, not an Action (parse_action, or its legal_actions)"
    return PluginError(msg, plugin=name)


def as_legal(game: Game, seat: int, legal: Any) -> tuple[Action, ...]:
    """A game's legal actions that are not a tuple: as a tuple if they are actions, else a
    :class:`~cardcore.PluginError` naming the game."""
    try:
        items = tuple(legal) if not isinstance(legal, str | bytes | Mapping) else None
    except TypeError:
        items = None
    if items is None or not all(isinstance(a, Action) for a in items):
        msg = (
            f"game {game.name!r} answered legal_actions for seat {seat} with {shown(legal)}:"
            " it must answer a tuple of Action objects"
        )
        raise PluginError(msg, plugin=game.name)
    return items


_SEAT = attrgetter("seat")


def check_listed(game: Game, seat: int, legal: tuple[Any, ...]) -> None:
    """Raise a :class:`~cardcore.PluginError` naming the game unless each of *legal* is an
    Action of *seat*: what ``legal_actions`` and ``view`` hand on (checked in C, about 60 ns
    an action; the legal set ``apply`` publishes for the next seat is not, as is
    ``apply``'s :func:`offered` check when such an action comes back)."""
    if all(map(isinstance, legal, repeat(Action))) and all(
        map(eq, map(_SEAT, legal), repeat(seat))
    ):
        return
    bad = next(a for a in legal if not isinstance(a, Action) or a.seat != seat)
    what = (
        f"{shown(bad)}, an action of seat {shown(bad.seat)}"
        if isinstance(bad, Action)
        else f"{shown(bad)}, not an Action"
    )
    msg = (
        f"game {game.name!r} answered legal_actions for seat {seat} with {what}:"
        " it must answer a tuple of that seat's Action objects"
    )
    raise PluginError(msg, plugin=game.name)


def published_fault(game: Game) -> PluginError | None:
    """The error for legal actions ``apply`` published unchecked (for speed) that are not
    a tuple of that seat's actions, or ``None`` if they are."""
    _, seat, legal = game._hot
    try:
        if type(legal) is not tuple:
            legal = as_legal(game, seat, legal)
        check_listed(game, seat, legal)
    except PluginError as exc:
        from cardcore._driver import COLD

        game._hot = COLD
        return exc
    game._hot = (game._hot[0], seat, legal)
    return None


def deliver_kept(bus: EventBus, queued: tuple[int, list[Event]], first: BaseException) -> NoReturn:
    """Deliver an applied action's events, then raise *first* (kept from publishing the next
    legal actions); a handler's ``BaseException`` meanwhile is logged, never raised instead."""
    try:
        bus.deliver(*queued)
    except BaseException as late:
        if late is not first:
            _LOG.error(
                "%s during the same delivery was not raised", type(late).__name__, exc_info=late
            )
    raise first


def offered(game: Game, action: object) -> PluginError | None:
    """The error naming the game when *action*, about to be refused as not an action or
    not its seat's turn, is one the game's own ``legal_actions`` offered now (the agent or
    host only passed it on); ``None`` otherwise."""
    version = game.version
    sets = dict(game._legal) if game._legal_v == version else {}
    hot = game._hot
    if hot[0] == version:
        sets.setdefault(hot[1], hot[2])
    for seat, legal in sets.items():
        if type(legal) is tuple and any(a is action for a in legal):
            if isinstance(action, Action):
                what = f"{shown(action)}, an action of seat {shown(action.seat)}"
            else:
                what = f"{shown(action)}, not an Action"
            msg = (
                f"game {game.name!r} answered legal_actions for seat {seat} with {what}:"
                " it must answer a tuple of that seat's Action objects"
            )
            return PluginError(msg, plugin=game.name)
    return None


def renamed(exc: BaseException, msg: str) -> BaseException:
    """*exc* saying *msg* (its failure named with where it happened), its class and data kept:
    *exc* itself with *msg* as its arguments when its text shows them (most classes); else a
    new one of its class built without its own arguments, its attributes copied (an
    ``OSError`` keeps its ``errno``; its ``filename`` would write its text instead); else a
    :class:`~cardcore.CardcoreError`. Raise the answer as it is when it is *exc*, else from it.
    """
    from cardcore.errors import CardcoreError

    saved = exc.args
    try:
        exc.args = (msg,)
        if msg in str(exc):  # (a KeyError shows it quoted)
            return exc
    except Exception:
        pass
    exc.args = saved
    cls = type(exc)
    try:
        out = cls.__new__(cls, msg)
        out.__dict__.update(getattr(exc, "__dict__", {}))
        if isinstance(exc, OSError) and isinstance(out, OSError):
            out.errno = exc.errno
        out.args = (msg,)
        if msg in str(out):
            return out
    except Exception:
        pass
    return CardcoreError(msg)


def parse_step(exc: BaseException) -> str:
    """Where a game's failing ``parse_action`` failed, to name in its error: in the
    ``legal_actions`` it read (the default parser matches the text against the legal set),
    or in itself."""
    names, tb, inside = [], exc.__traceback__, False
    while tb is not None:
        inside = inside or tb.tb_frame.f_code.co_name == "parse_action"
        names += [tb.tb_frame.f_code.co_name] if inside else []
        tb = tb.tb_next
    return "legal_actions (read by parse_action)" if "legal_actions" in names else "parse_action"
