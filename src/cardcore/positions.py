"""Building blocks for position notations (what FEN is to chess).

A game's position text has two parts separated by ``" | "``-joined sections:
``key=value`` fields (values are compact JSON without spaces) and one section
per pile, ``name: CARD CARD ...`` bottom to top. A card is followed by who
knows it: nothing (nobody), ``!`` (everyone) or ``@0.2`` (seats 0 and 2)::

    golf v=1 players=2 turn=0 phase="draw" | stock: 5H 9C KD | discard: 7D! | grid.0: AS@0 2H

:func:`write_position` and :func:`read_position` do the generic work and check
that every card of the game's deck is placed exactly once; each game adds its
own fields and validation.

A game that keeps its fields in plain state slots need not write either: the
default notation of :class:`~cardcore.GameLogic` (``position_fields`` and
``blank_state``) uses :func:`read_field`, :func:`read_result` and
:func:`check` from here.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore._text import plain, shown
from cardcore.cards import Card
from cardcore.errors import _RULE_AT_END, ArgumentError, CardcoreError, OptionError
from cardcore.state import Result
from cardcore.zones import ALL, Layout, Zones

__all__ = [
    "MAX_FIELD_INT",
    "MAX_POSITION",
    "check",
    "read_field",
    "read_position",
    "read_result",
    "refused",
    "writable",
    "write_position",
]

MAX_POSITION = 20_000
"""The longest position text :func:`read_position` reads."""


_SUFFIX: dict[int, str] = {0: "", ALL: "!"}
_TOKENS: dict[str, tuple[Card, int, int]] = {}
_DECKS: dict[int, tuple[Sequence[Card], Counter[int]]] = {}
_WRITTEN: dict[tuple[int, int], tuple[Card, str]] = {}
_CACHE = 4096
_LAYOUTS: dict[int, Layout] = {}
"""How many distinct card tokens (and decks) the codec remembers."""


def _mask_text(mask: int) -> str:
    text = _SUFFIX.get(mask)
    if text is None:
        text = "@" + ".".join(str(s) for s in range(mask.bit_length()) if (mask >> s) & 1)
        if len(_SUFFIX) < _CACHE:
            _SUFFIX[mask] = text
    return text


def write_position(game: str, fields: Mapping[str, Any], zones: Zones) -> str:
    """Write a position: the game's name, its *fields* and every pile of *zones* with knowledge.

    :raises OptionError: For a *game* that is not a name (text without spaces or ``|``), a
        field name that is not an identifier, or a value that is not JSON (NaN, an object,
        an int too long to print) or a pile's name holding a space, ``:`` or ``|``:
        :func:`read_position` could not read them back; or *zones* that are not
        :class:`~cardcore.Zones`.
    """
    if not (type(game) is str and game and "|" not in game and game.split() == [game]):
        raise _bad(f"the game's name must be text without spaces or '|', not {shown(game)}")
    if not isinstance(fields, Mapping):
        raise _bad(f"fields must be a mapping of names to values, not {shown(fields)}")
    if not isinstance(zones, Zones):
        raise _bad(f"zones must be the state's Zones, not {shown(zones)}")
    parts = [game]
    for key, value in fields.items():
        if not (type(key) is str and key.isidentifier()):
            raise _bad(f"a field's name must be an identifier, not {shown(key)}")
        try:
            text = json.dumps(value, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
            fits = _fits(value)
        except (TypeError, ValueError, RecursionError):
            raise _bad(f"field {key!r} holds {shown(value)}, which is not JSON") from None
        if not fits:
            raise _huge(key, value)
        text = text.replace(" ", "\\u0020").replace("|", "\\u007c")
        parts.append(f"{key}={text}")
    sections = [" ".join(parts)]
    if _LAYOUTS.get(id(zones.layout)) is not zones.layout:
        _written_names(zones.layout)
    get = _WRITTEN.get
    for spec, pile, seen in zip(zones.layout.specs, zones.cards, zones.seen, strict=True):
        tokens = [spec.name + ":"]
        for card, mask in zip(pile, seen, strict=True):
            hit = get((id(card), mask))
            if hit is None or hit[0] is not card:
                hit = _written(card, mask)
            tokens.append(hit[1])
        sections.append(" ".join(tokens))
    return " | ".join(sections)


def _written_names(layout: Layout) -> None:
    """Refuse a *layout* whose pile names a position could not read back; else note it."""
    for spec in layout.specs:
        name = spec.name
        if "|" in name or ":" in name or name.split() != [name]:
            raise _bad(
                f"pile {name!r}: a pile's name in a position is text without spaces, ':' or '|'"
            )
    if len(_LAYOUTS) >= _CACHE:
        _LAYOUTS.clear()
    _LAYOUTS[id(layout)] = layout


def _fits(value: Any) -> bool:
    """Whether every number in *value* (JSON-ready) is at most 10**15 in size, as
    :func:`read_position` reads them."""
    if isinstance(value, int | float):
        return isinstance(value, bool) or -MAX_FIELD_INT <= value <= MAX_FIELD_INT
    if isinstance(value, list | tuple):
        return all(map(_fits, value))
    if isinstance(value, Mapping):
        return all(map(_fits, value.values()))
    return True


def _written(card: Card, mask: int) -> tuple[Card, str]:
    """The token of *card* with knowledge *mask*, remembered by the card's identity."""
    hit = (card, f"{card}{_mask_text(mask)}")
    if len(_WRITTEN) >= _CACHE:
        _WRITTEN.clear()
    _WRITTEN[id(card), mask] = hit  # the entry keeps the card alive, so its id stays its own
    return hit


_LONGEST = 400  # characters of a refusal's message, its rule citation kept


def refused(msg: str) -> OptionError:
    """The error for a position a game refuses: ``OptionError("bad position: <msg>")``, citing
    CORE-POSITION-1 unless *msg* ends citing a rule of its own (``... (SPEED-STUCK-1)``).
    A message longer than 400 characters (a game quoting a hostile value whole) is cut to
    400, keeping its rule citation.

    >>> refused("hand.0 must hold 5 cards").rule_id
    'CORE-POSITION-1'
    """
    msg = msg if type(msg) is str else shown(msg)  # (a game's own message of another kind)
    cited = _RULE_AT_END.search(msg)
    if len(msg) > _LONGEST:  # a game quoting a hostile value whole: keep the head and the rule
        end = cited.group(0).strip() if cited else ""
        if len(end) > 100:  # a "rule" that long is not one: cut, citing CORE-POSITION-1
            end, cited = "", None
        room = _LONGEST - len(end or " (CORE-POSITION-1)") - 5
        msg = f"{msg[:room].rstrip()} ... {end}".rstrip()
    return OptionError(f"bad position: {msg}" + ("" if cited else " (CORE-POSITION-1)"))


_bad = refused


def _parse_token(token: str) -> tuple[Card, int, int]:
    """Read ``"5H"``, ``"5H!"`` or ``"5H@0.2"``: the card, its mask and the seats it needs."""
    mask = 0
    need = 0
    text = token
    if token.endswith("!"):
        text, mask = token[:-1], ALL
    elif "@" in token:
        text, _, seats = token.partition("@")
        for word in seats.split("."):
            if not (0 < len(word) <= 3 and word.isascii() and word.isdigit()):
                raise _bad(f"{word!r} is not a seat (in {token!r})")
            mask |= 1 << int(word)
            need = max(need, int(word) + 1)
    try:
        return Card.parse(text), mask, need
    except CardcoreError:
        raise _bad(f"{text!r} is not a card") from None


def _read_card(token: str, players: int) -> tuple[Card, int]:
    hit = _TOKENS.get(token)
    if hit is None:
        hit = _parse_token(token)
        if len(_TOKENS) < _CACHE:
            _TOKENS[token] = hit
    card, mask, need = hit
    if need > players:
        raise _bad(f"{str(need - 1)!r} is not a seat of a {players}-player game (in {token!r})")
    return card, mask


def _deck_ids(deck: Sequence[Card]) -> Counter[int]:
    """The ids of *deck*'s cards, kept for a tuple (a list may change in place)."""
    if type(deck) is not tuple:
        return Counter(map(id, deck))
    hit = _DECKS.get(id(deck))
    if hit is None or hit[0] is not deck:
        hit = (deck, Counter(map(id, deck)))
        if len(_DECKS) >= _CACHE:
            _DECKS.clear()
        _DECKS[id(deck)] = hit
    return hit[1]


MAX_FIELD_INT = 10**15
"""The largest number, in size, a position's field may hold (scores, balances, counts)."""


def fair_ints(values: Any, count: int) -> bool:
    """Whether *values* is a sequence (not a mapping or text) of *count* ints in range."""
    if not isinstance(values, list | tuple) or len(values) != count:
        return False
    for x in values:
        if (
            not isinstance(x, int)
            or isinstance(x, bool)
            or not -MAX_FIELD_INT <= x <= MAX_FIELD_INT
        ):
            return False
    return True


def _field_int(text: str) -> int:
    value = int(text)
    if not -MAX_FIELD_INT <= value <= MAX_FIELD_INT:
        raise ValueError(text[:20])
    return value


def _field_float(text: str) -> float:
    value = float(text)  # 1e400 is inf: refused as NaN and Infinity are
    if not -MAX_FIELD_INT <= value <= MAX_FIELD_INT:
        raise ValueError(text[:20])
    return value


def _no_constant(text: str) -> Any:
    raise ValueError(text)  # NaN, Infinity: not numbers a game can hold


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
    :raises ArgumentError: For a *layout* that is not a :class:`~cardcore.Layout`, a *deck*
        that is not a list of cards, *players* that is not an int from 1 to 64, or a *game*
        that is no text.
    """
    game = plain(game)  # a str subclass could compare its own way
    if type(game) is not str:
        raise ArgumentError(f"read_position takes the game's name as text, not {shown(game)}")
    if not (
        isinstance(layout, Layout)
        and isinstance(deck, list | tuple)
        and all(type(card) is Card for card in deck)
    ):
        raise ArgumentError(
            f"read_position takes a Layout and a list of cards, not {shown(layout)}, {shown(deck)}"
        )
    if not (type(players) is int and 1 <= players <= 64):
        raise ArgumentError(f"players must be an int from 1 to 64, not {shown(players)}")
    if not isinstance(text, str) or len(text) > MAX_POSITION:
        raise _bad(f"expected text of at most {MAX_POSITION} characters")
    sections = [s.strip() for s in text.split("|")]
    head = sections[0].split()
    if not head or head[0] != game:
        raise _bad(f"it must start with the game's name {shown(game)}")
    fields: dict[str, Any] = {}
    for token in head[1:]:
        key, eq, value = token.partition("=")
        if not eq or not key.isidentifier() or key in fields:
            raise _bad(f"{token!r} is not a field (key=value, each key once)")
        try:
            fields[key] = json.loads(
                value, parse_int=_field_int, parse_float=_field_float, parse_constant=_no_constant
            )
        except (ValueError, RecursionError):
            raise _bad(
                f"field {key!r} has a value that is not compact JSON with numbers of at most"
                f" 10**15 in size: {value[:80]!r}"
            ) from None
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
        pile, seen = zones.cards[z], zones.seen[z]
        get = _TOKENS.get
        for token in rest.split():
            hit = get(token)
            if hit is None or hit[2] > players:
                card, mask = _read_card(token, players)
            else:
                card, mask = hit[0], hit[1]
            pile.append(card)
            seen.append(mask)
    missing_piles = set(layout.index) - seen_names
    if missing_piles:
        raise _bad(f"piles missing: {', '.join(sorted(missing_piles))}")
    if dict.__eq__(Counter(map(id, zones.all_cards())), _deck_ids(deck)):
        return fields, zones  # the same interned cards: the fast check
    placed = Counter(zones.all_cards())
    wanted = Counter(deck)
    if placed != wanted:
        missing = sorted(str(c) for c in (wanted - placed).elements())
        extra = sorted(str(c) for c in (placed - wanted).elements())
        raise _bad(f"every card must be placed exactly once (missing {missing}, extra {extra})")
    return fields, zones


# -- fields of the default notation ---------------------------------------------------------

_KINDS: dict[type, tuple[str, str]] = {
    bool: ("a bool", "bools"),
    int: ("an int", "ints"),
    float: ("a number", "numbers"),
    str: ("a string", "strings"),
    type(None): ("null", "nulls"),
}
"""The JSON types a field may hold: how to name one of them, and several."""


def writable(value: Any) -> bool:
    """Whether *value* is a scalar a position field holds: a bool, int, number, string or null
    (a number finite and at most 10**15 in size, as :func:`write_position` writes them)."""
    if type(value) not in _KINDS:
        return False
    return not isinstance(value, int | float) or (
        isinstance(value, bool) or -MAX_FIELD_INT <= value <= MAX_FIELD_INT
    )


def _text(value: Any) -> str:
    """*value* as compact JSON for a message, cut short."""
    try:
        text = json.dumps(value, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = shown(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check(ok: object, problem: str, *args: object) -> None:
    """Raise :class:`~cardcore.OptionError` ``"bad position: <problem> (CORE-POSITION-1)"``
    unless *ok* is true (see :func:`refused`).

    *problem* is formatted with *args* only when the check fails, so a check
    costs no more than its test::

        check(held or not stock, "hand.{} is empty, the stock not (GOFISH-EMPTY-1)", seat)
    """
    try:
        if ok:
            return
    except Exception:  # an ok whose truth is undecided (an array): the check fails
        pass
    try:
        text = problem.format(*args)
    except Exception:  # a problem its args do not fill: say it as it is, args after
        text = " ".join([shown(problem, 200), *map(shown, args)])
    raise _bad(text)


def _unfit(name: str, default: Any) -> TypeError:
    return TypeError(
        f"position field {name!r} has the default {default!r} in the blank state: fields hold"
        " ints, strings, bools, floats, None, or lists and tuples of those"
    )


def _lenient(name: str, value: Any, default: Sequence[Any]) -> list[Any]:
    """*value* for a per-seat *default* when the types differ: ints become floats, or raise."""
    if type(value) is list and len(value) == len(default):
        pairs = list(zip(value, default, strict=True))
        if all(type(v) is type(d) or (type(d) is float and type(v) is int) for v, d in pairs):
            return [float(v) if type(d) is float else v for v, d in pairs]
    kinds = {_KINDS[type(d)][1] for d in default}
    what = kinds.pop() if len(kinds) == 1 else f"values typed like {_text(default)}"
    raise _bad(f"field {name!r} must be a list of {len(default)} {what}, not {_text(value)}")


def read_field(name: str, value: Any, default: Any) -> Any:
    """Return field *name* of a position, checked against *default*, its value in a blank state.

    A scalar default (int, string, bool, float) takes a value of the same JSON
    type (an int is not a bool; an int is a fine float); a ``None`` default
    takes ``null`` or any scalar. A list or tuple default takes a list: as long
    as the default and with the same type at each place when the default has
    values (a per-seat list), of scalars otherwise; it comes back a tuple when
    the default is one.

    The core's ``to_act`` is no per-seat list but the seats to act, as many as
    there are (a real-time game's seats still in): it takes a list of scalars of
    any length whatever the blank value holds, as an empty default does, and comes
    back a tuple. That they are distinct seats of the game is for the caller to
    check (the default :meth:`~cardcore.GameLogic.read_position` does).

    :raises OptionError: Naming the field and what it must hold.
    :raises TypeError: *default* is of a type a field cannot hold (the game's mistake).
    """
    kind = type(default)
    if name == "to_act" and (kind is tuple or kind is list):
        default, kind = (), tuple  # the seats to act, as many as there are: not per seat
    if kind is list or kind is tuple:
        kinds = list(map(type, default))
        if not _KINDS.keys() >= set(kinds):
            raise _unfit(name, default)
        for x in value if type(value) is list else ():
            if (type(x) is float or type(x) is int) and not -MAX_FIELD_INT <= x <= MAX_FIELD_INT:
                raise _huge(name, x)  # (NaN fails the comparison too)
        if default:
            if type(value) is not list or list(map(type, value)) != kinds:
                value = _lenient(name, value, default)
        elif type(value) is not list or not _KINDS.keys() >= set(map(type, value)):
            raise _bad(
                f"field {name!r} must be a list of ints, strings, bools, numbers or nulls,"
                f" not {_text(value)}"
            )
        return tuple(value) if kind is tuple else value
    if kind not in _KINDS:
        raise _unfit(name, default)
    vkind = type(value)
    if (vkind is float or vkind is int) and not -MAX_FIELD_INT <= value <= MAX_FIELD_INT:
        raise _huge(name, value)  # (NaN fails the comparison too)
    if vkind is kind or (default is None and vkind in _KINDS):
        return value
    if kind is float and vkind is int:
        return float(value)
    what = "null, an int, a string, a bool or a number" if default is None else _KINDS[kind][0]
    raise _bad(f"field {name!r} must be {what}, not {_text(value)}")


def _huge(name: str, value: float) -> OptionError:
    return _bad(f"field {name!r} must hold numbers of at most 10**15 in size, not {shown(value)}")


def read_result(value: Any, players: int) -> Result:
    """Return the :class:`~cardcore.Result` a finished game's ``result`` field holds.

    The field is :meth:`Result.to_json <cardcore.Result.to_json>`: ``winners``
    (distinct seats), ``scores`` (one number per seat), ``payouts`` (``null``
    or one int per seat) and ``reason`` (text).

    :raises OptionError: The field is not such a result.
    """
    ok = (
        type(players) is int
        and type(value) is dict
        and set(value) == {"winners", "scores", "payouts", "reason"}
    )
    if ok:
        winners, scores, payouts = value["winners"], value["scores"], value["payouts"]
        ok = (
            type(winners) is list
            and all(type(s) is int and 0 <= s < players for s in winners)
            and len(set(winners)) == len(winners)
            and type(scores) is list
            and len(scores) == players
            and all(
                (type(x) is int or type(x) is float) and -MAX_FIELD_INT <= x <= MAX_FIELD_INT
                for x in scores
            )
            and (
                payouts is None
                or (
                    type(payouts) is list
                    and len(payouts) == players
                    and all(
                        type(x) is int and -MAX_FIELD_INT <= x <= MAX_FIELD_INT for x in payouts
                    )
                )
            )
            and type(value["reason"]) is str
            and value["reason"] != ""
        )
    if not ok:
        raise _bad(
            'field "result" must be {"winners": [seats], "scores": [a number per seat],'
            ' "payouts": null or [an int per seat], "reason": "text"}, not ' + _text(value)
        )
    return Result(
        tuple(winners),
        tuple(float(x) for x in scores),
        None if payouts is None else tuple(payouts),
        value["reason"],
    )
