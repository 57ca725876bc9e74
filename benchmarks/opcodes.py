"""Bytecodes per decision: random play counted with ``sys.settrace`` opcode events.

A count of interpreter instructions, not of time: no load on a shared machine moves it,
so two trees compare exactly (the hash seed can move it by a few bytecodes a decision:
set ``PYTHONHASHSEED``). Counts every opcode executed in Python code while seeded random
games of a configuration of ``run.py`` are played as ``run.py`` plays them
(``legal_actions`` then ``apply``, ``new_game`` included; ``tonk-nodrop`` never drops),
and divides by the decisions.
Run from the repository root (a tree at another commit: from a ``git worktree`` of it)::

    PYTHONHASHSEED=0 python benchmarks/opcodes.py                 # GOLF6, 3 games
    PYTHONHASHSEED=0 python benchmarks/opcodes.py --config tonk-nodrop --games 20
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence
from types import FrameType
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import run

import cardcore

__all__ = ["count", "main"]


def count(key: str = "golf-6", games: int = 3, seed: int = 1) -> tuple[int, int]:
    """Play *games* seeded random games of ``run.py``'s configuration *key* under a
    tracer; return (opcodes executed, decisions)."""
    cfg = {c.key: c for c in run.CONFIGS}[key]
    if cfg.realtime:
        raise SystemExit(f"{key} is played in real time by bots: no random play to count")
    cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=0)  # built, cached
    never_drop = key == "tonk-nodrop"
    ops = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal ops
        if event == "call":
            frame.f_trace_opcodes = True
        elif event == "opcode":
            ops += 1
        return trace

    decisions = 0
    for g in range(games):
        rand = random.Random(seed + g).random
        sys.settrace(trace)
        try:
            game = cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=seed + g)
            while not game.is_over:
                legal = game.legal_actions(game.to_act[0])
                if never_drop and str(legal[0]) == "drop":  # (run.py's never-drop player)
                    game.apply(legal[1 + int(rand() * (len(legal) - 1))])
                else:
                    game.apply(legal[int(rand() * len(legal))])
                decisions += 1
        finally:
            sys.settrace(None)
    return ops, decisions


def main(argv: Sequence[str] | None = None) -> int:
    """Print the bytecodes per decision of ``--config``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", default="golf-6", help="a key of run.py's configurations")
    parser.add_argument("--games", type=int, default=3, help="seeded games to count")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = parser.parse_args(argv)
    ops, decisions = count(args.config, args.games, args.seed)
    print(
        f"{args.config}: {ops / decisions:,.1f} bytecodes per decision"
        f" ({ops:,} over {decisions:,} decisions, {args.games} games, new_game included)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
