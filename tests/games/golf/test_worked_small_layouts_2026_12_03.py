"""Golf worked examples for the small layouts (GOLF4, GOLF4H) and GOLF9, 2026-12-03.

Whole rounds and matches played through the public API only (``cardcore.new_game(...,
deck=..., options=..., rules=...)``, ``act``, ``legal_actions``, ``view``, ``history``,
``result``, ``save``/``load``/``replay``). Every expected outcome was worked out by hand from
the seed (``shared/seeds/golf.en.md``), ``seeds/golf.md`` and ``shared/rules-decisions.md``
before the engine was run; the comments show the arithmetic.

Decks are stacked top first with ``deck()``: card ``k`` goes to the seat ``k`` places left of
the dealer (GOLF-DEAL-1), position ``k // N``. GOLF4 positions ``0 1 / 2 3`` (far row first),
GOLF9 ``0 1 2 / 3 4 5 / 6 7 8``; GOLF4H slots ``0..3``. BASIC: K 0, J/Q 10; HARD: J 11, Q 12,
K 13.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

import cardcore
from cardcore import Game, IllegalActionError, OptionError, RuleConflictError

# --- helpers ----------------------------------------------------------------------------------


def deck(grids: Sequence[str], upcard: str = "", stock: str = "", dealer: int | None = None) -> str:
    """Deal *grids* (one per seat, position order) from *dealer* (default: the last seat)."""
    rows = [g.split() for g in grids]
    n = len(rows)
    first = (n if dealer is None else dealer + 1) % n
    dealt = [rows[(first + k) % n][pos] for pos in range(len(rows[0])) for k in range(n)]
    return " ".join([*dealt, *upcard.split(), *stock.split()])


def new(
    grids: Sequence[str],
    upcard: str = "",
    stock: str = "",
    *,
    rules: Sequence[str] = (),
    seed: int = 5,
    **options: Any,
) -> Game:
    options.setdefault("rounds", 1)
    return cardcore.new_game(
        "golf",
        len(grids),
        rules=list(rules),
        options=options,
        deck=deck(grids, upcard, stock, options.get("dealer")),
        seed=seed,
    )


def run(game: Game, script: str) -> None:
    """Act ``"seat: text; seat: text; ..."`` in order."""
    for step in script.split(";"):
        seat, text = step.split(":")
        game.act(int(seat), text.strip())


def table(game: Game, seat: int | None = None) -> dict[str, Any]:
    return game.view(seat)["table"]


def grids(game: Game, seat: int | None) -> list[list[str | None]]:
    return table(game, seat)["grids"]


def legal(game: Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def last_round(game: Game) -> dict[str, Any]:
    return game.history(None)[-1]


def refused(game: Game, seat: int, text: str) -> str:
    """Act *text*, expect a refusal that changes nothing; return the rule it names."""
    version = game.version
    views = [game.view(s) for s in (*range(len(game.players)), None)]
    with pytest.raises(IllegalActionError) as error:
        game.act(seat, text)
    assert game.version == version
    assert [game.view(s) for s in (*range(len(game.players)), None)] == views
    assert str(error.value).endswith(f"({error.value.rule_id})")
    return error.value.rule_id


N = None  # an unseen card in a view


# --- GOLF4: a whole round of peeks, hidden placements, a knock in the middle -------------------


def test_golf4_three_players_peeks_views_knock_and_penalty_b() -> None:
    # Seat 0 QH 4C / 9S 2D peeks 2, 3; seat 1 3H 3S / KC 8D peeks 0, 1; seat 2 7C JD / 7H 5S
    # peeks 0, 3. Upcard AH, stock 6D KS 2C 9H 10C.
    # Seat 0 takes AH over QH (0); seat 1 draws 6D over 8D (3); seat 2 draws KS over JD (1);
    # seat 0 draws 2C over 4C (1); seat 1 knocks; seat 2 draws 9H, discards it; seat 0 draws
    # 10C, discards it (GOLF4-KNOCK-1: one final turn each, clockwise from the knocker).
    # Seat 0: AH 2C / 9S 2D: the 2s share column 1 -> 1 + 9 = 10.
    # Seat 1: 3H 3S / KC 6D: the 3s share row 0 -> 0 + 6 = 6.
    # Seat 2: 7C KS / 7H 5S: the 7s share column 0 -> 0 + 5 = 5.
    # Ender seat 1 (6) is not lowest (5): penalty B adds max(5, 0) -> 11 (GOLF-PEN-3).
    rules = ["golf.knock-final-stock-only", "golf.ender-penalty-lowest"]
    game = new(
        ["QH 4C 9S 2D", "3H 3S KC 8D", "7C JD 7H 5S"],
        "AH",
        "6D KS 2C 9H 10C",
        rules=rules,
        layout="4",
    )
    run(game, "0: p 2; 0: p 3; 1: p 0; 1: p 1; 2: p 0; 2: p 3")
    # GOLF4-SETUP-2 / GOLF-VIEW-1: each seat sees exactly its own two peeks
    assert grids(game, 0) == [[N, N, "9S", "2D"], [N] * 4, [N] * 4]
    assert grids(game, 1) == [[N] * 4, ["3H", "3S", N, N], [N] * 4]
    assert grids(game, 2) == [[N] * 4, [N] * 4, ["7C", N, N, "5S"]]
    assert grids(game, None) == [[N] * 4] * 3
    run(game, "0: t")
    assert table(game, 2)["held"] == {"seat": 0, "card": "AH"}  # a taken discard is public
    run(game, "0: r 0")
    # the taken AH lies face down but everybody knows it; the unseen QH is shown on the pile
    assert grids(game, 0)[0] == ["AH", N, "9S", "2D"]
    assert grids(game, 1)[0] == grids(game, None)[0] == ["AH", N, N, N]
    assert table(game, None)["discard"] == "QH"
    run(game, "1: d")
    assert (table(game, 1)["held"], table(game, 0)["held"]) == (
        {"seat": 1, "card": "6D"},
        {"seat": 1, "card": None},
    )
    assert refused(game, 1, "knock") == "GOLF4-KNOCK-1"  # only instead of drawing
    run(game, "1: r 3; 2: d; 2: r 1")
    # a card drawn from the stock and placed is known to its placer only (GOLF4-TURN-3)
    assert grids(game, 1)[1] == ["3H", "3S", N, "6D"]
    assert grids(game, 2)[2] == ["7C", "KS", N, "5S"]
    assert grids(game, 0)[1:] == [[N] * 4, [N] * 4]
    assert refused(game, 0, "peek 1") == "GOLF4-TURN-3"  # no peeking after the start
    run(game, "0: d; 0: r 1")
    assert grids(game, 0)[0] == ["AH", "2C", "9S", "2D"]
    assert legal(game, 1) == ["draw", "take", "knock"]
    run(game, "1: k")
    view = table(game)
    assert (view["ender"], view["final_turns_left"], game.to_act) == (1, 2, (2,))
    assert legal(game, 2) == ["draw"]  # GOLF4-VAR-3, and no second knock
    assert refused(game, 2, "take") == "GOLF4-VAR-3"
    assert refused(game, 2, "knock") == "GOLF4-KNOCK-2"
    run(game, "2: d; 2: x")
    assert (table(game)["final_turns_left"], game.to_act, legal(game, 0)) == (1, (0,), ["draw"])
    run(game, "0: d; 0: x")
    assert game.is_over
    past = last_round(game)
    assert past["grids"] == [
        ["AH", "2C", "9S", "2D"],
        ["3H", "3S", "KC", "6D"],
        ["7C", "KS", "7H", "5S"],
    ]
    assert (past["scores"], past["ender"]) == ([10, 11, 5], 1)
    assert (game.result.scores, game.result.winners) == ((10.0, 11.0, 5.0), (2,))


# --- GOLF4 / GOLF4H cancelling under the house rules (scores of the dealt layouts) -------------


@pytest.mark.parametrize(
    ("layout", "rules", "hands", "scores"),
    [
        # JH (corner 0) pairs by row with JC and by column with JD; JC/JD are diagonal: the
        # leftover is a 10-point jack, not the one-eyed JH -> 10 + 5 = 15 | 9s and 4s lie
        # on the diagonals: nothing cancels, 9 + 4 + 4 + 9 = 26
        ("4", ["golf.one-eyed-jacks"], ["JH JC JD 5C", "9H 4S 4D 9D"], [15, 26]),
        # with diagonal pairs JC/JD may cancel and JH (-2) is left (GOLF-SCORE-7): -2 + 5 = 3
        # | both diagonals cancel -> 0
        (
            "4",
            ["golf.one-eyed-jacks", "golf.diagonal-pairs"],
            ["JH JC JD 5C", "9H 4S 4D 9D"],
            [3, 0],
        ),
        # HARD, no cancelling: four kings are 4 x 13 = 52 (four of a kind included) | 12 + 12
        # + 2 + 3 = 29
        ("4", ["golf.hard", "golf.no-cancelling"], ["KH KS KD KC", "QH QS 2C 3C"], [52, 29]),
        # HARD with cancelling: four of a kind -> 0 | the queens share row 0 -> 2 + 3 = 5
        ("4", ["golf.hard"], ["KH KS KD KC", "QH QS 2C 3C"], [0, 5]),
        # jokers on a diagonal do not cancel: -2 + 9 + 5 - 2 = 10 | three 7s: two cancel,
        # 7 + 8 = 15
        ("4", ["golf.jokers"], ["JK 9C 5D JK", "7C 7D 7H 8S"], [10, 15]),
        # with diagonal pairs the jokers cancel to 0, not -4 (GOLF-SCORE-5): 9 + 5 = 14 | 15
        ("4", ["golf.jokers", "golf.diagonal-pairs"], ["JK 9C 5D JK", "7C 7D 7H 8S"], [14, 15]),
        # four 2s as bonus cards: four of a kind -> 0, not -8 | the aces share row 0 -> 7
        ("4", ["golf.bonus-twos"], ["2C 2D 2H 2S", "AH AS 3D 4D"], [0, 7]),
        ("4", ["golf.bonus-twos", "golf.no-cancelling"], ["2C 2D 2H 2S", "AH AS 3D 4D"], [-8, 9]),
        # GOLF4H: no positions, two pairs -> 0 | three 5s: two cancel, 5 + 9 = 14
        ("4h", ["golf.jokers"], ["JK 8C JK 8D", "5C 5D 5H 9S"], [0, 14]),
        # no cancelling in hand: -2 + 8 - 2 + 8 = 12 | 5 + 5 + 5 + 9 = 24
        ("4h", ["golf.jokers", "golf.no-cancelling"], ["JK 8C JK 8D", "5C 5D 5H 9S"], [12, 24]),
        # three bonus 2s: two cancel, the third -2 + Q 12 = 10 | 10, J, Q, K never pair
        # (rank labels, GOLF4H-2): 10 + 11 + 12 + 13 = 46
        ("4h", ["golf.bonus-twos", "golf.hard"], ["2C 2D 2H QS", "10S JS QD KD"], [10, 46]),
        # BASIC: -2 + Q 10 = 8 | still no pair though 10, J and Q all score 10: 10 + 10 + 10
        # + K 0 = 30
        ("4h", ["golf.bonus-twos"], ["2C 2D 2H QS", "10S JS QD KD"], [8, 30]),
    ],
)
def test_four_card_cancelling_under_house_rules(
    layout: str, rules: list[str], hands: list[str], scores: list[int]
) -> None:
    game = new(hands, "6H", "6S", rules=rules, layout=layout, max_turns=1)
    if layout == "4":
        run(game, "0: p 0; 0: p 1; 1: p 0; 1: p 1")
    run(game, "0: d; 0: x")  # the one turn of max_turns 1: the layouts score as dealt
    past = last_round(game)
    assert past["grids"] == [h.split() for h in hands]
    assert (past["scores"], past["ender"]) == (scores, None)


# --- GOLF4H: the owner sees the hand, the others only what was taken from the discards -------


def test_golf4h_hand_views_follow_public_cards_and_knocker_lowest_pays_nothing() -> None:
    # Seat 0 5C 9D KH 3S, seat 1 QC QD 4H 7S, upcard 2D, stock 8C AH 6D.
    # Seat 0 takes 2D into slot 1 (9D out); seat 1 draws 8C into slot 2 (4H out); seat 0
    # draws AH into slot 1 (the public 2D out); seat 1 takes that 2D into slot 3 (7S out);
    # seat 0 knocks; seat 1's final turn draws 6D and discards it.
    # Seat 0: 5 + A 1 + K 0 + 3 = 9. Seat 1: the queens cancel, 8 + 2 = 10.
    # The knocker is lowest: no penalty (GOLF-PEN-2).
    game = new(
        ["5C 9D KH 3S", "QC QD 4H 7S"],
        "2D",
        "8C AH 6D",
        rules=["golf.ender-penalty-10"],
        layout="4h",
    )
    assert (table(game)["phase"], legal(game, 0)) == ("draw", ["draw", "take", "knock"])
    assert refused(game, 0, "peek 0") == "GOLF4H-1"  # no setup phase in hand
    assert refused(game, 0, "flip 0") == "GOLF4H-1"
    assert grids(game, 0) == [["5C", "9D", "KH", "3S"], [N] * 4]
    assert grids(game, 1) == [[N] * 4, ["QC", "QD", "4H", "7S"]]
    assert grids(game, None) == [[N] * 4, [N] * 4]
    run(game, "0: t; 0: r 1")
    assert grids(game, 1)[0] == grids(game, None)[0] == [N, "2D", N, N]
    run(game, "1: d; 1: r 2")
    assert grids(game, 0)[1] == [N] * 4
    assert grids(game, 1)[1] == ["QC", "QD", "8C", "7S"]
    run(game, "0: d; 0: r 1")  # the drawn AH replaces the public 2D: hidden again
    assert grids(game, 1)[0] == [N] * 4
    assert grids(game, 0)[0] == ["5C", "AH", "KH", "3S"]
    run(game, "1: t; 1: r 3")
    assert grids(game, 0)[1] == [N, N, N, "2D"]
    run(game, "0: k")
    assert refused(game, 1, "knock") == "GOLF4-KNOCK-2"
    run(game, "1: d; 1: x")
    past = last_round(game)
    assert past["grids"] == [["5C", "AH", "KH", "3S"], ["QC", "QD", "8C", "2D"]]
    assert (past["scores"], past["ender"]) == ([9, 10], 0)
    assert game.result.winners == (0,)


# --- GOLF9: removed triples, a face-down triple, no pairs, final turns from the stock ----------


def test_golf9_removed_triples_face_down_triple_and_final_turn() -> None:
    # HARD, golf.remove-triples, golf.final-stock-only, golf.ender-penalty-10.
    # Seat 0 7C 7D QS / KC 2C JD / KD 9H 4C flips 0, 1, 3 (7C 7D KC).
    # Seat 1 QH QC QD / 9S 9C 4D / 8S 6C 8D flips 3, 4, 5 (its queens stay face down).
    # Seat 0 draws 7H into 2: row 0 (7C 7D 7H) is removed at once (GOLF9-4); KS into 4 and
    # KH into 5: row 1 (KC KS KH) is removed; AS AD 2H into 6 7 8: no face-down card left,
    # seat 0 is the ender (GOLF-PEN-1). Seat 1 draws and discards every time.
    # Seat 0: A 1 + A 1 + 2 = 4. Seat 1: the face-down queens form row 0 and score 0 at the
    # end (GOLF9-3) without being removed; the 9s and 8s are only pairs (GOLF9-2):
    # 9 + 9 + 4 + 8 + 6 + 8 = 44. The ender is lowest: no penalty.
    rules = ["golf.hard", "golf.remove-triples", "golf.final-stock-only", "golf.ender-penalty-10"]
    game = new(
        ["7C 7D QS KC 2C JD KD 9H 4C", "QH QC QD 9S 9C 4D 8S 6C 8D"],
        "10H",
        "7H 2D KS 3C KH 4H AS 6S AD 7S 2H 9D",
        rules=rules,
        layout=9,
    )
    assert refused(game, 0, "peek 0") == "GOLF6-SETUP-2"
    run(game, "0: f 0; 0: f 1; 0: f 3; 1: f 3; 1: f 4; 1: f 5")
    run(game, "0: d; 0: r 2")
    assert grids(game, 1)[0] == ["--", "--", "--", "KC", N, N, N, N, N]
    # 10H upcard, QS on top; the three sevens under it (bottom of the pile)
    assert (table(game)["discards"], table(game)["discard"]) == (5, "QS")
    assert refused(game, 1, "knock") == "GOLF6-KNOCK-1"
    run(game, "1: d; 1: x; 0: d; 0: r 4; 1: d; 1: x; 0: d; 0: r 5")
    assert grids(game, None)[0] == ["--"] * 6 + [N, N, N]
    run(game, "1: d; 1: x; 0: d")
    assert legal(game, 0) == ["replace 6", "replace 7", "replace 8", "discard"]
    assert refused(game, 0, "replace 3") == "GOLF9-4"  # a removed position: "cannot be replaced"
    run(game, "0: r 6; 1: d; 1: x; 0: d; 0: r 7; 1: d; 1: x; 0: d; 0: r 8")
    view = table(game)
    assert (view["ender"], view["final_turns_left"], game.to_act) == (0, 1, (1,))
    assert legal(game, 1) == ["draw"]  # GOLF6-VAR-1
    assert refused(game, 1, "take") == "GOLF6-VAR-1"
    run(game, "1: d; 1: x")
    past = last_round(game)
    assert past["grids"] == [
        ["--"] * 6 + ["AS", "AD", "2H"],
        ["QH", "QC", "QD", "9S", "9C", "4D", "8S", "6C", "8D"],
    ]
    assert (past["scores"], past["ender"]) == ([4, 44], 0)
    assert game.result.winners == (0,)


@pytest.mark.parametrize(
    ("rule", "first", "legal_third"),
    [
        # three initial cards in three columns (GOLF6-SETUP-4 in GOLF9): after 0 and 4 only
        # column 2 is left
        ("golf.reveal-different-columns", "0: f 0; 0: f 4", ["flip 2", "flip 5", "flip 8"]),
        # all three in the column of the first (GOLF6-SETUP-3)
        ("golf.reveal-same-column", "0: f 1; 0: f 4", ["flip 7"]),
    ],
)
def test_golf9_three_initial_flips_under_the_reveal_rules(
    rule: str, first: str, legal_third: list[str]
) -> None:
    # Seat 0's column 1 is 8C 8D 8H: with golf.remove-triples, flipping it whole in the setup
    # removes it at once; the seat's setup ends with three flips.
    game = new(
        ["2C 8C 3C 4C 8D 5C 6C 8H 7C", "2D 3D 4D 5D 6D 7D 9D 10D JD"],
        "KS",
        rules=[rule, "golf.remove-triples"],
        layout=9,
    )
    run(game, first)
    assert legal(game, 0) == legal_third
    if rule == "golf.reveal-same-column":
        assert refused(game, 0, "flip 0") == "GOLF6-SETUP-3"
        run(game, "0: f 7")
        assert grids(game, 1)[0] == [N, "--", N, N, "--", N, N, "--", N]
        assert (table(game)["discards"], table(game)["discard"]) == (4, "KS")
    else:
        assert refused(game, 0, "flip 1") == "GOLF6-SETUP-4"
        run(game, "0: f 8")
        assert grids(game, 1)[0] == ["2C", N, N, N, "8D", N, N, N, "7C"]
    assert (game.to_act, table(game)["phase"]) == ((1,), "setup")


# --- several rounds: the deal passes left; save, load, replay and positions agree ---------------


def play_knock_round(game: Game) -> int:
    """Every seat peeks 0 and 1 in turn; the first player knocks; the others draw and discard.

    Returns the knocker."""
    while table(game)["phase"] == "setup":
        seat = game.to_act[0]
        run(game, f"{seat}: p 0; {seat}: p 1")
    knocker = game.to_act[0]
    run(game, f"{knocker}: k")
    for _ in range(len(game.players) - 1):
        seat = game.to_act[0]
        run(game, f"{seat}: d; {seat}: x")
    return knocker


def test_golf4_match_dealer_passes_left_and_save_load_replay_agree() -> None:
    # 3 players, 3 rounds, first dealer seat 1 (option dealer): seat 2 peeks and moves first.
    # Round 1 (stacked): seat 0 AS 2S / 3S 4S = 10; seat 1 KH KD / 5H 6H: the kings cancel,
    # 11; seat 2 9C 9D / 8C 8D: both rows cancel, 0. Seat 2 knocks and is lowest: no +10.
    # Rounds 2 and 3 are dealt from the seed by seats 2 and 0 (GOLF-DEAL-3).
    rules = ["golf.ender-penalty-10", "golf.knock-final-stock-only"]
    game = new(
        ["AS 2S 3S 4S", "KH KD 5H 6H", "9C 9D 8C 8D"],
        "QC",
        "JC JD",
        rules=rules,
        layout="4",
        rounds=3,
        dealer=1,
    )
    assert (table(game)["dealer"], game.to_act) == (1, (2,))
    assert play_knock_round(game) == 2
    assert game.history(None) == [
        {
            "round": 1,
            "grids": [["AS", "2S", "3S", "4S"], ["KH", "KD", "5H", "6H"], ["9C", "9D", "8C", "8D"]],
            "scores": [10, 11, 0],
            "totals": [10, 11, 0],
            "ender": 2,
        }
    ]
    view = table(game)
    assert (view["round"], view["dealer"], view["phase"], game.to_act) == (2, 2, "setup", (0,))
    assert view["grids"] == [[N] * 4] * 3  # last round's knowledge is gone
    # mid round 2: every seat has peeked, seat 0 knocked, seat 1 holds a drawn card
    run(game, "0: p 0; 0: p 1; 1: p 2; 1: p 3; 2: p 1; 2: p 3; 0: k; 1: d")
    saved = json.dumps(game.save())
    loaded = cardcore.load(saved)
    here = cardcore.new_game(
        "golf", 3, rules=rules, options=dict(game.options), position=game.position(), seed=9
    )
    for seat in (0, 1, 2, None):
        assert loaded.view(seat) == game.view(seat)
        assert here.view(seat)["table"] == game.view(seat)["table"]
        if seat is not None:
            assert legal(loaded, seat) == legal(here, seat) == legal(game, seat)
    for g in (game, loaded):
        run(g, "1: x; 2: d; 2: x")
    assert (table(game)["round"], table(game)["dealer"], game.to_act) == (3, 0, (1,))
    assert play_knock_round(game) == 1
    assert play_knock_round(loaded) == 1
    history = game.history(None)
    assert [past["ender"] for past in history] == [2, 0, 1]
    totals = [0, 0, 0]
    for past in history:
        totals = [a + b for a, b in zip(totals, past["scores"], strict=True)]
        assert past["totals"] == totals
    assert game.result.reason == "rounds"
    assert game.result.scores == tuple(float(t) for t in totals)
    assert game.result.winners == tuple(s for s in range(3) if totals[s] == min(totals))
    again = cardcore.replay(json.dumps(game.record()))
    for other in (loaded, again):
        assert other.history(None) == history
        assert other.result.scores == game.result.scores
        assert other.result.winners == game.result.winners


def _golf4_score(grid: list[str]) -> int:
    """BASIC GOLF4 scoring from the seed, for a cross-check: four of a kind 0; else the most
    row/column pairs of one rank cancel (points are equal within a rank under BASIC)."""
    ranks = [card[:-1] for card in grid]
    faces = {"A": 1, "J": 10, "Q": 10, "K": 0}
    points = [faces[r] if r in faces else int(r) for r in ranks]
    if len(set(ranks)) == 1:
        return 0
    lines = [(0, 1), (2, 3), (0, 2), (1, 3)]
    best = sum(points)
    for a, b in lines:
        if ranks[a] == ranks[b]:
            rest = [(c, d) for c, d in lines if {c, d}.isdisjoint({a, b}) and ranks[c] == ranks[d]]
            left = sum(points) - points[a] - points[b] - sum(points[c] + points[d] for c, d in rest)
            best = min(best, left)
    return best


def test_golf4_seeded_rounds_score_as_the_seed_says() -> None:
    # The rounds dealt from the seed, checked against _golf4_score and penalty A (GOLF-PEN-2)
    game = cardcore.new_game(
        "golf", 3, rules=["golf.ender-penalty-10"], options={"layout": "4", "rounds": 4}, seed=11
    )
    knockers = [play_knock_round(game) for _ in range(4)]
    assert knockers == [0, 1, 2, 0]  # the first player moves left each round
    for past, knocker in zip(game.history(None), knockers, strict=True):
        raw = [_golf4_score(grid) for grid in past["grids"]]
        if raw[knocker] > min(raw):
            raw[knocker] += 10
        assert (past["scores"], past["ender"]) == (raw, knocker)


# --- GOLF4: the stock runs out and is rebuilt from the discards ---------------------------------


def test_golf4_stock_rebuilt_from_the_discards_then_a_knock_ends_the_round() -> None:
    # 2 players, 1 deck: 52 - 8 - 1 = 43 stock cards. 43 turns of draw-and-discard empty it
    # (44 discards); the next draw shuffles the 43 under the top card into a new stock
    # (GOLF-STOCK-1). Seat 0 KH KS / 2C 3C: the kings cancel -> 5; seat 1 4D 4H / 6D 7D:
    # the 4s cancel -> 13; seat 0 knocks, lowest: no penalty.
    game = new(
        ["KH KS 2C 3C", "4D 4H 6D 7D"],
        "QS",
        rules=["golf.ender-penalty-10", "golf.knock-final-stock-only"],
        layout="4",
    )
    run(game, "0: p 0; 0: p 1; 1: p 0; 1: p 1")
    shown = [table(game)["discard"]]
    for turn in range(43):
        run(game, f"{turn % 2}: d; {turn % 2}: x")
        shown.append(table(game)["discard"])
    view = table(game)
    assert (view["stock"], view["discards"], game.to_act) == (0, 44, (1,))
    run(game, "1: d")
    view = table(game, 1)
    assert (view["stock"], view["discards"], view["discard"]) == (42, 1, shown[-1])
    assert view["held"]["card"] in shown[:-1]
    assert table(game, 0)["held"] == {"seat": 1, "card": None}  # public once, secret again
    stock = next(z for z in game.view(0)["zones"] if z["name"] == "stock")
    assert stock["cards"] == [N] * 42
    run(game, "1: x; 0: k; 1: d; 1: x")
    past = last_round(game)
    assert (past["scores"], past["ender"]) == ([5, 13], 0)


def test_golf4_eight_players_two_decks_four_jokers_hard() -> None:
    # 8 players: 2 decks (GOLF-DECK-2) and 4 jokers (GOLF-DECK-4): 108 - 32 - 1 = 75 stock.
    # HARD. s0 JK JK / JK 7C: two jokers cancel, -2 + 7 = 5. s1 JK KH / KH 9D: the kings
    # lie on a diagonal: -2 + 13 + 13 + 9 = 33. s2 QS QS / QD QD: four of a kind, 0 (not
    # 48). s3 A 2 3 4 = 10, s4 5 6 8 10 = 29, s5 = 10, s6 = 29, s7 = 10.
    hands = [
        "JK JK JK 7C",
        "JK KH KH 9D",
        "QS QS QD QD",
        "AC 2C 3C 4C",
        "5C 6C 8C 10C",
        "AD 2D 3D 4D",
        "5D 6D 8D 10D",
        "AH 2H 3H 4H",
    ]
    game = new(hands, "9S", rules=["golf.hard", "golf.jokers"], layout="4", max_turns=1)
    assert table(game)["stock"] == 75
    for seat in range(8):
        run(game, f"{seat}: p 0; {seat}: p 3")
    assert grids(game, 1)[1] == ["JK", N, N, "9D"]
    run(game, "0: d; 0: x")
    past = last_round(game)
    assert past["grids"] == [h.split() for h in hands]
    assert past["scores"] == [5, 33, 0, 10, 29, 10, 29, 10]


# --- inputs the engine must refuse ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "layout", "error", "named"),
    [
        (["golf.remove-triples"], "4", OptionError, "GOLF9-4"),
        (["golf.diagonal-pairs"], "4h", OptionError, "GOLF4-VAR-1"),
        (["golf.no-cancelling"], 9, OptionError, "GOLF4-VAR-2"),
        (["golf.remove-columns"], 9, OptionError, "GOLF6-SCORE-2"),
        (["golf.four-of-a-kind-columns"], 9, OptionError, "GOLF6-VAR-3"),
        (["golf.no-final-turns"], "4", OptionError, "GOLF6-END-4"),
        (["golf.reveal-same-column"], "4h", OptionError, "GOLF6-SETUP-3"),
        (["golf.diagonal-pairs", "golf.no-cancelling"], "4", RuleConflictError, "GOLF4-VAR-2"),
    ],
)
def test_small_layout_rule_combinations_refused_naming_the_rule(
    rules: list[str], layout: Any, error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=named):
        cardcore.new_game("golf", 3, rules=rules, options={"layout": layout}, seed=1)


def test_golf4_refused_actions_name_their_rule_and_change_nothing() -> None:
    game = new(["5C 7C 9C JC", "6C 8C 10C QC"], "KC", "AD 2H", layout="4")
    assert refused(game, 0, "draw") == "GOLF-DEAL-4"  # peeks first
    assert refused(game, 0, "flip 0") == "GOLF4-SETUP-2"  # GOLF4 peeks, never flips
    assert refused(game, 0, "peek 4") == "GOLF-TURN-4"  # no such position
    assert refused(game, 1, "peek 0") == "CORE-TURN-1"
    run(game, "0: p 0")
    assert refused(game, 0, "peek 0") == "GOLF4-SETUP-2"  # each card once
    run(game, "0: p 1; 1: p 0; 1: p 1; 0: t")
    assert refused(game, 0, "discard") == "GOLF-TURN-3"
    assert refused(game, 0, "replace 4") == "GOLF-TURN-4"
    assert refused(game, 0, "take") == "GOLF-TURN-2"
    run(game, "0: r 0; 1: k")
    assert refused(game, 1, "draw") == "CORE-TURN-1"  # the knocker does nothing more
    run(game, "0: d; 0: x")
    assert game.is_over
    assert refused(game, 0, "draw") == "CORE-OVER-1"


def test_golf4_knock_in_the_setup_cites_the_setup_rule() -> None:
    game = new(["5C 7C 9C JC", "6C 8C 10C QC"], "KC", layout="4")
    assert refused(game, 0, "draw") == "GOLF-DEAL-4"
    assert refused(game, 0, "knock") == "GOLF-DEAL-4"


@pytest.mark.parametrize(
    ("option", "rule"), [("rounds", "GOLF-GAME-1"), ("max_turns", "GOLF-CAP-1")]
)
def test_golf_option_range_errors_name_the_rule(option: str, rule: str) -> None:
    with pytest.raises(OptionError, match=rule):
        cardcore.new_game("golf", 2, options={"layout": "4", option: 0}, seed=1)


def test_golf_dealer_option_error_names_the_rule() -> None:
    with pytest.raises(OptionError, match="GOLF-DEAL-3"):
        cardcore.new_game("golf", 3, options={"layout": "4h", "dealer": 3}, seed=1)


# --- GOLF9: no final turns, jokers and a negative lowest against each ender penalty --------------


@pytest.mark.parametrize(
    ("penalty", "ender_score"),
    [
        ("golf.ender-penalty-10", 34),  # 24 + 10
        ("golf.ender-penalty-lowest", 24),  # 24 + max(-3, 0)
        ("golf.ender-penalty-lowest-literal", 21),  # 24 + (-3)
    ],
)
def test_golf9_no_final_turns_jokers_negative_lowest_each_penalty(
    penalty: str, ender_score: int
) -> None:
    # golf.jokers, golf.no-final-turns. Seat 0 2C 3C 4C / 5C 6C 7C / 8C 9C 10C flips 0 1 2
    # and draws QC QD QH QS 2D 3D into 3..8: 2C 3C 4C / QC QD QH / QS 2D 3D: the queens'
    # row cancels (GOLF9-2) -> 2 + 3 + 4 + 10 + 2 + 3 = 24; the layout is complete and the
    # round ends at once (GOLF6-END-4): seat 1 gets no final turn.
    # Seat 1 KH KS KD / JK JK AC / AD AH AS (flips 0 1 2, then only draws and discards): the
    # kings and the aces of row 2 cancel; the two jokers are a pair but pairs never cancel in
    # GOLF9 -> -2 - 2 + 1 = -3.
    game = new(
        ["2C 3C 4C 5C 6C 7C 8C 9C 10C", "KH KS KD JK JK AC AD AH AS"],
        "7D",
        "QC 4D QD 4S QH 4H QS 6D 2D 6S 3D",
        rules=["golf.jokers", "golf.no-final-turns", penalty],
        layout=9,
    )
    run(game, "0: f 0; 0: f 1; 0: f 2; 1: f 0; 1: f 1; 1: f 2")
    for place in (3, 4, 5, 6, 7):
        run(game, f"0: d; 0: r {place}; 1: d; 1: x")
    run(game, "0: d; 0: r 8")
    assert game.is_over
    past = last_round(game)
    assert past["grids"][0] == ["2C", "3C", "4C", "QC", "QD", "QH", "QS", "2D", "3D"]
    assert (past["scores"], past["ender"]) == ([ender_score, -3], 0)
    assert game.result.winners == (1,)


# --- the view once the match is over ------------------------------------------------------------


def test_golf4_view_after_a_capped_knock_round_has_no_final_turns_left() -> None:
    # Seat 0 knocks (turn 1); max_turns 2 ends the round after seat 1's final turn, before
    # seat 2's: no ender (GOLF-CAP-1), and nothing is left to play.
    game = new(["5C 7C 9C JC", "6C 8C 10C QC", "2D 3D 4D 5D"], "KC", layout="4", max_turns=2)
    run(game, "0: p 0; 0: p 1; 1: p 0; 1: p 1; 2: p 0; 2: p 1; 0: k; 1: d; 1: x")
    assert game.is_over
    view = table(game)
    assert (view["turn"], view["ender"]) == (None, None)
    assert view["final_turns_left"] is None


# --- positions: an impossible GOLF4 setup ------------------------------------------------------


def test_golf4_setup_position_with_three_peeks_is_refused() -> None:
    game = new(["QC 8H AD QD", "2D 6D 2S JS"], "7S", layout="4")
    run(game, "0: p 0")
    text = game.position()
    assert "grid.0: QC@0 8H AD QD" in text
    bad = text.replace("grid.0: QC@0 8H AD QD", "grid.0: QC@0 8H@0 AD@0 QD")
    with pytest.raises(OptionError, match="3 of its 2 setup peeks"):
        cardcore.new_game("golf", 2, options=dict(game.options), position=bad, seed=1)


def test_golf4_setup_position_with_a_card_known_to_all_is_refused() -> None:
    game = new(["QC 8H AD QD", "2D 6D 2S JS"], "7S", layout="4")
    run(game, "0: p 0")
    bad = game.position().replace("grid.0: QC@0", "grid.0: QC!")
    with pytest.raises(OptionError, match=r"position 0 is known to all in the setup.*GOLF4-TURN-3"):
        cardcore.new_game("golf", 2, options=dict(game.options), position=bad, seed=1)


def test_golf4_peek_nearest_holds_in_every_round() -> None:
    # Round 1: seat 0 AS 2S / 3S 4S = 10 knocks at once; seat 1 5H 5D / 6H 7H: the 5s share
    # row 0 -> 13; it draws and discards. Round 2 is dealt by seat 0 and seat 1 peeks first,
    # still only at its near row (GOLF4-VAR-4).
    game = new(
        ["AS 2S 3S 4S", "5H 5D 6H 7H"],
        "9C",
        "9D",
        rules=["golf.peek-nearest"],
        layout="4",
        rounds=2,
    )
    assert legal(game, 0) == ["peek 2", "peek 3"]
    assert refused(game, 0, "peek 1") == "GOLF4-VAR-4"
    run(game, "0: p 2; 0: p 3; 1: p 3; 1: p 2; 0: k; 1: d; 1: x")
    assert game.history(1) == [
        {
            "round": 1,
            "grids": [["AS", "2S", "3S", "4S"], ["5H", "5D", "6H", "7H"]],
            "scores": [10, 13],
            "totals": [10, 13],
            "ender": 0,
        }
    ]
    assert game.history(0, since=1) == []
    assert (table(game)["dealer"], game.to_act, legal(game, 1)) == (0, (1,), ["peek 2", "peek 3"])
    assert refused(game, 1, "peek 0") == "GOLF4-VAR-4"


def test_golf4_final_turn_from_the_stock_only_rebuilds_the_empty_stock() -> None:
    # As above, but after the 43 turns that empty the stock seat 1 knocks. Seat 0's final
    # turn may only draw (GOLF4-VAR-3) from an empty stock: the 43 discards under the top
    # become the stock (GOLF-STOCK-1). Seat 0 KH KS / 2C 3C = 5; seat 1 4D 4H / 6D 7D = 13,
    # not lowest: + 10 (GOLF-PEN-2) -> 23.
    game = new(
        ["KH KS 2C 3C", "4D 4H 6D 7D"],
        "QS",
        rules=["golf.ender-penalty-10", "golf.knock-final-stock-only"],
        layout="4",
    )
    run(game, "0: p 0; 0: p 1; 1: p 0; 1: p 1")
    for turn in range(43):
        run(game, f"{turn % 2}: d; {turn % 2}: x")
    top = table(game)["discard"]
    run(game, "1: k")
    assert (table(game)["stock"], legal(game, 0)) == (0, ["draw"])
    assert refused(game, 0, "take") == "GOLF4-VAR-3"
    run(game, "0: d")
    assert (table(game)["stock"], table(game)["discards"], table(game)["discard"]) == (42, 1, top)
    run(game, "0: x")
    past = last_round(game)
    assert (past["scores"], past["ender"]) == ([5, 23], 1)
    assert game.result.winners == (0,)
