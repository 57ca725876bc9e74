"""Review of ``git diff 1be4ec0..HEAD -- src plugins docs`` (2026-12-03, evening): blame of
refused hook answers through wrappers and for answers alike (``cardcore._blame``), Veto naming
via ``_hookcall.named_call``, RuleInfo surrogates, the kit's rules of another game, RL plans due
past ``MAX_TIME`` and ``MAX_REACTION``, ``to_act`` read as any number of seats, the kit's
rejections check flagging hidden cards in refusal messages, ``run_realtime`` at max_actions.

Plain tests pin what works; strict xfails show what is still wrong.
"""

from __future__ import annotations

import io
import itertools
import random
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardcore
from cardcore import (
    IllegalActionError,
    OptionError,
    PluginError,
    RandomAgent,
    RuleInfo,
    hookimpl,
    new_game,
    run_realtime,
)
from cardcore.cli import main as cli_main
from cardcore.positions import read_field
from cardcore.rl import MAX_REACTION, Config, Match
from cardcore.testing import check_rejections
from cardcore_spit.actions import Fill

RULES = "cardcore.rules"
_count = itertools.count()


def _rule(name: str, game: str, **hooks: Callable[..., Any]) -> Any:
    """A house-rule module *name* of *game* implementing *hooks*."""
    mod = types.ModuleType(f"review_evening_{next(_count)}")
    mod.RULE = RuleInfo(  # type: ignore[attr-defined]
        id=name.upper().replace(".", "-"), name=name, game=game, summary="review"
    )
    for hook, func in hooks.items():
        setattr(mod, hook, hookimpl(func))
    return mod


@contextmanager
def _registered(*mods: Any) -> Iterator[None]:
    done: list[str] = []
    try:
        for mod in mods:
            cardcore.register(RULES, mod.RULE.name, mod)
            done.append(mod.RULE.name)
        yield
    finally:
        for name in reversed(done):
            cardcore.unregister(RULES, name)


# -- blame: answers "alike" ------------------------------------------------------------------------


class _Judge:
    """A Tonk deal judge as a callable object (no ``__eq__``): a bad one answers nonsense."""

    def __init__(self, bad: bool) -> None:
        self.bad = bad

    def __call__(self, hands: Any, points: Any) -> Any:
        return "nonsense" if self.bad else None


def test_bad_judge_object_is_not_blamed_on_a_good_rule_whose_judge_has_the_same_class() -> None:
    good = _rule("tonk.review-good-judge", "tonk", tonk_deal_judge=lambda: _Judge(False))
    bad = _rule("tonk.review-bad-judge", "tonk", tonk_deal_judge=lambda: _Judge(True))
    with _registered(good, bad), pytest.raises(PluginError) as info:
        new_game("tonk", 2, rules=["tonk.review-good-judge", "tonk.review-bad-judge"], seed=0)
    assert "'nonsense'" in str(info.value)
    assert info.value.plugin == "tonk.review-bad-judge"


def test_bad_judge_object_alone_is_blamed_on_its_rule() -> None:
    bad = _rule("tonk.review-lone-judge", "tonk", tonk_deal_judge=lambda: _Judge(True))
    with _registered(bad), pytest.raises(PluginError) as info:
        new_game("tonk", 2, rules=["tonk.review-lone-judge"], seed=0)
    assert info.value.plugin == "tonk.review-lone-judge"


# -- blame: hooks asked without asked= ------------------------------------------------------------


def _idle_layout(layout: Any) -> Any:
    return None


def _idle_units(new_spread: Any) -> Any:
    return None


_UNASKED = [
    ("golf", "golf_final_turns", _idle_layout, lambda layout: "yes", "golf/logic.py:137"),
    ("golf", "golf_scorer", _idle_layout, lambda layout: 42, "golf/logic.py:136"),
    ("golf", "golf_removable_groups", _idle_layout, lambda layout: [["x"]], "golf/logic.py:133"),
    ("tonk", "tonk_out_units", _idle_units, lambda new_spread: 2.5, "tonk/logic.py:135"),
]


def test_golf_score_table_asked_again_blames_the_rule_that_answered_not_one_that_deferred() -> None:
    idle = _rule("golf.review-idle-table", "golf", golf_score_table=_idle_layout)
    bad = _rule("golf.review-bad-table", "golf", golf_score_table=lambda layout: 42)
    with _registered(idle, bad), pytest.raises(PluginError) as info:
        new_game("golf", 2, rules=["golf.review-idle-table", "golf.review-bad-table"], seed=0)
    assert info.value.plugin == "golf.review-bad-table"


@pytest.mark.parametrize(("game", "hook", "idle", "bad", "where"), _UNASKED, ids=lambda v: v)
def test_refused_answer_is_blamed_on_the_rule_that_gave_it_not_one_that_deferred(
    game: str, hook: str, idle: Any, bad: Any, where: str
) -> None:
    idle_rule = _rule(f"{game}.review-idle-{hook}", game, **{hook: idle})
    bad_rule = _rule(f"{game}.review-bad-{hook}", game, **{hook: bad})
    names = [idle_rule.RULE.name, bad_rule.RULE.name]
    with _registered(idle_rule, bad_rule), pytest.raises(PluginError) as info:
        new_game(game, 2, rules=names, seed=0)
    assert hook in str(info.value), where
    assert info.value.plugin == bad_rule.RULE.name, where


# -- RuleInfo: lone surrogates ---------------------------------------------------------------------


def test_rule_info_refuses_a_lone_surrogate_in_its_summary() -> None:
    with pytest.raises(PluginError, match="surrogate"):
        RuleInfo(id="GOLF-SUR-1", name="golf.review-sur", game="golf", summary="a\ud800")


@pytest.mark.parametrize(
    "given",
    [
        {"conflicts": ("golf.x\ud800",)},
        {"requires": ("golf.x\ud800",)},
        {"applies": {"layout": ("x\ud800",)}},
        {"applies": {"x\ud800": (1,)}},
    ],
    ids=["conflicts", "requires", "applies-value", "applies-key"],
)
def test_rule_info_refuses_a_lone_surrogate_in_conflicts_requires_or_applies(
    given: dict[str, Any],
) -> None:
    with pytest.raises(PluginError, match="surrogate"):
        RuleInfo(id="GOLF-SUR-2", name="golf.review-sur", game="golf", summary="s", **given)


@pytest.mark.parametrize("field", ["conflicts", "requires"])
def test_rule_info_refuses_a_control_character_in_conflicts_or_requires(field: str) -> None:
    with pytest.raises(PluginError, match="control"):
        RuleInfo(
            id="GOLF-ESC-1",
            name="golf.review-esc",
            game="golf",
            summary="s",
            **{field: ("golf.x\x1b[2J",)},
        )


def test_cardcore_list_survives_a_rule_whose_conflicts_hold_a_lone_surrogate(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(PluginError, match="surrogate"):  # refused where it is declared
        RuleInfo(
            id="GOLF-SUR-3",
            name="golf.review-sur3",
            game="golf",
            summary="s",
            conflicts=("x\ud800",),
        )
    mod = types.ModuleType("review_evening_surrogate")
    mod.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="GOLF-SUR-3", name="golf.review-sur3", game="golf", summary="s", conflicts=("x",)
    )
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with _registered(mod):
        monkeypatch.setattr(sys, "stdout", out)
        code = cli_main(["list"])
        monkeypatch.undo()
    capsys.readouterr()
    assert code == 0


def test_game_info_refuses_a_lone_surrogate_in_its_summary() -> None:
    with pytest.raises(PluginError, match="surrogate"):
        cardcore.GameInfo(name="reviewgame", summary="a\ud800", min_players=2, max_players=2)


# -- positions: to_act of any length, hostile ones still refused ----------------------------------


def test_read_field_to_act_takes_any_number_of_seats() -> None:
    assert read_field("to_act", [0, 1, 2], (0,)) == (0, 1, 2)
    assert read_field("to_act", [], (0,)) == ()
    with pytest.raises(OptionError):
        read_field("to_act", "0", (0,))
    with pytest.raises(OptionError):
        read_field("to_act", [[0]], (0,))


@pytest.mark.parametrize("to_act", ["[0,1]", "[true]", "[0,0]", "[]", "[5]", "[0.0]", '["0"]'])
def test_hostile_to_act_in_a_default_notation_position_is_still_refused(to_act: str) -> None:
    text = new_game("gofish", 3, seed=1).position()
    assert "to_act=[0]" in text
    with pytest.raises(OptionError):
        new_game("gofish", 3, position=text.replace("to_act=[0]", f"to_act={to_act}", 1))


# -- the kit: refusal messages of the built-in games hold no false leaks ---------------------------


@pytest.mark.parametrize("game", ["golf", "tonk", "spit", "speed", "gofish"])
def test_rejections_check_reports_no_leak_for_a_built_in_game(game: str) -> None:
    report = check_rejections(game, games=2, seed=3, strict=False)
    assert report.leaks == 0
    assert not report.failures


# -- RL: real-time matches go on with the extreme reactions allowed -------------------------------


@pytest.mark.parametrize("reaction", [0.0, MAX_REACTION, [0.0, MAX_REACTION]])
def test_spit_match_plays_on_at_the_reaction_bounds(reaction: Any) -> None:
    match = Match(Config("spit", 2, reaction=reaction, max_actions=120), 0)
    rng = random.Random(0)
    while not match.over:
        match.act(rng.choice(match.legal(match.seat)))
    assert match.game.is_over
    assert not match.stalled


def test_reaction_past_max_reaction_is_an_option_error() -> None:
    with pytest.raises(OptionError, match="MAX_REACTION"):
        Config("spit", 2, reaction=MAX_REACTION * 2)


def _spit_match_and_illegal_fill() -> tuple[Match, Fill]:
    """A Spit match six decisions in, and a Fill of the pending seat that is not legal now."""
    match = Match(Config("spit", 2, reaction=0.5), 0)
    rng = random.Random(0)
    for _ in range(6):
        match.act(rng.choice(match.legal(match.seat)))
    seat = match.seat
    legal = set(match.legal(seat))
    bad = next(
        a
        for a in (Fill(seat=seat, src=s, dst=d) for s in range(5) for d in range(5))
        if a not in legal
    )
    return match, bad


def test_match_refuses_an_illegal_plan_that_comes_due_first_and_changes_nothing() -> None:
    match, bad = _spit_match_and_illegal_fill()
    seat, version, dropped = match.seat, match.game.version, list(match.dropped)
    with pytest.raises(IllegalActionError, match=f"seat {seat}'s plan"):
        match.act(bad, 0.0)
    assert (match.seat, match.game.version, match.dropped) == (seat, version, dropped)


def test_match_refuses_an_illegal_plan_whatever_its_delay() -> None:
    match, bad = _spit_match_and_illegal_fill()
    seat, version, dropped = match.seat, match.game.version, list(match.dropped)
    with pytest.raises(IllegalActionError):
        match.act(bad, 1000.0)
    assert (match.seat, match.game.version, match.dropped) == (seat, version, dropped)


# -- run_realtime at max_actions -------------------------------------------------------------------


class _CountingAgent(RandomAgent):
    """A random real-time agent that counts the plans it is asked for."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed=seed)
        self.asked = 0

    def plan(self, view: Any, legal: Any, now: float) -> Any:
        self.asked += 1
        return super().plan(view, legal, now)


def test_run_realtime_asks_no_plan_after_the_last_action_it_plays() -> None:
    agents = [_CountingAgent(1), _CountingAgent(2)]
    game = new_game("spit", 2, seed=0)
    assert run_realtime(game, agents, max_actions=1).reason == "truncated"
    assert game.version == 1
    assert sum(a.asked for a in agents) == 2  # the first position only


def test_run_realtime_with_max_actions_zero_asks_no_agent_to_plan() -> None:
    agents = [_CountingAgent(1), _CountingAgent(2)]
    game = new_game("spit", 2, seed=0)
    assert run_realtime(game, agents, max_actions=0).reason == "truncated"
    assert game.version == 0
    assert sum(a.asked for a in agents) == 0
