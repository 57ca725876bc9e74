"""Review of 9af02c3: FrozenMap declarations, aliased saves, hostile aliases, cards in order."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Iterator, Mapping
from typing import Any

import attrs
import pytest

import cardcore
from cardcore import Card, CorruptStateError, PluginError
from cardcore.cli.tables import _values
from cardcore.info import Option, RuleInfo
from cardcore.scoring import ScoreTable

LAYOUT = Option("layout", 6, kind=object, choices=(6, "4h"), aliases={"6": 6, "4H": "4h"})
MUTATORS = {
    "setitem": lambda m: m.__setitem__("7", 7),
    "delitem": lambda m: m.__delitem__("6"),
    "ior": lambda m: m.__ior__({"7": 7}),
    "clear": lambda m: m.clear(),
    "pop": lambda m: m.pop("6"),
    "popitem": lambda m: m.popitem(),
    "setdefault": lambda m: m.setdefault("7", 7),
    "update": lambda m: m.update({"7": 7}),
}


def _option() -> Option:
    return Option("layout", 6, kind=object, choices=(6, "4h"), aliases={"6": 6, "4H": "4h"})


@pytest.mark.parametrize("name", sorted(MUTATORS))
def test_aliases_refuse_each_mutating_method(name: str) -> None:
    opt = _option()
    with pytest.raises(TypeError):
        MUTATORS[name](opt.aliases)
    assert dict(opt.aliases) == {"6": 6, "4H": "4h"}


def test_aliases_refuse_reinit() -> None:
    opt = _option()
    with pytest.raises(TypeError):
        opt.aliases.__init__({"7": 7})  # type: ignore[misc]
    assert dict(opt.aliases) == {"6": 6, "4H": "4h"}


def test_frozenmap_fromkeys_builds_one() -> None:
    frozen_type = type(_option().aliases)
    made = frozen_type.fromkeys(["a"], 1)
    assert made == {"a": 1} and type(made) is frozen_type


def test_aliases_copies_are_plain_dicts_and_read_as_data() -> None:
    aliases = _option().aliases
    mutable = aliases.copy()  # type: ignore[attr-defined]
    mutable["7"] = 7  # a copy is the caller's own
    assert dict(aliases) == {"6": 6, "4H": "4h"}
    assert aliases == {"6": 6, "4H": "4h"}
    assert json.loads(json.dumps(aliases)) == {"6": 6, "4H": "4h"}
    with pytest.raises(TypeError):
        hash(aliases)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_option_and_rule_pickle_read_only(protocol: int) -> None:
    opt = _option()
    rule = cardcore.rule_info("golf.diagonal-pairs")
    back_opt = pickle.loads(pickle.dumps(opt, protocol=protocol))
    back_rule = pickle.loads(pickle.dumps(rule, protocol=protocol))
    assert back_opt == opt and dict(back_rule.applies) == dict(rule.applies)
    for mapping in (back_opt.aliases, back_rule.applies):
        with pytest.raises(TypeError):
            mapping["x"] = (1,)


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy])
def test_copies_stay_read_only(copier: Any) -> None:
    rule = cardcore.rule_info("golf.diagonal-pairs")
    for mapping in (copier(_option()).aliases, copier(rule).applies):
        with pytest.raises(TypeError):
            mapping["x"] = (1,)


def test_evolve_keeps_declarations_read_only() -> None:
    opt = attrs.evolve(_option(), default="4h")
    rule = attrs.evolve(cardcore.rule_info("golf.diagonal-pairs"), summary="other")
    assert opt.check("4H") == "4h" and dict(rule.applies) == {"layout": (4,)}
    with pytest.raises(TypeError):
        rule.applies["layout"] = (6,)  # type: ignore[index]


def test_cli_prints_applies_of_frozen_map() -> None:
    rule = cardcore.rule_info("golf.diagonal-pairs")
    assert _values(rule.applies["layout"]) == "4"


# -- hostile declarations: a PluginError, never a raw error ----------------------------------


class _RaisingItems(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("items")

    def __iter__(self) -> Iterator[str]:
        return iter(["six"])

    def __len__(self) -> int:
        return 1


class _EvilEq:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __hash__(self) -> int:
        return 1


def test_unreadable_aliases_are_plugin_errors() -> None:
    with pytest.raises(PluginError, match="aliases"):
        Option("x", 6, aliases=_RaisingItems())
    with pytest.raises(PluginError, match="must be a text"):
        Option("x", 6, kind=object, choices=(6,), aliases={_EvilEq(): 6})  # type: ignore[dict-item]
    with pytest.raises(PluginError, match="a value it refuses"):
        Option("x", 6, kind=object, choices=(6,), aliases={"six": _EvilEq()})
    with pytest.raises(PluginError, match="applies"):
        RuleInfo("X-Y-1", "x.y", "x", "s", applies=_RaisingItems())  # type: ignore[arg-type]


def test_crossed_bounds_named_before_alias() -> None:
    with pytest.raises(PluginError, match="minimum 9 is above maximum 1"):
        Option("x", 6, minimum=9, maximum=1, aliases={"six": 6})


def test_float_option_takes_int_alias() -> None:
    assert Option("x", 1.0, kind=float, aliases={"one": 1}).check("one") == 1.0


# -- saves: stored options read through the aliases, tampering still refused -----------------


@pytest.fixture(scope="module")
def save() -> dict[str, Any]:
    game = cardcore.new_game("golf", 2, options={"layout": 9}, seed=3)
    for _ in range(3):
        game.apply(game.legal_actions(game.to_act[0])[0])
    data: dict[str, Any] = json.loads(json.dumps(game.save()))
    return data


def _with_options(save: dict[str, Any], options: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(save))
    out["config"]["options"] = options
    return out


def test_save_with_layout_text_loads(save: dict[str, Any]) -> None:
    data = _with_options(save, {**save["config"]["options"], "layout": "9"})
    assert cardcore.load(data).options["layout"] == 9
    assert data["config"]["options"]["layout"] == "9"  # the caller's save is left as it was


@pytest.mark.parametrize(
    "tamper",
    [
        [1],
        None,
        "layout",
        {"bogus": "9"},
        {"layout": ["9"]},
        {"layout": {"9": 9}},
        {"layout": "6"},
        {"layout": "4H"},
        {"layout": 9.0},
        {"layout": "09"},
    ],
)
def test_tampered_options_are_refused_unchanged(save: dict[str, Any], tamper: Any) -> None:
    options = {**save["config"]["options"], **tamper} if isinstance(tamper, dict) else tamper
    data = _with_options(save, options)
    before = json.dumps(data, sort_keys=True)
    with pytest.raises(CorruptStateError, match="saved options"):
        cardcore.load(data)
    assert json.dumps(data, sort_keys=True) == before


# -- cards asked in order ---------------------------------------------------------------------


def test_from_points_generator_with_duplicates() -> None:
    asked: list[Card] = []

    def points(card: Card) -> int:
        asked.append(card)
        return 2

    cards = (Card.parse(t) for t in ("AH", "AH", "KS", "JK", "KS"))
    table = ScoreTable.from_points(points, cards)
    assert asked == [Card.parse("AH"), Card.parse("KS"), Card.parse("JK")]  # each once, in order
    assert table[Card.parse("JK")] == 2


def test_from_points_names_first_bad_item() -> None:
    with pytest.raises(cardcore.ArgumentError, match="not 5"):
        ScoreTable.from_points(lambda c: 1, [Card.parse("KS"), 5, "AH", []])  # type: ignore[list-item]
    with pytest.raises(cardcore.ArgumentError, match=r"not \[\]"):
        ScoreTable.from_points(lambda c: 1, [Card.parse("KS"), []])  # type: ignore[list-item]


def test_from_points_snapshot_of_cards() -> None:
    original = [Card.parse(t) for t in ("AH", "2H", "3H")]
    cards = list(original)

    def points(card: Card) -> int:
        cards.remove(card)  # a callback that edits the list it was built from
        return 1

    table = ScoreTable.from_points(points, cards)
    assert set(table.by_card) == set(original)


def test_from_points_dict_grown_by_callback() -> None:
    cards = dict.fromkeys([Card.parse("AH"), Card.parse("2H")])

    def points(card: Card) -> int:
        cards[Card.parse("9C")] = None
        return 1

    table = ScoreTable.from_points(points, cards)
    assert set(table.by_card) >= {Card.parse("AH"), Card.parse("2H")}


def test_golf_with_jokers_scores_every_card() -> None:
    game = cardcore.new_game(
        "golf", 2, rules=["golf.jokers"], options={"rounds": 1, "max_turns": 8}, seed=11
    )
    steps = 0
    while not game.is_over and steps < 400:
        game.apply(game.legal_actions(game.to_act[0])[0])
        steps += 1
    assert game.is_over and game.result is not None
    assert len(game.result.scores) == 2 and game.result.reason == "rounds"
