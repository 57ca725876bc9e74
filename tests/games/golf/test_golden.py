"""Golden Golf records (seeds/golf/*.json), worked out by hand, replayed and compared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.games.golf.helpers import state

import cardcore

SEEDS = Path(__file__).resolve().parents[3] / "seeds" / "golf"


@pytest.mark.parametrize("name", sorted(p.name for p in SEEDS.glob("*.json")))
def test_golden_records_replay_to_hand_scores(name: str) -> None:
    record = json.loads((SEEDS / name).read_text())
    installed = set(cardcore.available_rules("golf"))
    missing = [r["name"] for r in record["rules"] if r["name"] not in installed]
    if missing:
        pytest.skip(f"needs house rules {missing}")
    game = cardcore.replay(record)
    expected = record["expected"]
    st = state(game)
    assert [list(r) for r in st.sheet.rounds] == expected["round_scores"]
    assert st.sheet.totals == expected["totals"]
    assert game.result is not None and game.result.to_json() == record["result"]
    history = game.history(None)
    assert [r["scores"] for r in history] == expected["round_scores"]
    last = history[-1]
    assert last["grids"] == expected["final_grids"]
    assert last["ender"] == expected["ender"]
    assert last["totals"] == expected["totals"]


def test_golden_record_round_trips_through_the_engine_record() -> None:
    record = json.loads((SEEDS / "six_card_two_players.json").read_text())
    game = cardcore.replay(record)
    again = game.record()
    assert again["actions"] == record["actions"]
    assert again["deck"] == record["deck"]
    assert cardcore.replay(again).result == game.result
