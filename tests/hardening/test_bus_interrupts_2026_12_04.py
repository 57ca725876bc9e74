"""The event bus's delivery machinery under interrupts and threads (review of 4 December 2026).

``EventBus`` (src/cardcore/_bus.py) numbers each action's batch under the game's lock and
delivers it after the lock, in ticket order. Its docstring promises: an interrupt
(``KeyboardInterrupt``, a signal handler raising) reaching a thread while it waits for its
turn is raised at once and its batch is left to the next thread that delivers; a handler's
``BaseException`` costs no other handler an event. These tests inject an interrupt (a
``BaseException`` subclass) into one thread with ``sys.settrace`` at a chosen function entry of
``_bus.py``: a function's entry (``RESUME``) and the return of a call are where CPython runs a
pending signal's handler, so each point is one a real ``KeyboardInterrupt`` can hit.

The tests that were ``xfail(strict=True)`` findings (after an interrupt at such a point the
turn stayed on a batch nobody held; later, the others moved on without it and its events
were lost) pass since 2026-12-11: the bus keeps a batch from the moment it is numbered. Each
test joins with a timeout and then unsticks the bus (private attributes, only to clean up
after a failure), so it finishes in a few seconds either way.
"""

from __future__ import annotations

import contextlib
import ctypes
import linecache
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import cardcore
from cardcore import ActionApplied, Event

# seconds an act may take before the test calls it a hang: a turn stuck on a lost batch moves
# on after the bus's STUCK (1 s), seen about 1.5 s on; 2 s was too close on a loaded machine
HANG = 5.0
JOIN = 10.0


class _Stop(BaseException):
    """An interrupt, as KeyboardInterrupt (raised here by a trace function, at a known point)."""


def _raise_on_call(name: str, nth: int = 1) -> Callable[..., Any]:
    """A trace function raising _Stop as EventBus.<name> is entered for the *nth* time in
    this thread (a pending signal's handler runs at a function's first instruction)."""
    seen = [0]

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if (
            event == "call"
            and frame.f_code.co_name == name
            and frame.f_code.co_filename.endswith("_bus.py")
        ):
            seen[0] += 1
            if seen[0] == nth:
                sys.settrace(None)
                raise _Stop
        return None

    return tracer


def _raise_at_line(function: str, text: str, module: str = "_bus.py") -> Callable[..., Any]:
    """A trace function raising _Stop before the first line of <function> (in *module*) whose
    source is *text*: a signal's handler runs there when the line before ends with a call
    (CPython checks for pending signals as a call returns)."""

    def local(frame: Any, event: str, arg: Any) -> Any:
        if (
            event == "line"
            and linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip() == text
        ):
            sys.settrace(None)
            raise _Stop
        return local

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        code = frame.f_code
        if code.co_name == function and code.co_filename.endswith(module):
            return local
        return None

    return tracer


def _in_thread(fn: Callable[[], Any], tracer: Callable[..., Any] | None = None) -> threading.Thread:
    """Run *fn* in a daemon thread (under *tracer*, this thread only); _Stop is expected."""

    def target() -> None:
        if tracer is not None:
            sys.settrace(tracer)
        try:
            fn()
        except _Stop:
            pass
        finally:
            sys.settrace(None)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


def _unstick(bus: cardcore.EventBus, thread: threading.Thread) -> None:
    """Let a thread stuck waiting for its turn go: give the turn to the ticket it waits for
    (private attributes: only to clean up after a finding)."""
    for _ in range(40):
        if not thread.is_alive():
            return
        mine = [t for t, (owner, _) in bus._queued.copy().items() if owner == thread.ident]
        if mine:
            with bus._cond:
                bus._next_batch = min(mine)
                bus._cond.notify_all()
        thread.join(0.3)


def _hangs(game: cardcore.Game, seat: int, text: str) -> bool:
    """Act in a new thread; whether it failed to return within HANG seconds (then unstuck)."""
    thread = _in_thread(lambda: game.act(seat, text))
    thread.join(HANG)
    hung = thread.is_alive()
    if hung:
        _unstick(game.events, thread)
    assert not thread.is_alive()
    return hung


def _waiting(thread: threading.Thread) -> bool:
    """Whether *thread* is blocked in EventBus._wait_turn (read from its stack)."""
    frame = sys._current_frames().get(thread.ident or -1)
    names = []
    while frame is not None:
        names.append(frame.f_code.co_name)
        frame = frame.f_back
    return "_wait_turn" in names and "wait" in names


def _interrupt(thread: threading.Thread) -> None:
    """Raise _Stop in *thread* at its next check for pending work (as a signal would)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread.ident or 0), ctypes.py_object(_Stop)
    )


def _wait_until(check: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + JOIN
    while not check() and time.monotonic() < deadline:
        time.sleep(0.0005)
    return check()


def _recorder(game: cardcore.Game) -> list[int]:
    got: list[int] = []
    game.events.subscribe(ActionApplied, lambda e: got.append(e.version))
    return got


# --- findings --------------------------------------------------------------------------------


def test_an_interrupt_entering_deliver_hangs_no_later_act() -> None:
    """act numbers its batch under the lock, releases it, then calls ``bus.deliver``; a
    KeyboardInterrupt arriving there (at deliver's first instruction) propagates with ticket 0
    in nobody's hands and not in ``_orphans``. The next act, from any thread, waits for turn 0
    forever and no subscriber ever hears of version 1."""
    game = cardcore.new_game("golf", 2, seed=7)
    got = _recorder(game)
    first = _in_thread(lambda: game.act(0, "flip 0"), _raise_on_call("deliver"))
    first.join(JOIN)
    assert not first.is_alive() and game.version == 1  # the action stands
    assert not _hangs(game, 0, "flip 1"), "the next act never returned"
    assert got == [1, 2]


def test_an_interrupt_between_act_releasing_the_lock_and_deliver_hangs_no_later_act() -> None:
    """The same window one step earlier, in game.py: the ticket is taken under the game's
    lock and the batch handed to ``bus.deliver`` only after ``lock.release()`` returns (where
    CPython runs a pending signal's handler). Fixing ``deliver`` alone does not close it: the
    batch is the bus's from the moment it is numbered."""
    game = cardcore.new_game("golf", 2, seed=7)
    got = _recorder(game)
    interrupt = _raise_at_line("act", "if queued is not None:", "game.py")
    first = _in_thread(lambda: game.act(0, "flip 0"), interrupt)
    first.join(JOIN)
    assert not first.is_alive() and game.version == 1
    assert got == []
    assert not _hangs(game, 0, "flip 1"), "the next act never returned"
    assert got == [1, 2]


def test_an_interrupt_as_run_hands_the_turn_on_hangs_no_later_act() -> None:
    """A handler acts on version 1, so its thread delivers version 2 through ``_run``; an
    interrupt reaches that thread as ``_run``'s ``finally`` calls ``_done`` (batch handed to
    its handlers, ``pending`` already False). The batch is not left and ``_next_batch`` stays
    on it: the next act waits forever."""
    game = cardcore.new_game("golf", 2, seed=7)
    got = _recorder(game)

    def act_back(event: ActionApplied) -> None:
        if event.version == 1:
            game.act(0, "flip 1")

    game.events.subscribe(ActionApplied, act_back)
    first = _in_thread(lambda: game.act(0, "flip 0"), _raise_on_call("_done"))
    first.join(JOIN)
    assert not first.is_alive() and game.version == 2
    assert got == [1, 2]  # both delivered (the interrupt came after)
    assert not _hangs(game, 1, "flip 0"), "the next act never returned"
    assert got == [1, 2, 3]


def test_an_interrupt_as_a_queued_batch_is_run_loses_nothing_and_hangs_nothing() -> None:
    """deliver's inlined fast path pops the batch a handler queued (``mine.popleft()``) and
    calls ``_run``; an interrupt at ``_run``'s entry (or right after ``popleft`` returns)
    propagates with that batch neither in ``_deferred`` nor in ``_orphans``: version 2 never
    reaches a subscriber and the next act waits forever for its turn."""
    game = cardcore.new_game("golf", 2, seed=7)
    got = _recorder(game)

    def act_back(event: ActionApplied) -> None:
        if event.version == 1:
            game.act(0, "flip 1")

    game.events.subscribe(ActionApplied, act_back)
    first = _in_thread(lambda: game.act(0, "flip 0"), _raise_on_call("_run"))
    first.join(JOIN)
    assert not first.is_alive() and game.version == 2
    assert got == [1]
    assert not _hangs(game, 1, "flip 0"), "the next act never returned"
    assert got == [1, 2, 3]


def test_an_interrupt_as_a_taken_up_batch_is_handed_on_hangs_no_later_act() -> None:
    """A delivers version 1 slowly; B acts (version 2) and is interrupted while it waits, so
    its batch is left; C acts (version 3), waits, and takes B's batch up when A is done. C
    delivers it, then an interrupt reaches C as it calls ``_done`` to hand the turn on: the
    batch was deleted from ``_orphans`` and the turn stays on it, so C's own batch is left
    in ``_orphans`` behind turn 1, which nobody will move: the next act (D) waits forever."""
    game = cardcore.new_game("golf", 2, seed=7)
    bus = game.events
    inside, go = threading.Event(), threading.Event()
    got: list[int] = []

    def slow(event: ActionApplied) -> None:
        got.append(event.version)
        if event.version == 1:
            inside.set()
            go.wait(JOIN)

    bus.subscribe(ActionApplied, slow)
    a = _in_thread(lambda: game.act(0, "flip 0"))
    try:
        assert inside.wait(JOIN)
        b = _in_thread(lambda: game.act(0, "flip 1"))
        assert _wait_until(lambda: _waiting(b))
        # B is interrupted while it waits: as a signal would, raise in B's wait
        _interrupt(b)
        b.join(JOIN)
        assert not b.is_alive() and game.version == 2
        assert 1 in bus._orphans  # B's batch (ticket 1) was left
        c = _in_thread(lambda: game.act(1, "flip 0"), _raise_on_call("_done"))
        assert _wait_until(lambda: _waiting(c))
        go.set()
        a.join(JOIN)
        c.join(JOIN)
        assert not a.is_alive() and not c.is_alive() and game.version == 3
        assert got[:2] == [1, 2]  # C delivered B's batch, then was interrupted
        assert not _hangs(game, 1, "flip 1"), "the next act never returned"
        assert got == [1, 2, 3, 4]
    finally:
        go.set()


def test_an_interrupt_after_the_fast_path_delivered_leaves_queued_batches_to_the_others() -> None:
    """The tail of deliver's inlined fast path (``if queued:``, then ``_run``) is outside any
    ``try``: an interrupt there propagates with version 2 (queued by a handler of version 1)
    still this thread's, not left to the others. (Before 2026-12-11 the turn stood on it and
    its events were lost; now the next act, from another thread, delivers it late, after
    STUCK.)"""
    game = cardcore.new_game("golf", 2, seed=7)
    bus = game.events
    got = _recorder(game)

    def act_back(event: ActionApplied) -> None:
        if event.version == 1:
            game.act(0, "flip 1")

    bus.subscribe(ActionApplied, act_back)
    first = _in_thread(lambda: game.act(0, "flip 0"), _raise_at_line("deliver", "if queued:"))
    first.join(JOIN)
    assert not first.is_alive() and game.version == 2
    assert got == [1]
    assert not _hangs(game, 1, "flip 0"), "the next act never returned"
    assert got == [1, 2, 3]


def test_a_second_interrupt_while_a_batch_is_left_loses_nothing_and_hangs_nothing() -> None:
    """B, waiting behind A's slow handler, is interrupted (Ctrl-C) and, as ``_run`` calls
    ``_abandon`` to leave its batch, interrupted again (a second Ctrl-C): ``_abandon`` never
    runs, so version 2 is neither delivered nor in ``_orphans`` and the turn stays on it."""
    game = cardcore.new_game("golf", 2, seed=7)
    bus = game.events
    inside, go = threading.Event(), threading.Event()
    got: list[int] = []

    def slow(event: ActionApplied) -> None:
        got.append(event.version)
        if event.version == 1:
            inside.set()
            go.wait(JOIN)

    bus.subscribe(ActionApplied, slow)
    a = _in_thread(lambda: game.act(0, "flip 0"))
    try:
        assert inside.wait(JOIN)
        b = _in_thread(lambda: game.act(0, "flip 1"), _raise_on_call("_abandon"))
        assert _wait_until(lambda: _waiting(b))
        _interrupt(b)
        b.join(JOIN)
        assert not b.is_alive() and game.version == 2
        go.set()
        a.join(JOIN)
        assert not a.is_alive() and got == [1]
        assert not _hangs(game, 1, "flip 0"), "the next act never returned"
        assert got == [1, 2, 3]
    finally:
        go.set()


# --- promises that hold ----------------------------------------------------------------------


def test_an_interrupt_while_waiting_leaves_the_batch_for_the_next_deliverer() -> None:
    """The docstring's promise: B, interrupted while it waits behind A's slow handler, raises
    at once; its batch is delivered, in order and once, by the next thread that delivers."""
    game = cardcore.new_game("spit", 2, seed=3)
    bus = game.events
    inside, go = threading.Event(), threading.Event()
    got: list[int] = []
    first_moves = [a for a in game.legal_actions(0)]

    def slow(event: ActionApplied) -> None:
        got.append(event.version)
        if event.version == 1:
            inside.set()
            go.wait(JOIN)

    bus.subscribe(ActionApplied, slow)
    assert first_moves
    a = _in_thread(lambda: game.apply(game.legal_actions(0)[0]))
    try:
        assert inside.wait(JOIN)
        b = _in_thread(lambda: game.apply(game.legal_actions(1)[0]))
        assert _wait_until(lambda: _waiting(b))
        _interrupt(b)
        b.join(JOIN)
        assert not b.is_alive() and game.version == 2
        go.set()
        a.join(JOIN)
        assert not a.is_alive()
        assert got == [1]  # nobody delivers the left batch before another action
        seat = next(s for s in game.to_act if game.legal_actions(s))
        d = _in_thread(lambda: game.apply(game.legal_actions(seat)[0]))
        d.join(HANG)
        hung = d.is_alive()
        if hung:
            _unstick(bus, d)
        assert not hung
        assert got == [1, 2, 3]
        assert bus._deliverer == 0 and not bus._orphans
    finally:
        go.set()


def test_an_interrupt_entering_deliver_of_a_taken_up_batch_leaves_it_again() -> None:
    """_wait_turn: interrupted before handing a left batch to its handlers (at ``_deliver``'s
    entry), a thread leaves it again; the next act delivers everything, in order, once."""
    game = cardcore.new_game("golf", 2, seed=7)
    bus = game.events
    inside, go = threading.Event(), threading.Event()
    got: list[int] = []

    def slow(event: ActionApplied) -> None:
        got.append(event.version)
        if event.version == 1:
            inside.set()
            go.wait(JOIN)

    bus.subscribe(ActionApplied, slow)
    a = _in_thread(lambda: game.act(0, "flip 0"))
    try:
        assert inside.wait(JOIN)
        b = _in_thread(lambda: game.act(0, "flip 1"))
        assert _wait_until(lambda: _waiting(b))
        _interrupt(b)
        b.join(JOIN)
        c = _in_thread(lambda: game.act(1, "flip 0"), _raise_on_call("_deliver"))
        assert _wait_until(lambda: _waiting(c))
        go.set()
        a.join(JOIN)
        c.join(JOIN)
        assert not a.is_alive() and not b.is_alive() and not c.is_alive()
        assert got == [1]
        assert bus._deliverer == 0 and set(bus._orphans) == {1, 2}
        assert not _hangs(game, 1, "flip 1")
        assert got == [1, 2, 3, 4]
        assert bus._deliverer == 0 and not bus._orphans
    finally:
        go.set()


def test_threads_whose_handlers_act_deliver_every_batch_once_in_order() -> None:
    """Several threads act on one Spit game while handlers are slow and act back: every
    version reaches every subscriber exactly once, in version order, and no act hangs."""
    game = cardcore.new_game("spit", 2, seed=11)
    bus = game.events
    seen: dict[str, list[int]] = {"a": [], "b": []}
    done = threading.Event()

    def slow(event: ActionApplied) -> None:
        seen["a"].append(event.version)
        done.wait(0.0005)

    def acting(event: ActionApplied) -> None:
        seen["b"].append(event.version)
        if event.version % 5 == 0 and not game.is_over:
            seats = [s for s in game.to_act if game.legal_actions(s)]
            if seats:
                with contextlib.suppress(cardcore.CardcoreError):  # another thread moved first
                    game.apply(game.legal_actions(seats[0])[0])

    bus.subscribe(ActionApplied, slow)
    bus.subscribe(ActionApplied, acting)
    errors: list[BaseException] = []

    def worker(seat: int) -> None:
        try:
            for _ in range(30):
                if game.is_over:
                    return
                moves = game.legal_actions(seat)
                if not moves:
                    time.sleep(0.0005)
                    continue
                with contextlib.suppress(cardcore.CardcoreError):
                    game.apply(moves[0])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(s % 2,), daemon=True) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(JOIN)
    hung = [t for t in threads if t.is_alive()]
    for t in hung:
        _unstick(bus, t)
    assert not hung and not errors
    expected = list(range(1, game.version + 1))
    assert seen["a"] == expected and seen["b"] == expected
    assert bus._deliverer == 0 and not bus._orphans and not bus._queued


def test_a_handlers_keyboard_interrupt_costs_no_other_handler_an_event() -> None:
    """A handler raising a BaseException on version 1 (whose handler queued version 2): the
    act raises it, after every handler had versions 1 and 2; the bus is left idle."""
    game = cardcore.new_game("golf", 2, seed=7)
    bus = game.events
    got: list[tuple[str, int]] = []

    def first(event: ActionApplied) -> None:
        got.append(("first", event.version))
        if event.version == 1:
            game.act(0, "flip 1")
            raise _Stop

    bus.subscribe(ActionApplied, first)
    bus.subscribe(
        Event, lambda e: got.append(("all", e.version)) if type(e) is ActionApplied else None
    )
    with pytest.raises(_Stop):
        game.act(0, "flip 0")
    assert got == [("first", 1), ("all", 1), ("first", 2), ("all", 2)]
    assert bus._deliverer == 0 and not bus._orphans and not bus._queued
    assert not _hangs(game, 1, "flip 0")
    assert got[-2:] == [("first", 3), ("all", 3)]


@pytest.mark.parametrize("where", ["deliver", "_run"])
def test_an_interrupt_that_loses_a_batch_stalls_the_others_about_a_second_not_for_ever(
    where: str,
) -> None:
    """Where an interrupt leaves a batch nobody delivers, the turn stands on it only about a
    second (the bus's STUCK): a later act returns within HANG seconds, every event delivered."""
    game = cardcore.new_game("golf", 2, seed=7)

    def act_back(event: ActionApplied) -> None:
        if event.version == 1:
            game.act(0, "flip 1")

    if where == "_run":
        game.events.subscribe(ActionApplied, act_back)
    got = _recorder(game)
    first = _in_thread(lambda: game.act(0, "flip 0"), _raise_on_call(where))
    first.join(JOIN)
    assert not first.is_alive()
    start = time.monotonic()
    seat = game.to_act[0]
    assert not _hangs(game, seat, game.view(seat)["legal"][0])
    assert time.monotonic() - start < 3.0  # STUCK and the waiter's 0.5 s poll, with a margin
    assert got[-1] == game.version  # the later act's events are delivered


def test_the_interrupted_thread_acting_again_gets_its_events_in_order() -> None:
    """The REPL case of the fast path's unprotected tail: the interrupt leaves version 2 (queued
    by a handler of version 1) this thread's; the user acts again in the same
    thread. Its new batch (version 3) waits for the turn of version 2, which only this thread
    holds: it waits for itself for ever. (With a watchdog that moves the turn on after a
    stall, version 3 is delivered, then the stale version 2 after it: out of order. Any later
    thread that reuses this thread's ident inherits the stale batch the same way.)"""
    game = cardcore.new_game("golf", 2, seed=7)
    got = _recorder(game)

    def act_back(event: ActionApplied) -> None:
        if event.version == 1:
            game.act(0, "flip 1")

    game.events.subscribe(ActionApplied, act_back)
    interrupted = threading.Event()
    second_done = threading.Event()

    def repl() -> None:
        sys.settrace(_raise_at_line("deliver", "if queued:"))
        try:
            game.act(0, "flip 0")
        except _Stop:
            interrupted.set()
        finally:
            sys.settrace(None)
        game.act(1, "flip 0")  # the same thread acts again
        second_done.set()

    thread = threading.Thread(target=repl, daemon=True)
    thread.start()
    assert interrupted.wait(JOIN)
    hung = not second_done.wait(HANG)
    if hung:
        _unstick(game.events, thread)
    thread.join(JOIN)
    assert not hung, "the thread's next act never returned: it waits for its own stale batch"
    assert game.version == 3
    assert got == sorted(set(got)) and got[-1] == 3, f"delivered out of order: {got}"
