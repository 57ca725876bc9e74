"""``cardcore serve`` as a process: what a hostile HTTP client meets before the app."""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardcore.cli.serve import MAX_HEAD


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    db: Path = tmp_path_factory.mktemp("limits") / "games.db"
    cli = "import sys; from cardcore.cli import main; sys.exit(main())"
    proc = subprocess.Popen(
        [sys.executable, "-c", cli, "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, f"cardcore serve did not start: {line!r}"
        yield "127.0.0.1", int(found.group(1))
    finally:
        proc.terminate()
        proc.wait(10)


def _ask(address: tuple[str, int], head: bytes) -> bytes:
    with socket.create_connection(address, timeout=20) as sock:
        with contextlib.suppress(OSError):  # the server may close while the head is sent
            sock.sendall(head)
        got = b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except OSError:
            pass
        return got


def test_a_request_with_a_huge_header_is_refused_not_read_whole(address: tuple[str, int]) -> None:
    """A 4 MB header used to be read (and held) in full; the head is bounded now."""
    big = b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * (4 * MAX_HEAD) + b"\r\n\r\n"
    got = _ask(address, big)
    assert not got.startswith(b"HTTP/1.1 200"), got[:80]
    assert got == b"" or re.match(rb"HTTP/1\.1 4\d\d", got), got[:80]
    ok = _ask(address, b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert ok.startswith(b"HTTP/1.1 200")  # an ordinary request still is served
