"""The terminal's small print (a new user's review, 3 December 2026, evening)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardcore
from cardcore import cli


def test_play_refuses_a_name_that_is_another_seats(capsys: pytest.CaptureFixture[str]) -> None:
    # the bots are "random 2" ...: the move log would show two seats under one name
    assert cli.main(["play", "golf", "--name", "random 2", "--no-record"]) == 2
    err = capsys.readouterr().err
    assert "--name 'random 2' is the name of another seat" in err and "Traceback" not in err


@pytest.mark.parametrize(("count", "said"), [(1, "1 action,"), (2, "2 actions,")])
def test_replay_counts_its_actions_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], count: int, said: str
) -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    for _ in range(count):
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    assert cli.main(["replay", str(path), "--final"]) == 0
    assert said in capsys.readouterr().out
