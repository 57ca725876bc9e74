"""Tonk's actions, interned per seat, and their notation (TONK-NOTE-1).

Notation: ``drop``, ``draw``, ``take``, ``spread 5H 6H 7H``, ``hit 2 8H``,
``discard 9C``, and ``deal`` between the hands of a session. Actions are
values, so each is built once per seat and shared by every game
(:func:`spread_of`, :func:`hit_of`, :data:`DISCARDS` ...); :func:`parse_action`
reads the notation back into those same objects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from attrs import frozen

from cardcore import Action, Card, NotationError
from cardcore.notation import parse_int
from cardcore_tonk.melds import CARDS, index_of, meld_of
from cardcore_tonk.state import BETWEEN, HAND0, PLAY, START, TonkState

if TYPE_CHECKING:
    from cardcore_tonk.logic import TonkLogic

__all__ = [
    "DEALS",
    "DISCARDS",
    "MAX_SPREADS",
    "SEATS",
    "STARTS",
    "Deal",
    "Discard",
    "Draw",
    "Drop",
    "Hit",
    "Spread",
    "Take",
    "TonkAction",
    "hit_of",
    "is_legal",
    "parse_action",
    "spread_of",
    "why_illegal",
]

SEATS = 4
"""The most seats Tonk has (TONK-GEN-1): the interned tables cover seats 0 to 3."""
MAX_SPREADS = 17
"""52 cards make at most 17 spreads, so a hit on a higher number is never legal."""


@frozen
class TonkAction(Action):
    """Base class of Tonk's actions."""


@frozen
class Drop(TonkAction):
    """Drop at the start of the turn: show the hand and end it (TONK-TURN-2). Notation ``drop``."""

    verb: ClassVar[str] = "drop"


@frozen
class Draw(TonkAction):
    """Draw the top card of the stock (TONK-TURN-3). Notation ``draw``."""

    verb: ClassVar[str] = "draw"


@frozen
class Take(TonkAction):
    """Take the top card of the discard pile (TONK-TURN-3). Notation ``take``."""

    verb: ClassVar[str] = "take"


@frozen
class Spread(TonkAction):
    """Lay *cards* (sorted by rank, then suit) as a new spread. Notation ``spread 5H 6H 7H``."""

    cards: tuple[Card, ...]
    verb: ClassVar[str] = "spread"

    def notation(self) -> str:
        """``spread 5H 6H 7H``."""
        return "spread " + " ".join(map(str, self.cards))


@frozen
class Hit(TonkAction):
    """Add *card* to spread *number* (from 1, as shown in the view). Notation ``hit 2 8H``."""

    number: int
    card: Card
    verb: ClassVar[str] = "hit"

    def notation(self) -> str:
        """``hit 2 8H``."""
        return f"hit {self.number} {self.card}"


@frozen
class Discard(TonkAction):
    """Discard *card* face up, ending the turn. Notation ``discard 9C``."""

    card: Card
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        """``discard 9C``."""
        return f"discard {self.card}"


@frozen
class Deal(TonkAction):
    """Deal the next hand of the session (the new dealer, between hands). Notation ``deal``."""

    verb: ClassVar[str] = "deal"


# -- interned actions ---------------------------------------------------------------------------

_FIXED: tuple[tuple[Drop, Draw, Take], ...] = tuple(
    (Drop(s), Draw(s), Take(s)) for s in range(SEATS)
)
STARTS: tuple[tuple[tuple[TonkAction, ...], ...], ...] = tuple(
    tuple(
        tuple(a for a, on in zip(fixed, (True, stock, discard), strict=True) if on)
        for stock in (False, True)
        for discard in (False, True)
    )
    for fixed in _FIXED
)
"""Per seat, the start-of-turn actions (TONK-LEGAL-1), indexed by ``2 * stock + discard``
(whether the stock and the discard pile hold cards)."""
DEALS: tuple[tuple[Deal], ...] = tuple((Deal(s),) for s in range(SEATS))
"""Per seat, the one action between hands (TONK-SESSION-3)."""
DISCARDS: tuple[tuple[Discard, ...], ...] = tuple(
    tuple(Discard(s, c) for c in CARDS) for s in range(SEATS)
)
"""Per seat, the discard of each card, by card index."""
_KINDS = frozenset({Discard, Draw, Take, Drop, Deal, Spread, Hit})
_IDX: dict[int, int] = {id(c): i for i, c in enumerate(CARDS)}
_SPREADS: tuple[dict[int, Spread], ...] = tuple({} for _ in range(SEATS))
_HITS: tuple[dict[int, Hit], ...] = tuple({} for _ in range(SEATS))


def spread_of(seat: int, idx: tuple[int, ...], *, intern: bool = True) -> Spread:
    """Return the spread of *seat* made of card indices *idx* (ascending), interned.

    :param intern: ``False`` returns the interned action if there is one but
        builds a throw-away one otherwise (for text that may never be legal).
    """
    key = 0
    for x in idx:
        key |= 1 << x
    table = _SPREADS[seat]
    act = table.get(key)
    if act is None:
        act = Spread(seat, tuple([CARDS[x] for x in idx]))
        if intern:
            table[key] = act
    return act


def hit_of(seat: int, number: int, x: int) -> Hit:
    """Return the hit of card index *x* on spread *number* (from 1) by *seat*, interned."""
    if number > MAX_SPREADS:  # never legal: not worth interning
        return Hit(seat, number, CARDS[x])
    key = (number - 1) * 64 + x
    table = _HITS[seat]
    act = table.get(key)
    if act is None:
        act = table[key] = Hit(seat, number, CARDS[x])
    return act


# -- notation -------------------------------------------------------------------------------------

_EXPECTED = "drop, draw, take, spread <cards>, hit <n> <card>, discard <card> or deal"


def _malformed(text: str, expected: str) -> NotationError:
    return NotationError(f"cannot read {text!r}: expected {expected} (TONK-NOTE-1)")


def _card_index(word: str, text: str) -> int:
    try:
        card = Card.parse(word)
    except NotationError:
        card = None
    if card is None or card.suit is None:
        msg = f"cannot read {text!r}: {word!r} is not a card of the 52-card deck (TONK-NOTE-1)"
        raise NotationError(msg)
    return index_of(card)


_BY_TEXT: tuple[dict[str, TonkAction], ...] = tuple(
    {str(a): a for a in (*_FIXED[s], DEALS[s][0], *DISCARDS[s])} for s in range(SEATS)
)
"""Per seat, the actions without a spread or a hit by the text the engine writes for them."""


def parse_action(seat: int, text: str) -> TonkAction:
    """Read *text* as an action of *seat* (TONK-NOTE-1), returning the interned action.

    Malformed text raises :class:`~cardcore.NotationError`; a well-formed action
    is returned even if it is not legal now (the core then rejects it, citing
    the rule). *seat* is a seat of the game (the core checked it).
    """
    if type(seat) is int and -SEATS <= seat < SEATS:
        known = _BY_TEXT[seat].get(text)  # the text the engine writes (records, agents)
        if known is not None:
            return known
    words = text.split()
    if not words:
        raise _malformed(text, _EXPECTED)
    verb = words[0].lower()
    args = words[1:]
    if verb in ("drop", "draw", "take", "deal"):
        if args:
            raise _malformed(text, f"{verb!r} without arguments")
        if verb == "deal":
            return DEALS[seat][0]
        return _FIXED[seat][("drop", "draw", "take").index(verb)]
    if verb == "discard":
        if len(args) != 1:
            raise _malformed(text, "'discard <card>'")
        return DISCARDS[seat][_card_index(args[0], text)]
    if verb == "hit":
        if len(args) != 2:
            raise _malformed(text, "'hit <spread number from 1> <card>'")
        number = parse_int(args[0], "a spread number from 1")
        if number < 1:
            raise _malformed(text, "'hit <spread number from 1> <card>'")
        return hit_of(seat, number, _card_index(args[1], text))
    if verb == "spread":
        if not args:
            raise _malformed(text, "'spread <card> <card> <card> ...'")
        idx = tuple(sorted(_card_index(a, text) for a in args))
        if len(set(idx)) != len(idx):
            raise _malformed(text, "distinct cards")
        return spread_of(seat, idx, intern=False)  # interned when legal_actions offered it
    raise _malformed(text, _EXPECTED)


# -- why an action is refused ------------------------------------------------------------------


def is_legal(logic: TonkLogic, state: TonkState, action: TonkAction) -> bool:
    """Whether *action* is one of ``logic.legal_actions(state, action.seat)``, judged cheaply.

    A discard is judged from the hand and the card taken this turn (TONK-TURN-4);
    a draw, take, drop or deal is never legal in the middle of a turn; the rest
    (and actions built with odd field types) ask the legal set.
    """
    seat = action.seat
    kind = type(action)
    if type(seat) is not int or kind not in _KINDS:
        return action in logic.legal_actions(state, seat)
    if seat != state.turn or state.is_over:
        return False
    if state.phase != PLAY:
        legal = logic.legal_actions(state, seat)
        for a in legal:  # identity first: the actions are interned
            if a is action:
                return True
        return action in legal
    if type(action) is Discard:
        card = action.card
        x = _IDX.get(id(card))
        if x is None:  # not an interned card: compare by value
            return action in logic.legal_actions(state, seat)
        if x == state.taken:
            return False
        hand = state.zones.cards[HAND0 + seat]
        for c in hand:  # by identity first (cards are interned): no __eq__ call
            if c is card:
                return True
        return card in hand
    if kind is Spread or kind is Hit:
        return action in logic.legal_actions(state, seat)
    return False  # draw, take, drop, deal: only at the start of a turn or between hands


def why_illegal(state: TonkState, action: TonkAction) -> tuple[str, str]:
    """Return ``(rule_id, reason)``: the Tonk rule that makes *action* illegal in *state*.

    House-rule vetoes are cited by the core before it asks this.
    """
    seat = action.seat
    text = repr(str(action))
    if type(action) is Deal or state.phase == BETWEEN:
        return (
            "TONK-SESSION-3",
            f"{text} is not possible: only the next dealer deals, and only between hands",
        )
    if type(action) is Drop or type(action) is Draw or type(action) is Take:
        if state.phase != START:
            return (
                "TONK-TURN-2",
                f"seat {seat} has drawn already: {text} is only allowed at the start of a turn",
            )
        if type(action) is Draw:
            return "TONK-STOCK-1", f"the stock is empty: {text} is not possible"
        return "TONK-TURN-3", f"the discard pile is empty: {text} is not possible"
    if state.phase != PLAY:
        return "TONK-TURN-3", f"seat {seat} must draw or take before {text}"
    hand = [index_of(c) for c in state.zones.cards[HAND0 + seat]]
    if type(action) is Discard or type(action) is Hit:
        if index_of(action.card) not in hand:
            return (
                "TONK-TURN-3",
                f"seat {seat} does not hold {str(action.card)!r}: {text} rejected",
            )
        if type(action) is not Hit:
            return (
                "TONK-TURN-4",
                f"the card taken from the discard pile may not be discarded this turn: {text}",
            )
        number = action.number
        if number > len(state.melds):
            return (
                "TONK-HIT-1",
                f"there is no spread number {number} on the table: {text} rejected",
            )
        if index_of(action.card) not in state.targets[number - 1]:
            return (
                "TONK-HIT-1",
                f"{text} does not extend spread {number} to a valid book or run",
            )
        return "TONK-TURN-5", f"{text} would leave only the taken discard in hand"
    if type(action) is Spread:
        idx = [index_of(c) for c in action.cards]
        missing = [str(CARDS[x]) for x in idx if x not in hand]
        if missing:
            return "TONK-TURN-3", f"seat {seat} does not hold {missing!r}: {text} rejected"
        if meld_of(idx) is None:
            rule = "TONK-SPREAD-1" if len({x >> 2 for x in idx}) < len(idx) else "TONK-SPREAD-2"
            return (
                rule,
                f"{text} is neither a book of 3-4 of a rank nor a run of 3+ in one suit (ace low)",
            )
        return "TONK-TURN-5", f"{text} would leave only the taken discard in hand"
    return "CORE-LEGAL-1", f"{text} is not a legal action for seat {seat} now"
