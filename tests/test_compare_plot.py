"""``cardcore compare --plot``: refused up front without matplotlib; a failing plot keeps the results."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

import cardcore
from cardcore import cli
from cardcore.compare import Comparison

ARGV = ["compare", "golf", "-o", "rounds=1", "-n", "2", "--skill", "none", "-q"]


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the games the command plays (none, if it refuses before the study)."""
    played: list[int] = []
    module = importlib.import_module("cardcore.compare")  # the package, not the function
    real = module.compare

    def counting(*args: object, **kwargs: object) -> Comparison:
        played.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "compare", counting)
    return played


def test_plot_without_matplotlib_is_refused_before_any_game(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_games: list[int],
) -> None:
    pytest.importorskip("rich")
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    out, png = tmp_path / "r.json", tmp_path / "r.png"
    assert cli.main([*ARGV, "--plot", str(png), "--json", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "error: --plot needs matplotlib: install it with pip install 'cardcore[plot]'"
        " (in a checkout: pip install -e '.[plot]')"
    )
    assert not no_games and not out.exists() and not png.exists()
    assert cli.main([*ARGV, "--json", str(out)]) == 0  # without --plot it runs (and is counted)
    assert no_games == [1] and out.exists()


def test_a_failing_plot_keeps_the_table_and_the_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rich")
    pytest.importorskip("matplotlib")  # installed: the check up front passes

    def broken(self: Comparison, path: str) -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr(Comparison, "plot", broken)
    out, png = tmp_path / "r.json", tmp_path / "r.png"
    assert cli.main([*ARGV, "--plot", str(png), "--json", str(out)]) == 1
    captured = capsys.readouterr()
    assert "first-seat" in captured.out and "score spread" in captured.out  # the table
    assert json.loads(out.read_text())["game"] == "golf"  # and the JSON written
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "No space left on device" in err
    assert f"the plot {str(png)!r} was not written" in err and str(out) in err


def test_a_failing_plot_keeps_json_on_stdout(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("rich")
    pytest.importorskip("matplotlib")

    def broken(self: Comparison, path: str) -> None:
        raise RuntimeError("broken backend")

    monkeypatch.setattr(Comparison, "plot", broken)
    assert cli.main([*ARGV, "--plot", str(tmp_path / "r.png"), "--json", "-"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["game"] == "golf"
    assert "broken backend" in captured.err


def test_the_api_plot_without_matplotlib_says_which_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    result = cardcore.compare("golf", games=2, options={"rounds": 1}, skill=None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(cardcore.CardcoreError, match=r"cardcore\[plot\]"):
        result.plot(str(tmp_path / "r.png"))
    assert not (tmp_path / "r.png").exists()
