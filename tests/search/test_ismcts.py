"""ISMCTSAgent: only the view, its own chance, deterministic, every game and house rule."""

from __future__ import annotations

import json
import pickle
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import cardcore
from cardcore.search import ISMCTSAgent


def _first_decision(name: str, seed: int, **options: Any) -> tuple[cardcore.Game, int]:
    """A game at its first decision with more than one legal action."""
    game = cardcore.new_game(name, 2, seed=seed, options=options or None)
    while len(game.legal_actions(game.to_act[0])) < 2:
        game.apply(game.legal_actions(game.to_act[0])[0])
    return game, game.to_act[0]


def test_a_choice_depends_on_the_view_and_the_agents_seed_only() -> None:
    game, seat = _first_decision("golf", 4)
    game.apply(game.legal_actions(seat)[0])
    game.apply(game.legal_actions(seat)[0])  # both setup flips: the first real choice follows
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    # the same position with another seed: other future chance, the same view
    twin = cardcore.new_game("golf", 2, position=game.position(), seed=999)
    assert twin.view(seat)["zones"] == game.view(seat)["zones"]
    a = ISMCTSAgent(seed=7, iterations=40).choose(game.view(seat), legal)
    b = ISMCTSAgent(seed=7, iterations=40).choose(twin.view(seat), twin.legal_actions(seat))
    c = ISMCTSAgent(seed=7, iterations=40).choose(json.loads(json.dumps(game.view(seat))), legal)
    assert str(a) == str(b) == str(c)


def test_it_could_run_in_another_process() -> None:
    game, seat = _first_decision("tonk", 2)
    view = json.loads(json.dumps(game.view(seat)))
    agent = pickle.loads(pickle.dumps(ISMCTSAgent(seed=3, iterations=20)))  # nothing unpicklable
    action = agent.choose(view, game.legal_actions(seat))
    assert action in game.legal_actions(seat)
    assert "Game" not in {type(v).__name__ for v in vars(agent).values()}


def test_a_game_seen_through_a_lazy_view_is_never_reached() -> None:
    seen: list[Mapping[str, Any]] = []

    class Spy(ISMCTSAgent):
        def choose(
            self, view: Mapping[str, Any], legal: Sequence[cardcore.Action]
        ) -> cardcore.Action:
            seen.append(view)
            return super().choose(view, legal)

    game = cardcore.new_game("golf", 2, seed=2, options={"rounds": 1})
    cardcore.play(game, [Spy(seed=1, iterations=5), cardcore.RandomAgent(2)])
    assert seen and all(isinstance(v, cardcore.LazyView) for v in seen)


def test_the_same_seed_and_budget_play_the_same_game() -> None:
    def run() -> list[str]:
        game = cardcore.new_game("tonk", 2, seed=12)
        cardcore.play(
            game, [ISMCTSAgent(seed=5, iterations=15), ISMCTSAgent(seed=6, iterations=15)]
        )
        return [str(a) for _, a, _ in game.record_entries()]

    assert run() == run()


def test_one_legal_action_is_taken_without_a_search() -> None:
    game = cardcore.new_game("tonk", 2, seed=1, options={"hands": 2})
    agent = ISMCTSAgent(seed=1, iterations=10)
    action = game.legal_actions(game.to_act[0])[0]
    assert agent.choose(game.view(game.to_act[0]), [action]) is action
    assert agent.last_iterations == 0


def test_a_time_budget_stops_the_search() -> None:
    game, seat = _first_decision("golf", 3)
    agent = ISMCTSAgent(seed=1, iterations=None, time=0.02)
    agent.choose(game.view(seat), game.legal_actions(seat))
    assert 1 <= agent.last_iterations < 10_000


TURN_BASED = [
    ("golf", 2, (), {"rounds": 1}),
    ("golf", 3, ("golf.jokers", "golf.hard"), {"rounds": 1}),
    ("golf", 2, ("golf.diagonal-pairs",), {"rounds": 1, "layout": 4}),
    ("golf", 2, (), {"rounds": 1, "layout": "4h"}),
    ("golf", 2, ("golf.remove-columns",), {"rounds": 1, "layout": 8}),
    ("tonk", 2, (), {}),
    ("tonk", 3, ("tonk.hit-blocks-drop", "tonk.must-lay-down"), {}),
    ("drawgame", 2, (), {}),
]


@pytest.mark.parametrize("name, players, rules, options", TURN_BASED, ids=lambda v: str(v))
def test_it_plays_every_turn_based_game_and_house_rule_to_the_end(
    name: str, players: int, rules: tuple[str, ...], options: dict[str, Any]
) -> None:
    game = cardcore.new_game(name, players, rules=rules, options=options, seed=8)
    agents: list[Any] = [ISMCTSAgent(seed=1, iterations=4)]
    agents += [cardcore.RandomAgent(s) for s in range(1, players)]
    result = cardcore.play(game, agents)
    assert game.is_over and result.reason != "truncated"


def test_it_plays_the_go_fish_example() -> None:
    if "gofish" not in cardcore.available_games():
        pytest.skip("the Go Fish example distribution is not installed")
    game = cardcore.new_game("gofish", 3, seed=4)
    agents = [ISMCTSAgent(seed=1, iterations=4), cardcore.RandomAgent(1), cardcore.RandomAgent(2)]
    assert cardcore.play(game, agents).reason == "all books made"


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_it_plans_in_real_time(name: str) -> None:
    game = cardcore.new_game(name, 2, seed=3)
    agents: list[Any] = [ISMCTSAgent(seed=1, iterations=3, max_rollout=20), cardcore.RandomAgent(2)]
    cardcore.run_realtime(game, agents, seed=1, max_actions=25)
    assert game.version >= 10
    times = [at for _, _, at in game.record_entries()]
    assert all(t is not None for t in times) and times == sorted(times)  # planned with delays


def test_with_nothing_to_do_it_plans_nothing() -> None:
    game = cardcore.new_game("speed", 2, seed=3)
    assert ISMCTSAgent(seed=1).plan(game.view(0), (), 0.0) is None


def test_a_house_rule_veto_at_the_root_is_respected() -> None:
    """Only the real legal actions are tried at the root, whatever a sample allows."""
    game, seat = _first_decision("golf", 6)
    allowed = list(
        game.legal_actions(seat)[-2:]
    )  # as if a rule the samples ignore forbade the rest
    for seed in range(4):
        assert ISMCTSAgent(seed=seed, iterations=12).choose(game.view(seat), allowed) in allowed


def test_rollouts_may_be_random() -> None:
    game, seat = _first_decision("tonk", 5)
    action = ISMCTSAgent(seed=1, iterations=10, rollout="random", observe=False).choose(
        game.view(seat), game.legal_actions(seat)
    )
    assert action in game.legal_actions(seat)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"iterations": 0}, "iterations must be a whole number of at least 1"),
        ({"iterations": None}, "needs a budget"),
        ({"time": -1}, "time must be a number more than 0"),
        ({"c": -0.1}, "c must be a number at least 0"),
        ({"rollout": "smart"}, "rollout must be 'game' or 'random'"),
        ({"observe": "yes"}, "observe must be true or false"),
        ({"seed": "x"}, "seed must be a whole number"),
    ],
)
def test_bad_parameters_are_one_clear_error(params: dict[str, Any], match: str) -> None:
    with pytest.raises(cardcore.OptionError, match=match):
        ISMCTSAgent(**params)


def _rule_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """Every installed house rule, with options where it applies."""
    cases = []
    for game in cardcore.available_games():
        for rule in cardcore.available_rules(game):
            options: dict[str, Any] = {"rounds": 1} if game == "golf" else {}
            for name, values in cardcore.rule_info(rule).applies.items():
                options[name] = values[0]
            cases.append((game, rule, options))
    return cases


@pytest.mark.parametrize("game, rule, options", _rule_cases(), ids=lambda v: str(v))
def test_every_house_rule_can_be_searched(game: str, rule: str, options: dict[str, Any]) -> None:
    match = cardcore.new_game(game, 2, rules=[rule], options=options, seed=5)
    if not match.logic.has_positions():  # a test game without a notation: a clear refusal
        with pytest.raises(cardcore.CardcoreError, match="cannot sample positions"):
            seat = match.to_act[0]  # a choice of two (none is legal here yet): the search samples
            legal = match.legal_actions(seat) or (cardcore.Resign(seat=seat),)
            ISMCTSAgent(seed=1).search(match.view(seat), legal * 2)
        return
    agents: list[Any] = [ISMCTSAgent(seed=1, iterations=2, max_rollout=30), cardcore.RandomAgent(2)]
    if match.ruleset.game.realtime:
        cardcore.run_realtime(match, agents, seed=1, max_actions=12)
    else:
        cardcore.play(match, agents, max_actions=30)
    assert match.version > 0


def test_a_sample_searched_several_times_is_copied_not_redrawn() -> None:
    game, seat = _first_decision("golf", 9)
    agent = ISMCTSAgent(seed=4, iterations=12, reuse=4, depth=1, max_rollout=12)
    assert agent.choose(game.view(seat), game.legal_actions(seat)) in game.legal_actions(seat)
    assert agent.last_iterations == 12
