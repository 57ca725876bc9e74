"""Review of d1dec20 and 418cbaa, the hostile-argument fixes of both API sweeps (2026-12-30).

The standard (docs/api.rst, Errors): bad input gets a clear error deriving from
:class:`cardcore.CardcoreError` that names what was wrong and changes nothing; no raw
Python exception reaches a caller from input.

Passing tests pin what the commits claim and what must not regress for legitimate input
(``StrEnum``/``IntEnum`` names and numbers, numpy and ``Fraction`` bounds, tuples of
patch operations, a game named by a ``StrEnum`` everywhere a name is taken). Each strict
xfail is a finding: the same hostile values (a ``str`` subclass whose ``__eq__``/``__hash__``
raise, an object claiming ``str``/``bytes`` through a ``__class__`` property) at a place
the commits did not reach, or a message the fix made lose a choice. Every game here is
dealt from a fixed seed; nothing is timed.
"""

from __future__ import annotations

import enum
import fractions
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import CardcoreError
from cardcore.compare import default_agent
from cardcore.deck import CHANCE, LEGACY_CHANCE, Chance, generator
from cardcore.errors import (
    ArgumentError,
    CorruptStateError,
    OptionError,
    PluginError,
    UnknownPluginError,
)
from cardcore.events import jsonable
from cardcore.info import Option
from cardcore.rl.encoding import seat_view
from cardcore.session import Hub
from cardcore.session.config import GameSetup
from cardcore.session.patch import apply_patch


class Hostile(str):
    """Text whose own comparing and hashing fail."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("hostile __eq__")

    __ne__ = __eq__  # type: ignore[assignment]

    def __hash__(self) -> int:
        raise RuntimeError("hostile __hash__")


class ClaimsStr:
    """Claims to be text through ``__class__``; its hashing and printing fail."""

    __class__ = property(lambda self: str)  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("hostile __eq__")

    def __hash__(self) -> int:
        raise RuntimeError("hostile __hash__")

    def __str__(self) -> str:
        raise RuntimeError("hostile __str__")


class ClaimsBytes:
    """Claims to be bytes through ``__class__``."""

    __class__ = property(lambda self: bytes)  # type: ignore[assignment]


class Name(enum.StrEnum):
    GOLF = "golf"
    AGENT = "review-2-random"
    TABLE = "table"
    SESSION = "review-2-session"


class Number(enum.IntEnum):
    ONE = 1
    THREE = 3


# --- claims that hold: legitimate input the commits must not refuse ------------------------


def test_generator_takes_an_intenum_version_and_refuses_an_unknown_one() -> None:
    assert (CHANCE, LEGACY_CHANCE) == (3, 2)
    assert type(generator(7, 0, Number.THREE)) is Chance
    with pytest.raises(ArgumentError, match="version 1"):
        generator(7, 0, 1)


def test_option_bounds_of_numpy_fraction_and_intenum_are_plain_numbers() -> None:
    opt = Option("x", 3, minimum=np.int64(1), maximum=np.float32(5.5))
    assert (opt.minimum, opt.maximum) == (1, 5.5)
    assert (type(opt.minimum), type(opt.maximum)) == (int, float)
    opt = Option("x", 3, minimum=fractions.Fraction(1, 2), maximum=Number.THREE)
    assert (opt.minimum, opt.maximum) == (0.5, 3)
    assert type(opt.maximum) is int


def test_option_bound_a_float_cannot_hold_is_a_plugin_error() -> None:
    with pytest.raises(PluginError, match="minimum must be a number"):
        Option("x", 3, minimum=fractions.Fraction(10**400, 3))


def test_option_choices_of_cards_list_each_choice() -> None:
    five = cardcore.Card.parse("5H")
    opt = Option("x", None, kind=object, nullable=True, choices=(five, "5H"))
    with pytest.raises(OptionError) as info:
        opt.check("9C")
    message = str(info.value)
    assert repr(five) in message  # the card as itself
    assert "or '5H'" in message  # and the text, a different choice (it was left out)


def test_register_under_a_strenum_name_finds_and_unregisters_it_as_text() -> None:
    agent = cardcore.load_agent("random")
    cardcore.register("cardcore.agents", Name.AGENT, agent)
    try:
        assert "review-2-random" in cardcore.available_agents()
        assert cardcore.load_agent("review-2-random") is agent
    finally:
        cardcore.unregister("cardcore.agents", "review-2-random")
    assert "review-2-random" not in cardcore.available_agents()


def test_register_refuses_a_name_that_is_no_text_and_a_group_only_claiming_text() -> None:
    agent = cardcore.load_agent("random")
    with pytest.raises(ArgumentError):
        cardcore.register("cardcore.agents", None, agent)  # type: ignore[arg-type]
    with pytest.raises(UnknownPluginError):
        cardcore.register(ClaimsStr(), "review-2-x", agent)  # type: ignore[arg-type]
    assert None not in cardcore.available_agents()
    assert "review-2-x" not in cardcore.available_agents()


def test_register_reads_a_hostile_str_subclass_group_as_its_text() -> None:
    agent = cardcore.load_agent("random")
    cardcore.register(Hostile("cardcore.agents"), "review-2-x", agent)
    try:
        assert cardcore.load_agent("review-2-x") is agent
    finally:
        cardcore.unregister(Hostile("cardcore.agents"), "review-2-x")
    assert "review-2-x" not in cardcore.available_agents()


def test_default_agent_takes_a_strenum_game_and_refuses_no_text() -> None:
    assert default_agent(Name.GOLF) == default_agent("golf")
    with pytest.raises(ArgumentError, match="named by text"):
        default_agent(5)  # type: ignore[arg-type]


def test_apply_patch_takes_tuple_ops_and_str_subclass_kinds() -> None:
    assert apply_patch({"a": 1}, (["set", ["a"], 2],)) == {"a": 2}  # type: ignore[arg-type]
    assert apply_patch({"a": 1, "b": 2}, [[Hostile("del"), ["b"]]]) == {"a": 1}
    with pytest.raises(CorruptStateError, match="unknown patch operation"):
        apply_patch({"a": 1}, [["zz", []]])


def test_game_setup_and_hub_take_strenum_names_as_plain_text() -> None:
    setup = GameSetup(Name.GOLF, ("a", "b"))
    assert type(setup.game) is str
    hub = Hub()
    hub.create(Name.GOLF, 2, now=1.0, seed=1, session_id=Name.SESSION)
    assert [type(k) for k in hub.sessions] == [str]
    assert list(hub.sessions) == ["review-2-session"]


def test_seat_view_takes_a_strenum_need_and_refuses_another() -> None:
    game = cardcore.new_game("golf", players=2, seed=1)
    assert seat_view(game, 1, Name.TABLE)["seat"] == 1
    with pytest.raises(ArgumentError, match="'view' or 'table'"):
        seat_view(game, 1, "tabel")


def test_jsonable_writes_an_intenum_as_a_plain_int() -> None:
    out = jsonable({"a": Number.ONE})
    assert out == {"a": 1}
    assert type(out["a"]) is int


# --- findings: strict xfails ---------------------------------------------------------------


def test_option_message_lists_two_long_choices_that_differ_late() -> None:
    first, second = (*[1] * 40, 2), (*[1] * 40, 3)
    opt = Option("x", first, kind=object, choices=(first, second))
    with pytest.raises(OptionError) as info:
        opt.check((9,))
    assert " or " in str(info.value)  # two choices: "must be one of A or B"


def test_new_game_refuses_a_rule_that_only_claims_text() -> None:
    with pytest.raises(CardcoreError):
        cardcore.new_game("golf", players=2, seed=1, rules=[ClaimsStr()])


def test_load_refuses_an_object_that_only_claims_text() -> None:
    with pytest.raises(CardcoreError):
        cardcore.load(ClaimsStr())


def test_replay_refuses_an_object_that_only_claims_bytes() -> None:
    with pytest.raises(CardcoreError):
        cardcore.replay(ClaimsBytes())


def test_simulate_reads_a_str_subclass_agent_plain() -> None:
    agents: list[Any] = [Hostile("random"), "random"]
    summary = cardcore.simulate("golf", games=1, players=2, agents=agents, seed=1)
    assert summary is not None
