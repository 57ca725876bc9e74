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


def _tonk_ended_between_hands() -> cardcore.Game:
    import random

    game = cardcore.new_game("tonk", 2, seed=4, options={"hands": 3})
    rng = random.Random(0)
    while game.view(0)["table"]["phase"] != "between":
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    game.act(game.to_act[0], "resign")
    return game


def test_tonk_position_of_a_session_ended_between_hands_names_its_last_deal() -> None:
    """The view of a session ended between hands names the last deal; a position holds no
    finished hands, so it carries that deal as ``last`` and reads it back."""
    game = _tonk_ended_between_hands()
    position = game.position()
    assert " last=[1,0] " in position
    again = cardcore.new_game("tonk", 2, position=position, seed=1, options={"hands": 3})
    table = again.view(0)["table"]
    assert (table["hand_number"], table["dealer"]) == (1, 0)
    assert again.position() == position
    # a void deal 2 dealt by seat 1, the deal passing left after it (TONK-DEALER-2)
    moved = position.replace("last=[1,0]", "last=[2,1]").replace(
        "dealer=1 turn=1", "dealer=0 turn=0"
    )
    table = cardcore.new_game("tonk", 2, position=moved, seed=1, options={"hands": 3}).view(0)[
        "table"
    ]
    assert (table["hand_number"], table["dealer"]) == (2, 1)


@pytest.mark.parametrize(
    ("last", "words"),
    [
        ("[4,0]", "last's hand must be a whole number from 1 to 2"),
        ("[1,2]", "last's dealer must be"),
        ("[1]", "last must be"),
    ],
)
def test_tonk_position_refuses_a_bad_last_deal(last: str, words: str) -> None:
    position = _tonk_ended_between_hands().position().replace("last=[1,0]", f"last={last}")
    with pytest.raises(cardcore.OptionError, match=words):
        cardcore.new_game("tonk", 2, position=position, seed=1, options={"hands": 3})


def test_tonk_position_refuses_a_last_deal_in_a_session_still_playing() -> None:
    game = cardcore.new_game("tonk", 2, seed=4, options={"hands": 3})
    head, sep, rest = game.position().partition(" | ")
    with pytest.raises(
        cardcore.OptionError, match="last names the last deal of a finished session"
    ):
        cardcore.new_game(
            "tonk", 2, position=f"{head} last=[1,0]{sep}{rest}", seed=1, options={"hands": 3}
        )


def test_a_rule_id_names_its_rule_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    """``cardcore rules golf golf-score-6`` took a lower-case ID; ``--rules golf-score-2`` and
    ``new_game(rules=...)`` refused it."""
    from cardcore.cli import main

    assert cardcore.new_game("golf", 2, rules=["golf-score-2"], seed=1).rules == ("golf.hard",)
    assert cardcore.new_game("tonk", 2, without=["tonk-49-1"], seed=1).rules == ()
    with pytest.raises(cardcore.UnknownPluginError, match="golf-score-99"):
        cardcore.new_game("golf", 2, rules=["golf-score-99"])
    args = ["simulate", "golf", "--games", "1", "--players", "2", "-o", "rounds=1"]
    assert main([*args, "--rules", "golf-score-2"]) == 0, capsys.readouterr().err
