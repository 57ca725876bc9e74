"""Golf referee audit, 2026-12-18: independent worked examples.

Every expected value below was computed by hand from the seed (``shared/seeds/golf.en.md``)
and the rule decisions (``shared/rules-decisions.md``) before the engine was run; the
comments show the arithmetic and cite the rule IDs. Most examples start from a hand-written
position (``new_game(..., position=...)``, docs/notation.rst "Positions"): every card of the
configuration's deck is placed once, the cards a test does not name fill the bottom of the
stock in a fixed order, so no example depends on a shuffle.

Layout reminders (docs/games/golf.rst "Layouts"): positions are row-major, far row first.
GOLF8 column ``c`` = positions ``c``/``c + 4``; GOLF10 ``c``/``c + 5``; GOLF9 rows
``0 1 2 / 3 4 5 / 6 7 8``; GOLF4 ``0 1 / 2 3``; GOLF4H slots ``0..3``.
BASIC: A 1, 2-10 face, J/Q 10, K 0 (GOLF-SCORE-1); HARD: J 11, Q 12, K 13 (GOLF-SCORE-2);
joker -2 (GOLF-SCORE-4); a pair of jokers/bonus cards cancels to 0 (GOLF-SCORE-5).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import cardcore
from cardcore import Game, Result

# --- helpers ----------------------------------------------------------------------------------


def _cards_of(position: str) -> Counter[str]:
    """Every card of a position text, marks stripped."""
    found: Counter[str] = Counter()
    for section in position.split(" | ")[1:]:
        _, _, body = section.partition(":")
        for word in body.split():
            found[word.split("!")[0].split("@")[0]] += 1
    return found


def start(
    grids: Sequence[str],
    discard: str,
    stock_top: str = "",
    *,
    rules: Sequence[str] = (),
    turn: int = 0,
    dealer: int | None = None,
    phase: str = "draw",
    round_no: int = 1,
    turns: int = 0,
    ender: int | None = None,
    final: int | None = None,
    totals: Sequence[int] | None = None,
    seed: int = 11,
    **options: Any,
) -> Game:
    """A game from a hand-made position.

    *grids*: one string per seat, row-major, each card marked as in a position (``5H!`` face up
    / known to all, ``5H@0`` known to seat 0, ``5H`` unknown). *discard*: bottom to top, all
    face up. *stock_top*: the next cards drawn, first drawn first. The unnamed cards of the
    deck lie under them in sorted order.
    """
    players = len(grids)
    if "points_limit" not in options:
        options.setdefault("rounds", 1)
    probe = cardcore.new_game("golf", players, rules=list(rules), options=options, seed=0)
    deck = _cards_of(probe.position())
    named = _cards_of(" | x: " + " ".join([*grids, discard, stock_top]))
    rest = deck - named
    assert not named - deck, f"cards not in the deck (or too many): {named - deck}"
    stock = sorted(rest.elements()) + list(reversed(stock_top.split()))
    fields = {
        "layout": str(options.get("layout", 6)).lower(),
        "round": round_no,
        "dealer": players - 1 if dealer is None else dealer,
        "turn": turn,
        "phase": phase,
        "turns": turns,
        "ender": ender,
        "final": final,
        "totals": list(totals) if totals is not None else [0] * players,
    }
    head = " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in fields.items())
    piles = [
        f"stock: {' '.join(stock)}",
        f"discard: {' '.join(c + '!' for c in discard.split())}",
        "held:",
        *(f"grid.{seat}: {grid}" for seat, grid in enumerate(grids)),
    ]
    text = f"golf {head} | " + " | ".join(piles)
    return cardcore.new_game(
        "golf", players, rules=list(rules), options=options, position=text, seed=seed
    )


def up(cards: str) -> str:
    """Mark every card face up (``!``)."""
    return " ".join(c + "!" for c in cards.split())


def run(game: Game, script: str) -> None:
    """Act ``"seat: text; seat: text; ..."`` in order."""
    for step in script.split(";"):
        seat, text = step.split(":")
        game.act(int(seat), text.strip())


def table(game: Game, seat: int | None = None) -> dict[str, Any]:
    found: dict[str, Any] = game.view(seat)["table"]
    return found


def legal(game: Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def result(game: Game) -> Result:
    found = game.result
    assert found is not None
    return found


def last_round(game: Game) -> dict[str, Any]:
    return game.history(None)[-1]


# --- GOLF10, three players, jokers, the ender penalties ----------------------------------------

# Seat 0 (GOLF10, columns c/c+5): (5H,5D) 0 [GOLF6-SCORE-1 via GOLF8-1], (KS,3S) 0+3,
# (JK,JK) 0 [GOLF-SCORE-5: not -4], (7C,7H) 0, (2D, face-down 9C). It draws 2S over 9C:
# (2D,2S) 0 -> 3, and no card is face down: seat 0 is the ender (GOLF6-END-1, GOLF-PEN-1).
# Seat 1: (3D,4C) 7, (QH,QD) 0, (10S,JD) 20 [GOLF-SCORE-6: 10 never pairs with J],
# (KD,3H) 3, (8S,8C) 0 -> 30; its final turn draws AH and discards it.
# Seat 2: (KH,AS) 1, (2H,2C) 0, (9D,9H) 0, (5C,5S) 0, (KC,AD) 1 -> 2; draws QC, discards it.
# Lowest = 2 (seat 2); the ender (3) is not lowest: A +10 -> 13 (GOLF-PEN-2); B + max(2, 0)
# -> 5 (GOLF-PEN-3); B literal + 2 -> 5 (GOLF-PEN-5).
G10 = [
    up("5H KS JK 7C 2D 5D 3S JK 7H") + " 9C",
    "3D QH! 10S KD 8S! 4C QD JD 3H! 8C",
    "KH! 2H 9D 5C KC! AS 2C 9H! 5S AD",
]
G10_STOCK = "2S AH QC"


@pytest.mark.parametrize(
    ("penalty", "ender_score"),
    [
        ("golf.ender-penalty-10", 13),
        ("golf.ender-penalty-lowest", 5),
        ("golf.ender-penalty-lowest-literal", 5),
    ],
)
def test_golf10_three_players_jokers_ender_penalties(penalty: str, ender_score: int) -> None:
    game = start(G10, "10H", G10_STOCK, rules=["golf.jokers", penalty], layout=10)
    run(game, "0: d; 0: r 9")
    view = table(game, 1)
    assert (view["ender"], view["final_turns_left"], game.to_act) == (0, 2, (1,))
    run(game, "1: d; 1: x; 2: d; 2: x")
    past = last_round(game)
    assert past["scores"] == [ender_score, 30, 2]
    assert past["ender"] == 0
    assert result(game).winners == (2,)


# GOLF-CAP-1 with the same deal and penalty A: a cap reached on seat 1's final turn cuts the
# round short (no ender, no penalty, seat 2 plays no final turn): [3, 30, 2]. A cap reached
# on the *last* final turn (seat 2's) keeps the ender: [13, 30, 2].
@pytest.mark.parametrize(
    ("cap", "script", "scores", "ender"),
    [
        (12, "1: d; 1: x", [3, 30, 2], None),
        (13, "1: d; 1: x; 2: d; 2: x", [13, 30, 2], 0),
    ],
)
def test_golf10_turn_cap_during_the_final_turns(
    cap: int, script: str, scores: list[int], ender: int | None
) -> None:
    rules = ["golf.jokers", "golf.ender-penalty-10"]
    game = start(G10, "10H", G10_STOCK, rules=rules, layout=10, max_turns=cap, turns=10)
    run(game, "0: d; 0: r 9")  # turn 11
    run(game, script)
    past = last_round(game)
    assert (past["scores"], past["ender"]) == (scores, ender)
    assert game.is_over


# --- GOLF8 / GOLF10: four of a kind in adjacent columns (GOLF6-VAR-3) -------------------------

# GOLF8, two players, penalty A. Seat 0: (6H,6D) and (6S,6C) are adjacent columns of four 6s,
# (5H,KS) 5, (QS, face-down 9D): it draws QD over 9D -> (QS,QD) 0; raw 5, complete: the ender.
# Seat 1: (AH,KH) 1, (2C,2D) 0, (KD,KC) 0, (3S,3C) 0 -> raw 1; final turn: draws 10C, discards.
# With golf.four-of-a-kind-columns seat 1 gets +10 -> 11, and the awards count before the
# ender penalty (GOLF-PEN-4): the ender's 5 is then lowest, no penalty -> [5, 11].
# Without it: 5 > 1, so the ender pays +10 -> [15, 1].
G8_QUAD = [up("6H 6S 5H QS 6D 6C KS") + " 9D", up("AH 2C KD 3S KH 2D KC") + " 3C"]


@pytest.mark.parametrize(
    ("rules", "scores", "winners"),
    [
        (["golf.four-of-a-kind-columns", "golf.ender-penalty-10"], [5, 11], (0,)),
        (["golf.ender-penalty-10"], [15, 1], (1,)),
    ],
)
def test_golf8_four_of_a_kind_award_counts_before_the_ender_penalty(
    rules: list[str], scores: list[int], winners: tuple[int, ...]
) -> None:
    game = start(G8_QUAD, "7H", "QD 10C", rules=rules, layout=8)
    run(game, "0: d; 0: r 7; 1: d; 1: x")
    assert last_round(game)["scores"] == scores
    assert result(game).winners == winners


# GOLF10, three players, golf.four-of-a-kind-columns. Seat 0 holds two separate quads:
# 4s in columns 0-1 and 9s in columns 3-4; column 2 (AH, face-down QH) gets 2H -> 3. Raw 3.
# Seat 1: (KH,3D) 3, (5C,5D) 0, jacks in columns 2-3 (a quad) 0, (7C,8D) 15 -> raw 18.
# Seat 2: (KC,KD) 0, (AS,AC) 0, (6H,6D) 0, (10H,2C) 12, (3C,3H) 0 -> raw 12.
# GOLF6-VAR-3 [D]: "+10 to every other player, once per player holding such columns":
# seat 0 gets +10 (seat 1's quad) -> 13; seat 1 +10 (seat 0, once for both quads) -> 28;
# seat 2 +10 +10 -> 32. Seat 0 completes; seats 1 and 2 draw and discard their final turns.
G10_QUADS = [
    up("4H 4S AH 9H 9S 4D 4C") + " QH " + up("9D 9C"),
    up("KH 5C JH JS 7C 3D 5D JD JC") + " 8D",
    "KC AS 6H 10H 3C KD! AC! 6D! 2C! 3H!",
]


def test_golf10_two_quads_of_one_player_award_ten_once() -> None:
    game = start(G10_QUADS, "5S", "2H 8S 8H", rules=["golf.four-of-a-kind-columns"], layout=10)
    run(game, "0: d; 0: r 7; 1: d; 1: x; 2: d; 2: x")
    past = last_round(game)
    assert " ".join(past["grids"][0]) == "4H 4S AH 9H 9S 4D 4C 2H 9D 9C"
    assert past["scores"] == [13, 28, 32]


# --- GOLF9: only row/column triples cancel, never diagonals or pairs ----------------------------

# Seat 0: 7H KD KS / 3C 7D 3D(face down) / QS 2C 7S. The 7s lie on the diagonal 0-4-8: no
# cancel (GOLF9-2: only a row or a column); KD KS and 3C 3D are pairs: no cancel either.
# It draws 3H over 3D (row 3C 7D 3H: still a pair) and completes its layout.
# BASIC: 7+0+0 + 3+7+3 + 10+2+7 = 39. HARD: 7+13+13 + 3+7+3 + 12+2+7 = 67.
# Seat 1: column 0 JH/JD/JC cancels (GOLF9-2); AS 4C / 6H 8C / 10S 9H: 1+4+6+8+10+9 = 38
# under both tables. Its final turn draws 2D and discards it.
G9 = [up("7H KD KS 3C 7D") + " 3D " + up("QS 2C 7S"), "JH! AS 4C JD! 6H 8C JC! 10S 9H"]


@pytest.mark.parametrize(("rules", "scores"), [([], [39, 38]), (["golf.hard"], [67, 38])])
def test_golf9_diagonal_triple_and_pairs_score_in_full(rules: list[str], scores: list[int]) -> None:
    game = start(G9, "5C", "3H 2D", rules=rules, layout=9)
    run(game, "0: d; 0: r 5")
    assert table(game)["ender"] == 0
    run(game, "1: d; 1: x")
    past = last_round(game)
    assert (past["scores"], past["ender"]) == (scores, 0)


# --- GOLF10 with pairs anywhere, two decks and four jokers -------------------------------------

# Four players -> 2 decks (GOLF-DECK-1), 2 jokers per deck (GOLF-DECK-4): 4 jokers.
# Under golf.pairs-anywhere (GOLF6-VAR-2) per rank floor(count/2) pairs cancel, an odd card
# scores; jokers pair only with jokers (GOLF-SCORE-6).
# Seat 0 after drawing 10S over its face-down 5C: JK JK JK 7H 7D 7S 10C JD KH 10S
#   BASIC: one joker -2, one 7, 10s cancel, J 10, K 0 -> 15. HARD: -2 + 7 + 11 + 13 = 29.
# Seat 1: 2C 2D 2H 2S AH 3C 3D 4C 4D 9H -> A 1 + 9 = 10 (both tables).
# Seat 2: JK AS 5H 5D 6C 6D 8C 8D QC QD -> -2 + 1 = -1 (both).
# Seat 3: KC KD KS 9C 9D 9S 4H 4S 8H 8S -> BASIC K 0 + 9 = 9; HARD 13 + 9 = 22.
G10_ANY = [
    up("JK JK JK 7H 7D 7S 10C JD KH") + " 5C",
    up("2C 2D 2H 2S AH 3C 3D 4C 4D") + " 9H",
    up("JK AS 5H 5D 6C 6D 8C 8D QC") + " QD",
    up("KC KD KS 9C 9D 9S 4H 4S 8H") + " 8S",
]


@pytest.mark.parametrize(
    ("extra", "scores"), [([], [15, 10, -1, 9]), (["golf.hard"], [29, 10, -1, 22])]
)
def test_golf10_pairs_anywhere_three_jokers_two_decks(extra: list[str], scores: list[int]) -> None:
    rules = ["golf.pairs-anywhere", "golf.jokers", *extra]
    game = start(G10_ANY, "AD", "10S 2S 3S 5S", rules=rules, layout=10)
    assert sum(_cards_of(game.position()).values()) == 108  # 2 x (52 + 2 jokers)
    run(game, "0: d; 0: r 9; 1: d; 1: x; 2: d; 2: x; 3: d; 3: x")
    assert last_round(game)["scores"] == scores
    assert result(game).winners == (2,)


# --- the exact round the match ends: points limit, rounds, ties (GOLF-GAME-1/2) -------------

# GOLF8, round 4, dealer seat 1, seat 0 to act. Seat 0: (3H,3D) 0, (KH,KD) 0, (AH,3S) 4,
# (9H, face-down 8C): draws 9D over 8C -> 0; raw 4, the ender. Seat 1: (2H,2D) 0, (QH,QD) 0,
# (AC,AD) 0, (KC,7S) 7; its final turn draws X and puts it over 7S: (KC,X) = X's points.
# No house rule, so no penalty. "Reaches 100" (Step 13) = total >= limit, checked at the end
# of the round (GOLF-GAME-1 [D]).
G8_END = [up("3H KH AH 9H 3D KD 3S") + " 8C", "2H! QH! AC! KC 2D QD AD 7S!"]


@pytest.mark.parametrize(
    ("x", "options", "totals", "over", "winners"),
    [
        # 90+4, 95+5 = 100: seat 1 reaches the limit exactly -> the match ends after round 4
        ("5H", {"points_limit": 100}, [94, 100], True, (0,)),
        # 95+4 = 99: nobody reaches 100 and there is no rounds cap -> round 5 follows
        ("4C", {"points_limit": 100}, [94, 99], False, None),
        # rounds=4 ends the match after round 4 although nobody reached the limit
        ("4C", {"points_limit": 100, "rounds": 4}, [94, 99], True, (0,)),
    ],
)
def test_golf8_match_ends_in_the_right_round(
    x: str,
    options: dict[str, Any],
    totals: list[int],
    over: bool,
    winners: tuple[int, ...] | None,
) -> None:
    game = start(
        G8_END, "10C", f"9D {x}", layout=8, round_no=4, dealer=1, totals=[90, 95], **options
    )
    run(game, "0: d; 0: r 7; 1: d; 1: r 7")
    past = last_round(game)
    assert (past["round"], past["totals"]) == (4, totals)
    assert game.is_over is over
    if over:
        assert result(game).winners == winners
        assert result(game).reason == ("rounds" if "rounds" in options else "points-limit")
    else:  # GOLF-DEAL-3: round 5 is dealt by seat 0 (the deal passes left); seat 1 sets up
        view = table(game, 0)
        assert (view["round"], view["dealer"], view["turn"], view["phase"]) == (5, 0, 1, "setup")
        assert view["totals"] == totals


def test_golf8_last_round_tie_shares_the_win() -> None:
    # start [92, 95]; round 4 of 4: seat 0 +4 -> 96; seat 1 puts AS over 7S: (KC,AS) 1 -> 96.
    # GOLF-GAME-2: ties share the win (co-winners).
    game = start(G8_END, "10C", "9D AS", layout=8, round_no=4, dealer=1, totals=[92, 95], rounds=4)
    run(game, "0: d; 0: r 7; 1: d; 1: r 7")
    assert last_round(game)["scores"] == [4, 1]
    assert result(game).scores == (96.0, 96.0)
    assert result(game).winners == (0, 1)


# --- GOLF4H: one-eyed jacks, a first-turn knock and the three penalties --------------------------


def hand(seat: int, cards: str) -> str:
    """A GOLF4H hand: its owner always knows it (GOLF4H-1)."""
    return " ".join(f"{c}@{seat}" for c in cards.split())


# golf.one-eyed-jacks (GOLF-SCORE-9): JH and JS score -2, other jacks 10, all pair by rank.
# Seat 0 knocks at once (GOLF4-KNOCK-3): JH JC JD 4D. Three jacks: two cancel, the third
# scores; GOLF-SCORE-7 keeps the cheapest one, JH (-2): -2 + 4 = 2.
# Seat 1 (10C 5C 5H KS): final turn draws AC over 10C -> AC 5C 5H KS: 1 + 0 + 0 = 1.
# Seat 2 (JS AH 9S 9D): final turn draws 2S and discards it: -2 + 1 = -1.
# Lowest -1 (seat 2); the knocker (2) is not lowest. A: 2 + 10 = 12; B: 2 + max(-1, 0) = 2;
# B literal: 2 + (-1) = 1.
H4 = [hand(0, "JH JC JD 4D"), hand(1, "10C 5C 5H KS"), hand(2, "JS AH 9S 9D")]


@pytest.mark.parametrize(
    ("penalty", "knocker"),
    [
        ("golf.ender-penalty-10", 12),
        ("golf.ender-penalty-lowest", 2),
        ("golf.ender-penalty-lowest-literal", 1),
    ],
)
def test_golf4h_one_eyed_jack_kept_and_knock_penalties(penalty: str, knocker: int) -> None:
    rules = ["golf.one-eyed-jacks", penalty]
    game = start(H4, "7C", "AC 2S", rules=rules, layout="4h")
    run(game, "0: knock")
    assert legal(game, 1) == ["draw", "take"]  # no second knock (GOLF4-KNOCK-2)
    run(game, "1: d; 1: r 0")
    # GOLF4H-1: seats 0 and 2 never see seat 1's hand; the replaced 10C is public
    for seat in (0, 2, None):
        assert table(game, seat)["grids"][1] == [None] * 4
    assert table(game, 1)["grids"][1] == ["AC", "5C", "5H", "KS"]
    assert table(game, 2)["discard"] == "10C"
    run(game, "2: d; 2: x")
    past = last_round(game)
    assert (past["scores"], past["ender"]) == ([knocker, 1, -1], 0)
    assert result(game).winners == (2,)


def test_golf4h_a_taken_discard_is_public_until_replaced_by_a_drawn_card() -> None:
    # GOLF4H-1 / GOLF-VIEW-1: seat 0 takes the 7C discard over slot 3 (4D): everybody knows
    # slot 3 now. Later it draws 2S over that slot: 7C goes face up to the discards and
    # slot 3 is again known to seat 0 only.
    game = start(H4[:2], "7C", "AC 2S", layout="4h")
    run(game, "0: t; 0: r 3")
    assert table(game, 1)["grids"][0] == [None, None, None, "7C"]
    assert table(game, None)["grids"][0] == [None, None, None, "7C"]
    run(game, "1: d; 1: x; 0: d; 0: r 3")
    assert table(game, 1)["grids"][0] == [None] * 4
    assert table(game, 0)["grids"][0] == ["JH", "JC", "JD", "2S"]
    assert table(game, 1)["discard"] == "7C"


# GOLF4H, two players, golf.knock-final-stock-only (GOLF4-VAR-3) and an empty stock.
# Seat 1 knocks; seat 0's final turn may only draw (no take) from an empty stock: the
# discards but the top (7C) are shuffled into a new stock (GOLF-STOCK-1) and seat 0 draws
# from it, then discards it. 44 discards -> 43 shuffled, 1 drawn: stock 42, discards 1 + 1.
# Seat 0: 3C 3D KH AS -> 0 + 0 + 1 = 1. Seat 1 (the knocker): 5C 5D 2H 2D -> 0; lowest, no
# penalty under golf.ender-penalty-10 (GOLF-PEN-2).
def test_golf4h_final_turn_rebuilds_the_empty_stock_from_the_discards() -> None:
    rules = ["golf.knock-final-stock-only", "golf.ender-penalty-10"]
    grids = [hand(0, "3C 3D KH AS"), hand(1, "5C 5D 2H 2D")]
    probe = start(grids, "7C", layout="4h")
    rest = _cards_of(probe.position()) - _cards_of(" | x: 3C 3D KH AS 5C 5D 2H 2D 7C")
    discard = " ".join([*sorted(rest.elements()), "7C"])  # every other card, 7C on top
    game = start(grids, discard, rules=rules, layout="4h", turn=1)
    assert (table(game)["stock"], table(game)["discards"]) == (0, 44)
    run(game, "1: k")
    assert legal(game, 0) == ["draw"]
    run(game, "0: d")
    view = table(game, 0)
    assert (view["stock"], view["discards"], view["discard"]) == (42, 1, "7C")
    held = view["held"]["card"]
    assert held is not None and held in rest
    assert table(game, 1)["held"] == {"seat": 0, "card": None}  # GOLF4-TURN-1
    run(game, "0: x")
    past = last_round(game)
    assert (past["scores"], past["ender"]) == ([1, 0], 1)


# --- GOLF8, three players: a second layout completed during the final turns -----------------

# golf.final-stock-only (GOLF6-VAR-1) and golf.ender-penalty-10.
# Seat 0: (5H,5D) 0, (8H,2C) 10, (KH,KD) 0, (4S, face-down JD): draws 4D over JD -> 0; raw 10,
# complete: the ender, two final turns (GOLF6-END-1).
# Seat 1 (final turn): (AH,AD) 0, (KS,KC) 0, (3H,3D) 0, (face-down QS, 7C): draws 7D over QS
# -> (7D,7C) 0; raw 0. Completing a layout in a final turn grants no more turns (GOLF6-END-2).
# Seat 2 (final turn): (6H,6D) 0, (9S,9C) 0, (10H,JC) 20, (2H,2D) 0 -> 20; draws AS, discards.
# Then the round ends (seat 0 plays no more). Penalty A on the ender only: 10 + 10 = 20.
G8_TWO = [
    up("5H 8H KH 4S 5D 2C KD") + " JD",
    up("AH KS 3H") + " QS " + up("AD KC 3D 7C"),
    "6H 9S! 10H! 2H! 6D! 9C! JC! 2D!",
]


def test_golf8_second_completed_layout_in_a_final_turn_grants_nothing() -> None:
    rules = ["golf.final-stock-only", "golf.ender-penalty-10"]
    game = start(G8_TWO, "10S", "4D 7D AS", rules=rules, layout=8)
    run(game, "0: d; 0: r 7")
    assert legal(game, 1) == ["draw"]  # GOLF6-VAR-1: no take in a final turn
    run(game, "1: d; 1: r 3")
    view = table(game, 2)
    assert (view["ender"], view["final_turns_left"], game.to_act) == (0, 1, (2,))
    assert legal(game, 2) == ["draw"]
    run(game, "2: d; 2: x")
    past = last_round(game)
    assert (past["scores"], past["ender"]) == ([20, 0, 20], 0)
    assert game.is_over and result(game).winners == (1,)


# --- GOLF4: what each seat sees, across two rounds ----------------------------------------------


def deal(grids: Sequence[str], upcard: str, stock: str = "") -> str:
    """A stacked deck (top first) for the default dealer, the last seat: seat 0 is dealt
    first and card k goes to seat k % N, position k // N (GOLF-DEAL-1)."""
    rows = [g.split() for g in grids]
    out = [rows[s][p] for p in range(len(rows[0])) for s in range(len(rows))]
    return " ".join([*out, upcard, *stock.split()])


def grid_zone(view: dict[str, Any], seat: int) -> list[str | None]:
    zone = next(z for z in view["zones"] if z["name"] == f"grid.{seat}")
    return list(zone["cards"])


def test_golf4_views_follow_peeks_placements_and_taken_discards_then_reset() -> None:
    # Seat 0 is dealt 7H 9C / KD 4S and peeks at 0 and 3; seat 1 is dealt 3C 8D / JS QH and
    # peeks at 2 and 3 (GOLF4-SETUP-2). Upcard 5C; the stock starts 2D.
    game = cardcore.new_game(
        "golf",
        2,
        deck=deal(["7H 9C KD 4S", "3C 8D JS QH"], "5C", "2D"),
        options={"layout": "4", "rounds": 2},
        seed=4,
    )
    run(game, "0: p 0; 0: p 3; 1: p 2; 1: p 3")
    # GOLF4-TURN-3: each sees exactly its own peeks; nobody else's; a spectator nothing.
    assert table(game, 0)["grids"] == [["7H", None, None, "4S"], [None] * 4]
    assert table(game, 1)["grids"] == [[None] * 4, [None, None, "JS", "QH"]]
    assert table(game, None)["grids"] == [[None] * 4, [None] * 4]
    # Seat 0 draws 2D (seen by seat 0 only, GOLF4-TURN-1) and puts it face down at 1.
    run(game, "0: d")
    assert table(game, 1)["held"] == {"seat": 0, "card": None}
    run(game, "0: r 1")
    assert table(game, 0)["grids"][0] == ["7H", "2D", None, "4S"]
    assert table(game, 1)["grids"][0] == [None] * 4
    assert table(game, 1)["discard"] == "9C"  # the replaced card goes face up
    # Seat 1 takes 9C (a public card) over its unseen 3C: everybody knows that position now.
    run(game, "1: t; 1: r 0")
    for seat in (0, 1, None):
        assert table(game, seat)["grids"][1][0] == "9C"
    assert table(game, 0)["grids"][1] == ["9C", None, None, None]
    # The core's zones tell no more than the table (grid zones list top first).
    for seat in (0, 1, None):
        view = game.view(seat)
        for owner in (0, 1):
            assert sorted(c for c in grid_zone(view, owner) if c) == sorted(
                c for c in view["table"]["grids"][owner] if c
            )
    # Seat 0 knocks; seat 1's final turn draws and discards; round 1 ends and is revealed.
    run(game, "0: k; 1: d; 1: x")
    past = game.history(1)[0]
    # seat 0: 7H 2D / KD 4S -> 7+2+0+4 = 13; seat 1: 9C 8D / JS QH -> 9+8+10+10 = 37
    assert past["grids"] == [["7H", "2D", "KD", "4S"], ["9C", "8D", "JS", "QH"]]
    assert past["scores"] == [13, 37]
    # Round 2 (dealt by seat 0, GOLF-DEAL-3): nothing known yet, whatever round 1 showed.
    for seat in (0, 1, None):
        view = game.view(seat)
        assert view["table"]["grids"] == [[None] * 4, [None] * 4]
        assert grid_zone(view, 0) == [None] * 4 and grid_zone(view, 1) == [None] * 4
    assert (table(game)["round"], table(game)["dealer"], game.to_act) == (2, 0, (1,))


# --- GOLF8, four players: six of a kind, non-adjacent columns, awards then penalty B ---------

# Four players -> 2 decks (GOLF-DECK-1), so six 7s exist. golf.four-of-a-kind-columns +
# golf.ender-penalty-lowest.
# Seat 0: columns 0, 1, 2 all 7s (six of a kind: adjacent quads), (AH, face-down QC): draws
# KH over QC -> 1. Raw 1; it holds such columns: +10 to each other player, once (GOLF6-VAR-3).
# Seat 1: (8H,8S) 0, (5C,6C) 11, (8D,8C) 0, (3C,3D) 0 -> 11; its four 8s lie in columns 0 and
# 2, not adjacent: no award.
# Seat 2: (2H,2D) 0, (4H,4D) 0, 9s in columns 2-3 (a quad) 0 -> 0; a holder too.
# Seat 3: (10H,10D) (JH,JD) (QH,QD) (KS,KD) all cancel -> 0; no quad (four ranks).
# Awards: seat 0 +10 (seat 2) = 11; seat 1 +20 = 31; seat 2 +10 (seat 0) = 10; seat 3 +20 = 20.
# GOLF-PEN-4: the penalty compares these; the ender (11) is not lowest (10): + max(10, 0) -> 21.
G8_SIX = [
    up("7H 7D 7S AH 7C 7H 7D") + " QC",
    up("8H 5C 8D 3C 8S 6C 8C") + " 3D",
    up("2H 4H 9H 9D 2D 4D 9S") + " 9C",
    up("10H JH QH KS 10D JD QD") + " KD",
]


def test_golf8_six_of_a_kind_awards_once_then_penalty_b() -> None:
    rules = ["golf.four-of-a-kind-columns", "golf.ender-penalty-lowest"]
    game = start(G8_SIX, "6D", "KH AS 2S 3S", rules=rules, layout=8)
    run(game, "0: d; 0: r 7; 1: d; 1: x; 2: d; 2: x; 3: d; 3: x")
    past = last_round(game)
    assert (past["scores"], past["ender"]) == ([21, 31, 10, 20], 0)
    assert result(game).winners == (2,)


# --- GOLF9: the ender ties for lowest (GOLF-PEN-4, GOLF-PEN-6) ------------------------------

# The GOLF9 deal above with seat 1's AS replaced by 2S: seat 1 scores 2+4+6+8+10+9 = 39, the
# same as the ender's 39 (BASIC). A tie for lowest is not penalised (GOLF-PEN-4) unless
# golf.ender-penalty-ties (GOLF-PEN-6): then A 39 + 10 = 49, B 39 + max(39, 0) = 78.
G9_TIE = [G9[0], "JH! 2S 4C JD! 6H 8C JC! 10S 9H"]


@pytest.mark.parametrize(
    ("rules", "scores", "winners"),
    [
        ([], [39, 39], (0, 1)),
        (["golf.ender-penalty-lowest"], [39, 39], (0, 1)),
        (["golf.ender-penalty-lowest", "golf.ender-penalty-ties"], [78, 39], (1,)),
        (["golf.ender-penalty-10", "golf.ender-penalty-ties"], [49, 39], (1,)),
        (["golf.ender-penalty-ties"], [39, 39], (0, 1)),  # nothing without a penalty rule
    ],
)
def test_golf9_ender_tied_for_lowest(
    rules: list[str], scores: list[int], winners: tuple[int, ...]
) -> None:
    game = start(G9_TIE, "5C", "3H 2D", rules=rules, layout=9)
    run(game, "0: d; 0: r 5; 1: d; 1: x")
    assert last_round(game)["scores"] == scores
    assert result(game).winners == winners


# --- three players, three rounds: the deal passes left (GOLF-DEAL-3) ---------------------------


def seed_score(grid: list[str]) -> int:
    """GOLF6 BASIC scoring from the seed alone: a column of one rank scores 0
    (GOLF6-SCORE-1), else A 1, 2-10 face value, J/Q 10, K 0 (GOLF-SCORE-1)."""

    def rank(card: str) -> str:
        return card[:-1]

    def points(card: str) -> int:
        r = rank(card)
        faces = {"A": 1, "J": 10, "Q": 10, "K": 0}
        return faces[r] if r in faces else int(r)

    total = 0
    for col in range(3):
        top, bottom = grid[col], grid[col + 3]
        if rank(top) != rank(bottom):
            total += points(top) + points(bottom)
    return total


def test_three_rounds_three_players_dealer_rotation_and_totals() -> None:
    # dealer=0: round 1 dealt by 0, seat 1 sets up and moves first; round 2 dealer 1 (seat 2
    # first); round 3 dealer 2 (seat 0 first). max_turns=1 (GOLF-CAP-1): each round ends after
    # one turn, with no ender. The match ends after round 3 (option rounds).
    game = cardcore.new_game("golf", 3, options={"rounds": 3, "dealer": 0, "max_turns": 1}, seed=21)
    seen = []
    for round_no in (1, 2, 3):
        view = table(game)
        first = (view["dealer"] + 1) % 3
        seen.append((view["round"], view["dealer"], view["turn"], view["phase"]))
        for k in range(3):  # setup goes clockwise from the left of the dealer (GOLF-DEAL-4)
            seat = (first + k) % 3
            assert game.to_act == (seat,)
            run(game, f"{seat}: f 0; {seat}: f 4")
        assert game.to_act == (first,)
        run(game, f"{first}: d; {first}: x")
        assert len(game.history(None)) == round_no
    assert seen == [(1, 0, 1, "setup"), (2, 1, 2, "setup"), (3, 2, 0, "setup")]
    history = game.history(None)
    totals = [0, 0, 0]
    for past in history:
        assert past["ender"] is None
        scores = [seed_score(grid) for grid in past["grids"]]
        assert past["scores"] == scores
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        assert past["totals"] == totals
    assert game.is_over
    assert result(game).scores == tuple(float(t) for t in totals)
    assert result(game).winners == tuple(s for s in range(3) if totals[s] == min(totals))
