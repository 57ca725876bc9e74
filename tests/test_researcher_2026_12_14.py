"""A researcher takes the 2026-12-14 Cheat and Scopa test plugins through every tool.

Search (``Game.determinize``, the ISMCTS sampler ``cardcore.search.sample_position`` and
the ``ismcts`` agent), reinforcement learning (the PettingZoo AEC environment with
``pettingzoo.test.api_test``, the Gymnasium single-seat and the batched environments),
the house-rule lab (``simulate``/``compare`` through ``cardcore.cli.main`` and the Python
API, ``--workers 2`` with the in-process registrations) and replay/record/clone, as
docs/search-agents.rst, docs/rl.rst, docs/agents.rst, docs/house-rule-study.rst and
docs/cli.rst describe them. Both games are registered in place with
``cardcore.register`` as their authors' tests do.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import warnings
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import cli
from cardcore.rl import aec_env, gym_env, observe, vector_env
from cardcore.search import ISMCTSAgent, sample_position
from tests.plugins import cheat_2026_12_14 as ch
from tests.plugins import cheat_rules_2026_12_14 as ch_rule
from tests.plugins import scopa_2026_12_14 as sc
from tests.plugins import scopa_rules_2026_12_14 as sc_rule

CHEAT, SCOPA = ch.NAME, sc.NAME


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    cardcore.register("cardcore.games", CHEAT, ch)
    cardcore.register("cardcore.rules", ch_rule.NAME, ch_rule)
    cardcore.register("cardcore.games", SCOPA, sc)
    cardcore.register("cardcore.rules", sc_rule.NAME, sc_rule)
    yield
    cardcore.unregister("cardcore.rules", sc_rule.NAME)
    cardcore.unregister("cardcore.games", SCOPA)
    cardcore.unregister("cardcore.rules", ch_rule.NAME)
    cardcore.unregister("cardcore.games", CHEAT)


# --- helpers --------------------------------------------------------------------------------


def random_step(game: cardcore.Game, rng: random.Random) -> None:
    seat = rng.choice(sorted(game.to_act))
    game.apply(rng.choice(game.legal_actions(seat)))


def positions_along(
    name: str, players: int, seed: int, steps: int, **kw: Any
) -> Iterator[cardcore.Game]:
    """A random game of *name*, yielded after each of up to *steps* actions."""
    game = cardcore.new_game(name, players, seed=seed, **kw)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        random_step(game, rng)
        if game.is_over:
            return
        yield game


def cards(game: cardcore.Game) -> list[list[str]]:
    """Every pile, bottom to top (privileged)."""
    return [[str(c) for c in pile] for pile in game.state.zones.cards]


def known_places(game: cardcore.Game, seat: int) -> dict[tuple[int, int], str]:
    z = game.state.zones
    return {
        (p, i): str(c)
        for p, pile in enumerate(z.cards)
        for i, c in enumerate(pile)
        if z.knows(p, i, seat)
    }


def hidden_places(game: cardcore.Game, seat: int) -> dict[tuple[int, int], str]:
    z = game.state.zones
    return {
        (p, i): str(c)
        for p, pile in enumerate(z.cards)
        for i, c in enumerate(pile)
        if not z.knows(p, i, seat)
    }


def win_reward(seat: int, winners: Any, players: int) -> float:
    """docs/rl.rst: +1 to each winner, the losers share the winners' total; no winner, or
    every seat a winner, pays 0."""
    w = set(winners)
    if not w or len(w) == players:
        return 0.0
    return 1.0 if seat in w else -len(w) / (players - len(w))


def zone_index(game: cardcore.Game, name: str) -> int:
    return [s.name for s in game.state.zones.layout.specs].index(name)


def cheat_after_challenge(seed: int = 5) -> cardcore.Game:
    """A 3-seat Cheat game past its first challenge, with a claim of seat 0 being judged
    while the centre holds cards laid by other seats too."""
    for s in range(seed, seed + 200):
        game = cardcore.new_game(CHEAT, 3, seed=s, options={"max_turns": 60})
        rng = random.Random(s)
        challenged = False
        for _ in range(300):
            if game.is_over:
                break
            st = game.state
            if st.revealed:
                challenged = True
            z = st.zones
            centre = z.cards[ch.CENTRE]
            if (
                challenged
                and st.phase == "doubt"
                and st.turn == 0
                and len(centre) > st.laid + 1
                and any(not z.knows(ch.CENTRE, i, 0) for i in range(len(centre)))
            ):
                return game
            # nobody doubts until the first challenge has happened once
            seat = rng.choice(sorted(game.to_act))
            legal = game.legal_actions(seat)
            if st.phase == "doubt":
                pick = "doubt" if (not challenged and rng.random() < 0.5) else "pass"
                if challenged and rng.random() < 0.1:
                    pick = "doubt"
                action = next(a for a in legal if a.notation() == pick)
            else:
                lays = [a for a in legal if a.notation().startswith("lay")]
                action = rng.choice(lays) if st.laid < 2 and lays else legal[-1]
            game.apply(action)
    raise AssertionError("no such Cheat position found")


# --- search: Game.determinize -----------------------------------------------------------------


def test_cheat_determinize_keeps_what_the_seat_knows_and_redeals_the_rest() -> None:
    """Every card the seat knows stays in place (its hand, the cards it laid face down); the
    others are shuffled among the hidden places; the seat's view is unchanged."""
    checked = 0
    for game in positions_along(CHEAT, 3, seed=21, steps=120, options={"max_turns": 40}):
        for seat in range(3):
            twin = game.determinize(seat, checked)
            checked += 1
            before, after = cards(game), cards(twin)
            assert Counter(c for p in before for c in p) == Counter(c for p in after for c in p)
            for (p, i), card in known_places(game, seat).items():
                assert after[p][i] == card
            assert [len(p) for p in before] == [len(p) for p in after]
            real_view, twin_view = game.view(seat), twin.view(seat)
            assert real_view["zones"] == twin_view["zones"]
            assert real_view["table"] == twin_view["table"]
    assert checked > 100


def test_cheat_determinize_redeals_others_face_down_cards_keeps_own() -> None:
    """In the centre, the cards seat 0 laid stay; those the other seats laid (unseen) are
    re-dealt: over a few determinizations their identities change."""
    game = cheat_after_challenge()
    z = game.state.zones
    centre = z.cards[ch.CENTRE]
    own = [i for i in range(len(centre)) if z.knows(ch.CENTRE, i, 0)]
    others = [i for i in range(len(centre)) if not z.knows(ch.CENTRE, i, 0)]
    assert own and others
    # seat 0's last laid cards (the claim judged) are its own
    assert set(range(len(centre) - game.state.laid, len(centre))) <= set(own)
    changed = set()
    for k in range(12):
        twin = game.determinize(0, 1000 + k)
        tc = twin.state.zones.cards[ch.CENTRE]
        for i in own:
            assert tc[i] == centre[i]
        changed |= {i for i in others if tc[i] != centre[i]}
    assert changed == set(others)
    # and seat 1's determinization re-deals seat 0's face-down cards it never saw
    seen_by_1 = [i for i in own if not z.knows(ch.CENTRE, i, 1)]
    assert seen_by_1
    moved = set()
    for k in range(12):
        tc = game.determinize(1, 2000 + k).state.zones.cards[ch.CENTRE]
        moved |= {i for i in seen_by_1 if tc[i] != centre[i]}
    assert moved == set(seen_by_1)


def test_scopa_determinize_redeals_opponent_hand_and_stock_only() -> None:
    for players in (2, 4):
        along = positions_along(SCOPA, players, seed=3, steps=30, options={"target": 3})
        for n, game in enumerate(along):
            seat = game.to_act[0]
            before = cards(game)
            twin = game.determinize(seat, n)
            after = cards(twin)
            for name in ["table", f"hand.{seat}", *(f"taken.{s}" for s in range(players))]:
                p = zone_index(game, name)
                assert after[p] == before[p], name
            hidden = ["stock", *(f"hand.{s}" for s in range(players) if s != seat)]
            pool = Counter(c for name in hidden for c in before[zone_index(game, name)])
            assert pool == Counter(c for name in hidden for c in after[zone_index(game, name)])
            assert game.view(seat)["zones"] == twin.view(seat)["zones"]
        # over many twins an opponent's hand does get other cards
    game = cardcore.new_game(SCOPA, 2, seed=9)
    opp = zone_index(game, "hand.1")
    hands = {tuple(cards(game.determinize(0, k))[opp]) for k in range(8)}
    assert len(hands) > 1


def test_determinized_game_has_no_record_and_cannot_be_saved() -> None:
    game = cardcore.new_game(SCOPA, 2, seed=1)
    twin = game.determinize(0, 5)
    with pytest.raises(cardcore.CardcoreError):
        twin.record()
    with pytest.raises(cardcore.CardcoreError):
        twin.save()


# --- search: the ISMCTS sampler -------------------------------------------------------------


def check_sample(game: cardcore.Game, seat: int, rng: random.Random) -> cardcore.Game:
    view = game.view(seat)
    sample = cardcore.new_game(game.name, game.state.players, position=sample_position(view, rng))
    sview = sample.view(seat)
    # every card the view shows lies where it lies; every count is the same
    assert sview["zones"] == view["zones"]
    assert sample.to_act == game.to_act
    # the cards in hidden places are exactly the cards the view does not show
    shown = Counter(c for zone in view["zones"] for c in zone["cards"] if c is not None)
    every = Counter(c for p in cards(sample) for c in p)
    assert every == Counter(c for p in cards(game) for c in p)
    assert sum(shown.values()) + sum(z["cards"].count(None) for z in view["zones"]) == sum(
        every.values()
    )
    return sample


def test_cheat_samples_keep_the_view_and_deal_only_unseen_cards() -> None:
    rng = random.Random(4)
    n = 0
    for game in positions_along(CHEAT, 4, seed=8, steps=90, options={"max_turns": 40}):
        for seat in game.to_act:
            sample = check_sample(game, seat, rng)
            # the legal actions of the sample for the seat are the real ones
            assert [a.notation() for a in sample.legal_actions(seat)] == [
                a.notation() for a in game.legal_actions(seat)
            ]
            n += 1
    assert n > 50


def test_cheat_sample_keeps_own_face_down_cards_and_redeals_the_others() -> None:
    game = cheat_after_challenge()
    view = game.view(0)
    centre = game.state.zones.cards[ch.CENTRE]
    own = {i for i in range(len(centre)) if game.state.zones.knows(ch.CENTRE, i, 0)}
    shown = view["zones"][0]["cards"]  # top first
    assert sum(c is not None for c in shown) == len(own)
    changed: set[int] = set()
    for k in range(10):
        sample = check_sample(game, 0, random.Random(k))
        sc_centre = sample.state.zones.cards[ch.CENTRE]
        for i in own:
            assert sc_centre[i] == centre[i]
        changed |= {i for i in range(len(centre)) if i not in own and sc_centre[i] != centre[i]}
    assert changed == set(range(len(centre))) - own


def test_scopa_samples_keep_table_and_captures() -> None:
    rng = random.Random(2)
    for players in (2, 4):
        for game in positions_along(SCOPA, players, seed=5, steps=40, options={"target": 2}):
            seat = game.to_act[0]
            sample = check_sample(game, seat, rng)
            for name in ["table", f"hand.{seat}", *(f"taken.{s}" for s in range(players))]:
                p = zone_index(game, name)
                assert cards(sample)[p] == cards(game)[p]
            table = game.view(seat)["table"]
            for key in ("scopas", "scores", "dealer", "last_capture"):
                assert sample.view(seat)["table"][key] == table[key]
            assert [a.notation() for a in sample.legal_actions(seat)] == [
                a.notation() for a in game.legal_actions(seat)
            ]


def test_views_hold_no_hidden_card() -> None:
    """A seat's view (all that the search agent and the encodings read) names no card the seat
    does not know, in any field."""
    word = __import__("re").compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([SHDC])(?![A-Za-z0-9])")
    for name, players, opts in ((CHEAT, 3, {"max_turns": 40}), (SCOPA, 4, {"target": 2})):
        for game in positions_along(name, players, seed=13, steps=80, options=opts):
            for seat in range(players):
                text = json.dumps(game.view(seat))
                named = {a + b for a, b in word.findall(text)}
                hidden = set(hidden_places(game, seat).values())
                known = set(known_places(game, seat).values())
                # a card named in the view is known to the seat, or named by the table as
                # public history (Cheat's "revealed")
                public = set(game.view(seat)["table"].get("revealed", []))
                assert named <= known | public, (name, seat, named - known - public)
                assert not (named - public) & (hidden - known)


# --- search: the ismcts agent ---------------------------------------------------------------


class Checked:
    """Wraps an agent and checks that each choice is one of the legal actions given."""

    def __init__(self, agent: Any) -> None:
        self.agent, self.decisions = agent, 0

    def choose(self, view: Any, legal: Any) -> Any:
        action = self.agent.choose(view, legal)
        assert action in legal
        self.decisions += 1
        return action


def test_ismcts_plays_legal_moves_in_cheat_doubt_windows_included() -> None:
    game = cardcore.new_game(CHEAT, 3, seed=3, options={"max_turns": 12})
    bot = Checked(ISMCTSAgent(seed=1, iterations=10))
    result = cardcore.play(game, [bot, cardcore.RandomAgent(2), cardcore.RandomAgent(3)])
    assert result.reason in ("turn cap", "hand emptied")
    assert bot.decisions > 8
    verbs = {a.notation().split()[0] for s, a, _ in game.record_entries() if s == 0}
    assert "lay" in verbs and verbs & {"doubt", "pass"}


def test_ismcts_beats_random_at_scopa() -> None:
    """Duplicate deals (each seed twice, ISMCTS in each seat), one round to 1 point: ISMCTS
    scores more match points than random over the deals."""
    margin, wins, games = 0.0, 0.0, 0
    for deal in range(6):
        for me in (0, 1):
            game = cardcore.new_game(SCOPA, 2, seed=500 + deal, options={"target": 1})
            agents: list[Any] = [None, None]
            agents[me] = Checked(ISMCTSAgent(seed=deal, iterations=30))
            agents[1 - me] = cardcore.RandomAgent(deal)
            result = cardcore.play(game, agents)
            margin += result.scores[me] - result.scores[1 - me]
            wins += me in result.winners
            games += 1
    assert margin > 0
    assert wins / games > 0.5


def test_ismcts_search_leaves_the_real_game_alone_and_clones_replay() -> None:
    """The agent holds views only; a clone searched and played on leaves the original alone;
    the record replays to the same end."""
    game = cardcore.new_game(SCOPA, 2, seed=77, options={"target": 1})
    bot = ISMCTSAgent(seed=3, iterations=10)
    rng = random.Random(0)
    for _ in range(6):
        seat = game.to_act[0]
        before = (game.position(), game.version)
        action = bot.choose(game.view(seat), game.legal_actions(seat))
        assert (game.position(), game.version) == before
        game.apply(action if seat == 0 else rng.choice(game.legal_actions(seat)))
    snapshot = (game.position(), json.dumps(game.record(), sort_keys=True))
    clone = game.clone()
    cardcore.play(clone, [ISMCTSAgent(seed=4, iterations=8), cardcore.RandomAgent(1)])
    assert clone.is_over
    assert (game.position(), json.dumps(game.record(), sort_keys=True)) == snapshot
    replayed = cardcore.replay(json.loads(json.dumps(clone.record())))
    assert replayed.position() == clone.position()
    assert replayed.result == clone.result
    assert clone.record()["actions"][: len(game.record()["actions"])] == game.record()["actions"]


def test_cheat_record_replays_and_clone_is_independent() -> None:
    game = cardcore.new_game(CHEAT, 4, seed=4, rules=[ch_rule.NAME], options={"max_turns": 15})
    cardcore.play(
        game, [ISMCTSAgent(seed=1, iterations=6)] + [cardcore.RandomAgent(i) for i in range(3)]
    )
    replayed = cardcore.replay(game.record())
    assert replayed.position() == game.position() and replayed.result == game.result
    assert replayed.rules == (ch_rule.NAME,)


# --- RL: PettingZoo AEC, Gymnasium single seat, batched ---------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "opts"),
    [(CHEAT, 3, {"max_turns": 15}), (SCOPA, 2, {"target": 1}), (SCOPA, 4, {"target": 1})],
)
def test_aec_env_passes_pettingzoo_api_test(name: str, players: int, opts: dict) -> None:
    api = pytest.importorskip("pettingzoo.test")
    env = aec_env(name, players, options=opts)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api.api_test(env, num_cycles=300)
    messages = {str(w.message).split(".")[0].split(",")[0] for w in caught}
    # only the two warnings PettingZoo gives any dict observation (docs/rl.rst)
    assert all(
        m.startswith("Observation space for each agent probably")
        or m.startswith("Observation is not a NumPy array")
        for m in messages
    ), messages


@pytest.mark.parametrize(
    ("name", "players", "opts", "rules"),
    [
        (CHEAT, 3, {"max_turns": 20}, [ch_rule.NAME]),
        (CHEAT, 5, {"max_turns": 20}, []),
        (SCOPA, 2, {"target": 2}, [sc_rule.NAME]),
        (SCOPA, 4, {"target": 1}, []),
    ],
)
def test_aec_masks_are_the_legal_actions_and_win_rewards_sum_to_zero(
    name: str, players: int, opts: dict, rules: list
) -> None:
    env = aec_env(name, players, options=opts, rules=rules)
    env.reset(seed=17)
    rng = random.Random(1)
    steps = 0
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=5000):
        obs, reward, term, trunc, _info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        seat = int(agent.split("_")[1])
        game = env.match.game
        legal = game.legal_actions(seat)
        mask = obs["action_mask"]
        # the generic encoding: index i is the i-th legal action
        assert mask.sum() == len(legal) > 0
        assert mask[: len(legal)].all()
        names = env.config.observer.names
        assert [names[i] for i in np.flatnonzero(mask)] == [
            f"legal[{i}]" for i in range(len(legal))
        ]
        i = rng.randrange(len(legal))
        expected = legal[i]
        before = len(game.record_entries())
        env.step(i)
        entries = game.record_entries()
        assert entries[before][1] == expected
        steps += 1
    result = env.match.game.result
    assert result is not None and steps > 10
    assert sum(total.values()) == pytest.approx(0.0)
    winners = set(result.winners)
    for a, r in total.items():
        assert r == pytest.approx(win_reward(int(a.split("_")[1]), result.winners, players))
    if name == SCOPA and players == 4:
        # partners win together (SCOPA-SEAT-1): two winners, +1 each, -1 each for the others
        assert len(winners) == 2 and {s % 2 for s in winners} == {next(iter(winners)) % 2}


@pytest.mark.parametrize(
    ("name", "players", "opts"),
    [(CHEAT, 3, {"max_turns": 30}), (SCOPA, 2, {"target": 2}), (SCOPA, 4, {"target": 2})],
)
def test_observations_do_not_change_with_another_seats_hidden_cards(
    name: str, players: int, opts: dict
) -> None:
    n = 0
    for game in positions_along(name, players, seed=31, steps=60, options=opts):
        for seat in range(players):
            twin = game.determinize(seat, n)
            n += 1
            if cards(twin) == cards(game):
                continue
            a, b = observe(game, seat), observe(twin, seat)
            assert np.array_equal(a["observation"], b["observation"])
            assert np.array_equal(a["action_mask"], b["action_mask"])
    assert n > 50


def test_observation_does_see_the_seats_own_cards() -> None:
    """The twin check above is not vacuous: changing the seat's own hand changes its
    observation."""
    game = cardcore.new_game(SCOPA, 2, seed=1)
    twin = game.determinize(1, 3)  # seat 1's twin re-deals seat 0's hand
    assert cards(twin)[zone_index(game, "hand.0")] != cards(game)[zone_index(game, "hand.0")]
    assert not np.array_equal(observe(game, 0)["observation"], observe(twin, 0)["observation"])


def test_gym_env_scopa_against_ismcts_by_spec() -> None:
    env = gym_env(SCOPA, 2, seat=1, opponents="ismcts:iterations=4", options={"target": 1})
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    total, done, steps = 0.0, False, 0
    while not done:
        mask = obs["action_mask"]
        assert np.array_equal(env.action_masks(), mask.astype(bool))
        assert mask.sum() == len(env.runner.match.game.legal_actions(1))
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        done = term or trunc
        steps += 1
    result = info["result"]
    assert steps >= 18
    assert total == pytest.approx(win_reward(1, result["winners"], 2))
    assert result == env.runner.match.game.result.to_json()


def test_gym_env_score_rewards_refused_for_scopa() -> None:
    with pytest.raises(cardcore.OptionError):
        gym_env(SCOPA, 2, rewards="score")


def test_vector_env_cheat_and_scopa() -> None:
    for name, players, opts in ((CHEAT, 3, {"max_turns": 6}), (SCOPA, 2, {"target": 1})):
        envs = vector_env(name, 3, players, options=opts)
        obs, infos = envs.reset(seed=[1, 2, 3])
        rng = np.random.default_rng(0)
        finals = 0
        for _ in range(120):
            masks = obs["action_mask"]
            assert masks.shape[0] == 3 and (masks.sum(axis=1) > 0).all()
            actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
            obs, rewards, terms, truncs, infos = envs.step(actions)
            for k in np.flatnonzero(terms | truncs):
                finals += 1
                assert infos["_final_info"][k]
                res = infos["final_info"][k]["result"]
                assert rewards[k] == pytest.approx(win_reward(0, res["winners"], players))
        assert finals >= 3, name
        envs.close()


# --- the house-rule lab: simulate and compare ----------------------------------------------


def run_cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(args)
    return code, out.getvalue(), err.getvalue()


def test_cli_simulate_cheat_with_house_rule_and_two_workers_matches_in_process() -> None:
    base = ["simulate", CHEAT, "--games", "8", "--quiet", "--json", "-"]
    base += ["--rules", ch_rule.NAME, "-o", "max_turns=20", "-o", "max_cards=1"]
    code1, out1, err1 = run_cli(base)
    code2, out2, err2 = run_cli([*base, "--workers", "2"])
    assert (code1, code2) == (0, 0), err1 + err2
    one, two = json.loads(out1), json.loads(out2)
    assert one == two
    assert one["rules"] == [ch_rule.NAME] and one["options"]["max_cards"] == 1
    assert sum(one["wins"]) == pytest.approx(8)
    api = cardcore.simulate(
        CHEAT, games=8, players=4, rules=[ch_rule.NAME], options={"max_turns": 20, "max_cards": 1}
    )
    assert list(api.wins) == pytest.approx(one["wins"])
    assert api.mean_actions == pytest.approx(one["mean_actions"])


def test_cli_compare_scopa_rich_scopa_two_workers_matches_api() -> None:
    args = ["compare", SCOPA, "--rules", sc_rule.NAME, "--games", "10", "-o", "target=1"]
    args += ["--json", "-", "--seed", "3"]
    code1, out1, err1 = run_cli(args)
    code2, out2, err2 = run_cli([*args, "--workers", "2"])
    assert (code1, code2) == (0, 0), err1 + err2
    one, two = json.loads(out1), json.loads(out2)
    for side in ("a", "b", "diff"):
        for key in ("first_seat", "actions", "rounds", "spread"):
            if key in one[side]:
                assert one[side][key] == pytest.approx(two[side][key]), (side, key)
    api = cardcore.compare(SCOPA, rules=[sc_rule.NAME], games=10, seed=3, options={"target": 1})
    assert api.a.rules == (sc_rule.NAME,) and api.b.rules == ()
    assert api.same_deals is True
    assert api.diff["actions"].mean == pytest.approx(one["diff"]["actions"]["mean"])
    for fig in (api.diff["actions"], api.diff["spread"], api.diff["first_seat"]):
        assert fig.low <= fig.mean <= fig.high and fig.n == 10


def test_compare_rich_scopa_scores_each_scopa_twice() -> None:
    """The rule only revalues scopas: on the same deals and the same random play, a game's
    final scores under the rule are the base scores plus each side's scopas once more."""
    for seed in range(6):
        a = cardcore.new_game(SCOPA, 2, seed=seed, rules=[sc_rule.NAME], options={"target": 1})
        b = cardcore.new_game(SCOPA, 2, seed=seed, options={"target": 1})
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while not b.is_over:
            seat = b.to_act[0]
            b.apply(rng_b.choice(b.legal_actions(seat)))
            if b.history():
                break
        while not a.is_over:
            seat = a.to_act[0]
            a.apply(rng_a.choice(a.legal_actions(seat)))
            if a.history():
                break
        ha, hb = a.history()[0], b.history()[0]
        assert ha["scopas"] == hb["scopas"]
        assert ha["points"] == [p + s for p, s in zip(hb["points"], hb["scopas"], strict=True)]


def test_compare_skill_probe_with_ismcts_on_scopa() -> None:
    result = cardcore.compare(
        SCOPA,
        rules=[sc_rule.NAME],
        games=2,
        seed=1,
        options={"target": 1},
        skill=("ismcts:iterations=3", "random"),
    )
    skill = result.a.skill
    assert (
        skill is not None and skill.n >= 2 and 0.0 <= skill.low <= skill.mean <= skill.high <= 1.0
    )


def test_cli_simulate_scopa_ismcts_spec_same_with_workers() -> None:
    """An agent spec with parameters, seeded per game and seat, gives the same summary in
    this process and in two workers (docs/search-agents.rst, docs/cli.rst)."""
    base = ["simulate", SCOPA, "--games", "4", "--players", "2", "--quiet", "--json", "-"]
    base += ["--agents", "ismcts:iterations=4,random", "-o", "target=1", "--seed", "2"]
    code1, out1, err1 = run_cli(base)
    code2, out2, err2 = run_cli([*base, "--workers", "2"])
    assert (code1, code2) == (0, 0), err1 + err2
    one, two = json.loads(out1), json.loads(out2)
    assert one == two
    assert one["agents"][1] == "random" and one["agents"][0].startswith("ismcts")


def test_gym_env_cheat_learner_in_the_doubt_window() -> None:
    """The learner of a 3-seat Cheat game is asked in the simultaneous doubt window too, and
    its mask is then exactly doubt and pass."""
    env = gym_env(CHEAT, 3, seat=1, opponents="random", options={"max_turns": 12})
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(1)
    phases, done = set(), False
    while not done:
        game = env.runner.match.game
        legal = [a.notation() for a in game.legal_actions(1)]
        phases.add(game.state.phase)
        if game.state.phase == "doubt":
            assert legal == ["doubt", "pass"]
        assert int(obs["action_mask"].sum()) == len(legal)
        obs, reward, term, trunc, info = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        done = term or trunc
    assert phases == {"play", "doubt"}
    assert reward == pytest.approx(win_reward(1, info["result"]["winners"], 3))
