"""My own tests for this session's fixes to classes a house rule's hook answers: the game
gets the rule's class itself (``issubclass``, ``isinstance``, class attributes, identity),
and since the core does not count its calls, every apply of the configuration keeps a
checkpoint from then on (``cardcore._marks.counted_class``); an error raised in the
class's own methods names the rule that answered it."""

from __future__ import annotations

import collections
import random
from typing import Any

import cardcore
from cardcore import PluginError, hookimpl
from tests.test_fix_review_2026_12_07f import house_rule, snapshot


class Points(int):
    """A scorer class: called with the layout's keys and points, it makes a score."""

    def __new__(cls, keys: Any, points: Any) -> Points:
        return super().__new__(cls, sum(points))


CALLS: list[int] = []


class Flaky(int):
    """A scorer class whose service goes down for good at its third call."""

    def __new__(cls, keys: Any, points: Any) -> Flaky:
        CALLS.append(1)
        if len(CALLS) >= 3:
            raise LookupError("the scoring service is down")
        return super().__new__(cls, sum(points))


def _answered(tag: str, answer: Any) -> Any:
    return house_rule(
        f"golf.fix7h-{tag}",
        f"FIX7H-{tag.upper()}-1",
        "golf",
        golf_scorer=hookimpl(specname="golf_scorer")(lambda layout: answer),
    )


def test_a_class_answered_is_the_rules_own_and_moves_the_mark_at_every_look() -> None:
    with _answered("points", Points) as name:
        ruleset = cardcore.get_ruleset("golf", [name])
        scorer = ruleset.resolve("golf_scorer")
        assert scorer is not None and scorer(layout=None) is Points
        mark = ruleset.hook_mark
        assert ruleset.hook_mark is not mark  # every apply keeps a checkpoint from now on
        plain = cardcore.get_ruleset("golf")
        mark = plain.hook_mark
        assert plain.hook_mark is mark  # (another configuration's mark is its own)


def test_a_class_answered_that_goes_down_for_good_is_blamed_and_never_called_by_a_restore() -> None:
    CALLS.clear()
    with _answered("flaky", Flaky) as name:
        game = cardcore.new_game("golf", 2, rules=[name], seed=5)
        rng = random.Random(1)
        errors = []
        while not game.is_over and len(errors) < 3:
            action = rng.choice(game.legal_actions(game.to_act[0]))
            before, calls = snapshot(game), len(CALLS)
            try:
                game.apply(action)
            except PluginError as error:
                assert snapshot(game) == before
                assert len(CALLS) == calls + 1  # the failing call alone: the restore made none
                errors.append(error)
        assert len(errors) == 3
        assert all(e.plugin == name and "scoring service is down" in str(e) for e in errors)


class Tally(collections.UserDict):  # type: ignore[type-arg]
    """A rule's class built on the standard library's: only its own code is the rule's."""

    def score(self) -> int:
        return len(self)


def test_only_the_rules_own_class_code_is_counted_as_the_rules() -> None:
    with _answered("tally", Tally) as name:
        ruleset = cardcore.get_ruleset("golf", [name])
        scorer = ruleset.resolve("golf_scorer")
        assert scorer is not None and scorer(layout=None) is Tally
        codes = ruleset.impl_codes()
        assert codes.get(Tally.score.__code__) == name
        library = collections.UserDict.__getitem__.__code__
        assert library not in codes  # a game's own UserDict failing is not the rule's
