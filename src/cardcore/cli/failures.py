"""Plugins that fail to load: left out of a listing and named, never a reason to list nothing.

One broken third-party package (a module that raises at import, a ``RULE.name``
that is not its entry-point name) must not hide the games and rules that load.
``cardcore list`` and ``cardcore rules`` list what loads, then warn about each
plugin left out, with the reason; asking for a broken plugin by name still
raises its own error. No rich here.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from types import ModuleType

from cardcore.errors import CardcoreError, PluginError
from cardcore.info import RuleInfo
from cardcore.plugins import (
    _entries,
    _load,
    _rule_module,
    available_agents,
    available_games,
    game_info,
    load_agent,
)

__all__ = [
    "Failure",
    "agent_failures",
    "game_failures",
    "loading_games",
    "rule_by_id",
    "rule_failures",
    "warn",
]

Failure = tuple[str, str, str]
"""``(kind, name, reason)`` of a plugin that failed to load: kind ``game``, ``house rule`` or ``agent``."""


def loading_games() -> tuple[str, ...]:
    """The installed games whose plugin loads (and declares its ``GAME``), sorted."""
    failed = {name for _, name, _ in game_failures()}
    return tuple(name for name in available_games() if name not in failed)


def game_failures() -> list[Failure]:
    """Each installed game that fails to load, with the reason."""
    out = []
    for name in available_games():
        try:
            game_info(name)
        except CardcoreError as exc:
            out.append(("game", name, str(exc)))
    return out


def _rule_game(name: str) -> str:
    """The game a house rule that fails to load is for: its ``RULE.game`` when its module
    loads, else the start of its entry-point name (``hearts.jack`` -> ``hearts``)."""
    try:
        declared = getattr(_load("cardcore.rules", name), "RULE", None)
    except CardcoreError:
        declared = None
    if isinstance(declared, RuleInfo):
        return declared.game
    return name.split(".", 1)[0]


def rule_failures(game: str | None = None) -> list[Failure]:
    """Each installed house rule (of *game*, or of any game) that fails to load, with the reason."""
    out = []
    for name in sorted(_entries()["cardcore.rules"]):
        try:
            _rule_module(name)
        except CardcoreError as exc:
            if game is None or _rule_game(name) == game:
                out.append(("house rule", name, str(exc)))
    return out


def agent_failures() -> list[Failure]:
    """Each installed agent that fails to load, with the reason."""
    out = []
    for name in available_agents():
        try:
            load_agent(name)
        except CardcoreError as exc:
            out.append(("agent", name, str(exc)))
    return out


def rule_by_id(rule_id: str) -> tuple[ModuleType, RuleInfo] | None:
    """The house rule that declares *rule_id*, looking past rules that fail to load.

    :raises PluginError: The rule declaring *rule_id* fails its checks (such as a
        ``RULE.name`` that is not its entry-point name), or several rules declare it.
    """
    found: list[tuple[ModuleType, RuleInfo]] = []
    for name in sorted(_entries()["cardcore.rules"]):
        try:
            module, info = _rule_module(name)
        except PluginError as exc:
            try:
                declared = getattr(_load("cardcore.rules", name), "RULE", None)
            except CardcoreError:
                continue  # cannot say which ID it declares: warned about in the listing
            if getattr(declared, "id", None) == rule_id:
                raise exc  # the rule asked for is broken: its own error
            continue
        if info.id == rule_id:
            found.append((module, info))
    if len(found) > 1:
        both = ", ".join(info.name for _, info in found)
        msg = f"rule ID {rule_id!r} is declared by several installed house rules ({both}): name one by its name"
        raise PluginError(msg, plugin=found[-1][1].name)
    return found[0] if found else None


def warn(failures: Iterable[Failure]) -> int:
    """Write one warning line on standard error for each failure; return how many."""
    count = 0
    for kind, name, reason in failures:
        line = f"warning: left out {kind} {name!r}: {reason}"
        sys.stderr.write(" ".join(line.split()) + "\n")
        count += 1
    sys.stderr.flush()
    return count
