"""Whether a client's action text is an action of the game at all, judged apart from ``seen``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore.errors import CardcoreError, NotationError
from cardcore.session.protocol import ProtocolError

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["readable"]


def readable(game: Game, seat: int, text: str) -> None:
    """Raise ``notation`` for *text* that is no action of *game*, before an old ``seen`` is
    answered ``stale``: text that never named an action was not overtaken by anything.

    Read by acting on a copy (hushed: no subscriber, no plugin's ``on_event`` hears it), so
    only its reading matters; any other refusal, or a plugin's failure, leaves the answer
    ``stale``.
    """
    try:
        game.clone().act(seat, text)
    except NotationError as exc:
        raise ProtocolError("notation", str(exc)) from None
    except CardcoreError:
        pass
