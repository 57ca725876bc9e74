"""Which plugin's hook implementation gave an answer the game refuses (for error messages).

Split from :mod:`cardcore.logic`, whose :meth:`~cardcore.GameLogic.refused_answer` uses it.
Runs only once an answer is refused, never on a hot path.
"""

from __future__ import annotations

import contextlib
import functools
import types
from collections.abc import Mapping
from typing import Any

_PLAIN = (int, float, complex, str, bytes, bool, type(None))


def answerer(hook: Any, answer: Any, asked: Mapping[str, Any]) -> str | None:
    """The plugin whose implementation of *hook* (a pluggy hook caller) gave *answer*.

    Each implementation whose arguments are all in *asked* is asked again, in the order
    the game asks them: for a ``firstresult`` hook the first one to answer is the one,
    otherwise the first whose answer is *answer* or one alike (a function made afresh on
    each call: a lambda, a closure or a ``functools.partial`` of one function; equal plain
    values). *answer* may be the function the core wraps to guard a house rule's answer.
    ``None`` when no implementation can be told.
    """
    first = bool(getattr(hook.spec, "opts", {}).get("firstresult"))
    made = answer
    if type(answer) is types.FunctionType:  # the core's guard keeps the function it wraps
        made = vars(answer).get("__wrapped__", answer)
    for impl in reversed(hook.get_hookimpls()):
        if impl.wrapper or impl.hookwrapper:
            continue
        if not set(impl.argnames) <= asked.keys():
            if first:  # it may be the one that answered: which one did is not known
                return None
            continue
        with contextlib.suppress(Exception):  # asked again only to find whose it is
            again = impl.function(*[asked[name] for name in impl.argnames])
            if again is not None and (first or alike(again, answer) or alike(again, made)):
                return str(impl.plugin_name)
    return None


def alike(one: Any, other: Any, depth: int = 2) -> bool:
    """Whether *one* and *other*, the answers of one implementation asked twice, are one answer.

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
        return bool(one.__self__ is other.__self__ and alike(one.__func__, other.__func__))
    if kind is functools.partial:
        return depth > 0 and alike(one.func, other.func, depth - 1)
    if kind in (list, tuple):
        return (
            depth > 0
            and len(one) == len(other)
            and all(alike(a, b, depth - 1) for a, b in zip(one, other, strict=True))
        )
    return kind in _PLAIN and bool(one == other)
