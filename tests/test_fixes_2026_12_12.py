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


def test_tonk_samples_after_a_take_start_as_positions_for_every_viewer() -> None:
    """The discard taken this turn is shown on the table but not where it lies: a sample for
    any viewer puts it into the taker's hand (it dealt it among the hidden places, and the
    position was refused in about 85% of samples)."""
    import random

    from cardcore.search import sample_position

    checked = 0
    for seed in range(12):
        game = cardcore.new_game("tonk", 3, seed=seed)
        rnd = random.Random(seed)
        while not game.is_over and game.version < 120:
            legal = game.legal_actions(game.to_act[0])
            takes = [a for a in legal if str(a).startswith("take")]
            game.apply(takes[0] if takes and rnd.random() < 0.7 else rnd.choice(legal))
            taken = game.view(None)["table"]["taken"]
            if taken is None:
                continue
            taker = game.view(None)["table"]["turn"]
            for viewer in (None, 0, 1, 2):
                position = sample_position(game.view(viewer), random.Random(checked))
                world = cardcore.new_game("tonk", 3, position=position, seed=1)
                checked += 1
                hand = world.view(taker)["zones"]
                held = [
                    c for z in hand if z["name"] in (f"hand.{taker}", "spreads") for c in z["cards"]
                ]
                assert taken in held
    assert checked > 40
