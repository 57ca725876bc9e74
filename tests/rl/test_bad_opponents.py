"""Review findings: a failing opponent, ``opponents=None``, ``last()`` out of a game, foreign encodings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore import ArgumentError, CardcoreError, IllegalActionError, OptionError
from cardcore.rl import Config, Match, aec_env, encoding_for, gym_env, observe, vector_env

GOLF1 = {"rounds": 1}


class _Answers:
    """An opponent agent that answers what *answer* makes of its legal actions."""

    def __init__(self, answer: Callable[[Sequence[Any]], Any]) -> None:
        self.answer = answer

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        return self.answer(legal)

    def plan(self, view: Any, legal: Sequence[Any], now: float) -> Any:
        return self.answer(legal)


def _first(mask: Any) -> int:
    return int(np.flatnonzero(mask)[0])


def _another_seats_action(legal: Sequence[Any]) -> Any:
    return cardcore.new_game("golf", 2, seed=0).legal_actions(0)[0]


@pytest.mark.parametrize(
    ("game", "answer"),
    [
        ("golf", lambda legal: str(legal[0])),
        ("golf", lambda legal: None),
        ("golf", _another_seats_action),
        ("speed", lambda legal: legal[0]),  # a bare action where a Plan is due
        ("speed", lambda legal: cardcore.Plan("stuck", 0.3)),  # text: was retried as stale
        ("speed", lambda legal: cardcore.Plan(legal[0], "soon")),
    ],
    ids=["text", "None", "other-seat", "bare-action", "plan-of-text", "bad-delay"],
)
def test_an_opponent_that_answers_no_legal_action_is_named_and_the_game_needs_a_reset(
    game: str, answer: Callable[[Sequence[Any]], Any]
) -> None:
    env = gym_env(game, 2, opponents=_Answers(answer), options=GOLF1 if game == "golf" else None)
    obs, _ = env.reset(seed=1)
    with pytest.raises(CardcoreError, match=r"the opponent in seat 1 .*; call reset\(\)"):
        for _ in range(5):
            obs, *_ = env.step(_first(obs["action_mask"]))
    for _ in range(2):  # was a raw IndexError ('pop from empty list') on every later step
        with pytest.raises(IllegalActionError, match=r"opponent in seat 1 failed: call reset"):
            env.step(_first(obs["action_mask"]))
    obs, _ = env.reset(seed=2)
    assert obs["action_mask"].any()


def test_a_failing_opponent_in_a_batch_names_its_game() -> None:
    envs = vector_env("golf", 3, opponents=_Answers(lambda legal: None), options=GOLF1)
    obs, _ = envs.reset(seed=1)
    with pytest.raises(CardcoreError, match=r"^game 0 of 3: the opponent in seat 1"):
        for _ in range(3):
            obs, *_ = envs.step([_first(m) for m in obs["action_mask"]])
    with pytest.raises(IllegalActionError, match=r"^game 0 of 3: the opponent in seat 1 failed"):
        envs.step([_first(m) for m in obs["action_mask"]])


@pytest.mark.parametrize(
    "opponents", [None, [None], ["random", None]], ids=["None", "[None]", "mixed"]
)
def test_none_is_no_opponent(opponents: Any) -> None:
    players = 3 if isinstance(opponents, list) and len(opponents) == 2 else 2
    with pytest.raises(OptionError, match="not None"):
        gym_env("golf", players, opponents=opponents)
    with pytest.raises(OptionError, match="not None"):
        vector_env("golf", 2, players, opponents=opponents)


def test_a_refused_match_decision_changes_nothing() -> None:
    match = Match(Config("golf", 2, options=GOLF1), 1)
    legal = match.legal(match.seat)
    for bad in ("flip 0", None, type(legal[0])(seat=1, pos=0)):  # type: ignore[call-arg]
        with pytest.raises(CardcoreError):
            match.act(bad)
        assert match.seat == 0 and match.game.version == 0
    match.act(legal[0])
    assert match.game.version == 1


def test_last_outside_a_game_is_a_cardcore_error() -> None:
    env = aec_env("golf", 2, options=GOLF1)
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        env.last()  # was AttributeError: agent_selection
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    with pytest.raises(IllegalActionError, match="every agent is done"):
        env.last()  # was KeyError: 'player_0'


def test_observe_refuses_an_encoding_of_another_configuration() -> None:
    golf = cardcore.new_game("golf", 2, seed=1)
    two_seats = encoding_for(golf)
    foreign = [
        (cardcore.new_game("golf", 4, seed=1), two_seats),  # was silently 253 features
        (cardcore.new_game("golf", 2, seed=1, options={"layout": 8}), two_seats),
        (golf, encoding_for(cardcore.new_game("tonk", 2, seed=1))),
        (golf, 3),
    ]
    for game, encoding in foreign:
        with pytest.raises(ArgumentError, match="is not an encoding of this"):
            observe(game, 0, encoding=encoding)
    same = observe(golf, 0, encoding=encoding_for(cardcore.new_game("golf", 2, seed=9)))
    assert same["observation"].shape == (253,)
    with pytest.raises(ArgumentError, match="encoding_for takes a Game"):
        encoding_for("golf")  # type: ignore[arg-type]


def test_a_batched_games_final_info_says_whether_it_stalled_as_the_single_seat_env_does() -> None:
    envs = vector_env("golf", 2, options=GOLF1)
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(500):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]]
        obs, _, terminated, truncated, infos = envs.step(actions)
        if (terminated | truncated).any():
            break
    i = int(np.flatnonzero(terminated | truncated)[0])
    assert infos["_final_info"][i] and infos["final_info"][i]["stalled"] is False
    assert infos["final_info"][i]["result"]["reason"] == "rounds"


class _Dropper:
    """A Tonk opponent that drops whenever it may (so it often ends the hand at once)."""

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        return next((a for a in legal if str(a) == "drop"), legal[0])


def test_games_the_opponents_end_before_the_learner_acts_are_reported_not_hidden() -> None:
    env = gym_env("tonk", 2, opponents=_Dropper())
    skipped: list[dict[str, Any]] = []
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        assert obs["action_mask"].any()  # every episode still starts with a decision
        skipped += info.get("skipped", [])
    played = [g for g in skipped if g["actions"] > 0]
    assert played, "no game ended by the opponent's first drop was reported"
    for game in played:
        payouts = game["result"]["payouts"]
        assert game["reward"] == (1.0 if 0 in game["result"]["winners"] else -1.0)
        assert payouts[0] != 0 and "seed" not in game  # the seed is privileged
    envs = vector_env("tonk", 4, opponents=_Dropper())
    flagged = []
    for seed in range(10):
        _, infos = envs.reset(seed=seed)
        if "_skipped" in infos:
            flagged += [
                g for i, games in enumerate(infos["skipped"]) if infos["_skipped"][i] for g in games
            ]
    assert any(g["actions"] > 0 for g in flagged)


def test_a_real_time_opponents_numpy_delay_is_a_delay() -> None:
    """An opponent's NumPy delay plays as its Python float does: the same observations."""

    def observations(delay: Any) -> list[bytes]:
        opponent = _Answers(lambda legal: cardcore.Plan(legal[0], delay))
        env = gym_env("speed", 2, opponents=opponent)
        obs, _ = env.reset(seed=1)
        seen = [obs["observation"].tobytes()]
        for _ in range(20):
            obs, _, terminated, truncated, _ = env.step(_first(obs["action_mask"]))
            seen.append(obs["observation"].tobytes())
            if terminated or truncated:
                break
        return seen

    assert observations(0.4) != observations(5.0)  # the opponent's delay shows
    for kind, value in ((np.float64, 0.4), (np.float32, 0.4), (np.int64, 1)):
        assert observations(kind(value)) == observations(float(kind(value)))


def test_choices_are_empty_once_the_game_is_over() -> None:
    env = aec_env("golf", 2, options=GOLF1)
    env.reset(seed=3)
    assert set(env.choices()) == {10, 11, 12, 13, 14, 15}
    rng = np.random.default_rng(0)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.choices() == {}  # was SeatError: no seat -1


class _FailsOnAFreshGame:
    """Plays the first legal action, but raises on a new game's first move once armed."""

    armed = False

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        if self.armed and view["version"] == 0:
            raise RuntimeError("no")
        return legal[0]


def test_a_batched_game_whose_opponent_fails_as_it_is_dealt_again_is_named() -> None:
    opponent = _FailsOnAFreshGame()
    envs = vector_env("tonk", 2, opponents=opponent)  # the cut makes it first in some deals
    obs, _ = envs.reset(seed=1)
    opponent.armed = True
    with pytest.raises(
        CardcoreError, match=r"^game \d of 2 \(dealt again\): the opponent in seat 1"
    ):
        for _ in range(200):
            obs, *_ = envs.step([_first(m) for m in obs["action_mask"]])
