"""Agents (turn-based and real-time), search agents, simulate and the house-rule lab."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar

import cardcore
from cardcore import (
    Action,
    Agent,
    Comparison,
    Game,
    Plan,
    RandomAgent,
    RealtimeAgent,
    Result,
    Summary,
)
from cardcore.compare import ConfigSummary, Estimate
from cardcore.search import ISMCTSAgent


class FirstLegal:
    """Always takes the first legal action (agents page), typed."""

    games: ClassVar[tuple[str, ...]] = ("golf", "tonk")

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return legal[0]


class Cautious:
    """Prefers an action whose notation starts with one of *verbs*; seeded otherwise."""

    parameter_bounds: ClassVar[dict[str, tuple[float, float]]] = {"patience": (0, 10)}

    def __init__(self, seed: int | None = 0, *, verbs: Sequence[str] = ("draw", "flip")) -> None:
        self.rng = random.Random(seed)
        self.verbs = tuple(verbs)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        for action in legal:
            if action.verb in self.verbs:
                return action
        return self.rng.choice(list(legal))


class Quick:
    """Real time: the first legal action after a fixed delay."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        return Plan(legal[0], self.delay) if legal else None


def protocols() -> tuple[Agent, RealtimeAgent, Agent, RealtimeAgent]:
    """Structural typing: the classes satisfy the protocols, statically and at runtime."""
    turn: Agent = FirstLegal()
    live: RealtimeAgent = Quick(0.4)
    both_a: Agent = RandomAgent(1)
    both_r: RealtimeAgent = RandomAgent(2, reaction=0.3, spread=0.1)
    assert isinstance(turn, Agent) and isinstance(live, RealtimeAgent)
    return turn, live, both_a, both_r


def play_tonk() -> Result:
    """cardcore.play with a mixed line-up; on_action sees every applied action."""
    game = cardcore.new_game("tonk", 3, seed=4)
    seen: list[str] = []

    def on_action(g: Game, action: Action) -> None:
        seen.append(f"{g.version}:{action}")

    agents: list[Agent] = [FirstLegal(), RandomAgent(1), Cautious(2)]
    result = cardcore.play(game, agents, max_actions=500, on_action=on_action)
    assert result is game.result and len(seen) == game.version
    return result


def race_speed() -> Result:
    """run_realtime with hand-written and built-in real-time agents."""
    speed = cardcore.new_game("speed", ["Ann", "Bob"], seed=3)
    times: list[float] = []

    def on_action(g: Game, action: Action, at: float) -> None:
        times.append(at)

    return cardcore.run_realtime(
        speed, [Quick(0.4), RandomAgent(1)], seed=1, start=0.0, on_action=on_action
    )


def search_golf(iterations: int = 30) -> Result:
    """The ISMCTS agent against a random one (search-agents page)."""
    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    bot = ISMCTSAgent(seed=7, iterations=iterations, depth=None, reuse=1)
    return cardcore.play(game, [bot, RandomAgent(1)])


def by_name() -> tuple[str, ...]:
    """Agents by name: the catalogue, a spec and its parameters."""
    names = cardcore.available_agents()
    name, params = cardcore.parse_agent_spec("ismcts:iterations=50,seed=7")
    specs: list[str] = cardcore.split_agent_specs("ismcts:iterations=200,seed=7,random")
    assert name == "ismcts" and params["iterations"] == 50 and len(specs) == 2
    assert "seed" in cardcore.agent_parameters("random")
    return names


def study(games: int = 20) -> Summary:
    """simulate: seeded, in-process or on an executor."""
    here = cardcore.simulate("golf", games=games, players=2, seed=1)
    with ThreadPoolExecutor(2) as pool:
        there = cardcore.simulate("golf", games=games, players=2, seed=1, executor=pool, chunk=5)
    assert here == there
    rates: tuple[float, ...] = here.win_rates
    reasons: Mapping[str, int] = here.reasons
    assert len(rates) == here.players and sum(reasons.values()) == here.games
    return here


def lab(games: int = 10) -> Comparison:
    """compare: a house rule against the plain game, read through typed fields."""
    result = cardcore.compare(
        "golf", rules=["golf.jokers"], games=games, seed=1, options={"rounds": 1}
    )
    a: ConfigSummary = result.a
    b: ConfigSummary = result.b
    actions: Estimate = result.diff["actions"]
    rows: list[tuple[str, str, str, str]] = result.rows()
    assert a.rules == ("golf.jokers",) and b.rules == () and actions.n == games and rows
    text: str = result.table()
    assert text
    return result
