"""The event bus (:class:`cardcore.EventBus`), kept apart from :mod:`cardcore.events`.

Importing it from :mod:`cardcore.events` or :mod:`cardcore` is the public way.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable
from threading import get_ident
from time import monotonic

from cardcore._subscriptions import (
    DeliveryFailure,
    Observers,
    Subscription,
    error_text,
    kept,
    removed,
    same_handler,
)
from cardcore._text import one_line, shown
from cardcore.errors import ArgumentError, SeatError
from cardcore.events import SPECTATOR, ActionApplied, E, Event, GameEnded, GameStarted

__all__ = ["DeliveryFailure", "EventBus", "Observers", "Subscription"]


_LOG = logging.getLogger("cardcore.events")
STUCK = 1.0
"""Seconds the delivery turn may stand on a batch nobody delivers before waiters move on."""
_MOVED_ON = (
    "events: delivery moved on past batch %d, which was numbered but never kept (its thread"
    " was interrupted numbering it) and nobody delivered for %.0f s: its events are lost"
)
_LATE = (
    "events: batch %d stood %.0f s in its turn with nobody delivering it (its thread was"
    " interrupted before it delivered, or stands still): this thread delivers it"
)
_LOUD = frozenset(10**k for k in range(1, 10))  # failure counts logged again as a warning
_BUILDING = threading.Lock()
_NO_CONDITION = threading.Condition(threading.Lock())  # replaced before any batch is queued
# shared stand-ins until a bus builds its machinery (never changed: nothing is queued before)
_NOTHING_QUEUED: dict[int, tuple[int, list[Event]]] = {}
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
    reaches a thread after its batch is numbered (at the end of the game's locked
    step) but before it delivers loses no event either: the batch is kept from
    that moment, and once its turn has stood ``STUCK`` (one) second with nobody
    delivering it, the next thread in line delivers it, in its turn (logged as a
    warning); the interrupted thread's next call delivers it at once. So a batch
    is delivered by another caller's thread only after an interrupt (or a stall
    of a second). One interrupt that hits the bus's own code between two handlers
    of a batch being delivered still ends that batch there.

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
        "_deliverer",
        "_failures",
        "_lookup",
        "_next",
        "_next_batch",
        "_observers",
        "_orphans",
        "_queued",
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
        # batches numbered and not yet taken up, by ticket: (the thread that applied it, events);
        # batches an interrupted thread left, by ticket, for the next thread in line to deliver
        # (both built with the machinery)
        self._queued: dict[int, tuple[int, list[Event]]] = _NOTHING_QUEUED
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
        """Whether anything may get the game's own events (an observer; a subscription but to the core's three)."""
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
        :returns: A handle for :meth:`unsubscribe`. Subscribed from a handler, it is called
            from the next event of the batch being delivered on (not the events before,
            nor the one being handled), then with every later batch.
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
        if isinstance(seat, str) and str.__eq__(seat, SPECTATOR):
            seat = SPECTATOR  # plain (a str subclass compares its own way)
        elif seat is not None:
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
            gone = [s for s in subs if same_handler(s.handler, subscription)]
        if not gone:
            return
        with self._cond:
            self._subs = [s for s in self._subs if all(s is not g for g in gone)]
            for sub in gone:  # a batch being delivered holds it still: it now calls nothing
                object.__setattr__(sub, "handler", removed)
            self._changed()

    def _changed(self) -> None:
        self._lookup = {}
        self.active = bool(self._subs) or bool(self._observers)
        self.wants_applied = self.wants(ActionApplied)
        self.wants_ended = self.wants(GameEnded)
        self.wants_game_events = bool(self._observers) or any(
            s.event_type not in (GameStarted, ActionApplied, GameEnded) for s in self._subs
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
                self._queued = {}
                self._orphans = {}
                self._tickets = itertools.count()
                self._cond = threading.Condition(threading.Lock())  # last: it says "built"

    def ticket(self, batch: list[Event] | None = None) -> int:
        """Number *batch* and keep it until it is delivered (the game calls it under its lock,
        so in version order): from here on an interrupted thread loses none of its events.
        Without *batch* (as before 0.4) the one given to :meth:`deliver` is delivered."""
        if self._cond is _NO_CONDITION:
            self._machinery()
        return kept(self._queued, self._tickets, [] if batch is None else batch)

    def deliver(self, ticket: int, batch: list[Event]) -> None:
        """Deliver batch *ticket* (numbered by :meth:`ticket`) in its turn, in the calling thread.

        The game calls it after releasing its lock. Inside a handler (a handler
        that applied an action) the batch is kept and delivered by the same
        thread right after the current one.
        """
        ident = get_ident()
        if self._deliverer == ident:
            return  # a handler applied it: this thread delivers it after the current batch
        if self._next_batch != ticket or self._observers:
            entry = self._queued.get(ticket)
            if entry is not None and entry[1] is not batch:  # numbered by ticket() alone
                self._queued[ticket] = (entry[0], batch)
            self._run(ident)
            return
        # its turn already, no observer: deliver here (what _run and _deliver do, inlined)
        queued = self._queued
        stop: BaseException | None = None  # a handler's KeyboardInterrupt: after the batch
        took = False  # handed to a handler yet (else, if interrupted, left to the others)
        try:
            try:
                del queued[ticket]  # taken up (a waiter may take it after STUCK: one wins)
            except KeyError:
                return  # a waiter took it up (this thread stood still for STUCK seconds)
            self._deliverer = ident
            for event in batch:
                took = True
                subs = self._lookup.get(type(event))  # read per event: a handler may subscribe
                if subs is None:
                    subs = self._for(type(event))
                for sub in subs:
                    copy = event
                    handler = sub.handler  # read first: one may unsubscribe itself, then raise
                    try:
                        if sub.seat is not None:
                            copy = event.for_seat(sub.seat)
                            handler = sub.handler  # again: unsubscribed while its copy was redacted
                        handler(copy)
                    except Exception as exc:
                        stop = self._kept(stop, self._failed(sub, copy, exc, handler))
                    except BaseException as exc:
                        stop = self._kept(stop, exc)
        except BaseException:
            # interrupted: no call before the batch is handed on (a second interrupt lands
            # only at a call); then the batches this thread's handlers queued are left too
            if took:
                self._deliverer = 0
                if self._next_batch == ticket:
                    self._next_batch = ticket + 1
            elif self._deliverer == ident or (
                not self._deliverer
                and self._next_batch == ticket
                and ticket not in queued
                and ticket not in self._orphans
            ):  # taken up (popped), not handed to a handler: left to the others
                self._deliverer = 0
                self._orphans[ticket] = batch
            self._abandon(ident)
            raise
        self._deliverer = 0
        self._next_batch = ticket + 1
        if self._waiters:
            self._done(ticket)
        # batches its handlers applied (or other threads'): this thread delivers its own
        if queued:
            try:
                self._run(ident)
            except BaseException as exc:
                stop = self._kept(stop, exc)
                self._abandon(ident)  # (interrupted: what is left of its own, to the others)
        if stop is not None:
            raise stop

    def enqueue(self, events: list[Event]) -> None:
        """Queue one batch for the calling thread's next :meth:`drain` (numbered now)."""
        self.ticket(events)

    def drain(self) -> None:
        """Deliver the calling thread's queued batches, each in its turn (version order)."""
        ident = get_ident()
        if self._deliverer != ident and self._queued:
            self._run(ident)

    def _run(self, ident: int) -> None:
        """Deliver, each in its turn, this thread's batches: its own and those its handlers
        queued (and, as their turn comes, batches an interrupted thread left)."""
        stop: BaseException | None = None  # a handler's KeyboardInterrupt: raised at the end
        while True:
            claim: list[tuple[int, list[Event]]] = []  # the batch this thread takes up
            took: list[bool] = []
            try:
                if not self._wait_turn(ident, claim):
                    break
                ticket, batch = claim[0]
                got = self._deliver(batch, took)
                took.append(True)
            except BaseException:
                # interrupted: no call before the batch taken up is handed on (as in deliver)
                if claim:
                    ticket, batch = claim[0]
                    if self._deliverer == ident or (
                        not self._deliverer  # (interrupted as it popped the batch)
                        and self._next_batch == ticket
                        and ticket not in self._queued
                        and ticket not in self._orphans
                    ):
                        self._deliverer = 0
                        if took:  # handed to a handler: delivered, the turn moves on
                            if self._next_batch == ticket:
                                self._next_batch = ticket + 1
                        else:  # left again, for the next thread in line
                            self._orphans[ticket] = batch
                self._abandon(ident)
                raise
            self._deliverer = 0
            self._next_batch = ticket + 1  # (here, not in _done: an interrupt entering it)
            if self._waiters:
                self._done(ticket)
            if got is not None:
                stop = self._kept(stop, got)
        if stop is not None:
            raise stop

    def _wait_turn(self, ident: int, claim: list[tuple[int, list[Event]]]) -> bool:
        """Wait until one of this thread's batches, or a left one, is next; take it up (into
        *claim*, this thread the deliverer) and return ``True``. ``False``: nothing of this
        thread's is waiting any more (a left batch waits for a thread that delivers one).
        A batch whose turn has stood ``STUCK`` seconds with nobody delivering it is taken up
        too: its thread was interrupted, or stands still."""
        with self._cond:
            self._waiters += 1
            try:
                stuck = (-1, 0.0)  # the turn nobody delivers, and since when
                late = -1  # the turn to take up whoever holds it
                while not claim:  # (one way out of the lock: every exit releases it)
                    # a copy (taken at once, in C): other threads number and take batches
                    if not any(owner == ident for owner, _ in self._queued.copy().values()):
                        break
                    nxt = self._next_batch
                    if not self._deliverer:
                        left = self._orphans.get(nxt)
                        if left is not None:
                            claim.append((nxt, left))
                            self._deliverer = ident
                            del self._orphans[nxt]
                            continue
                        entry = self._queued.get(nxt)
                        if entry is not None and (entry[0] == ident or nxt == late):
                            claim.append((nxt, entry[1]))
                            # popped (not deleted): deliver's fast path may take it at once
                            if self._queued.pop(nxt, None) is None:
                                claim.clear()
                                continue
                            self._deliverer = ident
                            continue
                    self._cond.wait(0.5)  # woken by _done; the timeout: a safety net
                    if self._deliverer or self._next_batch != nxt:
                        stuck = (-1, 0.0)
                    elif stuck[0] != nxt:
                        stuck = (nxt, monotonic())
                    elif monotonic() - stuck[1] >= STUCK:
                        if nxt in self._queued:
                            late = nxt  # delivered late, in its turn: not lost
                            _LOG.warning(_LATE, nxt, STUCK)
                        elif nxt not in self._orphans:
                            self._next_batch = nxt + 1  # never wait forever for a lost batch
                            self._cond.notify_all()
                            _LOG.warning(_MOVED_ON, nxt, STUCK)
            finally:
                self._waiters -= 1
        return bool(claim)

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

    def _abandon(self, ident: int) -> None:
        """This thread stops delivering (an interrupt): the batches it holds (its own, those
        its handlers queued) are left for the next thread in line to deliver in their turn,
        so no other thread waits for them and no subscriber misses them. (Interrupted here
        too, they stay this thread's: the others take them up after ``STUCK`` seconds.)"""
        with self._cond:
            queued = self._queued
            for ticket, (owner, batch) in queued.copy().items():
                if owner == ident:
                    self._orphans[ticket] = batch  # left first, then taken out: never neither
                    queued.pop(ticket, None)
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
                handler = sub.handler  # read first: one may unsubscribe itself, then raise
                try:
                    if sub.seat is not None:
                        copy = event.for_seat(sub.seat)
                        handler = sub.handler  # again: unsubscribed while its copy was redacted
                    handler(copy)
                except Exception as exc:
                    stop = self._kept(stop, self._failed(sub, copy, exc, handler))
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
        self, sub: Subscription, event: Event, exc: Exception, handler: Callable[[Event], object]
    ) -> BaseException | None:
        """Report a handler's failure (logging and ``on_error``); drop it if it asked so.

        :param handler: The handler called (read before the call: unsubscribing sets another).
        :returns: A ``BaseException`` the ``on_error`` callback raised, for after the batch.
        """
        dropped = sub.drop_on_error
        if dropped:
            self.unsubscribe(sub)
        _LOG.error(
            "handler %s raised %s on %s%s",
            shown(handler, 120),
            type(exc).__name__,
            event.slug,
            " (subscription dropped)" if dropped else "",
            exc_info=exc,
        )
        return self._tell(DeliveryFailure(event, exc, sub, dropped, handler=handler))

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
        what = f"{type(exc).__name__} on {event.slug}: {one_line(error_text(exc))}"  # one line
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
