"""The Golf game plugin (entry point ``golf = "cardcore_golf.rules"``): ``GAME`` and the
base game's hook implementations. Each cites the rule it implements."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardcore import Card, GameInfo, Option, Rank, ScoreTable, decks, hookimpl
from cardcore_golf import __version__, hookspecs
from cardcore_golf.grids import (
    BASIC_POINTS,
    LAYOUT_ALIASES,
    LAYOUT_CHOICES,
    GridShape,
    Scorer,
    deck_count,
    default_scorer,
    layout_for,
)
from cardcore_golf.logic import GolfLogic
from cardcore_golf.views import FIELDS

if TYPE_CHECKING:
    from cardcore import Ruleset

__all__ = [
    "BASIC",
    "GAME",
    "build_deck",
    "create_logic",
    "golf_ender_ties_pay",
    "golf_final_turns",
    "golf_score_table",
    "golf_scorer",
]

GAME = GameInfo(
    name="golf",
    summary="Golf: lowest score wins; 6, 8, 9, 10-card grids, 4 face down, or 4 in hand",
    min_players=2,
    max_players=64,  # GOLF-GEN-1/3: two or more, up to the core's limit of seats
    options=(
        Option(
            "layout",
            6,
            "6, 8, 9 or 10-card grid, 4 (2x2 face down) or '4h' (four cards in hand)",
            kind=object,
            choices=LAYOUT_CHOICES,
            aliases=LAYOUT_ALIASES,
        ),
        Option(
            "rounds",
            None,
            "rounds (holes) in a match, 9 or 18 traditional; default 9, or no cap with a points_limit",
            kind=int,
            minimum=1,
            maximum=100,
            nullable=True,
            rule_id="GOLF-GAME-1",
        ),
        Option(
            "points_limit",
            None,
            "end the match after the round in which a total reaches this",
            kind=int,
            minimum=1,
            maximum=1000,
            nullable=True,
            rule_id="GOLF-GAME-1",
        ),
        Option(
            "max_turns",
            None,
            "GOLF-CAP-1: end a round after this many turns (off by default)",
            kind=int,
            minimum=1,
            maximum=1000,
            nullable=True,
            rule_id="GOLF-CAP-1",
        ),
        Option(
            "dealer",
            None,
            "first dealer: a seat, or 'random' (default: the last seat, so seat 0 starts)",
            kind=object,  # "random" or a seat: checked against the game's seats by the game
            choices=("random",),
            minimum=0,
            maximum=63,
            nullable=True,
            rule_id="GOLF-DEAL-3",
        ),
    ),
    version=__version__,
    hookspecs=hookspecs,
    fields=FIELDS,
)
"""Golf's static description."""

#: GOLF-SCORE-1: the BASIC table.
BASIC = ScoreTable.from_ranks({Rank(k): v for k, v in BASIC_POINTS.items()})


@hookimpl
def create_logic(ruleset: Ruleset) -> GolfLogic:
    """Build the Golf logic for a configuration."""
    return GolfLogic(ruleset)


@hookimpl
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """GOLF-DECK-1/2/3: as many 52-card decks as the layout and player count need."""
    layout = layout_for(options.get("layout", 6))
    if layout is None:
        return decks(1)
    return decks(deck_count(layout, players))


@hookimpl(trylast=True)
def golf_score_table(layout: GridShape) -> ScoreTable:
    """GOLF-SCORE-1: the BASIC table."""
    return BASIC


@hookimpl(trylast=True)
def golf_scorer(layout: GridShape) -> Scorer:
    """GOLF6-SCORE-1, GOLF8-1, GOLF9-2/3, GOLF4-SCORE-1..3, GOLF4H-2: the seed's cancelling."""
    return default_scorer(layout)


@hookimpl(trylast=True)
def golf_final_turns(layout: GridShape) -> bool:
    """GOLF6-END-1: completing a layout grants the others one final turn each."""
    return True


@hookimpl(trylast=True)
def golf_ender_ties_pay(layout: GridShape) -> bool:
    """GOLF-PEN-4: an ender who ties for the lowest round score is not penalised."""
    return False
