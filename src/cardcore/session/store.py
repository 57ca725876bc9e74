"""Persistence: the :class:`Store` protocol, what it holds, and an in-memory store.

A session writes to its store once per call that changed something (a
:class:`Batch`: one transaction), and a restarted process reads a session back
whole (:class:`StoredSession`) and replays its record, so the game resumes
exactly where it was. Four kinds of data, four tables in SQL:

* ``sessions``: one row per session: id, status, times, and ``meta``, a JSON
  object (the setup, the settings, the fair-deal material, the clocks, the
  streams' counters, a pending takeback ...), rewritten whole each time;
* ``actions``: the record, one row per action (seat, notation, time),
  appended, and cut back by a takeback;
* ``tokens``: one row per claimed seat: the SHA-256 of the session id, the seat
  and its token (never the token; sessions stored in format 1 or 2 hold the
  token's own SHA-256 until its holder joins again) and when it expires;
* ``messages``: the tail of each numbered stream, for exact resyncs after a
  restart, pruned as it grows.

A store of another database implements the five methods of :class:`Store`
with the same tables (``docs/session.rst`` gives the PostgreSQL statements);
the session layer never changes.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from cardcore._text import shown
from cardcore.errors import ArgumentError

__all__ = ["ActionRow", "Batch", "MemoryStore", "MessageRow", "Store", "StoredSession", "TokenRow"]

ActionRow = tuple[int, str, float | None]
"""One recorded action: ``(seat, notation, at)``."""
MessageRow = tuple[str, int, str]
"""One stream message: ``(stream, number, JSON text)``."""


@dataclass(frozen=True)
class TokenRow:
    """A claimed seat's token, hashed.

    :param seat: The seat.
    :param digest: The SHA-256 (hex) of the session id, the seat and the token (format 1
        and 2: of the token alone); the token itself is never stored.
    :param expires: When the token stops working (``None``: not before the game ends).
    """

    seat: int
    digest: str
    expires: float | None


@dataclass
class StoredSession:
    """Everything a store holds about one session.

    :param id: The session's id.
    :param status: ``"waiting"``, ``"playing"``, ``"over"`` or ``"closed"``.
    :param created: When it was created (the host's clock).
    :param meta: The session's own data (JSON-ready; see the module docstring).
    :param actions: The record, oldest first.
    :param tokens: The claimed seats' hashed tokens.
    :param messages: Per stream, its kept tail: ``(number, text)`` oldest first.
    """

    id: str
    status: str
    created: float
    meta: dict[str, Any]
    actions: list[ActionRow] = field(default_factory=list)
    tokens: list[TokenRow] = field(default_factory=list)
    messages: dict[str, list[tuple[int, str]]] = field(default_factory=dict)


@dataclass
class Batch:
    """The changes of one call, written in one transaction by :meth:`Store.commit`.

    :param status: The session's status now.
    :param updated: The host's time of the call.
    :param meta: The session's ``meta`` now (replaces the stored one), or ``None``: unchanged.
    :param keep_actions: Cut the stored record to this many actions first (a takeback), or ``None``.
    :param actions: Actions to append, as ``(index, seat, notation, at)``.
    :param tokens: Tokens to insert or replace (by seat).
    :param messages: Stream messages to append.
    :param prune: Per stream, delete its messages numbered below this.
    """

    status: str
    updated: float
    meta: dict[str, Any] | None = None
    keep_actions: int | None = None
    actions: list[tuple[int, int, str, float | None]] = field(default_factory=list)
    tokens: list[TokenRow] = field(default_factory=list)
    messages: list[MessageRow] = field(default_factory=list)
    prune: dict[str, int] = field(default_factory=dict)

    def is_empty(self) -> bool:
        """Whether nothing but the time changed."""
        return (
            self.meta is None
            and self.keep_actions is None
            and not self.actions
            and not self.tokens
            and not self.messages
            and not self.prune
        )


def merged(old: Batch, new: Batch) -> Batch:
    """One batch holding *old* then *new* (a write the store failed is retried with the next)."""
    actions = list(old.actions)
    keep = old.keep_actions
    if new.keep_actions is not None:
        actions = [a for a in actions if a[0] < new.keep_actions]
        keep = new.keep_actions if keep is None else min(keep, new.keep_actions)
    prune = dict(old.prune)
    for name, below in new.prune.items():
        prune[name] = max(below, prune.get(name, 0))
    return Batch(
        status=new.status,
        updated=new.updated,
        meta=new.meta if new.meta is not None else old.meta,
        keep_actions=keep,
        actions=actions + new.actions,
        tokens=old.tokens + new.tokens,
        messages=[m for m in old.messages + new.messages if m[1] >= prune.get(m[0], 0)],
        prune=prune,
    )


@runtime_checkable
class Store(Protocol):
    """Where sessions are kept. Every method is one transaction; none is called concurrently
    for one session.

    Implementations: :class:`MemoryStore` (tests), :class:`~cardcore.session.SQLiteStore`.
    """

    def create(self, session: StoredSession) -> None:
        """Store a new session (with no actions, tokens or messages yet).

        :raises KeyError: A session with this id exists.
        """

    def commit(self, session_id: str, batch: Batch) -> None:
        """Apply one call's changes to a stored session, all or nothing.

        :raises KeyError: No session of this id was created (nothing is written).
        """

    def load(self, session_id: str) -> StoredSession | None:
        """Return the stored session, or ``None`` if there is none with that id."""

    def session_ids(self, statuses: tuple[str, ...] = ("waiting", "playing", "over")) -> list[str]:
        """Return the ids of the sessions in one of *statuses*, oldest first."""

    def close(self) -> None:
        """Release the store's resources."""


KEEP_CLOSED = 16
"""How many closed sessions a :class:`MemoryStore` keeps by default."""


class MemoryStore:
    """A :class:`Store` in a dict: for tests, and for hosts that need no restarts.

    A :class:`Hub` forgets a session it closes, so only the last *keep_closed* closed
    sessions are kept (to be read with :meth:`load`), the oldest dropped first: a host
    that runs for days holds its open sessions and a few closed ones, not every game it
    ever ran. A dropped session's id is free again (a :class:`SQLiteStore` keeps every
    session, and refuses an id once used).

    :raises ArgumentError: *keep_closed* is not a whole number from 0.
    """

    def __init__(self, keep_closed: int = KEEP_CLOSED) -> None:
        if type(keep_closed) is not int or keep_closed < 0:
            msg = f"keep_closed is a whole number from 0, not {shown(keep_closed)}"
            raise ArgumentError(msg)
        self.keep_closed = keep_closed
        self._data: dict[str, StoredSession] = {}
        self._closed: dict[str, None] = {}  # the closed sessions' ids, oldest first

    def create(self, session: StoredSession) -> None:
        """See :meth:`Store.create`."""
        if session.id in self._data:
            raise KeyError(session.id)
        self._data[session.id] = copy.deepcopy(session)

    def commit(self, session_id: str, batch: Batch) -> None:
        """See :meth:`Store.commit` (closing a closed session already dropped changes nothing)."""
        s = self._data.get(session_id)
        if s is None and batch.status == "closed":
            return
        s = self._data[session_id]
        s.status = batch.status
        if batch.meta is not None:
            s.meta = copy.deepcopy(batch.meta)
        if batch.keep_actions is not None:
            del s.actions[batch.keep_actions :]
        for index, seat, text, at in batch.actions:
            del s.actions[index:]
            s.actions.append((seat, text, at))
        by_seat = {t.seat: t for t in s.tokens}
        for token in batch.tokens:
            by_seat[token.seat] = token
        s.tokens = sorted(by_seat.values(), key=lambda t: t.seat)
        for stream, n, text in batch.messages:
            s.messages.setdefault(stream, []).append((n, text))
        for stream, below in batch.prune.items():
            s.messages[stream] = [(n, t) for n, t in s.messages.get(stream, []) if n >= below]
        if s.status == "closed":
            self._closed[session_id] = None
            while len(self._closed) > self.keep_closed:
                del self._data[(oldest := next(iter(self._closed)))], self._closed[oldest]

    def load(self, session_id: str) -> StoredSession | None:
        """See :meth:`Store.load`."""
        s = self._data.get(session_id)
        return None if s is None else copy.deepcopy(s)

    def session_ids(self, statuses: tuple[str, ...] = ("waiting", "playing", "over")) -> list[str]:
        """See :meth:`Store.session_ids`."""
        return [k for k, s in sorted(self._data.items(), key=lambda kv: kv[1].created) if s.status in statuses]

    def close(self) -> None:
        """See :meth:`Store.close`."""


def meta_copy(meta: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy of *meta* (stores keep their own)."""
    return copy.deepcopy(dict(meta))
