"""The engine's shortcuts answer what the general code answers (scoring, dealing, setup)."""

from __future__ import annotations

import random

import pytest
from tests.games.golf.helpers import golf, logic, stack, state

from cardcore import Card, Game
from cardcore_golf.grids import LAYOUTS, column_scorer, columns_of, default_scorer, no_cancel_scorer


def _general_scores(game: Game) -> list[int]:
    """Every seat's cancelled score through the key and point lists and the plan's scorer."""
    st = state(game)
    return [st.plan.scorer(*st.keys_and_points(seat)) for seat in range(st.players)]


def test_columns_of_knows_only_column_scorers() -> None:
    assert columns_of(column_scorer(3)) == 3
    assert columns_of(default_scorer(LAYOUTS["10"])) == 5
    assert columns_of(default_scorer(LAYOUTS["9"])) == 0
    assert columns_of(no_cancel_scorer()) == 0
    inner = column_scorer(3)
    assert columns_of(lambda keys, points: inner(keys, points)) == 0  # a wrapper: the lists


@pytest.mark.parametrize("layout", [6, 8, 10])
@pytest.mark.parametrize("players", [2, 4, 5])
def test_round_scores_from_cards_match_the_scorer(layout: int, players: int) -> None:
    rng = random.Random(layout * 10 + players)
    for seed in range(3):
        game = golf(players, seed=seed, options={"layout": layout})
        assert state(game).plan.columns  # the shortcut is taken
        while not game.is_over and state(game).round == 1:
            assert logic(game).round_scores(state(game), -1) == _general_scores(game)
            game.apply(rng.choice(game.legal_actions(game.to_act[0])))


def test_round_scores_with_equal_cards_not_interned() -> None:
    game = golf(2, deck=stack(["5H 9C KD 5S 2D KH", "AS AH 3C 3D 10S JS"], "4C"))
    st = state(game)
    expected = _general_scores(game)
    assert logic(game).round_scores(st, -1) == expected == [11, 28]
    pile = st.zones.cards[st.plan.grid[0]]
    pile[0] = Card(pile[0].rank, pile[0].suit)  # equal, but not the interned object
    assert pile[0] is not Card.parse("5H")
    assert logic(game).round_scores(st, -1) == expected


@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_deal_order_one_card_at_a_time_from_the_dealers_left(players: int) -> None:
    game = golf(players, seed=5)
    st = state(game)
    lg = logic(game)
    for dealer in range(players):
        cards = st.zones.cards
        stock = cards[st.plan.stock]
        stock[:] = [c for z in cards for c in z]  # every card, in zone order
        for z in range(1, len(cards)):
            cards[z] = []
            st.zones.seen[z] = []
        st.zones.seen[st.plan.stock] = [0] * len(stock)
        top = stock[::-1]
        st.dealer = dealer
        lg._deal(st, None)
        first = (dealer + 1) % players
        for k in range(6 * players):
            seat = (first + k % players) % players
            assert cards[st.plan.grid[seat]][k // players] is top[k]
        assert cards[st.plan.discard] == [top[6 * players]]
        assert stock == top[6 * players + 1 :][::-1]
        assert len(st.zones.seen[st.plan.stock]) == len(stock)
        assert st.turn == first


def test_setup_legal_by_done_mask() -> None:
    plan = state(golf(3)).plan
    for seat in range(3):
        for done in range(1 << 6):
            expected = tuple(plan.flip_act[seat][p] for p in range(6) if not done >> p & 1)
            assert plan.setup_legal(seat, done) == expected
            assert plan.setup_legal(seat, done) is plan.setup_legal(seat, done)
