"""A reference client: a seat's (or a spectator's) picture rebuilt from the server's messages.

:class:`Mirror` reads every message a connection receives and keeps what a
client needs: the current view (whole views and patches applied in order),
the number of the last stream message (to send as ``last`` when it
reconnects), its token, the clocks, a pending takeback, the revealed fair
deal. Browser clients do the same in a few dozen lines; tests use this one to
check that what the server sent adds up to exactly the seat's view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore._text import shown
from cardcore.errors import CardcoreError, CorruptStateError
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

        A message is taken whole or not at all: everything it carries is checked (and a
        patch applied to a copy) before the mirror changes.

        :raises StreamGapError: A numbered message is not the next one, or an update is
            not to a later version than the view's (nothing is taken: resync from :attr:`last`).
        :raises CorruptStateError: A malformed message (not an object, a field missing or
            of the wrong type), or a patch that does not fit the view (nothing is taken:
            resync from :attr:`last`, which gets the whole view).
        """
        if not isinstance(message, Mapping):
            raise CorruptStateError(f"a server message is an object, not {shown(message)}")
        kind = message.get("type")
        if kind == "welcome":
            session = _field(message, "session", str)
            seat = _field(message, "seat", int, optional=True)
            phase = _field(message, "phase", str)
            last = _field(message, "last", int, default=self.last)
            token = _field(message, "token", str, optional=True, default=None)
            self.session, self.seat, self.phase = session, seat, phase
            if token is not None:
                self.token = token
            if last < self.last:  # the stream restarted behind what we saw: the whole view
                self.last = last  # (or lobby) that follows is it
            return
        if kind == "error":
            self.errors.append(message)
            return
        if kind == "presence":
            self.presence = message
            return
        if kind == "clocks":  # a clock started again without an action
            self.clocks = _field(message, "clocks", Mapping, optional=True)
            return
        if kind == "closed":  # this connection is closed (and with phase, the session)
            self.phase = _field(message, "phase", str, default=self.phase)
            return
        if kind is not None and type(kind) is not str:  # (a list or a dict: unhashable)
            raise CorruptStateError(f"a message's type must be text, not {shown(kind, 40)}")
        if kind not in STREAM_TYPES:
            return
        n = _field(message, "n", int)
        whole = kind in ("view", "lobby")
        if whole and n >= self.last:  # the whole picture at that number: earlier ones are moot
            pass
        elif n != self.last + 1:
            if n <= self.last:
                return  # a message received twice (two resyncs crossing): already applied
            msg = f"stream message {n} arrived after {self.last}: resync"
            raise StreamGapError(msg)
        if kind == "lobby":
            self.lobby = message
        elif kind == "view":
            self._take_view(message)
        elif kind == "update":
            self._take_update(message)
        elif kind == "takeback":
            op = _field(message, "op", str)
            self.takeback = None if op in ("declined", "cancelled", "expired") else message
        else:  # reveal
            self.bundle = _field(message, "bundle", Mapping, optional=True)
        self.last = n

    def _take_view(self, message: Mapping[str, Any]) -> None:
        view = _field(message, "view", dict, optional=True)
        version = _field(message, "version", int)
        phase = _field(message, "phase", str, default=self.phase)
        clocks = _field(message, "clocks", Mapping, optional=True, default=self.clocks)
        takeback = _field(message, "takeback", Mapping, optional=True, default=None)
        bundle = _field(message, "reveal", Mapping, optional=True, default=None)
        # its own copy, as apply_patch makes: the message may be shared (fed to two mirrors)
        self.view = apply_patch(None, [["set", [], view]])
        self.version, self.phase, self.clocks, self.takeback = version, phase, clocks, takeback
        if bundle is not None:
            self.bundle = bundle

    def _take_update(self, message: Mapping[str, Any]) -> None:
        version = _field(message, "version", int)
        if self.version is not None and version <= self.version:
            # (a later version is fine: a seat whose view failed once gets the changes since
            # its last view in one update, its patch from that view)
            msg = f"update to version {version} after version {self.version}: resync"
            raise StreamGapError(msg)
        patch = _field(message, "patch", list)
        events = _field(message, "events", list)
        action = _field(message, "action", Mapping)
        clocks = _field(message, "clocks", Mapping, optional=True, default=self.clocks)
        view = apply_patch(self.view, patch)  # (a copy: a patch that does not fit changes nothing)
        if not isinstance(view, dict):  # a view is an object, as a 'view' message's must be
            raise CorruptStateError(f"the update to version {version} makes the view {shown(view, 40)}, not an object")
        self.view, self.version, self.clocks = view, version, clocks
        self.events.extend(events)
        self.actions.append(action)
        if isinstance(view, dict) and view.get("is_over"):
            self.phase = "over"


_MISSING = object()


def _field(
    message: Mapping[str, Any],
    key: str,
    kind: type | tuple[type, ...],
    *,
    optional: bool = False,
    default: Any = _MISSING,
) -> Any:
    """``message[key]``, checked to be a *kind* (an int not a bool; ``None`` if *optional*);
    *default* when the key is absent (else it is required).

    :raises CorruptStateError: The key is missing, or its value is of another kind.
    """
    if key not in message:
        if default is _MISSING:
            raise CorruptStateError(f"a {shown(message.get('type'))} message has no {key!r}")
        return default
    value = message[key]
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        msg = f"a {shown(message.get('type'))} message's {key!r} is not valid: {shown(value, 60)}"
        raise CorruptStateError(msg)
    return value
