"""Golf house rules: one test (or more) per house-rule ID, plus conflicts, layout limits and
the meta-checks (entry points, docs, no mention in base modules)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tests.games.golf.helpers import golf, play, round_scores, setup_flips, stack, state

import cardcore
import cardcore_golf
from cardcore import JOKER, IllegalActionError, OptionError, RuleConflictError
from cardcore_golf.house.hard_scoring import HARD

ROOT = Path(__file__).resolve().parents[3]
HOUSE = {
    "golf.bonus-card": "GOLF-SCORE-10",
    "golf.bonus-twos": "GOLF-SCORE-8",
    "golf.diagonal-pairs": "GOLF4-VAR-1",
    "golf.ender-penalty-10": "GOLF-PEN-2",
    "golf.ender-penalty-lowest": "GOLF-PEN-3",
    "golf.ender-penalty-lowest-literal": "GOLF-PEN-5",
    "golf.ender-penalty-ties": "GOLF-PEN-6",
    "golf.final-stock-only": "GOLF6-VAR-1",
    "golf.four-of-a-kind-columns": "GOLF6-VAR-3",
    "golf.hand-same-value": "GOLF4H-VAR-1",
    "golf.hard": "GOLF-SCORE-2",
    "golf.jokers": "GOLF-SCORE-4",
    "golf.knock-final-stock-only": "GOLF4-VAR-3",
    "golf.no-cancelling": "GOLF4-VAR-2",
    "golf.no-final-turns": "GOLF6-END-4",
    "golf.one-eyed-jacks": "GOLF-SCORE-9",
    "golf.pairs-anywhere": "GOLF6-VAR-2",
    "golf.peek-nearest": "GOLF4-VAR-4",
    "golf.remove-columns": "GOLF6-SCORE-2",
    "golf.remove-triples": "GOLF9-4",
    "golf.reveal-different-columns": "GOLF6-SETUP-4",
    "golf.reveal-same-column": "GOLF6-SETUP-3",
}

G0 = "7H 9C KD 4S 2D QH"
G1 = "3C 8D JS 3D 10H 6S"
G1B = "3C 8D 10S 3D 10H 6S"  # also 34 points, without a jack
DECK = stack([G0, G1], "5C", "7D KS 9H QS AH 2C")
ROUND = [
    (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3"),
    (0, "draw"), (0, "replace 3"), (1, "take"), (1, "replace 1"),
    (0, "draw"), (0, "replace 2"), (1, "draw"), (1, "discard"),
    (0, "take"), (0, "replace 4"), (1, "draw"), (1, "replace 2"),
    (0, "draw"), (0, "replace 5"), (1, "draw"), (1, "replace 4"),
]  # fmt: skip
FOUR = stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D", "QS JD 7C 6C")


def scores(
    grids: list[str], *, rules: tuple[str, ...] = (), layout: Any = 6, ender: int = -1
) -> list[int]:
    """Deal *grids* (stacked) and score them as a round ending now, with *ender*."""
    game = golf(
        len(grids),
        stack(grids, "KS" if "KS" not in " ".join(grids) else "QS"),
        rules=rules,
        options={"layout": layout},
    )
    return round_scores(game, ender)


def peeked(game: cardcore.Game, players: int = 2) -> None:
    for seat in range(players):
        legal = [str(a) for a in game.legal_actions(seat)]
        play(game, (seat, legal[0]))
        legal = [str(a) for a in game.legal_actions(seat)]
        play(game, (seat, legal[0]))


# --- entry points, docs, meta ----------------------------------------------------------------------


def test_every_house_rule_is_installed_with_its_id() -> None:
    built_in = {
        n for n in cardcore.available_rules("golf") if cardcore.rule_info(n).id.startswith("GOLF")
    }
    assert built_in == set(
        HOUSE
    )  # third-party golf rules (examples/third_party_plugin) may be installed too
    for name, rule_id in HOUSE.items():
        info = cardcore.rule_info(name)
        assert (info.id, info.name, info.game) == (rule_id, name, "golf")


def test_every_house_rule_is_documented() -> None:
    spec = (ROOT / "seeds" / "golf.md").read_text()
    page = (ROOT / "docs" / "games" / "golf.rst").read_text()
    for name, rule_id in HOUSE.items():
        assert f"`{name}`" in spec and rule_id in spec
        assert name in page and rule_id in page


def test_base_modules_never_name_a_house_rule() -> None:
    base = Path(cardcore_golf.__file__).parent
    pattern = re.compile(
        "|".join(re.escape(x) + r"(?![\w-])" for x in (*HOUSE, *HOUSE.values(), "GOLF-DECK-4"))
    )
    for path in base.glob("*.py"):
        found = pattern.findall(path.read_text())
        assert not found, (path.name, found)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("golf.jokers", "golf.bonus-twos"),
        ("golf.jokers", "golf.one-eyed-jacks"),
        ("golf.bonus-twos", "golf.one-eyed-jacks"),
        ("golf.ender-penalty-10", "golf.ender-penalty-lowest"),
        ("golf.reveal-same-column", "golf.reveal-different-columns"),
        ("golf.diagonal-pairs", "golf.no-cancelling"),
        ("golf.no-final-turns", "golf.final-stock-only"),
        ("golf.remove-columns", "golf.four-of-a-kind-columns"),
    ],
)
def test_conflicting_rules_are_rejected(a: str, b: str) -> None:
    with pytest.raises(RuleConflictError):
        cardcore.new_game("golf", 2, rules=[a, b], seed=1)


@pytest.mark.parametrize(
    ("rule", "layout"),
    [
        ("golf.reveal-same-column", "4"),
        ("golf.reveal-different-columns", "4h"),
        ("golf.pairs-anywhere", 9),
        ("golf.four-of-a-kind-columns", "4"),
        ("golf.final-stock-only", "4"),
        ("golf.knock-final-stock-only", 6),
        ("golf.diagonal-pairs", "4h"),
        ("golf.no-cancelling", 6),
        ("golf.peek-nearest", 6),
        ("golf.remove-columns", 9),
        ("golf.remove-triples", 6),
        ("golf.no-final-turns", "4"),
    ],
)
def test_rules_reject_layouts_they_do_not_serve(rule: str, layout: Any) -> None:
    with pytest.raises(OptionError, match=re.escape(HOUSE[rule])):
        cardcore.new_game("golf", 2, rules=[rule], options={"layout": layout}, seed=1)


# --- scoring rules ---------------------------------------------------------------------------------


def test_golf_score_2_hard_table_on_engine() -> None:
    grids = ["JS QS KH AS 2S 3S", "4H 5H 6H 7H 8H 9H"]
    assert scores(grids) == [10 + 10 + 0 + 1 + 2 + 3, 4 + 5 + 6 + 7 + 8 + 9]
    assert scores(grids, rules=("golf.hard",)) == [11 + 12 + 13 + 1 + 2 + 3, 39]
    assert HARD[cardcore.Card.parse("KD")] == 13


def test_golf_score_3_hard_with_every_layout() -> None:
    assert scores(["QS KH JD 5C", "AH 2H 3H 4H"], rules=("golf.hard",), layout="4") == [
        12 + 13 + 11 + 5,
        10,
    ]
    game = golf(2, FOUR, rules=["golf.hard", "golf.jokers"], options={"layout": "4h", "rounds": 1})
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))
    assert game.result is not None and game.result.scores == (9 + 13, 10.0)  # 5/5 cancel


def test_golf_score_4_jokers_minus_two() -> None:
    assert scores(["JK 9C KD 4S 2D QH", G1], rules=("golf.jokers",)) == [-2 + 9 + 4 + 2 + 10, 34]


def test_golf_deck_4_two_jokers_per_deck() -> None:
    for players, jokers in ((2, 2), (4, 4), (8, 6)):
        game = cardcore.new_game("golf", players, rules=["golf.jokers"], seed=1)
        assert Counter(game.state.zones.all_cards())[JOKER] == jokers
    game = cardcore.new_game("golf", 2, seed=1)
    assert Counter(game.state.zones.all_cards())[JOKER] == 0


def test_golf_score_5_joker_and_bonus_pairs_cancel_to_zero() -> None:
    assert scores(["JK 9C KD JK 2D QH", G1], rules=("golf.jokers",)) == [9 + 2 + 10, 34]
    assert scores(["2S 9C KD 2H 5D QH", G1], rules=("golf.bonus-twos",)) == [9 + 5 + 10, 34]
    assert scores(["JH 9C KD JS 5D QH", G1B], rules=("golf.one-eyed-jacks",)) == [9 + 5 + 10, 34]


def test_golf_score_8_twos_are_bonus_cards() -> None:
    assert scores(["2S 9C KD 4S 5D QH", G1], rules=("golf.bonus-twos",)) == [
        -2 + 9 + 4 + 5 + 10,
        34,
    ]
    assert scores(["2S 9C KD 4S 5D QH", G1]) == [2 + 9 + 4 + 5 + 10, 34]


def test_golf_score_9_one_eyed_jacks() -> None:
    rules = ("golf.one-eyed-jacks",)
    assert scores(["JH 9C KD JD 5D QH", "JS 8D 4C 3D 10H 6S"], rules=rules) == [
        9 + 5 + 10,  # JH over JD pairs by rank: 0
        -2 + 3 + 8 + 10 + 4 + 6,  # JS alone scores -2
    ]
    assert scores(["JC 9C KD 4S 5D QH", G1], rules=rules)[0] == 10 + 9 + 4 + 5 + 10


def _named(grids: list[str], bonus: str, *more: str, layout: Any = 6) -> list[int]:
    deck = stack(grids, "KS" if "KS" not in " ".join(grids) else "QS")
    options = {"layout": layout, "bonus_card": bonus}
    return round_scores(
        golf(len(grids), deck, rules=["golf.bonus-card", *more], options=options), -1
    )


def test_golf_score_10_named_bonus_card() -> None:
    grids = ["QH 9C KD QS 5D 4H", "QD 8D 4C 3D 10H 6S"]
    # a rank: every queen scores -2; QH over QS still pairs by rank (GOLF-SCORE-6)
    assert _named(grids, "Q") == [9 + 5 + 4, -2 + 3 + 8 + 10 + 4 + 6]
    # one card: only QH scores -2; it still pairs with QS, QD keeps its 10
    assert _named(grids, "QH") == [9 + 5 + 4, 10 + 3 + 8 + 10 + 4 + 6]
    assert _named(["QH 9C KD 4S 5D 2H", G1], "QH")[0] == -2 + 9 + 4 + 5 + 2
    # the default names the twos, as golf.bonus-twos does; in HARD the rest keeps HARD's points
    assert _named(["2H 9C KD 4S 5D QH", G1], "2")[0] == -2 + 9 + 4 + 5 + 10
    assert _named(["2H 9C KD 4S 5D QH", G1], "2", "golf.hard")[0] == -2 + 9 + 13 + 4 + 5 + 12
    assert _named(["AH 5C 5D 5S", "AC AD 3C AS"], "5", layout="4h") == [1 - 2, 1 + 3]
    # a bonus pair cancels to 0 (GOLF-SCORE-5)
    assert _named(["5H 9C KD 5S 2D 4H", G1], "5")[0] == 9 + 2 + 4


def test_golf_score_10_options_and_conflicts() -> None:
    with pytest.raises(OptionError, match="GOLF-SCORE-10"):
        cardcore.new_game("golf", 2, rules=["golf.bonus-card"], options={"bonus_card": "JK"})
    with pytest.raises(OptionError):
        cardcore.new_game("golf", 2, options={"bonus_card": "Q"})  # only with the rule
    for other in ("golf.jokers", "golf.bonus-twos", "golf.one-eyed-jacks"):
        with pytest.raises(RuleConflictError):
            cardcore.new_game("golf", 2, rules=["golf.bonus-card", other])
    game = cardcore.new_game("golf", 2, rules=["golf.bonus-card"], seed=1)
    assert game.options["bonus_card"] == "2"
    assert cardcore.replay(game.record()).options["bonus_card"] == "2"


def test_golf4h_var_1_same_value_cancels_across_ranks() -> None:
    rules = ("golf.hand-same-value",)
    assert scores(["10H JC 5S QD", "AC AD AH AS"], layout="4h", rules=rules) == [5 + 10, 0]
    assert scores(["10H JC 5S QD", "AC AD AH AS"], layout="4h") == [35, 0]  # by rank
    assert scores(["10H JC QD KS", "7C 3D 7H 4S"], layout="4h", rules=rules) == [10, 7]
    assert scores(["JH QC JD QS", G1[:11]], layout="4h", rules=rules)[0] == 0
    hard = scores(["JH QC JD QS", G1[:11]], layout="4h", rules=(*rules, "golf.hard"))
    assert hard[0] == 0  # HARD: J 11 and Q 12 differ, the jacks pair and the queens pair
    assert scores(["JH QC 10D QS", G1[:11]], layout="4h", rules=(*rules, "golf.hard"))[0] == 21
    with pytest.raises(OptionError, match="GOLF4H-VAR-1"):
        cardcore.new_game("golf", 2, rules=list(rules), options={"layout": "4"})
    with pytest.raises(RuleConflictError):
        cardcore.new_game("golf", 2, rules=[*rules, "golf.no-cancelling"], options={"layout": "4h"})


def test_golf_pen_2_ender_not_lowest_gets_ten() -> None:
    rules = ("golf.ender-penalty-10",)
    assert scores([G0, G1], rules=rules, ender=1) == [32, 34 + 10]
    assert scores([G0, G1], rules=rules, ender=0) == [32, 34]
    tie = ["7H 9C KD 4S 2D QH", "7C 9D KH 4H 2H QD"]
    assert scores(tie, rules=rules, ender=1) == [32, 32]  # a tie for lowest is not penalised
    game = golf(2, FOUR, rules=list(rules), options={"layout": "4", "rounds": 1})
    peeked(game)
    play(game, (0, "knock"), (1, "draw"), (1, "discard"))
    assert game.result is not None and game.result.scores == (19.0 + 10, 10.0)


def test_golf_pen_3_ender_adds_lowest_not_below_zero() -> None:
    rules = ("golf.ender-penalty-lowest",)
    assert scores([G0, G1], rules=rules, ender=1) == [32, 34 + 32]
    assert scores([G0, G1], rules=rules, ender=0) == [32, 34]
    # seat 0: JK/KH -2, JK/KD -2, KC/KS pair -> -4; a negative lowest adds max(-4, 0) = 0
    negative = ["JK JK KC KH KD KS", G1]
    assert scores(negative, rules=(*rules, "golf.jokers"), ender=1) == [-4, 34]
    assert scores(negative, rules=("golf.ender-penalty-10", "golf.jokers"), ender=1) == [-4, 44]


def test_golf_pen_5_literal_lowest_even_when_negative() -> None:
    rules = ("golf.ender-penalty-lowest-literal",)
    assert scores([G0, G1], rules=rules, ender=1) == [32, 34 + 32]
    assert scores([G0, G1], rules=rules, ender=0) == [32, 34]  # the ender is lowest
    # seat 0 scores -4 (jokers and kings): seat 1, the ender, adds -4 (GOLF-PEN-3 would add 0)
    negative = ["JK JK KC KH KD KS", G1]
    assert scores(negative, rules=(*rules, "golf.jokers"), ender=1) == [-4, 34 - 4]
    tie = ["7H 9C KD 4S 2D QH", "7C 9D KH 4H 2H QD"]
    assert scores(tie, rules=rules, ender=1) == [32, 32]  # GOLF-PEN-4: a tie is not penalised
    for other in ("golf.ender-penalty-10", "golf.ender-penalty-lowest"):
        with pytest.raises(RuleConflictError, match="GOLF-PEN-5"):
            golf(2, rules=[*rules, other])


@pytest.mark.parametrize(
    ("penalty", "paid"),
    [
        ("golf.ender-penalty-10", 10),
        ("golf.ender-penalty-lowest", 32),
        ("golf.ender-penalty-lowest-literal", 32),
    ],
)
def test_golf_pen_6_an_ender_tying_for_lowest_pays(penalty: str, paid: int) -> None:
    tie = ["7H 9C KD 4S 2D QH", "7C 9D KH 4H 2H QD", G1]  # 32, 32, 34
    rules = ("golf.ender-penalty-ties", penalty)
    assert scores(tie, rules=rules, ender=1) == [32, 32 + paid, 34]
    assert scores(tie, rules=(penalty,), ender=1) == [32, 32, 34]  # without it: not penalised
    assert scores(tie, rules=rules, ender=2) == [32, 32, 34 + paid]  # not lowest: as ever
    # the ender alone lowest never pays
    assert scores([G0, G1], rules=rules, ender=0) == [32, 34]
    assert scores(tie, rules=("golf.ender-penalty-ties",), ender=1) == [32, 32, 34]  # no penalty


def test_golf_pen_6_a_negative_tie_under_the_literal_penalty_b() -> None:
    # four players, two decks: seats 0 and 1 score -4 (jokers, kings); the ender, seat 0,
    # ties for lowest and adds -4 (GOLF-PEN-5); with GOLF-PEN-3 it would add max(-4, 0)
    rules = ("golf.ender-penalty-ties", "golf.ender-penalty-lowest-literal", "golf.jokers")
    grids = ["JK JK KC KH KD KS", "JK JK KC KH KD KS", "7H 9C JD 4S 2D QH", G1]
    assert scores(grids, rules=rules, ender=0) == [-8, -4, 42, 34]
    floor = ("golf.ender-penalty-ties", "golf.ender-penalty-lowest", "golf.jokers")
    assert scores(grids, rules=floor, ender=0) == [-4, -4, 42, 34]


def test_golf_pen_4_awards_first_then_penalty() -> None:
    grids = ["8S 8H 3C 8D 8C 4C", "AS 2S 3S AH 2H 4S", "5S 6S 7S 5H 6H 9S"]
    rules = ("golf.ender-penalty-10", "golf.four-of-a-kind-columns")
    assert scores(grids, rules=rules[1:]) == [7, 17, 26]
    # seat 1 ties seat 0 before the award but not after it: penalised
    assert scores(grids, rules=rules, ender=1) == [7, 27, 26]
    assert scores(grids, rules=rules, ender=0) == [7, 17, 26]


def test_golf_pen_1_knocker_is_the_ender() -> None:
    game = golf(2, FOUR, rules=["golf.ender-penalty-10"], options={"layout": "4", "rounds": 2})
    peeked(game)
    play(game, (0, "draw"), (0, "discard"), (1, "knock"), (0, "draw"), (0, "discard"))
    assert game.history(0)[-1]["ender"] == 1
    assert state(game).sheet.rounds[0] == (19, 10)  # the knocker was lowest: no penalty


# --- GOLF6 family house rules ------------------------------------------------------------------------


def test_golf6_setup_3_same_column() -> None:
    game = golf(2, DECK, rules=["golf.reveal-same-column"])
    game.act(0, "flip 1")
    assert [str(a) for a in game.legal_actions(0)] == ["flip 4"]
    with pytest.raises(IllegalActionError, match="GOLF6-SETUP-3"):
        game.act(0, "flip 2")
    game.act(0, "flip 4")
    game9 = golf(2, rules=["golf.reveal-same-column"], options={"layout": 9})
    game9.act(0, "flip 3")
    assert [str(a) for a in game9.legal_actions(0)] == ["flip 0", "flip 6"]


def test_golf6_setup_4_different_columns() -> None:
    game = golf(2, DECK, rules=["golf.reveal-different-columns"])
    game.act(0, "flip 1")
    assert [str(a) for a in game.legal_actions(0)] == ["flip 0", "flip 2", "flip 3", "flip 5"]
    with pytest.raises(IllegalActionError, match="GOLF6-SETUP-4"):
        game.act(0, "flip 4")


def test_golf6_var_1_final_turns_stock_only() -> None:
    game = golf(2, DECK, rules=["golf.final-stock-only"], options={"rounds": 1})
    play(game, *ROUND[:-2])
    assert [str(a) for a in game.legal_actions(1)] == ["draw"]
    with pytest.raises(IllegalActionError, match="GOLF6-VAR-1"):
        game.act(1, "take")
    base = golf(2, DECK, options={"rounds": 1})
    play(base, *ROUND[:-2])
    assert [str(a) for a in base.legal_actions(1)] == ["draw", "take"]


def test_golf6_var_2_pairs_anywhere() -> None:
    grids = ["5S 9C 5H QS 2D QH", G1]
    assert scores(grids) == [5 + 9 + 5 + 10 + 2 + 10, 34]
    assert scores(grids, rules=("golf.pairs-anywhere",)) == [9 + 2, 8 + 10 + 10 + 6]


def test_golf6_var_3_adjacent_four_of_a_kind_columns() -> None:
    grids = ["8S 8H 3C 8D 8C 4C", "AS 2S 3S AH 2H 4S", "5S 6S 7S 5H 6H 9S"]
    assert scores(grids) == [7, 7, 16]
    assert scores(grids, rules=("golf.four-of-a-kind-columns",)) == [7, 17, 26]
    apart = ["8S 3C 8H 8D 4C 8C", "AS 2S 3S AH 2H 4S", "5S 6S 7S 5H 6H 9S"]  # columns 0 and 2
    assert scores(apart, rules=("golf.four-of-a-kind-columns",)) == [7, 7, 16]


def test_golf6_score_2_removed_columns() -> None:
    grids = ["5S 9C KD 5H 2D QH", G1]
    game = golf(2, stack(grids, "5C", "7D KS 9H"), rules=["golf.remove-columns"])
    play(game, (0, "flip 0"), (0, "flip 3"))  # a face-up 5/5 column: removed
    table = game.view(1)["table"]
    assert table["grids"][0][0] == "--" and table["grids"][0][3] == "--"
    st = state(game)
    assert sorted(str(c) for c in st.zones.cards[st.plan.discard][:2]) == ["5H", "5S"]  # bottom
    assert table["discard"] == "5C"
    play(game, (1, "flip 0"), (1, "flip 1"), (0, "draw"))
    assert "replace 0" not in [str(a) for a in game.legal_actions(0)]
    with pytest.raises(IllegalActionError, match="GOLF6-SCORE-2"):  # "cannot be replaced"
        game.act(0, "replace 3")
    # the removed positions count as face up: four replacements complete the layout
    play(game, (0, "replace 1"), (1, "draw"), (1, "discard"))
    play(game, (0, "draw"), (0, "replace 2"), (1, "draw"), (1, "discard"))
    play(game, (0, "draw"), (0, "replace 4"), (1, "draw"), (1, "discard"))
    play(game, (0, "draw"), (0, "replace 5"))
    assert st.ender == 0


def test_golf9_4_removed_triples() -> None:
    g = "5S 5H 5D AS 2S 3S 4S 6S 7S"
    game = golf(
        2,
        stack([g, "AH 2H 3H 4H 6H 7H 8H 9H 10H"], "KS"),
        rules=["golf.remove-triples"],
        options={"layout": 9},
    )
    play(game, (0, "flip 0"), (0, "flip 1"), (0, "flip 2"))
    assert game.view(1)["table"]["grids"][0][:3] == ["--", "--", "--"]
    assert state(game).gone(0) == 3


def test_golf6_end_4_no_final_turns() -> None:
    game = golf(2, DECK, rules=["golf.no-final-turns"], options={"rounds": 2})
    play(game, *ROUND[:-2])  # seat 0 completes its layout: the round ends at once
    st = state(game)
    assert st.round == 2
    assert st.sheet.rounds[0] == (1, 4 + 10 + 10 + 6)  # seat 1 had no final turn


# --- GOLF4 house rules ---------------------------------------------------------------------------


def test_golf4_var_1_diagonal_pairs() -> None:
    grids = ["5S 9H KD 5H", "AC 2C 3C 4C"]
    assert scores(grids, layout="4") == [19, 10]
    assert scores(grids, layout="4", rules=("golf.diagonal-pairs",)) == [9, 10]


def test_golf4_var_2_no_cancelling() -> None:
    grids = ["5S 5H KD 9H", "AC AD AH AS"]
    assert scores(grids, layout="4") == [9, 0]
    assert scores(grids, layout="4", rules=("golf.no-cancelling",)) == [19, 4]
    assert scores(grids, layout="4h", rules=("golf.no-cancelling",)) == [19, 4]


def test_golf4_var_3_knock_final_turns_stock_only() -> None:
    game = golf(2, FOUR, rules=["golf.knock-final-stock-only"], options={"layout": "4"})
    peeked(game)
    game.act(0, "knock")
    assert [str(a) for a in game.legal_actions(1)] == ["draw"]
    with pytest.raises(IllegalActionError, match="GOLF4-VAR-3"):
        game.act(1, "take")


def test_golf4_var_4_peek_nearest_only() -> None:
    game = golf(2, FOUR, rules=["golf.peek-nearest"], options={"layout": "4"})
    assert [str(a) for a in game.legal_actions(0)] == ["peek 2", "peek 3"]
    with pytest.raises(IllegalActionError, match="GOLF4-VAR-4"):
        game.act(0, "peek 0")
    play(game, (0, "peek 2"), (0, "peek 3"))
    assert game.view(0)["table"]["grids"][0] == [None, None, "KD", "5H"]


def test_house_rules_combine_in_one_game() -> None:
    game = cardcore.new_game(
        "golf",
        3,
        rules=["golf.hard", "golf.jokers", "golf.ender-penalty-lowest", "golf.pairs-anywhere",
               "golf.final-stock-only", "golf.reveal-different-columns"],
        options={"rounds": 2},
        seed=4,
    )  # fmt: skip
    setup_flips(game, [(0, 1), (0, 1), (0, 1)])
    assert not game.is_over
    assert len(game.rules) == 6


def test_third_party_score_round_hook_is_honoured() -> None:
    import types
    from collections.abc import Sequence

    from cardcore import GameState, RuleInfo, hookimpl

    module = types.ModuleType("golf_test_plus_one")

    @hookimpl
    def score_round(state: GameState, scores: Sequence[int]) -> list[int]:
        return [s + 1 for s in scores]

    module.score_round = score_round  # type: ignore[attr-defined]
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="GOLF-TEST-1", name="golf.test-plus-one", game="golf", summary="test only"
    )

    cardcore.register("cardcore.rules", "golf.test-plus-one", module)
    try:
        assert scores([G0, G1], rules=("golf.test-plus-one",)) == [33, 35]
        assert scores([G0, G1]) == [32, 34]
    finally:  # leave no trace for other tests
        cardcore.unregister("cardcore.rules", "golf.test-plus-one")
    assert "golf.test-plus-one" not in cardcore.available_rules("golf")


def test_golf9_4_overlapping_row_and_column_removed_together() -> None:
    # Four players: two decks, so 5S appears twice. Row 0 and column 0 share position 0.
    g = "5S 5H 5D 5C 2S 3S 5S 4S 6S"
    others = [
        "AH 2H 3H 4H 6H 7H 8H 9H 10H",
        "AD 2D 3D 4D 6D 7D 8D 9D 10D",
        "AC 2C 3C 4C 6C 7C 8C 9C 10C",
    ]
    game = golf(4, stack([g, *others], "KS"), rules=["golf.remove-triples"], options={"layout": 9})
    st = state(game)
    seen = st.zones.seen[st.plan.grid[0]]
    seen[3] = seen[6] = cardcore.ALL  # privileged: column 0 already face up below position 0
    play(game, (0, "flip 1"), (0, "flip 2"), (0, "flip 0"))
    assert game.view(1)["table"]["grids"][0] == [
        "--",
        "--",
        "--",
        "--",
        None,
        None,
        "--",
        None,
        None,
    ]
    assert st.gone(0) == 5
    assert [str(c) for c in st.layout_of(0)][4:] == ["2S", "3S", "None", "4S", "6S"]
    assert Counter(str(c) for c in st.zones.cards[st.plan.discard][:5]) == Counter(
        ["5S", "5S", "5H", "5D", "5C"]
    )


def test_every_rule_id_has_a_docs_label_and_a_test() -> None:
    spec = (ROOT / "seeds" / "golf.md").read_text()
    page = (ROOT / "docs" / "games" / "golf.rst").read_text()
    ids = re.findall(r"^- \*\*([A-Z0-9]+(?:-[A-Z0-9]+)+)\*\*", spec, re.M)
    assert len(ids) == len(set(ids)) >= 70
    tests = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py"))
    names = re.findall(r"^def (test_\w+)", tests, re.M)
    for rule_id in ids:
        assert f".. _rule-{rule_id.lower()}:" in page, rule_id
        prefix = "test_" + rule_id.lower().replace("-", "_") + "_"
        assert any(n.startswith(prefix) for n in names), rule_id


def test_golf_score_7_engine_picks_the_lowest_cancelling() -> None:
    # JH (TL, -2) pairs with JC (TR) along the row or with JS (BL, -2) along the column;
    # cancelling JH/JC leaves JS at -2, the lowest choice: -2 + 5.
    grids = ["JH JC JS 5D", "AC 2C 3C 4C"]
    assert scores(grids, layout="4", rules=("golf.one-eyed-jacks",)) == [3, 10]
    assert scores(grids, layout="4") == [10 + 5, 10]  # without bonus cards: one jack scores 10
