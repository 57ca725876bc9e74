"""Agents and the loops that let them play.

An agent sees only its seat's view and legal actions, never the full state.
Turn-based games run with :func:`play`; real-time games with
:func:`run_realtime`, a virtual clock on which every agent keeps a plan
(action, due time, version seen) drawn from its seeded reaction times.
"""

from __future__ import annotations

import itertools
import math
import numbers
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from attrs import frozen

from cardcore._driver import MAX_TIME, STALE_WINDOW
from cardcore._text import shown
from cardcore.actions import Action
from cardcore.deck import derive_rng
from cardcore.errors import (
    ArgumentError,
    CardcoreError,
    IllegalActionError,
    OptionError,
    StalledGameError,
)
from cardcore.info import GameInfo
from cardcore.state import Result

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = [
    "Agent",
    "LazyView",
    "Plan",
    "RandomAgent",
    "RealtimeAgent",
    "check_agent",
    "lend_views",
    "play",
    "run_realtime",
]


class LazyView(Mapping[str, Any]):
    """A seat's view as an agent receives it: a read-only mapping (see :meth:`cardcore.Game.view`).

    The runners (:func:`play`, :func:`run_realtime`, the ``cardcore`` command)
    build it only when the agent first reads it, so random agents never pay
    for views they ignore. It holds no reference to the game, its state or its
    seed (only a token, the seat and the version), so nothing an agent is
    handed leads back to the game. Read it while deciding: once the game has
    moved on, an unread view can no longer be built and raises
    :class:`~cardcore.CardcoreError`.

    ``LazyView(view)`` wraps a view already computed (any mapping).

    Read-only at the top level: its nested lists and dicts are the agent's own copy
    (each view is built afresh), so changing them changes nothing in the game.
    """

    __slots__ = ("_data",)

    def __init__(self, view: Mapping[str, Any]) -> None:
        """:raises ArgumentError: *view* is not a mapping."""
        if not isinstance(view, Mapping):
            msg = f"LazyView wraps a view (a mapping), not {shown(view, 60)}"
            raise ArgumentError(msg)
        self._data: Mapping[str, Any] | None = view

    def _get(self) -> Mapping[str, Any]:
        data = self._data
        if data is None:
            msg = "this view was never built"
            raise CardcoreError(msg)
        return data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __reduce__(self) -> tuple[Any, ...]:
        return (LazyView, (dict(self._get()),))  # pickles as the data, never the game

    def __repr__(self) -> str:
        data = self._data
        return "LazyView(<not read yet>)" if data is None else f"LazyView({dict(data)!r})"


_LENT: dict[int, Game] = {}
"""The games whose views the runners lend out right now, by token (see :func:`lend_views`)."""
_TOKENS = itertools.count(1)


class _DeferredView(LazyView):
    """A :class:`LazyView` built on first read from the game lent under *token*."""

    __slots__ = ("_seat", "_token", "_version")

    def __init__(self, token: int, seat: int, version: int) -> None:
        self._data = None
        self._token = token
        self._seat = seat
        self._version = version

    def _get(self) -> Mapping[str, Any]:
        data = self._data
        if data is None:
            game = _LENT.get(self._token)
            data = None if game is None else game.view(self._seat)
            if data is None or data["version"] != self._version:
                msg = (
                    f"the view of seat {self._seat} at version {self._version} can no longer"
                    " be built: the game has moved on (read a view while deciding)"
                )
                raise CardcoreError(msg)
            self._data = data
        return data


@contextmanager
def lend_views(game: Game) -> Iterator[Callable[[int], LazyView]]:
    """Lend views of *game* to agents while the block runs.

    Yields ``views(seat)``, which returns that seat's :class:`LazyView` of the
    current version. The views hold a token, not the game; the game is
    forgotten when the block ends.

    >>> with lend_views(game) as views:  # doctest: +SKIP
    ...     action = agent.choose(views(seat), game.legal_actions(seat))
    """
    from cardcore.game import Game as Game_

    if not isinstance(game, Game_):
        raise ArgumentError(f"lend_views takes a Game, not {shown(game, 40)}")
    token = _lend(game)

    def views(seat: int) -> LazyView:
        return _DeferredView(token, seat, game.version)

    try:
        yield views
    finally:
        _LENT.pop(token, None)


def _lend(game: Game) -> int:
    token = next(_TOKENS)  # atomic in CPython: threads never share a token
    _LENT[token] = game
    return token


@runtime_checkable
class Agent(Protocol):
    """A turn-based player: picks one of the legal actions from what its seat may see."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return one of *legal*.

        :param view: The seat's view (see :meth:`cardcore.Game.view`).
        :param legal: The seat's legal actions, never empty.
        """
        ...


def check_agent(name: str, factory: object, game: GameInfo) -> None:
    """Raise :class:`~cardcore.OptionError` if agent *name* cannot play *game*.

    An agent class may declare the games it serves as ``games = ("hearts",)``
    (no declaration: any game); a real-time game needs a ``plan()`` method and
    a turn-based one ``choose()``, when *factory* is a class that shows them.

    :param name: The agent's entry-point name, for the message.
    :param factory: What :func:`cardcore.load_agent` returned.
    :param game: The game's :class:`~cardcore.GameInfo`.
    """
    if not isinstance(game, GameInfo):
        raise ArgumentError(f"check_agent takes the game's GameInfo, not {shown(game, 40)}")
    games = getattr(factory, "games", None)
    if isinstance(games, tuple | list | frozenset | set) and game.name not in games:
        served = ", ".join(sorted(str(g) for g in games)) or "no game"
        msg = f"agent {name!r} plays {served}, not {game.name!r}"
        raise OptionError(msg)
    if isinstance(factory, type):
        need = "plan" if game.realtime else "choose"
        if not callable(getattr(factory, need, None)):
            kind = "real-time" if game.realtime else "turn-based"
            msg = f"agent {name!r} cannot play {kind} games (it has no {need}() method)"
            raise OptionError(msg)


def _check_run(game: Any, agents: Any, max_actions: Any, method: str, on_action: Any) -> None:
    """Refuse, before the first move, a runner's arguments of the wrong kind (an agent
    ``None`` raised AttributeError mid-game; ``max_actions=-1`` was taken)."""
    from cardcore.game import Game

    if on_action is not None and not callable(on_action):
        raise ArgumentError(f"on_action must be callable or None, not {shown(on_action, 40)}")
    if not isinstance(game, Game):
        msg = f"a runner plays a cardcore.Game, not {type(game).__name__}"
        raise ArgumentError(msg)
    if isinstance(agents, str) or not isinstance(agents, Sequence):
        msg = f"agents must be a list of agents, one per seat, not {type(agents).__name__}"
        raise ArgumentError(msg)
    if max_actions is not None and (type(max_actions) is not int or max_actions < 0):
        msg = f"max_actions must be a whole number of at least 0 or None, not {shown(max_actions, 40)}"
        raise OptionError(msg)
    for seat, agent in enumerate(agents):
        if not isinstance(agent, type) and not callable(getattr(agent, method, None)):
            msg = f"the agent of seat {seat} ({type(agent).__name__}) has no {method}() method"
            raise ArgumentError(msg)


def _check_agents(agents: Sequence[object], game: Game) -> None:
    """Refuse, before the first move, an agent that declares games other than *game*'s."""
    name = game.name
    for seat, agent in enumerate(agents):
        if isinstance(agent, type):  # load_agent("x") without parameters answers the class
            msg = f"the agent of seat {seat} is the class {agent.__name__}, not an agent: call it (or pass parameters to load_agent)"
            raise ArgumentError(msg)
        games = getattr(agent, "games", None)
        if isinstance(games, tuple | list | frozenset | set) and name not in games:
            served = ", ".join(sorted(str(g) for g in games)) or "no game"
            msg = f"the agent of seat {seat} ({type(agent).__name__}) plays {served}, not {name!r}"
            raise OptionError(msg)


@frozen
class Plan:
    """What a real-time agent means to do: *action* after *delay* seconds of reaction time."""

    action: Action
    delay: float


@runtime_checkable
class RealtimeAgent(Protocol):
    """A real-time player: plans its next action and how long it takes to react."""

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        """Return the next action with its reaction delay, or ``None`` to wait for a change.

        :param view: The seat's view.
        :param legal: The seat's legal actions: empty when the seat is in ``to_act`` but may
            do nothing now (in Speed, a seat whose cards fit neither centre pile once it
            has said it is stuck); return ``None`` then.
        :param now: The virtual time in seconds.
        """
        ...


class RandomAgent:
    """Picks uniformly among the legal actions; reacts after a seeded lognormal delay.

    :param seed: Seed of its own choices (independent of the game's seed): an int, or
        ``None`` for a fresh one from the operating system.
    :param reaction: Median reaction time in seconds (real-time games): at most 60 by name,
        at most 1e15 (the latest time a game records) built directly.
    :param spread: Sigma of the lognormal reaction time: at most 3 by name, at most 20
        built directly (a wider one would draw delays beyond a float's range).
    :raises OptionError: A seed that is not an int of at least 0 or ``None``, or a *reaction* or
        *spread* that is not a number in its range.
    """

    parameter_bounds: ClassVar[dict[str, tuple[float, float]]] = {
        "reaction": (0.0, 60.0),
        "spread": (0.0, 3.0),
    }
    """The range of each numeric parameter when the agent is built by name."""

    def __init__(self, seed: int | None = 0, *, reaction: float = 0.5, spread: float = 0.3) -> None:
        if seed is not None and (type(seed) is not int or seed < 0):  # (-1 would play as 1)
            msg = f"agent 'random': seed must be a whole number of at least 0, not {shown(seed, 40)}"
            raise OptionError(msg)
        self.reaction = _bounded("reaction", reaction, MAX_TIME)
        self.spread = _bounded("spread", spread, _MAX_SPREAD)
        self.seed = seed
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r}, reaction={self.reaction!r}, spread={self.spread!r})"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return a uniformly random legal action.

        :raises ArgumentError: *legal* is empty (the seat may not act now).
        """
        try:  # free on the hot path: only an empty *legal* pays for the message
            return legal[int(self.rng.random() * len(legal))]
        except IndexError:
            msg = "random has no legal action to choose from (its seat may not act now)"
            raise ArgumentError(msg) from None

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        """Plan a random legal action after a lognormal reaction time."""
        if not legal:
            return None
        action = legal[int(self.rng.random() * len(legal))]
        return Plan(action, self.reaction * math.exp(self.spread * self.rng.gauss(0.0, 1.0)))


_MAX_SPREAD = 20.0
"""The widest spread a RandomAgent takes: ``random.gauss`` draws at most about 8.6 sigmas
from its mean, and ``exp(20 * 8.6)`` times any reaction up to 1e15 is still a float."""


def _bounded(name: str, value: object, high: float) -> float:
    """*value* as a float from 0 to *high*, else OptionError naming parameter *name*."""
    try:  # float() of an int too large for a float raises OverflowError
        number = float(value) if type(value) is int or type(value) is float else math.nan
    except OverflowError:
        number = math.inf
    if not 0 <= number <= high:  # also refuses NaN
        msg = f"agent 'random': {name} must be a number from 0 to {high:g}, not {shown(value, 40)}"
        raise OptionError(msg)
    return number


def play(
    game: Game,
    agents: Sequence[Agent],
    *,
    max_actions: int | None = None,
    on_action: Callable[[Game, Action], object] | None = None,
) -> Result:
    """Play a turn-based *game* to its end with one agent per seat.

    Each agent gets its seat's :class:`LazyView` and legal actions, never the
    game; its action is applied with ``seen=`` the version of that view.

    :param game: The game (played in place).
    :param agents: One agent per seat.
    :param max_actions: Stop after this many actions and end the game as
        ``"truncated"``; default: the game's declared action bound.
    :param on_action: Called after each applied action.
    :returns: The game's :class:`~cardcore.Result`.
    :raises IllegalActionError: An agent answered something the game refuses (the
        message names its seat and class).
    :raises OptionError: Not one agent per seat, a real-time game, or an agent that declares
        other ``games`` (before the first move).
    """
    _check_run(game, agents, max_actions, "choose", on_action)
    if len(agents) != len(game.players):
        msg = f"need one agent per seat ({len(game.players)}), got {len(agents)}"
        raise OptionError(msg)
    if game.ruleset.game.realtime:
        msg = f"{game.name} is a real-time game: use run_realtime"
        raise OptionError(msg)
    _check_agents(agents, game)
    bound = (
        game.logic.action_bound(len(game.players), game.options)
        if max_actions is None
        else max_actions
    )
    legal_actions = game.legal_actions
    apply = game.apply
    steps = 0
    token = _lend(game)
    try:
        while not game.is_over:
            if steps >= bound:
                game.truncate()
                break
            seat = game.to_act[0]
            version = game.version
            legal = legal_actions(seat)
            if not legal:
                msg = (
                    f"seat {seat} is to act in {game.name} but has no legal action: the game"
                    " is stuck (a house rule may forbid every move)"
                )
                raise StalledGameError(msg)
            action = agents[seat].choose(_DeferredView(token, seat, version), legal)
            _own(agents, seat, action, legal, "answered")
            try:
                apply(action, seen=version)
            except IllegalActionError as exc:  # the agent answered no legal action
                msg = f"the agent at seat {seat} ({type(agents[seat]).__name__}) answered: {exc}"
                raise IllegalActionError(msg, action=action, rule_id=exc.rule_id) from exc
            steps += 1
            if on_action is not None:
                on_action(game, action)
    finally:
        _LENT.pop(token, None)
    result = game.result
    if result is None:  # pragma: no cover - truncate() or the game's end always sets it
        msg = f"{game.name} ended without a result"
        raise CardcoreError(msg)
    return result


def run_realtime(
    game: Game,
    agents: Sequence[RealtimeAgent],
    *,
    seed: int = 0,
    start: float = 0.0,
    max_actions: int | None = None,
    on_action: Callable[[Game, Action, float], object] | None = None,
) -> Result:
    """Play a real-time *game* on a virtual clock.

    Every agent keeps a plan: an action, its due time and the version of the
    view it planned from. The earliest due plan is applied with ``seen=`` that
    version (equal times broken by a seeded draw, never by seat). After each
    apply, agents whose planned action is no longer legal re-plan from the
    current time with a fresh draw (an overtaken plan is never sent); the others
    keep their due times (a kept plan made more than :data:`~cardcore.STALE_WINDOW`
    versions ago is sent with ``seen=`` the current version, since it was found
    legal after every step of the runner: never refused for its age; ``apply``
    judges it again), and one the game still refuses (stale or illegal) is planned
    again. An agent that planned nothing re-plans after every change; a seat with no
    legal action is asked only while it is in ``to_act``.

    :param seed: Seed of the tie-breaks, a whole number of at least 0 (``OptionError``).
    :param start: The virtual time at the start.
    :param max_actions: Stop there as ``"truncated"``; default: the game's bound.
    :param on_action: Called with (game, action, time) after each applied action.
    :raises StalledGameError: If nobody plans anything and the game is not over.
    :raises CardcoreError: An agent's plan is neither ``None`` nor a :class:`Plan` of an
        action and a finite delay (the message names its seat and class).
    """
    _check_run(game, agents, max_actions, "plan", on_action)
    if type(seed) is not int or seed < 0 or type(start) not in (int, float) or not abs(start) <= 1e15:
        msg = f"seed must be a whole number of at least 0 and start a finite time, not {shown(seed, 40)} and {shown(start, 40)}"
        raise OptionError(msg)
    n = len(game.players)
    if len(agents) != n:
        msg = f"need one agent per seat ({n}), got {len(agents)}"
        raise OptionError(msg)
    _check_agents(agents, game)
    with lend_views(game) as views:
        return _run_realtime(game, agents, views, seed, start, max_actions, on_action)


def _run_realtime(
    game: Game,
    agents: Sequence[RealtimeAgent],
    views: Callable[[int], LazyView],
    seed: int,
    start: float,
    max_actions: int | None,
    on_action: Callable[[Game, Action, float], object] | None,
) -> Result:
    n = len(game.players)
    ties = derive_rng(seed, 1)
    bound = game.logic.action_bound(n, game.options) if max_actions is None else max_actions
    now = max(start, game._last_at)  # never before the game's last recorded time
    plans: list[tuple[float, Action, int] | None] = [None] * n

    def replan(seat: int) -> None:
        view = views(seat)
        seen = game.version  # the version of the view this plan is made from
        legal = game.legal_actions(seat)
        plan = agents[seat].plan(view, legal, now) if legal or seat in game.to_act else None
        if plan is None:
            plans[seat] = None
            return
        plans[seat] = (*_checked_plan(agents, seat, plan, legal, now), seen)

    for seat in range(n if bound > 0 else 0):  # none asked for a position nobody plays
        replan(seat)
    steps = rejected = 0
    while not game.is_over:
        if steps >= bound:
            game.truncate()
            break
        due = [(p[0], seat) for seat, p in enumerate(plans) if p is not None]
        if not due:
            able = [s for s in range(n) if game.legal_actions(s)]
            why = (
                f"no agent plans an action (seats with legal actions: {able})"
                if able
                else "nobody can act and no automatic step applies"
            )
            msg = f"{game.name} stalls at version {game.version}: {why} (CORE-RT-2)"
            raise StalledGameError(msg)
        first = min(t for t, _ in due)
        tied = [seat for t, seat in due if t == first]
        seat = tied[int(ties.random() * len(tied))] if len(tied) > 1 else tied[0]
        planned = plans[seat]
        if planned is None:  # pragma: no cover - chosen among the seats with a plan
            continue
        now, action, seen = planned
        if seen < game.version - STALE_WINDOW:  # kept, so checked legal after every change
            seen = game.version  # since: sent as seen now, not refused for its age (CORE-RT-3)
        try:
            game.apply(action, at=now, seen=seen)
        except IllegalActionError as exc:  # stale (overtaken) or never legal: plan again
            rejected += 1
            if rejected > bound:
                msg = (
                    f"agents keep planning rejected actions in {game.name} at version"
                    f" {game.version}; the last, of the agent at seat {seat}"
                    f" ({type(agents[seat]).__name__}): {exc} (CORE-RT-2)"
                )
                raise StalledGameError(msg) from exc
            replan(seat)
            continue
        steps += 1
        rejected = 0  # counted per version: a long game's stale races add up to no stall
        if on_action is not None:
            on_action(game, action, now)
        if steps >= bound:  # truncated at the loop's head: nobody plans a position unplayed
            continue
        for other in range(n):
            p = plans[other]
            if other == seat or p is None or p[1] not in game.legal_actions(other):
                replan(other)
    result = game.result
    if result is None:  # pragma: no cover - truncate() or the game's end always sets it
        msg = f"{game.name} ended without a result"
        raise CardcoreError(msg)
    return result


def _seconds(delay: object) -> float:
    """A plan's *delay* as a float, NaN when it is no real number or none a float can hold."""
    if type(delay) is float:
        return delay
    if not isinstance(delay, numbers.Real) or isinstance(delay, bool):
        return math.nan
    try:  # an int past a float's range overflows; another library's number may raise
        if isinstance(delay, int):  # int's and float's own methods, never a subclass's
            return float(int.__index__(delay))
        return float.__float__(delay) if isinstance(delay, float) else float(delay)
    except Exception:
        return math.nan


def _checked_plan(
    agents: Sequence[object], seat: int, plan: object, legal: Sequence[Action], now: float
) -> tuple[float, Action]:
    """The time *plan* (not ``None``) of the agent at *seat* falls due and its action, checked
    as :func:`run_realtime` checks them (the terminal's real-time loop too).

    :raises CardcoreError: Not a :class:`Plan` of an action and a finite delay, or due past
        the latest time a game records.
    :raises IllegalActionError: An action of another seat (CORE-TURN-1).
    """
    action: Any = getattr(plan, "action", None)
    delay = _seconds(getattr(plan, "delay", None))
    if not isinstance(action, Action) or not math.isfinite(delay):
        msg = (
            f"the agent at seat {seat} ({type(agents[seat]).__name__}) planned"
            f" {shown(plan, 200)}: a plan is a Plan of an action and a finite delay in"
            " seconds, or None"
        )
        raise CardcoreError(msg)
    _own(agents, seat, action, legal, "planned")
    due = now + max(0.0, delay)
    if due > MAX_TIME:
        msg = (
            f"the agent at seat {seat} ({type(agents[seat]).__name__}) planned"
            f" {shown(plan, 200)}: due at {due:g} s, past the latest time a game records"
            f" ({MAX_TIME:g} s)"
        )
        raise CardcoreError(msg)
    return due, action


def _own(
    agents: Sequence[object], seat: int, action: object, legal: Sequence[Action], did: str
) -> None:
    """Refuse an agent's action for another seat: an agent plays its own seat only (a
    ``Resign`` of another seat was applied, since resigning is always allowed). One the
    game itself offered in *legal* is left to ``apply``, which names the game."""
    if isinstance(action, Action) and action.seat != seat and all(a is not action for a in legal):
        try:
            text = repr(str(action))
        except Exception:  # an action its class cannot write
            text = shown(action)
        msg = (
            f"the agent at seat {seat} ({type(agents[seat]).__name__}) {did} {text}, an action"
            f" of seat {shown(action.seat)}: an agent acts for its own seat only (CORE-TURN-1)"
        )
        raise IllegalActionError(msg, action=action, rule_id="CORE-TURN-1")
