"""The core's conformance kit on Golf: every layout, and a configuration with house rules."""

from __future__ import annotations

import pytest

from cardcore.testing import check_game


@pytest.mark.parametrize("layout", [6, 8, 9, 10, "4", "4h"])
def test_conformance_every_layout(layout: object) -> None:
    report = check_game("golf", players=3, games=3, options={"layout": layout, "rounds": 2})
    assert report.cards_lost == 0 and report.leaks == 0 and not report.failures


@pytest.mark.parametrize(
    ("rules", "layout"),
    [
        (("golf.jokers", "golf.remove-columns", "golf.ender-penalty-10"), 6),
        (("golf.remove-triples", "golf.reveal-same-column"), 9),
        (("golf.peek-nearest", "golf.diagonal-pairs", "golf.knock-final-stock-only"), "4"),
    ],
)
def test_conformance_with_house_rules(rules: tuple[str, ...], layout: object) -> None:
    report = check_game(
        "golf", players=3, games=3, rules=rules, options={"layout": layout, "rounds": 2}
    )
    assert not report.failures
