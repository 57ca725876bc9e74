"""Hypothesis properties over random Spit and Speed games."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.spit.helpers import spit_state

import cardcore
from cardcore import ALL
from cardcore.testing import assert_conserved

CARD = re.compile(r"'((?:10|[2-9AJQK])[SHDC]|JK)'")
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _visible(game: cardcore.Game, seat: int | None) -> set[str]:
    zones = game.state.zones
    out: set[str] = set()
    for z, pile in enumerate(zones.cards):
        for i, card in enumerate(pile):
            if zones.is_visible(z, i, seat):
                out.add(str(card))
    return out


def _view_cards(view: dict[str, Any]) -> set[str]:
    return set(CARD.findall(repr(view["table"])))


@SETTINGS
@given(seed=st.integers(0, 2**40), tie=st.integers(0, 1000), name=st.sampled_from(["spit", "speed"]))
def test_random_games_terminate_and_conserve_cards(seed: int, tie: int, name: str) -> None:
    game = cardcore.new_game(name, 2, seed=seed)
    checks = {"count": 0}

    def check(g: cardcore.Game, action: object, t: float) -> None:
        if g.version % 7 == 0:
            assert_conserved(g)
            checks["count"] += 1
            for seat in (0, 1, None):
                view = g.view(seat)
                assert _view_cards(view) <= _visible(g, seat)

    agents = [cardcore.RandomAgent(seed % 1000), cardcore.RandomAgent(seed % 1000 + 1)]
    result = cardcore.run_realtime(game, agents, seed=tie, on_action=check)
    bound = game.logic.action_bound(2, game.options)
    assert result.reason != "truncated" and game.version <= bound
    assert_conserved(game)


@SETTINGS
@given(seed=st.integers(0, 2**40), steps=st.integers(0, 200))
def test_spit_views_hide_face_down_cards(seed: int, steps: int) -> None:
    game = cardcore.new_game("spit", 2, seed=seed)
    agents = [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]
    cardcore.run_realtime(game, agents, seed=seed, max_actions=steps)
    zones = game.state.zones
    hidden = {str(c) for z, pile in enumerate(zones.cards) for i, c in enumerate(pile) if zones.seen[z][i] != ALL
              and zones.layout.specs[z].visibility is cardcore.Visibility.NOBODY}
    for seat in (0, 1, None):
        assert not (_view_cards(game.view(seat)) & hidden)


@SETTINGS
@given(seed=st.integers(0, 2**40), jokers=st.sampled_from([0, 2]), side=st.sampled_from([5, 15]))
def test_speed_hands_private_and_conserved(seed: int, jokers: int, side: int) -> None:
    game = cardcore.new_game("speed", 2, seed=seed, options={"jokers": jokers, "side_pile": side})
    agents = [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]
    cardcore.run_realtime(game, agents, seed=seed, max_actions=25)
    assert_conserved(game)
    assert sum(1 for _ in game.state.zones.all_cards()) == 52 + jokers
    for seat in (0, 1):
        other = game.view(seat)["table"]["seats"][1 - seat]["hand"]
        assert all(c is None for c in other)


@SETTINGS
@given(seed=st.integers(0, 2**40))
def test_spit_stuck_3_inlined_progress_check_matches_pure_logic(seed: int) -> None:
    from cardcore_spit import piles

    game = cardcore.new_game("spit", 2, seed=seed)
    _, engine = spit_state(game)
    compared = 0

    def check(g: cardcore.Game, action: object, t: float) -> None:
        nonlocal compared
        state, _ = spit_state(g)
        cards, seen = state.zones.cards, state.zones.seen
        targets = [int(cards[engine.centre[p]][-1].rank) if cards[engine.centre[p]] else None for p in (0, 1)
                   if state.single < 0 or p == state.single]
        for seat in (0, 1):
            tops = [int(cards[z][-1].rank) if cards[z] else None for z in engine.lay[seat]]
            below = [len(cards[z]) > 1 and seen[z][-2] != ALL for z in engine.lay[seat]]
            assert engine.can_progress(state, seat) == piles.can_progress(tops, below, targets, engine.adj)
            compared += 1

    cardcore.run_realtime(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], seed=seed,
                          max_actions=300, on_action=check)
    assert compared > 0


@SETTINGS
@given(seed=st.integers(0, 2**40), limit=st.integers(1, 6))
def test_spit_stuck_3_settled_matches_spit_due_then_set_to_act(seed: int, limit: int) -> None:
    """The one-pass check the logic makes after each action gives spit_due's answer and
    set_to_act's seats, whichever summaries are cached (and caches only true summaries)."""
    from cardcore_spit import legality
    from cardcore_spit.state import PLAY

    game = cardcore.new_game("spit", 2, seed=seed, options={"stall_limit": limit})
    _, engine = spit_state(game)
    compared = 0

    def check(g: cardcore.Game, action: object, t: float) -> None:
        nonlocal compared
        state, _ = spit_state(g)
        if state.phase != PLAY:
            return
        for stale in ((), (0,), (1,), (0, 1)):  # forget some cached summaries
            mine = state.clone()
            for seat in stale:
                setattr(mine, f"summary{seat}", -1)
            mine.to_act = ()
            fresh = state.clone()
            fresh.summary0 = fresh.summary1 = -1
            due = legality.spit_due(engine, fresh)
            if not due:
                legality.set_to_act(engine, fresh)
            assert legality.settled(engine, mine) is (not due)
            if not due:
                assert mine.to_act == fresh.to_act
            for seat in (0, 1):
                known = legality.cached(mine, seat)
                assert known < 0 or known == legality.summary(engine, mine, seat)
            compared += 1

    cardcore.run_realtime(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], seed=seed,
                          max_actions=300, on_action=check)
    assert compared > 0
