"""The event bus (:class:`cardcore.EventBus`), kept apart from :mod:`cardcore.events`.

Importing it from :mod:`cardcore.events` or :mod:`cardcore` is the public way.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections import deque
from collections.abc import Callable
from threading import get_ident
from time import monotonic
from typing import Any

from cardcore._subscriptions import DeliveryFailure, Observers, Subscription
from cardcore._text import shown
from cardcore.errors import ArgumentError, SeatError
from cardcore.events import SPECTATOR, ActionApplied, E, Event, GameEnded

__all__ = ["DeliveryFailure", "EventBus", "Observers", "Subscription"]


_LOG = logging.getLogger("cardcore.events")
STUCK = 1.0
"""Seconds the delivery turn may stand on a batch nobody delivers before waiters move on."""
_MOVED_ON = (
    "events: delivery moved on past batch %d, which nobody delivered for %.0f s (its thread"
    " was interrupted holding it, and its events are lost; or it is late, and delivers it"
    " out of order)"
)
_LOUD = frozenset(10**k for k in range(1, 10))  # failure counts logged again as a warning
_BUILDING = threading.Lock()
_NO_CONDITION = threading.Condition(threading.Lock())  # replaced before any batch is queued
# shared stand-ins until a bus builds its machinery (never changed: nothing is queued before)
_NOTHING_DEFERRED: dict[int, Any] = {}
_NO_ORPHANS: dict[int, list[Event]] = {}
_NO_TICKETS = itertools.count()


class EventBus:
    """Subscriptions of one game, delivered after each change in version order.

    ``game.events.subscribe(CardDiscarded, show)`` calls ``show(event)`` for every
    discard; ``subscribe(Event, log)`` receives every event;
    ``subscribe(CardDrawn, send, seat=2)`` delivers seat 2's redacted copies.
    Clones of a game start with no subscribers, and no plugin's ``on_event`` hears them.

    **When and where handlers run.** The events of an action are delivered by
    the thread whose call applied it (``act``/``apply``), after the game's lock
    is released and before that call returns, never by another caller's
    ``act``. Batches are delivered in version order: a thread whose action
    came second waits until the first action's events have been delivered.
    A handler may call ``apply`` on the same game: the events of that action
    are delivered by the same thread once the current batch is done. A handler
    must not block waiting for another thread that acts on the same game
    (that thread waits for the handler's batch to finish).

    **Failing handlers.** A handler's exception never reaches the caller that
    applied the action (the action *was* applied), and the rest of the batch
    still reaches every other handler. The failure is logged on the
    ``"cardcore.events"`` logger and handed to ``on_error`` (a callable taking a
    :class:`DeliveryFailure`), if set; a subscription made with
    ``drop_on_error=True`` is removed after its first failure. A
    plugin's ``on_event`` that raises is named in the log: its first failure in a
    game is logged (``ERROR``) with the traceback, later ones of that plugin in that
    game one line each at ``DEBUG``, with a ``WARNING`` at its 10th, 100th, ...
    failure and, when the game ends, one with the count (even a single failure). A
    ``BaseException`` that is not an ``Exception`` (``KeyboardInterrupt``)
    propagates from the call that delivered it, once every other handler has
    had the batch (and the batches this thread's handlers queued): it costs
    no other handler an event. An interrupt that reaches a thread while it waits
    for its batch's turn is raised at once; the batch (and those its handlers
    queued) is delivered in its turn by the next thread that delivers one (so not
    before another action is applied, if none was waiting). An interrupt that
    reaches a thread just before it delivers never leaves the others waiting for
    ever: once the turn has stood ``STUCK`` (one) second on a batch nobody
    delivers, they move on (logged as a warning; that batch's events are lost).

    :meth:`subscribe` and :meth:`unsubscribe` may be called from any thread, and
    from a handler.

    :param observers: The plugins' ``on_event`` implementations (plain callables).
    :param seats: The game's number of seats, so :meth:`subscribe` can refuse
        a seat that does not exist (``None``: any seat number from 0).
    :param on_error: Called with a :class:`DeliveryFailure` when a handler raises.
    :raises ArgumentError: For *observers* that are not a tuple of callables, *seats*
        that is not ``None`` or an int from 1, or an *on_error* that is not callable.
    """

    __slots__ = (
        "_cond",
        "_deferred",
        "_deliverer",
        "_failures",
        "_lookup",
        "_next",
        "_next_batch",
        "_observers",
        "_orphans",
        "_subs",
        "_tickets",
        "_waiters",
        "active",
        "on_error",
        "seats",
        "wants_applied",
        "wants_ended",
        "wants_game_events",
    )

    def __init__(
        self,
        observers: tuple[Callable[..., object], ...] = (),
        seats: int | None = None,
        on_error: Callable[[DeliveryFailure], object] | None = None,
    ) -> None:
        if not (isinstance(observers, tuple) and all(map(callable, observers))):
            raise ArgumentError(f"observers must be a tuple of callables, not {shown(observers)}")
        if not (seats is None or (type(seats) is int and seats >= 1)):
            raise ArgumentError(f"seats must be None or a number of seats, not {shown(seats)}")
        if not (on_error is None or callable(on_error)):
            raise ArgumentError(f"on_error must be callable or None, not {shown(on_error)}")
        self._subs: list[Subscription] = []
        self._lookup: dict[type[Event], tuple[Subscription, ...]] = {}
        self._observers = observers
        self._failures: dict[str | None, int] | None = None  # per plugin: on_event failures
        # the condition threads wait on is built on the first subscription (most games have none)
        self._cond = _NO_CONDITION
        self._deliverer = 0  # the thread delivering now (deliveries never overlap), 0: none
        # batches of actions a handler applied, per thread, delivered after the current batch;
        # batches an interrupted thread left, by ticket, for the next thread in line to deliver
        # (both built with the machinery)
        self._deferred: dict[int, deque[tuple[int, list[Event]]]] = _NOTHING_DEFERRED
        self._orphans: dict[int, list[Event]] = _NO_ORPHANS
        self._tickets = _NO_TICKETS
        self._next_batch = 0  # the ticket of the next batch to deliver
        self._waiters = 0
        self._next = 0
        self.seats = seats
        """The number of seats of the game (``None``: not checked)."""
        self.on_error = on_error
        """Called with a :class:`DeliveryFailure` when a handler raises (``None``: only logged)."""
        self.active = bool(observers)
        """Whether anything listens; games build events only when it is true."""
        self.wants_applied = self.active
        """Whether anything receives :class:`ActionApplied` (the game builds it only then)."""
        self.wants_ended = self.active
        """Whether anything receives :class:`GameEnded`."""
        self.wants_game_events = self.active
        """Whether anything receives the game's own events (so the game must build them)."""
        if observers:
            self._machinery()

    def subscribe(
        self,
        event_type: type[E],
        handler: Callable[[E], object],
        seat: int | str | None = None,
        *,
        drop_on_error: bool = False,
    ) -> Subscription:
        """Call *handler* with every event of *event_type* (or a subclass).

        :param event_type: The event class; :class:`Event` for all events.
        :param handler: Called with one event; its return value is ignored.
        :param seat: ``None`` for full events (the host), a seat number for that
            seat's redacted copies, :data:`SPECTATOR` for the public stream.
        :param drop_on_error: Remove the subscription the first time *handler* raises.
        :returns: A handle for :meth:`unsubscribe`.
        :raises ArgumentError: *event_type* is not an event class, or *handler* not callable.
        :raises SeatError: *seat* is none of the above (e.g. :data:`~cardcore.HOST`, a
            seat the game does not have, ``"1"``), refused now rather than when the
            first secret event is delivered (CORE-SEAT-1).
        """
        if not (isinstance(event_type, type) and issubclass(event_type, Event)):
            msg = f"can only subscribe to Event classes, not {shown(event_type)}"
            raise ArgumentError(msg)
        if not callable(handler):
            msg = f"an event handler must be callable, not {shown(handler)}"
            raise ArgumentError(msg)
        if not (seat is None or (type(seat) is str and seat == SPECTATOR)):
            seats = self.seats
            if type(seat) is not int or seat < 0 or (seats is not None and seat >= seats):
                known = "a seat number" if seats is None else f"0 to {seats - 1}"
                msg = (
                    f"subscribe takes seat=None (the full events), {SPECTATOR!r} or {known},"
                    f" not {shown(seat)} (CORE-SEAT-1)"
                )
                raise SeatError(msg, action=None, rule_id="CORE-SEAT-1")
        if self._cond is _NO_CONDITION:
            self._machinery()
        with self._cond:  # threads may subscribe and unsubscribe at once: none is lost
            self._next += 1
            sub = Subscription(event_type, handler, seat, self._next, bool(drop_on_error))
            self._subs = [*self._subs, sub]
            self._changed()
        return sub

    def unsubscribe(self, subscription: Subscription | Callable[..., object]) -> None:
        """Remove a subscription (or every subscription of a handler).

        From the moment it returns the handler receives nothing more, also from a
        batch being delivered (a handler may unsubscribe another, or itself): the
        removed :class:`Subscription`'s ``handler`` then reads as a function that
        does nothing. A subscription of another bus, or a handler never subscribed,
        removes nothing. A handler is matched by ``==``, so ``unsubscribe(log.append)``
        removes what ``subscribe(Event, log.append)`` made (each reading of a bound
        method is a new object, equal to the others).
        """
        subs = self._subs  # compared outside the lock: a handler's __eq__ may do anything
        if isinstance(subscription, Subscription):
            gone = [s for s in subs if s is subscription]
        else:
            gone = [s for s in subs if _same(s.handler, subscription)]
        if not gone:
            return
        with self._cond:
            self._subs = [s for s in self._subs if all(s is not g for g in gone)]
            for sub in gone:  # a batch being delivered holds it still: it now calls nothing
                object.__setattr__(sub, "handler", _removed)
            self._changed()

    def _changed(self) -> None:
        self._lookup = {}
        self.active = bool(self._subs) or bool(self._observers)
        self.wants_applied = self.wants(ActionApplied)
        self.wants_ended = self.wants(GameEnded)
        self.wants_game_events = bool(self._observers) or any(
            s.event_type not in (ActionApplied, GameEnded) for s in self._subs
        )

    def _for(self, event_type: type[Event]) -> tuple[Subscription, ...]:
        lookup = self._lookup
        subs = lookup.get(event_type)
        if subs is None:
            subs = tuple(s for s in self._subs if issubclass(event_type, s.event_type))
            lookup[event_type] = subs
        return subs

    def wants(self, event_type: type[Event]) -> bool:
        """Whether any subscriber or observer would receive an event of *event_type*.

        :raises ArgumentError: *event_type* is not a subclass of :class:`~cardcore.Event`.
        """
        if not (isinstance(event_type, type) and issubclass(event_type, Event)):
            raise ArgumentError(f"wants takes an Event class, not {shown(event_type)}")
        return bool(self._observers) or bool(self._for(event_type))

    def _machinery(self) -> None:
        with _BUILDING:
            if self._cond is _NO_CONDITION:
                self._deferred = {}
                self._orphans = {}
                self._tickets = itertools.count()
                self._cond = threading.Condition(threading.Lock())  # last: it says "built"

    def ticket(self) -> int:
        """Number the next batch (the game calls it under its lock, so in version order)."""
        return next(self._tickets)

    def deliver(self, ticket: int, batch: list[Event]) -> None:
        """Deliver *batch*, numbered *ticket*, in its turn, in the calling thread.

        The game calls it after releasing its lock. Inside a handler (a handler
        that applied an action) the batch is kept and delivered by the same
        thread right after the current one.
        """
        ident = get_ident()
        if self._deliverer == ident:
            self._deferred.setdefault(ident, deque()).append((ticket, batch))
            return
        if self._next_batch != ticket or self._observers:
            self._run(ident, ticket, batch)
            return
        # its turn already, no observer: deliver here (what _run and _deliver do, inlined)
        self._deliverer = ident
        stop: BaseException | None = None  # a handler's KeyboardInterrupt: after the batch
        try:
            for event in batch:
                subs = self._lookup.get(type(event))  # read per event: a handler may subscribe
                if subs is None:
                    subs = self._for(type(event))
                for sub in subs:
                    copy = event
                    try:
                        if sub.seat is not None:
                            copy = event.for_seat(sub.seat)
                        sub.handler(copy)
                    except Exception as exc:
                        stop = self._kept(stop, self._failed(sub, copy, exc))
                    except BaseException as exc:
                        stop = self._kept(stop, exc)
        except BaseException:
            self._deliverer = 0
            self._done(ticket)
            self._abandon(ident)
            raise
        self._deliverer = 0
        self._next_batch = ticket + 1
        if self._waiters:
            self._done(ticket)
        if self._deferred:
            mine = self._deferred.get(ident)
            if mine:
                ticket, batch = mine.popleft()
                try:
                    self._run(ident, ticket, batch)
                except BaseException as exc:
                    stop = self._kept(stop, exc)
        if stop is not None:
            raise stop

    def enqueue(self, events: list[Event]) -> None:
        """Queue one batch for the calling thread's next :meth:`drain` (numbered now)."""
        if self._cond is _NO_CONDITION:
            self._machinery()
        self._deferred.setdefault(get_ident(), deque()).append((next(self._tickets), events))

    def drain(self) -> None:
        """Deliver the calling thread's queued batches, each in its turn (version order)."""
        ident = get_ident()
        mine = self._deferred.get(ident)
        if not mine or self._deliverer == ident:
            return
        ticket, batch = mine.popleft()
        self._run(ident, ticket, batch)

    def _run(self, ident: int, ticket: int, batch: list[Event]) -> None:
        stop: BaseException | None = None  # a handler's KeyboardInterrupt: raised at the end
        pending = True  # batch *ticket* not delivered yet: left to the others if interrupted
        try:
            while True:
                if self._next_batch != ticket:
                    stop = self._kept(stop, self._wait_turn(ident, ticket))
                self._deliverer = ident
                took: list[bool] = []
                try:
                    got = self._deliver(batch, took)
                    took.append(True)
                    if got is not None:
                        stop = self._kept(stop, got)
                finally:
                    self._deliverer = 0
                    if took:  # handed to its handlers (else left to the others, below)
                        pending = False
                        self._done(ticket)
                if not self._deferred:
                    break
                mine = self._deferred.get(ident)
                if not mine:
                    break
                ticket, batch = mine.popleft()
                pending = True
        except BaseException:
            self._abandon(ident, (ticket, batch) if pending else None)
            raise
        if stop is not None:
            raise stop

    def _wait_turn(self, ident: int, ticket: int) -> BaseException | None:
        """Wait until batch *ticket* is next. A batch an interrupted thread left that comes
        first is delivered here, in its turn (see :meth:`_abandon`); returns the first
        ``BaseException`` its handlers raised. Interrupted before handing such a batch to
        its handlers, this thread leaves it again; after, it hands the turn on."""
        stop: BaseException | None = None
        while True:
            nxt = -1
            left: list[Event] | None = None
            took: list[bool] = []
            try:
                with self._cond:
                    self._waiters += 1
                    try:
                        stuck = (-1, 0.0)  # the turn nobody delivers, and since when
                        while (nxt := self._next_batch) < ticket:  # (past it: delivered late)
                            left = self._orphans.get(nxt)
                            if left is not None:
                                del self._orphans[nxt]  # taken up: put back if interrupted
                                break
                            self._cond.wait(0.5)  # woken by _done; the timeout: a safety net
                            if self._deliverer or self._next_batch != nxt:
                                stuck = (-1, 0.0)
                            elif stuck[0] != nxt:
                                stuck = (nxt, monotonic())
                            elif monotonic() - stuck[1] >= STUCK and nxt not in self._orphans:
                                self._next_batch = nxt + 1  # never wait forever for a lost batch
                                self._cond.notify_all()
                                _LOG.warning(_MOVED_ON, nxt, STUCK)
                        else:
                            return stop
                    finally:
                        self._waiters -= 1
                self._deliverer = ident
                stop = self._kept(stop, self._deliver(left, took))
                took.append(True)
            finally:
                if left is not None:
                    self._deliverer = 0
                    if took:  # handed to its handlers: the turn moves on
                        self._done(nxt)
                    else:
                        with self._cond:
                            self._orphans[nxt] = left
                            self._cond.notify_all()

    def _done(self, ticket: int) -> None:
        """Batch *ticket* is delivered: the next one's turn (never set back: a waiter that woke
        on its own may have delivered the next already)."""
        if self._next_batch == ticket:  # only the deliverer of *ticket* moves the turn on from it
            self._next_batch = ticket + 1
        if not self._waiters:
            return  # nobody waits (a waiter counts itself before it reads _next_batch)
        with self._cond:
            self._next_batch = max(ticket + 1, self._next_batch)
            self._cond.notify_all()

    def _abandon(self, ident: int, current: tuple[int, list[Event]] | None = None) -> None:
        """This thread stops delivering (an interrupt): its undelivered batches, *current* and
        those its handlers queued, are left for the next thread in line to deliver in their
        turn, so no other thread waits for them forever and no subscriber misses them."""
        with self._cond:
            mine = self._deferred.pop(ident, None)
            orphans = self._orphans
            if orphans is _NO_ORPHANS:  # (never: a batch is only queued once it is built)
                orphans = self._orphans = {}
            if current is not None:
                orphans[current[0]] = current[1]
            for t, b in mine or ():
                orphans[t] = b
            self._cond.notify_all()

    def _deliver(self, batch: list[Event], took: list[bool] | None = None) -> BaseException | None:
        """Hand *batch* to every observer and handler; return the first ``BaseException``
        one raised (``KeyboardInterrupt``), for the caller to raise once every other
        handler has had the batch. *took* gets an entry as the first handler is called: an
        interrupt before that leaves the batch undelivered, to be left again."""
        observers = self._observers
        stop: BaseException | None = None
        for event in batch:
            if took is not None:
                took.append(True)
                took = None
            kind = type(event)
            subs = self._lookup.get(kind)
            if subs is None:
                subs = self._for(kind)
            for observe in observers:
                try:
                    observe(event=event)
                except Exception as exc:
                    stop = self._kept(stop, self._observer_failed(observe, event, exc))
                except BaseException as exc:
                    stop = self._kept(stop, exc)
            if kind is GameEnded and self._failures:
                self._sum_up()
            for sub in subs:
                copy = event
                try:
                    if sub.seat is not None:
                        copy = event.for_seat(sub.seat)
                    sub.handler(copy)
                except Exception as exc:
                    stop = self._kept(stop, self._failed(sub, copy, exc))
                except BaseException as exc:
                    stop = self._kept(stop, exc)
        return stop

    @staticmethod
    def _kept(stop: BaseException | None, exc: BaseException | None) -> BaseException | None:
        """The first ``BaseException`` of a delivery, raised at its end; a later one is
        logged, not lost."""
        if stop is None:
            return exc
        if exc is not None and exc is not stop:
            _LOG.error(
                "%s during the same delivery was not raised", type(exc).__name__, exc_info=exc
            )
        return stop

    def _failed(
        self, sub: Subscription | None, event: Event, exc: Exception
    ) -> BaseException | None:
        """Report a handler's failure (logging and ``on_error``); drop it if it asked so.

        :returns: A ``BaseException`` the ``on_error`` callback raised, for after the batch.
        """
        dropped = sub is not None and sub.drop_on_error
        if dropped and sub is not None:
            self.unsubscribe(sub)
        who = "a plugin's on_event" if sub is None else f"handler {shown(sub.handler, 120)}"
        _LOG.error(
            "%s raised %s on %s%s",
            who,
            type(exc).__name__,
            event.slug,
            " (subscription dropped)" if dropped else "",
            exc_info=exc,
        )
        return self._tell(DeliveryFailure(event, exc, sub, dropped))

    def _observer_failed(
        self, observe: Callable[..., object], event: Event, exc: Exception
    ) -> BaseException | None:
        """Report a plugin's ``on_event`` failure: the first of each plugin in this game
        with its traceback, later ones briefly (see the class docstring)."""
        observers = self._observers
        plugin = observers.name_of(observe) if isinstance(observers, Observers) else None
        failures = self._failures
        if failures is None:
            failures = self._failures = {}
        count = failures[plugin] = failures.get(plugin, 0) + 1
        who = "a plugin" if plugin is None else f"plugin {plugin!r}"
        what = f"{type(exc).__name__} on {event.slug}: {_text(exc)}"
        if count == 1:
            _LOG.error(
                "%s: on_event raised %s (the game goes on; this plugin's later failures"
                " in this game are logged without a traceback)",
                who,
                what,
                exc_info=exc,
            )
        elif count in _LOUD:
            _LOG.warning("%s: on_event has raised %d times in this game, now %s", who, count, what)
        else:
            _LOG.debug("%s: on_event raised again (%d in this game): %s", who, count, what)
        return self._tell(DeliveryFailure(event, exc, None, plugin=plugin))

    def _sum_up(self) -> None:
        """At the end of the game: how often each failing plugin's ``on_event`` raised."""
        failures, self._failures = self._failures or {}, None
        for plugin, count in failures.items():
            who = "a plugin" if plugin is None else f"plugin {plugin!r}"
            if count == 1:
                _LOG.warning("%s: on_event raised once in this game", who)
            else:
                _LOG.warning("%s: on_event raised %d times in this game", who, count)

    def _tell(self, failure: DeliveryFailure) -> BaseException | None:
        """Hand *failure* to ``on_error``; return a ``BaseException`` it raised."""
        callback = self.on_error
        if callback is not None:
            try:
                callback(failure)
            except Exception:
                _LOG.exception("the event bus's on_error callback raised")
            except BaseException as stop:
                return stop
        return None


def _text(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:
        text = "?"
    return text if len(text) <= 200 else text[:197] + "..."


def _same(handler: Callable[..., object], other: object) -> bool:
    """Whether *handler* is *other*, or equal to it (a bound method read again); a failing
    comparison is no match."""
    if handler is other:
        return True
    try:
        return bool(handler == other)
    except Exception:
        return False


def _removed(event: Event) -> None:
    """The handler of a removed subscription, for the rest of a batch being delivered."""
