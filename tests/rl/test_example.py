"""The REINFORCE example (``examples/rl/reinforce_golf.py``) runs at a tiny size."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "rl" / "reinforce_golf.py"


def test_the_reinforce_example_trains_and_reports_confidence_intervals() -> None:
    args = ["--iterations", "4", "--batch", "8", "--eval", "20", "--opponents", "random,golf-greedy"]
    proc = subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert "253 observation features, 22 actions" in out
    assert re.search(r"trained on 16 games vs random in [\d.]+ s", out)
    assert re.search(r"trained on 16 games vs golf-greedy in [\d.]+ s", out)
    for label in ("trained vs untrained", "trained vs random", "trained vs golf-greedy", "untrained vs random", "untrained vs golf-greedy"):
        assert re.search(rf"^{label} +win rate [01]\.\d{{3}} \[[01]\.\d{{3}}, [01]\.\d{{3}}\] +margin +[+-]\d+\.\d\d ± \d+\.\d\d points per hole$", out, re.M), label
    assert re.search(r"^trained beats untrained \(95% CI of the win rate above 0\.5\): (yes|not shown at this size)$", out, re.M)
