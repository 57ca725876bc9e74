"""Done-when: every built-in game played through sessions on a virtual clock.

Two seats and a spectator; the seats send fair-deal entropy; a disconnect, a
timeout while the seat is away, and a resync; a stale action in the real-time
games; a takeback (and a refused one) in the turn-based games; a restart from
the SQLite file mid-game, after which everyone joins again. Every outbound
message goes through the leak check of :mod:`tests.session.kit`; at the end
the revealed fair deal verifies.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardcore import game_info
from cardcore.session import Session, SessionConfig, SQLiteStore, TimeControl, verify_bundle
from cardcore.session.fair import FairDeal
from tests.session.kit import Table

GAMES = ("golf", "tonk", "spit", "speed")
OPTIONS = {"golf": {"rounds": 3}, "tonk": {"hands": 2}, "spit": {}, "speed": {}}
PREFER = ("play", "ready", "slap", "deal", "stuck", "spit")
MAX_ACTIONS = 6000


def _choose(legal: list[str], rng: random.Random, realtime: bool) -> str:
    if realtime:
        for verb in PREFER:
            found = [a for a in legal if a.split()[0] == verb]
            if found:
                return rng.choice(found)
    turn_based = [a for a in legal if a not in ("knock", "drop")]
    return rng.choice(turn_based or legal)


def _rejoin_everyone(t: Table) -> None:
    for conn, seat in (("a", 0), ("b", 1)):
        replies = t.join(conn, seat)
        assert replies[0]["type"] == "welcome", replies
    t.send("w", {"type": "watch", "last": t.mirrors["w"].last})


@pytest.fixture
def fixed_fair_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's fair-deal secret drawn from a fixed source, so each game plays the same every run."""

    def fresh(cls: type[FairDeal], players: int) -> FairDeal:
        return cls(bytes(range(32)), bytes(range(16)), [None] * players)

    monkeypatch.setattr(FairDeal, "fresh", classmethod(fresh))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("fixed_fair_seed")
def test_every_game_plays_through_sessions_without_a_leak(name: str, tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    realtime = game_info(name).realtime
    config = SessionConfig(
        time=TimeControl(turn=30.0), spectator_delay=2, fair=True, seat_entropy=True
    )
    session = Session.create(
        name, ["Ann", "Bob"], now=0.0, options=OPTIONS[name], config=config, store=SQLiteStore(path)
    )
    commitment = session.commitment
    t = Table(session)
    t.join("a", 0, entropy="ann's dice: 4 6 1")
    t.send("w", {"type": "watch"})
    assert session.phase == "waiting"
    t.join("b", 1, entropy="bob's coin: heads")
    assert session.phase == "playing"
    rng = random.Random(name)
    done: set[str] = set()
    away = False
    for step in range(MAX_ACTIONS):
        game = t.session.game
        assert game is not None
        if t.session.phase != "playing":
            break
        if step == 12 and not away:  # seat 1 drops
            t.disconnect("b")
            away = True
        if away:
            # play seat 0 alone until seat 1 must act; then its clock runs out
            if 1 in game.to_act and (not realtime or rng.random() < 0.2):
                before = game.version
                t.tick_to_next()
                assert t.session.game is not None and (t.session.game.version > before or t.session.phase != "playing")
                done.add("timeout")
                t.now += 1
                replies = t.join("b", 1)
                assert replies[0]["type"] == "welcome" and "token" not in replies[0]
                assert t.mirrors["b"].view == t.session.game.view(1)
                done.add("resync")
                away = False
                continue
            if 0 not in game.to_act:  # pragma: no cover - the other seat acts in these games
                continue
        if step >= 30 and "restart" not in done and not away:  # the process restarts
            resumed = Session.resume(SQLiteStore(path), t.session.id, t.now + 5.0)
            t.restart(resumed)
            t.now += 5.0
            _rejoin_everyone(t)
            for conn, seat in (("a", 0), ("b", 1)):
                assert t.mirrors[conn].view == resumed.game.view(seat)
            done.add("restart")
            continue
        seats = [s for s in game.to_act if not (away and s == 1)]
        seat = rng.choice(seats)
        conn = "ab"[seat]
        legal = t.legal(conn)
        if not legal:
            t.tick(0.5)
            continue
        if not realtime and "take" in legal and "takeback" not in done and step > 4:
            _takeback(t, conn, seat)
            done.add("takeback")
            continue
        if not realtime and "draw" in legal and "refused" not in done and step > 4:
            t.act(conn, "draw", 1.0)
            replies = t.send(conn, {"type": "takeback", "op": "request"})
            assert t.errors(replies) == ["takeback-refused"], replies
            done.add("refused")
            continue
        action = _choose(legal, rng, realtime)
        if realtime and len(game.to_act) == 2 and not away and rng.random() < 0.3:
            # both seats act on the same view: the second may be overtaken
            other = "ba"[seat]
            seen = t.mirrors[other].version
            planned = _choose(t.legal(other), rng, realtime) if t.legal(other) else None
            t.act(conn, action, 0.25)
            if t.session.phase == "playing" and planned is not None:
                replies = t.act(other, planned, 0.05, seen=seen)
                codes = t.errors(replies)
                assert codes in ([], ["stale"], ["illegal"]), replies
                if codes == ["stale"]:
                    done.add("stale")
            continue
        replies = t.act(conn, action, 1.0 if not realtime else 0.4)
        assert not t.errors(replies), replies
    assert t.session.phase == "over", f"{name} did not finish in {MAX_ACTIONS} actions"
    expected = {"timeout", "resync", "restart"} | ({"stale"} if realtime else {"takeback", "refused"})
    assert expected <= done, expected - done
    for conn in ("a", "b", "w"):
        bundle = t.mirrors[conn].bundle
        assert bundle is not None and bundle["commitment"] == commitment
    report = verify_bundle(t.mirrors["w"].bundle, commitment)
    assert report.game == name and report.actions == t.session.game.version
    assert t.leaks.checked > 100


def _takeback(t: Table, conn: str, seat: int) -> None:
    """Take the face-up discard, then take it back with the other seat's agreement."""
    game = t.session.game
    assert game is not None
    before = game.version
    view = game.view(seat)
    t.act(conn, "take", 1.0)
    assert game.version == before + 1
    replies = t.send(conn, {"type": "takeback", "op": "request"}, 1.0)
    assert not t.errors(replies), replies
    other = "ba"[seat]
    assert t.mirrors[other].takeback is not None and t.mirrors[other].takeback["op"] == "requested"
    replies = t.send(other, {"type": "takeback", "op": "accept"}, 1.0)
    assert not t.errors(replies), replies
    now = t.session.game
    assert now is not None and now.version == before
    assert t.mirrors[conn].view == view == now.view(seat)
