"""Finding 9: ``deck=`` without ``seed=`` draws a fresh random seed (recorded as usual),
so the cards below the stacked ones are not publicly computable."""

from __future__ import annotations

import cardcore


def test_stacked_deck_without_a_seed_gets_a_fresh_seed_each_game() -> None:
    games = [cardcore.new_game("tonk", 2, deck="5H 9C KD") for _ in range(4)]
    seeds = {g.seed for g in games}
    assert len(seeds) == 4 and 0 not in seeds
    hands = {tuple(map(str, g.state.zones.cards[3])) for g in games}  # seat 1's hidden hand
    assert len(hands) > 1
    for game in games:
        again = cardcore.replay(game.record())
        assert again.record()["seed"] == game.seed
        assert again.state.zones.cards == game.state.zones.cards


def test_a_stacked_deck_with_a_seed_is_reproducible() -> None:
    a = cardcore.new_game("tonk", 2, deck="5H 9C KD", seed=9)
    b = cardcore.new_game("tonk", 2, deck="5H 9C KD", seed=9)
    assert a.state.zones.cards == b.state.zones.cards
