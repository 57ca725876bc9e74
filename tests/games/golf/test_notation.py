"""Golf action notation (GOLF-NOTE-1): str(action) round-trips; malformed text is rejected."""

from __future__ import annotations

import random

import pytest
from tests.games.golf.helpers import golf

import cardcore
from cardcore import IllegalActionError, NotationError
from cardcore.notation import DIGITS
from cardcore_golf.actions import Discard, Draw, Flip, Knock, Peek, Replace, Take


def test_golf_note_1_str_round_trips_for_every_legal_action() -> None:
    for layout in (6, 8, 9, 10, "4", "4h"):
        game = cardcore.new_game("golf", 3, seed=2, options={"layout": layout, "rounds": 1})
        rng = random.Random(2)
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            for action in legal:
                parsed = game.logic.parse_action(game.state, seat, str(action))
                assert parsed == action and parsed is action  # interned
            game.act(seat, str(rng.choice(legal)))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("draw", Draw(0)), ("d", Draw(0)), ("take", Take(0)), ("T", Take(0)),
        ("discard", Discard(0)), ("x", Discard(0)), ("knock", Knock(0)), ("k", Knock(0)),
        ("replace 3", Replace(0, 3)), ("r 3", Replace(0, 3)), ("  REPLACE   3 ", Replace(0, 3)),
        ("flip 2", Flip(0, 2)), ("f 2", Flip(0, 2)), ("peek 0", Peek(0, 0)), ("p 1", Peek(0, 1)),
    ],
)  # fmt: skip
def test_golf_note_1_words_and_short_forms(text: str, expected: object) -> None:
    game = golf(2)
    assert game.logic.parse_action(game.state, 0, text) == expected


def test_golf_note_1_str_forms() -> None:
    assert [str(a) for a in (Draw(1), Take(1), Discard(1), Knock(1))] == [
        "draw", "take", "discard", "knock",
    ]  # fmt: skip
    assert [str(a) for a in (Replace(1, 4), Flip(1, 0), Peek(1, 3))] == [
        "replace 4", "flip 0", "peek 3",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    ["", "   ", "fly 2", "replace", "replace x", "replace -1", "replace 1 2", "draw 2", "r",
     "flip", "peek two", "knock now", "10H", "draw draw"],
)  # fmt: skip
def test_golf_note_1_malformed_text_raises_notation_error(text: str) -> None:
    game = golf(2)
    before = game.view(None)
    with pytest.raises(NotationError):
        game.act(0, text)
    assert game.view(None) == before and game.version == 0


@pytest.mark.parametrize("text", ["flip ²", "replace ⑤", "replace ٣", "r 3\u0663", "peek ０"])
def test_golf_note_1_non_ascii_digits_are_notation_errors(text: str) -> None:
    # regression: str.isdigit() accepted these and int() then raised a raw ValueError
    game = golf(2)
    with pytest.raises(NotationError, match="CORE-NOTATION-1"):  # (ASCII first, since 0.4)
        game.act(0, text)
    assert game.version == 0
    with pytest.raises(NotationError, match="GOLF-NOTE-1"):  # the game's own reader, asked
        game.logic.parse_action(game.state, 0, text)


def test_golf_note_1_well_formed_but_illegal_is_an_illegal_action() -> None:
    game = golf(2)
    with pytest.raises(IllegalActionError, match=r"\(GOLF-DEAL-4\)"):
        game.act(0, "draw")  # still in the setup phase
    with pytest.raises(IllegalActionError, match="GOLF-TURN-4"):
        game.act(0, "flip 6")
    with pytest.raises(IllegalActionError, match="GOLF6-KNOCK-1"):
        game.act(0, "knock")
    assert game.version == 0


def test_golf_turn_4_positions_beyond_the_layout_are_not_interned() -> None:
    from cardcore_golf.actions import _INTERNED

    game = golf(2)
    size = len(_INTERNED)
    for text in ("flip 6", "replace 99999", "peek 123456"):
        with pytest.raises(IllegalActionError, match="GOLF-TURN-4"):
            game.act(0, text)
    assert len(_INTERNED) == size and game.version == 0


def test_golf_note_1_resign_and_end_are_core_words() -> None:
    game = golf(2)
    game.act(1, "resign")
    assert game.result is not None and game.result.winners == (0,)
    game = golf(2)
    game.act(cardcore.HOST, "end")
    assert game.result is not None and game.result.reason == "ended"


def test_golf_note_1_actions_are_interned_values() -> None:
    import copy
    import pickle

    import attrs

    a = Replace(1, 3)
    assert a is Replace(1, 3) is Replace(seat=1, pos=3)
    assert a == Replace(1, 3) and a != Replace(1, 4) and a != Flip(1, 3) and Draw(0) != Draw(1)
    assert pickle.loads(pickle.dumps(a)) is a and copy.deepcopy(a) is a
    assert attrs.evolve(a, pos=4) is Replace(1, 4) and a.pos == 3
    assert len({Replace(1, 3), Replace(1, 3), Replace(1, 4)}) == 2
    game = golf(2)
    assert Flip(0, 2) in game.legal_actions(0)
    game.apply(Flip(0, 2))  # a freshly written action is the interned one
    assert game.version == 1


def test_golf_note_1_an_action_of_equal_but_not_int_values_is_refused_and_changes_nothing() -> None:
    import attrs

    flip = Flip(0, 1)
    draw = Draw(1)
    for build in (
        lambda: Flip(0, True),
        lambda: Flip(0, 1.0),
        lambda: Draw(True),
        lambda: attrs.evolve(flip, pos=True),
    ):
        with pytest.raises(cardcore.ArgumentError, match="takes ints"):
            build()
    assert type(flip.pos) is int and type(draw.seat) is int  # the shared actions are untouched
    game = golf(2)
    game.act(0, "flip 1")
    assert game.record()["actions"][0][1] == "flip 1"
    assert cardcore.replay(game.record()).version == 1


@pytest.mark.parametrize("text", ["flip 1234567890123456", "r 99999999999999999999999"])
def test_golf_note_1_an_overlong_position_says_how_many_digits_are_read(text: str) -> None:
    # the core reads at most DIGITS digits: the reason is the length, not "ASCII digits"
    game = golf(2)
    with pytest.raises(NotationError, match=f"of at most {DIGITS} digits") as info:
        game.act(0, text)
    assert "ASCII" not in str(info.value)
    assert game.version == 0
