"""A third-party author's partnership Pinochle (``tests/plugins/pinochle_2026_12_16.py``) and its
minimum-bid house rule (``tests/plugins/pinochle_rules_2026_12_16.py``), written from the docs
only, used to try the engine with a double deck (two of every card): the auction, meld shown
face up, identical cards named by their code, heading the trick, team scoring, persistence, the
conformance kit, the CLI, the RL env, ISMCTS and the session layer, and hidden information."""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest

import cardcore
from cardcore import IllegalActionError, NotationError, OptionError
from cardcore.testing import assert_conserved, assert_view_known, check_game
from tests.plugins import pinochle_2026_12_16 as pn
from tests.plugins import pinochle_rules_2026_12_16 as pr

NAME = pn.NAME
MINBID = pr.NAME

# Seat 3 deals; one card at a time from seat 0. With hearts trump seat 0 melds a run, dix,
# aces around and a pinochle (300) with one AH left hidden; seat 1 a royal marriage, a
# spade marriage and dix (70); seats 2 and 3 two marriages each (40).
SEATS = [
    ["AH", "AH", "10H", "KH", "QH", "JH", "JD", "QS", "9H", "AS", "AC", "AD"],
    ["10H", "KH", "QH", "JH", "9H", "10S", "10S", "KS", "KS", "QS", "JS", "JS"],
    ["AS", "9S", "9S", "AC", "10C", "10C", "KC", "KC", "QC", "QC", "JC", "JC"],
    ["9C", "9C", "AD", "10D", "10D", "KD", "KD", "QD", "QD", "JD", "9D", "9D"],
]
DECK = " ".join(SEATS[s][r] for r in range(12) for s in range(4))
SECRET_2 = ("9S", "10C", "JC")  # in seat 2's hand only, never melded


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, pn)
    cardcore.register("cardcore.rules", MINBID, pr)
    yield
    cardcore.unregister("cardcore.rules", MINBID)
    cardcore.unregister("cardcore.games", NAME)


def stacked(rules: tuple[str, ...] = (), **options: int) -> cardcore.Game:
    return cardcore.new_game(NAME, 4, rules=rules, options=options, deck=DECK, seed=1)


def zone(view: dict, name: str) -> list:
    return next(z["cards"] for z in view["zones"] if z["name"] == name)


def melded(game: cardcore.Game | None = None) -> cardcore.Game:
    """Seat 0 bids 250, the others pass, seat 0 names hearts: meld is shown."""
    game = game or stacked()
    for seat, text in [(0, "bid 250"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "trump H")]:
        game.act(seat, text)
    return game


def play_out(game: cardcore.Game) -> None:
    """Every seat plays its first legal card until the hand is scored."""
    start = game.view(None)["table"]["hand"]
    while not game.is_over and game.view(None)["table"]["hand"] == start:
        seat = game.to_act[0]
        game.act(seat, game.view(seat)["legal"][0])


# --- deck, deal and auction ------------------------------------------------------------


def test_pinochle_deck_1_two_of_each_card():
    game = stacked()
    deck = Counter(str(c) for c in game.logic.deck(4, game.options))
    assert len(deck) == 24 and set(deck.values()) == {2} and sum(deck.values()) == 48
    assert_conserved(game)


def test_pinochle_deal_1_twelve_each_hidden_from_others():
    game = stacked()
    assert sorted(zone(game.view(0), "hand.0")) == sorted(SEATS[0])
    for seat in (1, 2, 3, None):
        assert zone(game.view(seat), "hand.0") == [None] * 12
    assert game.to_act == (0,) and game.view(None)["table"]["dealer"] == 3


def test_pinochle_bid_1_bids_from_250_in_steps_of_10():
    game = stacked()
    legal = game.view(0)["legal"]
    assert legal[:3] == ["pass", "bid 250", "bid 260"] and legal[-1] == "bid 600"
    assert len(legal) <= pn.PinochleLogic.max_legal
    game.act(0, "BID 300")
    assert game.view(1)["legal"][:2] == ["pass", "bid 310"]
    before = game.position()
    for text in ("bid 300", "bid 315", "bid 240", "bid 610"):
        with pytest.raises(IllegalActionError, match="PINOCHLE-BID-1"):
            game.act(1, text)
    with pytest.raises(NotationError):
        game.act(1, "bid many")
    assert game.position() == before


def test_pinochle_bid_2_pass_is_final():
    game = stacked()
    for seat, text in [(0, "bid 250"), (1, "pass"), (2, "bid 260"), (3, "bid 270")]:
        game.act(seat, text)
    game.act(0, "bid 280")
    assert game.to_act == (2,)  # seat 1 passed: skipped
    game.act(2, "pass")
    game.act(3, "pass")
    table = game.view(None)["table"]
    assert (table["phase"], table["bid"], table["bidder"]) == ("trump", 280, 0)
    assert table["passed"] == [False, True, True, True] and game.to_act == (0,)


def test_pinochle_bid_3_stick_the_dealer():
    game = stacked()
    for seat in range(3):
        game.act(seat, "pass")
    assert "pass" not in game.view(3)["legal"]
    before = game.position()
    with pytest.raises(IllegalActionError, match="PINOCHLE-BID-3"):
        game.act(3, "pass")
    assert game.position() == before
    game.act(3, "bid 250")
    assert game.view(None)["table"]["phase"] == "trump" and game.to_act == (3,)


# --- trump and meld --------------------------------------------------------------------


def test_pinochle_trump_1_and_meld_1_meld_shown_face_up_rest_hidden():
    game = melded()
    table = game.view(None)["table"]
    assert table["trump"] == "H" and table["meld"] == [300, 70, 40, 40]
    shown0 = ["10H", "9H", "AC", "AD", "AH", "AS", "JD", "JH", "KH", "QH", "QS"]
    for seat in (0, 1, 2, 3, None):
        assert sorted(zone(game.view(seat), "meld.0")) == sorted(shown0)
        assert sorted(zone(game.view(seat), "meld.2")) == ["KC", "KC", "QC", "QC"]
    assert zone(game.view(0), "hand.0") == ["AH"]  # the second ace stays hidden
    assert zone(game.view(1), "hand.0") == [None]
    assert sorted(zone(game.view(1), "meld.1")) == ["9H", "KH", "KS", "QH", "QS"]
    assert zone(game.view(1), "hand.2") == [None] * 8
    for seat in (0, 1, 2, 3, None):
        assert_view_known(game, seat)
    assert_conserved(game)
    assert game.to_act == (0,) and game.view(None)["table"]["phase"] == "play"


def test_pinochle_meld_2_kinds_share_cards_never_twice_in_one_kind():
    def cards(text: str) -> list[cardcore.Card]:
        return [cardcore.Card.parse(x) for x in text.split(" ")]

    pts, need, names = pn.meld_of(cards("JD JD QS QS QH QC QD KS"), "H")
    # double pinochle 300 + queens around 60 + spade marriage 20; QS shown twice (pinochle)
    assert pts == 380 and sorted(names) == ["Q around", "double pinochle", "marriage S"]
    assert need["QS"] == 2 and need["JD"] == 2 and need["QH"] == 1
    run2 = cards("AS AS 10S 10S KS KS QS QS JS JS")
    pts, need, names = pn.meld_of(run2, "S")
    assert pts == 1500 and names == ["double run"]  # the runs' K-Q are no royal marriages
    pts, need, names = pn.meld_of(cards("AS 10S KS KS QS QS JS"), "S")
    assert pts == 150 + 40 and need["KS"] == 2 and names == ["run", "royal marriage"]


# --- play ------------------------------------------------------------------------------


def test_pinochle_play_4_melded_copy_played_first_nothing_revealed():
    game = melded()
    heard: list = []
    game.events.subscribe(cardcore.Event, lambda e: heard.append(e.to_json()), seat=1)
    game.act(0, "play AH")
    moved = [e for e in heard if e["event"] == "card-moved"]
    assert moved[0]["src"] == "meld.0" and moved[0]["card"] == "AH"
    assert "AH" not in zone(game.view(1), "meld.0")
    assert zone(game.view(1), "hand.0") == [None]
    assert zone(game.view(0), "hand.0") == ["AH"]
    assert zone(game.view(1), "trick") == ["AH"]
    assert_conserved(game)


def test_pinochle_play_2_must_head_the_trick():
    game = melded()
    game.act(0, "play JH")
    assert sorted(game.view(1)["legal"]) == ["play 10H", "play KH", "play QH"]
    with pytest.raises(IllegalActionError, match="PINOCHLE-PLAY-2"):
        game.act(1, "play JH")  # identical: does not head
    with pytest.raises(IllegalActionError, match="PINOCHLE-PLAY-2"):
        game.act(1, "play 9H")


def test_pinochle_play_2_cannot_head_any_card_of_the_suit():
    game = melded()
    game.act(0, "play AH")
    assert sorted(game.view(1)["legal"]) == sorted(
        ["play 10H", "play KH", "play QH", "play JH", "play 9H"]
    )


def test_pinochle_play_3_void_must_trump_then_follow_a_trumped_trick():
    game = melded()
    game.act(0, "play AD")
    assert sorted(game.view(1)["legal"]) == sorted(
        ["play 10H", "play KH", "play QH", "play JH", "play 9H"]
    )
    with pytest.raises(IllegalActionError, match="PINOCHLE-PLAY-3"):
        game.act(1, "play 10S")
    game.act(1, "play 9H")
    assert len(game.view(2)["legal"]) == 7  # no diamond, no trump: any card (7 distinct)
    game.act(2, "play 9S")
    # trumped trick: follow diamonds without having to head
    assert sorted(game.view(3)["legal"]) == sorted(
        ["play AD", "play 10D", "play KD", "play QD", "play JD", "play 9D"]
    )
    game.act(3, "play 9D")
    assert game.to_act == (1,) and game.view(None)["table"]["tricks"] == [0, 1, 0, 0]
    assert game.view(None)["table"]["count"] == [0, 10, 0, 10]  # AD


def test_pinochle_trick_1_first_of_identical_cards_wins():
    game = melded()
    game.act(0, "play AS")
    game.act(1, "play 10S")
    assert "play AS" in game.view(2)["legal"]
    game.act(2, "play AS")
    game.act(3, "play 9C")
    table = game.view(None)["table"]
    assert table["tricks"] == [1, 0, 0, 0] and table["leader"] == 0 and game.to_act == (0,)
    assert table["count"] == [30, 0, 30, 0]
    assert sorted(zone(game.view(None), "won.0")) == ["10S", "9C", "AS", "AS"]


def test_pinochle_hostile_inputs_refused_and_nothing_changes():
    game = melded()
    before = game.position()
    for seat, text, err in [
        (1, "play 10H", IllegalActionError),  # out of turn
        (0, "play 9S", IllegalActionError),  # not held
        (0, "play ZZ", NotationError),
        (0, "bid 300", IllegalActionError),
        (0, "trump S", IllegalActionError),
        (0, "", NotationError),
        (0, "trump X", NotationError),
    ]:
        with pytest.raises(err) as info:
            game.act(seat, text)
        named = text.split()[-1:]  # the seat's own words may come back
        assert not any(s in str(info.value) for s in SECRET_2 if s not in named)
        assert "seat 2" not in str(info.value)
    assert game.position() == before


# --- counting, scoring, end ------------------------------------------------------------


def test_pinochle_count_1_and_score_1_hand_scored_for_both_teams():
    game = melded()
    play_out(game)
    past = game.history(None)[0]
    assert sum(past["count"]) == 250 and past["bid"] == 250 and past["bidder"] == 0
    made0 = 300 + 40 + past["count"][0]
    assert past["points"][0] == (made0 if made0 >= 250 else -250)
    table = game.view(None)["table"]
    assert table["points"] == past["points"] and table["hand"] == 1 and table["dealer"] == 0
    assert table["phase"] == "bid" and game.to_act == (1,)
    assert_conserved(game)


def test_pinochle_score_1_set_team_loses_its_bid():
    game = stacked()
    for seat, text in [(0, "pass"), (1, "bid 600"), (2, "pass"), (3, "pass"), (1, "trump S")]:
        game.act(seat, text)
    play_out(game)
    past = game.history(None)[0]
    meld13 = past["meld"][1] + past["meld"][3]
    assert meld13 + past["count"][1] < 600
    assert past["points"][1] == past["points"][3] == -600


def test_pinochle_score_2_defenders_without_a_trick_lose_their_meld():
    game = melded()
    state = game.state  # privileged: a hand in which team 1 took no trick
    state.tricks, state.count = [6, 0, 6, 0], [250, 0, 250, 0]
    game.logic._score(state, None)
    assert state.past[-1]["points"] == [590, 0, 590, 0]


def test_pinochle_end_1_options_bounded():
    for opts in ({"target": 499}, {"target": 10001}, {"max_hands": 0}, {"max_hands": 201}):
        with pytest.raises(OptionError):
            stacked(**opts)


def test_pinochle_end_1_max_hands_partners_win_together():
    game = melded(stacked(max_hands=1))
    play_out(game)
    assert game.is_over and game.result.reason == "max_hands"
    assert game.result.winners in ((0, 2), (1, 3))
    sc = game.result.scores
    assert sc[0] == sc[2] and sc[1] == sc[3]


def test_pinochle_end_1_target_reached_ends_the_game():
    game = melded(stacked(target=500))
    play_out(game)
    past = game.history(None)[0]
    assert game.is_over == (max(past["points"]) >= 500)


def test_pinochle_resign_partner_loses_with_the_resigner():
    game = stacked()
    game.apply(cardcore.Resign(2))
    assert game.is_over and game.result.winners == (1, 3)


def test_pinochle_record_replay_save_load_position():
    game = melded()
    game.act(0, "play AH")
    again = cardcore.replay(game.record())
    assert again.position() == game.position()
    assert cardcore.load(game.save()).position() == game.position()
    pos = cardcore.new_game(NAME, 4, position=game.position(), seed=3)
    for seat in (0, 1, 2, 3):
        assert pos.view(seat)["zones"] == game.view(seat)["zones"]
    assert pos.view(1)["legal"] == game.view(1)["legal"]


# --- the house rule --------------------------------------------------------------------


def test_pinochle_minbid_1_bids_below_minimum_vetoed():
    game = stacked(rules=(MINBID,), min_bid=320)
    assert game.view(0)["legal"][:2] == ["pass", "bid 320"]
    with pytest.raises(IllegalActionError, match="PINOCHLE-MINBID-1"):
        game.act(0, "bid 250")
    for seat in range(3):
        game.act(seat, "pass")
    assert game.view(3)["legal"][0] == "bid 320"  # stuck dealer keeps a bid


def test_pinochle_minbid_1_option_bounds_and_needs_the_rule():
    with pytest.raises(OptionError):
        stacked(rules=(MINBID,), min_bid=510)
    with pytest.raises(OptionError):
        stacked(min_bid=300)
    assert stacked(rules=(MINBID,)).options["min_bid"] == 300


# --- the kit, CLI, RL, search and sessions ---------------------------------------------


def test_pinochle_conformance_kit():
    report = check_game(NAME, players=4, games=2, options={"max_hands": 2})
    assert report.ok and not report.skipped


def test_pinochle_conformance_kit_with_house_rule():
    assert check_game(NAME, players=4, rules=[MINBID], games=1, options={"max_hands": 1}).ok


def test_pinochle_cli_rules_and_simulate(capsys):
    from cardcore import cli

    assert cli.main(["rules", NAME]) == 0
    assert "PINOCHLE-BID-1" in capsys.readouterr().out
    args = ["simulate", NAME, "-o", "max_hands=1", "--games", "2", "--quiet"]
    assert cli.main([*args, "--json", os.devnull]) == 0
    assert cli.main(["simulate", NAME, "-r", MINBID, "-o", "min_bid=300", "-o", "max_hands=1",
                     "--games", "1", "--quiet", "--json", os.devnull]) == 0  # fmt: skip


def test_pinochle_rl_env_and_hidden_encoding():
    from cardcore.rl import aec_env, observe

    env = aec_env(NAME, 4, options={"max_hands": 1})
    env.reset(seed=3)
    obs = env.last()[0]
    assert len(obs["action_mask"]) == pn.PinochleLogic.max_legal
    assert obs["action_mask"].sum() == len(env.match.game.view(0)["legal"])
    env.step(1)  # bid 250
    assert env.match.game.record_entries()[0][1].notation() == "bid 250"
    game = melded()
    for seed in range(3):
        twin = game.determinize(1, seed)
        a, b = observe(game, 1), observe(twin, 1)
        assert (a["observation"] == b["observation"]).all()
        assert (a["action_mask"] == b["action_mask"]).all()


def test_pinochle_deck_1_encoding_counts_copies_and_hides_them():
    from cardcore.rl import observe

    game = stacked()
    swapped = (
        game.position()
        .replace("hand.0: AH@0 AH@0 10H@0", "hand.0: AH@0 10H@0 10H@0")
        .replace("hand.1: 10H@1", "hand.1: AH@1")
    )
    twin = cardcore.new_game(NAME, 4, position=swapped, seed=1)
    assert_conserved(twin)
    a, b = observe(game, 0)["observation"], observe(twin, 0)["observation"]
    assert sorted(a[a != b]) == [1.0, 2.0]  # one plane slot counts the two aces
    a, b = observe(game, 2)["observation"], observe(twin, 2)["observation"]
    assert (a == b).all()  # seat 2 cannot tell the hands apart


def test_pinochle_determinize_keeps_two_of_each_and_the_meld():
    game = melded()
    game.act(0, "play AH")  # the melded ace: seat 0 still holds the other, unseen by 1
    for seed in range(5):
        twin = game.determinize(1, seed)
        assert_conserved(twin)
        assert twin.view(1)["zones"] == game.view(1)["zones"]


def test_pinochle_ismcts_samples_and_decides():
    from cardcore.search import ISMCTSAgent, deal_view

    game = melded()
    game.act(0, "play AD")
    view = game.view(1)
    deck = game.logic.deck(4, game.options)
    rng = random.Random(5)
    for _ in range(10):
        zones = deal_view(view, deck, rng)
        assert Counter(str(c) for c in zones.all_cards()) == Counter(str(c) for c in deck)
    bot = ISMCTSAgent(seed=1, iterations=15)
    action = bot.choose(game.view(1), game.legal_actions(1))
    assert str(action) in game.view(1)["legal"]


def test_pinochle_session_frames_hide_hands():
    from cardcore.session import Session

    names = ["Ann", "Bob", "Cy", "Di"]
    session = Session.create(NAME, names, now=0.0, seed=1, deck=DECK)
    frames: dict[str, list] = {c: [] for c in ("c0", "c1", "c2", "c3")}

    def collect(out):
        for o in out:
            frames[o.conn].append(json.dumps(o.message))
        return out

    for seat in range(4):
        collect(session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0))
    moves = [(0, "bid 250"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "trump H")]
    for version, (seat, text) in enumerate(moves):
        out = collect(
            session.handle(
                f"c{seat}",
                json.dumps({"type": "act", "action": text, "seen": version}),
                now=2.0 + version,
            )
        )
        assert not any(o.message["type"] == "error" for o in out), out
    out = collect(session.handle("c1", json.dumps({"type": "act", "action": "play 9S"}), now=9.0))
    assert out[0].message["type"] == "error"
    assert frames["c2"] and any(s in " ".join(frames["c2"]) for s in SECRET_2)
    for conn in ("c0", "c1", "c3"):
        text = " ".join(frames[conn])
        assert "meld.0" in text
        for secret in SECRET_2:
            assert f'"{secret}"' not in text, (conn, secret)
