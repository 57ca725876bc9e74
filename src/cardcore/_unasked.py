"""The shared stand-in buses of games nobody listens to, and the hush of copies.

Split from :mod:`cardcore._bus`, which keeps to delivering.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from cardcore._bus import EventBus, Subscription

__all__ = ["HUSHED", "QUIET", "UNASKED"]


class _Unasked(EventBus):
    """The bus of every game nobody has asked for its bus yet: shared, silent, never written.

    :attr:`Game.events <cardcore.Game.events>` replaces it with the game's own bus on first use,
    so a game or clone that nobody listens to builds none.
    """

    __slots__ = ()

    def subscribe(self, *args: Any, **kwargs: Any) -> Subscription:
        msg = "internal: the shared unasked bus takes no subscription (use Game.events)"
        raise RuntimeError(msg)


UNASKED = _Unasked()
"""The shared bus of games whose :attr:`Game.events <cardcore.Game.events>` nobody asked for."""

HUSHED = _Unasked()
"""The bus of hushed games (clones, search worlds, replays): no plugin's ``on_event`` hears them."""

QUIET: ContextVar[bool] = ContextVar("cardcore_quiet", default=False)
"""While true, :func:`cardcore.new_game` starts a hushed game (:data:`HUSHED`)."""
