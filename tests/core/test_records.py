from __future__ import annotations

import json

import pytest

import cardcore
from cardcore import CorruptStateError


@pytest.fixture
def finished(make_game):  # type: ignore[no-untyped-def]
    game = make_game("drawgame", 3, rules=["drawgame.kings-free"], options={"rounds": 2})
    cardcore.play(game, [cardcore.RandomAgent(s) for s in range(3)])
    return game


def test_record_replays_exactly(finished) -> None:  # type: ignore[no-untyped-def]
    rec = json.loads(json.dumps(finished.record()))
    again = cardcore.replay(rec)
    assert again.state.snapshot() == finished.state.snapshot()
    assert again.result == finished.result and again.rules == finished.rules
    assert cardcore.replay(json.dumps(rec)).version == finished.version


def test_save_load_mid_game(make_game) -> None:
    game = make_game("drawgame", 2)
    for _ in range(7):
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[-1])
    loaded = cardcore.load(json.dumps(game.save()))
    assert loaded.state.snapshot() == game.state.snapshot() and loaded.version == 7
    seat = loaded.to_act[0]
    assert loaded.legal_actions(seat) == game.legal_actions(seat)


@pytest.mark.parametrize(
    "mutate, match",
    [
        (lambda r: r.update(format="other"), "not a cardcore record"),
        (lambda r: r.update(format_version=99), "not a cardcore record"),
        (lambda r: r.update(game="nope"), "needs game"),
        (lambda r: r.update(game_version="9.0.0"), "major versions differ"),
        (lambda r: r["rules"][0].update(version="7.0"), "major versions differ"),
        (lambda r: r["rules"].append({"name": "drawgame.nope", "id": "X", "version": "0.1.0"}), "needs house rule"),
        (lambda r: r.update(seed="x"), "'seed'"),
        (lambda r: r.update(actions="x"), "'actions'"),
        (lambda r: r["actions"].append([0, "draw"]), "must be \\[seat, notation, at\\]"),
        (lambda r: r["actions"].insert(0, r["actions"][1]), "cannot be replayed"),
        (lambda r: r["actions"].__setitem__(1, [r["actions"][1][0], "discard ZZ", None]), "cannot be replayed"),
        (lambda r: r.update(options={"rounds": 77}), "cannot start"),
        (lambda r: r.update(deck=["AS", "AS"]), "cannot start"),
    ],
)
def test_tampered_record_rejected(finished, mutate, match) -> None:  # type: ignore[no-untyped-def]
    rec = json.loads(json.dumps(finished.record()))
    mutate(rec)
    with pytest.raises(CorruptStateError, match=match):
        cardcore.replay(rec)


@pytest.mark.parametrize(
    "mutate, match",
    [
        (lambda s: s.update(format="x"), "not a cardcore saved game"),
        (lambda s: s.update(state=None), "no state snapshot"),
        (lambda s: s.update(version=3), "saved version"),
        (lambda s: s["state"]["zones"]["discard"]["cards"].pop(), "every card"),
        (lambda s: s["state"]["zones"]["discard"]["cards"].append("JK"), "every card"),
        (lambda s: s["state"]["zones"]["discard"]["cards"].append("ZZ"), "bad card"),
        (lambda s: s["state"].update(phase="nonsense"), "does not match"),
        (lambda s: s["state"]["zones"]["hand.0"]["cards"].append(s["state"]["zones"]["discard"]["cards"].pop()), "does not match"),
    ],
)
def test_tampered_save_rejected(finished, mutate, match) -> None:  # type: ignore[no-untyped-def]
    save = json.loads(json.dumps(finished.save()))
    mutate(save)
    with pytest.raises(CorruptStateError, match=match):
        cardcore.load(save)


def test_garbage_rejected() -> None:
    for bad in ["", "[]", "{", "null", b"\xff\xfe", 42]:
        with pytest.raises(CorruptStateError):
            cardcore.load(bad)  # type: ignore[arg-type]
    with pytest.raises(CorruptStateError, match="too large"):
        cardcore.replay("x" * 20_000_001)
