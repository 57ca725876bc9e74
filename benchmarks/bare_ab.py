"""A bare loop against its own earlier version, in one process, alternating rounds.

Separate processes (``ab.py --bare``) see this shared machine's speed change from one
process to the next by more than a tenth; two versions of a bare loop timed in turn in
one process, on the same seeds, do not. Loads ``benchmarks/bare_golf.py`` (or
``bare_tonk.py``) of a commit and of the work tree, then times each for the same
matches, the order swapped every other round. Run from the repository root::

    python benchmarks/bare_ab.py f0df1e2d^              # Golf, 11 rounds of 300 matches
    python benchmarks/bare_ab.py HEAD~3 --loop tonk --rounds 7

Prints each round's decisions per second (CPU time) and the median of the per-round
ratios (this tree over the commit's), its range and how many rounds this tree won.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _speed(loop: ModuleType, game: str, seed: int, matches: int) -> float:
    """Decisions per CPU second of *matches* seeded games of *loop*."""
    rand = random.Random(seed).random
    decisions = 0
    start = time.process_time()
    if game == "golf":
        for _ in range(matches):
            decisions += loop.play_match(rand, 4)[0]
    else:
        rng = random.Random(seed)
        for _ in range(matches):
            decisions += loop.play_game(rng, 3)[0]
    return decisions / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commit", help="commit-ish of the earlier version")
    parser.add_argument("--loop", choices=("golf", "tonk"), default="golf")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--matches", type=int, default=300, help="games a side per round")
    args = parser.parse_args(argv)
    name = f"bare_{args.loop}.py"
    text = subprocess.run(
        ["git", "show", f"{args.commit}:benchmarks/{name}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        old_path = Path(tmp) / name
        old_path.write_text(text)
        old = _load("bare_ab_old", old_path)
        new = _load("bare_ab_new", ROOT / "benchmarks" / name)
        ratios = []
        for k in range(args.rounds):
            if k % 2:
                b = _speed(new, args.loop, k, args.matches)
                a = _speed(old, args.loop, k, args.matches)
            else:
                a = _speed(old, args.loop, k, args.matches)
                b = _speed(new, args.loop, k, args.matches)
            ratios.append(b / a)
            print(f"round {k}: {args.commit} {a:,.0f}/s, this tree {b:,.0f}/s, x{b / a:.3f}")
    won = sum(r > 1 for r in ratios)
    print(
        f"this tree / {args.commit}: median x{statistics.median(ratios):.3f}"
        f" (x{min(ratios):.3f} to x{max(ratios):.3f}), faster in {won} of {len(ratios)} rounds"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
