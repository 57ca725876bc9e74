"""Papercuts a new user met on 2026-12-03: what the command line and the record readers say."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore
from cardcore import CorruptStateError, cli
from cardcore.cli.rulebook import TAGS
from cardcore.records import load


def _finished(rules: tuple[str, ...] = ()) -> cardcore.Game:
    game = cardcore.new_game("golf", 2, rules=rules, options={"rounds": 1}, seed=1)
    rng = random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    return game


@pytest.mark.parametrize("game", ["golf", "tonk", "spit", "speed"])
def test_rules_legend_explains_every_mark_after_a_tag(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["rules", game]) == 0
    out = " ".join(capsys.readouterr().out.split())
    marks = set(re.findall(r"• [A-Z][A-Z0-9-]+ \[[^]]+\] \(?(new)\)?\b", out))
    assert marks <= {"new"}
    for mark in marks:
        assert f"{mark} after a tag marks" in TAGS


def test_a_record_without_a_format_field_is_named_so() -> None:
    for reader, what in ((cardcore.replay, "record"), (load, "saved game")):
        with pytest.raises(CorruptStateError) as info:
            reader({})
        assert f"not a cardcore {what}: it has no 'format' field" in str(info.value)
        assert "None" not in str(info.value)


def test_a_changed_result_blames_the_record_not_a_rule_when_none_is_in_play() -> None:
    record = _finished().record()
    record["result"]["scores"] = [0.0, 99.0]
    with pytest.raises(CorruptStateError) as info:
        cardcore.replay(record)
    message = str(info.value)
    assert "the record was changed after it was made" in message
    assert "house rule" not in message and "rules in play" not in message


def test_a_changed_result_names_the_rules_in_play_when_there_are_some() -> None:
    record = _finished(("golf.jokers",)).record()
    record["result"]["scores"] = [0.0, 99.0]
    with pytest.raises(CorruptStateError, match=r"rules in play: golf\.jokers"):
        cardcore.replay(record)


@pytest.mark.parametrize("text", ["-1", "61", "nan", "abc", "\uff11"])
def test_bot_speed_out_of_range_names_the_flag(text: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", "play", "speed", "--bot-speed", text],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2
    assert "argument --bot-speed: the bots' mean reaction time is a number of seconds" in (
        proc.stderr
    )
    assert "Traceback" not in proc.stderr


def test_simulate_json_names_rules_once_each_by_name(tmp_path: Path) -> None:
    out = tmp_path / "summary.json"
    argv = ["simulate", "golf", "--games", "2", "--quiet", "--json", str(out)]
    assert cli.main([*argv, "--rules", "golf.jokers,GOLF-SCORE-4,golf.jokers"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["rules"] == ["golf.jokers"]


@pytest.mark.parametrize(
    ("first", "second"),
    [("Ann", "\u0410nn"), ("Bob", "\u0412\u041e\u0412"), ("Tom", "\u03a4\u03bf\u03bc")],
    ids=["cyrillic-a", "cyrillic-capitals", "greek"],
)
def test_a_name_in_look_alike_letters_of_another_script_is_another_seats(
    first: str, second: str
) -> None:
    from cardcore.web import WebServer
    from tests.web.helpers import TestClient, create_app

    server = WebServer(None, bot_delay=0.0)
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        seats = [{"name": first}, {"name": second}]
        r = client.post("/api/sessions", json={"game": "golf", "seats": seats})
        assert r.status_code == 400, r.text
        assert "is another seat's name" in r.json()["error"]
        assert not server.hub.sessions
        r = client.post(
            "/api/sessions",
            json={"game": "golf", "seats": [{"name": "\u0412\u043e\u0432\u0430"}, {"name": "Ann"}]},
        )
        assert r.status_code == 201, r.text
