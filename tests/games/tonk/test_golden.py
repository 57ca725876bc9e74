"""Replay the hand-worked golden records in seeds/tonk/ and compare hand-computed outcomes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.games.tonk.helpers import last_hand, logic_of

import cardcore

SEEDS = Path(__file__).resolve().parents[3] / "seeds" / "tonk"
FILES = sorted(SEEDS.glob("*.json"))


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SEEDS / name).read_text())
    return data


def test_golden_records_exist() -> None:
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_record_replays_to_its_hand_computed_result(path: Path) -> None:
    record = json.loads(path.read_text())
    game = cardcore.replay(record)
    expected = record["expected"]["result"]
    if expected is None:
        assert not game.is_over
    else:
        assert game.result is not None
        assert game.result.to_json() == expected
    assert sum(game.view(None)["table"]["balances"]) == 0
    # replaying the engine's own record of the replay gives the same game
    again = cardcore.replay(game.record())
    assert again.view(0) == game.view(0)
    assert again.history(0) == game.history(0)


def test_golden_drop_caught_tie_table() -> None:
    record = _load("drop-caught-tie.json")
    game = cardcore.replay(record)
    table = game.view(None)["table"]
    want = record["expected"]
    last = last_hand(game)
    assert last is not None
    assert last["shown"] == [want["hands"][str(s)] for s in range(3)]
    assert [s["cards"] for s in table["spreads"]] == want["spreads"]
    assert table["discard_top"] == want["discard_top"]
    logic = logic_of(game)
    totals = [logic.hand_total(cardcore.parse_cards(" ".join(h))) for h in last["shown"]]
    assert totals == last["totals"] == want["totals"] == [3, 3, 30]


def test_golden_tonk_out_two_players() -> None:
    record = _load("tonk-out-two-players.json")
    game = cardcore.replay(record)
    assert game.result is not None and game.result.payouts == (10, -10)  # 2 stakes of 5
    assert game.view(1)["table"]["hand_sizes"] == [0, 5]


def test_golden_natural_then_deal() -> None:
    record = _load("natural-then-deal.json")
    game = cardcore.replay(record)
    table = game.view(None)["table"]
    want = record["expected"]
    last = last_hand(game)
    assert last is not None and last["reason"] == "natural"
    assert last["amounts"] == want["first_hand"]["amounts"] == [-2, -2, 4]
    assert last["shown"] == want["shown"]
    assert table["balances"] == want["balances"]
    assert table["dealer"] == want["dealer"] and table["phase"] == want["phase"]
