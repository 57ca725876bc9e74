"""Real time: the version a client acted on (``seen``) tells a stale action from an illegal one."""

from __future__ import annotations

import random

import pytest

from tests.session.kit import Table, table


def _race(t: Table, rng: random.Random) -> tuple[str, str, int]:
    """Play on until both seats can play onto the same centre pile; return the two plays and the version."""
    game = t.session.game
    assert game is not None
    for _ in range(2000):
        plays = {
            seat: [a for a in t.legal("ab"[seat]) if a.startswith("play")] for seat in (0, 1)
        }
        for mine in plays[0]:
            for theirs in plays[1]:
                if mine.split()[-1] == theirs.split()[-1]:
                    return mine, theirs, game.version
        movers = [s for s in game.to_act if t.legal("ab"[s])]
        assert movers and not game.is_over, "the game ended before a race"
        seat = rng.choice(movers)
        legal = t.legal("ab"[seat])
        choice = [a for a in legal if a.startswith(("play", "ready", "slap", "spit", "stuck"))] or legal
        t.act("ab"[seat], rng.choice(choice), 0.3)
    raise AssertionError("no race found")


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_the_second_play_onto_the_same_pile_is_stale_and_told_to_its_seat_only(name: str) -> None:
    t = table(name)
    rng = random.Random(9)
    stale = 0
    for _ in range(5):
        mine, theirs, version = _race(t, rng)
        assert not t.errors(t.act("a", mine, 0.2, seen=version))
        out = t.session.handle("b", f'{{"type": "act", "action": "{theirs}", "seen": {version}}}', t.now + 0.01)
        t._take(out, None)
        if out and out[0].message["type"] == "error":
            assert [o.conn for o in out] == ["b"]
            assert out[0].message["code"] == "stale" and out[0].message["rule"] == "CORE-RT-1"
            stale += 1
    assert stale >= 1


def test_an_action_never_legal_is_illegal_not_stale() -> None:
    t = table("spit")
    t.act("a", "ready", 0.2)
    t.act("b", "ready", 0.2)
    game = t.session.game
    assert game is not None
    never = next(
        f"play {p} {side}"
        for p in range(1, 6)
        for side in "LR"
        if f"play {p} {side}" not in t.legal("a")
    )
    replies = t.act("a", never, 0.1)
    assert t.errors(replies) == ["illegal"] and replies[0]["rule"] != "CORE-RT-1"


def test_seen_outside_the_window_or_ahead_of_the_game() -> None:
    t = table("spit")
    game = t.session.game
    assert game is not None
    assert t.errors(t.act("a", "ready", seen=game.version + 3)) == ["bad-message"]
    rng = random.Random(4)
    while game.version < 80 and not game.is_over:
        seat = rng.choice(game.to_act)
        legal = t.legal("ab"[seat])
        choice = [a for a in legal if a.startswith(("play", "ready", "slap", "spit"))] or legal
        t.act("ab"[seat], rng.choice(choice), 0.3)
    seat = game.to_act[0]
    legal = t.legal("ab"[seat])
    gone = next((a for a in ("ready", "play 1 L", "play 2 R") if a not in legal), "ready")
    replies = t.act("ab"[seat], gone, 0.1, seen=1)
    assert t.errors(replies) == ["stale"] and replies[0]["rule"] == "CORE-RT-3"
