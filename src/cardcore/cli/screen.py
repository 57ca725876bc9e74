"""What the human sees and types in ``cardcore play``: the screen, the menu, the errors (needs rich).

The human picks an action by typing its notation (``replace 2``) or its menu
number with a ``#`` (``#3``): a bare number is refused, so a menu number is
never mistaken for a position.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType

from cardcore._text import shown
from cardcore.cli._markup import escape
from cardcore.cli.render import render_view
from cardcore.errors import CardcoreError, IllegalActionError, NotationError, StaleActionError
from cardcore.game import Game

__all__ = [
    "COMMANDS",
    "Screen",
    "error_markup",
    "legal_line",
    "lenient",
    "resolve",
    "undecodable",
]

COMMANDS = (
    "type an action's notation or its menu number with '#' (#1), 'resign', 'quit', 'help' or 'view'"
)
"""The one-line help shown at the prompt."""


class Screen:
    """What the human sees: the view of one seat, drawn from the game's declared structure.

    Past rounds come from :meth:`cardcore.Game.history`, fetched once each.
    """

    def __init__(self, game: Game, seat: int | None) -> None:
        self.game = game
        self.seat = seat
        self.schema = game.view_schema()
        self.history: list[dict[str, Any]] = []

    def draw(self, view: Mapping[str, Any] | None = None) -> RenderableType:
        """Render *view* (default: the seat's view now) with the latest past round."""
        self.history += self.game.history(self.seat, since=len(self.history))
        shown = self.game.view(self.seat) if view is None else view
        return render_view(shown, self.schema, self.history)


def legal_line(legal: Sequence[object], width: int | None = None) -> str:
    """The menu of legal actions: ``#1 draw   #2 take ...``.

    With *width* (the console's) the menu is broken between items, never inside
    one, so ``#5`` and its notation always share a line.
    """
    if not legal:
        return "[dim]no legal actions for you right now[/]"
    plain = [f"#{i} {a}" for i, a in enumerate(legal, 1)]
    items = [f"[dim]#{i}[/] [bold cyan]{escape(str(a))}[/]" for i, a in enumerate(legal, 1)]
    if width is None:
        return "legal: " + "   ".join(items)
    lines: list[list[str]] = [[]]
    used = len("legal: ")
    for text, item in zip(plain, items, strict=True):
        size = len(text) + (3 if lines[-1] else 0)
        if lines[-1] and used + size > width:
            lines.append([])
            used, size = 0, len(text)
        lines[-1].append(item)
        used += size
    return "legal: " + "\n".join("   ".join(line) for line in lines)


def resolve(text: str, legal: Sequence[object]) -> str:
    """Turn ``#N`` into the notation of legal action N; other text unchanged.

    :raises NotationError: ``#N`` out of range, or a bare number (ambiguous with positions).
    """
    stripped = text.strip()
    if stripped.startswith("#"):
        number = stripped[1:].strip()
        significant = number.lstrip("0") or "0"  # '#01' is item 1
        digits = number.isascii() and number.isdigit() and len(significant) <= 9  # a short int()
        if digits and 1 <= int(significant) <= len(legal):
            return str(legal[int(significant) - 1])
        choose = "#1" if len(legal) == 1 else f"#1 to #{len(legal)}"
        msg = (
            f"no action {shown(stripped, 40)} (choose {choose})"
            if legal
            else "no action to choose now"
        )
        raise NotationError(msg)
    if stripped.isascii() and stripped.isdigit():
        significant = stripped.lstrip("0") or "0"  # as '#0002' is read: leading zeros say nothing
        item = int(significant) if len(significant) <= 9 else 0
        if 1 <= item <= len(legal):
            hint = f"type #{item} for menu item {item}"
        elif legal:  # no such item: '0' of a menu counted from #1
            hint = "type #1 for the menu item" if len(legal) == 1 else f"type #1 to #{len(legal)} for a menu item"
        else:
            raise NotationError("no action to choose now (a bare number is not an action)")
        msg = f"{hint}, or an action's notation (a bare number is not an action)"
        raise NotationError(msg)
    return stripped


def error_markup(exc: CardcoreError) -> str:
    """Say why an input was refused: too late (stale), illegal, not understood."""
    if isinstance(exc, StaleActionError):
        return f"[yellow]too late:[/] {escape(str(exc))}"
    if isinstance(exc, IllegalActionError):
        return f"[red]illegal:[/] {escape(str(exc))}"
    if isinstance(exc, NotationError):
        return f"[red]not understood:[/] {escape(str(exc))}"
    return f"[red]error:[/] {escape(str(exc))}"


def lenient(stream: object) -> None:
    """Let *stream* (standard input) read an undecodable byte as U+FFFD instead of raising.

    A line with such a byte is then not understood, like any other typo; a
    stream that cannot be reconfigured is left as it is.
    """
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # e.g. something was read already
            reconfigure(errors="replace")


def undecodable(exc: UnicodeDecodeError) -> NotationError:
    """The error for a line that could not be decoded: not understood, like a typo."""
    return NotationError(f"a line that is not {exc.encoding} text ({exc.reason})")
