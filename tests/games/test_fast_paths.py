"""The games' fast paths agree with the slow answers they stand for.

``GameLogic.is_legal(state, action)`` must equal ``action in
logic.legal_actions(state, action.seat)`` for every state and action (the core's
apply and replay may ask it instead of the legal set), and Spit's cached layout
summaries must equal a fresh computation wherever the logic reads them. Random
games of every game, with house rules, are checked at every state against a
wide set of candidate actions: every seat's legal actions, every interned
action of the game, and odd ones (a wrong seat, an equal but not interned action).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardcore
from cardcore import Action, Card, GameLogic, standard_52

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CONFIGS: list[tuple[str, int, dict[str, Any], tuple[str, ...]]] = [
    ("golf", 4, {"layout": 6}, ()),
    ("golf", 3, {"layout": 8}, ("golf.jokers",)),
    ("golf", 2, {"layout": "4"}, ("golf.knock-final-stock-only",)),
    ("golf", 4, {"layout": "4"}, ("golf.peek-nearest",)),
    ("golf", 4, {"layout": "4h"}, ()),
    ("golf", 4, {"layout": 6}, ("golf.remove-columns", "golf.jokers")),
    ("golf", 3, {"layout": 9}, ("golf.remove-triples", "golf.final-stock-only")),
    ("golf", 2, {"layout": 10, "max_turns": 30}, ("golf.no-final-turns",)),
    ("tonk", 2, {}, ()),
    ("tonk", 3, {"hands": 4}, ("tonk.no-upcard", "tonk.must-lay-down")),
    ("tonk", 4, {"hands": 3, "max_players": 4}, ("tonk.hit-blocks-drop", "tonk.double-needs-spread")),
    ("tonk", 3, {"hands": 3}, ("tonk.stock-out-discard-only",)),
    ("spit", 2, {}, ()),
    ("spit", 2, {}, ("spit.canfield",)),
    ("spit", 2, {}, ("spit.same-rank", "spit.chooser")),
    ("speed", 2, {}, ()),
    ("speed", 2, {"jokers": 2, "side_pile": 15}, ()),
]
IDS = [
    f"{name}-{players}-{'+'.join(rules) or 'plain'}-{i}"
    for i, (name, players, _, rules) in enumerate(CONFIGS)
]


def _interned(logic: Any) -> Iterator[Action]:
    """Every interned action a game's logic keeps (per seat), whatever its phase."""
    name = logic.info.name
    if name == "golf":
        for plan in logic._plans.values():
            yield from (*plan.draw_act, *plan.take_act, *plan.discard_act, *plan.knock_act)
            for table in (plan.replace_act, plan.flip_act, plan.peek_act):
                for row in table:
                    yield from row
    elif name == "tonk":
        from cardcore_tonk import actions

        for seat in range(actions.SEATS):
            yield from actions.DISCARDS[seat]
            yield from actions.DEALS[seat]
            for group in actions.STARTS[seat]:
                yield from group
    elif name == "spit":
        for table in (logic.plays, logic.combines, logic.fills):
            for per_seat in table:
                for row in per_seat:
                    yield from row
        yield from (*logic.readies, *logic.requests)
        for claims in logic.claims:
            yield from claims
    elif name == "speed":
        for plays in logic.plays:
            yield from plays.values()
        yield from logic.stucks


def _odd(actions: Sequence[Action], players: int) -> Iterator[Action]:
    """Equal copies (not the interned objects) and copies on another seat of *actions*."""
    for action in actions:
        fields = {f.alias: getattr(action, f.name) for f in attrs.fields(type(action)) if f.init}
        yield type(action)(**fields)
        fields["seat"] = (action.seat + 1) % players
        yield type(action)(**fields)


def _check_state(game: cardcore.Game, universe: Sequence[Action], seen: list[Action]) -> int:
    logic: GameLogic[Any, Any] = game.logic
    state = game.state
    players = len(game.players)
    legal = {s: logic.legal_actions(state, s) for s in range(players)}
    candidates = [*universe, *seen]
    for acts in legal.values():
        candidates.extend(acts)
        candidates.extend(_odd(acts, players))
    for action in candidates:
        want = action in legal[action.seat] if 0 <= action.seat < players else False
        got = logic.is_legal(state, action)
        assert got is want or got == want, (game.name, game.version, str(action), got, want)
    if game.name == "spit":
        from cardcore_spit import legality

        for s in (0, 1):
            cached = legality.cached(state, s)
            assert cached < 0 or cached == legality.summary(logic, state, s), (game.version, s)
    return len(candidates)


def _play(
    name: str, players: int, options: dict[str, Any], rules: Sequence[str], seed: int, steps: int
) -> int:
    game = cardcore.new_game(name, players, options=options, rules=list(rules), seed=seed)
    universe = tuple(dict.fromkeys(_interned(game.logic)))
    rnd = random.Random(seed)
    seen: list[Action] = []  # spreads and hits met so far (Tonk interns them on demand)
    checked = 0
    for _ in range(steps):
        if game.is_over:
            break
        checked += _check_state(game, universe, seen)
        seat = rnd.choice(game.to_act)
        options_now = game.legal_actions(seat)
        if not options_now:
            break
        action = options_now[rnd.randrange(len(options_now))]
        if len(seen) < 200 and type(action).__name__ in ("Spread", "Hit"):
            seen.append(action)
        game.apply(action)
    return checked


@pytest.mark.parametrize(("name", "players", "options", "rules"), CONFIGS, ids=IDS)
def test_is_legal_agrees_with_the_legal_set(
    name: str, players: int, options: dict[str, Any], rules: tuple[str, ...]
) -> None:
    assert _play(name, players, options, rules, seed=11, steps=400) > 0


@SETTINGS
@given(config=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**32))
def test_is_legal_agrees_with_the_legal_set_in_random_games(config: int, seed: int) -> None:
    name, players, options, rules = CONFIGS[config]
    assert _play(name, players, options, rules, seed=seed, steps=150) > 0


def test_is_legal_refuses_a_card_not_in_the_deck() -> None:
    game = cardcore.new_game("tonk", 2, seed=3, options={"first_dealer": 1})
    logic: Any = game.logic
    from cardcore_tonk.actions import Discard

    joker = Card.parse("JK")
    assert joker not in standard_52()
    assert logic.is_legal(game.state, Discard(0, joker)) is False


def test_spit_snapshot_leaves_the_progress_cache_out() -> None:
    game = cardcore.new_game("spit", 2, seed=4)
    for _ in range(30):
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    assert not {"summary0", "summary1"} & set(game.state.snapshot())
    assert cardcore.load(game.save()).state.snapshot() == game.state.snapshot()
