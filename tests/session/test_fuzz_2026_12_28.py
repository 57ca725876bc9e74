"""A stateful fuzz of the session layer through a :class:`~cardcore.session.Hub` (2026-12-28).

``test_stateful_2026_12_03`` drives one :class:`~cardcore.session.Session` with a fixed list
of hostile texts and checks each seat's mirror against the game; ``test_fuzz`` throws random
JSON at ``handle``. This module drives a *hub* holding two sessions (the game under test,
Golf, Tonk, Spit or Speed, and a Golf table beside it) in-process on a virtual clock, with
messages drawn from the current state: the seat's own legal actions, another seat's, stale,
future and absurd ``seen``, the right token, another seat's or another session's, ``last``
far ahead or behind, ``session`` naming the other table, duplicate keys and ids, values of
the wrong kind, messages before a join and after the end, as text, UTF-8 bytes or a dict.
After every call:

1. nothing escapes as an exception; a refused message is exactly one ``error`` (a known
   code, a message) to its sender, and changes nothing in either session: phase, version,
   record, every stream's number and kept tail, tokens, takeback, connections, deadlines;
2. every card is in exactly one place (:func:`cardcore.testing.assert_conserved`);
3. no frame names a card its reader could not know *at the version the frame is about*:
   an ``update`` of version v only cards of that seat's view at v - 1 or v or of its
   redacted events of v; a ``view`` only cards of that seat's view at its version (a
   spectator: the spectators' view); any other frame only cards of the reader's current
   view (and of the text it sent); a ``record`` or ``reveal`` only at the end. The views
   and events per version come from a replay of the record (an independent copy of the
   game, rebuilt after every call), not from the session's own cache;
4. each connection's numbered messages are gap-free (n = last + 1) except a fresh ``view``
   or ``lobby`` (reason ``resync``) at the stream's number; a join or resync with ``last``
   gets exactly the missed texts (the same texts first sent) or a fresh view, and ends at
   the stream's number; every joined mirror then equals the game's view of its seat;
5. the record of each session replays to the same views; in real time each action's
   stamp is the time of the call that played it (never later than the clock).

The ``test_the_check_catches_*`` tests plant a fault in a hub's answers (a hidden card, a
dropped message, a refusal that changes the session, a card lost) and show that the checks
above fail on it. Minimal reproductions of what the fuzz found are plain tests at the end.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from cardcore import SPECTATOR, ActionApplied, Event, game_info
from cardcore.records import replay
from cardcore.session import Hub, Limits, Mirror, Outbound, Session, SessionConfig, TimeControl
from cardcore.session.patch import card_words
from cardcore.session.protocol import ERROR_CODES, dumps
from cardcore.testing import assert_conserved

GAMES = ("golf", "tonk", "spit", "speed")
OPTIONS: dict[str, dict[str, Any]] = {
    "golf": {"rounds": 1},
    "tonk": {"hands": 3},
    "spit": {},
    "speed": {},
}
LIMITS = Limits(rate=1e6, burst=10**6)
CONNS = ("a0", "a1", "b0", "w0", "o0", "x")
"""Seat 0 of the main table twice, seat 1, a spectator, seat 0 of the other table, a stranger."""
INTENT: dict[str, tuple[str, int | None]] = {
    "a0": ("main", 0),
    "a1": ("main", 0),
    "b0": ("main", 1),
    "w0": ("main", None),
    "o0": ("other", 0),
}
JUNK_ACTIONS = [
    "",
    " ",
    "flip 99",
    "play ZZ",
    "discard 1X",
    "draw draw",
    "x" * 200,
    "🂡",
    "DRAW  ",
    "ready",
    "stuck",
]
BIG = [2**53, 2**53 + 1, 10**30, -1, 1e300, 1.5, True, "3", None]
IDS = [1, "QS", "7H 8H", 2**53, -(2**52), "x" * 64, "x" * 65, [], 1.0]


FIGURES: Counter[str] = Counter()
"""What the fuzz did, over every example of :func:`test_hub_fuzz` (checked by it at the end)."""


class Fault(AssertionError):
    """An invariant broken (kept apart so the planted-fault tests can expect it)."""


def _check(ok: Any, why: str) -> None:
    if not ok:
        raise Fault(why)


# -- what each seat may know, from an independent replay ---------------------------------------


class Knowledge:
    """Per version of one session's game: the card words of each seat's view (and the
    spectators'), and of each seat's redacted events of the action that made the version.
    Rebuilt from the record with :meth:`GameSetup.build`, a copy the session never touches;
    kept as a union over takebacks (a version rebuilt after a takeback is the same state)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.seats: list[int | None] = [*range(session.players), None]
        self.views: dict[int, dict[int | None, set[str]]] = {}
        self.events: dict[int, dict[int | None, set[str]]] = {}
        self._record: list[tuple[int, str, Any]] | None = None
        self._copy: Any = None
        self._pending: list[Event] = []

    def refresh(self) -> None:
        s = self.session
        game = s.game
        if game is None:
            return
        record = [(seat, str(action), at) for seat, action, at in game.record_entries()]
        if record == self._record:
            return
        old, self._record = self._record, record
        copy = self._copy
        if copy is not None and old is not None and record[: len(old)] == old:
            try:  # the record grew: play the new actions on the kept copy
                for seat, text, at in record[len(old) :]:
                    copy.act(seat, text, at=at)
                    self._after(copy)
            except Exception:
                copy = None
            else:
                _check(
                    copy.version == game.version, "the record does not replay to the game's version"
                )
                return
        seed = s.fair.seed if s.fair is not None else (s.seed or 0)
        self._pending.clear()
        self._copy = s.setup.build(
            seed, record, [(Event, self._pending.append)], after_each=self._after, chance=s.chance
        )
        _check(
            self._copy.version == game.version, "the record does not replay to the game's version"
        )

    def _after(self, copy: Any) -> None:
        v = copy.version
        views = self.views.setdefault(v, {x: set() for x in self.seats})
        events = self.events.setdefault(v, {x: set() for x in self.seats})
        for x in self.seats:
            words = set(card_words(copy.view(x)))
            views[x] |= words
            for e in self._pending:
                if type(e) is not ActionApplied:
                    events[x] |= set(
                        card_words(e.for_seat(SPECTATOR if x is None else x).to_json())
                    )
        self._pending.clear()

    def upto(self, seat: int | None, version: int) -> set[str]:
        """Every card *seat*'s view showed at some version up to *version*."""
        out: set[str] = set()
        for v in range(version + 1):
            out |= self.views.get(v, {}).get(seat, set())
        return out

    def allowed(self, seat: int | None, version: int, *, before: bool) -> set[str]:
        """The cards *seat* may be shown in a frame about *version*: its view then (and just
        before, for an update). With *before*, its events of the action may also name a card
        its view showed earlier, or one the action turned up for everyone (its public copy
        names it: a Spit chain of spits shows each spat card, covered at once); however a
        seat's own copy of an event is redacted, never another card."""
        out = set(self.views.get(version, {}).get(seat, set()))
        if before:
            out |= self.views.get(version - 1, {}).get(seat, set())
            public = self.events.get(version, {}).get(None, set())
            out |= self.events.get(version, {}).get(seat, set()) & (
                self.upto(seat, version) | public
            )
        return out


def _words(
    message: Any, drop: tuple[str, ...] = ("id", "token", "commitment", "session", "players")
) -> set[str]:
    if isinstance(message, dict):
        message = {k: v for k, v in message.items() if k not in drop}
    return set(card_words(message))


# -- the world: a hub, two sessions, clients, and every check -----------------------------------


class Client:
    def __init__(self) -> None:
        self.mirror = Mirror()
        self.session: str | None = None
        self.seat: int | None = None
        self.cursor: int | None = 0
        self.echo = ""
        self.fresh: tuple[int | None, int, str, str] | None = None
        """The last fresh view or lobby: (the number before it, its length, session, stream)."""
        self.home: tuple[str, int | None] | None = None
        """The session and seat of its last welcome (kept across a disconnect, as a client does)."""


class World:
    """A hub with the ``main`` table (the game under test) and an ``other`` Golf table."""

    def __init__(
        self, game: str, *, clock: float | None, delay: int, keep: int, takebacks: bool
    ) -> None:
        self.game_name = game
        self.realtime = game_info(game).realtime
        self.hub = Hub(limits=LIMITS)
        config = SessionConfig(
            time=TimeControl(turn=clock),
            spectator_delay=delay,
            resync_keep=keep,
            takebacks=takebacks,
            limits=LIMITS,
        )
        self.hub.create(
            game,
            ["Ann", "Bob"],
            now=0.0,
            options=OPTIONS[game],
            seed=5,
            config=config,
            session_id="main",
        )
        self.hub.create(
            "golf", ["Cy", "Di"], now=0.0, options={"rounds": 1}, seed=3, session_id="other"
        )
        self.know = {sid: Knowledge(s) for sid, s in self.hub.sessions.items()}
        self.clients = {c: Client() for c in CONNS}
        self.tokens: dict[tuple[str, int], str] = {}
        self.texts: dict[tuple[str, str], dict[int, str]] = {}
        self.now = 1.0
        self.deck: dict[str, Counter[str]] = {}
        self.replayed: dict[str, Any] = {}

    def realtime_of(self, conn: str) -> bool:
        sid = self.clients[conn].session
        return sid is not None and self.hub.sessions[sid].realtime

    @property
    def main(self) -> Session:
        return self.hub.sessions["main"]

    # -- pictures ---------------------------------------------------------------------------

    def picture(self) -> Any:
        out = []
        for sid, s in sorted(self.hub.sessions.items()):
            game = s.game
            out.append(
                (
                    sid,
                    s.phase,
                    None if game is None else game.version,
                    None if game is None else [(a, str(b), c) for a, b, c in game.record_entries()],
                    [(x.name, x.n, list(x.tail)) for x in [*s.streams, s.spectators]],
                    s.spec.released,
                    sorted((seat, row.digest) for seat, row in s.tokens.items()),
                    json.dumps(s.takeback, sort_keys=True),
                    sorted(s.conns),
                    s.next_deadline(),
                )
            )
        return out

    # -- calls ------------------------------------------------------------------------------

    def send(self, conn: str, message: Any, *, form: str = "text") -> list[dict[str, Any]]:
        """Send *message* (a dict, or raw text) from *conn*; check everything; return its replies."""
        self.tick()
        if isinstance(message, dict) and form == "text":
            raw: Any = json.dumps(message)
        elif isinstance(message, dict) and form == "bytes":
            raw = json.dumps(message).encode("utf-8")
        else:
            raw = message
        self.clients[conn].echo = (
            raw
            if isinstance(raw, str)
            else json.dumps(message)
            if isinstance(message, dict)
            else str(raw)
        )
        before = self.picture()
        numbers = {
            sid: [x.n for x in [*s.streams, s.spectators]] for sid, s in self.hub.sessions.items()
        }
        try:
            out = self.hub.handle(conn, raw, self.now)
        except Exception as exc:  # the failure invariant 1 exists for
            raise Fault(f"{type(exc).__name__} escaped the hub: {exc!r}") from exc
        errors = [o for o in out if o.message.get("type") == "error"]
        FIGURES["calls"] += 1
        if errors:
            FIGURES["refused"] += 1
            FIGURES[f"error {errors[0].message.get('code')}"] += 1
            _check([o.conn for o in out] == [conn], f"a refusal is one error to its sender: {out}")
            e = errors[0].message
            _check(
                e["code"] in ERROR_CODES and e["code"] != "internal", f"error code {e['code']!r}"
            )
            _check(isinstance(e["message"], str) and len(e["message"]) > 5, f"error message {e!r}")
            _check(self.picture() == before, f"a refused {str(raw)[:200]} changed a session: {e}")
        for o in errors:  # the rule an act's error cites (docs: the protocol's error codes)
            e = o.message
            if e["code"] == "illegal":
                _check(isinstance(e.get("rule"), str), f"an illegal action names no rule: {e}")
            if e["code"] == "stale":
                rules = (
                    ("CORE-RT-1", "CORE-RT-3") if self.realtime_of(conn) else (None, "CORE-RT-3")
                )
                _check(e.get("rule") in rules, f"a stale error cites {e.get('rule')!r}: {e}")
        if isinstance(message, dict) and "id" in message:  # a valid id is echoed in the reply
            ref = message["id"]
            valid = (type(ref) is int and abs(ref) < 2**53) or (type(ref) is str and len(ref) <= 64)
            for o in out:
                if o.conn == conn and o.message["type"] in (
                    "error",
                    "welcome",
                    "ok",
                    "pong",
                    "history",
                    "record",
                ):
                    _check(
                        o.message.get("id") == (ref if valid else None),
                        f"id {ref!r} answered {o.message}",
                    )
        catchup = None
        if (
            not errors
            and isinstance(message, dict)
            and message.get("type") in ("join", "watch", "resync")
        ):
            catchup = (message["type"], message.get("last"))
        self.take(out, sender=conn, catchup=catchup, numbers=numbers)
        return [o.message for o in out if o.conn == conn]

    def tick(self, dt: float = 0.0) -> None:
        self.now += dt
        numbers = {
            sid: [x.n for x in [*s.streams, s.spectators]] for sid, s in self.hub.sessions.items()
        }
        try:
            out = self.hub.tick(self.now)
        except Exception as exc:
            raise Fault(f"{type(exc).__name__} escaped the hub's tick: {exc!r}") from exc
        self.take(out, numbers=numbers)

    def disconnect(self, conn: str) -> None:
        numbers = {
            sid: [x.n for x in [*s.streams, s.spectators]] for sid, s in self.hub.sessions.items()
        }
        self.take(self.hub.disconnect(conn, self.now), numbers=numbers)
        _check(not self.hub.joined(conn), f"{conn} still routed after its disconnect")
        self.clients[conn].session = None

    def end_main(self) -> None:
        numbers = {
            sid: [x.n for x in [*s.streams, s.spectators]] for sid, s in self.hub.sessions.items()
        }
        self.take(self.main.end(self.now), numbers=numbers)

    # -- checking what went out ---------------------------------------------------------------

    def take(
        self,
        out: list[Outbound],
        *,
        sender: str | None = None,
        catchup: tuple[str, Any] | None = None,
        numbers: dict[str, list[int]],
    ) -> None:
        """Check and deliver *out*; *catchup*: the sender's successful join, watch or resync
        (its type and its ``last``)."""
        for k in self.know.values():
            k.refresh()
        if sender is not None:
            self.clients[sender].fresh = None
        if catchup is not None and catchup[0] == "resync" and sender is not None:
            self._expect(self.clients[sender], catchup[1], numbers)
        for o in out:
            _check(json.loads(o.text) == json.loads(dumps(o.message)), "text and message differ")
            _check(o.conn in self.clients, f"a message to an unknown connection {o.conn!r}")
            client = self.clients[o.conn]
            message = json.loads(o.text)
            kind = message["type"]
            if kind == "welcome":
                last = catchup[1] if catchup is not None and o.conn == sender else None
                if last is None or client.home != (message["session"], message["seat"]):
                    client.mirror = Mirror()  # a client joining without its last starts afresh
                client.session, client.seat = message["session"], message["seat"]
                client.home = (client.session, client.seat)
                if "token" in message:
                    self.tokens[(client.session, client.seat)] = message["token"]
                self._expect(client, last, numbers)
            self.check_frame(o.conn, client, message, o.text)
            client.mirror.feed(message)
            if kind == "closed":
                client.session = None
        if catchup is not None and sender is not None:
            client = self.clients[sender]
            sid = client.session
            _check(sid is not None, f"{sender}'s {catchup[0]} was answered but it reads no stream")
            assert sid is not None
            stream = numbers[sid][client.seat if client.seat is not None else -1]
            _check(
                client.cursor is not None and client.cursor >= stream,
                f"{sender} caught up to {client.cursor}, the stream was at {stream}",
            )
            FIGURES[f"catch-up {catchup[0]}"] += 1
            self._shorter(client, catchup[1], stream)
        for conn, reader in self.clients.items():
            if not self.hub.joined(conn):
                reader.session = None

    def _shorter(self, client: Client, last: Any, upto: int) -> None:
        """A fresh view given instead of missed messages the tail kept (all of whose texts this
        test saw) must be shorter than they are together (docs: "when that is shorter")."""
        if client.fresh is None or type(last) is not int or client.fresh[0] != last or last >= upto:
            return
        _, length, sid, name = client.fresh
        s = self.hub.sessions[sid]
        texts = self.texts.get((sid, name), {})
        missed = [texts.get(n) for n in range(last + 1, upto + 1)]
        if last < upto - s.config.resync_keep or None in missed:
            return
        FIGURES["fresh views judged shorter"] += 1
        total = sum(len(t) for t in missed if t is not None)
        _check(
            length < total, f"a fresh view of {length} characters, not {total} of missed messages"
        )

    def _expect(self, client: Client, last: Any, numbers: dict[str, list[int]]) -> None:
        """After a join or resync with *last*: the missed messages follow, or a fresh view."""
        sid = client.session
        if sid is None:
            return
        stream = numbers[sid][client.seat if client.seat is not None else -1]
        client.cursor = last if type(last) is int and last <= stream else None

    def check_frame(self, conn: str, client: Client, message: dict[str, Any], text: str) -> None:
        kind = message["type"]
        sid = client.session
        if sid is None or sid not in self.hub.sessions:
            _check(
                "n" not in message,
                f"a numbered message to {conn}, which reads no stream: {message}",
            )
            return
        s = self.hub.sessions[sid]
        seat = client.seat
        know = self.know[sid]
        # -- invariant 3: hidden cards ----------------------------------------------------
        if kind in ("reveal", "record"):
            _check(s.phase in ("over", "closed"), f"a {kind} before the end")
        elif kind == "view" or kind == "update":
            body = {k: v for k, v in message.items() if k != "reveal"}
            if message.get("reveal") is not None:
                _check(s.phase == "over", "a reveal before the end")
            v = message["version"]
            leaked = _words(body) - know.allowed(seat, v, before=kind == "update")
            _check(
                not leaked,
                f"{leaked} sent to {conn} (seat {seat}) in a {kind} of version {v}: {text[:3000]}",
            )
        elif kind == "history":
            upto = (
                s.spec.released if seat is None else (s.game.version if s.game is not None else 0)
            )
            leaked = _words(message) - know.upto(seat, upto)
            _check(not leaked, f"{leaked} sent to {conn} in a history")
        elif s.game is not None:
            allowed = know.allowed(seat, s.game.version, before=False)
            if seat is None:
                allowed = know.allowed(None, s.spec.released, before=False)
            words = _words(message) - set(card_words(client.echo))
            if kind == "error":
                words -= {w for w in card_words(message.get("message", "")) if w.islower()}
            leaked = words - allowed
            _check(not leaked, f"{leaked} sent to {conn} (seat {seat}) in a {kind}: {message}")
        # -- invariant 4: numbering -------------------------------------------------------
        if "n" not in message:
            return
        n = message["n"]
        stream = s.spectators if seat is None else s.streams[seat]
        fresh = kind == "lobby" or (kind == "view" and message.get("reason") == "resync")
        if fresh and (client.cursor is None or n >= client.cursor):
            FIGURES["fresh views"] += 1
            client.fresh = (client.cursor, len(text), sid, stream.name)
            _check(
                n <= stream.n, f"{conn}: a fresh {kind} numbered {n} beyond the stream's {stream.n}"
            )
            client.cursor = n
            return
        _check(
            client.cursor is not None and n == client.cursor + 1,
            f"{conn}: stream message {n} after {client.cursor}: {text[:200]}",
        )
        kept = self.texts.setdefault((sid, stream.name), {})
        if kind == "lobby":
            pass
        elif n in kept:
            FIGURES["resent texts compared"] += 1
            _check(
                kept[n] == text, f"{conn}: message {n} of {stream.name} is not the text first sent"
            )
        else:
            kept[n] = text
        client.cursor = n

    # -- invariants after every step ----------------------------------------------------------

    def check_state(self) -> None:
        for sid, s in self.hub.sessions.items():
            game = s.game
            if game is None:
                continue
            assert_conserved(game)  # invariant 2
            cards = Counter(str(c) for pile in game.state.zones.cards for c in pile)
            self.deck.setdefault(sid, cards)
            _check(cards == self.deck[sid], f"{sid}: the cards on the table changed")
            record = game.record()
            if self.replayed.get(sid) != record:  # invariant 5 (once per record)
                self.replayed[sid] = record
                again = replay(record)
                _check(
                    again.version == game.version, f"{sid}: the record replays to another version"
                )
                for seat in [*range(s.players), None]:
                    _check(
                        again.view(seat) == game.view(seat),
                        f"{sid}: the record replays otherwise for {seat}",
                    )
            times = [at for _, _, at in game.record_entries() if at is not None]
            _check(
                times == sorted(times) and all(t <= self.now for t in times),
                f"{sid}: stamps {times}",
            )
        for conn, client in self.clients.items():  # invariant 4: what each reader rebuilt
            sid = client.session
            if (
                sid is None
                or sid not in self.hub.sessions
                or conn not in self.hub.sessions[sid].conns
            ):
                continue
            s = self.hub.sessions[sid]
            c = s.conns[conn]
            _check(
                client.mirror.last == c.stream.n == client.cursor,
                f"{conn} at {client.cursor}, stream {c.stream.n}",
            )
            if s.game is None:
                continue
            if c.seat is None:
                _check(client.mirror.view == s.spec.view, f"{conn}'s spectator view differs")
            else:
                _check(
                    client.mirror.version == s.game.version,
                    f"{conn} at version {client.mirror.version}",
                )
                _check(client.mirror.view == s.game.view(c.seat), f"{conn}'s rebuilt view differs")


# -- the state machine ------------------------------------------------------------------------


class HubMachine(RuleBasedStateMachine):
    world: World

    GAME = "golf"
    """The game of the main table (one machine per game, so each gets its share)."""

    @initialize(
        clock=st.sampled_from([None, 20.0]),
        delay=st.sampled_from([0, 2]),
        keep=st.sampled_from([256, 2]),
        takebacks=st.booleans(),
        seated=st.sampled_from([True, True, True, False]),
    )
    def create(
        self, clock: float | None, delay: int, keep: int, takebacks: bool, seated: bool
    ) -> None:
        self.world = World(self.GAME, clock=clock, delay=delay, keep=keep, takebacks=takebacks)
        if seated:
            for conn in ("a0", "b0", "w0", "o0"):
                self.join(conn, True)

    @property
    def w(self) -> World:
        return self.world

    def _join_message(self, conn: str, resume: bool) -> dict[str, Any]:
        sid, seat = INTENT[conn]
        client = self.w.clients[conn]
        message: dict[str, Any] = (
            {"type": "watch", "session": sid}
            if seat is None
            else {"type": "join", "seat": seat, "session": sid}
        )
        token = None if seat is None else self.w.tokens.get((sid, seat))
        if token is not None:
            message["token"] = token
        if resume and client.cursor is not None and client.mirror.session is not None:
            message["last"] = client.cursor
        return message

    @rule(conn=st.sampled_from(list(INTENT)), resume=st.booleans())
    def join(self, conn: str, resume: bool) -> None:
        was = self.w.hub.joined(conn)
        replies = self.w.send(conn, self._join_message(conn, resume))
        codes = [r["code"] for r in replies if r["type"] == "error"]
        if was:
            _check(
                codes == ["already-joined"] or codes == ["no-session"],
                f"{conn} joined twice: {replies}",
            )
        elif self.w.main.phase != "closed":
            _check(
                codes in ([], ["full"], ["game-over"], ["token-expired"]),
                f"{conn} could not join: {replies}",
            )

    @rule(conn=st.sampled_from(CONNS))
    def leave(self, conn: str) -> None:
        self.w.send(conn, {"type": "leave"})
        _check(not self.w.hub.joined(conn), f"{conn} still routed after leave")

    @rule(conn=st.sampled_from(CONNS))
    def disconnect(self, conn: str) -> None:
        self.w.disconnect(conn)

    @rule(dt=st.sampled_from([0.5, 5.0, 21.0, 45.0]))
    def tick(self, dt: float) -> None:
        self.w.tick(dt)

    def _legal(self, conn: str) -> list[str]:
        view = self.w.clients[conn].mirror.view or {}
        legal = view.get("legal") or []
        return list(legal)

    @precondition(lambda self: self.world.main.phase == "playing")
    @rule(
        picks=st.lists(
            st.tuples(st.sampled_from(["a0", "a1", "b0"]), st.integers(0, 99)),
            min_size=1,
            max_size=10,
        )
    )
    def play(self, picks: list[tuple[str, int]]) -> None:
        for conn, which in picks:
            if (
                self.w.main.phase != "playing"
                or not self.w.hub.joined(conn)
                or self.w.clients[conn].session != "main"
            ):
                continue
            legal = self._legal(conn)
            if not legal:
                continue
            action = legal[which % len(legal)]
            if action == "drop" and which % 5:  # Tonk: a drop ends the hand; not too often
                action = legal[(which + 1) % len(legal)]
            mirror = self.w.clients[conn].mirror
            replies = self.w.send(conn, {"type": "act", "action": action, "seen": mirror.version})
            codes = [r["code"] for r in replies if r["type"] == "error"]
            _check(
                codes == [], f"{conn} played {action!r} from its up-to-date legal list: {replies}"
            )
            FIGURES[f"{self.w.game_name} actions"] += 1
            game = self.w.main.game
            assert game is not None
            seat, played, at = game.record_entries()[-1]
            _check(
                (seat, at) == (INTENT[conn][1], self.w.now),
                f"{played} by {conn} recorded for seat {seat} at {at}, sent at {self.w.now}",
            )

    @precondition(lambda self: self.world.main.phase == "playing")
    @rule(
        picks=st.lists(
            st.tuples(st.sampled_from(["a0", "b0"]), st.integers(0, 99)), min_size=5, max_size=30
        )
    )
    def play_more(self, picks: list[tuple[str, int]]) -> None:
        self.play(picks)

    @precondition(lambda self: self.world.main.phase == "playing")
    @rule(op=st.sampled_from(["accept", "decline"]))
    def ask_back(self, op: str) -> None:
        game = self.w.main.game
        if game is None or not game.record_entries():
            return
        seat = game.record_entries()[-1][0]
        mine = [
            c
            for c in ("a0", "a1", "b0")
            if INTENT[c][1] == seat and self.w.clients[c].session == "main"
        ]
        others = [
            c for c in ("a0", "b0") if INTENT[c][1] != seat and self.w.clients[c].session == "main"
        ]
        if mine:
            replies = self.w.send(mine[0], {"type": "takeback", "op": "request"})
            if others and not [r for r in replies if r["type"] == "error"]:
                self.w.send(others[0], {"type": "takeback", "op": op})

    @precondition(
        lambda self: (
            self.world.main.phase == "playing"
            and self.world.main.game is not None
            and self.world.main.game.version >= 15
        )
    )
    @rule()
    def host_ends(self) -> None:
        self.w.end_main()
        _check(self.w.main.phase == "over", "the host's end did not end the game")

    @precondition(lambda self: self.world.main.game is not None)
    @rule(
        conn=st.sampled_from(["a0", "b0", "w0"]),
        whose=st.sampled_from(["mine", "theirs", "junk"]),
        which=st.integers(0, 99),
        back=st.sampled_from([0, 0, 1, 3, 40, -1]),
        seat=st.sampled_from([None, None, "mine", "theirs"]),
    )
    def hostile_act(self, conn: str, whose: str, which: int, back: int, seat: str | None) -> None:
        """An action of this seat, of the other seat or junk, on a current, stale, very old or
        future view, perhaps naming a seat."""
        game = self.w.main.game
        assert game is not None
        other = "b0" if conn == "a0" else "a0"
        pool = {"mine": self._legal(conn), "theirs": self._legal(other), "junk": JUNK_ACTIONS}[
            whose
        ]
        action = (pool or JUNK_ACTIONS)[which % len(pool or JUNK_ACTIONS)]
        message: dict[str, Any] = {
            "type": "act",
            "action": action,
            "seen": max(0, game.version - back),
        }
        if seat is not None:
            message["seat"] = INTENT[conn if seat == "mine" else other][1] or 0
        client = self.w.clients[conn]
        seated = client.session == "main" and client.seat is not None and 0 < len(action) <= 200
        playing = self.w.main.phase == "playing"
        replies = self.w.send(conn, message)
        codes = [r["code"] for r in replies if r["type"] == "error"]
        if seated and seat == "theirs":
            _check(codes == ["not-your-seat"], f"another seat's act: {replies}")
        elif seated and playing and back == -1:
            _check(codes == ["bad-message"], f"an act on a view of the future: {replies}")

    @precondition(lambda self: self.world.main.game is not None)
    @rule(
        picks=st.lists(
            st.tuples(
                st.sampled_from(["a0", "b0"]),
                st.sampled_from(["mine", "theirs", "junk"]),
                st.integers(0, 99),
            ),
            min_size=1,
            max_size=6,
        ),
        back=st.sampled_from([0, 1, 3]),
    )
    def hostile_acts(self, picks: list[tuple[str, str, int]], back: int) -> None:
        for conn, whose, which in picks:
            self.hostile_act(conn, whose, which, back, None)

    @rule(conn=st.sampled_from(["a0", "a0", "b0", "b0", *CONNS]), data=st.data())
    def hostile(self, conn: str, data: st.DataObject) -> None:
        message, form = data.draw(self._hostile(conn))
        self.w.send(conn, message, form=form)

    def _hostile(self, conn: str) -> st.SearchStrategy[tuple[Any, str]]:
        w = self.w
        client = w.clients[conn]
        game = w.main.game
        version = 0 if game is None else game.version
        mine = self._legal(conn)
        theirs = [a for c in ("a0", "b0") if c != conn for a in self._legal(c)]
        actions = st.sampled_from(
            [*JUNK_ACTIONS, "resign", *(mine[:8] * 2), *(theirs[:8] * 2)]
        ) | st.text(max_size=12)
        seens = st.sampled_from(
            [version] * 6 + [max(0, version - 1), max(0, version - 3), 0, version + 1, *BIG]
        )
        lasts = st.sampled_from(
            [
                client.cursor or 0,
                max(0, (client.cursor or 0) - 2),
                0,
                (client.cursor or 0) + 1,
                *BIG,
            ]
        )
        tokens = st.sampled_from([*w.tokens.values(), "x" * 43, "", "y" * 129, 5])
        seats = st.sampled_from([0, 1, 2, 63, 64, -1, "0", True, 1.0])
        sessions = st.sampled_from(["main", "other", "nope", "", 5])

        @st.composite
        def one(draw: st.DrawFn) -> tuple[Any, str]:
            kind = draw(
                st.sampled_from(
                    [
                        "join",
                        "watch",
                        "act",
                        "act",
                        "act",
                        "resync",
                        "takeback",
                        "history",
                        "record",
                        "ping",
                        "leave",
                        "entropy",
                        "raw",
                    ]
                )
            )
            if kind == "raw":
                raw = draw(
                    st.sampled_from(
                        [
                            "{",
                            "[]",
                            "null",
                            '{"type": "act", "action": "draw", "seen": 0, "seen": 1}',
                            '{"type": "ping", "id": 1, "id": 2}',
                            '{"type": "join", "seat": 0, "seat": 1}',
                            '{"type": "ping", "t": NaN}',
                            '{"type": "resync", "last": 1e999}',
                            '{"type": "act", "action": "\\ud800", "seen": 0}',
                            "\ufeff{}",
                        ]
                    )
                    | st.binary(max_size=30)
                )
                return raw, "raw"
            message: dict[str, Any] = {"type": kind}
            if kind == "join":
                message["seat"] = draw(seats)
                if draw(st.booleans()):
                    message["token"] = draw(tokens)
                if draw(st.booleans()):
                    message["last"] = draw(lasts)
            elif kind == "watch" and draw(st.booleans()):
                message["last"] = draw(lasts)
            elif kind == "act":
                message["action"] = draw(actions)
                message["seen"] = draw(seens)
                if draw(st.booleans()):
                    message["seat"] = draw(seats)
            elif kind == "resync":
                message["last"] = draw(lasts)
            elif kind == "takeback":
                message["op"] = draw(st.sampled_from(["request", "accept", "decline", "maybe", 1]))
            elif kind == "history" and draw(st.booleans()):
                message["since"] = draw(st.sampled_from([0, 1, 5, *BIG]))
            elif kind == "ping" and draw(st.booleans()):
                message["t"] = draw(st.sampled_from([0.5, 1e308, 2**1100, "t", None]))
            elif kind == "entropy":
                message["value"] = draw(st.sampled_from(["dice", "", "z" * 129]))
            if draw(st.integers(0, 5)) == 0:
                message["session"] = draw(sessions)
            if draw(st.integers(0, 5)) == 0:
                message["id"] = draw(st.sampled_from(IDS))
            if draw(st.integers(0, 9)) == 0:
                message[draw(st.sampled_from(["extra", "Seat", "n", "version", "type2"]))] = draw(
                    st.sampled_from([0, "x", None])
                )
            form = draw(st.sampled_from(["text", "text", "bytes", "dict"]))
            return message, form

        return one()

    @invariant()
    def state_holds(self) -> None:
        if hasattr(self, "world"):
            self.w.check_state()

    def teardown(self) -> None:
        if hasattr(self, "world"):
            FIGURES["examples"] += 1
            FIGURES[f"{self.w.game_name} over"] += self.w.main.phase == "over"
            FIGURES["max version"] = max(
                FIGURES["max version"], 0 if self.w.main.game is None else self.w.main.game.version
            )


SETTINGS = settings(
    max_examples=int(os.environ.get("HUB_FUZZ_EXAMPLES", "20")),
    stateful_step_count=int(os.environ.get("HUB_FUZZ_STEPS", "40")),
    deadline=None,
    derandomize=not os.environ.get("HUB_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=list(HealthCheck),
)
"""Deterministic and quick (about 5 s of CPU); ``HUB_FUZZ_EXAMPLES=2000 HUB_FUZZ_RANDOM=1``
hunts longer."""


MACHINES = {
    game: type(f"Hub{game.title()}Machine", (HubMachine,), {"GAME": game}) for game in GAMES
}


@pytest.mark.parametrize("game", GAMES)
def test_hub_fuzz(game: str) -> None:
    """The machine, then what it did: the game played and ended, hostile messages of every
    kind refused, catch-ups served from resent texts and from fresh views (run with ``-s``
    to see the figures)."""
    codes = (
        "bad-json",
        "bad-message",
        "not-joined",
        "already-joined",
        "no-session",
        "not-your-seat",
    )
    FIGURES.clear()
    run_state_machine_as_test(MACHINES[game], settings=SETTINGS)
    if not all(FIGURES[f"error {code}"] for code in codes):  # a rare message went unsent in
        # this process (seen once in a run of many tests, never alone): more examples
        FIGURES.clear()
        more = settings(SETTINGS, max_examples=3 * (SETTINGS.max_examples or 20))
        run_state_machine_as_test(MACHINES[game], settings=more)
    print(game, dict(sorted(FIGURES.items())))
    assert FIGURES[f"{game} actions"] >= 20 and FIGURES[f"{game} over"] >= 1
    for code in codes:
        assert FIGURES[f"error {code}"] >= 1, code
    assert FIGURES["error illegal"] + FIGURES["error stale"] + FIGURES["error notation"] >= 3
    assert FIGURES["refused"] * 5 >= FIGURES["calls"] >= 150
    assert FIGURES["catch-up join"] >= 10 and FIGURES["catch-up watch"] >= 1
    assert FIGURES["fresh views"] >= 10


# -- each check can fail: faults planted in the hub's answers -----------------------------------


def _seated(game: str = "golf") -> World:
    world = World(game, clock=None, delay=0, keep=256, takebacks=True)
    for conn in ("a0", "b0", "w0"):
        sid, seat = INTENT[conn]
        message = (
            {"type": "watch", "session": sid}
            if seat is None
            else {"type": "join", "seat": seat, "session": sid}
        )
        world.send(conn, message)
    world.check_state()
    return world


def _act(world: World, conn: str) -> list[dict[str, Any]]:
    mirror = world.clients[conn].mirror
    legal = (mirror.view or {})["legal"]
    return world.send(conn, {"type": "act", "action": legal[0], "seen": mirror.version})


def _planted(world: World, change: Any) -> None:
    real = world.hub.handle

    def handle(conn: str, raw: Any, now: float) -> list[Outbound]:
        return change(conn, raw, now, real(conn, raw, now))

    world.hub.handle = handle  # type: ignore[method-assign]


def _reworded(o: Outbound, message: dict[str, Any]) -> Outbound:
    return Outbound(o.conn, message, dumps(message), o.close)


def test_the_check_catches_a_hidden_card_in_an_update() -> None:
    world = _seated()
    game = world.main.game
    assert game is not None
    hidden = sorted(
        {str(c) for c in game.state.zones.all_cards()} - world.know["main"].upto(1, game.version)
    )
    assert hidden  # seat 1 cannot know every card of the deal

    def leak(conn: str, raw: Any, now: float, out: list[Outbound]) -> list[Outbound]:
        return [
            _reworded(o, {**o.message, "notes": [f"under it: {hidden[0]}"]})
            if o.conn == "b0" and o.message["type"] == "update"
            else o
            for o in out
        ]

    _planted(world, leak)
    with pytest.raises(Fault, match="sent to b0"):
        _act(world, "a0")


def test_the_check_catches_a_dropped_update() -> None:
    world = _seated()
    _planted(
        world,
        lambda conn, raw, now, out: [
            o for o in out if not (o.conn == "b0" and o.message["type"] == "update")
        ],
    )
    _act(world, "a0")
    with pytest.raises(Fault, match="b0"):
        world.check_state()  # b0's stream went on without it


def test_the_check_catches_a_rejoin_missing_what_it_missed() -> None:
    world = _seated()
    client = world.clients["a0"]
    last = client.cursor
    _act(world, "a0")  # seat 0's stream moves on: an update it gets, then misses again
    world.disconnect("a0")
    assert last is not None and world.main.streams[0].n > last
    _planted(
        world, lambda conn, raw, now, out: [o for o in out if "n" not in o.message]
    )  # welcome only
    join = {
        "type": "join",
        "seat": 0,
        "session": "main",
        "token": world.tokens[("main", 0)],
        "last": last,
    }
    with pytest.raises(Fault, match="caught up"):
        world.send("a0", join)


def test_the_check_catches_a_refusal_that_changed_the_game() -> None:
    world = _seated()
    mirror = world.clients["a0"].mirror
    act = json.dumps({"type": "act", "action": mirror.view["legal"][0], "seen": mirror.version})  # type: ignore[index]

    def sneaky(conn: str, raw: Any, now: float, out: list[Outbound]) -> list[Outbound]:
        world.hub.sessions["main"].handle("a0", act, now)  # played behind the refusal's back
        return out

    _planted(world, sneaky)
    with pytest.raises(Fault, match="changed a session"):
        world.send("a0", {"type": "act", "action": "flip 99", "seen": 0})


def test_the_check_catches_an_exception_a_bad_replay_and_a_lost_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = _seated()

    def boom(conn: str, raw: Any, now: float, out: list[Outbound]) -> list[Outbound]:
        raise KeyError("planted")

    real = world.hub.handle
    _planted(world, boom)
    with pytest.raises(Fault, match="KeyError escaped"):
        world.send("a0", {"type": "ping"})
    world.hub.handle = real  # type: ignore[method-assign]
    _act(world, "a0")
    s = world.main
    assert s.game is not None and s.game.version == 1
    short = s.setup.build(s.seed or 0, [], chance=s.chance)  # the record less its last action
    with monkeypatch.context() as patched:
        patched.setattr(sys.modules[__name__], "replay", lambda record: short)
        with pytest.raises(Fault, match="replays to another version"):
            world.check_state()
    world.check_state()
    next(p for p in s.game.state.zones.cards if p).pop()  # a card lost
    with pytest.raises(AssertionError):
        world.check_state()


def test_a_rejoin_after_many_missed_messages_gets_a_shorter_fresh_view_and_the_check_judges_it() -> (
    None
):
    world = _seated()
    world.send(
        "a1", {"type": "join", "seat": 0, "session": "main", "token": world.tokens[("main", 0)]}
    )
    last = world.clients["a0"].cursor
    world.disconnect("a0")  # a1 still reads seat 0's stream: the test sees every text a0 misses
    for _ in range(12):
        conn = next(c for c in ("a1", "b0") if (world.clients[c].mirror.view or {}).get("legal"))
        _act(world, conn)
        world.check_state()
    FIGURES.clear()
    join = {
        "type": "join",
        "seat": 0,
        "session": "main",
        "token": world.tokens[("main", 0)],
        "last": last,
    }
    replies = world.send("a0", join)
    world.check_state()
    assert [r["type"] for r in replies if "n" in r] == ["view"]  # one fresh view, not 12+ updates
    assert FIGURES["fresh views judged shorter"] == 1
    client = world.clients["a0"]
    assert client.fresh is not None
    client.fresh = (
        client.fresh[0],
        10**6,
        *client.fresh[2:],
    )  # had it been longer, the check fails
    with pytest.raises(Fault, match="a fresh view of"):
        world._shorter(client, last, world.main.streams[0].n)


def test_the_check_catches_a_resent_message_that_is_not_the_text_first_sent() -> None:
    world = _seated()
    world.send(
        "a1", {"type": "join", "seat": 0, "session": "main", "token": world.tokens[("main", 0)]}
    )
    last = world.clients["a0"].cursor
    world.disconnect("a0")
    _act(world, "a1")  # a1 reads the update: its text is the one first sent

    def edited(conn: str, raw: Any, now: float, out: list[Outbound]) -> list[Outbound]:
        return [
            _reworded(o, {**o.message, "at": 0}) if o.message["type"] == "update" else o
            for o in out
        ]

    _planted(world, edited)
    join = {
        "type": "join",
        "seat": 0,
        "session": "main",
        "token": world.tokens[("main", 0)],
        "last": last,
    }
    with pytest.raises(Fault, match="not the text first sent"):
        world.send("a0", join)
