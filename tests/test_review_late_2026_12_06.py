"""Review of 9a44555 and bda8d23 (2026-12-06): load's refusal naming the first differing
place, read-only declaration maps, aliases kept as the option takes them, from_points
asking a copy, and the testing kit's ordered pool of offered actions."""

from __future__ import annotations

import copy
import enum
import pickle
import random
import re
from typing import Any

import pytest

import cardcore
from cardcore import Card, CorruptStateError, Option, PluginError, ScoreTable
from cardcore._options import FrozenMap
from cardcore._saved import difference
from cardcore.errors import ArgumentError
from cardcore.testing import Report, SpyAgent

# a card's text standing alone ("QH", "10S", "JK"), not inside a longer word
CARD_TEXT = re.compile(
    r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[HDCS](?![A-Za-z0-9])|(?<![A-Za-z])JK(?![A-Za-z])"
)


def _played(name: str, steps: int, seed: int = 5) -> cardcore.Game:
    """A two-seat game after *steps* seeded random actions (never a resignation)."""
    game = cardcore.new_game(name, 2, seed=seed)
    rng = random.Random(1)
    for _ in range(steps):
        if game.is_over:
            break
        legal = [a for s in game.to_act for a in game.legal_actions(s)]
        legal = [a for a in legal if type(a).__name__ not in ("Resign", "EndMatch")]
        game.apply(legal[rng.randrange(len(legal))])
    return game


GAMES = [("golf", 6), ("tonk", 0), ("spit", 12), ("speed", 11)]  # spit/speed in real time


def _zones_with_two(save: dict[str, Any]) -> tuple[str, str]:
    zones = save["state"]["zones"]
    names = sorted(k for k in zones if len(zones[k]["cards"]) >= 2)
    return names[0], names[-1]


def _swap_between(save: dict[str, Any]) -> str:
    first, last = _zones_with_two(save)
    zones = save["state"]["zones"]
    a, b = zones[first]["cards"], zones[last]["cards"]
    assert a[0] != b[1]  # two different cards, so the swap keeps every card accounted for
    a[0], b[1] = b[1], a[0]
    return f"state.zones{_zone(first)}.cards[0]"  # keys are compared in sorted order


def _zone(name: str) -> str:
    """A zone in load's path: ``.stock``, or quoted when its name holds a dot
    (``['hand.0']``: a dotted path could not be split back, review 2026-12-06)."""
    return f".{name}" if name.isidentifier() else f"[{name!r}]"


def _swap_within(save: dict[str, Any]) -> str:
    first, _ = _zones_with_two(save)
    cards = save["state"]["zones"][first]["cards"]
    assert cards[0] != cards[1]
    cards[0], cards[1] = cards[1], cards[0]
    return f"state.zones{_zone(first)}.cards[0]"


def _add_key(save: dict[str, Any]) -> str:
    save["state"]["aaa"] = 1
    return "state.aaa (not replayed)"


def _remove_key(save: dict[str, Any]) -> str:
    del save["state"]["players"]
    return "state.players (not saved)"


def _count_as_text(save: dict[str, Any]) -> str:
    save["state"]["players"] = "2"
    return "state.players"


def _count_as_float(save: dict[str, Any]) -> str:
    save["state"]["players"] = 2.0  # kind for kind: 2.0 is not the count 2
    return "state.players"


def _count_as_bool(save: dict[str, Any]) -> str:
    save["state"]["draws"] = save["state"]["draws"] == 1  # a bool where a count was
    return "state.draws"


def _zone_field_added(save: dict[str, Any]) -> str:
    first, _ = _zones_with_two(save)
    save["state"]["zones"][first]["extra"] = []
    return f"state.zones{_zone(first)}.extra (not replayed)"


def _seen_changed(save: dict[str, Any]) -> str:
    first, _ = _zones_with_two(save)
    save["state"]["zones"][first]["seen"][0] = 5
    return f"state.zones{_zone(first)}.seen[0]"


def _nested_deeper(save: dict[str, Any]) -> str:
    save["state"]["to_act"] = [[[[[list(save["state"]["to_act"])]]]]]
    return "state.to_act[0]"  # a list of one where a seat (or an empty list) was


TAMPERS = [
    _swap_between,
    _swap_within,
    _add_key,
    _remove_key,
    _count_as_text,
    _count_as_float,
    _count_as_bool,
    _zone_field_added,
    _seen_changed,
]


@pytest.mark.parametrize("tamper", TAMPERS, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize(("name", "steps"), GAMES, ids=[g for g, _ in GAMES])
def test_tampered_save_is_refused_naming_the_first_place_and_no_card(name, steps, tamper):
    save = _played(name, steps).save()
    expected = tamper(save)
    before = copy.deepcopy(save)
    with pytest.raises(CorruptStateError) as caught:
        cardcore.load(save)
    message = str(caught.value)
    assert f"(first at {expected})" in message
    assert CARD_TEXT.search(message) is None  # every card text lives in the save, not here
    assert "cardcore.replay(save['record'])" in message  # the record replays alone
    assert save == before  # load changed nothing it was given


def test_the_tampered_record_still_replays_alone():
    save = _played("golf", 6).save()
    _swap_between(save)
    with pytest.raises(CorruptStateError):
        cardcore.load(save)
    assert cardcore.replay(save["record"]).version == save["version"]


def test_golf_turns_changed_is_named_state_turns():
    save = _played("golf", 6).save()
    save["state"]["turns"] += 1
    with pytest.raises(CorruptStateError, match=re.escape("(first at state.turns)")):
        cardcore.load(save)


def test_nested_deeper_state_is_refused():
    save = _played("golf", 6).save()
    _nested_deeper(save)
    with pytest.raises(CorruptStateError):
        cardcore.load(save)


def test_difference_does_not_depend_on_key_order():
    replayed = {"b": [1, 2], "a": {"y": 1, "x": 2}, "c": 3}
    saved = {"c": 4, "a": {"x": 2, "y": 0}, "b": [1, 3]}
    reordered = dict(reversed(list(saved.items())))
    assert difference(saved, replayed) == difference(reordered, replayed) == "state.a.y"
    assert difference(replayed, replayed) is None


def test_refusal_naming_a_tampered_key_stays_short():
    save = _played("golf", 6).save()
    save["state"]["x" * 100_000] = 1
    with pytest.raises(CorruptStateError) as caught:
        cardcore.load(save)
    assert len(str(caught.value)) < 2_000


# --- declaration maps and aliases -------------------------------------------------------


class Layout(enum.IntEnum):
    SIX = 6


def test_frozen_map_is_built_only_read_only():
    with pytest.raises(TypeError):
        FrozenMap({"a": 1})
    made = FrozenMap.fromkeys("ab", 0)
    assert type(made) is FrozenMap
    assert made == {"a": 0, "b": 0}
    with pytest.raises(TypeError):
        made["c"] = 1


@pytest.mark.parametrize(
    "copied",
    [lambda m: pickle.loads(pickle.dumps(m)), copy.deepcopy, copy.copy],
    ids=["pickle", "deepcopy", "copy"],
)
def test_option_aliases_stay_read_only_through_copies(copied):
    option = Option("rate", 1.5, "A rate.", kind=float, aliases={"two": 2})
    again = copied(option.aliases)
    assert type(again) is FrozenMap
    assert again == {"two": 2.0}
    with pytest.raises(TypeError):
        again["three"] = 3.0


def test_alias_of_a_float_option_is_kept_as_the_float():
    option = Option("rate", 1.5, "A rate.", kind=float, aliases={"two": 2})
    assert type(option.aliases["two"]) is float


def test_alias_named_by_an_int_enum_is_kept_as_the_int():
    option = Option("layout", 6, "A layout.", kind=int, choices=(6, 8), aliases={"six": Layout.SIX})
    assert type(option.aliases["six"]) is int


def test_unreadable_aliases_say_reading_failed():
    class Unreadable(dict[str, int]):
        def keys(self) -> Any:
            raise RuntimeError("unreadable")

        def __iter__(self) -> Any:
            raise RuntimeError("unreadable")

        def items(self) -> Any:
            raise RuntimeError("unreadable")

    with pytest.raises(PluginError, match="reading it failed"):
        Option("n", 1, "A count.", kind=int, aliases=Unreadable(one=1))


def test_golf_layout_text_reads_as_the_number_and_old_saves_load():
    game = cardcore.new_game("golf", 2, options={"layout": "6"}, seed=3)
    assert game.options["layout"] == 6
    assert type(game.options["layout"]) is int
    save = game.save()
    save["config"]["options"]["layout"] = "6"  # as a save written before the alias
    assert cardcore.load(save).options["layout"] == 6


def test_rule_info_pickles_with_read_only_applies():
    game = cardcore.new_game(
        "golf", 2, rules=["golf.diagonal-pairs"], options={"layout": 4}, seed=3
    )
    info = next(r for r in game.ruleset.rules if r.name == "golf.diagonal-pairs")
    again = pickle.loads(pickle.dumps(info))
    assert again == info
    assert type(again.applies) is FrozenMap


# --- from_points -------------------------------------------------------------------------


def test_from_points_asks_a_copy_in_order():
    cards = [Card.parse(t) for t in ("KH", "2S", "3D")]
    asked: list[str] = []

    def points(card: Card) -> int:
        asked.append(str(card))
        if cards:
            cards.pop()  # a callback that edits the list it was given
        return 1

    table = ScoreTable.from_points(points, cards)
    assert asked == ["KH", "2S", "3D"]
    assert table[Card.parse("3D")] == 1


def test_from_points_refuses_a_non_iterable_by_name():
    with pytest.raises(ArgumentError, match="iterable of cards"):
        ScoreTable.from_points(lambda card: 1, 5)  # type: ignore[arg-type]


# --- the testing kit's pool --------------------------------------------------------------


def test_spy_agent_pool_keeps_the_order_first_offered():
    game = _played("golf", 0)
    seat = game.to_act[0]
    pool: dict[Any, None] = {}
    agent = SpyAgent(seat, 1, Report("golf"), pool=pool)
    legal = game.legal_actions(seat)
    agent.choose(game.view(seat), legal)
    agent.choose(game.view(seat), list(reversed(legal)))
    assert list(pool) == list(legal)


def test_spy_agent_still_takes_a_set_as_its_pool():
    game = _played("golf", 0)
    seat = game.to_act[0]
    pool: set[Any] = set()
    agent = SpyAgent(seat, 1, Report("golf"), pool=pool)  # type: ignore[arg-type]
    agent.choose(game.view(seat), game.legal_actions(seat))
    assert pool == set(game.legal_actions(seat))
