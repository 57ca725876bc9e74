from __future__ import annotations

import json
from pathlib import Path

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
        (lambda r: r.update(game="nope"), "needs a game that is not installed"),
        (lambda r: r.update(game_version="9.0.0"), "major versions differ"),
        (lambda r: r["rules"][0].update(version="7.0"), "major versions differ"),
        (
            lambda r: r["rules"].append({"name": "drawgame.nope", "id": "X", "version": "0.1.0"}),
            "needs house rule",
        ),
        (lambda r: r.update(seed="x"), "'seed'"),
        (lambda r: r.update(actions="x"), "'actions'"),
        (lambda r: r["actions"].append([0, "draw"]), "must be \\[seat, notation, at\\]"),
        (lambda r: r["actions"].insert(0, r["actions"][1]), "cannot be replayed"),
        (
            lambda r: r["actions"].__setitem__(1, [r["actions"][1][0], "discard ZZ", None]),
            "cannot be replayed",
        ),
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
        (
            lambda s: s["state"]["zones"]["hand.0"]["cards"].append(
                s["state"]["zones"]["discard"]["cards"].pop()
            ),
            "does not match",
        ),
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


class _Text(str):
    """A key that is text by ``isinstance`` but could answer dict lookups its own way."""


@pytest.mark.parametrize(
    "mutate, match",
    [
        (lambda r: r["options"].__setitem__(7, 1), "holds a key that is not text: 7"),
        (lambda r: r.__setitem__(None, 1), "holds a key that is not text: None"),
        (lambda r: r["rules"][0].__setitem__(b"x", 1), "holds a key that is not text: b'x'"),
        (lambda r: r.__setitem__(_Text("x"), 1), "holds a key that is not text: 'x'"),
        (lambda r: r["options"].update(x=object()), "not JSON data: object"),
        (lambda r: r["options"].update(x=float("nan")), "not finite"),
        (lambda r: r["actions"].append([0, "draw", float("inf")]), "not finite"),
        (lambda r: r.update(seed=2**200), "more than 128 bits"),
        (
            lambda r: r["options"].update(
                x=[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
            ),
            "nested deeper",
        ),
        (lambda r: r["options"].update(x={"k": "v" * 20_000_000}), "too large"),
    ],
)
def test_records_beyond_the_limits_are_refused_by_what_is_wrong(finished, mutate, match) -> None:  # type: ignore[no-untyped-def]
    rec = finished.record()
    mutate(rec)
    with pytest.raises(CorruptStateError, match=match):
        cardcore.replay(rec)


# -- format 2, and files written by the previous release (format 1) ---------------------------

DATA = Path(__file__).resolve().parent / "data"
V1_RECORDS = sorted(DATA.glob("*_v1_record.json"))
V1_SAVES = sorted(DATA.glob("*_v1_save.json"))


def test_record_and_save_are_format_3_with_a_position_field(finished) -> None:  # type: ignore[no-untyped-def]
    rec = finished.record()
    assert (rec["format"], rec["format_version"]) == ("cardcore-record", 3)
    assert rec["position"] is None and rec["deck"] is None
    save = finished.save()
    assert (save["format"], save["format_version"]) == ("cardcore-save", 3)
    assert save["record"] == rec and save["version"] == finished.version


def test_the_v1_files_are_what_the_previous_release_wrote() -> None:
    assert {p.name.split("_v1_")[0] for p in V1_RECORDS} >= {
        "drawgame",
        "golf",
        "tonk",
        "spit",
        "speed",
    }
    assert {p.name.split("_v1_")[0] for p in V1_SAVES} >= {"drawgame", "golf"}
    for path in [*V1_RECORDS, *V1_SAVES]:
        data = json.loads(path.read_text())
        record = data.get("record", data)
        assert data["format_version"] == record["format_version"] == 1
        assert "position" not in record  # format 1 had none


@pytest.mark.parametrize("path", V1_RECORDS, ids=lambda p: p.stem)
def test_v1_record_replays_and_migrates(path: Path) -> None:
    old = json.loads(path.read_text())
    game = cardcore.replay(old)  # the recorded result must match the one its actions replay to
    assert game.version == len(old["actions"])
    assert (None if game.result is None else game.result.to_json()) == old["result"]
    new = game.record()
    assert new["format_version"] == 2 and new["position"] is None
    for key in ("game", "players", "seed", "deck", "options", "without"):
        assert new[key] == old[key], key
    # the house rules that keep the defaults of the record's day are named now (Speed's 0.2.0)
    earlier = list(cardcore.earlier_rules(old["game"], old["game_version"]))
    named = [r["name"] for r in new["rules"]]  # (the configuration lists rules by ID)
    assert sorted(named) == sorted([r["name"] for r in old["rules"]] + earlier)
    assert len(named) == len(set(named))
    assert new["actions"] == old["actions"]  # the same notation, action by action
    again = cardcore.replay(json.loads(json.dumps(new)))
    assert again.state.snapshot() == game.state.snapshot()


@pytest.mark.parametrize("path", V1_SAVES, ids=lambda p: p.stem)
def test_v1_save_loads_and_migrates(path: Path) -> None:
    old = json.loads(path.read_text())
    game = cardcore.load(old)
    assert game.version == old["version"]
    on_table = sorted(c for pile in old["state"]["zones"].values() for c in pile["cards"])
    assert sorted(str(c) for c in game.state.zones.all_cards()) == on_table
    new = game.save()
    assert new["format_version"] == 3 and new["record"]["format_version"] == 2  # its old chance
    loaded = cardcore.load(json.loads(json.dumps(new)))  # format 2 compares the whole snapshot
    assert loaded.state.snapshot() == game.state.snapshot()
    tampered = json.loads(path.read_text())
    pile = next(p for p in tampered["state"]["zones"].values() if p["cards"])
    pile["cards"].pop()  # a card lost from the old snapshot: still refused
    with pytest.raises(CorruptStateError, match="every card"):
        cardcore.load(tampered)


def test_record_with_a_starting_position_replays_from_it() -> None:
    game = cardcore.new_game("drawgame", 2, seed=8)
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)], max_actions=30)
    start = cardcore.new_game("drawgame", 2, seed=8)
    for _ in range(12):
        seat = start.to_act[0]
        start.apply(start.legal_actions(seat)[0])
    text = start.position()
    later = cardcore.new_game("drawgame", 2, position=text, seed=3)
    cardcore.play(later, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    rec = json.loads(json.dumps(later.record()))
    assert rec["position"] == text and rec["seed"] == 3
    again = cardcore.replay(rec)
    assert again.result == later.result and again.state.snapshot() == later.state.snapshot()
    with pytest.raises(CorruptStateError, match="position"):
        cardcore.replay(dict(rec, position=["x"]))
    with pytest.raises(CorruptStateError, match="cannot start"):
        cardcore.replay(dict(rec, position=text.replace("drawgame", "golf", 1)))


def test_record_errors_name_what_is_missing_briefly() -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    rec = game.record()
    rec["rules"] = [{"name": "golf.nope", "id": "X-1", "version": "1.0"}]
    with pytest.raises(
        cardcore.CorruptStateError, match=r"'golf\.nope', which is not installed"
    ) as bad:
        cardcore.replay(rec)
    assert "golf.jokers" in str(bad.value) and "tonk." not in str(
        bad.value
    )  # this game's rules only
    rec = game.record()
    rec["game"] = "x" * 100_000
    with pytest.raises(cardcore.CorruptStateError, match="not installed") as bad:
        cardcore.replay(rec)
    assert len(str(bad.value)) < 400
    rec = game.record()
    rec["format_version"] = 9
    with pytest.raises(cardcore.CorruptStateError, match="version 1, 2 or 3"):
        cardcore.replay(rec)
