"""Read review of the ``cardcore`` command (2026-12-07): ``list``, ``rules``, ``simulate``,
``replay``, ``verify`` and ``compare`` against docs/cli.rst.

Each strict xfail shows a bug found; the other tests pin claims checked that hold.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import EndMatch, cli
from cardcore.cli.commands import _start
from cardcore.session.fair import FairDeal

CARD = re.compile(
    r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])|(?<![A-Za-z])JK(?![A-Za-z])"
)


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")


def _run(*argv: str) -> tuple[int, str, str]:
    """``cli.main(argv)`` in this process: status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _error(*argv: str) -> tuple[int, str]:
    """Status and the one error line of a refused command (never a traceback)."""
    code, _, err = _run(*argv)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err and "unexpected" not in err
    return code, lines[0]


def _played(
    name: str, players: int, seed: int, options: dict[str, Any] | None = None
) -> cardcore.Game:
    game = cardcore.new_game(name, players, seed=seed, options=options)
    cardcore.play(game, [cardcore.load_agent("random")(seed=s) for s in range(players)])
    return game


def _cards(data: object, out: set[str]) -> set[str]:
    if isinstance(data, str):
        if CARD.fullmatch(data):
            out.add(data)
    elif isinstance(data, dict):
        for value in data.values():
            _cards(value, out)
    elif isinstance(data, list | tuple):
        for value in data:
            _cards(value, out)
    return out


# -- replay: what each view shows ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "seat", "options"),
    [("golf", 2, 1, {"rounds": 1}), ("golf", 2, None, {"rounds": 1}), ("tonk", 3, 0, None)],
)
def test_replay_never_draws_a_card_the_chosen_view_does_not_hold(
    tmp_path: Path, name: str, players: int, seat: int | None, options: dict[str, Any] | None
) -> None:
    """At every step, each card drawn is in that seat's (or the spectator's) view or history,
    or named by the action just printed: no face-down card of another seat shows."""
    rec = _played(name, players, 3, options).record()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    code, out, err = _run("replay", str(path), *(() if seat is None else ("--seat", str(seat))))
    assert code == 0, err
    steps = re.split(r"\n(?=#\d+ )", out)
    assert len(steps) == len(rec["actions"]) + 1
    game = _start(rec)
    for i, chunk in enumerate(steps):
        allowed = set()
        if i:
            who, notation, at = rec["actions"][i - 1]
            game.act(who, notation, at=at)
            allowed = set(CARD.findall(notation))
            chunk = chunk.split("\n", 1)[1]
        allowed |= _cards(game.view(seat), set()) | _cards(game.history(seat), set())
        assert set(CARD.findall(chunk)) <= allowed, (i, set(CARD.findall(chunk)) - allowed)
    # and the seat's own face-down view really hides cards (the check above is not vacuous)
    assert "##" in out or "face down" in out


def _truncated_record(tmp_path: Path) -> tuple[Path, cardcore.Game]:
    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    for _ in range(4):
        game.apply(game.legal_actions(game.to_act[0])[0])
    game.truncate()  # a host's cap, before the game's own bound
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    return path, game


def test_a_truncated_record_replays_as_over_in_the_library_and_verify(tmp_path: Path) -> None:
    path, game = _truncated_record(tmp_path)
    assert cardcore.replay(json.loads(path.read_text())).result == game.result
    code, out, _ = _run("verify", str(path))
    assert code == 0 and "winners [] (truncated)" in out


def test_replay_final_of_a_truncated_record_shows_the_game_over(tmp_path: Path) -> None:
    path, _ = _truncated_record(tmp_path)
    code, out, err = _run("replay", str(path), "--final")
    assert code == 0, err
    assert "game over (truncated)" in out


def test_full_replay_of_a_truncated_record_ends_with_its_result(tmp_path: Path) -> None:
    path, _ = _truncated_record(tmp_path)
    code, out, err = _run("replay", str(path))
    assert code == 0, err
    assert "game over (truncated)" in out


def test_replay_names_the_host_for_an_end_match(tmp_path: Path) -> None:
    game = cardcore.new_game("golf", ["[bold]Ann", "Bob"], seed=1, options={"rounds": 1})
    game.apply(EndMatch())
    path = tmp_path / "end.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    code, out, err = _run("replay", str(path))
    assert code == 0, err
    assert "#1 the host: end" in out
    assert "[bold]Ann" in out  # markup in a name prints as it is


def test_replay_and_verify_refuse_bad_files_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    (tmp_path / "inf.json").write_text(
        '{"format":"cardcore-record","format_version":3,"actions":[[0,"x",1e999]]}',
        encoding="utf-8",
    )
    (tmp_path / "cut.json").write_text("[1,2", encoding="utf-8")
    save = cardcore.new_game("golf", 2, seed=1).save()
    (tmp_path / "save.json").write_text(json.dumps(save), encoding="utf-8")
    for command in ("replay", "verify"):
        for name, words in (
            ("dir", "Is a directory"),
            ("inf.json", "not finite"),
            ("cut.json", "not JSON"),
            ("save.json", "not a cardcore record"),
            ("missing.json", "No such file"),
        ):
            code, line = _error(command, str(tmp_path / name))
            assert code == 2 and words in line and name in line, (command, line)


def test_replay_refuses_a_seat_or_step_out_of_range(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(_played("golf", 2, 5, {"rounds": 1}).record()), encoding="utf-8")
    assert _error("replay", str(path), "--seat", "2") == (2, "error: --seat must be 0 to 1, not 2")
    code, line = _error("replay", str(path), "--at", "-1")
    assert code == 2 and "--at must be 0 to" in line


# -- verify -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bundle() -> tuple[dict[str, Any], str]:
    deal = FairDeal.fresh(2)
    deal.entropy[:] = ["ann-entropy", None]
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=deal.seed, options={"rounds": 1})
    cardcore.play(game, [cardcore.load_agent("random")(seed=s) for s in (1, 2)])
    return deal.bundle("s1", game.record()), deal.commitment


def _verify(tmp_path: Path, data: dict[str, Any], *extra: str) -> tuple[int, str, str]:
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return _run("verify", str(path), *extra)


def test_verify_accepts_a_sound_bundle_and_lists_each_seats_entropy(
    tmp_path: Path, bundle: tuple[dict[str, Any], str]
) -> None:
    data, commitment = bundle
    code, out, err = _verify(tmp_path, data, "--commitment", commitment.upper())
    assert (code, err) == (0, "")
    assert f"commitment {commitment}: matches" in out
    assert "seat 0 (Ann): 'ann-entropy'" in out and "seat 1 (Bob): none sent" in out
    assert "not compared with a commitment" not in out


@pytest.mark.parametrize(
    ("tamper", "status", "words"),
    [
        (lambda b: b["entropy"].__setitem__(1, "mine"), 1, "record's seed"),
        (lambda b: b.__setitem__("salt", "00" * 16), 1, "is not sha256"),
        (lambda b: b.__setitem__("chance", 2), 1, "is not sha256"),
        (
            lambda b: (
                b["record"].__setitem__("seed", b["seed"] + 1),
                b.__setitem__("seed", b["seed"] + 1),
            ),
            1,
            "record's seed",
        ),
        (
            lambda b: b["record"]["result"].__setitem__("scores", [0, 0]),
            2,
            "record result does not match",
        ),
        (
            lambda b: b["record"].__setitem__("actions", b["record"]["actions"][:-1]),
            2,
            "record result does not match",
        ),
        (lambda b: b.__setitem__("server_seed", "zz"), 2, "server_seed"),
    ],
)
def test_verify_refuses_a_tampered_bundle_naming_the_reason(
    tmp_path: Path, bundle: tuple[dict[str, Any], str], tamper: Any, status: int, words: str
) -> None:
    data = copy.deepcopy(bundle[0])
    tamper(data)
    code, line = _error("verify", str(_write(tmp_path, data)))
    assert code == status and words in line and "bundle.json" in line, line


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_verify_refuses_a_commitment_other_than_the_one_noted(
    tmp_path: Path, bundle: tuple[dict[str, Any], str]
) -> None:
    code, line = _error("verify", str(_write(tmp_path, bundle[0])), "--commitment", "ab" * 32)
    assert code == 1 and "not the one you noted" in line


# -- simulate and compare -----------------------------------------------------------------------


def test_simulate_json_equals_the_library_for_a_large_seed() -> None:
    seed = 2**100 + 3
    code, out, _ = _run(
        "simulate", "golf", "-n", "3", "-p", "2", "-q", "-s", str(seed), "--json", "-"
    )
    assert code == 0
    data = json.loads(out)
    library = cardcore.simulate("golf", games=3, players=2, seed=seed).to_json()
    assert {k: data[k] for k in library} == library and data["seed"] == seed


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_games_above_the_librarys_bound_and_a_negative_seed_are_one_line(command: str) -> None:
    code, line = _error(command, "golf", "-q", "-n", "10000001")
    assert code == 2 and "at most 10,000,000" in line
    code, line = _error(command, "golf", "-q", "-n", "1", "-s", "-5")
    assert code == 2 and "seed must be an int from 0" in line


@pytest.mark.parametrize("value", ["inf", "1e400", "nan", "0", "-1"])
def test_compare_refuses_a_move_time_that_is_no_finite_positive_number(value: str) -> None:
    code, line = _error("compare", "golf", "-q", "-n", "1", "--skill", "none", "--move-time", value)
    assert code == 2 and "move" in line and "time" in line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("-o", "rounds=99999999999999999999"), "at most 100"),
        (("-o", "rounds=\u0661"), "must be int"),
        (("-o", "dealer=99999999999999999999999"), "'dealer' must be"),
        (("--agents", "golf-greedy:depth=[red]x"), "has no parameter 'depth'"),
    ],
)
def test_simulate_refuses_odd_option_and_agent_values_in_one_line(
    args: tuple[str, ...], words: str
) -> None:
    code, line = _error("simulate", "golf", "-q", "-n", "1", *args)
    assert code == 2 and words in line


# -- list and rules -----------------------------------------------------------------------------


def test_list_and_rules_name_an_unknown_game_or_rule_literally() -> None:
    for argv in (("list", "[bold]x"), ("rules", "[bold]x")):
        code, line = _error(*argv)
        assert code == 2 and "'[bold]x'" in line and "installed: " in line
    code, line = _error("rules", "golf", "[red]x")
    assert code == 2 and "no rule '[red]x' in golf" in line
    code, line = _error("rules", "golf", "tonk.natural-49-50")
    assert code == 2 and "belongs to 'tonk'" in line


def test_rules_by_a_house_rules_id_shows_the_house_rule() -> None:
    code, out, _ = _run("rules", "golf", "GOLF-SCORE-4")
    assert code == 0 and out.startswith("golf.jokers (GOLF-SCORE-4):")


def test_rules_by_a_house_rules_id_in_lower_case_shows_the_house_rule_too() -> None:
    code, out, _ = _run("rules", "golf", "golf-score-4")
    assert code == 0 and out.startswith("golf.jokers (GOLF-SCORE-4):")
