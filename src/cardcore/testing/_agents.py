"""The kit's agent, and the public one-game assertions of :mod:`cardcore.testing`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore._text import shown
from cardcore.actions import Action
from cardcore.agents import Plan, RandomAgent
from cardcore.errors import ArgumentError
from cardcore.game import Game
from cardcore.state import GameState
from cardcore.testing._report import Abort, Report
from cardcore.testing._structure import view_problems
from cardcore.testing._util import (
    conservation_problem,
    contains_seed,
    game_words,
    known_cards,
    view_leaks,
)
from cardcore.zones import Zones

__all__ = ["SpyAgent", "assert_conserved", "assert_view_known", "assert_view_structure"]


def assert_conserved(game: Game) -> None:
    """Raise :class:`AssertionError` unless the cards on the table are exactly the game's deck.

    :param game: Any game; its privileged state is read.
    :raises ArgumentError: *game* is not a :class:`~cardcore.Game`.
    """
    if not issubclass(type(game), Game):
        raise ArgumentError(f"assert_conserved takes a Game, not {shown(game)}")
    problem = conservation_problem(game, None)
    if problem is not None:
        raise AssertionError(problem)


def assert_view_known(game: Game, seat: int | None) -> None:
    """Raise :class:`AssertionError` if *seat*'s view shows a card it does not know now.

    The view's ``table`` and ``zones`` are read. Only knowledge of where cards
    lie *now* counts; past rounds belong in :meth:`cardcore.Game.history`,
    which :func:`check_views` checks against what each seat has ever seen.

    :param seat: A seat, or ``None`` for the spectator view.
    :raises ArgumentError: *game* is not a :class:`~cardcore.Game` (a bad *seat*: as
        :meth:`~cardcore.Game.view` raises).
    """
    if not issubclass(type(game), Game):
        raise ArgumentError(f"assert_view_known takes a Game, not {shown(game)}")
    view = game.view(seat)
    extra = view_leaks(game, view, known_cards(game.state, seat), game_words(game))
    if extra:
        msg = f"view of seat {seat} shows cards it does not know: {sorted(extra)!r}"
        raise AssertionError(msg)


def assert_view_structure(game: Game, seat: int | None) -> None:
    """Raise :class:`AssertionError` if *seat*'s view breaks the game's declared structure.

    Every key of ``table`` must be declared in ``GameInfo.fields`` with a
    matching kind, and ``zones`` must list the layout's piles with their true
    counts and only the cards really there.

    :param seat: A seat, or ``None`` for the spectator view.
    :raises ArgumentError: *game* is not a :class:`~cardcore.Game` (a bad *seat*: as
        :meth:`~cardcore.Game.view` raises).
    """
    if not issubclass(type(game), Game):
        raise ArgumentError(f"assert_view_structure takes a Game, not {shown(game)}")
    problems = view_problems(game, game.view(seat), seat)
    if problems:
        raise AssertionError("; ".join(problems))


class SpyAgent:
    """A random agent that checks it is only ever handed a view, never the game or its state.

    :param seat: The seat it plays.
    :param seed: Seed of its choices.
    :param report: Where failures go.
    :param look: Materialise and inspect the view on every 10th call (else every 200th).
    :param pool: Collects every legal action it is offered, in the order first offered (for
        hostile inputs): a dict used as an ordered set; a ``set`` works, but a set of actions
        hashed by identity iterates in another order per process.
    :param secret: The game's seed, which no view may contain.
    :param check: Whether to check what it is handed at all (the ``agents`` check); without
        it, it only plays, fills *pool* and reports a seat left with no legal action.
    """

    def __init__(
        self,
        seat: int,
        seed: int,
        report: Report,
        *,
        look: bool = True,
        pool: dict[Action, None] | None = None,
        secret: int | None = None,
        check: bool = True,
    ) -> None:
        self.seat = seat
        self.inner = RandomAgent(seed, reaction=0.3, spread=0.5)
        self.report = report
        self.look = look
        self.pool = pool
        self.secret = secret
        self.check = check
        self.calls = 0

    def _inspect(self, view: Any, legal: Sequence[Action]) -> None:
        self.calls += 1
        if not self.check:
            if self.pool is not None:
                self.pool.update(dict.fromkeys(legal))
            return
        report = self.report
        if isinstance(view, Game | GameState | Zones) or not isinstance(view, Mapping):
            report.fail(
                f"agent of seat {self.seat} was handed {type(view).__name__}, not a view mapping"
            )
            return
        if self.pool is not None:
            self.pool.update(dict.fromkeys(legal))
        for action in legal:
            if not isinstance(action, Action) or action.seat != self.seat:
                report.fail(
                    f"agent of seat {self.seat} was offered {action!r}, not an action of its own seat"
                )
                return
        if self.calls % (10 if self.look else 200) != 1:
            return
        data = dict(view)
        try:
            json.dumps(data)
        except (TypeError, ValueError) as exc:
            report.fail(f"view handed to seat {self.seat} is not JSON-ready: {exc}")
        if data.get("seat") != self.seat:
            report.fail(
                f"agent of seat {self.seat} was handed the view of seat {data.get('seat')!r}"
            )
        if self.secret is not None:
            where = contains_seed(data, self.secret)
            if where is not None:
                report.leaks += 1
                report.fail(f"view handed to seat {self.seat} carries the seed at {where}")

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Check the arguments, then pick a random legal action."""
        self._inspect(view, legal)
        if not legal:
            self.report.fail(
                f"seat {self.seat} is to act but has no legal action (the game is stuck)"
            )
            raise Abort
        return self.inner.choose(view, legal)

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        """Check the arguments, then plan a random legal action (real-time games)."""
        self._inspect(view, legal)
        return self.inner.plan(view, legal, now)
