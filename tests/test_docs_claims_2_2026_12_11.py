"""Claims of docs/house-rule-study.rst, docs/cli.rst, docs/agents.rst and
docs/search-agents.rst checked against the library and the ``cardcore`` command
(review of 2026-12-11).

A claim found false is an ``xfail(strict=True)`` test asserting what the page says;
a claim that holds is a plain test. Game counts are tiny throughout.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import CardcoreError, IllegalActionError, OptionError, Plan, cli
from cardcore.compare._stats import mean_ci, paired_share_diff, proportion_ci, share_ci
from cardcore.search import ISMCTSAgent

# --------------------------------------------------------------------------- helpers


def _run(*argv: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it: a fresh interpreter, stdin from *stdin*."""
    return subprocess.run(
        [sys.executable, "-m", "cardcore", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
    )


def _main(*argv: str) -> subprocess.CompletedProcess[str]:
    """``cli.main(argv)`` in this process (faster than :func:`_run`); an exception escaping
    it (what a user would see as a traceback) fails the test."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return subprocess.CompletedProcess(list(argv), code, out.getvalue(), err.getvalue())


def _one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The stderr of a failed command: exactly one ``error:`` line, no traceback."""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: "), lines[0]
    return lines[0]


def _main_without(module: str, argv: list[str]) -> subprocess.CompletedProcess[str]:
    """``cli.main(argv)`` in a fresh interpreter where *module* cannot be imported."""
    code = (
        f"import sys\nsys.modules[{module!r}] = None\n"
        f"from cardcore.cli import main\nsys.exit(main({argv!r}))\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


_REGISTERED: list[str] = []


@pytest.fixture(autouse=True)
def _unregister() -> Iterator[None]:
    yield
    while _REGISTERED:
        cardcore.unregister("cardcore.agents", _REGISTERED.pop())


def _register_agent(name: str, factory: Any) -> None:
    cardcore.register("cardcore.agents", name, factory)
    _REGISTERED.append(name)


def _record(tmp_path: Path) -> Path:
    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    path = tmp_path / "golf-7.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    return path


TINY = ("--games", "1", "-o", "rounds=1", "--skill", "none")


# --------------------------------------------------------------------------- house-rule-study.rst: intervals


def test_wilson_examples_of_the_page() -> None:
    # "100 wins in 100 games is 100.0% [96.3, 100.0], 99 in 100 is 99.0% [94.6, 99.8]"
    assert proportion_ci(100, 100).text(1, percent=True) == "100.0% [96.3, 100.0]"
    assert proportion_ci(99, 100).text(1, percent=True) == "99.0% [94.6, 99.8]"
    # win shares (means of 0/1 shares) take the same interval
    assert share_ci([1.0] * 99 + [0.0]).text(1, percent=True) == "99.0% [94.6, 99.8]"
    assert proportion_ci(3, 10).interval == "wilson"


def test_newcombe_examples_of_the_page_and_never_zero_wide() -> None:
    # "100% against 100% of 400 games is +0.0% [-1.0, 1.0], 50% against 50% of 10 games
    # +0.0% [-15.2, 15.2]"
    full = paired_share_diff([1.0] * 400, [1.0] * 400)
    assert full.text(1, signed=True, percent=True) == "+0.0% [-1.0, 1.0]"
    half = [1.0] * 5 + [0.0] * 5
    assert paired_share_diff(half, half).text(1, signed=True, percent=True) == "+0.0% [-15.2, 15.2]"
    assert full.interval == "newcombe"
    assert full.high > full.low


def test_normal_interval_of_one_game_is_unbounded_and_null_in_json() -> None:
    one = mean_ci([12.0])
    assert one.text() == "12.00 ± inf"
    assert one.to_json()["low"] is None and one.to_json()["high"] is None
    assert not one.significant
    same = mean_ci([9.0, 9.0, 9.0])
    assert (same.low, same.high) == (9.0, 9.0)


def test_first_seat_interval_is_the_wilson_interval_shifted_by_the_fair_share() -> None:
    # two players, the first seat wins all 2 games: +50% [34.2 - 50, 100 - 50]
    shifted = share_ci([1.0, 1.0], low=-0.5, high=0.5)
    plain = share_ci([1.0, 1.0])
    assert math.isclose(shifted.low, plain.low - 0.5)
    assert math.isclose(shifted.high, plain.high - 0.5)


# --------------------------------------------------------------------------- house-rule-study.rst: compare()


def test_doctest_jokers_example_of_the_page() -> None:
    result = cardcore.compare(
        "golf", rules=["golf.jokers"], games=3, seed=1, options={"rounds": 1}, skill=None
    )
    assert (result.a.rules, result.b.rules) == (("golf.jokers",), ())
    # decks differ: the seeds are shared but the deals are not, and deals says so
    assert result.same_deals is False
    assert "duplicate" not in result.deals or "not" in result.deals
    assert result.diff["actions"].n == 3


def test_rules_named_by_name_each_once_sorted_by_rule_id() -> None:
    # golf.jokers is GOLF-SCORE-4, golf.hard GOLF-SCORE-2: sorted by ID, hard first; a
    # rule given twice (by name and by ID) counts once
    result = cardcore.compare(
        "golf",
        rules=["golf.jokers", "GOLF-SCORE-2", "golf.hard"],
        vs=["GOLF-SCORE-2"],
        games=1,
        options={"rounds": 1},
        skill=None,
    )
    assert result.a.rules == ("golf.hard", "golf.jokers")
    assert result.b.rules == ("golf.hard",)


def test_without_given_by_rule_id_is_reported_by_name() -> None:
    result = cardcore.compare("tonk", without=["TONK-49-1"], games=1, skill=None)
    assert result.a.without == ("tonk.natural-49-50",)
    assert result.b.without == ()


def test_scoring_rule_makes_duplicate_deals_and_equal_lengths() -> None:
    # "a scoring or turn rule such as Golf's HARD scoring": duplicate deals; golf-greedy
    # plays the same whatever the scoring, so the length is unchanged to the action
    result = cardcore.compare(
        "golf", rules=["golf.hard"], games=3, seed=1, options={"rounds": 1}, skill=None
    )
    assert result.same_deals is True
    assert result.diff["actions"].mean == 0.0
    assert result.diff["actions"].low == result.diff["actions"].high == 0.0
    assert result.a.rounds.mean == 1.0 and result.a.rounds.low == result.a.rounds.high


def test_players_default_follows_a_mixed_lineup_and_agent_wins_rows() -> None:
    mixed = cardcore.compare(
        "golf",
        agents=["golf-greedy", "random", "random"],
        games=3,
        skill=None,
        options={"rounds": 1},
    )
    assert mixed.players == 3
    assert sorted(mixed.a.agent_wins) == ["golf-greedy", "random"]
    assert "agent:golf-greedy" in mixed.diff  # both sides mixed: paired B - A


def test_mixed_lineup_rotates_seats_game_by_game() -> None:
    seats: list[int] = []

    class Spy:
        def __init__(self, seed: int | None = 0) -> None:
            self.first = True

        def choose(self, view: Any, legal: Any) -> Any:
            if self.first:
                seats.append(legal[0].seat)
                self.first = False
            return legal[0]

    _register_agent("spy-1211-rot", Spy)
    cardcore.compare(
        "golf", agents=["spy-1211-rot", "random"], games=4, options={"rounds": 1}, skill=None
    )
    # 4 games in A and 4 in B: the spy sits in seat 0 and seat 1 equally often
    assert Counter(seats) == Counter({0: 4, 1: 4})


def test_agent_seeds_come_from_the_game_seed_and_seat_same_in_both_configurations() -> None:
    seeds: list[int | None] = []

    def spy(seed: int | None = 0) -> Any:
        seeds.append(seed)
        return cardcore.RandomAgent(seed)

    _register_agent("spy-1211-seed", spy)
    cardcore.compare(
        "golf",
        rules=["golf.hard"],
        agents="spy-1211-seed",
        games=2,
        options={"rounds": 1},
        skill=None,
    )
    # 2 games x 2 seats, each seed once in A and once in B (the agents built first, with
    # the default seed, only check the spec)
    played = seeds[-8:]
    assert set(Counter(played).values()) == {2}
    assert len(set(played)) == 4

    seeds.clear()
    cardcore.compare(
        "golf", agents="spy-1211-seed:seed=7", games=2, options={"rounds": 1}, skill=None
    )
    assert set(seeds[-8:]) == {7}  # a seed in the spec fixes it in every game


def test_go_fish_example_counts_at_least_one_round() -> None:
    result = cardcore.compare("gofish", games=2, skill=None)
    assert result.a.rounds.mean >= 1.0


def test_compare_refuses_as_simulate_does_in_the_same_words() -> None:
    for bad in ({"games": 0}, {"players": 1.5}, {"seed": -1}, {"chunk": 0}, {"progress": 1}):
        with pytest.raises(OptionError) as sim:
            cardcore.simulate("golf", **{"games": 1, "players": 2, **bad})
        with pytest.raises(OptionError) as cmp:
            cardcore.compare("golf", skill=None, **{"games": 1, "players": 2, **bad})
        assert str(sim.value) == str(cmp.value)


# --------------------------------------------------------------------------- house-rule-study.rst: CLI


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("compare", "nogame", "--games", "1"), "installed: "),
        (("compare", "golf", "--rules", "golf.nope", "--games", "1"), "golf.nope"),
        (("compare", "golf", "--agents", "nobody", "--games", "1"), "nobody"),
        (("compare", "golf", "--rules", "golf.diagonal-pairs", "--games", "1"), "layout"),
        (("compare", "golf", "--rules", "golf.jokers,golf.bonus-twos", "--games", "1"), "combined"),
        (("compare", "golf", "--vs", "golf.jokers,golf.bonus-twos", "--games", "1"), "B"),
        (("compare", "golf", "--games", "0"), "at least 1"),
        (("compare", "golf", "--games", "-3"), "at least 1"),
        (("compare", "golf", "--games", ""), "whole number"),
        (("compare", "golf", "--games", "99999999999999999999999"), "10,000,000"),
        (("compare", "golf", "--agents", "ismcts:bogus=1", "--games", "1"), "bogus"),
        (("compare", "golf", "--agents", "ismcts:iterations=0", "--games", "1"), "1 to 2000"),
        (("compare", "golf", "--agents", "ismcts:iterations=nan", "--games", "1"), "nan"),
        (("compare", "golf", "--skill", "", "--games", "1"), "--skill"),
        (("compare", "golf", "--skill", "a,b,c", "--games", "1"), "--skill"),
        (("compare", "golf", "--skill", "tonk-heuristic", "--games", "1"), "tonk"),
        (("compare", "golf", "--move-time", "0", "--games", "1"), "move"),
        (("compare", "golf", "--move-time", "nan", "--games", "1"), "move"),
        (("compare", "golf", "--move-time", "inf", "--games", "1"), "move"),
        (("compare", "golf", "--plot", "x.txt", "--games", "1"), "png"),
        (("compare", "tonk", "--rules", "tonk.natural-49-50", "--without", "TONK-49-1"), "both"),
        (("compare", "golf", "--without", "golf.jokers"), "not a default rule"),
        (("compare", "golf", "-o", "nosuch=1"), "nosuch"),
        (("compare", "golf", "-o", "rounds=1", "--vs-option", "rounds=0"), "B"),
    ],
)
def test_compare_bad_input_is_one_line_exit_2_before_any_game(
    argv: tuple[str, ...], words: str
) -> None:
    proc = _main(*argv)
    assert proc.returncode == 2, proc.stderr
    assert words in _one_error_line(proc)
    assert proc.stdout == ""  # nothing played, no table


def test_compare_bad_input_in_a_real_process_has_no_traceback() -> None:
    proc = _run("compare", "golf", "--rules", "golf.jokers", "--vs", "golf.nope", "--games", "1")
    assert proc.returncode == 2
    assert "configuration B" in _one_error_line(proc)


def test_compare_without_matplotlib_plot_stops_before_any_game_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "j.json"
    proc = _main_without(
        "matplotlib",
        ["compare", "golf", *TINY, "--plot", str(tmp_path / "x.png"), "--json", str(out)],
    )
    assert proc.returncode == 2
    assert "matplotlib" in _one_error_line(proc)
    assert not out.exists()


def test_compare_json_to_stdout_is_strict_json_and_names_rules_by_name() -> None:
    proc = _main("compare", "golf", "--rules", "GOLF-SCORE-2", *TINY, "--json", "-")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)  # the table went to stderr
    assert data["a"]["rules"] == ["golf.hard"]
    assert data["same_deals"] is True
    assert data["a"]["actions"]["interval"] == "normal"
    # one game: the normal intervals are unbounded, null in the JSON
    assert data["a"]["actions"]["low"] is None
    assert "A: golf.hard" in proc.stderr


def test_compare_failing_agent_is_one_line_exit_1_naming_everything(
    capsys: pytest.CaptureFixture[str],
) -> None:
    class Liar:
        def __init__(self, seed: int | None = 0) -> None:
            pass

        def choose(self, view: Any, legal: Any) -> Any:
            return "nonsense"

    class Boom:
        def __init__(self, seed: int | None = 0) -> None:
            pass

        def choose(self, view: Any, legal: Any) -> Any:
            raise RuntimeError("kaput")

    _register_agent("liar-1211", Liar)
    _register_agent("boom-1211", Boom)
    assert cli.main(["compare", "golf", "--vs-agents", "liar-1211", *TINY]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert all(w in err[0] for w in ("configuration B", "game 0", "seed", "seat 0", "liar-1211"))
    assert cli.main(["compare", "golf", "--agents", "boom-1211", *TINY]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert all(w in err[0] for w in ("configuration A", "boom-1211", "RuntimeError", "kaput"))
    assert (
        cli.main(
            [
                "compare",
                "golf",
                "--games",
                "1",
                "-o",
                "rounds=1",
                "--skill",
                "golf-greedy,liar-1211",
            ]
        )
        == 1
    )
    assert "probe" in capsys.readouterr().err


def test_compare_move_time_overruns_reported_under_the_table_and_run_goes_on() -> None:
    proc = _main("compare", "golf", "--games", "1", "-o", "rounds=1", "--move-time", "1e-9")
    assert proc.returncode == 0, proc.stderr
    assert "decisions over 1e-09 s by golf-greedy" in proc.stdout
    assert "skill probes" in proc.stdout


def test_compare_default_players_is_two_and_skill_none_drops_the_probe() -> None:
    proc = _main("compare", "tonk", "--games", "1", "--skill", "none", "--json", "-")
    data = json.loads(proc.stdout)
    assert data["players"] == 2
    assert data["skill_agents"] is None
    assert data["a"]["agents"] == ["tonk-heuristic", "tonk-heuristic"]


# --------------------------------------------------------------------------- cli.rst: general


def test_no_arguments_lists_and_version_prints_it() -> None:
    proc = _run()
    assert proc.returncode == 0
    assert "golf" in proc.stdout and "random" in proc.stdout
    version = _run("--version")
    assert version.returncode == 0
    assert version.stdout.startswith("cardcore ")


def test_unknown_option_names_that_commands_help() -> None:
    proc = _main("simulate", "golf", "--bogus")
    assert proc.returncode == 2
    assert "cardcore simulate --help" in _one_error_line(proc)


@pytest.mark.parametrize("name", ["gölf", "", "golf\u200b", "GOLF"])
def test_unknown_game_lists_the_installed_ones(name: str) -> None:
    proc = _main("simulate", name, "-q", "--games", "1")
    assert proc.returncode == 2
    line = _one_error_line(proc)
    assert "(installed: " in line and "golf" in line.split("installed: ")[1]


def test_interrupt_is_exit_130_without_traceback() -> None:
    import signal
    import time

    # ``python -m cardcore``, run once the imports are done: a Ctrl-C while Python starts up
    # (after a fixed second, on a loaded machine) came before the command ran at all
    start = (
        "import runpy, sys, cardcore.cli, cardcore.cli.args, rich.console;"
        " print('started', flush=True);"
        " sys.argv[0] = 'cardcore'; runpy.run_module('cardcore', run_name='__main__')"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", start, "simulate", "golf", "--games", "100000", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "started\n"
    time.sleep(1.0)  # the simulation runs
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.strip() == "interrupted"


def test_without_rich_the_command_says_how_to_install_it_exit_1() -> None:
    proc = _main_without("rich", ["simulate", "golf", "--games", "1"])
    assert proc.returncode == 1
    assert _one_error_line(proc) == f"error: {cli.RICH_MISSING}"
    assert "pip install 'cardcore[cli]'" in cli.RICH_MISSING


def test_verify_needs_no_rich(tmp_path: Path) -> None:
    path = _record(tmp_path)
    proc = _main_without("rich", ["verify", str(path)])
    assert proc.returncode == 0, proc.stderr
    assert "replays: golf" in proc.stdout


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_huge_workers_is_a_bad_argument(command: str) -> None:
    proc = _main(
        command,
        "golf",
        "--games",
        "1",
        "-q" if command == "simulate" else "--skill=none",
        "--workers",
        "99999999999",
    )
    assert proc.returncode == 2
    line = _one_error_line(proc)
    assert "unexpected" not in line and "workers" in line


def test_seed_bounds_and_huge_players_are_refused_in_one_line() -> None:
    for argv in (
        ("simulate", "golf", "--seed", "-1", "-q"),
        ("simulate", "golf", "--players", "99999999999999999999", "-q"),
        ("compare", "golf", "--seed", str(2**128), "--games", "1"),
    ):
        proc = _main(*argv)
        assert proc.returncode == 2
        _one_error_line(proc)


# --------------------------------------------------------------------------- cli.rst: rules


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("GOLF-SCORE-6", "GOLF-SCORE-6"),
        ("GOLF-SCORE", "GOLF-SCORE-2"),
        ("golf.jokers", "GOLF-SCORE-4"),
        ("GOLF-SCORE-4", "golf.jokers"),
        ("CORE-TURN-1", "CORE-TURN-1"),
        ("CORE-TURN", "CORE-TURN-1"),
    ],
)
def test_rules_shows_a_rule_a_prefix_a_house_rule_or_a_core_rule(key: str, shown: str) -> None:
    proc = _main("rules", "golf", key)
    assert proc.returncode == 0, proc.stderr
    assert shown in proc.stdout


@pytest.mark.parametrize("key", ["GOLF-SCORE-", "CORE-"])
def test_rules_prefix_with_trailing_hyphen(key: str) -> None:
    proc = _main("rules", "golf", key)
    assert proc.returncode == 0, proc.stderr
    assert key + "1" in proc.stdout


def test_rules_unknown_rule_is_one_line_exit_2() -> None:
    for key in ("NOPE-1", ""):
        proc = _main("rules", "golf", key)
        assert proc.returncode == 2
        assert "no rule" in _one_error_line(proc)


# --------------------------------------------------------------------------- cli.rst: play


def test_play_answers_bad_input_with_the_librarys_error_and_nothing_changes() -> None:
    proc = _run(
        "play",
        "golf",
        "--seed",
        "7",
        "-o",
        "rounds=1",
        "--no-record",
        stdin="bogus\nflip 99\n#99\nquit\n",
    )
    assert proc.returncode == 0, proc.stderr
    assert "not understood: not a golf action: 'bogus'" in proc.stdout
    assert "illegal: seat 0 has no position 99 in GOLF6: 'flip 99' (GOLF-TURN-4)" in proc.stdout
    assert "not understood: no action '#99'" in proc.stdout
    assert "legal: #1 flip 0" in proc.stdout


def test_play_never_overwrites_an_existing_record(tmp_path: Path) -> None:
    (tmp_path / "cardcore-golf-7.json").write_text("{}", encoding="utf-8")
    proc = _run(
        "play", "golf", "--seed", "7", "-o", "rounds=1", stdin="flip 0\nquit\n", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "cardcore-golf-7.json").read_text(encoding="utf-8") == "{}"
    saved = tmp_path / "cardcore-golf-7-2.json"
    assert saved.exists()
    assert "cardcore-golf-7-2.json" in proc.stdout
    assert _main("replay", str(saved), "--final").returncode == 0


@pytest.mark.parametrize(
    "argv",
    [
        ("play", "golf", "--seat", "5"),
        ("play", "golf", "--seat", "-1"),
        ("play", "golf", "--name", "random 2"),
        ("play", "golf", "--bot-speed", "-1"),
        ("play", "speed", "--bot-speed", "inf"),
        ("play", "golf", "--agent", "tonk-heuristic"),
    ],
)
def test_play_bad_arguments_are_exit_2(argv: tuple[str, ...]) -> None:
    proc = _main(*argv, "--no-record")  # refused before any input is read
    assert proc.returncode == 2
    _one_error_line(proc)


# --------------------------------------------------------------------------- cli.rst: simulate, replay, verify


def test_simulate_json_dash_goes_to_stdout_table_to_stderr_null_sd() -> None:
    proc = _main("simulate", "golf", "--games", "1", "--json", "-")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["sd_scores"] == [None] * 4
    assert data["seed"] == 0 and data["players"] == 4  # defaults: seed 0, four seats
    assert "sd score" in proc.stderr


def test_simulate_single_game_sd_shown_as_dash_and_players_capped_by_game() -> None:
    proc = _main("simulate", "spit", "--games", "1", "--agents", "spit-greedy")
    assert proc.returncode == 0, proc.stderr
    assert "2 players" in proc.stdout and "–" in proc.stdout
    proc = _main("simulate", "golf", "--games", "1", "--agents", "random,golf-greedy,random")
    assert "3 players" in proc.stdout


def test_simulate_piped_has_no_progress_bar() -> None:
    for quiet in ((), ("-q",)):
        proc = (_run if quiet else _main)("simulate", "golf", "--games", "3", *quiet)
        assert proc.returncode == 0
        assert "━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━" not in proc.stderr
        assert proc.stderr == ""


def test_replay_and_verify_bad_files_exit_2(tmp_path: Path) -> None:
    path = _record(tmp_path)
    for argv in (
        ("replay", str(path), "--at", "-1"),
        ("replay", str(path), "--at", "99999999999999999999"),
        ("replay", str(path), "--seat", "9"),
        ("replay", str(tmp_path)),
        ("verify", str(tmp_path)),
        ("verify", str(path), "--commitment", "abc"),
        ("verify", str(path), "--commitment", "g" * 64),
    ):
        proc = _main(*argv)
        assert proc.returncode == 2, argv
        _one_error_line(proc)
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe")
    proc = _main("replay", str(bad))
    assert proc.returncode == 2
    assert "UTF-8" in _one_error_line(proc)


# --------------------------------------------------------------------------- agents.rst


def test_play_stops_an_illegal_answer_and_another_seats_resign() -> None:
    class Bad:
        def choose(self, view: Any, legal: Any) -> Any:
            return "draw"

    class Other:
        def choose(self, view: Any, legal: Any) -> Any:
            return cardcore.Resign(seat=1 - legal[0].seat)

    with pytest.raises(IllegalActionError, match=r"seat 0 \(Bad\)"):
        cardcore.play(cardcore.new_game("golf", 2, seed=1), [Bad(), Bad()])
    with pytest.raises(IllegalActionError, match=r"seat 0 \(Other\)"):
        cardcore.play(cardcore.new_game("golf", 2, seed=1), [Other(), Other()])


def test_agent_exception_reaches_caller_as_is_with_game_unchanged() -> None:
    class Boom:
        def choose(self, view: Any, legal: Any) -> Any:
            raise KeyError("mine")

    game = cardcore.new_game("golf", 2, seed=1)
    before = game.record()
    with pytest.raises(KeyError, match="mine"):
        cardcore.play(game, [Boom(), Boom()])
    assert game.record() == before


def test_play_refuses_a_real_time_game() -> None:
    with pytest.raises(OptionError, match="run_realtime"):
        cardcore.play(cardcore.new_game("spit", 2, seed=1), [cardcore.RandomAgent(1)] * 2)


class _Planner:
    def __init__(self, make: Any) -> None:
        self.make = make

    def plan(self, view: Any, legal: Any, now: float) -> Any:
        return self.make(legal) if legal else None


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda legal: legal[0], "a plan is a Plan"),
        (lambda legal: Plan(legal[0], math.nan), "finite delay"),
        (lambda legal: Plan(legal[0], math.inf), "finite delay"),
        (lambda legal: Plan(legal[0], "1"), "finite delay"),
        (lambda legal: Plan(legal[0], 2e15), "1e+15"),
    ],
)
def test_bad_plans_stop_the_game_naming_seat_and_class(make: Any, words: str) -> None:
    game = cardcore.new_game("speed", 2, seed=3)
    with pytest.raises(CardcoreError, match=r"seat 0 \(_Planner\)") as info:
        cardcore.run_realtime(game, [_Planner(make), _Planner(make)], seed=1)
    assert words in str(info.value)


def test_negative_delay_counts_as_zero_and_nobody_planning_stalls() -> None:
    game = cardcore.new_game("speed", 2, seed=3)
    neg = _Planner(lambda legal: Plan(legal[0], -5.0))
    cardcore.run_realtime(game, [neg, neg], seed=1)
    assert game.is_over
    assert all(at == 0.0 for _, _, at in game.record()["actions"])
    stalled = cardcore.new_game("speed", 2, seed=3)
    with pytest.raises(cardcore.StalledGameError, match="no agent plans"):
        cardcore.run_realtime(stalled, [_Planner(lambda legal: None)] * 2, seed=1)


def test_equal_due_times_are_broken_by_a_seeded_draw_not_seat_order() -> None:
    firsts = set()
    for s in range(6):
        game = cardcore.new_game("speed", 2, seed=3)
        quick = _Planner(lambda legal: Plan(legal[0], 0.4))
        cardcore.run_realtime(game, [quick, quick], seed=s)
        firsts.add(game.record()["actions"][0][0])
    assert firsts == {0, 1}


@pytest.mark.parametrize("value", [True, math.nan, "5", 0, 10001, math.inf, 2**70])
def test_bounded_parameter_refused_by_name(value: Any) -> None:
    with pytest.raises(OptionError, match=r"samples must be a .*number from 1 to 10000"):
        cardcore.load_agent("tonk-heuristic", samples=value)


def test_bounds_are_inclusive_and_built_in_game_agents_check_them_directly() -> None:
    cardcore.load_agent("tonk-heuristic", samples=10000)
    cardcore.load_agent("tonk-heuristic", samples=1)
    with pytest.raises(OptionError, match="samples"):
        cardcore.load_agent("tonk-heuristic")(samples=10**9)
    for name in ("random", "golf-greedy", "tonk-heuristic", "spit-greedy", "ismcts"):
        with pytest.raises(OptionError, match="seed"):
            cardcore.load_agent(name, seed=-1)


def test_agent_names_aliases_and_declared_games() -> None:
    import cardcore_golf.agents as golf_agents
    import cardcore_spit.agents as spit_agents
    import cardcore_tonk.agents as tonk_agents

    assert golf_agents.GreedyGolfAgent is golf_agents.GolfGreedyAgent
    assert tonk_agents.HeuristicAgent is tonk_agents.TonkHeuristicAgent
    assert spit_agents.GreedyBot is spit_agents.SpitGreedyAgent
    assert spit_agents.HumanBot is spit_agents.SpitHumanAgent
    with pytest.raises(OptionError, match="agent 'golf-greedy' plays golf, not 'tonk'"):
        cardcore.simulate("tonk", games=1, players=2, agents=["golf-greedy", "random"])


def test_list_game_shows_only_agents_that_play_it() -> None:
    proc = _main("list", "golf")
    assert proc.returncode == 0
    assert "golf-greedy" in proc.stdout
    assert "tonk-heuristic" not in proc.stdout and "spit-greedy" not in proc.stdout


# --------------------------------------------------------------------------- search-agents.rst


def test_ismcts_is_deterministic_for_a_seed_and_iteration_budget() -> None:
    records = []
    for _ in range(2):
        game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
        cardcore.play(game, [ISMCTSAgent(seed=7, iterations=8), cardcore.RandomAgent(1)])
        records.append(game.record()["actions"])
    assert records[0] == records[1]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("ismcts:time=0", "more than 0"),
        ("ismcts:time=2.01", "time"),
        ("ismcts:reaction=-1", "reaction"),
        ("ismcts:depth=0", "depth"),
        ("ismcts:rollout=bogus", "rollout"),
        ("ismcts:observe=maybe", "observe"),
        ("ismcts:iterations=5,iterations=7", "twice"),
        ("ismcts:iterations=2001", "1 to 2000"),
    ],
)
def test_ismcts_spec_bounds(spec: str, words: str) -> None:
    with pytest.raises(OptionError, match=words):
        cardcore.load_agent(spec)


def test_ismcts_spec_forms_of_the_page() -> None:
    timed = cardcore.load_agent("ismcts:time=0.5,iterations=none")
    assert timed.iterations is None and timed.time == 0.5
    assert cardcore.load_agent("ismcts:time=2").time == 2.0
    assert repr(cardcore.load_agent("ismcts:iterations=50,seed=7")) == (
        "ISMCTSAgent(seed=7, iterations=50, c=0.7, rollout='game')"
    )
    with pytest.raises(OptionError, match="did you mean 'iterations'"):
        cardcore.load_agent("ismcts", iters=3)
    assert cardcore.split_agent_specs("ismcts:iterations=200,seed=7,random") == [
        "ismcts:iterations=200,seed=7",
        "random",
    ]
    # built directly, the search takes any budget
    assert ISMCTSAgent(iterations=5000).iterations == 5000


def test_ismcts_real_time_without_legal_action_plans_nothing() -> None:
    game = cardcore.new_game("speed", 2, seed=3)
    assert ISMCTSAgent(seed=1, iterations=2).plan(game.view(0), (), 0.0) is None


def test_agent_parameters_lists_defaults_from_the_signature() -> None:
    params = cardcore.agent_parameters("ismcts")
    assert params["iterations"] == 200 and params["c"] == 0.7 and params["time"] is None
    assert cardcore.agent_parameters("spit-greedy") == {"seed": 0, "mean": 0.3, "sigma": 0.35}


# --------------------------------------------------------------------------- found later: --skill, line-ups, seats


@pytest.mark.parametrize("text", [",random", "golf-greedy,"])
def test_skill_with_an_empty_agent_name_is_refused(text: str) -> None:
    proc = _main("compare", "golf", "--games", "1", "-o", "rounds=1", "--skill", text)
    assert proc.returncode == 2
    assert "empty" in _one_error_line(proc) or "--skill" in _one_error_line(proc)


def test_agents_with_an_empty_agent_name_is_refused_on_the_command_line() -> None:
    for flag in ("--agents", "--vs-agents"):
        proc = _main("compare", "golf", "--games", "1", flag, "golf-greedy,,random")
        assert proc.returncode == 2
        assert "empty agent name" in _one_error_line(proc)


def test_api_text_lineup_with_an_empty_piece_is_refused() -> None:
    with pytest.raises(OptionError):
        cardcore.compare(
            "golf", agents="golf-greedy,,random", games=1, options={"rounds": 1}, skill=None
        )


def test_compare_default_players_is_the_nearest_count_a_seats() -> None:
    result = cardcore.compare("golf", options={"dealer": 3, "rounds": 1}, games=1, skill=None)
    assert result.players == 4


def test_compare_json_has_per_agent_timings_and_is_reproducible_without_them() -> None:
    def strip(data: dict[str, Any]) -> dict[str, Any]:
        for side in ("a", "b"):
            assert len(data[side]["slowest"]) == len(data[side]["decisions_per_s"])
            del data[side]["slowest"], data[side]["decisions_per_s"]
        return data

    kwargs: dict[str, Any] = {
        "agents": ["golf-greedy", "random"],
        "games": 3,
        "options": {"rounds": 1},
        "seed": 5,
    }
    one = cardcore.compare("golf", **kwargs).to_json()
    two = cardcore.compare("golf", chunk=1, **kwargs).to_json()
    json.dumps(one, allow_nan=False)  # strict JSON
    assert strip(one) == strip(two)


def test_compare_writes_table_json_and_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png, out = tmp_path / "p.png", tmp_path / "p.json"
    proc = _main("compare", "golf", *TINY, "--plot", str(png), "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads(out.read_text(encoding="utf-8"))["games"] == 1
    assert proc.stdout.index("result written") < proc.stdout.index("plot written")


def test_compare_counts_stalled_real_time_games() -> None:
    class Waiter:
        def __init__(self, seed: int | None = 0) -> None:
            pass

        def plan(self, view: Any, legal: Any, now: float) -> Any:
            return None

    _register_agent("waiter-1211", Waiter)
    result = cardcore.compare("spit", agents="waiter-1211", games=2, skill=None)
    assert dict(result.a.reasons).keys() == {"stalled"}
    assert "reason:stalled" in result.diff


def test_spit_agents_lognormal_median_is_mean_times_exp_minus_half_sigma_squared() -> None:
    import statistics

    from cardcore_spit.agents import SpitGreedyAgent

    game = cardcore.new_game("speed", 2, seed=3)
    view, legal = game.view(0), game.legal_actions(0)
    delays = [
        SpitGreedyAgent(seed=seed).plan(view, legal, 0.0).delay  # type: ignore[union-attr]
        for seed in range(400)
    ]
    median = statistics.median(delays)
    assert abs(median - 0.3 * math.exp(-(0.35**2) / 2)) < 0.02


def test_ismcts_real_time_reaction_median_and_spread_zero() -> None:
    import statistics

    game = cardcore.new_game("speed", 2, seed=3)
    view, legal = game.view(0), game.legal_actions(0)
    bot = ISMCTSAgent(seed=1, iterations=1, max_rollout=5)
    delays = [bot.plan(view, legal, 0.0).delay for _ in range(60)]  # type: ignore[union-attr]
    assert 0.4 < statistics.median(delays) < 0.62
    fixed = ISMCTSAgent(seed=1, iterations=1, max_rollout=5, spread=0)
    assert {fixed.plan(view, legal, 0.0).delay for _ in range(3)} == {0.5}  # type: ignore[union-attr]


def test_speed_twin_position_starts_a_world() -> None:
    game = cardcore.new_game("speed", 2, seed=0)
    agents = [cardcore.RandomAgent(0), cardcore.RandomAgent(1)]
    for _ in range(5):
        seat = next(s for s in game.to_act if game.legal_actions(s))
        game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat)))
    twin = game.determinize(0, seed=5)
    assert twin.view(0) == game.view(0)
    world = cardcore.new_game("speed", 2, position=twin.position(), seed=12345)
    assert world.view(0)["legal"] == game.view(0)["legal"]


@pytest.mark.parametrize(("name", "players"), [("golf", 3), ("tonk", 2), ("gofish", 3)])
def test_twins_keep_the_seats_view_and_travel_as_positions(name: str, players: int) -> None:
    game = cardcore.new_game(name, players, seed=1)
    agents = [cardcore.RandomAgent(s) for s in range(players)]
    for step in range(12):
        if game.is_over:
            break
        for seat in range(players):
            twin = game.determinize(seat, seed=step)
            assert twin.view(seat) == game.view(seat)
            world = cardcore.new_game(name, players, position=twin.position(), seed=99)
            assert world.view(seat)["legal"] == game.view(seat)["legal"]
        seat = next(s for s in game.to_act if game.legal_actions(s))
        game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat)))
    twin = game.determinize(0, seed=1)
    with pytest.raises(CardcoreError, match="determinized"):
        twin.record()


def test_ismcts_takes_a_single_legal_action_at_once() -> None:
    speed = cardcore.new_game("speed", 2, seed=3)
    legal = speed.legal_actions(0)
    assert len(legal) == 1
    bot = ISMCTSAgent(seed=1, iterations=2000)
    bot.last_iterations = -1
    plan = bot.plan(speed.view(0), legal, 0.0)
    assert plan is not None and plan.action == legal[0]
    assert bot.last_iterations == 0  # no search (not a wall clock: a loaded machine is slow)
    golf = cardcore.new_game("golf", 2, seed=3)
    first = golf.legal_actions(0)[:1]
    bot.last_iterations = -1
    assert bot.choose(golf.view(0), first) == first[0]
    assert bot.last_iterations == 0


def test_ismcts_time_alone_keeps_the_200_cap_and_one_iteration_always_runs() -> None:
    assert cardcore.load_agent("ismcts", time=0.5).iterations == 200
    bot = cardcore.load_agent("ismcts:time=1e-9,iterations=none,seed=3")
    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    assert cardcore.play(game, [bot, cardcore.RandomAgent(1)]).reason == "rounds"


def test_simulate_json_repeats_the_run(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    argv = ["simulate", "golf", "-n", "3", "--rules", "GOLF-SCORE-2", "-o", "layout=4"]
    argv += ["-o", "rounds=1", "--agents", "random,golf-greedy", "--json", str(out), "-q"]
    assert _main(*argv).returncode == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["rules"] == ["golf.hard"] and data["options"]["layout"] == 4  # "4" read as its value
    again = cardcore.simulate(
        data["game"],
        games=data["games"],
        players=data["players"],
        agents=data["agents"],
        seed=data["seed"],
        rules=data["rules"],
        without=data["without"],
        options=data["options"],
    ).to_json()
    assert all(again[k] == data[k] for k in again)


def test_study_row_golf_hard_one_hole_reproduces() -> None:
    # "golf --rules golf.hard ... --option rounds=1 --games 400 --seed 1": first seat A / B
    # +5.5% [0.6, 10.3] / +7.9% [3.0, 12.6], B - A +2.4% [-2.3, 7.1], actions +0.0 ± 0.0,
    # spread -3.4 ± 0.7, skill 96.2% [93.9, 97.7] / 97.9% [95.9, 98.9], B - A +1.6% [-0.3, 3.8]
    r = cardcore.compare("golf", rules=["golf.hard"], options={"rounds": 1}, games=400, seed=1)
    assert r.a.first_seat is not None and r.b.first_seat is not None
    assert r.a.first_seat.text(1, signed=True, percent=True) == "+5.5% [0.6, 10.3]"
    assert r.b.first_seat.text(1, signed=True, percent=True) == "+7.9% [3.0, 12.6]"
    assert r.diff["first_seat"].text(1, signed=True, percent=True) == "+2.4% [-2.3, 7.1]"
    assert r.diff["actions"].text(1, signed=True) == "+0.0 ± 0.0"
    assert r.diff["spread"].text(1, signed=True) == "-3.4 ± 0.7"
    assert r.a.skill is not None and r.b.skill is not None
    assert r.a.skill.text(1, percent=True) == "96.2% [93.9, 97.7]"
    assert r.b.skill.text(1, percent=True) == "97.9% [95.9, 98.9]"
    assert r.diff["skill"].text(1, signed=True, percent=True) == "+1.6% [-0.3, 3.8]"


def _in_a_terminal(*argv: str) -> tuple[int, str]:
    """Run the command with a pseudo-terminal as stdin, stdout and stderr."""
    import os
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcore", *argv],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        close_fds=True,
    )
    os.close(follower)
    out = b""
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
    os.close(leader)
    return proc.wait(timeout=60), out.decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_in_a_terminal_and_quiet_removes_it() -> None:
    code, out = _in_a_terminal("simulate", "golf", "-n", "20", "-o", "rounds=1")
    assert code == 0
    assert "0/20" in out or "20/20" in out  # the bar counts the games
    code, out = _in_a_terminal("simulate", "golf", "-n", "20", "-o", "rounds=1", "-q")
    assert code == 0
    assert "/20" not in out and "20 games" in out


def test_agents_get_a_lazy_view_and_legal_in_the_views_order() -> None:
    seen: list[bool] = []

    class Spy:
        def __init__(self, seed: int) -> None:
            self.random = cardcore.RandomAgent(seed)

        def choose(self, view: Any, legal: Any) -> Any:
            seen.append(
                isinstance(view, cardcore.LazyView)
                and isinstance(legal, tuple)
                and [str(a) for a in legal] == list(view["legal"])
            )
            return self.random.choose(view, legal)

    game = cardcore.new_game("tonk", 3, seed=2)
    cardcore.play(game, [Spy(s) for s in range(3)])
    assert seen and all(seen)


def test_rules_listing_of_spit_shows_only_its_part() -> None:
    proc = _main("rules", "spit")
    assert proc.returncode == 0
    assert "SPIT-MOVE-2" in proc.stdout and "SPEED-STUCK-1" not in proc.stdout


@pytest.mark.parametrize("key", ["SPEED-STUCK-1", "SPEED"])
def test_rules_of_spit_do_not_include_speeds(key: str) -> None:
    proc = _main("rules", "spit", key)
    assert proc.returncode == 2
    assert "no rule" in _one_error_line(proc)


@pytest.mark.parametrize(
    "command", ["list", "rules", "play", "simulate", "sim", "replay", "verify", "compare", "serve"]
)
def test_every_command_has_help_exit_0(command: str) -> None:
    proc = _main(command, "--help")
    assert proc.returncode == 0
    assert "usage:" in proc.stdout.lower()
    assert proc.stderr == ""
