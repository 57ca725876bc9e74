"""Mutation audit of the bot and house-rule-lab layer (2026-12-26).

Each test here pins a behaviour of ``cardcore.search``, ``cardcore.compare``,
``cardcore.simulate`` or the agent specs that a hand-made mutant of the source
changed while every earlier test still passed (seat rotation and per-agent
figures, probe roles, the first seat, the unpaired intervals, strict JSON, the
search's final choice, ``prior``, ``depth``, ``reuse``, ``observe``, rollouts
ending with the round, plan delays, sampling refusals, spec words, the table's
cells). Expected numbers are computed independently in the test (the games
replayed one by one through :func:`cardcore.simulate.run_one` or played here, the
intervals with textbook formulas and :mod:`statistics`), from fixed seeds. No
bug was found in this layer: there is no xfail here.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from concurrent.futures import ThreadPoolExecutor

import pytest

import cardcore
from cardcore._agentspec import build_agent, parse_agent_spec, split_agent_specs
from cardcore.agents import RandomAgent, play
from cardcore.compare._report import _below
from cardcore.compare._stats import Estimate, mean_ci, share_ci, unpaired_diff
from cardcore.errors import ArgumentError, CardcoreError, OptionError
from cardcore.plugins import load_agent
from cardcore.search import ISMCTSAgent, sample_position, view_config
from cardcore.setup import new_game
from cardcore.simulate import _make_agent, _seed_of, run_one, seats_for, summarize

Z = 1.959964  # the two-sided 95% normal quantile (scipy.stats.norm.ppf(0.975) = 1.95996398...)


def _wilson(hits: float, n: int) -> tuple[float, float]:
    """Wilson's score interval, written out as the textbook gives it."""
    p = hits / n
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z / denom * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def _normal(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    half = Z * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - half, m + half


def _share(winners: tuple[int, ...], seat: int) -> float:
    return 1.0 / len(winners) if seat in winners else 0.0


# -- a comparison is the games simulate plays, seats rotated ------------------------------------

GOLF = {"rounds": 1}
MIXED = ("golf-greedy", "random")


def _replay(game: str, players: int, lineup: tuple[str, ...], seed: int, games: int, **kw):
    """Game i of a study: simulate's game i, the line-up rotated by i (a mixed one)."""
    out = []
    mixed = len(set(lineup)) > 1
    for i in range(games):
        turn = i % players if mixed else 0
        seats = tuple(lineup[(s + turn) % players] for s in range(players))
        task = (game, players, seats, kw.get("rules", ()), (), kw.get("options", {}), seed, i)
        out.append((seats, run_one(task)))
    return out


def test_a_mixed_lineup_rotates_seats_and_each_figure_is_the_replayed_games():
    cmp = cardcore.compare(
        "golf", agents=list(MIXED), vs=["golf.hard"], options=GOLF, games=6, seed=5, skill=None
    )
    a = _replay("golf", 2, MIXED, 5, 6, options=GOLF)
    b = _replay("golf", 2, MIXED, 5, 6, rules=("golf.hard",), options=GOLF)
    # the rotation: game 1 puts random in seat 0
    assert [seats for seats, _ in a[:2]] == [MIXED, MIXED[::-1]]
    for summary, games in ((cmp.a, a), (cmp.b, b)):
        assert summary.games == 6
        for s in range(2):
            shares = [_share(o.winners, s) for _, o in games]
            assert summary.seat_wins[s].mean == pytest.approx(statistics.fmean(shares), abs=1e-12)
        for spec in MIXED:
            won = [
                sum(_share(o.winners, s) for s in range(2) if seats[s] == spec)
                for seats, o in games
            ]
            est = summary.agent_wins[spec]
            assert est.mean == pytest.approx(statistics.fmean(won), abs=1e-12)
            assert (est.low, est.high) == pytest.approx(_wilson(sum(won), 6), abs=1e-9)
        spread = [max(o.scores) - min(o.scores) for _, o in games]
        assert (summary.spread.mean, summary.spread.low, summary.spread.high) == pytest.approx(
            _normal(spread), abs=1e-9
        )
        actions = [float(o.actions) for _, o in games]
        assert summary.actions.mean == pytest.approx(statistics.fmean(actions), abs=1e-12)
    # paired game by game: HARD scoring deals and plays the same moves, so every game's
    # length is the same on both sides and the paired difference is exactly zero wide
    diffs = [float(ob.actions - oa.actions) for (_, oa), (_, ob) in zip(a, b, strict=True)]
    assert diffs == [0.0] * 6
    d = cmp.diff["actions"]
    assert (d.mean, d.low, d.high) == (0.0, 0.0, 0.0)
    assert cmp.a.actions.high > cmp.a.actions.low  # while the lengths themselves vary
    # both sides mixed: the agents' wins are paired too
    won_a = [_share(o.winners, seats.index("golf-greedy")) for seats, o in a]
    won_b = [_share(o.winners, seats.index("golf-greedy")) for seats, o in b]
    e = cmp.diff["agent:golf-greedy"]
    assert e.interval == "newcombe"
    assert e.mean == pytest.approx(statistics.fmean(won_b) - statistics.fmean(won_a), abs=1e-12)


def test_only_both_mixed_lineups_get_an_agent_difference():
    cmp = cardcore.compare(
        "golf", agents=list(MIXED), vs_agents="golf-greedy", options=GOLF, games=2, skill=None
    )
    assert sorted(cmp.a.agent_wins) == sorted(MIXED)
    assert dict(cmp.b.agent_wins) == {}
    assert [k for k in cmp.diff if k.startswith("agent:")] == []


def test_the_first_seat_is_the_seat_to_act_after_the_deal():
    cmp = cardcore.compare("tonk", players=3, games=6, seed=2, skill=None, vs_agents="random")
    games = _replay("tonk", 3, ("tonk-heuristic",) * 3, 2, 6)
    other = _replay("tonk", 3, ("random",) * 3, 2, 6)
    firsts = [new_game("tonk", 3, seed=o.seed).to_act[0] for _, o in games]
    assert len(set(firsts)) > 1  # Tonk's cut moves the dealer: not always seat 0
    shares = [_share(o.winners, f) - 1 / 3 for (_, o), f in zip(games, firsts, strict=True)]
    b_shares = [_share(o.winners, f) - 1 / 3 for (_, o), f in zip(other, firsts, strict=True)]
    d = cmp.diff["first_seat"]
    assert d.mean == pytest.approx(statistics.fmean(b_shares) - statistics.fmean(shares), abs=1e-12)
    assert cmp.a.first_seat is not None
    assert cmp.a.first_seat.mean == pytest.approx(statistics.fmean(shares), abs=1e-12)
    lo, hi = _wilson(statistics.fsum(s + 1 / 3 for s in shares), 6)
    assert (cmp.a.first_seat.low, cmp.a.first_seat.high) == pytest.approx(
        (lo - 1 / 3, hi - 1 / 3), abs=1e-9
    )


class _Counting:
    """An agent that counts its decisions."""

    def __init__(self, agent):
        self.agent = agent
        self.n = 0

    def choose(self, view, legal):
        self.n += 1
        return self.agent.choose(view, legal)


def _decisions(specs: tuple[str, ...], study: int, index: int) -> tuple[list[int], tuple[int, ...]]:
    """Per seat, the decisions of Golf game *index* of a study, and its winners."""
    seed = _seed_of(study, index)
    game = new_game("golf", len(specs), options=GOLF, seed=seed)
    agents = [_Counting(_make_agent(sp, _seed_of(seed, 1000 + s))) for s, sp in enumerate(specs)]
    play(game, agents)
    assert game.result is not None
    return [a.n for a in agents], game.result.winners


def test_overruns_are_counted_per_agent_of_the_lineup_and_per_probe_role():
    # a move time of a nanosecond: every decision is over it, so the overruns count the
    # decisions, which the games themselves say
    lineup = ("golf-greedy", "random", "random")
    cmp = cardcore.compare(
        "golf",
        agents=list(lineup),
        options=GOLF,
        games=3,
        seed=9,
        skill=("golf-greedy", "random"),
        move_time=1e-9,
    )
    per_agent, per_seat = [0, 0, 0], [0, 0, 0]
    for i in range(3):
        seats = tuple(lineup[(s + i) % 3] for s in range(3))
        counts, _ = _decisions(seats, 9, i)
        for s in range(3):
            per_agent[(s + i) % 3] += counts[s]
            per_seat[s] += counts[s]
    assert list(cmp.a.overruns) == per_agent == [52, 52, 52]
    greedy, wrong_way = [], []
    for i in range(3):
        seats = tuple(lineup[(s + i) % 3] for s in range(3))
        _, winners = _decisions(seats, 9, i)
        greedy.append(sum(_share(winners, s) for s in range(3) if seats[s] == "golf-greedy"))
        wrong_way.append(_share(winners, i % 3))  # the seat rotated the other way
    assert cmp.a.agent_wins["golf-greedy"].mean == pytest.approx(statistics.fmean(greedy))
    assert statistics.fmean(greedy) != statistics.fmean(wrong_way)
    assert per_seat == [56, 50, 50]  # counted by seat it would differ
    strong = weak = 0
    skill = []
    for i in range(3):
        seats = tuple("golf-greedy" if s == i % 3 else "random" for s in range(3))
        counts, winners = _decisions(seats, 9, i)
        strong += counts[i % 3]
        weak += sum(counts) - counts[i % 3]
        skill.append(_share(winners, i % 3))
    assert cmp.a.probe_overruns == (strong, weak)
    assert cmp.a.skill is not None
    assert cmp.a.skill.mean == pytest.approx(statistics.fmean(skill), abs=1e-12)
    assert all(t > 0 for t in cmp.a.slowest)  # the longest decision, measured


def test_vs_options_default_to_the_options_b_takes():
    cmp = cardcore.compare(
        "golf",
        rules=["golf.bonus-card"],
        options={"bonus_card": "2", "rounds": 1},
        games=1,
        skill=None,
    )
    assert dict(cmp.a.options) == {"bonus_card": "2", "rounds": 1}
    assert dict(cmp.b.options) == {"rounds": 1}


# -- the intervals ------------------------------------------------------------------------------


def test_unpaired_difference_of_normal_estimates_adds_half_widths_in_quadrature():
    a, b = mean_ci([1.0, 2.0, 3.0, 4.0]), mean_ci([2.0, 4.0, 6.0, 9.0])
    ha = Z * statistics.stdev([1.0, 2.0, 3.0, 4.0]) / 2
    hb = Z * statistics.stdev([2.0, 4.0, 6.0, 9.0]) / 2
    d = unpaired_diff(a, b)
    assert d.interval == "normal" and d.n == 4
    assert d.mean == pytest.approx(5.25 - 2.5, abs=1e-12)
    assert (d.low, d.high) == pytest.approx((2.75 - math.hypot(ha, hb), 2.75 + math.hypot(ha, hb)))


def test_unpaired_difference_of_proportions_is_newcombes_method_10():
    assert cardcore.compare.Estimate is Estimate  # the public name of the type
    ea, eb = share_ci([1.0] * 3 + [0.0] * 7), share_ci([1.0] * 7 + [0.0] * 3)
    la, ua = _wilson(3, 10)
    lb, ub = _wilson(7, 10)
    d = unpaired_diff(ea, eb)
    assert d.interval == "newcombe"
    assert d.mean == pytest.approx(0.4, abs=1e-12)
    assert d.low == pytest.approx(0.4 - math.hypot(0.7 - lb, ua - 0.3), abs=1e-9)
    assert d.high == pytest.approx(0.4 + math.hypot(ub - 0.7, 0.3 - la), abs=1e-9)


def test_a_shifted_share_at_its_top_keeps_its_mean_inside_its_interval():
    # the first seat of five wins all three games: 1 - 1/5 each, whose mean less the low end
    # rounds to 1.0000000000000002 of the scale's width
    e = share_ci([1 - 1 / 5] * 3, -1 / 5, 1 - 1 / 5)
    assert e.low <= e.mean <= e.high
    assert e.mean == pytest.approx(0.8, abs=1e-15)


def test_one_games_unbounded_interval_is_null_in_strict_json():
    cmp = cardcore.compare("golf", options=GOLF, games=1, skill=None)
    data = cmp.to_json()
    assert data["a"]["actions"]["low"] is None and data["a"]["actions"]["high"] is None
    assert data["diff"]["actions"]["low"] is None
    json.dumps(data, allow_nan=False)  # no Infinity: strict JSON


def test_a_spec_with_its_own_seed_keeps_it_in_every_game():
    cmp = cardcore.compare("golf", agents="random:seed=3", options=GOLF, games=4, skill=None)
    games = _replay("golf", 2, ("random:seed=3",) * 2, 0, 4, options=GOLF)
    actions = [float(o.actions) for _, o in games]
    assert cmp.a.actions.mean == pytest.approx(statistics.fmean(actions), abs=1e-12)
    derived = _replay("golf", 2, ("random",) * 2, 0, 4, options=GOLF)
    assert actions != [float(o.actions) for _, o in derived]


# -- the search ---------------------------------------------------------------------------------


def _golf_start():
    game = new_game("golf", 3, seed=1, options=GOLF)
    seat = game.to_act[0]
    return game, seat, game.view(seat), game.legal_actions(seat)


def test_a_time_budget_runs_at_least_one_iteration():
    _, _, view, legal = _golf_start()
    agent = ISMCTSAgent(seed=0, iterations=None, time=1e-9)  # over before it starts
    assert agent.choose(view, legal) in legal
    assert agent.last_iterations == 1


def test_with_one_iteration_the_new_edge_is_a_random_untried_action():
    # no rollout policy: the one edge a one-iteration search adds is drawn from the agent's
    # generator, not always the first legal action
    _, _, view, legal = _golf_start()
    assert len(legal) == 6
    picks = {
        str(ISMCTSAgent(seed=s, iterations=1, rollout="random").choose(view, legal))
        for s in range(8)
    }
    assert len(picks) >= 3


def _root(children: dict[str, tuple[int, float, float]]):
    from cardcore.search.ismcts import _Node

    root = _Node(0)
    for key, (visits, total, squares) in children.items():
        node = _Node(0)
        node.visits, node.total, node.squares = visits, total, squares
        root.children[(0, key)] = node
    return root


def test_the_final_choice_is_the_most_visited_then_the_best_mean():
    agent = ISMCTSAgent(seed=0)
    # "b" has the higher mean (1.0 against 0.5) but "a" the visits
    root = _root({"a": (10, 5.0, 2.5), "b": (2, 2.0, 2.0)})
    assert agent._final(root, None) == (0, "a")
    root = _root({"a": (4, 1.0, 1.0), "b": (4, 3.0, 3.0)})  # equal visits: the better mean
    assert agent._final(root, None) == (0, "b")


def test_the_policy_choice_stands_unless_beaten_by_prior_standard_errors():
    # best "a": scores 1 x5 and 0 x5; the policy's "b": 1 x2 and 0 x6; the gain of the means
    # (0.25) is 1.07 standard errors of their difference (sample variances, n - 1)
    a, b = [1.0] * 5 + [0.0] * 5, [1.0] * 2 + [0.0] * 6
    root = _root({"a": (10, sum(a), sum(a)), "b": (8, sum(b), sum(b))})
    se = math.sqrt(statistics.variance(a) / 10 + statistics.variance(b) / 8)
    assert 0.25 / se == pytest.approx(1.0703, abs=1e-4)
    assert ISMCTSAgent(seed=0, prior=1.0)._final(root, (0, "b")) == (0, "a")
    assert ISMCTSAgent(seed=0, prior=1.1)._final(root, (0, "b")) == (0, "b")
    assert ISMCTSAgent(seed=0, prior=1.1)._final(root, None) == (0, "a")


def test_each_edge_scores_its_seats_standing_less_the_mean_of_the_others():
    from cardcore.search.ismcts import _Node

    agent = ISMCTSAgent(seed=0)
    path = [_Node(0), _Node(0), _Node(1), _Node(2)]
    agent._backup(path, [3.0, 0.0, 1.5])
    assert [n.visits for n in path] == [1, 1, 1, 1]
    assert [n.total for n in path[1:]] == [3.0 - 0.75, 0.0 - 2.25, 1.5 - 1.5]
    assert path[1].squares == 2.25**2


@pytest.mark.parametrize("depth", [1, 2])
def test_the_tree_grows_to_its_depth_and_no_deeper(depth):
    _, _, view, legal = _golf_start()
    agent = ISMCTSAgent(seed=2, iterations=40, depth=depth)
    lengths = []
    backup = agent._backup
    agent._backup = lambda path, utility: (lengths.append(len(path) - 1), backup(path, utility))
    agent.choose(view, legal)
    assert len(lengths) == 40
    assert max(lengths) == depth  # edges below the root on a path


def test_a_rollout_stops_where_the_round_ends(monkeypatch):
    # three rounds of Golf: every search iteration is scored at the end of the first
    game = new_game("golf", 2, seed=1, options={"rounds": 3})
    logic = type(game.logic)
    seen = []
    utility = logic.utility

    def spy(self, state):
        seen.append((self.rounds_played(state), state.__class__.__name__))
        return utility(self, state)

    monkeypatch.setattr(logic, "utility", spy)
    seat = game.to_act[0]
    ISMCTSAgent(seed=0, iterations=12).choose(game.view(seat), game.legal_actions(seat))
    assert len(seen) == 12
    assert {r for r, _ in seen} == {1}


def _tree(agent, view, legal):
    """The root of the agent's search of *view* (caught as the final choice reads it)."""
    caught = []
    final = agent._final
    agent._final = lambda root, default: (caught.append(root), final(root, default))[1]
    choice = agent.choose(view, legal)
    return choice, caught[0]


def test_reuse_draws_one_sample_per_reuse_iterations():
    _, _, view, legal = _golf_start()
    for reuse, samples in ((1, 12), (4, 3), (12, 1)):
        agent = ISMCTSAgent(seed=0, iterations=12, reuse=reuse)
        drawn: list[int] = []

        def counted(*args, drawn=drawn, sample=agent._sample):
            drawn.append(1)
            return sample(*args)

        agent._sample = counted
        agent.choose(view, legal)
        assert len(drawn) == samples


def test_only_the_agents_own_decisions_are_told_apart_by_what_it_sees():
    game = new_game("tonk", 2, seed=0)
    seat = game.to_act[0]
    _, root = _tree(ISMCTSAgent(seed=3, iterations=60), game.view(seat), game.legal_actions(seat))
    own = other = 0
    stack = [root]
    while stack:
        node = stack.pop()
        for key, child in node.children.items():
            stack.append(child)
            if len(key) == 3:  # (seat, action, what the seat saw)
                assert key[0] == seat
                own += 1
            elif node is not root:
                assert key[0] != seat
                other += 1
    assert own and other


def test_a_plans_delay_is_lognormal_around_the_reaction_time():
    _, _, view, legal = _golf_start()
    agent = ISMCTSAgent(seed=4, iterations=3, reaction=0.5, spread=0.3)
    delays = [agent.plan(view, legal, 0.0).delay for _ in range(4)]
    assert len(set(delays)) == 4 and all(d > 0 for d in delays)
    flat = ISMCTSAgent(seed=4, iterations=3, reaction=0.5, spread=0.0)
    assert {flat.plan(view, legal, 0.0).delay for _ in range(3)} == {0.5}


@pytest.mark.parametrize("params", [{"time": 0.0}, {"seed": -1}])
def test_a_constructed_agent_refuses_a_zero_time_and_a_negative_seed(params):
    with pytest.raises(OptionError):
        ISMCTSAgent(**params)


def test_the_new_edge_is_the_rollout_policys_choice_first():
    # Tonk's policy draws at the start of a turn; one iteration adds that edge alone
    game = new_game("tonk", 2, seed=0)
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    assert [str(a) for a in legal] == ["drop", "draw", "take"]
    assert str(game.logic.rollout_action(game.state, seat, legal, random.Random(0))) == "draw"
    for s in range(4):
        choice = ISMCTSAgent(seed=s, iterations=1, prior=0.0).choose(game.view(seat), legal)
        assert str(choice) == "draw"


def test_a_search_starts_its_score_scale_afresh():
    # an agent that searched a Golf game first (scores of tens of points) chooses in Tonk
    # (a stake or two), with the same generator state, exactly as a fresh one: no scale
    # carried over from the earlier search
    _, _, golf_view, golf_legal = _golf_start()
    tonk = new_game("tonk", 2, seed=0)
    view, legal = tonk.view(tonk.to_act[0]), tonk.legal_actions(tonk.to_act[0])
    used = ISMCTSAgent(seed=5, iterations=30)
    used.choose(golf_view, golf_legal)
    fresh = ISMCTSAgent(seed=5, iterations=30)
    fresh.rng.setstate(used.rng.getstate())
    _, a = _tree(used, view, legal)
    _, b = _tree(fresh, view, legal)
    assert {k: (n.visits, n.total) for k, n in a.children.items()} == {
        k: (n.visits, n.total) for k, n in b.children.items()
    }


# -- samples ----------------------------------------------------------------------------------


def test_a_finished_games_view_has_nothing_to_sample():
    game = new_game("golf", 2, seed=3, options=GOLF)
    play(game, [RandomAgent(seed=1), RandomAgent(seed=2)])
    assert game.is_over
    with pytest.raises(CardcoreError, match="over"):
        sample_position(game.view(0), random.Random(0))


def test_a_seats_view_with_its_seat_taken_out_is_refused():
    game = new_game("golf", 2, seed=3, options=GOLF)
    seat = game.to_act[0]
    view = dict(game.view(seat))
    assert view["legal"]
    with pytest.raises(ArgumentError, match="spectator"):
        view_config({**view, "seat": None})
    assert view_config({**view, "seat": None, "legal": []}).players == 2


# -- the same result however it is run ----------------------------------------------------------


def _figures(cmp):
    data = cmp.to_json()
    for side in ("a", "b"):  # the clock's figures are not the games'
        for key in ("slowest", "decisions_per_s"):
            data[side].pop(key)
    return data


def test_a_comparison_is_the_same_in_any_chunks_on_any_executor():
    kw = dict(agents=["golf-greedy", "random"], vs=["golf.hard"], options=GOLF, games=5, seed=4)
    one = _figures(cardcore.compare("golf", chunk=1, **kw))
    with ThreadPoolExecutor(2) as pool:
        two = _figures(cardcore.compare("golf", chunk=2, executor=pool, **kw))
    assert one == two == _figures(cardcore.compare("golf", chunk=50, **kw))


def test_a_simulation_is_the_same_in_any_chunks_on_any_executor():
    kw = dict(agents=["golf-greedy", "random"], options=GOLF, games=5, seed=4)
    one = cardcore.simulate("golf", chunk=1, **kw)
    with ThreadPoolExecutor(2) as pool:
        two = cardcore.simulate("golf", chunk=3, executor=pool, **kw)
    assert one == two == cardcore.simulate("golf", chunk=5, **kw)


# -- simulate's summary ------------------------------------------------------------------------


def test_a_simulations_figures_are_its_games_figures():
    # study 5 of three random Golf players: game 3 is a tie of seats 0 and 2
    outs = [run_one(("golf", 3, ("random",) * 3, (), (), GOLF, 5, i)) for i in range(4)]
    assert [o.winners for o in outs] == [(0,), (1,), (0,), (0, 2)]
    s = cardcore.simulate("golf", games=4, players=3, options=GOLF, seed=5)
    assert s.wins == (2.5, 1.0, 0.5)
    assert s.win_rates == (0.625, 0.25, 0.125)
    for seat in range(3):
        col = [o.scores[seat] for o in outs]
        assert s.mean_scores[seat] == pytest.approx(statistics.fmean(col), abs=1e-12)
        assert s.sd_scores[seat] == pytest.approx(statistics.stdev(col), abs=1e-12)
    assert s.mean_actions == pytest.approx(statistics.fmean(o.actions for o in outs), abs=1e-12)
    assert s.mean_payouts is None and s.sd_payouts is None
    assert dict(s.reasons) == {
        r: sum(o.reason == r for o in outs) for r in {o.reason for o in outs}
    }


def test_payouts_are_summarized_like_scores():
    outs = [run_one(("tonk", 3, ("tonk-heuristic",) * 3, (), (), {}, 7, i)) for i in range(4)]
    s = cardcore.simulate("tonk", games=4, players=3, agents="tonk-heuristic", seed=7)
    assert s.mean_payouts is not None and s.sd_payouts is not None
    for seat in range(3):
        col = [float(o.payouts[seat]) for o in outs]
        assert s.mean_payouts[seat] == pytest.approx(statistics.fmean(col), abs=1e-12)
        assert s.sd_payouts[seat] == pytest.approx(statistics.stdev(col), abs=1e-12)
    assert s.reasons == {"drop-caught": 1, "drop-won": 3} and s.truncated == 0


def test_one_games_spread_is_undefined_and_null_in_json():
    s = cardcore.simulate("tonk", games=1, players=3, agents="tonk-heuristic", seed=7)
    assert all(math.isnan(x) for x in s.sd_scores)
    assert s.sd_payouts is not None and all(math.isnan(x) for x in s.sd_payouts)
    data = s.to_json()
    assert data["sd_scores"] == [None] * 3 and data["sd_payouts"] == [None] * 3
    json.dumps(data, allow_nan=False)


def test_summarize_takes_outcomes_in_any_order():
    outs = [run_one(("golf", 3, ("random",) * 3, (), (), GOLF, 5, i)) for i in range(5)]
    in_order = summarize("golf", 3, ("random",) * 3, outs)
    assert summarize("golf", 3, ("random",) * 3, outs[::-1]) == in_order
    assert in_order == cardcore.simulate("golf", games=5, players=3, options=GOLF, seed=5)


def test_seats_for_prefers_the_count_asked_then_fewer_then_more():
    assert seats_for("golf", 3) == 3
    assert seats_for("golf", 1) == 2  # brought into the game's range
    assert seats_for("golf", 1000) == 64


def test_more_games_than_the_limit_are_refused():
    # (the option no game takes fails the study at once should the count ever be let through)
    with pytest.raises(OptionError, match="10,000,000"):
        cardcore.simulate("golf", games=10_000_001, options={"no-such-option": 1})


def test_agent_objects_in_a_lineup_are_refused_with_the_way_to_name_them():
    with pytest.raises(OptionError, match="register"):
        cardcore.simulate("golf", games=1, agents=[RandomAgent(), RandomAgent()])


# -- agent specs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [("yes", True), ("on", True), ("TRUE", True), ("no", False), ("off", False), ("null", None)],
)
def test_spec_words_for_true_false_and_none(text, value):
    assert parse_agent_spec(f"ismcts:observe={text}") == ("ismcts", {"observe": value})


def test_a_number_with_underscores_stays_text_and_is_refused():
    assert parse_agent_spec("ismcts:iterations=1_000") == ("ismcts", {"iterations": "1_000"})
    with pytest.raises(OptionError):
        cardcore.simulate("golf", games=1, agents="ismcts:iterations=1_000")


def test_a_trailing_comma_ends_parameters_not_an_agent_name():
    assert split_agent_specs("random:seed=2,") == ["random:seed=2"]
    with pytest.raises(OptionError, match="empty agent name"):
        split_agent_specs("random,")


def test_a_negative_seed_by_name_is_refused_for_every_agent():
    # the Go Fish example's agent takes -1 when built directly; by name it is refused
    with pytest.raises(OptionError, match="seed"):
        load_agent("gofish-basic", seed=-1)


def test_a_factory_refusing_its_parameters_with_type_error_is_an_option_error():
    def factory(**params):
        raise TypeError("no such thing")

    with pytest.raises(OptionError, match="refused its parameters"):
        build_agent("picky", factory, {"x": 1})


# -- the table ----------------------------------------------------------------------------------


def _tonk():
    # A's tonk-heuristic players always drop and win; B's random ones are caught 5 times in 6
    return cardcore.compare("tonk", players=2, games=6, seed=1, skill=None, vs_agents="random")


def test_a_reason_one_side_never_met_shows_zero_of_its_games():
    rows = {r[0]: r[1:] for r in _tonk().rows()}
    # Wilson's upper end for 0 of 6: z^2 / (6 + z^2) = 39.0%
    assert rows["ends: drop-caught"][0] == "0.0% [0.0, 39.0]"
    assert rows["ends: drop-won"][0] == "100.0% [61.0, 100.0]"


def test_differences_are_shown_signed():
    rows = {r[0]: r[3] for r in _tonk().rows()}
    assert rows["actions per game"] == "-2.7 ± 6.3"
    assert rows["rounds per game"] == "+0.00 ± 0.00"
    assert rows["score spread"] == "+1.7 ± 0.7"
    swapped = cardcore.compare(
        "tonk", players=2, games=6, seed=1, skill=None, agents="random", vs_agents="tonk-heuristic"
    )
    rows = {r[0]: r[3] for r in swapped.rows()}
    assert rows["actions per game"] == "+2.7 ± 6.3"
    assert rows["score spread"] == "-1.7 ± 0.7"


def test_agent_rows_appear_when_either_side_is_mixed():
    cmp = cardcore.compare(
        "golf",
        agents="golf-greedy",
        vs_agents=["golf-greedy", "random", "random"],
        options=GOLF,
        games=3,
        skill=None,
    )
    figures = [r[0] for r in cmp.rows()]
    assert "wins: golf-greedy" in figures and "wins: random" in figures
    assert "B: (base game); agents golf-greedy / random / random (rotating)" in cmp.table()


def test_the_overrun_line_of_one_agent_counts_every_seat():
    cmp = cardcore.compare(
        "golf", agents="random", options=GOLF, games=2, skill=None, move_time=1e-9
    )
    total = sum(cmp.a.overruns)
    assert total > cmp.a.overruns[0] > 0
    assert f"A: decisions over 1e-09 s by random: {total} (slowest " in cmp.table()


def test_an_unbounded_end_draws_no_error_bar():
    assert _below(mean_ci([3.0])) == 0.0
    assert _below(mean_ci([1.0, 3.0])) == pytest.approx(1.959964 * 1.0)
