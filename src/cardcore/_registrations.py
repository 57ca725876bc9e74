"""What :func:`cardcore.register` replaced, so :func:`cardcore.unregister` puts it back.

Each ``register`` of a name pushes what the name held before (an installed entry point, an
earlier registration, or nothing); each ``unregister`` pops it, so the documented pattern
(register, use, unregister in ``finally``) leaves the registry as it found it, nested or
not. ``unregister`` of a name nothing was registered over hides it for the process.
The callers hold the plugin lock.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

from cardcore._text import plain, shown
from cardcore.errors import ArgumentError, PluginError, UnknownPluginError
from cardcore.info import RuleInfo

__all__ = ["check_group", "check_requires", "forgetters", "is_entry_point", "pop", "push"]

forgetters: list[Callable[[], None]] = []
"""What else drops its cached configurations when a plugin comes or goes (search's samplers)."""

_NOTHING = object()
"""Pushed for a name that held nothing: unregister then removes it."""

_replaced: dict[tuple[str, str], list[Any]] = {}


def check_group(group: str, groups: tuple[str, ...]) -> str:
    """Return *group* as plain text; refuse a plugin group that is not one of *groups*."""
    group = plain(group)  # a str subclass could compare its own way
    if type(group) is not str or group not in groups:
        msg = f"unknown plugin group {shown(group, 60)} (expected one of {', '.join(groups)})"
        raise UnknownPluginError(msg)
    return group


def check_name(name: str) -> str:
    """Return a plugin's *name* as plain text; refuse a name that is no text (it could not be
    found, nor unregistered, by its name)."""
    name = plain(name)
    if type(name) is not str:
        raise ArgumentError(f"a plugin is registered under a name (text), not {shown(name, 60)}")
    return name


def push(entries: dict[str, Any], group: str, name: str, target: Any) -> None:
    """Put *target* under *name* in *entries* (the names of *group*), remembering what it replaces."""
    _replaced.setdefault((group, name), []).append(entries.get(name, _NOTHING))
    entries[name] = target


def pop(entries: dict[str, Any], group: str, name: str) -> None:
    """Undo the latest :func:`push` of *name*: what it replaced comes back (or, with no
    push left, the name is removed)."""
    stack = _replaced.get((group, name))
    before = stack.pop() if stack else _NOTHING
    if stack == []:
        del _replaced[group, name]
    if before is _NOTHING:
        del entries[name]
    else:
        entries[name] = before


def check_requires(
    game: str, rules: Iterable[RuleInfo], installed: Callable[[], Iterable[RuleInfo]]
) -> None:
    """Refuse a chosen rule that requires a rule of another game: it can never be chosen.

    *installed* is called (it reads every installed rule) only when a requirement names
    none of the chosen *rules*; a requirement of this game's that is not chosen is the
    caller's to report.

    :raises PluginError: Naming the rule at fault.
    """
    chosen = list(rules)
    refs = {ref for r in chosen for ref in (r.name, r.id.upper())}  # an ID in any case (same_id)
    missing = [
        (info, ref)
        for info in chosen
        for ref in info.requires
        if ref not in refs and ref.upper() not in refs
    ]
    if not missing:
        return
    everything = list(installed())
    own = {ref for r in everything if r.game == game for ref in (r.name, r.id.upper())}
    others = {ref: r for r in everything if r.game != game for ref in (r.name, r.id.upper())}
    for info, ref in missing:
        other = others.get(ref, others.get(ref.upper()))
        if other is not None and ref not in own and ref.upper() not in own:
            msg = (
                f"house rule {info.name!r} requires {ref!r}, a rule of {other.game!r}, not of"
                f" {game!r}: it can never be chosen with it, so the rule must require a rule"
                f" of {game!r} or none ({info.id})"
            )
            raise PluginError(msg, plugin=info.name)


def is_entry_point(target: Any) -> bool:
    """Entry points from importlib.metadata or its backport (dask workers may load the latter)."""
    metadata = sys.modules.get("importlib.metadata")  # (not loaded: no entry point exists yet)
    if metadata is not None and isinstance(target, metadata.EntryPoint):
        return True
    return (  # (or anything like one handed to register: a load() and its value, as text)
        not isinstance(target, ModuleType | type)
        and callable(getattr(target, "load", None))
        and isinstance(getattr(target, "value", None), str)
    )
