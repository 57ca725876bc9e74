"""The actions of Spit, their notation and the claim rule value.

Every action is a frozen value whose notation is ``str(action)`` (SPIT-NOTE-1).
The game builds each possible action once and hands out the same objects from
``legal_actions``. Pile numbers are stored 0-based and written 1-based; spit
piles are written ``L`` (started by seat 0) and ``R`` (seat 1).
"""

from __future__ import annotations

from typing import ClassVar, TypeAlias

from attrs import frozen
from typing_extensions import override

from cardcore import Action, NotationError
from cardcore_spit.piles import PILES

__all__ = [
    "SIDES",
    "SLAP",
    "Claim",
    "ClaimRule",
    "Combine",
    "Fill",
    "Play",
    "Ready",
    "RequestSpit",
    "SpitAction",
    "SpitActionSet",
    "malformed",
    "parse_pile",
    "parse_side",
]

SIDES = ("L", "R")
"""The letters of the two centre piles, by index."""


@frozen
class Play(Action):
    """Seat *seat* plays the top card of its pile *pile* onto centre pile *target*.

    Notation ``play 3 L`` (pile 3 onto the left spit pile).
    """

    pile: int
    target: int
    verb: ClassVar[str] = "play"

    @override
    def notation(self) -> str:
        _check(self)
        return f"play {self.pile + 1} {SIDES[self.target]}"


@frozen
class Combine(Action):
    """Seat *seat* moves the top card of pile *src* onto pile *dst* of the same rank.

    Notation ``combine 2 4`` (pile 2 onto pile 4).
    """

    src: int
    dst: int
    verb: ClassVar[str] = "combine"

    @override
    def notation(self) -> str:
        _check(self)
        return f"combine {self.src + 1} {self.dst + 1}"


@frozen
class Fill(Action):
    """Seat *seat* moves the top card of pile *src* into its empty position *dst*.

    Notation ``fill 5 1`` (pile 5's top card into the empty position 1).
    """

    src: int
    dst: int
    verb: ClassVar[str] = "fill"

    @override
    def notation(self) -> str:
        _check(self)
        return f"fill {self.src + 1} {self.dst + 1}"


@frozen
class Ready(Action):
    """Seat *seat* ends its setup (notation ``ready``)."""

    verb: ClassVar[str] = "ready"


@frozen
class RequestSpit(Action):
    """Seat *seat* asks for a spit: it is stuck or does not want to play (``spit``)."""

    verb: ClassVar[str] = "spit"


@frozen
class Claim(Action):
    """Seat *seat* claims centre pile *target* at the end of a deal.

    The word comes from the configuration's claim rule (``slap L`` by default).
    """

    target: int
    word: str = "slap"
    verb: ClassVar[str] = "claim"

    @override
    def notation(self) -> str:
        _check(self)
        return f"{self.word} {SIDES[self.target]}"


SpitAction: TypeAlias = Play | Combine | Fill | Ready | RequestSpit | Claim
"""Any action of Spit (the action type of :class:`~cardcore_spit.logic.SpitLogic`)."""


@frozen
class ClaimRule:
    """How the spit piles are claimed when a two-pile deal ends.

    :param word: The action word (``"slap"``): 1-20 lowercase letters, not another
        action's word.
    :param emptier_only: ``True`` if only the player who emptied the layout claims.
    :param rule_id: The rule ID cited by claim actions (``"SPIT-END-2"``).
    """

    word: str
    emptier_only: bool
    rule_id: str


SLAP = ClaimRule(word="slap", emptier_only=False, rule_id="SPIT-END-2")
"""The base claim rule: the slap race (SPIT-END-2, SPIT-RT-3)."""


def malformed(action: SpitAction) -> str | None:
    """Say what makes a hand-built *action* malformed, or return ``None`` if it is well formed.

    Well formed is what :meth:`SpitActionSet.parse` builds: layout piles are ints 0-4
    (two different ones for a combine or a fill), centre piles the ints 0 (``L``) or 1
    (``R``), and a claim's word is text. An int subclass (``True``) or a float is not an
    int here: such an action has no notation (``str`` raises
    :class:`~cardcore.NotationError`) and is refused as malformed (CORE-ACTION-1).
    Never raises.
    """
    if type(action) is Play:
        if _pile(action.pile) and _side(action.target):
            return None
        return "its pile must be an int 0-4 and its target 0 (L) or 1 (R)"
    if type(action) is Combine or type(action) is Fill:
        src, dst = action.src, action.dst
        if _pile(src) and _pile(dst) and src != dst:
            return None
        return "its piles must be two different ints 0-4"
    if type(action) is Claim:
        if _side(action.target) and type(action.word) is str:
            return None
        return "its target must be 0 (L) or 1 (R) and its word text"
    return None


def _pile(value: object) -> bool:
    return type(value) is int and 0 <= value < PILES


def _side(value: object) -> bool:
    return type(value) is int and 0 <= value <= 1


def _check(action: SpitAction) -> None:
    """Raise :class:`~cardcore.NotationError` if *action* is :func:`malformed`."""
    why = malformed(action)
    if why is not None:
        msg = f"malformed action {_shown(action)}: {why} (CORE-ACTION-1)"
        raise NotationError(msg)


def _shown(action: Action) -> str:
    """The action's repr for an error message (never raises; huge ints are not printed)."""
    try:
        text = repr(action)
    except Exception:  # a huge int (Python refuses to print one) or a broken __repr__
        return f"<a {type(action).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


class SpitActionSet:
    """Every Spit action of one configuration, built once (interned), and their parser.

    ``plays[seat][pile][target]``, ``combines[seat][src][dst]``,
    ``fills[seat][src][dst]``, ``readies[seat]``, ``requests[seat]``,
    ``claims[seat][target]``.

    :param claim_word: The word of the configuration's claim rule (``"slap"``).
    """

    def __init__(self, claim_word: str) -> None:
        r5 = range(PILES)
        seats = (0, 1)
        self.claim_word = claim_word
        self.plays = tuple(tuple(tuple(Play(s, k, p) for p in (0, 1)) for k in r5) for s in seats)
        self.combines = tuple(tuple(tuple(Combine(s, j, i) for i in r5) for j in r5) for s in seats)
        self.fills = tuple(tuple(tuple(Fill(s, j, i) for i in r5) for j in r5) for s in seats)
        self.readies = tuple(Ready(s) for s in seats)
        self.requests = tuple(RequestSpit(s) for s in seats)
        self.claims = tuple(tuple(Claim(s, p, claim_word) for p in (0, 1)) for s in seats)

    def parse(self, seat: int, text: str) -> SpitAction:
        """Read SPIT-NOTE-1 notation for *seat* (0 or 1) into the interned action.

        :raises NotationError: *text* is malformed (well-formed but illegal text parses).
        """
        words = text.split()
        verb = words[0].lower() if words else ""
        n = len(words)
        if seat in (0, 1):
            if n == 1 and verb == "ready":
                return self.readies[seat]
            if n == 1 and verb == "spit":
                return self.requests[seat]
            if n == 3 and verb == "play":
                return self.plays[seat][parse_pile(text, words[1])][parse_side(text, words[2])]
            if n == 3 and verb in ("combine", "fill"):
                j, i = parse_pile(text, words[1]), parse_pile(text, words[2])
                if i == j:
                    msg = f"cannot read {text!r}: expected two different piles (SPIT-NOTE-1)"
                    raise NotationError(msg)
                return (self.combines if verb == "combine" else self.fills)[seat][j][i]
            if n == 2 and verb == self.claim_word:
                return self.claims[seat][parse_side(text, words[1])]
        msg = (
            f"cannot read {text!r}: expected 'play <pile 1-5> L|R', 'combine <pile> <pile>',"
            f" 'fill <pile> <pile>', 'ready', 'spit' or '{self.claim_word} L|R' for seat 0 or 1"
            " (SPIT-NOTE-1)"
        )
        raise NotationError(msg)


def parse_pile(text: str, word: str) -> int:
    """Read a layout pile number ``1``-``5`` of *text* as 0-based, or raise :class:`~cardcore.NotationError`."""
    if word in ("1", "2", "3", "4", "5"):
        return int(word) - 1
    msg = f"cannot read {text!r}: expected a pile number 1-5, not {word!r} (SPIT-NOTE-1)"
    raise NotationError(msg)


def parse_side(text: str, word: str) -> int:
    """Read a centre pile letter ``L`` or ``R`` of *text* as 0 or 1, or raise :class:`~cardcore.NotationError`."""
    side = word.upper()
    if side in SIDES:
        return SIDES.index(side)
    msg = f"cannot read {text!r}: expected L or R, not {word!r} (SPIT-NOTE-1)"
    raise NotationError(msg)
