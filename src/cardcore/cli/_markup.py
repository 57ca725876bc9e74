"""Text from data (seat names, plugins' names and docs, typed notation) as rich markup that
prints exactly as it is, whatever it holds."""

from __future__ import annotations

import re

from rich.markup import escape as _escape_markup

__all__ = ["escape"]

_ACTS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What would act on a terminal or reorder the line rather than show: control characters
(a line break and a tab aside), line and paragraph separators, direction marks and overrides."""


def escape(text: str) -> str:
    """*text* as markup that prints as it is: rich's markup escaped, a character of
    :data:`_ACTS` shown by its escape (``\\x1b``, ``\\u202e``), and trailing backslashes kept
    as many as they are whatever follows (rich's own escape doubles one that ends the text,
    which then prints twice unless a tag follows).

    >>> escape("[bold]Ann")
    '\\\\[bold]Ann'
    >>> escape("evil\\x1b[2J")
    'evil\\\\x1b[2J'
    """
    text = _ACTS.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
    body = text.rstrip("\\")
    ends = len(text) - len(body)
    if not ends:
        return _escape_markup(body)
    return _escape_markup(body) + "\\" * (2 * ends) + "[dim][/dim]"  # an even run before a tag
