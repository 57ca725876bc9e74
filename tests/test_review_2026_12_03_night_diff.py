"""Review of 560da04, 6fd099e, c1404df and c533ec1 (2026-12-03, night): the kit's score-only
rule with one seat, ``compare``'s default seats (``cardcore.simulate.seats_for``) and no
first-seat advantage with one seat, ``rewards='win'`` for a one-seat win, blame of refused
answers made of objects without ``__eq__``, ``Match.act`` refusing an illegal real-time plan,
``run_realtime(max_actions=0)``.

Plain tests pin what works; strict xfails show what is still wrong.
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest

import cardcore
from cardcore import (
    CardcoreError,
    IllegalActionError,
    PluginError,
    Resign,
    RuleInfo,
    hookimpl,
    new_game,
    run_realtime,
)
from cardcore.plugins import available_games
from cardcore.rl import Config, Match
from cardcore.simulate import seats_for
from tests import test_solitaire_plugin_from_docs_2026_12_03 as sol

RULES = "cardcore.rules"
GAMES = "cardcore.games"
_count = itertools.count()


def _rule(name: str, game: str, **hooks: Callable[..., Any]) -> Any:
    """A house-rule module *name* of *game* implementing *hooks*."""
    mod = types.ModuleType(f"review_night_{next(_count)}")
    mod.RULE = RuleInfo(  # type: ignore[attr-defined]
        id=name.upper().replace(".", "-"), name=name, game=game, summary="review"
    )
    for hook, func in hooks.items():
        setattr(mod, hook, hookimpl(func))
    return mod


@contextmanager
def _registered(group: str, *mods: tuple[str, Any]) -> Iterator[None]:
    done: list[str] = []
    try:
        for name, mod in mods:
            cardcore.register(group, name, mod)
            done.append(name)
        yield
    finally:
        for name in reversed(done):
            cardcore.unregister(group, name)


@contextmanager
def _solitaire() -> Iterator[str]:
    """The one-seat Golf Solitaire of the docs test, registered for the test's duration."""
    with _registered(GAMES, (sol.NAME, sol.game_module)):
        yield sol.NAME


# -- blame: objects without __eq__ ------------------------------------------------------------------


class _Group:
    """A group of positions as a plain object (no ``__eq__``), as a plugin author might write."""

    def __init__(self, *positions: int) -> None:
        self.positions = positions


class _Empty:
    """An object without ``__eq__`` and without fields."""


class _One:
    """An object without ``__eq__`` holding one plain value."""

    def __init__(self, value: int) -> None:
        self.value = value


def test_fresh_object_answer_is_blamed_on_the_rule_that_gave_it_not_a_good_one() -> None:
    good = _rule("golf.night-good-groups", "golf", golf_removable_groups=lambda layout: [[0, 1]])
    bad = _rule(
        "golf.night-bad-groups", "golf", golf_removable_groups=lambda layout: [_Group(0, 1)]
    )
    names = [good.RULE.name, bad.RULE.name]
    with (
        _registered(RULES, *((m.RULE.name, m) for m in (good, bad))),
        pytest.raises(PluginError) as info,
    ):
        new_game("golf", 2, rules=names, seed=0)
    assert "golf_removable_groups" in str(info.value)
    assert info.value.plugin == bad.RULE.name  # today: the good rule, named first


def test_alike_objects_without_eq_do_not_depend_on_nesting_depth() -> None:
    from cardcore._blame import alike

    assert alike([[_Empty()]], [[_Empty()]])  # two levels down: alike
    assert alike((_Empty(),), (_Empty(),))  # one level down: today not alike


def test_alike_object_without_eq_with_a_tuple_field() -> None:
    from cardcore._blame import alike

    assert alike(_Group(0, 1), _Group(0, 1))


def test_alike_still_tells_objects_without_eq_apart_by_their_fields() -> None:
    from cardcore._blame import alike

    assert alike(_One(1), _One(1))
    assert not alike(_One(1), _One(2))


# -- compare / seats_for -----------------------------------------------------------------------------


def test_seats_for_picks_two_for_every_built_in_game() -> None:
    for game in available_games():
        info = cardcore.game_info(game)
        if info.min_players <= 2 <= info.max_players:
            assert seats_for(game, 2) == 2, game


@pytest.mark.parametrize("preferred", ["2", None])
def test_seats_for_refuses_a_bad_preferred_count_by_name(preferred: Any) -> None:
    with pytest.raises(CardcoreError):
        seats_for("golf", preferred)


def test_compare_one_seat_has_no_first_seat_advantage_in_json_or_table() -> None:
    from cardcore.compare._report import rows_of

    with _solitaire() as name:
        cmp = cardcore.compare(name, games=2, skill=None)
    assert cmp.players == 1
    data = cmp.to_json()
    assert data["a"]["first_seat"] is None and data["b"]["first_seat"] is None
    assert "first_seat" not in data["diff"] and "actions" in data["diff"]
    first = rows_of(cmp)[0]
    assert first[0] == "first-seat advantage" and first[1:] == ("n/a", "n/a", "n/a")


def test_compare_two_seats_keeps_first_seat_first_in_diff() -> None:
    cmp = cardcore.compare("golf", games=2, skill=None)
    assert cmp.players == 2
    assert next(iter(cmp.diff)) == "first_seat"
    assert cmp.to_json()["a"]["first_seat"] is not None


# -- the kit's score-only rule with one seat ---------------------------------------------------------


class _DeafLogic(sol.SolLogic):
    """Golf Solitaire that asks score_round but ignores its answer: a broken game."""

    def apply(self, state: Any, action: Any, emit: Any) -> None:
        z = state.zones
        if isinstance(action, sol.Turn):
            z.move(sol.STOCK, sol.FOUNDATION, mask=cardcore.ALL)
        else:
            z.move(sol.column(action.col), sol.FOUNDATION, mask=cardcore.ALL)
        left = sum(len(z.cards[sol.column(i)]) for i in range(sol.COLUMNS))
        if left == 0:
            self.score_round(state, [0])
            sol.end_game(state, (0,), [0], "columns cleared")
        elif not z.cards[sol.STOCK] and not self._plays(state):
            self.score_round(state, [left])
            sol.end_game(state, (), [left], "stock out, no move")


def test_kit_scores_check_fails_a_one_seat_game_that_ignores_score_round() -> None:
    from cardcore.testing import check_game

    name = "golfsol-deaf-night"
    mod = types.ModuleType("golfsol_deaf_night")
    mod.GAME = cardcore.GameInfo(name, "Golf Solitaire that ignores rules' scores", 1, 1)  # type: ignore[attr-defined]
    mod.create_logic = hookimpl(lambda ruleset: _DeafLogic(ruleset))  # type: ignore[attr-defined]
    with _registered(GAMES, (name, mod)):
        report = check_game(name, players=1, games=1, checks={"scores"}, strict=False)
    assert not report.ok
    assert report.scored > 0


def test_kit_scores_check_passes_the_one_seat_docs_game() -> None:
    from cardcore.testing import check_game

    with _solitaire() as name:
        report = check_game(name, players=1, games=1, checks={"scores"}, strict=False)
    assert report.ok and report.scored > 0


# -- rl ------------------------------------------------------------------------------------------------


def test_win_rewards_one_seat_and_two_seats() -> None:
    from cardcore.rl import win_rewards

    assert win_rewards([0], 1) == [1.0]
    assert win_rewards([], 1) == [0.0]
    assert win_rewards([1], 2) == [-1.0, 1.0]


def _speed_match() -> tuple[Match, int]:
    match = Match(Config("speed", 2), 1)
    return match, match.seat


def test_match_act_refuses_an_illegal_plan_at_once_and_changes_nothing() -> None:
    match, seat = _speed_match()
    other = match.legal(1 - seat)
    illegal = next(a for a in other if a.verb != "stuck")
    mine = type(illegal)(seat, *[getattr(illegal, f) for f in ("card", "target")])
    if mine in match.legal(seat):  # pragma: no cover - the deal gave both the same play
        pytest.skip("that play is legal for this seat too")
    before = (match.game.version, list(match.pending), list(match.plans), match.now)
    with pytest.raises(IllegalActionError, match=f"seat {seat}'s plan"):
        match.act(mine, 5.0)
    assert (match.game.version, list(match.pending), list(match.plans), match.now) == before


def test_match_act_accepts_a_legal_plan_and_a_resign_plan() -> None:
    match, seat = _speed_match()
    match.act(match.legal(seat)[0], 0.5)  # legal: planned, no error
    match2, seat2 = _speed_match()
    match2.act(Resign(seat2), 0.1)  # not in the legal set, but resigning is always allowed
    while not match2.over and match2.seat >= 0:
        match2.wait()
    assert match2.game.result is not None and match2.game.result.reason == "resigned"


def test_run_realtime_max_actions_zero_asks_no_plan() -> None:
    asked: list[int] = []

    class Agent:
        def plan(self, view: Mapping[str, Any], legal: Any, now: float) -> Any:
            asked.append(1)
            return None

    game = new_game("speed", 2, seed=1)
    result = run_realtime(game, [Agent(), Agent()], max_actions=0)
    assert result.reason == "truncated" and asked == []
