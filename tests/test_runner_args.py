"""play() and run_realtime() refuse arguments of the wrong kind before the first move
(before: an agent None raised AttributeError mid-game, agents=5 TypeError, a game 5
AttributeError, start=NaN IndexError, and max_actions=-1 or 1.5 and seed='x' were taken)."""

from __future__ import annotations

from typing import Any

import pytest

import cardcore
from cardcore import ArgumentError, OptionError, RandomAgent


def _golf() -> cardcore.Game:
    return cardcore.new_game("golf", 2, seed=1, options={"rounds": 1})


def _spit() -> cardcore.Game:
    return cardcore.new_game("spit", 2, seed=1)


@pytest.mark.parametrize(
    ("game", "agents", "kwargs", "error"),
    [
        (_golf, [None, None], {}, ArgumentError),
        (_golf, [RandomAgent(1), "random"], {}, ArgumentError),
        (_golf, 5, {}, ArgumentError),
        (_golf, "ab", {}, ArgumentError),
        (lambda: 5, [RandomAgent(1)] * 2, {}, ArgumentError),
        (_golf, [RandomAgent(1)] * 2, {"max_actions": -1}, OptionError),
        (_golf, [RandomAgent(1)] * 2, {"max_actions": 1.5}, OptionError),
        (_golf, [RandomAgent(1)] * 2, {"max_actions": -(10**5000)}, OptionError),
    ],
)
def test_play_refuses_bad_arguments(
    game: Any, agents: Any, kwargs: dict[str, Any], error: type
) -> None:
    with pytest.raises(error):
        cardcore.play(game(), agents, **kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seed": "x"},
        {"seed": 1.5},
        {"start": float("nan")},
        {"start": float("inf")},
        {"max_actions": -1},
    ],
    ids=repr,
)
def test_run_realtime_refuses_bad_arguments(kwargs: dict[str, Any]) -> None:
    game = _spit()
    with pytest.raises(OptionError):
        cardcore.run_realtime(game, [RandomAgent(1), RandomAgent(2)], **kwargs)
    assert game.version == 0


def test_runners_still_play() -> None:
    assert cardcore.play(_golf(), [RandomAgent(1), RandomAgent(2)]).reason == "rounds"
    result = cardcore.run_realtime(_spit(), [RandomAgent(1), RandomAgent(2)], seed=3, start=2)
    assert result is not None
    assert (
        cardcore.play(_golf(), [RandomAgent(1), RandomAgent(2)], max_actions=0).reason
        == "truncated"
    )


class _ResignsForTheNext:
    """Answers a resignation of the next seat: an agent must act for its own seat only."""

    games = None

    def choose(self, view: Any, legal: Any) -> cardcore.Action:
        return cardcore.Resign((view["seat"] + 1) % len(view["players"]))

    def plan(self, view: Any, legal: Any, now: float) -> cardcore.Plan:
        return cardcore.Plan(self.choose(view, legal), 0.1)


@pytest.mark.parametrize("name", ["golf", "spit"])
def test_an_agent_acting_for_another_seat_is_refused_by_name(name: str) -> None:
    game = cardcore.new_game(name, 2, seed=1)
    agents = [_ResignsForTheNext(), RandomAgent(seed=1)]
    runner = cardcore.run_realtime if game.ruleset.game.realtime else cardcore.play
    with pytest.raises(
        cardcore.IllegalActionError,
        match=r"agent at seat 0 \(_ResignsForTheNext\) .*'resign', an action of seat 1.*own seat only",
    ) as err:
        runner(game, agents)  # type: ignore[arg-type]
    assert err.value.rule_id == "CORE-TURN-1"
    assert game.version == 0 and not game.is_over  # seat 1 did not resign


class _Late:
    games = None

    def plan(self, view: Any, legal: Any, now: float) -> cardcore.Plan | None:
        return cardcore.Plan(legal[0], 1e300) if legal else None


class _Idle:
    games = None

    def plan(self, view: Any, legal: Any, now: float) -> None:
        return None


def test_run_realtime_names_a_plan_due_past_the_latest_time() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    with pytest.raises(
        cardcore.CardcoreError, match=r"agent at seat 0 \(_Late\).*past the latest time"
    ):
        cardcore.run_realtime(game, [_Late(), _Late()])
    assert game.version == 0


def test_run_realtime_says_when_agents_plan_nothing_though_seats_could_act() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    with pytest.raises(
        cardcore.StalledGameError,
        match=r"no agent plans an action \(seats with legal actions: \[0, 1\]\) \(CORE-RT-2\)",
    ):
        cardcore.run_realtime(game, [_Idle(), _Idle()])


def test_run_realtime_starts_no_earlier_than_the_game_s_last_time() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    for i in range(3):
        game.apply(game.legal_actions(game.to_act[0])[0], at=1e6 + i)
    agents = [cardcore.load_agent("spit-greedy")(seed=i) for i in range(2)]
    cardcore.run_realtime(game, agents, seed=3, start=0.0, max_actions=40)
    times = [at for _, _, at in game.record()["actions"]]
    assert len(times) > 3 and times == sorted(times) and times[3] >= 1e6 + 2


def test_a_clock_that_returns_no_time_is_named() -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    action = game.legal_actions(game.to_act[0])[0]
    for value in (True, float("nan"), "soon"):
        with pytest.raises(cardcore.IllegalActionError, match="the clock passed as at returned"):
            game.apply(action, at=lambda value=value: value)
    assert game.version == 0
