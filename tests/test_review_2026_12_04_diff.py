"""Findings of the review of the engine changes of 4 December 2026 (76233e5..a1cfc07): the
re-entry check, the event bus's turn and orphans, truncation's GameEnded, Golf's scorer
check. Three bugs were filed as strict xfails and fixed in bb2d44f; their tests stay as
regression tests (each failed before the fix, as its docstring says). The other tests pin
what the review checked and found right.
"""

from __future__ import annotations

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
from cardcore import ActionApplied, GameEnded, PluginError, RuleInfo, hookimpl

_NUMBERS = itertools.count(1)


@pytest.fixture
def house_rule() -> Iterator[Callable[..., str]]:
    """Register a throw-away house rule with the given hooks (docs/hooks.rst's way)."""
    names: list[str] = []

    def make(game: str, **hooks: Any) -> str:
        n = next(_NUMBERS)
        name = f"{game}.review-1204-{n}"
        module = types.ModuleType(f"review_1204_{game}_{n}")
        module.RULE = RuleInfo(  # type: ignore[attr-defined]
            id=f"TEST-REVIEW-1204-{n}", name=name, game=game, summary="diff review"
        )
        vars(module).update(hooks)
        cardcore.register("cardcore.rules", name, module)
        names.append(name)
        return name

    yield make
    for name in names:
        cardcore.unregister("cardcore.rules", name)


def _finishes(fn: Callable[[], Any], seconds: float = 5.0) -> Any:
    """Run *fn* in a daemon thread; fail (rather than hang the suite) if it never returns."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:
            out["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "the call never returned (it waits for itself)"
    if "error" in out:
        raise out["error"]
    return out.get("value")


def _calling_back(box: dict[str, Any]) -> Callable[..., None]:
    @hookimpl
    def forbid_action(state: Any, action: Any) -> None:
        call = box.get("call")
        if call is not None:
            call()

    return forbid_action


# --- _reentry: a hook calling back into its own game ---------------------------------------


@pytest.mark.parametrize("game_name", ["spit", "speed"])
def test_a_real_time_hook_calling_back_from_legal_actions_is_refused(
    house_rule: Callable[..., str], game_name: str
) -> None:
    """docs/hooks.rst: a hook calling back into the game it answers for is refused (its
    rule's PluginError, the game unchanged). Turn-based games refused it; in Spit and
    Speed ``legal_actions`` goes through ``legal_for``, bound as ``Game._legal_for``, which
    the stack walk took for a Game method that released the lock: the call waited for
    itself forever (fixed in bb2d44f: only functions defined in Game count)."""
    box: dict[str, Any] = {}
    rule = house_rule(game_name, forbid_action=_calling_back(box))
    game = cardcore.new_game(game_name, 2, seed=1, rules=[rule])
    seat = game.to_act[0]
    before = game.save()
    box["call"] = lambda: game.view(0)
    with pytest.raises(PluginError, match="never calls back") as caught:
        _finishes(lambda: game.legal_actions(seat), seconds=3.0)
    assert caught.value.plugin == rule
    box.clear()
    assert game.save() == before  # nothing changed, and the game plays on
    assert _finishes(lambda: game.legal_actions(seat))


# --- Golf: a rule's scorer answering a bad number is the rule's fault ----------------------


def _play_until_refused(game: cardcore.Game) -> PluginError:
    rng = random.Random(1)
    for _ in range(5000):
        assert not game.is_over, "the scorer's answer was never refused"
        before = game.save()
        seat = game.to_act[0]
        try:
            game.apply(rng.choice(game.legal_actions(seat)))
        except PluginError as error:
            assert game.save() == before  # refused and undone
            return error
    pytest.fail("the scorer was never used")


@pytest.mark.parametrize("answer", [10**16, -(10**16)])
def test_a_golf_scorer_answering_an_int_too_big_is_blamed_on_its_rule(
    house_rule: Callable[..., str], answer: int
) -> None:
    """checked_answer's contract for a rule's number: an int at most 1e15 in size, else the
    rule's PluginError. The scorer's ``2.5`` or ``True`` was named; its 10**16 passed the
    ``type(x) is not int`` filter and the core refused the round as golf's (fixed in
    bb2d44f: every answer is checked)."""

    @hookimpl
    def golf_scorer(layout: Any) -> Callable[..., Any]:
        return lambda keys, points: answer

    rule = house_rule("golf", golf_scorer=golf_scorer)
    game = cardcore.new_game("golf", 2, rules=[rule], options={"rounds": 2}, seed=2)
    assert _play_until_refused(game).plugin == rule


@pytest.mark.parametrize("answer", [2.5, True, "3"])
def test_a_golf_scorer_answering_no_int_is_blamed_on_its_rule(
    house_rule: Callable[..., str], answer: Any
) -> None:
    @hookimpl
    def golf_scorer(layout: Any) -> Callable[..., Any]:
        return lambda keys, points: answer

    rule = house_rule("golf", golf_scorer=golf_scorer)
    game = cardcore.new_game("golf", 2, rules=[rule], options={"rounds": 2}, seed=2)
    error = _play_until_refused(game)
    assert error.plugin == rule
    assert "golf_scorer" in str(error)


# --- _reentry: a thread that only waits for another is let wait ----------------------------


def _held_elsewhere(game: cardcore.Game, seconds: float) -> threading.Thread:
    """Hold *game*'s lock from another thread for *seconds* (returns once it is held)."""
    taken = threading.Event()

    def hold() -> None:
        with game._lock:  # the lock itself: another thread's long locked call
            taken.set()
            time.sleep(seconds)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert taken.wait(5)
    return holder


WAITING_CALLS: dict[str, Callable[[cardcore.Game], Any]] = {
    "clone": lambda g: g.clone().version,
    "determinize": lambda g: g.determinize(0, 5).version,
    "truncate": lambda g: (g.truncate(), g.result.reason if g.result else None)[1],
    "history": lambda g: len(g.history(0)),
    "record_entries": lambda g: len(g.record_entries()),
    "position": lambda g: g.position(),
    "legal_actions_real_time": lambda g: len(g.legal_actions(0)),
}


@pytest.mark.parametrize("call", sorted(WAITING_CALLS))
def test_a_plain_call_waits_for_another_thread_holding_the_lock(call: str) -> None:
    """No false alarm: a call that finds the lock taken by another thread waits, whatever
    Game method it goes through (clone inside determinize, truncate's held(), ...)."""
    game = cardcore.new_game("spit" if call.endswith("real_time") else "golf", 2, seed=1)
    expected = WAITING_CALLS[call](game.clone())  # what it answers uncontended
    release = threading.Event()
    taken = threading.Event()

    def hold() -> None:  # another thread's long locked call, ended by the test, not a clock
        with game._lock:
            taken.set()
            release.wait(10)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert taken.wait(5)
    out: dict[str, Any] = {}
    caller = threading.Thread(target=lambda: out.update(value=WAITING_CALLS[call](game)))
    caller.daemon = True
    caller.start()
    caller.join(0.2)
    assert caller.is_alive() and not out  # it waits while the lock is held elsewhere
    release.set()
    caller.join(5)
    assert not caller.is_alive(), "the call never returned once the lock was free"
    assert out == {"value": expected}
    holder.join(5)


def test_a_subscriber_of_truncation_waits_for_another_thread_rather_than_being_refused() -> None:
    """truncate() now delivers GameEnded after the lock: its handler's read of the game waits
    for another thread's locked call instead of being taken for a call back."""
    game = cardcore.new_game("golf", 2, seed=1)
    seen: list[tuple[str, bool]] = []

    def handler(event: GameEnded) -> None:
        holder = _held_elsewhere(game, 0.2)
        seen.append((event.reason, game.view(0)["is_over"]))
        holder.join(5)

    game.events.subscribe(GameEnded, handler)
    _finishes(game.truncate)
    assert seen == [("truncated", True)]
    _finishes(game.truncate)  # a second truncation publishes nothing
    assert seen == [("truncated", True)]


# --- the event bus: batches an interrupted thread left --------------------------------------


class _Stop(BaseException):
    """An interrupt, as KeyboardInterrupt (raised here by a trace function, at a known point)."""


def _interrupt_in(where: Callable[[Any], bool]) -> Callable[..., Any]:
    """A trace function raising _Stop at the first line of EventBus._wait_turn where
    *where(frame)* holds: an interrupt (a signal handler's exception) arriving there."""

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line" and where(frame):
            sys.settrace(None)
            raise _Stop
        return local

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_name == "_wait_turn" else None

    return tracer


def _in_thread(fn: Callable[[], Any], tracer: Callable[..., Any] | None = None) -> threading.Thread:
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


def _waits_for_turn(thread: threading.Thread) -> bool:
    frame = sys._current_frames().get(thread.ident or -1)
    names = []
    while frame is not None:
        names.append(frame.f_code.co_name)
        frame = frame.f_back
    return "_wait_turn" in names and "wait" in names


def _left_batch_taken_up(c_tracer: Callable[..., Any]) -> tuple[list[int], bool]:
    """Thread A delivers version 1 slowly; B acts (version 2) and is interrupted as it
    starts waiting for its turn, so its batch is left; C acts (version 3) under
    *c_tracer*, waits behind it and takes B's batch up when A is done; then D acts
    (version 4). Returns what the subscriber heard, and whether D's act hung."""
    game = cardcore.new_game("golf", 2, seed=7)
    bus = game.events
    inside, go = threading.Event(), threading.Event()
    got: list[int] = []

    def slow(event: ActionApplied) -> None:
        got.append(event.version)
        if event.version == 1:
            inside.set()
            go.wait(10)

    bus.subscribe(ActionApplied, slow)
    a = _in_thread(lambda: game.act(0, "flip 0"))
    try:
        assert inside.wait(5)  # A delivers version 1, slowly
        b = _in_thread(  # B: interrupted as it starts waiting for its turn
            lambda: game.act(0, "flip 1"),
            _interrupt_in(
                lambda f: "_cond.wait" in linecache.getline(f.f_code.co_filename, f.f_lineno)
            ),
        )
        b.join(5)
        assert not b.is_alive() and game.version == 2  # its action stands, its batch is left
        assert bus._orphans, "B's batch was not left (the scenario did not happen)"
        c = _in_thread(lambda: game.act(1, "flip 0"), c_tracer)
        deadline = time.monotonic() + 5
        while not _waits_for_turn(c) and time.monotonic() < deadline:
            time.sleep(0.001)
        assert _waits_for_turn(c)
        go.set()
        a.join(5)
        c.join(5)
        assert not a.is_alive() and not c.is_alive() and game.version == 3
        d = _in_thread(lambda: game.act(1, "flip 1"))
        d.join(2)
        hung = d.is_alive()
        if hung:  # let the stuck thread go (private: only to clean up after the finding)
            with bus._cond:
                bus._next_batch += 1
                bus._cond.notify_all()
            d.join(5)
        return got, hung
    finally:
        go.set()


def _took_version_2(frame: Any) -> bool:
    """In _wait_turn: batch 1 (version 2) is next and no longer left: this thread took it."""
    bus = frame.f_locals["self"]
    return bool(bus._next_batch == 1 and 1 not in bus._orphans)


def test_an_interrupt_as_a_waiter_takes_up_a_left_batch_loses_nothing_and_hangs_nothing() -> None:
    """docs (EventBus): an interrupt reaching a thread while it waits for its turn is raised
    at once, and its batch is delivered in its turn by the next thread. Thread C, waiting
    behind B's left batch, takes it up, and an interrupt reaches C just after it took it (a
    signal's handler runs after a C call such as ``dict.pop`` returns; here a trace
    function raises at the next line). Before bb2d44f, B's batch was then in nobody's
    hands and the turn stayed on it: the next act (D) waited forever and no subscriber
    heard of versions 2 to 4. Now C puts it back and D delivers everything in order."""
    got, hung = _left_batch_taken_up(_interrupt_in(_took_version_2))
    assert not hung, "the next act never returned: the turn stays on a batch nobody holds"
    assert got == [1, 2, 3, 4]


def _interrupt_entering_deliver(frame: Any, event: str, arg: Any) -> Any:
    """A trace function raising _Stop as EventBus._deliver is entered (where a pending
    signal's handler runs: a function's first instruction checks for it)."""
    if event == "call" and frame.f_code.co_name == "_deliver":
        sys.settrace(None)
        raise _Stop
    return None


def test_an_interrupt_before_a_taken_up_batch_reaches_a_handler_leaves_it_again() -> None:
    """_wait_turn's docstring (bb2d44f): "Interrupted before handing such a batch to its
    handlers, this thread leaves it again; after, it hands the turn on." C takes B's left
    batch (version 2) up and is interrupted as it enters ``_deliver``, before any handler
    has had it; ``started`` is already set, so C hands the turn on: D delivers versions 3
    and 4 and version 2 never reaches the subscriber."""
    got, hung = _left_batch_taken_up(_interrupt_entering_deliver)
    assert not hung
    assert got == [1, 2, 3, 4]
