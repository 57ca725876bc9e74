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


# -- a third pass ----------------------------------------------------------------------------------

G0 = "7H 9C KD 4S 2D QH"
G1 = "3C 8D JS 3D 10H 6S"


def test_golf_turn_1_take_takes_the_top_of_a_longer_discard_pile() -> None:
    from tests.games.golf.helpers import play, setup_flips, state

    game = golf(2, stack([G0, G1], "5C", "7D KS 9H QS AH 2C"))
    setup_flips(game, [(0, 1), (1, 4)])
    play(game, (0, "draw"), (0, "discard"))  # 7D goes onto the upcard 5C
    game.act(1, "take")
    st = state(game)
    assert st.zones.cards[st.plan.held[0]] == [cardcore.Card.parse("7D")]  # the top discard
    assert game.view(1)["table"]["held"] == {"seat": 1, "card": "7D"}
    assert game.view(1)["table"]["discard"] == "5C"


@pytest.mark.parametrize("layout", list(SIZES))
def test_golf_turn_1_draw_or_take_in_every_layout(layout: Any) -> None:
    game = golf(2, options={"layout": layout})
    while game.view(game.to_act[0])["table"]["phase"] == "setup":
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    seat = game.to_act[0]
    assert [str(a) for a in game.legal_actions(seat)][:2] == ["draw", "take"]
    game.act(seat, "take")
    assert game.view(seat)["table"]["phase"] == "place"


def test_golf4_score_4_a_pair_made_in_play_stays_face_down() -> None:
    from tests.games.golf.helpers import play

    game = golf(2, stack(["5S 9H KD 2C", "AC 2D 3C 4C"], "8D", "KS QS"), options={"layout": "4"})
    play(game, (0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1"))
    play(game, (0, "draw"), (0, "replace 3"))  # KS now pairs with KD (bottom row): not shown
    assert game.view(1)["table"]["grids"][0] == [None] * 4
    assert game.view(None)["table"]["grids"][0] == [None] * 4
    assert game.view(0)["table"]["grids"][0] == ["5S", "9H", None, "KS"]


def test_golf_view_1_the_owner_sees_no_face_down_card_after_a_removal() -> None:
    from tests.games.golf.helpers import setup_flips

    deck = stack(["7H 9C KD 7S 2D QH", G1], "5C", "7D KS 9H QS AH 2C")
    game = golf(2, deck, rules=["golf.remove-columns"])
    setup_flips(game, [(0, 3), (1, 4)])  # seat 0's column 0 (7H/7S) is removed
    for seat in (0, 1, None):
        assert game.view(seat)["table"]["grids"][0] == ["--", None, None, "--", None, None]


def test_golf_note_1_no_other_word_is_read() -> None:
    from cardcore import NotationError

    game = golf(2, options={"layout": "4"})
    for text in ("look 0", "swap 1", "turn 0", "pick", "pass"):
        with pytest.raises(NotationError, match="GOLF-NOTE-1"):
            game.act(0, text)
    assert game.version == 0


def test_golf_round_1_the_last_round_ends_with_every_card_face_up() -> None:
    from tests.games.golf.helpers import play
    from tests.games.golf.test_rules import DECK as WORKED
    from tests.games.golf.test_rules import ROUND

    game = golf(2, WORKED, options={"rounds": 1})
    play(game, *ROUND)  # seat 1's 6S (position 5) is never turned up during play
    assert game.is_over
    for seat in (0, 1, None):
        assert game.view(seat)["table"]["grids"] == [
            ["7H", "9C", "KS", "7D", "9H", "AH"],
            ["3C", "4S", "QS", "3D", "2C", "6S"],
        ]
