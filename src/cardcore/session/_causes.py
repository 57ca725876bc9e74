"""What played each action of a session: a seat (``"player"``), a timeout, the game clock or
the host. The session keeps the causes other than ``"player"`` by version, stored with its meta;
a session stored before it kept them has them read back from the update messages its streams
still hold, and the actions older than those are of unknown cause."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from cardcore.session.streams import Stream

__all__ = ["CAUSES", "cause_of", "stored_causes"]

CAUSES = ("player", "timeout", "clock", "host", "unknown")
"""Every answer of :meth:`Session.cause <cardcore.session.Session.cause>`."""

_KEPT = {c: c for c in CAUSES[1:4]}  # what a stored played_for may name


def stored_causes(
    meta: Mapping[str, Any], streams: Iterable[Stream], version: int
) -> tuple[dict[int, str], int]:
    """The causes a stored session kept (version -> cause, but ``"player"``), and the last
    version whose cause is unknown (0: none). Raises ``KeyError`` or ``ValueError`` for a
    damaged field (the session is then refused as damaged)."""
    if "played_for" in meta:
        kept = meta["played_for"]
        causes = {int(v): _KEPT[c] for v, c in kept.items()}
        return {v: c for v, c in causes.items() if 0 < v <= version}, min(
            int(meta.get("played_from", 0)), version
        )
    told: dict[int, str] = {}  # stored before causes were kept: the updates still held say
    first = version + 1
    for stream in streams:
        for _, text in stream.tail:
            try:
                message = json.loads(text)
            except ValueError:  # a torn row: the resume serves a fresh view instead
                continue
            if not isinstance(message, dict):
                continue
            if message.get("type") == "view" and message.get("reason") == "takeback":
                v = int(message["version"])  # what came after it was taken back
                told = {k: c for k, c in told.items() if k <= v}
                continue
            if message.get("type") != "update" or not isinstance(message.get("action"), dict):
                continue
            v, cause = int(message["version"]), message["action"].get("cause")
            first = min(first, v)
            if cause in _KEPT:
                told[v] = cause
            else:  # a seat's own (after a takeback of a timeout: the later word stands)
                told.pop(v, None)
    return {v: c for v, c in told.items() if v <= version}, first - 1


def cause_of(played_for: Mapping[int, str], played_from: int, version: int) -> str:
    """The cause of the action that made *version* (a version some action made)."""
    return "unknown" if version <= played_from else played_for.get(version, "player")
