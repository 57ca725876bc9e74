"""A/B comparison of two commits on ``benchmarks/run.py``, in alternating processes.

Each side is a checkout of one commit: a ``git worktree`` made for the run under a
temporary directory (``git worktree add --detach``, removed with ``git worktree
remove --force`` at the end), or the current checkout itself for the special name
``WORKTREE`` (uncommitted changes included). Every round runs that side's own
``benchmarks/run.py --json`` in a fresh process, old first, then new, with
``PYTHONPATH`` set to that side's ``src`` and ``plugins`` so they shadow the
editable install, and to a generated ``.dist-info`` holding that side's entry
points (read from its ``pyproject.toml``), so ``cardcore.games``/``rules``/``agents``
resolve to the modules of that commit even when their names have changed since the
install. Before the rounds each side prints where ``cardcore`` and the Golf plugin
were imported from, so the shadowing can be seen.

Per figure (every number in run.py's JSON, named by its path such as
``games.golf-6.decisions_per_s`` or ``bare.golf.decisions_per_s``) it prints the
median of the old runs, the median of the new runs, their ratio new/old, the range
of each side, how many rounds the new side won (higher is better for rates,
ratios and speed-ups; lower for times in µs and bytes), and a verdict: ``within
5%``, ``improved`` or ``regressed`` (``changed`` for counts with no better
direction, such as decisions per game). Each run's own figure is already a median
over run.py's rounds; the verdict compares medians over the A/B rounds, and says
``(noisy)`` when fewer than 80% of the paired rounds (old and new of one round)
moved the way the medians did: on this shared 2-CPU machine an A/A run (two commits
that differ only in docs, 3e6ab41 and 64e080a, 7 rounds of ``--quick --only golf-6
tonk``) moved 13 of 61 figures past 5%, every one of them with 5 of 7 rounds or
fewer agreeing.

Run from anywhere inside the repository::

    python benchmarks/ab.py HEAD~1 HEAD                         # 7 rounds of run.py --quick
    python benchmarks/ab.py HEAD WORKTREE --run-args="--quick --only golf-6 tonk"
    python benchmarks/ab.py 3e6ab41 64e080a --rounds 9 --figures 'games.*.decisions_per_s*' 'bare.*'
    python benchmarks/ab.py HEAD~2 HEAD~1 --run-args="--tiny" --rounds 1   # smoke test
    python benchmarks/ab.py A B --json ab.json                  # every value, for notes
    python benchmarks/ab.py 082019a HEAD --bare --rounds 9      # the bare loops alone

``--bare`` times only each side's ``bare_golf.py`` and ``bare_tonk.py`` (see
:data:`BARE_DRIVER`), which import no cardcore, so it works while the engine is
broken. ``--run-args`` goes to both sides' run.py unchanged (default ``--quick``; pass
``--run-args=""`` for full runs, several minutes each); both commits' run.py must
understand it. ``--figures`` takes shell-style patterns and only filters what is
printed. ``--swap`` runs new-then-old in every other round, to cancel a drift over
the session.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["Side", "direction", "flatten", "main", "verdict"]

WORKTREE = "WORKTREE"
"""The name of the current checkout's files (uncommitted changes included)."""

NEUTRAL = ("rounds", "machine_")
"""Leaves that are counts or the machine's own figures: neither higher nor lower is better."""


def direction(name: str) -> int:
    """Return +1 if a higher value of figure *name* is better, -1 if lower is, 0 if neither.

    >>> direction("games.golf-6.decisions_per_s"), direction("games.tonk.clone_us")
    (1, -1)
    >>> direction("games.golf-6.decisions_per_game")
    0
    """
    leaf = name.rsplit(".", 1)[-1]
    if leaf.endswith("_us") or "_us_" in leaf or "bytes" in leaf:  # times, memory
        return -1
    if "per_s" in leaf or leaf.endswith("_ratio") or "speedup" in leaf:  # rates, ratios
        return 0 if leaf.startswith(NEUTRAL) else 1
    return 0


CONSISTENT = 0.8
"""Share of paired rounds that must move the way the medians moved for a firm verdict."""


def verdict(name: str, ratio: float, threshold: float = 0.05, agreeing: float = 1.0) -> str:
    """Return the verdict on figure *name* for the new/old *ratio* of medians.

    ``within 5%`` (the *threshold*), else ``improved`` or ``regressed`` (``changed``
    for a figure with no better direction). *agreeing* is the share of rounds in which
    new minus old had the sign of the change of the medians; below :data:`CONSISTENT`
    the verdict gets ``(noisy)``: the medians moved, the rounds do not agree.

    >>> verdict("bare.golf.decisions_per_s", 0.9), verdict("games.tonk.new_game_us", 0.9)
    ('regressed', 'improved')
    >>> verdict("games.tonk.decisions_per_s", 1.08, agreeing=4 / 7)
    'improved (noisy)'
    """
    if abs(ratio - 1) <= threshold:
        return f"within {threshold:.0%}"
    sign = direction(name)
    word = "changed" if sign == 0 else "improved" if (ratio > 1) == (sign > 0) else "regressed"
    return word if agreeing >= CONSISTENT else f"{word} (noisy)"


def flatten(data: Any, prefix: str = "") -> Iterator[tuple[str, float]]:
    """Yield ``(dotted.name, value)`` for every number in run.py's JSON results.

    ``meta`` and ``targets`` are left out (the targets repeat other figures), and so
    are a game's ``options`` and ``players``, lists (per-round raw values) and booleans.

    >>> dict(flatten({"games": {"tonk": {"decisions_per_s": 2.0, "bare": "tonk"}}, "meta": {"x": 1}}))
    {'games.tonk.decisions_per_s': 2.0}
    """
    if isinstance(data, Mapping):
        for key, value in data.items():
            if key in (("meta", "targets") if not prefix else ("options", "players")):
                continue
            yield from flatten(value, f"{prefix}{key}.")
    elif isinstance(data, int | float) and not isinstance(data, bool):
        yield prefix[:-1], float(data)


def _git(repo: Path, *args: str) -> str:
    out = subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    )
    return out.stdout.strip()


def _write_entry_points(root: Path, dest: Path) -> Path | None:
    """Write a ``.dist-info`` with the entry points of *root*'s ``pyproject.toml``."""
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return None
    groups: dict[str, Mapping[str, str]] = dict(project.get("entry-points", {}))
    if "scripts" in project:
        groups = {"console_scripts": project["scripts"], **groups}
    info = dest / f"{project['name']}-{project.get('version', '0')}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project.get('version', '0')}\n",
        encoding="utf-8",
    )
    lines: list[str] = []
    for group, points in groups.items():
        lines.append(f"[{group}]")
        lines += [f"{name} = {target}" for name, target in points.items()]
        lines.append("")
    (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    return dest


class Side:
    """One side of the comparison: a commit checked out in a worktree, or ``WORKTREE``.

    :param label: ``old`` or ``new``.
    :param ref: A commit-ish, or :data:`WORKTREE`.
    :param repo: The repository's top directory.
    :param tmp: A temporary directory for the worktree, the metadata and the JSON files.
    :param python: The interpreter to run run.py with.
    """

    def __init__(self, label: str, ref: str, repo: Path, tmp: Path, python: str) -> None:
        self.label = label
        self.ref = ref
        self.repo = repo
        self.python = python
        self.tmp = tmp / label
        self.tmp.mkdir(parents=True)
        self.created = False
        if ref == WORKTREE:
            self.root = repo
            head = _git(repo, "rev-parse", "--short", "HEAD")
            dirty = _git(repo, "status", "--porcelain", "--untracked-files=no")
            changed = len(dirty.splitlines())
            self.commit = f"{head}+{changed} changed files" if changed else head
        else:
            self.commit = _git(repo, "rev-parse", "--short", f"{ref}^{{commit}}")
            self.root = self.tmp / "tree"
            _git(repo, "worktree", "add", "--detach", str(self.root), self.commit)
            self.created = True
        meta = _write_entry_points(self.root, self.tmp / "meta")
        paths = [str(p) for p in (meta, self.root / "src", self.root / "plugins") if p]
        self.env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        self.env["PYTHONDONTWRITEBYTECODE"] = "1"  # leave no __pycache__ in the checkouts
        self.runs = 0

    @property
    def name(self) -> str:
        """How the side is shown: ``old 64e080a`` or ``new WORKTREE (082019a+3 changed files)``."""
        if self.ref == WORKTREE:
            return f"{self.label} WORKTREE ({self.commit})"
        shown = self.ref if self.ref == self.commit else f"{self.ref} ({self.commit})"
        return f"{self.label} {shown}"

    def where(self) -> str:
        """Import cardcore and the Golf plugin in a fresh process; return where from."""
        code = (
            "import importlib.metadata as m, cardcore, cardcore_golf; "
            "ep = [e.value for e in m.entry_points(group='cardcore.games') if e.name == 'golf']; "
            "print(cardcore.__file__, cardcore_golf.__file__, 'golf ->', *ep)"
        )
        out = subprocess.run(
            [self.python, "-c", code], env=self.env, cwd=self.root, capture_output=True, text=True
        )
        if out.returncode:
            return f"import failed: {out.stderr.strip().splitlines()[-1:]}"
        return out.stdout.strip()

    def where_bare(self) -> str:
        """Import the bare loops in a fresh process; return where from (no cardcore)."""
        code = "import bare_golf, bare_tonk; print(bare_golf.__file__, bare_tonk.__file__)"
        out = subprocess.run(
            [self.python, "-c", code],
            env={**self.env, "PYTHONPATH": str(self.root / "benchmarks")},
            cwd=self.root,
            capture_output=True,
            text=True,
        )
        if out.returncode:
            return f"import failed: {out.stderr.strip().splitlines()[-1:]}"
        return out.stdout.strip()

    def run(
        self, run_args: Sequence[str], timeout: float | None, bare: bool = False
    ) -> dict[str, float]:
        """Run this side's run.py (or, with *bare*, its bare loops) once in a fresh
        process; return its figures."""
        self.runs += 1
        out = self.tmp / f"run{self.runs}.json"
        if bare:
            cmd = [self.python, "-c", BARE_DRIVER, str(self.root / "benchmarks"), str(out)]
        else:
            cmd = [self.python, str(self.root / "benchmarks" / "run.py"), *run_args]
            cmd += ["--json", str(out), "--quiet", "--plain"]
        done = subprocess.run(
            cmd, env=self.env, cwd=self.root, capture_output=True, text=True, timeout=timeout
        )
        if done.returncode or not out.exists():
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
            msg = f"{self.name}: run.py failed (exit {done.returncode}):\n{tail}"
            raise RuntimeError(msg)
        return dict(flatten(json.loads(out.read_text(encoding="utf-8"))))

    def close(self) -> None:
        """Remove the worktree made for this side, if any."""
        if self.created:
            subprocess.run(
                ["git", "-C", str(self.repo), "worktree", "remove", "--force", str(self.root)],
                check=False,
                capture_output=True,
            )
            self.created = False


BARE_DRIVER = """
import json, random, statistics, sys, time
sys.path.insert(0, sys.argv[1])
import bare_golf, bare_tonk
clock = time.process_time
out = {}
def nodrop(rnd, players):  # run.py's bare "tonk-nodrop": players who never drop
    return bare_tonk.play_hand(rnd.random, players, drop=False)
for name, play, games, players in (
    ("golf", bare_golf.play_game, 400, 4),
    ("tonk", bare_tonk.play_game, 20000, 3),
    ("tonk-nodrop", nodrop, 2000, 3),
):
    rows = []
    for batch in range(4):  # the first batch warms up and is dropped
        rnd = random.Random(1000 * batch + 1)
        decisions = 0
        start = clock()
        for _ in range(games):
            r = play(rnd, players)
            decisions += r if isinstance(r, int) else r[0]
        elapsed = clock() - start
        rows.append((games / elapsed, decisions / elapsed, decisions / games))
    rows = rows[1:]
    for i, key in enumerate(("games_per_s", "decisions_per_s", "decisions_per_game")):
        out[f"bare.{name}.{key}"] = statistics.median(r[i] for r in rows)
json.dump(out, open(sys.argv[2], "w"))
"""
"""``--bare``: in a fresh process, time each bare loop as run.py's ``bare_round`` does (a
fixed batch of games, CPU time; 400 four-player Golf matches, 20,000 three-player Tonk
hands, 2,000 never-drop Tonk hands; the median of 3 batches after one warm-up batch);
needs no cardcore."""


def _fmt(value: float) -> str:
    if value == 0:
        return "0"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:,.1f}"
    return f"{value:.3g}" if abs(value) < 0.01 else f"{value:.3f}"


def summarize(
    old: list[dict[str, float]], new: list[dict[str, float]], threshold: float
) -> list[dict[str, Any]]:
    """Per figure present on both sides: medians, ratio, ranges, rounds won, verdict."""
    names = sorted(set(old[0]).intersection(*old[1:], *new))
    rows = []
    for name in names:
        a = [r[name] for r in old]
        b = [r[name] for r in new]
        ma, mb = statistics.median(a), statistics.median(b)
        ratio = mb / ma if ma else (1.0 if mb == ma else float("inf"))
        sign = direction(name)
        wins = sum((y - x) * sign > 0 for x, y in zip(a, b, strict=True))
        moved = 1 if mb > ma else -1
        agreeing = sum((y - x) * moved > 0 for x, y in zip(a, b, strict=True)) / len(a)
        rows.append({
            "figure": name, "old_median": ma, "new_median": mb, "ratio": ratio,
            "old_range": [min(a), max(a)], "new_range": [min(b), max(b)],
            "new_won_rounds": wins if sign else None, "rounds": len(a),
            "verdict": verdict(name, ratio, threshold, agreeing), "old": a, "new": b,
        })  # fmt: skip
    return rows


def render(rows: list[dict[str, Any]]) -> str:
    """The table of :func:`summarize` rows as plain text."""
    head = ["figure", "old median", "new median", "new/old", "old range", "new range", "new won", "verdict"]  # fmt: skip
    body = []
    for r in rows:
        won = "-" if r["new_won_rounds"] is None else f"{r['new_won_rounds']}/{r['rounds']}"
        body.append([
            r["figure"], _fmt(r["old_median"]), _fmt(r["new_median"]), f"{r['ratio']:.3f}",
            f"{_fmt(r['old_range'][0])}-{_fmt(r['old_range'][1])}",
            f"{_fmt(r['new_range'][0])}-{_fmt(r['new_range'][1])}", won, r["verdict"],
        ])  # fmt: skip
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=True)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    for row in body:
        cells = [c.ljust(w) if i in (0, 7) else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]  # fmt: skip
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: ``python benchmarks/ab.py OLD NEW [options]``."""
    parser = argparse.ArgumentParser(
        description="Compare two commits on benchmarks/run.py in alternating processes."
    )
    parser.add_argument("old", help="commit-ish of the baseline, or WORKTREE")
    parser.add_argument("new", help="commit-ish to compare, or WORKTREE")
    parser.add_argument("--rounds", type=int, default=7, help="A/B rounds (default 7)")
    parser.add_argument(
        "--run-args",
        default="--quick",
        help="arguments for both sides' run.py, one string (default '--quick')",
    )
    parser.add_argument("--figures", nargs="*", default=(), help="patterns of figures to print")
    parser.add_argument("--threshold", type=float, default=0.05, help="'within' band (0.05)")
    parser.add_argument("--swap", action="store_true", help="run new first in odd rounds")
    parser.add_argument("--json", metavar="PATH", help="write every round's figures here")
    parser.add_argument("--python", default=sys.executable, help="interpreter for run.py")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per run.py run")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument(
        "--bare",
        action="store_true",
        help="time only each side's bare_golf.py and bare_tonk.py (no cardcore, no run.py)",
    )
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    run_args = args.run_args.split()
    repo = Path(_git(Path.cwd(), "rev-parse", "--show-toplevel"))
    tmp = Path(tempfile.mkdtemp(prefix="cardcore-ab-"))
    sides: list[Side] = []
    try:
        for label, ref in (("old", args.old), ("new", args.new)):
            sides.append(Side(label, ref, repo, tmp, args.python))
        imported = []
        for side in sides:
            where = side.where_bare() if args.bare else side.where()
            imported.append(f"{side.name} imports {where}")
            say(imported[-1])
            if not where.startswith(str(side.root)):
                msg = f"{side.name}: not imported from {side.root}"
                raise RuntimeError(msg)
        results: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        started = time.perf_counter()
        for r in range(args.rounds):
            order = sides[::-1] if args.swap and r % 2 else sides
            for side in order:
                say(f"round {r + 1}/{args.rounds}: {side.name} ...")
                results[side.label].append(side.run(run_args, args.timeout, args.bare))
        elapsed = time.perf_counter() - started
    except (RuntimeError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        detail = getattr(exc, "stderr", None) or ""
        say(f"ab: {exc}\n{detail}".rstrip())
        return 1
    finally:
        for side in sides:
            side.close()
        if args.keep:
            say(f"kept {tmp}")
        else:
            _remove(tmp)
    rows = summarize(results["old"], results["new"], args.threshold)
    shown = [
        r
        for r in rows
        if not args.figures or any(fnmatch.fnmatch(r["figure"], p) for p in args.figures)
    ]
    old_side, new_side = sides
    print("\n".join(imported))
    what = "the bare loops (--bare)" if args.bare else f"`run.py {args.run_args}`"
    print(
        f"{args.rounds} rounds of {what} per side, alternating processes"
        f" ({'swapped every other round' if args.swap else 'old first'}), {elapsed:.0f} s;"
        f" medians over rounds; verdict band ±{args.threshold:.0%}\n"
    )
    print(render(shown))
    only = sorted(set().union(*results["old"], *results["new"]) - {r["figure"] for r in rows})
    if only:
        print(f"\nfigures on one side only: {', '.join(only)}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(
                {
                    "old": old_side.name,
                    "new": new_side.name,
                    "imported": imported,
                    "rounds": args.rounds,
                    "run_args": args.run_args,
                    "swap": args.swap,
                    "figures": rows,
                },
                fh,
                indent=2,
            )
            fh.write("\n")
    return 0


def say(msg: str) -> None:
    """Print a progress line on stderr."""
    print(msg, file=sys.stderr, flush=True)


def _remove(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
