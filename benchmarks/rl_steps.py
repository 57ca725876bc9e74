"""Environment steps per second: cardcore.rl against PettingZoo's and RLCard's card games.

Every environment is driven by the same loop in the same process, with uniformly
random legal actions:

* AEC (PettingZoo) environments: ``for agent in env.agent_iter(): env.last()``, a random
  index of the action mask, ``env.step``; the figure counts decisions (steps of a live
  agent, not the ``None`` steps of finished ones), so each includes one observation;
* RLCard's own environments: ``env.reset()`` then ``env.step(random legal action)`` until
  ``env.is_over()`` (each step returns the next player's encoded state);
* cardcore's single-seat Gymnasium environment and its batched environment (64 games):
  learner decisions per second, the ``random`` opponent's moves included.

PettingZoo's classic card games (Leduc and limit Texas hold'em) and RLCard's are
measured when importable (``pip install rlcard pygame``); those missing are reported
as such. Time is the process's CPU time (``time.process_time``), so other work on the
machine does not count; each figure is the median of ``--rounds`` runs of ``--seconds``
of it, the environments taking turns.

Run: ``python benchmarks/rl_steps.py [--seconds S] [--rounds R] [--json PATH] [--tiny]``
"""

from __future__ import annotations

import argparse
import functools
import importlib.metadata
import json
import os
import platform
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from cardcore.rl import aec_env, gym_env, vector_env

Runner = Callable[[float], tuple[int, float]]
"""Run for about *seconds* of CPU time; return (decisions, CPU seconds spent)."""


def aec_runner(make: Callable[[], Any]) -> Runner:
    """Drive a PettingZoo AEC environment with random legal actions."""
    env = make()
    env.reset(seed=1)
    rng = random.Random(1)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.process_time()
        end = start + seconds
        while time.process_time() < end:
            env.reset()
            for _ in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[int(rng.random() * len(legal))]))
                steps += 1
        return steps, time.process_time() - start

    return run


def rlcard_runner(name: str) -> Runner:
    """Drive one of RLCard's own environments with random legal actions."""
    import rlcard  # type: ignore[import-untyped]

    env = rlcard.make(name, {"seed": 1})
    rng = random.Random(1)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.process_time()
        end = start + seconds
        while time.process_time() < end:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[int(rng.random() * len(legal))])
                steps += 1
        return steps, time.process_time() - start

    return run


def gym_runner(game: str, options: dict[str, Any]) -> Runner:
    """Drive cardcore's single-seat environment (the ``random`` agent in the other seat)."""
    env = gym_env(game, 2, opponents="random", options=options)
    obs, _ = env.reset(seed=1)
    rng = random.Random(1)

    def run(seconds: float) -> tuple[int, float]:
        nonlocal obs
        steps = 0
        start = time.process_time()
        end = start + seconds
        while time.process_time() < end:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, terminated, truncated, _ = env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
            if terminated or truncated:
                obs, _ = env.reset()
        return steps, time.process_time() - start

    return run


def batch_runner(game: str, options: dict[str, Any], num_envs: int = 64) -> Runner:
    """Drive cardcore's batched environment (random legal actions drawn with numpy)."""
    envs = vector_env(game, num_envs, 2, opponents="random", options=options, copy=False)
    obs, _ = envs.reset(seed=1)
    rng = np.random.default_rng(1)

    def run(seconds: float) -> tuple[int, float]:
        nonlocal obs
        steps = 0
        start = time.process_time()
        end = start + seconds
        while time.process_time() < end:
            mask = obs["action_mask"]
            scores = rng.random(mask.shape) * mask  # a random legal action per row
            obs, *_ = envs.step(scores.argmax(axis=1))
            steps += num_envs
        return steps, time.process_time() - start

    return run


def candidates() -> list[tuple[str, str, Callable[[], Runner]]]:
    """(group, label, runner factory) for every environment measured."""
    out: list[tuple[str, str, Callable[[], Runner]]] = [
        ("cardcore AEC", "golf (2 players, 1 hole)", lambda: aec_runner(lambda: aec_env("golf", 2, options={"rounds": 1}))),
        ("cardcore AEC", "golf (4 players, 9 holes)", lambda: aec_runner(lambda: aec_env("golf", 4))),
        ("cardcore AEC", "golf (4 players, score reward)", lambda: aec_runner(lambda: aec_env("golf", 4, rewards="score"))),
        ("cardcore AEC", "tonk (3 players)", lambda: aec_runner(lambda: aec_env("tonk", 3))),
        ("cardcore AEC", "spit (real time)", lambda: aec_runner(lambda: aec_env("spit", 2))),
        ("cardcore AEC", "speed (real time)", lambda: aec_runner(lambda: aec_env("speed", 2))),
        ("cardcore gym", "golf vs random", lambda: gym_runner("golf", {"rounds": 1})),
        ("cardcore gym", "speed vs random", lambda: gym_runner("speed", {})),
        ("cardcore batched x64", "golf vs random", lambda: batch_runner("golf", {"rounds": 1})),
        ("cardcore batched x64", "speed vs random", lambda: batch_runner("speed", {})),
    ]

    def pettingzoo(module: str) -> Runner:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mod = __import__(f"pettingzoo.classic.{module}", fromlist=["env"])
        return aec_runner(mod.env)

    for module, label in [("leduc_holdem_v4", "leduc hold'em"), ("texas_holdem_v4", "limit texas hold'em")]:
        out.append(("PettingZoo classic AEC", label, functools.partial(pettingzoo, module)))
    for name in ["leduc-holdem", "limit-holdem", "gin-rummy", "uno"]:
        out.append(("RLCard", name, functools.partial(rlcard_runner, name)))
    return out


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    versions: dict[str, str | None] = {}
    for dist in ["cardcore", "pettingzoo", "gymnasium", "numpy", "rlcard"]:
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = None
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "versions": versions,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one measurement")
    parser.add_argument("--rounds", type=int, default=3, help="measurements per environment (median)")
    parser.add_argument("--tiny", action="store_true", help="0.05 s, one round (smoke test)")
    parser.add_argument("--json", metavar="PATH", help="write the figures to this JSON file")
    args = parser.parse_args(argv)
    seconds, rounds = (0.05, 1) if args.tiny else (args.seconds, args.rounds)

    runners: list[tuple[str, str, Runner | None, str]] = []
    for group, label, factory in candidates():
        try:
            runners.append((group, label, factory(), ""))
        except ImportError as exc:
            runners.append((group, label, None, f"not importable ({exc.name or exc})"))
    rates: dict[tuple[str, str], list[float]] = {(g, lab): [] for g, lab, _, _ in runners}
    for _ in range(rounds):
        for group, label, run, _ in runners:
            if run is not None:
                steps, elapsed = run(seconds)
                rates[group, label].append(steps / elapsed)
    info = machine()
    print(f"python {info['python']} on {info['platform']}, {info['cpus']} CPUs; {info['versions']}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"median of {rounds} x {seconds:g} s of CPU time, random legal actions; load average {load:.1f}\n")
    print(f"{'environment':<26} {'game':<32} {'steps/s':>10}")
    rows = []
    for group, label, run, why in runners:
        figure = statistics.median(rates[group, label]) if run is not None else None
        shown = f"{figure:>10,.0f}" if figure is not None else f"  {why}"
        print(f"{group:<26} {label:<32} {shown}")
        rows.append({"environment": group, "game": label, "steps_per_s": figure, "note": why})
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"machine": info, "seconds": seconds, "rounds": rounds, "load": load, "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
