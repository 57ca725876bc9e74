"""Several ``cardcore serve`` processes behind one address: the docs' nginx configuration, run.

Two processes (``CARDCORE_INSTANCE=a`` and ``b``) behind
``docs/_static/two-processes.nginx.conf`` (ports replaced by free ones), and
``benchmarks/load_web.py`` through the proxy: every game is created on some
process and then played on that one (a request sent to the other would find no
such session). Skipped where nginx is not installed (CI does not install it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
if NGINX is None:
    pytest.skip("no nginx", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "docs" / "_static" / "two-processes.nginx.conf"
CLI = "import sys; from cardcore.cli import main; sys.exit(main())"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _serve(name: str, port: int, db: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, CARDCORE_INSTANCE=name)
    cmd = [sys.executable, "-c", CLI, "serve", "--port", str(port), "--db", str(db)]
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    line = proc.stderr.readline()
    assert f":{port}/" in line, line
    return proc


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    ports = {"8000": _free_port(), "8001": _free_port(), "8002": _free_port()}
    text = re.sub(
        r"127\.0\.0\.1:(800[012])", lambda m: f"127.0.0.1:{ports[m[1]]}", CONF.read_text()
    )
    (tmp_path / "nginx.conf").write_text(text)
    procs = [
        _serve("a", ports["8001"], tmp_path / "a.db"),
        _serve("b", ports["8002"], tmp_path / "b.db"),
    ]
    nginx = [NGINX, "-p", str(tmp_path), "-c", "nginx.conf"]
    try:
        subprocess.run([*nginx, "-e", "error.log"], check=True, capture_output=True)
        for _ in range(50):
            if (tmp_path / "nginx.pid").exists():
                break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{ports['8000']}", tmp_path
    finally:
        subprocess.run([*nginx, "-e", "error.log", "-s", "quit"], capture_output=True)
        for proc in procs:
            proc.terminate()
            proc.wait(10)


def test_games_spread_over_two_processes_and_each_is_played_on_its_own(
    proxied: tuple[str, Path],
) -> None:
    base, tmp = proxied
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load_web.py"), "--games", "10", "--url", base],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["games"] == 10 and result["actions"] > 100 and result["refused"] == 0
    counts = {}
    for name in ("a", "b"):
        with sqlite3.connect(tmp / f"{name}.db") as db:
            ids = [row[0] for row in db.execute("SELECT id FROM sessions")]
        assert all(i.startswith(name + "-") for i in ids), ids
        counts[name] = len(ids)
    assert counts["a"] + counts["b"] == 10
