"""Mutation testing of each game's scoring, payout and legality code with mutmut 3.

Usage::

    /work/venv/bin/pip install "mutmut>=3,<4"
    python scripts/mutation.py                 # every game
    python scripts/mutation.py golf --max-children 2

For each game the script builds a workspace outside the checkout
(``--workdir``, default ``/tmp/cardcore-mutation/<game>``): the core and the
plugin packages under ``src/`` (so mutmut's ``mutants/src`` shadows the
editable install), the shared test fixtures, the game's own tests and the
kill tests in ``tests/conformance/test_mutation_<game>.py``. It writes a
``setup.cfg`` with a ``[mutmut]`` section, runs ``mutmut run`` there, and
prints killed / survived / other per game and the share of mutants killed.
``--list-survivors`` prints the surviving mutant names (``mutmut show NAME``
in the workspace shows the diff).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTMUT = Path(sys.executable).with_name("mutmut")

TARGETS: dict[str, list[str]] = {
    "golf": ["cardcore_golf/grids.py"],
    "tonk": ["cardcore_tonk/melds.py"],
    "spit": ["cardcore_spit/piles.py"],
}
"""Per game, the pure helpers holding its scoring, payout and legality rules."""


def workspace(game: str, base: Path) -> Path:
    """Build a fresh workspace for *game* and return its path."""
    ws = base / game
    if ws.exists():
        shutil.rmtree(ws)
    (ws / "src").mkdir(parents=True)
    shutil.copytree(ROOT / "src" / "cardcore", ws / "src" / "cardcore")
    for pkg in sorted((ROOT / "plugins").glob("cardcore_*")):
        shutil.copytree(pkg, ws / "src" / pkg.name)
    for extra in ("benchmarks", "seeds", "examples", "scripts", "docs"):
        if (ROOT / extra).is_dir():
            shutil.copytree(
                ROOT / extra, ws / extra, ignore=shutil.ignore_patterns("_build", "__pycache__")
            )
    tests = ws / "tests"
    (tests / "games").mkdir(parents=True)
    (tests / "conformance").mkdir()
    for name in ("__init__.py", "conftest.py"):
        shutil.copy(ROOT / "tests" / name, tests / name)
    (tests / "games" / "__init__.py").write_text("")
    (tests / "conformance" / "__init__.py").write_text("")
    shutil.copytree(ROOT / "tests" / "plugins", tests / "plugins")
    shutil.copytree(ROOT / "tests" / "games" / game, tests / "games" / game)
    kill = ROOT / "tests" / "conformance" / f"test_mutation_{game}.py"
    selection = [f"tests/games/{game}"]
    if kill.exists():
        shutil.copy(kill, tests / "conformance" / kill.name)
        selection.append(f"tests/conformance/{kill.name}")
    paths = "\n    ".join(f"src/{t}" for t in TARGETS[game])
    sel = "\n    ".join(selection)
    (ws / "setup.cfg").write_text(
        "[mutmut]\n"
        f"source_paths =\n    {paths}\n"
        "also_copy =\n    src/\n    tests/\n    benchmarks/\n    seeds/\n    examples/\n    scripts/\n    docs/\n"
        f"pytest_add_cli_args_test_selection =\n    {sel}\n"
        "pytest_add_cli_args =\n    -p\n    no:cacheprovider\n    -x\n    -q\n"
        "\n[tool:pytest]\naddopts = -q\nmarkers =\n    slow: longer runs\n"
    )
    return ws


def stats(ws: Path) -> dict[str, int]:
    """Read mutmut's per-mutant results from the workspace."""
    subprocess.run([str(MUTMUT), "export-cicd-stats"], cwd=ws, check=False, capture_output=True)
    path = ws / "mutants" / "mutmut-cicd-stats.json"
    if path.exists():
        data: dict[str, int] = json.loads(path.read_text())
        return data
    return {}


def survivors(ws: Path) -> list[str]:
    """Return the names of the surviving mutants."""
    out = subprocess.run(
        [str(MUTMUT), "results"], cwd=ws, check=False, capture_output=True, text=True
    ).stdout
    return [
        line.split(":")[0].strip() for line in out.splitlines() if line.strip().endswith("survived")
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=sorted(TARGETS))
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/cardcore-mutation"))
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--list-survivors", action="store_true")
    parser.add_argument(
        "--resume", action="store_true", help="keep an existing workspace (mutmut resumes)"
    )
    args = parser.parse_args(argv)
    rows = []
    for game in args.games:
        ws = args.workdir / game
        if not (args.resume and (ws / "setup.cfg").exists()):
            ws = workspace(game, args.workdir)
        print(f"== {game}: mutmut run in {ws}", flush=True)
        subprocess.run(
            [str(MUTMUT), "run", "--max-children", str(args.max_children)], cwd=ws, check=False
        )
        st = stats(ws)
        killed = st.get("killed", 0) + st.get("timeout", 0)
        survived = st.get("survived", 0)
        other = st.get("total", 0) - killed - survived
        tested = killed + survived
        share = killed / tested if tested else 0.0
        rows.append((game, st.get("total", 0), killed, survived, other, share))
        if args.list_survivors:
            for name in survivors(ws):
                print(f"  survived: {name}")
    print(f"{'game':<8}{'mutants':>9}{'killed':>8}{'survived':>10}{'other':>7}{'killed %':>10}")
    for game, total, killed, survived, other, share in rows:
        print(f"{game:<8}{total:>9}{killed:>8}{survived:>10}{other:>7}{share:>10.1%}")
    print("(killed includes timeouts; other = no tests, skipped, suspicious or not checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
