"""Replay the hand-made golden records in seeds/spit/ and compare with the hand-worked values."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tests.games.spit.helpers import held, speed_state, spit_state

import cardcore

SEEDS = Path(__file__).resolve().parents[3] / "seeds" / "spit"
RECORDS = sorted(SEEDS.glob("*.json"))


def _start(rec: dict[str, Any]) -> cardcore.Game:
    """The record's own start (no actions yet): its game, players, options, seed, deck and
    the chance derivation of its format, so later shuffles (a new deal) match its replay."""
    return cardcore.replay({**rec, "actions": [], "result": None})


def _check_spit(game: cardcore.Game, point: dict[str, Any]) -> None:
    table = game.view(None)["table"]
    assert table["phase"] == point["phase"] and table["deal"] == point["deal"]
    if "emptier" in point:
        assert table["emptier"] == point["emptier"]
    if "mode" in point:
        assert table["mode"] == point["mode"]
    if "piles_bottom_up" in point:
        for side, cards in point["piles_bottom_up"].items():
            assert (table["piles"][side] or [])[::-1] == cards
    if "tops" in point:
        for seat in (0, 1):
            got = [p[0] if p else None for p in table["seats"][seat]["layout"]]
            assert got == point["tops"][seat]
    if "spit_cards" in point:
        assert [table["seats"][s]["spit_cards"] for s in (0, 1)] == point["spit_cards"]
    if "holds" in point:
        for seat in (0, 1):
            assert Counter(map(str, held(game, seat))) == Counter(point["holds"][seat])


def _check_speed(game: cardcore.Game, point: dict[str, Any]) -> None:
    state, logic = speed_state(game)
    for p, side in enumerate(("L", "R")):
        assert [str(c) for c in state.zones.cards[logic.pile[p]]] == point["piles_bottom_up"][side]
    for seat in (0, 1):
        assert [str(c) for c in state.zones.cards[logic.hand[seat]]] == point["hands"][seat]
        assert state.zones.count(logic.stock[seat]) == point["stocks"][seat]
        assert state.zones.count(logic.side[seat]) == point["sides"][seat]


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_spit_golden_records_replay_as_worked_out(path: Path) -> None:
    rec = json.loads(path.read_text())
    game = _start(rec)
    points = {p["version"]: p for p in rec["expected"]["checkpoints"]}
    check = _check_spit if rec["game"] == "spit" else _check_speed
    for seat, text, at in rec["actions"]:
        game.act(seat, text, at=at, seen=game.version)
        if game.version in points:
            check(game, points.pop(game.version))
    assert not points
    assert (None if game.result is None else game.result.to_json()) == rec["result"]
    # the core's replay agrees, and our record round-trips
    again = cardcore.replay(rec)
    assert again.state.snapshot() == game.state.snapshot()
    assert game.record()["actions"] == rec["actions"]


def test_spit_golden_first_deal_second_slap_is_stale() -> None:
    rec = json.loads((SEEDS / "first-deal.json").read_text())
    game = _start(rec)
    for seat, text, at in rec["actions"][:-1]:
        game.act(seat, text, at=at)
    v = game.version
    game.act(1, "slap R", seen=v)
    with pytest.raises(cardcore.StaleActionError):
        game.act(0, "slap L", seen=v)
    state, _ = spit_state(game)
    assert state.deal == 2
