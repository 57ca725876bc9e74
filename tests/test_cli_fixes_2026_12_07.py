"""Fixes of the terminal's play loops (2026-12-07, from ``test_play_read_review_2026_12_07.py``):
Ctrl-C anywhere in a turn-based game, not only at the prompt or while a bot thinks, leaves
it as ``quit`` does (so ``cardcore play`` saves the record, as cli.rst says)."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import cardcore
from cardcore import cli
from cardcore.cli.play import play_turn_based


class _CtrlCOnce(io.StringIO):
    """A terminal where Ctrl-C comes while the bot's move is printed (after it was applied)."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = True

    def write(self, text: str) -> int:
        if self.armed and text.startswith("Bot: "):
            self.armed = False
            raise KeyboardInterrupt
        return super().write(text)


class _First:
    def choose(self, view: object, legal: Any) -> Any:
        return legal[0]


def _read(prompt: str) -> str:
    raise AssertionError("the human is never asked: Ctrl-C came first")


def _played(console: Console, game: cardcore.Game, seat: int, agents: list[Any]) -> str:
    try:
        return play_turn_based(console, game, seat, agents, _read)
    except KeyboardInterrupt:  # (caught here: one escaping would stop the whole test run)
        pytest.fail("Ctrl-C escaped the loop (cardcore play: 'interrupted', no record saved)")


def test_ctrl_c_while_a_move_is_printed_leaves_the_game() -> None:
    game = cardcore.new_game("golf", ["Bot", "Me"], seed=1)
    assert game.to_act == (0,)  # the bot moves first
    out = _CtrlCOnce()
    console = Console(file=out, width=200, color_system=None, emoji=False)
    assert _played(console, game, 1, [_First(), None]) == "quit"
    assert not out.armed  # the interrupt came
    assert game.version == 1 and not game.is_over  # the move applied stays; nothing more
    assert cardcore.replay(game.record()).version == 1  # the record to save is whole


def test_ctrl_c_while_the_table_is_drawn_leaves_the_game() -> None:
    game = cardcore.new_game("golf", ["Me", "Bot"], seed=1)
    assert game.to_act == (0,)  # the human first: the table is drawn

    class Drawn(io.StringIO):
        armed = True

        def write(self, text: str) -> int:
            if self.armed and "Me" in text:  # the table (its seats named)
                self.armed = False
                raise KeyboardInterrupt
            return super().write(text)

    out = Drawn()
    console = Console(file=out, width=200, color_system=None, emoji=False)
    assert _played(console, game, 0, [None, _First()]) == "quit"
    assert not out.armed and game.version == 0


class _FailsOnItsSecondMove:
    """A bot that plays once, then fails (a bug of its own)."""

    def __init__(self, seed: int = 0, **params: Any) -> None:
        self.moves = 0

    def choose(self, view: object, legal: Any) -> Any:
        self.moves += 1
        if self.moves > 1:
            msg = "the bot's own bug"
            raise RuntimeError(msg)
        return legal[0]


def test_cardcore_play_keeps_the_moves_when_a_bot_fails(tmp_path: Path) -> None:
    """The error is said as before (status 1), and the game so far is saved first."""
    cardcore.register("cardcore.agents", "review-fails", _FailsOnItsSecondMove)
    path = tmp_path / "game.json"
    old = sys.stdin
    sys.stdin = io.StringIO("1\n" * 40)  # the human's moves: the first legal action each time
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(
                ["play", "golf", "-p", "2", "--seat", "1", "--agent", "review-fails",
                 "--seed", "1", "--record", str(path)]
            )  # fmt: skip
    finally:
        sys.stdin = old
        cardcore.unregister("cardcore.agents", "review-fails")
    assert code == 1, (out.getvalue(), err.getvalue())
    assert "the bot's own bug" in err.getvalue()
    assert f"the game so far saved to {path}" in out.getvalue()
    record = json.loads(path.read_text(encoding="utf-8"))
    game = cardcore.replay(record)
    assert game.version >= 1 and not game.is_over  # the bot's first move at least


class _Illegal:
    """A bot that answers an action of its own seat the game does not list."""

    def choose(self, view: object, legal: Any) -> Any:
        return type(legal[0])(0, 99)  # Golf's flip of a place the grid has not


def test_a_bots_illegal_answer_names_its_seat_as_cardcore_play_does() -> None:
    game = cardcore.new_game("golf", ["Bot", "Me"], seed=1)
    console = Console(file=io.StringIO(), width=200, color_system=None, emoji=False)
    with pytest.raises(
        cardcore.IllegalActionError, match=r"^the agent at seat 0 \(_Illegal\) answered: "
    ):
        play_turn_based(console, game, 1, [_Illegal(), None], _read)
    assert game.version == 0
