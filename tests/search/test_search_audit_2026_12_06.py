"""Audit of the search bots (docs/search-agents.rst, docs/agents.rst, ``cardcore.search``).

Every test checks one concrete claim of those pages or docstrings; a strict xfail marks a
claim the behaviour does not keep. Small budgets and fixed seeds throughout.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest

import cardcore
from cardcore.errors import ArgumentError, CardcoreError, OptionError, PluginError
from cardcore.search import ISMCTSAgent, deal_view, sample_position, view_config
from cardcore.search import ismcts as ismcts_module
from cardcore.zones import ALL

GAMES = [
    ("golf", 2, (), None),
    ("golf", 3, ("golf.jokers", "golf.hard", "golf.snowman"), None),
    ("golf", 2, ("golf.diagonal-pairs", "golf.peek-nearest"), {"layout": 4}),
    ("tonk", 3, (), None),
    ("tonk", 2, ("tonk.no-upcard", "tonk.hit-blocks-drop"), None),
    ("gofish", 3, (), None),
    ("spit", 2, (), None),
    ("spit", 2, ("spit.canfield", "spit.same-rank", "spit.chooser"), None),
    ("speed", 2, (), None),
    ("speed", 2, ("speed.stuck-on-request",), None),
]
IDS = [f"{g}-{n}-{'+'.join(r) or 'default'}" for g, n, r, _ in GAMES]


def small(seed: int = 1, **more: Any) -> ISMCTSAgent:
    params: dict[str, Any] = {"iterations": 8, "max_rollout": 30}
    params.update(more)
    return ISMCTSAgent(seed=seed, **params)


def decision_points(
    name: str,
    players: int,
    rules: tuple[str, ...],
    options: dict[str, Any] | None,
    seed: int = 11,
    count: int = 3,
) -> list[tuple[str, int]]:
    """Positions (and the seat deciding there) reached by seeded random play, each with a
    choice of at least two actions."""
    game = cardcore.new_game(name, players, rules=rules, options=options, seed=seed)
    rng = random.Random(seed)
    found: list[tuple[str, int]] = []
    for step in range(300):
        if game.is_over:
            break
        able = [s for s in game.to_act if game.legal_actions(s)]
        if not able:
            break
        seat = able[rng.randrange(len(able))]
        legal = game.legal_actions(seat)
        if len(legal) >= 2 and step % 3 == 0:
            found.append((game.position(), seat))
            if len(found) >= count:
                break
        game.apply(legal[rng.randrange(len(legal))])
    assert found, f"no decision point found in {name}"
    return found


# -- 1. hidden information ------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players", "rules", "options"), GAMES, ids=IDS)
def test_games_differing_only_in_unseen_cards_get_the_same_decision(
    name: str, players: int, rules: tuple[str, ...], options: dict[str, Any] | None
) -> None:
    """ "It never holds the real game or its seed": two real games that differ only in the
    cards the seat cannot see (and in their seeds, so in their future chance) give the same
    decision from bots of the same seed and parameters."""
    for position, seat in decision_points(name, players, rules, options):
        real = cardcore.new_game(
            name, players, rules=rules, options=options, position=position, seed=1
        )
        twin = real.determinize(seat, seed=5)
        other = cardcore.new_game(
            name, players, rules=rules, options=options, position=twin.position(), seed=2
        )
        assert other.view(seat) == real.view(seat)
        first = small().choose(real.view(seat), real.legal_actions(seat))
        second = small().choose(other.view(seat), other.legal_actions(seat))
        assert str(first) == str(second)
        assert first in real.legal_actions(seat)


@pytest.mark.parametrize(
    ("name", "players", "options", "shuffle"),
    [
        ("golf", 2, {"rounds": 1, "dealer": 0}, 0),
        ("tonk", 3, {"first_dealer": 2, "hands": 1}, 2),
        ("gofish", 3, None, 0),
    ],
)
def test_whole_games_differing_in_the_stock_bottom_play_alike(
    name: str, players: int, options: dict[str, Any] | None, shuffle: int
) -> None:
    """Played by :func:`cardcore.play`: two games whose decks differ only in the two bottom
    cards (never reached in 20 actions) and whose seeds differ play the same actions
    (one deal only: a later deal is the real game's own chance)."""
    probe = cardcore.new_game(name, players, seed=0, options=options)
    deck = [str(c) for c in view_config(probe.view(0)).deck()]
    random.Random(shuffle).shuffle(deck)
    swapped = [*deck[:-2], deck[-1], deck[-2]]
    records = []
    for order, seed in ((deck, 1), (swapped, 2)):
        game = cardcore.new_game(name, players, seed=seed, options=options, deck=order)
        agents: list[Any] = [small(seed=3, iterations=6, max_rollout=20)]
        agents += [cardcore.RandomAgent(i) for i in range(1, players)]
        cardcore.play(game, agents, max_actions=20)
        records.append(game.record()["actions"])
    assert records[0] == records[1]
    assert sum(seat == 0 for seat, _, _ in records[0]) >= 2  # the bot did decide


@pytest.mark.parametrize(("name", "players", "rules", "options"), GAMES, ids=IDS)
def test_the_bot_mutates_neither_view_nor_legal_nor_game(
    name: str, players: int, rules: tuple[str, ...], options: dict[str, Any] | None
) -> None:
    position, seat = decision_points(name, players, rules, options, count=1)[0]
    game = cardcore.new_game(name, players, rules=rules, options=options, position=position)
    view = game.view(seat)
    legal = game.legal_actions(seat)
    kept_view, kept_legal = copy.deepcopy(view), list(legal)
    before = (game.position(), game.version, game.record())
    small().choose(view, legal)
    assert view == kept_view
    assert list(legal) == kept_legal
    assert (game.position(), game.version, game.record()) == before


@pytest.mark.parametrize(("name", "players", "rules", "options"), GAMES, ids=IDS)
def test_samples_keep_the_view_and_conserve_the_deck(
    name: str, players: int, rules: tuple[str, ...], options: dict[str, Any] | None
) -> None:
    """ "A sample keeps every card the view shows where it lies and fills every hidden place
    from the cards the seat has not seen": the sampled world shows the seat the same piles
    and legal actions, and holds exactly the game's deck."""
    rng = random.Random(3)
    for position, seat in decision_points(name, players, rules, options, count=2):
        game = cardcore.new_game(name, players, rules=rules, options=options, position=position)
        view = game.view(seat)
        deck = Counter(view_config(view).deck())
        for _ in range(3):
            text = sample_position(view, rng)
            world = cardcore.new_game(
                name, players, rules=rules, options=options, position=text, seed=4
            )
            seen = world.view(seat)
            assert seen["zones"] == view["zones"]
            assert seen["legal"] == view["legal"]
            assert Counter(c for pile in world.state.zones.cards for c in pile) == deck


@pytest.mark.parametrize(("name", "players", "rules", "options"), GAMES, ids=IDS)
def test_a_json_round_tripped_view_gives_the_same_decision(
    name: str, players: int, rules: tuple[str, ...], options: dict[str, Any] | None
) -> None:
    """ "It could run in another process": the view as JSON text, read back, decides alike
    (and so does the view wrapped as the runners hand it, a ``LazyView``)."""
    position, seat = decision_points(name, players, rules, options, count=1)[0]
    game = cardcore.new_game(name, players, rules=rules, options=options, position=position)
    view, legal = game.view(seat), game.legal_actions(seat)
    expected = str(small().choose(view, legal))
    assert str(small().choose(json.loads(json.dumps(view)), legal)) == expected
    assert str(small().choose(cardcore.LazyView(view), legal)) == expected


def test_deal_view_knowledge_marks_as_documented() -> None:
    """Face-up or top-only piles known to all, a hand's cards to its owner, hidden cards of a
    face-down pile to nobody."""
    game = cardcore.new_game("tonk", 3, seed=3)
    view = game.view(0)
    zones = deal_view(view, view_config(view).deck(), random.Random(1))
    marks = {spec.name: set(zones.seen[i]) for i, spec in enumerate(zones.layout.specs)}
    assert marks["stock"] == {0}
    assert marks["discard"] == {ALL}
    assert marks["hand.0"] == {1 << 0}
    assert marks["hand.1"] == {1 << 1}
    assert marks["hand.2"] == {1 << 2}


# -- 2. determinism, parameters, names --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [("golf", 2, {"rounds": 1}), ("tonk", 2, {"hands": 2}), ("gofish", 3, None)],
)
def test_same_seed_same_parameters_same_whole_game(
    name: str, players: int, options: dict[str, Any] | None
) -> None:
    records = []
    for _ in range(2):
        game = cardcore.new_game(name, players, seed=21, options=options)
        agents: list[Any] = [small(seed=9, iterations=5, max_rollout=15, depth=2)]
        agents += [small(seed=10 + i, iterations=4, max_rollout=15) for i in range(1, players)]
        cardcore.play(game, agents, max_actions=40)
        records.append(game.record())
    assert records[0] == records[1]


def test_realtime_same_seed_same_whole_game() -> None:
    records = []
    for _ in range(2):
        game = cardcore.new_game("speed", 2, seed=5)
        agents = [small(seed=1, iterations=4, max_rollout=10), cardcore.RandomAgent(2)]
        cardcore.run_realtime(game, agents, seed=3, max_actions=15)
        records.append(game.record())
    assert records[0] == records[1]


BOUNDS = {
    "iterations": (1, 2000),
    "c": (0.0, 100.0),
    "max_rollout": (1, 1000),
    "depth": (1, 1000),
    "prior": (0.0, 100.0),
    "reuse": (1, 2000),
    "spread": (0.0, 3.0),
    "reaction": (0.0, 60.0),
    "time": (0.0, 2.0),
}


def test_declared_bounds_match_the_table() -> None:
    assert ISMCTSAgent.parameter_bounds == BOUNDS
    params = cardcore.agent_parameters("ismcts")
    assert params == {
        "seed": 0,
        "iterations": 200,
        "time": None,
        "c": 0.7,
        "rollout": "game",
        "max_rollout": 500,
        "observe": True,
        "depth": None,
        "prior": 1.0,
        "reuse": 1,
        "reaction": 0.5,
        "spread": 0.3,
    }


@pytest.mark.parametrize("key", sorted(BOUNDS))
def test_by_name_out_of_bounds_or_wrong_type_is_an_option_error(key: str) -> None:
    low, high = BOUNDS[key]
    step = 1 if isinstance(high, int) else 0.5
    for value in (low - step, high + step, True, float("nan"), "3"):
        with pytest.raises(OptionError, match=key):
            cardcore.load_agent("ismcts", **{key: value})
    # both ends allowed (time must be more than 0)
    agent = cardcore.load_agent("ismcts", **{key: high})
    assert isinstance(agent, ISMCTSAgent)
    if key != "time":
        assert isinstance(cardcore.load_agent("ismcts", **{key: low}), ISMCTSAgent)
    else:
        with pytest.raises(OptionError, match="more than 0"):
            cardcore.load_agent("ismcts", **{key: low})


@pytest.mark.parametrize("key", sorted(BOUNDS))
def test_built_directly_takes_any_budget_but_refuses_bad_values(key: str) -> None:
    high = BOUNDS[key][1]
    agent = ISMCTSAgent(**{key: high * 2})
    assert getattr(agent, key) == high * 2
    for value in (-1, True, float("nan"), "3"):
        with pytest.raises(OptionError, match=key):
            ISMCTSAgent(**{key: value})


@pytest.mark.parametrize(
    ("params", "word"),
    [
        ({"rollout": "greedy"}, "rollout"),
        ({"observe": "yes"}, "observe"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"iterations": None}, "budget"),
        ({"iterations": 2.0}, "iterations"),
    ],
)
def test_other_bad_parameters_are_option_errors(params: dict[str, Any], word: str) -> None:
    with pytest.raises(OptionError, match=word):
        ISMCTSAgent(**params)
    with pytest.raises(OptionError, match=word):
        cardcore.load_agent("ismcts", **params)


def test_agent_specs_and_reprs_as_documented() -> None:
    assert "ismcts" in cardcore.available_agents()
    assert cardcore.load_agent("ismcts") is ISMCTSAgent
    assert repr(cardcore.load_agent("ismcts", seed=7, iterations=200)) == (
        "ISMCTSAgent(seed=7, iterations=200, c=0.7, rollout='game')"
    )
    assert repr(cardcore.load_agent("ismcts:iterations=50,seed=7")) == (
        "ISMCTSAgent(seed=7, iterations=50, c=0.7, rollout='game')"
    )
    timed = cardcore.load_agent("ismcts:time=0.5,iterations=none")
    assert (timed.iterations, timed.time) == (None, 0.5)
    capped = cardcore.load_agent("ismcts:time=0.5")
    assert (capped.iterations, capped.time) == (200, 0.5)  # time alone keeps the cap of 200
    assert cardcore.load_agent("ismcts:seed=none").seed is None
    assert cardcore.parse_agent_spec("ismcts:observe=false,depth=1") == (
        "ismcts",
        {"observe": False, "depth": 1},
    )
    with pytest.raises(OptionError, match="did you mean 'iterations'"):
        cardcore.load_agent("ismcts", iters=3)
    with pytest.raises(OptionError, match="iterations"):
        cardcore.load_agent("ismcts:iterations=2001")


def test_simulate_builds_ismcts_from_a_spec() -> None:
    out = cardcore.simulate(
        "golf",
        games=1,
        players=2,
        agents=["ismcts:iterations=3,max_rollout=10,seed=7", "random"],
        options={"rounds": 1},
        seed=1,
    )
    assert out is not None


def test_time_budget_runs_at_least_one_iteration() -> None:
    game = cardcore.new_game("golf", 2, seed=7)
    agent = ISMCTSAgent(seed=1, iterations=None, time=1e-9, max_rollout=5)
    action = agent.choose(game.view(0), game.legal_actions(0))
    assert action in game.legal_actions(0)
    assert agent.last_iterations >= 1


def test_iteration_budget_is_the_iteration_count() -> None:
    game = cardcore.new_game("golf", 2, seed=7)
    agent = small(iterations=7)
    agent.choose(game.view(0), game.legal_actions(0))
    assert agent.last_iterations == 7


# -- 3. documented behaviours -----------------------------------------------------------------


def _count_samples(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = ismcts_module.sample_of

    def counting(*args: Any) -> str:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(ismcts_module, "sample_of", counting)
    return calls


def test_one_legal_action_is_taken_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _count_samples(monkeypatch)
    game = cardcore.new_game("golf", 2, seed=7)
    only = game.legal_actions(0)[:1]
    agent = small(iterations=50)
    agent.last_iterations = 99
    assert agent.choose(game.view(0), only) is only[0]
    assert agent.last_iterations == 0
    assert calls == []


def test_reuse_draws_one_sample_per_k_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    """``iterations=40, reuse=4``: 10 samples, 40 searches."""
    calls = _count_samples(monkeypatch)
    game = cardcore.new_game("golf", 2, seed=7)
    agent = ISMCTSAgent(seed=1, iterations=40, reuse=4, max_rollout=10)
    agent.choose(game.view(0), game.legal_actions(0))
    assert (len(calls), agent.last_iterations) == (10, 40)


@pytest.mark.parametrize(("name", "players"), [("golf", 2), ("tonk", 3), ("gofish", 3)])
def test_root_tries_only_the_real_legal_actions(name: str, players: int) -> None:
    """A veto the sample cannot know: handed a strict subset of the legal actions, the bot
    answers from that subset, whatever the samples allow."""
    for position, seat in decision_points(name, players, (), None, count=3):
        game = cardcore.new_game(name, players, position=position)
        legal = game.legal_actions(seat)
        for drop in range(2):
            allowed = tuple(a for i, a in enumerate(legal) if i % 2 == drop) or legal[:1]
            for seed in range(3):
                assert small(seed=seed).choose(game.view(seat), allowed) in allowed


def test_rollouts_stop_at_the_end_of_the_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rollouts play on "until the current round or hand ends": every scored end of a search
    from round 1 of a three-round Golf game has exactly one round finished."""
    game = cardcore.new_game("golf", 2, seed=3, options={"rounds": 3})
    logic_cls = type(game.logic)
    real = logic_cls.utility
    seen: list[tuple[int, bool]] = []

    def spy(self: Any, state: Any) -> Any:
        seen.append((self.rounds_played(state), state.is_over))
        return real(self, state)

    monkeypatch.setattr(logic_cls, "utility", spy)
    start = game.logic.rounds_played(game.state)
    agent = ISMCTSAgent(seed=2, iterations=6, max_rollout=1000)
    agent.choose(game.view(0), game.legal_actions(0))
    assert len(seen) == 6
    assert {rounds for rounds, _ in seen} == {start + 1}
    assert not any(over for _, over in seen)


def test_max_rollout_cuts_rollouts_short(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardcore.new_game("golf", 2, seed=3, options={"rounds": 3})
    logic_cls = type(game.logic)
    real = logic_cls.utility
    seen: list[int] = []

    def spy(self: Any, state: Any) -> Any:
        seen.append(self.rounds_played(state))
        return real(self, state)

    monkeypatch.setattr(logic_cls, "utility", spy)
    ISMCTSAgent(seed=2, iterations=6, max_rollout=1).choose(game.view(0), game.legal_actions(0))
    assert seen == [0] * 6


@pytest.mark.parametrize("depth", [1, 2])
def test_depth_bounds_the_tree(monkeypatch: pytest.MonkeyPatch, depth: int) -> None:
    """``depth`` bounds how deep the tree grows (``depth=1`` is flat UCB over the root)."""
    roots: list[Any] = []
    real = ISMCTSAgent._final

    def capture(self: ISMCTSAgent, root: Any, default: Any) -> Any:
        roots.append(root)
        return real(self, root, default)

    def height(node: Any) -> int:
        return max((1 + height(c) for c in node.children.values()), default=0)

    monkeypatch.setattr(ISMCTSAgent, "_final", capture)
    for name, players in (("golf", 2), ("tonk", 2)):
        game = cardcore.new_game(name, players, seed=3)
        seat = game.to_act[0]
        agent = ISMCTSAgent(seed=1, iterations=60, depth=depth, max_rollout=20)
        agent.choose(game.view(seat), game.legal_actions(seat))
        assert height(roots[-1]) == depth
        assert sum(c.visits for c in roots[-1].children.values()) == 60


def _finished(name: str, players: int, options: dict[str, Any] | None) -> cardcore.Game:
    game = cardcore.new_game(name, players, seed=2, options=options)
    cardcore.play(game, [cardcore.RandomAgent(i) for i in range(players)])
    assert game.is_over
    return game


def test_utility_golf_is_negated_points() -> None:
    game = _finished("golf", 2, {"rounds": 1})
    assert game.logic.utility(game.state) == tuple(-s for s in game.result.scores)


def test_utility_tonk_is_stakes_won() -> None:
    game = _finished("tonk", 3, None)
    assert game.result.payouts is not None
    assert game.logic.utility(game.state) == tuple(float(p) for p in game.result.payouts)


def test_utility_default_winners_share_one() -> None:
    game = _finished("gofish", 3, None)
    winners = game.result.winners
    expected = tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(3))
    assert game.logic.utility(game.state) == expected


def _policy_vetoed_by_one_rollout() -> tuple[cardcore.Game, int, Any]:
    """Golf, seed 0, random play to version 5: seat to act holds a drawn card."""
    game = cardcore.new_game("golf", 2, seed=0, options={"rounds": 1})
    rng = random.Random(0)
    while game.version < 5:
        legal = game.legal_actions(game.to_act[0])
        game.apply(legal[rng.randrange(len(legal))])
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    policy = game.logic.rollout_action(game.state, seat, list(legal), random.Random(0))
    return game, seat, policy


def test_prior_keeps_the_policy_choice_with_enough_visits() -> None:
    game, seat, policy = _policy_vetoed_by_one_rollout()
    assert policy is not None
    choice = ISMCTSAgent(seed=1, iterations=60, prior=100.0).choose(
        game.view(seat), game.legal_actions(seat)
    )
    assert str(choice) == str(policy)


def test_prior_keeps_the_policy_choice_on_a_single_rollout_each() -> None:
    """With ``prior=100`` and one visit per root action (iterations == number of legal
    actions) no gain is "clear", yet one noisy rollout overrules the policy's choice."""
    game, seat, policy = _policy_vetoed_by_one_rollout()
    legal = game.legal_actions(seat)
    choice = ISMCTSAgent(seed=1, iterations=len(legal), prior=100.0).choose(game.view(seat), legal)
    assert str(choice) == str(policy)


def test_a_failing_search_hook_is_a_plugin_error_naming_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cardcore.new_game("golf", 2, seed=0, options={"rounds": 1})
    logic_cls = type(game.logic)

    def broken(self: Any, state: Any, seat: int, legal: Any, rng: Any) -> Any:
        raise ValueError("boom")

    monkeypatch.setattr(logic_cls, "rollout_action", broken)
    with pytest.raises(PluginError, match="golf") as info:
        small().choose(game.view(0), game.legal_actions(0))
    assert "boom" in str(info.value)


def test_a_refused_sample_is_drawn_again_20_times(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def bad(*args: Any) -> str:
        calls.append(1)
        return "golf nonsense"

    monkeypatch.setattr(ismcts_module, "sample_of", bad)
    game = cardcore.new_game("golf", 2, seed=0)
    with pytest.raises(CardcoreError, match="golf") as info:
        small().choose(game.view(0), game.legal_actions(0))
    assert len(calls) == 20
    assert "CORE-POSITION-1" in str(info.value)


def test_bad_inputs_are_argument_errors() -> None:
    game = cardcore.new_game("golf", 2, seed=0)
    legal = game.legal_actions(0)
    with pytest.raises(ArgumentError):
        small().choose(game.view(None), legal)
    with pytest.raises(ArgumentError):
        small().choose(game.view(0), ())
    with pytest.raises(ArgumentError):
        small().choose(game.view(0), [str(a) for a in legal])
    with pytest.raises(CardcoreError):
        small().choose({"not": "a view"}, legal)


def test_realtime_plan_delay_and_waiting() -> None:
    game = cardcore.new_game("spit", 2, seed=4)
    seat = next(s for s in game.to_act if len(game.legal_actions(s)) >= 2)
    agent = small(reaction=0.25, spread=0.0, iterations=4, max_rollout=10)
    plan = agent.plan(game.view(seat), game.legal_actions(seat), 0.0)
    assert plan is not None
    assert plan.delay == 0.25
    assert plan.action in game.legal_actions(seat)
    assert agent.plan(game.view(seat), (), 0.0) is None


# -- 4. every installed game and house rule -----------------------------------------------------


def _rule_games() -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for game in ("golf", "tonk"):
        for rule in cardcore.available_rules(game):
            for options in ({}, {"layout": 4}, {"layout": 9}, {"layout": "4h"}):
                if game == "tonk" and options:
                    break
                try:
                    cardcore.new_game(game, 2, rules=(rule,), options=options, seed=1)
                except OptionError:
                    continue
                out.append((game, rule, options))
                break
    return out


def test_every_golf_and_tonk_house_rule_is_listed_and_searchable() -> None:
    rules = _rule_games()
    names = {rule for _, rule, _ in rules}
    assert names == set(cardcore.available_rules("golf")) | set(cardcore.available_rules("tonk"))
    for game_name, rule, options in rules:
        game = cardcore.new_game(game_name, 2, rules=(rule,), options=options, seed=6)
        rng = random.Random(6)
        decided = 0
        for _ in range(12):
            if game.is_over:
                break
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            if len(legal) >= 2 and decided < 2:
                action = small(iterations=4, max_rollout=8).choose(game.view(seat), legal)
                decided += 1
            else:
                action = legal[rng.randrange(len(legal))]
            assert action in legal, (game_name, rule)
            game.apply(action)


# -- strength (cheap) ------------------------------------------------------------------------


def test_ismcts_beats_random_golf_in_duplicate_deals() -> None:
    """ "Against random play ISMCTS wins clearly": 25 points a hole in the full run; four
    duplicate deals at 10 iterations (Golf's 12-action rollouts) already show it."""
    margins = []
    for deal in range(4):
        for swap in (False, True):
            game = cardcore.new_game("golf", 2, seed=deal, options={"rounds": 1})
            agents: list[Any] = [
                ISMCTSAgent(seed=deal, iterations=10, max_rollout=12),
                cardcore.RandomAgent(deal),
            ]
            if swap:
                agents.reverse()
            result = cardcore.play(game, agents)
            me = 1 if swap else 0
            margins.append(result.scores[1 - me] - result.scores[me])
    assert sum(margins) / len(margins) > 10
