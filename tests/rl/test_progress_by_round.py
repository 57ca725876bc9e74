"""``rewards="score"`` reads a ``progress_by_round`` encoding's standing only as a round ends.

A researcher's profile found the score reward rebuilding the spectator's whole table after
every action (28% of a Golf step) to read totals that change once a round. Golf and Tonk
now declare ``progress_by_round``: the rewards must be exactly those read after every
action, for every layout and every house rule that could move a standing mid-round.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore.rl import aec_env, encoding_for
from cardcore_golf.encoding import GolfEncoding
from cardcore_tonk.encoding import TonkEncoding

GOLF_RULES = [
    "golf.bonus-twos",
    "golf.ender-penalty-10",
    "golf.ender-penalty-lowest",
    "golf.four-of-a-kind-columns",
    "golf.hard",
    "golf.jokers",
    "golf.no-final-turns",
    "golf.remove-columns",
    "golf.snowman",
]
TONK_RULES = [
    "tonk.deal-shows-every-hand",
    "tonk.double-needs-spread",
    "tonk.hit-blocks-drop",
    "tonk.must-lay-down",
    "tonk.natural-49-50",
    "tonk.no-upcard",
    "tonk.quiet-round-any-turns",
    "tonk.stock-out-discard-only",
    "tonk.void-deal-counts",
]

CASES: list[tuple[str, int, dict[str, Any], Sequence[str]]] = [
    ("golf", 2, {"rounds": 3}, ()),
    ("golf", 3, {"rounds": 2, "layout": 9}, ()),
    ("golf", 2, {"rounds": 2, "layout": "4h"}, ()),
    ("golf", 2, {"rounds": 2, "layout": 4}, ()),
    ("golf", 2, {"rounds": None, "points_limit": 40}, ()),
    ("golf", 2, {"rounds": 2, "max_turns": 6}, ()),
    *[("golf", 2, {"rounds": 2}, (rule,)) for rule in GOLF_RULES],
    ("tonk", 3, {"hands": 4}, ()),
    ("tonk", 2, {"hands": 3}, ()),
    *[("tonk", 3, {"hands": 3}, (rule,)) for rule in TONK_RULES],
]


def _rewards(
    game: str, players: int, options: Mapping[str, Any], rules: Sequence[str], seed: int
) -> Iterator[tuple[str, float, bool]]:
    env = aec_env(game, players, options=options, rules=list(rules), rewards="score")
    env.reset(seed=seed)
    rng = random.Random(seed)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        yield agent, reward, terminated or truncated
        if terminated or truncated:
            env.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize(("game", "players", "options", "rules"), CASES)
def test_score_rewards_by_round_equal_those_read_after_every_action(
    game: str,
    players: int,
    options: dict[str, Any],
    rules: Sequence[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for seed in (3, 17):
        by_round = list(_rewards(game, players, options, rules, seed))
        with monkeypatch.context() as m:
            m.setattr(GolfEncoding, "progress_by_round", False)
            m.setattr(TonkEncoding, "progress_by_round", False)
            every_action = list(_rewards(game, players, options, rules, seed))
        assert by_round == every_action
        assert any(r for _, r, _ in by_round)  # something was paid: the test can fail


def test_golf_and_tonk_declare_it_and_golf_counts_rounds_without_its_history() -> None:
    for name, players in (("golf", 2), ("tonk", 3)):
        enc = encoding_for(cardcore.new_game(name, players, seed=1))
        assert getattr(enc, "progress_by_round", False) is True
    game = cardcore.new_game("golf", 2, options={"rounds": 3}, seed=5)
    rng = random.Random(5)
    counts = []
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
        counts.append(game.logic.rounds_played(game.state))
        assert counts[-1] == len(game.history(None))  # as the default counts them
    assert counts[-1] == 3 and counts == sorted(counts)


def test_an_encoding_without_the_flag_is_read_after_every_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(GolfEncoding, "progress_by_round", False)
    reads: list[int] = []
    real = GolfEncoding.progress

    def counted(self: GolfEncoding, view: Mapping[str, Any]) -> Sequence[float] | None:
        reads.append(1)
        return real(self, view)

    monkeypatch.setattr(GolfEncoding, "progress", counted)
    steps = sum(1 for _ in _rewards("golf", 2, {"rounds": 1}, (), 3))
    flagged = len(reads)
    monkeypatch.setattr(GolfEncoding, "progress_by_round", True)
    reads.clear()
    sum(1 for _ in _rewards("golf", 2, {"rounds": 1}, (), 3))
    assert flagged >= steps - 3  # every action (the finished agents' last() steps apply none)
    assert len(reads) <= 3  # the first action, and the end of the one round (the game's end)
