"""``cardcore list``, ``rules``, ``simulate`` and ``replay``, and the overview (needs rich)."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import inspect
import json
import multiprocessing
import re
import sys
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import ExitStack
from typing import Any

from markdown_it import MarkdownIt
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cardcore._text import counted, shown
from cardcore.agents import check_agent
from cardcore.cli._markup import escape
from cardcore.cli.args import (
    DEFAULT_GAMES,
    DEFAULT_PLAYERS,
    UsageError,
    check_writable,
    parse_options,
    players_for,
)
from cardcore.cli.compare import check_agent_specs
from cardcore.cli.failures import (
    agent_failures,
    game_failures,
    loading_games,
    rule_by_id,
    rule_failures,
    warn,
)
from cardcore.cli.notes import Notes
from cardcore.cli.render import render_summary
from cardcore.cli.rulebook import find_rules, game_part, rule_entries
from cardcore.cli.screen import Screen
from cardcore.cli.tables import NARROW, _bounds, _default, _notes, _option_cell, _rules_table
from cardcore.cli.tables import _values as _values  # (tests read it here)
from cardcore.cli.workers import adopt, agent_names, registered_here
from cardcore.errors import CardcoreError, CorruptStateError
from cardcore.events import SPECTATOR
from cardcore.game import Game
from cardcore.info import GameInfo, RuleInfo
from cardcore.plugins import (
    _entries,
    _load,
    _rule_module,
    available_agents,
    available_rules,
    game_info,
    get_ruleset,
    load_agent,
    rule_info,
    split_agent_specs,
)
from cardcore.records import replay
from cardcore.simulate import simulate

__all__ = ["cmd_list", "cmd_replay", "cmd_rules", "cmd_simulate", "default_game", "overview"]


def _first_line(text: str | None) -> str:
    lines = (text or "").strip().splitlines()
    return lines[0].replace("``", "") if lines else ""


def _players(info: GameInfo) -> str:
    """``"2-3 (4 by option)"``: the seats the default options allow, then the declared most."""
    low, high = info.min_players, info.max_players
    usual = high
    try:
        ruleset = get_ruleset(info.name)  # with the default rules, and their own options
        logic, options = ruleset.logic, ruleset.resolve_options(None)
        while usual > low:
            try:
                logic.validate(usual, options)
                break
            except CardcoreError:
                usual -= 1
    except CardcoreError:  # a game that cannot build: listed by its declaration
        usual = high
    text = f"{low}" if low == usual else f"{low}-{usual}"
    return text if usual == high else f"{text} ({high} by option)"


def _agents_for(game: str | None) -> list[tuple[str, str]]:
    """``(name, description)`` of the installed agents that serve *game* (any game if ``None``)."""
    info = None if game is None else game_info(game)
    out = []
    for name in available_agents():
        try:
            factory = load_agent(name)
        except CardcoreError as exc:
            out.append((name, f"[red]failed to load: {escape(str(exc))}[/]"))
            continue
        if info is not None:
            try:
                check_agent(name, factory, info)
            except CardcoreError:
                continue
        games = getattr(factory, "games", None)
        served = f" [dim](plays {escape(', '.join(map(str, games)))})[/]" if isinstance(games, tuple) else ""
        out.append((name, escape(_first_line(getattr(factory, "__doc__", None))) + served))
    return out


# -- list -------------------------------------------------------------------------------------


def cmd_list(console: Console, only: str | None) -> int:
    """Print the installed games (with options), house rules and agents.

    Plugins that fail to load are left out and named on stderr, each with its reason
    (see :mod:`~cardcore.cli.failures`); the status is still 0. *only*, a game that
    fails to load, raises its error.
    """
    games = loading_games() if only is None else (only,)
    gt = Table(title="games", title_style="bold", show_lines=False)
    narrow = console.width < NARROW  # one under another: five columns squeezed to nothing
    if narrow:
        gt.add_column("game (players, kind), summary, options: default (accepted)", overflow="fold")
    else:
        for col in ("game", "players", "kind", "summary"):
            gt.add_column(col)
        # fold, not "…": at 80 columns "points_limit=none" was cut to "points_limit=no…"
        gt.add_column("options: default (accepted)", overflow="fold")
    for name in games:
        info = game_info(name)
        opts = "\n".join(_option_cell(o) for o in info.options) or "-"
        kind = "real time" if info.realtime else "turn-based"
        if narrow:
            gt.add_row(
                f"[bold]{escape(name)}[/] ({_players(info)} player{'s' * (info.max_players != 1)}, {kind})"
                f"\n{escape(info.summary)}\n[dim]{opts}[/]",
                end_section=True,
            )
        else:
            gt.add_row(f"[bold]{escape(name)}[/]", _players(info), kind, escape(info.summary), opts)
    console.print(gt)
    for name in games:
        rules = available_rules(name)
        if not rules:
            console.print(f"[dim]{escape(name)}: no house rules installed[/]")
            continue
        console.print(_rules_table(name, rules, console.width))
    at = Table(title="agents" if only is None else f"agents for {escape(only)}", title_style="bold")
    at.add_column("agent")
    at.add_column("description")
    for name, doc in _agents_for(only):
        at.add_row(f"[bold]{escape(name)}[/]", doc)
    console.print(at)
    game = games[0] if len(games) == 1 else "GAME"
    console.print(f"[dim]the rules, each option and each house rule: cardcore rules {game}[/]")
    if only is None:
        warn([*game_failures(), *rule_failures(), *agent_failures()])
    else:
        warn(rule_failures(only))
    return 0


def cmd_rules(console: Console, game: str, only: str | None) -> int:
    """Print a game's rules (its ``RULES.md``, with IDs), options (doc, bounds, default) and house rules.

    :param only: One rule: a rule ID (``GOLF-SCORE-6``), an ID prefix (``GOLF-SCORE``)
        or a house rule (name or ID).
    """
    info = game_info(game)
    text = find_rules(_load("cardcore.games", game))
    if only is not None:
        return _one_rule(console, game, only, text)
    kind = "real time" if info.realtime else "turn-based"
    console.print(
        f"[bold]{escape(game)}[/]: {escape(info.summary)} ({_players(info)} player{'s' * (info.max_players != 1)}, {kind})"
    )
    if text is None:
        console.print(f"[dim]no rules text is installed with {escape(game)}[/]")
    else:
        console.print(_markdown(game_part(text, game)))
    ot = Table(title=f"{escape(game)} options (-o NAME=VALUE)", title_style="bold")
    narrow = console.width < NARROW  # one under another, as the house rules
    for col in ("option", "what it sets", "values", "default")[: 1 if narrow else 4]:
        ot.add_column(col, overflow="fold")
    for opt in info.options:
        cells = (
            f"[bold]{escape(opt.name)}[/]",
            escape(opt.doc),
            escape(_bounds(opt)),
            escape(_default(opt)),
        )
        if narrow:
            ot.add_row(
                f"{cells[0]}={cells[3]}\n{cells[1]}\n[dim]values: {cells[2]}[/]", end_section=True
            )
        else:
            ot.add_row(*cells)
    console.print(ot if info.options else "[dim]no options[/]")
    rules = available_rules(game)
    if rules:
        console.print(_rules_table(game, rules, console.width))
    console.print(
        f"[dim]one rule: cardcore rules {escape(game)} RULE (a rule ID, an ID prefix"
        " or a house rule)[/]"
    )
    warn(rule_failures(game))
    return 0


def _cited(text: str) -> set[str]:
    """The rule IDs *text* cites, ``SPIT-MOVE-2/3/4`` read as three."""
    return {
        f"{stem}-{n}"
        for stem, numbers in re.findall(r"\b([A-Z][A-Z0-9]*(?:-[A-Z]+)*)-(\d+(?:/\d+)*)", text)
        for n in numbers.split("/")
    }


def _one_rule(console: Console, game: str, only: str, text: str | None) -> int:
    """``cardcore rules GAME RULE``: a house rule, a rule by ID, or every rule under an ID prefix."""
    part = game_part(text, game) if text is not None else ""
    entries = rule_entries(part) if text is not None else {}  # not Speed's
    key = only.strip().upper()
    key = key.removesuffix("-") if len(key) > 1 else key  # a prefix as typed: GOLF-SCORE-
    core = find_rules("cardcore.rules") if key.startswith("CORE") else None
    if core is not None:  # the core's rules, which every game obeys and errors cite
        entries = {**rule_entries(core), **entries}
    module: object | None = None
    ri: RuleInfo | None = None
    if only in _entries()["cardcore.rules"]:
        module, ri = _rule_module(only)  # asked for by name: a broken rule's own error
    else:
        found = rule_by_id(only)  # past the rules that fail to load
        if found is None and only.strip().upper() != only:  # an ID in any case, as the spec's
            found = rule_by_id(only.strip().upper())
        if found is not None:
            module, ri = found
    if module is not None and ri is not None:
        if ri.game == game:
            _house_rule(console, module, ri, entries.get(ri.id))
            return 0
        if key not in entries:
            msg = f"house rule {ri.name!r} belongs to {ri.game!r}, not {game!r} ({ri.id})"
            raise UsageError(msg)
    chosen = [body for rule_id, body in entries.items() if rule_id == key]
    chosen = chosen or [body for rule_id, body in entries.items() if rule_id.startswith(key + "-")]
    if not chosen and text is not None and key in _cited(part):
        # a rule of the shared file this game's part cites (Speed plays by SPIT-MOVE-2/3/4)
        chosen = [body for rule_id, body in rule_entries(text).items() if rule_id == key]
    if not chosen:
        example = next(iter(entries), "")
        hint = f"a rule ID such as {example}, an ID prefix, or " if example else ""
        msg = f"no rule {only!r} in {game} ({hint}a house rule; cardcore rules {game} lists them)"
        raise UsageError(msg)
    console.print(_markdown("\n".join(chosen)))
    return 0


def _markdown(text: str) -> Markdown:
    """*text* as rich Markdown, HTML read as the text it is: rich leaves HTML out, so a rules
    text's ``say wild <colour>`` would lose its ``<colour>``."""
    rendered = Markdown(text)
    parser = MarkdownIt("commonmark", {"html": False}).enable(["strikethrough", "table"])
    rendered.parsed = parser.parse(text)
    return rendered


def _house_rule(console: Console, module: object, ri: RuleInfo, spec: str | None) -> None:
    console.print(f"[bold]{escape(ri.name)}[/] ({ri.id}): {escape(ri.summary)}")
    notes = _notes(ri, game_info(ri.game))
    if notes:
        console.print(escape(notes))
    doc = inspect.getdoc(module)
    if doc:
        console.print()
        console.print(escape(doc))
    if spec is not None:
        console.print()
        console.print(_markdown(spec))


# -- simulate ---------------------------------------------------------------------------------


def _shipped(name: str) -> bool:
    """Whether *name* is one of the games installed with cardcore itself (not a plugin's)."""
    return any(
        ep.name == name and ep.dist is not None and ep.dist.name == "cardcore"
        for ep in importlib.metadata.entry_points(group="cardcore.games")
    )


def default_game() -> str:
    """The first turn-based game among those that load: one shipped with cardcore first.

    A plugin's game (the Go Fish example sorts before Golf) is suggested only when
    cardcore's own games are not installed.
    """
    games = loading_games()
    games = tuple(sorted(games, key=lambda name: not _shipped(name)))  # stable: sorted within
    for name in games:
        if not game_info(name).realtime:
            return name
    if not games:
        msg = "no games are installed"
        raise CardcoreError(msg)
    return games[0]


def process_pool(
    stack: ExitStack,
    workers: int,
    game: str,
    agents: Collection[str] = (),
    rules: Collection[str] = (),
    without: Collection[str] = (),
) -> ProcessPoolExecutor:
    """A pool of *workers* processes, shut down with *stack*: on an error, Ctrl-C or
    ``SIGTERM``, the games not started yet are cancelled and the running ones waited for
    (the pool waited for every queued one; the interpreter's exit for the running). Each
    worker registers the plugins this process registered (see :mod:`cardcore.cli.workers`)."""
    # not fork: the progress bar runs a thread, and forking a threaded process is unsafe
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    here = registered_here(game, agents, rules, without)
    pool = stack.enter_context(
        ProcessPoolExecutor(workers, context, initializer=adopt, initargs=(here,))
    )

    def cancel(kind: type[BaseException] | None, *_: object) -> bool:
        if kind is not None:  # wait for the running games here, not at the interpreter's exit
            pool.shutdown(wait=True, cancel_futures=True)  # (where a second SIGTERM orphaned them)
        return False

    stack.push(cancel)  # runs before the pool's own exit (last in, first out)
    return pool


def _dask_executor(stack: ExitStack, address: str, workers: int | None) -> Executor:
    try:
        dd: Any = importlib.import_module("dask.distributed")
    except ImportError:
        msg = "--dask needs dask: install it with pip install 'cardcore[dask]' (in a checkout: pip install -e '.[dask]')"
        raise UsageError(msg) from None
    if not address.strip():
        msg = "--dask needs an address: 'local', or the scheduler's, such as tcp://host:8786"
        raise UsageError(msg)
    if address == "local":
        cluster = stack.enter_context(
            dd.LocalCluster(
                n_workers=workers or 2, threads_per_worker=1, processes=True, dashboard_address=None
            )
        )
        client = stack.enter_context(dd.Client(cluster))
    else:
        try:
            client = stack.enter_context(dd.Client(address, timeout="10s"))
        except (OSError, ValueError, TypeError) as exc:  # unreachable, or not an address
            msg = f"cannot reach the dask scheduler at {address[:60]!r}: {exc}"
            raise UsageError(msg) from None
    executor: Executor = client.get_executor()
    return executor


def _by_name(refs: Iterable[str]) -> list[str]:
    """House rules named by entry-point name (a rule ID such as ``GOLF-SCORE-4`` read as its
    name), each once, in rule-ID order: as :attr:`cardcore.Game.rules` names them."""
    ids = {info.name: info.id for info in map(rule_info, refs)}
    return sorted(ids, key=lambda name: (ids[name], name))


def cmd_simulate(console: Console, args: argparse.Namespace) -> int:
    """Simulate many seeded games and print the summary (and optional JSON)."""
    name = default_game() if args.game is None else args.game
    info = game_info(name)
    n = players_for(name, args.players, DEFAULT_PLAYERS, args)
    agents: list[str] | None = None
    if args.agents:
        agents = split_agent_specs(args.agents)  # "ismcts:iterations=50,seed=7,random": two
        if len(agents) == 1:
            agents *= n
        elif args.players is None:
            n = len(agents)
        elif len(agents) != n:
            msg = f"--agents names {len(agents)} agents for {counted(n, 'player')}"
            raise UsageError(msg)
        check_agent_specs(agents, info)
    if args.json and args.json != "-":
        check_writable(args.json, overwrite=True)
    options = parse_options(name, args.option, args.rules or (), args.without or ())
    seed = 0 if args.seed is None else args.seed
    chunk = max(1, min(50, args.games // 20))
    with ExitStack() as stack:
        executor: Executor | None = None
        where = "this process"
        if args.dask is not None:
            executor = _dask_executor(stack, args.dask, args.workers)
            where = f"dask ({args.dask})"
        elif args.workers:
            executor = process_pool(
                stack, args.workers, name, agent_names(agents), args.rules or (), args.without or ()
            )
            where = f"{args.workers} worker processes"
        progress = Progress(
            TextColumn(f"[bold]{escape(name)}[/] on {escape(where)}".replace("{", "{{").replace("}", "}}")),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=(bar := console if console.stderr else type(console)(stderr=True)),  # never stdout
            transient=True,
            disable=args.quiet or not bar.is_terminal,  # piped: no stray blank line
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
        data = {
            **summary.to_json(),
            "seed": seed,
            "rules": _by_name(args.rules),  # as compare names them: by name, once each
            "without": _by_name(args.without),
            "options": options,
        }
        text = json.dumps(data, indent=1, allow_nan=False)  # strict JSON: no NaN
        if args.json == "-":
            sys.stdout.write(text + "\n")
        else:
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
            console.print(f"summary written to {escape(args.json)}")
    return 0


# -- replay -----------------------------------------------------------------------------------


def cmd_replay(console: Console, args: argparse.Namespace, read: Callable[[str], str]) -> int:
    """Step through a record, drawing the chosen seat's (or a spectator's) view after each action."""
    try:
        with open(args.record, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        msg = f"cannot read record {args.record!r}: {exc.strerror}"
        raise UsageError(msg) from None
    except UnicodeDecodeError:
        msg = f"record {args.record!r} is not UTF-8 text"
        raise CorruptStateError(msg) from None
    try:
        replay(text)  # validates the whole record first (CorruptStateError)
    except CorruptStateError as exc:  # named: a loop over many records says which failed
        msg = f"{args.record!r}: {exc}"
        raise CorruptStateError(msg) from None
    rec: Mapping[str, Any] = json.loads(text)
    actions = list(rec["actions"])
    game = _start(rec)
    seat: int | None = args.seat
    if seat is not None and not 0 <= seat < len(game.players):
        msg = f"--seat must be 0 to {len(game.players) - 1}, not {shown(seat, 40)}"
        raise UsageError(msg)
    stop_at = len(actions) if args.final else args.at
    if stop_at is not None and not 0 <= stop_at <= len(actions):
        msg = f"--at must be 0 to {len(actions)}, not {shown(stop_at, 40)}"
        raise UsageError(msg)
    screen = Screen(game, seat)
    notes = None if stop_at is not None else Notes.attach(game, SPECTATOR if seat is None else seat)
    console.print(
        f"[bold]{escape(str(rec['game']))}[/] record: {len(actions)}"
        f" action{'' if len(actions) == 1 else 's'}, seed {rec['seed']}"
    )
    if stop_at is None:
        console.print(screen.draw())
    for i, (who, notation, at) in enumerate(actions, 1):
        if stop_at is not None and i > stop_at:
            break
        if args.step:
            try:
                answer = read(f"[{i}/{len(actions)}] Enter for the next action, q to stop: ")
            except (EOFError, KeyboardInterrupt):
                break
            except UnicodeDecodeError:  # a line that does not decode: not "q", so go on
                answer = ""
            if answer.strip().lower() in ("q", "quit"):
                break
        game.act(who, notation, at=at)
        if i == len(actions) and rec.get("truncated") is True and not game.is_over:
            game.truncate()  # cut short by its host: over after its last action, as replay() has it
        if stop_at is None:
            when = "" if at is None else f" at {at:.2f} s"
            player = game.players[who] if 0 <= who < len(game.players) else "the host"
            console.print(f"[bold]#{i}[/] {escape(player)}: [bold cyan]{escape(notation)}[/]{when}")
            for line in notes.take() if notes is not None else ():  # what no action names
                console.print(line)
            console.print(screen.draw())
    if stop_at is not None:
        console.print(f"after action {stop_at}:")
        console.print(screen.draw())
    return 0  # (a finished game's last table already ends with its result)


def _start(rec: Mapping[str, Any]) -> Game:
    """A game at the start of record *rec* (its actions not applied)."""
    if not rec["actions"]:
        return replay(rec)  # nothing to step through; a game over at its deal keeps its result
    empty = {**rec, "actions": []}
    empty.pop("result", None)
    empty.pop("truncated", None)  # (a game cut short by a cap: not at its start)
    return replay(empty)


# -- the overview -----------------------------------------------------------------------------


def overview(console: Console) -> int:
    """``cardcore`` alone: what is installed and the first commands to try."""
    console.print("[bold]cardcore[/]: play, simulate and replay card games\n")
    cmd_list(console, None)
    example = default_game() if loading_games() else "GAME"
    tips = [
        (
            f"cardcore simulate {example}",
            f"{DEFAULT_GAMES} games by random agents, a summary table",
        ),
        (f"cardcore play {example} --players 2", "play in the terminal"),
        (f"cardcore rules {example}", "its rules, options and house rules"),
        ("cardcore --help", "every command and option"),
    ]
    width = max(len(cmd) for cmd, _ in tips)
    console.print("\ntry:")
    for cmd, what in tips:
        console.print(f"  [bold]{cmd:<{width}}[/]  [dim]# {what}[/]")
    return 0
