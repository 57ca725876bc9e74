"""Rules whose named tests let a broken rule pass (a mutation audit of 2026-12-24).

Each test is named after the rule it guards (seeds/golf.md) and fails when that rule breaks:
the audit broke each rule in turn and ran only the tests named after it.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.games.golf.helpers import golf, round_scores, stack

import cardcore
from cardcore_golf.house.hard_scoring import HARD

# Unpaired cards: no two of one rank, so no layout, row, column or diagonal cancels.
FACES = "JH QH KH AH 2H 3H 4H 5H 6H 7H"
LOW = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C"
SIZES = {6: 6, 8: 8, 9: 9, 10: 10, "4": 4, "4h": 4}


def scores(grids: list[str], *, layout: Any, rules: tuple[str, ...] = ()) -> list[int]:
    """Deal *grids* (stacked) and score them as a round ending now, with no ender."""
    game = golf(len(grids), stack(grids, "QS"), rules=rules, options={"layout": layout})
    return round_scores(game)


@pytest.mark.parametrize("layout", list(SIZES))
def test_golf_score_3_hard_scores_faces_in_every_layout(layout: Any) -> None:
    size = SIZES[layout]
    faces = " ".join(FACES.split()[:size])
    low = " ".join(LOW.split()[:size])
    hard = sum(HARD[cardcore.Card.parse(c)] for c in faces.split())
    assert hard == 11 + 12 + 13 + sum(range(1, size - 2))
    assert scores([faces, low], layout=layout, rules=("golf.hard",)) == [
        hard,
        sum(range(1, size + 1)),
    ]
    # BASIC: J and Q 10, K 0 (GOLF-SCORE-1): the two tables differ by 1 + 2 + 13
    assert scores([faces, low], layout=layout) == [hard - 16, sum(range(1, size + 1))]


def test_golf4_var_1_the_other_diagonal_pairs_too() -> None:
    # 2x2: positions 0 1 / 2 3; the 5s sit on the 1-2 diagonal
    grids = ["9H 5S 5H KD", "AC 2C 3C 4C"]
    assert scores(grids, layout="4") == [19, 10]
    assert scores(grids, layout="4", rules=("golf.diagonal-pairs",)) == [9, 10]


def test_golf6_score_1_a_king_column_cancels_under_hard_scoring() -> None:
    # column 0 is KH over KS: 0 under HARD too, where a king counts 13
    grids = ["KH 9C 4D KS 5D 2H", "AC 2C 3C 4C 5C 6C"]
    assert scores(grids, layout=6, rules=("golf.hard",)) == [9 + 4 + 5 + 2, 21]
    unpaired = ["KH 9C 4D 8S 5D 2H", "AC 2C 3C 4C 5C 6C"]  # the same, the king unpaired
    assert scores(unpaired, layout=6, rules=("golf.hard",)) == [13 + 9 + 4 + 8 + 5 + 2, 21]


# -- a second pass (the other rule IDs) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("layout", "grids", "stock", "flips"),
    [
        (6, ["9S 9C 5D 7C 2D 5H", "AH 2H 3H 4H 6H 7H"], "7D KS 9H", (2, 5)),
        (8, ["9S 9C 3S 5D 7C 2D 4C 5H", "AH 2H 3H 4H 6H 7H 8H 9H"], "7D KS 10H", (3, 7)),
    ],
)
def test_golf6_score_2_the_last_column_is_removed_too(
    layout: int, grids: list[str], stock: str, flips: tuple[int, int]
) -> None:
    # the last column holds 5D over 5H: once both are face up it leaves the table
    game = golf(
        2, stack(grids, "5C", stock), rules=["golf.remove-columns"], options={"layout": layout}
    )
    for pos in flips:
        game.act(0, f"flip {pos}")
    shown = game.view(1)["table"]["grids"][0]
    assert [shown[p] for p in flips] == ["--", "--"]
    assert [p for p, card in enumerate(shown) if card is not None] == list(flips)


def test_golf_deal_2_the_upcard_is_face_up_to_everyone() -> None:
    game = golf(2, stack(["9S 9C 5D 7C 2D 5H", "AH 2H 3H 4H 6H 7H"], "5C"))
    assert "| discard: 5C! |" in game.position()  # "!": known to all, not only shown on top
    for seat in (0, 1, None):
        assert game.view(seat)["table"]["discard"] == "5C"
