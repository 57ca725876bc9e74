"""Shared fixtures: the test-only game plugins and the ``make_game`` factory."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import cardcore
from tests.plugins import drawgame, drawgame_rules, racegame, racegame_rules

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("long", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def register_test_plugins() -> None:
    """Register the test-only games and house rules (idempotent)."""
    cardcore.register("cardcore.games", "drawgame", drawgame)
    cardcore.register("cardcore.games", "racegame", racegame)
    for module in (*drawgame_rules.RULES, racegame_rules):
        cardcore.register("cardcore.rules", module.RULE.name, module)


register_test_plugins()


@pytest.fixture
def make_game() -> Callable[..., cardcore.Game]:
    """Return ``new_game`` with a fixed default seed, for stacked and seeded games."""

    def make(name: str, players: Any = 2, **kwargs: Any) -> cardcore.Game:
        kwargs.setdefault("seed", 1)
        return cardcore.new_game(name, players, **kwargs)

    return make


@pytest.fixture(autouse=True)
def _registrations_kept() -> Any:
    """Fail a test that leaves a plugin registered (or replaced) behind it.

    A leftover registration changes every later test in the process: an agent left
    registered became the web lobby's default bot for the browser tests that followed.
    Registrations made by a fixture of a wider scope are in place before the snapshot.
    """
    from cardcore import plugins

    before = {group: dict(entries) for group, entries in plugins._entries().items()}
    yield
    after = plugins._entries()
    leaked = [
        f"{group}: {name}"
        for group, entries in after.items()
        for name, target in entries.items()
        if name not in before[group] or before[group][name] != target  # (an entry point: equal)
    ] + [
        f"{group}: {name} (removed)"
        for group, entries in before.items()
        for name in entries
        if name not in after[group]
    ]
    assert not leaked, f"the test left plugin registrations changed: {leaked} (unregister them)"
