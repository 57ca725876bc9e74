"""A new user's read of the user-facing docs (tutorial, agents, search agents, cli,
the Golf and Tonk pages): each test pins one concrete claim a user would rely on,
preferring narrative sentences and tables that the docs' doctests do not run."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile

import pytest

import cardcore
from cardcore import (
    ArgumentError,
    CardcoreError,
    IllegalActionError,
    NotationError,
    OptionError,
    Plan,
    RandomAgent,
    StalledGameError,
)

ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120"}


def _cli(*args: str, stdin: str = "", cwd: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cardcore", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=ENV,
        timeout=60,
    )


# --- docs/agents.rst -------------------------------------------------------------


def test_agents_play_refuses_a_realtime_game_with_option_error():
    # "A real-time game is refused (OptionError: use run_realtime ...)"
    game = cardcore.new_game("speed", 2, seed=3)
    with pytest.raises(OptionError, match="run_realtime"):
        cardcore.play(game, [RandomAgent(1), RandomAgent(2)])
    assert game.version == 0


def test_agents_plan_only_agents_are_refused_first_with_argument_error():
    # "agents with only a plan method are refused first, an ArgumentError saying they
    # have no choose" -- first, even before the real-time refusal.
    class PlanOnly:
        def plan(self, view, legal, now):
            return None

    for name in ("golf", "speed"):
        with pytest.raises(ArgumentError, match=r"no choose"):
            cardcore.play(cardcore.new_game(name, 2, seed=1), [PlanOnly(), PlanOnly()])


def test_agents_refused_answer_names_seat_and_class_and_leaves_game_unchanged():
    class AnswersText:
        def choose(self, view, legal):
            return "draw"  # the text, not the Action object

    class ResignsOther:
        def choose(self, view, legal):
            return cardcore.Resign(1)

    for agent_cls in (AnswersText, ResignsOther):
        game = cardcore.new_game("golf", 2, seed=1)
        with pytest.raises(IllegalActionError) as info:
            cardcore.play(game, [agent_cls(), agent_cls()])
        assert "seat 0" in str(info.value) and agent_cls.__name__ in str(info.value)
        assert game.version == 0 and game.record()["actions"] == []


def test_agents_own_exception_reaches_play_as_is_and_simulate_names_it():
    class Boom:
        def __init__(self, seed=None):
            pass

        def choose(self, view, legal):
            raise KeyError("boom")

    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(KeyError):
        cardcore.play(game, [Boom(), Boom()])
    assert game.version == 0
    cardcore.register("cardcore.agents", "review-boom", Boom)
    try:
        with pytest.raises(CardcoreError) as info:
            cardcore.simulate("golf", games=1, players=2, agents=["review-boom", "random"], seed=3)
    finally:
        cardcore.unregister("cardcore.agents", "review-boom")
    text = str(info.value)
    assert "seat 0" in text and "golf" in text and "seed" in text
    assert isinstance(info.value.__cause__, KeyError)


def test_agents_bounded_parameter_refusals_name_parameter_and_range():
    # "a value outside its range, or a bounded parameter given a bool, NaN or text,
    # is an OptionError naming the parameter and its range"
    for bad in (0, 10001, True, float("nan"), "3"):
        with pytest.raises(OptionError, match=r"samples must be .*from 1 to 10000"):
            cardcore.load_agent("tonk-heuristic", samples=bad)
    # "a negative seed is refused"
    with pytest.raises(OptionError, match="seed"):
        cardcore.load_agent("tonk-heuristic", seed=-1)


def test_agents_every_builtin_agent_bounds_its_numeric_parameters_but_seed():
    bounds = cardcore.load_agent("ismcts").parameter_bounds
    assert "seed" not in bounds
    for name in ("iterations", "time", "reuse", "depth", "prior", "reaction", "spread"):
        low, high = bounds[name]
        assert low <= high


def test_agents_old_class_names_remain_aliases():
    import cardcore_golf.agents as golf_agents
    import cardcore_spit.agents as spit_agents
    import cardcore_tonk.agents as tonk_agents

    assert golf_agents.GreedyGolfAgent is golf_agents.GolfGreedyAgent
    assert tonk_agents.HeuristicAgent is tonk_agents.TonkHeuristicAgent
    assert spit_agents.GreedyBot is spit_agents.SpitGreedyAgent
    assert spit_agents.HumanBot is spit_agents.SpitHumanAgent
    assert cardcore.load_agent("spit-human") is spit_agents.SpitHumanAgent


def test_agents_random_agent_implements_both_protocols():
    agent = RandomAgent(1)
    assert isinstance(agent, cardcore.Agent) and isinstance(agent, cardcore.RealtimeAgent)


def test_run_realtime_max_actions_truncates_and_is_recorded_not_a_pause():
    bot = cardcore.load_agent("spit-greedy")
    game = cardcore.new_game("speed", 2, seed=3)
    result = cardcore.run_realtime(game, [bot(seed=1), bot(seed=2)], seed=5, max_actions=3)
    assert result.reason == "truncated" and game.is_over
    again = cardcore.run_realtime(game, [bot(seed=1), bot(seed=2)], seed=5)
    assert again == result and game.is_over
    assert cardcore.replay(game.record()).result == result


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda legal: (legal[0], 0.1), "Plan"),  # a tuple, not a Plan
        (lambda legal: Plan(legal[0], float("inf")), "finite"),
        (lambda legal: Plan(legal[0], 2e15), "1e\\+15"),  # past MAX_TIME
    ],
)
def test_run_realtime_bad_plans_stop_with_cardcore_error_naming_seat_and_class(make, match):
    class Planner:
        def plan(self, view, legal, now):
            return make(legal) if legal else None

    game = cardcore.new_game("speed", 2, seed=3)
    with pytest.raises(CardcoreError, match=match) as info:
        cardcore.run_realtime(game, [Planner(), Planner()], seed=1)
    assert "seat 0" in str(info.value) and "Planner" in str(info.value)


def test_run_realtime_nobody_plans_raises_stalled_game_error_citing_core_rt_2():
    class Never:
        def plan(self, view, legal, now):
            return None

    game = cardcore.new_game("speed", 2, seed=3)
    with pytest.raises(StalledGameError, match=r"CORE-RT-2") as info:
        cardcore.run_realtime(game, [Never(), Never()], seed=1)
    assert isinstance(info.value, CardcoreError)
    assert "no agent plans" in str(info.value)  # "says whether seats could act"


# --- docs/search-agents.rst --------------------------------------------------------


def test_search_ismcts_defaults_and_time_alone_by_name():
    from cardcore.search import ISMCTSAgent

    bot = ISMCTSAgent(seed=1)
    assert bot.iterations == 200  # "iterations (default 200)"
    assert bot.reaction == 0.5 and bot.spread == 0.3  # real-time delay defaults
    assert bot.prior == 1
    timed = cardcore.load_agent("ismcts", seed=1, time=0.5)
    assert timed.iterations == 200  # "time alone keeps the default cap of 200 iterations"


def test_search_ismcts_is_deterministic_for_a_seed_and_iteration_budget():
    from cardcore.search import ISMCTSAgent

    def choices(seed):
        game = cardcore.new_game("golf", 2, seed=11, options={"rounds": 1})
        bot = ISMCTSAgent(seed=seed, iterations=8)
        picked = []
        for _ in range(12):
            if game.is_over:
                break
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            action = bot.choose(game.view(seat), legal) if seat == 0 else legal[0]
            picked.append(str(action))
            game.apply(action)
        return picked

    assert choices(5) == choices(5)


# --- docs/games/golf.rst -----------------------------------------------------------


def test_golf_short_forms_case_and_spaces_and_legal_order():
    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    assert str(game.act(0, "F 0")) == "flip 0"
    assert str(game.act(0, "  flip   3 ")) == "flip 3"
    game.act(1, "f 1")
    game.act(1, "f 4")
    assert [str(a) for a in game.legal_actions(0)] == ["draw", "take"]
    assert str(game.act(0, "D")) == "draw"
    held = [str(a) for a in game.legal_actions(0)]
    assert held == [f"replace {i}" for i in range(6)] + ["discard"]
    assert str(game.act(0, "x")) == "discard"
    assert str(game.act(1, "t")) == "take"
    # "then discard (not after take)"
    assert [str(a) for a in game.legal_actions(1)] == [f"replace {i}" for i in range(6)]
    assert str(game.act(1, "R 2")) == "replace 2"


def test_golf_knock_and_peek_short_forms_and_setup_counts():
    four = cardcore.new_game("golf", 2, seed=1, options={"layout": 4})
    seat = four.to_act[0]
    assert [str(a) for a in four.legal_actions(seat)] == [f"peek {i}" for i in range(4)]
    assert str(four.act(seat, "p 2")) == "peek 2"
    hand = cardcore.new_game("golf", 2, seed=1, options={"layout": "4h"})
    seat = hand.to_act[0]
    assert [str(a) for a in hand.legal_actions(seat)] == ["draw", "take", "knock"]
    assert str(hand.act(seat, "k")) == "knock"
    # GOLF9 turns 3 cards face up before the first turn
    nine = cardcore.new_game("golf", 2, seed=1, options={"layout": 9})
    seat, flips = nine.to_act[0], 0
    while seat in nine.to_act and str(nine.legal_actions(seat)[0]).startswith("flip"):
        nine.act(seat, str(nine.legal_actions(seat)[0]))
        flips += 1
    assert flips == 3


def test_golf_quoted_errors_match_the_cli_page():
    game = cardcore.new_game("golf", 2, seed=7)
    with pytest.raises(NotationError, match=r"not a golf action: 'bogus' \(expected draw, take, "):
        game.act(0, "bogus")
    with pytest.raises(
        IllegalActionError, match=r"^seat 0 has no position 99 in GOLF6: 'flip 99' \(GOLF-TURN-4\)$"
    ):
        game.act(0, "flip 99")


@pytest.mark.parametrize(
    ("option", "lowest", "highest"),
    [("rounds", 1, 100), ("points_limit", 1, 1000), ("max_turns", 1, 1000)],
)
def test_golf_option_bounds_from_the_table(option, lowest, highest):
    for ok in (lowest, highest):
        assert cardcore.new_game("golf", 2, seed=1, options={option: ok}).options[option] == ok
    for bad in (lowest - 1, highest + 1):
        with pytest.raises(OptionError, match=option):
            cardcore.new_game("golf", 2, seed=1, options={option: bad})


def test_golf_layout_aliases_are_stored_in_one_spelling_and_defaults():
    assert cardcore.new_game("golf", 2, seed=1, options={"layout": "6"}).options["layout"] == 6
    assert cardcore.new_game("golf", 2, seed=1, options={"layout": "4H"}).options["layout"] == "4h"
    defaults = cardcore.new_game("golf", 2, seed=1).options
    assert defaults["layout"] == 6 and defaults["rounds"] is None and defaults["dealer"] is None
    with pytest.raises(OptionError):
        cardcore.new_game("golf", 2, seed=1, options={"layout": 7})
    with pytest.raises(OptionError, match="GOLF-DEAL-3"):
        cardcore.new_game("golf", 2, seed=1, options={"dealer": 2})
    assert (
        cardcore.new_game("golf", 2, seed=1, options={"dealer": "random"}).options["dealer"]
        == "random"
    )


# --- docs/games/tonk.rst -----------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "bad"),
    [("stake", 0), ("stake", 1_000_001), ("hands", 0), ("hands", 100_001), ("max_players", 5)],
)
def test_tonk_option_bounds_from_the_table(option, bad):
    with pytest.raises(OptionError, match=option):
        cardcore.new_game("tonk", 2, seed=1, options={option: bad})


def test_tonk_four_seats_only_when_raised():
    with pytest.raises(CardcoreError):
        cardcore.new_game("tonk", 4, seed=1)
    assert len(cardcore.new_game("tonk", 4, seed=1, options={"max_players": 4}).players) == 4


def test_tonk_result_payouts_sum_to_zero_and_scores_are_payouts_in_stakes():
    game = cardcore.new_game("tonk", 3, options={"hands": 10, "stake": 5}, seed=7)
    result = cardcore.play(game, [RandomAgent(1), RandomAgent(2), RandomAgent(3)])
    assert sum(result.payouts) == 0
    assert all(math.isclose(s, p / 5) for s, p in zip(result.scores, result.payouts, strict=True))
    best = max(result.payouts)
    assert result.winners == tuple(i for i, p in enumerate(result.payouts) if p == best)
    assert result.reason in {"tonk-out", "out", "drop-won", "drop-caught", "stock-out", "natural"}


# --- docs/cli.rst and the tutorial's terminal paragraph ----------------------------


def test_cli_version_and_unknown_game_exit_status():
    done = _cli("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"cardcore {cardcore.__version__}"
    bad = _cli("list", "nosuchgame")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error:") and "installed:" in bad.stderr and "golf" in bad.stderr
    assert "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1


def test_cli_rules_ids_in_any_case_and_core_rules():
    done = _cli("rules", "golf", "golf-score-4")
    assert done.returncode == 0 and "golf.jokers" in done.stdout and "GOLF-SCORE-4" in done.stdout
    core = _cli("rules", "golf", "CORE-TURN-1")
    assert core.returncode == 0 and "CORE-TURN-1" in core.stdout


def test_cli_verify_bad_commitment_is_a_bad_argument():
    done = _cli("verify", "nothing.json", "--commitment", "abc")
    assert done.returncode == 2 and "64 hex digits" in done.stderr


def test_cli_simulate_json_to_stdout_table_to_stderr_and_dealer_five_seats_six():
    done = _cli("simulate", "golf", "-o", "dealer=5", "-n", "1", "-q", "--json", "-")
    assert done.returncode == 0
    summary = json.loads(done.stdout)
    assert summary["players"] == 6  # "-o dealer=5 in Golf seats 6"
    assert summary["seed"] == 0  # "simulate uses 0"
    assert summary["sd_scores"] == [None] * 6  # "an undefined standard deviation ... is null"
    assert summary["options"] == {"dealer": 5} and summary["without"] == []
    assert "mean score" in done.stderr


def test_cli_defaults_documented_in_from_python():
    from cardcore import cli

    assert cli.DEFAULT_GAMES == 200 and cli.DEFAULT_PLAYERS == 4
    assert "pip install 'cardcore[cli]'" in cli.RICH_MISSING


def test_cli_play_piped_moves_tutorial_deal_and_record_never_overwritten():
    with tempfile.TemporaryDirectory() as tmp:
        moves = "flip 0\nflip 3\ndraw\ndiscard\n"
        first = _cli("play", "golf", "--seed", "7", "-o", "rounds=1", stdin=moves, cwd=tmp)
        assert first.returncode == 0
        # the tutorial: "cardcore play golf --seed 7 -o rounds=1 deals this very round"
        assert "QS" in first.stdout and "AC" in first.stdout and "AS" in first.stdout
        assert "legal: #1 draw   #2 take" in first.stdout
        assert os.listdir(tmp) == ["cardcore-golf-7.json"]
        with open(os.path.join(tmp, "cardcore-golf-7.json"), encoding="utf-8") as fh:
            record = json.load(fh)
        assert [a[1] for a in record["actions"] if a[0] == 0][:4] == [
            "flip 0",
            "flip 3",
            "draw",
            "discard",
        ]
        second = _cli("play", "golf", "--seed", "7", "-o", "rounds=1", stdin="quit\n", cwd=tmp)
        assert second.returncode == 0
        assert sorted(os.listdir(tmp)) == ["cardcore-golf-7-2.json", "cardcore-golf-7.json"]
        with open(os.path.join(tmp, "cardcore-golf-7.json"), encoding="utf-8") as fh:
            assert json.load(fh) == record
        third = _cli("play", "golf", "--seed", "7", "--no-record", stdin="quit\n", cwd=tmp)
        assert third.returncode == 0 and len(os.listdir(tmp)) == 2


def test_cli_play_answers_bad_input_with_library_error_and_changes_nothing():
    with tempfile.TemporaryDirectory() as tmp:
        done = _cli(
            "play", "golf", "--seed", "7", "--no-record", stdin="bogus\nflip 99\nquit\n", cwd=tmp
        )
        assert done.returncode == 0
        out = done.stdout + done.stderr
        assert "not understood: not a golf action: 'bogus'" in out
        assert "illegal: seat 0 has no position 99 in GOLF6: 'flip 99' (GOLF-TURN-4)" in out
        assert os.listdir(tmp) == []


def test_cli_unknown_option_names_the_commands_help_with_status_2():
    done = _cli("simulate", "--bogus")
    assert done.returncode == 2
    assert "--bogus" in done.stderr and "cardcore simulate --help" in done.stderr


def test_cli_simulate_without_a_game_is_golf_with_four_seats():
    done = _cli("simulate", "-n", "2", "-q", "--json", "-")
    assert done.returncode == 0
    summary = json.loads(done.stdout)
    assert summary["game"] == "golf" and summary["players"] == 4 and summary["games"] == 2


def test_cli_play_seats_default_to_minimum_and_names_count_from_one():
    with tempfile.TemporaryDirectory() as tmp:
        done = _cli("play", "tonk", "--seed", "3", "--record", "t.json", stdin="quit\n", cwd=tmp)
        assert done.returncode == 0
        with open(os.path.join(tmp, "t.json"), encoding="utf-8") as fh:
            record = json.load(fh)
        assert record["players"] == ["Player 1", "random 2"]
        missing = _cli("replay", "nofile.json", cwd=tmp)
        assert missing.returncode == 2 and "nofile.json" in missing.stderr


def test_search_time_alone_by_name_and_one_legal_action_is_not_searched():
    from cardcore.search import ISMCTSAgent

    name, params = cardcore.parse_agent_spec("ismcts:time=0.5,iterations=none")
    agent = cardcore.load_agent(name, **params)
    assert agent.iterations is None and agent.time == 0.5
    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    bot = ISMCTSAgent(seed=1, iterations=50)
    legal = game.legal_actions(0)
    assert bot.choose(game.view(0), legal[:1]) is legal[0] and bot.last_iterations == 0
    bot.choose(game.view(0), legal)
    assert bot.last_iterations == 50
