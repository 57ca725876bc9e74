"""GOLF-SCORE-10: the players name the bonus card; every card so named scores -2."""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from cardcore import Option, Rank, RuleInfo, ScoreTable, hookimpl, standard_52
from cardcore_golf.grids import GridShape

__all__ = ["CHOICES", "RULE", "golf_score_table"]

#: What may be named: a rank (all four of its suits, as "the twos") or one exact card.
CHOICES: tuple[str, ...] = (
    *(rank.label for rank in Rank if rank is not Rank.JOKER),
    *(str(card) for card in standard_52()),
)

RULE = RuleInfo(
    id="GOLF-SCORE-10",
    name="golf.bonus-card",
    game="golf",
    summary="Bonus card of your choice (option bonus_card: a rank or one card) scores -2",
    conflicts=("golf.jokers", "golf.bonus-twos", "golf.one-eyed-jacks"),
    options=(
        Option(
            "bonus_card",
            "2",
            "the bonus card: a rank (every suit, '2' the twos) or one card ('QH')",
            kind=str,
            choices=CHOICES,
            rule_id="GOLF-SCORE-10",
        ),
    ),
)


@hookimpl(wrapper=True)
def golf_score_table(
    layout: GridShape, options: Mapping[str, Any]
) -> Generator[None, ScoreTable, ScoreTable]:
    """Score the named card -2 in whichever table is in play (BASIC, or HARD with
    ``golf.hard``); it still pairs by rank (GOLF-SCORE-6)."""
    table = yield
    return table.replace({options["bonus_card"]: -2})
