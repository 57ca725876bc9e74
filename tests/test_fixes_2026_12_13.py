"""Fixes of 2026-12-13: findings of the Slapjack author, the diff review and the rule-options user."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import cardcore
from cardcore.testing import check_game
from tests.plugins import slapjack_2026_12_13 as sj


@pytest.fixture
def slapjack() -> Iterator[str]:
    cardcore.register("cardcore.games", sj.NAME, sj)
    yield sj.NAME
    cardcore.unregister("cardcore.games", sj.NAME)


def test_the_kits_veto_check_runs_on_a_game_of_two_notations(slapjack: str) -> None:
    # "flip" and "slap": the first salt of each game's walk vetoed neither, and the check
    # was skipped; a walk that vetoed nothing now draws another salt
    report = check_game(slapjack, players=2, games=2, seed=2)
    assert report.ok, report.failures
    assert "vetoes" not in report.skipped
    assert report.vetoed > 0
