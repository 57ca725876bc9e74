"""Fixes of 2026-12-29 (outside the web server)."""

from __future__ import annotations

import cardcore
from cardcore.search import ISMCTSAgent


def test_ismcts_repr_names_every_parameter_that_is_not_its_default() -> None:
    """Two agents configured differently printed alike (``depth``, ``reuse`` and the rest
    were left out), so a study's log could not tell them apart."""
    assert repr(ISMCTSAgent()) == "ISMCTSAgent(seed=0, iterations=200, c=0.7, rollout='game')"
    agent = ISMCTSAgent(
        depth=3, reuse=4, observe=False, max_rollout=9, prior=2.0, reaction=1.5, spread=0.0
    )
    assert repr(agent) == (
        "ISMCTSAgent(seed=0, iterations=200, c=0.7, rollout='game', max_rollout=9, observe=False,"
        " depth=3, prior=2.0, reuse=4, reaction=1.5, spread=0.0)"
    )
    assert repr(ISMCTSAgent(depth=3)) != repr(ISMCTSAgent(depth=4))
    assert repr(cardcore.load_agent("ismcts:depth=5,seed=1")).endswith("rollout='game', depth=5)")


def test_an_empty_piece_of_an_agent_spec_is_skipped_as_documented() -> None:
    from cardcore import parse_agent_spec

    assert parse_agent_spec("random:") == ("random", {})
    assert parse_agent_spec("ismcts:iterations=50,") == ("ismcts", {"iterations": 50})
