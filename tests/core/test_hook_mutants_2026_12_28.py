"""A mutation audit of how the core calls plugin code, and of six small modules (2026-12-28).

Small mutants of ``_hookcall.py`` (call chains, ``firstresult``, wrappers, vetoes, the hook
mark, failures), ``_blame.py`` (whose answer the game refuses), ``_registrations.py``,
``_versions.py``, ``_unasked.py``, ``session/_presence.py`` and ``session/_reading.py`` were
applied one at a time in a scratch copy and run against the tests about each module (found
with grep: the wrapper, veto and hook tests for ``_hookcall``, the blame and Tonk judge tests
for ``_blame``, the registry tests, the session and web presence tests). Each test below
kills one or more that survived; its docstring names the mutant by id (H ``_hookcall``,
B ``_blame``, R ``_registrations``, V ``_versions``, U ``_unasked``, P ``_presence``,
D ``_reading``) and the change.

Counts (written / killed by the suite before / killed by this file / equivalent):

* ``_hookcall.py``: 32 / 15 / 16 / 1
* ``_blame.py``: 12 / 5 / 7 / 0
* ``_registrations.py``: 7 / 2 / 3 / 2
* ``_versions.py``: 5 / 2 / 2 / 1
* ``_unasked.py``: 3 / 1 / 1 / 1
* ``session/_presence.py``: 5 / 3 / 2 / 0
* ``session/_reading.py``: 3 / 1 / 2 / 0
* in all: 67 / 29 / 33 / 5

Equivalent: H15 (``plain_veto`` without the non-empty ``rule_id`` check: the plain
``Veto(...)`` it builds checks it itself and raises inside the ``try``, which refuses the
answer all the same); R03 (an emptied stack left in ``_replaced``: the next ``pop`` reads it
as no stack, the next ``push`` appends to it); R06 (``check_requires`` counting this game's
rules as another's: ``ref not in own`` skips them all the same); V02 (``re.ASCII`` dropped:
``[0-9]`` is an ASCII range whatever the flags, only ``\\d`` would widen); U02 (``HUSHED``
the same object as ``UNASKED``: a game starts on ``UNASKED`` only when no plugin observes,
so building its bus without observers changes nothing).

One strict xfail records a bug of clean code found on the way: beneath a wrapper,
``Ruleset.resolve`` hands the game each function a house rule answered wrapped by
``Ruleset.tracked``, with no ``__wrapped__``; ``_blame.answerer`` cannot see through it, and
``GameLogic.refused_answer`` blames the first implementer, the wrapper that only passed the
answer on (a Tonk deal judge's bad verdict named the wrapper's rule, not the judge's).
Only fixed seeds and scripted play; no timing.
"""

from __future__ import annotations

import enum
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardcore
from cardcore import Card, RuleInfo, Veto, hookimpl
from cardcore._unasked import HUSHED, QUIET, UNASKED
from cardcore._versions import is_version, version_key
from cardcore.errors import PluginError, RuleConflictError
from cardcore.session import Session, SessionConfig


def _rule(
    rule_id: str,
    name: str,
    game: str = "golf",
    requires: tuple[str, ...] = (),
    **hooks: Callable[..., Any],
) -> Any:
    """A house rule of *game* as a namespace (what ``cardcore.register`` takes)."""
    info = RuleInfo(rule_id, name, game, "a test rule of the hook audit", requires=requires)
    return types.SimpleNamespace(RULE=info, **hooks)


@contextmanager
def _registered(*rules: Any) -> Iterator[None]:
    done: list[str] = []
    try:
        for rule in rules:
            cardcore.register("cardcore.rules", rule.RULE.name, rule)
            done.append(rule.RULE.name)
        yield
    finally:
        for name in reversed(done):
            cardcore.unregister("cardcore.rules", name)


class _Int(int):
    """An int subclass a hook may answer: only its value may reach the state."""


class _Rank(enum.IntEnum):
    ACE = 1


# --- _hookcall.plain_chain: the order of a list hook's answers ---------------------------------


def test_a_list_hook_collects_answers_in_pluggy_order() -> None:
    """``Ruleset.resolve`` runs implementations "in pluggy's order": the house rule with the
    higher rule ID first (registered last), then the lower one. Reversed, the first answer
    would be the lower rule's (H03: ``call_all`` over ``reversed(funcs)``)."""
    high = _rule(
        "GOLF-AUD-9", "golf.aud-groups-high", golf_removable_groups=hookimpl(lambda: [[9]])
    )
    low = _rule("GOLF-AUD-1", "golf.aud-groups-low", golf_removable_groups=hookimpl(lambda: [[1]]))
    with _registered(high, low):
        ruleset = cardcore.get_ruleset("golf", [low.RULE.name, high.RULE.name])
        groups = ruleset.resolve("golf_removable_groups")
        assert groups is not None
        answers = groups(layout=None)
        assert answers[:2] == [[[9]], [[1]]]


# --- _hookcall.wrappers_checked / vetoes_checked: which wrapper is blamed ----------------------


class _VetoList(list):  # type: ignore[type-arg]
    """A list subclass: not the plain list of Vetoes a forbid_action wrapper must return."""


def test_a_wrapper_answering_a_list_subclass_is_named_not_the_wrapper_passing_it_on() -> None:
    """``wrappers_checked`` checks each wrapper's answer is exactly a ``list``, so a subclass
    names the wrapper that built it; with ``isinstance`` (H05) it passes the inner check and
    the chain's check names the outermost wrapper, which only passed it on."""

    def inner(action: Any) -> Any:
        given = yield
        return _VetoList(given)

    def outer(action: Any) -> Any:
        given = yield
        return given

    built = _rule("GOLF-AUD-2", "golf.aud-wrap-inner", forbid_action=hookimpl(wrapper=True)(inner))
    passed = _rule("GOLF-AUD-3", "golf.aud-wrap-outer", forbid_action=hookimpl(wrapper=True)(outer))
    with _registered(built, passed):
        ruleset = cardcore.get_ruleset("golf", [built.RULE.name, passed.RULE.name])
        assert ruleset.veto is not None
        with pytest.raises(PluginError, match=r"'golf\.aud-wrap-inner' wrapper answered") as info:
            ruleset.veto(state=None, action="draw")
        assert info.value.plugin == "golf.aud-wrap-inner"


def test_an_old_style_hookwrapper_that_removes_a_card_is_refused_and_the_game_unchanged() -> None:
    """Piles are counted around the whole chain when it has wrappers, old-style ones
    (``hookwrapper=True``) included: without them in ``wrappers_checked``'s answer (H07) the
    card a hookwrapper takes out of the stock stays taken."""

    def takes_a_card(state: Any, action: Any) -> Any:
        if state.zones.cards[0]:
            state.zones.cards[0].pop()
        yield

    rule = _rule(
        "GOLF-AUD-4", "golf.aud-hw-takes", forbid_action=hookimpl(hookwrapper=True)(takes_a_card)
    )
    with _registered(rule):
        game = cardcore.new_game("golf", 2, rules=[rule.RULE.name], seed=1)
        before = game.save()
        with pytest.raises(PluginError, match="moved, added or removed cards") as info:
            game.legal_actions(game.to_act[0])
        assert info.value.plugin == "golf.aud-hw-takes"
        assert game.save() == before


def test_a_no_list_answer_names_the_outermost_hookwrapper() -> None:
    """An old-style hookwrapper may force any result; the chain's answer is the outermost
    wrapper's, so a ``None`` there names it (``wrappers[-1]``), not the inner wrapper that
    passed the list on (H10: ``wrappers[:1]``)."""

    def passes(action: Any) -> Any:
        yield

    def forces_none(action: Any) -> Any:
        outcome = yield
        outcome.force_result(None)

    inner = _rule(
        "GOLF-AUD-5", "golf.aud-hw-inner", forbid_action=hookimpl(hookwrapper=True)(passes)
    )
    outer = _rule(
        "GOLF-AUD-6", "golf.aud-hw-outer", forbid_action=hookimpl(hookwrapper=True)(forces_none)
    )
    with _registered(inner, outer):
        ruleset = cardcore.get_ruleset("golf", [inner.RULE.name, outer.RULE.name])
        assert ruleset.veto is not None
        with pytest.raises(PluginError, match="answered None: a wrapper must return") as info:
            ruleset.veto(state=None, action="draw")
        assert info.value.plugin == "golf.aud-hw-outer"


def test_a_hookwrapper_forcing_a_tuple_of_vetoes_is_refused() -> None:
    """The chain's whole answer must be exactly a list (H13: only ``None`` refused, and a
    tuple of vetoes would pass as the answer of ``forbid_action``)."""

    def forces_tuple(action: Any) -> Any:
        outcome = yield
        outcome.force_result((Veto("GOLF-AUD-7", "no drawing"),))

    rule = _rule(
        "GOLF-AUD-7", "golf.aud-hw-tuple", forbid_action=hookimpl(hookwrapper=True)(forces_tuple)
    )
    with _registered(rule):
        ruleset = cardcore.get_ruleset("golf", [rule.RULE.name])
        assert ruleset.veto is not None
        with pytest.raises(PluginError, match="a wrapper must return a list") as info:
            ruleset.veto(state=None, action="draw")
        assert info.value.plugin == "golf.aud-hw-tuple"


class _UncheckedVeto(Veto):
    """A Veto subclass that skips the check of its fields (and prints nothing readable)."""

    def __attrs_post_init__(self) -> None:
        pass

    def __str__(self) -> str:
        raise RuntimeError("a veto's own code must never run in a message")


def test_a_veto_subclass_comes_back_a_plain_veto() -> None:
    """A Veto subclass is read into a plain :class:`~cardcore.Veto` of plain text, so
    formatting it later runs no plugin code (H14: the subclass kept)."""
    rule = _rule(
        "GOLF-AUD-8",
        "golf.aud-sub-veto",
        forbid_action=hookimpl(lambda action: _UncheckedVeto("GOLF-AUD-8", "no drawing")),
    )
    with _registered(rule):
        ruleset = cardcore.get_ruleset("golf", [rule.RULE.name])
        assert ruleset.veto is not None
        (veto,) = ruleset.veto(state=None, action="draw")
        assert type(veto) is Veto and veto == Veto("GOLF-AUD-8", "no drawing")


def test_a_veto_subclass_with_an_empty_rule_id_names_its_rule() -> None:
    """A veto must name its rule: a subclass that skipped the check with ``rule_id=""`` is
    refused naming the house rule that answered it. (H14, the subclass kept, also fails
    here; H15, the empty ID let through to ``Veto(...)``, is equivalent: that Veto's own
    check raises inside ``plain_veto``'s ``try``, which refuses it all the same.)"""
    rule = _rule(
        "GOLF-AUD-9",
        "golf.aud-empty-veto",
        forbid_action=hookimpl(lambda action: _UncheckedVeto("", "no drawing")),
    )
    with _registered(rule):
        ruleset = cardcore.get_ruleset("golf", [rule.RULE.name])
        assert ruleset.veto is not None
        with pytest.raises(PluginError, match="it must answer a Veto") as info:
            ruleset.veto(state=None, action="draw")
        assert info.value.plugin == "golf.aud-empty-veto"


# --- _hookcall.message_of / guarded: a failure's message and answers' plain ints -------------


@pytest.mark.parametrize(("size", "cut"), [(300, False), (301, True)])
def test_a_failures_message_is_cut_after_300_characters(size: int, cut: bool) -> None:
    """``message_of`` keeps a message of at most 300 characters whole (H16: ``< 300``)."""

    def fails(card: Any) -> Any:
        raise ValueError("x" * size)

    rule = _rule("GOLF-AUD-10", "golf.aud-long-failure", card_points=hookimpl(fails))
    with _registered(rule):
        points = cardcore.get_ruleset("golf", [rule.RULE.name]).resolve("card_points")
        assert points is not None
        with pytest.raises(PluginError) as info:
            points(card=Card.parse("5H"))
    text = str(info.value)
    assert info.value.plugin == "golf.aud-long-failure"
    assert text.endswith(": " + "x" * 300 + ("..." if cut else ""))


def test_a_list_answer_of_int_subclasses_comes_back_plain_ints() -> None:
    """``guarded``: a list answered by a house rule has its int subclasses read as plain
    ints (H19: only a bare answer converted); an IntEnum member stays itself (H24)."""
    rule = _rule(
        "GOLF-AUD-11",
        "golf.aud-int-answers",
        golf_removable_groups=hookimpl(lambda: [_Int(3), _Rank.ACE]),
        card_points=hookimpl(lambda card: _Rank.ACE),
    )
    with _registered(rule):
        ruleset = cardcore.get_ruleset("golf", [rule.RULE.name])
        groups = ruleset.resolve("golf_removable_groups")
        points = ruleset.resolve("card_points")
        assert groups is not None and points is not None
        answer = groups(layout=None)[0]
        assert answer == [3, _Rank.ACE]
        assert type(answer[0]) is int and answer[1] is _Rank.ACE
        assert points(card=Card.parse("5H")) is _Rank.ACE


# --- blame among several rules: never the innocent one ---------------------------------------


def test_a_non_veto_answer_among_several_rules_never_blames_an_innocent_one() -> None:
    """With several ``forbid_action`` rules the chain cannot tell whose answer was not a
    Veto: the error lists them all and names no single plugin (H11: ``plugins[0]``, here
    the rule that answered ``None``)."""
    innocent = _rule("GOLF-AUD-12", "golf.aud-allows", forbid_action=hookimpl(lambda: None))
    guilty = _rule("GOLF-AUD-13", "golf.aud-answers-text", forbid_action=hookimpl(lambda: "no"))
    with _registered(innocent, guilty):
        ruleset = cardcore.get_ruleset("golf", [innocent.RULE.name, guilty.RULE.name])
        assert ruleset.veto is not None
        with pytest.raises(PluginError, match="answered 'no': it must answer a Veto") as info:
            ruleset.veto(state=None, action="draw")
    assert "golf.aud-allows" in str(info.value) and "golf.aud-answers-text" in str(info.value)
    assert info.value.plugin in (None, "golf.aud-answers-text")


def test_a_score_round_that_changes_the_state_among_several_rules_blames_none() -> None:
    """``read_only``: the error names the rules implementing ``score_round`` (docs/hooks.rst)
    and blames one only when it is the only one (H22: the first called, here innocent)."""

    def takes_a_card(state: Any, scores: Any) -> Any:
        state.zones.cards[0].pop()

    guilty = _rule("GOLF-AUD-14", "golf.aud-score-takes", score_round=hookimpl(takes_a_card))
    innocent = _rule("GOLF-AUD-15", "golf.aud-score-reads", score_round=hookimpl(lambda: None))
    with _registered(guilty, innocent):
        names = [guilty.RULE.name, innocent.RULE.name]
        ruleset = cardcore.get_ruleset("golf", names)
        state = cardcore.new_game("golf", 2, rules=names, seed=1).state
        assert ruleset.score_round is not None
        with pytest.raises(PluginError, match="changed the state it was given") as info:
            ruleset.score_round(state=state, scores=[1, -1])
    assert "golf.aud-score-takes" in str(info.value) and "golf.aud-score-reads" in str(info.value)
    assert info.value.plugin in (None, "golf.aud-score-takes")


def test_a_score_round_wrappers_int_subclasses_come_back_plain_ints() -> None:
    """A wrapper's answer is not guarded one implementation at a time: ``read_only`` reads
    its list as plain ints (H23: the wrapper's list of subclasses returned as it is)."""

    def wraps(scores: Any) -> Any:
        inner = yield
        return [_Int(x) for x in inner]

    rule = _rule("GOLF-AUD-16", "golf.aud-score-wrap", score_round=hookimpl(wrapper=True)(wraps))
    with _registered(rule):
        ruleset = cardcore.get_ruleset("golf", [rule.RULE.name])
        assert ruleset.score_round is not None
        scores = ruleset.score_round(state=None, scores=[2, -2])
    assert scores == [2, -2] and [type(x) for x in scores] == [int, int]


# --- house_impl: what the hook mark tracks ----------------------------------------------------


def test_functions_a_rule_answers_in_a_list_set_the_hook_mark_and_a_class_stays_itself() -> None:
    """``house_impl`` tracks the functions a house rule answers, in lists two levels deep
    (H28: depth 0, a list's functions left untracked), and never wraps a class it answers
    (H29: a class became a function); its calls are not counted, so the mark moves at
    every look from then on: every apply keeps a checkpoint (a scorer class that fails for
    good must not fail the restore, tests/test_blame_review_2026_12_07g.py)."""

    class Scorer:
        pass

    def judge() -> int:
        return 7

    rule = _rule(
        "GOLF-AUD-17",
        "golf.aud-answers-functions",
        golf_removable_groups=hookimpl(lambda: [judge]),
        golf_scorer=hookimpl(lambda: Scorer),
    )
    with _registered(rule):
        ruleset = cardcore.get_ruleset("golf", [rule.RULE.name])
        groups = ruleset.resolve("golf_removable_groups")
        scorer = ruleset.resolve("golf_scorer")
        assert groups is not None and scorer is not None
        (answered,) = groups(layout=None)[0]
        mark = ruleset.hook_mark
        assert answered() == 7
        assert ruleset.hook_mark != mark
        mark = ruleset.hook_mark
        assert ruleset.hook_mark == mark  # still: no rule's code ran
        assert scorer(layout=None) is Scorer
        mark = ruleset.hook_mark
        assert ruleset.hook_mark is not mark  # moved at every look, from the class on


# --- _blame.answerer through GameLogic.refused_answer: whose answer the game refuses -----------


_C5 = Card.parse("5H")


def _refused(names: list[str], hook: str, value: Any, asked: dict[str, Any]) -> PluginError:
    logic = cardcore.get_ruleset("golf", names).logic
    return logic.refused_answer(hook, value, "something else", asked=asked)


def test_a_firstresult_answer_is_blamed_on_the_first_rule_that_answers() -> None:
    """For a ``firstresult`` hook the first implementation to answer gave it, even when a
    later one would answer alike (B01: the hook read as a list hook, both alike: nobody)."""
    high = _rule("GOLF-AUD-29", "golf.aud-points-high", card_points=hookimpl(lambda card: 7))
    low = _rule("GOLF-AUD-28", "golf.aud-points-low", card_points=hookimpl(lambda card: 7))
    with _registered(high, low):
        err = _refused([high.RULE.name, low.RULE.name], "card_points", 7, {"card": _C5})
    assert err.plugin == "golf.aud-points-high"


def test_a_firstresult_rule_that_cannot_be_asked_again_blames_no_later_one() -> None:
    """When a ``firstresult`` implementation cannot be asked again (its arguments were not
    given), it may be the one that answered: no later rule is blamed (B02: skipped, and the
    later rule answering alike blamed). The error then names the first implementer."""
    high = _rule("GOLF-AUD-27", "golf.aud-points-asks", card_points=hookimpl(lambda card: 7))
    low = _rule("GOLF-AUD-26", "golf.aud-points-blind", card_points=hookimpl(lambda: 7))
    with _registered(high, low):
        err = _refused([high.RULE.name, low.RULE.name], "card_points", 7, {})
    assert err.plugin == "golf.aud-points-asks"


def test_a_function_answered_afresh_is_blamed_on_its_rule_through_the_core_guard() -> None:
    """A function made afresh on each call (a lambda) is alike the one asked again; the core's
    guard around it is seen through (its ``__wrapped__``). Killed: B03 (a single alike
    answer also filtered by identity: nobody), B05 (every two functions alike: nobody),
    B09 (the guard not seen through: the first implementer blamed, here innocent)."""
    first = _rule(
        "GOLF-AUD-25", "golf.aud-groups-a", golf_removable_groups=hookimpl(lambda: lambda: 1)
    )
    second = _rule(
        "GOLF-AUD-24", "golf.aud-groups-b", golf_removable_groups=hookimpl(lambda: lambda: 2)
    )
    names = [first.RULE.name, second.RULE.name]
    with _registered(first, second):
        groups = cardcore.get_ruleset("golf", names).resolve("golf_removable_groups")
        assert groups is not None
        answers = groups(layout=None)
        assert [f() for f in answers[:2]] == [1, 2]
        err = _refused(names, "golf_removable_groups", answers[1], {})
    assert err.plugin == "golf.aud-groups-b"


def test_answers_alike_of_several_rules_blame_none() -> None:
    """``refused_answer``: "When the answers of several are alike it, none is blamed
    (``plugin`` is ``None``)" (B04: the first of them blamed)."""
    first = _rule("GOLF-AUD-23", "golf.aud-same-a", golf_removable_groups=hookimpl(lambda: [[1]]))
    second = _rule("GOLF-AUD-22", "golf.aud-same-b", golf_removable_groups=hookimpl(lambda: [[1]]))
    with _registered(first, second):
        err = _refused([first.RULE.name, second.RULE.name], "golf_removable_groups", [[1]], {})
    assert err.plugin is None
    assert "golf.aud-same-a" in str(err) and "golf.aud-same-b" in str(err)


def test_sets_are_alike_only_when_every_item_is() -> None:
    """``alike`` of two sets asks every item for a match (B11: any item), so a rule whose set
    only shares an item with the refused one is not blamed with the one that gave it."""
    first = _rule("GOLF-AUD-21", "golf.aud-set-a", golf_removable_groups=hookimpl(lambda: {1, 2}))
    second = _rule("GOLF-AUD-20", "golf.aud-set-b", golf_removable_groups=hookimpl(lambda: {1, 3}))
    with _registered(first, second):
        err = _refused([first.RULE.name, second.RULE.name], "golf_removable_groups", {1, 3}, {})
    assert err.plugin == "golf.aud-set-b"


_SHARED = [[1]]
"""One object two rules both answer."""


def test_the_very_same_object_answered_by_several_rules_blames_none() -> None:
    """Several rules answering the very object refused: none is blamed (B04: the first)."""
    first = _rule(
        "GOLF-AUD-19", "golf.aud-shared-a", golf_removable_groups=hookimpl(lambda: _SHARED)
    )
    second = _rule(
        "GOLF-AUD-18", "golf.aud-shared-b", golf_removable_groups=hookimpl(lambda: _SHARED)
    )
    with _registered(first, second):
        err = _refused([first.RULE.name, second.RULE.name], "golf_removable_groups", _SHARED, {})
    assert err.plugin is None


class _Judge:
    """A callable object of a class that defines no equality."""

    def __init__(self, points: int) -> None:
        self.points = points

    def __call__(self) -> int:
        return self.points


def test_objects_without_equality_are_alike_only_when_their_fields_are() -> None:
    """``alike``: objects of a class without equality are alike when their attributes are
    (B12: any two alike, so both rules' judges alike the refused one: nobody blamed)."""
    first = _rule(
        "GOLF-AUD-31", "golf.aud-judge-a", golf_removable_groups=hookimpl(lambda: _Judge(1))
    )
    second = _rule(
        "GOLF-AUD-30", "golf.aud-judge-b", golf_removable_groups=hookimpl(lambda: _Judge(2))
    )
    with _registered(first, second):
        err = _refused([first.RULE.name, second.RULE.name], "golf_removable_groups", _Judge(2), {})
    assert err.plugin == "golf.aud-judge-b"


# --- guarded_chain: a hook with wrappers ------------------------------------------------------


def test_a_bad_veto_built_beneath_a_wrapper_names_the_rule_that_built_it() -> None:
    """On a chain with wrappers each house rule's plain implementation runs in a frame naming
    it (``named_call``), so a Veto it builds with an empty rule ID names it, as on the plain
    chain (H20: the game's implementations wrapped instead, and the veto blamed on the module
    that built it)."""

    def passes(action: Any) -> Any:
        return (yield)

    wrapper = _rule("GOLF-AUD-32", "golf.aud-wraps", forbid_action=hookimpl(wrapper=True)(passes))
    builder = _rule(
        "GOLF-AUD-33", "golf.aud-builds-bad-veto", forbid_action=hookimpl(lambda: Veto("", "no"))
    )
    with _registered(wrapper, builder):
        ruleset = cardcore.get_ruleset("golf", [wrapper.RULE.name, builder.RULE.name])
        assert ruleset.veto is not None
        with pytest.raises(PluginError, match="a veto takes the vetoing rule's ID") as info:
            ruleset.veto(state=None, action="draw")
    assert info.value.plugin == "golf.aud-builds-bad-veto"


def test_the_games_own_failure_beneath_a_house_wrapper_is_not_blamed_on_a_rule() -> None:
    """``guarded_chain`` turns a failure into a rule's PluginError only when its innermost
    plugin frame is a house rule's: the game's own code failing passes as it is, for the
    caller to name the game (H21: only a failure of no plugin passes, the game's becomes a
    "hook failure" of ``'golf'`` as if it were a house rule)."""

    def passes() -> Any:
        return (yield)

    rule = _rule("GOLF-AUD-34", "golf.aud-wraps-scorer", golf_scorer=hookimpl(wrapper=True)(passes))
    with _registered(rule):
        scorer = cardcore.get_ruleset("golf", [rule.RULE.name]).resolve("golf_scorer")
        assert scorer is not None
        with pytest.raises(AttributeError, match="has no attribute 'hand'"):
            scorer(layout="not a layout")


# --- _versions: read as numbers, never as text -------------------------------------------------


def test_versions_are_ordered_as_numbers_part_by_part() -> None:
    """``"0.10.0"`` comes after ``"0.9.0"`` (text would order it first), every part of up to
    64 digits is read whole (V05: two digits read) and the third part counts (V01)."""
    assert version_key("0.10.0") > version_key("0.9.0")
    assert version_key("0.100.0") == (0, 100, 0, 1) > version_key("0.99.0")
    assert version_key("1.2.3") == (1, 2, 3, 1) > version_key("1.2.2")
    assert version_key("1.2.3.4") == (1, 2, 3, 1)


def test_version_text_is_one_to_three_plain_ascii_numbers_not_all_zero() -> None:
    """``is_version``: one to three plain numbers, ASCII digits only (an Arabic-Indic three
    is no digit of a version), and not ``"0.0.0"``; a rule's ``default_before`` is refused
    otherwise. (V03, four parts taken, and V04, ``"0.0.0"`` taken, were killed before.)"""
    assert is_version("0.3.0") and is_version("1") and is_version("0.3")
    for bad in ("1.2.3.4", "0.\u0663.0", "\u0661", "0.0.0", "0", "", "1..2", "v1.0", 1):
        assert not is_version(bad), bad
    assert version_key("0.\u0663.1") == (0, 0, 1, 1)
    with pytest.raises(PluginError, match="default_before takes a game version"):
        RuleInfo("GOLF-AUD-35", "golf.aud-versioned", "golf", "t", default_before="1.\u0663")


# --- observers: on_event in call order ---------------------------------------------------------


def test_observers_hear_an_event_in_pluggy_call_order() -> None:
    """``observers`` lists the ``on_event`` implementations in call order: the rule with the
    higher rule ID first, as every other hook (H25: registration order, the lower first)."""
    heard: list[str] = []
    high = _rule(
        "GOLF-AUD-37", "golf.aud-hears-high", on_event=hookimpl(lambda event: heard.append("high"))
    )
    low = _rule(
        "GOLF-AUD-36", "golf.aud-hears-low", on_event=hookimpl(lambda event: heard.append("low"))
    )
    with _registered(high, low):
        names = [low.RULE.name, high.RULE.name]
        assert cardcore.get_ruleset("golf", names).observers.names[:2] == (
            "golf.aud-hears-high",
            "golf.aud-hears-low",
        )
        game = cardcore.new_game("golf", 2, rules=names, seed=1)
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    assert heard[:2] == ["high", "low"]


@pytest.mark.parametrize("mark", ["wrapper", "hookwrapper"])
def test_an_on_event_marked_as_any_wrapper_is_refused_by_name(mark: str) -> None:
    """docs/hooks.rst: ``on_event`` "is never a wrapper: one marked so is refused", an
    old-style ``hookwrapper=True`` too (H26: only ``wrapper=True`` refused)."""

    def observes(event: Any) -> Any:
        yield

    rule = _rule(
        "GOLF-AUD-38", "golf.aud-wraps-events", on_event=hookimpl(**{mark: True})(observes)
    )
    with _registered(rule), pytest.raises(PluginError, match="never a wrapper") as info:
        cardcore.get_ruleset("golf", [rule.RULE.name])
    assert info.value.plugin == "golf.aud-wraps-events"


# --- session: presence and reading an action's text --------------------------------------------


def _seated_golf(rules: tuple[str, ...] = ()) -> Session:
    """A two-seat Golf session (seed 11), seats joined as "a" and "b" at time 0."""
    config = SessionConfig()
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, rules=rules, seed=11, config=config)
    for seat, conn in enumerate(_CONNS):
        session.handle(conn, {"type": "join", "seat": seat}, now=0.0)
    return session


_CONNS = ("a", "b")


def test_a_spectator_watching_is_told_presence_and_no_seat_is() -> None:
    """``_presence``: a spectator coming alone is told to nobody else, its count rides on
    the presence it is told (P01/P03: everyone told again; P04: the count miscounted;
    P05: ``connected`` as counts, not booleans)."""
    session = _seated_golf()
    out = session.handle("w", {"type": "watch"}, now=1.0)
    told = [(o.conn, o.message) for o in out if o.message["type"] == "presence"]
    assert told == [("w", {"type": "presence", "connected": [True, True], "spectators": 1})]
    assert all(type(c) is bool for c in told[0][1]["connected"])


def test_a_seat_leaving_is_told_to_everyone_left() -> None:
    """A seat's connection going is told to every connection at once."""
    session = _seated_golf()
    session.handle("w", {"type": "watch"}, now=1.0)
    out = session.handle("b", {"type": "leave"}, now=2.0)
    told = sorted(o.conn for o in out if o.message["type"] == "presence")
    assert told == ["a", "w"]
    assert all(
        o.message["connected"] == [True, False] for o in out if o.message["type"] == "presence"
    )


def _stale_seat(session: Session) -> int:
    """Play first legal actions until the seat to act has seen another seat's action."""
    game = session.game
    assert game is not None
    now = 1.0
    while session.foreign[game.to_act[0]] == 0:
        seat = game.to_act[0]
        msg = {"type": "act", "action": str(game.legal_actions(seat)[0]), "seen": game.version}
        session.handle(_CONNS[seat], msg, now=now)
        now += 1.0
    return game.to_act[0]


@pytest.mark.parametrize(
    ("text", "code"), [("blah", "notation"), ("knock", "stale"), ("flip 0", "stale")]
)
def test_an_old_seen_is_answered_notation_only_for_text_that_is_no_action(
    text: str, code: str
) -> None:
    """``readable``: text naming no action is ``notation`` (D03: ``stale``); an action the
    game refuses now is ``stale`` (D02: ``notation``); and it is read on a copy, the game
    unchanged (D01: a legal action applied to the real game while answered ``stale``) and
    no plugin's ``on_event`` hearing the copy's action."""
    heard: list[Any] = []
    rule = _rule(
        "GOLF-AUD-42", "golf.aud-listens", on_event=hookimpl(lambda event: heard.append(1))
    )
    with _registered(rule):
        session = _seated_golf((rule.RULE.name,))
        _check_stale_reading(session, text, code, heard)


def _check_stale_reading(session: Session, text: str, code: str, heard: list[Any]) -> None:
    seat = _stale_seat(session)
    game = session.game
    assert game is not None
    before, version = game.save(), game.version
    assert heard  # the rule hears the game's own actions
    heard.clear()
    out = session.handle(_CONNS[seat], {"type": "act", "action": text, "seen": 0}, now=50.0)
    assert [o.message.get("code") for o in out] == [code]
    assert game.version == version and game.save() == before
    assert heard == []


# --- _registrations: unregister puts back what the name held ----------------------------------


def test_nested_registrations_of_one_name_come_off_in_reverse_order() -> None:
    """Each ``unregister`` undoes the latest ``register`` of the name (R02: the oldest
    undone first, so the installed rule came back while two registrations were still on)."""
    name = "golf.aud-nested"
    versions = [
        _rule("GOLF-AUD-40", name, card_points=hookimpl(lambda card, n=n: n)) for n in (1, 2, 3)
    ]

    def points() -> Any:
        resolved = cardcore.get_ruleset("golf", [name]).resolve("card_points")
        assert resolved is not None
        return resolved(card=_C5)

    on = 0
    try:
        for rule in versions:
            cardcore.register("cardcore.rules", name, rule)
            on += 1
        for left in (3, 2, 1):
            assert points() == left
            cardcore.unregister("cardcore.rules", name)
            on -= 1
    finally:
        for _ in range(on):
            cardcore.unregister("cardcore.rules", name)
    with pytest.raises(cardcore.UnknownPluginError):
        cardcore.get_ruleset("golf", [name])


def test_a_house_rules_call_that_raises_still_sets_the_hook_mark() -> None:
    """``hook_mark`` "changes each time a resolved hook runs": the mark is set before the
    rule's code runs, so a call that fails half way counts too (H30: set only after a
    call that returned)."""

    def fails(card: Any) -> Any:
        raise ValueError("the scoring service is down")

    rule = _rule("GOLF-AUD-41", "golf.aud-fails-marked", card_points=hookimpl(fails))
    with _registered(rule):
        ruleset = cardcore.get_ruleset("golf", [rule.RULE.name])
        points = ruleset.resolve("card_points")
        assert points is not None
        mark = ruleset.hook_mark
        with pytest.raises(PluginError, match="the scoring service is down"):
            points(card=_C5)
        assert ruleset.hook_mark != mark


def test_the_shared_unasked_bus_takes_no_subscription() -> None:
    """``_unasked``: the bus shared by games nobody listens to is never written (U01)."""
    with pytest.raises(RuntimeError, match="takes no subscription"):
        UNASKED.subscribe(lambda event: None)
    with pytest.raises(RuntimeError, match="takes no subscription"):
        HUSHED.subscribe(lambda event: None)
    assert QUIET.get() is False


# --- _blame through wrappers: an answer a wrapper passed on is not the wrapper's ---------------


def _passes_on() -> Any:
    return (yield)


def _judge_four() -> int:
    return 4


def _judge_five() -> int:
    return 5


def test_a_list_answer_a_wrapper_passed_on_is_blamed_on_the_rule_that_gave_it() -> None:
    """``_through_wrappers`` keeps each answer's plugin when a wrapper passes the list on
    (B10: every item of a wrapper's list counted the wrapper's). The function itself is
    refused here: what ``resolve`` hands the game is the bug pinned below."""
    giver = _rule(
        "GOLF-AUD-43", "golf.aud-gives-judge", golf_removable_groups=hookimpl(lambda: _judge_four)
    )
    wrapper = _rule(
        "GOLF-AUD-44",
        "golf.aud-passes-list",
        golf_removable_groups=hookimpl(wrapper=True)(_passes_on),
    )
    names = [giver.RULE.name, wrapper.RULE.name]
    with _registered(giver, wrapper):
        err = _refused(names, "golf_removable_groups", _judge_four, {"layout": None})
    assert err.plugin == "golf.aud-gives-judge"


def test_a_firstresult_answer_a_wrapper_passed_on_is_blamed_on_the_rule_that_gave_it() -> None:
    """For a ``firstresult`` hook a wrapper returning what it was given is not blamed for it
    (B08: the answer after each wrapper counted the wrapper's)."""
    giver = _rule("GOLF-AUD-45", "golf.aud-gives-scorer", golf_scorer=hookimpl(lambda: _judge_five))
    wrapper = _rule(
        "GOLF-AUD-46", "golf.aud-passes-scorer", golf_scorer=hookimpl(wrapper=True)(_passes_on)
    )
    names = [giver.RULE.name, wrapper.RULE.name]
    with _registered(giver, wrapper):
        scorer = cardcore.get_ruleset("golf", names).resolve("golf_scorer")
        assert scorer is not None and scorer(layout=None)() == 5
        err = _refused(names, "golf_scorer", _judge_five, {"layout": None})
    assert err.plugin == "golf.aud-gives-scorer"


def test_wrappers_are_asked_again_innermost_first() -> None:
    """The chain is asked again as pluggy runs it, the innermost wrapper first (B07: the
    outermost first; here the inner wrapper, which replaces a single answer, then passes the
    outer's two on and its own answer is never found: the outermost wrapper is blamed)."""

    def replaces_one() -> Any:
        given = yield
        return [_judge_five] if len(given) == 1 else given

    def appends() -> Any:
        given = yield
        return [*given, _judge_four]

    giver = _rule("GOLF-AUD-47", "golf.aud-gives-one", golf_removable_groups=hookimpl(lambda: 1))
    inner = _rule(
        "GOLF-AUD-48",
        "golf.aud-replaces-one",
        golf_removable_groups=hookimpl(wrapper=True)(replaces_one),
    )
    outer = _rule(
        "GOLF-AUD-49", "golf.aud-appends", golf_removable_groups=hookimpl(wrapper=True)(appends)
    )
    names = [giver.RULE.name, inner.RULE.name, outer.RULE.name]
    with _registered(giver, inner, outer):
        groups = cardcore.get_ruleset("golf", names).resolve("golf_removable_groups")
        assert groups is not None
        assert [f() for f in groups(layout=None)] == [5, 4]
        err = _refused(names, "golf_removable_groups", _judge_five, {"layout": None})
    assert err.plugin == "golf.aud-replaces-one"


def _bad_judge(hands: Any, values: Any) -> Any:
    return "not a verdict"


def test_a_bad_tonk_judge_passed_on_by_a_wrapper_is_blamed_on_its_own_rule() -> None:
    """``_blame.answerer``: "the answer belongs to the wrapper that replaced it last (or to
    the implementation it passed on)"; ``refused_answer`` "blames the plugin whose
    implementation hands it over". Without the wrapper the judge's rule is named."""
    judge = _rule(
        "TONK-AUD-1", "tonk.aud-bad-judge", "tonk", tonk_deal_judge=hookimpl(lambda: _bad_judge)
    )
    wrapper = _rule(
        "TONK-AUD-2",
        "tonk.aud-wraps-judges",
        "tonk",
        tonk_deal_judge=hookimpl(wrapper=True)(_passes_on),
    )
    with _registered(judge):
        with pytest.raises(PluginError, match="answered 'not a verdict'") as alone:
            cardcore.new_game("tonk", 2, rules=[judge.RULE.name], seed=1)
        assert alone.value.plugin == "tonk.aud-bad-judge"
    with (
        _registered(judge, wrapper),
        pytest.raises(PluginError, match="answered 'not a verdict'") as wrapped,
    ):
        cardcore.new_game("tonk", 2, rules=[judge.RULE.name, wrapper.RULE.name], seed=1)
    assert wrapped.value.plugin == "tonk.aud-bad-judge"  # (before the fix: the wrapper's)


def test_an_unknown_plugin_group_is_refused_by_register_and_unregister() -> None:
    """``check_group`` (R04: dropped, the group looked up as it is)."""
    for call in (
        lambda: cardcore.register("cardcore.rule", "golf.aud-typo", types.SimpleNamespace()),
        lambda: cardcore.unregister("cardcore.rule", "golf.aud-typo"),
    ):
        with pytest.raises(
            cardcore.UnknownPluginError, match=r"unknown plugin group 'cardcore\.rule'"
        ):
            call()


class _SavedBot:
    """An agent class with a ``load`` classmethod (its saved weights) and text ``group`` and
    ``value`` attributes: it looks like an entry point, but a class is never one."""

    group = "bots"
    value = "weights.bin"

    @classmethod
    def load(cls) -> str:
        return "the saved weights, not an agent"


def test_a_class_restored_by_unregister_is_not_loaded_as_an_entry_point() -> None:
    """``is_entry_point`` never takes a class (R07: only modules excluded, so the class
    put back by ``unregister`` had its ``load()`` called and that answer became the agent)."""
    name = "aud-saved-bot"
    cardcore.register("cardcore.agents", name, _SavedBot)
    try:
        cardcore.register("cardcore.agents", name, object)
        cardcore.unregister("cardcore.agents", name)
        assert cardcore.load_agent(name) is _SavedBot
    finally:
        cardcore.unregister("cardcore.agents", name)


def test_a_requirement_this_game_can_meet_is_not_called_another_games() -> None:
    """``check_requires`` refuses a requirement only another game's rule meets; one that a
    rule of this game meets too is "not chosen", not "can never be chosen" (R05: ``ref not
    in own`` dropped, and a Tonk rule sharing the ID made it a rule of another game)."""
    needs = _rule(
        "GOLF-AUD-50",
        "golf.aud-needs",
        requires=("GOLF-AUD-51",),
        forbid_action=hookimpl(lambda: None),
    )
    needed = _rule("GOLF-AUD-51", "golf.aud-needed", forbid_action=hookimpl(lambda: None))
    same_id = _rule("GOLF-AUD-51", "tonk.aud-same-id", "tonk", forbid_action=hookimpl(lambda: None))
    with _registered(needs, needed, same_id):
        with pytest.raises(RuleConflictError, match="which is not chosen"):
            cardcore.get_ruleset("golf", [needs.RULE.name])
        ruleset = cardcore.get_ruleset("golf", [needs.RULE.name, needed.RULE.name])
        assert ruleset.rule_names == ("golf.aud-needs", "golf.aud-needed")


class _Points(int):
    """An int subclass a house rule answers: its code must never reach a game's state."""


def test_an_int_subclass_answer_comes_back_a_plain_int_on_the_wrapper_path_too() -> None:
    """Found by this audit (a doc gap, then a fix): ``guarded`` turns an int subclass a rule
    answers into a plain int (a sum that stays of the subclass would make a save
    unreadable), but a hook with a wrapper answered the subclass as it was."""
    points = _rule(
        "TONK-AUD-3",
        "tonk.aud-sub-points",
        "tonk",
        card_points=hookimpl(lambda card: _Points(0) if card.label == "Q" else None),
    )
    wrapper = _rule(
        "TONK-AUD-4",
        "tonk.aud-wraps-points",
        "tonk",
        card_points=hookimpl(wrapper=True)(_passes_on),
    )
    queen = Card.parse("QH")
    with _registered(points, wrapper):
        for rules in ([points.RULE.name], [points.RULE.name, wrapper.RULE.name]):
            answer = cardcore.get_ruleset("tonk", rules).resolve("card_points")(card=queen)
            assert answer == 0 and type(answer) is int, (rules, type(answer))
