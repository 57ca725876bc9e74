"""Tonk's actions, interned per seat, and their notation (TONK-NOTE-1).

Notation: ``drop``, ``draw``, ``take``, ``spread 5H 6H 7H``, ``hit 2 8H``,
``discard 9C``, and ``deal`` between the hands of a session. Actions are
values, so each is built once per seat and shared by every game
(:func:`spread_of`, :func:`hit_of`, :data:`DISCARDS` ...); :func:`parse_action`
reads the notation back into those same objects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from attrs import field, frozen

from cardcore import Action, Card, NotationError
from cardcore.notation import parse_int
from cardcore_tonk.melds import (
    CARDS,
    grow,
    has_spread,
    hit_targets,
    index_of,
    meld_of,
    spreads_of,
)
from cardcore_tonk.state import BETWEEN, DISCARD, HAND0, PLAY, START, STOCK, TonkState

if TYPE_CHECKING:
    from cardcore_tonk.logic import TonkLogic

__all__ = [
    "DEALS",
    "DISCARDS",
    "MAX_SPREADS",
    "SEATS",
    "STARTS",
    "STARTS_ASKING",
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
    "legal_actions",
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

    number: int = field(eq=lambda n: (type(n), n))  # no equal to ``hit 1 8H``: True, 1.0
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
STARTS_ASKING: tuple[tuple[tuple[TonkAction, ...], ...], ...] = tuple(
    ((d, a), (d, a, t), (d, a), (d, a, t)) for d, a, t in _FIXED
)
"""As :data:`STARTS` where a house rule plays on with the stock out: ``draw`` asks for the
empty stock, which ends the hand (the rule ends it otherwise only after a quiet round)."""
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


_BITS = tuple(1 << i for i in range(len(CARDS)))
_BIT_OF: dict[int, int] = {id(c): 1 << i for i, c in enumerate(CARDS)}
"""A card's bit by ``id``: sorting bits sorts the cards by index, and their sum is the hand's mask."""
_INDEX_OF_BIT: dict[int, int] = {1 << i: i for i in range(len(CARDS))}
_DISCARD_OF_BIT: tuple[dict[int, Discard], ...] = tuple(
    {1 << i: d for i, d in enumerate(row)} for row in DISCARDS
)
_BOOKS = bytes(int(bin(b & 15).count("1") >= 3 or bin(b >> 4).count("1") >= 3) for b in range(256))
"""By a byte of a hand's mask (two ranks, a nibble each): 1 if it holds three of a rank."""
_NO_BOOK = bytes(7)  # a mask's 7 bytes translated by _BOOKS when it holds no book


class _TargetMasks(dict[tuple[int, ...], int]):
    """The mask of a tuple of hit targets, worked out once per tuple."""

    def __missing__(self, key: tuple[int, ...]) -> int:
        mask = self[key] = sum(_BITS[x] for x in set(key))
        return mask


_TARGET_MASKS = _TargetMasks()


# -- the legal actions ----------------------------------------------------------------------------


def legal_actions(logic: TonkLogic, state: TonkState, seat: int) -> tuple[TonkAction, ...]:
    """The legal actions of *seat*, in the order of TONK-LEGAL-1 (the core removes vetoes).

    ``TonkLogic.legal_actions``. The common case after a draw -- no spread in
    hand, no card that hits a spread -- is told from the hand's mask (its
    cards' bits, sorted: the listing order) and answered with the discards alone.
    """
    if seat != state.turn or state.is_over:
        return ()
    phase = state.phase
    if phase == START:
        cards = state.zones.cards
        return logic.starts[seat][(2 if cards[STOCK] else 0) + (1 if cards[DISCARD] else 0)]
    if phase != PLAY:
        return DEALS[seat]
    bits = sorted(map(_BIT_OF.__getitem__, map(id, state.zones.cards[HAND0 + seat])))
    mask = sum(bits)
    if mask & (mask >> 4) & (mask >> 8) or (
        mask.to_bytes(7, "little").translate(_BOOKS) != _NO_BOOK
    ):  # a run or a book in hand
        return _play_actions(state, seat, bits, mask)
    targets = state.targets
    if targets:
        masks = _TARGET_MASKS
        for tg in targets:
            if mask & masks[tg]:  # a card that hits a spread
                return _play_actions(state, seat, bits, mask)
    taken = state.taken
    if taken >= 0 and (mask >> taken) & 1:  # TONK-TURN-4
        bits.remove(_BITS[taken])
    return tuple(map(_DISCARD_OF_BIT[seat].__getitem__, bits))


def _hits_after(state: TonkState, spread: tuple[int, ...], number: int = -1, x: int = -1) -> bool:
    """Whether the taken discard, left alone in hand by laying *spread* (or by hitting spread
    *number* with card *x*), could still hit a spread and so go out (TONK-TURN-5)."""
    taken = state.taken
    for k, tg in enumerate(state.targets):
        if k != number and taken in tg:
            return True
    if number >= 0:
        return taken in hit_targets(grow(state.melds[number], x))
    meld = meld_of(spread)
    return meld is not None and taken in hit_targets(meld)


def _play_actions(
    state: TonkState, seat: int, bits: list[int], mask: int
) -> tuple[TonkAction, ...]:
    """The legal actions after a draw when a spread or a hit is possible (TONK-LEGAL-1)."""
    idx = list(map(_INDEX_OF_BIT.__getitem__, bits))
    taken = state.taken
    targets = state.targets
    discards = DISCARDS[seat]
    strand = taken >= 0 and (mask >> taken) & 1 == 1  # TONK-TURN-5
    n = len(idx)
    out: list[TonkAction] = []
    if has_spread(mask):
        for sp in spreads_of(idx):
            if strand and n - len(sp) == 1 and taken not in sp and not _hits_after(state, sp):
                continue
            out.append(spread_of(seat, sp))
    for num, tg in enumerate(targets):
        for x in tg:
            if (mask >> x) & 1:
                if strand and n == 2 and x != taken and not _hits_after(state, (), num, x):
                    continue
                out.append(hit_of(seat, num + 1, x))
    for x in idx:
        if x != taken:  # TONK-TURN-4
            out.append(discards[x])
    return tuple(out)


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

    Malformed text, or what is no text (``None``), raises :class:`~cardcore.NotationError`;
    a well-formed action is returned even if it is not legal now (the core then rejects
    it, citing the rule). *seat* is a seat of the game (the core checked it).
    """
    if type(seat) is int and -SEATS <= seat < SEATS:
        try:  # free on the hot path
            known = _BY_TEXT[seat].get(text)  # the text the engine writes (records, agents)
        except TypeError:  # unhashable: no text, refused below
            known = None
        if known is not None:
            return known
    try:
        words = text.split()
    except Exception:  # no text (None): free on the hot path
        msg = f"cannot read an object of type {type(text).__name__!r} as an action: expected text (TONK-NOTE-1)"
        raise NotationError(msg) from None
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
        if type(number) is not int or not 1 <= number <= len(state.melds):
            return (
                "TONK-HIT-1",
                f"there is no spread number {number!r} on the table: {text} rejected",
            )
        if index_of(action.card) not in state.targets[number - 1]:
            return (
                "TONK-HIT-1",
                f"{text} does not extend spread {number} to a valid book or run",
            )
        return (
            "TONK-TURN-5",
            f"{text} would leave only the taken discard in hand, and it could hit no spread",
        )
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
        return (
            "TONK-TURN-5",
            f"{text} would leave only the taken discard in hand, and it could hit no spread",
        )
    return "CORE-LEGAL-1", f"{text} is not a legal action for seat {seat} now"
