"""``cardcore play``: playing in the terminal against built-in agents (needs rich).

Turn-based games alternate between the human's prompt and the bots' moves
(here); real-time games run in :mod:`cardcore.cli.realtime`. Every action is
applied with ``seen=`` the version of the view its player acted on, so a
human overtaken by a bot is told "too late" (stale), not "illegal".
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import os
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console

from cardcore._names import hidden, marked, same_name, shows, tidy
from cardcore._text import counted, shown
from cardcore.agents import LazyView, _own, lend_views
from cardcore.cli._markup import escape
from cardcore.cli.args import UsageError, check_writable, parse_options, players_for
from cardcore.cli.compare import check_agent_specs
from cardcore.cli.notes import Notes
from cardcore.cli.realtime import play_realtime
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
from cardcore.plugins import game_info, load_agent, parse_agent_spec
from cardcore.setup import MAX_PLAYERS, new_game

__all__ = ["cmd_play", "make_agent", "play_turn_based"]


def make_agent(name: str, seed: int, speed: float | None = None) -> Any:
    """Build agent *name* (an entry point of ``cardcore.agents``) with its own seed.

    :param name: The agent's name, e.g. ``"random"``.
    :param seed: The agent's seed.
    :param speed: Mean reaction time in seconds for real-time agents, passed as
        ``mean=`` or ``reaction=`` when the agent accepts one of them.
    """
    name, spec = parse_agent_spec(name)  # "ismcts:iterations=50": the spec's values win
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
    return load_agent(name, **{**kwargs, **spec})


def play_turn_based(
    console: Console,
    game: Game,
    seat: int,
    agents: Sequence[Any],
    read: Callable[[str], str],
    notes: Notes | None = None,
) -> str:
    """Play *game* with the human at *seat* and *agents* elsewhere.

    :param read: Reads one line after printing a prompt (raises ``EOFError`` at the end).
    :param notes: The game's lines of the human's events, subscribed before the deal
        (default: from now on); printed after the moves.
    :returns: ``"over"`` when the game ended, ``"quit"`` when the human left.
    """
    with lend_views(game) as views:
        heard = Notes.attach(game, seat) if notes is None else notes
        try:
            return _turn_based(console, game, seat, agents, read, views, heard)
        except KeyboardInterrupt:  # Ctrl-C anywhere (a redraw, a move: undone if cut short):
            console.print()  # left, as at the prompt, so the record is saved
            return "quit"


def _turn_based(
    console: Console,
    game: Game,
    seat: int,
    agents: Sequence[Any],
    read: Callable[[str], str],
    views: Callable[[int], LazyView],
    notes: Notes,
) -> str:
    screen = Screen(game, seat)
    bound = game.logic.action_bound(len(game.players), game.options)
    view: dict[str, Any] | None = None
    while not game.is_over:
        for line in notes.take():  # the deal's, then each action's
            console.print(line)
        if game.version >= bound:
            game.truncate()
            break
        actor = game.to_act[0]
        if not game.legal_actions(actor):
            msg = f"{game.players[actor]} is to act but has no legal action: the game is stuck"
            raise StalledGameError(msg)
        if actor != seat:
            version = game.version
            legal_now = game.legal_actions(actor)
            try:
                action = agents[actor].choose(views(actor), legal_now)
            except KeyboardInterrupt:  # Ctrl-C while a bot thinks: left, as at the prompt
                console.print()
                return "quit"
            _own(agents, actor, action, legal_now, "answered")  # as cardcore.play: its own seat
            try:
                game.apply(action, seen=version)
            except IllegalActionError as exc:  # named as cardcore.play names it
                msg = f"the agent at seat {actor} ({type(agents[actor]).__name__}) answered: {exc}"
                raise IllegalActionError(msg, action=action, rule_id=exc.rule_id) from exc
            console.print(
                f"[magenta]{escape(game.players[actor])}[/]: [bold]{escape(str(action))}[/]"
            )
            view = None
            continue
        if view is None or view["version"] != game.version:
            view = game.view(seat)
            console.print(screen.draw(view))
            console.print(legal_line(view["legal"], console.width))
        legal: list[str] = view["legal"]  # what the human was shown, numbered as shown
        try:
            text = read(f"{game.players[seat]}> ")
        except (EOFError, KeyboardInterrupt):
            console.print()
            return "quit"
        except UnicodeDecodeError as exc:  # a stream that could not be made lenient
            console.print(error_markup(undecodable(exc)))
            continue
        words = text.strip().lower()
        if not words:
            continue
        if words in ("quit", "exit", "q"):
            return "quit"
        if words in ("help", "?", "h"):
            console.print(COMMANDS)
            console.print(legal_line(legal, console.width))
            continue
        if words in ("view", "v"):
            view = None
            continue
        try:
            action = game.act(seat, resolve(text, legal), seen=view["version"])
        except CardcoreError as exc:
            console.print(error_markup(exc))
            continue
        console.print(f"[green]you[/]: [bold]{escape(str(action))}[/]")
        view = None
    for line in notes.take():  # the last action's
        console.print(line)
    return "over"


# -- the command ------------------------------------------------------------------------------


def cmd_play(console: Console, args: argparse.Namespace) -> int:
    """Play a game in the terminal; save its record at the end."""
    name: str = args.game
    info = game_info(name)
    n = players_for(name, args.players, info.min_players, args)
    if not 1 <= n <= MAX_PLAYERS:  # said before the seats' names are built, as new_game says it
        low, high = info.min_players, info.max_players
        count = f"exactly {low}" if low == high else f"{low} to {high}"
        msg = f"--players: {info.name} takes {count} player{'s' * (high != 1)}, not {shown(n, 40)} (CORE-SEAT-2)"
        raise UsageError(msg)
    if not 0 <= args.seat < n:
        msg = f"--seat must be 0 to {n - 1}, not {shown(args.seat, 40)}"
        raise UsageError(msg)
    check_agent_specs([args.agent], info)
    bot = parse_agent_spec(args.agent)[0]  # the name alone, not its parameters
    mine = tidy(args.name) if args.name else ""  # as shown: "random  2 " is "random 2"
    names = [  # numbered from 1 like "Player N", so "random 2" and "Player 2" are one seat
        f"{bot} {s + 1}" if s != args.seat else mine or f"Player {s + 1}" for s in range(n)
    ]
    if args.name and not shows(args.name):  # (the web lobby refuses it too)
        why = hidden(args.name)
        msg = f"--name {args.name!r} " + (
            f"holds an invisible character ({why}): write the name without it"
            if why else "shows as nothing: give a name with something to show"
        )
        raise UsageError(msg)
    if args.name and marked(args.name):  # "Bob (you)" reads as the mark the table adds
        raise UsageError(f"--name {args.name!r} ends with {marked(args.name)!r}, a mark the tables add after names (here or in the browser)")
    if any(same_name(names[args.seat], n) for s, n in enumerate(names) if s != args.seat):
        msg = f"--name {args.name!r} is the name of another seat: choose another"  # (in any case:
        raise UsageError(msg)  # "Random 2" and "random 2" read alike, as on the web)
    notes = Notes(info, args.seat)
    game = new_game(
        name,
        names,
        rules=args.rules,
        without=args.without,
        options=parse_options(name, args.option, args.rules or (), args.without or ()),
        seed=args.seed,
        subscribers=notes.listeners(),  # before the deal: it may say something too
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
    spec = parse_agent_spec(args.agent)[1]  # its own mean= or reaction= wins over --bot-speed
    reaction = spec.get("mean", spec.get("reaction", args.bot_speed))
    console.print(
        f"[bold]{escape(name)}[/] with {counted(n, 'player')}; you are {escape(names[args.seat])}"
        + (f"; the others are played by [bold]{escape(args.agent)}[/]" if n > 1 else "")
        + (f" (reaction {reaction:g} s)" if info.realtime and n > 1 else "")
    )
    lenient(sys.stdin)  # an undecodable byte is a typo, not a crash
    try:
        if info.realtime:
            outcome = play_realtime(console, game, args.seat, agents, notes=notes)
        else:
            _line_editing()
            outcome = play_turn_based(
                console,
                game,
                args.seat,
                agents,
                lambda prompt: console.input(f"[bold]{escape(prompt)}[/]", emoji=False),  # a name may hold '['
                notes,
            )
    except Exception:  # a bot that failed (or answered what the game refuses): the moves so
        if path is not None:  # far are kept, then the error is said as for any command
            with contextlib.suppress(Exception, KeyboardInterrupt):  # the bot's error is said
                saved = _save(console, path, game.record(), overwrite=args.force)
                console.print(f"the game so far saved to {escape(saved)}", soft_wrap=True)
        raise
    if game.result is not None:
        console.print(Screen(game, args.seat).draw())  # the final table, with the result
    elif outcome == "quit":
        console.print("[yellow]left the game before its end[/]")
    if path is not None:
        path = _save(console, path, game.record(), overwrite=args.force)
        printed, command = escape(path), escape(shlex.quote(path))  # a path may hold "[" or " "
        console.print(  # on one line, however narrow: a command to paste
            f"record saved to {printed} (replay it: cardcore replay {command})", soft_wrap=True
        )
    return 0


def _line_editing() -> None:
    """Let the arrow keys edit the prompt's line (readline, where the platform has it)."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401 - imported for input()'s line editing


def _save(console: Console, path: str, record: Any, *, overwrite: bool) -> str:
    """Write *record* to *path*, or to the next free name if *path* appeared meanwhile.

    The path was checked at the start; without *overwrite* the file is created
    here (mode ``"x"``), so one that another program wrote during the game is
    kept. :returns: The path written.
    """
    target = path
    while True:
        try:
            with open(target, "w" if overwrite else "x", encoding="utf-8") as fh:
                json.dump(record, fh, indent=1)
        except FileExistsError:
            target = _free_path(path)
            continue
        break
    if target != path:
        console.print(
            f"[yellow]{escape(path)} appeared during the game:[/] kept; the record is"
            f" saved under {escape(target)} instead"
        )
    return target


def _free_path(path: str) -> str:
    """*path*, or ``name-2.json``, ``name-3.json``... if it exists: never overwrite a record."""
    if not os.path.exists(path):
        return path
    stem, dot, ext = path.rpartition(".")
    k = 2
    while os.path.exists(f"{stem}-{k}{dot}{ext}"):
        k += 1
    return f"{stem}-{k}{dot}{ext}"
