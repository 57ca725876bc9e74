"""Audit of the shipped agents (2026-12-06): every installed agent but ISMCTS.

Checks docs/agents.rst, the agent sections of docs/games/*.rst, the parameter table of
docs/search-agents.rst and each agent's docstring: hidden-information honesty, determinism,
the documented rules of play on constructed positions, parameters, and the games served.
"""

from __future__ import annotations

import copy
import gc
import json
import math
import statistics

import pytest

import cardcore
from cardcore import LazyView, OptionError, load_agent, new_game, play, run_realtime
from cardcore.game import Game

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [r + s for s in "SHDC" for r in RANKS]
SHIPPED = ("random", "golf-greedy", "tonk-heuristic", "spit-greedy", "spit-human", "gofish-basic")
TURN_GAMES = {"golf-greedy": "golf", "tonk-heuristic": "tonk", "gofish-basic": "gofish"}
RT_GAMES = {"spit-greedy": ("spit", "speed"), "spit-human": ("spit", "speed")}


def _stock(*used: str) -> str:
    taken = {c.rstrip("!").split("@")[0] for part in used for c in part.split()}
    return " ".join(c for c in DECK if c not in taken)


def golf_pos(grid0: str, grid1: str, discard: str, *, phase: str = "draw", held: str = "") -> str:
    stock = _stock(grid0, grid1, discard, held)
    held_text = f"{held}@0" if held else ""
    return (
        f'golf layout="6" round=1 dealer=1 turn=0 phase="{phase}" turns=0 ender=null final=null'
        f" totals=[0,0] | stock: {stock} | discard: {discard}! | held: {held_text}"
        f" | grid.0: {grid0} | grid.1: {grid1}"
    )


def tonk_pos(h0: str, h1: str, disc: str) -> str:
    stock = _stock(h0, h1, disc)
    return (
        'tonk played=0 dealer=0 turn=1 phase="start" balances=[0,0] chance=2 cut=[["9","4"]]'
        f" | stock: {stock} | discard: {disc}! | hand.0: {h0} | hand.1: {h1} | spreads:"
    )


class Spy:
    """Wraps an agent: checks it leaves the view and legal list alone, and records views."""

    def __init__(self, inner, *, roundtrip: bool = False) -> None:
        self.inner = inner
        self.roundtrip = roundtrip
        self.games = getattr(inner, "games", None)
        self.views: list = []
        self.calls: list = []

    def _call(self, method, view, legal, *rest):
        data = copy.deepcopy(dict(view))
        mine = list(legal)
        before = list(mine)
        self.views.append(view)
        self.calls.append((data, tuple(mine)))
        arg = json.loads(json.dumps(data)) if self.roundtrip else view
        out = getattr(self.inner, method)(arg, mine, *rest)
        assert dict(view) == data, "the agent changed its view"
        assert mine == before, "the agent changed the legal list"
        return out

    def choose(self, view, legal):
        return self._call("choose", view, legal)

    def plan(self, view, legal, now):
        return self._call("plan", view, legal, now)


# -- (0) the installed agents and their documented parameters ------------------------------


def test_installed_agents_are_the_documented_ones():
    assert set(SHIPPED) | {"ismcts"} <= set(cardcore.available_agents())
    assert load_agent("random") is cardcore.RandomAgent
    assert load_agent("tonk-heuristic").__name__ == "TonkHeuristicAgent"
    assert load_agent("golf-greedy").games == ("golf",)
    assert load_agent("spit-greedy").games == ("spit", "speed")


def test_agent_parameters_match_the_search_agents_table():
    ap = cardcore.agent_parameters
    assert ap("random") == {"seed": 0, "reaction": 0.5, "spread": 0.3}
    assert ap("golf-greedy") == {"seed": 0}
    assert ap("tonk-heuristic") == {"seed": 0, "samples": 48, "drop_margin": 0.9}
    assert ap("spit-greedy") == {"seed": 0, "mean": 0.3, "sigma": 0.35}
    assert ap("spit-human") == {"seed": 0, "mean": 0.9, "sigma": 0.5}
    assert ap("gofish-basic") == {"seed": 0}


def test_aliases_of_cardcore_01_remain():
    from cardcore_golf.agents import GolfGreedyAgent, GreedyGolfAgent
    from cardcore_spit.agents import GreedyBot, HumanBot, SpitGreedyAgent, SpitHumanAgent
    from cardcore_tonk.agents import HeuristicAgent, TonkHeuristicAgent

    assert GreedyGolfAgent is GolfGreedyAgent
    assert HeuristicAgent is TonkHeuristicAgent
    assert (GreedyBot, HumanBot) == (SpitGreedyAgent, SpitHumanAgent)


# -- (4) parameters: specs, bounds, wrong types, unknown names -----------------------------


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("tonk-heuristic:samples=0", ("samples", "1 to 10000")),
        ("tonk-heuristic:samples=10001", ("samples", "1 to 10000")),
        ("tonk-heuristic:samples=abc", ("samples", "1 to 10000")),
        ("tonk-heuristic:samples=true", ("samples", "1 to 10000")),
        ("tonk-heuristic:drop_margin=nan", ("drop_margin", "-100")),
        ("tonk-heuristic:drop_margin=101", ("drop_margin", "100")),
        ("spit-greedy:mean=61", ("mean", "60")),
        ("spit-greedy:mean=true", ("mean", "60")),
        ("spit-human:sigma=nan", ("sigma", "3")),
        ("spit-human:sigma=-0.1", ("sigma", "3")),
        ("random:reaction=61", ("reaction", "60")),
        ("random:spread=3.5", ("spread", "3")),
        ("golf-greedy:seed=-1", ("seed",)),
        ("tonk-heuristic:seed=-2", ("seed",)),
        ("spit-greedy:seed=-1", ("seed",)),
        ("gofish-basic:seed=-1", ("seed",)),
        ("random:seed=-3", ("seed",)),
        ("golf-greedy:samples=3", ("no parameter 'samples'", "seed")),
        ("tonk-heuristic:sample=5", ("no parameter 'sample'", "did you mean 'samples'")),
    ],
)
def test_bad_agent_specs_are_option_errors_naming_the_parameter(spec, words):
    with pytest.raises(OptionError) as info:
        load_agent(spec)
    for word in words:
        assert word in str(info.value)


def test_good_agent_specs_build_the_agent():
    agent = load_agent("tonk-heuristic:samples=5,drop_margin=1.5,seed=3")
    assert (agent.samples, agent.drop_margin, agent.seed) == (5, 1.5, 3)
    assert load_agent("golf-greedy:seed=none").seed is None
    bot = load_agent("spit-human:mean=0.5,sigma=0")
    assert (bot.mean, bot.sigma) == (0.5, 0)
    assert load_agent("random", reaction=60, spread=3).reaction == 60


@pytest.mark.parametrize(
    ("factory", "kwargs"),
    [
        ("tonk-heuristic", {"samples": 0}),
        ("tonk-heuristic", {"samples": True}),
        ("tonk-heuristic", {"samples": 2.0}),
        ("tonk-heuristic", {"drop_margin": float("nan")}),
        ("tonk-heuristic", {"seed": 1.5}),
        ("spit-greedy", {"mean": 60.5}),
        ("spit-greedy", {"sigma": True}),
        ("spit-human", {"seed": -1}),
        ("golf-greedy", {"seed": True}),
        ("golf-greedy", {"seed": -1}),
        ("random", {"seed": -1}),
        ("random", {"spread": 21.0}),
    ],
)
def test_built_in_agents_check_their_bounds_when_built_directly(factory, kwargs):
    cls = load_agent(factory)
    with pytest.raises(OptionError):
        cls(**kwargs)


def test_random_takes_wider_values_built_directly_than_by_name():
    assert cardcore.RandomAgent(reaction=1000.0, spread=10.0).reaction == 1000.0
    with pytest.raises(OptionError):
        load_agent("random", reaction=1000.0)


# -- (5) games served and refused ------------------------------------------------------------


@pytest.mark.parametrize(("name", "game"), sorted(TURN_GAMES.items()))
def test_turn_based_agents_refuse_other_games_before_dealing(name, game):
    other = "tonk" if game != "tonk" else "golf"
    with pytest.raises(OptionError, match=f"plays {game}, not '{other}'"):
        cardcore.simulate(other, games=1, players=2, agents=[name, "random"])
    g = new_game(other, 2, seed=1)
    with pytest.raises(cardcore.CardcoreError, match="plays"):
        play(g, [load_agent(name)(seed=1), cardcore.RandomAgent(1)])
    assert g.version == 0


def test_spit_bots_refuse_turn_based_games():
    with pytest.raises(OptionError, match="plays speed, spit, not 'golf'"):
        cardcore.simulate("golf", games=1, players=2, agents=["spit-greedy", "random"])


@pytest.mark.parametrize("layout", [6, 8, 9, 10, 4, "4h"])
def test_golf_greedy_plays_every_layout(layout):
    game = new_game("golf", 3, options={"layout": layout, "rounds": 1}, seed=2)
    agent = load_agent("golf-greedy")
    result = play(game, [agent(seed=s) for s in range(3)])
    assert result.reason != "truncated"


@pytest.mark.parametrize("rule", cardcore.available_rules("golf"))
def test_golf_greedy_plays_with_every_house_rule(rule):
    layout = {
        "golf.diagonal-pairs": 4,
        "golf.peek-nearest": 4,
        "golf.hand-same-value": "4h",
        "golf.knock-final-stock-only": 4,
        "golf.no-cancelling": 4,
        "golf.remove-triples": 9,
    }.get(rule, 6)
    game = new_game("golf", 2, rules=(rule,), options={"layout": layout, "rounds": 1}, seed=4)
    result = play(game, [load_agent("golf-greedy")(seed=1), cardcore.RandomAgent(2)])
    assert result.reason != "truncated"


@pytest.mark.parametrize("rule", cardcore.available_rules("tonk"))
def test_tonk_heuristic_plays_with_every_house_rule(rule):
    game = new_game("tonk", 3, rules=(rule,), options={"hands": 2}, seed=5)
    agent = load_agent("tonk-heuristic")
    result = play(game, [agent(seed=s, samples=8) for s in range(3)])
    assert result.reason != "truncated"


@pytest.mark.parametrize("game_name", ["spit", "speed"])
@pytest.mark.parametrize("name", ["spit-greedy", "spit-human"])
def test_spit_bots_play_every_house_rule(game_name, name):
    bot = load_agent(name)
    for rules in ((), *tuple((r,) for r in cardcore.available_rules(game_name))):
        game = new_game(game_name, 2, rules=rules, seed=5)
        result = run_realtime(game, [bot(seed=1), bot(seed=2)], seed=1)
        assert result.reason != "truncated", rules


def test_tonk_heuristic_plays_four_seats():
    game = new_game("tonk", 4, options={"max_players": 4, "hands": 2}, seed=9)
    agent = load_agent("tonk-heuristic")
    assert play(game, [agent(seed=s, samples=8) for s in range(4)]).reason != "truncated"


# -- (1) hidden-information honesty -----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "game_name"),
    [
        ("random", "golf"),
        ("golf-greedy", "golf"),
        ("tonk-heuristic", "tonk"),
        ("gofish-basic", "gofish"),
        ("spit-greedy", "spit"),
        ("spit-greedy", "speed"),
        ("spit-human", "spit"),
    ],
)
def test_decision_depends_only_on_the_seats_view(name, game_name):
    """A determinized twin differs only in cards the seat cannot see: same view, same decision
    (fresh agents, same seed); also after a JSON round trip of the view."""
    cls = load_agent(name)
    options = {"hands": 20} if game_name == "tonk" else None
    game = new_game(game_name, 2, seed=21, options=options)
    mover = cardcore.RandomAgent(3)
    checked = 0
    for step in range(60):
        if game.is_over:
            break
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if not legal:
            break
        if step % 6 == 0:
            twin = game.determinize(seat, seed=step + 1)
            assert twin.view(seat) == game.view(seat)
            twin_legal = twin.legal_actions(seat)
            assert [str(a) for a in twin_legal] == [str(a) for a in legal]
            view = game.view(seat)
            method = "plan" if hasattr(cls, "plan") and game_name in ("spit", "speed") else "choose"
            args = (0.0,) if method == "plan" else ()
            a = getattr(cls(seed=7), method)(view, legal, *args)
            b = getattr(cls(seed=7), method)(twin.view(seat), twin_legal, *args)
            c = getattr(cls(seed=7), method)(json.loads(json.dumps(view)), legal, *args)
            assert str(a) == str(b) == str(c)
            checked += 1
        game.apply(mover.choose(game.view(seat), legal))
    assert checked >= 3


def test_golf_greedy_same_decision_when_hidden_cards_differ():
    """Two real positions differing only in seat 1's face-down cards and the stock."""
    a = new_game("golf", 2, position=golf_pos("9C! 8H! AD QD 7S 6C", "2D! 6D! 2S JS QS KS", "5H"))
    b = new_game("golf", 2, position=golf_pos("9C! 8H! AD QD 7S 6C", "2D! 6D! JH 3S 4C KC", "5H"))
    assert a.view(0) == b.view(0)
    agent = load_agent("golf-greedy")
    assert str(agent(seed=1).choose(a.view(0), a.legal_actions(0))) == str(
        agent(seed=1).choose(b.view(0), b.legal_actions(0))
    )


def test_tonk_heuristic_same_decision_when_opponent_hand_differs():
    a = new_game("tonk", 2, position=tonk_pos("3D 6D 2S JH QS", "AS 4H 9D QC KS", "10D"))
    b = new_game("tonk", 2, position=tonk_pos("KD KH 5S 5C 7C", "AS 4H 9D QC KS", "10D"))
    assert a.view(1) == b.view(1)
    agent = load_agent("tonk-heuristic")
    for margin in (-1.0, 0.0, 0.9, 2.0):
        x = agent(seed=4, drop_margin=margin).choose(a.view(1), a.legal_actions(1))
        y = agent(seed=4, drop_margin=margin).choose(b.view(1), b.legal_actions(1))
        assert str(x) == str(y)


@pytest.mark.parametrize(
    ("name", "game_name", "players"),
    [
        ("random", "tonk", 3),
        ("golf-greedy", "golf", 3),
        ("tonk-heuristic", "tonk", 3),
        ("gofish-basic", "gofish", 3),
    ],
)
def test_turn_agents_leave_view_and_legal_alone_and_get_no_game(name, game_name, players):
    cls = load_agent(name)
    spies = [Spy(cls(seed=s)) for s in range(players)]
    game = new_game(game_name, players, seed=8)
    play(game, spies, max_actions=400)
    for spy in spies:
        assert spy.views
        for view in spy.views[:20]:
            assert isinstance(view, LazyView)
            assert not any(isinstance(r, Game) for r in gc.get_referents(view))


@pytest.mark.parametrize(("name", "game_name"), [("spit-greedy", "spit"), ("spit-human", "speed")])
def test_realtime_agents_leave_view_and_legal_alone(name, game_name):
    cls = load_agent(name)
    spies = [Spy(cls(seed=1)), Spy(cls(seed=2))]
    game = new_game(game_name, 2, seed=8)
    run_realtime(game, spies, seed=1, max_actions=300)
    assert all(spy.views for spy in spies)


@pytest.mark.parametrize(
    ("name", "game_name"),
    [("golf-greedy", "golf"), ("tonk-heuristic", "tonk"), ("gofish-basic", "gofish")],
)
def test_json_round_trip_of_views_plays_the_same_game(name, game_name):
    cls = load_agent(name)

    def run(roundtrip):
        game = new_game(game_name, 2, seed=13)
        play(game, [Spy(cls(seed=s), roundtrip=roundtrip) for s in range(2)], max_actions=300)
        return game.record()["actions"]

    assert run(False) == run(True)


@pytest.mark.parametrize(("name", "game_name"), [("spit-greedy", "spit"), ("spit-human", "speed")])
def test_json_round_trip_of_views_plays_the_same_realtime_game(name, game_name):
    cls = load_agent(name)

    def run(roundtrip):
        game = new_game(game_name, 2, seed=13)
        run_realtime(
            game, [Spy(cls(seed=s), roundtrip=roundtrip) for s in (1, 2)], seed=2, max_actions=200
        )
        return game.record()["actions"]

    assert run(False) == run(True)


# -- (2) determinism -----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "game_name"), [*sorted(TURN_GAMES.items()), ("random", "golf")])
def test_turn_agents_same_seed_same_game(name, game_name):
    cls = load_agent(name)

    def run(seed):
        game = new_game(game_name, 2, seed=31)
        play(game, [cls(seed=seed), cls(seed=seed + 1)], max_actions=300)
        return game.record()["actions"]

    assert run(5) == run(5)


@pytest.mark.parametrize("name", ["spit-greedy", "spit-human", "random"])
def test_realtime_agents_same_seed_same_game_and_times(name):
    cls = load_agent(name)

    def run():
        game = new_game("spit", 2, seed=31)
        run_realtime(game, [cls(seed=3), cls(seed=4)], seed=6, max_actions=200)
        return game.record()["actions"]

    assert run() == run()


def test_seed_none_draws_fresh_choices():
    legal = tuple(range(50))
    a = cardcore.RandomAgent(seed=None)
    b = cardcore.RandomAgent(seed=None)
    assert [a.choose({}, legal) for _ in range(20)] != [b.choose({}, legal) for _ in range(20)]
    bot_a, bot_b = load_agent("spit-greedy")(seed=None), load_agent("spit-greedy")(seed=None)
    game = new_game("spit", 2, seed=1)
    view, legal_s = game.view(0), game.legal_actions(0)
    assert [bot_a.plan(view, legal_s, 0.0).delay for _ in range(5)] != [
        bot_b.plan(view, legal_s, 0.0).delay for _ in range(5)
    ]


# -- (3) documented rules of play ---------------------------------------------------------------


def _delays(agent, n=2000):
    game = new_game("spit", 2, seed=1)
    view, legal = game.view(0), game.legal_actions(0)
    return [agent.plan(view, legal, 0.0).delay for _ in range(n)]


@pytest.mark.parametrize(
    ("name", "mean", "sigma"), [("spit-greedy", 0.3, 0.35), ("spit-human", 0.9, 0.5)]
)
def test_spit_bots_reaction_is_lognormal_with_the_documented_mean_and_sigma(name, mean, sigma):
    delays = _delays(load_agent(name)(seed=11))
    logs = [math.log(d) for d in delays]
    assert statistics.fmean(delays) == pytest.approx(mean, rel=0.05)
    assert statistics.stdev(logs) == pytest.approx(sigma, rel=0.08)
    # search-agents.rst: the median is mean * exp(-sigma**2 / 2)
    assert statistics.median(delays) == pytest.approx(mean * math.exp(-(sigma**2) / 2), rel=0.06)


def test_random_agent_reaction_is_lognormal_with_median_reaction():
    delays = _delays(cardcore.RandomAgent(seed=11, reaction=0.5, spread=0.3))
    logs = [math.log(d) for d in delays]
    assert statistics.median(delays) == pytest.approx(0.5, rel=0.05)
    assert statistics.stdev(logs) == pytest.approx(0.3, rel=0.08)


def test_random_agent_choices_are_uniform():
    agent = cardcore.RandomAgent(seed=2)
    legal = tuple(range(4))
    counts = [0] * 4
    for _ in range(4000):
        counts[agent.choose({}, legal)] += 1
    assert all(900 < c < 1100 for c in counts)


def test_golf_greedy_setup_flips_in_a_fresh_column():
    game = new_game("golf", 2, seed=3, options={"rounds": 1})
    game.act(0, "flip 0")
    agent = load_agent("golf-greedy")
    for seed in range(8):
        action = agent(seed=seed).choose(game.view(0), game.legal_actions(0))
        assert action.pos % 3 != 0


@pytest.mark.parametrize(
    ("grid0", "discard", "expected"),
    [
        ("9C! 8H! AD QD 7S 6C", "3H", "take"),  # low (<= 3)
        ("9C! 8H! AD QD 7S 6C", "9H", "take"),  # pairs the 9 in column 0
        ("9C! 8H! AD QD 7S 6C", "7H", "draw"),  # neither
        ("9C! 8H! AD QD 7S 6C", "KH", "take"),  # K is 0: low
    ],
)
def test_golf_greedy_takes_a_low_or_pairing_discard(grid0, discard, expected):
    game = new_game("golf", 2, position=golf_pos(grid0, "2D! 6D! 2S JS QS KS", discard))
    action = load_agent("golf-greedy")(seed=1).choose(game.view(0), game.legal_actions(0))
    assert str(action) == expected


def test_golf_greedy_replaces_its_worst_known_card():
    """Holding a 2 with Q and 9 face up: the Q (10) goes, gaining most."""
    pos = golf_pos("9C! QH! 4D! AD! 3S! 6C", "2D! 6D! 2S JS QS KS", "5H", phase="place", held="2C")
    game = new_game("golf", 2, position=pos)
    action = load_agent("golf-greedy")(seed=1).choose(game.view(0), game.legal_actions(0))
    assert str(action) == "replace 1"


def test_golf_greedy_discards_a_card_worse_than_everything():
    pos = golf_pos("AC! KH! 2D! AD! 3S! KC", "4D! 6D! 2S JS QS KS", "5H", phase="place", held="QC")
    game = new_game("golf", 2, position=pos)
    action = load_agent("golf-greedy")(seed=1).choose(game.view(0), game.legal_actions(0))
    assert str(action) == "discard"


def test_golf_greedy_completes_a_column_pair():
    """Holding a 9 with a 9 face up at 0: it goes under it (position 3), not on the worst card."""
    pos = golf_pos("9C! QH! 4D! AD! 3S! 6C", "2D! 6D! 2S JS QS KS", "5H", phase="place", held="9H")
    game = new_game("golf", 2, position=pos)
    action = load_agent("golf-greedy")(seed=1).choose(game.view(0), game.legal_actions(0))
    assert str(action) == "replace 3"


def test_tonk_heuristic_drops_a_low_hand_and_keeps_a_high_one():
    agent = load_agent("tonk-heuristic")
    low = new_game("tonk", 2, position=tonk_pos("3D 6D 2S JH QS", "AS AH 2D 2H 3C", "6C"))
    assert str(agent(seed=0).choose(low.view(1), low.legal_actions(1))) == "drop"
    high = new_game("tonk", 2, position=tonk_pos("3D 6D 2S JH QS", "8S 9H 10D JC KS", "6C"))
    assert str(agent(seed=0).choose(high.view(1), high.legal_actions(1))) == "draw"
    # drop_margin decides: -100 always drops, 100 never does
    assert (
        str(agent(seed=0, drop_margin=-100).choose(high.view(1), high.legal_actions(1))) == "drop"
    )
    assert str(agent(seed=0, drop_margin=100).choose(low.view(1), low.legal_actions(1))) == "draw"


@pytest.mark.parametrize(
    ("h1", "top", "expected"),
    [
        ("7S 7H KD QC 9S", "7D", "take"),  # makes a book at once
        ("4S 5S 9D QC KH", "6S", "take"),  # makes a run at once
        ("AS 4H 9D QC KS", "2C", "take"),  # low card for a high one
        ("AS 4H 9D QC KS", "10D", "draw"),  # none of these
    ],
)
def test_tonk_heuristic_takes_a_useful_discard(h1, top, expected):
    game = new_game("tonk", 2, position=tonk_pos("3D 6D 2S JH QS", h1, top))
    action = load_agent("tonk-heuristic")(seed=0).choose(game.view(1), game.legal_actions(1))
    assert str(action) == expected


def test_tonk_heuristic_discards_the_most_deadwood_after_drawing():
    game = new_game("tonk", 2, position=tonk_pos("3D 6D 2S JH QS", "AS AH 2D 2H 3C", "6C"))
    game.act(1, "draw")  # draws the stock's top card (KC here)
    hand = game.view(1)["table"]["hand"]
    action = load_agent("tonk-heuristic")(seed=0).choose(game.view(1), game.legal_actions(1))
    assert str(action) == f"discard {max(hand, key=lambda c: RANKS.index(c[:-1]))}"


def test_tonk_heuristic_lays_the_most_valuable_spread_first():
    game = new_game("tonk", 2, position=tonk_pos("3D 6D 2S JH QS", "KS KH KD 4C 4S", "4H"))
    agent = load_agent("tonk-heuristic")(seed=0)
    assert str(agent.choose(game.view(1), game.legal_actions(1))) == "take"
    game.act(1, "take")
    legal = game.legal_actions(1)
    action = agent.choose(game.view(1), legal)
    assert action.__class__.__name__ == "Spread"
    assert sorted(str(c) for c in action.cards) == ["KD", "KH", "KS"]


def _spit_until(game, agents, phase, seed=1):
    class Found(Exception):
        pass

    def stop(g, action, at):
        if g.view(0)["table"]["phase"] == phase:
            raise Found

    with pytest.raises(Found):
        run_realtime(game, agents, seed=seed, on_action=stop)


def test_spit_greedy_claims_the_smaller_pile():
    bot = load_agent("spit-greedy")
    found = 0
    for seed in range(1, 6):
        game = new_game("spit", 2, seed=seed)
        try:
            _spit_until(game, [bot(seed=1), bot(seed=2)], "claim")
        except BaseException:
            continue
        piles = game.view(0)["table"]["piles"]
        sizes = [len(piles[k] or ()) for k in ("L", "R")]
        for seat in (0, 1):
            legal = game.legal_actions(seat)
            if not legal:
                continue
            action = bot(seed=3).choose(game.view(seat), legal)
            want = 0 if sizes[0] <= sizes[1] else 1
            assert action.target == want
            found += 1
    assert found


def test_spit_greedy_prefers_a_play_that_uncovers_a_face_down_card():
    from cardcore_spit.actions import Play

    bot = load_agent("spit-greedy")
    game = new_game("spit", 2, seed=4)
    spies = [Spy(bot(seed=1)), Spy(bot(seed=2))]
    run_realtime(game, spies, seed=3, max_actions=150)
    checked = 0
    for spy in spies:
        for data, legal in spy.calls:
            table = data["table"]
            if table["phase"] != "play":
                continue
            layout = table["seats"][data["seat"]]["layout"]
            hidden = [len(p) > 1 and p[1] is None for p in layout]
            plays = [a for a in legal if isinstance(a, Play)]
            action = bot(seed=0).pick(data, legal)
            if any(hidden[a.pile] for a in plays):
                assert isinstance(action, Play) and hidden[action.pile]
                checked += 1
            elif plays:
                assert action == plays[0]
    assert checked


def test_spit_greedy_turn_based_choose_answers_first_legal_when_nothing_fits():
    bot = load_agent("spit-greedy")(seed=1)
    game = new_game("speed", 2, seed=1)
    legal = game.legal_actions(0)
    assert bot.choose(game.view(0), legal) in legal


# -- (5') published strength, cheaply ----------------------------------------------------------


def test_golf_greedy_beats_random_over_short_matches():
    agent = load_agent("golf-greedy")
    wins = 0
    for i in range(6):
        game = new_game("golf", 2, options={"rounds": 3}, seed=100 + i)
        seats = (
            [agent(seed=i), cardcore.RandomAgent(i)]
            if i % 2 == 0
            else [cardcore.RandomAgent(i), agent(seed=i)]
        )
        result = play(game, seats)
        wins += (i % 2) in result.winners
    assert wins == 6


def test_tonk_heuristic_wins_money_against_random():
    agent = load_agent("tonk-heuristic")
    net = 0
    for i in range(30):
        seats = [cardcore.RandomAgent(10 * i + s) for s in range(3)]
        seats[i % 3] = agent(seed=i, samples=16)
        game = new_game("tonk", 3, seed=500 + i)
        result = play(game, seats)
        net += result.payouts[i % 3]
    assert net > 0


def test_fast_spit_bot_beats_slow_one():
    bot = load_agent("spit-greedy")
    fast = 0
    for i in range(6):
        game = new_game("speed", 2, seed=40 + i)
        pair = [bot(seed=i, mean=0.3), bot(seed=i + 50, mean=0.9)]
        if i % 2:
            pair.reverse()
        result = run_realtime(game, pair, seed=i)
        fast += (i % 2) in result.winners
    assert fast >= 5


def test_golf_greedy_estimates_unseen_cards_from_what_the_table_shows():
    """Holding a 7 over a face-down card: with nothing of the other layout shown the unseen
    cards average about 6.2 (discard the 7); once the other layout shows K K K A A face up
    the rest average about 7.0, so the 7 goes onto the face-down card."""
    agent = load_agent("golf-greedy")
    hidden = golf_pos("AC! KH! 2D! AD! 3S! 9C", "KS KD KC AH AS 2C", "5H", phase="place", held="7C")
    shown = golf_pos(
        "AC! KH! 2D! AD! 3S! 9C", "KS! KD! KC! AH! AS! 2C", "5H", phase="place", held="7C"
    )
    a, b = new_game("golf", 2, position=hidden), new_game("golf", 2, position=shown)
    assert str(agent(seed=1).choose(a.view(0), a.legal_actions(0))) == "discard"
    assert str(agent(seed=1).choose(b.view(0), b.legal_actions(0))) == "replace 5"


@pytest.mark.parametrize(
    ("grid0", "expected"),
    [
        ("AC@0 2D@0 KH@0 3S@0", "knock"),  # 6 points known: knocks
        ("AC@0 2D@0 KH@0 5S@0", "knock"),  # 8: still low
        ("AC@0 2D@0 KH@0 6S@0", "draw"),  # 9: not low enough
        ("AC@0 2D@0 KH 3S", "draw"),  # two unseen cards count as 5.5 each
    ],
)
def test_golf_greedy_knocks_in_golf4_when_its_known_cards_look_low(grid0, expected):
    used = {c.split("@")[0] for c in (grid0 + " 4D 6D 2S JS 9H").split()}
    stock = " ".join(c for c in DECK if c not in used)
    pos = (
        'golf layout="4" round=1 dealer=1 turn=0 phase="draw" turns=0 ender=null final=null'
        f" totals=[0,0] | stock: {stock} | discard: 9H! | held: | grid.0: {grid0}"
        " | grid.1: 4D 6D 2S JS"
    )
    game = new_game("golf", 2, position=pos, options={"layout": 4})
    action = load_agent("golf-greedy")(seed=1).choose(game.view(0), game.legal_actions(0))
    assert str(action) == expected


def _tonk_spread_pos(h1: str, disc: str) -> str:
    h0, spread = "3D 6D 2S JH", "10S JS QS"
    stock = _stock(h0, h1, disc, spread)
    return (
        'tonk played=0 dealer=0 turn=1 phase="start" balances=[0,0] chance=2 spreads=[[3,0]]'
        f' cut=[["9","4"]] | stock: {stock} | discard: {disc}! | hand.0: {h0}'
        f" | hand.1: {h1} | spreads: 10S! JS! QS!"
    )


@pytest.mark.parametrize(("top", "expected"), [("KS", "take"), ("9S", "take"), ("8S", "draw")])
def test_tonk_heuristic_takes_a_discard_that_hits_a_spread(top, expected):
    game = new_game("tonk", 2, position=_tonk_spread_pos("AD 4H 9D QC 7C", top))
    action = load_agent("tonk-heuristic")(seed=0).choose(game.view(1), game.legal_actions(1))
    assert str(action) == expected


def test_tonk_heuristic_hits_highest_card_first():
    game = new_game("tonk", 2, position=_tonk_spread_pos("AD 9S 9D KS 7C", "5H"))
    game.act(1, "draw")
    legal = game.legal_actions(1)
    assert {"hit 1 9S", "hit 1 KS"} <= {str(a) for a in legal}
    assert str(load_agent("tonk-heuristic")(seed=0).choose(game.view(1), legal)) == "hit 1 KS"


@pytest.mark.parametrize("name", ["random", "golf-greedy", "tonk-heuristic", "spit-greedy"])
def test_choose_with_no_legal_action_is_an_argument_error(name):
    game = new_game(TURN_GAMES.get(name, "tonk" if name == "random" else "spit"), 2, seed=1)
    with pytest.raises(cardcore.ArgumentError, match="no legal action"):
        load_agent(name)(seed=1).choose(game.view(0), ())


def test_realtime_agents_plan_nothing_without_legal_actions():
    game = new_game("speed", 2, seed=1)
    for name in ("random", "spit-greedy", "spit-human"):
        assert load_agent(name)(seed=1).plan(game.view(0), (), 0.0) is None


def test_random_agent_implements_both_protocols():
    agent = cardcore.RandomAgent(1)
    assert isinstance(agent, cardcore.Agent)
    assert isinstance(agent, cardcore.RealtimeAgent)
    bot = load_agent("spit-greedy")(seed=1)
    assert isinstance(bot, cardcore.RealtimeAgent)
    assert isinstance(bot, cardcore.Agent)


def test_cli_list_shows_only_the_agents_that_play_the_game():
    from cardcore.cli.commands import _agents_for

    names = {g: {n for n, _ in _agents_for(g)} for g in ("golf", "tonk", "spit", "speed")}
    assert "golf-greedy" in names["golf"]
    assert not {"tonk-heuristic", "spit-greedy", "spit-human"} & names["golf"]
    assert "tonk-heuristic" in names["tonk"]
    assert {"spit-greedy", "spit-human"} <= names["speed"] & names["spit"]
