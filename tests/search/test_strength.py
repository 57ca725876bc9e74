"""The small strength run of ``benchmarks/strength.py``: ISMCTS beats random play, significantly.

The full run (400 duplicate deals per pairing, against the heuristic agents too) makes the
table in ``docs/search-agents.rst``; this one keeps the script from rotting and the claim honest.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _strength() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_strength", BENCH / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # the worker-free run needs no pickling, but be tidy
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["golf", "tonk"])
def test_ismcts_beats_random_with_significance(game: str) -> None:
    strength = _strength()
    small = strength.SMALL
    row = strength.pairing(game, small["budgets"][0], "random", deals=small["deals"], seed=0)
    assert row["games"] == 2 * small["deals"]
    assert row["margin"]["low"] > 0.0, row  # the 95% interval of the margin excludes zero
    assert row["win_rate"]["low"] > 0.5, row
    assert row["decisions_per_s"] > 0.0


def test_the_table_and_the_json_are_written(tmp_path: Path) -> None:
    strength = _strength()
    out = tmp_path / "rows.json"
    assert (
        strength.main(
            [
                "--games",
                "golf",
                "--deals",
                "2",
                "--budgets",
                "3",
                "--opponents",
                "random",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    assert out.exists() and "golf" in out.read_text()
    plot = tmp_path / "rows.png"
    pytest.importorskip("matplotlib")
    assert strength.main(["--from-json", str(out), "--plot", str(plot)]) == 0  # plays nothing
    assert plot.stat().st_size > 0
