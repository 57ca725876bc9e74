"""Configurations for the conformance run: every game, layout, house rule and allowed pair.

``CARDCORE_CONFORMANCE_GAMES`` scales the number of games per configuration
(default 2; pairs of house rules play a third as many, at least one).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from typing import Any

import attrs

import cardcore
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


@attrs.frozen
class Config:
    """One configuration under test."""

    game: str
    players: int
    rules: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    games: int = GAMES

    @property
    def id(self) -> str:
        parts = [self.game, f"{self.players}p"]
        parts += [f"{k}={v}" for k, v in self.options]
        parts += list(self.rules)
        parts += [f"without:{w}" for w in self.without]
        return "-".join(parts)


def _distinct(values: tuple[Any, ...]) -> list[Any]:
    out: list[Any] = []
    seen: set[str] = set()
    for v in values:
        key = str(v).lower()
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def layouts() -> Iterator[Config]:
    """Every game with its default options, at its fewest and (capped) most seats, and every choice of every option."""
    for name in cardcore.available_games():
        if name.startswith("broken-"):
            continue
        info = cardcore.game_info(name)
        low = info.min_players
        yield Config(name, low)
        high = min(info.max_players, low + 2)
        if high != low:
            try:
                cardcore.get_ruleset(name).logic.validate(high, info.resolve_options(None))
                yield Config(name, high)
            except cardcore.OptionError:
                pass
        for opt in info.options:
            if opt.choices is None:
                continue
            for value in _distinct(opt.choices):
                if value != opt.default:
                    yield Config(name, low, options=((opt.name, value),))
        for rule in info.default_rules:
            yield Config(name, low, without=(rule,))


def rules_of(name: str) -> tuple[str, ...]:
    """The optional house rules of *name* worth running (defaults and broken test rules left out)."""
    info = cardcore.game_info(name)
    return tuple(
        r
        for r in cardcore.available_rules(name)
        if r not in BROKEN_RULES and r not in info.default_rules
    )


def options_for(
    name: str, players: int, rules: tuple[str, ...]
) -> tuple[tuple[str, Any], ...] | None:
    """The first options (defaults, then each single choice) under which *rules* apply, or ``None``.

    Rules that only apply to some layouts raise :class:`cardcore.OptionError` elsewhere.
    """
    info = cardcore.game_info(name)
    candidates: list[tuple[tuple[str, Any], ...]] = [()]
    for opt in info.options:
        if opt.choices is not None:
            candidates += [((opt.name, v),) for v in _distinct(opt.choices) if v != opt.default]
    for options in candidates:
        try:
            cardcore.new_game(name, players, rules=rules, options=dict(options), seed=1)
        except cardcore.OptionError:
            continue
        except cardcore.RuleConflictError:
            return None
        return options
    return None


def single_rules() -> Iterator[Config]:
    """Every house rule alone (under the first layout it applies to)."""
    for name in cardcore.available_games():
        if name.startswith("broken-"):
            continue
        low = cardcore.game_info(name).min_players
        for rule in rules_of(name):
            options = options_for(name, low, (rule,))
            yield Config(name, low, rules=(rule,), options=options or ())


def rule_pairs() -> Iterator[Config]:
    """Every pair of house rules of one game (allowed or not: the test tells)."""
    for name in cardcore.available_games():
        if name.startswith("broken-"):
            continue
        low = cardcore.game_info(name).min_players
        for a, b in itertools.combinations(rules_of(name), 2):
            options = options_for(name, low, (a, b))
            yield Config(name, low, rules=(a, b), options=options or (), games=max(1, GAMES // 3))
