"""Review of ``git diff b81e688..HEAD`` (hardened input checks, score rewards from payouts).

Plain tests: claims of the change that hold (valid input still taken, fixes that work).
``xfail(strict=True)`` tests: what the change left wrong, each asserting the right outcome.
"""

from __future__ import annotations

import enum
import json
import math
import random
import types
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np
import pytest

import cardcore
from cardcore import (
    ArgumentError,
    CardcoreError,
    GameInfo,
    OptionError,
    PluginError,
    RuleInfo,
    ViewField,
    hookimpl,
)
from cardcore import positions as pos
from cardcore.info import Option
from cardcore.plugins import load_agent
from cardcore.rl import aec_env, gym_env, vector_env
from cardcore.rl.aec import CardEnv
from cardcore.rl.match import Config
from cardcore.session.config import GameSetup
from cardcore.session.fair import FairDeal, seed_of
from cardcore.simulate import run_one
from cardcore.zones import Zones
from tests.plugins import scat_2026_12_09 as scat

# --------------------------------------------------------------------------- helpers


@pytest.fixture
def scat_game():
    cardcore.register("cardcore.games", "scat", scat)
    yield "scat"
    cardcore.unregister("cardcore.games", "scat")


def _scat_variant(name: str, payouts: Any) -> types.ModuleType:
    """Scat under *name* whose logic answers ``payouts`` with *payouts(self, state)*."""

    class Logic(scat.ScatLogic):
        pass

    Logic.payouts = payouts  # type: ignore[method-assign]
    module = types.ModuleType(name)
    module.GAME = attrs.evolve(scat.GAME, name=name)  # type: ignore[attr-defined]

    @hookimpl
    def create_logic(ruleset: Any) -> Logic:
        return Logic(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.scat_payers = scat.scat_payers  # type: ignore[attr-defined]
    return module


@pytest.fixture
def variant():
    names: list[str] = []

    def make(name: str, payouts: Any) -> str:
        cardcore.register("cardcore.games", name, _scat_variant(name, payouts))
        names.append(name)
        return name

    yield make
    for name in reversed(names):
        cardcore.unregister("cardcore.games", name)


def _play_aec(env: Any, seed: int) -> tuple[dict[str, float], list[float], Any]:
    """Play *env* to the end (last legal action); return the returns, each step's reward
    sum, and the game."""
    env.reset(seed=seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    sums: list[float] = []
    steps = 0
    while env.agents and steps < 3000:
        obs, reward, term, trunc, _ = env.last()
        returns[env.agent_selection] += reward
        sums.append(sum(env.unwrapped.rewards.values()))
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][-1]))
        steps += 1
    return returns, sums, env.unwrapped.match.game


def _golf_zones() -> Zones:
    game = cardcore.new_game("golf", 2, seed=1)
    return Zones(game._state.zones.layout)


# --------------------------------------------------------------------------- info: declarations


def test_option_kind_object_and_list_choices_are_still_taken() -> None:
    assert Option(name="x", default=[1, 2], kind=object).check([3]) == [3]
    opt = Option(name="x", default="a", kind=str, choices=["a", "b"])
    assert opt.choices == ("a", "b")
    assert opt.check("b") == "b"


def test_game_info_and_rule_info_still_take_lists_and_version_text() -> None:
    info = GameInfo(
        name="g",
        summary="s",
        min_players=1,
        max_players=2,
        version="1.2.3",
        options=[Option(name="x", default=1)],
        default_rules=["g.r"],
    )
    assert info.options == (Option(name="x", default=1),)
    assert info.default_rules == ("g.r",)
    rule = RuleInfo(id="A-1", name="g.r", game="g", summary="s", conflicts=["g.q"])
    assert rule.conflicts == ("g.q",) and rule.version == "0.1.0"


class _Seats(enum.IntEnum):
    ONE = 1
    NINE = 9


@pytest.mark.parametrize(
    ("kind", "low", "high"),
    [
        (float, np.float64(0.5), np.float64(9.5)),
        (int, _Seats.ONE, _Seats.NINE),
        (int, np.int64(1), np.int64(9)),
    ],
    ids=["np.float64", "IntEnum", "np.int64"],
)
def test_option_bounds_that_are_numbers_of_a_subclass_or_numpy_are_taken(
    kind: type, low: Any, high: Any
) -> None:
    opt = Option(name="x", default=kind(2), kind=kind, minimum=low, maximum=high)
    assert opt.check(kind(5)) == kind(5)
    with pytest.raises(OptionError):
        opt.check(kind(10))


@pytest.mark.parametrize("given", [{"label": None}, {"of": None}], ids=["label", "of"])
def test_view_field_takes_none_for_a_label_or_of_not_given(given: dict[str, Any]) -> None:
    data = ViewField("x", "int", "doc", **given).to_json()
    assert data["label"] == "x" and not data["of"]


# --------------------------------------------------------------------------- positions


@pytest.mark.parametrize("game", ["golf", "tonk", "gofish"])
def test_existing_games_positions_still_write_and_read_back(game: str) -> None:
    g = cardcore.new_game(game, 2, seed=4)
    rng = random.Random(4)
    for _ in range(12):
        if g.is_over:
            break
        seat = g.to_act[0]
        g.act(seat, str(rng.choice(g.legal_actions(seat))))
    text = g.position()
    again = cardcore.new_game(game, 2, position=text, seed=9)
    assert again.position() == text


@pytest.mark.parametrize("value", [10**16, 1e300, [-(10**16)]], ids=["int", "float", "list"])
def test_write_position_refuses_numbers_read_position_refuses(value: Any) -> None:
    zones = _golf_zones()
    with pytest.raises(OptionError):  # a number beyond what read_position takes back
        pos.write_position("g", {"n": value}, zones)


def test_read_position_with_a_deck_of_card_texts_is_an_argument_error() -> None:
    zones = _golf_zones()
    text = pos.write_position("g", {}, zones).replace("stock:", "stock: AS")
    with pytest.raises(ArgumentError):
        pos.read_position(text, "g", zones.layout, ["AS"], 2)


@pytest.mark.parametrize("fields", [None, [("n", 1)]], ids=["None", "pairs"])
def test_write_position_with_fields_that_are_not_a_mapping_is_a_cardcore_error(
    fields: Any,
) -> None:
    with pytest.raises(CardcoreError):
        pos.write_position("g", fields, _golf_zones())


def test_read_result_refuses_huge_payouts_as_it_refuses_huge_scores() -> None:
    value = {"winners": [0], "scores": [1, 2], "payouts": [10**20, -(10**20)], "reason": "x"}
    with pytest.raises(OptionError):
        pos.read_result(value, 2)


def test_read_result_refuses_a_huge_score() -> None:
    value = {"winners": [0], "scores": [10**20, 2], "payouts": None, "reason": "x"}
    with pytest.raises(OptionError):
        pos.read_result(value, 2)


def test_check_with_an_ok_whose_truth_is_undecided_raises_option_error() -> None:
    with pytest.raises(OptionError):
        pos.check(np.array([1, 2]), "x")


# --------------------------------------------------------------------------- fair deals, setups


def test_fair_deal_material_of_a_stored_session_still_loads() -> None:
    deal = FairDeal.fresh(3)
    deal.entropy[0] = ""  # an empty text is still text
    deal.entropy[1] = "ünïcode"
    data = json.loads(json.dumps(deal.to_json()))
    assert FairDeal.from_data(data) == deal
    assert FairDeal.from_data(MappingProxyType(data)) == deal
    assert seed_of(deal.server_seed, deal.entropy) == seed_of(deal.server_seed, tuple(deal.entropy))


def test_game_setup_takes_lists_and_a_read_only_mapping_and_round_trips() -> None:
    setup = GameSetup("golf", ["a", "b"], ["golf.jokers"], [], MappingProxyType({"rounds": 1}))
    assert setup.players == ("a", "b") and setup.rules == ("golf.jokers",)
    assert setup.options == {"rounds": 1}
    assert GameSetup.from_data(setup.to_json()).build(7).name == "golf"


def test_a_session_still_builds_its_setup_from_deck_text() -> None:
    from cardcore.session import Session, SessionConfig

    session = Session.create(
        "golf", ["a", "b"], now=0.0, deck="AS KS", seed=1, config=SessionConfig(fair=False)
    )
    assert session.setup.deck == ("AS", "KS")


def test_a_fair_session_stored_resumes_with_its_fair_deal_material() -> None:
    from cardcore.session import Session, SessionConfig
    from cardcore.session.store import MemoryStore

    store = MemoryStore()
    config = SessionConfig(fair=True, seat_entropy=True)
    session = Session.create(
        "golf", ["a", "b"], now=0.0, config=config, store=store, options={"rounds": 1}
    )
    resumed = Session.resume(store, session.id, now=1.0)
    assert resumed.fair == session.fair and resumed.commitment == session.commitment


# --------------------------------------------------------------------------- compare, simulate


def test_compare_still_takes_skill_as_a_list_of_two_specs() -> None:
    out = cardcore.compare(
        "golf",
        vs=["golf.jokers"],
        games=2,
        skill=["golf-greedy", "random"],
        options={"rounds": 1},
    )
    assert out.skill_agents[0] == "golf-greedy"
    with pytest.raises(OptionError):
        cardcore.compare("golf", vs=["golf.jokers"], games=2, skill=("golf-greedy", 5))


def test_run_one_takes_a_task_as_a_list() -> None:
    outcome = run_one(["golf", 2, ["random", "random"], (), (), {"rounds": 1}, 1, 0])  # type: ignore[arg-type]
    assert outcome.index == 0 and outcome.actions > 0


def test_estimate_text_takes_digits_zero_to_seventeen() -> None:
    from cardcore.compare._stats import Estimate

    est = Estimate(0.5, 0.4, 0.6, 10)
    assert est.text(0) == "0 ± 0"
    assert est.text(2) == "0.50 ± 0.10"
    with pytest.raises(ArgumentError):
        est.text(-1)


# --------------------------------------------------------------------------- jsonable, agents


def test_jsonable_of_a_long_int_below_the_limit_writes_as_json() -> None:
    n = 10**3998
    assert json.loads(json.dumps(cardcore.jsonable({"n": n}))) == {"n": n}
    with pytest.raises(ArgumentError):
        cardcore.jsonable(10**4100)


def test_jsonable_refuses_an_int_of_more_than_4000_digits_as_documented() -> None:
    assert len(str(10**3999)) == 4000
    assert "more than 4,000 digits" in (cardcore.jsonable.__doc__ or "")
    assert cardcore.jsonable(10**3999) == 10**3999
    with pytest.raises(ArgumentError):
        cardcore.jsonable(10**4000)


@pytest.mark.parametrize(
    "seed", [-1, np.int64(-1), -1.0, -(10**5000)], ids=["int", "np.int64", "float", "huge"]
)
def test_an_agent_built_by_name_refuses_any_negative_seed(seed: Any) -> None:
    with pytest.raises(OptionError):
        load_agent("random", seed=seed)


# --------------------------------------------------------------------------- rl: score = payouts


def test_score_rewards_of_a_zero_sum_stakes_game_sum_to_zero_and_return_the_payouts(
    scat_game: str,
) -> None:
    env = aec_env(scat_game, 3, rewards="score", options={"hands": 2, "stake": 2})
    returns, sums, game = _play_aec(env, seed=3)
    assert all(abs(s) < 1e-9 for s in sums)
    payouts = game.result.payouts
    assert [returns[a] for a in env.possible_agents] == [float(p) for p in payouts]


def test_score_rewards_of_a_truncated_stakes_game_return_the_payouts_so_far(
    scat_game: str,
) -> None:
    env = aec_env(scat_game, 2, rewards="score", options={"hands": 5}, max_actions=7)
    returns, _, game = _play_aec(env, seed=3)
    assert game.result.reason == "truncated"
    assert [returns[a] for a in env.possible_agents] == [float(p) for p in game.result.payouts]


def test_score_rewards_follow_the_public_totals_only(scat_game: str) -> None:
    """Nothing hidden leaks: at every step each seat's return so far is its public total."""
    env = aec_env(scat_game, 2, rewards="score", options={"hands": 3})
    env.reset(seed=11)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while env.agents and steps < 3000:
        for agent, r in env.unwrapped.rewards.items():
            returns[agent] += r
        totals = env.unwrapped.match.game.view(None)["table"]["totals"]
        assert [returns[a] for a in env.possible_agents] == [float(t) for t in totals]
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
        steps += 1


@pytest.mark.parametrize("seat", [0, 2])
def test_gym_env_score_return_is_the_learners_payout(scat_game: str, seat: int) -> None:
    env = gym_env(scat_game, 3, seat=seat, rewards="score", options={"hands": 2, "stake": 3})
    obs, _ = env.reset(seed=5)
    total, done, steps = 0.0, False, 0
    while not done and steps < 2000:
        obs, r, term, trunc, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        total += r
        done = term or trunc
        steps += 1
    result = env.unwrapped.runner.match.game.result
    assert done and total == float(result.payouts[seat])


def test_vector_env_score_return_is_the_learners_payout(scat_game: str) -> None:
    envs = vector_env(scat_game, 2, seat=1, rewards="score", options={"hands": 2, "stake": 3})
    obs, _ = envs.reset(seed=5)
    totals = np.zeros(2)
    final: list[Any] = [None, None]
    steps = 0
    while any(f is None for f in final) and steps < 2000:
        acts = np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
        obs, r, term, trunc, infos = envs.step(acts)
        for i in range(2):
            if final[i] is None:
                totals[i] += r[i]
                if term[i] or trunc[i]:
                    final[i] = infos["final_info"][i]["result"]["payouts"][1]
        steps += 1
    assert [float(p) for p in final] == list(totals)


def test_score_rewards_refuse_float_or_short_payouts_with_a_plugin_error(variant: Any) -> None:
    floats = variant("scatfloats", lambda self, s: tuple(float(x) for x in s.totals))
    short = variant("scatshort", lambda self, s: (0,))
    for name in (floats, short):
        with pytest.raises(PluginError, match="one int per seat"):
            Config(name, 2, rewards="score")


def test_score_rewards_of_a_payouts_that_raises_is_a_plugin_error(variant: Any) -> None:
    name = variant("scatraises", lambda self, s: {}["no"])
    assert Config(name, 2).rewards == "win"  # the game itself plays
    with pytest.raises(PluginError):
        Config(name, 2, rewards="score")


def test_score_rewards_of_a_game_whose_payouts_are_none_are_refused(variant: Any) -> None:
    name = variant("scatnone", lambda self, s: None)
    with pytest.raises(OptionError):
        Config(name, 2, rewards="score")


def test_card_env_docstring_names_the_payout_score_rewards(scat_game: str) -> None:
    assert Config(scat_game, 2, rewards="score").rewards == "score"
    assert "payout" in (CardEnv.__doc__ or "")


def test_score_rewards_still_refused_for_a_game_without_stakes_or_progress() -> None:
    with pytest.raises(OptionError, match="no score reward"):
        Config("spit", 2, rewards="score")


def test_nan_is_not_a_number_the_checks_take() -> None:
    assert math.isnan(float("nan"))
    with pytest.raises(PluginError):
        Option(name="x", default=1.0, kind=float, minimum=math.nan)
