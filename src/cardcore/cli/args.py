"""The ``cardcore`` command's arguments: the parser, options, seat counts, paths.

Nothing here needs rich. A bad argument is a :class:`UsageError` (or an
argparse error), which :func:`cardcore.cli.main` reports in one line with exit
status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from cardcore import __version__
from cardcore._text import shown
from cardcore.errors import CardcoreError, OptionError
from cardcore.info import Option
from cardcore.plugins import available_rules, game_info, get_ruleset, rule_info

__all__ = [
    "DEFAULT_GAMES",
    "DEFAULT_PLAYERS",
    "MAX_WORKERS",
    "UsageError",
    "build_parser",
    "check_writable",
    "parse_options",
    "players_for",
]

DEFAULT_GAMES = 200
"""Games in ``cardcore simulate`` when ``--games`` is not given."""
DEFAULT_PLAYERS = 4
"""Preferred seats in ``cardcore simulate`` (narrowed to what the game allows)."""
MAX_WORKERS = 1024
"""The most worker processes ``--workers`` starts (``simulate``, ``compare``)."""


class UsageError(CardcoreError):
    """A bad argument of the ``cardcore`` command (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"error: {message} (see {self.prog} --help)\n")
        sys.exit(2)

    def _print_message(self, message: str, file: Any = None) -> None:
        """Write --help or --version; a write that fails (``> /dev/full``) is an error line and
        status 1 (argparse's own drops the error and exits 0, the text lost)."""
        file = file or sys.stderr
        if not message or file is None:
            return
        try:
            file.write(message)
            file.flush()
        except BrokenPipeError:  # the reader left (``| head``): quiet, status 1
            _quiet_pipe(file)
            sys.exit(1)
        except OSError as exc:
            if file is not sys.stderr:
                sys.stderr.write(f"error: cannot write the output: {exc.strerror or exc}\n")
            sys.exit(1)


def _quiet_pipe(stream: Any) -> None:
    """Point *stream*'s descriptor at ``/dev/null`` once its reader has left (``| head``), so
    Python's last flush at exit does not complain of the broken pipe a second time."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stream.fileno())
        finally:
            os.close(devnull)


class _Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The subcommands: an argument a subcommand does not know is reported by that
    subcommand's parser, which names its own help (``see cardcore simulate --help``)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        words = [values] if isinstance(values, str) else list(values or ())
        name, rest = (words[0], words[1:]) if words else ("", [])
        command = self.choices.get(name) if isinstance(self.choices, dict) else None
        if command is None:  # argparse names the commands there are
            super().__call__(parser, namespace, values, option_string)
            return
        setattr(namespace, self.dest, name)
        known, extras = command.parse_known_args(rest, None)
        if extras:
            command.error(f"unrecognized arguments: {' '.join(extras)}{_did_you_mean(command, extras)}")
        for key, value in vars(known).items():
            setattr(namespace, key, value)


def _did_you_mean(command: argparse.ArgumentParser, extras: Sequence[str]) -> str:
    """``; did you mean --option?`` for the first unknown flag close to one *command* takes."""
    flags = [flag for action in command._actions for flag in action.option_strings]
    for word in extras:
        if word.startswith("--"):
            close = difflib.get_close_matches(word.split("=", 1)[0], flags, n=1, cutoff=0.75)
            if close:
                return f"; did you mean {close[0]}?"
    return ""


def _digits(text: str) -> int | None:
    """*text* as a whole number if it is ASCII digits with an optional leading ``-`` (spaces
    around them allowed), as the core's number reader: not '1_0', '\u0663' or '\uff12'."""
    digits = text.strip().removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        return None
    try:
        return int(text)
    except ValueError:  # more digits than Python reads (4,300)
        return None


def _commitment(text: str) -> str:
    """A fair deal's commitment as noted: sha256 in hex (64 digits, any case)."""
    digits = text.strip()
    if len(digits) != 64 or not all(c in "0123456789abcdefABCDEF" for c in digits):
        msg = f"a commitment is 64 hex digits (sha256), not {digits[:80]!r}"
        raise argparse.ArgumentTypeError(msg)
    return digits


def _whole(text: str) -> int:
    """A whole-number argument (``--seed``, ``--seat``, ``--at``), read as :func:`_digits` does."""
    value = _digits(text)
    if value is None:
        msg = f"not a whole number: {shown(text, 40)}"
        raise argparse.ArgumentTypeError(msg)
    return value


def _positive(text: str) -> int:
    """A count (``--players``, ``--games``): a whole number of at least 1."""
    value = _whole(text)
    if value < 1:
        msg = f"must be at least 1, not {shown(value, 40)}"
        raise argparse.ArgumentTypeError(msg)
    return value


def _workers(text: str) -> int:
    """``--workers``: a count from 1 to :data:`MAX_WORKERS` (a pool of billions of processes
    was an OverflowError deep in multiprocessing)."""
    value = _positive(text)
    if value > MAX_WORKERS:
        msg = f"worker processes are at most {MAX_WORKERS}, not {shown(value, 40)}"
        raise argparse.ArgumentTypeError(msg)
    return value


def _seconds(what: str) -> Callable[[str], float]:
    """A reader of a number of seconds from 0 to 60 (``--bot-speed``, ``--bot-delay``)."""

    def read(text: str) -> float:
        try:
            value = float(text) if text.strip().isascii() else math.nan
        except ValueError:
            value = math.nan
        if not 0.0 <= value <= 60.0:  # (NaN and infinities too)
            msg = f"{what} is a number of seconds from 0 to 60, not {shown(text, 40)}"
            raise argparse.ArgumentTypeError(msg)
        return value

    read.__name__ = "seconds"  # argparse names the type in its own messages
    return read


def _agent_list(text: str) -> str:
    """``--agents``: specs separated by single commas, at least one (``","`` named no agent
    and was reported as a game of 0 players), read as the library reads them (a comma may
    end a spec's parameters: ``ismcts:iterations=5,``)."""
    from cardcore._agentspec import split_agent_specs

    if not any(piece.strip() for piece in text.split(",")):
        msg = f"names no agent: {shown(text, 40)}"
        raise argparse.ArgumentTypeError(msg)
    try:
        specs = split_agent_specs(text)
    except OptionError:
        specs = None
    if specs is None:
        msg = f"has an empty agent name (two commas in a row, or one at an end): {shown(text, 60)}"
        raise argparse.ArgumentTypeError(msg)
    if not specs:
        msg = f"names no agent: {shown(text, 40)}"
        raise argparse.ArgumentTypeError(msg)
    return text


def _names(text: str) -> list[str]:
    """The names of one ``--rules`` value: an empty one (``RULE,``, ``,``) is refused, as an
    empty agent name is."""
    names = [part.strip() for part in text.split(",")]
    if not all(names):
        msg = f"has an empty rule name (two commas in a row, or one at an end): {shown(text, 60)}"
        raise ValueError(msg)
    return names


class _Extend(argparse.Action):
    """``--rules a,b --rules c``: one value per flag (never swallows the game), commas allowed."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        got: list[str] = list(getattr(namespace, self.dest, None) or [])
        try:
            got += _names(str(values))
        except ValueError as exc:
            raise argparse.ArgumentError(self, str(exc)) from None
        setattr(namespace, self.dest, got)


def _add_game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--players",
        "-p",
        type=_positive,
        default=None,
        help="number of seats (default: play, the fewest the game takes; simulate, 4 or the"
        " nearest count the game takes)",
    )
    p.add_argument(
        "--rules",
        "-r",
        action=_Extend,
        default=[],
        metavar="RULE[,RULE]",
        help="house rules to add (names or rule IDs; repeat the flag or separate with commas)",
    )
    p.add_argument(
        "--without",
        action=_Extend,
        default=[],
        metavar="RULE[,RULE]",
        help="default house rules to switch off",
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
        type=_whole,
        default=None,
        help="seed (default: random for play, 0 for simulate)",
    )


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``cardcore`` command."""
    parser = _Parser(
        prog="cardcore",
        description="Play, simulate and replay card games built on cardcore.",
        epilog=(
            "examples: cardcore list | cardcore rules GAME | cardcore play GAME --players 2 | "
            "cardcore simulate GAME --games 1000 --workers 2 | cardcore replay game.json --step"
        ),
    )
    parser.add_argument(
        "--version", action="version", version=f"cardcore {__version__}", help="print the version"
    )
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=_Parser, action=_Commands
    )

    p_list = sub.add_parser("list", help="installed games, house rules and agents")
    p_list.add_argument("game", nargs="?", help="show only this game")

    p_rules = sub.add_parser(
        "rules", help="a game's rules (each with its ID), options and house rules"
    )
    p_rules.add_argument("game", help="the game (see cardcore list)")
    p_rules.add_argument(
        "rule",
        nargs="?",
        help="show only this rule: an ID (GOLF-SCORE-6), an ID prefix (GOLF-SCORE) or a house rule",
    )

    p_play = sub.add_parser("play", help="play a game in the terminal against built-in agents")
    p_play.add_argument("game", help="the game to play (see cardcore list)")
    _add_game_args(p_play)
    p_play.add_argument("--seat", type=_whole, default=0, help="your seat, from 0 (default 0)")
    p_play.add_argument(
        "--agent", "-a", default="random", help="the agent playing the other seats (default random)"
    )
    p_play.add_argument(
        "--bot-speed",
        type=_seconds("the bots' mean reaction time"),
        default=1.0,
        metavar="SECONDS",
        help="real-time games: the bots' mean reaction time (default 1.0)",
    )
    saving = p_play.add_mutually_exclusive_group()
    saving.add_argument(
        "--record",
        metavar="FILE",
        default=None,
        help="where to save the record (default cardcore-GAME-SEED.json, never overwritten)",
    )
    p_play.add_argument("--force", action="store_true", help="overwrite the --record file")
    saving.add_argument("--no-record", action="store_true", help="do not save a record")
    p_play.add_argument("--name", default=None, help="your display name (default: Player N)")

    p_sim = sub.add_parser(
        "simulate", aliases=["sim"], help="simulate many games and summarize them"
    )
    p_sim.add_argument(
        "game",
        nargs="?",
        default=None,
        help="the game (default: the first turn-based game installed with cardcore, golf)",
    )
    _add_game_args(p_sim)
    p_sim.add_argument(
        "--games",
        "-n",
        type=_positive,
        default=DEFAULT_GAMES,
        help=f"how many games (default {DEFAULT_GAMES})",
    )
    p_sim.add_argument(
        "--agents",
        "-a",
        type=_agent_list,
        default=None,
        help="agents per seat, comma-separated; one name fills every seat (default random)",
    )
    p_sim.add_argument(
        "--workers",
        "-w",
        type=_workers,
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
    who.add_argument("--seat", type=_whole, default=None, help="show what this seat saw")
    who.add_argument(
        "--spectator", action="store_true", help="show the spectator's view (the default)"
    )
    at = p_rep.add_mutually_exclusive_group()
    at.add_argument(
        "--step", action="store_true", help="wait for Enter after each action ('q' stops)"
    )
    at.add_argument(
        "--at", type=_whole, default=None, metavar="N", help="show only the table after action N"
    )
    at.add_argument("--final", action="store_true", help="show only the final table")

    p_ver = sub.add_parser("verify", help="check a fair-deal bundle (or that a record replays)")
    p_ver.add_argument(
        "record", metavar="RECORD", help="the fair-deal bundle a session revealed at the end, or a record"
    )
    p_ver.add_argument(
        "--commitment",
        type=_commitment,
        default=None,
        metavar="HEX",
        help="the commitment you noted at the start (64 hex digits)",
    )
    from cardcore.cli import compare  # its own module; it imports this one

    compare.add_parser(sub)
    from cardcore.cli import serve

    serve.add_parser(sub)
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
    if kind is int:  # ASCII digits, as the core's number reader: not '١', not '1_0'
        value = _digits(text)
        if value is None:
            msg = f"not a whole number: {shown(text, 40)}"
            raise ValueError(msg)
        return value
    if kind is float:
        return float(text)
    return text


def _either(opt: Any, text: str) -> Any:
    """An untyped option with bounds takes a choice or a number (Golf's ``dealer=2``):
    digits are the number, other text the choice."""
    if not isinstance(text, str) or opt.kind is not object:
        return text
    bounded = opt.minimum is not None or opt.maximum is not None
    digits = text.strip().removeprefix("-")
    return int(text) if bounded and digits.isascii() and digits.isdigit() else text


def _rule_options(game: str, rules: Sequence[str] | None, without: Sequence[str]) -> list[Option]:
    """The own options of the chosen house rules (*rules*, and the default rules not switched
    off), else of every installed rule of *game* (a rule that fails to load has none here:
    choosing it reports why)."""
    if rules is not None:
        try:
            return list(get_ruleset(game, tuple(rules), tuple(without)).options)
        except CardcoreError:
            pass  # the game reports the configuration's mistake when it is built
    out: list[Option] = []
    for name in available_rules(game):
        try:
            out += rule_info(name).options
        except CardcoreError:
            continue
    return out


def parse_options(
    game: str,
    pairs: Sequence[str],
    rules: Sequence[str] | None = None,
    without: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Read ``KEY=VALUE`` pairs into options, converting each value to the type the game (or
    the house rule that takes it) declares.

    :param game: The installed game whose options these are.
    :param pairs: Texts like ``"rounds=1"``.
    :param rules: The house rules chosen (``--rules``), whose own options are read as they
        declare them; ``None``: any installed rule's.
    :param without: The default rules switched off (``--without``).
    :raises OptionError: A pair without ``=``, an option named twice or a value of the wrong
        type.
    """
    info = game_info(game)  # the game's options, then its house rules' own (chosen or not)
    declared = [*info.options, *_rule_options(game, rules, without or ())]
    out: dict[str, Any] = {}
    pairs = () if pairs is None else pairs  # no -o given
    if not isinstance(pairs, list | tuple) or not all(isinstance(p, str) for p in pairs):
        msg = f"options are a list of KEY=VALUE texts, not {shown(pairs, 60)}"
        raise OptionError(msg)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key, value = key.strip(), value.strip()  # spaces around either are never part of it
        if not sep or not key:
            msg = f"options are KEY=VALUE, not {pair!r}"
            raise OptionError(msg)
        if key in out:  # the last one would silently win
            msg = f"option {key!r} is given twice ({shown(pair, 60)}): give each option once"
            raise OptionError(msg)
        opt = next((o for o in declared if o.name == key), None)
        if opt is None:
            out[key] = value  # the core reports the unknown name with what is accepted
            continue
        if value in opt.aliases:  # another text of a value (hand_size=three): read as that value
            out[key] = opt.aliases[value]
            continue
        try:
            out[key] = _either(opt, _convert(value, opt.kind, opt.nullable))
        except ValueError:
            kind = opt.doc if opt.kind is object else opt.kind.__name__
            msg = f"option {key!r} must be {kind}, not {shown(value, 60)}{_cited(game, opt)}"
            raise OptionError(msg) from None
    return out


def _cited(game: str, opt: Option) -> str:
    """The end of a refusal of *opt*'s value, as the core ends it: its rule ID, else the
    house rule whose option it is (nothing for the game's own)."""
    if opt.rule_id:
        return f" ({opt.rule_id})"
    for name in available_rules(game):
        try:
            if opt in rule_info(name).options:
                return f" (an option of house rule {name!r})"
        except CardcoreError:
            continue
    return ""


def players_for(game: str, wanted: int | None, preferred: int, args: argparse.Namespace) -> int:
    """Return *wanted*, or the largest seat count up to *preferred* this configuration accepts
    (:func:`cardcore.simulate.seats_for`, the rule :func:`cardcore.compare` shares)."""
    if wanted is not None:
        return wanted
    from cardcore.simulate import seats_for

    rules, without = args.rules or (), args.without or ()
    options = parse_options(game, args.option, rules, without)
    return seats_for(game, preferred, rules=rules, without=without, options=options)


def check_writable(path: str, *, overwrite: bool) -> None:
    """Refuse, before any work, a *path* that cannot be written (or exists, unless *overwrite*).

    :raises UsageError: The directory is missing or read-only, or the file exists.
    """
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        msg = f"cannot write {path!r}: no directory {folder!r}"
        raise UsageError(msg)
    if os.path.isdir(path):
        msg = f"cannot write {path!r}: it is a directory"
        raise UsageError(msg)
    if os.path.exists(path):
        if not overwrite:
            msg = f"{path!r} exists (add --force to overwrite it)"
            raise UsageError(msg)
        if not os.access(path, os.W_OK):
            msg = f"cannot write {path!r}: permission denied"
            raise UsageError(msg)
    elif not os.access(folder, os.W_OK):
        msg = f"cannot write {path!r}: permission denied"
        raise UsageError(msg)
