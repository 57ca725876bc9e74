"""The chunked record: clones share sealed chunks and never see each other's appends."""

from __future__ import annotations

import random

import pytest

import cardcore
from cardcore._actionlog import CHUNK


def _play(game: cardcore.Game, rng: random.Random, n: int, at: float | None = None) -> None:
    for _ in range(n):
        if game.is_over:
            return
        seat = game.to_act[0]
        game.apply(rng.choice(game.legal_actions(seat)), at=None if at is None else at + game.version)


def _texts(game: cardcore.Game) -> list[tuple[int, str, float | None]]:
    return [(s, str(a), t) for s, a, t in game.record_entries()]


def test_clone_across_chunks_keeps_records_apart() -> None:
    game = cardcore.new_game("golf", 4, seed=3)
    rng = random.Random(3)
    _play(game, rng, 2 * CHUNK + 5, at=10.0)
    assert game.version == 2 * CHUNK + 5
    before = _texts(game)
    twin = game.clone()
    _play(twin, random.Random(4), CHUNK + 3, at=10.0)
    _play(game, random.Random(5), 7, at=10.0)
    assert _texts(game)[: len(before)] == before
    assert _texts(twin)[: len(before)] == before
    assert len(_texts(game)) == game.version and len(_texts(twin)) == twin.version
    # each replays to itself: the record is whole and in order, times included
    for g in (game, twin):
        again = cardcore.replay(g.record())
        assert again.version == g.version
        assert again.view(0) == g.view(0)
        assert [t for _, _, t in _texts(g)] == [10.0 + i for i in range(g.version)]


def test_rejected_action_after_many_chunks_changes_nothing() -> None:
    game = cardcore.new_game("golf", 4, seed=8)
    _play(game, random.Random(8), 3 * CHUNK + 1)
    seat = game.to_act[0]
    view = game.view(seat)
    bad = object()
    with pytest.raises(cardcore.IllegalActionError):
        game.apply(bad)  # type: ignore[arg-type]
    assert game.view(seat) == view
    assert cardcore.replay(game.record()).view(seat) == view
