"""A class a house rule's hook answers, kept a class while its calls are guarded and tracked.

A scorer class (its ``__new__`` answering a number) runs the rule's code each time the game
calls it, so each call must set the hook mark and name the rule when it fails, as a function
answered does (:func:`cardcore._hookcall.guarded`). A function in its place would not be a
class: a game whose hook answers a class it checks with ``issubclass`` or ``isinstance``, or
reads class attributes of, would break. So the class answered is a subclass of the rule's,
made by a metaclass whose ``__call__`` is the guarded call, and which counts the rule's own
instances as its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["kept_class"]

_METAS: dict[type, type] = {}
"""The guarding metaclass made for each metaclass (``type`` for most classes)."""


def kept_class(cls: type, call: Callable[..., Any]) -> Any:
    """*cls* called through *call* (its guarded, tracked call) yet still a class of *cls*'s
    (a subclass: class attributes, class methods, ``issubclass``, and ``isinstance`` of the
    instances *cls* makes); *cls* itself when no subclass of it can be made (``bool``, an
    enum with members, a class that refuses subclasses): a class, unguarded."""
    try:
        meta = _METAS.get(type(cls)) or _guarding(type(cls))
        kept = meta(cls.__name__, (cls,), {"__module__": cls.__module__, "__doc__": cls.__doc__})
    except Exception:  # (a class closed to subclasses, a metaclass that refuses this)
        return cls
    kept.__qualname__ = cls.__qualname__
    kept._guarded_call = staticmethod(call)
    kept._guarded_class = cls
    kept._guarded = kept  # (itself: guarded already)
    return kept


def _guarding(meta: type) -> type:
    """A metaclass under *meta* whose classes make their instances by their guarded call."""

    def __call__(cls: Any, *args: Any, **kw: Any) -> Any:
        return cls._guarded_call(*args, **kw)

    def __instancecheck__(cls: Any, obj: object) -> bool:
        return isinstance(obj, cls._guarded_class)

    def __subclasscheck__(cls: Any, sub: type) -> bool:
        return issubclass(sub, cls._guarded_class)

    names: dict[str, Any] = {"__call__": __call__, "__instancecheck__": __instancecheck__}
    names["__subclasscheck__"] = __subclasscheck__
    made = type(f"Guarded{meta.__name__}", (meta,), names)
    if len(_METAS) < 64:
        _METAS[meta] = made
    return made
