"""Checks of what plugins declare, made when they are registered or a configuration is built.

Split from :mod:`cardcore.plugins` so that module keeps to finding and
configuring plugins. Each check raises a :class:`~cardcore.PluginError` naming
the plugin at fault, so a mistake shows where it is made, not as a confusing
failure later (a record that cannot be replayed, a hook pluggy ignores).
"""

from __future__ import annotations

import difflib
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import FunctionType, ModuleType
from typing import TYPE_CHECKING, Any

from cardcore._text import shown
from cardcore.errors import OptionError, PluginError, PluginWarning
from cardcore.info import GameInfo, RuleInfo, ViewField

if TYPE_CHECKING:
    import pluggy

    from cardcore.logic import GameLogic

__all__ = [
    "check_action_types",
    "check_declared_name",
    "check_hook_names",
    "check_hooks_marked",
    "check_implements_a_hook",
    "check_rule_set",
    "named_by_id",
    "same_id",
]


def check_declared_name(group: str, name: str, target: Any) -> None:
    """Refuse a game or house rule whose ``GAME.name``/``RULE.name`` is not *name*.

    Records store the declared name and replay looks the plugin up by it, so the
    two must be one.

    :raises PluginError: If they differ.
    """
    attr, kind = ("GAME", GameInfo) if group == "cardcore.games" else ("RULE", RuleInfo)
    info = getattr(target, attr, None)
    if isinstance(info, kind) and info.name != name:
        what = "game" if attr == "GAME" else "house rule"
        msg = (
            f"{what} plugin {name!r} declares {attr}.name = {info.name!r}: the name it is"
            f" registered under (entry point or cardcore.register) and {attr}.name must be"
            " the same, since records name the plugin by the latter"
        )
        raise PluginError(msg, plugin=name)


def check_hook_names(pm: pluggy.PluginManager, game: str) -> None:
    """Refuse hook implementations that no specification knows (a misspelled hook name).

    :raises PluginError: Naming the plugin, the hook and the closest hook names.
    """
    import pluggy

    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        bad = pm.get_name(exc.plugin) or str(exc.plugin)
        known = sorted(name for name, hc in vars(pm.hook).items() if getattr(hc, "spec", None))
        unknown = [
            name
            for name, hc in vars(pm.hook).items()
            if getattr(hc, "get_hookimpls", None) is not None
            and hc.spec is None
            and any(i.plugin is exc.plugin and not i.optionalhook for i in hc.get_hookimpls())
        ]
        hook = unknown[0] if unknown else "?"
        close = difflib.get_close_matches(hook, known, n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        msg = (
            f"plugin {bad!r} implements {hook!r}, which is not a hook of {game!r}"
            f"{hint} (mark it @hookimpl(optionalhook=True) if it is meant for another game)"
        )
        raise PluginError(msg, plugin=bad) from exc


def check_hooks_marked(pm: pluggy.PluginManager, module: ModuleType, plugin: str) -> None:
    """Refuse a function of *module* (or a namespace registered) named like a hook but not
    marked ``@hookimpl``.

    Pluggy ignores such a function, so the rule would silently do nothing.

    :raises PluginError: Naming the plugin and the function.
    """
    own = getattr(module, "__dict__", None)  # a module, or a namespace or class registered
    if not isinstance(own, Mapping):
        return
    specs = {name for name, hc in vars(pm.hook).items() if getattr(hc, "spec", None)}
    for name, value in list(own.items()):
        if (
            name in specs
            and isinstance(value, FunctionType)
            and not hasattr(value, "cardcore_impl")
            and not hasattr(value, "cardcore_spec")
        ):
            msg = (
                f"plugin {plugin!r} defines {name}() without @hookimpl (from cardcore import"
                " hookimpl), so it would never be called; mark it, or rename it if it is a helper"
            )
            raise PluginError(msg, plugin=plugin)


def check_implements_a_hook(pm: pluggy.PluginManager, module: Any, info: RuleInfo) -> None:
    """Warn (:class:`PluginWarning`) about a house rule implementing no hook of its game.

    Such a rule changes nothing. It warns rather than refuses, since a rule that
    only declares ``applies``, ``requires`` or ``conflicts`` is built that way on
    purpose in tests.
    """
    callers = pm.get_hookcallers(module) or []
    if not any(hc.spec is not None for hc in callers):
        msg = (
            f"house rule {info.name!r} implements no hook of {info.game!r} (each hook"
            f" function needs @hookimpl), so it changes nothing ({info.id})"
        )
        warnings.warn(msg, PluginWarning, stacklevel=5)


def check_rule_set(
    game: GameInfo, rules: Sequence[RuleInfo], installed: Callable[[], Iterable[RuleInfo]]
) -> None:
    """Check the chosen *rules* of *game* against each other, the game and the installed rules.

    *installed* is called (it reads every installed rule) only when a ``conflicts``
    entry names none of the chosen rules.

    * a rule of another game is refused (only a default rule gets here: one asked
      for is an ``OtherGameRuleError`` first), naming the game that declares it;
    * two rules with one ID are refused (a rule ID names one rule);
    * ``applies`` must name options the game declares, with values each option accepts;
    * a ``conflicts`` entry that names no installed rule warns:
      it may be a typo, or a rule of a package that is not installed (:class:`PluginWarning`).

    :raises PluginError: Naming the rule at fault.
    """
    by_id: dict[str, RuleInfo] = {}
    for info in rules:
        if info.game != game.name:
            msg = (
                f"{game.name!r} declares the default rule {info.name!r}, a rule of"
                f" {info.game!r}: a game's default rules must be its own ({info.id})"
            )
            raise PluginError(msg, plugin=game.name)
        other = by_id.setdefault(info.id.upper(), info)  # IDs name rules in any case (same_id)
        if other is not info and other.name != info.name:
            msg = (
                f"house rules {other.name!r} and {info.name!r} both declare the rule ID"
                f" {info.id!r}: a rule ID names one rule, so one of them must change it"
            )
            raise PluginError(msg, plugin=info.name)
        for name, values in info.applies.items():
            try:
                option = game.option(name)
            except KeyError:
                known = ", ".join(opt.name for opt in game.options) or "none"
                msg = (
                    f"house rule {info.name!r} applies to option {name!r}, which {game.name!r}"
                    f" does not declare (its options: {known}) ({info.id})"
                )
                raise PluginError(msg, plugin=info.name) from None
            for value in values:
                try:
                    option.check(value)
                except OptionError as exc:
                    msg = (
                        f"house rule {info.name!r} applies to {name} {shown(value)},"
                        f" a value {game.name!r} refuses: {exc} ({info.id})"
                    )
                    raise PluginError(msg, plugin=info.name) from None
    # names as written, rule IDs in any case (as the conflict itself is matched)
    refs = {ref for r in rules for ref in (r.name, str(r.id).upper())}
    unknown = [
        (info, ref)
        for info in rules
        for ref in info.conflicts
        if ref not in refs and ref.upper() not in refs
    ]
    if unknown:
        refs.update(ref for r in installed() for ref in (r.name, str(r.id).upper()))
        for info, ref in unknown:
            if ref not in refs and ref.upper() not in refs:
                msg = (
                    f"house rule {info.name!r} declares a conflict with {ref!r}, which is no"
                    f" installed rule's name or ID; check the spelling ({info.id})"
                )
                warnings.warn(msg, PluginWarning, stacklevel=4)


def check_action_types(logic: GameLogic[Any, Any], game: str) -> Any:
    """Build the default parser of *logic*'s ``action_types`` now, or ``None`` without them.

    :raises PluginError: Two classes with one verb, a class without a verb of its
        own, or a field the parser cannot read.
    """
    from cardcore.notation import ActionParser

    types = getattr(logic, "action_types", ())
    if not types:
        return None
    try:
        return ActionParser(types)
    except TypeError as exc:
        msg = f"game {game!r} lists action_types the default parser refuses: {exc}"
        raise PluginError(msg, plugin=game) from exc


def same_id(rule_id: object, ref: str) -> bool:
    """Whether *ref* names the rule ID *rule_id*, in any case (``golf-score-2`` names
    ``GOLF-SCORE-2``): a rule asked for by ID is found however it is typed."""
    return type(rule_id) is str and rule_id.upper() == ref.upper()


def named_by_id(names: Iterable[str], ref: object, rule_id: Callable[[str], object]) -> list[str]:
    """The installed house rules among *names* whose rule ID (``rule_id(name)``) *ref* is,
    in any case; none when *ref* is no text."""
    return [n for n in names if same_id(rule_id(n), ref)] if type(ref) is str else []


def check_game_parts(game: GameInfo, bad: Callable[[str], PluginError]) -> None:
    """Refuse a game's *summary* or *version* that is no text, a *version* that is no
    version (PEP 440, as :data:`cardcore.records` reads a record's: every record carries it),
    *realtime* or *zero_sum* that is no bool, *fields* that are not view fields, *notes*
    that cannot be called and *hookspecs* holding no ``@hookspec`` function (pluggy would
    refuse it only when a game is dealt): *bad* makes the error."""
    from cardcore._versions import is_release

    for what in ("summary", "version"):
        if not isinstance(getattr(game, what), str):
            raise bad(f"{what}={shown(getattr(game, what))}: a str is wanted")
    if not is_release(game.version):
        raise bad(
            f"version={shown(game.version)}: a version as a package writes it (PEP 440, at"
            " most 64 characters), such as '1.0.0' or '1.1.0rc1'"
        )
    for what in ("realtime", "zero_sum"):
        if type(getattr(game, what)) is not bool:
            raise bad(f"{what}={shown(getattr(game, what))}: True or False is wanted")
    fields = game.fields
    if not isinstance(fields, tuple | list) or not all(isinstance(f, ViewField) for f in fields):
        raise bad(f"fields={shown(fields, 60)}: a tuple of ViewField is wanted")
    object.__setattr__(game, "fields", tuple(fields))  # (a list: one spelling, hashable)
    if game.notes is not None and not callable(game.notes):
        raise bad(f"notes={shown(game.notes, 40)}: a function (or None) is wanted")
    spec = game.hookspecs
    if spec is not None and not any(
        hasattr(getattr(spec, n, None), "cardcore_spec") for n in dir(spec)
    ):
        raise bad(f"hookspecs={shown(spec, 40)}: a module of @cardcore.hookspec functions")
