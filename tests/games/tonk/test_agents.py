"""The heuristic Tonk agent: registered, plays from views only, and wins money."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.games.tonk.helpers import tonk

import cardcore
from cardcore import Action, RandomAgent, play
from cardcore_tonk.agents import HeuristicAgent, TonkHeuristicAgent

ROOT = Path(__file__).resolve().parents[3]


def _study() -> ModuleType:
    path = ROOT / "benchmarks" / "tonk_agent_study.py"
    spec = importlib.util.spec_from_file_location("tonk_agent_study", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_agent_is_registered() -> None:
    assert "tonk-heuristic" in cardcore.available_agents()
    assert cardcore.load_agent("tonk-heuristic") is TonkHeuristicAgent
    assert HeuristicAgent is TonkHeuristicAgent  # the old name stays an alias


class _Spy:
    """Wraps an agent and records what it was given."""

    def __init__(self, inner: TonkHeuristicAgent) -> None:
        self.inner = inner
        self.kinds: set[type] = set()

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        self.kinds.add(type(view))
        assert "state" not in view and "seed" not in view
        action = self.inner.choose(view, legal)
        assert action in legal
        return action


def test_agent_plays_whole_sessions_with_every_rule() -> None:
    rules = [
        "tonk.double-needs-spread",
        "tonk.hit-blocks-drop",
        "tonk.must-lay-down",
        "tonk.no-upcard",
        "tonk.stock-out-discard-only",
    ]
    for seed in range(20):
        game = cardcore.new_game("tonk", 3, seed=seed, rules=rules, options={"hands": 3})
        spies = [_Spy(TonkHeuristicAgent(seed + s)) for s in range(3)]
        result = play(game, spies)
        assert result.reason != "truncated"


def test_agent_lays_spreads_hits_and_sheds_high_cards() -> None:
    game = tonk(["5H 6H 7H KC 2D", "4H 9S 9D 9C QD", "10H 6S 7C 3C 4D"], stock="AC 3S JC")
    agent = TonkHeuristicAgent(1)
    for expected in ("draw", "spread 5H 6H 7H", "discard KC"):
        view = game.view(0)
        action = agent.choose(view, game.legal_actions(0))
        assert str(action) == expected
        game.apply(action)
    other = TonkHeuristicAgent(2)
    seen = []
    while game.to_act == (1,):
        action = other.choose(game.view(1), game.legal_actions(1))
        seen.append(str(action))
        game.apply(action)
    # P1 leaves KC (no use), draws 3S, books the nines, hits 4H on P0's run, sheds QD
    assert seen == ["draw", "spread 9S 9D 9C", "hit 1 4H", "discard QD"]


def test_agent_drops_only_when_surely_lowest() -> None:
    low = tonk(["AS AH 2D 2C 3S", "KD QD JD 10D 9D", "KC QC JC 10C 9C"], upcard="8H")
    assert str(TonkHeuristicAgent(0).choose(low.view(0), low.legal_actions(0))) == "drop"
    high = tonk(["KS QS JS 10S 9H", "AD 2D 3C 4C 5C", "AC 2C 3D 4D 5D"], upcard="8H")
    assert str(TonkHeuristicAgent(0).choose(high.view(0), high.legal_actions(0))) != "drop"


def test_agent_study_heuristic_wins_money_on_average(tmp_path: Path) -> None:
    module = _study()
    figures = module.study(150, 3)
    assert figures["hands"] == 150
    assert figures["heuristic_net_per_hand"] > 0
    assert (
        figures["heuristic_net_per_hand"] - 2 * figures["heuristic_stderr"]
        > figures["random_control_net_per_hand"]
    )
    out = tmp_path / "study.json"
    assert module.main(["40", "2", "--out", str(out)]) == 0
    assert out.exists()


def test_random_agents_play_sessions() -> None:
    game = cardcore.new_game("tonk", 2, seed=4, options={"hands": 5})
    result = play(game, [RandomAgent(1), RandomAgent(2)])
    assert result.payouts is not None and sum(result.payouts) == 0
