"""Events: tuple-based immutable records (construction, equality, redaction, JSON, pickling)."""

from __future__ import annotations

import pickle
from typing import ClassVar

import attrs
import pytest

from cardcore import (
    ALL,
    SPECTATOR,
    Card,
    CardDiscarded,
    CardDrawn,
    Event,
    EventBus,
    RoundScored,
    jsonable,
)

KH = Card.parse("KH")


class Pinged(Event):
    """A test event with one field."""

    slug: ClassVar[str] = "pinged"
    seat: int


class Ponged(Event):
    """Another test event with the same field."""

    slug: ClassVar[str] = "ponged"
    seat: int


class Peeked(Event):
    """A test event with a secret and defaults."""

    slug: ClassVar[str] = "peeked"
    secret: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    card: Card | None
    note: str = "peek"
    visible_to: int = ALL


def test_event_construction_positional_keyword_and_defaults() -> None:
    a = CardDrawn(1, "stock", KH, visible_to=1 << 1)
    assert (a.seat, a.source, a.card, a.visible_to) == (1, "stock", KH, 2)
    assert CardDrawn(1, "discard", KH).visible_to == ALL  # the default
    assert Peeked(0, None).note == "peek" and Peeked(0, None, note="x").note == "x"
    assert a.fields() == {"seat": 1, "source": "stock", "card": KH, "visible_to": 2}
    assert repr(CardDiscarded(0, KH)) == f"CardDiscarded(seat=0, card={KH!r})"
    with pytest.raises(TypeError):
        CardDiscarded(0)  # type: ignore[call-arg]


def test_event_is_immutable_and_not_attrs() -> None:
    event = CardDiscarded(0, KH)
    with pytest.raises(AttributeError):
        event.seat = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        event.extra = 1  # type: ignore[attr-defined]
    assert not attrs.has(CardDiscarded)  # attrs.evolve/fields do not apply: use fields()/to_json()
    assert CardDiscarded.__slots__ == ()  # no per-instance dict


def test_event_equality_distinguishes_types_and_hashes() -> None:
    assert Pinged(1) == Pinged(1) and Pinged(1) != Pinged(2)
    assert Pinged(1) != Ponged(1)  # same values, another event
    assert Pinged(1) != (1,)  # nor a plain tuple
    assert len({Pinged(1), Pinged(1), Ponged(1)}) == 2


def test_event_declaration_errors() -> None:
    with pytest.raises(TypeError, match="no default"):

        class Bad(Event):
            slug: ClassVar[str] = "bad"
            a: int = 0
            b: int

    with pytest.raises(TypeError, match="identifier"):

        class Hidden(Event):
            slug: ClassVar[str] = "hidden"
            _secret: int

    with pytest.raises(TypeError, match="redeclares"):

        class Again(Pinged):
            seat: int


def test_event_for_seat_redacts_secret_fields_outside_visible_to() -> None:
    event = Peeked(2, KH, visible_to=1 << 2)
    assert event.for_seat(2) is event  # the peeking seat: unchanged
    assert event.for_seat(None) is event  # the host: the full event
    other = event.for_seat(0)
    assert other == Peeked(2, None, visible_to=1 << 2) and type(other) is Peeked
    assert event.for_seat(SPECTATOR).card is None
    public = Peeked(2, KH)
    assert public.for_seat(0) is public  # visible to all: nothing to hide
    assert Pinged(1).for_seat(0) is not None  # no secret fields: the same event
    assert event.audience == 1 << 2 and Pinged(1).audience == ALL


def test_event_to_json_is_json_ready_and_leaves_out_visible_to() -> None:
    event = RoundScored(2, (3, -1), (10, 4))
    assert event.to_json() == {
        "event": "round-scored",
        "round": 2,
        "scores": [3, -1],
        "totals": [10, 4],
    }
    drawn = CardDrawn(0, "stock", KH, visible_to=1)
    assert drawn.to_json() == {"event": "card-drawn", "seat": 0, "source": "stock", "card": "KH"}
    assert drawn.for_seat(1).to_json()["card"] is None


def test_event_pickles_to_an_equal_event_of_its_type() -> None:
    for event in (
        CardDrawn(0, "stock", KH, visible_to=1),
        Pinged(3),
        RoundScored(1, (1, 2), (1, 2)),
    ):
        back = pickle.loads(pickle.dumps(event))
        assert back == event and type(back) is type(event) and back.fields() == event.fields()


def test_event_bus_delivers_by_type_and_seat() -> None:
    bus = EventBus()
    assert not bus.active
    got: list[Event] = []
    mine: list[Event] = []
    bus.subscribe(Event, got.append)
    bus.subscribe(Peeked, mine.append, seat=0)
    assert bus.active and bus.wants(Pinged) and bus.wants_game_events
    bus.enqueue([Pinged(1), Peeked(1, KH, visible_to=2)])
    bus.drain()
    assert got == [Pinged(1), Peeked(1, KH, visible_to=2)]
    assert mine == [Peeked(1, None, visible_to=2)]


def test_jsonable_is_the_one_json_helper() -> None:
    from collections import Counter, deque
    from types import MappingProxyType

    assert jsonable({"a": (KH, None), 3: {1, 2}}) == {"a": ["KH", None], "3": [1, 2]}
    assert jsonable(MappingProxyType({"x": deque([KH])})) == {"x": ["KH"]}
    assert jsonable(Counter({"b": 2})) == {"b": 2}
    assert jsonable(Pinged(4)) == {"event": "pinged", "seat": 4}
    assert jsonable({1, "a"}) in (["a", 1], [1, "a"])  # mixed types: still a list
