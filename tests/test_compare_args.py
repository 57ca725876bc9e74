"""compare() and simulate() refuse bad arguments with cardcore errors before playing anything."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import cardcore
from cardcore import ArgumentError, CardcoreError, IllegalActionError, OptionError

GOLF1 = {"rounds": 1}


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"rules": "golf.jokers"}, ArgumentError, r"^rules takes a list of names"),  # was 'g'
        ({"vs": "golf.jokers"}, ArgumentError, r"^vs takes a list of names"),
        ({"without": "golf.x"}, ArgumentError, r"^without takes a list of names"),
        ({"vs_without": None}, ArgumentError, r"^vs_without takes a list of names"),
        ({"rules": None}, ArgumentError, r"^rules takes a list of names"),  # was TypeError
        ({"agents": 3}, OptionError, r"^agents must be an agent spec"),  # was TypeError
        ({"vs_agents": 3}, OptionError, r"^vs_agents must be an agent spec"),
        ({"executor": 3}, OptionError, r"^executor must be"),  # was AttributeError
        ({"progress": 3}, OptionError, r"^progress must be"),  # was TypeError, after a chunk
        ({"chunk": 0}, OptionError, r"^chunk must be"),  # was taken as 1
        ({"chunk": -2}, OptionError, r"^chunk must be"),
        ({"chunk": 1.5}, OptionError, r"^chunk must be"),
        ({"move_time": float("nan")}, OptionError, r"^move_time must be a finite"),
        ({"move_time": float("inf")}, OptionError, r"^move_time must be a finite"),
        ({"vs_options": []}, OptionError, r"^vs_options must be a mapping"),  # was A's options
    ],
)
def test_compare_refuses_bad_arguments(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        cardcore.compare("golf", games=2, options=GOLF1, skill=None, **kwargs)


def test_compare_still_takes_good_arguments() -> None:
    with ThreadPoolExecutor(2) as pool:
        result = cardcore.compare(
            "golf",
            rules=("golf.hard",),
            games=3,
            options=GOLF1,
            skill=None,
            executor=pool,
            chunk=2,
            move_time=5,
            progress=lambda n: None,
        )
    assert result.same_deals and result.a.games == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"agents": 3}, r"^agents must be an agent spec"), ({"progress": 3}, r"^progress")],
)
def test_simulate_refuses_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        cardcore.simulate("golf", games=2, **kwargs)


class _Liar:
    """Answers text where an Action (or a Plan of one) is due."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Any, legal: Any) -> Any:
        return "flip 0"

    def plan(self, view: Any, legal: Any, now: float) -> Any:
        return cardcore.Plan("stuck", 0.3)  # type: ignore[arg-type]


@pytest.fixture
def _liar() -> Any:
    cardcore.register("cardcore.agents", "test-liar", _Liar)
    yield
    cardcore.unregister("cardcore.agents", "test-liar")


@pytest.mark.usefixtures("_liar")
def test_an_agent_that_answers_no_legal_action_is_named() -> None:
    with pytest.raises(CardcoreError, match=r"agent 'test-liar' at seat 0 answered 'flip 0'"):
        cardcore.compare("golf", games=2, agents=["test-liar", "random"], options=GOLF1, skill=None)
    # real time: was retried as stale until the game counted as "stalled", silently
    with pytest.raises(CardcoreError, match=r"agent 'test-liar' at seat 0 planned Plan"):
        cardcore.compare("speed", games=2, agents=["test-liar", "random"], skill=None)
    with pytest.raises(
        IllegalActionError, match=r"^in golf game 0 \(seed \d+\): the agent at seat 0"
    ):
        cardcore.simulate("golf", games=2, agents=["test-liar", "random"], options=GOLF1)
    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(IllegalActionError, match=r"^the agent at seat 0 \(_Liar\) answered: "):
        cardcore.play(game, [_Liar(), cardcore.RandomAgent(1)])
    assert game.version == 0


def test_plot_needs_a_path() -> None:
    result = cardcore.compare("golf", games=2, options=GOLF1, skill=None)
    for path in (3, b"x.png"):  # (None: the Figure itself, for a notebook, since 2026-12-19)
        with pytest.raises(ArgumentError, match="plot writes to a file path"):
            result.plot(path)  # type: ignore[arg-type]


# -- simulate and compare read and refuse their shared arguments alike ----------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 0},
        {"players": 1.5},
        {"players": 2**80},
        {"seed": -1},
        {"chunk": 0},
        {"options": "x"},
        {"executor": 3},
        {"progress": 3},
        {"agents": 3},
        {"players": 2, "agents": [1, 2]},
        {"players": 3, "agents": "random,random"},
    ],
)
def test_simulate_and_compare_word_a_bad_argument_alike(kwargs: dict[str, Any]) -> None:
    with pytest.raises(OptionError) as sim:
        cardcore.simulate("golf", games=2, **kwargs)
    with pytest.raises(OptionError) as cmp:
        cardcore.compare("golf", games=2, skill=None, **kwargs)
    assert str(sim.value) == str(cmp.value)


@pytest.mark.parametrize(
    ("game", "players", "seats"),
    [("golf", 0, "2 to 64"), ("golf", 65, "2 to 64"), ("speed", 65, "exactly 2")],
)
def test_a_count_beyond_any_game_names_the_games_seats(game: str, players: int, seats: str) -> None:
    for run in (cardcore.simulate, cardcore.compare):
        with pytest.raises(OptionError, match=rf"{game} takes {seats} players, not {players} "):
            run(game, games=1, players=players)


def test_a_list_of_one_agent_fills_every_seat_in_simulate_and_compare() -> None:
    sim = cardcore.simulate("golf", games=2, players=3, agents=["golf-greedy"])
    assert sim.agents == ("golf-greedy",) * 3
    cmp = cardcore.compare("golf", games=2, players=3, agents=["golf-greedy"], skill=None)
    assert cmp.a.agents == ("golf-greedy",) * 3


def test_compare_names_rules_switched_off_by_name_too() -> None:
    c = cardcore.compare(
        "tonk", without=["TONK-49-1"], vs_without=["tonk.natural-49-50"], games=4, skill=None
    )
    assert c.a.without == c.b.without == ("tonk.natural-49-50",)
    assert c.diff["actions"].mean == 0.0 and c.same_deals
    both = cardcore.compare(
        "golf", rules=["golf.jokers", "GOLF-SCORE-2", "golf.hard"], games=1, skill=None
    )
    assert both.a.rules == ("golf.hard", "golf.jokers")  # sorted, each once, as Game.rules


def test_one_game_sd_is_null_in_json_and_a_dash_in_the_table() -> None:
    import json
    import math

    from rich.console import Console

    from cardcore.cli.render import render_summary

    one = cardcore.simulate("tonk", games=1, seed=1)
    assert one.sd_payouts is not None
    assert all(math.isnan(x) for x in (*one.sd_scores, *one.sd_payouts))
    data = one.to_json()
    assert data["sd_scores"] == [None, None] and data["sd_payouts"] == [None, None]
    json.dumps(data, allow_nan=False)  # strict JSON
    console = Console(width=120, record=True)
    console.print(render_summary(one))
    assert "–" in console.export_text() and "nan" not in console.export_text()
    two = cardcore.simulate("tonk", games=2, seed=1)  # two games: a spread again
    assert all(math.isfinite(x) for x in two.sd_scores)
    assert None not in two.to_json()["sd_scores"]
