"""My own tests for this session's fixes to classes a house rule's hook answers: each is a
subclass whose calls are guarded and tracked (``cardcore._classes.kept_class``), unless no
subclass of it can be made, when it stays the rule's class itself."""

from __future__ import annotations

import enum
from typing import Any

import pytest

import cardcore
from cardcore import PluginError, hookimpl
from tests.test_fix_review_2026_12_07f import house_rule


class Colour(enum.Enum):
    RED = 1


class Points(int):
    """A scorer class: called with the layout's keys and points, it makes a score."""

    def __new__(cls, keys: Any, points: Any) -> Points:
        return super().__new__(cls, sum(points))


class Fails:
    def __init__(self, keys: Any, points: Any) -> None:
        raise LookupError("the scoring service is down")


def _answered(tag: str, answer: Any) -> Any:
    return house_rule(
        f"golf.fix7h-{tag}",
        f"FIX7H-{tag.upper()}-1",
        "golf",
        golf_scorer=hookimpl(specname="golf_scorer")(lambda layout: answer),
    )


def test_a_class_answered_is_a_subclass_whose_calls_set_the_hook_mark() -> None:
    with _answered("points", Points) as name:
        ruleset = cardcore.get_ruleset("golf", [name])
        scorer = ruleset.resolve("golf_scorer")
        assert scorer is not None
        kept = scorer(layout=None)
        assert kept is not Points and issubclass(kept, Points) and issubclass(kept, int)
        mark = ruleset.hook_mark
        made = kept((), (1, 2))
        assert ruleset.hook_mark != mark  # tracked: the restore knows the rule's code ran
        assert type(made) is int and made == 3  # (an int subclass's value, as ever)
        assert kept.__name__ == "Points" and kept.__qualname__ == Points.__qualname__


class Box:
    size = 2

    def __init__(self, keys: Any, points: Any) -> None:
        self.points = points


def test_instances_of_the_rules_class_are_instances_of_the_class_answered() -> None:
    with _answered("box", Box) as name:
        scorer = cardcore.get_ruleset("golf", [name]).resolve("golf_scorer")
        assert scorer is not None
        kept = scorer(layout=None)
        made = kept((), (4,))
        assert type(made) is Box and isinstance(made, kept) and isinstance(Box((), ()), kept)
        assert kept.size == 2 and issubclass(Box, kept) and not issubclass(int, kept)


def test_a_class_no_subclass_can_be_made_of_stays_itself() -> None:
    with _answered("colour", Colour) as name:
        scorer = cardcore.get_ruleset("golf", [name]).resolve("golf_scorer")
        assert scorer is not None and scorer(layout=None) is Colour


def test_a_failing_class_answered_is_blamed_on_its_rule() -> None:
    with _answered("fails", Fails) as name:
        scorer = cardcore.get_ruleset("golf", [name]).resolve("golf_scorer")
        assert scorer is not None
        with pytest.raises(PluginError, match="the scoring service is down") as info:
            scorer(layout=None)((), (1,))
        assert info.value.plugin == name
        assert isinstance(info.value.__cause__, LookupError)
