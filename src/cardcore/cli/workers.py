"""Worker processes for ``--workers``: they see the plugins this process registered.

``--workers`` starts fresh processes (forkserver or spawn: the progress bar runs a
thread, and forking a threaded process is unsafe), which find only installed plugins.
A plugin registered in this process with :func:`cardcore.register` (a script that
registers its game, then calls :func:`cardcore.cli.main`) is registered again in each
worker from its module's name; one that no worker can import (a module built in place)
is refused before any game starts, in words that say why.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import sys
from collections.abc import Collection
from types import ModuleType
from typing import Any

from cardcore._registrations import is_entry_point
from cardcore.cli.args import UsageError

__all__ = ["adopt", "agent_names", "named", "registered_here"]

Registration = tuple[str, str, str, str]
"""``(group, name, module, attribute)``: a plugin a worker imports (``attribute`` empty for a
module) and registers under *name*."""


def registered_here(
    game: str,
    agents: Collection[str] = (),
    rules: Collection[str] = (),
    without: Collection[str] = (),
) -> list[Registration]:
    """Every plugin registered in this process, as a worker imports it again, and every
    installed one :func:`cardcore.unregister` hid here (``module`` empty: hidden there too).

    :raises UsageError: *game*, one of its chosen *rules* or default ones (less those
        switched off, *without*), or one of *agents* was registered from a module no
        worker can import.
    """
    from cardcore.plugins import _entries

    out: list[Registration] = []
    needed = _rule_names(game, rules, without)
    installed = importlib.metadata.entry_points()
    for group, entries in _entries().items():
        out += [
            (group, ep.name, "", "")
            for ep in installed.select(group=group)
            if ep.name not in entries
        ]
        for name, target in list(entries.items()):
            if is_entry_point(target):
                continue
            where = _importable(target)
            if where is not None:
                out.append((group, name, *where))
            elif _needed(group, name, game, agents, needed):
                kind = group.rsplit(".", 1)[-1][:-1]  # "game", "rule", "agent"
                msg = (
                    f"{kind} {name!r} was registered in this process from a module no worker"
                    " process can import, and --workers starts fresh processes: install it as"
                    " an entry point, register it from an importable module, or leave out"
                    " --workers"
                )
                raise UsageError(msg)
    return out


def agent_names(*lineups: Collection[str] | None) -> set[str]:
    """The agents' names in line-ups of specs (``"ismcts:iterations=50"`` is ``ismcts``)."""
    from cardcore._agentspec import parse_agent_spec

    names = set()
    for specs in lineups:
        for spec in specs or ():
            try:
                names.add(parse_agent_spec(spec)[0])
            except Exception:  # refused in its own words elsewhere
                continue
    return names


def adopt(registrations: list[Registration]) -> None:
    """Register *registrations* in this worker (a pool's initializer)."""
    from cardcore.plugins import register, unregister

    for group, name, module, attribute in registrations:
        try:
            if not module:  # hidden in the process that started this one
                unregister(group, name)
                continue
            target: Any = importlib.import_module(module)
            for part in attribute.split(".") if attribute else ():
                target = getattr(target, part)
            register(group, name, target)
        except Exception:  # the worker goes on: a game that needs it says so
            continue


def _importable(target: Any) -> tuple[str, str] | None:
    """``(module, attribute)`` that import *target* again, or ``None``."""
    module: Any = (
        target.__name__ if isinstance(target, ModuleType) else getattr(target, "__module__", None)
    )
    attribute: Any = "" if isinstance(target, ModuleType) else getattr(target, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(attribute, str) or "<" in attribute:
        return None
    found: Any = sys.modules.get(module)
    if found is None:
        return None
    if module == "__main__":  # a script: workers import it again (not ``python -c``, a REPL)
        if not isinstance(getattr(found, "__file__", None), str):
            return None
    elif getattr(found, "__spec__", None) is None:  # built in place (types.ModuleType)
        return None
    for part in attribute.split(".") if attribute else ():
        found = getattr(found, part, None)
    return (module, attribute) if found is target else None


def named(refs: Collection[str]) -> set[str]:
    """*refs* (rule names or rule IDs) with the name of each rule they refer to, so two
    spellings of one rule meet in a set operation."""
    from cardcore.errors import CardcoreError
    from cardcore.plugins import rule_info

    names = set(refs)
    for ref in refs:
        with contextlib.suppress(CardcoreError):  # refused in its own words elsewhere
            names.add(rule_info(ref).name)
    return names


def _rule_names(game: str, rules: Collection[str], without: Collection[str]) -> set[str]:
    """The house rules a command of *game* plays: the chosen *rules* (names or rule IDs)
    and the game's default ones but those switched off (*without*)."""
    from cardcore.errors import CardcoreError
    from cardcore.plugins import game_info

    played = named(rules)
    with contextlib.suppress(CardcoreError):  # an unknown game: refused elsewhere
        played.update(set(game_info(game).default_rules) - named(without))
    return played


def _needed(group: str, name: str, game: str, agents: Collection[str], rules: set[str]) -> bool:
    if group == "cardcore.games":
        return name == game
    if group == "cardcore.rules":
        return name in rules
    return name in agents
