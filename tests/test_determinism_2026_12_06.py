"""Determinism across processes (audit of 2026-12-06).

The docs promise that the same seeds and the same inputs give the same outputs in every
process: deals, legal actions in order, views, events, records, saves, positions, error
messages, seeded agents' choices, ``simulate``/``compare`` results (with any number of
workers), the testing kit's reports, RL observations, and session messages (apart from
tokens and ids). Python salts ``str`` hashes per process (``PYTHONHASHSEED``) and object
addresses change per process, so a ``set`` or ``dict`` of strings, or of objects hashed by
identity, iterates differently from one process to the next.

Each test runs the same script in subprocesses under different ``PYTHONHASHSEED`` values
(and, for ``simulate``/``compare``, different worker counts) and compares the JSON printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

HASH_SEEDS = ("0", "1", "12345")


def _run(script: str, hash_seed: str, *args: str) -> object:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def _first_difference(a: object, b: object, path: str = "") -> str:
    """Where two JSON values first differ (for a readable assertion message)."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}/{k}: missing on one side"
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}/{k}")
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:300]!r} != {str(b)[:300]!r}"


def _assert_same(outputs: list[object]) -> None:
    first = outputs[0]
    for other in outputs[1:]:
        assert other == first, _first_difference(first, other)


# -- games: deals, legal actions, views, events, records, saves, positions, errors ----------

GAMES = r"""
import json
import cardcore
from cardcore import RandomAgent, new_game

BAD = ["garbage", "", "flip 99", "draw stock", "play 2H", "discard AS", "pass", "knock",
       "spread 2H 3H 4H", "drop", "hit 0 5H", "ask 1 K", "replace 3", "take", "play 1 L"]

def errors(g, seat):
    out = []
    for s in (seat, (seat + 1) % len(g.players), 99):
        for text in BAD:
            try:
                g.act(s, text)
            except Exception as e:
                out.append([s, text, type(e).__name__, str(e)])
            else:
                out.append([s, text, "applied"])
                return out
    return out

def turn_based(game, players, rules=(), without=(), options=None, steps=50):
    g = new_game(game, players, rules=rules, without=without, options=options, seed=3)
    streams = {}
    for who in [None, "spectator", *range(len(g.players))]:
        box = streams[str(who)] = []
        g.events.subscribe(cardcore.Event, lambda e, box=box: box.append(e.to_json()), seat=who)
    agents = [RandomAgent(seed=10 + i) for i in range(len(g.players))]
    trace = []
    for step in range(steps):
        if g.is_over:
            break
        if step % 6 == 0:
            trace.append(errors(g, g.to_act[0]))
            if g.is_over:
                break
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        trace.append({
            "legal": [str(a) for a in legal],
            "views": [g.view(s) for s in range(len(g.players))] + [g.view(None)],
            "position": g.position(),
        })
        action = agents[seat].choose(g.view(seat), legal)
        g.apply(action)
    return {"trace": trace, "events": streams, "record": g.record(), "save": g.save(),
            "result": repr(g.result)}

def realtime(game, rules=(), options=None):
    g = new_game(game, 2, rules=rules, options=options, seed=3)
    events = []
    g.events.subscribe(cardcore.Event, lambda e: events.append(e.to_json()), seat=0)
    trace = []
    def seen(game_, action, at):
        if len(trace) < 25:
            trace.append([str(action), at, [str(a) for a in game_.legal_actions(0)],
                          [str(a) for a in game_.legal_actions(1)], game_.view(1)])
    bad = errors(g, 0)
    result = cardcore.run_realtime(g, [RandomAgent(seed=1), RandomAgent(seed=2)], seed=5,
                                   max_actions=80, on_action=seen)
    return {"trace": trace, "events": events, "record": g.record(), "save": g.save(),
            "position": g.position(), "result": repr(result), "errors": bad}

def refused(*args, **kwargs):
    try:
        new_game(*args, **kwargs)
    except Exception as e:
        return [type(e).__name__, str(e)]
    return "accepted"

out = {
    "golf2": turn_based("golf", 2),
    "golf4": turn_based("golf", 4, rules=["golf.jokers", "golf.pairs-anywhere",
                                          "golf.four-of-a-kind-columns"], options={"layout": 8}),
    "golf4h": turn_based("golf", 3, rules=["golf.diagonal-pairs", "golf.jokers"],
                         options={"layout": 4}),
    "golf9": turn_based("golf", 2, rules=["golf.one-eyed-jacks", "golf.remove-triples",
                                          "golf.no-final-turns"], options={"layout": 9}),
    "golf10": turn_based("golf", 2, rules=["golf.hard", "golf.snowman"], options={"layout": 10}),
    "tonk3": turn_based("tonk", 3, rules=["tonk.must-lay-down", "tonk.hit-blocks-drop",
                                          "tonk.deal-shows-every-hand"], steps=70),
    "tonk4": turn_based("tonk", 4, without=["tonk.natural-49-50"],
                        options={"max_players": 4, "stake": 2}, steps=70),
    "gofish3": turn_based("gofish", 3, steps=70),
    "spit": realtime("spit", rules=["spit.canfield", "spit.chooser"]),
    "speed": realtime("speed", options={"jokers": 2, "side_pile": 15}),
    "refused": [
        refused("golf", 2, rules=["golf.remove-columns", "golf.diagonal-pairs"],
                options={"layout": "4h"}),
        refused("golf", 2, rules=["golf.ender-penalty-10", "golf.ender-penalty-lowest",
                                  "golf.ender-penalty-ties"]),
        refused("tonk", 2, rules=["tonk.natural-49-50"], without=["tonk.natural-49-50"]),
        refused("golf", 2, options={"layout": 7, "bogus": 1, "other": 2}),
        refused("golf", 2, rules=["golf.nope", "golf.nada"]),
        refused("spit", 2, rules=["golf.jokers", "tonk.no-upcard"]),
    ],
}
print(json.dumps(out, sort_keys=True, default=repr))
"""


def test_games_views_events_records_and_errors_match_across_hash_seeds() -> None:
    outputs = [_run(GAMES, h) for h in HASH_SEEDS[:2]]
    first = outputs[0]
    assert isinstance(first, dict)
    # the scenarios ran: legal actions were offered, actions applied, bad inputs refused
    assert all(step["legal"] for step in first["golf2"]["trace"] if isinstance(step, dict))
    assert first["golf2"]["record"]["actions"]
    assert any(e[2] == "NotationError" for e in first["tonk3"]["trace"][0])
    assert first["spit"]["trace"] and first["speed"]["record"]["actions"]
    assert all(r != "accepted" for r in first["refused"])
    _assert_same(outputs)


# -- agents and RL ----------------------------------------------------------------------------

AGENTS = r"""
import json
import numpy as np
import cardcore
from cardcore import load_agent, new_game
import cardcore.rl as rl

out = {}
for game, n, name in (("golf", 3, "golf-greedy"), ("tonk", 3, "tonk-heuristic"),
                      ("gofish", 3, "gofish-basic")):
    g = new_game(game, n, seed=4)
    agents = [load_agent(name, seed=20 + i) for i in range(n)]
    chosen = []
    for _ in range(40):
        if g.is_over:
            break
        s = g.to_act[0]
        a = agents[s].choose(g.view(s), g.legal_actions(s))
        chosen.append(str(a))
        g.apply(a)
    out[name] = chosen
for game, n in (("golf", 2), ("tonk", 2), ("gofish", 3)):
    g = new_game(game, n, seed=4)
    chosen = []
    for _ in range(5):
        if g.is_over:
            break
        s = g.to_act[0]
        agent = load_agent("ismcts", seed=7, iterations=30)
        a = agent.choose(g.view(s), g.legal_actions(s))
        chosen.append(str(a))
        g.apply(a)
    out["ismcts-" + game] = chosen
for game, n in (("golf", 2), ("tonk", 3), ("spit", 2), ("gofish", 3)):
    env = rl.aec_env(game, n)
    env.reset(seed=3)
    pick = np.random.default_rng(0)
    steps = []
    for agent in env.agent_iter(max_iter=30):
        obs, reward, term, trunc, info = env.last()
        a = None
        if not (term or trunc):
            legal = np.flatnonzero(obs["action_mask"])
            a = int(legal[pick.integers(len(legal))])
        steps.append([agent, {k: np.asarray(v).tolist() for k, v in obs.items()},
                      float(reward), bool(term), bool(trunc), a])
        env.step(a)
    out["aec-" + game] = steps
    genv = rl.gym_env(game, n)
    obs, info = genv.reset(seed=5)
    steps = []
    for _ in range(12):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, term, trunc, info = genv.step(int(legal[len(legal) // 2]))
        steps.append([{k: np.asarray(v).tolist() for k, v in obs.items()}, float(reward),
                      bool(term), bool(trunc)])
        if term or trunc:
            obs, info = genv.reset()
    out["gym-" + game] = steps
print(json.dumps(out, sort_keys=True))
"""


def test_agent_choices_and_rl_observations_match_across_hash_seeds() -> None:
    outputs = [_run(AGENTS, h) for h in HASH_SEEDS[:2]]
    first = outputs[0]
    assert isinstance(first, dict)
    assert all(first[k] for k in ("golf-greedy", "ismcts-golf", "ismcts-tonk", "aec-spit"))
    _assert_same(outputs)


# -- simulate / compare with 0, 1 and 2 workers --------------------------------------------

SIMULATE = r"""
import json, re, sys
from concurrent.futures import ProcessPoolExecutor
from cardcore import compare, simulate

workers = int(sys.argv[1])
ex = ProcessPoolExecutor(workers) if workers else None
try:
    out = {}
    for game, agents in (("golf", ["golf-greedy", "random"]), ("tonk", ["tonk-heuristic", "random"]),
                         ("spit", ["random", "spit-greedy"]), ("gofish", None)):
        out[game] = repr(simulate(game, games=6, agents=agents, seed=2, executor=ex, chunk=2))
    c = compare("golf", rules=["golf.jokers"], agents=["golf-greedy", "random"], games=6,
                seed=1, executor=ex, chunk=2, skill=None)
    # wall-clock measurements are not results: drop them
    out["compare"] = re.sub(r"(slowest|decisions_per_s)=\([^)]*\)", r"\1=?", repr(c))
finally:
    if ex is not None:
        ex.shutdown()
print(json.dumps(out, sort_keys=True))
"""


def test_simulate_and_compare_match_across_hash_seeds_and_worker_counts() -> None:
    outputs = [_run(SIMULATE, "0", "0"), _run(SIMULATE, "1", "2"), _run(SIMULATE, "12345", "1")]
    first = outputs[0]
    assert isinstance(first, dict)
    assert "games=6" in first["golf"] and "games=6" in first["compare"]
    _assert_same(outputs)


# -- the testing kit -----------------------------------------------------------------------

KIT_REPORTS = r"""
import json
from cardcore.testing import check_game

out = {}
for game, n, rules in (("golf", 2, ["golf.jokers"]), ("tonk", 3, []), ("spit", 2, []),
                       ("gofish", 2, [])):
    out[game] = repr(check_game(game, players=n, rules=rules, games=1, seed=0, strict=False))
print(json.dumps(out, sort_keys=True))
"""


def test_kit_reports_match_across_hash_seeds() -> None:
    outputs = [_run(KIT_REPORTS, h) for h in HASH_SEEDS[:2]]
    assert isinstance(outputs[0], dict) and "failures=[]" in outputs[0]["golf"]
    _assert_same(outputs)


KIT_INPUTS = r"""
import json
import cardcore
from cardcore.testing import check_rejections

tried = []
act = cardcore.Game.act

def spy(self, seat, text, *args, **kwargs):
    tried.append([repr(seat), repr(text)])
    return act(self, seat, text, *args, **kwargs)

cardcore.Game.act = spy
report = check_rejections("golf", players=2, games=1, seed=0, strict=False)
print(json.dumps({"tried": tried, "bad_inputs": report.bad_inputs}))
"""


def test_kit_tries_the_same_hostile_inputs_in_every_process() -> None:
    outputs = [_run(KIT_INPUTS, h) for h in HASH_SEEDS]
    first = outputs[0]
    assert isinstance(first, dict) and first["tried"]
    _assert_same(outputs)


# -- sessions ------------------------------------------------------------------------------

SESSION = r"""
import json
from cardcore import RandomAgent
from cardcore.session import Session

BAD = ['{"type": "act"}', '{"type": "nope"}', '{"type": "act", "action": "garbage", "seen": 0}',
       '{"type": "act", "action": 5, "seen": -1, "x": 1}', '{"type": "join"}', 'not json',
       '{"type": "takeback", "op": "zzz"}']
SECRET = {"token", "session"}

def scrub(x):
    if isinstance(x, dict):
        return {k: "<secret>" if k in SECRET else scrub(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [scrub(v) for v in x]
    return x

out = []
for game, n in (("golf", 2), ("tonk", 3), ("spit", 2), ("gofish", 3)):
    s = Session.create(game, [f"P{i}" for i in range(n)], now=0.0, seed=7)
    conns = [f"c{i}" for i in range(n)]
    t = 1.0
    for i in range(n):
        out += [(o.conn, o.message) for o in s.handle(conns[i], json.dumps({"type": "join", "seat": i}), now=t)]
    agents = [RandomAgent(seed=i) for i in range(n)]
    for step in range(20):
        t += 1
        g = s.game
        if g.is_over:
            break
        seat = g.to_act[0]
        a = agents[seat].choose(g.view(seat), g.legal_actions(seat))
        if step % 5 == 0:
            for bad in BAD:
                out += [(o.conn, o.message) for o in s.handle(conns[(seat + 1) % n], bad, now=t)]
        msg = json.dumps({"type": "act", "action": str(a), "seen": g.version})
        out += [(o.conn, o.message) for o in s.handle(conns[seat], msg, now=t)]
print(json.dumps(scrub(out), sort_keys=True))
"""


def test_session_messages_match_across_hash_seeds_apart_from_tokens() -> None:
    outputs = [_run(SESSION, h) for h in HASH_SEEDS[:2]]
    first = outputs[0]
    assert isinstance(first, list)
    assert any(m.get("type") == "update" for _, m in first)
    assert any(m.get("type") == "error" for _, m in first)
    _assert_same(outputs)
