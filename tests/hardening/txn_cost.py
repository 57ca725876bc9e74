"""Measure what transactional apply costs Golf: the same games with and without it.

``python -m tests.hardening.txn_cost [--rev HEAD] [--rounds 9] [--games 40] [--rule NAME] [--callgrind]``

Both sides are copies of commit ``--rev`` (``src`` and ``plugins``, by ``git archive``,
in a temporary directory put first on ``PYTHONPATH``), so edits in the working tree
during the run change neither. The "on" side is the commit as it is; the "off" side
has the transaction bookkeeping taken out:
the checks after each apply that take a checkpoint (``if False:``, which Python
compiles away), the checkpoint after a deal in which a house rule ran, and the
tracking of house rules' hooks (:meth:`Ruleset.resolve` wraps none). What stays on
both sides is the ``try``/``except`` around the game's own apply, which costs nothing
in CPython 3.11 until something raises.

Each round runs both sides in fresh processes, in alternating order, on the same
seeded games (4 seats, layout 6, random legal actions, the Golf benchmark's
configuration); each process times its play loop with ``time.process_time`` and
prints decisions per CPU-second. Prints the median of each side, the cost
(off/on - 1) and in how many rounds the side with transactions was slower.
``--callgrind`` also counts instructions (valgrind's callgrind; a run that plays only
the warm-up game is subtracted), which the machine's load does not change.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PATCHES = (
    # game.py: the checks after each apply (hot path and _commit)
    (
        "game.py",
        r"self\._hooks\.value is not self\._mark or version >= self\._next_base",
        "False",
        2,
    ),
    # setup.py: the checkpoint after a deal in which a house rule ran
    ("setup.py", r"state\.clone\(\) if ruleset\.hooks\.value is not mark else None", "None", 1),
    # plugins.py: house rules' hooks are not tracked
    ("plugins.py", r"house = self\._house if track else frozenset\(\)", "house = frozenset()", 1),
)


def snapshot(rev: str, into: Path, *, transactions: bool) -> Path:
    """Extract *rev*'s ``src`` and ``plugins`` into *into* (bookkeeping taken out unless
    *transactions*); return *into*."""
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "src", "plugins"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    if transactions:
        return into
    dest = into / "src" / "cardcore"
    for name, pattern, repl, count in PATCHES:
        path = dest / name
        text, n = re.subn(pattern, repl, path.read_text())
        if n != count:
            msg = f"{name}: expected {count} match(es) of {pattern!r}, found {n} (the code moved)"
            raise SystemExit(msg)
        path.write_text(text)
    return into


def play(games: int, seed: int, rules: list[str]) -> tuple[int, float]:
    """Play *games* seeded random Golf games; return (decisions, CPU seconds).

    A first game (not counted) loads the plugin and fills the configuration's caches,
    so ``--callgrind`` can subtract a run of no counted game and keep only the games.
    """
    import cardcore

    decisions = 0
    elapsed = 0.0
    for k in [-1, *range(games)]:
        game = cardcore.new_game("golf", 4, rules=rules, options={"layout": 6}, seed=seed + k)
        rng = random.Random(seed + k)
        choice = rng.choice
        start = time.process_time()
        n = 0
        while not game.is_over:
            game.apply(choice(game.legal_actions(game.to_act[0])))
            n += 1
        if k >= 0:
            elapsed += time.process_time() - start
            decisions += n
    return decisions, elapsed


def _worker_cmd(games: int, seed: int, rules: list[str]) -> list[str]:
    cmd = [sys.executable, "-m", "tests.hardening.txn_cost", "--worker"]
    cmd += ["--games", str(games), "--seed", str(seed)]
    for rule in rules:
        cmd += ["--rule", rule]
    return cmd


def _env(path: Path) -> dict[str, str]:
    env = dict(os.environ)
    parts = [str(path / "src"), str(path / "plugins"), str(ROOT), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(parts)
    return env


def _run(path: Path, games: int, seed: int, rules: list[str]) -> float:
    out = subprocess.run(
        _worker_cmd(games, seed, rules),
        env=_env(path),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data = json.loads(out)
    if not data["cardcore"].startswith(str(path)) or not data["golf"].startswith(str(path)):
        raise SystemExit(f"the side in {path} imported {data['cardcore']} and {data['golf']}")
    return float(data["decisions"]) / float(data["cpu_s"])


def _instructions(path: Path, games: int, seed: int, rules: list[str]) -> int:
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    done = subprocess.run(
        cmd + _worker_cmd(games, seed, rules),
        env=_env(path),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(done.stderr[-2000:])
    return int(found.group(1))


def _timed(on: Path, off: Path, args: argparse.Namespace) -> None:
    """Alternating rounds of both sides; print the medians and the cost."""
    on_rates: list[float] = []
    off_rates: list[float] = []
    slower = 0
    for r in range(args.rounds):
        seed = args.seed + 1000 * r
        sides = [(on, on_rates), (off, off_rates)]
        for path, into in sides if r % 2 == 0 else sides[::-1]:
            into.append(_run(path, args.games, seed, args.rule))
        slower += on_rates[-1] < off_rates[-1]
    on, no = statistics.median(on_rates), statistics.median(off_rates)
    print(f"configuration: golf, 4 seats, layout 6, rules {args.rule or 'none'}")
    print(f"rounds {args.rounds} x {args.games} games per side, alternating order")
    print(
        f"with transactions    {on:10.0f} decisions/CPU-s  (range {min(on_rates):.0f}-{max(on_rates):.0f})"
    )
    print(
        f"without transactions {no:10.0f} decisions/CPU-s  (range {min(off_rates):.0f}-{max(off_rates):.0f})"
    )
    print(
        f"cost {100 * (no / on - 1):+.2f}%  (slower with them in {slower} of {args.rounds} rounds)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default="HEAD", help="the commit measured (default HEAD)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rule", action="append", default=[], help="a Golf house rule")
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        import cardcore
        import cardcore_golf

        decisions, cpu = play(args.games, args.seed, args.rule)
        where = {"cardcore": cardcore.__file__, "golf": cardcore_golf.__file__}
        print(json.dumps({"decisions": decisions, "cpu_s": cpu, **where}))
        return
    rev = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", args.rev],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="cardcore-txn-") as tmp:
        on = snapshot(rev, Path(tmp) / "on", transactions=True)
        off = snapshot(rev, Path(tmp) / "off", transactions=False)
        print(f"commit {rev}, Python {sys.version.split()[0]}")
        if args.rounds:
            _timed(on, off, args)
        if args.callgrind:
            base_on = _instructions(on, 0, args.seed, args.rule)
            base_off = _instructions(off, 0, args.seed, args.rule)
            ins_on = _instructions(on, args.games, args.seed, args.rule) - base_on
            ins_off = _instructions(off, args.games, args.seed, args.rule) - base_off
            print(f"configuration: golf, 4 seats, layout 6, rules {args.rule or 'none'}")
            print(f"instructions for {args.games} games: with {ins_on:,}, without {ins_off:,}")
            print(f"cost {100 * (ins_on / ins_off - 1):+.2f}% of the instructions")


if __name__ == "__main__":
    main()
