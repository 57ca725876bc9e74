"""What search agents need from Speed: a position from a seat's view.

:class:`~cardcore_spit.speed.logic.SpeedLogic` takes :func:`position_from_view` as its method
(an optional search hook of :class:`cardcore.GameLogic`). The view shows the seat's own hand,
the play piles and every other pile's count; the search deals the hidden cards at random.
The fields: who declared themselves stuck (``requests``) from the view's table; whether the
play piles were already recycled is not in the view, so a sample says they were not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardcore import Zones
from cardcore.positions import write_position
from cardcore_spit.speed.position import VERSION

if TYPE_CHECKING:
    from cardcore_spit.speed.logic import SpeedLogic

__all__ = ["position_from_view"]


def position_from_view(logic: SpeedLogic, view: Mapping[str, Any], zones: Zones) -> str | None:
    """Write the Speed position of *view* with the hidden cards dealt into *zones*."""
    requests = [bool(s["requested"]) for s in view["table"]["seats"]]
    fields = {"v": VERSION, "requests": requests, "recycled": False}
    return write_position("speed", fields, zones)
