"""Audit 2026-12-09: the documented ``:raises X:`` clauses of public names the earlier
hostile-API audits did not reach, and odd inputs to those names.

Covered here: the card and deck helpers (:func:`cardcore.shuffle`, :class:`cardcore.Chance`,
:func:`cardcore.derive_rng`, :func:`cardcore.decks`, :func:`cardcore.with_jokers`,
:meth:`cardcore.Card.parse`, :func:`cardcore.parse_cards`), scoring
(:class:`cardcore.ScoreTable`, :class:`cardcore.ScoreSheet`, :class:`cardcore.Ledger`),
:func:`cardcore.jsonable`, :class:`cardcore.LazyView`, the plugin look-ups
(:func:`cardcore.parse_agent_spec`, :func:`cardcore.unregister`,
:func:`cardcore.earlier_rules`, :func:`cardcore.rule_info`), :class:`cardcore.RandomAgent`,
``EventBus.subscribe``, :mod:`cardcore.turns` and :mod:`cardcore.rl`'s ``win_rewards`` and
``seat_view``.

Bugs are strict xfails asserting the right behaviour; claims that hold are plain tests.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import cardcore
from cardcore import (
    ArgumentError,
    Card,
    CardcoreError,
    Chance,
    Event,
    Ledger,
    NotationError,
    OptionError,
    RandomAgent,
    ScoreSheet,
    ScoreTable,
    SeatError,
    UnknownPluginError,
    derive_rng,
    parse_cards,
    standard_52,
)
from cardcore.scoring import LedgerError

HUGE = 10**5000


def _id(value: Any) -> str | None:
    """Test ids: pytest cannot print an int of 5,000 digits."""
    return "huge" if type(value) is int and abs(value) > 10**100 else None


class HashRaises(str):
    """A str subclass whose hash raises (as the earlier audit's)."""

    def __hash__(self) -> int:
        raise RuntimeError("hash")


class ReprRaises:
    """An object whose repr, str, eq and hash all raise."""

    def __repr__(self) -> str:
        raise RuntimeError("repr")

    def __str__(self) -> str:
        raise RuntimeError("str")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __hash__(self) -> int:
        raise RuntimeError("hash")


def _cardcore_error(call: Callable[[], object]) -> CardcoreError:
    """*call* raises a CardcoreError; a raw exception or an acceptance fails the test."""
    try:
        call()
    except CardcoreError as exc:
        return exc
    except Exception as exc:  # a raw exception reached the caller
        raise AssertionError(f"raw {type(exc).__name__}: {exc}") from exc
    raise AssertionError("accepted")


def _fingerprint(game: cardcore.Game) -> tuple[Any, ...]:
    views = tuple(json.dumps(game.view(s), sort_keys=True) for s in range(len(game.players)))
    return (json.dumps(game.save(), sort_keys=True), game.version, views, game.to_act)


# --------------------------------------------------------------------------- cards and decks


@pytest.mark.parametrize("count", [-1, 10_001, True, 2.0, "2", None, HUGE], ids=_id)
def test_decks_and_with_jokers_refuse_bad_counts_naming_them(count: Any) -> None:
    """deck.decks / with_jokers: ``:raises ArgumentError: A count that is not an int from 0 to MAX_DECKS``."""
    for call in (lambda: cardcore.decks(count), lambda: cardcore.with_jokers(standard_52(), count)):
        exc = _cardcore_error(call)
        assert isinstance(exc, ArgumentError)
        assert len(str(exc)) < 400


@pytest.mark.parametrize("seed", [True, 1.0, "1", None, HUGE, -HUGE], ids=_id)
def test_derive_rng_and_chance_refuse_non_int_seeds(seed: Any) -> None:
    """derive_rng / Chance: ``:raises ArgumentError: *seed* or *counter* is not an int``."""
    for call in (lambda: derive_rng(seed, 0), lambda: Chance(seed, 0), lambda: Chance(0, seed)):
        exc = _cardcore_error(call)
        assert isinstance(exc, ArgumentError)
        assert len(str(exc)) < 400


def test_chance_randrange_choice_and_sample_raise_their_documented_classes() -> None:
    """Chance.randrange ValueError (empty range), choice IndexError (empty), sample ValueError (k)."""
    rng = Chance(1, 0)
    with pytest.raises(ValueError):
        rng.randrange(0)
    with pytest.raises(IndexError):
        rng.choice([])
    with pytest.raises(ValueError):
        rng.sample([1, 2], 3)
    with pytest.raises(ValueError):
        rng.sample([1, 2], -1)


@pytest.mark.parametrize("rng", [1, None, "seed", 1.5])
def test_shuffle_with_something_that_is_not_a_generator_is_an_argument_error(rng: Any) -> None:
    cards = list(standard_52())
    before = list(cards)
    exc = _cardcore_error(lambda: cardcore.shuffle(cards, rng))
    assert isinstance(exc, ArgumentError)
    assert "rng" in str(exc) or "generator" in str(exc)
    assert cards == before


def test_card_parse_of_a_hostile_str_subclass_is_a_notation_error_or_reads_plain() -> None:
    try:
        card = Card.parse(HashRaises("AS"))
    except NotationError:
        return
    except Exception as exc:
        raise AssertionError(f"raw {type(exc).__name__}: {exc}") from exc
    assert card == Card.parse("AS")


@pytest.mark.parametrize("text", [None, 5, 2.5, b"AS KH", {"AS": 1}])
def test_parse_cards_refuses_what_is_neither_text_nor_cards(text: Any) -> None:
    """parse_cards: ``:raises ArgumentError: *text* is neither text nor an iterable`` (or NotationError per item)."""
    exc = _cardcore_error(lambda: parse_cards(text))
    assert isinstance(exc, ArgumentError | NotationError)


@pytest.mark.parametrize("bad", ["ZZ", "", "\ud800", "１０H", "\u200fAS", "10H" * 1000])
def test_parse_cards_names_the_first_item_that_is_not_a_card(bad: str) -> None:
    """parse_cards: ``:raises NotationError: Naming the first item that is not a card``."""
    exc = _cardcore_error(lambda: parse_cards(["AS", bad, "QQ"]))
    assert isinstance(exc, NotationError)
    assert "QQ" not in str(exc)
    assert len(str(exc)) < 400


@pytest.mark.parametrize(
    ("rank", "suit"), [("A", "S"), (1, 1), (None, None), (cardcore.Rank.ACE, None)]
)
def test_card_built_directly_with_bad_parts_is_an_argument_error(rank: Any, suit: Any) -> None:
    """Card: ``:raises ArgumentError: Built directly with a rank that is not a Rank, or a suit ...``."""
    exc = _cardcore_error(lambda: Card(rank, suit))
    assert isinstance(exc, ArgumentError)


# --------------------------------------------------------------------------- scoring


@pytest.mark.parametrize("value", [1.5, True, "3", [1]])
def test_score_table_from_points_refuses_non_int_points(value: Any) -> None:
    """ScoreTable.from_points: ``:raises ArgumentError: *points* answered something else than an int``."""
    exc = _cardcore_error(lambda: ScoreTable.from_points(lambda card: value, standard_52()))
    assert isinstance(exc, ArgumentError)
    assert "int" in str(exc)


def test_score_table_from_points_refuses_card_text_for_cards() -> None:
    exc = _cardcore_error(lambda: ScoreTable.from_points(lambda card: 1, ["KH"]))  # type: ignore[list-item]
    assert "KH" in str(exc)


@pytest.mark.parametrize(
    "points",
    [{"Z": 1}, {1: 2}, {"K": "ten"}, None, [("K", 1)]],
    ids=["unknown-rank", "int-key", "str-points", "none", "list"],
)
def test_score_table_from_ranks_refuses_bad_tables_naming_the_entry(points: Any) -> None:
    exc = _cardcore_error(lambda: ScoreTable.from_ranks(points))
    assert len(str(exc)) < 400


@pytest.mark.parametrize("points", [{1: 2}, {"K": 1.5}, None])
def test_score_table_replace_refuses_bad_entries(points: Any) -> None:
    table = ScoreTable.face_values()
    _cardcore_error(lambda: table.replace(points))
    assert table[Card.parse("KH")] == 10


@pytest.mark.parametrize("players", [-1, 0, "3", None, 2.5, HUGE, 65], ids=_id)
def test_score_sheet_refuses_a_seat_count_as_the_ledger_does(players: Any) -> None:
    with pytest.raises(LedgerError):
        Ledger(players)
    exc = _cardcore_error(lambda: ScoreSheet(players))
    assert "seat" in str(exc) or "player" in str(exc)


@pytest.mark.parametrize(
    "scores",
    [b"AS", "ab", [1], [1, 2, 3], ["a", "b"], [1.5, float("nan")], None],
    ids=["bytes", "text", "short", "long", "strs", "nan", "none"],
)
def test_score_sheet_add_round_refuses_nonsense_and_keeps_its_totals(scores: Any) -> None:
    sheet = ScoreSheet(2)
    sheet.add_round([3, 4])
    before = sheet.snapshot()
    _cardcore_error(lambda: sheet.add_round(scores))
    assert sheet.snapshot() == before


@pytest.mark.parametrize(
    "amounts",
    [[1, 1], [1.0, -1.0], [True, -1], [1, -1, 0], "1-1", None, (HUGE, 1)],
)
def test_ledger_post_refuses_unbalanced_or_non_int_postings_and_keeps_totals(amounts: Any) -> None:
    """Ledger.post: ``:raises LedgerError: If the amounts are not one whole number per seat summing to zero``."""
    ledger = Ledger(2)
    ledger.post([2, -2], "first")
    before = ledger.snapshot()
    exc = _cardcore_error(lambda: ledger.post(amounts, "x"))
    assert isinstance(exc, LedgerError)
    assert isinstance(exc, ValueError)  # documented: catch it as ValueError too
    assert len(str(exc)) < 500
    assert ledger.snapshot() == before


@pytest.mark.parametrize(
    ("payer", "payee", "amount"),
    [
        (0, 0, 1),
        (0, 2, 1),
        (-1, 0, 1),
        (True, 0, 1),
        (0, 1, -1),
        (0, 1, 1.5),
        (0, 1, -HUGE),
        ("0", 1, 1),
    ],
    ids=_id,
)
def test_ledger_pay_refuses_bad_seats_and_amounts_and_keeps_totals(
    payer: Any, payee: Any, amount: Any
) -> None:
    """Ledger.pay: ``:raises LedgerError: If *payer* and *payee* are not two seats, or *amount* ...``."""
    ledger = Ledger(2)
    before = ledger.snapshot()
    exc = _cardcore_error(lambda: ledger.pay(payer=payer, payee=payee, amount=amount, reason="bet"))
    assert isinstance(exc, LedgerError)
    assert len(str(exc)) < 500
    assert ledger.snapshot() == before


# --------------------------------------------------------------------------- jsonable, LazyView


def test_jsonable_of_a_huge_int_gives_json_text_not_a_raw_error() -> None:
    try:
        out = cardcore.jsonable({"n": HUGE})
    except CardcoreError:
        return
    except Exception as exc:
        raise AssertionError(f"raw {type(exc).__name__}: {exc}") from exc
    json.dumps(out)


@pytest.mark.parametrize("view", ["x", 1.5, [1, 2], b"ab"])
def test_lazy_view_of_something_that_is_not_a_mapping_is_refused_clearly(view: Any) -> None:
    exc = _cardcore_error(lambda: cardcore.LazyView(view))
    assert "mapping" in str(exc) or "view" in str(exc)


# --------------------------------------------------------------------------- plugin look-ups


@pytest.mark.parametrize("game", ["no-such-game", "GOLF ", "\ud800", "x" * 10_000])
def test_earlier_rules_of_an_unknown_game_is_unknown_plugin_error(game: str) -> None:
    """earlier_rules: ``:raises UnknownPluginError: *game* is not installed``."""
    exc = _cardcore_error(lambda: cardcore.earlier_rules(game, "0.1.0"))
    assert isinstance(exc, UnknownPluginError)
    assert len(str(exc)) < 2000


@pytest.mark.parametrize(
    ("game", "version"),
    [(None, "0.1.0"), ("golf", None), ("golf", 1), (b"golf", "0.1.0"), ("golf", "not.a.version!")],
)
def test_earlier_rules_refuses_non_text_or_non_versions(game: Any, version: Any) -> None:
    """earlier_rules: ``:raises ArgumentError: *game* or *version* is not text, or *version* is not a version``."""
    exc = _cardcore_error(lambda: cardcore.earlier_rules(game, version))
    assert isinstance(exc, ArgumentError)


@pytest.mark.parametrize("spec", [HUGE, ReprRaises()], ids=["huge-int", "repr-raises"])
def test_parse_agent_spec_of_a_non_text_spec_is_an_option_error(spec: Any) -> None:
    exc = _cardcore_error(lambda: cardcore.parse_agent_spec(spec))
    assert isinstance(exc, OptionError)
    assert len(str(exc)) < 400


@pytest.mark.parametrize("spec", [None, 5, b"random", ["random"]])
def test_parse_agent_spec_of_plain_non_text_is_an_option_error(spec: Any) -> None:
    """parse_agent_spec: ``:raises OptionError: A malformed spec``."""
    exc = _cardcore_error(lambda: cardcore.parse_agent_spec(spec))
    assert isinstance(exc, OptionError)


@pytest.mark.parametrize(
    "name", [HUGE, {}, [], ReprRaises()], ids=["huge-int", "dict", "list", "repr-raises"]
)
def test_unregister_of_a_non_text_name_is_a_cardcore_error(name: Any) -> None:
    before = cardcore.available_games()
    exc = _cardcore_error(lambda: cardcore.unregister("cardcore.games", name))
    assert isinstance(exc, UnknownPluginError | ArgumentError)
    assert cardcore.available_games() == before


@pytest.mark.parametrize("name", ["no-such", "", None, 3])
def test_unregister_of_nothing_registered_is_unknown_plugin_error(name: Any) -> None:
    """unregister: ``:raises UnknownPluginError: If nothing is registered under *name*``."""
    before = cardcore.available_games()
    exc = _cardcore_error(lambda: cardcore.unregister("cardcore.games", name))
    assert isinstance(exc, UnknownPluginError | ArgumentError)
    assert cardcore.available_games() == before


def test_rule_info_of_a_hostile_object_is_a_cardcore_error() -> None:
    _cardcore_error(lambda: cardcore.rule_info(ReprRaises()))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- agents


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seed": 1.5},
        {"seed": "1"},
        {"seed": True},
        {"reaction": -1},
        {"reaction": float("nan")},
        {"reaction": float("inf")},
        {"reaction": "0.5"},
        {"spread": -0.1},
        {"spread": float("nan")},
        {"spread": HUGE},
    ],
)
def test_random_agent_refuses_bad_parameters_naming_them(kwargs: dict[str, Any]) -> None:
    """RandomAgent: ``:raises OptionError: A seed that is not an int or None, or a reaction or spread ...``."""
    exc = _cardcore_error(lambda: RandomAgent(**kwargs))
    assert isinstance(exc, OptionError)
    assert next(iter(kwargs)) in str(exc)
    assert len(str(exc)) < 400


def test_random_agent_choose_with_nothing_legal_is_an_argument_error() -> None:
    """RandomAgent.choose: ``:raises ArgumentError: *legal* is empty``."""
    game = cardcore.new_game("golf", 2, seed=1)
    exc = _cardcore_error(lambda: RandomAgent(0).choose(game.view(0), ()))
    assert isinstance(exc, ArgumentError)


# --------------------------------------------------------------------------- events


@pytest.mark.parametrize(
    ("event_type", "handler"),
    [
        (None, print),
        (int, print),
        ("Event", print),
        (Event(), print),
        (Event, None),
        (Event, "print"),
        (Event, 3),
    ],
)
def test_subscribe_refuses_non_events_and_non_callables_and_changes_nothing(
    event_type: Any, handler: Any
) -> None:
    """EventBus.subscribe: ``:raises ArgumentError: *event_type* is not an event class, or *handler* not callable``."""
    game = cardcore.new_game("golf", 2, seed=4)
    before = _fingerprint(game)
    exc = _cardcore_error(lambda: game.events.subscribe(event_type, handler))
    assert isinstance(exc, ArgumentError)
    assert _fingerprint(game) == before


@pytest.mark.parametrize("seat", [cardcore.HOST, 2, "1", 1.0, True, "spectators", HUGE], ids=_id)
def test_subscribe_refuses_bad_seats_with_a_seat_error_before_any_event(seat: Any) -> None:
    """EventBus.subscribe: ``:raises SeatError: *seat* is none of the above ... (CORE-SEAT-1)``."""
    game = cardcore.new_game("tonk", 2, seed=4)
    before = _fingerprint(game)
    got: list[Event] = []
    exc = _cardcore_error(lambda: game.events.subscribe(Event, got.append, seat))
    assert isinstance(exc, SeatError)
    assert exc.rule_id == "CORE-SEAT-1"
    assert len(str(exc)) < 400
    game.act(game.to_act[0], str(game.legal_actions(game.to_act[0])[0]))
    assert got == []
    assert game.version == before[1] + 1


# --------------------------------------------------------------------------- turns (building blocks)


def test_next_seat_with_every_seat_skipped_raises_value_error() -> None:
    """turns.next_seat: ``:raises ValueError: Every seat is skipped``."""
    with pytest.raises(ValueError, match="skipped"):
        cardcore.turns.next_seat(0, 3, skip={0, 1, 2})


@pytest.mark.parametrize(
    ("seat", "players"),
    [(2.5, 4), ("1", 4), (None, 4), (0, "4"), (0, None), (0, 2.0)],
)
def test_next_seat_refuses_non_int_seats_and_counts(seat: Any, players: Any) -> None:
    _cardcore_error(lambda: cardcore.turns.next_seat(seat, players))


# --------------------------------------------------------------------------- rl


@pytest.mark.parametrize(
    ("winners", "players"),
    [([0], 0), ([0], "2"), ([0], None), ([0], True), ("01", 2), ([2], 2), ([-1], 2), (None, 2)],
)
def test_win_rewards_refuses_bad_seats_and_counts(winners: Any, players: Any) -> None:
    """rl.win_rewards: ``:raises ArgumentError: *players* is not a positive int, or *winners* ...``."""
    pytest.importorskip("numpy")
    from cardcore.rl import win_rewards

    exc = _cardcore_error(lambda: win_rewards(winners, players))
    assert isinstance(exc, ArgumentError)


def test_win_rewards_refuses_a_seat_count_beyond_any_game() -> None:
    pytest.importorskip("numpy")
    from cardcore.rl import win_rewards
    from cardcore.setup import MAX_PLAYERS

    exc = _cardcore_error(lambda: win_rewards([0], MAX_PLAYERS + 1))
    assert isinstance(exc, ArgumentError)


def test_win_rewards_refuses_a_mapping_for_winners() -> None:
    pytest.importorskip("numpy")
    from cardcore.rl import win_rewards

    _cardcore_error(lambda: win_rewards({}, 2))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["golf", "spit"])
@pytest.mark.parametrize("seat", [-1, -2, "x", 1.5])
def test_seat_view_refuses_a_seat_the_game_does_not_have(name: str, seat: Any) -> None:
    pytest.importorskip("numpy")
    from cardcore.rl import seat_view

    game = cardcore.new_game(name, 2, seed=3)
    before = _fingerprint(game)
    exc = _cardcore_error(lambda: seat_view(game, seat, "table"))
    assert isinstance(exc, SeatError)
    assert _fingerprint(game) == before


def test_seat_view_refuses_a_bool_seat() -> None:
    pytest.importorskip("numpy")
    from cardcore.rl import seat_view

    game = cardcore.new_game("tonk", 2, seed=3)
    exc = _cardcore_error(lambda: seat_view(game, True, "table"))
    assert isinstance(exc, SeatError)


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_seat_view_of_a_seat_beyond_the_table_leaks_no_hidden_card(name: str) -> None:
    """Whatever seat_view does with seat 5 of a 2-seat game, it shows no more than a spectator."""
    pytest.importorskip("numpy")
    from cardcore.rl import seat_view

    game = cardcore.new_game(name, 2, seed=3)
    spectator = json.dumps(game.view(None)["table"], sort_keys=True, default=str)
    try:
        got = seat_view(game, 5, "table")
    except CardcoreError:
        return
    assert json.dumps(got["table"], sort_keys=True, default=str) == spectator
