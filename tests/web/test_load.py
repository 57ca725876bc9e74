"""benchmarks/load_web.py at N=10 against a real ``cardcore serve`` (loopback, bounded)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")
pytest.importorskip("uvicorn")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "load_web.py"


def test_load_ten_games_over_websockets() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "10", "--timeout", "120"],
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["games"] == 10 and result["actions"] > 100
    assert result["games_per_s"] > 0 and result["p99_ms"] >= result["p50_ms"] > 0
