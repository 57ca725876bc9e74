"""Strict xfails from a hostile-input pass over the recently changed entry points
(option checks, the stakes ledger, the number reader, search samples, the CLI's
option parser and ``simulate``). Each test states what a caller should get."""

from __future__ import annotations

import enum
import random

import pytest

import cardcore
from cardcore.cli.args import parse_options
from cardcore.info import Option
from cardcore.notation import parse_int
from cardcore.scoring import Ledger, LedgerError
from cardcore.search import sample_position


class _HashRaises(int):
    """An int whose hash fails (a caller's broken object)."""

    def __hash__(self) -> int:
        raise RuntimeError("hash")


class _StrHashRaises(str):
    def __hash__(self) -> int:
        raise RuntimeError("hash")


class _CompareRaises(int):
    """An int subclass whose ordering fails."""

    def __lt__(self, other: object) -> bool:
        raise RuntimeError("lt")

    def __gt__(self, other: object) -> bool:
        raise RuntimeError("gt")


class _Nine(enum.IntEnum):
    NINE = 9


# --- options ---------------------------------------------------------------


def test_option_value_whose_hash_raises_is_read_by_its_value_or_refused() -> None:
    # An int subclass is read by its value, as an int option reads it (2026-12-07: Golf's
    # dealer, a choice or a seat, takes an IntEnum seat); a text whose hash fails is refused.
    game = cardcore.new_game("golf", 2, options={"dealer": _HashRaises(1)})
    assert type(game.options["dealer"]) is int and game.options["dealer"] == 1
    with pytest.raises(cardcore.CardcoreError):
        cardcore.new_game("golf", 2, options={"dealer": _StrHashRaises("random")})


def test_int_option_with_failing_comparison_is_read_by_its_value() -> None:
    # (an option *name* whose hash fails cannot reach cardcore: the caller's own dict hashes it)
    game = cardcore.new_game("golf", 2, options={"rounds": _CompareRaises(5)})
    assert type(game.options["rounds"]) is int and game.options["rounds"] == 5


def test_int_option_keeps_a_plain_int_not_the_callers_subclass() -> None:
    # The object-kind path refuses subclasses so they never reach views and records;
    # the int path keeps _Nine.NINE in the live game while a reload holds 9.
    try:
        game = cardcore.new_game("golf", 2, options={"rounds": _Nine.NINE})
    except cardcore.OptionError:
        return
    assert type(game.options["rounds"]) is int


def test_float_option_refuses_a_huge_int_with_an_option_error() -> None:
    opt = Option("ratio", 1.0, kind=float, minimum=0, maximum=5)
    with pytest.raises(cardcore.OptionError):
        opt.check(10**5000)


def test_float_option_with_bounds_refuses_nan() -> None:
    opt = Option("ratio", 1.0, kind=float, minimum=0, maximum=5)
    with pytest.raises(cardcore.OptionError):
        opt.check(float("nan"))


# --- the ledger ------------------------------------------------------------


@pytest.mark.parametrize(
    "players", ["2", 2.0, None, 10**5000, -1], ids=["str", "float", "none", "huge", "negative"]
)
def test_ledger_refuses_a_players_count_that_is_not_a_seat_count(players: object) -> None:
    with pytest.raises(cardcore.CardcoreError):
        Ledger(players)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "amounts", [None, 5, iter([1, -1]), (a for a in (1, -1))], ids=["none", "int", "iter", "gen"]
)
def test_ledger_post_refuses_amounts_that_are_not_a_sequence(amounts: object) -> None:
    ledger = Ledger(2)
    with pytest.raises(LedgerError):
        ledger.post(amounts, "r")  # type: ignore[arg-type]
    assert ledger.totals == [0, 0] and ledger.entries == []


def test_ledger_post_refuses_a_mapping() -> None:
    ledger = Ledger(2)
    with pytest.raises(LedgerError):
        ledger.post({1: 0, -1: 0}, "r")  # type: ignore[arg-type]
    assert ledger.totals == [0, 0]


@pytest.mark.parametrize("reason", [None, 5, object()], ids=["none", "int", "object"])
def test_ledger_post_refuses_a_reason_that_is_not_text(reason: object) -> None:
    ledger = Ledger(2)
    with pytest.raises(LedgerError):
        ledger.post([0, 0], reason)  # type: ignore[arg-type]
    assert ledger.entries == []


# --- the number reader -----------------------------------------------------


@pytest.mark.parametrize("word", [None, 5, ["1"]], ids=["none", "int", "list"])
def test_parse_int_refuses_a_word_that_is_not_text(word: object) -> None:
    with pytest.raises(cardcore.NotationError):
        parse_int(word)  # type: ignore[arg-type]


def test_parse_int_refuses_bytes() -> None:
    with pytest.raises(cardcore.NotationError):
        parse_int(b"12")  # type: ignore[arg-type]


# --- search samples --------------------------------------------------------


def _gofish_view_after_an_ask() -> dict:
    game = cardcore.new_game("gofish", 2, seed=1)
    game.act(0, game.legal_actions(0)[0].notation())
    return game.view(0)


def test_gofish_sample_with_a_repeated_asked_word_is_refused_or_playable() -> None:
    view = _gofish_view_after_an_ask()
    view["table"]["asked"] = [["A", "A"], []]
    try:
        text = sample_position(view, random.Random(1))
    except cardcore.CardcoreError as exc:
        assert not isinstance(exc, cardcore.PluginError)
        return
    cardcore.new_game("gofish", 2, position=text)  # asked=[2,0] is refused (GOFISH-KNOW-1)


@pytest.mark.parametrize("asked", [[["X"], []], [["JK"], []], None], ids=["X", "JK", "none"])
def test_gofish_sample_with_asked_words_not_ranks_blames_the_view(asked: object) -> None:
    view = _gofish_view_after_an_ask()
    view["table"]["asked"] = asked
    with pytest.raises(cardcore.CardcoreError) as info:
        sample_position(view, random.Random(1))
    assert not isinstance(info.value, cardcore.PluginError)


# --- CLI option parser ------------------------------------------------------


@pytest.mark.parametrize("pair", ["rounds=١", "rounds=1_0", "max_turns=٣"])
def test_cli_int_option_refuses_what_the_core_number_reader_refuses(pair: str) -> None:
    with pytest.raises(cardcore.OptionError):
        parse_options("golf", [pair])


@pytest.mark.parametrize(
    "pairs", ["dealer=1", [None], [5], [b"dealer=1"]], ids=["text", "[none]", "[5]", "[bytes]"]
)
def test_cli_parse_options_refuses_pairs_that_are_not_text(pairs: object) -> None:
    with pytest.raises(cardcore.CardcoreError):
        parse_options("golf", pairs)  # type: ignore[arg-type]


# --- game names ------------------------------------------------------------


@pytest.mark.parametrize("entry", ["new_game", "simulate"])
def test_game_name_whose_hash_raises_is_read_as_its_text(entry: str) -> None:
    name = _StrHashRaises("golf")  # escaped raw (RuntimeError) from the configuration cache
    if entry == "new_game":
        assert cardcore.new_game(name, 2, seed=1).name == "golf"
    else:
        assert cardcore.simulate(name, games=1).game == "golf"
