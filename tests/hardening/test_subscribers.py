"""Finding 1: a subscriber that raises never fails an applied action nor costs others an event.

Each handler is isolated: its exception is logged on ``cardcore.events`` and handed to the
bus's ``on_error``; the rest of the batch reaches everybody; a handler runs in the thread
whose ``apply`` produced the event, after the lock and in version order.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import TYPE_CHECKING

import pytest

import cardcore
from cardcore import ActionApplied, CardDrawn, Event, IllegalActionError, NotationError
from tests.conftest import register_test_plugins

if TYPE_CHECKING:  # imported here so this module also runs on the code before the fix
    from cardcore import DeliveryFailure

register_test_plugins()


def _reset(event: Event) -> None:
    raise ConnectionResetError("peer went away")


def test_raising_subscriber_does_not_fail_the_action_and_others_get_the_event(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = cardcore.new_game("golf", 2, seed=3)
    for _ in range(4):  # the four initial flips
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    failures: list[DeliveryFailure] = []
    game.events.on_error = failures.append
    got: list[Event] = []
    game.events.subscribe(CardDrawn, _reset, seat=0)
    game.events.subscribe(CardDrawn, got.append, seat=1)
    game.events.subscribe(Event, got.append)
    seat = game.to_act[0]
    version = game.version
    with caplog.at_level(logging.ERROR, logger="cardcore.events"):
        action = game.act(seat, "draw")  # before the fix: ConnectionResetError, version moved
    assert game.version == version + 1 and game.record_entries()[-1][1] == action
    drawn = [e for e in got if isinstance(e, CardDrawn)]
    assert len(drawn) == 2  # seat 1's redacted copy and the host's full one
    assert any(isinstance(e, ActionApplied) for e in got)
    assert len(failures) == 1 and isinstance(failures[0].error, ConnectionResetError)
    assert failures[0].subscription is not None and not failures[0].dropped
    assert "ConnectionResetError" in caplog.text and "card-drawn" in caplog.text


def test_a_failing_handler_whose_repr_also_fails_costs_nobody_an_event() -> None:
    class Conn:  # a connection whose repr reads a socket that is closed by now
        def __repr__(self) -> str:
            raise OSError("bad file descriptor")

        def send(self, event: Event) -> None:
            raise ConnectionResetError("gone")

    game = cardcore.new_game("golf", 2, seed=7)
    got: list[Event] = []
    failures: list[cardcore.DeliveryFailure] = []
    game.events.on_error = failures.append
    game.events.subscribe(Event, Conn().send, seat=0)
    game.events.subscribe(Event, got.append, seat=1)
    game.act(0, str(game.legal_actions(0)[0]))  # applied, and no error reaches the caller
    assert game.version == 1
    assert got and len(failures) == len(got)  # every event reached the healthy subscriber


def test_drop_on_error_removes_only_the_failing_subscription() -> None:
    game = cardcore.new_game("drawgame", 2, seed=1)
    calls: list[Event] = []

    def flaky(event: Event) -> None:
        calls.append(event)
        raise RuntimeError("once")

    failures: list[DeliveryFailure] = []
    game.events.on_error = failures.append
    game.events.subscribe(Event, flaky, drop_on_error=True)
    kept: list[Event] = []
    game.events.subscribe(Event, kept.append)
    for _ in range(3):
        game.apply(game.legal_actions(game.to_act[0])[0])
    assert len(calls) == 1 and failures[0].dropped
    assert len(kept) >= 3


def test_a_failing_on_error_callback_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    game = cardcore.new_game("drawgame", 2, seed=1)
    game.events.on_error = _reset
    game.events.subscribe(Event, _reset)
    with caplog.at_level(logging.ERROR, logger="cardcore.events"):
        game.apply(game.legal_actions(game.to_act[0])[0])
    assert "on_error" in caplog.text


def test_keyboard_interrupt_in_a_handler_propagates_after_the_action_is_applied() -> None:
    game = cardcore.new_game("drawgame", 2, seed=1)

    def stop(event: Event) -> None:
        raise KeyboardInterrupt

    sub = game.events.subscribe(ActionApplied, stop)
    with pytest.raises(KeyboardInterrupt):
        for _ in range(4):
            game.apply(game.legal_actions(game.to_act[0])[0])
    version = game.version
    game.events.unsubscribe(sub)
    got: list[Event] = []
    game.events.subscribe(Event, got.append)
    game.apply(game.legal_actions(game.to_act[0])[0])  # the bus still delivers
    assert game.version == version + 1 and got


def test_handler_that_acts_has_its_events_delivered_after_the_current_batch() -> None:
    game = cardcore.new_game("drawgame", 2, seed=1)
    order: list[int] = []
    depth = [0]

    def on_applied(event: ActionApplied) -> None:
        order.append(event.version)
        depth[0] += 1
        if event.version < 6 and not game.is_over:
            game.apply(game.legal_actions(game.to_act[0])[0])
        depth[0] -= 1

    game.events.subscribe(ActionApplied, on_applied)
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert order == [1, 2, 3, 4, 5, 6]
    assert game.version == 6


def _worker(
    game: cardcore.Game,
    seat: int,
    seed: int,
    stop: float,
    inside: threading.local,
    errors: list[BaseException],
) -> None:
    rng = random.Random(seed)
    try:
        while time.monotonic() < stop and not game.is_over:
            legal = game.legal_actions(seat)
            if not legal:
                time.sleep(0)
                continue
            inside.seat = seat
            try:
                game.apply(rng.choice(legal))
            except (IllegalActionError, NotationError):
                pass
            finally:
                inside.seat = None
    except BaseException as exc:  # any exception here is a failure of the test
        errors.append(exc)


@pytest.mark.parametrize("name", ["spit", "racegame"])
def test_threads_deliver_their_own_events_in_version_order(name: str) -> None:
    """Each ActionApplied is delivered by the thread that applied it, inside its apply."""
    game = cardcore.new_game(
        name, 2, seed=11, options={"rounds": 40} if name == "racegame" else None
    )
    inside = threading.local()
    delivered: list[int] = []
    wrong: list[str] = []
    failures: list[DeliveryFailure] = []
    game.events.on_error = failures.append

    def check(event: ActionApplied) -> None:
        seat = getattr(inside, "seat", None)
        if seat != event.seat:
            wrong.append(
                f"version {event.version} of seat {event.seat} delivered in seat {seat}'s thread"
            )
        delivered.append(event.version)

    def boom(event: ActionApplied) -> None:  # seat 0's forwarder keeps failing
        if event.seat == 0:
            raise ConnectionResetError("seat 0 left")

    game.events.subscribe(ActionApplied, check)
    game.events.subscribe(ActionApplied, boom)
    errors: list[BaseException] = []
    stop = time.monotonic() + 1.5
    threads = [
        threading.Thread(target=_worker, args=(game, seat, 100 * k + seat, stop, inside, errors))
        for seat in (0, 1)
        for k in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert not any(t.is_alive() for t in threads)
    assert not errors, errors[:3]  # no handler exception ever reached an apply()
    assert not wrong, wrong[:5]
    assert delivered == list(range(1, game.version + 1))
    assert game.version > 20
    assert failures and all(f.event.seat == 0 for f in failures)


class _Stop(BaseException):
    """A plugin's own BaseException, like KeyboardInterrupt."""


@pytest.mark.parametrize("where", ["handler", "on_error", "nested"])
def test_a_handlers_base_exception_costs_no_other_handler_an_event(where: str) -> None:
    """It propagates from the act once everybody has had the batch (it used to drop the
    rest of the batch for every later handler and seat)."""
    game = cardcore.new_game("golf", 2, seed=7)
    host: list[str] = []
    seat1: list[str] = []
    armed = [False]

    def stop(event: Event) -> None:
        if armed[0] and event.slug == "action-applied":
            armed[0] = False
            if where == "handler":
                raise _Stop
            if where == "nested":  # a handler that acts: its batch is queued, then raises
                game.act(1, "flip 0")
                raise _Stop
            raise RuntimeError("reported to on_error, which stops")

    def on_error(failure: DeliveryFailure) -> None:
        raise _Stop

    game.events.on_error = on_error
    game.events.subscribe(Event, stop)
    game.events.subscribe(Event, host.append)
    game.events.subscribe(Event, seat1.append, seat=1)
    game.act(0, "flip 0")
    armed[0] = True
    with pytest.raises(_Stop):
        game.act(0, "flip 1")  # seat 0's second flip; seat 1 is next
    assert game.version == (3 if where == "nested" else 2)
    slugs = [e.slug for e in host]
    assert slugs.count("action-applied") == game.version  # every action reached the host
    assert [e.slug for e in seat1] == slugs  # and seat 1, in the same order


def test_the_first_base_exception_of_a_delivery_is_raised_and_a_later_one_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class _Other(BaseException):
        pass

    game = cardcore.new_game("golf", 2, seed=7)
    got: list[str] = []

    def first(event: Event) -> None:
        raise _Stop

    def second(event: Event) -> None:
        raise _Other

    game.events.subscribe(ActionApplied, first)
    game.events.subscribe(ActionApplied, second)
    game.events.subscribe(ActionApplied, lambda e: got.append(e.action))
    with caplog.at_level(logging.ERROR, logger="cardcore.events"), pytest.raises(_Stop):
        game.act(0, "flip 0")
    assert got == ["flip 0"]  # the last handler still had it
    assert any(
        "_Other during the same delivery was not raised" in r.getMessage() for r in caplog.records
    )
