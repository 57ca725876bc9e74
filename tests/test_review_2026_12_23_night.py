"""Review of 329f145 and ee9437c: ``cardcore.cli.main`` embedded in-process (streams put
back, broken pipes, stdin closed, threads, SIGTERM), SQLiteStore's mark (status and meta),
the lazy ``importlib.metadata`` and the packaging.

Strict xfails mark what is wrong today; the other tests pin the claims that held. Every
deal is seeded; the two subprocesses here end on their own (status checked, killed on a
timeout).
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore.cli import main
from cardcore.session import SQLiteStore, StoreError
from cardcore.session.store import Batch, StoredSession

ROOT = Path(__file__).resolve().parent.parent
needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd")

# --- helpers ---------------------------------------------------------------------------------


@contextlib.contextmanager
def _streams(**streams: Any) -> Iterator[None]:
    saved = {name: getattr(sys, name) for name in streams}
    for name, stream in streams.items():
        setattr(sys, name, stream)
    try:
        yield
    finally:
        for name, stream in saved.items():
            setattr(sys, name, stream)


def _run(argv: list[str]) -> Any:
    """main(argv)'s status, or the BaseException it let out (never let into pytest)."""
    try:
        return main(argv)
    except BaseException as exc:
        return exc


def _record(tmp_path: Path) -> Path:
    game = cardcore.new_game("golf", 2, seed=1)
    for _ in range(4):
        seat = game.to_act[0]
        game.act(seat, str(game.legal_actions(seat)[0]))
    path = tmp_path / "golf.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    return path


def _dead_pipe() -> io.TextIOWrapper:
    read, write = os.pipe()
    os.close(read)
    return io.TextIOWrapper(io.FileIO(write, "w"), encoding="utf-8")


def _fds() -> list[str]:
    found = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            found.append(os.readlink(f"/proc/self/fd/{fd}"))
    return found


# --- broken pipes through rich -----------------------------------------------------------------


@needs_proc
def test_a_broken_pipe_in_a_rich_command_leaks_no_descriptor() -> None:
    gc.collect()
    before = len(_fds())
    for _ in range(3):
        out = _dead_pipe()
        with _streams(stdout=out, stderr=io.StringIO()):
            assert _run(["list"]) == 1
        with contextlib.suppress(OSError):
            out.close()
    gc.collect()
    assert len(_fds()) == before


@needs_proc
def test_a_broken_stderr_pipe_leaves_the_callers_stdout_descriptor_alone(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    out = open(target, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    try:
        inode = os.fstat(out.fileno()).st_ino
        err = _dead_pipe()
        with _streams(stdout=out, stderr=err):
            status = _run(["simulate", "golf", "--games", "2", "--seed", "3", "--json", "-"])
        with contextlib.suppress(OSError):
            err.close()
        assert status == 1
        assert os.fstat(out.fileno()).st_ino == inode  # still the caller's file
    finally:
        with contextlib.suppress(OSError):
            out.close()


# --- the caller's standard input, put back ----------------------------------------------------


def test_play_reads_stdin_leniently_as_documented() -> None:
    # docs/cli.rst "From scripts": play reads standard input leniently (an undecodable byte
    # reads as U+FFFD, so a bad byte never loses the lines read with it) and leaves it so:
    # a stream read from cannot be put back
    stdin = io.TextIOWrapper(io.BytesIO(b"q\n"), encoding="utf-8", errors="strict")
    with _streams(stdin=stdin, stdout=io.StringIO(), stderr=io.StringIO()):
        assert _run(["play", "golf", "--seed", "1", "--no-record"]) == 0
    assert stdin.errors == "replace"


def test_replay_step_puts_an_ascii_stdin_back_after_reading_it(tmp_path: Path) -> None:
    record = _record(tmp_path)
    stdin = io.TextIOWrapper(io.BytesIO(b"\nq\nmore\n"), encoding="ascii", errors="strict")
    with _streams(stdin=stdin, stdout=io.StringIO(), stderr=io.StringIO()):
        assert _run(["replay", str(record), "--step"]) == 0
    assert stdin.errors == "strict"


def test_closed_stdin_play_and_replay_step_leave_with_status_0_and_stdin_stays_none(
    tmp_path: Path,
) -> None:
    record = _record(tmp_path)
    plays = ["play", "golf", "--seed", "1", "--no-record"]
    for argv, said in (
        (plays, "left the game before its end"),
        (["replay", str(record), "--step"], "[1/4]"),
    ):
        out, err = io.StringIO(), io.StringIO()
        with _streams(stdin=None, stdout=out, stderr=err):
            status = _run(argv)
            after = sys.stdin
        assert status == 0, err.getvalue()
        assert after is None
        assert said in out.getvalue()


def test_an_unexpected_error_raised_out_of_main_still_restores_the_streams(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardcore.cli import commands

    def boom(*args: Any) -> int:
        raise RuntimeError("boom from the review")

    monkeypatch.setattr(commands, "cmd_list", boom)
    monkeypatch.setenv("CARDCORE_TRACEBACK", "1")
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict")
    handler = signal.getsignal(signal.SIGTERM)
    with _streams(stdin=None, stdout=out, stderr=io.StringIO()):
        got = _run(["list"])
        after = sys.stdin
    assert isinstance(got, RuntimeError)
    assert out.errors == "strict"
    assert after is None
    assert signal.getsignal(signal.SIGTERM) is handler


class _Gate(io.StringIO):
    """Standard output that holds a named thread at its first write until released."""

    def __init__(self) -> None:
        super().__init__()
        self.gates: dict[str, tuple[threading.Event, threading.Event]] = {}
        self.lock = threading.Lock()

    def gate(self, name: str) -> tuple[threading.Event, threading.Event]:
        self.gates[name] = (threading.Event(), threading.Event())  # reached, released
        return self.gates[name]

    def write(self, text: str) -> int:
        gate = self.gates.get(threading.current_thread().name)
        if gate is not None and not gate[1].is_set():
            gate[0].set()
            gate[1].wait(10)
        with self.lock:
            return super().write(text)


def test_two_overlapping_main_calls_from_threads_with_stdin_closed(tmp_path: Path) -> None:
    record = _record(tmp_path)
    out, err = _Gate(), io.StringIO()
    got: dict[str, Any] = {}
    reached_a, release_a = out.gate("review-a")
    reached_b, release_b = out.gate("review-b")
    a = threading.Thread(target=lambda: got.__setitem__("a", _run(["list"])), name="review-a")
    b = threading.Thread(
        target=lambda: got.__setitem__("b", _run(["replay", str(record), "--step"])),
        name="review-b",
    )
    with _streams(stdin=None, stdout=out, stderr=err):
        try:
            a.start()
            assert reached_a.wait(10)
            b.start()
            assert reached_b.wait(10)
            release_a.set()
            a.join(15)
        finally:
            release_a.set()
            release_b.set()
            b.join(15)
    assert got == {"a": 0, "b": 0}, err.getvalue()


# --- SIGTERM from scripts ------------------------------------------------------------------------


def test_sigterm_at_the_play_prompt_on_a_never_ending_pipe_saves_and_is_143(tmp_path: Path) -> None:
    """``sleep 30 | cardcore play golf`` stopped by ``kill`` (``timeout --preserve-status``:
    plain ``timeout`` reports its own 124)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcore", "play", "golf", "--seed", "1"],
        stdin=subprocess.PIPE,  # kept open, never written: a pipe that never ends
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        seen = b""
        assert proc.stdout is not None
        while b"Player 1> " not in seen:
            chunk = proc.stdout.read1(4096)
            assert chunk, seen[-300:]
            seen += chunk
        proc.send_signal(signal.SIGTERM)
        rest, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 143
    text = err.decode()
    assert text.strip().splitlines()[-1] == "terminated"
    assert "record saved to cardcore-golf-1.json" in (seen + rest).decode()
    assert (tmp_path / "cardcore-golf-1.json").is_file()


# --- SQLiteStore's mark --------------------------------------------------------------------------


def test_a_status_only_commit_after_another_writers_meta_change_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    a = SQLiteStore(path)
    a.create(StoredSession("s", "playing", 0.0, {"m": 1}))
    a.commit("s", Batch("playing", 5.0))  # meta None: the row's meta kept
    b = SQLiteStore(path)
    loaded = b.load("s")
    assert loaded is not None and loaded.meta == {"m": 1}
    b.commit("s", Batch("playing", 5.0, meta={"m": 2}))  # same time, same status, no action
    with pytest.raises(StoreError, match="another writer"):
        a.commit("s", Batch("playing", 6.0))
    a.close()
    b.close()


def test_a_commit_that_fails_mid_transaction_leaves_the_mark_and_the_retry_writes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "r.db"
    a = SQLiteStore(path)
    a.create(StoredSession("s", "playing", 0.0, {"m": 1}))
    a.commit("s", Batch("playing", 1.0, actions=[(0, 0, "flip 0", None)]))
    twice = [(1, 0, "flip 1", None), (1, 0, "flip 1", None)]  # the same index twice
    with pytest.raises(StoreError, match="UNIQUE"):
        a.commit("s", Batch("over", 2.0, meta={"m": 2}, actions=twice))
    kept = a.load("s")
    assert kept is not None and (kept.status, kept.meta, len(kept.actions)) == (
        "playing",
        {"m": 1},
        1,
    )
    a.commit("s", Batch("over", 2.0, meta={"m": 2}, actions=twice[:1]))
    again = SQLiteStore(path).load("s")
    assert again is not None and (again.status, again.meta, len(again.actions)) == (
        "over",
        {"m": 2},
        2,
    )
    a.close()


def test_two_stores_taking_turns_after_each_load_are_never_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    a, b = SQLiteStore(path), SQLiteStore(path)
    a.create(StoredSession("s", "waiting", 0.0, {"m": 0}))
    for i in range(1, 5):
        store = a if i % 2 else b
        assert store.load("s") is not None
        store.commit("s", Batch("playing", 1.0, meta=None if i % 2 else {"m": i}))
    a.close()
    b.close()


# --- importlib.metadata, lazily ------------------------------------------------------------------


def test_import_cardcore_leaves_importlib_metadata_unloaded_and_finds_a_later_plugin() -> None:
    """A distribution put on the path after ``import cardcore``, before the first lookup,
    is found; the backport's EntryPoint registers and loads too."""
    with tempfile.TemporaryDirectory() as where:
        dist = Path(where, "rv_night_agent-1.0.dist-info")
        dist.mkdir()
        (dist / "METADATA").write_text(
            "Metadata-Version: 2.1\nName: rv-night-agent\nVersion: 1.0\n"
        )
        (dist / "entry_points.txt").write_text("[cardcore.agents]\nrv-night = rv_night_pkg:Agent\n")
        Path(where, "rv_night_pkg.py").write_text(
            "from cardcore.agents import RandomAgent as Agent\n"
        )
        code = (
            "import sys\n"
            "import cardcore\n"
            "print('loaded' if 'importlib.metadata' in sys.modules else 'unloaded')\n"
            f"sys.path.insert(0, {where!r})\n"
            "print('rv-night' in cardcore.available_agents())\n"
            "print('importlib.metadata' in sys.modules)\n"
            "try:\n"
            "    import importlib_metadata\n"
            "except ImportError:\n"
            "    print('no backport')\n"
            "else:\n"
            "    ep = importlib_metadata.EntryPoint('rv-bp', 'rv_night_pkg:Agent', 'cardcore.agents')\n"
            "    from cardcore import _registrations\n"
            "    print(_registrations.is_entry_point(ep))\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=False
        )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split()
    assert lines[:3] == ["unloaded", "True", "True"]
    assert lines[3] in ("True", "no")


# --- packaging -----------------------------------------------------------------------------------


def test_packaging_names_the_licence_markdown_it_and_ships_what_the_tests_read() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert any(
        dep.startswith("markdown-it-py")
        for dep in project["project"]["optional-dependencies"]["cli"]
    )
    assert "License :: OSI Approved :: MIT License" in project["project"]["classifiers"]
    include = project["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    for name in ("LICENSE", "scripts", ".ci"):
        assert name in include
        assert (ROOT / name).exists()
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in licence
