"""Golf worked examples of rule *interactions*, 2026-12-03.

Layouts, options and house rules combined, played through the public API only
(``cardcore.new_game(..., deck=..., options=..., rules=...)``, ``act``, ``legal_actions``,
``view``, ``history``, ``result``). Every expected outcome was worked out by hand from the seed
(``shared/seeds/golf.en.md``), ``seeds/golf.md`` and ``shared/rules-decisions.md`` before the
engine was run; the comments show the arithmetic.

Decks are stacked top first with ``deck()``: card ``k`` goes to the seat ``k`` places left of the
dealer (GOLF-DEAL-1), position ``k // N``. Grids are row-major, far row first: GOLF6 column ``c``
is positions ``c``/``c + 3``, GOLF8 ``c``/``c + 4``, GOLF10 ``c``/``c + 5``; GOLF9 rows
``0 1 2 / 3 4 5 / 6 7 8``; GOLF4 ``0 1 / 2 3``. BASIC: K 0, J/Q 10; HARD: J 11, Q 12, K 13.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pytest

import cardcore
from cardcore import Game, IllegalActionError, OptionError, RuleConflictError
from cardcore_golf.agents import GolfGreedyAgent

# --- helpers ----------------------------------------------------------------------------------


def deck(grids: Sequence[str], upcard: str = "", stock: str = "", dealer: int | None = None) -> str:
    """Deal *grids* (one per seat, row-major) from the given dealer (default: the last seat)."""
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
    seed: int = 3,
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


def last_round(game: Game) -> dict[str, Any]:
    return game.history(None)[-1]


def cards(text: str) -> list[str]:
    return text.split()


def legal(game: Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


# --- GOLF6: removed columns, jokers and the three penalties -------------------------------------

# Seat 0 is dealt 4H 5S 6D / 4S 8H 9S and flips 0, 3: the 4s go at once (GOLF6-SCORE-2).
# Seat 1 is dealt 2C JK KC / 2D 10C QC and flips 0, 3: the 2s go at once.
# Seat 0 replaces 1 (7C), 2 (3D), 4 (7D: 7C/7D removed), 5 (3H: 3D/3H removed): every position
# is empty, so the layout is complete and seat 0 is the ender (GOLF-PEN-1), score 0.
# Seat 1 puts KH at 4 and AS at 5, discards 9C, then its final turn discards 5H:
# -- JK KC / -- KH AS -> (JK, KH) -2 + 0, (KC, AS) 0 + 1 -> -1. The ender (0) is not lowest.
REMOVAL_GRIDS = ["4H 5S 6D 4S 8H 9S", "2C JK KC 2D 10C QC"]
REMOVAL_STOCK = "7C KH 3D AS 7D 9C 3H 5H"


@pytest.mark.parametrize(
    ("penalty", "scores", "winners"),
    [
        ("golf.ender-penalty-10", [10, -1], (1,)),  # 0 + 10
        ("golf.ender-penalty-lowest", [0, -1], (1,)),  # 0 + max(-1, 0)
        ("golf.ender-penalty-lowest-literal", [-1, -1], (0, 1)),  # 0 + (-1): a shared win
    ],
)
def test_golf6_ender_by_removed_columns_with_jokers_and_each_penalty(
    penalty: str, scores: list[int], winners: tuple[int, ...]
) -> None:
    rules = ["golf.remove-columns", "golf.jokers", penalty]
    game = new(REMOVAL_GRIDS, "KS", REMOVAL_STOCK, rules=rules)
    run(game, "0: f 0; 0: f 3; 1: f 0; 1: f 3")
    assert table(game)["grids"] == [["--", None, None, "--", None, None]] * 2
    run(game, "0: d; 0: r 1; 1: d; 1: r 4; 0: d; 0: r 2; 1: d; 1: r 5; 0: d; 0: r 4")
    run(game, "1: d; 1: x; 0: d; 0: r 5")
    view = table(game)
    assert view["grids"][0] == ["--"] * 6
    assert (view["ender"], view["final_turns_left"], game.to_act) == (0, 1, (1,))
    # 1 upcard + 7 turns + four removed columns of 2 = 16 discards, the last replaced 9S on top
    assert (view["discards"], view["discard"]) == (16, "9S")
    run(game, "1: d")
    # seat 1's removed column 0 cannot be filled: only 1, 2, 4, 5 or a discard (GOLF6-SCORE-2)
    assert legal(game, 1) == ["replace 1", "replace 2", "replace 4", "replace 5", "discard"]
    version = game.version
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-SCORE-2\)") as refused:
        game.act(1, "replace 3")
    assert (refused.value.rule_id, game.version) == ("GOLF6-SCORE-2", version)
    run(game, "1: x")
    past = last_round(game)
    assert past["grids"] == [["--"] * 6, ["--", "JK", "KC", "--", "KH", "AS"]]
    assert (past["scores"], past["ender"]) == (scores, 0)
    assert game.result.winners == winners


def test_golf6_no_final_turns_ends_at_the_removal_that_completes_the_layout() -> None:
    # The same play under golf.no-final-turns: the round ends on seat 0's last replacement,
    # before seat 1's final turn; seat 1 still holds -- JK KC / -- KH AS = -1; seat 0 is
    # penalised 0 + 10 = 10 (GOLF6-END-4 with GOLF-PEN-2).
    rules = ["golf.remove-columns", "golf.jokers", "golf.ender-penalty-10", "golf.no-final-turns"]
    game = new(REMOVAL_GRIDS, "KS", REMOVAL_STOCK, rules=rules)
    run(game, "0: f 0; 0: f 3; 1: f 0; 1: f 3")
    run(game, "0: d; 0: r 1; 1: d; 1: r 4; 0: d; 0: r 2; 1: d; 1: r 5; 0: d; 0: r 4")
    run(game, "1: d; 1: x; 0: d; 0: r 5")
    assert game.is_over
    assert (last_round(game)["scores"], last_round(game)["ender"]) == ([10, -1], 0)


def test_removing_columns_never_changes_the_score_under_pairs_anywhere() -> None:
    # Seat 0: JH 5C JC / JS 6C 7C with golf.one-eyed-jacks + golf.pairs-anywhere. Three jacks:
    # one pair cancels and the lowest choice leaves a one-eyed jack (GOLF-SCORE-7):
    # -2 + 5 + 6 + 7 = 16. The seed's removal is a tidy-up ("This makes the table less
    # cluttered"); with golf.remove-columns the flipped JH/JS column is taken away and JC
    # scores 10: 10 + 5 + 6 + 7 = 28.
    grids = ["JH 5C JC JS 6C 7C", "2D 3D 4D 5D 6D 7D"]
    scores = {}
    for extra in ((), ("golf.remove-columns",)):
        rules = ["golf.one-eyed-jacks", "golf.pairs-anywhere", *extra]
        game = new(grids, "9C", "AD", rules=rules, max_turns=1)
        run(game, "0: f 0; 0: f 3; 1: f 0; 1: f 1; 0: d; 0: x")
        scores[extra] = last_round(game)["scores"][0]
    assert scores[()] == 16
    assert scores[("golf.remove-columns",)] == 16


def test_golf6_score_2_a_jack_column_is_still_removed_when_only_columns_cancel() -> None:
    # Without golf.pairs-anywhere a column pair cancels whatever its jacks score, so removing
    # the face-up JH/JS column changes nothing (0 either way) and the column goes: JC 10 +
    # 5 + 6 + 7 = 28 with or without the removal; its positions are empty
    grids = ["JH 5C JC JS 6C 7C", "2D 3D 4D 5D 6D 7D"]
    scores = {}
    for extra in ((), ("golf.remove-columns",)):
        game = new(grids, "9C", "AD", rules=["golf.one-eyed-jacks", *extra], max_turns=1)
        run(game, "0: f 0; 0: f 3")
        grid = game.view(0)["table"]["grids"][0]
        assert (grid[0], grid[3]) == (("--", "--") if extra else ("JH", "JS"))
        run(game, "1: f 0; 1: f 1; 0: d; 0: x")
        scores[extra] = last_round(game)["scores"][0]
    assert scores == {(): 28, ("golf.remove-columns",): 28}


# --- GOLF8: different-column reveals, no final turns, penalty B with a positive lowest -----------


def test_golf8_no_final_turns_penalty_b_adds_a_positive_lowest() -> None:
    # golf.bonus-twos, golf.reveal-different-columns, golf.no-final-turns, penalty B.
    # Seat 0 flips 0 and 1 (9C, 10C; 0 and 4 share column 0: refused) and places 3C 4C 9D 10D
    # 5H 6H into 2..7: 9C 10C 3C 4C / 9D 10D 5H 6H -> 0 + 0 + (3+5) + (4+6) = 18; the round
    # ends at once (GOLF6-END-4): seat 1 gets no final turn.
    # Seat 1: 2H 2S AD KD / 2C 3D 4D JS -> (2H, 2C) two bonus cards cancel to 0, (2S, 3D)
    # -2 + 3 = 1, (AD, 4D) 5, (KD, JS) 0 + 10 -> 16. Ender 18 > 16: + max(16, 0) -> 34.
    grids = ["9C 10C 7S 8S 7H 8H 7D 8D", "2H 2S AD KD 2C 3D 4D JS"]
    stock = "3C KS 4C QS 9D JC 10D 9S 5H 10S 6H"
    rules = ["golf.bonus-twos", "golf.reveal-different-columns", "golf.no-final-turns"]
    game = new(grids, "AS", stock, rules=[*rules, "golf.ender-penalty-lowest"], layout=8)
    run(game, "0: f 0")
    version = game.version
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-SETUP-4\)") as refused:
        game.act(0, "f 4")
    assert (refused.value.rule_id, game.version) == ("GOLF6-SETUP-4", version)
    run(game, "0: f 1; 1: f 0; 1: f 1")
    for turn, place in enumerate([2, 3, 4, 5, 6, 7]):
        run(game, f"0: d; 0: r {place}")
        if turn < 5:
            assert not game.is_over
            run(game, "1: d; 1: x")
    assert game.is_over
    past = last_round(game)
    assert past["grids"][0] == cards("9C 10C 3C 4C 9D 10D 5H 6H")
    assert (past["scores"], past["ender"]) == ([34, 16], 0)
    assert game.result.winners == (1,)


# --- GOLF10: the stock runs out during the final turns ------------------------------------------


def test_golf10_stock_reshuffled_during_final_turns_hard_final_stock_only() -> None:
    # 3 players, 1 deck: 52 - 30 - 1 upcard = 21 cards of stock, every one stacked.
    # Seat 0 (AC 2C 3C 4C 5C / AD 6C 7C 8C 9C, flips 0 and 5) draws KS QS 3S 4S KH QH 3H into
    # 1 2 3 4 6 7 8 on its turns 1, 4, ..., 19; seats 1 and 2 draw and discard. After turn 21
    # the stock is empty; on turn 22 seat 0 takes 4H (seat 2's discard) into 9: complete.
    # Seat 0: every column a pair -> 0. HARD, seat 1: (JH, JD) 0, 10+6, 9+5, 8+2, 7+2 = 49;
    # seat 2: (10D, 10S) 0, 9+5, 8+4, 7+3, 6+2 = 44.
    grids = [
        "AC 2C 3C 4C 5C AD 6C 7C 8C 9C",
        "JH 10H 9H 8H 7H JD 6H 5H 2H 2D",
        "10D 9D 8D 7D 6D 10S 5D 4D 3D 2S",
    ]
    stock = "KS 10C QC QS KC QD 3S KD AH 4S AS 5S KH 6S 7S QH 8S 9S 3H JS 4H"
    game = new(grids, "JC", stock, rules=["golf.hard", "golf.final-stock-only"], layout=10)
    run(game, "0: f 0; 0: f 5; 1: f 0; 1: f 5; 2: f 0; 2: f 5")
    places = iter([1, 2, 3, 4, 6, 7, 8])
    for turn in range(21):
        seat = turn % 3
        run(game, f"0: d; 0: r {next(places)}" if seat == 0 else f"{seat}: d; {seat}: x")
    assert (table(game)["stock"], table(game)["discard"], table(game)["discards"]) == (0, "4H", 22)
    run(game, "0: t; 0: r 9")
    view = table(game)
    assert (view["ender"], view["final_turns_left"], view["discard"]) == (0, 2, "9C")
    # final turns draw from the stock only (GOLF6-VAR-1), even when the stock is empty
    assert legal(game, 1) == ["draw"]
    version = game.version
    with pytest.raises(IllegalActionError, match=r"\(GOLF6-VAR-1\)") as refused:
        game.act(1, "take")
    assert (refused.value.rule_id, game.version) == ("GOLF6-VAR-1", version)
    run(game, "1: d")
    # GOLF-STOCK-1: the 22 discards but the top 9C became the stock; one is now held
    reshuffled = cards("JC 2C 3C 4C 5C 6C 7C 8C 10C QC KC QD KD AH AS 5S 6S 7S 8S 9S JS")
    view = table(game, 1)
    assert (view["stock"], view["discards"], view["discard"]) == (20, 1, "9C")
    assert view["held"]["card"] in reshuffled
    run(game, "1: x")
    assert legal(game, 2) == ["draw"]
    run(game, "2: d; 2: x")
    past = last_round(game)
    assert past["grids"][0] == cards("AC KS QS 3S 4S AD KH QH 3H 4H")
    assert (past["scores"], past["ender"]) == ([0, 49, 44], 0)
    assert game.result.winners == (0,)


# --- GOLF9: overlapping removed triples, a face-down joker triple, the turn cap -----------------


def test_golf9_overlapping_triples_removed_joker_triple_and_turn_cap() -> None:
    # 4 players -> 2 decks with 4 jokers (GOLF-DECK-1, GOLF-DECK-4); HARD table.
    # Seat 0 (2C 7S 7D / 7C KC JK / 3C QC 2H) flips 1 2 3; draws 7H into 6 (column 0 is then
    # 2C face down, 7C, 7H), then the second deck's 7S into 0: row 0 (7S 7S 7D) and column 0
    # (7S 7C 7H) are complete at once: five cards go under the discards (GOLF9-4, GOLF9-3).
    # Left: KC 13 + JK -2 + QC 12 + 2H 2 = 25.
    # Seat 1: JK JK JK / 4D 4S 5D / 9D 9S 10D, the jokers never turned: at the end the joker
    # row is a triple and scores 0 (not -6), 4+4+5+9+9+10 = 41.
    # Seat 2: K K K / Q Q Q / AH 2S 3H -> 1+2+3 = 6.
    # Seat 3: 10H 10S 10C / 10H 8D 8H / 10S 6D 6H: row 0 and column 0 share 10H -> five
    # tens score 0; 8+8+6+6 = 28.
    # max_turns 6 ends the round after seat 1's second turn: no ender, no penalty (GOLF-CAP-1).
    grids = [
        "2C 7S 7D 7C KC JK 3C QC 2H",
        "JK JK JK 4D 4S 5D 9D 9S 10D",
        "KH KS KD QH QS QD AH 2S 3H",
        "10H 10S 10C 10H 8D 8H 10S 6D 6H",
    ]
    rules = ["golf.hard", "golf.jokers", "golf.remove-triples", "golf.ender-penalty-10"]
    game = new(grids, "4C", "7H 5S 5H 5C 7S 5D", rules=rules, layout=9, max_turns=6)
    run(game, "0: f 1; 0: f 2; 0: f 3; 1: f 3; 1: f 4; 1: f 5")
    run(game, "2: f 6; 2: f 7; 2: f 8; 3: f 4; 3: f 5; 3: f 7")
    run(game, "0: d; 0: r 6; 1: d; 1: x; 2: d; 2: x; 3: d; 3: x; 0: d; 0: r 0")
    view = table(game)
    assert view["grids"][0] == ["--", "--", "--", "--", None, None, "--", None, None]
    # 1 upcard + 5 turns + 5 removed cards; the replaced 2C on top
    assert (view["discards"], view["discard"]) == (11, "2C")
    run(game, "1: d; 1: x")
    past = last_round(game)
    assert past["grids"][0] == ["--", "--", "--", "--", "KC", "JK", "--", "QC", "2H"]
    assert (past["scores"], past["ender"]) == ([25, 41, 6, 28], None)
    assert game.result.winners == (2,)


# --- GOLF4: a knock against the turn cap ---------------------------------------------------------


@pytest.mark.parametrize(
    ("cap", "scores", "ender"),
    [
        (None, [20, 4, 26], 0),  # both final turns played: 10 + 10
        (3, [20, 4, 26], 0),  # the cap falls with the last final turn: the knock still counts
        (2, [10, 4, 26], None),  # the cap cuts the final turns: no ender, no penalty
        (1, [10, 4, 26], None),  # the knock itself is turn 1 (knocks count, GOLF-CAP-1)
    ],
)
def test_golf4_knock_penalty_and_turn_cap(
    cap: int | None, scores: list[int], ender: int | None
) -> None:
    # Seat 0 KH QH / 9C 9D: the 9s (row) cancel, K 0 + Q 10 = 10.
    # Seat 1 AS 2S / 3S 2D: the 2s (column) cancel, 1 + 3 = 4.
    # Seat 2 5H 6H / 7H 8H = 26. Seat 0 knocks on turn 1 and is not lowest: +10.
    grids = ["KH QH 9C 9D", "AS 2S 3S 2D", "5H 6H 7H 8H"]
    game = new(grids, "5C", "6C 7C", rules=["golf.ender-penalty-10"], layout="4", max_turns=cap)
    run(game, "0: p 0; 0: p 1; 1: p 2; 1: p 3; 2: p 2; 2: p 3; 0: k")
    for seat in (1, 2):
        if not game.is_over:
            run(game, f"{seat}: d; {seat}: x")
    assert game.is_over
    assert (last_round(game)["scores"], last_round(game)["ender"]) == (scores, ender)


@pytest.mark.parametrize(("penalty", "over"), [((), False), (("golf.ender-penalty-10",), True)])
def test_golf4_points_limit_reached_only_through_the_knock_penalty(
    penalty: tuple[str, ...], over: bool
) -> None:
    # points_limit 15, no round cap (GOLF-GAME-1). Seat 0 KH QH / 9C 9D = 10 knocks; seat 1
    # AS 2S / 3S 2D = 4; seat 2 5H 5S / 2H 3H: the 5s cancel, 2 + 3 = 5. Without a penalty
    # nobody reaches 15 and round 2 is dealt by seat 0; with golf.ender-penalty-10 seat 0 has
    # 10 + 10 = 20 >= 15 and the match ends after round 1, seat 1 (4) winning.
    grids = ["KH QH 9C 9D", "AS 2S 3S 2D", "5H 5S 2H 3H"]
    game = new(grids, "5C", "6C 7C", rules=penalty, layout="4", rounds=None, points_limit=15)
    run(game, "0: p 0; 0: p 1; 1: p 2; 1: p 3; 2: p 2; 2: p 3; 0: k; 1: d; 1: x; 2: d; 2: x")
    assert last_round(game)["scores"] == ([20, 4, 5] if over else [10, 4, 5])
    assert game.is_over is over
    if over:
        assert (game.result.reason, game.result.winners) == ("points-limit", (1,))
    else:
        assert (table(game)["round"], table(game)["dealer"], game.to_act) == (2, 0, (1,))


# --- GOLF4H: a first-turn knock with jokers and the tie rules ------------------------------------


@pytest.mark.parametrize(
    ("rules", "scores", "winners"),
    [
        # the knocker ties at -2 and pays the literal lowest: -2 + (-2) = -4
        (("golf.ender-penalty-lowest-literal", "golf.ender-penalty-ties"), [15, -4, -2], (1,)),
        (("golf.ender-penalty-lowest-literal",), [15, -2, -2], (1, 2)),  # a tie is not penalised
        (("golf.ender-penalty-10", "golf.ender-penalty-ties"), [15, 8, -2], (2,)),  # -2 + 10
        (("golf.ender-penalty-lowest", "golf.ender-penalty-ties"), [15, -2, -2], (1, 2)),  # +0
    ],
)
def test_golf4h_first_turn_knock_jokers_and_ties(
    rules: tuple[str, ...], scores: list[int], winners: tuple[int, ...]
) -> None:
    # Dealer seat 0, so seat 1 gets the first card and moves first (GOLF-DEAL-3).
    # Seat 1: JK KC KD KS -> two kings cancel, the third 0, JK -2 -> -2. It knocks at once
    # (GOLF4-KNOCK-3). Seat 2: JK AS AH KH -> the aces cancel, -2 + 0 = -2; it draws 9H and
    # discards it. Seat 0: 5C 6C 7C 8C; it draws 5D into slot 1: 5C 5D cancel, 7 + 8 = 15.
    grids = ["5C 6C 7C 8C", "JK KC KD KS", "JK AS AH KH"]
    all_rules = ["golf.jokers", "golf.knock-final-stock-only", *rules]
    game = new(grids, "4D", "9H 5D", rules=all_rules, layout="4h", dealer=0)
    assert game.to_act == (1,)
    assert legal(game, 1) == ["draw", "take", "knock"]
    run(game, "1: k")
    assert legal(game, 2) == ["draw"]  # GOLF4-VAR-3
    run(game, "2: d; 2: x")
    assert legal(game, 0) == ["draw"]
    run(game, "0: d; 0: r 1")
    past = last_round(game)
    assert past["grids"][0] == ["5C", "5D", "7C", "8C"]
    assert (past["scores"], past["ender"]) == (scores, 1)
    assert game.result.winners == winners


# --- GOLF6: four-of-a-kind awards, pairs anywhere and an ender who ties --------------------------


@pytest.mark.parametrize(
    ("ties", "scores", "winners"),
    [(False, [20, 23, 20], (0, 2)), (True, [30, 23, 20], (2,))],
)
def test_golf6_four_of_a_kind_awards_pairs_anywhere_then_ender_tie(
    ties: bool, scores: list[int], winners: tuple[int, ...]
) -> None:
    # HARD, golf.pairs-anywhere, golf.four-of-a-kind-columns, golf.ender-penalty-10.
    # Seat 0 (dealt 7H 10S 10D / 7D 10C 10H, flips 0 3) places 7S, 4C, 7C, 6D into 1 2 4 5:
    # 7H 7S 4C / 7D 7C 6D: columns 0 and 1 are 7-pairs side by side -> 0, 4 + 6 = 10.
    # Seat 1: QH 9H 9S / AH 9D 9C: columns 1 and 2 are 9-pairs side by side -> Q 12 + A 1 = 13.
    # Seat 2: AS 2S AC / 2D 3H 3D: no column pair, but the As, 2s, 3s pair anywhere -> 0.
    # Awards (GOLF6-VAR-3): seat 0 +10 (seat 1's), seat 1 +10, seat 2 +20 -> 20, 23, 20.
    # The ender (seat 0) ties seat 2 for lowest after the awards (GOLF-PEN-4): no penalty,
    # unless ties pay (GOLF-PEN-6): 20 + 10 = 30.
    grids = ["7H 10S 10D 7D 10C 10H", "QH 9H 9S AH 9D 9C", "AS 2S AC 2D 3H 3D"]
    stock = "7S 5H 5S 4C 5C 5D 7C 8H 8S 6D 8D 8C"
    rules = ["golf.hard", "golf.pairs-anywhere", "golf.four-of-a-kind-columns"]
    rules += ["golf.ender-penalty-10", *(["golf.ender-penalty-ties"] if ties else [])]
    game = new(grids, "KH", stock, rules=rules)
    run(game, "0: f 0; 0: f 3; 1: f 0; 1: f 3; 2: f 0; 2: f 3")
    for place in (1, 2, 4, 5):
        run(game, f"0: d; 0: r {place}; 1: d; 1: x; 2: d; 2: x")
    past = last_round(game)
    assert past["grids"][0] == cards("7H 7S 4C 7D 7C 6D")
    assert (past["scores"], past["ender"]) == (scores, 0)
    assert game.result.winners == winners


# --- several rounds: dealer rotation, resign and the host's end ---------------------------------

# GOLF4, 3 players. Seat 0 AS 4S / 3C KD: no pair, 1 + 4 + 3 + 0 = 8. Seat 1 10S 10H / QC JD:
# the 10s cancel, 10 + 10 = 20. Seat 2 5S 5H / 4D 6D: 4 + 6 = 10. Seat 0 knocks at once.
ROUND_ONE = ["AS 4S 3C KD", "10S 10H QC JD", "5S 5H 4D 6D"]


def three_round_match() -> Game:
    game = new(ROUND_ONE, "9C", "8C 8D", layout="4", rounds=3)
    run(game, "0: p 0; 0: p 1; 1: p 0; 1: p 1; 2: p 0; 2: p 1; 0: k; 1: d; 1: x; 2: d; 2: x")
    return game


def test_round_two_is_dealt_by_the_next_seat_and_scores_add_up() -> None:
    game = three_round_match()
    assert game.history(None)[0]["scores"] == [8, 20, 10]
    view = table(game)
    # the deal passed left: seat 0 deals round 2, seat 1 peeks first and moves first
    assert (view["round"], view["dealer"], view["phase"], game.to_act) == (2, 0, "setup", (1,))
    run(game, "1: p 0; 1: p 1; 2: p 0; 2: p 1; 0: p 0; 0: p 1")
    assert game.to_act == (1,)
    assert legal(game, 1) == ["draw", "take", "knock"]


def test_resign_or_end_mid_round_leaves_the_round_unscored() -> None:
    # Seat 0 leads 8 / 20 / 10 and resigns in round 2's setup: it cannot win; seat 2 (10) does.
    game = three_round_match()
    game.act(0, "resign")
    assert (game.result.reason, game.result.winners) == ("resigned", (2,))
    assert game.result.scores == (8.0, 20.0, 10.0)
    # The host ends the match in round 2's setup: the totals so far decide.
    game = three_round_match()
    game.act(cardcore.HOST, "end")
    assert (game.result.reason, game.result.winners) == ("ended", (0,))
    # Seat 1 knocks in round 2; seat 2 resigns during its final turn: round 2 is not scored.
    game = three_round_match()
    run(game, "1: p 0; 1: p 1; 2: p 0; 2: p 1; 0: p 0; 0: p 1; 1: k; 2: d")
    game.act(2, "resign")
    assert len(game.history(None)) == 1
    assert game.result.winners == (0,)
    assert game.result.scores == (8.0, 20.0, 10.0)


# --- the deck: jokers count in the stock that decides extra decks -------------------------------


def test_jokers_count_in_the_stock_that_decides_extra_decks() -> None:
    # GOLF10, 19 players: 3 decks (8+ players, GOLF-DECK-1) cannot even deal 190 + 1 cards.
    # Without jokers: 4 decks leave 208 - 191 = 17 < 19 -> 5 decks: 260 - 191 = 69.
    # With jokers (GOLF-DECK-4): 4 decks + 8 jokers leave 216 - 191 = 25 >= 19 -> stop.
    plain = cardcore.new_game("golf", 19, options={"layout": 10}, seed=1)
    jokers = cardcore.new_game("golf", 19, rules=["golf.jokers"], options={"layout": 10}, seed=1)
    assert (table(plain)["stock"], table(jokers)["stock"]) == (69, 25)


# --- every layout with the HARD table and a bonus-card variant ----------------------------------


@pytest.mark.parametrize(
    ("layout", "bonus", "grids", "scores"),
    [
        # (JK, JK) 0, (KS, KD) 0, Q 12 + 5 = 17 | 1+4, 2+5, 3+6 = 21
        (6, "golf.jokers", ["JK KS QH JK KD 5C", "AD 2D 3D 4D 5D 6D"], [17, 21]),
        # (2H, 2D) 0 (two bonus cards cancel), (2S, 3S) -2+3, (QC, QD) 0, 13 + 4 -> 18
        # | 1+9, 3+11, 5+8, 7+10 -> 54
        (
            8,
            "golf.bonus-twos",
            ["2H 2S QC KC 2D 3S QD 4C", "AH 3H 5H 7H 9H JH 8S 10S"],
            [18, 54],
        ),
        # (JH, JD) 0 by rank, (JS, QS) -2+12, (JC, AC) 11+1, K pair 0, 9 pair 0 -> 22
        # | 2+7, 3+8, 4+9, 5+10, 6+12 -> 66
        (
            10,
            "golf.one-eyed-jacks",
            ["JH JS JC KH 9C JD QS AC KS 9D", "2H 3H 4H 5H 6H 7H 8H 9H 10H QH"],
            [22, 66],
        ),
        # the 5s of row 1 cancel; the two jokers do not (pairs never cancel in GOLF9):
        # -2 + 5 - 2 + 13 + 12 + 1 = 27 | three column triples -> 0
        (9, "golf.jokers", ["JK 5C JK 5D 5H 5S KH QH AC", "2H 3H 4H 2S 3S 4S 2D 3D 4D"], [27, 0]),
        # three kings: two cancel, 13 + (-2) = 11 | three 2s: two cancel, -2 + 9 = 7
        ("4", "golf.bonus-twos", ["KH KS KD 2C", "2H 2S 2D 9C"], [11, 7]),
        # three jacks: the lowest leftover is a one-eyed jack (GOLF-SCORE-7), -2 + 12 = 10
        # | four kings -> 0
        ("4h", "golf.one-eyed-jacks", ["JH JC JS QS", "KH KD KS KC"], [10, 0]),
    ],
)
def test_every_layout_with_hard_and_a_bonus_card(
    layout: Any, bonus: str, grids: list[str], scores: list[int]
) -> None:
    game = new(grids, rules=["golf.hard", bonus], layout=layout, max_turns=1)
    setup = {"4": "p", "4h": None}.get(layout, "f")
    count = 3 if layout == 9 else 2
    for seat in range(2):
        for pos in range(count if setup else 0):
            game.act(seat, f"{setup} {pos}")
    run(game, "0: d; 0: x")  # one turn (max_turns 1): the layouts are revealed as dealt
    past = last_round(game)
    assert past["grids"] == [g.split() for g in grids]
    assert (past["scores"], past["ender"]) == (scores, None)


# --- combinations the engine must refuse ---------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "options", "error", "named"),
    [
        (
            ["golf.hard", "golf.jokers", "golf.one-eyed-jacks"],
            {},
            RuleConflictError,
            "GOLF-SCORE-9",
        ),
        (
            ["golf.pairs-anywhere", "golf.four-of-a-kind-columns", "golf.remove-columns"],
            {"layout": 8},
            RuleConflictError,
            "GOLF6-VAR-3",
        ),
        (
            ["golf.ender-penalty-ties", "golf.ender-penalty-lowest-literal", "GOLF-PEN-2"],
            {},
            RuleConflictError,
            "GOLF-PEN-5",
        ),
        (["golf.hard", "golf.pairs-anywhere"], {"layout": 9}, OptionError, "GOLF6-VAR-2"),
        (
            ["golf.jokers", "golf.knock-final-stock-only"],
            {"layout": 10},
            OptionError,
            "GOLF4-VAR-3",
        ),
        (["golf.no-cancelling", "golf.peek-nearest"], {"layout": "4h"}, OptionError, "GOLF4-VAR-4"),
        (["golf.final-stock-only"], {"layout": "4"}, OptionError, "GOLF6-VAR-1"),
    ],
)
def test_refused_combinations_name_the_rule(
    rules: list[str], options: dict[str, Any], error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=named):
        cardcore.new_game("golf", 3, rules=rules, options=options, seed=1)


# --- a seeded cross-check: whole matches against a scorer written from the seed ------------------

_BASIC = {"A": 1, "J": 10, "Q": 10, "K": 0}
_HARD = {"A": 1, "J": 11, "Q": 12, "K": 13}


def _rank(card: str) -> str:
    return card if card == "JK" else card[:-1]


def _points(card: str, rules: Sequence[str]) -> int:
    if card == "JK" or (
        ("golf.bonus-twos" in rules and _rank(card) == "2")
        or ("golf.one-eyed-jacks" in rules and card in ("JH", "JS"))
    ):
        return -2
    table_ = _HARD if "golf.hard" in rules else _BASIC
    return table_.get(_rank(card), 0) if _rank(card) in table_ else int(_rank(card))


def _best(cards: dict[int, str], pairable: Any, rules: Sequence[str]) -> int:
    """Most pairs that may cancel, then the lowest score among those choices (GOLF-SCORE-7)."""

    def options(rest: list[int]) -> list[tuple[int, int]]:
        if not rest:
            return [(0, 0)]
        p, tail = rest[0], rest[1:]
        out = [(n, s + _points(cards[p], rules)) for n, s in options(tail)]
        for q in tail:
            if _rank(cards[p]) == _rank(cards[q]) and pairable(p, q):
                out += [(n + 1, s) for n, s in options([x for x in tail if x != q])]
        return out

    found = options(sorted(cards))
    most = max(n for n, _ in found)
    return min(s for n, s in found if n == most)


def _layout_score(grid: list[str], layout: str, rules: Sequence[str]) -> int:
    cards = {p: c for p, c in enumerate(grid) if c != "--"}  # removed positions score 0
    if layout == "9":
        lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8)]
        zero = {
            p
            for line in lines
            if all(p in cards for p in line) and len({_rank(cards[p]) for p in line}) == 1
            for p in line
        }
        return sum(_points(c, rules) for p, c in cards.items() if p not in zero)
    if "golf.no-cancelling" in rules:
        return sum(_points(c, rules) for c in cards.values())
    if layout == "4":
        if len({_rank(c) for c in grid}) == 1:
            return 0
        lines = [{0, 1}, {2, 3}, {0, 2}, {1, 3}]
        diagonal = "golf.diagonal-pairs" in rules
        return _best(cards, lambda p, q: diagonal or {p, q} in lines, rules)
    if layout == "4h" or "golf.pairs-anywhere" in rules:
        return _best(cards, lambda p, q: True, rules)
    cols = len(grid) // 2
    return sum(
        _points(grid[c], rules) + _points(grid[c + cols], rules)
        for c in range(cols)
        if grid[c] != "--" and _rank(grid[c]) != _rank(grid[c + cols])
    )


def _four_columns(grid: list[str]) -> bool:
    cols = len(grid) // 2
    pairs = [
        _rank(grid[c]) if grid[c] != "--" and _rank(grid[c]) == _rank(grid[c + cols]) else None
        for c in range(cols)
    ]
    return any(a is not None and a == b for a, b in itertools.pairwise(pairs))


def _round_scores(grids: list[list[str]], ender: int | None, layout: str, rules: Sequence[str]):
    raw = [_layout_score(g, layout, rules) for g in grids]
    if "golf.four-of-a-kind-columns" in rules:
        holders = [i for i, g in enumerate(grids) if _four_columns(g)]
        raw = [r + 10 * sum(h != i for h in holders) for i, r in enumerate(raw)]
    if ender is not None:
        low = min(raw)
        tied = "golf.ender-penalty-ties" in rules and raw.count(low) > 1
        if raw[ender] > low or (tied and raw[ender] == low):
            if "golf.ender-penalty-10" in rules:
                raw[ender] += 10
            elif "golf.ender-penalty-lowest" in rules:
                raw[ender] += max(low, 0)
            elif "golf.ender-penalty-lowest-literal" in rules:
                raw[ender] += low
    return raw


@pytest.mark.parametrize(
    ("players", "layout", "rules", "seed"),
    [
        (3, 6, ("golf.hard", "golf.jokers", "golf.ender-penalty-10", "golf.ender-penalty-ties"), 1),
        (4, 6, ("golf.pairs-anywhere", "golf.four-of-a-kind-columns", "golf.bonus-twos"), 2),
        (2, 8, ("golf.one-eyed-jacks", "golf.remove-columns", "golf.ender-penalty-lowest"), 3),
        (
            3,
            10,
            ("golf.hard", "golf.four-of-a-kind-columns", "golf.ender-penalty-lowest-literal"),
            4,
        ),
        (4, 9, ("golf.jokers", "golf.remove-triples", "golf.final-stock-only"), 5),
        (3, "4", ("golf.diagonal-pairs", "golf.one-eyed-jacks", "golf.ender-penalty-10"), 6),
        (5, "4h", ("golf.jokers", "golf.hard", "golf.ender-penalty-lowest-literal"), 7),
        (
            2,
            "4",
            (
                "golf.no-cancelling",
                "golf.knock-final-stock-only",
                "golf.ender-penalty-ties",
                "golf.ender-penalty-lowest",
            ),
            8,
        ),
    ],
)
def test_seeded_matches_agree_with_a_scorer_from_the_seed(
    players: int, layout: Any, rules: tuple[str, ...], seed: int
) -> None:
    options = {"layout": layout, "rounds": 3, "max_turns": 80, "dealer": 0}
    game = cardcore.new_game("golf", players, rules=list(rules), options=options, seed=seed)
    cardcore.play(game, [GolfGreedyAgent(seed=seed + i) for i in range(players)])
    history = game.history(None)
    assert len(history) == 3
    totals = [0] * players
    for number, past in enumerate(history):
        expected = _round_scores(past["grids"], past["ender"], str(layout), rules)
        totals = [a + b for a, b in zip(totals, expected, strict=True)]
        assert (past["scores"], past["totals"]) == (expected, totals), number
    assert game.result.winners == tuple(i for i, t in enumerate(totals) if t == min(totals))
