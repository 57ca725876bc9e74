"""Review of f9876bc: an alias default read as its value, the command line reading aliases,
and a house rule's applies refusal read through the game's aliases."""

from __future__ import annotations

import pytest

from cardcore import game_info, rule_info
from cardcore.cli import args as cli_args
from cardcore.errors import OptionError, PluginError
from cardcore.info import GameInfo, Option, RuleInfo


def _game(*options: Option) -> GameInfo:
    return GameInfo("reviewg", "a test game", 2, 2, options=options)


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch):
    """parse_options reading a hand-made game (no house rules)."""

    def install(game: GameInfo) -> None:
        monkeypatch.setattr(cli_args, "game_info", lambda name: game)
        monkeypatch.setattr(cli_args, "_rule_options", lambda *a: [])
        monkeypatch.setattr(cli_args, "available_rules", lambda name: [])

    return install


# --- (2) a default written as an alias -------------------------------------------------


def test_alias_default_is_stored_as_its_value_json_eq_hash() -> None:
    aliased = Option("n", "three", kind=int, aliases={"three": 3})
    plain = Option("n", 3, kind=int, aliases={"three": 3})
    assert aliased.default == 3 and type(aliased.default) is int
    assert aliased.to_json()["default"] == 3  # the lobby form's default is the value
    assert aliased == plain and hash(aliased) == hash(plain)


def test_alias_default_before_is_stored_as_its_value() -> None:
    opt = Option("n", 3, kind=int, aliases={"two": 2}, default_before=("1.0.0", "two"))
    assert opt.default_before == ("1.0.0", 2)


def test_resolve_options_none_fills_the_value_not_the_alias() -> None:
    game = _game(Option("n", "three", kind=int, aliases={"three": 3}))
    assert dict(game.resolve_options(None)) == {"n": 3}


def test_golf_default_layout_unchanged() -> None:
    assert game_info("golf").option("layout").default == 6


# --- (1) the command line ----------------------------------------------------------------


def test_cli_reads_golf_alias_as_the_core_does() -> None:
    golf = game_info("golf")
    for text in ("4H", "6", "10"):
        got = cli_args.parse_options("golf", [f"layout={text}"])["layout"]
        assert got == golf.resolve_options({"layout": text})["layout"]
        assert type(got) is type(golf.resolve_options({"layout": text})["layout"])


def test_cli_reads_number_alias(installed) -> None:
    installed(_game(Option("hand_size", 5, kind=int, minimum=1, maximum=9, aliases={"three": 3})))
    assert cli_args.parse_options("reviewg", ["hand_size=three"]) == {"hand_size": 3}
    assert cli_args.parse_options("reviewg", ["hand_size= three "]) == {"hand_size": 3}


def test_cli_alias_none_agrees_with_new_game(installed) -> None:
    game = _game(Option("cap", None, kind=int, nullable=True, aliases={"none": 0}))
    installed(game)
    got = cli_args.parse_options("reviewg", ["cap=none"])["cap"]
    assert got == game.resolve_options({"cap": "none"})["cap"] == 0
    assert cli_args.parse_options("reviewg", ["cap=null"])["cap"] is None  # None still reachable


def test_cli_alias_given_twice_refused(installed) -> None:
    installed(_game(Option("hand_size", 5, kind=int, aliases={"three": 3})))
    with pytest.raises(OptionError, match="twice"):
        cli_args.parse_options("reviewg", ["hand_size=three", "hand_size=three"])


def test_cli_unknown_key_is_left_for_the_core(installed) -> None:
    installed(_game(Option("hand_size", 5, kind=int, aliases={"three": 3})))
    assert cli_args.parse_options("reviewg", ["other=three"]) == {"other": "three"}


@pytest.mark.parametrize("text", ["x" * 100_000, "\u0663", "thr\x00ee", "three\u200f"])
def test_cli_hostile_text_is_refused_shortly(installed, text: str) -> None:
    installed(_game(Option("hand_size", 5, kind=int, aliases={"three": 3})))
    with pytest.raises(OptionError) as info:
        cli_args.parse_options("reviewg", [f"hand_size={text}"])
    assert len(str(info.value)) < 300


def test_check_of_unhashable_on_aliased_option_is_an_option_error() -> None:
    opt = Option("n", 3, kind=int, aliases={"three": 3})
    with pytest.raises(OptionError):
        opt.check([3])
    with pytest.raises(OptionError):
        opt.check({"three": 3})


def test_alias_with_spaces_reads_alike_on_cli_and_core(monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        opt = Option("s", "a", kind=str, choices=("a", "b"), aliases={" a": "b"})
    except PluginError:
        return  # refusing such an alias is a fix too
    game = _game(opt)
    monkeypatch.setattr(cli_args, "game_info", lambda name: game)
    monkeypatch.setattr(cli_args, "_rule_options", lambda *a: [])
    monkeypatch.setattr(cli_args, "available_rules", lambda name: [])
    assert (
        cli_args.parse_options("reviewg", ["s= a"])["s"] == game.resolve_options({"s": " a"})["s"]
    )


# --- (3) the applies refusal ----------------------------------------------------------


def test_applies_refusal_without_aliases_lists_the_values() -> None:
    game = _game(Option("n", 3, kind=int))
    rule = RuleInfo("REVIEWG-R-1", "reviewg.r", "reviewg", "s", applies={"n": (4,)})
    for where in (None, game):
        with pytest.raises(OptionError, match=r"applies only with n in \(4\), not 3"):
            rule.check_applies({"n": 3}, where)
    rule.check_applies({"n": 4})
    rule.check_applies({"n": 4}, game)


def test_applies_named_by_alias_is_listed_as_read() -> None:
    game = _game(Option("n", 3, kind=int, aliases={"four": 4}))
    rule = RuleInfo("REVIEWG-R-2", "reviewg.r2", "reviewg", "s", applies={"n": ("four",)})
    rule.check_applies({"n": 4}, game)
    with pytest.raises(OptionError, match=r"in \(4\), not 3"):
        rule.check_applies({"n": 3}, game)


def test_applies_reads_an_option_given_by_alias() -> None:
    golf = game_info("golf")
    rule_info("golf.peek-nearest").check_applies({"layout": "4"}, golf)
