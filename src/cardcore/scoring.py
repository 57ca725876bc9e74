"""Scoring tables, score sheets and the stakes ledger.

A :class:`ScoreTable` maps cards to points and is built once per game
configuration, so a house rule that changes card values swaps the table
instead of adding work to every decision. A :class:`ScoreSheet` keeps round
scores and running totals; a :class:`Ledger` keeps payments that always sum
to zero.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import add
from typing import Any

from attrs import frozen
from typing_extensions import Self

from cardcore._text import shown
from cardcore.cards import Card, Rank
from cardcore.errors import ArgumentError, CardcoreError

__all__ = ["Ledger", "LedgerError", "ScoreSheet", "ScoreTable"]


@frozen
class ScoreTable:
    """Points per card, looked up by rank (and by the exact card where a rule says so).

    >>> table = ScoreTable.from_ranks({"A": 1, "K": 0, "JK": -2}, default=10)
    >>> table[Card.parse("KH")], table[Card.parse("QS")], table[Card.parse("JK")]
    (0, 10, -2)
    >>> table.replace({"JH": -2})[Card.parse("JH")]
    -2
    """

    by_rank: Mapping[Rank, int]
    by_card: Mapping[Card, int]

    @classmethod
    def from_ranks(
        cls, points: Mapping[str | Rank, int], *, default: int | None = None
    ) -> ScoreTable:
        """Build a table from rank labels (``"A"``, ``"10"``, ``"JK"``) or :class:`Rank` members.

        :param points: Points per rank.
        :param default: Points for every rank not named; ``None`` leaves them unscored
            (looking one up raises ``KeyError``).
        :raises ArgumentError: *points* is not a mapping, has a key that names no rank,
            or gives points that are not an int (an empty mapping is a table of *default*).
        """
        if not isinstance(points, Mapping):
            msg = (
                f"a score table is built from a mapping of rank to points, not {shown(points, 60)}"
            )
            raise ArgumentError(msg)
        by_rank: dict[Rank, int] = {}
        if default is not None:
            by_rank = {rank: _points(default, "default") for rank in Rank}
        for key, value in points.items():
            by_rank[_rank(key)] = _points(value, key)
        return cls(dict(by_rank), {})

    @classmethod
    def face_values(
        cls, *, jack: int = 10, queen: int = 10, king: int = 10, joker: int = 0
    ) -> ScoreTable:
        """Ace 1, 2 to 10 at face value, and the court cards and joker as given."""
        points: dict[str | Rank, int] = {Rank(n): n for n in range(1, 11)}
        points.update({Rank.JACK: jack, Rank.QUEEN: queen, Rank.KING: king, Rank.JOKER: joker})
        return cls.from_ranks(points)

    @classmethod
    def from_points(
        cls, points: Callable[[Card], int | None], cards: Iterable[Card], *, default: int = 0
    ) -> ScoreTable:
        """Build a table by asking *points* (e.g. the resolved ``card_points`` hook) for each card.

        >>> ScoreTable.from_points(lambda c: 5 if c.rank.label == "K" else None,
        ...                        [Card.parse("KH"), Card.parse("2S")])[Card.parse("KH")]
        5

        :param points: Points for a card, or ``None`` for *default*.
        :param cards: The cards in play (duplicates are fine).
        :param default: Points for a card *points* does not value.
        :raises ArgumentError: *points* answered something else than an int or ``None``,
            or *cards* holds something that is not a :class:`~cardcore.Card`.
        """
        try:  # a copy, in order: a callback that edits *cards* changes nothing asked
            given = list(cards)
        except Exception as exc:
            msg = f"from_points takes an iterable of cards, not {shown(cards, 40)}: {shown(exc, 80)}"
            raise ArgumentError(msg) from None
        by_card: dict[Card, int] = {}
        for card in given:  # an error names the first bad card in every process
            if type(card) is not Card:
                msg = f"from_points takes cards, not {shown(card, 40)} (parse_cards reads text)"
                raise ArgumentError(msg)
            if card in by_card:
                continue
            value = points(card)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                msg = f"points for {card} must be an int or None, not {shown(value)}"
                raise ArgumentError(msg)
            by_card[card] = default if value is None else int(value)
        return cls({}, by_card)

    def replace(self, points: Mapping[str | Rank | Card, int]) -> ScoreTable:
        """Return a copy where the named ranks (``"K"``) or exact cards (``"JH"``) score anew.

        :raises ArgumentError: *points* is not a mapping, or gives points that are not an int.
        :raises NotationError: A key is neither a rank nor a card (a :class:`~cardcore.Card`
            or its text).
        """
        if not isinstance(points, Mapping):
            msg = f"replace takes a mapping of rank or card to points, not {shown(points, 60)}"
            raise ArgumentError(msg)
        by_rank = dict(self.by_rank)
        by_card = dict(self.by_card)
        for key, value in points.items():
            value = _points(value, key)
            if isinstance(key, Rank) or (isinstance(key, str) and key.upper() in _LABEL_TO_RANK):
                by_rank[_rank(key)] = value
            else:  # a card, or its text (anything else: Card.parse says what it is not)
                by_card[key if isinstance(key, Card) else Card.parse(key)] = value
        return type(self)(by_rank, by_card)

    def __getitem__(self, card: Card) -> int:
        """Points of *card*.

        :raises KeyError: Its rank is unscored (a table built with no *default*).
        :raises ArgumentError: *card* is not a :class:`~cardcore.Card`.
        """
        try:
            if self.by_card:
                exact = self.by_card.get(card)
                if exact is not None:
                    return exact
            return self.by_rank[card.rank]
        except (AttributeError, TypeError):  # (no cost unless raised) not a card: "KH" is
            # text; a list cannot even be looked up
            msg = f"a score table is read by card (see cardcore.parse_cards), not {shown(card, 40)}"
            raise ArgumentError(msg) from None

    def total(self, cards: Iterable[Card]) -> int:
        """Return the sum of the points of *cards*."""
        return sum(self[c] for c in cards)

    def as_dict(self) -> dict[str, int]:
        """Return the table as ``{"A": 1, ..., "JH": -2}`` for docs and records."""
        out = {rank.label: pts for rank, pts in sorted(self.by_rank.items())}
        out.update({str(card): pts for card, pts in self.by_card.items()})
        return out


_LABEL_TO_RANK = {rank.label: rank for rank in Rank}


def _rank(key: str | Rank) -> Rank:
    if isinstance(key, Rank):
        return key
    rank = _LABEL_TO_RANK.get(key.upper()) if isinstance(key, str) else None
    if rank is None:
        labels = ", ".join(_LABEL_TO_RANK)
        msg = f"not a rank: {shown(key, 40)} (one of {labels}, or a Rank)"
        raise ArgumentError(msg)
    return rank


def _points(value: object, key: object) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):  # whole points
        msg = f"points for {shown(key, 40)} must be an int, not {shown(value, 40)}"
        raise ArgumentError(msg)
    return int(value)


class ScoreSheet:
    """Round scores per seat and their running totals, across the rounds of a match.

    >>> sheet = ScoreSheet(2)
    >>> sheet.add_round([11, 4]); sheet.add_round([3, 9])
    >>> sheet.totals, len(sheet.rounds)
    ([14, 13], 2)
    """

    __slots__ = ("rounds", "totals")

    def __init__(self, players: int) -> None:
        """:raises ArgumentError: *players* is not an int from 1 to 64."""
        if type(players) is not int or not 1 <= players <= 64:
            msg = f"a score sheet is kept for 1 to 64 seats, not {shown(players, 40)}"
            raise ArgumentError(msg)
        self.rounds: list[tuple[int, ...]] = []
        self.totals: list[int] = [0] * players

    def add_round(self, scores: Sequence[int]) -> None:
        """Append one round's scores (one per seat) and add them to the totals.

        A numpy number is kept as Python's own (an int or a float), so :meth:`snapshot`
        stays JSON-ready.

        :raises ArgumentError: Not a list or tuple of one finite number per seat, or one
            that would take a total beyond a float's range (nothing is added).
        """
        if not isinstance(scores, list | tuple) or len(scores) != len(self.totals):
            msg = f"a round's scores are {len(self.totals)} numbers, one per seat, not {shown(scores, 80)}"
            raise ArgumentError(msg)
        if not _INTS.issuperset(map(type, scores)):  # ints: the usual case, one pass
            if not all(_finite(x) for x in scores):
                msg = f"a round's scores are {len(self.totals)} numbers, one per seat, not {shown(scores, 80)}"
                raise ArgumentError(msg)
            # Python's own numbers (numpy's are not JSON-ready, as snapshot() promises)
            python: list[Any] = [int(x) if isinstance(x, numbers.Integral) else float(x) for x in scores]
            scores = python
            try:  # (floats: ints never overflow)
                ok = all(math.isfinite(t + x) for t, x in zip(self.totals, scores, strict=True))
            except OverflowError:  # an int total too large for a float
                ok = False
            if not ok:
                msg = f"a round's scores {shown(scores, 80)} would take a total beyond a float's range"
                raise ArgumentError(msg)
        self.rounds.append(tuple(scores))
        for seat, score in enumerate(scores):
            self.totals[seat] += score

    def clone(self) -> Self:
        """Return an independent copy."""
        new = object.__new__(type(self))
        new.rounds = self.rounds[:]
        new.totals = self.totals[:]
        return new

    def snapshot(self) -> dict[str, object]:
        """Return the sheet as JSON-ready data."""
        return {"rounds": [list(r) for r in self.rounds], "totals": list(self.totals)}


def _finite(x: object) -> bool:
    """A number a score can be (numpy's too): no bool, no nan, no infinity."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return False
    return isinstance(x, numbers.Integral) or math.isfinite(x)


class LedgerError(CardcoreError, ValueError):
    """A posting that does not balance (payments must sum to zero)."""


_INTS = frozenset({int})


_MOST = 10**15
"""The largest amount, in size, a ledger posts (a position's fields hold no more)."""


class Ledger:
    """Stakes and payouts between seats; every posting sums to zero.

    >>> ledger = Ledger(3)
    >>> ledger.post([4, -2, -2], "out")
    >>> ledger.pay(payer=1, payee=2, amount=1, reason="side bet")
    >>> ledger.totals, sum(ledger.totals)
    ([4, -3, -1], 0)
    """

    __slots__ = ("entries", "totals")

    def __init__(self, players: int) -> None:
        if type(players) is not int or not 1 <= players <= 64:
            msg = f"a ledger is kept for 1 to 64 seats, not {shown(players)}"
            raise LedgerError(msg)
        self.entries: list[tuple[str, tuple[int, ...]]] = []
        self.totals: list[int] = [0] * players

    def post(self, amounts: Sequence[int], reason: str) -> None:
        """Record one settlement: the net amount each seat receives (negative: pays).

        :raises LedgerError: If the amounts are not one whole number per seat summing to
            zero (a float or a bool is refused: payouts are integers, CORE-SCORE-1), each
            at most 10**15 in size, as is every balance after it (what a position holds).
        """
        if (
            type(amounts) not in (list, tuple)
            or type(reason) is not str
            or len(amounts) != len(self.totals)
            or not _INTS.issuperset(map(type, amounts))  # ints only: no float, no bool
            or sum(amounts) != 0
            or not -_MOST <= min(amounts) <= max(amounts) <= _MOST  # (a seat at least)
        ):
            msg = f"ledger posting {shown(amounts)} for {shown(reason)} must be a list of one whole number per seat (at most 10**15 in size) that sum to zero, with a text reason"
            raise LedgerError(msg)
        totals = list(map(add, self.totals, amounts))
        if not -_MOST <= min(totals) <= max(totals) <= _MOST:
            msg = f"ledger posting {shown(amounts)} for {shown(reason)} would take a balance beyond 10**15 in size: {shown(totals)}"
            raise LedgerError(msg)
        self.entries.append((reason, tuple(amounts)))
        self.totals[:] = totals  # (the same list: a game may hold it)

    def pay(self, *, payer: int, payee: int, amount: int, reason: str) -> None:
        """Record that *payer* pays *amount* to *payee*.

        :raises LedgerError: If *payer* and *payee* are not two seats, or *amount* is not
            a whole number of at least 0 (a negative one would reverse the payment).
        """
        seats = range(len(self.totals))
        if not (type(payer) is int and type(payee) is int and payer in seats and payee in seats):
            msg = f"ledger payment for {shown(reason)}: payer and payee must be seats, not {shown(payer)} and {shown(payee)}"
            raise LedgerError(msg)
        if payer == payee or type(amount) is not int or amount < 0:
            msg = f"ledger payment for {shown(reason)}: seat {payer} cannot pay {shown(amount)} to seat {payee} (two seats, a whole number of at least 0)"
            raise LedgerError(msg)
        amounts = [0] * len(self.totals)
        amounts[payer] -= amount
        amounts[payee] += amount
        self.post(amounts, reason)

    def clone(self) -> Self:
        """Return an independent copy."""
        new = object.__new__(type(self))
        new.entries = self.entries[:]
        new.totals = self.totals[:]
        return new

    def snapshot(self) -> dict[str, object]:
        """Return the ledger as JSON-ready data."""
        return {"entries": [[r, list(a)] for r, a in self.entries], "totals": list(self.totals)}
