"""The session tests' harness: a virtual clock, mirrored connections, and a leak check.

:class:`Table` drives one :class:`~cardcore.session.Session` through named
connections on a virtual clock. Every outbound message goes through
:class:`LeakCheck`, which records, straight from the session's game, what each
seat (and a spectator) may see at every version, and checks each message
against it:

* every card a message names must be in a view of that seat (or the
  spectators' view) at some version so far, or in the game's events as that
  seat's redacted copy shows them: visible now, or revealed before;
* after each ``view`` or ``update`` the connection's rebuilt view (its
  :class:`~cardcore.session.Mirror`) equals the seat's view at that version,
  exactly, so nothing else is ever carried;
* an update's events are exactly the game's events of that action, redacted
  for that seat (or for spectators).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cardcore import SPECTATOR, ActionApplied, Event, Game
from cardcore.session import Mirror, Outbound, Session
from cardcore.session.patch import card_words

KEEP = 200
"""Versions of views the check remembers (spectators lag a few actions)."""


class LeakCheck:
    """What each seat may see, recorded from the game as it plays, and the checks."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.game: Game | None = None
        self.views: dict[int, dict[int | None, dict[str, Any]]] = {}
        self.events: dict[int, list[Event]] = {}
        self.allowed: dict[int | None, set[str]] = {s: set() for s in [*range(players), None]}
        self.checked = 0
        self._version = 0

    def attach(self, game: Game | None) -> None:
        """Follow *game* (again after a takeback or a restart swapped it)."""
        if game is None or game is self.game:
            return
        self.game = game
        game.events.subscribe(Event, self._on_event)
        self._record(game)

    def _on_event(self, event: Event) -> None:
        if type(event) is ActionApplied:
            self._version = event.version
            self.events[event.version] = []
            if self.game is not None:
                self._record(self.game)
        else:
            self.events.setdefault(self._version, []).append(event)
            for seat in self.allowed:  # what a seat's redacted events show it, it has seen
                copy = event.for_seat(SPECTATOR if seat is None else seat)
                self.allowed[seat].update(card_words(copy.to_json()))

    def _record(self, game: Game) -> None:
        version = game.version
        views = {s: game.view(s) for s in [*range(self.players), None]}
        self.views[version] = views
        for seat, view in views.items():
            self.allowed[seat].update(card_words(view))
        for old in [v for v in self.views if v < version - KEEP]:
            del self.views[old]
            self.events.pop(old, None)

    def check(self, seat: int | None, message: Mapping[str, Any], mirror: Mirror, echo: str) -> None:
        """Check one message to a connection of *seat* (``None``: a spectator), already fed to *mirror*.

        :param echo: The text the connection itself sent last (an error may quote it).
        """
        self.checked += 1
        kind = message["type"]
        if kind in ("reveal", "record"):
            assert self.game is not None and self.game.is_over, "the deal is revealed only at the end"
            return
        if kind == "view" and message.get("reveal") is not None:
            assert self.game is not None and self.game.is_over
            message = {k: v for k, v in message.items() if k != "reveal"}
        if kind == "history":
            assert self.game is not None
            whole = self.game.history(seat, message["since"])
            assert message["rounds"] == whole[: len(message["rounds"])]
            return
        cards = set(card_words(message))
        if kind == "error":
            cards -= set(card_words(echo))
            # its English names no card: in "the same rank as 6S", "as" reads as AS
            cards -= {w for w in card_words(message.get("message", "")) if w.islower()}
        leaked = cards - self.allowed[seat]
        assert not leaked, f"{leaked} sent to {'a spectator' if seat is None else f'seat {seat}'}: {message}"
        if kind in ("view", "update") and mirror.version is not None:
            expected = self.views.get(mirror.version, {}).get(seat)
            assert expected is not None, f"no recorded view at version {mirror.version}"
            assert mirror.view == expected, f"seat {seat}'s rebuilt view differs at version {mirror.version}"
        if kind == "update":
            redacted = [
                e.for_seat(SPECTATOR if seat is None else seat).to_json()
                for e in self.events.get(message["version"], [])
            ]
            assert message["events"] == redacted, f"events of version {message['version']} for {seat}"


class Table:
    """One session, its connections (each with a :class:`Mirror`) and a virtual clock.

    :param session: The session to drive.
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self.now = session.now
        self.mirrors: dict[str, Mirror] = {}
        self.seats: dict[str, int | None] = {}
        self.echo: dict[str, str] = {}
        self.leaks = LeakCheck(session.players)
        self.leaks.attach(session.game)
        self.outbound: list[Outbound] = []
        self.closed: set[str] = set()

    # -- driving ------------------------------------------------------------------------

    def send(self, conn: str, message: Mapping[str, Any] | str, dt: float = 0.0) -> list[dict[str, Any]]:
        """Send *message* from *conn* after *dt* seconds; return the replies to *conn*."""
        self.now += dt
        text = message if isinstance(message, str) else json.dumps(message)
        self.echo[conn] = text
        if isinstance(message, Mapping):
            if message.get("type") == "join":
                self.seats[conn] = message["seat"]
            elif message.get("type") == "watch":
                self.seats[conn] = None
        return self._take(self.session.handle(conn, text, self.now), conn)

    def tick(self, dt: float = 0.0) -> list[Outbound]:
        """Advance the clock by *dt* and tick the session."""
        self.now += dt
        out = self.session.tick(self.now)
        self._take(out, None)
        return out

    def tick_to_next(self) -> list[Outbound]:
        """Advance to the session's next deadline and tick."""
        deadline = self.session.next_deadline()
        assert deadline is not None, "no clock is running"
        self.now = max(self.now, deadline)
        return self.tick()

    def disconnect(self, conn: str) -> None:
        """The transport lost *conn*: the session forgets it; the client keeps its mirror."""
        self._take(self.session.disconnect(conn, self.now), None)

    def restart(self, session: Session) -> None:
        """The process restarted: every connection is gone; *session* is the resumed one."""
        self.session = session
        self.leaks.attach(session.game)

    def join(self, conn: str, seat: int, **fields: Any) -> list[dict[str, Any]]:
        """Join *seat* as *conn*, resuming with the mirror's token and last number if it has them."""
        mirror = self.mirrors.get(conn)
        message: dict[str, Any] = {"type": "join", "seat": seat, **fields}
        if mirror is not None and mirror.token is not None:
            message.setdefault("token", mirror.token)
            message.setdefault("last", mirror.last)
        return self.send(conn, message)

    def act(self, conn: str, action: str, dt: float = 0.0, *, seen: int | None = None) -> list[dict[str, Any]]:
        """Act as *conn* on its current view (or on version *seen*)."""
        mirror = self.mirrors[conn]
        version = mirror.version if seen is None else seen
        return self.send(conn, {"type": "act", "action": action, "seen": version}, dt)

    def _take(self, out: list[Outbound], conn: str | None) -> list[dict[str, Any]]:
        self.outbound.extend(out)
        self.leaks.attach(self.session.game)
        replies = []
        for o in out:
            message = json.loads(o.text)
            assert message == json.loads(json.dumps(o.message)), "text and message differ"
            mirror = self.mirrors.setdefault(o.conn, Mirror())
            mirror.feed(message)
            seat = self.seats.get(o.conn, message.get("seat") if message["type"] == "welcome" else None)
            self.leaks.check(seat, message, mirror, self.echo.get(o.conn, ""))
            if o.close:
                self.closed.add(o.conn)
            if o.conn == conn:
                replies.append(message)
        return replies

    # -- reading ------------------------------------------------------------------------

    def view(self, conn: str) -> dict[str, Any]:
        """The view *conn* has rebuilt."""
        view = self.mirrors[conn].view
        assert view is not None
        return view

    def legal(self, conn: str) -> list[str]:
        """The legal actions in *conn*'s view."""
        legal: list[str] = self.view(conn)["legal"]
        return legal

    def errors(self, replies: list[dict[str, Any]]) -> list[str]:
        """The error codes among *replies*."""
        return [r["code"] for r in replies if r["type"] == "error"]


def messages(out: list[Outbound], conn: str, kind: str | None = None) -> list[Mapping[str, Any]]:
    """The messages of *out* for *conn* (of one *kind* if given)."""
    return [o.message for o in out if o.conn == conn and (kind is None or o.message["type"] == kind)]


CONNS = "abcd"
"""The connection of each seat in :func:`table` (a spectator is ``"w"``)."""


def table(
    game: str = "golf",
    players: int = 2,
    *,
    options: Mapping[str, Any] | None = None,
    watch: bool = True,
    store: Any = None,
    **config: Any,
) -> Table:
    """A session of *game* with every seat joined (seat *s* as ``CONNS[s]``) and a spectator ``"w"``."""
    from cardcore.session import MemoryStore, SessionConfig

    session = Session.create(
        game,
        players,
        now=0.0,
        options=options,
        config=SessionConfig(**config),
        store=MemoryStore() if store is None else store,
        seed=None if config.get("fair") else 11,
    )
    t = Table(session)
    for seat in range(players):
        t.join(CONNS[seat], seat)
    if watch:
        t.send("w", {"type": "watch"})
    return t
