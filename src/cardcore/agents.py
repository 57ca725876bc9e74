"""Agents and the loops that let them play.

An agent sees only its seat's view and legal actions, never the full state.
Turn-based games run with :func:`play`; real-time games with
:func:`run_realtime`, a virtual clock on which every agent keeps a plan
(action, due time, version seen) drawn from its seeded reaction times.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from attrs import frozen

from cardcore.actions import Action
from cardcore.deck import derive_rng
from cardcore.errors import IllegalActionError, StalledGameError
from cardcore.state import Result

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["Agent", "LazyView", "Plan", "RandomAgent", "RealtimeAgent", "play", "run_realtime"]


class LazyView(Mapping[str, Any]):
    """A seat's view, built only when an agent first reads it.

    Random agents never look, so simulations do not pay for views they ignore.
    """

    __slots__ = ("_data", "_game", "_seat")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self._seat = seat
        self._data: dict[str, Any] | None = None

    def _get(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._game.view(self._seat)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


@runtime_checkable
class Agent(Protocol):
    """A turn-based player: picks one of the legal actions from what its seat may see."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return one of *legal*.

        :param view: The seat's view (see :meth:`cardcore.Game.view`).
        :param legal: The seat's legal actions, never empty.
        """
        ...


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
        :param legal: The seat's legal actions (may be empty).
        :param now: The virtual time in seconds.
        """
        ...


class RandomAgent:
    """Picks uniformly among the legal actions; reacts after a seeded lognormal delay.

    :param seed: Seed of its own choices (independent of the game's seed).
    :param reaction: Median reaction time in seconds (real-time games).
    :param spread: Sigma of the lognormal reaction time.
    """

    def __init__(self, seed: int | None = 0, *, reaction: float = 0.5, spread: float = 0.3) -> None:
        self.rng = random.Random(seed)
        self.reaction = reaction
        self.spread = spread

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return a uniformly random legal action."""
        return legal[int(self.rng.random() * len(legal))]

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        """Plan a random legal action after a lognormal reaction time."""
        if not legal:
            return None
        action = legal[int(self.rng.random() * len(legal))]
        return Plan(action, self.reaction * math.exp(self.spread * self.rng.gauss(0.0, 1.0)))


def play(
    game: Game,
    agents: Sequence[Agent],
    *,
    max_actions: int | None = None,
    on_action: Callable[[Game, Action], object] | None = None,
) -> Result:
    """Play a turn-based *game* to its end with one agent per seat.

    :param game: The game (played in place).
    :param agents: One agent per seat.
    :param max_actions: Stop after this many actions and end the game as
        ``"truncated"``; default: the game's declared action bound.
    :param on_action: Called after each applied action.
    :returns: The game's :class:`~cardcore.Result`.
    """
    if len(agents) != len(game.players):
        msg = f"need one agent per seat ({len(game.players)}), got {len(agents)}"
        raise ValueError(msg)
    if game.ruleset.game.realtime:
        msg = f"{game.name} is a real-time game: use run_realtime"
        raise ValueError(msg)
    bound = (
        game.logic.action_bound(len(game.players), game.options)
        if max_actions is None
        else max_actions
    )
    state = game.state
    legal_actions = game.legal_actions
    apply = game.apply
    steps = 0
    while not game.is_over:
        if steps >= bound:
            game.truncate()
            break
        seat = game.to_act[0]
        legal = legal_actions(seat)
        action = agents[seat].choose(LazyView(game, seat), legal)
        apply(action)
        steps += 1
        if on_action is not None:
            on_action(game, action)
        state = game.state
    del state
    result = game.result
    assert result is not None
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

    Every agent keeps a plan: an action, its due time and the version it saw.
    The earliest due plan is applied (equal times broken by a seeded draw,
    never by seat). After each apply, agents whose planned action is no longer
    legal re-plan from the current time with a fresh draw; the others keep
    their due times. An agent that planned nothing re-plans after every change.

    :param seed: Seed of the tie-breaks.
    :param start: The virtual time at the start.
    :param max_actions: Stop there as ``"truncated"``; default: the game's bound.
    :param on_action: Called with (game, action, time) after each applied action.
    :raises StalledGameError: If nobody plans anything and the game is not over.
    """
    n = len(game.players)
    if len(agents) != n:
        msg = f"need one agent per seat ({n}), got {len(agents)}"
        raise ValueError(msg)
    ties = derive_rng(seed, 1)
    bound = game.logic.action_bound(n, game.options) if max_actions is None else max_actions
    now = start
    plans: list[tuple[float, Action, int] | None] = [None] * n

    def replan(seat: int) -> None:
        legal = game.legal_actions(seat)
        seen = game.version
        plan = (
            agents[seat].plan(LazyView(game, seat), legal, now)
            if legal or seat in game.to_act
            else None
        )
        plans[seat] = None if plan is None else (now + max(0.0, plan.delay), plan.action, seen)

    for seat in range(n):
        replan(seat)
    steps = rejected = 0
    while not game.is_over:
        if steps >= bound:
            game.truncate()
            break
        due = [(p[0], seat) for seat, p in enumerate(plans) if p is not None]
        if not due:
            msg = f"nobody can act in {game.name} at version {game.version} and no automatic step applies"
            raise StalledGameError(msg)
        first = min(t for t, _ in due)
        tied = [seat for t, seat in due if t == first]
        seat = tied[int(ties.random() * len(tied))] if len(tied) > 1 else tied[0]
        planned = plans[seat]
        assert planned is not None
        now, action, seen = planned
        try:
            game.apply(action, at=now, seen=seen)
        except IllegalActionError:
            rejected += 1
            if rejected > bound:
                msg = f"agents keep planning rejected actions in {game.name} at version {game.version}"
                raise StalledGameError(msg) from None
            replan(seat)
            continue
        steps += 1
        if on_action is not None:
            on_action(game, action, now)
        for other in range(n):
            p = plans[other]
            if other == seat or p is None or p[1] not in game.legal_actions(other):
                replan(other)
    result = game.result
    assert result is not None
    return result
