"""Configurations for the conformance run: every game, layout, house rule and allowed pair.

They come from the kit (:func:`cardcore.testing.configurations`), which reads
what the games and rules declare (option choices, ``RuleInfo.applies``,
conflicts, requirements) instead of starting games to find out.
``CARDCORE_CONFORMANCE_GAMES`` scales the number of games per configuration
(default 2; pairs of house rules play a third as many, at least one).
"""

from __future__ import annotations

import os

import cardcore
from cardcore.testing import Configuration, configurations
from tests.conftest import register_test_plugins

register_test_plugins()

GAMES = int(os.environ.get("CARDCORE_CONFORMANCE_GAMES", "2"))
"""Games per configuration (house-rule pairs: a third, at least one)."""

BROKEN_RULES = frozenset({"drawgame.boom", "drawgame.no-hearts"})
"""Test rules that break games: ``boom`` raises on purpose (tests/fuzz/test_plugin_errors.py);
``no-hearts`` leaves a seat holding only hearts with no legal discard (test_kit.py shows the kit catches it)."""

KNOWN_ISSUES: dict[str, dict[str, str]] = {}
"""Per game: checks left out of the general run, each with an xfail test of its own."""

TEST_GAMES = ("drawgame", "racegame")


def games() -> list[str]:
    """Every installed game, the deliberately broken test games left out."""
    return [g for g in cardcore.available_games() if not g.startswith("broken-")]


def _rules(name: str) -> tuple[str, ...]:
    return tuple(r for r in cardcore.available_rules(name) if r not in BROKEN_RULES)


def layouts() -> list[Configuration]:
    """Every game at its fewest and most seats, each option choice and each default rule off."""
    return [c for name in games() for c in configurations(name, rules=())]


CHOICES_RUN = 12
"""At most this many values of one option of a rule alone, evenly spread over its choices
(``golf.bonus-card`` offers 65: its scoring is tested value by value in the rule's tests)."""


def single_rules() -> list[Configuration]:
    """Every optional house rule alone, under options it applies to (from ``RuleInfo.applies``).

    A rule's option with more than :data:`CHOICES_RUN` choices runs that many of them,
    the first and the last included.
    """
    configs = [c for name in games() for c in configurations(name, rules=_rules(name)) if c.rules]
    groups: dict[tuple[object, ...], list[Configuration]] = {}
    for c in configs:
        key = (c.game, c.players, c.rules, c.without, tuple(k for k, _ in c.options))
        groups.setdefault(key, []).append(c)
    kept: set[Configuration] = set()
    for group in groups.values():
        n = len(group)
        picks = (
            range(n)
            if n <= CHOICES_RUN
            else {round(i * (n - 1) / (CHOICES_RUN - 1)) for i in range(CHOICES_RUN)}
        )
        kept.update(group[i] for i in picks)
    return [c for c in configs if c in kept]


def rule_pairs() -> list[Configuration]:
    """Every pair of optional house rules that declare no conflict and share an applicable layout."""
    singles = {c for name in games() for c in configurations(name, rules=_rules(name)) if c.rules}
    return [
        c
        for name in games()
        for c in configurations(name, pairs=True, rules=_rules(name))
        if c.rules and c not in singles
    ]


def games_for(config: Configuration, pair: bool = False) -> int:
    """How many games a configuration plays."""
    return max(1, GAMES // 3) if pair else GAMES
