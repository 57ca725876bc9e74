"""The ``cardcore`` command as a script, a pipe or a CI job uses it (run as a real process).

Exit statuses, what goes to stdout and what to stderr, pipes closed early, a closed
stdout or stdin, signals, an ASCII-only stream, narrow and dumb terminals, and bad
file arguments. Every game is seeded; every subprocess has a timeout.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cardcore

CLI = [sys.executable, "-m", "cardcore.cli"]
TIMEOUT = 30


def _env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CARDCORE_TRACEBACK", "PYTHONIOENCODING", "NO_COLOR", "FORCE_COLOR")
    }
    env.update({"COLUMNS": "100", "PYTHONUTF8": "1", "LC_ALL": "C.UTF-8"})
    env.update(extra)
    return env


def _run(
    args: list[str],
    *,
    stdin: str | None = None,
    cwd: Path | None = None,
    **extra: str,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=TIMEOUT,
        env=_env(**extra),
        cwd=cwd,
    )


def _shell(
    script: str, *, cwd: Path | None = None, **extra: str
) -> subprocess.CompletedProcess[str]:
    """*script* in bash, with ``CC`` standing for the command."""
    cc = " ".join(shlex.quote(part) for part in CLI)
    return subprocess.run(
        ["bash", "-c", f"CC={shlex.quote(cc)}; {script}"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=TIMEOUT,
        env=_env(**extra),
        cwd=cwd,
    )


def _one_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    assert "Exception ignored" not in stderr, stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: "), stderr
    return lines[0]


def _record(path: Path, players: int | list[str] = 2) -> Path:
    game = cardcore.new_game("golf", players, seed=7, options={"rounds": 1})
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    return path


# -- exit statuses, --help, bad arguments --------------------------------------------------


def test_help_of_every_command_goes_to_stdout_with_status_0() -> None:
    for command in ("", "simulate", "verify", "serve"):
        done = _run([command, "--help"] if command else ["--help"])
        assert done.returncode == 0, (command, done.stderr)
        assert done.stdout.startswith("usage: cardcore"), command
        assert done.stderr == "", command


@pytest.mark.parametrize(
    "args",
    [
        ["--bogus"],
        ["bogus"],
        ["simulate", "golf", "--bogus"],
        ["replay"],
        ["simulate", "golf", "-n", "0"],
    ],
)
def test_a_bad_flag_or_command_is_one_line_on_stderr_with_status_2(args: list[str]) -> None:
    done = _run(args)
    assert done.returncode == 2
    assert done.stdout == ""
    _one_error_line(done.stderr)


# -- stdout is data, stderr the rest ------------------------------------------------------


def test_simulate_json_dash_puts_only_json_on_stdout_and_the_table_on_stderr() -> None:
    done = _run(["simulate", "golf", "-n", "2", "--seed", "3", "-o", "rounds=1", "--json", "-"])
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 2
    assert summary["seed"] == 3
    assert "seat" in done.stderr  # the table's header


def test_simulate_to_a_pipe_draws_no_progress_bar_and_no_escapes() -> None:
    done = _run(["simulate", "golf", "-n", "3", "-o", "rounds=1"])
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "\x1b" not in done.stdout
    assert "\r" not in done.stdout
    assert "seat" in done.stdout


# -- pipes closed early -------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "list",
        "replay full.json",
        "verify full.json",
        "simulate golf -n 2 -q -o rounds=1 --json -",
    ],
)
def test_a_pipe_closed_early_prints_no_traceback(tmp_path: Path, command: str) -> None:
    _record(tmp_path / "full.json")
    done = _shell(f"set -o pipefail; $CC {command} 2>err.txt </dev/null | true", cwd=tmp_path)
    err = (tmp_path / "err.txt").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in err
    assert "Exception ignored" not in err
    assert "BrokenPipeError" not in err
    assert done.returncode in (0, 1), (done.returncode, err)


# -- a closed stdout, a full disk, a closed stdin -----------------------------------------


def test_list_with_stdout_closed_fails_with_an_error() -> None:
    done = _shell("$CC list >&- </dev/null")
    assert done.returncode != 0
    assert done.stderr.startswith("error: ")


def test_verify_with_stdout_closed_says_so_in_plain_words(tmp_path: Path) -> None:
    _record(tmp_path / "full.json")
    done = _shell("$CC verify full.json >&- </dev/null", cwd=tmp_path)
    assert done.returncode == 1
    line = _one_error_line(done.stderr)
    assert "unexpected" not in line
    assert "AttributeError" not in line


def test_a_full_disk_on_stdout_is_one_error_line_with_status_1() -> None:
    done = _shell("$CC list >/dev/full </dev/null")
    assert done.returncode == 1
    assert "No space left" in _one_error_line(done.stderr)


def test_version_on_a_full_disk_is_an_error() -> None:
    done = _shell("$CC --version >/dev/full </dev/null")
    assert done.returncode != 0


def test_play_with_stdin_at_end_of_input_leaves_and_saves_the_record(tmp_path: Path) -> None:
    done = _shell("$CC play golf --seed 7 -o rounds=1 --record r.json </dev/null", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "left the game before its end" in done.stdout
    assert (tmp_path / "r.json").is_file()


def test_play_with_stdin_closed_leaves_like_end_of_input(tmp_path: Path) -> None:
    done = _shell("$CC play golf --seed 7 -o rounds=1 --record r.json <&-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "unexpected" not in done.stderr
    assert (tmp_path / "r.json").is_file()


def test_replay_step_with_stdin_closed_stops_cleanly(tmp_path: Path) -> None:
    _record(tmp_path / "full.json")
    done = _shell("$CC replay full.json --step <&-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "unexpected" not in done.stderr


# -- signals ------------------------------------------------------------------------------


def _group(pgid: int) -> list[int]:
    """The live processes of process group *pgid*."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            out.append(int(entry))
    return out


# the command's main, run once its imports are done (rich's too: the command imports it
# before it handles a signal): a signal sent while Python starts up, before the command runs at
# all, would be a traceback (the way test_docs_claims_2_2026_12_11 runs it)
STARTED = (
    "import sys, cardcore.cli, rich.console; print('started', flush=True);"
    " sys.argv[0] = 'cardcore'; sys.exit(cardcore.cli.main())"
)


def _signal_simulate(tmp_path: Path, sig: int, extra: list[str]) -> tuple[int, str, list[int]]:
    """Start a long ``simulate`` in its own process group, send *sig* once it runs; its
    exit status, its stderr and the processes of its group still alive 2 s later."""
    err = tmp_path / "err.txt"
    with (tmp_path / "out.txt").open("wb") as out, err.open("wb") as errf:
        proc = subprocess.Popen(
            [sys.executable, "-c", STARTED, "simulate", "golf", "-n", "100000", "-q", *extra],
            stdout=out,
            stderr=errf,
            stdin=subprocess.DEVNULL,
            env=_env(),
            start_new_session=True,
        )
    try:
        want = 5 if "--workers" in extra else 1  # main, resource tracker, forkserver, 2 workers
        deadline = time.monotonic() + TIMEOUT  # the imports done (a loaded machine is slow)
        while b"started" not in (tmp_path / "out.txt").read_bytes():
            assert proc.poll() is None and time.monotonic() < deadline, "the command never ran"
            time.sleep(0.05)
        deadline = time.monotonic() + 15
        while len(_group(proc.pid)) < want and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5 if want > 1 else 1.0)  # past the imports: in the games
        proc.send_signal(sig)
        status = proc.wait(timeout=15)
        deadline = time.monotonic() + 2
        while _group(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = _group(proc.pid)
    finally:
        for pid in _group(proc.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)
    return status, err.read_text(encoding="utf-8", errors="replace"), left


def test_ctrl_c_stops_simulate_with_status_130_and_one_line(tmp_path: Path) -> None:
    status, err, left = _signal_simulate(tmp_path, signal.SIGINT, [])
    assert status == 130
    assert err == "interrupted\n"
    assert left == []


def test_ctrl_c_stops_simulate_with_workers_and_leaves_no_process(tmp_path: Path) -> None:
    status, err, left = _signal_simulate(tmp_path, signal.SIGINT, ["--workers", "2"])
    assert status == 130
    assert "Traceback" not in err
    assert left == []


def test_sigterm_to_simulate_with_workers_leaves_no_process(tmp_path: Path) -> None:
    _status, _err, left = _signal_simulate(tmp_path, signal.SIGTERM, ["--workers", "2"])
    assert left == []


# -- environment: colour, narrow and dumb terminals, an ASCII-only stream -------------------


def test_play_in_a_dumb_narrow_terminal_without_colour_with_a_non_ascii_name(
    tmp_path: Path,
) -> None:
    done = _run(
        ["play", "golf", "--seed", "7", "-o", "rounds=1", "--name", "Zoë ♠", "--no-record"],
        stdin="flip 0\nflip 3\nquit\n",
        NO_COLOR="1",
        TERM="dumb",
        COLUMNS="20",
    )
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout
    assert "Zoë ♠>" in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["simulate", "golf", "-n", "2", "-o", "rounds=1", "--json", "-"],
        ["replay", "full.json", "--final"],
        ["verify", "full.json"],
    ],
)
def test_an_ascii_only_stream_is_fine_for_ascii_data(tmp_path: Path, args: list[str]) -> None:
    _record(tmp_path / "full.json")
    done = _run(args, cwd=tmp_path, PYTHONIOENCODING="ascii")
    assert done.returncode == 0, done.stderr
    assert done.stdout.isascii()


def test_rules_on_an_ascii_only_stream() -> None:
    done = _run(["rules", "golf"], PYTHONIOENCODING="ascii")
    assert done.returncode == 0, done.stderr
    assert "GOLF-GEN-1" in done.stdout


def test_compare_on_an_ascii_only_stream() -> None:
    done = _run(["compare", "golf", "-n", "2", "-o", "rounds=1"], PYTHONIOENCODING="ascii")
    assert done.returncode == 0, done.stderr


def test_replay_of_a_non_ascii_name_on_an_ascii_only_stream(tmp_path: Path) -> None:
    _record(tmp_path / "zoe.json", ["Zoë ♠", "Bob"])
    done = _run(["replay", "zoe.json", "--final"], cwd=tmp_path, PYTHONIOENCODING="ascii")
    assert done.returncode == 0, done.stderr


def test_play_answers_a_non_ascii_line_on_an_ascii_only_stream(tmp_path: Path) -> None:
    done = _run(
        ["play", "golf", "--seed", "7", "-o", "rounds=1", "--record", "r.json"],
        stdin="é\nquit\n",
        cwd=tmp_path,
        PYTHONIOENCODING="ascii",
    )
    assert done.returncode == 0, done.stderr
    assert "not understood" in done.stdout
    assert (tmp_path / "r.json").is_file()


# -- file arguments -----------------------------------------------------------------------


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "adir").mkdir()
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "junk.bin").write_bytes(bytes(range(256)) * 8)
    (tmp_path / "huge.json").write_text(json.dumps({"x": "a" * 20_000_100}), encoding="utf-8")
    return {
        "missing": tmp_path / "missing.json",
        "dir": tmp_path / "adir",
        "empty": tmp_path / "empty.json",
        "binary": tmp_path / "junk.bin",
        "huge": tmp_path / "huge.json",
    }


@pytest.mark.parametrize("command", ["replay", "verify"])
def test_a_bad_file_argument_is_one_line_with_status_2(tmp_path: Path, command: str) -> None:
    for kind, path in _bad_files(tmp_path).items():
        if command == "replay" and kind in ("binary", "huge"):
            continue  # kept short: the verify case covers them
        done = _run([command, path.name], cwd=tmp_path)
        assert done.returncode == 2, (kind, done.stderr)
        assert done.stdout == "", kind
        line = _one_error_line(done.stderr)
        if kind in ("missing", "dir", "binary") or command == "verify":
            assert repr(path.name) in line, (kind, line)


def test_replay_names_an_empty_file(tmp_path: Path) -> None:
    (tmp_path / "empty.json").write_bytes(b"")
    done = _run(["replay", "empty.json"], cwd=tmp_path)
    assert done.returncode == 2
    assert "'empty.json'" in _one_error_line(done.stderr)
