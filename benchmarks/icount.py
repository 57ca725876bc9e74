"""Instructions per operation (callgrind), old commit vs new: a yardstick a loaded machine cannot bend.

Wall-clock A/B runs (``ab.py``) on a shared machine drift with other people's
load; instruction counts do not. Each side runs :func:`workload` once under
``valgrind --tool=callgrind``; every phase starts with ``time.sleep(0)``,
where callgrind dumps its counters (``--dump-before=time_sleep``), so each
dump holds one phase. Instructions are not time (a cache miss costs more than
an add), but at equal work they rank two builds the same way.

Usage::

    python benchmarks/icount.py 082019a            # that commit vs the working tree
    python benchmarks/icount.py 082019a HEAD       # two commits

Needs ``valgrind`` (Debian: ``apt-get install valgrind``); about two minutes.
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _sink(event: object) -> None:
    """A subscriber that does nothing."""


def _mark(label: str, n: int) -> None:
    print(json.dumps([label, n]), flush=True)
    time.sleep(0)  # callgrind dumps here: the instructions since the last mark


def _play(game: object, rng: random.Random, cap: int | None = None) -> int:
    k = 0
    while not game.is_over and (cap is None or k < cap):  # type: ignore[attr-defined]
        seat = game.to_act[0]  # type: ignore[attr-defined]
        game.apply(rng.choice(game.legal_actions(seat)))  # type: ignore[attr-defined]
        k += 1
    return k


def workload() -> None:
    """The phases, each a fixed amount of work through the public API of every version."""
    import cardcore

    for name, p in (("golf", 4), ("tonk", 2), ("spit", 2)):  # warm every cache outside the phases
        g = cardcore.new_game(name, p, seed=1)
        _play(g, random.Random(1))
        g.view(0)
        g.clone()
    _mark("warm", 0)
    for i in range(200):
        cardcore.new_game("golf", 4, seed=i)
    _mark("golf new_game", 200)
    rng = random.Random(5)
    n = sum(_play(cardcore.new_game("golf", 4, seed=i), rng) for i in range(6))
    _mark("golf decision", n)
    g = cardcore.new_game("golf", 4, seed=3)
    _play(g, random.Random(3), 300)
    for _ in range(200):
        g.view(0)
    _mark("golf view", 200)
    for _ in range(500):
        g.clone()
    _mark("golf clone", 500)
    record = g.record()
    for _ in range(5):
        cardcore.replay(record)
    _mark("golf replay action", 5 * len(record["actions"]))
    for label, kind in (
        ("golf decision, move log", cardcore.ActionApplied),
        ("golf decision, all events", cardcore.Event),
    ):
        rng = random.Random(5)
        n = 0
        for i in range(3):
            g = cardcore.new_game("golf", 4, seed=i)
            g.events.subscribe(kind, _sink)
            n += _play(g, rng)
        _mark(label, n)
    if hasattr(cardcore.Game, "single_thread"):  # 0.3: the opt-out of the hot calls' lock
        rng = random.Random(5)
        n = sum(_play(cardcore.new_game("golf", 4, seed=i).single_thread(), rng) for i in range(3))
        _mark("golf decision, 1 thread", n)
    for i in range(200):
        cardcore.new_game("spit", 2, seed=i)
    _mark("spit new_game", 200)
    spit = cardcore.new_game("spit", 2, seed=7)
    bot = cardcore.load_agent("spit-greedy")
    cardcore.run_realtime(spit, [bot(seed=14), bot(seed=15)], seed=7)
    spit_record = spit.record()
    _mark("(spit game played)", 0)
    cardcore.replay(spit_record)
    _mark("spit replay action", len(spit_record["actions"]))
    hands = []
    for i in range(40):
        t = cardcore.new_game("tonk", 3, seed=i)
        _play(t, random.Random(i))
        hands.append(t.record())
    _mark("(tonk games played)", 0)
    for r in hands:
        cardcore.replay(r)
    _mark("tonk 1-hand replay, per record", len(hands))
    from cardcore import records  # the replay's parts, per record (private names: read only)

    for r in hands:
        records._check_record(records._as_mapping(r, "record"))  # type: ignore[attr-defined]
    _mark("  of which record checks", len(hands))
    for r in hands:
        cardcore.new_game("tonk", list(r["players"]), options=dict(r["options"]), seed=r["seed"])
    _mark("  of which new_game", len(hands))
    for r in hands:
        t = cardcore.new_game(
            "tonk", list(r["players"]), options=dict(r["options"]), seed=r["seed"]
        )
        for seat, text, at in r["actions"]:
            t.act(seat, text, at=at)
    _mark("  new_game + actions", len(hands))
    for i in range(200):
        cardcore.new_game("tonk", 2, seed=i)
    _mark("tonk new_game", 200)
    rng = random.Random(6)
    n = sum(_play(cardcore.new_game("tonk", 2, seed=i), rng) for i in range(300))
    _mark("tonk decision", n)
    g = cardcore.new_game("tonk", 2, seed=3)
    for _ in range(300):
        g.view(0)
    _mark("tonk view", 300)
    _mark("end", 0)


def _count(side: object, out: Path, python: str) -> dict[str, float]:
    proc = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--dump-before=time_sleep",
            f"--callgrind-out-file={out}",
            python,
            str(Path(__file__).resolve()),
            "--workload",
        ],
        env=side.env,  # type: ignore[attr-defined]
        cwd=str(side.root),  # type: ignore[attr-defined]
        capture_output=True,
        text=True,
        check=False,
    )
    labels = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("[")]
    if not labels:
        sys.exit(f"the workload failed under valgrind: {proc.stderr.strip()[-400:]}")
    files = sorted(glob.glob(f"{out}.*"), key=lambda f: int(f.rsplit(".", 1)[1]))
    totals = []
    for name in files:
        with open(name, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith(("summary:", "totals:")):
                    totals.append(int(line.split()[1]))
                    break
    # dump k (from 1) holds the instructions of the phase that mark k closes
    return {name: totals[k] / n for k, (name, n) in enumerate(labels) if k and n}


def main() -> None:
    """Command-line entry."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", nargs="?", help="commit-ish of the baseline")
    parser.add_argument(
        "new", nargs="?", default=None, help="commit-ish (default: the working tree)"
    )
    parser.add_argument("--workload", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    if args.workload:
        workload()
        return
    if args.old is None:
        parser.error("name the baseline commit")
    sys.path.insert(0, str(HERE))
    import ab

    repo = HERE.parent
    tmp = Path(tempfile.mkdtemp(prefix="cardcore-icount-"))
    found: dict[str, dict[str, float]] = {}
    names = {}
    for label, ref in (("old", args.old), ("new", args.new or ab.WORKTREE)):
        side = ab.Side(label, ref, repo, tmp, args.python)
        names[label] = side.name
        try:
            found[label] = _count(side, tmp / label / "cg", args.python)
        finally:
            if side.created:
                ab._git(repo, "worktree", "remove", "--force", str(side.root))
    print(f"{names['old']}  vs  {names['new']}: instructions per operation (callgrind)")
    print(f"{'phase':22} {'old':>12} {'new':>12} {'new/old':>8}")
    for phase, old in found["old"].items():
        new = found["new"].get(phase, float("nan"))
        print(f"{phase:22} {old:12,.0f} {new:12,.0f} {new / old:8.3f}")


if __name__ == "__main__":
    main()
