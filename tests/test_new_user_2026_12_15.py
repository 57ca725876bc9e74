"""A new user's first session with cardcore (review of 2026-12-15).

Followed README.md, docs/tutorial.rst, docs/embedding.rst and docs/cli.rst in a
fresh virtual environment. A claim found false is an ``xfail(strict=True)`` test
asserting what the page says; a claim that holds is a plain test. Game counts are
tiny throughout.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore
from cardcore import cli

ROOT = Path(__file__).resolve().parents[1]


def _run(*argv: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it: a fresh interpreter, stdin from *stdin*."""
    return subprocess.run(
        [sys.executable, "-m", "cardcore", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env=None,
    )


def _played_record(tmp_path: Path) -> Path:
    game = cardcore.new_game("golf", ["Ann", "Bob"], options={"rounds": 1}, seed=7)
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    path = tmp_path / "golf-7.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- README


def test_readme_embedding_snippet_runs_and_save_restores(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """README.md, "Embedding in 15 lines": the snippet runs as shown."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"## Embedding in 15 lines\n\n```python\n(.*?)```", text, re.S)
    assert code is not None
    assert len(code.group(1).strip().splitlines()) <= 15
    exec(compile(code.group(1), "README.md", "exec"), {})  # the README's own code
    out = capsys.readouterr().out
    assert out.startswith("winners: ['")
    assert "scores: (" in out


# --------------------------------------------------------------------------- tutorial + CLI


def test_tutorial_cli_deals_the_tutorial_round(tmp_path: Path) -> None:
    """tutorial.rst: ``cardcore play golf --seed 7 -o rounds=1`` deals this very round
    (Ann's flips show AC and AS, and her draw is the 3H)."""
    proc = _run(
        "play",
        "golf",
        "--seed",
        "7",
        "-o",
        "rounds=1",
        "--no-record",
        stdin="flip 0\n#3\ndraw\nquit\n",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "you: flip 0" in proc.stdout and "you: flip 3" in proc.stdout
    assert "0:AC" in proc.stdout and "3:AS" in proc.stdout
    assert "card: 3H" in proc.stdout
    assert list(tmp_path.iterdir()) == []  # --no-record


def test_cli_play_answers_bad_input_as_cli_rst_shows(tmp_path: Path) -> None:
    """cli.rst, ``cardcore play``: the two example messages, word for word, and the
    record saved on quit under the default name."""
    proc = _run("play", "golf", "--seed", "7", stdin="bogus\nflip 99\nquit\n", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())
    assert (
        "not understood: not a golf action: 'bogus' (expected draw, take, ...) (GOLF-NOTE-1)"
        in flat.replace(
            "draw, take, replace N, discard, flip N, peek N or knock", "draw, take, ..."
        )
    )
    assert "illegal: seat 0 has no position 99 in GOLF6: 'flip 99' (GOLF-TURN-4)" in flat
    assert (tmp_path / "cardcore-golf-7.json").exists()


def test_cli_verify_plain_record_and_tampered_result(tmp_path: Path) -> None:
    """cli.rst, ``cardcore verify``: a plain record replays (exit 0); an edited
    result is a damaged record (exit 2), one line on stderr."""
    path = _played_record(tmp_path)
    assert cli.main(["verify", str(path)]) == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    record["result"]["winners"] = [1 - record["result"]["winners"][0]]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    proc = _run("verify", str(bad))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ")


def test_cli_compare_tiny_budget_names_both_sides_and_writes_json(tmp_path: Path) -> None:
    """cli.rst, ``cardcore compare``: two players by default, A and B named, figures
    written with ``--json``."""
    out = tmp_path / "cmp.json"
    proc = _run(
        "compare", "golf", "--rules", "golf.hard", "-n", "4", "-o", "rounds=1", "--json", str(out)
    )
    assert proc.returncode == 0, proc.stderr
    assert "A: golf.hard; agents golf-greedy" in proc.stdout
    assert "B: (base game); agents golf-greedy" in proc.stdout
    assert "2 players, 4 games per configuration" in proc.stdout
    assert json.loads(out.read_text(encoding="utf-8"))


def test_cli_simulate_json_one_game_sd_is_null() -> None:
    """cli.rst, ``--json``: with ``-`` the JSON goes to stdout; one game's sd is null."""
    proc = _run("simulate", "golf", "-n", "1", "-q", "--json", "-")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["games"] == 1 and data["players"] == 4
    assert data["sd_scores"] == [None] * 4


# --------------------------------------------------------------------------- findings


def test_failing_handler_is_logged_and_others_still_receive(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """embedding.rst (Per-seat event streams): a handler that raises costs no other
    handler its events; the failure is logged and handed to ``on_error``."""
    fails: list[cardcore.DeliveryFailure] = []
    got: list[cardcore.Event] = []

    def my_socket_handler(event: cardcore.Event) -> None:
        raise ValueError("connection dropped")

    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    game.events.on_error = fails.append
    game.events.subscribe(cardcore.Event, my_socket_handler)
    game.events.subscribe(cardcore.Event, got.append)
    with caplog.at_level(logging.ERROR, logger="cardcore.events"):
        game.act(0, "flip 0")
    assert got and len(fails) == len(got)
    assert not fails[0].dropped
    assert "my_socket_handler" in caplog.records[0].getMessage()


def test_drop_on_error_log_and_failure_name_the_failing_handler(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fails: list[cardcore.DeliveryFailure] = []

    def my_socket_handler(event: cardcore.Event) -> None:
        raise ValueError("connection dropped")

    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=7)
    game.events.on_error = fails.append
    sub = game.events.subscribe(cardcore.Event, my_socket_handler, drop_on_error=True)
    with caplog.at_level(logging.ERROR, logger="cardcore.events"):
        game.act(0, "flip 0")
    assert len(fails) == 1 and fails[0].dropped
    message = caplog.records[0].getMessage()
    assert "my_socket_handler" in message, message
    assert fails[0].subscription is sub  # the object subscribe returned
    assert fails[0].handler is my_socket_handler  # (the subscription's own now does nothing)


def test_serve_without_web_extra_exits_2_as_cli_rst_says() -> None:
    """docs/cli.rst (fixed after this trial): an option whose extra is not installed exits 2
    (``rich`` missing exits 1); the message names the install from a checkout too."""
    code = (
        "import sys\nsys.modules['uvicorn'] = None\n"
        "from cardcore.cli import main\nsys.exit(main(['serve', '--port', '0']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stderr.strip() == (
        "error: cardcore serve needs the web extra: pip install 'cardcore[web]'"
        " (in a checkout: pip install -e '.[web]')"
    )
    assert proc.returncode == 2
