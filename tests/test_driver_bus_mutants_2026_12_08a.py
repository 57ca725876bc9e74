"""Mutation review (2026-12-08a) of applying an action and delivering its events:
``_driver.py``, ``_bus.py`` and ``_subscriptions.py``.

Each test here kills a mutant the existing suites let survive (named in its docstring),
or pins a promise that held: an apply is transactional (a failing hook leaves version,
state, record, events and the legal actions as they were), events are delivered after
the lock in version order to the right subscribers only, a failing subscriber or
observer costs nobody else an event, hidden cards stay hidden per seat.
"""

from __future__ import annotations

import json
import logging
import random
import types
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

import cardcore
from cardcore import (
    ALL,
    SPECTATOR,
    ActionApplied,
    Card,
    DeliveryFailure,
    EndMatch,
    Event,
    EventBus,
    GameEnded,
    IllegalActionError,
    PluginError,
    Resign,
    RuleInfo,
    SeatError,
    StaleActionError,
    hookimpl,
)
from cardcore._bus import Observers
from cardcore.errors import ArgumentError

# -- events and helpers of the bus-only tests ------------------------------------------------


class Ping(Event):
    """A plain test event."""

    slug: ClassVar[str] = "test-drvbus-ping"
    n: int


class Hidden(Event):
    """A test event carrying a card only seat 0 may see."""

    slug: ClassVar[str] = "test-drvbus-hidden"
    secret: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    card: Card | None
    visible_to: int = ALL


def send(bus: EventBus, *events: Event) -> None:
    """Number and deliver one batch, as a game does after its lock."""
    batch = list(events)
    bus.deliver(bus.ticket(batch), batch)


def ended() -> GameEnded:
    return GameEnded((0,), (1.0, 2.0), None, "test")


# -- failing subscribers and observers cost nobody else an event ----------------------------


def test_a_failing_subscriber_costs_the_next_one_nothing_on_an_observed_bus() -> None:
    """Mutant: in the observers' delivery path, a failing subscriber ends the event's loop."""
    heard: list[Event] = []
    got: list[Event] = []
    failures: list[DeliveryFailure] = []
    bus = EventBus((lambda event: heard.append(event),), 2, on_error=failures.append)

    def bad(event: Event) -> None:
        raise ValueError("bad handler")

    bus.subscribe(Ping, bad)
    bus.subscribe(Ping, got.append)
    send(bus, Ping(1), Ping(2))
    assert got == [Ping(1), Ping(2)]
    assert heard == [Ping(1), Ping(2)]
    assert [f.event for f in failures] == [Ping(1), Ping(2)]


def test_a_failing_observer_costs_the_next_observer_and_the_subscribers_nothing() -> None:
    """Mutant: a plugin's failing ``on_event`` ends the observers' loop for that event."""
    later: list[Event] = []
    got: list[Event] = []

    def boom(event: Event) -> None:
        raise RuntimeError("observer down")

    bus = EventBus((boom, lambda event: later.append(event)), 2)
    bus.subscribe(Event, got.append)
    send(bus, Ping(1), Ping(2))
    assert later == [Ping(1), Ping(2)]
    assert got == [Ping(1), Ping(2)]


def test_an_observer_error_that_cannot_be_written_is_contained() -> None:
    """Mutant: ``error_text`` lets a failing ``str(exc)`` escape (it then left ``deliver``)."""

    class Mute(Exception):
        def __str__(self) -> str:
            raise ValueError("cannot say")

    def boom(event: Event) -> None:
        raise Mute

    later: list[Event] = []
    bus = EventBus((boom, lambda event: later.append(event)), 2)
    send(bus, Ping(1))  # raises nothing
    assert later == [Ping(1)]


def test_the_observer_failure_names_its_plugin() -> None:
    """Mutant: ``Observers.name_of`` matches the wrong implementation (``is not``)."""

    def boom(event: Event) -> None:
        raise RuntimeError("x")

    failures: list[DeliveryFailure] = []
    bus = EventBus(Observers([boom], ["test.the-observer"]), 2, on_error=failures.append)
    send(bus, Ping(1))
    assert [(f.plugin, f.subscription) for f in failures] == [("test.the-observer", None)]


def test_an_observers_first_failure_is_logged_with_its_traceback_later_ones_briefly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Mutant: the first failure is logged as a later one (``count == 2``)."""

    def boom(event: Event) -> None:
        raise RuntimeError("down")

    bus = EventBus(Observers([boom], ["test.obs"]), 2)
    with caplog.at_level(logging.DEBUG, logger="cardcore.events"):
        send(bus, Ping(1))
        send(bus, Ping(2))
    records = [r for r in caplog.records if r.name == "cardcore.events"]
    assert [r.levelno for r in records] == [logging.ERROR, logging.DEBUG]
    assert records[0].exc_info is not None and records[1].exc_info is None
    assert "test.obs" in records[0].getMessage()


def test_the_game_end_sums_up_an_observers_failures(caplog: pytest.LogCaptureFixture) -> None:
    """Mutant: the summary at :class:`GameEnded` is dropped ("when the game ends, one with
    the count (even a single failure)")."""

    def boom(event: Event) -> None:
        if isinstance(event, Ping):
            raise RuntimeError("down")

    bus = EventBus(Observers([boom], ["test.obs"]), 2)
    with caplog.at_level(logging.WARNING, logger="cardcore.events"):
        send(bus, Ping(1))
        send(bus, ended())
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["plugin 'test.obs': on_event raised once in this game"]


def test_an_observer_error_of_exactly_200_characters_is_logged_whole(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Mutant: ``error_text`` cuts at 200 characters, not above (``<`` for ``<=``)."""
    text = "e" * 199 + "!"

    def boom(event: Event) -> None:
        raise RuntimeError(text)

    bus = EventBus(Observers([boom], ["test.obs"]), 2)
    with caplog.at_level(logging.ERROR, logger="cardcore.events"):
        send(bus, Ping(1))
    assert text in caplog.records[0].getMessage()


# -- subscriptions: flags, removal, seats ----------------------------------------------------


def test_the_failure_of_a_dropped_subscription_names_the_handler_that_raised() -> None:
    """Mutant: ``DeliveryFailure.handler`` read after the drop (the do-nothing stand-in)."""
    failures: list[DeliveryFailure] = []
    bus = EventBus((), 2, on_error=failures.append)

    def bad(event: Event) -> None:
        raise ValueError("once")

    sub = bus.subscribe(Ping, bad, drop_on_error=True)
    send(bus, Ping(1), Ping(2))
    assert len(failures) == 1
    assert failures[0].dropped and failures[0].subscription is sub
    assert failures[0].handler is bad


def test_unsubscribing_a_handler_removes_every_subscription_of_it() -> None:
    """Mutant: only the first of a handler's subscriptions leaves the list (the others are
    hushed but still count: the bus stays active and wants the type)."""
    bus = EventBus((), 2)
    got: list[Event] = []
    bus.subscribe(Ping, got.append)
    bus.subscribe(Ping, got.append, seat=1)
    bus.unsubscribe(got.append)
    assert not bus.active and not bus.wants(Ping) and not bus.wants_game_events
    send(bus, Ping(1))
    assert got == []


def test_a_subscription_of_another_bus_removes_nothing() -> None:
    """Mutant: ``unsubscribe`` matches a handle by ``==`` (equal type, seat and token on
    another bus) rather than by identity."""
    a, b = EventBus((), 2), EventBus((), 2)
    got: list[Event] = []
    a.subscribe(Ping, got.append)
    other = b.subscribe(Ping, lambda event: None)
    a.unsubscribe(other)
    send(a, Ping(1))
    assert got == [Ping(1)]


def test_a_subscription_handle_hashes_the_same_after_unsubscribe() -> None:
    """Mutant: ``Subscription.handler`` takes part in equality (so in the hash, which then
    changes when ``unsubscribe`` swaps the handler): a host's set of handles loses it."""
    bus = EventBus((), 2)
    sub = bus.subscribe(Ping, lambda event: None)
    handles = {sub}
    bus.unsubscribe(sub)
    assert sub in handles


def test_a_handler_whose_comparison_raises_is_still_removed_by_itself() -> None:
    """Mutant: ``same_handler`` without its identity check (``==`` raises: no match)."""

    class Touchy:
        def __init__(self) -> None:
            self.got: list[Event] = []

        def __call__(self, event: Event) -> None:
            self.got.append(event)

        def __eq__(self, other: object) -> bool:
            raise TypeError("no comparing")

        __hash__ = object.__hash__

    touchy = Touchy()
    bus = EventBus((), 2)
    bus.subscribe(Ping, touchy)
    bus.unsubscribe(touchy)
    send(bus, Ping(1))
    assert touchy.got == [] and not bus.active


def test_a_failing_comparison_removes_nothing_else() -> None:
    """Mutant: ``same_handler`` counts a comparison that raised as a match."""

    class Touchy:
        def __init__(self) -> None:
            self.got: list[Event] = []

        def __call__(self, event: Event) -> None:
            self.got.append(event)

        def __eq__(self, other: object) -> bool:
            raise TypeError("no comparing")

        __hash__ = object.__hash__

    touchy = Touchy()
    bus = EventBus((), 2)
    bus.subscribe(Ping, touchy)
    bus.unsubscribe(print)  # never subscribed: removes nothing
    send(bus, Ping(1))
    assert touchy.got == [Ping(1)]


def test_a_subscription_removed_mid_batch_is_not_a_failure() -> None:
    """Mutant: the stand-in handler of a removed subscription raises (reported to on_error)."""
    failures: list[DeliveryFailure] = []
    bus = EventBus((), 2, on_error=failures.append)
    got: list[Event] = []
    handle: list[Any] = []
    bus.subscribe(Ping, lambda event: bus.unsubscribe(handle[0]))  # called first
    handle.append(bus.subscribe(Ping, got.append))
    send(bus, Ping(1), Ping(2))  # removed before its turn in Ping(1)'s delivery
    assert got == []
    assert failures == []


def test_a_seat_subscription_removed_while_its_copy_is_redacted_is_not_called() -> None:
    """Mutant: the fast delivery path calls the handler read before ``for_seat`` ran."""
    bus = EventBus((), 2)
    got: list[Event] = []
    handle: list[Any] = []

    class Unsubscribing(Hidden):
        slug: ClassVar[str] = "test-drvbus-unsubscribing"

        def for_seat(self, seat: int | str | None) -> Any:
            bus.unsubscribe(handle[0])
            return super().for_seat(seat)

    handle.append(bus.subscribe(Event, got.append, seat=1))
    send(bus, Unsubscribing(0, Card.parse("7H"), 1))
    assert got == []


@pytest.mark.parametrize("seat", [-1, 2, 3])
def test_subscribe_refuses_the_host_and_a_seat_past_the_last(seat: int) -> None:
    """Mutants: ``seat < -1`` and ``seat > seats`` in subscribe's check (CORE-SEAT-1)."""
    bus = EventBus((), 2)
    with pytest.raises(SeatError, match="CORE-SEAT-1"):
        bus.subscribe(Ping, lambda event: None, seat=seat)
    assert not bus.active


def test_a_bus_of_no_seats_is_refused() -> None:
    """Mutant: ``seats >= 0`` (the docstring: ``None`` or an int from 1)."""
    with pytest.raises(ArgumentError):
        EventBus((), 0)
    assert EventBus((), 1).seats == 1


def test_subscribing_and_unsubscribing_keeps_an_observed_bus_active() -> None:
    """Mutant: ``active`` forgets the observers once a subscription comes and goes."""
    bus = EventBus((lambda event: None,), 2)
    sub = bus.subscribe(ActionApplied, lambda event: None)
    bus.unsubscribe(sub)
    assert bus.active and bus.wants_applied and bus.wants_ended and bus.wants_game_events


def test_hidden_cards_stay_hidden_per_seat_on_both_delivery_paths() -> None:
    """Held: seat 1 and the spectator get the card blanked, seat 0 and the host see it, with
    and without an observer (the two delivery paths)."""
    card = Card.parse("QS")
    for observers in ((), (lambda event: None,)):
        bus = EventBus(observers, 2)
        streams: dict[Any, list[Event]] = {s: [] for s in (None, 0, 1, SPECTATOR)}
        for s, out in streams.items():
            bus.subscribe(Hidden, out.append, seat=s)
        send(bus, Hidden(0, card, 1 << 0))
        assert [streams[s][0].card for s in (None, 0, 1, SPECTATOR)] == [card, card, None, None]


# -- observed games: the observer keeps hearing ----------------------------------------------

HEARS = "golf.drvbus-hears"


@pytest.fixture
def heard() -> Iterator[list[str]]:
    """Slugs a Golf house rule's ``on_event`` receives (registered for the test only)."""
    slugs: list[str] = []
    module = types.ModuleType("drvbus_hears")

    @hookimpl
    def on_event(event: Any) -> None:
        slugs.append(event.slug)

    module.on_event = on_event  # type: ignore[attr-defined]
    module.RULE = RuleInfo(id="TEST-DRVBUS-1", name=HEARS, game="golf", summary="hears events")  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", HEARS, module)
    try:
        yield slugs
    finally:
        cardcore.unregister("cardcore.rules", HEARS)


def test_an_observer_hears_the_games_own_events_after_a_host_subscribes_to_action_applied(
    heard: list[str],
) -> None:
    """Mutant: ``wants_game_events`` recomputed at a subscription forgets the observers, so
    the game stops building its own events for them."""
    game = cardcore.new_game("golf", 2, rules=[HEARS], seed=3)
    applied: list[Event] = []
    game.events.subscribe(ActionApplied, applied.append)
    heard.clear()
    game.act(0, "flip 0")
    assert heard[0] == "action-applied" and len(heard) > 1  # the flip's own events too
    assert len(applied) == 1


def test_an_observer_hears_on_after_a_subscription_came_and_went(heard: list[str]) -> None:
    """Mutant: ``active`` counts subscriptions only (see the bus test above), on a game."""
    game = cardcore.new_game("golf", 2, rules=[HEARS], seed=3)
    game.events.unsubscribe(game.events.subscribe(Event, lambda event: None))
    heard.clear()
    game.act(0, "flip 0")
    assert heard and heard[0] == "action-applied"


# -- transactions ---------------------------------------------------------------------------

FAILS = "golf.drvbus-fails"
SWITCH: dict[str, Any] = {"on": False, "calls": 0}


@pytest.fixture
def failing_scores() -> Iterator[None]:
    """A Golf house rule whose ``score_round`` raises while ``SWITCH["on"]``."""
    module = types.ModuleType("drvbus_fails")

    @hookimpl
    def score_round(state: Any, scores: Any) -> Any:
        SWITCH["calls"] += 1
        if SWITCH["on"]:
            raise RuntimeError("scores down")
        return None

    module.score_round = score_round  # type: ignore[attr-defined]
    module.RULE = RuleInfo(id="TEST-DRVBUS-2", name=FAILS, game="golf", summary="scores may fail")  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", FAILS, module)
    SWITCH.update(on=False, calls=0)
    try:
        yield
    finally:
        SWITCH.update(on=False, calls=0)
        cardcore.unregister("cardcore.rules", FAILS)


def _to_scoring(game: cardcore.Game, rng: random.Random, twin: cardcore.Game | None = None) -> Any:
    """Play on until the action that would call ``score_round``; return it unapplied."""
    while True:
        action = rng.choice(game.legal_actions(game.to_act[0]))
        calls = SWITCH["calls"]
        probe = game.clone()
        probe.apply(action)
        scored = SWITCH["calls"] > calls
        SWITCH["calls"] = calls
        if scored:
            return action
        game.apply(action)
        if twin is not None:
            twin.apply(action)


def _dump(game: cardcore.Game) -> str:
    return json.dumps(game.save(), sort_keys=True)


def test_failing_twice_after_a_checkpoint_still_restores_exactly(failing_scores: None) -> None:
    """Mutant: ``restore`` takes the checkpoint itself as the state (no clone), so the next
    change or restore works on a spoiled checkpoint."""
    options = {"rounds": 3}
    game = cardcore.new_game("golf", 2, rules=[FAILS], options=options, seed=11)
    twin = cardcore.new_game("golf", 2, rules=[FAILS], options=options, seed=11)
    rng = random.Random(4)
    first = _to_scoring(game, rng, twin)  # round 1 scores: a checkpoint
    game.apply(first)
    twin.apply(first)
    action = _to_scoring(game, rng, twin)  # round 2 played up to its scoring action
    before = _dump(game)
    SWITCH["on"] = True
    for _ in range(2):
        with pytest.raises(PluginError, match="scores down"):
            game.apply(action)
        assert _dump(game) == before
    SWITCH["on"] = False
    game.apply(action)
    twin.apply(action)
    assert _dump(game) == _dump(twin)


def test_a_failing_apply_changes_nothing_a_host_can_see(failing_scores: None) -> None:
    """Held: version, record, save, views, legal actions, events (none delivered) unchanged;
    the plugin's error is the cause of the PluginError; the same action goes through later."""
    game = cardcore.new_game("golf", 2, rules=[FAILS], options={"rounds": 2}, seed=5)
    action = _to_scoring(game, random.Random(2))
    got: list[Event] = []
    game.events.subscribe(Event, got.append)
    seat = action.seat
    before = (game.version, game.record(), _dump(game), game.view(seat), game.legal_actions(seat))
    SWITCH["on"] = True
    with pytest.raises(PluginError) as info:
        game.apply(action)
    assert isinstance(info.value.__cause__, RuntimeError)
    after = (game.version, game.record(), _dump(game), game.view(seat), game.legal_actions(seat))
    assert after == before and got == []
    SWITCH["on"] = False
    game.apply(action)
    assert game.version == before[0] + 1
    assert isinstance(got[0], ActionApplied) and got[0].version == game.version


def test_a_failing_rule_for_that_changed_the_state_is_undone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: ``_ask`` raises for a failing ``rule_for``/``waiting_rule`` without undoing
    what it changed."""
    game = cardcore.new_game("golf", 2, seed=9)
    game.act(0, "flip 0")
    before = _dump(game)
    logic = game.logic

    def spoiling(state: Any, action: Any) -> Any:
        state.to_act = (1 - state.to_act[0],)
        raise RuntimeError("rule_for down")

    monkeypatch.setattr(logic, "rule_for", spoiling)
    monkeypatch.setattr(logic, "waiting_rule", spoiling)
    with pytest.raises(PluginError, match="rule_for down"):
        game.act(0, "flip 0")  # legal no more: the game's rule_for explains
    assert _dump(game) == before and game.to_act == (0,)
    with pytest.raises(PluginError, match="rule_for down"):
        game.act(1, "flip 0")  # not seat 1's turn: waiting_rule
    assert _dump(game) == before and game.to_act == (0,)


def test_a_truncated_game_stays_ended_after_a_failing_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: ``restore`` without ``_still_truncated`` reopens a game ``truncate()`` ended
    (its checkpoint predates the truncation) when a read's failure is undone."""
    game = cardcore.new_game("golf", 2, seed=9)
    game.act(0, "flip 0")
    game.truncate()
    assert game.is_over and game.result is not None
    result = game.result

    def failing(state: Any, seat: Any) -> Any:
        raise RuntimeError("table down")

    monkeypatch.setattr(game.logic, "table", failing)
    with pytest.raises(PluginError, match="table down"):
        game.view(0)
    monkeypatch.undo()
    assert game.is_over and game.to_act == () and game.result == result
    assert game.result.reason == "truncated"
    with pytest.raises(IllegalActionError, match="CORE-OVER-1"):
        game.act(1, "flip 0")


def test_bad_text_breaks_nothing_when_the_refusals_replay_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: ``undo`` treats a refusal (NotationError) like a plugin failure: when the
    replay that puts the state back fails (a game whose logic is not deterministic), it
    rebuilds from the deal, fails again and breaks the game for good."""
    game = cardcore.new_game("golf", 2, seed=9)
    game.act(0, "flip 0")
    before = _dump(game)
    logic = game.logic

    def no_text(state: Any, seat: Any, text: Any) -> Any:
        raise cardcore.NotationError("not a golf action")

    def no_replay(state: Any, action: Any, emit: Any) -> Any:
        raise RuntimeError("the replay differs")

    monkeypatch.setattr(logic, "parse_action", no_text)
    monkeypatch.setattr(logic, "apply", no_replay)
    with pytest.raises(cardcore.NotationError):
        game.act(0, "zzz")
    monkeypatch.undo()
    assert _dump(game) == before
    game.act(0, "flip 4")  # the game plays on
    assert game.version == 2


# -- real time at the end ----------------------------------------------------------------------


def test_a_resign_seen_at_the_last_version_of_an_ended_game_is_over_not_stale() -> None:
    """Mutant: ``stale_at_end`` judges a ``seen`` equal to the current version too: a resign
    that saw the ended game is then called stale (it lost no race). A resign seen before
    the end lost the race: stale (held)."""
    game = cardcore.new_game("speed", 2, seed=3)
    seen = game.version
    game.apply(EndMatch())
    with pytest.raises(IllegalActionError, match="CORE-OVER-1") as info:
        game.apply(Resign(0), seen=game.version)
    assert not isinstance(info.value, StaleActionError)
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.apply(Resign(0), seen=seen)


# -- delivery order and isolation on a game ---------------------------------------------------


def test_events_reach_only_their_type_in_version_order_and_a_failing_handler_costs_none() -> None:
    """Held: per-type subscriptions, ActionApplied first in each batch, batches in version
    order (a handler that acts queues behind), a failing handler costs nobody an event, and
    a seat's stream never names a card that seat could not see."""
    game = cardcore.new_game("golf", 2, seed=7)
    applied: list[int] = []
    every: list[Event] = []
    drawn_seat1: list[Any] = []
    failures: list[DeliveryFailure] = []
    game.events.on_error = failures.append

    def bad(event: Event) -> None:
        raise ValueError("bad")

    def acts(event: ActionApplied) -> None:
        applied.append(event.version)
        if event.version == 1:
            game.act(0, "flip 4")  # queued: delivered once this batch is done

    game.events.subscribe(Event, bad)
    game.events.subscribe(ActionApplied, acts)
    game.events.subscribe(Event, every.append)
    game.events.subscribe(cardcore.CardDrawn, drawn_seat1.append, seat=1)
    game.act(0, "flip 0")
    assert game.version == 2 and applied == [1, 2]
    versions = [e.version for e in every if isinstance(e, ActionApplied)]
    assert versions == [1, 2]
    starts = [i for i, e in enumerate(every) if isinstance(e, ActionApplied)]
    assert starts[0] == 0 and all(not isinstance(e, ActionApplied) for e in every[1 : starts[1]])
    assert len(failures) == len(every)  # bad failed on each event, every.append got each
    for seat, text in [(1, "flip 1"), (1, "flip 5"), (0, "draw")]:
        game.act(seat, text)
    assert len(drawn_seat1) == 1 and drawn_seat1[0].card is None
    assert all(type(e) is not cardcore.CardDrawn or e.card is not None for e in every)


def test_of_two_vetoes_the_error_names_the_rule_whose_id_sorts_last() -> None:
    """The surviving mutant (the last veto cited): hooks.rst says the first in calling order."""

    def veto_of(rule_id: str) -> Any:
        @hookimpl
        def forbid_action(action: Any) -> Any:
            return cardcore.Veto(rule_id, f"closed by {rule_id}") if action.verb == "take" else None

        return forbid_action

    names = ["golf.closed-a", "golf.closed-b"]
    for name, rule_id in zip(names, ("DOCS-VETO-1", "DOCS-VETO-2"), strict=True):
        module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
        module.RULE = RuleInfo(id=rule_id, name=name, game="golf", summary="Nobody takes")  # type: ignore[attr-defined]
        module.forbid_action = veto_of(rule_id)  # type: ignore[attr-defined]
        cardcore.register("cardcore.rules", name, module)
    try:
        for order in (names, names[::-1]):
            game = cardcore.new_game("golf", 2, rules=order, seed=7)
            for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
                game.act(seat, text)
            with pytest.raises(IllegalActionError) as refused:
                game.act(0, "take")
            assert refused.value.rule_id == "DOCS-VETO-2"
            assert str(refused.value).endswith("closed by DOCS-VETO-2 (DOCS-VETO-2)")
            assert game.version == 4
    finally:
        for name in names:
            cardcore.unregister("cardcore.rules", name)
