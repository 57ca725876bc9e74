"""A seat's view as plain text, for ``render()`` (no dependency beyond the core)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["view_text"]


def _cards(cards: list[str | None]) -> str:
    return " ".join("##" if c is None else c for c in cards) or "-"


def view_text(view: Mapping[str, Any]) -> str:
    """Return *view* (see :meth:`cardcore.Game.view`) as lines of text: piles, table, legal actions.

    Hidden cards show as ``##``; a pile's cards are listed top first.
    """
    seat = view["seat"]
    who = "spectator" if seat is None else f"seat {seat} ({view['players'][seat]})"
    head = f"{view['game']} v{view['version']} · {who}"
    if view["is_over"]:
        result = view["result"] or {}
        head += f" · over: winners {result.get('winners')}, {result.get('reason')}"
    else:
        head += f" · to act: {view['to_act']}"
    lines = [head]
    for zone in view["zones"]:
        lines.append(f"  {zone['name']} ({zone['count']}): {_cards(zone['cards'])}")
    for key, value in view["table"].items():
        lines.append(f"  {key}: {value}")
    if view["legal"]:
        lines.append("  legal: " + ", ".join(view["legal"]))
    return "\n".join(lines)
