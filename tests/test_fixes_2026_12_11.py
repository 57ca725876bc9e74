"""Fixes of 2026-12-11 beyond what the reviews' own tests check."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest
from attrs import frozen

import cardcore
from cardcore import SPECTATOR, Action, ActionApplied, ArgumentError, Event, IllegalActionError
from cardcore.notation import ActionParser


@pytest.mark.parametrize("flag", [True, np.bool_(True)])
def test_a_flag_is_no_time(flag: object) -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    with pytest.raises(IllegalActionError, match="must be a number"):
        game.act(0, "flip 0", at=flag)
    assert game.version == 0


@pytest.mark.parametrize("stamp", [np.int64(7), np.int32(7), np.float32(7.0), np.uint8(7)])
def test_a_numpy_number_is_a_time_recorded_as_a_plain_number(stamp: object) -> None:
    game = cardcore.new_game("golf", 2, seed=4)
    game.act(0, "flip 0", at=stamp)
    row = game.record()["actions"][0]
    assert row[-1] == 7 and type(row[-1]) in (int, float), row
    assert cardcore.load(game.save()).record()["actions"][0] == row


def test_a_str_subclass_spectator_gets_the_public_stream() -> None:
    class Name(str):
        pass

    game = cardcore.new_game("tonk", 2, seed=4)
    got: list[Event] = []
    public: list[Event] = []
    game.events.subscribe(Event, got.append, seat=Name(SPECTATOR))
    game.events.subscribe(Event, public.append, seat=SPECTATOR)
    seat = game.to_act[0]
    game.act(seat, game.view(seat)["legal"][0])
    assert got and [e.to_json() for e in got] == [e.to_json() for e in public]
    assert any(type(e) is ActionApplied for e in got)


@frozen
class _Knock(Action):
    verb: ClassVar[str] = "knock"


@pytest.mark.parametrize("seat", [-1, None, "0", 1.0, True, np.int64(0)])
def test_action_parser_refuses_a_seat_that_is_not_a_seat_number(seat: object) -> None:
    parser = ActionParser([_Knock])
    assert parser.parse(2, "knock") == _Knock(2)
    with pytest.raises(ArgumentError, match="seat number"):
        parser.parse(seat, "knock")  # type: ignore[arg-type]


def test_a_one_file_game_ships_its_rules_as_rules_md(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game that is one module (no package to hold a RULES.md) sets ``RULES_MD``:
    ``cardcore rules`` lists it, and finds one rule by its ID."""
    from cardcore.cli import main
    from tests.plugins import eights_2026_12_11 as e8

    text = (
        "# Crazy Eights\n\n- **EIGHTS-GEN-1** Two to five players.\n"
        "- **EIGHTS-PLAY-1** Match the discard's suit or rank; eights are wild.\n"
    )
    monkeypatch.setattr(e8, "RULES_MD", text, raising=False)
    cardcore.register("cardcore.games", e8.NAME, e8)
    try:
        assert main(["rules", e8.NAME]) == 0
        listing = capsys.readouterr().out
        assert "EIGHTS-GEN-1" in listing and "EIGHTS-PLAY-1" in listing
        assert main(["rules", e8.NAME, "EIGHTS-PLAY-1"]) == 0
        one = capsys.readouterr().out
        assert "eights are wild" in one and "EIGHTS-GEN-1" not in one
        assert main(["rules", e8.NAME, "EIGHTS-NOPE-1"]) == 2
    finally:
        cardcore.unregister("cardcore.games", e8.NAME)
