"""Game and plugin versions as text (``"0.3.0"``): reading, ordering and checking them."""

from __future__ import annotations

import functools
import re

__all__ = ["is_version", "version_key"]

_PART = re.compile(r"[0-9]{1,64}", re.ASCII)


def version_key(version: str) -> tuple[int, int, int]:
    """``"0.2.0"`` as ``(0, 2, 0)``, for ordering versions; ``"0.3"`` is ``(0, 3, 0)``.

    Never raises: a part that is not a plain number of at most 64 digits counts 0.
    """
    text = str(version)
    return _version_key(text) if len(text) <= 32 else _version_key.__wrapped__(text)


@functools.lru_cache(maxsize=256)
def _version_key(text: str) -> tuple[int, int, int]:
    parts = [*text.split(".")[:3], "0", "0", "0"]
    a, b, c = (int(p) if _PART.fullmatch(p) else 0 for p in parts[:3])
    return a, b, c


def is_version(value: object) -> bool:
    """Whether *value* is version text such as ``"0.3.0"`` (one to three plain numbers)."""
    return (
        isinstance(value, str)
        and all(_PART.fullmatch(p) for p in value.split("."))
        and 1 <= value.count(".") + 1 <= 3
        and any(version_key(value))
    )
