"""A third-party author's Euchre (``tests/plugins/euchre_2026_12_15.py``) and its Canadian-loner
house rule (``tests/plugins/euchre_rules_2026_12_15.py``), written from the docs only, used to try
the engine: bidding notation, the dealer's hidden discard, a partner sitting out, effective suit
(the left bower), team scoring, persistence, the conformance kit, ISMCTS and the RL env."""

from __future__ import annotations

import random

import pytest

import cardcore
from cardcore import IllegalActionError, NotationError, OptionError
from cardcore.testing import check_game
from tests.plugins import euchre_2026_12_15 as eu
from tests.plugins import euchre_rules_2026_12_15 as er

NAME = eu.NAME
CANADIAN = er.NAME

# Seat 3 deals; one card at a time from seat 0. Then the upcard 9H and the kitty JC JS 10D.
SEATS = [
    ["JD", "AS", "KS", "9C", "10C"],
    ["AH", "KH", "QS", "9S", "10S"],
    ["JH", "QH", "AC", "KC", "QC"],
    ["10H", "AD", "KD", "QD", "9D"],
]
DECK = " ".join(SEATS[s][r] for r in range(5) for s in range(4)) + " 9H JC JS 10D"


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, eu)
    cardcore.register("cardcore.rules", CANADIAN, er)
    yield
    cardcore.unregister("cardcore.rules", CANADIAN)
    cardcore.unregister("cardcore.games", NAME)


def stacked(rules: tuple[str, ...] = (), **options: int) -> cardcore.Game:
    return cardcore.new_game(NAME, 4, rules=rules, options=options, deck=DECK, seed=1)


def zone(view: dict, name: str) -> list:
    return next(z["cards"] for z in view["zones"] if z["name"] == name)


def ordered_and_discarded(game: cardcore.Game, card: str = "9D") -> int:
    """Seat 0 passes, seat 1 orders up (hearts); dealer 3 discards *card*; returns its place."""
    game.act(0, "pass")
    game.act(1, "order up")
    pos = zone(game.view(3), "hand.3").index(card)
    game.act(3, f"discard {pos}")
    return pos


# The hand played out below (hearts trump, seat 1 made it; seats 0+2 take 4 tricks: euchred).
PLAYS = [
    (0, "JD"), (1, "AH"), (2, "JH"), (3, "10H"),
    (2, "QH"), (3, "9H"), (0, "AS"), (1, "KH"),
    (1, "QS"), (2, "AC"), (3, "AD"), (0, "KS"),
    (0, "9C"), (1, "9S"), (2, "KC"), (3, "KD"),
    (2, "QC"), (3, "QD"), (0, "10C"), (1, "10S"),
]  # fmt: skip


def play_hand(game: cardcore.Game) -> None:
    ordered_and_discarded(game)
    for seat, card in PLAYS:
        game.act(seat, f"play {card}")


# --- deck, deal and bidding -------------------------------------------------------------


def test_euchre_deck_1_build_deck_hook_gives_24_cards():
    game = stacked()
    deck = game.logic.deck(4, game.options)
    assert len(deck) == 24 and {c.rank.label for c in deck} == {"9", "10", "J", "Q", "K", "A"}


def test_euchre_deal_1_upcard_public_hands_private():
    game = stacked()
    assert zone(game.view(0), "hand.0") == list(reversed(SEATS[0]))  # top first
    for seat in (None, 0, 1, 2, 3):
        assert zone(game.view(seat), "upcard") == ["9H"]
        assert game.view(seat)["table"]["turned"] == "H"
    assert zone(game.view(0), "hand.1") == [None] * 5
    assert game.to_act == (0,)


def test_euchre_bid_1_round_one_actions_and_notation():
    game = stacked()
    assert game.view(0)["legal"] == ["pass", "order up", "order up alone"]
    assert str(game.act(0, "PASS")) == "pass"
    assert str(game.act(1, "Order  Up")) == "order up"
    assert game.view(None)["table"]["trump"] == "H"
    assert game.view(None)["table"]["phase"] == "discard" and game.to_act == (3,)


def test_euchre_bid_2_round_two_and_stick_the_dealer():
    game = stacked()
    for seat in range(4):
        game.act(seat, "pass")
    assert game.view(None)["table"]["phase"] == "bid2"
    assert zone(game.view(1), "kitty")[0] == "9H"  # turned down (top first), known to all
    legal = game.view(0)["legal"]
    assert "pass" in legal and "name D" in legal and "name H" not in legal
    with pytest.raises(IllegalActionError, match="EUCHRE-BID-2"):
        game.act(0, "name H")
    for seat in range(3):
        game.act(seat, "pass")
    assert "pass" not in game.view(3)["legal"]
    before = game.position()
    with pytest.raises(IllegalActionError, match="EUCHRE-BID-2"):
        game.act(3, "pass")
    assert game.position() == before
    game.act(3, "name S alone")
    table = game.view(None)["table"]
    assert (table["trump"], table["maker"], table["alone"]) == ("S", 3, True)
    assert game.to_act == (0,)  # partner 1 sits out; 0 leads


# --- the dealer's hidden discard ---------------------------------------------------------


def test_euchre_discard_1_only_the_dealer_sees_the_discard():
    heard: dict = {s: [] for s in (0, 3, cardcore.SPECTATOR)}
    game = stacked()
    for s, log in heard.items():
        game.events.subscribe(cardcore.Event, lambda e, log=log: log.append(e.to_json()), seat=s)
    game.act(0, "pass")
    game.act(1, "order up")
    assert zone(game.view(0), "hand.3") == [None] * 6
    assert game.view(0)["table"]["picked_up"] == "9H"
    assert "9H" in zone(game.view(3), "hand.3")
    pos = zone(game.view(3), "hand.3").index("9D")
    game.act(3, f"discard {pos}")
    assert zone(game.view(3), "buried") == ["9D"]
    for seat in (0, 1, 2, None):
        assert zone(game.view(seat), "buried") == [None]
    moved = [e for e in heard[0] if e["event"] == "card-moved" and e["dst"] == "buried"]
    assert moved and moved[0]["card"] is None
    assert "9D" not in str(heard[0]) and "9D" not in str(heard[cardcore.SPECTATOR])
    assert any(e.get("card") == "9D" for e in heard[3] if e["event"] == "card-moved")
    assert f"discard {pos}" in str(heard[cardcore.SPECTATOR])


def test_euchre_discard_1_hostile_discards_change_nothing():
    game = stacked()
    game.act(0, "pass")
    game.act(1, "order up")
    before = game.position()
    with pytest.raises(NotationError):
        game.act(3, "discard 9D")
    with pytest.raises(IllegalActionError, match="EUCHRE-DISCARD-1"):
        game.act(3, "discard 7")
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(0, "discard 0")
    assert game.position() == before


# --- going alone --------------------------------------------------------------------------


def test_euchre_alone_1_partner_sits_out():
    game = stacked()
    game.act(0, "pass")
    game.act(1, "pass")
    game.act(2, "order up alone")  # seat 0 sits out
    pos = zone(game.view(3), "hand.3").index("9D")
    game.act(3, f"discard {pos}")
    assert game.to_act == (1,)
    seen_to_act = []
    before = game.position()
    with pytest.raises(IllegalActionError, match="EUCHRE-ALONE-1") as err:
        game.act(0, "play AS")
    assert "sits out" in str(err.value) and game.position() == before
    for _ in range(3):
        seen_to_act.append(game.to_act)
        seat = game.to_act[0]
        game.act(seat, game.view(seat)["legal"][0])
    assert len(zone(game.view(None), "done")) == 3  # a trick of three cards
    assert (0,) not in seen_to_act
    assert zone(game.view(1), "hand.0") == [None] * 5  # out of play, still hidden


def test_euchre_alone_1_dealer_partner_alone_dealer_sits_out_without_pickup():
    game = stacked()
    game.act(0, "pass")
    game.act(1, "order up alone")  # partner 3 (the dealer) sits out
    assert game.view(None)["table"]["picked_up"] is None
    assert game.to_act == (0,) and zone(game.view(3), "hand.3") == list(reversed(SEATS[3]))


def test_euchre_canadian_1_dealer_partner_may_not_go_alone():
    game = stacked(rules=(CANADIAN,))
    game.act(0, "pass")
    assert game.view(1)["legal"] == ["pass", "order up"]
    with pytest.raises(IllegalActionError, match="EUCHRE-CANADIAN-1"):
        game.act(1, "order up alone")
    assert "order up alone" in stacked(rules=(CANADIAN,)).view(0)["legal"]


# --- effective suit -----------------------------------------------------------------------


def test_euchre_follow_1_left_bower_led_calls_for_trump():
    game = stacked()
    ordered_and_discarded(game)
    game.act(0, "play JD")  # left bower: hearts led
    assert sorted(game.view(1)["legal"]) == ["play AH", "play KH"]
    with pytest.raises(IllegalActionError, match="EUCHRE-FOLLOW-1") as err:
        game.act(1, "play QS")
    text = str(err.value)
    assert not any(card in text for card in ["AH", "KH", "9S", "10S"])  # no hidden card named
    game.act(1, "play AH")
    game.act(2, "play JH")
    assert sorted(game.view(3)["legal"]) == ["play 10H", "play 9H"]  # no diamond on JD


def test_euchre_trick_1_right_bower_beats_left_and_ace():
    game = stacked()
    ordered_and_discarded(game)
    for seat, card in PLAYS[:4]:
        game.act(seat, f"play {card}")
    assert game.view(None)["table"]["tricks"] == [0, 0, 1, 0] and game.to_act == (2,)


def test_euchre_hostile_inputs_refused_and_nothing_changes():
    game = stacked()
    ordered_and_discarded(game)
    before = game.position()
    for seat, text, err in [
        (1, "play AH", IllegalActionError),  # out of turn
        (0, "play AH", IllegalActionError),  # a card not in hand
        (0, "play ZZ", NotationError),
        (0, "order up", IllegalActionError),  # a bid in play
        (0, "", NotationError),
        (0, "name X", NotationError),
    ]:
        with pytest.raises(err):
            game.act(seat, text)
    assert game.position() == before


def test_euchre_hostile_not_in_hand_message_hides_the_holder():
    game = stacked()
    ordered_and_discarded(game)
    with pytest.raises(IllegalActionError) as err:
        game.act(0, "play AH")
    assert "seat 1" not in str(err.value)


# --- scoring, match end, persistence ------------------------------------------------------


def test_euchre_score_1_euchred_makers_give_two_to_defenders():
    game = stacked()
    play_hand(game)
    table = game.view(None)["table"]
    assert table["points"] == [2, 0, 2, 0] and table["dealer"] == 0 and table["hand"] == 1
    assert game.history(None)[0]["tricks"] == 1


def test_euchre_end_1_both_partners_win_the_match():
    game = stacked(points=2)
    play_hand(game)
    assert game.is_over and game.result.winners == (0, 2)
    assert game.result.scores == (2.0, 0.0, 2.0, 0.0) and game.result.payouts is None


def test_euchre_end_1_points_option_bounds():
    with pytest.raises(OptionError):
        stacked(points=26)
    with pytest.raises(OptionError):
        stacked(points=0)


def test_euchre_resign_partner_loses_with_the_resigner():
    game = stacked()
    game.act(0, "resign") if "resign" in game.view(0)["legal"] else game.apply(cardcore.Resign(0))
    assert game.is_over and game.result.winners == (1, 3)


def test_euchre_record_replay_save_load_clone():
    game = stacked()
    play_hand(game)
    game.act(1, "pass")
    again = cardcore.replay(game.record())
    assert again.position() == game.position()
    loaded = cardcore.load(game.save())
    assert loaded.position() == game.position()
    twin = game.clone()
    twin.act(2, "pass")
    assert twin.position() != game.position() and game.to_act == (2,)


def test_euchre_position_round_trip_mid_bidding():
    game = stacked()
    game.act(0, "pass")
    again = cardcore.new_game(NAME, 4, position=game.position(), seed=3)
    assert again.view(1)["legal"] == game.view(1)["legal"]
    assert again.view(1)["zones"] == game.view(1)["zones"]


# --- the kit, search and RL ---------------------------------------------------------------


def test_euchre_conformance_kit():
    report = check_game(NAME, players=4, games=2)
    assert report.ok and not report.skipped


def test_euchre_conformance_kit_with_house_rule():
    assert check_game(NAME, players=4, rules=[CANADIAN], games=1).ok


def test_euchre_ismcts_sample_keeps_the_taken_upcard_with_the_dealer():
    from cardcore.search import deal_view

    game = stacked()
    ordered_and_discarded(game)
    view = game.view(0)
    deck = game.logic.deck(4, game.options)
    rng = random.Random(5)
    for _ in range(20):
        pos = game.logic.position_from_view(view, deal_view(view, deck, rng))
        sample = cardcore.new_game(NAME, 4, position=pos, seed=1)
        piles = dict(part.strip().split(":", 1) for part in sample.position().split("|")[1:])
        assert "9H" in piles["hand.3"] + piles["buried"]  # the dealer holds or buried it
        assert sample.view(0)["zones"] == view["zones"]


def test_euchre_ismcts_plays_a_decision():
    from cardcore.search import ISMCTSAgent

    game = stacked()
    ordered_and_discarded(game)
    bot = ISMCTSAgent(seed=1, iterations=20)
    action = bot.choose(game.view(0), game.legal_actions(0))
    assert str(action) in game.view(0)["legal"]


def test_euchre_rl_env_steps():
    from cardcore.rl import aec_env

    env = aec_env(NAME, 4)
    env.reset(seed=3)
    obs = env.last()[0]
    mask = obs["action_mask"]
    names = [env.config.observer.names[i] for i in mask.nonzero()[0]]
    assert names == ["legal[0]", "legal[1]", "legal[2]"]  # positional: pass, order up, alone
    assert len(mask) == eu.EuchreLogic.max_legal
    env.step(1)  # order up
    assert env.match.game.record_entries()[0][1].notation() == "order up"
