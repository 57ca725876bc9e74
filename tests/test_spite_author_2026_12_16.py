"""A third-party author's Spite and Malice (``tests/plugins/spite_2026_12_16.py``) and its
jokers-wild house rule (``tests/plugins/spite_rules_2026_12_16.py``), written from the docs only,
used to try the engine: a payoff pile with only its top face up, ordered face-up discard piles,
shared build piles with kings wild, completed piles shuffled back into the stock, a game's own
hookspec built in place, the conformance kit, the CLI, the RL encoding and the session layer."""

from __future__ import annotations

import io
import json
import os

import numpy as np
import pytest

import cardcore
from cardcore import IllegalActionError, NotationError, OptionError
from cardcore.testing import check_game
from tests.plugins import spite_2026_12_16 as sp
from tests.plugins import spite_rules_2026_12_16 as sr

NAME = sp.NAME
JOKERS = sr.NAME
LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ALL_CARDS = [f"{r}{s}" for r in LABELS for s in "CDHS"] * 2


def full_deck(prefix: list[str], jokers: int = 0) -> str:
    """The stacked *prefix* (top first), then the rest of the decks in a fixed order."""
    rest = ALL_CARDS + ["JK"] * jokers
    for card in prefix:
        rest.remove(card)
    return " ".join(prefix + rest)


def dealt(
    p0: list[str], p1: list[str], h0: list[str], h1: list[str], stock: list[str]
) -> list[str]:
    """Payoff piles (bottom first) and hands, dealt one at a time from seat 0, then the stock."""
    out: list[str] = []
    for a, b in zip(p0, p1, strict=True):
        out += [a, b]
    for a, b in zip(h0, h1, strict=True):
        out += [a, b]
    return out + stock


# payoff 3: seat 0 holds 9S 5D under AS; seat 1 holds 9H 5C under 7D
P0, P1 = ["9S", "5D", "AS"], ["9H", "5C", "7D"]
H0, H1 = ["2C", "KH", "3D", "QS", "8C"], ["4C", "6H", "10C", "JD", "2D"]
STOCK = ["7S", "8S", "JS", "10S", "6S"]
DECK = full_deck(dealt(P0, P1, H0, H1, STOCK))
HIDDEN_FROM_0 = {"9S", "5D", "9H", "5C", "4C", "6H", "10C", "JD", "2D"}


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, sp)
    cardcore.register("cardcore.rules", JOKERS, sr)
    yield
    cardcore.unregister("cardcore.rules", JOKERS)
    cardcore.unregister("cardcore.games", NAME)


def stacked(deck: str = DECK, rules: tuple[str, ...] = (), **options: int) -> cardcore.Game:
    options.setdefault("payoff", 3)
    return cardcore.new_game(NAME, 2, rules=rules, options=options, deck=deck, seed=1)


def zone(view: dict, name: str) -> list:
    return next(z["cards"] for z in view["zones"] if z["name"] == name)


def listen(game: cardcore.Game, seats) -> dict:
    heard: dict = {s: [] for s in seats}
    for s, log in heard.items():
        game.events.subscribe(cardcore.Event, lambda e, log=log: log.append(e.to_json()), seat=s)
    return heard


def words(obj) -> set[str]:
    return set(json.dumps(obj).replace('"', " ").replace(",", " ").replace(":", " ").split())


# --- deal -------------------------------------------------------------------------------------


def test_spite_deck_1_two_decks_no_jokers():
    game = stacked()
    deck = game.logic.deck(2, game.options)
    assert len(deck) == 104 and not any(c.is_joker for c in deck)


def test_spite_deal_1_payoff_hands_and_stock():
    game = stacked()
    view = game.view(0)
    assert zone(view, "hand.0") == list(reversed(H0))
    assert zone(view, "hand.1") == [None] * 5
    assert len(zone(view, "stock")) == 104 - 16 and set(zone(view, "stock")) == {None}
    assert view["table"]["payoff_left"] == [3, 3] and view["table"]["stock_left"] == 88
    assert game.to_act == (0,)


def test_spite_deal_2_only_the_payoff_top_is_face_up():
    game = stacked()
    for seat in (0, 1, None):
        view = game.view(seat)
        assert zone(view, "payoff.0") == ["AS", None, None]  # the owner too sees only the top
        assert zone(view, "payoff.1") == ["7D", None, None]
    assert not words(game.view(0)) & HIDDEN_FROM_0


def test_spite_deal_1_payoff_option_bounds():
    for bad in (0, 41):
        with pytest.raises(OptionError):
            stacked(payoff=bad)
    assert stacked(payoff=40).view(0)["table"]["payoff_left"] == [40, 40]
    assert cardcore.new_game(NAME, 2, seed=1).options["payoff"] == 20


def test_spite_gen_1_exactly_two_players():
    with pytest.raises(cardcore.CardcoreError):
        cardcore.new_game(NAME, 3, seed=1)


# --- building ---------------------------------------------------------------------------------


def test_spite_build_1_ace_first_then_in_order_regardless_of_suit():
    game = stacked()
    legal = game.view(0)["legal"]
    assert legal[:4] == ["pay 0", "pay 1", "pay 2", "pay 3"]  # AS opens any empty pile
    assert "play 2C 0" not in legal and "play KH 0" in legal  # a king is wild
    with pytest.raises(IllegalActionError, match="SPITE-BUILD-1"):
        game.act(0, "play 3D 0")
    game.act(0, "pay 0")
    assert game.view(1)["table"]["build_0"] == 1
    assert zone(game.view(1), "payoff.0") == ["5D", None]  # the next card turned up
    game.act(0, "play 2C 0")
    assert zone(game.view(None), "build.0") == ["2C", "AS"]


def test_spite_wild_1_king_shows_the_rank_it_stands_for():
    game = stacked()
    heard = listen(game, (1, cardcore.SPECTATOR))
    game.act(0, "pay 0")
    game.act(0, "play 2C 0")
    game.act(0, "play KH 0")  # stands for 3
    assert zone(game.view(1), "build.0")[0] == "KH"
    assert game.view(1)["table"]["build_0"] == 3
    for log in heard.values():
        wild = [e for e in log if e["event"] == "spite-wild"]
        assert wild == [
            {"event": "spite-wild", "seat": 0, "pile": 0, "card": "KH", "stands_for": "3"}
        ]
    assert "play 3D 0" not in game.view(0)["legal"]  # the king took the 3's place
    with pytest.raises(IllegalActionError, match=r"needs a 4 .*\(SPITE-BUILD-1\)"):
        game.act(0, "play 3D 0")


def test_spite_build_1_refusals_name_no_hidden_card_and_change_nothing():
    game = stacked()
    before = game.position()
    for seat, text, err in [
        (0, "play 4C 0", IllegalActionError),  # seat 1's card
        (0, "play QS 0", IllegalActionError),
        (0, "lift 0 0", IllegalActionError),  # empty discard pile
        (0, "pay 7", IllegalActionError),
        (0, "discard 4C 0", IllegalActionError),
        (1, "discard 4C 0", IllegalActionError),  # not seat 1's turn
        (0, "pay", NotationError),
        (0, "play ZZ 0", NotationError),
        (0, "", NotationError),
    ]:
        with pytest.raises(err) as caught:
            game.act(seat, text)
        named = set(text.upper().split())
        assert not (words(str(caught.value).upper()) & (HIDDEN_FROM_0 - named)), text
    assert game.position() == before


# --- discards and turns -----------------------------------------------------------------------


def test_spite_turn_2_discard_ends_turn_and_keeps_order():
    game = stacked()
    game.act(0, "discard 8C 2")
    assert game.to_act == (1,)
    assert zone(game.view(1), "hand.1") == list(reversed(H1))  # first turn: already 5
    game.act(1, "discard 2D 0")
    assert len(zone(game.view(0), "hand.0")) == 5  # refilled (SPITE-TURN-1)
    game.act(0, "discard QS 2")
    assert zone(game.view(1), "discard.0.2") == ["QS", "8C"]  # top first, all face up
    game.act(1, "discard JD 0")
    game.act(0, "pay 0")
    legal = game.view(0)["legal"]
    assert not any(a.startswith("lift 2") for a in legal)  # only the top, QS, may be played
    assert "lift 0 0" not in legal


def test_spite_turn_1_refill_draws_are_private():
    game = stacked()
    heard = listen(game, (0, 1, cardcore.SPECTATOR))
    game.act(0, "discard 8C 2")
    game.act(1, "discard 2D 0")
    drawn = {s: [e for e in log if e["event"] == "card-drawn"] for s, log in heard.items()}
    assert [e["card"] for e in drawn[0]] == ["7S"]  # seat 0 drew the stock's top
    assert [e["card"] for e in drawn[1]] == [None] and [
        e["card"] for e in drawn[cardcore.SPECTATOR]
    ] == [None]
    assert "7S" not in str(heard[1]) + str(heard[cardcore.SPECTATOR])


def test_spite_turn_3_empty_hand_refills_at_once():
    h0 = ["AC", "2C", "3C", "4C", "5C"]
    deck = full_deck(dealt(P0, P1, h0, H1, ["6C", "7C", "8C", "9C", "10C", "JC", "QC", "KS"]))
    game = stacked(deck)
    for card in h0:
        game.act(0, f"play {card} 1")
    assert zone(game.view(0), "hand.0") == ["10C", "9C", "8C", "7C", "6C"]
    assert game.to_act == (0,)


# --- completing a pile ------------------------------------------------------------------------


def test_spite_build_2_completed_pile_goes_back_into_the_stock():
    h0 = ["AC", "2C", "3C", "4C", "5C"]
    stock = ["6C", "7C", "8C", "9C", "10C", "JC", "QC", "KS", "KD", "KC"]
    game = stacked(full_deck(dealt(P0, P1, h0, H1, stock)))
    heard = listen(game, (1,))
    for card in h0 + stock[:5] + ["JC"]:
        game.act(0, f"play {card} 1")
    assert game.view(0)["table"]["build_1"] == 11 and game.view(0)["table"]["stock_left"] == 78
    game.act(0, "play QC 1")
    table = game.view(1)["table"]
    assert table["build_1"] == 0 and zone(game.view(1), "build.1") == []
    assert table["stock_left"] == 90
    assert any(e["event"] == "shuffled" and e["zone"] == "stock" for e in heard[1])
    again = cardcore.new_game(NAME, 2, position=game.position(), seed=2, options={"payoff": 3})
    assert again.view(1)["zones"] == game.view(1)["zones"]


# --- winning and scoring ----------------------------------------------------------------------


def test_spite_win_1_and_score_1_first_empty_payoff_wins():
    game = stacked(payoff=1, deck=full_deck(dealt(["AS"], ["7D"], H0, H1, STOCK)))
    game.act(0, "pay 2")
    assert game.is_over and game.result.winners == (0,)
    assert game.result.scores == (5.0, 0.0) and game.result.reason == "payoff emptied"


# --- the house rule ---------------------------------------------------------------------------


def test_spite_jokers_1_option_bounded_and_only_with_the_rule():
    game = stacked(rules=(JOKERS,), deck=full_deck(dealt(P0, P1, H0, H1, STOCK), jokers=4))
    assert sum(c.is_joker for c in game.logic.deck(2, game.options)) == 4
    with pytest.raises(OptionError):
        stacked(rules=(JOKERS,), spite_jokers=9)
    with pytest.raises(OptionError):
        stacked(spite_jokers=2)


def test_spite_jokers_1_joker_is_wild_and_shows_what_it_stands_for():
    h0 = ["JK", "2C", "3D", "QS", "8C"]
    deck = full_deck(dealt(P0, P1, h0, H1, STOCK), jokers=2)
    game = stacked(deck, rules=(JOKERS,), spite_jokers=2)
    heard = listen(game, (1,))
    assert "play JK 3" in game.view(0)["legal"]
    game.act(0, "play JK 3")
    assert game.view(1)["table"]["build_3"] == 1
    assert [e["stands_for"] for e in heard[1] if e["event"] == "spite-wild"] == ["A"]
    plain = stacked()
    assert "play JK 0" not in plain.view(0)["legal"]


# --- persistence, kit, CLI, RL, sessions -------------------------------------------------------


def test_spite_record_replay_save_load_position():
    game = stacked()
    for seat, text in [(0, "pay 0"), (0, "play 2C 0"), (0, "play KH 0"), (0, "discard 8C 1")]:
        game.act(seat, text)
    assert cardcore.replay(game.record()).position() == game.position()
    assert cardcore.load(game.save()).position() == game.position()
    again = cardcore.new_game(NAME, 2, position=game.position(), seed=3, options={"payoff": 3})
    assert again.view(1)["zones"] == game.view(1)["zones"]
    assert again.view(0)["legal"] == game.view(0)["legal"]


def test_spite_conformance_kit():
    report = check_game(NAME, players=2, games=2, options={"payoff": 5})
    assert report.ok and report.leaks == 0 and not report.skipped


def test_spite_conformance_kit_with_house_rule():
    report = check_game(NAME, players=2, rules=[JOKERS], games=1, options={"payoff": 5})
    assert report.ok and report.leaks == 0


def test_spite_cli_rules_simulate_and_play(capsys, monkeypatch):
    from cardcore import cli

    assert cli.main(["rules", NAME]) == 0
    out = capsys.readouterr().out
    assert "SPITE-DEAL-1" in out and "SPITE-WILD-1" in out and "payoff" in out
    assert cli.main(["simulate", NAME, "--players", "2", "--games", "2", "--quiet",
                     "--json", os.devnull, "-o", "payoff=4"]) == 0  # fmt: skip
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert cli.main(["play", NAME, "--seed", "5", "--no-record", "-o", "payoff=4"]) == 0
    out = capsys.readouterr().out
    twin = cardcore.new_game(NAME, 2, seed=5, options={"payoff": 4})
    seen = words(twin.view(0))
    z = twin.state.zones
    hidden = {str(c) for zi in (1, 2, 4) for c in z.cards[zi][: -1 if zi in (1, 2) else None]}
    hidden |= {str(c) for c in z.cards[0]}
    assert not (words(out) & (hidden - seen))
    assert "spite-2026-12-16 with 2 players; you are Player 1" in out
    legal = [str(a) for a in twin.legal_actions(0)]
    assert f"#1 {legal[0]}" in out and f"#{len(legal)} {legal[-1]}" in " ".join(out.split())
    assert "left the game before its end" in out


def test_spite_rl_observation_ignores_hidden_cards():
    from cardcore.rl import aec_env, observe

    a = stacked()
    # twin: the cards under the payoff tops, seat 1's hand and the stock dealt otherwise
    b = stacked(full_deck(dealt(["9D", "6D", "AS"], ["9C", "6C", "7D"], H0,
                                ["4H", "6S", "10H", "JH", "2H"], ["7H", "8H"])))  # fmt: skip
    oa, ob = observe(a, 0), observe(b, 0)
    for key in oa:
        assert np.array_equal(np.asarray(oa[key]), np.asarray(ob[key])), key
    env = aec_env(NAME, 2, options={"payoff": 4})
    env.reset(seed=3)
    for _ in range(6):
        obs = env.last()[0]
        env.step(int(obs["action_mask"].nonzero()[0][0]))
    assert env.match.game.version == 6


def test_spite_session_frames_hide_payoff_stock_and_hand():
    from cardcore.session import Session

    session = Session.create(
        NAME, ["Ann", "Bob"], now=0.0, deck=DECK, seed=7, options={"payoff": 3}
    )
    frames: dict = {"ann": [], "bob": [], "spy": []}

    def send(conn, msg, now):
        for o in session.handle(conn, json.dumps(msg), now=now):
            frames[o.conn].append(o.message)

    send("ann", {"type": "join", "seat": 0}, 1.0)
    send("bob", {"type": "join", "seat": 1}, 2.0)
    send("spy", {"type": "watch"}, 2.5)
    for i, (conn, text) in enumerate([("ann", "pay 0"), ("ann", "play 2C 0"), ("ann", "play KH 0"),
                                      ("ann", "discard 8C 1"), ("bob", "discard 2D 0")]):  # fmt: skip
        send(conn, {"type": "act", "action": text, "seen": i}, 3.0 + i)
    errors = [m for f in frames.values() for m in f if m.get("type") == "error"]
    assert not errors, errors
    under = {"9S", "9H", "5C"}  # still under the payoff tops ("pay 0" turned 5D up)
    drawn = {"7S", "8S", "JS"}  # seat 0's refill, the stock's top three
    assert not words(frames["ann"]) & (under | {"4C", "6H", "10C", "JD", "10S", "6S"})
    assert not words(frames["spy"]) & (under | drawn | {"4C", "6H", "10C", "JD", "10S"})
    assert not words(frames["bob"]) & (under | drawn | {"10S", "6S"})
    assert any(
        "spite-wild" in json.dumps(m) and '"stands_for": "3"' in json.dumps(m)
        for m in frames["bob"]
    )
