"""Gin Rummy written from cardcore's docs by a third-party plugin author (2026-12-15).

The game (``tests/plugins/gin_2026_12_15.py``) and its house rule Oklahoma
(``tests/plugins/gin_rules_2026_12_15.py``, through the game's own hook ``gin_knock_limit``)
are registered in place with ``cardcore.register``. Every deal is stacked with ``deck=``
(top first: cards 0-19 alternate seat 0 (non-dealer), seat 1; card 20 is the upcard; the
stock follows, its top first).
"""

from __future__ import annotations

import json

import pytest

import cardcore
from cardcore import (
    SPECTATOR,
    CardMoved,
    CardRevealed,
    Event,
    IllegalActionError,
    NotationError,
    RoundScored,
)
from cardcore.search import ISMCTSAgent
from cardcore.testing import check_game
from tests.plugins import gin_2026_12_15 as gin
from tests.plugins import gin_rules_2026_12_15 as house

NAME, OKLA = gin.NAME, house.NAME
ALL52 = [
    f"{r}{s}"
    for s in "SHDC"
    for r in (["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
]

KNOCKER = ["AS", "2S", "3S", "4H", "4D", "4C", "7C", "8C", "9C", "5D"]  # deadwood 5 (5D)
GINNER = ["AS", "2S", "3S", "4H", "4D", "4C", "7C", "8C", "9C", "10C"]  # deadwood 0
DEFENDER = [
    "4S",
    "10C",
    "JC",
    "KC",
    "KS",
    "KD",
    "6H",
    "7H",
    "9D",
    "2D",
]  # lays off 4S, 10C then JC: 24 left
UNDERCUTTER = ["KC", "KS", "KD", "5H", "6H", "7H", "8D", "9D", "10D", "2C"]  # deadwood 2
LOSER = ["KC", "KS", "KD", "6H", "7H", "9D", "2D", "5C", "JD", "4S"]  # deadwood 43


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, gin)
    cardcore.register("cardcore.rules", OKLA, house)
    yield
    cardcore.unregister("cardcore.rules", OKLA)
    cardcore.unregister("cardcore.games", NAME)


def deck(h0: list[str], h1: list[str], up: str = "KH", stock: tuple[str, ...] = ("QS",)) -> str:
    dealt = [c for pair in zip(h0, h1, strict=True) for c in pair] + [up, *stock]
    assert len(set(dealt)) == len(dealt)
    return " ".join(dealt + [c for c in ALL52 if c not in dealt])


def new(h0=KNOCKER, h1=DEFENDER, up="KH", rules=(), target=100, **kw) -> cardcore.Game:
    return cardcore.new_game(
        NAME, 2, deck=deck(h0, h1, up), seed=3, rules=list(rules), options={"target": target}, **kw
    )


def to_knock(game: cardcore.Game) -> None:
    """Both pass the upcard; seat 0 draws QS (now position 0 of its hand)."""
    for seat, text in [(0, "pass"), (1, "pass"), (0, "draw")]:
        game.act(seat, text)


def cards(view, zone: str):
    return next(z["cards"] for z in view["zones"] if z["name"] == zone)


# -- deal, notation, legal actions ---------------------------------------------------------


def test_gin_deal_1_up_1_upcard_offered_to_non_dealer_then_dealer_then_forced_draw():
    game = new()
    v = game.view(0)
    assert cards(v, "discard") == ["KH"] and v["table"]["dealer"] == 1
    assert sorted(cards(v, "hand.0")) == sorted(KNOCKER) and v["table"]["stock"] == 31
    assert game.to_act == (0,) and v["legal"] == ["take", "pass"]
    game.act(0, "pass")
    assert game.to_act == (1,) and game.view(1)["legal"] == ["take", "pass"]
    game.act(1, "pass")
    assert game.to_act == (0,) and game.view(0)["legal"] == ["draw"]
    game.act(0, "draw")
    legal = game.view(0)["legal"]
    assert legal[:11] == ["discard " + c for c in ["QS", *reversed(KNOCKER)]]
    # knock 0 (QS, keeps deadwood 5) and knock 1 (5D, keeps QS: 10) are the only knocks
    assert legal[11:] == ["knock 0", "knock 1"]


def test_gin_take_1_card_taken_from_discard_may_not_be_discarded_or_knocked():
    game = new()
    game.act(0, "take")  # KH
    legal = game.view(0)["legal"]
    assert "discard KH" not in legal and "knock 0" not in legal and "discard 5D" in legal
    before = game.position()
    with pytest.raises(IllegalActionError, match="GIN-TAKE-1"):
        game.act(0, "discard KH")
    with pytest.raises(IllegalActionError, match="GIN-TAKE-1"):
        game.act(0, "knock 0")
    assert game.position() == before
    game.act(0, "discard 5D")
    assert game.view(1)["legal"] == ["draw", "take"]


def test_gin_up_1_dealer_takes_after_pass():
    game = new()
    game.act(0, "pass")
    game.act(1, "take")
    assert game.view(1)["table"]["taken"] == "KH" and game.to_act == (1,)
    game.act(1, "discard 2D")
    assert game.to_act == (0,) and game.view(0)["legal"] == ["draw", "take"]


# -- hidden information ------------------------------------------------------------------


def test_gin_knock_2_hands_hidden_until_knock_then_shown_to_all_knock_card_face_down():
    streams: dict[object, list] = {0: [], 1: [], SPECTATOR: []}
    subs = [(Event, streams[s].append, s) for s in streams]
    game = new(subscribers=subs)
    to_knock(game)
    assert cards(game.view(1), "hand.0") == [None] * 11
    assert cards(game.view(None), "hand.1") == [None] * 10
    drawn = [e for e in streams[1] if type(e).__name__ == "CardDrawn"]
    assert drawn[-1].card is None  # seat 1 does not see QS drawn
    game.act(0, "knock 0")  # QS face down
    for seat in (0, 1, None):
        v = game.view(seat)
        assert cards(v, "hand.0") == ["5D"]
        assert sorted(cards(v, "hand.1")) == sorted(DEFENDER)
        assert v["table"]["deadwood"] == [5, 48]  # defender before lay-offs
        assert cards(v, "knocked") == (["QS"] if seat == 0 else [None])
    melds = [cards(game.view(None), f"meld.{i}") for i in range(3)]
    assert melds == [["4H", "4D", "4C"], ["9C", "8C", "7C"], ["3S", "2S", "AS"]]  # top first
    for s in (1, SPECTATOR):
        revealed = {str(e.card) for e in streams[s] if isinstance(e, CardRevealed)}
        assert revealed == set(DEFENDER) | {"5D"}
        down = [e for e in streams[s] if isinstance(e, CardMoved) and e.dst == "knocked"]
        assert len(down) == 1 and down[0].card is None
    assert [str(e.card) for e in streams[0] if isinstance(e, CardMoved) and e.dst == "knocked"] == [
        "QS"
    ]
    record = json.dumps(game.record())
    assert "knock 0" in record and "QS" not in record.replace('"QS"', "")


# -- lay-offs and scores worked by hand ----------------------------------------------------


def test_gin_lay_1_score_1_knock_with_layoffs_scores_difference():
    scored: list[RoundScored] = []
    game = new(subscribers=[(RoundScored, scored.append, None)])
    to_knock(game)
    game.act(0, "knock 0")
    assert game.to_act == (1,) and game.view(1)["table"]["phase"] == "layoff"
    # 4S fits both the set of fours and the run A-2-3 of spades
    assert game.view(1)["legal"] == ["layoff 4S 0", "layoff 4S 2", "layoff 10C 1", "done"]
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(0, "done")
    with pytest.raises(IllegalActionError, match="GIN-LAY-1"):
        game.act(1, "layoff JC 1")  # fits only once 10C is laid off
    game.act(1, "layoff 10C 1")
    assert "layoff JC 1" in game.view(1)["legal"]
    game.act(1, "layoff JC 1")
    game.act(1, "layoff 4S 0")
    assert game.view(1)["legal"] == ["done"]
    game.act(1, "done")
    # knocker 5 (5D); defender 6H 7H 9D 2D = 24 -> 24 - 5 = 19
    assert [(e.scores, e.totals) for e in scored] == [((19, 0), (19, 0))]
    v = game.view(None)
    assert v["table"]["phase"] == "shown" and v["table"]["wins"] == [1, 0]
    assert game.to_act == (1,) and game.view(1)["legal"] == ["next"]
    game.act(1, "next")
    assert game.view(0)["table"]["dealer"] == 0 and game.view(0)["table"]["hand_no"] == 2
    assert game.to_act == (1,)  # the new non-dealer


def test_gin_score_2_undercut_gives_defender_difference_plus_25():
    scored: list[RoundScored] = []
    game = new(h1=UNDERCUTTER, subscribers=[(RoundScored, scored.append, None)])
    to_knock(game)
    game.act(0, "knock 0")
    assert game.view(1)["legal"] == ["done"]
    game.act(1, "done")
    assert scored[0].scores == (0, 5 - 2 + 25)


def test_gin_gin_1_score_3_gin_scores_25_plus_deadwood_and_refuses_layoffs():
    scored: list[RoundScored] = []
    game = new(h0=GINNER, h1=LOSER, subscribers=[(RoundScored, scored.append, None)])
    to_knock(game)
    game.act(0, "knock 0")
    assert scored[0].scores == (25 + 43, 0)
    v = game.view(1)
    assert v["table"]["phase"] == "shown" and sorted(cards(v, "hand.1")) == sorted(LOSER)
    before = game.position()
    with pytest.raises(IllegalActionError, match="GIN-GIN-1"):
        game.act(1, "layoff 4S 0")  # 4S would fit 4C 4D 4H
    assert game.position() == before


def test_gin_dead_1_stock_down_to_two_is_a_dead_hand_same_dealer():
    game = new()
    game.act(0, "pass")
    game.act(1, "pass")
    seat, turns = 0, 0
    while game.view(None)["table"]["hand_no"] == 1:
        game.act(seat, "draw")
        hand = cards(game.view(seat), f"hand.{seat}")
        game.act(seat, f"discard {hand[0]}")  # the card just drawn
        seat, turns = 1 - seat, turns + 1
    assert turns == 29  # 31 - 29 = 2 cards left
    t = game.view(None)["table"]
    assert t["scores"] == [0, 0] and t["wins"] == [0, 0] and t["dealer"] == 1 and t["stock"] == 31


def test_gin_match_1_2_match_end_bonuses_payouts_ranking():
    game = new(target=10)
    to_knock(game)
    game.act(0, "knock 0")
    for text in ["layoff 10C 1", "layoff JC 1", "layoff 4S 0", "done"]:
        game.act(1, text)
    assert game.is_over
    r = game.result
    assert r.winners == (0,) and r.reason == "target"
    assert r.scores == (19 + 25 + 100, 0.0) and r.payouts == (144, -144)


# -- hostile callers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "text", "error", "rule"),
    [
        (0, "knock 7", IllegalActionError, "GIN-KNOCK-1"),  # keeps 23 deadwood
        (0, "knock 11", IllegalActionError, "GIN-KNOCK-1"),
        (0, "discard KS", IllegalActionError, "GIN-TURN-1"),  # not in hand
        (1, "draw", IllegalActionError, "CORE-TURN-1"),
        (0, "take", IllegalActionError, "GIN-TURN-1"),  # already drew
        (0, "knock x", NotationError, "CORE-NOTATION-1"),
        (0, "discard 1X", NotationError, "CORE-NOTATION-2"),
        (0, "layoff 4S", NotationError, "CORE-NOTATION"),
        (0, "meld AS 2S 3S", NotationError, "CORE-NOTATION"),
    ],
)
def test_gin_turn_1_hostile_inputs_refused_and_nothing_changes(seat, text, error, rule):
    game = new()
    to_knock(game)
    before, version = game.position(), game.version
    with pytest.raises(error, match=rule):
        game.act(seat, text)
    assert game.position() == before and game.version == version


def test_gin_lay_1_card_that_fits_no_meld_is_refused():
    game = new()
    to_knock(game)
    game.act(0, "knock 0")
    before = game.position()
    with pytest.raises(IllegalActionError, match="GIN-LAY-1"):
        game.act(1, "layoff 9D 0")
    with pytest.raises(IllegalActionError, match="GIN-LAY-1"):
        game.act(1, "layoff 5H 0")  # not in hand either
    assert game.position() == before


# -- house rule Oklahoma -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("up", "knocks"), [("5H", True), ("3H", False), ("AH", False), ("KH", True)]
)
def test_gin_var_1_oklahoma_upcard_sets_knock_limit(up, knocks):
    game = new(up=up, rules=[OKLA])
    assert game.view(0)["table"]["knock_limit"] == {"5H": 5, "3H": 3, "AH": 0, "KH": 10}[up]
    to_knock(game)
    assert ("knock 0" in game.view(0)["legal"]) is knocks
    if not knocks:
        with pytest.raises(IllegalActionError, match="GIN-KNOCK-1"):
            game.act(0, "knock 0")


def test_gin_var_1_oklahoma_ace_allows_gin():
    game = new(h0=GINNER, h1=LOSER, up="AH", rules=[OKLA])
    to_knock(game)
    assert "knock 0" in game.view(0)["legal"]
    game.act(0, "knock 0")
    assert game.view(None)["table"]["scores"] == [68, 0]


# -- persistence, clone, kit, search -------------------------------------------------------


def test_gin_record_replay_save_load_clone_round_trip():
    game = new()
    to_knock(game)
    game.act(0, "knock 0")
    game.act(1, "layoff 10C 1")
    again = cardcore.replay(json.loads(json.dumps(game.record())))
    assert again.position() == game.position() and again.view(1) == game.view(1)
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.position() == game.position()
    twin = game.clone()
    twin.act(1, "done")
    assert game.view(1)["table"]["phase"] == "layoff" and twin.view(1)["table"]["phase"] == "shown"
    start = cardcore.new_game(NAME, 2, position=game.position(), seed=9)
    assert start.view(1)["legal"] == game.view(1)["legal"]


def test_gin_conformance_kit():
    report = check_game(NAME, players=2, options={"target": 10}, games=1, seed=0)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0 and not report.skipped


def test_gin_var_1_conformance_kit_with_oklahoma():
    checks = {"rejections", "notation", "views", "conservation", "scores"}
    report = check_game(
        NAME, players=2, rules=[OKLA], options={"target": 10}, games=1, seed=0, checks=checks
    )
    assert report.ok and not report.skipped


def test_gin_search_agent_plays_a_hand():
    game = new()
    bot = ISMCTSAgent(seed=1, iterations=6)
    steps = 0
    while game.view(None)["table"]["hand_no"] == 1 and game.view(None)["table"]["phase"] != "shown":
        seat = game.to_act[0]
        action = bot.choose(game.view(seat), game.legal_actions(seat))
        game.apply(action)
        steps += 1
        assert steps < 200
    assert steps >= 3
