"""CORE-TURN-1 and ``GameLogic.waiting_rule``: a seat not to act is refused by the game's
own rule when the game names one (a Spit seat that is ready and waits), else by the core.

Before, every such refusal cited CORE-TURN-1, so Spit's own reasons (SPIT-SETUP-6 for a
ready seat, SPIT-END-3 for the opponent of the player who chooses) were never given.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from tests.games.spit.test_examined_2026_12_02 import spit, spit_position
from tests.plugins import drawgame

import cardcore
from cardcore import GameInfo, IllegalActionError, PluginError, hookimpl


class WaitingDraw(drawgame.DrawLogic):
    answer: ClassVar[Any] = ("DRAW-WAIT-1", "seat waits for the dealer")
    asked: ClassVar[list[tuple[int, str]]] = []

    def waiting_rule(self, state: Any, action: Any) -> Any:
        type(self).asked.append((action.seat, str(action)))
        answer = type(self).answer
        if isinstance(answer, BaseException):
            raise answer
        return answer


def _module(name: str, logic: type) -> types.ModuleType:
    mod = types.ModuleType(f"{name}_game")
    g = drawgame.GAME
    mod.GAME = GameInfo(  # type: ignore[attr-defined]
        name, g.summary, g.min_players, g.max_players, options=g.options, fields=g.fields
    )

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return logic(ruleset)

    mod.create_logic = create_logic  # type: ignore[attr-defined]
    return mod


@pytest.fixture
def waiting() -> Iterator[None]:
    cardcore.register("cardcore.games", "waiting-draw", _module("waiting-draw", WaitingDraw))
    WaitingDraw.asked = []
    yield
    WaitingDraw.answer = ("DRAW-WAIT-1", "seat waits for the dealer")
    cardcore.unregister("cardcore.games", "waiting-draw")


def _out_of_turn(game: cardcore.Game) -> tuple[int, str]:
    (seat,) = game.to_act
    other = 1 - seat
    return other, str(game.legal_actions(seat)[0])


def _a_card(game: cardcore.Game, seat: int) -> str:
    return str(game._state.zones.cards[drawgame.HAND + seat][0])


def _snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    return game.version, game.view(None), game.view(0), game.view(1), game.to_act


def test_core_turn_1_without_waiting_rule_the_core_refuses() -> None:
    game = cardcore.new_game("drawgame", 2, seed=4)
    seat, text = _out_of_turn(game)
    with pytest.raises(IllegalActionError, match=r"not seat \d's turn") as err:
        game.act(seat, text)
    assert err.value.rule_id == "CORE-TURN-1"


def test_core_turn_1_a_game_names_why_a_seat_waits(waiting: None) -> None:
    game = cardcore.new_game("waiting-draw", 2, seed=4)
    seat, text = _out_of_turn(game)
    before = _snapshot(game)
    with pytest.raises(IllegalActionError) as err:
        game.act(seat, text)
    assert err.value.rule_id == "DRAW-WAIT-1"
    assert str(err.value) == "seat waits for the dealer (DRAW-WAIT-1)"
    assert WaitingDraw.asked == [(seat, text)]
    assert _snapshot(game) == before
    # the seat to act is never asked: its illegal action is the game's rule_for's
    (mover,) = game.to_act
    with pytest.raises(IllegalActionError) as err:
        game.act(mover, f"discard {_a_card(game, mover)}")  # it must draw first
    assert err.value.rule_id == "DRAW-1"
    assert WaitingDraw.asked == [(seat, text)]


def test_core_turn_1_a_waiting_rule_answering_none_leaves_the_core_s_refusal(waiting: None) -> None:
    WaitingDraw.answer = None
    game = cardcore.new_game("waiting-draw", 2, seed=4)
    seat, text = _out_of_turn(game)
    with pytest.raises(IllegalActionError) as err:
        game.act(seat, text)
    assert err.value.rule_id == "CORE-TURN-1"
    assert WaitingDraw.asked == [(seat, text)]


@pytest.mark.parametrize(
    "answer", [("", "why"), ("X-1",), ("X-1", 3), "X-1 why", 42, ("X-1", "why", "more")]
)
def test_core_turn_1_a_waiting_rule_answering_nonsense_is_the_game_s_fault(
    waiting: None, answer: Any
) -> None:
    WaitingDraw.answer = answer
    game = cardcore.new_game("waiting-draw", 2, seed=4)
    seat, text = _out_of_turn(game)
    before = _snapshot(game)
    with pytest.raises(PluginError, match="waiting_rule") as err:
        game.act(seat, text)
    assert err.value.plugin == "waiting-draw"
    assert "(rule ID, reason)" in str(err.value)
    assert _snapshot(game) == before


def test_core_turn_1_a_waiting_rule_that_raises_is_named_and_changes_nothing(
    waiting: None,
) -> None:
    WaitingDraw.answer = RuntimeError("no reason today")
    game = cardcore.new_game("waiting-draw", 2, seed=4)
    seat, text = _out_of_turn(game)
    before = _snapshot(game)
    with pytest.raises(PluginError, match=r"waiting_rule.*no reason today"):
        game.act(seat, text)
    assert _snapshot(game) == before
    game.apply(game.legal_actions(game.to_act[0])[0])  # the game goes on
    assert game.version == before[0] + 1


SPIT_WAITS = {
    "layout.0.1": "5H!",
    "layout.0.2": "JH!",
    "layout.0.3": "9D!",
    "layout.0.4": "QH!",
    "layout.0.5": "KH!",
    "layout.1.1": "3S!",
    "layout.1.2": "8S!",
    "spit.0": "8C 10D",
    "spit.1": "2C 8D",
    "pile.L": "4D!",
    "pile.R": "7S!",
}


def test_spit_move_1_a_seat_that_asked_for_a_spit_and_waits_is_told_so() -> None:
    game = spit(spit_position(SPIT_WAITS, "pile.R"))
    game.act(1, "play 1 L")  # 3S on 4D: seat 0 has no move left
    game.act(0, "spit")
    assert game.to_act == (1,)
    before = _snapshot(game)
    with pytest.raises(IllegalActionError) as err:
        game.act(0, "play 1 L")
    assert err.value.rule_id == "SPIT-MOVE-1"
    assert "asked for a spit" in str(err.value)
    assert _snapshot(game) == before


def test_spit_setup_6_a_ready_seat_waits_by_the_setup_rule() -> None:
    for seed in range(40):  # a deal where the first seat has setup moves besides "ready"
        game = cardcore.new_game("spit", 2, seed=seed)
        moves = [str(a) for a in game.legal_actions(0) if str(a) != "ready"]
        if moves:
            break
    game.act(0, "ready")
    assert game.to_act == (1,)
    before = _snapshot(game)
    for text in ("ready", moves[0], "play 1 L"):
        with pytest.raises(IllegalActionError) as err:
            game.act(0, text)
        assert err.value.rule_id == "SPIT-SETUP-6", text
        assert "is ready and waits" in str(err.value)
    assert _snapshot(game) == before
