"""EIGHTS-HOUSE-1: a seat that cannot play draws until it can (not just one card)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore import RuleInfo, hookimpl

RULE = RuleInfo(
    id="EIGHTS-HOUSE-1",
    name="eights-1211.draw-until-play",
    game="eights-1211",
    summary="Draw until you can play, instead of drawing one card",
    version="1.0.0",
)


@hookimpl
def eights_draw_limit(players: int, options: Mapping[str, Any]) -> int:
    """No limit short of the whole deck."""
    return 52
