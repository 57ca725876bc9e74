"""The game driver: :class:`Game` and :func:`new_game`.

A :class:`Game` owns one state, the cached configuration it plays under, its
event bus, its chance counter and its record. It checks every action before
anything changes (seat, turn, legality, staleness), applies it atomically under
a lock, records it, and publishes events after the lock is released.
"""

from __future__ import annotations

import secrets
import threading
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardcore.actions import HOST, Action, EndMatch, Resign
from cardcore.cards import Card, parse_cards
from cardcore.deck import derive_rng, shuffle
from cardcore.errors import (
    CardcoreError,
    IllegalActionError,
    NotationError,
    OptionError,
    PluginError,
    StaleActionError,
)
from cardcore.events import ActionApplied, Event, EventBus, GameEnded
from cardcore.logic import GameLogic
from cardcore.plugins import Ruleset, get_ruleset, plugin_from_traceback
from cardcore.state import GameState, Result

__all__ = ["VIEW_FORMAT", "Game", "new_game"]

VIEW_FORMAT = "cardcore-view/1"
"""The envelope format every :meth:`Game.view` carries under ``"format"``."""

HISTORY = 256
"""How many versions per seat a real-time game remembers the legal actions it showed that seat."""

MAX_NOTATION = 200
"""The longest action text :meth:`Game.act` reads."""


class Game:
    """One game in progress. Build it with :func:`new_game`, :func:`cardcore.replay` or :func:`cardcore.load`.

    Every method that changes the game is atomic and thread-safe; a rejected
    action raises a :class:`~cardcore.CardcoreError` subclass and changes
    nothing (state, version, events, record).
    """

    __slots__ = (
        "_deck_top",
        "_determinized",
        "_hot_legal",
        "_hot_seat",
        "_hot_v",
        "_last_seen",
        "_legal",
        "_legal_v",
        "_lock",
        "_logic_apply",
        "_logic_legal",
        "_realtime",
        "_record",
        "_record_shared",
        "_shown",
        "_state",
        "_times",
        "events",
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
    ) -> None:
        self.ruleset = ruleset
        """The configuration (game + rules) this game plays under."""
        self.logic: GameLogic = ruleset.logic
        self.name = ruleset.game.name
        """The game's name, as passed to :func:`new_game`."""
        self.players = players
        """The display names, one per seat (seats are numbered from 0)."""
        self.options = options
        """The resolved options (every declared option, defaults filled in)."""
        self.seed = seed
        """The seed of every chance event. Privileged: never send it to a player."""
        self.version = 0
        """The number of actions applied so far (+1 per action)."""
        self.events = EventBus(ruleset.observers)
        """The event bus: ``game.events.subscribe(EventType, handler, seat=...)``."""
        self._deck_top = deck_top
        self._state = state
        self._record: list[Action] = []
        self._times: dict[int, float] = {}
        self._record_shared = False  # copy-on-write after clone(): shared until the next append
        self._lock = threading.Lock()
        self._legal: dict[int, tuple[Action, ...]] = {}
        self._legal_v = -1
        self._last_seen: dict[int, int] = {}
        # real time: per seat, the legal actions it was shown at each version it asked
        self._shown: dict[int, dict[int, tuple[Action, ...]]] | None = (
            {} if ruleset.game.realtime else None
        )
        self._realtime = ruleset.game.realtime
        self._determinized = False
        # the legal actions last asked for (turn-based games): version, seat, actions
        self._hot_v = -1
        self._hot_seat = -1
        self._hot_legal: tuple[Action, ...] = ()
        self._logic_apply = self.logic.apply
        self._logic_legal = self.logic.legal_actions
        self.to_act: tuple[int, ...] = state.to_act
        """The seats that may act now: one in turn-based play, several in real time."""
        self.is_over: bool = state.is_over
        """Whether the game has ended (by rule, resignation, the host, or a runner's cap)."""

    # -- reading --------------------------------------------------------------------------

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

        Empty for a seat that may not act. Asking counts as having seen the
        current version (see ``seen`` in :meth:`apply`).
        """
        lock = self._lock
        lock.acquire()  # not "with": __exit__ costs a call per decision
        try:
            if self._realtime:
                return self._show(seat)
            version = self.version
            if self._hot_v == version and self._hot_seat == seat:
                return self._hot_legal
            state = self._state
            if state.is_over or seat not in state.to_act:
                legal: tuple[Action, ...] = ()
            else:
                try:
                    legal = self._logic_legal(state, seat)
                except CardcoreError:
                    raise
                except Exception as exc:
                    raise self._plugin_error(exc, "legal_actions") from exc
            self._hot_v = version
            self._hot_seat = seat
            self._hot_legal = legal
            return legal
        finally:
            lock.release()

    def _show(self, seat: int) -> tuple[Action, ...]:
        """Legal actions of *seat*, remembered as shown at this version (real time, under the lock)."""
        version = self.version
        self._last_seen[seat] = version
        legal = self._legal_for(seat)
        shown = self._shown
        if shown is not None:
            mine = shown.setdefault(seat, {})
            mine[version] = legal
            if len(mine) > HISTORY:
                del mine[next(iter(mine))]
        return legal

    def _legal_for(self, seat: int) -> tuple[Action, ...]:
        if self._legal_v != self.version:
            self._legal = {}
            self._legal_v = self.version
        got = self._legal.get(seat)
        if got is None:
            state = self._state
            if state.is_over or not 0 <= seat < state.players:
                got = ()
            else:
                try:
                    got = self.logic.legal_actions(state, seat)
                except CardcoreError:
                    raise
                except Exception as exc:
                    raise self._plugin_error(exc, "legal_actions") from exc
            self._legal[seat] = got
        return got

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Return what *seat* may know, as JSON-ready data (``None``: a spectator).

        The envelope is the same for every game::

            {"format": "cardcore-view/1", "game": ..., "version": ..., "seat": ...,
             "players": [...], "to_act": [...], "is_over": ..., "result": ... or None,
             "rules": [...], "options": {...}, "legal": [notation, ...], "table": {...}}

        ``table`` is the game's own part. A seat's view never holds a card that
        seat has not legitimately seen. Asking counts as having seen this version.
        """
        with self._lock:
            state = self._state
            if seat is not None:
                self._check_seat(seat, None)
                legal = [str(a) for a in self._show(seat)]
            else:
                legal = []
            return {
                "format": VIEW_FORMAT,
                "game": self.name,
                "version": self.version,
                "seat": seat,
                "players": list(self.players),
                "to_act": list(state.to_act),
                "is_over": state.is_over,
                "result": None if state.result is None else state.result.to_json(),
                "rules": list(self.rules),
                "options": dict(self.options),
                "legal": legal,
                "table": self.logic.table(state, seat),
            }

    # -- acting ---------------------------------------------------------------------------

    def apply(self, action: Action, *, at: float | None = None, seen: int | None = None) -> None:
        """Apply *action* atomically, or raise and change nothing.

        :param action: One of ``legal_actions(action.seat)`` (or :class:`~cardcore.Resign`,
            :class:`~cardcore.EndMatch`).
        :param at: The time the host or virtual clock stamps on it; recorded.
        :param seen: The version the player acted on; by default the version at
            which that seat last asked for its view or legal actions.
        :raises StaleActionError: Real time: legal at *seen*, not any more.
        :raises IllegalActionError: Never legal here: wrong seat, out of turn, or
            against a rule (the message ends with the rule ID).
        :raises PluginError: A plugin failed inside a hook; the game is restored.
        """
        lock = self._lock
        lock.acquire()  # not "with": __exit__ costs a call per decision
        try:
            if self._hot_v == self.version:
                for legal in self._hot_legal:  # identity first: legal actions are interned
                    if legal is action:
                        break
                else:
                    legal = None
            else:
                legal = None
            if legal is None:
                self._validate(action, seen)
                self._commit(action, at)
            elif self.events.active:
                self._commit(action, at)
            else:  # the hot path: a legal action of the seat just asked, nobody listening
                state = self._state
                try:
                    self._logic_apply(state, action, None)
                except Exception as exc:
                    self._restore()
                    raise self._plugin_error(exc, "apply") from exc
                if self._record_shared:
                    self._own_record()
                if at is not None:
                    self._times[len(self._record)] = at
                self._record.append(action)
                self.version += 1
                self.to_act = state.to_act
                self.is_over = state.is_over
        finally:
            lock.release()
        if self.events._queue:
            self.events.drain()

    def act(
        self, seat: int, text: str, *, at: float | None = None, seen: int | None = None
    ) -> Action:
        """Apply the action written *text* for *seat* (its notation) and return it.

        ``"resign"`` resigns; ``"end"`` (seat :data:`~cardcore.HOST`, -1) ends the match.

        :raises NotationError: *text* is not an action of this game.
        :raises IllegalActionError: As for :meth:`apply`.
        """
        if not isinstance(text, str):
            msg = f"action text must be a string, not {text!r} (CORE-NOTATION-1)"
            raise NotationError(msg)
        if len(text) > MAX_NOTATION:
            msg = f"action text too long ({len(text)} characters; at most {MAX_NOTATION}) (CORE-NOTATION-1)"
            raise NotationError(msg)
        words = " ".join(text.split()).lower()
        if words == "end":
            if seat != HOST:
                msg = (
                    f"only the host (seat {HOST}) may end the match, not seat {seat!r} (CORE-END-1)"
                )
                raise IllegalActionError(msg, action=text, rule_id="CORE-END-1")
            action: Action = EndMatch()
            self.apply(action, at=at, seen=seen)
            return action
        with self._lock:  # parse, check and apply in one critical section
            self._check_seat(seat, text)
            action = (
                Resign(seat)
                if words == "resign"
                else self.logic.parse_action(self._state, seat, text)
            )
            if action.seat != seat:
                msg = f"{text!r} was read as an action of seat {action.seat}, not {seat} (CORE-SEAT-1)"
                raise IllegalActionError(msg, action=text, rule_id="CORE-SEAT-1")
            self._validate(action, seen)
            self._commit(action, at)
        if self.events._queue:
            self.events.drain()
        return action

    def _check_seat(self, seat: Any, text: Any) -> None:
        players = self._state.players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            msg = f"no seat {seat!r} in a {players}-player game (seats are 0 to {players - 1}) (CORE-SEAT-1)"
            raise IllegalActionError(msg, action=text, rule_id="CORE-SEAT-1")

    def _validate(self, action: Action, seen: int | None) -> None:
        """Raise the documented error unless *action* may be applied now (changes nothing)."""
        if not isinstance(action, Action):
            msg = f"not an action: {action!r} (CORE-ACTION-1)"
            raise IllegalActionError(msg, action=action, rule_id="CORE-ACTION-1")
        state = self._state
        seat = action.seat
        if state.is_over:
            msg = f"the game is over; {str(action)!r} is not accepted (CORE-OVER-1)"
            raise IllegalActionError(msg, action=action, rule_id="CORE-OVER-1")
        kind = type(action)
        if kind is Resign or kind is EndMatch:
            if kind is Resign:
                self._check_seat(seat, action)
            elif seat != HOST:
                msg = (
                    f"only the host (seat {HOST}) may end the match, not seat {seat!r} (CORE-END-1)"
                )
                raise IllegalActionError(msg, action=action, rule_id="CORE-END-1")
        else:
            if self._hot_v == self.version and self._hot_seat == seat:
                legal = self._hot_legal
            else:
                legal = self._legal_for(seat)
            if action not in legal:
                self._reject(action, seen)

    def _commit(self, action: Action, at: float | None) -> None:
        """Apply a validated *action*, record it and queue its events (under the lock)."""
        state = self._state
        seat = action.seat
        kind = type(action)
        bus = self.events
        batch: list[Event] | None = [] if bus.active else None
        try:
            if kind is Resign:
                self.logic.resign(state, seat)
            elif kind is EndMatch:
                self.logic.end_match(state)
            else:
                emit = batch.append if batch is not None and bus.wants_game_events else None
                self.logic.apply(state, action, emit)
        except Exception as exc:
            self._restore()
            raise self._plugin_error(exc, "apply") from exc
        if self._record_shared:
            self._own_record()
        if at is not None:
            self._times[len(self._record)] = at
        self._record.append(action)
        self.version += 1
        self.to_act = state.to_act
        self.is_over = state.is_over
        if batch is not None:
            if bus.wants_applied:
                batch.insert(0, ActionApplied(seat, str(action), self.version, at))
            if state.is_over and state.result is not None and bus.wants_ended:
                r = state.result
                batch.append(GameEnded(r.winners, r.scores, r.payouts, r.reason))
            if batch:
                bus._queue.append(batch)

    def _own_record(self) -> None:
        """Stop sharing the record with a clone: copy it before the first append."""
        self._record = self._record[:]
        self._times = self._times.copy()
        self._record_shared = False

    def _reject(self, action: Action, seen: int | None) -> None:
        state = self._state
        seat = action.seat
        self._check_seat(seat, action)
        shown = self._shown
        if shown is not None:
            since = self._last_seen.get(seat) if seen is None else seen
            if since is not None and since < self.version:
                old = shown.get(seat, {}).get(since)
                if old is None and since >= 0:  # not asked at that version: rebuild it
                    old = self.logic.legal_actions(self._rebuild_state(since), seat)
                if old is not None and action in old:
                    msg = (
                        f"{str(action)!r} was legal at version {since} but another action came first"
                        f" (now version {self.version}) (CORE-RT-1)"
                    )
                    raise StaleActionError(msg, action=action, rule_id="CORE-RT-1")
        if seat not in state.to_act:
            msg = f"it is not seat {seat}'s turn: {str(action)!r} rejected (seats to act: {list(state.to_act)}) (CORE-TURN-1)"
            raise IllegalActionError(msg, action=action, rule_id="CORE-TURN-1")
        rule_id, reason = self.logic.rule_for(state, action)
        raise IllegalActionError(f"{reason} ({rule_id})", action=action, rule_id=rule_id)

    def _plugin_error(self, exc: Exception, where: str) -> CardcoreError:
        if isinstance(exc, CardcoreError) and not isinstance(
            exc, IllegalActionError | NotationError
        ):
            return exc
        plugin = plugin_from_traceback(self.ruleset, exc) or self.name
        msg = f"plugin {plugin!r} raised {type(exc).__name__} in {where}: {exc}"
        return PluginError(msg, plugin=plugin)

    def _restore(self) -> None:
        """Rebuild the state from the record after a failure inside ``apply``."""
        self._state = self._rebuild_state()
        self._legal_v = -1
        self._hot_v = -1
        self.to_act = self._state.to_act
        self.is_over = self._state.is_over

    def _rebuild_state(self, version: int | None = None) -> GameState:
        """Replay the record (up to *version* actions) from the deal into a fresh state."""
        state = _deal(self.ruleset, len(self.players), self.options, self.seed, self._deck_top)
        logic = self.logic
        for action in self._record if version is None else self._record[:version]:
            if type(action) is Resign:
                logic.resign(state, action.seat)
            elif type(action) is EndMatch:
                logic.end_match(state)
            else:
                logic.apply(state, action, None)
        return state

    def truncate(self) -> None:
        """End the game as ``"truncated"`` (runners call this at the game's action bound)."""
        with self._lock:
            state = self._state
            if state.is_over:
                return
            state.is_over = True
            state.to_act = ()
            state.result = Result(
                (), self.logic.scores(state), self.logic.payouts(state), "truncated"
            )
            self._legal_v = -1
            self._hot_v = -1
            self.to_act = ()
            self.is_over = True

    # -- copies, records ------------------------------------------------------------------

    def clone(self) -> Game:
        """Return an independent copy with the same state and record and no subscribers."""
        with self._lock:
            new = object.__new__(Game)
            new.ruleset = self.ruleset
            new.logic = self.logic
            new.name = self.name
            new.players = self.players
            new.options = self.options
            new.seed = self.seed
            new.version = self.version
            new.events = EventBus(self.ruleset.observers)
            new._deck_top = self._deck_top
            new._state = self._state.clone()
            new._record = self._record  # shared until either game appends (copy-on-write)
            new._times = self._times
            new._record_shared = self._record_shared = True
            new._lock = threading.Lock()
            new._legal = {}
            new._legal_v = -1
            new._last_seen = {}
            new._shown = None if self._shown is None else {}
            new._realtime = self._realtime
            new._determinized = self._determinized
            new._hot_v = -1
            new._hot_seat = -1
            new._hot_legal = ()
            new._logic_apply = self._logic_apply
            new._logic_legal = self._logic_legal
            new.to_act = new._state.to_act
            new.is_over = new._state.is_over
            return new

    def determinize(self, seat: int, seed: int) -> Game:
        """Return a clone whose cards hidden from *seat* are re-dealt at random.

        Every card *seat* knows stays where it is; the others are shuffled among
        the places *seat* cannot see, so the clone is consistent with all that
        *seat* knows. For search agents. The clone has no faithful record.
        """
        new = self.clone()
        self.ruleset.hook.determinize(state=new._state, seat=seat, rng=derive_rng(seed, 0))
        new._legal_v = -1
        new._determinized = True
        return new

    def record(self) -> dict[str, Any]:
        """Return the record: everything needed to replay this game (privileged: holds the seed)."""
        from cardcore.records import make_record

        if self._determinized:
            msg = "a determinized game has no faithful record"
            raise CardcoreError(msg)
        with self._lock:
            return make_record(self)

    def save(self) -> dict[str, Any]:
        """Return a saved game (record plus state snapshot) for :func:`cardcore.load`."""
        from cardcore.records import make_save

        if self._determinized:
            msg = "a determinized game cannot be saved"
            raise CardcoreError(msg)
        with self._lock:
            return make_save(self)

    def record_entries(self) -> list[tuple[int, Action, float | None]]:
        """Return the applied actions as ``(seat, action, at)`` tuples, oldest first."""
        with self._lock:
            times = self._times
            return [(a.seat, a, times.get(i)) for i, a in enumerate(self._record)]

    def __repr__(self) -> str:
        return f"<Game {self.name} players={len(self.players)} version={self.version} over={self.is_over}>"


def _deal(
    ruleset: Ruleset,
    players: int,
    options: Mapping[str, Any],
    seed: int,
    deck_top: tuple[Card, ...] | None,
) -> GameState:
    logic = ruleset.logic
    full = logic.deck(players, options)
    if deck_top is None:
        order = list(full)
        shuffle(order, derive_rng(seed, 0))
    else:
        rest = Counter(full)
        rest.subtract(deck_top)
        extra = [card for card, n in rest.items() if n < 0]
        if extra:
            msg = f"deck= holds cards the game does not use, or too many of them: {[str(c) for c in extra]!r}"
            raise OptionError(msg)
        remaining: list[Card] = []
        for card in full:
            if rest[card] > 0:
                rest[card] -= 1
                remaining.append(card)
        shuffle(remaining, derive_rng(seed, 0))
        order = [*deck_top, *remaining]
    order.reverse()  # bottom -> top: the first card of the deck is dealt first
    state = logic.new_state(players, options, order, seed)
    state.seed = seed
    if state.draws == 0:
        state.draws = 1
    return state


def new_game(
    name: str,
    players: int | Sequence[str],
    *,
    rules: Iterable[str] = (),
    without: Iterable[str] = (),
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    deck: str | Sequence[str | Card] | None = None,
) -> Game:
    """Start a game of *name*.

    >>> game = new_game("mygame", 2, seed=7)  # doctest: +SKIP

    :param name: An installed game (see :func:`cardcore.available_games`).
    :param players: A number of seats or their display names.
    :param rules: House rules to add (entry-point names such as ``"mygame.wild-twos"``, or rule IDs).
    :param without: Default rules to switch off.
    :param options: Parameters the game declares (layout, match length, stake ...).
    :param seed: The seed of every chance event; ``None`` draws one from the OS.
    :param deck: Cards to put on top of the deck, top first (``"5H 9C ..."``);
        the rest of the deck follows in a seeded shuffle. With a deck and no
        seed, the seed is 0.
    :raises UnknownPluginError: Unknown game or rule (the message lists what is installed).
    :raises RuleConflictError: Rules that cannot be combined.
    :raises OptionError: Bad options or player count.
    :raises NotationError: A card in *deck* that is not a card.
    """
    ruleset = get_ruleset(name, rules, without)
    if isinstance(players, int) and not isinstance(players, bool):
        if players < 1:
            msg = f"players must be at least 1, not {players!r} (CORE-SEAT-2)"
            raise OptionError(msg)
        names = tuple(f"Player {i + 1}" for i in range(players))
    elif (
        isinstance(players, Sequence)
        and not isinstance(players, str)
        and all(isinstance(p, str) for p in players)
    ):
        names = tuple(players)
    else:
        msg = f"players must be a count or a list of names, not {players!r}"
        raise OptionError(msg)
    resolved = ruleset.game.resolve_options(options)
    ruleset.logic.validate(len(names), resolved)
    if seed is None:
        seed = 0 if deck is not None else secrets.randbits(63)
    elif not isinstance(seed, int) or isinstance(seed, bool):
        msg = f"seed must be an int, not {seed!r}"
        raise OptionError(msg)
    deck_top = None if deck is None else parse_cards(deck)
    state = _deal(ruleset, len(names), resolved, seed, deck_top)
    return Game(ruleset, names, resolved, seed, deck_top, state)
