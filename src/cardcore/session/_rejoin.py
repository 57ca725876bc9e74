"""Joining: the ``welcome``, and what a connection missed since its ``last``.

A connection that joins (or watches) with ``last`` gets the messages of its
stream after that number from the kept tail, or a fresh ``view`` (a ``lobby``
before the deal) numbered with the stream's current number when that is
shorter, or when the tail does not reach back (or the stream is behind
``last``: a restart from a store that missed its last writes).

A deadline can move with no numbered message telling it: a restart with
``restart="pause"`` moves every clock, the entropy deadline and a pending
takeback's by the downtime, and a timeout that played nothing starts a clock
over (told in an unnumbered ``clocks`` message, which the tail does not keep).
Such a stream is marked (``moved``) until its next numbered message but a
``takeback`` (an ``update``, ``view``, ``lobby`` or ``reveal``) tells every reader the new deadlines; a connection catching up from
the tail meanwhile gets the fresh ``view`` or ``lobby`` after what it missed.
Nothing here is public.
"""

from __future__ import annotations

from typing import Any

from cardcore.session import _integrity as integrity
from cardcore.session.protocol import PROTOCOL, Outbound, ProtocolError, dumps
from cardcore.session.streams import Stream
from cardcore.session.takeback import TakebackFlow

__all__ = ["Rejoin"]


class Rejoin(TakebackFlow):
    """A session's welcomes and catch-ups (see the module docstring)."""

    def _admit(self, conn: str) -> None:
        """Refuse a ``join`` or ``watch`` from *conn* if it has joined, or the session is closed."""
        if conn in self.conns:
            raise ProtocolError("already-joined", "this connection has joined already (send leave first)")
        if self.phase == "closed":
            raise ProtocolError("no-session", f"session {self.id!r} is closed (the host closed it): nobody joins or watches it again")

    def _welcome(self, conn: str, seat: int | None, token: str | None, ref: Any) -> None:
        game = self.game
        stream = self.spectators if seat is None else self.streams[seat]
        message: dict[str, Any] = {
            "type": "welcome",
            "id": ref,
            "protocol": PROTOCOL,
            "session": self.id,
            "role": "spectator" if seat is None else "seat",
            "seat": seat,
            "game": self.setup.game,
            "players": list(self.setup.players),
            "realtime": self.realtime,
            "phase": self.phase,
            "config": self.config.public(),
            "commitment": None if self.fair is None else self.fair.commitment,
            "commitment_format": None if self.fair is None else self.fair.format,
            "schema": None if game is None else game.view_schema(),
            "last": stream.n,
            "server_time": self.now,
        }
        if token is not None:
            message["token"] = token
        self._send(conn, message)

    def _catch_up(self, conn: str, stream: Stream, last: int | None) -> None:
        """Send *conn* what it missed after number *last*, or a fresh view if that is shorter;
        the fresh view after the missed messages if a deadline moved untold (``moved``)."""
        failed = stream is not self.spectators and self.game is not None and not self.views[int(stream.name.split(".")[1])]
        fresh = self._view_message(stream, "resync", stream.n)  # (a view that failed: built again)
        fresh_text = dumps(fresh)
        if last is not None and not failed:  # what it missed holds the failed view: all of it now
            missed = stream.missed(last)
            if missed is not None and sum(len(t) for t in missed) <= len(fresh_text):
                kept = integrity.read_kept(self.id, stream, last, missed)  # None: a row unreadable (logged)
                if kept is not None:
                    self._out.extend(map(Outbound, [conn] * len(kept), kept, missed))
                    if stream.name not in self.moved:
                        return
        self._out.append(Outbound(conn, fresh, fresh_text))

    def _restored(self, shift: float) -> None:
        """Mark the streams whose deadlines a paused restart just moved by *shift* seconds, and
        those whose readers hold an older view than the one rebuilt (a seat whose view failed
        to build before the restart): a reader catching up gets a fresh view after the tail."""
        if self.game is not None:
            for seat, stream in enumerate(self.streams):
                if stream.version is not None and stream.version != self.views[seat].get("version"):
                    self.moved.add(stream.name)
        if shift <= 0:
            return
        if self.phase == "waiting":
            if self.entropy_deadline is not None:
                self.moved.update(s.name for s in [*self.streams, self.spectators])
            return
        for seat, stream in enumerate(self.streams):
            clocks = self.clocks.public(seat)
            if clocks["turn"] or clocks["total"] is not None or self.takeback is not None:
                self.moved.add(stream.name)

    def _as_stored(self, game: Any) -> None:
        """End *game*, rebuilt from a stored session that had ended, as it ended then: at an
        action bound raised since (the record says truncated), spectators' picture too."""
        if self.ended is not None and not game.is_over:  # ended (then perhaps closed)
            game.truncate()
            if self.config.spectators and self.spec.released == game.version:
                self._spec_now = self.spec.view = self._first_view(game, None)
