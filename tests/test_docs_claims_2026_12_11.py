"""Claims of docs/security.rst, docs/embedding.rst and docs/events.rst checked against the code.

Review of 11 December 2026. Each test names the page and the promise it checks; a
promise that does not hold is a strict xfail whose reason says what happens instead.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import random
import re
import threading
import types
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import (
    HOST,
    SPECTATOR,
    ActionApplied,
    CardcoreError,
    CorruptStateError,
    Event,
    GameEnded,
    IllegalActionError,
    NotationError,
    OptionError,
    PaymentsMade,
    SeatError,
    StaleActionError,
)

SPIT_DECK = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)
GOLF_OPENING = [(0, "flip 0"), (0, "flip 4"), (1, "flip 1"), (1, "flip 5"), (0, "draw")]
CARD = re.compile(r"^(?:[A2-9JQK]|10)[SHDC]$|^JK$")


def _dump(game: cardcore.Game) -> str:
    return json.dumps(game.save(), sort_keys=True)


def _golf() -> cardcore.Game:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    for seat, text in GOLF_OPENING:
        game.act(seat, text)
    return game


def _spit_ready() -> cardcore.Game:
    game = cardcore.new_game("spit", ["Ann", "Bob"], deck=SPIT_DECK, seed=2)
    game.act(0, "ready")
    game.act(1, "ready")
    return game


def _cards(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, str):
        if CARD.match(value):
            out.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _cards(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _cards(item, out)
    return out


def _random_play(game: cardcore.Game, rng: random.Random, until: int) -> None:
    while not game.is_over and game.version < until:
        seat = rng.choice(game.to_act)
        actions = [a for a in game.legal_actions(seat) if str(a) not in ("resign", "end")]
        if not actions:
            break
        game.apply(rng.choice(actions))


# --- security.rst: "It gets only documented errors" -------------------------------------------

BAD_SEATS = [True, np.int64(1), 1.0, -1, 2, "1", 10**5000]


@pytest.mark.parametrize(
    "seat", BAD_SEATS, ids=["bool", "np-int", "float", "neg", "too-big", "str", "huge"]
)
def test_security_bad_seat_refused_by_every_seat_method(seat: Any) -> None:
    game = _golf()
    before = _dump(game)
    calls = [
        lambda: game.act(seat, "discard"),
        lambda: game.view(seat),
        lambda: game.legal_actions(seat),
        lambda: game.history(seat),
        lambda: game.determinize(seat, seed=1),
        lambda: game.events.subscribe(Event, print, seat=seat),
    ]
    for call in calls:
        with pytest.raises(SeatError):
            call()
    assert _dump(game) == before


def test_security_integer_too_large_to_print_is_shown_by_its_size() -> None:
    game = _golf()
    with pytest.raises(SeatError, match="bits") as info:
        game.view(10**5000)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("text", ["flip ²", "flip ٠", "x" * 10**6, b"flip 0", None, 5])
def test_security_text_that_is_no_action_is_a_notation_error(text: Any) -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    before = _dump(game)
    with pytest.raises(NotationError) as info:
        game.act(0, text)
    assert len(str(info.value)) < 400  # hostile values cut short
    assert _dump(game) == before


def test_security_long_text_refused_naming_max_notation() -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    with pytest.raises(NotationError, match="at most 200"):
        game.act(0, "flip 0" + " " * 300)


@pytest.mark.parametrize("seen", [True, np.int64(0), 0.0, float("nan"), "0", -1, 10**6, 2**200])
def test_security_seen_not_a_version_in_the_window_is_illegal(seen: Any) -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    before = _dump(game)
    with pytest.raises(IllegalActionError):
        game.act(0, "flip 0", seen=seen)
    assert _dump(game) == before and game.version == 0


def test_security_seen_window_is_the_last_stale_window_versions() -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    _random_play(game, random.Random(0), 100)
    version = game.version
    assert version == 100
    for seen, ok in [(version, True), (version - cardcore.STALE_WINDOW, True)]:
        clone = game.clone()
        seat = clone.to_act[0]
        clone.act(seat, str(clone.legal_actions(seat)[0]), seen=seen)
        assert ok and clone.version == version + 1
    clone = game.clone()
    seat = clone.to_act[0]
    with pytest.raises(IllegalActionError, match="window"):
        clone.act(seat, str(clone.legal_actions(seat)[0]), seen=version - cardcore.STALE_WINDOW - 1)


@pytest.mark.parametrize(
    "at", [float("nan"), float("inf"), -float("inf"), 1e16, -1e16, 10**15 + 1, True, "1.0", 2**2000]
)
def test_security_at_not_a_finite_time_is_illegal(at: Any) -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    before = _dump(game)
    with pytest.raises(IllegalActionError, match="CORE-RECORD-1"):
        game.act(0, "flip 0", at=at)
    assert _dump(game) == before


def test_security_at_up_to_max_time_is_accepted() -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    game.act(0, "flip 0", at=1e15)
    game.act(0, "flip 4", at=np.float64(1e15))
    assert game.record()["actions"][0][2] == 1e15


def test_security_numpy_int_time_is_a_finite_number() -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    game.act(0, "flip 0", at=np.int64(3))
    assert game.record()["actions"][0][2] == 3


def test_security_realtime_time_earlier_than_the_last_is_refused() -> None:
    game = _spit_ready()
    game.act(0, "play 1 L", at=5.0)
    before = _dump(game)
    legal = game.view(1)["legal"]
    with pytest.raises(IllegalActionError, match="CORE-RECORD-1"):
        game.act(1, legal[0], at=4.0)
    assert _dump(game) == before


# --- security.rst: seeds, players, options -------------------------------------------------------


@pytest.mark.parametrize("seed", [2**128, -1, True, np.int64(3), 3.0, "3"])
def test_security_seed_outside_0_to_2_128_is_refused(seed: Any) -> None:
    with pytest.raises(OptionError):
        cardcore.new_game("golf", 2, seed=seed)


def test_security_seed_2_128_minus_1_is_accepted() -> None:
    assert cardcore.new_game("golf", 2, seed=2**128 - 1).seed == 2**128 - 1


@pytest.mark.parametrize(
    "players",
    [0, 65, [], ["a" * 101, "b"], ["\ud800", "b"], ["", "b"], np.int64(2), True, ["a", 5]],
    ids=repr,
)
def test_security_players_beyond_limits_are_refused(players: Any) -> None:
    with pytest.raises(OptionError):
        cardcore.new_game("golf", players, seed=1)


def test_security_players_at_limits_are_accepted() -> None:
    assert len(cardcore.new_game("golf", 64, seed=1).players) == 64
    names = ("é" * 100, "😀" * 100)
    assert cardcore.new_game("golf", list(names), seed=1).players == names


@pytest.mark.parametrize(
    "options",
    [
        {"rounds": 10**9},
        {"rounds": 0},
        {"rounds": True},
        {"rounds": np.int64(3)},
        {"max_turns": 10**30},
    ],
    ids=repr,
)
def test_security_integer_options_beyond_bounds_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        cardcore.new_game("golf", 2, seed=1, options=options)


# --- security.rst / embedding.rst: what a seat sees ----------------------------------------------


@pytest.mark.parametrize(("name", "count"), [("golf", 2), ("tonk", 3), ("spit", 2), ("speed", 2)])
def test_security_seat_streams_hold_no_card_the_seat_never_saw(name: str, count: int) -> None:
    streams: dict[Any, list[Event]] = {seat: [] for seat in range(count)}
    streams[SPECTATOR] = []
    subscribers = [(Event, events.append, seat) for seat, events in streams.items()]
    game = cardcore.new_game(name, count, seed=1, subscribers=subscribers)
    known: dict[Any, set[str]] = {seat: _cards(game.view(seat), set()) for seat in range(count)}
    known[SPECTATOR] = _cards(game.view(None), set())
    rng = random.Random(1)
    while not game.is_over and game.version < 400:
        seat = rng.choice(game.to_act)
        actions = [a for a in game.legal_actions(seat) if str(a) not in ("resign", "end")]
        if not actions:
            break
        game.apply(rng.choice(actions))
        for s in range(count):
            _cards(game.view(s), known[s])
        _cards(game.view(None), known[SPECTATOR])
    for s in range(count):
        _cards(game.history(s), known[s])
    _cards(game.history(None), known[SPECTATOR])
    for seat, events in streams.items():
        carried = set()
        for event in events:
            _cards(event.to_json(), carried)
        assert carried <= known[seat], (seat, sorted(carried - known[seat]))


def test_security_views_history_and_streams_never_hold_the_seed() -> None:
    seed = 2**127 + 987_654_321
    log: list[Event] = []
    game = cardcore.new_game("tonk", 3, seed=seed, subscribers=[(Event, log.append, 0)])
    shown = [game.view(s) for s in range(3)] + [
        game.view(None),
        game.history(0),
        game.history(None),
    ]
    shown += [event.to_json() for event in log]
    text = json.dumps(shown)
    assert str(seed) not in text and format(seed, "x") not in text


def test_events_host_stream_full_seat_streams_redacted() -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    seen: dict[str, list[Any]] = {"host": [], "Ann": [], "Bob": [], "spec": []}
    game.events.subscribe(cardcore.CardDrawn, seen["host"].append)
    game.events.subscribe(cardcore.CardDrawn, seen["Ann"].append, seat=0)
    game.events.subscribe(cardcore.CardDrawn, seen["Bob"].append, seat=1)
    game.events.subscribe(cardcore.CardDrawn, seen["spec"].append, seat=SPECTATOR)
    for seat, text in GOLF_OPENING:
        game.act(seat, text)
    assert seen["host"][0].card is not None and seen["Ann"][0].card == seen["host"][0].card
    assert seen["Bob"][0].card is None and seen["spec"][0].card is None


def test_embedding_view_none_has_no_legal_actions_and_hides_hands() -> None:
    game = cardcore.new_game("tonk", ["Ann", "Bob", "Cy"], seed=5)
    spectator = game.view(None)
    assert spectator["legal"] == []
    zones = {zone["name"]: zone for zone in spectator["zones"]}
    assert all(card is None for i in range(3) for card in zones[f"hand.{i}"]["cards"])
    mine = {zone["name"]: zone for zone in game.view(0)["zones"]}
    assert None not in mine["hand.0"]["cards"] and set(mine["hand.1"]["cards"]) == {None}


def test_embedding_zones_in_the_same_order_in_every_view() -> None:
    game = cardcore.new_game("tonk", 3, seed=5)
    orders = [[z["name"] for z in game.view(s)["zones"]] for s in (0, 1, 2, None)]
    assert all(order == orders[0] for order in orders)


# --- security.rst: saves and records -------------------------------------------------------------


def test_security_signed_save_with_an_added_field_is_refused() -> None:
    signed = _golf().save(key="secret")
    assert cardcore.load(signed, key="secret").version == 5
    for place in ("top", "record"):
        data = copy.deepcopy(signed)
        (data if place == "top" else data["record"])["extra"] = 1
        with pytest.raises(CorruptStateError, match="signature"):
            cardcore.load(data, key="secret")


def test_security_signed_save_refused_with_other_key_or_unsigned() -> None:
    game = _golf()
    with pytest.raises(CorruptStateError):
        cardcore.load(game.save(key="secret"), key="other")
    with pytest.raises(CorruptStateError, match="not signed"):
        cardcore.load(game.save(), key="secret")
    assert cardcore.load(game.save(key="secret")).version == 5  # without key= ignored


def test_security_signed_record_with_a_changed_time_is_refused() -> None:
    record = _golf().record(key="secret")
    record["actions"][-1][2] = 1.0
    with pytest.raises(CorruptStateError, match="signature"):
        cardcore.replay(record, key="secret")


@pytest.mark.parametrize(
    "edit",
    ["players", "seed", "no-config", "version", "options"],
)
def test_security_unsigned_save_edited_in_one_place_is_refused(edit: str) -> None:
    data = _golf().save()
    if edit == "players":
        data["record"]["players"] = ["Bob", "Ann"]
    elif edit == "seed":
        data["record"]["seed"] += 1
    elif edit == "no-config":
        del data["config"]
    elif edit == "version":
        data["version"] = 0
    else:
        data["config"]["options"]["rounds"] = 1
    with pytest.raises(CorruptStateError):
        cardcore.load(data)


def test_security_unsigned_finished_save_result_edit_is_refused() -> None:
    game = cardcore.new_game("tonk", ["Ann", "Bob"], seed=5)
    game.act(game.to_act[0], "resign")
    data = game.save()
    for field, value in [("result", None), ("truncated", True)]:
        edited = copy.deepcopy(data)
        edited["record"][field] = value
        with pytest.raises(CorruptStateError):
            cardcore.load(edited)


@pytest.mark.parametrize("bad", ["nan", "deep", "bigint", "huge"])
def test_security_record_beyond_limits_is_refused(bad: str) -> None:
    record = _golf().record()
    if bad == "nan":
        text = json.dumps(record).replace('"deck": null', '"deck": NaN')
    elif bad == "deep":
        record["deck"] = json.loads("[" * 40 + "]" * 40)
        text = json.dumps(record)
    elif bad == "bigint":
        record["seed"] = 2**600
        text = json.dumps(record)
    else:
        text = json.dumps(record) + " " * 20_000_001
    with pytest.raises(CorruptStateError):
        cardcore.replay(text)


def test_embedding_save_with_an_extra_card_is_refused() -> None:
    game = cardcore.new_game("tonk", ["Ann", "Bob", "Cy"], seed=5)
    data = json.loads(json.dumps(game.save()))
    data["state"]["zones"]["stock"]["cards"][0] = "JK"
    with pytest.raises(CorruptStateError, match="account for every card"):
        cardcore.load(data)


# --- embedding.rst: clocks, reads, staleness ----------------------------------------------------


@pytest.mark.parametrize("value", [float("nan"), "x", None, True, 1e16])
def test_embedding_clock_returning_no_time_is_refused_naming_the_clock(value: Any) -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    before = _dump(game)
    with pytest.raises(IllegalActionError, match="clock"):
        game.act(0, "flip 0", at=lambda: value)
    assert _dump(game) == before


def test_embedding_clock_exception_reaches_the_caller_as_it_is() -> None:
    game = cardcore.new_game("golf", 2, seed=4)

    def clock() -> float:
        raise ZeroDivisionError("clock")

    with pytest.raises(ZeroDivisionError):
        game.act(0, "flip 0", at=clock)
    assert game.version == 0


def test_embedding_reads_do_not_change_what_counts_as_seen() -> None:
    game = _spit_ready()
    bob = game.view(1)  # a read: must not become Bob's seen
    game.act(0, "play 1 L")
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "play 3 L")
    assert not isinstance(info.value, StaleActionError)
    with pytest.raises(StaleActionError):
        game.act(1, "play 3 L", seen=bob["version"])


def test_embedding_threads_race_one_applied_one_stale() -> None:
    game = _spit_ready()
    outcomes: list[str] = []

    def send(seat: int, text: str) -> None:
        try:
            game.act(seat, text, seen=2)
            outcomes.append("applied")
        except StaleActionError:
            outcomes.append("stale")

    threads = [threading.Thread(target=send, args=a) for a in [(0, "play 1 L"), (1, "play 3 L")]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["applied", "stale"] and game.version == 3


def test_embedding_deck_without_seed_draws_a_fresh_seed() -> None:
    one = cardcore.new_game("spit", 2, deck=SPIT_DECK)
    two = cardcore.new_game("spit", 2, deck=SPIT_DECK)
    assert one.seed != two.seed and one.record()["seed"] == one.seed


def test_security_determinize_gives_the_clone_another_seed() -> None:
    game = cardcore.new_game("tonk", 3, seed=5)
    assert game.determinize(0, seed=11).seed != game.seed


def test_embedding_player_seat_cannot_end_the_match_host_can() -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    with pytest.raises(IllegalActionError):
        game.act(0, "end")
    assert game.version == 0
    game.act(HOST, "end")
    assert game.is_over


@pytest.mark.parametrize("phase", ["[]", "{}", '["x",1]'])
def test_embedding_bad_position_raises_option_error(phase: str) -> None:
    game = cardcore.new_game("tonk", 3, seed=3)
    here = game.position()
    found = re.search(r'phase="[a-z]+"', here)
    assert found is not None
    bad = here.replace(found.group(0), f"phase={phase}", 1)
    with pytest.raises(OptionError):
        cardcore.new_game("tonk", 3, position=bad, seed=5)


@pytest.mark.parametrize(
    "position",
    ["", "x", "x" * 10**6, 5, b"spit", float("nan")],
    ids=["empty", "x", "long", "int", "bytes", "nan"],
)
def test_embedding_garbage_position_raises_option_error(position: Any) -> None:
    with pytest.raises(OptionError):
        cardcore.new_game("spit", 2, position=position, seed=5)


# --- security.rst / events.rst: failing handlers -------------------------------------------------


@pytest.fixture
def quiet_events() -> Any:
    logger = logging.getLogger("cardcore.events")
    old = logger.disabled
    logger.disabled = True
    yield
    logger.disabled = old


def test_events_failing_handler_reported_dropped_others_get_everything(quiet_events: Any) -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    failures: list[Any] = []
    good: list[Event] = []
    host: list[Event] = []
    game.events.on_error = failures.append

    def bad(event: Event) -> None:
        raise ConnectionResetError("gone")

    sub = game.events.subscribe(Event, bad, seat=1, drop_on_error=True)
    game.events.subscribe(Event, good.append, seat=0)
    game.events.subscribe(Event, host.append)
    for seat, text in GOLF_OPENING:
        game.act(seat, text)
    assert game.version == 5
    assert len(failures) == 1 and failures[0].subscription is sub
    assert isinstance(failures[0].error, ConnectionResetError)
    assert len(good) == len(host) and sum(isinstance(e, ActionApplied) for e in good) == 5


def test_events_on_error_that_raises_does_not_fail_the_act(quiet_events: Any) -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    got: list[Event] = []

    def on_error(failure: Any) -> None:
        raise RuntimeError("on_error broke")

    def bad(event: Event) -> None:
        raise ConnectionResetError("gone")

    game.events.on_error = on_error
    game.events.subscribe(Event, bad)
    game.events.subscribe(Event, got.append)
    game.act(0, "flip 0")
    assert game.version == 1 and [e.slug for e in got] == ["action-applied", "card-revealed"]


def test_events_keyboard_interrupt_propagates_after_others_had_the_batch() -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    after: list[Event] = []
    raised = []

    def interrupt(event: Event) -> None:
        if not raised:
            raised.append(event)
            raise KeyboardInterrupt

    game.events.subscribe(Event, interrupt)
    game.events.subscribe(Event, after.append)
    with pytest.raises(KeyboardInterrupt):
        game.act(0, "flip 0")
    assert game.version == 1
    assert [e.slug for e in after] == ["action-applied", "card-revealed"]
    game.act(0, "flip 4")
    assert game.version == 2


def test_events_delivered_by_the_applying_thread() -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    threads: list[int] = []
    game.events.subscribe(Event, lambda e: threads.append(threading.get_ident()))
    worker = threading.Thread(target=lambda: game.act(0, "flip 0"))
    worker.start()
    worker.join()
    assert threads and set(threads) == {worker.ident}


def test_events_handler_apply_queues_behind_the_current_batch() -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    order: list[str] = []

    def handler(event: Event) -> None:
        order.append(event.slug)
        if isinstance(event, ActionApplied) and event.version == 1:
            game.act(0, "flip 4")

    game.events.subscribe(Event, handler)
    game.act(0, "flip 0")
    assert order == [
        "action-applied",
        "card-revealed",
        "action-applied",
        "card-revealed",
        "turn-passed",
    ]


def test_events_clone_has_no_subscribers() -> None:
    game = _golf()
    game.events.subscribe(Event, lambda e: None)
    assert game.events.active and not game.clone().events.active


# --- events.rst: the catalogue ------------------------------------------------------------------


def _event_classes(module: Any) -> list[type[Event]]:
    found = [getattr(module, name) for name in module.__all__]
    return [c for c in found if isinstance(c, type) and issubclass(c, Event) and c is not Event]


def test_events_slugs_distinct_and_no_clash_with_core() -> None:
    import cardcore.events as core
    import cardcore_golf.events as golf
    import cardcore_spit.events as spit
    import cardcore_tonk.events as tonk

    core_slugs = {c.slug for c in _event_classes(core)}
    assert len(core_slugs) == len(_event_classes(core))
    for module in (golf, tonk, spit):
        slugs = [
            c.slug
            for c in _event_classes(module)
            if c.slug not in core_slugs or c.__module__ == core.__name__
        ]
        mine = [c.slug for c in _event_classes(module) if c.__module__ == module.__name__]
        assert len(mine) == len(set(mine)) and not set(mine) & core_slugs, (module, slugs)
    assert all(
        c.slug.startswith("golf-") for c in _event_classes(golf) if c.__module__ == golf.__name__
    )


def test_events_action_applied_first_for_every_action_in_version_order() -> None:
    log: list[Event] = []
    game = cardcore.new_game("spit", 2, seed=1, subscribers=[(Event, log.append)])
    _random_play(game, random.Random(1), 200)
    applied = [e for e in log if isinstance(e, ActionApplied)]
    assert [e.version for e in applied] == list(range(1, game.version + 1))
    # the game's own events of an action come after its action-applied
    first = log.index(applied[0])
    assert all(not isinstance(e, ActionApplied) for e in log[:first])


def test_events_tonk_pays_with_hand_ended_never_payments_made() -> None:
    payments: list[Event] = []
    every: list[Event] = []
    game = cardcore.new_game(
        "tonk", 3, seed=1, subscribers=[(PaymentsMade, payments.append), (Event, every.append)]
    )
    _random_play(game, random.Random(1), 300)
    assert game.is_over and payments
    assert {e.slug for e in payments} == {"hand-ended"}
    assert "payments-made" not in {e.slug for e in every}
    assert sum(isinstance(e, GameEnded) for e in every) == 1


def test_events_golf_never_publishes_payments_made() -> None:
    every: list[Event] = []
    game = cardcore.new_game(
        "golf", 2, seed=1, options={"rounds": 1}, subscribers=[(Event, every.append)]
    )
    _random_play(game, random.Random(1), 2000)
    assert game.is_over
    assert not [e for e in every if isinstance(e, PaymentsMade)]


def test_events_are_immutable_and_for_seat_blanks_secret() -> None:
    log: list[Event] = []
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7, subscribers=[(Event, log.append)])
    for seat, text in GOLF_OPENING:
        game.act(seat, text)
    drawn = next(e for e in log if isinstance(e, cardcore.CardDrawn))
    with pytest.raises(AttributeError):
        drawn.card = None  # type: ignore[misc]
    assert drawn.for_seat(0) is drawn and drawn.for_seat(1).card is None
    assert drawn.for_seat(SPECTATOR).card is None


def test_events_bus_inactive_without_listeners() -> None:
    assert not cardcore.new_game("golf", 2, seed=1).events.active


def test_events_subscribers_to_new_game_with_bad_seat_are_refused() -> None:
    with pytest.raises(CardcoreError):
        cardcore.new_game("golf", 2, seed=1, subscribers=[(Event, print, 5)])


def test_events_str_subclass_spectator_is_the_public_stream() -> None:
    class Text(str):
        pass

    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    got: list[Any] = []
    game.events.subscribe(cardcore.CardDrawn, got.append, seat=Text(SPECTATOR))
    for seat, text in GOLF_OPENING:
        game.act(seat, text)
    assert len(got) == 1 and got[0].card is None


def test_security_plugin_on_event_failure_is_isolated(quiet_events: Any) -> None:
    calls: list[str] = []

    @cardcore.hookimpl
    def on_event(event: Event) -> None:
        calls.append(event.slug)
        raise RuntimeError("metrics down")

    module = types.ModuleType("docs_claims_observer")
    module.RULE = cardcore.RuleInfo(  # type: ignore[attr-defined]
        id="TEST-DOCS-OBS-1", name="golf.docs-claims-observer", game="golf", summary="observer"
    )
    module.on_event = on_event  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.docs-claims-observer", module)
    try:
        game = cardcore.new_game("golf", 2, seed=7, rules=["golf.docs-claims-observer"])
        failures: list[Any] = []
        got: list[Event] = []
        game.events.on_error = failures.append
        game.events.subscribe(Event, got.append)
        game.act(0, "flip 0")
        game.act(0, "flip 4")
        assert game.version == 2 and len(got) == 5
        assert len(failures) == len(got) and {f.plugin for f in failures} == {
            "golf.docs-claims-observer"
        }
        heard = len(calls)
        game.clone().act(1, "flip 1")
        assert len(calls) == heard  # no plugin's on_event hears a clone
    finally:
        cardcore.unregister("cardcore.rules", "golf.docs-claims-observer")


def test_embedding_hand_turned_face_up_is_listed_sorted() -> None:
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

    def key(card: str) -> tuple[int, int]:
        return ranks.index(card[:-1]), "SHDC".index(card[-1])

    checked = 0
    for seed in range(10):
        game = cardcore.new_game("tonk", 3, seed=seed)
        _random_play(game, random.Random(seed), 300)
        for view in (game.view(0), game.view(None)):
            for zone in view["zones"]:
                cards = zone["cards"]
                if (
                    zone["owner"] not in (None, view["seat"])
                    and len(cards) > 1
                    and None not in cards
                ):
                    checked += 1
                    assert cards == sorted(cards, key=key), zone
    assert checked


@pytest.mark.parametrize(
    ("error", "raised"),
    [
        (RuntimeError("down"), cardcore.PluginError),
        (asyncio.CancelledError(), asyncio.CancelledError),
    ],
    ids=["runtime", "cancelled"],
)
def test_security_failing_hook_inside_apply_restores_the_game(
    error: BaseException, raised: type
) -> None:
    failing: list[BaseException] = []

    @cardcore.hookimpl
    def score_round(state: Any, scores: Any) -> None:
        if failing:
            raise failing[0]

    name = f"golf.docs-claims-scorer-{type(error).__name__.lower()}"
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = cardcore.RuleInfo(id="TEST-DOCS-SR-1", name=name, game="golf", summary="x")  # type: ignore[attr-defined]
    module.score_round = score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", name, module)
    try:
        game = cardcore.new_game("golf", 2, seed=3, options={"rounds": 3}, rules=[name])
        rng = random.Random(0)
        for _ in range(3000):
            seat = game.to_act[0]
            action = rng.choice([a for a in game.legal_actions(seat) if str(a) != "resign"])
            before, views = _dump(game), [game.view(s) for s in range(2)]
            failing.append(error)
            try:
                game.apply(action)
            except BaseException as exc:
                failing.clear()
                assert isinstance(exc, raised)
                assert _dump(game) == before and [game.view(s) for s in range(2)] == views
                version = game.version
                game.apply(action)  # goes through once the rule works again
                assert game.version == version + 1
                return
            failing.clear()
        pytest.fail("no round was scored")
    finally:
        cardcore.unregister("cardcore.rules", name)
