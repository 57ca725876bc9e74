"""The checks :func:`cardcore.register` makes before it accepts a game or house rule.

Split from :mod:`cardcore.plugins` (which keeps to finding and configuring
plugins). Installed entry points are not read here: they stay unloaded until
first use, and :func:`cardcore.game_info` and :func:`cardcore.rule_info` check
them then, with the same messages.
"""

from __future__ import annotations

from typing import Any

from cardcore import _declared
from cardcore._registrations import is_entry_point
from cardcore._text import shown, unprintable
from cardcore.errors import PluginError
from cardcore.info import GameInfo, RuleInfo

__all__ = ["check_registered"]

_DECLARES = {
    "cardcore.games": ("GAME", GameInfo, "game plugin"),
    "cardcore.rules": ("RULE", RuleInfo, "house-rule plugin"),
}


def check_registered(group: str, name: str, target: Any) -> None:
    """Refuse a game or house rule that declares no ``GAME``/``RULE``, or another name, and
    an agent whose name holds what would not print as it is (a control character) or what
    an agent spec cannot name (``:``, ``=``, ``,``, a space; an empty name).

    An entry point handed over unloaded (anything with ``load()`` and a text ``value``,
    not a module or class) is loaded and checked at first use instead, as installed ones are.

    :raises PluginError: Naming the plugin, as it would be named at first use.
    """
    if group == "cardcore.agents" and (why := unprintable(name)) is not None:
        msg = f"an agent's name must print as it is: {shown(name)} holds {why}"
        raise PluginError(msg, plugin=shown(name))
    if group == "cardcore.agents" and (not name or any(ch in name for ch in ":=, ")):
        msg = (
            f"an agent's name starts its specs (NAME:KEY=VALUE,...), so it is not empty and"
            f" holds no ':', '=', ',' or space: {shown(name)} could never be loaded"
        )
        raise PluginError(msg, plugin=shown(name))
    declares = _DECLARES.get(group)
    if declares is None or is_entry_point(target):
        return
    attr, kind, what = declares
    info = getattr(target, attr, None)
    if not isinstance(info, kind):
        found = (
            "" if info is None else f" (its {attr} is {type(info).__name__}, not {kind.__name__})"
        )
        msg = f"{what} {name!r} has no {attr} = {kind.__name__}(...){found}"
        raise PluginError(msg, plugin=name)
    _declared.check_declared_name(group, name, target)
