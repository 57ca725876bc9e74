"""The hook mark: how the driver knows a house rule's code ran during an ``apply``.

Each call of a house rule's code (a hook implementation, a function it answered) sets
:attr:`HookMark.value` to a value never used before, so the driver keeps a checkpoint
after that apply, and a restore never calls the rule again (see :doc:`/security`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from cardcore import _blame

if TYPE_CHECKING:
    from cardcore.plugins import Ruleset

__all__ = ["HookMark", "MovingMark", "counted_class"]


class HookMark:
    """The mark resolved hooks leave when they run: :attr:`Ruleset.hook_mark`'s holder.

    A slotted object, so the driver reads it in a few instructions after every apply.
    """

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


class MovingMark(HookMark):
    """A mark that has moved whenever it is read: a house rule answered a class, whose calls
    the core does not count, so every apply of the configuration keeps a checkpoint."""

    __slots__ = ()

    @property  # type: ignore[override]
    def value(self) -> object:
        return object()  # (never the one read before)

    @value.setter
    def value(self, mark: object) -> None:
        pass


def counted_class(ruleset: Ruleset, cls: type, plugin: str | None = None) -> type:
    """*cls*, a class a house rule's hook answered, as it is (``issubclass`` and
    ``isinstance`` work on it); a restore must never call it again, yet its calls are not
    counted, so from now on every apply of the configuration keeps a checkpoint. The code
    of its methods is *plugin*'s, so an error raised in them names the rule that answered
    it (:func:`cardcore.plugins.plugin_from_traceback`), wherever that code lies."""
    if _blame.is_cores(ruleset, cls):
        return cls
    ruleset.hooks.__class__ = MovingMark
    if plugin is not None:
        codes = ruleset.__dict__.setdefault("_class_codes", {})
        for klass in cls.__mro__:  # the rule's classes: not the standard library's, the
            if _library(klass) or _blame.is_cores(ruleset, klass):  # core's or the game's
                continue
            for member in vars(klass).values():
                for func in (member, *(getattr(member, n, None) for n in _INNER)):
                    code = getattr(func, "__code__", None)
                    if code is not None and not _blame.is_cores(ruleset, func):
                        codes.setdefault(code, plugin)  # (a game function it holds: the game's)
    return cls


def _library(klass: type) -> bool:
    """Whether *klass* comes from the standard library or cardcore (``UserDict``, ``Card``)."""
    top = str(getattr(klass, "__module__", "")).partition(".")[0]
    return top in sys.stdlib_module_names or top in ("builtins", "cardcore")


_INNER = ("__func__", "fget", "fset", "fdel")
"""Where a class member keeps its function: a static or class method's, a property's."""
