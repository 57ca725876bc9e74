"""Game and plugin versions as text (``"0.3.0"``): reading, ordering and checking them."""

from __future__ import annotations

import functools
import re

__all__ = ["RELEASE", "is_release", "is_version", "version_key"]

_PART = re.compile(r"[0-9]{1,64}", re.ASCII)
_LEADING = re.compile(r"[0-9]{1,64}(?![0-9])", re.ASCII)  # a part's release number ("5" of "5a1")
_PRE = re.compile(r"[0-9](a|b|rc)", re.ASCII)  # a pre-release ("5a1"): before its release


def version_key(version: str) -> tuple[int, int, int, int]:
    """``"0.2.0"`` as ``(0, 2, 0, 1)``, for ordering versions; ``"0.3"`` is ``(0, 3, 0, 1)``.

    A part is read by its leading number and a pre-release (``a``, ``b``, ``rc``, or a
    ``dev`` release of the release itself) orders just before its release, as PEP 440 has
    it: ``"0.5a1"`` is ``(0, 5, 0, 0)``, past every change of 0.4.0 and before 0.5.0; a
    local or post release (and a ``dev`` release of a post release) is its release.
    Never raises: a part that starts with no number of at most 64 digits counts 0.
    """
    text = str(version)
    return _version_key(text) if len(text) <= 32 else _version_key.__wrapped__(text)


@functools.lru_cache(maxsize=256)
def _version_key(text: str) -> tuple[int, int, int, int]:
    public = text.split("+", 1)[0]
    parts = [*public.split(".")[:3], "0", "0", "0"]
    a, b, c = (int(m.group()) if (m := _LEADING.match(p)) else 0 for p in parts[:3])
    early = _PRE.search(public) or (".dev" in public and ".post" not in public)  # (of a post: after)
    return a, b, c, 0 if early else 1


RELEASE = re.compile(
    r"[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?(\+[a-z0-9.]+)?", re.ASCII
)
"""A version as a package writes it (PEP 440): ``0.3.0``, ``1.0.0rc1``, ``0.2.0.dev1``."""


def is_release(value: object) -> bool:
    """Whether *value* is a version a record carries as its game's: :data:`RELEASE`, at
    most 64 characters (a game declares one, ``GameInfo(version=__version__)``)."""
    return isinstance(value, str) and len(value) <= 64 and RELEASE.fullmatch(value) is not None


def is_version(value: object) -> bool:
    """Whether *value* is version text such as ``"0.3.0"`` (one to three plain numbers)."""
    return (
        isinstance(value, str)
        and all(_PART.fullmatch(p) for p in value.split("."))
        and 1 <= value.count(".") + 1 <= 3
        and any(version_key(value)[:3])
    )
