"""A new user's walkthrough of the ``cardcore`` command (2026-12-03): what it found, fixed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import cardcore
from cardcore import cli
from cardcore.cli import commands


def test_version_flag_prints_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    # `cardcore --version` was "error: unrecognized arguments: --version", exit status 2.
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"cardcore {cardcore.__version__}"


def test_default_game_prefers_a_game_shipped_with_cardcore() -> None:
    # With the README's set-up (the Go Fish example installed too), bare `cardcore` and
    # `cardcore simulate` picked "gofish", the example plugin, because it sorts first.
    if "golf" not in cardcore.available_games():
        pytest.skip("cardcore's own games are not installed")
    assert commands.default_game() == "golf"


def test_default_game_falls_back_to_a_plugin_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without cardcore's own games, the first turn-based game that loads is still chosen.
    monkeypatch.setattr(commands, "_shipped", lambda name: False)
    games = [g for g in commands.loading_games() if not cardcore.game_info(g).realtime]
    assert commands.default_game() == games[0]


def test_untyped_option_is_not_described_as_any_value() -> None:
    # `cardcore list` said Golf's dealer took "any value, or none"; it takes a seat or "random".
    dealer = cardcore.Option("dealer", None, "a seat, or 'random'", kind=object, nullable=True)
    assert commands._bounds(dealer) == "checked by the game, or none"
    layout = cardcore.Option("layout", 6, "grid", kind=object, choices=(6, 8))
    assert commands._bounds(layout) == "one of 6, 8"
    assert commands._bounds(cardcore.Option("stake", 1, "stake", kind=int)) == "any int"
    golf = {o.name: o for o in cardcore.game_info("golf").options}
    assert commands._bounds(golf["dealer"]) == "random, or 0 to 63, or none"  # declared bounds


PLAY = [sys.executable, "-m", "cardcore.cli", "play", "golf", "--players", "3", "--seat", "1"]


def test_play_numbers_bots_like_players_and_without_their_spec() -> None:
    # `cardcore play golf --players 3 --seat 1 --agent golf-greedy:seed=3` called the seats
    # "golf-greedy:seed=3 0", "Player 2" and "golf-greedy:seed=3 2": "Player 2" and "... 2"
    # were different seats, and the spec was part of every bot's name.
    done = subprocess.run(
        [*PLAY, "--agent", "golf-greedy:seed=3", "--seed", "7", "--no-record"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "golf-greedy 1: flip" in done.stdout
    assert "golf-greedy 3" in done.stdout
    assert "seed=3 0" not in done.stdout and "golf-greedy 2" not in done.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "golf", "-n", "3"],
        ["compare", "golf", "--games", "2", "--skill", "none"],
        ["simulate", "golf", "--players", "1"],  # refused inside the run: nothing on stdout
    ],
)
def test_piped_output_has_no_stray_blank_line(argv: list[str]) -> None:
    # Piped, the transient progress bar left a blank first line on stdout (and a lone
    # blank line before an error found once the run had started).
    done = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert not done.stdout.startswith("\n"), done.stdout[:200]
    if done.returncode:
        assert done.stdout == "" and done.stderr.startswith("error: ")


def _finished_golf() -> cardcore.Game:
    game = cardcore.new_game("golf", 2, seed=2, options={"rounds": 1})
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    return game


def test_ismcts_with_no_legal_action_says_so() -> None:
    # A bot asked to choose on a finished game's view got a bare TypeError from
    # int(None) deep in Golf's position reader.
    from cardcore.search import ISMCTSAgent

    game = _finished_golf()
    with pytest.raises(cardcore.ArgumentError, match="no legal action to choose from"):
        ISMCTSAgent(seed=1, iterations=5).choose(game.view(0), ())
    assert ISMCTSAgent(seed=1, iterations=5).plan(game.view(0), (), 0.0) is None


def test_random_agent_with_no_legal_action_says_so() -> None:
    # Was IndexError: tuple index out of range.
    game = _finished_golf()
    with pytest.raises(cardcore.ArgumentError, match="no legal action to choose from"):
        cardcore.RandomAgent(1).choose(game.view(0), ())
    fresh = cardcore.new_game("golf", 2, seed=2)
    legal = fresh.legal_actions(0)
    assert cardcore.RandomAgent(1).choose(fresh.view(0), legal) in legal


def test_list_folds_long_options_instead_of_cutting_them() -> None:
    # At 80 columns `cardcore list` showed "points_limit=no…" and "first_dealer=no…".
    done = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", "list"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "80"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "…" not in done.stdout


def _names(written: str) -> list[str]:
    """The parameter names of a signature written in the docs (``a: int = 1, *, b``)."""
    depth, parts, cur = 0, [], ""
    for ch in written:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and not depth:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    names = [p.split(":")[0].split("=")[0].strip().lstrip("*") for p in parts]
    return [n for n in names if n and n != "/"]


def test_signatures_written_in_the_docs_name_every_parameter() -> None:
    # docs/api.rst wrote Option's signature without default_before, which its
    # parameter list (from the docstring) then described.
    import importlib
    import inspect
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs"
    directive = re.compile(r"^\s*\.\. auto(?:class|function):: ([\w.]+)\((.*)\)\s*$", re.M)
    checked = 0
    for path in sorted(docs.rglob("*.rst")):
        for target, written in directive.findall(path.read_text(encoding="utf-8")):
            module, _, attr = target.rpartition(".")
            obj = getattr(importlib.import_module(module), attr)
            params = [p for p in inspect.signature(obj).parameters if p != "self"]
            assert _names(written) == params, (path.name, target)
            checked += 1
    assert checked >= 5
