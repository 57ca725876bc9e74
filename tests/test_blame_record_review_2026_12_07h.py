"""Review of a7916bc8 (a refused answer blamed on the rule whose implementation last gave
it, ``_blame.gave``/``Ruleset._gave``; ``is_cores`` decided by the code's file; classes a
hook answers guarded and tracked like functions), written as a house-rule author and an
embedder would: a cached Ruleset shared by games of different player counts, classes
answered to a third-party hookspec, scorer classes going down for good.
"""

from __future__ import annotations

import random
import types
from typing import Any

import pluggy
import pytest

import cardcore
from cardcore import PluginError, hookimpl
from cardcore_golf.grids import default_scorer
from tests.test_fix_review_2026_12_07f import house_rule, snapshot

FAILED: list[Any] = []  # the action whose apply raised last


def play_until_error(game: cardcore.Game, seed: int = 1) -> PluginError | None:
    """Random legal play; the first PluginError an apply raises (the game checked unchanged)."""
    rng = random.Random(seed)
    while not game.is_over:
        action = rng.choice(game.legal_actions(game.to_act[0]))
        before = snapshot(game)
        try:
            game.apply(action)
        except PluginError as error:
            assert snapshot(game) == before
            FAILED[:] = [action]
            return error
    return None


def _awards_two_only(layout: Any, keys: Any) -> Any:
    return [0, 0] if len(keys) == 2 else None  # a valid answer, given only in 2-player games


def _awards_always_two(layout: Any, keys: Any) -> Any:
    return [0, 0]  # wrong with 3 players


def _awards_rules(tag: str) -> tuple[Any, Any]:
    a = house_rule(
        f"golf.rvh-{tag}-a",
        f"RVH-{tag.upper()}A-1",
        "golf",
        golf_round_awards=hookimpl(specname="golf_round_awards")(_awards_two_only),
    )
    b = house_rule(
        f"golf.rvh-{tag}-b",
        f"RVH-{tag.upper()}B-1",
        "golf",
        golf_round_awards=hookimpl(specname="golf_round_awards")(_awards_always_two),
    )
    return a, b


# --- stale records in the shared Ruleset ------------------------------------------------------


def test_a_fresh_configuration_blames_the_one_rule_that_gave_the_refused_awards() -> None:
    ra, rb = _awards_rules("fresh")
    with ra as a, rb as b:
        game = cardcore.new_game("golf", 3, rules=[a, b], seed=3)
        error = play_until_error(game)
        assert error is not None and error.plugin == b


def test_a_stale_answer_from_an_earlier_game_does_not_cloud_the_blame() -> None:
    ra, rb = _awards_rules("stale")
    with ra as a, rb as b:
        two = cardcore.new_game("golf", 2, rules=[a, b], seed=3)
        assert play_until_error(two) is None  # valid with 2 players: both rules recorded
        three = cardcore.new_game("golf", 3, rules=[a, b], seed=3)
        assert three.ruleset is two.ruleset  # (one cached configuration)
        error = play_until_error(three)
        assert error is not None and error.plugin == b


# --- classes answered to a third-party game's hookspec -----------------------------------------

_spec = pluggy.HookspecMarker("cardcore")


class Piece:
    pass


class Knight(Piece):
    size = 3

    @classmethod
    def make(cls) -> Knight:
        return cls()


def _class_ruleset(tag: str) -> Any:
    specs = types.ModuleType(f"rvh_specs_{tag}")

    @_spec(firstresult=True)
    def rvh_piece_kind() -> Any:
        """A class of pieces (type[Piece])."""

    specs.rvh_piece_kind = rvh_piece_kind  # type: ignore[attr-defined]

    @hookimpl(optionalhook=True)
    def rvh_piece_kind_impl() -> Any:
        return Knight

    @hookimpl
    def golf_final_turns(layout: Any) -> None:
        return None

    rule = house_rule(
        f"golf.rvh-{tag}",
        f"RVH-{tag.upper()}-1",
        "golf",
        rvh_piece_kind=hookimpl(optionalhook=True, specname="rvh_piece_kind")(lambda: Knight),
        golf_final_turns=golf_final_turns,
    )
    return rule, specs


def test_a_class_a_rule_answers_still_makes_its_instances() -> None:
    rule, specs = _class_ruleset("clsmake")
    with rule as name:
        ruleset = cardcore.new_game("golf", 2, rules=[name], seed=1).ruleset
        ruleset.pm.add_hookspecs(specs)
        made = ruleset.resolve("rvh_piece_kind")()()
        assert type(made) is Knight


def test_a_class_a_rule_answers_reaches_the_game_as_a_class() -> None:
    rule, specs = _class_ruleset("clsas")
    with rule as name:
        ruleset = cardcore.new_game("golf", 2, rules=[name], seed=1).ruleset
        ruleset.pm.add_hookspecs(specs)
        kind = ruleset.resolve("rvh_piece_kind")()
        assert isinstance(kind, type) and issubclass(kind, Piece)
        assert kind.size == 3 and type(kind.make()) is Knight


# --- Golf scorer classes ------------------------------------------------------------------------


class _Calls:
    n = 0
    fail_from: int | None = None


class ScorerClass(int):
    """A scorer answered as a class: calling it makes an int (the game's own scores)."""

    def __new__(cls, keys: Any, points: Any) -> Any:
        _Calls.n += 1
        if _Calls.fail_from is not None and _Calls.n >= _Calls.fail_from:
            raise ConnectionError("scoring service down")
        return int.__new__(cls, _SCORER[0](keys, points))


_SCORER: list[Any] = []


def _scorer_rule(tag: str) -> Any:
    @hookimpl
    def golf_scorer(layout: Any) -> Any:
        _SCORER[:] = [default_scorer(layout)]
        return ScorerClass

    return house_rule(f"golf.rvh-{tag}", f"RVH-{tag.upper()}-1", "golf", golf_scorer=golf_scorer)


def _played(rules: list[str], seed: int) -> cardcore.Game:
    game = cardcore.new_game("golf", 2, rules=rules, seed=seed)
    assert play_until_error(game, seed) is None
    return game


def test_a_passing_scorer_class_plays_the_same_as_the_game() -> None:
    _Calls.n, _Calls.fail_from = 0, None
    with _scorer_rule("scsame") as name:
        for seed in (1, 2, 3):
            with_rule = _played([name], seed)
            without = _played([], seed)
            assert with_rule.record()["actions"] == without.record()["actions"]
            assert with_rule.result.scores == without.result.scores
    assert _Calls.n > 0


def test_a_scorer_class_down_for_good_names_the_rule_and_is_not_called_by_the_restore() -> None:
    with _scorer_rule("scdown") as name:
        _Calls.n, _Calls.fail_from = 0, None
        probe = cardcore.new_game("golf", 2, rules=[name], seed=5)
        assert play_until_error(probe, 5) is None
        first_round_calls = _Calls.n
        assert first_round_calls >= 2
        _Calls.n, _Calls.fail_from = 0, 3  # the first round scores, then the service is down
        game = cardcore.new_game("golf", 2, rules=[name], seed=5)
        error = play_until_error(game, 5)  # (checks the game unchanged after the refusal)
        assert first_round_calls == 18  # 9 rounds, 2 seats
        assert error is not None and error.plugin == name
        assert isinstance(error.__cause__, ConnectionError)
        assert _Calls.n == 3  # the failing call only: the restore called no scorer
        before = snapshot(game)
        for _ in range(2):  # the same action again: refused the same, restored the same
            with pytest.raises(PluginError) as again:
                game.apply(FAILED[0])
            assert again.value.plugin == name and snapshot(game) == before
        assert _Calls.n == 5
