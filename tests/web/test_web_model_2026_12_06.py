"""An independent client model of ``cardcore serve``, written from docs/web.rst and docs/session.rst.

It makes games through the documented HTTP requests, opens the documented sockets for every seat
and a spectator, plays whole games of Golf, Tonk, Speed and Spit by random legal actions, and
checks every frame: its numbering, the view it rebuilds (a patch applier of its own) against the
engine's ``Game.view(seat)``, that no frame names a card its reader cannot see, and that hostile
frames are answered with the documented error and change nothing for anyone.
"""

from __future__ import annotations

import functools
import json
import random
import re
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import anyio
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from cardcore.session import Limits
from cardcore.web import WebServer, create_app
from cardcore.web.app import ServerLimits

FAST = Limits(rate=100000.0, burst=100000)
SEED = 20261206
CARD = re.compile(r"^(10|[2-9TJQKA])[CDHS]$")
SPLIT = re.compile(r"[\s,:;()\[\]'\"{}=]+")
PRIVATE_KEYS = {"token", "session", "commitment", "id", "link", "watch", "record"}
NUMBERED = {"lobby", "view", "update", "takeback", "reveal"}
WAIT = 10.0  # seconds a read may wait before the test fails (never a hang)


async def _receive(ws: Any) -> Any:
    with anyio.fail_after(WAIT):
        return await ws._send_rx.receive()


def receive_text(ws: Any) -> str:
    """The TestClient's ``receive_text``, failing after WAIT seconds instead of hanging."""
    message = ws.portal.call(_receive, ws)
    ws._raise_on_close(message)
    return str(message["text"])


# -- the model ----------------------------------------------------------------------------------


def card_names(value: Any, key: str = "") -> set[str]:
    """Every card word a JSON value names (outside ids and tokens)."""
    found: set[str] = set()
    if key in PRIVATE_KEYS:
        return found
    if isinstance(value, str):
        found.update(w for w in SPLIT.split(value) if CARD.match(w))
    elif isinstance(value, dict):
        for k, v in value.items():
            found |= card_names(k) | card_names(v, k)
    elif isinstance(value, list):
        for v in value:
            found |= card_names(v, key)
    return found


def apply_patch(doc: Any, patch: list[list[Any]]) -> Any:
    """``["set", path, value]`` and ``["del", path]``, in order (docs/session.rst)."""
    for op in patch:
        path = op[1]
        if not path:
            assert op[0] == "set"
            doc = json.loads(json.dumps(op[2]))
            continue
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if op[0] == "set":
            value = json.loads(json.dumps(op[2]))
            if isinstance(parent, list) and last == len(parent):
                parent.append(value)
            else:
                parent[last] = value
        else:
            assert op[0] == "del", op
            del parent[last]
    return doc


class Conn:
    """One WebSocket of the model: sends frames, reads and checks every one, rebuilds its view."""

    def __init__(self, ws: Any, label: str) -> None:
        self.ws = ws
        self.label = label
        self.last = 0
        self.view: dict[str, Any] | None = None
        self.version: int | None = None
        self.seat: int | None = None
        self.role: str | None = None
        self.token: str | None = None
        self.texts: list[str] = []  # every frame received
        self.numbered: dict[int, str] = {}  # stream number -> its text
        self.pending: list[dict[str, Any]] = []  # frames since the last check
        self.pings = 0
        self.whole_at: int | None = None  # after a fresh welcome: the whole view's number
        self.said: set[str] = set()  # cards this connection named itself (an error may echo)

    def send(self, message: dict[str, Any] | str) -> None:
        self.said |= card_names(message)
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self) -> dict[str, Any]:
        text = receive_text(self.ws)
        message = json.loads(text)
        assert isinstance(message, dict) and isinstance(message.get("type"), str), text
        self.texts.append(text)
        self.pending.append(message)
        self.feed(message, text)
        return message

    def feed(self, m: dict[str, Any], text: str) -> None:
        kind = m["type"]
        if kind == "welcome":
            assert m["protocol"] == "cardcore-session/1"
            for field in ("session", "role", "seat", "game", "players", "realtime", "phase"):
                assert field in m, (field, m)
            for field in ("config", "commitment", "schema", "last", "server_time"):
                assert field in m, (field, m)
            self.role, self.seat = m["role"], m["seat"]
            if m.get("token"):
                self.token = m["token"]
            if self.last == 0 or m["last"] < self.last:  # fresh, or a lowered last
                self.whole_at = m["last"]
            return
        if kind not in NUMBERED:
            return
        n = m["n"]
        if self.whole_at is not None:  # the whole picture, numbered as the welcome said
            assert kind in ("lobby", "view") and n == self.whole_at, (self.label, m, self.whole_at)
            self.whole_at = None
        elif kind == "view" and m.get("reason") == "resync":
            assert n >= self.last, (self.label, n, self.last)  # the stream's current number
        else:
            assert n == self.last + 1, (self.label, kind, n, self.last)
        self.last = n
        self.numbered[n] = text
        if kind == "view":
            assert m["view"]["version"] == m["version"]
            self.view, self.version = json.loads(json.dumps(m["view"])), m["version"]
        elif kind == "update":
            assert self.view is not None, "an update before any view"
            assert m["version"] == self.version + 1, (self.label, m["version"], self.version)
            for field in ("seat", "text", "at", "cause"):
                assert field in m["action"], m["action"]
            assert m["action"]["cause"] in ("player", "timeout", "clock", "host")
            assert isinstance(m["events"], list)
            assert all(e.get("event") != "action-applied" for e in m["events"])
            self.view = apply_patch(self.view, m["patch"])
            self.version = m["version"]
            assert self.view["version"] == self.version

    def until(self, kind: str, **match: Any) -> dict[str, Any]:
        for _ in range(100000):
            m = self.recv()
            if m["type"] == kind and all(m.get(k) == v for k, v in match.items()):
                return m
        raise AssertionError(f"no {kind}")

    def barrier(self) -> list[dict[str, Any]]:
        """Ping and read up to its pong: every frame queued before it (pong excluded)."""
        self.pings += 1
        tag = f"b{self.pings}"
        start = len(self.pending)
        self.send({"type": "ping", "id": tag})
        while True:
            m = self.recv()
            if m["type"] == "pong" and m.get("id") == tag:
                self.pending.pop()
                return self.pending[start:]


class Table:
    """A session's sockets (seats and a spectator) and the engine's game behind them."""

    def __init__(self, client: TestClient, server: WebServer, sid: str, stack: ExitStack) -> None:
        self.client, self.server, self.sid, self.stack = client, server, sid, stack
        self.seats: list[Conn] = []
        self.spectator: Conn | None = None
        self.known: dict[int | None, set[str]] = {}
        self.tokens: dict[int, str] = {}

    @property
    def session(self) -> Any:
        return self.server.hub.sessions[self.sid]

    @property
    def game(self) -> Any:
        return self.session.game

    def open(self, label: str) -> Conn:
        return Conn(self.stack.enter_context(self.client.websocket_connect("/ws")), label)

    def everyone(self) -> list[Conn]:
        return [*self.seats, *([self.spectator] if self.spectator else [])]

    def check_batch(self) -> None:
        """Each connection's frames since the last check: no hidden card, the view the engine's."""
        game = self.game
        batch = {id(c): [m for m in c.pending] for c in self.everyone()}
        for c in self.everyone():
            c.pending.clear()
        if game is None:
            return
        named = {id(c): card_names(batch[id(c)]) for c in self.everyone()}
        public = set.intersection(*(named[id(c)] for c in self.seats)) if self.seats else set()
        for c in self.everyone():
            seat = c.seat if c.role == "seat" else None
            view_now = game.view(seat)
            known = self.known.setdefault(seat, set())
            errors = [m for m in batch[id(c)] if m["type"] == "error"]
            others = [m for m in batch[id(c)] if m["type"] != "error"]
            assert card_names(errors) <= known | card_names(view_now) | c.said, errors
            allowed = known | card_names(view_now) | public
            if self.spectator is not None and c is not self.spectator:
                allowed |= named[id(self.spectator)]
            leaked = card_names(others) - allowed
            assert not leaked, (c.label, sorted(leaked), batch[id(c)])
            known |= card_names(view_now)
            if c.view is not None and c.version == game.version:
                assert c.view == view_now, (c.label, c.version)

    def settle(self) -> None:
        for c in self.everyone():
            c.barrier()
        self.check_batch()


@contextmanager
def serve(**kwargs: Any) -> Iterator[tuple[TestClient, WebServer]]:
    kwargs.setdefault("bot_delay", 0.0)
    kwargs.setdefault("bot_pace", 0.05)
    server = WebServer(None, **kwargs)
    server.hub.create = functools.partial(server.hub.create, seed=SEED)  # a fixed deal
    with TestClient(create_app(server)) as client:
        yield client, server


def make(client: TestClient, game: str, n: int, **extra: Any) -> dict[str, Any]:
    seats = [{"name": f"P{i}"} for i in range(n)]
    r = client.post("/api/sessions", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    assert r.headers["content-type"].startswith("application/json")
    made: dict[str, Any] = r.json()
    return made


@contextmanager
def table(
    game: str, n: int, watch: bool = True, **extra: Any
) -> Iterator[tuple[Table, TestClient, WebServer]]:
    with serve(limits=FAST) as (client, server), ExitStack() as stack:
        made = make(client, game, n, **extra)
        t = Table(client, server, made["session"], stack)
        if watch:
            t.spectator = t.open("spectator")
            t.spectator.send({"type": "watch", "session": t.sid})
            w = t.spectator.until("welcome")
            assert w["role"] == "spectator" and w["seat"] is None and "token" not in w
        for seat in range(n):
            c = t.open(f"seat{seat}")
            c.send({"type": "join", "session": t.sid, "seat": seat})
            w = c.until("welcome")
            assert w["role"] == "seat" and w["seat"] == seat and isinstance(w["token"], str)
            t.tokens[seat] = w["token"]
            t.seats.append(c)
            if seat == n - 1:
                break
            # the session waits for people until every seat is claimed
            assert client.get(f"/api/sessions/{t.sid}").json()["phase"] == "waiting"
        t.settle()
        assert t.game is not None
        for c in t.everyone():
            assert c.view is not None and c.version == t.game.version
        yield t, client, server


def act(t: Table, c: Conn, action: str, seen: int | None = None, **extra: Any) -> dict[str, Any]:
    c.send({"type": "act", "action": action, "seen": c.version if seen is None else seen, **extra})
    while True:
        m = c.recv()
        if m["type"] in ("ok", "error"):
            return m


def play_out(t: Table, rng: random.Random, limit: int = 3000, prefer: tuple[str, ...] = ()) -> int:
    """Random legal actions, chosen from what each seat was sent, until the game is over."""
    steps = 0
    while not t.game.is_over:
        assert steps < limit, "the game did not end"
        movers = [c for c in t.seats if c.view and c.seat in c.view["to_act"] and c.view["legal"]]
        assert movers, "nobody can act"
        c = rng.choice(movers)
        first = [x for x in c.view["legal"] if prefer and x.startswith(prefer)]
        action = rng.choice(first or c.view["legal"])
        before = t.game.version
        reply = act(t, c, action)
        assert reply["type"] == "ok", reply
        assert reply["version"] == t.game.version > before
        t.settle()
        steps += 1
        if steps % 25 == 1:  # the HTTP answers name no card hidden from the public mid-game
            public = t.known.get(None, set()) | card_names(t.game.view(None))
            answer = t.client.get(f"/api/sessions/{t.sid}").json()
            listing = t.client.get("/api/sessions").json()
            assert card_names(answer) | card_names(listing) <= public
    return steps


def check_over(t: Table, client: TestClient) -> None:
    for c in t.everyone():
        assert c.view is not None and c.view["is_over"]
        assert c.view == t.game.view(c.seat if c.role == "seat" else None)
    info = client.get(f"/api/sessions/{t.sid}").json()
    assert info["phase"] == "over" and info["record"] == f"/api/sessions/{t.sid}/record"
    assert info["ended_by"] is None  # played by the players to its end
    rec = client.get(info["record"])
    assert rec.status_code == 200
    assert rec.json() == json.loads(json.dumps(t.game.record()))
    steps = len(t.game.record()["actions"]) if "actions" in t.game.record() else None
    last = client.get(f"/api/sessions/{t.sid}/replay/999999").json()
    assert {"step", "steps", "view", "action", "actor", "cause"} <= set(last)
    assert last["step"] == last["steps"]
    if steps is not None:
        assert last["steps"] == steps
    assert last["view"] == json.loads(json.dumps(t.game.view(None)))
    for bad in ("9" * 13, "abc", "-1"):
        r = client.get(f"/api/sessions/{t.sid}/replay/{bad}")
        assert r.status_code in (400, 404) and "error" in r.json(), bad
    assert client.get(f"/api/sessions/{t.sid}/replay/" + "9" * 13).status_code == 400
    first = client.get(f"/api/sessions/{t.sid}/replay/0").json()
    assert first["step"] == 0 and first["action"] is None and first["cause"] is None
    for c in t.everyone():  # another seat's token is in no byte a connection received
        for seat, token in t.tokens.items():
            if seat != c.seat or c.role != "seat":
                assert all(token not in text for text in c.texts), (c.label, seat)
    for c in t.seats:  # a record asked over the socket, once over
        c.send({"type": "record", "id": 7})
        r = c.until("record")
        assert r["id"] == 7


# -- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "n", "extra"),
    [
        ("golf", 3, {"options": {"rounds": 1}}),
        ("golf", 2, {"options": {"rounds": 1, "layout": 4}}),
        ("tonk", 4, {"options": {"max_players": 4, "hands": 2}}),
        ("tonk", 2, {"options": {"hands": 2}}),
        ("speed", 2, {}),
        ("spit", 2, {}),
    ],
)
def test_whole_game_every_frame_checked(game: str, n: int, extra: dict[str, Any]) -> None:
    rng = random.Random("e" if game == "spit" else f"{game}{n}a")
    prefer = ("play", "claim", "ready", "slap") if game == "spit" else ()
    with table(game, n, **extra) as (t, client, _):
        made = client.get(f"/api/sessions/{t.sid}").json()
        assert made["phase"] == "playing" and made["schema"] == t.game.view_schema()
        assert made["realtime"] == (game in ("speed", "spit"))
        listed = client.get("/api/sessions")
        assert listed.status_code == 200 and int(listed.headers["x-total-count"]) == 1
        assert [s["session"] for s in listed.json()] == [t.sid]
        assert client.get(f"/api/sessions/{t.sid}/record").status_code == 409
        assert client.get(f"/api/sessions/{t.sid}/replay/1").status_code == 409
        play_out(t, rng, prefer=prefer)
        check_over(t, client)


# -- HTTP requests ------------------------------------------------------------------------------


def test_games_list_documented_fields() -> None:
    with serve() as (client, _):
        games = client.get("/api/games").json()
        by = {g["name"]: g for g in games}
        assert {"golf", "tonk", "spit", "speed"} <= set(by)
        for g in games:
            for field in ("name", "summary", "realtime", "min_players", "max_players"):
                assert field in g
            for o in g["options"]:
                for f in ("name", "default", "doc", "kind", "choices", "minimum", "maximum"):
                    assert f in o
                assert "nullable" in o and "aliases" not in o
            for r in g["rules"]:
                assert {"name", "summary", "default", "options"} <= set(r)
            for a in g["agents"]:
                assert {"name", "params", "bounds", "doc"} <= set(a)
        # the declared range; Tonk's max_players option (default 3) narrows it in the lobby
        assert (by["tonk"]["min_players"], by["tonk"]["max_players"]) == (2, 4)
        tonk_max = {o["name"]: o for o in by["tonk"]["options"]}["max_players"]
        assert tonk_max["default"] == 3
        assert by["spit"]["realtime"] and by["speed"]["realtime"] and not by["golf"]["realtime"]


def test_post_answers_the_session_as_get_shows_it() -> None:
    with serve() as (client, _):
        made = make(
            client,
            "golf",
            2,
            time={"turn": 60, "total": None, "fallback": "first", "forfeit": False},
        )
        sid = made["session"]
        assert client.get(f"/api/sessions/{sid}").json() == made
        assert made["phase"] == "waiting" and made["schema"] is None and made["record"] is None
        assert made["ended_by"] is None and made["watch"] == f"/play/{sid}#watch"
        assert made["time"] == {"turn": 60, "total": None, "fallback": "first", "forfeit": False}
        assert made["seats"] == [
            {
                "seat": i,
                "name": f"P{i}",
                "bot": None,
                "claimed": False,
                "link": f"/play/{sid}#seat={i}",
            }
            for i in range(2)
        ]
        assert made["rules"] == [] and set(made["options"]) == {
            "layout",
            "rounds",
            "points_limit",
            "max_turns",
            "dealer",
        }
        # waiting sessions are not listed
        r = client.get("/api/sessions")
        assert r.json() == [] and r.headers["x-total-count"] == "0"
        none = client.post(
            "/api/sessions", json={"game": "golf", "seats": [{}, {}], "spectators": False}
        ).json()
        assert none["watch"] is None and [s["name"] for s in none["seats"]] == [
            "Player 1",
            "Player 2",
        ]


def test_a_bot_seat_has_no_link_and_is_claimed() -> None:
    with serve() as (client, _):
        r = client.post(
            "/api/sessions",
            json={
                "game": "golf",
                "seats": [{"name": "Ann"}, {"name": "B", "agent": "golf-greedy:seed=3"}],
            },
        )
        assert r.status_code == 201
        bot = r.json()["seats"][1]
        assert bot["bot"] == "golf-greedy" and bot["link"] is None and bot["claimed"] is True


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/sessions/nope", 404),
        ("GET", "/api/sessions/nope/record", 404),
        ("GET", "/api/sessions/nope/replay/0", 404),
        ("GET", "/api/no-such-path", 404),
        ("PUT", "/api/sessions", 405),
        ("DELETE", "/api/games", 405),
    ],
)
def test_refusals_are_json_errors(method: str, path: str, status: int) -> None:
    with serve() as (client, _):
        r = client.request(method, path)
        assert r.status_code == status
        body = r.json()
        assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"]


TWO = [{"name": "A"}, {"name": "B"}]


@pytest.mark.parametrize(
    ("body", "word"),
    [
        (b"[1, 2]", None),
        (b'{"game": "golf", "seats": [{}, {}], "x": NaN}', None),
        (b'{"game": "golf", "game": "golf", "seats": [{}, {}]}', "game"),
        (b'{"game": "golf\\ud800", "seats": [{}, {}]}', "game"),
        (b'{"game": "golf", "seats": [{"name": "A\\udc00"}, {}]}', None),
        (b'{"game": "golf", "seats": [{}, {}], "o": ' + b"[" * 40 + b"]" * 40 + b"}", None),
        (b'{"game": "golf", "seats": [{}, {}], "n": 1' + b"0" * 5000 + b"}", None),
        (json.dumps({"game": "golf", "seats": TWO, "rules": "x"}).encode(), "rules"),
        (json.dumps({"seats": TWO}).encode(), "game"),
        (json.dumps({"game": "golf"}).encode(), "seats"),
        (json.dumps({"game": "nope", "seats": TWO}).encode(), "nope"),
        (json.dumps({"game": "golf", "seats": [{}]}).encode(), None),
        (json.dumps({"game": "golf", "seats": [{}] * 65}).encode(), None),
        (json.dumps({"game": "golf", "seats": [1, 2]}).encode(), "seat"),
        (json.dumps({"game": "golf", "seats": [{"name": 5}, {}]}).encode(), "name"),
        (json.dumps({"game": "golf", "seats": [{"name": "x" * 201}, {}]}).encode(), "name"),
        (json.dumps({"game": "golf", "seats": TWO, "options": {"layout": 7}}).encode(), "layout"),
        (json.dumps({"game": "golf", "seats": TWO, "time": {"turn": 0}}).encode(), None),
        (json.dumps({"game": "golf", "seats": TWO, "time": {"turn": 86401}}).encode(), None),
        (json.dumps({"game": "golf", "seats": TWO, "time": {"extra": 1}}).encode(), "extra"),
        (json.dumps({"game": "golf", "seats": TWO, "time": {"forfeit": "yes"}}).encode(), None),
        (json.dumps({"game": "golf", "seats": TWO, "time": {"fallback": "x"}}).encode(), None),
        (json.dumps({"game": "golf", "seats": TWO, "time": 5}).encode(), "time"),
        (json.dumps({"game": "tonk", "seats": [{}] * 4}).encode(), None),
        (
            json.dumps(
                {"game": "golf", "seats": [{}, {"agent": "golf-greedy", "params": {"seed": "x"}}]}
            ).encode(),
            "seat 1",
        ),
    ],
)
def test_bad_lobby_requests_are_400_and_create_nothing(body: bytes, word: str | None) -> None:
    with serve() as (client, server):
        r = client.post("/api/sessions", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, (r.status_code, r.text)
        error = r.json()["error"]
        assert isinstance(error, str) and error
        if word is not None:
            assert word in error, error
        assert server.hub.sessions == {}


@pytest.mark.parametrize(
    ("names", "ok"),
    [
        (["Ann", "ann"], False),
        (["Ann", "\u0410nn"], False),  # a Cyrillic A
        (["Ann", "Bob (you)"], False),
        (["Ann", "Bob (seat 2)"], False),
        (["Ann", "Bob (time ran out)"], False),
        (["Ann", "B\u202eob"], False),
        (["Ann", "B\x07ob"], False),
        (["Ann", "   "], False),
        (["Ann", "\u200dBob"], False),
        (["Player 2", ""], False),  # seat 1's default is seat 0's name
        (["", "Player 1"], False),
        (["Ann", "Bob"], True),
        (["Ann", "\u0391nn"], False),  # a Greek Alpha
        (["Ann", "Ann\ufe0f"], False),  # a variation selector shows as nothing
        (["\U0001f468\u200d\U0001f469", "\U0001f468\U0001f469"], False),  # joiners only
        (["Ann", "Bob\u200d"], False),  # a joiner at an end
        (["Ann", "\u13aann"], True),  # Cherokee look-alikes are not caught (documented)
        (["Ann", "x" * 200], True),
    ],
)
def test_seat_names(names: list[str], ok: bool) -> None:
    with serve() as (client, server):
        seats = [{"name": n} for n in names]
        r = client.post("/api/sessions", json={"game": "golf", "seats": seats})
        if ok:
            assert r.status_code == 201
        else:
            assert r.status_code == 400 and "error" in r.json(), (names, r.text)
            assert server.hub.sessions == {}


def test_names_keep_40_code_points_and_whole_emoji() -> None:
    with serve() as (client, _):
        long = "x" * 100
        made = client.post(
            "/api/sessions", json={"game": "golf", "seats": [{"name": long}, {"name": "B"}]}
        ).json()
        assert made["seats"][0]["name"] == "x" * 40
        flag = "x" * 39 + "\U0001f1eb\U0001f1f7"  # a flag across the 40th code point
        made = client.post(
            "/api/sessions", json={"game": "golf", "seats": [{"name": flag}, {"name": "B"}]}
        ).json()
        assert made["seats"][0]["name"] == "x" * 39


def test_body_limits_413() -> None:
    with serve() as (client, server):
        big = b'{"game": "golf", "seats": [{}, {}], "pad": "' + b"x" * 70000 + b'"}'
        r = client.post("/api/sessions", content=big)
        assert r.status_code == 413 and "error" in r.json()

        def chunks() -> Iterator[bytes]:
            yield b'{"game": "golf", "seats": [{}, {}], "pad": "'
            for _ in range(20):
                yield b"x" * 8192
            yield b'"}'

        r = client.post("/api/sessions", content=chunks())
        assert r.status_code == 413 and "error" in r.json()
        assert server.hub.sessions == {}


def test_exactly_64_kib_is_accepted() -> None:
    with serve() as (client, _):
        head = b'{"game": "golf", "seats": [{}, {}], "pad": "'
        body = head + b"x" * (65536 - len(head) - 2) + b'"}'
        assert len(body) == 65536
        assert client.post("/api/sessions", content=body).status_code == 201


def test_a_browser_post_from_another_origin_is_403() -> None:
    with serve() as (client, server):
        body = {"game": "golf", "seats": TWO}
        r = client.post("/api/sessions", json=body, headers={"origin": "http://evil.example"})
        assert r.status_code == 403 and "error" in r.json()
        assert server.hub.sessions == {}
        r = client.post("/api/sessions", json=body, headers={"origin": "http://testserver"})
        assert r.status_code == 201


def test_listing_limit_offset_and_total() -> None:
    with serve() as (client, _), ExitStack() as stack:
        sids = []
        for _ in range(3):
            sid = make(client, "golf", 2)["session"]
            for seat in range(2):
                ws = stack.enter_context(client.websocket_connect("/ws"))
                c = Conn(ws, "x")
                c.send({"type": "join", "session": sid, "seat": seat})
                c.until("welcome")
            sids.append(sid)
        r = client.get("/api/sessions")
        assert r.headers["x-total-count"] == "3"
        assert [s["session"] for s in r.json()] == sids[::-1]  # newest first
        assert [s["session"] for s in client.get("/api/sessions?limit=0").json()] == sids[2:]
        assert [s["session"] for s in client.get("/api/sessions?limit=1&offset=1").json()] == [
            sids[1]
        ]
        assert len(client.get("/api/sessions?limit=999").json()) == 3
        for bad in ("limit=-1", "limit=abc", "offset=1.5", "limit=1234567890", "offset=+1"):
            r = client.get(f"/api/sessions?{bad}")
            assert r.status_code == 400 and "error" in r.json(), bad
        r = client.get("/api/sessions?limit=999999999")
        assert r.status_code == 200


def test_replay_step_digits() -> None:
    with serve() as (client, _):
        sid = make(client, "golf", 2)["session"]
        # before the end: 409, or 400 for a k of 13 digits (the doc orders neither check)
        assert client.get(f"/api/sessions/{sid}/replay/" + "9" * 13).status_code in (400, 409)
        assert client.get(f"/api/sessions/{sid}/replay/" + "9" * 12).status_code == 409


# -- Limits -------------------------------------------------------------------------------------


def test_max_sessions_429_with_retry_after() -> None:
    with serve(server_limits=ServerLimits(max_sessions=1)) as (client, server):
        make(client, "golf", 2)
        r = client.post("/api/sessions", json={"game": "golf", "seats": TWO})
        assert r.status_code == 429 and r.headers["retry-after"] == "60"
        assert "at most 1" in r.json()["error"]
        assert len(server.hub.sessions) == 1
        # a request refused anyway is 400, not 429 (the limits come after the checks)
        r = client.post("/api/sessions", json={"game": "nope", "seats": TWO})
        assert r.status_code == 400


def test_max_bot_games_429() -> None:
    bots = [{"name": f"B{i}", "agent": "golf-greedy", "params": {"seed": i}} for i in range(2)]
    with serve(server_limits=ServerLimits(max_bot_games=1), bot_delay=5.0) as (client, server):
        assert client.post("/api/sessions", json={"game": "golf", "seats": bots}).status_code == 201
        r = client.post("/api/sessions", json={"game": "golf", "seats": bots})
        assert r.status_code == 429 and r.headers["retry-after"] == "60" and "error" in r.json()
        assert make(client, "golf", 2)  # a game with a person is still taken
        assert len(server.hub.sessions) == 2


def test_max_per_client_429() -> None:
    with serve(server_limits=ServerLimits(max_per_client=1)) as (client, _):
        make(client, "golf", 2)
        r = client.post("/api/sessions", json={"game": "golf", "seats": TWO})
        assert r.status_code == 429 and r.headers["retry-after"] == "60"


def test_max_sockets_closes_with_1013() -> None:
    with (
        serve(server_limits=ServerLimits(max_sockets=1)) as (client, _),
        client.websocket_connect("/ws") as first,
    ):
        c = Conn(first, "first")
        c.send({"type": "ping", "id": 1})
        assert c.until("pong")["id"] == 1
        with client.websocket_connect("/ws") as second, pytest.raises(WebSocketDisconnect) as info:
            receive_text(second)
        assert info.value.code == 1013 and "1 connection" in info.value.reason
        c.send({"type": "ping", "id": 2})  # the first is still served
        assert c.until("pong")["id"] == 2


def test_join_wait_closes_an_idle_socket_with_1008() -> None:
    with (
        serve(server_limits=ServerLimits(join_wait=1.0)) as (client, _),
        client.websocket_connect("/ws") as ws,
    ):
        with pytest.raises(WebSocketDisconnect) as info:
            for _ in range(5):
                receive_text(ws)
        assert info.value.code == 1008
        assert info.value.reason == "no join or watch within 1 second"


def test_websocket_from_another_origin_is_refused_1008() -> None:
    with serve() as (client, _):
        with (
            pytest.raises(WebSocketDisconnect) as info,
            client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws,
        ):
            receive_text(ws)
        assert info.value.code == 1008
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
            ws.send_text(json.dumps({"type": "ping", "id": 1}))
            assert json.loads(receive_text(ws))["type"] == "pong"


# -- hostile frames -----------------------------------------------------------------------------


def snapshot(t: Table) -> tuple[Any, ...]:
    g = t.game
    return (g.version, [g.view(s) for s in range(len(t.seats))], g.view(None))


def expect_error(t: Table, c: Conn, frame: Any, code: str, **fields: Any) -> dict[str, Any]:
    """*frame* gets an ``error`` *code* to *c* only, and nothing changes for anyone."""
    before = snapshot(t)
    lasts = [x.last for x in t.everyone()]
    c.send(frame if isinstance(frame, str) else json.dumps(frame))
    m = c.until("error")
    assert m["code"] == code, (frame if len(str(frame)) < 300 else "...", m)
    assert isinstance(m["message"], str) and m["message"]
    for k, v in fields.items():
        assert m.get(k) == v, (k, m)
    for other in t.everyone():
        got = other.barrier()
        assert [x for x in got if x["type"] != "presence"] == [], (other.label, got)
    assert snapshot(t) == before
    assert [x.last for x in t.everyone()] == lasts
    t.check_batch()
    return m


def test_hostile_frames_golf() -> None:
    with table("golf", 2, options={"rounds": 1}) as (t, _, _):
        a, b = t.seats
        spec = t.spectator
        assert spec is not None
        mover = a if 0 in t.game.to_act else b
        idle = b if mover is a else a
        legal = mover.view["legal"][0]
        expect_error(t, mover, "{not json", "bad-json")
        expect_error(t, mover, "[1, 2]", "bad-json")
        expect_error(t, mover, '"act"', "bad-json")
        expect_error(t, mover, {"type": "nope", "id": "q"}, "bad-message", id="q")
        expect_error(t, mover, {"type": "act", "action": legal}, "bad-message")
        expect_error(t, mover, {"type": "act", "action": legal, "seen": "0"}, "bad-message")
        expect_error(t, mover, {"type": "act", "action": 5, "seen": mover.version}, "bad-message")
        expect_error(
            t, mover, {"type": "act", "action": legal, "seen": mover.version + 5}, "bad-message"
        )
        expect_error(
            t,
            mover,
            {"type": "act", "action": legal, "seen": mover.version, "seat": idle.seat},
            "not-your-seat",
        )
        expect_error(
            t, mover, {"type": "act", "action": "fly 99", "seen": mover.version}, "notation"
        )
        m = expect_error(
            t,
            idle,
            {"type": "act", "action": legal, "seen": idle.version, "id": 9},
            "illegal",
            id=9,
        )
        assert m["rule"] == "CORE-TURN-1"
        expect_error(t, spec, {"type": "act", "action": legal, "seen": spec.version}, "not-a-seat")
        expect_error(t, mover, {"type": "join", "session": t.sid, "seat": 1}, "already-joined")
        expect_error(t, mover, {"type": "record"}, "not-over")
        expect_error(t, mover, "x" * 9000, "too-large")
        expect_error(t, mover, json.dumps({"type": "ping", "pad": "x" * 9000}), "too-large")
        # another seat's token, from a new connection
        intruder = t.open("intruder")
        before = snapshot(t)
        intruder.send(
            {"type": "join", "session": t.sid, "seat": idle.seat, "token": t.tokens[mover.seat]}
        )
        assert intruder.until("error")["code"] == "bad-token"
        intruder.send({"type": "join", "session": t.sid, "seat": idle.seat})
        assert intruder.until("error")["code"] == "seat-taken"
        intruder.send({"type": "act", "action": legal, "seen": 0})
        assert intruder.until("error")["code"] == "not-joined"
        intruder.send({"type": "watch", "session": "no-such"})
        assert intruder.until("error")["code"] == "no-session"
        intruder.send({"type": "join", "session": t.sid, "seat": 7})
        assert intruder.until("error")["code"] == "no-seat"
        assert snapshot(t) == before
        for other in t.everyone():
            assert [x for x in other.barrier() if x["type"] != "presence"] == []
        t.check_batch()
        # the game still plays to its end
        play_out(t, random.Random(3))
        expect_error(
            t, mover, {"type": "act", "action": "draw", "seen": mover.version}, "game-over"
        )


def test_binary_frame_gets_an_error_and_changes_nothing() -> None:
    with table("golf", 2, options={"rounds": 1}) as (t, _, _):
        a = t.seats[0]
        before = snapshot(t)
        a.ws.send_bytes(b"\xff\xfe{")  # not UTF-8: not one JSON object
        got = [m for m in a.barrier() if m["type"] != "presence"]
        assert [m["type"] for m in got] == ["error"], got
        assert got[0]["code"] == "bad-json", got
        assert snapshot(t) == before
        for other in t.everyone():
            assert [m for m in other.barrier() if m["type"] != "presence"] == []
        t.check_batch()


def test_a_frame_over_1_mib_closes_1009_and_the_others_play_on() -> None:
    with table("golf", 2, options={"rounds": 1}) as (t, _, _):
        a, b = t.seats
        a.ws.send_text("x" * (1024 * 1024 + 10))
        a.send({"type": "ping", "id": "after"})
        got: list[dict[str, Any]] = []
        try:
            while not got or got[-1]["type"] != "pong":
                got.append(a.recv())
            closed = None
        except WebSocketDisconnect as e:
            closed = e.code
        # uvicorn closes with 1009; an ASGI server that passes the frame on: too-large
        assert closed == 1009 or [m["code"] for m in got if m["type"] == "error"] == ["too-large"]
        a.pending.clear()
        t.seats = [b] if closed else [a, b]
        got = b.barrier()
        assert all(m["type"] == "presence" for m in got), got
        t.check_batch()


def test_turn_based_stale_seen() -> None:
    with table("golf", 2, options={"rounds": 1}) as (t, _, _):
        rng = random.Random(5)
        first = t.seats[t.game.to_act[0]]
        old = {c.seat: c.version for c in t.seats}
        while first.seat in t.game.to_act:
            act(t, first, rng.choice(first.view["legal"]))
            t.settle()
        nxt = t.seats[t.game.to_act[0]]
        m = expect_error(
            t, nxt, {"type": "act", "action": nxt.view["legal"][0], "seen": old[nxt.seat]}, "stale"
        )
        assert m.get("rule") is None


def test_realtime_stale_cites_core_rt() -> None:
    with table("speed", 2) as (t, _, _):
        rng = random.Random(2)
        for _ in range(40):  # until a play by one seat makes a play of the other stale
            a, b = t.seats
            old_b = b.version
            b_legal = list(b.view["legal"])
            a_legal = [x for x in a.view["legal"] if x.startswith("play")]
            if not a_legal:
                act(t, rng.choice(t.seats), rng.choice(rng.choice(t.seats).view["legal"]))
                t.settle()
                continue
            act(t, a, rng.choice(a_legal))
            t.settle()
            gone = [x for x in b_legal if x not in b.view["legal"] and x.startswith("play")]
            if gone:
                m = expect_error(t, b, {"type": "act", "action": gone[0], "seen": old_b}, "stale")
                assert m["rule"] in ("CORE-RT-1", "CORE-RT-3")
                return
            if t.game.is_over:
                break
        pytest.skip("no stale play came up")


def test_rate_limit_then_close_1008() -> None:
    slow = Limits(rate=1.0, burst=5, close_after=20)  # (a flood, whatever the machine's speed)
    with serve(limits=slow) as (client, _), ExitStack() as stack:
        sid = make(client, "golf", 2)["session"]
        c = Conn(stack.enter_context(client.websocket_connect("/ws")), "flood")
        other = Conn(stack.enter_context(client.websocket_connect("/ws")), "other")
        other.send({"type": "watch", "session": sid})
        other.until("welcome")
        c.send({"type": "watch", "session": sid})
        c.until("welcome")
        for i in range(60):
            c.send({"type": "ping", "id": i})
        kinds: list[dict[str, Any]] = []
        with pytest.raises(WebSocketDisconnect) as info:
            for _ in range(1000):
                kinds.append(c.recv())
        assert info.value.code == 1008
        errors = [m for m in kinds if m["type"] == "error"]
        assert errors and all(m["code"] == "rate-limited" for m in errors)
        pongs = [m for m in kinds if m["type"] == "pong"]
        assert 0 < len(pongs) < 60
        assert len(errors) <= 3  # one a second at most, and one with the close
        other.send({"type": "ping", "id": "fine"})
        assert other.until("pong")["id"] == "fine"


# -- streams, resync, reconnect -----------------------------------------------------------------


def test_second_tab_reconnect_and_resync_get_the_very_same_texts() -> None:
    with table("golf", 2, options={"rounds": 1}) as (t, _, _):
        a, b = t.seats
        tab = t.open("seat0-tab2")
        tab.last, tab.view, tab.version = a.last, json.loads(json.dumps(a.view)), a.version
        tab.send(
            {"type": "join", "session": t.sid, "seat": 0, "token": t.tokens[0], "last": a.last}
        )
        w = tab.until("welcome")
        assert "token" not in w or not w["token"]
        t.seats.append(tab)
        t.settle()
        t.seats.pop()
        # the first tab goes away; the other seat plays on while it is away
        a.ws.close()
        t.seats = [b, tab]
        rng = random.Random(11)
        for _ in range(6):
            movers = [c for c in (b, tab) if c.seat in t.game.to_act and c.view["legal"]]
            c = movers[0]
            act(t, c, rng.choice(c.view["legal"]))
            t.settle()
        # back with the token and last: exactly the missed messages, or a fresh view
        back = t.open("seat0-back")
        back.last, back.view, back.version = a.last, a.view, a.version
        back.send(
            {"type": "join", "session": t.sid, "seat": 0, "token": t.tokens[0], "last": a.last}
        )
        back.until("welcome")
        back.barrier()
        assert back.last == tab.last and back.view == tab.view
        for n, text in back.numbered.items():
            msg = json.loads(text)
            if not (msg["type"] == "view" and msg.get("reason") == "resync"):
                assert text == tab.numbered[n], n
        # a resync from an earlier number: the same texts again (or a fresh view)
        k = max(1, tab.last - 3)
        again = Conn(tab.ws, "resync")
        again.last, again.view, again.version = k, None, None
        again.send({"type": "resync", "last": k})
        again.barrier()
        for n, text in again.numbered.items():
            msg = json.loads(text)
            if msg["type"] != "view":
                assert text == tab.numbered[n]
        assert again.last == tab.last
        t.seats = [b, tab, back]
        t.check_batch()


def test_join_with_last_beyond_the_stream_gets_a_lower_last_and_a_whole_view() -> None:
    with table("golf", 2, options={"rounds": 1}) as (t, _, _):
        a = t.seats[0]
        c = t.open("far")
        c.send(
            {"type": "join", "session": t.sid, "seat": 0, "token": t.tokens[0], "last": a.last + 50}
        )
        w = c.until("welcome")
        assert w["last"] < a.last + 50
        c.last = w["last"]
        v = c.until("view")
        assert v["n"] <= a.last and v["view"] == t.game.view(0)


def test_spectator_joined_late_and_id_echo() -> None:
    with table("tonk", 2, watch=False, options={"hands": 1}) as (t, _, _):
        rng = random.Random(1)
        c = t.seats[t.game.to_act[0]]
        act(t, c, rng.choice(c.view["legal"]))
        t.settle()
        spec = t.open("late")
        spec.send({"type": "watch", "session": t.sid, "id": "w1"})
        w = spec.until("welcome")
        assert w["id"] == "w1" and w["role"] == "spectator"
        spec.barrier()
        assert spec.view == t.game.view(None)
        spec.send({"type": "ping", "t": 5, "id": 3})
        p = spec.until("pong")
        assert p["id"] == 3 and "server_time" in p
        spec.send({"type": "history", "id": "h"})
        h = spec.until("history")
        assert h["id"] == "h"
        t.spectator = spec
        t.check_batch()


def test_presence_to_a_joining_connection() -> None:
    with table("golf", 2, watch=False) as (t, _, _):
        c = t.open("watcher")
        c.send({"type": "watch", "session": t.sid})
        c.until("welcome")
        got = c.barrier()
        assert "presence" in [m["type"] for m in got]


def test_no_spectators_answers_full() -> None:
    with serve(limits=FAST) as (client, _), ExitStack() as stack:
        sid = make(client, "golf", 2, spectators=False)["session"]
        c = Conn(stack.enter_context(client.websocket_connect("/ws")), "w")
        c.send({"type": "watch", "session": sid})
        assert c.until("error")["code"] == "full"


def test_resign_at_any_time_and_leave() -> None:
    with table("golf", 3, options={"rounds": 1}) as (t, client, _):
        idle = next(c for c in t.seats if c.seat not in t.game.to_act)
        reply = act(t, idle, "resign", seat=idle.seat)
        assert reply["type"] == "ok"
        t.settle()
        info = client.get(f"/api/sessions/{t.sid}").json()
        assert info["ended_by"] is None  # a player's own action
        # leave: the connection stays open and reads no more of the session
        other = next(c for c in t.seats if c is not idle)
        other.send({"type": "leave"})
        other.send({"type": "ping", "id": "still"})
        assert other.until("pong")["id"] == "still"
        other.send({"type": "act", "action": "draw", "seen": other.version})
        assert other.until("error")["code"] == "not-joined"


def test_id_of_65_characters_is_a_bad_message_and_64_is_echoed() -> None:
    with table("golf", 2, options={"rounds": 1}) as (t, _, _):
        a = t.seats[0]
        expect_error(t, a, {"type": "ping", "id": "x" * 65}, "bad-message")
        a.send({"type": "ping", "id": "y" * 64})
        assert a.until("pong")["id"] == "y" * 64
        expect_error(t, a, {"type": "ping", "id": 1.5}, "bad-message")


def test_a_fifth_connection_of_one_seat_is_full() -> None:
    with table("golf", 2, options={"rounds": 1}) as (t, _, _):
        tabs = []
        for i in range(4):
            c = t.open(f"tab{i}")
            c.send({"type": "join", "session": t.sid, "seat": 0, "token": t.tokens[0]})
            m = c.until("welcome") if i < 3 else c.recv()
            tabs.append((c, m))
        kinds = [m["type"] for _, m in tabs]
        assert kinds[:3] == ["welcome"] * 3  # 4 connections of seat 0 with the first
        last = tabs[3][1]
        while last["type"] not in ("welcome", "error"):
            last = tabs[3][0].recv()
        assert last["type"] == "error" and last["code"] == "full"


def test_spectators_see_a_game_with_a_bot_two_actions_late() -> None:
    seats = [{"name": "Ann"}, {"name": "Bot", "agent": "golf-greedy", "params": {"seed": 4}}]
    with serve(limits=FAST) as (client, server), ExitStack() as stack:
        r = client.post(
            "/api/sessions", json={"game": "golf", "seats": seats, "options": {"rounds": 1}}
        )
        sid = r.json()["session"]
        t = Table(client, server, sid, stack)
        t.spectator = spec = t.open("spectator")
        spec.send({"type": "watch", "session": sid})
        spec.until("welcome")
        ann = t.open("ann")
        ann.send({"type": "join", "session": sid, "seat": 0})
        t.tokens[0] = ann.until("welcome")["token"]
        t.seats = [ann]
        rng = random.Random(8)
        for _ in range(400):
            while ann.view is None or (0 not in ann.view["to_act"] and not ann.view["is_over"]):
                ann.recv()
            if ann.view["is_over"]:
                break
            assert act(t, ann, rng.choice(ann.view["legal"]))["type"] == "ok"
            spec.barrier()
            if not t.game.is_over and spec.version is not None:
                assert spec.version <= max(0, t.game.version - 2), (spec.version, t.game.version)
            spec.pending.clear()
            ann.pending.clear()
        spec.barrier()
        assert spec.view == t.game.view(None)  # everything once over
        assert all(token not in text for text in spec.texts for token in t.tokens.values())


def test_resync_with_nothing_missed_sends_nothing_and_echoes_no_id() -> None:
    with table("golf", 2, options={"rounds": 1}) as (t, _, _):
        a = t.seats[0]
        a.send({"type": "resync", "last": a.last, "id": "r"})
        got = a.barrier()
        assert [m for m in got if m["type"] != "presence"] == []


def test_hostile_frames_realtime() -> None:
    with table("speed", 2) as (t, _, _):
        a, b = t.seats
        mine = a.view["legal"]
        theirs = [x for x in b.view["legal"] if x.startswith("play") and x not in mine]
        expect_error(t, a, {"type": "act", "action": "zap 9", "seen": a.version}, "notation")
        expect_error(t, a, {"type": "act", "action": mine[0], "seen": a.version + 3}, "bad-message")
        expect_error(t, a, {"type": "act", "action": mine[0], "seen": -1}, "bad-message")
        if theirs:  # a card of the other hand: not this seat's to play
            m = expect_error(
                t, a, {"type": "act", "action": theirs[0], "seen": a.version}, "illegal"
            )
            assert isinstance(m.get("rule"), str) and m["rule"]
        expect_error(t, a, {"type": "takeback", "op": "request"}, "takeback-refused")
        expect_error(t, a, {"type": "takeback", "op": "nope"}, "bad-message")


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"host": "example.com", "origin": "http://example.com"}, 201),
        ({"host": "example.com", "origin": "http://example.com:80"}, 201),
        ({"host": "example.com", "origin": "https://example.com:443"}, 201),
        ({"host": "example.com", "origin": "http://example.com:8080"}, 403),
        ({"host": "example.com:8000", "origin": "http://example.com"}, 403),
        ({"host": "example.com:8000", "origin": "http://example.com:8000"}, 201),
        ({"host": "example.com", "origin": "http://example.com.evil.org"}, 403),
        ({"host": "example.com", "origin": "null"}, 403),
        (
            {
                "host": "b:1",
                "x-forwarded-host": "example.com:8000",
                "origin": "http://example.com:8000",
            },
            201,
        ),
        (
            {
                "host": "b:1",
                "forwarded": "host=example.com:8000",
                "origin": "http://example.com:8000",
            },
            201,
        ),
    ],
)
def test_origin_matches_host_as_documented(headers: dict[str, str], status: int) -> None:
    with serve() as (client, server):
        r = client.post("/api/sessions", json={"game": "golf", "seats": TWO}, headers=headers)
        assert r.status_code == status
        assert len(server.hub.sessions) == (status == 201)


BAD_FRAMES = [
    ('{"type":"ping","t":NaN}', "bad-json"),
    ('{"type":"ping","t":Infinity}', "bad-json"),
    ('{"type":"ping","type":"ping"}', "bad-json"),
    ("", "bad-json"),
    ("null", "bad-json"),
    ('{"type":"ping","id":"\\ud800"}', "bad-message"),
    ('{"type":"ping","t":"x"}', "bad-message"),
    ('{"type":"ping","id":true}', "bad-message"),
    ('{"type":5}', "bad-message"),
    ('{"no":"type"}', "bad-message"),
    ('{"type":"history","since":-1}', "bad-message"),
    ('{"type":"resync","last":"x"}', "bad-message"),
    ('{"type":"act","action":"flip 0","seen":true}', "bad-message"),
    ('{"type":"act","action":"flip 0","seen":0.0}', "bad-message"),
    ('{"type":"act","action":"flip 0","seen":0,"seat":"0"}', "bad-message"),
    ('{"type":"act","action":"flip 0","seen":0,"extra":1}', "bad-message"),
]


def test_malformed_frames_each_an_error_to_the_sender_only() -> None:
    with table("golf", 2, options={"rounds": 1}) as (t, _, _):
        for frame, code in BAD_FRAMES:
            expect_error(t, t.seats[0], frame, code)
        assert t.spectator is not None
        expect_error(t, t.spectator, '{"type":"watch","last":"x"}', "bad-message")
