"""Review of the diff 368ab0d..57a6ceb (src, plugins, docs): --workers re-registering
in-process plugins, ``card_places``, ``Clocks.ends_round``, the option hint's spelling
(``_options.SPELLING``), case-variant choices, ``deck._mutable``, Tonk's ``last`` dealer
check, ``records._check_count`` and the testing kit's veto walk.

Claims that hold pass; each fault found is an ``xfail(strict=True)`` asserting the right
behaviour.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import random
import re
import threading
import types
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest

import cardcore
import cardcore.cli
from cardcore import (
    ArgumentError,
    Chance,
    CorruptStateError,
    GameInfo,
    Option,
    OptionError,
    RuleInfo,
    hookimpl,
)
from cardcore._options import SPELLING
from cardcore.session.clocks import Clocks
from cardcore.session.config import TimeControl
from cardcore.session.patch import card_places
from tests.plugins import goofspiel_2026_12_12 as goof

# --- helpers ----------------------------------------------------------------------------------


@hookimpl
def _score_round(state: Any, scores: Any) -> list[int]:
    return list(scores)


def _golf_rule_in_place(name: str, option: str) -> types.ModuleType:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id=f"REV14-{option.upper()}-1",
        name=name,
        game="golf",
        summary="a cap",
        options=(Option(option, default=10, minimum=0, maximum=50, doc="cap"),),
    )
    module.score_round = _score_round  # type: ignore[attr-defined]
    return module


@pytest.fixture
def golf_cap() -> Iterator[str]:
    name = "golf.rev14-cap"
    cardcore.register("cardcore.rules", name, _golf_rule_in_place(name, "rev14_cap"))
    yield name
    cardcore.unregister("cardcore.rules", name)


def _record_without_its_rule(rule: str, path: Any) -> str:
    game = cardcore.new_game("golf", 2, seed=3, rules=[rule], options={"rev14_cap": 3})
    rng = random.Random(1)
    for _ in range(5):
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    rec = game.record()
    rec["rules"] = [r for r in rec["rules"] if r["name"] != rule]  # hand-edited: rule lost
    file = path / "rec.json"
    file.write_text(json.dumps(rec))
    return str(file)


# --- the option hint's words (SPELLING) on commands that read a record ------------------------


def test_replay_of_a_record_missing_its_rule_is_one_clear_line(
    golf_cap: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    file = _record_without_its_rule(golf_cap, tmp_path)
    rc = cardcore.cli.main(["replay", file, "--final"])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.count("\n") == 1 and "rev14_cap" in err and golf_cap in err
    assert SPELLING.get() == ("rules", "without")  # reset after the refusal


@pytest.mark.parametrize("command", [["replay", "--final"], ["verify"]])
def test_replay_and_verify_do_not_name_a_flag_they_lack(
    command: list[str], golf_cap: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    file = _record_without_its_rule(golf_cap, tmp_path)
    rc = cardcore.cli.main([command[0], file, *command[1:]])
    err = capsys.readouterr().err
    assert rc == 2 and golf_cap in err
    assert "--rules" not in err


def test_spelling_is_reset_when_a_command_fails_unexpectedly() -> None:
    from cardcore.cli import _guarded

    def boom() -> int:
        assert SPELLING.get() == ("--rules", "--without")
        raise RuntimeError("boom")

    assert _guarded(boom) == 1
    assert SPELLING.get() == ("rules", "without")


def test_spelling_of_a_cli_run_in_one_thread_does_not_reach_another(golf_cap: str) -> None:
    from cardcore.cli import _guarded

    inside, release = threading.Event(), threading.Event()
    seen: list[tuple[str, str]] = []

    def hold() -> int:
        seen.append(SPELLING.get())
        inside.set()
        release.wait(10)
        return 0

    thread = threading.Thread(target=_guarded, args=(hold,))
    thread.start()
    try:
        assert inside.wait(10)
        with pytest.raises(OptionError) as caught:
            cardcore.new_game("golf", 2, options={"rev14_cap": 3}, seed=1)
    finally:
        release.set()
        thread.join(10)
    assert seen == [("--rules", "--without")]
    assert f"rules=[{golf_cap!r}]" in str(caught.value) and "--rules" not in str(caught.value)


def test_spelling_set_in_one_task_stays_in_it(golf_cap: str) -> None:
    async def cli_task(ready: asyncio.Event, done: asyncio.Event) -> None:
        SPELLING.set(("--rules", "--without"))
        ready.set()
        await done.wait()

    async def api_task() -> str:
        with pytest.raises(OptionError) as caught:
            cardcore.new_game("golf", 2, options={"rev14_cap": 3}, seed=1)
        return str(caught.value)

    async def run() -> str:
        ready, done = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(cli_task(ready, done))
        await ready.wait()
        text = await asyncio.create_task(api_task())
        done.set()
        await task
        return text

    text = asyncio.run(run())
    assert "rules=[" in text and "--rules" not in text
    assert SPELLING.get() == ("rules", "without")


def test_hint_of_two_switched_off_default_rules_in_flags() -> None:
    from cardcore._options import _hint

    token = SPELLING.set(("--rules", "--without"))
    try:
        text = _hint(["g.a", "g.b"], ["g.a", "g.b"])
    finally:
        SPELLING.reset(token)
    assert text == "; house rules 'g.a' and 'g.b' take it, and they are switched off (--without)"


# --- --workers: compare's rules switched off by both configurations -----------------------------

_NATURAL = "tonk.natural-49-50"


@pytest.fixture
def natural_in_place() -> Iterator[str]:
    """Tonk's default natural rule registered again from a module built in place."""
    orig = importlib.import_module("cardcore_tonk.house.natural_49_50")
    module = types.ModuleType("rev14_natural")
    for key, value in vars(orig).items():
        if not key.startswith("__"):
            setattr(module, key, value)
    cardcore.register("cardcore.rules", _NATURAL, module)
    yield orig.RULE.id
    cardcore.unregister("cardcore.rules", _NATURAL)


def _compare_with_fake_pool(monkeypatch: pytest.MonkeyPatch, extra: list[str]) -> tuple[int, Any]:
    """Run ``compare tonk --workers 1`` with a pool that only checks what it would carry and
    then lets the games run in this process."""
    from cardcore.cli import commands
    from cardcore.cli.workers import registered_here

    asked: list[Any] = []

    def fake_pool(stack: Any, workers: int, game: str, *rest: Any) -> None:
        asked.append(registered_here(game, *rest))
        return None

    monkeypatch.setattr(commands, "process_pool", fake_pool)
    argv = ["compare", "tonk", "--games", "1", "--skill", "none", "--workers", "1", *extra]
    return cardcore.cli.main(argv), asked


def test_compare_workers_take_a_default_rule_both_switch_off_by_name(
    natural_in_place: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, asked = _compare_with_fake_pool(
        monkeypatch, ["--without", _NATURAL, "--vs-without", _NATURAL]
    )
    assert rc == 0, capsys.readouterr().err
    assert len(asked) == 1


def test_compare_workers_refuse_a_default_rule_in_place_that_b_plays(
    natural_in_place: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, asked = _compare_with_fake_pool(monkeypatch, ["--without", _NATURAL])
    err = capsys.readouterr().err
    assert rc == 2 and "no worker process can import" in err and _NATURAL in err
    assert asked == []


def test_compare_workers_take_a_default_rule_switched_off_by_name_and_by_id(
    natural_in_place: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, _ = _compare_with_fake_pool(
        monkeypatch, ["--without", _NATURAL, "--vs-without", natural_in_place]
    )
    assert rc == 0, capsys.readouterr().err


def test_registered_here_hides_a_rule_switched_off_by_its_id(natural_in_place: str) -> None:
    from cardcore.cli.workers import registered_here

    with pytest.raises(cardcore.cli.args.UsageError, match="no worker process can import"):
        registered_here("tonk")
    assert registered_here("tonk", without=[natural_in_place.lower()]) is not None


def test_registered_here_carries_a_class_of_an_importable_module() -> None:
    from cardcore.cli.workers import adopt, registered_here

    name = "rev14-first-legal"
    cardcore.register("cardcore.agents", name, Clocks)  # any importable class will do
    try:
        here = registered_here("golf", agents=[name])
    finally:
        cardcore.unregister("cardcore.agents", name)
    assert ("cardcore.agents", name, "cardcore.session.clocks", "Clocks") in here
    adopt([("cardcore.agents", name, "no_such_module_rev14", "X")])  # a worker goes on
    assert name not in cardcore.available_agents()


# --- card_places ------------------------------------------------------------------------------


def test_card_places_survives_deep_nesting_and_odd_keys() -> None:
    deep: Any = ["QS"]
    for _ in range(20_000):  # far past the recursion limit: the walk keeps its own stack
        deep = [deep]
    assert sum(card_places(deep).values()) == 1
    assert card_places({1: ["QS"], "KD": None}) == card_places({1: ("QS",), "KD": 0})
    # a bool is no seat: both objects are placed by position, so swapping them moves QS
    a = [{"seat": True, "c": ["QS"]}, {"seat": False, "c": []}]
    b = [{"seat": False, "c": []}, {"seat": True, "c": ["QS"]}]
    assert card_places(a) != card_places(b)


def test_card_places_tells_a_card_between_table_entries_and_two_copies() -> None:
    assert card_places({"table": {"a": "7H", "b": "7H"}}) != card_places(
        {"table": {"a": "7H 7H", "b": ""}}
    )
    assert card_places({"pile": ["7H", "7H"]}) != card_places({"pile": ["7H"]})


# --- Clocks.ends_round ------------------------------------------------------------------------


def test_ends_round_after_a_restart_keeps_the_round() -> None:
    clocks = Clocks(TimeControl(), realtime=False)
    clocks.start((0, 1, 2), 0.0)
    clocks.update((0, 2), 1.0, 1)
    clocks.update((2,), 2.0, 0)
    again = Clocks(TimeControl(), realtime=False)
    again.load(json.loads(json.dumps(clocks.to_json(3.0))), 4.0)
    # ends_round(actor, seats): seats are those to act after the actor's action
    assert again.ends_round(2, (0,))
    assert not again.ends_round(0, (2,)) and not again.ends_round(None, (2,))
    again.update((2,), 5.0, 2)  # the last seat acted: its round is over
    assert not again.ends_round(2, (0,))


# --- deck._mutable: what shuffle takes ---------------------------------------------------------


def _chance_untouched(chance: Chance) -> bool:
    return chance.random() == Chance(5, 0).random()


@pytest.mark.parametrize(
    "items",
    [
        memoryview(b"abcdef"),  # read-only
        memoryview(bytearray(b"abcdef")).cast("B", (2, 3)),  # 2-D
        np.zeros((3,), dtype=[("a", "i4"), ("b", "f8")]).view(np.recarray),
        range(4),
        np.arange(4).reshape(2, 2),
    ],
    ids=["ro-memoryview", "2d-memoryview", "recarray", "range", "2d-array"],
)
def test_shuffle_refuses_odd_sequences_before_drawing(items: Any) -> None:
    chance = Chance(5, 0)
    with pytest.raises(ArgumentError, match="shuffle takes a list"):
        chance.shuffle(items)
    assert _chance_untouched(chance)
    with pytest.raises(ArgumentError, match="shuffle takes a list"):
        cardcore.shuffle(items, random.Random(1))


def test_shuffle_keeps_every_item_of_unusual_1d_arrays() -> None:
    view = memoryview(bytearray(b"abcdef"))
    Chance(5, 0).shuffle(view)
    assert sorted(view.tobytes()) == sorted(b"abcdef") and view.tobytes() != b"abcdef"
    void = np.array([b"ab", b"cd", b"ef", b"gh"], dtype="V2")
    Chance(5, 0).shuffle(void)
    assert sorted(bytes(v) for v in void) == [b"ab", b"cd", b"ef", b"gh"]
    masked = np.ma.array([1, 2, 3, 4], mask=[0, 1, 0, 0])
    Chance(5, 0).shuffle(masked)
    assert int(masked.mask.sum()) == 1 and sorted(masked.compressed().tolist()) == [1, 3, 4]
    column = np.arange(12).reshape(4, 3)[:, 1]  # a writable 1-D view: shuffled in place
    Chance(5, 0).shuffle(column)
    assert sorted(column.tolist()) == [1, 4, 7, 10]


# --- Tonk: last's dealer -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "hands", "rules", "seed", "resign_at"),
    [
        (2, 1, ("tonk.void-deal-counts",), 0, None),
        (3, 1, ("tonk.void-deal-counts",), 2, None),
        (2, 3, (), 1, 7),
        (3, 2, ("tonk.void-deal-counts",), 3, 21),
    ],
)
def test_tonk_finished_positions_read_back(
    players: int, hands: int, rules: tuple[str, ...], seed: int, resign_at: int | None
) -> None:
    options = {"hands": hands}
    game = cardcore.new_game("tonk", players, seed=seed, options=options, rules=list(rules))
    rng = random.Random(seed)
    step = 0
    while not game.is_over:
        if step == resign_at:
            game.act(game.to_act[0], "resign")
            break
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
        step += 1
    position = game.position()
    again = cardcore.new_game(
        "tonk", players, position=position, seed=1, options=options, rules=list(rules)
    )
    assert again.position() == position


@pytest.mark.parametrize(
    "bad", ["[1,true]", "[1,-1]", '[1,"0"]', "[1,0.0]", "[1,3]", "[true,0]", "{}", "[1,0,0]"]
)
def test_tonk_hostile_last_is_refused_as_a_bad_position(bad: str) -> None:
    game = cardcore.new_game("tonk", 3, seed=4, options={"hands": 3})
    rng = random.Random(0)
    while game.view(0)["table"]["phase"] != "between":
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    game.act(game.to_act[0], "resign")
    position = game.position()
    found = re.search(r" last=\[\d+,\d+\] ", position)
    assert found is not None
    with pytest.raises(OptionError, match="CORE-POSITION-1"):
        cardcore.new_game(
            "tonk", 3, position=position.replace(found.group(0), f" last={bad} "), seed=1
        )


# --- records._check_count ---------------------------------------------------------------------


class _Bounded(goof.GoofLogic):  # type: ignore[misc]
    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 10**6 if options.get("rev14_long") else 30


@pytest.fixture
def bounded_goof() -> Iterator[str]:
    name = "goof-bound-rev14"
    module = types.ModuleType("goof_bound_rev14")
    module.GAME = GameInfo(  # type: ignore[attr-defined]
        name, "Goofspiel variant", 2, 4, version="1.0.0", hookspecs=goof.SPECS
    )

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return _Bounded(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.build_deck = goof.build_deck  # type: ignore[attr-defined]
    module.goofspiel_carry_ties = goof.goofspiel_carry_ties  # type: ignore[attr-defined]
    rule = types.ModuleType("goof_bound_rev14_long")
    rule.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="REV14-LONG-1",
        name=f"{name}.long",
        game=name,
        summary="long",
        version="1.0.0",
        options=(Option("rev14_long", True, "long games", kind=bool),),
    )
    cardcore.register("cardcore.games", name, module)
    cardcore.register("cardcore.rules", f"{name}.long", rule)
    yield name
    cardcore.unregister("cardcore.rules", f"{name}.long")
    cardcore.unregister("cardcore.games", name)


def _long_record(name: str, rules: list[str], options: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": name,
        "players": ["a", "b"],
        "rules": [{"name": r} for r in rules],
        "without": [],
        "options": options,
        "actions": [[0, "x", None]] * 5_000,
    }


def test_check_count_bounds_a_long_record_by_its_rules_options(bounded_goof: str) -> None:
    from cardcore.records import _check_count

    _check_count(_long_record(bounded_goof, [f"{bounded_goof}.long"], {"rev14_long": True}))
    with pytest.raises(CorruptStateError, match="more than the game's bound 30"):
        _check_count(_long_record(bounded_goof, [f"{bounded_goof}.long"], {"rev14_long": False}))
    with pytest.raises(CorruptStateError, match="bound 30"):  # the rule's option, no rule
        _check_count(_long_record(bounded_goof, [], {"rev14_long": True}))
    with pytest.raises(CorruptStateError, match="bound 30"):  # rules of an odd shape
        _check_count({**_long_record(bounded_goof, [], {}), "rules": ["x"]})


# --- testing kit: the veto rule ---------------------------------------------------------------


def test_the_kit_vetoes_about_one_notation_in_three() -> None:
    from cardcore.testing._hooks import vetoed_by_kit

    words = [f"play {n}" for n in range(3_000)]
    share = sum(vetoed_by_kit(w, 0) for w in words) / len(words)  # type: ignore[arg-type]
    assert 0.3 < share < 0.37
    # a game of two notations is vetoed under one of four salts almost always
    pairs = [(f"flip{n}", f"slap{n}") for n in range(300)]
    tried = [any(vetoed_by_kit(w, s) for s in range(4) for w in p) for p in pairs]  # type: ignore[arg-type]
    assert sum(tried) / len(tried) > 0.9
