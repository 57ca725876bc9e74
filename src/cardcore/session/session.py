"""The :class:`Session`: one game behind a network, sans I/O.

A host (a WebSocket server, a chat bot, a test) gives each connection an id,
passes every message a connection sends to :meth:`Session.handle` with the
time, calls :meth:`Session.tick` when :meth:`Session.next_deadline` comes,
and :meth:`Session.disconnect` when a connection closes. Each call returns
the messages to send, each addressed to one connection (:class:`Outbound`).
The session never reads a clock, opens a socket, starts a thread or sleeps,
so every behaviour runs the same on a virtual clock. No exception escapes
``handle``, ``tick`` or ``disconnect``: a bad message is an ``error`` message
to its connection, and nothing changes.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardcore._text import one_line, one_of, plain, shown
from cardcore.actions import HOST, EndMatch
from cardcore.cards import Card
from cardcore.deck import CHANCE, LEGACY_CHANCE
from cardcore.errors import (
    CardcoreError,
    CorruptStateError,
    IllegalActionError,
    NotationError,
    OptionError,
    StaleActionError,
)
from cardcore.plugins import game_info
from cardcore.session import _integrity as integrity
from cardcore.session import fair as fairness
from cardcore.session._causes import cause_of, stored_causes
from cardcore.session._flow import FORMAT, LOG, Conn
from cardcore.session._reading import readable
from cardcore.session._rejoin import Rejoin
from cardcore.session.clocks import check_time as _check_time
from cardcore.session.config import GameSetup, SessionConfig, listed, mapping
from cardcore.session.protocol import ENTROPY, Outbound, ProtocolError, _utf8, read_message
from cardcore.session.store import Store, StoredSession, TokenRow
from cardcore.session.tokens import hash_token, new_token, token_matches

__all__ = ["CorruptSessionError", "Session", "SessionError"]


class SessionError(CardcoreError):
    """A session that cannot be created or resumed as asked (the host's mistake, not a client's)."""


class _SeededFairDeal(SessionError, fairness.FairDealError):
    """A fixed seed asked of a fair deal: refused as a deck or a position is (a
    :class:`~cardcore.session.FairDealError`), and a :class:`SessionError` as before."""


class CorruptSessionError(SessionError, CorruptStateError):
    """A stored session whose rows fail validation: unreadable, or not what was last committed."""


class Session(Rejoin):
    """One game behind a network: seats, tokens, streams, spectators, clocks, takebacks.

    Build one with :meth:`create` or :meth:`resume`, never directly.
    """

    # -- creating and resuming ------------------------------------------------------------

    @classmethod
    def create(
        cls,
        game: str,
        players: int | Sequence[str],
        *,
        now: float,
        rules: Iterable[str] = (),
        without: Iterable[str] = (),
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        deck: str | Sequence[str | Card] | None = None,
        position: str | None = None,
        config: SessionConfig | None = None,
        store: Store | None = None,
        session_id: str | None = None,
    ) -> Session:
        """Create a session for a new game (checked now: a bad option fails here, not at the deal).

        :param game: An installed game; *players* to *position* as for :func:`cardcore.new_game`.
        :param now: The host's time.
        :param config: The settings (defaults: :class:`SessionConfig`).
        :param store: Where to keep the session (``None``: nowhere, no restarts).
        :param session_id: The id (default: 16 random bytes, URL-safe): 1 to 200 characters,
            none of them NUL.
        :raises SessionError: *session_id* is stored already (the stored session is kept).
        :raises CardcoreError: The game cannot start as asked (:class:`~cardcore.OptionError`,
            :class:`~cardcore.UnknownPluginError` ...), or *config* asks a fair deal of a
            game from *deck* or *position* (:class:`~cardcore.session.FairDealError`), or *seed*
            with a fair deal (a :class:`SessionError` that is also a ``FairDealError``).
        """
        now = _check_time(now)
        if store is not None and not all(callable(getattr(store, m, None)) for m in ("create", "load", "commit")):
            raise OptionError(f"store must be a Store (such as MemoryStore or SQLiteStore), not {shown(store, 40)}")
        session_id = plain(session_id)  # a str subclass: stored as plain text
        if session_id is not None and not (type(session_id) is str and 0 < len(session_id) <= 200 and _utf8(session_id) and "\0" not in session_id):
            # (no NUL: a token's hash joins the id, the seat and the token with NULs)
            msg = f"session_id must be text of 1 to 200 characters UTF-8 can carry, without NUL, not {shown(session_id, 40)}"
            raise OptionError(msg)
        config = SessionConfig() if config is None else config
        if not isinstance(config, SessionConfig):
            raise OptionError(f"config must be a SessionConfig, not {type(config).__name__}")
        players = plain(players)  # an int subclass made plain, judged by its real type
        if type(players) is bool or (type(players) is int and not 1 <= players <= 64):
            raise OptionError(f"players must be from 1 to 64, not {players if abs(players) < 10**9 else 'so many'}")
        if type(players) is not int and not issubclass(type(players), list | tuple):
            msg = f"players must be a count or a list of names, not {type(players).__name__}"
            raise OptionError(msg)
        names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        if any(isinstance(name, str) and not _utf8(name) for name in names):  # never stored or sent
            msg = "a player's name must be text UTF-8 can carry (no lone surrogate such as \\ud800)"
            raise OptionError(msg)
        cards = None if deck is None else tuple(str(c) if type(c) is Card else c for c in listed("deck", deck.split() if isinstance(deck, str) else deck))
        chosen = listed("rules", rules), listed("without", without), mapping("options", options or {})
        setup = GameSetup(game, tuple(names), *chosen, cards, position)
        if config.fair:
            fairness.refuse_placed(deck, position)
            if seed is not None:
                msg = "a fair deal draws its own seed: pass seed=None with fair=True"
                raise _SeededFairDeal(msg)
        setup.build(0 if seed is None else seed)  # every check of new_game, before anything is stored
        info = game_info(game)
        session = cls(session_id or secrets.token_urlsafe(16), setup, config, info.realtime, store, now)
        if config.fair:
            session.fair = fairness.FairDeal.fresh(len(names))
        else:
            session.seed = secrets.randbits(63) if seed is None else seed
        session._begin(now)
        if store is not None:
            try:
                store.create(StoredSession(session.id, session.phase, now, session._meta()))
            except KeyError:  # (the store's answer for an id it holds: that session is kept)
                raise SessionError(f"a session {shown(session.id)} is already stored") from None
        session._maybe_start(now)
        session._end()
        return session

    @classmethod
    def resume(cls, store: Store, session_id: str, now: float) -> Session:
        """Load a session from *store* and replay its record: the game resumes exactly where it was.

        Clocks restart as the settings' ``TimeControl.restart`` says; connections do not
        survive a restart (clients join again with their token and last number).

        :raises SessionError: No such session, or one stored in a format this cardcore does not read.
        :raises CorruptSessionError: Its rows disagree with the digests committed with them,
            a field cannot be read, or the record does not replay (nothing is resumed).
        :raises OptionError: *now* is not a time :meth:`create` takes.
        """
        now = _check_time(now)
        try:  # whatever a damaged row holds, the answer is a SessionError naming the session
            stored = store.load(session_id)
            meta = None if stored is None else stored.meta
            if stored is None or not isinstance(meta, Mapping):
                msg = f"no session {session_id!r} in the store" if stored is None else f"session {session_id!r} is stored damaged"
                raise SessionError(msg)
            if meta.get("format") != FORMAT[0] or meta.get("format_version") not in (1, 2, FORMAT[1]):
                msg = f"session {session_id!r} is not stored in a format this cardcore reads"
                raise SessionError(msg)
            session = cls._restore(store, stored, now)
        except SessionError:
            raise
        except CorruptStateError as exc:
            msg = f"session {str(session_id)[:80]!r} cannot be resumed: {str(exc)[:300]}"
            raise CorruptSessionError(msg) from None
        except Exception as exc:  # a cardcore error (a game not installed) says why; else a damaged field
            LOG.warning("session %.80r cannot be resumed: %r", session_id, exc)
            why = str(exc)[:200] if isinstance(exc, CardcoreError) else f"its stored rows are damaged ({shown(str(exc), 120)})"
            msg = f"session {str(session_id)[:80]!r} cannot be resumed: {why}"
            raise (SessionError if isinstance(exc, CardcoreError) else CorruptSessionError)(msg) from None
        return session

    @classmethod
    def _restore(cls, store: Store, stored: StoredSession, now: float) -> Session:
        meta = stored.meta
        setup, config = integrity.read_settings(meta)
        chain = integrity.check(stored)
        session = cls(stored.id, setup, config, bool(meta["realtime"]), store, stored.created)
        session.chain, session.unbound = chain, integrity.unbound_seats(stored)
        session.now = now
        session.phase = meta["phase"]
        session.started = meta.get("started")
        session.ended = meta.get("ended")
        session.seed = meta.get("seed")
        # format 1 stored no chance: its games dealt with the derivation of records of format 2
        session.chance = LEGACY_CHANCE if meta["format_version"] == 1 else int(meta["chance"])
        if session.chance not in (CHANCE, LEGACY_CHANCE):
            msg = f"unknown chance derivation {session.chance}"
            raise ValueError(msg)
        session.fair = None if meta.get("fair") is None else fairness.FairDeal.from_data(meta["fair"])
        session.entropy_deadline = meta.get("entropy_deadline")
        session.tokens = {t.seat: t for t in stored.tokens}
        counts = meta.get("streams", {})
        for stream in [*session.streams, session.spectators]:
            stream.n = int(counts.get(stream.name, 0))
            stream.load(integrity.trim_tail(stored.id, stream, stored.messages.get(stream.name, []), meta.get("tails")))
        shift = 0.0
        clocks = meta.get("clocks", {})
        if config.time.restart == "pause":
            shift = max(0.0, now - float(clocks.get("since", now)))
        if session.entropy_deadline is not None:
            session.entropy_deadline += shift
        if session.phase == "waiting":  # nothing to replay: the setup must still build
            setup.build(0)
        else:
            session._replay(stored.actions, int(meta["spectators"]["released"]), meta["spectators"].get("causes", ()))
            session.foreign = [int(v) for v in meta["foreign"]]
            session.played_for, session.played_from = stored_causes(meta, session.streams, len(stored.actions))
            session.clocks.load(clocks, now)
            takeback = meta.get("takeback")
            if takeback is not None:
                takeback = dict(takeback)
                takeback["deadline"] = float(takeback["deadline"]) + shift
            session.takeback = takeback
        session._restored(shift)
        return session

    def _replay(self, actions: Sequence[tuple[int, str, float | None]], released: int, causes: Sequence[Any] = ()) -> None:
        """Rebuild the game from its record, and the spectators' delayed picture on the way."""
        fair = self.fair
        seed = fair.seed if fair is not None else (self.seed or 0)

        def capture(game: Any) -> None:
            version = game.version
            for buf in self._seat_events:
                buf.clear()
            if not self.config.spectators or version < released:
                self._spec_events.clear()
                return
            if version == released:
                self._spec_events.clear()
                self._spec_now = self._first_view(game, None)
                self._spec_rounds_now = len(game.history(None))
                spec = self.spec
                spec.released, spec.view, spec.rounds = version, self._spec_now, self._spec_rounds_now
                return
            seat, text, at = actions[version - 1]
            cause = causes[version - released - 1] if version - released <= len(causes) else None
            self._spectate(game, seat, text, at, cause if cause in ("player", "timeout", "clock", "host") else None)
            self._spec_events.clear()

        game = self.setup.build(seed, actions, self._listeners(), after_each=capture, chance=self.chance)
        self._as_stored(game)  # ended at an action bound raised since: as it ended
        self._clear_events()
        self.game = game
        self.views = [self._first_view(game, s) for s in range(self.players)]  # ({}: a plugin's failed)
        if len(actions) != game.version:  # pragma: no cover - build replays every action
            msg = "the record does not replay to its length"
            raise CorruptStateError(msg)

    # -- the host's calls ------------------------------------------------------------------

    def handle(self, conn: str, message: str | bytes | Mapping[str, Any], now: float) -> list[Outbound]:
        """Read one message of connection *conn* at *now*; return what to send, to whom.

        Clocks that ran out by *now* are played first. Never raises.
        """
        now = self._begin(now)
        try:
            allowed, tell, close = self.limiter.take(conn, now)
            if allowed:
                self._dispatch(conn, message, now)
            elif tell or close:
                msg = "too many messages: this one was dropped unread (slow down)"
                self._error(conn, ProtocolError("rate-limited", msg), None, close=close)
        except Exception as exc:  # pragma: no cover - a bug: tell the client, keep the session
            LOG.exception("session %s: unexpected error", self.id)
            self._error(conn, ProtocolError("internal", f"internal error: {type(exc).__name__}"), None)
        return self._end()

    def dispatch(self, conn: str, message: str | bytes | Mapping[str, Any], now: float) -> list[Outbound]:
        """Like :meth:`handle` without the rate limit (a :class:`~cardcore.session.Hub` limits first)."""
        now = self._begin(now)
        try:
            self._dispatch(conn, message, now)
        except Exception as exc:  # pragma: no cover - a bug: tell the client, keep the session
            LOG.exception("session %s: unexpected error", self.id)
            self._error(conn, ProtocolError("internal", f"internal error: {type(exc).__name__}"), None)
        return self._end()

    def tick(self, now: float) -> list[Outbound]:
        """Play every clock that has run out by *now*; return what to send. Never raises."""
        now = self._begin(now)
        try:
            self._advance(now)
        except Exception:  # pragma: no cover - a bug: keep the session
            LOG.exception("session %s: unexpected error in tick", self.id)
        return self._end()

    def disconnect(self, conn: str, now: float) -> list[Outbound]:
        """Forget connection *conn* (closed by the transport); its seat's clock keeps running."""
        if not self.limiter.keyable(conn):  # a list: no connection of ours
            return []
        now = self._begin(now)
        try:
            self.limiter.forget(conn)
            if self._unbind(conn):
                self._presence()
        finally:
            out = self._end()
        return out

    def issue_token(self, seat: int, now: float, *, replace: bool = False) -> str:
        """Claim *seat* for an invitation; return its token (shown once; only its hash is kept). What
        it tells (the deal; ``closed`` to replaced tabs) comes with the next call's messages.

        :param replace: Replace the seat's token if it has one (the old one stops working).
        :raises SessionError: No such seat, the seat is claimed (without *replace*), or the game is over (or the session closed).
        """
        if type(seat) is not int or not 0 <= seat < self.players or self.phase in ("over", "closed") or (seat in self.tokens and not replace):
            msg = f"cannot issue a token for seat {shown(seat, 40)} (seats 0 to {self.players - 1}; claimed: {one_of(sorted(self.tokens), 'and')}; {self.phase})"
            raise SessionError(msg)
        self._begin(now)
        claimed = seat not in self.tokens
        token = self._claim(seat)
        for conn in [c.id for c in self.conns.values() if c.seat == seat]:
            self._unbind(conn)
            self._send(conn, {"type": "closed", "reason": "the seat was given a new token"}, close=True)
            self._presence()
        if claimed:  # the seat is claimed now (before the deal): as a join tells it
            self._emit_lobby()
        self._maybe_start(now)
        held = self._end()  # (what was held already, and this call's)
        self._held = held  # returned by the next call (next_deadline asks for it now)
        return token

    def end(self, now: float) -> list[Outbound]:
        """End the match now (the host's :class:`~cardcore.EndMatch`: the leaders win)."""
        now = self._begin(now)
        try:
            if self.phase == "playing":
                self._apply(HOST, EndMatch(), now, "host")
        finally:
            out = self._end()
        return out

    def close(self, now: float) -> list[Outbound]:
        """Close the session: every connection is told and closed; the store marks it ``closed``.
        A ``join`` or ``watch`` after it is refused (``no-session``); a pending takeback is dropped.
        Closing it again changes nothing (its id may be another session's by then)."""
        if self.phase == "closed":
            return []
        self._begin(now)
        for conn in list(self.conns):
            self._unbind(conn)
            self._send(conn, {"type": "closed", "reason": "the host closed the session", "phase": "closed"}, close=True)
        self.phase, self.takeback = "closed", None
        self._dirty = True
        return self._end()

    @property
    def commitment(self) -> str | None:
        """The fair-deal commitment published at creation (``None``: no commitment)."""
        return None if self.fair is None else self.fair.commitment

    def cause(self, version: int) -> str:
        """What played the action that made *version*: ``"player"``, ``"timeout"`` (for a seat
        whose clock ran out: a ``resign`` lost on time), ``"clock"`` (the game clock), ``"host"``,
        or ``"unknown"`` (stored before causes were kept, older than the updates it still holds).

        :raises SessionError: No action of this session's game made *version*.
        """
        if self.game is None or type(version) is not int or not 0 < version <= self.game.version:
            msg = f"no action made version {shown(version, 40)} of session {self.id!r}"
            raise SessionError(msg)
        return cause_of(self.played_for, self.played_from, version)

    def record(self) -> dict[str, Any] | None:
        """The game's record (privileged: it holds the seed, so every hidden card), once the game is over or the session closed after its deal; else ``None``."""
        if self.game is None or self.phase not in ("over", "closed"):
            return None
        return self.game.record()

    # -- reading client messages --------------------------------------------------------

    def _dispatch(self, conn: str, raw: str | bytes | Mapping[str, Any], now: float) -> None:
        ref: Any = None
        try:
            msg = read_message(raw, self.config.limits.max_message)
            ref = msg.get("id")
            if "session" in msg and msg["session"] != self.id:
                raise ProtocolError("no-session", f"this connection is in session {self.id!r}, not {shown(msg['session'], 60)}: open another connection for another session")
            self._advance(now)
            kind = msg["type"]
            if kind == "ping":
                self._send(conn, {"type": "pong", "id": ref, "t": msg.get("t"), "server_time": now})
                return
            if kind == "join":
                self._join(conn, msg, now)
                return
            if kind == "watch":
                self._watch(conn, msg)
                return
            c = self.conns.get(conn)
            if c is None:
                raise ProtocolError("not-joined", f"join a seat or watch before sending {kind!r}")
            if kind == "act":
                self._act(c, msg, now)
            elif kind == "resync":
                self._catch_up(conn, c.stream, msg["last"])
                return
            elif kind == "takeback":
                self._takeback(c, msg["op"], now)
            elif kind == "entropy":
                self._set_entropy(self._seat_of(c, "send entropy"), msg["value"], now)
            elif kind == "history":
                self._history(c, msg.get("since", 0), ref)
                return
            elif kind == "record":
                self._record(c, ref)
                return
            elif kind == "leave":
                self._unbind(conn)
                self._presence()
            version = self._version_for(conn)
            self._send(conn, {"type": "ok", "id": ref, "of": kind, "version": version})
        except ProtocolError as exc:
            self._error(conn, exc, ref if ref is not None else exc.ref)

    def _error(self, conn: str, exc: ProtocolError, ref: Any, *, close: bool = False) -> None:
        message: dict[str, Any] = {"type": "error", "code": exc.code, "message": str(exc), "id": ref}
        if exc.rule_id is not None:
            message["rule"] = exc.rule_id
        if self.game is not None:
            message["version"] = self._version_for(conn)
        self._send(conn, message, close=close)

    def _join(self, conn: str, msg: Mapping[str, Any], now: float) -> None:
        self._admit(conn)
        seat: int = msg["seat"]
        if seat >= self.players:
            raise ProtocolError("no-seat", f"no seat {seat} in a {self.players}-player game (seats 0 to {self.players - 1})")
        token = msg.get("token")
        row = self.tokens.get(seat)
        if row is None:
            if token is not None:
                raise ProtocolError("bad-token", f"seat {seat} has no token yet: join it without one to claim it")
            if self.phase in ("over", "closed"):
                raise ProtocolError("game-over", f"the game is over: seat {seat} can no longer be claimed")
        elif token is None:
            raise ProtocolError("seat-taken", f"seat {seat} is claimed: join it with its token")
        elif not token_matches(token, row.digest, None if seat in self.unbound else self.id, seat):
            raise ProtocolError("bad-token", f"that is not seat {seat}'s token")
        elif row.expires is not None and now >= row.expires:
            raise ProtocolError("token-expired", f"seat {seat}'s token expired (the game ended)")
        holders = sum(1 for c in self.conns.values() if c.seat == seat)
        if holders >= self.config.limits.max_per_seat:
            raise ProtocolError("full", f"seat {seat} is open in {holders} connections already")
        entropy = msg.get("entropy") if self.phase == "waiting" else None  # after the deal: ignored
        if entropy is not None:
            ENTROPY("entropy", entropy)  # (read only now: a holder rejoining later is never refused)
            self._check_entropy(seat, entropy)
        fresh = self._claim(seat) if row is None else None
        if row is not None and token is not None:
            integrity.rebind(self, seat, token)  # a hash stored before it named its seat: bind it
        fair = self.fair
        changed = entropy is not None and fair is not None and fair.entropy[seat] != entropy
        if changed and fair is not None:
            fair.entropy[seat] = entropy
        if fresh is not None or changed:
            self._emit_lobby()  # to the others: this connection gets the whole picture below
        stream = self.streams[seat]
        self.conns[conn] = Conn(conn, seat, stream)
        stream.conns[conn] = None
        self._welcome(conn, seat, fresh, msg.get("id"))
        self._catch_up(conn, stream, msg.get("last"))
        self._presence(conn)
        self._maybe_start(now)

    def _claim(self, seat: int) -> str:
        token = new_token()
        row = TokenRow(seat, hash_token(token, self.id, seat), None)
        self.tokens[seat] = row
        self.unbound.discard(seat)
        self._batch.tokens.append(row)
        self._dirty = True
        return token

    def _watch(self, conn: str, msg: Mapping[str, Any]) -> None:
        self._admit(conn)
        if not self.config.spectators:
            raise ProtocolError("full", "this session takes no spectators")
        watching = len(self.spectators.conns)
        if watching >= self.config.limits.max_spectators:
            raise ProtocolError("full", f"{watching} spectators already: no room for more")
        self.conns[conn] = Conn(conn, None, self.spectators)
        self.spectators.conns[conn] = None
        self._welcome(conn, None, None, msg.get("id"))
        self._catch_up(conn, self.spectators, msg.get("last"))
        self._presence(conn)

    def _unbind(self, conn: str) -> bool:
        c = self.conns.pop(conn, None)
        if c is None:
            return False
        c.stream.conns.pop(conn, None)
        return True

    def _emit_lobby(self) -> None:
        if self.phase == "waiting":
            self._emit_all(lambda stream: self._lobby())

    # -- starting ------------------------------------------------------------------------

    def _check_entropy(self, seat: int, value: str) -> None:
        fair = self.fair
        if fair is None or not self.config.seat_entropy:
            raise ProtocolError("entropy-refused", "this session takes no seat entropy")
        current = fair.entropy[seat]
        if current == value:
            return
        if self.phase != "waiting":
            raise ProtocolError("entropy-refused", "the cards are dealt: entropy comes before the deal")
        if current is not None:
            raise ProtocolError("entropy-refused", f"seat {seat}'s entropy is set already")

    def _set_entropy(self, seat: int, value: str, now: float) -> None:
        self._check_entropy(seat, value)
        fair = self.fair
        if fair is None or fair.entropy[seat] == value:
            return
        fair.entropy[seat] = value
        self._dirty = True
        self._emit_lobby()
        self._maybe_start(now)

    def _maybe_start(self, now: float) -> None:
        if self.phase != "waiting":
            return
        if self.config.start == "seated" and len(self.tokens) < self.players:
            return
        fair = self.fair
        if self.config.seat_entropy and fair is not None and None in fair.entropy:
            if self.entropy_deadline is None:
                self.entropy_deadline = now + self.config.entropy_wait
                self._dirty = True
                self._emit_lobby()
            return
        self._start(now)

    # -- playing ------------------------------------------------------------------------

    def _act(self, c: Conn, msg: Mapping[str, Any], now: float) -> None:
        seat = self._seat_of(c, "act")
        if "seat" in msg and msg["seat"] != seat:
            raise ProtocolError("not-your-seat", f"this connection holds seat {seat}, not seat {msg['seat']}")
        seen: int = msg["seen"]
        game = self._playing(seen, (seat, msg["action"]))
        if seen > game.version:
            raise ProtocolError("bad-message", f"seen={seen} is ahead of the game (version {game.version})")
        if not self.realtime and seen < self.foreign[seat]:
            msg_text = (
                f"the game changed at version {self.foreign[seat]}, after the view you acted on"
                f" (version {seen}): look again"
            )
            readable(game, seat, msg["action"])  # text that is no action at all: notation
            raise ProtocolError("stale", msg_text)
        before = self._copy(game)
        version = game.version
        try:
            action = game.act(seat, msg["action"], at=now, seen=seen if self.realtime else None)
        except StaleActionError as exc:
            raise ProtocolError("stale", str(exc), rule_id=exc.rule_id) from None
        except IllegalActionError as exc:
            code = "stale" if exc.rule_id == "CORE-RT-3" else "illegal"
            raise ProtocolError(code, str(exc), rule_id=exc.rule_id) from None
        except NotationError as exc:
            raise ProtocolError("notation", str(exc)) from None
        except CardcoreError as exc:  # a plugin's: its text may name any card, so it is logged
            LOG.error("session %s: %s", self.id, one_line(exc))  # one line: escaped, cut
            if game.version == version:
                plugin = getattr(exc, "plugin", None)
                by = f" in plugin {shown(plugin, 60)}" if isinstance(plugin, str) else ""
                raise ProtocolError("internal", f"the game failed{by}; the server logged why") from None
            action = game.record_entries()[-1][1]  # applied all the same (CORE-BOUND-1): told
        self._after(seat, action, now, "player", before)

    def _history(self, c: Conn, since: int, ref: Any) -> None:
        game = self.game
        if game is None:
            raise ProtocolError("not-started", "the game has not started yet")
        upto = self.spec.rounds if c.seat is None else None  # spectators: up to the version they see
        self._out.append(self.histories.reply(c.id, game, c.seat, since, upto, ref))

    def _record(self, c: Conn, ref: Any) -> None:
        record = self.record()
        if record is None:
            raise ProtocolError("not-over", "the record is shown once the game is over")
        self._send(c.id, {"type": "record", "id": ref, "record": record, "bundle": self.fair_bundle()})
