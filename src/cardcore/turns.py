"""Building blocks for turn-based games: turn order and ending a hand or game.

Every turn-based game repeats these steps; a game that uses them is shorter
and ends the way every other game does (cards revealed, ``to_act`` empty,
``is_over`` and ``result`` set together).
"""

from __future__ import annotations

import operator
from collections.abc import Collection, Mapping, Sequence
from collections.abc import Set as AbstractSet
from numbers import Complex, Number, Real
from operator import eq

from cardcore._text import shown
from cardcore.errors import ArgumentError
from cardcore.state import GameState, Result

__all__ = ["end_game", "next_seat", "reveal_all", "seats_from", "team", "winners_by"]


def next_seat(seat: int, players: int, *, direction: int = 1, skip: Collection[int] = ()) -> int:
    """Return the seat after *seat* in *direction* (1 clockwise, -1 the other way), passing *skip*.

    >>> next_seat(3, 4), next_seat(0, 4, direction=-1), next_seat(0, 4, skip={1, 2})
    (0, 3, 3)

    :raises ValueError: Every seat is skipped.
    :raises ArgumentError: *seat* or *players* is not an int (*players* 1 to 64), *direction*
        is neither 1 nor -1, or *skip* is not a collection of seats of *players*.
    """
    _check_seats(seat, players, direction)
    skip = _skipped(skip, players)
    for step in range(1, players + 1):
        candidate = (seat + step * direction) % players
        if candidate not in skip:
            return candidate
    msg = f"every seat of {players} is skipped"
    raise ValueError(msg)


def seats_from(
    first: int, players: int, *, direction: int = 1, skip: Collection[int] = ()
) -> tuple[int, ...]:
    """Return every seat once, starting at *first* (the order of a deal, a round of turns or
    a trick), without the seats in *skip* (a partner sitting out a lone hand, a seat that
    is out).

    >>> seats_from(2, 4), seats_from(3, 4, skip={1})
    ((2, 3, 0, 1), (3, 0, 2))

    The seat that won a trick is ``seats_from(leader, players, skip=out)[index]``, where
    *index* is :func:`cardcore.tricks.trick_winner`'s answer. Every seat skipped: ``()``.

    :raises ArgumentError: *first* or *players* is not an int (*players* 1 to 64), *direction*
        is neither 1 nor -1, or *skip* is not a collection of seats of *players*.
    """
    _check_seats(first, players, direction)
    skip = _skipped(skip, players)
    order = ((first + i * direction) % players for i in range(players))
    return tuple(s for s in order if s not in skip) if skip else tuple(order)


def team(seat: int, players: int, *, teams: int = 2) -> tuple[int, ...]:
    """Return the seats of *seat*'s team, itself among them, in seat order, where partners
    sit alternately round the table (seat ``s`` plays for team ``s % teams``): at four
    seats in two teams, 0 and 2 against 1 and 3.

    >>> team(1, 4), team(0, 6, teams=3)
    ((1, 3), (0, 3))

    A game of partners names a whole team as the winners
    (``end_game(state, team(seat, 4), ...)``), and a resignation's winners are the seats
    outside the resigning seat's team.

    :raises ArgumentError: *seat*, *players* or *teams* is not an int, *seat* is not a seat of
        *players* (1 to 64), or *teams* (1 or more) does not divide *players* evenly.
    """
    _check_seats(seat, players, 1)
    if type(teams) is not int or teams < 1 or players % teams:
        plural = "s" * (players != 1)
        msg = f"teams must be an int from 1 up that divides {players} player{plural}, not {shown(teams, 40)}"
        raise ArgumentError(msg)
    return tuple(range(seat % teams, players, teams))


def _check_seats(seat: object, players: object, direction: object) -> None:
    if type(players) is not int or not 1 <= players <= 64:
        msg = f"players must be an int from 1 to 64, not {shown(players, 40)}"
        raise ArgumentError(msg)
    for what, value in (("seat", seat), ("direction", direction)):
        if type(value) is not int:
            msg = f"{what} must be an int, not {shown(value, 40)}"
            raise ArgumentError(msg)
    if direction not in (1, -1):
        msg = f"direction must be 1 (clockwise) or -1 (the other way), not {direction}"
        raise ArgumentError(msg)
    if type(seat) is int and type(players) is int and not 0 <= seat < players:
        msg = f"seat must be a seat from 0 to {players - 1}, not {seat}"
        raise ArgumentError(msg)


def _skipped(skip: object, players: int) -> frozenset[int]:
    """*skip* as a set of seats (numpy's ints too), or :class:`ArgumentError`."""
    if isinstance(skip, str | bytes) or not isinstance(skip, Collection):
        msg = f"skip must be a collection of seats (a set, a tuple), not {shown(skip, 40)}"
        raise ArgumentError(msg)
    seats = set()
    try:
        items = list(skip)
    except Exception:  # a collection that cannot be read (a 0-d numpy array)
        msg = f"skip must be a collection of seats (a set, a tuple), not {shown(skip, 40)}"
        raise ArgumentError(msg) from None
    for s in items:
        try:
            seat = -1 if isinstance(s, bool) else operator.index(s)
        except Exception:  # (an __index__ of its own that fails, too)
            seat = -1
        if not 0 <= seat < players:
            msg = f"skip must hold seats from 0 to {players - 1}, not {shown(s, 40)}"
            raise ArgumentError(msg)
        seats.add(seat)
    return frozenset(seats)


def reveal_all(state: GameState, zones: Sequence[int] | None = None) -> None:
    """Turn every card of *zones* (default: every pile) face up for everyone (beneath the top
    of a ``TOP`` pile still shows to nobody: see :class:`~cardcore.Visibility`).

    :raises ArgumentError: *zones* is not a sequence of pile ids (nothing is turned).
    """
    z = state.zones
    count = len(z.cards)
    if zones is not None and (
        isinstance(zones, str | bytes)
        or not isinstance(zones, Sequence)
        or not all(type(i) is int and 0 <= i < count for i in zones)
    ):
        msg = f"zones must be a sequence of pile ids from 0 to {count - 1}, not {shown(zones, 40)}"
        raise ArgumentError(msg)
    for zid in range(count) if zones is None else zones:
        seen = z.seen[zid]
        for i in range(len(seen)):
            seen[i] = -1


def winners_by(scores: Sequence[float], *, lowest: bool = True) -> tuple[int, ...]:
    """Return the seats with the best score (ties share): lowest by default, else highest.

    >>> winners_by([3, 1, 1]), winners_by([3, 1, 3], lowest=False)
    ((1, 2), (0, 2))

    :raises ArgumentError: *scores* are not one or more real numbers in seat order (NaN
        is none, nor a complex number; a set or a mapping has no order of seats).
    """
    try:
        if isinstance(scores, Mapping | str | bytes | AbstractSet):  # (a mapping's keys are no
            raise TypeError  # scores; a set has no order of seats)
        best = min(scores) if lowest else max(scores)
        seats = tuple(s for s, v in enumerate(scores) if v == best)
        nan = not all(map(eq, scores, scores))  # NaN is not itself (one pass in C)
        nan = nan or not isinstance(best, Number)  # (texts order too: no scores)
        nan = nan or (isinstance(best, Complex) and not isinstance(best, Real))  # 1j
    except (TypeError, ValueError, ArithmeticError):  # no scores, or one that is no number
        seats, nan = (), False
    if not seats or nan:
        raise ArgumentError(f"winners_by takes one number per seat (not NaN), not {shown(scores)}")
    return seats


_PLAIN = (list, tuple)


_NUMBERS = frozenset((int, float))
"""The types of numbers :func:`end_game` reads without a closer look (the common case)."""


def _not_a_number(value: object) -> bool:
    """A bool or a text: Python reads them as numbers (``True`` as 1, ``"1"`` as 1.0)."""
    return type(value) is bool or isinstance(value, str | bytes | bytearray)


def end_game(
    state: GameState,
    winners: Sequence[int],
    scores: Sequence[float],
    reason: str,
    *,
    payouts: Sequence[int] | None = None,
    reveal: bool = True,
) -> Result:
    """End the game: reveal the cards (by default), empty ``to_act``, set ``is_over`` and ``result``.

    Pass ``reveal=False`` when the rules keep some cards hidden after the game (Euchre's
    buried kitty, a hand that folded), and show the rest with :func:`reveal_all` first:
    by default every card of every pile shows to every seat, but for what lies beneath the
    top of a ``TOP`` pile (nobody looks through it, at the end either).

    :param winners: The seats that won (none: nobody did).
    :param scores: One number per seat.
    :param reason: How the game ended, in a word or two (``"out"``, ``"rounds"``).
    :param payouts: One whole number per seat in the game's own unit, or ``None``.
    :returns: The :class:`~cardcore.Result` set on *state*.
    :raises ArgumentError: *winners* is not a sequence of seats, *scores* not one of
        numbers, *payouts* not one of whole numbers (a set, having no order of seats, is
        neither), or *reason* no text or empty (a bool or a text is no number:
        ``True``, ``"1"`` and ``1.5`` are refused as payouts); nothing changes. The core
        checks seats and counts against the game as it ends.
    """
    try:
        if (type(winners) not in _PLAIN or type(scores) not in _PLAIN) and any(
            isinstance(v, str | bytes | Mapping) for v in (winners, scores, payouts)
        ):  # (their letters or keys are no seats or numbers; lists and tuples: at once)
            raise TypeError
        if (
            payouts is not None
            and type(payouts) not in _PLAIN
            and isinstance(payouts, str | bytes | Mapping | AbstractSet)
        ) or (type(scores) not in _PLAIN and isinstance(scores, AbstractSet)):
            raise TypeError  # (a set has no order of seats)
        if type(reason) is not str or not reason:
            raise TypeError
        given, numbers = tuple(winners), tuple(scores)  # (a generator is read once)
        paid = () if payouts is None else tuple(payouts)
        items = given + numbers + paid  # True reads as 1, "1" as 1.0: refused
        if not _NUMBERS.issuperset(map(type, items)) and True in map(_not_a_number, items):
            raise TypeError
        result = Result(
            tuple(map(operator.index, given)),
            tuple(map(float, numbers)),
            None if payouts is None else tuple(map(operator.index, paid)),
            reason,
        )
    except (TypeError, ValueError):
        msg = (
            f"end_game takes winners (seats), scores (one number per seat) and payouts (one"
            f" whole number per seat, or None, each in seat order) and a reason (text), not"
            f" {shown(winners, 40)}, {shown(scores, 40)}, {shown(payouts, 40)}, {shown(reason, 40)}"
        )
        raise ArgumentError(msg) from None
    if reveal:
        reveal_all(state)
    state.to_act = ()
    state.is_over = True
    state.result = result
    return result
