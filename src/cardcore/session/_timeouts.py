"""What a session plays for a seat whose clock ran out: the game's default action, or the
settings' fallback. Nothing here is public."""

from __future__ import annotations

import logging

from cardcore.actions import Action, Resign
from cardcore.game import Game
from cardcore.logic import GameLogic

__all__ = ["default_for", "has_default", "nothing_now"]

LOG = logging.getLogger("cardcore.session")


def default_for(game: Game, seat: int, fallback: str, realtime: bool, session: str) -> Action | None:
    """The action a timeout plays for *seat* (``None``: nothing now). A plugin failing to
    list the seat's actions or to name a default is logged, never raised: the session goes
    on (the clock starts over when nothing is played)."""
    try:
        legal = game.legal_actions(seat)
    except Exception as exc:  # a plugin's bug: nothing to choose from
        LOG.error("session %s: the legal actions of seat %d failed: %r", session, seat, exc)
        legal = ()
    failed = False
    try:
        action = game.logic.default_action(game.state, seat)
    except Exception as exc:  # a plugin's bug: fall back, never stop the session
        LOG.error("session %s: default_action of %s failed: %r", session, game.name, exc)
        action, failed = None, True
    if action is not None and action not in legal:  # a house rule vetoed the game's pick:
        kind = type(action)  # the first legal action of its kind (another flip), else none
        action = next((a for a in legal if type(a) is kind), None)
    elif action is None and not failed and realtime and has_default(game):
        return None  # its own answer: nothing now (Spit once asked); nobody waits on it
    if action is None:
        if fallback == "first" and legal:
            action = legal[0]
        elif fallback == "resign":
            action = Resign(seat)
    return action


def has_default(game: Game) -> bool:
    """Whether *game*'s logic names a default action of its own."""
    return type(game.logic).default_action is not GameLogic.default_action


def nothing_now(game: Game, seat: int) -> bool:
    """Whether *game*'s own default says *seat* has nothing to do now (a failing one: no)."""
    try:
        return has_default(game) and game.logic.default_action(game.state, seat) is None
    except Exception:
        return False
