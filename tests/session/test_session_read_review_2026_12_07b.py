"""Session layer read review (2026-12-07, b): src/cardcore/session read line by line.

One strict xfail per bug found, asserting the right behaviour (its reason names the cause); a
passing test per claim of docs/session.rst, docs/security.rst or a docstring that holds.
Everything runs on a virtual clock (the session is sans I/O): no sleeps, no threads. Every
plugin registered here is unregistered by its fixture.
"""

from __future__ import annotations

import json
import logging
import types
from collections.abc import Iterator
from typing import Any

import pytest

import cardcore
from cardcore import hookimpl
from cardcore.session import (
    MemoryStore,
    Mirror,
    Outbound,
    Session,
    SessionConfig,
    TimeControl,
    verify_bundle,
)
from tests.plugins import goofspiel_2026_12_12 as goof

# -- helpers ---------------------------------------------------------------------------------


def _msgs(out: list[Outbound]) -> list[dict[str, Any]]:
    return [o.message for o in out]


def _errors(out: list[Outbound]) -> list[dict[str, Any]]:
    return [m for m in _msgs(out) if m["type"] == "error"]


def _token(out: list[Outbound]) -> str:
    return next(m["token"] for m in _msgs(out) if m["type"] == "welcome")


def _seated(game: str = "golf", **kwargs: Any) -> tuple[Session, list[str]]:
    """A two-seat session, both seats joined (conns "a" and "b"); the seats' tokens."""
    s = Session.create(game, ["Ann", "Bob"], now=0.0, **kwargs)
    tokens = [
        _token(s.handle(conn, json.dumps({"type": "join", "seat": seat}), 1.0))
        for seat, conn in enumerate("ab")
    ]
    return s, tokens


def _act(s: Session, conn: str, text: str, now: float, seen: int | None = None) -> list[Outbound]:
    game = s.game
    assert game is not None
    message = {"type": "act", "action": text, "seen": game.version if seen is None else seen}
    return s.handle(conn, json.dumps(message), now)


def _goof_variant(name: str, logic: type) -> types.ModuleType:
    """A Goofspiel (tests/plugins) whose logic is *logic*: a plugin that fails on purpose."""
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = goof.GameInfo(
        name,
        "Goofspiel variant",
        2,
        4,
        version="1.0.0",
        hookspecs=goof.SPECS,
        fields=goof.GAME.fields,
    )

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return logic(ruleset)

    module.create_logic = create_logic
    module.build_deck = goof.build_deck
    module.goofspiel_carry_ties = goof.goofspiel_carry_ties
    return module


@pytest.fixture
def quiet() -> Iterator[None]:
    """The session logs each plugin failure: keep the test output short."""
    logger = logging.getLogger("cardcore.session")
    level, propagate = logger.level, logger.propagate
    logger.setLevel(logging.CRITICAL + 1)
    logger.propagate = False
    try:
        yield
    finally:
        logger.setLevel(level)
        logger.propagate = propagate


# -- bugs (strict xfails) ------------------------------------------------------------------------

END_FAILS = "goof-rv-endfail-1207b"
_END = {"on": False, "calls": 0}


class _EndFails(goof.GoofLogic):
    def end_match(self, state: Any) -> None:
        _END["calls"] += 1
        if _END["on"]:
            raise RuntimeError("the standings service is down")
        super().end_match(state)


@pytest.fixture
def end_fails(quiet: None) -> Iterator[str]:
    cardcore.register("cardcore.games", END_FAILS, _goof_variant(END_FAILS, _EndFails))
    _END.update(on=False, calls=0)
    try:
        yield END_FAILS
    finally:
        _END["on"] = False
        cardcore.unregister("cardcore.games", END_FAILS)


def test_a_failing_end_of_the_game_clock_is_not_retried_ten_thousand_times_a_call(
    end_fails: str,
) -> None:
    s, _ = _seated(end_fails, seed=7, config=SessionConfig(time=TimeControl(total=10.0)))
    _END["on"] = True
    before = _END["calls"]
    s.tick(20.0)
    assert s.phase == "playing"  # refused: the game goes on (nothing changed)
    assert _END["calls"] - before <= 10  # one try (a few at most), not 10,000
    deadline = s.next_deadline()
    assert deadline is None or deadline > 20.0  # the host is not asked to tick again at once


VIEW_FAILS = "goof-rv-view-1207b"
_VIEW = {"on": False}


class _SeatOneViewFails(goof.GoofLogic):
    def table(self, state: Any, seat: int | None) -> dict[str, Any]:
        if _VIEW["on"] and seat == 1:
            raise RuntimeError("seat 1's table")
        return super().table(state, seat)

    def default_action(self, state: Any, seat: int) -> Any:
        raise RuntimeError("the default move's service is down")


@pytest.fixture
def view_fails(quiet: None) -> Iterator[str]:
    cardcore.register("cardcore.games", VIEW_FAILS, _goof_variant(VIEW_FAILS, _SeatOneViewFails))
    _VIEW["on"] = False
    try:
        yield VIEW_FAILS
    finally:
        _VIEW["on"] = False
        cardcore.unregister("cardcore.games", VIEW_FAILS)


def test_a_view_failing_at_the_deal_costs_the_other_seat_nothing(view_fails: str) -> None:
    s = Session.create(view_fails, ["Ann", "Bob"], now=0.0, seed=7)
    ann = Mirror()
    for o in s.handle("a", json.dumps({"type": "join", "seat": 0}), 1.0):
        ann.feed(o.message)
    _VIEW["on"] = True  # seat 1's table fails while the last seat joins (the deal)
    out = s.handle("b", json.dumps({"type": "join", "seat": 1}), 1.0)
    _VIEW["on"] = False
    for o in out:
        if o.conn == "a":
            ann.feed(o.message)
    assert s.game is not None and s.phase == "playing"  # the deal happened
    assert ann.view == s.game.view(0)  # so seat 0 was shown it
    for o in _act(s, "a", "bid 0", 2.0):
        if o.conn == "a":
            ann.feed(o.message)  # and takes the next update
    assert ann.view == s.game.view(0)


def test_a_seen_ahead_of_a_real_time_game_that_ended_is_bad_message() -> None:
    s, _ = _seated("spit", seed=7)
    s.end(2.0)
    game = s.game
    assert game is not None and game.is_over
    errors = _errors(_act(s, "a", "ready", 3.0, seen=game.version + 5))
    assert [e["code"] for e in errors] == ["bad-message"]


def test_a_view_failing_as_a_takeback_is_granted_leaves_every_seat_told(view_fails: str) -> None:
    s, _ = _seated(view_fails, seed=7)
    ann = Mirror()
    _act(s, "a", "bid 0", 2.0)
    s.handle("a", '{"type":"takeback","op":"request"}', 3.0)
    for o in s.handle("a", '{"type":"resync","last":0}', 3.5):
        ann.feed(o.message)  # seat 0's whole picture: version 1, the request pending
    assert ann.version == 1 and ann.takeback is not None
    _VIEW["on"] = True  # seat 1's table fails as the takeback is granted
    out = s.handle("b", '{"type":"takeback","op":"accept"}', 4.0)
    _VIEW["on"] = False
    for o in out:
        if o.conn == "a":
            ann.feed(o.message)
    game = s.game
    assert game is not None
    assert (ann.version, ann.view) == (game.version, game.view(0))  # told whatever happened
    assert (ann.takeback is None) == (s.takeback is None)


# -- claims that hold ----------------------------------------------------------------------------


def test_a_failing_turn_timeout_is_rearmed_not_retried_in_a_loop(view_fails: str) -> None:
    """The contrast of the first xfail: a default move that fails (the plugin's default_action
    raises, the fallback waits) starts the seat's clock over; nothing is played."""
    config = SessionConfig(time=TimeControl(turn=5.0, fallback="wait"))
    s, _ = _seated(view_fails, seed=7, config=config)
    game = s.game
    assert game is not None and game.version == 0
    first = s.next_deadline()
    assert first is not None
    out = s.tick(first + 0.5)
    later = s.next_deadline()
    assert later is not None and later > first + 0.5
    assert game.version == 0 and s.phase == "playing"
    assert {o.message["type"] for o in out} == {"clocks"}  # the seats are told the new deadline


def test_a_late_tick_plays_each_timeout_at_its_own_deadline() -> None:
    """session.rst: 'A tick called late plays everything that came due by its now, earliest
    first, each at its own deadline's time: a turn clock started by a timeout runs from that
    deadline'."""
    s, _ = _seated("golf", seed=7, config=SessionConfig(time=TimeControl(turn=5.0)))
    assert s.next_deadline() == 6.0
    out = s.tick(40.0)
    updates = [o.message for o in out if o.conn == "a" and o.message["type"] == "update"]
    times = [u["action"]["at"] for u in updates]
    assert {u["action"]["cause"] for u in updates} == {"timeout"}
    assert sorted(set(times)) == [6.0, 11.0, 16.0, 21.0, 26.0, 31.0, 36.0] and times == sorted(
        times
    )
    assert s.next_deadline() == 41.0


@pytest.mark.parametrize(
    "raw",
    [
        '{"type":"act","action":"flip 0","seen":true}',
        '{"type":"act","action":"flip 0","seen":1.0}',
        '{"type":"act","action":"flip 0","seen":' + "9" * 5000 + "}",
        '{"type":"act","action":"flip 0","seen":0,"id":1.5}',
        '{"type":"act","action":"flip 0","seen":0,"id":{"a":1}}',
        '{"type":"act","action":["flip 0"],"seen":0}',
        '{"type":"act","action":"flip 0","seen":0,"seat":false}',
        '{"type":"act","action":"flip 0","seen":0,"seen":0}',
        '{"type":"ping","t":NaN}',
        '{"type":"ping","t":' + "1" * 400 + "}",
        '{"type":"history","since":-1}',
        '{"type":"resync","last":' + str(2**60) + "}",
        '{"type":"takeback","op":"REQUEST"}',
        "[" * 3000 + "]" * 3000,
        '"\\ud800"',
        b"\xff\xfe{}",
    ],
)
def test_a_hostile_message_is_an_error_to_its_sender_and_changes_nothing(raw: str | bytes) -> None:
    """session.rst: 'a bad message becomes an error message to its sender, and nothing changes'."""
    s, _ = _seated("golf", seed=7)
    game = s.game
    assert game is not None
    saved, version = json.dumps(game.save(), sort_keys=True), game.version
    out = s.handle("a", raw, 2.0)
    assert [o.conn for o in out] == ["a"]
    assert [m["type"] for m in _msgs(out)] == ["error"]
    assert _msgs(out)[0]["code"] in ("bad-json", "bad-message", "too-large")
    assert s.game is game and game.version == version
    assert json.dumps(game.save(), sort_keys=True) == saved


def test_a_takeback_after_the_game_ended_is_refused_and_changes_nothing() -> None:
    s, _ = _seated("golf", seed=7)
    game = s.game
    assert game is not None
    for _ in range(2):  # seat 0's setup flips, then the host ends the match
        _act(s, "a", str(game.legal_actions(0)[0]), 2.0)
    s.end(3.0)
    version = game.version
    out = s.handle("a", '{"type":"takeback","op":"request"}', 4.0)
    assert [m["code"] for m in _errors(out)] in (["game-over"], ["takeback-refused"])
    assert s.game is game and game.version == version and s.takeback is None


def test_an_old_token_stops_working_once_the_host_issues_a_new_one() -> None:
    s, tokens = _seated("golf", seed=7)
    fresh = s.issue_token(0, 2.0, replace=True)
    held = s.tick(2.0)  # what issuing told: 'closed' to seat 0's open tab
    assert any(o.conn == "a" and o.message["type"] == "closed" and o.close for o in held)
    stale = s.handle("a2", json.dumps({"type": "join", "seat": 0, "token": tokens[0]}), 3.0)
    assert [m["code"] for m in _errors(stale)] == ["bad-token"]
    ok = s.handle("a3", json.dumps({"type": "join", "seat": 0, "token": fresh}), 4.0)
    assert _msgs(ok)[0]["type"] == "welcome" and not _errors(ok)
    assert "token" not in _msgs(ok)[0]  # shown once, to the host


def test_a_token_expires_token_ttl_seconds_after_the_game_ends() -> None:
    s, tokens = _seated("golf", seed=7, config=SessionConfig(token_ttl=100.0))
    s.end(10.0)
    ok = s.handle("a2", json.dumps({"type": "join", "seat": 0, "token": tokens[0]}), 109.0)
    assert not _errors(ok)
    late = s.handle("a3", json.dumps({"type": "join", "seat": 0, "token": tokens[0]}), 110.0)
    assert [m["code"] for m in _errors(late)] == ["token-expired"]
    wrong = s.handle("a4", json.dumps({"type": "join", "seat": 0, "token": tokens[1]}), 110.0)
    assert [m["code"] for m in _errors(wrong)] == ["bad-token"]  # a wrong one is told so first


def test_a_join_with_a_last_beyond_the_stream_gets_a_fresh_view_numbered_below_it() -> None:
    """session.rst: 'gets a fresh view (or lobby) numbered below its last: the welcome says so'."""
    s, tokens = _seated("golf", seed=7)
    out = s.handle(
        "a2", json.dumps({"type": "join", "seat": 0, "token": tokens[0], "last": 10**9}), 2.0
    )
    welcome, view = _msgs(out)[0], _msgs(out)[1]
    assert welcome["type"] == "welcome" and view["type"] == "view"
    assert welcome["last"] == view["n"] < 10**9
    mirror = Mirror()
    mirror.last = 10**9
    for message in _msgs(out):
        mirror.feed(message)
    assert mirror.last == view["n"] and s.game is not None and mirror.view == s.game.view(0)


def _play_first(s: Session, now: float) -> list[Outbound]:
    """The seat to act plays its first legal action."""
    game = s.game
    assert game is not None
    seat = game.to_act[0]
    return _act(s, "ab"[seat], str(game.legal_actions(seat)[0]), now)


def test_a_rejoin_gets_exactly_the_messages_it_missed_in_the_same_texts() -> None:
    s, tokens = _seated("golf", seed=7)
    last = s.streams[1].n  # what Bob's client holds as it drops
    s.disconnect("b", 1.6)
    for step in range(2):  # seat 0's two setup flips
        _play_first(s, 2.0 + step)
    missed = s.streams[1].missed(last)
    assert missed is not None and len(missed) == 2
    out = s.handle(
        "b2", json.dumps({"type": "join", "seat": 1, "token": tokens[1], "last": last}), 9.0
    )
    numbered = [o for o in out if "n" in o.message]
    assert [o.text for o in numbered] == missed  # the very same texts, numbered on from last
    assert [o.message["n"] for o in numbered] == [last + 1, last + 2]


def test_a_spectator_sees_the_game_spectator_delay_actions_late() -> None:
    s, _ = _seated("golf", seed=7, config=SessionConfig(spectator_delay=2))
    game = s.game
    assert game is not None
    seen: list[int] = []
    s.handle("w", '{"type":"watch"}', 1.5)
    for step in range(4):
        for o in _act(
            s,
            "a" if game.to_act == (0,) else "b",
            str(game.legal_actions(game.to_act[0])[0]),
            2.0 + step,
        ):
            if o.conn == "w" and o.message["type"] == "update":
                seen.append(o.message["version"])
                assert o.message["version"] == game.version - 2
    assert seen == [1, 2]


def test_seats_whose_clocks_run_out_together_are_not_taken_by_seat_number() -> None:
    """session.rst: 'taken in an order drawn from the game's seed and their deadline, never by
    seat number'. Spit's two idle clocks start together; across seeds, each seat goes first."""
    first: set[int] = set()
    for seed in range(12):
        s, _ = _seated("spit", seed=seed, config=SessionConfig(time=TimeControl(turn=5.0)))
        deadline = s.next_deadline()
        assert deadline is not None
        updates = [
            o.message for o in s.tick(deadline) if o.conn == "a" and o.message["type"] == "update"
        ]
        first.add(updates[0]["action"]["seat"])
        if first == {0, 1}:
            break
    assert first == {0, 1}


def test_entropy_after_the_deal_same_value_is_ok_another_refused() -> None:
    cfg = SessionConfig(fair=True, seat_entropy=True)
    s = Session.create("golf", ["Ann", "Bob"], now=0.0, config=cfg)
    s.handle("a", json.dumps({"type": "join", "seat": 0, "entropy": "ann dice"}), 1.0)
    s.handle("b", json.dumps({"type": "join", "seat": 1, "entropy": "bob dice"}), 1.0)
    assert s.phase == "playing"
    same = s.handle("a", json.dumps({"type": "entropy", "value": "ann dice"}), 2.0)
    assert [m["type"] for m in _msgs(same)] == ["ok"]
    other = s.handle("a", json.dumps({"type": "entropy", "value": "new dice"}), 2.0)
    assert [m["code"] for m in _errors(other)] == ["entropy-refused"]
    rejoin = s.handle(
        "a2", json.dumps({"type": "join", "seat": 0, "token": "x" * 43, "entropy": 5}), 3.0
    )
    assert [m["code"] for m in _errors(rejoin)] == ["bad-token"]  # entropy ignored after the deal


def test_a_fair_deal_bundle_verifies_and_holds_each_seats_entropy() -> None:
    cfg = SessionConfig(fair=True, seat_entropy=True)
    s = Session.create("golf", ["Ann", "Bob"], now=0.0, config=cfg)
    commitment = s.commitment
    s.handle("a", json.dumps({"type": "join", "seat": 0, "entropy": "ann dice"}), 1.0)
    out = s.handle("b", json.dumps({"type": "join", "seat": 1}), 1.0)
    assert s.phase == "waiting"  # the deal waits for Bob's entropy
    assert all(
        commitment == m.get("commitment") for m in _msgs(out) if m["type"] in ("welcome", "lobby")
    )
    assert s.record() is None and s.fair_bundle() is None  # nothing before the end
    s.tick(1.0 + cfg.entropy_wait)  # Bob's counts as empty
    assert s.phase == "playing"
    out = s.end(100.0)
    reveals = [m for m in _msgs(out) if m["type"] == "reveal"]
    assert {o.conn for o in out if o.message["type"] == "reveal"} == {"a", "b"}
    bundle = reveals[0]["bundle"]
    report = verify_bundle(bundle, commitment)
    assert report.entropy == ("ann dice", "")
    tampered = json.loads(json.dumps(bundle))
    tampered["entropy"][1] = "bob dice"
    with pytest.raises(cardcore.CardcoreError):
        verify_bundle(tampered, commitment)


def test_a_store_that_fails_once_loses_nothing_once_it_works_again(quiet: None) -> None:
    """session.rst: 'If the store fails, the game goes on and the next call writes both batches'."""

    class Flaky(MemoryStore):
        fail = False

        def commit(self, session_id: str, batch: Any) -> None:
            if self.fail:
                raise OSError("disk full")
            super().commit(session_id, batch)

    store = Flaky()
    s = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7, store=store, session_id="flaky")
    tokens = [
        _token(s.handle(c, json.dumps({"type": "join", "seat": i}), 1.0))
        for i, c in enumerate("ab")
    ]
    game = s.game
    assert game is not None and tokens
    store.fail = True
    _act(s, "a", str(game.legal_actions(0)[0]), 2.0)
    assert s.store_error is not None and "disk full" in s.store_error
    store.fail = False
    _act(s, "a", str(game.legal_actions(0)[0]), 3.0)
    assert s.store_error is None
    resumed = Session.resume(store, "flaky", 4.0)
    assert resumed.game is not None and resumed.game.save() == game.save()


def test_a_spectator_coming_and_going_alone_is_told_to_nobody_else() -> None:
    s, _ = _seated("golf", seed=7)
    out = s.handle("w", '{"type":"watch"}', 2.0)
    assert {o.conn for o in out} == {"w"}
    out = s.handle("w", '{"type":"leave"}', 3.0)
    assert {o.conn for o in out} == {"w"}
    out = s.disconnect("b", 4.0)  # a seat's going is told to everyone still connected
    assert {o.conn for o in out if o.message["type"] == "presence"} == {"a"}


def test_a_server_restarted_beside_a_zombie_keeps_the_game_the_new_one_wrote(
    tmp_path: Any, quiet: None
) -> None:
    """session.rst: 'a killed process loses nothing committed' and 'a store refuses to commit a
    game another writer changed ... the one that wrote first keeps the game'."""
    from cardcore.session import SQLiteStore

    path = str(tmp_path / "sessions.db")
    first = SQLiteStore(path)
    old = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7, store=first, session_id="z")
    tokens = [
        _token(old.handle(c, json.dumps({"type": "join", "seat": i}), 1.0))
        for i, c in enumerate("ab")
    ]
    _play_first(old, 2.0)  # committed; then the process "dies" without closing its store
    second = SQLiteStore(path)
    try:
        new = Session.resume(second, "z", 10.0)
        assert new.game is not None and old.game is not None
        assert new.game.save() == old.game.save()  # nothing committed was lost
        new.handle("a", json.dumps({"type": "join", "seat": 0, "token": tokens[0]}), 11.0)
        _play_first(new, 12.0)
        assert new.store_error is None
        _play_first(old, 13.0)  # the zombie writes too: refused, the new game kept
        assert old.store_error is not None and "another writer" in old.store_error
        third = SQLiteStore(path)
        try:
            again = Session.resume(third, "z", 20.0)
            assert again.game is not None and again.game.save() == new.game.save()
        finally:
            third.close()
    finally:
        second.close()
        first.close()
