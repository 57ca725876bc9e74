"""Who is connected, told in the ``presence`` message.

A seat's connection coming or going is told to every connection at once, and
a connection that joins is told who is connected as it joins. A spectator
coming or going alone is told to nobody else: its count rides on the next
``presence`` (a client churning ``watch`` and ``leave`` over many sockets would
otherwise cost every seat one message per frame it sends).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardcore.session.streams import Stream

__all__ = ["Presence"]


class Presence:
    """The ``presence`` part of a session (a base of its flow)."""

    _presence_told: list[bool] | None = None  # the seats' connections everyone was last told

    if TYPE_CHECKING:
        streams: list[Stream]
        spectators: Stream

        def _broadcast(self, message: dict[str, Any]) -> None: ...

        def _send(self, conn: str, message: dict[str, Any], *, close: bool = False) -> None: ...

    def _presence(self, joined: str | None = None) -> None:
        """Tell everyone who is connected if a seat's connection came or went; *joined* always."""
        connected = [bool(stream.conns) for stream in self.streams]
        message = {
            "type": "presence",
            "connected": connected,
            "spectators": len(self.spectators.conns),
        }
        if connected != self._presence_told:
            self._presence_told = connected
            self._broadcast(message)
        elif joined is not None:
            self._send(joined, message)
