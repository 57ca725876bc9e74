"""Time stamps of actions (``at=``): what a game may record, checked before anything changes."""

from __future__ import annotations

import decimal
import numbers
import operator
from typing import TYPE_CHECKING, Any

from cardcore._driver import COLD, MAX_TIME
from cardcore._text import shown
from cardcore.errors import IllegalActionError

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["check_at"]


def _plain_time(at: Any, what: str, action: Any) -> int | float:
    """*at* as a plain int or float: a subclass read without its own conversions (which
    could raise or lie), another real number (numpy's, a Decimal) by its value; anything else
    refused."""
    kind = type(at)  # (not isinstance, which an object's own __class__ can answer)
    if issubclass(kind, bool):
        pass  # a flag is no time
    elif issubclass(kind, int | float):
        return int.__index__(at) if issubclass(kind, int) else float.__float__(at)
    elif isinstance(at, numbers.Real | decimal.Decimal) and not isinstance(at, type):
        try:
            value = operator.index(at) if isinstance(at, numbers.Integral) else float(at)
        except Exception:
            value = None
        if type(value) is int or type(value) is float:
            return value
    msg = f"{what} {shown(at)}: an action's time must be a number (CORE-RECORD-1)"
    raise IllegalActionError(msg, action=action, rule_id="CORE-RECORD-1")


def plain_clock(now: Any) -> int | float | None:
    """A host clock's *now* as a plain int or float (a subclass, such as numpy's float64, read
    without its own code, which could raise or lie), or ``None`` for a bool or anything else."""
    kind = type(now)  # (not isinstance, which an object's own __class__ can answer)
    if kind is int or kind is float:
        plain: int | float = now
        return plain
    if issubclass(kind, bool) or not issubclass(kind, int | float):
        return None
    return int.__index__(now) if issubclass(kind, int) else float.__float__(now)


def check_at(game: Game, at: Any, action: Any) -> float:
    """Return *at* if it is a time stamp the game may record, else raise (changes nothing).

    A finite int or float of at most :data:`MAX_TIME` in size; in real time, not
    earlier than the previous action's. A clock is read here, under the lock, so the
    stamps of concurrent callers are in the order their actions are applied.
    """
    kind = type(at)
    what = "at is"
    if kind is not int and kind is not float:  # a clock, or a number read through its own
        game._hot = COLD  # code: a call back to legal_actions finds the lock (refused)
        if callable(at) and not isinstance(at, type):
            at = at()  # the host's clock: its own exception reaches the host as it is
            kind = type(at)
            what = "the clock passed as at returned"
    if kind is not int and kind is not float:
        at = _plain_time(at, what, action)
    if not -MAX_TIME <= at <= MAX_TIME:  # also refuses NaN
        msg = f"{what} {shown(at)}: the time must be finite and at most {MAX_TIME:g} in size (CORE-RECORD-1)"
        raise IllegalActionError(msg, action=action, rule_id="CORE-RECORD-1")
    if game._realtime and at < game._last_at:
        msg = (
            f"at={at!r} is earlier than the latest time recorded ({game._last_at!r});"
            " real-time actions are recorded in time order (CORE-RECORD-1)"
        )
        raise IllegalActionError(msg, action=action, rule_id="CORE-RECORD-1")
    stamp: float = at
    return stamp
