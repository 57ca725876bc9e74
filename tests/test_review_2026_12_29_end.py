"""Review of c7b191d: ``plain_clock`` in ``Session``/``Hub`` times, ``_check_time`` of a float
subclass, and the web server's ``check_setup`` before seat names and agents.

Strict xfails: an object that only claims to be a float or int (its ``__class__`` says so, as a
``Mock(spec=float)``'s does) passes ``isinstance`` and then ``float.__float__``/``int.__index__``
raise a raw ``TypeError`` from ``Session.handle``/``tick``, ``Hub.handle`` (both documented
never to raise) and ``Session.create`` (documented to refuse a bad *now* with ``OptionError``;
cf88420 took such an object by its own ``__float__``).
"""

from __future__ import annotations

import asyncio
import json
import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest

from cardcore._stamps import plain_clock
from cardcore.errors import OptionError
from cardcore.game import MAX_TIME
from cardcore.session import Hub, MemoryStore, Session
from cardcore.session.aio import AsyncHost

DOCS = Path(__file__).resolve().parents[1] / "docs"


class _OddFloat(float):
    """A float whose own code raises or lies everywhere a time could be read or compared."""

    def __float__(self) -> float:
        return 1e300

    def __lt__(self, other: object) -> bool:
        raise RuntimeError("odd __lt__")

    def __ge__(self, other: object) -> bool:
        raise RuntimeError("odd __ge__")

    def __le__(self, other: object) -> bool:
        raise RuntimeError("odd __le__")

    def __hash__(self) -> int:
        raise RuntimeError("odd __hash__")


class _OddInt(int):
    def __index__(self) -> int:
        return 10**30

    def __float__(self) -> float:
        raise RuntimeError("odd __float__")

    def __lt__(self, other: object) -> bool:
        raise RuntimeError("odd __lt__")

    def __ge__(self, other: object) -> bool:
        raise RuntimeError("odd __ge__")

    def __hash__(self) -> int:
        raise RuntimeError("odd __hash__")


class _FakeFloat:
    """Not a float, though ``isinstance(x, float)`` says so (as for ``Mock(spec=float)``)."""

    __class__ = float  # type: ignore[assignment]

    def __float__(self) -> float:
        return 3.5


class _FakeInt:
    __class__ = int  # type: ignore[assignment]

    def __index__(self) -> int:
        return 3


def _fakes() -> list[Any]:
    return [_FakeFloat(), _FakeInt(), mock.Mock(spec=float)]


# -- plain_clock ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (3, 3), (3.5, 3.5), (-0.0, -0.0), (5e-324, 5e-324), (10**400, 10**400),
        (np.float64(2.5), 2.5), (_OddFloat(4.5), 4.5), (_OddInt(7), 7),
    ],
    ids=lambda v: f"{type(v).__name__}:{str(v)[:12]}",
)  # fmt: skip
def test_plain_clock_reads_the_value_as_a_plain_number(now: Any, expected: Any) -> None:
    got = plain_clock(now)
    assert type(got) is type(expected) and got == expected
    if type(got) is float:  # -0.0 kept as it is
        assert math.copysign(1, got) == math.copysign(1, expected)


@pytest.mark.parametrize(
    "now",
    [
        True,
        False,
        np.bool_(True),
        np.int64(3),
        np.float32(3.5),
        Decimal("3"),
        Fraction(7, 2),
        "3",
        None,
    ],
    ids=repr,
)
def test_plain_clock_gives_none_for_a_bool_or_another_kind(now: Any) -> None:
    assert plain_clock(now) is None


def test_plain_clock_keeps_nan_and_inf_for_the_range_check_to_refuse() -> None:
    assert math.isnan(plain_clock(float("nan")))  # type: ignore[arg-type]
    assert plain_clock(np.float64("inf")) == math.inf


# -- Session.handle / tick: every kind of time ---------------------------------------------------

_ANY = [
    10**400, -(10**400), 10**15 + 1, -0.0, 5e-324, float("nan"), float("inf"), float("-inf"),
    np.float64("nan"), np.float64(1e300), np.float64(3.5), np.int64(3), np.float32(3.5),
    Decimal("3"), Decimal("nan"), Fraction(7, 2), True, "3", None, _OddFloat(3.5), _OddInt(3),
]  # fmt: skip


def _joined(now: Any = 2.0) -> tuple[MemoryStore, Session]:
    store = MemoryStore()
    s = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=store)
    for seat in (0, 1):
        s.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=now)
    return store, s


def _act(s: Session, now: Any) -> list[Any]:
    game = s.game
    assert game is not None
    seat = game.to_act[0]
    message = {"type": "act", "action": str(game.legal_actions(seat)[0]), "seen": game.version}
    return s.handle(f"c{seat}", json.dumps(message), now=now)


@pytest.mark.parametrize("now", _ANY, ids=lambda v: f"{type(v).__name__}:{str(v)[:12]}")
def test_session_at_any_time_stays_plain_never_goes_back_and_is_never_stuck(now: Any) -> None:
    store, s = _joined(2.0)
    _act(s, now)
    s.tick(now)
    s.disconnect("nobody", now)
    assert type(s.now) in (int, float) and 2.0 <= s.now <= MAX_TIME
    before = s.now
    _act(s, 1.0)  # earlier than the session's time: kept
    assert s.now == before
    _act(s, 9.0)
    times = [at for _, _, at in store.load(s.id).actions]
    assert len(times) == 3 and {type(t) for t in times} <= {int, float}
    assert times == sorted(times) and times[0] >= 2.0 and times[-1] == 9.0
    assert Session.resume(store, s.id, now=10.0).game.version == 3  # type: ignore[union-attr]


@pytest.mark.parametrize("now", [MAX_TIME, -MAX_TIME, 10**15, -(10**15)], ids=repr)
def test_session_takes_a_time_at_max_time_exactly(now: Any) -> None:
    store, s = _joined(2.0)
    _act(s, now)
    assert s.now == max(2.0, now)
    assert len(store.load(s.id).actions) == 1


# -- Hub -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("now", _ANY, ids=lambda v: f"{type(v).__name__}:{str(v)[:12]}")
def test_hub_at_any_time_keeps_a_plain_float_that_never_goes_back(now: Any) -> None:
    store = MemoryStore()
    hub = Hub(store=store)
    s = hub.create("golf", ["Ann", "Bob"], now=1.0, seed=5)
    for seat in (0, 1):
        hub.handle(f"c{seat}", json.dumps({"type": "join", "session": s.id, "seat": seat}), now=2.0)
    out = hub.handle("c0", json.dumps({"type": "ping", "id": 1}), now=now)
    pong = json.loads(out[0].text)
    assert type(pong["server_time"]) is float and 2.0 <= pong["server_time"] <= MAX_TIME
    hub.tick(now)
    hub.disconnect("nobody", now)
    assert type(hub._now) is float and 2.0 <= hub._now <= MAX_TIME
    assert type(s.now) in (int, float) and s.now >= 2.0
    game = s.game
    assert game is not None
    seat = game.to_act[0]
    act = {"type": "act", "action": str(game.legal_actions(seat)[0]), "seen": game.version}
    hub.handle(f"c{seat}", json.dumps(act), now=max(9.0, s.now))
    assert game.version == 1 and len(store.load(s.id).actions) == 1


# -- the asyncio host ----------------------------------------------------------------------------


def test_async_host_with_a_clock_of_odd_float_subclasses_stores_plain_times() -> None:
    ticks = iter(range(3, 1000))

    class _Raises(float):
        def __float__(self) -> float:
            raise RuntimeError("odd __float__")

    async def run() -> tuple[Session, MemoryStore]:
        store = MemoryStore()
        s = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=5, store=store)
        host = AsyncHost(s, clock=lambda: _Raises(next(ticks)))
        conns = [host.connect(f"c{seat}") for seat in (0, 1)]
        for seat, conn in enumerate(conns):
            await conn.send({"type": "join", "seat": seat})
        game = s.game
        assert game is not None
        seat = game.to_act[0]
        action = str(game.legal_actions(seat)[0])
        await conns[seat].send({"type": "act", "action": action, "seen": game.version})
        for conn in conns:
            await conn.close()
        return s, store

    s, store = asyncio.run(run())
    times = [at for _, _, at in store.load(s.id).actions]
    assert len(times) == 1 and type(times[0]) is float and type(s.now) is float


# -- objects that only claim to be numbers (strict xfails) --------------------------------------


@pytest.mark.parametrize("now", _fakes(), ids=lambda v: type(v).__name__)
def test_session_handle_at_an_object_claiming_to_be_a_number_keeps_the_last_time(now: Any) -> None:
    _, s = _joined(2.0)
    s.handle("c0", json.dumps({"type": "ping", "id": 1}), now=now)
    s.tick(now)
    assert s.now == 2.0


@pytest.mark.parametrize("now", _fakes(), ids=lambda v: type(v).__name__)
def test_hub_handle_at_an_object_claiming_to_be_a_number_keeps_the_last_time(now: Any) -> None:
    hub = Hub()
    hub.handle("c0", json.dumps({"type": "ping", "id": 1}), now=2.0)
    out = hub.handle("c0", json.dumps({"type": "ping", "id": 2}), now=now)
    assert json.loads(out[0].text)["server_time"] == 2.0


@pytest.mark.parametrize(
    "now", [_FakeFloat(), mock.Mock(spec=float)], ids=lambda v: type(v).__name__
)
def test_create_refuses_an_object_claiming_to_be_a_float_with_an_option_error(now: Any) -> None:
    with pytest.raises(OptionError):
        Session.create("golf", ["Ann", "Bob"], now=now, seed=5)


def test_create_refuses_an_object_claiming_to_be_an_int_with_an_option_error() -> None:
    with pytest.raises(OptionError, match="now must be a time"):
        Session.create("golf", ["Ann", "Bob"], now=_FakeInt(), seed=5)


def test_create_refuses_an_int_subclass_that_handle_reads_by_its_value() -> None:
    """Pinned as is (a doc gap): create/resume refuse an int subclass; handle reads its value."""
    with pytest.raises(OptionError, match="now must be a time"):
        Session.create("golf", ["Ann", "Bob"], now=_OddInt(3), seed=5)
    _, s = _joined(2.0)
    s.handle("c0", json.dumps({"type": "ping", "id": 1}), now=_OddInt(3))
    assert type(s.now) is int and s.now == 3


# -- the web server's create order ---------------------------------------------------------------


def _post(client: Any, body: dict[str, Any]) -> Any:
    return client.post("/api/sessions", content=json.dumps(body))


def test_web_create_checks_rules_and_options_before_names_and_agents_and_takes_good_ones() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from tests.web.helpers import serve

    bad_names = [{"name": "A"}, {"name": "a"}]
    bad_agent = [{"name": "A"}, {"name": "B", "agent": "golf-greedy", "params": {"seed": "x"}}]
    with serve() as (client, server, _):
        r = _post(client, {"game": "golf", "seats": bad_names, "options": {"layout": 7}})
        assert r.status_code == 400 and "layout" in r.json()["error"], r.text
        r = _post(client, {"game": "golf", "seats": [5, {"name": "A"}], "options": {"zz": 1}})
        assert r.status_code == 400 and "'zz'" in r.json()["error"], r.text
        r = _post(client, {"game": "golf", "seats": bad_agent, "rules": ["golf.nope"]})
        assert r.status_code == 400 and "golf.nope" in r.json()["error"], r.text
        r = _post(client, {"game": "golf", "seats": bad_names})  # good rules: the name
        assert r.status_code == 400 and "another seat's name" in r.json()["error"], r.text
        r = _post(client, {"game": "golf", "seats": bad_agent})
        assert r.status_code == 400 and "seat 1: agent 'golf-greedy'" in r.json()["error"], r.text
        assert len(server.hub.sessions) == 0
        good = [{"name": "A"}, {"name": "B", "agent": "golf-greedy", "params": {"seed": 1}}]
        r = _post(client, {"game": "golf", "seats": good, "options": {"layout": 9}})
        assert r.status_code == 201, r.text
        assert r.json()["options"]["layout"] == 9 and len(server.hub.sessions) == 1


# -- docs ----------------------------------------------------------------------------------------


def test_web_docs_say_seats_are_checked_with_rules_and_options_before_names() -> None:
    text = " ".join((DOCS / "web.rst").read_text(encoding="utf-8").split())
    assert "checked with the rules and options before any seat's name or agent" in text


def test_changelog_unreleased_names_the_subclass_time_fix() -> None:
    text = (DOCS / "changelog.rst").read_text(encoding="utf-8").split("\nUnreleased\n")[1]
    text = " ".join(text.split("\n----------\n", 1)[0].split())
    assert "a time of a subclass is read by its value without its own code" in text
