"""A user's end-to-end pass over a house rule's own options and choice view fields.

Written from the docs only (docs/plugin-guide/house-rule.rst "A rule's own parameters",
docs/cli.rst, docs/house-rule-study.rst, docs/rl.rst, docs/search-agents.rst,
docs/web.rst, docs/plugin-guide/game.rst on ``ViewField(kind="choice")``). No bundled
house rule declares options (``cardcore list``: none shows ``-o``), so the rules here
are registered with :func:`cardcore.register`, as the docs do: CAP-1 exactly as
house-rule.rst writes it, and a few more of the same shape.

Passing tests are claims that held; ``xfail(strict=True)`` tests are bugs found.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import textwrap
import types
from collections.abc import Iterator, Sequence

import pytest

import cardcore
from cardcore import GameState, Option, RuleInfo, ViewField, hookimpl

np = pytest.importorskip("numpy")

# --- the rules under test ---------------------------------------------------------------

CAP_RULE = RuleInfo(
    id="CAP-1",
    name="golf.round-cap",
    game="golf",
    summary="No seat scores more than round_cap points in a round",
    options=(
        Option(
            "round_cap",
            default=10,
            minimum=0,
            maximum=100,
            doc="The most points a seat scores in one round",
        ),
    ),
)


@hookimpl
def _cap_score_round(state: GameState, scores: Sequence[int]) -> list[int]:
    """Cut each seat's round score to the cap (house-rule.rst, verbatim but the name)."""
    cap = state.options["round_cap"]
    return [min(score, cap) for score in scores]


@hookimpl
def _no_points(card: object) -> None:
    """A hook that changes nothing: a rule needs at least one hook."""
    return None


def _module(rule: RuleInfo, **hooks: object) -> types.ModuleType:
    module = types.ModuleType(rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule
    for name, hook in hooks.items():
        setattr(module, name, hook)
    return module


@contextlib.contextmanager
def registered(*modules: types.ModuleType) -> Iterator[None]:
    """Register rule modules for the block, unregistering them after."""
    done = []
    try:
        for module in modules:
            cardcore.register("cardcore.rules", module.RULE.name, module)
            done.append(module.RULE.name)
        yield
    finally:
        for name in reversed(done):
            cardcore.unregister("cardcore.rules", name)


def cap_module() -> types.ModuleType:
    return _module(CAP_RULE, score_round=_cap_score_round)


def other_rule(name: str, rule_id: str, *options: Option) -> types.ModuleType:
    rule = RuleInfo(
        id=rule_id, name=name, game="golf", summary=f"test rule {name}", options=options
    )
    return _module(rule, card_points=_no_points)


@pytest.fixture
def cap() -> Iterator[None]:
    with registered(cap_module()):
        yield


def randoms() -> list[cardcore.RandomAgent]:
    return [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]


# --- 1. Python: new_game ----------------------------------------------------------------


def test_house_rule_doc_example_cap_holds(cap: None) -> None:
    """house-rule.rst: the cap is set, recorded, and caps a one-round game at (3.0, 3.0)."""
    game = cardcore.new_game(
        "golf", 2, rules=["golf.round-cap"], seed=4, options={"rounds": 1, "round_cap": 3}
    )
    assert (game.options["round_cap"], game.record()["options"]["round_cap"]) == (3, 3)
    assert game.view(0)["options"]["round_cap"] == 3
    assert cardcore.play(game, randoms()).scores == (3.0, 3.0)
    plain = cardcore.new_game("golf", 2, seed=4, options={"rounds": 1})
    assert cardcore.play(plain, randoms()).scores == (53.0, 8.0)
    default = cardcore.new_game("golf", 2, rules=["golf.round-cap"], seed=4)
    assert default.options["round_cap"] == 10  # the default filled in


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (500, "option 'round_cap' must be at most 100, not 500"),
        (-1, "option 'round_cap' must be at least 0, not -1"),
        ("3", "option 'round_cap' must be int, not '3' (from 0 to 100)"),
        (3.5, "option 'round_cap' must be int, not 3.5 (from 0 to 100)"),
        (True, "option 'round_cap' must be int, not True (from 0 to 100)"),
        (None, "option 'round_cap' must be int, not None (from 0 to 100)"),
    ],
)
def test_new_game_refuses_bad_rule_option_values(cap: None, value: object, message: str) -> None:
    with pytest.raises(cardcore.OptionError) as err:
        cardcore.new_game("golf", 2, rules=["golf.round-cap"], options={"round_cap": value})
    assert str(err.value) == f"{message} (an option of house rule 'golf.round-cap')"


def test_new_game_refuses_option_of_unchosen_rule_naming_it(cap: None) -> None:
    for rules in ([], ["golf.hard"]):
        with pytest.raises(cardcore.OptionError) as err:
            cardcore.new_game("golf", 2, rules=rules, options={"round_cap": 3})
        assert str(err.value) == (
            "game 'golf' has no option 'round_cap' (it accepts: dealer, layout, max_turns, "
            "points_limit, rounds); house rule 'golf.round-cap' takes it: choose the rule "
            "(rules=['golf.round-cap']) to set it"
        )


def test_new_game_unknown_option_lists_the_rules_options_too(cap: None) -> None:
    with pytest.raises(
        cardcore.OptionError, match=r"no option 'roundcap' \(it accepts: .*round_cap, rounds\)"
    ):
        cardcore.new_game("golf", 2, rules=["golf.round-cap"], options={"roundcap": 3})


def test_rule_named_twice_by_id_in_two_cases_is_one_rule(cap: None) -> None:
    """changelog: a rule ID names its rule in any case; Game.rules names each once."""
    game = cardcore.new_game(
        "golf", 2, rules=["CAP-1", "cap-1", "golf.round-cap"], options={"round_cap": 3}
    )
    assert game.rules == ("golf.round-cap",)
    assert game.options["round_cap"] == 3


def test_rule_name_in_another_case_is_an_unknown_rule(cap: None) -> None:
    """Only IDs are read in any case: a name in capitals is refused, naming it."""
    with pytest.raises(
        cardcore.UnknownPluginError, match=re.escape("no house rule called 'GOLF.ROUND-CAP'")
    ):
        cardcore.new_game(
            "golf", 2, rules=["golf.round-cap", "GOLF.ROUND-CAP"], options={"round_cap": 3}
        )


def test_rule_option_name_clashes_are_plugin_errors() -> None:
    """house-rule.rst: a name the game or another chosen rule declares is a PluginError."""
    clash = other_rule(
        "golf.clash-rounds", "CLASH-1", Option("rounds", default=3, minimum=1, maximum=5)
    )
    twin = other_rule(
        "golf.cap-two", "CAP-2", Option("round_cap", default=5, minimum=0, maximum=50)
    )
    with registered(cap_module(), clash, twin):
        with pytest.raises(
            cardcore.PluginError, match=r"'golf\.clash-rounds' declares option 'rounds'.*CLASH-1"
        ):
            cardcore.new_game("golf", 2, rules=["golf.clash-rounds"])
        with pytest.raises(cardcore.PluginError, match="declares option 'round_cap'"):
            cardcore.new_game("golf", 2, rules=["golf.round-cap", "golf.cap-two"])
        # each alone takes its own bounds
        assert (
            cardcore.new_game("golf", 2, rules=["golf.cap-two"], options={"round_cap": 40}).options[
                "round_cap"
            ]
            == 40
        )
        with pytest.raises(cardcore.OptionError, match="at most 50"):
            cardcore.new_game("golf", 2, rules=["golf.cap-two"], options={"round_cap": 60})


def test_unchosen_option_taken_by_two_rules_names_both() -> None:
    twin = other_rule(
        "golf.cap-two", "CAP-2", Option("round_cap", default=5, minimum=0, maximum=50)
    )
    with registered(cap_module(), twin), pytest.raises(cardcore.OptionError) as err:
        cardcore.new_game("golf", 2, options={"round_cap": 40})
    assert "golf.round-cap" in str(err.value) and "golf.cap-two" in str(err.value)


def test_rule_options_of_other_kinds_are_checked() -> None:
    rule = other_rule(
        "golf.kinds",
        "KINDS-1",
        Option("bonus", default=1.5, kind=float, minimum=0, maximum=10),
        Option("mode", default="low", kind=str, choices=("low", "high")),
        Option("maybe", default=None, minimum=1, maximum=9, nullable=True),
    )
    with registered(rule):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.kinds"], options={"bonus": 2, "mode": "high"}
        )
        assert game.options["bonus"] == 2.0 and isinstance(game.options["bonus"], float)
        assert (game.options["mode"], game.options["maybe"]) == ("high", None)
        for bad, words in (
            ({"bonus": float("nan")}, "must be float"),
            ({"bonus": 11.0}, "at most 10"),
            ({"mode": "HIGH"}, "must be one of 'low' or 'high', not 'HIGH'"),
            ({"maybe": 0}, "at least 1"),
        ):
            with pytest.raises(cardcore.OptionError, match=words):
                cardcore.new_game("golf", 2, rules=["golf.kinds"], options=bad)


def test_records_saves_and_copies_keep_the_rule_option(cap: None) -> None:
    game = cardcore.new_game(
        "golf", 2, rules=["golf.round-cap"], seed=4, options={"rounds": 1, "round_cap": 3}
    )
    cardcore.play(game, randoms())
    record, save = game.record(), game.save()
    assert cardcore.replay(record).result.scores == (3.0, 3.0)
    assert cardcore.load(save).options["round_cap"] == 3
    fresh = cardcore.new_game("golf", 2, rules=["golf.round-cap"], seed=4, options={"round_cap": 3})
    assert fresh.clone().options["round_cap"] == 3
    assert fresh.determinize(0, 1).options["round_cap"] == 3
    edited = {**record, "options": {**record["options"], "round_cap": 500}}
    with pytest.raises(
        cardcore.CorruptStateError, match="option 'round_cap' must be at most 100, not 500"
    ):
        cardcore.replay(edited)
    with pytest.raises(cardcore.CorruptStateError, match="has no option 'round_cap'"):
        cardcore.replay({**record, "rules": []})


# --- 1. the CLI ---------------------------------------------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from cardcore import cli

    capsys.readouterr()
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_simulate_takes_the_rule_option(
    cap: None, capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    import json

    path = tmp_path / "s.json"
    argv = ["simulate", "golf", "--rules", "golf.round-cap", "-o", "round_cap=3", "-o", "rounds=1"]
    code, _, _ = _cli(
        capsys, *argv, "--games", "2", "--players", "2", "--quiet", "--json", str(path)
    )
    assert code == 0
    summary = json.loads(path.read_text())
    assert summary["options"] == {"round_cap": 3, "rounds": 1}
    assert summary["rules"] == ["golf.round-cap"]
    assert max(summary["mean_scores"]) <= 3.0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--rules", "golf.round-cap", "-o", "round_cap=500"],
            "option 'round_cap' must be at most 100, not 500",
        ),
        (
            ["--rules", "golf.round-cap", "-o", "round_cap=abc"],
            "option 'round_cap' must be int, not 'abc'",
        ),
        (
            ["--rules", "golf.round-cap", "-o", "round_cap=3.5"],
            "option 'round_cap' must be int, not '3.5'",
        ),
        (["--rules", "golf.round-cap", "-o", "roundcap=3"], "game 'golf' has no option 'roundcap'"),
        (["--rules", "golf.hard", "-o", "round_cap=3"], "house rule 'golf.round-cap' takes it"),
        (["-o", "round_cap=3"], "house rule 'golf.round-cap' takes it"),
        (
            ["--rules", "golf.round-cap,GOLF.ROUND-CAP", "-o", "round_cap=3"],
            "no house rule called 'GOLF.ROUND-CAP'",
        ),
    ],
)
def test_cli_refusals_are_one_line_status_2(
    cap: None, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    for command in ("simulate", "play", "compare"):
        extra = ["--games", "1", "--quiet"] if command == "simulate" else []
        extra += ["--games", "1", "--skill", "none"] if command == "compare" else []
        code, _out, err = _cli(capsys, command, "golf", *argv, *extra)
        assert code == 2, (command, err)
        assert message in err and err.count("\n") == 1 and "Traceback" not in err, (command, err)


def test_cli_rule_id_in_two_cases_and_list_shows_option(
    cap: None, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "golf", "--rules", "CAP-1,cap-1", "-o", "round_cap=3", "-o", "rounds=1"]
    code, _, err = _cli(capsys, *argv, "--games", "1", "--players", "2", "--quiet")
    assert code == 0, err
    code, out, _ = _cli(capsys, "rules", "golf", "golf.round-cap")
    assert code == 0 and "-o round_cap=10 (0 to 100)" in out


def test_cli_refusal_of_unchosen_rule_option_names_the_flag(
    cap: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _cli(capsys, "simulate", "golf", "-o", "round_cap=3", "--games", "1", "--quiet")
    assert code == 2
    assert "--rules golf.round-cap" in err and "rules=[" not in err


def test_cli_refusal_in_a_fresh_process_has_no_traceback(tmp_path) -> None:
    """The documented way to reach a registered rule from the command's entry point."""
    script = tmp_path / "run.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys, types
            import cardcore
            from cardcore import Option, RuleInfo, cli, hookimpl
            module = types.ModuleType("round_cap")
            module.RULE = RuleInfo(id="CAP-1", name="golf.round-cap", game="golf", summary="cap",
                                   options=(Option("round_cap", default=10, minimum=0, maximum=100),))
            @hookimpl
            def score_round(state, scores):
                return [min(s, state.options["round_cap"]) for s in scores]
            module.score_round = score_round
            cardcore.register("cardcore.rules", "golf.round-cap", module)
            sys.exit(cli.main(sys.argv[1:]))
            """
        )
    )
    done = subprocess.run(
        [
            sys.executable,
            str(script),
            "compare",
            "golf",
            "--rules",
            "golf.round-cap",
            "-o",
            "round_cap=-4",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "error: configuration A: option 'round_cap' must be at least 0, not -4"
        " (an option of house rule 'golf.round-cap')\n"
    )
    assert done.stdout == ""


# --- 1. the house-rule lab ------------------------------------------------------------------


def test_compare_gives_b_only_the_options_its_rules_take(cap: None) -> None:
    """compare's docstring: vs_options default to A's less those only A's rules take."""
    result = cardcore.compare(
        "golf",
        rules=["golf.round-cap"],
        options={"round_cap": 3, "rounds": 1},
        games=2,
        skill=None,
        players=2,
    )
    assert result.a.options == {"round_cap": 3, "rounds": 1}
    assert result.b.rules == () and result.b.options == {"rounds": 1}
    both = cardcore.compare(
        "golf",
        rules=["golf.round-cap"],
        vs=["cap-1"],
        options={"round_cap": 3, "rounds": 1},
        games=2,
        skill=None,
    )
    assert both.b.rules == ("golf.round-cap",) and both.b.options["round_cap"] == 3


def test_compare_refuses_bad_b_rule_option_naming_configuration_b(cap: None) -> None:
    with pytest.raises(
        cardcore.OptionError,
        match=r"^configuration B: option 'round_cap' must be at least 0, not -1"
        r" \(an option of house rule 'golf.round-cap'\)$",
    ):
        cardcore.compare(
            "golf",
            rules=["golf.round-cap"],
            vs=["golf.round-cap"],
            vs_options={"round_cap": -1},
            games=1,
            skill=None,
        )


def test_compare_b_refusal_names_the_vs_parameter(cap: None) -> None:
    with pytest.raises(cardcore.OptionError) as err:
        cardcore.compare("golf", vs_options={"round_cap": 3}, games=1, skill=None)
    assert "vs=['golf.round-cap']" in str(err.value)


def test_study_doc_examples_hold() -> None:
    result = cardcore.compare(
        "golf", rules=["golf.jokers"], games=10, seed=1, options={"rounds": 1}
    )
    assert (result.a.rules, result.b.rules) == (("golf.jokers",), ())
    assert (result.same_deals, result.diff["actions"].n) == (False, 10)
    mixed = cardcore.compare("golf", agents=["golf-greedy", "random"], games=12, skill=None)
    assert sorted(mixed.a.agent_wins) == ["golf-greedy", "random"]
    assert mixed.a.agent_wins["golf-greedy"].mean > mixed.a.agent_wins["random"].mean
    same = cardcore.compare("golf", rules=["golf.hard"], vs=["GOLF-SCORE-2"], games=2, skill=None)
    assert same.a.rules == same.b.rules == ("golf.hard",) and same.same_deals


def test_study_interval_claims_hold() -> None:
    """100 of 100 is 100.0% [96.3, 100.0]; 100% against 100% of 400 is +0.0% [-1.0, 1.0]."""
    hundred = cardcore.compare(
        "golf", rules=["golf.hard"], games=100, seed=1, options={"rounds": 1}, skill=None
    )
    assert next(row for row in hundred.rows() if row[0] == "ends: rounds")[:3] == (
        "ends: rounds",
        "100.0% [96.3, 100.0]",
        "100.0% [96.3, 100.0]",
    )
    many = cardcore.compare(
        "golf", rules=["golf.hard"], games=400, seed=1, options={"rounds": 1}, skill=None
    )
    row = next(row for row in many.rows() if row[0] == "ends: rounds")
    assert row == (
        "ends: rounds",
        "100.0% [99.0, 100.0]",
        "100.0% [99.0, 100.0]",
        "+0.0% [-1.0, 1.0]",
    )
    # HARD scoring deals the same cards: duplicate deals, the same length to the action
    assert many.same_deals
    assert next(row for row in many.rows() if row[0] == "actions per game")[3] == "+0.0 ± 0.0"


# --- 1. RL environments ---------------------------------------------------------------------


def test_rl_environments_take_and_check_the_rule_option(cap: None) -> None:
    from cardcore.rl import Config, aec_env, gym_env, vector_env

    env = aec_env("golf", 2, rules=["golf.round-cap"], options={"rounds": 1, "round_cap": 3})
    env.reset(seed=7)
    assert env.match.game.options["round_cap"] == 3
    assert gym_env(
        "golf", 2, rules=["CAP-1", "cap-1"], options={"round_cap": 3}
    ).runner.config.options == {"round_cap": 3}
    builders = (
        lambda **kw: aec_env("golf", 2, **kw),
        lambda **kw: gym_env("golf", 2, **kw),
        lambda **kw: vector_env("golf", 2, 2, **kw),
        lambda **kw: Config("golf", 2, **kw),
    )
    for build in builders:
        with pytest.raises(cardcore.OptionError, match="must be at most 100, not 500"):
            build(rules=["golf.round-cap"], options={"round_cap": 500})
        with pytest.raises(cardcore.OptionError, match=re.escape("must be int, not np.int64")):
            build(rules=["golf.round-cap"], options={"round_cap": np.int64(3)})
        with pytest.raises(
            cardcore.OptionError, match=re.escape("house rule 'golf.round-cap' takes it")
        ):
            build(options={"round_cap": 3})
        with pytest.raises(cardcore.UnknownPluginError, match=re.escape("GOLF.ROUND-CAP")):
            build(rules=["golf.round-cap", "GOLF.ROUND-CAP"], options={"round_cap": 3})
    with pytest.raises(cardcore.OptionError, match=r"reset\(\) takes no game options"):
        env.reset(seed=1, options={"round_cap": 5})
    assert env.match.game.options["round_cap"] == 3  # the refused reset changed nothing


def test_rl_score_rewards_follow_the_capped_scores(cap: None) -> None:
    from cardcore.rl import aec_env

    def paid(rules: list[str], options: dict) -> tuple[float, tuple]:
        env = aec_env("golf", 2, rules=rules, options=options, rewards="score")
        env.reset(seed=3)
        rng, total = np.random.default_rng(0), 0.0
        for _agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            total += abs(reward)
            env.step(None if term or trunc else int(rng.choice(obs["action_mask"].nonzero()[0])))
        return total, env.match.game.result.scores

    assert paid(["golf.round-cap"], {"rounds": 1, "round_cap": 0}) == (0.0, (0.0, 0.0))
    total, scores = paid([], {"rounds": 1})
    assert scores[0] != scores[1] and total > 0


def test_rl_encoding_knows_the_rule_option(cap: None) -> None:
    from cardcore.rl import encoding_for, observe

    three = cardcore.new_game("golf", 2, rules=["golf.round-cap"], options={"round_cap": 3}, seed=1)
    four = cardcore.new_game("golf", 2, rules=["golf.round-cap"], options={"round_cap": 4}, seed=1)
    encoding = encoding_for(three)
    assert observe(three, 0, encoding)["observation"].shape == (253,)
    with pytest.raises(
        cardcore.ArgumentError, match="it encodes options round_cap=3, the game has round_cap=4"
    ):
        observe(four, 0, encoding)


def test_rl_doc_example_holds() -> None:
    from cardcore.rl import aec_env

    env = aec_env("golf", 2, options={"rounds": 1})
    env.reset(seed=7)
    assert env.agent_selection == "player_0"
    obs, _reward, _terminated, _truncated, _info = env.last()
    assert (obs["observation"].shape, str(obs["observation"].dtype), obs["action_mask"].shape) == (
        (253,),
        "float32",
        (22,),
    )
    names = [env.config.observer.names[i] for i in obs["action_mask"].nonzero()[0]]
    assert names == ["flip 0", "flip 1", "flip 2", "flip 3", "flip 4", "flip 5"]
    env.step(10)
    assert env.match.game.record_entries()[0][1].notation() == "flip 0"


def test_rl_real_time_rule_option_reaches_the_hooks() -> None:
    from cardcore.rl import vector_env

    seen: set[int] = set()

    @hookimpl
    def forbid_action(state: GameState, action: object) -> None:
        seen.add(state.options["watch"])

    rule = RuleInfo(
        id="SPO-1",
        name="speed.watch",
        game="speed",
        summary="reads its option",
        options=(Option("watch", default=1, minimum=1, maximum=9),),
    )
    with registered(_module(rule, forbid_action=forbid_action)):
        envs = vector_env("speed", 2, rules=["speed.watch"], options={"watch": 5})
        obs, _ = envs.reset(seed=1)
        rng = np.random.default_rng(0)
        for _ in range(10):
            obs, *_ = envs.step([int(rng.choice(mask.nonzero()[0])) for mask in obs["action_mask"]])
        with pytest.raises(cardcore.OptionError, match="option 'watch' must be at least 1, not 0"):
            vector_env("speed", 2, rules=["speed.watch"], options={"watch": 0})
    assert seen == {5}


# --- 1. search agents -----------------------------------------------------------------------


def test_search_worlds_carry_the_rule_option() -> None:
    """search-agents.rst: works with every house rule; its samples are games of the view's
    configuration. The hook raises in any world that lost the chosen value."""
    from cardcore.search import ISMCTSAgent, view_config

    @hookimpl
    def score_round(state: GameState, scores: Sequence[int]) -> list[int]:
        if state.options["strict_cap"] != 2:
            raise RuntimeError("a world lost the rule's option")
        return [min(s, 2) for s in scores]

    rule = RuleInfo(
        id="STRICT-1",
        name="golf.strict-cap",
        game="golf",
        summary="a cap that must be 2",
        options=(Option("strict_cap", default=10, minimum=0, maximum=100),),
    )
    with registered(_module(rule, score_round=score_round)):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.strict-cap"], seed=7, options={"rounds": 1, "strict_cap": 2}
        )
        config = view_config(game.view(0))
        assert config.rules == ("golf.strict-cap",) and config.options["strict_cap"] == 2
        result = cardcore.play(game, [ISMCTSAgent(seed=7, iterations=15), cardcore.RandomAgent(1)])
    assert result.scores == (2.0, 2.0)


def test_search_doc_examples_hold() -> None:
    from cardcore.search import ISMCTSAgent

    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    bot = ISMCTSAgent(seed=7, iterations=30)
    assert cardcore.play(game, [bot, cardcore.RandomAgent(1)]).reason == "rounds"
    cardcore.register("cardcore.agents", "ismcts", ISMCTSAgent)
    try:
        assert repr(cardcore.load_agent("ismcts", seed=7, iterations=200)) == (
            "ISMCTSAgent(seed=7, iterations=200, c=0.7, rollout='game')"
        )
        assert repr(cardcore.load_agent("ismcts:iterations=50,seed=7")) == (
            "ISMCTSAgent(seed=7, iterations=50, c=0.7, rollout='game')"
        )
        with pytest.raises(cardcore.OptionError) as err:
            cardcore.load_agent("ismcts", iters=3)
    finally:
        cardcore.unregister("cardcore.agents", "ismcts")
    assert str(err.value) == (
        "agent 'ismcts' has no parameter 'iters' (it takes: seed, iterations, time, c, rollout, "
        "max_rollout, observe, depth, prior, reuse, reaction, spread); did you mean 'iterations'?"
    )


# --- 1. the web lobby -----------------------------------------------------------------------


def test_web_lobby_takes_and_refuses_rule_options(cap: None) -> None:
    import time
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from cardcore.web import WebServer, create_app

    seats = [
        {"name": "Bot", "agent": "random", "params": {"seed": 1}},
        {"name": "Bot2", "agent": "random", "params": {"seed": 2}},
    ]
    with TestClient(create_app(WebServer(None, bot_delay=0))) as client:
        golf = next(g for g in client.get("/api/games").json() if g["name"] == "golf")
        listed = next(r for r in golf["rules"] if r["name"] == "golf.round-cap")
        assert [o["name"] for o in listed["options"]] == ["round_cap"]
        assert (listed["options"][0]["minimum"], listed["options"][0]["maximum"]) == (0, 100)
        refusals = [
            (
                {"rules": ["golf.round-cap"], "options": {"round_cap": 500}},
                "must be at most 100, not 500",
            ),
            ({"rules": ["golf.round-cap"], "options": {"round_cap": "3"}}, "must be int, not '3'"),
            (
                {"rules": ["golf.round-cap"], "options": {"round_cap": True}},
                "must be int, not True",
            ),
            ({"options": {"round_cap": 3}}, "house rule 'golf.round-cap' takes it"),
            (
                {"rules": ["golf.hard"], "options": {"round_cap": 3}},
                "house rule 'golf.round-cap' takes it",
            ),
            ({"rules": ["golf.round-cap"], "options": {"roundcap": 3}}, "has no option 'roundcap'"),
            (
                {"rules": ["golf.round-cap", "GOLF.ROUND-CAP"], "options": {"round_cap": 3}},
                "'GOLF.ROUND-CAP'",
            ),
        ]
        for body, words in refusals:
            answer = client.post("/api/sessions", json={"game": "golf", "seats": seats, **body})
            assert answer.status_code == 400 and words in answer.json()["error"], answer.json()
        assert (
            client.get("/api/sessions").headers["X-Total-Count"] == "0"
        )  # the refusals created nothing
        body = {
            "game": "golf",
            "seats": seats,
            "rules": ["golf.round-cap"],
            "options": {"round_cap": 2, "rounds": 1},
        }
        created = client.post("/api/sessions", json=body)
        assert created.status_code == 201 and created.json()["options"]["round_cap"] == 2
        session = created.json()["session"]
        deadline = time.monotonic() + 10
        while (
            client.get(f"/api/sessions/{session}").json()["phase"] != "over"
            and time.monotonic() < deadline
        ):
            time.sleep(0.02)
        record = client.get(f"/api/sessions/{session}/record").json()
    assert record["options"]["round_cap"] == 2
    assert record["result"]["scores"] == [2.0, 2.0]


# --- 1. the conformance kit -----------------------------------------------------------------


def test_kit_bound_check_wants_a_rule_integer_option_bounded() -> None:
    from cardcore.testing import check_bounds

    loose = other_rule("golf.loose", "LOOSE-1", Option("loose", default=3))
    with registered(loose):
        report = check_bounds(
            "golf", players=2, rules=["golf.loose"], options={"rounds": 1}, games=1, strict=False
        )
    assert any("integer option 'loose'" in failure for failure in report.failures)


# --- 2. view fields of kind "choice" --------------------------------------------------------


class _Mood:
    value: object = None  # None: the game's own value; else this one


def _choice_game() -> types.ModuleType:
    """Go Fish (the example distribution) with one more field, of kind "choice"."""
    import cardcore_gofish.rules as base
    from cardcore_gofish.logic import GoFishLogic

    class MoodLogic(GoFishLogic):
        def table(self, state, seat):  # type: ignore[no-untyped-def]
            table = super().table(state, seat)
            table["mood"] = (
                _Mood.value
                if _Mood.value is not None
                else ("calm" if table["stock"] % 2 else "eager")
            )
            return table

    @hookimpl
    def create_logic(ruleset):  # type: ignore[no-untyped-def]
        return MoodLogic(ruleset)

    module = types.ModuleType("moodfish")
    for key, value in vars(base).items():
        if not key.startswith("__"):
            setattr(module, key, value)
    info = base.GAME
    mood = ViewField("mood", "choice", "the table's mood", choices=("calm", "eager"))
    module.GAME = cardcore.GameInfo(
        "moodfish",
        info.summary,
        info.min_players,
        info.max_players,
        version=info.version,
        fields=(*info.fields, mood),
    )
    module.create_logic = create_logic
    return module


@pytest.fixture
def moodfish() -> Iterator[None]:
    cardcore.register("cardcore.games", "moodfish", _choice_game())
    try:
        yield
    finally:
        _Mood.value = None
        cardcore.unregister("cardcore.games", "moodfish")


def test_choice_field_is_declared_in_the_schema(moodfish: None) -> None:
    game = cardcore.new_game("moodfish", 2, seed=3)
    field = next(f for f in game.view_schema()["fields"] if f["name"] == "mood")
    assert field["kind"] == "choice" and field["choices"] == ["calm", "eager"]
    assert game.view(0)["table"]["mood"] in ("calm", "eager")


def test_choice_field_is_one_hot_over_choices_and_none_of_them(moodfish: None) -> None:
    """rl.rst / GenericEncoding: ``choice`` is a one-hot over its choices and "none of them"."""
    from cardcore.rl import aec_env, encoding_for, observe

    game = cardcore.new_game("moodfish", 2, seed=3)
    encoding = encoding_for(game)
    assert type(encoding).__name__ == "GenericEncoding"
    seen = {}
    for value in ("calm", "eager", "grumpy"):
        _Mood.value = value
        seen[value] = observe(game, 0, encoding)["observation"]
    calm, eager, grumpy = seen["calm"], seen["eager"], seen["grumpy"]
    changed = sorted(set(np.flatnonzero(calm != eager)) | set(np.flatnonzero(calm != grumpy)))
    assert len(changed) == 3  # three places: calm, eager, none of them
    assert [list(obs[changed]) for obs in (calm, eager, grumpy)] == [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
    ]
    _Mood.value = None
    env = aec_env("moodfish", 2)
    env.reset(seed=1)
    assert env.last()[0]["observation"].shape == calm.shape


def test_choice_value_outside_the_choices_is_refused_by_the_kit(moodfish: None) -> None:
    from cardcore.testing import check_views

    assert check_views("moodfish", players=2, games=1, seed=0, strict=False).failures == []
    _Mood.value = "grumpy"
    report = check_views("moodfish", players=2, games=1, seed=0, strict=False)
    assert (
        "at version 0: table field 'mood' in the view of seat 0 must be one of the declared choices "
        "['calm', 'eager'], not 'grumpy'"
    ) in report.failures


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"kind": "choice"}, "kind 'choice' needs choices="),
        ({"kind": "choice", "choices": "CDHS"}, "kind 'choice' needs choices="),
        ({"kind": "choice", "choices": ("a", "a")}, "holds a value twice"),
        ({"kind": "choice", "choices": (1, 1.0)}, "holds a value twice"),
        (
            {"kind": "choice", "choices": (float("nan"), 1)},
            "a choice must be text, a finite number or a boolean",
        ),
        (
            {"kind": "choice", "choices": (None, "a")},
            "a choice must be text, a finite number or a boolean",
        ),
        ({"kind": "int", "choices": (1, 2)}, "choices= is for kind 'choice' only"),
    ],
)
def test_bad_choice_declarations_are_plugin_errors(kwargs: dict, words: str) -> None:
    with pytest.raises(cardcore.PluginError, match=words.replace("(", r"\(")):
        ViewField("x", **kwargs)
