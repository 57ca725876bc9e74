"""Finding 5: every public entry point answers hostile arguments with a documented
CardcoreError subclass and changes nothing (raw ValueError, TypeError and
RecursionError escaped before the fix)."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

import cardcore
from cardcore import HOST, CardcoreError, CardDrawn, Event, IllegalActionError, NotationError
from cardcore.testing._util import fingerprint
from tests.conftest import register_test_plugins

register_test_plugins()


def _shown(value: Any, limit: int) -> str:
    try:
        return repr(value)[:limit]
    except ValueError:  # an int too large to print
        return "<huge>"


# read at run time, so this module also runs (and fails) on the code before the fix
SeatError = getattr(cardcore, "SeatError", IllegalActionError)
ArgumentError = getattr(cardcore, "ArgumentError", CardcoreError)

BAD_SEATS = [2, 5, 99, -1, 10**100, 10**5000, "1", "0", 1.0, 0.0, True, False, [0], (0,), b"0"]


@pytest.fixture
def golf() -> cardcore.Game:
    return cardcore.new_game("golf", 2, seed=1)


@pytest.mark.parametrize("seat", BAD_SEATS, ids=lambda s: _shown(s, 12))
def test_every_method_refuses_a_seat_the_game_does_not_have(golf: cardcore.Game, seat: Any) -> None:
    before = fingerprint(golf)
    calls: list[Callable[[], object]] = [
        lambda: golf.view(seat),
        lambda: golf.legal_actions(seat),
        lambda: golf.history(seat),
        lambda: golf.act(seat, "flip 0"),
        lambda: golf.apply(cardcore.Resign(seat)),
        lambda: golf.determinize(seat, 1),
        lambda: golf.events.subscribe(CardDrawn, print, seat=seat),
    ]
    for call in calls:
        with pytest.raises(SeatError, match="CORE-SEAT-1"):
            call()
    assert fingerprint(golf) == before and not golf.events.active


def test_view_of_a_missing_seat_is_a_seat_error_and_still_an_illegal_action_error(
    golf: cardcore.Game,
) -> None:
    with pytest.raises(IllegalActionError) as info:
        golf.view(5)
    assert isinstance(info.value, SeatError) and "no seat 5" in str(info.value)


def test_subscribing_for_the_host_seat_is_refused_before_any_event() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(SeatError):
        game.events.subscribe(CardDrawn, print, seat=HOST)
    with pytest.raises(SeatError):
        cardcore.new_game("golf", 2, seed=1, subscribers=[(Event, print, HOST)])
    with pytest.raises(ArgumentError):
        game.events.subscribe(int, print)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        game.events.subscribe(Event, None)  # type: ignore[arg-type]


def test_bogus_seats_keep_no_memory(golf: cardcore.Game) -> None:
    golf.legal_actions(0)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for seat in range(2, 100_002, 41):
        with pytest.raises(SeatError):
            golf.legal_actions(seat)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 200_000
    assert set(golf._legal) <= {0, 1}


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed", "drawgame", "racegame"])
@pytest.mark.parametrize("digit", ["\u00b2", "\u2464", "\u0663", "\uff15", "\U0001d7d0"])
def test_non_ascii_digits_are_notation_errors(name: str, digit: str) -> None:
    game = cardcore.new_game(name, 2, seed=2)
    seat = game.to_act[0]
    before = fingerprint(game)
    texts = [
        f"{verb} {digit}" for verb in ("flip", "replace", "discard", "play", "take", "fill", "move")
    ]
    texts += [
        "".join(digit if c.isdigit() else c for c in str(a))
        for a in game.legal_actions(seat)[:5]
        if any(c.isdigit() for c in str(a))
    ]
    for text in texts:
        try:
            game.act(seat, text)
        except (NotationError, IllegalActionError):
            continue
        pytest.fail(f"{text!r} was accepted")  # pragma: no cover
    assert fingerprint(game) == before


@pytest.mark.parametrize(
    "kwargs",
    [
        {"name": ["golf"]},
        {"players": 10**100},
        {"rules": None},
        {"rules": "golf.hard"},
        {"rules": [["golf.hard"]]},
        {"without": None},
        {"options": [1, 2]},
        {"options": "x"},
        {"options": {"rounds": 10**5000}},
        {"options": {1: 2, "a": 3}},
        {"seed": 10**5000},
        {"deck": 5},
        {"subscribers": [1]},
        {"subscribers": None},
        {"subscribers": [(Event, print, 1, 2)]},
        {"position": "x" * 10**6},
    ],
    ids=lambda k: _shown(k, 30),
)
def test_new_game_refuses_absurd_arguments_with_documented_errors(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"name": "golf", "players": 2, "seed": 1}
    args.update(kwargs)
    with pytest.raises(CardcoreError):
        cardcore.new_game(args.pop("name"), args.pop("players"), **args)


def test_rules_given_as_one_string_is_still_a_type_error() -> None:
    with pytest.raises(TypeError):
        cardcore.new_game("golf", 2, rules="golf.hard")


@pytest.mark.parametrize(
    "data",
    [
        {"seed": 10**5000},
        "DEEP",
        '{"a":' * 50_000 + "1" + "}" * 50_000,
        '{"seed": ' + "9" * 5000 + "}",
        b"\xff\xfe",
        "not json",
        5,
        None,
    ],
    ids=lambda d: _shown(d, 20),
)
def test_load_and_replay_refuse_hostile_data_with_corrupt_state_error(data: Any) -> None:
    base = cardcore.new_game("golf", 2, seed=1)
    if data == "DEEP":
        deep: list[Any] = []
        for _ in range(100_000):
            deep = [deep]
        data = deep
    if isinstance(data, dict):
        data = dict(base.record(), **data)
    elif isinstance(data, list):
        data = dict(base.record(), options={"deep": data})
    for call in (cardcore.replay, cardcore.load):
        with pytest.raises(cardcore.CorruptStateError):
            call(data)


def test_time_too_large_to_print_is_refused_with_a_short_message(golf: cardcore.Game) -> None:
    with pytest.raises(IllegalActionError, match="an int of") as info:
        golf.apply(golf.legal_actions(0)[0], at=10**5000)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
@pytest.mark.parametrize("digit", ["\u00b2", "\u0663", "\u2464"])
def test_saved_action_text_in_non_ascii_digits_is_refused(name: str, digit: str) -> None:
    """Inside a loaded save or a replayed record too (before: a raw ValueError from int())."""
    game = cardcore.new_game(name, 2, seed=3)
    rng = __import__("random").Random(3)
    while game.version < 12 and not game.is_over:
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        if legal:
            game.apply(rng.choice(legal))
    save = game.save()
    entries = save["record"]["actions"]
    k = next(i for i, entry in enumerate(entries) if any(c.isdigit() for c in entry[1]))
    entries[k][1] = "".join(digit if c.isdigit() else c for c in entries[k][1])
    with pytest.raises(cardcore.CorruptStateError):
        cardcore.load(save)
    with pytest.raises(cardcore.CorruptStateError):
        cardcore.replay(save["record"])


def test_hand_built_malformed_actions_are_illegal_not_raw_errors_and_change_nothing() -> None:
    from cardcore_spit.actions import Claim, Play
    from cardcore_tonk.actions import Spread

    tonk = cardcore.new_game("tonk", 3, seed=1)
    spit = cardcore.new_game("spit", 2, seed=8)
    for seat in (0, 1):
        spit.act(seat, "ready", at=0.0)
    for game, action in (
        (tonk, Spread(0, 0)),  # type: ignore[arg-type]
        (spit, Play(0, 1, 5)),
        (spit, Claim(0, "x", 0)),  # type: ignore[arg-type]
    ):
        before = fingerprint(game)
        with pytest.raises(IllegalActionError, match="CORE-ACTION-1") as err:
            game.apply(action)
        assert err.value.rule_id == "CORE-ACTION-1"
        assert fingerprint(game) == before


def test_a_malformed_action_after_the_game_is_over_is_refused_cleanly() -> None:
    """The game-over message wrote the action with str(), which such an action cannot do."""
    from cardcore_spit.actions import Claim
    from cardcore_tonk.actions import Spread

    tonk = cardcore.new_game("tonk", 2, seed=1)
    tonk.act(-1, "end")
    spit = cardcore.new_game("spit", 2, seed=1)
    spit.act(-1, "end")
    for game, action in ((tonk, Spread(0, 0)), (spit, Claim(0, "x", 0))):  # type: ignore[arg-type]
        before = game.save()
        with pytest.raises(cardcore.IllegalActionError, match="CORE-OVER-1"):
            game.apply(action)
        assert game.save() == before
