"""Review of three fixes of 2026-12-06 (00c62f6f keep_over; dc115562 + 28d9d82e refusals undone
and the checkpoint moved; 28d9d82e the kit judges ``determinize``).

Each test pins a claim of the change that held when probed (no bug was proven in the time
given); each would fail if the claim broke.
"""

from __future__ import annotations

import random
import types
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

import cardcore
from cardcore import GameInfo, NotationError, hookimpl
from cardcore.testing._report import Report
from cardcore.testing._twins import check_world
from cardcore.web._quota import Quota, ServerLimits
from tests.plugins import drawgame

# --------------------------------------------------------------------------- 1. keep_over


class _Conn:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat


class _Session:
    def __init__(self, phase: str, conns: dict[str, _Conn]) -> None:
        self.phase = phase
        self.conns = conns


def test_bot_only_and_watched_finished_games_are_closed_after_keep_over() -> None:
    """Bots and spectators keep no finished game; the wait runs from the first sweep."""
    quota = Quota(ServerLimits(keep_over=600, idle_close=0))
    sessions: Any = {
        "bots": _Session("over", {"bot-bots-0": _Conn(0), "bot-bots-1": _Conn(1)}),
        "watched": _Session("over", {"conn-1": _Conn(None)}),
        "seated": _Session("over", {"conn-2": _Conn(0)}),
        "live": _Session("playing", {}),
    }
    assert quota.to_close(sessions, [], 0.0) == []
    assert quota.to_close(sessions, [], 599.0) == []
    assert sorted(quota.to_close(sessions, [], 600.0)) == ["bots", "watched"]
    # a sweep making room (a wait) never closes a finished game
    assert quota.to_close(sessions, [], 10.0**6, wait=1.0) == []


def test_a_person_taking_a_seat_restarts_the_wait() -> None:
    quota = Quota(ServerLimits(keep_over=600, idle_close=0))
    session = _Session("over", {})
    sessions: Any = {"s": session}
    assert quota.finished_sessions(sessions, 0.0) == []
    session.conns = {"conn-9": _Conn(1)}
    assert quota.finished_sessions(sessions, 500.0) == []
    assert "s" not in quota.ended
    session.conns = {}
    assert quota.finished_sessions(sessions, 700.0) == []  # the wait starts again at 700
    assert quota.finished_sessions(sessions, 1299.0) == []
    assert quota.finished_sessions(sessions, 1300.0) == ["s"]
    quota.forget("s")
    assert "s" not in quota.ended


def test_sweeper_runs_with_keep_over_alone(tmp_path: Any) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from cardcore.web import WebServer, create_app
    from tests.web.helpers import TestClient

    limits = ServerLimits(keep_over=600, idle_close=0)
    server = WebServer(str(tmp_path / "g.db"), bot_delay=0.0, server_limits=limits)
    with TestClient(create_app(server)):
        assert server._sweeper is not None
    off = WebServer(
        str(tmp_path / "h.db"), bot_delay=0.0, server_limits=ServerLimits(keep_over=0, idle_close=0)
    )
    with TestClient(create_app(off)):
        assert off._sweeper is None


# --------------------------------------------------------------------------- 2. refusals undone


class _Counting(drawgame.DrawLogic):
    """The draw game counting its applies; ``parse_action`` of "zzz" changes the totals and
    refuses."""

    applies: ClassVar[list[int]] = [0]

    def apply(self, state: Any, action: Any, emit: Any) -> None:
        _Counting.applies[0] += 1
        super().apply(state, action, emit)

    def parse_action(self, state: Any, seat: int, text: str) -> Any:
        if text == "zzz":
            state.totals = [3] * state.players
            raise NotationError("not an action")
        return super().parse_action(state, seat, text)


def _module(name: str, logic: type) -> types.ModuleType:
    mod = types.ModuleType(f"{name}_game")
    g = drawgame.GAME
    mod.GAME = GameInfo(  # type: ignore[attr-defined]
        name, g.summary, g.min_players, g.max_players, options=g.options, fields=g.fields
    )

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return logic(ruleset)

    mod.create_logic = create_logic  # type: ignore[attr-defined]
    mod.card_points = drawgame.card_points  # type: ignore[attr-defined]
    return mod


@pytest.fixture
def counting() -> Iterator[cardcore.Game]:
    cardcore.register("cardcore.games", "countgame3", _module("countgame3", _Counting))
    try:
        yield cardcore.new_game("countgame3", 2, seed=3)
    finally:
        cardcore.unregister("cardcore.games", "countgame3")


def test_refused_text_is_undone_and_the_next_refusal_replays_nothing(
    counting: cardcore.Game,
) -> None:
    game = counting
    for _ in range(6):
        if game.is_over:
            break
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    version, record, position = game.version, game.record(), game.position()
    seat = game.to_act[0]
    _Counting.applies[0] = 0
    with pytest.raises(NotationError):
        game.act(seat, "zzz")
    first = _Counting.applies[0]
    assert game.position() == position and game.version == version
    assert game.record() == record
    assert game._base[0] == version  # the restored state is the checkpoint
    _Counting.applies[0] = 0
    for _ in range(5):
        with pytest.raises(NotationError):
            game.act(seat, "zzz")
    assert _Counting.applies[0] == 0  # a clone each, never a replay
    assert first <= version
    assert game.position() == position
    assert cardcore.load(game.save()).position() == position
    clone = game.clone()
    with pytest.raises(NotationError):
        clone.act(seat, "zzz")
    assert clone.position() == position == game.position()


# --------------------------------------------------------------------------- 3. the kit's twins


def _walk(name: str, players: int, seed: int, every: int, steps: int) -> Iterator[cardcore.Game]:
    game = cardcore.new_game(name, players, seed=seed)
    rng = random.Random(seed)
    for step in range(steps):
        if game.is_over:
            return
        if step % every == 0:
            yield game
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if not seats:
            return
        seat = rng.choice(seats)
        game.apply(rng.choice(game.legal_actions(seat)))


@pytest.mark.parametrize(
    ("name", "players"),
    [("golf", 2), ("golf", 4), ("tonk", 3), ("spit", 2), ("speed", 2), ("gofish", 3)],
)
def test_check_world_passes_the_bundled_games(name: str, players: int) -> None:
    checked = 0
    for seed in (1, 2):
        for game in _walk(name, players, seed, every=11, steps=200):
            for seat in range(players):
                report = Report(name)
                check_world(report, game, seat)
                assert report.failures == [], report.failures
                checked += 1
    assert checked


def test_check_world_fails_a_hook_that_redeals_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Control: the check can fail (a determinize that leaves the stock as it lies)."""
    game = cardcore.new_game("golf", 2, seed=1)
    monkeypatch.setattr(type(game), "determinize", lambda self, seat, seed: self.clone())
    report = Report("golf")
    check_world(report, game, 0)
    assert report.leaks == 1 and "never re-dealt pile" in report.failures[0]
