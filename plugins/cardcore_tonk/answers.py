"""Checks of house rules' answers to Tonk's hooks that act during play and judge deals."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardcore_tonk.melds import DealVerdict
from cardcore_tonk.state import TonkState

if TYPE_CHECKING:
    from cardcore_tonk.logic import TonkLogic

__all__ = ["VERDICT", "always_ends", "checked_ender", "usable_verdict"]


def always_ends(state: TonkState) -> bool:
    """TONK-STOCK-1: a turn that begins with an empty stock ends the hand (the game's answer)."""
    return True


def checked_ender(logic: TonkLogic, ends: Any) -> Callable[[TonkState], bool]:
    """A house rule's answer to ``tonk_hand_ends_on_empty_stock``, refused now unless it
    is a function; each call must answer True or False and leave the state as it was (the
    game's own answer is trusted: checking it cost random play 6%)."""
    hook = "tonk_hand_ends_on_empty_stock"
    if ends is always_ends:
        game_own: Callable[[TonkState], bool] = always_ends
        return game_own
    if not callable(ends):
        raise logic.refused_answer(hook, ends, "a function of the state")

    def ends_on_empty(state: TonkState) -> bool:
        before = state.snapshot()
        answer = ends(state)
        if state.snapshot() != before:
            raise logic.refused_answer(hook, ends, "a function that only reads the state")
        return bool(logic.checked_answer(hook, answer, bool))

    return ends_on_empty


VERDICT = "None or a DealVerdict: a reason (printable text, not blank), None or a seat, a whole number of stakes per seat summing to zero, a flag, and None or the distinct seats shown"
"""What a deal judge may answer, for the error that refuses another answer."""


def usable_verdict(verdict: Any, players: int) -> bool:
    """Whether *verdict*, a deal judge's answer, is one a hand of *players* can settle
    (see :data:`VERDICT`).

    >>> usable_verdict(DealVerdict("natural", 0, (2, -1, -1)), 3), usable_verdict("void", 3)
    (True, False)
    >>> usable_verdict(DealVerdict("", 0, (1, -1)), 2)  # a reason is printable text, not blank
    False
    """
    if type(verdict) is not DealVerdict:
        return False
    seat, units, shown = verdict.seat, verdict.units, verdict.shown
    return (
        type(verdict.reason) is str
        and verdict.reason.isprintable()  # no terminal escapes: verify and replay print it
        and verdict.reason.strip() != ""
        and (seat is None or (type(seat) is int and 0 <= seat < players))
        and type(units) in (tuple, list)
        and len(units) == players
        and all(type(u) is int and -1000 <= u <= 1000 for u in units)
        and sum(units) == 0
        and type(verdict.redeal) is bool
        and (
            shown is None
            or (
                type(shown) in (tuple, list)
                and all(type(s) is int and 0 <= s < players for s in shown)
                and len(set(shown)) == len(shown)
            )
        )
    )
