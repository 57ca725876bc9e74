"""Positions: the generic codec (:mod:`cardcore.positions`) and games started from a position."""

from __future__ import annotations

import pytest

import cardcore
from cardcore import (
    ALL,
    CardcoreError,
    Layout,
    OptionError,
    Visibility,
    Zones,
    ZoneSpec,
    parse_cards,
)
from cardcore.positions import MAX_POSITION, read_position, write_position

LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("discard", None, Visibility.EVERYONE),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
    ]
)
DECK = parse_cards("2S 3S 4S 5S 6S")


def _zones() -> Zones:
    z = Zones(LAYOUT)
    for card, mask in zip(DECK[:3], (0, 1 << 1, (1 << 0) | (1 << 2)), strict=True):
        z.cards[0].append(card)
        z.seen[0].append(mask)
    z.put(1, DECK[3])
    z.put(2, DECK[4])
    return z


def test_codec_round_trip_with_fields_and_knowledge() -> None:
    fields = {"turn": 1, "phase": "draw", "note": "a b|c", "scores": [[1, -2]], "flag": None}
    text = write_position("toy", fields, _zones())
    assert text.startswith('toy turn=1 phase="draw"') and "stock: 2S 3S@1 4S@0.2" in text
    assert "discard: 5S!" in text and "hand.0: 6S@0" in text
    got, zones = read_position(text, "toy", LAYOUT, DECK, 3)
    assert got == fields
    assert zones.cards == _zones().cards and zones.seen == _zones().seen
    assert zones.seen[1] == [ALL]


def test_codec_empty_piles_and_order() -> None:
    z = Zones(LAYOUT)
    z.cards[0] = list(DECK)
    z.seen[0] = [0] * 5
    text = write_position("toy", {}, z)
    assert text == "toy | stock: 2S 3S 4S 5S 6S | discard: | hand.0:"
    assert read_position(text, "toy", LAYOUT, DECK, 1)[1].cards == z.cards


@pytest.mark.parametrize(
    "text, match",
    [
        (
            "golf | stock: 2S 3S 4S 5S 6S | discard: | hand.0:",
            "must start with the game's name 'toy'",
        ),
        ("", "must start with the game's name"),
        ("toy turn | stock: 2S 3S 4S 5S 6S | discard: | hand.0:", "'turn' is not a field"),
        (
            "toy a=1 a=2 | stock: 2S 3S 4S 5S 6S | discard: | hand.0:",
            "'a=1' is not a field|'a=2' is not a field",
        ),
        ("toy 1a=1 | stock: 2S 3S 4S 5S 6S | discard: | hand.0:", "is not a field"),
        (
            "toy a={x | stock: 2S 3S 4S 5S 6S | discard: | hand.0:",
            "field 'a' has a value that is not compact JSON",
        ),
        ("toy | stock: 2S 3S 4S 5S 6S | discard: | hand.0: | grid: ", "unknown pile 'grid'"),
        ("toy | stock: 2S 3S 4S | discard: 5S 6S | stock:", "pile 'stock' appears twice"),
        ("toy | stock: 2S 3S 4S 5S 6S | discard:", "piles missing: hand.0"),
        (
            "toy | stock: 2S 3S 4S 5S 6S@7 | discard: | hand.0:",
            "'7' is not a seat of a 2-player game",
        ),
        ("toy | stock: 2S 3S 4S 5S 6S@x | discard: | hand.0:", "'x' is not a seat"),
        ("toy | stock: 2S 3S 4S 5S 6Z | discard: | hand.0:", "'6Z' is not a card"),
        ("toy | stock: 2S 3S 4S 5S | discard: | hand.0:", r"missing \['6S'\], extra \[\]"),
        ("toy | stock: 2S 3S 4S 5S 6S 6S | discard: | hand.0:", r"missing \[\], extra \['6S'\]"),
        ("toy | stock: 2S 3S 4S 5S KH | discard: | hand.0:", r"missing \['6S'\], extra \['KH'\]"),
    ],
)
def test_codec_validation_errors_name_the_problem(text: str, match: str) -> None:
    with pytest.raises(OptionError, match=match) as info:
        read_position(text, "toy", LAYOUT, DECK, 2)
    assert str(info.value).startswith("bad position: ")


def test_codec_refuses_huge_or_non_text() -> None:
    with pytest.raises(OptionError, match="at most"):
        read_position("toy " + "x" * MAX_POSITION, "toy", LAYOUT, DECK, 2)
    with pytest.raises(OptionError):
        read_position(42, "toy", LAYOUT, DECK, 2)  # type: ignore[arg-type]


def _mid_game(seed: int, steps: int, **kwargs: object) -> cardcore.Game:
    game = cardcore.new_game("drawgame", 3, seed=seed, **kwargs)  # type: ignore[arg-type]
    agents = [cardcore.RandomAgent(s) for s in range(3)]
    while game.version < steps and not game.is_over:
        seat = game.to_act[0]
        game.apply(agents[seat].choose({}, game.legal_actions(seat)))
    return game


def _same_table(a: cardcore.Game, b: cardcore.Game) -> None:
    for seat in (0, 1, 2, None):
        va, vb = a.view(seat), b.view(seat)
        va.pop("version")
        vb.pop("version")
        assert va == vb
        if seat is not None:
            assert a.legal_actions(seat) == b.legal_actions(seat)


@pytest.mark.parametrize("steps", [0, 1, 37, 120])
def test_core_position_1_reproduces_a_mid_game_position(steps: int) -> None:
    game = _mid_game(4, steps, options={"rounds": 2})
    text = game.position()
    again = cardcore.new_game("drawgame", 3, options={"rounds": 2}, position=text, seed=99)
    _same_table(game, again)
    assert again.position() == text and again.version == 0
    assert again.record()["position"] == text
    replayed = cardcore.replay(again.record())  # a record of a game started from a position
    _same_table(again, replayed)


def test_position_then_the_game_goes_on_with_its_own_chance() -> None:
    game = _mid_game(4, 150, options={"rounds": 2})
    text = game.position()
    a = cardcore.new_game("drawgame", 3, options={"rounds": 2}, position=text, seed=1)
    b = cardcore.new_game("drawgame", 3, options={"rounds": 2}, position=text, seed=1)
    agents = [cardcore.RandomAgent(s) for s in range(3)]
    cardcore.play(a, agents)
    agents = [cardcore.RandomAgent(s) for s in range(3)]
    cardcore.play(b, agents)
    assert a.result == b.result and a.state.snapshot() == b.state.snapshot()
    assert [h["round"] for h in a.history(0)] == [1, 2]


def test_core_position_1_validation_of_the_game() -> None:
    text = _mid_game(4, 10).position()  # seat 2 to draw, in round 1 of 1
    assert text.startswith('drawgame to_act=[2] phase="draw" round=1 totals=[0,0,0] past=[] | ')
    cases = {
        text.replace("to_act=[2]", "to_act=[7]", 1): "to_act must hold distinct seats",
        text.replace("to_act=[2]", "to_act=[]", 1): "nobody is to act",
        text.replace("to_act=[2]", "to_act=[1,2]", 1): "one seat acts at a time",
        text.replace('phase="draw"', 'phase="nap"', 1): "no phase 'nap'",
        text.replace("round=1", "round=2", 1): "no round 2",
        text.replace("totals=[0,0,0]", "totals=[0,0]", 1): "field 'totals' must be a list of 3",
        text.replace("totals=[0,0,0]", "totals=[0,5,0]", 1): "are not the sums",
        text.replace("round=1", "rund=1", 1): "unknown fields",
    }
    for bad, match in cases.items():
        with pytest.raises(OptionError, match=match):
            cardcore.new_game("drawgame", 3, position=bad, seed=1)
    drew = _mid_game(4, 11).position()  # seat 2 drew: it holds 4 cards
    with pytest.raises(OptionError, match=r"hands must hold \[3, 4, 3\] cards, not \[3, 3, 4\]"):
        cardcore.new_game("drawgame", 3, position=drew.replace("to_act=[2]", "to_act=[1]"), seed=1)
    two = _mid_game(4, 10, options={"rounds": 2}).position()
    with pytest.raises(OptionError, match="round 2 needs the scores of the rounds before"):
        cardcore.new_game(
            "drawgame", 3, options={"rounds": 2}, position=two.replace("round=1", "round=2"), seed=1
        )
    hand = text.split("hand.2:")[1].split()[0]
    moved = text.replace(f" {hand}", "", 1).replace("discard:", f"discard: {hand}", 1)
    with pytest.raises(OptionError, match=r"hands must hold \[3, 3, 3\] cards, not \[3, 3, 2\]"):
        cardcore.new_game("drawgame", 3, position=moved, seed=1)
    with pytest.raises(OptionError, match="every card must be placed exactly once"):
        cardcore.new_game("drawgame", 3, position=text.replace(f" {hand}", "", 1), seed=1)
    with pytest.raises(OptionError, match="deck= or position="):
        cardcore.new_game("drawgame", 3, position=text, deck="2S", seed=1)
    with pytest.raises(OptionError, match="position must be text"):
        cardcore.new_game("drawgame", 3, position=["x"], seed=1)  # type: ignore[arg-type]


def test_a_game_without_position_notation_says_so() -> None:
    race = cardcore.new_game("racegame", 2, seed=1)
    with pytest.raises(CardcoreError, match="racegame has no position notation"):
        race.position()
    with pytest.raises(OptionError, match="cannot start from a position"):
        cardcore.new_game("racegame", 2, position="racegame", seed=1)


@pytest.mark.parametrize(("name", "field"), [("tonk", "balances"), ("golf", "totals")])
def test_a_number_beyond_10_to_the_15_in_a_position_field_is_refused(name: str, field: str) -> None:
    text = cardcore.new_game(name, 2, seed=3).position()
    start = text.index(f"{field}=[") + len(field) + 2
    huge = text[:start] + str(10**400) + text[text.index(",", start) :]
    with pytest.raises(cardcore.OptionError, match="10\\*\\*15"):
        cardcore.new_game(name, 2, position=huge, seed=1)
    nan = text[:start] + "NaN" + text[text.index(",", start) :]
    with pytest.raises(cardcore.OptionError, match="not compact JSON"):
        cardcore.new_game(name, 2, position=nan, seed=1)
