"""Review of the later 2026-12-07 fixes: 7e452e0b (entry points at first use, lobby,
GameInfo version/hookspecs, another game's default rule), dbfb8287 (agent names),
8407ab38 (GameInfo realtime/zero_sum/fields/notes) and 38164eb1 (RL indices).

Its three findings (a PEP 440 pre-, dev or post-release refused as a game's version, which
records take; an entry point handed to ``register`` without a ``group`` never loaded;
``fields`` given as a list kept as one) were strict xfails, fixed the same day."""

from __future__ import annotations

import importlib.metadata as md
import types

import attrs
import numpy as np
import pytest

import cardcore
from cardcore import PluginError, plugins


@pytest.fixture
def golf() -> cardcore.GameInfo:
    return cardcore.game_info("golf")


# --- bugs -------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["1.0.0rc1", "0.1.0.dev0", "1.0.0.post1"])
def test_a_pep440_version_a_record_accepts_is_a_game_version(
    golf: cardcore.GameInfo, version: str
) -> None:
    assert attrs.evolve(golf, version=version).version == version


def test_a_registered_entry_point_without_group_is_loaded_at_first_use() -> None:
    from cardcore.agents import RandomAgent

    ep = types.SimpleNamespace(load=lambda: RandomAgent, value="cardcore.agents:RandomAgent")
    cardcore.register("cardcore.agents", "review13-duck", ep)
    try:
        assert plugins._load("cardcore.agents", "review13-duck") is RandomAgent
    finally:
        cardcore.unregister("cardcore.agents", "review13-duck")


def test_fields_given_as_a_list_is_kept_as_a_tuple(golf: cardcore.GameInfo) -> None:
    info = attrs.evolve(golf, fields=list(golf.fields))
    assert type(info.fields) is tuple
    hash(info)


# --- claims that hold ---------------------------------------------------------------


def test_evolve_of_a_valid_gameinfo_is_valid(golf: cardcore.GameInfo) -> None:
    info = attrs.evolve(golf, summary="another", version="1.0")
    assert (info.name, info.version, info.hookspecs) == ("golf", "1.0", golf.hookspecs)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"version": "abc"}, "version='abc'"),
        ({"realtime": "no"}, "realtime='no'"),
        ({"realtime": np.bool_(True)}, "realtime="),
        ({"zero_sum": 0}, "zero_sum=0"),
        ({"fields": (1,)}, "ViewField"),
        ({"notes": 3}, "notes=3"),
        ({"hookspecs": types.SimpleNamespace(x=1)}, "hookspecs="),
    ],
)
def test_a_bad_declaration_is_the_games_plugin_error(
    golf: cardcore.GameInfo, change: dict[str, object], words: str
) -> None:
    with pytest.raises(PluginError, match="game 'golf' declares") as caught:
        attrs.evolve(golf, **change)
    assert words in str(caught.value)
    assert caught.value.plugin == "golf"


def test_hookspecs_given_as_a_class_of_hookspecs_is_taken(golf: cardcore.GameInfo) -> None:
    spec = golf.hookspecs
    names = {n: getattr(spec, n) for n in dir(spec) if hasattr(getattr(spec, n), "cardcore_spec")}
    assert names
    specs = type("Specs", (), names)
    assert attrs.evolve(golf, hookspecs=specs).hookspecs is specs


@pytest.mark.parametrize("name", ["my:bot", "a=b", "a,b", "my bot", ""])
def test_register_refuses_an_agent_name_no_spec_can_name(name: str) -> None:
    from cardcore.agents import RandomAgent

    with pytest.raises(PluginError, match="could never be loaded") as caught:
        cardcore.register("cardcore.agents", name, RandomAgent)
    assert caught.value.plugin is not None
    assert name not in plugins._entries()["cardcore.agents"] or name == ""


def test_an_agent_name_with_dash_and_dot_is_still_taken() -> None:
    from cardcore.agents import RandomAgent

    cardcore.register("cardcore.agents", "review13.bot-1", RandomAgent)
    try:
        assert plugins._load("cardcore.agents", "review13.bot-1") is RandomAgent
    finally:
        cardcore.unregister("cardcore.agents", "review13.bot-1")


def test_a_registered_entry_point_loads_at_first_use_and_names_itself() -> None:
    ep = md.EntryPoint(name="review13g", value="no_such_module_r13:X", group="cardcore.games")
    cardcore.register("cardcore.games", "review13g", ep)  # not loaded yet: no error
    try:
        with pytest.raises(PluginError, match="failed to load") as caught:
            cardcore.game_info("review13g")
        assert caught.value.plugin == "review13g"
    finally:
        cardcore.unregister("cardcore.games", "review13g")
    assert "review13g" not in cardcore.available_games()


def test_the_lobby_leaves_out_a_game_that_fails_to_load() -> None:
    pytest.importorskip("cardcore.web._lobby")
    from cardcore.web._lobby import lobby_games

    ep = md.EntryPoint(name="review13l", value="no_such_module_r13:X", group="cardcore.games")
    cardcore.register("cardcore.games", "review13l", ep)
    try:
        names = {g["name"] for g in lobby_games()}
    finally:
        cardcore.unregister("cardcore.games", "review13l")
    assert "golf" in names
    assert "review13l" not in names


def test_a_default_rule_of_another_game_is_the_games_plugin_error() -> None:
    import cardcore_tonk.rules as tonk_rules

    other = cardcore.available_rules("golf")[0]
    mod = types.SimpleNamespace(
        **{k: getattr(tonk_rules, k) for k in dir(tonk_rules) if not k.startswith("__")}
    )
    mod.GAME = attrs.evolve(tonk_rules.GAME, name="review13t", default_rules=(other,))
    cardcore.register("cardcore.games", "review13t", mod)
    try:
        with pytest.raises(PluginError, match="a rule of 'golf'") as caught:
            cardcore.new_game("review13t", 2, seed=1)
        assert caught.value.plugin == "review13t"
    finally:
        cardcore.unregister("cardcore.games", "review13t")
