"""Rule tests a mutation audit of 2026-12-06 found missing: each kills a mutant that
survived every test named after its rule."""

from __future__ import annotations

import types
from typing import Any

import pytest
from tests.games.spit.helpers import arrange, eights_game, golden_game, held, walk
from tests.games.spit.test_mutants_2026_12_03 import piles, spit, table

import cardcore
from cardcore import RuleInfo, hookimpl, with_jokers


def test_spit_stuck_6_a_single_pile_recycle_that_yields_cards_is_not_void() -> None:
    """SPIT-STUCK-6: in single-pile mode a recycle that yields cards goes on (the inactive
    pile yields none). (Mutant: any pile yielding nothing voids the deal.)"""
    game = arrange(
        spit(),
        ["6S", "9C", "KD", "2C", "5H"],
        ["QC", "QD", "QH", "QS", "JC"],
        left="3D 10D",
        rest="left",
        single=0,
    )
    assert piles(game)["R"] is None
    game.act(0, "spit")
    game.act(1, "spit")  # due, nobody has spit cards: recycle pile L, not a void deal
    t = table(game)
    assert (t["phase"], t["deal"]) == ("play", 1)
    left = piles(game)["L"]
    assert len(left) == 2 and left[1] == "10D"  # (top first) the kept top under seat 0's spit
    assert table(game)["seats"][0]["spit_cards"] == 52 - 10 - 2
    assert len(held(game, 0)) + len(held(game, 1)) + len(left) == 52


def _jokers_rule(game: str, rule_id: str) -> types.ModuleType:
    @hookimpl(wrapper=True)
    def build_deck(players: int, options: Any) -> Any:
        deck = yield
        return with_jokers(tuple(deck), 2)

    module = types.ModuleType(f"zz_{game}_gen_2")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id=rule_id, name=f"{game}.zz-jokers-gen-2", game=game, summary="adds jokers"
    )
    module.build_deck = build_deck  # type: ignore[attr-defined]
    return module


def test_spit_gen_2_a_rule_adding_jokers_is_refused_by_name() -> None:
    """SPIT-GEN-2: one 52-card deck without jokers; a house rule adding jokers is refused,
    named. (Mutant: the deck check dropped.)"""
    name = "spit.zz-jokers-gen-2"
    cardcore.register("cardcore.rules", name, _jokers_rule("spit", "TEST-SPIT-GEN-2"))
    try:
        with pytest.raises(cardcore.PluginError, match="52") as failure:
            cardcore.new_game("spit", 2, rules=[name], seed=1)
        assert failure.value.plugin == name
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_spit_move_8_every_combine_and_fill_moves_exactly_one_card() -> None:
    """SPIT-MOVE-8: a combine or fill from a pile of several cards moves its top card only.
    (Mutant: the next card moved along.)"""
    from cardcore_spit.actions import Combine, Fill
    from cardcore_spit.state import LAY

    checked = 0
    for start in (eights_game, golden_game):
        for seed in range(4):
            game = walk(start(), 25, seed)
            for seat in game.to_act:
                for action in game.legal_actions(seat):
                    if type(action) not in (Combine, Fill):
                        continue
                    clone = game.clone()
                    cards = clone.state.zones.cards
                    src, dst = LAY[seat][action.src], LAY[seat][action.dst]
                    before = (len(cards[src]), len(cards[dst]), clone.state.deal)
                    clone.apply(action)
                    if clone.state.deal != before[2]:
                        continue  # a void deal re-laid the cards: not a hand move
                    cards = clone.state.zones.cards
                    after = (len(cards[src]), len(cards[dst]))
                    assert after == (before[0] - 1, before[1] + 1), str(action)
                    checked += before[0] > 1
    assert checked  # a source pile of several cards was among them
