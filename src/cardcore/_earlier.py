"""The house rules that keep what a game did by default in an earlier version.

A house rule declares it with :attr:`RuleInfo.default_before <cardcore.RuleInfo>`;
replays, loads and stored sessions add such rules to what a record made with an
earlier version of the game names, so it replays as it was played. Only a rule
shipped in the game's own package counts, and only for a version the installed
game has reached: another package cannot rewrite how the game's records replay.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from cardcore._text import plain, shown
from cardcore._versions import version_key
from cardcore.errors import ArgumentError, CardcoreError, CorruptStateError, OptionError

__all__ = ["earlier_rules", "joining", "rules_of_the_day"]

_Key = tuple[int, int, int, int]  # a version as _versions.version_key orders it
_CACHE: dict[str, tuple[_Key, tuple[tuple[str, _Key], ...] | None]] = {}
"""Per game: the installed version, and (once a record of an earlier version asked) each rule
of its package with a ``default_before`` and that version. Cleared by :func:`cardcore.register`
and :func:`cardcore.unregister`."""


_GENERATION = [0]
"""Bumped (under the plugins' lock) by :func:`invalidate`: an answer worked out while the
plugins changed is not kept."""

_RELEASE = re.compile(
    r"[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?(\+[a-z0-9.]+)?", re.ASCII
)
"""A version as a package writes it (PEP 440), as a record's ``game_version`` is read."""


def invalidate() -> None:
    """Forget every cached answer: a game or a rule was registered or unregistered."""
    _GENERATION[0] += 1
    _CACHE.clear()


def _package(target: object) -> str | None:
    """The top-level package a plugin target comes from (``None``: unknown, matches nothing);
    in a namespace package, which several distributions share, the package below it."""
    name = getattr(target, "__name__", None) if isinstance(target, ModuleType) else None
    if name is None:
        name = getattr(target, "__module__", None)
    if not (isinstance(name, str) and name):
        return None
    parts = name.split(".")
    depth = 1  # below namespace packages (no __init__ of their own: several distributions')
    while depth < len(parts):
        package = sys.modules.get(".".join(parts[:depth]))
        if package is None or getattr(package, "__file__", None) is not None:
            break
        if getattr(package, "__path__", None) is None:  # a module made in memory
            break
        depth += 1
    return ".".join(parts[:depth])


def earlier_rules(game: str, version: str) -> tuple[str, ...]:
    """Return the installed house rules of *game* that keep what its *version* did by default.

    ``earlier_rules("speed", "0.2.0")`` is ``("speed.stuck-on-request",)``: Speed
    turns the side cards when nobody can play since 0.3.0. A rule counts only if
    it ships in the game's own package (in a namespace package, the game's own
    subpackage) and names a version the installed game has reached. A record adds
    only those whose ``RuleInfo.applies`` serves its options.

    :param game: An installed game.
    :param version: The game version a record, save or stored session was made with, in
        PEP 440's normal form (a pre-release such as ``"0.5a1"`` orders just before its
        release; ``"0.5A1"`` or ``"0.5-rc1"``, not normalized, are refused).
    :raises UnknownPluginError: *game* is not installed.
    :raises ArgumentError: *game* or *version* is not text, or *version* is not a version.
    """
    game, version = plain(game), plain(version)  # a str subclass could hash its own way
    if type(game) is not str or type(version) is not str:
        msg = f"earlier_rules takes a game name and a version text, not {shown(game)}, {shown(version)}"
        raise ArgumentError(msg)
    if len(version) > 64 or not _RELEASE.fullmatch(version):
        msg = f"earlier_rules takes a version such as '0.3.0', not {shown(version, 40)}"
        raise ArgumentError(msg)
    mine = version_key(version)
    generation = _GENERATION[0]
    cached = _CACHE.get(game)
    if cached is None:
        from cardcore import plugins

        cached = (version_key(plugins.game_info(game).version), None)
        if _GENERATION[0] == generation:
            _CACHE[game] = cached
    installed, known = cached
    if mine >= installed:  # a record of the installed version: nothing to scan
        return ()
    if known is None:
        from cardcore import plugins

        home = _package(plugins._load("cardcore.games", game))
        found = []
        for name in plugins.available_rules(game):
            module, rule = plugins._rule_module(name)
            before = rule.default_before
            if before is None or home is None or _package(module) != home:
                continue
            key = version_key(before)
            if key <= installed:
                found.append((name, key))
        known = tuple(found)
        if _GENERATION[0] == generation:  # the plugins did not change meanwhile
            _CACHE[game] = (installed, known)
    return tuple(name for name, before in known if mine < before)


def rules_of_the_day(rec: Mapping[str, Any]) -> tuple[str, ...]:
    """The house rules that keep the defaults of the game version *rec* was made with
    (:func:`earlier_rules`), beyond those it names.

    :raises CorruptStateError: The plugins changed while the record was read.
    """
    version = rec.get("game_version")
    if not isinstance(version, str):  # refused by the record's full checks
        return ()
    try:
        earlier = earlier_rules(rec["game"], version)
        if not earlier:  # a record of the installed version
            return earlier
        from cardcore import plugins

        chosen = [str(r["name"]) for r in rec["rules"]]
        named = {*chosen, *map(str, rec["without"]), *(str(r.get("id")) for r in rec["rules"])}
        added = [r for r in earlier if r not in named and plugins.rule_info(r).id not in named]
        options = rec.get("options")
        return joining(rec["game"], added, chosen, options if isinstance(options, Mapping) else {})
    except CardcoreError as exc:
        msg = f"record cannot start its game: {exc}"
        raise CorruptStateError(msg) from None


def joining(
    game: str, added: Sequence[str], chosen: Sequence[str], options: Mapping[str, Any]
) -> tuple[str, ...]:
    """Of the earlier-default rules *added* to the rules *chosen*, those that can join them:
    served by their ``applies`` (judged on the game's *options*, its defaults filled in), their
    ``requires`` met and no conflict either way. One that cannot kept nothing of that game
    (it serves other options, or another rule stood in its way), so it is left out.

    :raises CardcoreError: A rule or the game is not installed.
    """
    from cardcore import plugins

    info = plugins.game_info(game)
    own = {opt.name for opt in info.options}
    try:  # (a rule's own option is not the game's: left out here)
        resolved = info.resolve_options({k: v for k, v in options.items() if k in own})
    except (CardcoreError, TypeError):  # refused where the game is built
        resolved = options
    infos = {name: plugins.rule_info(name) for name in (*added, *chosen) if name}
    keep = []
    for name in added:
        try:
            infos[name].check_applies(resolved, info)
        except OptionError:
            continue
        keep.append(name)
    while True:  # drop those a requirement or a conflict rules out, until none is
        present = {x.upper() for r in (*keep, *chosen) if r in infos for x in (r, infos[r].id)}
        out = [
            r for r in keep
            if any(q.upper() not in present for q in infos[r].requires)
            or any(c.upper() in present for c in infos[r].conflicts)
            or any({r.upper(), infos[r].id.upper()} & {c.upper() for c in infos[o].conflicts} for o in chosen if o in infos)
        ]  # fmt: skip
        if not out:
            return tuple(keep)
        keep = [r for r in keep if r not in out]
