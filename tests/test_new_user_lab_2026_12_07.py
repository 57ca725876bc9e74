"""A new user's house-rule lab and search bots, from the docs alone (2026-12-07).

Followed as written: README.md, docs/cli.rst, docs/house-rule-study.rst, docs/agents.rst,
docs/search-agents.rst, docs/plugin-guide/house-rule.rst, ``cardcore --help`` and each
subcommand's ``--help``. What works is pinned by plain tests; what differs from the docs,
or confuses a newcomer, is a strict xfail whose reason says what and where.
"""

from __future__ import annotations

import json
import math
import os
import pty
import re
import select
import subprocess
import sys
import types
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import RuleInfo, cli, hookimpl

ROOT = Path(__file__).resolve().parent.parent
Z = 1.959963984540054  # the 95% normal quantile


def _run(
    *args: str, cwd: Path | None = None, stdin: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``python -m cardcore ARGS`` as a user would run it, output to pipes."""
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "cardcore", *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )


def _run_json(*args: str) -> dict[str, Any]:
    """Run a study with ``--json -`` and return the JSON from standard output."""
    proc = _run(*args, "--json", "-", "-q")
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def _run_pty(*args: str) -> str:
    """Run ``python -m cardcore ARGS`` on a terminal (a pty) and return all it drew."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "120"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcore", *args],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 30)
            if not ready:
                break
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
        proc.wait(timeout=30)
    assert proc.returncode == 0
    return b"".join(chunks).decode(errors="replace")


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``cardcore.cli.main`` in this process (as docs/cli.rst's own testcode calls it)."""
    rc = cli.main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def _main_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    """A study through ``cardcore.cli.main`` with ``--json -``: the JSON from stdout."""
    rc, out, err = _main(capsys, *args, "--json", "-", "-q")
    assert rc == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def _wilson(p: float, n: int) -> tuple[float, float]:
    """Wilson's score interval at 95%, computed here independently."""
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z / denom * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


# --------------------------------------------------------------------------------------
# Getting around: cardcore, --version, list, rules


def test_bare_command_lists_games_rules_and_agents() -> None:
    """cli.rst: "Run without arguments, ``cardcore`` prints the installed games, house rules
    and agents, and the first commands to try."
    """
    proc = _run()
    assert proc.returncode == 0, proc.stderr
    for name in ("golf", "tonk", "spit", "speed", "golf.hard", "tonk.natural-49-50", "ismcts"):
        assert name in proc.stdout


def test_version_prints_the_version() -> None:
    """cli.rst: "``cardcore --version`` prints the version"."""
    proc = _run("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"cardcore {cardcore.__version__}"


def test_list_game_shows_its_rules_and_only_its_agents() -> None:
    """cli.rst: "``cardcore list golf`` # one game, its house rules and the agents that play
    it"; agents.rst: "``cardcore list GAME`` shows only the agents that play *GAME*".
    """
    proc = _run("list", "golf")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "golf.jokers" in out and "GOLF-SCORE-4" in out
    assert "golf-greedy" in out and "ismcts" in out and "random" in out
    assert "tonk-heuristic" not in out and "tonk.no-upcard" not in out


@pytest.mark.parametrize(
    ("args", "must_show", "must_not_show"),
    [
        (("GOLF-SCORE-6",), ["GOLF-SCORE-6"], ["GOLF-SCORE-2"]),
        (("GOLF-SCORE",), ["GOLF-SCORE-1", "GOLF-SCORE-2", "GOLF-SCORE-6"], ["GOLF-TURN-4"]),
        (("golf.jokers",), ["golf.jokers", "GOLF-SCORE-4", "golf.bonus-twos"], ["GOLF-TURN-4"]),
    ],
)
def test_rules_one_rule_a_prefix_or_a_house_rule(
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    must_show: list[str],
    must_not_show: list[str],
) -> None:
    """cli.rst: "``cardcore rules golf GOLF-SCORE-6`` # one rule, by its ID",
    "``cardcore rules golf GOLF-SCORE`` # every rule whose ID starts so",
    "``cardcore rules golf golf.jokers`` # one house rule (name or rule ID)".
    """
    rc, out, err = _main(capsys, "rules", "golf", *args)
    assert rc == 0, err
    for text in must_show:
        assert text in out
    for text in must_not_show:
        assert text not in out


def test_rules_whole_game_lists_ids_tags_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    """cli.rst: "First its rules as the game states them, every rule under its ID ... with
    the tags explained ... Then each option ... and each house rule"."""
    rc, out, err = _main(capsys, "rules", "tonk")
    assert rc == 0, err
    for text in ("TONK-GEN-1", "[S]", "max_players", "tonk.hit-blocks-drop", "TONK-VAR-4"):
        assert text in out


# --------------------------------------------------------------------------------------
# cardcore simulate


def test_simulate_defaults_golf_200_games_4_players_and_shares_add_up() -> None:
    """cli.rst: "``cardcore simulate golf`` # 200 games, 4 random agents"; "wins (a tie of
    *k* winners gives each 1/*k*), win rate"."""
    data = _run_json("simulate", "golf")
    assert (data["game"], data["games"], data["players"]) == ("golf", 200, 4)
    assert data["agents"] == ["random"] * 4
    assert sum(data["wins"]) == pytest.approx(200)
    assert sum(data["win_rates"]) == pytest.approx(1.0)
    assert sum(data["reasons"].values()) == 200
    assert data["truncated"] == 0
    assert data["seed"] == 0  # "simulate uses 0, so a study is reproducible by default"


def test_simulate_without_a_game_is_golf(capsys: pytest.CaptureFixture[str]) -> None:
    """cli.rst: "Without a game name it simulates the first turn-based game installed with
    cardcore itself (Golf)"."""
    data = _main_json(capsys, "sim", "-n", "5")
    assert data["game"] == "golf"


@pytest.mark.parametrize(
    ("args", "players"),
    [
        (("tonk",), 3),
        (("tonk", "-o", "max_players=4"), 4),
        (("spit", "--agents", "spit-greedy,spit-human"), 2),
    ],
)
def test_simulate_default_players(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], players: int
) -> None:
    """cli.rst: "``simulate`` [defaults] to 4, or the largest count up to 4 that the game
    accepts (with ``--agents`` naming several agents, one per seat: their number)"."""
    data = _main_json(capsys, "simulate", *args, "-n", "10")
    assert data["players"] == players
    assert sum(data["wins"]) == pytest.approx(10)


def test_simulate_json_to_stdout_table_to_stderr(tmp_path: Path) -> None:
    """cli.rst: "with ``-`` the JSON goes to standard output and the table to standard
    error"; "``cardcore simulate tonk -n 10000 --json summary.json``" (here 100 games)."""
    proc = _run("simulate", "tonk", "-n", "50", "--json", "-")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert "win rate" in proc.stderr
    assert data["seed"] == 0 and data["rules"] == [] and data["options"] == {}
    # Tonk has stakes: payouts per seat, and they are zero-sum
    assert data["mean_payouts"] is not None
    assert sum(data["mean_payouts"]) == pytest.approx(0.0, abs=1e-9)
    proc = _run("simulate", "tonk", "-n", "100", "--json", "summary.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    saved = json.loads((tmp_path / "summary.json").read_text())
    assert saved["games"] == 100 and "payout" in proc.stdout


def test_simulate_same_seed_same_summary_in_process_2_workers_and_dask(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """cli.rst: "the same seed gives the same summary whatever runs it: this process, any
    number of worker processes, or dask"."""
    base = ("simulate", "golf", "-n", "30", "-s", "5", "-p", "3")
    here = _main_json(capsys, *base)
    assert _run_json(*base, "--workers", "2") == here
    other = _main_json(capsys, "simulate", "golf", "-n", "30", "-s", "6", "-p", "3")
    assert other["mean_scores"] != here["mean_scores"]
    pytest.importorskip("dask.distributed")
    assert _run_json(*base, "--dask", "local", "--workers", "2") == here


def test_simulate_api_matches_docs_executor_example() -> None:
    """cli.rst testcode: ``with ProcessPoolExecutor(2) as pool: summary =
    cardcore.simulate("golf", games=40, players=4, seed=1, executor=pool)`` equals the run
    in this process."""
    with ProcessPoolExecutor(2) as pool:
        summary = cardcore.simulate("golf", games=40, players=4, seed=1, executor=pool)
    assert summary == cardcore.simulate("golf", games=40, players=4, seed=1)
    assert sum(summary.wins) == pytest.approx(40)
    assert sum(summary.win_rates) == pytest.approx(1.0)


def test_simulate_api_defaults_are_documented_ones() -> None:
    """help(cardcore.simulate): "players: ... else the fewest the game seats, two for the
    built-in games"; ``games: int = 100`` (the command line's defaults are 4 and 200)."""
    summary = cardcore.simulate("golf", options={"rounds": 1})
    assert (summary.games, summary.players) == (100, 2)


def test_simulate_sd_is_the_sample_standard_deviation() -> None:
    """Summary: "sd_scores: Standard deviation of the final score per seat" (games 0 and 1
    of a study are the same in a study of 1 and of 2 games: "game *i* is seeded from
    ``(seed, i)``")."""
    one = cardcore.simulate("golf", games=1, players=2, seed=3, options={"rounds": 1})
    two = cardcore.simulate("golf", games=2, players=2, seed=3, options={"rounds": 1})
    first = one.mean_scores[0]
    second = 2 * two.mean_scores[0] - first
    assert two.sd_scores[0] == pytest.approx(abs(first - second) / math.sqrt(2))


def test_simulate_sd_over_one_game_is_not_zero() -> None:
    """house-rule-study.rst: "One game has no spread to estimate: its interval is unbounded
    (``± inf``, ``null`` in the JSON)"; simulate's sd is the sample sd (ddof 1), which one
    game does not define."""
    one = cardcore.simulate("golf", games=1, players=2, seed=3, options={"rounds": 1})
    assert one.sd_scores[0] != 0.0


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("simulate", "golff"), "no game called 'golff'"),
        (("simulate", "golf", "-n", "0"), "--games"),
        (("simulate", "golf", "-n", "abc"), "--games"),
        (("simulate", "golf", "-p", "1"), "2 to 64"),
        (("simulate", "tonk", "-p", "4"), "max_players=4"),
        (("simulate", "golf", "--rules", "golf.nope"), "golf.nope"),
        (("simulate", "golf", "--rules", "golf.jokers,golf.bonus-twos"), "cannot be combined"),
        (("simulate", "golf", "--rules", "golf.diagonal-pairs"), "GOLF4-VAR-1"),
        (("simulate", "golf", "--without", "golf.hard"), "not a default rule"),
        (("simulate", "golf", "-o", "layout=7"), "layout"),
        (("simulate", "golf", "-o", "nope=1"), "has no option 'nope'"),
        (("simulate", "golf", "--agents", "tonk-heuristic"), "plays tonk"),
        (("simulate", "golf", "--agents", "random,random,random", "-p", "2"), "3 agents"),
        (("simulate", "golf", "--agents", "ismcts:iters=3"), "did you mean 'iterations'"),
        (("simulate", "golf", "--agents", "ismcts:iterations=999999"), "1 to 2000"),
        (("simulate", "golf", "--workers", "0"), "--workers"),
        (("simulate", "golf", "-s", "-1"), "seed"),
        (("compare", "golf", "--vs", "golf.nope"), "configuration B"),
        (("compare", "golf", "--rules", "golf.diagonal-pairs"), "GOLF4-VAR-1"),
        (("compare", "golf", "--skill", "tonk-heuristic"), "plays tonk"),
        (("compare", "golf", "--move-time", "-1"), "--move-time"),
        (("compare", "golf", "-n", "0"), "--games"),
        (("rules", "golf", "GOLF-NOPE-9"), "no rule 'GOLF-NOPE-9'"),
        (("rules", "golf", "tonk.no-upcard"), "belongs to 'tonk'"),
        (("play", "golf", "--seat", "5", "--no-record"), "--seat"),
        (("play", "tonk", "--agent", "golf-greedy", "--no-record"), "plays golf"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], needle: str
) -> None:
    """cli.rst: "Every error is one line on standard error in the library's own words,
    never a traceback ... The exit status is ... 2 for a bad argument, option, rule or
    record"; house-rule-study.rst: "one line on stderr, exit status 2, before any game"."""
    rc, out, err = _main(capsys, *args)
    assert rc == 2
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert needle in err


@pytest.mark.parametrize("command", ["simulate", "compare", "play", "rules"])
def test_unknown_option_points_to_the_subcommands_help(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """cli.rst: "``cardcore --help`` and ``cardcore COMMAND --help`` list every option";
    ``cardcore simulate golf -n 0`` says "(see cardcore simulate --help)"."""
    rc, _, err = _main(capsys, command, "golf", "--bogus")
    assert rc == 2
    assert f"(see cardcore {command} --help)" in err


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_too_many_players_names_the_games_range(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """cli.rst: "a bad option says what the game accepts"; ``-p 1`` answers "golf takes 2 to
    64 players, not 1 (CORE-SEAT-2)"."""
    rc, _, err = _main(capsys, command, "golf", "-p", "65")
    assert rc == 2
    assert "golf takes 2 to 64 players, not 65" in err


@pytest.mark.parametrize(
    "kwargs",
    [
        {"games": 0},
        {"games": 20_000_000},
        {"games": 2, "players": 2, "agents": ["random"] * 3},
    ],
)
def test_simulate_and_compare_refuse_alike(kwargs: dict[str, Any]) -> None:
    """house-rule-study.rst: ``compare``'s "command line takes the same [as simulate]";
    both take ``games``, ``players`` and ``agents`` with the same meaning."""
    with pytest.raises(cardcore.OptionError) as sim:
        cardcore.simulate("golf", **kwargs)
    with pytest.raises(cardcore.OptionError) as cmp:
        cardcore.compare("golf", skill=None, **kwargs)
    assert str(sim.value) == str(cmp.value)


def test_simulate_json_tells_a_without_run_apart(capsys: pytest.CaptureFixture[str]) -> None:
    """cli.rst: "``--json FILE`` Also writes :meth:`cardcore.Summary.to_json` (plus the seed,
    rules and options)"; "``--without RULE`` Default house rules to switch off"."""
    config = ("game", "games", "players", "agents", "seed", "rules", "options", "without")
    default = _main_json(capsys, "simulate", "tonk", "-n", "30")
    without = _main_json(capsys, "simulate", "tonk", "-n", "30", "--without", "tonk.natural-49-50")
    assert "natural" in default["reasons"] and "natural" not in without["reasons"]
    pick = lambda d: {k: d.get(k) for k in config}  # noqa: E731
    assert pick(default) != pick(without)


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "golf", "-n", "1", "-p", "2", "-o", "rounds=1", "-q"),
        ("compare", "golf", "-n", "1", "-o", "rounds=1", "--skill", "none", "-q"),
    ],
)
def test_one_game_is_one_game(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    """cli.rst: "Plays ``--games`` seeded games ... then prints one row per seat"; the
    caption counts them ("golf: 200 games, 4 players")."""
    rc, out, _ = _main(capsys, *args)
    assert rc == 0
    out = re.sub(r"[\d,]+ games/s", "", out)  # the speed (1,161 games/s) is no count of games
    assert "1 game" in out and "1 games" not in out


def test_progress_bar_on_a_terminal_and_none_when_piped_or_quiet() -> None:
    """cli.rst: "Plays ``--games`` seeded games (default 200) with a progress bar";
    "``--quiet`` No progress bar (there is none either when the table goes to a pipe)"."""
    args = ("simulate", "golf", "-n", "300", "-p", "2", "-o", "rounds=1")
    drawn = _run_pty(*args)
    assert "0/300" in drawn and "300/300" in drawn and "win rate" in drawn
    assert "/300" not in _run_pty(*args, "-q")
    piped = _run(*args)
    assert piped.returncode == 0 and "/300" not in piped.stdout + piped.stderr
    drawn = _run_pty("compare", "golf", "-o", "rounds=1", "-n", "20", "--skill", "none")
    assert "40/40" in drawn  # both configurations' games
    assert "first-seat advantage" in drawn


# --------------------------------------------------------------------------------------
# cardcore compare: the house-rule lab


def test_compare_docs_doctest() -> None:
    """house-rule-study.rst: ``compare("golf", rules=["golf.jokers"], games=10, seed=1,
    options={"rounds": 1})`` gives ``(('golf.jokers',), ())`` and ``(False, 10)``."""
    result = cardcore.compare(
        "golf", rules=["golf.jokers"], games=10, seed=1, options={"rounds": 1}
    )
    assert (result.a.rules, result.b.rules) == (("golf.jokers",), ())
    assert (result.same_deals, result.diff["actions"].n) == (False, 10)
    assert "54 and 52 cards" in result.deals  # "Comparison.deals says so plainly"


def test_compare_mixed_lineup_docs_doctest() -> None:
    """house-rule-study.rst: ``compare("golf", agents=["golf-greedy", "random"], games=12,
    skill=None)``: ``sorted(mixed.a.agent_wins)`` is both agents and the greedy one wins
    more."""
    mixed = cardcore.compare("golf", agents=["golf-greedy", "random"], games=12, skill=None)
    assert sorted(mixed.a.agent_wins) == ["golf-greedy", "random"]
    wins = mixed.a.agent_wins
    assert wins["golf-greedy"].mean > wins["random"].mean
    assert wins["golf-greedy"].mean + wins["random"].mean == pytest.approx(1.0)


def test_compare_cli_table_for_hard_scoring() -> None:
    """house-rule-study.rst: "``cardcore compare golf --rules golf.hard --games 400 --seed
    1``" prints "A: golf.hard; agents golf-greedy", "B: (base game); agents golf-greedy",
    the figures and "both configurations deal the same cards from the same seed: duplicate
    deals" (here one hole, 100 games)."""
    proc = _run("compare", "golf", "--rules", "golf.hard", "-n", "100", "-s", "1", "-o", "rounds=1")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "A: golf.hard; agents golf-greedy" in out
    assert "B: (base game); agents golf-greedy" in out
    for row in ("first-seat advantage", "actions per game", "rounds per game", "score spread"):
        assert row in out
    assert "skill: golf-greedy wins vs random" in out
    assert "duplicate deals" in out


def test_hard_scoring_widens_the_spread_and_keeps_the_length() -> None:
    """house-rule-study.rst: "The scoring rules (HARD ...) leave the length unchanged to the
    action ... with duplicate deals the games are move for move the same"; "HARD scoring
    widens it" (spread, B - A negative)."""
    c = cardcore.compare(
        "golf", rules=["golf.hard"], games=200, seed=1, options={"rounds": 1}, skill=None
    )
    assert c.same_deals
    d = c.diff["actions"]
    assert (d.mean, d.low, d.high) == (0.0, 0.0, 0.0)
    assert c.diff["spread"].mean < 0 and c.diff["spread"].significant
    assert c.a.spread.mean > c.b.spread.mean


def test_hard_scoring_raises_every_seats_mean_score() -> None:
    """golf rules: "GOLF-SCORE-2 HARD table: ... J 11; Q 12; K 13" against BASIC "J 10; Q 10;
    K 0": random play on the same seeds scores at least as much everywhere."""
    kw: dict[str, Any] = {"games": 100, "players": 3, "seed": 2, "options": {"rounds": 1}}
    hard = cardcore.simulate("golf", rules=["golf.hard"], **kw)
    base = cardcore.simulate("golf", **kw)
    assert hard.mean_actions == base.mean_actions
    assert all(h > b for h, b in zip(hard.mean_scores, base.mean_scores, strict=True))


def test_a_rule_that_ends_rounds_sooner_makes_games_shorter() -> None:
    """``golf.no-final-turns`` (GOLF6-END-4): "No final turns: the round ends when a layout
    is complete"; and option ``max_turns`` "GOLF-CAP-1: end a round after this many
    turns". Both shorten a hole; B - A actions is positive and excludes zero."""
    c = cardcore.compare(
        "golf", rules=["golf.no-final-turns"], games=100, seed=1, options={"rounds": 1}, skill=None
    )
    assert c.same_deals
    assert c.a.actions.mean < c.b.actions.mean
    assert c.diff["actions"].mean > 0 and c.diff["actions"].significant
    capped = cardcore.compare(
        "golf",
        options={"rounds": 1, "max_turns": 3},
        vs_options={"rounds": 1},
        games=100,
        seed=1,
        skill=None,
    )
    assert capped.a.options == {"rounds": 1, "max_turns": 3}
    assert capped.b.options == {"rounds": 1}
    assert capped.a.actions.high < capped.b.actions.low


def test_jokers_shorten_nine_holes() -> None:
    """house-rule-study.rst: "jokers shorten nine holes by 15.7 ± 3.0 actions (B, without
    them, is longer; the decks differ, so these deals are not duplicates)"."""
    c = cardcore.compare("golf", rules=["golf.jokers"], games=60, seed=1, skill=None)
    assert not c.same_deals
    assert c.diff["actions"].mean > 0 and c.diff["actions"].significant


def test_same_configuration_twice_differs_by_nothing() -> None:
    """house-rule-study.rst: "Game *i* of both configurations is seeded from ``(seed, i)``;
    every agent's seed from the game's seed and its seat": A = B plays the same games."""
    c = cardcore.compare(
        "golf", rules=["golf.hard"], vs=["golf.hard"], games=30, options={"rounds": 1}
    )
    assert c.same_deals
    for name, est in c.diff.items():
        assert est.mean == pytest.approx(0.0, abs=1e-12), name
    assert c.a.seat_wins == c.b.seat_wins and c.a.skill == c.b.skill


def test_compare_side_a_is_the_simulate_study() -> None:
    """cli.rst: "Game *i* of a study is seeded from the study seed and *i*";
    house-rule-study.rst: "Game *i* of both configurations is seeded from ``(seed, i)``":
    the same configuration gives the same games in either tool."""
    kw: dict[str, Any] = {"games": 50, "players": 2, "seed": 1, "options": {"rounds": 1}}
    s = cardcore.simulate("golf", agents="golf-greedy", **kw)
    c = cardcore.compare("golf", agents="golf-greedy", skill=None, **kw)
    assert [e.mean * 50 for e in c.a.seat_wins] == pytest.approx(list(s.wins))
    assert c.a.actions.mean == pytest.approx(s.mean_actions)


def test_intervals_are_wilson_and_the_docs_figures() -> None:
    """house-rule-study.rst: "Proportions and win shares ... have Wilson's score interval
    ... 100 wins in 100 games is ``100.0% [96.3, 100.0]``"; "100% against 100% of 400 games
    is ``+0.0% [-1.0, 1.0]``"; "The first-seat advantage is the first seat's share less
    ``1/players``, its interval shifted the same"."""
    c = cardcore.compare(
        "golf", agents="random", games=100, seed=1, options={"rounds": 1}, skill=None
    )
    assert c.a.reasons["rounds"].text(1, percent=True) == "100.0% [96.3, 100.0]"
    assert c.a.reasons["rounds"].interval == "wilson"
    first = c.a.seat_wins[0]  # seat 0 acts first in Golf
    assert first.interval == "wilson"
    low, high = _wilson(first.mean, 100)
    assert (first.low, first.high) == pytest.approx((low, high))
    fs = c.a.first_seat
    assert (fs.mean, fs.low, fs.high) == pytest.approx((first.mean - 0.5, low - 0.5, high - 0.5))
    assert sum(e.mean for e in c.a.seat_wins) == pytest.approx(1.0)
    big = cardcore.compare(
        "golf", agents="random", games=400, seed=1, options={"rounds": 1}, skill=None
    )
    diff = big.diff["reason:rounds"]
    assert diff.interval == "newcombe"
    assert diff.text(1, signed=True, percent=True) == "+0.0% [-1.0, 1.0]"


def test_tonk_end_reasons_are_wilson_and_add_up() -> None:
    """house-rule-study.rst: "end reasons: how often each occurs" (Wilson intervals); a
    Tonk hand ends one way, so the proportions add up to one."""
    c = cardcore.compare(
        "tonk", without=["tonk.natural-49-50"], players=3, games=100, seed=0, skill=None
    )
    assert sum(e.mean for e in c.a.reasons.values()) == pytest.approx(1.0)
    assert sum(e.mean for e in c.b.reasons.values()) == pytest.approx(1.0)
    assert "natural" not in c.a.reasons or c.a.reasons["natural"].mean == 0
    for est in c.b.reasons.values():
        assert (est.low, est.high) == pytest.approx(_wilson(est.mean, 100))
        assert 0 <= est.low <= est.mean <= est.high <= 1


def test_one_game_has_unbounded_normal_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    """house-rule-study.rst: "One game has no spread to estimate: its interval is unbounded
    (``± inf``, ``null`` in the JSON), never significant"."""
    c = cardcore.compare("golf", rules=["golf.hard"], games=1, options={"rounds": 1}, skill=None)
    assert math.isinf(c.a.actions.high) and not c.diff["spread"].significant
    rc, out, _ = _main(
        capsys, "compare", "golf", "--rules", "golf.hard", "-n", "1", "-o", "rounds=1",
        "--skill", "none", "-q", "--json", "-",
    )  # fmt: skip
    assert rc == 0
    data = json.loads(out)
    assert data["a"]["actions"]["low"] is None and data["a"]["actions"]["high"] is None


def test_compare_same_seed_same_result_with_1_and_2_workers() -> None:
    """cli.rst: compare's "``--workers`` and ``--dask`` work as for ``simulate``" (the same
    seed gives the same figures whatever runs it; only the timings differ)."""
    args = ("compare", "golf", "--rules", "golf.jokers", "-o", "rounds=1", "-n", "40", "-s", "3")
    timing = ("slowest", "decisions_per_s")

    def strip(data: dict[str, Any]) -> dict[str, Any]:
        for side in ("a", "b"):
            for key in timing:
                data[side].pop(key)
        return data

    one = strip(_run_json(*args, "--workers", "1"))
    two = strip(_run_json(*args, "--workers", "2"))
    assert one == two
    assert one["a"]["rules"] == ["golf.jokers"] and one["b"]["rules"] == []


def test_compare_cli_json_and_plot_files(tmp_path: Path) -> None:
    """house-rule-study.rst: "``cardcore compare tonk --without tonk.natural-49-50 --players
    3 --json natural.json``"; "``--plot FILE.png`` (matplotlib, extra ``plot``)"."""
    proc = _run(
        "compare", "tonk", "--without", "tonk.natural-49-50", "--players", "3",
        "--json", "natural.json", "-n", "20", cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "natural.json").read_text())
    assert data["players"] == 3 and data["a"]["without"] == ["tonk.natural-49-50"]
    assert data["b"]["without"] == [] and data["skill_agents"] == ["tonk-heuristic", "random"]
    assert data["a"]["first_seat"]["interval"] == "wilson"
    pytest.importorskip("matplotlib")
    proc = _run(
        "compare", "golf", "--rules", "golf.jokers", "-n", "10", "-o", "rounds=1",
        "--skill", "none", "--plot", "jokers.png", cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "jokers.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_compare_names_a_rule_the_same_by_id_or_name() -> None:
    """cli.rst: "``--rules RULE[,RULE]`` House rules to add, by name (``golf.jokers``) or rule
    ID (``GOLF-SCORE-4``)"; ``new_game(..., rules=["GOLF-SCORE-2"]).rules`` is
    ``('golf.hard',)``."""
    assert cardcore.new_game("golf", 2, rules=["GOLF-SCORE-2"], seed=1).rules == ("golf.hard",)
    c = cardcore.compare(
        "golf", rules=["golf.hard"], vs=["GOLF-SCORE-2"], games=3, options={"rounds": 1},
        skill=None,
    )  # fmt: skip
    assert c.diff["spread"].mean == 0.0  # the same rule on both sides
    assert c.a.rules == c.b.rules


# --------------------------------------------------------------------------------------
# Your own house rule and your own agent


@pytest.fixture
def kings_ten() -> Iterator[str]:
    """A house rule made as the plugin guide says: ``RULE`` plus a ``card_points`` hook."""

    @hookimpl
    def card_points(card: cardcore.Card) -> int | None:
        return 10 if card.label == "K" else None

    module = types.ModuleType("lab_kings_ten")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="LAB-KINGS-1", name="golf.kings-ten", game="golf", summary="Kings score 10"
    )
    module.card_points = card_points  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.kings-ten", module)
    try:
        yield "golf.kings-ten"
    finally:
        cardcore.unregister("cardcore.rules", "golf.kings-ten")


def test_own_house_rule_in_simulate_and_compare(kings_ten: str) -> None:
    """house-rule.rst: "A house rule is a plugin module of its own: it declares ``RULE``, a
    :class:`~cardcore.RuleInfo`, and implements hooks"; ":func:`cardcore.register` makes a
    module known without an entry point (for tests and notebooks)"; hooks.rst: "**Override
    a value** with a ``firstresult`` hook (:hook:`card_points`)"."""
    assert cardcore.rule_info(kings_ten).id == "LAB-KINGS-1"
    game = cardcore.new_game("golf", 2, rules=["LAB-KINGS-1"], seed=1)
    assert game.rules == (kings_ten,)
    kw: dict[str, Any] = {"games": 60, "players": 2, "seed": 4, "options": {"rounds": 1}}
    mine = cardcore.simulate("golf", rules=[kings_ten], **kw)
    base = cardcore.simulate("golf", **kw)
    assert all(m > b for m, b in zip(mine.mean_scores, base.mean_scores, strict=True))
    c = cardcore.compare("golf", rules=[kings_ten], skill=None, **kw)
    assert c.same_deals and c.a.rules == (kings_ten,)


def test_own_agent_by_hand_and_by_name() -> None:
    """agents.rst: "A turn-based agent has one method, ``choose(view, legal)``, returning one
    of ``legal``"; "an agent meant to be used by name takes a ``seed`` keyword";
    ":func:`cardcore.register` publishes one for this process only"."""

    class FirstLegal:
        """Always takes the first legal action."""

        def __init__(self, seed: int = 0) -> None:
            self.seed = seed

        def choose(self, view: Any, legal: Any) -> Any:
            return legal[0]

    assert isinstance(FirstLegal(), cardcore.Agent)
    game = cardcore.new_game("tonk", 3, seed=4)
    result = cardcore.play(game, [FirstLegal(), cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert game.is_over and result is game.result
    golf = cardcore.new_game("golf", 2, seed=4)
    assert cardcore.play(golf, [FirstLegal(), FirstLegal()], max_actions=5).reason == "truncated"
    cardcore.register("cardcore.agents", "lab-first-legal", FirstLegal)
    try:
        summary = cardcore.simulate(
            "golf", agents=["lab-first-legal", "random"], games=10, seed=1, options={"rounds": 1}
        )
        assert summary.agents == ("lab-first-legal", "random")
        assert sum(summary.wins) == pytest.approx(10)
    finally:
        cardcore.unregister("cardcore.agents", "lab-first-legal")


def test_agent_declaring_its_game_is_refused_elsewhere() -> None:
    """agents.rst: "Using it with another game is an error before the first card is dealt"
    (``agent 'golf-greedy' plays golf, not 'tonk'``)."""
    with pytest.raises(cardcore.CardcoreError, match="plays golf, not 'tonk'"):
        cardcore.simulate("tonk", games=2, players=2, agents=["golf-greedy", "random"])


# --------------------------------------------------------------------------------------
# Search bots


def test_ismcts_docs_example_and_parameters() -> None:
    """search-agents.rst: ``ISMCTSAgent(seed=7, iterations=30)`` plays a hole to ``'rounds'``;
    ``load_agent("ismcts:iterations=50,seed=7")`` is ``ISMCTSAgent(iterations=50, c=0.7,
    rollout='game')``; ``iters=3`` is refused with "did you mean 'iterations'?"."""
    from cardcore.search import ISMCTSAgent

    game = cardcore.new_game("golf", 2, seed=7, options={"rounds": 1})
    bot = ISMCTSAgent(seed=7, iterations=30)
    assert cardcore.play(game, [bot, cardcore.RandomAgent(1)]).reason == "rounds"
    assert "ismcts" in cardcore.available_agents()
    agent = cardcore.load_agent("ismcts:iterations=50,seed=7")
    assert repr(agent) == "ISMCTSAgent(seed=7, iterations=50, c=0.7, rollout='game')"
    with pytest.raises(cardcore.OptionError, match="did you mean 'iterations'"):
        cardcore.load_agent("ismcts", iters=3)
    with pytest.raises(cardcore.OptionError, match="1 to 2000"):
        cardcore.load_agent("ismcts", iterations=5000)


def test_ismcts_is_deterministic_and_beats_random_play() -> None:
    """search-agents.rst: "For a given ``seed`` and an iteration budget the agent is
    deterministic"; "**Against random play** ISMCTS wins clearly ... (98.5 to 99.1% of
    deals)" in Golf."""
    kw: dict[str, Any] = {"games": 4, "seed": 3, "options": {"rounds": 1}}
    agents = ["ismcts:iterations=20", "random"]
    first = cardcore.simulate("golf", agents=agents, **kw)
    assert cardcore.simulate("golf", agents=agents, **kw) == first
    assert first.wins[0] >= 3
    assert first.mean_scores[0] < first.mean_scores[1]


def test_ismcts_spec_on_the_command_line() -> None:
    """search-agents.rst: "On the command line: ``cardcore simulate golf --agents
    ismcts:iterations=200,seed=7,random`` (one spec per seat; a ``KEY=VALUE`` piece continues
    the spec before it)" (here 20 iterations, one hole)."""
    data = _run_json(
        "simulate", "golf", "--agents", "ismcts:iterations=20,seed=7,random", "-n", "3",
        "-o", "rounds=1",
    )  # fmt: skip
    assert data["players"] == 2
    assert data["agents"] == ["ismcts:iterations=20,seed=7", "random"]
    assert sum(data["wins"]) == pytest.approx(3)


def test_compare_a_search_bot_against_the_heuristic() -> None:
    """house-rule-study.rst: "``compare("golf", agents="ismcts:iterations=50",
    vs_agents="golf-greedy")`` compares two agents on one rule set" (and a mixed line-up
    gives a wins row per agent)."""
    c = cardcore.compare(
        "golf", agents="ismcts:iterations=10", vs_agents="golf-greedy", games=2,
        options={"rounds": 1}, skill=None,
    )  # fmt: skip
    assert c.a.agents == ("ismcts:iterations=10",) * 2
    assert c.b.agents == ("golf-greedy",) * 2
    mixed = cardcore.compare(
        "golf", agents=["ismcts:iterations=10", "golf-greedy"], games=2,
        options={"rounds": 1}, skill=None,
    )  # fmt: skip
    wins = mixed.a.agent_wins
    assert sorted(wins) == ["golf-greedy", "ismcts:iterations=10"]
    assert sum(e.mean for e in wins.values()) == pytest.approx(1.0)


# --------------------------------------------------------------------------------------
# cardcore play, non-interactive


def test_play_piped_game_saves_a_record_that_replays(tmp_path: Path) -> None:
    """cli.rst: "Moves are read from standard input, one per line, so they can be piped in";
    "its record is saved as JSON (``--record FILE`` ...) for ``cardcore replay``"; "An
    existing file is never overwritten unless you pass ``--force``"."""
    moves = "#1\n" * 200
    args = ("play", "golf", "--seed", "7", "-o", "rounds=1", "--record", "g.json")
    proc = _run(*args, cwd=tmp_path, stdin=moves)
    assert proc.returncode == 0, proc.stderr
    assert "game over (rounds)" in proc.stdout
    assert "record saved to g.json" in proc.stdout
    record = json.loads((tmp_path / "g.json").read_text())
    assert cardcore.replay(record).is_over
    again = _run(*args, cwd=tmp_path, stdin=moves)
    assert again.returncode == 2 and "--force" in again.stderr
    check = _run("verify", "g.json", cwd=tmp_path)
    assert check.returncode == 0 and "replays: golf, 2 players" in check.stdout


def test_play_answers_bad_moves_and_goes_on() -> None:
    """cli.rst: "Anything else is answered with the library's error, and nothing changes::
    not understood: not a golf action: 'bogus' ... illegal: seat 0 has no position 99 in
    GOLF6: 'flip 99' (GOLF-TURN-4)"; "``help`` repeats the commands and the legal actions"."""
    proc = _run(
        "play", "golf", "--players", "3", "--seed", "7", "-o", "rounds=1", "--no-record",
        stdin="help\nbogus\nflip 99\n#1\nquit\n",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "not understood: not a golf action: 'bogus'" in out
    assert "illegal: seat 0 has no position 99 in GOLF6: 'flip 99' (GOLF-TURN-4)" in out
    assert "you: flip 0" in out
    assert "random 2" in out and "random 3" in out  # "each bot the agent's name and its number"


def test_docs_piped_play_example_is_accepted() -> None:
    """cli.rst: "Moves are read from standard input, one per line, so they can be piped in
    (``printf 'draw\\ndiscard\\n' | cardcore play golf --seed 7``)"."""
    docs = (ROOT / "docs" / "cli.rst").read_text(encoding="utf-8")
    piped = re.search(r"``printf '([^']*)' \| cardcore play golf --seed 7``", docs)
    assert piped, "the piped example left docs/cli.rst"
    stdin = piped.group(1).replace("\\n", "\n")
    proc = _run("play", "golf", "--seed", "7", "--no-record", stdin=stdin)
    assert proc.returncode == 0
    assert "illegal:" not in proc.stdout
    assert "you: draw" in proc.stdout


def test_play_names_several_winners_as_winners() -> None:
    """cli.rst: "``resign`` resigns (recorded like any action)"; the game's end is drawn
    with its winners (a 3-player resignation leaves two)."""
    proc = _run(
        "play", "golf", "--players", "3", "--seed", "7", "-o", "rounds=1", "--no-record",
        stdin="#1\nresign\n",
    )  # fmt: skip
    assert proc.returncode == 0
    assert "random 2 and random 3" in proc.stdout
    assert "winner: random 2 and random 3" not in proc.stdout


def test_play_table_shows_the_stock_once() -> None:
    """cli.rst: "the table is drawn from your seat's view, read from its declared structure
    (the zones and the fields the game declares ...), with each field under the label a
    player would use"."""
    proc = _run("play", "golf", "--seed", "7", "--no-record", stdin="quit\n")
    assert proc.returncode == 0
    first_table = proc.stdout.split("legal:")[0]
    assert first_table.count("stock") == 1
