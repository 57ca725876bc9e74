"""Independent rules examination of Speed (2026-12-02).

Every expectation below was worked out from the seed (``spit.en.md``: Speed is Spit's close
variant with four centre piles, side piles of five or fifteen, a hand of five and a stock,
jokers wild), the rule decisions (``rules-decisions.md``, SPEED-* and SPIT-RT-*) and the
engine's spec ``seeds/spit.md`` before the engine was run. Each test is named after the rule
ID it checks and drives the game through the public API only: ``new_game`` with a stacked
``deck=`` or a ``position=``, ``act`` (with ``seen``), ``legal_actions``, ``view``,
``position``, ``result``, ``record``, ``replay`` and ``run_realtime``.

Deck order (SPEED-SETUP-3), top first: the card of play pile L, the card of play pile R,
seat 0's side pile (the first dealt is its top), seat 1's side pile, then the players' cards
alternately starting with seat 0: each player's first five are the hand, the rest the stock
(the first received on top). Positions list every pile bottom to top.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import cardcore
from cardcore import (
    IllegalActionError,
    NotationError,
    OptionError,
    StaleActionError,
    standard_52,
    with_jokers,
)

DECK = [str(c) for c in standard_52()]
DECK_JK = [str(c) for c in with_jokers(standard_52(), 2)]
ZONES = ["hand.0", "hand.1", "stock.0", "stock.1", "side.0", "side.1", "pile.L", "pile.R"]
ON_REQUEST = "speed.stuck-on-request"


# ------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------


def deal(
    left: str,
    right: str,
    side0: Sequence[str],
    side1: Sequence[str],
    hand0: Sequence[str],
    hand1: Sequence[str],
    stock0: Sequence[str] = (),
    stock1: Sequence[str] = (),
    *,
    side_pile: int = 5,
    jokers: int = 0,
) -> str:
    """A stacked top-first deck. Unnamed cards fill the bottoms of the side piles, then the
    bottoms of the stocks, in the library's deck order."""
    pool = list(DECK_JK if jokers else DECK)
    named = [left, right, *side0, *side1, *hand0, *hand1, *stock0, *stock1]
    for card in named:
        pool.remove(card)
    per_seat = (20 if side_pile == 5 else 10) + (1 if jokers else 0)

    def take(n: int) -> list[str]:
        out = pool[:n]
        del pool[:n]
        return out

    s0 = [*side0, *take(side_pile - len(side0))]
    s1 = [*side1, *take(side_pile - len(side1))]
    seat0 = [*hand0, *stock0, *take(per_seat - 5 - len(stock0))]
    seat1 = [*hand1, *stock1, *take(per_seat - 5 - len(stock1))]
    assert not pool, pool
    assert len(seat0) == len(seat1) == per_seat
    alternate = [card for pair in zip(seat0, seat1, strict=True) for card in pair]
    return " ".join([left, right, *s0, *s1, *alternate])


def new(deck: str, rules: Sequence[str] = (), **options: Any) -> cardcore.Game:
    return cardcore.new_game("speed", 2, deck=deck, seed=1, rules=list(rules), options=options)


def position(
    zones: Mapping[str, str],
    *,
    rest: str = "pile.R",
    requests: tuple[bool, bool] = (False, False),
    recycled: bool = False,
    jokers: bool = False,
) -> str:
    """A Speed position; *zones* bottom to top; every unnamed card goes under *rest*."""
    pool = list(DECK_JK if jokers else DECK)
    for text in zones.values():
        for card in text.split():
            pool.remove(card)
    out = {z: zones.get(z, "").split() for z in ZONES}
    out[rest] = pool + out[rest]

    def mark(zone: str, card: str) -> str:
        if zone.startswith("hand."):
            return f"{card}@{zone[-1]}"
        if zone.startswith("pile."):
            return f"{card}!"
        return card

    flag = {True: "true", False: "false"}
    head = f"speed v=1 requests=[{flag[requests[0]]},{flag[requests[1]]}] recycled={flag[recycled]}"
    body = "".join((f" | {z}: " + " ".join(mark(z, c) for c in out[z])).rstrip() for z in ZONES)
    return head + body


def from_position(text: str, rules: Sequence[str] = (), **options: Any) -> cardcore.Game:
    return cardcore.new_game("speed", 2, position=text, seed=1, rules=list(rules), options=options)


def table(game: cardcore.Game, viewer: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = game.view(viewer)["table"]
    return out


def piles(game: cardcore.Game) -> dict[str, list[str]]:
    out: dict[str, list[str]] = table(game)["piles"]
    return out


def hand(game: cardcore.Game, seat: int) -> list[str]:
    out: list[str] = table(game, seat)["seats"][seat]["hand"]
    return out


def counts(game: cardcore.Game, key: str) -> list[int]:
    return [s[key] for s in table(game)["seats"]]


def requested(game: cardcore.Game) -> list[bool]:
    return [s["requested"] for s in table(game)["seats"]]


def legal(game: cardcore.Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


# Deck A: L 7D, R KD. Seat 0 holds 8H AH 10H JH QH (stock 5H 4H ...), seat 1 QS 9D 10D JD 10C
# (stock 9H 6H ...). Side piles 2C 3C 4C 5C 9C and 2S 3S 4S 5S 6S (tops first).
DECK_A = deal(
    "7D",
    "KD",
    ["2C", "3C", "4C", "5C", "9C"],
    ["2S", "3S", "4S", "5S", "6S"],
    ["8H", "AH", "10H", "JH", "QH"],
    ["QS", "9D", "10D", "JD", "10C"],
    ["5H", "4H"],
    ["9H", "6H"],
)

# Deck B: L 7D, R 9S. Seat 0 holds 8H 7H 6H KH QH (stock 3D 4D), seat 1 6C 8C 10C 5C 2C.
DECK_B = deal(
    "7D",
    "9S",
    ["KC", "QC"],
    ["KS", "QS"],
    ["8H", "7H", "6H", "KH", "QH"],
    ["6C", "8C", "10C", "5C", "2C"],
    ["3D", "4D"],
    ["3H", "4H"],
)

# Deck E: L 7D, R 4S; nobody's hand fits (seat 0 A 10 J Q K, seat 1 A 9 9 9 2; the dead pile
# ranks are 4 to 7). Seat 0's stock top 8H would fit 7D but the stock does not count.
# Side tops 5C 6C 9C (seat 0) and 6S 5S 7S (seat 1): two dead turns, then 9C takes 10H.
DECK_E = deal(
    "7D",
    "4S",
    ["5C", "6C", "9C", "QC", "KC"],
    ["6S", "5S", "7S", "QS", "KS"],
    ["AH", "10H", "JH", "QH", "KH"],
    ["AD", "9D", "9S", "9H", "2D"],
    ["8H"],
)

# Deck F: L 7D, R 4S; seat 0's only play is 8H onto L, after which seat 0 holds AH KH QH JH
# and its refill KS, seat 1 AD KD QD JD AC: nobody fits 8H or 4S. Side tops 2C and 2S.
DECK_F = deal(
    "7D",
    "4S",
    ["2C", "10C", "JC", "QC", "KC"],
    ["2S", "10S", "JS", "QS", "9S"],
    ["8H", "AH", "KH", "QH", "JH"],
    ["AD", "KD", "QD", "JD", "AC"],
    ["KS"],
    ["3D"],
)

# Deck G: L 7D, R 4S; seat 0 holds nothing that fits (A 10 J Q K of hearts), seat 1 holds
# 8C (onto L) and AD 10D JD QD; seat 1's stock top is 9D. Side tops KC and KS.
DECK_G = deal(
    "7D",
    "4S",
    ["KC", "2C", "3C", "5C", "6C"],
    ["KS", "2S", "3S", "5S", "6S"],
    ["AH", "10H", "JH", "QH", "KH"],
    ["8C", "AD", "10D", "JD", "QD"],
    [],
    ["9D"],
)


# ------------------------------------------------------------------------------------------
# General, options and the deal
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 3, 4])
def test_speed_gen_1_exactly_two_players(players: int) -> None:
    with pytest.raises(OptionError, match=r"\(CORE-SEAT-2\)"):
        cardcore.new_game("speed", players, seed=1)


def test_speed_gen_2_options_and_their_bounds() -> None:
    game = cardcore.new_game("speed", 2, seed=1)
    assert dict(game.options) == {"side_pile": 5, "jokers": 0}
    assert "JK" not in game.position()
    for bad in ({"jokers": 1}, {"jokers": 4}, {"side_pile": 10}, {"side_pile": 20}):
        with pytest.raises(OptionError):
            cardcore.new_game("speed", 2, seed=1, options=bad)
    wild = cardcore.new_game("speed", 2, seed=1, options={"jokers": 2})
    assert wild.position().count("JK") == 2


def test_speed_gen_2_a_stacked_deck_must_fit_the_options() -> None:
    with pytest.raises(OptionError):  # jokers without the option
        cardcore.new_game("speed", 2, deck=" ".join(DECK_JK), seed=1)
    # deck= stacks the top of the deck; the cards it leaves out follow (new_game's docstring),
    # so 52 named cards with jokers=2 still deal 54, the jokers last (seat 1's stock bottom
    # and seat 0's: the two last cards dealt)
    game = cardcore.new_game("speed", 2, deck=" ".join(DECK), seed=1, options={"jokers": 2})
    assert counts(game, "stock") == [16, 16]
    assert " | stock.0: JK " in game.position() and " | stock.1: JK " in game.position()


def test_speed_setup_1_3_stacked_deal_exactly() -> None:
    game = new(DECK_A)
    assert piles(game) == {"L": ["7D"], "R": ["KD"]}  # both turned up at once
    # views list every pile top first: the last card received is the hand's "top"
    assert hand(game, 0) == ["QH", "JH", "10H", "AH", "8H"]
    assert hand(game, 1) == ["10C", "JD", "10D", "9D", "QS"]
    assert counts(game, "stock") == [15, 15]
    assert counts(game, "side") == [5, 5]
    assert requested(game) == [False, False]
    assert game.to_act == (0, 1)
    pos = game.position()
    # side piles: seat 0's 2C..9C, 2C on top (positions list bottom to top)
    assert " | side.0: 9C 5C 4C 3C 2C" in pos and " | side.1: 6S 5S 4S 3S 2S" in pos


def test_speed_setup_2_side_piles_of_fifteen_give_ten_cards_each() -> None:
    deck = deal(
        "7D",
        "KD",
        ["2C"],
        ["2S"],
        ["8H", "AH", "10H", "JH", "QH"],
        ["QS", "9D", "10D", "JD", "10C"],
        side_pile=15,
    )
    game = new(deck, side_pile=15)
    assert piles(game) == {"L": ["7D"], "R": ["KD"]}
    assert hand(game, 0) == ["QH", "JH", "10H", "AH", "8H"]
    assert hand(game, 1) == ["10C", "JD", "10D", "9D", "QS"]
    assert counts(game, "stock") == [5, 5]
    assert counts(game, "side") == [15, 15]


@pytest.mark.parametrize(
    ("side_pile", "jokers", "stock"), [(5, 0, 15), (15, 0, 5), (5, 2, 16), (15, 2, 6)]
)
def test_speed_setup_3_deal_sizes(side_pile: int, jokers: int, stock: int) -> None:
    deck = deal(
        "7D",
        "KD",
        [],
        [],
        ["8H", "AH", "10H", "JH", "QH"],
        ["QS", "9D", "10D", "JD", "10C"],
        side_pile=side_pile,
        jokers=jokers,
    )
    game = new(deck, side_pile=side_pile, jokers=jokers)
    assert [len(hand(game, s)) for s in (0, 1)] == [5, 5]
    assert counts(game, "stock") == [stock, stock]
    assert counts(game, "side") == [side_pile, side_pile]
    assert 2 * (5 + stock + side_pile) + 2 == 52 + jokers


def test_speed_setup_3_random_deal_sizes_add_up() -> None:
    for seed in range(6):
        game = cardcore.new_game("speed", 2, seed=seed)
        t = table(game, 0)
        total = sum(len(p) for p in t["piles"].values())
        for s in (0, 1):
            total += 5 + t["seats"][s]["stock"] + t["seats"][s]["side"]
            assert t["seats"][s]["stock"] == 15
        assert total == 52


# ------------------------------------------------------------------------------------------
# Playing
# ------------------------------------------------------------------------------------------


def test_speed_play_1_legal_plays_in_hand_order_then_stuck() -> None:
    game = new(DECK_A)
    # 8H on 7D; AH on KD (wrap); QH on KD
    assert legal(game, 0) == ["play 8H L", "play AH R", "play QH R", "stuck"]
    assert legal(game, 1) == ["play QS R", "stuck"]
    game = new(DECK_B)  # 8H fits both 7D and 9S
    assert legal(game, 0) == ["play 8H L", "play 8H R", "play 6H L", "stuck"]
    assert legal(game, 1) == ["play 6C L", "play 8C L", "play 8C R", "play 10C R", "stuck"]


def test_speed_play_1_one_up_or_one_down_any_suit() -> None:
    game = new(DECK_B)
    game.act(0, "play 6H L")  # down: 6H on 7D
    game.act(1, "play 10C R")  # up: 10C on 9S
    assert piles(game) == {"L": ["6H", "7D"], "R": ["10C", "9S"]}
    game.act(1, "play 5C L")  # down again: 5C on 6H
    assert piles(game)["L"] == ["5C", "6H", "7D"]


def test_speed_play_1_equal_rank_refused() -> None:
    game = new(DECK_B)
    for text in ("play 7H L", "play 7H R"):  # 7 on 7, 7 on 9
        with pytest.raises(IllegalActionError):
            game.act(0, text)
    assert game.version == 0 and piles(game) == {"L": ["7D"], "R": ["9S"]}


def test_speed_play_1_ranks_wrap_ace_between_king_and_two() -> None:
    game = new(DECK_A)
    game.act(0, "play AH R")  # A on K
    assert piles(game)["R"] == ["AH", "KD"]
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)"):
        game.act(0, "play QH R")  # Q on A: not adjacent
    deck = deal(
        "AD",
        "AS",
        [],
        [],
        ["KH", "2H", "QH", "3H", "9H"],
        ["KC", "2C", "QC", "3C", "9C"],
    )
    game = new(deck)
    assert legal(game, 0) == ["play KH L", "play KH R", "play 2H L", "play 2H R", "stuck"]
    game.act(0, "play KH L")  # K on A
    game.act(1, "play QC L")  # Q on K
    game.act(0, "play 2H R")  # 2 on A
    game.act(1, "play 3C R")  # 3 on 2
    assert piles(game) == {"L": ["QC", "KH", "AD"], "R": ["3C", "2H", "AS"]}


def test_speed_play_1_only_cards_in_ones_own_hand() -> None:
    game = new(DECK_A)
    with pytest.raises(IllegalActionError, match=r"\(SPEED-PLAY-1\)"):
        game.act(0, "play QS R")  # seat 1's card
    with pytest.raises(IllegalActionError, match=r"\(SPEED-PLAY-1\)"):
        game.act(0, "play 6D L")  # a 6 fits 7D, but seat 0 holds none
    with pytest.raises(IllegalActionError, match=r"\(SPEED-PLAY-1\)"):
        game.act(1, "play 8H L")  # seat 0's card
    assert game.version == 0


def test_speed_play_1_either_player_on_either_pile() -> None:
    game = new(DECK_A)
    game.act(0, "play AH R")  # seat 0 onto seat 1's pile
    game.act(0, "play 8H L")
    game.act(1, "play 9D L")  # seat 1 onto seat 0's pile
    assert piles(game) == {"L": ["9D", "8H", "7D"], "R": ["AH", "KD"]}


def test_speed_play_2_refill_from_the_top_of_the_stock() -> None:
    game = new(DECK_A)
    game.act(0, "play AH R")
    assert sorted(hand(game, 0)) == sorted(["8H", "10H", "JH", "QH", "5H"])
    assert counts(game, "stock") == [14, 15]
    game.act(0, "play 8H L")
    assert sorted(hand(game, 0)) == sorted(["10H", "JH", "QH", "5H", "4H"])
    game.act(1, "play 9D L")
    assert sorted(hand(game, 1)) == sorted(["QS", "10D", "JD", "10C", "9H"])
    assert counts(game, "stock") == [13, 14]
    assert table(game, 1)["seats"][0]["hand"] == [None] * 5  # the refill stays private


def test_speed_play_2_no_refill_once_the_stock_is_out() -> None:
    pos = position(
        {
            "hand.0": "8H 9H 10H JH QH",
            "stock.0": "KC",
            "hand.1": "AD KD QD JD AC",
            "side.0": "2C 3C 4C 5C 6C",
            "side.1": "2S 3S 4S 5S 6S",
            "pile.L": "7D",
        }
    )
    game = from_position(pos)
    game.act(0, "play 8H L")
    assert sorted(hand(game, 0)) == sorted(["9H", "10H", "JH", "QH", "KC"])
    assert counts(game, "stock")[0] == 0
    game.act(0, "play 9H L")
    assert sorted(hand(game, 0)) == sorted(["10H", "JH", "QH", "KC"])
    game.act(0, "play 10H L")
    assert len(hand(game, 0)) == 3 and not game.is_over


def test_speed_play_3_jokers_are_wild_both_ways() -> None:
    deck = deal(
        "QD",
        "QH",
        ["4S"],
        ["4D"],
        ["JK", "2H", "9C", "9H", "9S"],
        ["JK", "5H", "5C", "5S", "5D"],
        ["4C"],
        ["3C"],
        jokers=2,
    )
    game = new(deck, jokers=2)
    assert legal(game, 0) == ["play JK L", "play JK R", "stuck"]  # a joker on any card
    game.act(0, "play JK L")
    assert piles(game)["L"] == ["JK", "QD"]
    # any card on a joker, the other joker too
    assert legal(game, 1) == [
        "play JK L",
        "play JK R",
        "play 5H L",
        "play 5C L",
        "play 5S L",
        "play 5D L",
        "stuck",
    ]
    game.act(1, "play 5H L")
    assert piles(game)["L"] == ["5H", "JK", "QD"]
    # the pile is now a 5: seat 0's refill 4C fits, its nines and the 2 do not
    assert legal(game, 0) == ["play 4C L", "stuck"]


def test_speed_play_3_a_joker_on_a_joker() -> None:
    deck = deal(
        "QD",
        "QH",
        [],
        [],
        ["JK", "2H", "9C", "9H", "9S"],
        ["JK", "5H", "5C", "5S", "5D"],
        jokers=2,
    )
    game = new(deck, jokers=2)
    game.act(0, "play JK R")
    game.act(1, "play JK R")
    assert piles(game)["R"] == ["JK", "JK", "QH"]


def test_speed_play_3_a_joker_in_hand_means_not_stuck() -> None:
    deck = deal(
        "7D",
        "4S",
        ["5C", "6C"],
        ["6S", "5S"],
        ["JK", "10H", "JH", "QH", "KH"],
        ["AD", "9D", "9S", "9H", "2D"],
        jokers=2,
    )
    game = new(deck, jokers=2)
    assert piles(game) == {"L": ["7D"], "R": ["4S"]}  # no side card turned
    assert counts(game, "side") == [5, 5]
    assert legal(game, 1) == ["stuck"]


# ------------------------------------------------------------------------------------------
# Getting stuck
# ------------------------------------------------------------------------------------------


def test_speed_stuck_1_turns_repeat_at_the_deal_until_someone_can_play() -> None:
    game = new(DECK_E)
    # 5C/6S and 6C/5S fit nobody; 9C takes seat 0's 10H. Seat 0's stock top 8H would fit 7D
    # but only hands count.
    assert piles(game) == {"L": ["9C", "6C", "5C", "7D"], "R": ["7S", "5S", "6S", "4S"]}
    assert counts(game, "side") == [2, 2]
    assert legal(game, 0) == ["play 10H L", "stuck"]
    assert legal(game, 1) == ["stuck"]
    assert game.record()["actions"] == []  # all inside the deal, no action recorded


def test_speed_stuck_1_side_pile_of_fifteen() -> None:
    deck = deal(
        "7D",
        "4S",
        ["5C", "9C"],
        ["6S", "7S"],
        ["AH", "10H", "JH", "QH", "KH"],
        ["AD", "9D", "9S", "9H", "2D"],
        side_pile=15,
    )
    game = new(deck, side_pile=15)
    assert piles(game) == {"L": ["9C", "5C", "7D"], "R": ["7S", "6S", "4S"]}
    assert counts(game, "side") == [13, 13]


def test_speed_stuck_1_turn_inside_the_play_that_left_both_stuck() -> None:
    game = new(DECK_F)
    assert piles(game) == {"L": ["7D"], "R": ["4S"]}  # seat 0 can play: no turn
    game.act(0, "play 8H L")  # refill KS; nobody fits 8H or 4S
    assert game.version == 1
    assert piles(game) == {"L": ["2C", "8H", "7D"], "R": ["2S", "4S"]}
    assert counts(game, "side") == [4, 4]
    assert legal(game, 0) == ["play AH L", "play AH R", "stuck"]
    assert legal(game, 1) == ["play AD L", "play AD R", "play AC L", "play AC R", "stuck"]


def test_speed_stuck_1_one_stuck_player_alone_turns_nothing() -> None:
    game = new(DECK_G)
    assert piles(game) == {"L": ["7D"], "R": ["4S"]}
    assert legal(game, 0) == ["stuck"]
    game.act(0, "stuck")
    assert requested(game) == [True, False]
    assert piles(game) == {"L": ["7D"], "R": ["4S"]}
    assert legal(game, 0) == []
    # ambiguity: Spit drops such a seat from to_act (SPIT-MOVE-1); Speed keeps both seats
    # (it may still resign)
    assert game.to_act == (0, 1)
    with pytest.raises(IllegalActionError, match=r"\(SPEED-STUCK-1\)"):
        game.act(0, "stuck")  # declared already
    assert requested(game) == [True, False]


def test_speed_stuck_1_both_declarations_turn_even_with_a_play_left() -> None:
    game = new(DECK_G)
    game.act(0, "stuck")
    game.act(1, "stuck")  # seat 1 holds 8C for L, but chooses not to play
    assert piles(game) == {"L": ["KC", "7D"], "R": ["KS", "4S"]}
    assert requested(game) == [False, False]
    assert counts(game, "side") == [4, 4]
    assert legal(game, 0) == ["play AH L", "play AH R", "play QH L", "play QH R", "stuck"]


def test_speed_stuck_1_a_play_clears_the_declarations() -> None:
    game = new(DECK_G)
    game.act(0, "stuck")
    game.act(1, "play 8C L")  # refill 9D
    assert requested(game) == [False, False]
    assert piles(game) == {"L": ["8C", "7D"], "R": ["4S"]}
    assert legal(game, 0) == ["stuck"]  # seat 0 may declare again
    assert game.to_act == (0, 1)


def test_speed_stuck_4_no_automatic_turn_at_the_deal() -> None:
    game = new(DECK_E, rules=[ON_REQUEST])
    assert piles(game) == {"L": ["7D"], "R": ["4S"]}
    assert game.to_act == (0, 1)
    assert legal(game, 0) == ["stuck"] and legal(game, 1) == ["stuck"]


def test_speed_stuck_4_one_turn_per_pair_of_declarations() -> None:
    game = new(DECK_E, rules=[ON_REQUEST])
    game.act(0, "stuck")
    assert game.to_act == (0, 1)  # says nothing about seat 0's hand
    assert legal(game, 0) == []
    game.act(1, "stuck")
    # one turn only, though 5C / 6S fit nobody
    assert piles(game) == {"L": ["5C", "7D"], "R": ["6S", "4S"]}
    assert requested(game) == [False, False]
    game.act(1, "stuck")
    game.act(0, "stuck")
    assert piles(game) == {"L": ["6C", "5C", "7D"], "R": ["5S", "6S", "4S"]}
    game.act(0, "stuck")
    game.act(1, "stuck")
    assert piles(game)["L"][0] == "9C" and legal(game, 0) == ["play 10H L", "stuck"]


def test_speed_stuck_4_no_automatic_turn_after_a_play() -> None:
    game = new(DECK_F, rules=[ON_REQUEST])
    game.act(0, "play 8H L")
    assert piles(game) == {"L": ["8H", "7D"], "R": ["4S"]}
    assert counts(game, "side") == [5, 5]
    assert legal(game, 0) == ["stuck"] and legal(game, 1) == ["stuck"]
    assert game.to_act == (0, 1)


def test_speed_stuck_4_a_play_clears_the_declarations() -> None:
    game = new(DECK_G, rules=[ON_REQUEST])
    game.act(1, "stuck")
    assert requested(game) == [False, True]
    assert legal(game, 1) == ["play 8C L"]  # a declared seat may still play
    game.act(1, "play 8C L")
    assert requested(game) == [False, False]


def test_speed_stuck_3_only_the_seat_with_side_cards_turns() -> None:
    pos = position(
        {
            "hand.0": "8H AH KH QH JH",
            "stock.0": "KS",
            "hand.1": "AD KD QD JD AC",
            "side.0": "9C 10C 5C 6C 2C",
            "pile.L": "7D",
            "pile.R": "4S",
        }
    )
    game = from_position(pos)
    assert counts(game, "side") == [5, 0]
    game.act(0, "play 8H L")  # both stuck: only seat 0 has side cards
    assert piles(game)["L"] == ["2C", "8H", "7D"]
    assert piles(game)["R"][0] == "4S"
    assert counts(game, "side") == [4, 0]


def test_speed_stuck_3_one_sided_turns_repeat() -> None:
    pos = position(
        {
            "hand.0": "8H AH KH QH JH",
            "stock.0": "KS",
            "hand.1": "AD KD QD JD AC",
            "side.0": "9C 10C 2C 6C 5C",
            "pile.L": "7D",
            "pile.R": "4S",
        }
    )
    game = from_position(pos)
    game.act(0, "play 8H L")  # 5C, 6C dead; 2C takes the aces
    assert piles(game)["L"] == ["2C", "6C", "5C", "8H", "7D"]
    assert piles(game)["R"][0] == "4S"
    assert counts(game, "side") == [2, 0]


def test_speed_stuck_2_recycle_when_both_side_piles_are_out() -> None:
    pos = position(
        {
            "hand.0": "8H AH KH QH JH",
            "stock.0": "KS",
            "hand.1": "AD KD QD JD AC",
            "pile.L": "5C 2C 6C 7D",
            "pile.R": "4S",
        }
    )
    game = from_position(pos)
    old_right = piles(game)["R"]
    game.act(0, "play 8H L")  # both stuck, no side cards: recycle, then turn
    t = table(game)
    left, right = t["piles"]["L"], t["piles"]["R"]
    assert left[-1] == "8H" and right[-1] == "4S"  # the old tops stay
    # each pile's other cards became its own seat's side pile
    assert set(left[:-1]) <= {"5C", "2C", "6C", "7D"}
    assert set(right[:-1]) <= set(old_right[1:])
    assert len(left) - 1 + t["seats"][0]["side"] == 4
    assert len(right) - 1 + t["seats"][1]["side"] == len(old_right) - 1
    assert len(left) >= 2 and len(right) >= 2  # the turns followed the recycle
    assert any(a.startswith("play") for a in legal(game, 0) + legal(game, 1))


def test_speed_stuck_2_recycle_on_request() -> None:
    pos = position(
        {
            "hand.0": "8H AH KH QH JH",
            "hand.1": "AD KD QD JD AC",
            "pile.L": "3C 7D",
        }
    )
    game = from_position(pos, rules=[ON_REQUEST])
    right = len(piles(game)["R"])
    game.act(0, "stuck")
    game.act(1, "stuck")  # recycle (3C back to seat 0, R's under-cards to seat 1), one turn
    t = table(game)
    assert t["piles"]["L"] == ["3C", "7D"]
    assert t["seats"][0]["side"] == 0
    assert len(t["piles"]["R"]) == 2 and t["seats"][1]["side"] == right - 2
    assert "recycled=true" in game.position()
    assert requested(game) == [False, False]


def test_speed_end_2_stalemate_on_a_second_recycle_fewer_cards_wins() -> None:
    # seat 0 holds 5 + 14 cards, seat 1 5 + 15: nobody plays, declarations only
    stock0 = "2H 3H 4H 5H 6H 7H 8H 9H 10H 2D 3D 4D 5D 6D"
    stock1 = "7D 8D 9D 10D 2C 3C 4C 5C 6C 7C 8C 9C 10C 2S 3S"
    pos = position(
        {
            "hand.0": "AH KH QH JH KS",
            "hand.1": "AD KD QD JD AC",
            "stock.0": stock0,
            "stock.1": stock1,
            "pile.L": "JC QS",
        },
        rest="pile.R",
    )
    game = from_position(pos, rules=[ON_REQUEST])
    recycled_once = False
    for _ in range(60):
        if game.is_over:
            break
        game.act(0, "stuck")
        game.act(1, "stuck")
        recycled_once = recycled_once or "recycled=true" in game.position()
    assert recycled_once
    assert game.is_over
    assert game.result is not None
    assert game.result.reason == "stalemate"
    assert game.result.winners == (0,)
    assert counts(game, "stock") == [14, 15]


def test_speed_end_2_stalemate_equal_counts_is_a_draw() -> None:
    stock0 = "2H 3H 4H 5H 6H 7H 8H 9H 10H 2D 3D 4D 5D 6D 9S"
    stock1 = "7D 8D 9D 10D 2C 3C 4C 5C 6C 7C 8C 9C 10C 2S 3S"
    pos = position(
        {
            "hand.0": "AH KH QH JH KS",
            "hand.1": "AD KD QD JD AC",
            "stock.0": stock0,
            "stock.1": stock1,
            "pile.L": "JC QS",
        },
        rest="pile.R",
    )
    game = from_position(pos, rules=[ON_REQUEST])
    for _ in range(60):
        if game.is_over:
            break
        game.act(0, "stuck")
        game.act(1, "stuck")
    assert game.result is not None
    assert game.result.reason == "stalemate"
    assert game.result.winners == (0, 1)


def test_speed_end_2_a_play_between_recycles_keeps_the_game_going() -> None:
    pos = position(
        {
            "hand.0": "8H AH KH QH JH",
            "stock.0": "KS",
            "hand.1": "AD KD QD JD AC",
            "pile.L": "5C 2C 6C 7D",
            "pile.R": "4S",
        }
    )
    game = from_position(pos)
    game.act(0, "play 8H L")  # first recycle
    assert not game.is_over
    assert "recycled=true" in game.position()
    seat = 0 if any(a.startswith("play") for a in legal(game, 0)) else 1
    game.act(seat, legal(game, seat)[0])
    assert not game.is_over
    assert "recycled=false" in game.position()


# ------------------------------------------------------------------------------------------
# The end
# ------------------------------------------------------------------------------------------


def test_speed_end_1_last_card_of_hand_and_stock_wins() -> None:
    pos = position(
        {
            "hand.0": "8H",
            "hand.1": "AD KD QD JD AC",
            "side.0": "2C 3C 4C 5C 9C",
            "side.1": "2S 3S 4S 5S 6S",
            "pile.L": "7D",
        }
    )
    game = from_position(pos)
    game.act(0, "play 8H L")
    assert game.is_over
    assert game.result is not None
    assert game.result.winners == (0,)
    # nobody fits 8H / the R top any more, but the game is over: no side card turns
    assert piles(game)["L"] == ["8H", "7D"] and counts(game, "side") == [5, 5]
    assert game.to_act == ()
    assert legal(game, 1) == []
    with pytest.raises(IllegalActionError, match=r"\(CORE-OVER-1\)"):
        game.act(1, "stuck")
    assert "over=true" in game.position()
    with pytest.raises(OptionError, match=r"\(CORE-POSITION-1\)"):
        from_position(game.position())


def test_speed_end_1_an_empty_hand_with_stock_left_is_not_the_end() -> None:
    game = new(DECK_A)
    game.act(0, "play AH R")
    assert not game.is_over  # refilled


def test_speed_end_1_resign() -> None:
    game = new(DECK_A)
    game.act(1, "resign")
    assert game.is_over
    assert game.result is not None and game.result.winners == (0,)


# ------------------------------------------------------------------------------------------
# Real time
# ------------------------------------------------------------------------------------------


def test_spit_rt_1_race_for_one_pile_second_play_is_stale() -> None:
    game = new(DECK_B)
    v0, v1 = game.view(0)["version"], game.view(1)["version"]
    assert "play 8H L" in game.view(0)["legal"] and "play 6C L" in game.view(1)["legal"]
    game.act(0, "play 8H L", at=1.0, seen=v0)
    with pytest.raises(StaleActionError):
        game.act(1, "play 6C L", at=1.1, seen=v1)  # 6 on 8: legal at v1 only
    with pytest.raises(StaleActionError):
        game.act(1, "play 8C L", at=1.1, seen=v1)  # 8 on 8 now
    assert game.version == 1 and piles(game)["L"] == ["8H", "7D"]


def test_spit_rt_1_a_play_still_legal_after_the_change_is_applied() -> None:
    game = new(DECK_B)
    v = game.version
    game.act(0, "play 8H L", seen=v)
    game.act(1, "play 8C R", seen=v)  # R did not change: fine
    assert piles(game) == {"L": ["8H", "7D"], "R": ["8C", "9S"]}
    # SPIT-GAP-2: 6 -> 7 then 8 is legal; here 7 -> 8 then 9 would be, whatever seen says
    game2 = new(DECK_A)
    game2.act(0, "play 8H L", seen=0)
    game2.act(1, "play 9D L", seen=0)  # not legal at seen, legal now: applied
    assert piles(game2)["L"] == ["9D", "8H", "7D"]


def test_spit_rt_1_never_legal_is_illegal_not_stale() -> None:
    game = new(DECK_B)
    v = game.version
    game.act(0, "play 8H L", seen=v)
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)") as info:
        game.act(1, "play 5C L", seen=v)  # 5 fitted neither 7D nor 9S
    assert not isinstance(info.value, StaleActionError)
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)") as info:
        game.act(1, "play 6C L")  # no seen: judged against now only
    assert not isinstance(info.value, StaleActionError)
    assert game.version == 1


def test_spit_rt_1_a_side_card_turn_makes_a_play_stale() -> None:
    game = new(DECK_G)
    v = game.version
    assert "play 8C L" in legal(game, 1)
    game.act(0, "stuck")
    game.act(1, "stuck")  # KC onto L, KS onto R
    with pytest.raises(StaleActionError):
        game.act(1, "play 8C L", seen=v)


def test_core_rt_3_seen_must_lie_in_the_window() -> None:
    game = new(DECK_B)
    game.act(0, "play 6H L")
    for bad in (game.version + 1, -1):
        with pytest.raises(IllegalActionError, match=r"\(CORE-RT-3\)"):
            game.act(1, "play 10C R", seen=bad)
    assert cardcore.STALE_WINDOW == 64
    game.act(1, "play 10C R", seen=game.version)


class _Quick:
    def __init__(self, delay: float) -> None:
        self.delay = delay

    def plan(self, view: Any, legal: Sequence[Any], now: float) -> cardcore.Plan | None:
        return cardcore.Plan(legal[0], self.delay) if legal else None


def test_spit_rt_2_the_faster_agent_wins_the_race() -> None:
    game = new(DECK_B)  # both first plays go onto L: 8H (seat 0) and 6C (seat 1)
    result = cardcore.run_realtime(game, [_Quick(0.5), _Quick(0.2)], seed=3, max_actions=1)
    assert result.reason == "truncated"
    assert [tuple(a) for a in game.record()["actions"]] == [(1, "play 6C L", 0.2)]


def test_spit_rt_2_equal_delays_are_broken_by_a_seeded_draw() -> None:
    firsts = set()
    for seed in range(24):
        game = new(DECK_B)
        cardcore.run_realtime(game, [_Quick(0.5), _Quick(0.5)], seed=seed, max_actions=1)
        firsts.add(game.record()["actions"][0][0])
    assert firsts == {0, 1}


def test_spit_rt_2_bots_play_a_whole_game_deterministically() -> None:
    bot = cardcore.load_agent("spit-greedy")
    records = []
    for _ in range(2):
        game = cardcore.new_game("speed", 2, seed=21)
        result = cardcore.run_realtime(game, [bot(seed=1), bot(seed=2)], seed=4)
        assert game.is_over and result.reason != "truncated"
        records.append(game.record())
        times = [at for _, _, at in game.record()["actions"]]
        assert times == sorted(times)
        if result.reason != "stalemate":
            (winner,) = result.winners
            assert counts(game, "stock")[winner] == 0
            assert table(game, winner)["seats"][winner]["hand"] == []
    assert records[0]["actions"] == records[1]["actions"]
    again = cardcore.replay(records[0])
    assert again.result == game.result


def test_speed_cap_1_action_bound() -> None:
    game = cardcore.new_game("speed", 2, seed=1)
    assert game.logic.action_bound(2, game.options) == 10_000


# ------------------------------------------------------------------------------------------
# Notation, positions, views
# ------------------------------------------------------------------------------------------


def test_speed_note_1_actions_read_in_any_case_and_spacing() -> None:
    game = new(DECK_B)
    action = game.act(0, "  PLAY   8h   l ")
    assert str(action) == "play 8H L"
    assert game.record()["actions"][-1][1] == "play 8H L"
    game.act(1, "Play 10c r")
    assert piles(game)["R"] == ["10C", "9S"]
    game.act(0, "STUCK")
    assert requested(game) == [True, False]


@pytest.mark.parametrize(
    "text",
    [
        "play 8H",
        "play 8H X",
        "play 8H L R",
        "play 1 L",
        "play 11H L",
        "play 8X L",
        "play L 8H",
        "spit",
        "ready",
        "slap L",
        "stuck now",
        "draw",
        "",
    ],
)
def test_speed_note_1_malformed_text_is_a_notation_error(text: str) -> None:
    game = new(DECK_B)
    with pytest.raises(NotationError):
        game.act(0, text)
    assert game.version == 0


def test_speed_note_2_position_round_trip_with_requests() -> None:
    game = new(DECK_A)
    game.act(0, "play AH R")
    game.act(1, "stuck")
    pos = game.position()
    assert pos.startswith("speed v=1 requests=[false,true] recycled=false | ")
    copy = from_position(pos)
    for viewer in (0, 1, None):
        assert copy.view(viewer)["table"] == game.view(viewer)["table"]
        assert copy.view(viewer)["legal"] == game.view(viewer)["legal"]
    assert copy.position() == pos
    copy.act(0, "stuck")  # both declared: 2C / 2S turn, then 3C / 3S (nobody fits), 4C / 4S
    assert piles(copy) == {"L": ["4C", "3C", "2C", "7D"], "R": ["4S", "3S", "2S", "AH", "KD"]}
    assert "play 5H L" in legal(copy, 0)


def test_speed_note_2_bad_positions_are_refused() -> None:
    good = position({"hand.0": "8H AH KH QH JH", "hand.1": "AD KD QD JD AC", "pile.L": "7D"})
    from_position(good)
    with pytest.raises(OptionError, match=r"\(CORE-POSITION-1\)"):  # a card twice
        from_position(good.replace("hand.1: AD@1", "hand.1: 8H@1"))
    with pytest.raises(OptionError, match=r"\(SPEED-VIEW-1\)"):  # a hand card shown to the opponent
        from_position(good.replace("AD@1", "AD@0"))
    short = position(
        {"hand.0": "8H AH KH QH", "stock.0": "JH", "hand.1": "AD KD QD JD AC", "pile.L": "7D"}
    )
    with pytest.raises(
        OptionError, match=r"\(SPEED-PLAY-2, SPEED-END-1\)$"
    ):  # a short hand while the stock lasts (SPEED-PLAY-2), cited by the game's own rules
        from_position(short)


def test_speed_view_1_hands_private_stocks_and_sides_hidden() -> None:
    game = new(DECK_A)
    for viewer in (0, 1, None):
        seats = table(game, viewer)["seats"]
        for s in (0, 1):
            expect = hand(game, s) if viewer == s else [None] * 5
            assert seats[s]["hand"] == expect
            assert seats[s]["stock"] == 15 and seats[s]["side"] == 5
        zones = {z["name"]: z["cards"] for z in game.view(viewer)["zones"]}
        for name in ("stock.0", "stock.1", "side.0", "side.1"):
            assert set(zones[name]) == {None}
        assert zones["pile.L"] == ["7D"] and zones["pile.R"] == ["KD"]
    assert hand(game, 0) == ["QH", "JH", "10H", "AH", "8H"]


def test_speed_play_3_a_joker_as_the_first_play_pile_card() -> None:
    deck = deal(
        "JK",
        "4S",
        [],
        [],
        ["AH", "10H", "JH", "QH", "KH"],
        ["AD", "9D", "9S", "9H", "2D"],
        jokers=2,
    )
    game = new(deck, jokers=2)
    assert piles(game) == {"L": ["JK"], "R": ["4S"]}  # every card fits: nobody is stuck
    assert legal(game, 0) == [f"play {c} L" for c in ("AH", "10H", "JH", "QH", "KH")] + ["stuck"]
    game.act(1, "play 9D L")
    assert legal(game, 0) == ["play 10H L", "stuck"]


def test_speed_note_1_two_digit_ranks_and_unknown_cards() -> None:
    deck = deal("9D", "KD", [], [], ["10S", "AH", "2H", "3H", "4H"], ["QS", "5D", "6D", "7D", "8D"])
    game = new(deck)
    assert legal(game, 0) == ["play 10S L", "play AH R", "stuck"]
    game.act(0, "play 10s l")
    assert piles(game)["L"] == ["10S", "9D"]
    with pytest.raises(IllegalActionError, match=r"\(SPEED-PLAY-1\)"):  # no jokers in this game
        game.act(0, "play JK L")
    assert game.version == 1


def test_core_rt_3_the_stale_window_is_64_versions() -> None:
    # long game: declarations only, one play after each recycle (so no stalemate)
    game = cardcore.new_game("speed", 2, seed=5, rules=[ON_REQUEST], options={"side_pile": 15})
    while game.version < 70:
        assert not game.is_over
        if "recycled=true" in game.position():
            plays = [(s, a) for s in (0, 1) for a in legal(game, s) if a.startswith("play")]
            if plays:
                game.act(*plays[0])
                continue
        game.act(0, "stuck")
        game.act(1, "stuck")
    version = game.version
    with pytest.raises(
        IllegalActionError, match=r"\(CORE-RT-3\)"
    ):  # legal now, but seen is 65 versions back
        game.act(0, "stuck", seen=version - 65)
    assert game.version == version
    game.act(0, "stuck", seen=version - 64)
    assert game.version == version + 1


def test_speed_end_1_a_declared_seat_may_still_resign() -> None:
    game = new(DECK_G)
    game.act(0, "stuck")
    assert legal(game, 0) == []
    game.act(0, "resign")
    assert game.result is not None and game.result.winners == (1,)


def test_speed_stuck_4_nothing_tells_a_hidden_hand() -> None:
    # the same table, once with seat 0 able to play (8H on 7D) and once not (8C instead)
    base = {
        "hand.1": "AD KD QD JD AC",
        "stock.0": "2C 3C",
        "stock.1": "2S 3S",
        "side.0": "4C 5C 6C 9C 10C",
        "side.1": "4D 5D 6D 9D 10D",
        "pile.L": "7D",
        "pile.R": "4S",
    }
    seen: list[list[Any]] = []
    for hand0, stock0 in (("8H AH KH QH JH", "8C 2C 3C"), ("8C AH KH QH JH", "8H 2C 3C")):
        zones = dict(base, **{"hand.0": hand0, "stock.0": stock0})
        rest = "pile.R"
        game = from_position(position(zones, rest=rest), rules=[ON_REQUEST])
        events: list[Any] = []
        game.events.subscribe(cardcore.Event, events.append, seat=1)
        before = (game.to_act, legal(game, 1), table(game, 1))
        game.act(1, "stuck")
        after = (game.to_act, legal(game, 1), table(game, 1))
        seen.append([before, after, [e.to_json() for e in events]])
    assert seen[0] == seen[1]


def test_spit_rt_1_replay_repeats_the_recycle_shuffle() -> None:
    pos = position(
        {
            "hand.0": "8H AH KH QH JH",
            "stock.0": "KS",
            "hand.1": "AD KD QD JD AC",
            "pile.L": "5C 2C 6C 7D",
            "pile.R": "4S",
        }
    )
    game = from_position(pos)
    game.act(0, "play 8H L")
    again = cardcore.replay(game.record())
    assert again.position() == game.position()
    assert again.view(None)["table"] == game.view(None)["table"]


def test_speed_stuck_4_records_before_0_3_0_replay_with_the_house_rule() -> None:
    game = new(DECK_F)
    game.act(0, "play 8H L")  # 0.3.0: the side cards turn automatically
    assert piles(game) == {"L": ["2C", "8H", "7D"], "R": ["2S", "4S"]}
    record = dict(game.record(), game_version="0.2.0")
    old = cardcore.replay(record)
    assert ON_REQUEST in old.rules
    assert piles(old) == {"L": ["8H", "7D"], "R": ["4S"]}  # no automatic turn then
    assert piles(cardcore.replay(game.record())) == piles(game)


def test_speed_stuck_4_bots_declare_and_finish() -> None:
    bot = cardcore.load_agent("spit-greedy")
    for seed in (1, 2, 3):
        game = cardcore.new_game("speed", 2, seed=seed, rules=[ON_REQUEST])
        result = cardcore.run_realtime(game, [bot(seed=seed), bot(seed=seed + 9)], seed=seed)
        assert game.is_over and result.reason != "truncated"
        assert any(text == "stuck" for _, text, _ in game.record()["actions"])


def test_speed_note_2_positions_due_an_automatic_step_are_refused() -> None:
    stuck_table = {
        "hand.0": "AH KH QH JH KS",
        "hand.1": "AD KD QD JD AC",
        "side.0": "2C 10C JC QC 5C",
        "side.1": "2S 10S JS QS 9S",
        "pile.L": "8H",
        "pile.R": "4S",
    }
    with pytest.raises(
        OptionError, match=r"\(SPEED-STUCK-1\)"
    ):  # nobody can play: the side cards are due
        from_position(position(stuck_table))
    game = from_position(position(stuck_table), rules=[ON_REQUEST])  # not due under the rule
    assert legal(game, 0) == ["stuck"] and legal(game, 1) == ["stuck"]
    with pytest.raises(
        OptionError, match=r"\(SPEED-STUCK-1\)"
    ):  # both declared: due under either rule
        from_position(position(stuck_table, requests=(True, True)), rules=[ON_REQUEST])
    game = from_position(position(stuck_table, requests=(True, False)), rules=[ON_REQUEST])
    game.act(1, "stuck")
    assert piles(game)["L"][:2] == ["5C", "8H"] and piles(game)["R"][:2] == ["9S", "4S"]


def test_speed_note_2_positions_respect_the_deal_sizes() -> None:
    sixteen = " ".join(DECK[26:42])  # AD..KD, AC, 2C, 3C: 16 cards
    big = position(
        {
            "hand.0": "8H AH KH QH JH",
            "hand.1": "AS KS QS JS 10S",
            "stock.0": sixteen,
            "pile.L": "7H",
        }
    )
    with pytest.raises(
        OptionError, match=r"\(SPEED-SETUP-3\)"
    ):  # a stock of 16 with side piles of 5 (15 dealt)
        from_position(big)
    six = position(
        {
            "hand.0": "8H AH KH QH JH",
            "hand.1": "AS KS QS JS 10S",
            "stock.0": "2D 3D 4D 5D 6D 7D",
            "pile.L": "7H",
        }
    )
    from_position(six)
    with pytest.raises(
        OptionError, match=r"\(SPEED-SETUP-3\)"
    ):  # side piles of 15 deal stocks of 5
        from_position(six, side_pile=15)
    with pytest.raises(OptionError, match=r"\(SPEED-PLAY-2, SPEED-END-1\)$"):  # six in a hand
        from_position(
            position({"hand.0": "8H AH KH QH JH 9H", "hand.1": "AS KS QS JS 10S", "pile.L": "7H"})
        )


def test_speed_play_3_a_joker_turned_from_a_side_pile() -> None:
    deck = deal(
        "7D",
        "4S",
        ["JK"],
        ["5S"],
        ["AH", "10H", "JH", "QH", "KH"],
        ["AD", "9D", "9S", "9H", "2D"],
        jokers=2,
    )
    game = new(deck, jokers=2)
    assert piles(game) == {"L": ["JK", "7D"], "R": ["5S", "4S"]}
    assert legal(game, 1) == [f"play {c} L" for c in ("AD", "9D", "9S", "9H", "2D")] + ["stuck"]


def test_speed_play_2_the_refill_counts_before_the_stuck_check() -> None:
    deck = deal(
        "7D",
        "4S",
        ["2C"],
        ["2S"],
        ["8H", "AH", "KH", "QH", "JH"],
        ["AD", "KD", "QD", "JD", "AC"],
        ["9S"],
    )
    game = new(deck)
    game.act(0, "play 8H L")  # the refill 9S fits 8H: nobody is stuck
    assert piles(game) == {"L": ["8H", "7D"], "R": ["4S"]}
    assert legal(game, 0) == ["play 9S L", "stuck"]


def test_spit_rt_1_a_seats_own_earlier_play_can_make_its_next_stale() -> None:
    game = new(DECK_B)
    game.act(0, "play 8H L", seen=0)
    with pytest.raises(StaleActionError):
        game.act(0, "play 6H L", seen=0)  # 6 on 7 at version 0, 6 on 8 now
    with pytest.raises(StaleActionError):
        game.act(0, "play 8H R", seen=0)  # 8H is on L already
    game.act(0, "play 7H L", seen=0)  # never legal at 0 (7 on 7), legal now
    assert piles(game)["L"] == ["7H", "8H", "7D"]


def test_spit_opt_1_no_speed_shout_action() -> None:
    game = new(DECK_A)
    with pytest.raises(NotationError):
        game.act(0, "speed")
