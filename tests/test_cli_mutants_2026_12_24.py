"""A mutation audit of the cardcore command (2026-12-24: 37 mutants of exit statuses, seeds,
--workers, --quiet, JSON fields, replay, play's screen, verify; 15 real survivors): each test
here pins a behaviour no other test did."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import cli


def _run(
    argv: list[str], capsys: Any, monkeypatch: pytest.MonkeyPatch, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    capsys.readouterr()
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_json_names_the_default_seed_0(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "golf", "--games", "3", "--quiet", "--json", "-"]
    code, out, err = _run(argv, capsys, monkeypatch)
    assert code == 0, err
    assert json.loads(out)["seed"] == 0


def test_quiet_hides_the_progress_bar_even_in_a_terminal(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich: this stream is a terminal
    code, out, err = _run(["simulate", "golf", "--games", "40", "--quiet"], capsys, monkeypatch)
    assert code == 0, err
    assert "on this process" not in out + err
    code, out, err = _run(["simulate", "golf", "--games", "40"], capsys, monkeypatch)
    assert code == 0, err
    assert "on this process" in out + err  # (so the check above can fail)


def test_compare_quiet_hides_the_progress_bar_even_in_a_terminal(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    argv = ["compare", "golf", "--rules", "golf.jokers", "--games", "4", "--skill", "none"]
    code, out, err = _run([*argv, "--quiet"], capsys, monkeypatch)
    assert code == 0, err
    assert "A vs B on this process" not in out + err
    code, out, err = _run(argv, capsys, monkeypatch)
    assert code == 0, err
    assert "A vs B on this process" in out + err


def test_sigterm_stops_simulate_with_status_143_and_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "100"}
    err = tmp_path / "err.txt"
    code = (
        "import sys, cardcore.cli, cardcore.cli.args, rich.console;"
        " print('started', file=sys.stderr, flush=True); sys.exit(cardcore.cli.main(sys.argv[1:]))"
    )
    argv = [sys.executable, "-c", code, "simulate", "golf", "--games", "100000", "--quiet"]
    with err.open("w") as errf:
        proc = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=errf, stdin=subprocess.DEVNULL, env=env
        )
        try:  # the imports done (a loaded machine is slow), then into the games
            deadline = time.monotonic() + 60
            while b"started" not in err.read_bytes() and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(1.5)  # past parsing the arguments: SIGTERM's handler is set
            proc.send_signal(signal.SIGTERM)
            status = proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert status == 143
    assert err.read_text() == "started\nterminated\n"


class _LeftReader(io.StringIO):
    """Standard output piped to a reader that left (``| head``): the last flush breaks."""

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_reader_that_leaves_early_ends_the_command_with_status_1(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "r.json"
    record.write_text(json.dumps(cardcore.new_game("golf", ["A", "B"], seed=7).record()))
    monkeypatch.setattr(sys, "stdout", _LeftReader())
    capsys.readouterr()
    status = cli.main(["verify", str(record)])  # plain text, flushed at the end
    err = capsys.readouterr().err
    assert status == 1  # docs/cli.rst: "ends the command quietly with status 1"
    assert err == ""


def test_simulate_json_names_the_rules_added_and_the_rules_switched_off(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "golf", "--rules", "golf.jokers", "--games", "3", "--quiet"]
    code, out, err = _run([*argv, "--json", "-"], capsys, monkeypatch)
    assert code == 0, err
    data = json.loads(out)
    assert data["rules"] == ["golf.jokers"]
    assert data["without"] == []


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "golf", "--games", "4", "--workers", "2", "--quiet"],
        [
            "compare",
            "golf",
            "--rules",
            "golf.jokers",
            "--games",
            "2",
            "--skill",
            "none",
            "--workers",
            "2",
            "--quiet",
        ],
    ],
    ids=["simulate", "compare"],
)
def test_workers_runs_the_games_on_that_many_processes(
    argv: list[str], capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardcore.cli import commands

    asked = []
    real = commands.process_pool

    def spy(stack: Any, workers: int, *rest: Any, **kw: Any) -> Any:
        asked.append(workers)
        return real(stack, workers, *rest, **kw)

    monkeypatch.setattr(commands, "process_pool", spy)
    code, _out, err = _run(argv, capsys, monkeypatch)
    assert code == 0, err
    assert asked == [2]


def test_summary_table_shows_each_seats_figures_as_the_json_holds_them(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.json"
    argv = ["simulate", "golf", "--games", "7", "--seed", "0", "--quiet", "--json", str(path)]
    code, out, err = _run(argv, capsys, monkeypatch)
    assert code == 0, err
    data = json.loads(path.read_text())
    rows = [line for line in out.splitlines() if "random" in line]
    assert len(rows) == data["players"] == 4
    for seat, row in enumerate(rows):
        cells = [c.strip() for c in row.replace("┃", "│").split("│") if c.strip()]
        assert cells[0] == str(seat)
        assert cells[2] == f"{round(data['wins'][seat], 2):g}"
        assert cells[3] == f"{data['win_rates'][seat]:.1%}"  # 14.3%, not 14%
        assert cells[4] == f"{data['mean_scores'][seat]:.2f}"
        assert cells[5] == f"{data['sd_scores'][seat]:.2f}"


def test_play_screen_marks_you_and_the_seat_to_act(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "golf", "--seed", "7", "-o", "rounds=1", "--seat", "1", "--no-record"]
    code, out, err = _run(argv, capsys, monkeypatch, "flip 0\nflip 3\nquit\n")
    assert code == 0, err
    assert "you are Player 2 (seat 1)" in out
    assert "> 1: Player 2 (you)" in out  # your row: yours and to act (you are prompted)
    assert "(you)" not in out.replace("Player 2 (you)", "")
    assert "> 0:" not in out  # the bot's row is never to act at your prompt


def test_verify_refuses_a_bundle_whose_commitment_is_not_the_one_noted(
    tmp_path: Path, capsys: Any
) -> None:
    from tests.session.test_fair import _finished

    bundle = _finished().mirrors["a"].bundle
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")
    noted = bundle["commitment"]
    other = ("1" if noted[0] != "1" else "2") + noted[1:]  # well formed, but another one
    capsys.readouterr()
    assert cli.main(["verify", str(path), "--commitment", other]) == 1  # does not verify: 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"error: {str(path)!r}: ") and err.count("\n") == 1


def test_verify_of_a_plain_record_with_a_commitment_does_not_verify(
    tmp_path: Path, capsys: Any
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(cardcore.new_game("golf", ["A", "B"], seed=7).record()))
    capsys.readouterr()
    assert cli.main(["verify", str(path), "--commitment", "ab" * 32]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "no commitment to compare" in err and err.count("\n") == 1


def test_compare_plays_the_study_on_the_seed_given(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["compare", "golf", "--rules", "golf.jokers", "--games", "2", "--skill", "none",
            "--seed", "5", "--quiet", "--json", "-"]  # fmt: skip
    code, out, err = _run(argv, capsys, monkeypatch)
    assert code == 0, err
    assert json.loads(out)["seed"] == 5
    assert "seed 5" in " ".join(err.split())  # the table's title (on stderr beside --json -)


def test_replay_step_stops_at_q_whatever_follows(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7, options={"rounds": 1})
    for seat, move in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
        game.act(seat, move)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    code, out, err = _run(["replay", str(path), "--step"], capsys, monkeypatch, "\nq\n\n\n")
    assert code == 0, err
    assert "#1 Ann: flip 0" in out
    assert "#2" not in out and "#3" not in out and "#4" not in out


def test_a_yes_no_option_value_is_read_as_a_bool() -> None:
    from cardcore.cli.args import _convert  # what -o KEY=VALUE gives a bool option

    assert _convert("yes", bool, False) is True
    assert _convert("On", bool, False) is True
    assert _convert("0", bool, False) is False
    assert _convert("none", bool, True) is None
