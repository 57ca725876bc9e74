"""Code a game runs under its lock that calls back into the same game is refused, never
left to wait for itself forever; a thread that only waits for another is let wait."""

from __future__ import annotations

import threading
import time
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import cardcore
from cardcore import RuleInfo, hookimpl

NAME = "golf.calls-back"


@pytest.fixture
def calling_back() -> Iterator[dict[str, Any]]:
    """A Golf house rule whose ``forbid_action`` runs ``box["call"]()`` when one is set."""
    box: dict[str, Any] = {"call": None}
    module = types.ModuleType("calls_back")

    @hookimpl
    def forbid_action(state: Any, action: Any) -> None:
        if box["call"] is not None:
            box["call"]()

    module.forbid_action = forbid_action  # type: ignore[attr-defined]
    module.RULE = RuleInfo(id="TEST-REENTRY-1", name=NAME, game="golf", summary="calls back")  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", NAME, module)
    try:
        yield box
    finally:
        cardcore.unregister("cardcore.rules", NAME)


def _finishes(fn: Callable[[], Any], seconds: float = 10.0) -> Any:
    """Run *fn* in a thread; fail (rather than hang the suite) if it does not return."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:
            out["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "the call never returned (waiting for itself)"
    if "error" in out:
        raise out["error"]
    return out.get("value")


CALLS: dict[str, Callable[[cardcore.Game], Any]] = {
    "view": lambda g: g.view(0),
    "apply": lambda g: g.apply(g.legal_actions(0)[0]),
    "act": lambda g: g.act(0, "flip 0"),
    "legal_actions": lambda g: g.legal_actions(1),
    "clone": lambda g: g.clone(),
    "save": lambda g: g.save(),
    "record": lambda g: g.record(),
    "position": lambda g: g.position(),
    "history": lambda g: g.history(),
    "record_entries": lambda g: g.record_entries(),
    "truncate": lambda g: g.truncate(),
    "determinize": lambda g: g.determinize(0, 5),
}


@pytest.mark.parametrize("method", sorted(CALLS))
def test_a_hook_calling_back_into_its_game_is_the_rules_plugin_error(
    calling_back: dict[str, Any], method: str
) -> None:
    game = cardcore.new_game("golf", 2, seed=1, rules=[NAME])
    before = game.save()
    calling_back["call"] = lambda: CALLS[method](game)
    with pytest.raises(cardcore.PluginError) as caught:
        _finishes(lambda: game.legal_actions(0))
    assert caught.value.plugin == NAME
    message = str(caught.value)
    blocked = {"apply": "legal_actions", "determinize": "clone"}.get(method, method)
    assert f"called its {blocked}()" in message  # the method that would have waited
    assert "never calls back into its own game" in message
    calling_back["call"] = None
    assert game.save() == before  # nothing changed
    game.apply(game.legal_actions(0)[0])  # and the game plays on
    assert game.version == 1


def test_a_hook_calling_back_while_apply_publishes_leaves_the_action_standing(
    calling_back: dict[str, Any],
) -> None:
    game = cardcore.new_game("golf", 2, seed=1, rules=[NAME])
    action = game.legal_actions(0)[0]
    calling_back["call"] = lambda: game.view(0)
    _finishes(lambda: game.apply(action))  # the next legal set is left unpublished
    assert game.version == 1
    with pytest.raises(cardcore.PluginError, match="never calls back"):
        _finishes(lambda: game.legal_actions(game.to_act[0]))  # asked again: refused again
    calling_back["call"] = None
    assert game.legal_actions(game.to_act[0])
    assert cardcore.replay(game.record()).save() == game.save()


def test_a_clock_calling_back_is_refused_and_changes_nothing() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    before = game.save()
    seat = game.to_act[0]
    action = game.legal_actions(seat)[0]

    def clock() -> float:
        game.view(0)
        return 1.0

    with pytest.raises(cardcore.CardcoreError, match=r"in apply\(\).*called its view\(\)"):
        _finishes(lambda: game.apply(action, at=clock))
    assert game.save() == before


def _held_elsewhere(game: cardcore.Game, seconds: float) -> tuple[threading.Thread, list[float]]:
    """Hold *game*'s lock from another thread for *seconds* (returns once it is held), and
    the list to which it appends the time just before it lets the lock go: a call that
    waited ends after that time, however late the test's own thread ran."""
    taken = threading.Event()
    letting_go: list[float] = []

    def hold() -> None:
        with game._lock:  # the lock itself: a thread doing a long locked call
            taken.set()
            time.sleep(seconds)
            letting_go.append(time.monotonic())

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert taken.wait(5)
    return holder, letting_go


def test_a_subscriber_waits_for_another_thread_rather_than_being_refused() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    seen: list[int] = []
    waited: list[float] = []

    def handler(event: cardcore.ActionApplied) -> None:  # delivered after the lock is released
        holder, letting_go = _held_elsewhere(game, 0.3)
        seen.append(game.view(0)["version"])  # waits for the other thread, then reads
        read_at = time.monotonic()
        waited.append(read_at - letting_go[0] if letting_go else -1.0)
        holder.join(5)

    game.events.subscribe(cardcore.ActionApplied, handler)
    _finishes(lambda: game.apply(game.legal_actions(0)[0]))
    assert seen == [1]
    assert waited[0] >= 0  # it read after the other thread let the lock go


@pytest.mark.parametrize("call", ["apply", "view", "save", "end"])
def test_a_plain_call_waits_for_another_thread(call: str) -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    holder, letting_go = _held_elsewhere(game, 0.2)
    if call == "apply":
        _finishes(lambda: game.apply(game.legal_actions(0)[0]))
        assert game.version == 1
    elif call == "view":
        assert _finishes(lambda: game.view(0))["version"] == 0
    elif call == "save":
        assert _finishes(game.save)["record"]["actions"] == []
    else:  # the host's "end" applies without taking the lock in act() first
        _finishes(lambda: game.act(cardcore.HOST, "end"))
        assert game.is_over
    assert letting_go and time.monotonic() >= letting_go[0]  # it waited for the other thread
    holder.join(5)


def test_threads_contending_for_one_game_are_never_refused() -> None:
    game = cardcore.new_game("golf", 4, seed=3)
    errors: list[BaseException] = []
    stop = threading.Event()

    def reader() -> None:
        try:
            while not stop.is_set():
                game.view(1)
                game.clone()
        except BaseException as exc:
            errors.append(exc)

    readers = [threading.Thread(target=reader, daemon=True) for _ in range(2)]
    for r in readers:
        r.start()
    try:
        for _ in range(400):
            if game.is_over:
                break
            seat = game.to_act[0]
            view = game.view(seat)
            game.apply(game.legal_actions(seat)[0], seen=view["version"])
    finally:
        stop.set()
        for r in readers:
            r.join(10)
    assert not errors
    assert cardcore.replay(game.record()).version == game.version
