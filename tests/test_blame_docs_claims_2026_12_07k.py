"""Docs-vs-behaviour check (2026-12-07k) of the blame paragraphs of docs/hooks.rst ("An
answer of the wrong kind" .. "Answer a function to have every failure named"), the restore
paragraph of docs/security.rst and the first Unreleased entry of docs/changelog.rst.

Written as a house-rule author with only the docs: public API only (new_game, Game.apply /
legal_actions / save, register / unregister, hookimpl, RuleInfo); every rule lives in this
real module, registered through ``cardcore.register`` and always unregistered.
"""

from __future__ import annotations

import collections
import fractions
import functools
import random
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardcore
from cardcore import PluginError, RuleInfo, hookimpl
from cardcore_golf.grids import default_scorer


@contextmanager
def house_rule(name: str, rule_id: str, **hooks: Any) -> Iterator[str]:
    module = types.ModuleType("bdc7k_" + name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rule_id, name=name, game="golf", summary="docs check rule")  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.rules", name)


def play_until_error(game: cardcore.Game, seed: int = 3, cap: int = 3000) -> PluginError | None:
    rng = random.Random(seed)
    for _ in range(cap):
        if game.is_over:
            return None
        action = rng.choice(game.legal_actions(game.to_act[0]))
        try:
            game.apply(action)
        except PluginError as exc:
            return exc
    return None


def scorer_hook(fn: Any) -> Any:
    return hookimpl(specname="golf_scorer")(fn)


# --- an answer of the wrong kind ---------------------------------------------------------------


@hookimpl(specname="golf_round_awards")
def _half_awards(layout: Any, keys: Any) -> Any:
    return [2.5] * len(keys)  # a float where the game reads an int


def test_wrong_answer_names_the_rule_and_lists_the_implementers() -> None:
    with house_rule("golf.bdc-half", "BDC-HALF-1", golf_round_awards=_half_awards) as name:
        game = cardcore.new_game("golf", 2, rules=[name], seed=5)
        error = play_until_error(game)
        assert error is not None and error.plugin == name
        assert name in str(error)


class Once:
    calls = 0


@hookimpl(specname="golf_round_awards")
def _wrong_once_then_none(layout: Any, keys: Any) -> Any:
    Once.calls += 1
    return [0] * (len(keys) + 1) if Once.calls == 1 else None  # wrong length, given once


@hookimpl(tryfirst=True, specname="golf_round_awards")
def _always_right(layout: Any, keys: Any) -> Any:
    return [0] * len(keys)


def test_rule_answering_wrong_once_then_none_is_still_named() -> None:
    Once.calls = 0
    with (
        house_rule("golf.bdc-right", "BDC-RIGHT-1", golf_round_awards=_always_right) as right,
        house_rule("golf.bdc-once", "BDC-ONCE-1", golf_round_awards=_wrong_once_then_none) as once,
    ):
        game = cardcore.new_game("golf", 2, rules=[right, once], seed=5)
        error = play_until_error(game)
        assert error is not None and error.plugin == once
        # (any re-ask would get None from it: only the kept last answer can name it)


@hookimpl(specname="golf_round_awards")
def _bad_a(layout: Any, keys: Any) -> Any:
    return [0] * (len(keys) + 1)


@hookimpl(specname="golf_round_awards")
def _bad_b(layout: Any, keys: Any) -> Any:
    return [0] * (len(keys) + 1)


def test_several_alike_wrong_answers_name_none() -> None:
    with (
        house_rule("golf.bdc-alike-a", "BDC-ALIKEA-1", golf_round_awards=_bad_a) as a,
        house_rule("golf.bdc-alike-b", "BDC-ALIKEB-1", golf_round_awards=_bad_b) as b,
    ):
        game = cardcore.new_game("golf", 2, rules=[a, b], seed=5)
        error = play_until_error(game)
        assert error is not None
        assert error.plugin is None
        assert a in str(error) and b in str(error)  # the message lists the implementers


# --- per configuration and thread: the record of last answers -----------------------------------


class Race:
    calls = 0
    block = True
    entered = threading.Event()
    go = threading.Event()
    main_calls = 0


@hookimpl(specname="golf_round_awards")
def _race_wrong_once(layout: Any, keys: Any) -> Any:
    Race.calls += 1
    if threading.current_thread() is threading.main_thread():
        Race.main_calls += 1
    return [0] * (len(keys) + 1) if Race.calls == 1 else None


@hookimpl(trylast=True, specname="golf_round_awards")
def _race_slow(layout: Any, keys: Any) -> Any:
    if Race.block and threading.current_thread() is not threading.main_thread():
        Race.block = False
        Race.entered.set()
        Race.go.wait(10)  # another game of the configuration plays meanwhile
    return None


def test_last_answer_record_is_per_thread() -> None:
    Race.calls, Race.block, Race.main_calls = 0, True, 0
    Race.entered, Race.go = threading.Event(), threading.Event()
    with (
        house_rule("golf.bdc-race-r", "BDC-RACER-1", golf_round_awards=_race_wrong_once) as r,
        house_rule("golf.bdc-race-s", "BDC-RACES-1", golf_round_awards=_race_slow) as s,
    ):
        game = cardcore.new_game("golf", 2, rules=[r, s], seed=5)
        out: list[Any] = []
        thread = threading.Thread(target=lambda: out.append(play_until_error(game)))
        thread.start()
        try:
            assert Race.entered.wait(10)
            other = cardcore.new_game("golf", 2, rules=[r, s], seed=6)
            rng = random.Random(1)
            while Race.main_calls == 0 and not other.is_over:  # until r answers None here
                other.apply(rng.choice(other.legal_actions(other.to_act[0])))
            assert Race.main_calls >= 1
        finally:
            Race.go.set()
            thread.join(10)
        assert out and out[0] is not None
        assert out[0].plugin == r


def test_last_answer_record_is_per_configuration() -> None:
    """r's wrong answer is given in configuration [r, s]; configuration [r] asking r (None)
    in between must not erase it."""
    Race.calls, Race.block, Race.main_calls = 0, True, 0
    Race.entered, Race.go = threading.Event(), threading.Event()
    with (
        house_rule("golf.bdc-conf-r", "BDC-CONFR-1", golf_round_awards=_race_wrong_once) as r,
        house_rule("golf.bdc-conf-s", "BDC-CONFS-1", golf_round_awards=_race_slow) as s,
    ):
        game = cardcore.new_game("golf", 2, rules=[r, s], seed=5)
        out: list[Any] = []
        thread = threading.Thread(target=lambda: out.append(play_until_error(game)))
        thread.start()
        try:
            assert Race.entered.wait(10)
            other = cardcore.new_game("golf", 2, rules=[r], seed=6)  # another configuration
            rng = random.Random(1)
            while Race.main_calls == 0 and not other.is_over:
                other.apply(rng.choice(other.legal_actions(other.to_act[0])))
            assert Race.main_calls >= 1
        finally:
            Race.go.set()
            thread.join(10)
        assert out and out[0] is not None
        assert out[0].plugin == r


# --- functions a hook answered ----------------------------------------------------------------


def _raising_scorer(keys: Any, pts: Any) -> int:
    raise ConnectionError("scoring service down")


def test_answered_function_raising_later_names_the_rule() -> None:
    with house_rule(
        "golf.bdc-fn", "BDC-FN-1", golf_scorer=scorer_hook(lambda layout: _raising_scorer)
    ) as name:
        game = cardcore.new_game("golf", 2, rules=[name], seed=5)
        error = play_until_error(game)
        assert error is not None and error.plugin == name


def _wrapper(tag: str) -> Any:
    @hookimpl(wrapper=True, specname="golf_scorer")
    def golf_scorer(layout: Any) -> Any:
        inner = yield

        def scorer(keys: Any, pts: Any) -> int:
            if tag == "raise":
                raise ConnectionError("down")
            return inner(keys, pts)

        return scorer

    return golf_scorer


def test_wrapper_answering_a_raising_function_is_named() -> None:
    with house_rule("golf.bdc-wrap", "BDC-WRAP-1", golf_scorer=_wrapper("raise")) as name:
        game = cardcore.new_game("golf", 2, rules=[name], seed=5)
        error = play_until_error(game)
        assert error is not None and error.plugin == name


def test_of_several_wrappers_none_is_named() -> None:
    with (
        house_rule("golf.bdc-wrap-a", "BDC-WRAPA-1", golf_scorer=_wrapper("raise")) as a,
        house_rule("golf.bdc-wrap-b", "BDC-WRAPB-1", golf_scorer=_wrapper("pass")) as b,
    ):
        game = cardcore.new_game("golf", 2, rules=[a, b], seed=5)
        error = play_until_error(game)
        assert error is not None and error.plugin is None


def _wraps_copy(layout: Any) -> Any:
    game_fn = default_scorer(layout)

    @functools.wraps(game_fn)
    def copy(keys: Any, pts: Any) -> int:
        raise ConnectionError("down")

    return copy


def test_functools_wraps_copy_of_the_games_function_is_the_rules() -> None:
    with house_rule("golf.bdc-wraps", "BDC-WRAPS-1", golf_scorer=scorer_hook(_wraps_copy)) as name:
        game = cardcore.new_game("golf", 2, rules=[name], seed=5)
        error = play_until_error(game)
        assert error is not None and error.plugin == name


class Down:
    on = False
    calls = 0


def _flaky_scorer_rule(layout: Any) -> Any:
    scorer = default_scorer(layout)

    def flaky(keys: Any, pts: Any) -> int:
        if Down.on:
            Down.calls += 1
            raise ConnectionError("down for good")
        return scorer(keys, pts)

    return flaky


def _run_down_for_good(name: str) -> None:
    game = cardcore.new_game("golf", 2, rules=[name], seed=4)
    rng = random.Random(2)
    while not game.is_over:
        action = rng.choice(game.legal_actions(game.to_act[0]))
        before = game.save()
        Down.on = game.version > 8
        calls = Down.calls
        try:
            game.apply(action)
        except PluginError as exc:
            assert exc.plugin == name
            assert Down.calls == calls + 1  # called once by the apply, never by the restore
            assert game.save() == before
            calls = Down.calls
            with pytest.raises(PluginError):
                game.apply(action)
            assert Down.calls == calls + 1 and game.save() == before
            return
    raise AssertionError("the scorer was never called after going down")


def test_restore_never_calls_a_failing_answered_function_again() -> None:
    Down.on, Down.calls = False, 0
    with house_rule(
        "golf.bdc-flaky", "BDC-FLAKY-1", golf_scorer=scorer_hook(_flaky_scorer_rule)
    ) as name:
        _run_down_for_good(name)


# --- classes a rule answers ------------------------------------------------------------------


class Seen:
    classes: list[Any] = []  # noqa: RUF012


def _class_rule(layout: Any) -> Any:
    scorer = default_scorer(layout)

    class ClassScorer:
        marker = "mine"

        def __new__(cls, keys: Any, pts: Any) -> Any:
            Seen.classes.append((cls, ClassScorer, cls.marker))
            if Down.on:
                Down.calls += 1
                raise ConnectionError("down for good")
            return scorer(keys, pts)

    return ClassScorer


def test_a_class_answered_reaches_the_game_as_it_is() -> None:
    Down.on, Seen.classes = False, []
    with house_rule("golf.bdc-cls", "BDC-CLS-1", golf_scorer=scorer_hook(_class_rule)) as name:
        game = cardcore.new_game("golf", 2, rules=[name], seed=5)
        assert play_until_error(game) is None
        assert Seen.classes
        assert all(cls is own and marker == "mine" for cls, own, marker in Seen.classes)


def test_a_class_down_for_good_is_named_and_never_called_by_the_restore() -> None:
    Down.on, Down.calls = False, 0
    with house_rule(
        "golf.bdc-clsdown", "BDC-CLSDOWN-1", golf_scorer=scorer_hook(_class_rule)
    ) as name:
        _run_down_for_good(name)


class NoArgs:
    def __init__(self) -> None:  # the wrong signature for a scorer
        pass


def test_a_class_with_the_wrong_signature_names_the_game() -> None:
    with house_rule(
        "golf.bdc-noargs", "BDC-NOARGS-1", golf_scorer=scorer_hook(lambda layout: NoArgs)
    ) as name:
        game = cardcore.new_game("golf", 2, rules=[name], seed=5)
        error = play_until_error(game)
        assert error is not None and isinstance(error.__cause__ or error.__context__, TypeError)
        assert error.plugin == "golf"


class FractionScorer(fractions.Fraction):
    """A scorer class whose only method is inherited from the standard library: calling it
    with (keys, points) raises TypeError inside fractions.Fraction.__new__."""


def test_an_error_in_an_inherited_stdlib_method_is_not_the_rules() -> None:
    with house_rule(
        "golf.bdc-frac", "BDC-FRAC-1", golf_scorer=scorer_hook(lambda layout: FractionScorer)
    ) as name:
        game = cardcore.new_game("golf", 2, rules=[name], seed=5)
        error = play_until_error(game)
        assert error is not None
        assert error.plugin != name  # (it names "golf": the docs say nowhere who is named)


class PointsBag(collections.UserDict):
    def __new__(cls, keys: Any, pts: Any) -> Any:
        return sum(p for p in pts if p is not None)


@hookimpl(specname="golf_round_awards")
def _awards_fail_in_userdict(layout: Any, keys: Any) -> Any:
    return collections.UserDict()["missing"]  # KeyError in UserDict.__getitem__


def test_inherited_stdlib_code_does_not_take_another_rules_blame() -> None:
    with (
        house_rule(
            "golf.bdc-bag", "BDC-BAG-1", golf_scorer=scorer_hook(lambda layout: PointsBag)
        ) as bag,
        house_rule(
            "golf.bdc-broken", "BDC-BROKEN-1", golf_round_awards=_awards_fail_in_userdict
        ) as broken,
    ):
        game = cardcore.new_game("golf", 2, rules=[bag, broken], seed=6)
        error = play_until_error(game)
        assert error is not None and error.plugin == broken
