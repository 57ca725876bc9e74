"""Rule tests a mutation audit of 2026-12-06 found missing: each kills a mutant that
survived every test named after its rule."""

from __future__ import annotations

import pytest
from tests.games.tonk.helpers import tonk

from cardcore import IllegalActionError


def test_tonk_turn_4_taken_ace_of_spades_is_not_thrown_back() -> None:
    """TONK-TURN-4 for the card of index 0 (AS) with no spread or hit in hand (the fast
    path): it may not be discarded the turn it was taken. (Mutant: ``taken > 0``.)"""
    game = tonk(["10S 4H 3D 2C 9C", "5D 4C 3H 2D AD", "10H 6S 7C 3C 4D"], upcard="AS")
    game.act(0, "take")
    legal = [str(a) for a in game.legal_actions(0)]
    assert "discard AS" not in legal and "discard 9C" in legal
    with pytest.raises(IllegalActionError, match="TONK-TURN-4"):
        game.act(0, "discard AS")
