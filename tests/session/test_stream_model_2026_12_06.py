"""Differential review of ``cardcore.session`` streams against a model written from the docs.

The model (docs/session.rst, "Seats, tokens and streams", "Spectators", "Takebacks",
"The protocol") says, for every connection:

* every numbered message (``lobby``, ``view``, ``update``, ``takeback``, ``reveal``) of a
  stream carries ``n`` from 1, without gaps or duplicates; all connections of one stream
  get the very same text for one ``n``; a ``resync`` view carries the stream's current
  number without taking a new one;
* ``resync`` (or ``join`` with ``last``) from ``k`` returns exactly the missed texts
  ``k+1..N``, or a fresh ``view`` at ``N`` when that view's text is shorter than the
  missed texts together or the kept tail does not reach back to ``k``; nothing when
  nothing was missed;
* applying a seat's stream (whole views, then each update's ``patch``) rebuilds exactly
  ``game.view(seat)``; a spectator's rebuilds ``game.view(None)`` ``spectator_delay``
  actions late (everything once the game is over);
* an update's ``events`` are the game's events of that action redacted for that seat
  (``game.events.subscribe(Event, handler, seat=s)``), and its other content names no
  card outside that seat's views; the action's text only when every card it names is
  in the seat's view before or after the action;
* a refused message is one ``error`` to its sender only, and changes nothing (no
  numbered message to anybody, the game's version unchanged);
* a takeback that is allowed sends every seat a fresh ``view`` (reason ``takeback``).

Each claim is driven by seeded random message sequences for Golf, Tonk and Spit on a
virtual clock.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

import cardcore
from cardcore.session import Session, SessionConfig, TimeControl

CARD = re.compile(r"^(?:A|[2-9]|10|J|Q|K)[SHDC]$|^JK$")
SPEC = "spec"
NUMBERED = {"lobby", "view", "update", "takeback", "reveal"}


def cards_in(obj: Any) -> set[str]:
    """Every card word in the string values of *obj* (JSON data)."""
    found: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update(w for w in re.split(r"[^A-Za-z0-9]+", item) if CARD.match(w))
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def apply_patch_model(view: Any, patch: list[Any]) -> Any:
    """The documented patch: ``["set", path, value]`` (``[]``: whole) and ``["del", path]``."""
    view = json.loads(json.dumps(view))
    for op in patch:
        path = op[1]
        if op[0] == "set" and not path:
            view = json.loads(json.dumps(op[2]))
            continue
        target = view
        for key in path[:-1]:
            target = target[key]
        last = path[-1]
        if op[0] == "set":
            if isinstance(target, list) and last == len(target):
                target.append(json.loads(json.dumps(op[2])))
            else:
                target[last] = json.loads(json.dumps(op[2]))
        elif op[0] == "del":
            del target[last]
        else:  # pragma: no cover - an unknown op is a failure of the model check
            raise AssertionError(f"unknown patch op {op!r}")
    return view


class Harness:
    """Drives one session and checks every outbound message against the model."""

    def __init__(
        self,
        game: str,
        seed: int,
        *,
        config: SessionConfig | None = None,
        options: Any = None,
        players: int = 2,
    ) -> None:
        self.now = 0.0
        self.session = Session.create(
            game, NAMES[:players], now=self.now, seed=seed, config=config, options=options
        )
        self.delay = (config or SessionConfig()).spectator_delay
        self.keep = (config or SessionConfig()).resync_keep
        self.clocked = (config or SessionConfig()).time.is_on
        self.role: dict[str, int | None] = {}  # conn -> seat or None (spectator)
        self.conn_last: dict[str, int] = {}
        self.mirror: dict[str, Any] = {}
        self.seats = tuple(range(players))
        keys = (*self.seats, SPEC)
        self.texts: dict[Any, dict[int, str]] = {k: {} for k in keys}
        self.tokens: dict[int, str] = {}
        self.public: dict[int, Any] = {}  # version -> game.view(None)
        self.known: dict[Any, set[str]] = {k: set() for k in keys}
        self.events: dict[Any, list[dict[str, Any]]] = {k: [] for k in keys}
        self.game_obj: Any = None
        self.problems: list[str] = []
        self.takeback_views: dict[Any, int] = {k: 0 for k in keys}
        self.top: dict[Any, int] = {k: 0 for k in keys}
        self.cards_at: dict[int, dict[Any, set[str]]] = {}
        self.by_version: dict[Any, dict[int, list[Any]]] = {k: {} for k in keys}
        self.event_checks = 0

    # -- bookkeeping ---------------------------------------------------------------

    def stream_of(self, conn: str) -> Any:
        seat = self.role[conn]
        return SPEC if seat is None else seat

    def stream_n(self, stream: Any) -> int:
        return max(self.texts[stream], default=0)

    def _subscribe(self) -> None:
        game = self.session.game
        if game is None or game is self.game_obj:
            return
        self.game_obj = game
        for table in self.by_version.values():
            for v in [v for v in table if v > game.version]:
                del table[v]
        for key in self.events:
            self.events[key] = []
            seat = cardcore.SPECTATOR if key == SPEC else key
            game.events.subscribe(
                cardcore.Event, lambda e, k=key: self.events[k].append(e.to_json()), seat=seat
            )

    def _snapshot(self) -> None:
        game = self.session.game
        if game is None:
            return
        version = game.version
        for v in [v for v in self.public if v > version]:
            del self.public[v]
            del self.cards_at[v]
        top = max(self.public, default=0)
        missing = [v for v in range(top + 1, version) if v not in self.public]
        if missing:
            # Several actions in one call (timeouts): every view between, from the record.
            record = game.record()
            for v in missing:
                self._keep(v, cardcore.replay({**record, "actions": record["actions"][:v]}))
        self._keep(version, game)

    def _keep(self, version: int, game: Any) -> None:
        self.public[version] = game.view(None)
        self.cards_at[version] = {SPEC: cards_in(self.public[version])}
        for seat in self.seats:
            self.cards_at[version][seat] = cards_in(game.view(seat))
        for key, cards in self.cards_at[version].items():
            self.known[key] |= cards
        hidden = self.cards_at[version][SPEC] - set.intersection(
            *(self.cards_at[version][seat] for seat in self.seats)
        )
        if hidden:
            self.problems.append(f"game.view(None) at {version} shows cards a seat cannot see")

    def send(self, conn: str, message: Any, *, step: float = 0.5) -> list[Any]:
        self.now += 0.0 if self.clocked else step
        if self.clocked:
            # Clocks due by now are played first (documented): play them on their own.
            self._run(None, None, lambda: self.session.tick(self.now))
        return self._run(conn, message, lambda: self.session.handle(conn, message, self.now))

    def disconnect(self, conn: str) -> list[Any]:
        self.now += 0.5
        outs = self._run(None, None, lambda: self.session.disconnect(conn, self.now))
        self.gone.add(conn)
        self.seat_last[self.stream_of(conn)] = self.conn_last[conn] or 0
        self.seat_hist[self.stream_of(conn)] = self.hist.get(conn, {})
        return outs

    def tick(self, step: float) -> list[Any]:
        self.now += step
        return self._run(None, None, lambda: self.session.tick(self.now))

    def _run(self, conn: str | None, message: Any, call: Any) -> list[Any]:
        self._subscribe()
        game = self.session.game
        version = None if game is None else game.version
        before_views = {s: cards_in(game.view(s)) for s in self.seats} if game is not None else {}
        before_n = {k: self.stream_n(k) for k in self.texts}
        outs = call()
        parsed = message
        if isinstance(message, str):
            try:
                parsed = json.loads(message)
            except ValueError:
                parsed = None
        # A newly joined connection: learn its role from its welcome.
        for out in outs:
            msg = out.message
            if msg["type"] == "welcome":
                self.role[out.conn] = msg["seat"] if msg["role"] == "seat" else None
                asked = parsed.get("last") if isinstance(parsed, dict) else None
                self.conn_last[out.conn] = asked  # None: a fresh join, a whole picture first
                if msg.get("token"):
                    self.tokens[msg["seat"]] = msg["token"]
        errors = [o for o in outs if o.message["type"] == "error"]
        if errors:
            self._check_error(conn, outs, version, before_n)
        resync_from = None
        if isinstance(parsed, dict) and not errors:
            kind = parsed.get("type")
            if kind == "resync" or (kind in ("join", "watch") and "last" in parsed):
                resync_from = parsed["last"]
        self._snapshot()
        per_conn: dict[str, list[Any]] = {}
        for out in outs:
            msg = out.message
            if "n" in msg and msg["type"] in NUMBERED:
                per_conn.setdefault(out.conn, []).append(out)
        for c, got in per_conn.items():
            self._check_numbered(c, got, conn, resync_from, before_views, before_n)
        self._check_events(outs, version or 0)
        self._check_views()
        return outs

    # -- checks --------------------------------------------------------------------

    def _check_error(self, conn, outs, version, before_n) -> None:
        game = self.session.game
        if [o.conn for o in outs] != [conn] or len(outs) != 1:
            kinds = [(o.conn, o.message["type"]) for o in outs]
            if not all(o.message["type"] in ("presence",) or o.conn == conn for o in outs):
                self.problems.append(f"error not only to its sender: {kinds}")
        now_version = None if game is None else game.version
        if now_version != version:
            self.problems.append(f"a refused message changed the version {version}->{now_version}")
        if any(o.message["type"] in NUMBERED for o in outs if "n" in o.message):
            self.problems.append("a refused message sent a numbered message")

    def _check_numbered(self, c, got, sender, resync_from, before_views, before_n) -> None:
        stream = self.stream_of(c)
        store = self.texts[stream]
        if c == sender and resync_from is not None:
            # The client is back at number k: its state is what it had then.
            self.conn_last[c] = resync_from
            hist = self.hist.setdefault(c, {})
            if resync_from in hist:
                self.mirror[c] = hist[resync_from]
            else:
                self.mirror.pop(c, None)
            first = got[0].message if got else None
            if first is not None and first["type"] == "view" and first.get("reason") == "resync":
                top = first["n"]
                missed = [store.get(n) for n in range(resync_from + 1, top + 1)]
                reaches = resync_from >= top - self.keep
                if reaches and None not in missed:
                    size = sum(map(len, missed))
                    self.resync_views.append((len(got[0].text), size))
                    if len(got[0].text) >= size:
                        self.problems.append(
                            f"resync from {resync_from} got a view ({len(got[0].text)} chars) "
                            f"not shorter than the missed messages ({size} chars)"
                        )
            elif got:
                size = sum(len(o.text) for o in got)
                self.resync_exact.append((stream, resync_from, got[-1].message["n"], size))
        for o in got:
            msg = o.message
            n = msg["n"]
            if self.conn_last[c] is None:
                if msg["type"] not in ("lobby", "view"):
                    self.problems.append(f"conn {c} began with a {msg['type']}")
                self.conn_last[c] = n - 1
            if msg["type"] == "view" and msg.get("reason") == "resync":
                if n < self.top[stream]:
                    self.problems.append(
                        f"resync view n={n} is below the stream's {stream} current"
                    )
                self.top[stream] = n
                self.conn_last[c] = n
                self._feed(c, msg)
                self.hist.setdefault(c, {})[n] = self.mirror.get(c)
                continue
            if n in store:
                if store[n] != o.text:
                    self.problems.append(f"two texts for n={n} of stream {stream}")
            else:
                store[n] = o.text
                self.top[stream] = max(self.top[stream], n)
            if n != self.conn_last[c] + 1:
                self.problems.append(
                    f"conn {c} ({stream}) got n={n} after {self.conn_last[c]} ({msg['type']})"
                )
            self.conn_last[c] = n
            self._feed(c, msg)
            self.hist.setdefault(c, {})[n] = self.mirror.get(c)
            self._leak(stream, msg, before_views)

    def _feed(self, c, msg) -> None:
        if msg["type"] == "view":
            self.mirror[c] = msg["view"]
            if msg.get("reason") == "takeback":
                self.takeback_views[self.stream_of(c)] += 1
        elif msg["type"] == "update" and c in self.mirror:
            if self.mirror[c]["version"] + 1 != msg["version"]:
                self.problems.append(
                    f"update {msg['version']} after view {self.mirror[c]['version']}"
                )
            self.mirror[c] = apply_patch_model(self.mirror[c], msg["patch"])

    def _leak(self, stream, msg, before_views) -> None:
        if msg["type"] == "reveal":
            return
        body = {k: v for k, v in msg.items() if k not in ("events", "notes", "action", "reveal")}
        extra = cards_in(body) - self.known[stream]
        if extra:
            self.problems.append(
                f"{msg['type']} to {stream} names cards outside its views: {sorted(extra)}"
            )
        if msg["type"] == "update" and msg["version"] in self.cards_at:
            v = msg["version"]
            seen = self.cards_at[v][stream] | self.cards_at.get(v - 1, {}).get(stream, set())
            named = cards_in(msg["action"]["text"])
            if named - seen:
                self.problems.append(f"action text {msg['action']['text']!r} shown to {stream}")

    def _check_events(self, outs, version) -> None:
        """Each update's events are that stream's redacted events of its action."""
        for key, events in self.events.items():
            current = None
            for event in events:
                if event.get("event") == "action-applied":
                    current = event["version"]
                    self.by_version[key][current] = []
                elif current is not None:
                    self.by_version[key][current].append(event)
            self.events[key] = []
        for o in outs:
            msg = o.message
            if msg["type"] != "update" or o.conn not in self.role:
                continue
            stream = self.stream_of(o.conn)
            want = self.by_version[stream].get(msg["version"])
            if want is None:
                continue
            self.event_checks += 1
            if stream == SPEC:
                v = msg["version"]
                both = None
                for seat in self.seats:
                    seen = cards_in(self.by_version[seat].get(v, []))
                    seen |= self.cards_at.get(v, {}).get(seat, set())
                    seen |= self.cards_at.get(v - 1, {}).get(seat, set())
                    both = seen if both is None else both & seen
                if cards_in(msg["events"]) - both:
                    self.problems.append(
                        f"spectators' events at {v} name a card a seat did not see"
                    )
            if msg["events"] != want:
                self.problems.append(
                    f"update {msg['version']} to {stream}: events differ from its redacted events"
                )

    def _check_views(self) -> None:
        game = self.session.game
        if game is None:
            return
        for c, seat in self.role.items():
            if c not in self.mirror or c in self.gone:
                continue
            if seat is not None:
                if self.conn_last[c] == self.stream_n(seat) and self.mirror[c] != game.view(seat):
                    self.problems.append(
                        f"conn {c}: rebuilt view != game.view({seat}) at {game.version}"
                    )
            else:
                shown = self.mirror[c]["version"]
                want = game.version if game.is_over else max(0, game.version - self.delay)
                if game.is_over and shown != want:
                    self.problems.append(f"spectator at {shown} after the end ({want})")
                if not (want - 1 <= shown <= game.version):
                    self.problems.append(f"spectator at version {shown}, game at {game.version}")
                if shown in self.public and self.mirror[c] != self.public[shown]:
                    self.problems.append(f"spectator view at {shown} != game.view(None) then")

    gone: set[str]
    seat_last: dict[Any, int]
    seat_hist: dict[Any, dict[int, Any]]
    hist: dict[str, dict[int, Any]]
    resync_exact: list[Any]
    resync_views: list[Any]
    compared: int
    takebacks: int


OPTIONS: dict[str, Any] = {"tonk": {"hands": 4}, "golf": {}, "spit": {}}


NAMES = ["Ann", "Bob", "Cy", "Di"]


def make(game: str, seed: int, *, players: int = 2, **config: Any) -> Harness:
    options = OPTIONS[game] or None
    h = Harness(game, seed, config=SessionConfig(**config), options=options, players=players)
    h.gone = set()
    h.seat_last = {}
    h.seat_hist = {}
    h.hist = {}
    h.resync_exact = []
    h.resync_views = []
    h.compared = 0
    h.takebacks = 0
    return h


def seat_up(h: Harness) -> None:
    for seat in h.seats:
        h.send(f"{'abcd'[seat]}0", {"type": "join", "seat": seat})


def act_msg(h: Harness, conn: str, text: str, seen: int | None = None) -> dict[str, Any]:
    if seen is None:
        seen = h.mirror[conn]["version"]
    return {"type": "act", "action": text, "seen": seen}


def live(h: Harness, seat: int | None) -> list[str]:
    return sorted(c for c, s in h.role.items() if s == seat and c not in h.gone)


def walk(game: str, seed: int, steps: int, players: int = 2, **config: Any) -> Harness:
    """A seeded random session: legal and illegal moves, resyncs, reconnects, takebacks."""
    rng = random.Random(seed)
    h = make(game, seed, players=players, **config)
    seat_up(h)
    counter = 0
    for _ in range(steps):
        g = h.session.game
        if g is None or g.is_over:
            break
        counter += 1
        if h.clocked:
            h.tick(0.5)
            g = h.session.game
            if g.is_over:
                break
        r = rng.random()
        seat = rng.choice(h.seats)
        conns = live(h, seat)
        if not conns:
            conn = f"r{seat}.{counter}"
            old = h.seat_hist.get(seat, {})
            last = h.seat_last.get(seat, 0)
            if rng.random() < 0.3 and old:
                last = rng.choice(sorted(old))
            h.hist[conn] = {last: old[last]} if last in old else {}
            if last in old and old[last] is not None:
                h.mirror[conn] = old[last]
            h.send(conn, {"type": "join", "seat": seat, "token": h.tokens[seat], "last": last})
            continue
        conn = rng.choice(conns)
        if r < 0.45:
            actor = rng.choice(g.to_act)
            c = live(h, actor)
            if not c:
                continue
            if c[0] not in h.mirror:
                h.send(c[0], {"type": "resync", "last": 0})
                continue
            legal = h.mirror[c[0]]["legal"]
            if not legal:
                h.tick(1.0)
                continue
            if game == "tonk" and len(legal) > 1 and rng.random() < 0.9:
                legal = [t for t in legal if t != "drop"]  # a drop ends the hand: play longer
            out = h.send(c[0], act_msg(h, c[0], rng.choice(legal)))
            kinds = [o.message["type"] for o in out if o.conn == c[0]]
            if "error" in kinds and game != "spit":
                h.problems.append(f"a legal action was refused: {[o.text for o in out]}")
        elif r < 0.52:
            out = h.send(conn, act_msg(h, conn, "xyzzy 9"))
            expect_error(h, out, conn, "notation")
        elif r < 0.57:
            other = [s for s in h.seats if s not in g.to_act]
            if other and live(h, other[0]):
                c = live(h, other[0])[0]
                text = rng.choice([str(a) for a in g.legal_actions(g.to_act[0])])
                out = h.send(c, act_msg(h, c, text))
                expect_error(h, out, c, "illegal")
        elif r < 0.60:
            out = h.send(conn, act_msg(h, conn, "xyzzy", seen=g.version + 3))
            expect_error(h, out, conn, "bad-message", "notation")
        elif r < 0.63:
            out = h.send(conn, rng.choice(["{not json", "[1, 2]", '{"type": "dance"}']))
            expect_error(h, out, conn, "bad-json", "bad-message")
        elif r < 0.66:
            msg = act_msg(h, conn, "xyzzy")
            msg["seat"] = (seat + 1) % len(h.seats)
            expect_error(h, h.send(conn, msg), conn, "not-your-seat")
        elif r < 0.69:
            expect_error(
                h,
                h.send(f"x{counter}", {"type": "join", "seat": seat}),
                f"x{counter}",
                "seat-taken",
            )
        elif r < 0.72:
            bad = {"type": "join", "seat": seat, "token": "A" * 43}
            expect_error(h, h.send(f"y{counter}", bad), f"y{counter}", "bad-token")
        elif r < 0.80:
            exact = len(h.resync_exact)
            h.send(conn, {"type": "resync", "last": rng.randint(0, h.conn_last[conn])})
            if len(h.resync_exact) > exact and h.resync_exact[-1][1] > 0:
                # The missed messages were sent: the fresh view is not shorter than them.
                size = h.resync_exact[-1][3]
                out = h.send(conn, {"type": "resync", "last": 0}, step=0.0)
                views = [o for o in out if o.message["type"] == "view"]
                if views:
                    h.compared += 1
                    if len(views[0].text) < size:
                        h.problems.append(
                            f"missed messages ({size}) sent instead of a shorter view"
                        )
        elif r < 0.85:
            h.disconnect(conn)
        elif r < 0.89:
            spec = f"s{counter}"
            watching = live(h, None)
            if watching and rng.random() < 0.5:
                # A spectator reconnects with the last number it got (or an earlier one).
                gone = rng.choice(watching)
                last = h.conn_last[gone] or 0
                h.disconnect(gone)
                old = h.hist.get(gone, {})
                if old and rng.random() < 0.3:
                    last = rng.choice(sorted(old))
                h.hist[spec] = {last: old[last]} if last in old else {}
                if old.get(last) is not None:
                    h.mirror[spec] = old[last]
                h.send(spec, {"type": "watch", "last": last})
                continue
            h.send(spec, {"type": "watch"})
            if rng.random() < 0.5:
                out = h.send(spec, act_msg(h, spec, "xyzzy") | {"seen": 0})
                expect_error(h, out, spec, "not-a-seat")
        elif r < 0.95 and game != "spit":
            takeback_round(h, rng)
        else:
            h.tick(rng.choice([0.5, 3.0, 40.0]))
    return h


def takeback_round(h: Harness, rng: random.Random) -> None:
    g = h.session.game
    if g.version == 0:
        return
    last_seat = h.session.game.record()["actions"][-1][0]
    if last_seat not in h.seats:
        return
    c = live(h, last_seat)
    others = [live(h, s) for s in h.seats if s != last_seat]
    if not c or not all(others):
        return
    version = g.version
    out = h.send(c[0], {"type": "takeback", "op": "request"})
    if any(x.message["type"] == "error" for x in out):
        return
    answer = rng.choice(["accept", "accept", "decline"])
    before = dict(h.takeback_views)
    # The documented judge: an allowed takeback is one no seat (nor a spectator) learned
    # a card from. Every card in a view after it, or in its redacted events, must be one
    # the seat knew before it: here, one it saw in some earlier view (a superset of the
    # judge's K(s), so this check is weaker than the documented one, never stricter).
    learned = {}
    for key in (*h.seats, SPEC):
        after = h.cards_at.get(version, {}).get(key, set())
        after |= cards_in(h.by_version[key].get(version, []))
        before_cards: set[str] = set()
        for v in range(version):
            before_cards |= h.cards_at.get(v, {}).get(key, set())
        learned[key] = after - before_cards
    for i, o in enumerate(others):
        # Every other seat must accept; the request stays open until the last one does.
        if i < len(others) - 1 and answer == "accept" and h.session.game.version == version:
            out = h.send(o[0], {"type": "takeback", "op": "accept"})
            if h.session.game.version != version:
                h.problems.append(f"takeback of {version} done before every seat accepted")
            continue
        out = h.send(o[0], {"type": "takeback", "op": answer})
        break
    if answer == "accept" and not any(x.message["type"] == "error" for x in out):
        if h.session.game.version != version - 1:
            h.problems.append(f"takeback at {version} left version {h.session.game.version}")
        h.takebacks += 1
        for key, cards in learned.items():
            if cards:
                h.problems.append(f"takeback of {version} allowed though {key} learned {cards}")
        for seat in h.seats:
            if h.takeback_views[seat] != before[seat] + len(live(h, seat)):
                h.problems.append(f"seat {seat} got no takeback view")


def expect_error(h: Harness, out: list[Any], conn: str, *codes: str) -> None:
    errs = [o.message for o in out if o.conn == conn and o.message["type"] == "error"]
    if not errs or errs[0]["code"] not in codes:
        h.problems.append(
            f"expected {codes} for {conn}, got {[o.message.get('code') for o in out]}"
        )


# -- the model on random sessions ----------------------------------------------------------

CONFIGS = {
    "default": {},
    "no-delay-short-tail": {"spectator_delay": 0, "resync_keep": 5},
    "turn-clock": {"time": TimeControl(turn=5.0), "spectator_delay": 1, "takeback_timeout": 3.0},
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("game", ["golf", "tonk", "spit"])
def test_random_session_streams_match_the_model(game: str, config: str) -> None:
    """Numbering, resync answers, rebuilt views, redacted events, no leak, errors inert."""
    h = walk(game, 11, 170, **CONFIGS[config])
    assert h.problems == []
    # The walk exercised what it claims to check.
    assert h.session.game.version > 20
    assert h.event_checks > 50
    assert h.resync_views or h.resync_exact
    if game == "golf":
        assert h.takebacks > 0


def test_helpers_find_cards_and_apply_patches() -> None:
    """The model's own tools: card words in JSON data, and the documented patch ops."""
    assert cards_in({"a": ["10H", None, "JK"], "b": "discard 7S", "c": "as AS 1H 11H"}) == {
        "10H",
        "JK",
        "7S",
        "AS",
    }
    view = {"x": [1, 2], "y": {"z": 3}}
    patched = apply_patch_model(
        view, [["set", ["x", 2], 9], ["del", ["y", "z"]], ["set", ["w"], 1]]
    )
    assert patched == {"x": [1, 2, 9], "y": {}, "w": 1}
    assert apply_patch_model(view, [["set", [], {"k": 1}]]) == {"k": 1}
    assert view == {"x": [1, 2], "y": {"z": 3}}


# -- targeted claims ----------------------------------------------------------------------


def started(game: str = "golf", **config: Any) -> tuple[Session, str, str]:
    session = Session.create(game, ["Ann", "Bob"], now=0.0, seed=7, config=SessionConfig(**config))
    ta = welcome(session.handle("a", {"type": "join", "seat": 0}, 1.0))["token"]
    tb = welcome(session.handle("b", {"type": "join", "seat": 1}, 2.0))["token"]
    return session, ta, tb


def welcome(out: list[Any]) -> dict[str, Any]:
    return next(o.message for o in out if o.message["type"] == "welcome")


def numbered(out: list[Any], conn: str) -> list[dict[str, Any]]:
    return [o.message for o in out if o.conn == conn and "n" in o.message]


def play(session: Session, moves: list[tuple[str, str]], t: float = 3.0) -> float:
    for conn, text in moves:
        t += 1.0
        out = session.handle(conn, {"type": "act", "action": text, "seen": session.game.version}, t)
        assert [o.message["type"] for o in out if o.conn == conn][-1] == "ok", out
    return t


GOLF_OPENING = [("a", "flip 0"), ("a", "flip 1"), ("b", "flip 0"), ("b", "flip 1"), ("a", "take")]


def test_resync_with_nothing_missed_is_answered_with_nothing() -> None:
    session, _, _ = started()
    out = session.handle("a", {"type": "resync", "last": 3, "id": "r1"}, 3.0)
    assert out == []


def test_resync_before_the_kept_tail_gets_a_fresh_view_at_the_current_number() -> None:
    session, _, _ = started(resync_keep=2)
    t = play(session, GOLF_OPENING)
    out = session.handle("a", {"type": "resync", "last": 3}, t + 1)
    [msg] = numbered(out, "a")
    assert (msg["type"], msg["reason"], msg["n"], msg["version"]) == ("view", "resync", 8, 5)
    assert msg["view"] == session.game.view(0)


def test_too_high_last_gets_a_lowered_welcome_and_a_whole_view_never_an_error() -> None:
    session, ta, _ = started()
    out = session.handle("a2", {"type": "join", "seat": 0, "token": ta, "last": 40}, 3.0)
    hello = welcome(out)
    [view] = numbered(out, "a2")
    assert hello["last"] < 40 and view["n"] == hello["last"] == 3
    assert view["type"] == "view" and view["view"] == session.game.view(0)
    out = session.handle("a", {"type": "resync", "last": 40}, 4.0)
    assert [o.message["type"] for o in out] == ["view"]
    assert out[0].message["n"] == 3


def test_second_tab_with_the_token_gets_no_token_and_the_same_stream() -> None:
    session, ta, _ = started()
    out = session.handle("a2", {"type": "join", "seat": 0, "token": ta}, 3.0)
    assert "token" not in welcome(out) or welcome(out)["token"] is None
    out = session.handle("a", {"type": "act", "action": "flip 0", "seen": 0}, 4.0)
    texts = {o.conn: o.text for o in out if o.message["type"] == "update"}
    assert texts["a"] == texts["a2"]


@pytest.mark.parametrize(
    ("conn", "message", "code"),
    [
        ("x", {"type": "join", "seat": 1}, "seat-taken"),
        ("x", {"type": "join", "seat": 1, "token": "B" * 43}, "bad-token"),
        ("x", {"type": "join", "seat": 7}, "no-seat"),
        ("x", {"type": "act", "action": "flip 0", "seen": 0}, "not-joined"),
        ("a", {"type": "join", "seat": 0}, "already-joined"),
        ("a", {"type": "act", "action": "flip 0", "seen": 0, "seat": 1}, "not-your-seat"),
        ("a", {"type": "act", "action": "flip 0", "seen": 9}, "bad-message"),
        ("a", {"type": "act", "action": "jump", "seen": 0}, "notation"),
        ("b", {"type": "act", "action": "flip 0", "seen": 0}, "illegal"),
        ("a", {"type": "dance"}, "bad-message"),
        ("a", "{nope", "bad-json"),
        ("a", {"type": "record"}, "not-over"),
        ("a", {"type": "takeback", "op": "request"}, "takeback-refused"),
    ],
)
def test_a_refused_message_is_one_error_to_its_sender_and_changes_nothing(
    conn: str, message: Any, code: str
) -> None:
    session, _, _ = started()
    session.handle("s", {"type": "watch"}, 2.5)
    out = session.handle(conn, message, 3.0)
    assert [(o.conn, o.message["type"], o.message["code"]) for o in out] == [(conn, "error", code)]
    assert session.game.version == 0
    # No stream moved: every connection that resyncs from its number gets nothing.
    for c in ("a", "b", "s"):
        assert session.handle(c, {"type": "resync", "last": 3}, 4.0) == []


def test_illegal_out_of_turn_names_the_core_rule() -> None:
    session, _, _ = started()
    [out] = session.handle("b", {"type": "act", "action": "flip 0", "seen": 0, "id": 5}, 3.0)
    assert (out.message["code"], out.message["rule"], out.message["id"]) == (
        "illegal",
        "CORE-TURN-1",
        5,
    )


def test_spectator_acting_is_not_a_seat() -> None:
    session, _, _ = started()
    session.handle("s", {"type": "watch"}, 2.5)
    out = session.handle("s", {"type": "act", "action": "flip 0", "seen": 0}, 3.0)
    assert [(o.conn, o.message.get("code")) for o in out] == [("s", "not-a-seat")]


def test_turn_based_stale_cites_no_rule_and_own_quick_actions_are_fine() -> None:
    session, _, _ = started()
    for conn, text in [("a", "flip 0"), ("a", "flip 1"), ("b", "flip 0"), ("b", "flip 1")]:
        out = session.handle(
            conn, {"type": "act", "action": text, "seen": 0 if conn == "a" else 2}, 3.0
        )
        assert [o.message["type"] for o in out if o.conn == conn][-1] == "ok"
    [err] = session.handle("a", {"type": "act", "action": "draw", "seen": 2}, 4.0)
    assert err.message["code"] == "stale" and "rule" not in err.message
    assert session.game.version == 4


@pytest.mark.parametrize(
    ("op", "result"), [("decline", "declined"), ("act", "cancelled"), ("wait", "expired")]
)
def test_takeback_request_ends_on_decline_new_action_or_timeout(op: str, result: str) -> None:
    session, _, _ = started(takeback_timeout=5.0)
    t = play(session, GOLF_OPENING)
    out = session.handle("a", {"type": "takeback", "op": "request"}, t + 1)
    req = {o.conn: o.message for o in out if o.message["type"] == "takeback"}
    assert req["a"]["op"] == req["b"]["op"] == "requested" and req["a"]["n"] == req["b"]["n"] == 9
    if op == "decline":
        out = session.handle("b", {"type": "takeback", "op": "decline"}, t + 2)
    elif op == "act":
        out = session.handle("a", {"type": "act", "action": "replace 0", "seen": 5}, t + 2)
    else:
        out = session.tick(t + 10)
    ends = {o.conn: o.message for o in out if o.message["type"] == "takeback"}
    assert ends["a"]["op"] == ends["b"]["op"] == result
    assert ends["a"]["n"] == 10
    assert session.game.version == (6 if op == "act" else 5)


@pytest.mark.parametrize(("delay", "spectator_view"), [(0, True), (1, False), (2, False)])
def test_takeback_views_for_seats_and_spectators_who_saw_the_action(
    delay: int, spectator_view: bool
) -> None:
    session, _, _ = started(spectator_delay=delay)
    session.handle("s", {"type": "watch"}, 2.5)
    t = play(session, GOLF_OPENING)
    session.handle("a", {"type": "takeback", "op": "request"}, t + 1)
    out = session.handle("b", {"type": "takeback", "op": "accept"}, t + 2)
    assert session.game.version == 4
    views = {o.conn: o.message for o in out if o.message["type"] == "view"}
    assert views["a"]["reason"] == views["b"]["reason"] == "takeback"
    assert views["a"]["view"] == session.game.view(0) and views["b"]["view"] == session.game.view(1)
    assert ("s" in views) is spectator_view
    if spectator_view:
        assert views["s"]["view"] == session.game.view(None)


def test_a_late_tick_plays_every_timeout_at_its_own_deadline() -> None:
    session, _, _ = started(time=TimeControl(turn=10.0))
    out = session.tick(60.0)
    acts = [m["action"] for m in (o.message for o in out if o.conn == "a") if m["type"] == "update"]
    # Dealt at 2.0: seat 0's clock runs out at 12.0 (its two setup flips), seat 1's runs
    # from there (22.0), and so on, each turn finished in steps at its deadline.
    assert [(a["seat"], a["at"], a["cause"]) for a in acts] == [
        (seat, at, "timeout")
        for seat, at in [(0, 12.0), (0, 12.0), (1, 22.0), (1, 22.0)]
        for _ in [0]
    ] + [
        (seat, at, "timeout")
        for seat, at in [(0, 32.0), (0, 32.0), (1, 42.0), (1, 42.0), (0, 52.0), (0, 52.0)]
    ]
    assert all(session.cause(v) == "timeout" for v in range(1, session.game.version + 1))


def test_an_action_at_the_deadline_is_read_after_the_timeout() -> None:
    session, _, _ = started(time=TimeControl(turn=10.0))
    out = session.handle("a", {"type": "act", "action": "flip 0", "seen": 0}, 12.0)
    errors = [o.message for o in out if o.conn == "a" and o.message["type"] == "error"]
    assert [e["code"] for e in errors] == ["stale"]
    assert session.game.version == 2  # the two timed-out flips, not a third


def test_realtime_seat_messages_show_only_its_own_idle_clock() -> None:
    session, _, _ = started("spit", time=TimeControl(turn=10.0))
    out = session.handle("a", {"type": "act", "action": "ready", "seen": 0}, 3.0)
    out += session.tick(30.0)
    for o in out:
        clocks = o.message.get("clocks")
        if clocks:
            seat = "ab".index(o.conn)
            assert set(clocks["turn"]) <= {str(seat)}


def test_restart_pause_moves_the_deadline_and_a_rejoin_gets_a_fresh_view_after_the_missed() -> None:
    for restart, extra_view in [("pause", True), ("continue", False)]:
        store = cardcore.session.MemoryStore()
        session = Session.create(
            "golf",
            ["Ann", "Bob"],
            now=0.0,
            seed=7,
            store=store,
            session_id="g1",
            config=SessionConfig(time=TimeControl(turn=30.0, restart=restart)),
        )
        session.handle("a", {"type": "join", "seat": 0}, 1.0)
        tb = welcome(session.handle("b", {"type": "join", "seat": 1}, 2.0))["token"]
        play(session, GOLF_OPENING)
        resumed = Session.resume(store, "g1", 20.0)
        out = resumed.handle("b2", {"type": "join", "seat": 1, "token": tb, "last": 7}, 21.0)
        got = numbered(out, "b2")
        assert got[0]["type"] == "update" and got[0]["n"] == 8
        assert (len(got) == 2) is extra_view
        if extra_view:
            assert got[1]["type"] == "view" and got[1]["n"] == 8
            assert got[1]["view"] == resumed.game.view(1)


def test_spectators_get_history_only_up_to_the_version_they_see() -> None:
    session = Session.create("tonk", ["Ann", "Bob"], now=0.0, seed=7, options={"hands": 3})
    session.handle("a", {"type": "join", "seat": 0}, 1.0)
    session.handle("b", {"type": "join", "seat": 1}, 2.0)
    session.handle("s", {"type": "watch"}, 2.5)
    session.handle("a", {"type": "act", "action": "drop", "seen": 0}, 3.0)  # ends hand 1
    [seat] = session.handle("a", {"type": "history"}, 4.0)
    [spec] = session.handle("s", {"type": "history"}, 4.0)
    assert len(seat.message["rounds"]) == len(spec.message["rounds"]) + 1


def test_spectators_get_everything_once_the_game_is_over() -> None:
    session, _, _ = started(spectator_delay=2)
    session.handle("s", {"type": "watch"}, 2.5)
    play(session, GOLF_OPENING)
    out = session.end(20.0)
    mine = [o.message for o in out if o.conn == "s" and "n" in o.message]
    last_view = [m for m in mine if m["type"] in ("update", "view")][-1]
    assert last_view["version"] == session.game.version


def test_outbound_message_is_each_connections_own_copy() -> None:
    session, _, _ = started()
    out = session.handle("a", {"type": "act", "action": "flip 0", "seen": 0}, 3.0)
    mine = next(o for o in out if o.conn == "a" and o.message["type"] == "update")
    other = next(o for o in out if o.conn == "b" and o.message["type"] == "update")
    mine.message["patch"].clear()
    mine.message["events"][0]["card"] = "QQ"
    assert other.message["patch"] and other.message["events"][0]["card"] != "QQ"
    assert json.loads(mine.text)["patch"] and copy.copy(mine).message["patch"]
    later = session.handle("b", {"type": "resync", "last": 3}, 4.0)
    assert later[0].text == other.text


def test_rate_limit_one_error_a_second_and_a_close_after_close_after_drops() -> None:
    limits = cardcore.session.Limits(rate=1, burst=2, close_after=5)
    session, _, _ = started(limits=limits)
    seen = []
    for _ in range(8):
        out = session.handle("a", {"type": "ping"}, 20.0)
        seen.append([(o.message["type"], o.message.get("code"), o.close) for o in out])
    assert seen[:2] == [[("pong", None, False)]] * 2
    assert seen[2] == [("error", "rate-limited", False)]
    assert seen[3:6] == [[]] * 3
    assert seen[6] == [("error", "rate-limited", True)]


def test_tonk_take_can_be_taken_back_and_a_discard_cannot() -> None:
    """Taking the face-up discard may be taken back; discarding from a hand is final."""
    session = Session.create("tonk", ["Ann", "Bob"], now=0.0, seed=7, options={"hands": 3})
    session.handle("a", {"type": "join", "seat": 0}, 1.0)
    session.handle("b", {"type": "join", "seat": 1}, 2.0)
    before = session.game.view(1)
    session.handle("a", {"type": "act", "action": "take", "seen": 0}, 3.0)
    session.handle("a", {"type": "takeback", "op": "request"}, 4.0)
    out = session.handle("b", {"type": "takeback", "op": "accept"}, 5.0)
    assert session.game.version == 0 and session.game.view(1) == before
    assert {o.conn for o in out if o.message["type"] == "view"} == {"a", "b"}
    session.handle("a", {"type": "act", "action": "take", "seen": 0}, 6.0)
    discard = next(a for a in session.game.legal_actions(0) if str(a).startswith("discard"))
    session.handle("a", {"type": "act", "action": str(discard), "seen": 1}, 7.0)
    [err] = session.handle("a", {"type": "takeback", "op": "request"}, 8.0)
    assert err.message["code"] == "takeback-refused" and "seat 1" in err.message["message"]
    assert session.game.version == 2


@pytest.mark.parametrize(("game", "players"), [("golf", 3), ("tonk", 3), ("golf", 4)])
def test_random_session_streams_match_the_model_with_more_seats(game: str, players: int) -> None:
    """The same model with three or four seats: a takeback needs every other seat's accept."""
    h = walk(game, 21, 150, players=players, **CONFIGS["no-delay-short-tail"])
    assert h.problems == []
    assert h.session.game.version > 20 and h.event_checks > 50


def test_fair_session_reveals_one_bundle_on_every_stream_and_in_the_final_view() -> None:
    """At the end every stream (spectators caught up first) gets a ``reveal``; a whole
    view after the end carries the same bundle, and it verifies."""
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, config=SessionConfig(fair=True))
    session.handle("a", {"type": "join", "seat": 0}, 1.0)
    session.handle("b", {"type": "join", "seat": 1}, 2.0)
    session.handle("s", {"type": "watch"}, 2.5)
    session.handle("a", {"type": "act", "action": "flip 0", "seen": 0}, 3.0)
    out = session.end(4.0)
    reveals = {o.conn: o.message for o in out if o.message["type"] == "reveal"}
    assert set(reveals) == {"a", "b", "s"}
    bundles = [m["bundle"] for m in reveals.values()]
    assert all(b == bundles[0] for b in bundles)
    spectator = [o.message for o in out if o.conn == "s" and o.message["type"] == "update"]
    assert spectator[-1]["version"] == session.game.version
    [view] = session.handle("s", {"type": "resync", "last": 0}, 5.0)
    assert view.message["reveal"] == bundles[0]
    assert view.message["view"] == session.game.view(None)
    cardcore.session.verify_bundle(bundles[0])
