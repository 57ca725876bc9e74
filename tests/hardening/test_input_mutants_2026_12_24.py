"""A mutation audit of input validation (2026-12-24: 38 mutants of options, records, saves,
positions, notation and the session protocol; 4 real survivors): each test here fails on one
of them, a bad input no other test noticed getting through."""

from __future__ import annotations

import json
from typing import ClassVar

import pytest
from attrs import frozen

from cardcore import Action, Option
from cardcore.errors import ArgumentError, OptionError, PluginError
from cardcore.notation import ActionParser
from cardcore.session.protocol import ProtocolError, read_message


def test_object_option_bounds_refuse_one_below_the_minimum() -> None:
    opt = Option("cap", default="all", kind=object, choices=("all",), minimum=2, maximum=9)
    assert opt.check(2) == 2
    assert opt.check(9) == 9
    for bad in (1, 10, True, 2.0):
        with pytest.raises(OptionError, match="cap"):
            opt.check(bad)


@pytest.mark.parametrize("what", ["minimum", "maximum"])
def test_option_bound_nan_is_refused(what: str) -> None:
    # a NaN bound would let every value pass its comparison
    with pytest.raises(PluginError, match="NaN"):
        Option("x", default=1, **{what: float("nan")})


@frozen
class _Ask(Action):
    target: int
    verb: ClassVar[str] = "ask"

    def notation(self) -> str:
        return f"ask {self.target}"


@pytest.mark.parametrize("seat", [-1, -5])
def test_action_parser_refuses_negative_seat(seat: int) -> None:
    parser = ActionParser([_Ask])
    assert parser.parse(0, "ask 1") == _Ask(0, 1)
    with pytest.raises(ArgumentError, match="seat"):
        parser.parse(seat, "ask 1")


@pytest.mark.parametrize("ref", [2**53, -(2**53), 2**60])
def test_protocol_refuses_message_id_beyond_2_53(ref: int) -> None:
    good = read_message(json.dumps({"type": "history", "id": 2**53 - 1}), 10_000)
    assert good["id"] == 2**53 - 1
    with pytest.raises(ProtocolError) as info:
        read_message(json.dumps({"type": "history", "id": ref}), 10_000)
    assert info.value.code == "bad-message"
    assert "'id'" in str(info.value)
