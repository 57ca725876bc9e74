"""Mutation review (2026-12-07p) of the blame/restore machinery for faulty house rules:
``cardcore._blame`` (gave, _gives, _unwrapped, answerer, is_cores, _defined_in),
``cardcore._marks`` (MovingMark, counted_class, _library), ``cardcore._hookcall``
(house_impl, named_call, _wrapped_answer, guarded) and ``Ruleset.impl_codes`` /
``plugin_from_traceback``.

Each test kills a mutant that the existing blame tests let survive (named in its
docstring). Most drive a real :class:`~cardcore.Ruleset` of Golf with house rules
registered for the test only (always unregistered); the ``answerer`` ones build a
pluggy manager of their own, as the core reads pluggy's hook callers.
"""

from __future__ import annotations

import functools
import itertools
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pluggy
import pytest

import cardcore
from cardcore import GameLogic, PluginError, RuleInfo, Veto, _blame, hookimpl
from cardcore._marks import HookMark, MovingMark, counted_class
from cardcore.plugins import get_ruleset
from cardcore_golf import grids
from cardcore_golf import rules as golf_rules

_ids = itertools.count(1)


@hookimpl
def quiet(card: Any) -> None:
    return None


@contextmanager
def rules(**hooks_by_rule: dict[str, Any]) -> Iterator[tuple[cardcore.Ruleset, list[str]]]:
    """Register one Golf house rule per keyword (its hooks), unique to this call, and yield
    the Golf ruleset with them (a configuration no other test shares) and their names."""
    serial = next(_ids)
    names: list[str] = []
    try:
        for key, hooks in hooks_by_rule.items():
            name = f"mb7p-{key}-{serial}"
            module = types.ModuleType(f"mb7p_{key}_{serial}")
            module.RULE = RuleInfo(  # type: ignore[attr-defined]
                id=f"MB7P-{key.upper()}-{serial}", name=name, game="golf", summary="mutant review"
            )
            vars(module).update(hooks)
            cardcore.register("cardcore.rules", name, module)
            names.append(name)
        yield get_ruleset("golf", names), names
    finally:
        for name in reversed(names):
            cardcore.unregister("cardcore.rules", name)


def boom(*args: Any, **kw: Any) -> Any:
    raise LookupError("scoring service down")


def a_rules_function() -> int:
    return 1


# --- gave / _gives: the last answers kept per rule ------------------------------------------


def fake_ruleset(last: dict[tuple[str, str], Any]) -> Any:
    return types.SimpleNamespace(_gave=types.SimpleNamespace(last=last))


class Opaque:
    """A class with equality that is never equal: told apart only by identity."""

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


def test_gave_reads_only_the_refused_hooks_answers() -> None:
    """Mutant B1 (_blame.py gave: ``h == hook`` dropped): another hook's answer is not it."""
    answer = Opaque()
    rs = fake_ruleset({("card_points", "a"): answer, ("score_round", "b"): answer})
    assert _blame.gave(rs, "card_points", answer) == "a"
    assert _blame.gave(rs, "score_round", answer) == "b"
    assert _blame.gave(rs, "build_deck", answer) is None


def test_gave_never_blames_a_rule_whose_last_answer_is_none() -> None:
    """Mutant B2 (gave: ``a is not None`` dropped): a rule that last answered None passed."""
    rs = fake_ruleset({("card_points", "a"): None})
    assert _blame.gave(rs, "card_points", None) is None


def test_gave_is_ambiguous_not_none_for_several_rules() -> None:
    """Mutant B4 (gave: several owners -> None): ``None`` would send the refusal on to
    ``answerer``, which may blame one; several alike answers blame none (``AMBIGUOUS``)."""
    rs = fake_ruleset({("card_points", "a"): 7, ("card_points", "b"): 7})
    assert _blame.gave(rs, "card_points", 7) == _blame.AMBIGUOUS == ""


def test_gave_finds_the_answer_inside_a_list_a_rule_gave() -> None:
    """Mutant B5 (_gives: the ``list``/``tuple`` holding the answer dropped)."""
    answer = Opaque()
    rs = fake_ruleset({("golf_scorer", "a"): [answer, Opaque()], ("golf_scorer", "b"): (1,)})
    assert _blame.gave(rs, "golf_scorer", answer) == "a"


def test_unwrapped_reads_through_several_of_the_cores_guards() -> None:
    """Mutant B7 (_unwrapped: ``range(6)`` -> ``range(1)``): a rule's function answered under a
    wrapper is guarded by ``named_call`` and then tracked: two guards to read through."""
    with rules(a={"card_points": quiet}) as (rs, (name,)):
        twice = rs.tracked(_hookcall_guarded(a_rules_function, name), answers=False)
        assert twice.__wrapped__.__wrapped__ is a_rules_function
        assert _blame._unwrapped(twice) is a_rules_function


def _hookcall_guarded(func: Any, plugin: str) -> Any:
    from cardcore import _hookcall

    return _hookcall.guarded(func, plugin, "card_points")


def test_unwrapped_leaves_other_callables_alone() -> None:
    """Mutant B8 (_unwrapped reads ``__wrapped__`` of any object): only the core's guards,
    plain functions, are read through; an ``lru_cache`` a rule answered is its answer."""
    cached = functools.lru_cache(a_rules_function)
    assert _blame._unwrapped(cached) is cached
    method = functools.partial(a_rules_function)
    assert _blame._unwrapped(method) is method


# --- answerer: asked again, with pluggy's own hook callers ----------------------------------

hookspec = pluggy.HookspecMarker("mb7p")
impl = pluggy.HookimplMarker("mb7p")


class Spec:
    @hookspec(firstresult=True)
    def first(self, x: int) -> Any: ...

    @hookspec(firstresult=True)
    def pair(self, x: int, y: int) -> Any: ...

    @hookspec
    def every(self, x: int) -> Any: ...


def manager(*plugins: tuple[str, object]) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("mb7p")
    pm.add_hookspecs(Spec)
    for name, plugin in plugins:
        pm.register(plugin, name=name)
    return pm


def ns(**hooks: Any) -> types.SimpleNamespace:
    return types.SimpleNamespace(**hooks)


def test_answerer_blames_the_first_answer_of_a_firstresult_hook() -> None:
    """Mutant B9 (answerer: ``firstresult`` ignored): the rule called later gave the same
    value, but pluggy never asked it: the first to answer is the one."""
    early = ns(first=impl(tryfirst=True)(lambda x: 5))
    late = ns(first=impl(lambda x: 5))
    pm = manager(("late", late), ("early", early))
    assert pm.hook.first(x=1) == 5
    assert _blame.answerer(pm.hook.first, 5, {"x": 1}) == "early"


def test_answerer_does_not_guess_past_a_first_implementation_it_cannot_ask() -> None:
    """Mutant B10 (answerer: an implementation it cannot ask is skipped for firstresult):
    it may be the one that answered, so none is blamed."""
    early = ns(pair=impl(tryfirst=True)(lambda x, y: 5))
    late = ns(pair=impl(lambda x: 5))
    pm = manager(("late", late), ("early", early))
    assert pm.hook.pair(x=1, y=2) == 5
    assert _blame.answerer(pm.hook.pair, 5, {"x": 1}) is None


def test_answerer_skips_a_first_implementation_that_answered_none() -> None:
    """Mutant B11 (answerer: a ``None`` answer of a firstresult hook taken as the answer)."""
    early = ns(first=impl(tryfirst=True)(lambda x: None))
    late = ns(first=impl(lambda x: 5))
    pm = manager(("late", late), ("early", early))
    assert pm.hook.first(x=1) == 5
    assert _blame.answerer(pm.hook.first, 5, {"x": 1}) == "late"


SHARED = [1, 2]


def test_answerer_prefers_the_very_object_among_alike_answers() -> None:
    """Mutant B13 (_owner: the identity filter among several alike answers dropped)."""
    own = ns(every=impl(lambda x: SHARED))
    other = ns(every=impl(lambda x: [1, 2]))
    pm = manager(("own", own), ("other", other))
    assert _blame.answerer(pm.hook.every, SHARED, {"x": 1}) == "own"
    assert _blame.answerer(pm.hook.every, [1, 2], {"x": 1}) == _blame.AMBIGUOUS


def test_answerer_through_a_wrapper_that_passes_the_answer_on() -> None:
    """Mutants B15 and B16 (_through_wrappers: a wrapper that hands the answer on unchanged
    claims it): the implementation that gave it is blamed, for both kinds of hook."""

    def first(x: int) -> Any:
        return (yield)

    def every(x: int) -> Any:
        return (yield)

    passer = ns(first=impl(wrapper=True)(first), every=impl(wrapper=True)(every))
    made = Opaque()
    giver = ns(first=impl(lambda x: made), every=impl(lambda x: made))
    pm = manager(("giver", giver), ("passer", passer))
    assert pm.hook.first(x=1) is made and pm.hook.every(x=1) == [made]
    assert _blame.answerer(pm.hook.first, made, {"x": 1}) == "giver"
    assert _blame.answerer(pm.hook.every, made, {"x": 1}) == "giver"


def test_answerer_blames_the_outermost_wrapper_that_replaced_the_answer() -> None:
    """Mutant B17 (_through_wrappers runs the wrappers outermost first)."""

    def inner(x: int) -> Any:
        yield
        return "inner's"

    def outer(x: int) -> Any:
        yield
        return "outer's"

    pm = manager(
        ("giver", ns(first=impl(lambda x: "giver's"))),
        ("inner", ns(first=impl(wrapper=True)(inner))),
        ("outer", ns(first=impl(wrapper=True, tryfirst=True)(outer))),
    )
    assert pm.hook.first(x=1) == "outer's"
    assert _blame.answerer(pm.hook.first, "outer's", {"x": 1}) == "outer"


# --- is_cores / _defined_in ----------------------------------------------------------------


def test_is_cores_knows_the_cores_defaults_the_games_helpers_and_classes() -> None:
    """Mutants B18 (the ``cardcore.defaults`` plugin's code not the core's), B20 (a helper
    module of the game's package not the game's) and B21 (code-less objects, such as the
    game's classes, not the game's): none of these is a rule's, to guard or count."""
    from cardcore import _defaults
    from cardcore_golf.logic import GolfLogic

    rs = get_ruleset("golf")
    assert _blame.is_cores(rs, _defaults.build_deck)
    assert _blame.is_cores(rs, grids.layout_for)
    assert _blame.is_cores(rs, GolfLogic)
    assert _blame.is_cores(rs, golf_rules.golf_scorer)
    assert not _blame.is_cores(rs, a_rules_function)


# --- counted_class / _library --------------------------------------------------------------


def test_the_games_own_class_does_not_make_every_apply_keep_a_checkpoint() -> None:
    """Mutant M2 (counted_class: the game's own class is counted like a rule's)."""
    from cardcore_golf.logic import GolfLogic

    with rules(a={"card_points": quiet}) as (rs, _):
        assert counted_class(rs, GolfLogic, "somebody") is GolfLogic
        assert type(rs.hooks) is HookMark
        assert rs.hook_mark is rs.hook_mark


class RulesLogic(GameLogic):  # type: ignore[type-arg]
    """A rule's class built on cardcore's, holding a function of the game's."""

    golf_helper = staticmethod(grids.layout_for)

    def own(self) -> int:
        return 3


def test_a_rules_class_makes_only_its_own_code_the_rules() -> None:
    """Mutants M7 (_library: cardcore's classes not the library's) and M9 (a game function
    a rule's class holds made the rule's): only the rule's own methods name it."""
    with rules(a={"card_points": quiet}) as (rs, (name,)):
        assert counted_class(rs, RulesLogic, name) is RulesLogic
        assert type(rs.hooks) is MovingMark
        assert rs.hook_mark is not rs.hook_mark
        codes = rs.impl_codes()
        assert codes[RulesLogic.own.__code__] == name
        cores = [f.__code__ for f in vars(GameLogic).values() if isinstance(f, types.FunctionType)]
        assert cores and not any(codes.get(code) == name for code in cores)
        assert codes.get(grids.layout_for.__code__) != name


# --- house_impl ------------------------------------------------------------------------------


def test_an_untracked_hooks_answer_is_still_kept_for_blame() -> None:
    """Mutant H1 (house_impl: a hook resolved with ``track=False`` keeps no last answer)."""
    made = Opaque()

    @hookimpl
    def card_points(card: Any) -> Any:
        return made

    with rules(a={"card_points": card_points}) as (rs, (name,)):
        call = rs.resolve("card_points", track=False)
        assert call is not None and call(card=None) is made
        assert _blame.gave(rs, "card_points", made) == name


def test_a_function_two_lists_deep_is_guarded_and_kept_as_given() -> None:
    """Mutants H4 (house_impl: functions answered in lists guarded one level deep only) and
    H7 (the answer kept before it is guarded): the function the game got, failing later,
    names the rule, and it is the rule's last answer."""

    @hookimpl
    def card_points(card: Any) -> Any:
        return [[boom], boom]

    with rules(a={"card_points": card_points}) as (rs, (name,)):
        call = rs.resolve("card_points")
        assert call is not None
        answer = call(card=None)
        for scorer in (answer[0][0], answer[1]):
            before = rs.hook_mark
            with pytest.raises(PluginError) as failure:
                scorer()
            assert failure.value.plugin == name
            assert rs.hook_mark is not before  # (its call counted for the restore)
        assert _blame.gave(rs, "card_points", answer[1]) == name


# --- named_call, _wrapped_answer: a chain with wrappers --------------------------------------


def passing_wrapper() -> Any:
    @hookimpl(wrapper=True)
    def card_points(card: Any) -> Any:
        return (yield)

    return card_points


def test_a_function_two_lists_deep_under_a_wrapper_names_the_rule_that_made_it() -> None:
    """Mutant H9 (named_call: guarded one list level deep only): the wrapper that passed it
    on would be named instead."""

    @hookimpl
    def card_points(card: Any) -> Any:
        return [[boom]]

    with rules(a={"card_points": card_points}, w={"card_points": passing_wrapper()}) as (
        rs,
        (maker, _),
    ):
        call = rs.resolve("card_points")
        assert call is not None
        with pytest.raises(PluginError) as failure:
            call(card=None)[0][0]()
        assert failure.value.plugin == maker


def test_impl_codes_map_each_rules_code_under_a_wrapper() -> None:
    """Mutants H11 (named_call keeps no ``__wrapped__``: the rule's own code unmapped) and
    H12 (every named call shares one code: the last rule's name on all of them)."""

    def one(card: Any) -> Any:
        return None

    def two(card: Any) -> Any:
        return None

    with rules(
        a={"card_points": hookimpl(one)},
        b={"card_points": hookimpl(two)},
        w={"card_points": passing_wrapper()},
    ) as (rs, (a, b, _)):
        assert rs.resolve("card_points") is not None
        codes = rs.impl_codes()
        assert codes[one.__code__] == a and codes[two.__code__] == b
        named = {
            i.plugin_name: i.function.__code__
            for i in rs.pm.hook.card_points.get_hookimpls()
            if i.plugin_name in (a, b)
        }
        assert named[a] is not named[b]
        assert codes[named[a]] == a and codes[named[b]] == b


def test_a_bad_veto_built_under_a_wrapper_names_the_rule_that_built_it() -> None:
    """Mutant H13 (named_call's frame holds no ``plugin``: ``cardcore.info`` cannot tell)."""

    @hookimpl
    def forbid_action(state: Any, action: Any) -> Any:
        return Veto(5, "bad id")  # type: ignore[arg-type]

    @hookimpl(wrapper=True)
    def passer(state: Any, action: Any) -> Any:
        return (yield)

    with rules(a={"forbid_action": forbid_action}, w={"forbid_action": passer}) as (
        rs,
        (maker, _),
    ):
        call = rs.resolve("forbid_action", track=False)
        assert call is not None
        with pytest.raises(PluginError) as failure:
            call(state=None, action=None)
        assert failure.value.plugin == maker


class Made:
    def run(self) -> None:
        raise LookupError("class down")


def test_a_class_one_of_several_wrappers_answered_is_no_wrappers() -> None:
    """Mutant H14 (_wrapped_answer: a class of several wrappers' chain named the first's)."""

    @hookimpl(wrapper=True)
    def replacer(card: Any) -> Any:
        yield
        return Made

    with rules(w1={"card_points": replacer}, w2={"card_points": passing_wrapper()}) as (
        rs,
        names,
    ):
        call = rs.resolve("card_points")
        assert call is not None and call(card=None) is Made
        assert type(rs.hooks) is MovingMark
        assert rs.impl_codes().get(Made.run.__code__) not in names


def test_a_wraps_copy_of_a_rules_guarded_function_is_guarded_again() -> None:
    """Mutant H15 (_wrapped_answer: a ``functools.wraps`` copy, carrying ``_guarded``, taken
    for a guarded function): its failure names the wrapper that made it."""

    @hookimpl
    def card_points(card: Any) -> Any:
        return a_rules_function

    @hookimpl(wrapper=True)
    def copier(card: Any) -> Any:
        given = yield
        return functools.wraps(given)(boom)

    with rules(a={"card_points": card_points}, w={"card_points": copier}) as (rs, (_, wrapper)):
        call = rs.resolve("card_points")
        assert call is not None
        copy = call(card=None)
        with pytest.raises(PluginError) as failure:
            copy()
        assert failure.value.plugin == wrapper


def test_the_games_code_failing_in_a_wrappers_function_names_the_wrapper() -> None:
    """Mutant H16 (_wrapped_answer: the game's code, called by the function, blamed)."""

    @hookimpl(wrapper=True)
    def maker(card: Any) -> Any:
        yield
        return lambda: golf_rules.golf_scorer(layout=object())

    with rules(w={"card_points": maker}) as (rs, (wrapper,)):
        call = rs.resolve("card_points")
        assert call is not None
        with pytest.raises(PluginError) as failure:
            call(card=None)()
        assert failure.value.plugin == wrapper


def test_a_named_plugin_error_from_several_wrappers_function_reaches_the_caller() -> None:
    """Mutant H18 (_wrapped_answer: a PluginError that names its plugin re-made unnamed)."""
    raised = PluginError("down for good", plugin="somebody")

    def fails() -> None:
        raise raised

    @hookimpl(wrapper=True)
    def maker(card: Any) -> Any:
        yield
        return fails

    with rules(w1={"card_points": maker}, w2={"card_points": passing_wrapper()}) as (rs, _):
        call = rs.resolve("card_points")
        assert call is not None
        with pytest.raises(PluginError) as failure:
            call(card=None)()
        assert failure.value is raised and failure.value.plugin == "somebody"


def test_functions_a_wrapper_made_two_lists_deep_name_it() -> None:
    """Mutant H20 (_wrapped_answer guards functions one list level deep only)."""

    @hookimpl(wrapper=True)
    def maker(card: Any) -> Any:
        yield
        return [[boom]]

    with rules(w={"card_points": maker}) as (rs, (wrapper,)):
        call = rs.resolve("card_points")
        assert call is not None
        with pytest.raises(PluginError) as failure:
            call(card=None)[0][0]()
        assert failure.value.plugin == wrapper


def test_an_option_error_from_an_answered_function_is_the_rules_failure() -> None:
    """Mutant H21 (guarded: ``answered`` dropped, so an ``OptionError`` raised in play by a
    scorer a hook answered reached the caller as a refusal of its options)."""

    def scorer() -> None:
        raise cardcore.OptionError("refused in play")

    @hookimpl
    def card_points(card: Any) -> Any:
        return scorer

    with rules(a={"card_points": card_points}) as (rs, (name,)):
        call = rs.resolve("card_points")
        assert call is not None
        with pytest.raises(PluginError) as failure:
            call(card=None)()
        assert failure.value.plugin == name
        assert isinstance(failure.value.__cause__, cardcore.OptionError)


def test_a_guarded_function_says_so_and_a_wraps_copy_does_not() -> None:
    """Mutant H22 (guarded: ``_guarded`` not set): the mark ``_wrapped_answer`` reads."""
    from cardcore import _hookcall

    call = _hookcall.guarded(a_rules_function, "r", "card_points")
    assert call._guarded is call
    copy = functools.wraps(call)(boom)
    assert copy._guarded is not copy


def test_the_games_own_function_a_wrapper_passes_on_fails_as_the_games() -> None:
    """Mutants H24 (_wrapped_answer guards the game's own function too) and H25
    (guarded_chain: the game's implementation failing under a wrapper named as a rule):
    the game's code fails as it is, and the core names the game."""

    @hookimpl(wrapper=True)
    def golf_scorer(layout: Any) -> Any:
        return (yield)

    with rules(w={"golf_scorer": golf_scorer}) as (rs, _):
        call = rs.resolve("golf_scorer")
        assert call is not None
        scorer = call(layout=grids.layout_for(6))
        assert not hasattr(scorer, "_guarded") and _blame.is_cores(rs, scorer)
        with pytest.raises(Exception) as failure:
            scorer(None)
        assert not isinstance(failure.value, PluginError)
        with pytest.raises(AttributeError):
            call(layout=object())
