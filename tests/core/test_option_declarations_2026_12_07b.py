"""An option's ``doc`` and ``nullable`` are checked where a game or a house rule
declares it: ``doc=5`` reached ``cardcore list`` and a lobby's form as a number, and
``nullable="no"`` was read as true (``None`` then passed the option's check)."""

from __future__ import annotations

import pytest

from cardcore import GameInfo, Option, PluginError, RuleInfo


def _game(option: Option) -> GameInfo:
    return GameInfo(name="g", summary="s", min_players=2, max_players=2, options=(option,))


def _rule(option: Option) -> RuleInfo:
    return RuleInfo(id="G-R-1", name="g.r", game="g", summary="s", options=(option,))


@pytest.mark.parametrize("declare", [_game, _rule], ids=["game", "rule"])
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("doc", 5),
        ("doc", None),
        ("doc", b"bytes"),
        ("nullable", "no"),
        ("nullable", 1),
        ("nullable", None),
    ],
)
def test_a_doc_or_nullable_of_the_wrong_type_is_the_plugins_error(declare, field, value) -> None:
    option = Option("x", 1, minimum=0, maximum=3, **{field: value})
    with pytest.raises(PluginError, match=f"option 'x' whose {field} is not a") as caught:
        declare(option)
    assert caught.value.plugin == ("g" if declare is _game else "g.r")


@pytest.mark.parametrize("declare", [_game, _rule], ids=["game", "rule"])
def test_a_str_doc_and_a_bool_nullable_are_taken(declare) -> None:
    option = Option("x", 1, doc="the x\nof it", minimum=0, maximum=3, nullable=True)
    declared = declare(option)
    assert declared.options == (option,)
    assert option.check(None) is None
