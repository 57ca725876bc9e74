"""Senior review of the late 2026-12-18 changes (``git diff 1a9dce1..HEAD``): Tonk's
``tonk_out_units`` reading the game's options, a refused rule option naming its rule, clock
ties drawn from the game's seed, the lobby's JSON-speaking time errors, and the benchmarks
(``bare_tonk.py``'s spreads read off masks, ``replay_split.py``).

Each strict xfail is a bug found here; every other test is a claim that held when run.
Everything is seeded or a stacked deck; the rules are registered in place and removed after.
"""

from __future__ import annotations

import contextlib
import io
import random
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import Option, Resign, RuleInfo, cli, hookimpl
from cardcore.compare import compare
from cardcore.session import MemoryStore, Session, SessionConfig, TimeControl
from cardcore.session.clocks import GAME_CLOCK, Clocks
from cardcore.web._requests import WebError, time_control
from tests.session.kit import Table

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"

# seat 1 deals, so seat 0 holds 5H 6H 7H 8C 9C, draws 10C and lays two runs: a tonk-out
# with a new spread (as in tests/test_house_rule_options_author_2026_12_18.py)
TONK_OUT_DECK = "5H 2S 6H 3S 7H 4D 8C 6D 9C 8S KD 10C QD AS"
TONK_OUT = ["draw", "spread 5H 6H 7H", "spread 8C 9C 10C"]


def _module(rule: RuleInfo, **hooks: object) -> types.ModuleType:
    module = types.ModuleType(rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule
    vars(module).update(hooks)
    return module


@hookimpl
def _units_by_option(new_spread: bool, options: Any) -> Any:
    units = options["units"]
    return "lots" if units == 9 else units  # a bad answer under one value only


@hookimpl(wrapper=True)
def _units_times(new_spread: bool, options: Any) -> Iterator[None]:
    got = yield
    return got * options["times"]


@hookimpl
def _no_veto(state: Any, action: Any) -> None:
    return None


UNITS = RuleInfo(
    id="XREV-UNITS-1",
    name="tonk.rev-units",
    game="tonk",
    summary="A tonk-out pays the units option (no rule ID on the option)",
    options=(Option("units", default=5, minimum=1, maximum=10),),
)
TIMES = RuleInfo(
    id="XREV-TIMES-1",
    name="tonk.rev-times",
    game="tonk",
    summary="A wrapper multiplies a tonk-out's stakes by the times option",
    options=(Option("times", default=1, minimum=1, maximum=5),),
)
OTHER = RuleInfo(
    id="XREV-OTHER-1",
    name="tonk.rev-other",
    game="tonk",
    summary="An option that shares nothing with the others",
    options=(Option("other", default=5, minimum=1, maximum=10),),
)
RULES = {
    UNITS.name: _module(UNITS, tonk_out_units=_units_by_option),
    TIMES.name: _module(TIMES, tonk_out_units=_units_times),
    OTHER.name: _module(OTHER, forbid_action=_no_veto),
}


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    for name, module in RULES.items():
        cardcore.register("cardcore.rules", name, module)
    try:
        yield
    finally:
        for name in RULES:
            cardcore.unregister("cardcore.rules", name)


def _tonk(rules: list[str], moves: list[str] = TONK_OUT, **options: int) -> cardcore.Game:
    game = cardcore.new_game(
        "tonk", 2, deck=TONK_OUT_DECK, seed=1, rules=rules, options={"first_dealer": 1, **options}
    )
    for text in moves:
        game.act(0, text)
    return game


def _cli(args: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    return code, err.getvalue()


# -- tonk_out_units with options --------------------------------------------------------------


def test_tonk_out_units_is_asked_with_the_games_options_and_survives_replay_and_load() -> None:
    assert _tonk([UNITS.name]).result.payouts == (5, -5)  # the default
    game = _tonk([UNITS.name], units=7)
    assert game.result.payouts == (7, -7)
    assert game.logic.out_units == (5, 5)  # asked under the defaults at config time
    assert cardcore.replay(game.record()).result.payouts == (7, -7)
    assert cardcore.load(game.save()).result.payouts == (7, -7)


def test_tonk_out_units_with_options_next_to_double_needs_spread_in_either_order() -> None:
    for rules in (
        [UNITS.name, "tonk.double-needs-spread"],
        ["tonk.double-needs-spread", UNITS.name],
    ):
        assert _tonk(rules, units=7).result.payouts == (7, -7), rules


def test_a_wrapper_taking_options_is_asked_at_each_tonk_out() -> None:
    game = _tonk([TIMES.name], times=3)
    assert game.logic.units_by_options is not None
    assert game.result.payouts == (6, -6)  # the game's 2 stakes, times 3
    both = _tonk([TIMES.name, "tonk.double-needs-spread"], times=3)
    assert both.logic.out_units == (1, 2) and both.result.payouts == (6, -6)


def test_without_an_options_reader_the_payout_is_the_config_time_answer() -> None:
    game = _tonk(["tonk.double-needs-spread"])
    assert game.logic.units_by_options is None and game.result.payouts == (2, -2)


def test_a_bad_answer_under_other_options_is_refused_at_the_tonk_out_naming_the_rule() -> None:
    """Config time asks under the defaults only, so ``units=9`` builds a game; the tonk-out
    refuses the answer by the rule's name and leaves the game as it was."""
    game = _tonk([UNITS.name], TONK_OUT[:2], units=9)
    version = game.version
    with pytest.raises(cardcore.PluginError) as info:
        game.act(0, TONK_OUT[2])
    assert "answered 'lots'" in str(info.value) and info.value.plugin == UNITS.name
    assert game.version == version and not game.is_over


# -- a refused rule option names its rule -----------------------------------------------------


def test_two_rules_sharing_nothing_each_name_their_own_option() -> None:
    rules = [UNITS.name, OTHER.name]
    for options, rule in [({"units": 3, "other": 11}, OTHER.name), ({"units": 0}, UNITS.name)]:
        with pytest.raises(cardcore.OptionError) as info:
            cardcore.new_game("tonk", 2, rules=rules, options=options)
        assert str(info.value).endswith(f"(an option of house rule {rule!r})")


def test_compare_prefixes_configuration_b_before_the_rules_name() -> None:
    with pytest.raises(cardcore.OptionError) as info:
        compare("tonk", vs=[UNITS.name], vs_options={"units": 0}, games=2)
    assert str(info.value) == (
        "configuration B: option 'units' must be at least 1, not 0"
        f" (an option of house rule {UNITS.name!r})"
    )
    code, err = _cli(
        ["compare", "tonk", "--vs", UNITS.name, "--vs-option", "units=11", "--games", "2"]
    )
    assert code == 2 and f"(an option of house rule {UNITS.name!r})" in err


def test_a_command_line_value_of_the_wrong_type_names_the_rule_too() -> None:
    code, err = _cli(["simulate", "tonk", "--rules", UNITS.name, "-o", "units=abc", "--games", "1"])
    assert code == 2 and "option 'units' must be int" in err
    assert UNITS.name in err


# -- clock ties drawn from the game's seed ----------------------------------------------------


def _first_to_lose(seed: int, session_id: str) -> int:
    config = SessionConfig(time=TimeControl(turn=5.0, forfeit=True))
    session = Session.create(
        "spit", 2, now=0.0, seed=seed, config=config, store=MemoryStore(), session_id=session_id
    )
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    t.tick(5.0)  # both idle clocks started together and run out together
    game = session.game
    assert game is not None and game.is_over
    return next(a.seat for _, a, _ in game.record_entries() if type(a) is Resign)


def test_a_tie_is_decided_by_the_seed_not_the_session_id() -> None:
    for seed in (1, 2, 3):
        assert _first_to_lose(seed, "review-one") == _first_to_lose(seed, "review-two")


def test_clock_ties_with_three_and_four_seats_and_the_game_clock() -> None:
    control = TimeControl(turn=5.0, total=100.0)
    for seats in (3, 4):
        firsts = set()
        for salt in range(40):
            clocks = Clocks(control, realtime=False)
            clocks.turn = dict.fromkeys(range(seats), 5.0)
            due = clocks.due(6.0, repr(salt))
            assert due is not None and due[0] == 5.0
            assert due == clocks.due(6.0, repr(salt))  # the same draw every time
            firsts.add(due[1])
        assert firsts == set(range(seats))  # never by seat number
    clocks = Clocks(control, realtime=False)
    clocks.turn, clocks.total = {0: 5.0, 1: 5.0}, 5.0
    assert clocks.due(6.0, "7") == (5.0, GAME_CLOCK)  # the game clock first on a tie
    clocks.total = 5.5
    assert clocks.due(6.0, "7") in {(5.0, 0), (5.0, 1)}


# -- the lobby's time errors ------------------------------------------------------------------


def test_lobby_time_errors_name_null_true_and_false_as_json() -> None:
    for value, word in [
        ({"forfeit": None}, "null"),
        ({"turn": True}, "true"),
        ({"total": False}, "false"),
    ]:
        with pytest.raises(WebError) as info:
            time_control(value)
        assert str(info.value).endswith(f", not {word}")


def test_lobby_fallback_error_names_true_as_json() -> None:
    with pytest.raises(WebError) as info:
        time_control({"turn": 5, "fallback": True})
    assert str(info.value).endswith("not true")


# -- benchmarks ------------------------------------------------------------------------------


def test_bare_tonk_check_plays_the_documented_decisions() -> None:
    """docs/performance.rst: ``--check``: 9,299 Tonk decisions with drops, 283,410 without."""
    out = subprocess.run(
        [sys.executable, str(BENCH / "bare_tonk.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=ROOT,
    ).stdout
    assert "every hand identical: {'hands': 2000, 'decisions': 9299," in out
    assert "no drops, every hand identical: {'hands': 2000, 'decisions': 283410," in out


@pytest.fixture
def bench_path() -> Iterator[None]:
    sys.path.insert(0, str(BENCH))
    try:
        yield
    finally:
        sys.path.remove(str(BENCH))


@pytest.mark.usefixtures("bench_path")
def test_spreads_read_off_masks_equal_the_scan_on_full_hands() -> None:
    import bare_tonk

    rnd = random.Random(2026)
    for _ in range(3000):
        hand = sorted(rnd.sample(range(52), rnd.randint(3, 20)))
        mask, counts = sum(bare_tonk.BIT[c] for c in hand), sum(bare_tonk.RANK_ONE[c] for c in hand)
        assert bare_tonk._spreads_of(mask, counts) == bare_tonk._spreads(hand), hand
    every = list(range(52))  # the longest runs and every book at once
    mask, counts = sum(bare_tonk.BIT[c] for c in every), sum(bare_tonk.RANK_ONE[c] for c in every)
    assert bare_tonk._spreads_of(mask, counts) == bare_tonk._spreads(every)


@pytest.mark.usefixtures("bench_path")
def test_replay_split_records_hold_the_documented_actions() -> None:
    """docs/performance.rst: 400 one-hand Tonk records of 4.7 actions each."""
    import run

    cfg = {c.key: c for c in run.CONFIGS}["tonk"]
    recs = [run.finished_game(cfg, 1000 + k).record() for k in range(400)]
    assert round(sum(len(r["actions"]) for r in recs) / len(recs), 1) == 4.7
