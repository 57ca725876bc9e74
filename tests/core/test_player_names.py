"""A player's name UTF-8 cannot carry (a lone surrogate) is refused when the game starts
(before: accepted, and the game's record then could not be signed, written or sent)."""

from __future__ import annotations

import pytest

import cardcore
from cardcore import CorruptStateError, OptionError


@pytest.mark.parametrize("name", ["\ud800", "Ann\udfff", "\udc80x"])
def test_a_name_with_a_lone_surrogate_is_refused(name: str) -> None:
    with pytest.raises(OptionError, match="UTF-8 can carry"):
        cardcore.new_game("golf", [name, "Bob"], seed=1)
    record = cardcore.new_game("golf", ["Ann", "Bob"], seed=1).record()
    record["players"][0] = name
    with pytest.raises(CorruptStateError):
        cardcore.replay(record)


def test_names_in_any_script_still_play() -> None:
    game = cardcore.new_game("golf", ["Zoë", "李", "🂡"], seed=1)
    again = cardcore.replay(game.record(key=b"k"), key=b"k")
    assert again.players == ("Zoë", "李", "🂡")
