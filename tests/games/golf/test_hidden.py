"""Hidden information in Golf: views, events and determinization (GOLF-VIEW-1, GOLF4-TURN-3)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from tests.games.golf.helpers import golf, play, setup_flips, stack, state

import cardcore
from cardcore import CardDrawn, CardRevealed, Event
from cardcore_golf.actions import Draw, Peek, Replace, Take

G0 = "7H 9C KD 4S 2D QH"
G1 = "3C 8D JS 3D 10H 6S"
DECK = stack([G0, G1], "5C", "7D KS 9H QS AH 2C")


def test_golf_view_1_what_each_seat_sees() -> None:
    game = golf(2, DECK)
    setup_flips(game, [(0, 1), (0, 1)])
    for seat in (0, 1, None):
        assert game.view(seat)["table"]["grids"] == [
            ["7H", "9C", None, None, None, None],
            ["3C", "8D", None, None, None, None],
        ]
    game.act(0, "draw")
    assert game.view(0)["table"]["held"] == {"seat": 0, "card": "7D"}
    assert game.view(1)["table"]["held"] == {"seat": 0, "card": None}
    assert game.view(None)["table"]["held"] == {"seat": 0, "card": None}
    assert "7D" not in str(game.view(1)) and "7D" not in str(game.view(None))
    game.act(0, "discard")
    game.act(1, "take")  # a taken discard is public
    assert game.view(0)["table"]["held"] == {"seat": 1, "card": "7D"}
    table = game.view(None)["table"]
    assert table["stock"] == 52 - 12 - 2 and table["discard"] == "5C"


def test_golf_view_1_events_redacted_per_seat() -> None:
    game = golf(2, DECK)
    setup_flips(game, [(0, 1), (0, 1)])
    seen: dict[object, list[Event]] = {0: [], 1: [], "spectator": []}
    for who in seen:
        game.events.subscribe(CardDrawn, seen[who].append, seat=who)  # type: ignore[arg-type]
    game.act(0, "draw")
    assert [e.card for e in seen[0]] == [cardcore.Card.parse("7D")]  # type: ignore[attr-defined]
    assert [e.card for e in seen[1]] == [None]  # type: ignore[attr-defined]
    assert [e.card for e in seen["spectator"]] == [None]  # type: ignore[attr-defined]


def test_golf4_turn_3_peek_events_private() -> None:
    game = golf(2, stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D"), options={"layout": "4"})
    got: list[Event] = []
    game.events.subscribe(CardRevealed, got.append, seat=1)
    game.act(0, "peek 0")
    assert [e.card for e in got] == [None]  # type: ignore[attr-defined]


def test_golf_view_1_determinize_keeps_what_seat_knows() -> None:
    game = golf(2, DECK)
    setup_flips(game, [(0, 1), (0, 1)])
    game.act(0, "draw")
    clone = game.determinize(0, seed=5)
    assert clone.view(0)["table"] == game.view(0)["table"]
    hidden_before = [state(game).card_at(1, p) for p in range(2, 6)]
    moved = [
        [state(clone.determinize(0, seed=s)).card_at(1, p) for p in range(2, 6)] for s in range(6)
    ]
    assert any(m != hidden_before for m in moved)


# --- an independent model of what each seat may know (GOLF4) ---------------------------------------


def knowledge_model_run(seed: int, layout: str, players: int) -> None:
    """Play a random round while tracking, from the actions alone, what each seat knows.

    After every action each seat's view of every layout must equal the model exactly:
    a card where the seat peeked, placed, or saw a public discard land; ``None`` elsewhere.
    """
    game = cardcore.new_game("golf", players, seed=seed, options={"layout": layout, "rounds": 1})
    rng = random.Random(seed)
    size = 4
    hand = layout == "4h"
    # known[s][owner][pos] = card text seat s knows there, or None
    known: list[list[list[str | None]]] = [
        [[None] * size for _ in range(players)] for _ in range(players)
    ]
    if hand:
        for s in range(players):
            known[s][s] = [str(state(game).card_at(s, p)) for p in range(size)]
    held: tuple[int, str, bool] | None = None
    while not game.is_over:
        seat = game.to_act[0]
        action = rng.choice(game.legal_actions(seat))
        if isinstance(action, Peek):
            known[seat][seat][action.pos] = str(state(game).card_at(seat, action.pos))
        game.apply(action)
        if game.is_over:
            break
        if isinstance(action, Draw | Take):
            card = game.view(seat)["table"]["held"]["card"]
            held = (seat, card, isinstance(action, Take))
        if isinstance(action, Replace):
            assert held is not None
            _, card, public = held
            for s in range(players):
                if public or s == seat or (hand and s == seat):
                    known[s][seat][action.pos] = card
                else:
                    known[s][seat][action.pos] = None
            held = None
        for s in range(players):
            assert game.view(s)["table"]["grids"] == known[s], (s, str(action))
        spectator = game.view(None)["table"]["grids"]
        for owner in range(players):
            for pos in range(size):
                if spectator[owner][pos] is not None:
                    assert all(
                        known[s][owner][pos] == spectator[owner][pos] for s in range(players)
                    )


@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), layout=st.sampled_from(["4", "4h"]))
def test_golf4_turn_3_views_match_an_independent_knowledge_model(
    seed: int, players: int, layout: str
) -> None:
    knowledge_model_run(seed, layout, players)


def test_golf4h_1_model_smoke() -> None:
    knowledge_model_run(3, "4h", 3)
    knowledge_model_run(3, "4", 3)


def test_golf_view_1_spectator_never_sees_face_down() -> None:
    game = golf(2, DECK, options={"rounds": 1})
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3"))
    play(game, (0, "draw"))
    table = game.view(None)["table"]
    assert table["held"]["card"] is None
    assert table["grids"][0][2:] == [None] * 4


ROUND = [
    (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3"),
    (0, "draw"), (0, "replace 3"), (1, "take"), (1, "replace 1"),
    (0, "draw"), (0, "replace 2"), (1, "draw"), (1, "discard"),
    (0, "take"), (0, "replace 4"), (1, "draw"), (1, "replace 2"),
    (0, "draw"), (0, "replace 5"), (1, "draw"), (1, "replace 4"),
]  # fmt: skip


def test_golf_round_1_events_of_a_round() -> None:
    from cardcore import RoundScored
    from cardcore_golf.events import CardPlaced, LayoutCompleted, LayoutsRevealed

    game = golf(2, DECK, options={"rounds": 2})
    public: list[Event] = []
    game.events.subscribe(Event, public.append, seat="spectator")
    play(game, *ROUND)
    kinds = [type(e) for e in public]
    assert kinds.count(LayoutCompleted) == 1
    revealed = [e for e in public if isinstance(e, LayoutsRevealed)]
    assert len(revealed) == 1 and revealed[0].ender == 0
    assert [[str(c) for c in row] for row in revealed[0].grids][1] == [
        "3C",
        "4S",
        "QS",
        "3D",
        "2C",
        "6S",
    ]
    scored = [e for e in public if isinstance(e, RoundScored)]
    assert scored[0].scores == (1, 22)
    drawn = [e for e in public if isinstance(e, CardDrawn)]
    assert [e.source for e in drawn] == ["stock", "discard", "stock", "stock", "discard"] + [
        "stock"
    ] * 3
    assert all(e.card is None for e in drawn if e.source == "stock")  # spectators never see them
    placed = [e for e in public if isinstance(e, CardPlaced)]
    assert [str(e.card) for e in placed][:2] == ["7D", "4S"]  # GOLF6 places face up


def test_golf4_turn_2_placed_card_event_private() -> None:
    from cardcore_golf.events import CardPlaced

    game = golf(2, stack(["5S 9H KD 5H", "AC 2C 3C 4C"], "8D", "QS"), options={"layout": "4"})
    mine: list[Event] = []
    theirs: list[Event] = []
    game.events.subscribe(CardPlaced, mine.append, seat=0)
    game.events.subscribe(CardPlaced, theirs.append, seat=1)
    play(game, (0, "peek 0"), (0, "peek 1"), (1, "peek 0"), (1, "peek 1"), (0, "draw"))
    game.act(0, "replace 2")
    assert [str(e.card) for e in mine] == ["QS"]  # type: ignore[attr-defined]
    assert [e.card for e in theirs] == [None]  # type: ignore[attr-defined]
