"""A third-party author's Spades (``tests/plugins/spades_2026_12_16.py``) and its
blind-nil-when-behind house rule (``tests/plugins/spades_rules_2026_12_16.py``), written from
the docs only: bidding with nil and blind nil (cards hidden from their owner until it decides),
spades trump and breaking, team scoring with bags, the conformance kit, the house-rule lab, the
RL environment, the CLI and the session layer, checking that no seat learns another's cards."""

from __future__ import annotations

import io
import json
import sys

import pytest

import cardcore
from cardcore import IllegalActionError, NotationError, OptionError
from cardcore.testing import check_game
from tests.plugins import spades_2026_12_16 as sp
from tests.plugins import spades_rules_2026_12_16 as sr

NAME = sp.NAME
BEHIND = sr.NAME
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def suit_of(s: str) -> list[str]:
    return [r + s for r in RANKS]


def deck_of(hands: list[list[str]]) -> str:
    """Seat 3 deals one card at a time from seat 0: card k (top first) goes to seat k % 4."""
    return " ".join(hands[s][r] for r in range(13) for s in range(4))


# Deal A: seat 0 hearts, seat 1 spades, seat 2 diamonds, seat 3 clubs: seat 1 takes all 13.
DEAL_A = deck_of([suit_of("H"), suit_of("S"), suit_of("D"), suit_of("C")])
# Deal B: seat 2 holds the spades and takes all 13.
DEAL_B = deck_of([suit_of("H"), suit_of("C"), suit_of("S"), suit_of("D")])
# Deal C: a sorted deck dealt round: every seat holds 3-4 cards of each suit.
SORTED = [r + s for s in "CDHS" for r in RANKS]
DEAL_C = " ".join(SORTED)
HAND_C = [SORTED[s::4] for s in range(4)]


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, sp)
    cardcore.register("cardcore.rules", BEHIND, sr)
    yield
    cardcore.unregister("cardcore.rules", BEHIND)
    cardcore.unregister("cardcore.games", NAME)


def stacked(deck: str, rules: tuple[str, ...] = (), **options: int) -> cardcore.Game:
    return cardcore.new_game(NAME, 4, rules=rules, options=options, deck=deck, seed=1)


def zone(view, name: str) -> list:
    return next(z["cards"] for z in view["zones"] if z["name"] == name)


def bid_all(game: cardcore.Game, bids: list[str]) -> None:
    """Bid for seats 0..3 in turn; ``blind`` declares blind nil, anything else looks first."""
    for seat, b in enumerate(bids):
        if b == "blind":
            game.act(seat, "blind")
        else:
            game.act(seat, "look")
            game.act(seat, b)


def play_out(game: cardcore.Game) -> None:
    """Play the hand with each seat's first legal card (deterministic on a stacked deal)."""
    start = game.view(0)["table"]["hand"]
    while not game.is_over and game.view(None)["table"]["hand"] == start:
        seat = game.to_act[0]
        game.act(seat, str(game.legal_actions(seat)[0]))


def visible_cards(view) -> set[str]:
    seen = {c for z in view["zones"] for c in z["cards"] if c}
    return seen | {c for a in view["legal"] for c in a.split()[1:] if c[:-1] in RANKS}


# --- deal and bidding -------------------------------------------------------------------


def test_spades_seat_1_exactly_four_players():
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 3, seed=1)
    with pytest.raises(OptionError):
        cardcore.new_game(NAME, 5, seed=1)
    assert len(cardcore.new_game(NAME, 4, seed=1).players) == 4


def test_spades_deal_1_thirteen_face_down_cards_nobody_knows():
    game = stacked(DEAL_C)
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        for s in range(4):
            assert zone(view, f"unseen.{s}") == [None] * 13
            assert zone(view, f"hand.{s}") == []
    assert game.to_act == (0,) and game.view(0)["table"]["dealer"] == 3


def test_spades_bid_1_bids_0_to_13_nil_written_bid_nil():
    game = stacked(DEAL_C)
    game.act(0, "look")
    legal = game.view(0)["legal"]
    assert legal == ["bid nil"] + [f"bid {n}" for n in range(1, 14)]
    game.act(0, "bid 0")  # read as nil
    assert game.view(1)["table"]["bids"] == [0, -1, -1, -1]
    game.act(1, "look")
    with pytest.raises(NotationError, match="SPADES-BID-1"):
        game.act(1, "bid 14")
    with pytest.raises(IllegalActionError, match="SPADES-BID-1"):
        game.act(1, "play 3C")
    assert game.to_act == (1,)


def test_spades_blind_1_cards_hidden_from_owner_until_it_decides():
    game = stacked(DEAL_C)
    with pytest.raises(IllegalActionError, match="SPADES-BLIND-1"):
        game.act(0, "bid 3")  # must look (or go blind) first
    assert visible_cards(game.view(0)) == set()
    game.act(0, "look")
    assert sorted(zone(game.view(0), "hand.0")) == sorted(HAND_C[0])
    with pytest.raises(IllegalActionError, match="SPADES-BLIND-1"):
        game.act(0, "blind")  # too late: seat 0 has seen its cards
    game.act(0, "bid 3")
    # seat 1 is still undecided: it sees only seat 0's bid, none of its own cards
    assert visible_cards(game.view(1)) == set()
    assert game.view(1)["legal"] == ["look", "blind"]
    game.act(1, "blind")
    view = game.view(1)
    assert sorted(zone(view, "hand.1")) == sorted(HAND_C[1])  # seen once declared
    assert view["table"]["bids"][1] == 0 and view["table"]["blind"][1] is True
    assert game.to_act == (2,)


def test_spades_blind_1_no_seat_learns_another_hand_through_views_events_or_errors():
    game = stacked(DEAL_C)
    heard: dict[int, list] = {s: [] for s in range(4)}
    for s in range(4):
        game.events.subscribe(cardcore.Event, lambda e, s=s: heard[s].append(e.to_json()), seat=s)
    bid_all(game, ["bid 3", "blind", "bid 4", "bid 3"])
    errors: list[str] = []
    while not game.is_over and game.view(None)["table"]["hand"] == 0:
        seat = game.to_act[0]
        other = (seat + 1) % 4
        held = zone(game.view(other), f"hand.{other}")
        if held:
            try:
                game.act(other, f"play {held[0]}")
            except cardcore.CardcoreError as err:
                errors.append(str(err))
        game.act(seat, str(game.legal_actions(seat)[0]))
    played: set[str] = set()
    for s in range(4):
        own = set(HAND_C[s])
        for e in heard[s]:
            cards = {v for v in e.values() if isinstance(v, str) and v[:-1] in RANKS}
            played |= cards
            # a card is named to seat s only once it is played (public) or it is its own
            assert all(e.get("src") == f"hand.{e.get('seat')}" or c in own for c in cards), e
    assert len(played) == 52
    assert errors and all("not seat" in m or "TURN" in m for m in errors)


def test_spades_blind_1_view_before_deciding_is_the_same_whatever_was_dealt():
    twins = [stacked(DEAL_C), stacked(DEAL_A)]
    for g in twins:
        g.act(0, "look")
        g.act(0, "bid 2")
    for seat in (1, 2, 3):
        views = [g.view(seat) for g in twins]
        assert views[0]["zones"] != [] and views[0]["zones"][3:7] == views[1]["zones"][3:7]
        assert views[0]["table"] == views[1]["table"] and views[0]["legal"] == views[1]["legal"]


# --- play -------------------------------------------------------------------------------


def test_spades_lead_1_spades_not_led_until_broken():
    game = stacked(DEAL_C)
    bid_all(game, ["bid 3", "bid 3", "bid 3", "bid 3"])
    with pytest.raises(IllegalActionError, match="SPADES-LEAD-1"):
        game.act(0, "play 3S")
    assert all(not a.endswith("S") for a in game.view(0)["legal"])


def test_spades_lead_1_a_hand_of_only_spades_may_lead_them():
    game = stacked(DEAL_A)
    bid_all(game, ["bid 1", "bid 5", "bid 1", "bid 1"])
    for seat, card in [(0, "AH"), (1, "2S"), (2, "2D"), (3, "2C")]:
        game.act(seat, f"play {card}")
    assert game.view(1)["table"]["broken"] is True and game.to_act == (1,)
    assert len(game.view(1)["legal"]) == 12


def test_spades_follow_1_must_follow_the_led_suit():
    game = stacked(DEAL_C)
    bid_all(game, ["bid 3", "bid 3", "bid 3", "bid 3"])
    game.act(0, "play 2C")
    with pytest.raises(IllegalActionError, match="SPADES-FOLLOW-1"):
        game.act(1, "play 5H")
    assert sorted(game.view(1)["legal"]) == sorted(
        f"play {c}" for c in HAND_C[1] if c.endswith("C")
    )


def test_spades_trump_1_a_low_spade_beats_the_led_ace():
    game = stacked(DEAL_A)
    bid_all(game, ["bid 1", "bid 5", "bid 1", "bid 1"])
    for seat, card in [(0, "AH"), (1, "2S"), (2, "AD"), (3, "AC")]:
        game.act(seat, f"play {card}")
    assert game.view(0)["table"]["tricks"] == [0, 1, 0, 0]


# --- scoring ----------------------------------------------------------------------------


def test_spades_score_1_nil_1_blind_nil_nil_and_overtricks():
    game = stacked(DEAL_A)
    bid_all(game, ["blind", "bid 5", "bid nil", "bid 4"])
    play_out(game)
    table = game.view(None)["table"]
    # team 0: blind nil +200, nil +100; team 1: contract 9, took 13: 90 + 4 bags
    assert table["score"] == [300, 94, 300, 94]
    assert table["bags"] == [0, 4, 0, 4]
    assert game.history(None)[0]["tricks"] == [0, 13, 0, 0]


def test_spades_score_1_bags_1_nil_1_set_failed_nil_and_bag_penalty():
    game = stacked(DEAL_B)
    bid_all(game, ["bid 3", "bid 1", "bid nil", "bid 2"])
    play_out(game)
    table = game.view(None)["table"]
    # team 0: 30 + 10 bags, failed nil -100, 10 bags -100 = -160, bags back to 0
    # team 1: contract 3, no trick: -30
    assert table["score"] == [-160, -30, -160, -30]
    assert table["bags"] == [0, 0, 0, 0]


def test_spades_end_1_target_reached_ends_game_partners_win():
    game = stacked(DEAL_A, target=50)
    bid_all(game, ["blind", "bid 5", "bid nil", "bid 4"])
    play_out(game)
    assert game.is_over
    assert game.result.winners == (0, 2) and game.result.scores == (300.0, 94.0, 300.0, 94.0)
    # every card turned up at the end
    assert all(c is not None for z in game.view(1)["zones"] for c in z["cards"])


def test_spades_end_1_target_option_bounds():
    with pytest.raises(OptionError, match="target"):
        cardcore.new_game(NAME, 4, options={"target": 10}, seed=1)
    with pytest.raises(OptionError, match="target"):
        cardcore.new_game(NAME, 4, options={"target": 5000}, seed=1)
    assert cardcore.new_game(NAME, 4, seed=1).options["target"] == 500


def test_spades_end_1_resign_loses_for_both_partners():
    game = stacked(DEAL_C)
    game.act(2, "resign")  # out of turn: any seat may resign
    assert game.is_over and game.result.winners == (1, 3) and game.result.reason == "resigned"


# --- house rule -------------------------------------------------------------------------


def test_spades_house_blind_1_vetoes_blind_nil_unless_behind():
    game = stacked(DEAL_C, rules=(BEHIND,))
    assert game.options["blind_nil_deficit"] == 100
    assert game.view(0)["legal"] == ["look"]
    with pytest.raises(IllegalActionError, match="SPADES-HOUSE-BLIND-1"):
        game.act(0, "blind")
    anyway = stacked(DEAL_C, rules=(BEHIND,), blind_nil_deficit=0)
    assert anyway.view(0)["legal"] == ["look", "blind"]


def test_spades_house_blind_1_option_bounded_and_owned_by_the_rule():
    with pytest.raises(OptionError, match="at most 1000"):
        stacked(DEAL_C, rules=(BEHIND,), blind_nil_deficit=5000)
    with pytest.raises(OptionError, match="choose the rule"):
        stacked(DEAL_C, blind_nil_deficit=0)


# --- the public tools -------------------------------------------------------------------


def test_conformance_kit_game_and_house_rule():
    small = {"target": 100, "max_hands": 2}
    assert check_game(NAME, players=4, games=2, options=small).ok
    rule = {**small, "blind_nil_deficit": 0}
    assert check_game(NAME, players=4, games=2, rules=[BEHIND], options=rule).ok


def test_house_rule_lab_compares_on_duplicate_deals():
    result = cardcore.compare(
        NAME, rules=[BEHIND], games=4, seed=1, options={"target": 100, "max_hands": 2}, skill=None
    )
    assert result.a.rules == (BEHIND,) and result.b.rules == ()
    assert result.same_deals and result.diff["actions"].n == 4


def test_rl_observation_hides_undecided_and_other_hands():
    rl = pytest.importorskip("cardcore.rl")
    obs = []
    for deck in (DEAL_A, DEAL_C):
        game = stacked(deck)
        game.act(0, "look")
        game.act(0, "bid 2")
        obs.append([rl.observe(game, s) for s in range(4)])
    for s in (1, 2, 3):  # the same public facts, other cards: the same observation
        assert (obs[0][s]["observation"] == obs[1][s]["observation"]).all()
        assert (obs[0][s]["action_mask"] == obs[1][s]["action_mask"]).all()
    assert not (
        obs[0][0]["observation"] == obs[1][0]["observation"]
    ).all()  # seat 0 sees its own (different) cards


def test_rl_aec_env_plays_a_hand():
    rl = pytest.importorskip("cardcore.rl")
    env = rl.aec_env(NAME, 4, options={"target": 50, "max_hands": 1})
    env.reset(seed=3)
    steps = 0
    for _agent in env.agent_iter(max_iter=200):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(obs["action_mask"].nonzero()[0][0]))
        steps += 1
    assert steps >= 56  # 4 looks, 4 bids, 52 cards at most less any blind


def test_cli_play_shows_only_own_cards(capsys, monkeypatch):
    from cardcore import cli

    monkeypatch.setattr(sys, "stdin", io.StringIO("look\nbid 3\nquit\n"))
    assert cli.main(["play", NAME, "--seed", "1", "--no-record", "-o", "target=100"]) == 0
    out = capsys.readouterr().out
    game = cardcore.new_game(NAME, 4, options={"target": 100}, seed=1)
    game.act(0, "look")
    own = set(zone(game.view(0), "hand.0"))
    shown = {w for w in out.split() if w[:-1] in RANKS and w[-1] in "CDHS"}
    assert own <= shown and shown <= own


def test_cli_rules_prints_rule_ids(capsys):
    from cardcore import cli

    assert cli.main(["rules", NAME]) == 0
    assert "SPADES-NIL-1" in capsys.readouterr().out


def test_session_updates_never_name_another_seats_cards():
    from cardcore.session import Session

    session = Session.create(NAME, ["A", "B", "C", "D"], now=0.0, seed=7)
    out = []
    for i in range(4):
        out += session.handle(f"c{i}", json.dumps({"type": "join", "seat": i}), now=1.0 + i)
    game = cardcore.new_game(NAME, 4, seed=7)
    texts = {f"c{i}": [] for i in range(4)}
    moves = [(0, "look"), (0, "bid 3"), (1, "blind"), (2, "look"), (2, "bid 2")]
    for version, (seat, text) in enumerate(moves):
        out += session.handle(
            f"c{seat}", json.dumps({"type": "act", "action": text, "seen": version}), now=10.0
        )
        game.act(seat, text)
    assert not [o for o in out if o.message.get("type") == "error"]
    assert session.game.version == game.version == len(moves)
    for o in out:
        if o.conn in texts:
            texts[o.conn].append(json.dumps(o.message))
    hands = {s: set(zone(game.view(s), f"hand.{s}")) for s in range(4)}
    assert hands[3] == set() and all(len(hands[s]) == 13 for s in range(3))
    for s in range(4):
        blob = " ".join(texts[f"c{s}"])
        words = set(blob.replace('"', " ").replace(",", " ").replace("]", " ").split())
        for other in range(4):
            if other != s:
                assert not (hands[other] & words), (s, other)
        assert hands[s] <= words or s == 3


def test_ismcts_search_agent_plays_from_views_and_determinize_keeps_the_view():
    game = cardcore.new_game(NAME, 4, seed=2, options={"target": 100, "max_hands": 1})
    agent = cardcore.load_agent("ismcts", iterations=20, seed=1)
    for _ in range(10):
        seat = game.to_act[0]
        game.act(seat, str(agent.choose(game.view(seat), game.legal_actions(seat))))
    assert game.version == 10
    for seat in range(4):
        assert game.determinize(seat, 5).view(seat) == game.view(seat)
