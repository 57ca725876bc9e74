"""Test house rules for the draw game."""

from __future__ import annotations

import types
from collections.abc import Generator, Sequence

from cardcore import Action, Card, GameState, RuleInfo, Veto, hookimpl

kings_free = types.ModuleType("drawgame_kings_free")
no_hearts = types.ModuleType("drawgame_no_hearts")
penalty = types.ModuleType("drawgame_penalty")
boom = types.ModuleType("drawgame_boom")

kings_free.RULE = RuleInfo("DRAW-VAR-1", "drawgame.kings-free", "drawgame", "kings score 0")  # type: ignore[attr-defined]
no_hearts.RULE = RuleInfo("DRAW-VAR-2", "drawgame.no-hearts", "drawgame", "hearts may not be discarded", conflicts=("DRAW-VAR-3",))  # type: ignore[attr-defined]
penalty.RULE = RuleInfo("DRAW-VAR-3", "drawgame.penalty", "drawgame", "seat 0 gets +100")  # type: ignore[attr-defined]
boom.RULE = RuleInfo("DRAW-VAR-4", "drawgame.boom", "drawgame", "raises when scoring")  # type: ignore[attr-defined]


@hookimpl
def _kings(card: Card) -> int | None:
    return 0 if card.label == "K" else None


@hookimpl
def _no_hearts(state: GameState, action: Action) -> Veto | None:
    card = getattr(action, "card", None)
    if card is not None and card.suit is not None and card.suit.letter == "H":
        return Veto("DRAW-VAR-2", f"hearts may not be discarded: {str(card)!r}")
    return None


@hookimpl(wrapper=True)
def _penalty(state: GameState, scores: Sequence[int]) -> Generator[None, Sequence[int], Sequence[int]]:
    inner = yield
    out = list(inner)
    out[0] += 100
    return out


@hookimpl
def _boom(state: GameState, scores: Sequence[int]) -> Sequence[int]:
    raise RuntimeError("boom")


kings_free.card_points = _kings  # type: ignore[attr-defined]
no_hearts.forbid_action = _no_hearts  # type: ignore[attr-defined]
penalty.score_round = _penalty  # type: ignore[attr-defined]
boom.score_round = _boom  # type: ignore[attr-defined]
