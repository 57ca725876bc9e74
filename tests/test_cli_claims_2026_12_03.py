"""A new user checks the claims of README, the tutorial, cli.rst, examples.rst and notation.rst
against the ``cardcore`` command (run in-process through :func:`cardcore.cli.main`)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore
from cardcore import cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


def _play(
    monkeypatch: pytest.MonkeyPatch, args: list[str], lines: list[str]
) -> tuple[int | None, str]:
    """Run ``cardcore play ARGS`` with *lines* on standard input; (exit status, stdout+stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", out)
    try:
        status = cli.main(["play", *args])
    except SystemExit as exc:  # a crash that escapes main counts as its exit status
        status = exc.code if isinstance(exc.code, int) else 1
    return status, out.getvalue()


def _finished_golf_record(tmp_path: Path) -> Path:
    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    path = tmp_path / "golf-7.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    return path


# -- play: typed moves ----------------------------------------------------------------------


def test_play_answers_bad_moves_as_the_docs_quote_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "r.json"
    status, out = _play(
        monkeypatch,
        ["golf", "--seed", "7", "--record", str(record)],
        ["bogus", "flip 99", "#0", "#7", "9", "flip 0", "flip 0", "resign"],
    )
    assert status == 0
    assert "not understood: not a golf action: 'bogus' (expected draw, take" in out
    assert "illegal: seat 0 has no position 99 in GOLF6: 'flip 99' (GOLF-TURN-4)" in out
    assert "no action '#0' (choose #1 to #6)" in out
    assert "illegal: position 0 is already face up" in out
    assert "Traceback" not in out
    actions = json.loads(record.read_text(encoding="utf-8"))["actions"]
    assert [(seat, text) for seat, text, _ in actions] == [(0, "flip 0"), (0, "resign")]


def test_a_huge_menu_number_is_not_understood_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "r.json"
    status, out = _play(
        monkeypatch,
        ["golf", "--seed", "11", "--record", str(record)],
        ["flip 0", "#" + "9" * 5000, "flip 1", "resign"],
    )
    assert status == 0, out[-400:]
    assert "not understood" in out
    actions = json.loads(record.read_text(encoding="utf-8"))["actions"]
    assert [text for _, text, _ in actions][:2] == ["flip 0", "flip 1"]


def test_a_huge_menu_number_in_a_realtime_game_is_simply_not_understood() -> None:
    from rich.console import Console

    from cardcore.cli.realtime import play_realtime

    game = cardcore.new_game("speed", ["Me", "Bot"], seed=1)
    bot = cardcore.load_agent("spit-greedy")(seed=2)
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    stdin = io.StringIO("#" + "9" * 5000 + "\nresign\n")
    play_realtime(console, game, 0, [None, bot], stdin=stdin, live=False)
    text = out.getvalue()
    assert "ValueError" not in text and "4300" not in text
    assert "not understood" in text


def test_a_bare_huge_number_gets_a_short_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    status, out = _play(
        monkeypatch, ["golf", "--seed", "11", "--no-record"], ["9" * 5000, "resign"]
    )
    assert status == 0
    assert out.count("9") < 1000


# -- simulate / play arguments ------------------------------------------------------------


def test_an_empty_game_name_is_refused_by_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "", "--no-record"]) == 2
    assert "no game called ''" in capsys.readouterr().err


def test_an_empty_game_name_is_refused_by_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["simulate", "", "--games", "1", "--quiet"])
    assert status == 2
    assert "no game called ''" in capsys.readouterr().err


def test_simulate_json_to_stdout_is_strict_json_with_null_spreads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["simulate", "golf", "-n", "1", "-q", "--json", "-"]) == 0
    captured = capsys.readouterr()

    def refuse(constant: str) -> None:
        raise ValueError(constant)

    data = json.loads(captured.out, parse_constant=refuse)
    assert data["sd_scores"] == [None] * 4 and data["seed"] == 0
    assert "\x1b[" not in captured.out + captured.err  # no colour into a pipe
    assert "sd score" in captured.err  # the table went to standard error


# -- replay / verify ------------------------------------------------------------------------


def test_replay_refuses_a_save_and_a_record_of_another_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _finished_golf_record(tmp_path)
    record = json.loads(path.read_text(encoding="utf-8"))
    save = tmp_path / "save.json"
    game = cardcore.replay(record)
    save.write_text(json.dumps(game.save()), encoding="utf-8")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**record, "game": "tonk"}), encoding="utf-8")
    assert cli.main(["replay", str(save), "--final"]) == 2
    assert "not a cardcore record" in capsys.readouterr().err
    assert cli.main(["replay", str(other), "--final"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {str(other)!r}: record cannot start its game")
    assert err.count("\n") == 1


def test_a_record_with_a_huge_action_gets_a_short_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _finished_golf_record(tmp_path)
    record = json.loads(path.read_text(encoding="utf-8"))
    record["actions"] = [[0, "x" * 10000, None]]
    record["result"] = None
    path.write_text(json.dumps(record), encoding="utf-8")
    assert cli.main(["replay", str(path), "--final"]) == 2
    err = capsys.readouterr().err
    assert "at most 200" in err
    assert len(err) < 1000


def test_verify_refuses_a_malformed_commitment_as_a_bad_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.session.test_fair import _finished

    bundle = _finished().mirrors["a"].bundle
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")
    assert cli.main(["verify", str(path), "--commitment", bundle["commitment"].upper()]) == 0
    capsys.readouterr()
    assert cli.main(["verify", str(path), "--commitment", "xyz"]) == 2


def test_verify_without_commitment_says_nothing_tied_it_to_the_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.session.test_fair import _finished

    bundle = _finished().mirrors["a"].bundle
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "--commitment" in out or "not compared" in out or "no commitment noted" in out


# -- rules ---------------------------------------------------------------------------------


def test_a_core_rule_id_cited_by_an_error_can_be_looked_up(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["play", "golf", "--players", "1", "--no-record"]) == 2
    assert "(CORE-SEAT-2)" in capsys.readouterr().err
    assert cli.main(["rules", "golf", "CORE-SEAT-2"]) == 0
    assert "CORE-SEAT-2" in capsys.readouterr().out


# -- what a seat may see --------------------------------------------------------------------


def test_a_hidden_held_card_is_drawn_as_hidden(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _finished_golf_record(tmp_path)
    record = json.loads(path.read_text(encoding="utf-8"))
    draw = next(i for i, (_, text, _) in enumerate(record["actions"]) if text == "draw")
    # the spectator after the first draw: someone holds a card nobody else sees
    assert cli.main(["replay", str(path), "--at", str(draw + 1)]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "held card" in line)
    assert re.search(r"card: ##", line), line


# -- figures in the docs --------------------------------------------------------------------


def test_the_house_rule_study_figures_come_from_the_command_shown(tmp_path: Path) -> None:
    doc = (ROOT / "docs" / "examples.rst").read_text(encoding="utf-8")
    block = doc.split("$ python examples/house_rule_study.py study.png --games 300\n", 1)[1]
    documented = [line.strip() for line in block.splitlines()[:7] if line.strip()]
    script = ROOT / "examples" / "house_rule_study.py"
    run = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "s.png"), "--games", "300"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    printed = [line.strip() for line in run.stdout.splitlines()[:7]]
    assert printed == documented[:7]


# -- real-time header and dask addresses ----------------------------------------------------


def test_the_announced_reaction_time_is_the_one_the_bots_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, out = _play(
        monkeypatch,
        ["speed", "--agent", "spit-greedy:mean=0.3", "--seed", "1", "--no-record"],
        ["quit"],
    )
    assert status == 0
    header = " ".join(out.split("\n")[:2])
    assert "(reaction 1 s)" not in header, header


def test_a_malformed_dask_address_is_a_bad_argument(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "golf", "-n", "2", "-q", "--dask", "bogus"]) == 2
    assert "bogus" in capsys.readouterr().err
    assert cli.main(["simulate", "golf", "-n", "2", "-q", "--dask", ""]) == 2


# -- seats: named from 1, addressed from 0 --------------------------------------------------


def test_a_seat_number_in_the_notation_can_be_read_off_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if "gofish" not in cardcore.available_games():
        pytest.skip("examples/go_fish is not installed")
    status, out = _play(
        monkeypatch,
        ["gofish", "--players", "3", "--agent", "gofish-basic", "--seed", "2", "--no-record"],
        ["ask 2 6", "quit"],
    )
    assert status == 0 and "you: ask 2 6" in out
    plain = re.sub(r"[│\s]+", " ", out)
    assert re.search(r"gofish-basic 3 \(?seat 2|seat 2\)? gofish-basic 3|2: gofish-basic 3", plain)


def test_no_record_with_a_record_file_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "r.json"
    status, _ = _play(
        monkeypatch, ["golf", "--seed", "1", "--no-record", "--record", str(path)], ["resign"]
    )
    assert status == 2 and not path.exists()


def test_a_huge_port_gets_a_short_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "golf", "-q", "-n", "9" * 5000]) == 2
    assert len(capsys.readouterr().err) < 500  # how the other readers answer
    assert cli.main(["serve", "--port", "9" * 5000]) == 2
    err = capsys.readouterr().err
    assert "--port" in err and len(err) < 500


def test_the_tutorial_round_is_the_one_cardcore_play_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """tutorial.rst: ``cardcore play golf --seed 7 -o rounds=1`` deals this very round."""
    status, out = _play(
        monkeypatch,
        ["golf", "--seed", "7", "-o", "rounds=1", "--no-record"],
        ["#1", "flip 3", "draw", "quit"],
    )
    assert status == 0
    assert "0:AC" in out and "3:AS" in out  # Ann's column in the tutorial
    assert "card: 3H" in out  # the card Ann draws there
    assert "discard: QS" in out


def test_the_four_card_hand_is_numbered_by_the_positions_replace_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, out = _play(
        monkeypatch,
        ["golf", "-o", "layout=4h", "--seed", "3", "--no-record"],
        ["draw", "quit"],
    )
    assert status == 0 and "#1 replace 0" in out
    mine = next(line for line in out.splitlines() if "Player 1 (you)" in line)
    assert re.search(r"0:\S+ +1:\S+ +2:\S+ +3:\S+", mine), mine


def _notes_after(game: cardcore.Game, seat: int, text: str) -> list[str]:
    """Act *text* for *seat*; return the game's notes on the events seat 0 received."""
    got: list[dict[str, object]] = []
    subscription = game.events.subscribe(cardcore.Event, lambda e: got.append(e.to_json()), seat=0)
    game.act(seat, text)
    game.events.unsubscribe(subscription)
    notes = cardcore.game_info(game.name).notes
    assert notes is not None
    return notes(got, text)


def test_spit_says_what_its_automatic_steps_did() -> None:
    spit = cardcore.new_game("spit", 2, seed=1)
    assert _notes_after(spit, 0, "ready") == []  # nothing automatic yet
    (line,) = _notes_after(spit, 1, "ready")
    tops = [spit.view(0)["table"]["piles"][k][0] for k in "LR"]
    assert line == f"Both players are ready: deal 1 starts: a spit (L: {tops[0]}, R: {tops[1]})"
    speed = cardcore.new_game("speed", 2, seed=1)
    assert _notes_after(speed, 0, "stuck") == []
    (line,) = _notes_after(speed, 1, "stuck")
    tops = [speed.view(0)["table"]["piles"][k][0] for k in "LR"]
    assert line == f"Both players are stuck: the side cards turn (L: {tops[0]}, R: {tops[1]})"
