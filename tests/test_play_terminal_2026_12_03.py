"""``cardcore play`` used as a player would: through a pseudo-terminal and through pipes.

Every test runs the real command in a child process. On a terminal the child gets the
pty as its controlling terminal (so Ctrl-C is a real SIGINT) and a window size matching
COLUMNS/LINES. Bots are slow (``--bot-speed``) or seeded where their timing matters;
conditions are waited for with generous bounds, never with fixed sleeps.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

pytest.importorskip("rich")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
WAIT = 60.0  # generous: a loaded CI machine is ~3x slower
COMMANDS_TAIL = r"'resign',\s+'quit',\s+'help'\s+or\s+'view'"  # the help line's end, wrapped or not


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "cardcore.cli", *args]


def _env(cols: int, lines: int, **extra: str) -> dict[str, str]:
    env = {**os.environ, "COLUMNS": str(cols), "LINES": str(lines), "TERM": "xterm"}
    env.pop("CARDCORE_TRACEBACK", None)
    env.update(extra)
    return env


def _controlling_tty() -> None:  # pragma: no cover - runs in the child
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Session:
    """A child ``cardcore`` process read with deadlines, on a pty or on pipes."""

    def __init__(
        self,
        args: list[str],
        cwd: Path,
        *,
        tty: bool = True,
        cols: int = 80,
        lines: int = 30,
        **extra_env: str,
    ) -> None:
        env = _env(cols, lines, **extra_env)
        self.raw = b""
        self.slave: int | None = None
        if tty:
            master, slave = pty.openpty()
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, cols, 0, 0))
            self.proc = subprocess.Popen(
                args,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                cwd=cwd,
                env=env,
                close_fds=True,
                preexec_fn=_controlling_tty,
            )
            self.slave = slave
            self.before = termios.tcgetattr(slave)
            self.read_fd = self.write_fd = master
        else:
            self.proc = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                cwd=cwd,
                env=env,
            )
            assert self.proc.stdout is not None and self.proc.stdin is not None
            self.read_fd = self.proc.stdout.fileno()
            self.write_fd = self.proc.stdin.fileno()

    def text(self, start: int = 0) -> str:
        return ANSI.sub("", self.raw[start:].decode("utf-8", errors="replace"))

    def mark(self) -> int:
        return len(self.raw)

    def _pump(self, timeout: float) -> bytes | None:
        """Read what is there: ``None`` if nothing came in *timeout*, ``b""`` at the end."""
        ready, _, _ = select.select([self.read_fd], [], [], timeout)
        if not ready:
            return None
        try:
            chunk = os.read(self.read_fd, 65536)
        except OSError:
            chunk = b""
        self.raw += chunk
        return chunk

    def until(self, pattern: str, *, start: int | None = None, timeout: float = WAIT) -> str:
        """Wait for *pattern* (a regex) in the output since *start* (default: now)."""
        begin = self.mark() if start is None else start
        deadline = time.monotonic() + timeout
        while True:
            seen = self.text(begin)
            if re.search(pattern, seen):
                return seen
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {pattern!r}; got:\n{seen[-3000:]}")
            if not self._pump(0.1) and self.proc.poll() is not None:  # ended, all read
                seen = self.text(begin)
                if re.search(pattern, seen):
                    return seen
                raise AssertionError(f"ended before {pattern!r}; got:\n{seen[-3000:]}")

    def send(self, data: str | bytes) -> None:
        os.write(self.write_fd, data.encode() if isinstance(data, str) else data)

    def finish(self, timeout: float = WAIT) -> int | None:
        """Wait for the exit, reading everything; its status (``None``: still running)."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._pump(0.1)
        while self._pump(0.05):  # what is left to read
            pass
        return self.proc.poll()

    def line_editing(self, timeout: float = WAIT) -> None:
        """Wait until readline has the terminal out of canonical mode. A prompt is printed
        before ``input()`` switches it, and a Ctrl-D typed in between reaches readline as a
        NUL (the line discipline's end-of-file mark), not as an end of file."""
        assert self.slave is not None
        deadline = time.monotonic() + timeout
        while termios.tcgetattr(self.slave)[3] & termios.ICANON:
            assert time.monotonic() < deadline, "readline never took the terminal"
            self._pump(0.02)

    def tty_restored(self) -> bool:
        assert self.slave is not None
        return termios.tcgetattr(self.slave) == self.before

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=WAIT)
        if self.slave is None:  # pipes: closed by their file objects
            for pipe in (self.proc.stdin, self.proc.stdout):
                with contextlib.suppress(OSError):
                    pipe.close()  # type: ignore[union-attr]
            return
        for fd in (self.read_fd, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)


@pytest.fixture
def sessions():  # type: ignore[no-untyped-def]
    opened: list[Session] = []

    def start(args: list[str], cwd: Path, **kwargs: object) -> Session:
        session = Session(args, cwd, **kwargs)  # type: ignore[arg-type]
        opened.append(session)
        return session

    yield start
    for session in opened:
        session.close()


# -- what works: checked so it keeps working ----------------------------------------------------


def test_turn_based_on_a_pty_typos_editing_and_ctrl_d(tmp_path: Path, sessions) -> None:  # type: ignore[no-untyped-def]
    term = sessions(_cmd("play", "tonk", "--seed", "5"), tmp_path, cols=40, lines=20)
    term.until(r"Player 1> $")
    start = term.mark()
    term.send("1\n")  # a bare number is refused, never taken for a menu item
    assert "type #1 for menu item 1" in term.until(r"Player 1> $")
    sent = term.mark()
    term.send("bogus\x15#2\n")  # Ctrl-U erases the line, then the menu number
    term.until(r"you: draw[\s\S]*Player 1> $", start=sent)  # (one read may bring both)
    term.send("x" * 3000 + "\n")
    assert "too long" in term.until(r"Player 1> $")
    term.line_editing()
    term.send(b"\x04")  # Ctrl-D: leaves, the record is saved
    out = term.until(r"record saved")
    assert term.finish() == 0
    assert "left the game" in out and "Traceback" not in term.text(start)
    assert term.tty_restored()
    record = json.loads((tmp_path / "cardcore-tonk-5.json").read_text())
    assert [seat for seat, _, _ in record["actions"]].count(0) == 1  # the one draw


def test_realtime_on_a_pty_ctrl_c_restores_the_terminal_and_saves(
    tmp_path: Path,
    sessions,  # type: ignore[no-untyped-def]
) -> None:
    term = sessions(
        _cmd("play", "spit", "--seed", "3", "--bot-speed", "30", "--record", "rt.json"),
        tmp_path,
        cols=80,
        lines=24,
    )
    term.until(r"Player 1> _")
    term.send("\x1b[A\x1b[Dcombine 1 5x\x7f\r")  # arrows ignored, Backspace erases
    term.until(r"you: combine 1 5 at")
    term.send(b"\x03")
    out = term.until(r"record saved")
    assert term.finish() == 0
    assert "left the game" in out and "Traceback" not in term.text()
    assert term.tty_restored()
    assert json.loads((tmp_path / "rt.json").read_text())["actions"][0][:2] == [0, "combine 1 5"]


def test_a_second_game_never_overwrites_the_first_record(tmp_path: Path) -> None:
    for _ in range(2):
        proc = subprocess.run(
            _cmd("play", "golf", "--seed", "7"),
            input="flip 0\nquit\n",
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=_env(80, 30),
            timeout=WAIT,
        )
        assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "cardcore-golf-7-2.json",
        "cardcore-golf-7.json",
    ]


# -- bugs ---------------------------------------------------------------------------------------


def test_turn_based_menu_number_in_other_digits_is_not_understood(tmp_path: Path) -> None:
    proc = subprocess.run(
        _cmd("play", "golf", "--seed", "7", "--record", "r.json"),
        input="#\u2460\nquit\n",  # '#①': '①'.isdigit() is True, int('①') fails
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(80, 30),
        timeout=WAIT,
    )
    assert "not understood" in proc.stdout
    assert proc.returncode == 0 and (tmp_path / "r.json").exists()  # today: exit 1, no record


def test_realtime_input_thread_survives_a_strange_menu_number(
    tmp_path: Path,
    sessions,  # type: ignore[no-untyped-def]
) -> None:
    term = sessions(
        _cmd("play", "spit", "--seed", "3", "--bot-speed", "30", "--no-record"),
        tmp_path,
        tty=False,
    )
    term.until(r"legal: ")
    term.send("#\u2460\nquit\n")
    out = term.until(r"left the game|Traceback")
    assert "Traceback" not in out
    assert term.finish() == 0


def test_realtime_input_thread_survives_an_undecodable_byte(
    tmp_path: Path,
    sessions,  # type: ignore[no-untyped-def]
) -> None:
    term = sessions(
        _cmd("play", "spit", "--seed", "3", "--bot-speed", "30", "--no-record"),
        tmp_path,
        tty=False,
        PYTHONIOENCODING="utf-8:strict",  # what a en_US.UTF-8 locale gives stdin
    )
    term.until(r"legal: ")
    term.send(b"ready \xff\nquit\n")
    out = term.until(r"left the game|Traceback")
    assert "Traceback" not in out
    assert term.finish() == 0


def test_turn_based_prompt_shows_a_name_with_brackets(tmp_path: Path) -> None:
    proc = subprocess.run(
        _cmd("play", "golf", "--seed", "7", "--name", "a[/]b", "--record", "r.json"),
        input="quit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(80, 30),
        timeout=WAIT,
    )
    assert proc.returncode == 0, proc.stderr
    assert "a[/]b> " in proc.stdout and (tmp_path / "r.json").exists()


@pytest.mark.parametrize(("cols", "lines"), [(40, 30), (80, 16)])
def test_realtime_prompt_and_menu_visible_on_a_small_terminal(
    tmp_path: Path,
    sessions,  # type: ignore[no-untyped-def]
    cols: int,
    lines: int,
) -> None:
    term = sessions(
        _cmd("play", "spit", "--seed", "3", "--bot-speed", "30", "--no-record"),
        tmp_path,
        cols=cols,
        lines=lines,
    )
    term.until(r"move 0")  # the first frame of the layout has begun
    frame = term.until(r"Player 1> _|\.\.\.", start=0)  # it ends in the prompt or a crop
    term.send(b"\x04")
    assert term.finish() == 0
    assert "Player 1> _" in frame and "legal: " in frame


def test_realtime_move_overtaken_while_typing_is_too_late(
    tmp_path: Path,
    sessions,  # type: ignore[no-untyped-def]
) -> None:
    # Speed, seed 5: the human may play 9D on L; the spit-greedy bot plays 9S on L after
    # ~0.88 x --bot-speed seconds (seeded), which makes 9D on L illegal.
    term = sessions(
        _cmd(
            "play",
            "speed",
            "--seed",
            "5",
            "--agent",
            "spit-greedy",
            "--bot-speed",
            "4",
            "--no-record",
        ),
        tmp_path,
        cols=80,
        lines=30,
    )
    table = term.until(r"Player 1> _")
    assert "#1 play 9D L" in table
    start = term.mark()
    term.send("play 9D L")  # typed on the table shown, Enter not yet pressed
    term.until(r"Player 1> play 9D L_", start=start)
    term.until(r"spit-greedy 2: play 9S L at", start=start)
    mark = term.mark()
    term.send("\r")
    out = term.until(r"(too late|illegal):", start=mark)
    term.send(b"\x04")
    assert term.finish() == 0
    assert "too late:" in out


def _slow_bot_script(record: Path) -> str:
    return f"""
import sys, time, cardcore, cardcore.cli
class Slow:
    def __init__(self, seed=0):
        self.seed = seed
    def choose(self, view, legal):
        print("slow bot thinking", flush=True)
        time.sleep(300)
        return legal[0]
cardcore.register("cardcore.agents", "slow-bot", Slow)
sys.exit(cardcore.cli.main(["play", "golf", "--seed", "7", "--agent", "slow-bot",
                            "--record", {str(record)!r}]))
"""


def test_turn_based_ctrl_c_while_a_bot_thinks_saves_the_record(
    tmp_path: Path,
    sessions,  # type: ignore[no-untyped-def]
) -> None:
    record = tmp_path / "slow.json"
    term = sessions([sys.executable, "-c", _slow_bot_script(record)], tmp_path, tty=False, cols=80)
    term.until(r"Player 1> ")
    term.send("flip 0\nflip 1\n")  # Golf's two setup flips; then the bot's turn
    term.until(r"slow bot thinking")
    term.proc.send_signal(signal.SIGINT)
    status = term.finish()
    assert "Traceback" not in term.text()
    assert status == 0 and record.exists()


def test_record_appearing_during_the_game_is_not_overwritten(
    tmp_path: Path,
    sessions,  # type: ignore[no-untyped-def]
) -> None:
    term = sessions(_cmd("play", "golf", "--seed", "7"), tmp_path, tty=False)
    term.until(r"Player 1> ")
    theirs = tmp_path / "cardcore-golf-7.json"  # e.g. another game with the same seed ended
    theirs.write_text("another game's record\n")
    term.send("quit\n")
    term.finish()
    assert theirs.read_text() == "another game's record\n"


def test_turn_based_arrow_keys_edit_the_line(tmp_path: Path, sessions) -> None:  # type: ignore[no-untyped-def]
    term = sessions(_cmd("play", "golf", "--seed", "7", "--no-record"), tmp_path, cols=80)
    term.until(r"Player 1> $")
    start = term.mark()
    term.send("flip 0\x1b[D\x1b[C\n")  # left, right: the line is still 'flip 0'
    out = term.until(r"you: flip 0|not understood|illegal", start=start)
    # 'quit' at the next prompt leaves (a Ctrl-D typed ahead of readline's switch of the
    # tty's mode can be dropped, and the command would wait for the next line)
    term.until(r"Player 1> $", start=start)
    term.send("quit\n")
    assert term.finish() == 0
    assert "you: flip 0" in out


def test_realtime_escape_key_does_not_swallow_the_next_line(
    tmp_path: Path,
    sessions,  # type: ignore[no-untyped-def]
) -> None:
    term = sessions(
        _cmd("play", "spit", "--seed", "3", "--bot-speed", "30", "--no-record"),
        tmp_path,
        cols=80,
        lines=30,
    )
    assert "#3 ready" in term.until(r"Player 1> _")
    start = term.mark()
    term.send("\x1b")  # Esc, pressed alone
    term.send("#3\r")
    term.send("x\rhelp\r")  # something that ends either way: the help text
    out = term.until(COMMANDS_TAIL, start=start)
    term.send(b"\x04")
    term.finish()
    assert "you: ready at" in out


def test_realtime_help_repeats_the_legal_actions_when_piped(
    tmp_path: Path,
    sessions,  # type: ignore[no-untyped-def]
) -> None:
    term = sessions(
        _cmd("play", "spit", "--seed", "3", "--bot-speed", "30", "--no-record"),
        tmp_path,
        tty=False,
    )
    term.until(r"legal: ")
    start = term.mark()
    term.send("help\nquit\n")
    out = term.until(r"left the game", start=start)
    term.finish()
    after_help = re.split(COMMANDS_TAIL, out, maxsplit=1)
    assert len(after_help) == 2, out
    assert "legal: " in after_help[1]


def test_realtime_pasted_non_ascii_is_read_whole(tmp_path: Path, sessions) -> None:  # type: ignore[no-untyped-def]
    term = sessions(
        _cmd("play", "spit", "--seed", "3", "--bot-speed", "30", "--no-record"),
        tmp_path,
        cols=200,
        lines=40,
    )
    term.until(r"Player 1> _")
    start = term.mark()
    pasted = "x" + "\u00e9" * 40  # 81 bytes: byte 64 falls inside an 'é'
    term.send(pasted + "\r")
    out = term.until(r"not understood[^\n]*", start=start)
    term.send(b"\x04")
    term.finish()
    assert "\ufffd" not in out and pasted in out
