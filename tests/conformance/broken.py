"""Deliberately broken variants of the test draw game: the kit must catch each one.

Every module here is a game plugin (``GAME`` plus ``create_logic``) whose
logic breaks exactly one promise of the conformance kit.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore import (
    ALL,
    Card,
    CardDrawn,
    Emit,
    GameInfo,
    Ruleset,
    ViewField,
    Zones,
    hookimpl,
)
from cardcore.search import default_position
from tests.plugins import drawgame
from tests.plugins.drawgame import HAND, STOCK, DrawAction, DrawLogic, DrawState

EXTRA_FIELDS = (
    ViewField("hands", "per-seat", "every hand (a leak)", of="cards"),
    ViewField("hint", "bool", "a hint about seat 1's hand (a leak)"),
    ViewField("shuffle", "int", "the seed (a leak)"),
)
"""Fields the leaky games declare (each the one it shows: ``shows``), so that only their leak
is wrong (the kit also flags a declared field a view leaves out)."""


class LeakyView(DrawLogic):
    """Shows every hand to everybody."""

    shows = ("hands",)

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        z = state.zones
        out["hands"] = [[str(c) for c in z.cards[HAND + s]] for s in range(state.players)]
        return out


class SubtleLeak(DrawLogic):
    """Tells everybody whether seat 1 holds a heart, without showing any card."""

    shows = ("hint",)

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        out["hint"] = any(
            c.suit is not None and c.suit.letter == "H" for c in state.zones.cards[HAND + 1]
        )
        return out


class LeakyEvent(DrawLogic):
    """Announces the card drawn from the stock to everybody."""

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        if type(action) is drawgame.Draw and emit is not None:
            card = state.zones.cards[STOCK][-1]
            super().apply(state, action, None)
            emit(CardDrawn(action.seat, "stock", card, visible_to=ALL))
            return
        super().apply(state, action, emit)


class SeedInView(DrawLogic):
    """Puts the seed in the view."""

    shows = ("shuffle",)

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        out["shuffle"] = state.seed
        return out


class LeakyHistory(DrawLogic):
    """Serves every hand as of now in the history of past rounds."""

    def history(self, state: DrawState, seat: int | None, since: int) -> list[dict[str, Any]]:
        z = state.zones
        past = super().history(state, seat, since)
        return [*past, {"hands": [[str(c) for c in z.cards[HAND + s]] for s in range(2)]}]


class UndeclaredField(DrawLogic):
    """Puts a key in the table that ``GameInfo.fields`` does not declare."""

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        return {**super().table(state, seat), "stock_left": state.zones.count(STOCK)}


class WrongKind(DrawLogic):
    """Shows the round (declared ``int``) as text."""

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        return {**super().table(state, seat), "round": str(state.round)}


class LosesCards(DrawLogic):
    """Drops the discarded card instead of putting it on the discard pile (now and then)."""

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        if type(action) is drawgame.Discard and len(state.zones.cards[STOCK]) == 20:
            state.zones.cards[drawgame.DISCARD].pop()
            state.zones.seen[drawgame.DISCARD].pop()


class TooShort(DrawLogic):
    """Declares an action bound its games exceed."""

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 10


class _LogState(DrawState):
    __slots__ = ("log",)
    log: list[list[str]]


class SharedClone(DrawLogic):
    """Keeps a list of lists that clones share (it forgot ``_deep``)."""

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        st = super().new_state(players, options, cards, seed, emit)
        new = _LogState.__new__(_LogState)
        for name in ("players", "options", "zones", "to_act", "is_over", "result", "seed", "draws"):
            setattr(new, name, getattr(st, name))
        for name in DrawState.__slots__:
            setattr(new, name, getattr(st, name))
        new.log = [[]]
        return new

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        if isinstance(state, _LogState):
            state.log[0].append(str(action))


class BadParser(DrawLogic):
    """Lets a KeyError escape from notation parsing."""

    def parse_action(self, state: DrawState, seat: int, text: str) -> DrawAction:
        if "x" in text:
            raise KeyError(text)
        return super().parse_action(state, seat, text)


class IgnoresScoreRound(DrawLogic):
    """Calls ``score_round`` but keeps its own scores (a score-only house rule changes nothing)."""

    def score_round(self, state: DrawState, scores: Sequence[int]) -> tuple[int, ...]:
        super().score_round(state, scores)
        return tuple(scores)


class BadPosition(DrawLogic):
    """Reads positions without the turn: a game started from one gives the turn to seat 0."""

    def read_position(self, text: str, players: int, options: Mapping[str, Any]) -> DrawState:
        st = super().read_position(text, players, options)
        if st.phase == "draw":
            st.to_act = (0,)
        return st


class ForgetfulSample(DrawLogic):
    """Samples a world in which the seat holds one card it does not hold (swapped with a
    card of the stock): search agents plan on it, the seat's view there differs."""

    def position_from_view(self, view: Mapping[str, Any], zones: Zones) -> str:
        hand, stock = zones.cards[HAND + view["seat"]], zones.cards[STOCK]
        if hand and stock:
            hand[0], stock[0] = stock[0], hand[0]
        return default_position(self, view, zones)


def _plugin(name: str, logic: type[DrawLogic]) -> types.ModuleType:
    module = types.ModuleType(f"tests.conformance.broken.{name}")
    info = GameInfo(
        name=name,
        summary="broken test game",
        min_players=2,
        max_players=4,
        options=drawgame.GAME.options,
        fields=(
            *drawgame.GAME.fields,
            *(f for f in EXTRA_FIELDS if f.name in getattr(logic, "shows", ())),
        ),
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> DrawLogic:
        return logic(ruleset)

    @hookimpl(trylast=True)
    def card_points(card: Card) -> int:
        return min(int(card.rank), 10)

    vars(module).update(GAME=info, create_logic=create_logic, card_points=card_points)
    return module


BROKEN: dict[str, tuple[types.ModuleType, str]] = {
    "broken-leaky-view": (_plugin("broken-leaky-view", LeakyView), "views"),
    "broken-subtle-leak": (_plugin("broken-subtle-leak", SubtleLeak), "views"),
    "broken-leaky-event": (_plugin("broken-leaky-event", LeakyEvent), "views"),
    "broken-seed-in-view": (_plugin("broken-seed-in-view", SeedInView), "views"),
    "broken-leaky-history": (_plugin("broken-leaky-history", LeakyHistory), "views"),
    "broken-undeclared-field": (_plugin("broken-undeclared-field", UndeclaredField), "views"),
    "broken-wrong-kind": (_plugin("broken-wrong-kind", WrongKind), "views"),
    "broken-loses-cards": (_plugin("broken-loses-cards", LosesCards), "conservation"),
    "broken-too-short": (_plugin("broken-too-short", TooShort), "bounds"),
    "broken-shared-clone": (_plugin("broken-shared-clone", SharedClone), "clone"),
    "broken-bad-parser": (_plugin("broken-bad-parser", BadParser), "rejections"),
    "broken-ignores-score-round": (
        _plugin("broken-ignores-score-round", IgnoresScoreRound),
        "score_round",
    ),
    "broken-bad-position": (_plugin("broken-bad-position", BadPosition), "positions"),
    "broken-forgetful-sample": (_plugin("broken-forgetful-sample", ForgetfulSample), "positions"),
}
"""Game name -> (plugin module, the individual check that must catch it)."""
