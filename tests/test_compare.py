"""``cardcore.compare`` and ``cardcore compare``: two configurations on the same seeds."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import cli
from cardcore.compare import Comparison, default_agent

GOLF1 = {"rounds": 1}


@pytest.fixture(scope="module")
def jokers() -> Comparison:
    return cardcore.compare("golf", rules=["golf.jokers"], options=GOLF1, games=24, seed=3)


def test_the_result_is_typed_and_complete(jokers: Comparison) -> None:
    assert (jokers.game, jokers.players, jokers.games) == ("golf", 2, 24)
    assert jokers.a.rules == ("golf.jokers",) and jokers.b.rules == ()
    assert jokers.a.agents == ("golf-greedy", "golf-greedy") == jokers.b.agents
    for side in (jokers.a, jokers.b):
        assert side.games == 24 and side.rounds.mean == 1.0
        assert side.actions.low <= side.actions.mean <= side.actions.high
        assert side.reasons["rounds"].mean == 1.0
        assert side.skill is not None and side.skill.mean > 0.5  # golf-greedy beats random
        assert len(side.seat_wins) == 2 and abs(sum(e.mean for e in side.seat_wins) - 1) < 1e-9
    assert set(jokers.diff) >= {"first_seat", "actions", "rounds", "spread", "skill"}
    assert jokers.skill_agents == ("golf-greedy", "random")


def test_jokers_change_the_deck_so_the_deals_differ(jokers: Comparison) -> None:
    assert not jokers.same_deals and "the decks differ (54 and 52 cards)" in jokers.deals


def test_a_scoring_rule_keeps_duplicate_deals() -> None:
    result = cardcore.compare("golf", rules=["golf.hard"], options=GOLF1, games=6, skill=None)
    assert result.same_deals and "duplicate deals" in result.deals
    assert result.a.skill is None and "skill" not in result.diff


def test_the_same_configuration_twice_differs_by_nothing() -> None:
    result = cardcore.compare("tonk", games=12, skill=None)
    assert result.same_deals
    for key in ("actions", "rounds", "spread"):
        assert result.diff[key].mean == 0.0 == result.diff[key].high - result.diff[key].low
    # a share's paired interval (Newcombe's) is never zero wide, but every pair agreeing
    # (correlation 1) makes it narrower than either side's own
    first, own = result.diff["first_seat"], result.a.first_seat
    assert first.mean == 0.0 and first.low == -first.high
    assert first.high - first.low < own.high - own.low


def test_any_executor_gives_the_same_result(jokers: Comparison) -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        again = cardcore.compare(
            "golf", rules=["golf.jokers"], options=GOLF1, games=24, seed=3, executor=pool, chunk=5
        )
    assert _figures(again) == _figures(jokers)


def _figures(result: Comparison) -> dict[str, Any]:
    """Everything but the agents' timings (which no two runs share)."""
    data = result.to_json()
    for side in ("a", "b"):
        for key in ("slowest", "decisions_per_s"):
            del data[side][key]
    return data


def test_json_and_table(jokers: Comparison) -> None:
    data = json.loads(json.dumps(jokers.to_json()))
    assert data["a"]["rules"] == ["golf.jokers"] and data["diff"]["actions"]["n"] == 24
    table = jokers.table()
    assert "first-seat advantage" in table and "B - A (paired)" in table
    assert "A: golf.jokers; agents golf-greedy; options rounds=1" in table


def test_agent_line_ups_on_one_rule_set_rotate_seats() -> None:
    result = cardcore.compare(
        "golf",
        agents=["golf-greedy", "random"],
        vs_agents="random",
        options=GOLF1,
        games=10,
        skill=None,
    )
    assert result.a.agents == ("golf-greedy", "random") and result.b.agents == ("random", "random")
    assert result.same_deals  # the same rules: the same deals


def test_a_game_without_a_history_of_rounds_counts_one() -> None:
    pytest.importorskip("cardcore_gofish")  # the example, installed by CI
    result = cardcore.compare("gofish", players=3, games=3, skill=None)
    assert result.a.rounds.mean == 1.0 and result.a.reasons  # ended by its rules, not truncated


def test_the_default_agent_is_the_games_own() -> None:
    assert default_agent("golf") == "golf-greedy" and default_agent("tonk") == "tonk-heuristic"
    assert default_agent("racegame") == "random"


def test_move_time_overruns_are_counted_per_agent() -> None:
    result = cardcore.compare(
        "tonk", games=4, move_time=1e-9, skill=None, agents=["tonk-heuristic", "random"]
    )
    assert result.a.overruns[0] > 0 and result.b.overruns[0] > 0  # every decision takes longer
    assert "decisions over 1e-09 s" in result.table()


class Boom:
    """An agent that fails at its first decision."""

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed

    def choose(self, view: Mapping[str, Any], legal: Sequence[cardcore.Action]) -> cardcore.Action:
        raise ValueError("boom")


def test_an_agent_that_raises_stops_the_run_naming_its_seat() -> None:
    cardcore.register("cardcore.agents", "boom-16", Boom)
    try:
        with pytest.raises(cardcore.CardcoreError) as info:
            cardcore.compare("tonk", vs_agents=["random", "boom-16"], games=3, skill=None)
        text = str(info.value)
        assert "configuration B" in text and "at seat " in text and "'boom-16'" in text
        assert "ValueError: boom" in text and "seed" in text
    finally:
        cardcore.unregister("cardcore.agents", "boom-16")


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"games": 0}, cardcore.OptionError, "games must be"),
        ({"games": -2}, cardcore.OptionError, "games must be"),
        ({"rules": ["golf.nope"]}, cardcore.UnknownPluginError, "no house rule called 'golf.nope'"),
        (
            {"vs": ["golf.no-final-turns", "golf.final-stock-only"]},
            cardcore.RuleConflictError,
            "cannot be combined",
        ),
        ({"rules": ["golf.diagonal-pairs"]}, cardcore.OptionError, "applies only with layout"),
        ({"agents": "nobody"}, cardcore.UnknownPluginError, "no agent called 'nobody'"),
        ({"agents": "golf-greedy:depth=3"}, cardcore.OptionError, "has no parameter 'depth'"),
        ({"players": 2, "vs_agents": ["random", "random", "random"]}, cardcore.OptionError, "one agent spec per seat"),
        ({"move_time": 0}, cardcore.OptionError, "move_time must be"),
        ({"skill": "strong"}, cardcore.OptionError, "skill must be"),
    ],
)
def test_bad_input_is_one_clear_error(
    kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        cardcore.compare("golf", **kwargs)


def test_an_unknown_game_lists_the_installed_ones() -> None:
    with pytest.raises(cardcore.UnknownPluginError, match=r"installed: .*golf"):
        cardcore.compare("hearts")


# -- the command ---------------------------------------------------------------------------------


def test_the_command_prints_a_table_and_writes_json_and_a_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rich")
    out, png = tmp_path / "c.json", tmp_path / "c.png"
    argv = ["compare", "tonk", "--without", "tonk.natural-49-50", "-n", "8", "-p", "3", "-q"]
    plot = ["--plot", str(png)] if _has_matplotlib() else []
    assert cli.main([*argv, "--json", str(out), *plot]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "first-seat" in text and "duplicate deals" in text
    data = json.loads(out.read_text())
    assert data["a"]["without"] == ["tonk.natural-49-50"] and data["players"] == 3
    assert not plot or png.read_bytes()[:4] == b"\x89PNG"


def test_json_to_stdout_keeps_stdout_clean(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rich")
    assert (
        cli.main(["compare", "golf", "-o", "rounds=1", "-n", "3", "--skill", "none", "--json", "-"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "golf" and data["skill_agents"] is None


def test_a_failing_agent_is_one_line_on_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("rich")
    cardcore.register("cardcore.agents", "boom-16", Boom)
    try:
        assert (
            cli.main(["compare", "tonk", "-n", "2", "-q", "--agents", "boom-16", "--skill", "none"])
            == 1
        )
    finally:
        cardcore.unregister("cardcore.agents", "boom-16")
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    # every seat is boom-16: the one named is the one that acts first in the game it names
    found = re.search(r"game 0 \(seed (\d+)\): agent 'boom-16' at seat (\d+) raised", err)
    assert found is not None, err
    first = cardcore.new_game("tonk", 2, seed=int(found[1])).to_act[0]
    assert int(found[2]) == first


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def test_dask_gives_the_same_figures() -> None:
    distributed = pytest.importorskip("dask.distributed")
    kw: dict[str, Any] = {
        "rules": ["golf.hard"],
        "options": GOLF1,
        "games": 6,
        "skill": None,
        "seed": 2,
    }
    alone = cardcore.compare("golf", **kw)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = cardcore.compare("golf", executor=client.get_executor(), chunk=2, **kw)
    assert _figures(on_dask) == _figures(alone)


def test_a_mixed_line_up_reports_each_agents_wins_over_every_seat_it_held() -> None:
    """Seats rotate game by game, so per-seat wins cannot say which agent is stronger;
    ``agent_wins`` can, and matches a count made from the games themselves."""
    cmp = cardcore.compare(
        "golf", agents=["golf-greedy", "random"], vs=["golf.jokers"], options=GOLF1,
        games=16, seed=5, skill=None,
    )  # fmt: skip
    for side in (cmp.a, cmp.b):
        wins = side.agent_wins
        assert list(wins) == ["golf-greedy", "random"]
        assert wins["golf-greedy"].mean + wins["random"].mean == pytest.approx(1.0)
        assert wins["golf-greedy"].mean > 0.8  # greedy beats random from either seat
        assert wins["golf-greedy"].n == 16
        # per seat, the same games: each seat is greedy's in half of them
        assert sum(e.mean for e in side.seat_wins) == pytest.approx(1.0)
    assert {"agent:golf-greedy", "agent:random"} <= set(cmp.diff)
    rows = {r[0]: r for r in cmp_rows(cmp)}
    assert rows["wins: random"][1].startswith(f"{100 * cmp.a.agent_wins['random'].mean:.1f}%")
    data = cmp.to_json()
    assert set(data["a"]["agent_wins"]) == {"golf-greedy", "random"}


def test_one_agent_in_every_seat_reports_no_agent_wins(jokers: Comparison) -> None:
    assert jokers.a.agent_wins == {} and not any(k.startswith("agent:") for k in jokers.diff)


def cmp_rows(cmp: Comparison) -> list[tuple[str, str, str, str]]:
    from cardcore.compare._report import rows_of

    return rows_of(cmp)


def test_agents_as_text_of_several_specs_is_one_per_seat_as_on_the_command_line() -> None:
    text = cardcore.compare("golf", agents="golf-greedy,random", options=GOLF1, games=2, skill=None)
    listed = cardcore.compare(
        "golf", agents=["golf-greedy", "random"], options=GOLF1, games=2, skill=None
    )
    assert text.a.agents == ("golf-greedy", "random") == listed.a.agents
    assert (text.a.actions, text.a.agent_wins) == (listed.a.actions, listed.a.agent_wins)
    one = cardcore.compare(
        "golf", agents="ismcts:iterations=3,seed=2", options=GOLF1, games=1, skill=None
    )
    assert one.a.agents == ("ismcts:iterations=3,seed=2",) * 2  # parameters stay with their agent
    sim = cardcore.simulate("golf", games=2, players=2, agents="golf-greedy,random", seed=1)
    assert sim.agents == ("golf-greedy", "random")


def test_the_command_line_names_the_configuration_and_keeps_the_json_apart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("rich")
    both = ["--rules", "golf.jokers,golf.bonus-twos"]
    assert cli.main(["compare", "golf", "-n", "2", *both]) == 2
    assert (
        "configuration A: house rules 'golf.jokers' and 'golf.bonus-twos'"
        in capsys.readouterr().err
    )
    same = str(tmp_path / "out.png")
    assert cli.main(["compare", "golf", "-n", "2", "--plot", same, "--json", same]) == 2
    assert "name the same file" in capsys.readouterr().err
    assert not (tmp_path / "out.png").exists()  # refused before any game


def test_a_record_without_its_game_says_the_field_is_missing() -> None:
    record = cardcore.new_game("golf", 2, seed=1).record()
    del record["game"]
    with pytest.raises(cardcore.CorruptStateError, match="record field 'game' is missing"):
        cardcore.replay(record)
