"""A third-party Cribbage plugin (``crib_2026_12_10.py``), written from the docs only, used
through the testing kit, new_game/act/view, positions, play with random and ISMCTS agents,
the RL environments, and record replay. Rule IDs are in the plugin's docstring.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import cardcore
from cardcore import Card, IllegalActionError, NotationError, parse_cards
from cardcore.testing import assert_conserved, check_game
from tests.plugins import crib_2026_12_10 as crib

NAME = crib.NAME

# Dealer 0; the non-dealer (seat 1) is dealt first, so cards alternate seat 1, seat 0;
# the 13th card is the starter.
GO_DEAL = "KS KH QS QH JS JH 10S 10H 9C 9H 9D 8D 2C"  # seat 1 spades, seat 0 hearts
HEELS_DEAL = "KS KH QS QH JS JH 10S 10H 9C 9H 9D 8D JC"  # the starter is a jack


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, crib)
    yield
    cardcore.unregister("cardcore.games", NAME)


def zones(view):
    return {z["name"]: z["cards"] for z in view["zones"]}


def lay_away(game, keep_out):
    """Both seats lay the named cards in the crib, by their position in the view."""
    for seat in (1, 0):
        for text in keep_out[seat]:
            pos = zones(game.view(seat))[f"hand.{seat}"].index(text)
            game.act(seat, f"crib {pos}")


def go_game():
    game = cardcore.new_game(NAME, 2, deck=GO_DEAL, seed=1)
    lay_away(game, {1: ["9C", "9D"], 0: ["9H", "8D"]})
    return game


# --- the testing kit ---------------------------------------------------------------------


def test_conformance_kit_passes():
    report = check_game(NAME, players=2, games=4, seed=3)
    assert report.ok and report.skipped == {}
    assert report.cards_lost == 0 and report.leaks == 0
    assert report.twins > 0 and report.positions > 0 and report.scored > 0


# --- rules ---------------------------------------------------------------------------------


def test_crib_peg_1_fifteens_pairs_runs():
    cards = parse_cards
    assert crib.peg_points(cards("7H 8S"), 15) == 2
    assert crib.peg_points(cards("5H 5S"), 10) == 2
    assert crib.peg_points(cards("5H 5S 5D"), 15) == 6 + 2
    assert crib.peg_points(cards("3H 5S 4D"), 12) == 3
    assert crib.peg_points(cards("KH QS JD 10C"), 40) == 4  # (count unused here)


def test_crib_show_1_counting():
    c = Card.parse
    # 29: three fives and the jack of the starter's suit, the fourth five turned up
    assert crib.show_points(parse_cards("5H 5S 5D JC"), c("5C"), False) == 29
    assert crib.show_points(parse_cards("2H 4H 6H 8H"), c("KS"), False) == 4  # hand flush
    assert crib.show_points(parse_cards("2H 4H 6H 8H"), c("KS"), True) == 0  # crib: no
    assert crib.show_points(parse_cards("2H 4H 6H 8H"), c("KH"), True) == 5


def test_crib_deal_1_six_each_and_the_non_dealer_lays_away_first():
    game = cardcore.new_game(NAME, 2, seed=5)
    view = game.view(1)
    assert game.to_act == (1,) and view["table"]["dealer"] == 0
    assert [len(zones(view)[f"hand.{s}"]) for s in (0, 1)] == [6, 6]
    assert view["legal"] == [f"crib {i}" for i in range(6)]


def test_crib_discard_1_crib_hidden_until_the_show():
    game = go_game()
    for seat, own in ((0, {"9H", "8D"}), (1, {"9C", "9D"})):
        seen = zones(game.view(seat))["crib"]
        assert {c for c in seen if c} == own and seen.count(None) == 2
    assert zones(game.view(None))["crib"] == [None] * 4
    # the other hand is hidden too: only its size shows
    assert zones(game.view(0))["hand.1"] == [None] * 4
    assert zones(game.view(None))["hand.0"] == [None] * 4


def test_crib_starter_1_his_heels():
    game = cardcore.new_game(NAME, 2, deck=HEELS_DEAL, seed=1)
    lay_away(game, {1: ["9C", "9D"], 0: ["9H", "8D"]})
    assert zones(game.view(1))["starter"] == ["JC"]
    assert game.view(1)["table"]["scores"] == [2, 0]


def test_crib_play_1_count_may_not_pass_31():
    game = go_game()
    game.act(1, "play KS")
    game.act(0, "play KH")  # a pair: 2
    game.act(1, "play QS")  # 30
    assert game.view(0)["table"]["scores"] == [2, 0]
    with pytest.raises(IllegalActionError, match=r"past 31 \(count 30\) \(CRIB-PLAY-1\)$"):
        game.act(0, "play QH")  # QH does not fit; only go is legal
    assert game.legal_actions(0) == (crib.Go(0),)


def test_crib_go_1_go_last_card_and_the_whole_deal_to_the_show():
    game = go_game()
    for seat, text in [(1, "play KS"), (0, "play KH"), (1, "play QS"), (0, "go")]:
        game.act(seat, text)
    assert [str(a) for a in game.legal_actions(1)] == ["go"]  # 10S does not fit 30 either
    game.act(1, "go")  # the sequence ends: seat 1 played the last card
    table = game.view(0)["table"]
    assert table["scores"] == [2, 1] and table["count"] == 0 and game.to_act == (0,)
    for seat, text in [(0, "play QH"), (1, "play JS"), (0, "play JH"), (1, "go"), (0, "go")]:
        game.act(seat, text)
    game.act(1, "play 10S")
    game.act(0, "play 10H")  # pair 2, last card 1: the show follows (CRIB-SHOW-1)
    table = game.view(1)["table"]
    # pegging 8 and 1; the show: seat 1 run of 4 + flush 4 = 8; seat 0 the same 8 + crib 6
    assert table["last_show"] == [14, 8] and table["scores"] == [22, 9]
    assert table["phase"] == "show" and game.to_act == (1,)
    assert sorted(zones(game.view(1))["crib"]) == sorted(["9C", "9D", "9H", "8D"])
    assert sorted(zones(game.view(None))["crib"]) == sorted(["9C", "9D", "9H", "8D"])


def test_crib_next_1_the_deal_alternates():
    game = go_game()
    for seat, text in [(1, "play KS"), (0, "play KH"), (1, "play QS"), (0, "go"), (1, "go")]:
        game.act(seat, text)
    for seat, text in [(0, "play QH"), (1, "play JS"), (0, "play JH"), (1, "go"), (0, "go")]:
        game.act(seat, text)
    game.act(1, "play 10S")
    game.act(0, "play 10H")
    game.act(1, "deal")
    view = game.view(0)
    assert view["table"]["dealer"] == 1 and game.to_act == (0,)
    assert [len(zones(view)[f"hand.{s}"]) for s in (0, 1)] == [6, 6]
    assert zones(view)["crib"] == [] and zones(view)["starter"] == []
    assert_conserved(game)


def test_crib_win_1_first_to_61_wins():
    game = cardcore.new_game(NAME, 2, seed=7)
    result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert game.is_over and result.reason == "61 points"
    assert max(result.scores) >= 61 and result.scores[result.winners[0]] >= 61
    assert len(result.winners) == 1


# --- errors ----------------------------------------------------------------------------------


def test_errors_for_illegal_and_malformed_moves_are_clear():
    game = cardcore.new_game(NAME, 2, deck=GO_DEAL, seed=1)
    before = game.position()
    cases = [
        (1, "crib 9", IllegalActionError, "seat 1 holds 6 cards: no position 9 (CRIB-DISCARD-1)"),
        (1, "play KS", IllegalActionError, "not in 'crib' (CRIB-PLAY-1)"),
        (1, "go", IllegalActionError, "(CRIB-GO-1)"),
        (0, "crib 0", IllegalActionError, "not seat 0's turn"),
        (1, "crib x", NotationError, "(CORE-NOTATION-1)"),
        (1, "play ZZ", NotationError, "(CORE-NOTATION-2)"),
        (1, "crib 0 1", NotationError, "expected 'crib POS'"),
    ]
    for seat, text, error, words in cases:
        with pytest.raises(error) as info:
            game.act(seat, text)
        assert words in str(info.value)
    assert game.position() == before and game.version == 0


def test_playing_a_card_the_other_seat_holds_names_only_that_card():
    game = go_game()
    with pytest.raises(IllegalActionError, match=r"seat 1 does not hold KH \(CRIB-PLAY-1\)"):
        game.act(1, "play KH")


# --- every card in one place, hidden events ------------------------------------------------


def test_every_card_in_exactly_one_place_and_hidden_discards_in_events():
    seen = []
    game = cardcore.new_game(
        NAME, 2, seed=11, subscribers=[(cardcore.CardMoved, lambda e: seen.append(e.to_json()), 1)]
    )
    agents = [cardcore.RandomAgent(3), cardcore.RandomAgent(4)]

    def check(g, action):
        assert_conserved(g)
        assert sorted(map(str, g.state.zones.all_cards())) == sorted(map(str, g.logic.deck(2, {})))

    cardcore.play(game, agents, on_action=check)
    cribbed_by_0 = [e for e in seen if e["dst"] == "crib" and e["seat"] == 0]
    cribbed_by_1 = [e for e in seen if e["dst"] == "crib" and e["seat"] == 1]
    assert cribbed_by_0 and all(e["card"] is None for e in cribbed_by_0)
    assert cribbed_by_1 and all(e["card"] is not None for e in cribbed_by_1)


# --- positions, save, replay -----------------------------------------------------------------


def test_position_mid_play_reads_back():
    game = go_game()
    game.act(1, "play KS")
    game.act(0, "play KH")
    text = game.position()
    assert 'phase="play"' in text and 'seq=["KS","KH"]' in text and "count=20" in text
    again = cardcore.new_game(NAME, 2, position=text, seed=3)
    assert again.view(1)["legal"] == game.view(1)["legal"]
    assert again.view(0)["table"] == game.view(0)["table"]


def test_save_load_and_replay_of_a_random_game():
    game = cardcore.new_game(NAME, 2, seed=21)
    cardcore.play(game, [cardcore.RandomAgent(5), cardcore.RandomAgent(6)])
    replayed = cardcore.replay(json.loads(json.dumps(game.record())))
    assert replayed.result == game.result and replayed.position() == game.position()
    loaded = cardcore.load(json.loads(json.dumps(game.save())))
    assert loaded.result == game.result


# --- search agent and RL --------------------------------------------------------------------


def test_ismcts_plays_a_whole_game():
    from cardcore.search import ISMCTSAgent

    game = cardcore.new_game(NAME, 2, seed=13)
    result = cardcore.play(game, [ISMCTSAgent(seed=1, iterations=8), cardcore.RandomAgent(2)])
    assert game.is_over and result.reason == "61 points"
    assert cardcore.replay(game.record()).result == result


def test_rl_aec_env_plays_and_its_record_replays():
    from cardcore.rl import aec_env

    env = aec_env(NAME, 2)
    env.reset(seed=7)
    obs, *_ = env.last()
    assert obs["action_mask"].shape == (6,) and obs["action_mask"].sum() == 6
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    game = env.match.game
    assert game.is_over and steps == len(game.record()["actions"])
    assert cardcore.replay(game.record()).result == game.result


def test_rl_gym_env_reaches_the_end_with_a_reward():
    from cardcore.rl import gym_env

    env = gym_env(NAME, 2, seat=0)
    obs, _info = env.reset(seed=3)
    total, done = 0.0, False
    while not done:
        obs, reward, term, trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        total += reward
        done = term or trunc
    assert total in (-1.0, 1.0) and info["result"]["reason"] == "61 points"


def test_rl_observation_hides_the_other_hand_and_the_crib():
    from cardcore.rl import observe

    game = go_game()
    real = zones(game.view(1))["hand.1"]
    differs = 0
    for seed in (1, 2, 3):
        twin = game.determinize(0, seed)
        differs += zones(twin.view(1))["hand.1"] != real
        assert zones(twin.view(0))["hand.0"] == zones(game.view(0))["hand.0"]
        a, b = observe(game, 0), observe(twin, 0)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
    assert differs  # the twins really hold other cards in seat 1's hand


# --- early ends, positions refused, the kit catching a real leak ------------------------------


def test_host_end_names_the_leader_through_standings():
    game = go_game()
    for seat, text in [(1, "play KS"), (0, "play KH")]:  # seat 0 pegs a pair
        game.act(seat, text)
    game.act(cardcore.HOST, "end")
    assert game.result.reason == "ended" and game.result.winners == (0,)
    assert game.result.scores == (2.0, 0.0)


def test_check_position_refuses_a_sequence_that_was_not_played():
    text = go_game().position()
    with pytest.raises(cardcore.OptionError, match="seq must list cards played"):
        cardcore.new_game(NAME, 2, position=text.replace("seq=[]", 'seq=["KS"]'), seed=1)
    with pytest.raises(cardcore.OptionError, match="field 'seq' must be a list of ints"):
        cardcore.new_game(NAME, 2, position=text.replace("seq=[]", 'seq=[["KS"]]'), seed=1)


class SilentGoLogic(crib.CribLogic):
    """The author's first draft: when the seat to play on has no card that fits, the
    sequence ends at once instead of that seat saying go. Whether it ends tells the
    other seat something about a hidden hand, which the kit's twins must catch."""

    def _next(self, state, actor, emit):
        z = state.zones
        if state.go != -1 and z.cards[crib.hand(1 - state.go)]:
            on = 1 - state.go
            if not any(crib.value(c) + state.count <= 31 for c in z.cards[crib.hand(on)]):
                self._end_sequence(state)
                return
        super()._next(state, actor, emit)


def test_kit_catches_a_public_effect_of_hidden_cards():
    import types

    leaky = types.ModuleType("silent_go")
    leaky.GAME = cardcore.GameInfo(
        "crib-silent-go", "leaky draft", 2, 2, version="1.0.0", fields=crib.GAME.fields
    )

    @cardcore.hookimpl
    def create_logic(ruleset):
        return SilentGoLogic(ruleset)

    leaky.create_logic = create_logic
    cardcore.register("cardcore.games", "crib-silent-go", leaky)
    try:
        report = check_game("crib-silent-go", players=2, games=2, seed=0, strict=False)
    finally:
        cardcore.unregister("cardcore.games", "crib-silent-go")
    assert not report.ok and report.leaks > 0
    leaks = [f for f in report.failures if "depends on cards hidden from it" in f]
    assert leaks
    # the report says where the two worlds' views differ, not only that they do
    assert any("view[" in f and " != " in f for f in leaks if f.startswith("view of seat")), leaks


def test_unregister_leaves_the_name_unknown():
    cardcore.unregister("cardcore.games", NAME)
    try:
        with pytest.raises(cardcore.UnknownPluginError, match=NAME):
            cardcore.new_game(NAME, 2, seed=1)
    finally:
        cardcore.register("cardcore.games", NAME, crib)


def test_session_hides_crib_discards_from_the_other_seat_and_spectators():
    from cardcore.session import Session, SessionConfig, TimeControl

    session = Session.create(
        NAME, ["Ann", "Bob"], now=0.0, seed=7, config=SessionConfig(time=TimeControl(turn=5.0))
    )
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    session.handle("spec", '{"type": "watch"}', now=2.5)
    got = {}
    while (deadline := session.next_deadline()) is not None:  # timeouts play every move
        for out in session.tick(deadline):
            got.setdefault(out.conn, []).append(out.message)
    assert session.game.is_over and session.game.result.reason == "61 points"

    def cribbed(conn, by):
        return [
            e["card"]
            for m in got[conn]
            if m["type"] == "update"
            for e in m["events"]
            if e["event"] == "card-moved" and e["dst"] == "crib" and e["seat"] == by
        ]

    assert cribbed("ann", 1) and set(cribbed("ann", 1)) == {None}
    assert cribbed("bob", 1) and None not in cribbed("bob", 1)
    assert cribbed("spec", 0) and set(cribbed("spec", 0)) == {None}
