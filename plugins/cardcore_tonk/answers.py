"""Checks of house rules' answers to Tonk's hooks that act during play."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardcore_tonk.state import TonkState

if TYPE_CHECKING:
    from cardcore_tonk.logic import TonkLogic

__all__ = ["always_ends", "checked_ender"]


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
