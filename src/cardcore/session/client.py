"""A reference client: a seat's (or a spectator's) picture rebuilt from the server's messages.

:class:`Mirror` reads every message a connection receives and keeps what a
client needs: the current view (whole views and patches applied in order),
the number of the last stream message (to send as ``last`` when it
reconnects), its token, the clocks, a pending takeback, the revealed fair
deal. Browser clients do the same in a few dozen lines; tests use this one to
check that what the server sent adds up to exactly the seat's view.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from cardcore.errors import CardcoreError
from cardcore.session.patch import apply_patch

__all__ = ["STREAM_TYPES", "Mirror", "StreamGapError"]

STREAM_TYPES = frozenset({"lobby", "view", "update", "takeback", "reveal"})
"""The server's numbered message types (the others go to one connection, unnumbered)."""


class StreamGapError(CardcoreError):
    """A numbered message arrived out of order: the client must resync (send ``resync``)."""


class Mirror:
    """What one connection knows, rebuilt from the messages it received."""

    def __init__(self) -> None:
        self.last = 0
        """The number of the last stream message (send it as ``last``)."""
        self.view: dict[str, Any] | None = None
        """The current view (``None`` before the game starts): the mirror's own copy."""
        self.version: int | None = None
        """The version of :attr:`view` (``None`` before the game starts)."""
        self.seat: int | None = None
        """The seat this connection holds (``None``: a spectator, or not joined)."""
        self.token: str | None = None
        """The seat's token from its ``welcome`` (keep it secret: it rejoins the seat)."""
        self.session: str | None = None
        """The session's id."""
        self.lobby: Mapping[str, Any] | None = None
        """The last ``lobby`` message (claimed seats, entropy, the commitment)."""
        self.clocks: Mapping[str, Any] | None = None
        """The clocks as last shown to this connection."""
        self.takeback: Mapping[str, Any] | None = None
        """The takeback request pending, if any."""
        self.bundle: Mapping[str, Any] | None = None
        """The fair-deal bundle, once revealed at the end."""
        self.phase: str | None = None
        """The session's phase as last told (``waiting``, ``playing``, ``over``, ``closed``)."""
        self.events: list[Mapping[str, Any]] = []
        """Every event received, oldest first."""
        self.actions: list[Mapping[str, Any]] = []
        """Every ``action`` of an update received, oldest first."""
        self.errors: list[Mapping[str, Any]] = []
        """Every ``error`` received, oldest first."""
        self.presence: Mapping[str, Any] | None = None
        """The last ``presence`` message (who is connected)."""

    def feed(self, message: Mapping[str, Any]) -> None:
        """Take one message the server sent to this connection.

        :raises StreamGapError: A numbered message is not the next one, or an update is
            not to a later version than the view's (nothing is taken: resync from :attr:`last`).
        """
        kind = message.get("type")
        if kind == "welcome":
            self.session = message["session"]
            self.seat = message["seat"]
            self.phase = message["phase"]
            if message.get("last", self.last) < self.last:  # the stream restarted behind what
                self.last = message["last"]  # we saw: the whole view (or lobby) that follows is it
            if "token" in message:
                self.token = message["token"]
            return
        if kind == "error":
            self.errors.append(message)
            return
        if kind == "presence":
            self.presence = message
            return
        if kind == "clocks":  # a clock started again without an action
            self.clocks = message["clocks"]
            return
        if kind == "closed":  # this connection is closed (and with phase, the session)
            self.phase = message.get("phase", self.phase)
            return
        if kind not in STREAM_TYPES:
            return
        n = message["n"]
        whole = kind in ("view", "lobby")
        if whole and n >= self.last:  # the whole picture at that number: earlier ones are moot
            pass
        elif n != self.last + 1:
            if n <= self.last:
                return  # a message received twice (two resyncs crossing): already applied
            msg = f"stream message {n} arrived after {self.last}: resync"
            raise StreamGapError(msg)
        if kind == "update" and self.version is not None and message["version"] <= self.version:
            # (a later version is fine: a seat whose view failed once gets the changes since
            # its last view in one update, its patch from that view)
            msg = f"update to version {message['version']} after version {self.version}: resync"
            raise StreamGapError(msg)
        self.last = n
        if kind == "lobby":
            self.lobby = message
        elif kind == "view":
            # its own copy, as apply_patch makes: the message may be shared (fed to two mirrors)
            self.view = copy.deepcopy(message["view"]) if message["view"] is not None else None
            self.version = message["version"]
            self.phase = message.get("phase", self.phase)
            self.clocks = message.get("clocks", self.clocks)
            self.takeback = message.get("takeback")
            if message.get("reveal") is not None:
                self.bundle = message["reveal"]
        elif kind == "update":
            self.view = apply_patch(self.view, message["patch"])
            self.version = message["version"]
            self.clocks = message.get("clocks", self.clocks)
            self.events.extend(message["events"])
            self.actions.append(message["action"])
            if self.view is not None and self.view.get("is_over"):
                self.phase = "over"
        elif kind == "takeback":
            self.takeback = None if message["op"] in ("declined", "cancelled", "expired") else message
        elif kind == "reveal":
            self.bundle = message["bundle"]
