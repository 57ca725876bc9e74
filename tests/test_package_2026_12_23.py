"""cardcore as shipped: the built wheel and sdist, and what importing it costs.

Seen as a user who embeds cardcore in a serverless function, a bot or a training loop
and installs the wheel, not the checkout. The module builds the sdist and the wheel
once (hatchling, the build backend pyproject names, installed into a temporary folder
when this environment lacks it; skipped when it cannot be had), builds a second wheel
from the unpacked sdist, and checks:

* the wheel's files (every package, ``py.typed``, ``RULES.md``, the web pages' files),
  its entry points (each resolves to a module and attribute of the wheel) and its
  metadata (name, version = ``cardcore.__version__``, Requires-Python, extras);
* the wheel built from the sdist is the wheel built from the checkout;
* the wheel's code, imported from the unpacked wheel, plays and replays each game with
  warnings as errors (``-X dev -W error``) and imports no extra's package;
* the wheel installed into a fresh virtual environment without extras (skipped when
  pip cannot fetch attrs, pluggy and typing-extensions);
* ``import cardcore`` in this environment imports no extra and no game plugin.

What does not hold (strict xfails): no licence text ships in the wheel or the sdist
(pyproject says MIT, whose terms ask that the notice go with every copy);
``cardcore.cli.commands`` imports ``markdown_it`` itself, a package no requirement of
cardcore names (it comes only through rich); the sdist ships tests that load
``scripts/`` and ``.ci/`` files it leaves out.
"""

from __future__ import annotations

import ast
import configparser
import json
import os
import re
import subprocess
import sys
import tarfile
import textwrap
import tomllib
import zipfile
from email.parser import Parser
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
WHEEL_CONFIG = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]
PACKAGES = {Path(p).name: ROOT / p for p in WHEEL_CONFIG["packages"]}
VERSION = PROJECT["version"]
DIST_INFO = f"cardcore-{VERSION}.dist-info"
GAMES = ("golf", "tonk", "spit", "speed")

# the top-level modules an extra brings (none may load with plain `import cardcore`)
OPTIONAL = (
    "rich",
    "markdown_it",
    "numpy",
    "gymnasium",
    "pettingzoo",
    "starlette",
    "uvicorn",
    "websockets",
    "httpx",
    "playwright",
    "matplotlib",
    "dask",
    "distributed",
    "pytest",
    "hypothesis",
)

_BUILD = """
import json, sys
from hatchling.build import build_sdist, build_wheel
out = sys.argv[1]
names = [build_wheel(out)] if sys.argv[2] == "wheel" else [build_sdist(out), build_wheel(out)]
print(json.dumps(names))
"""


def _build_env(base: Path) -> dict[str, str]:
    """An environment whose Python can import hatchling (installed into *base* if needed)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    probe = subprocess.run([sys.executable, "-c", "import hatchling"], capture_output=True, env=env)
    if probe.returncode == 0:
        return env
    tools = base / "tools"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--target", str(tools), "hatchling>=1.21"],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    if proc.returncode != 0:
        pytest.skip(f"hatchling (the build backend) cannot be installed: {proc.stderr[-300:]}")
    env["PYTHONPATH"] = str(tools)
    return env


def _run_build(cwd: Path, out: Path, what: str, env: dict[str, str]) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-c", _BUILD, str(out), what],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return list(json.loads(proc.stdout.strip().splitlines()[-1]))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("package")
    env = _build_env(base)
    dist = base / "dist"
    sdist_name, wheel_name = _run_build(ROOT, dist, "both", env)
    sdist, wheel = dist / sdist_name, dist / wheel_name
    unpacked = base / "sdist"
    with tarfile.open(sdist) as archive:
        archive.extractall(unpacked, filter="data")
    (source,) = unpacked.iterdir()
    (from_sdist_name,) = _run_build(source, base / "from-sdist", "wheel", env)
    site = base / "site"  # the wheel unpacked, as an installer would lay it out
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
        wheel_files = {name: zf.read(name) for name in zf.namelist()}
    with zipfile.ZipFile(base / "from-sdist" / from_sdist_name) as zf:
        from_sdist_files = {name: zf.read(name) for name in zf.namelist()}
    with tarfile.open(sdist) as archive:
        sdist_names = {name.partition("/")[2] for name in archive.getnames()}
    return {
        "base": base,
        "wheel": wheel,
        "wheel_name": wheel_name,
        "sdist_name": sdist_name,
        "files": wheel_files,
        "from_sdist": from_sdist_files,
        "sdist_names": sdist_names,
        "sdist_root": source,
        "site": site,
    }


def _metadata(built: dict[str, Any]) -> Any:
    return Parser().parsestr(built["files"][f"{DIST_INFO}/METADATA"].decode("utf-8"))


def _tracked(path: Path) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "--", str(path.relative_to(ROOT))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.split()


def _run_wheel_code(built: dict[str, Any], code: str, *flags: str) -> tuple[Any, str]:
    """Run *code* in this interpreter with the unpacked wheel first on the path; return the
    JSON it prints last and its stderr."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(built["site"])
    proc = subprocess.run(
        [sys.executable, *flags, "-c", textwrap.dedent(code)],
        cwd=built["base"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


# -- the builds ------------------------------------------------------------------------------


def test_build_names_follow_the_project_name_and_version(built: dict[str, Any]) -> None:
    assert built["wheel_name"] == f"cardcore-{VERSION}-py3-none-any.whl"
    assert built["sdist_name"] == f"cardcore-{VERSION}.tar.gz"


def test_a_wheel_built_from_the_sdist_is_the_wheel_built_from_the_checkout(
    built: dict[str, Any],
) -> None:
    """The sdist holds everything the wheel needs: the seeds force-include maps, README."""
    assert set(built["from_sdist"]) == set(built["files"])
    differ = [n for n in built["files"] if built["files"][n] != built["from_sdist"][n]]
    assert differ == []
    for source in WHEEL_CONFIG["force-include"]:
        assert source in built["sdist_names"], source
    assert {"README.md", "pyproject.toml", "PKG-INFO"} <= built["sdist_names"]


# -- the wheel's files -----------------------------------------------------------------------


def test_wheel_holds_the_four_packages_and_only_them(built: dict[str, Any]) -> None:
    tops = {name.split("/")[0] for name in built["files"]}
    assert tops == {*PACKAGES, DIST_INFO}
    assert not [n for n in built["files"] if "__pycache__" in n or n.endswith(".pyc")]


def test_wheel_packs_every_tracked_file_of_each_package(built: dict[str, Any]) -> None:
    for name, folder in PACKAGES.items():
        for path in _tracked(folder):
            inside = f"{name}/{Path(path).relative_to(folder.relative_to(ROOT)).as_posix()}"
            assert inside in built["files"], inside


@pytest.mark.parametrize("package", ["cardcore", "cardcore_golf", "cardcore_tonk", "cardcore_spit"])
def test_every_typed_package_ships_py_typed(built: dict[str, Any], package: str) -> None:
    assert f"{package}/py.typed" in built["files"]
    assert "Typing :: Typed" in _metadata(built).get_all("Classifier")


def test_wheel_rules_files_are_the_seeds(built: dict[str, Any]) -> None:
    forced = WHEEL_CONFIG["force-include"]
    assert set(forced.values()) == {
        "cardcore/RULES.md",
        "cardcore_golf/RULES.md",
        "cardcore_tonk/RULES.md",
        "cardcore_spit/RULES.md",
    }
    for source, inside in forced.items():
        assert built["files"][inside] == (ROOT / source).read_bytes(), inside


def test_wheel_ships_every_static_file_the_web_pages_load(built: dict[str, Any]) -> None:
    static = {n.rpartition("/")[2] for n in built["files"] if n.startswith("cardcore/web/static/")}
    referenced: set[str] = set()
    for name, data in built["files"].items():
        if name.startswith("cardcore/web/static/") and name.endswith((".html", ".js", ".css")):
            referenced |= set(re.findall(r"/static/([\w.-]+)", data.decode("utf-8")))
    assert {"index.html", "play.html"} <= static
    assert {"app.css", "cards.js", "lobby.js", "play.js"} <= referenced <= static


# -- entry points and metadata ---------------------------------------------------------------


def _wheel_entry_points(built: dict[str, Any]) -> dict[str, dict[str, str]]:
    parser = configparser.ConfigParser(delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(built["files"][f"{DIST_INFO}/entry_points.txt"].decode("utf-8"))
    return {group: dict(parser[group]) for group in parser.sections()}


def test_wheel_entry_points_are_pyprojects(built: dict[str, Any]) -> None:
    found = _wheel_entry_points(built)
    declared = {group: dict(entries) for group, entries in PROJECT["entry-points"].items()}
    declared["console_scripts"] = dict(PROJECT["scripts"])
    assert found == declared
    for group, entries in found.items():
        for target in entries.values():
            module = target.partition(":")[0].replace(".", "/")
            assert {f"{module}.py", f"{module}/__init__.py"} & set(built["files"]), (group, target)


def test_every_entry_point_of_the_wheel_loads_its_declared_object(built: dict[str, Any]) -> None:
    code = f"""
    import importlib, json
    import cardcore
    assert cardcore.__file__.startswith({str(built["site"])!r}), cardcore.__file__
    found = {{}}
    for group, entries in {_wheel_entry_points(built)!r}.items():
        for name, target in entries.items():
            module_name, _, attribute = target.partition(":")
            module = importlib.import_module(module_name)
            if group == "cardcore.games":
                found[name] = module.GAME.name
            elif group == "cardcore.rules":
                found[name] = module.RULE.name
            else:
                found[name] = isinstance(getattr(module, attribute), type) or callable(getattr(module, attribute))
    print(json.dumps(found))
    """
    found, _ = _run_wheel_code(built, code)
    for group in ("cardcore.games", "cardcore.rules"):
        for name in PROJECT["entry-points"][group]:
            assert found[name] == name, (group, name)  # the declared name is the entry's
    for name in PROJECT["entry-points"]["cardcore.agents"]:
        assert found[name] is True, name
    assert found["cardcore"] is True


def test_wheel_metadata(built: dict[str, Any]) -> None:
    meta = _metadata(built)
    init = built["files"]["cardcore/__init__.py"].decode("utf-8")
    (version,) = re.findall(r'^__version__ = "([^"]+)"$', init, re.M)
    assert meta["Name"] == "cardcore"
    assert meta["Version"] == version == VERSION
    assert meta["Requires-Python"] == ">=3.11"
    assert meta["License"] == "MIT"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert set(meta.get_all("Provides-Extra")) == set(PROJECT["optional-dependencies"])
    base = sorted(
        re.split(r"[<>=!~ ;\[]", r)[0] for r in meta.get_all("Requires-Dist") if "extra ==" not in r
    )
    assert base == ["attrs", "pluggy", "typing-extensions"]


def test_the_extras_the_docs_name_are_in_the_wheel(built: dict[str, Any]) -> None:
    text = "\n".join(
        p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *ROOT.glob("docs/**/*.rst")]
    )
    named: set[str] = set()
    for group in re.findall(r"(?:cardcore|\.)\[([a-z,-]+)\]", text):
        named |= set(group.split(","))
    assert {"cli", "rl", "web", "plot", "dask"} <= named
    assert named <= set(_metadata(built).get_all("Provides-Extra"))


def test_the_licence_text_ships_in_the_sdist_and_the_wheel(built: dict[str, Any]) -> None:
    licence = re.compile(r"(?i)(licen[cs]e|copying)")
    assert [n for n in built["sdist_names"] if "/" not in n and licence.match(n)]
    assert [n for n in built["files"] if n.startswith(f"{DIST_INFO}/licenses/")]


def _requirement_names(built: dict[str, Any]) -> set[str]:
    names = set()
    for requirement in _metadata(built).get_all("Requires-Dist"):
        names.add(re.split(r"[<>=!~ ;\[]", requirement)[0].lower().replace("_", "-"))
    return names


def test_every_third_party_module_the_wheel_imports_is_a_declared_requirement(
    built: dict[str, Any],
) -> None:
    owners = metadata.packages_distributions()
    declared = _requirement_names(built)
    undeclared: dict[str, str] = {}
    for name, data in built["files"].items():
        if not name.endswith(".py"):
            continue
        for node in ast.walk(ast.parse(data, filename=name)):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.partition(".")[0]
                if (
                    top in sys.stdlib_module_names
                    or top.startswith("cardcore")
                    or top == "__future__"
                ):
                    continue
                dists = {d.lower().replace("_", "-") for d in owners.get(top, [top])}
                if not dists & declared:
                    undeclared[top] = name
    assert undeclared == {}


def test_the_sdist_has_the_folders_its_tests_load(built: dict[str, Any]) -> None:
    wanted: dict[str, str] = {}
    for name in built["sdist_names"]:
        if name.startswith("tests/") and name.endswith(".py"):
            text = (built["sdist_root"] / name).read_text(encoding="utf-8")
            for folder in re.findall(r'\bROOT\s*/\s*"(scripts|\.ci)"', text):
                wanted[folder] = name
    assert wanted  # the shipped tests do load them
    missing = {
        folder: test
        for folder, test in wanted.items()
        if not any(n.startswith(f"{folder}/") for n in built["sdist_names"])
    }
    assert missing == {}


# -- the wheel's code at work ----------------------------------------------------------------

_PLAY_EACH = f"""
import json, sys
before = set(sys.modules)
import cardcore
at_import = sorted(m for m in set(sys.modules) - before if m.startswith("cardcore_"))
from cardcore.cli.rulebook import find_rules
out = {{"file": cardcore.__file__, "at_import": at_import, "games": {{}}}}
for name in {GAMES!r}:
    game = cardcore.new_game(name, ["Ann", "Bob"], seed=3)
    agents = [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]
    (cardcore.run_realtime if name in ("spit", "speed") else cardcore.play)(game, agents)
    replayed = cardcore.replay(json.dumps(game.record()))
    loaded = cardcore.load(json.dumps(game.save()))
    out["games"][name] = [
        game.is_over,
        replayed.view(None) == game.view(None),
        loaded.version == game.version,
    ]
out["rules_md"] = {{m: (find_rules(m) or "")[:40] for m in
    ("cardcore_golf.rules", "cardcore_tonk.rules", "cardcore_spit.rules", "cardcore_spit.speed.rules")}}
out["optional"] = sorted(m for m in sys.modules if m.partition(".")[0] in {OPTIONAL!r})
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def wheel_play(built: dict[str, Any]) -> tuple[Any, str]:
    return _run_wheel_code(built, _PLAY_EACH, "-X", "dev", "-W", "error")


def test_the_wheels_code_plays_replays_and_loads_each_game(wheel_play: tuple[Any, str]) -> None:
    out, _ = wheel_play
    assert "/site/cardcore/" in Path(out["file"]).as_posix()
    for name in GAMES:
        assert out["games"][name] == [True, True, True], name


def test_the_wheels_rules_text_is_found_for_each_game(
    built: dict[str, Any], wheel_play: tuple[Any, str]
) -> None:
    out, _ = wheel_play
    assert len(out["rules_md"]) == 4
    for module, text in out["rules_md"].items():
        package = module.partition(".")[0]
        assert text and text == built["files"][f"{package}/RULES.md"].decode("utf-8")[:40], module


def test_no_warning_under_dev_mode_with_warnings_as_errors(wheel_play: tuple[Any, str]) -> None:
    """``-X dev -W error``: no DeprecationWarning, ResourceWarning (an unraisable one is
    only printed) or other warning from importing, playing, replaying and loading."""
    _, stderr = wheel_play
    assert stderr == ""


def test_the_wheels_code_imports_no_extra_and_no_plugin_at_import(
    wheel_play: tuple[Any, str],
) -> None:
    out, _ = wheel_play
    assert out["optional"] == []
    assert out["at_import"] == []  # plugin guide: a plugin module is "never" imported "at start-up"


# -- import cost in this environment (the extras installed) ----------------------------------


def _imported(code: str) -> tuple[list[str], int]:
    """Modules *code* imports (per ``-X importtime`` and ``sys.modules`` after it), and the
    cumulative µs ``-X importtime`` gives ``cardcore``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    names, total = list(json.loads(proc.stdout.strip().splitlines()[-1])), 0
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "self [us]" not in line:
            _, cumulative, name = line.split("|")
            names.append(name.strip())
            if name.strip() == "cardcore":
                total = int(cumulative)
    return names, total


def test_import_cardcore_loads_no_extra_even_when_the_extras_are_installed() -> None:
    names, total = _imported("import cardcore")
    assert total > 0 and "cardcore" in names
    assert [n for n in names if n.partition(".")[0] in OPTIONAL] == []
    assert [n for n in names if n.startswith("cardcore_")] == []
    assert (
        "cardcore.web" not in names and "cardcore.rl" not in names and "cardcore.cli" not in names
    )


def test_new_game_golf_loads_golf_only_and_no_extra() -> None:
    names, _ = _imported("import cardcore; cardcore.new_game('golf', 2, seed=1)")
    assert "cardcore_golf.rules" in names
    assert [n for n in names if n.partition(".")[0] in OPTIONAL] == []
    assert [n for n in names if n.startswith(("cardcore_tonk", "cardcore_spit"))] == []


# -- the wheel in a fresh virtual environment, no extras -------------------------------------

_FRESH = """
import json
out = {"games": {}}
import cardcore
out["version"] = cardcore.__version__
for name in ("golf", "tonk", "spit", "speed"):
    game = cardcore.new_game(name, 2, seed=3)
    out["games"][name] = game.version == 0 and bool(game.to_act)
for module in ("cardcore.web", "cardcore.rl"):
    try:
        __import__(module)
        out[module] = None
    except ImportError as exc:
        out[module] = str(exc)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def fresh(built: dict[str, Any]) -> Path:
    venv = built["base"] / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            str(built["wheel"]),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    if proc.returncode != 0:
        pytest.skip(f"the wheel's requirements cannot be fetched: {proc.stderr[-300:]}")
    return venv


def test_fresh_install_pip_check_is_clean(fresh: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(fresh / "bin" / "python"), "check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(fresh / "bin" / "python"), "list"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    names = {line.split()[0].lower().replace("_", "-") for line in listed.splitlines()[2:]}
    assert names == {"cardcore", "attrs", "pluggy", "typing-extensions"}


def test_fresh_install_without_extras_plays_and_names_the_extras(fresh: Path) -> None:
    proc = subprocess.run(
        [str(fresh / "bin" / "python"), "-I", "-c", _FRESH],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=fresh,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["version"] == VERSION
    assert out["games"] == dict.fromkeys(GAMES, True)
    assert "cardcore[web]" in out["cardcore.web"]  # docs/web.rst: says which extra
    assert "cardcore[rl]" in out["cardcore.rl"]  # docs/rl.rst: an ImportError naming the extra


def test_fresh_install_command_prints_the_rich_missing_message(fresh: Path) -> None:
    from cardcore.cli import RICH_MISSING

    proc = subprocess.run(
        [str(fresh / "bin" / "cardcore"), "list"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=fresh,
    )
    assert proc.returncode == 1  # docs/cli.rst: 1 for any other error (rich missing too)
    assert proc.stderr == f"error: {RICH_MISSING}\n"
    assert "cardcore[cli]" in RICH_MISSING
    version = subprocess.run(
        [str(fresh / "bin" / "cardcore"), "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=fresh,
    )
    assert version.returncode == 0 and version.stdout.split() == ["cardcore", VERSION]
