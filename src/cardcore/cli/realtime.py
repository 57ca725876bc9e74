"""Real-time games in the terminal for ``cardcore play`` (needs rich).

The human types on one thread, which calls :meth:`cardcore.Game.act` directly,
while the main thread moves the bots on the wall clock from their
:meth:`~cardcore.RealtimeAgent.plan` delays, in real seconds.
:meth:`cardcore.Game.apply` is thread-safe, so whichever action arrives first
wins. A line the human types is judged against the view drawn for them when
its first key was typed (``seen=`` its version; a piped line: the last view
drawn): one overtaken by a bot is reported as too late.

In a terminal the screen is a fixed layout (rich ``Live``): the table, the
menu, an input line that redraws never split, and the last moves and
messages. The keys are read one by one (``cbreak`` mode; Enter sends the line,
Backspace erases, Ctrl-D or ``quit`` leaves). When input is not a terminal
(a pipe, a script) lines are read and everything is printed in turn.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.segment import Segment, Segments
from rich.text import Text

from cardcore._driver import STALE_WINDOW
from cardcore.actions import Action
from cardcore.agents import LazyView, _checked_plan, lend_views
from cardcore.cli._markup import escape
from cardcore.cli.notes import Notes
from cardcore.cli.screen import (
    COMMANDS,
    Screen,
    error_markup,
    legal_line,
    lenient,
    resolve,
    undecodable,
)
from cardcore.errors import CardcoreError, IllegalActionError, StalledGameError
from cardcore.game import Game

__all__ = ["LOG_LINES", "play_realtime"]

LOG_LINES = 6
"""How many recent moves and messages the full-screen layout keeps in view."""


def play_realtime(
    console: Console,
    game: Game,
    seat: int,
    agents: Sequence[Any],
    *,
    stdin: TextIO | None = None,
    tick: float = 0.05,
    live: bool | None = None,
    notes: Notes | None = None,
) -> str:
    """Play a real-time *game*: the human types on one thread, bots move on the wall clock.

    Each bot keeps a plan (action, due time in real seconds, version of the
    view it planned from); after every change, bots whose planned action is no
    longer legal plan again.

    :param stdin: Where the human types (default ``sys.stdin``); a text stream is set to
        read an undecodable byte as U+FFFD (``reconfigure(errors="replace")``, when it
        can be), so such a line is not understood, like a typo, and the next is read.
    :param live: Use the full-screen layout; default: when *stdin* and the
        console are terminals.
    :param notes: The game's lines of the human's events, subscribed before the deal
        (default: from now on); printed after the moves.
    :returns: ``"over"`` when the game ended, ``"quit"`` when the human left.
    """
    source = sys.stdin if stdin is None else stdin
    if live is None:
        live = console.is_terminal and _is_tty(source)
    with lend_views(game) as views:
        session = _Realtime(console, game, seat, agents, views, tick, notes)
        if not live:
            return session.run(lambda: _lines(source))
        with _cbreak(source) as keys:
            return session.run_live(keys)


def _is_tty(source: TextIO) -> bool:
    try:
        return source.isatty() and os.name == "posix"
    except (AttributeError, ValueError):
        return False


def _why(exc: BaseException) -> str:
    """An unexpected error in a few words: its class, and its message if it has one."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _lines(source: TextIO) -> Iterator[str | CardcoreError | None]:
    """The lines of *source*, then ``None``; a line that cannot be decoded is not understood.

    *source* is made :func:`lenient` first: a strict text stream that fails to decode
    drops the whole chunk it read, the lines after the bad one with it.
    """
    lenient(source)
    while True:
        try:
            line = source.readline()
        except UnicodeDecodeError as exc:  # a strict stream: the line is not understood
            yield undecodable(exc)
            continue
        yield line if line else None


@contextmanager
def _cbreak(source: TextIO) -> Iterator[Callable[[], str]]:
    """Read keys one by one from a terminal; its settings are restored on the way out."""
    import termios
    import tty

    fd = source.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd, termios.TCSADRAIN)  # keys typed while the table was set up are kept
    try:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # a character
        yield lambda: decoder.decode(os.read(fd, 64)) or _more(fd, decoder)  # split between reads
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _more(fd: int, decoder: codecs.IncrementalDecoder) -> str:
    """Read on until *decoder* has a whole character: ``""`` only at the end of input."""
    while True:
        data = os.read(fd, 64)
        text = decoder.decode(data, final=not data)
        if text or not data:
            return text


class _Realtime:
    """One real-time session in the terminal."""

    def __init__(
        self,
        console: Console,
        game: Game,
        seat: int,
        agents: Sequence[Any],
        views: Callable[[int], LazyView],
        tick: float,
        notes: Notes | None = None,
    ) -> None:
        self.console = console
        self.game = game
        self.seat = seat
        self.agents = agents
        self.views = views
        self.tick = tick
        self.screen = Screen(game, seat)
        self.start = time.monotonic()
        self.stop = threading.Event()
        self.outcome = "over"
        self.interrupted = False  # Ctrl-C on the main thread (see catch_interrupts)
        self.lock = threading.Lock()
        self.acting = threading.Lock()  # held while the human's line is acted on and reported
        self.shown: tuple[int, tuple[str, ...]] = (-1, ())  # version drawn, its legal actions
        self.plans: list[tuple[float, Action, int] | None] = [None] * len(game.players)
        self.live: Live | None = None
        self.table: RenderableType = ""
        self.menu = ""
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.typed = ""
        self.typed_on: tuple[int, tuple[str, ...]] | None = None  # self.shown at its first key
        self.notes = Notes.attach(game, seat) if notes is None else notes

    def now(self) -> float:
        return time.monotonic() - self.start

    # -- output ---------------------------------------------------------------------------

    def say(self, markup: str) -> None:
        """A move or a message: printed, or kept in the layout's log."""
        if self.live is None:
            self.console.print(markup)
        else:
            with self.lock:
                self.log.append(markup)
            self.live.refresh()

    def redraw(self) -> None:
        """Draw the human's view and remember its version: their next input is judged on it."""
        with self.lock:
            view = self.game.view(self.seat)
            legal = tuple(view["legal"])  # the legal actions at the version drawn
            self.shown = (view["version"], legal)
            table = self.screen.draw(view)
            if self.live is None:
                self.console.print(table)
                self.console.print(legal_line(legal, self.console.width))
            else:
                self.table, self.menu = table, legal_line(legal, self.console.width)
        if self.live is not None:
            self.live.refresh()

    def layout(self) -> RenderableType:
        """The full-screen layout: table, menu, the input line, recent messages.

        It is built to the terminal's height: the menu and the input line are
        always shown; the log is cropped first, then the table's bottom.
        """
        with self.lock:
            log = list(self.log)
            prompt = Text.from_markup(f"[bold]{escape(self.game.players[self.seat])}>[/] ", emoji=False)
            prompt.append(self.typed)
            prompt.append("_", style="blink")
            table, menu = self.table, self.menu
        console = self.console
        options = console.options
        kept = [console.render_lines(Text.from_markup(menu, emoji=False), options, pad=False)]
        kept.append(console.render_lines(prompt, options, pad=False))
        room = console.size.height - 1 - sum(len(lines) for lines in kept)  # Live's cursor line
        drawn = console.render_lines(table, options, pad=False)[: max(0, room)]
        room -= len(drawn) + 1
        tail = console.render_lines(Group(*log), options, pad=False) if log and room > 0 else []
        lines = [*drawn, *kept[0], *kept[1], []]
        lines += tail[-room:] if room > 0 and tail else []  # the newest messages
        return Segments([seg for line in lines for seg in (*line, Segment.line())][:-1])

    # -- input ----------------------------------------------------------------------------

    def send(self, line: str, shown: tuple[int, tuple[str, ...]] | None = None) -> bool:
        """:meth:`handle` *line*, saying any unexpected error: the input thread never dies."""
        try:
            return self.handle(line, shown)
        except Exception as exc:  # said, and the next line is read
            self.say(f"[red]error:[/] could not act on {escape(repr(line))}: {escape(_why(exc))}")
            return True

    def catch_interrupts(self) -> Any:
        """On the main thread, make Ctrl-C set :attr:`interrupted` (a second one raises).

        :returns: The handler it replaced, to put back (``None``: nothing was changed).
        """
        if threading.current_thread() is not threading.main_thread():
            return None
        previous = signal.getsignal(signal.SIGINT)
        if previous is None or previous is signal.SIG_IGN:  # set outside Python, or ignored
            return None

        def mark(signum: int, frame: Any) -> None:
            if self.interrupted:
                raise KeyboardInterrupt
            self.interrupted = True

        signal.signal(signal.SIGINT, mark)
        return previous

    def leave(self) -> None:
        """The human left (``quit``, the end of the input, or it could not be read)."""
        self.outcome = "quit"
        self.stop.set()

    def listen(self, read: Callable[[], None]) -> None:
        """The input thread: should reading itself fail, the human leaves cleanly."""
        try:
            read()
        except Exception as exc:  # said; the game ends as if quit
            self.leave()
            with contextlib.suppress(Exception):
                self.say(f"[red]error:[/] cannot read the input: {escape(_why(exc))}")

    def handle(self, line: str, shown: tuple[int, tuple[str, ...]] | None = None) -> bool:
        """Act on one line the human typed; return ``False`` to leave the game.

        The line is judged on *shown*, the table it was typed on (version, legal
        actions; default: the last one drawn), so a move a bot overtook while
        it was typed is too late, not illegal.
        """
        words = line.strip().lower()
        if not words:
            return True
        if words in ("quit", "exit", "q"):
            return False
        if words in ("help", "?", "h"):
            self.say(COMMANDS)
            if self.live is None:  # the full-screen layout always shows the menu
                with self.lock:
                    legal = self.shown[1]
                self.say(legal_line(legal, self.console.width))
            return True
        if words in ("view", "v"):
            self.redraw()
            return True
        with self.lock:
            seen, legal = self.shown if shown is None else shown
        with self.acting:  # the loop may see the game end before this line is said: it waits
            try:
                action = self.game.act(self.seat, resolve(line, legal), at=self.now(), seen=seen)
            except CardcoreError as exc:
                self.say(error_markup(exc))
                return True
            self.say(f"[green]you[/]: [bold]{escape(str(action))}[/] at {self.now():.2f} s")
            self.tell()
        return True

    def tell(self) -> None:
        """Say what the game did that no action names (the lines of :class:`Notes`)."""
        for line in self.notes.take():
            self.say(line)

    def read_lines(self, lines: Iterator[str | CardcoreError | None]) -> None:
        """Act on *lines* until their end (``None``), ``quit`` or the game's end."""
        for line in lines:
            if self.stop.is_set() or self.game.is_over:
                return
            if isinstance(line, CardcoreError):  # a line that could not be read
                self.say(error_markup(line))
            elif line is None or not self.send(line):
                self.leave()
                return

    def read_keys(self, keys: Callable[[], str]) -> None:
        """Edit the input line key by key; Enter sends it."""
        sequence = ""  # an escape sequence being skipped: "\x1b", "[" (CSI) or "O" (SS3)
        while not self.stop.is_set() and not self.game.is_over:
            chunk = keys()
            if not chunk:  # end of input (a hung-up terminal), even with a line part-typed
                self.leave()
                return
            for key in chunk:
                if sequence == "\x1b" and key in "[O\x1b":  # arrows: ESC [ A; F1: ESC O P
                    sequence = key if key != "\x1b" else sequence
                    continue
                if sequence == "[":  # parameters, then a final byte from @ to ~
                    sequence = "" if "@" <= key <= "~" else sequence
                    continue
                if sequence == "O":  # one character ends it
                    sequence = ""
                    continue
                sequence = ""  # a lone Esc: the key after it is a key
                if key == "\x1b":
                    sequence = key
                elif key in ("\r", "\n"):
                    with self.lock:
                        line, self.typed = self.typed, ""
                        shown, self.typed_on = self.typed_on, None
                    if not self.send(line, shown):
                        self.leave()
                        return
                elif key in ("\x7f", "\b"):
                    with self.lock:
                        self.typed = self.typed[:-1]
                        if not self.typed:  # the next key starts a line anew
                            self.typed_on = None
                elif key == "\x04" and not self.typed:  # Ctrl-D on an empty line
                    self.leave()
                    return
                elif key == "\x15":  # Ctrl-U
                    with self.lock:
                        self.typed, self.typed_on = "", None
                elif key.isprintable():
                    with self.lock:
                        if not self.typed:  # the line is judged on the table it is typed on
                            self.typed_on = self.shown
                        self.typed += key
            if self.live is not None:
                self.live.refresh()

    # -- the bots -------------------------------------------------------------------------

    def replan(self, bot: int) -> None:
        """Ask *bot* for a plan from the view of the current version (the human may move meanwhile)."""
        game = self.game
        seen = game.version
        view = self.views(bot)
        legal = game.legal_actions(bot)
        self.plans[bot] = None
        if game.version != seen or not (legal or bot in game.to_act):
            return  # the human moved meanwhile (the loop plans again) or nothing to do
        now = self.now()
        try:
            plan = self.agents[bot].plan(view, legal, now)
        except CardcoreError:
            if game.version == seen:
                raise
            return  # its view could not be built: the human moved while it read
        if plan is not None:  # checked as run_realtime checks it (its own seat, a finite delay)
            self.plans[bot] = (*_checked_plan(self.agents, bot, plan, legal, now), seen)

    def run(self, lines: Callable[[], Iterator[str | CardcoreError | None]]) -> str:
        """Line by line: print everything in turn (input that is not a terminal)."""
        thread = threading.Thread(
            target=self.listen,
            args=(lambda: self.read_lines(lines()),),
            name="cardcore-input",
            daemon=True,
        )
        self.console.print(f"[bold]real time:[/] act whenever you like; {COMMANDS}")
        self.tell()  # the deal's
        self.redraw()  # before the first line is read: it is judged on this table
        return self.loop(thread.start)

    def run_live(self, keys: Callable[[], str]) -> str:
        """Full screen: a fixed layout with its own input line."""
        self.console.print(f"[bold]real time:[/] act whenever you like; {COMMANDS}")
        with Live(
            get_renderable=self.layout,
            console=self.console,
            auto_refresh=True,
            refresh_per_second=8,
            screen=False,
            transient=True,
        ) as live:
            self.live = live
            self.tell()  # the deal's
            self.redraw()  # before the first key is read: the line is judged on this table
            thread = threading.Thread(
                target=self.listen,
                args=(lambda: self.read_keys(keys),),
                name="cardcore-keys",
                daemon=True,
            )
            outcome = self.loop(thread.start)
            self.live = None
        for line in self.log:  # what happened last stays on the screen
            self.console.print(line)
        return outcome

    def loop(self, start: Callable[[], None]) -> str:
        """Move the bots until the game ends or the human leaves; *start* starts the input.

        Ctrl-C leaves the game, from the moment the input starts. On the main thread the
        first Ctrl-C only marks the wish, read between two moves (an interrupt landing
        inside a lock held by the screen or the game could leave them stuck); a second one
        interrupts at once.
        """
        game, plans = self.game, self.plans
        bots = [s for s in range(len(game.players)) if s != self.seat]
        bound = game.logic.action_bound(len(game.players), game.options)
        planned_at = -1  # the version the bots last planned at (the table may be drawn before)
        rejected, rejected_at = 0, -1  # the bots' plans refused in a row at that version
        caught = self.catch_interrupts()
        try:
            start()  # inside: Ctrl-C as soon as the human can type is leaving
            while not game.is_over and not self.stop.is_set() and not self.interrupted:
                if game.version >= bound:
                    game.truncate()
                    break
                if game.version != self.shown[0] or game.version != planned_at:
                    if game.version != self.shown[0]:
                        self.redraw()
                    planned_at = self.shown[0]
                    for bot in bots:
                        p = plans[bot]
                        if p is None or p[1] not in game.legal_actions(bot):
                            self.replan(bot)
                due = [(p[0], bot) for bot in bots if (p := plans[bot]) is not None]
                if not due:
                    self.stop.wait(self.tick)
                    continue
                when, bot = min(due)
                wait = when - self.now()
                if wait > 0:
                    self.stop.wait(min(wait, self.tick))
                    continue
                planned = plans[bot]
                if planned is None:  # pragma: no cover - chosen among the planned
                    continue
                _, action, seen = planned
                if seen < game.version - STALE_WINDOW:  # kept, so checked legal at each change
                    seen = game.version  # (not refused for its age, CORE-RT-3)
                try:
                    game.apply(action, at=self.now(), seen=seen)
                except IllegalActionError as exc:  # overtaken by the human: plan again
                    rejected = rejected + 1 if rejected_at == game.version else 1
                    rejected_at = game.version
                    if rejected > bound:  # as run_realtime: never legal, planned again and again
                        msg = f"the agent at seat {bot} keeps planning rejected actions in {game.name} at version {game.version}; the last: {exc} (CORE-RT-2)"
                        raise StalledGameError(msg) from exc
                    self.replan(bot)
                    continue
                self.say(
                    f"[magenta]{escape(game.players[bot])}[/]: [bold]{escape(str(action))}[/]"
                    f" at {self.now():.2f} s"
                )
                self.tell()
                plans[bot] = None
                self.replan(bot)
        except KeyboardInterrupt:
            self.outcome = "quit"
        finally:
            if caught is not None:
                signal.signal(signal.SIGINT, caught)
            self.stop.set()  # (a bot's error too: the human's input stops before the save)
        if self.interrupted:
            self.outcome = "quit"
        self.stop.set()
        with self.acting:  # a move of the human's that ended the game is said before the end
            pass
        return "over" if game.is_over else self.outcome
