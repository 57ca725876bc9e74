"""A game designer's day in the house-rule lab (2026-12-15).

Works from docs/house-rule-study.rst and docs/cli.rst: ``cardcore.compare`` and
``cardcore compare`` on third-party games written today (President with Revolution,
Euchre with the Canadian loner, both registered in place with ``cardcore.register``, as
docs/cli.rst says a plugin that is not installed is made visible to ``cli.main``) and
on the shipped Golf and Tonk house rules. Tiny budgets and fixed seeds throughout.
"""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

import cardcore
from cardcore import cli
from tests.plugins import euchre_2026_12_15 as eu
from tests.plugins import euchre_rules_2026_12_15 as er
from tests.plugins import president_2026_12_15 as pr
from tests.plugins import president_rules_2026_12_15 as rev

PRES, REV = pr.NAME, rev.NAME
EUCHRE, CANADIAN = eu.NAME, er.NAME
WALL_CLOCK = ("slowest", "decisions_per_s")  # docs: differ from run to run


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", PRES, pr)
    cardcore.register("cardcore.rules", REV, rev)
    cardcore.register("cardcore.games", EUCHRE, eu)
    cardcore.register("cardcore.rules", CANADIAN, er)
    yield
    cardcore.unregister("cardcore.rules", CANADIAN)
    cardcore.unregister("cardcore.games", EUCHRE)
    cardcore.unregister("cardcore.rules", REV)
    cardcore.unregister("cardcore.games", PRES)


def figures(result: cardcore.Comparison | dict[str, Any]) -> dict[str, Any]:
    """The JSON of a comparison without its two wall-clock measures."""
    data = result if isinstance(result, dict) else result.to_json()
    for side in ("a", "b"):
        for key in WALL_CLOCK:
            data[side].pop(key, None)
    return data


def golf_hard(**kw: Any) -> cardcore.Comparison:
    kw.setdefault("seed", 5)
    kw.setdefault("games", 20)
    return cardcore.compare(
        "golf", rules=["golf.hard"], options={"rounds": 1}, agents="random", **kw
    )


# --- reproducibility -------------------------------------------------------------------


def test_same_seed_same_figures_other_seed_other_figures():
    first, again, other = golf_hard(), golf_hard(), golf_hard(seed=6)
    assert figures(first) == figures(again)
    assert figures(first) != figures(other)


def test_executor_gives_the_serial_figures_and_progress_counts_every_game():
    ticks: list[int] = []
    with ProcessPoolExecutor(2) as pool:
        pooled = golf_hard(executor=pool, progress=ticks.append, chunk=10)
    assert figures(pooled) == figures(golf_hard())
    # two configurations, each with as many skill probes as games (golf-greedy vs random)
    assert sum(ticks) == 20 * 2 * 2
    assert pooled.skill_agents == ("golf-greedy", "random")


def test_progress_ticks_once_per_chunk_serially():
    ticks: list[int] = []
    golf_hard(progress=ticks.append, chunk=7, skill=None)
    assert ticks == [7, 7, 6, 7, 7, 6]


# --- A vs A, the same configuration twice -----------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_vs_a_shows_no_significant_difference(seed):
    # rule given by name on one side and by rule ID on the other: one configuration twice
    r = cardcore.compare(
        "golf",
        rules=["golf.hard"],
        vs=["GOLF-SCORE-2"],
        games=30,
        seed=seed,
        options={"rounds": 1},
        agents="random",
    )
    assert r.a.rules == r.b.rules == ("golf.hard",)
    assert r.same_deals
    assert set(r.diff) >= {"first_seat", "actions", "rounds", "spread", "skill"}
    for key, est in r.diff.items():
        assert est.mean == 0.0, key
        assert not est.significant, key
    assert r.diff["first_seat"].low < 0 < r.diff["first_seat"].high  # never zero wide


def test_a_vs_a_third_party_game():
    r = cardcore.compare(PRES, rules=[REV], vs=["PRESREV-1"], games=10, seed=3)
    assert r.players == 4 and r.a.rules == r.b.rules == (REV,)
    assert not any(est.significant for est in r.diff.values())
    # President has no agent of its own: no skill probe by default
    assert r.skill_agents is None and "skill" not in r.diff


# --- a rule that obviously matters -------------------------------------------------------


def test_hard_scoring_widens_the_score_spread_significantly():
    r = cardcore.compare(
        "golf", rules=["golf.hard"], games=60, seed=1, options={"rounds": 1}, skill=None
    )
    spread = r.diff["spread"]
    assert spread.interval == "normal"
    assert spread.significant and spread.high < 0  # B (base game) has the narrower spread
    assert r.diff["actions"].mean == 0.0  # golf-greedy plays the same: duplicate deals


def test_documented_interval_examples():
    # docs: 100 of 100 is 100.0% [96.3, 100.0]; 100% vs 100% of 400 games +0.0% [-1.0, 1.0];
    # 50% vs 50% of 10 games +0.0% [-15.2, 15.2]
    kw: dict[str, Any] = {"options": {"rounds": 1}, "agents": "random", "skill": None}
    r100 = cardcore.compare("golf", games=100, seed=1, **kw)
    assert r100.a.reasons["rounds"].text(1, percent=True) == "100.0% [96.3, 100.0]"
    r400 = cardcore.compare("golf", games=400, seed=1, **kw)
    assert r400.diff["reason:rounds"].text(1, signed=True, percent=True) == "+0.0% [-1.0, 1.0]"
    r10 = cardcore.compare("golf", games=10, seed=7, **kw)
    assert r10.a.first_seat.mean == pytest.approx(0.0, abs=1e-12)
    assert r10.diff["first_seat"].text(1, signed=True, percent=True) == "+0.0% [-15.2, 15.2]"


# --- what the report holds -------------------------------------------------------------


def test_json_holds_seat_wins_reasons_rounds_and_intervals_named():
    r = cardcore.compare(EUCHRE, rules=[CANADIAN], games=6, seed=2)
    data = json.loads(json.dumps(r.to_json()))
    assert data["players"] == 4 and data["a"]["rules"] == [CANADIAN]
    for side in ("a", "b"):
        wins = data[side]["seat_wins"]
        assert len(wins) == 4 and all(w["interval"] == "wilson" for w in wins)
        assert data[side]["first_seat"]["interval"] == "wilson"
        assert data[side]["actions"]["interval"] == "normal"
        assert set(data[side]["reasons"]) == {"points"}
        assert data[side]["rounds"]["mean"] > 1  # a match to 10 points takes several hands
    assert data["diff"]["first_seat"]["interval"] == "newcombe"
    # partners: a team's win counts half to each partner
    assert sum(w["mean"] for w in data["a"]["seat_wins"]) == pytest.approx(1.0)


def test_mixed_lineup_rotates_and_reports_wins_per_agent():
    r = cardcore.compare(
        "golf",
        agents=["golf-greedy", "random"],
        vs_agents=["random", "golf-greedy"],
        games=12,
        seed=1,
        options={"rounds": 1},
        skill=None,
    )
    assert set(r.a.agent_wins) == set(r.b.agent_wins) == {"golf-greedy", "random"}
    assert r.a.agent_wins["golf-greedy"].mean > r.a.agent_wins["random"].mean
    assert "wins: golf-greedy" in r.table()


# --- the command line --------------------------------------------------------------------


def test_cli_workers_give_the_serial_json_for_a_registered_plugin(tmp_path, capsys):
    serial, pooled = tmp_path / "serial.json", tmp_path / "pooled.json"
    base = ["compare", PRES, "--rules", REV, "--games", "6", "--seed", "4", "-o", "rounds=1"]
    assert cli.main([*base, "--quiet", "--json", str(serial)]) == 0
    assert cli.main([*base, "--quiet", "--workers", "2", "--json", str(pooled)]) == 0
    out = capsys.readouterr().out
    assert "first-seat" in out and "B - A" in out and "duplicate deals" in out
    a = figures(json.loads(serial.read_text()))
    b = figures(json.loads(pooled.read_text()))
    assert a == b and a["a"]["rules"] == [REV]


def test_cli_json_to_stdout_is_strict_json(capsys):
    code = cli.main(
        [
            *("compare", "golf", "--rules", "golf.jokers", "-n", "4", "-s", "1"),
            *("-o", "rounds=1", "--skill", "none", "--json", "-", "--quiet"),
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["same_deals"] is False and data["a"]["rules"] == ["golf.jokers"]


BAD = [
    (["golf", "--rules", "golf.bogus"], "golf.bogus"),
    (["golf", "--rules", "tonk.hit-blocks-drop"], "belongs to 'tonk'"),
    (["golf", "--vs", REV], f"belongs to '{PRES}'"),
    ([EUCHRE, "--rules", REV], f"belongs to '{PRES}'"),
    (["golf", "--games", "0"], "--games"),
    (["golf", "--games", "-1"], "--games"),
    (["golf", "--games", "abc"], "not a whole number"),
    (["golf", "--seed", "x"], "--seed"),
    (["golf", "--workers", "0"], "--workers"),
    (["golf", "--workers", "two"], "--workers"),
    (["golf", "--players", "1"], "CORE-SEAT-2"),
    (["golf", "--skill", "bogus"], "bogus"),
    (["golf", "--agents", "tonk-heuristic"], "plays tonk"),
    (["golf", "--rules", "golf.diagonal-pairs"], "layout"),
    (["golf", "-o", "rounds=abc"], "rounds"),
    (["golf", "--games", "10000001"], "10,000,000"),
    (["golf", "--plot", "out.txt"], "png"),
    (["nosuchgame"], "nosuchgame"),
]


@pytest.mark.parametrize(("args", "words"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_cli_bad_input_is_one_line_exit_2(args, words, capsys):
    assert cli.main(["compare", *args, "--quiet"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), captured.err
    assert words.lower() in lines[0].lower()
    assert "Traceback" not in captured.err + captured.out
    assert captured.out == ""


@pytest.mark.parametrize(
    "kw",
    [{"games": 0}, {"games": -1}, {"games": "10"}, {"games": 2.5}, {"seed": -1}, {"chunk": 0}],
)
def test_api_bad_numbers_raise_option_error(kw):
    with pytest.raises(cardcore.OptionError):
        cardcore.compare("golf", **{"games": 2, **kw})


def test_api_rule_of_another_game_is_refused_naming_both_games():
    with pytest.raises(cardcore.CardcoreError, match=f"belongs to '{PRES}', not 'golf'"):
        cardcore.compare("golf", rules=[REV], games=2)


# --- bugs -------------------------------------------------------------------------------


class _Boom:
    """An agent that raises on its fourth decision."""

    def __init__(self, seed: int | None = None) -> None:
        self.decisions = 0

    def choose(self, view: Any, legal: Any) -> Any:
        self.decisions += 1
        if self.decisions > 3:
            raise RuntimeError("kaboom")
        return legal[0]


def test_failing_agent_stops_the_cli_with_one_line_exit_1(capsys):
    cardcore.register("cardcore.agents", "designer-boom", _Boom)
    try:
        code = cli.main(
            [
                *("compare", "golf", "-n", "3", "-o", "rounds=1"),
                *("--agents", "designer-boom", "--skill", "none", "-q"),
            ]
        )
    finally:
        cardcore.unregister("cardcore.agents", "designer-boom")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1
    for words in ("configuration A", "game 0", "seed", "seat 0", "designer-boom", "kaboom"):
        assert words in err[0]


def test_agent_failure_reaches_the_caller_as_agent_failure():
    from cardcore.compare import AgentFailure

    cardcore.register("cardcore.agents", "designer-boom", _Boom)
    try:
        with pytest.raises(AgentFailure, match="kaboom"):
            cardcore.compare("golf", agents="designer-boom", games=2, skill=None)
    finally:
        cardcore.unregister("cardcore.agents", "designer-boom")


def test_different_decks_pair_as_far_as_the_sides_move_alike():
    """docs/house-rule-study.rst (corrected): with other decks the pairing narrows an interval
    only as far as the sides still move alike: random Golf players make the same number of
    moves whatever the deck, so the actions B - A is exactly 0 while each side's varies."""
    r = cardcore.compare(
        "golf",
        rules=["golf.jokers"],
        games=60,
        seed=1,
        options={"rounds": 1},
        agents="random",
        skill=None,
    )
    assert not r.same_deals
    a, b, d = r.a.actions, r.b.actions, r.diff["actions"]
    independent = ((a.high - a.low) ** 2 + (b.high - b.low) ** 2) ** 0.5 / 2
    assert independent > 1 and d.high - d.low == 0
