"""Two short one-module games written from the docs alone: Crazy Eights and Oh Hell.

Each is registered with :func:`cardcore.register` (as the plugin guide says for tests),
checked with the conformance kit, played to the end from fixed seeds, and held to its
rules with stacked decks (``deck=``) and positions.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import cardcore
from cardcore import IllegalActionError, NotationError, parse_cards, standard_52
from cardcore.testing import check_game
from tests.plugins import eights_short_2026_12_19 as eights
from tests.plugins import ohhell_2026_12_19 as ohhell


@pytest.fixture(scope="module", autouse=True)
def _games() -> Iterator[None]:
    cardcore.register("cardcore.games", "eights-short", eights)
    cardcore.register("cardcore.games", "ohhell", ohhell)
    yield
    cardcore.unregister("cardcore.games", "eights-short")
    cardcore.unregister("cardcore.games", "ohhell")


# --- the conformance kit -------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 5])
def test_eights_short_conformance_kit(players: int) -> None:
    report = check_game("eights-short", players=players, games=3, seed=3)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0 and not report.skipped


@pytest.mark.parametrize(("players", "top"), [(3, 3), (5, 2)])
def test_ohhell_conformance_kit(players: int, top: int) -> None:
    report = check_game("ohhell", players=players, options={"top": top}, games=3, seed=4)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0 and not report.skipped


# --- fixed-seed games played to the end ------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_eights_short_seeded_games_end_by_the_rules(seed: int) -> None:
    game = cardcore.new_game("eights-short", 3, seed=seed)
    agents = [cardcore.RandomAgent(seed=seed * 10 + s) for s in range(3)]
    result = cardcore.play(game, agents)
    assert game.is_over and result.reason != "truncated"
    hands = [z["cards"] for z in game.view(None)["zones"] if z["name"].startswith("hand.")]
    held = [eights.POINTS.total(parse_cards(" ".join(h))) for h in hands]
    assert list(result.scores) == held  # EIGHTS8-END-1: the points left in hand
    assert set(result.winners) == {s for s in range(3) if held[s] == min(held)}
    if result.reason.endswith("went out"):
        assert min(held) == 0


@pytest.mark.parametrize("seed", [1, 2])
def test_ohhell_seeded_games_play_every_hand(seed: int) -> None:
    game = cardcore.new_game("ohhell", 4, options={"top": 4}, seed=seed)
    result = cardcore.play(game, [cardcore.RandomAgent(seed=seed + s) for s in range(4)])
    table = game.view(None)["table"]
    assert result.reason == "all hands played" and table["hand_no"] == 4
    assert list(result.scores) == table["totals"]
    past = game.history()  # one entry per hand, adding up to the totals
    assert [h["hand"] for h in past] == [0, 1, 2, 3]
    assert [sum(h["scores"][s] for h in past) for s in range(4)] == table["totals"]
    # OHHELL-SCORE-1: each hand pays 0 or 10 + a bid of 0..cards, so at most 4 hands' worth
    assert all(0 <= t <= 4 * 10 + 4 + 3 + 2 + 1 for t in table["totals"])
    assert set(result.winners) == {
        s for s, t in enumerate(table["totals"]) if t == max(table["totals"])
    }


# --- Crazy Eights rules ------------------------------------------------------------------

# Two players, 7 cards each dealt alternately from the top: seat 0 gets 8H 3C 5C 7C 9C JC KC,
# seat 1 gets 2C 4C 6C 8C 10C QC AC; the 15th card, 5H, starts the discards.
EIGHTS_DECK = "8H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 5H"


def test_eights8_play_1_match_rank_or_suit() -> None:
    game = cardcore.new_game("eights-short", 2, deck=EIGHTS_DECK, seed=1)
    assert [str(a) for a in game.legal_actions(0)] == ["play 5C"] + [f"play 8H {s}" for s in "CDHS"]
    with pytest.raises(IllegalActionError, match="EIGHTS8-PLAY-1"):
        game.act(0, "play 3C")
    with pytest.raises(IllegalActionError, match="EIGHTS8-PLAY-1"):
        game.act(0, "play 4C")  # seat 1 holds it, not seat 0
    game.act(0, "play 5C")
    assert game.to_act == (1,)
    assert "play 2C" in [str(a) for a in game.legal_actions(1)]  # now clubs, the top's suit


def test_eights8_wild_1_an_eight_names_the_suit() -> None:
    game = cardcore.new_game("eights-short", 2, deck=EIGHTS_DECK, seed=1)
    with pytest.raises(IllegalActionError, match="EIGHTS8-WILD-1"):
        game.act(0, "play 8H")  # well formed, but an eight must name a suit
    with pytest.raises(NotationError, match="EIGHTS8-WILD-1"):
        game.act(0, "play 8H X")
    game.act(0, "PLAY 8h s")
    assert game.view(1)["table"]["called"] == "S"
    # seat 1 holds no spade, only clubs and its eight: the called suit rules, not the 8H's hearts
    assert [str(a) for a in game.legal_actions(1)] == [f"play 8C {s}" for s in "CDHS"]


def test_eights8_draw_1_draw_only_without_a_play_and_keep_the_turn() -> None:
    game = cardcore.new_game("eights-short", 2, deck=EIGHTS_DECK, seed=1)
    with pytest.raises(IllegalActionError, match="EIGHTS8-DRAW-1"):
        game.act(0, "draw")  # seat 0 can play 5C
    game.act(0, "play 8H D")
    assert [str(a) for a in game.legal_actions(1)] == [f"play 8C {s}" for s in "CDHS"]
    game.act(1, "play 8C H")
    # seat 0 holds clubs only: hearts called, no eight left, so it must draw and stays to act
    assert [str(a) for a in game.legal_actions(0)] == ["draw"]
    before = game.view(0)["zones"][2]["count"]
    game.act(0, "draw")
    assert game.to_act == (0,) and game.view(0)["zones"][2]["count"] == before + 1


def _position(
    to_act: int, hands: list[str], discard: str, stock: bool, called: str = "null"
) -> str:
    """A two-seat eights position: the given hands and discard top, every other card in
    the stock (or under the discard top when *stock* is false)."""
    named = parse_cards(" ".join([*hands, discard]))
    rest = " ".join(str(c) for c in standard_52() if c not in named)
    piles = [f"stock: {rest if stock else ''}", f"discard: {'' if stock else rest} {discard}!"]
    piles += [f"hand.{s}: " + " ".join(f"{c}@{s}" for c in h.split()) for s, h in enumerate(hands)]
    return f"eights-short to_act=[{to_act}] called={called} passes=0 | " + " | ".join(piles)


def test_eights8_end_1_first_out_wins_and_others_score_their_cards() -> None:
    text = _position(0, ["5C", "8S KD 3H AC"], "5H", stock=True)
    game = cardcore.new_game("eights-short", 2, position=text, seed=1)
    game.act(0, "play 5C")
    assert game.is_over and game.result is not None
    assert game.result.winners == (0,) and list(game.result.scores) == [0, 50 + 10 + 3 + 1]


def test_eights8_pass_1_pass_only_when_nothing_to_draw_and_block_ends() -> None:
    # every card but the discard top KH is in a hand; seat 0 holds spades without 8 or K
    spades = " ".join(f"{r}S" for r in ("2", "3", "4", "5", "6", "7", "9", "10", "J", "Q"))
    hand1 = " ".join(str(c) for c in standard_52() if str(c) not in [*spades.split(), "KH"])
    game = cardcore.new_game(
        "eights-short", 2, position=_position(0, [spades, hand1], "KH", True), seed=1
    )
    assert [str(a) for a in game.legal_actions(0)] == ["pass"]
    with pytest.raises(IllegalActionError, match="EIGHTS8-DRAW-1"):
        game.act(0, "draw")
    game.act(0, "pass")
    assert game.to_act == (1,) and game.view(1)["table"]["passes"] == 1
    game.act(1, "play KS")  # a play clears the passes
    assert game.view(0)["table"]["passes"] == 0


# --- Oh Hell rules -------------------------------------------------------------------------

# Three seats, one card each (top=1: a single hand). Seat 0 deals; cards go to seats
# 1, 2, 0, then the trump card is turned.


def test_ohhell_bid_2_the_dealer_may_not_make_the_bids_fit() -> None:
    game = cardcore.new_game("ohhell", 3, options={"top": 2}, deck="AS 3S 2H KH 4C 9D 5D", seed=1)
    assert game.to_act == (1,)  # OHHELL-BID-1: left of the dealer bids first
    game.act(1, "bid 1")
    game.act(2, "bid 0")
    assert [str(a) for a in game.legal_actions(0)] == ["bid 0", "bid 2"]
    with pytest.raises(IllegalActionError, match="OHHELL-BID-2"):
        game.act(0, "bid 1")
    with pytest.raises(IllegalActionError, match="OHHELL-BID-1"):
        game.act(0, "bid 3")


def test_ohhell_follow_1_follow_the_suit_led() -> None:
    game = cardcore.new_game("ohhell", 3, options={"top": 2}, deck="AS 3S 2H KH 4C 9D 5D", seed=1)
    for seat, bid in ((1, 1), (2, 0), (0, 0)):
        game.act(seat, f"bid {bid}")
    assert game.to_act == (1,)  # OHHELL-LEAD-1
    game.act(1, "play AS")
    assert [str(a) for a in game.legal_actions(2)] == ["play 3S"]
    with pytest.raises(IllegalActionError, match="OHHELL-FOLLOW-1"):
        game.act(2, "play 4C")
    game.act(2, "play 3S")
    assert [str(a) for a in game.legal_actions(0)] == ["play 2H", "play 9D"]  # void: anything


def test_ohhell_trick_1_a_trump_beats_the_ace_led() -> None:
    game = cardcore.new_game("ohhell", 3, options={"top": 1}, deck="AS KS 2D 5D", seed=1)
    for seat, bid in ((1, 1), (2, 0), (0, 1)):
        game.act(seat, f"bid {bid}")
    for seat, card in ((1, "AS"), (2, "KS"), (0, "2D")):
        game.act(seat, f"play {card}")
    assert game.is_over and game.result is not None
    # OHHELL-SCORE-1: seat 0 bid 1 and took the trick, seat 2 bid 0 and took none, seat 1 missed
    assert list(game.result.scores) == [11, 0, 10] and game.result.winners == (0,)


def test_ohhell_score_1_exact_bids_only() -> None:
    game = cardcore.new_game("ohhell", 3, options={"top": 1}, deck="AS KS 2H 5D", seed=1)
    game.act(1, "bid 1")
    game.act(2, "bid 0")
    assert [str(a) for a in game.legal_actions(0)] == ["bid 1"]  # OHHELL-BID-2 leaves one
    game.act(0, "bid 1")
    for seat, card in ((1, "AS"), (2, "KS"), (0, "2H")):
        game.act(seat, f"play {card}")
    assert game.result is not None and list(game.result.scores) == [0, 11, 10]


def test_ohhell_deal_1_hands_shrink_and_the_deal_passes_left() -> None:
    game = cardcore.new_game("ohhell", 3, options={"top": 3}, seed=5)
    agent = cardcore.RandomAgent(seed=1)
    seen = []
    while not game.is_over:
        view = game.view(None)
        key = (view["table"]["hand_no"], view["to_act"][0])
        if all(b < 0 for b in view["table"]["bids"]):
            seen.append((key, [z["count"] for z in view["zones"] if z["name"].startswith("hand.")]))
        seat = game.to_act[0]
        game.act(seat, str(agent.choose(game.view(seat), game.legal_actions(seat))))
    # hand h: dealer h % 3, first bidder left of it, 3 - h cards each
    assert seen == [((0, 1), [3, 3, 3]), ((1, 2), [2, 2, 2]), ((2, 0), [1, 1, 1])]
