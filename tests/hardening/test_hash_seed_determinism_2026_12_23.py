"""Determinism across processes: the same seed gives the same game under any PYTHONHASHSEED.

Python randomises ``str`` hashing per process, so an order drawn from a set of
strings, a dict filled in set order or ``hash()`` of a text would make the same
seed give another game (or another record, view, summary or listing) in another
process. Every check here runs one short script in subprocesses with different
fixed ``PYTHONHASHSEED`` values and compares what they print, byte for byte; a
record or save made in one process is replayed or loaded in the others.

The two strict xfails share one root cause: ``RuleInfo`` accepts ``set`` and
``frozenset`` for ``conflicts``, ``requires`` and ``applies`` values (its docstring
says a tuple or list is wanted, and ``Option.choices``/``GameInfo.default_rules``
do refuse sets) and freezes them with ``tuple(value)``, i.e. in hash order.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from typing import Any

import pytest

HASH_SEEDS = ("0", "1", "12345")


def _run(script: str, hash_seed: str, stdin: str = "", *args: str, cwd: str | None = None) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=cwd,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


# -- one script: games, agents, house-rule orders, replays of another process's records ------

_GAMES = r"""
import json, sys
import cardcore

out = {}
def put(key, value):
    out[key] = json.loads(json.dumps(value, default=repr))

REALTIME = ("spit", "speed")
CONFIGS = [
    ("golf6", "golf", 3, {}, {"rounds": 1}),
    ("golf9", "golf", 2, {}, {"rounds": 1, "layout": 9}),
    ("golf4", "golf", 2, {"rules": ["golf.diagonal-pairs", "golf.peek-nearest"]}, {"rounds": 1, "layout": 4}),
    ("golf4h", "golf", 2, {}, {"rounds": 1, "layout": "4h"}),
    ("golf8", "golf", 3, {"rules": ["golf.jokers", "golf.hard", "golf.no-final-turns",
                                    "golf.ender-penalty-10", "golf.remove-columns"]}, {"rounds": 2, "layout": 8}),
    ("golf10", "golf", 4, {"rules": ["golf.bonus-twos", "golf.snowman"]}, {"rounds": 1, "layout": 10}),
    ("tonk", "tonk", 3, {}, {"hands": 2}),
    ("tonk4", "tonk", 4, {"rules": ["tonk.hit-blocks-drop", "tonk.must-lay-down", "tonk.no-upcard"],
                          "without": ["tonk.natural-49-50"]}, {"max_players": 4, "hands": 2}),
    ("spit", "spit", 2, {}, {}),
    ("spitc", "spit", 2, {"rules": ["spit.canfield", "spit.chooser"]}, {}),
    ("speed", "speed", 2, {}, {}),
    ("speedj", "speed", 2, {}, {"jokers": 2}),
    ("gofish", "gofish", 4, {}, {}),
]
for key, name, n, kw, opts in CONFIGS:
    g = cardcore.new_game(name, n, seed=13, options=opts, **kw)
    put(f"{key}.views", [g.view(s) for s in range(n)])
    put(f"{key}.legal", [[str(a) for a in g.legal_actions(s)] for s in range(n)])
    if name in REALTIME:
        cardcore.run_realtime(g, [cardcore.RandomAgent(seed=i + 3) for i in range(n)], seed=2, max_actions=300)
    else:
        cardcore.play(g, [cardcore.RandomAgent(seed=i + 3) for i in range(n)])
    put(f"{key}.record", g.record())
    put(f"{key}.result", g.result.to_json())
    put(f"{key}.save", g.save())
    put(f"{key}.final_views", [g.view(s) for s in range(n)])

for agent, name, n, opts in [("golf-greedy", "golf", 3, {"rounds": 1}), ("tonk-heuristic", "tonk", 3, {"hands": 3}),
                             ("spit-greedy", "spit", 2, {}), ("spit-human", "speed", 2, {}),
                             ("gofish-basic", "gofish", 3, {})]:
    g = cardcore.new_game(name, n, seed=21, options=opts)
    agents = [cardcore.load_agent(agent, seed=s) for s in range(n)]
    if name in REALTIME:
        cardcore.run_realtime(g, agents, seed=2, max_actions=300)
    else:
        cardcore.play(g, agents)
    put(f"agent.{agent}.{name}", g.record())

golf_rules = ["golf.jokers", "golf.hard", "golf.no-final-turns", "golf.ender-penalty-10",
              "golf.remove-columns", "golf.reveal-same-column"]
tonk_rules = ["tonk.hit-blocks-drop", "tonk.must-lay-down", "tonk.no-upcard", "tonk.deal-shows-every-hand"]
for label, conv in [("list", list), ("reversed", lambda r: list(reversed(r))), ("set", set), ("frozenset", frozenset)]:
    g = cardcore.new_game("golf", 3, seed=5, options={"rounds": 1}, rules=conv(golf_rules))
    put(f"rules.golf.{label}.view", g.view(1))
    cardcore.play(g, [cardcore.RandomAgent(seed=i) for i in range(3)])
    put(f"rules.golf.{label}", [g.record(), g.save()])
    g = cardcore.new_game("tonk", 3, seed=5, options={"hands": 3}, rules=conv(tonk_rules),
                          without=conv(["tonk.natural-49-50"]))
    cardcore.play(g, [cardcore.load_agent("tonk-heuristic", seed=i) for i in range(3)])
    put(f"rules.tonk.{label}", [g.record(), g.save()])

# a record and a save made in another process (given on stdin)
other = json.loads(sys.stdin.read() or "{}")
for key, made in other.items():
    if key.endswith(".record"):
        r = cardcore.replay(made)
        put("replayed." + key, [r.record(), r.result.to_json(), [r.view(s) for s in range(len(r.players))]])
    elif key.endswith(".save"):
        g = cardcore.load(made)
        put("loaded." + key, [g.save(), [g.view(s) for s in range(len(g.players))]])
print(json.dumps(out))
"""


@functools.lru_cache(maxsize=1)
def _games() -> dict[str, dict[str, Any]]:
    first = _run(_GAMES, HASH_SEEDS[0])
    made = json.loads(first)
    handed = {k: v for k, v in made.items() if k.endswith((".record", ".save"))}
    runs = {HASH_SEEDS[0]: made}
    for hash_seed in HASH_SEEDS[1:]:
        runs[hash_seed] = json.loads(_run(_GAMES, hash_seed, json.dumps(handed)))
    return runs


def _same_across(runs: dict[str, dict[str, Any]], prefix: str) -> list[str]:
    keys = sorted(k for k in runs[HASH_SEEDS[0]] if k.startswith(prefix))
    assert keys, prefix
    base = runs[HASH_SEEDS[0]]
    for hash_seed, out in runs.items():
        for key in keys:
            assert json.dumps(out[key]) == json.dumps(base[key]), (hash_seed, key)
    return keys


@pytest.mark.parametrize(
    "key",
    [
        "golf6",
        "golf9",
        "golf4",
        "golf4h",
        "golf8",
        "golf10",
        "tonk",
        "tonk4",
        "spit",
        "spitc",
        "speed",
        "speedj",
        "gofish",
    ],
)
def test_a_seeded_game_is_the_same_in_every_process(key: str) -> None:
    """Views, legal actions (their text, in order), a whole seeded game's record, result,
    save and final views: byte for byte the same under every hash seed."""
    runs = _games()
    keys = _same_across(runs, key + ".")
    assert len(keys) == 6
    record = runs[HASH_SEEDS[0]][key + ".record"]
    assert len(record["actions"]) >= 1 and record["seed"] == 13
    assert any(runs[HASH_SEEDS[0]][key + ".legal"])


def test_builtin_agents_play_the_same_game_in_every_process() -> None:
    runs = _games()
    keys = _same_across(runs, "agent.")
    assert len(keys) == 5
    assert all(len(runs["0"][k]["actions"]) > 5 for k in keys)


def test_house_rules_in_any_order_or_as_a_set_give_the_same_game() -> None:
    """``rules=[...]`` in another order, or as a set: the same views, records and saves, in
    one process and across hash seeds (plugin-guide: "the order they are listed in never
    matters")."""
    runs = _games()
    _same_across(runs, "rules.")
    for out in runs.values():
        for game in ("golf", "tonk"):
            base = json.dumps(out[f"rules.{game}.list"])
            for label in ("reversed", "set", "frozenset"):
                assert json.dumps(out[f"rules.{game}.{label}"]) == base, (game, label)
        base = json.dumps(out["rules.golf.list.view"])
        assert all(json.dumps(out[f"rules.golf.{x}.view"]) == base for x in ("set", "frozenset"))
    record = runs["0"]["rules.golf.list"][0]
    assert len(record["rules"]) == 6 and len(record["actions"]) > 10


def test_records_and_saves_from_another_process_replay_and_load_exactly() -> None:
    runs = _games()
    made = runs[HASH_SEEDS[0]]
    checked = 0
    for hash_seed in HASH_SEEDS[1:]:
        out = runs[hash_seed]
        for key in (k for k in made if k.endswith(".record")):
            record, result, views = out["replayed." + key]
            assert json.dumps(record) == json.dumps(made[key]), (hash_seed, key)
            if "." not in key[: -len(".record")]:  # a CONFIGS game: its result and views too
                base = key[: -len(".record")]
                assert result == made[base + ".result"]
                assert json.dumps(views) == json.dumps(made[base + ".final_views"])
            checked += 1
        for key in (k for k in made if k.endswith(".save")):
            save, views = out["loaded." + key]
            assert json.dumps(save) == json.dumps(made[key]), (hash_seed, key)
            base = key[: -len(".save")]
            assert json.dumps(views) == json.dumps(made[base + ".final_views"])
            checked += 1
    assert checked == 2 * (13 + 13)


# -- simulate (in process and in workers with another hash seed), search, RL, sessions ------

_MISC = r"""
import json, multiprocessing, os, sys
from concurrent.futures import ProcessPoolExecutor
import cardcore

out = {}
def put(key, value):
    out[key] = json.loads(json.dumps(value, default=repr))

def studies(executor=None):
    return [
        cardcore.simulate("golf", games=6, players=2, seed=6, options={"rounds": 1},
                          rules=["golf.jokers", "golf.snowman"], executor=executor, chunk=2).to_json(),
        cardcore.simulate("tonk", games=4, players=3, seed=6, executor=executor, chunk=2,
                          agents=["tonk-heuristic", "random", "random"]).to_json(),
        cardcore.simulate("speed", games=2, seed=6, agents=["spit-greedy", "random"],
                          executor=executor, chunk=1).to_json(),
    ]

if __name__ == "__main__":
    put("sim.here", studies())
    os.environ["PYTHONHASHSEED"] = sys.argv[1]  # the workers hash strings otherwise
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        put("sim.one_worker", studies(pool))
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        put("sim.two_workers", studies(pool))

    from cardcore.search import ISMCTSAgent
    for name, n, opts in [("golf", 2, {"rounds": 1, "layout": 4}), ("gofish", 3, {})]:
        g = cardcore.new_game(name, n, seed=17, options=opts)
        agents = [ISMCTSAgent(seed=3, iterations=8)] + [cardcore.RandomAgent(seed=i) for i in range(1, n)]
        cardcore.play(g, agents, max_actions=40)
        put(f"search.{name}", g.record()["actions"])
    g = cardcore.new_game("tonk", 2, seed=17, options={"hands": 2})
    cardcore.play(g, [cardcore.load_agent("ismcts", seed=2, iterations=6, reuse=2),
                      cardcore.load_agent("tonk-heuristic", seed=1)], max_actions=40)
    put("search.by_name", g.record()["actions"])

    import numpy as np
    from cardcore.rl import aec_env, gym_env, vector_env
    for name, n, opts in [("golf", 2, {"rounds": 1}), ("tonk", 3, {}), ("spit", 2, {}),
                          ("speed", 2, {}), ("gofish", 2, {})]:
        env = aec_env(name, n, options=opts)
        env.reset(seed=5)
        trace, rng = [], np.random.default_rng(0)
        for _ in range(25):
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                break
            trace.append([env.agent_selection, obs["observation"].tobytes().hex(),
                          obs["action_mask"].tobytes().hex()])
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        put(f"rl.aec.{name}", trace)
        single = gym_env(name, n, options=opts, opponents="random")
        obs, info = single.reset(seed=8)
        put(f"rl.gym.{name}", [obs["observation"].tobytes().hex(), single.action_masks().tobytes().hex()])
    batch = vector_env("tonk", 3, 2, opponents="tonk-heuristic")
    obs, info = batch.reset(seed=4)
    steps = [obs["observation"].tobytes().hex(), obs["action_mask"].tobytes().hex()]
    for _ in range(5):
        obs, reward, term, trunc, info = batch.step([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
        steps.append([obs["observation"].tobytes().hex(), reward.tolist()])
    put("rl.vector.tonk", steps)

    from cardcore.session import Session
    for name in ("golf", "tonk", "speed"):
        session = Session.create(name, 2, now=0.0, seed=7)
        views = []
        for seat in range(2):
            for o in session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0 + seat):
                if o.message.get("type") == "view":
                    views.append([o.conn, o.message["view"]])
        put(f"session.{name}", views)
    print(json.dumps(out))
"""


@functools.lru_cache(maxsize=1)
def _misc() -> dict[str, dict[str, Any]]:
    # the workers get another hash seed than their parent: "1" under "0", "0" under "1"
    return {h: json.loads(_run(_MISC, h, "", w)) for h, w in (("0", "1"), ("1", "0"))}


def test_simulate_gives_one_summary_in_process_and_in_workers_of_any_hash_seed() -> None:
    runs = _misc()
    _same_across(runs, "sim.")
    out = runs["0"]
    assert json.dumps(out["sim.here"]) == json.dumps(out["sim.one_worker"])
    assert json.dumps(out["sim.here"]) == json.dumps(out["sim.two_workers"])
    assert [s["games"] for s in out["sim.here"]] == [6, 4, 2]


def test_search_agents_choose_the_same_in_every_process() -> None:
    runs = _misc()
    keys = _same_across(runs, "search.")
    assert all(len(runs["0"][k]) > 5 for k in keys)


def test_rl_observations_and_masks_are_the_same_bytes_in_every_process() -> None:
    runs = _misc()
    keys = _same_across(runs, "rl.")
    assert len(keys) == 11
    assert all(len(runs["0"][f"rl.aec.{g}"]) >= 3 for g in ("golf", "tonk", "spit", "gofish"))


def test_session_first_views_are_the_same_in_every_process() -> None:
    runs = _misc()
    keys = _same_across(runs, "session.")
    assert all(len(runs["0"][k]) == 2 for k in keys)


# -- the command line ------------------------------------------------------------------------

_CLI = r"""
import contextlib, io, json, sys
from cardcore import cli
with contextlib.redirect_stdout(io.StringIO()) as table:
    assert cli.main(["simulate", "golf", "--seed", "3", "-n", "6", "-p", "3", "-q",
                     "-r", "golf.jokers,golf.hard", "-o", "rounds=1", "--json", "golf.json"]) == 0
    assert cli.main(["simulate", "tonk", "--seed", "3", "-n", "4", "-p", "3", "-q",
                     "--agents", "tonk-heuristic,random,random", "--workers", "2", "--json", "tonk.json"]) == 0
out = {name: json.load(open(name)) for name in ("golf.json", "tonk.json")}
sys.stdin = io.StringIO("flip 0\nflip 3\ndraw\ndiscard\ntake\nreplace 1\nquit\n")
with contextlib.redirect_stdout(io.StringIO()) as shown:
    cli.main(["play", "golf", "--seed", "7", "-p", "3", "-o", "rounds=1", "--agent", "golf-greedy",
              "--record", "play.json"])
out["play.json"] = json.load(open("play.json"))
out["play.stdout"] = shown.getvalue()
print(json.dumps(out))
"""


def test_cli_simulate_json_and_piped_play_are_the_same_in_every_process(tmp_path) -> None:
    outs = []
    for hash_seed in ("0", "12345"):
        where = tmp_path / hash_seed
        where.mkdir()
        outs.append(_run(_CLI, hash_seed, cwd=str(where)))
    assert outs[0] == outs[1]
    out = json.loads(outs[0])
    assert out["golf.json"]["games"] == 6 and out["tonk.json"]["games"] == 4
    assert len(out["play.json"]["actions"]) > 6 and "golf-greedy" in out["play.stdout"]


# -- RuleInfo frozen from a set: order by hash seed (strict xfails) ---------------------------

_RULEINFO = r"""
import json, types
import cardcore
from cardcore import RuleInfo
from cardcore.testing import applicable_options, configurations

def build():
    return RuleInfo(id="MY-LAYOUT-1", name="golf.my-layout", game="golf", summary="Only some grids",
                    version="1.0.0", applies={"layout": {"4", "4h", "9", "8", "10"}},
                    conflicts={"golf.jokers", "golf.hard", "golf.snowman"},
                    requires=frozenset({"golf.no-cancelling", "golf.peek-nearest"}))
out = {}
try:
    rule = build()
except cardcore.PluginError as exc:  # refusing a set, as Option(choices=...) does, is a fix too
    out["refused"] = str(exc)
else:
    out["fields"] = [list(rule.applies["layout"]), list(rule.conflicts), list(rule.requires)]
    out["describe"] = rule.describe_applies()
    try:
        rule.check_applies({"layout": 6})
    except cardcore.OptionError as exc:
        out["refusal"] = str(exc)
    out["applicable"] = applicable_options("golf", [rule])
    module = types.ModuleType("my_layout_rule")
    module.RULE = RuleInfo(id="MY-LAYOUT-1", name="golf.my-layout", game="golf", summary="Only some grids",
                           version="1.0.0", applies={"layout": {"4", "4h", "9", "8", "10"}})
    cardcore.register("cardcore.rules", "golf.my-layout", module)
    out["configurations"] = [c.id for c in configurations("golf", rules=["golf.my-layout"])]
print(json.dumps(out))
"""


@functools.lru_cache(maxsize=1)
def _ruleinfo() -> list[dict[str, Any]]:
    return [json.loads(_run(_RULEINFO, h)) for h in ("0", "1")]


def test_the_kit_chooses_the_same_configurations_in_every_process() -> None:
    first, second = _ruleinfo()
    assert first.get("applicable") == second.get("applicable")
    assert first.get("configurations") == second.get("configurations")


def test_a_rule_declared_with_sets_reads_the_same_in_every_process() -> None:
    first, second = _ruleinfo()
    assert first == second
