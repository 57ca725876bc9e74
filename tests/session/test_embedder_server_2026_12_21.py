"""An embedder's own game server (2026-12-21): JSON lines over asyncio streams.

Written from ``docs/session.rst``, ``docs/embedding.rst`` and ``docs/security.rst``
and the API reference (the docstrings of ``cardcore.session`` and
``cardcore.session.aio``), not from ``cardcore.web``. The server below is what an
embedder would write: ``asyncio.start_server`` on 127.0.0.1, one
:class:`~cardcore.session.aio.AsyncHost` over a :class:`~cardcore.session.Hub`, one
``AsyncConnection`` per TCP client, every line handed to ``send`` and every text of the
connection's iterator written back as a line. The clock is injected (a virtual one):
``run()`` is woken after the clock is moved, so nothing here sleeps to wait for a
deadline.

Every text the server queues for a client is audited before it is written: the cards
it names (``cardcore.session.patch.card_words``) must be cards that client's seat (or
the spectators) may know: known on the table at some version (``Zones.knows``) or
named in that seat's redacted copy of an event. An ``error`` may also quote the
sender's own message. Then the tests attack the server as a hostile client would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections import Counter
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import SPECTATOR, Event
from cardcore.session import (
    ERROR_CODES,
    Hub,
    Limits,
    MemoryStore,
    Mirror,
    Session,
    SessionConfig,
    SQLiteStore,
    TimeControl,
    aio,
)
from cardcore.session.aio import AsyncHost
from cardcore.session.patch import card_words
from cardcore.session.protocol import Outbound

# docs/embedding.rst, "Turns and real time": the stacked Spit deck of the worked example
SPIT_DECK = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)
FULL_DECK = Counter(
    f"{rank}{suit}"
    for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    for suit in "SHDC"
)
WAIT = 10.0  # seconds a client waits for a line before the test fails (never reached when green)


class Clock:
    """The server's injected clock: moved by the test, never by the wall."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def known_cards(game: Any, seat: int | None) -> set[str]:
    zones = game.state.zones
    return {
        str(card)
        for z, pile in enumerate(zones.cards)
        for i, card in enumerate(pile)
        if zones.knows(z, i, seat)
    }


def every_card(game: Any) -> Counter[str]:
    return Counter(str(c) for pile in game.state.zones.cards for c in pile)


class AuditedHost(AsyncHost):
    """My server's AsyncHost: audits each message before it is queued."""

    def __init__(self, hub: Hub, clock: Clock, server: LineServer) -> None:
        super().__init__(hub, clock=clock)
        self.server = server

    def deliver(self, outbound: list[Any]) -> None:
        self.server.audit(outbound)
        super().deliver(outbound)


class LineServer:
    """The embedder's server: one JSON object a line, each way."""

    MAX_LINE = 64 * 1024  # my transport's own cap; the session's max_message is below it

    def __init__(self, hub: Hub, clock: Clock) -> None:
        self.hub = hub
        self.clock = clock
        self.host = AuditedHost(hub, clock, self)
        self.role: dict[str, tuple[str, int | None]] = {}  # conn -> (session, seat or None)
        self.last_in: dict[str, bytes] = {}  # conn -> the last line it sent
        self.queued: dict[str, list[str]] = {}
        self.written: dict[str, list[str]] = {}
        self.allowed: dict[tuple[str, int | None], set[str]] = {}
        self.leaks: list[str] = []
        self.write_failures = 0
        self._games: dict[str, Any] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    # -- the audit ---------------------------------------------------------------------

    def follow(self) -> None:
        # Hub.sessions is not in the API reference: the only way to reach a resumed session
        for sid, session in self.hub.sessions.items():
            game = session.game
            if game is None:
                continue
            seats = [*range(len(game.players)), None]
            if self._games.get(sid) is not game:  # a new deal, a takeback, a resume
                self._games[sid] = game
                for seat in seats:
                    game.events.subscribe(
                        Event,
                        partial(self._heard, sid, seat),
                        seat=SPECTATOR if seat is None else seat,
                    )
            for seat in seats:
                self.allowed.setdefault((sid, seat), set()).update(known_cards(game, seat))

    def _heard(self, sid: str, seat: int | None, event: Event) -> None:
        self.allowed.setdefault((sid, seat), set()).update(card_words(event.to_json()))

    def audit(self, outbound: list[Any]) -> None:
        self.follow()
        for out in outbound:
            message = json.loads(out.text)
            assert message == json.loads(json.dumps(out.message))
            self.queued.setdefault(out.conn, []).append(out.text)
            if message["type"] == "welcome":
                self.role[out.conn] = (message["session"], message["seat"])
            if message["type"] == "error" and message["code"] not in ERROR_CODES:
                self.leaks.append(f"undocumented error code {message['code']}")
            role = self.role.get(out.conn)
            if role is None:
                continue
            game = self.hub.sessions[role[0]].game if role[0] in self.hub.sessions else None
            if message["type"] in ("record", "reveal") or message.get("reveal"):
                continue
            if game is not None and game.is_over and message["type"] in ("view", "history"):
                continue  # the end shows every card
            body = {k: v for k, v in message.items() if k not in ("token", "session")}
            # card_words reads English words too ("as" is the ace of spades): cards are upper case
            named = {w for w in card_words(body) if w == w.upper()}
            if message["type"] == "error":
                named -= set(card_words(self.last_in.get(out.conn, b"").decode("utf-8", "replace")))
            leaked = named - self.allowed.get(role, set())
            if leaked:
                self.leaks.append(f"{sorted(leaked)} to {role[1]} in {message['type']}")

    # -- the transport ------------------------------------------------------------------

    async def start(self) -> None:
        self.runner = asyncio.create_task(self.host.run())
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0, limit=self.MAX_LINE)
        self.port = self.server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        self.server.close()
        for writer in list(self._writers):
            writer.transport.abort()  # the clients' reads end: each handler ends on its own
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.server.wait_closed()
        self.host.stop()
        await self.runner

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        conn = self.host.connect()
        pump = asyncio.create_task(self._pump(conn, writer))
        try:
            while not conn.closed:
                try:
                    line = await reader.readline()
                except (ValueError, ConnectionError):  # longer than MAX_LINE, or reset
                    break
                if not line:
                    break
                self.last_in[conn.id] = line
                await conn.send(line.rstrip(b"\r\n"))
        finally:
            await conn.close()
            await asyncio.gather(pump, return_exceptions=True)
            writer.close()
            self._tasks.discard(task)
            self._writers.discard(writer)

    async def _pump(self, conn: Any, writer: asyncio.StreamWriter) -> None:
        async for text in conn:
            self.written.setdefault(conn.id, []).append(text)
            try:
                writer.write(text.encode() + b"\n")
                await writer.drain()
            except ConnectionError:  # the client went away mid-delivery
                self.write_failures += 1
                await conn.close()
        writer.close()


class Client:
    """A client of my server (well-behaved or not)."""

    def __init__(self, server: LineServer) -> None:
        self.server = server
        self.got: list[dict[str, Any]] = []
        self.mirror = Mirror()
        self.token: str | None = None
        self.seat: int | None = None
        self._k = 0
        self.eof = False

    async def open(self) -> Client:
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", self.server.port, limit=1 << 22
        )
        return self

    async def raw(self, data: bytes, dt: float = 0.06) -> None:
        self.server.clock.now += dt  # a polite client: under the rate limit
        self.writer.write(data)
        await self.writer.drain()

    async def send(self, message: Mapping[str, Any] | str | bytes, dt: float = 0.06) -> None:
        if isinstance(message, Mapping):
            data = json.dumps(message).encode()
        elif isinstance(message, str):
            data = message.encode()
        else:
            data = message
        await self.raw(data + b"\n", dt)

    async def read(self) -> dict[str, Any] | None:
        line = await asyncio.wait_for(self.reader.readline(), WAIT)
        if not line:
            self.eof = True
            return None
        message = json.loads(line)
        self.got.append(message)
        if message["type"] == "welcome":
            self.seat = message["seat"]
            self.token = message.get("token") or self.token
        self.mirror.feed(message)
        return message

    async def until(self, done: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        seen = []
        while True:
            message = await self.read()
            if message is None:
                return seen
            seen.append(message)
            if done(message):
                return seen

    async def sync(self) -> list[dict[str, Any]]:
        """Everything up to a pong of a fresh ping (the server reads a connection in order)."""
        self._k += 1
        tag = f"sync-{self._k}"
        await self.send({"type": "ping", "id": tag})
        got = await self.until(lambda m: m["type"] == "pong" and m.get("id") == tag)
        return got[:-1]

    async def call(self, message: Mapping[str, Any] | str | bytes) -> list[dict[str, Any]]:
        await self.send(message)
        return await self.sync()

    async def join(self, sid: str, seat: int, **extra: Any) -> list[dict[str, Any]]:
        return await self.call({"type": "join", "session": sid, "seat": seat, **extra})

    async def act(self, action: str, **extra: Any) -> list[dict[str, Any]]:
        await self.sync()  # act on the newest view
        message = {"type": "act", "action": action, "seen": self.mirror.version, **extra}
        return await self.call(message)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()


def serve(
    test: Callable[..., Any],
    store: Any = None,
    limits: Limits | None = None,
    clock: Clock | None = None,
) -> Any:
    """Run *test(server)* against a fresh server, always stopped after."""

    async def main() -> Any:
        server = LineServer(
            Hub(store if store is not None else MemoryStore(), limits), clock or Clock()
        )
        await server.start()
        try:
            return await test(server)
        finally:
            await server.stop()

    return asyncio.run(main())


GENEROUS = Limits(rate=1000.0, burst=1000)


async def golf_table(
    server: LineServer, config: SessionConfig | None = None, sid: str = "golf-1", **options: Any
) -> tuple[Session, Client, Client]:
    session = server.hub.create(
        "golf",
        ["Ann", "Bob"],
        now=server.clock.now,
        seed=7,
        session_id=sid,
        options=options or None,
        config=config,
    )
    ann, bob = await Client(server).open(), await Client(server).open()
    await ann.join(sid, 0)
    await bob.join(sid, 1)
    await ann.sync()
    return session, ann, bob


def errors(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] == "error"]


def state_of(session: Session) -> str:
    return json.dumps(session.game.save(), sort_keys=True)


# -- hostile lines --------------------------------------------------------------------------

HOSTILE: list[tuple[bytes, str]] = [
    (b"not json", "bad-json"),
    (b"[1, 2]", "bad-json"),
    (b"\xff\xfe\xfd", "bad-json"),
    (b'{"type": "act", "action": "flip 0", "seen": NaN}', "bad-json"),
    (b'{"type": "act", "action": "flip 0", "seen": 0, "type": "ping"}', "bad-json"),
    (b"[" * 4000 + b"]" * 4000, "bad-json"),
    (b'{"type": "act", "action": "flip 0", "seen": 1' + b"0" * 5000 + b"}", "bad-json"),
    (b'{"type": "fly"}', "bad-message"),
    (b'{"type": "act"}', "bad-message"),
    (b'{"type": "act", "action": "flip 0", "seen": "0"}', "bad-message"),
    (b'{"type": "act", "action": "flip 0", "seen": -1}', "bad-message"),
    (b'{"type": "act", "action": "flip 0", "seen": true}', "bad-message"),
    (b'{"type": "act", "action": "flip 0", "seen": 1e400}', "bad-message"),
    (b'{"type": "act", "action": "flip 0", "seen": 999}', "bad-message"),
    (b'{"type": "act", "action": "\\ud800", "seen": 0}', "bad-message"),
    (b'{"type": "act", "action": "flip 0", "seen": 0, "id": "' + b"x" * 65 + b'"}', "bad-message"),
    (b'{"type": "act", "action": "flip 0", "seen": 0, "seat": 1}', "not-your-seat"),
    (b'{"type": "act", "action": "flip 0", "seen": 0, "session": "elsewhere"}', "no-session"),
    (b'{"type": "act", "action": "flip 99", "seen": 0}', "illegal"),
    (b'{"type": "act", "action": "flip\\u0000 0", "seen": 0}', "notation"),
    (b'{"type": "act", "action": "draw", "seen": 0}', "illegal"),
    (b'{"type": "join", "session": "golf-1", "seat": 1}', "already-joined"),
    (b'{"type": "record"}', "not-over"),
    (b'{"type": "takeback", "op": "accept"}', "takeback-refused"),
    (b'{"type": "history", "since": -5}', "bad-message"),
    (b'{"type": "act", "action": "flip 0", "seen": 0, "x": "' + b"y" * 9000 + b'"}', "too-large"),
]


def test_every_hostile_line_gets_one_named_error_to_its_sender_and_changes_nothing() -> None:
    async def attack(server: LineServer) -> None:
        session, ann, bob = await golf_table(server)
        before, cards = state_of(session), every_card(session.game)
        for line, code in HOSTILE:
            replies = await ann.call(line)
            assert [m["type"] for m in replies] == ["error"], (line[:60], replies)
            assert replies[0]["code"] == code, (line[:60], replies[0])
            assert replies[0]["message"], line[:60]
            assert state_of(session) == before, line[:60]
        assert await bob.sync() == []  # Bob was told nothing of any of it
        assert every_card(session.game) == cards == FULL_DECK
        assert server.leaks == []
        # still a working table: Ann's real move goes through to both
        await ann.act("flip 0")
        assert [m["type"] for m in await bob.sync()] == ["update"]

    serve(attack, limits=GENEROUS)


def test_another_seats_token_and_a_taken_seat_are_refused_without_a_token_in_reply() -> None:
    async def attack(server: LineServer) -> None:
        session, ann, bob = await golf_table(server)
        assert ann.token and bob.token and ann.token != bob.token
        before = state_of(session)
        eve = await Client(server).open()
        for message, code in [
            ({"seat": 1, "token": ann.token}, "bad-token"),
            ({"seat": 0, "token": bob.token}, "bad-token"),
            ({"seat": 0}, "seat-taken"),
            ({"seat": 2}, "no-seat"),
            (
                {"seat": 0, "token": ann.token[:-1] + ("A" if ann.token[-1] != "A" else "B")},
                "bad-token",
            ),
        ]:
            replies = await eve.join("golf-1", **message)
            assert [m.get("code") for m in replies] == [code], (message.get("seat"), replies)
        assert all("token" not in m for m in eve.got)
        assert state_of(session) == before
        # Eve was never joined: acting is refused
        replies = await eve.call({"type": "act", "action": "flip 0", "seen": 0})
        assert [m.get("code") for m in replies] == ["not-joined"]
        assert await ann.sync() == [] and await bob.sync() == []

    serve(attack, limits=GENEROUS)


def test_stale_seen_in_a_turn_based_game_is_refused_as_stale_and_plays_nothing() -> None:
    async def attack(server: LineServer) -> None:
        session, ann, bob = await golf_table(server)
        await ann.act("flip 0")
        await ann.act("flip 4")
        await bob.act("flip 1")
        await bob.act("flip 5")
        await ann.sync()
        assert session.game.to_act == (0,)
        old = ann.mirror.version - 2  # before Bob's flips: cards Ann now sees were hidden then
        before = state_of(session)
        replies = await ann.call({"type": "act", "action": "draw", "seen": old})
        assert [(m["type"], m.get("code")) for m in replies] == [("error", "stale")]
        assert "look again" in replies[0]["message"]
        assert state_of(session) == before
        assert await bob.sync() == []

    serve(attack, limits=GENEROUS)


# -- a whole game through the server: every byte audited ----------------------------------


def test_a_whole_golf_match_over_the_wire_sends_each_seat_only_what_it_may_know() -> None:
    async def play(server: LineServer) -> None:
        session, ann, bob = await golf_table(server, rounds=2)
        eve = await Client(server).open()
        await eve.call({"type": "watch", "session": "golf-1"})
        rng = random.Random(11)
        clients = {0: ann, 1: bob}
        steps = 0
        while not session.game.is_over:
            (seat,) = session.game.to_act
            me = clients[seat]
            await me.sync()
            action = rng.choice(me.mirror.view["legal"])
            replies = await me.act(action)
            assert [m["type"] for m in replies][-1] == "ok", replies
            steps += 1
            if steps % 15 == 0:  # a history request now and then, audited as well
                await me.call({"type": "history"})
            assert every_card(session.game) == FULL_DECK
        for c in (ann, bob, eve):
            await c.sync()
        assert server.leaks == []
        for seat, c in clients.items():
            assert c.mirror.view == session.game.view(seat)
        assert eve.mirror.view == session.game.view(None)
        # what was queued is what was written, line for line
        for conn, texts in server.queued.items():
            assert server.written.get(conn, []) == texts
        record = await ann.call({"type": "record"})
        assert record[0]["type"] == "record"
        # acting after the end: a named error, nothing changes
        before = state_of(session)
        for c, msg in [
            (ann, {"type": "act", "action": "draw", "seen": session.game.version}),
            (bob, {"type": "act", "action": "flip 0", "seen": session.game.version}),
            (ann, {"type": "takeback", "op": "request"}),
        ]:
            replies = await c.call(msg)
            assert [m["type"] for m in replies] == ["error"], replies
            assert replies[0]["code"] in ("game-over", "takeback-refused"), replies
        assert state_of(session) == before

    serve(play, limits=GENEROUS)


# -- takebacks ------------------------------------------------------------------------------


def test_takeback_over_the_wire_rewinds_every_seat_and_leaks_nothing() -> None:
    async def play(server: LineServer) -> None:
        session, ann, bob = await golf_table(server)
        for c, a in [(ann, "flip 0"), (ann, "flip 4"), (bob, "flip 1"), (bob, "flip 5")]:
            await c.act(a)
        await ann.sync()
        cards = every_card(session.game)
        before = state_of(session)
        await ann.act("take")
        await bob.sync()
        # another seat's takeback request: only the seat that acted may ask
        replies = await bob.call({"type": "takeback", "op": "request"})
        assert [m.get("code") for m in errors(replies)] == ["takeback-refused"]
        await ann.call({"type": "takeback", "op": "request"})
        # Ann may not accept her own request
        replies = await ann.call({"type": "takeback", "op": "accept"})
        assert [m.get("code") for m in errors(replies)] == ["takeback-refused"]
        await bob.call({"type": "takeback", "op": "accept"})
        await ann.sync()
        assert state_of(session) == before and every_card(session.game) == cards
        for seat, c in ((0, ann), (1, bob)):
            views = [m for m in c.got if m["type"] == "view" and m.get("reason") == "takeback"]
            assert len(views) == 1
            assert c.mirror.view == session.game.view(seat)
        # a draw from the face-down stock is final: refused, naming seats never cards
        await ann.act("draw")
        replies = await ann.call({"type": "takeback", "op": "request"})
        (error,) = errors(replies)
        assert error["code"] == "takeback-refused"
        assert server.leaks == []

    serve(play, limits=GENEROUS)


# -- floods ---------------------------------------------------------------------------------


def test_a_flood_is_rate_limited_then_closed_and_the_other_seat_plays_on() -> None:
    async def attack(server: LineServer) -> None:
        session, ann, bob = await golf_table(server)
        version = session.game.version
        # 300 acts in one write, the clock standing still: the burst (40) is read, the rest dropped
        flood = b"".join(
            json.dumps({"type": "act", "action": f"flip {i % 6}", "seen": 0}).encode() + b"\n"
            for i in range(300)
        )
        await ann.raw(flood, dt=0.0)
        got = await ann.until(lambda m: False)  # read to EOF: the server closes Ann
        assert ann.eof
        applied = [m for m in got if m["type"] == "ok"]
        assert len(applied) == 2  # Ann's two setup flips; the other 38 read are illegal
        codes = Counter(m["code"] for m in errors(got))
        assert codes["rate-limited"] <= 2 and codes["rate-limited"] >= 1
        assert set(codes) <= {"illegal", "stale", "rate-limited"}
        assert session.game.version == version + 2
        # Bob is untouched and plays on
        server.clock.now += 5
        await bob.act("flip 1")
        await bob.act("flip 5")
        assert session.game.to_act == (0,)
        assert bob.mirror.view == session.game.view(1)
        assert server.leaks == []

    serve(attack)


# -- reconnects -----------------------------------------------------------------------------


def test_rejoining_one_seat_from_five_connections_at_once() -> None:
    async def attack(server: LineServer) -> None:
        session, ann, _bob = await golf_table(server)
        await ann.act("flip 0")
        await ann.sync()
        tabs = [await Client(server).open() for _ in range(5)]
        msg = {"type": "join", "session": "golf-1", "seat": 0, "token": ann.token, "last": 0}
        await asyncio.gather(*(t.send(msg) for t in tabs))
        replies = await asyncio.gather(*(t.sync() for t in tabs))
        welcomed = [r for r in replies if r and r[0]["type"] == "welcome"]
        full = [r for r in replies if [m.get("code") for m in r] == ["full"]]
        # four connections a seat (Limits.max_per_seat), Ann's first one among them
        assert len(welcomed) == 3 and len(full) == 2
        for r in welcomed:
            assert "token" not in r[0]
        for t in tabs:
            if t.mirror.view is not None:
                assert t.mirror.view == session.game.view(0)
        # one of the tabs plays for Ann; every tab and Ann's first connection are told
        player = next(t for t in tabs if t.mirror.view is not None)
        await player.act("flip 4")
        for t in [ann, *tabs]:
            await t.sync()
            if t.mirror.view is not None:
                assert t.mirror.view == session.game.view(0)
        assert server.leaks == []

    serve(attack, limits=GENEROUS)


def test_a_client_gone_mid_delivery_costs_the_other_seat_nothing_and_rejoins_exactly() -> None:
    async def attack(server: LineServer) -> None:
        session, ann, bob = await golf_table(
            server, config=SessionConfig(time=TimeControl(turn=30))
        )
        await bob.sync()
        last = bob.mirror.last
        bob.writer.transport.abort()  # gone without a goodbye, replies still on their way
        for a in ["flip 0", "flip 4"]:
            await ann.act(a)
        # Bob's turn clock plays his setup for him while he is away
        server.clock.now += 31
        server.host.wake()
        await ann.until(lambda m: m["type"] == "update" and m["action"]["seat"] == 1)
        await ann.until(lambda m: m["type"] == "update" and m["action"]["seat"] == 1)
        assert ann.mirror.view == session.game.view(0)
        assert any(m["type"] == "update" and m["action"]["cause"] == "timeout" for m in ann.got)
        gone = [m for m in ann.got if m["type"] == "presence"][-1]
        assert gone["connected"] == [True, False]  # my server noticed and told the session
        back = await Client(server).open()
        back.mirror = bob.mirror  # Bob's client keeps what it had
        replies = await back.join("golf-1", 1, token=bob.token, last=last)
        assert replies[0]["type"] == "welcome" and "token" not in replies[0]
        assert back.mirror.view == session.game.view(1)
        assert server.leaks == []

    serve(attack, limits=GENEROUS)


# -- Spit in real time ----------------------------------------------------------------------


async def spit_table(
    server: LineServer, config: SessionConfig | None = None
) -> tuple[Session, Client, Client]:
    session = server.hub.create(
        "spit",
        ["Ann", "Bob"],
        now=server.clock.now,
        seed=2,
        deck=SPIT_DECK,
        session_id="spit-1",
        config=config,
    )
    ann, bob = await Client(server).open(), await Client(server).open()
    await ann.join("spit-1", 0)
    await bob.join("spit-1", 1)
    await ann.act("ready")
    await bob.act("ready")
    await ann.sync()
    return session, ann, bob


def test_spit_overtaken_action_is_stale_never_legal_is_illegal_old_seen_is_core_rt_3() -> None:
    async def play(server: LineServer) -> None:
        session, ann, bob = await spit_table(server)
        assert ann.mirror.version == bob.mirror.version == 2
        seen = 2
        await ann.call({"type": "act", "action": "play 1 L", "seen": seen})
        replies = await bob.call({"type": "act", "action": "play 3 L", "seen": seen})
        assert [(m.get("code"), m.get("rule")) for m in errors(replies)] == [("stale", "CORE-RT-1")]
        before = state_of(session)
        replies = await bob.call(
            {"type": "act", "action": "play 1 L", "seen": session.game.version}
        )
        assert [m.get("code") for m in errors(replies)] == ["illegal"]
        replies = await bob.call({"type": "act", "action": "play 3 L", "seen": 10**6})
        assert [m.get("code") for m in errors(replies)] == ["bad-message"]
        assert state_of(session) == before
        assert every_card(session.game) == FULL_DECK
        # the host ends the match: acting on the newest view is 'game-over', nothing changes
        server.host.deliver(session.end(server.clock.now))
        await ann.sync()
        over = state_of(session)
        replies = await ann.act("play 1 R")
        assert [m.get("code") for m in errors(replies)] == ["game-over"]
        await bob.sync()
        replies = await bob.call({"type": "record"})
        assert [m["type"] for m in replies] == ["record"]
        assert state_of(session) == over
        assert server.leaks == []

    serve(play, limits=GENEROUS)


def test_spit_idle_clock_plays_the_default_on_the_virtual_clock_and_tells_both() -> None:
    async def play(server: LineServer) -> None:
        config = SessionConfig(time=TimeControl(turn=5.0))
        session, ann, bob = await spit_table(server, config)
        version = session.game.version
        deadline = server.hub.next_deadline()
        assert deadline is not None and deadline > server.clock.now
        server.clock.now = deadline + 0.01
        server.host.wake()  # the run loop ticks: no real sleep
        got = await ann.until(lambda m: m["type"] == "update")
        assert got[-1]["action"]["cause"] == "timeout" and got[-1]["action"]["text"] == "spit"
        assert session.game.version > version
        await ann.sync()
        await bob.sync()
        assert ann.mirror.view == session.game.view(0)
        assert bob.mirror.view == session.game.view(1)
        # each seat's messages carry only its own idle clock
        for seat, c in ((0, ann), (1, bob)):
            for m in c.got:
                if m.get("clocks"):
                    assert set(map(str, m["clocks"].get("turn", {}) or {})) <= {str(seat)}, m
        assert server.leaks == []

    serve(play, limits=GENEROUS)


# -- a raising subscriber, a failing store, a restart ---------------------------------------


def test_a_raising_host_subscriber_and_a_failing_store_cost_no_seat_an_event() -> None:
    class Flaky(MemoryStore):
        fail = 0

        def commit(self, session_id: str, batch: Any) -> None:
            if self.fail:
                self.fail -= 1
                raise RuntimeError("disk full")
            super().commit(session_id, batch)

    store = Flaky()

    async def play(server: LineServer) -> None:
        session, ann, bob = await golf_table(server)
        failures: list[Any] = []

        def boom(event: Event) -> None:
            raise ConnectionResetError("my metrics socket is gone")

        session.game.events.subscribe(Event, boom)
        session.game.events.subscribe(Event, boom, seat=1)
        session.game.events.on_error = failures.append
        store.fail = 3
        for c, a in [(ann, "flip 0"), (ann, "flip 4"), (bob, "flip 1"), (bob, "flip 5")]:
            replies = await c.act(a)
            assert replies[-1]["type"] == "ok"
        await ann.sync()
        await bob.sync()
        assert failures
        assert ann.mirror.view == session.game.view(0)
        assert bob.mirror.view == session.game.view(1)
        assert [m["version"] for m in bob.got if m["type"] == "update"] == [1, 2, 3, 4]
        # the store caught up: a resume is the same game
        again = Session.resume(store, "golf-1", server.clock.now)
        assert again.game.save() == session.game.save()

    serve(play, store=store, limits=GENEROUS)


def test_a_sqlite_restart_resumes_both_tables_and_clients_rejoin_over_the_wire(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.sqlite"
    clock = Clock()
    kept: dict[str, Any] = {}

    async def first(server: LineServer) -> None:
        golf, ann, bob = await golf_table(server)
        spit, sam, tia = await spit_table(server)
        for c, a in [(ann, "flip 0"), (ann, "flip 4"), (bob, "flip 1"), (bob, "flip 5")]:
            await c.act(a)
        await sam.act("play 1 L")
        for c in (ann, bob, sam, tia):
            await c.sync()
        kept.update(
            golf=golf.game.save(),
            spit=spit.game.save(),
            clients={
                k: (c.token, c.mirror) for k, c in dict(ann=ann, bob=bob, sam=sam, tia=tia).items()
            },
        )
        server.hub.store.close()

    serve(first, store=SQLiteStore(path), limits=GENEROUS, clock=clock)
    clock.now += 3600

    async def second(server: LineServer) -> None:
        assert server.hub.resume_all(clock.now) == []
        golf, spit = server.hub.sessions["golf-1"], server.hub.sessions["spit-1"]
        assert golf.game.save() == kept["golf"] and spit.game.save() == kept["spit"]
        assert every_card(golf.game) == every_card(spit.game) == FULL_DECK
        for name, sid, seat in [
            ("ann", "golf-1", 0),
            ("bob", "golf-1", 1),
            ("sam", "spit-1", 0),
            ("tia", "spit-1", 1),
        ]:
            token, mirror = kept["clients"][name]
            c = await Client(server).open()
            c.mirror = mirror
            replies = await c.join(sid, seat, token=token, last=mirror.last)
            assert replies[0]["type"] == "welcome"
            assert c.mirror.view == server.hub.sessions[sid].game.view(seat)
            if name == "ann":
                replies = await c.act("draw")
                assert replies[-1]["type"] == "ok"
        assert server.leaks == []
        server.hub.store.close()

    serve(second, store=SQLiteStore(path), limits=GENEROUS, clock=clock)


def test_the_audit_itself_catches_a_hidden_card_sent_to_a_seat() -> None:
    """The leak checks above can fail: a forged update naming the top of the stock is caught."""

    async def forge(server: LineServer) -> None:
        session, _ann, _bob = await golf_table(server)
        hidden = str(session.game.state.zones.cards[0][0])  # the stock's top: nobody knows it
        assert hidden not in server.allowed[("golf-1", 1)]
        (bob_conn,) = [c for c, role in server.role.items() if role == ("golf-1", 1)]
        message = {"type": "update", "n": 99, "events": [{"card": hidden}]}
        server.audit([Outbound(bob_conn, message, json.dumps(message))])
        assert len(server.leaks) == 1

    serve(forge, limits=GENEROUS)


def test_spit_race_over_the_wire_audited_every_card_in_one_place() -> None:
    async def play(server: LineServer) -> None:
        session, ann, bob = await spit_table(server)
        clients = [ann, bob]
        rng = random.Random(5)
        outcomes: Counter[str] = Counter()
        for _ in range(150):
            if session.game.is_over:
                break
            first = rng.randrange(2)
            me, other = clients[first], clients[1 - first]
            await other.sync()
            other_seen, other_legal = other.mirror.version, list(other.mirror.view["legal"])
            await me.sync()
            legal = me.mirror.view["legal"]
            if legal:
                replies = await me.act(rng.choice(legal))
                outcomes[replies[-1].get("code", replies[-1]["type"])] += 1
            if other_legal and rng.random() < 0.5:  # the other seat acts on the view it had
                replies = await other.call(
                    {"type": "act", "action": rng.choice(other_legal), "seen": other_seen}
                )
                outcomes[replies[-1].get("code", replies[-1]["type"])] += 1
            assert every_card(session.game) == FULL_DECK
        for seat, c in enumerate(clients):
            await c.sync()
            assert c.mirror.view == session.game.view(seat)
        assert set(outcomes) <= {"ok", "stale", "illegal"}, outcomes
        assert outcomes["ok"] > 50 and outcomes["stale"] > 0, outcomes
        assert server.leaks == []

    serve(play, limits=GENEROUS)


def test_a_connection_that_never_reads_is_dropped_and_the_others_lose_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(aio, "QUEUE", 12)  # a documented constant: messages queued per connection

    async def play() -> None:
        hub = Hub(MemoryStore(), GENEROUS)
        session = hub.create("golf", ["Ann", "Bob"], now=1.0, seed=7, session_id="g")
        clock = Clock(2.0)
        host = AsyncHost(hub, clock=clock)
        ann, bob, eve = host.connect(), host.connect(), host.connect()
        mirrors = {ann.id: Mirror(), eve.id: Mirror()}

        async def drain(conn: Any) -> None:
            while not conn._queue.empty():  # what a reader has been sent so far
                mirrors[conn.id].feed(json.loads(await conn.__anext__()))

        await ann.send({"type": "join", "session": "g", "seat": 0})
        await bob.send({"type": "join", "session": "g", "seat": 1})
        await eve.send({"type": "watch", "session": "g"})
        rng = random.Random(3)
        while not bob.closed:
            await drain(ann)
            await drain(eve)
            (seat,) = session.game.to_act
            clock.now += 1
            if seat == 1:  # Bob sends, never reads: he plays what the game would let him
                view = session.game.view(1)
                message = {
                    "type": "act",
                    "action": rng.choice(view["legal"]),
                    "seen": view["version"],
                }
                await bob.send(message)
                continue
            legal = mirrors[ann.id].view["legal"]
            await ann.send(
                {"type": "act", "action": rng.choice(legal), "seen": mirrors[ann.id].version}
            )
        assert bob.closed and bob.too_slow
        assert bob._queue.qsize() == 1  # freed at once: only the end marker is left
        await drain(ann)
        await drain(eve)
        assert mirrors[ann.id].view == session.game.view(0)
        assert mirrors[ann.id].presence is not None
        # Bob comes back on a new connection with his token
        back = host.connect()
        mirrors[back.id] = Mirror()
        token = session.issue_token(1, clock.now, replace=True)
        await back.send({"type": "join", "session": "g", "seat": 1, "token": token, "last": 0})
        await drain(back)
        assert mirrors[back.id].view == session.game.view(1)

    asyncio.run(play())


def test_closing_a_session_tells_and_ends_every_connection_of_my_server() -> None:
    async def play(server: LineServer) -> None:
        _session, ann, bob = await golf_table(server)
        eve = await Client(server).open()
        await eve.call({"type": "watch", "session": "golf-1"})
        server.host.deliver(server.hub.close("golf-1", server.clock.now))
        for c in (ann, bob, eve):
            got = await c.until(lambda m: False)
            assert c.eof and [m["type"] for m in got][-1] == "closed"
        late = await Client(server).open()
        replies = await late.join("golf-1", 0, token=ann.token)
        assert [m.get("code") for m in replies] == ["no-session"]
        assert server.leaks == []

    serve(play, limits=GENEROUS)


def test_a_tonk_match_with_takebacks_timeouts_and_histories_leaks_nothing() -> None:
    async def play(server: LineServer) -> None:
        session = server.hub.create(
            "tonk",
            ["Ann", "Bob", "Cy"],
            now=server.clock.now,
            seed=5,
            session_id="tonk-1",
            options={"hands": 3},
            config=SessionConfig(time=TimeControl(turn=20)),
        )
        seats = [await Client(server).open() for _ in range(3)]
        for seat, c in enumerate(seats):
            await c.join("tonk-1", seat)
        eve = await Client(server).open()
        await eve.call({"type": "watch", "session": "tonk-1"})
        rng = random.Random(2)
        steps = takebacks = timeouts = 0
        while not session.game.is_over and steps < 400:
            if rng.random() < 0.05:  # the seat to act thinks too long: its clock plays for it
                server.clock.now += 25
                server.host.wake()
                for c in seats:
                    await c.sync()
                timeouts += 1
                continue
            me = seats[session.game.to_act[0]]
            await me.sync()
            legal = me.mirror.view["legal"]
            calm = [a for a in legal if a != "drop"] or legal
            await me.act(rng.choice(calm if rng.random() < 0.97 else legal))
            steps += 1
            asked = rng.random() < 0.2
            if asked and not errors(await me.call({"type": "takeback", "op": "request"})):
                takebacks += 1
                for other in seats:
                    if other is not me:
                        await other.call({"type": "takeback", "op": "accept"})
            if steps % 20 == 0:
                await me.call({"type": "history"})
                await eve.call({"type": "history"})
            assert every_card(session.game) == FULL_DECK
        for c in [*seats, eve]:
            await c.sync()
        assert session.game.is_over and steps > 50 and takebacks > 0 and timeouts > 0
        assert server.leaks == []
        for seat, c in enumerate(seats):
            assert c.mirror.view == session.game.view(seat)
        assert eve.mirror.view == session.game.view(None)

    serve(play, limits=GENEROUS)


# -- findings ---

STALE_IN_TURNS = "turn-based stale check in Session._act runs before the game reads the action"


def test_turn_based_stale_error_cites_no_rule_as_documented() -> None:
    async def attack(server: LineServer) -> None:
        _session, ann, bob = await golf_table(server)
        for c, a in [(ann, "flip 0"), (ann, "flip 4"), (bob, "flip 1"), (bob, "flip 5")]:
            await c.act(a)
        await ann.sync()
        replies = await ann.call({"type": "act", "action": "draw", "seen": 2})
        assert [m["type"] for m in replies] == ["error"]
        # (docs/session.rst, as fixed: a turn-based stale is the session's guard, citing no rule)
        assert [(m.get("code"), m.get("rule")) for m in replies] == [("stale", None)]

    serve(attack, limits=GENEROUS)


def test_text_that_is_no_action_is_a_notation_error_whatever_its_seen() -> None:
    async def attack(server: LineServer) -> None:
        session, ann, bob = await golf_table(server)
        for c, a in [(ann, "flip 0"), (ann, "flip 4"), (bob, "flip 1"), (bob, "flip 5")]:
            await c.act(a)
        await ann.sync()
        before = state_of(session)
        fresh = await ann.call({"type": "act", "action": "fly away", "seen": ann.mirror.version})
        assert [m.get("code") for m in fresh] == ["notation"]  # holds
        old = await ann.call({"type": "act", "action": "fly away", "seen": 2})
        assert state_of(session) == before
        assert [m["type"] for m in old] == ["error"]
        assert [m.get("code") for m in old] == ["notation"], old

    serve(attack, limits=GENEROUS)


# -- AsyncHost -----------------------------------------------------------------------------


def test_connect_with_an_id_already_open_neither_hands_over_the_seat_nor_orphans_the_old_one() -> (
    None
):
    async def attack() -> None:
        hub = Hub(MemoryStore())
        session = hub.create("golf", ["Ann", "Bob"], now=0.0, seed=7, session_id="g")
        host = AsyncHost(hub, clock=Clock(1.0))
        ann = host.connect("player-ann")
        await ann.send({"type": "join", "session": "g", "seat": 0})
        bob = host.connect("player-bob")
        await bob.send({"type": "join", "session": "g", "seat": 1})
        try:
            intruder = host.connect("player-ann")  # e.g. ids from a user name or header
        except (ValueError, cardcore.CardcoreError):
            return  # refused clearly: fine
        await intruder.send({"type": "act", "action": "flip 0", "seen": 0})
        assert session.game.version == 0, "the new connection played for Ann without a token"
        await intruder.close()
        assert ann.closed or host.connections.get("player-ann") is ann

    asyncio.run(attack())


def test_not_started_while_waiting_for_entropy_names_the_entropy() -> None:
    async def attack(server: LineServer) -> None:
        config = SessionConfig(fair=True, seat_entropy=True, entropy_wait=30.0)
        server.hub.create(
            "golf", ["Ann", "Bob"], now=server.clock.now, session_id="fair", config=config
        )
        ann, bob = await Client(server).open(), await Client(server).open()
        await ann.join("fair", 0, entropy="ann's dice")
        await bob.join("fair", 1)  # every seat claimed; Bob's entropy still awaited
        replies = await bob.call({"type": "act", "action": "flip 0", "seen": 0})
        (error,) = errors(replies)
        assert error["code"] == "not-started"
        assert "every seat must be claimed" not in error["message"], error["message"]

    serve(attack, limits=GENEROUS)


def test_queued_is_zero_once_a_too_slow_connection_is_freed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(aio, "QUEUE", 4)

    async def play() -> None:
        hub = Hub(MemoryStore(), GENEROUS)
        hub.create("golf", ["Ann", "Bob"], now=1.0, seed=7, session_id="g")
        host = AsyncHost(hub, clock=Clock(2.0))
        ann, bob = host.connect(), host.connect()
        await bob.send({"type": "join", "session": "g", "seat": 1})
        for _ in range(5):
            await bob.send({"type": "ping"})
        assert bob.too_slow and bob._queue.qsize() == 1
        assert bob.queued == 0, bob.queued
        del ann

    asyncio.run(play())
