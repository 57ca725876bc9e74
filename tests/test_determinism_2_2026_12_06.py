"""Determinism across processes, second round (audit of 2026-12-06).

The first round (``test_determinism_2026_12_06.py``) compared the library's own outputs under
different ``PYTHONHASHSEED`` values. This round covers what it left out: the web layer (the
``/api/games`` answer, session creation, the messages a websocket client receives in a seeded
game against a bot, the pages and scripts served, the answers to hostile requests), the
``cardcore`` command's output for fixed seeds (``list``, ``rules``, ``play`` with scripted
input, ``simulate``, ``compare``, ``replay``, ``verify``, and its error lines), ``compare``
on dask workers, ISMCTS on Spit and Speed with an iteration budget, and which installed
distribution wins when two declare the same entry-point name.

Each test runs one script in subprocesses under different ``PYTHONHASHSEED`` values and
compares the JSON printed (tokens, session ids, wall-clock times and rates left out).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.test_determinism_2026_12_06 import _assert_same

HASH_SEEDS = ("0", "1", "12345")


def _run(script: str, hash_seed: str, *args: str, path: str | None = None) -> object:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    if path is not None:
        env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
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


# -- the web layer -----------------------------------------------------------------------------

WEB = r"""
import json, warnings, hashlib
warnings.simplefilter("ignore")
from starlette.testclient import TestClient
from cardcore.web import WebServer, create_app
from cardcore.session import Mirror
MAXMSG = 80

SECRET = {"server_time", "watch", "token", "session", "sid", "link", "id", "at", "time", "now", "deadline", "clock", "clocks", "ping", "ms"}

def scrub(x):
    if isinstance(x, dict):
        return {k: "<s>" if k in SECRET else scrub(v) for k, v in x.items()}
    if isinstance(x, list):
        return [scrub(v) for v in x]
    return x

server = WebServer(None, bot_delay=0.0, bot_pace=0.05)
create = server.hub.create
server.hub.create = lambda *a, **k: create(*a, **{**k, "seed": 7})
out = {}
with TestClient(create_app(server)) as client:
    out["games"] = client.get("/api/games").json()
    static = {}
    for p in ("/", "/play/x", "/static/lobby.js", "/static/play.js", "/static/cards.js", "/static/layouts.js", "/static/app.css"):
        r = client.get(p)
        static[p] = [r.status_code, hashlib.sha256(r.content).hexdigest()]
    out["static"] = static
    hostile = []
    H = {"origin": "http://testserver"}
    for body in ['{"game": "golf"}', '{"game": "nope", "seats": [{}, {}]}', 'not json', '[]',
                 '{"game": "golf", "seats": [{"name": "A"}, {"name": "a"}]}',
                 '{"game": "golf", "seats": [{}, {}], "rules": ["golf.zz", "golf.yy"]}',
                 '{"game": "golf", "seats": [{}, {}], "options": {"bogus": 1, "other": 2, "layout": "q"}}',
                 '{"game": "golf", "seats": [{}, {"agent": "golf-greedy", "params": {"seed": "x", "zz": 1}}]}',
                 '{"game": "golf", "seats": [{}, {}], "time": {"turn": 0, "q": 1}}',
                 '{"game": "spit", "seats": [{}, {}], "rules": ["golf.jokers", "tonk.no-upcard"]}']:
        r = client.post("/api/sessions", content=body, headers={**H, "content-type": "application/json"})
        hostile.append([body, r.status_code, r.text])
    for p in ("/api/sessions/zz", "/api/sessions/zz/record", "/api/sessions?limit=x", "/nope", "/api/sessions/zz/replay/q"):
        r = client.get(p)
        hostile.append([p, r.status_code, r.text])
    r = client.delete("/api/games")
    hostile.append(["DELETE", r.status_code, r.text])
    out["hostile"] = hostile
    sessions = {}
    for game, agent in (("golf", "golf-greedy"), ("tonk", "tonk-heuristic"), ("gofish", "gofish-basic")):
        r = client.post("/api/sessions", headers=H, json={"game": game, "seats": [{"name": "Ann"}, {"name": "Bot", "agent": agent, "params": {"seed": 1}}]})
        created = r.json()
        sid = created["session"]
        got = []
        mirror = Mirror()
        with client.websocket_connect("/ws", headers=H) as ws:
            ws.send_text(json.dumps({"type": "join", "session": sid, "seat": 0}))
            for _ in range(MAXMSG):
                m = json.loads(ws.receive_text())
                got.append(m)
                mirror.feed(m)
                v = mirror.view
                if v is None:
                    continue
                if v["is_over"]:
                    break
                if m.get("type") in ("view", "update") and 0 in v["to_act"] and v["legal"]:
                    pick = [a for a in v["legal"] if a != "drop"] or v["legal"]
                    ws.send_text(json.dumps({"type": "act", "action": pick[0], "seen": mirror.version}))
        sessions[game] = [r.status_code, scrub(created), scrub(got)]
    out["sessions"] = sessions
print(json.dumps(out, sort_keys=True))
"""


@pytest.mark.skipif(
    importlib.util.find_spec("starlette") is None or importlib.util.find_spec("httpx") is None,
    reason="the web extra is not installed",
)
def test_web_answers_and_websocket_messages_match_across_hash_seeds() -> None:
    outputs = [_run(WEB, h) for h in HASH_SEEDS[:2]]
    first = outputs[0]
    assert isinstance(first, dict)
    assert {g["name"] for g in first["games"]} >= {"golf", "tonk", "spit", "speed", "gofish"}
    assert all(code == 200 for code, _ in first["static"].values())
    assert all(400 <= h[1] < 500 for h in first["hostile"])
    for game, (status, _created, got) in first["sessions"].items():
        assert status == 201, game
        kinds = [m["type"] for m in got]
        assert kinds[0] == "welcome" and "view" in kinds, (game, kinds)
        assert kinds.count("ok") >= 1 and kinds.count("update") >= 2, (game, kinds)
    _assert_same(outputs)


# -- the command line ---------------------------------------------------------------------------

CLI = r"""
import io, json, os, re, sys, tempfile
from cardcore import cli

d = tempfile.mkdtemp()
rec = os.path.join(d, "golf.json")
CMDS = [
    ["list"], ["list", "golf"], ["list", "tonk"], ["rules", "golf"], ["rules", "tonk"], ["rules", "spit"],
    ["rules", "golf", "golf.jokers"],
    ["play", "golf", "--seed", "7", "--record", rec],
    ["play", "tonk", "--seed", "7", "--no-record"],
    ["simulate", "golf", "--games", "4", "--seed", "2", "--quiet", "--json", "-"],
    ["simulate", "tonk", "--games", "4", "--seed", "2", "--agents", "tonk-heuristic,random", "--quiet"],
    ["compare", "golf", "--rules", "golf.jokers", "--games", "4", "--seed", "1", "--quiet"],
    ["replay", rec],
    ["verify", rec],
    ["list", "nope"], ["rules", "golf", "golf.zz"], ["play", "golf", "-o", "bogus=1", "-o", "zz=2"],
    ["simulate", "golf", "--rules", "golf.remove-columns,golf.diagonal-pairs", "--games", "1"],
]
INPUT = {"play": "bogus\nflip 99\nflip 0\nflip 3\n#1\n#1\nhelp\nview\n#2\n#1\nquit\n"}
out = []
for cmd in CMDS:
    so, se = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.StringIO(INPUT.get(cmd[0], ""))
    sys.stdout, sys.stderr = so, se
    try:
        rc = cli.main(cmd)
    except SystemExit as e:
        rc = e.code
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    text = (so.getvalue() + "\n--stderr--\n" + se.getvalue()).replace(d, "<dir>")
    out.append([cmd[0], rc, text])
print(json.dumps(out))
"""


def _normalized(outputs: object) -> list[list[object]]:
    """Wall-clock figures (``0.01 s``, ``300 games/s``) left out, and the spaces rich pads
    around them collapsed."""
    assert isinstance(outputs, list)
    out = []
    for cmd, rc, text in outputs:
        text = re.sub(r"[\d.,]+ (s|games/s)\b", "T", text)
        out.append([cmd, rc, re.sub(r"\s+", " ", text)])
    return out


def test_cli_output_matches_across_hash_seeds() -> None:
    outputs = [_normalized(_run(CLI, h)) for h in HASH_SEEDS[:2]]
    first = outputs[0]
    codes = [rc for _, rc, _ in first]
    assert codes[:14] == [0] * 14 and codes[14:] == [2, 2, 2, 2], codes
    play = first[7][2]
    assert "not understood" in play and "illegal" in play and "you: flip 0" in play
    assert '"games": 4' in first[9][2] and "seed 7" in first[12][2]
    _assert_same(outputs)


# -- compare on dask workers -------------------------------------------------------------------

DASK = r"""
import io, json, sys
from cardcore import cli

def drop_timings(x):
    if isinstance(x, dict):
        return {k: drop_timings(v) for k, v in x.items() if k not in ("decisions_per_s", "slowest")}
    if isinstance(x, list):
        return [drop_timings(v) for v in x]
    return x

out = {}
for name, extra in (("alone", []), ("dask", ["--dask", "local", "--workers", "1"])):
    for cmd in (["compare", "golf", "--rules", "golf.jokers", "-n", "6", "-p", "2", "--seed", "3"],
                ["simulate", "tonk", "-n", "6", "-p", "3", "--seed", "3", "--agents",
                 "tonk-heuristic,random,random"]):
        if name == "dask" and cmd[0] == "simulate":  # (tests/test_dask.py: one cluster is enough)
            continue
        so, old = io.StringIO(), (sys.stdout, sys.stderr)
        sys.stdout, sys.stderr = so, io.StringIO()
        try:
            rc = cli.main([*cmd, "--json", "-", "-q", *extra])
        finally:
            sys.stdout, sys.stderr = old
        out[name + "-" + cmd[0]] = [rc, drop_timings(json.loads(so.getvalue()))]
print(json.dumps(out, sort_keys=True))
"""


@pytest.mark.skipif(
    importlib.util.find_spec("dask") is None or importlib.util.find_spec("distributed") is None,
    reason="the dask extra is not installed",
)
def test_compare_and_simulate_on_dask_match_one_process_across_hash_seeds() -> None:
    outputs = [_run(DASK, h) for h in HASH_SEEDS[:2]]
    first = outputs[0]
    assert isinstance(first, dict)
    assert first["alone-compare"][0] == 0 and first["dask-compare"][0] == 0
    assert first["dask-compare"] == first["alone-compare"]
    assert first["alone-simulate"][1]["games"] == 6
    _assert_same(outputs)


# -- ISMCTS on the real-time games ----------------------------------------------------------------

ISMCTS = r"""
import json
from cardcore import load_agent, new_game
out = {}
for game in ("spit", "speed"):
    g = new_game(game, 2, seed=4)
    chosen = []
    for step in range(12):
        if g.is_over:
            break
        seat = step % 2
        legal = g.legal_actions(seat)
        if not legal:
            continue
        agent = load_agent("ismcts", seed=7, iterations=40)
        a = agent.choose(g.view(seat), legal)
        chosen.append([seat, str(a), [str(x) for x in legal]])
        g.apply(a)
    out[game] = chosen
print(json.dumps(out))
"""


def test_ismcts_on_spit_and_speed_chooses_the_same_across_hash_seeds() -> None:
    outputs = [_run(ISMCTS, h) for h in HASH_SEEDS]
    first = outputs[0]
    assert isinstance(first, dict)
    for game in ("spit", "speed"):
        assert len(first[game]) >= 8, first[game]
        assert all(chosen in legal for _, chosen, legal in first[game])
        assert any(len(legal) > 2 for _, _, legal in first[game])  # real choices were made
    _assert_same(outputs)


# -- entry points declared twice -----------------------------------------------------------------

ENTRY = r"""
import json
import cardcore
from cardcore import load_agent

agent = load_agent("dup-agent")  # (without parameters: the class)
print(json.dumps({"module": agent.__module__,
                  "listed": [a for a in cardcore.available_agents() if a == "dup-agent"]}))
"""


def _distribution(root: Path, dist: str, module: str) -> None:
    """A distribution installed in *root*: its module and a ``.dist-info`` declaring the agent
    ``dup-agent`` (as pip would lay it out), without touching the venv."""
    root.mkdir(parents=True, exist_ok=True)
    (root / f"{module}.py").write_text(
        "from cardcore import RandomAgent\n\nclass Dup(RandomAgent):\n    pass\n"
    )
    info = root / f"{dist}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[cardcore.agents]\ndup-agent = {module}:Dup\n")


def test_an_entry_point_name_declared_by_two_distributions_resolves_to_the_first_on_sys_path(
    tmp_path: Path,
) -> None:
    """Not documented (entry-points.rst says a rule ID declared twice is refused when named,
    nothing about a name): the first distribution on ``sys.path`` wins silently, whatever the
    hash seed and whichever order the paths are given in."""
    _distribution(tmp_path / "a", "dupdist-a", "dup_mod_a")
    _distribution(tmp_path / "b", "dupdist-b", "dup_mod_b")
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    a_first = [_run(ENTRY, h, path=a + os.pathsep + b) for h in HASH_SEEDS[:2]]
    b_first = _run(ENTRY, "0", path=b + os.pathsep + a)
    assert a_first[0] == {"module": "dup_mod_a", "listed": ["dup-agent"]}
    assert b_first == {"module": "dup_mod_b", "listed": ["dup-agent"]}
    _assert_same(a_first)
