"""Tests of the ``cardcore`` command: list, simulate, play (through a pseudo-terminal), replay."""

from __future__ import annotations

import json
import os
import pty
import random
import re
import select
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

import cardcore
from cardcore import cli

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


GOLF = "golf"  # a built-in turn-based game (entry point, so subprocesses see it too)
SPEED = "speed"  # a built-in real-time game


def _turn_based_game() -> str:
    return GOLF


def _realtime_game() -> str | None:
    return SPEED if SPEED in cardcore.available_games() else None


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


# -- list ---------------------------------------------------------------------------------------


def test_list_shows_every_game_rule_id_and_agent(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for game in cardcore.available_games():
        assert game in out
        assert cardcore.game_info(game).summary.split()[0] in out
        for rule in cardcore.available_rules(game):
            info = cardcore.rule_info(rule)
            assert rule in out
            assert info.id in out
            for other in info.conflicts:
                assert other in out
    for agent in cardcore.available_agents():
        assert agent in out


def test_no_arguments_prints_overview_and_first_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert f"cardcore simulate {cli._default_game()}" in out
    assert "games" in out and "agents" in out


def test_unknown_game_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "no-such-game", "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert "no game called 'no-such-game'" in err
    assert "installed:" in err


# -- options ------------------------------------------------------------------------------------


def test_parse_options_converts_to_declared_types() -> None:
    game = _turn_based_game()
    info = cardcore.game_info(game)
    ints = [o for o in info.options if o.kind is int]
    if not ints:
        pytest.skip("no int option to convert")
    opt = ints[0]
    assert cli.parse_options(game, [f"{opt.name}=3"]) == {opt.name: 3}
    with pytest.raises(cardcore.OptionError, match=opt.name):
        cli.parse_options(game, [f"{opt.name}=three"])
    with pytest.raises(cardcore.OptionError, match="KEY=VALUE"):
        cli.parse_options(game, ["novalue"])


# -- simulate -----------------------------------------------------------------------------------


def test_simulate_default_prints_summary_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "--games", "40"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "mean score" in out and "sd score" in out
    assert "truncated" in out and "mean game length" in out
    assert f"{cli._default_game()}: 40 games" in out


def test_simulate_json_to_stdout_equals_library_summary(capsys: pytest.CaptureFixture[str]) -> None:
    game = _turn_based_game()
    assert (
        cli.main(
            [
                "simulate",
                game,
                "--games",
                "12",
                "--players",
                "2",
                "--seed",
                "5",
                "--json",
                "-",
                "-q",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    expected = cardcore.simulate(game, games=12, players=2, seed=5).to_json()
    assert {k: data[k] for k in expected} == expected
    assert data["seed"] == 5


def test_simulate_json_file_and_agents_list(tmp_path: Path) -> None:
    game = _turn_based_game()
    out = tmp_path / "summary.json"
    assert (
        cli.main(
            ["simulate", game, "-n", "6", "--agents", "random,random", "--json", str(out), "-q"]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert data["players"] == 2 and data["agents"] == ["random", "random"] and data["games"] == 6


def test_simulate_same_summary_whatever_executor() -> None:
    game = _turn_based_game()
    kw = {"games": 24, "players": 3, "seed": 11, "chunk": 5}
    alone = cardcore.simulate(game, **kw).to_json()  # type: ignore[arg-type]
    with ThreadPoolExecutor(2) as threads:
        assert cardcore.simulate(game, executor=threads, **kw).to_json() == alone  # type: ignore[arg-type]
    with ProcessPoolExecutor(1) as one:
        assert cardcore.simulate(game, executor=one, **kw).to_json() == alone  # type: ignore[arg-type]
    with ProcessPoolExecutor(2) as two:
        assert cardcore.simulate(game, executor=two, **kw).to_json() == alone  # type: ignore[arg-type]


def test_simulate_workers_flag_matches_single_process(capsys: pytest.CaptureFixture[str]) -> None:
    game = _turn_based_game()
    args = ["simulate", game, "-n", "20", "-p", "2", "--seed", "3", "--json", "-", "-q"]
    assert cli.main(args) == 0
    alone = json.loads(capsys.readouterr().out)
    assert cli.main([*args, "--workers", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == alone


def test_simulate_a_different_seed_changes_the_summary() -> None:
    game = _turn_based_game()
    a = cardcore.simulate(game, games=10, players=2, seed=1).to_json()
    b = cardcore.simulate(game, games=10, players=2, seed=2).to_json()
    assert a != b


# -- replay -------------------------------------------------------------------------------------


def _short_record(tmp_path: Path) -> tuple[Path, cardcore.Game]:
    name = _turn_based_game()
    game = cardcore.new_game(name, 2, seed=3, options={"rounds": 1, "max_turns": 4})
    agents = [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]
    cardcore.play(game, agents)
    assert game.is_over and game.result is not None and game.result.reason != "truncated"
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(game.record()))
    return path, game


def test_replay_prints_every_action_and_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, game = _short_record(tmp_path)
    assert cli.main(["replay", str(path), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    entries = game.record_entries()
    for i, (_seat, action, _) in enumerate(entries, 1):
        assert f"#{i} " in out and str(action) in out
    assert f"#{len(entries) + 1} " not in out
    assert "game over" in out
    assert "seat 1" in out


def test_replay_spectator_hides_what_seats_hide(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _short_record(tmp_path)
    assert cli.main(["replay", str(path), "--spectator"]) == 0
    assert "spectator" in capsys.readouterr().out


def test_replay_rejects_a_damaged_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _short_record(tmp_path)
    data = json.loads(path.read_text())
    data["actions"].append([0, "no such action", None])
    path.write_text(json.dumps(data))
    assert cli.main(["replay", str(path)]) == 1
    assert "cannot be replayed" in capsys.readouterr().err


# -- rich is optional for importing ---------------------------------------------------------------


def test_cli_imports_without_rich_and_says_what_to_install() -> None:
    code = "import sys; sys.modules['rich'] = None; import cardcore.cli as c; sys.exit(c.main(['list']))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1
    assert "pip install 'cardcore[cli]'" in proc.stderr


# -- play through a pseudo-terminal ---------------------------------------------------------------


class Terminal:
    """A child process on a pseudo-terminal, read with a deadline."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        master, slave = pty.openpty()
        env = {**os.environ, "COLUMNS": "200", "LINES": "50", "TERM": "xterm"}
        self.proc = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env, close_fds=True
        )
        os.close(slave)
        self.fd = master
        self.text = ""

    def read_until(self, pattern: str, timeout: float = 15.0) -> str:
        """Read until *pattern* (a regex) appears in the output since the last call; return that output."""
        deadline = time.monotonic() + timeout
        start = len(self.text)
        while True:
            clean = ANSI.sub("", self.text[start:])
            if re.search(pattern, clean):
                self.text_mark = len(self.text)
                return clean
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {pattern!r}; got:\n{clean[-3000:]}")
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.2))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    if self.proc.poll() is not None:
                        clean = ANSI.sub("", self.text[start:])
                        if re.search(pattern, clean):
                            return clean
                        raise AssertionError(
                            f"process ended before {pattern!r}; got:\n{clean[-3000:]}"
                        )
                    continue
                self.text += chunk.decode("utf-8", errors="replace")

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=15)
        finally:
            os.close(self.fd)


def _legal_count(screen: str) -> int:
    lines = [ln for ln in screen.splitlines() if ln.startswith("legal: ")]
    assert lines, screen
    return len(re.split(r"\s{3,}", lines[-1][len("legal: ") :].strip()))


def test_play_turn_based_game_through_a_pty(tmp_path: Path) -> None:
    game = _turn_based_game()
    info = cardcore.game_info(game)
    opts: list[str] = []
    names = {o.name for o in info.options}
    if "rounds" in names:
        opts += ["-o", "rounds=1"]
    if "max_turns" in names:
        opts += ["-o", "max_turns=6"]
    record = tmp_path / "played.json"
    term = Terminal(
        [
            sys.executable,
            "-m",
            "cardcore.cli",
            "play",
            game,
            "-p",
            "2",
            "--seed",
            "4",
            *opts,
            "--record",
            str(record),
        ],
        tmp_path,
    )
    rng = random.Random(0)
    try:
        screen = term.read_until(r"> $")
        assert "(you)" in screen and "legal: " in screen
        term.send("bogus")
        assert "not understood" in term.read_until(r"> $")
        term.send("999")
        assert "no action number 999" in term.read_until(r"> $")
        term.send("help")
        assert "resign" in term.read_until(r"> $")
        for _ in range(200):
            term.send(str(rng.randrange(_legal_count(screen)) + 1))
            screen = term.read_until(r"> $|record saved")
            if "record saved" in screen:
                break
        else:
            raise AssertionError("the game did not end")
        assert "game over" in screen
    finally:
        assert term.close() == 0
    rec = json.loads(record.read_text())
    replayed = cardcore.replay(rec)
    assert replayed.is_over and replayed.result is not None
    assert replayed.result.to_json() == rec["result"]
    assert any(seat == 0 for seat, _, _ in rec["actions"])
    assert any(seat == 1 for seat, _, _ in rec["actions"])


def test_play_quit_saves_the_unfinished_record(tmp_path: Path) -> None:
    game = _turn_based_game()
    record = tmp_path / "quit.json"
    term = Terminal(
        [
            sys.executable,
            "-m",
            "cardcore.cli",
            "play",
            game,
            "--seed",
            "9",
            "--record",
            str(record),
        ],
        tmp_path,
    )
    try:
        term.read_until(r"> $")
        term.send("quit")
        screen = term.read_until(r"record saved")
        assert "left the game" in screen
    finally:
        assert term.close() == 0
    assert cardcore.replay(record.read_text()).is_over is False


@pytest.mark.skipif(_realtime_game() is None, reason="no real-time game installed")
def test_play_realtime_game_against_a_bot_through_a_pty(tmp_path: Path) -> None:
    game = _realtime_game()
    assert game is not None
    agent = "spit-greedy" if "spit-greedy" in cardcore.available_agents() else "random"
    record = tmp_path / "rt.json"
    term = Terminal(
        [
            sys.executable,
            "-m",
            "cardcore.cli",
            "play",
            game,
            "--seed",
            "2",
            "--agent",
            agent,
            "--bot-speed",
            "0.5",
            "--record",
            str(record),
        ],
        tmp_path,
    )
    try:
        screen = term.read_until(r"legal: ")
        assert "real time" in screen
        term.read_until(
            r"\S+ 1: .+ at \d+\.\d\d s", timeout=20
        )  # the bot moves on its own, on the clock
        term.send("bogus")
        term.read_until(r"not understood|illegal")
        term.send("resign")
        screen = term.read_until(r"record saved")
        assert "game over" in screen or "resigned" in screen
    finally:
        assert term.close() == 0
    rec = json.loads(record.read_text())
    assert rec["actions"][-1][:2] == [0, "resign"]
    assert any(seat == 1 and at is not None and at > 0 for seat, _, at in rec["actions"])
    assert cardcore.replay(rec).result.reason == "resigned"  # type: ignore[union-attr]


def test_replay_step_waits_for_enter_and_stops_on_q(tmp_path: Path) -> None:
    path, game = _short_record(tmp_path)
    assert game.version >= 3
    proc = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", "replay", str(path), "--seat", "0", "--step"],
        input="\n\nq\n",
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert proc.returncode == 0, proc.stderr
    out = ANSI.sub("", proc.stdout)
    assert "#1 " in out and "#2 " in out
    assert "#3 " not in out
    assert "[3/" in out  # the third prompt was answered with q


def test_cli_modules_name_no_game() -> None:
    import cardcore._cli_play
    import cardcore._cli_render

    for module in (cli, cardcore._cli_play, cardcore._cli_render):
        text = Path(module.__file__ or "").read_text().lower()
        for game in (GOLF, SPEED, "spit", "tonk"):
            assert f'"{game}' not in text and f"'{game}" not in text, (module.__name__, game)


TURN_ONLY = """
import sys, cardcore, cardcore.cli
class TurnOnly:
    def __init__(self, seed=0):
        self.seed = seed
    def choose(self, view, legal):
        return legal[0]
cardcore.register("cardcore.agents", "turn-only", TurnOnly)
sys.exit(cardcore.cli.main(["play", sys.argv[1], "--agent", "turn-only", "--no-record"]))
"""


@pytest.mark.skipif(_realtime_game() is None, reason="no real-time game installed")
def test_play_refuses_an_agent_that_cannot_play_the_game() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", TURN_ONLY, SPEED],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1
    assert "agent 'turn-only' cannot play real-time games" in proc.stderr
