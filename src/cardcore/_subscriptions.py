"""The handles and reports of the event bus (:class:`Subscription`, :class:`DeliveryFailure`)
and the plugins' observers, kept apart from :mod:`cardcore._bus`, which delivers.

Importing them from :mod:`cardcore.events` or :mod:`cardcore` is the public way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from threading import get_ident
from typing import Any

from attrs import field, frozen

from cardcore.events import Event

__all__ = [
    "DeliveryFailure",
    "Observers",
    "Subscription",
    "error_text",
    "kept",
    "removed",
    "same_handler",
]


@frozen
class Subscription:
    """A handle returned by :meth:`EventBus.subscribe`; pass it to :meth:`EventBus.unsubscribe`."""

    event_type: type[Event]
    handler: Callable[[Any], object] = field(eq=False)
    seat: int | str | None
    token: int
    drop_on_error: bool = False


@frozen
class DeliveryFailure:
    """A handler (or a plugin's ``on_event``) raised while an event was delivered.

    Handed to the bus's ``on_error`` callback (see :class:`EventBus`); the
    failure is also logged on the ``"cardcore.events"`` logger. The action that
    produced the event stays applied and every other handler still receives it.

    :param event: The event (as the failing handler received it; when the event's own
        redaction for the subscription's seat, ``for_seat``, is what raised, the event as
        the game emitted it, unredacted: ``on_error`` is the host's, never a seat's).
    :param error: The exception the handler raised.
    :param subscription: The failing subscription, or ``None`` for a plugin's ``on_event``.
    :param dropped: Whether the subscription was removed (``drop_on_error=True``).
    :param plugin: For a plugin's ``on_event``: the plugin's name (``None`` when unknown).
    :param handler: The handler that raised (``None`` for a plugin's ``on_event``): a dropped
        subscription's own ``handler`` is replaced by one that does nothing, so it is
        called no more, while ``subscription`` stays the object :meth:`EventBus.subscribe`
        returned.
    """

    event: Event
    error: BaseException = field(eq=False)
    subscription: Subscription | None
    dropped: bool = False
    plugin: str | None = None
    handler: Callable[[Any], object] | None = field(default=None, eq=False)


class Observers(tuple[Callable[..., object], ...]):
    """The plugins' ``on_event`` implementations in call order, and :attr:`names`.

    A plain tuple to call; the names are read only when one of them raises.
    """

    names: tuple[str, ...]
    """The plugin of each implementation, in the same order."""

    def __new__(cls, funcs: Iterable[Callable[..., object]], names: Iterable[str]) -> Observers:
        self = super().__new__(cls, funcs)
        self.names = tuple(names)
        return self

    def name_of(self, observe: Callable[..., object]) -> str | None:
        """The plugin of implementation *observe*, or ``None`` if it is not one of them."""
        for func, name in zip(self, self.names, strict=False):
            if func is observe:
                return name
        return None


def error_text(exc: BaseException) -> str:
    """What *exc* says, at most 200 characters (``"?"`` if saying it fails)."""
    try:
        text = str(exc)
    except Exception:
        text = "?"
    return text if len(text) <= 200 else text[:197] + "..."


def same_handler(handler: Callable[..., object], other: object) -> bool:
    """Whether *handler* is *other*, or equal to it (a bound method read again); a failing
    comparison is no match."""
    if handler is other:
        return True
    try:
        return bool(handler == other)
    except Exception:
        return False


def removed(event: Event) -> None:
    """The handler of a removed subscription, for the rest of a batch being delivered."""


def kept(
    queued: dict[int, tuple[int, list[Event]]], tickets: Iterator[int], batch: list[Event]
) -> int:
    """Number *batch* with the next of *tickets* and keep it in *queued* under that number, for
    the applying thread: an interrupt that lands once it is numbered still leaves it kept
    (a numbered batch missing from *queued* would stall every later one)."""
    ticket = -1
    try:
        ticket = next(tickets)
        queued[ticket] = (get_ident(), batch)
    except BaseException:
        if ticket >= 0:
            queued.setdefault(ticket, (get_ident(), batch))
        raise
    return ticket
