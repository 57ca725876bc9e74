"""Playing the games of a comparison: the picklable unit of work sent to executors.

A task is one game of one configuration: its seed comes from the study seed and
the game's index only (the same for both configurations), its agents' seeds
from the game's seed and the seat. Nothing here keeps state between tasks, so
any :class:`concurrent.futures.Executor` (threads, processes, a Dask client's)
can run them in any order.
"""

from __future__ import annotations

import hashlib
import math
import numbers
from collections.abc import Mapping, Sequence
from time import perf_counter
from typing import TYPE_CHECKING, Any

from attrs import frozen

from cardcore._text import shown
from cardcore.actions import Action
from cardcore.agents import Plan, play, run_realtime
from cardcore.errors import CardcoreError, IllegalActionError, PluginError, StalledGameError
from cardcore.plugins import load_agent, parse_agent_spec
from cardcore.setup import new_game
from cardcore.simulate import _seed_of

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["AgentFailure", "Config", "GameRecord", "Task", "run_chunk", "run_one"]


@frozen
class Config:
    """One side of a comparison: rules, default rules switched off, options and agents per seat."""

    label: str
    rules: tuple[str, ...]
    without: tuple[str, ...]
    options: Mapping[str, Any]
    agents: tuple[str, ...]


@frozen
class GameRecord:
    """What one game of a comparison produced (small, picklable).

    :param side: 0 for configuration A, 1 for B.
    :param probe: Whether this is a skill-probe game (the strong agent at ``strong``).
    :param strong: The strong agent's seat in a probe game, else -1.
    :param lineup: The rotation of the line-up (seat *s* plays agent ``(s + lineup) % n``).
    :param first: The seat to act first after the deal (seat 0 in real time).
    :param overruns: Per seat, decisions that took longer than the move time.
    :param slowest: Per seat, the longest decision in seconds.
    :param seconds: Per seat, the time spent deciding.
    :param decisions: Per seat, the decisions made.
    :param deal: A digest of every pile right after the deal.
    """

    side: int
    probe: bool
    index: int
    seed: int
    strong: int
    lineup: int
    first: int
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str
    actions: int
    rounds: int
    overruns: tuple[int, ...]
    slowest: tuple[float, ...]
    seconds: tuple[float, ...]
    decisions: tuple[int, ...]
    deal: int = 0
    """A digest of every pile right after the deal (the same in every process): game *i* of
    A and of B were dealt alike when theirs are equal."""


Task = tuple[str, int, Config, int, bool, int, int, "tuple[str, str] | None", "float | None"]
"""``(game, players, config, side, probe, study_seed, index, skill agents, move time)``."""


class AgentFailure(CardcoreError):
    """An agent raised while deciding; the message names its seat and spec."""


class _Seat:
    """An agent with a stopwatch: counts its decisions, their time and the overruns."""

    __slots__ = ("agent", "decisions", "limit", "overruns", "seat", "seconds", "slowest", "spec")

    def __init__(self, agent: Any, seat: int, spec: str, limit: float | None) -> None:
        self.agent = agent
        self.seat = seat
        self.spec = spec
        self.limit = math.inf if limit is None else limit
        self.decisions = 0
        self.overruns = 0
        self.seconds = 0.0
        self.slowest = 0.0

    def _fail(self, exc: Exception) -> AgentFailure:
        msg = f"agent {self.spec!r} at seat {self.seat} raised {type(exc).__name__}: {exc}"
        return AgentFailure(msg)

    def _count(self, started: float) -> None:
        took = perf_counter() - started
        self.decisions += 1
        self.seconds += took
        if took > self.slowest:
            self.slowest = took
        if took > self.limit:
            self.overruns += 1

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if not legal:
            msg = "a seat is to act but has no legal action: the game is stuck"
            raise StalledGameError(msg)
        started = perf_counter()
        try:
            action: Action = self.agent.choose(view, legal)
        except Exception as exc:
            raise self._fail(exc) from exc
        self._count(started)
        if not isinstance(action, Action) or action not in legal:  # (an array has no "in")
            msg = (
                f"agent {self.spec!r} at seat {self.seat} answered {shown(action, 80)},"
                " not one of its legal actions"
            )
            raise AgentFailure(msg)
        return action

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        started = perf_counter()
        try:
            plan: Plan | None = self.agent.plan(view, legal, now)
        except Exception as exc:
            raise self._fail(exc) from exc
        self._count(started)
        if plan is None:
            return None
        action, delay = getattr(plan, "action", None), getattr(plan, "delay", None)
        if (
            not isinstance(action, Action)
            or action not in legal
            or not isinstance(delay, numbers.Real)
            or isinstance(delay, bool)
            or not math.isfinite(delay)
        ):
            msg = (
                f"agent {self.spec!r} at seat {self.seat} planned {shown(plan, 80)},"
                " not a Plan of one of its legal actions and a finite delay in seconds"
            )
            raise AgentFailure(msg)
        return plan


def make_agent(spec: str, seed: int) -> Any:
    """Agent *spec* seeded with *seed*, unless the spec sets its own seed."""
    name, params = parse_agent_spec(spec)
    params.setdefault("seed", seed)
    return load_agent(name, **params)


def lineup_for(task: Task) -> tuple[list[str], int, int]:
    """The agent spec of every seat, the rotation and the strong seat (-1) of *task*'s game."""
    _, players, config, _, probe, _, index, skill, _ = task
    if probe and skill is not None:
        strong = index % players
        return [skill[0] if s == strong else skill[1] for s in range(players)], 0, strong
    agents = config.agents
    turn = index % players if len(set(agents)) > 1 else 0  # mixed line-ups rotate seats
    return [agents[(s + turn) % players] for s in range(players)], turn, -1


def _left_of_dealer(game: Game) -> int:
    """The first seat of a game nobody acts in after the deal (it ended there, as a Tonk
    natural): left of the dealer its table names, else seat 0."""
    try:
        dealer = game.view(None)["table"].get("dealer")
    except Exception:  # a game's own table: whatever it holds
        return 0
    return (dealer + 1) % len(game.players) if type(dealer) is int else 0


def run_one(task: Task) -> GameRecord:
    """Play one game of a comparison."""
    name, players, config, side, probe, study, index, _, limit = task
    seed = _seed_of(study, index)
    specs, turn, strong = lineup_for(task)
    game = new_game(
        name, players, rules=config.rules, without=config.without, options=config.options, seed=seed
    )
    piles = " | ".join(" ".join(c.text for c in pile) for pile in game.state.zones.cards)
    deal = int.from_bytes(hashlib.blake2b(piles.encode(), digest_size=8).digest(), "big")
    to_act = game.to_act  # several in real time: seat 0; none when the deal ended the game
    first = to_act[0] if len(to_act) == 1 else 0 if to_act else _left_of_dealer(game)
    seats = [
        _Seat(make_agent(spec, _seed_of(seed, 1000 + s)), s, spec, limit)
        for s, spec in enumerate(specs)
    ]
    try:
        if game.ruleset.game.realtime:
            result = run_realtime(game, seats, seed=seed)
        else:
            result = play(game, seats)
        reason = result.reason
    except StalledGameError:
        game.truncate()
        reason = "stalled"
    except CardcoreError as exc:
        where = "probe" if probe else "game"
        msg = f"configuration {config.label}, {where} {index} (seed {seed}): {exc}"
        if isinstance(exc, PluginError):  # its kind kept (each a CardcoreError, as documented)
            raise PluginError(msg, plugin=exc.plugin) from exc
        if isinstance(exc, IllegalActionError):
            raise IllegalActionError(msg, action=exc.action, rule_id=exc.rule_id) from exc
        raise (AgentFailure if isinstance(exc, AgentFailure) else CardcoreError)(msg) from exc
    final = game.result
    if final is None:  # pragma: no cover - play and truncate always end the game
        msg = f"{name} game {index} ended without a result"
        raise CardcoreError(msg)
    rounds = game.logic.rounds_played(game.state)
    if not rounds and reason not in ("truncated", "stalled"):
        rounds = 1  # a game that ended by its rules ended its round (Go Fish keeps no history)
    return GameRecord(
        side=side,
        probe=probe,
        index=index,
        seed=seed,
        strong=strong,
        first=first,
        lineup=turn,
        winners=final.winners,
        scores=tuple(float(x) for x in final.scores),
        reason=reason,
        actions=game.version,
        rounds=rounds,
        overruns=tuple(s.overruns for s in seats),
        slowest=tuple(s.slowest for s in seats),
        seconds=tuple(s.seconds for s in seats),
        decisions=tuple(s.decisions for s in seats),
        deal=deal,
    )


def run_chunk(chunk: tuple[Task, int]) -> list[GameRecord]:
    """Play several games (one executor task): *chunk* is the first game's task and the
    index after the last, so a chunk is a few hundred bytes whatever its size."""
    task, stop = chunk
    head, tail = task[:6], task[7:]
    return [run_one((*head, i, *tail)) for i in range(task[6], stop)]
