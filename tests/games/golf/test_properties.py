"""Properties of random Golf games (hypothesis): they end, every card is always in exactly
one place, views never reveal a hidden card, clones and replays agree."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from tests.games.golf.helpers import state

import cardcore
from cardcore import ALL
from cardcore.testing import assert_conserved

LAYOUTS = [6, 8, 9, 10, "4", "4h"]
RULES_FOR = {
    6: ["golf.jokers", "golf.pairs-anywhere", "golf.remove-columns", "golf.final-stock-only",
        "golf.reveal-same-column", "golf.ender-penalty-10", "golf.hard"],
    8: ["golf.bonus-twos", "golf.four-of-a-kind-columns", "golf.no-final-turns",
        "golf.reveal-different-columns"],
    9: ["golf.remove-triples", "golf.one-eyed-jacks", "golf.ender-penalty-lowest"],
    10: ["golf.pairs-anywhere", "golf.remove-columns", "golf.jokers"],
    "4": ["golf.diagonal-pairs", "golf.peek-nearest", "golf.knock-final-stock-only",
          "golf.ender-penalty-10", "golf.hard"],
    "4h": ["golf.no-cancelling", "golf.knock-final-stock-only", "golf.jokers"],
}  # fmt: skip


def visible_ok(game: cardcore.Game) -> None:
    """Every card a view shows is one that seat may know; every hidden one is None."""
    st_ = state(game)
    plan = st_.plan
    zones = st_.zones
    for seat in [*range(st_.players), None]:
        table = game.view(seat)["table"]
        bit = 0 if seat is None else 1 << seat
        for owner, z in enumerate(plan.grid):
            pile = zones.cards[z]
            for pos in range(plan.layout.size):
                shown = table["grids"][owner][pos]
                i = st_.index(owner, pos)
                if i < 0:
                    assert shown == "--"
                    continue
                mask = zones.seen[z][i]
                may = mask == ALL or bool(mask & bit) or (plan.layout.hand and seat == owner)
                assert shown == (str(pile[i]) if may else None), (seat, owner, pos)
        held = table["held"]
        if held is not None and held["card"] is not None:
            hz = plan.held[held["seat"]]
            assert zones.seen[hz][0] == ALL or seat == held["seat"]


def random_game(seed: int, layout: object, players: int, rules: list[str]) -> cardcore.Game:
    return cardcore.new_game(
        "golf", players, seed=seed, rules=rules, options={"layout": layout, "rounds": 2}
    )


@given(
    seed=st.integers(0, 1 << 30),
    layout=st.sampled_from(LAYOUTS),
    players=st.integers(2, 6),
    data=st.data(),
)
def test_random_games_end_conserve_cards_and_hide_cards(
    seed: int, layout: object, players: int, data: st.DataObject
) -> None:
    choices = RULES_FOR[layout]
    picked = data.draw(st.lists(st.sampled_from(choices), unique=True, max_size=3))
    try:
        game = random_game(seed, layout, players, picked)
    except cardcore.RuleConflictError:
        return
    bound = game.logic.action_bound(players, game.options)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        assert legal, "a seat to act always has a legal action"
        game.apply(rng.choice(legal))
        steps += 1
        assert steps <= bound
        assert_conserved(game)
        if steps % 3 == 0:
            visible_ok(game)
    assert game.result is not None and game.result.reason == "rounds"
    totals = state(game).sheet.totals
    assert set(game.result.winners) == {s for s, t in enumerate(totals) if t == min(totals)}


@given(seed=st.integers(0, 1 << 30), layout=st.sampled_from(LAYOUTS))
def test_replay_and_clone_agree(seed: int, layout: object) -> None:
    game = random_game(seed, layout, 3, [])
    rng = random.Random(seed)
    clone = None
    while not game.is_over:
        legal = game.legal_actions(game.to_act[0])
        game.apply(rng.choice(legal))
        if clone is None and game.version == 10:
            clone = game.clone()
            snapshot = clone.state.snapshot()
    again = cardcore.replay(game.record())
    assert again.result == game.result
    assert again.state.snapshot() == game.state.snapshot()
    if clone is not None:
        assert clone.state.snapshot() == snapshot  # the original moved on, the clone did not
    loaded = cardcore.load(game.save())
    assert loaded.result == game.result
