"""Static descriptions: GameInfo options and fields, RuleInfo applicability, ViewField kinds."""

from __future__ import annotations

import pytest

from cardcore import FIELD_KINDS, GameInfo, Option, OptionError, RuleInfo, ViewField


def test_view_field_kinds_are_checked_and_exported() -> None:
    assert FIELD_KINDS == (
        "int",
        "float",
        "str",
        "bool",
        "card",
        "cards",
        "seat",
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
    with pytest.raises(ValueError, match="kind must be one of"):
        ViewField("x", "number")
    with pytest.raises(ValueError, match="kind must be one of"):
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
