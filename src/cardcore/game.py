"""The game driver: :class:`Game`.

A :class:`Game` owns one state, its configuration, event bus, chance counter and
record. It checks every action before anything changes (seat, turn, legality,
vetoes, staleness), applies it atomically under a lock, records it, and
publishes events after the lock is released. :func:`cardcore.new_game` builds one.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping
from typing import Any, cast

from cardcore._actionlog import CHUNK, seal
from cardcore._actionlog import actions as recorded
from cardcore._actionlog import times as recorded_times
from cardcore._bound import checkpoint, commit, truncate
from cardcore._driver import (
    BASE_EVERY,
    COLD,
    MAX_TIME,
    STALE_WINDOW,
    Stamp,
    bus_for,
    cause,
    clone_game,
    legal_for,
    numbered,
    parse_failed,
    plugin_error,
    publish_legal,
    restore,
    undo,
    validate,
)
from cardcore._faults import check_turn, deliver_kept, not_an_action, published_fault, turn_error
from cardcore._legality import legality, vetoing
from cardcore._recording import make_record, make_save, sign
from cardcore._reentry import held, wait_for
from cardcore._stamps import check_at
from cardcore._subscriptions import kept
from cardcore._text import shown
from cardcore._unasked import HUSHED, UNASKED
from cardcore._views import VIEW_FORMAT, make_history, make_view, schema_of
from cardcore._worlds import determinized
from cardcore.actions import HOST, Action, EndMatch, Resign
from cardcore.cards import Card
from cardcore.errors import CardcoreError, IllegalActionError, NotationError, PluginError, SeatError
from cardcore.events import SPECTATOR, ActionApplied, Event, EventBus
from cardcore.logic import GameLogic
from cardcore.plugins import Ruleset
from cardcore.state import GameState, Result

__all__ = ["BASE_EVERY", "MAX_NOTATION", "MAX_TIME", "STALE_WINDOW", "VIEW_FORMAT", "Game"]

_new_event: Any = tuple.__new__  # an event from its full tuple of fields (no Python __new__)

MAX_NOTATION = 200
"""The longest action text :meth:`Game.act` reads."""
_NO_CHECKPOINTS: deque[tuple[int, GameState | None]] = deque(maxlen=2)  # turn-based games share it
_NONE: dict[Any, Any] = {}  # shared by every game, never written: an empty cache until replaced


class Game:
    """One game in progress. Build it with :func:`cardcore.new_game`, :func:`cardcore.replay` or :func:`cardcore.load`.

    Every method that changes the game is atomic and thread-safe; a rejected
    action raises a :class:`~cardcore.CardcoreError` subclass and changes
    nothing (state, version, events, record). A plugin that fails inside
    ``apply`` (any exception, ``KeyboardInterrupt`` included) leaves the game
    exactly as it was: the core restores the state from a checkpoint without
    calling any hook again. Every read (:meth:`view`, :meth:`legal_actions`,
    :meth:`history`) is pure: it changes nothing, not even what counts as seen. Its
    attributes are the game's to set: read them, never assign. See :doc:`security`.
    """

    __slots__ = (
        "_base",
        "_bound",
        "_bus",
        "_checkpoints",
        "_chunks",
        "_deck_top",
        "_determinized",
        "_hooks",
        "_hot",
        "_hot_lock",
        "_is_legal",
        "_last_at",
        "_legal",
        "_legal_v",
        "_lock",
        "_logic_apply",
        "_logic_legal",
        "_mark",
        "_next_base",
        "_past",
        "_realtime",
        "_record",
        "_start_position",
        "_state",
        "_time_chunks",
        "_times",
        "_truncated",
        "is_over",
        "logic",
        "name",
        "options",
        "players",
        "ruleset",
        "seed",
        "to_act",
        "version",
    )

    def __init__(
        self,
        ruleset: Ruleset,
        players: tuple[str, ...],
        options: Mapping[str, Any],
        seed: int,
        deck_top: tuple[Card, ...] | None,
        state: GameState,
        events: EventBus | None = None,
        position: str | None = None,
        base: GameState | None = None,
        bound: int = 2**62,
    ) -> None:
        self.ruleset = ruleset
        """The configuration (game + rules) this game plays under."""
        self.logic: GameLogic[Any, Any] = ruleset.logic
        """The game's rules engine (shared by every game of this configuration; stateless)."""
        self.name = ruleset.game.name
        """The game's name, as passed to :func:`new_game`."""
        self.players = players
        """The display names, one per seat (seats are numbered from 0)."""
        self.options: Mapping[str, Any] = options
        """The resolved options (every declared option, defaults filled in; read-only)."""
        self.seed = seed
        """The seed of every chance event. Privileged: never send it to a player."""
        self.version = 0
        """The number of actions applied so far (+1 per action)."""
        self._bus = events if events is not None else bus_for(ruleset, len(players))
        self._deck_top = deck_top
        self._start_position = position
        self._state = state
        # the record: sealed chunks shared with clones, then the open list (see _actionlog)
        self._chunks: list[tuple[Action, ...]] = []
        self._time_chunks: list[dict[int, float]] = []
        self._record: list[Action] = []
        self._times: dict[int, float] = {}
        self._last_at = -MAX_TIME
        self._truncated: Result | None = None  # the result truncate() gave, kept for restores
        self._lock = threading.Lock()
        self._hot_lock: threading.Lock | None = self._lock  # what legal_actions and apply take
        self._legal: dict[int, tuple[Action, ...]] = _NONE  # a new dict at each version asked
        self._legal_v = -1
        self._realtime = ruleset.game.realtime
        # real time: the legal actions computed at recent versions, and state checkpoints,
        # so an explicit ``seen`` inside the window is judged exactly at bounded cost
        self._past: dict[int, dict[int, tuple[Action, ...]]] = {} if self._realtime else _NONE
        # (version 0 is dealt again when needed, unless a hook ran while dealing)
        self._checkpoints: deque[tuple[int, GameState | None]] = deque([(0, base)], maxlen=2) if self._realtime else _NO_CHECKPOINTS
        # transactions: replaying the record from ``_base`` calls no hook (None: from the deal);
        # ``_mark`` is the hooks' mark when the base was last brought up to date, and a new base
        # is due at version ``_next_base`` at the latest
        self._base: tuple[int, GameState | None] = (0, base)
        self._hooks = ruleset.hooks
        self._mark = self._hooks.value
        self._bound = bound  # the action bound: reached, the game ends as truncated (CORE-BOUND-1)
        self._next_base = min(BASE_EVERY, bound)
        self._determinized = False
        # turn-based: the legal actions last computed (version, seat, actions), read unlocked
        self._hot: tuple[int, int, tuple[Action, ...]] = COLD
        self._logic_apply = self.logic.apply
        veto = ruleset.veto
        self._is_legal = legality(self.logic, veto)
        self._logic_legal = (
            self.logic.legal_actions if veto is None else vetoing(self.logic.legal_actions, veto)
        )
        self.to_act: tuple[int, ...] = state.to_act
        """The seats that may act: one in turn-based play, several in real time (Speed: one may have no legal action)."""
        self.is_over: bool = state.is_over
        """Whether the game has ended (by rule, resignation, the host, or a runner's cap)."""

    # -- reading --------------------------------------------------------------------------

    @property
    def events(self) -> EventBus:
        """The event bus: ``game.events.subscribe(EventType, handler, seat=...)``."""
        bus = self._bus
        if bus is UNASKED or bus is HUSHED:  # the first ask builds it (a hushed one: no plugin)
            with held(self):
                if self._bus is bus:
                    observers = () if bus is HUSHED else self.ruleset.observers
                    self._bus = EventBus(observers, len(self.players))
                bus = self._bus
        return bus

    @property
    def result(self) -> Result | None:
        """The :class:`~cardcore.Result` once the game is over, else ``None``."""
        return self._state.result

    @property
    def rules(self) -> tuple[str, ...]:
        """The names of the active house rules (defaults included), sorted by rule ID."""
        return self.ruleset.rule_names

    @property
    def state(self) -> GameState:
        """The full state. Privileged: it holds every hidden card; never give it to an agent."""
        return self._state

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Return the actions *seat* may take now, in the game's documented order.

        Empty for a seat that may not act. House-rule vetoes are already removed.
        A pure read.

        :raises SeatError: *seat* is not a seat of this game (CORE-SEAT-1).
        """
        hot = self._hot  # published whole by apply under the lock, so read without it
        if hot[1] is seat and hot[0] == self.version:
            return hot[2]
        lock = self._hot_lock  # None after single_thread()
        if lock is not None:
            lock.acquire(False) or wait_for(self, lock)  # not "with": __exit__ costs a call
        try:
            state = self._state
            if type(seat) is int and seat in state.to_act and not self._realtime:
                return publish_legal(self, seat)
            self._check_seat(seat, None)
            return self._legal_for(seat)
        finally:
            if lock is not None:
                lock.release()

    _legal_for = legal_for

    def view(self, seat: int | str | None = None) -> dict[str, Any]:
        """Return what *seat* may know, as JSON-ready data (``None`` or :data:`SPECTATOR`: a spectator).

        The envelope is the same for every game::

            {"format": "cardcore-view/2", "game": ..., "version": ..., "seat": ...,
             "players": [...], "to_act": [...], "is_over": ..., "result": ... or None,
             "rules": [...], "options": {...}, "legal": [notation, ...],
             "zones": [{"name", "owner", "visibility", "count", "cards"}, ...],
             "table": {...}}

        ``zones`` is every pile with the cards *seat* may see, top first (``None`` for a
        hidden card; ``Zones.cards`` lists them bottom to top); ``table`` holds the game's own fields, declared in
        :meth:`view_schema`. Past rounds come from :meth:`history`. A seat's
        view never holds a card that seat has not legitimately seen. A pure read:
        pass the view's ``version`` as ``seen=`` when acting on it.

        :raises SeatError: *seat* is not a seat of this game (CORE-SEAT-1).
        """
        lock = self._lock
        lock.acquire(False) or wait_for(self, lock)  # not "with": a view per decision
        try:
            if type(seat) is not int or not 0 <= seat < self._state.players:  # (no call: hot)
                seat = self._reader(seat)
            return make_view(self, seat)
        finally:
            lock.release()

    def view_schema(self) -> dict[str, Any]:
        """Return the declared structure of this game's views: zones and the table's fields
        (JSON-ready, the same for every game of a configuration: a client reads it once)."""
        return schema_of(self)

    def history(self, seat: int | str | None = None, since: int = 0) -> list[dict[str, Any]]:
        """Return the past rounds (or hands) from number *since* (from 0), as *seat* may see them
        (``None`` or :data:`SPECTATOR`: a spectator).

        JSON-ready, oldest first; kept apart from :meth:`view` so a view's cost stays flat.

        :raises SeatError: *seat* is not a seat of this game (CORE-SEAT-1).
        :raises IllegalActionError: *since* is not a round number from 0.
        """
        if not issubclass(type(since), int) or type(since) is bool or int.__index__(since) < 0:
            msg = f"history's since={shown(since)} is not a round number from 0"  # (its end no ID)
            raise IllegalActionError(msg, action=None)  # (no rule: an argument, not a seat)
        since = int.__index__(since)  # plain: a subclass could compare its own way
        with held(self):
            return make_history(self, self._reader(seat), since)

    # -- acting ---------------------------------------------------------------------------

    def apply(self, action: Action, *, at: Stamp | None = None, seen: int | None = None) -> None:
        """Apply *action* atomically, or raise and change nothing.

        Its events are delivered by this call, after the lock is released and
        before it returns (see :class:`~cardcore.EventBus`); a handler that
        raises never makes it fail.

        :param action: One of ``legal_actions(action.seat)`` (or :class:`~cardcore.Resign`,
            :class:`~cardcore.EndMatch`).
        :param at: The time the host or virtual clock stamps on it; recorded. A
            finite number of at most ``MAX_TIME`` (1e15) in size; in real time, never
            less than the time of the action before. Or a clock (``time.time``): read
            under the game's lock, so concurrent callers' times keep the order applied.
        :param seen: The version the player acted on (the ``version`` of the view
            it was shown). ``None`` judges the action against the current state
            only. In real time, an action that is illegal now but was legal at
            *seen* raises :class:`~cardcore.StaleActionError`; *seen* must lie
            within :data:`STALE_WINDOW` versions of now.
        :raises StaleActionError: Real time: legal at *seen*, not any more.
        :raises IllegalActionError: Never legal here: wrong seat, out of turn, or
            against a rule (the message ends with the rule ID); or a bad *at*
            (CORE-RECORD-1).
        :raises PluginError: A plugin failed inside a hook; the game is restored. (Or
            the game's ``scores`` failed as the action reached its bound, CORE-BOUND-1: the
            action stands, the game stays open, the error comes after its events.)
            A ``BaseException`` such as ``KeyboardInterrupt`` is re-raised as it
            is, also after the game is restored; one that arrives after the action
            is applied (while the next legal actions are computed) is re-raised
            after the action's events are delivered.
        """
        interrupt: BaseException | None = None
        lock = self._hot_lock  # None after single_thread()
        if lock is not None:
            lock.acquire(False) or wait_for(self, lock)  # not "with": __exit__ costs a call
        try:
            hot_v, hot_seat, hot_legal = self._hot
            if at is not None:
                at = check_at(self, at, action)
            legal: Action | None
            if hot_v == self.version and seen is None:
                for legal in hot_legal:  # identity first: legal actions are interned
                    if legal is action:
                        if action.seat is not hot_seat:  # the game listed another seat's:
                            legal = None  # refused, naming the game (CORE-TURN-1)
                        break
                else:
                    legal = None
            else:
                legal = None
            if legal is None:
                action = validate(self, action, seen)
                queued, interrupt = commit(self, action, at)
            else:  # the hot path: a legal action of the seat just asked
                state = self._state
                bus = self._bus
                batch: list[Event] | None = [] if bus.active else None
                self._hot = COLD  # a hook's call back to legal_actions finds the lock (refused)
                try:
                    self._logic_apply(
                        state,
                        action,
                        batch.append if batch is not None and bus.wants_game_events else None,
                    )
                    to_act = state.to_act
                    if to_act.__class__ is tuple and to_act and not state.is_over:
                        nxt = to_act[0]  # a bad seat, or more than one seat: checked whole
                        if nxt.__class__ is not int or (
                            len(to_act) != 1 or not 0 <= nxt < state.players
                        ):
                            check_turn(self.name, state, "apply")  # raised: restored
                    else:  # ended (its result checked), or not a tuple, or nobody acts next
                        check_turn(self.name, state, "apply")
                except BaseException as exc:
                    fault = turn_error(self.name, state) if isinstance(exc, TypeError) else None
                    restore(self)  # as it was before this apply, calling no hook
                    if not isinstance(exc, Exception):
                        raise
                    raise (err := fault or plugin_error(self, exc, "apply")) from cause(err, exc)
                if at is not None:
                    self._times[self.version] = self._last_at = at
                record = self._record
                record.append(action)
                if len(record) == CHUNK:
                    seal(self)
                version = self.version = self.version + 1
                self.to_act = to_act
                self.is_over = state.is_over
                if self._hooks.value is not self._mark or version >= self._next_base:
                    interrupt = checkpoint(self)  # a hook ran (identity: each mark is a new
                    state = self._state  # int), BASE_EVERY, or the bound: the game ends
                # publish the next seat's legal actions (an interrupt here: raised after delivery)
                if to_act and not self.is_over:
                    try:
                        self._hot = (version, nxt, self._logic_legal(state, nxt))
                    except Exception as exc:  # unpublished: legal_actions computes it again
                        try:
                            undo(self, exc)  # what the failing code changed (the action stands)
                        except PluginError as broken:
                            interrupt = broken
                    except BaseException as exc:  # an interrupt: the action stands; raised below
                        interrupt = exc
                        undo(self, exc)
                if batch is None:
                    queued = None
                elif bus.wants_applied and not state.is_over:  # numbered(), inlined
                    text = action._text
                    text = text if text is not None else str(action)
                    batch.insert(0, _new_event(ActionApplied, (action.seat, text, version, at)))
                    queued = (kept(bus._queued, bus._tickets, batch), batch)  # bus.ticket(batch)
                else:
                    queued = numbered(bus, batch, action, version, at, state)
        except (TypeError, AttributeError) as exc:  # legal actions published unchecked: not a
            # tuple, or not actions (an action's seat read above)
            fault = published_fault(self)
            if fault is None:
                raise
            raise fault from exc
        finally:
            if lock is not None:
                lock.release()
        if queued is not None:
            if interrupt is not None:  # raised after the delivery, never lost to a handler's
                deliver_kept(self._bus, queued, interrupt)
            self._bus.deliver(*queued)
        if interrupt is not None:
            raise interrupt

    def act(
        self, seat: int, text: str, *, at: Stamp | None = None, seen: int | None = None
    ) -> Action:
        """Apply the action written *text* for *seat* (its notation) and return it.

        ``"resign"`` resigns; ``"end"`` (seat :data:`~cardcore.HOST`, -1) ends the match.

        :raises NotationError: *text* is not an action of this game.
        :raises SeatError: *seat* is not a seat of this game (CORE-SEAT-1).
        :raises IllegalActionError: As for :meth:`apply`.
        """
        if type(text) is not str:
            if not issubclass(type(text), str):  # the real type, not a claim through __class__
                msg = f"action text must be a string, not {shown(text)} (CORE-NOTATION-1)"
                raise NotationError(msg)
            text = str.__str__(text)  # plain: a subclass could strip or compare its own way
        if len(text) > MAX_NOTATION:
            msg = f"action text too long ({len(text)} characters; at most {MAX_NOTATION}) (CORE-NOTATION-1)"
            raise NotationError(msg)
        if not text.isascii():  # "ſ".upper() is "S", "\u212a".lower() is "k": no look-alikes
            msg = f"action text must be ASCII, not {shown(text)} (CORE-NOTATION-1)"
            raise NotationError(msg)
        words = text.strip().lower()  # only the one-word "end" and "resign" matter here
        if words == "end":
            if type(seat) is not int or seat != HOST:
                msg = f"only the host (seat {HOST}) may end the match, not seat {shown(seat)} (CORE-END-1)"
                raise IllegalActionError(msg, action=text, rule_id="CORE-END-1")
            action: Action = EndMatch()
            self.apply(action, at=at, seen=seen)
            return action
        lock = self._lock
        lock.acquire(False) or wait_for(self, lock)  # parse, check and apply at once
        try:
            self._check_seat(seat, text)
            if at is not None:
                at = check_at(self, at, text)
            try:  # inline: a call per action costs replays more than the checks below
                action = (
                    Resign(seat)
                    if words == "resign"
                    else self.logic.parse_action(self._state, seat, text)
                )
            except BaseException as exc:
                parse_failed(self, exc, words)
            if not isinstance(action, Action):
                raise not_an_action(self.name, text, action)
            if action.seat != seat:
                msg = f"{text!r} was read as an action of seat {action.seat}, not {seat} (CORE-SEAT-1)"
                raise IllegalActionError(msg, action=text, rule_id="CORE-SEAT-1")
            action = validate(self, action, seen)
            queued, late = commit(self, action, at)
        finally:
            lock.release()
        if queued is not None:
            if late is not None:  # the game's scores failed at its bound: raised after delivery
                deliver_kept(self._bus, queued, late)
            self._bus.deliver(*queued)
        if late is not None:
            raise late
        return action

    def _reader(self, seat: int | str | None) -> int | None:
        """*seat* as a read takes it: ``None`` (or :data:`SPECTATOR`) a spectator, else a seat."""
        if seat is None or (type(seat) is str and seat == SPECTATOR):
            return None
        self._check_seat(seat, None, f"; None or {SPECTATOR!r} (SPECTATOR) reads as a spectator")
        return cast(int, seat)

    def _check_seat(self, seat: Any, text: Any, also: str = "") -> None:
        players = self._state.players
        if type(seat) is not int or not 0 <= seat < players:
            host = "; -1, the host, may only send 'end'" if type(seat) is int and seat == HOST and not also else also
            msg = f"no seat {shown(seat)} in a {players}-player game (seats are 0 to {players - 1}{host}) (CORE-SEAT-1)"
            raise SeatError(msg, action=text, rule_id="CORE-SEAT-1")

    def truncate(self) -> None:
        """End the game as ``"truncated"`` (runners call this at the game's action bound) and
        publish :class:`~cardcore.GameEnded`; recorded: replays and loads end the same way."""
        with held(self):
            queued = truncate(self)
        if queued is not None:  # delivered as an action's events are: after the lock
            self._bus.deliver(*queued)

    # -- copies, records ------------------------------------------------------------------

    def single_thread(self) -> Game:
        """Stop locking :meth:`legal_actions` and :meth:`apply` (and in clones); return the game.

        For a game never used from two threads at once: a simulation, an RL environment, a
        search agent's worlds (``simulate``, ``cardcore.rl`` and ISMCTS use it). It saves
        about a tenth of a decision's cost (see :doc:`performance`). Once called, using the
        game from two threads at once (or its ``apply`` or ``legal_actions`` from a hook it runs)
        is an error the game does not detect; every other guarantee stands.
        """
        self._hot_lock = None
        return self

    def clone(self) -> Game:
        """Return an independent copy, same state and record, heard by no subscriber or on_event."""
        lock = self._lock
        lock.acquire(False) or wait_for(self, lock)  # not "with": search agents clone per step
        try:
            return clone_game(self)
        finally:
            lock.release()

    def __copy__(self) -> Game:
        """``copy.copy`` and ``copy.deepcopy`` give :meth:`clone` (a search's copy of the game)."""
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.clone()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its :meth:`save`, read back by :func:`cardcore.load` (checked as any
        save is; subscribers are not kept)."""
        from cardcore.records import load

        return (load, (self.save(),))

    def determinize(self, seat: int, seed: int) -> Game:
        """Return a clone whose cards hidden from *seat* are re-dealt at random.

        Every card *seat* knows stays where it is; the others are shuffled among the places
        *seat* cannot see, so the clone is consistent with all that *seat* knows. For search
        agents. The hidden cards and every later chance event of the clone (shuffles, redeals)
        come from *seed* (an int; the logic's ``determinize`` gets a generator made from it),
        never from the game's own seed: the clone cannot foretell the real game. No faithful record.

        :raises SeatError: *seat* is not a seat of this game (CORE-SEAT-1).
        :raises OptionError: *seed* is not an int from 0 below ``2**128``.
        """
        self._check_seat(seat, None)
        return determinized(self.clone(), seat, seed)

    def record(self, *, key: bytes | str | None = None) -> dict[str, Any]:
        """Return the record: everything needed to replay this game (privileged: holds the seed).

        :param key: Sign it with HMAC-SHA256 under this secret (see
            :func:`cardcore.replay`'s ``key=``); the signature is the ``"signature"`` field.
        """
        if self._determinized:
            msg = "a determinized game has no faithful record"
            raise CardcoreError(msg)
        with held(self):
            out = make_record(self)
        return out if key is None else sign(out, key)

    def save(self, *, key: bytes | str | None = None) -> dict[str, Any]:
        """Return a saved game (record plus state snapshot) for :func:`cardcore.load`.

        :param key: Sign it with HMAC-SHA256 under this secret, so
            ``load(data, key=key)`` refuses a save that was changed or forged.
        """
        if self._determinized:
            msg = "a determinized game cannot be saved"
            raise CardcoreError(msg)
        with held(self):
            out = make_save(self)
        return out if key is None else sign(out, key)

    def position(self) -> str:
        """Return the current position in the game's position notation (privileged).

        Every card is placed, with who knows it; ``new_game(name, players,
        position=game.position())`` starts a game from here (its own seed for future chance).

        :raises CardcoreError: The game has no position notation.
        """
        with held(self):
            return self.logic.write_position(self._state)

    def record_entries(self) -> list[tuple[int, Action, float | None]]:
        """Return the applied actions as ``(seat, action, at)`` tuples, oldest first."""
        with held(self):
            times = recorded_times(self)
            return [(a.seat, a, times.get(i)) for i, a in enumerate(recorded(self))]

    def __repr__(self) -> str:
        return f"<Game {self.name} players={len(self.players)} version={self.version} over={self.is_over}>"
