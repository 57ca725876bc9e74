"""Finding 7: bounded caches, declared bounds on every integer option, size limits on data.

Every integer option of every installed game declares a minimum and a maximum; values
beyond them are refused; per-option caches hold at most their documented number of
entries; records and saves beyond the documented limits are refused before replaying.
"""

from __future__ import annotations

import contextlib
import json
import time
import tracemalloc

import pytest

import cardcore
from cardcore import CorruptStateError, OptionError, plugins, records
from cardcore.logic import DECK_CACHE

# read at run time, so this module also runs (and fails) on the code before the fix
RULESET_CACHE = getattr(plugins, "RULESET_CACHE", 0)
MAX_BYTES = records.MAX_BYTES
MAX_DEPTH = getattr(records, "MAX_DEPTH", 32)
MAX_INT_BITS = getattr(records, "MAX_INT_BITS", 128)

GAMES = ("golf", "tonk", "spit", "speed")


@pytest.mark.parametrize("name", cardcore.available_games())
def test_every_integer_option_declares_its_bounds(name: str) -> None:
    for option in cardcore.game_info(name).options:
        if option.kind is int:
            assert option.minimum is not None and option.maximum is not None, option.name


@pytest.mark.parametrize("name", GAMES)
def test_integer_options_beyond_their_bounds_are_refused(name: str) -> None:
    for option in cardcore.game_info(name).options:
        if option.kind is not int:
            continue
        for bad in (10**5000, 10**18, -(10**18)):
            with pytest.raises(OptionError, match=option.name):
                cardcore.new_game(name, 2, options={option.name: bad}, seed=1)


@pytest.mark.parametrize("name", GAMES)
def test_a_game_at_its_largest_options_views_and_saves_as_json(name: str) -> None:
    info = cardcore.game_info(name)
    biggest = {
        o.name: int(o.maximum)
        for o in info.options
        if o.kind is int and o.maximum is not None and (o.choices is None or o.maximum in o.choices)
    }
    if name == "tonk":
        biggest.pop("first_dealer", None)
        biggest["max_players"] = 4
    game = cardcore.new_game(name, 2, options=biggest, seed=1)
    json.dumps(game.view(0))
    json.dumps(game.save())


def test_option_caches_stay_bounded() -> None:
    tonk = cardcore.new_game("tonk", 2, seed=1).logic
    for stake in range(1, 3 * DECK_CACHE):
        cardcore.new_game("tonk", 2, options={"stake": stake}, seed=1)
    assert len(tonk._decks) <= DECK_CACHE
    golf = cardcore.new_game("golf", 2, seed=1).logic
    for turns in range(1, 200):
        cardcore.new_game("golf", 2, options={"max_turns": turns}, seed=1)
    assert len(golf._plans) <= 64 and len(golf._decks) <= DECK_CACHE


@pytest.mark.parametrize(
    "name, option, batch",
    [("tonk", "stake", 300), ("tonk", "hands", 300), ("spit", "stall_limit", 300),
     ("golf", "max_turns", 100)],
)  # fmt: skip
def test_distinct_option_values_keep_bounded_memory(name: str, option: str, batch: int) -> None:
    """Whatever a game caches per option value, *batch* more values keep no more memory.

    Traced from the start: the first batch fills every cache, the second replaces what it
    cached and settles the allocator's own tables (alone in a fresh process Golf's second
    batch still grew by about 150 KB, its third by under 100 KB), and the third must keep
    no more (each batch is larger than every cache; before the fix each value kept its
    entries: about 1 KB a Tonk stake, 18 KB a Golf plan).
    """
    tracemalloc.start()
    try:
        sizes = []
        for k in range(3):
            for value in range(1 + batch * k, 1 + batch * (k + 1)):
                cardcore.new_game(name, 2, options={option: value}, seed=1)
            sizes.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    grown = sizes[2] - sizes[1]
    assert grown < 150_000, f"{grown} bytes more for {batch} more values of {option}"


def test_configuration_cache_is_a_bounded_lru(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins, "RULESET_CACHE", 4)
    names = cardcore.available_rules("golf")
    first = plugins.get_ruleset("golf", [names[0]])
    for name in names[1:8]:
        with contextlib.suppress(cardcore.CardcoreError):  # a rule that does not apply: cached
            cardcore.new_game("golf", 2, rules=[name], options={"layout": 6}, seed=1)
        assert len(plugins._rulesets) <= 4
    assert plugins.get_ruleset("golf", [names[0]]) is not first  # dropped, built again
    assert RULESET_CACHE >= 64


def _record() -> dict:
    return cardcore.new_game("golf", 2, seed=1).record()


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda r: r.update(seed=10**5000), "integer"),
        (lambda r: r.update(seed=2**MAX_INT_BITS + 1), "integer"),
        (lambda r: r["options"].update(rounds=10**40), "integer|rounds"),
        (lambda r: r.update(extra=json.loads("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5))), "nested"),
        (lambda r: r.update(extra=float("nan")), "finite"),
        (lambda r: r.update(extra={1: 2}), "key"),
        (lambda r: r.update(extra=object()), "JSON"),
        (lambda r: r.update(extra=["x" * 1000] * (MAX_BYTES // 1000 + 1)), "too large"),
    ],
    ids=["huge-seed", "seed-bits", "huge-option", "deep", "nan", "int-key", "object", "huge"],
)
def test_records_beyond_the_limits_are_refused_before_replaying(change, match: str) -> None:  # type: ignore[no-untyped-def]
    record = _record()
    change(record)
    with pytest.raises(CorruptStateError, match=match):
        cardcore.replay(record)
    with pytest.raises(CorruptStateError):
        cardcore.load({"format": "cardcore-save", "format_version": 2, "record": record, "state": {"zones": {}}})


def test_deep_and_huge_json_text_is_refused() -> None:
    for text in (
        '{"a":' * 100_000 + "1" + "}" * 100_000,
        '{"seed": ' + "9" * 5000 + "}",
        "[" * 10**6,
        " " * (MAX_BYTES + 1),
    ):
        with pytest.raises(CorruptStateError):
            cardcore.replay(text)
        with pytest.raises(CorruptStateError):
            cardcore.load(text.encode())


def test_a_forged_record_with_too_many_actions_is_refused_at_once() -> None:
    record = _record()
    record["actions"] = [[0, "flip 0", None]] * 500_000
    start = time.perf_counter()
    with pytest.raises(CorruptStateError, match=r"bound|too large"):
        cardcore.replay(record)
    assert time.perf_counter() - start < 5


def test_the_kit_flags_an_integer_option_without_bounds() -> None:
    import types

    import attrs

    from cardcore.testing import check_game
    from tests.plugins import drawgame

    loose = types.ModuleType("loosegame")
    vars(loose).update(
        GAME=attrs.evolve(
            drawgame.GAME,
            name="loosegame",
            options=(cardcore.Option("rounds", 1, "rounds to play", int, minimum=1),),
        ),
        create_logic=drawgame.create_logic,
        card_points=drawgame.card_points,
    )
    cardcore.register("cardcore.games", "loosegame", loose)
    try:
        report = check_game("loosegame", games=1, checks={"bound"}, strict=False)
    finally:
        cardcore.unregister("cardcore.games", "loosegame")
    assert report.failed == 1 and "'rounds'" in report.failures[0]
    assert check_game("drawgame", games=1, checks={"bound"}, strict=False).ok
