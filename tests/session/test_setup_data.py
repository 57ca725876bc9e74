"""A stored session's setup and settings read back with cardcore errors when damaged
(before: AttributeError, KeyError, TypeError and ValueError escaped from_data, players
'AnnBob' became six players 'A', 'n' ..., settings took 'no' for True, and a resync_keep
of 2**100 raised OverflowError when the session started)."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore import OptionError
from cardcore.session import GameSetup, Session, SessionConfig

GOOD = {"game": "golf", "players": ["Ann", "Bob"]}


@pytest.mark.parametrize(
    "data",
    [
        None,
        5,
        "golf",
        [],
        {},
        {"game": "golf"},
        {"players": ["Ann", "Bob"]},
        {**GOOD, "game": 5},
        {**GOOD, "players": "AnnBob"},
        {**GOOD, "players": 5},
        {**GOOD, "rules": 5},
        {**GOOD, "rules": "golf.jokers"},
        {**GOOD, "without": 5},
        {**GOOD, "options": [1, 2]},
        {**GOOD, "options": 5},
        {**GOOD, "deck": 5},
        {**GOOD, "deck": "AS KS"},
    ],
    ids=repr,
)
def test_a_damaged_setup_is_an_option_error(data: Any) -> None:
    with pytest.raises(OptionError):
        GameSetup.from_data(data)


def test_a_good_setup_still_reads() -> None:
    setup = GameSetup.from_data({**GOOD, "rules": ["golf.jokers"], "deck": ["AS", "KS"]})
    assert setup.players == ("Ann", "Bob") and setup.deck == ("AS", "KS")
    again = GameSetup.from_data(setup.to_json())
    assert again.to_json() == setup.to_json() and again.build(1).players == ("Ann", "Bob")


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "x",
        {"time": "ab"},
        {"limits": "ab"},
        {"spectators": "no"},
        {"takebacks": "no"},
        {"fair": 1},
        {"resync_keep": 2**100},
        {"resync_keep": 10**5000},
    ],
)
def test_damaged_settings_are_an_option_error(data: Any) -> None:
    with pytest.raises(OptionError):
        SessionConfig.from_data(data)


@pytest.mark.parametrize(
    "kwargs",
    [{"rules": 5}, {"rules": "golf.jokers"}, {"without": 5}, {"options": [1, 2]}, {"deck": 5}],
    ids=repr,
)
def test_create_refuses_lists_of_the_wrong_kind(kwargs: dict[str, Any]) -> None:
    with pytest.raises(OptionError, match="must be a"):
        Session.create("golf", 2, now=0.0, seed=1, **kwargs)
