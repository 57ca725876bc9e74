"""Notation errors say what was wrong in the reader's terms (found by a plugin author
writing from the docs: ``resign now`` was called an unknown action ``resign``, and ``-1``
"not a number")."""

from __future__ import annotations

import pytest

import cardcore
from cardcore import NotationError


@pytest.mark.parametrize("name", ["golf", "tonk", "gofish"])
def test_resign_with_words_after_it_says_resign_takes_none(name: str) -> None:
    game = cardcore.new_game(name, 3, seed=1)
    seat = game.to_act[0]
    before = game.save()
    with pytest.raises(NotationError, match=r"'resign' takes no other words, not 'resign now'"):
        game.act(seat, "  Resign now ")
    assert game.save() == before
    game.act(seat, "resign")  # the word alone still resigns
    assert game.version == 1


def test_a_negative_number_is_refused_as_not_a_whole_number() -> None:
    game = cardcore.new_game("gofish", 3, seed=1)  # the core's ActionParser reads its numbers
    with pytest.raises(NotationError, match=r"expected a whole number written 0-9, not '-1'"):
        game.act(game.to_act[0], "ask -1 Q")
    assert game.version == 0
