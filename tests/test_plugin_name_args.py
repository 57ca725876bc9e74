"""Plugin and agent look-ups, simulate() and compare() answer arguments of the wrong
kind with cardcore errors (before: TypeError 'unhashable type', AttributeError from
split, OverflowError from a player count that fits no tuple)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import cardcore
from cardcore import CardcoreError, OptionError, UnknownPluginError

NOT_NAMES = [None, 5, 1.5, True, b"random", [], ["golf"], {}, object()]

LOOKUPS: dict[str, Callable[[Any], object]] = {
    "game_info": cardcore.game_info,
    "rule_info": cardcore.rule_info,
    "available_rules": cardcore.available_rules,
    "agent_parameters": cardcore.agent_parameters,
    "load_agent": cardcore.load_agent,
    "load_agent(seed=1)": lambda name: cardcore.load_agent(name, seed=1),
}


@pytest.mark.parametrize("lookup", list(LOOKUPS))
@pytest.mark.parametrize("name", NOT_NAMES, ids=lambda v: type(v).__name__)
def test_a_name_that_is_not_text_is_not_installed(lookup: str, name: Any) -> None:
    with pytest.raises(UnknownPluginError, match=r"no .* called"):
        LOOKUPS[lookup](name)


@pytest.mark.parametrize("text", NOT_NAMES, ids=lambda v: type(v).__name__)
def test_split_agent_specs_takes_text(text: Any) -> None:
    with pytest.raises(OptionError, match="agent specs are text"):
        cardcore.split_agent_specs(text)


@pytest.mark.parametrize(
    "players", [65, 2**80, 10**5000, -(10**5000)], ids=["65", "2**80", "huge", "-huge"]
)
@pytest.mark.parametrize("run", ["simulate", "compare"])
def test_a_player_count_beyond_any_game_is_refused(run: str, players: int) -> None:
    with pytest.raises(OptionError, match="golf takes 2 to 64 players") as info:
        if run == "simulate":
            cardcore.simulate("golf", games=1, players=players)
        else:
            cardcore.compare("golf", games=2, players=players, skill=None)
    assert len(str(info.value)) < 200
    assert isinstance(info.value, CardcoreError)


def test_text_of_a_str_subclass_names_what_it_says() -> None:
    """A StrEnum member is text: refusing it (type(name) is str) broke callers that keep
    their game and rule names in an enum."""
    import enum

    class Name(enum.StrEnum):
        GOLF = "golf"
        JOKERS = "golf.jokers"
        RANDOM = "random"

    game = cardcore.new_game(Name.GOLF, 2, rules=[Name.JOKERS], seed=1)
    assert game.name == "golf" and game.rules == ("golf.jokers",)
    assert cardcore.game_info(Name.GOLF).name == "golf"
    assert cardcore.rule_info(Name.JOKERS).name == "golf.jokers"
    assert cardcore.load_agent(Name.RANDOM) is cardcore.load_agent("random")
