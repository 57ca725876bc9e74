"""Showing hostile values in error messages, safely and briefly."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypeVar

from cardcore.errors import ArgumentError

T = TypeVar("T")

__all__ = [
    "each",
    "kind_of",
    "one_line",
    "one_of",
    "plain",
    "plain_texts",
    "read_all",
    "shown",
    "unprintable",
    "why_unreadable",
]


def shown(value: Any, limit: int = 80) -> str:
    """Return ``repr(value)`` cut to *limit* characters, for an error message.

    Never raises: an integer too large to print (Python refuses more than 4,300
    digits) is shown by its size, and a value whose ``repr`` fails by its type.

    >>> shown(10**5000)
    '<an int of 16610 bits>'
    >>> shown("x" * 100, limit=10)
    "'xxxxxx..."
    """
    if type(value) is int and value.bit_length() > 256:
        return f"<an int of {value.bit_length()} bits>"
    try:
        text = repr(value)
    except Exception:  # a huge int inside a container, or a broken __repr__
        return f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def counted(n: int, noun: str) -> str:
    """``"1 player"``, ``"3 players"``: *n* and *noun*, plural unless *n* is 1.

    >>> counted(1, "player"), counted(2, "player")
    ('1 player', '2 players')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def one_of(values: Any, word: str = "or") -> str:
    """Return *values* as a reader writes a list, each shown as :func:`shown` does, for an
    error message (a Python list's brackets read as code).

    >>> one_of([6, 8, "4h"])
    "6, 8 or '4h'"
    >>> one_of(["win"])
    "'win'"
    >>> one_of([0, 1], "and")
    '0 and 1'
    """
    items = [shown(v) for v in values]
    if len(items) < 2:
        return "".join(items) or "nothing"
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def plain(value: Any) -> Any:
    """*value* with a subclass of str or int made the plain type, read without the
    subclass's own code (which could hash, compare or measure its own way); anything
    else as it is, for the caller to refuse. Judged by the real type: an object that
    only claims to be text or a number through ``__class__`` is left as it is.

    >>> class Name(str):
    ...     def __eq__(self, other): raise RuntimeError
    ...     __hash__ = None
    >>> type(plain(Name("golf"))), plain(True), plain(None)
    (<class 'str'>, True, None)
    """
    kind = type(value)
    if kind is str or kind is int or kind is bool:
        return value
    if issubclass(kind, str):
        return str.__str__(value)
    if issubclass(kind, int) and not issubclass(kind, bool):
        return int.__index__(value)
    return value


def plain_texts(values: Iterable[Any], what: str) -> tuple[Any, ...]:
    """*values* with every subclass of str made plain text (which could hash, compare or
    measure its own way); other values are left for the caller to refuse. *what* names
    the argument if reading it fails (:func:`read_all`)."""
    return tuple(
        str.__str__(v) if type(v) is not str and issubclass(type(v), str) else v
        for v in read_all(values, what)
    )


def each(values: Iterable[T], what: str) -> Iterator[T]:
    """*values* one by one, as read (lazily: a caller may stop at a bad item); an iterable
    of the caller's whose reading fails is an :class:`~cardcore.ArgumentError` naming
    *what*, not the iterable's own exception."""
    try:
        items = iter(values)
    except Exception as exc:
        msg = f"{what}: reading it failed: {shown(exc, 80)}"
        raise ArgumentError(msg) from None
    while True:
        try:
            item = next(items)
        except StopIteration:
            return
        except Exception as exc:
            msg = f"{what}: reading it failed: {shown(exc, 80)}"
            raise ArgumentError(msg) from None
        yield item


def read_all(values: Iterable[T], what: str) -> tuple[T, ...]:
    """*values* read once into a tuple; an iterable of the caller's whose reading fails is
    an :class:`~cardcore.ArgumentError` naming *what*, not the iterable's own exception."""
    if type(values) is tuple:
        return values
    try:
        return tuple(values)
    except Exception as exc:
        msg = f"{what}: reading it failed: {shown(exc, 80)}"
        raise ArgumentError(msg) from None


_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Control characters and bidirectional overrides: a rule's text holding one would reach a
terminal (``cardcore list``) as a command (an escape sequence) or as other text than it is."""
_UNSHOWN_PROSE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""As :data:`_UNSHOWN`, but a summary or an option's doc may be wrapped: a line break or a tab
is only layout there."""
_SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate: text UTF-8 cannot carry (``cardcore list`` could not print it)."""


_LINE_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def one_line(text: object, limit: int = 600) -> str:
    """*text* for one log line: control characters, line separators and direction marks
    written as their escapes (a line break as ``\\n``), cut to *limit* characters, so text
    from outside (a plugin's error, a stored row) cannot forge a line of its own.

    >>> one_line("boom\\nERROR forged")
    'boom\\\\nERROR forged'
    """
    try:
        text = str(text)
    except Exception:
        return "?"
    text = _LINE_BREAKING.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def unprintable(text: object, prose: bool = False) -> str | None:
    """What makes *text* unfit to print as it is (a control character or a lone surrogate),
    in words; ``None`` when it is fit, or is no ``str`` (checked where it is read). *prose*
    (a summary, an option's doc) may hold line breaks and tabs."""
    if not isinstance(text, str):
        return None
    if (_UNSHOWN_PROSE if prose else _UNSHOWN).search(text):
        return "a control character, which would reach a terminal as a command or as other text"
    if _SURROGATE.search(text):
        return "a lone surrogate, text UTF-8 cannot carry (`cardcore list` could not show it)"
    return None


def kind_of(value: Any) -> str:
    """What JSON calls *value*'s kind, for "must be a JSON object, not ..." (Python's own
    type names, such as ``NoneType``, mean nothing to a client).

    >>> kind_of(None), kind_of([1]), kind_of("x"), kind_of(2.5), kind_of(True)
    ('null', 'an array', 'text', 'a number', 'a boolean')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeio' else 'a'} {name}"  # a UUID, a uint8, an int64


def why_unreadable(exc: BaseException) -> str:
    """Why ``json.loads`` refused a text, in our words (Python's name its own limits and
    functions): the end of "the message ...", "the request ..." or "the record ...".
    """
    if isinstance(exc, RecursionError):
        return "is nested too deeply to read"
    if isinstance(exc, json.JSONDecodeError):
        return f"is not JSON: {exc.msg.lower()} at character {exc.pos}"
    if isinstance(exc, UnicodeError):
        return "is not UTF-8 text"
    if "digits" in str(exc):  # int("9" * 5000): CPython's limit on converting long numbers
        return "holds a number too long to read"
    return "is not JSON"
