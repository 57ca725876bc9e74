"""``cardcore.session``: one game behind a network, sans I/O.

Seats claimed with secret tokens (kept only as hashes), numbered per-seat
JSON streams holding only what each seat may see, resyncs after a dropped
connection or a restart, delayed spectator streams, turn and game clocks with
each game's default action on a timeout, takebacks that never undo what a
seat has seen, provably fair deals, and a store (SQLite included) from which
a restarted process resumes every game exactly. Standard library only.

>>> from cardcore.session import Session
>>> session = Session.create("mygame", 2, now=0.0)  # doctest: +SKIP
>>> out = session.handle("conn-1", '{"type": "join", "seat": 0}', now=0.5)  # doctest: +SKIP
>>> [(o.conn, o.message["type"]) for o in out]  # doctest: +SKIP
[('conn-1', 'welcome'), ('conn-1', 'lobby'), ('conn-1', 'presence')]

Modules: :mod:`~cardcore.session.session` (:class:`Session`),
:mod:`~cardcore.session.hub` (:class:`Hub`, many sessions),
:mod:`~cardcore.session.protocol` (messages, validation, errors),
:mod:`~cardcore.session.config` (settings), :mod:`~cardcore.session.clocks`,
:mod:`~cardcore.session.takeback`, :mod:`~cardcore.session.fair`,
:mod:`~cardcore.session.patch` (view patches), :mod:`~cardcore.session.client`
(a reference client), :mod:`~cardcore.session.store` and
:mod:`~cardcore.session.sqlite` (persistence), :mod:`~cardcore.session.aio`
(asyncio). See ``docs/session.rst`` for the protocol.
"""

from __future__ import annotations

from cardcore.session.client import Mirror, StreamGapError
from cardcore.session.config import GameSetup, Limits, SessionConfig, TimeControl
from cardcore.session.fair import FairDealError, FairReport, verify_bundle
from cardcore.session.hub import Hub
from cardcore.session.patch import apply_patch, diff
from cardcore.session.protocol import ERROR_CODES, PROTOCOL, Outbound, ProtocolError
from cardcore.session.session import CorruptSessionError, Session, SessionError
from cardcore.session.sqlite import SQLiteStore, StoreError
from cardcore.session.store import Batch, MemoryStore, Store, StoredSession, TokenRow

__all__ = [
    "ERROR_CODES",
    "PROTOCOL",
    "Batch",
    "CorruptSessionError",
    "FairDealError",
    "FairReport",
    "GameSetup",
    "Hub",
    "Limits",
    "MemoryStore",
    "Mirror",
    "Outbound",
    "ProtocolError",
    "SQLiteStore",
    "Session",
    "SessionConfig",
    "SessionError",
    "Store",
    "StoreError",
    "StoredSession",
    "StreamGapError",
    "TimeControl",
    "TokenRow",
    "apply_patch",
    "diff",
    "verify_bundle",
]
