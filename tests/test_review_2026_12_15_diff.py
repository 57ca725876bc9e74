"""Review of 57a6ceb..7f7252e (the kit's sampled-view check, ``Clocks.ends_round(actor,
seats)``, restores after ``truncate``, ``deal_all``, ``_record_rules``, Golf's
``golf_score_table(layout, options)``, CLI hints, docs).

Claims that hold pass; each fault found is an ``xfail(strict=True)`` asserting the right
behaviour. Every game here is dealt from a fixed seed or an explicit deck.
"""

from __future__ import annotations

import random
import types
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import (
    Card,
    GameState,
    Layout,
    Option,
    PluginError,
    RuleInfo,
    Visibility,
    Zones,
    ZoneSpec,
    dealing,
    hookimpl,
    parse_cards,
    standard_52,
)
from cardcore.cli.screen import resolve
from cardcore.deck import shuffle
from cardcore.errors import ArgumentError, NotationError, SeatError
from cardcore.testing._probes import _view_differs
from cardcore_golf.rules import BASIC

# --------------------------------------------------------------------------- golf_score_table

# Three house rules of Golf, registered in place. Rules are registered in the order of
# their IDs and pluggy asks the last registered first, so "golf.rv1215-opts" (ID RV-Z-1)
# answers golf_score_table before "golf.rv1215-bad" (ID RV-B-1).

OPTS = types.ModuleType("rv1215_opts")
OPTS.RULE = RuleInfo(
    id="RV-Z-1",
    name="golf.rv1215-opts",
    game="golf",
    summary="JH scores jh_value (7 defers to the next rule)",
    version="1.0.0",
    options=(Option("jh_value", default=-3, minimum=-10, maximum=10, doc="what JH scores"),),
)


def _opts_table(layout: Any, options: Any) -> Any:
    if options["jh_value"] == 7:
        return None  # defers: the next rule answers
    return BASIC.replace({"JH": options["jh_value"]})


OPTS.golf_score_table = hookimpl(specname="golf_score_table")(_opts_table)

BAD = types.ModuleType("rv1215_bad")
BAD.RULE = RuleInfo(
    id="RV-B-1",
    name="golf.rv1215-bad",
    game="golf",
    summary="answers a bad table",
    version="1.0.0",
)


def _bad_table(layout: Any) -> Any:  # takes no options: the blame can ask it again
    return "not a table"


BAD.golf_score_table = hookimpl(specname="golf_score_table")(_bad_table)

NO_KINGS = types.ModuleType("rv1215_no_kings")
NO_KINGS.RULE = RuleInfo(
    id="RV-C-1",
    name="golf.rv1215-no-kings",
    game="golf",
    summary="answers a table without kings",
    version="1.0.0",
)


def _no_kings(layout: Any) -> Any:
    return cardcore.ScoreTable.from_ranks(
        {rank: points for rank, points in BASIC.by_rank.items() if rank.label != "K"}
    )


NO_KINGS.golf_score_table = hookimpl(specname="golf_score_table")(_no_kings)


@pytest.fixture
def golf_rules() -> Iterator[None]:
    done = []
    try:
        for module in (OPTS, BAD, NO_KINGS):
            cardcore.register("cardcore.rules", module.RULE.name, module)
            done.append(module.RULE.name)
        yield
    finally:
        for name in reversed(done):
            cardcore.unregister("cardcore.rules", name)


def test_golf_score_table_gets_a_rules_own_option(golf_rules: None) -> None:
    """hookspecs.rst / changelog: a rule sets card values by its own option."""
    for value in (-5, 4):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.rv1215-opts"], seed=1, options={"jh_value": value}
        )
        plan = game.logic.plan(2, game.options)
        assert plan.points[Card.parse("JH")] == value
        assert plan.points[Card.parse("JS")] == 10  # BASIC: only JH replaced


@pytest.mark.parametrize(
    ("bad", "word"),
    [("golf.rv1215-bad", "a ScoreTable"), ("golf.rv1215-no-kings", "not K")],
)
def test_a_bad_table_blames_the_rule_that_answered_it(
    golf_rules: None, bad: str, word: str
) -> None:
    with pytest.raises(PluginError, match=word) as info:
        cardcore.new_game(
            "golf", 2, rules=["golf.rv1215-opts", bad], seed=1, options={"jh_value": 7}
        )
    assert info.value.plugin == bad  # golf.rv1215-opts answered None


def test_a_bad_table_of_one_rule_alone_blames_it(golf_rules: None) -> None:
    with pytest.raises(PluginError, match="a ScoreTable") as info:
        cardcore.new_game("golf", 2, rules=["golf.rv1215-bad"], seed=1)
    assert info.value.plugin == "golf.rv1215-bad"


# --------------------------------------------------------------------------- deal_all


def _state(cards: int) -> GameState:
    layout = Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("discard", None, Visibility.TOP),
            *(ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(3)),
        ]
    )
    state = GameState(3, {}, Zones(layout))
    dealing.fill_stock(state, 0, list(standard_52())[:cards])
    return state


@pytest.mark.parametrize(("first", "sizes"), [(0, [2, 2, 1]), (1, [1, 2, 2]), (-1, [2, 1, 2])])
def test_deal_all_uneven_first_gets_more_every_card_once(first: int, sizes: list[int]) -> None:
    state = _state(5)
    before = sorted(map(str, state.zones.cards[0]))
    dealing.deal_all(state, 0, [2, 3, 4], first=first)
    cards = state.zones.cards
    assert [len(cards[z]) for z in (2, 3, 4)] == sizes and cards[0] == []
    assert sorted(str(c) for z in (2, 3, 4) for c in cards[z]) == before
    for seat, z in enumerate((2, 3, 4)):  # each hand shows itself to its owner only
        assert None not in state.zones.show(z, seat)
        assert set(state.zones.show(z, (seat + 1) % 3)) <= {None}


@pytest.mark.parametrize(
    ("hands", "first"),
    [([2, 0], 0), ([2, 3], True), ([2, 3], np.int64(0)), (np.array([2, 3]), 0), ([2, 9], 0)],
)
def test_deal_all_refusals_are_argument_errors_dealing_nothing(hands: Any, first: Any) -> None:
    state = _state(7)
    before = [list(p) for p in state.zones.cards]
    with pytest.raises(ArgumentError):
        dealing.deal_all(state, 0, hands, first=first)
    assert [list(p) for p in state.zones.cards] == before


def test_deal_round_robin_now_refuses_the_stock_among_hands_even_for_zero_cards() -> None:
    state = _state(7)
    with pytest.raises(ArgumentError, match="stock"):
        dealing.deal_round_robin(state, 0, [2, 0], 0)


# --------------------------------------------------------------------------- the kit's view compare


def test_view_differs_ignores_version_and_legal_order_and_names_only_keys() -> None:
    real = {"version": 9, "seat": 0, "legal": ["b", "a"], "table": {"hand": ["AS"], "n": 1}}
    same = {"version": 0, "seat": 0, "legal": ["a", "b"], "table": {"hand": ["AS"], "n": 1}}
    assert _view_differs(same, real) == ""
    other = {"version": 0, "seat": 0, "legal": ["a"], "table": {"hand": ["KH"], "n": 1}}
    differs = _view_differs(other, real)
    assert differs == "table['hand'], legal"
    assert "KH" not in differs and "AS" not in differs  # key names only, never a card


# --------------------------------------------------------------------------- small claims


@pytest.mark.parametrize(
    ("text", "hint"),
    [("2", "type #2 for menu item 2"), ("0", "type #1 to #3"), ("4", "type #1 to #3")],
)
def test_a_bare_number_hint_names_a_real_menu_item(text: str, hint: str) -> None:
    with pytest.raises(NotationError, match=hint):
        resolve(text, ["draw", "take", "knock"])


def test_the_host_seat_hint_only_for_minus_one() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(SeatError, match="the host, may only send 'end'"):
        game.act(-1, "flip 0")
    with pytest.raises(SeatError) as info:
        game.act(True, "flip 0")  # a bool is no seat, and no host
    assert "host" not in str(info.value)
    with pytest.raises(SeatError) as info:
        game.act(-2, "flip 0")
    assert "host" not in str(info.value)
    assert game.version == 0


def test_a_truncated_game_keeps_its_result_through_clone_record_and_save() -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    for _ in range(6):
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    game.truncate()
    result = game.result
    assert result is not None and result.reason == "truncated"
    record = game.record()
    assert record["truncated"] is True  # still a bool: old readers and records agree
    for again in (game.clone(), cardcore.replay(record), cardcore.load(game.save())):
        assert again.is_over and again.result == result and again.to_act == ()


def test_read_only_numpy_arrays_are_refused_before_a_draw() -> None:
    cards = np.array(parse_cards("AS 2S 3S 4S"), dtype=object)
    cards.flags.writeable = False
    with pytest.raises(ArgumentError):
        shuffle(cards, random.Random(1))
    assert [str(c) for c in cards] == ["AS", "2S", "3S", "4S"]


def test_a_zero_padded_bare_number_hint_names_its_item_as_hash_does() -> None:
    legal = ["draw", "take", "knock"]
    assert resolve("#0000000002", legal) == "take"
    with pytest.raises(NotationError, match="type #2 for menu item 2"):
        resolve("0000000002", legal)
