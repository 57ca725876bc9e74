"""The actions of Speed and their notation (SPEED-NOTE-1).

Play piles are written ``L`` (seat 0's) and ``R`` (seat 1's), as in Spit.
"""

from __future__ import annotations

from typing import ClassVar, TypeAlias

from attrs import frozen
from typing_extensions import override

from cardcore import Action, Card, NotationError, standard_52, with_jokers
from cardcore_spit.actions import SIDES

__all__ = ["PlayCard", "SpeedAction", "SpeedActionSet", "Stuck", "malformed"]


@frozen
class PlayCard(Action):
    """Seat *seat* plays *card* from its hand onto play pile *target*.

    Notation ``play 7H L``.
    """

    card: Card
    target: int
    verb: ClassVar[str] = "play"

    @override
    def notation(self) -> str:
        why = malformed(self)
        if why is not None:
            msg = f"malformed action {_shown(self)}: {why} (CORE-ACTION-1)"
            raise NotationError(msg)
        return f"play {self.card} {SIDES[self.target]}"


@frozen
class Stuck(Action):
    """Seat *seat* declares it is stuck (notation ``stuck``)."""

    verb: ClassVar[str] = "stuck"


SpeedAction: TypeAlias = PlayCard | Stuck
"""Any action of Speed (the action type of :class:`~cardcore_spit.speed.logic.SpeedLogic`)."""


def malformed(action: SpeedAction) -> str | None:
    """Say what makes a hand-built *action* malformed, or return ``None`` if it is well formed.

    Well formed is what :meth:`SpeedActionSet.parse` builds: a play's card is a
    :class:`~cardcore.Card` (``Card.parse("7H")``, not the text ``"7H"``) and its target
    the int 0 (``L``) or 1 (``R``); an int subclass (``True``) or a float is not an int
    here. A malformed play has no notation (``str`` raises
    :class:`~cardcore.NotationError`) and is refused as malformed (CORE-ACTION-1).
    Never raises.
    """
    if type(action) is PlayCard:
        card, target = action.card, action.target
        if type(card) is not Card:
            return "its card must be a Card (Card.parse('7H')), not text or another value"
        if type(target) is not int or not 0 <= target <= 1:
            return "its target must be 0 (L) or 1 (R)"
    return None


def _shown(action: object) -> str:
    """The action's repr for an error message (never raises; huge ints are not printed)."""
    try:
        text = repr(action)
    except Exception:  # a huge int (Python refuses to print one) or a broken __repr__
        return f"<a {type(action).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


class SpeedActionSet:
    """Every Speed action, built once (interned), and their parser.

    ``plays[seat][card, target]`` (every card of a deck with jokers) and ``stucks[seat]``.
    """

    def __init__(self) -> None:
        every = with_jokers(standard_52(), 2)
        seats = (0, 1)
        self.plays: tuple[dict[tuple[Card, int], PlayCard], ...] = tuple(
            {(card, p): PlayCard(s, card, p) for card in every for p in (0, 1)} for s in seats
        )
        self.stucks = tuple(Stuck(s) for s in seats)
        # the canonical notation of every action (what records hold): parse skips the words
        self.by_text: tuple[dict[str, SpeedAction], ...] = tuple(
            {**{a.notation(): a for a in self.plays[s].values()}, "stuck": self.stucks[s]}
            for s in seats
        )

    def parse(self, seat: int, text: str) -> SpeedAction:
        """Read SPEED-NOTE-1 notation for *seat* (0 or 1) into the interned action.

        :raises NotationError: *text* is malformed (well-formed but illegal text parses).
        """
        if seat == 0 or seat == 1:
            found = self.by_text[seat].get(text)
            if found is not None:
                return found
        words = text.split()
        verb = words[0].lower() if words else ""
        if seat in (0, 1):
            if len(words) == 1 and verb == "stuck":
                return self.stucks[seat]
            if len(words) == 3 and verb == "play":
                try:
                    card = Card.parse(words[1])
                except NotationError:
                    msg = f"cannot read {text!r}: {words[1]!r} is not a card (SPEED-NOTE-1)"
                    raise NotationError(msg) from None
                side = words[2].upper()
                if side not in SIDES:
                    msg = f"cannot read {text!r}: expected L or R, not {words[2]!r} (SPEED-NOTE-1)"
                    raise NotationError(msg)
                return self.plays[seat][card, SIDES.index(side)]
        msg = f"cannot read {text!r}: expected 'play <card> L|R' or 'stuck' for seat 0 or 1 (SPEED-NOTE-1)"
        raise NotationError(msg)
