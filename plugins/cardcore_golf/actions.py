"""Golf actions and their text notation (GOLF-NOTE-1).

=================  ==========  ==============================================================
notation           short form  meaning
=================  ==========  ==============================================================
``draw``           ``d``       take the top stock card (GOLF-TURN-1)
``take``           ``t``       take the top discard (GOLF-TURN-1)
``replace POS``    ``r POS``   put the held card at position POS; the old card is discarded
``discard``        ``x``       discard the card drawn from the stock (GOLF-TURN-2)
``flip POS``       ``f POS``   setup: turn a card face up (GOLF6-SETUP-2, GOLF9-1)
``peek POS``       ``p POS``   setup: look at a card privately (GOLF4-SETUP-2)
``knock``          ``k``       GOLF4/4H: end the round after one more turn each (GOLF4-KNOCK-1)
=================  ==========  ==============================================================

Positions are numbered row-major from 0, far row first, in ASCII digits. Every action is
interned, so ``legal_actions`` hands out the same objects every time.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

import attrs
from attrs import frozen
from typing_extensions import Self, override

from cardcore import Action, ArgumentError, IllegalActionError, NotationError
from cardcore.notation import DIGITS, parse_int
from cardcore_golf.grids import GridShape

if TYPE_CHECKING:
    from cardcore import Ruleset

__all__ = [
    "VERBS",
    "Discard",
    "Draw",
    "Flip",
    "GolfAction",
    "Knock",
    "Peek",
    "Replace",
    "Take",
    "explain",
    "parse_on",
    "read_notation",
    "removal_rule",
]

_INTERNED: dict[tuple[Any, ...], Action] = {}

_INTERNED_BELOW = 64
"""Actions whose seat and position are below this are interned (more than any seat or
position of a Golf game): the table stays bounded whatever ints a caller passes."""


@frozen(eq=False)
class GolfAction(Action):
    """Base of Golf's actions.

    Golf actions are interned: ``Replace(0, 3) is Replace(0, 3)``, so equality and hashing
    are by identity, which keeps the driver's legality check (``action in legal``) in C.
    Copies and unpickled actions come back as the interned objects. An action with a seat or
    position outside 0-63 (never legal) is a new object each time.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        names = [a.name for a in attrs.fields(cls) if a.init]
        values = list(args) + [kwargs[n] for n in names[len(args) :] if n in kwargs]
        fresh = False
        for value in values:  # True == 1 == 1.0: any other type would find (and rewrite) int's
            if type(value) is not int:
                msg = f"{cls.__name__} takes ints (seat, position), not {type(value).__name__}"
                raise ArgumentError(msg)
            if not 0 <= value < _INTERNED_BELOW:
                fresh = True
        if fresh:  # never legal: not worth keeping
            return object.__new__(cls)
        key = (cls, *values)
        found = _INTERNED.get(key)
        if found is None:  # setdefault is atomic: racing threads get the same object
            found = _INTERNED.setdefault(key, object.__new__(cls))
        return cast(Self, found)

    def __reduce__(self) -> tuple[type[Self], tuple[Any, ...]]:
        return type(self), tuple(getattr(self, a.name) for a in attrs.fields(type(self)) if a.init)

    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__


@frozen(eq=False)
class Draw(GolfAction):
    """Seat *seat* takes the top card of the stock (``draw``)."""

    verb: ClassVar[str] = "draw"


@frozen(eq=False)
class Take(GolfAction):
    """Seat *seat* takes the top card of the discard pile (``take``)."""

    verb: ClassVar[str] = "take"


@frozen(eq=False)
class Discard(GolfAction):
    """Seat *seat* discards the card it drew from the stock (``discard``)."""

    verb: ClassVar[str] = "discard"


@frozen(eq=False)
class Knock(GolfAction):
    """Seat *seat* knocks instead of drawing (``knock``; GOLF4 and GOLF4H only)."""

    verb: ClassVar[str] = "knock"


@frozen(eq=False)
class Replace(GolfAction):
    """Seat *seat* puts its held card at position *pos* (``replace 3``)."""

    pos: int
    verb: ClassVar[str] = "replace"

    @override
    def notation(self) -> str:
        return f"replace {self.pos}"


@frozen(eq=False)
class Flip(GolfAction):
    """Setup: seat *seat* turns its card at *pos* face up (``flip 2``)."""

    pos: int
    verb: ClassVar[str] = "flip"

    @override
    def notation(self) -> str:
        return f"flip {self.pos}"


@frozen(eq=False)
class Peek(GolfAction):
    """Setup (GOLF4): seat *seat* looks at its card at *pos* (``peek 0``)."""

    pos: int
    verb: ClassVar[str] = "peek"

    @override
    def notation(self) -> str:
        return f"peek {self.pos}"


VERBS: dict[str, type[GolfAction]] = {
    "draw": Draw, "d": Draw, "take": Take, "t": Take, "discard": Discard, "x": Discard,
    "knock": Knock, "k": Knock, "replace": Replace, "r": Replace, "flip": Flip, "f": Flip,
    "peek": Peek, "p": Peek,
}  # fmt: skip
"""GOLF-NOTE-1: words (and short forms) of the notation -> action class."""

_WITH_POS = (Replace, Flip, Peek)


def read_notation(text: str) -> tuple[type[GolfAction], int]:
    """Read GOLF-NOTE-1 text into an action class and its position (-1 for none).

    >>> read_notation(" R  3 ")
    (<class 'cardcore_golf.actions.Replace'>, 3)

    :raises NotationError: Malformed text: an unknown word, a missing or extra argument, or
        a position that is not an ASCII number (``"flip ²"``) or has more than
        ``cardcore.notation.DIGITS`` digits; or *text* that is no text (``None``).
    """
    try:
        words = text.lower().split()
    except Exception:  # no text: free on the hot path
        msg = f"not a golf action: expected action text, not an object of type {type(text).__name__!r} (GOLF-NOTE-1)"
        raise NotationError(msg) from None
    cls = VERBS.get(words[0]) if words else None
    if cls is None or len(words) > 2:
        msg = f"not a golf action: {text!r} (expected draw, take, replace N, discard, flip N, peek N or knock) (GOLF-NOTE-1)"
        raise NotationError(msg)
    if cls in _WITH_POS:
        if len(words) != 2:
            msg = f"{words[0]!r} needs a position number: {text!r} (GOLF-NOTE-1)"
            raise NotationError(msg)
        try:
            return cls, parse_int(words[1], "a position number")
        except NotationError:
            word = words[1]
            long = len(word) > DIGITS and word.isascii() and word.isdigit()
            what = f"of at most {DIGITS} digits" if long else "(ASCII digits)"
            msg = f"{words[0]!r} needs a position number {what}: {text!r} (GOLF-NOTE-1)"
            raise NotationError(msg) from None
    if len(words) != 1:
        msg = f"{words[0]!r} takes no argument: {text!r} (GOLF-NOTE-1)"
        raise NotationError(msg)
    return cls, -1


def explain(
    action: GolfAction,
    phase: str,
    layout: GridShape,
    ender: int,
    ruleset: Ruleset | None = None,
    slots: Sequence[int] | None = None,
) -> tuple[str, str]:
    """Return ``(rule_id, reason)`` for an *action* that is not legal now.

    :param phase: ``"setup"``, ``"draw"``, ``"place"``, ``"taken"`` or ``"over"``.
    :param layout: The layout played.
    :param ender: The seat that knocked or completed its layout, or -1.
    :param ruleset: The game's rules and *slots* the seat's (``GolfState.slots``): a
        ``replace`` of a removed position cites the house rule that removed it
        (:func:`removal_rule`).
    """
    seat = action.seat
    text = str(action)
    name = layout.name
    pos = getattr(action, "pos", None)
    if pos is not None and not 0 <= pos < layout.size:
        return "GOLF-TURN-4", f"seat {seat} has no position {pos} in {name}: {text!r}"
    if isinstance(action, Knock):
        if not layout.can_knock:
            return "GOLF6-KNOCK-1", f"there is no knocking in {name}: {text!r}"
        if ender >= 0:
            return "GOLF4-KNOCK-2", f"seat {ender} has already knocked: {text!r}"
        if phase == "setup":
            return (
                "GOLF-DEAL-4",
                f"seat {seat} must finish the initial {layout.setup}s first: {text!r}",
            )
        return "GOLF4-KNOCK-1", f"seat {seat} may knock only instead of drawing: {text!r}"
    if isinstance(action, Flip | Peek):
        setup = layout.setup
        if layout.hand:  # no setup phase at all: the hand is always seen
            return "GOLF4H-1", f"{name} has no flips or peeks: its owner sees the hand: {text!r}"
        if phase != "setup":
            if isinstance(action, Peek):
                return "GOLF4-TURN-3", f"no peeking after the start: {text!r}"
            return "GOLF-DEAL-4", f"cards are turned up only in the setup phase: {text!r}"
        if isinstance(action, Flip) != (setup == "flip"):
            rid = "GOLF4-SETUP-2" if setup == "peek" else "GOLF6-SETUP-2"
            return rid, f"{name} setup uses {setup or 'nothing'}: {text!r}"
        if isinstance(action, Flip):
            return "GOLF6-SETUP-2", f"position {pos} is already face up: {text!r}"
        return "GOLF4-SETUP-2", f"position {pos} was already looked at: {text!r}"
    if phase == "setup":
        return "GOLF-DEAL-4", f"seat {seat} must finish the initial {layout.setup}s first: {text!r}"
    if isinstance(action, Draw | Take):
        msg = f"seat {seat} already holds a card and must place or discard it: {text!r}"
        return "GOLF-TURN-2", msg
    if isinstance(action, Discard):
        if phase == "taken":
            msg = f"a card taken from the discard pile must replace a layout card: {text!r}"
            return "GOLF-TURN-3", msg
        return "GOLF-TURN-1", f"seat {seat} must draw before discarding: {text!r}"
    if isinstance(action, Replace):
        if phase == "draw":
            return "GOLF-TURN-1", f"seat {seat} must draw or take a card first: {text!r}"
        found = ruleset and slots and pos is not None and removal_rule(ruleset, layout, pos, slots)
        rid = found or "GOLF-TURN-2"
        return rid, f"position {pos} holds no card to replace (it was removed): {text!r}"
    return "CORE-LEGAL-1", f"{text!r} is not a legal action for seat {seat} now"


def removal_rule(ruleset: Ruleset, layout: GridShape, pos: int, slots: Sequence[int]) -> str | None:
    """The rule ID of the first house rule whose ``golf_removable_groups`` answer has a
    group through *pos* that was removed (each of its positions empty in the seat's *slots*,
    ``-1``): the rule that removed the card there (``None``: none can be told). Asked only
    to explain a refusal, never on a hot path; wrappers are not asked (they answer nothing
    of their own)."""
    names = {info.name: info.id for info in ruleset.rules}
    hook = getattr(ruleset.pm.hook, "golf_removable_groups", None)
    size = len(slots)
    for impl in () if hook is None else reversed(hook.get_hookimpls()):  # in call order
        if impl.wrapper or impl.hookwrapper or impl.plugin_name not in names:
            continue
        with contextlib.suppress(Exception):  # a faulty answer explains nothing
            groups = impl.function(*[layout for _ in impl.argnames])
            for group in () if groups is None else tuple(groups)[:size]:
                cells = tuple(group)[:size]
                if pos in cells and all(
                    type(p) is int and 0 <= p < size and slots[p] < 0 for p in cells
                ):
                    return names[impl.plugin_name]
    return None


def parse_on(plan: Any, seat: int, text: str) -> GolfAction:
    """Read GOLF-NOTE-1 notation for *seat* under a :class:`~cardcore_golf.state.RoundPlan`.

    Canonical text is one look-up; other spellings are read and interned, and a position
    the layout does not have raises :class:`~cardcore.IllegalActionError` (GOLF-TURN-4).
    """
    if type(seat) is int and 0 <= seat < plan.players:
        found: GolfAction | None = plan.by_text[seat].get(text)
        if found is not None:
            return found
    cls, pos = read_notation(text)
    if pos < 0:
        return cast(GolfAction, plan.single_act[cls][seat])
    if pos < plan.layout.size:
        return cast(GolfAction, plan.pos_act[cls][seat][pos])
    # not interned: text must not grow the table of interned actions
    text = f"{cls.verb} {pos}"
    msg = f"seat {seat} has no position {pos} in {plan.layout.name}: {text!r} (GOLF-TURN-4)"
    raise IllegalActionError(msg, action=text, rule_id="GOLF-TURN-4")
