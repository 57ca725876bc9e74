"""Static descriptions of games, house rules and options.

A game module declares ``GAME = GameInfo(...)``; a house-rule module declares
``RULE = RuleInfo(...)``. They are read once when a configuration is built.
"""

from __future__ import annotations

import math
import numbers
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from types import FrameType, ModuleType
from typing import Any

from attrs import field, frozen

from cardcore._options import (
    FrozenMap,
    bound_text,
    check_aliases,
    check_choices,
    check_declared,
    check_defaults,
    each_once,
    frozen_aliases,
    frozen_applies,
    in_order,
    is_choice,
    read_aliases,
    read_only_map,
    resolve,
    unknown_option,
)
from cardcore._text import one_of, plain, shown
from cardcore._text import unprintable as _unprintable
from cardcore._versions import is_version
from cardcore.errors import OptionError, PluginError

_RECORDED_BITS = 128  # records.MAX_INT_BITS: the largest int a record or save holds

__all__ = ["FIELD_KINDS", "MAX_PLAYERS", "GameInfo", "Option", "RuleInfo", "Veto", "ViewField"]

MAX_PLAYERS = 64
"""The most seats any game may have (CORE-SEAT-2; ``cardcore.setup.MAX_PLAYERS``)."""

_RULE_ID = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")
_SPELLED = (str, int, float, bool, type(None))  # choices written as text (6 and "6" alike)


@frozen
class Option:
    """One parameter a game accepts in ``new_game(options=...)``.

    Options hold parameters only (layout, match length, stake, player limits,
    turn cap); every rule alternative is a house-rule plugin instead.

    :param name: The key in ``options``.
    :param default: The value when the key is absent.
    :param doc: One sentence for ``cardcore list`` and the docs.
    :param kind: The accepted type (``int``, ``str``, ``bool``, ``float``); ``object``
        with *choices* and bounds accepts one of the choices or a whole number within
        the bounds (Golf's ``dealer``: ``"random"`` or a seat from 0 to 63).
    :param choices: The accepted values, if limited.
    :param minimum: The smallest accepted number, if any.
    :param maximum: The largest accepted number, if any.
    :param nullable: Whether ``None`` is accepted (e.g. "no turn cap").
    :param default_before: ``(version, value)`` when the default changed at that game
        version: a stored session written before it that left the option out gets
        *value*, the default of its day (records and saves hold every option).
    :param rule_id: The rule the option sets (e.g. ``"GOLF-CAP-1"``), cited at the end
        of every refusal of a value (``OptionError.rule_id``); ``""`` cites none.
    :param aliases: Other texts for values the option takes, each read as the value it
        maps to (Golf's ``layout``: ``{"6": 6, "4H": "4h"}``), so one configuration has one
        spelling in ``Game.options``, records, views and encodings (kept as a read-only dict).
    :raises PluginError: When *rule_id* is not a rule ID (or ``""``), *kind* is not a type,
        *choices* not a tuple, a bound not a number (or NaN) or given to an option whose *kind*
        is no number, *minimum* is above *maximum*, or a *default* other than ``None`` (or the
        earlier default) is not a value :meth:`check` accepts (of *kind*, among *choices*,
        within the bounds), or *aliases* is no mapping of texts to values it accepts.
    """

    name: str
    default: Any
    doc: str = ""
    kind: type = int
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    nullable: bool = False
    default_before: tuple[str, Any] | None = None
    rule_id: str = ""
    aliases: Mapping[str, Any] = field(factory=dict, converter=frozen_aliases, hash=False)

    def __attrs_post_init__(self) -> None:
        where = f"option {shown(self.name)}"
        if not isinstance(self.kind, type):
            msg = f"{where}: kind must be a type (int, str, bool, float or object), not {shown(self.kind)}"
            raise PluginError(msg)
        choices = self.choices
        if choices is not None:
            if isinstance(choices, str | bytes) or not isinstance(choices, tuple | list):
                msg = f"{where}: choices takes a tuple of values, not {shown(choices)}"
                raise PluginError(msg)
            object.__setattr__(self, "choices", tuple(choices))
        for what in ("minimum", "maximum"):  # plain numbers (numpy's and subclasses' read)
            bound = getattr(self, what)
            if bound is not None:
                real = type(bound)  # the real type (a claim through __class__ is none), read plain
                try:
                    number = int.__index__(bound) if issubclass(real, int) else int(bound) if issubclass(real, numbers.Integral) else float(bound)
                except Exception:  # a conversion of another library's number that fails
                    number = math.nan
                if issubclass(real, bool) or not issubclass(real, numbers.Real) or number != number:
                    msg = f"{where}: {what} must be a number (an int or a float, not NaN), not {shown(bound)}"
                    raise PluginError(msg)
                object.__setattr__(self, what, number)
        if not (type(self.rule_id) is str and (self.rule_id == "" or _RULE_ID.fullmatch(self.rule_id))):
            msg = f"option {self.name!r}: rule_id must be a rule ID such as 'GAME-RULE-1', not {shown(self.rule_id)}"
            raise PluginError(msg)
        if (self.minimum is not None or self.maximum is not None) and not (
            self.kind is object or (issubclass(self.kind, numbers.Real) and not issubclass(self.kind, bool))
        ):  # a text or a flag has no bounds to compare with
            msg = f"{where}: a {self.kind.__name__} option takes no minimum or maximum (only numbers do)"
            raise PluginError(msg)
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            msg = f"option {self.name!r}: minimum {bound_text(self.minimum)} is above maximum {bound_text(self.maximum)}"
            raise PluginError(msg)
        check_aliases(self)
        check_defaults(self)

    def check(self, value: Any) -> Any:
        """Return *value* if acceptable (ints are accepted for floats), else raise :class:`OptionError`
        (citing the option's ``rule_id``)."""
        if type(value) is str and self.aliases:  # another text for a value: read as that value
            value = self.aliases.get(value, value)
        if not self.rule_id:
            return self._check(value)
        try:
            return self._check(value)
        except OptionError as exc:
            raise OptionError(f"{exc} ({self.rule_id})") from None

    def to_json(self) -> dict[str, Any]:
        """Return the declaration as JSON-ready data (a lobby's form; ``kind`` by its name,
        each choice once; not the aliases, which only read other spellings)."""
        choices = None if self.choices is None else each_once(self.choices)
        return {
            "name": self.name, "default": self.default, "doc": self.doc, "kind": self.kind.__name__,
            "choices": choices, "minimum": self.minimum, "maximum": self.maximum, "nullable": self.nullable,
        }  # fmt: skip

    def _check(self, value: Any) -> Any:
        if value is None and self.nullable:
            return None
        low, high = self.minimum, self.maximum
        if self.kind is object and (low is not None or high is not None):  # a choice or a number
            if issubclass(type(value), int) and not issubclass(type(value), bool):
                value = int.__add__(value, 0)  # its value, not its methods (an IntEnum: a seat)
            if is_choice(value, self.choices or ()) or (
                type(value) is int and (low is None or value >= low) and (high is None or value <= high)
                and value.bit_length() <= _RECORDED_BITS  # (a record holds no larger int)
            ):
                return value
            kinds = [*map(shown, self.choices or ()), f"a whole number{_bounds(low, high)}"]
            what = kinds[0] if len(kinds) == 1 else f"{', '.join(kinds[:-1])} or {kinds[-1]}"
            msg = f"option {self.name!r} must be {what}, not {shown(value)}"
            raise OptionError(msg)
        real = type(value)  # the real type: a claim through __class__ makes no int or float
        ok = issubclass(real, self.kind) and not (self.kind is not bool and issubclass(real, bool))
        if ok and real is not int and self.kind in (int, object) and issubclass(real, int) and not issubclass(real, bool):
            value = int.__add__(value, 0)  # its value, not its methods (an IntEnum)
        if self.kind is float and issubclass(real, int | float) and not issubclass(real, bool):
            try:  # a plain float (a subclass's value; an int converted), finite
                value = float.__add__(float(int.__add__(value, 0)) if issubclass(real, int) else value, 0.0)
                ok = math.isfinite(value)
            except OverflowError:
                ok = False
        if ok and type(value) is int and value.bit_length() > _RECORDED_BITS:  # records refuse it
            msg = f"option {self.name!r} must be a whole number of at most {_RECORDED_BITS} bits, not {shown(value)}"
            raise OptionError(msg)
        if not ok:
            msg = (
                f"option {self.name!r}{f' ({self.doc})' if self.doc else ''} does not take {shown(value)}"
                if self.kind is object  # any value but a bool: the doc says what it means
                else f"option {self.name!r} must be {self.kind.__name__}, not {shown(value)}{_bounds(low, high, '(')}"
            )
            raise OptionError(msg)
        if self.choices is not None and not is_choice(value, self.choices):
            spelled = tuple({str(c) if type(c) in _SPELLED else id(c): c for c in reversed(self.choices)}.values())[::-1]
            msg = f"option {self.name!r} must be one of {one_of(spelled)}, not {shown(value)}"  # 6 for 6 and '6'
            raise OptionError(msg)
        if self.minimum is not None and value < self.minimum:
            msg = f"option {self.name!r} must be at least {bound_text(self.minimum)}, not {shown(value)}"
            raise OptionError(msg)
        if self.maximum is not None and value > self.maximum:
            msg = f"option {self.name!r} must be at most {bound_text(self.maximum)}, not {shown(value)}"
            raise OptionError(msg)
        return value


def _bounds(low: Any, high: Any, brackets: str = "") -> str:
    """An option's bounds in words, so one error says all it takes (none: empty)."""
    if low is None:
        text = "" if high is None else f"at most {bound_text(high)}"
    else:
        text = f"at least {bound_text(low)}" if high is None else f"from {bound_text(low)} to {bound_text(high)}"
    return f" {brackets}{text}{')' if brackets else ''}" if text else ""


@frozen
class GameInfo:
    """What a game declares about itself (``GAME`` in its plugin module).

    :param name: The game's name, as in ``new_game(name, ...)``.
    :param summary: One line for listings.
    :param min_players: Fewest seats.
    :param max_players: Most seats (an option may narrow it; the logic checks).
    :param options: The parameters the game accepts.
    :param default_rules: House-rule names on unless switched off with ``without=``.
    :param realtime: ``True`` for games without turns (several seats may act at once).
    :param zero_sum: ``True`` when every round's scores (or stakes) sum to zero; the core
        then refuses a ``score_round`` answer that breaks it.
    :param fields: The game's own fields of a view's ``table``, named and typed
        (see :class:`ViewField`); the core's zones need no declaring.
    :param version: The plugin's version (``"1.0.0"``); records hold it, loading checks its major part.
    :param hookspecs: A module of the game's own hookspecs, added to its plugin manager.
    :param notes: What the game says in words of what no action names, such as Speed's
        side cards turning when nobody can play: called with one change's events as a
        seat received them (``Event.to_json()``) and the action's text (``None`` for the
        deal, or an action the seat may not read), it returns lines for people. The
        terminal (``cardcore play``) prints them and sessions send them (``notes``).
    :raises PluginError: For a *name* that is not 1-64 ASCII letters, digits, ``.``, ``_`` or ``-``
        (starting with a letter or digit), *min_players* above *max_players* (either below 1, or
        *max_players* above ``MAX_PLAYERS``, 64), *options* or *default_rules* that are not a tuple
        (or list), a *summary* that is not a ``str``, a *version* that is no version, *hookspecs*
        holding no hookspec, *realtime* or *zero_sum* no bool, *fields* not a tuple (or list)
        of :class:`ViewField`, *notes* that cannot be called, a default rule or an option's name that is not a non-empty ``str``, an
        option that is not an :class:`Option`, two options or two view fields of one name, or a
        control character (or a bidirectional override) or a lone surrogate in a text ``cardcore
        list`` prints: *summary*, *version*, *default_rules*, and the options' names, docs and
        values (a line break or a tab may wrap *summary* and an option's doc).
    """

    name: str
    summary: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    default_rules: tuple[str, ...] = ()
    realtime: bool = False
    version: str = "0.1.0"
    hookspecs: ModuleType | None = field(default=None, eq=False, repr=False)
    zero_sum: bool = False
    fields: tuple[ViewField, ...] = ()
    notes: Callable[[Sequence[Mapping[str, Any]], str | None], Sequence[str]] | None = field(
        default=None, eq=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        def bad(why: str) -> PluginError:
            return PluginError(f"game {self.name!r} declares {why}", plugin=str(self.name))

        if issubclass(type(self.name), str) and type(self.name) is not str:  # a StrEnum: its text
            object.__setattr__(self, "name", str.__str__(self.name))
        if not (type(self.name) is str and _GAME_NAME.fullmatch(self.name)):
            msg = (
                f"game name {shown(self.name, 40)} must be 1-64 ASCII letters, digits, '.', '_'"
                " or '-', starting with a letter or digit (it starts every position and record)"
            )
            raise PluginError(msg, plugin=self.name if isinstance(self.name, str) else None)
        low, high = self.min_players, self.max_players
        if not (type(low) is int and type(high) is int and 1 <= low <= high <= MAX_PLAYERS):
            raise bad(f"min_players={shown(low)}, max_players={shown(high)}: ints, 1 <= min <= max <= {MAX_PLAYERS} (the core's most seats)")
        for what in ("options", "default_rules"):
            value = getattr(self, what)
            if isinstance(value, str | bytes) or not isinstance(value, tuple | list):
                raise bad(f"{what}={shown(value)}: a tuple of {what.replace('_', ' ')} is wanted")
            object.__setattr__(self, what, tuple(value))
        from cardcore._declared import check_game_parts  # (it imports this module)

        check_game_parts(self, bad)
        for rule in self.default_rules:
            if not (isinstance(rule, str) and rule):
                raise bad(f"a default rule that is not a house rule's name: {shown(rule)}")
        check_declared(self.options, bad)
        named: set[object] = set()
        for view_field in self.fields if isinstance(self.fields, tuple | list) else ():
            name = getattr(view_field, "name", None)
            if name in named:
                raise bad(f"two view fields named {name!r}")
            named.add(name)  # (what a field must be, the core checks where it reads them)
        printed: list[tuple[str, object]] = [("summary", self.summary), ("version", self.version)]
        printed += [("default rule", rule) for rule in self.default_rules]
        for what, text in printed:  # `cardcore list` and `cardcore rules` print them
            why = _unprintable(text, text is self.summary)
            if why is not None:
                raise bad(f"{what} text {shown(text, 60)}, which holds {why}")

    def option(self, name: str) -> Option:
        """Return the declared option *name* (an :class:`OptionError`, a ``KeyError`` too, if none)."""
        name = plain(name)  # a str subclass could compare its own way; no text names nothing
        for opt in self.options if type(name) is str else ():
            if opt.name == name:
                return opt
        raise unknown_option(self.name, name, self.options)

    def resolve_options(self, options: Mapping[str, Any] | None) -> Mapping[str, Any]:
        """Check *options* against the declared ones and fill in defaults.

        :returns: A read-only mapping with every declared option.
        :raises OptionError: For an undeclared name or a bad value.
        """
        return resolve(self.name, self.options, options)


_GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", re.ASCII)


@frozen
class ViewField:
    """One field of a game's own part of a view (``view["table"][name]``).

    Declaring the fields lets a renderer, an RL encoder or a network client read
    any game's view without guessing from the shape of the data: every view's
    ``table`` holds every declared field and no other (the testing kit checks it).

    :param name: The key in ``table``.
    :param kind: One of :data:`FIELD_KINDS`: ``"int"``, ``"float"``, ``"str"``, ``"bool"``,
        ``"card"`` (notation or ``None`` when hidden), ``"cards"`` (a list of
        those), ``"seat"`` (a seat number or ``None``), ``"per-seat"`` (a list
        with one entry per seat), ``"json"`` (any other JSON value).
    :param doc: One sentence a player would understand.
    :param label: How a player would name it on screen (defaults to *name*).
    :param of: For ``"per-seat"``, and only for it: the kind of each entry, one of
        :data:`FIELD_KINDS` (required; ``"json"`` for entries of any JSON value).
    :param nullable: The value may also be ``None`` (JSON ``null``), such as a
        count that means nothing outside a phase of the game.
    :param choices: For ``"choice"`` (or ``"per-seat"`` of ``"choice"``), and only for it:
        the values it takes, texts, finite numbers or booleans, told apart as JSON
        does (``true`` is not ``1``; ``1.0`` is ``1``), such as Crazy Eights' suit
        called: ``("C", "D", "H", "S")``; an RL encoding shows one as a one-hot.
    :raises PluginError: For a *name* that is not a non-empty ``str``, a *doc*, *label* or
        *of* that is not a ``str``, a *kind* (or *of*) that is not one of :data:`FIELD_KINDS`,
        a ``"per-seat"`` field without *of*, *of* given for another kind, or *choices*
        missing, given for another kind, or not a tuple of distinct JSON scalars.
    """

    name: str
    kind: str
    doc: str = ""
    label: str = ""
    of: str = ""
    nullable: bool = False
    choices: tuple[Any, ...] = ()

    def __attrs_post_init__(self) -> None:
        where = f"view field {shown(self.name)}"
        if not (isinstance(self.name, str) and self.name):
            msg = f"{where}: its name (the key in the view's table) must be a non-empty str"
            raise PluginError(msg)
        for what in ("doc", "label", "of"):
            if getattr(self, what) is None:  # not given
                object.__setattr__(self, what, "")
            elif not isinstance(getattr(self, what), str):
                msg = f"{where}: {what} must be a str, not {shown(getattr(self, what))}"
                raise PluginError(msg)
        if not (type(self.kind) is str and self.kind in FIELD_KINDS):
            msg = f"{where}: kind must be one of {one_of(FIELD_KINDS)}, not {shown(self.kind)}"
            raise PluginError(msg)
        if self.kind == "per-seat":
            if not self.of:
                msg = (
                    f"{where}: kind 'per-seat' needs of=, the kind of each entry"
                    f" (one of {one_of(FIELD_KINDS)}; 'json' for any JSON value)"
                )
                raise PluginError(msg)
            if self.of not in FIELD_KINDS:
                msg = f"{where}: of= must be one of {one_of(FIELD_KINDS)}, not {shown(self.of)}"
                raise PluginError(msg)
        elif self.of:
            raise PluginError(f"{where}: of= is for kind 'per-seat' only, not {self.kind!r} (of={shown(self.of)})")
        object.__setattr__(self, "choices", check_choices(where, self.choices, "choice" in (self.kind, self.of)))

    def to_json(self) -> dict[str, Any]:
        """Return the declaration as JSON-ready data (``nullable`` only when true)."""
        out: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "of": self.of,
            "label": self.label or self.name.replace("_", " "),
            "doc": self.doc,
        }
        if self.nullable:
            out["nullable"] = True
        if self.choices:
            out["choices"] = list(self.choices)
        return out


FIELD_KINDS = ("int", "float", "str", "bool", "card", "cards", "seat", "choice", "per-seat", "json")
"""The kinds a :class:`ViewField` may declare."""


@frozen
class RuleInfo:
    """What a house rule declares about itself (``RULE`` in its plugin module).

    :param id: The rule ID from the rule spec, e.g. ``"HEARTS-SCORE-2"`` (asked for in any
        case; two chosen rules may not share one, whatever its case).
    :param name: The entry-point name, e.g. ``"hearts.jack-of-diamonds"``.
    :param game: The game it belongs to.
    :param summary: One line for listings.
    :param conflicts: Names or IDs of rules it cannot be combined with (a set is kept sorted).
    :param requires: Names or IDs of rules it needs (a set is kept sorted).
    :param version: The plugin's version.
    :param applies: Where the rule applies, as data: option name -> the values it
        serves (``{"layout": (6, 8, 9, 10)}``; a set is kept sorted). The core refuses other values with
        an :class:`~cardcore.OptionError` before the deal; ``cardcore list`` shows it.
        Values are compared with ``==`` to the option's value as the game's
        :class:`Option` accepted it (``Option.check``: an ``int`` given for a
        ``float`` option becomes a float), not as the game may read it later: list
        every spelling the game accepts (``(6, "6")`` where the game takes both).
        Each name must be an option of the game and each value one it accepts,
        or building the configuration raises :class:`~cardcore.PluginError`.
    :param default_before: For a rule that keeps what its game did by default before
        a change, the game version that made the change (``"0.3.0"``): records, saves
        and stored sessions made with an earlier version of the game replay with this
        rule added where its *applies* serves their options, so they replay as they were played
        (see :func:`cardcore.earlier_rules`; only a rule shipped in the game's own package, for
        a version it has reached: in a namespace package, the game's own subpackage).
    :param options: Parameters of the rule's own (:class:`Option`), such as the points a
        joker scores: with the rule chosen they join the game's options, checked and
        filled in alike (``new_game(options=...)``, records, views, ``-o`` on the command
        line); without it they are refused. A name may not be one of the game's options
        or another chosen rule's (:class:`~cardcore.PluginError` when the configuration
        is built); hooks read the value as ``state.options[name]``. ``default_before``
        is for a game's options only.
    :raises PluginError: For an *id*, *name* or *game* that is not a non-empty
        ``str``, a *summary* or *version* that is not a ``str``, a control character (or a
        bidirectional override) or a lone surrogate in any of them (a line break or a tab
        may wrap *summary*), in *version* or in a
        text of *conflicts*, *requires* or *applies* (names and values), *conflicts* or
        *requires* that are not a tuple (list or set) of names, an
        *applies* value that is one value instead of a tuple of them, a
        *default_before* that is not a version text, or *options* that are not a tuple
        (or list) of :class:`Option` of distinct names (or one with ``default_before``).
    """

    id: str
    name: str
    game: str
    summary: str
    conflicts: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    version: str = "0.1.0"
    applies: Mapping[str, tuple[Any, ...]] = field(
        factory=dict, converter=frozen_applies, eq=False, hash=False
    )
    default_before: str | None = None
    options: tuple[Option, ...] = ()

    def __attrs_post_init__(self) -> None:
        for what in ("id", "name", "game"):
            value = getattr(self, what)
            if not (isinstance(value, str) and value):
                msg = f"RuleInfo {what} must be a non-empty str, not {shown(value)}"
                raise PluginError(msg, plugin=self.name if isinstance(self.name, str) else None)
        if not isinstance(self.summary, str):
            msg = f"house rule {self.name!r}: summary must be a str, not {shown(self.summary)} ({self.id})"
            raise PluginError(msg, plugin=self.name)
        for what in ("id", "name", "game", "summary", "version"):
            value = getattr(self, what)
            why = _unprintable(value, what == "summary")
            if why is not None:
                rule = "" if what == "id" else f" ({self.id})"
                msg = f"house rule {shown(self.name, 40)}: {what} {shown(value, 60)} holds {why}{rule}"
                raise PluginError(msg, plugin=self.name if what != "name" else None)
        for what in ("conflicts", "requires"):
            value = getattr(self, what)
            if isinstance(value, str) or not isinstance(value, list | tuple | set | frozenset):
                one = "one str " if isinstance(value, str) else ""
                msg = f"house rule {self.name!r}: {what} takes a tuple of rule names or IDs, not {one}{shown(value)} ({self.id})"
                raise PluginError(msg, plugin=self.name)
            object.__setattr__(self, what, in_order(value))
            for name in getattr(self, what):
                if not (isinstance(name, str) and name):
                    msg = f"house rule {self.name!r}: {what} holds {shown(name)}, not a rule's name or ID ({self.id})"
                    raise PluginError(msg, plugin=self.name)
        if not isinstance(self.version, str):
            msg = f"house rule {self.name!r}: version must be a str such as '0.1.0', not {shown(self.version)} ({self.id})"
            raise PluginError(msg, plugin=self.name)
        applies = self.applies
        if not isinstance(applies, FrozenMap):
            msg = f"house rule {self.name!r}: applies takes a mapping of option names to tuples of values, not {shown(applies)} ({self.id})"
            raise PluginError(msg, plugin=self.name)
        values: dict[str, tuple[Any, ...]] = {}
        for key, value in applies.items():
            if isinstance(value, str | bytes) or not isinstance(
                value, list | tuple | set | frozenset
            ):
                msg = f"house rule {self.name!r}: applies[{shown(key)}] takes a tuple of values, not one value {shown(value)}: write ({shown(value)},) ({self.id})"
                raise PluginError(msg, plugin=self.name)
            values[str(key)] = in_order(value)
        object.__setattr__(self, "applies", read_only_map(values))
        printed = [(what, text) for what in ("conflicts", "requires") for text in getattr(self, what)]
        for key, value in values.items():  # `cardcore list` prints them all
            printed += [("applies key", key), *((f"applies[{shown(key, 40)}]", v) for v in value)]
        for what, text in printed:
            why = _unprintable(text)
            if why is not None:
                msg = f"house rule {shown(self.name, 40)}: {what} {shown(text, 60)} holds {why} ({self.id})"
                raise PluginError(msg, plugin=self.name)
        before = self.default_before
        if before is not None and not is_version(before):
            msg = f"house rule {self.name!r}: default_before takes a game version such as '0.3.0', not {shown(before)} ({self.id})"
            raise PluginError(msg, plugin=self.name)

        def bad(why: str) -> PluginError:
            return PluginError(f"house rule {self.name!r} declares {why} ({self.id})", plugin=self.name)

        if isinstance(self.options, str | bytes) or not isinstance(self.options, tuple | list):
            raise bad(f"options={shown(self.options)}: a tuple of Option is wanted")
        object.__setattr__(self, "options", tuple(self.options))
        check_declared(self.options, bad, hashable=True)
        for opt in self.options:
            if opt.default_before is not None:  # stored sessions fill in a game's options only
                raise bad(f"option {opt.name!r} with default_before, which only a game's option takes")

    def check_applies(self, options: Mapping[str, Any], game: GameInfo | None = None) -> None:
        """Raise :class:`OptionError` if the rule does not serve these *options* (a value named
        by an alias of *game*'s option, ``Option.aliases``, counts as the value it names)."""
        for name, values in self.applies.items():
            if name in options and options[name] not in values:  # each spelling once: (4, '4')
                if game is not None:  # the values it serves and the one given, aliases read
                    values = tuple(read_aliases(game.option(name), values))
                    if read_aliases(game.option(name), (options[name],))[0] in values:
                        continue
                spelled = list({str(v): v for v in values[::-1]}.values())[::-1]
                shown = ", ".join(repr(v) for v in spelled)
                msg = f"house rule {self.name!r} applies only with {name} in ({shown}), not {options[name]!r} ({self.id})"
                raise OptionError(msg)

    def describe_applies(self) -> str:
        """Say where the rule applies, in words (``"layout 6, 8"``); empty when everywhere.

        Each value is written once: ``(6, "6")`` (a number and its text) reads ``"6"``.
        """
        return "; ".join(
            f"{name} {', '.join(dict.fromkeys(str(v) for v in values))}"
            for name, values in self.applies.items()
        )


@frozen
class Veto:
    """A house rule's answer to ``forbid_action``: the action is illegal, and why.

    :param rule_id: The ID of the rule that forbids it (a non-empty ``str``).
    :param reason: Lowercase text, no final period.
    :raises PluginError: For a *rule_id* that is not a non-empty ``str`` or a
        *reason* that is not a ``str``, naming the house rule whose hook built the veto
        (else the module that built it).
    """

    rule_id: str
    reason: str

    def __attrs_post_init__(self) -> None:
        if isinstance(self.rule_id, str) and self.rule_id and isinstance(self.reason, str):
            return
        frame = sys._getframe(1)
        while frame.f_back is not None and (
            frame.f_globals.get("__name__") == __name__
            or frame.f_code.co_filename.startswith("<attrs generated")
        ):
            frame = frame.f_back
        where = frame.f_globals.get("__name__", "?")
        plugin = _guarded_plugin(frame)  # the house rule whose hook built it, when one did
        by = f"by plugin {plugin!r} (in {where!r})" if plugin else f"in {where!r}"
        msg = (
            f"Veto({shown(self.rule_id)}, {shown(self.reason)}) built {by}: a veto takes"
            " the vetoing rule's ID (a non-empty str) and a reason (a str)"
        )
        raise PluginError(msg, plugin=plugin or where)


def _guarded_plugin(frame: FrameType | None) -> str | None:
    """The house rule whose code runs in *frame*, named by the core's guard around a call of
    it (``cardcore._hookcall.guarded``, a frame further up holding ``plugin``); else ``None``."""
    for _ in range(64):
        if frame is None:
            return None
        if frame.f_globals.get("__name__") == "cardcore._hookcall":
            plugin = frame.f_locals.get("plugin")
            if type(plugin) is str:
                return plugin
        frame = frame.f_back
    return None
