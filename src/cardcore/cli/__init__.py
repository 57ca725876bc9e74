"""The ``cardcore`` command: list, explain, play, simulate and replay games in a terminal.

::

    cardcore list                              # installed games, house rules, agents
    cardcore rules GAME [RULE]                 # a game's rules (with IDs), options and house rules
    cardcore play GAME --players 2 --seed 7    # play against built-in agents
    cardcore simulate GAME --games 1000        # many games, a summary table
    cardcore replay RECORD --seat 0 --step     # step through a saved record
    cardcore verify BUNDLE --commitment HEX    # check a fair deal (or that a record replays)
    cardcore compare GAME --rules RULE         # two configurations on the same seeds
    cardcore serve --port 8000                 # play in the browser

The command needs the ``cli`` extra (``pip install 'cardcore[cli]'``, which
brings in rich), except ``verify`` and ``serve``, which print plain text; this
package imports without it, and :func:`main` explains what to install. Nothing here names a game: every game comes from the
installed plugins.

Modules: :mod:`~cardcore.cli.args` (the parser; no rich),
:mod:`~cardcore.cli.render` (views, results, summaries),
:mod:`~cardcore.cli.play` (``play``), :mod:`~cardcore.cli.commands`
(``list``, ``rules``, ``simulate``, ``replay``), :mod:`~cardcore.cli.rulebook`
(a game's ``RULES.md``; no rich), :mod:`~cardcore.cli.failures` (plugins that
fail to load, named in warnings; no rich), :mod:`~cardcore.cli.verify`,
:mod:`~cardcore.cli.compare` and :mod:`~cardcore.cli.serve`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cardcore._options import SPELLING
from cardcore.cli.args import (
    DEFAULT_GAMES,
    DEFAULT_PLAYERS,
    UsageError,
    build_parser,
    parse_options,
)
from cardcore.errors import (
    CardcoreError,
    CorruptStateError,
    OptionError,
    RuleConflictError,
    UnknownPluginError,
)

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "DEFAULT_GAMES",
    "DEFAULT_PLAYERS",
    "RICH_MISSING",
    "UsageError",
    "build_parser",
    "main",
    "parse_options",
]

RICH_MISSING = (
    "the cardcore command needs the 'rich' package: install it with pip install 'cardcore[cli]' (in a checkout: pip install -e '.[cli]')"
)

NO_RICH = frozenset({"verify", "serve"})
"""The commands that print plain text and so run without rich (``verify``; ``serve``, whose
``web`` extra does not bring rich)."""

USAGE_ERRORS = (UsageError, OptionError, RuleConflictError, UnknownPluginError, CorruptStateError)
"""Errors in what the user gave (arguments, a damaged record): exit status 2, like argparse's own."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cardcore`` command; return its exit status (0 ok, 1 error, 2 bad usage).

    Every error is one line on stderr, never a traceback.

    :param argv: The arguments (default ``sys.argv[1:]``).
    """
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help (0) or a bad argument (2, already said in one line)
        return exc.code if isinstance(exc.code, int) else 2
    # a command taking --rules names its flags in option hints; the others keep the API's
    # words (rules=[...]): the records replay and verify read, serve's web clients
    flags = "rules" in vars(args)
    if args.command in NO_RICH:
        return _guarded(lambda: _run_plain(args), flags=flags)
    try:
        from rich.console import Console
    except ImportError:
        sys.stderr.write(f"error: {RICH_MISSING}\n")
        return 1
    json_to_stdout = args.command in ("simulate", "sim", "compare") and args.json == "-"
    console = Console(highlight=False, emoji=False, stderr=json_to_stdout)  # data prints as it is
    return _guarded(lambda: _run(console, args), flags=flags)


def _guarded(run: Callable[[], int], *, flags: bool = True) -> int:
    """*run*'s exit status; an error it raises is one line on stderr and its exit status
    (with *flags*, naming the flags, ``--rules``, where the library's words name its
    arguments)."""
    spelling = SPELLING.set(("--rules", "--without") if flags else SPELLING.get())
    try:
        return run()
    except USAGE_ERRORS as exc:
        _say(f"error: {exc}")
        return 2
    except (CardcoreError, OSError, ValueError) as exc:
        _say(f"error: {exc}")
        return 1
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    except Exception as exc:  # a bug (in an agent, a plugin or here): one line, unless asked
        if os.environ.get("CARDCORE_TRACEBACK"):
            raise
        where = _origin(exc)
        _say(
            f"error: unexpected {type(exc).__name__}{where}: {exc}"
            " (set CARDCORE_TRACEBACK=1 to see the traceback)"
        )
        return 1
    finally:
        SPELLING.reset(spelling)


def _origin(exc: BaseException) -> str:
    """`` in module.function`` where *exc* was raised."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return ""
    frame = tb.tb_frame
    return f" in {frame.f_globals.get('__name__', '?')}.{frame.f_code.co_name}"


def _say(line: str) -> None:
    """One line on stderr, never wrapped (a pipe gets it whole)."""
    sys.stderr.write(" ".join(line.split()) + "\n")
    sys.stderr.flush()


def _run_plain(args: argparse.Namespace) -> int:
    """The commands of :data:`NO_RICH`, which print plain text."""
    if args.command == "verify":
        from cardcore.cli.verify import cmd_verify

        return cmd_verify(args)
    from cardcore.cli.serve import cmd_serve

    return cmd_serve(args)


def _run(console: Console, args: argparse.Namespace) -> int:
    from cardcore.cli import commands, play

    command = args.command
    if command is None:
        return commands.overview(console)
    if command == "list":
        return commands.cmd_list(console, args.game)
    if command == "rules":
        return commands.cmd_rules(console, args.game, args.rule)
    if command == "play":
        return play.cmd_play(console, args)
    if command in ("simulate", "sim"):
        return commands.cmd_simulate(console, args)
    if command == "replay":
        return commands.cmd_replay(console, args, lambda prompt: console.input(prompt))
    if command == "compare":
        from cardcore.cli.compare import cmd_compare

        return cmd_compare(console, args)
    return 2  # pragma: no cover - argparse knows every command
