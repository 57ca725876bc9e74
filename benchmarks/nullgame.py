"""A game that does (almost) nothing: the yardstick for the driver's own cost.

Each seat in turn picks one of ``WIDTH`` interned actions; ``apply`` counts the
decision and passes the turn; the game ends after ``options["length"]``
decisions. Playing it through :class:`cardcore.Game` and straight through its
logic (no driver) measures what the driver adds per decision (lock, legal-action
cache, membership check, record append, event check).

Register it with ``cardcore.register("cardcore.games", "bench-null", nullgame)``
(done by :func:`register`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, ClassVar

from attrs import frozen

import cardcore
from cardcore import (
    Action,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    Result,
    Ruleset,
    ViewField,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.cards import Card

NAME = "bench-null"
"""The name the null game is registered under."""

WIDTH = 6
"""Legal actions per decision (about what a Golf seat faces)."""

GAME = GameInfo(
    name=NAME,
    summary="benchmark: pick one of six actions, nothing else",
    min_players=1,
    max_players=8,
    options=(Option("length", 1000, "decisions per game", int, minimum=1, maximum=10**7),),
    fields=(ViewField("count", "int", "decisions made so far"),),
)


@frozen
class PickAction(Action):
    """Seat *seat* picks option *n* (notation ``pick N``)."""

    n: int
    verb: ClassVar[str] = "pick"

    def notation(self) -> str:
        return f"pick {self.n}"


class NullState(GameState):
    """The state: a decision counter and the seat to act."""

    __slots__ = ("count", "length")
    count: int
    length: int


class NullLogic(GameLogic[NullState, PickAction]):
    """The logic of the null game."""

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.picks = tuple(tuple(PickAction(s, n) for n in range(WIDTH)) for s in range(8))
        self.layout = Layout.of([ZoneSpec("stock")])

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        """Exactly ``length`` decisions."""
        return int(options["length"])

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> NullState:
        """Put the deck in one face-down pile; seat 0 starts."""
        zones = Zones(self.layout)
        zones.cards[0] = cards
        zones.seen[0] = [0] * len(cards)
        st = NullState(players, options, zones)
        st.count = 0
        st.length = int(options["length"])
        st.to_act = (0,)
        return st

    def legal_actions(self, state: NullState, seat: int) -> tuple[PickAction, ...]:
        """The seat's six picks when it is its turn."""
        if seat not in state.to_act:
            return ()
        return self.picks[seat]

    def apply(self, state: NullState, action: PickAction, emit: Emit | None) -> None:
        """Count the decision and pass the turn; end after ``length`` decisions."""
        st = state
        st.count += 1
        if st.count >= st.length:
            st.is_over = True
            st.to_act = ()
            st.result = Result((), tuple(0.0 for _ in range(st.players)), None, "done")
        else:
            st.to_act = ((action.seat + 1) % st.players,)

    def table(self, state: NullState, seat: int | None) -> dict[str, Any]:
        """Just the counter."""
        return {"count": state.count}


@hookimpl
def create_logic(ruleset: Ruleset) -> NullLogic:
    """Build the null game's logic."""
    return NullLogic(ruleset)


def register() -> None:
    """Register the null game under :data:`NAME` (idempotent)."""
    if NAME not in cardcore.available_games():
        cardcore.register("cardcore.games", NAME, sys.modules[__name__])
