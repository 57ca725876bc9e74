"""``cardcore compare``: two configurations of a game on the same seeds, side by side.

::

    cardcore compare golf --rules golf.jokers --vs golf.hard --games 400
    cardcore compare tonk --without tonk.natural-49-50 --players 3 --plot natural.png
    cardcore compare golf --agents ismcts:iterations=50 --vs-agents golf-greedy --json -

The parser part (:func:`add_parser`) needs nothing beyond the standard library;
the command itself (:func:`cmd_compare`) needs rich, like the other commands.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Executor
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from cardcore._text import counted
from cardcore.agents import check_agent
from cardcore.cli.args import (
    UsageError,
    _agent_list,
    _Extend,
    _positive,
    _whole,
    _workers,
    check_writable,
    parse_options,
    players_for,
)
from cardcore.cli.workers import agent_names
from cardcore.errors import CardcoreError, RuleConflictError, UnknownPluginError
from cardcore.info import GameInfo
from cardcore.plugins import (
    check_agent_params,
    game_info,
    load_agent,
    parse_agent_spec,
    split_agent_specs,
)

if TYPE_CHECKING:
    from rich.console import Console

    from cardcore.compare import Comparison

__all__ = [
    "DEFAULT_COMPARE_GAMES",
    "add_parser",
    "check_agent_specs",
    "cmd_compare",
    "parse_agents",
    "parse_skill",
]

DEFAULT_COMPARE_GAMES = 200
"""Games per configuration in ``cardcore compare`` when ``--games`` is not given."""


def add_parser(sub: Any) -> None:
    """Add the ``compare`` subcommand to the command's subparsers *sub*."""
    p = sub.add_parser(
        "compare",
        help="compare two rule sets (or agent line-ups) of a game on the same seeds",
        description=(
            "Play configuration A (--rules, --without, --option, --agents) and B (--vs,"
            " --vs-without, --vs-option, --vs-agents) on the same seeds and compare, with 95%"
            " confidence intervals: first-seat advantage, game length in actions and rounds,"
            " score spread, end reasons and how often the stronger agent wins. B has no house"
            " rules unless --vs names some; its options are A's unless --vs-option is given"
            " (then only those: repeat the ones B shares), its agents A's unless --vs-agents"
            " names others."
        ),
    )
    p.add_argument("game", help="the game (see cardcore list)")
    for flag, dest, what in (
        ("--rules", "rules", "A's house rules"),
        ("--vs", "vs", "B's house rules (default: none, the base game)"),
        ("--without", "without", "default rules A switches off"),
        ("--vs-without", "vs_without", "default rules B switches off"),
    ):
        p.add_argument(
            flag, dest=dest, action=_Extend, default=[], metavar="RULE[,RULE]", help=what
        )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="A's option (repeatable)",
    )
    p.add_argument(
        "--vs-option",
        action="append",
        default=None,
        metavar="KEY=VALUE",
        help="B's option (repeatable; given, B takes only these, not A's)",
    )
    p.add_argument(
        "--agents",
        "-a",
        type=_agent_list,
        default=None,
        metavar="SPEC[,SPEC]",
        help="A's agents: one for every seat or one per seat, e.g. ismcts:iterations=50,random"
        " (default: the game's own agent)",
    )
    p.add_argument(
        "--vs-agents",
        type=_agent_list,
        default=None,
        metavar="SPEC[,SPEC]",
        help="B's agents (default: A's)",
    )
    p.add_argument(
        "--games",
        "-n",
        type=_positive,
        default=DEFAULT_COMPARE_GAMES,
        help=f"games per configuration (default {DEFAULT_COMPARE_GAMES})",
    )
    p.add_argument(
        "--players",
        "-p",
        type=_positive,
        default=None,
        help="seats (default 2, or what the game allows)",
    )
    p.add_argument("--seed", "-s", type=_whole, default=0, help="the study seed (default 0)")
    p.add_argument(
        "--skill",
        default="auto",
        metavar="STRONG[,WEAK]",
        help="the skill probe: the strong agent in one seat, the weak one (default random)"
        " elsewhere; 'none' for no probe (default: the game's own agent against random)",
    )
    p.add_argument(
        "--move-time",
        type=float,
        default=None,
        metavar="SECONDS",
        help="count, per seat, the decisions that take longer than this",
    )
    p.add_argument("--workers", "-w", type=_workers, default=None, help="worker processes")
    p.add_argument(
        "--dask", default=None, metavar="ADDRESS", help="run on dask: 'local' or tcp://host:8786"
    )
    p.add_argument(
        "--plot", default=None, metavar="FILE", help="also write a PNG plot (needs matplotlib)"
    )
    p.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="also write the result as JSON ('-' for stdout)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def parse_agents(text: str | None, players: int | None, what: str) -> list[str] | None:
    """Agent specs of ``--agents`` (one per seat, or one for all); ``None`` when not given.

    :raises UsageError: More or fewer specs than seats.
    """
    if text is None:
        return None
    try:
        _agent_list(text)  # the words of simulate's --agents
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"{what} {exc}") from None
    specs = split_agent_specs(text)
    if not specs:
        msg = f"{what} names no agent: {text!r}"
        raise UsageError(msg)
    if players is not None and len(specs) not in (1, players):
        msg = f"{what} names {len(specs)} agents for {counted(players, 'player')}"
        raise UsageError(msg)
    return specs


def check_agent_specs(specs: Sequence[str], info: GameInfo, flag: str | None = None) -> None:
    """Refuse, before any game, agent specs that cannot play *info*'s game.

    Unknown agents, agents of another game or of the other kind (turn-based, real time),
    parameters the agent does not take and values it refuses: one :class:`UsageError` each
    (an unknown agent stays an :class:`~cardcore.UnknownPluginError`, listing what is installed),
    said after the option that named them (*flag*, ``"--vs-agents"``) when given.
    """
    try:
        _check_specs(specs, info)
    except (UsageError, UnknownPluginError) as exc:
        if flag is None:
            raise
        raise type(exc)(f"{flag}: {exc}") from None


def _check_specs(specs: Sequence[str], info: GameInfo) -> None:
    for spec in dict.fromkeys(specs):
        try:
            name, params = parse_agent_spec(spec)
            factory = load_agent(name)
            check_agent(name, factory, info)
            check_agent_params(name, factory, params)
            if params:
                load_agent(name, **params)  # values it refuses (iterations=-1) fail here
        except UnknownPluginError:
            raise
        except CardcoreError as exc:
            raise UsageError(str(exc)) from None


def parse_skill(text: str) -> tuple[str, str] | str | None:
    """``--skill``: ``auto``, ``none``, ``STRONG`` (against random) or ``STRONG,WEAK``."""
    word = text.strip()
    if word.lower() == "auto":
        return "auto"
    if word.lower() == "none":
        return None
    try:
        _agent_list(word)  # the words of --agents: no empty agent name
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"--skill {exc}") from None
    specs = split_agent_specs(word)
    if len(specs) == 1:
        return (specs[0], "random")
    if len(specs) == 2:
        return (specs[0], specs[1])
    msg = f"--skill takes STRONG or STRONG,WEAK, not {text!r}"
    raise UsageError(msg)


def _executor(
    stack: ExitStack, args: argparse.Namespace, agents: set[str]
) -> tuple[Executor | None, str]:
    if args.dask:
        from cardcore.cli.commands import _dask_executor

        return _dask_executor(stack, args.dask, args.workers), f"dask ({args.dask})"
    if args.workers:
        from cardcore.cli.commands import process_pool
        from cardcore.cli.workers import named

        rules = [*(args.rules or ()), *(args.vs or ())]
        off = named(args.without or ()) & named(args.vs_without or ())  # off in A and B alike
        pool = process_pool(stack, args.workers, args.game, agents, rules, off)
        return pool, f"{args.workers} worker processes"
    return None, "this process"


def cmd_compare(console: Console, args: argparse.Namespace) -> int:
    """Run ``cardcore compare`` and print the table (and the optional JSON and plot)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from cardcore.cli._markup import escape
    from cardcore.compare import compare, default_agent

    name = args.game
    if args.move_time is not None and not args.move_time > 0:
        msg = f"--move-time must be above 0 seconds, not {args.move_time!r}"
        raise UsageError(msg)
    agents = parse_agents(args.agents, args.players, "--agents")
    vs_agents = parse_agents(args.vs_agents, args.players, "--vs-agents")
    given = [len(a) for a in (agents, vs_agents) if a is not None and len(a) > 1]
    try:
        players = args.players or (given[0] if given else players_for(name, None, 2, args))
    except (RuleConflictError, UnknownPluginError):  # compare() names the configuration
        players = 2
    for flag, specs in (("--agents", agents), ("--vs-agents", vs_agents)):
        if specs is not None and len(specs) not in (1, players):  # two line-ups of two sizes
            msg = f"{flag} names {len(specs)} agents for {counted(players, 'player')} (give one per seat, or one for all)"
            raise UsageError(msg)
    skill = parse_skill(args.skill)
    info = game_info(name)
    check_agent_specs(agents or (), info, "--agents")
    check_agent_specs(vs_agents or (), info, "--vs-agents")
    if isinstance(skill, tuple):
        check_agent_specs(skill, info, "--skill")
    for path in (args.plot, None if args.json == "-" else args.json):
        if path:
            check_writable(path, overwrite=True)
    if args.plot and args.json and os.path.abspath(args.plot) == os.path.abspath(args.json):
        msg = f"--plot and --json name the same file {args.plot!r}: one would overwrite the other"
        raise UsageError(msg)
    if args.plot and not args.plot.lower().endswith(".png"):  # known before any game is played
        msg = f"--plot writes a PNG file: name it *.png, not {args.plot!r}"
        raise UsageError(msg)
    if args.plot:
        _check_matplotlib()  # like --dask without dask: refused before a study that may take hours
    options = parse_options(name, args.option, args.rules or (), args.without or ())
    vs_options = (
        None
        if args.vs_option is None
        else parse_options(name, args.vs_option, args.vs or (), args.vs_without or ())
    )
    probes = 0 if skill is None or (skill == "auto" and default_agent(name) == "random") else 1
    total = 2 * args.games * (1 + probes)
    with ExitStack() as stack:
        probe = skill if isinstance(skill, tuple) else ()
        used = agent_names(agents, vs_agents, probe, [default_agent(name)])
        executor, where = _executor(stack, args, used)
        progress = Progress(
            TextColumn(f"[bold]{escape(name)}[/]: A vs B on {escape(where)}".replace("{", "{{").replace("}", "}}")),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=(bar := console if console.stderr else type(console)(stderr=True)),  # never stdout
            transient=True,
            disable=args.quiet or not bar.is_terminal,  # piped: no stray blank line
        )
        started = time.perf_counter()
        with progress:
            task = progress.add_task("games", total=total)
            result = compare(
                name,
                rules=args.rules,
                vs=args.vs,
                without=args.without,
                vs_without=args.vs_without,
                options=options,
                vs_options=vs_options,
                agents=agents,
                vs_agents=vs_agents,
                players=players,
                games=args.games,
                seed=args.seed,
                skill=skill,
                move_time=args.move_time,
                executor=executor,
                chunk=max(1, min(10, args.games // 10)),
                progress=lambda k: progress.advance(task, k),
            )
        elapsed = time.perf_counter() - started
    # the results first: a plot that fails (a full disk, a broken matplotlib) loses nothing
    console.print(render_comparison(result, elapsed))
    if args.json:
        text = json.dumps(result.to_json(), indent=1, allow_nan=False)  # strict JSON: no NaN
        if args.json == "-":
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
        else:
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
            console.print(f"result written to {escape(args.json)}")
    if args.plot:
        try:
            result.plot(args.plot)
        except Exception as exc:  # matplotlib's own errors included: one line, exit status 1
            kept = "the table above" + (f" and {args.json}" if args.json not in (None, "-") else "")
            msg = f"the plot {args.plot!r} was not written ({exc}); {kept} hold the results"
            raise CardcoreError(msg) from exc
        console.print(f"plot written to {escape(args.plot)}")
    return 0


def _check_matplotlib() -> None:
    """Refuse ``--plot`` up front when matplotlib (the ``plot`` extra) is not installed."""
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        msg = "--plot needs matplotlib: install it with pip install 'cardcore[plot]' (in a checkout: pip install -e '.[plot]')"
        raise UsageError(msg) from None


def render_comparison(result: Comparison, elapsed: float | None = None) -> Any:
    """A rich renderable: the table, then how the deals compare and any overruns."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from cardcore.cli._markup import escape

    when = "" if elapsed is None else f", {elapsed:.1f} s"
    table = Table(
        title=(
            f"{escape(result.game)}: {counted(result.players, 'player')}, {result.games}"
            f" {'game' if result.games == 1 else 'games'} per"
            f" configuration, seed {result.seed}{when}"
        ),
        title_style="bold",
    )
    table.add_column("figure (95% CI)")
    table.add_column("A")
    table.add_column("B")
    table.add_column("B - A (paired)")
    for figure, a, b, d in result.rows():
        table.add_row(escape(figure), escape(a), escape(b), escape(d))
    from cardcore.compare._report import describe, overrun_lines

    notes = [Text(result.deals, style="dim")]
    notes += [Text(line, style="yellow") for line in overrun_lines(result)]
    head = [Text(describe(result.a)), Text(describe(result.b))]
    return Group(*head, table, *notes)
