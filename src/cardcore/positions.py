"""Building blocks for position notations (what FEN is to chess).

A game's position text has two parts separated by ``" | "``-joined sections:
``key=value`` fields (values are compact JSON without spaces) and one section
per pile, ``name: CARD CARD ...`` bottom to top. A card is followed by who
knows it: nothing (nobody), ``!`` (everyone) or ``@0.2`` (seats 0 and 2)::

    golf v=1 players=2 turn=0 phase="draw" | stock: 5H 9C KD | discard: 7D! | grid.0: AS@0 2H

:func:`write_position` and :func:`read_position` do the generic work and check
that every card of the game's deck is placed exactly once; each game adds its
own fields and validation.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore.cards import Card
from cardcore.errors import CardcoreError, OptionError
from cardcore.zones import ALL, Layout, Zones

__all__ = ["MAX_POSITION", "read_position", "write_position"]

MAX_POSITION = 20_000
"""The longest position text :func:`read_position` reads."""


def _mask_text(mask: int) -> str:
    if mask == 0:
        return ""
    if mask == ALL:
        return "!"
    return "@" + ".".join(str(s) for s in range(mask.bit_length()) if (mask >> s) & 1)


def write_position(game: str, fields: Mapping[str, Any], zones: Zones) -> str:
    """Write a position: the game's name, its *fields* and every pile of *zones* with knowledge."""
    parts = [game]
    for key, value in fields.items():
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=True).replace(" ", "\\u0020")
        parts.append(f"{key}={text}")
    sections = [" ".join(parts)]
    for spec, pile, seen in zip(zones.layout.specs, zones.cards, zones.seen, strict=True):
        cards = " ".join(f"{card}{_mask_text(mask)}" for card, mask in zip(pile, seen, strict=True))
        sections.append(f"{spec.name}: {cards}".rstrip())
    return " | ".join(sections)


def _bad(msg: str) -> OptionError:
    return OptionError(f"bad position: {msg}")


def _read_card(token: str, players: int) -> tuple[Card, int]:
    mask = 0
    if token.endswith("!"):
        token, mask = token[:-1], ALL
    elif "@" in token:
        token, _, seats = token.partition("@")
        for word in seats.split("."):
            if not (word.isascii() and word.isdigit() and int(word) < players):
                raise _bad(f"{word!r} is not a seat of a {players}-player game")
            mask |= 1 << int(word)
    try:
        return Card.parse(token), mask
    except CardcoreError:
        raise _bad(f"{token!r} is not a card") from None


def read_position(
    text: str, game: str, layout: Layout, deck: Sequence[Card], players: int
) -> tuple[dict[str, Any], Zones]:
    """Read a position written by :func:`write_position`.

    :param text: The position.
    :param game: The game it must name.
    :param layout: The piles the game has for this player count and these options.
    :param deck: Every card of the game (a multiset): each must be placed exactly once.
    :param players: The number of seats (knowledge marks must name real seats).
    :returns: The fields (decoded JSON) and the filled zones.
    :raises OptionError: Naming what is wrong.
    """
    if not isinstance(text, str) or len(text) > MAX_POSITION:
        raise _bad(f"expected text of at most {MAX_POSITION} characters")
    sections = [s.strip() for s in text.split("|")]
    head = sections[0].split()
    if not head or head[0] != game:
        raise _bad(f"it must start with the game's name {game!r}")
    fields: dict[str, Any] = {}
    for token in head[1:]:
        key, eq, value = token.partition("=")
        if not eq or not key.isidentifier() or key in fields:
            raise _bad(f"{token!r} is not a field (key=value, each key once)")
        try:
            fields[key] = json.loads(value)
        except (ValueError, RecursionError):
            raise _bad(f"field {key!r} has a value that is not compact JSON: {value!r}") from None
    zones = Zones(layout)
    seen_names: set[str] = set()
    for section in sections[1:]:
        name, colon, rest = section.partition(":")
        name = name.strip()
        if not colon or name not in layout.index:
            raise _bad(f"unknown pile {name!r} (piles: {', '.join(layout.index)})")
        if name in seen_names:
            raise _bad(f"pile {name!r} appears twice")
        seen_names.add(name)
        z = layout.index[name]
        for token in rest.split():
            card, mask = _read_card(token, players)
            zones.cards[z].append(card)
            zones.seen[z].append(mask)
    missing_piles = set(layout.index) - seen_names
    if missing_piles:
        raise _bad(f"piles missing: {', '.join(sorted(missing_piles))}")
    placed = Counter(zones.all_cards())
    wanted = Counter(deck)
    if placed != wanted:
        missing = sorted(str(c) for c in (wanted - placed).elements())
        extra = sorted(str(c) for c in (placed - wanted).elements())
        raise _bad(f"every card must be placed exactly once (missing {missing}, extra {extra})")
    return fields, zones
