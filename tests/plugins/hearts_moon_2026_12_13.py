"""HRT-MOON-1 (house rule ``hearts-1213.moon``): shooting the moon.

A seat that takes every heart and the queen of spades in one hand (26 points) either
adds 26 to every other seat and scores 0 itself (``moon_mode="add26"``, the default),
or scores -26 while the others score 0 (``moon_mode="subtract26"``). The mode is the
rule's own option (docs/plugin-guide/house-rule.rst, "A rule's own parameters").
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import GameState, Option, RuleInfo, hookimpl

NAME = "hearts-1213.moon"
MOON = 26

RULE = RuleInfo(
    id="HRT-MOON-1",
    name=NAME,
    game="hearts-1213",
    summary="Shooting the moon: taking all 26 points gives them to the others (or takes 26 off)",
    options=(
        Option(
            "moon_mode",
            default="add26",
            kind=str,
            choices=("add26", "subtract26"),
            doc="add26: every other seat scores 26; subtract26: the shooter scores -26",
            rule_id="HRT-MOON-1",
        ),
    ),
)


@hookimpl
def score_round(state: GameState, scores: Sequence[int]) -> list[int]:
    """Turn a hand where one seat took all 26 points into a moon shot."""
    scores = list(scores)
    shooters = [s for s, points in enumerate(scores) if points == MOON]
    if len(shooters) != 1 or sum(scores) != MOON:
        return scores
    shooter = shooters[0]
    if state.options["moon_mode"] == "subtract26":
        return [-MOON if s == shooter else 0 for s in range(len(scores))]
    return [0 if s == shooter else MOON for s in range(len(scores))]
