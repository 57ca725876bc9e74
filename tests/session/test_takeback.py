"""Takebacks: asked by the seat that acted, agreed by the others, refused once a card was seen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore.session import Session, SessionConfig, SQLiteStore
from cardcore.session.takeback import known_cards, learned, probe
from tests.session.kit import Table, messages, table


def _golf_after_setup(**config: object) -> Table:
    t = table("golf", **config)
    for conn in ("a", "a", "b", "b"):
        t.act(conn, t.legal(conn)[0], 1.0)
    game = t.session.game
    assert game is not None and game.to_act == (0,) and "take" in t.legal("a")
    return t


def _ask(t: Table, conn: str) -> list[str]:
    return t.errors(t.send(conn, {"type": "takeback", "op": "request"}, 1.0))


def test_golf_take_is_taken_back_when_the_other_seat_agrees() -> None:
    t = _golf_after_setup()
    game = t.session.game
    assert game is not None
    before = {s: game.view(s) for s in (0, 1, None)}
    t.act("a", "take", 1.0)
    assert _ask(t, "a") == []
    offer = t.mirrors["b"].takeback
    assert offer is not None and offer["op"] == "requested" and offer["action"] == "take"
    assert t.errors(t.send("a", {"type": "takeback", "op": "accept"})) == [
        "takeback-refused"
    ]  # not its own
    assert t.errors(t.send("b", {"type": "takeback", "op": "accept"})) == []
    now = t.session.game
    assert now is not None and now.version == 4
    assert {s: now.view(s) for s in (0, 1)} == {s: before[s] for s in (0, 1)}
    assert t.mirrors["a"].view == before[0] and t.mirrors["b"].view == before[1]
    assert [str(a) for _, a, _ in now.record_entries()] == [
        str(a) for _, a, _ in game.record_entries()
    ][:4]
    t.act("a", "draw", 1.0)  # play goes on from there
    assert now.version == 5


@pytest.mark.parametrize("action", ["draw", "flip"])
def test_golf_draw_or_flip_shows_a_card_so_it_is_final(action: str) -> None:
    if action == "flip":
        t = table("golf")
        t.act("a", "flip 0", 1.0)
    else:
        t = _golf_after_setup()
        t.act("a", "draw", 1.0)
    replies = t.send("a", {"type": "takeback", "op": "request"})
    assert t.errors(replies) == ["takeback-refused"]
    assert "revealed a card to seat" in replies[0]["message"]
    assert t.session.takeback is None


def test_golf_replace_of_a_face_up_card_may_be_taken_back_a_face_down_one_not() -> None:
    t = _golf_after_setup()
    game = t.session.game
    assert game is not None
    t.act("a", "take", 1.0)
    up = next(i for i, c in enumerate(game.view(0)["table"]["grids"][0]) if c is not None)
    down = next(i for i, c in enumerate(game.view(0)["table"]["grids"][0]) if c is None)
    t.act("a", f"replace {up}", 1.0)
    assert _ask(t, "a") == []  # the card it discarded was face up: nobody learned anything
    t.send("b", {"type": "takeback", "op": "accept"})
    assert game is not t.session.game and t.session.game is not None and t.session.game.version == 5
    t.act("a", f"replace {down}", 1.0)
    assert _ask(t, "a") == ["takeback-refused"]


def test_tonk_take_may_be_taken_back_draw_and_discard_not() -> None:
    t = table("tonk", options={"first_dealer": 1})
    game = t.session.game
    assert game is not None and game.to_act == (0,)
    assert "take" in t.legal("a")
    t.act("a", "take", 1.0)
    assert _ask(t, "a") == []
    t.send("b", {"type": "takeback", "op": "accept"})
    game = t.session.game
    assert game is not None and game.version == 0
    t.act("a", "draw", 1.0)
    assert _ask(t, "a") == ["takeback-refused"]
    discard = next(a for a in t.legal("a") if a.startswith("discard"))
    t.act("a", discard, 1.0)
    assert _ask(t, "a") == ["takeback-refused"]
    assert _ask(t, "b") == ["takeback-refused"]  # only the seat that acted may ask


def test_a_declined_an_expired_and_an_overtaken_request_end_it() -> None:
    t = _golf_after_setup(takeback_timeout=10.0)
    t.act("a", "take", 1.0)
    _ask(t, "a")
    t.send("b", {"type": "takeback", "op": "decline"})
    assert (
        t.mirrors["a"].takeback is None
        and t.session.game is not None
        and t.session.game.version == 5
    )
    _ask(t, "a")
    out = t.tick(11.0)
    assert messages(out, "a", "takeback")[0]["op"] == "expired"
    _ask(t, "a")
    replace = next(a for a in t.legal("a") if a.startswith("replace"))
    start = len(t.outbound)
    out_replies = t.act("a", replace, 1.0)
    assert t.session.takeback is None and not t.errors(out_replies)
    ops = [
        o.message["op"]
        for o in t.outbound[start:]
        if o.conn == "b" and o.message["type"] == "takeback"
    ]
    assert ops == ["cancelled"] and t.mirrors["b"].takeback is None
    assert t.errors(t.send("b", {"type": "takeback", "op": "accept"})) == [
        "takeback-refused"
    ]  # none pending


def test_takebacks_refused_in_real_time_when_switched_off_and_before_any_action() -> None:
    for name, action in (("spit", "ready"), ("speed", "stuck")):
        t = table(name)
        t.act("a", action, 1.0)
        replies = t.send("a", {"type": "takeback", "op": "request"})
        assert t.errors(replies) == ["takeback-refused"] and "turn-based" in replies[0]["message"]
    t = table("golf", takebacks=False)
    t.act("a", "flip 0", 1.0)
    assert _ask(t, "a") == ["takeback-refused"]
    t = table("golf")
    assert _ask(t, "a") == ["takeback-refused"]
    assert t.errors(t.send("w", {"type": "takeback", "op": "request"})) == ["not-a-seat"]


def test_a_pending_takeback_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    session = Session.create(
        "golf", 2, now=0.0, seed=11, store=SQLiteStore(path), config=SessionConfig()
    )
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    for conn in ("a", "a", "b", "b"):
        t.act(conn, t.legal(conn)[0], 1.0)
    t.act("a", "take", 1.0)
    _ask(t, "a")
    resumed = Session.resume(SQLiteStore(path), session.id, t.now + 1)
    assert resumed.takeback is not None and resumed.takeback["by"] == 0
    t.restart(resumed)
    t.join("a", 0)
    t.join("b", 1)
    assert t.errors(t.send("b", {"type": "takeback", "op": "accept"})) == []
    assert resumed.game is not None and resumed.game.version == 4


def test_learned_counts_cards_seen_anywhere_and_in_events() -> None:
    game = cardcore.new_game("golf", 2, seed=11)
    before = game.clone()
    after, events = probe(before, 0, "flip 0", None)
    got = learned(before, after, events)
    assert all(len(got[s]) == 1 for s in (0, 1, None))  # a card turned up: everyone learned it
    assert sum(known_cards(after, 1).values()) == sum(known_cards(before, 1).values()) + 1


def _count_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the games built from a record (a replay from the deal) from now on."""
    from cardcore.session.config import GameSetup

    calls: list[int] = []
    build = GameSetup.build

    def counted(self: GameSetup, *args: Any, **kwargs: Any) -> cardcore.Game:
        calls.append(len(args[1]) if len(args) > 1 else 0)
        return build(self, *args, **kwargs)

    monkeypatch.setattr(GameSetup, "build", counted)
    return calls


def test_a_refused_takeback_asked_again_and_again_replays_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = _golf_after_setup()
    for _ in range(6):  # a longer game: each seat draws and discards
        for conn in ("a", "b"):
            t.act(conn, "draw", 0.1)
            t.act(conn, t.legal(conn)[-1], 0.1)
    t.act("a", "draw", 0.1)  # shows seat 0 a card: final
    builds = _count_builds(monkeypatch)
    for _ in range(30):
        replies = t.send("a", {"type": "takeback", "op": "request"}, 0.1)
        assert (
            t.errors(replies) == ["takeback-refused"] and "revealed a card" in replies[0]["message"]
        )
    assert builds == []  # judged on the copy kept from before the draw, once
    assert t.session.takeback is None


def test_after_a_restart_a_refused_takeback_replays_once_per_version(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "s.db"
    session = Session.create(
        "golf", 2, now=0.0, seed=11, store=SQLiteStore(path), config=SessionConfig()
    )
    t = Table(session)
    t.join("a", 0)
    t.join("b", 1)
    for conn in ("a", "a", "b", "b"):
        t.act(conn, t.legal(conn)[0], 1.0)
    t.act("a", "draw", 1.0)
    resumed = Session.resume(SQLiteStore(path), session.id, t.now + 1)
    t.restart(resumed)
    t.join("a", 0)
    builds = _count_builds(monkeypatch)
    for _ in range(20):
        assert _ask(t, "a") == ["takeback-refused"]
        t.now += 0.1
    assert len(builds) == 1


def test_a_declined_takeback_asked_again_is_not_replayed_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = _golf_after_setup()
    t.act("a", "take", 1.0)
    builds = _count_builds(monkeypatch)
    for _ in range(5):
        assert _ask(t, "a") == []
        assert t.errors(t.send("b", {"type": "takeback", "op": "decline"}, 0.1)) == []
    assert len(builds) == 1  # the game without "take", built once and kept for this version
    assert _ask(t, "a") == []
    assert t.errors(t.send("b", {"type": "takeback", "op": "accept"}, 0.1)) == []
    game = t.session.game
    assert game is not None and game.version == 4 and len(builds) == 1
