"""Run the conformance kit on every game, layout, house rule and allowed pair of house rules.

The configurations come from declared data (see ``conftest.py``); every installed
game, third-party ones included, also meets the kit's veto-only and score-only rules.
"""

from __future__ import annotations

import itertools

import pytest

import cardcore
from cardcore.testing import (
    ALL_CHECKS,
    Configuration,
    Report,
    check_game,
    check_score_round,
    check_vetoes,
)
from tests.conformance.conftest import (
    BROKEN_RULES,
    KNOWN_ISSUES,
    TEST_GAMES,
    games,
    games_for,
    layouts,
    rule_pairs,
    single_rules,
)

LAYOUTS = layouts()
SINGLES = single_rules()
PAIRS = rule_pairs()
SCORING_GAMES = {"drawgame", "racegame", "golf", "tonk"}
"""Games that score rounds or hands (so the kit's score-only rule must change their results)."""


def _run(config: Configuration, n: int, skip: frozenset[str] = frozenset()) -> Report:
    known = KNOWN_ISSUES.get(config.game, {})
    report = check_game(
        config.game,
        **config.kwargs(),
        games=n,
        seed=len(config.id),
        checks=ALL_CHECKS - set(known) - skip,
    )
    assert report.games == n
    assert report.cards_lost == 0
    assert report.leaks == 0
    assert report.bad_inputs == report.rejected
    return report


@pytest.mark.parametrize("config", LAYOUTS, ids=[c.id for c in LAYOUTS])
def test_conformance_layout(config: Configuration) -> None:
    report = _run(config, games_for(config))
    assert report.actions > 0
    assert report.bad_inputs > 0
    assert report.reloads > 0


@pytest.mark.parametrize("config", SINGLES, ids=[c.id for c in SINGLES])
def test_conformance_house_rule(config: Configuration) -> None:
    _run(config, games_for(config))


@pytest.mark.parametrize("config", PAIRS, ids=[c.id for c in PAIRS])
def test_conformance_house_rule_pair(config: Configuration) -> None:
    _run(config, games_for(config, pair=True), skip=frozenset({"vetoes", "scores"}))


@pytest.mark.parametrize("game", games())
def test_conformance_veto_only_rule_changes_legal_actions(game: str) -> None:
    """A rule implementing only ``forbid_action`` removes what it vetoes, in every game."""
    report = check_vetoes(game, games=2, seed=3)
    assert report.vetoed > 0, (
        f"the kit's veto-only rule removed nothing from {game}'s legal actions"
    )
    assert report.bad_inputs == report.rejected > 0  # vetoed actions applied anyway: rejected


@pytest.mark.parametrize("game", games())
def test_conformance_score_only_rule_changes_results(game: str) -> None:
    """A rule implementing only ``score_round`` changes the result of every game that scores rounds."""
    report = check_score_round(game, games=2, seed=4)
    if game in SCORING_GAMES:
        assert report.scored > 0, f"{game} scores rounds but never called GameLogic.score_round"


def test_conformance_configurations_come_from_declared_data() -> None:
    """Every pair the kit leaves out declares a conflict or shares no layout; none it keeps conflicts."""
    for config in [*SINGLES, *PAIRS]:
        cardcore.get_ruleset(config.game, config.rules, config.without)  # no RuleConflictError
        cardcore.new_game(config.game, config.players, **_start(config), seed=1)  # no OptionError
    for game in games():
        kept = [set(c.rules) for c in [*SINGLES, *PAIRS] if c.game == game]
        rules = [r for r in cardcore.available_rules(game) if r not in BROKEN_RULES]
        rules = [r for r in rules if r not in cardcore.game_info(game).default_rules]
        for a, b in itertools.combinations(rules, 2):
            if any({a, b} <= rules_run for rules_run in kept):
                continue
            ia, ib = cardcore.rule_info(a), cardcore.rule_info(b)
            declared = (
                any(ref in (ib.name, ib.id) for ref in ia.conflicts)
                or any(ref in (ia.name, ia.id) for ref in ib.conflicts)
                or bool(ia.requires or ib.requires)
                or bool(set(ia.applies) & set(ib.applies))
            )
            assert declared, f"{a} + {b} left out of the pairs without a declared reason"


def _start(config: Configuration) -> dict[str, object]:
    return {"rules": config.rules, "without": config.without, "options": dict(config.options)}


def test_conformance_covers_every_installed_game() -> None:
    ran = {c.game for c in LAYOUTS}
    assert ran == set(games())
    assert set(TEST_GAMES) <= ran


def test_conformance_covers_every_house_rule() -> None:
    ran = {r for c in SINGLES for r in c.rules}
    for game in games():
        info = cardcore.game_info(game)
        for rule in cardcore.available_rules(game):
            if rule not in info.default_rules and rule not in BROKEN_RULES:
                assert rule in ran, f"{rule}: no layout it applies to (RuleInfo.applies)"


@pytest.mark.parametrize(
    ("game", "check"), [(g, c) for g in sorted(KNOWN_ISSUES) for c in sorted(KNOWN_ISSUES[g])]
)
def test_known_issue_still_present(game: str, check: str) -> None:
    """Each known issue is a real failure of its own check (none today: the list is empty);
    when it is fixed, this test fails, to have it taken off the list."""
    report = check_game(game, games=3, seed=1, checks={check})
    assert report.failures, f"{game}: the known issue with {check!r} is fixed: take it off"
    pytest.xfail(KNOWN_ISSUES[game][check])
