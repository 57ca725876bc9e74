"""Information-set Monte Carlo tree search that sees only its seat's view: :class:`ISMCTSAgent`.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree per
decision, its edges keyed by the actions' notation. Every iteration

1. samples a position consistent with the seat's view
   (:func:`~cardcore.search.sample_position`) and starts it with
   ``new_game(position=..., seed=<the agent's own stream>)``;
2. descends the tree with UCB1 among the actions legal in that sample,
   counting each edge's availability, until it adds one new edge;
3. plays on (the game's ``rollout_action``, else uniformly at random) until
   the current round or hand ends (``GameLogic.rounds_played`` grows), the
   game ends, or ``max_rollout`` actions were played;
4. scores the end with ``GameLogic.utility`` (each seat's standing less the
   mean of the others') and backs the scores up the path, each edge keeping
   the score of the seat that took it.

It picks the most visited of its legal actions. It never holds the real game
or its seed, so it could run in another process; it is deterministic for a
given seed and iteration budget.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from time import perf_counter
from typing import Any, ClassVar

from cardcore._text import plain, shown
from cardcore._unasked import QUIET
from cardcore.actions import Action
from cardcore.agents import Plan
from cardcore.errors import ArgumentError, CardcoreError, OptionError, PluginError
from cardcore.game import Game
from cardcore.logic import GameLogic
from cardcore.search.sampling import ViewConfig, sample_of, view_config
from cardcore.setup import new_game

__all__ = ["ISMCTSAgent"]

ATTEMPTS = 20
"""Samples tried per iteration before a view counts as impossible to sample."""

Key = tuple[Any, ...]
"""An edge of the tree: the acting seat and the action's notation (and, below the root, what
the agent's seat sees when it acts there)."""


class _Node:
    """One edge of the tree: the action that led here and its statistics."""

    __slots__ = ("avail", "children", "seat", "squares", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who took the action leading here
        self.children: dict[Key, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.squares = 0.0  # of the scores, for the final choice's confidence

    def spread(self) -> float:
        """The variance of the mean score (0 with fewer than two visits)."""
        n = self.visits
        if n < 2:
            return 0.0
        mean = self.total / n
        return max(0.0, (self.squares / n - mean * mean) / (n - 1))


def _key(action: Action) -> Key:
    return (action.seat, str(action))


def _observation(state: Any, seat: int) -> tuple[tuple[str | None, ...], ...]:
    """What *seat* sees of every pile of a sample (cards, ``None`` hidden)."""
    zones = state.zones
    show = zones.show
    return tuple([tuple(show(z, seat)) for z in range(len(zones.cards))])


def _positive_int(name: str, value: Any, *, none: bool = False) -> int | None:
    if value is None and none:
        return None
    if type(value) is not int or value < 1:
        msg = f"agent 'ismcts': {name} must be a whole number of at least 1, not {shown(value)}"
        raise OptionError(msg)
    return int(value)


def _number(
    name: str, value: Any, low: float, *, none: bool = False, strict: bool = False
) -> float | None:
    if value is None and none:
        return None
    # an int too large for a float (10**5000) is no number a float could hold
    ok = type(value) is float or (type(value) is int and value.bit_length() <= 1000)
    ok = ok and math.isfinite(value)
    if not ok or value < low or (strict and value == low):
        bound = f"more than {low:g}" if strict else f"at least {low:g}"
        msg = f"agent 'ismcts': {name} must be a number {bound}, not {shown(value)}"
        raise OptionError(msg)
    return float(value)


class ISMCTSAgent:
    """Information-set MCTS from the seat's view alone; works with every game and house rule.

    :param seed: Seed of its samples and choices (independent of the game's seed).
    :param iterations: Tree iterations per decision, each on a fresh sample (one sample
        per *reuse* iterations); ``None`` with *time*, for a budget of time alone.
    :param time: Seconds per decision (wall clock); with *iterations* (200 unless given),
        whichever ends first.
        Only an iteration budget makes the agent deterministic.
    :param c: UCB1 exploration constant (scores are scaled to 0..1 within a search).
    :param rollout: ``"game"``: the game's ``rollout_action`` where it has one, else
        random; ``"random"``: always uniformly random.
    :param max_rollout: The most actions a rollout plays before it is scored.
    :param depth: The deepest the tree grows, in actions from the root (``None``: no
        limit); below it the rollout policy plays. ``depth=1`` is flat UCB over the root's
        actions with policy rollouts.
    :param prior: With a game rollout policy, the policy's own choice at the root stands
        unless the search's best action beats its mean score by more than this many standard
        errors (0: always the most visited action). Mean scores are compared as the rollouts
        scored them, before any scaling to 0..1. After each decision the agent's
        ``last_iterations`` holds how many iterations it ran.
    :param reuse: Iterations per sample: the sample is drawn once and each of these
        iterations searches a copy (``Game.clone``), so drawing and reading positions is paid
        once and the root's actions are compared on the same cards (common random numbers).
    :param observe: Below the root, tell the agent's own decisions apart by what its seat
        sees there (a drawn card, a revealed one), rather than sharing one edge per action.
    :param reaction: Real-time games: median reaction delay in seconds of a plan.
    :param spread: Real-time games: sigma of the lognormal reaction delay.

    Built by name (:func:`cardcore.load_agent`, ``--agents``, the web lobby), its
    parameters are bounded (:attr:`parameter_bounds`): at most 2,000 iterations and 2
    seconds a decision, rollouts of at most 1,000 actions. 1,000 iterations take about
    0.25-0.65 s in Golf and Tonk, 1.3 s in Go Fish and 1.5-2 s in Spit (long rollouts)
    on one core of a 2-CPU machine (measured with ``benchmarks/ismcts_time.py``: see the
    search-agents page), so a time budget is the one that bounds every game.
    """

    parameter_bounds: ClassVar[dict[str, tuple[float, float]]] = {
        "iterations": (1, 2_000),
        "time": (0.0, 2.0),
        "c": (0.0, 100.0),
        "max_rollout": (1, 1_000),
        "depth": (1, 1_000),
        "prior": (0.0, 100.0),
        "reuse": (1, 2_000),
        "reaction": (0.0, 60.0),
        "spread": (0.0, 3.0),
    }
    """The range of each numeric parameter when the agent is built by name
    (:func:`cardcore.load_agent` refuses a value outside it)."""

    def __init__(
        self,
        seed: int | None = 0,
        *,
        iterations: int | None = 200,
        time: float | None = None,
        c: float = 0.7,
        rollout: str = "game",
        max_rollout: int = 500,
        observe: bool = True,
        depth: int | None = None,
        prior: float = 1.0,
        reuse: int = 1,
        reaction: float = 0.5,
        spread: float = 0.3,
    ) -> None:
        if seed is not None and (type(seed) is not int or seed < 0):  # (-1 would play as 1)
            msg = f"agent 'ismcts': seed must be a whole number of at least 0, not {shown(seed)}"
            raise OptionError(msg)
        self.iterations = _positive_int("iterations", iterations, none=True)
        self.time = _number("time", time, 0.0, none=True, strict=True)
        if self.iterations is None and self.time is None:
            msg = "agent 'ismcts' needs a budget: iterations, time or both"
            raise OptionError(msg)
        self.c = float(_number("c", c, 0.0) or 0.0)
        rollout = plain(rollout)  # a str subclass could compare its own way
        if type(rollout) is not str or rollout not in ("game", "random"):
            msg = f"agent 'ismcts': rollout must be 'game' or 'random', not {shown(rollout)}"
            raise OptionError(msg)
        self.rollout = rollout
        self.max_rollout = int(_positive_int("max_rollout", max_rollout) or 1)
        if type(observe) is not bool:
            msg = f"agent 'ismcts': observe must be true or false, not {shown(observe)}"
            raise OptionError(msg)
        self.observe = observe
        self.depth = _positive_int("depth", depth, none=True) or 1_000_000
        self.prior = float(_number("prior", prior, 0.0) or 0.0)
        self.reuse = int(_positive_int("reuse", reuse) or 1)
        # 0 plays at once, as the random agent's (its parameter_bounds start at 0)
        self.reaction = float(_number("reaction", reaction, 0.0) or 0.0)
        self.spread = float(_number("spread", spread, 0.0) or 0.0)
        self.seed = seed
        self.rng = random.Random(seed)
        self.last_iterations = 0
        """Iterations of the last search (for reports)."""
        self._lo = math.inf
        self._hi = -math.inf

    # -- the protocols --------------------------------------------------------------------------

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return the most visited of *legal* after searching from samples of *view*."""
        return self.search(view, legal)

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        """Real time: the searched action after a seeded lognormal reaction delay.

        The search is the same as for turn-based games, with the acting seat at
        every step of a sample drawn uniformly among the seats that have a legal
        action (and the agent's own seat first). The search's own computing time
        is not charged to the virtual clock; only the reaction delay is.
        ``None`` when the seat has no legal action (it waits for a change).
        """
        if not legal:
            return None
        action = self.search(view, legal, realtime=True)
        delay = self.reaction * math.exp(self.spread * self.rng.gauss(0.0, 1.0))
        return Plan(action, delay)

    # -- the search -----------------------------------------------------------------------------

    def search(
        self, view: Mapping[str, Any], legal: Sequence[Action], *, realtime: bool = False
    ) -> Action:
        """Search from samples of *view* and return the most visited of *legal*.

        :raises CardcoreError: The view cannot be sampled (see
            :func:`~cardcore.search.sample_position`), or no sample lets the seat act.
        :raises PluginError: The game failed in a sampled world (its search hooks, called
            directly, named with the game).
        :raises ArgumentError: *view* is not a seat's view (a spectator's has no seat),
            or *legal* is not a list of :class:`~cardcore.Action` objects, or is empty.
        """
        if (
            isinstance(legal, str | bytes)
            or not isinstance(legal, Sequence)
            or not all(isinstance(a, Action) for a in legal)
        ):
            msg = f"ismcts chooses among a list of legal Action objects, not {shown(legal)}"
            raise ArgumentError(msg)
        config = view_config(view)
        seat = view.get("seat")
        if type(seat) is not int or not 0 <= seat < config.players:
            msg = f"ismcts needs a seat's view (seat 0 to {config.players - 1}), not one of seat {shown(seat)}"
            raise ArgumentError(msg)
        if not legal:  # a finished game's view, or another seat's turn: nothing to choose
            msg = "ismcts has no legal action to choose from (its seat may not act now)"
            raise ArgumentError(msg)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        by_key = {_key(a): a for a in legal}
        root = _Node(seat)
        self._lo = math.inf
        self._hi = -math.inf
        rng = self.rng
        budget = self.iterations
        deadline = None if self.time is None else perf_counter() + self.time
        done = 0
        reuse = self.reuse
        default: Key | None = None
        while budget is None or done < budget:
            if deadline is not None and done and perf_counter() >= deadline:
                break
            if done % reuse == 0:
                base = self._sample(view, config, seat, rng)
                game = base.clone() if reuse > 1 else base
            else:
                game = base.clone()
            try:
                if not done:
                    default = self._default(game, seat, by_key)
                self._iterate(game, root, by_key, seat, rng, realtime)
            except CardcoreError:
                raise
            except Exception as exc:  # a search hook (rollout_action, utility, rounds_played)
                self.last_iterations = done
                what = f"{type(exc).__name__}: {exc}"[:200]
                msg = f"{config.game}'s search hooks failed in a sampled world: {what}"
                raise PluginError(msg, plugin=config.game) from exc
            done += 1
        self.last_iterations = done
        if not root.children:
            msg = f"ismcts: no sample of the view let seat {seat} of {config.game!r} act"
            raise CardcoreError(msg)
        return by_key[self._final(root, default if default in by_key else None)]

    def _default(self, game: Game, seat: int, by_key: Mapping[Key, Action]) -> Key | None:
        """The rollout policy's choice at the root (``None`` without a policy or a ``prior``)."""
        policy = self._policy(game.logic)
        if policy is None or not self.prior:
            return None
        legal = [a for a in game.legal_actions(seat) if _key(a) in by_key]
        if not legal:
            return None
        action = policy(game.state, seat, legal, random.Random(0))  # its own draws stay apart
        return None if action is None else _key(action)

    def _final(self, root: _Node, default: Key | None) -> Key:
        """The most visited root action, unless it does not beat the policy's choice clearly.

        With a game rollout policy and ``prior`` > 0, the policy's own choice at the root stands
        unless the best action's mean score exceeds it by more than ``prior`` standard errors;
        with fewer than two visits to either there is no standard error to go by, so it stands.
        """
        children = root.children
        best = max(
            children, key=lambda k: (children[k].visits, children[k].total / children[k].visits)
        )
        if default is None or default == best:
            return best
        b = children.get(default)
        a = children[best]
        if b is None or a.visits < 2 or b.visits < 2:  # a rollout or none: nothing of the noise
            return default
        gain = a.total / a.visits - b.total / b.visits
        return best if gain > self.prior * math.sqrt(a.spread() + b.spread()) else default

    def _sample(
        self, view: Mapping[str, Any], config: ViewConfig, seat: int, rng: random.Random
    ) -> Game:
        """A game started from a sampled position, seeded from the agent's own stream."""
        problem: Exception | None = None
        for _ in range(ATTEMPTS):
            text = sample_of(view, config, rng)  # the view was checked once, by search
            quiet = QUIET.set(True)  # a world of the search: no plugin's on_event hears it
            try:
                return new_game(
                    config.game,
                    config.players,
                    rules=config.rules,
                    without=config.without,
                    options=config.options,
                    position=text,
                    seed=rng.getrandbits(62),
                ).single_thread()  # the search's own world: one thread plays it
            except OptionError as exc:  # an inconsistent sample: draw another
                problem = exc
            finally:
                QUIET.reset(quiet)
        msg = f"ismcts cannot sample a position of {config.game!r} consistent with the view of seat {seat}: {problem}"
        raise CardcoreError(msg)

    def _mover(self, game: Game, rng: random.Random) -> tuple[int, tuple[Action, ...]]:
        """Real time: a seat drawn among those with a legal action, and its actions."""
        legal_actions = game.legal_actions
        able = [(s, acts) for s in game.to_act if (acts := legal_actions(s))]
        if not able:
            return -1, ()
        return able[int(rng.random() * len(able))] if len(able) > 1 else able[0]

    def _iterate(
        self,
        game: Game,
        root: _Node,
        by_key: Mapping[Key, Action],
        seat: int,
        rng: random.Random,
        realtime: bool,
    ) -> None:
        logic: GameLogic[Any, Any] = game.logic
        state = game.state
        rounds = logic.rounds_played
        start = rounds(state)
        legal_actions = game.legal_actions
        apply = game.apply
        c = self.c
        lo, hi = self._lo, self._hi
        scale = 1.0 / (hi - lo) if hi > lo else 0.0
        policy = self._policy(logic)
        observe = self.observe
        depth = self.depth
        node = root
        path = [root]
        while not game.is_over:
            if node is root:
                mover = seat
                legal: Sequence[Action] = [a for a in legal_actions(seat) if _key(a) in by_key]
            elif realtime:
                mover, legal = self._mover(game, rng)
            else:
                mover = game.to_act[0]
                legal = legal_actions(mover)
            if not legal:
                break
            seen = (
                _observation(state, seat)
                if observe and mover == seat and node is not root
                else None
            )
            children = node.children
            untried: list[tuple[Key, Action]] = []
            best: _Node | None = None
            best_action = legal[0]
            best_score = -math.inf
            for action in legal:
                k = (action.seat, str(action)) if seen is None else (action.seat, str(action), seen)
                child = children.get(k)
                if child is None:
                    untried.append((k, action))
                    continue
                child.avail += 1
                if untried:
                    continue
                mean = child.total / child.visits
                score = ((mean - lo) * scale if scale else 0.5) + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best, best_action, best_score = child, action, score
            if untried:
                k, action = self._expand(untried, policy, state, mover, legal, rng)
                child = children[k] = _Node(action.seat)
                child.avail = 1
                apply(action)
                path.append(child)
                break
            if best is None:  # pragma: no cover - legal is not empty
                break
            apply(best_action)
            path.append(best)
            node = best
            if rounds(state) != start or len(path) > depth:
                break
        if not game.is_over and rounds(state) == start:
            self._rollout(game, logic, start, rng, realtime)
        self._backup(path, logic.utility(state))

    def _policy(self, logic: GameLogic[Any, Any]) -> Callable[..., Action | None] | None:
        """The game's rollout policy, or ``None`` (random)."""
        if self.rollout == "game" and type(logic).rollout_action is not GameLogic.rollout_action:
            return logic.rollout_action
        return None

    @staticmethod
    def _expand(
        untried: list[tuple[Key, Action]],
        policy: Callable[..., Action | None] | None,
        state: Any,
        mover: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> tuple[Key, Action]:
        """The edge to add: the rollout policy's choice if untried, else a random untried one."""
        if policy is not None:
            wanted = policy(state, mover, legal, rng)
            for pair in untried:
                if pair[1] is wanted:
                    return pair
        return untried[int(rng.random() * len(untried))] if len(untried) > 1 else untried[0]

    def _rollout(
        self, game: Game, logic: GameLogic[Any, Any], start: int, rng: random.Random, realtime: bool
    ) -> None:
        state = game.state
        rounds = logic.rounds_played
        legal_actions = game.legal_actions
        apply = game.apply
        policy = self._policy(logic)
        for _ in range(self.max_rollout):
            if realtime:
                mover, legal = self._mover(game, rng)
                if not legal:
                    return
            else:
                mover = game.to_act[0]
                legal = legal_actions(mover)
                if not legal:  # a rule vetoed every action: score what stands
                    return
            action = None if policy is None else policy(state, mover, legal, rng)
            if action is None:
                action = legal[int(rng.random() * len(legal))]
            apply(action)
            if game.is_over or rounds(state) != start:
                return

    def _backup(self, path: list[_Node], utility: Sequence[float]) -> None:
        n = len(utility)
        total = sum(utility)
        if n > 1:
            scores = [u - (total - u) / (n - 1) for u in utility]
        else:
            scores = [float(u) for u in utility]
        low = min(scores)
        high = max(scores)
        if low < self._lo:
            self._lo = low
        if high > self._hi:
            self._hi = high
        path[0].visits += 1
        for node in path[1:]:
            score = scores[node.seat]
            node.visits += 1
            node.total += score
            node.squares += score * score

    def __repr__(self) -> str:
        budgets = [f"iterations={self.iterations}"] if self.iterations is not None else []
        budgets += [] if self.time is None else [f"time={self.time}"]  # both apply: first reached
        budget = ", ".join(budgets)
        rest = (  # the other parameters, where they differ from the defaults
            ("max_rollout", self.max_rollout, 500),
            ("observe", self.observe, True),
            ("depth", self.depth, 1_000_000),
            ("prior", self.prior, 1.0),
            ("reuse", self.reuse, 1),
            ("reaction", self.reaction, 0.5),
            ("spread", self.spread, 0.3),
        )
        more = "".join(f", {name}={value!r}" for name, value, default in rest if value != default)
        return (
            f"ISMCTSAgent(seed={self.seed!r}, {budget}, c={self.c}, rollout={self.rollout!r}{more})"
        )
