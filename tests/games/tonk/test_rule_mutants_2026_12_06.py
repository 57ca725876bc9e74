"""Rule tests a mutation audit of 2026-12-06 found missing: each kills a mutant that
survived every test named after its rule."""

from __future__ import annotations

import types
from typing import Any

import pytest
from tests.games.tonk.helpers import hand, stacked, tonk
from tests.games.tonk.test_positions import H15, H20, H30, _same_game_from, sorted_hand

import cardcore
from cardcore import IllegalActionError, RuleInfo, hookimpl, with_jokers
from cardcore_tonk.position import stack_deals


def test_tonk_turn_4_taken_ace_of_spades_is_not_thrown_back() -> None:
    """TONK-TURN-4 for the card of index 0 (AS) with no spread or hit in hand (the fast
    path): it may not be discarded the turn it was taken. (Mutant: ``taken > 0``.)"""
    game = tonk(["10S 4H 3D 2C 9C", "5D 4C 3H 2D AD", "10H 6S 7C 3C 4D"], upcard="AS")
    game.act(0, "take")
    legal = [str(a) for a in game.legal_actions(0)]
    assert "discard AS" not in legal and "discard 9C" in legal
    with pytest.raises(IllegalActionError, match="TONK-TURN-4"):
        game.act(0, "discard AS")


def test_tonk_turn_3_draw_takes_the_top_of_the_stock() -> None:
    """TONK-TURN-3: a draw takes the top card of the stock. (Mutant: the bottom card.)"""
    game = tonk([H20, H15, H30], upcard="KD", stock="9D 8H 7S")  # 9D on top
    game.act(0, "draw")
    assert "9D" in hand(game, 0)
    assert "8H" not in hand(game, 0) and "7S" not in hand(game, 0)
    assert game.view(0)["table"]["stock"] == 52 - 15 - 1 - 1


def test_tonk_session_2_a_stacked_later_hand_is_dealt_top_first() -> None:
    """TONK-SESSION-2: a later hand stacked in a position's ``next`` is dealt from its top,
    one card at a time from the dealer's left. (Mutant: the stacked cards reversed.)"""
    second = stacked(["AS AH AC 2S 2H", H15, H30], upcard="JC", stock="9S 9H")  # dealer 0
    game = tonk([H20, H15, H30], hands=2)
    session = _same_game_from(game, stack_deals(game.position(), [second]), seed=9)
    session.act(0, "drop")
    session.act(0, "deal")
    assert hand(session, 1) == sorted_hand("AS AH AC 2S 2H")
    assert hand(session, 2) == sorted_hand(H15)
    assert hand(session, 0) == sorted_hand(H30)
    assert session.view(1)["table"]["discard_top"] == "JC"
    session.act(1, "draw")
    assert "9S" in hand(session, 1)


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


def test_tonk_gen_2_a_rule_adding_jokers_is_refused_by_name() -> None:
    """TONK-GEN-2: one 52-card deck without jokers; a house rule adding jokers is refused,
    named. (Mutant: the deck check dropped.)"""
    name = "tonk.zz-jokers-gen-2"
    cardcore.register("cardcore.rules", name, _jokers_rule("tonk", "TEST-TONK-GEN-2"))
    try:
        with pytest.raises(cardcore.PluginError, match="52") as failure:
            cardcore.new_game("tonk", 2, rules=[name], seed=1)
        assert failure.value.plugin == name
    finally:
        cardcore.unregister("cardcore.rules", name)
