"""Events and views read review (2026-12-07): redaction per seat and for spectators, delivery
exactly once and in version order, handlers that act, unsubscribe or fail, clones unheard,
and each game's events agreeing with its history and views."""

from __future__ import annotations

import json
import pickle
import random
import re
from typing import Any

import pytest

import cardcore
from cardcore import (
    SPECTATOR,
    ActionApplied,
    Card,
    CardDrawn,
    CardRevealed,
    Event,
    PaymentsMade,
    RoundScored,
)
from cardcore_golf.events import LayoutsRevealed
from cardcore_tonk.events import HandEnded

_CARD = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AJQK])[CDHS](?![0-9A-Z])|(?<![A-Z])JK(?![A-Z])")


def _cards(obj: Any) -> set[str]:
    """Every card named anywhere in *obj* (cards, card texts, nested lists and dicts)."""
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, Card):
            out.add(str(v))
        elif isinstance(v, list | tuple):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, str) and _CARD.fullmatch(v):
            out.add(v)

    walk(obj)
    return out


def _play(game: cardcore.Game, rng: random.Random, steps: int, after: Any = None) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if not seats:
            return
        seat = rng.choice(seats)
        game.apply(rng.choice(game.legal_actions(seat)))
        if after is not None:
            after()


_GAMES = [
    ("golf", 2, None),
    ("golf", 3, {"layout": "4"}),
    ("golf", 2, {"layout": "4h"}),
    ("tonk", 3, None),
    ("spit", 2, None),
    ("speed", 2, None),
]


@pytest.mark.parametrize(("name", "players", "options"), _GAMES)
def test_seat_and_spectator_streams_name_only_cards_their_reader_could_know(name, players, options):
    """Every card in a seat's (or the spectator's) stream, in its fields, ``to_json()``,
    ``repr`` and ``str``, is one that reader's views showed by then; every stream has the
    host's events, one for one, in the same order (exactly once)."""
    readers: list[int | str | None] = [None, SPECTATOR, *range(players)]
    for seed in range(4):
        streams: dict[Any, list[Event]] = {r: [] for r in readers}
        subs = [(Event, streams[r].append, r) for r in readers]
        game = cardcore.new_game(name, players, seed=seed, options=options, subscribers=subs)
        known: dict[Any, set[str]] = {r: set() for r in readers if r is not None}
        marks = dict.fromkeys(readers, 0)
        leaks: list[tuple[Any, str, set[str]]] = []

        def look(game=game, streams=streams, known=known, marks=marks, leaks=leaks) -> None:
            for r, seen in known.items():
                who = None if r == SPECTATOR else r
                view = game.view(who)
                seen |= _cards(view["zones"]) | _cards(view["table"]) | _cards(game.history(who))
            for r, seen in known.items():
                for event in streams[r][marks[r] :]:
                    if event.slug == "card-discarded":  # face up by rule (and may end a round)
                        continue
                    named = _cards(event.to_json()) | _cards(list(event.fields().values()))
                    named |= set(_CARD.findall(repr(event))) | set(_CARD.findall(str(event)))
                    if named - seen:
                        leaks.append((r, event.slug, named - seen))
            for r in readers:
                marks[r] = len(streams[r])

        look()
        _play(game, random.Random(seed), 250, look)
        assert leaks == []
        host = [type(e) for e in streams[None]]
        for r in readers:
            assert [type(e) for e in streams[r]] == host


def test_golf_peek_reaches_only_the_peeker_and_the_host():
    streams: dict[Any, list[Event]] = {r: [] for r in (None, SPECTATOR, 0, 1, 2)}
    subs = [(CardRevealed, streams[r].append, r) for r in streams]
    game = cardcore.new_game("golf", 3, seed=5, options={"layout": "4"}, subscribers=subs)
    for lst in streams.values():
        lst.clear()
    peek = next(a for a in game.legal_actions(game.to_act[0]) if str(a).startswith("peek"))
    game.apply(peek)
    peeker = peek.seat
    (full,) = streams[None]
    assert full.card is not None and full.visible_to == 1 << peeker
    assert streams[peeker] == [full]
    for r in (SPECTATOR, *(s for s in range(3) if s != peeker)):
        (copy,) = streams[r]
        assert copy.card is None and copy.to_json()["card"] is None
        assert str(full.card) not in repr(copy)
    # the view agrees: only the peeker sees the card at that position
    grid = peek.seat
    pos = peek.pos
    assert game.view(peeker)["table"]["grids"][grid][pos] == str(full.card)
    for other in [None, *(s for s in range(3) if s != peeker)]:
        assert game.view(other)["table"]["grids"][grid][pos] is None


def test_tonk_hand_ended_agrees_with_history_and_the_views_shown_flags():
    """HandEnded (a PaymentsMade under its own slug) carries what the history says of that
    hand, and the views' ``shown`` flags say which hands it showed (TONK-VIEW-1)."""
    for seed in range(12):
        got: list[PaymentsMade] = []
        game = cardcore.new_game(
            "tonk", 3, seed=seed, options={"hands": 3}, subscribers=[(PaymentsMade, got.append, 1)]
        )
        problems: list[Any] = []

        def check(game=game, got=got, problems=problems) -> None:
            for event in got:
                assert type(event) is HandEnded and event.to_json()["event"] == "hand-ended"
                entry = [h for h in game.history(1) if h["kind"] == "hand"][-1]
                js = event.to_json()
                if (js["shown"], js["hand_totals"], js["amounts"], js["reason"]) != (
                    entry["shown"],
                    entry["totals"],
                    entry["amounts"],
                    entry["reason"],
                ):
                    problems.append((js, entry))
                table = game.view(1)["table"]
                if table["phase"] in ("between", "over") and table["shown"] != [
                    h is not None for h in (event.shown or (None,) * 3)
                ]:
                    problems.append((table["shown"], event.shown))
            got.clear()

        check()
        _play(game, random.Random(seed), 400, check)
        assert problems == []


def test_golf_layouts_revealed_and_round_scored_agree_with_history():
    for seed in range(6):
        got: list[Event] = []
        game = cardcore.new_game("golf", 2, seed=seed, subscribers=[(Event, got.append, SPECTATOR)])
        _play(game, random.Random(seed), 400)
        revealed = [e for e in got if isinstance(e, LayoutsRevealed)]
        scored = [e for e in got if isinstance(e, RoundScored)]
        past = game.history(SPECTATOR)
        assert len(revealed) == len(scored) == len(past)
        for lay, score, entry in zip(revealed, scored, past, strict=True):
            assert lay.to_json()["grids"] == entry["grids"] and lay.ender == entry["ender"]
            assert list(score.scores) == entry["scores"] and list(score.totals) == entry["totals"]
        assert game.history(0, since=1) == past[1:]


def test_a_handler_that_acts_keeps_every_stream_in_version_order_once():
    order: list[int] = []
    seat_order: list[int] = []
    game = cardcore.new_game("golf", 2, seed=3)

    def act_again(event: ActionApplied) -> None:
        if event.version < 6 and not game.is_over:
            seat = game.to_act[0]
            game.apply(game.legal_actions(seat)[0])

    subs = [
        game.events.subscribe(ActionApplied, lambda e: order.append(e.version)),
        game.events.subscribe(ActionApplied, act_again),
        game.events.subscribe(ActionApplied, lambda e: seat_order.append(e.version), seat=1),
    ]
    try:
        game.apply(game.legal_actions(game.to_act[0])[0])
        assert game.version == 6
        assert order == seat_order == [1, 2, 3, 4, 5, 6]
    finally:
        for sub in subs:
            game.events.unsubscribe(sub)


def test_unsubscribing_another_seats_subscription_mid_event_stops_it_at_once():
    game = cardcore.new_game("golf", 2, seed=3)
    late: list[Event] = []
    holder: dict[str, Any] = {}

    def first(event: Event) -> None:
        game.events.unsubscribe(holder["late"])

    a = game.events.subscribe(Event, first, seat=0)
    holder["late"] = game.events.subscribe(Event, late.append, seat=1)
    try:
        game.apply(game.legal_actions(game.to_act[0])[0])
        assert late == []
        assert holder["late"].handler is not late.append
    finally:
        game.events.unsubscribe(a)


def test_a_failing_seat_subscriber_is_dropped_with_its_redacted_copy_and_costs_nobody():
    """A drop_on_error seat subscription that raises on a secret draw: dropped, its failure
    holds the redacted copy, the other subscribers and the game are untouched."""
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    for seat, text in [(0, "flip 0"), (0, "flip 4"), (1, "flip 1"), (1, "flip 5")]:
        game.act(seat, text)
    failures: list[Any] = []
    host: list[Event] = []
    other: list[Event] = []

    def boom(event: Event) -> None:
        raise RuntimeError("connection dropped")

    game.events.on_error = failures.append
    bad = game.events.subscribe(CardDrawn, boom, seat=1, drop_on_error=True)
    subs = [
        game.events.subscribe(CardDrawn, host.append),
        game.events.subscribe(CardDrawn, other.append, seat=1),
    ]
    try:
        game.act(0, "draw")
        version = game.version
        game.act(0, "discard")
        game.act(1, "draw")
        (failure,) = failures
        assert failure.dropped and failure.subscription is bad
        assert failure.event.card is None and failure.event.seat == 0
        assert len(host) == 2 and host[0].card is not None
        assert len(other) == 2 and other[0].card is None and other[1].card is not None
        assert version == 5 and game.version == 7
    finally:
        game.events.on_error = None
        for sub in subs:
            game.events.unsubscribe(sub)


def test_clones_and_determinized_worlds_are_heard_by_no_subscriber():
    game = cardcore.new_game("tonk", 3, seed=2)
    heard: list[Event] = []
    sub = game.events.subscribe(Event, heard.append)
    try:
        copy = game.clone()
        world = game.determinize(game.to_act[0], 9)
        for g in (copy, world):
            _play(g, random.Random(1), 20)
        assert heard == []
        game.apply(game.legal_actions(game.to_act[0])[0])
        assert heard and all(e.version == 1 for e in heard if isinstance(e, ActionApplied))
    finally:
        game.events.unsubscribe(sub)


def test_deal_events_reach_subscribers_given_to_new_game_redacted_per_seat():
    streams: dict[Any, list[Event]] = {r: [] for r in (None, SPECTATOR, 0, 1)}
    game = cardcore.new_game(
        "tonk", 2, seed=4, subscribers=[(Event, streams[r].append, r) for r in streams]
    )
    dealt = [e for e in streams[None] if e.slug == "hand-dealt"]
    assert [e.seat for e in dealt] == [0, 1] and all(e.cards for e in dealt)
    for r in (SPECTATOR, 0, 1):
        mine = [e for e in streams[r] if e.slug == "hand-dealt"]
        assert [e.cards is not None for e in mine] == [r == 0, r == 1]
    for seat in (0, 1):
        own = next(e for e in streams[seat] if e.slug == "hand-dealt" and e.seat == seat)
        assert sorted(map(str, own.cards)) == sorted(game.view(seat)["table"]["hand"])


def test_events_are_immutable_json_ready_and_pickle_back_equal():
    got: list[Event] = []
    game = cardcore.new_game("tonk", 3, seed=1, subscribers=[(Event, got.append, 2)])
    _play(game, random.Random(1), 40)
    assert got
    for event in got:
        with pytest.raises(AttributeError):
            event.slug_extra = 1  # type: ignore[attr-defined]
        name = event._fields[0]
        with pytest.raises(AttributeError):
            setattr(event, name, None)
        text = json.dumps(event.to_json())
        assert json.loads(text)["event"] == event.slug
        back = pickle.loads(pickle.dumps(event))
        assert back == event and type(back) is type(event)
        assert event.for_seat(2) is event or event.for_seat(2) == event


def test_truncate_from_a_handler_publishes_game_ended_once_after_the_current_batch():
    game = cardcore.new_game("golf", 2, seed=3)
    log: list[Event] = []

    def stop(event: ActionApplied) -> None:
        if event.version == 2:
            game.truncate()

    subs = [game.events.subscribe(ActionApplied, stop), game.events.subscribe(Event, log.append)]
    try:
        for _ in range(2):
            game.apply(game.legal_actions(game.to_act[0])[0])
        slugs = [e.slug for e in log]
        assert slugs.count("game-ended") == 1 and slugs[-1] == "game-ended"
        assert slugs.index("game-ended") > slugs.index("turn-passed")
        assert game.is_over and game.result.reason == "truncated"
    finally:
        for sub in subs:
            game.events.unsubscribe(sub)
