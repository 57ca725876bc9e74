"""Options as one configuration declares them: the game's, and those of its chosen house rules.

A house rule may declare parameters of its own (``RuleInfo.options``); with the rule
chosen they are checked and filled in exactly like the game's, so everything that
resolves options (``new_game``, records, views, sessions, the command line) asks the
configuration, not the game alone.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NoReturn

from cardcore._text import one_of, plain, shown
from cardcore._versions import is_version
from cardcore.errors import OptionError, PluginError

if TYPE_CHECKING:
    from cardcore.info import GameInfo, Option, RuleInfo
    from cardcore.plugins import Ruleset

__all__ = [
    "SPELLING",
    "FrozenMap",
    "bound_text",
    "check_aliases",
    "check_choices",
    "check_declared",
    "check_defaults",
    "choice_key",
    "combined",
    "each_once",
    "frozen_aliases",
    "frozen_applies",
    "frozen_map",
    "in_order",
    "is_choice",
    "read_aliases",
    "read_only_map",
    "read_stored_options",
    "resolve",
    "resolve_for",
]


def check_declared(
    options: tuple[Any, ...], bad: Callable[[str], PluginError], *, hashable: bool = False
) -> None:
    """Refuse declared *options* that are no :class:`Option`, two of one name, a *doc* that
    is no ``str`` or a *nullable* that is no ``bool``, or texts
    ``cardcore list`` cannot print (a line break or a tab may wrap a doc); with *hashable*
    (a house rule's), a default or a choice that cannot be hashed: the rule's values join
    the game's options, which a game may use as a key."""
    from cardcore._text import unprintable
    from cardcore.info import Option

    seen: set[str] = set()
    for opt in options:
        if not isinstance(opt, Option):
            raise bad(f"an option that is not an Option: {shown(opt)}")
        if not (isinstance(opt.name, str) and opt.name):
            raise bad(f"an option whose name is not a non-empty str: {shown(opt.name)}")
        if opt.name in seen:
            raise bad(f"two options named {opt.name!r}")
        if type(opt.doc) is not str:  # `cardcore list` and a lobby's form print it
            raise bad(f"option {opt.name!r} whose doc is not a str: {shown(opt.doc)}")
        if type(opt.nullable) is not bool:  # "no" would read as true
            raise bad(f"option {opt.name!r} whose nullable is not a bool: {shown(opt.nullable)}")
        seen.add(opt.name)
        for text in (opt.name, opt.doc, opt.default, *(opt.choices or ())):
            why = unprintable(text, text is opt.doc)
            if why is not None:
                raise bad(f"option {shown(opt.name, 40)} text {shown(text, 60)}, which holds {why}")
        for value in (opt.default, *(opt.choices or ())) if hashable else ():
            if not _hashable(value) or not recordable(value):
                raise bad(
                    f"option {opt.name!r} with the value {shown(value, 40)}, which is no number"
                    " or text a record keeps as it is, or cannot be hashed"
                )


def recordable(value: Any) -> bool:
    """Whether a record keeps *value* as it is (a finite number, a text, a flag, ``None``): a
    tuple would replay as a list, which a house rule's option, hashed, cannot take."""
    kind = type(value)
    return value is None or kind in (str, int, bool) or (kind is float and math.isfinite(value))


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except Exception:
        return False
    return True


def combined(game: GameInfo, rules: Iterable[RuleInfo]) -> tuple[Option, ...]:
    """The game's options, then each chosen rule's own, in the rules' order.

    :raises PluginError: A rule's option named like one of the game's or of another rule.
    """
    out = list(game.options)
    owner = dict.fromkeys((opt.name for opt in game.options), f"game {game.name!r}")
    for info in rules:
        for opt in info.options:
            if opt.name in owner:
                msg = (
                    f"house rule {info.name!r} declares option {opt.name!r}, which {owner[opt.name]}"
                    f" declares too: a rule's option needs a name of its own ({info.id})"
                )
                raise PluginError(msg, plugin=info.name)
            owner[opt.name] = f"house rule {info.name!r}"
            out.append(opt)
    return tuple(out)


def resolve(
    game: str,
    declared: tuple[Option, ...],
    options: Mapping[str, Any] | None,
    hint: Callable[[str], str] | None = None,
) -> Mapping[str, Any]:
    """Check *options* against *declared* and fill in defaults (see ``GameInfo.resolve_options``).

    :param hint: Words to add for an unknown name (which house rule takes it).
    :raises OptionError: For an undeclared name or a bad value.
    """
    if options is not None and not isinstance(options, Mapping):
        msg = f"options must be a mapping of option names to values, not {shown(options)}"
        raise OptionError(msg)
    try:  # plain keys: a subclass of str could answer lookups its own way
        given = {plain(k): v for k, v in (options or {}).items()}
    except Exception as exc:  # a mapping whose items or keys fail
        msg = f"options must be a mapping of option names to values; reading it failed: {shown(exc, 80)}"
        raise OptionError(msg) from None
    known = {opt.name for opt in declared}
    unknown = sorted(set(given) - known, key=shown)
    if unknown:
        more = hint(unknown[0]) if hint is not None and type(unknown[0]) is str else ""
        msg = (
            f"game {game!r} has no option {shown(unknown[0])}"
            f" (it accepts: {', '.join(sorted(known)) or 'none'}){more}"
        )
        raise OptionError(msg)
    out = {
        opt.name: own(opt.name, opt.check(given[opt.name]) if opt.name in given else opt.default)
        for opt in declared
    }
    return MappingProxyType(out)


def own(name: Any, value: Any) -> Any:
    """*value*, or a deep copy of it when it could change in place (a list): the caller's
    object (or a default) changed after ``new_game`` must not change the game nor its record.

    :raises OptionError: A value that cannot be copied (one nested past Python's recursion
        limit, an object whose copy fails).
    """
    if _hashable(value):
        return value
    try:
        return copy.deepcopy(value)
    except Exception as exc:  # RecursionError too
        msg = f"option {shown(name, 40)} takes a value it can copy, not {shown(value, 40)} ({type(exc).__name__})"
        raise OptionError(msg) from None


def resolve_for(ruleset: Ruleset, options: Any) -> Mapping[str, Any]:
    """Resolve *options* for a configuration (``Ruleset.resolve_options``), naming the
    installed house rule that takes an option given without it."""
    game = ruleset.game

    def hint(name: str) -> str:
        from cardcore.errors import CardcoreError
        from cardcore.plugins import available_rules, rule_info

        taking = []
        for rule in available_rules(game.name):
            try:
                if any(opt.name == name for opt in rule_info(rule).options):
                    taking.append(rule)
            except CardcoreError:  # a rule that fails to load takes nothing here
                continue
        return _hint(taking, game.default_rules)

    try:
        out = resolve(game.name, ruleset.options, options, hint)
    except OptionError as exc:  # a chosen rule's option that cites no rule ID: name the rule
        owner = {opt.name: rule.name for rule in ruleset.rules for opt in rule.options if not opt.rule_id}
        msg = str(exc)
        for name, rule in owner.items():
            if msg.startswith(f"option {name!r} "):
                raise OptionError(f"{msg} (an option of house rule {rule!r})") from None
        raise
    for opt in ruleset.options[len(game.options) :]:  # a rule's value joins the game's options
        if not (_hashable(out[opt.name]) and recordable(out[opt.name])):
            msg = f"option {opt.name!r} must be a value that can be hashed and recorded (a number, a text), not {shown(out[opt.name], 40)}"
            raise OptionError(msg)
    return out


SPELLING: ContextVar[tuple[str, str]] = ContextVar(
    "cardcore_rule_spelling", default=("rules", "without")
)
"""How the caller chooses a rule and switches one off, for the hint of an option given
without its rule: ``("rules", "without")`` (the API, the default), ``("vs", "vs_without")``
(configuration B of ``compare``), ``("--rules", "--without")`` or ``("--vs", "--vs-without")``
(the command line)."""


def _hint(taking: list[str], defaults: Iterable[str]) -> str:
    """The end of the refusal of an option that only the house rules *taking* declare."""
    if not taking:
        return ""
    choose, off = SPELLING.get()
    flag = choose.startswith("--")
    off_rules = [r for r in taking if r in defaults]  # on unless switched off: they were
    rules = [r for r in taking if r not in defaults]
    named = one_of(taking, "and")
    who = f"house rule {named} takes it" if len(taking) == 1 else f"house rules {named} take it"
    switched = f"{off}{'' if flag else '='}"
    if not rules:
        return (
            f"; {who}, and {'it is' if len(taking) == 1 else 'they are'} switched off ({switched})"
        )
    ways = [f"{choose} {r}" if flag else f"{choose}=[{r!r}]" for r in rules]
    which = "the rule" if len(rules) == 1 else "one of them"
    if not off_rules:
        return f"; {who}: choose {which} ({' or '.join(ways)}) to set it"
    state = "it is" if len(off_rules) == 1 else "they are"
    kept = f"keep {one_of(off_rules)} on ({state} switched off: {switched})"
    return f"; {who}: choose {' or '.join(ways)}, or {kept}, to set it"


def each_once(values: tuple[Any, ...]) -> list[Any]:
    """*values* in order, each once (``6`` and ``6.0`` alike; unhashable ones by ``==``)."""
    out: list[Any] = []
    for value in values:
        if not any(_same(value, v) for v in out):
            out.append(value)
    return out


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # a comparison that fails (or is ambiguous) is no match
        return False


def check_choices(where: str, choices: Any, wanted: bool) -> tuple[Any, ...]:
    """A view field's *choices* as a tuple: required (*wanted*, a ``"choice"`` field) or
    refused, distinct JSON scalars (texts, finite numbers, booleans; ``1`` and ``1.0``
    are one number, ``true`` and ``1`` two values, as in JSON)."""
    if not wanted:
        if choices:
            msg = f"{where}: choices= is for kind 'choice' only (or 'per-seat' of 'choice')"
            raise PluginError(msg)
        return ()
    if isinstance(choices, str | bytes) or not isinstance(choices, tuple | list) or not choices:
        msg = f"{where}: kind 'choice' needs choices=, a tuple of the values it takes, not {shown(choices)}"
        raise PluginError(msg)
    for value in choices:
        if choice_key(value) is None:
            msg = f"{where}: a choice must be text, a finite number or a boolean, not {shown(value, 40)}"
            raise PluginError(msg)
    if len({choice_key(value) for value in choices}) != len(choices):
        msg = f"{where}: choices {shown(choices, 60)} holds a value twice"
        raise PluginError(msg)
    return tuple(choices)


def choice_key(value: Any) -> tuple[str, Any] | None:
    """*value* as JSON tells values apart (a boolean is no number, ``1`` is ``1.0``);
    ``None`` for what no choice can be (``None``, a NaN or infinity, a list ...)."""
    if isinstance(value, bool):
        return ("bool", bool(value))
    if isinstance(value, int):
        return ("number", int(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        number = float(value)
        return ("number", int(number) if number.is_integer() else number)
    if isinstance(value, str):
        return ("text", str.__str__(value))
    return None


class UnknownOptionError(OptionError, KeyError):
    """An option name a game does not declare (a ``KeyError`` too, for callers of old)."""

    def __str__(self) -> str:  # a KeyError shows its repr
        return str(self.args[0])


def unknown_option(game: str, name: object, declared: Iterable[Any]) -> UnknownOptionError:
    """The error for *name*, which no option of *game* (*declared*) has."""
    known = ", ".join(opt.name for opt in declared) or "none"
    return UnknownOptionError(f"game {game!r} has no option {shown(name)} (its options: {known})")


def plain_options(options: Any) -> dict[Any, Any]:
    """*options* (a mapping or ``None``) as a plain dict, else an :class:`OptionError` (also for a
    mapping whose reading fails), before anything is built from it."""
    if options is not None and not isinstance(options, Mapping):
        msg = f"options must be a mapping of option names to values, not {shown(options)}"
        raise OptionError(msg)
    try:
        return dict(options or {})
    except Exception as exc:  # a mapping whose items or keys fail
        msg = f"options must be a mapping of option names to values; reading it failed: {shown(exc, 80)}"
        raise OptionError(msg) from None


def bound_text(bound: float) -> str:
    """A bound as written: ``1000000``, not ``1e+06`` (a whole number), else ``0.5``."""
    if type(bound) is int:
        return shown(bound)
    value = float(bound)
    if math.isfinite(value) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return f"{value:g}"


def is_choice(value: Any, choices: tuple[Any, ...]) -> bool:
    """Whether *value* is one of *choices* by type and value: ``6.0``, ``True`` or
    ``Decimal(6)`` only equal ``6``, and would reach views and records that way."""
    try:
        return any(type(c) is type(value) and c == value for c in choices)
    except Exception:  # a value whose comparison fails (or is ambiguous) is no choice
        return False


class FrozenMap(dict[Any, Any]):
    """A read-only dict, a declaration's mapping (``Option.aliases``, ``RuleInfo.applies``):
    unlike a mappingproxy it pickles and deep-copies with the declaration. Only
    :func:`read_only_map` builds one (``__init__`` would fill a built one again)."""

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        msg = f"a declaration's {type(self).__name__} is read-only"
        raise TypeError(msg)

    __init__ = __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    @classmethod
    def fromkeys(cls, keys: Iterable[Any], value: Any = None) -> FrozenMap:
        return read_only_map(dict.fromkeys(keys, value))

    def __reduce__(self) -> tuple[Callable[[Mapping[Any, Any]], FrozenMap], tuple[dict[Any, Any]]]:
        return (read_only_map, (dict(self),))


def read_only_map(items: Mapping[Any, Any]) -> FrozenMap:
    """A :class:`FrozenMap` of *items*."""
    made: FrozenMap = dict.__new__(FrozenMap)
    dict.update(made, items)
    return made


def frozen_map(value: Any) -> Any:
    """A mapping as a :class:`FrozenMap`; anything else (a mapping that cannot be read
    included) kept as it is, for the declaration's check to refuse."""
    try:
        return read_only_map(value) if isinstance(value, Mapping) else value
    except Exception:
        return value


def frozen_aliases(value: Mapping[str, Any]) -> Mapping[str, Any]:
    """``Option.aliases`` read-only (typed as documented, so a type checker refuses a bare value)."""
    return frozen_map(value)  # type: ignore[no-any-return]


def frozen_applies(value: Mapping[str, tuple[Any, ...]]) -> Mapping[str, tuple[Any, ...]]:
    """``RuleInfo.applies`` read-only (typed as documented: a bare value is a type error)."""
    return frozen_map(value)  # type: ignore[no-any-return]


def read_aliases(option: Option, values: Iterable[Any]) -> list[Any]:
    """*values* of *option*, each text among its aliases read as the value it names."""
    aliases = option.aliases
    return [aliases.get(v, v) if type(v) is str else v for v in values]


def read_stored_options(options: Any, declared: Iterable[Option]) -> Any:
    """Stored *options* with each alias read as the value it names (a save written before an
    option declared it); anything but a mapping kept as it is."""
    if not isinstance(options, Mapping):
        return options
    out = dict(options)
    for opt in declared:
        if opt.aliases and opt.name in out:
            out[opt.name] = read_aliases(opt, (out[opt.name],))[0]
    return out


def check_aliases(option: Option) -> None:
    """Refuse an option's *aliases* unless each is a text the option refuses as written,
    naming a value it takes (``{"6": 6}``; never a chain: the value is no alias); keep each
    value as the option takes it (an int alias of a float option names the float), and a
    default (or earlier default) written as an alias as the value it names: ``Game.options``
    holds one spelling of each value, the default's too."""
    aliases = option.aliases
    where = f"option {shown(option.name)}"
    if not isinstance(aliases, FrozenMap):
        unread = " (reading it failed)" if isinstance(aliases, Mapping) else ""
        msg = f"{where}: aliases takes a mapping of texts to values, not {shown(aliases)}{unread}"
        raise PluginError(msg)
    taken: dict[str, Any] = {}
    for text, value in aliases.items():
        try:
            taken[text] = option._check(value)
        except OptionError as exc:
            msg = f"{where}: alias {shown(text)} names {shown(value)}, a value it refuses: {exc}"
            raise PluginError(msg) from None
        try:
            option._check(text)
        except OptionError:
            if type(text) is str and text and text == text.strip():  # the CLI strips a value
                continue
        msg = f"{where}: alias {shown(text)} must be a text the option refuses as written, without spaces around it"
        raise PluginError(msg)
    object.__setattr__(option, "aliases", read_only_map(taken))
    if type(option.default) is str and option.default in taken:
        object.__setattr__(option, "default", taken[option.default])
    before = option.default_before
    if isinstance(before, tuple) and len(before) == 2 and type(before[1]) is str and before[1] in taken:
        object.__setattr__(option, "default_before", (before[0], taken[before[1]]))


_PLAIN = (int, float, str)  # a set's values sorted as they are; anything else by its repr


def in_order(values: Any) -> tuple[Any, ...]:
    """*values* as a tuple; a set sorted by kind and value (its own order differs by process)."""
    if not isinstance(values, set | frozenset):
        return tuple(values)
    return tuple(sorted(values, key=lambda v: (type(v).__name__, v if type(v) in _PLAIN else repr(v))))


def check_defaults(option: Option) -> None:
    """Refuse a default (or earlier default) *option* does not take; keep each as the option
    takes it, so one configuration has one spelling (10 of a float option is 10.0)."""
    before = option.default_before
    if before is not None:
        if not (isinstance(before, tuple) and len(before) == 2 and is_version(before[0])):
            msg = f"option {option.name!r}: default_before takes (version, value), not {shown(before)}"
            raise PluginError(msg)
        try:
            value = option.check(before[1])
        except OptionError as exc:
            msg = f"option {option.name!r}: its earlier default is refused: {exc}"
            raise PluginError(msg) from None
        if type(before[1]) is not str:  # (an alias's text is read where it is used)
            object.__setattr__(option, "default_before", (before[0], value))
    if option.default is not None:
        try:
            value = option.check(option.default)
        except OptionError as exc:
            msg = f"option {option.name!r}: its own default is refused: {exc}"
            raise PluginError(msg) from None
        if type(option.default) is not str:
            object.__setattr__(option, "default", value)
