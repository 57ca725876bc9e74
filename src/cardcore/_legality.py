"""The per-configuration legality wrappers the driver builds once: vetoes applied to a game's
legal set, and the check ``apply`` makes of one action."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from cardcore.actions import Action
from cardcore.info import Veto
from cardcore.logic import GameLogic

__all__ = ["legality", "vetoing"]


@functools.lru_cache(maxsize=256)  # one wrapper per configuration, not per game
def vetoing(
    legal: Callable[[Any, int], tuple[Action, ...]], veto: Callable[..., list[Veto]]
) -> Callable[[Any, int], tuple[Action, ...]]:
    """Wrap a game's ``legal_actions`` so the house rules' vetoes remove actions."""

    def legal_actions(state: Any, seat: int) -> tuple[Action, ...]:
        return tuple(a for a in legal(state, seat) if not veto(state=state, action=a))

    return legal_actions


@functools.lru_cache(maxsize=256)  # one check per configuration, not per game
def legality(
    logic: GameLogic[Any, Any], veto: Callable[..., list[Veto]] | None
) -> Callable[..., bool] | None:
    """The check ``apply`` makes of one action: its seat is to act, the game's ``is_legal``
    says yes, and no house rule vetoes it (``None``: the game has no ``is_legal`` of its
    own, so the legal set decides, computed once per version)."""
    if type(logic).is_legal is GameLogic.is_legal:
        return None
    is_legal = logic.is_legal
    if veto is None:
        return lambda state, action: action.seat in state.to_act and is_legal(state, action)

    def legal_and_allowed(state: Any, action: Action) -> bool:
        return (
            action.seat in state.to_act
            and is_legal(state, action)
            and not veto(state=state, action=action)
        )

    return legal_and_allowed
