"""Position notation of Spit and Speed: write, read back, validate."""

from __future__ import annotations

import pytest
from tests.games.spit.helpers import golden_game, restart, walk

import cardcore
from cardcore import OptionError


def _same_game(a: cardcore.Game, b: cardcore.Game) -> None:
    """Same views (but the version) and the same legal actions for every seat."""
    for seat in (None, 0, 1):
        va, vb = a.view(seat), b.view(seat)
        va.pop("version")
        vb.pop("version")
        assert va == vb, seat
    for seat in (0, 1):
        assert [str(x) for x in a.legal_actions(seat)] == [str(x) for x in b.legal_actions(seat)]
    assert a.to_act == b.to_act


CASES = [("spit", 1, 0), ("spit", 2, 5), ("spit", 3, 40), ("spit", 4, 120), ("spit", 5, 333),
         ("spit", 6, 800), ("speed", 1, 0), ("speed", 2, 3), ("speed", 3, 12), ("speed", 4, 25),
         ("speed", 5, 40), ("speed", 6, 50)]


@pytest.mark.parametrize(("name", "seed", "steps"), CASES)
def test_new_game_from_position_reproduces_a_mid_game_position(name: str, seed: int, steps: int) -> None:
    game = walk(cardcore.new_game(name, 2, seed=seed), steps, seed)
    assert not game.is_over and game.version == steps
    text = game.position()
    again = cardcore.new_game(name, 2, position=text, seed=99)
    _same_game(game, again)
    assert again.position() == text
    # both go on the same way while no chance is drawn
    for action in game.legal_actions(game.to_act[0])[:1]:
        game.apply(action)
        again.act(action.seat, str(action))
        _same_game(game, again)


@pytest.mark.parametrize("rules", [["spit.chooser"], ["spit.canfield"], ["spit.same-rank"]])
def test_spit_positions_with_house_rules(rules: list[str]) -> None:
    for seed in range(8):
        game = walk(cardcore.new_game("spit", 2, seed=seed, rules=rules), 60 * seed, seed)
        if not game.is_over:
            _same_game(game, restart(game))


def test_spit_position_in_every_phase() -> None:
    game = golden_game(["spit.chooser"])
    _same_game(game, restart(game))  # setup
    game.act(0, "ready")
    _same_game(game, restart(game))  # setup, seat 0 ready: only seat 1 acts
    game.act(1, "ready")
    _same_game(game, restart(game))  # play
    for pile, times in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5)):
        for _ in range(times):
            game.act(0, f"play {pile} L")
    again = restart(game)  # claim: only the emptier chooses
    _same_game(game, again)
    assert again.to_act == (0,)
    again.act(0, "choose R")
    assert not again.is_over


def test_spit_position_text_reads_as_documented() -> None:
    game = golden_game()
    text = game.position()
    head, *piles = text.split(" | ")
    assert head == (
        'spit v=1 phase="setup" deal=1 single=-1 ready=[false,false] requests=[false,false]'
        " stall=0 recycled=false emptier=-1"
    )
    assert piles[0] == "layout.0.1: 2H!" and piles[1] == "layout.0.2: 4H 3H!"
    assert piles[-2:] == ["pile.L:", "pile.R:"]


def _swap(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: _swap(t, "layout.0.1: 2H!", "layout.0.1: 2H"), "face up"),
        (lambda t: _swap(t, "layout.0.1: 2H!", "layout.0.1: 2H! 2H!"), "exactly once"),
        (lambda t: _swap(t, "layout.0.1: 2H!", "layout.0.1:"), "exactly once"),
        (lambda t: _swap(t, "layout.0.2: 4H 3H!", "layout.0.2: 4H! 3H!"), "SPIT-MOVE-5"),
        (lambda t: _swap(t, "layout.0.2: 4H 3H!", "layout.0.2: 3H!"), "exactly once"),
        (lambda t: _swap(t, 'phase="setup"', 'phase="over"'), "phase"),
        (lambda t: _swap(t, 'phase="setup"', 'phase="play"'), "SPIT-SETUP-6"),
        (lambda t: _swap(t, "ready=[false,false]", "ready=[true,true]"), "SPIT-START-1"),
        (lambda t: _swap(t, "single=-1", "single=0"), "SPIT-END-5"),
        (lambda t: _swap(t, "deal=1", "deal=0"), "deal"),
        (lambda t: _swap(t, "stall=0 ", "stall=20 "), "stall"),
        (lambda t: _swap(t, "v=1", "v=2"), "version"),
        (lambda t: _swap(t, " emptier=-1", ""), "fields"),
        (lambda t: _swap(t, "spit v=1", "speed v=1"), "spit"),
        (lambda t: t + " | pile.X: 5H!", "unknown pile"),
    ],
)
def test_spit_bad_positions_are_refused(change: object, message: str) -> None:
    text = golden_game().position()
    assert callable(change)
    with pytest.raises(OptionError, match=message):
        cardcore.new_game("spit", 2, position=change(text), seed=1)


def test_spit_position_refuses_a_due_spit() -> None:
    game = golden_game()
    game.act(0, "ready")
    game.act(1, "ready")
    text = _swap(game.position(), "requests=[false,false]", "requests=[true,true]")
    with pytest.raises(OptionError, match="SPIT-STUCK-3"):
        cardcore.new_game("spit", 2, position=text, seed=1)


def test_spit_position_of_a_finished_game_cannot_start_one() -> None:
    game = cardcore.new_game("spit", 2, seed=2)
    cardcore.run_realtime(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], seed=1, max_actions=20)
    assert game.is_over and 'phase="over"' in game.position()
    with pytest.raises(OptionError, match="phase"):
        cardcore.new_game("spit", 2, position=game.position(), seed=1)


def test_speed_bad_positions_are_refused() -> None:
    game = cardcore.new_game("speed", 2, seed=1)
    text = game.position()
    head, *piles = text.split(" | ")
    assert head == "speed v=1 requests=[false,false] recycled=false"
    hand0 = piles[0]
    card = hand0.split()[1]
    bad = [
        (_swap(text, "requests=[false,false]", "requests=[true,true]"), "SPEED-STUCK-1"),
        (_swap(text, card, card.replace("@0", "@1")), "owner"),
        (_swap(text, card, card.replace("@0", "!")), "owner"),
        (_swap(text, hand0, "hand.0:"), "exactly once"),
    ]
    for position, message in bad:
        with pytest.raises(OptionError, match=message):
            cardcore.new_game("speed", 2, position=position, seed=1)
    with pytest.raises(OptionError, match="exactly once"):  # the jokers option changes the deck
        cardcore.new_game("speed", 2, position=text, seed=1, options={"jokers": 2})


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_view_fields_declare_every_table_key(name: str) -> None:
    game = walk(cardcore.new_game(name, 2, seed=3), 30, 3)
    declared = [f.name for f in cardcore.game_info(name).fields]
    assert len(declared) == len(set(declared))
    for seat in (None, 0, 1):
        assert list(game.view(seat)["table"]) == declared
    schema = game.view_schema()
    assert [f["name"] for f in schema["fields"]] == declared
    assert all(f["doc"] for f in schema["fields"])
    zones = {z["name"] for z in game.view(0)["zones"]}
    assert {"pile.L", "pile.R"} <= zones
