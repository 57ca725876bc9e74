"""Fixes of 2026-12-16 that no helper's file covers (the review's are in test_review_2026_12_16)."""

from __future__ import annotations

import pytest

import cardcore


@pytest.mark.parametrize("read", ["view", "history"])
def test_a_read_refusing_a_seat_says_a_spectator_reads_with_none_or_spectator(read: str) -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    for bad in (5, "x", -1):
        with pytest.raises(cardcore.SeatError, match="CORE-SEAT-1") as info:
            getattr(game, read)(bad)
        assert f"None or {cardcore.SPECTATOR!r} (SPECTATOR) reads as a spectator" in str(info.value)
        assert "the host" not in str(info.value)  # -1 may send 'end', but reads nothing
    assert getattr(game, read)(cardcore.SPECTATOR) == getattr(game, read)(None)


def test_acting_for_the_host_seat_still_names_what_the_host_may_send() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(cardcore.SeatError, match="may only send 'end'"):
        game.legal_actions(-1)
