"""The mutable game state and the final :class:`Result`.

A state is a slotted object that only the game's ``apply`` changes. Cloning it
copies a few small lists; chance is ``(seed, draws)`` under the derivation
``chance``, never a stored generator.
"""

from __future__ import annotations

import copy
import enum
import random
from collections import deque
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, NoReturn

import attrs
from attrs import frozen
from typing_extensions import Self

from cardcore.cards import Card
from cardcore.deck import _VERSION, CHANCE, Chance, derive_rng
from cardcore.events import jsonable
from cardcore.zones import Zones

__all__ = ["GameState", "Result"]


@frozen
class Result:
    """How a game ended.

    :param winners: The winning seats (ties allowed; empty for a void game).
    :param scores: The final score per seat (the game's documented measure).
    :param payouts: The net money per seat, or ``None`` where the game has no stakes.
    :param reason: Why it ended: the game's own words, or ``"resigned"``,
        ``"ended"`` (the host's :class:`~cardcore.EndMatch`), ``"truncated"``.
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    payouts: tuple[int, ...] | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        """Return the result as JSON-ready data."""
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "payouts": None if self.payouts is None else list(self.payouts),
            "reason": self.reason,
        }


_SLOTS: dict[type, tuple[str, ...]] = {}


def _all_slots(cls: type) -> tuple[str, ...]:
    names = _SLOTS.get(cls)
    if names is None:
        seen: list[str] = []
        for klass in reversed(cls.__mro__):
            slots = klass.__dict__.get("__slots__", ())  # its own (a loose subclass has none)
            for name in (slots,) if isinstance(slots, str) else slots:  # one slot as text
                if name in ("__dict__", "__weakref__"):
                    continue
                name = _mangled(klass, name)
                if name not in seen:
                    seen.append(name)
        names = _SLOTS[cls] = tuple(seen)
    return names


def _mangled(klass: type, name: str) -> str:
    """The attribute a slot *name* of *klass* is stored as (``__x`` in ``Cls``: ``_Cls__x``;
    a class named only ``_`` mangles nothing)."""
    owner = klass.__name__.lstrip("_")
    if owner and name.startswith("__") and not name.endswith("__"):
        return f"_{owner}{name}"
    return name


def _named(declared: Any, cls: type, attr: str = "_mutable") -> set[str]:
    """The slots *declared* (*cls*'s ``_mutable`` or ``_deep``, named *attr*) names, private
    ones as stored: mangled with the class that declares *attr*."""
    owner = next((k for k in cls.__mro__ if attr in k.__dict__), cls)
    return {_mangled(owner, n) for n in declared or ()}


_IMMUTABLE: set[type] = {
    int,
    float,
    complex,
    str,
    bool,
    type(None),
    tuple,
    frozenset,
    bytes,
    range,
    Card,
    MappingProxyType,
}
"""Types whose values clones share (grown by :func:`_copy_any` with immutable types it meets)."""
_CLONERS: dict[type, Any] = {}
_SHALLOW = (list, dict, set, deque, bytearray)


def _share(value: Any) -> Any:
    return value


_COPIERS: dict[type, Any] = {list: list.copy, dict: dict.copy, set: set.copy}
"""How each type met in a slot is copied, decided once per type (see :func:`_copier`)."""
_COPIERS.update(dict.fromkeys(_IMMUTABLE, _share))


def _is_immutable(kind: type) -> bool:
    """Whether values of *kind* can be shared between a state and its clone."""
    if issubclass(kind, tuple | frozenset | str | bytes | int | float | enum.Enum | type):
        return True  # events, named tuples, enums, classes
    if attrs.has(kind):  # a frozen attrs class (actions, results, rule values)
        return getattr(kind.__setattr__, "__name__", "") == "_frozen_setattrs"
    return False


def _copier(kind: type, slot: str) -> Any:
    """Return (and cache) the function that copies a value of *kind*, or raise if none can.

    :raises TypeError: A mutable type the core does not know how to copy.
    """
    if _is_immutable(kind):
        _IMMUTABLE.add(kind)
        func: Any = _share
    elif callable(getattr(kind, "clone", None)):
        func = kind.clone  # type: ignore[attr-defined]
    elif issubclass(kind, _SHALLOW):
        func = copy.copy  # Counter, defaultdict, OrderedDict, deque (maxlen kept) ...
    else:
        msg = (
            f"GameState.clone cannot copy slot {slot!r}: {kind.__module__}.{kind.__qualname__} is"
            " not a type the core knows to be immutable, not a list, dict, set or deque, and has"
            " no clone() method (give it one, or store the data in a supported type)"
        )
        raise TypeError(msg)
    _COPIERS[kind] = func
    return func


def _copy_any(value: Any, slot: str = "?") -> Any:
    """Return an independent copy of a slot's *value*, or raise if its type cannot be copied.

    Lists, dicts and sets (and their subclasses such as ``Counter``,
    ``defaultdict`` or ``deque``) are copied shallowly; objects with a
    ``clone()`` method are cloned; immutable values are shared.

    :raises TypeError: A mutable value of a type the core does not know how to copy.
    """
    kind = type(value)
    func = _COPIERS.get(kind)
    if func is None:
        func = _copier(kind, slot)
    return func(value)


def _copy_deep(value: Any, slot: str = "?") -> Any:
    if type(value) is list:
        return [v[:] if type(v) is list else _copy_any(v, slot) for v in value]
    return _copy_any(value, slot)


def _clone_with_unset(state: Any, cls: type) -> Any:
    """A clone of *state* some of whose slots are unset: those stay unset in the clone, the
    others are copied as the generated cloner copies them."""
    new: Any = object.__new__(cls)
    declared = getattr(cls, "_mutable", None)
    mutable, deep = _named(declared, cls, "_mutable"), _named(getattr(cls, "_deep", ()), cls, "_deep")
    for name in _all_slots(cls):
        if name == "chance":
            new.chance = getattr(state, "chance", CHANCE)
        elif hasattr(state, name):
            value = getattr(state, name)
            if name in deep:
                value = _copy_deep(value, name)
            elif declared is None or name in mutable:
                value = _copy_any(value, name)
            setattr(new, name, value)
    for key, value in getattr(state, "__dict__", {}).items():
        new.__dict__[key] = _copy_any(value, key)
    return new


def _make_cloner(cls: type) -> Any:
    """Compile a clone function for *cls* that copies its slots one by one (no loop)."""
    lines = ["def clone(self):", "    new = new_object(cls)"]
    declared = getattr(cls, "_mutable", None)
    mutable, deep = _named(declared, cls, "_mutable"), _named(getattr(cls, "_deep", ()), cls, "_deep")
    for name in _all_slots(cls):
        if name == "chance":  # unset in a plugin's hand-written clone from before the slot
            lines.append(f"    new.chance = getattr(self, 'chance', {CHANCE})")
        elif name in deep:
            lines.append(f"    new.{name} = copy_deep(self.{name}, {name!r})")
        elif declared is not None:
            if name in mutable:
                lines.append(f"    v = self.{name}")
                lines.append("    f = copiers_get(type(v))")
                lines.append(f"    new.{name} = f(v) if f is not None else copy_any(v, {name!r})")
            else:
                lines.append(f"    new.{name} = self.{name}")
        else:
            lines.append(f"    v = self.{name}")
            lines.append(f"    new.{name} = v if type(v) in immutable else copy_any(v, {name!r})")
    if getattr(cls, "__dictoffset__", 0):  # a subclass without __slots__: its attributes too
        lines.append("    for k, v in self.__dict__.items():")
        lines.append("        new.__dict__[k] = v if type(v) in immutable else copy_any(v, k)")
    lines.append("    return new")
    body = "\n        ".join(lines[1:])  # inside a try: a slot left unset takes the slow way
    source = (
        f"def clone(self):\n    try:\n        {body}\n    except AttributeError as exc:\n"
        "        if exc.obj is not self:\n            raise\n        return unset(self, cls)"
    )
    namespace: dict[str, Any] = {
        "new_object": object.__new__,
        "cls": cls,
        "immutable": _IMMUTABLE,
        "copy_any": _copy_any,
        "copiers_get": _COPIERS.get,
        "copy_deep": _copy_deep,
        "unset": _clone_with_unset,
    }
    exec(source, namespace)  # generated from slot names only
    return namespace["clone"]


class GameState:
    """The evolving table of one game. Games subclass it with their own ``__slots__``.

    Slot values must be immutable (ints, strings, tuples, cards, actions), plain
    lists, dicts, sets or deques of those, including subclasses such as
    ``Counter`` (copied shallowly on :meth:`clone`; name a slot in ``_deep`` to
    copy a list of lists one level deeper), or objects with a ``clone()``
    method (:class:`~cardcore.Zones`, :class:`~cardcore.Ledger`,
    :class:`~cardcore.ScoreSheet`). A value of any other mutable type makes
    :meth:`clone` raise ``TypeError`` naming the slot, rather than be shared.
    A subclass may declare ``_mutable``, the names of every slot that can hold
    a mutable value (``zones`` included): the others are then shared without a
    type test, which makes clones faster. A mutable slot left out of
    ``_mutable`` would be shared between clones.

    ``copy.deepcopy`` gives :meth:`clone` (``copy.copy`` a shallow copy, sharing the
    piles: a hand-written ``clone()`` may build on that one, never on ``deepcopy``,
    which would call it again). A state is not pickled
    on its own (``TypeError``, saying so): pickle its :class:`~cardcore.Game`,
    which is kept as its :meth:`~cardcore.Game.save`.
    """

    __slots__ = (
        "chance",
        "draws",
        "is_over",
        "options",
        "players",
        "result",
        "seed",
        "to_act",
        "zones",
    )
    _deep: ClassVar[tuple[str, ...]] = ()
    _mutable: ClassVar[tuple[str, ...] | None] = None

    def __init__(self, players: int, options: Mapping[str, Any], zones: Zones) -> None:
        self.players = players
        self.options = options
        self.zones = zones
        self.to_act: tuple[int, ...] = ()
        self.is_over = False
        self.result: Result | None = None
        self.seed = 0
        self.draws = 0
        self.chance = _VERSION.get()  # CHANCE, or the legacy one while an old record replays

    def rng(self) -> Chance | random.Random:
        """Return the generator for the next chance event and count it.

        Use it for every shuffle after the first deal (a new round, a rebuilt stock),
        with :func:`cardcore.shuffle` or its own methods (``random``, ``randrange``,
        ``randint``, ``choice``, ``sample``, ``shuffle``, ``getrandbits``): a
        :class:`~cardcore.Chance` in games
        started by this version, a ``random.Random`` in a replay of a record of format
        1 or 2 (see ``chance``).
        """
        self.draws += 1
        try:
            chance = self.chance
        except AttributeError:  # a hand-written clone() from before the slot existed
            chance = self.chance = CHANCE
        if chance == CHANCE:
            return Chance(self.seed, self.draws)
        return derive_rng(self.seed, self.draws)

    def clone(self) -> Self:
        """Return an independent copy (see the class docstring for what is copied)."""
        cloner = _CLONERS.get(type(self))
        if cloner is None:
            cloner = _CLONERS[type(self)] = _make_cloner(type(self))
        new: Self = cloner(self)
        return new

    def __copy__(self) -> Self:
        """A shallow copy (every slot shared), which a hand-written ``clone()`` may build on."""
        new = object.__new__(type(self))
        for name in _all_slots(type(self)):
            if hasattr(self, name):
                setattr(new, name, getattr(self, name))
        if hasattr(self, "__dict__"):  # a subclass without __slots__
            new.__dict__.update(self.__dict__)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """``copy.deepcopy`` gives :meth:`clone` (a search's own table). ``copy.copy`` stays
        a shallow copy, which a hand-written ``clone()`` may build on."""
        return self.clone()

    def __reduce__(self) -> NoReturn:
        """Refuse ``pickle`` with a message that says what to do instead."""
        name = type(self).__name__
        msg = f"a {name} is not pickled alone: pickle its Game (kept as its save()), or clone() it"
        raise TypeError(msg)

    def snapshot(self) -> dict[str, Any]:
        """Return every slot as JSON-ready data (privileged: shows every card)."""
        out: dict[str, Any] = {}
        for name in _all_slots(type(self)):
            if name in ("options", "seed", "chance"):
                continue
            out[name] = jsonable(getattr(self, name))
        return out

    def __repr__(self) -> str:
        return f"<{type(self).__name__} to_act={self.to_act} over={self.is_over} {self.zones!r}>"
