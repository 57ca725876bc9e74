"""Review of 2c66a3a..1b44213 (fixes of earlier reviews: the kit's veto walk, stale bids by
card_places, choices that differ by case, shuffling what random.shuffle takes, Tonk's
``last`` dealer, the hint of an option given without its rule, ``--workers`` registering
again what this process registered).

Claims that hold pass; each fault found is an ``xfail(strict=True)`` asserting the right
behaviour.
"""

from __future__ import annotations

import asyncio
import contextvars
import importlib
import random
import re
import threading
import types
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any

import attrs
import numpy as np
import pytest

import cardcore
import cardcore.cli
from cardcore import (
    ArgumentError,
    Chance,
    GameState,
    Option,
    OptionError,
    RuleInfo,
    ViewField,
    hookimpl,
)
from cardcore._options import SPELLING
from cardcore.session.patch import card_places

# --- testing kit: a veto walk that vetoed nothing draws another salt ------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_the_veto_check_vetoes_in_a_game_of_two_notations(players: int) -> None:
    from cardcore.testing import check_game
    from tests.plugins import slapjack_2026_12_13 as sj

    cardcore.register("cardcore.games", sj.NAME, sj)
    try:
        report = check_game(sj.NAME, players=players, games=2, seed=players, checks=("vetoes",))
    finally:
        cardcore.unregister("cardcore.games", sj.NAME)
    assert report.ok, report.failures
    assert report.vetoed > 0 and "vetoes" not in report.skipped


# --- sessions: card_places and stale bids ------------------------------------------------------


def test_card_places_tells_a_move_between_piles_but_not_a_pile_growing_underneath() -> None:
    assert card_places({"prize": ["QS"]}) != card_places({"discard": ["QS"]})
    assert card_places({"pile": ["QS"]}) == card_places({"pile": [None, "QS"]})
    assert card_places({"a": ["QS", "QS"]}) != card_places({"a": ["QS"]})  # copies counted
    assert card_places({"a": [None, None]}) == card_places({"a": [None]})  # hidden: nothing


def _answer(replies: list[dict[str, Any]]) -> str:
    last = [r for r in replies if r["type"] in ("ok", "error")][-1]
    return "ok" if last["type"] == "ok" else last["code"]


@pytest.fixture
def goof() -> Iterator[types.ModuleType]:
    from tests.plugins import goofspiel_2026_12_12 as goof

    cardcore.register("cardcore.games", goof.NAME, goof)
    added: list[str] = []
    goof.review13f_added = added  # type: ignore[attr-defined]
    yield goof
    for name in added:
        cardcore.unregister("cardcore.games", name)
    cardcore.unregister("cardcore.games", goof.NAME)


def _goof_table(name: str, players: int = 3) -> Any:
    from cardcore.session import Session
    from tests.session.kit import Table

    t = Table(Session.create(name, ["Ann", "Bob", "Cy"][:players], now=0.0, seed=7))
    t.now = 1.0
    for seat in range(players):
        t.join("abc"[seat], seat)
    return t


def test_other_seats_face_down_bids_leave_a_bid_fresh(goof: types.ModuleType) -> None:
    t = _goof_table(goof.NAME)
    for who in "abc":  # round 1
        assert _answer(t.act(who, "bid 0", 0.1, seen=t.view(who)["version"])) == "ok"
    seen = t.view("b")["version"]
    assert seen == 3 and t.view("b")["table"]["round"] == 2
    assert _answer(t.act("a", "bid 0", 0.1, seen=3)) == "ok"  # face down: Bob sees no card move
    assert _answer(t.act("c", "bid 1", 0.1, seen=3)) == "ok"
    assert _answer(t.act("b", "bid 0", 0.1, seen=3)) == "ok"  # still fresh


def _waiting_first(goof: types.ModuleType) -> str:
    """Goofspiel whose table lists each seat's won cards, the seats yet to bid first."""

    class WaitingFirst(goof.GoofLogic):  # type: ignore[name-defined,misc]
        def table(self, state: Any, seat: int | None) -> dict[str, Any]:
            out = dict(super().table(state, seat))
            order = [*state.to_act, *(s for s in range(state.players) if s not in state.to_act)]
            cards = state.zones.cards
            out["seats"] = [{"seat": s, "won": [str(c) for c in cards[goof.won(s)]]} for s in order]
            return out

    name = "goof-waiting-1213f"
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = goof.GameInfo(  # type: ignore[attr-defined]
        name,
        "Goofspiel, seats yet to bid listed first",
        2,
        4,
        version="1.0.0",
        hookspecs=goof.SPECS,
        fields=(*goof.GAME.fields, ViewField("seats", "json", "Each seat's won cards.")),
    )

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return WaitingFirst(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    module.build_deck = goof.build_deck  # type: ignore[attr-defined]
    module.goofspiel_carry_ties = goof.goofspiel_carry_ties  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", name, module)
    goof.review13f_added.append(name)
    return name


def test_a_list_of_objects_reordering_is_no_card_move(goof: types.ModuleType) -> None:
    t = _goof_table(_waiting_first(goof))
    for who, text in zip("abc", ("bid 10", "bid 0", "bid 0"), strict=True):  # round 1
        assert _answer(t.act(who, text, 0.1, seen=t.view(who)["version"])) == "ok"
    before = t.view("b")
    assert before["version"] == 3 and any(e["won"] for e in before["table"]["seats"])
    assert _answer(t.act("a", "bid 0", 0.1, seen=3)) == "ok"  # face down
    after = t.view("b")
    moved = {e["seat"]: e["won"] for e in after["table"]["seats"]}
    assert moved == {e["seat"]: e["won"] for e in before["table"]["seats"]}  # no card moved
    assert before["table"]["seats"] != after["table"]["seats"]  # only the order changed
    assert _answer(t.act("b", "bid 0", 0.1, seen=3)) == "ok"


# --- choices that differ by case alone --------------------------------------------------------


def test_a_refusal_names_choices_that_differ_by_case_and_6_once() -> None:
    option = Option("mark", default="a", kind=str, choices=("a", "A", "b"), doc="a mark")
    with pytest.raises(OptionError) as caught:
        option.check("c")
    message = str(caught.value)
    assert "'a'" in message and "'A'" in message and "'b'" in message
    numbers = Option("size", default=6, kind=object, choices=(6, "6", 8), doc="a size")
    with pytest.raises(OptionError) as caught:
        numbers.check(7)
    assert str(caught.value) == "option 'size' must be one of 6 or 8, not 7"


def test_applies_refusal_names_choices_that_differ_by_case() -> None:
    rule = RuleInfo("REV13F-AP-1", "golf.rev13f-ap", "golf", "s", applies={"mark": ("x", "X")})
    with pytest.raises(OptionError) as caught:
        rule.check_applies({"mark": "y"})
    assert "'x'" in str(caught.value) and "'X'" in str(caught.value)


def test_cardcore_list_values_keep_case_apart_and_6_once() -> None:
    from cardcore.cli.commands import _values

    assert _values([6, "6", "4h", "4H", 8]) == "6, 4h, 4H, 8"


# --- Chance.shuffle / cardcore.shuffle take what random.shuffle takes -----------------------


def test_a_numpy_array_shuffles_and_tuples_texts_sets_mappings_are_refused() -> None:
    items = np.arange(10)
    Chance(1, 0).shuffle(items)
    assert sorted(items.tolist()) == list(range(10)) and items.tolist() != list(range(10))
    items = np.arange(10)
    cardcore.shuffle(items, Chance(2, 0))
    assert sorted(items.tolist()) == list(range(10))
    for bad in ((1, 2), "ab", {1, 2}, {1: 2, 0: 1}, b"ab"):
        with pytest.raises(ArgumentError):
            Chance(1, 0).shuffle(bad)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError):
            cardcore.shuffle(bad, Chance(1, 0))  # type: ignore[arg-type]


def test_a_0d_array_is_refused_with_argument_error() -> None:
    with pytest.raises(ArgumentError):
        Chance(1, 0).shuffle(np.array(5))  # type: ignore[arg-type]


def test_a_read_only_array_is_refused_and_leaves_the_chance_as_it_was() -> None:
    items = np.arange(6)
    items.flags.writeable = False
    chance = Chance(1, 0)
    with pytest.raises(ArgumentError):
        chance.shuffle(items)  # type: ignore[arg-type]
    assert chance.random() == Chance(1, 0).random()


def test_a_2d_array_shuffled_keeps_its_rows() -> None:
    items = np.arange(12).reshape(6, 2)
    try:
        Chance(1, 0).shuffle(items)  # type: ignore[arg-type]
    except ArgumentError:
        return
    assert sorted(map(tuple, items.tolist())) == [(2 * i, 2 * i + 1) for i in range(6)]


# --- Tonk: last's dealer is the seat before the next dealer ---------------------------------


def _tonk_over(players: int, hands: int, seed: int) -> cardcore.Game:
    game = cardcore.new_game("tonk", players, seed=seed, options={"hands": hands})
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    return game


@pytest.mark.parametrize(("players", "hands", "seed"), [(2, 2, 1), (3, 2, 2), (3, 1, 4)])
def test_tonk_positions_of_finished_games_still_read(players: int, hands: int, seed: int) -> None:
    position = _tonk_over(players, hands, seed).position()
    again = cardcore.new_game("tonk", players, position=position, seed=1, options={"hands": hands})
    assert again.position() == position


def test_tonk_last_naming_another_dealer_is_refused() -> None:
    game = cardcore.new_game("tonk", 3, seed=4, options={"hands": 3})
    rng = random.Random(0)
    while game.view(0)["table"]["phase"] != "between":
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    game.act(game.to_act[0], "resign")
    position = game.position()
    last = re.search(r" last=\[(\d+),(\d+)\] ", position)
    dealer = re.search(r" dealer=(\d+) ", position)
    assert last is not None and dealer is not None
    assert int(last.group(2)) == (int(dealer.group(1)) - 1) % 3
    cardcore.new_game("tonk", 3, position=position, seed=1, options={"hands": 3})
    for other in range(3):
        if other == int(last.group(2)):
            continue
        wrong = position.replace(last.group(0), f" last=[{last.group(1)},{other}] ")
        with pytest.raises(OptionError, match="TONK-DEALER-2"):
            cardcore.new_game("tonk", 3, position=wrong, seed=1, options={"hands": 3})


# --- an option given without its house rule ---------------------------------------------------


@hookimpl
def _score_round(state: GameState, scores: Sequence[int]) -> list[int]:
    return list(scores)


def _golf_rule(k: int) -> str:
    name = f"golf.rev13f-h{k}"
    module = types.ModuleType(f"golf_rev13f_h{k}")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id=f"REV13F-H-{k}",
        name=name,
        game="golf",
        summary="capped",
        options=(Option("rev13f_cap", default=10, minimum=0, maximum=50, doc="cap"),),
    )
    module.score_round = _score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", name, module)
    return name


@pytest.fixture
def golf_rules() -> Iterator[list[str]]:
    names = [_golf_rule(k) for k in range(3)]
    yield names
    for name in names:
        cardcore.unregister("cardcore.rules", name)


def _refusal(**kwargs: Any) -> str:
    with pytest.raises(OptionError) as caught:
        cardcore.new_game("golf", 2, options={"rev13f_cap": 3}, seed=1, **kwargs)
    return str(caught.value)


def test_the_hint_names_every_rule_in_the_api_and_cli_words(golf_rules: list[str]) -> None:
    a, b, c = golf_rules
    message = _refusal()
    assert f"house rules '{a}', '{b}' and '{c}' take it" in message
    assert f"rules=['{a}'] or rules=['{b}'] or rules=['{c}']" in message
    token = SPELLING.set(("--rules", "--without"))
    try:
        message = _refusal()
    finally:
        SPELLING.reset(token)
    assert f"--rules {a} or --rules {b} or --rules {c}" in message and "rules=[" not in message
    assert SPELLING.get() == ("rules", "without")


def test_a_thread_of_a_library_user_sees_the_apis_words(golf_rules: list[str]) -> None:
    token = SPELLING.set(("--rules", "--without"))  # as inside cardcore.cli.main
    try:
        with ThreadPoolExecutor(1) as pool:
            message = pool.submit(_refusal).result()
        seen: list[str] = []
        thread = threading.Thread(target=lambda: seen.append(_refusal()))
        thread.start()
        thread.join()
    finally:
        SPELLING.reset(token)
    assert "rules=['" in message and "--rules" not in message
    assert "rules=['" in seen[0] and "--rules" not in seen[0]


def test_compare_names_bs_rules_as_vs_and_resets_the_spelling(golf_rules: list[str]) -> None:
    with pytest.raises(OptionError) as caught:
        cardcore.compare("golf", games=1, vs_options={"rev13f_cap": 3}, seed=1)
    message = str(caught.value)
    assert message.startswith("configuration B:") and f"vs=['{golf_rules[0]}']" in message
    assert SPELLING.get() == ("rules", "without")


def test_the_cli_names_the_flags(golf_rules: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    rc = cardcore.cli.main(["simulate", "golf", "--games", "1", "-o", "rev13f_cap=3"])
    err = capsys.readouterr().err
    assert rc == 2 and f"--rules {golf_rules[0]}" in err and "rules=[" not in err
    rc = cardcore.cli.main(["compare", "golf", "--games", "1", "--vs-option", "rev13f_cap=3"])
    err = capsys.readouterr().err
    assert rc == 2 and f"--vs {golf_rules[0]}" in err and "vs=[" not in err
    assert SPELLING.get() == ("rules", "without")


_NATURAL = "tonk.natural-49-50"


def _tonk_rule(name: str, module_name: str, rule_id: str) -> types.ModuleType:
    orig = importlib.import_module("cardcore_tonk.house.natural_49_50")
    module = types.ModuleType(module_name)
    for key, value in vars(orig).items():
        if not key.startswith("__"):
            setattr(module, key, value)
    module.RULE = attrs.evolve(  # type: ignore[attr-defined]
        orig.RULE,
        id=rule_id,
        name=name,
        options=(Option("rev13f_bonus", default=2, minimum=0, maximum=9, doc="b"),),
    )
    return module


@pytest.fixture
def natural_with_option() -> Iterator[None]:
    cardcore.register("cardcore.rules", _NATURAL, _tonk_rule(_NATURAL, "rev13f_nat", "TONK-49-1"))
    yield
    cardcore.unregister("cardcore.rules", _NATURAL)


def test_a_default_rule_switched_off_is_named(natural_with_option: None) -> None:
    assert cardcore.new_game("tonk", 2, options={"rev13f_bonus": 3}, seed=1)
    with pytest.raises(OptionError) as caught:
        cardcore.new_game("tonk", 2, options={"rev13f_bonus": 3}, without=[_NATURAL], seed=1)
    assert f"house rule '{_NATURAL}' takes it, and it is switched off (without=)" in str(
        caught.value
    )


def test_a_default_rule_switched_off_is_named_beside_another(natural_with_option: None) -> None:
    extra = "tonk.rev13f-extra"
    cardcore.register("cardcore.rules", extra, _tonk_rule(extra, "rev13f_extra", "REV13F-X-1"))
    try:
        with pytest.raises(OptionError) as caught:
            cardcore.new_game("tonk", 2, options={"rev13f_bonus": 3}, without=[_NATURAL], seed=1)
    finally:
        cardcore.unregister("cardcore.rules", extra)
    message = str(caught.value)
    assert extra in message and _NATURAL in message


def test_the_web_server_started_by_the_cli_speaks_the_apis_words(
    golf_rules: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    seen: list[str] = []

    def run(self: Any, sockets: Any = None) -> None:  # what uvicorn does: asyncio.run(serve())
        for sock in sockets or ():
            sock.close()

        async def request() -> None:  # a request handled in a task of the server's loop
            try:
                cardcore.new_game("golf", 2, options={"rev13f_cap": 3}, seed=1)
            except OptionError as exc:
                seen.append(str(exc))

        async def serve() -> None:
            await asyncio.get_running_loop().create_task(request())

        asyncio.run(serve())

    monkeypatch.setattr(uvicorn.Server, "run", run)
    db = str(tmp_path / "games.db")
    assert cardcore.cli.main(["serve", "--port", "0", "--host", "127.0.0.1", "--db", db]) == 0
    assert seen and "rules=['" in seen[0] and "--rules" not in seen[0]


def test_a_copied_context_keeps_its_own_spelling() -> None:
    ctx = contextvars.copy_context()
    ctx.run(SPELLING.set, ("--vs", "--vs-without"))
    assert ctx[SPELLING] == ("--vs", "--vs-without") and SPELLING.get() == ("rules", "without")


# --- cli --workers: workers register again what this process registered ---------------------


def test_workers_play_a_game_registered_from_an_importable_module(
    goof: types.ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = cardcore.cli.main(
        ["simulate", goof.NAME, "--games", "2", "--players", "2", "--workers", "1"]
    )
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "2 games" in out.out


def test_a_game_built_in_place_is_refused_up_front(
    goof: types.ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    name = _waiting_first(goof)  # a types.ModuleType: no worker can import it
    rc = cardcore.cli.main(["simulate", name, "--games", "2", "--players", "2", "--workers", "1"])
    err = capsys.readouterr().err
    assert rc == 2 and "no worker process can import" in err and repr(name) in err


def test_an_unused_house_rule_built_in_place_does_not_refuse_workers(
    goof: types.ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    cardcore.register("cardcore.rules", goof.CARRY_NAME, goof.CARRY)  # types.ModuleType
    try:
        rc = cardcore.cli.main(
            ["simulate", goof.NAME, "--games", "2", "--players", "2", "--workers", "1"]
        )
    finally:
        cardcore.unregister("cardcore.rules", goof.CARRY_NAME)
    err = capsys.readouterr().err
    assert rc == 0, err


def _local_agent() -> type:
    class Local:  # built in a function: no worker can import it
        games = ("golf",)

        def __init__(self, seed: int | None = None) -> None:
            self.rng = random.Random(seed)

        def choose(self, view: Any, legal: Sequence[Any]) -> Any:
            return self.rng.choice(list(legal))

    return Local


def test_a_default_agent_built_in_place_is_refused_up_front(
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = "aaa-rev13f-local"  # first by name: compare's default agent for golf
    cardcore.register("cardcore.agents", name, _local_agent())
    try:
        from cardcore.compare import default_agent

        assert default_agent("golf") == name
        rc = cardcore.cli.main(
            [*("compare", "golf", "--games", "1", "--skill", "none"), "--workers", "1"]
        )
    finally:
        cardcore.unregister("cardcore.agents", name)
    err = capsys.readouterr().err
    assert rc == 2 and "no worker process can import" in err, err


def test_a_plugin_hidden_here_stays_hidden_in_workers() -> None:
    from cardcore import plugins
    from cardcore.cli.commands import process_pool
    from cardcore.plugins import available_rules

    installed = plugins._entries()["cardcore.rules"][_NATURAL]
    cardcore.unregister("cardcore.rules", _NATURAL)  # hides the installed rule
    try:
        here = available_rules("tonk")
        with ExitStack() as stack:
            pool = process_pool(stack, 1, "tonk")
            there = pool.submit(available_rules, "tonk").result(timeout=60)
    finally:
        plugins._entries()["cardcore.rules"][_NATURAL] = installed  # shown again
        plugins._forget("cardcore.rules", _NATURAL)
    assert _NATURAL not in here
    assert tuple(there) == tuple(here)
