"""cardcore installed with no extras (``pip install cardcore-*.whl``), as many users do.

Found by building the wheel, installing only it in a fresh virtual environment and
trying what the docs show. These tests reproduce the findings without a fresh venv:
each scenario runs in a subprocess whose ``sys.meta_path`` blocks the packages an
extra would bring (so they cannot be imported, exactly as when they are not
installed); the wheel's contents are checked through its build configuration
(``[tool.hatch.build.targets.wheel]``) and the files it packs.

What holds: the core, the four games, agents, ``simulate`` (in-process and with
processes), ``compare`` and the conformance kit need no extra; the ``cardcore``
command, ``--plot``, ``--dask``, ``serve`` and ``Comparison.plot`` name the extra to
install. What does not: ``import cardcore.rl`` and ``import cardcore.web`` end in a
raw ``ModuleNotFoundError`` that names numpy/gymnasium or starlette, not the extra.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

# the top-level packages each extra brings (what a no-extras install lacks)
RL = ("numpy", "gymnasium", "pettingzoo")
WEB = ("starlette", "uvicorn", "websockets", "httpx", "playwright")
EVERY_EXTRA = (*RL, *WEB, "matplotlib", "dask", "distributed", "rich", "hypothesis", "pytest")

_BLOCKER = """
import importlib.abc, sys
BLOCKED = frozenset({blocked!r})
class _NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, _NotInstalled())
"""


def run_without(blocked: tuple[str, ...], code: str, timeout: float = 60) -> Any:
    """Run *code* in a fresh interpreter where *blocked* packages cannot be imported;
    return the JSON it prints on its last line."""
    script = _BLOCKER.format(blocked=sorted(blocked)) + textwrap.dedent(code)
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


# -- what works with no extra ---------------------------------------------------------------

_CORE = """
import json, sys
from concurrent.futures import ProcessPoolExecutor
import cardcore

out = {}
# the README's embedding loop
game = cardcore.new_game("golf", ["Ann", "Bob"], options={"rounds": 1}, seed=7)
agent = cardcore.RandomAgent(seed=1)
while not game.is_over:
    seat = game.to_act[0]
    view = game.view(seat)
    action = agent.choose(view, game.legal_actions(seat))
    game.act(seat, str(action), seen=view["version"])
out["readme"] = [cardcore.load(game.save()).version == game.version, game.result.reason]

# the tutorial's first steps (a fixed seed: a fixed deal)
tut = cardcore.new_game("golf", ["Ann", "Bob"], options={"rounds": 1}, seed=7)
out["tutorial_legal"] = tut.view(0)["legal"]
out["tutorial_discard"] = tut.view(0)["table"]["discard"]

games = {}
for name in ("golf", "tonk", "spit", "speed"):
    options = {"rounds": 1} if name == "golf" else None
    g = cardcore.new_game(name, ["Ann", "Bob"], options=options, seed=3)
    seat = g.to_act[0]
    view = g.view(seat)
    g.act(seat, view["legal"][0], seen=view["version"])
    agents = [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]
    if name in ("spit", "speed"):
        cardcore.run_realtime(g, agents)
    else:
        cardcore.play(g, agents)
    record = json.dumps(g.record())
    games[name] = {
        "over": g.is_over,
        "replays": cardcore.replay(record).view(None) == g.view(None),
        "loads": cardcore.load(json.dumps(g.save())).view(0) == g.view(0),
    }
out["games"] = games
out["agents"] = list(cardcore.available_agents())

here = cardcore.simulate("golf", games=6, players=2, seed=1, agents=["golf-greedy"])
if __name__ == "__main__":
    with ProcessPoolExecutor(2) as pool:
        there = cardcore.simulate(
            "golf", games=6, players=2, seed=1, agents=["golf-greedy"], executor=pool, chunk=3
        )
out["simulate"] = [here.games, here == there]
out["ismcts"] = cardcore.simulate("tonk", games=2, seed=1, agents=["ismcts:iterations=5"]).games

cmp = cardcore.compare("golf", rules=["golf.jokers"], games=4, seed=1)
out["compare_table"] = "golf.jokers" in cmp.table()
try:
    cmp.plot("unused.png")
    out["plot"] = None
except Exception as exc:
    out["plot"] = [type(exc).__name__, isinstance(exc, cardcore.CardcoreError), str(exc)]

from cardcore.testing import check_game
report = check_game("golf", players=2, rules=["golf.jokers"], games=1, seed=0)
out["kit"] = [report.cards_lost, report.leaks]

import cardcore.session, cardcore.session.aio, cardcore.search, cardcore.cli  # no extra either
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def no_extras() -> dict[str, Any]:
    return run_without(EVERY_EXTRA, _CORE)


def test_readme_and_tutorial_run_without_extras(no_extras: dict[str, Any]) -> None:
    assert no_extras["readme"] == [True, "rounds"]
    assert no_extras["tutorial_legal"] == [f"flip {i}" for i in range(6)]
    assert no_extras["tutorial_discard"] == "QS"


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
def test_each_game_plays_records_replays_and_loads_without_extras(
    no_extras: dict[str, Any], name: str
) -> None:
    assert no_extras["games"][name] == {"over": True, "replays": True, "loads": True}


def test_agents_simulate_and_compare_run_without_extras(no_extras: dict[str, Any]) -> None:
    assert {"random", "ismcts", "golf-greedy", "tonk-heuristic", "spit-greedy"} <= set(
        no_extras["agents"]
    )
    assert no_extras["simulate"] == [6, True]  # in-process == process pool
    assert no_extras["ismcts"] == 2
    assert no_extras["compare_table"] is True


def test_comparison_plot_without_matplotlib_names_the_plot_extra(no_extras: dict[str, Any]) -> None:
    kind, is_cardcore_error, message = no_extras["plot"]
    assert is_cardcore_error, kind
    assert "cardcore[plot]" in message and "matplotlib" in message


def test_testing_kit_needs_neither_pytest_nor_hypothesis(no_extras: dict[str, Any]) -> None:
    assert no_extras["kit"] == [0, 0]


# -- the command without the cli extra (and its options without theirs) ---------------------

_CLI = """
import contextlib, io, json, os, runpy, sys, tempfile
from cardcore import cli

def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as exc:
            status = exc.code
    return [status, out.getvalue(), err.getvalue()]

tmp = tempfile.mkdtemp()
result = {{}}
for argv in {commands!r}:
    result[" ".join(argv)] = run([a.replace("TMP", tmp) for a in argv])
if {module_main!r}:
    sys.argv = ["cardcore", "--help"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            runpy.run_module("cardcore", run_name="__main__")
        except SystemExit as exc:
            result["python -m cardcore --help"] = [exc.code, out.getvalue(), ""]
print(json.dumps(result))
"""


@pytest.fixture(scope="module")
def cli_without_extras() -> dict[str, list[Any]]:
    commands = [["--help"], ["simulate", "golf"], ["play", "golf"], ["list"], ["serve"]]
    return run_without(EVERY_EXTRA, _CLI.format(commands=commands, module_main=True))


def test_cardcore_help_and_python_m_cardcore_work_without_rich(
    cli_without_extras: dict[str, list[Any]],
) -> None:
    for key in ("--help", "python -m cardcore --help"):
        status, out, _ = cli_without_extras[key]
        assert status == 0, key
        assert "usage: cardcore" in out and "simulate" in out, key


@pytest.mark.parametrize("command", ["simulate golf", "play golf", "list"])
def test_commands_without_rich_name_the_cli_extra(
    cli_without_extras: dict[str, list[Any]], command: str
) -> None:
    status, _, err = cli_without_extras[command]
    assert status == 1  # docs/cli.rst: "1 for any other error (rich missing too)"
    assert err.startswith("error: ") and "cardcore[cli]" in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_serve_without_web_names_the_web_extra(cli_without_extras: dict[str, list[Any]]) -> None:
    status, _, err = cli_without_extras["serve"]
    assert status == 2  # docs/cli.rst: an option whose extra is not installed
    assert "cardcore[web]" in err and "Traceback" not in err


def test_serve_with_starlette_but_without_uvicorn_names_the_web_extra() -> None:
    found = run_without(("uvicorn",), _CLI.format(commands=[["serve"]], module_main=False))
    status, _, err = found["serve"]
    assert status == 2 and "cardcore[web]" in err and "Traceback" not in err


def test_dask_and_plot_options_name_their_extras() -> None:
    commands = [
        ["simulate", "golf", "--games", "2", "--dask", "local", "--quiet"],
        ["compare", "golf", "--rules", "golf.jokers", "--games", "2", "--plot", "TMP/c.png"],
    ]
    found = run_without(
        ("dask", "distributed", "matplotlib"), _CLI.format(commands=commands, module_main=False)
    )
    (dask_status, _, dask_err), (plot_status, _, plot_err) = found.values()
    assert dask_status == 2 and "cardcore[dask]" in dask_err and "Traceback" not in dask_err
    assert plot_status == 2 and "cardcore[plot]" in plot_err and "Traceback" not in plot_err


# -- rl and web without their extras: raw ModuleNotFoundError (bugs) ------------------------

_IMPORT = """
import importlib, json
try:
    importlib.import_module({module!r})
    {attribute}
    print(json.dumps(None))
except Exception as exc:
    print(json.dumps([type(exc).__name__, isinstance(exc, ImportError), str(exc)]))
"""


def import_error(blocked: tuple[str, ...], module: str, attribute: str = "") -> list[Any] | None:
    return run_without(blocked, _IMPORT.format(module=module, attribute=attribute or "pass"))


def test_cardcore_rl_imports_when_the_rl_extra_is_there() -> None:
    """The blocker is what makes the bugs below: with the packages present, both import."""
    assert import_error(("starlette",), "cardcore.rl") is None
    assert import_error(RL, "cardcore.session") is None


RL_MODULES = [
    ("cardcore.rl", "getattr(importlib.import_module('cardcore.rl'), 'aec_env')"),
    ("cardcore.rl", "getattr(importlib.import_module('cardcore.rl'), 'gym_env')"),
    ("cardcore.rl.aec", ""),
    ("cardcore.rl.seat", ""),
    ("cardcore.rl.vector", ""),
]


@pytest.mark.parametrize(("module", "attribute"), RL_MODULES)
def test_cardcore_rl_without_the_rl_extra_names_it(module: str, attribute: str) -> None:
    found = import_error(RL, module, attribute)
    assert found is not None
    _kind, _is_import_error, message = found
    assert "cardcore[rl]" in message


def test_cardcore_rl_with_numpy_but_without_gymnasium_names_the_rl_extra() -> None:
    found = import_error(("gymnasium", "pettingzoo"), "cardcore.rl")
    assert found is not None
    assert "cardcore[rl]" in found[2]


@pytest.mark.parametrize(
    ("module", "attribute"),
    [
        ("cardcore.web", ""),
        ("cardcore.web", "getattr(importlib.import_module('cardcore.web'), 'create_app')"),
    ],
)
def test_cardcore_web_without_the_web_extra_names_it(module: str, attribute: str) -> None:
    found = import_error(WEB, module, attribute)
    assert found is not None
    assert "cardcore[web]" in found[2]


# -- the wheel: what its build configuration packs ------------------------------------------

WHEEL = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]
PACKAGES = [ROOT / p for p in WHEEL["packages"]]


def tracked(path: Path) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "--", str(path.relative_to(ROOT))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.split()


def test_wheel_packs_cardcore_and_each_bundled_plugin_with_py_typed() -> None:
    names = sorted(p.name for p in PACKAGES)
    assert names == ["cardcore", "cardcore_golf", "cardcore_spit", "cardcore_tonk"]
    for package in PACKAGES:
        assert (package / "py.typed").is_file(), package
        assert tracked(package / "py.typed"), f"{package}/py.typed is not in git"
    # every module a games/rules/agents entry point names lives in a packed package
    for group in ("cardcore.games", "cardcore.rules", "cardcore.agents"):
        for target in PYPROJECT["project"]["entry-points"][group].values():
            top = target.split(":")[0].split(".")[0]
            assert top in names, target


def test_wheel_ships_the_web_static_files_its_pages_load() -> None:
    static = ROOT / "src/cardcore/web/static"
    files = {Path(f).name for f in tracked(static)}
    assert {"index.html", "play.html", "app.css"} <= files
    referenced: set[str] = set()
    for page in static.glob("*.html"):
        referenced |= set(re.findall(r"/static/([\w.-]+)", page.read_text(encoding="utf-8")))
    assert referenced and referenced <= files
    ignored = subprocess.run(
        ["git", "check-ignore", *(str(static / f) for f in sorted(files))],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert ignored.stdout == ""  # hatchling leaves out what .gitignore matches


def test_wheel_ships_the_rules_text_of_every_game_and_of_the_core() -> None:
    force = WHEEL["force-include"]
    shipped = {dest: ROOT / src for src, dest in force.items()}
    expected_ids = {
        "cardcore_golf/RULES.md": "GOLF-SCORE-6",
        "cardcore_tonk/RULES.md": "TONK-DROP-2",
        "cardcore_spit/RULES.md": "SPEED-SETUP-1",  # Spit and Speed share one file
        "cardcore/RULES.md": "CORE-SEAT-2",
    }
    assert set(shipped) == set(expected_ids)
    for dest, rule_id in expected_ids.items():
        assert rule_id in shipped[dest].read_text(encoding="utf-8"), dest
    # `cardcore rules GAME` looks in the game module's package, then its parents
    for game, target in PYPROJECT["project"]["entry-points"]["cardcore.games"].items():
        assert f"{target.split('.')[0]}/RULES.md" in shipped, game


def test_wheel_packs_no_tests_or_junk() -> None:
    allowed = {".py", ".typed", ".html", ".css", ".js"}
    for package in PACKAGES:
        for name in tracked(package):
            path = Path(name)
            assert path.suffix in allowed, name
            assert not path.name.startswith(("test_", "conftest")), name
            assert "tests" not in path.parts and "fixtures" not in path.parts, name


def test_metadata_lists_every_extra_the_docs_name() -> None:
    text = "\n".join(
        p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *ROOT.glob("docs/**/*.rst")]
    )
    named: set[str] = set()
    for group in re.findall(r"(?:cardcore|\.)\[([a-z,-]+)\]", text):
        named |= set(group.split(","))
    named |= set(re.findall(r"``([a-z-]+)`` extra", text))
    declared = set(PYPROJECT["project"]["optional-dependencies"])
    assert {"cli", "dask", "dev", "rl", "plot", "web", "web-test"} <= named
    assert named <= declared
    provided = set(metadata.metadata("cardcore").get_all("Provides-Extra") or [])
    assert provided == declared  # a stale install: pip install -e . again (README)
    requires = "\n".join(metadata.requires("cardcore") or [])
    for package in ("numpy", "gymnasium", "pettingzoo"):
        assert f"{package}>=" in requires and "extra == 'rl'" in requires
    base = [r for r in metadata.requires("cardcore") or [] if "extra ==" not in r]
    assert sorted(re.split(r"[<>=!~ ;\[]", r)[0] for r in base) == [
        "attrs",
        "pluggy",
        "typing-extensions",
    ]
