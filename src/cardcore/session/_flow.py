"""The inside of a session: the game, its streams, spectators, clocks and store writes.

:class:`Flow` holds a session's state and everything that happens when the
game changes; :class:`cardcore.session.Session` adds the public methods and
reads the clients' messages. Nothing here is public.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardcore._stamps import plain_clock
from cardcore._text import one_line
from cardcore.actions import HOST, Action, EndMatch, Resign
from cardcore.deck import CHANCE
from cardcore.errors import CardcoreError
from cardcore.events import SPECTATOR, ActionApplied, Event
from cardcore.game import MAX_TIME, Game
from cardcore.session import _integrity as integrity
from cardcore.session._history import HistoryCache
from cardcore.session._presence import Presence
from cardcore.session._reading import readable
from cardcore.session._timeouts import default_for, nothing_now
from cardcore.session.clocks import CLOCK_RETRY, GAME_CLOCK, Clocks, may_act
from cardcore.session.config import GameSetup, SessionConfig
from cardcore.session.fair import FairDeal
from cardcore.session.patch import card_places, diff, may_show
from cardcore.session.protocol import Outbound, ProtocolError, RateLimiter, dumps
from cardcore.session.store import Batch, Store, TokenRow, merged
from cardcore.session.streams import SPECTATORS, SpectatorEntry, SpectatorFeed, Stream, seat_stream
from cardcore.setup import Listener

__all__ = ["Conn", "Flow"]

LOG = logging.getLogger("cardcore.session")

MAX_STEPS_PER_CALL = 10_000
"""The most timer steps one ``tick`` or ``handle`` plays (a guard against a game that never settles)."""

FORMAT = ("cardcore-session", 3)
"""The name and version of a stored session's ``meta`` (3: with its digests; 1 and 2 are read too)."""


@dataclass
class Conn:
    """One connection that has joined: a seat's (``seat`` a number) or a spectator's (``None``)."""

    id: str
    seat: int | None
    stream: Stream


class Flow(Presence):
    """A session's state and what happens when its game changes (see the module docstring)."""

    def __init__(
        self,
        session_id: str,
        setup: GameSetup,
        config: SessionConfig,
        realtime: bool,
        store: Store | None,
        created: float,
    ) -> None:
        self.id = session_id
        self.setup = setup
        self.config = config
        self.realtime = realtime
        self.store = store
        self.created = created
        self.players = len(setup.players)
        self.phase = "waiting"
        self.started: float | None = None
        self.ended: float | None = None
        self.now = created
        self.seed: int | None = None
        self.chance = CHANCE  # the chance derivation of its game (a session stored in format 1: 2)
        self.fair: FairDeal | None = None
        self.tokens: dict[int, TokenRow] = {}
        self.unbound: set[int] = set()  # seats whose token hash was stored before it named its seat
        self.chain = [integrity.start(session_id)]  # the record's digest after 0, 1, 2 ... actions
        self.game: Game | None = None
        keep = config.resync_keep
        self.streams = [Stream(seat_stream(s), keep) for s in range(self.players)]
        self.spectators = Stream(SPECTATORS, keep)
        self.conns: dict[str, Conn] = {}
        limits = config.limits
        self.limiter = RateLimiter(limits.rate, limits.burst, limits.close_after)
        self.clocks = Clocks(config.time, realtime)
        self.spec = SpectatorFeed(config.spectator_delay)
        self.views: list[dict[str, Any]] = [{} for _ in range(self.players)]
        self.foreign = [0] * self.players
        self.played_for: dict[int, str] = {}  # version -> what played its action, but a player
        self.played_from = 0  # the last version of unknown cause (stored before causes were kept)
        self.takeback: dict[str, Any] | None = None
        self.takeback_prev: Game | None = None
        self.before: tuple[Game, int, Game] | None = None  # (game, version, copy of the game at that version) from just before the last action
        self.verdict: tuple[Game, int, int, str, Game | str] | None = None
        """(game, version, the last action's seat and text, why it is final or the game without it)."""
        self.entropy_deadline: float | None = None
        self.moved: set[str] = set()  # streams whose deadlines moved untold (see _rejoin.py)
        self.histories = HistoryCache()
        self.store_error: str | None = None  # the store's last error (None: every write went)
        self._seat_events: list[list[Event]] = [[] for _ in range(self.players)]
        self._spec_events: list[Event] = []
        self._spec_now: dict[str, Any] = {}
        self._spec_rounds_now = 0
        self._out: list[Outbound] = []
        self._held: list[Outbound] = []  # made by a call that returns none (issue_token)
        self._batch = Batch(self.phase, created)
        self._dirty = False
        self._unsaved: Batch | None = None
        self._fixed = {"setup": setup.to_json(), "config": config.to_json()}  # never change
        self._fixed_texts = {k: integrity.canonical(v) for k, v in self._fixed.items()}

    # -- the outbox and the store ------------------------------------------------------------

    def _begin(self, now: float) -> float:
        """Start a call at *now* (never earlier than the last call)."""
        plain = plain_clock(now)  # a plain number (a subclass's own code never runs: it could lie)
        now = max(self.now, plain) if plain is not None and -MAX_TIME <= plain <= MAX_TIME else self.now
        self.now = now
        self._out = []
        self._batch = Batch(self.phase, now)
        self._dirty = False
        return now

    def _end(self) -> list[Outbound]:
        """Write the call's changes to the store and return its messages."""
        out, held, self._held = self._out, self._held, []
        if held:  # a 'closed' held for a tab that joined again since is moot: it would close it
            out = [o for o in held if not (o.close and o.conn in self.conns)] + out
        self._out = []
        batch = self._batch
        batch.status = self.phase
        if self.store is not None and (self._dirty or not batch.is_empty() or self._unsaved is not None):
            batch.meta = self._meta()
            self._commit(self.store, batch)
        return out

    def _commit(self, store: Store, batch: Batch) -> None:
        if self._unsaved is not None:
            batch = merged(self._unsaved, batch)
        try:
            store.commit(self.id, batch)
        except Exception as exc:  # the game goes on; the next call writes both batches
            self.store_error = f"{type(exc).__name__}: {exc}"
            LOG.error("session %s: the store failed: %s", self.id, one_line(self.store_error))
            self._unsaved = batch
        else:
            self._unsaved = self.store_error = None

    def _send(self, conn: str, message: dict[str, Any], *, close: bool = False) -> None:
        self._out.append(Outbound(conn, message, dumps(message), close))

    def _emit(self, stream: Stream, message: dict[str, Any]) -> None:
        """Number *message* in *stream*, keep and store it, and send it to the stream's readers."""
        text = stream.push(message)
        batch = self._batch
        batch.messages.append((stream.name, stream.n, text))
        if stream.n % stream.keep == 0:
            batch.prune[stream.name] = stream.prune_below()
        if message["type"] != "takeback":  # a whole lobby or view, or an update: every deadline told
            self.moved.discard(stream.name)
        for conn in stream.conns:
            self._out.append(Outbound(conn, message, text))

    def _emit_all(self, make: Callable[[Stream], dict[str, Any] | None]) -> None:
        for stream in [*self.streams, self.spectators]:
            message = make(stream)
            if message is not None:
                self._emit(stream, message)

    def _broadcast(self, message: dict[str, Any]) -> None:
        """Send an unnumbered *message* to every connection."""
        text = dumps(message)
        for conn in self.conns:
            self._out.append(Outbound(conn, message, text))

    def _meta(self) -> dict[str, Any]:
        meta = {
            "format": FORMAT[0],
            "format_version": FORMAT[1],
            "setup": self._fixed["setup"],
            "config": self._fixed["config"],
            "realtime": self.realtime,
            "phase": self.phase,
            "started": self.started,
            "ended": self.ended,
            "seed": self.seed,
            "chance": self.chance,
            "fair": None if self.fair is None else self.fair.to_json(),
            "entropy_deadline": self.entropy_deadline,
            "streams": {s.name: s.n for s in [*self.streams, self.spectators]},
            "tails": {s.name: s.digest() for s in [*self.streams, self.spectators]},
            "clocks": self.clocks.to_json(self.now),
            "takeback": self.takeback,
            "foreign": list(self.foreign),
            "played_for": {str(v): c for v, c in self.played_for.items()}, "played_from": self.played_from,
            "spectators": {"released": self.spec.released, "causes": [e.action["cause"] for e in self.spec.pending]},
            "unbound_tokens": sorted(self.unbound),
        }
        return integrity.seal(meta, self.id, self.chain, self.tokens.values(), self._fixed_texts)

    # -- messages every stream understands ------------------------------------------------

    def _lobby(self, n: int = 0) -> dict[str, Any]:
        fair = self.fair
        return {
            "type": "lobby",
            "n": n,
            "players": list(self.setup.players),
            "claimed": [s in self.tokens for s in range(self.players)],
            "entropy": None
            if fair is None or not self.config.seat_entropy
            else [e is not None for e in fair.entropy],
            "commitment": None if fair is None else fair.commitment,
            "commitment_format": None if fair is None else fair.format,
            "entropy_deadline": self.entropy_deadline,
        }

    def _view_message(self, stream: Stream, reason: str, n: int = 0, notes: list[str] | None = None) -> dict[str, Any]:
        """A whole view for *stream* (a start, a takeback, a short resync); *notes*: the deal's lines."""
        game = self.game
        if game is None:
            return self._lobby(n)
        if stream is self.spectators:
            message: dict[str, Any] = {
                "type": "view",
                "n": n,
                "version": self.spec.released,
                "reason": reason,
                "view": self.spec.view,
            }
        else:
            seat = int(stream.name.split(".")[1])
            view = self.views[seat] or self._first_view(game, seat)  # {}: tried again (kept {}: whole next)
            message = {
                "type": "view",
                "n": n,
                "version": view.get("version", game.version),  # (a view that failed: older)
                "reason": reason,
                "view": view,
                "clocks": self.clocks.public(seat),
                "takeback": self.takeback_for(seat),
            }
        message["phase"] = self.phase
        if notes:
            message["notes"] = notes
        if self.phase == "over" and self.fair is not None:
            message["reveal"] = self.fair_bundle()
        return message

    def takeback_for(self, seat: int) -> dict[str, Any] | None:
        """The pending takeback as *seat* is told it: the action's text only if its view
        names every card the text does (as an update shows it), else ``None``."""
        pending = self.takeback
        if pending is None or seat == pending["by"]:
            return pending
        view = self.views[seat]
        return pending if may_show(pending["action"], view, view) else {**pending, "action": None}

    def fair_bundle(self) -> dict[str, Any] | None:
        """The fair-deal bundle, once the game is over (``None`` before, or without a commitment)."""
        if self.fair is None or self.game is None or self.phase != "over":
            return None
        return self.fair.bundle(self.id, self.game.record())

    # -- checks on client messages -----------------------------------------------------------

    def _seat_of(self, c: Conn, doing: str) -> int:
        if c.seat is None:
            raise ProtocolError("not-a-seat", f"spectators cannot {doing}")
        return c.seat

    def _version_for(self, conn: str) -> int | None:
        """The version *conn* may be told: a seat's, the live one; else the spectators' one."""
        c = self.conns.get(conn)
        live = c is not None and c.seat is not None
        return None if self.game is None else self.game.version if live else self.spec.released

    def _playing(self, seen: int = -1, act: tuple[int, str] | None = None) -> Game:
        """The game in play; a real-time move (*act*: seat, text) from before the action that ended it is stale (CORE-RT-1)."""
        game = self.game
        if self.phase == "waiting" or game is None:
            fair, why = self.fair, "every seat must be claimed"
            if fair is not None and self.config.seat_entropy and (len(self.tokens) >= self.players or self.config.start == "now"):
                why = f"waiting for the entropy of seat(s) {[s for s, e in enumerate(fair.entropy) if e is None]}"
            raise ProtocolError("not-started", f"the game has not started yet ({why})")
        if self.phase != "playing":
            if self.realtime and seen > game.version:  # no view of that version was ever sent
                raise ProtocolError("bad-message", f"seen={seen} is ahead of the game (version {game.version})")
            if self.realtime and act is not None and seen >= 0:
                readable(game, *act)  # text that is no action: notation, whatever its seen
            if self.realtime and 0 <= seen < game.version:
                msg = f"another action came first and ended the game (version {game.version}, after your {seen}) (CORE-RT-1)"
                raise ProtocolError("stale", msg, rule_id="CORE-RT-1")
            raise ProtocolError("game-over", "the game is over")
        return game

    # -- starting ----------------------------------------------------------------------------

    def _listeners(self) -> list[Listener]:
        out: list[Listener] = [(Event, buf.append, s) for s, buf in enumerate(self._seat_events)]
        if self.config.spectators:
            out.append((Event, self._spec_events.append, SPECTATOR))
        return out

    def _clear_events(self) -> None:
        for buf in self._seat_events:
            buf.clear()
        self._spec_events.clear()

    def _start(self, at: float) -> None:
        """Deal the game and show it to every stream."""
        fair = self.fair
        if fair is not None:
            fair.entropy = ["" if e is None else e for e in fair.entropy]
            seed = fair.seed
        else:
            seed = self.seed if self.seed is not None else 0
        game = self.setup.build(seed, subscribers=self._listeners(), chance=self.chance)
        self.game = game
        heard = [*self._seat_events, self._spec_events]  # the deal's lines, for each stream
        dealt = [self._notes([e.to_json() for e in buf], None) for buf in heard]
        notes = dict(zip([s.name for s in [*self.streams, self.spectators]], dealt, strict=True))
        self._clear_events()
        self.phase = "playing"
        self.started = at
        self.entropy_deadline = None
        self.views = [self._first_view(game, s) for s in range(self.players)]
        self._spec_now = self._first_view(game, None)
        self._spec_rounds_now = len(game.history(None))
        spec = self.spec
        spec.released, spec.view, spec.rounds = 0, self._spec_now, self._spec_rounds_now
        self.clocks.start(may_act(game), at)
        self._dirty = True
        self._emit_all(lambda stream: self._view_message(stream, "start", 0, notes[stream.name]))
        if game.is_over:
            self._finish(at)

    def _first_view(self, game: Game, seat: int | None) -> dict[str, Any]:
        """*seat*'s whole view of *game*: ``{}`` if a plugin's fails (logged; the next update patches it all in)."""
        try:
            return game.view(seat)
        except Exception:
            LOG.exception("session %s: the view of seat %s failed at version %d", self.id, seat, game.version)
            if seat is not None:
                self.foreign[seat] = game.version
            return {}

    def _notes(self, events: list[dict[str, Any]], action: str | None) -> list[str]:
        """The game's lines of what no action names in one stream's *events* of a change
        (``GameInfo.notes``: Speed's side cards turning); a plugin's error says nothing."""
        say = None if self.game is None else self.game.ruleset.game.notes
        try:
            return [str(line) for line in say(events, action)] if say and events else []
        except Exception:  # the lines are a courtesy: the game goes on without them
            LOG.exception("session %s: the game's notes failed", self.id)
            return []

    # -- after every action ---------------------------------------------------------------

    def _copy(self, game: Game) -> Game | None:
        """A copy of *game* before an action, for a takeback request to judge it without a replay."""
        return None if self.realtime or not self.config.takebacks else game.clone()

    def _after(
        self, actor: int, action: Action, at: float | None, cause: str, before: Game | None = None
    ) -> None:
        """Tell every stream what the action just applied changed, and store it."""
        game = self.game
        if game is None:  # pragma: no cover - callers act on a started game
            return
        version = game.version
        self.before = None if before is None else (game, version - 1, before)
        text = str(action)
        self._batch.actions.append((version - 1, actor, text, at))
        self.chain[version:] = [integrity.link(self.chain[version - 1], actor, text, at)]
        self._dirty = True
        when = self.now if at is None else at
        if self.takeback is not None:
            self._takeback_end("cancelled", None, "the game moved on")
        if cause != "player":  # a timeout, a takeback, the host: every older view is stale
            self.foreign = [version] * self.players
            self.played_for[version] = cause
        over = game.is_over
        seats = may_act(game)
        if self.clocks.ends_round(actor, seats):  # the actor's bid ended the round: its views
            self.foreign[actor] = version  # before it (a retried bid) are stale
        self.clocks.update(seats, when, actor if actor != HOST else None, over=over)
        for s, stream in enumerate(self.streams):
            old = self.views[s]
            try:
                new = game.view(s)
            except Exception:  # a plugin's view: this seat gets it all with its next update
                LOG.exception("session %s: seat %d's view failed at version %d", self.id, s, version)
                self.foreign[s] = version
                continue
            if s != actor and (
                old.get("legal") != new.get("legal") or card_places(old) != card_places(new)
            ):  # another seat's move changed its choices or moved a card it sees: look again
                self.foreign[s] = version
            self.views[s] = new
            if stream.version is not None and stream.version != old.get("version"):
                self._seat_events[s].clear()  # its readers hold an older view than the saved one
                self._emit(stream, self._view_message(stream, "resync"))  # (a restart since)
                continue
            events = [e.to_json() for e in self._seat_events[s] if type(e) is not ActionApplied]
            self._seat_events[s].clear()  # (kept for a seat whose view failed, as above)
            shown = text if s == actor or may_show(text, old, new, events) else None
            message = {
                "type": "update",
                "n": 0,
                "version": version,
                "action": {"seat": actor, "text": shown, "at": at, "cause": cause},
                "events": events,
                "patch": diff(old, new),
                "clocks": self.clocks.public(s),
            }
            if notes := self._notes(events, shown):
                message["notes"] = notes
            self._emit(stream, message)
        try:
            if self.config.spectators:
                self._spectate(game, actor, text, at, cause)
            self._spec_events.clear()
        except Exception:  # as for a seat: the spectators see it with the next version
            LOG.exception("session %s: the spectators' view failed at version %d", self.id, version)
        if over:
            self._finish(when)

    def _spectate(self, game: Game, actor: int, text: str, at: float | None, cause: str | None) -> None:
        """Queue the new version for spectators and show them what is old enough."""
        old = self._spec_now
        new = game.view(None)
        self._spec_now = new
        self._spec_rounds_now += len(game.history(None, self._spec_rounds_now))
        events = [e.to_json() for e in self._spec_events if type(e) is not ActionApplied]
        shown = text if may_show(text, old, new, events) else None
        action = {"seat": actor, "text": shown, "at": at, "cause": cause}
        self.spec.pending.append(
            SpectatorEntry(game.version, new, events, action, self._spec_rounds_now)
        )
        self._release(game)

    def _release(self, game: Game) -> None:
        spec = self.spec
        for entry in spec.due(game.version, game.is_over):
            patch = diff(spec.view, entry.view)
            spec.view, spec.released, spec.rounds = entry.view, entry.version, entry.rounds
            message = {"type": "update", "n": 0, "version": entry.version, "action": entry.action, "events": entry.events, "patch": patch}
            if notes := self._notes(entry.events, entry.action.get("text")):
                message["notes"] = notes
            self._emit(self.spectators, message)

    def _finish(self, at: float) -> None:
        """The game is over: stop the clocks, set the tokens' expiry, reveal the deal."""
        self.phase = "over"
        self.ended = at
        self.clocks.update((), at, None, over=True)
        expires = at + self.config.token_ttl
        for seat, row in list(self.tokens.items()):
            self.tokens[seat] = TokenRow(seat, row.digest, expires)
            self._batch.tokens.append(self.tokens[seat])
        self._dirty = True
        bundle = self.fair_bundle()
        if bundle is not None:
            self._emit_all(lambda stream: {"type": "reveal", "n": 0, "bundle": bundle})

    # -- takebacks --------------------------------------------------------------------------

    def _takeback_end(self, op: str, seat: int | None, reason: str) -> None:
        pending = self.takeback
        self.takeback = None
        self.takeback_prev = None
        self._dirty = True
        if pending is None:
            return
        for stream in self.streams:
            message = {"type": "takeback", "n": 0, "op": op, "seat": seat, "by": pending["by"], "version": pending["version"], "reason": reason}
            self._emit(stream, message)

    def _take_back(self, prev: Game, at: float) -> None:
        """Swap in *prev* (the game without its last action) and show it to everyone."""
        self.takeback = self.takeback_prev = None
        self.game = prev
        version = prev.version
        self._batch.keep_actions = version
        del self.chain[version + 1 :]
        self._batch.actions = [a for a in self._batch.actions if a[0] < version]
        self._dirty = True
        self.foreign = [version] * self.players
        self.played_for, self.played_from = {v: c for v, c in self.played_for.items() if v <= version}, min(self.played_from, version)
        self.clocks.reset(may_act(prev), at)
        self.views = [self._first_view(prev, s) for s in range(self.players)]
        for stream in self.streams:
            self._emit(stream, self._view_message(stream, "takeback"))
        spec = self.spec
        spec.drop_after(version)
        self._spec_now = self._first_view(prev, None)
        self._spec_rounds_now = len(prev.history(None))
        if spec.released > version:
            spec.released, spec.view, spec.rounds = version, self._spec_now, self._spec_rounds_now
            self._emit(self.spectators, self._view_message(self.spectators, "takeback"))

    # -- timers ------------------------------------------------------------------------------

    def _advance(self, now: float) -> None:
        """Play everything whose time has come by *now*, earliest first."""
        for _ in range(MAX_STEPS_PER_CALL):
            candidates: list[tuple[float, int, int]] = []
            if self.takeback is not None and self.takeback["deadline"] <= now:
                candidates.append((self.takeback["deadline"], 0, 0))
            if self.phase == "waiting" and self.entropy_deadline is not None and self.entropy_deadline <= now:
                candidates.append((self.entropy_deadline, 1, 0))
            if self.phase == "playing" and self.game is not None:  # ties: a draw from the seed
                due = self.clocks.due(now, repr(self.game.state.seed))
                if due is not None:
                    candidates.append((due[0], 2, due[1]))
            if not candidates:
                return
            at, kind, seat = min(candidates)
            if kind == 0:
                self._takeback_end("expired", None, "the other seats did not answer in time")
            elif kind == 1:
                self._start(at)
            elif seat == GAME_CLOCK:
                if not self._apply(HOST, EndMatch(), at, "clock"):  # the game refused its end:
                    self._clock_moved(lambda: setattr(self.clocks, "total", now + CLOCK_RETRY))
            else:
                self._timeout(seat, at, now)
        LOG.warning("session %s: more than %d timer steps in one call", self.id, MAX_STEPS_PER_CALL)

    def next_deadline(self) -> float | None:
        """When the session next needs a :meth:`tick` (``None``: not until a message comes)."""
        if self.phase == "closed":
            return None
        times = [self.now] if self._held else []  # messages to send (issue_token's): tick now
        if self.takeback is not None:
            times.append(float(self.takeback["deadline"]))
        if self.phase == "waiting" and self.entropy_deadline is not None:
            times.append(self.entropy_deadline)
        if self.phase == "playing":
            deadline = self.clocks.next_deadline()
            if deadline is not None:
                times.append(deadline)
        return min(times) if times else None

    def _timeout(self, seat: int, at: float, now: float) -> None:
        """*seat*'s clock ran out at *at*: play its default action(s), or (``forfeit``) resign."""
        game = self.game
        if game is None:  # pragma: no cover
            return
        forfeit = self.config.time.forfeit
        steps = 1 if self.realtime or forfeit else self.config.time.max_steps
        idle = True
        for _ in range(steps):
            if game.is_over or seat not in game.to_act or self.game is not game:
                return
            wait = forfeit and self.realtime and nothing_now(game, seat)  # its game's own word
            action = (None if wait else Resign(seat)) if forfeit else default_for(game, seat, self.config.time.fallback, self.realtime, self.id)
            if action is None or not self._apply(seat, action, at, "timeout"):
                break
            idle = False
            if self.realtime or self.clocks.renewed(seat, at):  # a new round: a whole clock
                return
        if not game.is_over and seat in game.to_act:  # late or not: the same deadlines
            self._clock_moved(lambda: self.clocks.rearm(seat, at, now if idle else None))

    def _clock_moved(self, move: Callable[[], object]) -> None:
        """Move a deadline with no action (*move*); tell the seats that see it (real time: its own)."""
        told = [self.clocks.public(s) for s in range(self.players)]
        move()
        self._dirty = True
        for s, stream in enumerate(self.streams):
            if (clocks := self.clocks.public(s)) != told[s]:
                self.moved.add(stream.name)
                for conn in stream.conns:
                    self._send(conn, {"type": "clocks", "clocks": clocks})

    def _apply(self, seat: int, action: Action, at: float, cause: str) -> bool:
        """Apply an action the session plays itself (a timeout, the game clock); ``False`` if refused."""
        game = self.game
        if game is None:  # pragma: no cover
            return False
        before, version = self._copy(game), game.version
        try:
            game.apply(action, at=at)
        except CardcoreError as exc:
            LOG.error("session %s: %s action %.80r refused: %s", self.id, cause, str(action), one_line(exc))
            if game.version == version:
                return False
            action = game.record_entries()[-1][1]  # applied all the same (CORE-BOUND-1): told
        self._after(seat, action, at, cause, before)
        return True

