"""House rules for the built-in games, written from the docs alone by a third-party author.

One rule per game, each through another kind of extension point the docs offer:

* Golf, ``golf.ender-penalty-5`` (HOUSE-PEN-5): Golf's ``golf_ender_penalty`` hookspec, with
  ``RuleInfo.applies`` (two-row grids only) and a declared conflict with the built-in penalties;
* Tonk, ``tonk.low-deal`` (HOUSE-LOW-1): Tonk's ``tonk_deal_judge`` hookspec (a hand of 20
  or less, strictly lowest, wins 1 stake from each player at the deal);
* Tonk, ``tonk.double-stakes`` (HOUSE-DBL-1): the core's ``score_round`` as a wrapper;
* Speed, ``speed.left-court`` (HOUSE-SPEED-1): the core's ``forbid_action`` veto in real time;
* Spit, ``spit.two-step`` (HOUSE-SPIT-1): Spit's ``spit_rank_gaps`` hookspec.

Each is registered with :func:`cardcore.register` and removed in ``finally`` (docs:
plugin-guide/house-rule.rst, plugin-guide/testing.rst), then used as a user would.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import io
import json
import random
import types
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import (
    Card,
    CorruptStateError,
    IllegalActionError,
    OptionError,
    PluginError,
    RuleConflictError,
    RuleInfo,
    Veto,
    cli,
    hookimpl,
)
from cardcore.testing import check_game, configurations
from cardcore_spit.agents import SpitGreedyAgent
from cardcore_tonk.melds import DealVerdict

GAMES = ("golf", "tonk", "speed", "spit")
PENALTY = "golf.ender-penalty-5"
LOW_DEAL = "tonk.low-deal"
DOUBLE = "tonk.double-stakes"
LEFT_COURT = "speed.left-court"
TWO_STEP = "spit.two-step"


# --- the rules ---------------------------------------------------------------------------


def _module(rule: RuleInfo, **hooks: Any) -> types.ModuleType:
    """A plugin module holding RULE and the given hooks, as the docs build them."""
    module = types.ModuleType(rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule
    vars(module).update(hooks)
    return module


@contextlib.contextmanager
def registered(*modules: types.ModuleType) -> Iterator[None]:
    """Register rule modules for the block and unregister them however it ends."""
    done: list[str] = []
    try:
        for module in modules:
            cardcore.register("cardcore.rules", module.RULE.name, module)
            done.append(module.RULE.name)
        yield
    finally:
        for name in reversed(done):
            cardcore.unregister("cardcore.rules", name)


@pytest.fixture(autouse=True)
def _registry_left_as_found() -> Iterator[None]:
    before = {game: cardcore.available_rules(game) for game in GAMES}
    yield
    assert {game: cardcore.available_rules(game) for game in GAMES} == before


def penalty_rule(penalty: int = 5, **overrides: Any) -> types.ModuleType:
    """Golf: an ender who does not score strictly lowest pays *penalty* (two-row grids)."""

    @hookimpl
    def golf_ender_penalty(ender: int, pays: bool) -> int:
        return penalty if pays else 0

    fields: dict[str, Any] = {
        "id": "HOUSE-PEN-5",
        "name": PENALTY,
        "game": "golf",
        "summary": "An ender not strictly lowest pays 5 points",
        "conflicts": ("golf.ender-penalty-10", "GOLF-PEN-3", "golf.ender-penalty-lowest-literal"),
        "applies": {"layout": (6, 8, 10, "6", "8", "10")},
    }
    fields.update(overrides)
    return _module(RuleInfo(**fields), golf_ender_penalty=golf_ender_penalty)


def low_judge(hands: Any, points: Any) -> DealVerdict | None:
    """The strictly lowest dealt hand, if it totals 20 or less, wins 1 stake from each."""
    totals = [sum(points[card] for card in hand) for hand in hands]
    best = min(totals)
    if best > 20 or totals.count(best) > 1:
        return None
    seat, n = totals.index(best), len(hands)
    units = tuple(n - 1 if s == seat else -1 for s in range(n))
    return DealVerdict("low-deal", seat, units, shown=(seat,))


def low_deal_rule() -> types.ModuleType:
    @hookimpl
    def tonk_deal_judge() -> Callable[..., DealVerdict | None]:
        return low_judge

    rule = RuleInfo(id="HOUSE-LOW-1", name=LOW_DEAL, game="tonk", summary="A low deal wins")
    return _module(rule, tonk_deal_judge=tonk_deal_judge)


def double_rule() -> types.ModuleType:
    @hookimpl(wrapper=True)
    def score_round(scores: list[int]) -> Any:
        inner = yield
        return [2 * amount for amount in inner]

    rule = RuleInfo(id="HOUSE-DBL-1", name=DOUBLE, game="tonk", summary="Every hand pays double")
    return _module(rule, score_round=score_round)


COURT = frozenset({"J", "Q", "K"})


def is_court_on_right(action: Any) -> bool:
    card = getattr(action, "card", None)
    return (
        action.verb == "play"
        and isinstance(card, Card)
        and not card.is_joker
        and card.label in COURT
        and getattr(action, "target", None) == 1
    )


def left_court_rule() -> types.ModuleType:
    @hookimpl
    def forbid_action(action: Any) -> Veto | None:
        if is_court_on_right(action):
            return Veto("HOUSE-SPEED-1", "court cards go on the left pile only")
        return None

    rule = RuleInfo(id="HOUSE-SPEED-1", name=LEFT_COURT, game="speed", summary="Court cards left")
    return _module(rule, forbid_action=forbid_action)


def two_step_rule(gaps: Any = (2, 11)) -> types.ModuleType:
    @hookimpl
    def spit_rank_gaps() -> Any:
        return list(gaps) if isinstance(gaps, tuple) else gaps

    rule = RuleInfo(id="HOUSE-SPIT-1", name=TWO_STEP, game="spit", summary="Skip one rank")
    return _module(rule, spit_rank_gaps=spit_rank_gaps)


def play_random(game: cardcore.Game, seed: int = 0) -> cardcore.Game:
    """Play a turn-based game to its end through legal_actions/apply, as a user would."""
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(rng.choice(game.legal_actions(seat)))
    return game


def snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    """Everything a user can see of a game, to tell that a failed call changed nothing."""
    views = [game.view(seat) for seat in (*range(len(game.players)), None)]
    return game.version, game.position(), json.dumps(game.save()), game.record(), views


# --- Golf: golf_ender_penalty, applies, conflicts ----------------------------------------


def test_golf_rule_is_listed_and_described_while_registered() -> None:
    with registered(penalty_rule()):
        assert PENALTY in cardcore.available_rules("golf")
        info = cardcore.rule_info(PENALTY)
        assert cardcore.rule_info("HOUSE-PEN-5") == info
        assert dict(info.applies) == {"layout": (6, 8, 10, "6", "8", "10")}
        game = cardcore.new_game("golf", 2, rules=["HOUSE-PEN-5"], seed=1)
        assert game.rules == (PENALTY,)
    assert PENALTY not in cardcore.available_rules("golf")


def test_golf_rule_applies_only_to_two_row_grids() -> None:
    with registered(penalty_rule()):
        for layout in (9, "4", "4h"):
            with pytest.raises(OptionError, match=r"HOUSE-PEN-5\)$"):
                cardcore.new_game("golf", 2, rules=[PENALTY], options={"layout": layout})
        for layout in (6, "8", 10):
            game = cardcore.new_game("golf", 2, rules=[PENALTY], options={"layout": layout})
            assert game.rules == (PENALTY,)


def test_golf_declared_conflict_is_refused_in_any_order_and_by_id() -> None:
    with registered(penalty_rule()):
        for pair in (
            [PENALTY, "golf.ender-penalty-10"],
            ["golf.ender-penalty-10", PENALTY],
            ["HOUSE-PEN-5", "GOLF-PEN-2"],
            [PENALTY, "golf.ender-penalty-lowest"],  # named by ID in RULE.conflicts
        ):
            with pytest.raises(RuleConflictError, match="HOUSE-PEN-5"):
                cardcore.new_game("golf", 2, rules=pair)
        # The conflict is declared by my rule only; the kit still never pairs them.
        pairs = [set(c.rules) for c in configurations("golf", pairs=True) if PENALTY in c.rules]
        assert {PENALTY} in pairs and {PENALTY, "golf.hard"} in pairs
        assert {PENALTY, "golf.ender-penalty-10"} not in pairs
        assert {PENALTY, "golf.ender-penalty-lowest"} not in pairs


def test_golf_penalty_adds_exactly_five_to_an_ender_who_pays() -> None:
    paid = 0
    with registered(penalty_rule()):
        for seed in range(4):
            options = {"rounds": 3}
            mine = play_random(
                cardcore.new_game("golf", 2, rules=[PENALTY], options=options, seed=seed)
            )
            base = play_random(cardcore.new_game("golf", 2, options=options, seed=seed))
            assert mine.record()["actions"] == base.record()["actions"]  # the same play
            for ours, theirs in zip(mine.history(None), base.history(None), strict=True):
                ender, scores = theirs["ender"], theirs["scores"]
                pays = ender is not None and min(scores) < scores[ender]
                expected = [
                    s + (5 if seat == ender and pays else 0) for seat, s in enumerate(scores)
                ]
                assert ours["scores"] == expected
                paid += pays
    assert paid > 0


def test_golf_rule_in_a_users_hands_views_saves_records_clones() -> None:
    with registered(penalty_rule()):
        game = cardcore.new_game("golf", 3, rules=[PENALTY], options={"rounds": 2}, seed=5)
        rng = random.Random(3)
        half = None
        while not game.is_over:
            seat = game.to_act[0]
            for other in (*range(len(game.players)), None):
                cardcore.testing.assert_view_known(game, other)
            game.apply(rng.choice(game.legal_actions(seat)))
            if game.version == 20:
                half = game.clone()
        assert half is not None and not half.is_over  # the clone did not move with the game
        assert half.rules == (PENALTY,)
        play_random(half, 9)
        assert half.is_over
        loaded = cardcore.load(json.dumps(game.save()))
        replayed = cardcore.replay(json.dumps(game.record()))
        assert loaded.result == replayed.result == game.result
        assert loaded.rules == replayed.rules == (PENALTY,)
        assert [r["name"] for r in game.record()["rules"]] == [PENALTY]


def test_golf_record_of_the_rule_after_unregister_is_a_clear_error() -> None:
    with registered(penalty_rule()):
        game = play_random(cardcore.new_game("golf", 2, rules=[PENALTY], options={"rounds": 1}))
        record, save = game.record(), game.save()
    for rebuild, data in ((cardcore.replay, record), (cardcore.load, save)):
        with pytest.raises(CorruptStateError, match=f"'{PENALTY}', which is not installed"):
            rebuild(json.dumps(data))


def test_golf_record_refused_when_the_rule_answers_otherwise_or_changes_major() -> None:
    with registered(penalty_rule()):
        record = play_random(cardcore.new_game("golf", 2, rules=[PENALTY], seed=2)).record()
    with (
        registered(penalty_rule(7)),
        pytest.raises(CorruptStateError, match="house rule answers otherwise"),
    ):
        cardcore.replay(record)
    with (
        registered(penalty_rule(version="1.0.0")),
        pytest.raises(CorruptStateError, match="major versions differ"),
    ):
        cardcore.replay(record)
    with registered(penalty_rule(version="0.2.0")):
        assert cardcore.replay(record).result is not None


def test_golf_rule_passes_the_conformance_kit() -> None:
    with registered(penalty_rule()):
        report = check_game("golf", players=2, rules=[PENALTY], options={"rounds": 1}, games=2)
        assert report.ok and report.cards_lost == 0 and report.leaks == 0
        assert report.reloads > 0 and report.twins > 0


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (RuntimeError("kaboom"), "raised RuntimeError in golf_ender_penalty: kaboom"),
        ("five", "answered 'five'"),
        (2.5, "answered 2.5"),
        (True, "answered True"),
    ],
)
def test_golf_buggy_penalty_is_a_plugin_error_and_changes_nothing(
    answer: Any, message: str
) -> None:
    @hookimpl
    def golf_ender_penalty(ender: int, pays: bool) -> Any:
        if isinstance(answer, Exception):
            raise answer
        return answer

    rule = RuleInfo(id="HOUSE-BUG-1", name="golf.buggy-penalty", game="golf", summary="Buggy")
    with registered(_module(rule, golf_ender_penalty=golf_ender_penalty)):
        game = cardcore.new_game("golf", 2, rules=["golf.buggy-penalty"], seed=3)
        rng = random.Random(1)
        while True:
            action = rng.choice(game.legal_actions(game.to_act[0]))
            before = snapshot(game)
            try:
                game.apply(action)
            except PluginError as error:
                assert error.plugin == "golf.buggy-penalty"
                assert "golf.buggy-penalty" in str(error) and message in str(error)
                assert snapshot(game) == before
                break
            assert not game.is_over, "the penalty was never asked"


def test_golf_rule_through_the_cli_entry_point(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = tmp_path / "summary.json"
    record = tmp_path / "record.json"
    with registered(penalty_rule()):
        argv = ["simulate", "golf", "--rules", "HOUSE-PEN-5", "--games", "3", "--quiet"]
        assert cli.main([*argv, "--json", str(summary)]) == 0
        assert PENALTY in json.dumps(json.loads(summary.read_text())["rules"])
        assert cli.main(["rules", "golf", PENALTY]) == 0
        assert "only with layout 6, 8, 10" in capsys.readouterr().out
        game = play_random(cardcore.new_game("golf", 2, rules=[PENALTY], options={"rounds": 1}))
        record.write_text(json.dumps(game.record()))
        assert cli.main(["verify", str(record)]) == 0
        capsys.readouterr()
        bad = ["simulate", "golf", "--rules", PENALTY, "--option", "layout=9", "--games", "1"]
        assert cli.main([*bad, "--quiet"]) == 2
        assert "HOUSE-PEN-5" in capsys.readouterr().err
        both = f"{PENALTY},golf.ender-penalty-10"
        assert cli.main(["simulate", "golf", "--rules", both, "--games", "1", "--quiet"]) == 2
        assert "cannot be combined" in capsys.readouterr().err
    assert cli.main(["replay", str(record), "--final"]) != 0
    assert PENALTY in capsys.readouterr().err


def test_golf_rule_in_the_lab_compare() -> None:
    with registered(penalty_rule()):
        result = cardcore.compare(
            "golf", rules=["HOUSE-PEN-5"], games=12, seed=1, options={"rounds": 1}, skill=None
        )
        assert result.a.rules == (PENALTY,) and result.b.rules == ()
        assert result.same_deals  # a scoring rule: duplicate deals
        assert result.diff["actions"].mean == 0  # the same play, scored otherwise
        assert result.diff["spread"].mean < 0  # B (no penalty) - A: the penalty widens it
        with pytest.raises(OptionError, match="HOUSE-PEN-5"):
            cardcore.compare("golf", rules=[PENALTY], options={"layout": 9}, games=2, skill=None)
        with pytest.raises(RuleConflictError, match="configuration B"):
            cardcore.compare("golf", vs=[PENALTY, "golf.ender-penalty-10"], games=2, skill=None)


def test_golf_rule_in_the_rl_environment() -> None:
    from cardcore.rl import aec_env

    with registered(penalty_rule()):
        env = aec_env("golf", 2, rules=[PENALTY], options={"rounds": 1})
        env.reset(seed=3)
        assert env.match.game.rules == (PENALTY,)
        rng = np.random.default_rng(0)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
        assert env.match.game.is_over
        with pytest.raises(OptionError, match="HOUSE-PEN-5"):
            aec_env("golf", 2, rules=[PENALTY], options={"layout": 9})


# --- Tonk: tonk_deal_judge, score_round --------------------------------------------------

# first_dealer=2: seat 0 is dealt first, one card at a time; the upcard is 8S.
# Seat 0: AH 2H 2D 3C 4S (12); seat 1: 9S 9D 9C KD QD (48); seat 2: 10S 10D 7C KS QS (47).
LOW_DECK = "AH 9S 10S 2H 9D 10D 2D 9C 7C 3C KD KS 4S QD QS 8S"


def test_tonk_low_deal_settles_the_hand_and_shows_only_the_winner() -> None:
    with registered(low_deal_rule()):
        game = cardcore.new_game(
            "tonk",
            3,
            rules=[LOW_DEAL],
            deck=LOW_DECK,
            seed=1,
            options={"first_dealer": 2, "stake": 5},
        )
        assert game.rules == (LOW_DEAL, "tonk.natural-49-50")
        assert game.is_over and game.result.reason == "low-deal"
        assert game.result.payouts == (10, -5, -5) and game.result.winners == (0,)
        (entry,) = [h for h in game.history(None) if h.get("kind") == "hand"]
        assert entry["shown"][0] == ["AH", "2H", "2D", "3C", "4S"]
        assert entry["shown"][1:] == [None, None] and entry["totals"] == [12, None, None]
        for seat in (1, 2, None):
            zones = {z["name"]: z["cards"] for z in game.view(seat)["zones"]}
            assert zones["hand.0"] == ["AH", "2H", "2D", "3C", "4S"]
            for other in (1, 2):
                if other != seat:
                    assert set(zones[f"hand.{other}"]) == {None}, (seat, other)
        assert cardcore.replay(game.record()).result == game.result
        assert cardcore.load(json.dumps(game.save())).result == game.result


def test_tonk_low_deal_in_random_sessions_and_the_kit() -> None:
    with registered(low_deal_rule()):
        summary = cardcore.simulate("tonk", games=20, players=3, rules=[LOW_DEAL], seed=1)
        assert summary.reasons.get("low-deal", 0) > 0
        report = check_game("tonk", players=3, rules=[LOW_DEAL], options={"hands": 3}, games=4)
        assert report.ok and report.leaks == 0 and report.cards_lost == 0


def test_tonk_low_deal_in_the_single_seat_rl_environment() -> None:
    from cardcore.rl import gym_env

    with registered(low_deal_rule()):
        env = gym_env("tonk", 3, rules=[LOW_DEAL], opponents="random")
        skipped = []
        for seed in range(40):
            obs, info = env.reset(seed=seed)
            skipped += info.get("skipped", [])
            assert obs["action_mask"].any()  # every episode has a decision
        assert any(s["result"]["reason"] == "low-deal" for s in skipped)


def test_tonk_judge_raising_at_a_later_deal_changes_nothing() -> None:
    armed = {"on": False}

    def judge(hands: Any, points: Any) -> None:
        if armed["on"]:
            raise RuntimeError("judge broke")

    @hookimpl
    def tonk_deal_judge() -> Callable[..., None]:
        return judge

    rule = RuleInfo(id="HOUSE-ARM-1", name="tonk.armed", game="tonk", summary="Breaks later")
    with registered(_module(rule, tonk_deal_judge=tonk_deal_judge)):
        game = cardcore.new_game("tonk", 2, rules=["tonk.armed"], options={"hands": 2}, seed=3)
        rng = random.Random(0)
        while [str(a) for a in game.legal_actions(game.to_act[0])] != ["deal"]:
            game.apply(rng.choice(game.legal_actions(game.to_act[0])))
        armed["on"] = True
        before = snapshot(game)
        with pytest.raises(PluginError, match=r"plugin 'tonk\.armed' raised RuntimeError") as info:
            game.act(game.to_act[0], "deal")
        assert info.value.plugin == "tonk.armed"
        assert snapshot(game) == before
        armed["on"] = False
        game.act(game.to_act[0], "deal")
        assert game.version == before[0] + 1


def _bad_judge(hands: Any, points: Any, units: tuple[int, ...] = (1, 0)) -> DealVerdict:
    return DealVerdict("bad", 0, units)  # units that do not sum to zero


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(lambda: _bad_judge, id="module-function"),
        pytest.param(lambda: functools.partial(_bad_judge, units=(2, 0)), id="fresh-partial"),
        pytest.param(lambda: 42, id="not-a-function"),
    ],
)
def test_tonk_bad_judge_answer_is_blamed_on_its_own_plugin(answer: Callable[[], Any]) -> None:
    rule = RuleInfo(id="HOUSE-BAD-1", name="tonk.bad-judge", game="tonk", summary="Bad")
    with registered(_module(rule, tonk_deal_judge=hookimpl(answer))):
        with pytest.raises(PluginError) as info:
            cardcore.new_game(
                "tonk", 2, rules=["tonk.bad-judge"], deck=LOW_DECK, options={"first_dealer": 1}
            )
        assert info.value.plugin == "tonk.bad-judge", str(info.value)


def test_tonk_double_stakes_doubles_every_payout_and_keeps_the_zero_sum() -> None:
    with registered(double_rule()):
        for seed in range(3):
            options = {"stake": 5, "hands": 2}
            mine = play_random(
                cardcore.new_game("tonk", 2, rules=[DOUBLE], options=options, seed=seed)
            )
            base = play_random(cardcore.new_game("tonk", 2, options=options, seed=seed))
            assert mine.record()["actions"] == base.record()["actions"]
            assert mine.result.payouts == tuple(2 * p for p in base.result.payouts)
            assert sum(mine.result.payouts) == 0
            assert mine.result.scores == tuple(2 * s for s in base.result.scores)


def test_tonk_double_stakes_wrong_length_is_refused_by_name_and_changes_nothing() -> None:
    @hookimpl(wrapper=True)
    def score_round(scores: list[int]) -> Any:
        inner = yield
        return [2 * amount for amount in inner][:1]

    rule = RuleInfo(id="HOUSE-DBL-2", name="tonk.double-short", game="tonk", summary="Short")
    with registered(_module(rule, score_round=score_round)):
        game = cardcore.new_game("tonk", 2, rules=["tonk.double-short"], seed=4)
        rng = random.Random(0)
        while True:
            action = rng.choice(game.legal_actions(game.to_act[0]))
            before = snapshot(game)
            try:
                game.apply(action)
            except PluginError as error:
                assert error.plugin == "tonk.double-short"
                assert "one integer per seat" in str(error)
                assert snapshot(game) == before
                break
            assert not game.is_over


# --- Speed: a real-time veto -------------------------------------------------------------


def test_speed_veto_removes_court_cards_on_the_right_and_cites_the_rule() -> None:
    seen_veto = False
    with registered(left_court_rule()):
        for seed in range(12):
            game = cardcore.new_game("speed", 2, rules=[LEFT_COURT], seed=seed)
            base = cardcore.new_game("speed", 2, seed=seed)
            for seat in (0, 1):
                ours = {str(a) for a in game.legal_actions(seat)}
                theirs = {str(a) for a in base.legal_actions(seat)}
                vetoed = {str(a) for a in base.legal_actions(seat) if is_court_on_right(a)}
                assert ours == theirs - vetoed
                for text in vetoed:
                    seen_veto = True
                    version = game.version
                    with pytest.raises(IllegalActionError, match=r"\(HOUSE-SPEED-1\)$"):
                        game.act(seat, text)
                    assert game.version == version
            agents = [SpitGreedyAgent(seed=1), SpitGreedyAgent(seed=2)]
            result = cardcore.run_realtime(game, agents, seed=seed)
            assert result.winners
            for _seat, text, _at in game.record()["actions"]:
                words = text.split()
                assert not (words[0] == "play" and words[1][:-1] in COURT and words[2] == "R")
            assert cardcore.replay(game.record()).result == game.result
    assert seen_veto


def test_speed_veto_passes_the_conformance_kit() -> None:
    with registered(left_court_rule()):
        report = check_game("speed", players=2, rules=[LEFT_COURT], games=3)
        assert report.ok and report.leaks == 0 and report.cards_lost == 0


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (RuntimeError("veto broke"), "raised RuntimeError in forbid_action: veto broke"),
        ("no", "answered 'no'"),
    ],
)
def test_speed_buggy_veto_is_a_plugin_error_and_changes_nothing(answer: Any, message: str) -> None:
    @hookimpl
    def forbid_action(action: Any) -> Any:
        if action.verb != "play":
            return None
        if isinstance(answer, Exception):
            raise answer
        return answer

    rule = RuleInfo(id="HOUSE-BUG-2", name="speed.buggy-veto", game="speed", summary="Buggy")
    with registered(_module(rule, forbid_action=forbid_action)):
        game = cardcore.new_game("speed", 2, rules=["speed.buggy-veto"], seed=5)
        base = cardcore.new_game("speed", 2, seed=5)
        play = next(str(a) for a in base.legal_actions(0) if a.verb == "play")
        before = snapshot_realtime(game)
        for call in (lambda: game.legal_actions(0), lambda: game.act(0, play)):
            with pytest.raises(PluginError, match=message) as info:
                call()
            assert info.value.plugin == "speed.buggy-veto"
        assert snapshot_realtime(game) == before


def snapshot_realtime(game: cardcore.Game) -> tuple[Any, ...]:
    return game.version, game.position(), json.dumps(game.save()), game.record()


def test_speed_veto_with_an_empty_rule_id_names_the_plugin() -> None:
    @hookimpl
    def forbid_action(action: Any) -> Veto | None:
        return Veto("", "no id") if action.verb == "play" else None

    rule = RuleInfo(id="HOUSE-BUG-3", name="speed.no-id-veto", game="speed", summary="No ID")
    with registered(_module(rule, forbid_action=forbid_action)):
        game = cardcore.new_game("speed", 2, rules=["speed.no-id-veto"], seed=5)
        with pytest.raises(PluginError) as info:
            game.legal_actions(0)
        assert info.value.plugin == "speed.no-id-veto", str(info.value)


def _plus_100_rule(game: str, calls: list[str]) -> types.ModuleType:
    """A score_round-only rule for *game*: 100 more for every seat in every scored round."""

    @hookimpl(wrapper=True)
    def score_round(scores: list[int]) -> Any:
        calls.append(game)
        inner = yield
        return [amount + 100 for amount in inner]

    rule = RuleInfo(id="HOUSE-SCORE-1", name=f"{game}.plus-100", game=game, summary="+100")
    return _module(rule, score_round=score_round)


@pytest.mark.parametrize("game_name", ["speed", "spit"])
def test_speed_score_only_rule_is_never_called_as_documented(game_name: str) -> None:
    """house-rule.rst: Speed and Spit score no rounds, so a score_round-only rule is never
    called and changes nothing there (no error, no warning); the kit skips "scores"."""
    calls: list[str] = []
    rule = f"{game_name}.plus-100"
    with registered(_plus_100_rule(game_name, calls)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            game = cardcore.new_game(game_name, 2, rules=[rule], seed=2)
        assert not [w for w in caught if issubclass(w.category, cardcore.PluginWarning)]
        base = cardcore.new_game(game_name, 2, seed=2)
        mine = cardcore.run_realtime(
            game, [SpitGreedyAgent(seed=1), SpitGreedyAgent(seed=2)], seed=2
        )
        theirs = cardcore.run_realtime(
            base, [SpitGreedyAgent(seed=1), SpitGreedyAgent(seed=2)], seed=2
        )
        assert game.is_over and base.is_over
        assert mine.to_json() == theirs.to_json()
        assert calls == []
        if game_name == "speed":
            report = cardcore.testing.check_score_round(game_name, players=2, games=1)
            assert "never called GameLogic.score_round" in report.skipped["scores"]


def test_golf_score_only_rule_adjusts_every_round_as_documented() -> None:
    """house-rule.rst: Golf hands each round's points to the core's score_round."""
    calls: list[str] = []
    with registered(_plus_100_rule("golf", calls)):
        options = {"rounds": 2}
        mine = play_random(
            cardcore.new_game("golf", 2, rules=["golf.plus-100"], options=options, seed=4)
        )
        base = play_random(cardcore.new_game("golf", 2, options=options, seed=4))
    assert mine.record()["actions"] == base.record()["actions"]  # the same play
    assert calls == ["golf", "golf"]
    assert mine.result is not None and base.result is not None
    assert list(mine.result.scores) == [s + 200 for s in base.result.scores]


# --- Spit: spit_rank_gaps ----------------------------------------------------------------


def _spit_legal(rules: list[str], seed: int) -> set[str]:
    game = cardcore.new_game("spit", 2, rules=rules, seed=seed)
    game.act(0, "ready")
    game.act(1, "ready")
    return {str(a) for seat in (0, 1) for a in game.legal_actions(seat)}


def test_spit_two_step_adds_plays_and_plays_to_the_end() -> None:
    with registered(two_step_rule()):
        wider = 0
        for seed in range(8):
            ours, theirs = _spit_legal([TWO_STEP], seed), _spit_legal([], seed)
            assert theirs <= ours
            wider += ours > theirs
        assert wider > 0
        game = cardcore.new_game("spit", 2, rules=[TWO_STEP], seed=1)
        result = cardcore.run_realtime(game, [SpitGreedyAgent(seed=1), SpitGreedyAgent(seed=2)])
        assert result.winners and game.rules == (TWO_STEP,)
        assert cardcore.replay(game.record()).result == game.result
        checks = {"conservation", "views", "persistence", "clone", "rejections"}
        report = check_game("spit", players=2, rules=[TWO_STEP], games=1, checks=checks, sample=0.1)
        assert report.ok and report.leaks == 0 and report.cards_lost == 0


@pytest.mark.parametrize("gaps", ["12", [0.5], [True]])
def test_spit_garbage_gaps_are_refused_by_name(gaps: Any) -> None:
    with registered(two_step_rule(gaps)):
        with pytest.raises(PluginError, match="spit_rank_gaps") as info:
            cardcore.new_game("spit", 2, rules=[TWO_STEP], seed=1)
        assert info.value.plugin == TWO_STEP


@pytest.mark.parametrize("gaps", [[13], [100000], [-1]])
def test_spit_out_of_range_gaps_are_refused(gaps: list[int]) -> None:
    with registered(two_step_rule(gaps)), pytest.raises(PluginError, match="spit_rank_gaps"):
        cardcore.new_game("spit", 2, rules=[TWO_STEP], seed=1)


# --- the registry --------------------------------------------------------------------------


def _installed_entry_point(name: str) -> Any:
    (entry,) = importlib.metadata.entry_points(group="cardcore.rules", name=name)
    return entry


def test_register_over_an_installed_rule_then_unregister_restores_it() -> None:
    original = cardcore.rule_info("golf.hard")
    try:
        with registered(penalty_rule(name="golf.hard", id="GOLF-SCORE-2", conflicts=())):
            assert cardcore.rule_info("golf.hard").summary != original.summary
        assert cardcore.rule_info("golf.hard") == original
    finally:
        if "golf.hard" not in cardcore.available_rules("golf"):
            # Put the installed entry point back (no public way), so other tests see it.
            from cardcore import plugins

            plugins._entries()["cardcore.rules"]["golf.hard"] = _installed_entry_point("golf.hard")
            with registered(penalty_rule(name="golf.cache-flush", id="HOUSE-FLUSH-1")):
                pass  # register/unregister drop every cached configuration
        assert cardcore.rule_info("golf.hard") == original


def test_applicable_options_takes_names_like_the_rest_of_the_kit() -> None:
    from cardcore.testing import applicable_options

    assert applicable_options("golf", ["golf.diagonal-pairs"]) == {"layout": 4}


def test_cli_list_shows_a_registered_rule(capsys: pytest.CaptureFixture[str]) -> None:
    with registered(penalty_rule()), contextlib.redirect_stderr(io.StringIO()):
        assert cli.main(["list", "golf"]) == 0
    out = capsys.readouterr().out
    assert PENALTY in out and "HOUSE-PEN-5" in out
    assert cli.main(["list", "golf"]) == 0
    assert "HOUSE-PEN-5" not in capsys.readouterr().out


def test_cli_replay_of_a_game_that_ended_at_its_deal(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "low-deal.json"
    with registered(low_deal_rule()):
        options = {"first_dealer": 2}
        game = cardcore.new_game(
            "tonk", 3, rules=[LOW_DEAL], deck=LOW_DECK, seed=1, options=options
        )
        assert game.is_over and game.record()["result"]["reason"] == "low-deal"
        path.write_text(json.dumps(game.record()))
        assert cli.main(["verify", str(path)]) == 0  # the record is sound
        capsys.readouterr()
        assert cli.main(["replay", str(path), "--final"]) == 0, capsys.readouterr().err


def _reason_rule(reason: str) -> types.ModuleType:
    def judge(hands: Any, points: Any) -> DealVerdict:
        return DealVerdict(reason, 0, (len(hands) - 1, *[-1] * (len(hands) - 1)))

    rule = RuleInfo(id="HOUSE-WHY-1", name="tonk.odd-reason", game="tonk", summary="Odd reason")
    return _module(rule, tonk_deal_judge=hookimpl(lambda: judge))


@pytest.mark.parametrize("reason", ["", "won\x1b[2J\x1b]0;title\x07"])
def test_tonk_verdict_reason_must_be_printable_text(reason: str) -> None:
    with registered(_reason_rule(reason)), pytest.raises(PluginError, match="tonk_deal_judge"):
        cardcore.new_game("tonk", 2, rules=["tonk.odd-reason"], seed=3)


# --- more extension points: Golf's score table, observers, state-reading vetoes -----------


def test_golf_incomplete_score_table_is_blamed_on_the_rule() -> None:
    @hookimpl
    def golf_score_table(layout: Any) -> cardcore.ScoreTable:
        return cardcore.ScoreTable.from_ranks({"A": 1, "K": 0})  # no default: 2..Q missing

    rule = RuleInfo(id="HOUSE-TBL-1", name="golf.short-table", game="golf", summary="Short")
    with registered(_module(rule, golf_score_table=golf_score_table)):
        with pytest.raises(PluginError) as info:
            cardcore.new_game("golf", 2, rules=["golf.short-table"], seed=1)
        assert info.value.plugin == "golf.short-table", str(info.value)


def test_golf_score_table_rule_changes_the_points() -> None:
    @hookimpl
    def golf_score_table(layout: Any) -> cardcore.ScoreTable:
        return cardcore.ScoreTable.from_ranks({"A": 1, "K": -3}, default=10)  # face value off

    rule = RuleInfo(id="HOUSE-TBL-2", name="golf.tens", game="golf", summary="Kings -3, 10 else")
    with registered(_module(rule, golf_score_table=golf_score_table)):
        mine = play_random(cardcore.new_game("golf", 2, rules=["golf.tens"], seed=8))
        base = play_random(cardcore.new_game("golf", 2, seed=8))
        assert mine.record()["actions"] == base.record()["actions"]
        assert mine.result.scores != base.result.scores
        with pytest.raises(PluginError, match="must answer a ScoreTable"):
            bad = RuleInfo(id="HOUSE-TBL-3", name="golf.dict-table", game="golf", summary="x")
            hook = hookimpl(lambda layout: {"A": 1})
            with registered(_module(bad, golf_score_table=hook)):
                cardcore.new_game("golf", 2, rules=["golf.dict-table"], seed=1)


def test_kit_names_a_veto_that_changes_the_state() -> None:
    @hookimpl
    def forbid_action(state: Any, action: Any) -> None:
        stock = state.zones.cards[state.zones.id("stock")]
        if len(stock) > 2:
            stock[-1], stock[-2] = stock[-2], stock[-1]  # a veto must only read

    rule = RuleInfo(id="HOUSE-MUT-1", name="tonk.mutating-veto", game="tonk", summary="Writes")
    with registered(_module(rule, forbid_action=forbid_action)):
        report = check_game("tonk", players=2, rules=["tonk.mutating-veto"], games=1, strict=False)
        assert not report.ok
        assert any(
            "forbid_action (tonk.mutating-veto) changed the state" in f for f in report.failures
        )


def test_failing_observer_is_logged_by_name_and_the_game_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    @hookimpl
    def on_event(event: Any) -> None:
        raise RuntimeError("observer broke")

    rule = RuleInfo(id="HOUSE-OBS-1", name="golf.bad-observer", game="golf", summary="Raises")
    with registered(_module(rule, on_event=on_event)), caplog.at_level("DEBUG", "cardcore.events"):
        game = cardcore.new_game("golf", 2, rules=["golf.bad-observer"], options={"rounds": 1})
        result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert result.reason == "rounds"
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "golf.bad-observer" in errors[0].getMessage()
    assert "golf.bad-observer" in caplog.records[-1].getMessage()  # the count at the end


def test_speed_state_reading_veto_is_judged_at_the_version_seen() -> None:
    @hookimpl
    def forbid_action(state: Any, action: Any) -> Veto | None:
        card = getattr(action, "card", None)
        if action.verb != "play" or card is None or card.is_joker:
            return None
        zones = state.zones
        pile = zones.cards[zones.id("pile.L" if action.target == 0 else "pile.R")]
        if pile and not pile[-1].is_joker and pile[-1].suit == card.suit:
            return Veto("HOUSE-SUIT-1", "no card on its own suit")
        return None

    rule = RuleInfo(id="HOUSE-SUIT-1", name="speed.no-same-suit", game="speed", summary="Suits")
    stale = vetoed = 0
    with registered(_module(rule, forbid_action=forbid_action)):
        for seed in range(4):
            game = cardcore.new_game("speed", 2, rules=["speed.no-same-suit"], seed=seed)
            rng, clock = random.Random(seed), 0.0
            while not game.is_over and game.version < 120:
                version = game.version
                then = {s: {str(a) for a in game.legal_actions(s)} for s in game.to_act}
                plain = cardcore.new_game("speed", 2, position=game.position(), seed=1)
                unvetoed = {s: {str(a) for a in plain.legal_actions(s)} for s in game.to_act}
                seat = rng.choice([s for s in game.to_act if then[s]])  # not one waiting
                clock += 0.5
                game.apply(rng.choice(game.legal_actions(seat)), at=clock)
                for s in then:
                    now = {str(a) for a in game.legal_actions(s)} if s in game.to_act else set()
                    for text in then[s] - now:  # legal when seen, not now: stale
                        with pytest.raises(cardcore.StaleActionError):
                            game.clone().act(s, text, seen=version, at=clock)
                        stale += 1
                    for text in unvetoed[s] - then[s] - now:  # vetoed when seen: illegal
                        with pytest.raises(IllegalActionError) as info:
                            game.clone().act(s, text, seen=version, at=clock)
                        assert not isinstance(info.value, cardcore.StaleActionError)
                        vetoed += 1
    assert stale > 0 and vetoed > 0


def test_rule_requiring_a_rule_of_another_game_is_named_as_a_plugin_mistake() -> None:
    rule = penalty_rule(requires=("tonk.no-upcard",))
    with registered(rule), pytest.raises(PluginError, match="tonk"):
        cardcore.new_game("golf", 2, rules=[PENALTY])


def test_kit_refuses_one_rule_name_given_as_text() -> None:
    with registered(penalty_rule()), pytest.raises(cardcore.ArgumentError):
        check_game("golf", rules=PENALTY, games=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "fields",
    [
        {"name": "golf.\x1b[2Jrule"},
        {"id": "HOUSE-\x1b[2J-1"},
        {"summary": "evil\x1b]0;title\x07"},
    ],
)
def test_rule_info_refuses_control_characters(fields: dict[str, str]) -> None:
    base = {"id": "HOUSE-CTL-1", "name": "golf.ctl", "game": "golf", "summary": "Control"}
    with pytest.raises(PluginError):
        RuleInfo(**{**base, **fields})
