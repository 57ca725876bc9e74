"""Review of 1a75401, the fixes from the API sweep of 2026-12-30 (review of 2026-12-30).

The standard (docs/api.rst, Errors): bad input gets a clear error deriving from
:class:`cardcore.CardcoreError` that names what was wrong and changes nothing; no raw
Python exception reaches a caller from input.

Passing tests pin what the commit claims and what must not regress for legitimate input
(``IntEnum``/``IntFlag`` numbers and ``StrEnum`` names, int subclasses recorded as plain
ints, ``True`` still refused, numpy integers where the RL layer takes them, a tuple of
patch operations, a :class:`~cardcore.Game` subclass). Each strict xfail is a finding:
the same hostile values (a ``str`` subclass whose ``__eq__``/``__hash__`` raise, an
object claiming ``int`` or ``str`` through a ``__class__`` property, an object whose
``__eq__`` raises, an int subclass whose comparisons raise) at a place the commit did not
reach, where a raw ``TypeError``/``RuntimeError`` still gets out. Every game here is
dealt from a fixed seed; nothing is timed.
"""

from __future__ import annotations

import contextlib
import enum
import json
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest

import cardcore
import cardcore.compare
import cardcore.rl
import cardcore.search
import cardcore.session
from cardcore import CardcoreError, Game
from cardcore._text import plain
from cardcore.deck import CHANCE, LEGACY_CHANCE, Chance, generator
from cardcore.events import jsonable
from cardcore.rl.aec import check_seed
from cardcore.rl.match import as_float, as_int
from cardcore.session import Hub, MemoryStore, Session, apply_patch
from cardcore.testing import assert_conserved, configurations

SEED = 20261230

# --------------------------------------------------------------------------- hostile values


class EvilStr(str):
    """A str subclass whose comparisons and hash raise."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("EvilStr.__eq__")

    def __ne__(self, other: object) -> bool:
        raise RuntimeError("EvilStr.__ne__")

    def __hash__(self) -> int:
        raise RuntimeError("EvilStr.__hash__")


class CmpInt(int):
    """An int subclass whose comparisons raise (its conversions are int's own)."""

    def __lt__(self, other: object) -> bool:
        raise RuntimeError("CmpInt.__lt__")

    def __gt__(self, other: object) -> bool:
        raise RuntimeError("CmpInt.__gt__")

    def __le__(self, other: object) -> bool:
        raise RuntimeError("CmpInt.__le__")

    def __ge__(self, other: object) -> bool:
        raise RuntimeError("CmpInt.__ge__")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("CmpInt.__eq__")

    def __ne__(self, other: object) -> bool:
        raise RuntimeError("CmpInt.__ne__")

    __hash__ = int.__hash__


class LiarInt:
    """Claims to be an int through ``__class__``: ``isinstance(LiarInt(), int)`` is true."""

    __class__ = property(lambda self: int)  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "LiarInt()"


class LiarStr:
    """Claims to be a str through ``__class__``: ``isinstance(LiarStr(), str)`` is true."""

    __class__ = property(lambda self: str)  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "LiarStr()"


class EvilEq:
    """No str at all, but its ``__eq__`` raises (``"x" == EvilEq()`` calls it)."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("EvilEq.__eq__")

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "EvilEq()"


class EvilHash:
    """Neither hashable nor comparable without raising."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("EvilHash.__eq__")

    def __hash__(self) -> int:
        raise RuntimeError("EvilHash.__hash__")

    def __repr__(self) -> str:
        return "EvilHash()"


class Seats(enum.IntEnum):
    ZERO = 0
    ONE = 1
    TWO = 2
    FOUR = 4


class Bits(enum.IntFlag):
    A = 1
    B = 2


class Name(enum.StrEnum):
    GOLF = "golf"
    GAME = "game"
    RANDOM = "random"
    LAYOUT = "layout"


def _golf() -> Game:
    return cardcore.new_game("golf", 2, seed=SEED)


def _refused(call: Any, *words: str) -> CardcoreError:
    """*call* raises a CardcoreError whose message holds every one of *words*."""
    with pytest.raises(CardcoreError) as info:
        call()
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    return info.value


# --------------------------------------------------------------------------- plain


def test_plain_judges_the_real_type() -> None:
    assert type(plain(Seats.TWO)) is int and plain(Seats.TWO) == 2
    assert type(plain(Bits.B)) is int and plain(Bits.B) == 2
    assert type(plain(Name.GOLF)) is str and plain(Name.GOLF) == "golf"
    assert type(plain(EvilStr("golf"))) is str
    assert type(plain(CmpInt(3))) is int
    assert plain(True) is True  # a bool stays a bool, for the caller to refuse
    liar, liar_str = LiarInt(), LiarStr()
    assert plain(liar) is liar and plain(liar_str) is liar_str
    assert type(plain(np.int64(3))) is np.int64  # no int subclass: left for the caller


# --------------------------------------------------------------------------- legitimate numbers


@pytest.mark.parametrize(
    "players", [Seats.FOUR, Bits.B, CmpInt(3)], ids=["IntEnum", "IntFlag", "int-subclass"]
)
def test_new_game_takes_int_subclass_players(players: int) -> None:
    game = cardcore.new_game("golf", players, seed=SEED)
    assert len(game.players) == int.__index__(players)
    assert all(type(p) is str for p in game.players)


@pytest.mark.parametrize(
    "seed", [Seats.ONE, Bits.A, CmpInt(1)], ids=["IntEnum", "IntFlag", "int-subclass"]
)
def test_new_game_records_an_int_subclass_seed_as_plain_int(seed: int) -> None:
    game = cardcore.new_game("golf", 2, seed=seed)
    assert type(game.seed) is int and game.seed == 1
    plain_game = cardcore.new_game("golf", 2, seed=1)
    assert json.dumps(game.save(), sort_keys=True) == json.dumps(plain_game.save(), sort_keys=True)


@pytest.mark.parametrize(
    "value",
    [True, np.bool_(True), LiarInt(), np.int64(2)],
    ids=["True", "np.bool_", "liar", "np.int64"],
)
def test_new_game_still_refuses_flags_liars_and_numpy_players_and_seeds(value: Any) -> None:
    _refused(lambda: cardcore.new_game("golf", value, seed=SEED), "players")
    _refused(lambda: cardcore.new_game("golf", 2, seed=value), "seed")


def test_hub_create_players_by_real_type() -> None:
    hub = Hub()
    for players in (Seats.TWO, CmpInt(2)):  # CmpInt raised its own RuntimeError before
        session = hub.create("golf", players, now=0.0, seed=SEED)
        assert session.id in hub.sessions
    for bad in (True, LiarInt(), np.int64(2)):
        _refused(lambda bad=bad: hub.create("golf", bad, now=0.0, seed=SEED), "players")


def test_history_since_by_real_type() -> None:
    game = _golf()
    assert game.history(since=Seats.ZERO) == game.history(since=0)
    assert game.history(since=CmpInt(0)) == game.history(since=0)
    for bad in (True, LiarInt(), np.int64(0), -1):
        _refused(lambda bad=bad: game.history(since=bad), "since")


def test_rl_numbers_by_real_type() -> None:
    assert as_int(np.int64(2)) == 2 and type(as_int(np.int64(2))) is int
    assert as_int(Seats.TWO) == 2 and type(as_int(Seats.TWO)) is int
    assert as_float(np.float32(0.5)) == 0.5
    for flag in (True, np.bool_(True), LiarInt()):
        assert as_int(flag) is None and as_float(flag) is None


def test_seat_runner_seat_numpy_and_intenum_still_taken_true_refused() -> None:
    config = cardcore.rl.Config("golf", 2)
    for seat in (np.int64(1), Seats.ONE, CmpInt(1)):
        runner = cardcore.rl.SeatRunner(config, seat, "random")
        assert type(runner.seat) is int and runner.seat == 1
    for bad in (True, np.bool_(True), LiarInt()):
        _refused(lambda bad=bad: cardcore.rl.SeatRunner(config, bad, "random"), "seat")


def test_seat_runner_opponent_str_subclass_made_plain() -> None:
    config = cardcore.rl.Config("golf", 2)
    runner = cardcore.rl.SeatRunner(config, 0, [EvilStr("random")])
    assert runner.specs == [None, "random"] and all(
        type(s) in (str, type(None)) for s in runner.specs
    )


def test_knowledge_mask_int_flag_kept_plain_liar_refused() -> None:
    zones = _golf().state.zones
    card = cardcore.Card.parse("AS")
    zones.put(0, card, Bits.A)
    assert type(zones.seen[0][-1]) is int
    counts = [len(p) for p in zones.cards]
    _refused(lambda: zones.put(0, card, LiarInt()), "mask")
    assert [len(p) for p in zones.cards] == counts


def test_jsonable_liars_become_text_enums_stay_numbers() -> None:
    assert jsonable(LiarInt()) == "LiarInt()"
    assert jsonable(LiarStr()) == "LiarStr()"
    assert json.dumps(jsonable([Seats.TWO, True, Name.GOLF])) == '[2, true, "golf"]'


def test_generator_version_by_real_type() -> None:
    assert isinstance(generator(1, 0, Seats.TWO), type(generator(1, 0, LEGACY_CHANCE)))
    assert type(generator(1, 0, CmpInt(CHANCE))) is Chance  # CmpInt.__eq__ raised before
    for bad in (True, LiarInt(), np.int64(CHANCE)):  # np.int64(3) was taken before 1a75401
        _refused(lambda bad=bad: generator(1, 0, bad), "version")


# --------------------------------------------------------------------------- names made plain


def test_names_made_plain() -> None:
    info = cardcore.game_info(EvilStr("golf"))
    assert info.name == "golf"
    assert info.option(EvilStr("layout")).name == "layout"
    assert info.option(Name.LAYOUT).name == "layout"
    assert cardcore.available_rules(EvilStr("golf")) == cardcore.available_rules("golf")
    assert cardcore.earlier_rules(EvilStr("golf"), "0.1.0") == cardcore.earlier_rules(
        "golf", "0.1.0"
    )
    default = cardcore.compare.default_agent("golf")
    assert cardcore.compare.default_agent(EvilStr("golf")) == default
    assert cardcore.compare.default_agent(Name.GOLF) == default
    first = next(configurations(EvilStr("golf")))
    assert first == next(configurations("golf"))


@pytest.mark.parametrize("rollout", [EvilStr("game"), Name.GAME], ids=["evil-str", "StrEnum"])
def test_ismcts_rollout_stored_plain(rollout: str) -> None:
    agent = cardcore.search.ISMCTSAgent(iterations=5, rollout=rollout)
    assert type(agent.rollout) is str and agent.rollout == "game"


def test_ismcts_rollout_refusals_name_it() -> None:
    for bad in (LiarStr(), EvilEq(), "nope"):
        _refused(lambda bad=bad: cardcore.search.ISMCTSAgent(iterations=5, rollout=bad), "rollout")


# --------------------------------------------------------------------------- games and views


def test_non_games_refused_a_game_subclass_taken() -> None:
    game = _golf()

    class SubGame(Game):
        __slots__ = ()

    sub = SubGame.__new__(SubGame)
    for cls in Game.__mro__:
        for slot in getattr(cls, "__slots__", ()):
            with contextlib.suppress(AttributeError):
                object.__setattr__(sub, slot, object.__getattribute__(game, slot))
    assert_conserved(sub)
    assert cardcore.rl.seat_view(sub, 0, "table")["seat"] == 0
    liar_game = type("LiarGame", (), {"__class__": property(lambda self: Game)})()
    for bad in (None, {}, liar_game):
        _refused(lambda bad=bad: assert_conserved(bad), "Game")
        _refused(lambda bad=bad: cardcore.rl.seat_view(bad, 0, "view"), "Game")


def test_view_config_refuses_non_mappings_takes_mapping_proxies() -> None:
    view = _golf().view(0)
    assert cardcore.search.view_config(MappingProxyType(view)) == cardcore.search.view_config(view)
    for bad in (np.int64(1), [1], None):
        _refused(lambda bad=bad: cardcore.search.view_config(bad), "mapping")


# --------------------------------------------------------------------------- apply_patch


DOC = {"a": [1, 2], "b": {"c": 3}}


def test_apply_patch_lists_and_tuples_of_ops() -> None:
    ops = [["set", ["a", 0], 9], ["del", ["b", "c"]]]
    expected = {"a": [9, 2], "b": {}}
    assert apply_patch(DOC, ops) == expected
    assert apply_patch(DOC, tuple(ops)) == expected
    assert DOC == {"a": [1, 2], "b": {"c": 3}}
    new = {"a": [1], "b": 2}
    assert apply_patch(DOC, cardcore.session.diff(DOC, new)) == new


def _deep(depth: int) -> list[Any]:
    top: list[Any] = []
    cur = top
    for _ in range(depth):
        nxt: list[Any] = []
        cur.append(nxt)
        cur = nxt
    return top


@pytest.mark.parametrize(
    "ops",
    [
        None,
        "set",
        {},
        [["set", []]],
        [["del", []]],
        [["zap", ["a", 0], 1]],
        [("set", ["a", 0], 9)],
        [["set", ["zz", 0], 1]],
    ],
    ids=[
        "None",
        "text",
        "dict",
        "whole-set-no-value",
        "whole-del",
        "unknown-kind",
        "tuple-op",
        "bad-path",
    ],
)
def test_apply_patch_refusals_are_corrupt_state_and_value_errors(ops: Any) -> None:
    error = _refused(lambda: apply_patch(DOC, ops))
    assert isinstance(error, cardcore.CorruptStateError) and isinstance(error, ValueError)
    assert DOC == {"a": [1, 2], "b": {"c": 3}}


def test_apply_patch_too_deep_refused() -> None:
    _refused(lambda: apply_patch({}, [["set", ["x"], _deep(5000)]]), "too deep")
    _refused(lambda: apply_patch(_deep(5000), [["set", [0], 1]]), "too deep")


# --------------------------------------------------------------------------- findings (strict xfail)

RAW = (TypeError, RuntimeError, AttributeError)


def test_act_text_claiming_str_is_refused() -> None:
    game = _golf()
    before = json.dumps(game.save(), sort_keys=True)
    try:
        _refused(lambda: game.act(game.to_act[0], LiarStr()), "action text")
    finally:
        assert json.dumps(game.save(), sort_keys=True) == before


def test_card_text_claiming_str_is_refused() -> None:
    _refused(lambda: cardcore.Card.parse(LiarStr()))


def test_deck_card_claiming_str_is_refused() -> None:
    _refused(lambda: cardcore.new_game("golf", 2, seed=SEED, deck=[LiarStr()]), "not a card")


def test_parse_cards_text_claiming_str_is_refused() -> None:
    _refused(lambda: cardcore.parse_cards(LiarStr()))


def test_position_claiming_str_is_refused() -> None:
    _refused(lambda: cardcore.new_game("golf", 2, seed=SEED, position=LiarStr()), "position")


def test_agent_spec_claiming_str_is_refused() -> None:
    _refused(lambda: cardcore.parse_agent_spec(LiarStr()), "agent")


def test_agent_specs_claiming_str_are_refused() -> None:
    _refused(lambda: cardcore.split_agent_specs(LiarStr()), "agent")


def test_rl_opponent_claiming_str_is_refused() -> None:
    config = cardcore.rl.Config("golf", 2)
    _refused(lambda: cardcore.rl.SeatRunner(config, 0, LiarStr()), "LiarStr()")


def test_load_agent_str_subclass_made_plain() -> None:
    assert cardcore.load_agent(EvilStr("random")) is cardcore.load_agent("random")


def test_rl_seed_claiming_int_is_refused() -> None:
    assert check_seed(Seats.ONE) == 1 and type(check_seed(Seats.ONE)) is int
    _refused(lambda: check_seed(LiarInt()), "seed")


def test_game_info_option_of_object_with_raising_eq() -> None:
    info = cardcore.game_info("golf")
    for bad in (EvilEq(), EvilHash()):
        _refused(lambda bad=bad: info.option(bad), "option")


def test_default_agent_of_object_with_raising_eq() -> None:
    _refused(lambda: cardcore.compare.default_agent(EvilEq()), "game")


def test_seat_view_needs_object_with_raising_eq() -> None:
    _refused(lambda: cardcore.rl.seat_view(_golf(), 0, EvilEq()), "needs")


def test_seat_view_refuses_unknown_needs() -> None:
    _refused(lambda: cardcore.rl.seat_view(_golf(), 0, "nonsense"), "needs")


def test_apply_patch_kind_str_subclass() -> None:
    """A kind of a str subclass is read as its plain text (never by its own __eq__)."""
    assert apply_patch(DOC, [[EvilStr("set"), ["a", 0], 9]]) == {"a": [9, 2], "b": {"c": 3}}
    error = _refused(lambda: apply_patch(DOC, [[EvilStr("zap"), ["a", 0], 1]]), "zap")
    assert isinstance(error, cardcore.CorruptStateError)


def test_apply_patch_whole_document_kind_str_subclass() -> None:
    assert apply_patch(DOC, [[EvilStr("set"), [], 1]]) == 1
    _refused(lambda: apply_patch(DOC, [[EvilStr("del"), [], 1]]), "set")


def test_apply_patch_path_key_whose_hash_raises() -> None:
    for key in (EvilStr("c"), EvilHash()):
        _refused(lambda key=key: apply_patch(DOC, [["set", ["b", key], 1]]), "patch path")


def test_jsonable_int_subclass_with_raising_comparisons() -> None:
    assert jsonable(CmpInt(2)) == 2 and type(jsonable(CmpInt(2))) is int


def test_hub_create_session_id_str_subclass() -> None:
    hub = Hub()
    session = hub.create("golf", 2, now=0.0, seed=SEED, session_id=EvilStr("abc"))
    assert type(session.id) is str


def test_session_id_claiming_str_is_refused() -> None:
    _refused(
        lambda: Session.create("golf", 2, now=0.0, seed=SEED, session_id=LiarStr()), "session_id"
    )


def test_session_id_str_subclass_stored_plain() -> None:
    session = Session.create(
        "golf", 2, now=0.0, seed=SEED, session_id=EvilStr("abc"), store=MemoryStore()
    )
    assert type(session.id) is str


def test_hub_create_takes_a_str_enum_game_as_new_game_does() -> None:
    assert cardcore.new_game(Name.GOLF, 2, seed=SEED).name == "golf"
    session = Hub().create(Name.GOLF, 2, now=0.0, seed=SEED)
    assert session.id


def test_generator_refuses_an_unknown_version() -> None:
    _refused(lambda: generator(1, 0, 7), "version")
