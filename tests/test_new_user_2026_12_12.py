"""A new user follows README.md, docs/tutorial.rst, docs/examples.rst, docs/index.rst and the
``cardcore`` command's help as written (2026-12-12).

The install part (a fresh venv, ``pip install "/work/main[cli]"`` plus the two example
distributions, non-editable) was done by hand and is reported, not tested here. These tests run
in the dev environment: each checks a promise of those pages, or that a plausible mistake is
refused in one clear line that names it, with no traceback.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore
from cardcore import cli

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def run_py(args: list[str], *, cwd: Path = ROOT, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        input=stdin,
        env={**os.environ, "COLUMNS": "200"},
    )


def cli_run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    capsys.readouterr()
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_clean_error(err: str) -> str:
    """The single ``error:`` line a mistake must produce (no traceback)."""
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    return lines[0]


# -- README.md: "Embedding in 15 lines" runs as shown -------------------------------------------


def test_readme_embedding_snippet_runs_and_golf_lowest_score_wins() -> None:
    text = (ROOT / "README.md").read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.strip().splitlines()) <= 15
    buf = io.StringIO()
    namespace: dict[str, object] = {}
    sys_stdout, sys.stdout = sys.stdout, buf
    try:
        exec(compile(code, "README.md", "exec"), namespace)
    finally:
        sys.stdout = sys_stdout
    line = buf.getvalue().strip()
    assert line.startswith("winners: ")
    game = namespace["game"]
    result = game.result
    # Golf: the lowest total wins (GOLF-SCORE), and the names printed are the winners' seats.
    low = min(result.scores)
    assert {s for s, v in enumerate(result.scores) if v == low} == set(result.winners)
    assert str([game.players[s] for s in result.winners]) in line


# -- docs/index.rst doctest, by hand ---------------------------------------------------------------


def test_index_example_plays_to_the_end_by_rounds() -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    assert game.view(0)["legal"][:3] == ["flip 0", "flip 1", "flip 2"]
    game.act(0, "flip 0")
    result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert game.is_over and result.reason == "rounds"


# -- docs/tutorial.rst: the API round, and "cardcore play golf --seed 7 -o rounds=1 deals this
# very round; type flip 0 or a menu number such as #1" -----------------------------------------


def test_tutorial_out_of_turn_changes_nothing_and_cites_core_turn_1() -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], options={"rounds": 1}, seed=7)
    for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
        game.act(seat, text)
    game.act(0, "draw")
    game.act(0, "replace 1")
    before = (game.version, game.view(None))
    with pytest.raises(cardcore.IllegalActionError, match=r"not seat 0's turn.*\(CORE-TURN-1\)$"):
        game.act(0, "draw")
    assert (game.version, game.view(None)) == before
    result = cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert cardcore.replay(game.record()).result == result


def test_cli_play_seed_7_deals_the_tutorials_round(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    api = cardcore.new_game("golf", ["Ann", "Bob"], options={"rounds": 1}, seed=7)
    api.act(0, "flip 0")
    api.act(0, "flip 3")
    grid = api.view(0)["table"]["grids"][0]
    api.act(1, "flip 0")
    api.act(1, "flip 3")
    api.act(0, "draw")
    held = api.view(0)["table"]["held"]["card"]
    monkeypatch.chdir(tmp_path)
    code, out, err = cli_run(
        ["play", "golf", "--seed", "7", "-o", "rounds=1", "--no-record"],
        capsys,
        monkeypatch,
        "flip 0\n#3\ndraw\nquit\n",  # '#3' is 'flip 3' once 0 is up: menu 1..5 = flip 1..5
    )
    assert code == 0, err
    assert f"0:{grid[0]}" in out and f"3:{grid[3]}" in out
    assert "you: flip 3" in out
    assert f"card: {held}" in out


# -- docs/cli.rst ``cardcore play``: illegal moves typed at the terminal ---------------------------


def test_play_answers_bad_input_with_the_library_error_and_records_only_legal_moves(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "g.json"
    code, out, err = cli_run(
        ["play", "golf", "--seed", "7", "-o", "rounds=1", "--record", str(record)],
        capsys,
        monkeypatch,
        "bogus\nflip 99\ndraw\n#99\nflip 0\nresign\n",
    )
    assert code == 0, err
    flat = " ".join(out.split())
    assert "not understood: not a golf action: 'bogus' (expected draw, take," in flat
    assert "(GOLF-NOTE-1)" in flat
    assert "illegal: seat 0 has no position 99 in GOLF6: 'flip 99' (GOLF-TURN-4)" in flat
    assert "illegal: seat 0 must finish the initial flips first: 'draw'" in flat
    assert "no action '#99' (choose #1 to #6)" in flat
    assert "Traceback" not in out + err
    saved = json.loads(record.read_text())
    assert [a[:2] for a in saved["actions"]] == [[0, "flip 0"], [0, "resign"]]
    assert cardcore.replay(saved).result.reason == "resigned"


def test_play_never_overwrites_a_record_and_names_the_next_free_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        code, out, err = cli_run(["play", "golf", "--seed", "7"], capsys, monkeypatch, "quit\n")
        assert code == 0, err
    assert "cardcore-golf-7-2.json" in " ".join(out.split())
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "cardcore-golf-7-2.json",
        "cardcore-golf-7.json",
    ]


# -- "Every error is one line on standard error ... never a traceback", exit status 2 -------------

MISTAKES = [
    (["list", "golff"], ["'golff'", "installed: ", "golf,"]),
    (["rules", "golff"], ["'golff'"]),
    (["rules", "golf", "GOLF-NOPE-9"], ["'GOLF-NOPE-9'", "cardcore rules golf"]),
    (["rules", "golf", "golf.jokerz"], ["'golf.jokerz'"]),
    (["simulate", "golff", "-n", "2"], ["'golff'"]),
    (["simulate", "golf", "-n", "2", "--rules", "golf.jokerz"], ["'golf.jokerz'", "golf.jokers"]),
    (["simulate", "golf", "-n", "2", "-o", "roundz=1"], ["'roundz'", "rounds"]),
    (["simulate", "golf", "-n", "2", "-o", "rounds=abc"], ["'rounds'", "'abc'"]),
    (["simulate", "golf", "-n", "2", "-o", "rounds"], ["KEY=VALUE", "'rounds'"]),
    (["simulate", "golf", "-n", "2", "--agents", "randum"], ["'randum'", "random"]),
    (["simulate", "golf", "-n", "2", "--agents", "spit-greedy"], ["'spit-greedy'", "'golf'"]),
    (["simulate", "golf", "-n", "2", "--players", "1"], ["2 to 64", "not 1", "CORE-SEAT-2"]),
    (["simulate", "tonk", "-n", "2", "--players", "5"], ["not 5", "TONK-GEN-1"]),
    (["play", "tonk", "--players", "4"], ["not 4", "max_players=4"]),
    (["play", "golf", "--agent", "nope"], ["'nope'"]),
    (["play", "golf", "--seat", "5"], ["--seat", "not 5"]),
    (["simulate", "golf", "-n", "0"], ["--games", "not 0"]),
    (["simulate", "golf", "-n", "2", "--bogus"], ["--bogus", "cardcore simulate --help"]),
    (["simulat", "golf"], ["'simulat'", "simulate"]),
    (["simulate", "golf", "-n", "2", "--rules", "golf.jokers,golf.bonus-twos"], ["cannot be"]),
    (["simulate", "tonk", "-n", "2", "--without", "tonk.jokers"], ["'tonk.jokers'", "natural"]),
    (["compare", "golf", "-n", "2", "--vs", "golf.nope"], ["configuration B", "'golf.nope'"]),
    (["simulate", "speed", "-n", "2", "-o", "side_pile=10"], ["'side_pile'", "5 or 15"]),
]


@pytest.mark.parametrize(("argv", "named"), MISTAKES, ids=[" ".join(m[0]) for m in MISTAKES])
def test_a_plausible_mistake_is_one_clear_line_exit_2(
    argv: list[str],
    named: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _out, err = cli_run(argv, capsys, monkeypatch, "quit\n")
    line = one_clean_error(err)
    assert code == 2
    for word in named:
        assert word in line
    assert list(tmp_path.iterdir()) == []  # a refused command leaves nothing behind


# -- ``cardcore replay`` / ``verify`` of bad record files ------------------------------------------


@pytest.fixture
def good_record(tmp_path: Path) -> dict:
    game = cardcore.new_game("golf", ["Ann", "Bob"], options={"rounds": 1}, seed=7)
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    return game.record()


def _damaged(record: dict) -> dict[str, tuple[str, list[str]]]:
    result = dict(record["result"])
    result["winners"] = [s for s in range(2) if s not in result["winners"]]
    bad_action = [*record["actions"][:1], [0, "flip 99", None]]
    return {
        "missing": ("", ["missing.json"]),
        "not-json": ("not json", ["JSON"]),
        "list": ("[1, 2]", ["array"]),  # named as JSON names it
        "empty-object": ("{}", ["'format'"]),
        "bad-action": (json.dumps({**record, "actions": bad_action}), ["action 1", "flip 99"]),
        "edited-result": (json.dumps({**record, "result": result}), ["result"]),
        "unknown-game": (json.dumps({**record, "game": "golff"}), ["'golff'"]),
        "one-player": (json.dumps({**record, "players": ["A"]}), ["not 1"]),
        "future-format": (json.dumps({**record, "format_version": 99}), ["99"]),
        "no-actions": (
            json.dumps({k: v for k, v in record.items() if k != "actions"}),
            ["actions"],
        ),
    }


@pytest.mark.parametrize("command", ["replay", "verify"])
def test_bad_record_files_are_refused_in_one_line_exit_2(
    command: str,
    good_record: dict,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, (text, named) in _damaged(good_record).items():
        path = tmp_path / f"{name}.json"
        if name != "missing":
            path.write_text(text)
        code, _out, err = cli_run([command, str(path)], capsys, monkeypatch)
        line = one_clean_error(err)
        assert code == 2, (name, line)
        for word in named:
            assert word in line, (name, line)


def test_replay_and_verify_of_a_good_record(
    good_record: dict,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "golf-7.json"
    path.write_text(json.dumps(good_record))
    code, out, err = cli_run(["verify", str(path)], capsys, monkeypatch)
    assert code == 0, err
    n = len(good_record["actions"])
    winners = good_record["result"]["winners"]
    assert f"replays: golf, 2 players, {n} action(s); winners {winners} (rounds)" in out
    assert "no commitment to check: a plain record" in out
    code, out, err = cli_run(["replay", str(path), "--final"], capsys, monkeypatch)
    assert code == 0, err
    assert "game over (rounds)" in out
    code, _out, err = cli_run(["replay", str(path), "--at", str(n + 1)], capsys, monkeypatch)
    assert code == 2 and f"--at must be 0 to {n}" in one_clean_error(err)


# -- ``cardcore`` alone, ``--help``, ``list``, ``rules`` -------------------------------------------


def test_bare_command_lists_and_suggests_commands_that_exist(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = cli_run([], capsys, monkeypatch)
    assert code == 0
    tries = re.findall(r"^ +cardcore (\w+)", out.split("try:", 1)[1], re.M)
    assert tries == ["simulate", "play", "rules"]
    code, help_out, _ = cli_run(["--help"], capsys, monkeypatch)
    assert code == 0
    for command in ("list", "rules", "play", "simulate", "replay", "verify", "compare", "serve"):
        assert re.search(rf"^ +{command}\b", help_out, re.M), command


def test_examples_page_plugins_appear_like_built_ins(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = cli_run(["list"], capsys, monkeypatch)
    assert code == 0 and re.search(r"^│ gofish ", out, re.M)
    code, out, _ = cli_run(["list", "golf"], capsys, monkeypatch)
    assert code == 0 and "golf.snowman" in out and "SNOWMAN-1" in out
    code, out, _ = cli_run(["rules", "golf", "SNOWMAN-1"], capsys, monkeypatch)
    assert code == 0 and "every 8 scores 0" in out.lower()
    game = cardcore.new_game("golf", 4, rules=["golf.snowman"], seed=7)
    assert [r["name"] for r in game.record()["rules"]] == ["golf.snowman"]


def test_rules_golf_has_every_option_and_house_rule(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = cli_run(["rules", "golf"], capsys, monkeypatch)
    assert code == 0
    options = out.split("golf options", 1)[1].split("golf house rules", 1)[0]
    for option in cardcore.game_info("golf").options:
        assert re.search(rf"│ {option.name} ", options), option.name
    rules_part = out.split("golf house rules", 1)[1]
    for name in cardcore.available_rules("golf"):
        assert name in rules_part, name
    code, out, _ = cli_run(["rules", "golf", "CORE-TURN-1"], capsys, monkeypatch)
    assert code == 0 and "CORE-TURN-1" in out


# -- ``cardcore simulate`` / ``compare`` as the CLI page shows them ---------------------------------


def test_simulate_json_to_stdout_repeats_with_the_same_seed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "tonk", "-n", "20", "--json", "-", "--quiet"]
    code, out, err = cli_run(argv, capsys, monkeypatch)
    assert code == 0
    first = json.loads(out)  # only JSON on stdout; the table went to stderr
    assert "seat" in err and first["players"] == 3  # tonk: the largest count up to 4 it accepts
    assert first["games"] == 20 and first["seed"] == 0
    code, out, _ = cli_run([*argv, "--workers", "2"], capsys, monkeypatch)
    assert code == 0 and json.loads(out) == first


def test_compare_reports_rules_by_name_however_given(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["compare", "golf", "--rules", "GOLF-SCORE-2", "-n", "6", "-o", "rounds=1"]
    code, out, err = cli_run([*argv, "--json", "-", "--quiet"], capsys, monkeypatch)
    assert code == 0, err
    data = json.loads(out)
    assert data["a"]["rules"] == ["golf.hard"] and data["b"]["rules"] == []
    assert data["players"] == 2 and data["games"] == 6


# -- docs/examples.rst: the example programs print what the page shows -----------------------------


def _page_output(command: str) -> list[str]:
    page = (DOCS / "examples.rst").read_text()
    block = page.split(f"$ {command}\n", 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in block.splitlines()]


def test_quickstart_prints_what_the_page_shows() -> None:
    proc = run_py(["examples/quickstart.py"])
    assert proc.returncode == 0, proc.stderr
    got = [line.strip() for line in proc.stdout.splitlines()]
    assert got == _page_output("python examples/quickstart.py")


def test_turn_based_server_prints_the_pages_lines_in_order(tmp_path: Path) -> None:
    proc = run_py(["examples/turn_based_server.py", str(tmp_path / "saves")])
    assert proc.returncode == 0, proc.stderr
    got = [line.strip() for line in proc.stdout.splitlines()]
    at = 0
    for want in _page_output("python examples/turn_based_server.py saves/"):
        if want == "...":
            continue
        at = got.index(want, at) + 1
    assert got[-1] == "ok"


def test_realtime_threads_keeps_every_card_and_replays() -> None:
    proc = run_py(["examples/realtime_threads.py"])
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^spit: \d+ actions in [\d.]+ s on two threads; ended by ", proc.stdout, re.M)
    assert "other rejections: 0" in proc.stdout
    assert "all 52 cards accounted for" in proc.stdout
    assert "record replays identically" in proc.stdout


def test_house_rule_study_prints_the_pages_table(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "study.png"
    proc = run_py(["examples/house_rule_study.py", str(plot), "--games", "300"])
    assert proc.returncode == 0, proc.stderr
    want = _page_output("python examples/house_rule_study.py study.png --games 300")
    got = [line.strip() for line in proc.stdout.splitlines()]
    assert got[:-1] == want[:-1]
    assert got[-1] == f"plot saved to {plot}" and plot.stat().st_size > 0


def test_python_dash_m_cardcore_reports_its_version() -> None:
    proc = run_py(["-m", "cardcore", "--version"])
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"cardcore {cardcore.__version__}"


# -- findings ----------------------------------------------------------------------------------------
# docs/cli.rst: "Every error is one line on standard error in the library's own words ...". With
# --players given, a line-up of the wrong size is refused naming the flag (--vs-agents); without
# it, when --agents and --vs-agents name different numbers of seats, the words of the Python API
# leak through: "vs_agents takes one agent spec per seat (2) ...", a name the user never typed.


def test_compare_vs_agents_of_the_wrong_size_names_the_flag_with_players(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["compare", "golf", "-n", "2", "--players", "2", "--vs-agents", "random,random,random"]
    code, _out, err = cli_run(argv, capsys, monkeypatch)
    assert code == 2 and "--vs-agents names 3 agents for 2 players" in one_clean_error(err)


def test_compare_line_ups_of_different_sizes_name_the_vs_agents_flag(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["compare", "golf", "-n", "2", "--agents", "random,random"]
    argv += ["--vs-agents", "random,random,random"]
    code, _out, err = cli_run(argv, capsys, monkeypatch)
    line = one_clean_error(err)
    assert code == 2
    assert "--vs-agents" in line and "vs_agents" not in line.replace("--vs-agents", "")


# docs/examples.rst runs the example programs with arguments (``--games 300``, a game name). A
# plausible slip there (``--games 0``, a misspelt game) ends in a Python traceback of the
# library's error, where the cardcore command would print one line.


def test_house_rule_study_refuses_zero_games_without_a_traceback(tmp_path: Path) -> None:
    proc = run_py(["examples/house_rule_study.py", str(tmp_path / "s.png"), "--games", "0"])
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert "games" in proc.stderr and "0" in proc.stderr


def test_realtime_threads_refuses_a_misspelt_game_without_a_traceback() -> None:
    proc = run_py(["examples/realtime_threads.py", "sped"])
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert "'sped'" in proc.stderr
