"""Rule tests a mutation audit of 2026-12-06 found missing: each kills a mutant that
survived every test named after its rule."""

from __future__ import annotations

from tests.games.spit.helpers import arrange, held
from tests.games.spit.test_mutants_2026_12_03 import piles, spit, table


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
