"""Showing hostile values in error messages, safely and briefly."""

from __future__ import annotations

from typing import Any

__all__ = ["shown"]


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
