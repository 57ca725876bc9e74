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
import codecs
import contextlib
import io
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from cardcore._options import SPELLING
from cardcore.cli.args import (
    DEFAULT_GAMES,
    DEFAULT_PLAYERS,
    UsageError,
    _quiet_pipe,
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
    with _usable_streams():
        try:
            return _parsed_and_run(argv)
        except KeyboardInterrupt:  # Ctrl-C before the command ran (its arguments read, rich
            _say("interrupted")  # imported): one line too
            return 130


def _parsed_and_run(argv: Sequence[str] | None) -> int:
    """``main`` inside its streams: read the arguments, run the command."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help (0) or a bad argument (2, already said in one line)
        return _flushed(exc.code if isinstance(exc.code, int) else 2)
    if sys.stdout is None and args.command != "serve":  # started with stdout closed (>&-)
        _say("error: standard output is closed: there is nowhere to write the output")
        return 1
    with _terminate_as_interrupt(args.command != "serve") as signalled:  # (serve: uvicorn's)
        try:
            status = _flushed(_main(args))
        except _Terminated:  # (between the command and its last flush)
            status = 0
    if signalled and status != 143:  # a command that left on it (play saves its record)
        _say("terminated")
        status = 143
    return status


def _main(args: argparse.Namespace) -> int:
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
    class _Console(Console):
        def on_broken_pipe(self) -> None:  # quiet the stream that broke, and only it
            if not self.quiet:
                _quiet_pipe(self.file)  # (rich's own leaks a descriptor and quiets stdout)
                raise SystemExit(1)

    json_to_stdout = args.command in ("simulate", "sim", "compare") and args.json == "-"
    console = _Console(highlight=False, emoji=False, stderr=json_to_stdout)  # data prints as it is
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
    except BrokenPipeError:  # the reader of stdout left (``--json - | head``): quiet, status 1
        _quiet_pipe(sys.stdout)
        return 1
    except (CardcoreError, OSError, ValueError) as exc:
        _say(f"error: {exc}")
        return 1
    except _Terminated:  # SIGTERM: stopped as Ctrl-C stops (worker pools shut down)
        _say("terminated")
        return 143
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    except SystemExit as exc:  # rich's answer to a broken pipe: a status, not an exit
        return exc.code if isinstance(exc.code, int) else 1
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
    """One line on stderr, never wrapped (a pipe gets it whole); nothing if stderr is closed."""
    if sys.stderr is None:
        return
    try:
        sys.stderr.write(" ".join(line.split()) + "\n")
        sys.stderr.flush()
    except OSError:  # (a closed or full stderr: the exit status still says it)
        pass


class _Terminated(KeyboardInterrupt):
    """``SIGTERM`` arrived (``kill``, ``timeout``, a cancelled CI job): raised where Ctrl-C's
    ``KeyboardInterrupt`` would be, so the same clean-up runs (worker processes stop)."""


@contextlib.contextmanager
def _terminate_as_interrupt(wanted: bool) -> Iterator[list[int]]:
    """While the command runs on the main thread, turn ``SIGTERM`` into :class:`_Terminated`.

    Yields a list that holds the signal once it came: a command that takes the interrupt
    as "leave" (``play`` saves its record) still ends with status 143.
    """
    came: list[int] = []
    if not wanted or threading.current_thread() is not threading.main_thread():
        yield came
        return

    def stop(signum: int, frame: object) -> None:
        if came:  # a second one: the clean-up the first started (worker pools) goes on
            return
        came.append(signum)
        raise _Terminated

    try:
        before = signal.signal(signal.SIGTERM, stop)
    except (ValueError, OSError):  # no signals here (an embedded interpreter)
        yield came
        return
    try:
        yield came
    finally:
        signal.signal(signal.SIGTERM, before)


_STDIN_LOCK = threading.Lock()
_stdin_users: list[object] = []  # the main() calls running on a stand-in for a closed stdin


@contextlib.contextmanager
def _usable_streams() -> Iterator[None]:
    """While the command runs, make the standard streams safe to use, and put them back
    after (a caller's own streams are its own): a closed stdin (``<&-``) reads as the end
    of input, and an output stream whose encoding cannot write every character
    (``PYTHONIOENCODING=ascii``, a C locale) writes the others as escapes, not an error.
    Standard input is not put back (a stream read from cannot be): the play commands set
    it to read an undecodable byte as U+FFFD (:func:`cardcore.cli.screen.lenient`), so a
    line that does not decode is answered as not understood."""
    me = object()
    with _STDIN_LOCK:  # calls overlapping in threads share one stand-in; the last one out closes it
        if sys.stdin is None:
            sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (closed below)
            _stdin_users.clear()
            _stdin_users.append(me)
        elif _stdin_users:
            _stdin_users.append(me)
    changed: list[tuple[io.TextIOWrapper, str]] = []
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if not isinstance(stream, io.TextIOWrapper) or stream.errors not in ("strict", "surrogateescape"):
            continue
        try:
            if codecs.lookup(stream.encoding).name == "utf-8":
                continue
            before = stream.errors
            stream.reconfigure(errors="backslashreplace")
            changed.append((stream, before))
        except (LookupError, ValueError, OSError, io.UnsupportedOperation):
            continue
    try:
        yield
    finally:
        for stream, before in changed:
            with contextlib.suppress(ValueError, OSError, io.UnsupportedOperation):
                stream.reconfigure(errors=before)
        with _STDIN_LOCK:
            if me in _stdin_users:
                _stdin_users.remove(me)
                if not _stdin_users:
                    opened, sys.stdin = sys.stdin, None
                    with contextlib.suppress(OSError, AttributeError):
                        opened.close()


def _flushed(status: int) -> int:
    """*status*, once what was written to stdout is out: a write that fails at the end (a
    full disk, ``--version > /dev/full``) is an error line and status 1, not lost."""
    stream = sys.stdout
    if stream is None:
        return status
    try:
        stream.flush()
    except BrokenPipeError:  # the reader left (``| head``): quiet, as at any other write
        _quiet_pipe(stream)  # and no second complaint at exit
        return status or 1
    except OSError as exc:
        _say(f"error: cannot write the output: {exc.strerror or exc}")
        return status or 1
    except ValueError:  # (closed by the command itself)
        return status
    return status


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
