"""``Option.aliases``: other texts of one value, read as that value at every door.

Golf's ``layout`` took 6 and "6", "4h" and "4H" as different values: one table from one
seed, but two configurations (records, views and RL encodings of one refused the other;
the command line read ``-o layout=6`` as the text). Now the option declares its texts as
aliases and holds one spelling (2026-12-06, tests/test_canonical_config_2026_12_06.py).
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import Option, OptionError, PluginError, RuleInfo
from cardcore.cli.args import parse_options

LAYOUTS = (6, 8, 9, 10, 4, "4h")


def _layout() -> Option:
    return cardcore.game_info("golf").option("layout")


def test_golfs_layout_holds_one_value_per_layout() -> None:
    opt = _layout()
    assert opt.choices == LAYOUTS
    for text, value in {"6": 6, "8": 8, "9": 9, "10": 10, "4": 4, "4H": "4h"}.items():
        assert opt.check(text) == value and type(opt.check(text)) is type(value)
        game = cardcore.new_game("golf", 2, options={"layout": text}, seed=3)
        same = cardcore.new_game("golf", 2, options={"layout": value}, seed=3)
        assert dict(game.options) == dict(same.options)
        assert game.record() == same.record()
        assert game.view(0) == same.view(0)


@pytest.mark.parametrize("value", [6.0, True, " 6", "4 h", "GOLF6", b"6", "four"])
def test_only_the_declared_texts_are_aliases(value: object) -> None:
    """An alias is a text looked up as written: no number of another type, no spaces."""
    with pytest.raises(OptionError, match="layout"):
        _layout().check(value)


def test_an_encoding_built_for_one_spelling_reads_the_other() -> None:
    pytest.importorskip("numpy")
    from cardcore.rl import encoding_for, observe

    hand = cardcore.new_game("golf", 2, options={"layout": "4H"}, seed=5)
    other = cardcore.new_game("golf", 2, options={"layout": "4h"}, seed=5)
    enc = encoding_for(hand)
    mine, theirs = observe(hand, 0, enc), observe(other, 0, enc)
    assert mine.keys() == theirs.keys()
    assert all((mine[k] == theirs[k]).all() for k in mine)


def test_the_command_line_reads_a_layout_as_the_api_does() -> None:
    assert parse_options("golf", ["layout=6"]) == {"layout": 6}  # an alias, read as its value
    for pair, value in (("layout=6", 6), ("layout= 4H ", "4h"), (" layout = 9", 9)):
        game = cardcore.new_game("golf", 2, options=parse_options("golf", [pair]), seed=1)
        assert game.options["layout"] == value and type(game.options["layout"]) is type(value)
    assert parse_options("golf", ["dealer= random "]) == {"dealer": "random"}


@pytest.mark.parametrize(
    ("aliases", "words"),
    [
        ([("b", "big")], "aliases takes a mapping"),
        ("b", "aliases takes a mapping"),
        ({"B": "huge"}, "names 'huge', a value it refuses"),
        ({"big": "small"}, "must be a text the option refuses as written"),
        ({1: "big"}, "must be a text the option refuses as written"),
        ({"B": "b"}, "names 'b', a value it refuses"),  # no chain through another alias
    ],
)
def test_a_bad_alias_is_refused_when_the_option_is_built(aliases: Any, words: str) -> None:
    with pytest.raises(PluginError, match=words):
        Option("size", "small", kind=str, choices=("small", "big"), aliases=aliases)


def test_an_option_with_aliases_stays_a_hashable_read_only_declaration() -> None:
    given = {"B": "big"}
    opt = Option("size", "small", kind=str, choices=("small", "big"), aliases=given)
    given["S"] = "small"  # the declaration took a copy
    assert dict(opt.aliases) == {"B": "big"}
    with pytest.raises(TypeError):
        opt.aliases["S"] = "small"  # type: ignore[index]
    hash(opt)
    plain = Option("size", "small", kind=str, choices=("small", "big"))
    assert opt != plain and plain.aliases == {}
    assert opt.check("B") == "big" and opt.check("big") == "big"
    with pytest.raises(OptionError):
        plain.check("B")


@pytest.fixture
def four_only() -> Iterator[str]:
    """A third-party Golf rule that names its layout only by an alias ("4H")."""
    name = "golf.test-alias-applies"
    module = types.ModuleType(name)
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="GOLF-ALIAS-1",
        name=name,
        game="golf",
        summary="for the hand of four",
        applies={"layout": ("4H",)},
    )
    cardcore.register("cardcore.rules", name, module)
    yield name
    cardcore.unregister("cardcore.rules", name)


def test_a_rule_naming_a_layout_by_an_alias_serves_that_layout(four_only: str) -> None:
    for layout in ("4h", "4H"):
        game = cardcore.new_game("golf", 2, rules=[four_only], options={"layout": layout}, seed=2)
        assert four_only in game.rules and game.options["layout"] == "4h"
    with pytest.raises(OptionError, match="GOLF-ALIAS-1"):
        cardcore.new_game("golf", 2, rules=[four_only], options={"layout": 4}, seed=2)


def test_an_alias_keeps_its_value_as_the_option_takes_it() -> None:
    """An alias naming an int subclass (an IntEnum) or an int for a float option keeps the
    value the option takes: ``aliases`` is what a stored spelling is read as (a save's
    options are compared by type), so it must equal what ``check`` returns."""
    import enum

    class Six(enum.IntEnum):
        SIX = 6

    opt = Option("n", 1, minimum=1, maximum=9, aliases={"six": Six.SIX})
    assert type(opt.aliases["six"]) is int and opt.check("six") == 6
    flt = Option("f", 0.5, kind=float, aliases={"one": 1})
    assert type(flt.aliases["one"]) is float and flt.check("one") == 1.0


def test_unreadable_aliases_say_so() -> None:
    from collections.abc import Mapping

    class Broken(Mapping[str, Any]):
        def __getitem__(self, key: str) -> Any:
            raise RuntimeError("no")

        def __iter__(self) -> Any:
            return iter(["B"])

        def __len__(self) -> int:
            return 1

    with pytest.raises(PluginError, match="reading it failed"):
        Option("size", "small", kind=str, choices=("small", "big"), aliases=Broken())
