"""Security promises the suite let break (a mutation audit of 2026-12-24, 31 mutants of the
code that redacts views and events, rolls back failed actions, checks stale moves, tokens,
origins, limits and signatures; 25 were caught). Each test here fails on one of the others.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import Card, RuleInfo, hookimpl
from cardcore.events import SPECTATOR, CardDrawn, Event

_NAME = "golf.h7-hears-every-event"


@pytest.fixture
def observed() -> Iterator[str]:
    """A Golf house rule with an ``on_event``: the bus then delivers through its queue."""
    module = types.ModuleType("golf_h7_hears_every_event")

    @hookimpl
    def on_event(event: Any) -> None:
        return None

    module.on_event = on_event  # type: ignore[attr-defined]
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="TEST-H7-1", name=_NAME, game="golf", summary="hears events"
    )
    cardcore.register("cardcore.rules", _NAME, module)
    try:
        yield _NAME
    finally:
        cardcore.unregister("cardcore.rules", _NAME)


def _until_draw_by(game: cardcore.Game, seat: int) -> None:
    """Play the first legal action until *seat* is to act and may draw from the stock."""
    for _ in range(200):
        who = game.to_act[0]
        legal = [str(a) for a in game.legal_actions(who)]
        if who == seat and "draw" in legal:
            return
        game.act(who, legal[0])
    raise AssertionError(f"seat {seat} never came to draw")


@pytest.mark.parametrize("with_observer", [False, True], ids=["direct", "queued"])
@pytest.mark.parametrize("actor", [0, 1])
def test_seat_zero_gets_a_redacted_copy_of_another_seats_draw(
    observed: str, with_observer: bool, actor: int
) -> None:
    """Seat 0 is a seat like any other: ``seat=0`` is never taken for the full stream."""
    rules = [observed] if with_observer else []
    game = cardcore.new_game("golf", 2, rules=rules, options={"rounds": 1}, seed=7)
    _until_draw_by(game, actor)
    other = 1 - actor
    got: dict[int, list[Any]] = {0: [], 1: [], SPECTATOR: []}
    for who, sink in got.items():
        game.events.subscribe(CardDrawn, sink.append, seat=who)
    game.act(actor, "draw")
    drawn = game.view(actor)["table"]["held"]["card"]
    assert drawn is not None
    assert [e.card for e in got[actor]] == [Card.parse(drawn)]
    assert [e.card for e in got[other]] == [None]
    assert [e.card for e in got[SPECTATOR]] == [None]


@pytest.mark.parametrize("with_observer", [False, True], ids=["direct", "queued"])
def test_a_raising_subscriber_costs_no_later_subscriber_its_event(
    observed: str, with_observer: bool
) -> None:
    """On both delivery paths, every subscriber after a raising one still gets the event."""
    rules = [observed] if with_observer else []
    game = cardcore.new_game("golf", 2, rules=rules, options={"rounds": 1}, seed=7)
    seat = game.to_act[0]
    action = str(game.legal_actions(seat)[0])

    def boom(event: Event) -> None:
        raise RuntimeError("subscriber failed")

    later: list[Event] = []
    game.events.subscribe(Event, boom)
    game.events.subscribe(Event, later.append)
    game.act(seat, action)
    assert [type(e).__name__ for e in later][:1] == ["ActionApplied"]
    assert game.version == 1


def test_a_turn_based_move_on_the_view_just_before_a_change_is_stale() -> None:
    """The stale check is exact: a view one version older than the last change is stale too."""
    from tests.session.kit import table

    t = table("golf")
    t.act("a", "flip 0")
    t.act("a", "flip 4")
    t.act("b", "flip 1")
    before_last = t.mirrors["a"].version  # after Bob's first flip: Ann's view before his second
    t.act("b", "flip 5")  # turns a card of Bob's face up: Ann's view changed at this version
    game = t.session.game
    assert game is not None and game.to_act == (0,)
    version = game.version
    replies = t.act("a", "draw", seen=before_last)
    assert t.errors(replies) == ["stale"], replies
    assert game.version == version


def test_the_rate_limiter_gives_no_tokens_back_for_a_clock_that_went_back() -> None:
    """A ``now`` earlier than the last one refills nothing, and neither does returning to it."""
    from cardcore.session.protocol import RateLimiter

    limiter = RateLimiter(rate=1.0, burst=2, close_after=1000)
    assert limiter.take("c", 100.0)[0] and limiter.take("c", 100.0)[0]
    assert not limiter.take("c", 100.0)[0]
    assert not limiter.take("c", 50.0)[0]  # the clock stepped back
    assert not limiter.take("c", 100.0)[0]  # back where it was: no time has passed


@pytest.mark.parametrize("what", ["save", "record"])
@pytest.mark.parametrize("where", [0, -1])
def test_a_signature_changed_in_any_one_character_is_refused(what: str, where: int) -> None:
    """Every character of a signature counts: its first and its last."""
    game = cardcore.new_game("golf", 2, seed=3)
    for _ in range(5):
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    data = game.save(key="k") if what == "save" else game.record(key="k")
    signature = data["signature"]
    i = where % len(signature)
    data["signature"] = signature[:i] + ("0" if signature[i] != "0" else "1") + signature[i + 1 :]
    read = cardcore.load if what == "save" else cardcore.replay
    with pytest.raises(cardcore.CorruptStateError, match="bad signature"):
        read(data, key="k")
    data["signature"] = signature
    assert read(data, key="k").version == game.version


# -- a second pass: determinization, clones, fair deals, the kit, encodings ------------------------


def _hidden_slots(game: cardcore.Game, seat: int) -> list[tuple[int, int]]:
    zones = game.state.zones
    return [
        (z, i)
        for z in range(len(zones.cards))
        for i in range(len(zones.cards[z]))
        if not zones.knows(z, i, seat)
    ]


def test_determinize_keeps_what_the_seat_knows_and_redeals_what_it_does_not() -> None:
    game = cardcore.new_game("tonk", ["a", "b", "c"], seed=11)
    for seat in range(3):
        hand = game.view(seat)["table"]["hand"]
        hidden = _hidden_slots(game, seat)
        truth = [game.state.zones.cards[z][i] for z, i in hidden]
        moved = False
        for seed in range(5):
            world = game.determinize(seat, seed)
            assert world.view(seat)["table"]["hand"] == hand  # what the seat knows stays
            cards = world.state.zones.cards
            moved = moved or [cards[z][i] for z, i in hidden] != truth
        assert moved, f"seat {seat}'s determinized worlds keep the true hidden cards"


def test_determinize_of_twins_differing_only_in_hidden_cards_is_the_same_world() -> None:
    game = cardcore.new_game("tonk", ["a", "b", "c"], seed=11)
    twin = game.clone()
    hidden = _hidden_slots(twin, 0)
    zones = twin.state.zones
    (z1, i1), (z2, i2) = hidden[0], hidden[-1]
    assert zones.seen[z1][i1] == zones.seen[z2][i2]
    zones.cards[z1][i1], zones.cards[z2][i2] = zones.cards[z2][i2], zones.cards[z1][i1]
    assert twin.view(0) == game.view(0)
    for seed in range(3):
        a = game.determinize(0, seed).state.zones.cards
        b = twin.determinize(0, seed).state.zones.cards
        assert a == b  # the world depends on what seat 0 knows and the seed only


@pytest.mark.parametrize("name", ["golf", "tonk", "spit"])
def test_a_clone_played_on_leaves_the_original_untouched(name: str) -> None:
    import random

    players = 2 if name == "spit" else 3
    rng = random.Random(3)
    for seed, before in enumerate([0, 1, 2, 5, 12, 25]):
        game = cardcore.new_game(name, [f"p{i}" for i in range(players)], seed=seed)
        for _ in range(before):  # clone at many points of the game, the deal first
            if game.is_over:
                break
            seat = rng.choice(game.to_act)
            game.apply(rng.choice(game.legal_actions(seat)))
        saved = game.save()
        views = [game.view(s) for s in [*range(players), None]]
        clone = game.clone()
        for _ in range(300):
            if clone.is_over:
                break
            seat = rng.choice(clone.to_act)
            clone.apply(rng.choice(clone.legal_actions(seat)))
        assert game.save() == saved
        assert [game.view(s) for s in [*range(players), None]] == views


def test_the_fair_deal_bundle_is_not_revealed_before_the_game_is_over() -> None:
    from cardcore.session import Session, SessionConfig
    from tests.session.kit import Table

    config = SessionConfig(fair=True, seat_entropy=False)
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, options={"rounds": 1}, config=config)
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    assert session.phase == "playing"
    assert session.fair_bundle() is None  # it holds the server seed: every hidden card


def _next_hand(state: Any, seat: int | None) -> list[str]:
    from cardcore_tonk.state import HAND0

    other = 0 if seat is None else (seat + 1) % state.players
    return [str(c) for c in state.zones.cards[HAND0 + other]]


def test_the_kit_reports_a_table_field_that_shows_another_seats_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardcore.testing import check_game
    from cardcore_tonk.logic import TonkLogic

    table = TonkLogic.table

    def leaky(self: TonkLogic, state: Any, seat: int | None) -> dict[str, Any]:
        out = table(self, state, seat)
        if seat == state.players - 1:  # only the last seat's view leaks
            leak = {"number": 99, "owner": 0, "cards": _next_hand(state, seat)}
            out["spreads"] = [*out["spreads"], leak]
        return out

    monkeypatch.setattr(TonkLogic, "table", leaky)
    report = check_game(
        "tonk", players=3, games=1, seed=1, sample=1.0, checks={"views"}, strict=False
    )
    assert report.leaks > 0 and not report.ok


def test_the_kit_reports_a_history_that_shows_another_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardcore.testing import check_game
    from cardcore_tonk.logic import TonkLogic

    history = TonkLogic.history

    def leaky(self: TonkLogic, state: Any, seat: int | None, since: int) -> list[dict[str, Any]]:
        return [
            *history(self, state, seat, since),
            {"kind": "peek", "cards": _next_hand(state, seat)},
        ]

    monkeypatch.setattr(TonkLogic, "history", leaky)
    report = check_game(
        "tonk", players=3, games=1, seed=1, sample=1.0, checks={"views", "events"}, strict=False
    )
    assert report.leaks > 0 and not report.ok


def test_an_encodings_table_for_a_spectator_is_the_spectators_table() -> None:
    from cardcore.rl.encoding import seat_view

    game = cardcore.new_game("tonk", ["a", "b", "c"], seed=4)
    for seat in [None, 0, 1, 2]:
        assert seat_view(game, seat, "table")["table"] == game.view(seat)["table"]
