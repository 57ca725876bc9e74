"""The speed study runs at a small size, and the faster bot wins significantly more."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "spit_speed_study.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("spit_speed_study", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_binomial_p_by_hand() -> None:
    study = _module()
    assert study.binomial_p(10, 10) == pytest.approx(1 / 1024)
    assert study.binomial_p(0, 10) == pytest.approx(1.0)
    assert study.binomial_p(9, 10) == pytest.approx(11 / 1024)


@pytest.mark.parametrize(("game", "games"), [("spit", 30), ("speed", 60)])
def test_spit_rt_2_faster_bot_wins_significantly_more(game: str, games: int) -> None:
    study = _module()
    row = study.play_pairing(game, games, 7, 0.3, 0.9)
    assert row["truncated"] == 0
    assert row["fast_wins"] > row["slow_wins"]
    assert row["p_value"] < 0.01


def test_study_script_prints_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = _module()
    out = tmp_path / "study.json"
    assert study.main(["--games", "4", "--seed", "3", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["games"] == 4 and len(data["rows"]) == 8
    assert "fast wins" in capsys.readouterr().out
