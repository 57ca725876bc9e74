"""Common plugin-author mistakes: the kit reports each in plain words, never crashes on it.

Each game here is the test draw game with one mistake a plugin author makes
from the docs: legal actions as text or ``None``, ``to_act`` left empty or set
to an int, ``create_logic`` answering something else, a required method left
out, actions that share one notation. :func:`check_game` must name the mistake
(what the plugin did, which method, what it must do), with ``strict=True`` as an
:class:`AssertionError` and with ``strict=False`` in the report, and skip the
checks that need a playable game, saying why.
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import Action, Card, Emit, GameInfo, GameLogic, Ruleset, hookimpl
from cardcore.plugins import unregister
from cardcore.testing import ALL_CHECKS, Report, check_game, check_notation, check_positions
from tests.conformance.broken import _plugin
from tests.plugins import drawgame
from tests.plugins.drawgame import STOCK, DrawAction, DrawLogic, DrawState


def _late(state: DrawState) -> bool:
    """Whether the game is well under way (the mistake shows only then)."""
    return len(state.zones.cards[STOCK]) < 15


class LegalText(DrawLogic):
    """Answers the notation of its legal actions instead of the actions."""

    def legal_actions(self, state: DrawState, seat: int) -> tuple[Any, ...]:
        return tuple(str(a) for a in super().legal_actions(state, seat))


class LegalNone(DrawLogic):
    """Answers ``None`` for the legal actions."""

    def legal_actions(self, state: DrawState, seat: int) -> Any:
        return None


class LateLegalNone(DrawLogic):
    """Answers ``None`` once the stock runs low (long after the kit's first walk)."""

    def legal_actions(self, state: DrawState, seat: int) -> Any:
        return None if _late(state) else super().legal_actions(state, seat)


class NoTurn(DrawLogic):
    """Forgets to name the next seat: ``to_act`` is empty while the game goes on."""

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        if not state.is_over:
            state.to_act = ()


class LateNoTurn(DrawLogic):
    """Forgets the next seat once the stock runs low."""

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        if not state.is_over and _late(state):
            state.to_act = ()


class NoTurnAtDeal(DrawLogic):
    """Deals without naming the first seat."""

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        state = super().new_state(players, options, cards, seed, emit)
        state.to_act = ()
        return state


class IntTurn(DrawLogic):
    """Sets ``to_act`` to a seat number instead of a tuple of seats."""

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        if not state.is_over:
            state.to_act = state.to_act[0]  # type: ignore[assignment]


class NoBound(DrawLogic):
    """Leaves out the required ``action_bound``."""

    action_bound = GameLogic.action_bound  # type: ignore[assignment]


class NoTable(DrawLogic):
    """Leaves out the required ``table``."""

    table = GameLogic.table  # type: ignore[assignment]


@frozen
class Throw(Action):
    """A discard with a card field and no ``notation()``: every one reads ``"discard"``."""

    card: Card
    verb: ClassVar[str] = "discard"


class SharedText(DrawLogic):
    """Offers discards whose notation leaves out the card."""

    action_types = (drawgame.Draw, drawgame.Take, Throw)

    def legal_actions(self, state: DrawState, seat: int) -> tuple[Any, ...]:
        return tuple(
            Throw(a.seat, a.card) if isinstance(a, drawgame.Discard) else a
            for a in super().legal_actions(state, seat)
        )

    def apply(self, state: DrawState, action: Any, emit: Emit | None) -> None:
        if isinstance(action, Throw):
            action = drawgame.Discard(action.seat, action.card)
        super().apply(state, action, emit)


class MisreadText(DrawLogic):
    """Reads every text as the first legal action."""

    def parse_action(self, state: DrawState, seat: int, text: str) -> DrawAction:
        return self.legal_actions(state, seat)[0]


class UnreadText(DrawLogic):
    """Reads no discard back: its parser knows only ``draw`` and ``take``."""

    action_types = (drawgame.Draw, drawgame.Take)

    def parse_action(self, state: DrawState, seat: int, text: str) -> DrawAction:
        if text.startswith("discard"):
            raise self.parse_error(text, "'draw' or 'take'")
        return super().parse_action(state, seat, text)


def _not_a_logic() -> types.ModuleType:
    module = types.ModuleType("tests.conformance.mistake_not_a_logic")

    @hookimpl
    def create_logic(ruleset: Ruleset) -> object:
        return object()

    info = GameInfo("mistake-not-a-logic", "create_logic answers an object", 2, 4)
    vars(module).update(GAME=info, create_logic=create_logic)
    return module


GAMES: dict[str, types.ModuleType] = {
    "mistake-legal-text": _plugin("mistake-legal-text", LegalText),
    "mistake-legal-none": _plugin("mistake-legal-none", LegalNone),
    "mistake-late-legal-none": _plugin("mistake-late-legal-none", LateLegalNone),
    "mistake-no-turn": _plugin("mistake-no-turn", NoTurn),
    "mistake-late-no-turn": _plugin("mistake-late-no-turn", LateNoTurn),
    "mistake-no-turn-at-deal": _plugin("mistake-no-turn-at-deal", NoTurnAtDeal),
    "mistake-int-turn": _plugin("mistake-int-turn", IntTurn),
    "mistake-no-bound": _plugin("mistake-no-bound", NoBound),
    "mistake-no-table": _plugin("mistake-no-table", NoTable),
    "mistake-shared-text": _plugin("mistake-shared-text", SharedText),
    "mistake-misread-text": _plugin("mistake-misread-text", MisreadText),
    "mistake-unread-text": _plugin("mistake-unread-text", UnreadText),
    "mistake-not-a-logic": _not_a_logic(),
}


@pytest.fixture(autouse=True, scope="module")
def _mistaken_games() -> Iterator[None]:
    """Register the games for this module only, so other tests never list them."""
    for name, module in GAMES.items():
        cardcore.register("cardcore.games", name, module)
    yield
    for name in GAMES:
        unregister("cardcore.games", name)


UNPLAYABLE = {
    "mistake-legal-text": [
        "LegalText.legal_actions(state, 0)",
        "returned the text 'draw'",
        "must return Action objects",
    ],
    "mistake-legal-none": [
        "LegalNone.legal_actions(state, 0)",
        "returned None",
        "must return a tuple",
    ],
    "mistake-late-legal-none": [
        "LateLegalNone.legal_actions",
        "returned None",
        "must return a tuple",
    ],
    "mistake-no-turn": [
        "NoTurn.apply(",
        "left state.to_act empty while the game is not over",
        "must leave state.to_act a tuple of the seats to act next",
    ],
    "mistake-late-no-turn": ["LateNoTurn.apply(", "left state.to_act empty", "end_game"],
    "mistake-no-turn-at-deal": ["new_state", "to_act", "empty"],
    "mistake-int-turn": ["IntTurn.apply(", "set state.to_act to 0 (an int, not a tuple)"],
    "mistake-no-bound": ["NoBound does not implement the required method action_bound"],
    "mistake-no-table": ["NoTable does not implement the required method table"],
    "mistake-not-a-logic": [
        "create_logic of 'mistake-not-a-logic' returned <object object",
        "not a cardcore.GameLogic",
        "must return an instance of its GameLogic subclass",
    ],
}
"""Game -> words its failure must contain (the method, what it did, what it must do)."""


def _named(report: Report, words: list[str]) -> bool:
    return any(all(w in f for w in words) for f in report.failures)


@pytest.mark.parametrize("name", sorted(UNPLAYABLE))
def test_kit_names_a_mistake_that_makes_the_game_unplayable(name: str) -> None:
    report = check_game(name, games=2, seed=1, strict=False)  # reports, never raises
    assert not report.ok and _named(report, UNPLAYABLE[name]), report.failures
    assert report.failed <= 3  # named once, not again by every check that meets it
    assert report.skipped and set(report.skipped) | set(report.checks) == ALL_CHECKS
    assert all("plugin contract" in why for why in report.skipped.values())
    with pytest.raises(AssertionError, match=r"(?s)conformance failure.*skipped"):
        check_game(name, games=2, seed=1)


@pytest.mark.parametrize("name", sorted(UNPLAYABLE))
def test_kit_single_checks_report_the_mistake_too(name: str) -> None:
    report = check_positions(name, games=1, strict=False)
    assert _named(report, UNPLAYABLE[name]), report.failures


def test_kit_names_actions_that_share_a_notation() -> None:
    report = check_game("mistake-shared-text", games=2, seed=1, strict=False)
    shared = [f for f in report.failures if "share the notation 'discard'" in f]
    assert len(shared) == 1 and report.failed == 1, report.failures
    assert "Throw(seat=" in shared[0] and "give Throw a notation()" in shared[0]
    assert "record" in report.skipped["persistence"] and "record" in report.skipped["scores"]
    assert report.games == 2  # the other checks still ran


def test_kit_names_notations_that_read_back_as_another_action() -> None:
    report = check_notation("mistake-misread-text", games=1, seed=1, strict=False)
    assert any("reads back through MisreadText.parse_action as" in f for f in report.failures)
    report = check_notation("mistake-unread-text", games=1, seed=1, strict=False)
    assert any(
        "is refused by UnreadText.parse_action with NotationError" in f for f in report.failures
    ), report.failures


def test_kit_reads_back_every_notation_of_a_sound_game() -> None:
    report = check_notation("drawgame", games=1, seed=2)
    assert report.ok and report.notations > 0 and report.checks == ("notation",)
    assert report.skipped == {}


def test_kit_reports_positions_skipped_for_a_game_without_a_notation() -> None:
    report = check_game("racegame", options={"rounds": 1}, games=1, seed=1)
    assert report.ok and report.positions == 0
    assert "positions" not in report.checks
    assert "no position notation" in report.skipped["positions"]
    assert "(skipped 'positions': RaceLogic has no position notation" in report.summary()
    assert "positions" not in check_game("drawgame", games=1, seed=1).skipped


def test_report_skip_and_merge_keep_the_reasons() -> None:
    a = Report("x", checks=("bound", "positions"))
    a.skip("positions", "no notation")
    b = Report("x", checks=("scores",))
    b.skip("scores", "never scored")
    a.merge(b)
    assert a.checks == ("bound",)
    assert a.skipped == {"positions": "no notation", "scores": "never scored"}
    assert a.ok


def test_a_report_keeps_each_kind_of_failure_once_and_counts_them_all() -> None:
    from cardcore.testing import Report

    report = Report("x", 2, (), {})
    for seat in range(2):
        for version in (3, 17):
            report.fail(f"table field 'suit' in the view of seat {seat} at version {version} is None")
    report.fail("another fault")
    assert report.failed == 5
    assert report.failures == [
        "table field 'suit' in the view of seat 0 at version 3 is None",
        "another fault",
    ]
    merged = Report("x", 2, (), {}).merge(report).merge(report)
    assert merged.failed == 10 and len(merged.failures) == 2
