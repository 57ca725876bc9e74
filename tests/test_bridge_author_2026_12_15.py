"""Mini Bridge with a short auction, written from cardcore's docs by a first-time author (2026-12-15).

The game (``tests/plugins/bridge_2026_12_15.py``) and its house rule
(``tests/plugins/bridge_rules_2026_12_15.py``: doubles only from level ``double_from``) are
registered in place with ``cardcore.register``. Seats 0-3 are N E S W. Every test deals the
same stacked deck (``deck=``, top first), so no test depends on a random deal.
"""

from __future__ import annotations

import json
import random
import types
from typing import Any

import attrs
import pytest

import cardcore
from cardcore import (
    Card,
    CardcoreError,
    Event,
    IllegalActionError,
    NotationError,
    OptionError,
    hookimpl,
)
from cardcore.rl import observe
from cardcore.search import ISMCTSAgent, deal_view, default_position
from cardcore.testing import ALL_CHECKS, check_game
from tests.plugins import bridge_2026_12_15 as mb
from tests.plugins import bridge_rules_2026_12_15 as house

NAME, FLOOR = mb.NAME, house.NAME
# Top first; dealt one at a time from the dealer's left (MB-DEAL-1), so with dealer N:
# N: AC KC 9C 5C 10D 6D 2D JH 7H 3H QS 8S 4S     E: 10C 6C 2C JD 7D 3D QH 8H 4H AS KS 9S 5S
# S: JC 7C 3C QD 8D 4D AH KH 9H 5H 10S 6S 2S     W: QC 8C 4C AD KD 9D 5D 10H 6H 2H JS 7S 3S
DECK = " ".join(str(c) for c in cardcore.decks(1))
HANDS = {
    0: {"AC", "KC", "9C", "5C", "10D", "6D", "2D", "JH", "7H", "3H", "QS", "8S", "4S"},
    1: {"10C", "6C", "2C", "JD", "7D", "3D", "QH", "8H", "4H", "AS", "KS", "9S", "5S"},
    2: {"JC", "7C", "3C", "QD", "8D", "4D", "AH", "KH", "9H", "5H", "10S", "6S", "2S"},
    3: {"QC", "8C", "4C", "AD", "KD", "9D", "5D", "10H", "6H", "2H", "JS", "7S", "3S"},
}
ALL_BIDS = [f"{level}{strain}" for level in range(1, 8) for strain in mb.STRAINS]


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, mb)
    cardcore.register("cardcore.rules", FLOOR, house)
    yield
    cardcore.unregister("cardcore.rules", FLOOR)
    cardcore.unregister("cardcore.games", NAME)


def new(rules=(), **options) -> cardcore.Game:
    return cardcore.new_game(NAME, 4, seed=3, deck=DECK, rules=list(rules), options=options)


def act(game: cardcore.Game, *moves: str) -> None:
    for move in moves:
        game.act(game.to_act[0], move)


def hand_cards(game: cardcore.Game, viewer, owner: int) -> list:
    return game.view(viewer)["zones"][2 + owner]["cards"]


def one_nt_by_north() -> cardcore.Game:
    """N opens 1NT, all pass: declarer N (0), dummy S (2), E (1) to lead."""
    game = new()
    act(game, "1NT", "pass", "pass", "pass")
    return game


def after_lead() -> cardcore.Game:
    game = one_nt_by_north()
    act(game, "play AS")  # E leads; dummy goes face up
    return game


# --- the deal and the auction: notation and legal actions --------------------------------


def test_mb_deal_1_stacked_deck_deals_from_dealers_left() -> None:
    game = new()
    for seat, cards in HANDS.items():
        assert set(hand_cards(game, seat, seat)) == cards
        for other in range(4):
            if other != seat:
                assert hand_cards(game, other, seat) == [None] * 13


def test_mb_bid_1_opening_legal_calls_and_text_notation() -> None:
    game = new()
    assert game.to_act == (0,)
    assert game.view(0)["legal"] == ["pass", *ALL_BIDS]
    assert game.view(1)["legal"] == []
    game.act(0, "1nt")  # any case
    assert game.record_entries()[-1][1].notation() == "1NT"
    assert game.view(1)["legal"][:3] == ["pass", "double", "2C"]
    assert game.view(1)["table"]["calls"] == ["1NT"]


def test_mb_bid_2_lower_or_equal_bid_is_refused_and_nothing_changes() -> None:
    game = new()
    act(game, "2H")
    before, version = game.position(), game.version
    for text in ("2H", "2D", "1NT"):
        with pytest.raises(IllegalActionError, match="MB-BID-2"):
            game.act(1, text)
    assert game.position() == before and game.version == version


def test_mb_bid_3_double_partner_or_twice_or_nothing_is_refused() -> None:
    game = new()
    with pytest.raises(IllegalActionError, match="MB-BID-3"):
        game.act(0, "double")  # nothing to double
    act(game, "1S", "pass")
    with pytest.raises(IllegalActionError, match="MB-BID-3"):
        game.act(2, "double")  # partner's bid
    act(game, "pass", "double")  # W doubles N's 1S
    assert game.view(0)["table"]["doubled"] is True
    act(game, "pass")
    with pytest.raises(IllegalActionError, match="MB-BID-3"):
        game.act(1, "double")  # already doubled
    assert "double" not in game.view(1)["legal"]


@pytest.mark.parametrize("text", ["8NT", "0C", "1X", "bid 1NT", "play", "play 1Z", "1 NT", ""])
def test_core_notation_1_malformed_text_is_a_notation_error(text: str) -> None:
    game = new()
    before = game.position()
    with pytest.raises(NotationError):
        game.act(0, text)
    assert game.position() == before and game.version == 0


def test_core_turn_1_out_of_turn_call_is_refused() -> None:
    game = new()
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(2, "1C")
    with pytest.raises(CardcoreError):
        game.act(4, "1C")  # not a seat (CORE-SEAT-1)
    assert game.version == 0


def test_mb_bid_5_four_passes_pass_the_hand_out() -> None:
    game = new()
    act(game, "pass", "pass", "pass", "pass")
    assert game.is_over and game.result.reason == "passed out"
    assert game.result.winners == () and game.result.scores == (0.0,) * 4


def test_mb_decl_1_first_of_the_side_to_name_the_strain_declares() -> None:
    game = new()
    act(game, "pass", "pass", "1H", "pass", "2H", "pass", "pass", "pass")  # S named H first
    table = game.view(0)["table"]
    assert (table["declarer"], table["dummy"], table["phase"]) == (2, 0, "play")
    assert game.to_act == (3,)  # MB-LEAD-1: W, declarer's left
    assert table["leader"] == 3 and table["turn"] == 3


# --- dummy -----------------------------------------------------------------------------


def test_mb_dummy_1_dummy_hidden_until_the_opening_lead_then_public() -> None:
    game = one_nt_by_north()
    for viewer in (0, 1, 3, None):
        assert hand_cards(game, viewer, 2) == [None] * 13  # before the lead: hidden
    act(game, "play AS")
    for viewer in (0, 1, 3, None):
        assert set(hand_cards(game, viewer, 2)) == HANDS[2]
    for viewer in (1, 2, 3, None):  # declarer's hand stays hidden, from dummy too
        assert hand_cards(game, viewer, 0) == [None] * 13
    assert hand_cards(game, 2, 3) == [None] * 13 and hand_cards(game, 0, 1) == [None] * 12


def test_mb_dummy_2_declarer_acts_for_dummy_and_the_record_names_declarer() -> None:
    game = after_lead()
    assert game.to_act == (0,)
    assert game.view(0)["table"]["turn"] == 2
    assert game.view(0)["legal"] == ["play 2S", "play 6S", "play 10S"]  # dummy's spades
    assert game.view(2)["legal"] == []
    events = []
    game.events.subscribe(Event, lambda e: events.append(e.to_json()), seat=None)
    game.act(0, "play 10S")
    seat, action, _ = game.record_entries()[-1]
    assert (seat, str(action)) == (0, "play 10S")
    assert game.record()["actions"][-1][:2] == [0, "play 10S"]
    assert {"event": "card-moved", "seat": 0, "src": "hand.2", "dst": "trick", "card": "10S"} in (
        events
    )
    assert game.to_act == (3,)


def test_mb_dummy_2_dummy_seat_never_acts() -> None:
    game = after_lead()
    before = game.position()
    with pytest.raises(IllegalActionError, match="MB-DUMMY-2"):
        game.act(2, "play 10S")
    with pytest.raises(IllegalActionError, match="MB-DUMMY-2"):
        game.apply(mb.Play(2, Card.parse("2S")))
    assert game.position() == before


def test_mb_play_1_declarer_cannot_play_own_card_on_dummys_turn() -> None:
    game = after_lead()
    with pytest.raises(IllegalActionError, match="MB-PLAY-1") as info:
        game.act(0, "play QS")
    assert "QS" in str(info.value)  # only the card the seat itself named
    assert game.version == 5


def test_mb_follow_1_must_follow_suit() -> None:
    game = after_lead()
    act(game, "play 2S")
    with pytest.raises(IllegalActionError, match="MB-FOLLOW-1"):
        game.act(3, "play QC")
    assert game.view(3)["legal"] == ["play 3S", "play 7S", "play JS"]


def test_mb_trick_1_highest_of_suit_led_wins_and_leads_next() -> None:
    game = after_lead()
    act(game, "play 2S", "play 3S", "play 4S")
    table = game.view(0)["table"]
    assert table["leader"] == 1 and table["tricks"] == [0, 1, 0, 1]
    assert game.to_act == (1,)


def test_mb_trick_1_dummy_wins_a_trick_and_declarer_leads_from_dummy() -> None:
    game = one_nt_by_north()
    act(game, "play 5S", "play 10S", "play 3S", "play 4S")  # dummy's 10S wins
    assert game.view(0)["table"]["leader"] == 2 and game.to_act == (0,)
    assert set(game.view(0)["legal"]) == {f"play {c}" for c in HANDS[2] - {"10S"}}


def test_mb_score_1_full_deal_result_matches_the_rules() -> None:
    game = one_nt_by_north()
    while not game.is_over:
        seat = game.to_act[0]
        game.act(seat, game.view(seat)["legal"][0])
    tricks = game.view(0)["table"]["tricks"][0]
    mine, theirs = mb.trick_score(1, "NT", False, tricks)
    assert game.result.scores == (float(mine), float(theirs)) * 2
    assert game.result.winners == ((0, 2) if mine else (1, 3))
    assert len(game.record()["actions"]) == 4 + 52


def test_mb_score_2_trick_values() -> None:
    assert mb.trick_score(1, "NT", False, 7) == (90, 0)
    assert mb.trick_score(3, "NT", False, 9) == (150, 0)
    assert mb.trick_score(2, "H", True, 8) == (170, 0)
    assert mb.trick_score(4, "C", False, 9) == (0, 50)
    assert mb.trick_score(4, "S", True, 7) == (0, 300)


# --- hidden information ----------------------------------------------------------------


def test_core_hidden_1_event_streams_show_dummy_only_after_the_lead() -> None:
    game = new()
    streams: dict = {s: [] for s in (0, 1, 2, 3, cardcore.SPECTATOR)}
    for s, out in streams.items():
        game.events.subscribe(Event, lambda e, out=out: out.append(e.to_json()), seat=s)
    act(game, "1NT", "pass", "pass", "pass", "play AS", "play 2S", "play 3S", "play 4S")
    for s, out in streams.items():
        revealed = [e for e in out if e["event"] == "card-revealed"]
        assert {e["card"] for e in revealed} == HANDS[2]  # every seat sees dummy shown
        text = json.dumps([e for e in out if e["event"] != "action-applied"])
        hidden = set().union(*(HANDS[o] for o in (0, 1, 3) if o != s)) - {"AS", "3S", "4S"}
        assert not {c for c in hidden if f'"{c}"' in text}


def test_rejection_messages_never_name_hidden_cards() -> None:
    game = after_lead()
    for text in ("play KH", "play JS", "play 2D"):  # dummy's, W's, N's
        with pytest.raises(IllegalActionError) as info:
            game.act(0, text)
        message = str(info.value)
        hidden = (HANDS[1] | HANDS[3]) - {text.split()[1]}
        assert not [c for c in hidden if c in message.split()], message


def test_rl_generic_observation_same_for_twins_and_shows_dummy() -> None:
    game = after_lead()
    twin = game.determinize(1, seed=11)
    assert observe(game, 1)["observation"].tolist() == observe(twin, 1)["observation"].tolist()
    assert set(hand_cards(twin, 1, 2)) == HANDS[2]  # dummy's cards stay put in the twin
    before = observe(one_nt_by_north(), 1)["observation"]
    assert before.tolist() != observe(game, 1)["observation"].tolist()


# --- records, saves, clones, positions ----------------------------------------------------


def test_core_record_1_record_replay_save_load_round_trip() -> None:
    game = after_lead()
    act(game, "play 6S", "play 7S")
    record = json.loads(json.dumps(game.record()))
    again = cardcore.replay(record)
    assert again.position() == game.position()
    assert again.record_entries()[-2][0] == 0  # declarer's play of dummy's 6S
    loaded = cardcore.load(json.loads(json.dumps(game.save())))
    assert loaded.position() == game.position() and loaded.to_act == game.to_act
    for s in range(4):
        assert loaded.view(s)["zones"] == game.view(s)["zones"]


def test_clone_is_independent() -> None:
    game = after_lead()
    copy = game.clone()
    copy.act(0, "play 2S")
    assert game.version == 5 and copy.version == 6
    assert game.view(0)["legal"] == ["play 2S", "play 6S", "play 10S"]


def test_core_position_1_position_round_trip_mid_play() -> None:
    game = after_lead()
    again = cardcore.new_game(NAME, 4, position=game.position(), seed=9)
    for s in (0, 1, 2, 3, None):
        mine, theirs = game.view(s), again.view(s)
        assert mine["zones"] == theirs["zones"] and mine["table"] == theirs["table"]
        assert mine["legal"] == theirs["legal"]


# --- search agents ---------------------------------------------------------------------


def test_search_sample_keeps_the_public_dummy_and_own_hand() -> None:
    game = after_lead()
    view = game.view(1)
    deck = game.logic.deck(4, game.options)
    for k in range(5):
        zones = deal_view(view, deck, random.Random(k))
        sample = cardcore.new_game(NAME, 4, position=default_position(game.logic, view, zones))
        assert set(hand_cards(sample, 1, 2)) == HANDS[2]
        assert set(hand_cards(sample, 1, 1)) == HANDS[1] - {"AS"}
        assert sample.view(1)["table"] == view["table"]


def test_ismcts_plays_for_declarer_on_dummys_turn_and_for_a_defender() -> None:
    game = after_lead()
    bot = ISMCTSAgent(seed=1, iterations=8)
    choice = bot.choose(game.view(0), game.legal_actions(0))
    assert choice.seat == 0 and str(choice) in ("play 2S", "play 6S", "play 10S")
    game.apply(choice)
    choice = bot.choose(game.view(3), game.legal_actions(3))
    assert str(choice) in ("play 3S", "play 7S", "play JS")


# --- the conformance kit -----------------------------------------------------------------

TEXT_CHECKS = {"events", "views", "rejections"}


def test_conformance_kit_other_checks() -> None:
    report = check_game(NAME, players=4, games=2, seed=1, checks=ALL_CHECKS - TEXT_CHECKS)
    assert report.ok and report.cards_lost == 0 and not report.skipped


def test_conformance_kit_with_the_house_rule() -> None:
    report = check_game(
        NAME,
        players=4,
        rules=[FLOOR],
        games=1,
        seed=2,
        options={"double_from": 2},
        checks=ALL_CHECKS - TEXT_CHECKS,
    )
    assert report.ok and report.vetoed > 0


def test_conformance_kit_still_finds_a_real_card_leak_beside_the_bids() -> None:
    """Bids are the game's words, not cards; a hidden card shown beside them still fails."""

    class Leaky(mb.BridgeLogic):
        def table(self, state: mb.BridgeState, seat: int | None) -> dict[str, Any]:
            out = super().table(state, seat)
            if seat is not None:  # the next seat's hand, hidden from this one
                out["calls"] = [
                    *out["calls"],
                    *map(str, state.zones.cards[mb.hand((seat + 1) % 4)]),
                ]
            return out

    module = types.ModuleType("bridge_leaky_2026_12_15")
    module.GAME = attrs.evolve(mb.GAME, name="bridge-leaky-1215")  # type: ignore[attr-defined]
    module.create_logic = hookimpl(lambda ruleset: Leaky(ruleset))  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "bridge-leaky-1215", module)
    try:
        report = check_game("bridge-leaky-1215", players=4, games=1, seed=1, strict=False)
    finally:
        cardcore.unregister("cardcore.games", "bridge-leaky-1215")
    assert report.leaks > 0
    assert any("shows cards it does not know" in f for f in report.failures)


def test_notation_words_are_the_card_like_words_of_no_card() -> None:
    from cardcore.testing._util import notation_words

    game = new()
    bid = next(a for a in game.legal_actions(game.to_act[0]) if str(a) == "2H")
    assert notation_words(bid) == {"2H"}
    game.act(game.to_act[0], "1C")
    for _ in range(3):
        game.act(game.to_act[0], "pass")
    play = game.legal_actions(game.to_act[0])[0]
    assert notation_words(play) == set()  # the card played is a card of the action


def test_conformance_kit_full_passes_for_bridge_bids() -> None:
    check_game(NAME, players=4, games=2, seed=1)


# --- the house rule --------------------------------------------------------------------


def test_mb_house_double_1_low_doubles_are_vetoed() -> None:
    game = new(rules=[FLOOR], double_from=3)
    assert game.options["double_from"] == 3
    act(game, "2C")
    assert "double" not in game.view(1)["legal"]
    with pytest.raises(IllegalActionError, match="MB-HOUSE-DOUBLE-1"):
        game.act(1, "double")
    act(game, "pass", "pass", "3C")  # W bids 3C: N may double it
    assert game.view(0)["legal"][:2] == ["pass", "double"]
    act(game, "double")
    assert game.view(1)["table"]["doubled"] is True


def test_mb_house_double_1_option_bounds_and_need_for_the_rule() -> None:
    with pytest.raises(OptionError):
        new(rules=[FLOOR], double_from=8)
    with pytest.raises(OptionError):
        new(rules=[FLOOR], double_from=0)
    with pytest.raises(OptionError, match="double-floor"):
        new(double_from=3)
    plain = new()
    act(plain, "2C")
    assert "double" in plain.view(1)["legal"]


def test_resign_partner_loses_too() -> None:
    game = new()
    game.act(2, "resign")
    assert game.is_over and game.result.winners == (1, 3)
