"""Deliberately broken variants of the test draw game: the kit must catch each one.

Every module here is a game plugin (``GAME`` plus ``create_logic``) whose
logic breaks exactly one promise of the conformance kit.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any

from cardcore import (
    ALL,
    Action,
    CardDrawn,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Ruleset,
    hookimpl,
)
from tests.plugins import drawgame
from tests.plugins.drawgame import DrawLogic, DrawState


class LeakyView(DrawLogic):
    """Shows every hand to everybody."""

    def table(self, state: GameState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        st: DrawState = state  # type: ignore[assignment]
        out["hands"] = [[str(c) for c in state.zones.cards[h]] for h in st.hands]
        return out


class SubtleLeak(DrawLogic):
    """Tells everybody whether seat 1 holds a heart, without showing any card."""

    def table(self, state: GameState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        st: DrawState = state  # type: ignore[assignment]
        out["hint"] = any(
            c.suit is not None and c.suit.letter == "H" for c in state.zones.cards[st.hands[1]]
        )
        return out


class LeakyEvent(DrawLogic):
    """Announces the card drawn from the stock to everybody."""

    def apply(self, state: GameState, action: Action, emit: Emit | None) -> None:
        st: DrawState = state  # type: ignore[assignment]
        if type(action) is drawgame.Draw and emit is not None:
            card = st.zones.cards[st.stock][-1]
            super().apply(state, action, None)
            emit(CardDrawn(action.seat, "stock", card, visible_to=ALL))
            return
        super().apply(state, action, emit)


class SeedInView(DrawLogic):
    """Puts the seed in the view."""

    def table(self, state: GameState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        out["shuffle"] = state.seed
        return out


class LosesCards(DrawLogic):
    """Drops the discarded card instead of putting it on the discard pile (now and then)."""

    def apply(self, state: GameState, action: Action, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        st: DrawState = state  # type: ignore[assignment]
        if type(action) is drawgame.Discard and len(st.zones.cards[st.stock]) == 20:
            st.zones.cards[st.discard].pop()
            st.zones.seen[st.discard].pop()


class TooShort(DrawLogic):
    """Declares an action bound its games exceed."""

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 10


class _LogState(DrawState):
    __slots__ = ("log",)


class SharedClone(DrawLogic):
    """Keeps a list of lists that clones share (it forgot ``_deep``)."""

    def new_state(
        self, players: int, options: Mapping[str, Any], cards: list[Any], seed: int
    ) -> GameState:
        st = super().new_state(players, options, cards, seed)
        new = _LogState.__new__(_LogState)
        for name in (
            "players",
            "options",
            "zones",
            "to_act",
            "is_over",
            "result",
            "seed",
            "draws",
            *DrawState.__slots__,
        ):
            setattr(new, name, getattr(st, name))
        new.log = [[]]
        return new

    def apply(self, state: GameState, action: Action, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        state.log[0].append(str(action))  # type: ignore[attr-defined]


class BadParser(DrawLogic):
    """Lets a KeyError escape from notation parsing."""

    def parse_action(self, state: GameState, seat: int, text: str) -> Action:
        if "x" in text:
            raise KeyError(text)
        return super().parse_action(state, seat, text)


def _plugin(name: str, logic: type[DrawLogic]) -> types.ModuleType:
    module = types.ModuleType(f"tests.conformance.broken.{name}")
    module.GAME = GameInfo(
        name=name,
        summary="broken test game",
        min_players=2,
        max_players=4,  # type: ignore[attr-defined]
        options=drawgame.GAME.options,
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> GameLogic:
        return logic(ruleset)

    @hookimpl(trylast=True)
    def card_points(card: Any) -> int:
        return min(int(card.rank), 10)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.card_points = card_points  # type: ignore[attr-defined]
    return module


BROKEN: dict[str, tuple[types.ModuleType, str]] = {
    "broken-leaky-view": (_plugin("broken-leaky-view", LeakyView), "views"),
    "broken-subtle-leak": (_plugin("broken-subtle-leak", SubtleLeak), "views"),
    "broken-leaky-event": (_plugin("broken-leaky-event", LeakyEvent), "views"),
    "broken-seed-in-view": (_plugin("broken-seed-in-view", SeedInView), "views"),
    "broken-loses-cards": (_plugin("broken-loses-cards", LosesCards), "conservation"),
    "broken-too-short": (_plugin("broken-too-short", TooShort), "bounds"),
    "broken-shared-clone": (_plugin("broken-shared-clone", SharedClone), "clone"),
    "broken-bad-parser": (_plugin("broken-bad-parser", BadParser), "rejections"),
}
"""Game name -> (plugin module, the individual check that must catch it)."""
