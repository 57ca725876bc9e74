"""Review of 7ef18ad, ac4952c and 1ae5db9 (a round-ending bid makes the bidder's older views
stale, card_places by name/seat/id, shuffle's input checks, the option hint, serve's words,
--workers) and of the documentation passages changed on 2026-12-13.

Claims that hold pass; each fault found is an ``xfail(strict=True)`` asserting the right
behaviour.
"""

from __future__ import annotations

import json
import os
import random
import types
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import (
    ArgumentError,
    Chance,
    GameInfo,
    NotationError,
    Option,
    RuleInfo,
    Zones,
    hookimpl,
    standard_52,
)
from cardcore._options import SPELLING, _hint
from cardcore.cli.args import UsageError
from cardcore.session.clocks import Clocks
from cardcore.session.config import TimeControl
from cardcore.session.patch import card_places
from tests.plugins import goofspiel_2026_12_12 as goof
from tests.plugins import hearts_2026_12_13 as hearts
from tests.plugins import hearts_moon_2026_12_13 as moon

# --- sessions: the seat whose bid ended a round finds its older views stale (7ef18ad) ------


@pytest.fixture
def goof_registered() -> Iterator[None]:
    cardcore.register("cardcore.games", goof.NAME, goof)
    cardcore.register("cardcore.rules", goof.CARRY_NAME, goof.CARRY)
    yield
    cardcore.unregister("cardcore.rules", goof.CARRY_NAME)
    cardcore.unregister("cardcore.games", goof.NAME)


@pytest.fixture
def hearts_registered() -> Iterator[None]:
    cardcore.register("cardcore.games", hearts.NAME, hearts)
    cardcore.register("cardcore.rules", moon.NAME, moon)
    yield
    cardcore.unregister("cardcore.rules", moon.NAME)
    cardcore.unregister("cardcore.games", hearts.NAME)


def _table(name: str, players: int) -> Any:
    from cardcore.session import Session
    from tests.session.kit import Table

    t = Table(Session.create(name, ["Ann", "Bob", "Cy", "Di"][:players], now=0.0, seed=7))
    t.now = 1.0
    for seat in range(players):
        t.join("abcd"[seat], seat)
    return t


def _answer(replies: list[dict[str, Any]]) -> str:
    last = [r for r in replies if r["type"] in ("ok", "error")][-1]
    return "ok" if last["type"] == "ok" else last["code"]


def test_goofspiel_last_bidder_retry_is_stale_and_its_fresh_bid_is_taken(
    goof_registered: None,
) -> None:
    t = _table(goof.NAME, 2)
    assert _answer(t.act("a", "bid 0", 0.1, seen=0)) == "ok"
    assert _answer(t.act("b", "bid 0", 0.1, seen=0)) == "ok"  # ends round 1
    game = t.session.game
    assert game.view(0)["table"]["round"] == 2 and set(game.to_act) == {0, 1}
    v = game.version
    assert _answer(t.act("b", "bid 0", 0.1, seen=v - 1)) == "stale"  # its retry
    assert _answer(t.act("b", "bid 0", 0.1, seen=v)) == "ok"  # the first bid of round 2
    assert _answer(t.act("a", "bid 1", 0.1, seen=v)) == "ok"  # the other seat too
    assert game.view(0)["table"]["round"] == 3


def test_hearts_last_passer_retry_is_stale_and_the_lead_is_taken(hearts_registered: None) -> None:
    t = _table(hearts.NAME, 4)
    game = t.session.game
    v0 = game.version
    for conn in "cab":
        assert _answer(t.act(conn, "pass 0 1 2", 0.1, seen=v0)) == "ok"
    assert _answer(t.act("d", "pass 0 1 2", 0.1, seen=v0)) == "ok"  # ends the passing
    assert game.view(0)["table"]["phase"] == "play"
    after = game.version
    assert _answer(t.act("d", "pass 3 4 5", 0.1, seen=v0)) == "stale"
    assert game.version == after
    leader = game.to_act[0]
    play = str(game.legal_actions(leader)[0])
    assert _answer(t.act("abcd"[leader], play, 0.1, seen=after)) == "ok"


def test_ends_round_is_true_only_for_the_round_ending_action() -> None:
    clocks = Clocks(TimeControl(), False)
    clocks.start([0, 1, 2], 0.0)
    clocks.update((1, 2), 1.0, 0)  # seat 0 made its part
    clocks.update((1,), 2.0, 2)  # seat 2 too: seat 1 is the last
    assert clocks.ends_round(1, (1,))  # seat 1's bid ends the round
    clocks.update((1,), 3.0, 1)  # ... and seat 1 acts first in the next phase, alone
    assert not clocks.ends_round(1, (2,))  # its second action (a discard) ends no round


def test_ends_round_is_false_in_a_plain_turn_based_game() -> None:
    clocks = Clocks(TimeControl(), False)
    clocks.start([0], 0.0)
    clocks.update((0,), 1.0, 0)  # a draw
    assert not clocks.ends_round(0, (1,))  # the discard that follows
    clocks.update((1,), 2.0, 0)
    assert not clocks.ends_round(1, (0,))


# --- card_places places an object by its name, seat or id (ac4952c) --------------------------


def test_card_places_reordered_seats_are_no_move_but_a_move_between_seats_is() -> None:
    a = {"table": {"seats": [{"seat": 0, "won": ["QS"]}, {"seat": 1, "won": []}]}}
    b = {"table": {"seats": [{"seat": 1, "won": []}, {"seat": 0, "won": ["QS"]}]}}
    c = {"table": {"seats": [{"seat": 0, "won": []}, {"seat": 1, "won": ["QS"]}]}}
    assert card_places(a) == card_places(b)
    assert card_places(a) != card_places(c)
    zones = [{"name": "stock", "cards": ["QS"]}, {"name": "discard", "cards": []}]
    moved = [{"name": "stock", "cards": []}, {"name": "discard", "cards": ["QS"]}]
    assert card_places({"zones": zones}) != card_places({"zones": moved})


def test_card_places_sees_a_move_between_objects_of_the_same_name() -> None:
    before = [{"name": "run", "seat": 0, "cards": ["QS"]}, {"name": "run", "seat": 1, "cards": []}]
    after = [{"name": "run", "seat": 0, "cards": []}, {"name": "run", "seat": 1, "cards": ["QS"]}]
    assert card_places({"melds": before}) != card_places({"melds": after})


# --- Chance.shuffle / cardcore.shuffle input checks (ac4952c) --------------------------------


def _untouched(chance: Chance) -> bool:
    return chance.randrange(10**9) == Chance(5, 0).randrange(10**9)


@pytest.mark.parametrize("kind", ["0-d", "2-D", "read-only", "memoryview of bytes", "range"])
def test_shuffle_refuses_before_drawing(kind: str) -> None:
    ro = np.arange(4)
    ro.flags.writeable = False
    items = {
        "0-d": np.array(5),
        "2-D": np.arange(6).reshape(3, 2),
        "read-only": ro,
        "memoryview of bytes": memoryview(b"abcd"),
        "range": range(4),
    }[kind]
    chance = Chance(5, 0)
    with pytest.raises(ArgumentError):
        chance.shuffle(items)  # type: ignore[arg-type]
    assert _untouched(chance)
    with pytest.raises(ArgumentError):
        cardcore.shuffle(items, random.Random(1))  # type: ignore[arg-type]


def test_shuffle_takes_a_writable_1d_array_and_bytearray() -> None:
    a = np.arange(20)
    Chance(1, 0).shuffle(a)  # type: ignore[arg-type]
    assert sorted(a.tolist()) == list(range(20)) and a.tolist() != list(range(20))
    b = bytearray(b"abcdefgh")
    cardcore.shuffle(b, random.Random(2))  # type: ignore[arg-type]
    assert sorted(b) == sorted(b"abcdefgh")


def test_shuffle_of_a_structured_array_keeps_every_row_or_refuses() -> None:
    rows = np.array([(i, str(i)) for i in range(8)], dtype=[("n", "i4"), ("s", "U2")])
    chance = Chance(5, 0)
    try:
        chance.shuffle(rows)  # type: ignore[arg-type]
    except ArgumentError:
        assert _untouched(chance)
        return
    assert sorted(rows["n"].tolist()) == list(range(8))


# --- the option hint (ac4952c) ----------------------------------------------------------------


def test_hint_names_every_rule_that_takes_the_option() -> None:
    token = SPELLING.set(("rules", "without"))
    try:
        text = _hint(["g.a", "g.b"], ["g.a"])
        assert "'g.a' and 'g.b'" in text and "rules=['g.b']" in text and "without=" in text
        assert _hint(["g.a"], ["g.a"]).endswith("and it is switched off (without=)")
    finally:
        SPELLING.reset(token)
    token = SPELLING.set(("--rules", "--without"))
    try:
        text = _hint(["g.a", "g.b", "g.c"], ["g.a"])
        assert "'g.a', 'g.b' and 'g.c'" in text
        assert "--rules g.b or --rules g.c" in text and "--without" in text
    finally:
        SPELLING.reset(token)


def test_hint_of_two_switched_off_defaults_beside_another_rule_speaks_of_both() -> None:
    token = SPELLING.set(("rules", "without"))
    try:
        text = _hint(["g.a", "g.b", "g.c"], ["g.a", "g.b"])
    finally:
        SPELLING.reset(token)
    assert "'g.a' or 'g.b'" in text
    assert "they are switched off" in text


# --- cardcore serve keeps the API's words (ac4952c) -------------------------------------------


def test_serve_runs_with_the_apis_words_and_other_commands_with_flags(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardcore.cli import main, serve

    seen: list[tuple[str, str]] = []
    monkeypatch.setattr(serve, "cmd_serve", lambda args: seen.append(SPELLING.get()) or 0)
    assert main(["serve", "--port", "0"]) == 0
    assert seen == [("rules", "without")]
    assert SPELLING.get() == ("rules", "without")


# --- cli --workers (ac4952c) ------------------------------------------------------------------


def _in_place_rule(name: str, game: str, rule_id: str) -> types.ModuleType:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id=rule_id, name=name, game=game, summary="built in place", version="1.0.0"
    )
    return module


def test_workers_refuse_only_a_rule_in_place_the_command_plays() -> None:
    from cardcore.cli.workers import registered_here

    name = "golf.review13-late"
    cardcore.register("cardcore.rules", name, _in_place_rule(name, "golf", "RV13L-1"))
    try:
        assert all(r[1] != name for r in registered_here("golf"))  # not played: not refused
        with pytest.raises(UsageError, match="no worker"):
            registered_here("golf", (), [name])
        with pytest.raises(UsageError, match="no worker"):
            registered_here("golf", (), ["rv13l-1"])  # by its rule ID, in any case
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_workers_carry_registered_plugins_and_hide_hidden_ones(goof_registered: None) -> None:
    from cardcore.cli.workers import adopt, registered_here

    here = registered_here(goof.NAME)
    assert ("cardcore.games", goof.NAME, goof.__name__, "") in here
    assert all(r[1] != goof.CARRY_NAME for r in here)  # built in place, not played: left out
    with pytest.raises(UsageError, match="no worker"):
        registered_here(goof.NAME, (), [goof.CARRY_NAME])  # played: refused up front
    hidden = "tonk.natural-49-50"
    cardcore.unregister("cardcore.rules", hidden)  # hides the installed rule here
    try:
        here = registered_here("tonk")
        assert ("cardcore.rules", hidden, "", "") in here
        assert hidden not in cardcore.available_rules("tonk")
    finally:
        _restore("cardcore.rules", hidden)
    assert hidden in cardcore.available_rules("tonk")
    adopt([("cardcore.rules", hidden, "", "")])  # as a worker does
    try:
        assert hidden not in cardcore.available_rules("tonk")
    finally:
        _restore("cardcore.rules", hidden)
    assert hidden in cardcore.available_rules("tonk")


def _restore(group: str, name: str) -> None:
    """Put an installed plugin that unregister hid back (private: no public way)."""
    from cardcore.plugins import _entries, _forget

    _entries()[group][name] = _entry_point(group, name)
    _forget(group, name)


def _entry_point(group: str, name: str) -> Any:
    import importlib.metadata

    (ep,) = [e for e in importlib.metadata.entry_points().select(group=group) if e.name == name]
    return ep


def test_workers_do_not_refuse_a_default_rule_switched_off(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cardcore.cli import main
    from cardcore.plugins import rule_info

    name = "tonk.natural-49-50"
    module = types.ModuleType("review13_late_tonk_rule")
    module.RULE = rule_info(name)  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", name, module)
    try:
        argv = ["simulate", "tonk", "--without", name, "--workers", "1", "--games", "2"]
        status = main(argv)
        err = capsys.readouterr().err
    finally:
        cardcore.unregister("cardcore.rules", name)
    assert "no worker" not in err
    assert status == 0


# --- docs/plugin-guide/game.rst, hookspecs.rst (1ae5db9, 2026-12-13) --------------------------


def test_an_action_of_several_fields_refuses_a_count_that_does_not_fit(
    hearts_registered: None,
) -> None:
    game = cardcore.new_game(hearts.NAME, 4, seed=17)
    for text in ("pass 0 4", "pass 0 1 2 3"):
        with pytest.raises(NotationError) as info:
            game.act(0, text)
        assert info.value.rule_id == "CORE-NOTATION-1"
    game.act(0, "pass 0 4 9")
    assert 0 not in game.to_act
    with pytest.raises(cardcore.IllegalActionError) as again:  # waiting_rule, not CORE-TURN-1
        game.act(0, "pass 1 2 3")
    assert again.value.rule_id != "CORE-TURN-1" and again.value.rule_id.startswith("HRT-")


def _zones() -> tuple[Zones, list[Any]]:
    return Zones(goof.layout(2)), list(standard_52())


def test_reveal_on_a_hand_card_marks_it_known_and_the_hand_still_shows_only_to_its_owner() -> None:
    zones, deck = _zones()
    hand = goof.hand(0)
    for card in deck[:3]:
        zones.insert_bottom(hand, card, 1)
    assert not zones.knows(hand, 0, 1)
    card = zones.reveal(hand, 0)
    assert card == deck[2]
    assert zones.knows(hand, 0, 1) and zones.knows(hand, 0, None)
    assert zones.show(hand, 1) == [None, None, None] and str(card) in zones.show(hand, 0)


def test_insert_bottom_forget_and_move_mask_0() -> None:
    zones, deck = _zones()
    stock = zones.id("stock")
    for card in deck[:3]:
        zones.insert_bottom(stock, card)  # ALL know it by default
    assert zones.cards[stock][0] == deck[2] and zones.knows(stock, 0, 1)
    zones.forget(stock)
    assert not any(zones.knows(stock, i, s) for i in range(3) for s in (0, 1))
    zones.reveal(stock, -1)
    assert zones.knows(stock, -1, 1)
    zones.move(stock, goof.bid_pile(0), -1, mask=0)  # the owner sees it, the other does not
    assert not zones.knows(goof.bid_pile(0), -1, 1)
    zones.move(goof.bid_pile(0), zones.id("won.1"), -1, mask=0)  # face up: all see it
    assert zones.knows(zones.id("won.1"), -1, 0)


def test_one_file_hookspecs_module_built_in_place(goof_registered: None) -> None:
    assert isinstance(goof.SPECS, types.ModuleType)
    game = cardcore.new_game(goof.NAME, 2, rules=[goof.CARRY_NAME], seed=1)
    assert game.logic.carries(game.state) is True  # type: ignore[attr-defined]
    plain = cardcore.new_game(goof.NAME, 2, seed=1)
    assert plain.logic.carries(plain.state) is False  # type: ignore[attr-defined]


@pytest.mark.filterwarnings("ignore::cardcore.PluginWarning")
def test_action_bound_sees_the_house_rules_options() -> None:
    seen: list[Mapping[str, Any]] = []

    class Bounded(goof.GoofLogic):  # type: ignore[name-defined,misc]
        def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
            seen.append(dict(options))
            return 13 * players + 1 if options.get("rv13l_long") else 3

    name = "goof-bound-13late"
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = GameInfo(  # type: ignore[attr-defined]
        name, "Goofspiel variant", 2, 4, version="1.0.0", hookspecs=goof.SPECS
    )

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return Bounded(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.build_deck = goof.build_deck  # type: ignore[attr-defined]
    module.goofspiel_carry_ties = goof.goofspiel_carry_ties  # type: ignore[attr-defined]
    rule = _in_place_rule(f"{name}.long", name, "RV13L-LONG-1")
    rule.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="RV13L-LONG-1",
        name=f"{name}.long",
        game=name,
        summary="all 13 rounds",
        version="1.0.0",
        options=(Option("rv13l_long", True, "play every round", kind=bool),),
    )
    cardcore.register("cardcore.games", name, module)
    cardcore.register("cardcore.rules", f"{name}.long", rule)
    try:
        game = cardcore.new_game(name, 2, rules=[f"{name}.long"], seed=3)
        rng = random.Random(0)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions(game.to_act[0])))
        assert any(o.get("rv13l_long") is True for o in seen)
        assert game.result is not None and game.result.reason != "truncated"
        assert game.version == 26
    finally:
        cardcore.unregister("cardcore.rules", f"{name}.long")
        cardcore.unregister("cardcore.games", name)


# --- docs/web.rst: GET /api/games lists each rule's options -----------------------------------


def test_api_games_lists_a_rules_options(hearts_registered: None, tmp_path: Any) -> None:
    from cardcore.web.app import WebServer

    server = WebServer(os.fspath(tmp_path / "s.db"))
    (entry,) = [g for g in server.games() if g["name"] == hearts.NAME]
    (rule,) = [r for r in entry["rules"] if r["name"] == moon.NAME]
    names = [o["name"] for o in rule["options"]]
    assert names == ["moon_mode"]
    json.dumps(entry)


# --- docs/house-rule-study.rst: vs_options is B's whole set; the skill probe ------------------


def test_compare_vs_options_are_bs_whole_set() -> None:
    result = cardcore.compare("golf", options={"rounds": 1}, vs_options={"layout": 4}, games=2)
    assert result.a.options == {"rounds": 1}
    assert result.b.options == {"layout": 4}  # not {"rounds": 1, "layout": 4}
    assert result.b.rounds.mean > 1  # B plays the default number of rounds


def test_compare_has_no_skill_probe_for_a_game_without_its_own_agent(
    goof_registered: None,
) -> None:
    from cardcore.compare import default_agent

    assert default_agent(goof.NAME) == "random"
    plain = cardcore.compare(goof.NAME, games=2, seed=1)
    assert plain.a.skill is None and plain.skill_agents is None
    named = cardcore.compare(goof.NAME, games=2, seed=1, skill=("random", "random"))
    assert named.skill_agents == ("random", "random") and named.a.skill is not None


# --- docs/testing-kit.rst: the veto check tries a game of two notations -----------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_veto_check_runs_on_a_game_of_two_notations(players: int) -> None:
    from cardcore.testing import check_game
    from tests.plugins import slapjack_2026_12_13 as sj

    cardcore.register("cardcore.games", sj.NAME, sj)
    try:
        report = check_game(sj.NAME, players=players, games=2, seed=players, checks={"vetoes"})
    finally:
        cardcore.unregister("cardcore.games", sj.NAME)
    assert report.ok and "vetoes" not in report.skipped
