"""The ``cardcore`` command as a human plays it: in a terminal (a pty), by the docs.

Each test drives the installed command (``python -m cardcore.cli`` is not used:
the ``cardcore`` script is what a user types) with a fixed ``--seed`` and
scripted keystrokes, and checks what docs/cli.rst promises: the menu, the
answers to bad input, what the screen may show a seat, the end of a game, the
exits (``quit``, Ctrl-D, Ctrl-C) and their statuses, records and replays, and the
error lines of the other commands.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

import cardcore
from cardcore import cli

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")

CARDCORE = shutil.which("cardcore") or str(Path(sys.executable).with_name("cardcore"))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
CARD = re.compile(r"(?<![\w])(?:10|[2-9AJQK])[SHDC](?![\w])")
BOX = re.compile(r"╭─ (\w+)\s+move (\d+)\s+you are .*?╰", re.S)


def _controlling_tty() -> None:
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Term:
    """A terminal (pty) with a person at it: reads the screen, types lines and keys."""

    def __init__(self, args: list[str], cwd: Path, cols: int = 120, rows: int = 50):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ, COLUMNS=str(cols), LINES=str(rows), TERM="xterm")
        env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen(
            [CARDCORE, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            preexec_fn=_controlling_tty,
        )
        os.close(slave)
        self.master = master
        self.raw = b""
        self.pos = 0
        self.closed = False

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def _read(self, timeout: float) -> None:
        if self.closed:
            return
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
            if data:
                self.raw += data
            else:
                self.closed = True

    def expect(self, pattern: str, timeout: float = 20) -> re.Match[str]:
        rx = re.compile(pattern, re.S)
        end = time.monotonic() + timeout
        while True:
            found = rx.search(self.text, self.pos)
            if found:
                self.pos = found.end()
                return found
            if self.closed or time.monotonic() > end:
                raise AssertionError(f"{pattern!r} not shown; screen ends:\n{self.text[-2500:]}")
            self._read(0.05)

    def settle(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not self.closed:
            self._read(0.05)

    def line(self, text: str) -> None:
        os.write(self.master, text.encode() + b"\r")

    def key(self, char: str) -> None:
        os.write(self.master, bytes([ord(char) & 0x1F]))

    def eof(self, tries: int = 10) -> None:
        """Type Ctrl-D until the command ends: one typed while the program is still setting
        up its terminal (under load) can be flushed unread, as a person would type it again."""
        for _ in range(tries):
            self.key("d")
            end = time.monotonic() + 2.0
            while self.proc.poll() is None and time.monotonic() < end:
                self._read(0.05)
            if self.proc.poll() is not None:
                return

    def finish(self, timeout: float = 20) -> int:
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self._read(0.05)
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            raise AssertionError(f"the command did not end; screen ends:\n{self.text[-2500:]}")
        while not self.closed:
            self._read(0.05)
        os.close(self.master)
        return self.proc.returncode


def run(*args: str, cwd: Path | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CARDCORE, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env=dict(os.environ, COLUMNS="120"),
    )


def views_by_version(record: dict, seat: int) -> dict[int, str]:
    """The engine's view of *seat* after each recorded action, with its history, as JSON text."""
    game = cardcore.new_game(
        record["game"],
        record["players"],
        seed=record["seed"],
        options=record["options"],
        rules=[rule["name"] for rule in record["rules"]],
        without=[rule["name"] if isinstance(rule, dict) else rule for rule in record["without"]],
    )

    def seen() -> str:
        return json.dumps([game.view(seat), game.history(seat)])

    views = {game.version: seen()}
    for who, action, _at in record["actions"]:
        game.act(who, action)
        views[game.version] = seen()
    return views


def assert_screens_hide_what_seat_may_not_see(screen: str, record: dict, seat: int = 0) -> int:
    views = views_by_version(record, seat)
    boxes = list(BOX.finditer(screen))
    assert boxes, screen[-2000:]
    for box in boxes:
        version = int(box.group(2))
        shown = set(CARD.findall(box.group(0)))
        known = set(CARD.findall(views[version]))
        assert shown <= known, (
            f"move {version}: the screen shows {shown - known} seat {seat} may not see"
        )
    return len(boxes)


# --------------------------------------------------------------------------- golf


def test_golf_played_to_its_end_shows_only_the_seats_view_and_the_summary(tmp_path):
    term = Term(
        ["play", "golf", "--seed", "7", "-o", "rounds=1", "--record", "golf.json"], tmp_path
    )
    term.expect(r"golf with 2 players; you are Player 1")
    moves = 0
    while True:
        try:
            term.expect(r"Player 1> ", timeout=20)
        except AssertionError:
            if term.closed:
                break
            raise
        menu = re.findall(r"legal: (.*)\n", term.text)[-1]
        # The documented menu: each action under a '#' number, from #1.
        assert menu.startswith("#1 ")
        term.line("#1")
        moves += 1
        assert moves < 200
    assert term.finish() == 0
    screen = term.text
    assert "Traceback" not in screen
    assert "game over (rounds); winner:" in screen
    assert re.search(r"scores: Player 1: -?\d+, random 2: -?\d+", screen)
    assert "record saved to golf.json (replay it: cardcore replay golf.json)" in screen
    record = json.loads((tmp_path / "golf.json").read_text())
    assert record["seed"] == 7 and record["result"] is not None
    assert assert_screens_hide_what_seat_may_not_see(screen, record) > moves // 2
    # The final screen's summary names the engine's result.
    game = cardcore.replay(record)
    winners = [record["players"][s] for s in game.result.winners]
    assert f"winner: {winners[0]}" in screen


def test_golf_bad_input_is_answered_and_nothing_changes(tmp_path):
    term = Term(["play", "golf", "--seed", "7", "--record", "g.json"], tmp_path)
    term.expect(r"move 0 .*?legal: #1 flip 0 .*?Player 1> ", timeout=30)
    for typed, answer in [
        ("bogus", r"not understood: not a golf action: 'bogus' \(expected draw, take,"),
        ("flip 99", r"illegal: seat 0 has no position 99 in GOLF6: 'flip 99' \(GOLF-TURN-4\)"),
        ("#0", r"not understood: no action '#0' \(choose #1 to #6\)"),
        ("#7", r"not understood: no action '#7' \(choose #1 to #6\)"),
        ("flip", r"not understood: 'flip' needs a position number"),
        ("draw", r"illegal: "),
    ]:
        term.line(typed)
        term.expect(answer)
        term.expect(r"Player 1> ")
    term.line("help")
    term.expect(
        r"type an action's notation or its menu number with '#' \(#1\), 'resign', 'quit', 'help' or 'view'"
    )
    term.expect(r"legal: #1 flip 0 ")
    term.line("view")
    # Redrawn unchanged: still move 0, nothing flipped.
    term.expect(r"move 0 ")
    term.line("flip 0")
    term.expect(r"you: flip 0")
    term.expect(r"move 1 .*?legal: #1 flip 1 ", timeout=20)
    term.line("quit")
    assert term.finish() == 0
    assert "left the game before its end" in term.text
    assert "Traceback" not in term.text
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["actions"][0][:2] == [0, "flip 0"]
    assert len(record["actions"]) == 1


@pytest.mark.parametrize(
    ("options", "cells"),
    [(["-o", "layout=9"], 9), (["-o", "layout=4h"], 4)],
)
def test_golf_layout_options_draw_their_grid(tmp_path, options, cells):
    term = Term(["play", "golf", "--seed", "1", "--no-record", *options], tmp_path)
    box = term.expect(r"╭─ golf\s+move 0.*?╰", timeout=30).group(0)
    mine = box.split("(you)")[1].split("random 2")[0]
    assert re.findall(r"(\d+):(?! )", mine) == [str(i) for i in range(cells)]
    term.line("quit")
    assert term.finish() == 0


def test_golf_house_rule_in_play_is_on_the_record(tmp_path):
    term = Term(
        ["play", "golf", "--seed", "2", "-r", "golf.jokers", "--record", "j.json"], tmp_path
    )
    term.expect(r"Player 1> ", timeout=30)
    term.eof()  # Ctrl-D: end of input leaves and saves
    assert term.finish() == 0
    assert "record saved to j.json" in term.text
    record = json.loads((tmp_path / "j.json").read_text())
    assert [rule["name"] for rule in record["rules"]] == ["golf.jokers"]


def test_ctrl_c_at_the_prompt_leaves_with_status_0_and_saves(tmp_path):
    term = Term(["play", "tonk", "--seed", "3", "--record", "t.json"], tmp_path)
    term.expect(r"Player 1> ", timeout=30)
    term.settle(1.0)  # the program reading its input (a key typed earlier may be flushed)
    term.key("c")
    assert term.finish() == 0
    assert "left the game before its end" in term.text
    assert "Traceback" not in term.text
    assert json.loads((tmp_path / "t.json").read_text())["game"] == "tonk"


def test_existing_record_is_not_overwritten(tmp_path):
    (tmp_path / "keep.json").write_text("mine")
    done = run("play", "golf", "--seed", "7", "--record", "keep.json", cwd=tmp_path)
    # Either refused up front or saved under the next free name; never overwritten.
    assert (tmp_path / "keep.json").read_text() == "mine"
    assert "Traceback" not in done.stderr


# --------------------------------------------------------------------------- tonk


def test_tonk_played_in_a_terminal_never_shows_the_bots_hand(tmp_path):
    term = Term(["play", "tonk", "--seed", "3", "--record", "tonk.json"], tmp_path)
    moves = 0
    while True:
        try:
            term.expect(r"Player 1> ", timeout=20)
        except AssertionError:
            if term.closed:
                break
            raise
        menu = re.findall(r"legal: (.*)\n", term.text)[-1]
        draw = re.search(r"#(\d+) draw\b", menu)
        term.line(f"#{draw.group(1)}" if draw else "#1")
        moves += 1
        assert moves < 300
    assert term.finish() == 0
    screen = term.text
    assert "Traceback" not in screen
    assert re.search(r"game over \(\w[\w -]*\); winner", screen)
    assert re.search(r"payouts: Player 1: [+-]\d+, random 2: [+-]\d+", screen)
    record = json.loads((tmp_path / "tonk.json").read_text())
    assert assert_screens_hide_what_seat_may_not_see(screen, record) >= 1


def test_tonk_first_screen_matches_the_engine(tmp_path):
    term = Term(["play", "tonk", "--seed", "3", "--no-record"], tmp_path)
    box = term.expect(r"╭─ tonk\s+move 0.*?╰", timeout=30).group(0)
    term.line("quit")
    assert term.finish() == 0
    game = cardcore.new_game("tonk", ["Player 1", "random 2"], seed=3)
    view = game.view(0)
    mine = next(z for z in view["zones"] if z["owner"] == 0 and "hand" in z["name"])
    row = next(line for line in box.splitlines() if "(you)" in line)
    assert sorted(CARD.findall(row)) == sorted(mine["cards"])
    assert "5 face down" in box


# --------------------------------------------------------------------------- spit


def test_spit_in_a_terminal_shows_a_menu_and_quits_cleanly(tmp_path):
    term = Term(
        ["play", "spit", "--seed", "3", "--bot-speed", "30", "--record", "s.json"], tmp_path
    )
    term.expect(r"legal: #1 .*?Player 1> ", timeout=30)
    term.line("bogus")
    term.expect(r"not understood: ")
    term.line("quit")
    assert term.finish() == 0
    assert "Traceback" not in term.text
    record = json.loads((tmp_path / "s.json").read_text())
    assert record["game"] == "spit" and record["seed"] == 3
    assert all(who == 1 for who, _a, _t in record["actions"]) or record["actions"] == []


def test_speed_piped_prints_no_prompt_only_legal_lines(tmp_path):
    done = run(
        "play",
        "speed",
        "--seed",
        "4",
        "--bot-speed",
        "30",
        "--no-record",
        cwd=tmp_path,
        stdin="quit\n",
    )
    assert done.returncode == 0, done.stderr
    assert "legal:" in done.stdout
    assert "Player 1>" not in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("args", "seat"),
    [
        (
            [
                "golf",
                "-o",
                "layout=4",
                "-o",
                "rounds=2",
                "-p",
                "3",
                "--agent",
                "golf-greedy",
                "--seed",
                "5",
            ],
            1,
        ),
        (
            [
                "golf",
                "-o",
                "layout=9",
                "-o",
                "rounds=1",
                "-p",
                "3",
                "-r",
                "golf.jokers",
                "--seed",
                "8",
            ],
            2,
        ),
        (["tonk", "-p", "3", "-o", "hands=3", "--agent", "tonk-heuristic", "--seed", "11"], 2),
    ],
)
def test_other_seats_and_layouts_show_only_what_the_seat_may_see(tmp_path, args, seat):
    """Seat 1 or 2 of three, peeking in 4-card Golf: every screen, every round, the engine's view."""
    term = Term(["play", *args, "--seat", str(seat), "--record", "rec.json"], tmp_path)
    prompt = f"Player {seat + 1}> "
    moves = 0
    while True:
        try:
            term.expect(re.escape(prompt), timeout=20)
        except AssertionError:
            if term.closed:
                break
            raise
        menu = re.findall(r"legal: (.*)\n", term.text)[-1]
        peek = re.search(r"#(\d+) peek", menu)
        draw = re.search(r"#(\d+) draw\b", menu)
        choice = peek or draw
        term.line(f"#{choice.group(1)}" if choice else "#1")
        moves += 1
        assert moves < 300
    assert term.finish() == 0
    assert "Traceback" not in term.text
    assert "game over" in term.text
    record = json.loads((tmp_path / "rec.json").read_text())
    assert record["players"][seat] == f"Player {seat + 1}"
    assert assert_screens_hide_what_seat_may_not_see(term.text, record, seat) >= moves


def test_spit_menu_numbers_apply_the_moment_enter_is_pressed(tmp_path):
    """With slow bots, '#1' typed at each new table is applied as the action it names."""
    term = Term(
        ["play", "spit", "--seed", "3", "--bot-speed", "60", "--record", "s.json"], tmp_path
    )
    applied = []
    for _ in range(3):
        term.expect(r"legal: #1 (\S+(?: \d)*)\s", timeout=30)
        term.settle(0.3)
        menu = re.findall(r"move (\d+).*?legal: #1 ([a-z]+(?: \d+)*)", term.text, re.S)[-1]
        term.line("#1")
        term.expect(r"you: " + re.escape(menu[1]) + r" at \d+\.\d+ s")
        applied.append(menu[1])
    term.line("quit")
    assert term.finish() == 0
    record = json.loads((tmp_path / "s.json").read_text())
    mine = [action for who, action, _at in record["actions"] if who == 0]
    assert mine == applied
    assert "too late" not in term.text


# --------------------------------------------------------------------------- other commands


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["play", "nosuchgame"],
            "no game called 'nosuchgame' is installed (installed: ",
        ),
        (
            ["play", "golf", "-o", "layout=7"],
            "option 'layout' must be one of 6, 8, 9, 10, 4 or '4h', not '7'",
        ),
        (["play", "golf", "-o", "nokey=1"], "game 'golf' has no option 'nokey'"),
        (["play", "golf", "--rules", "golf.nope"], "no house rule called 'golf.nope'"),
        (["rules", "golf", "NOPE-1"], "no rule 'NOPE-1' in golf"),
        (["play", "golf", "--agent", "nosuch"], "no agent called 'nosuch' is installed"),
        (["play", "tonk", "--agent", "golf-greedy"], "agent 'golf-greedy' plays golf, not 'tonk'"),
        (["simulate", "golf", "--games", "0"], "--games/-n: must be at least 1, not 0"),
        (["replay", "missing.json"], "cannot read record 'missing.json'"),
        (
            ["play", "golf", "--layout", "9"],
            "unrecognized arguments: --layout 9 (see cardcore play --help)",
        ),
    ],
)
def test_errors_are_one_line_status_2_no_traceback(args, words, capsys, monkeypatch):
    """In-process (:func:`cardcore.cli.main`, what the script calls), for speed."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert cli.main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert words in err


def test_help_and_version():
    done = run("--help")
    assert done.returncode == 0
    for command in ("list", "rules", "play", "simulate", "replay", "verify", "compare", "serve"):
        assert command in done.stdout
    play = run("play", "--help")
    for flag in (
        "--seat",
        "--agent",
        "--record",
        "--no-record",
        "--force",
        "--bot-speed",
        "--name",
        "--seed",
    ):
        assert flag in play.stdout
    version = run("--version")
    assert version.returncode == 0 and re.search(r"\d+\.\d+", version.stdout)


def test_list_and_rules():
    listing = run("list", "golf")
    assert listing.returncode == 0
    assert "golf.jokers" in listing.stdout and "golf-greedy" in listing.stdout
    one = run("rules", "golf", "GOLF-SCORE-6")
    assert one.returncode == 0 and "GOLF-SCORE-6" in one.stdout
    house = run("rules", "golf", "golf.jokers")
    assert house.returncode == 0 and "GOLF-SCORE-4" in house.stdout


def test_simulate_50_games_table_and_json(tmp_path):
    done = run("simulate", "golf", "--games", "50", "--seed", "3", "--json", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["seed"] == 3
    assert "random" in done.stderr  # the table went to standard error
    assert summary["game"] == "golf" and summary["games"] == 50 and summary["players"] == 4
    assert sum(summary["wins"]) == pytest.approx(50)


def test_replay_final_matches_the_record(tmp_path):
    done = run(
        "play",
        "golf",
        "--seed",
        "7",
        "--record",
        "r.json",
        cwd=tmp_path,
        stdin="flip 0\nflip 3\ndraw\ndiscard\n",
    )
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "r.json").read_text())
    assert [a[1] for a in record["actions"] if a[0] == 0] == ["flip 0", "flip 3", "draw", "discard"]
    final = run("replay", "r.json", "--final", "--seat", "0", cwd=tmp_path)
    assert final.returncode == 0, final.stderr
    shown = set(CARD.findall(final.stdout))
    assert shown <= set(CARD.findall(views_by_version(record, 0)[len(record["actions"])]))
    broken = tmp_path / "bad.json"
    broken.write_text('{"format": "cardcore-record"')
    refused = run("replay", str(broken))
    assert (
        refused.returncode == 2
        and "bad.json" in refused.stderr
        and "Traceback" not in refused.stderr
    )


def test_simulate_in_a_terminal_shows_progress_then_the_table(tmp_path):
    term = Term(["simulate", "golf", "--games", "50", "--seed", "1"], tmp_path)
    assert term.finish() == 0
    screen = term.text
    assert "50/50" in screen  # the progress bar, in a terminal only
    assert re.search(r"golf: 50 games, 4 players", screen)
    assert "mean game length" in screen and "endings" in screen
    assert "Traceback" not in screen


def test_replay_step_stops_on_q_and_on_ctrl_c_with_status_0(tmp_path):
    done = run(
        "play", "tonk", "--seed", "3", "--record", "t.json", cwd=tmp_path, stdin="draw\n#1\n"
    )
    assert done.returncode == 0, done.stderr
    term = Term(["replay", "t.json", "--step", "--seat", "0"], tmp_path)
    term.expect(r"\[1/\d+\] Enter for the next action, q to stop: ")
    term.line("")
    term.expect(r"\[2/\d+\] Enter for the next action, q to stop: ")
    term.settle(1.0)  # the program reading its input (a key typed earlier may be flushed)
    term.key("c")
    assert term.finish() == 0
    assert "Traceback" not in term.text
    term = Term(["replay", "t.json", "--step"], tmp_path)
    term.expect(r"\[1/\d+\] Enter for the next action")
    term.line("q")
    assert term.finish() == 0


def test_resign_is_recorded_like_any_action_and_ends_the_game(tmp_path):
    term = Term(["play", "golf", "--seed", "7", "--record", "r.json"], tmp_path)
    term.expect(r"Player 1> ", timeout=30)
    term.line("resign")
    assert term.finish() == 0
    assert "game over (resigned); winner: random 2" in term.text
    record = json.loads((tmp_path / "r.json").read_text())
    assert record["actions"][0][:2] == [0, "resign"]
    assert record["result"]["reason"] == "resigned" and record["result"]["winners"] == [1]
