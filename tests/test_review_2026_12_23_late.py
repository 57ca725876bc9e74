"""Review of 6a5c0ae, 28e6413 and 6b4d184: the cardcore command from scripts and embedded
in-process (SIGTERM, closed, full and non-UTF-8 streams, broken pipes), SQLiteStore's
other-writer mark, and ``cardcore serve``'s lock on its ``--db``.

Strict xfails mark what is wrong today; the other tests pin the claims that held. Every
deal is seeded; no test starts a server that keeps running (each ``serve`` here stops at
its lock or at a port already in use).
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore.cli import main
from cardcore.session import Hub, SQLiteStore, StoreError
from cardcore.session.store import Batch, StoredSession
from tests.session.kit import table

# --- helpers ---------------------------------------------------------------------------------


@contextlib.contextmanager
def _term_guard() -> Iterator[list[int]]:
    """A SIGTERM handler of the test's own, so a SIGTERM main() does not catch never kills
    pytest (main() saves and restores whatever handler it finds)."""
    caught: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda signum, frame: caught.append(signum))
    try:
        yield caught
    finally:
        signal.signal(signal.SIGTERM, before)


class _TermOnRead:
    """A standard input whose first read is interrupted by SIGTERM (``kill``, ``timeout``)."""

    def readline(self, *args: Any) -> str:
        os.kill(os.getpid(), signal.SIGTERM)
        return "q\n"

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise io.UnsupportedOperation("fileno")


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


def _record(tmp_path: Path) -> Path:
    game = cardcore.new_game("golf", 2, seed=1)
    for _ in range(4):
        seat = game.to_act[0]
        game.act(seat, str(game.legal_actions(seat)[0]))
    path = tmp_path / "golf.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    return path


def _run(argv: list[str]) -> Any:
    """main(argv)'s status, or the BaseException it let out (KeyboardInterrupt must never
    reach pytest: it would stop the whole run)."""
    try:
        return main(argv)
    except BaseException as exc:
        return exc


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd")


# --- SIGTERM -----------------------------------------------------------------------------


def test_sigterm_handler_is_restored_after_each_in_process_call(tmp_path: Path) -> None:
    with _term_guard():
        mine = signal.getsignal(signal.SIGTERM)
        for argv in (["list"], ["rules", "golf"], ["replay", str(_record(tmp_path)), "--final"]):
            with _streams(stdout=io.StringIO(), stderr=io.StringIO()):
                assert main(argv) == 0
            assert signal.getsignal(signal.SIGTERM) is mine


def test_main_from_a_worker_thread_runs_and_leaves_sigterm_alone() -> None:
    before = signal.getsignal(signal.SIGTERM)
    got: list[Any] = []
    out = io.StringIO()
    with _streams(stdout=out, stderr=io.StringIO()):
        worker = threading.Thread(target=lambda: got.append(_run(["list"])))
        worker.start()
        worker.join(15)
    assert got == [0]
    assert "golf" in out.getvalue()
    assert signal.getsignal(signal.SIGTERM) is before


def test_sigterm_at_the_replay_step_prompt_is_status_143(tmp_path: Path) -> None:
    record = _record(tmp_path)
    err = io.StringIO()
    with _term_guard() as caught, _streams(stdin=_TermOnRead(), stdout=io.StringIO(), stderr=err):
        status = _run(["replay", str(record), "--step"])
    assert caught == []  # main()'s handler took it
    assert status == 143
    assert "terminated" in err.getvalue()


def test_sigterm_at_the_play_prompt_is_status_143() -> None:
    err = io.StringIO()
    with _term_guard(), _streams(stdin=_TermOnRead(), stdout=io.StringIO(), stderr=err):
        status = _run(["play", "golf", "--seed", "1", "--no-record"])
    assert status == 143
    assert "terminated" in err.getvalue()


class _TermOnLastFlush(io.StringIO):
    """Standard output whose final flush (main()'s own, after the command) is interrupted by
    SIGTERM, as a flush blocked on a full pipe whose reader stalled is."""

    def flush(self) -> None:
        if sys._getframe(1).f_code.co_name == "_flushed":
            os.kill(os.getpid(), signal.SIGTERM)
        super().flush()


def test_sigterm_during_the_final_flush_is_status_143() -> None:
    err = io.StringIO()
    with _term_guard(), _streams(stdout=_TermOnLastFlush(), stderr=err):
        status = _run(["list"])
    assert status == 143
    assert "terminated" in err.getvalue()


# --- streams -----------------------------------------------------------------------------


def test_an_ascii_strict_stream_writes_escapes_and_latin1_cp1252_keep_their_letters() -> None:
    for encoding in ("ascii", "latin-1", "cp1252"):
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding=encoding, errors="strict")
        with _streams(stdout=out, stderr=io.StringIO()):
            assert main(["rules", "golf"]) == 0
        out.flush()
        text = raw.getvalue().decode(encoding)
        assert "GOLF-SCORE-6" in text
        if encoding == "ascii":
            assert "\\u2022" in text  # the bullet, escaped


def test_a_c_locale_stream_writes_escapes() -> None:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii", errors="surrogateescape")
    err = io.StringIO()
    with _streams(stdout=out, stderr=err):
        status = _run(["rules", "golf"])
    assert status == 0, err.getvalue()
    out.flush()
    assert "\\u2022" in raw.getvalue().decode("ascii")


def test_main_leaves_the_process_streams_as_it_found_them() -> None:
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict")
    with _streams(stdin=None, stdout=out, stderr=io.StringIO()):
        assert main(["list"]) == 0
        after_stdin = sys.stdin
    assert out.errors == "strict"
    assert after_stdin is None


def _dead_pipe() -> io.TextIOWrapper:
    read, write = os.pipe()
    os.close(read)
    return io.TextIOWrapper(io.FileIO(write, "w"), encoding="utf-8")


@needs_proc
def test_a_broken_pipe_leaks_no_descriptor() -> None:
    before = _fds()
    for _ in range(3):
        out = _dead_pipe()
        with _streams(stdout=out, stderr=io.StringIO()):
            assert _run(["--version"]) == 1
        with contextlib.suppress(OSError):
            out.close()
    assert _fds() == before


def test_a_broken_pipe_during_a_command_returns_1() -> None:
    out = _dead_pipe()
    with _streams(stdout=out, stderr=io.StringIO()):
        status = _run(["list"])
    with contextlib.suppress(OSError):
        out.close()
    assert status == 1


def test_under_capsys_output_is_captured_and_streams_untouched(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stdout = sys.stdout
    assert main(["rules", "golf"]) == 0
    assert sys.stdout is stdout
    assert "GOLF-SCORE-6" in capsys.readouterr().out


def test_under_capfd_output_is_captured(capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    assert main(["--version"]) == 0
    out = capfd.readouterr().out
    assert "golf" in out and cardcore.__version__ in out


def test_a_closed_stdout_is_refused_and_help_into_a_full_stream_is_status_1() -> None:
    err = io.StringIO()
    with _streams(stdout=None, stderr=err):
        assert main(["list"]) == 1
    assert "standard output is closed" in err.getvalue()
    if os.path.exists("/dev/full"):
        full = open("/dev/full", "w", encoding="utf-8")  # noqa: SIM115 (closed below, failing)
        with _streams(stdout=full, stderr=io.StringIO()):
            assert _run(["--help"]) == 1
            assert _run(["--version"]) == 1
            assert _run(["list"]) == 1
        with contextlib.suppress(OSError):
            full.close()


# --- SQLiteStore's mark --------------------------------------------------------------------


def _step(t: Any) -> None:
    """The seat to act plays its first legal action, at the same time as every other commit."""
    conn = next(c for c in "ab" if t.legal(c))
    t.act(conn, t.legal(conn)[0])


def test_no_false_refusal_two_stores_one_file_same_times_close_reopen(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    t1 = table("golf", store=SQLiteStore(path))
    t2 = table("golf", store=SQLiteStore(path))
    t3 = table("golf", store=t1.session.store)  # a second session in the first store
    for _ in range(3):
        _step(t1)
        _step(t2)
        _step(t3)
        t1.tick()  # status-only commits, same time
        t2.tick()
    for t in (t1, t2, t3):
        assert t.session.store_error is None
    t1.session.close(t1.now)
    assert t1.session.store_error is None
    t1.session.store.close()  # type: ignore[union-attr]
    t2.session.store.close()  # type: ignore[union-attr]
    hub = Hub(SQLiteStore(path))
    assert hub.resume_all(1.0) == []
    assert {t2.session.id, t3.session.id} <= set(hub.sessions)
    for t in (t2, t3):
        t.restart(hub.sessions[t.session.id])
        t.join("a", 0)
        t.join("b", 1)
        _step(t)
        assert t.session.store_error is None
        assert t.session.game is not None and t.session.game.version == 4


def test_another_writer_with_a_new_time_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "two.db"
    a = SQLiteStore(path)
    a.create(StoredSession("s", "playing", 0.0, {"m": 1}))
    a.commit("s", Batch("playing", 5.0, actions=[(0, 0, "flip 0", None)]))
    b = SQLiteStore(path)
    assert b.load("s") is not None
    b.commit("s", Batch("playing", 6.0, meta={"m": 2}))  # no action: only the time says it
    with pytest.raises(StoreError, match="another writer"):
        a.commit("s", Batch("playing", 7.0, actions=[(1, 1, "flip 1", None)]))


def test_another_writer_with_the_same_time_and_no_action_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "same.db"
    a = SQLiteStore(path)
    a.create(StoredSession("s", "playing", 0.0, {"m": 1}))
    a.commit("s", Batch("playing", 5.0, actions=[(0, 0, "flip 0", None)]))
    b = SQLiteStore(path)
    assert b.load("s") is not None
    b.commit("s", Batch("over", 5.0, meta={"m": 2}))
    with pytest.raises(StoreError, match="another writer"):
        a.commit("s", Batch("playing", 6.0, actions=[(1, 1, "flip 1", None)]))


# --- cardcore serve's lock -------------------------------------------------------------------


@contextlib.contextmanager
def _busy_port() -> Iterator[int]:
    """A port already listened on: a serve that gets past its lock stops at bind (status 2)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    try:
        yield sock.getsockname()[1]
    finally:
        sock.close()


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)


def _free(path: Path) -> bool:
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


def test_serve_sees_the_lock_through_a_relative_path_and_a_symlink(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("uvicorn")
    db = tmp_path / "games.db"
    (tmp_path / "link.db").symlink_to(db)
    monkeypatch.chdir(tmp_path)
    with _locked(db), _busy_port() as port:
        for name in ("games.db", "link.db", str(db)):
            err = io.StringIO()
            with _streams(stderr=err):
                assert main(["serve", "--db", name, "--port", str(port)]) == 2
            assert "in use by another cardcore serve" in err.getvalue()


def test_a_serve_that_fails_to_start_releases_its_lock(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    db = tmp_path / "games.db"
    with _busy_port() as port, _streams(stderr=io.StringIO()):
        assert main(["serve", "--db", str(db), "--port", str(port)]) == 2
    assert _free(db)
