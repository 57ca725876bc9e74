"""GameState: clone copies every slot correctly or refuses with a clear error; snapshots are JSON."""

from __future__ import annotations

import json
import random
import threading
from collections import Counter, OrderedDict, defaultdict, deque
from typing import ClassVar

import pytest

import cardcore
from cardcore import Card, GameState, Layout, Resign, Result, ScoreSheet, Zones, ZoneSpec

LAYOUT = Layout.of([ZoneSpec("stock"), ZoneSpec("hand.0", 0, cardcore.Visibility.OWNER)])


class Rich(GameState):
    """A state with one slot of each supported kind."""

    __slots__ = (
        "counts",
        "frozen",
        "history",
        "log",
        "marks",
        "order",
        "queue",
        "result_",
        "sheet",
    )


class Declared(Rich):
    """The same, declaring its mutable slots (clones then skip the type test for the others)."""

    _mutable: ClassVar[tuple[str, ...] | None] = (
        "zones",
        "counts",
        "history",
        "log",
        "marks",
        "order",
        "queue",
        "sheet",
    )


class Deep(GameState):
    """A list of lists copied one level deeper."""

    __slots__ = ("grid",)
    _deep: ClassVar[tuple[str, ...]] = ("grid",)


def _rich(cls: type[Rich]) -> Rich:
    st = cls(2, {"x": 1}, Zones(LAYOUT))
    st.zones.put(0, Card.parse("KH"))
    st.counts = Counter({"KH": 1})
    st.frozen = (Resign(0), Card.parse("2S"))
    st.history = defaultdict(list, {0: [1]})
    st.log = ["a"]
    st.marks = {1, 2}
    st.order = OrderedDict(a=1)
    st.queue = deque([1, 2], maxlen=3)
    st.result_ = Result((0,), (1.0, 2.0), None, "x")
    st.sheet = ScoreSheet(2)
    return st


MUTABLE = ("zones", "counts", "history", "log", "marks", "order", "queue", "sheet")


@pytest.mark.parametrize("cls", [Rich, Declared], ids=["type-tested", "declared"])
def test_clone_copies_every_mutable_slot_and_shares_values(cls: type[Rich]) -> None:
    st = _rich(cls)
    copy = st.clone()
    assert type(copy) is cls
    for name in MUTABLE:
        assert getattr(copy, name) is not getattr(st, name), f"slot {name} is shared"
        assert type(getattr(copy, name)) is type(getattr(st, name))
    assert copy.frozen is st.frozen and copy.result_ is st.result_  # immutable: shared
    assert copy.queue.maxlen == 3
    copy.counts["KH"] += 1
    copy.queue.append(9)
    copy.history[1].append(2)
    copy.order["b"] = 2
    copy.sheet.add_round([1, 2])
    copy.zones.move(0, 1)
    assert st.counts == Counter({"KH": 1}) and list(st.queue) == [1, 2]
    assert dict(st.history) == {0: [1]} and list(st.order) == ["a"]
    assert st.sheet.totals == [0, 0] and st.zones.count(0) == 1
    assert copy.snapshot() != st.snapshot()


def test_clone_refuses_an_unknown_mutable_type_naming_the_slot() -> None:
    st = _rich(Rich)
    st.log = random.Random(1)  # mutable, no clone(): sharing it would couple the clones
    with pytest.raises(TypeError, match=r"slot 'log'.*random\.Random"):
        st.clone()
    st.log = threading.Lock()
    with pytest.raises(TypeError, match="slot 'log'"):
        st.clone()


def test_clone_deep_slot_copies_inner_lists() -> None:
    st = Deep(2, {}, Zones(LAYOUT))
    st.grid = [[1, 2], [3], Counter(a=1)]
    copy = st.clone()
    copy.grid[0].append(9)
    copy.grid[2]["a"] += 1
    assert st.grid == [[1, 2], [3], Counter(a=1)]


def test_snapshot_is_json_ready_through_the_one_helper() -> None:
    st = _rich(Rich)
    snap = st.snapshot()
    json.dumps(snap)
    assert snap["counts"] == {"KH": 1} and snap["queue"] == [1, 2] and snap["marks"] == [1, 2]
    assert snap["frozen"] == ["resign", "2S"] and snap["sheet"]["totals"] == [0, 0]
    assert "options" not in snap and "seed" not in snap  # parameters and the seed stay out


def test_rng_counts_chance_events() -> None:
    st = GameState(2, {}, Zones(LAYOUT))
    st.seed = 5
    a = st.rng().random()
    b = st.rng().random()
    assert st.draws == 2 and a != b
    assert cardcore.Chance(5, 1).random() == a  # chance event k of seed s: Chance(s, k)
    st.chance = 2  # a game replayed from a record of format 1 or 2
    assert st.rng().random() == cardcore.derive_rng(5, 3).random()
