"""Run the conformance kit on every game, layout, house rule and allowed pair of house rules."""

from __future__ import annotations

import pytest

import cardcore
from cardcore.testing import ALL_CHECKS, check_game, check_views
from tests.conformance.conftest import (
    BROKEN_RULES,
    KNOWN_ISSUES,
    TEST_GAMES,
    Config,
    layouts,
    rule_pairs,
    single_rules,
)

LAYOUTS = list(layouts())
SINGLES = list(single_rules())
PAIRS = list(rule_pairs())


def _run(config: Config) -> cardcore.testing.Report:
    skip = KNOWN_ISSUES.get(config.game, {})
    report = check_game(
        config.game,
        players=config.players,
        rules=config.rules,
        without=config.without,
        options=dict(config.options),
        games=config.games,
        seed=len(config.id),
        checks=ALL_CHECKS - set(skip),
    )
    assert report.games == config.games
    assert report.cards_lost == 0
    assert report.leaks == 0
    assert report.bad_inputs == report.rejected
    return report


@pytest.mark.parametrize("config", LAYOUTS, ids=[c.id for c in LAYOUTS])
def test_conformance_layout(config: Config) -> None:
    report = _run(config)
    assert report.actions > 0
    assert report.bad_inputs > 0
    assert report.reloads > 0


@pytest.mark.parametrize("config", SINGLES, ids=[c.id for c in SINGLES])
def test_conformance_house_rule(config: Config) -> None:
    _run(config)


@pytest.mark.parametrize("config", PAIRS, ids=[c.id for c in PAIRS])
def test_conformance_house_rule_pair(config: Config) -> None:
    a, b = (cardcore.rule_info(r) for r in config.rules)
    try:
        cardcore.get_ruleset(config.game, config.rules)
    except cardcore.RuleConflictError:
        declared = (
            any(ref in (b.name, b.id) for ref in a.conflicts)
            or any(ref in (a.name, a.id) for ref in b.conflicts)
            or bool(a.requires)
            or bool(b.requires)
        )
        assert declared, f"{a.name} + {b.name} raise RuleConflictError without a declared conflict"
        pytest.skip(f"{a.name} + {b.name}: declared conflict")
    try:
        cardcore.new_game(
            config.game, config.players, rules=config.rules, options=dict(config.options), seed=1
        )
    except cardcore.OptionError as exc:
        pytest.skip(f"no layout takes both {a.name} and {b.name}: {exc}")
    _run(config)


def test_conformance_covers_every_installed_game() -> None:
    ran = {c.game for c in LAYOUTS}
    installed = {g for g in cardcore.available_games() if not g.startswith("broken-")}
    assert ran == installed
    assert set(TEST_GAMES) <= ran


INSTALLED_RULES = {
    game: cardcore.available_rules(game)
    for game in cardcore.available_games()
    if not game.startswith("broken-")
}


def test_conformance_covers_every_house_rule() -> None:
    ran = {r for c in SINGLES for r in c.rules}
    for game, rules in INSTALLED_RULES.items():
        info = cardcore.game_info(game)
        for rule in rules:
            if rule not in info.default_rules and rule not in BROKEN_RULES:
                assert rule in ran


@pytest.mark.parametrize("game", sorted(KNOWN_ISSUES))
def test_known_issue_still_present(game: str) -> None:
    """Each known issue is a real failure; when it is fixed, this xfail turns into an error to remove it."""
    for check, reason in KNOWN_ISSUES[game].items():
        del check
        with pytest.raises(AssertionError):
            check_views(game, games=3, seed=1)
        pytest.xfail(reason)
