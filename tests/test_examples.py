"""Run every script in ``examples/`` as a subprocess and check what it prints.

The third-party plugin (``examples/third_party_plugin``) is used as installed
when it is (CI: ``pip install ./examples/third_party_plugin``); otherwise it is
installed into a temporary directory put on ``PYTHONPATH``, so these tests never
skip silently.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PLUGIN = EXAMPLES / "third_party_plugin"


def run(args: list[str], *, env: dict[str, str] | None = None, timeout: float = 60) -> str:
    proc = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
    )
    assert proc.returncode == 0, f"{args} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def test_every_example_script_is_tested() -> None:
    scripts = {p.name for p in EXAMPLES.glob("*.py")}
    assert scripts == {
        "quickstart.py",
        "turn_based_server.py",
        "realtime_threads.py",
        "house_rule_study.py",
    }


def test_quickstart_fits_in_15_lines_and_plays_a_seeded_game() -> None:
    text = (EXAMPLES / "quickstart.py").read_text()
    assert len(text.rstrip("\n").splitlines()) <= 15
    out = run([str(EXAMPLES / "quickstart.py")])
    assert out.startswith("winners:")  # as the README's example (tests/test_readme.py)
    assert re.search(r"winners: \['(Ann|Bob|Cy)'.*\] after \d+ actions", out)
    assert len(re.findall(r"^ *(Ann|Bob|Cy): +-?\d+ points$", out, re.M)) == 3
    assert out == run([str(EXAMPLES / "quickstart.py")])  # seeded: the same every time
    docs = (EXAMPLES.parent / "docs" / "examples.rst").read_text()
    shown = docs.split("$ python examples/quickstart.py\n", 1)[1].split("\n\n", 1)[0]
    assert [line.strip() for line in shown.splitlines()] == [
        line.strip() for line in out.strip().splitlines()
    ]  # the page prints what the script prints


def test_turn_based_server_saves_loads_and_continues_identically(tmp_path: Path) -> None:
    out = run([str(EXAMPLES / "turn_based_server.py"), str(tmp_path)])
    assert "not understood" in out and "GOLF-NOTE-1" in out
    assert "CORE-TURN-1" in out and "CORE-SEAT-1" in out
    assert "no table 'bridge-9'" in out
    assert out.count("views identical") == 3
    assert out.count("the loaded copy finished identically") == 3
    assert "damaged save refused" in out
    assert out.rstrip().endswith("ok")
    saves = sorted(p.name for p in tmp_path.glob("*.json"))
    assert saves == ["golf-1.json", "golf-2.json", "tonk-1.json"]
    assert json.loads((tmp_path / "tonk-1.json").read_text())["format"] == "cardcore-save"


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_realtime_threads_accounts_for_every_card(game: str) -> None:
    out = run([str(EXAMPLES / "realtime_threads.py"), game], timeout=90)
    assert "all 52 cards accounted for" in out
    assert "record replays identically" in out
    assert re.search(r"stale rejections handled: \d+", out)
    assert "other rejections: 0" in out
    assert out.rstrip().endswith("ok")


def test_house_rule_study_prints_shifts_and_saves_a_plot(tmp_path: Path) -> None:
    plot = tmp_path / "study.png"
    out = run([str(EXAMPLES / "house_rule_study.py"), str(plot), "--games", "80"])
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    shifts = {
        m[1]: float(m[2])
        for m in re.finditer(r"^(golf\.[\w-]+)\s+[\d.]+\s+[\d.]+\s+([+-][\d.]+)$", out, re.M)
    }
    assert "golf.hard" in shifts
    assert shifts["golf.hard"] > 2  # jacks 11, queens 12, kings 13 instead of the base table
    assert f"plot saved to {plot}" in out


# -- the third-party plugin -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment in which ``cardcore_golf_snowman`` is installed (as is, or into a temp dir)."""
    names = {ep.name for ep in importlib.metadata.entry_points(group="cardcore.rules")}
    if importlib.util.find_spec("cardcore_golf_snowman") is not None and "golf.snowman" in names:
        return {}
    target = tmp_path_factory.mktemp("snowman")
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "-q",
        "--no-deps",
        "--target",
        str(target),
        str(PLUGIN),
    ]
    if importlib.util.find_spec("hatchling") is not None:
        cmd.insert(5, "--no-build-isolation")
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    path = os.pathsep.join(p for p in (str(target), os.environ.get("PYTHONPATH", "")) if p)
    return {"PYTHONPATH": path}


def test_third_party_plugin_is_listed_by_cardcore_list(plugin_env: dict[str, str]) -> None:
    out = run(["-m", "cardcore.cli", "list", "golf"], env=plugin_env)
    assert "golf.snowman" in out
    assert "SNOWMAN-1" in out
    assert "Snowmen: every 8 scores 0" in out


CHECK_PLAY = """
import json, cardcore
from cardcore import Card
out = {}
for rules in ([], ["golf.snowman"]):
    game = cardcore.new_game("golf", 3, rules=rules, options={"rounds": 2}, seed=5)
    cardcore.play(game, [cardcore.RandomAgent(seed=s) for s in range(3)])
    out[" ".join(rules) or "base"] = list(game.result.scores)
    out["rules " + (" ".join(rules) or "base")] = game.rules
snow = cardcore.get_ruleset("golf", ["golf.snowman"]).resolve("card_points")
base = cardcore.get_ruleset("golf").resolve("card_points")
out["eight"] = snow(card=Card.parse("8H"))
out["base eight"] = base(card=Card.parse("8H")) if base else None
out["nine"] = snow(card=Card.parse("9H"))
out["base nine"] = base(card=Card.parse("9H")) if base else None
s = cardcore.simulate("golf", games=60, players=3, options={"rounds": 1}, seed=3)
t = cardcore.simulate("golf", games=60, players=3, options={"rounds": 1}, seed=3, rules=["golf.snowman"])
out["means"] = [sum(s.mean_scores), sum(t.mean_scores)]
print(json.dumps(out))
"""


def test_third_party_plugin_changes_play(plugin_env: dict[str, str]) -> None:
    data = json.loads(run(["-c", CHECK_PLAY], env=plugin_env).strip().splitlines()[-1])
    assert data["rules golf.snowman"] == ["golf.snowman"]
    assert data["eight"] == 0 and data["base eight"] != 0
    assert data["nine"] == data["base nine"]  # other cards are left to the game
    assert data["base"] != data["golf.snowman"]  # the same seeded game scores differently
    base, snow = data["means"]
    assert snow < base  # 8s are worth nothing, so scores fall


def test_third_party_plugin_works_from_the_command(plugin_env: dict[str, str]) -> None:
    out = run(
        [
            "-m",
            "cardcore.cli",
            "simulate",
            "golf",
            "-n",
            "20",
            "-p",
            "2",
            "--rules",
            "golf.snowman",
            "-q",
        ],
        env=plugin_env,
    )
    assert "golf: 20 games, 2 players" in out and "win rate" in out


def test_third_party_plugin_uses_the_public_api_only() -> None:
    import ast

    import cardcore

    for path in (PLUGIN / "cardcore_golf_snowman").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cardcore"):
                assert node.module == "cardcore", f"{path.name} imports from {node.module}"
                for alias in node.names:
                    assert alias.name in cardcore.__all__, alias.name
            if isinstance(node, ast.Import):
                assert all(not a.name.startswith("cardcore.") for a in node.names)


def test_examples_pass_the_version_they_acted_on() -> None:
    for name in ("turn_based_server.py", "realtime_threads.py"):
        text = (EXAMPLES / name).read_text()
        assert 'seen=view["version"]' in text or 'seen = view["version"]' in text, name
