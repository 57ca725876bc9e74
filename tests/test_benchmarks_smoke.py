"""Smoke test of ``benchmarks/run.py``: runs it at a tiny size so it cannot rot.

Not a timed test: it checks that every figure is produced and well formed, and
that the bare loops play the same games as the engine (same decisions per game),
never how fast anything is.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import random
import statistics
import sys
from pathlib import Path
from types import ModuleType

import pytest

import cardcore

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def _module(name: str) -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    out = tmp_path_factory.mktemp("bench") / "out.json"
    run = _module("run")
    try:
        assert run.main(["--tiny", "--plain", "--quiet", "--json", str(out)]) == 0
    finally:  # the run registers its null game: leave no game behind for later tests
        with contextlib.suppress(Exception):
            cardcore.unregister("cardcore.games", "bench-null")
    data: dict[str, object] = json.loads(out.read_text())
    return data


def test_every_game_has_every_figure(results: dict[str, object]) -> None:
    games = results["games"]
    assert isinstance(games, dict)
    assert set(games) == {
        "golf-6",
        "golf-8",
        "golf-9",
        "golf-10",
        "golf-4",
        "golf-4h",
        "tonk",
        "tonk-nodrop",
        "spit",
        "speed",
    }
    for key, row in games.items():
        fields = (
            "games_per_s",
            "decisions_per_s",
            "games_per_s_subscriber",
            "decisions_per_s_subscriber",
        )
        for field in fields:
            assert row[field] > 0, (key, field)
        if key == "tonk-nodrop":  # random play only; its operations are tonk's
            assert row["decisions_per_s_ratio"] > 0
            continue
        for field in (
            "new_game_us",
            "clone_us",
            "view_us",
            "save_us",
            "load_us",
            "replay_actions_per_s",
        ):
            assert row[field] > 0, (key, field)
    assert games["golf-6"]["decisions_per_s_ratio"] > 0
    assert games["tonk"]["decisions_per_s_subscriber_ratio"] > 0
    assert games["spit"]["decisions_per_s_ratio"] is None  # no bare loop for Spit


def test_memory_simulate_driver_and_targets(results: dict[str, object]) -> None:
    memory = results["memory"]
    simulate = results["simulate"]
    driver = results["driver"]
    assert isinstance(memory, dict) and isinstance(simulate, dict) and isinstance(driver, dict)
    assert memory["bytes_per_game"] > 0
    assert simulate["games_per_s_1_worker"] > 0 and simulate["games_per_s_2_workers"] > 0
    assert driver["decisions_per_s_game"] > 0
    targets = results["targets"]
    assert isinstance(targets, list)
    names = {t["target"] for t in targets}
    assert {
        "tuned bare loop speed",
        "random play, no subscriber, vs bare",
        "random play, move-log subscriber, vs bare",
        "random play, every-event subscriber, vs bare",
        "random play, never-drop agent, vs bare --no-drop",
        "replay",
        "clone()+apply on clone and original",
        "clone()+apply growth, 20,000 vs 100 actions",
        "view() cost growth over rounds played",
        "new_game",
        "memory per live game",
        "clone() mid-game",
        "simulate 2 workers: share of the machine's 2-copy speed-up",
    } <= names
    assert all(t["pass"] in (True, False) for t in targets)
    replayed = {t["where"].split()[0] for t in targets if t["target"] == "replay"}
    assert replayed == {
        "golf-6",
        "golf-8",
        "golf-9",
        "golf-10",
        "golf-4",
        "golf-4h",
        "tonk",
        "spit",
        "speed",
    }


def test_plain_tables_render(
    capsys: pytest.CaptureFixture[str], results: dict[str, object]
) -> None:
    run = _module("run")
    run.render(results, plain=True)
    text = capsys.readouterr().out
    assert "Targets (issue 14" in text and "golf-6" in text


def test_bare_golf_plays_as_many_decisions_as_the_engine() -> None:
    import cardcore

    bare = _module("bare_golf")
    rnd = random.Random(5)
    bare_mean = statistics.mean(bare.play_game(rnd, 4) for _ in range(200))
    engine = []
    rand = random.Random(5).random
    for seed in range(40):
        game = cardcore.new_game("golf", 4, options={"layout": 6}, seed=seed)
        while not game.is_over:
            legal = game.legal_actions(game.to_act[0])
            game.apply(legal[int(rand() * len(legal))])
        engine.append(game.version)
    assert abs(statistics.mean(engine) - bare_mean) < 0.12 * bare_mean


def test_bare_tonk_plays_as_many_decisions_as_the_engine() -> None:
    import cardcore

    bare = _module("bare_tonk")
    rnd = random.Random(5)
    rows = [bare.play_game(rnd, 3) for _ in range(3000)]
    assert all(sum(pay) == 0 for _, pay in rows)
    bare_mean = statistics.mean(d for d, _ in rows)
    engine = []
    rand = random.Random(5).random
    for seed in range(1500):
        game = cardcore.new_game("tonk", 3, seed=seed)
        while not game.is_over:
            legal = game.legal_actions(game.to_act[0])
            game.apply(legal[int(rand() * len(legal))])
        engine.append(game.version)
    assert abs(statistics.mean(engine) - bare_mean) < 0.15 * bare_mean


def test_spit_is_legal_agrees_with_the_legal_set() -> None:
    fastpaths = _module("fastpaths")
    assert fastpaths.check("spit", games=1, seed=3) > 0


def test_ismcts_time_prints_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    ismcts_time = _module("ismcts_time")
    assert ismcts_time.main(["--iterations", "3", "--positions", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[1:]] == list(ismcts_time.GAMES)
    assert all(float(line.split()[2]) >= 0 for line in lines[1:])


def test_replay_split_times_every_step_of_a_replay() -> None:
    split = _module("replay_split").split("tonk", 3)
    assert set(split) == {
        "actions_per_record",
        "replay",
        "read (_as_mapping)",
        "fields (_check_record)",
        "new_game",
        "new_game + act each action",
    }
    assert split["actions_per_record"] >= 1
    assert all(us > 0 for us in split.values())


def test_the_logic_alone_row_plays_the_engines_games(results: dict[str, object]) -> None:
    games = results["games"]
    assert isinstance(games, dict)
    golf = games["golf-6"]
    assert golf["decisions_per_s_logic_only"] > 0  # timed: no figure asserted
    run = _module("run")
    cfg = {c.key: c for c in run.CONFIGS}["golf-6"]
    rand = random.Random(3).random
    game = cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=7)
    twin = cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=7)
    state, logic = twin.state, twin.logic
    steps = 0
    while not game.is_over:  # the same choices through the driver and through the logic
        legal = game.legal_actions(game.to_act[0])
        assert legal == logic.legal_actions(state, state.to_act[0])
        pick = int(rand() * len(legal))
        game.apply(legal[pick])
        logic.apply(state, legal[pick], None)
        steps += 1
    assert state.is_over and steps == game.version


def test_opcodes_counts_the_games_run_py_plays() -> None:
    """``opcodes.py`` counts every decision of the seeded games (as many as the engine's
    versions), about the same count twice, and never-drop Tonk plays long hands (no drop)."""
    opcodes = _module("opcodes")
    ops, decisions = opcodes.count("golf-6", 1, seed=5)
    game = cardcore.new_game("golf", 4, options={"layout": 6}, seed=5)
    rand = random.Random(5).random
    while not game.is_over:
        legal = game.legal_actions(game.to_act[0])
        game.apply(legal[int(rand() * len(legal))])
    assert decisions == game.version
    assert 100 < ops / decisions < 5000
    again, same = opcodes.count("golf-6", 1, seed=5)  # (caches warmed by the first count)
    assert same == decisions and abs(again - ops) < 0.05 * ops
    _, long = opcodes.count("tonk-nodrop", 3, seed=5)
    _, short = opcodes.count("tonk", 3, seed=5)
    assert long > 5 * short
    with pytest.raises(SystemExit, match="real time"):
        opcodes.count("spit", 1)
