"""A new user writes Cassino (tests/cassino_game_2026_12_07c.py) from the plugin guide and
checks, claim by claim, what docs/plugin-guide/game.rst, testing.rst, docs/hooks.rst,
docs/api.rst and docs/notation.rst promise a game author."""

from __future__ import annotations

import types

import attrs
import pytest

import cardcore
from cardcore import (
    HOST,
    SPECTATOR,
    Action,
    Card,
    Event,
    GameInfo,
    IllegalActionError,
    NotationError,
    PluginError,
    UnknownPluginError,
    hookimpl,
    standard_52,
)
from cardcore.testing import check_game

from . import cassino_game_2026_12_07c as cg

NAME = cg.NAME
# top first: seat 0 gets 10H 2C 4S 7D, seat 1 5S QS KD JH, the table 5D 4C 2H 10C
DECK = "10H 5S 2C QS 4S KD 7D JH 5D 4C 2H 10C"


@pytest.fixture
def cassino():
    cardcore.register("cardcore.games", NAME, cg.build_module())
    try:
        yield NAME
    finally:
        cardcore.unregister("cardcore.games", NAME)


def registered(name, logic_class):
    """Register a variant of Cassino under *name* whose engine is *logic_class*."""
    module = cg.build_module(name, attrs.evolve(cg.GAME, name=name))
    module.create_logic = hookimpl(lambda ruleset: logic_class(ruleset))
    cardcore.register("cardcore.games", name, module)


def end_position(table, hand0, hand1, won0=()):
    """Stock empty; every card not named lies in won.1, face up."""
    named = {*table, *hand0, *hand1, *won0}
    rest = [str(c) for c in standard_52() if str(c) not in named]

    def marked(cards, mark):
        return " ".join(c + mark for c in cards)

    return (
        f"{NAME} to_act=[0] last_capturer=null sweeps=[0,0] | stock: | table: {marked(table, '!')}"
        f" | hand.0: {marked(hand0, '@0')} | hand.1: {marked(hand1, '@1')}"
        f" | won.0: {marked(won0, '!')} | won.1: {marked(rest, '!')}"
    )


# --- registration -------------------------------------------------------------------


def test_register_makes_game_available_and_unregister_removes_it():
    assert NAME not in cardcore.available_games()
    cardcore.register("cardcore.games", NAME, cg.build_module())
    try:
        assert NAME in cardcore.available_games()
        assert cardcore.new_game(NAME, 2, seed=1).players == ("Player 1", "Player 2")
    finally:
        cardcore.unregister("cardcore.games", NAME)
    assert NAME not in cardcore.available_games()
    with pytest.raises(UnknownPluginError):
        cardcore.new_game(NAME, 2, seed=1)


def test_registering_under_another_name_than_game_name_is_plugin_error():
    with pytest.raises(PluginError, match=r"GAME\.name"):
        cardcore.register("cardcore.games", "cassino-other", cg.build_module())
    assert "cassino-other" not in cardcore.available_games()


def test_module_without_game_is_plugin_error():
    with pytest.raises(PluginError, match="GAME"):
        cardcore.register("cardcore.games", "cassino-nogame", types.ModuleType("x"))


@pytest.mark.parametrize(
    "build",
    [
        lambda: GameInfo("-cassino", "s", 2, 2),
        lambda: GameInfo("cassino", "s", 3, 2),
        lambda: GameInfo("cassino", "s", 2, 65),
        lambda: GameInfo(
            "cassino",
            "s",
            2,
            2,
            fields=(cardcore.ViewField("a", "int"), cardcore.ViewField("a", "int")),
        ),
    ],
)
def test_bad_game_declarations_are_plugin_errors(build):
    with pytest.raises(PluginError):
        build()


def test_seat_range_is_enforced(cassino):
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game(cassino, 3, seed=1)


# --- deal, turns and seats -----------------------------------------------------------


def test_cassino_deal_1_four_each_four_to_table_then_redeal(cassino):
    game = cardcore.new_game(cassino, 2, deck=DECK, seed=1)
    zones = game.view(0)["zones"]
    assert zones[2]["cards"] == ["7D", "4S", "2C", "10H"]  # hand.0 top first
    assert zones[1]["cards"] == ["10C", "2H", "4C", "5D"]  # table top first
    assert game.view(0)["table"]["stock"] == 40
    for _ in range(8):  # every card trailed: the hands empty after 8 plays
        seat = game.to_act[0]
        game.act(seat, next(t for t in game.view(seat)["legal"] if t.startswith("trail")))
    view = game.view(0)
    assert [z["count"] for z in view["zones"][2:4]] == [4, 4]
    assert view["table"]["stock"] == 32 and view["zones"][1]["count"] == 12


def test_cassino_turn_1_alternates_and_core_refuses_other_seat(cassino):
    game = cardcore.new_game(cassino, 2, deck=DECK, seed=1)
    assert game.to_act == (0,)
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(1, "trail 5S")
    game.act(0, "trail 7D")
    assert game.to_act == (1,) and game.version == 1
    assert game.legal_actions(0) == ()


# --- actions, notation, errors ------------------------------------------------------------


def test_cassino_capture_1_multi_card_capture_text_in_any_order(cassino):
    game = cardcore.new_game(cassino, 2, deck=DECK, seed=1)
    assert "capture 7D 2H 5D" in game.view(0)["legal"]
    action = game.act(0, "  CAPTURE 7d   5d 2h ")
    assert str(action) == "capture 7D 2H 5D"
    assert action == cg.Capture(0, Card.parse("7D"), (Card.parse("5D"), Card.parse("2H")))
    assert game.record()["actions"] == [[0, "capture 7D 2H 5D", None]]
    assert game.view(1)["zones"][4]["cards"] == ["5D", "2H", "7D"]
    assert game.view(1)["table"]["last_capturer"] == 0


def test_cassino_capture_1_every_union_of_disjoint_groups_is_listed(cassino):
    pos = end_position(["3C", "4H", "7S", "2D", "5S"], ["7D"], ["KC"])
    game = cardcore.new_game(cassino, 2, position=pos, seed=1)
    legal = game.view(0)["legal"]
    # groups 7S, 3C+4H, 2D+5S: 2**3 - 1 unions, then the trail
    assert len(legal) == 8 and legal[-1] == "trail 7D"
    assert "capture 7D 2D 3C 4H 5S 7S" in legal
    assert "capture 7D 3C 7S" not in legal
    game.act(0, "capture 7D 7S 5S 4H 3C 2D")
    assert game.view(0)["table"]["sweeps"] == [1, 0]  # CASSINO-SWEEP-1


def test_cassino_capture_1_face_cards_take_only_their_rank(cassino):
    pos = end_position(["KS", "3C", "10H"], ["KD"], ["2C"])
    game = cardcore.new_game(cassino, 2, position=pos, seed=1)
    assert game.view(0)["legal"] == ["capture KD KS", "trail KD"]
    with pytest.raises(IllegalActionError, match="CASSINO-CAPTURE-1"):
        game.act(0, "capture KD 3C 10H")


def test_illegal_and_malformed_inputs_name_rules_and_change_nothing(cassino):
    game = cardcore.new_game(cassino, 2, deck=DECK, seed=1)
    heard = []
    game.events.subscribe(Event, heard.append)
    before = (game.position(), game.version, game.record())
    cases = [
        ("capture 7D 4C", IllegalActionError, "CASSINO-CAPTURE-1"),
        ("capture 5S 5D", IllegalActionError, "CASSINO-CAPTURE-1"),  # not in seat 0's hand
        ("capture 7D", NotationError, "CASSINO-NOTE-1"),
        ("capture 7D 1H", NotationError, "CORE-NOTATION-2"),
        ("build 7D", NotationError, "CORE-NOTATION-1"),
        ("capture " + "7D " * 70, NotationError, "CORE-NOTATION-1"),
    ]
    for text, error, rule in cases:
        with pytest.raises(error, match=rule):
            game.act(0, text)
    assert (game.position(), game.version, game.record()) == before and heard == []


# --- views and events -----------------------------------------------------------------


def test_views_hide_opponent_hand_and_stock(cassino):
    game = cardcore.new_game(cassino, 2, deck=DECK, seed=1)
    for seat in (0, 1):
        zones = {z["name"]: z for z in game.view(seat)["zones"]}
        assert all(c is None for c in zones[f"hand.{1 - seat}"]["cards"])
        assert None not in zones[f"hand.{seat}"]["cards"]
        assert zones["stock"]["cards"] == [None] * 40
        assert None not in zones["table"]["cards"]
    spectator = {z["name"]: z for z in game.view(None)["zones"]}
    assert spectator["hand.0"]["cards"] == [None] * 4 == spectator["hand.1"]["cards"]
    assert game.view(0)["legal"] and game.view(1)["legal"] == []
    assert set(game.view(0)["table"]) == {"stock", "last_capturer", "sweeps"}
    assert game.view(0)["table"]["last_capturer"] is None


def test_events_for_a_seat_and_spectator(cassino):
    game = cardcore.new_game(cassino, 2, deck=DECK, seed=1)
    seat1, spectator = [], []
    game.events.subscribe(Event, lambda e: seat1.append(e.to_json()), seat=1)
    game.events.subscribe(Event, lambda e: spectator.append(e.to_json()), seat=SPECTATOR)
    game.act(0, "capture 7D 2H 5D")
    assert [e["event"] for e in seat1] == [
        "action-applied",
        "card-moved",
        "card-moved",
        "card-moved",
        "turn-passed",
    ]
    assert seat1[0]["action"] == "capture 7D 2H 5D" and seat1[-1]["seat"] == 1
    assert spectator == seat1


# --- scoring and the end ----------------------------------------------------------------


def test_cassino_end_1_last_capturer_takes_rest_and_scores(cassino):
    # seat 0 takes 10S with 10D (5H stays: no sweep); seat 1 trails 3C; seat 0 takes 5H 3C.
    game = cardcore.new_game(
        cassino, 2, position=end_position(["10S", "5H"], ["10D"], ["3C"]), seed=1
    )
    game.act(0, "capture 10D 10S")
    game.act(1, "trail 3C")
    assert game.is_over and game.to_act == ()
    # seat 0: 10D (2); seat 1: most cards 48-4 (3), spades 12-1 (1), 2S (1), four aces (4)
    assert game.result.scores == (2.0, 9.0)
    assert game.result.winners == (1,) and game.result.reason == "all cards played"
    assert game.view(1)["zones"][4]["count"] == 4


def test_cassino_sweep_1_counts_a_point(cassino):
    game = cardcore.new_game(cassino, 2, position=end_position(["10S"], ["10D"], ["3C"]), seed=1)
    game.act(0, "capture 10D 10S")
    game.act(1, "trail 3C")  # seat 0 takes 3C at the end: no sweep for that
    assert game.view(0)["table"]["sweeps"] == [1, 0]
    assert game.result.scores == (3.0, 9.0)


def test_resign_and_host_end(cassino):
    game = cardcore.new_game(cassino, 2, deck=DECK, seed=1)
    game.act(0, "capture 7D 2H 5D")
    game.act(1, "resign")
    assert game.result.winners == (0,) and game.result.reason == "resigned"
    other = cardcore.new_game(cassino, 2, deck=DECK, seed=1)
    assert str(other.act(HOST, "end")) == "end"
    assert other.result.winners == (0, 1) and other.result.reason == "ended"


# --- records, saves, clones, positions, determinize ---------------------------------------------


def play_random(game, seed, steps=None):
    agents = [cardcore.RandomAgent(seed=seed), cardcore.RandomAgent(seed=seed + 1)]
    n = 0
    while not game.is_over and (steps is None or n < steps):
        seat = game.to_act[0]
        game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat)))
        n += 1
    return game


def test_record_replay_and_save_load_rebuild_the_game(cassino):
    game = play_random(cardcore.new_game(cassino, 2, seed=11), 3)
    assert game.version == 48 and game.is_over
    again = cardcore.replay(game.record())
    assert again.result == game.result and again.position() == game.position()
    loaded = cardcore.load(game.save())
    assert loaded.result == game.result and loaded.view(0) == game.view(0)
    half = play_random(cardcore.new_game(cassino, 2, seed=11), 3, steps=20)
    resumed = cardcore.load(half.save())
    assert resumed.view(1) == half.view(1) and resumed.version == 20


def test_clone_is_independent(cassino):
    game = cardcore.new_game(cassino, 2, deck=DECK, seed=1)
    twin = game.clone()
    twin.act(0, "capture 7D 2H 5D")
    assert game.version == 0 and game.view(0)["zones"][1]["count"] == 4
    assert twin.view(0)["zones"][1]["count"] == 2


def test_determinize_keeps_the_seats_view(cassino):
    game = cardcore.new_game(cassino, 2, seed=8)
    game.act(0, str(game.legal_actions(0)[0]))
    twin = game.determinize(1, seed=1)
    assert twin.view(1) == game.view(1)
    assert twin.position() != game.position()


def test_position_of_finished_game_reads_back_with_result(cassino):
    game = cardcore.new_game(cassino, 2, position=end_position(["10S"], ["10D"], ["3C"]), seed=1)
    game.act(0, "capture 10D 10S")
    game.act(1, "trail 3C")
    copy = cardcore.new_game(cassino, 2, position=game.position(), seed=2)
    assert copy.is_over and copy.result == game.result


def test_position_with_known_stock_card_is_refused(cassino):
    pos = (
        end_position(["10S"], ["10D"], ["3C"])
        .replace("stock: |", "stock: 3H@0 |")
        .replace(" 3H!", "")
    )
    with pytest.raises(cardcore.OptionError, match="face down"):
        cardcore.new_game(cassino, 2, position=pos, seed=1)


# --- the testing kit and simulate ----------------------------------------------------------


def test_conformance_kit_passes(cassino):
    report = check_game(cassino, players=2, games=2, seed=0)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0 and report.skipped == {}


def test_simulate_plays_whole_games(cassino):
    summary = cardcore.simulate(cassino, games=10, seed=1)
    assert summary.games == 10 and summary.mean_actions == 48.0  # 48 cards, one each play
    assert summary.reasons == {"all cards played": 10} and summary.truncated == 0
    assert sum(summary.wins) <= 10


# --- the documented mistakes ------------------------------------------------------------


def test_tuple_field_class_in_action_types_is_plugin_error_at_new_game():
    class Logic(cg.CassinoLogic):
        action_types = (cg.Trail, cg.Capture)

    registered("cassino-bad-types", Logic)
    try:
        with pytest.raises(PluginError, match=r"Capture\.taken"):
            cardcore.new_game("cassino-bad-types", 2, seed=1)
    finally:
        cardcore.unregister("cardcore.games", "cassino-bad-types")


def test_two_classes_sharing_a_verb_is_plugin_error():
    @attrs.frozen
    class Lay(Action):
        card: Card
        verb = "TRAIL"

    class Logic(cg.CassinoLogic):
        action_types = (cg.Trail, Lay)

    registered("cassino-bad-verb", Logic)
    try:
        with pytest.raises(PluginError, match="share the verb"):
            cardcore.new_game("cassino-bad-verb", 2, seed=1)
    finally:
        cardcore.unregister("cardcore.games", "cassino-bad-verb")


def test_apply_leaving_to_act_empty_is_plugin_error_and_game_unchanged():
    class Logic(cg.CassinoLogic):
        def apply(self, state, action, emit):
            super().apply(state, action, emit)
            state.to_act = ()

    registered("cassino-bad-turn", Logic)
    try:
        game = cardcore.new_game("cassino-bad-turn", 2, deck=DECK, seed=1)
        before = (game.position(), game.version, game.record())
        with pytest.raises(PluginError, match="cassino-bad-turn"):
            game.act(0, "trail 7D")
        assert (game.position(), game.version, game.record()) == before
        report = check_game("cassino-bad-turn", players=2, games=1, strict=False)
        assert not report.ok and any("to_act empty" in f for f in report.failures)
        assert "views" in report.skipped
    finally:
        cardcore.unregister("cardcore.games", "cassino-bad-turn")


def test_legal_actions_as_text_is_plugin_error():
    class Logic(cg.CassinoLogic):
        def legal_actions(self, state, seat):
            return tuple(str(a) for a in super().legal_actions(state, seat))

    registered("cassino-bad-legal", Logic)
    try:
        with pytest.raises(PluginError, match="Action"):
            cardcore.new_game("cassino-bad-legal", 2, seed=1).legal_actions(0)
    finally:
        cardcore.unregister("cardcore.games", "cassino-bad-legal")


def test_missing_required_methods_is_plugin_error():
    class Logic(cardcore.GameLogic):
        def action_bound(self, players, options):
            return 10

    registered("cassino-bad-logic", Logic)
    try:
        with pytest.raises(PluginError, match="table"):
            cardcore.new_game("cassino-bad-logic", 2, seed=1)
    finally:
        cardcore.unregister("cardcore.games", "cassino-bad-logic")


def test_failing_legal_actions_is_undone():
    class Logic(cg.CassinoLogic):
        def legal_actions(self, state, seat):
            state.sweeps[0] = 99
            raise RuntimeError("boom")

    registered("cassino-bad-raise", Logic)
    try:
        game = cardcore.new_game("cassino-bad-raise", 2, deck=DECK, seed=1)
        with pytest.raises(PluginError):
            game.legal_actions(0)
        assert "sweeps=[0,0]" in game.position()
    finally:
        cardcore.unregister("cardcore.games", "cassino-bad-raise")


def test_kit_reports_a_hidden_draw_published_to_all():
    class Logic(cg.CassinoLogic):
        def new_state(self, players, options, cards, seed, emit):
            state = super().new_state(players, options, cards, seed, emit)
            if emit is not None:  # the mistake: a draw from the hidden stock without visible_to
                for seat in (0, 1):
                    for card in state.zones.cards[cg.hand(seat)]:
                        emit(cardcore.CardDrawn(seat, "stock", card))
            return state

    registered("cassino-leaky", Logic)
    try:
        report = check_game("cassino-leaky", players=2, games=1, strict=False, checks={"events"})
        assert not report.ok and report.leaks > 0
        assert any("does not know" in f for f in report.failures)
    finally:
        cardcore.unregister("cardcore.games", "cassino-leaky")
