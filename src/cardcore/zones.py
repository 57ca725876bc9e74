"""Zones: every pile of cards on the table, who owns it and who may see what.

All cards of a game live in one :class:`Zones` object, so the core can check
that every card is in exactly one place, build views that hide what a seat may
not know, re-deal hidden cards for search agents, and validate saved games,
for any game.

Piles are lists **bottom to top** (``cards[z][-1]`` is the top). Beside each
pile runs a list of knowledge masks: bit ``1 << seat`` set means that seat has
seen that card where it lies; :data:`ALL` means everybody has. A mask is any int: a
seat reads only its own bit, and a spectator knows only a card whose mask is exactly
:data:`ALL` (a mask of every seat, ``0b1111`` in a 4-player game, or of all but one,
``~1``, tells a spectator nothing).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, cast

from attrs import field, frozen
from typing_extensions import Self

from cardcore._text import shown
from cardcore.cards import Card, Suit, card_texts
from cardcore.deck import Chance, shuffle
from cardcore.errors import ArgumentError, PluginError

__all__ = ["ALL", "Layout", "Visibility", "ZoneSpec", "Zones"]

ALL = -1
"""Knowledge mask meaning "every seat (and every spectator) has seen this card"."""
_SUITS = {suit: i for i, suit in enumerate(Suit)}


def _by_rank(card: Card) -> tuple[int, int]:
    """Rank, then suit (a joker first): the order a face-up hand shows to the other seats."""
    suit = card.suit
    return (int(card.rank), -1 if suit is None else _SUITS[suit])


class Visibility(enum.Enum):
    """Who may see the cards of a pile, before per-card knowledge is counted."""

    EVERYONE = "everyone"
    """Face up: every card is public (a discard pile, a meld on the table)."""
    OWNER = "owner"
    """A hand: its owner sees every card, others only the count, until every card of it
    is known to all (its masks all :data:`ALL`: turned face up, revealed at the end);
    then every seat sees it, sorted by rank and suit (not in the order it was drawn).
    A pile whose :class:`ZoneSpec` is ``ordered`` (places that matter) instead shows
    each card known to all in its place, and in its own order once face up."""
    NOBODY = "nobody"
    """Face down: only seats whose knowledge bit is set see a card (a stock, a grid of face-down cards)."""
    TOP = "top"
    """Everyone sees the top card and nothing beneath it, the game's end included (a discard pile nobody may look through):
    every card was seen as it landed, so a card put on it is known to all. Face-down cards under
    a face-up top (a Nertz pile) are a ``NOBODY`` pile whose top the game reveals."""


@frozen
class ZoneSpec:
    """The fixed description of one pile.

    :param name: Unique name within the game, e.g. ``"stock"`` or ``"grid.2.5"``.
    :param owner: The seat that owns the pile, or ``None`` for shared piles.
    :param visibility: Who sees its cards (see :class:`Visibility`).
    :param ordered: Whether the order of its cards is part of the game (a layout held in
        hand whose positions matter): an ``OWNER`` pile then shows every card known to all
        in its place, and turned face up shows in its own order, not sorted.
    :raises PluginError: For a *name* that is not a non-empty ``str``, an *owner* that is
        not ``None`` or a seat from 0 to 63, or a *visibility* that is not a
        :class:`Visibility` (``Visibility.OWNER``, not ``"owner"``).
    """

    name: str
    owner: int | None = None
    visibility: Visibility = Visibility.NOBODY
    ordered: bool = False

    def __attrs_post_init__(self) -> None:
        owner = self.owner
        if not (type(self.name) is str and self.name):
            why = "its name must be a non-empty str"
        elif not (owner is None or (type(owner) is int and 0 <= owner < 64)):
            why = f"owner must be None or a seat from 0 to 63, not {shown(owner)}"
        elif not isinstance(self.visibility, Visibility):
            why = f"visibility must be a Visibility (such as Visibility.OWNER), not {shown(self.visibility)}"
        else:
            return
        raise PluginError(f"pile {shown(self.name)}: {why}")


class _RepeatedPile(PluginError, ValueError):
    """Two piles of one name in a layout (a ``ValueError`` too, for callers of old)."""


class UnknownPileError(PluginError, KeyError):
    """A pile name the layout lacks (a ``KeyError`` too, for callers of old)."""

    def __str__(self) -> str:  # a KeyError shows its repr
        return str(self.args[0])


def _unknown(index: dict[str, int], name: object) -> UnknownPileError:
    return UnknownPileError(f"no pile {shown(name)} in this layout (piles: {', '.join(index)})")


@frozen
class Layout:
    """The piles of a game, fixed at the deal and shared by every clone.

    >>> layout = Layout.of([ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.EVERYONE)])
    >>> layout.id("discard")
    1
    """

    specs: tuple[ZoneSpec, ...]
    index: dict[str, int] = field(eq=False, repr=False)

    @classmethod
    def of(cls, specs: Sequence[ZoneSpec]) -> Layout:
        """Build a layout from its zone specs; names must be unique (else :class:`~cardcore.PluginError`,
        also a ``ValueError``, as it was until 0.3), each a :class:`ZoneSpec`."""
        if isinstance(specs, str | bytes | Mapping) or not isinstance(specs, Iterable):
            raise PluginError(f"Layout.of takes a list of ZoneSpec, not {shown(specs)}")
        specs = tuple(specs)
        for spec in specs:
            if not isinstance(spec, ZoneSpec):
                raise PluginError(
                    f"Layout.of takes a list of ZoneSpec, not one holding {shown(spec)}"
                )
        index = {spec.name: i for i, spec in enumerate(specs)}
        if len(index) != len(specs):
            names = [spec.name for spec in specs]
            twice = sorted({name for name in names if names.count(name) > 1})
            msg = f"pile names must be unique in a layout; named more than once: {', '.join(map(repr, twice))}"
            raise _RepeatedPile(msg)
        return cls(specs, index)

    def id(self, name: str) -> int:
        """Return the integer id of the pile called *name*.

        :raises PluginError: The layout has no such pile (a ``KeyError`` too).
        """
        try:
            return self.index[name]
        except (KeyError, TypeError):
            raise _unknown(self.index, name) from None


_EMPTY: dict[int, Any] = {}
"""Per pile count, a function returning two fresh lists of that many empty piles."""


class Zones:
    """The cards of one game, pile by pile, with per-card knowledge.

    Games mutate ``cards`` and ``seen`` directly on their hot path, or through
    the helpers here, which keep knowledge right: a card put into a face-up
    pile becomes known to all, one put into a hand becomes known to its owner.

    Pile ids (from :meth:`id`) and card indices are the game's own and are not
    checked, to keep the hot path short: they index lists, so a pile past the
    layout raises Python's ``IndexError``, one that is no int a ``TypeError``, and
    a negative one counts from the end, as for any list. Raised in a game's hook,
    such an error reaches the caller as a :class:`~cardcore.PluginError` naming
    the game, the game left as it was. A knowledge mask must be an int.
    """

    __slots__ = ("cards", "layout", "seen")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        n = len(layout.specs)
        empty = _EMPTY.get(n)
        if empty is None:  # two list displays of n empty lists: cheaper than comprehensions
            body = "[" + "[], " * n + "]"
            empty = _EMPTY[n] = eval(f"lambda: ({body}, {body})")  # built from n alone
        self.cards: list[list[Card]]
        self.seen: list[list[int]]
        self.cards, self.seen = empty()

    # -- reading -----------------------------------------------------------------

    def id(self, name: str) -> int:
        """Return the integer id of the pile called *name*.

        :raises PluginError: The layout has no such pile (a ``KeyError`` too).
        """
        return self.layout.id(name)

    def count(self, z: int) -> int:
        """Return how many cards pile *z* holds."""
        return len(self.cards[z])

    def top(self, z: int) -> Card | None:
        """Return the top card of pile *z*, or ``None`` if it is empty."""
        pile = self.cards[z]
        return pile[-1] if pile else None

    def all_cards(self) -> Iterator[Card]:
        """Yield every card on the table, pile by pile."""
        for pile in self.cards:
            yield from pile

    def is_visible(self, z: int, index: int, seat: int | None) -> bool:
        """Whether *seat* (``None`` = a spectator) may be shown card *index* of pile *z* now.

        Face-up piles show everything, a hand shows itself to its owner (and to
        everyone once all its cards are known to all: a hand turned face up; an
        ``ordered`` one shows each card known to all), a
        ``TOP`` pile shows its top card, and a face-down pile shows the cards
        whose knowledge mask includes the seat. *index* counts from the bottom (for a
        ``TOP`` pile ``-1`` names the top too; no other negative index does).
        """
        spec = self.layout.specs[z]
        vis = spec.visibility
        if vis is Visibility.EVERYONE:
            return True
        if vis is Visibility.TOP:
            return index == len(self.cards[z]) - 1 or index == -1
        if vis is Visibility.OWNER:
            masks = self.seen[z]
            if spec.ordered and masks[index] == ALL:  # a card of a layout turned face up
                return True
            return (seat is not None and seat == spec.owner) or masks.count(ALL) == len(masks)
        mask = self.seen[z][index]
        return mask == ALL or (seat is not None and (mask >> seat) & 1 == 1)

    def knows(self, z: int, index: int, seat: int | None) -> bool:
        """Whether *seat* knows card *index* of pile *z*: it may see it, or saw it there.

        Knowledge is wider than visibility: a card buried in a ``TOP`` pile was
        seen by all when it was the top, and a card taken from a face-up pile
        into a hand is known to everyone who saw it taken.
        """
        if self.is_visible(z, index, seat):
            return True
        mask = self.seen[z][index]
        return mask == ALL or (seat is not None and (mask >> seat) & 1 == 1)

    def show(self, z: int, seat: int | None) -> list[str | None]:
        """Return pile *z* **top first** as *seat* sees it: card text, or ``None`` if hidden.

        A hand turned face up (every card known to all) is listed sorted by rank and
        suit instead, unless its spec is ``ordered`` (see :class:`Visibility`).
        """
        pile = self.cards[z]
        if not pile:
            return []
        spec = self.layout.specs[z]
        vis = spec.visibility
        if vis is Visibility.OWNER:  # face up once every card is known to all: shown to all,
            if self.seen[z].count(ALL) == len(pile):  # sorted (the order it was drawn in is
                if spec.ordered:  # private) unless its order is part of the game
                    return cast(list[str | None], card_texts(reversed(pile)))
                return cast(list[str | None], card_texts(sorted(pile, key=_by_rank)))
            if seat is not None and seat == spec.owner:
                return cast(list[str | None], card_texts(reversed(pile)))
            if spec.ordered:  # its places are the game's: a card known to all shows in its own
                masks = self.seen[z]
                return [
                    c.text if m == ALL else None
                    for c, m in zip(reversed(pile), reversed(masks), strict=True)
                ]
            return [None] * len(pile)
        if vis is Visibility.EVERYONE:
            return cast(list[str | None], card_texts(reversed(pile)))
        if vis is Visibility.TOP:
            return [pile[-1].text, *([None] * (len(pile) - 1))]
        masks = self.seen[z]
        if not any(masks):  # nobody has seen any of them (a stock): no card to name
            return [None] * len(pile)
        if seat is None:  # a spectator knows what all know (ALL), as is_visible says: not a
            return [  # mask of every seat but one (~1), whose high bits are set too
                c.text if m == ALL else None
                for c, m in zip(reversed(pile), reversed(masks), strict=True)
            ]
        bit = 1 << seat
        return [
            c.text if m & bit else None
            for c, m in zip(reversed(pile), reversed(masks), strict=True)
        ]

    # -- changing ----------------------------------------------------------------

    def _entry_mask(self, z: int, mask: int) -> int:
        if type(mask) is not int:  # checked before any pile changes, whatever the pile
            if not issubclass(type(mask), int):  # the real type (not a claim through __class__)
                raise ArgumentError(
                    f"a knowledge mask is an int (seat bits, or ALL), not {shown(mask)}"
                )
            mask = int.__index__(mask)  # an IntFlag of seats: kept as the plain int
        spec = self.layout.specs[z]
        vis = spec.visibility
        if vis is Visibility.EVERYONE or vis is Visibility.TOP:
            return ALL
        if vis is Visibility.OWNER and spec.owner is not None and mask != ALL:
            return mask | (1 << spec.owner)
        return mask

    def put(self, z: int, card: Card, mask: int = 0) -> None:
        """Put *card* on top of pile *z*; the pile's visibility widens *mask* as needed.

        :raises ArgumentError: *mask* is not an int (so for every method that takes one);
            no pile changes.
        """
        mask = self._entry_mask(z, mask)  # first: a bad mask leaves the pile as it was
        self.cards[z].append(card)
        self.seen[z].append(mask)

    def pop(self, z: int, index: int = -1) -> tuple[Card, int]:
        """Take card *index* (default the top) out of pile *z*; return it with its mask."""
        return self.cards[z].pop(index), self.seen[z].pop(index)

    def move(self, src: int, dst: int, index: int = -1, *, mask: int | None = None) -> Card:
        """Move card *index* of pile *src* onto the top of pile *dst* and return it.

        :param mask: Replace the card's knowledge mask; ``None`` keeps it. Either way the
            destination's visibility widens it, as for :meth:`put`: a card landing on an
            ``EVERYONE`` or ``TOP`` pile is known to all, one in a hand to its owner.
        """
        new = self._entry_mask(dst, self.seen[src][index] if mask is None else mask)
        card = self.cards[src].pop(index)  # (the mask first: a bad one changes no pile)
        del self.seen[src][index]
        self.cards[dst].append(card)
        self.seen[dst].append(new)
        return card

    def insert(self, z: int, index: int, card: Card, mask: int = 0) -> None:
        """Put *card* at place *index* of pile *z* (0 the bottom, as ``list.insert``): a card
        slipped into a hand at a random place, so a place names it to nobody but the owner.
        The pile's visibility widens *mask* as for :meth:`put`.

        .. versionadded:: 0.3
        """
        mask = self._entry_mask(z, mask)  # first: a bad mask leaves the pile as it was
        self.cards[z].insert(index, card)
        self.seen[z].insert(index, mask)

    def insert_bottom(self, z: int, card: Card, mask: int = ALL) -> None:
        """Put *card* at the bottom of pile *z* (e.g. cards a rule sets aside).

        :param mask: The seats that know the card; the default :data:`ALL` puts it face
            up for everyone (a penalty card under the discards). Pass ``mask=0`` for a
            card that goes face down (under a player's stack). The pile's visibility
            widens it as for :meth:`put`.
        """
        mask = self._entry_mask(z, mask)  # first: a bad mask leaves the pile as it was
        self.cards[z].insert(0, card)
        self.seen[z].insert(0, mask)

    def reveal(self, z: int, index: int = -1) -> Card:
        """Turn card *index* of pile *z* face up for everyone and return it."""
        self.seen[z][index] = ALL
        return self.cards[z][index]

    def tell(self, z: int, index: int, seat: int) -> Card:
        """Let *seat* see card *index* of pile *z* (a private peek) and return it.

        :raises ArgumentError: *seat* is not a seat from 0 to 63.
        """
        if type(seat) is not int or not 0 <= seat < 64:
            raise ArgumentError(f"tell takes a seat from 0 to 63, not {shown(seat)}")
        mask = self.seen[z][index]
        if mask != ALL:
            self.seen[z][index] = mask | (1 << seat)
        return self.cards[z][index]

    def forget(self, z: int) -> None:
        """Clear every seat's knowledge of the cards in pile *z* (they were mixed)."""
        self.seen[z] = [0] * len(self.cards[z])

    def shuffle(self, z: int, rng: Chance | random.Random) -> None:
        """Shuffle pile *z* with cardcore's shuffle; nobody knows where any card is after.

        A pile shuffled face up, in everyone's sight, is known to all again once
        ``zones.seen[z] = [ALL] * len(zones.cards[z])`` (or :meth:`reveal` card by card).
        """
        shuffle(self.cards[z], rng)
        self.forget(z)

    def clone(self) -> Self:
        """Return an independent copy sharing only the immutable layout."""
        new = object.__new__(type(self))
        new.layout = self.layout
        new.cards = [*map(list.copy, self.cards)]
        new.seen = [*map(list.copy, self.seen)]
        return new

    # -- serialisation -----------------------------------------------------------

    def snapshot(self) -> dict[str, object]:
        """Return a JSON-ready picture of every pile (privileged: it shows every card)."""
        return {
            spec.name: {"cards": [c.text for c in self.cards[i]], "seen": list(self.seen[i])}
            for i, spec in enumerate(self.layout.specs)
        }

    def __repr__(self) -> str:
        sizes = ", ".join(
            f"{s.name}={len(p)}" for s, p in zip(self.layout.specs, self.cards, strict=True)
        )
        return f"<Zones {sizes}>"
