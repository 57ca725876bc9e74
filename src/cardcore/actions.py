"""Actions: what a seat (or the host) asks the game to do.

Every action is a frozen value whose ``str()`` is its text notation, which
:meth:`cardcore.Game.act` parses back. Games define their own subclasses and
build each possible action once (interned), so ``legal_actions`` hands out the
same objects every time. The two actions below belong to the core and are
accepted by every game while it runs; they never appear in ``legal_actions``.
"""

from __future__ import annotations

from typing import ClassVar

from attrs import field, frozen

__all__ = ["HOST", "Action", "EndMatch", "Resign"]

HOST = -1
"""The seat number of the host: the only one that may apply :class:`EndMatch`."""


@frozen
class Action:
    """Base class of every action; *seat* is the seat that acts (``HOST`` for the host).

    ``str(action)`` is the action's notation: :attr:`verb` by default; a game
    overrides :meth:`notation` for actions with arguments (``"replace 3"``).
    The text is computed once per (interned) action and cached.
    """

    seat: int
    _text: str | None = field(default=None, init=False, eq=False, repr=False, hash=False)
    verb: ClassVar[str] = "action"
    """The first word of the action's notation (``"draw"``, ``"replace"``)."""

    def notation(self) -> str:
        """Return the action's text notation (the default: :attr:`verb`)."""
        return self.verb

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self.notation()
            object.__setattr__(self, "_text", text)
        return text


@frozen
class Resign(Action):
    """Seat *seat* resigns: the game ends at once and the other seats share the win.

    Notation: ``resign``. Games may rank the remaining seats (see
    :meth:`cardcore.GameLogic.resign`).
    """

    verb: ClassVar[str] = "resign"


@frozen
class EndMatch(Action):
    """The host stops the game (for instance a match of rounds "when the players stop").

    Notation: ``end``, acted as seat :data:`HOST` (-1). The game settles as if it
    had ended by rule now (see :meth:`cardcore.GameLogic.end_match`).
    """

    seat: int = HOST
    verb: ClassVar[str] = "end"
