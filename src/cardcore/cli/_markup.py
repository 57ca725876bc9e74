"""Text from data (seat names, plugins' names and docs, typed notation) as rich markup that
prints exactly as it is, whatever it holds."""

from __future__ import annotations

import re

__all__ = ["escape"]

_ACTS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What would act on a terminal or reorder the line rather than show: control characters
(a line break and a tab aside), line and paragraph separators, direction marks and overrides."""


def escape(text: str) -> str:
    """*text* as markup that prints as it is: every ``[`` that rich would read as a tag
    or an escape escaped, a character of
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
    out = _BRACKET.sub(_bracket, body)
    if not ends:
        return out
    return out + "\\" * (2 * ends) + _EMPTY  # an even run before a tag


_BRACKET = re.compile(r"(\\*)\[")
"""A ``[`` and the backslashes before it."""


def _bracket(match: re.Match[str]) -> str:
    """A ``[`` and its *k* backslashes as markup that prints them in any context (pieces
    are joined, and ``[bold`` then ``x]`` make a tag): the backslashes in pairs before an
    empty tag (a pair prints one), then an escaped bracket (rich drops the one backslash
    before a ``[``, a tag or not)."""
    slashes = match.group(1)
    return ("\\" * (2 * len(slashes)) + _EMPTY if slashes else "") + "\\["


_EMPTY = "[dim][/dim]"
"""An empty tag: what follows an even run of backslashes so that each pair prints one."""
