"""Review of ba1a15a..368ab0d (house rules' own options, choice view fields, Tonk ``last``
and samples after a take, sessions' simultaneous rounds, argument checks, rule IDs in
any case).

Claims that hold pass; each fault found is an ``xfail(strict=True)`` asserting the right
behaviour.
"""

from __future__ import annotations

import json
import random
import types
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import (
    ArgumentError,
    Chance,
    GameState,
    Option,
    OptionError,
    PluginError,
    RuleInfo,
    ViewField,
    hookimpl,
)
from cardcore.events import jsonable
from cardcore.plugins import get_ruleset
from cardcore.search import sample_position
from cardcore.session.clocks import Clocks
from cardcore.session.config import TimeControl

# --- Tonk: a position carries last=[hand, dealer] (db4d8dd, ddd4a54, 4f7c7ca) -----------------


def _tonk_ended_between_hands() -> cardcore.Game:
    game = cardcore.new_game("tonk", 2, seed=4, options={"hands": 3})
    rng = random.Random(0)
    while game.view(0)["table"]["phase"] != "between":
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    game.act(game.to_act[0], "resign")
    return game


@pytest.fixture(scope="module")
def ended() -> tuple[cardcore.Game, str]:
    game = _tonk_ended_between_hands()
    position = game.position()
    # hand 1 was dealt by seat 0 (the cut's highest); seat 1 deals next
    assert ' cut=[["Q","3"]] ' in position and " dealer=1 " in position
    assert " last=[1,0] " in position
    return game, position


def _tonk_from(position: str) -> cardcore.Game:
    return cardcore.new_game("tonk", 2, position=position, seed=1, options={"hands": 3})


def test_tonk_last_deal_round_trips_through_the_position(ended) -> None:  # type: ignore[no-untyped-def]
    game, position = ended
    again = _tonk_from(position)
    want = {k: game.view(1)["table"][k] for k in ("hand_number", "dealer", "phase")}
    got = {k: again.view(1)["table"][k] for k in ("hand_number", "dealer", "phase")}
    assert got == want == {"hand_number": 1, "dealer": 0, "phase": "over"}
    assert again.position() == position
    assert cardcore.load(again.save()).position() == position


def test_tonk_last_past_the_hands_played_is_refused(ended) -> None:  # type: ignore[no-untyped-def]
    _, position = ended
    for last in ("[3,0]", "[0,0]", "[1,2]"):
        with pytest.raises(OptionError):
            _tonk_from(position.replace("last=[1,0]", f"last={last}"))


def test_tonk_last_dealer_must_precede_the_next_dealer(ended) -> None:  # type: ignore[no-untyped-def]
    _, position = ended
    with pytest.raises(OptionError):
        _tonk_from(position.replace("last=[1,0]", "last=[1,1]"))


def test_a_tonk_snapshot_without_a_position_has_no_last_deal() -> None:
    """4f7c7ca: saves written before ``last_deal`` still match their replayed state."""
    game = cardcore.new_game("tonk", 2, seed=3, options={"hands": 2})
    rng = random.Random(1)
    for _ in range(15):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    state = game._state  # type: ignore[attr-defined]
    assert "last_deal" not in state.snapshot()
    assert state.clone().last_deal is None
    loaded = cardcore.load(game.save())
    assert loaded.position() == game.position()


# --- Tonk: a sample just after a take (e2a3e55) ------------------------------------------------


def test_tonk_sample_after_a_take_holds_the_card_in_the_takers_hand_and_matches_the_view() -> None:
    checked = 0
    for seed in (0, 1):
        game = cardcore.new_game("tonk", 3, seed=seed)
        rnd = random.Random(seed)
        while not game.is_over and game.version < 80:
            legal = game.legal_actions(game.to_act[0])
            takes = [a for a in legal if str(a).startswith("take")]
            game.apply(takes[0] if takes and rnd.random() < 0.7 else rnd.choice(legal))
            table = game.view(None)["table"]
            if table["taken"] is None:
                continue
            taker = table["turn"]
            for viewer in (s for s in range(3) if s != taker):
                real = game.view(viewer)
                position = sample_position(real, random.Random(checked))
                world = cardcore.new_game("tonk", 3, position=position, seed=1)
                checked += 1
                assert world.view(viewer)["zones"] == real["zones"]
                held = [
                    c
                    for z in world.view(taker)["zones"]
                    if z["name"] in (f"hand.{taker}", "spreads")
                    for c in z["cards"]
                ]
                assert table["taken"] in held
    assert checked >= 10


# --- house rules' own options (10f3757, cb3ce14) -------------------------------------------------

CAP = "golf.review13-cap"


@hookimpl
def _score_round(state: GameState, scores: Sequence[int]) -> list[int]:
    cap = state.options["review13_cap"]
    return [min(s, cap) for s in scores]


@pytest.fixture
def cap() -> Iterator[str]:
    module = types.ModuleType("golf_review13_cap")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="REV13-CAP-1",
        name=CAP,
        game="golf",
        summary="capped",
        options=(Option("review13_cap", default=10, minimum=0, maximum=50, doc="cap"),),
    )
    module.score_round = _score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", CAP, module)
    yield CAP
    cardcore.unregister("cardcore.rules", CAP)


def test_a_rules_own_option_joins_the_games_options_only_with_the_rule(cap: str) -> None:
    game = cardcore.new_game("golf", 2, rules=[cap], options={"review13_cap": 3}, seed=1)
    assert game.options["review13_cap"] == 3
    assert "review13_cap" not in cardcore.new_game("golf", 2, seed=1).options
    with pytest.raises(OptionError, match=cap):
        cardcore.new_game("golf", 2, options={"review13_cap": 3}, seed=1)
    with pytest.raises(OptionError):
        cardcore.new_game("golf", 2, rules=[cap], options={"review13_cap": 99}, seed=1)
    ruleset = get_ruleset("golf", (cap,))
    assert ruleset.resolve_options(None)["review13_cap"] == 10
    again = cardcore.load(game.save())
    assert again.options["review13_cap"] == 3


def test_a_rule_option_named_like_a_games_option_is_a_plugin_error() -> None:
    module = types.ModuleType("golf_review13_clash")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="REV13-CLASH-1",
        name="golf.review13-clash",
        game="golf",
        summary="clash",
        options=(Option("layout", default=6),),
    )
    module.score_round = _score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.review13-clash", module)
    try:
        with pytest.raises(PluginError, match="layout"):
            cardcore.new_game("golf", 2, rules=["golf.review13-clash"], seed=1)
    finally:
        cardcore.unregister("cardcore.rules", "golf.review13-clash")


def test_a_rule_option_with_an_unhashable_default_is_refused_at_declaration() -> None:
    with pytest.raises(PluginError):
        RuleInfo(
            id="REV13-X-1",
            name="golf.review13-x",
            game="golf",
            summary="x",
            options=(Option("xs", default=[1], kind=list),),
        )


def test_an_options_refusal_lists_each_golf_layout_spelling_once() -> None:
    layout = next(o for o in cardcore.game_info("golf").options if o.name == "layout")
    with pytest.raises(OptionError) as caught:
        layout.check(7)
    text = str(caught.value)
    # each layout once: '6' and '4H' are aliases, read as 6 and '4h' (2026-12-06), never listed
    assert text.count("6") == 1 and "'4h'" in text and "'4H'" not in text and "'6'" not in text


def test_an_options_refusal_names_every_distinct_choice() -> None:
    opt = Option("mark", default="a", kind=str, choices=("a", "A", "b"))
    assert opt.check("A") == "A"  # a choice of its own
    with pytest.raises(OptionError) as caught:
        opt.check("c")
    assert "'A'" in str(caught.value)


def test_applies_refusal_names_every_distinct_value() -> None:
    info = RuleInfo(
        id="REV13-AP-1",
        name="golf.review13-ap",
        game="golf",
        summary="s",
        applies={"m": ("a", "A")},
    )
    info.check_applies({"m": "A"})  # served
    with pytest.raises(OptionError) as caught:
        info.check_applies({"m": "b"})
    assert "'A'" in str(caught.value)


# --- rule IDs in any case (368ab0d) ------------------------------------------------------------


def test_a_rule_id_names_its_rule_in_any_case() -> None:
    assert cardcore.new_game("golf", 2, rules=["golf-score-2"], seed=1).rules == ("golf.hard",)
    assert cardcore.new_game("golf", 2, rules=["Golf-Score-2"], seed=1).rules == ("golf.hard",)
    with pytest.raises(cardcore.CardcoreError):
        cardcore.new_game("golf", 2, rules=["golf-score-99"], seed=1)


# --- Ruleset.resolve, Chance, shuffle, jsonable (e2a3e55, ddd4a54) -----------------------------


@pytest.mark.parametrize("name", [None, 3, "__class__", "__init__", b"score_round"])
def test_ruleset_resolve_of_odd_names_is_a_plugin_error(name: Any) -> None:
    ruleset = get_ruleset("golf")
    with pytest.raises(PluginError):
        ruleset.resolve(name)


def test_ruleset_resolve_of_a_str_subclass_finds_the_hook() -> None:
    class Name(str):
        pass

    ruleset = get_ruleset("golf", ("golf.hard",))
    assert ruleset.resolve(Name("golf_score_table")) is not None
    assert ruleset.resolve("golf_score_table") is not None


def test_chance_takes_int_like_values_and_refuses_wrong_kinds() -> None:
    rng = Chance(1, 0)
    assert 0 <= rng.randrange(np.int64(5)) < 5
    assert len(rng.sample(range(9), np.int64(3))) == 3
    for call in (
        lambda: rng.randrange(2.5),
        lambda: rng.randrange(None),
        lambda: rng.shuffle((1, 2, 3)),
        lambda: rng.getrandbits("8"),
        lambda: cardcore.shuffle("abc", rng),
    ):
        with pytest.raises(ArgumentError):
            call()


def test_chance_shuffles_a_numpy_array_as_random_does() -> None:
    items = np.arange(6)
    random.Random(1).shuffle(items)  # random takes it
    items = np.arange(6)
    Chance(1, 0).shuffle(items)
    assert sorted(items.tolist()) == list(range(6))
    cardcore.shuffle(items, Chance(2, 0))
    assert sorted(items.tolist()) == list(range(6))


def test_jsonable_and_event_to_json_of_self_holding_data_are_argument_errors() -> None:
    loop: list[Any] = [1]
    loop.append(loop)
    with pytest.raises(ArgumentError):
        jsonable(loop)
    assert jsonable([1, (2, {"a": {3}})]) == [1, [2, {"a": [3]}]]


# --- view fields of kind "choice" (d6569a6, ddd4a54) ---------------------------------------------


def test_a_choice_field_is_a_one_hot_over_its_choices_and_none() -> None:
    from cardcore.rl.encoding import GenericEncoding

    suit = ViewField("called", "choice", choices=("C", "D", "H", "S"), nullable=True)
    assert json.loads(json.dumps(suit.to_json()))["choices"] == ["C", "D", "H", "S"]
    enc = GenericEncoding({"zones": [], "fields": [suit.to_json()]}, ["AS"], 2, 4)
    assert enc.planes == 5

    def hot(value: Any) -> list[int]:
        view = {"seat": 0, "zones": [], "table": {"called": value}, "to_act": [], "is_over": False}
        return enc.observe(view)[0]

    assert [hot(v) for v in ("C", "D", "H", "S", None, "X", 1)] == [
        [0],
        [1],
        [2],
        [3],
        [4],
        [4],
        [4],
    ]
    with pytest.raises(PluginError):
        ViewField("called", "str", choices=("C",))
    with pytest.raises(PluginError):
        ViewField("called", "choice")


# --- sessions: simultaneous rounds and clocks (e9d3109) ------------------------------------------


def test_the_last_bidder_of_a_round_gets_a_whole_clock_and_a_lone_turn_does_not() -> None:
    clocks = Clocks(TimeControl(turn=5.0), realtime=False)
    clocks.start((0, 1), 0.0)
    clocks.update((1,), 1.0, 0)  # seat 0 bid
    assert clocks.turn == {1: 5.0}
    assert clocks.renews((0, 1), 1) is True
    clocks.update((0, 1), 2.0, 1)  # seat 1's bid ends the round: both bid again
    assert clocks.turn == {0: 7.0, 1: 7.0}
    assert clocks.renewed(1, 2.0)
    # a call that brings in a seat that never acted begins no round
    clocks = Clocks(TimeControl(turn=5.0), realtime=False)
    clocks.start((0,), 0.0)
    assert clocks.renews((0, 1), 0) is False
    clocks.update((0, 1), 1.0, 0)
    assert clocks.turn == {0: 5.0, 1: 6.0}
    # a timeout at seat 0's deadline plays a step of a turn of several actions: no renewal
    clocks = Clocks(TimeControl(turn=5.0), realtime=False)
    clocks.start((0,), 0.0)
    clocks.update((0,), 5.0, 0)
    assert clocks.turn == {0: 5.0}
    assert not clocks.renewed(0, 5.0)


def test_clocks_saved_before_done_existed_still_load() -> None:
    clocks = Clocks(TimeControl(turn=5.0), realtime=False)
    clocks.load({"turn": {"1": 9.0}, "total": None, "to_act": [1]}, 3.0)
    assert clocks.done == set() and clocks.to_act == (1,)


# --- sessions: a bid on a view another seat's bid left as it was (e2a3e55, e9d3109) -----------


def _answer(replies: list[dict[str, Any]]) -> str:
    last = [r for r in replies if r["type"] in ("ok", "error")][-1]
    return "ok" if last["type"] == "ok" else last["code"]


@pytest.fixture
def goof() -> Iterator[types.ModuleType]:
    from tests.plugins import goofspiel_2026_12_12 as goof

    cardcore.register("cardcore.games", goof.NAME, goof)
    cardcore.register("cardcore.rules", goof.CARRY_NAME, goof.CARRY)
    added: list[str] = []
    goof.review13_added = added  # type: ignore[attr-defined]
    yield goof
    for name in added:
        cardcore.unregister("cardcore.games", name)
    cardcore.unregister("cardcore.rules", goof.CARRY_NAME)
    cardcore.unregister("cardcore.games", goof.NAME)


def _goof_table(name: str, players: int = 2, **kwargs: Any) -> Any:
    from cardcore.session import Session
    from tests.session.kit import Table

    t = Table(Session.create(name, ["Ann", "Bob", "Cy"][:players], now=0.0, seed=7, **kwargs))
    t.now = 1.0
    for seat in range(players):
        t.join("abc"[seat], seat)
    return t


def test_a_bid_on_the_deal_is_taken_after_another_seats_bid_and_a_round_end_is_stale(
    goof: types.ModuleType,
) -> None:
    t = _goof_table(goof.NAME, 3)
    assert _answer(t.act("a", "bid 0", 0.1, seen=0)) == "ok"
    assert _answer(t.act("c", "bid 0", 0.1, seen=0)) == "ok"  # same view: not stale
    assert _answer(t.act("b", "bid 0", 0.1, seen=0)) == "ok"  # the last bid ends round 1
    assert t.view("a")["table"]["round"] == 2
    assert _answer(t.act("a", "bid 0", 0.1, seen=2)) == "stale"  # the round end changed it
    assert _answer(t.act("b", "bid 0", 0.1, seen=2)) == "stale"  # its own round-ending bid
    assert _answer(t.act("b", "bid 0", 0.1, seen=3)) == "ok"


def test_a_bid_made_before_a_seen_card_moved_is_stale(goof: types.ModuleType) -> None:
    class Withdrawn(goof.GoofLogic):  # type: ignore[name-defined,misc]
        def apply(self, state: Any, action: Any, emit: Any) -> None:
            if state.to_act != (action.seat,) and state.zones.cards[goof.PRIZE]:
                state.zones.move(goof.PRIZE, goof.DISCARD, mask=goof.ALL)  # prize withdrawn
            super().apply(state, action, emit)

    name = "goof-withdrawn-1213"
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = goof.GameInfo(  # type: ignore[attr-defined]
        name,
        "Goofspiel variant",
        2,
        4,
        version="1.0.0",
        hookspecs=goof.SPECS,
        fields=goof.GAME.fields,
    )

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return Withdrawn(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.build_deck = goof.build_deck  # type: ignore[attr-defined]
    module.goofspiel_carry_ties = goof.goofspiel_carry_ties  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", name, module)
    goof.review13_added.append(name)
    t = _goof_table(name)
    prize = next(z for z in t.view("b")["zones"] if z["name"] == "prize")["cards"]
    assert len(prize) == 1 and prize[0] is not None
    assert _answer(t.act("a", "bid 0", 0.1, seen=0)) == "ok"
    zones = {z["name"]: z["cards"] for z in t.view("b")["zones"]}
    assert zones["prize"] == [] and zones["discard"] == prize  # Bob sees the prize move
    assert _answer(t.act("b", "bid 0", 0.1, seen=0)) == "stale"


def test_search_worlds_keep_a_rules_own_option(cap: str) -> None:
    game = cardcore.new_game("golf", 2, rules=[cap], options={"review13_cap": 3}, seed=1)
    view = game.view(0)
    assert view["options"]["review13_cap"] == 3
    position = sample_position(view, random.Random(1))
    world = cardcore.new_game(
        "golf", 2, rules=[cap], options={"review13_cap": 3}, position=position, seed=2
    )
    assert world.options["review13_cap"] == 3
    twin = game.determinize(0, 2)
    assert twin.options["review13_cap"] == 3 and twin.rules == (cap,)
