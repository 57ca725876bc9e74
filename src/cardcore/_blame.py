"""Which plugin's hook implementation gave an answer the game refuses (for error messages).

Split from :mod:`cardcore.logic`, whose :meth:`~cardcore.GameLogic.refused_answer` uses it.
Runs only once an answer is refused, never on a hot path.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import os
import sys
import types
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeGuard

import pluggy

from cardcore.errors import PluginError

if TYPE_CHECKING:
    from cardcore.plugins import Ruleset

_PLAIN = (int, float, complex, str, bytes, bool, type(None))
AMBIGUOUS = ""
""":func:`answerer`'s answer when answers of several plugins are alike the refused one."""


def refusal(msg: str, plugin: str) -> PluginError:
    """The error refusing an answer that *plugin* gave; :data:`AMBIGUOUS` blames none
    (``plugin`` is ``None``), and the driver passes it on so, not blaming the game."""
    error = PluginError(msg, plugin=plugin or None)
    error.blamed = True  # type: ignore[attr-defined]
    return error


def is_blamed(error: BaseException) -> TypeGuard[PluginError]:
    """Whether *error* already says whom it blames (a plugin, or none of several alike)."""
    return isinstance(error, PluginError) and (
        error.plugin is not None or getattr(error, "blamed", False) is True
    )


def answerer(hook: Any, answer: Any, asked: Mapping[str, Any]) -> str | None:
    """The plugin whose implementation of *hook* (a pluggy hook caller) gave *answer*.

    Each implementation whose arguments are all in *asked* is asked again, in the order
    the game asks them: for a ``firstresult`` hook the first one to answer is the one,
    otherwise the one whose answer is *answer* or one alike (a function made afresh on
    each call: a lambda, a closure or a ``functools.partial`` of one function; equal plain
    values). *answer* may be the function the core wraps to guard a house rule's answer.
    When the hook has wrappers, the whole chain is asked again and the answer belongs to
    the wrapper that replaced it last (or to the implementation it passed on).
    ``None`` when no implementation can be told; :data:`AMBIGUOUS` when several answers
    are alike the refused one (and not exactly one of them is that very object), so that
    no single plugin is blamed for what another may have given.
    """
    first = bool(getattr(hook.spec, "opts", {}).get("firstresult"))
    made = _unwrapped(answer)  # the core's guards keep the function they wrap
    impls = list(reversed(hook.get_hookimpls()))  # in call order, outermost wrapper first
    if any(impl.wrapper or impl.hookwrapper for impl in impls):
        with contextlib.suppress(Exception):  # asked again only to find whose it is
            return _through_wrappers(impls, answer, made, asked, first)
        return None
    results: list[tuple[Any, str]] = []  # (answer, its plugin) of the ones asked again
    for impl in impls:
        if not set(impl.argnames) <= asked.keys():
            if first:  # it may be the one that answered: which one did is not known
                return None
            continue
        with contextlib.suppress(Exception):  # asked again only to find whose it is
            again = impl.function(*[asked[name] for name in impl.argnames])
            if again is not None and first:
                return str(impl.plugin_name)
            results.append((again, str(impl.plugin_name)))
    return _owner(results, answer, made)


def gave(ruleset: Ruleset, hook: str, answer: Any) -> str | None:
    """The house rule whose implementation of *hook* last answered *answer* (that very
    object, a list or tuple holding it, or one alike), as the core called it: a rule
    that answers once and then not is still named (asked again, another answers).
    :data:`AMBIGUOUS` when several rules' last answers are it, or alike it; else ``None``."""
    last = getattr(ruleset._gave, "last", {})  # (this thread's: the refused call's own)
    bare = _unwrapped(answer)  # (the guards around functions are alike: what they guard)
    owners = {p for (h, p), a in last.items() if h == hook and a is not None and _gives(a, answer, bare)}
    return (owners.pop() if len(owners) == 1 else AMBIGUOUS) if owners else None


def _gives(given: Any, answer: Any, bare: Any) -> bool:
    """Whether a rule's answer *given* is the refused *answer*, holds it, or is alike it."""
    if given is answer or (type(given) in (list, tuple) and any(x is answer for x in given)):
        return True
    with contextlib.suppress(Exception):  # (an answer rebuilt on its way: equal values)
        return alike(_unwrapped(given), bare)
    return False


def _unwrapped(answer: Any) -> Any:
    """*answer* without the core's guards around it (each keeps the function it wraps as
    ``__wrapped__``: the tracking, the guard naming the rule), a few levels at most."""
    for _ in range(6):
        if type(answer) is not types.FunctionType:
            break
        inner = vars(answer).get("__wrapped__")
        if inner is None:
            break
        answer = inner
    return answer


def _owner(results: list[tuple[Any, str]], answer: Any, made: Any) -> str | None:
    """The plugin of the one answer in *results* alike *answer* (or *made*), the one that
    *is* it when several are alike, else :data:`AMBIGUOUS`; ``None`` when none is alike.
    Each answer asked again is read without the core's guards, as *made* is."""
    owners: list[tuple[Any, str]] = []
    for again, plugin in results:
        with contextlib.suppress(Exception):  # an answer that cannot be compared is not it
            bare = _unwrapped(again)
            if again is not None and (
                alike(again, answer) or alike(again, made) or alike(bare, made)
            ):
                owners.append((bare, plugin))
    if len(owners) > 1:
        owners = [(a, p) for a, p in owners if a is answer or a is made]
        return owners[0][1] if len(owners) == 1 else AMBIGUOUS
    return owners[0][1] if owners else None


def _through_wrappers(
    impls: list[Any], answer: Any, made: Any, asked: Mapping[str, Any], first: bool
) -> str | None:
    """:func:`answerer` for a hook with wrappers: the chain run again as pluggy runs it, each
    answer kept with the plugin that gave it (a wrapper's own, or one it passed on as it is).
    ``None`` if an implementation cannot be asked again or the answer is not found."""
    if any(not set(impl.argnames) <= asked.keys() for impl in impls):
        return None
    results: list[tuple[Any, str]] = []  # (answer, its plugin), in the hook's result order
    for impl in impls:
        if not (impl.wrapper or impl.hookwrapper):
            again = impl.function(*[asked[name] for name in impl.argnames])
            if again is not None:
                results.append((again, str(impl.plugin_name)))
                if first:
                    break
    for impl in reversed([i for i in impls if i.wrapper or i.hookwrapper]):  # innermost first
        given = results[0][0] if first and results else None if first else [r for r, _ in results]
        gen = impl.function(*[asked[name] for name in impl.argnames])
        next(gen)
        if impl.wrapper:
            try:
                gen.send(given)
            except StopIteration as stop:
                out = stop.value
            else:
                return None  # it yields twice: pluggy refuses it
        else:
            outcome = pluggy.Result(given, None)
            with contextlib.suppress(StopIteration):
                gen.send(outcome)
            out = outcome.get_result()
        plugin = str(impl.plugin_name)
        if first:
            results = results if out is given else [(out, plugin)]
        else:
            owners = {id(r): p for r, p in results}
            results = [(r, owners.get(id(r), plugin)) for r in out]
    return _owner(results, answer, made)


def alike(one: Any, other: Any, depth: int = 3) -> bool:
    """Whether *one* and *other*, the answers of one implementation asked twice, are one answer.

    Functions made afresh (lambdas, closures, partials of one function, methods of one
    function bound to objects alike), equal plain values, lists, tuples (named ones too),
    sets and dicts alike item by item, and objects of one class that are equal (or, for a
    class that defines no equality, a callable object made afresh, whose attributes are alike;
    any two past *depth*).

    >>> def judge_maker():
    ...     return lambda hands, points: None
    >>> alike(judge_maker(), judge_maker()), alike([1, "a"], [1, "a"]), alike(1, True)
    (True, True, False)
    """
    if one is other:
        return True
    kind = type(one)
    if kind is not type(other):
        return False
    if kind is types.FunctionType:
        return bool(one.__code__ is other.__code__)
    if kind is types.MethodType:
        return alike(one.__func__, other.__func__) and alike(one.__self__, other.__self__, depth)
    if kind is functools.partial:
        return depth > 0 and alike(one.func, other.func, depth - 1)
    if issubclass(kind, list | tuple):
        return (
            depth > 0
            and len(one) == len(other)
            and all(alike(a, b, depth - 1) for a, b in zip(one, other, strict=True))
        )
    if issubclass(kind, set | frozenset):
        if len(one) != len(other) or len(one) > 100:
            return bool(one == other)
        return depth > 0 and all(any(alike(a, b, depth - 1) for b in other) for a in one)
    if issubclass(kind, dict):
        return (
            depth > 0
            and one.keys() == other.keys()
            and all(alike(one[key], other[key], depth - 1) for key in one)
        )
    if kind in _PLAIN:
        return bool(one == other)
    if kind.__module__ == "builtins" or isinstance(one, enum.Enum):
        return False  # an enum's members are one object each: told apart by identity
    if getattr(kind, "__eq__", None) is object.__eq__:  # no equality: alike if its fields are
        # (the fields' dict takes no level of its own: its values are compared one level down)
        return depth <= 0 or alike(_fields(one), _fields(other), depth)
    return bool(one == other)


def _fields(obj: Any) -> dict[str, Any]:
    """The attributes of *obj*, an object of a class without equality (``__dict__`` and slots)."""
    fields = dict(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        slots = vars(cls).get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                fields[name] = getattr(obj, name)
    return fields


def is_cores(ruleset: Ruleset, func: object) -> bool:
    """Whether *func* is the game's own code or the core's (its module's plugin): a
    function of theirs a hook answers needs no guard or tracking (it is the game's logic).
    A copy made by ``functools.wraps`` carries their module's name, not its code: not theirs."""
    module = getattr(func, "__module__", None)
    if type(module) is not str or not _defined_in(func, module):
        return False
    owner = ruleset.plugin_of(module)
    if owner is not None:  # the module of a plugin: the game's, the core's, or a rule's
        return owner == ruleset.game.name or owner == "cardcore.defaults"
    package = module.partition(".")[0]  # a helper module of the game's package
    games = (m for m, p in ruleset._modules.items() if p == ruleset.game.name)
    return any(m.partition(".")[0] == package for m in games)


def _defined_in(func: object, module: str) -> bool:
    """Whether *func*'s code (if it has any) lies in the file of *module* (if it has one)."""
    file = getattr(sys.modules.get(module), "__file__", None)
    where = getattr(getattr(func, "__code__", None), "co_filename", None)
    if type(file) is not str or type(where) is not str or where == file:
        return True
    return os.path.realpath(where) == os.path.realpath(file)
