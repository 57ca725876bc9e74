"""The kit names a house rule whose ``forbid_action`` changes the state it is given.

Before, the change (``state.to_act`` emptied while legal actions were computed) was
blamed on the game: ``GolfLogic.apply('flip 5') left state.to_act empty ...``, since the
kit found the bad turn after the action and the game's own code is what it checks there.
"""

from __future__ import annotations

import types
from collections.abc import Iterator

import pytest

import cardcore
from cardcore import Action, GameState, RuleInfo, hookimpl
from cardcore.testing import check_game


@pytest.fixture
def meddling_veto() -> Iterator[dict[str, str]]:
    """Per game, a registered rule whose veto empties ``to_act`` (and allows everything)."""

    @hookimpl
    def forbid_action(state: GameState, action: Action) -> None:
        state.to_act = ()

    names = {}
    for game in ("golf", "tonk", "spit", "speed"):
        module = types.ModuleType(f"meddling_{game}")
        name = f"{game}.meddling-veto"
        module.RULE = RuleInfo(id="TEST-MEDDLE-1", name=name, game=game, summary="meddles")  # type: ignore[attr-defined]
        module.forbid_action = forbid_action  # type: ignore[attr-defined]
        cardcore.register("cardcore.rules", name, module)
        names[game] = name
    yield names
    for name in names.values():
        cardcore.unregister("cardcore.rules", name)


@pytest.mark.parametrize("game", ["golf", "tonk", "spit", "speed"])
def test_a_veto_that_changes_the_state_is_named(meddling_veto: dict[str, str], game: str) -> None:
    name = meddling_veto[game]
    report = check_game(game, players=2, rules=[name], games=1, seed=0, strict=False)
    assert not report.ok
    first = report.failures[0]
    assert f"forbid_action ({name}) changed the state" in first, report.failures
    assert "must only read" in first
    assert not any("Logic.apply(" in failure for failure in report.failures)


class _Halt(BaseException):
    """A plugin's own BaseException subclass."""


@pytest.mark.parametrize("error", [SystemExit, GeneratorExit, _Halt])
def test_a_plugins_base_exception_is_a_failure_not_an_error_of_the_kit(
    error: type[BaseException],
) -> None:
    """Before, SystemExit, GeneratorExit or a plugin's own BaseException escaped check_game."""

    @hookimpl
    def score_round(state: GameState, scores: object) -> None:
        raise error("halt")

    module = types.ModuleType("halting_golf")
    module.RULE = RuleInfo(id="TEST-HALT-1", name="golf.halting", game="golf", summary="halts")  # type: ignore[attr-defined]
    module.score_round = score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.halting", module)
    try:
        report = check_game("golf", players=2, rules=["golf.halting"], games=1, strict=False)
    finally:
        cardcore.unregister("cardcore.rules", "golf.halting")
    assert not report.ok and report.raw
    assert any(f"a plugin raised a raw {error.__name__}: halt" in f for f in report.failures)
    with pytest.raises(AssertionError, match=error.__name__):
        report.raise_if_failed()
    assert not [r for r in cardcore.available_rules("golf") if r.startswith("golf.kit")]


def test_a_keyboard_interrupt_still_stops_the_kit() -> None:
    @hookimpl
    def score_round(state: GameState, scores: object) -> None:
        raise KeyboardInterrupt

    module = types.ModuleType("interrupting_golf")
    module.RULE = RuleInfo(id="TEST-HALT-2", name="golf.interrupting", game="golf", summary="^C")  # type: ignore[attr-defined]
    module.score_round = score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.interrupting", module)
    try:
        with pytest.raises(KeyboardInterrupt):
            check_game("golf", players=2, rules=["golf.interrupting"], games=1, strict=False)
    finally:
        cardcore.unregister("cardcore.rules", "golf.interrupting")


@pytest.mark.parametrize("error", [pytest.fail.Exception, pytest.skip.Exception])
def test_the_test_runners_own_exceptions_pass_through_the_kit(error: type[BaseException]) -> None:
    """pytest.fail or pytest.skip inside a hook (or a test timeout) belongs to the run, not to
    the plugin: reporting it as "a plugin raised" hid a skipped or failed test."""

    @hookimpl
    def score_round(state: GameState, scores: object) -> None:
        raise error("from the runner")

    module = types.ModuleType("runner_golf")
    module.RULE = RuleInfo(id="TEST-HALT-3", name="golf.runner", game="golf", summary="runner")  # type: ignore[attr-defined]
    module.score_round = score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.runner", module)
    try:
        with pytest.raises(error, match="from the runner"):
            check_game("golf", players=2, rules=["golf.runner"], games=1, strict=False)
    finally:
        cardcore.unregister("cardcore.rules", "golf.runner")
