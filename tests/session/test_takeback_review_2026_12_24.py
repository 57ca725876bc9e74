"""Review of 5256867: ``takeback.learned`` counts a card several events name once, and counts
a :class:`~cardcore.CardRevealed` card turned up where a seat did not know it as learned
though the seat knows another copy elsewhere (two decks).

The rule (docs/session.rst, "Takebacks"): a takeback is allowed only while no seat (nor a
spectator) has learned anything from the action. Claims that hold pass; each bug found is a
strict xfail asserting the right behaviour, its reason saying what and where. Every game is
dealt from a fixed seed or a stacked deck.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs
import pytest

import cardcore
from cardcore import CardRevealed, Event, GameInfo, hookimpl
from cardcore.game import Game
from cardcore.session.takeback import known_cards, learned, probe
from tests.plugins import canasta_2026_12_19 as canasta
from tests.plugins import spite_2026_12_16 as spite
from tests.session.kit import Table, table
from tests.test_review_2026_12_19 import TAKEBACK_PLAY, _stack, _takeback_reply
from tests.test_review_2026_12_19_late import SPITE_PLAY

STOCK, DISCARD, HELD = 0, 1, 2  # Golf's piles (cardcore_golf.state)

# ---------------------------------------------------------------- 1. Golf: a draw after a reshuffle


def _golf_at_an_empty_stock() -> Table:
    """Golf seed 11, two seats: four flips, then draw-and-discard until the stock is empty
    (39 turns); seat 1 ('b') is to draw, which reshuffles the discards (GOLF-STOCK-1)."""
    t = table("golf")
    for conn, flip in [("a", 0), ("a", 1), ("b", 0), ("b", 1)]:
        t.act(conn, f"flip {flip}", 1.0)
    game = t.session.game
    while game is not None and game.state.zones.count(STOCK):
        conn = "ab"[game.to_act[0]]
        assert not t.errors(t.act(conn, "draw", 1.0))
        assert not t.errors(t.act(conn, "discard", 1.0))
        game = t.session.game
    return t


def test_golf_a_draw_from_an_empty_stock_reshuffles_cards_every_seat_knew() -> None:
    """The facts the next test stands on: the stock is empty, seat 1's draw reshuffles the
    discards (every one of them known to all), and the card it draws is one of them, known
    to seat 1 by its code before the action, unknown by its place after it."""
    t = _golf_at_an_empty_stock()
    game = t.session.game
    assert game is not None and game.to_act == (1,) and not game.is_over
    assert game.state.zones.count(STOCK) == 0 and game.state.zones.count(DISCARD) == 40
    after, events = probe(game, 1, "draw", None)
    assert [e.slug for e in events] == ["action-applied", "shuffled", "card-drawn"]
    drawn = str(after.state.zones.cards[HELD][-1])
    assert known_cards(game, 1)[drawn] >= 1  # it lay in the discard pile, seen by all
    assert after.state.zones.seen[STOCK] == [0] * 38  # nobody knows the reshuffled stock
    assert known_cards(after, 1)[drawn] <= known_cards(game, 1)[drawn]
    again, _ = probe(game, 1, "draw", None)  # the same game, the same seed: the same card
    assert str(again.state.zones.cards[HELD][-1]) == drawn


def test_golf_a_draw_from_a_reshuffled_stock_is_final() -> None:
    t = _golf_at_an_empty_stock()
    game = t.session.game
    assert game is not None
    assert not t.errors(t.act("b", "draw", 1.0))
    replies = t.send("b", {"type": "takeback", "op": "request"}, 1.0)
    assert t.errors(replies) == ["takeback-refused"]


# ---------------------------------------------------------------- 2. a card shown on a stock


class StockPeeked(CardRevealed):
    """A game's own kind of reveal (a :class:`CardRevealed`, under its own slug)."""

    slug: ClassVar[str] = "stock-peeked"


def _peek_logic(kind: str) -> type:
    class _Logic(canasta.CanastaLogic):  # type: ignore[misc]
        """Canasta that, after every discard, shows the stock's top card (a "burn" rule)."""

        def apply(self, state: Any, action: Any, emit: Any) -> None:
            super().apply(state, action, emit)
            zones = state.zones
            stock = zones.cards[canasta.STOCK]
            if emit is None or not isinstance(action, canasta.Discard) or not stock:
                return
            top = len(stock) - 1
            if kind == "tuck":  # shown, then tucked face down under the stock: its place now
                card, _ = zones.pop(canasta.STOCK)
                zones.insert_bottom(canasta.STOCK, card, 0)
                emit(CardRevealed(None, "stock", 0, card))
            elif kind == "minus-one":  # the top as Zones.reveal names it
                emit(CardRevealed(None, "stock", -1, stock[-1]))
            elif kind == "subclass":
                emit(StockPeeked(None, "stock", top, stock[-1]))
            elif kind == "own-name":  # the game's own name for the pile
                emit(CardRevealed(None, "the stock", top, stock[-1]))
            elif kind == "private":  # a peek for the discarding seat only
                emit(CardRevealed(action.seat, "stock", top, stock[-1], 1 << action.seat))
            elif kind == "two":  # the top two cards
                emit(CardRevealed(None, "stock", top, stock[-1]))
                emit(CardRevealed(None, "stock", top - 1, stock[-2]))
            else:
                emit(CardRevealed(None, "stock", top, stock[-1]))

    return _Logic


KINDS = ("plain", "tuck", "minus-one", "subclass", "own-name", "private", "two")


@pytest.fixture(scope="module")
def peeks() -> Iterator[dict[str, str]]:
    names: dict[str, str] = {}
    for kind in KINDS:
        name = f"peek-canasta-{kind}-review-1224"
        module = types.ModuleType(name.replace("-", "_"))
        module.GAME = GameInfo(  # type: ignore[attr-defined]
            name,
            f"Canasta that shows the stock's top card after a discard ({kind})",
            4,
            4,
            options=canasta.GAME.options,
            fields=canasta.GAME.fields,
        )
        logic = _peek_logic(kind)

        @hookimpl
        def create_logic(ruleset: cardcore.Ruleset, logic: type = logic) -> Any:
            return logic(ruleset)

        module.create_logic = create_logic  # type: ignore[attr-defined]
        module.build_deck = canasta.build_deck  # type: ignore[attr-defined]
        module.card_points = canasta.card_points  # type: ignore[attr-defined]
        cardcore.register("cardcore.games", name, module)
        names[kind] = name
    yield names
    for name in names.values():
        cardcore.unregister("cardcore.games", name)


TAIL = "4H 4D 5D KH KD 4H"
"""The upcard 4H (seat 2 picks it up, in public), two draws of two, then a 4H on the stock."""


def _discard_8s(game: str, tail: str = TAIL) -> tuple[Game, Game, list[Event]]:
    before = cardcore.new_game(game, 4, deck=_stack(tail), seed=5)
    for seat, text in TAKEBACK_PLAY:
        before.act(seat, text)
    after, events = probe(before, 2, "discard 8S", None)
    return before, after, events


def test_every_seat_knows_one_4h_before_the_discard(peeks: dict[str, str]) -> None:
    before, _, events = _discard_8s(peeks["plain"])
    for seat in (0, 1, 2, 3, None):
        assert known_cards(before, seat)["4H"] == 1  # seat 2's, picked up in public
    shown = [e for e in events if isinstance(e, CardRevealed)]
    assert [(e.zone, str(e.card)) for e in shown] == [("stock", "4H")]


def test_a_second_copy_shown_on_the_stock_is_learned_by_every_seat_and_a_spectator(
    peeks: dict[str, str],
) -> None:
    """The claim of 5256867: the other copy known elsewhere does not make the shown one known."""
    before, after, events = _discard_8s(peeks["plain"])
    assert learned(before, after, events) == {s: ["4H"] for s in (0, 1, 2, 3, None)}
    reply = _takeback_reply(peeks["plain"], TAIL, "discard 8S")
    assert reply["type"] == "error" and reply["code"] == "takeback-refused", reply


def test_a_private_peek_is_learned_by_the_peeking_seat_only(peeks: dict[str, str]) -> None:
    before, after, events = _discard_8s(peeks["private"])
    assert learned(before, after, events) == {0: [], 1: [], 2: ["4H"], 3: [], None: []}
    reply = _takeback_reply(peeks["private"], TAIL, "discard 8S")
    assert reply["type"] == "error" and reply["code"] == "takeback-refused", reply
    assert "seat 2" in reply["message"] and "seat 0" not in reply["message"]


def test_two_copies_shown_by_one_action_count_twice(peeks: dict[str, str]) -> None:
    """Several cards revealed by one action: two 3S on the stock (both decks' copies, shown
    and left face down) are two cards learned: the union across events keeps one per code,
    the places count each."""
    before, after, events = _discard_8s(peeks["two"], "4H 4D 5D KH KD 3S 3S")
    assert [str(e.card) for e in events if isinstance(e, CardRevealed)] == ["3S", "3S"]
    assert known_cards(after, 0)["3S"] == 0  # face down again
    assert learned(before, after, events) == {s: ["3S", "3S"] for s in (0, 1, 2, 3, None)}


@pytest.mark.parametrize(
    "kind",
    [
        "tuck",
        "minus-one",
        "subclass",
        "own-name",
    ],
)
def test_a_copy_shown_on_the_stock_is_learned_however_the_event_names_its_place(
    peeks: dict[str, str], kind: str
) -> None:
    before, after, events = _discard_8s(peeks[kind])
    assert [str(e.card) for e in events if isinstance(e, CardRevealed)] == ["4H"]
    assert learned(before, after, events) == {s: ["4H"] for s in (0, 1, 2, 3, None)}
    reply = _takeback_reply(peeks[kind], TAIL, "discard 8S")
    assert reply["type"] == "error" and reply["code"] == "takeback-refused", reply


# ---------------------------------------------------------------- 3. a note on a known card


class WildNoted(Event):
    """A note in words on a wild card played (a game's log line)."""

    slug: ClassVar[str] = "spite-wild-note"
    seat: int
    text: str


class _NotingLogic(spite.SpiteLogic):  # type: ignore[misc]
    """Spite and Malice that adds a note in words to every wild card played."""

    def apply(self, state: Any, action: Any, emit: Any) -> None:
        def noting(event: Any) -> None:
            emit(event)
            if isinstance(event, spite.WildPlayed):
                emit(WildNoted(event.seat, f"{event.card} counts as {event.stands_for}"))

        super().apply(state, action, None if emit is None else noting)


@pytest.fixture
def noting_spite() -> Iterator[str]:
    name = "spite-noting-review-1224"
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = attrs.evolve(spite.GAME, name=name)  # type: ignore[attr-defined]

    @hookimpl
    def create_logic(ruleset: Any) -> _NotingLogic:
        return _NotingLogic(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.build_deck = spite.build_deck  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", name, module)
    yield name
    cardcore.unregister("cardcore.games", name)


def _lift(game_name: str) -> tuple[Game, Game, list[Event]]:
    game = cardcore.new_game(game_name, 2, seed=0)
    for seat, text in SPITE_PLAY:
        game.act(seat, text)
    after, events = probe(game, 1, "lift 3 2", None)
    return game, after, events


def test_spite_a_known_wild_moved_and_noted_is_named_once(noting_spite: str) -> None:
    """Three events name KD (the move, the wild, the note): counted once, as documented."""
    game, after, events = _lift(noting_spite)
    assert [e.slug for e in events if e.slug != "action-applied"] == [
        "card-moved",
        "spite-wild",
        "spite-wild-note",
    ]
    assert all(known_cards(game, s)["KD"] >= 1 for s in (0, 1, None))
    got = learned(game, after, events)
    assert all("KD" not in cards for cards in got.values()), got


def test_spite_a_note_in_words_on_a_known_wild_teaches_nothing(noting_spite: str) -> None:
    game, after, events = _lift(noting_spite)
    assert learned(game, after, events) == {0: [], 1: [], None: []}
