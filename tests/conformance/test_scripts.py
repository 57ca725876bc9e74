"""Smoke tests of the long conformance run and the mutation workspace builder."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        f"_script_{name}", ROOT / "scripts" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # worker processes unpickle its functions by module name
    spec.loader.exec_module(module)
    return module


def test_conformance_long_counts_everything(capsys: pytest.CaptureFixture[str]) -> None:
    long = _script("conformance_long")
    code = long.main(["--games", "24", "--workers", "1", "--chunk", "6", "--full-every", "2"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "bad inputs" in out and "cards lost" in out and "leaks" in out
    assert "positions" in out and "vetoed" in out and "scored rounds" in out
    total = next(line for line in out.splitlines() if line.startswith("total"))
    games, actions, tried, rejected, lost, leaks, raw, failed = (
        int(x) for x in total.split()[1:]
    )
    assert games == 24 and actions > games
    assert tried == rejected > 0
    assert lost == leaks == raw == failed == 0


def test_conformance_long_reports_a_raw_exception_as_a_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    long = _script("conformance_long")

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("raw")

    monkeypatch.setattr(long, "check_game", broken)
    name, report = long.run_task(("golf", 2, (), (), {}, 1, 0), 1)
    assert name == "golf" and report.raw == 1 and report.failed == 1


def test_conformance_long_plans_every_game_and_rule() -> None:
    long = _script("conformance_long")
    tasks = list(long.plan(1000, 0, 50, long.DEFAULT_SHARES))
    assert sum(t[5] for t in tasks) >= 990
    games = {t[0] for t in tasks}
    assert {"golf", "tonk", "spit", "speed"} <= games
    assert any(t[2] for t in tasks if t[0] == "golf")  # golf house rules are in the plan


def test_mutation_workspace_is_outside_the_checkout(tmp_path: Path) -> None:
    mutation = _script("mutation")
    ws = mutation.workspace("tonk", tmp_path)
    cfg = (ws / "setup.cfg").read_text()
    assert "[mutmut]" in cfg and "src/cardcore_tonk/melds.py" in cfg
    assert "tests/conformance/test_mutation_tonk.py" in cfg
    assert (ws / "src" / "cardcore_tonk" / "melds.py").exists()
    assert not (ROOT / "mutants").exists()
