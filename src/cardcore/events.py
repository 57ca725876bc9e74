"""Events: typed facts published after each change, and the bus that delivers them.

Events never veto and never change the game. Each says who may see it: events
that carry a hidden card name it in ``secret`` and carry ``visible_to`` (a seat
mask); a subscriber for one seat receives a copy with the secret fields blanked
when that seat may not see them, so a server can forward a seat's stream
without leaking. Shuffle orders never travel in events.

An event is an immutable, tuple-based record (building one costs well under a
microsecond; a frozen attrs class cost two to three times as much, and a
Golf decision builds about three events). Declare one like a dataclass::

    class CardDiscarded(Event):
        slug: ClassVar[str] = "card-discarded"
        seat: int
        card: Card

Fields are positional in declaration order; a field with a default (such as
``visible_to: int = ALL``) may also be passed by keyword.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from typing_extensions import Self, dataclass_transform

from cardcore._text import shown
from cardcore.cards import Card
from cardcore.errors import ArgumentError
from cardcore.zones import ALL

__all__ = [
    "SPECTATOR",
    "ActionApplied",
    "CardDiscarded",
    "CardDrawn",
    "CardMoved",
    "CardRevealed",
    "CardsDealt",
    "DeliveryFailure",
    "Event",
    "EventBus",
    "GameEnded",
    "GameStarted",
    "PaymentsMade",
    "RoundScored",
    "Shuffled",
    "Subscription",
    "TurnPassed",
    "jsonable",
]

E = TypeVar("E", bound="Event")
"""An event type, in :meth:`EventBus.subscribe`'s signature."""

SPECTATOR = "spectator"
"""Pass as ``seat=`` to :meth:`EventBus.subscribe` for the public stream (what anybody may see)."""


def jsonable(value: Any) -> Any:
    """Return *value* as JSON-ready data: cards as their notation, sequences as lists.

    The one JSON helper of the core (events, views, state snapshots and
    positions use it). Objects with ``snapshot()`` or ``to_json()`` give their
    own data; mappings become objects with string keys; sets become sorted
    lists; anything else becomes its ``str()``.

    :raises ArgumentError: For an int too long to write (more than 4,000 digits), or data
        that holds itself (a list inside itself) or is nested too deep to write.
    """
    try:
        return _plain(value)
    except RecursionError:
        msg = f"{type(value).__name__} data holds itself or is nested too deep to write as JSON"
        raise ArgumentError(msg) from None


def _plain(value: Any) -> Any:
    """:func:`jsonable`'s recursion (an event's fields call it directly)."""
    kind = type(value)  # the real type: a claim through __class__ makes nothing a number
    if value is None or issubclass(kind, bool | float | str):
        return value
    if issubclass(kind, int):
        if kind is not int:
            value = int.__index__(value)  # plain: a subclass could compare its own way
        if -_LONGEST < value < _LONGEST:
            return value
        raise ArgumentError(f"{shown(value)} is too long to write as JSON")
    if kind is list or kind is tuple:
        return [_plain(v) for v in value]
    if kind is Card:
        return str(value)
    for name in ("snapshot", "to_json"):
        method = getattr(value, name, None)
        if method is not None:
            return method()
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        items = [_plain(v) for v in value]
        try:
            return sorted(items)
        except TypeError:  # mixed types: a stable order all the same
            return sorted(items, key=repr)
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list | deque):
        return [_plain(v) for v in value]
    return str(value)


_LONGEST = 10**4000
"""Ints below this in size are written as they are (Python writes at most 4,300 digits)."""

_NO_DEFAULT = object()


def _compile_new(qualname: str, names: tuple[str, ...], defaults: dict[str, Any]) -> Any:
    """Build ``__new__`` for an event class from its field names (as ``namedtuple`` does)."""
    params = ", ".join(f"{n}=_d_{n}" if n in defaults else n for n in names)
    values = "".join(f"{n}, " for n in names)
    body = f"def __new__(_cls{', ' if params else ''}{params}):\n    return _tuple_new(_cls, ({values}))"
    namespace: dict[str, Any] = {"_tuple_new": tuple.__new__}
    namespace.update({f"_d_{k}": v for k, v in defaults.items()})
    exec(body, namespace)  # generated from checked identifiers only
    new = namespace["__new__"]
    new.__qualname__ = f"{qualname}.__new__"
    return new


class _EventMeta(type):
    """Turns the annotated fields of an event class into a tuple layout with named fields."""

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> _EventMeta:
        ns.setdefault("__slots__", ())
        fields: list[str] = []
        defaults: dict[str, Any] = {}
        for base in reversed(bases):
            for f in getattr(base, "_fields", ()):
                if f not in fields:
                    fields.append(f)
            defaults.update(getattr(base, "_defaults", {}))
        for fname, note in ns.get("__annotations__", {}).items():
            text = note if isinstance(note, str) else repr(note)
            if "ClassVar" in text:
                continue
            if fname.startswith("_") or not fname.isidentifier():
                msg = f"event field {fname!r} of {name} must be an identifier not starting with '_'"
                raise TypeError(msg)
            if fname in fields:
                msg = f"event {name} redeclares field {fname!r}"
                raise TypeError(msg)
            value = ns.pop(fname, _NO_DEFAULT)
            if value is not _NO_DEFAULT:
                defaults[fname] = value
            elif defaults:
                msg = f"event field {fname!r} of {name} has no default but follows one that has"
                raise TypeError(msg)
            fields.append(fname)
        ns["_fields"] = tuple(fields)
        ns["_defaults"] = defaults
        for i, fname in enumerate(fields):
            ns[fname] = property(itemgetter(i), doc=f"The event's {fname!r} field.")
        ns["__new__"] = _compile_new(ns.get("__qualname__", name), tuple(fields), defaults)
        cls = super().__new__(mcs, name, bases, ns)
        return cls


def _values(event: object) -> tuple[Any, ...]:
    return cast("tuple[Any, ...]", event)


class _EventMethods:
    """The behaviour every event shares (kept apart so type checkers see a plain class)."""

    __slots__ = ()
    slug: ClassVar[str] = "event"
    """The event's name in logs, JSON and replays (``"card-drawn"``)."""
    secret: ClassVar[tuple[str, ...]] = ()
    """The fields blanked in copies for seats outside ``visible_to``."""
    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}

    @property
    def audience(self) -> int:
        """The seat mask that may see the whole event (:data:`cardcore.zones.ALL` = everyone)."""
        mask: int = getattr(self, "visible_to", ALL)
        return mask

    def fields(self) -> dict[str, Any]:
        """Return the event's fields by name, in declaration order."""
        return dict(zip(self._fields, _values(self), strict=True))

    def for_seat(self, seat: int | str | None) -> Self:
        """Return the event as *seat* may see it.

        :param seat: A seat number, :data:`SPECTATOR` for the public view, or ``None``
            for the privileged full event.
        :returns: ``self`` when nothing is hidden from *seat*, else a copy whose
            secret fields are ``None``.
        """
        if seat is None or not self.secret:
            return self
        mask = self.audience
        if type(mask) is not int:  # not a seat mask (a game's mistake): shown to nobody
            mask = 0
        if mask == ALL or (type(seat) is int and seat >= 0 and (mask >> seat) & 1):
            return self
        secret = self.secret
        values = [None if f in secret else v for f, v in zip(self._fields, _values(self), strict=True)]
        return cast(Self, tuple.__new__(cast(Any, type(self)), values))

    def to_json(self) -> dict[str, Any]:
        """Return the event as JSON-ready data with its slug under ``"event"``."""
        data: dict[str, Any] = {"event": self.slug}
        try:
            for f, v in zip(self._fields, _values(self), strict=True):
                if f != "visible_to":
                    data[f] = _plain(v)
        except RecursionError:
            msg = f"event {self.slug!r}: a field holds itself or is nested too deep to write as JSON"
            raise ArgumentError(msg) from None
        return data

    def __repr__(self) -> str:
        args = ", ".join(f"{f}={v!r}" for f, v in zip(self._fields, _values(self), strict=True))
        return f"{type(self).__name__}({args})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(_values(self), other) is True

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self), tuple.__hash__(_values(self))))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple(_values(self)))


if TYPE_CHECKING:

    @dataclass_transform(frozen_default=True, eq_default=True)
    class Event(_EventMethods):
        """Base class of every event: an immutable record named in the past tense, with a slug.

        Subclass it and annotate the fields; see the module docstring.
        """

else:

    class Event(_EventMethods, tuple, metaclass=_EventMeta):
        """Base class of every event: an immutable record named in the past tense, with a slug.

        Subclass it and annotate the fields; see the module docstring.
        """

        __slots__ = ()
        slug: ClassVar[str] = "event"


class GameStarted(Event):
    """A game of *game* began for *players* (display names)."""

    slug: ClassVar[str] = "game-started"
    game: str
    players: tuple[str, ...]


class ActionApplied(Event):
    """An action was applied: the game is now at *version*. Published for every action."""

    slug: ClassVar[str] = "action-applied"
    seat: int
    action: str
    version: int
    at: float | None = None


class GameEnded(Event):
    """The game ended; the fields mirror :class:`cardcore.Result`."""

    slug: ClassVar[str] = "game-ended"
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    payouts: tuple[int, ...] | None
    reason: str


class CardsDealt(Event):
    """Cards were dealt: *counts* per seat. The cards themselves travel in views, not here."""

    slug: ClassVar[str] = "cards-dealt"
    counts: tuple[int, ...]


class Shuffled(Event):
    """The pile named *zone* (its layout name, e.g. ``"stock"``; *count* cards) was shuffled.

    The order never travels.
    """

    slug: ClassVar[str] = "shuffled"
    zone: str
    count: int


class CardDrawn(Event):
    """Seat *seat* drew a card from *source*; *card* is hidden from seats outside ``visible_to``.

    ``visible_to`` defaults to :data:`~cardcore.ALL`, a public draw (from a face-up
    discard pile): a draw from a hidden stock passes ``1 << seat``.
    """

    slug: ClassVar[str] = "card-drawn"
    secret: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    source: str
    card: Card | None
    visible_to: int = ALL


class CardDiscarded(Event):
    """Seat *seat* put *card* face up on the discard pile."""

    slug: ClassVar[str] = "card-discarded"
    seat: int
    card: Card


class CardRevealed(Event):
    """A card in *zone* (position *index*, counted from the bottom as in
    ``Zones.cards``) was turned up or looked at.

    *seat* is the seat that turned it up or showed it (the one peeking, a
    hand's owner at a showdown, the one whose challenge showed it), or ``None``
    when the rules did (an upcard at the deal). A private peek carries ``visible_to`` = the peeking seat only.
    """

    slug: ClassVar[str] = "card-revealed"
    secret: ClassVar[tuple[str, ...]] = ("card",)
    seat: int | None
    zone: str
    index: int
    card: Card | None
    visible_to: int = ALL


class CardMoved(Event):
    """A card moved from *src* to *dst* (for games with plays between piles); *seat* is
    the seat whose action moved it, or ``None`` when the rules did."""

    slug: ClassVar[str] = "card-moved"
    secret: ClassVar[tuple[str, ...]] = ("card",)
    seat: int | None
    src: str
    dst: str
    card: Card | None
    visible_to: int = ALL


class TurnPassed(Event):
    """It is now seat *seat*'s turn."""

    slug: ClassVar[str] = "turn-passed"
    seat: int


class RoundScored(Event):
    """Round *round* (from 1) was scored: *scores* this round and running *totals*."""

    slug: ClassVar[str] = "round-scored"
    round: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


class PaymentsMade(Event):
    """A settlement: *amounts* received per seat (negative: paid) and the running *totals*."""

    slug: ClassVar[str] = "payments-made"
    reason: str
    amounts: tuple[int, ...]
    totals: tuple[int, ...]


# the bus lives in a private module of its own; it is part of this module's API
from cardcore._bus import DeliveryFailure, EventBus, Subscription  # noqa: E402
