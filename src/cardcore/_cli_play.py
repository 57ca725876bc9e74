"""Playing in the terminal for ``cardcore play`` (needs rich).

Turn-based games alternate between the human's prompt and the bots' moves.
Real-time games read the human's input on its own thread, which calls
:meth:`cardcore.Game.act` directly, while the main thread moves the bots on
the wall clock from their :meth:`~cardcore.RealtimeAgent.plan` delays, in real
seconds. :meth:`cardcore.Game.apply` is thread-safe, so whichever action
arrives first wins and the other is reported as stale.
"""

from __future__ import annotations

import inspect
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape

from cardcore._cli_render import render_view
from cardcore.actions import Action
from cardcore.agents import LazyView
from cardcore.errors import CardcoreError, IllegalActionError, NotationError, StaleActionError
from cardcore.game import Game
from cardcore.plugins import load_agent

__all__ = ["COMMANDS", "make_agent", "play_realtime", "play_turn_based"]

COMMANDS = "type an action's notation (or its number), 'resign', 'quit', 'help' or 'view'"
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
        try:
            params = inspect.signature(factory).parameters
        except (TypeError, ValueError):
            params = {}  # type: ignore[assignment]
        for key in ("mean", "reaction"):
            if key in params:
                kwargs[key] = speed
                break
    return factory(**kwargs)


def _legal_line(legal: Sequence[Action]) -> str:
    if not legal:
        return "[dim]no legal actions for you right now[/]"
    items = [f"[dim]{i}[/] [bold cyan]{escape(str(a))}[/]" for i, a in enumerate(legal, 1)]
    return "legal: " + "   ".join(items)


def _resolve(text: str, legal: Sequence[Action]) -> str:
    """Turn a number into the notation of that legal action; other text unchanged."""
    stripped = text.strip()
    if stripped.isdigit():
        index = int(stripped)
        if 1 <= index <= len(legal):
            return str(legal[index - 1])
        msg = f"no action number {index} (choose 1 to {len(legal)})"
        raise NotationError(msg)
    return stripped


def _say_error(console: Console, exc: CardcoreError) -> None:
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
    bound = game.logic.action_bound(len(game.players), game.options)
    show = True
    while not game.is_over:
        if game.version >= bound:
            game.truncate()
            break
        actor = game.to_act[0]
        if actor != seat:
            legal = game.legal_actions(actor)
            action = agents[actor].choose(LazyView(game, actor), legal)
            game.apply(action)
            console.print(
                f"[magenta]{escape(game.players[actor])}[/] (seat {actor}): [bold]{escape(str(action))}[/]"
            )
            show = True
            continue
        legal = game.legal_actions(seat)
        if show:
            console.print(render_view(game.view(seat)))
            console.print(_legal_line(legal))
            show = False
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
            console.print(_legal_line(legal))
            continue
        if words in ("view", "v"):
            show = True
            continue
        try:
            action = game.act(seat, _resolve(text, legal))
        except CardcoreError as exc:
            _say_error(console, exc)
            continue
        console.print(f"[green]you[/] (seat {seat}): [bold]{escape(str(action))}[/]")
        show = True
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

    Each bot keeps a plan (action, due time in real seconds, version seen) from
    its ``plan()``; after every change, bots whose planned action is no longer
    legal plan again. The human's actions are applied by the input thread as
    they arrive; one overtaken by a bot's action is reported as stale.

    :returns: ``"over"`` when the game ended, ``"quit"`` when the human left.
    """
    source = sys.stdin if stdin is None else stdin
    n = len(game.players)
    start = time.monotonic()
    stop = threading.Event()
    outcome = ["over"]
    printed = threading.Lock()
    # what the human last saw: (version, legal actions); their input is judged against it
    shown: list[Any] = [-1, ()]

    def now() -> float:
        return time.monotonic() - start

    def reader() -> None:
        while not stop.is_set() and not game.is_over:
            line = source.readline()
            if not line:
                outcome[0] = "quit"
                stop.set()
                return
            words = line.strip().lower()
            if not words:
                continue
            if words in ("quit", "exit", "q"):
                outcome[0] = "quit"
                stop.set()
                return
            if words in ("help", "?", "h"):
                console.print(COMMANDS)
                continue
            if words in ("view", "v"):
                with printed:
                    console.print(render_view(game.view(seat)))
                continue
            with printed:
                seen, legal = shown[0], shown[1]
            try:
                action = game.act(seat, _resolve(line, legal), at=now(), seen=seen)
            except CardcoreError as exc:
                _say_error(console, exc)
                continue
            console.print(f"[green]you[/]: [bold]{escape(str(action))}[/] at {now():.2f} s")

    plans: list[tuple[float, Action, int] | None] = [None] * n

    def replan(bot: int) -> None:
        legal = game.legal_actions(bot)
        seen = game.version
        plan = (
            agents[bot].plan(LazyView(game, bot), legal, now())
            if legal or bot in game.to_act
            else None
        )
        plans[bot] = None if plan is None else (now() + max(0.0, plan.delay), plan.action, seen)

    bots = [s for s in range(n) if s != seat]
    thread = threading.Thread(target=reader, name="cardcore-input", daemon=True)
    console.print(f"[bold]real time:[/] act whenever you like; {COMMANDS}")
    thread.start()
    bound = game.logic.action_bound(n, game.options)
    try:
        while not game.is_over and not stop.is_set():
            if game.version >= bound:
                game.truncate()
                break
            if game.version != shown[0]:
                with printed:
                    view = game.view(seat)
                    legal = game.legal_actions(seat) if view["version"] == game.version else ()
                    shown[0], shown[1] = view["version"], legal
                    console.print(render_view(view))
                    console.print(_legal_line(legal))
                for bot in bots:
                    p = plans[bot]
                    if p is None or p[1] not in game.legal_actions(bot):
                        replan(bot)
            due = [(p[0], bot) for bot in bots if (p := plans[bot]) is not None]
            if due:
                when, bot = min(due)
                wait = when - now()
                if wait <= 0:
                    planned = plans[bot]
                    assert planned is not None
                    _, action, seen = planned
                    try:
                        game.apply(action, at=now(), seen=seen)
                    except IllegalActionError:
                        replan(bot)
                        continue
                    console.print(
                        f"[magenta]{escape(game.players[bot])}[/]: [bold]{escape(str(action))}[/] at {now():.2f} s"
                    )
                    plans[bot] = None
                    replan(bot)
                    continue
                stop.wait(min(wait, tick))
            else:
                stop.wait(tick)
    except KeyboardInterrupt:
        outcome[0] = "quit"
    stop.set()
    return "over" if game.is_over else outcome[0]
