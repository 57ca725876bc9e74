"""An agent registered under a name no spec can name (``NAME:KEY=VALUE,...``) is refused at
:func:`cardcore.register`, not left to fail at every ``load_agent``; a name a spec can hold
registers, loads and unregisters."""

from __future__ import annotations

import pytest

import cardcore
from cardcore import PluginError
from cardcore.agents import RandomAgent

AGENTS = "cardcore.agents"


@pytest.mark.parametrize("name", ["my:bot", "a=b", "a,b", "two words", ""])
def test_an_agent_name_no_spec_can_hold_is_refused_at_register(name: str) -> None:
    before = cardcore.available_agents()
    with pytest.raises(PluginError, match="could never be loaded"):
        cardcore.register(AGENTS, name, RandomAgent)
    assert cardcore.available_agents() == before


def test_an_agent_name_a_spec_holds_registers_and_loads() -> None:
    cardcore.register(AGENTS, "my-bot.v2", RandomAgent)
    try:
        assert cardcore.load_agent("my-bot.v2:seed=3") is not None
    finally:
        cardcore.unregister(AGENTS, "my-bot.v2")
    assert "my-bot.v2" not in cardcore.available_agents()
