"""The ``cardcore`` command: list, play, simulate and replay games in a terminal.

::

    cardcore list                              # installed games, house rules, agents
    cardcore play GAME --players 2 --seed 7    # play against built-in agents
    cardcore simulate GAME --games 1000        # many games, a summary table
    cardcore replay RECORD --seat 0 --step     # step through a saved record

The command needs the ``cli`` extra (``pip install 'cardcore[cli]'``, which
brings in rich); this module itself imports without it, and :func:`main`
explains what to install. Nothing here names a game: every game comes from
the installed plugins.
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from cardcore.errors import CardcoreError, OptionError
from cardcore.plugins import (
    available_agents,
    available_games,
    available_rules,
    game_info,
    load_agent,
    rule_info,
)

if TYPE_CHECKING:
    from rich.console import Console

    from cardcore.game import Game

__all__ = ["DEFAULT_GAMES", "build_parser", "main", "parse_options"]

DEFAULT_GAMES = 200
"""Games in ``cardcore simulate`` when ``--games`` is not given."""
DEFAULT_PLAYERS = 4
"""Preferred seats in ``cardcore simulate`` (narrowed to what the game allows)."""

RICH_MISSING = (
    "the cardcore command needs the 'rich' package: install it with pip install 'cardcore[cli]'"
)


# -- arguments --------------------------------------------------------------------------------


def _add_game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--players",
        "-p",
        type=int,
        default=None,
        help="number of seats (default: depends on the game)",
    )
    p.add_argument(
        "--rules",
        "-r",
        nargs="+",
        default=[],
        metavar="RULE",
        help="house rules to add (names or rule IDs)",
    )
    p.add_argument(
        "--without", nargs="+", default=[], metavar="RULE", help="default house rules to switch off"
    )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (repeatable)",
    )
    p.add_argument(
        "--seed",
        "-s",
        type=int,
        default=None,
        help="seed (default: random for play, 0 for simulate)",
    )


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``cardcore`` command."""
    parser = argparse.ArgumentParser(
        prog="cardcore",
        description="Play, simulate and replay card games built on cardcore.",
        epilog=(
            "examples: cardcore list | cardcore play GAME --players 2 | "
            "cardcore simulate GAME --games 1000 --workers 2 | cardcore replay game.json --step"
        ),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p_list = sub.add_parser("list", help="installed games, house rules and agents")
    p_list.add_argument("game", nargs="?", help="show only this game")

    p_play = sub.add_parser("play", help="play a game in the terminal against built-in agents")
    p_play.add_argument("game", help="the game to play (see cardcore list)")
    _add_game_args(p_play)
    p_play.add_argument("--seat", type=int, default=0, help="your seat, from 0 (default 0)")
    p_play.add_argument(
        "--agent", "-a", default="random", help="the agent playing the other seats (default random)"
    )
    p_play.add_argument(
        "--bot-speed",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="real-time games: the bots' mean reaction time (default 1.0)",
    )
    p_play.add_argument(
        "--record",
        metavar="FILE",
        default=None,
        help="where to save the record (default cardcore-GAME-SEED.json)",
    )
    p_play.add_argument("--no-record", action="store_true", help="do not save a record")
    p_play.add_argument("--name", default=None, help="your display name (default: Player N)")

    p_sim = sub.add_parser(
        "simulate", aliases=["sim"], help="simulate many games and summarize them"
    )
    p_sim.add_argument(
        "game",
        nargs="?",
        default=None,
        help="the game (default: the first installed turn-based game)",
    )
    _add_game_args(p_sim)
    p_sim.add_argument(
        "--games",
        "-n",
        type=int,
        default=DEFAULT_GAMES,
        help=f"how many games (default {DEFAULT_GAMES})",
    )
    p_sim.add_argument(
        "--agents",
        "-a",
        default=None,
        help="agents per seat, comma-separated; one name fills every seat (default random)",
    )
    p_sim.add_argument(
        "--workers",
        "-w",
        type=int,
        default=None,
        help="worker processes (ProcessPoolExecutor); default: this process",
    )
    p_sim.add_argument(
        "--dask",
        default=None,
        metavar="ADDRESS",
        help="run on dask: 'local' starts a LocalCluster, or tcp://host:8786",
    )
    p_sim.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="also write the summary as JSON ('-' for stdout)",
    )
    p_sim.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    p_rep = sub.add_parser("replay", help="step through a saved record")
    p_rep.add_argument("record", help="a record (JSON) saved by cardcore play or Game.record()")
    who = p_rep.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, default=None, help="show what this seat saw")
    who.add_argument(
        "--spectator", action="store_true", help="show the spectator's view (the default)"
    )
    p_rep.add_argument(
        "--step", action="store_true", help="wait for Enter after each action ('q' stops)"
    )
    return parser


def _convert(text: str, kind: type, nullable: bool) -> Any:
    low = text.strip().lower()
    if low in ("none", "null") and nullable:
        return None
    if kind is bool:
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        msg = f"not a yes/no value: {text!r}"
        raise ValueError(msg)
    if kind is int:
        return int(text)
    if kind is float:
        return float(text)
    return text


def parse_options(game: str, pairs: Sequence[str]) -> dict[str, Any]:
    """Read ``KEY=VALUE`` pairs into options, converting each value to the type the game declares.

    :param game: The installed game whose options these are.
    :param pairs: Texts like ``"rounds=1"``.
    :raises OptionError: A pair without ``=`` or a value of the wrong type.
    """
    info = game_info(game)
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            msg = f"options are KEY=VALUE, not {pair!r}"
            raise OptionError(msg)
        try:
            opt = info.option(key)
        except KeyError:
            out[key] = value  # the core reports the unknown name with what is accepted
            continue
        try:
            out[key] = _convert(value, opt.kind, opt.nullable)
        except ValueError:
            msg = f"option {key!r} must be {opt.kind.__name__}, not {value!r}"
            raise OptionError(msg) from None
    return out


def _players(game: str, wanted: int | None, preferred: int, args: argparse.Namespace) -> int:
    """Return *wanted*, or the largest seat count up to *preferred* this configuration accepts."""
    if wanted is not None:
        return wanted
    from cardcore.setup import new_game

    info = game_info(game)
    options = parse_options(game, args.option)
    first = max(info.min_players, min(preferred, info.max_players))
    for n in range(first, info.min_players - 1, -1):
        try:
            new_game(game, n, rules=args.rules, without=args.without, options=options, seed=0)
        except OptionError:
            continue
        return n
    return first


# -- list -------------------------------------------------------------------------------------


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def cmd_list(console: Console, only: str | None) -> int:
    """Print the installed games (with options), house rules and agents."""
    from rich.markup import escape
    from rich.table import Table

    games = available_games() if only is None else (only,)
    gt = Table(title="games", title_style="bold", show_lines=False)
    for col in ("game", "players", "kind", "summary", "options (default)"):
        gt.add_column(col)
    for name in games:
        info = game_info(name)
        opts = "\n".join(f"{o.name}={o.default!r}" for o in info.options) or "-"
        kind = "real time" if info.realtime else "turn-based"
        players = (
            f"{info.min_players}"
            if info.min_players == info.max_players
            else f"{info.min_players}-{info.max_players}"
        )
        gt.add_row(f"[bold]{escape(name)}[/]", players, kind, escape(info.summary), escape(opts))
    console.print(gt)
    for name in games:
        info = game_info(name)
        rules = available_rules(name)
        if not rules:
            console.print(f"[dim]{escape(name)}: no house rules installed[/]")
            continue
        rt = Table(title=f"{name} house rules (--rules NAME)", title_style="bold")
        rt.add_column("rule", no_wrap=True)
        rt.add_column("ID", no_wrap=True)
        rt.add_column("summary")
        rt.add_column("conflicts / requires", overflow="fold")
        for rule in rules:
            ri = rule_info(rule)
            notes = []
            if rule in info.default_rules:
                notes.append("on by default (--without to switch off)")
            if ri.conflicts:
                notes.append("conflicts: " + " ".join(ri.conflicts))
            if ri.requires:
                notes.append("requires: " + " ".join(ri.requires))
            rt.add_row(
                f"[bold]{escape(rule)}[/]",
                ri.id,
                escape(ri.summary),
                escape("\n".join(notes) or "-"),
            )
        console.print(rt)
    at = Table(title="agents", title_style="bold")
    at.add_column("agent")
    at.add_column("description")
    for name in available_agents():
        try:
            doc = _first_line(getattr(load_agent(name), "__doc__", None)).replace("``", "")
        except CardcoreError as exc:
            doc = f"[red]failed to load: {escape(str(exc))}[/]"
        at.add_row(f"[bold]{escape(name)}[/]", escape(doc))
    console.print(at)
    return 0


# -- play -------------------------------------------------------------------------------------


def cmd_play(console: Console, args: argparse.Namespace) -> int:
    """Play a game in the terminal; save its record at the end."""
    from cardcore._cli_play import make_agent, play_realtime, play_turn_based
    from cardcore._cli_render import render_view
    from cardcore.setup import new_game

    name: str = args.game
    info = game_info(name)
    n = _players(name, args.players, info.min_players, args)
    if not 0 <= args.seat < n:
        msg = f"--seat must be 0 to {n - 1}, not {args.seat!r}"
        raise OptionError(msg)
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
    speed = args.bot_speed if info.realtime else None
    agents = [
        None if s == args.seat else make_agent(args.agent, game.seed * 7 + s + 1, speed)
        for s in range(n)
    ]
    need = "plan" if info.realtime else "choose"
    for agent in agents:
        if agent is not None and not callable(getattr(agent, need, None)):
            kind = "real-time" if info.realtime else "turn-based"
            msg = f"agent {args.agent!r} cannot play {kind} games (it has no {need}() method)"
            raise CardcoreError(msg)
    console.print(
        f"[bold]{name}[/] with {n} players; you are seat {args.seat}; "
        f"other seats: agent [bold]{args.agent}[/]"
        + (f" (reaction {args.bot_speed:g} s)" if info.realtime else "")
    )
    if info.realtime:
        outcome = play_realtime(console, game, args.seat, agents)
    else:
        outcome = play_turn_based(
            console, game, args.seat, agents, lambda prompt: console.input(f"[bold]{prompt}[/]")
        )
    if game.result is not None:
        console.print(render_view(game.view(args.seat)))  # the final table, with the result
    elif outcome == "quit":
        console.print("[yellow]left the game before its end[/]")
    if not args.no_record:
        path = args.record or f"cardcore-{name}-{game.seed}.json"
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(game.record(), fh, indent=1)
        console.print(f"record saved to {path} (replay it: cardcore replay {path})")
    return 0


# -- simulate ---------------------------------------------------------------------------------


def _default_game() -> str:
    games = available_games()
    for name in games:
        if not game_info(name).realtime:
            return name
    if not games:
        msg = "no games are installed"
        raise CardcoreError(msg)
    return games[0]


def _dask_executor(stack: ExitStack, address: str, workers: int | None) -> Executor:
    try:
        dd: Any = importlib.import_module("dask.distributed")
    except ImportError:
        msg = "--dask needs dask: install it with pip install 'cardcore[dask]'"
        raise CardcoreError(msg) from None
    if address == "local":
        cluster = stack.enter_context(
            dd.LocalCluster(
                n_workers=workers or 2, threads_per_worker=1, processes=True, dashboard_address=None
            )
        )
        client = stack.enter_context(dd.Client(cluster))
    else:
        client = stack.enter_context(dd.Client(address))
    executor: Executor = client.get_executor()
    return executor


def cmd_simulate(console: Console, args: argparse.Namespace) -> int:
    """Simulate many seeded games and print the summary (and optional JSON)."""
    from concurrent.futures import ProcessPoolExecutor

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from cardcore._cli_render import render_summary
    from cardcore.simulate import simulate

    name = args.game or _default_game()
    n = _players(name, args.players, DEFAULT_PLAYERS, args)
    agents: list[str] | None = None
    if args.agents:
        agents = [a.strip() for a in args.agents.split(",") if a.strip()]
        if len(agents) == 1:
            agents *= n
        elif args.players is None:
            n = len(agents)
    if args.games < 1:
        msg = f"--games must be at least 1, not {args.games!r}"
        raise OptionError(msg)
    options = parse_options(name, args.option)
    seed = 0 if args.seed is None else args.seed
    chunk = max(1, min(50, args.games // 20))
    with ExitStack() as stack:
        executor: Executor | None = None
        where = "this process"
        if args.dask:
            executor = _dask_executor(stack, args.dask, args.workers)
            where = f"dask ({args.dask})"
        elif args.workers:
            # not fork: the progress bar runs a thread, and forking a threaded process is unsafe
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context(
                "forkserver" if "forkserver" in methods else "spawn"
            )
            executor = stack.enter_context(
                ProcessPoolExecutor(max_workers=args.workers, mp_context=context)
            )
            where = f"{args.workers} worker processes"
        progress = Progress(
            TextColumn(f"[bold]{name}[/] on {where}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
            disable=args.quiet,
        )
        started = time.perf_counter()
        with progress:
            task = progress.add_task("games", total=args.games)
            summary = simulate(
                name,
                games=args.games,
                players=n,
                agents=agents,
                rules=args.rules,
                without=args.without,
                options=options,
                seed=seed,
                executor=executor,
                chunk=chunk,
                progress=lambda k: progress.advance(task, k),
            )
        elapsed = time.perf_counter() - started
    console.print(render_summary(summary, elapsed=elapsed))
    if args.json:
        data = {**summary.to_json(), "seed": seed, "rules": list(args.rules), "options": options}
        text = json.dumps(data, indent=1)
        if args.json == "-":
            sys.stdout.write(text + "\n")
        else:
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
            console.print(f"summary written to {args.json}")
    return 0


# -- replay -----------------------------------------------------------------------------------


def _start_from_header(rec: Mapping[str, Any]) -> Game:
    from cardcore.setup import new_game

    defaults = set(game_info(rec["game"]).default_rules)
    return new_game(
        rec["game"],
        list(rec["players"]),
        rules=[r["name"] for r in rec["rules"] if r["name"] not in defaults],
        without=[str(w) for w in rec["without"]],
        options=dict(rec["options"]),
        seed=rec["seed"],
        deck=rec.get("deck"),
    )


def cmd_replay(console: Console, args: argparse.Namespace, read: Callable[[str], str]) -> int:
    """Step through a record, printing the chosen seat's (or a spectator's) view after each action."""
    from cardcore._cli_render import render_result, render_view
    from cardcore.records import replay

    try:
        with open(args.record, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        msg = f"cannot read record {args.record!r}: {exc.strerror}"
        raise CardcoreError(msg) from None
    replay(text)  # validates the whole record first (CorruptStateError)
    rec = json.loads(text)
    game = _start_from_header(rec)
    seat: int | None = args.seat
    if seat is not None and not 0 <= seat < len(game.players):
        msg = f"--seat must be 0 to {len(game.players) - 1}, not {seat!r}"
        raise OptionError(msg)
    actions = rec["actions"]
    console.print(f"[bold]{rec['game']}[/] record: {len(actions)} actions, seed {rec['seed']}")
    console.print(render_view(game.view(seat)))
    for i, (who, notation, at) in enumerate(actions, 1):
        if args.step:
            try:
                answer = read(f"[{i}/{len(actions)}] Enter for the next action, q to stop: ")
            except (EOFError, KeyboardInterrupt):
                break
            if answer.strip().lower() in ("q", "quit"):
                break
        game.act(who, notation, at=at)
        when = "" if at is None else f" at {at:.2f} s"
        player = game.players[who] if 0 <= who < len(game.players) else "host"
        console.print(f"[bold]#{i}[/] {player} (seat {who}): [bold cyan]{notation}[/]{when}")
        console.print(render_view(game.view(seat)))
    if game.result is not None:
        console.print(render_result(game.result.to_json(), game.players))
    return 0


# -- main -------------------------------------------------------------------------------------


def _overview(console: Console) -> int:
    console.print("[bold]cardcore[/]: play, simulate and replay card games\n")
    cmd_list(console, None)
    games = available_games()
    example = _default_game() if games else "GAME"
    tips = [
        (
            f"cardcore simulate {example}",
            f"{DEFAULT_GAMES} games by random agents, a summary table",
        ),
        (f"cardcore play {example} --players 2", "play in the terminal"),
        ("cardcore --help", "every command and option"),
    ]
    width = max(len(cmd) for cmd, _ in tips)
    console.print("\ntry:")
    for cmd, what in tips:
        console.print(f"  [bold]{cmd:<{width}}[/]  [dim]# {what}[/]")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cardcore`` command; return its exit status (0 ok, 1 error, 2 bad usage).

    :param argv: The arguments (default ``sys.argv[1:]``).
    """
    args = build_parser().parse_args(argv)
    try:
        from rich.console import Console
    except ImportError:
        sys.stderr.write(f"error: {RICH_MISSING}\n")
        return 1
    json_to_stdout = args.command in ("simulate", "sim") and args.json == "-"
    console = Console(highlight=False, stderr=json_to_stdout)
    err = Console(highlight=False, stderr=True)
    try:
        if args.command is None:
            return _overview(console)
        if args.command == "list":
            return cmd_list(console, args.game)
        if args.command == "play":
            return cmd_play(console, args)
        if args.command in ("simulate", "sim"):
            return cmd_simulate(console, args)
        if args.command == "replay":
            return cmd_replay(console, args, lambda prompt: console.input(prompt))
    except CardcoreError as exc:
        from rich.markup import escape

        err.print(f"[red]error:[/] {escape(str(exc))}")
        return 1
    except ValueError as exc:
        from rich.markup import escape

        err.print(f"[red]error:[/] {escape(str(exc))}")
        return 1
    except KeyboardInterrupt:
        err.print("[yellow]interrupted[/]")
        return 130
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
