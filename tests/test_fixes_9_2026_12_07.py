"""Fixes of the 2026-12-07 (third) session, each test checked to fail on the code before it."""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

import pytest

import cardcore
from cardcore import cli


def _cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = cli.main(list(argv))
    return code, out.getvalue()


def _finished(path: Path, game_name: str, *, truncate: bool = False) -> cardcore.Game:
    game = cardcore.new_game(
        game_name, 2, seed=5, options={"rounds": 1} if game_name == "golf" else None
    )
    moves = 0
    rng = random.Random(5)  # a game that ends by its rules (the last legal action ran to the
    while not game.is_over and not (truncate and moves == 6):  # bound: 2,000 tables to print)
        legal = game.legal_actions(game.to_act[0])
        game.apply(rng.choice([a for a in legal if a.verb != "drop"] or legal))
        moves += 1
    assert truncate or (game.result is not None and game.result.reason != "truncated")
    if truncate:
        game.truncate()
    path.write_text(json.dumps(game.record()))
    return game


@pytest.mark.parametrize(
    ("game_name", "truncate"), [("golf", False), ("tonk", False), ("golf", True)]
)
def test_a_finished_replay_says_its_result_once_in_its_last_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game_name: str, truncate: bool
) -> None:
    """The last table of ``cardcore replay`` ends with the result; it was printed again under it."""
    monkeypatch.setenv("COLUMNS", "160")
    path = tmp_path / "rec.json"
    game = _finished(path, game_name, truncate=truncate)
    code, out = _cli("replay", str(path))
    assert code == 0
    assert out.count("game over (") == 1
    last_table = out.rsplit("\n#", 1)[1]
    assert "game over (" in last_table and last_table.rstrip().endswith("╯")
    assert game.result is not None and game.is_over


def test_a_hubs_first_message_is_read_against_the_sessions_own_limit() -> None:
    """A hub read a connection's first message (its join) against the hub's ``max_message``:
    a session with a smaller limit took a join longer than it reads any other message."""
    from cardcore.session import Hub, SessionConfig
    from cardcore.session.config import Limits

    hub = Hub()
    session = hub.create(
        "golf", ["a", "b"], now=0.0, config=SessionConfig(limits=Limits(max_message=100))
    )
    long_join = json.dumps({"type": "join", "session": session.id, "seat": 0}) + " " * 80
    assert 100 < len(long_join) < hub.limits.max_message
    out = hub.handle("c1", long_join, 1.0)
    assert [o.message["code"] for o in out] == ["too-large"]
    assert not session.conns and not hub.joined("c1")
    short = json.dumps({"type": "join", "session": session.id, "seat": 0})
    assert next(o.message["type"] for o in hub.handle("c1", short, 1.0)) == "welcome"


def test_a_stored_token_hash_that_is_not_ascii_is_no_match_not_a_type_error() -> None:
    """A damaged token row (a digest with a non-ASCII character) made ``hmac.compare_digest``
    raise ``TypeError``, which reached the joining client as ``internal``."""
    from cardcore.session.tokens import hash_token, token_matches

    good = hash_token("t0k3n", "s1", 0)
    assert token_matches("t0k3n", good, "s1", 0)
    assert not token_matches("t0k3n", "é" * 64, "s1", 0)
    assert not token_matches("t0k3n", good[:-1] + "\u0661", "s1", 0)
    assert not token_matches("t0k3n", good, "s1", 1)


def test_a_seat_option_of_choices_and_numbers_takes_an_int_enum_as_an_int_option_does() -> None:
    """Golf's ``dealer`` ('random' or a seat) refused an ``IntEnum`` seat that ``rounds`` (an
    int option) takes; both keep the plain int. A bool or a float is refused as before."""
    import enum

    class Seat(enum.IntEnum):
        SECOND = 1

    game = cardcore.new_game(
        "golf", 2, seed=1, options={"dealer": Seat.SECOND, "rounds": Seat.SECOND}
    )
    assert type(game.options["dealer"]) is int and game.options["dealer"] == 1
    assert type(game.options["rounds"]) is int
    for bad in (True, 1.0, 64):
        with pytest.raises(cardcore.OptionError, match="dealer"):
            cardcore.new_game("golf", 2, seed=1, options={"dealer": bad})
