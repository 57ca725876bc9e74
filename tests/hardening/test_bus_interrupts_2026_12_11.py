"""An interrupt at every entry point of the event bus's delivery loses and hangs nothing.

Since 2026-12-11 the bus keeps each batch from the moment the game numbers it (under the
game's lock) until a thread takes it up to deliver it, so a thread interrupted before its
handlers had the batch loses nothing: its next call delivers it at once, and another thread
does after ``STUCK`` seconds. These tests sweep the points a ``KeyboardInterrupt`` can hit (the
entry of each of the bus's delivery functions, its 1st to 3rd call in the thread) in three
scenarios, then check that every version reaches the subscriber exactly once, in order.
The interrupt is a ``BaseException`` raised as the function is entered (by a wrapper: a trace
function cannot raise twice, CPython drops it once it raised), so two interrupts in a row
(Ctrl-C pressed twice) can be tried too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import cardcore
from cardcore import ActionApplied
from cardcore import _bus as bus_module

JOIN = 10.0
Point = tuple[tuple[str, int], ...]  # interrupts at these (function, nth call) entries, in turn
# the points each scenario reaches (a test fails if one is not reached: it would test nothing)
ONE_THREAD: list[Point] = [
    (("deliver", 1),),
    (("deliver", 2),),
    (("_run", 1),),
    (("_wait_turn", 1),),
    (("_wait_turn", 2),),
    (("_deliver", 1),),
    (("_deliver", 1), ("_abandon", 1)),  # a second Ctrl-C as the first is handled
    (("_wait_turn", 1), ("_abandon", 1)),
    (("_run", 1), ("_abandon", 1)),
]
WAITING: list[Point] = [
    (("deliver", 1),),
    (("_run", 1),),
    (("_wait_turn", 1),),
    (("_deliver", 1),),
    (("_deliver", 1), ("_abandon", 1)),
    (("_wait_turn", 1), ("_abandon", 1)),
]


NAMES = ["deliver", "_run", "_wait_turn", "_deliver", "_done", "_abandon"]


class _Stop(BaseException):
    """An interrupt, as KeyboardInterrupt."""


_ARMED = threading.local()  # in the thread under test: the points still to interrupt


def _wrap(name: str) -> Callable[..., Any]:
    """EventBus.<name>, raising _Stop as it is entered for the nth time in an armed thread
    (where a pending signal's handler runs: a function's first instruction)."""
    original = getattr(cardcore.EventBus, name)

    def entered(*args: Any, **kwargs: Any) -> Any:
        todo = getattr(_ARMED, "todo", None)
        if todo:
            _ARMED.seen[name] = _ARMED.seen.get(name, 0) + 1
            if todo[0] == (name, _ARMED.seen[name]):
                todo.pop(0)
                _ARMED.fired.append(name)
                raise _Stop
        return original(*args, **kwargs)

    return entered


@pytest.fixture(autouse=True)
def _entries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every delivery function of the bus, interruptible at its entry in an armed thread."""
    for name in NAMES:
        monkeypatch.setattr(cardcore.EventBus, name, _wrap(name))


def _interrupted(fn: Callable[[], object], points: Point, fired: list[str]) -> None:
    """Run *fn* under interrupts at *points*; the interrupts end it (or are kept by it)."""
    _ARMED.todo, _ARMED.seen, _ARMED.fired = list(points), {}, fired
    try:
        fn()
    except _Stop:
        pass
    finally:
        _ARMED.todo = None


def _act_back_game() -> tuple[cardcore.Game, list[int]]:
    """Golf with a recorder and a handler that acts on version 1 (so version 2 is queued by
    a handler and delivered by the same thread)."""
    game = cardcore.new_game("golf", 2, seed=7)
    got: list[int] = []

    def act_back(event: ActionApplied) -> None:
        if event.version == 1 and game.version == 1:  # (delivered late: another moved on)
            game.act(*_next_move(game))

    game.events.subscribe(ActionApplied, act_back)
    game.events.subscribe(ActionApplied, lambda e: got.append(e.version))
    return game, got


def _next_move(game: cardcore.Game) -> tuple[int, str]:
    seat = game.to_act[0]
    return seat, game.view(seat)["legal"][0]


def _until_waiting_or_done(game: cardcore.Game, thread: threading.Thread) -> None:
    """Wait until *thread* waits for its delivery turn or has ended (a fixed pause let a
    thread a loaded machine started late reach the bus only after the turn was free)."""
    deadline = time.monotonic() + JOIN
    while thread.is_alive() and not game.events._waiters and time.monotonic() < deadline:
        time.sleep(0.0005)
    assert not thread.is_alive() or game.events._waiters, "the thread never waited for its turn"


def _name(points: Point) -> str:
    return "+".join(f"{name}{nth}" for name, nth in points)


@pytest.mark.parametrize("points", ONE_THREAD, ids=_name)
def test_another_thread_delivers_what_an_interrupted_thread_left(points: Point) -> None:
    """The interrupted thread never acts again: a later act from another thread returns
    (within STUCK and a margin) and every version has been delivered once, in order."""
    game, got = _act_back_game()
    fired: list[str] = []
    thread = threading.Thread(
        target=_interrupted, args=(lambda: game.act(0, "flip 0"), points, fired), daemon=True
    )
    thread.start()
    thread.join(JOIN)
    assert not thread.is_alive()
    assert fired == [name for name, _ in points], "an interrupt point was not reached"
    later = threading.Thread(target=lambda: game.act(*_next_move(game)), daemon=True)
    later.start()
    later.join(JOIN)
    assert not later.is_alive(), f"an act after interrupts at {points} hung"
    assert got == list(range(1, game.version + 1)), (points, got)
    assert game.version == 3 or points == (("deliver", 1),)  # (then nobody acted back)
    bus = game.events
    assert bus._deliverer == 0 and not bus._orphans and not bus._queued


@pytest.mark.parametrize("points", ONE_THREAD, ids=_name)
def test_the_interrupted_thread_delivers_what_it_left_when_it_acts_again(
    points: Point, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The REPL case: Ctrl-C, then the same thread acts again. Its next act delivers what the
    interrupt left, first, without waiting for STUCK."""
    monkeypatch.setattr(bus_module, "STUCK", 5.0)  # far above a loaded machine's pauses
    game, got = _act_back_game()
    fired: list[str] = []
    took: list[float] = []

    def repl() -> None:
        _interrupted(lambda: game.act(0, "flip 0"), points, fired)
        start = time.monotonic()
        game.act(*_next_move(game))
        took.append(time.monotonic() - start)

    thread = threading.Thread(target=repl, daemon=True)
    thread.start()
    thread.join(JOIN)
    assert not thread.is_alive(), f"the thread's next act after interrupts at {points} hung"
    assert fired == [name for name, _ in points]
    assert got == list(range(1, game.version + 1)), (points, got)
    assert took[0] < 4.0, "the thread waited for its own left batch"  # STUCK is 5 s here


@pytest.mark.parametrize("points", WAITING, ids=_name)
def test_an_interrupt_while_another_thread_delivers_loses_nothing(points: Point) -> None:
    """A delivers version 1 slowly; B acts (version 2), waits for its turn, and is
    interrupted at *points*; then A finishes and C acts: versions 1 to 3 arrive once each,
    in order, and nobody hangs."""
    game = cardcore.new_game("golf", 2, seed=7)
    inside, go = threading.Event(), threading.Event()
    got: list[int] = []

    def slow(event: ActionApplied) -> None:
        got.append(event.version)
        if event.version == 1:
            inside.set()
            go.wait(JOIN)

    game.events.subscribe(ActionApplied, slow)
    a = threading.Thread(target=lambda: game.act(0, "flip 0"), daemon=True)
    a.start()
    try:
        assert inside.wait(JOIN)
        fired: list[str] = []
        b = threading.Thread(
            target=_interrupted, args=(lambda: game.act(0, "flip 1"), points, fired), daemon=True
        )
        b.start()
        _until_waiting_or_done(game, b)  # B either returned (interrupted) or waits for its turn
        go.set()
        a.join(JOIN)
        b.join(JOIN)
        assert not a.is_alive() and not b.is_alive() and game.version == 2
        assert fired == [name for name, _ in points]
        c = threading.Thread(target=lambda: game.act(1, "flip 0"), daemon=True)
        c.start()
        c.join(JOIN)
        assert not c.is_alive()
        assert got == [1, 2, 3], points
    finally:
        go.set()


def test_an_interrupt_as_the_deliverer_hands_the_turn_to_a_waiter_loses_nothing() -> None:
    """A delivers version 1 slowly while B waits; an interrupt reaches A as it enters
    ``_done`` to wake B (the turn has moved on already): B delivers version 2 (within its
    0.5 s poll) and a later act returns; every version arrives once, in order."""
    game = cardcore.new_game("golf", 2, seed=7)
    inside, go = threading.Event(), threading.Event()
    got: list[int] = []

    def slow(event: ActionApplied) -> None:
        got.append(event.version)
        if event.version == 1:
            inside.set()
            go.wait(JOIN)

    game.events.subscribe(ActionApplied, slow)
    fired: list[str] = []
    a = threading.Thread(
        target=_interrupted,
        args=(lambda: game.act(0, "flip 0"), (("_done", 1),), fired),
        daemon=True,
    )
    a.start()
    try:
        assert inside.wait(JOIN)
        b = threading.Thread(target=lambda: game.act(0, "flip 1"), daemon=True)
        b.start()
        _until_waiting_or_done(game, b)
        go.set()
        a.join(JOIN)
        b.join(JOIN)
        assert not a.is_alive() and not b.is_alive()
        assert fired == ["_done"]
        assert got == [1, 2]
        c = threading.Thread(target=lambda: game.act(1, "flip 0"), daemon=True)
        c.start()
        c.join(JOIN)
        assert not c.is_alive() and got == [1, 2, 3]
    finally:
        go.set()
