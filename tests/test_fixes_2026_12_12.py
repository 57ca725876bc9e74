"""Small fixes of 2026-12-12, each found by an audit of that day."""

from __future__ import annotations

import pytest

import cardcore


def test_tonk_first_dealer_beyond_the_seats_cites_its_rule() -> None:
    """Every other Tonk option error cites a rule; a dealer seat the table lacks did not."""
    with pytest.raises(cardcore.OptionError) as err:
        cardcore.new_game("tonk", 3, options={"first_dealer": 3})
    assert err.value.rule_id == "TONK-DEALER-1"
    assert "from 0 to 2, not 3" in str(err.value)
    assert cardcore.new_game("tonk", 3, options={"first_dealer": 2}, seed=1).view(None)
