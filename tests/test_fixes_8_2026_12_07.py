"""Fixes of the 2026-12-07 (second) session, each test checked to fail on the code before it."""

from __future__ import annotations

import cardcore
from cardcore.search import ISMCTSAgent


def test_ismcts_reaction_zero_plays_at_once_as_its_bounds_say() -> None:
    """``parameter_bounds`` say ``reaction`` is in [0, 60]: 0 (``--bot-speed 0``) plays at once."""
    assert ISMCTSAgent.parameter_bounds["reaction"][0] == 0.0
    agent = cardcore.load_agent("ismcts:reaction=0,iterations=2,max_rollout=5")
    assert isinstance(agent, ISMCTSAgent) and agent.reaction == 0.0
    game = cardcore.new_game("speed", 2, seed=3)
    seat = 0
    legal = game.legal_actions(seat)
    plan = agent.plan(game.view(seat), legal, 0.0)
    assert plan is not None and plan.delay == 0.0 and plan.action in legal
    assert "reaction=0.0" in repr(agent)
