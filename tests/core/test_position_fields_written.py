"""The default position notation refuses, when writing, a field it could not read back
(a plugin author's list of lists made ``Game.position()`` text that ``new_game(position=...)``
then refused)."""

from __future__ import annotations

import pytest

import cardcore
from cardcore import PluginError


def test_a_nested_list_in_a_position_field_is_the_games_error_at_once() -> None:
    game = cardcore.new_game("gofish", 3, seed=1)  # the example uses the default notation
    again = cardcore.new_game("gofish", 3, position=game.position(), seed=1)
    assert again.position() == game.position()
    state = game._state
    name = type(game.logic).position_fields[-1]
    setattr(state, name, [[1, 2]])
    with pytest.raises(PluginError, match=rf"position field {name!r} holds \[\[1, 2\]\]"):
        game.position()
    setattr(state, name, (1, "x", None, 2.5, True))  # a flat sequence of scalars is fine
    assert f"{name}=[1," in game.position()
