"""One convention for agents' parameters: keyword arguments in Python, NAME:KEY=VALUE specs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardcore
from cardcore import cli
from cardcore.search import ISMCTSAgent


def test_load_agent_builds_an_agent_with_parameters() -> None:
    assert cardcore.load_agent("ismcts") is ISMCTSAgent  # no parameters: the factory
    agent = cardcore.load_agent("ismcts", seed=7, iterations=200)
    assert isinstance(agent, ISMCTSAgent) and agent.iterations == 200
    spec = cardcore.load_agent("ismcts:iterations=50,seed=7,rollout=random")
    assert (spec.iterations, spec.rollout) == (50, "random")
    assert cardcore.load_agent("random", seed=3).choose({}, ["a", "b"]) in ("a", "b")  # type: ignore[arg-type]


def test_an_unknown_parameter_is_a_clear_error() -> None:
    with pytest.raises(
        cardcore.OptionError, match=r"agent 'ismcts' has no parameter 'iters'.*'iterations'"
    ):
        cardcore.load_agent("ismcts", iters=3)
    with pytest.raises(cardcore.OptionError, match="agent 'golf-greedy' has no parameter 'depth'"):
        cardcore.load_agent("golf-greedy:depth=2")
    with pytest.raises(cardcore.OptionError, match="iterations must be"):
        cardcore.load_agent("ismcts", iterations=-1)


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("random", ("random", {})),
        ("ismcts:iterations=200,seed=7", ("ismcts", {"iterations": 200, "seed": 7})),
        ("ismcts: time=0.5 , observe=false", ("ismcts", {"time": 0.5, "observe": False})),
        ("x:a=none,b='7',c=text", ("x", {"a": None, "b": "7", "c": "text"})),
    ],
)
def test_specs_are_read_into_a_name_and_typed_parameters(
    spec: str, expected: tuple[str, dict[str, object]]
) -> None:
    assert cardcore.parse_agent_spec(spec) == expected


@pytest.mark.parametrize("spec", ["", ":a=1", "ismcts:iterations", "ismcts:a=1,a=2", "ismcts:1x=2"])
def test_malformed_specs_are_refused(spec: str) -> None:
    with pytest.raises(cardcore.OptionError):
        cardcore.parse_agent_spec(spec)


def test_a_list_of_specs_splits_per_seat() -> None:
    assert cardcore.split_agent_specs("ismcts:iterations=200,seed=7,random") == [
        "ismcts:iterations=200,seed=7",
        "random",
    ]
    assert cardcore.split_agent_specs("random, golf-greedy") == ["random", "golf-greedy"]


def test_every_agent_lists_its_parameters() -> None:
    for name in cardcore.available_agents():
        params = cardcore.agent_parameters(name)
        assert "seed" in params, name
    assert cardcore.agent_parameters("ismcts")["iterations"] == 200


def test_simulate_takes_specs(tmp_path: Path) -> None:
    summary = cardcore.simulate(
        "golf", games=2, players=2, agents=["ismcts:iterations=3", "random"], options={"rounds": 1}
    )
    assert summary.games == 2
    out = tmp_path / "s.json"
    argv = [
        "simulate",
        "golf",
        "-n",
        "2",
        "-o",
        "rounds=1",
        "--agents",
        "ismcts:iterations=3,seed=1,random",
    ]
    assert cli.main([*argv, "-q", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["agents"] == ["ismcts:iterations=3,seed=1", "random"]


@pytest.mark.parametrize(
    "agents, message",
    [
        ("ismcts:iters=3", "has no parameter 'iters'"),
        ("ismcts:iterations=0", "iterations must be"),
        ("random:seed=1,bogus", "no agent called 'bogus'"),
    ],
)
def test_the_command_line_refuses_bad_specs_in_one_line(
    agents: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["simulate", "golf", "-n", "1", "--agents", agents]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and message in err and "Traceback" not in err
