"""The kit names the cause: the slot a clone shares, a read that writes, the most seats."""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import cardcore
from cardcore import Card, Emit, GameInfo, Ruleset, hookimpl, testing
from tests.conformance.broken import _plugin
from tests.plugins import drawgame
from tests.plugins.drawgame import DrawAction, DrawLogic, DrawState


class _LogState(DrawState):
    __slots__ = ("log",)
    _mutable = ("zones", "past", "totals")  # "log" forgotten: clones share it
    log: list[str]


class ForgotMutable(DrawLogic):
    """Keeps a list slot that ``_mutable`` leaves out."""

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        st = super().new_state(players, options, cards, seed, emit)
        new = _LogState.__new__(_LogState)
        for name in ("players", "options", "zones", "to_act", "is_over", "result", "seed", "draws"):
            setattr(new, name, getattr(st, name))
        for name in DrawState.__slots__:
            setattr(new, name, getattr(st, name))
        new.chance = st.chance
        new.log = []
        return new

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        if isinstance(state, _LogState):
            state.log.append(str(action))


class WritingLegal(DrawLogic):
    """Notes something in the state while listing legal actions."""

    def legal_actions(self, state: DrawState, seat: int) -> tuple[DrawAction, ...]:
        state.past.append(seat)  # a "memo" in the state: a read that writes
        return super().legal_actions(state, seat)


GAMES = {
    "broken-forgot-mutable": ForgotMutable,
    "broken-writing-legal": WritingLegal,
}


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    for name, logic in GAMES.items():
        cardcore.register("cardcore.games", name, _plugin(name, logic))
    yield
    for name in GAMES:
        cardcore.unregister("cardcore.games", name)


def test_kit_clone_names_the_slot_missing_from_mutable() -> None:
    report = testing.check_clone("broken-forgot-mutable", players=2, games=2, seed=1, strict=False)
    assert not report.ok
    failure = next(f for f in report.failures if "changed its original" in f)
    assert "in slot(s) 'log'" in failure, failure
    assert "the clone shares 'log' with its original" in failure and "_mutable" in failure


def test_kit_reports_a_legal_actions_that_changes_the_state_first() -> None:
    report = testing.check_views("broken-writing-legal", players=2, games=2, seed=1, strict=False)
    assert not report.ok
    first = report.failures[0]
    assert first.startswith("legal_actions(0) changed the state at version"), report.failures
    assert "slot(s) 'past'" in first
    assert not any("depends on cards hidden" in f for f in report.failures), report.failures


def test_kit_reads_check_passes_a_sound_game() -> None:
    assert testing.check_views("drawgame", players=2, games=1, seed=1).ok


@pytest.mark.parametrize(
    ("low", "high", "seats"),
    [
        (2, 2, [2]),
        (2, 3, [2, 3]),
        (2, 4, [2, 4]),
        (2, 5, [2, 4, 5]),
        (3, 64, [3, 5, 8]),
        (9, 12, [9]),
    ],
)
def test_kit_configurations_include_the_most_seats(low: int, high: int, seats: list[int]) -> None:
    module = types.ModuleType("tests.conformance.seats_game")
    info = GameInfo(
        name="broken-seats",
        summary="seat counts",
        min_players=low,
        max_players=high,
        options=drawgame.GAME.options,
        fields=drawgame.GAME.fields,
    )

    class AnySeats(DrawLogic):
        def validate(self, players: int, options: Mapping[str, Any]) -> None:
            pass

    @hookimpl
    def create_logic(ruleset: Ruleset) -> DrawLogic:
        return AnySeats(ruleset)

    vars(module).update(GAME=info, create_logic=create_logic)
    cardcore.register("cardcore.games", "broken-seats", module)
    try:
        configs = list(testing.configurations("broken-seats", rules=()))
    finally:
        cardcore.unregister("cardcore.games", "broken-seats")
    assert [c.players for c in configs if not c.options and not c.without] == seats


def test_kit_configurations_fall_back_to_the_most_seats_accepted() -> None:
    """Tonk seats 2-4 but its default options accept 3 at most: 2 and 3, as before only 2."""
    configs = list(testing.configurations("tonk", rules=()))
    assert [c.players for c in configs if not c.options and not c.without] == [2, 3]
