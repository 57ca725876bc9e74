"""GOLF-PEN-2: an ender without the lowest round score gets +10."""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import RuleInfo, hookimpl
from cardcore_golf.grids import GridShape

__all__ = ["RULE", "golf_ender_penalty"]

RULE = RuleInfo(
    id="GOLF-PEN-2",
    name="golf.ender-penalty-10",
    game="golf",
    summary="Penalty A: the player who ended the round gets +10 unless lowest",
    conflicts=("golf.ender-penalty-lowest", "golf.ender-penalty-lowest-literal"),
)


@hookimpl
def golf_ender_penalty(layout: GridShape, scores: Sequence[int], ender: int, pays: bool) -> int:
    """+10 when the ender pays: another seat scored strictly lower (a tie for lowest is not
    penalised, GOLF-PEN-4, unless ``golf.ender-penalty-ties``)."""
    return 10 if pays else 0
