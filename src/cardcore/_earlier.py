"""The house rules that keep what a game did by default in an earlier version.

A house rule declares it with :attr:`RuleInfo.default_before <cardcore.RuleInfo>`;
replays, loads and stored sessions add such rules to what a record made with an
earlier version of the game names, so it replays as it was played.
"""

from __future__ import annotations

from cardcore.info import version_key

__all__ = ["earlier_rules"]

_CACHE: dict[str, tuple[tuple[str, tuple[int, ...]], ...]] = {}
"""Per game: each installed rule with a ``default_before``, and that version (cleared by
:func:`cardcore.register` and :func:`cardcore.unregister`)."""


def earlier_rules(game: str, version: str) -> tuple[str, ...]:
    """Return the installed house rules of *game* that keep what its *version* did by default.

    ``earlier_rules("speed", "0.2.0")`` is ``("speed.stuck-on-request",)``: Speed
    turns the side cards when nobody can play since 0.3.0.

    :param game: An installed game.
    :param version: The game version a record, save or stored session was made with.
    :raises UnknownPluginError: *game* is not installed.
    """
    known = _CACHE.get(game)
    if known is None:
        from cardcore.plugins import available_rules, rule_info

        found = []
        for name in available_rules(game):
            before = rule_info(name).default_before
            if before is not None:
                found.append((name, version_key(before)))
        known = _CACHE[game] = tuple(found)
    mine = version_key(version)
    return tuple(name for name, before in known if mine < before)
