"""Review of 57a6ceb..HEAD (2026-12-14, late): the positions check's sampled views, the
session's early-ending rounds, restore keeping a truncation, deal_all, a record's rules,
the CLI's bare-number hints, shuffle's writability test and the docs claims added today."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import PluginError, dealing
from cardcore._earlier import rules_of_the_day
from cardcore.cli.screen import resolve
from cardcore.cli.workers import named
from cardcore.deck import Chance, shuffle
from cardcore.errors import ArgumentError, CardcoreError, NotationError
from cardcore.plugins import get_ruleset
from cardcore.records import _record_rules as record_rules
from cardcore.rl.match import win_rewards
from cardcore.session.clocks import Clocks
from cardcore.session.config import TimeControl
from cardcore.testing import check_positions
from tests.audit.test_core_mutants_2026_12_14 import _module, _take_turns
from tests.plugins import drawgame

# --------------------------------------------------------------------------- restore


class _ResultWiper(drawgame.DrawLogic):
    """The draw game whose view (``table``) wipes the state's result, then raises."""

    fail = False

    def table(self, state: Any, seat: int | None) -> dict[str, Any]:
        if type(self).fail:
            state.result = None
            raise RuntimeError("table broke")
        return super().table(state, seat)


class _FailingTable(drawgame.DrawLogic):
    """The draw game whose view raises (changing nothing) while ``fail`` is set."""

    fail = False

    def table(self, state: Any, seat: int | None) -> dict[str, Any]:
        if type(self).fail:
            raise RuntimeError("table broke")
        return super().table(state, seat)


@pytest.fixture
def games() -> Iterator[None]:
    made = [("rv-wiper", _ResultWiper), ("rv-failing", _FailingTable)]
    for name, logic in made:
        cardcore.register("cardcore.games", name, _module(name, logic))
    yield
    _ResultWiper.fail = _FailingTable.fail = False
    for name, _ in made:
        cardcore.unregister("cardcore.games", name)


def _truncated(name: str) -> cardcore.Game:
    game = cardcore.new_game(name, 2, seed=1)
    _take_turns(game, 5)
    game.truncate()
    assert game.is_over and game.result is not None and game.result.reason == "truncated"
    return game


def test_a_failing_view_that_clears_the_result_leaves_the_truncated_result(games: None) -> None:
    game = _truncated("rv-wiper")
    result = game.result
    _ResultWiper.fail = True
    with pytest.raises(PluginError, match="table broke"):
        game.view(0)
    _ResultWiper.fail = False
    assert game.is_over
    assert game.result == result
    assert cardcore.replay(game.record()).result == result


def test_a_clone_of_a_truncated_game_stays_over_after_a_failing_view(games: None) -> None:
    game = _truncated("rv-failing")
    copy = game.clone()
    _FailingTable.fail = True
    with pytest.raises(PluginError, match="table broke"):
        copy.view(1)
    _FailingTable.fail = False
    assert copy.is_over and copy.to_act == ()
    assert copy.result == game.result
    assert all(copy.legal_actions(s) == () for s in range(2))
    assert cardcore.replay(copy.record()).result == game.result


def test_a_failing_view_after_a_resignation_keeps_it(games: None) -> None:
    game = cardcore.new_game("rv-failing", 2, seed=1)
    _take_turns(game, 3)
    seat = game.to_act[0]
    game.act(seat, "resign")
    result = game.result
    assert game.is_over and result is not None
    _FailingTable.fail = True
    with pytest.raises(PluginError):
        game.view(0)
    _FailingTable.fail = False
    assert game.is_over and game.result == result


# --------------------------------------------------------------------------- positions check


def _speed_sampler_broken_for(seat: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Speed's position_from_view, wrong (a request the seat never saw) for *seat* only."""
    logic_cls = type(cardcore.new_game("speed", 2, seed=1).logic)
    good = logic_cls.position_from_view

    def broken(logic: Any, view: Any, zones: Any) -> str | None:
        text = good(logic, view, zones)
        if view["seat"] == seat and text is not None:
            text = text.replace("requests=[false,false]", "requests=[true,true]", 1)
        return text

    monkeypatch.setattr(logic_cls, "position_from_view", broken)


def test_the_positions_check_catches_a_sampler_wrong_for_seat_0(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _speed_sampler_broken_for(0, monkeypatch)
    report = check_positions("speed", games=3, seed=2, strict=False)
    assert any("sampled from seat 0" in f or "sample seat 0" in f for f in report.failures)


def test_the_positions_check_passes_the_shipped_games() -> None:
    for name in ("golf", "spit", "speed", "tonk", "gofish"):
        report = check_positions(name, games=2, seed=7, strict=False)
        assert report.failures == [], (name, report.failures)
        assert report.positions > 0


def test_the_positions_check_catches_a_sampler_wrong_for_seat_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _speed_sampler_broken_for(1, monkeypatch)
    report = check_positions("speed", games=3, seed=2, strict=False)
    assert report.failures


# --------------------------------------------------------------------------- clocks.ends_round


def _clocks(
    to_act: tuple[int, ...], *, realtime: bool = False, done: set[int] = frozenset()
) -> Clocks:
    clocks = Clocks(TimeControl(), realtime)
    clocks.to_act = to_act
    clocks.done = set(done)
    return clocks


def test_ends_round_not_for_a_single_seat_turn_of_several_actions() -> None:
    clocks = _clocks((0,))
    assert not clocks.ends_round(0, (0,))  # a draw, its discard next
    assert not clocks.ends_round(0, (1,))  # the turn passes: no round of several seats


def test_ends_round_for_the_last_bid_and_not_for_the_others() -> None:
    clocks = _clocks((0, 1, 2))
    assert not clocks.ends_round(0, (1, 2))  # one bid of three, face down
    assert not clocks.ends_round(0, (0, 1, 2))  # a part of several actions, still to act
    assert _clocks((2,), done={0, 1}).ends_round(2, (0, 1, 2))  # the last bid


def test_ends_round_for_a_doubt_that_ends_the_window_early() -> None:
    assert _clocks((1, 2)).ends_round(1, (1,))  # the doubter takes the pile and lays next
    assert not _clocks((1, 2)).ends_round(None, (1,))  # the host's change: all stale anyway
    assert not _clocks((1, 2)).ends_round(0, (1,))  # not a seat of the round


def test_ends_round_never_in_real_time_for_several_seats() -> None:
    assert not _clocks((0, 1), realtime=True).ends_round(0, (1,))
    assert not _clocks((0, 1), realtime=True).ends_round(0, (0,))


# --------------------------------------------------------------------------- deal_all


def _state(hands: int = 3) -> cardcore.GameState:
    from cardcore import GameState, Layout, Visibility, Zones, ZoneSpec

    specs = [ZoneSpec("stock")]
    specs += [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(hands)]
    return GameState(hands, {}, Zones(Layout.of(specs)))


def test_deal_all_52_to_three_hands_make_18_17_17() -> None:
    state = _state(3)
    dealing.fill_stock(state, 0, list(cardcore.deck.standard_52()))
    dealing.deal_all(state, 0, [1, 2, 3])
    assert [len(p) for p in state.zones.cards] == [0, 18, 17, 17]
    state = _state(3)
    dealing.fill_stock(state, 0, list(cardcore.deck.standard_52()))
    dealing.deal_all(state, 0, [1, 2, 3], first=2)
    assert [len(p) for p in state.zones.cards] == [0, 17, 17, 18]
    assert state.zones.show(1, 0) != [None] * 17 and state.zones.show(1, 1) == [None] * 17


def test_deal_all_api_doc_example() -> None:
    state = _state(2)
    dealing.fill_stock(state, 0, list(reversed(cardcore.parse_cards("AS 2S 3S 4S 5S"))))
    dealing.deal_all(state, 0, [1, 2], first=1)
    assert [[str(c) for c in p] for p in state.zones.cards] == [
        [],
        ["2S", "4S"],
        ["AS", "3S", "5S"],
    ]


@pytest.mark.parametrize(
    ("hands", "first", "match"),
    [
        ([1, 0], 0, "cannot be one of the hands"),
        ([], 0, "no hands"),
        ([1, 9], 0, "each hand"),
        ([1, True], 0, "each hand"),
        ("12", 0, "list of pile ids"),
        (iter([1, 2]), 0, "list of pile ids"),
        ([1, 2], True, "first must be an int"),
        ([1, 2], 1.0, "first must be an int"),
    ],
)
def test_deal_all_refuses_and_deals_nothing(hands: Any, first: Any, match: str) -> None:
    state = _state(2)
    dealing.fill_stock(state, 0, list(cardcore.parse_cards("AS 2S 3S")))
    before = [list(p) for p in state.zones.cards]
    with pytest.raises(ArgumentError, match=match):
        dealing.deal_all(state, 0, hands, first=first)
    assert [list(p) for p in state.zones.cards] == before


def test_deal_all_of_an_empty_stock_to_no_hands_is_fine() -> None:
    state = _state(2)
    dealing.deal_all(state, 0, [])
    assert all(p == [] for p in state.zones.cards)


# --------------------------------------------------------------------------- records' rules


def test_record_rules_of_the_installed_version() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    rec = game.record()
    assert rules_of_the_day(rec) == ()
    assert record_rules(rec) == tuple(
        r for r in game.rules if r not in game.ruleset.game.default_rules
    )
    bad = dict(rec, game_version=7)  # refused by the full checks, not here
    assert rules_of_the_day(bad) == ()


def test_a_record_with_a_bad_version_is_refused_with_a_cardcore_error() -> None:
    rec = cardcore.new_game("golf", 2, seed=3).record()
    rec["game_version"] = 7
    with pytest.raises(CardcoreError):
        cardcore.replay(rec)


def test_named_meets_a_rule_by_name_and_by_id() -> None:
    from cardcore.plugins import rule_info

    info = rule_info("golf.jokers")
    assert named([info.id]) & named(["golf.jokers"]) == {"golf.jokers"}
    assert named(["no-such-rule"]) == {"no-such-rule"}


# --------------------------------------------------------------------------- CLI hints


@pytest.fixture
def legal() -> tuple[Any, ...]:
    game = cardcore.new_game("golf", 2, seed=1)
    return game.legal_actions(game.to_act[0])


def _hint(text: str, legal: Any) -> str:
    with pytest.raises(NotationError) as err:
        resolve(text, legal)
    return str(err.value)


def test_a_bare_number_names_its_item_or_the_menu_range(legal: Any) -> None:
    n = len(legal)
    assert n > 1
    assert "type #1 for menu item 1" in _hint("1", legal)
    assert f"type #{n} for menu item {n}" in _hint(str(n), legal)
    for text in ("0", str(n + 1), "12345678901234"):
        assert f"type #1 to #{n} for a menu item" in _hint(text, legal)
    assert "type #1 for the menu item" in _hint("0", legal[:1])
    assert "no action to choose now" in _hint("3", ())
    assert resolve("-1", legal) == "-1"  # not a bare number: the game's notation decides


# --------------------------------------------------------------------------- shuffle


def test_shuffle_refuses_read_only_arrays_and_views_and_changes_nothing() -> None:
    frozen = np.arange(10)
    frozen.flags.writeable = False
    for items in (frozen, memoryview(b"abcdefgh"), np.broadcast_to(np.arange(5), (5,))):
        before = bytes(memoryview(items)) if isinstance(items, memoryview) else items.tobytes()
        for rng in (random.Random(1), Chance(1, 0)):
            with pytest.raises(ArgumentError, match="shuffle takes a list"):
                shuffle(items, rng)
        after = bytes(memoryview(items)) if isinstance(items, memoryview) else items.tobytes()
        assert after == before


def test_shuffle_shuffles_writable_arrays_and_memoryviews() -> None:
    for rng in (random.Random(1), Chance(1, 0)):
        arr = np.arange(20)
        shuffle(arr, rng)
        assert sorted(arr.tolist()) == list(range(20)) and arr.tolist() != list(range(20))
        buf = bytearray(range(20))
        shuffle(memoryview(buf), rng)
        assert sorted(buf) == list(range(20)) and list(buf) != list(range(20))


# --------------------------------------------------------------------------- docs claims


def test_rl_doc_two_of_four_tie_for_the_win() -> None:
    assert win_rewards([0, 1], 4) == [1.0, 1.0, -1.0, -1.0]
    assert win_rewards([2], 4) == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3])
    assert win_rewards([], 3) == [0.0, 0.0, 0.0]
    assert win_rewards([0, 1, 2], 3) == [0.0, 0.0, 0.0]


def test_hookspecs_doc_a_resolved_hook_takes_keywords_only() -> None:
    table = get_ruleset("golf", [], []).resolve("golf_score_table")
    assert table is not None
    with pytest.raises(TypeError):
        table(None)


def test_the_positions_advice_fits_a_game_with_its_own_sampler(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _speed_sampler_broken_for(0, monkeypatch)
    report = check_positions("speed", games=3, seed=2, strict=False)
    assert report.failures
    assert not any("give the game position_from_view" in f for f in report.failures)
