"""Tests of the ``cardcore`` command: list, simulate, play (through a pseudo-terminal), replay."""

from __future__ import annotations

import argparse
import itertools
import json
import os
import pty
import random
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

import cardcore
from cardcore import cli
from cardcore.cli.commands import default_game

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


GOLF = "golf"  # a built-in turn-based game (entry point, so subprocesses see it too)
SPEED = "speed"  # a built-in real-time game


def _turn_based_game() -> str:
    return GOLF


def _realtime_game() -> str | None:
    return SPEED if SPEED in cardcore.available_games() else None


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


# -- list ---------------------------------------------------------------------------------------


def test_list_shows_every_game_rule_id_and_agent(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for game in cardcore.available_games():
        assert game in out
        assert cardcore.game_info(game).summary.split()[0] in out
        for rule in cardcore.available_rules(game):
            info = cardcore.rule_info(rule)
            assert rule in out
            assert info.id in out
            for other in info.conflicts:
                assert other in out
    for agent in cardcore.available_agents():
        assert agent in out


@pytest.mark.parametrize("command", ["list", "rules"])
def test_narrow_terminal_lists_rules_and_options_one_under_another(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 50 columns the tables of four or five columns squeezed every summary to a few
    letters a line (or to nothing): each house rule's summary and each option's doc must
    still read whole, line by line."""
    monkeypatch.setenv("COLUMNS", "50")
    assert cli.main([command, "golf"]) == 0
    out = capsys.readouterr().out
    assert max(map(len, out.splitlines())) <= 50
    text = " ".join(line.strip(" │┃") for line in out.splitlines())
    text = " ".join(text.split())
    for rule in cardcore.available_rules("golf"):
        info = cardcore.rule_info(rule)
        assert f"{rule} {info.id}" in text, rule
        assert " ".join(info.summary.split()) in text, info.summary
    for opt in cardcore.game_info("golf").options:
        assert " ".join(opt.doc.split()) in text, opt.name


def test_no_arguments_prints_overview_and_first_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert f"cardcore simulate {default_game()}" in out
    assert "games" in out and "agents" in out


def test_unknown_game_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "no-such-game", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "no game called 'no-such-game'" in err
    assert "installed:" in err


# -- options ------------------------------------------------------------------------------------


def test_parse_options_converts_to_declared_types() -> None:
    game = _turn_based_game()
    info = cardcore.game_info(game)
    ints = [o for o in info.options if o.kind is int]
    if not ints:
        pytest.skip("no int option to convert")
    opt = ints[0]
    assert cli.parse_options(game, [f"{opt.name}=3"]) == {opt.name: 3}
    with pytest.raises(cardcore.OptionError, match=opt.name):
        cli.parse_options(game, [f"{opt.name}=three"])
    with pytest.raises(cardcore.OptionError, match="KEY=VALUE"):
        cli.parse_options(game, ["novalue"])


# -- simulate -----------------------------------------------------------------------------------


def test_simulate_default_prints_summary_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "--games", "40"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "mean score" in out and "sd score" in out
    assert "truncated" in out and "mean game length" in out
    assert f"{default_game()}: 40 games" in out


def test_simulate_json_to_stdout_equals_library_summary(capsys: pytest.CaptureFixture[str]) -> None:
    game = _turn_based_game()
    assert (
        cli.main(
            [
                "simulate",
                game,
                "--games",
                "12",
                "--players",
                "2",
                "--seed",
                "5",
                "--json",
                "-",
                "-q",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    expected = cardcore.simulate(game, games=12, players=2, seed=5).to_json()
    assert {k: data[k] for k in expected} == expected
    assert data["seed"] == 5


def test_simulate_json_file_and_agents_list(tmp_path: Path) -> None:
    game = _turn_based_game()
    out = tmp_path / "summary.json"
    assert (
        cli.main(
            ["simulate", game, "-n", "6", "--agents", "random,random", "--json", str(out), "-q"]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert data["players"] == 2 and data["agents"] == ["random", "random"] and data["games"] == 6


def test_simulate_same_summary_whatever_executor() -> None:
    game = _turn_based_game()
    kw = {"games": 24, "players": 3, "seed": 11, "chunk": 5}
    alone = cardcore.simulate(game, **kw).to_json()  # type: ignore[arg-type]
    with ThreadPoolExecutor(2) as threads:
        assert cardcore.simulate(game, executor=threads, **kw).to_json() == alone  # type: ignore[arg-type]
    with ProcessPoolExecutor(1) as one:
        assert cardcore.simulate(game, executor=one, **kw).to_json() == alone  # type: ignore[arg-type]
    with ProcessPoolExecutor(2) as two:
        assert cardcore.simulate(game, executor=two, **kw).to_json() == alone  # type: ignore[arg-type]


def test_simulate_workers_flag_matches_single_process(capsys: pytest.CaptureFixture[str]) -> None:
    game = _turn_based_game()
    args = ["simulate", game, "-n", "20", "-p", "2", "--seed", "3", "--json", "-", "-q"]
    assert cli.main(args) == 0
    alone = json.loads(capsys.readouterr().out)
    assert cli.main([*args, "--workers", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == alone


def test_simulate_a_different_seed_changes_the_summary() -> None:
    game = _turn_based_game()
    a = cardcore.simulate(game, games=10, players=2, seed=1).to_json()
    b = cardcore.simulate(game, games=10, players=2, seed=2).to_json()
    assert a != b


# -- replay -------------------------------------------------------------------------------------


def _short_record(tmp_path: Path) -> tuple[Path, cardcore.Game]:
    name = _turn_based_game()
    game = cardcore.new_game(name, 2, seed=3, options={"rounds": 1, "max_turns": 4})
    agents = [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]
    cardcore.play(game, agents)
    assert game.is_over and game.result is not None and game.result.reason != "truncated"
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(game.record()))
    return path, game


def test_replay_prints_every_action_and_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, game = _short_record(tmp_path)
    assert cli.main(["replay", str(path), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    entries = game.record_entries()
    for i, (_seat, action, _) in enumerate(entries, 1):
        assert f"#{i} " in out and str(action) in out
    assert f"#{len(entries) + 1} " not in out
    assert "game over" in out
    assert "you are Player 2 (seat 1)" in out


def test_replay_spectator_hides_what_seats_hide(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _short_record(tmp_path)
    assert cli.main(["replay", str(path), "--spectator"]) == 0
    assert "spectator" in capsys.readouterr().out


def test_replay_rejects_a_damaged_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _short_record(tmp_path)
    data = json.loads(path.read_text())
    data["actions"].append([0, "no such action", None])
    path.write_text(json.dumps(data))
    assert cli.main(["replay", str(path)]) == 2
    assert "cannot be replayed" in capsys.readouterr().err


# -- rich is optional for importing ---------------------------------------------------------------


def test_cli_imports_without_rich_and_says_what_to_install() -> None:
    code = "import sys; sys.modules['rich'] = None; import cardcore.cli as c; sys.exit(c.main(['list']))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1
    assert "pip install 'cardcore[cli]'" in proc.stderr


# -- play through a pseudo-terminal ---------------------------------------------------------------


class Terminal:
    """A child process on a pseudo-terminal, read with a deadline."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        master, slave = pty.openpty()
        env = {**os.environ, "COLUMNS": "200", "LINES": "50", "TERM": "xterm"}
        self.proc = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env, close_fds=True
        )
        os.close(slave)
        self.fd = master
        self.text = ""

    def read_until(self, pattern: str, timeout: float = 40.0) -> str:
        """Read until *pattern* (a regex) appears in the output since the last call; return that output."""
        deadline = time.monotonic() + timeout
        start = len(self.text)
        while True:
            clean = ANSI.sub("", self.text[start:])
            if re.search(pattern, clean):
                self.text_mark = len(self.text)
                return clean
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {pattern!r}; got:\n{clean[-3000:]}")
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.2))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    if self.proc.poll() is not None:
                        clean = ANSI.sub("", self.text[start:])
                        if re.search(pattern, clean):
                            return clean
                        raise AssertionError(
                            f"process ended before {pattern!r}; got:\n{clean[-3000:]}"
                        )
                    continue
                self.text += chunk.decode("utf-8", errors="replace")

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=15)
        finally:
            os.close(self.fd)


def _legal_count(screen: str) -> int:
    lines = [ln for ln in screen.splitlines() if ln.startswith("legal: ")]
    assert lines, screen
    return len(re.split(r"\s{3,}", lines[-1][len("legal: ") :].strip()))


def test_play_turn_based_game_through_a_pty(tmp_path: Path) -> None:
    game = _turn_based_game()
    info = cardcore.game_info(game)
    opts: list[str] = []
    names = {o.name for o in info.options}
    if "rounds" in names:
        opts += ["-o", "rounds=1"]
    if "max_turns" in names:
        opts += ["-o", "max_turns=6"]
    record = tmp_path / "played.json"
    term = Terminal(
        [
            sys.executable,
            "-m",
            "cardcore.cli",
            "play",
            game,
            "-p",
            "2",
            "--seed",
            "4",
            *opts,
            "--record",
            str(record),
        ],
        tmp_path,
    )
    rng = random.Random(0)
    try:
        screen = term.read_until(r"> $")
        assert "(you)" in screen and "legal: " in screen
        term.send("bogus")
        assert "not understood" in term.read_until(r"> $")
        term.send("#999")
        assert "no action '#999'" in term.read_until(r"> $")
        term.send("1")  # a bare number is never a menu item: it could be a position
        assert "type #1 for menu item 1" in term.read_until(r"> $")
        term.send("help")
        assert "resign" in term.read_until(r"> $")
        for _ in range(200):
            term.send(f"#{rng.randrange(_legal_count(screen)) + 1}")
            screen = term.read_until(r"> $|record saved")
            if "record saved" in screen:
                break
        else:
            raise AssertionError("the game did not end")
        assert "game over" in screen
    finally:
        assert term.close() == 0
    rec = json.loads(record.read_text())
    replayed = cardcore.replay(rec)
    assert replayed.is_over and replayed.result is not None
    assert replayed.result.to_json() == rec["result"]
    assert any(seat == 0 for seat, _, _ in rec["actions"])
    assert any(seat == 1 for seat, _, _ in rec["actions"])


def test_play_quit_saves_the_unfinished_record(tmp_path: Path) -> None:
    game = _turn_based_game()
    record = tmp_path / "quit.json"
    term = Terminal(
        [
            sys.executable,
            "-m",
            "cardcore.cli",
            "play",
            game,
            "--seed",
            "9",
            "--record",
            str(record),
        ],
        tmp_path,
    )
    try:
        term.read_until(r"> $")
        term.send("quit")
        screen = term.read_until(r"record saved")
        assert "left the game" in screen
    finally:
        assert term.close() == 0
    assert cardcore.replay(record.read_text()).is_over is False


@pytest.mark.skipif(_realtime_game() is None, reason="no real-time game installed")
def test_play_realtime_game_against_a_bot_through_a_pty(tmp_path: Path) -> None:
    game = _realtime_game()
    assert game is not None
    agent = "spit-greedy" if "spit-greedy" in cardcore.available_agents() else "random"
    record = tmp_path / "rt.json"
    term = Terminal(
        [
            sys.executable,
            "-m",
            "cardcore.cli",
            "play",
            game,
            "--seed",
            "2",
            "--agent",
            agent,
            "--bot-speed",
            "0.5",
            "--record",
            str(record),
        ],
        tmp_path,
    )
    try:
        screen = term.read_until(r"legal: ")
        assert "real time" in screen
        term.read_until(
            r"\S+ 2: .+ at \d+\.\d\d s", timeout=20
        )  # the bot moves on its own, on the clock
        term.send("bogus")
        term.read_until(r"not understood|illegal")
        term.send("resign")
        screen = term.read_until(r"record saved")
        assert "game over" in screen or "resigned" in screen
    finally:
        assert term.close() == 0
    rec = json.loads(record.read_text())
    assert rec["actions"][-1][:2] == [0, "resign"]
    assert any(seat == 1 and at is not None and at > 0 for seat, _, at in rec["actions"])
    assert cardcore.replay(rec).result.reason == "resigned"  # type: ignore[union-attr]


def test_replay_step_waits_for_enter_and_stops_on_q(tmp_path: Path) -> None:
    path, game = _short_record(tmp_path)
    assert game.version >= 3
    proc = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", "replay", str(path), "--seat", "0", "--step"],
        input="\n\nq\n",
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert proc.returncode == 0, proc.stderr
    out = ANSI.sub("", proc.stdout)
    assert "#1 " in out and "#2 " in out
    assert "#3 " not in out
    assert "[3/" in out  # the third prompt was answered with q


def test_cli_modules_name_no_game() -> None:
    import pkgutil

    import cardcore.cli

    names = [m.name for m in pkgutil.iter_modules(cardcore.cli.__path__)]
    assert {"args", "commands", "play", "render"} <= set(names)
    for name in ["__init__", *names]:
        text = (Path(cardcore.cli.__path__[0]) / f"{name}.py").read_text().lower()
        assert len(text.splitlines()) <= 600, name
        for game in (GOLF, SPEED, "spit", "tonk"):
            assert f'"{game}' not in text and f"'{game}" not in text, (name, game)


TURN_ONLY = """
import sys, cardcore, cardcore.cli
class TurnOnly:
    def __init__(self, seed=0):
        self.seed = seed
    def choose(self, view, legal):
        return legal[0]
cardcore.register("cardcore.agents", "turn-only", TurnOnly)
sys.exit(cardcore.cli.main(["play", sys.argv[1], "--agent", "turn-only", "--no-record"]))
"""


@pytest.mark.skipif(_realtime_game() is None, reason="no real-time game installed")
def test_play_refuses_an_agent_that_cannot_play_the_game() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", TURN_ONLY, SPEED],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2
    assert "agent 'turn-only' cannot play real-time games" in proc.stderr


# -- bad arguments: one line, exit status 2, never a traceback -------------------------------------

BAD_ARGUMENTS: dict[str, list[list[str]]] = {
    "list": [["no-such-game"], ["--bogus"]],
    "rules": [
        [],
        ["no-such-game"],
        [GOLF, "no-such-rule"],
        [GOLF, "tonk.must-lay-down"],  # a rule of another game
        [GOLF, "TONK-GEN-1"],  # an ID of another game's rules
        [GOLF, "--bogus"],
    ],
    "play": [
        [],
        ["no-such-game"],
        [GOLF, "--players", "99"],
        [GOLF, "--players", "0"],
        [GOLF, "--seat", "7"],
        [GOLF, "--agent", "no-such-agent"],
        [GOLF, "--option", "no_such_option=1"],
        [GOLF, "--option", "rounds=many"],
        [GOLF, "--option", "novalue"],
        [GOLF, "--rules", "no-such-rule"],
        [GOLF, "--without", "golf.hard"],  # not a default rule
        [GOLF, "--record", "/nonexistent/dir/x.json"],
        [GOLF, "--bot-speed", "fast"],
        [SPEED, "--agent", "golf-greedy"],  # a turn-based agent in a real-time game
        [GOLF, "--agent", "spit-greedy"],  # an agent of another game
        [GOLF, "--agent", "tonk-heuristic"],
    ],
    "simulate": [
        ["no-such-game"],
        [GOLF, "--games", "0"],
        [GOLF, "--games", "x"],
        [GOLF, "--workers", "0"],
        [GOLF, "--json", "/nonexistent/dir/x.json"],
        [GOLF, "--agents", "no-such-agent"],
        [GOLF, "--agents", "random,random,random", "--players", "2"],
        [GOLF, "--agents", "tonk-heuristic"],  # an agent of another game
        [SPEED, "--agents", "golf-greedy"],
        ["spit", "--agents", "golf-greedy"],
        [GOLF, "-n", "3", "--json", "/nonexistent/x.json"],
        [GOLF, "--rules", "no-such-rule"],
        [GOLF, "--option", "rounds=0"],
    ],
    "sim": [[GOLF, "--games", "-3"]],
    "replay": [
        [],
        ["/nonexistent/record.json"],
        ["{damaged}"],
        ["{record}", "--seat", "9"],
        ["{record}", "--at", "9999"],
        ["{record}", "--step", "--final"],
    ],
    "compare": [
        [],
        ["no-such-game"],
        [GOLF, "--games", "0"],
        [GOLF, "--games", "-3"],
        [GOLF, "--rules", "no-such-rule"],
        [GOLF, "--vs", "tonk.must-lay-down"],  # a rule of another game
        [GOLF, "--rules", "golf.no-final-turns,golf.final-stock-only"],  # rules in conflict
        [GOLF, "--rules", "golf.diagonal-pairs"],  # applies to layout 4 only
        [GOLF, "--agents", "no-such-agent"],
        [GOLF, "--agents", "random:no_such_parameter=1"],
        [GOLF, "--vs-agents", "tonk-heuristic"],  # an agent of another game
        [GOLF, "--skill", "random,random,random"],
        [GOLF, "--move-time", "0"],
        [GOLF, "--plot", "/nonexistent/dir/x.png"],
    ],
}


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand the parser knows (an alias once), read from the parser itself."""
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out: dict[str, argparse.ArgumentParser] = {}
    for name, p in sub.choices.items():
        if all(p is not q for q in out.values()):
            out[name] = p
    return out


VALID = {"game": GOLF, "record": "{record}"}
"""A valid value of a positional argument, by its name, so that an option's own error is tried."""


def _derived_bad_arguments(name: str, p: argparse.ArgumentParser) -> list[list[str]]:
    """Bad arguments for any subcommand, read from its parser (so one added later is tried too).

    An unknown flag; its required arguments left out; a name that is nothing
    for every positional; a value its converter refuses for every typed option.
    """
    positionals = [a for a in p._actions if not a.option_strings]
    cases = [[name, "--no-such-flag"]]
    if any(a.nargs not in ("?", "*") for a in positionals):
        cases.append([name])
    if positionals:
        cases.append([name, *["no-such-thing"] * len(positionals)])
    valid = [VALID[a.dest] for a in positionals if a.dest in VALID]
    for a in p._actions:
        convert = a.type
        if not a.option_strings or a.nargs == 0 or not callable(convert) or convert is str:
            continue
        try:
            convert("not-a-number")
        except (ValueError, TypeError, argparse.ArgumentTypeError):
            cases.append([name, *valid, a.option_strings[0], "not-a-number"])
    return cases


def _all_bad_arguments() -> list[list[str]]:
    cases = [[cmd, *args] for cmd, table in BAD_ARGUMENTS.items() for args in table]
    for name, p in _subcommands().items():
        cases += [c for c in _derived_bad_arguments(name, p) if c not in cases]
    return cases


def test_every_subcommand_is_tried_with_bad_arguments() -> None:
    """The table's cases name real subcommands; every subcommand (later ones too) gets derived cases."""
    subcommands = _subcommands()
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(BAD_ARGUMENTS) <= set(sub.choices)
    assert {"list", "rules", "play", "simulate", "replay"} <= set(subcommands)
    tried = {argv[0] for argv in _all_bad_arguments()}
    assert set(subcommands) <= tried
    for name, p in subcommands.items():
        assert [name, "--no-such-flag"] in _derived_bad_arguments(name, p)
    assert ["simulate", GOLF, "--workers", "not-a-number"] in _all_bad_arguments()


@pytest.mark.parametrize("argv", _all_bad_arguments(), ids=lambda argv: " ".join(argv))
def test_bad_arguments_are_one_line_and_exit_2(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if "{record}" in argv or "{damaged}" in argv:
        path, _ = _short_record(tmp_path)
        damaged = tmp_path / "damaged.json"
        data = json.loads(path.read_text())
        data["actions"] = data["actions"][:-1]  # its result no longer follows
        damaged.write_text(json.dumps(data))
        argv = [a.replace("{record}", str(path)).replace("{damaged}", str(damaged)) for a in argv]
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in out + err


def test_rules_is_one_flag_per_value_and_never_swallows_the_game() -> None:
    args = cli.build_parser().parse_args(["simulate", "--rules", "golf.hard", GOLF])
    assert args.game == GOLF and args.rules == ["golf.hard"]
    args = cli.build_parser().parse_args(["simulate", GOLF, "-r", "a,b", "-r", "c"])
    assert args.rules == ["a", "b", "c"]


def test_play_never_overwrites_a_record_silently(tmp_path: Path) -> None:
    from cardcore.cli.play import _free_path

    first = tmp_path / "cardcore-golf-7.json"
    assert _free_path(str(first)) == str(first)
    first.write_text("{}")
    assert _free_path(str(first)) == str(tmp_path / "cardcore-golf-7-2.json")
    assert cli.main(["play", GOLF, "--record", str(first), "--seed", "7"]) == 2


def test_rules_command_explains_options_and_a_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", GOLF]) == 0
    out = capsys.readouterr().out
    info = cardcore.game_info(GOLF)
    for opt in info.options:
        assert opt.name in out
    assert any(o.doc and o.doc.split()[0] in out for o in info.options)
    rule = cardcore.available_rules(GOLF)[0]
    assert rule in out
    assert cli.main(["rules", GOLF, rule]) == 0
    assert cardcore.rule_info(rule).id in capsys.readouterr().out


FAKE_RULES = """# Fakegame: rule specification

Source: the user's seed and the team's decisions (left out: where the rules came from).

Words. A *pip* is a card.

## Fakegame

- **FAKE-GEN-1** `[S]` Two players.
- **FAKE-GEN-2** `[D]` Seat 0 starts
  and play passes left.
- **FAKE-END-1** `[S~]` The last card wins.

## Fakegame Plus

- **FAKEPLUS-GEN-1** `[D]` Three players.
"""


@pytest.fixture
def fake_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A game package with its rules file beside its module, registered as ``fakegame``."""
    package = tmp_path / "cardcore_fakegame"
    package.mkdir()
    (package / "__init__.py").write_text('"""A game for the tests."""\n')
    (package / "rules.py").write_text(
        "from cardcore import GameInfo, Option\n"
        "GAME = GameInfo('fakegame', 'Fakegame: a game that only has rules', 2, 2,"
        " options=(Option('rounds', None, 'rounds to play; none means 3', int, minimum=1,"
        " nullable=True),))\n"
    )
    (package / "RULES.md").write_text(FAKE_RULES)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    module = importlib.import_module("cardcore_fakegame.rules")
    cardcore.register("cardcore.games", "fakegame", module)
    yield "fakegame"
    cardcore.unregister("cardcore.games", "fakegame")


def test_rules_prints_the_rules_file_with_ids_and_each_option(
    fake_game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["rules", fake_game]) == 0
    out = capsys.readouterr().out
    for rule_id in ("FAKE-GEN-1", "FAKE-GEN-2", "FAKE-END-1"):
        assert rule_id in out
    assert "FAKEPLUS-GEN-1" not in out  # another part of the file
    assert "Fakegame Plus" in out  # named at the end, so a reader knows it is there
    assert "A pip is a card" in out
    assert "seed" not in out and "decisions" not in out  # where the rules came from is left out
    assert "stated in the source rules" in out and "our decision" in out  # the tags explained
    assert "rounds" in out and "none means 3" in out and "at least 1, or none" in out


def test_rules_of_one_rule_by_id_or_prefix(
    fake_game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["rules", fake_game, "FAKE-GEN-2"]) == 0
    out = capsys.readouterr().out
    assert "FAKE-GEN-2" in out and "play passes left" in out and "FAKE-GEN-1" not in out
    assert cli.main(["rules", fake_game, "fake-gen"]) == 0  # an ID prefix, in any case
    out = capsys.readouterr().out
    assert "FAKE-GEN-1" in out and "FAKE-GEN-2" in out and "FAKE-END-1" not in out
    assert cli.main(["rules", fake_game, "FAKE-NONE-9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no rule 'FAKE-NONE-9' in fakegame" in err


def test_rules_file_as_a_table_of_ids() -> None:
    from cardcore.cli.rulebook import rule_entries

    text = "| ID | Rule |\n|----|------|\n| GOFISH-ASK-1 | Ask for a rank you hold. |\n"
    assert rule_entries(text) == {"GOFISH-ASK-1": "- **GOFISH-ASK-1** Ask for a rank you hold."}


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_every_built_in_game_ships_its_rule_specification(name: str) -> None:
    """``RULES.md`` in the game's package is ``seeds/<game>.md`` (pyproject's force-include):
    found from a wheel, and from an editable install (re-run the install after editing pyproject)."""
    from cardcore.cli.rulebook import find_rules, rule_entries
    from cardcore.plugins import _load

    text = find_rules(_load("cardcore.games", name).__name__)
    assert text is not None, f"no RULES.md installed with {name} (see pyproject force-include)"
    spec = ROOT / "seeds" / f"{'spit' if name == 'speed' else name}.md"
    assert rule_entries(text) == rule_entries(spec.read_text(encoding="utf-8"))


def test_list_shows_each_options_accepted_values(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert cli.main(["list", "tonk"]) == 0
    out = capsys.readouterr().out
    for opt in cardcore.game_info("tonk").options:
        if opt.minimum is not None and opt.maximum is not None:
            assert f"{opt.name}=" in out
            low, high = int(opt.minimum), int(opt.maximum)  # as typed: 1000000, not 1e+06
            assert f"{low} to {high}" in out, opt.name
    assert "1e+06" not in out


def test_list_of_one_game_shows_only_agents_that_play_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["list", GOLF]) == 0
    out = capsys.readouterr().out
    assert "random" in out
    for name in cardcore.available_agents():
        games = getattr(cardcore.load_agent(name), "games", None)
        if isinstance(games, tuple) and GOLF not in games:
            assert f"│ {name} " not in out, name


def test_replay_at_and_final_show_one_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, game = _short_record(tmp_path)
    assert cli.main(["replay", str(path), "--at", "2", "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert "after action 2" in out and "#1 " not in out and "move 2" in out
    assert cli.main(["replay", str(path), "--final"]) == 0
    out = capsys.readouterr().out
    assert f"move {game.version}" in out and "game over" in out


# -- rendering from the declared structure ---------------------------------------------------------

NAMES = ["North", "East", "South", "West", "Centre", "Middle"]


def _render_text(game: cardcore.Game, seat: int | None) -> str:
    from io import StringIO

    from rich.console import Console

    from cardcore.cli.screen import Screen

    buf = StringIO()
    Console(file=buf, width=260, color_system=None, highlight=False).print(
        Screen(game, seat).draw()
    )
    return buf.getvalue()


def _row_blocks(text: str, names: list[str]) -> dict[str, str]:
    """The text of each player's row of the seat table (a row may span several lines)."""
    lines = [ln[2:-2] if ln.startswith("│") else ln for ln in text.splitlines()]
    head = next(i for i, ln in enumerate(lines) if ln.startswith("seat: player "))
    header = lines[head]
    first = len("seat: player")
    width = len(header) - len(header[first:].lstrip()) if header.strip() != "seat: player" else 0
    starts = re.compile(r"^(> |  )\d+: (" + "|".join(names) + r")\b")
    blocks: dict[str, list[str]] = {}
    current: str | None = None
    for ln in lines[head + 1 :]:
        m = starts.match(ln)
        if m:
            current = m[2]
            blocks[current] = [ln]
        elif current is not None and width and ln[:width].strip() == "" and ln.strip():
            blocks[current].append(ln)
        else:
            current = None
            if m is None and blocks and len(blocks) == len(names):
                break
    return {name: "\n".join(rows) for name, rows in blocks.items()}


def _own_cards(view: dict[str, object]) -> list[str]:
    """The cards the viewer can see in their own hand (or grid, or stacks): piles they own
    that are not face up for all (a face-up pile, such as laid-down books, may be summed up)."""
    seat = view["seat"]
    zones = view["zones"]
    assert isinstance(zones, list)
    return [
        c
        for z in zones
        if z["owner"] == seat and z["visibility"] != "everyone"
        for c in z["cards"]
        if c is not None
    ]


def _hand_size(view: dict[str, object]) -> int:
    """How many cards the viewer sees in their own piles (a hand's size; a grid's known cards)."""
    return len(_own_cards(view))


def _configurations(info: cardcore.GameInfo) -> list[dict[str, object]]:
    """The default options, then each choice of every option that lists its choices."""
    out: list[dict[str, object]] = [{}]
    for opt in info.options:
        seen = {str(opt.default).lower()}
        for choice in opt.choices or ():
            if str(choice).lower() not in seen:
                seen.add(str(choice).lower())
                out.append({opt.name: choice})
    return out


def _agents_serving(info: cardcore.GameInfo) -> list[str]:
    """``random`` and the agents written for *info*'s game (those that declare it in ``games``;
    general search agents are left out: they play the same hands, slowly)."""
    out = ["random"]
    for agent in cardcore.available_agents():
        games = getattr(cardcore.load_agent(agent), "games", None)
        if isinstance(games, tuple) and info.name in games:
            out.append(agent)
    return out


def _render_game(
    name: str,
    info: cardcore.GameInfo,
    options: dict[str, object],
    players: int,
    agent: str,
    seed: int,
    done: set[tuple[str, int, int, int]],
) -> None:
    """Play one game, drawing each seat's screen at each (configuration, seats, seat, hand size)
    not drawn yet, and check that the seat's own cards are in its own row."""
    config = repr(options)
    names = NAMES[:players]
    if players > info.min_players and any(o.name == "max_players" for o in info.options):
        options = {**options, "max_players": players}  # a table limit the default may hold low
    game = cardcore.new_game(name, names, seed=seed, options=options)

    def check(game: cardcore.Game, *_: object) -> None:
        for seat in range(players):
            view = game.view(seat)
            key = (config, players, seat, _hand_size(view))
            if key in done:
                continue
            done.add(key)
            blocks = _row_blocks(_render_text(game, seat), names)
            me = names[seat]
            assert set(blocks) == set(names), (key, blocks)
            assert "(you)" in blocks[me]
            for card in _own_cards(view):
                assert re.search(rf"(?<![0-9A-Z]){card}(?![0-9A-Z])", blocks[me]), (
                    f"{name} {key}: {card} not in {me}'s row:\n{blocks[me]}"
                )

    check(game)
    factory = cardcore.load_agent(agent)
    agents = [factory(seed=seed * 10 + s) for s in range(players)]
    if info.realtime:
        cardcore.run_realtime(game, agents, seed=seed, max_actions=200, on_action=check)
    else:
        cardcore.play(game, agents, max_actions=200, on_action=check)
    _render_text(game, None)  # a spectator's view draws too


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_render_shows_your_own_cards_under_your_own_name_at_every_hand_size(name: str) -> None:
    """Every layout (each choice of each option), seat counts up to six, every agent that
    plays the game (its own agents reach hands random play does not): at every hand size
    reached, the viewer's own cards are drawn in the viewer's own row."""
    info = cardcore.game_info(name)
    done: set[tuple[str, int, int, int]] = set()
    agents_names = _agents_serving(info)
    for options in _configurations(info):
        top = min(info.max_players, len(NAMES)) if not options else info.min_players
        for players, agent in itertools.product(range(info.min_players, top + 1), agents_names):
            idle = seed = 0
            while idle < 3 and seed < 30:  # until three games in a row draw nothing new
                before = len(done)
                _render_game(name, info, options, players, agent, seed, done)
                idle = 0 if len(done) > before else idle + 1
                seed += 1
    configs = {config for config, _, _, _ in done}
    assert len(configs) == len(_configurations(info))  # every layout was drawn
    sizes = {size for _, _, _, size in done}
    assert len(sizes) >= 2, sizes  # several hand sizes were drawn
    if name == "tonk":
        assert {2, 3, 4, 5, 6} <= sizes, sizes  # a 2-card hand was once drawn as the opponent's


# -- real time: a late action is too late, not illegal ---------------------------------------------


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_realtime_human_overtaken_by_a_bot_is_told_too_late(name: str) -> None:
    from io import StringIO

    from rich.console import Console

    from cardcore.agents import lend_views
    from cardcore.cli.realtime import _Realtime

    for seed in range(40):
        game = cardcore.new_game(name, ["Me", "Bot"], seed=seed)
        found = None
        for _ in range(30):  # walk a little into the game until two actions collide
            for mine in game.legal_actions(0):
                for theirs in game.legal_actions(1):
                    trial = game.clone()
                    trial.apply(theirs)
                    if mine not in trial.legal_actions(0):
                        found = (mine, theirs)
                        break
                if found:
                    break
            if found or game.is_over:
                break
            seat = 0 if game.legal_actions(0) else 1
            if not game.legal_actions(seat):
                break
            game.apply(game.legal_actions(seat)[0])
        if found:
            break
    else:
        pytest.skip(f"no colliding actions found in {name}")
    mine, theirs = found
    out = StringIO()
    console = Console(file=out, width=200, color_system=None)
    with lend_views(game) as views:
        session = _Realtime(console, game, 0, [None, None], views, 0.01)
        session.redraw()  # the human sees this version
        game.apply(theirs, seen=game.version)  # the bot's action arrives first
        assert session.handle(str(mine))
    text = out.getvalue()
    assert "too late:" in text and "CORE-RT-1" in text, text[-500:]
    assert "illegal:" not in text


def test_realtime_line_mode_reads_a_pipe(tmp_path: Path) -> None:
    from io import StringIO

    from rich.console import Console

    from cardcore.cli.realtime import play_realtime

    game = cardcore.new_game(SPEED, ["Me", "Bot"], seed=1)
    bot = cardcore.load_agent("spit-greedy")(seed=2)
    out = StringIO()
    console = Console(file=out, width=200, color_system=None)
    outcome = play_realtime(
        console, game, 0, [None, bot], stdin=StringIO("bogus\n1\nresign\n"), live=False
    )
    text = out.getvalue()
    assert outcome == "over" and game.result is not None and game.result.reason == "resigned"
    assert "not understood" in text and "type #1 for menu item 1" in text


class _CtrlC:
    """A real-time bot that presses Ctrl-C (a SIGINT to this process) *presses* times as it plans."""

    def __init__(self, presses: int) -> None:
        self.presses = presses

    def plan(self, view: object, legal: object, now: float) -> None:
        for _ in range(self.presses):
            os.kill(os.getpid(), signal.SIGINT)
        self.presses = 0


@pytest.mark.parametrize("presses", [1, 2])
def test_realtime_ctrl_c_leaves_and_puts_the_interrupt_handler_back(presses: int) -> None:
    """The first Ctrl-C is read between two moves (never inside a lock the screen or the
    game holds); a second one interrupts at once. Either way the human left, nothing was
    played, and Python's own handler is back."""
    from io import StringIO

    from rich.console import Console

    from cardcore.cli.realtime import play_realtime

    before = signal.getsignal(signal.SIGINT)
    game = cardcore.new_game(SPEED, ["Me", "Bot"], seed=1)
    read, write = os.pipe()  # input that never comes: only Ctrl-C ends the game
    stdin = os.fdopen(read, encoding="utf-8")
    try:
        console = Console(file=StringIO(), width=200, color_system=None)
        outcome = play_realtime(console, game, 0, [None, _CtrlC(presses)], stdin=stdin)
    finally:
        os.close(write)  # the input thread reads the end and stops
        for thread in threading.enumerate():
            if thread.name == "cardcore-input":
                thread.join(10)
        stdin.close()
    assert outcome == "quit" and not game.is_over and game.version == 0
    assert signal.getsignal(signal.SIGINT) is before


class Crasher:
    """An agent with a bug: it reads a key the view does not have."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: dict[str, object], legal: list[object]) -> object:
        return view["no such key"]


def test_an_agent_bug_is_one_line_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    cardcore.register("cardcore.agents", "crasher", Crasher)
    try:
        argv = ["play", GOLF, "--agent", "crasher", "--seat", "1", "--no-record"]
        assert cli.main(argv) == 1  # seat 0 (the agent) moves first
        assert cli.main(["simulate", GOLF, "--agents", "crasher", "-n", "2", "-q"]) == 1
    finally:
        cardcore.unregister("cardcore.agents", "crasher")
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 2 and all(ln.startswith("error: ") for ln in lines), err
    assert "KeyError" in lines[0] and "'no such key'" in lines[0]
    assert "crasher" in lines[1] and "Traceback" not in err


# -- labels a player would use -------------------------------------------------------------------


def _plain_render(view: dict[str, object], schema: dict[str, object], history: list[object]) -> str:
    from io import StringIO

    from rich.console import Console

    from cardcore.cli.render import render_view

    buf = StringIO()
    Console(file=buf, width=200, color_system=None).print(
        render_view(view, schema, history)  # type: ignore[arg-type]
    )
    return buf.getvalue()


def test_render_reads_past_rounds_and_pile_fields_from_the_declared_fields() -> None:
    """A past round's ``dealer`` (a declared seat field) is a name and its ``balances`` (declared
    per seat) each player's; fields named ``discard_...`` present the discard pile, drawn once."""
    schema = {
        "fields": [
            {"name": "dealer", "kind": "seat", "label": "dealer", "of": ""},
            {"name": "balances", "kind": "per-seat", "label": "balances", "of": "int"},
            {"name": "discard_top", "kind": "card", "label": "discard top", "of": ""},
        ]
    }
    view = {
        "game": "demo",
        "version": 3,
        "seat": 0,
        "players": ["Ann", "Bob"],
        "to_act": [0],
        "table": {"dealer": 1, "balances": [2, -2], "discard_top": "9H"},
        "zones": [
            {
                "name": "discard",
                "owner": None,
                "visibility": "top",
                "count": 2,
                "cards": ["9H", None],
            },
            {
                "name": "hand.0",
                "owner": 0,
                "visibility": "owner",
                "count": 2,
                "cards": ["KH", "9C"],
            },
            {
                "name": "hand.1",
                "owner": 1,
                "visibility": "owner",
                "count": 2,
                "cards": [None, None],
            },
        ],
    }
    history = [{"kind": "hand", "dealer": 0, "balances": [2, -2], "cut": ["6S", "QH"]}]
    text = _plain_render(view, schema, history)
    assert "dealer: Ann" in text and "balances: Ann: 2, Bob: -2" in text
    assert "discard top: 9H" in text and "discard:" not in text
    assert "cut: 6S QH" in text


@pytest.mark.parametrize(
    "kwargs",
    [
        {"games": -3},
        {"games": 0},
        {"chunk": 0},
        {"seed": 1.5},
        {"seed": True},
        {"seed": -1},
        {"agents": ["golf-greedy"] * 3},  # a list of one fills every seat, as in compare
        {"agents": [1, 2]},
        {"agents": ["ismcts:iterations=1000000000", "random"]},
        {"players": "2"},
        {"executor": object()},
        {"options": "x"},
    ],
)
def test_simulate_refuses_bad_arguments_before_playing(kwargs: dict[str, object]) -> None:
    with pytest.raises(cardcore.OptionError):
        cardcore.simulate("golf", **{"players": 2, **kwargs})  # type: ignore[arg-type]


def test_simulate_takes_one_agent_spec_for_every_seat_and_compare_checks_its_seed() -> None:
    one = cardcore.simulate("golf", games=3, players=2, agents="golf-greedy", seed=4)
    both = cardcore.simulate("golf", games=3, players=2, agents=["golf-greedy"] * 2, seed=4)
    assert one.to_json() == both.to_json()
    with pytest.raises(cardcore.OptionError, match="seed"):
        cardcore.compare("golf", games=2, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(cardcore.OptionError, match="options must be a mapping"):
        cardcore.compare("golf", games=2, options="x")  # type: ignore[arg-type]


def test_cli_replay_of_a_file_that_is_not_utf8_is_a_bad_record_and_a_bad_plot_name_stops_compare_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "bin.json"
    binary.write_bytes(bytes(range(256)) * 4)
    assert cli.main(["replay", str(binary)]) == 2
    assert "not UTF-8 text" in capsys.readouterr().err
    assert cli.main(["simulate", "golf", "-n", "99999999999999999999"]) == 2
    assert "at most 10,000,000" in capsys.readouterr().err
    assert cli.main(["compare", "golf", "--games", "2", "--plot", str(tmp_path / "x.txt")]) == 2
    assert "PNG" in capsys.readouterr().err


def test_list_shows_the_seats_the_default_options_allow() -> None:
    from cardcore.cli.commands import _players

    assert _players(cardcore.game_info("tonk")) == "2-3 (4 by option)"  # TONK-GEN-1
    assert _players(cardcore.game_info("golf")) == "2-64"
    assert _players(cardcore.game_info("speed")) == "2"


def test_play_refuses_more_seats_than_the_core_holds(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "golf", "-p", "65", "--no-record"]) == 2
    err = capsys.readouterr().err
    assert "--players: golf takes 2 to 64 players, not 65 (CORE-SEAT-2)" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("command", ["sim", "list", "replay", "verify"])
def test_an_unknown_option_names_the_subcommands_help(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    assert cli.main([command, "x", "--bogus"]) == 2
    err = capsys.readouterr().err
    name = "simulate" if command == "sim" else command
    assert f"unrecognized arguments: --bogus (see cardcore {name} --help)" in err
    assert cli.main(["--bogus", "list"]) == 2  # before any command: the top-level help
    assert "(see cardcore --help)" in capsys.readouterr().err


def test_simulate_json_over_one_game_is_strict_json_with_null_sd(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["simulate", "tonk", "-n", "1", "-p", "2", "-q", "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)  # Python's reader would take NaN: none there
    assert data["sd_scores"] == [None, None] and data["sd_payouts"] == [None, None]
    assert data["without"] == []
