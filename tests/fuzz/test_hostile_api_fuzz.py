"""Hostile arguments through every public entry point: only CardcoreError subclasses, no change.

Covers the classes of input the hardening issue found raw exceptions for: non-ASCII digits,
non-finite and non-numeric times, hostile ``seen`` values, hostile seats, huge integers, and
deep and huge JSON handed to ``load``/``replay``. Each call either succeeds as documented or
raises a :class:`cardcore.CardcoreError` subclass and leaves the game exactly as it was.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcore
from cardcore import CardcoreError, Event, IllegalActionError, NotationError, SeatError
from cardcore.testing._util import fingerprint
from tests.fuzz.conftest import GAMES, position

REALTIME = ("racegame", "spit", "speed")

digit = st.characters(categories=["Nd", "No", "Nl"])
"""Any Unicode digit or number character, ASCII ones included."""
verbs = st.sampled_from(
    ["flip", "replace", "take", "discard", "play", "fill", "move", "hit", "spread", "draw", ""]
)
texts = st.one_of(
    st.tuples(verbs, st.text(digit, min_size=1, max_size=4)).map(" ".join),
    st.tuples(verbs, st.text(digit, max_size=3), st.sampled_from(["L", "R", "H", "S", ""])).map(
        " ".join
    ),
)
seats = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.integers(min_value=-3, max_value=6),
    st.just(10**5000),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.lists(st.integers(0, 2), max_size=2),
)
times = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.just(10**5000),
    st.text(max_size=6),
    st.booleans(),
    st.lists(st.floats(), max_size=1),
)
seens = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20),
    st.integers(min_value=-70, max_value=70),
    st.just(10**5000),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.booleans(),
)
JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**200), max_value=2**200),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=8),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


def _rejects_or_applies(game: cardcore.Game, call: Any) -> None:
    before = fingerprint(game)
    try:
        call()
    except CardcoreError:
        assert fingerprint(game) == before
    except Exception as exc:  # pragma: no cover - a raw escape is the failure we look for
        pytest.fail(f"raw {type(exc).__name__} escaped: {exc!r}"[:300])


@pytest.mark.parametrize("name", GAMES)
@given(text=texts, seat=st.integers(-1, 2))
def test_fuzz_unicode_digits_are_read_or_refused_as_notation(name: str, text: str, seat: int) -> None:
    game = position(name).clone()
    ascii_only = text.isascii()
    before = fingerprint(game)
    try:
        game.act(seat, text)
    except (NotationError, IllegalActionError):
        assert fingerprint(game) == before
        return
    assert ascii_only, f"{text!r} was read as an action"


@pytest.mark.parametrize("name", GAMES)
@given(seat=seats)
def test_fuzz_hostile_seats_raise_seat_errors_everywhere(name: str, seat: Any) -> None:
    game = position(name).clone()
    if type(seat) is int and 0 <= seat < len(game.players):
        return
    before = fingerprint(game)
    calls = {
        "legal_actions": lambda: game.legal_actions(seat),
        "determinize": lambda: game.determinize(seat, 1),
        "act": lambda: game.act(seat, "resign"),
        "view": lambda: game.view(seat),  # None: the spectator's view
        "history": lambda: game.history(seat),  # None: the spectator's history
        "subscribe": lambda: game.events.subscribe(Event, lambda e: None, seat=seat),
    }
    for what, call in calls.items():
        try:
            call()
        except SeatError:
            continue
        except Exception as exc:  # pragma: no cover - the failure looked for
            pytest.fail(f"{what}({seat!r}) raised {type(exc).__name__}: {exc}"[:300])
        assert seat is None and what in ("view", "history", "subscribe"), f"{what}({seat!r}) accepted"
    assert fingerprint(game) == before


@pytest.mark.parametrize("name", GAMES)
@given(at=times)
def test_fuzz_hostile_times_are_refused_and_change_nothing(name: str, at: Any) -> None:
    game = position(name).clone()
    seat = game.to_act[0] if game.to_act else 0
    legal = game.legal_actions(seat)
    if not legal:
        return
    finite = type(at) in (int, float) and abs(at) <= 1e15
    before = fingerprint(game)
    try:
        game.apply(legal[0], at=at)
    except IllegalActionError:
        assert fingerprint(game) == before
        assert not finite or game.ruleset.game.realtime
        return
    assert finite
    json.dumps(game.save())


@pytest.mark.parametrize("name", REALTIME)
@given(seen=seens, pick=st.integers(0, 50))
def test_fuzz_hostile_seen_is_judged_or_refused_cheaply(name: str, seen: Any, pick: int) -> None:
    game = position(name, 80).clone()
    entries = game.record_entries()
    action = entries[pick % len(entries)][1]
    _rejects_or_applies(game, lambda: game.apply(action, seen=seen))


@pytest.mark.parametrize("name", ["golf", "spit"])
@given(value=JSON, where=st.sampled_from(["options", "seed", "players", "actions", "extra", "rules"]))
def test_fuzz_hostile_json_in_a_record_is_refused_or_replayed(name: str, value: Any, where: str) -> None:
    record = json.loads(json.dumps(position(name).record()))
    record[where] = value
    for call in (cardcore.replay, cardcore.load):
        data = record if call is cardcore.replay else dict(position(name).save(), record=record)
        try:
            call(data)
        except CardcoreError:
            continue
        except Exception as exc:  # pragma: no cover
            pytest.fail(f"raw {type(exc).__name__} escaped: {exc!r}"[:300])


@given(depth=st.integers(30, 5000), width=st.integers(1, 3), kind=st.sampled_from("[{"))
def test_fuzz_deep_json_text_is_refused(depth: int, width: int, kind: str) -> None:
    inner = ("[" * depth + "]" * depth) if kind == "[" else ('{"a":' * depth + "1" + "}" * depth)
    text = '{"format": "cardcore-save", "x": [' + ",".join([inner] * width) + "]}"
    for call in (cardcore.replay, cardcore.load):
        with pytest.raises(cardcore.CorruptStateError):
            call(text)
