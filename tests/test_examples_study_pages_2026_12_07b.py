"""A new user's pass over docs/examples.rst, docs/house-rule-study.rst and docs/testing-kit.rst.

Every example is run as the page says (scripts as subprocesses with a timeout, small
arguments where they take them), and each claim the pages make is checked; studies run
with few games, checking the claims that do not depend on the count.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore.deck import derive_rng
from cardcore.plugins import unregister
from cardcore.testing import check_game

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
EXAMPLES = ROOT / "examples"
Z = 1.959964


def run(*args: str, timeout: float = 60, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd
    )


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The command line, run in a directory of its own (``play`` writes its record there)."""
    with tempfile.TemporaryDirectory() as where:
        return run("-m", "cardcore.cli", *args, cwd=Path(where))


def console_block(page: str, command: str) -> list[str]:
    """The output lines the page shows under ``$ command`` in a console block."""
    text = (DOCS / page).read_text()
    start = text.index(f"$ {command}\n")
    lines = []
    for line in text[start:].splitlines()[1:]:
        if not line.strip():
            break
        lines.append(line[3:])
    return lines


def wilson(p: float, n: int) -> tuple[float, float]:
    """Wilson's score interval, written from the textbook formula."""
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# --------------------------------------------------------------------------- examples.rst


def test_quickstart_prints_what_the_page_shows_in_13_lines() -> None:
    assert len((EXAMPLES / "quickstart.py").read_text().splitlines()) == 13
    out = run("examples/quickstart.py")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == console_block("examples.rst", "python examples/quickstart.py")


def test_turn_based_server_output_matches_page(tmp_path: Path) -> None:
    out = run("examples/turn_based_server.py", str(tmp_path / "saves"))
    assert out.returncode == 0, out.stderr
    got = out.stdout.splitlines()
    shown = console_block("examples.rst", "python examples/turn_based_server.py saves/")
    at = 0
    for line in shown:  # the page's lines, in order, "..." for the ones it leaves out
        if line.strip() == "...":
            continue
        at = got.index(line, at) + 1
    assert got[-1] == "ok"
    assert sorted(p.name for p in (tmp_path / "saves").iterdir())


def test_turn_based_server_refuses_the_host_seat() -> None:
    sys.path.insert(0, str(EXAMPLES))
    try:
        import turn_based_server as tbs
    finally:
        sys.path.remove(str(EXAMPLES))
    server = tbs.TableServer()
    server.tables["t"] = cardcore.new_game("golf", 2, seed=3)
    game = server.tables["t"]
    before = (game.version, game.record())
    reply = server.handle("t", cardcore.HOST, "end")
    assert reply["ok"] is False
    assert (game.version, game.record()) == before
    reply = server.handle("t", 1, "draw")  # out of turn: rule ID ends the message
    assert reply["ok"] is False and reply["error"].endswith("(CORE-TURN-1)")


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_realtime_threads_keeps_its_promises(game: str) -> None:
    out = run("examples/realtime_threads.py", game, timeout=120)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "all 52 cards accounted for" in text
    assert "record replays identically" in text
    assert re.search(r"other rejections: 0\b", text)
    assert text.splitlines()[-1] == "ok"


def _study_rows(stdout: str) -> dict[str, tuple[float, float, float]]:
    rows = {}
    for line in stdout.splitlines()[2:]:
        m = re.match(r"(\S.*?)\s+(-?[\d.]+)\s+([\d.–]+)\s+([+-][\d.]+)$", line)
        if m:
            rows[m[1]] = (float(m[2]), float(m[3]), float(m[4]))
    return rows


def test_house_rule_study_same_results_with_workers(tmp_path: Path) -> None:
    one = run("examples/house_rule_study.py", str(tmp_path / "a.png"), "--games", "6")
    two = run(
        "examples/house_rule_study.py",
        str(tmp_path / "b.png"),
        "--games",
        "6",
        "--workers",
        "2",
        timeout=120,
    )
    assert one.returncode == 0 and two.returncode == 0, (one.stderr, two.stderr)
    assert one.stdout.splitlines()[0] == (
        "golf, 4 players, 6 one-round games per configuration, random agents"
    )
    assert one.stdout.splitlines()[:-1] == two.stdout.splitlines()[:-1]
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = _study_rows(one.stdout)
    base = rows.pop("(no house rule)")
    assert set(rows) == {"golf.hard", "golf.jokers", "golf.bonus-twos", "golf.ender-penalty-10"}
    for mean, _, shift in rows.values():  # shift = mean less the base game's mean
        assert shift == pytest.approx(mean - base[0], abs=0.011)
    # the base figure is simulate's mean score per player, seed 42 as the script says
    summary = cardcore.simulate("golf", games=6, players=4, options={"rounds": 1}, seed=42)
    assert base[0] == pytest.approx(sum(summary.mean_scores) / 4, abs=0.005)


def test_third_party_rule_is_listed_and_plays() -> None:
    out = cli("list", "golf")
    assert out.returncode == 0, out.stderr
    assert "golf.snowman" in out.stdout and "SNOWMAN-1" in out.stdout
    sim = cli("simulate", "golf", "--rules", "golf.snowman", "--games", "2")
    assert sim.returncode == 0, sim.stderr
    game = cardcore.new_game("golf", 4, rules=["golf.snowman"], seed=7)
    assert "golf.snowman" in game.rules


def test_third_party_game_listed_played_and_conforms() -> None:
    assert "gofish" in cli("list").stdout
    play = cli("play", "gofish", "--players", "3", "--agent", "gofish-basic")
    assert play.returncode == 0, play.stderr
    sim = cli(
        "simulate",
        "gofish",
        "--players",
        "4",
        "--agents",
        "gofish-basic,random,random,random",
        "--games",
        "2",
    )
    assert sim.returncode == 0, sim.stderr
    report = check_game("gofish", players=3, games=1, seed=0)
    assert report.ok


# ------------------------------------------------------------------- house-rule-study.rst


def test_first_doctest() -> None:
    result = cardcore.compare(
        "golf", rules=["golf.jokers"], games=10, seed=1, options={"rounds": 1}
    )
    assert (result.a.rules, result.b.rules) == (("golf.jokers",), ())
    assert (result.same_deals, result.diff["actions"].n) == (False, 10)
    assert "differ" in result.deals


def test_mixed_lineup_doctest() -> None:
    mixed = cardcore.compare("golf", agents=["golf-greedy", "random"], games=12, skill=None)
    assert sorted(mixed.a.agent_wins) == ["golf-greedy", "random"]
    assert mixed.a.agent_wins["golf-greedy"].mean > mixed.a.agent_wins["random"].mean
    assert mixed.diff["agent:golf-greedy"].interval == "newcombe"  # both sides mixed: paired


def test_rule_by_name_and_by_id_are_one_configuration_played_twice() -> None:
    r = cardcore.compare(
        "golf", rules=["golf.hard"], vs=["GOLF-SCORE-2"], games=6, seed=2, options={"rounds": 1}
    )
    assert r.a.rules == r.b.rules == ("golf.hard",)
    assert r.same_deals
    for key, est in r.diff.items():  # the same games move for move: no difference at all
        assert est.mean == 0, key
    for key in ("actions", "rounds", "spread"):
        assert (r.diff[key].low, r.diff[key].high) == (0, 0)


def test_paired_difference_of_equal_shares_is_never_zero_wide() -> None:
    # 50% against 50% of 10 games is +0.0% [-15.2, 15.2]; find a seed whose first seat
    # wins half of 10 one-hole games, then compare the configuration with itself
    for seed in range(40):
        r = cardcore.compare("golf", games=10, seed=seed, options={"rounds": 1}, skill=None)
        if r.a.seat_wins[0].mean == 0.5 and r.a.seat_wins[1].mean == 0.5:
            break
    else:
        pytest.skip("no seed with a 50% first seat")
    d = r.diff["first_seat"]
    assert d.interval == "newcombe" and d.mean == 0
    # Newcombe 10 with Agresti-Min: phi of the 2x2 table (5, 0, 0, 5) plus 0.5 a cell
    phi = (5.5 * 5.5 - 0.5 * 0.5) / math.sqrt(6**4)
    lo, hi = wilson(0.5, 10)
    half = math.sqrt(2 * (0.5 - lo) ** 2 - 2 * phi * (0.5 - lo) * (hi - 0.5))
    assert round(half * 100, 1) == 15.2
    assert (round(d.low * 100, 1), round(d.high * 100, 1)) == (-15.2, 15.2)


def test_wilson_intervals_as_shown() -> None:
    lo, hi = wilson(1.0, 100)
    assert (round(lo * 100, 1), round(hi * 100, 1)) == (96.3, 100.0)
    lo, hi = wilson(0.99, 100)
    assert (round(lo * 100, 1), round(hi * 100, 1)) == (94.6, 99.8)
    r = cardcore.compare("golf", rules=["golf.hard"], games=8, seed=3, options={"rounds": 1})
    for est in (r.a.skill, r.b.skill, r.a.seat_wins[0], r.a.reasons["rounds"]):
        assert est.interval == "wilson"
        lo, hi = wilson(est.mean, est.n)
        assert (est.low, est.high) == (pytest.approx(lo), pytest.approx(hi))
    fs = r.a.first_seat  # the first seat's share less 1/players, interval shifted the same
    s0 = r.a.seat_wins[0]
    assert fs.mean == pytest.approx(s0.mean - 0.5)
    assert (fs.low, fs.high) == (pytest.approx(s0.low - 0.5), pytest.approx(s0.high - 0.5))
    assert r.diff["first_seat"].interval == "newcombe"
    assert r.a.actions.interval == "normal"


def test_duplicate_deals_for_a_scoring_rule_and_same_length() -> None:
    r = cardcore.compare(
        "golf", rules=["golf.ender-penalty-10"], games=6, seed=1, options={"rounds": 1}
    )
    assert r.same_deals
    assert r.deals == "both configurations deal the same cards from the same seed: duplicate deals"
    assert (r.diff["actions"].mean, r.diff["actions"].low, r.diff["actions"].high) == (0, 0, 0)
    # with two players the ender's penalty cannot change who wins a hole
    assert r.diff["first_seat"].mean == 0
    assert r.a.seat_wins == r.b.seat_wins


def test_game_i_can_be_played_again_alone() -> None:
    seed = 5
    r = cardcore.compare("golf", games=1, seed=seed, options={"rounds": 1}, skill=None)
    game_seed = int(derive_rng(seed, 0).random() * 2**62)
    game = cardcore.new_game("golf", 2, options={"rounds": 1}, seed=game_seed)
    agents = [
        cardcore.load_agent(
            "golf-greedy", seed=int(derive_rng(game_seed, 1000 + s).random() * 2**62)
        )
        for s in range(2)
    ]
    result = cardcore.play(game, agents)
    assert r.a.actions.mean == game.version
    assert r.a.spread.mean == max(result.scores) - min(result.scores)
    # one game has no spread to estimate: unbounded, null in the JSON, never significant
    assert math.isinf(r.a.actions.high) and not r.a.actions.significant
    assert r.a.actions.to_json()["low"] is None


def test_players_default_from_a_lineup_of_several_agents() -> None:
    r = cardcore.compare("golf", agents=["random"] * 3, games=3, options={"rounds": 1}, skill=None)
    assert r.players == 3
    assert cardcore.compare("golf", games=1, options={"rounds": 1}, skill=None).players == 2


def test_compare_refuses_games_in_simulates_words() -> None:
    with pytest.raises(cardcore.CardcoreError) as sim:
        cardcore.simulate("golf", games=0)
    with pytest.raises(cardcore.CardcoreError) as cmp:
        cardcore.compare("golf", games=0)
    assert str(cmp.value) == str(sim.value)


def test_rounds_played_counts_at_least_one_and_spread_not_negative() -> None:
    r = cardcore.compare("gofish", games=2, seed=1, skill=None)
    assert r.a.rounds.mean >= 1 and r.a.spread.low <= r.a.spread.mean
    assert r.a.spread.mean >= 0


@pytest.mark.parametrize(
    "args",
    [
        ["nosuch"],
        ["golf", "--rules", "golf.nosuch"],
        ["golf", "--agents", "nosuchagent"],
        ["golf", "--rules", "golf.diagonal-pairs"],
        ["golf", "--rules", "golf.ender-penalty-10,golf.ender-penalty-lowest"],
        ["golf", "--games", "0"],
        ["golf", "--games", "-3"],
        ["golf", "--agents", "ismcts:bogus=1"],
        ["golf", "--agents", "ismcts:iterations=-5"],
    ],
)
def test_cli_bad_input_one_line_exit_2(args: list[str]) -> None:
    out = cli("compare", *args)
    assert out.returncode == 2
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1


def test_cli_json_to_stdout_and_repeatable(tmp_path: Path) -> None:
    args = ["compare", "golf", "--rules", "golf.hard", "--games", "3", "--seed", "1"]
    one = cli(*args, "--option", "rounds=1", "--json", "-")
    two = cli(*args, "--option", "rounds=1", "--json", "-")
    assert one.returncode == 0, one.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    for d in (a, b):
        for side in ("a", "b"):
            assert len(d[side]["slowest"]) == len(d[side]["decisions_per_s"]) == 2
            del d[side]["slowest"], d[side]["decisions_per_s"]
    assert a == b
    assert a["same_deals"] is True and a["diff"]["first_seat"]["interval"] == "newcombe"


def test_cli_table_and_json_written_before_a_failing_plot(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    from cardcore.cli import main

    def fail(self: Any, path: Any = None) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(cardcore.Comparison, "plot", fail)
    rc = main(
        [
            "compare",
            "golf",
            "--games",
            "2",
            "--option",
            "rounds=1",
            "--json",
            str(tmp_path / "r.json"),
            "--plot",
            str(tmp_path / "p.png"),
        ]
    )
    out = capsys.readouterr()
    assert rc != 0
    assert "first-seat" in out.out and "score spread" in out.out
    assert "disk full" in out.err
    assert json.loads((tmp_path / "r.json").read_text())["games"] == 2


def test_cli_refuses_an_unwritable_plot_path_before_any_game(tmp_path: Path) -> None:
    out = cli(
        "compare",
        "golf",
        "--games",
        "2",
        "--json",
        str(tmp_path / "r.json"),
        "--plot",
        str(tmp_path / "no" / "dir" / "p.png"),
    )
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r.json").exists()


class _Boom:
    """An agent that raises on its first decision."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: Any, legal: Any) -> Any:
        raise RuntimeError("boom")


@pytest.fixture
def boom_agent() -> Any:
    cardcore.register("cardcore.agents", "boom-7b", _Boom)
    yield "boom-7b"
    unregister("cardcore.agents", "boom-7b")


def test_failing_agent_stops_the_run_naming_it(boom_agent: str, capsys: Any) -> None:
    from cardcore.cli import main
    from cardcore.compare import AgentFailure

    with pytest.raises(AgentFailure) as exc:
        cardcore.compare("golf", agents=boom_agent, games=2, seed=1, skill=None)
    message = str(exc.value)
    assert boom_agent in message and "seat" in message and "seed" in message
    capsys.readouterr()
    rc = main(["compare", "golf", "--agents", boom_agent, "--games", "2", "--skill", "none"])
    err = capsys.readouterr().err
    assert rc == 1
    assert len(err.strip().splitlines()) == 1 and boom_agent in err


# ------------------------------------------------------------------------ testing-kit.rst


def test_kit_quick_start() -> None:
    report = check_game("golf", players=3, rules=["golf.jokers"], games=3, seed=0)
    assert report.cards_lost == 0 and report.leaks == 0


def test_kit_refuses_rules_as_one_text() -> None:
    with pytest.raises(cardcore.ArgumentError):
        check_game("golf", rules="golf.jokers", games=1)


def _tiny(name: str, logic_cls: type) -> Any:
    from tests.conformance.broken import _plugin

    return _plugin(name, logic_cls)


def _leaky() -> type:
    from tests.conformance.broken import LeakyView

    return LeakyView


def _refuser() -> type:
    from tests.plugins.drawgame import DrawLogic

    class Refuser(DrawLogic):
        def apply(self, state: Any, action: Any, emit: Any) -> None:
            if str(action) == "take":
                raise ValueError("take not implemented")
            super().apply(state, action, emit)

    return Refuser


_RUNS = iter(range(10**6))


def _shaky() -> type:
    from tests.plugins.drawgame import DrawLogic

    class Shaky(DrawLogic):
        def new_state(self, players, options, cards, seed, emit):  # type: ignore[no-untyped-def]
            cards = list(cards)
            k = next(_RUNS) % len(cards)  # a deal that differs each time: not the seed's
            return super().new_state(players, options, cards[k:] + cards[:k], seed, emit)

    return Shaky


@pytest.fixture
def broken() -> Any:
    names = {"tiny-leaky-7b": _leaky(), "tiny-refuser-7b": _refuser(), "tiny-shaky-7b": _shaky()}
    for name, cls in names.items():
        cardcore.register("cardcore.games", name, _tiny(name, cls))
    yield
    for name in names:
        unregister("cardcore.games", name)


def test_kit_reports_a_view_leaking_a_hidden_card(broken: None) -> None:
    report = check_game("tiny-leaky-7b", games=1, seed=1, strict=False)
    assert report.leaks > 0 and not report.ok
    with pytest.raises(AssertionError, match="tiny-leaky-7b"):
        check_game("tiny-leaky-7b", games=1, seed=1)


def test_kit_reports_a_legal_action_apply_refuses(broken: None) -> None:
    report = check_game("tiny-refuser-7b", games=1, seed=1, strict=False)
    assert not report.ok
    assert any(
        "tiny-refuser-7b" in f and "raised ValueError in apply: take not implemented" in f
        for f in report.failures
    )


def test_kit_reports_a_non_deterministic_deal(broken: None) -> None:
    report = check_game("tiny-shaky-7b", games=1, seed=1, strict=False, checks={"determinism"})
    assert not report.ok
    assert report.failures


def test_compare_checks_its_arguments_as_simulate_does() -> None:
    for kw in (
        {"chunk": 0},
        {"seed": "x"},
        {"players": "2"},
        {"executor": 3},
        {"progress": 5},
        {"games": True},
    ):
        msgs = []
        for f in (cardcore.simulate, cardcore.compare):
            with pytest.raises(cardcore.CardcoreError) as exc:
                f("golf", **kw)
            msgs.append((type(exc.value), str(exc.value)))
        assert msgs[0] == msgs[1], kw


def test_configurations_b_defaults_and_print_and_plot() -> None:
    import matplotlib
    import matplotlib.pyplot as plt

    r = cardcore.compare(
        "golf",
        rules=["golf.diagonal-pairs"],
        options={"layout": 4, "rounds": 1},
        games=2,
        skill=None,
    )
    assert dict(r.b.options) == {"layout": 4, "rounds": 1} and r.b.rules == ()
    r2 = cardcore.compare(
        "golf",
        rules=["golf.diagonal-pairs"],
        options={"layout": 4, "rounds": 1},
        vs_options={"rounds": 1},
        games=2,
        skill=None,
    )
    assert dict(r2.b.options) == {"rounds": 1}
    t = cardcore.compare("tonk", without=["tonk.natural-49-50"], games=3, seed=1)
    assert (t.a.without, t.b.without) == (("tonk.natural-49-50",), ())
    assert str(t) == t.table()
    backend, figs = matplotlib.get_backend(), plt.get_fignums()
    fig = t.plot()
    assert type(fig).__name__ == "Figure"
    assert plt.get_fignums() == figs and matplotlib.get_backend() == backend


def test_tonk_first_seat_is_left_of_the_dealer_the_cut_chose() -> None:
    for seed in range(20):
        r = cardcore.compare("tonk", games=1, seed=seed, skill=None, players=3)
        game_seed = int(derive_rng(seed, 0).random() * 2**62)
        game = cardcore.new_game("tonk", 3, seed=game_seed)
        if game.is_over:
            continue
        first = game.to_act[0]
        agents = [
            cardcore.load_agent(
                "tonk-heuristic", seed=int(derive_rng(game_seed, 1000 + s).random() * 2**62)
            )
            for s in range(3)
        ]
        result = cardcore.play(game, agents)
        share = 1 / len(result.winners) if first in result.winners else 0.0
        assert r.a.first_seat.mean == pytest.approx(share - 1 / 3)
        assert r.a.actions.mean == game.version
        return
    pytest.fail("every deal ended at the deal")
