"""The lines a game says of what no action names (``GameInfo.notes``), for ``cardcore play``
and ``cardcore replay``.

Speed turns the side cards by itself when nobody can play: without a line
saying so, two new cards would appear on the table unexplained. The game
makes the lines from the human's own events, one change at a time (the
events of each action follow its ``ActionApplied``; those before the first
are the deal's), so nothing here knows any game.
"""

from __future__ import annotations

import logging
import threading

from cardcore.cli._markup import escape
from cardcore.events import ActionApplied, Event
from cardcore.game import Game
from cardcore.info import GameInfo
from cardcore.setup import Listener

__all__ = ["Notes"]

LOG = logging.getLogger("cardcore.cli")


class Notes:
    """One seat's events, kept until :meth:`take` turns them into lines.

    :param info: The game's declaration; without ``notes`` nothing is kept.
    :param seat: The human's seat: the lines tell only what it may see (``"spectator"``:
        what a spectator may see).
    """

    def __init__(self, info: GameInfo, seat: int | str) -> None:
        self.say = info.notes
        self.seat = seat
        self.events: list[Event] = []
        self.lock = threading.Lock()  # a real-time game applies from two threads

    @classmethod
    def attach(cls, game: Game, seat: int | str) -> Notes:
        """Follow *game* from now on (a game already dealt: its deal says nothing)."""
        notes = cls(game.ruleset.game, seat)
        if notes.say is not None:
            game.events.subscribe(Event, notes._keep, seat)
        return notes

    def listeners(self) -> list[Listener]:
        """The subscription for ``new_game(subscribers=...)``, so the deal is heard too."""
        return [] if self.say is None else [(Event, self._keep, self.seat)]

    def _keep(self, event: Event) -> None:
        with self.lock:
            self.events.append(event)

    def take(self) -> list[str]:
        """The lines of every event since the last call, as rich markup."""
        with self.lock:
            events, self.events = self.events, []
        say = self.say
        if say is None or not events:
            return []
        lines: list[str] = []
        action: str | None = None
        change: list[dict[str, object]] = []
        try:
            for event in events:
                if type(event) is ActionApplied:
                    if change:
                        lines += [str(line) for line in say(change, action)]
                    action, change = event.action, []
                else:
                    change.append(event.to_json())
            if change:
                lines += [str(line) for line in say(change, action)]
        except Exception as exc:  # the lines are a courtesy: the game goes on without them
            LOG.debug("the game's notes failed", exc_info=True)  # (no traceback in a terminal)
            self.say = None  # asked no more: one line says so, once
            failed = f"the game's notes failed ({type(exc).__name__}): play goes on without them"
            return [f"[dim]{escape(failed)}[/]"]
        return [f"[bold yellow]{escape(line)}[/]" for line in lines]
