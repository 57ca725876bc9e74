"""Review of commit 49dcc76: the event bus's delivery machinery rewritten around ``_queued``.

Every batch is kept in ``EventBus._queued[ticket] = (owner thread, batch)`` from the moment the
game numbers it; threads deliver in ticket order, one at a time, through a lock-free fast
path in ``deliver`` or ``_run``/``_wait_turn`` under the bus's condition. These tests check
the promises of the ``EventBus`` docstring and docs/security.rst ("Event handlers") with
several threads, handlers that act, subscribe and unsubscribe, ``enqueue``/``drain``, plugin
observers, ``Game.truncate`` and ``single_thread`` games.

Findings are ``xfail(strict=True)``. Every thread is joined with a timeout; a test that could
leave a thread blocked releases it before it ends.
"""

from __future__ import annotations

import contextlib
import dis
import itertools
import linecache
import random
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import cardcore
import cardcore._bus as bus_module
from cardcore import ActionApplied, CardcoreError, Event, GameEnded, RuleInfo, hookimpl

JOIN = 10.0
_NUMBERS = itertools.count(1)


class _Stop(BaseException):
    """An interrupt, as KeyboardInterrupt."""


def _next_move(game: cardcore.Game) -> tuple[int, str]:
    seat = game.to_act[0]
    return seat, game.view(seat)["legal"][0]


def _wait_until(check: Callable[[], bool], limit: float = JOIN) -> bool:
    deadline = time.monotonic() + limit
    while not check() and time.monotonic() < deadline:
        time.sleep(0.001)
    return check()


def _thread(
    fn: Callable[[], object], errors: dict[str, BaseException], name: str
) -> threading.Thread:
    """A started daemon thread running *fn*; what it raises is kept in *errors[name]*."""

    def target() -> None:
        try:
            fn()
        except BaseException as exc:  # kept for the test to judge
            errors[name] = exc

    thread = threading.Thread(target=target, daemon=True, name=name)
    thread.start()
    return thread


def _join_all(*threads: threading.Thread) -> None:
    for thread in threads:
        thread.join(JOIN)
    assert not any(t.is_alive() for t in threads), "a thread hung"


@pytest.fixture
def house_rule() -> Iterator[Callable[..., str]]:
    """Register a throw-away house rule with the given hooks (docs/hooks.rst's way)."""
    names: list[str] = []

    def make(game: str, **hooks: Any) -> str:
        n = next(_NUMBERS)
        name = f"{game}.rv-1211-bus-{n}"
        module = types.ModuleType(f"rv_1211_bus_{n}")
        module.RULE = RuleInfo(  # type: ignore[attr-defined]
            id=f"TEST-RV-1211-BUS-{n}", name=name, game=game, summary="bus review"
        )
        vars(module).update(hooks)
        cardcore.register("cardcore.rules", name, module)
        names.append(name)
        return name

    yield make
    for name in names:
        cardcore.unregister("cardcore.rules", name)


# --- findings ----------------------------------------------------------------------------------


class _Ident(int):
    """A thread ident that can pause the thread as ``_wait_turn`` compares it with another
    thread's, inside its scan of ``_queued`` (so another thread can number a batch then)."""

    __hash__ = int.__hash__
    armed: dict[str, Any] = {}  # noqa: RUF012 - one test's switch

    def __eq__(self, other: object) -> bool:
        fire = _Ident.armed.get(threading.get_ident())
        if (
            fire is not None
            and isinstance(other, int)
            and int(self) != int(other)
            and sys._getframe(1).f_code.co_name == "<genexpr>"
        ):
            del _Ident.armed[threading.get_ident()]
            fire()
        return int.__eq__(self, other)


def test_an_act_that_waits_its_turn_never_raises_while_another_thread_acts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A delivers version 1 slowly; B and W act and wait for their turn. While W scans the
    queued batches (holding the bus's condition), T acts: it numbers its batch (under the
    game's lock only) and waits. W's act must return normally: its action was applied, and
    nothing a handler did failed. It raises RuntimeError instead (its batch is left to the
    others, so no event is lost: the error is what the caller sees)."""
    monkeypatch.setattr(bus_module, "get_ident", lambda: _Ident(threading.get_ident()))
    game = cardcore.new_game("golf", 2, seed=7)
    bus = game.events
    got: list[int] = []
    inside, go = threading.Event(), threading.Event()

    def slow(event: ActionApplied) -> None:
        if event.version == 1:
            inside.set()
            go.wait(JOIN)

    bus.subscribe(ActionApplied, slow)
    bus.subscribe(ActionApplied, lambda e: got.append(e.version))
    errors: dict[str, BaseException] = {}
    threads: list[threading.Thread] = []

    def act() -> None:
        game.act(*_next_move(game))

    def another_thread_acts() -> None:  # (W holds the bus's condition here)
        threads.append(_thread(act, errors, "T"))
        _wait_until(lambda: len(bus._queued) == 3, 5.0)

    try:
        threads.append(_thread(act, errors, "A"))
        assert inside.wait(JOIN)
        threads.append(_thread(act, errors, "B"))
        assert _wait_until(lambda: bus._waiters == 1 and len(bus._queued) == 1)

        def w() -> None:
            _Ident.armed[threading.get_ident()] = another_thread_acts
            game.act(*_next_move(game))

        threads.append(_thread(w, errors, "W"))
        assert _wait_until(lambda: len(threads) == 4 and game.version == 4)
        _wait_until(lambda: "W" in errors or bus._waiters >= 2, 5.0)
    finally:
        _Ident.armed.clear()
        go.set()
        _join_all(*threads)
    assert game.version == 4
    assert got == [1, 2, 3, 4]  # nothing lost: W's batch was left to T
    assert errors == {}, f"an act raised: {errors!r}"


def _after_pop_in_abandon() -> Callable[..., Any]:
    """A trace function raising _Stop in ``EventBus._abandon`` right after ``queued.pop(...)``
    returns (CPython runs a pending signal's handler as a call returns): a second Ctrl-C
    while the first is handled."""
    code = bus_module.EventBus._abandon.__code__
    target = None
    after_pop = after_call = False
    for ins in dis.get_instructions(code):
        if after_call:
            target = ins.offset
            break
        if ins.argval == "pop":
            after_pop = True
        elif after_pop and ins.opname == "CALL":
            after_call = True
    assert target is not None

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "opcode" and frame.f_lasti == target:
            sys.settrace(None)
            raise _Stop
        return local

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code is code:
            frame.f_trace_opcodes = True
            return local
        return None

    return tracer


def test_a_second_interrupt_inside_abandon_loses_no_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thread A queues two batches and drains; an interrupt hits as the first is handed to the
    handlers (so A abandons what it holds) and a second one inside _abandon. Another thread
    that then queues and drains a batch must deliver all three, in order."""
    bus = cardcore.EventBus()
    got: list[int] = []
    bus.subscribe(ActionApplied, lambda e: got.append(e.version))
    original = bus_module.EventBus._deliver
    armed: set[int] = set()

    def deliver_once_interrupted(self: Any, *args: Any, **kwargs: Any) -> Any:
        if threading.get_ident() in armed:
            armed.discard(threading.get_ident())
            raise _Stop
        return original(self, *args, **kwargs)

    monkeypatch.setattr(bus_module.EventBus, "_deliver", deliver_once_interrupted)
    errors: dict[str, BaseException] = {}

    def first() -> None:
        bus.enqueue([ActionApplied(0, "one", 1)])
        bus.enqueue([ActionApplied(0, "two", 2)])
        armed.add(threading.get_ident())
        sys.settrace(_after_pop_in_abandon())
        try:
            bus.drain()
        finally:
            sys.settrace(None)

    a = _thread(first, errors, "A")
    _join_all(a)
    assert isinstance(errors.pop("A", None), _Stop)

    def second() -> None:
        bus.enqueue([ActionApplied(1, "three", 3)])
        bus.drain()

    c = _thread(second, errors, "C")
    _join_all(c)
    assert errors == {}
    assert got == [1, 2, 3]


# --- claims that hold --------------------------------------------------------------------------


def _spit_stress(game: cardcore.Game, threads: int, per: int, seed: int) -> dict[str, Any]:
    """Four threads act on a Spit game at once (two per seat) while handlers record, act back
    and watch for overlapping deliveries."""
    bus = game.events
    streams: list[list[int]] = [[], [], []]
    for stream in streams:
        bus.subscribe(ActionApplied, lambda e, s=stream: s.append(e.version))
    overlap: list[int] = []
    busy = [0]
    deliverers: dict[int, set[int]] = {}

    def watch(event: ActionApplied) -> None:
        busy[0] += 1
        if busy[0] != 1:
            overlap.append(event.version)
        time.sleep(0)  # let the others run: they must not deliver meanwhile
        deliverers.setdefault(event.version, set()).add(threading.get_ident())
        busy[0] -= 1

    bus.subscribe(ActionApplied, watch)

    def act_back(event: ActionApplied) -> None:  # a handler that acts: same thread delivers
        if event.version % 5 == 0 and not game.is_over:
            seat = event.version % 2
            legal = game.view(seat)["legal"]
            if legal:
                with contextlib.suppress(CardcoreError):
                    game.act(seat, legal[0])

    bus.subscribe(ActionApplied, act_back)
    odd: list[BaseException] = []

    def worker(i: int) -> None:
        rng = random.Random(seed * 100 + i)
        seat = i % 2
        for _ in range(per):
            if game.is_over:
                return
            legal = game.view(seat)["legal"]
            if not legal:
                time.sleep(0)
                continue
            try:
                game.act(seat, rng.choice(legal))
            except CardcoreError:  # the other thread of the seat played first
                pass
            except BaseException as exc:  # (the RuntimeError finding above)
                odd.append(exc)

    started = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(threads)]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join(JOIN)
    assert not any(t.is_alive() for t in started), "an act hung"
    if odd:  # batches a failing act left: delivered by the next thread that drains one
        bus.enqueue([])
        bus.drain()
    return {"streams": streams, "overlap": overlap, "odd": odd}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_spit_four_threads_every_subscriber_hears_each_version_once_in_order(seed: int) -> None:
    game = cardcore.new_game("spit", 2, seed=seed)
    out = _spit_stress(game, threads=4, per=120, seed=seed)
    assert game.version > 50
    want = list(range(1, game.version + 1))
    for stream in out["streams"]:
        assert stream == want
    assert out["overlap"] == [], "two threads delivered at once"
    assert all(isinstance(exc, RuntimeError) for exc in out["odd"]), out["odd"]


def test_plugin_observer_hears_every_version_once_in_order_under_threads(
    house_rule: Callable[..., str],
) -> None:
    heard: list[int] = []
    lock = threading.Lock()

    @hookimpl
    def on_event(event: Event) -> None:
        if isinstance(event, ActionApplied):
            with lock:
                heard.append(event.version)

    rule = house_rule("spit", on_event=on_event)
    game = cardcore.new_game("spit", 2, rules=[rule], seed=4)
    out = _spit_stress(game, threads=4, per=80, seed=4)
    want = list(range(1, game.version + 1))
    assert game.version > 30
    assert heard == want
    assert all(stream == want for stream in out["streams"])
    assert out["overlap"] == []


def test_a_handler_acting_is_delivered_by_its_thread_after_the_current_batch() -> None:
    game = cardcore.new_game("golf", 2, seed=7)
    seen: list[tuple[int, int, str]] = []  # (version, thread, handler)
    main = threading.get_ident()

    def act_back(event: ActionApplied) -> None:
        seen.append((event.version, threading.get_ident(), "act_back"))
        if event.version < 4:
            game.act(*_next_move(game))
            seen.append((event.version, threading.get_ident(), "acted"))

    game.events.subscribe(ActionApplied, act_back)
    game.events.subscribe(ActionApplied, lambda e: seen.append((e.version, main, "log")))
    game.act(*_next_move(game))
    assert game.version == 4
    assert [v for v, _, h in seen if h == "log"] == [1, 2, 3, 4]
    assert {t for _, t, _ in seen} == {main}
    # version 2 reaches nobody before version 1 reached every handler
    assert seen.index((1, main, "log")) < seen.index((2, main, "act_back"))


def test_subscribe_and_unsubscribe_from_a_handler_during_delivery() -> None:
    game = cardcore.new_game("golf", 2, seed=7)
    bus = game.events
    late: list[int] = []
    mine: list[int] = []
    subs: dict[str, cardcore.Subscription] = {}

    def juggler(event: ActionApplied) -> None:
        mine.append(event.version)
        if event.version == 2:
            subs["late"] = bus.subscribe(ActionApplied, lambda e: late.append(e.version))
        if event.version == 4:
            bus.unsubscribe(subs["self"])
            bus.unsubscribe(subs["late"])

    subs["self"] = bus.subscribe(ActionApplied, juggler)
    for _ in range(6):
        game.act(*_next_move(game))
    assert mine == [1, 2, 3, 4]
    assert late == [3]  # subscribed after ActionApplied 2 was handed out; removed at 4 (first)
    assert bus._queued == {} and bus._orphans == {} and bus._deliverer == 0


def test_enqueue_and_drain_from_two_threads_deliver_each_batch_once_in_order() -> None:
    bus = cardcore.EventBus()
    got: list[int] = []
    bus.subscribe(ActionApplied, lambda e: got.append(e.version))
    errors: dict[str, BaseException] = {}
    queued, go = threading.Event(), threading.Event()

    def first() -> None:
        bus.enqueue([ActionApplied(0, "a", 1)])
        queued.set()
        assert go.wait(JOIN)
        bus.drain()

    a = _thread(first, errors, "A")
    assert queued.wait(JOIN)
    b = _thread(lambda: (bus.enqueue([ActionApplied(1, "b", 2)]), bus.drain()), errors, "B")
    assert _wait_until(lambda: bus._waiters == 1)  # B waits for A's batch
    assert got == []
    go.set()
    _join_all(a, b)
    assert errors == {}
    assert got == [1, 2]
    bus.drain()  # nothing of this thread's: returns at once
    assert got == [1, 2]


def test_a_batch_queued_by_a_thread_that_ended_is_delivered_late_not_lost() -> None:
    """A thread numbers a batch and ends without delivering it (its ident may be reused by
    the next thread): the next thread to drain delivers it in its turn, within STUCK and a
    margin, then its own."""
    bus = cardcore.EventBus()
    got: list[int] = []
    bus.subscribe(ActionApplied, lambda e: got.append(e.version))
    errors: dict[str, BaseException] = {}
    _join_all(_thread(lambda: bus.enqueue([ActionApplied(0, "a", 1)]), errors, "gone"))
    start = time.monotonic()
    _join_all(_thread(lambda: (bus.enqueue([ActionApplied(1, "b", 2)]), bus.drain()), errors, "B"))
    assert errors == {}
    assert got == [1, 2]
    assert time.monotonic() - start < bus_module.STUCK + 3.0
    assert bus._queued == {} and bus._orphans == {}


def test_truncate_publishes_game_ended_once_even_when_threads_race() -> None:
    game = cardcore.new_game("golf", 2, seed=7)
    ended: list[str] = []
    versions: list[int] = []
    game.events.subscribe(GameEnded, lambda e: ended.append(e.reason))
    game.events.subscribe(ActionApplied, lambda e: versions.append(e.version))
    game.act(*_next_move(game))
    errors: dict[str, BaseException] = {}
    threads = [_thread(game.truncate, errors, f"t{i}") for i in range(3)]
    _join_all(*threads)
    assert errors == {}
    assert ended == ["truncated"]
    assert versions == [1]
    assert game.is_over


def test_a_single_thread_game_delivers_in_order_with_a_handler_that_acts() -> None:
    game = cardcore.new_game("golf", 2, seed=3).single_thread()
    got: list[int] = []
    ended: list[str] = []

    def act_back(event: ActionApplied) -> None:
        got.append(event.version)
        if event.version % 2 and not game.is_over:
            game.act(*_next_move(game))

    game.events.subscribe(ActionApplied, act_back)
    game.events.subscribe(GameEnded, lambda e: ended.append(e.reason))
    rng = random.Random(0)
    while not game.is_over and game.version < 400:
        seat = game.to_act[0]
        game.act(seat, rng.choice(game.view(seat)["legal"]))
    assert got == list(range(1, game.version + 1))
    assert len(ended) == (1 if game.is_over else 0)


def test_a_handlers_keyboard_interrupt_comes_after_every_other_handler_and_queued_batch() -> None:
    game = cardcore.new_game("golf", 2, seed=7)
    got: list[tuple[str, int]] = []

    def stop_then_act(event: ActionApplied) -> None:
        if event.version == 1:
            game.act(*_next_move(game))
            raise _Stop

    game.events.subscribe(ActionApplied, stop_then_act)
    game.events.subscribe(ActionApplied, lambda e: got.append(("log", e.version)))
    with pytest.raises(_Stop):
        game.act(*_next_move(game))
    assert got == [("log", 1), ("log", 2)]
    game.act(*_next_move(game))
    assert got[-1] == ("log", 3)


def test_a_game_ended_by_its_deal_publishes_start_and_end_once(
    house_rule: Callable[..., str],
) -> None:
    heard: list[str] = []
    observed: list[str] = []

    @hookimpl
    def on_event(event: Event) -> None:
        observed.append(type(event).__name__)

    rule = house_rule("tonk", on_event=on_event)
    game = cardcore.new_game(
        "tonk",
        2,
        seed=150,
        rules=[rule],
        subscribers=[(Event, lambda e: heard.append(type(e).__name__))],
    )
    assert game.is_over and game.result is not None and game.result.reason == "natural"
    assert heard[0] == "GameStarted" and heard[-1] == "GameEnded"
    assert heard.count("GameStarted") == heard.count("GameEnded") == 1
    assert observed == heard  # the plugin heard the same batch, once
    bus = game.events
    assert bus._queued == {} and bus._orphans == {} and bus._deliverer == 0
    assert bus._next_batch == 1


def test_the_documented_ticket_then_deliver_sequence_still_works() -> None:
    bus = cardcore.EventBus()
    got: list[int] = []
    bus.subscribe(ActionApplied, lambda e: got.append(e.version))
    batch: list[Event] = [ActionApplied(0, "a", 1)]
    bus.deliver(bus.ticket(), batch)  # type: ignore[call-arg]
    assert got == [1]


def test_subscribe_and_unsubscribe_from_another_thread_while_three_threads_act() -> None:
    game = cardcore.new_game("spit", 2, seed=5)
    bus = game.events
    stop = threading.Event()
    churned: list[list[int]] = []
    errors: dict[str, BaseException] = {}

    def churn() -> None:
        while not stop.is_set():
            got: list[int] = []
            sub = bus.subscribe(ActionApplied, got.append)
            time.sleep(0.001)
            bus.unsubscribe(sub)
            churned.append([e.version for e in got])  # type: ignore[attr-defined]

    churner = _thread(churn, errors, "churn")
    try:
        out = _spit_stress(game, threads=3, per=120, seed=5)
    finally:
        stop.set()
        _join_all(churner)
    assert errors == {}
    want = list(range(1, game.version + 1))
    assert all(stream == want for stream in out["streams"])
    assert out["overlap"] == []
    for versions in churned:  # each short-lived subscriber: increasing, none twice
        assert versions == sorted(set(versions))
    assert any(churned), "the churning subscriber never heard anything"


def _raise_at_line(function: str, text: str, module: str) -> Callable[..., Any]:
    """A trace function raising _Stop before the first line of *function* (in *module*) whose
    source is *text* (a signal's handler runs there when the line before ends with a call)."""

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


def test_an_interrupt_as_the_batch_is_numbered_loses_no_event() -> None:
    game = cardcore.new_game("golf", 2, seed=7)
    got: list[int] = []
    game.events.subscribe(ActionApplied, lambda e: got.append(e.version))
    errors: dict[str, BaseException] = {}
    move = _next_move(game)
    line = "queued[ticket] = (get_ident(), batch)"  # after next(tickets) returned

    def first() -> None:
        sys.settrace(_raise_at_line("kept", line, "_subscriptions.py"))
        try:
            game.act(*move)  # act's path: commit, numbered
        finally:
            sys.settrace(None)

    _join_all(_thread(first, errors, "A"))
    assert isinstance(errors.pop("A", None), _Stop), "the interrupt point was not reached"
    assert game.version == 1  # the action stands
    _join_all(_thread(lambda: game.act(*_next_move(game)), errors, "B"))
    assert errors == {}
    assert game.version == 2
    assert got == [1, 2]
