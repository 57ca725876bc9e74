"""Fixes of 2026-12-16 that no helper's file covers (the review's are in test_review_2026_12_16)."""

from __future__ import annotations

import types
from typing import Any

import pytest

import cardcore
from cardcore import hookimpl
from cardcore.testing import check_game


@pytest.mark.parametrize("read", ["view", "history"])
def test_a_read_refusing_a_seat_says_a_spectator_reads_with_none_or_spectator(read: str) -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    for bad in (5, "x", -1):
        with pytest.raises(cardcore.SeatError, match="CORE-SEAT-1") as info:
            getattr(game, read)(bad)
        assert f"None or {cardcore.SPECTATOR!r} (SPECTATOR) reads as a spectator" in str(info.value)
        assert "the host" not in str(info.value)  # -1 may send 'end', but reads nothing
    assert getattr(game, read)(cardcore.SPECTATOR) == getattr(game, read)(None)


def test_acting_for_the_host_seat_still_names_what_the_host_may_send() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(cardcore.SeatError, match="may only send 'end'"):
        game.legal_actions(-1)


def _veto_rule(name: str, rule_id: str, forbid: Any) -> types.ModuleType:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = cardcore.RuleInfo(id=rule_id, name=name, game="golf", summary="a faulty veto")  # type: ignore[attr-defined]
    module.forbid_action = hookimpl(forbid)  # type: ignore[attr-defined]
    return module


def test_a_veto_that_moves_a_card_is_refused_by_name_and_the_game_is_unchanged() -> None:
    def forbid_action(state: Any, action: Any) -> None:
        piles = state.zones.cards
        piles[1].append(piles[0].pop())  # the stock's top onto the discard pile, then "allow"

    name = "golf.fixes-1216-mover"
    cardcore.register("cardcore.rules", name, _veto_rule(name, "GOLF-FX1216-1", forbid_action))
    try:
        game = cardcore.new_game("golf", 2, seed=3, rules=[name])
        saved = game.save()
        with pytest.raises(cardcore.PluginError, match="moved, added or removed cards") as info:
            game.legal_actions(game.to_act[0])
        assert info.value.plugin == name
        assert game.save() == saved
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_the_kit_finds_a_veto_that_changes_the_state_without_moving_a_card() -> None:
    def forbid_action(state: Any, action: Any) -> None:
        state.turns += 1  # no card moves: only the kit's reads check can see it

    name = "golf.fixes-1216-counter"
    cardcore.register("cardcore.rules", name, _veto_rule(name, "GOLF-FX1216-2", forbid_action))
    try:
        report = check_game("golf", players=2, rules=[name], games=1, seed=1, strict=False)
        assert any(f"forbid_action ({name}) changed the state" in f for f in report.failures), (
            report.failures[:3]
        )
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_a_wrapper_veto_that_moves_a_card_is_refused_and_the_game_unchanged() -> None:
    @hookimpl(wrapper=True)
    def forbid_action(state: Any, action: Any) -> Any:
        answers = yield
        piles = state.zones.cards
        piles[1].append(piles[0].pop())  # after the others answered: only the chain sees it
        return answers

    module = types.ModuleType("golf_fixes_1216_wrapper")
    module.RULE = cardcore.RuleInfo(  # type: ignore[attr-defined]
        id="GOLF-FX1216-3", name="golf.fixes-1216-wrapper", game="golf", summary="a wrapper"
    )
    module.forbid_action = forbid_action  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.fixes-1216-wrapper", module)
    try:
        game = cardcore.new_game("golf", 2, seed=3, rules=["golf.fixes-1216-wrapper"])
        saved = game.save()
        with pytest.raises(cardcore.PluginError, match="moved, added or removed cards"):
            game.legal_actions(game.to_act[0])
        assert game.save() == saved
    finally:
        cardcore.unregister("cardcore.rules", "golf.fixes-1216-wrapper")
