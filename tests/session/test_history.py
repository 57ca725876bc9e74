"""``history`` requests: worked out once per game version and seat, however often asked."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardcore import Game
from tests.session.kit import Table, table


def _play_rounds(t: Table, rounds: int) -> Game:
    game = t.session.game
    assert game is not None
    rng = random.Random(3)
    while len(game.history(None)) < rounds:
        seat = game.to_act[0]
        conn = "ab"[seat]
        t.act(conn, rng.choice(t.legal(conn)), 0.1)
    t.act("ab"[game.to_act[0]], t.legal("ab"[game.to_act[0]])[0], 0.1)  # the next round begins
    return game


def test_history_asked_again_and_again_is_worked_out_once_per_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = table("golf", options={"rounds": 4}, spectator_delay=0)
    game = _play_rounds(t, 2)
    calls: list[int | None] = []
    history = Game.history

    def counted(self: Game, seat: int | None = None, since: int = 0) -> list[dict[str, Any]]:
        calls.append(seat)
        return history(self, seat, since)

    monkeypatch.setattr(Game, "history", counted)
    replies: dict[tuple[str, int], dict[str, Any]] = {}
    for i in range(30):
        for conn in ("a", "b", "w"):
            since = i % 3
            out = t.session.handle(conn, {"type": "history", "since": since, "id": i}, t.now)
            assert len(out) == 1 and out[0].conn == conn
            message = json.loads(out[0].text)
            assert message == json.loads(json.dumps(out[0].message))
            assert message["id"] == i and message["since"] == since
            replies[conn, since] = message
        t.now += 0.1
    assert sorted(calls, key=str) == [0, 1, None]  # once per seat and for the spectators
    monkeypatch.undo()
    for (conn, since), message in replies.items():
        seat = {"a": 0, "b": 1, "w": None}[conn]
        assert message["rounds"] == game.history(
            seat, since
        )  # as before: nothing more, nothing less


def test_history_is_worked_out_again_when_the_game_moves() -> None:
    t = table("golf", options={"rounds": 4}, spectator_delay=0)
    game = _play_rounds(t, 1)
    first = t.send("a", {"type": "history"})[0]["rounds"]
    _play_rounds(t, 2)
    second = t.send("a", {"type": "history"})[0]["rounds"]
    assert len(first) == 1 and len(second) == 2 and second == game.history(0)
