"""An event whose ``visible_to`` is not a seat mask (a game's mistake) is redacted for every
seat, never raised while it is delivered.

Before, ``Event.for_seat`` raised on it (``None >> 1``, or a mask object whose ``==``
raises) inside :meth:`EventBus.deliver`: the seat subscribers and every later subscriber
lost that event and the rest of the batch, and the ``apply`` that made it raised.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from cardcore import ALL, SPECTATOR, Card, Event, EventBus, TurnPassed


class Peeked(Event):
    slug: ClassVar[str] = "test-peeked"
    secret: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    card: Card | None
    visible_to: Any = ALL


class _OddMask:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparison")

    __hash__ = None  # type: ignore[assignment]


@pytest.mark.parametrize("mask", [None, 1.5, "1", _OddMask()])
def test_a_mask_that_is_not_an_int_hides_the_secret_from_every_seat(mask: Any) -> None:
    event = Peeked(0, Card.parse("QS"), mask)
    for seat in (0, 1, SPECTATOR):
        copy = event.for_seat(seat)
        assert copy.card is None and copy.seat == 0
    assert event.for_seat(None) is event  # the host's full event


def test_every_subscriber_gets_the_whole_batch() -> None:
    bus = EventBus(seats=2)
    host: list[Event] = []
    seat: list[Event] = []
    public: list[Event] = []
    bus.subscribe(Event, host.append)
    bus.subscribe(Event, seat.append, seat=1)
    bus.subscribe(Event, public.append, seat=SPECTATOR)
    bus.deliver(bus.ticket(), [Peeked(0, Card.parse("QS"), None), TurnPassed(1)])
    assert [e.slug for e in host] == [e.slug for e in seat] == [e.slug for e in public]
    assert len(host) == 2
    assert seat[0] == public[0] == Peeked(0, None, None)
