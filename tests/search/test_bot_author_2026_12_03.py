"""A bot author's and house-rule researcher's review of the search agents, agents and lab docs."""

from __future__ import annotations

import random

import pytest

import cardcore
from cardcore.search import ISMCTSAgent
from cardcore_tonk.agents import TonkHeuristicAgent


def _first_decision(seed: int) -> cardcore.Game:
    game = cardcore.new_game("tonk", 2, seed=seed)
    assert not game.is_over and game.to_act == (0,)
    return game


def test_tonk_heuristic_choice_in_a_new_game_does_not_depend_on_the_previous_game() -> None:
    used = TonkHeuristicAgent(seed=1, drop_margin=0.4)
    cardcore.play(cardcore.new_game("tonk", 2, seed=0), [used, cardcore.RandomAgent(5)])
    game = _first_decision(102)
    legal = game.legal_actions(0)
    fresh = TonkHeuristicAgent(seed=1, drop_margin=0.4)
    used.rng = random.Random(1)  # the same draws as the fresh agent: only its memory differs
    assert str(used.choose(game.view(0), legal)) == str(fresh.choose(game.view(0), legal))


@pytest.mark.parametrize("study", [71, 472])
def test_first_seat_of_a_hand_ended_at_the_deal_is_left_of_the_dealer(study: int) -> None:
    from cardcore.simulate import _seed_of  # how compare seeds game 0 of a study seed

    game = cardcore.new_game("tonk", 3, seed=_seed_of(study, 0))
    assert game.is_over and game.result is not None and game.result.reason == "natural"
    dealer = game.history(None)[1]["dealer"]  # the hand's dealer (the state names the next one)
    left = (dealer + 1) % 3
    assert game.result.winners == (left,) and left != 0  # seat 0 (the old guess) lost
    result = cardcore.compare("tonk", games=1, players=3, seed=study, skill=None)
    assert result.a.first_seat is not None
    assert result.a.first_seat.mean == pytest.approx(1 - 1 / 3)


def test_house_rule_study_summary_quotes_its_own_table() -> None:
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "house-rule-study.rst").read_text("utf-8")
    table_row = "     - +1.9% [-0.2, 4.0]"
    assert table_row in text.splitlines()  # the rounds=1 table, diagonal pairs, skill B - A
    assert "(diagonal pairs: +1.9% [-0.2, 4.0])" in " ".join(text.split())


def _swap_hidden(game: cardcore.Game, seat: int) -> cardcore.Game:
    """A clone of *game* with two different cards hidden from *seat* swapped."""
    zones = game.state.zones
    slots = [
        (z, len(zones.cards[z]) - 1 - i)  # show() lists a pile top first
        for z in range(len(zones.cards))
        for i, shown in enumerate(zones.show(z, seat))
        if shown is None
    ]
    for a in slots:
        for b in slots:
            if zones.cards[a[0]][a[1]] != zones.cards[b[0]][b[1]]:
                twin = game.clone()
                cards = twin.state.zones.cards
                cards[a[0]][a[1]], cards[b[0]][b[1]] = cards[b[0]][b[1]], cards[a[0]][a[1]]
                return twin
    raise AssertionError("no two different hidden cards")


@pytest.mark.parametrize(
    ("name", "options"),
    [("golf", {"layout": 4, "rounds": 1}), ("golf", {"layout": 9, "rounds": 1}), ("tonk", {})],
)
def test_ismcts_cannot_tell_games_apart_that_differ_only_in_a_hidden_card(
    name: str, options: dict[str, object]
) -> None:
    game = cardcore.new_game(name, 2, seed=5, options=options)
    rng = random.Random(2)
    for _ in range(6):  # a few plies in, so draws and discards have happened
        if game.is_over:
            break
        legal = [a for a in game.legal_actions(game.to_act[0]) if str(a) != "drop"]
        game.apply(rng.choice(legal))
    assert not game.is_over
    seat = game.to_act[0]
    twin = _swap_hidden(game, seat)
    assert twin.position() != game.position()
    assert twin.view(seat) == game.view(seat)
    picks = [
        str(ISMCTSAgent(seed=3, iterations=12).choose(g.view(seat), g.legal_actions(seat)))
        for g in (game, twin)
    ]
    assert picks[0] == picks[1]
