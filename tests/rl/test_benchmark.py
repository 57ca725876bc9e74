"""Smoke test of ``benchmarks/rl_steps.py`` at a tiny size, so it cannot rot (not a timed test)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "rl_steps.py"


def test_the_steps_per_second_benchmark_measures_every_cardcore_environment(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_rl_steps", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "rl.json"
    assert module.main(["--tiny", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    rows = data["rows"]
    ours = [r for r in rows if r["environment"].startswith("cardcore")]
    assert len(ours) == 10 and all(r["steps_per_s"] > 0 for r in ours)
    others = [r for r in rows if not r["environment"].startswith("cardcore")]
    assert others and all((r["steps_per_s"] or 0) > 0 or r["note"].startswith("not importable") for r in others)
    assert data["machine"]["versions"]["pettingzoo"]
