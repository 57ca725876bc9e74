"""Numbered streams: one per seat and one for spectators, with the tail kept for resyncs.

Every message of a stream carries ``n``, its number in the stream (from 1).
A client remembers the last number it received; when it reconnects it sends
it, and gets the messages it missed from the kept tail, or a fresh view when
that is shorter or the tail no longer reaches back far enough.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Iterable
from typing import Any

from cardcore.session.protocol import dumps

__all__ = ["SPECTATORS", "SpectatorEntry", "SpectatorFeed", "Stream", "seat_stream"]

SPECTATORS = "spectators"
"""The name of the spectators' stream (a seat's is ``"seat.0"``, ``"seat.1"`` ...)."""


UNKNOWN = -1
"""A :attr:`Stream.version` read from a stored tail holding no ``view`` or ``update``."""


def seat_stream(seat: int) -> str:
    """The name of *seat*'s stream."""
    return f"seat.{seat}"


class Stream:
    """One numbered stream: its counter, its kept tail, and the connections reading it.

    :param name: ``"seat.N"`` or :data:`SPECTATORS`.
    :param keep: How many messages the tail keeps.
    """

    __slots__ = ("conns", "digests", "keep", "n", "name", "tail", "untrusted", "version")

    def __init__(self, name: str, keep: int, n: int = 0, tail: Iterable[tuple[int, str]] = ()) -> None:
        self.name = name
        self.keep = keep
        self.n = n
        """The number of the last message (0: none yet)."""
        self.tail: deque[tuple[int, str]] = deque(tail, maxlen=keep)
        self.digests: deque[bytes] = deque((_digest(t) for _, t in self.tail), maxlen=keep)
        """The SHA-256 of each message of :attr:`tail`, in order."""
        self.untrusted = False
        """Whether the tail read from the store is not the one committed (never served)."""
        self.conns: dict[str, None] = {}
        """The connections reading the stream, in the order they joined."""
        self.version: int | None = None
        """The game version of the last ``view`` or ``update`` pushed or loaded, what its
        readers' picture is of (``None``: none yet, or none kept; :data:`UNKNOWN`: a stored
        tail that holds messages but no view or update, so the next change sends a whole view)."""

    def push(self, message: dict[str, Any]) -> str:
        """Number *message* (set its ``n``), keep it, and return its JSON text."""
        self.n += 1
        message["n"] = self.n
        if message.get("type") in ("view", "update"):
            self.version = message.get("version")
        text = dumps(message)
        self.tail.append((self.n, text))
        self.digests.append(_digest(text))
        return text

    def load(self, rows: Iterable[tuple[int, str]]) -> None:
        """Put stored *rows* (number, text) in the tail, as if they had just been pushed."""
        for n, text in rows:
            self.tail.append((n, text))
            self.digests.append(_digest(text))
        # kept messages but no view or update among them: the next change is a whole view
        # (none kept, or a tail not the one committed: its readers are taken as in step)
        self.version = UNKNOWN if self.tail else None
        for _, text in reversed(self.tail):  # the picture its readers hold: its last view or update
            try:
                message = json.loads(text)
            except ValueError:
                break
            if isinstance(message, dict) and message.get("type") in ("view", "update"):
                version = message.get("version")
                self.version = version if type(version) is int else UNKNOWN
                break

    def digest(self) -> str:
        """The SHA-256 of the kept tail, bound to the stream's name (a stored session carries
        it, so the rows of two streams swapped are noticed when it is resumed)."""
        return hashlib.sha256(self.name.encode() + b"\0" + b"".join(self.digests)).hexdigest()

    def missed(self, last: int) -> list[str] | None:
        """The kept messages after number *last*, or ``None`` if the tail does not reach back."""
        if last >= self.n:
            return [] if last == self.n else None
        tail = self.tail
        if not tail or tail[0][0] > last + 1:
            return None
        return [text for n, text in tail if n > last]

    def prune_below(self) -> int:
        """The lowest number the tail still keeps (the store drops the older ones)."""
        return self.tail[0][0] if self.tail else self.n + 1


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class SpectatorEntry:
    """What spectators will be shown of one version, once it is old enough."""

    __slots__ = ("action", "events", "rounds", "version", "view")

    def __init__(
        self, version: int, view: dict[str, Any], events: list[Any], action: Any, rounds: int
    ) -> None:
        self.version = version
        self.view = view
        self.events = events
        self.action = action
        self.rounds = rounds


class SpectatorFeed:
    """The spectators' delayed picture: versions wait *delay* actions before they are shown.

    :param delay: Actions of delay (0: at once).
    """

    __slots__ = ("delay", "pending", "released", "rounds", "view")

    def __init__(self, delay: int) -> None:
        self.delay = delay
        self.pending: deque[SpectatorEntry] = deque()
        self.released = 0
        """The version spectators see."""
        self.view: dict[str, Any] | None = None
        """The spectators' view at :attr:`released`."""
        self.rounds = 0
        """Past rounds spectators may read (those over at :attr:`released`)."""

    def due(self, version: int, over: bool) -> list[SpectatorEntry]:
        """Take the entries spectators may see now that the game is at *version*."""
        out = []
        pending = self.pending
        while pending and (over or pending[0].version <= version - self.delay):
            out.append(pending.popleft())
        return out

    def drop_after(self, version: int) -> None:
        """Forget entries newer than *version* (a takeback)."""
        while self.pending and self.pending[-1].version > version:
            self.pending.pop()
