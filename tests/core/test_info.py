"""Static descriptions: GameInfo options and fields, RuleInfo applicability, ViewField kinds."""

from __future__ import annotations

import pytest

import cardcore
from cardcore import (
    FIELD_KINDS,
    GameInfo,
    Option,
    OptionError,
    PluginError,
    RuleInfo,
    Veto,
    ViewField,
)


def test_view_field_kinds_are_checked_and_exported() -> None:
    assert FIELD_KINDS == (
        "int",
        "float",
        "str",
        "bool",
        "card",
        "cards",
        "seat",
        "choice",
        "per-seat",
        "json",
    )
    field = ViewField("held_card", "card", "the card in hand")
    assert field.to_json() == {
        "name": "held_card",
        "kind": "card",
        "of": "",
        "label": "held card",
        "doc": "the card in hand",
    }
    assert ViewField("totals", "per-seat", of="int", label="Points").to_json()["label"] == "Points"
    with pytest.raises(PluginError, match="kind must be one of"):
        ViewField("x", "number")
    with pytest.raises(PluginError, match="of= must be one of"):
        ViewField("x", "per-seat", of="list")


def test_rule_applies_is_frozen_data() -> None:
    info = RuleInfo("X-1", "x.y", "x", "s", applies={"layout": [6, 8]})
    assert dict(info.applies) == {"layout": (6, 8)}
    with pytest.raises(TypeError):
        info.applies["layout"] = (9,)  # type: ignore[index]
    info.check_applies({"layout": 8})
    info.check_applies({"other": 1})  # an option the game does not have: nothing to check
    with pytest.raises(
        OptionError, match=r"'x.y' applies only with layout in \(6, 8\), not 9 \(X-1\)"
    ):
        info.check_applies({"layout": 9})
    assert info.describe_applies() == "layout 6, 8"


def test_game_info_resolves_options() -> None:
    info = GameInfo(
        "toy", "a toy", 2, 4, options=(Option("rounds", 1, "rounds", int, minimum=1, maximum=3),)
    )
    assert dict(info.resolve_options(None)) == {"rounds": 1}
    assert dict(info.resolve_options({"rounds": 3})) == {"rounds": 3}
    with pytest.raises(OptionError, match="has no option 'layout'"):
        info.resolve_options({"layout": 6})
    with pytest.raises(OptionError, match="at most 3"):
        info.resolve_options({"rounds": 4})
    with pytest.raises(OptionError, match="must be int"):
        info.resolve_options({"rounds": True})
    assert info.zero_sum is False and info.fields == ()


def test_option_errors_list_the_choices_in_words() -> None:
    """A Python list in an error reads as code: the choices read as a sentence lists them."""
    with pytest.raises(OptionError) as caught:
        cardcore.new_game("golf", 2, options={"layout": 7})
    assert str(caught.value) == "option 'layout' must be one of 6, 8, 9, 10, 4 or '4h', not 7"
    with pytest.raises(
        OptionError, match=r"^option 'size' must be one of 'small' or 'big', not 'x'$"
    ):
        Option("size", "small", kind=str, choices=("small", "big")).check("x")
    with pytest.raises(PluginError, match=r"kind must be one of 'int', 'float', .* or 'json', not"):
        ViewField("x", "number")


# -- declarations are checked when they are built -----------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"minimum": 5, "maximum": 2}, "minimum 5 is above maximum 2"),
        ({"maximum": 8}, "its own default is refused: .*at most 8, not 50"),
        ({"minimum": 60}, "its own default is refused: .*at least 60, not 50"),
        ({"choices": (1, 2)}, r"its own default is refused: .*one of 1 or 2, not 50"),
        ({"kind": str}, "its own default is refused: .*must be str, not 50"),
    ],
    ids=["min-above-max", "above-max", "below-min", "not-a-choice", "wrong-kind"],
)
def test_option_refuses_its_own_inconsistent_declaration(
    kwargs: dict[str, object], match: str
) -> None:
    with pytest.raises(PluginError, match=f"option 'hand_size': {match}"):
        Option("hand_size", 50, **kwargs)  # type: ignore[arg-type]


def test_option_default_none_and_defaults_within_bounds_are_accepted() -> None:
    assert Option("cap", None, kind=int, minimum=1, maximum=3).default is None
    assert Option("stake", 2, kind=float, minimum=1, maximum=2).default == 2


@pytest.mark.parametrize(
    ("players", "match"),
    [
        ((5, 2), "min_players=5, max_players=2"),
        ((0, 2), "min_players=0"),
        ((2, "4"), "min_players=2, max_players='4'"),
    ],
)
def test_game_info_refuses_a_bad_seat_range(players: tuple[object, object], match: str) -> None:
    with pytest.raises(PluginError, match=f"game 'toy' declares {match}") as info:
        GameInfo("toy", "a toy", *players)  # type: ignore[arg-type]
    assert info.value.plugin == "toy"


def test_game_info_refuses_duplicate_and_foreign_options() -> None:
    hand = Option("hand_size", 5, minimum=3, maximum=8)
    with pytest.raises(PluginError, match="game 'toy' declares two options named 'hand_size'"):
        GameInfo("toy", "a toy", 2, 4, options=(hand, Option("hand_size", 6)))
    with pytest.raises(PluginError, match="an option that is not an Option: 'rounds'"):
        GameInfo("toy", "a toy", 2, 4, options=("rounds",))  # type: ignore[arg-type]


def test_rule_info_refuses_empty_names_and_a_str_for_conflicts() -> None:
    with pytest.raises(PluginError, match="RuleInfo id must be a non-empty str, not ''"):
        RuleInfo("", "x.y", "x", "s")
    with pytest.raises(PluginError, match="RuleInfo game must be a non-empty str, not None"):
        RuleInfo("X-1", "x.y", None, "s")  # type: ignore[arg-type]
    with pytest.raises(PluginError, match=r"conflicts takes a tuple .* not one str") as info:
        RuleInfo("X-1", "x.y", "x", "s", conflicts="X-2")  # type: ignore[arg-type]
    assert info.value.plugin == "x.y"


@pytest.mark.parametrize(
    ("rule_id", "reason"), [(None, "no"), ("", "no"), (7, "no"), ("X-1", 42), ("X-1", None)]
)
def test_veto_refuses_a_rule_id_that_is_not_a_str_or_a_reason_that_is_not(
    rule_id: object, reason: object
) -> None:
    with pytest.raises(PluginError, match=r"^Veto\(.* built in 'tests.core.test_info'") as info:
        Veto(rule_id, reason)  # type: ignore[arg-type]
    assert info.value.plugin == "tests.core.test_info"
    assert Veto("X-1", "").rule_id == "X-1"


def test_a_nullable_view_field_says_so_in_its_declaration() -> None:
    field = ViewField("left", "int", "turns left", nullable=True)
    assert field.to_json()["nullable"] is True
    assert "nullable" not in ViewField("left", "int").to_json()


@pytest.mark.parametrize(
    ("applies", "match"),
    [
        (
            {"layout": 6},
            r"applies\['layout'\] takes a tuple of values, not one value 6: write \(6,\)",
        ),
        ({"layout": "10"}, r"not one value '10': write \('10',\)"),
        ([("layout", (6,))], "applies takes a mapping"),
    ],
)
def test_rule_info_refuses_one_value_where_applies_takes_a_tuple(
    applies: object, match: str
) -> None:
    with pytest.raises(PluginError, match=match):
        RuleInfo("X-1", "x.y", "x", "s", applies=applies)  # type: ignore[arg-type]


def test_rule_info_keeps_conflicts_and_requires_as_tuples() -> None:
    info = RuleInfo("X-1", "x.y", "x", "s", conflicts=["x.z"], requires={"x.w"})  # type: ignore[arg-type]
    assert info.conflicts == ("x.z",) and info.requires == ("x.w",)
    assert hash(info) == hash(
        RuleInfo("X-1", "x.y", "x", "s", conflicts=("x.z",), requires=("x.w",))
    )


def test_an_option_refusal_cites_the_option_rule() -> None:
    option = Option("limit", 3, "turns in a round", int, minimum=1, maximum=9, rule_id="GAME-CAP-1")
    with pytest.raises(OptionError, match=r"at least 1, not 0 \(GAME-CAP-1\)$") as refused:
        option.check(0)
    assert refused.value.rule_id == "GAME-CAP-1"
    with pytest.raises(OptionError) as refused:
        Option("limit", 3, "turns", int, minimum=1).check("3")
    assert refused.value.rule_id is None  # no rule_id: none cited
    for bad in ("cap-1", "GAME", 7):
        with pytest.raises(PluginError, match="rule_id"):
            Option("limit", 3, rule_id=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "options", "rule_id"),
    [
        ("golf", {"max_turns": 0}, "GOLF-CAP-1"),
        ("golf", {"rounds": 0}, "GOLF-GAME-1"),
        ("tonk", {"stake": 0}, "TONK-STAKE-1"),
        ("spit", {"stall_limit": 0}, "SPIT-STUCK-3"),
        ("speed", {"side_pile": 10}, "SPEED-SETUP-2"),
    ],
)
def test_each_game_option_refusal_names_its_rule(
    game: str, options: dict[str, int], rule_id: str
) -> None:
    with pytest.raises(OptionError) as refused:
        cardcore.new_game(game, 2, options=options, seed=1)
    assert refused.value.rule_id == rule_id and str(refused.value).endswith(f"({rule_id})")
