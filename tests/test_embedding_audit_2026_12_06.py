"""Embedding and events audit (2026-12-06): docs/embedding.rst, docs/events.rst,
docs/api.rst and the docstrings of ``Game`` and ``EventBus``, read as an embedder.

Each test checks one concrete claim of those pages (named in its docstring).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import importlib
import json
import logging
import pickle
import random
import threading
import time
import types
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import (
    SPECTATOR,
    ActionApplied,
    Card,
    CardDrawn,
    Event,
    GameEnded,
    PaymentsMade,
)

DECK = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)
GOLF_OPENING = [(0, "flip 0"), (0, "flip 4"), (1, "flip 1"), (1, "flip 5"), (0, "draw")]
WAIT = 20.0  # generous: only to avoid a hang, never a timing assertion


# --- helpers -----------------------------------------------------------------------


def _cards_in(value: Any, out: set[str]) -> None:
    if isinstance(value, Card):
        out.add(str(value))
    elif isinstance(value, tuple | list):
        for item in value:
            _cards_in(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _cards_in(item, out)


def _known_from_view(game: cardcore.Game, seat: int) -> set[str]:
    """Every card *seat* is shown now (zones, table, history)."""
    out: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            with contextlib.suppress(cardcore.CardcoreError):
                out.add(str(Card.parse(value)))
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    view = game.view(seat)
    walk([zone["cards"] for zone in view["zones"]])
    walk(view["table"])
    walk(game.history(seat))
    return out


def _random_play(game: cardcore.Game, seed: int, cap: int, after: Any = None) -> int:
    """Play random legal actions (never resigning) until the end or *cap* actions."""
    rng = random.Random(seed)
    n = 0
    while not game.is_over and n < cap:
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if not seats:
            break
        seat = rng.choice(seats)
        actions = [a for a in game.legal_actions(seat) if a.verb != "resign"]
        game.apply(rng.choice(actions or list(game.legal_actions(seat))))
        n += 1
        if after is not None:
            after()
    return n


def _ready_spit(**kwargs: Any) -> cardcore.Game:
    game = cardcore.new_game("spit", ["Ann", "Bob"], deck=DECK, seed=2, **kwargs)
    game.act(0, "ready")
    game.act(1, "ready")
    return game


GAMES = [
    ("golf", 2, (), {"rounds": 2}),
    ("golf", 3, ("golf.remove-columns",), {"rounds": 2}),
    ("golf", 3, ("golf.peek-nearest",), {"rounds": 2, "layout": 4}),
    ("tonk", 3, (), {"hands": 6}),
    ("tonk", 2, ("tonk.natural-49-50", "tonk.deal-shows-every-hand"), {"hands": 6}),
    ("spit", 2, (), None),
    ("speed", 2, (), {"jokers": 2}),
]


# --- redaction: a seat's stream never carries a card hidden from the seat ----------------


@pytest.mark.parametrize(("name", "players", "rules", "options"), GAMES)
def test_seat_stream_never_names_a_card_the_seat_cannot_know(
    name: str, players: int, rules: tuple[str, ...], options: dict[str, Any] | None
) -> None:
    """events.rst: "a server can forward each player's stream as it is, without leaking"
    (in any field, not only the ``secret`` ones): every card in a seat's copy is one the
    seat was shown in a view, or in an earlier (or this) event that showed it face up to
    everyone (a card placed face up, then removed by the same action)."""
    got: dict[int, list[Event]] = {s: [] for s in range(players)}
    subs = [(Event, got[s].append, s) for s in range(players)]
    for seed in range(2):
        for events in got.values():
            events.clear()
        game = cardcore.new_game(
            name, players, seed=seed, rules=rules, options=options, subscribers=subs
        )
        known = {s: set() for s in range(players)}
        leaks: list[tuple[int, Event, set[str]]] = []

        def check(
            game: cardcore.Game = game,
            known: dict[int, set[str]] = known,
            leaks: list[tuple[int, Event, set[str]]] = leaks,
        ) -> None:
            for seat in range(players):
                known[seat] |= _known_from_view(game, seat)
                for event in got[seat]:
                    if event.audience == cardcore.ALL:  # shown face up to everyone
                        _cards_in(tuple(getattr(event, f) for f in event.secret), known[seat])
                    named: set[str] = set()
                    _cards_in(tuple(event), named)
                    if type(event).__name__ == "CardDiscarded":
                        named = set()  # face up on the discard pile by definition
                    if named - known[seat]:
                        leaks.append((seat, event, named - known[seat]))
                got[seat].clear()

        check()
        _random_play(game, seed, 400, check)
        assert leaks == []


def test_secret_fields_blanked_for_other_seats_and_spectator() -> None:
    """events.rst: a seat-scoped copy has its secret fields ``None`` where the seat may
    not see them; SPECTATOR gets the public stream; ``seat=None`` the full events."""
    streams: dict[Any, list[Event]] = {None: [], 0: [], 1: [], SPECTATOR: []}
    game = cardcore.new_game(
        "tonk",
        ["Ann", "Bob"],
        seed=5,
        subscribers=[(Event, streams[s].append, s) for s in streams],
    )
    host = [e for e in streams[None] if e.slug == "hand-dealt"]
    assert len(host) == 2 and all(e.cards is not None for e in host)
    for seat in (0, 1):
        mine = [e for e in streams[seat] if e.slug == "hand-dealt"]
        assert [e.cards is not None for e in mine] == [e.seat == seat for e in mine]
        assert all(e.upcard == h.upcard for e, h in zip(mine, host, strict=True))
    assert all(e.cards is None for e in streams[SPECTATOR] if e.slug == "hand-dealt")
    assert game.version == 0


def test_delivery_failure_event_is_the_redacted_copy() -> None:
    """DeliveryFailure: ``event`` is "the event (as the failing handler received it)": a
    seat-1 handler's failure on seat 0's stock draw never hands ``on_error`` the card."""
    failures: list[cardcore.DeliveryFailure] = []

    def broken(event: Event) -> None:
        raise RuntimeError("dropped connection")

    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    game.events.subscribe(CardDrawn, broken, seat=1)
    game.events.on_error = failures.append
    for seat, text in GOLF_OPENING:
        game.act(seat, text)
    assert len(failures) == 1
    assert failures[0].event.card is None and failures[0].handler is broken
    assert isinstance(failures[0].error, RuntimeError) and not failures[0].dropped


# --- event types, fields and order per game -------------------------------------------


def _slugs_of(module_name: str) -> set[str]:
    module = importlib.import_module(module_name)
    return {getattr(module, n).slug for n in module.__all__}


CORE_SLUGS = {
    getattr(cardcore.events, n).slug
    for n in cardcore.events.__all__
    if isinstance(getattr(cardcore.events, n), type)
    and issubclass(getattr(cardcore.events, n), Event)
    and getattr(cardcore.events, n) is not Event
}


@pytest.mark.parametrize(
    ("name", "players", "options", "package", "setup"),
    [
        ("golf", 2, {"rounds": 2}, "cardcore_golf", ["game-started", "cards-dealt"]),
        ("tonk", 3, {"hands": 3}, "cardcore_tonk", ["game-started", "dealer-cut"]),
        ("spit", 2, None, "cardcore_spit", ["game-started", "cards-dealt", "deal-started"]),
        ("speed", 2, None, "cardcore_spit", ["game-started", "cards-dealt"]),
    ],
)
def test_event_order_and_catalogue(
    name: str, players: int, options: Any, package: str, setup: list[str]
) -> None:
    """events.rst: ``action-applied`` for every applied action, before the game's own
    events for it, carrying the new version; ``game-ended`` once, last, mirroring the
    Result; every slug is a core or catalogued game slug; every event (and each seat's
    copy) is JSON-ready without ``visible_to``."""
    slugs = CORE_SLUGS | _slugs_of(f"{package}.events")
    for seed in range(2):
        log: list[Event] = []
        game = cardcore.new_game(
            name, players, seed=seed, options=options, subscribers=[(Event, log.append)]
        )
        _random_play(game, seed, 3000)
        assert game.is_over
        assert [e.slug for e in log[: len(setup)]] == setup
        assert {e.slug for e in log} <= slugs
        applied = [i for i, e in enumerate(log) if isinstance(e, ActionApplied)]
        assert [log[i].version for i in applied] == list(range(1, game.version + 1))
        assert "action-applied" not in [e.slug for e in log[: applied[0]]]
        ended = [e for e in log if isinstance(e, GameEnded)]
        assert len(ended) == 1 and log[-1] is ended[0]
        result = game.result
        assert result is not None
        assert (ended[0].winners, ended[0].scores, ended[0].payouts, ended[0].reason) == (
            result.winners,
            result.scores,
            result.payouts,
            result.reason,
        )
        for event in log:
            for seat in (None, SPECTATOR, *range(players)):
                data = event.for_seat(seat).to_json()
                assert data["event"] == event.slug and "visible_to" not in data
                json.dumps(data)


def test_golf_layouts_revealed_just_before_round_scored() -> None:
    """LayoutsRevealed: "Published just before the core's ``round-scored`` event"."""
    log: list[Event] = []
    game = cardcore.new_game(
        "golf", 2, seed=3, options={"rounds": 2}, subscribers=[(Event, log.append)]
    )
    _random_play(game, 3, 1000)
    slugs = [e.slug for e in log]
    scored = [i for i, s in enumerate(slugs) if s == "round-scored"]
    assert len(scored) == 2
    assert all(slugs[i - 1] == "golf-layouts-revealed" for i in scored)


def test_tonk_settles_with_hand_ended_a_payments_made() -> None:
    """events.rst: Tonk settles with ``hand-ended`` (a PaymentsMade): a PaymentsMade
    subscriber receives it, and no ``payments-made`` slug is ever sent."""
    paid: list[Event] = []
    everything: list[Event] = []
    game = cardcore.new_game(
        "tonk",
        3,
        seed=1,
        options={"hands": 3},
        subscribers=[(PaymentsMade, paid.append), (Event, everything.append)],
    )
    _random_play(game, 1, 500)
    assert paid and {e.slug for e in paid} == {"hand-ended"}
    assert "payments-made" not in {e.slug for e in everything}
    assert all(isinstance(e, PaymentsMade) for e in paid)


def test_subscribers_at_new_game_receive_the_first_deal() -> None:
    """embedding.rst: ``subscribers=`` are attached before the first card is dealt (the
    documented Golf opening, seat 1's stream)."""
    log: list[Event] = []
    cardcore.new_game("golf", ["Ann", "Bob"], seed=7, subscribers=[(Event, log.append, 1)])
    assert [e.slug for e in log] == ["game-started", "cards-dealt", "card-revealed", "turn-passed"]
    assert log[2].to_json() == {
        "event": "card-revealed",
        "seat": None,
        "zone": "discard",
        "index": 0,
        "card": "QS",
    }


def test_subscribers_argument_misuse_is_refused_with_documented_errors() -> None:
    """EventBus.subscribe: a seat that does not exist, HOST, "1" -> SeatError (CORE-SEAT-1);
    a non-Event class or a non-callable -> ArgumentError; the same through new_game."""
    game = cardcore.new_game("golf", 2, seed=7)
    for seat in (2, cardcore.HOST, "1", True, 1.0):
        with pytest.raises(cardcore.SeatError) as error:
            game.events.subscribe(Event, print, seat=seat)  # type: ignore[arg-type]
        assert error.value.rule_id == "CORE-SEAT-1"
    with pytest.raises(cardcore.ArgumentError):
        game.events.subscribe(int, print)  # type: ignore[arg-type]
    with pytest.raises(cardcore.ArgumentError):
        game.events.subscribe(Event, 5)  # type: ignore[arg-type]
    with pytest.raises(cardcore.SeatError):
        cardcore.new_game("golf", 2, seed=1, subscribers=[(Event, print, 2)])
    with pytest.raises(cardcore.ArgumentError):
        cardcore.new_game("golf", 2, seed=1, subscribers=[(Event,)])  # type: ignore[list-item]
    assert not game.events.active


# --- subscribe and unsubscribe, also during delivery -----------------------------------


def test_active_follows_subscriptions_and_unsubscribe_by_equal_handler() -> None:
    """events.rst: games build events only while something listens (EventBus.active);
    ``unsubscribe(log.append)`` removes what ``subscribe(Event, log.append)`` made."""
    game = cardcore.new_game("golf", 2, seed=7)
    assert not game.events.active
    log: list[Event] = []
    game.events.subscribe(Event, log.append)
    assert game.events.active
    game.act(0, "flip 0")
    game.events.unsubscribe(log.append)
    assert not game.events.active
    count = len(log)
    game.act(0, "flip 4")
    assert count > 0 and len(log) == count
    other = cardcore.new_game("golf", 2, seed=7)
    sub = other.events.subscribe(Event, print)
    game.events.unsubscribe(sub)  # another bus's subscription removes nothing
    assert other.events.active


def test_unsubscribe_from_a_handler_stops_the_current_batch_too() -> None:
    """EventBus.unsubscribe: from the moment it returns the handler receives nothing
    more, also from a batch being delivered."""
    game = cardcore.new_game("golf", 2, seed=7)
    later: list[Event] = []
    first_seen: list[str] = []

    def first(event: Event) -> None:
        first_seen.append(event.slug)
        game.events.unsubscribe(second)

    game.events.subscribe(Event, first)
    second = game.events.subscribe(Event, later.append)
    game.act(0, "flip 0")
    assert first_seen == ["action-applied", "card-revealed"] and later == []


def test_a_handler_may_unsubscribe_itself() -> None:
    """EventBus: subscribe and unsubscribe may be called from a handler (itself too)."""
    game = cardcore.new_game("golf", 2, seed=7)
    got: list[str] = []

    def once(event: Event) -> None:
        got.append(event.slug)
        game.events.unsubscribe(sub)

    sub = game.events.subscribe(Event, once)
    game.act(0, "flip 0")
    game.act(0, "flip 4")
    assert got == ["action-applied"]


def test_subscribing_from_a_handler_works() -> None:
    """EventBus: subscribe may be called from a handler; the new subscriber hears the
    next action's whole batch. (The docs do not say whether it hears the rest of the
    batch being delivered: here it does.)"""
    game = cardcore.new_game("golf", 2, seed=7)
    late: list[str] = []

    def adder(event: Event) -> None:
        if isinstance(event, ActionApplied) and event.version == 1:
            game.events.subscribe(Event, lambda e: late.append(e.slug))

    game.events.subscribe(Event, adder)
    game.act(0, "flip 0")
    assert late == ["card-revealed"]
    game.act(0, "flip 4")
    assert late[1:] == ["action-applied", "card-revealed", "turn-passed"]


# --- failing subscribers ------------------------------------------------------------------


def test_raising_handler_costs_others_nothing_and_reaches_on_error_and_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """embedding.rst/EventBus: a handler that raises costs no other handler its events;
    the action stays applied, the caller sees no error; the failure is logged on
    "cardcore.events" and handed to on_error as a DeliveryFailure."""
    game = cardcore.new_game("golf", 2, seed=7)
    before: list[Event] = []
    after: list[Event] = []
    failures: list[cardcore.DeliveryFailure] = []

    def broken(event: Event) -> None:
        raise RuntimeError("boom")

    game.events.subscribe(Event, before.append)
    sub = game.events.subscribe(Event, broken)
    game.events.subscribe(Event, after.append)
    game.events.on_error = failures.append
    clean = cardcore.new_game("golf", 2, seed=7)
    with caplog.at_level(logging.ERROR, logger="cardcore.events"):
        for seat, text in GOLF_OPENING:
            game.act(seat, text)
            clean.act(seat, text)
    assert before == after and len(after) == len(failures) > 0
    assert [f.event for f in failures] == after
    assert all(f.subscription is sub and f.plugin is None for f in failures)
    logged = [r for r in caplog.records if r.name == "cardcore.events"]
    assert len(logged) == len(failures) and all(r.levelno == logging.ERROR for r in logged)
    assert game.version == 5 and game.view(None) == clean.view(None)
    assert game.record() == clean.record()


def test_on_error_that_raises_is_contained() -> None:
    """EventBus: an on_error callback that raises is logged, not raised to the caller,
    and other handlers still get the batch."""
    game = cardcore.new_game("golf", 2, seed=7)
    got: list[Event] = []

    def broken(event: Event) -> None:
        raise RuntimeError("boom")

    def bad_report(failure: cardcore.DeliveryFailure) -> None:
        raise ValueError("report failed")

    game.events.subscribe(Event, broken)
    game.events.subscribe(Event, got.append)
    game.events.on_error = bad_report
    logging.disable(logging.CRITICAL)
    try:
        game.act(0, "flip 0")
    finally:
        logging.disable(logging.NOTSET)
    assert [e.slug for e in got] == ["action-applied", "card-revealed"]


def test_drop_on_error_removes_after_first_failure() -> None:
    """embedding.rst: ``drop_on_error=True`` removes a subscription after its first failure."""
    game = cardcore.new_game("golf", 2, seed=7)
    calls: list[str] = []
    failures: list[cardcore.DeliveryFailure] = []

    def broken(event: Event) -> None:
        calls.append(event.slug)
        raise ConnectionError("gone")

    game.events.subscribe(Event, broken, drop_on_error=True)
    game.events.on_error = failures.append
    logging.disable(logging.CRITICAL)
    try:
        game.act(0, "flip 0")
        game.act(0, "flip 4")
    finally:
        logging.disable(logging.NOTSET)
    assert calls == ["action-applied"]
    assert len(failures) == 1 and failures[0].dropped and failures[0].handler is broken
    assert not game.events.active


def test_keyboard_interrupt_in_handler_after_every_other_handler() -> None:
    """EventBus: a BaseException that is not an Exception propagates from the call that
    delivered it once every other handler has had the batch; the action stays applied."""
    game = cardcore.new_game("golf", 2, seed=7)
    after: list[str] = []

    def interrupt(event: Event) -> None:
        if isinstance(event, ActionApplied) and event.version == 1:
            raise KeyboardInterrupt

    game.events.subscribe(Event, interrupt)
    game.events.subscribe(Event, lambda e: after.append(e.slug))
    with pytest.raises(KeyboardInterrupt):
        game.act(0, "flip 0")
    assert game.version == 1 and after == ["action-applied", "card-revealed"]
    game.act(0, "flip 4")
    assert after[2:] == ["action-applied", "card-revealed", "turn-passed"]


def test_rejected_action_publishes_nothing() -> None:
    """embedding.rst: a rejected action changes nothing: not the version, not the events,
    not the record; its error names the rule (rule_id)."""
    game = cardcore.new_game("golf", 2, seed=7)
    log: list[Event] = []
    game.events.subscribe(Event, log.append)
    record = game.record()
    with pytest.raises(cardcore.IllegalActionError) as error:
        game.act(1, "flip 0")
    assert error.value.rule_id == "CORE-TURN-1" and str(error.value).endswith("(CORE-TURN-1)")
    with pytest.raises(cardcore.NotationError):
        game.act(0, "fly away")
    with pytest.raises(cardcore.SeatError) as seat_error:
        game.act(7, "flip 0")
    assert seat_error.value.rule_id == "CORE-SEAT-1"
    assert log == [] and game.version == 0 and game.record() == record


# --- a failing plugin: hooks and on_event ---------------------------------------------------

_FAIL = {"score": False, "observe": False}
_OBSERVED: list[str] = []


def _audit_rule() -> types.ModuleType:
    module = types.ModuleType("audit_embedding_rule")

    @cardcore.hookimpl
    def score_round(state: Any, scores: Any) -> Any:
        if _FAIL["score"]:
            raise RuntimeError("score table lost")
        return None

    @cardcore.hookimpl
    def on_event(event: Event) -> None:
        _OBSERVED.append(event.slug)
        if _FAIL["observe"]:
            raise RuntimeError("metrics down")

    module.RULE = cardcore.RuleInfo(  # type: ignore[attr-defined]
        "AUDIT-EMBED-1", "golf.audit-embed", "golf", "test rule of the embedding audit"
    )
    module.score_round = score_round  # type: ignore[attr-defined]
    module.on_event = on_event  # type: ignore[attr-defined]
    return module


@pytest.fixture
def audit_rule() -> Iterator[None]:
    cardcore.register("cardcore.rules", "golf.audit-embed", _audit_rule())
    _FAIL.update(score=False, observe=False)
    _OBSERVED.clear()
    yield
    cardcore.unregister("cardcore.rules", "golf.audit-embed")
    _FAIL.update(score=False, observe=False)


def test_failing_on_event_costs_subscribers_nothing(audit_rule: None) -> None:
    """events.rst/EventBus: a plugin's ``on_event`` that raises is reported (DeliveryFailure
    with the plugin's name, subscription None) and costs no subscriber an event."""
    _FAIL["observe"] = True
    failures: list[cardcore.DeliveryFailure] = []
    log: list[Event] = []
    plain: list[Event] = []
    logging.disable(logging.CRITICAL)
    try:
        game = cardcore.new_game(
            "golf", 2, seed=7, rules=["golf.audit-embed"], subscribers=[(Event, log.append)]
        )
        game.events.on_error = failures.append
        other = cardcore.new_game(
            "golf", 2, seed=7, rules=["golf.audit-embed"], subscribers=[(Event, plain.append)]
        )
        _FAIL["observe"] = False
        for seat, text in GOLF_OPENING:
            _FAIL["observe"] = True
            game.act(seat, text)
            _FAIL["observe"] = False
            other.act(seat, text)
    finally:
        logging.disable(logging.NOTSET)
    assert log == plain and len(log) > 5
    assert failures and all(f.subscription is None for f in failures)
    assert {f.plugin for f in failures} == {"golf.audit-embed"}


def test_clone_is_heard_by_no_on_event(audit_rule: None) -> None:
    """EventBus/Game.clone: clones start with no subscribers, and no plugin's
    ``on_event`` hears them."""
    game = cardcore.new_game("golf", 2, seed=7, rules=["golf.audit-embed"])
    game.act(0, "flip 0")
    assert "action-applied" in _OBSERVED
    _OBSERVED.clear()
    branch = game.clone()
    branch.act(0, "flip 4")
    assert _OBSERVED == []


def test_failing_hook_leaves_game_and_events_unchanged(audit_rule: None) -> None:
    """design contract / Game docstring: a plugin failing inside ``apply`` raises
    PluginError and leaves the game exactly as it was: no event is published for it."""
    log: list[Event] = []
    game = cardcore.new_game(
        "golf", 2, seed=5, rules=["golf.audit-embed"], subscribers=[(Event, log.append)]
    )
    _FAIL["score"] = True
    rng = random.Random(5)
    for _ in range(400):
        seat = game.to_act[0]
        action = rng.choice(game.legal_actions(seat))
        version, view, record, count = game.version, game.view(None), game.record(), len(log)
        try:
            game.apply(action)
        except cardcore.PluginError as error:
            assert "golf.audit-embed" in str(error)
            break
    else:
        pytest.fail("no round ended")
    assert (game.version, game.view(None), game.record(), len(log)) == (
        version,
        view,
        record,
        count,
    )
    _FAIL["score"] = False
    game.apply(action)
    assert game.version == version + 1 and log[count].slug == "action-applied"


# --- re-entrant apply -----------------------------------------------------------------------


def test_reentrant_apply_is_queued_behind_current_batch() -> None:
    """embedding.rst/events.rst: a handler that calls ``apply`` is queued behind the
    current events, not deadlocked; delivered by the same thread before the outer call
    returns."""
    game = cardcore.new_game("golf", 2, seed=7)
    log: list[tuple[str, int]] = []

    def handler(event: Event) -> None:
        log.append((event.slug, getattr(event, "version", -1)))
        if isinstance(event, ActionApplied) and event.version == 1:
            game.act(0, "flip 4")
            log.append(("inner-returned", game.version))

    game.events.subscribe(Event, handler)
    game.act(0, "flip 0")
    assert log == [
        ("action-applied", 1),
        ("inner-returned", 2),
        ("card-revealed", -1),
        ("action-applied", 2),
        ("card-revealed", -1),
        ("turn-passed", -1),
    ]


def test_illegal_reentrant_apply_is_a_handler_failure() -> None:
    """EventBus: a handler's exception (here the IllegalActionError of its own apply)
    never reaches the caller that applied the action; on_error gets it."""
    game = cardcore.new_game("golf", 2, seed=7)
    failures: list[cardcore.DeliveryFailure] = []

    def handler(event: Event) -> None:
        game.act(1, "flip 0")  # not seat 1's turn

    game.events.subscribe(ActionApplied, handler)
    game.events.on_error = failures.append
    logging.disable(logging.CRITICAL)
    try:
        game.act(0, "flip 0")
    finally:
        logging.disable(logging.NOTSET)
    assert game.version == 1 and len(failures) == 1
    assert isinstance(failures[0].error, cardcore.IllegalActionError)


def test_reads_from_a_handler_see_the_applied_state() -> None:
    """events.rst: handlers run after the lock is released: a handler may read the game
    (view, legal_actions, clone, save, record) and sees the version its event reports."""
    game = _ready_spit()
    seen: list[tuple[int, int]] = []

    def handler(event: ActionApplied) -> None:
        seen.append((event.version, game.version))
        game.view(0)
        game.legal_actions(1)
        game.clone()
        cardcore.load(game.save())

    game.events.subscribe(ActionApplied, handler)
    game.act(0, "play 1 L")
    assert seen == [(3, 3)]


# --- threads ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_threads_applying_concurrently(name: str) -> None:
    """embedding.rst/EventBus: apply is atomic and thread-safe; batches are delivered in
    version order, each by the thread whose call applied it; every card stays in one
    place (the save loads, the record replays to the same table)."""
    game = cardcore.new_game(name, ["Ann", "Bob"], seed=3)
    if name == "spit":
        game.act(0, "ready")
        game.act(1, "ready")
    start = game.version
    delivered: list[tuple[int, Event]] = []
    game.events.subscribe(Event, lambda e: delivered.append((threading.get_ident(), e)))
    threads_of: dict[int, int] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def worker(seat: int) -> None:
        threads_of[seat] = threading.get_ident()
        rng = random.Random(seat)
        try:
            barrier.wait(WAIT)
            for _ in range(80):
                if game.is_over:
                    return
                view = game.view(seat)
                legal = [t for t in view["legal"] if t != "resign"]
                if legal:
                    # stale or illegal by now: expected in a race
                    with contextlib.suppress(cardcore.IllegalActionError):
                        game.act(seat, rng.choice(legal), seen=view["version"])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(s,)) for s in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert not any(t.is_alive() for t in threads) and errors == []
    applied = [(tid, e) for tid, e in delivered if isinstance(e, ActionApplied)]
    assert [e.version for _, e in applied] == list(range(start + 1, game.version + 1))
    assert all(tid == threads_of[e.seat] for tid, e in applied)
    assert sum(zone["count"] for zone in game.view(None)["zones"]) == 52 + (
        2 if name == "speed" and game.options.get("jokers") else 0
    )
    assert cardcore.load(json.dumps(game.save())).view(None) == game.view(None)
    assert cardcore.replay(game.record()).view(None) == game.view(None)


def test_second_thread_waits_for_first_batch_and_lock_is_free_in_handler() -> None:
    """EventBus: handlers run after the lock is released (another thread's apply goes
    through meanwhile), but a thread whose action came second waits until the first
    action's events were delivered, then delivers its own; a re-entrant apply made
    after it is delivered after it (version order)."""
    game = _ready_spit()
    order: list[tuple[str, int]] = []
    state: dict[str, Any] = {}

    def handler(event: ActionApplied) -> None:
        order.append((threading.current_thread().name, event.version))
        if event.version == 3:
            other = threading.Thread(target=lambda: game.act(1, game.view(1)["legal"][0]), name="B")
            state["thread"] = other
            other.start()
            deadline = time.monotonic() + WAIT
            while game.version < 4 and time.monotonic() < deadline:
                time.sleep(0.001)
            state["version"], state["waiting"] = game.version, other.is_alive()
            game.act(0, game.view(0)["legal"][0])
            order.append(("inner-returned", game.version))

    game.events.subscribe(ActionApplied, handler)
    game.act(0, "play 1 L")
    order.append(("outer-returned", game.version))
    state["thread"].join(WAIT)
    assert state["version"] == 4 and state["waiting"]
    assert order == [
        ("MainThread", 3),
        ("inner-returned", 5),
        ("B", 4),
        ("MainThread", 5),
        ("outer-returned", 5),
    ]


def test_documented_race_one_applied_one_stale() -> None:
    """embedding.rst: two threads sending the same-pile plays with seen=2: one applied,
    one StaleActionError (CORE-RT-1); version 3."""
    game = _ready_spit()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def send(seat: int, text: str) -> None:
        barrier.wait(WAIT)
        try:
            game.act(seat, text, seen=2)
            outcomes.append("applied")
        except cardcore.StaleActionError as error:
            assert error.rule_id == "CORE-RT-1"
            outcomes.append("stale")

    threads = [threading.Thread(target=send, args=a) for a in [(0, "play 1 L"), (1, "play 3 L")]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert sorted(outcomes) == ["applied", "stale"] and game.version == 3


def test_single_thread_returns_game_and_clones_inherit() -> None:
    """embedding.rst: ``single_thread()`` returns the game; clones inherit it; every
    other guarantee stands (the game plays and replays the same)."""
    solo = cardcore.new_game("golf", 2, seed=4).single_thread()
    locked = cardcore.new_game("golf", 2, seed=4)
    assert isinstance(solo, cardcore.Game)
    solo.apply(solo.legal_actions(solo.to_act[0])[0])
    assert (solo.version, solo.clone().version) == (1, 1)
    assert solo.clone()._hot_lock is None  # the documented inheritance (private detail)
    locked.apply(locked.legal_actions(locked.to_act[0])[0])
    assert solo.record() == locked.record() and solo.view(None) == locked.view(None)


# --- clone / save / load / record / replay with subscribers ----------------------------------


def test_copies_carry_no_subscribers() -> None:
    """embedding.rst/Game: clone (and copy/deepcopy), load(save()), pickle and replay
    carry no subscriber; the original still hears its own actions."""
    game = cardcore.new_game("golf", 2, seed=7)
    log: list[Event] = []
    game.events.subscribe(Event, log.append)
    makers = [
        game.clone,
        lambda: copy.copy(game),
        lambda: copy.deepcopy(game),
        lambda: cardcore.load(game.save()),
        lambda: pickle.loads(pickle.dumps(game)),
        lambda: cardcore.replay(game.record()),
    ]
    for make in makers:
        other = make()
        assert not other.events.active
        other.act(0, "flip 0")
        assert log == [] and game.version == 0
    game.act(0, "flip 0")
    assert [e.slug for e in log] == ["action-applied", "card-revealed"]


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [("golf", 2, None), ("tonk", 3, {"hands": 3}), ("spit", 2, None), ("speed", 2, None)],
)
def test_re_acting_a_record_gives_the_same_events(name: str, players: int, options: Any) -> None:
    """embedding.rst: "To watch a recorded game's events, start a game with the record's
    settings and subscribers=, and act the recorded actions one by one" (same events);
    subscribers leave the record untouched (it equals an unobserved game's)."""
    first: list[Event] = []
    game = cardcore.new_game(
        name, players, seed=9, options=options, subscribers=[(Event, first.append)]
    )
    _random_play(game, 9, 300)
    quiet = cardcore.new_game(name, players, seed=9, options=options)
    _random_play(quiet, 9, 300)
    assert quiet.record() == game.record()
    record = game.record()
    again: list[Event] = []
    watch = cardcore.new_game(
        record["game"],
        record["players"],
        seed=record["seed"],
        options=record["options"],
        subscribers=[(Event, again.append)],
    )
    for seat, text, at in record["actions"]:
        watch.act(seat, text, at=at)
    assert again == first


# --- seen= and at= -----------------------------------------------------------------------------


def test_seen_outside_window_or_not_an_int_is_refused() -> None:
    """embedding.rst/api.rst: ``seen`` must lie within STALE_WINDOW of now; an older or
    newer one (or a non-int) is refused: IllegalActionError citing CORE-RT-3; nothing
    applied."""
    game = _ready_spit()
    for seen in (game.version + 1, -1, "2", True, 2.0):
        with pytest.raises(cardcore.IllegalActionError) as error:
            game.act(0, "play 1 L", seen=seen)  # type: ignore[arg-type]
        assert error.value.rule_id == "CORE-RT-3" and not isinstance(
            error.value, cardcore.StaleActionError
        )
    assert game.version == 2
    turn = cardcore.new_game("golf", 2, seed=7)
    with pytest.raises(cardcore.IllegalActionError) as error:
        turn.act(0, "flip 0", seen=1)
    assert error.value.rule_id == "CORE-RT-3" and turn.version == 0


def test_seen_window_edges() -> None:
    """api.rst: STALE_WINDOW (64) versions back is judged exactly; one more is refused."""
    assert cardcore.STALE_WINDOW == 64
    game = cardcore.new_game("spit", 2, seed=3)
    _random_play(game, 3, 70)
    assert game.version == 70 and not game.is_over
    oldest = game.version - cardcore.STALE_WINDOW
    clone = game.clone()
    text = str(clone.legal_actions(clone.to_act[0])[0])
    seat = clone.to_act[0]
    with pytest.raises(cardcore.IllegalActionError) as error:
        clone.act(seat, text, seen=oldest - 1)
    assert error.value.rule_id == "CORE-RT-3"
    try:
        clone.act(seat, text, seen=oldest)
    except cardcore.IllegalActionError as judged:
        assert judged.rule_id != "CORE-RT-3"


def test_stale_message_and_rule() -> None:
    """embedding.rst: the documented StaleActionError text (CORE-RT-1)."""
    game = _ready_spit()
    ann, bob = game.view(0), game.view(1)
    game.act(0, "play 1 L", at=1.20, seen=ann["version"])
    with pytest.raises(cardcore.StaleActionError) as error:
        game.act(1, "play 3 L", at=1.25, seen=bob["version"])
    assert str(error.value) == (
        "'play 3 L' was legal at version 2 but another action came first (now version 3) "
        "(CORE-RT-1)"
    )
    assert error.value.rule_id == "CORE-RT-1" and game.version == 3


def test_reads_do_not_change_what_counts_as_seen() -> None:
    """embedding.rst: reads are pure, not even changing what counts as seen: without
    ``seen`` a now-illegal action is IllegalActionError, never stale, however many views
    the seat read."""
    game = _ready_spit()
    game.view(1)
    game.legal_actions(1)
    game.act(0, "play 1 L")
    game.view(1)
    with pytest.raises(cardcore.IllegalActionError) as error:
        game.act(1, "play 3 L")
    assert not isinstance(error.value, cardcore.StaleActionError)


def test_at_rules() -> None:
    """embedding.rst: in real time an earlier stamp is refused (CORE-RECORD-1), a clock
    is read under the lock and recorded, a clock's exception reaches the caller as it is,
    a clock's non-time is refused naming the clock; nothing is applied in each refusal."""
    game = cardcore.new_game("spit", 2, seed=3)
    game.act(0, "ready", at=5.0)

    def broken_clock() -> float:
        raise ZeroDivisionError

    for at in (4.0, float("nan"), "x", lambda: "x"):
        with pytest.raises(cardcore.IllegalActionError) as error:
            game.act(1, "ready", at=at)  # type: ignore[arg-type]
        assert error.value.rule_id == "CORE-RECORD-1"
    with pytest.raises(cardcore.IllegalActionError, match="clock"):
        game.act(1, "ready", at=lambda: "x")  # type: ignore[arg-type,return-value]
    with pytest.raises(ZeroDivisionError):
        game.act(1, "ready", at=broken_clock)
    assert game.version == 1
    game.act(1, "ready", at=lambda: 6.0)
    assert game.record()["actions"] == [[0, "ready", 5.0], [1, "ready", 6.0]]


# --- asyncio ----------------------------------------------------------------------------------


def test_asyncio_subscriber_runs_in_the_applying_coroutine() -> None:
    """embedding.rst: subscribers run in the coroutine that applied the action, before
    ``act`` returns; seat 1's copy of seat 0's stock draw has no card."""

    async def serve() -> list[tuple[int, dict[str, Any]]]:
        game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
        outbox: asyncio.Queue[tuple[int, dict[str, Any]]] = asyncio.Queue()
        game.events.subscribe(Event, lambda e: outbox.put_nowait((1, e.to_json())), seat=1)
        sent = []
        for seat, text in GOLF_OPENING:
            game.act(seat, text)
            assert not outbox.empty()
            while not outbox.empty():
                sent.append(await outbox.get())
        return sent

    sent = asyncio.run(serve())
    assert sent[-1] == (1, {"event": "card-drawn", "seat": 0, "source": "stock", "card": None})


# --- Event records ------------------------------------------------------------------------------


def test_event_records_are_immutable_and_redaction_is_cheap() -> None:
    """events.rst: events are immutable tuple-based records; ``for_seat`` returns the
    event itself when nothing is hidden from the seat, else a copy; ``fields()`` and
    pickling keep ``visible_to``."""
    event = CardDrawn(0, "stock", Card.parse("7H"), visible_to=1 << 0)
    assert event.for_seat(0) is event and event.for_seat(None) is event
    assert event.for_seat(1).card is None and event.for_seat(SPECTATOR).card is None
    assert event.for_seat(1).fields() == {
        "seat": 0,
        "source": "stock",
        "card": None,
        "visible_to": 1,
    }
    assert pickle.loads(pickle.dumps(event)) == event
    with pytest.raises(AttributeError):
        event.card = None  # type: ignore[misc]
    public = CardDrawn(0, "discard", Card.parse("7H"))
    assert public.for_seat(1) is public and public.audience == cardcore.ALL


def test_truncate_publishes_game_ended() -> None:
    """Game.truncate: ends the game as "truncated" and publishes GameEnded; recorded:
    a replay ends the same way."""
    log: list[Event] = []
    game = cardcore.new_game("golf", 2, seed=7, subscribers=[(GameEnded, log.append)])
    game.act(0, "flip 0")
    game.truncate()
    assert game.is_over and game.result is not None and game.result.reason == "truncated"
    assert len(log) == 1 and log[0].reason == "truncated"
    again = cardcore.replay(game.record())
    assert again.is_over and again.result == game.result


def test_observed_and_unobserved_games_play_identically() -> None:
    """events.rst: games build events only while something listens, and events never
    change the game: a game with a seat subscriber, one with only an ActionApplied
    subscriber and an unobserved one go through the same states."""

    def states(game: cardcore.Game, seed: int) -> list[Any]:
        out: list[Any] = []
        _random_play(game, seed, 300, lambda: out.append((game.view(None), game.position())))
        return out

    for name, players, options in [
        ("golf", 3, {"rounds": 2}),
        ("tonk", 3, {"hands": 4}),
        ("spit", 2, None),
        ("speed", 2, {"jokers": 2}),
    ]:
        seat = cardcore.new_game(
            name, players, seed=1, options=options, subscribers=[(Event, lambda e: None, 0)]
        )
        applied = cardcore.new_game(
            name, players, seed=1, options=options, subscribers=[(ActionApplied, lambda e: None)]
        )
        quiet = cardcore.new_game(name, players, seed=1, options=options)
        assert states(seat, 1) == states(applied, 1) == states(quiet, 1)


def test_unsubscribe_from_another_thread_during_delivery() -> None:
    """EventBus: subscribe/unsubscribe may be called from any thread; from the moment
    unsubscribe returns the handler receives nothing more, also from the batch being
    delivered; a subscription made meanwhile hears the rest of it."""
    game = cardcore.new_game("golf", 2, seed=7)
    inside, go = threading.Event(), threading.Event()
    later: list[Event] = []
    extra: list[str] = []

    def first(event: Event) -> None:
        if event.slug == "action-applied":
            inside.set()
            go.wait(WAIT)

    game.events.subscribe(Event, first)
    second = game.events.subscribe(Event, later.append)
    worker = threading.Thread(target=lambda: game.act(0, "flip 0"))
    worker.start()
    assert inside.wait(WAIT)
    game.events.unsubscribe(second)
    game.events.subscribe(Event, lambda e: extra.append(e.slug))
    go.set()
    worker.join(WAIT)
    assert not worker.is_alive() and later == [] and extra == ["card-revealed"]


def test_tonk_natural_at_the_deal_reaches_new_game_subscribers_only() -> None:
    """embedding.rst: a subscription made after new_game returns misses the first deal
    and, in Tonk, a natural dealt at once; ``subscribers=`` receive it (hand-ended, then
    game-ended, at version 0)."""
    log: list[Event] = []
    game = cardcore.new_game("tonk", 3, seed=30, subscribers=[(Event, log.append)])
    assert game.is_over and game.version == 0
    assert [e.slug for e in log][-2:] == ["hand-ended", "game-ended"]
    late: list[Event] = []
    again = cardcore.new_game("tonk", 3, seed=30)
    again.events.subscribe(Event, late.append)
    assert again.is_over and late == []


def test_subscriber_failing_during_setup_does_not_stop_new_game() -> None:
    """EventBus: a handler's exception never reaches the caller (here new_game); the
    other subscribers still get every setup event."""
    got: list[str] = []

    def broken(event: Event) -> None:
        raise RuntimeError("not connected yet")

    logging.disable(logging.CRITICAL)
    try:
        game = cardcore.new_game(
            "golf", 2, seed=7, subscribers=[(Event, broken), (Event, lambda e: got.append(e.slug))]
        )
    finally:
        logging.disable(logging.NOTSET)
    assert game.version == 0
    assert got == ["game-started", "cards-dealt", "card-revealed", "turn-passed"]


def test_turn_based_seen_is_only_checked_for_the_window() -> None:
    """embedding.rst: in a turn-based game ``seen`` is only checked to lie within the
    window: an old (in-window) ``seen`` is accepted; a second ``take`` after a ``draw``
    is illegal citing the game's rule, not stale."""
    game = cardcore.new_game("golf", 2, seed=7)
    for seat, text in GOLF_OPENING[:4]:
        game.act(seat, text)
    game.act(0, "draw", seen=0)
    assert game.version == 5
    with pytest.raises(cardcore.IllegalActionError) as error:
        game.act(0, "take", seen=4)
    assert not isinstance(error.value, cardcore.StaleActionError)
    assert error.value.rule_id and error.value.rule_id.startswith("GOLF")


def test_stale_refusal_publishes_nothing() -> None:
    """embedding.rst: a rejected action (a stale one too) changes nothing, events included."""
    game = _ready_spit()
    log: list[Event] = []
    game.events.subscribe(Event, log.append)
    game.act(0, "play 1 L", seen=2)
    count, record = len(log), game.record()
    with pytest.raises(cardcore.StaleActionError):
        game.act(1, "play 3 L", seen=2)
    assert len(log) == count and game.record() == record and game.version == 3


def test_on_error_is_not_carried_to_copies() -> None:
    """Game.clone / load: copies are heard by no subscriber; their bus has no on_error
    either (the docs say nothing of on_error here: see the audit notes)."""
    game = cardcore.new_game("golf", 2, seed=7)
    game.events.on_error = print
    assert game.clone().events.on_error is None
    assert cardcore.load(game.save()).events.on_error is None
