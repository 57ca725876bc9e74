"""This session's fixes that the reviews' own files do not test."""

from __future__ import annotations

import contextlib
import json
import types
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import PluginError, RuleInfo, hookimpl


@contextlib.contextmanager
def house_rule(rule_id: str, name: str, **hooks: Any) -> Iterator[None]:
    """Register a Golf house rule holding *hooks* for the block, and unregister it after."""
    module = types.ModuleType("fixes07d_" + name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rule_id, name=name, game="golf", summary="fix test")  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_a_forbid_action_wrapper_whose_list_holds_none_is_told_so_by_name() -> None:
    """A plain hook's None is left out of the list: only a wrapper can put None in it, so the
    refusal names the wrapper and does not tell it to answer None."""

    @hookimpl(wrapper=True)
    def forbid_action(action: Any) -> Any:
        inner = yield
        return [*inner, None] if action.verb == "take" else inner

    with house_rule("FIX07D-W-1", "golf.fix07d-wrap", forbid_action=forbid_action):
        game = cardcore.new_game("golf", 2, rules=["golf.fix07d-wrap"], seed=7)
        for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
            game.act(seat, text)
        before = json.dumps(game.save(), sort_keys=True, default=str)
        with pytest.raises(PluginError) as info:
            game.legal_actions(0)
        assert info.value.plugin == "golf.fix07d-wrap"
        text = str(info.value)
        assert "list holding None" in text and "wrapper" in text
        assert "or None to allow it" not in text
        assert json.dumps(game.save(), sort_keys=True, default=str) == before


def test_a_house_rule_that_answers_create_logic_wrongly_is_named_alone() -> None:
    """The game's own create_logic is fine: the rule's answer is the fault."""

    @hookimpl(tryfirst=True)
    def create_logic(ruleset: Any) -> Any:
        return "nope"

    with (
        house_rule("FIX07D-L-1", "golf.fix07d-logic", create_logic=create_logic),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game("golf", 2, rules=["golf.fix07d-logic"], seed=1)
    assert info.value.plugin == "golf.fix07d-logic"
    assert str(info.value).startswith("house rule 'golf.fix07d-logic' of game 'golf': create_logic")


def test_the_kit_names_a_position_slot_the_view_shows_in_another_type() -> None:
    """A slot of 0/1 ints shown as bools in the view's table is blank in every sample (the
    core's sampler keeps a slot only in its own type): the kit's advice names it. The game is
    the 2026-12-13 author's Slapjack (its ``out``), a fault the kit's points late in a game
    found (a seat is out only after ~90 actions; the first 12 points fall before)."""
    import cardcore.testing
    from tests.plugins import slapjack_2026_12_13 as sj

    cardcore.register("cardcore.games", sj.NAME, sj)
    try:
        report = cardcore.testing.check_game(
            sj.NAME, players=4, games=2, seed=4, strict=False, checks={"positions"}
        )
    finally:
        cardcore.unregister("cardcore.games", sj.NAME)
    assert not report.ok
    assert any("('out')" in f and "own name and type" in f for f in report.failures), (
        report.failures
    )
