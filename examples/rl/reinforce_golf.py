"""Train a linear softmax policy on Golf with REINFORCE (numpy only), then measure it.

The learner holds one seat of a two-player, one-hole Golf game (layout 6) in a batch
of games (``cardcore.rl.vector_env``): first against the ``random`` agent, then against
the heuristic ``golf-greedy`` (``--opponents``, one training phase each). Its policy is
``softmax(W x + b)`` over the legal actions (the action mask), where ``x`` is the
observation of ``cardcore.rl``; it learns from ``rewards="score"`` (the hole's score
difference over 10) with a running-mean baseline and Adam.

Afterwards the trained and the untrained policy (the same random initial weights)
play as agents (``PolicyAgent``, which reads the seat's view like any agent) against
each other, against ``random`` and against the heuristic ``golf-greedy``, alternating
seats. Each line gives the win rate (a tie counts half) and the mean score margin per
hole, each with its 95% confidence interval.

Run: ``python examples/rl/reinforce_golf.py [--iterations N] [--batch B] [--eval G] [--seed S]
[--opponents A,B]`` (the defaults take about 4 CPU minutes; CI runs a tiny size).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

import cardcore
from cardcore.rl import Config, Encoding, vector_env

GAME = "golf"
OPTIONS = {"rounds": 1}  # one hole per game
Array = npt.NDArray[np.float64]


class LinearPolicy:
    """``softmax(W x + b)`` restricted to the legal actions."""

    def __init__(self, size: int, actions: int, rng: np.random.Generator) -> None:
        self.w: Array = rng.normal(0.0, 0.05, (actions, size))
        self.b: Array = np.zeros(actions)

    def copy(self) -> LinearPolicy:
        new = LinearPolicy.__new__(LinearPolicy)
        new.w, new.b = self.w.copy(), self.b.copy()
        return new

    def probs(self, x: npt.NDArray[Any], mask: npt.NDArray[Any]) -> Array:
        """Action probabilities for a batch of observations *x* (rows) and masks."""
        logits = x @ self.w.T + self.b
        logits = np.where(mask.astype(bool), logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        p: Array = np.exp(logits)
        out: Array = p / p.sum(axis=-1, keepdims=True)
        return out


class Adam:
    """Adam on the policy's parameters (ascending the objective)."""

    def __init__(self, policy: LinearPolicy, lr: float) -> None:
        self.policy, self.lr, self.t = policy, lr, 0
        self.m = [np.zeros_like(policy.w), np.zeros_like(policy.b)]
        self.v = [np.zeros_like(policy.w), np.zeros_like(policy.b)]

    def step(self, grads: Sequence[Array]) -> None:
        self.t += 1
        for i, (param, g) in enumerate(zip((self.policy.w, self.policy.b), grads, strict=True)):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            m = self.m[i] / (1 - 0.9**self.t)
            v = self.v[i] / (1 - 0.999**self.t)
            param += self.lr * m / (np.sqrt(v) + 1e-8)


def train(
    policy: LinearPolicy, iterations: int, batch: int, seed: int, opponent: str, adam: Adam
) -> list[float]:
    """REINFORCE: each iteration plays *batch* games against *opponent* and takes one step."""
    envs = vector_env(GAME, batch, 2, opponents=opponent, options=OPTIONS, rewards="score")
    rng = np.random.default_rng(seed)
    baseline = 0.0
    history = []
    for it in range(iterations):
        # every game of the batch from its deal: a game that ended early was dealt again and
        # played on (its moves ignored), so it is mid-game now; the stream goes on unseeded
        obs, _ = envs.reset(seed=seed if it == 0 else None)
        xs: list[list[npt.NDArray[Any]]] = [[] for _ in range(batch)]
        ps: list[list[Array]] = [[] for _ in range(batch)]
        acts: list[list[int]] = [[] for _ in range(batch)]
        rewards = np.zeros(batch)
        done = np.zeros(batch, dtype=bool)
        while not done.all():
            x, mask = obs["observation"], obs["action_mask"]
            p = policy.probs(x, mask)
            a = (p.cumsum(axis=1) > rng.random((batch, 1))).argmax(axis=1)  # a sample per row
            for j in np.flatnonzero(~done):
                xs[j].append(x[j])
                ps[j].append(p[j])
                acts[j].append(int(a[j]))
            obs, r, terminated, truncated, _ = envs.step(a)
            rewards[~done] += r[~done]
            done |= terminated | truncated  # a finished game is dealt again: ignore it
        returns = rewards
        advantage = returns - baseline
        baseline = 0.9 * baseline + 0.1 * float(returns.mean())
        gw = np.zeros_like(policy.w)
        gb = np.zeros_like(policy.b)
        for i in range(batch):
            x_i = np.array(xs[i])
            grad = -np.array(ps[i])
            grad[np.arange(len(acts[i])), acts[i]] += 1.0  # d log pi(a|x) / d logits
            grad *= advantage[i]
            gw += grad.T @ x_i
            gb += grad.sum(axis=0)
        adam.step([gw / batch, gb / batch])
        history.append(float(returns.mean()))
    envs.close()
    return history


class PolicyAgent:
    """A policy as a cardcore agent: it encodes the seat's view itself (no access to the game)."""

    def __init__(self, policy: LinearPolicy, encoding: Encoding, seed: int) -> None:
        self.policy, self.encoding = policy, encoding
        self.rng = np.random.default_rng(seed)

    def choose(self, view: Mapping[str, Any], legal: Sequence[cardcore.Action]) -> cardcore.Action:
        enc = self.encoding
        hot, scalars = enc.observe(view)
        x = np.concatenate([np.bincount(np.asarray(hot, dtype=np.intp), minlength=enc.planes), scalars])
        indices = list(enc.action_indices(view, legal))
        mask = np.zeros(enc.actions)
        mask[indices] = 1
        p = self.policy.probs(x, mask)
        return legal[indices.index(int(self.rng.choice(len(p), p=p)))]


def interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def wilson(shares: Sequence[float]) -> tuple[float, float, float]:
    """Mean of *shares* (each 0, 1/2 or 1) and its 95% Wilson score interval: never zero wide,
    so 20 losses in 20 games is 0.000 [0.000, 0.161], not 0.000 ± 0.000."""
    n = len(shares)
    p = sum(shares) / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def match(policy: LinearPolicy, encoding: Encoding, opponent: str | LinearPolicy, games: int, seed: int) -> tuple[float, float, float, float, float]:
    """Play *games* one-hole games of *policy* against *opponent* (an agent name or a policy),
    alternating seats; return the win rate (a tie counts half) with its 95% Wilson interval,
    and the mean margin in points per hole (the opponent's score minus the policy's) with its
    95% CI half-width."""
    wins: list[float] = []
    margins: list[float] = []
    for i in range(games):
        seat = i % 2
        game = cardcore.new_game(GAME, 2, options=OPTIONS, seed=seed * 100_003 + i)
        agents: list[Any] = [None, None]
        agents[seat] = PolicyAgent(policy, encoding, seed + 2 * i)
        if isinstance(opponent, str):
            agents[1 - seat] = cardcore.load_agent(opponent)(seed=seed + 2 * i + 1)
        else:
            agents[1 - seat] = PolicyAgent(opponent, encoding, seed + 2 * i + 1)
        result = cardcore.play(game, agents)
        mine, theirs = result.scores[seat], result.scores[1 - seat]
        wins.append(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
        margins.append(theirs - mine)
    return (*wilson(wins), *interval(margins))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=800, help="policy updates (all phases)")
    parser.add_argument("--batch", type=int, default=64, help="games per update")
    parser.add_argument("--eval", type=int, default=1000, help="games per evaluation match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--opponents", default="random,golf-greedy", help="training opponents, one phase each"
    )
    args = parser.parse_args(argv)

    encoding = Config(GAME, 2, options=OPTIONS).encoding
    size = encoding.planes + encoding.scalars
    policy = LinearPolicy(size, encoding.actions, np.random.default_rng(args.seed))
    untrained = policy.copy()
    print(f"golf, 2 players, one hole: {size} observation features, {encoding.actions} actions")

    adam = Adam(policy, lr=0.01)
    phases = args.opponents.split(",")
    for k, opponent in enumerate(phases):
        start = time.perf_counter()
        iterations = args.iterations // len(phases)
        history = train(policy, iterations, args.batch, args.seed + k, opponent, adam)
        elapsed = time.perf_counter() - start
        tenth = max(1, len(history) // 10)
        first, last = sum(history[:tenth]) / tenth, sum(history[-tenth:]) / tenth
        print(
            f"trained on {iterations * args.batch} games vs {opponent} in {elapsed:.1f} s;"
            f" mean reward (score margin / 10) {first:+.3f} -> {last:+.3f}"
        )

    rows: list[tuple[str, LinearPolicy, str | LinearPolicy]] = [
        ("trained vs untrained", policy, untrained),
        ("trained vs random", policy, "random"),
        ("trained vs golf-greedy", policy, "golf-greedy"),
        ("untrained vs random", untrained, "random"),
        ("untrained vs golf-greedy", untrained, "golf-greedy"),
    ]
    results = {}
    for label, who, opponent in rows:
        w, low, high, m, dm = match(who, encoding, opponent, args.eval, args.seed + 7)
        results[label] = low
        print(f"{label:<25} win rate {w:.3f} [{low:.3f}, {high:.3f}]   margin {m:+6.2f} ± {dm:.2f} points per hole")
    verdict = "yes" if results["trained vs untrained"] > 0.5 else "not shown at this size"
    print(f"trained beats untrained (95% CI of the win rate above 0.5): {verdict}")


if __name__ == "__main__":
    main()
