"""Simulations on dask give the same summary as in one process.

dask is part of the ``dask`` extra, which the README's set-up installs;
these tests are not skipped there.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import cardcore

distributed = pytest.importorskip("dask.distributed")

GAME = "golf"


def test_dask_local_cluster_summary_equals_single_process() -> None:
    kw = {"games": 30, "players": 3, "seed": 21, "chunk": 4}
    alone = cardcore.simulate(GAME, **kw).to_json()  # type: ignore[arg-type]
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = cardcore.simulate(GAME, executor=client.get_executor(), **kw).to_json()  # type: ignore[arg-type]
    assert on_dask == alone
    assert on_dask["games"] == 30


def test_cli_dask_local_uses_worker_processes_and_matches() -> None:
    args = ["simulate", GAME, "-n", "16", "-p", "2", "--seed", "8", "--json", "-", "-q"]
    proc = subprocess.run(
        [sys.executable, "-m", "cardcore.cli", *args, "--dask", "local", "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    expected = cardcore.simulate(GAME, games=16, players=2, seed=8).to_json()
    assert {k: data[k] for k in expected} == expected


def test_cli_connects_to_a_running_cluster_by_address() -> None:
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://")
        args = ["simulate", GAME, "-n", "12", "-p", "3", "--seed", "4", "--json", "-", "-q"]
        proc = subprocess.run(
            [sys.executable, "-m", "cardcore.cli", *args, "--dask", address],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    expected = cardcore.simulate(GAME, games=12, players=3, seed=4).to_json()
    assert {k: data[k] for k in expected} == expected
