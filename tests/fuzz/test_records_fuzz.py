"""Hostile saved games and records: each rejected with CorruptStateError, nothing partly loaded.

The general property: ``load`` either raises :class:`cardcore.CorruptStateError` or returns a
game whose own save equals the (tampered) input, so nothing inconsistent is ever loaded.
Targeted cases (forged, duplicated or missing cards, wrong versions, truncated text, huge
input, wrong types) must raise.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cardcore
from cardcore import CorruptStateError
from cardcore.records import MAX_BYTES
from tests.fuzz.conftest import position

CASES = [
    ("drawgame", ("drawgame.kings-free",)),
    ("golf", ()),
    ("tonk", ()),
    ("spit", ()),
    ("speed", ()),
]


def _save(name: str, rules: tuple[str, ...]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(position(name, 10, rules).save()))
    return data


def _normal(data: Any) -> Any:
    return json.loads(json.dumps(data, sort_keys=True))


def _semantic(record: Any, game: cardcore.Game) -> Any:
    """A record as far as replay reads it: defaults filled, ``result`` and rule IDs left out.

    Default rules are on unless named in ``without``, so whether the list names them is moot.

    (Replay identifies rules by name and checks the recorded result against the replayed one.)
    """
    out = _normal(record)
    out.pop("result", None)
    out.setdefault("deck", None)
    out.setdefault("position", None)  # absent reads as null (records from before positions)
    out.setdefault("truncated", False)
    if isinstance(out.get("options"), dict):
        out["options"] = {**_normal(dict(game.options)), **out["options"]}
    if isinstance(out.get("rules"), list):
        defaults = set(game.ruleset.game.default_rules)
        out["rules"] = [
            {k: v for k, v in r.items() if k != "id"} if isinstance(r, dict) else r
            for r in out["rules"]
            if not (isinstance(r, dict) and r.get("name") in defaults)
        ]
        unique: list[Any] = []
        for r in out["rules"]:  # replay reads a rule named twice as once
            if r not in unique:
                unique.append(r)
        out["rules"] = unique
    return out


def _load_or_corrupt(data: Any, loader: Any = cardcore.load) -> cardcore.Game | None:
    """Load *data*; return None for a CorruptStateError, and check the input was not changed."""
    before = copy.deepcopy(data)
    games = cardcore.available_games()
    try:
        game = loader(data)
    except CorruptStateError as exc:
        assert str(exc)  # (a value cut at 80 characters may end in "."; not checked)
        game = None
    assert data == before or (data != data), (
        "the loader changed its input"
    )  # NaN never equals itself
    assert cardcore.available_games() == games
    return game


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


def _mutate(data: dict[str, Any], path: tuple[Any, ...], op: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    if not path:
        return out
    parent: Any = out
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if op == "replace":
        parent[key] = value
    elif op == "delete":
        del parent[key]
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
        other = (key + 1) % len(parent)
        parent[key], parent[other] = parent[other], parent[key]
    else:
        parent[key] = value
    return out


@pytest.mark.parametrize(("name", "rules"), CASES, ids=[c[0] for c in CASES])
@given(data=st.data())
def test_fuzz_tampered_save_is_rejected_or_consistent(
    name: str, rules: tuple[str, ...], data: Any
) -> None:
    save = _save(name, rules)
    path = data.draw(st.sampled_from(_paths(save)[1:]))
    op = data.draw(st.sampled_from(["replace", "delete", "duplicate", "swap"]))
    value = data.draw(json_values)
    tampered = _mutate(save, path, op, value)
    assume(_normal(tampered) != _normal(save))
    game = _load_or_corrupt(tampered)
    if game is not None:
        got, want = _normal(game.save()), _normal(tampered)
        got["record"] = _semantic(got["record"], game)
        want["record"] = _semantic(want["record"], game)
        if "config" not in want:  # a save from before the configuration was saved
            got.pop("config", None)
        assert got == want, f"{op} at {path} loaded a game that differs from its save"


@pytest.mark.parametrize(("name", "rules"), CASES, ids=[c[0] for c in CASES])
@given(data=st.data())
def test_fuzz_tampered_record_is_rejected_or_replayed_faithfully(
    name: str, rules: tuple[str, ...], data: Any
) -> None:
    record = _save(name, rules)["record"]
    path = data.draw(st.sampled_from(_paths(record)[1:]))
    op = data.draw(st.sampled_from(["replace", "delete", "duplicate", "swap"]))
    tampered = _mutate(record, path, op, data.draw(json_values))
    assume(_normal(tampered) != _normal(record))
    game = _load_or_corrupt(tampered, cardcore.replay)
    if game is not None:
        got = _semantic(game.record(), game)
        want = _semantic(tampered, game)
        assert got == want, f"{op} at {path} replayed to a game whose record differs"


@pytest.mark.parametrize(("name", "rules"), CASES, ids=[c[0] for c in CASES])
@given(cut=st.integers(min_value=0, max_value=10**6))
def test_fuzz_truncated_text_is_corrupt(name: str, rules: tuple[str, ...], cut: int) -> None:
    text = json.dumps(_save(name, rules))
    assert _load_or_corrupt(text[: cut % len(text)]) is None
    assert _load_or_corrupt(text.encode()[: cut % len(text)], cardcore.replay) is None


def _zones(save: dict[str, Any]) -> dict[str, Any]:
    zones: dict[str, Any] = save["state"]["zones"]
    return zones


def _a_card_pile(save: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in _zones(save).values() if p["cards"])


@pytest.mark.parametrize(("name", "rules"), CASES, ids=[c[0] for c in CASES])
def test_forged_duplicated_and_missing_cards_are_corrupt(name: str, rules: tuple[str, ...]) -> None:
    save = _save(name, rules)
    forged = copy.deepcopy(save)
    pile = _a_card_pile(forged)
    pile["cards"][0] = "JK" if pile["cards"][0] != "JK" else "AS"
    duplicated = copy.deepcopy(save)
    pile = _a_card_pile(duplicated)
    pile["cards"].append(pile["cards"][0])
    pile["seen"].append(0)
    missing = copy.deepcopy(save)
    pile = _a_card_pile(missing)
    pile["cards"].pop()
    pile["seen"].pop()
    unknown = copy.deepcopy(save)
    _a_card_pile(unknown)["cards"][0] = "11X"
    moved = copy.deepcopy(save)
    piles = [p for p in _zones(moved).values() if p["cards"]]
    piles[-1]["cards"].append(piles[0]["cards"].pop())
    piles[-1]["seen"].append(piles[0]["seen"].pop())
    reordered = copy.deepcopy(save)
    biggest = max(_zones(reordered).values(), key=lambda p: len(set(p["cards"])))
    assert len(set(biggest["cards"])) > 1
    biggest["cards"].reverse()
    peeked = copy.deepcopy(save)
    hidden = next(p for p in _zones(peeked).values() if 0 in p["seen"])
    hidden["seen"][hidden["seen"].index(0)] = -1
    for label, bad in [("forged", forged), ("duplicated", duplicated), ("missing", missing),
                       ("unknown", unknown), ("moved", moved), ("reordered", reordered), ("peeked", peeked)]:  # fmt: skip
        with pytest.raises(CorruptStateError):
            cardcore.load(bad)
        assert label


@pytest.mark.parametrize(("name", "rules"), CASES, ids=[c[0] for c in CASES])
def test_wrong_versions_are_corrupt(name: str, rules: tuple[str, ...]) -> None:
    save = _save(name, rules)
    for key, value in [
        ("format_version", 4),
        ("format_version", "2"),
        ("format_version", 0),
        ("format", "cardcore-record"),
        ("version", 10**6),
    ]:
        with pytest.raises(CorruptStateError):
            cardcore.load(dict(save, **{key: value}))
    record = save["record"]
    for key, value in [
        ("format_version", 0),
        ("format_version", 4),
        ("format_version", True),
        ("game_version", "99.0.0"),
        ("game", "no-such-game"),
        ("seed", "7"),
    ]:
        with pytest.raises(CorruptStateError):
            cardcore.replay(dict(record, **{key: value}))
        with pytest.raises(CorruptStateError):
            cardcore.load(dict(save, record=dict(record, **{key: value})))
    if record["rules"]:
        rule = dict(record["rules"][0], version="99.0.0")
        with pytest.raises(CorruptStateError, match="major"):
            cardcore.replay(dict(record, rules=[rule]))
        with pytest.raises(CorruptStateError):
            cardcore.replay(dict(record, rules=[dict(rule, name="no.such-rule")]))


@pytest.mark.parametrize(
    "bad", [None, 5, 1.5, [], ["a"], "not json", "[1, 2]", "null", b"\xff\xfe", "{}", {"format": 1}]
)
def test_wrong_types_are_corrupt(bad: Any) -> None:
    assert _load_or_corrupt(bad) is None
    assert _load_or_corrupt(bad, cardcore.replay) is None


def test_huge_inputs_are_corrupt() -> None:
    save = _save("drawgame", ("drawgame.kings-free",))
    huge_text = json.dumps(dict(save, padding="x" * (MAX_BYTES + 1)))
    with pytest.raises(CorruptStateError, match="too large"):
        cardcore.load(huge_text)
    record = save["record"]
    many = dict(record, actions=[[0, "draw", None]] * 300_000)
    with pytest.raises(CorruptStateError, match="bound"):
        cardcore.replay(many)
    names = dict(record, players=["x" * 10_000] * 10_000)
    with pytest.raises(CorruptStateError):
        cardcore.replay(names)


def test_deeply_nested_json_is_corrupt() -> None:
    with pytest.raises(CorruptStateError):
        cardcore.load("[" * 100_000)


def test_reordered_and_duplicated_actions_are_corrupt_in_a_save() -> None:
    save = _save("golf", ())
    actions = save["record"]["actions"]
    assert len(actions) >= 4
    reordered = copy.deepcopy(save)
    assert [a[1] for a in actions[4:6]] == ["draw", "replace 0"]
    reordered["record"]["actions"] = [*actions[:4], actions[5], actions[4], *actions[6:]]
    duplicated = copy.deepcopy(save)
    duplicated["record"]["actions"] = [actions[0], *actions]
    truncated = copy.deepcopy(save)
    truncated["record"]["actions"] = actions[:-1]
    for bad in (reordered, duplicated, truncated):
        with pytest.raises(CorruptStateError):
            cardcore.load(bad)


def test_forged_result_in_a_record_is_corrupt() -> None:
    game = cardcore.new_game("drawgame", 2, seed=3)
    cardcore.play(game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    record = json.loads(json.dumps(game.record()))
    assert record["result"] is not None
    record["result"]["winners"] = [1 - record["result"]["winners"][0]]
    record["result"]["scores"] = [0, 0]
    with pytest.raises(CorruptStateError):
        cardcore.replay(record)
