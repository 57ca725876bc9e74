"""Golf views: declared table fields, past rounds through history, pure reads, first-deal events
(GOLF-VIEW-1, GOLF-ROUND-1)."""

from __future__ import annotations

import pytest
from tests.games.golf.helpers import golf, play, setup_flips, stack

import cardcore
from cardcore import CardRevealed, CardsDealt, Event, IllegalActionError, TurnPassed
from cardcore_golf.rules import GAME

G0 = "7H 9C KD 4S 2D QH"
G1 = "3C 8D JS 3D 10H 6S"
DECK = stack([G0, G1], "5C", "7D KS 9H QS AH 2C")
ROUND = [
    (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3"),
    (0, "draw"), (0, "replace 3"), (1, "take"), (1, "replace 1"),
    (0, "draw"), (0, "replace 2"), (1, "draw"), (1, "discard"),
    (0, "take"), (0, "replace 4"), (1, "draw"), (1, "replace 2"),
    (0, "draw"), (0, "replace 5"), (1, "draw"), (1, "replace 4"),
]  # fmt: skip


@pytest.mark.parametrize("layout", [6, 8, 9, 10, "4", "4h"])
def test_golf_view_1_every_table_key_is_declared(layout: object) -> None:
    game = golf(3, options={"layout": layout})
    declared = [f.name for f in GAME.fields]
    for seat in (0, 1, None):
        assert list(game.view(seat)["table"]) == declared
    schema = game.view_schema()
    assert [f["name"] for f in schema["fields"]] == declared
    assert {f["kind"] for f in schema["fields"]} <= set(cardcore.FIELD_KINDS)
    names = ["stock", "discard", "held", "grid.0", "grid.1", "grid.2"]
    assert [z["name"] for z in schema["zones"]] == names


def test_golf_round_1_past_rounds_come_from_history() -> None:
    game = golf(2, DECK, options={"rounds": 3})
    before = game.view(0)
    play(game, *ROUND)
    after = game.view(0)
    assert set(after["table"]) == set(before["table"])  # the view does not grow with rounds
    assert game.history(0) == game.history(1) == game.history(None)  # revealed: public
    [past] = game.history(0)
    assert past == {
        "round": 1,
        "grids": [["7H", "9C", "KS", "7D", "9H", "AH"], ["3C", "4S", "QS", "3D", "2C", "6S"]],
        "scores": [1, 22],
        "totals": [1, 22],
        "ender": 0,
    }
    assert game.history(0, since=1) == []
    with pytest.raises(IllegalActionError, match="CORE-SEAT-1"):
        game.history(2)


def test_golf_view_1_reads_are_pure() -> None:
    game = golf(2, DECK)
    setup_flips(game, [(0, 1), (0, 1)])
    position = game.position()
    version = game.version
    for seat in (0, 1, None):
        game.view(seat)
    game.legal_actions(0)
    game.legal_actions(1)
    game.history(0)
    assert game.version == version and game.position() == position
    view = game.view(0)
    game.act(0, "draw", seen=view["version"])  # turn-based: seen is accepted and recorded
    with pytest.raises(IllegalActionError, match="CORE-SEAT-1"):
        game.legal_actions(5)


def test_golf_deal_1_subscribers_get_the_first_deal() -> None:
    got: list[Event] = []
    seat1: list[Event] = []
    game = cardcore.new_game(
        "golf",
        2,
        seed=1,
        deck=DECK,
        subscribers=[(Event, got.append), (CardRevealed, seat1.append, 1)],
    )
    kinds = [type(e).__name__ for e in got]
    assert kinds == ["GameStarted", "CardsDealt", "CardRevealed", "TurnPassed"]
    assert got[1] == CardsDealt((6, 6))
    assert got[2] == CardRevealed(None, "discard", 0, cardcore.Card.parse("5C"))  # the upcard
    assert got[3] == TurnPassed(0)
    assert seat1 == [got[2]]
    game.act(0, "flip 0")
    assert got[-1] == CardRevealed(0, "grid.0", 0, cardcore.Card.parse("7H"))


def test_golf_round_1_events_are_records() -> None:
    from cardcore_golf.events import CardPlaced, LayoutsRevealed

    placed = CardPlaced(0, 3, cardcore.Card.parse("7D"), 1)
    assert placed.fields() == {"seat": 0, "pos": 3, "card": placed.card, "visible_to": 1}
    assert placed.for_seat(1).card is None and placed.for_seat(0) is placed
    assert placed.to_json() == {"event": "golf-card-placed", "seat": 0, "pos": 3, "card": "7D"}
    assert CardPlaced(0, 3, None) == CardPlaced(0, 3, None, cardcore.ALL)
    revealed = LayoutsRevealed(1, ((None, cardcore.Card.parse("KS")),), None)
    assert revealed.to_json()["grids"] == [[None, "KS"]]
