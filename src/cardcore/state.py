"""The mutable game state and the final :class:`Result`.

A state is a slotted object that only the game's ``apply`` changes. Cloning it
copies a few small lists; chance is ``(seed, draws)``, never a stored generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from attrs import frozen
from typing_extensions import Self

from cardcore.cards import Card
from cardcore.deck import derive_rng
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
            for name in getattr(klass, "__slots__", ()):
                if name not in seen and not name.startswith("__"):
                    seen.append(name)
        names = _SLOTS[cls] = tuple(seen)
    return names


def _json(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return sorted(_json(v) for v in value)
    snap = getattr(value, "snapshot", None)
    if snap is not None:
        return snap()
    to_json = getattr(value, "to_json", None)
    if to_json is not None:
        return to_json()
    return str(value)


_IMMUTABLE: set[type] = {int, float, str, bool, type(None), tuple, frozenset, bytes, Card, MappingProxyType}
_CLONERS: dict[type, Any] = {}


def _copy_any(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return value[:]
    if kind is dict:
        return value.copy()
    if kind is set:
        return set(value)
    clone = getattr(value, "clone", None)
    if clone is not None:
        return clone()
    _IMMUTABLE.add(kind)  # a value type: shared from now on
    return value


def _copy_deep(value: Any) -> Any:
    if type(value) is list:
        return [v[:] if type(v) is list else _copy_any(v) for v in value]
    return _copy_any(value)


def _make_cloner(cls: type) -> Any:
    """Compile a clone function for *cls* that copies its slots one by one (no loop)."""
    lines = ["def clone(self):", "    new = new_object(cls)"]
    declared = getattr(cls, "_mutable", None)
    for name in _all_slots(cls):
        if name in getattr(cls, "_deep", ()):
            lines.append(f"    new.{name} = copy_deep(self.{name})")
        elif declared is not None:
            copy = "copy_any(self.{0})" if name in declared else "self.{0}"
            lines.append(f"    new.{name} = " + copy.format(name))
        else:
            lines.append(f"    v = self.{name}")
            lines.append(f"    new.{name} = v if type(v) in immutable else copy_any(v)")
    lines.append("    return new")
    namespace: dict[str, Any] = {
        "new_object": object.__new__,
        "cls": cls,
        "immutable": _IMMUTABLE,
        "copy_any": _copy_any,
        "copy_deep": _copy_deep,
    }
    exec("\n".join(lines), namespace)  # generated from slot names only
    return namespace["clone"]


class GameState:
    """The evolving table of one game. Games subclass it with their own ``__slots__``.

    Slot values must be immutable (ints, strings, tuples, cards, actions), plain
    lists, dicts or sets of those (copied shallowly on :meth:`clone`; name a
    slot in ``_deep`` to copy a list of lists one level deeper), or objects with
    a ``clone()`` method (:class:`~cardcore.Zones`, :class:`~cardcore.Ledger`,
    :class:`~cardcore.ScoreSheet`). A subclass may declare ``_mutable``, the
    names of every slot that can hold a mutable value (``zones`` included):
    the others are then shared without a type test, which makes clones faster.
    A mutable slot left out of ``_mutable`` would be shared between clones.
    """

    __slots__ = ("draws", "is_over", "options", "players", "result", "seed", "to_act", "zones")
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

    def rng(self) -> random.Random:
        """Return the generator for the next chance event and count it.

        Use it for every shuffle after the first deal (a new round, a rebuilt stock).
        """
        self.draws += 1
        return derive_rng(self.seed, self.draws)

    def clone(self) -> Self:
        """Return an independent copy (see the class docstring for what is copied)."""
        cloner = _CLONERS.get(type(self))
        if cloner is None:
            cloner = _CLONERS[type(self)] = _make_cloner(type(self))
        new: Self = cloner(self)
        return new

    def snapshot(self) -> dict[str, Any]:
        """Return every slot as JSON-ready data (privileged: shows every card)."""
        out: dict[str, Any] = {}
        for name in _all_slots(type(self)):
            if name in ("options", "seed"):
                continue
            out[name] = _json(getattr(self, name))
        return out

    def __repr__(self) -> str:
        return f"<{type(self).__name__} to_act={self.to_act} over={self.is_over} {self.zones!r}>"
