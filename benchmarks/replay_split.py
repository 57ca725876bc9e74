"""Where a replay's time goes: ``cardcore.replay`` of short records, step by step.

Times, per record, ``replay`` as a whole, then each of its steps on its own over
the same records: reading the data (``_as_mapping``: the size and depth walk, the
JSON checks), its fields (``_check_record``), ``new_game`` as the replay calls it,
and ``new_game`` followed by ``act`` for each action. Private names of
:mod:`cardcore.records` are read here on purpose: this is a profile, not an API.
Run from the repository root::

    python benchmarks/replay_split.py                 # one-hand Tonk, 400 records
    python benchmarks/replay_split.py --game golf --records 20

Each figure is the best of 5 passes over the records (CPU time), in µs per record.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import run

import cardcore
from cardcore import records

__all__ = ["main", "split"]


def _best(
    records_: Sequence[Mapping[str, Any]], step: Callable[[Mapping[str, Any]], object]
) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for rec in records_:
            step(rec)
        best = min(best, (time.process_time() - start) / len(records_) * 1e6)
    return best


def _start(rec: Mapping[str, Any]) -> cardcore.Game:
    return cardcore.new_game(
        rec["game"],
        list(rec["players"]),
        rules=records._record_rules(rec),
        without=tuple(rec["without"]),
        options=dict(rec["options"]),
        seed=rec["seed"],
    )


def _played(rec: Mapping[str, Any]) -> None:
    game = _start(rec)
    for seat, text, at in rec["actions"]:
        game.act(seat, text, at=at)


def split(game: str, count: int) -> dict[str, float]:
    """Return µs per record of ``replay`` and of each of its steps, over *count* records."""
    cfg = {c.key: c for c in run.CONFIGS}[game]
    recs = [run.finished_game(cfg, 1000 + k).record() for k in range(count)]
    actions = sum(len(r["actions"]) for r in recs) / len(recs)
    return {
        "actions_per_record": actions,
        "replay": _best(recs, cardcore.replay),
        "read (_as_mapping)": _best(recs, lambda r: records._as_mapping(r, "record")),
        "fields (_check_record)": _best(recs, records._check_record),
        "new_game": _best(recs, _start),
        "new_game + act each action": _best(recs, _played),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Print the split for ``--game`` (a key of ``run.CONFIGS``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="tonk", help="a key of run.py's configurations")
    parser.add_argument("--records", type=int, default=400, help="records to replay")
    args = parser.parse_args(argv)
    figures = split(args.game, args.records)
    print(f"{args.game}: {figures.pop('actions_per_record'):.1f} actions per record")
    for name, us in figures.items():
        print(f"  {name:28} {us:8.1f} us per record")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
