"""Which configurations of a game to check, chosen from what the plugins declare.

A house rule says where it applies (``RuleInfo.applies``), what it conflicts
with and what it requires; a game says its options, their choices and its
default rules. :func:`configurations` reads that data to list every layout,
every rule alone and every allowed pair under options they all serve,
without starting a game to find out.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from attrs import field, frozen

from cardcore._declared import same_id
from cardcore._options import read_aliases
from cardcore._text import shown
from cardcore.errors import ArgumentError, CardcoreError, OtherGameRuleError
from cardcore.info import GameInfo, RuleInfo
from cardcore.plugins import available_rules, game_info, get_ruleset, rule_info

__all__ = ["Configuration", "applicable_options", "configurations", "rule_names"]


def _freeze(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(dict(options).items()))


@frozen
class Configuration:
    """One configuration to check: a game, its seats, house rules and options.

    :param game: The game's name.
    :param players: Seats.
    :param rules: House rules added (entry-point names).
    :param without: Default rules switched off.
    :param options: The options given (``(name, value)`` pairs, sorted).
    """

    game: str
    players: int
    rules: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = field(default=(), converter=_freeze)

    @property
    def id(self) -> str:
        """A readable id: ``golf-2p-layout=4-golf.jokers``."""
        parts = [self.game, f"{self.players}p"]
        parts += [f"{k}={v}" for k, v in self.options]
        parts += list(self.rules)
        parts += [f"without:{w}" for w in self.without]
        return "-".join(parts)

    def kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :func:`cardcore.testing.check_game` for this configuration."""
        return {
            "players": self.players,
            "rules": self.rules,
            "without": self.without,
            "options": dict(self.options),
        }


def _distinct(values: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    seen: set[str] = set()
    for v in values:
        key = str(v).lower()  # 10 and "10", "4h" and "4H": one layout
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def rule_names(what: str, names: Any) -> tuple[Any, ...]:
    """*names* (the kit's ``rules=`` or ``without=``) as a tuple, as :func:`cardcore.new_game`
    reads them; one name given as text would be read letter by letter, so it is refused.

    :raises ArgumentError: For text, a mapping or anything that is not an iterable of names.
    """
    if not isinstance(names, str | bytes | bytearray | Mapping) and isinstance(names, Iterable):
        try:
            return tuple(names)
        except Exception:  # an iterable that fails as it is read
            pass
    msg = f"{what} takes a list of names, not {shown(names)}"
    raise ArgumentError(msg)


def applicable_options(
    game: str | GameInfo, rules: Iterable[str | RuleInfo]
) -> dict[str, Any] | None:
    """Return options under which every rule of *rules* applies, or ``None`` if there are none.

    Read from each rule's ``applies``: an option keeps its default where every
    rule serves it, and otherwise takes the first value that every rule serves.

    >>> applicable_options("golf", ["golf.diagonal-pairs"])  # doctest: +SKIP
    {'layout': 4}

    :param game: The game: its name (as the kit's other functions take it) or its
        :class:`~cardcore.GameInfo`.
    :param rules: The house rules that must all apply, each an entry-point name, a rule
        ID or a :class:`~cardcore.RuleInfo` (a list: one name alone is not read as text).
    :returns: Only the options that differ from the defaults (``{}``: the defaults serve).
    :raises UnknownPluginError: A game or house rule that is not installed.
    :raises OtherGameRuleError: A house rule of another game.
    :raises ArgumentError: *rules* given as one text, or not as an iterable.
    """
    info = game if isinstance(game, GameInfo) else game_info(game)
    infos = [r if isinstance(r, RuleInfo) else rule_info(r) for r in rule_names("rules", rules)]
    _of_game(info, infos)
    return _applicable(info, infos)


def _of_game(game: GameInfo, rules: Iterable[RuleInfo]) -> None:
    """Refuse a rule of *rules* that belongs to another game than *game*.

    :raises OtherGameRuleError: Naming the first such rule and its game.
    """
    for rule in rules:
        if rule.game != game.name:
            msg = (
                f"house rule {rule.name!r} belongs to {rule.game!r}, not {game.name!r} ({rule.id})"
            )
            raise OtherGameRuleError(msg)


def _applicable(game: GameInfo, rules: Sequence[RuleInfo]) -> dict[str, Any] | None:
    """:func:`applicable_options` of rules already read (and of *game*)."""
    defaults = game.resolve_options(None)
    declared = {opt.name: opt for opt in game.options}
    out: dict[str, Any] = {}
    names = {name for info in rules for name in info.applies}
    for name in sorted(names):
        served: list[Any] | None = None
        for info in rules:
            values = info.applies.get(name)
            if values is None:
                continue
            if name in declared:  # an alias read as the value it names
                values = tuple(read_aliases(declared[name], values))
            served = list(values) if served is None else [v for v in served if v in values]
        if not served:
            return None
        if name in defaults and defaults[name] in served:
            continue
        out[name] = served[0]
    return out


def _requirements(rules: Sequence[RuleInfo], installed: Mapping[str, RuleInfo]) -> list[str] | None:
    """The entry-point names of the rules *rules* require (``None`` if one is not installed)."""
    out: list[str] = []
    chosen = [*rules]
    for info in rules:
        for ref in info.requires:
            if any(_names(ref, r) for r in chosen):
                continue
            found = next((r for r in installed.values() if _names(ref, r)), None)
            if found is None:
                return None
            out.append(found.name)
            chosen.append(found)
    return out


def _names(ref: str, info: RuleInfo) -> bool:
    """Whether *ref* names *info*: its name, or its rule ID in any case (as the core reads it)."""
    return ref == info.name or same_id(info.id, ref)


def _conflict(a: RuleInfo, b: RuleInfo) -> bool:
    return any(_names(ref, b) for ref in a.conflicts) or any(_names(ref, a) for ref in b.conflicts)


SEATS_CHECKED = 8
"""The most seats :func:`configurations` chooses; a game seating more is checked at this many."""


def _seats(name: str, info: GameInfo) -> list[int]:
    """The fewest seats, two more, and the most (at most ``SEATS_CHECKED``) the game accepts."""
    low = info.min_players
    high = min(info.max_players, max(low, SEATS_CHECKED))
    ruleset = get_ruleset(name)  # with the default rules, and their own options
    options = ruleset.resolve_options(None)

    def accepted(players: int) -> bool:
        try:
            ruleset.logic.validate(players, options)  # an option's default may narrow the seats
        except CardcoreError:
            return False
        return True

    out = [low]
    middle = min(low + 2, high)
    if middle > low and accepted(middle):
        out.append(middle)
    for players in range(high, out[-1], -1):  # the most seats the defaults accept
        if accepted(players):
            out.append(players)
            break
    return out


def configurations(
    name: str, *, pairs: bool = False, rules: Sequence[str] | None = None
) -> Iterator[Configuration]:
    """Yield the configurations of game *name* worth checking, chosen from declared data.

    In order: the defaults at the fewest seats, at two more than the fewest and
    at the most seats, each once and only if the game accepts it with its
    default options (the most is capped at 8, so a game seating up to 64 is
    checked at 8, the fewest plus two and the fewest; when the most is refused,
    the most that is accepted). Then, at the fewest seats: each choice of each
    option (a default rule's own options too), each default rule switched off,
    each optional house rule alone (then with each choice of each of its own
    options), and (with *pairs*) each pair of optional house rules that declare
    no conflict and serve common options. A rule comes with the rules it requires
    (installed ones outside *rules* too) and with options it applies to (``RuleInfo.applies``).

    :param name: An installed game.
    :param pairs: Also yield pairs of house rules.
    :param rules: The optional house rules to consider (default: every installed one).
    :raises ArgumentError: *rules* given as one text, or not as an iterable.
    :raises UnknownPluginError: A house rule of *rules* that is not installed.
    :raises OtherGameRuleError: A house rule of *rules* of another game (as
        :func:`applicable_options`).
    """
    info = game_info(name)
    name = info.name  # plain text (a subclass of str could compare its own way)
    names = available_rules(name) if rules is None else rule_names("rules", rules)
    installed = {n: rule_info(n) for n in names if n not in info.default_rules}
    _of_game(info, installed.values())
    low = info.min_players
    for players in _seats(name, info):
        yield Configuration(name, players)
    for opt in info.options:
        for value in _distinct(opt.choices or ()):
            if value != opt.default:
                yield Configuration(name, low, options={opt.name: value})
    defaults = [rule_info(d) for d in info.default_rules]
    for opt in (o for d in defaults for o in d.options):  # a default rule's own options
        for value in _distinct(opt.choices or ()):
            if value != opt.default:
                yield Configuration(name, low, options={opt.name: value})
    for rule in info.default_rules:
        yield Configuration(name, low, without=(rule,))
    groups: list[tuple[RuleInfo, ...]] = [(r,) for r in installed.values()]
    if pairs:
        groups += [
            (a, b) for a, b in itertools.combinations(installed.values(), 2) if not _conflict(a, b)
        ]
    others: dict[str, RuleInfo] | None = None  # every rule: one required from outside *rules*
    for group in groups:
        needed = _requirements(group, installed)
        if needed is None and rules is not None:
            if others is None:
                others = {
                    n: rule_info(n) for n in available_rules(name) if n not in info.default_rules
                }
            needed = _requirements(group, others)
        if needed is None:
            continue
        known = {**installed, **(others or {})}
        every = [*group, *(known[n] for n in needed)]
        if any(_conflict(a, b) for a, b in itertools.combinations(every, 2)):
            continue
        off = tuple(sorted(d.name for d in defaults if any(_conflict(d, r) for r in every)))
        active = [d for d in defaults if d.name not in off]
        options = _applicable(info, [*every, *active])
        if options is None:
            continue
        chosen = tuple(sorted({r.name for r in every}))
        yield Configuration(name, low, rules=chosen, without=off, options=options)
        for opt in (o for r in group for o in r.options) if len(group) == 1 else ():
            for value in _distinct(opt.choices or ()):  # each choice of the rule's own options
                if value != opt.default:
                    more = {**options, opt.name: value}
                    yield Configuration(name, low, rules=chosen, without=off, options=more)
