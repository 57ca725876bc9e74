"""``cardcore play``: playing in the terminal against built-in agents (needs rich).

Turn-based games alternate between the human's prompt and the bots' moves.
Real-time games read the human's input on its own thread, which calls
:meth:`cardcore.Game.act` directly, while the main thread moves the bots on
the wall clock from their :meth:`~cardcore.RealtimeAgent.plan` delays, in real
seconds. :meth:`cardcore.Game.apply` is thread-safe, so whichever action
arrives first wins. Every action is applied with ``seen=`` the version of the
view its player acted on, so a human overtaken by a bot is told "too late"
(stale), not "illegal".

The human picks an action by typing its notation (``replace 2``) or its menu
number with a ``#`` (``#3``): a bare number is refused, so a menu number is
never mistaken for a position.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from rich.console import Console, RenderableType
from rich.markup import escape

from cardcore.actions import Action
from cardcore.agents import LazyView, check_agent, lend_views
from cardcore.cli.args import UsageError, check_writable, parse_options, players_for
from cardcore.cli.render import render_view
from cardcore.errors import CardcoreError, IllegalActionError, NotationError, StaleActionError
from cardcore.game import Game
from cardcore.plugins import game_info, load_agent
from cardcore.setup import new_game

__all__ = ["COMMANDS", "Screen", "cmd_play", "make_agent", "play_realtime", "play_turn_based"]

COMMANDS = (
    "type an action's notation or its menu number with '#' (#1), 'resign', 'quit', 'help' or 'view'"
)
"""The one-line help shown at the prompt."""


def make_agent(name: str, seed: int, speed: float | None = None) -> Any:
    """Build agent *name* (an entry point of ``cardcore.agents``) with its own seed.

    :param name: The agent's name, e.g. ``"random"``.
    :param seed: The agent's seed.
    :param speed: Mean reaction time in seconds for real-time agents, passed as
        ``mean=`` or ``reaction=`` when the agent accepts one of them.
    """
    factory = load_agent(name)
    kwargs: dict[str, Any] = {"seed": seed}
    if speed is not None:
        params: Mapping[str, inspect.Parameter]
        try:
            params = inspect.signature(factory).parameters
        except (TypeError, ValueError):
            params = {}
        for key in ("mean", "reaction"):
            if key in params:
                kwargs[key] = speed
                break
    return factory(**kwargs)


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


def legal_line(legal: Sequence[object]) -> str:
    """The menu of legal actions: ``#1 draw   #2 take ...``."""
    if not legal:
        return "[dim]no legal actions for you right now[/]"
    items = [f"[dim]#{i}[/] [bold cyan]{escape(str(a))}[/]" for i, a in enumerate(legal, 1)]
    return "legal: " + "   ".join(items)


def resolve(text: str, legal: Sequence[object]) -> str:
    """Turn ``#N`` into the notation of legal action N; other text unchanged.

    :raises NotationError: ``#N`` out of range, or a bare number (ambiguous with positions).
    """
    stripped = text.strip()
    if stripped.startswith("#"):
        number = stripped[1:].strip()
        if number.isdigit() and 1 <= int(number) <= len(legal):
            return str(legal[int(number) - 1])
        msg = (
            f"no action {stripped!r} (choose #1 to #{len(legal)})"
            if legal
            else "no action to choose now"
        )
        raise NotationError(msg)
    if stripped.isdigit():
        msg = f"type #{stripped} for menu item {stripped}, or an action's notation (a bare number is not an action)"
        raise NotationError(msg)
    return stripped


def say_error(console: Console, exc: CardcoreError) -> None:
    """Print a rejected input: too late (stale), illegal, not understood."""
    if isinstance(exc, StaleActionError):
        console.print(f"[yellow]too late:[/] {escape(str(exc))}")
    elif isinstance(exc, IllegalActionError):
        console.print(f"[red]illegal:[/] {escape(str(exc))}")
    elif isinstance(exc, NotationError):
        console.print(f"[red]not understood:[/] {escape(str(exc))}")
    else:
        console.print(f"[red]error:[/] {escape(str(exc))}")


def play_turn_based(
    console: Console,
    game: Game,
    seat: int,
    agents: Sequence[Any],
    read: Callable[[str], str],
) -> str:
    """Play *game* with the human at *seat* and *agents* elsewhere.

    :param read: Reads one line after printing a prompt (raises ``EOFError`` at the end).
    :returns: ``"over"`` when the game ended, ``"quit"`` when the human left.
    """
    with lend_views(game) as views:
        return _turn_based(console, game, seat, agents, read, views)


def _turn_based(
    console: Console,
    game: Game,
    seat: int,
    agents: Sequence[Any],
    read: Callable[[str], str],
    views: Callable[[int], LazyView],
) -> str:
    screen = Screen(game, seat)
    bound = game.logic.action_bound(len(game.players), game.options)
    view: dict[str, Any] | None = None
    while not game.is_over:
        if game.version >= bound:
            game.truncate()
            break
        actor = game.to_act[0]
        if actor != seat:
            version = game.version
            action = agents[actor].choose(views(actor), game.legal_actions(actor))
            game.apply(action, seen=version)
            console.print(
                f"[magenta]{escape(game.players[actor])}[/]: [bold]{escape(str(action))}[/]"
            )
            view = None
            continue
        if view is None or view["version"] != game.version:
            view = game.view(seat)
            console.print(screen.draw(view))
            console.print(legal_line(view["legal"]))
        legal: list[str] = view["legal"]  # what the human was shown, numbered as shown
        try:
            text = read(f"{game.players[seat]}> ")
        except (EOFError, KeyboardInterrupt):
            console.print()
            return "quit"
        words = text.strip().lower()
        if not words:
            continue
        if words in ("quit", "exit", "q"):
            return "quit"
        if words in ("help", "?", "h"):
            console.print(COMMANDS)
            console.print(legal_line(legal))
            continue
        if words in ("view", "v"):
            view = None
            continue
        try:
            action = game.act(seat, resolve(text, legal), seen=view["version"])
        except CardcoreError as exc:
            say_error(console, exc)
            continue
        console.print(f"[green]you[/]: [bold]{escape(str(action))}[/]")
        view = None
    return "over"


def play_realtime(
    console: Console,
    game: Game,
    seat: int,
    agents: Sequence[Any],
    *,
    stdin: TextIO | None = None,
    tick: float = 0.05,
) -> str:
    """Play a real-time *game*: the human types on one thread, bots move on the wall clock.

    Each bot keeps a plan (action, due time in real seconds, version of the
    view it planned from); after every change, bots whose planned action is no
    longer legal plan again. The human's input is judged against the last view
    drawn for them (``seen=`` its version): one overtaken by a bot's action is
    reported as too late.

    :returns: ``"over"`` when the game ended, ``"quit"`` when the human left.
    """
    with lend_views(game) as views:
        return _Realtime(console, game, seat, agents, views, tick).run(
            sys.stdin if stdin is None else stdin
        )


class _Realtime:
    """The state of one real-time session in the terminal."""

    def __init__(
        self,
        console: Console,
        game: Game,
        seat: int,
        agents: Sequence[Any],
        views: Callable[[int], LazyView],
        tick: float,
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
        self.printed = threading.Lock()
        self.shown: tuple[int, tuple[str, ...]] = (-1, ())  # version drawn, its legal actions
        self.plans: list[tuple[float, Action, int] | None] = [None] * len(game.players)

    def now(self) -> float:
        return time.monotonic() - self.start

    def reader(self, source: TextIO) -> None:
        game, console = self.game, self.console
        while not self.stop.is_set() and not game.is_over:
            line = source.readline()
            if not line:
                self.outcome = "quit"
                self.stop.set()
                return
            words = line.strip().lower()
            if not words:
                continue
            if words in ("quit", "exit", "q"):
                self.outcome = "quit"
                self.stop.set()
                return
            if words in ("help", "?", "h"):
                console.print(COMMANDS)
                continue
            if words in ("view", "v"):
                self.redraw()
                continue
            with self.printed:
                seen, legal = self.shown
            try:
                action = game.act(self.seat, resolve(line, legal), at=self.now(), seen=seen)
            except CardcoreError as exc:
                say_error(console, exc)
                continue
            console.print(f"[green]you[/]: [bold]{escape(str(action))}[/] at {self.now():.2f} s")

    def redraw(self) -> None:
        """Draw the human's view and remember its version: their next input is judged on it."""
        with self.printed:
            view = self.game.view(self.seat)
            legal = tuple(view["legal"])  # the legal actions at the version drawn
            self.shown = (view["version"], legal)
            self.console.print(self.screen.draw(view))
            self.console.print(legal_line(legal))

    def replan(self, bot: int) -> None:
        game = self.game
        view = self.views(bot)
        seen = game.version
        legal = game.legal_actions(bot)
        now = self.now()
        plan = self.agents[bot].plan(view, legal, now) if legal or bot in game.to_act else None
        self.plans[bot] = None if plan is None else (now + max(0.0, plan.delay), plan.action, seen)

    def run(self, source: TextIO) -> str:
        game, plans = self.game, self.plans
        bots = [s for s in range(len(game.players)) if s != self.seat]
        thread = threading.Thread(
            target=self.reader, args=(source,), name="cardcore-input", daemon=True
        )
        self.console.print(f"[bold]real time:[/] act whenever you like; {COMMANDS}")
        thread.start()
        bound = game.logic.action_bound(len(game.players), game.options)
        try:
            while not game.is_over and not self.stop.is_set():
                if game.version >= bound:
                    game.truncate()
                    break
                if game.version != self.shown[0]:
                    self.redraw()
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
                try:
                    game.apply(action, at=self.now(), seen=seen)
                except IllegalActionError:  # overtaken by the human: plan again
                    self.replan(bot)
                    continue
                self.console.print(
                    f"[magenta]{escape(game.players[bot])}[/]: [bold]{escape(str(action))}[/]"
                    f" at {self.now():.2f} s"
                )
                plans[bot] = None
                self.replan(bot)
        except KeyboardInterrupt:
            self.outcome = "quit"
        self.stop.set()
        return "over" if game.is_over else self.outcome


# -- the command ------------------------------------------------------------------------------


def cmd_play(console: Console, args: argparse.Namespace) -> int:
    """Play a game in the terminal; save its record at the end."""
    name: str = args.game
    info = game_info(name)
    n = players_for(name, args.players, info.min_players, args)
    if not 0 <= args.seat < n:
        msg = f"--seat must be 0 to {n - 1}, not {args.seat!r}"
        raise UsageError(msg)
    try:
        check_agent(args.agent, load_agent(args.agent), info)
    except CardcoreError as exc:
        raise UsageError(str(exc)) from None
    names = [
        f"{args.agent} {s}" if s != args.seat else args.name or f"Player {s + 1}" for s in range(n)
    ]
    game = new_game(
        name,
        names,
        rules=args.rules,
        without=args.without,
        options=parse_options(name, args.option),
        seed=args.seed,
    )
    path = None
    if not args.no_record:
        path = args.record or _free_path(f"cardcore-{name}-{game.seed}.json")
        check_writable(path, overwrite=args.force)
    speed = args.bot_speed if info.realtime else None
    agents = [
        None if s == args.seat else make_agent(args.agent, game.seed * 7 + s + 1, speed)
        for s in range(n)
    ]
    console.print(
        f"[bold]{escape(name)}[/] with {n} players; you are {escape(names[args.seat])};"
        f" the others are played by [bold]{escape(args.agent)}[/]"
        + (f" (reaction {args.bot_speed:g} s)" if info.realtime else "")
    )
    if info.realtime:
        outcome = play_realtime(console, game, args.seat, agents)
    else:
        outcome = play_turn_based(
            console, game, args.seat, agents, lambda prompt: console.input(f"[bold]{prompt}[/]")
        )
    if game.result is not None:
        console.print(Screen(game, args.seat).draw())  # the final table, with the result
    elif outcome == "quit":
        console.print("[yellow]left the game before its end[/]")
    if path is not None:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(game.record(), fh, indent=1)
        console.print(f"record saved to {path} (replay it: cardcore replay {path})")
    return 0


def _free_path(path: str) -> str:
    """*path*, or ``name-2.json``, ``name-3.json``... if it exists: never overwrite a record."""
    if not os.path.exists(path):
        return path
    stem, dot, ext = path.rpartition(".")
    k = 2
    while os.path.exists(f"{stem}-{k}{dot}{ext}"):
        k += 1
    return f"{stem}-{k}{dot}{ext}"
