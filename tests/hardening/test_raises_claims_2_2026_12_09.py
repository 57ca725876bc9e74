"""Audit 2026-12-09, second part: the documented ``:raises X:`` clauses and odd inputs of
the public names the first audit (``test_raises_claims_2026_12_09.py``) did not reach.

Covered here: :func:`cardcore.compare` (and ``Comparison.plot``, ``Estimate``),
:mod:`cardcore.simulate` (``simulate``, ``run_one``, ``seats_for``), the declarations
:class:`cardcore.Option`, :class:`cardcore.GameInfo`, :class:`cardcore.RuleInfo`,
:class:`cardcore.ViewField`, :mod:`cardcore.positions` (``read_field``, ``read_result``,
``read_position``, ``write_position``, ``check``, ``fair_ints``), :mod:`cardcore.dealing`,
the session settings (:mod:`cardcore.session.config`), the fair-deal helpers
(:mod:`cardcore.session.fair`) and the :mod:`cardcore.rl` configuration and environments.

Bugs are strict xfails asserting the right behaviour; claims that hold are plain tests.
Nothing here calls what was seen to hang: ``vector_env(game, 10**5000)`` (or ``10**9``)
builds one runner per game in a Python loop before anything bounds *num_envs*.
"""

from __future__ import annotations

import copy
import math
import re
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import (
    ArgumentError,
    CardcoreError,
    CorruptStateError,
    GameState,
    Layout,
    OptionError,
    PluginError,
    UnknownPluginError,
    Visibility,
    Zones,
    ZoneSpec,
    parse_cards,
)
from cardcore import positions as pos
from cardcore.compare import Estimate, compare
from cardcore.dealing import deal_round_robin, draw_card, fill_stock, gather
from cardcore.info import GameInfo, Option, RuleInfo, ViewField
from cardcore.rl import aec_env, vector_env
from cardcore.rl.match import Config, Match
from cardcore.session import SessionConfig, TimeControl
from cardcore.session.config import GameSetup, Limits
from cardcore.session.fair import FairDeal, FairDealError, seed_of, verify_bundle
from cardcore.simulate import run_one, seats_for, simulate

HUGE = 10**5000


def _id(value: Any) -> str | None:
    if type(value) is int and abs(value) > 10**30:
        return "HUGE"
    if type(value).__name__ == "Hostile":
        return "hostile"
    return None


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _rid(value: Any) -> str:
    name = _id(value)
    if name:
        return name
    try:
        return _ADDRESS.sub("", repr(value))[:30]  # the same id in every process
    except Exception:
        return type(value).__name__


class Hostile:
    """An object whose comparison, hash, text and truth all raise."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __hash__(self) -> int:
        raise RuntimeError("hash")

    def __str__(self) -> str:
        raise RuntimeError("str")

    __repr__ = __str__

    def __bool__(self) -> bool:
        raise RuntimeError("bool")

    def __iter__(self) -> Any:
        raise RuntimeError("iter")


# -- compare and simulate -------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"games": 0},
        {"games": None},
        {"games": 1.0},
        {"games": True},
        {"games": HUGE},
        {"games": np.int64(2)},
        {"seed": -1},
        {"seed": HUGE},
        {"seed": 1.0},
        {"chunk": 0},
        {"players": 0},
        {"players": HUGE},
        {"players": 1.5},
        {"options": 5},
        {"executor": 5},
        {"progress": 5},
        {"agents": 5},
        {"agents": []},
        {"agents": [None, None]},
    ],
    ids=lambda kw: f"{next(iter(kw))}={_id(next(iter(kw.values()))) or next(iter(kw.values()))!r}",
)
@pytest.mark.parametrize("study", ["simulate", "compare"])
def test_studies_refuse_bad_numbers_and_lineups_with_option_errors(
    study: str, kwargs: dict[str, Any]
) -> None:
    run = simulate if study == "simulate" else compare
    extra = {"skill": None} if study == "compare" else {}
    with pytest.raises(OptionError):
        run("golf", **{"games": 1, **extra, **kwargs})


@pytest.mark.parametrize("rules", ["golf.jokers", None, 5])
def test_studies_refuse_rules_that_are_not_lists_with_argument_errors(rules: Any) -> None:
    with pytest.raises(ArgumentError, match="rules takes a list of names"):
        simulate("golf", games=1, rules=rules)
    with pytest.raises(ArgumentError, match="vs takes a list of names"):
        compare("golf", games=1, skill=None, vs=rules)


@pytest.mark.parametrize("game", [None, 5, "", "nogame", b"golf"])
def test_studies_name_an_unknown_game(game: Any) -> None:
    with pytest.raises(UnknownPluginError):
        simulate(game, games=1)
    with pytest.raises(UnknownPluginError):
        compare(game, games=1)


@pytest.mark.parametrize("skill", [5, ("random",), "", "random", ("a", "b", "c")], ids=_rid)
def test_compare_refuses_a_malformed_skill_probe(skill: Any) -> None:
    with pytest.raises(OptionError, match="skill must be"):
        compare("golf", games=1, skill=skill)


@pytest.mark.parametrize("move_time", [-1, 0, math.nan, math.inf, "1", True])
def test_compare_refuses_a_move_time_that_is_not_positive_and_finite(move_time: Any) -> None:
    with pytest.raises(OptionError, match="move_time"):
        compare("golf", games=1, skill=None, move_time=move_time)


@pytest.mark.parametrize("preferred", [None, 0, -1, 1.5, "2", True, np.int64(2)], ids=_rid)
def test_seats_for_refuses_a_preferred_count_that_is_not_an_int_of_at_least_one(
    preferred: Any,
) -> None:
    with pytest.raises(ArgumentError, match="preferred"):
        seats_for("golf", preferred)


def test_seats_for_of_a_huge_preference_is_the_games_most_seats() -> None:
    assert seats_for("golf", HUGE) == 64


@pytest.fixture(scope="module")
def comparison() -> Any:
    return compare("golf", games=1, skill=None)


@pytest.mark.parametrize("path", [5, b"x.png"])  # (None: the Figure, since 2026-12-19)
def test_plot_refuses_what_is_not_a_path(comparison: Any, path: Any) -> None:
    with pytest.raises(ArgumentError, match="file path"):
        comparison.plot(path)


def test_plot_of_an_empty_path_is_an_argument_error_and_writes_nothing(
    comparison: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        with pytest.raises(ArgumentError):
            comparison.plot("")
    finally:
        written = sorted(p.name for p in tmp_path.iterdir())
    assert written == []


@pytest.mark.parametrize("name", ["x\x00.png", "\ud800.png"], ids=["nul", "surrogate"])
def test_plot_of_an_unwritable_file_name_is_a_cardcore_error(
    comparison: Any, tmp_path: Any, name: str
) -> None:
    with pytest.raises(CardcoreError):
        comparison.plot(str(tmp_path / name))


@pytest.mark.parametrize("digits", [-1, None, 1.5, HUGE], ids=_id)
def test_estimate_text_refuses_bad_digits_with_an_argument_error(digits: Any) -> None:
    with pytest.raises(ArgumentError):
        Estimate(1.0, 0.0, 2.0, 3).text(digits=digits)


_TASK = ("golf", 2, ("random", "random"), (), (), {}, 0, 0)


def test_run_one_plays_the_task_it_is_given() -> None:
    outcome = run_one(_TASK)
    assert outcome.index == 0 and len(outcome.scores) == 2


@pytest.mark.parametrize(
    ("place", "value", "error"),
    [
        (0, "nogame", UnknownPluginError),
        (1, 0, OptionError),
        (1, HUGE, OptionError),
        (2, ("random",), OptionError),
        (3, "golf.jokers", ArgumentError),
        (5, 5, OptionError),
        (6, None, ArgumentError),
        (7, HUGE, ArgumentError),
    ],
    ids=_rid,
)
def test_run_one_refuses_a_bad_field_of_its_task(place: int, value: Any, error: type) -> None:
    task = list(_TASK)
    task[place] = value
    with pytest.raises(error):
        run_one(tuple(task))


@pytest.mark.parametrize(
    "task",
    [None, ("golf", 2), ("golf", 2, None, (), (), {}, 0, 0)],
    ids=["none", "short", "agents-none"],
)
def test_run_one_of_a_malformed_task_is_a_cardcore_error(task: Any) -> None:
    with pytest.raises(CardcoreError):
        run_one(task)


# -- Option, GameInfo, RuleInfo, ViewField ---------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rule_id": None},
        {"rule_id": 5},
        {"rule_id": "A-"},
        {"minimum": 5, "maximum": 1},
        {"default": "a"},
        {"default": 7, "maximum": 5},
        {"default_before": ("x", 1)},
        {"default_before": ("0.1.0",)},
        {"default_before": ("0.1.0", "a")},
        {"default": math.nan, "kind": float},
        {"default": math.inf, "kind": float},
    ],
    ids=_rid,
)
def test_option_raises_plugin_error_as_documented(kwargs: dict[str, Any]) -> None:
    with pytest.raises(PluginError, match="option 'x'"):
        Option(**{"name": "x", "default": 1, **kwargs})


@pytest.mark.parametrize(
    "kwargs",
    [{"minimum": "a"}, {"maximum": "a"}, {"minimum": 1, "maximum": "9"}, {"minimum": HUGE}],
    ids=lambda kw: "-".join(f"{k}={_id(v) or v}" for k, v in kw.items()),
)
def test_option_with_bounds_that_are_not_numbers_is_a_plugin_error(
    kwargs: dict[str, Any],
) -> None:
    with pytest.raises(PluginError):
        Option(name="x", default=1, **kwargs)


@pytest.mark.parametrize("kwargs", [{"minimum": math.nan}, {"maximum": math.nan}], ids=_rid)
def test_option_with_a_nan_bound_is_a_plugin_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(PluginError):
        Option(name="x", default=1, kind=float, **kwargs)


@pytest.mark.parametrize(
    "kwargs", [{"kind": None}, {"kind": 5}, {"kind": "int"}, {"choices": 5}], ids=_rid
)
def test_option_with_a_kind_or_choices_of_the_wrong_type_is_a_plugin_error(
    kwargs: dict[str, Any],
) -> None:
    with pytest.raises(PluginError):
        Option(name="x", default=1, **kwargs)


def _game(**kwargs: Any) -> GameInfo:
    return GameInfo(**{"name": "g", "summary": "s", "min_players": 1, "max_players": 2, **kwargs})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"name": "bad name"},
        {"name": ""},
        {"name": "g" * 65},
        {"name": None},
        {"min_players": 0},
        {"min_players": 3},
        {"min_players": 1.0},
        {"min_players": True},
        {"max_players": 1.5},
        {"options": ("x",)},
        {"options": (Option("a", 1), Option("a", 2))},
        {"fields": (ViewField("f", "int"), ViewField("f", "str"))},
        {"summary": "bad\x1b[2J"},
        {"summary": "\ud800"},
        {"version": "\ud800"},
        {"default_rules": ("a\x00",)},
    ],
    ids=_rid,
)
def test_game_info_raises_plugin_error_as_documented(kwargs: dict[str, Any]) -> None:
    with pytest.raises(PluginError):
        _game(**kwargs)


@pytest.mark.parametrize("options", [None, 5])
def test_game_info_with_options_that_are_not_a_list_is_a_plugin_error(options: Any) -> None:
    with pytest.raises(PluginError):
        _game(options=options)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"summary": None},
        {"summary": 5},
        {"version": None},
        {"version": 5},
        {"default_rules": "abc"},
        {"default_rules": None},
        {"default_rules": (5,)},
        {"options": (Option(name=5, default=1),)},
    ],
    ids=_rid,
)
def test_game_info_with_texts_of_the_wrong_type_is_a_plugin_error(
    kwargs: dict[str, Any],
) -> None:
    with pytest.raises(PluginError):
        _game(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kind": "nope"},
        {"kind": None},
        {"kind": ["int"]},
        {"kind": "per-seat"},
        {"kind": "per-seat", "of": "nope"},
        {"kind": "int", "of": "int"},
    ],
    ids=_rid,
)
def test_view_field_raises_plugin_error_as_documented(kwargs: dict[str, Any]) -> None:
    with pytest.raises(PluginError, match="view field 'f'"):
        ViewField("f", **kwargs)


@pytest.mark.parametrize("name", [None, 5, ""], ids=_rid)
def test_view_field_with_a_name_that_is_not_text_is_a_plugin_error(name: Any) -> None:
    with pytest.raises(PluginError):
        ViewField(name, "int")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"id": ""},
        {"id": None},
        {"name": 5},
        {"game": b"g"},
        {"summary": None},
        {"conflicts": "abc"},
        {"conflicts": None},
        {"requires": 5},
        {"conflicts": ("a\x00",)},
        {"applies": 5},
        {"applies": {"a": 1}},
        {"applies": {"a": "abc"}},
        {"default_before": 5},
        {"default_before": "x"},
    ],
    ids=_rid,
)
def test_rule_info_raises_plugin_error_as_documented(kwargs: dict[str, Any]) -> None:
    with pytest.raises(PluginError):
        RuleInfo(**{"id": "A-1", "name": "g.r", "game": "g", "summary": "s", **kwargs})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"conflicts": (5,)},
        {"conflicts": (None,)},
        {"requires": ("",)},
        {"version": None},
        {"version": 5},
    ],
    ids=_rid,
)
def test_rule_info_with_names_or_version_of_the_wrong_type_is_a_plugin_error(
    kwargs: dict[str, Any],
) -> None:
    with pytest.raises(PluginError):
        RuleInfo(**{"id": "A-1", "name": "g.r", "game": "g", "summary": "s", **kwargs})


@pytest.mark.parametrize(
    "build",
    [
        lambda: ViewField("f", Hostile()),
        lambda: TimeControl(fallback=Hostile()),
        lambda: SessionConfig(start=Hostile()),
        lambda: aec_env("golf", 2, render_mode=Hostile()),
        lambda: Config("golf", 2, rewards=Hostile()),
        lambda: compare("golf", games=1, skill=Hostile()),
    ],
    ids=["ViewField", "TimeControl", "SessionConfig", "aec_env", "Config", "compare"],
)
def test_a_hostile_value_is_refused_with_a_cardcore_error(build: Any) -> None:
    with pytest.raises(CardcoreError):
        build()


# -- positions -----------------------------------------------------------------------------

LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("hand.1", 1, Visibility.OWNER),
    ]
)
DECK = parse_cards("2S 3S 4S")


def _zones() -> Zones:
    zones = Zones(LAYOUT)
    zones.cards[0] = list(DECK)
    zones.seen[0] = [0, 0, 0]
    return zones


TEXT = "g a=1 | stock: 2S 3S 4S | hand.0: | hand.1:"


def test_write_position_and_read_position_round_trip() -> None:
    text = pos.write_position("g", {"a": 1, "b": "x|y z"}, _zones())
    fields, zones = pos.read_position(text, "g", LAYOUT, DECK, 2)
    assert fields == {"a": 1, "b": "x|y z"} and [str(c) for c in zones.cards[0]] == [
        "2S",
        "3S",
        "4S",
    ]


@pytest.mark.parametrize(
    "text",
    [
        None,
        b"g",
        "",
        "h a=1 | stock: 2S 3S 4S | hand.0: | hand.1:",
        "g",
        TEXT.replace("a=1", "a=" + "9" * 5000),
        TEXT.replace("a=1", "a=" + "[" * 30000 + "]" * 30000),
        TEXT.replace("a=1", "a=1e400"),
        TEXT.replace("a=1", "a=NaN"),
        TEXT.replace("a=1", "a=1 a=2"),
        TEXT.replace("2S", "2S@999"),
        TEXT.replace("2S", "2S@-1"),
        TEXT.replace("2S", "2S@2"),
        TEXT.replace("2S", "\ud800"),
        TEXT + " | stock: 2S",
        TEXT.replace("4S", "4S 5S"),
        TEXT.replace(" 4S", ""),
        "g " + "x=1 " * 10000,
    ],
    ids=_rid,
)
def test_read_position_raises_option_error_as_documented(text: Any) -> None:
    with pytest.raises(OptionError, match="bad position"):
        pos.read_position(text, "g", LAYOUT, DECK, 2)


@pytest.mark.parametrize(
    ("layout", "deck", "players"),
    [(LAYOUT, DECK, None), (LAYOUT, DECK, "2"), (LAYOUT, None, 2), (None, DECK, 2)],
    ids=["players-none", "players-text", "deck-none", "layout-none"],
)
def test_read_position_with_bad_arguments_is_a_cardcore_error(
    layout: Any, deck: Any, players: Any
) -> None:
    with pytest.raises(CardcoreError):
        pos.read_position(TEXT.replace("2S", "2S@1"), "g", layout, deck, players)


@pytest.mark.parametrize(
    ("game", "fields"),
    [
        ("g", {"a b": 1}),
        ("g", {"a|": 1}),
        ("g", {"a=b": 1}),
        ("g", {"": 1}),
        ("g", {5: 1}),
        ("g", {"a": math.nan}),
        ("g x", {}),
        ("", {}),
        ("g", {"a": HUGE}),
        ("g", {"a": object()}),
        (None, {}),
    ],
    ids=_rid,
)
def test_write_position_refuses_what_it_cannot_write_readably(game: Any, fields: Any) -> None:
    with pytest.raises(CardcoreError):
        pos.write_position(game, fields, _zones())


@pytest.mark.parametrize(
    ("value", "default"),
    [
        (True, 0),
        (None, 0),
        (np.int64(3), 0),
        ({}, 0),
        (5, [0, 0]),
        ([1, 2, 3], [0, 0]),
        ([1, [2]], []),
    ],
    ids=_rid,
)
def test_read_field_raises_option_error_as_documented(value: Any, default: Any) -> None:
    with pytest.raises(OptionError, match="field 'x'"):
        pos.read_field("x", value, default)


@pytest.mark.parametrize("default", [object(), {}, b"x"], ids=_rid)
def test_read_field_of_a_default_no_field_holds_raises_the_documented_type_error(
    default: Any,
) -> None:
    with pytest.raises(TypeError, match="position field 'x'"):
        pos.read_field("x", 1, default)


@pytest.mark.parametrize(
    ("value", "default"),
    [(HUGE, 0.0), ([HUGE], [0.0]), (math.nan, 0.0), (math.inf, 0.0)],
    ids=_rid,
)
def test_read_field_of_a_number_no_float_holds_is_an_option_error(value: Any, default: Any) -> None:
    with pytest.raises(OptionError):
        pos.read_field("x", value, default)


_RESULT = {"winners": [0], "scores": [1, 2], "payouts": None, "reason": "done"}


@pytest.mark.parametrize(
    ("value", "players"),
    [
        (None, 2),
        ([], 2),
        ({**_RESULT, "winners": [True]}, 2),
        ({**_RESULT, "winners": [0, 1, 1]}, 2),
        ({**_RESULT, "scores": [np.float64(1), 1]}, 2),
        ({**_RESULT, "reason": ""}, 2),
        (_RESULT, 1.5),
        (_RESULT, HUGE),
        (_RESULT, -1),
    ],
    ids=_rid,
)
def test_read_result_raises_option_error_as_documented(value: Any, players: Any) -> None:
    with pytest.raises(OptionError, match='field "result"'):
        pos.read_result(value, players)


@pytest.mark.parametrize(
    ("value", "players"),
    [
        ({**_RESULT, "scores": [HUGE, 1]}, 2),
        ({**_RESULT, "scores": [math.nan, 1]}, 2),
        ({**_RESULT, "scores": [math.inf, 1]}, 2),
        (_RESULT, None),
    ],
    ids=["huge", "nan", "inf", "players-none"],
)
def test_read_result_of_a_score_no_game_holds_is_an_option_error(value: Any, players: Any) -> None:
    with pytest.raises(OptionError):
        pos.read_result(value, players)


def test_check_raises_option_error_formatted_only_on_failure() -> None:
    pos.check(True, "never {} formatted {}")
    with pytest.raises(OptionError, match=r"^bad position: hand\.1 is empty \(CORE-POSITION-1\)$"):
        pos.check(False, "hand.{} is empty", 1)


@pytest.mark.parametrize(("problem", "args"), [("x {}", ()), ("x {0} {1}", (1,)), ("{", ())])
def test_check_with_a_problem_its_args_do_not_fill_still_raises_option_error(
    problem: str, args: tuple[Any, ...]
) -> None:
    with pytest.raises(OptionError):
        pos.check(False, problem, *args)


@pytest.mark.parametrize(
    ("values", "count"),
    [
        ([1, 2], "2"),
        ([1, 2], None),
        ([np.int64(1)], 1),
        ([True], 1),
        ([HUGE], 1),
        ("ab", 2),
        ({1: 1, 2: 2}, 2),
        ([1.0], 1),
        (np.array([1, 2]), 2),
        ([Hostile()], 1),
    ],
    ids=_rid,
)
def test_fair_ints_says_no_to_what_is_not_ints_in_range(values: Any, count: Any) -> None:
    assert pos.fair_ints(values, count) is False


def test_fair_ints_says_yes_to_ints_in_range() -> None:
    assert pos.fair_ints([1, -(10**15)], 2) is True


# -- dealing --------------------------------------------------------------------------------

DLAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("discard", None, Visibility.EVERYONE),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("hand.1", 1, Visibility.OWNER),
        ZoneSpec("hand.2", 2, Visibility.OWNER),
    ]
)


def _state() -> GameState:
    state = GameState(3, {}, Zones(DLAYOUT))
    state.seed = 9
    fill_stock(state, 0, parse_cards("2S 3S 4S 5S 6S 7S"))
    return state


def _piles(state: GameState) -> list[list[str]]:
    return [[str(c) for c in pile] for pile in state.zones.cards]


def test_deal_round_robin_from_too_small_a_stock_raises_and_deals_nothing() -> None:
    state = _state()
    before = _piles(state)
    with pytest.raises(CardcoreError, match="cannot deal 3 cards to 3 hands from 6"):
        deal_round_robin(state, 0, (2, 3, 4), 3)
    assert _piles(state) == before


def test_deal_round_robin_of_a_huge_count_is_a_cardcore_error() -> None:
    with pytest.raises(CardcoreError):
        deal_round_robin(_state(), 0, (2, 3, 4), HUGE)


@pytest.mark.parametrize(
    ("hands", "count", "first"),
    [
        ((2, 3, 4), 1.5, 0),
        ((2, 3, 4), None, 0),
        ((2, 3, 4), -1, 0),
        ((2, 3, 4), True, 0),
        ((2, 99), 1, 0),
        ((2, -1), 1, 0),
        ("ab", 1, 0),
        (None, 1, 0),
        ((2, 3, 4), 1, None),
        ((2, 3, 4), 1, 1.5),
    ],
    ids=_rid,
)
def test_deal_round_robin_refuses_bad_hands_and_counts_and_deals_nothing(
    hands: Any, count: Any, first: Any
) -> None:
    state = _state()
    before = _piles(state)
    try:
        with pytest.raises(CardcoreError):
            deal_round_robin(state, 0, hands, count, first=first)
    finally:
        after = _piles(state)
    assert after == before


@pytest.mark.parametrize("dst", [99, None, "2"], ids=_rid)
def test_draw_card_to_a_pile_that_does_not_exist_loses_no_card(dst: Any) -> None:
    state = _state()
    before = _piles(state)
    try:
        with pytest.raises(CardcoreError):
            draw_card(state, 0, dst)
    finally:
        after = _piles(state)
    assert after == before


@pytest.mark.parametrize("stock", [-1, True, 99, None, HUGE], ids=_rid)
def test_gather_onto_a_pile_that_is_not_one_is_a_cardcore_error(stock: Any) -> None:
    state = _state()
    with pytest.raises(CardcoreError):
        gather(state, stock)


@pytest.mark.parametrize("cards", ["2S 3S", [None], ["2S"], None, 5], ids=_rid)
def test_fill_stock_refuses_what_is_not_a_list_of_cards(cards: Any) -> None:
    state = GameState(3, {}, Zones(DLAYOUT))
    with pytest.raises(CardcoreError):
        fill_stock(state, 0, cards)


# -- session settings -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "kwargs"),
    [
        (TimeControl, {"turn": 0}),
        (TimeControl, {"turn": -1}),
        (TimeControl, {"turn": math.nan}),
        (TimeControl, {"total": math.inf}),
        (TimeControl, {"turn": "5"}),
        (TimeControl, {"turn": True}),
        (TimeControl, {"turn": np.float64(2.0)}),
        (TimeControl, {"fallback": "FIRST"}),
        (TimeControl, {"restart": ""}),
        (TimeControl, {"max_steps": 0}),
        (TimeControl, {"max_steps": 1.0}),
        (Limits, {"max_message": 63}),
        (Limits, {"rate": 0}),
        (Limits, {"burst": None}),
        (Limits, {"max_spectators": -1}),
        (SessionConfig, {"spectators": "no"}),
        (SessionConfig, {"spectator_delay": -1}),
        (SessionConfig, {"takeback_timeout": math.nan}),
        (SessionConfig, {"resync_keep": 0}),
        (SessionConfig, {"resync_keep": 10**7}),
        (SessionConfig, {"start": "later"}),
        (SessionConfig, {"time": {}}),
        (SessionConfig, {"limits": None}),
        (SessionConfig, {"seat_entropy": True}),
    ],
    ids=lambda v: getattr(v, "__name__", None) or _rid(v),
)
def test_session_settings_raise_option_error_for_bad_values(
    kind: type, kwargs: dict[str, Any]
) -> None:
    name = next(iter(kwargs))
    with pytest.raises(OptionError, match=name):
        kind(**kwargs)


@pytest.mark.parametrize(
    "data",
    [None, 5, "ab", [], {"nope": 1}, {"time": 5}, {"time": {"nope": 1}}, {"limits": "x"}],
    ids=_rid,
)
def test_session_config_from_data_raises_option_error_as_documented(data: Any) -> None:
    with pytest.raises(OptionError):
        SessionConfig.from_data(data)


def test_session_config_round_trips_through_its_data() -> None:
    config = SessionConfig(time=TimeControl(turn=30.0), fair=True, seat_entropy=True)
    assert SessionConfig.from_data(config.to_json()) == config


@pytest.mark.parametrize(
    "build",
    [
        lambda: TimeControl(turn=HUGE),
        lambda: TimeControl(total=HUGE),
        lambda: Limits(rate=HUGE),
        lambda: SessionConfig(takeback_timeout=HUGE),
        lambda: SessionConfig(entropy_wait=HUGE),
        lambda: SessionConfig(token_ttl=HUGE),
        lambda: SessionConfig.from_data({"time": {"turn": HUGE}}),
    ],
    ids=["turn", "total", "rate", "takeback_timeout", "entropy_wait", "token_ttl", "from_data"],
)
def test_session_settings_refuse_a_huge_number_of_seconds_with_option_error(build: Any) -> None:
    with pytest.raises(OptionError):
        build()


def test_limits_rate_refusal_names_messages_per_second() -> None:
    with pytest.raises(OptionError) as info:
        Limits(rate=0)
    assert "seconds" not in str(info.value)


# -- fair deals -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bundle() -> dict[str, Any]:
    fair = FairDeal.fresh(2)
    game = cardcore.new_game("golf", 2, seed=fair.seed)
    return fair.bundle("s1", game.record())


def _with(bundle: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(bundle)
    place = out
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return out


def test_verify_bundle_accepts_the_bundle_of_a_fair_deal(bundle: dict[str, Any]) -> None:
    report = verify_bundle(bundle, bundle["commitment"].upper())
    assert report.seed == bundle["seed"] and report.game == "golf"


@pytest.mark.parametrize(
    ("path", "value", "error"),
    [
        (("seed",), HUGE, FairDealError),
        (("seed",), True, FairDealError),
        (("record", "seed"), "x" * 1000, FairDealError),
        (("commitment",), "\ud800", FairDealError),
        (("commitment",), 5, CorruptStateError),
        (("entropy",), ["\ud800", None], CorruptStateError),
        (("entropy",), [5, None], CorruptStateError),
        (("entropy",), ["a"], CorruptStateError),
        (("server_seed",), "zz", CorruptStateError),
        (("server_seed",), "00" * 31, CorruptStateError),
        (("salt",), 5, CorruptStateError),
        (("format_version",), True, CorruptStateError),
        (("record",), None, CorruptStateError),
        (("record", "deck"), [], FairDealError),
        (("record", "actions"), "x", CorruptStateError),
        (("record", "options"), {"layout": HUGE}, CorruptStateError),
    ],
    ids=_rid,
)
def test_verify_bundle_raises_as_documented(
    bundle: dict[str, Any], path: tuple[str, ...], value: Any, error: type
) -> None:
    with pytest.raises(error):
        verify_bundle(_with(bundle, path, value))


def test_verify_bundle_of_a_record_with_a_huge_seed_is_a_fair_deal_error(
    bundle: dict[str, Any],
) -> None:
    with pytest.raises(CardcoreError):
        verify_bundle(_with(bundle, ("record", "seed"), HUGE))


@pytest.mark.parametrize(
    "data",
    [
        None,
        {},
        {"server_seed": "zz", "salt": "", "entropy": []},
        {"server_seed": 5, "salt": "", "entropy": []},
        {"server_seed": "00", "salt": "00", "entropy": 5},
        {"server_seed": "00", "salt": "00", "entropy": "ab"},
    ],
    ids=_rid,
)
def test_fair_deal_from_data_refuses_malformed_material(data: Any) -> None:
    with pytest.raises(CardcoreError):
        FairDeal.from_data(data)


@pytest.mark.parametrize("players", [-1, 1.5, None, "2", HUGE], ids=_rid)
def test_fair_deal_fresh_refuses_a_count_that_is_not_seats(players: Any) -> None:
    with pytest.raises(CardcoreError):
        FairDeal.fresh(players)


@pytest.mark.parametrize("entropy", [["\ud800"], [5], [b"x"]], ids=_rid)
def test_seed_of_entropy_that_is_not_text_is_a_cardcore_error(entropy: Any) -> None:
    with pytest.raises(CardcoreError):
        seed_of(b"x" * 32, entropy)


# -- rl configuration and environments ------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 0},
        {"players": 1},
        {"players": 1.5},
        {"players": True},
        {"players": HUGE},
        {"players": np.float64(2.0)},
        {"options": 5},
        {"options": {"nope": 1}},
        {"rewards": None},
        {"rewards": "WIN"},
        {"max_actions": 0},
        {"max_actions": 1.5},
        {"max_actions": True},
        {"max_actions": "5"},
        {"reaction": -1},
        {"reaction": math.nan},
        {"reaction": HUGE},
        {"reaction": "0.5"},
        {"reaction": [0.5]},
        {"reaction": [0.5, math.nan]},
        {"reaction": True},
        {"reaction": {0: 0.5, 1: 0.5}},
    ],
    ids=lambda kw: "-".join(f"{k}={_id(v) or repr(v)}" for k, v in kw.items()),
)
def test_rl_config_raises_option_error_as_documented(kwargs: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        Config("golf", **{"players": 2, **kwargs})


@pytest.mark.parametrize("rules", ["golf.jokers", None, 5], ids=_rid)
def test_rl_config_refuses_rules_that_are_not_a_list_with_argument_error(rules: Any) -> None:
    with pytest.raises(ArgumentError, match="rules takes a list of names"):
        Config("golf", 2, rules=rules)


def test_rl_config_takes_numpy_numbers_and_caps_a_huge_max_actions() -> None:
    config = Config("golf", np.int64(2), max_actions=HUGE, reaction=np.float32(0.25))
    assert config.players == 2 and config.reaction == [0.25, 0.25]
    assert config.bound == Config("golf", 2).bound


def test_rl_config_refuses_bytes_for_reaction() -> None:
    with pytest.raises(OptionError, match="reaction"):
        Config("golf", 2, reaction=b"ab")


@pytest.mark.parametrize("seed", [-1, 1.5, "1", HUGE, 2**128, True, np.int64(3)], ids=_id)
def test_match_refuses_a_seed_that_is_not_a_game_seed(seed: Any) -> None:
    with pytest.raises(CardcoreError, match="seed"):
        Match(Config("golf", 2), seed)


def test_match_of_something_that_is_not_a_config_is_an_argument_error() -> None:
    with pytest.raises(ArgumentError):
        Match(None, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("num_envs", [0, -1, 1.5, None, "2", True], ids=_rid)
def test_vector_env_refuses_a_count_of_games_that_is_not_positive(num_envs: Any) -> None:
    with pytest.raises(OptionError, match="num_envs"):
        vector_env("golf", num_envs)


@pytest.mark.parametrize(
    "kwargs",
    [{"seat": 2}, {"seat": None}, {"copy": None}, {"copy": 1}, {"opponents": None}],
    ids=_rid,
)
def test_vector_env_refuses_bad_seat_copy_and_opponents(kwargs: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        vector_env("golf", 2, **kwargs)


@pytest.mark.parametrize("render_mode", ["x", 5, "HUMAN"], ids=_rid)
def test_aec_env_refuses_an_unknown_render_mode(render_mode: Any) -> None:
    with pytest.raises(OptionError, match="render_mode"):
        aec_env("golf", 2, render_mode=render_mode)


# -- the game a session plays (GameSetup) ---------------------------------------------------

_SETUP = GameSetup(game="golf", players=("a", "b"))


@pytest.mark.parametrize(
    "data",
    [
        None,
        {},
        {"game": "golf"},
        {"game": 5, "players": ["a", "b"]},
        {"game": "golf", "players": "ab"},
        {"game": "golf", "players": ["a", "b"], "rules": "golf.jokers"},
        {"game": "golf", "players": ["a", "b"], "without": {"a": 1}},
        {"game": "golf", "players": ["a", "b"], "options": []},
        {"game": "golf", "players": ["a", "b"], "deck": "2S"},
    ],
    ids=_rid,
)
def test_game_setup_from_data_raises_option_error_as_documented(data: Any) -> None:
    with pytest.raises(OptionError):
        GameSetup.from_data(data)


@pytest.mark.parametrize("seed", [-1, 1.5, "1", HUGE, 2**128], ids=_rid)
def test_game_setup_build_refuses_a_seed_that_is_not_a_game_seed(seed: Any) -> None:
    with pytest.raises(OptionError, match="seed"):
        _SETUP.build(seed)


@pytest.mark.parametrize(
    "action",
    [(5, "draw", None), (0, "nope", None), (0, "draw", "x"), (0, "draw", math.nan)],
    ids=_rid,
)
def test_game_setup_build_of_an_action_that_does_not_replay_is_corrupt_state(
    action: Any,
) -> None:
    with pytest.raises(CorruptStateError, match="does not replay"):
        _SETUP.build(1, [action])


@pytest.mark.parametrize("actions", [[(0, "draw")], ["x"], None, 5], ids=_rid)
def test_game_setup_build_of_malformed_actions_is_corrupt_state(actions: Any) -> None:
    with pytest.raises(CorruptStateError):
        _SETUP.build(1, actions)


@pytest.mark.parametrize("chance", [99, "2", None, 0], ids=_rid)
def test_game_setup_build_refuses_a_chance_derivation_it_does_not_know(chance: Any) -> None:
    with pytest.raises(CardcoreError):
        _SETUP.build(7, chance=chance)


@pytest.mark.parametrize(
    "kwargs",
    [{"players": "ab"}, {"rules": "golf.jokers"}, {"options": None}, {"players": None}],
    ids=_rid,
)
def test_game_setup_refuses_text_for_lists_and_non_mappings(kwargs: dict[str, Any]) -> None:
    with pytest.raises(CardcoreError):
        GameSetup(**{"game": "golf", "players": ("a", "b"), **kwargs}).to_json()
