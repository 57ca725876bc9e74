"""A seat name may not end with a mark the pages add after names (an a11y and hidden-info
audit, ``tests/web/test_hidden_a11y_2026_12_20.py``): "Bob (you)" beside Bob reads, on Bob's
page, exactly as Bob's own seat; "Ann (time ran out)" makes her moves read as the clock's."""

from __future__ import annotations

import io

import pytest

from cardcore import cli
from cardcore._names import MARKS, marked

PLAY = ["play", "golf", "--seed", "1", "--no-record"]


def _cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> tuple[int, str, str]:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    try:
        status = cli.main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("name", "mark"),
    [
        ("Bob (you)", "(you)"),
        ("Bob(YOU)", "(you)"),
        ("Bob ( you )", "(you)"),
        ("Bob （you）", "(you)"),  # fullwidth brackets read as ( )
        ("Bob (yоu)", "(you)"),  # a Cyrillic о
        ("Ann (time ran out)", "(time ran out)"),
        ("Ann (Time  Ran Out)", "(time ran out)"),
        ("Ann (bot random)", "(bot …)"),  # the lobby's mark of a bot
        ("Ann (Bot golf-greedy:seed=3)", "(bot …)"),
        ("Ann (seat 1)", "(seat N)"),  # a table field naming a seat
        ("Bob (you)\u2800", "(you)"),  # a braille blank after it shows as nothing
        ("Bob (y\u200bou)", "(you)"),
        ("Bob (yo\u03c5)", "(you)"),  # Greek upsilon reads as u here
        ("Bob \u2768you\u2769", "(you)"),  # ornament brackets
        ("Ann (botany)", None),
        ("Ann (seat one)", None),
        ("Bob (yours)", None),
        ("(you) Bob", None),
        ("You", None),
        ("Bob", None),
    ],
)
def test_marked_reads_a_name_as_people_read_it(name: str, mark: str | None) -> None:
    assert marked(name) == mark
    assert mark is None or mark in MARKS


def test_cli_play_refuses_a_name_ending_with_a_mark(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _cli(monkeypatch, capsys, [*PLAY, "--name", "Random 2 (you)"])
    assert status == 2 and "ends with '(you)', a mark the tables add after names" in err
    status, out, err = _cli(monkeypatch, capsys, [*PLAY, "--name", "Bob (yours)"])
    assert status == 0, err
    assert "you are Bob (yours);" in out
