"""The core's conformance kit over several Tonk configurations."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore.testing import check_game

ALL = [
    "tonk.double-needs-spread",
    "tonk.hit-blocks-drop",
    "tonk.must-lay-down",
    "tonk.no-upcard",
    "tonk.stock-out-discard-only",
]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 3},
        {"players": 2, "without": ["tonk.natural-49-50"], "options": {"hands": 3}},
        {"players": 3, "rules": ALL, "options": {"hands": 3, "stake": 2}},
        {"players": 4, "rules": ALL[:3], "options": {"hands": 2, "max_players": 4}},
    ],
    ids=["default", "base-2p-session", "all-rules", "4p"],
)
def test_conformance_kit(kwargs: dict[str, Any]) -> None:
    report = check_game("tonk", games=10, seed=3, **kwargs)
    assert report.cards_lost == 0 and report.leaks == 0 and report.failed == 0
