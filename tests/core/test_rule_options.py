"""A house rule's own parameters (``RuleInfo.options``): declared, checked, resolved and
carried everywhere the game's own options go."""

from __future__ import annotations

import json
import types
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import cardcore
from cardcore import GameState, Option, OptionError, PluginError, RuleInfo, hookimpl
from cardcore.cli import main as cli_main
from cardcore.cli.args import parse_options
from cardcore.session import GameSetup
from cardcore.testing import check_game, configurations

CAP = "golf.test-round-cap"
CAP_OPTION = Option(
    "round_cap", default=10, doc="The most points a seat scores in a round", minimum=0, maximum=100
)


@hookimpl
def score_round(state: GameState, scores: Sequence[int]) -> list[int]:
    """No seat scores more than the cap in a round."""
    cap = state.options["round_cap"]
    return [min(s, cap) for s in scores]


def _rule(name: str, *options: Option, rule_id: str = "CAP-1") -> types.ModuleType:
    module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id=rule_id, name=name, game="golf", summary="Round scores are capped", options=options
    )
    module.score_round = score_round  # type: ignore[attr-defined]
    return module


@pytest.fixture
def cap() -> Iterator[str]:
    cardcore.register("cardcore.rules", CAP, _rule(CAP, CAP_OPTION))
    yield CAP
    cardcore.unregister("cardcore.rules", CAP)


def _play(game: cardcore.Game) -> cardcore.Result:
    return cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])


# -- declaring ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ("round_cap", "a tuple of Option"),
        ((CAP_OPTION, "x"), "not an Option"),
        ((CAP_OPTION, CAP_OPTION), "two options named 'round_cap'"),
        ((Option("x", 1, doc="a\x1b[2Jb", minimum=0, maximum=2),), "control character"),
        ((Option("x", 1, minimum=0, maximum=2, default_before=("0.1.0", 2)),), "default_before"),
    ],
)
def test_bad_declarations_are_refused_naming_the_rule(options: Any, words: str) -> None:
    with pytest.raises(PluginError, match=words) as err:
        RuleInfo(id="CAP-1", name=CAP, game="golf", summary="s", options=options)
    assert CAP in str(err.value) and "CAP-1" in str(err.value)


def test_a_list_of_options_is_kept_as_a_tuple() -> None:
    info = RuleInfo(id="CAP-1", name=CAP, game="golf", summary="s", options=[CAP_OPTION])
    assert info.options == (CAP_OPTION,)


def test_an_option_named_like_the_games_is_refused_when_the_configuration_is_built() -> None:
    clash = Option("layout", default=6, choices=(6,))
    cardcore.register("cardcore.rules", CAP, _rule(CAP, clash))
    try:
        with pytest.raises(PluginError, match="declares option 'layout', which game 'golf'"):
            cardcore.new_game("golf", 2, rules=[CAP])
    finally:
        cardcore.unregister("cardcore.rules", CAP)


def test_two_chosen_rules_with_one_option_name_are_refused() -> None:
    other = "golf.test-round-cap-2"
    cardcore.register("cardcore.rules", CAP, _rule(CAP, CAP_OPTION))
    cardcore.register("cardcore.rules", other, _rule(other, CAP_OPTION, rule_id="CAP-2"))
    try:
        with pytest.raises(PluginError, match=f"which house rule '{CAP}' declares too"):
            cardcore.new_game("golf", 2, rules=[CAP, other])
        cardcore.new_game("golf", 2, rules=[other])  # each alone is fine
    finally:
        cardcore.unregister("cardcore.rules", other)
        cardcore.unregister("cardcore.rules", CAP)


# -- resolving ----------------------------------------------------------------------------------


def test_the_default_is_filled_in_and_the_hook_reads_it(cap: str) -> None:
    game = cardcore.new_game("golf", 2, rules=[cap], options={"rounds": 1}, seed=4)
    assert game.options["round_cap"] == 10
    assert game.view(0)["options"]["round_cap"] == 10
    capped = _play(
        cardcore.new_game("golf", 2, rules=[cap], options={"rounds": 1, "round_cap": 3}, seed=4)
    )
    plain = _play(cardcore.new_game("golf", 2, options={"rounds": 1}, seed=4))
    assert max(plain.scores) > 3  # the game without the rule scores above the cap
    assert capped.scores == tuple(min(s, 3) for s in plain.scores)


@pytest.mark.parametrize(
    ("value", "words"),
    [(101, "at most 100"), (-1, "at least 0"), ("3", "int"), (True, "int")],
)
def test_a_bad_value_is_refused_like_a_game_option(cap: str, value: Any, words: str) -> None:
    with pytest.raises(OptionError, match=f"option 'round_cap' must be {words}"):
        cardcore.new_game("golf", 2, rules=[cap], options={"round_cap": value})


def test_the_option_without_its_rule_is_refused_naming_the_rule(cap: str) -> None:
    with pytest.raises(OptionError) as err:
        cardcore.new_game("golf", 2, options={"round_cap": 3})
    text = str(err.value)
    assert "game 'golf' has no option 'round_cap'" in text
    assert f"house rule '{cap}' takes it" in text


def test_an_unknown_option_names_no_rule(cap: str) -> None:
    with pytest.raises(OptionError) as err:
        cardcore.new_game("golf", 2, rules=[cap], options={"round_capp": 3})
    assert "round_cap" in str(err.value) and "takes it" not in str(err.value)


# -- carried everywhere -------------------------------------------------------------------------


def test_records_saves_and_views_carry_the_rule_option(cap: str) -> None:
    game = cardcore.new_game("golf", 2, rules=[cap], options={"rounds": 1, "round_cap": 2}, seed=9)
    result = _play(game)
    record = json.loads(json.dumps(game.record()))
    assert record["options"]["round_cap"] == 2
    again = cardcore.replay(record)
    assert again.result == result and again.options["round_cap"] == 2
    loaded = cardcore.load(game.save())
    assert loaded.options["round_cap"] == 2
    record["options"]["round_cap"] = 500  # tampered: refused, like a game option
    with pytest.raises(cardcore.CardcoreError, match="round_cap"):
        cardcore.replay(record)


def test_a_session_setup_writes_the_rule_options_default(cap: str) -> None:
    setup = GameSetup(game="golf", players=("a", "b"), rules=(cap,))
    data = setup.to_json()
    assert data["options"]["round_cap"] == 10
    assert GameSetup.from_data(data).build(seed=1).options["round_cap"] == 10


def test_a_search_agent_plays_with_the_rule_option(cap: str) -> None:
    game = cardcore.new_game("golf", 2, rules=[cap], options={"rounds": 1, "round_cap": 4}, seed=2)
    agent = cardcore.load_agent("ismcts", seed=1, iterations=8)
    result = cardcore.play(game, [agent, cardcore.RandomAgent(2)])
    assert max(result.scores) <= 4


def test_the_command_line_reads_a_rule_option_as_its_kind(cap: str) -> None:
    assert parse_options("golf", ["round_cap=7"]) == {"round_cap": 7}
    with pytest.raises(OptionError, match="option 'round_cap' must be int"):
        parse_options("golf", ["round_cap=seven"])


def test_cardcore_list_shows_the_rule_option(
    cap: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "240")
    assert cli_main(["list", "golf"]) == 0
    out = capsys.readouterr().out
    assert "-o round_cap=10 (0 to 100)" in out


def test_the_kit_checks_each_choice_and_the_bounds_of_rule_options() -> None:
    choice = Option("round_cap", default=10, choices=(5, 10, 20))
    cardcore.register("cardcore.rules", CAP, _rule(CAP, choice))
    try:
        chosen = [c.options for c in configurations("golf", rules=[CAP]) if c.rules == (CAP,)]
        assert chosen == [(), (("round_cap", 5),), (("round_cap", 20),)]  # each choice once
    finally:
        cardcore.unregister("cardcore.rules", CAP)
    unbounded = Option("round_cap", default=10)
    cardcore.register("cardcore.rules", CAP, _rule(CAP, unbounded))
    try:
        report = check_game("golf", games=2, rules=[CAP], checks={"bound"}, strict=False)
        assert not report.ok
        assert any("'round_cap' of a chosen house rule must declare" in f for f in report.failures)
    finally:
        cardcore.unregister("cardcore.rules", CAP)


def test_the_kit_passes_a_rule_with_a_bounded_option(cap: str) -> None:
    report = check_game("golf", games=3, rules=[cap], options={"round_cap": 0})
    assert report.ok, report.failures


def test_rl_reset_refuses_a_rule_option_as_a_game_option(cap: str) -> None:
    pytest.importorskip("pettingzoo")
    from cardcore.rl import aec_env

    env = aec_env("golf", 2, rules=[cap], options={"round_cap": 3})
    env.reset(seed=1)
    with pytest.raises(OptionError, match=r"options=\{\.\.\.\}"):
        env.reset(seed=1, options={"round_cap": 4})


def test_the_web_lobby_lists_a_rules_own_options(cap: str) -> None:
    pytest.importorskip("starlette")
    from tests.web.helpers import serve

    with serve() as (client, _, _):
        golf = next(g for g in client.get("/api/games").json() if g["name"] == "golf")
        rule = next(r for r in golf["rules"] if r["name"] == cap)
        assert rule["options"] == [CAP_OPTION.to_json()]
        assert rule["options"][0]["maximum"] == 100
        plain = next(r for r in golf["rules"] if r["name"] == "golf.jokers")
        assert plain["options"] == []


def test_a_rule_option_value_that_cannot_be_hashed_is_refused() -> None:
    """A rule's values join the game's options, which a game may use as a key (Golf's plans)."""
    with pytest.raises(PluginError, match="cannot be hashed"):
        RuleInfo(
            id="CAP-1", name=CAP, game="golf", summary="s", options=(Option("x", [1], kind=object),)
        )
    loose = Option("round_cap", default=10, kind=object, doc="anything")
    cardcore.register("cardcore.rules", CAP, _rule(CAP, loose))
    try:
        with pytest.raises(
            OptionError, match="option 'round_cap' must be a value that can be hashed"
        ):
            cardcore.new_game("golf", 2, rules=[CAP], options={"round_cap": [3]})
        assert (
            cardcore.new_game("golf", 2, rules=[CAP], options={"round_cap": 3}).options["round_cap"]
            == 3
        )
    finally:
        cardcore.unregister("cardcore.rules", CAP)


def test_option_to_json_lists_each_choice_once_even_unhashable_ones() -> None:
    spelled = Option("layout", default=6, kind=object, choices=(6, "6", 6.0, 9))
    assert spelled.to_json()["choices"] == [6, "6", 9]
    lists = Option(
        "order", default=None, kind=object, nullable=True, choices=([1, 2], [2, 1], [1, 2])
    )
    assert lists.to_json() == {
        "name": "order", "default": None, "doc": "", "kind": "object", "choices": [[1, 2], [2, 1]],
        "minimum": None, "maximum": None, "nullable": True,
    }  # fmt: skip


def test_compare_takes_a_rule_option_for_a_alone(cap: str) -> None:
    result = cardcore.compare(
        "golf", rules=[cap], options={"round_cap": 0, "rounds": 1}, games=4, skill=None
    )
    assert result.a.options == {"round_cap": 0, "rounds": 1} and result.b.options == {"rounds": 1}
    assert result.a.games == result.b.games == 4


def test_an_unknown_option_is_an_option_error_even_with_a_broken_rule_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hint reads every installed rule of the game; one that fails to load takes nothing."""
    import cardcore.plugins as plugins

    real_available, real_info = plugins.available_rules, plugins.rule_info

    def rule_info(name: str) -> RuleInfo:
        if name == "golf.test-broken":
            raise PluginError("plugin 'golf.test-broken' failed to import", plugin=name)
        return real_info(name)

    monkeypatch.setattr(
        plugins, "available_rules", lambda g: (*real_available(g), "golf.test-broken")
    )
    monkeypatch.setattr(plugins, "rule_info", rule_info)
    with pytest.raises(OptionError, match="has no option 'round_cap'"):
        cardcore.new_game("golf", 2, options={"round_cap": 3})
