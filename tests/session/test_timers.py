"""Clocks on a virtual clock: turn and idle timeouts with each game's default, the game clock,
the fallback for games without a default, and running clocks across a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardcore import Resign
from cardcore.session import Session, SessionConfig, SQLiteStore, TimeControl
from tests.session.kit import CONNS, Table, messages, table


def test_golf_timeout_finishes_the_turn_in_safe_steps_at_the_deadline() -> None:
    t = table("golf", time=TimeControl(turn=10.0))
    game = t.session.game
    assert game is not None and game.to_act == (0,)
    start = t.now
    assert t.session.next_deadline() == start + 10.0
    t.tick(9.9)
    assert game.version == 0  # not yet
    out = t.tick(0.2)
    assert [str(a) for _, a, _ in game.record_entries()] == ["flip 0", "flip 1"]
    assert [at for _, _, at in game.record_entries()] == [start + 10.0] * 2  # played at the deadline
    updates = messages(out, "a", "update")
    assert [u["action"]["cause"] for u in updates] == ["timeout", "timeout"]
    assert game.to_act == (1,) and t.session.next_deadline() == start + 20.0  # seat 1's turn from then
    t.tick_to_next()
    t.tick_to_next()
    t.tick_to_next()  # seat 0 at the start of a turn: draw, then discard
    assert [str(a) for _, a, _ in game.record_entries()][-2:] == ["draw", "discard"]


@pytest.mark.parametrize(
    ("name", "first"),
    [("golf", ["flip 0", "flip 1"]), ("tonk", ["draw", "discard"]), ("spit", ["ready"]), ("speed", ["stuck"])],
)
def test_each_game_plays_its_documented_default_on_a_timeout(name: str, first: list[str]) -> None:
    t = table(name, time=TimeControl(turn=5.0))
    game = t.session.game
    assert game is not None
    t.tick_to_next()
    played = [str(a).split()[0] for _, a, _ in game.record_entries()]
    assert [w.split()[0] for w in first] == played[: len(first)]
    if name == "tonk":  # the discard is the highest card of the hand
        seat = game.record_entries()[0][0]
        hand = [c for c in t.leaks.views[1][seat]["zones"][2 + seat]["cards"]]
        discarded = str(game.record_entries()[1][1]).split()[1]
        points = game.logic.hand_total
        from cardcore import Card

        worth = points([Card.parse(discarded)])
        drawn = game.state.zones.cards[1][-1]  # the discard pile's top is the card discarded
        assert str(drawn) == discarded
        assert all(points([Card.parse(c)]) <= worth for c in hand if c is not None)


def test_realtime_idle_clock_restarts_with_each_action_of_the_seat() -> None:
    t = table("spit", time=TimeControl(turn=5.0))
    game = t.session.game
    assert game is not None
    t.act("a", "ready", 4.0)  # seat 0 acts: its clock restarts; seat 1's runs on
    t.tick(1.5)
    assert [str(a) for _, a, _ in game.record_entries()] == ["ready", "ready"]  # seat 1 timed out
    assert game.record_entries()[1][0] == 1


def test_the_game_clock_ends_the_match_when_it_runs_out() -> None:
    t = table("speed", time=TimeControl(total=30.0))
    game = t.session.game
    assert game is not None
    t.tick(29.0)
    assert not game.is_over
    out = t.tick(2.0)
    assert game.is_over and game.result is not None and game.result.reason == "ended"
    assert messages(out, "a", "update")[-1]["action"]["cause"] == "clock"
    assert t.session.phase == "over" and t.session.next_deadline() is None


@pytest.mark.parametrize("fallback", ["first", "resign", "wait"])
def test_a_game_without_a_default_uses_the_fallback(fallback: str) -> None:
    t = table("drawgame", time=TimeControl(turn=5.0, fallback=fallback))
    game = t.session.game
    assert game is not None
    seat = game.to_act[0]
    first = game.legal_actions(seat)[0]
    t.tick(5.0)
    if fallback == "first":
        assert game.record_entries()[0][1] == first
    elif fallback == "resign":
        assert game.record_entries()[0][1] == Resign(seat) and game.is_over
    else:
        assert game.version == 0 and t.session.next_deadline() == t.now + 5.0  # the clock starts again


@pytest.mark.parametrize("fallback", ["first", "resign", "wait"])
def test_a_timeout_under_a_setup_veto_plays_a_legal_action_of_the_same_kind(fallback: str) -> None:
    # golf.reveal-same-column: after flip 0 the game's own pick (flip 1) is vetoed; the session
    # plays the first legal flip (flip 3, the same column) whatever the fallback
    session = Session.create(
        "golf",
        2,
        now=0.0,
        seed=11,
        rules=("golf.reveal-same-column",),
        config=SessionConfig(time=TimeControl(turn=5.0, fallback=fallback)),
    )
    t = Table(session)
    for seat in range(2):
        t.join(CONNS[seat], seat)
    t.tick(5.0)
    game = session.game
    assert game is not None
    assert [str(a) for _, a, _ in game.record_entries()] == ["flip 0", "flip 3"]


def test_a_late_message_is_judged_after_the_timeout_it_came_after() -> None:
    t = table("golf", time=TimeControl(turn=10.0))
    game = t.session.game
    assert game is not None
    replies = t.act("a", "flip 3", 12.0, seen=0)  # seat 0's clock ran out at 10
    assert [str(a) for _, a, _ in game.record_entries()] == ["flip 0", "flip 1"]
    assert t.errors(replies) == ["stale"]  # the view it acted on is out of date


@pytest.mark.parametrize("policy", ["pause", "continue"])
def test_running_clocks_across_a_restart(policy: str, tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    config = SessionConfig(time=TimeControl(turn=10.0, restart=policy))
    session = Session.create("golf", 2, now=0.0, seed=5, config=config, store=SQLiteStore(path))
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)  # the game starts at 0: seat 0 must act by 10
    t.act("a", "flip 0", 4.0)  # stored at 4: 6 seconds left
    resumed = Session.resume(SQLiteStore(path), session.id, now=100.0)
    if policy == "pause":
        assert resumed.next_deadline() == pytest.approx(106.0)
        assert resumed.tick(105.0) == [] and resumed.game is not None and resumed.game.version == 1
        resumed.tick(106.5)
        assert resumed.game.version == 2
    else:
        assert resumed.next_deadline() == pytest.approx(10.0)
        resumed.tick(100.0)  # it ran out while the server was down: played at once, at 10
        assert resumed.game is not None and resumed.game.record_entries()[1][2] == 10.0
