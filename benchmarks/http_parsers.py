"""Plain-HTTP requests a second of the web app under uvicorn's two HTTP parsers, h11 and httptools.

``cardcore serve`` parses requests with h11 (it bounds a request's head; httptools read a
64 MB header whole). This measures what that costs on plain HTTP: the app of
``cardcore serve`` (a fresh database) under each parser in a child process on loopback,
and keep-alive ``GET /api/sessions`` requests from a few connections of one asyncio client,
for a fixed time per round; rounds alternate the parsers and the median is printed::

    python benchmarks/http_parsers.py --rounds 5 --seconds 3

Game traffic is WebSocket, which the parser does not touch. Needs ``cardcore[web]`` and
``httptools`` (``pip install httptools``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

CHILD = """
import socket, sys, uvicorn
from cardcore.web.app import WebServer, create_app
sock = socket.socket(); sock.bind(("127.0.0.1", 0)); sock.listen(128)
print(sock.getsockname()[1], flush=True)
config = uvicorn.Config(create_app(WebServer(sys.argv[2])), log_level="warning",
                        lifespan="on", http=sys.argv[1])
uvicorn.Server(config).run(sockets=[sock])
"""
REQUEST = b"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


async def _connection(port: int, until: float) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    done = 0
    try:
        while time.perf_counter() < until:
            writer.write(REQUEST)
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                raise SystemExit(f"unexpected answer: {head[:80]!r}")
            length = re.search(rb"(?i)content-length: *(\d+)", head)
            if length is None:
                raise SystemExit("an answer without Content-Length")
            await reader.readexactly(int(length.group(1)))
            done += 1
    finally:
        writer.close()
    return done


async def _load(port: int, connections: int, seconds: float) -> float:
    start = time.perf_counter()
    counts = await asyncio.gather(*(_connection(port, start + seconds) for _ in range(connections)))
    return sum(counts) / (time.perf_counter() - start)


def _server(parser: str, db: str) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, parser, db], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.isdigit():
        proc.kill()
        raise SystemExit(f"the {parser} server did not start (is it installed?)")
    return proc, int(line)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=5, help="rounds per parser (alternating)")
    p.add_argument("--seconds", type=float, default=3.0, help="load time per round")
    p.add_argument("--connections", type=int, default=4, help="keep-alive connections")
    args = p.parse_args()
    rates: dict[str, list[float]] = {"h11": [], "httptools": []}
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        servers = {name: _server(name, os.path.join(tmp, f"{name}.db")) for name in rates}
        try:
            for _, port in servers.values():  # warm each once, untimed
                asyncio.run(_load(port, args.connections, 0.3))
            for _ in range(max(1, args.rounds)):
                for name, (_, port) in servers.items():
                    rates[name].append(asyncio.run(_load(port, args.connections, args.seconds)))
        finally:
            for proc, _ in servers.values():
                proc.terminate()
                proc.wait(10)
    result = {
        name: {"median": round(statistics.median(r)), "min": round(min(r)), "max": round(max(r))}
        for name, r in rates.items()
    }
    result["h11/httptools"] = round(result["h11"]["median"] / result["httptools"]["median"], 3)
    result["machine"] = (
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    )
    result["load_before"] = round(load, 2)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
