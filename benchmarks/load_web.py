"""Load test of ``cardcore serve`` over real WebSockets on loopback (bounded).

Starts ``cardcore serve`` on 127.0.0.1 (a free port, a fresh database), creates N
two-seat Golf games (one round), and plays every seat as a WebSocket client that
picks a random legal action whenever its seat is to act. Reports games/s,
actions/s and the p50/p99 action latency (send ``act`` to its ``ok``)::

    python benchmarks/load_web.py --games 10
    python benchmarks/load_web.py --games 10 --url http://127.0.0.1:8000   # a server already running

Loopback only; at most 1000 games and --timeout seconds (default 300).
Every game holds two sockets in this script and two in the server (N = 500: a
thousand each, at the usual soft limit of 1024 open files): the script raises its
soft open-file limit to what N needs (the server inherits it) and stops with a
one-line message when the hard limit is lower.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

import websockets

from cardcore.session import apply_patch


async def seat(
    url: str, sid: str, s: int, rng: random.Random, latencies: list[float], errors: list[str]
) -> int:
    acts = 0
    async with websockets.connect(
        f"{url}?session={sid}", max_size=1 << 22
    ) as ws:  # a proxy routes by it
        await ws.send(json.dumps({"type": "join", "session": sid, "seat": s}))
        view: Any = None
        version = 0
        sent: dict[int, float] = {}
        pending = False
        async for text in ws:
            m = json.loads(text)
            kind = m["type"]
            if kind == "view":
                view, version = m["view"], m["version"]
            elif kind == "update":
                view, version = apply_patch(view, m["patch"]), m["version"]
            elif kind in ("ok", "error") and m.get("id") in sent:
                latencies.append(time.perf_counter() - sent.pop(m["id"]))
                pending = False
                if kind == "error":
                    errors.append(m.get("code", "?"))
            if view is None:
                continue
            if view["is_over"]:
                return acts
            if not pending and s in view["to_act"] and view["legal"]:
                acts += 1
                sent[acts] = time.perf_counter()
                pending = True
                action = rng.choice(view["legal"])
                await ws.send(
                    json.dumps({"type": "act", "action": action, "seen": version, "id": acts})
                )
    return acts


def create(base: str) -> str:
    body = json.dumps(
        {"game": "golf", "seats": [{"name": "A"}, {"name": "B"}], "options": {"rounds": 1}}
    )
    req = urllib.request.Request(
        base + "/api/sessions", body.encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req) as r:
        return str(json.loads(r.read())["session"])


async def run(base: str, games: int) -> dict[str, Any]:
    sids = [create(base) for _ in range(games)]
    url = base.replace("http://", "ws://") + "/ws"
    latencies: list[float] = []
    errors: list[str] = []
    rng = random.Random(1)
    start = time.perf_counter()
    counts = await asyncio.gather(
        *[
            seat(url, sid, s, random.Random(rng.random()), latencies, errors)
            for sid in sids
            for s in (0, 1)
        ]
    )
    elapsed = time.perf_counter() - start
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000  # noqa: E731
    return {
        "games": games,
        "seconds": round(elapsed, 2),
        "games_per_s": round(games / elapsed, 2),
        "actions": sum(counts),
        "actions_per_s": round(sum(counts) / elapsed, 1),
        "p50_ms": round(pick(0.5), 2),
        "p99_ms": round(pick(0.99), 2),
        "refused": len(errors),
        "machine": f"{platform.machine()} {os.cpu_count()} CPUs, {platform.python_implementation()} {platform.python_version()}",
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=10, help="concurrent games (at most 1000)")
    p.add_argument("--timeout", type=float, default=300.0)
    p.add_argument(
        "--url",
        help="a cardcore serve already running on loopback (http://127.0.0.1:PORT) instead of a new one",
    )
    args = p.parse_args()
    if args.url and not re.fullmatch(r"http://(127\.0\.0\.1|localhost):\d+/?", args.url):
        sys.exit(f"--url must be a loopback address like http://127.0.0.1:8000, not {args.url!r}")
    games = max(1, min(1000, args.games))
    need = 2 * games + 128  # per process: a socket per seat, and the files Python holds
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < need:
        if hard != resource.RLIM_INFINITY and hard < need:
            sys.exit(f"{games} games need about {need} open files; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))
    load = os.getloadavg()[0]
    if args.url:
        result = asyncio.run(asyncio.wait_for(run(args.url.rstrip("/"), games), args.timeout))
        result["load_before"] = round(load, 2)
        print(json.dumps(result))
        return
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from cardcore.cli import main; sys.exit(main())",
                "serve",
                "--port",
                "0",
                "--db",
                os.path.join(tmp, "load.db"),
            ],
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert proc.stderr is not None
            line = proc.stderr.readline()
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if not found:
                sys.exit(f"cardcore serve did not start: {line.strip()}")
            base = f"http://127.0.0.1:{found.group(1)}"
            result = asyncio.run(asyncio.wait_for(run(base, games), args.timeout))
        finally:
            proc.terminate()
            proc.wait(10)
    result["load_before"] = round(load, 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
