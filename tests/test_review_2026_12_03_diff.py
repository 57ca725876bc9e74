"""Review of the day's changes, ``git diff 43f544f..HEAD -- src plugins docs``
(2026-12-03): game names and view fields checked by ``GameInfo``, RL ``players`` defaulting
to the game's fewest seats, ``Layout.of`` raising ``PluginError``, ``Chance``/``derive_rng``
refusing non-int seeds, Golf/Tonk/Spit views saying ``over`` at any end, the CLI menu
wrapping, the web lobby's look-alike seat names and records' new messages.

Plain tests pin behaviour the changes must keep; strict xfails show what is still wrong.
"""

from __future__ import annotations

import enum
import json
import random
import types
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

import cardcore
from cardcore import (
    ArgumentError,
    CorruptStateError,
    GameInfo,
    PluginError,
    RuleInfo,
    hookimpl,
    new_game,
)
from cardcore.cli.screen import legal_line
from cardcore.deck import Chance, derive_rng
from cardcore.rl.match import Config
from cardcore.web._requests import same_name
from cardcore.zones import Layout, ZoneSpec
from cardcore_tonk.melds import DealVerdict

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "core" / "data"


# -- chance: non-int seeds refused, every stored record still replays ----------------------------


@pytest.mark.parametrize("seed", [True, 1.0, np.int64(3), "7", None])
def test_chance_and_derive_rng_refuse_a_seed_that_is_not_a_plain_int(seed: object) -> None:
    for build in (Chance, derive_rng):
        with pytest.raises(ArgumentError, match=r"seed must be an int, not .*CORE-CHANCE-1"):
            build(seed, 0)  # type: ignore[arg-type]


def test_records_and_saves_of_every_format_version_still_replay() -> None:
    """Records of format 1 and 2 replay through derive_rng, 3 through Chance: plain ints."""
    files = sorted(DATA.glob("*.json"))
    assert len(files) >= 12
    for path in files:
        data = json.loads(path.read_text())
        game = cardcore.load(data) if "_save" in path.name else cardcore.replay(data)
        assert game.name == data.get("game", data.get("record", {}).get("game")), path.name


def test_search_determinization_and_rl_still_pass_plain_int_seeds() -> None:
    game = new_game("tonk", 2, seed=5)
    agent = cardcore.load_agent("ismcts", iterations=8, seed=3)
    seat = game.to_act[0]
    action = agent.choose(game.view(seat), game.legal_actions(seat))
    assert action in game.legal_actions(seat)
    env = cardcore.rl.gym_env("golf", options={"rounds": 1})
    obs, _ = env.reset(seed=2**70 + 1)  # a seed past 64 bits is still an int
    assert obs["action_mask"].any()


# -- RL players default ---------------------------------------------------------------------------


def test_rl_players_default_is_two_and_an_unknown_game_is_named() -> None:
    assert Config("golf", options={"rounds": 1}).players == 2
    assert cardcore.rl.aec_env("tonk").possible_agents == ["player_0", "player_1"]
    with pytest.raises(cardcore.UnknownPluginError, match="no game called 'nosuch'"):
        Config("nosuch")


# -- GameInfo names ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["x.y", "a" * 64, "Whist_4", "9lives"])
def test_game_info_takes_names_positions_can_carry(name: str) -> None:
    assert GameInfo(name, "d", 2, 2).name == name


@pytest.mark.parametrize("name", ["my game", "über", "", "-x", "a" * 65, "golf\n"])
def test_game_info_refuses_names_positions_cannot_carry(name: str) -> None:
    with pytest.raises(PluginError, match="must be 1-64 ASCII letters"):
        GameInfo(name, "d", 2, 2)


class _Names(enum.StrEnum):
    GAME = "golfx"


def test_game_info_str_enum_name_is_taken_or_the_error_says_why() -> None:
    try:
        info = GameInfo(_Names.GAME, "d", 2, 2)
    except PluginError as exc:
        assert "str" in str(exc).replace("ASCII", ""), str(exc)
    else:
        assert info.name == "golfx"


def test_plugin_guide_lists_the_new_game_info_checks() -> None:
    text = " ".join((ROOT / "docs" / "plugin-guide" / "game.rst").read_text().split())
    start = text.index("The declaration is checked when it is built")
    checks = text[start : start + 900]
    assert "ASCII" in checks and "view fields" in checks


# -- Layout.of ----------------------------------------------------------------------------------


def test_layout_of_names_the_repeated_pile() -> None:
    with pytest.raises(PluginError, match="named more than once: 'stock'"):
        Layout.of([ZoneSpec("stock"), ZoneSpec("discard"), ZoneSpec("stock")])


def test_layout_of_repeated_pile_still_caught_as_value_error() -> None:
    with pytest.raises(ValueError):
        Layout.of([ZoneSpec("stock"), ZoneSpec("stock")])


# -- views at the end of a game --------------------------------------------------------------


def _played(name: str, seed: int, moves: int, **options: int) -> cardcore.Game:
    rng = random.Random(seed)
    game = new_game(name, 2, seed=seed, options=options)
    for _ in range(moves):
        if game.is_over or not game.to_act:
            break
        seat = game.to_act[0]
        game.apply(rng.choice(game.legal_actions(seat)))
    return game


@pytest.mark.parametrize(
    ("name", "moves", "options"),
    [
        ("tonk", 3, {"hands": 3}),  # between hands
        ("tonk", 6, {"hands": 3}),  # before a deal
        ("golf", 25, {"rounds": 2}),
        ("spit", 25, {}),
    ],
)
@pytest.mark.parametrize("how", ["resign", "truncate"])
def test_a_game_ended_early_says_over_in_every_view(
    name: str, moves: int, options: dict[str, int], how: str
) -> None:
    game = _played(name, 4, moves, **options)
    assert not game.is_over
    if how == "resign":
        game.act(game.to_act[0], "resign")
    else:
        game.truncate()
    for seat in (0, 1, None):
        table = game.view(seat)["table"]
        assert table["phase"] == "over"
        assert table.get("turn") is None
    if name != "spit":  # (a finished Spit position is refused by design)
        again = new_game(name, 2, position=game.position(), seed=1, options=options)
        assert again.result == game.result
        assert again.view(0)["table"] == game.view(0)["table"]


def test_tonk_resigned_between_hands_names_the_last_hand_and_its_dealer() -> None:
    game = _played("tonk", 4, 3, hands=3)
    before = game.view(0)["table"]
    assert (before["phase"], before["hand_number"], before["dealer"]) == ("between", 3, 0)
    game.act(game.to_act[0], "resign")
    after = game.view(0)["table"]
    assert (after["phase"], after["hand_number"], after["dealer"]) == ("over", 2, 1)


def _void_second_deal() -> types.ModuleType:
    """A Tonk house rule whose judge voids the session's second deal (as two naturals do)."""
    calls: list[int] = []

    def judge(hands: Sequence[Sequence[int]], points: Sequence[int]) -> DealVerdict | None:
        calls.append(1)
        return (
            DealVerdict("void", None, (0,) * len(hands), redeal=True) if len(calls) == 2 else None
        )

    @hookimpl
    def tonk_deal_judge() -> Callable[..., DealVerdict | None]:
        return judge

    module = types.ModuleType("review_void_second")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="REVIEW-VOID-2", name="tonk.review-void-second", game="tonk", summary="deal 2 is void"
    )
    module.tonk_deal_judge = tonk_deal_judge  # type: ignore[attr-defined]
    return module


def test_tonk_ended_after_a_void_deal_names_the_last_hand_and_its_dealer() -> None:
    cardcore.register("cardcore.rules", "tonk.review-void-second", _void_second_deal())
    try:
        game = new_game("tonk", 2, seed=4, rules=["tonk.review-void-second"], options={"hands": 3})
        rng = random.Random(0)
        while not any(h.get("reason") == "void" for h in game.history(0)):
            seat = game.to_act[0]
            game.apply(rng.choice(game.legal_actions(seat)))
        game.act(game.to_act[0], "resign")
        table = game.view(0)["table"]
        hands = [h for h in game.history(0) if h["kind"] == "hand"]
        named = [(h["hand"], h["dealer"]) for h in hands]
        assert (table["hand_number"], table["dealer"]) in named, (table, named)
        assert (table["hand_number"], table["dealer"]) == named[-1]
    finally:
        cardcore.unregister("cardcore.rules", "tonk.review-void-second")


def test_tonk_encoding_reads_a_resigned_session() -> None:
    env = cardcore.rl.aec_env("tonk", options={"hands": 3})
    env.reset(seed=3)
    match = env.match
    assert match is not None
    match.game.act(match.game.to_act[0], "resign")
    obs = env.observe("player_0")
    assert np.isfinite(obs["observation"]).all()


# -- the CLI menu --------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [20, 30, 40, 80])
def test_menu_breaks_between_items_never_inside_one(width: int) -> None:
    legal = ["draw", "take", "place 1", "place 10", "knock [x]", "swap 5H", "discard"]
    console = Console(width=width, record=True, color_system=None)
    console.print(legal_line(legal, width))
    lines = console.export_text().splitlines()
    assert all(len(line) <= width for line in lines)
    items = [p.strip() for line in lines for p in line.removeprefix("legal: ").split("   ")]
    assert items == [f"#{i} {a}" for i, a in enumerate(legal, 1)]


# -- the web lobby's look-alike names ------------------------------------------------------------


def test_same_name_reads_cyrillic_and_greek_look_alikes_but_keeps_real_names_apart() -> None:
    assert same_name("Ann", "\u0410nn")  # a Cyrillic A
    assert same_name("Nina", "\u039d\u03b9\u03bd\u03b1")  # Greek capitals show as Latin
    assert not same_name("\u0418\u0440\u0438\u043d\u0430", "Irina")  # Ирина is not Irina
    assert not same_name("\u041d\u0438\u043a\u0430", "\u039d\u03b9\u03ba\u03b1")  # Ника, Νικα


def test_same_name_catches_accented_look_alikes() -> None:
    assert same_name("Zo\u00eb", "Zo\u0451")  # Zoë, Zoё
    assert same_name("Jos\u00e9", "Jos\u0435\u0301")  # José, Josе́


# -- records' messages -----------------------------------------------------------------------


def test_a_record_or_save_without_format_says_so() -> None:
    with pytest.raises(CorruptStateError, match="it has no 'format' field"):
        cardcore.replay({})
    with pytest.raises(CorruptStateError, match="it has no 'format' field"):
        cardcore.load("{}")


def test_a_record_without_format_version_says_so() -> None:
    with pytest.raises(CorruptStateError) as info:
        cardcore.replay({"format": "cardcore-record"})
    assert "format_version" in str(info.value)


# -- docs: the core modules' own names ------------------------------------------------------------


def test_documented_simulate_module_names_are_reachable_as_written() -> None:
    import cardcore.simulate as documented  # what `import cardcore.simulate` binds

    api = (ROOT / "docs" / "api.rst").read_text()
    assert "cardcore.simulate.MAX_GAMES" in api or ".. py:currentmodule:: cardcore.simulate" in api
    reachable = hasattr(documented, "MAX_GAMES") and hasattr(documented, "run_one")
    assert reachable or "from cardcore.simulate import" in api
