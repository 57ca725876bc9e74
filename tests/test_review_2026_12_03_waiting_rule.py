"""Review of commit 3717665: ``GameLogic.waiting_rule`` and Spit's use of it.

The core asks ``waiting_rule`` (``cardcore._driver.reject`` via ``_ask``) for an action of a
seat not in ``to_act``; Spit names SPIT-SETUP-6, the claim rule or SPIT-MOVE-1. The same
commit made ``_ask`` check ``rule_for`` answers as exact tuple or list pairs.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any, ClassVar, NamedTuple

import pytest

import cardcore
from cardcore import GameInfo, IllegalActionError, StaleActionError, hookimpl
from cardcore_spit.actions import Claim, Play
from tests.games.spit.test_examined_2026_12_02 import spit, spit_position
from tests.plugins import drawgame
from tests.session.kit import table

# -- helpers ---------------------------------------------------------------------------------


class Why(NamedTuple):
    """A typed ``(rule_id, reason)`` answer: a ``tuple[str, str]`` for type checkers."""

    rule_id: str
    reason: str


class NamedDraw(drawgame.DrawLogic):
    """The test draw game, answering its hooks with a NamedTuple (a tuple subclass)."""

    hooks: ClassVar[dict[str, bool]] = {"rule_for": False, "waiting_rule": False}

    def rule_for(self, state: Any, action: Any) -> Any:
        if type(self).hooks["rule_for"]:
            return Why("DRAW-NT-1", "a named pair from rule_for")
        return super().rule_for(state, action)

    def waiting_rule(self, state: Any, action: Any) -> Any:
        if type(self).hooks["waiting_rule"]:
            return Why("DRAW-NT-2", "a named pair from waiting_rule")
        return None


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
def named_draw() -> Iterator[None]:
    cardcore.register("cardcore.games", "named-draw", _module("named-draw", NamedDraw))
    yield
    NamedDraw.hooks = {"rule_for": False, "waiting_rule": False}
    cardcore.unregister("cardcore.games", "named-draw")


def _snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    return game.version, game.view(None), game.view(0), game.view(1), game.to_act


# seat 0 empties its layout with "play 1 L" (5H on 4D); seat 1 keeps cards
CHOOSER = {
    "layout.0.1": "5H!",
    "layout.1.1": "3S!",
    "layout.1.2": "8S!",
    "spit.0": "8C 10D",
    "spit.1": "2C 8D",
    "pile.L": "4D!",
    "pile.R": "7S!",
}

# seat 0's one move is 5H on 4D; seat 1's "play 1 L" (3S on 4D) takes it away
WAITS = {
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


def _chooser_claim() -> cardcore.Game:
    game = spit(spit_position(CHOOSER, "pile.R"), rules=("spit.chooser",))
    game.act(0, "play 1 L")
    assert game.to_act == (0,)
    return game


# -- rule_for / waiting_rule answers: a typed pair ------------------------------------------


def test_rule_for_answering_a_named_tuple_pair_still_refuses_by_its_rule(
    named_draw: None,
) -> None:
    NamedDraw.hooks["rule_for"] = True
    game = cardcore.new_game("named-draw", 2, seed=4)
    (mover,) = game.to_act
    card = str(game._state.zones.cards[drawgame.HAND + mover][0])
    with pytest.raises(IllegalActionError) as err:
        game.act(mover, f"discard {card}")  # it must draw first: rule_for is asked
    assert err.value.rule_id == "DRAW-NT-1"


def test_waiting_rule_answering_a_named_tuple_pair_is_cited(named_draw: None) -> None:
    NamedDraw.hooks["waiting_rule"] = True
    game = cardcore.new_game("named-draw", 2, seed=4)
    (mover,) = game.to_act
    text = str(game.legal_actions(mover)[0])
    with pytest.raises(IllegalActionError) as err:
        game.act(1 - mover, text)
    assert err.value.rule_id == "DRAW-NT-2"


# -- Spit: the reasons given ------------------------------------------------------------------


def test_spit_end_1_a_play_after_the_deal_ended_is_refused_as_such_for_either_seat() -> None:
    game = _chooser_claim()
    with pytest.raises(IllegalActionError) as mine:
        game.act(0, "play 1 R")
    assert mine.value.rule_id == "SPIT-END-1"
    with pytest.raises(IllegalActionError) as theirs:
        game.act(1, "play 1 L")  # the opponent's own play: it did not try to choose
    assert theirs.value.rule_id == mine.value.rule_id
    assert "choose" not in str(theirs.value)


def test_spit_end_3_the_opponent_s_choice_cites_the_claim_rule_and_changes_nothing() -> None:
    game = _chooser_claim()
    before = _snapshot(game)
    for attempt in (lambda: game.act(1, "choose L"), lambda: game.apply(Claim(1, 1, "choose"))):
        with pytest.raises(IllegalActionError) as err:
            attempt()
        assert err.value.rule_id == "SPIT-END-3"
        assert "only seat 0" in str(err.value)
    # hand-built malformed claims and plays of the waiting seat stay CORE-ACTION-1
    for odd in (Claim(1, 5, "choose"), Play(1, -1, 0), Play(1, True, 0), Play(1, 0.0, 0)):
        with pytest.raises(IllegalActionError) as err:
            game.apply(odd)
        assert err.value.rule_id == "CORE-ACTION-1", odd
    with pytest.raises(IllegalActionError):  # another game's action of the waiting seat
        game.apply(drawgame.Draw(1))
    assert _snapshot(game) == before
    game.act(0, "choose R")  # the emptier still chooses
    assert game.version == before[0] + 1


def test_spit_rt_1_stale_comes_before_the_waiting_rule_in_real_time() -> None:
    game = spit(spit_position(WAITS, "pile.R"))
    start = game.version  # seat 0 may play 5H on 4D here
    game.act(1, "play 1 L")  # 3S on 4D: seat 0 has no move left
    game.act(0, "spit")
    assert game.to_act == (1,)
    before = _snapshot(game)
    with pytest.raises(StaleActionError) as err:
        game.act(0, "play 1 L", seen=start)  # legal when seen: overtaken, not waiting
    assert err.value.rule_id == "CORE-RT-1"
    with pytest.raises(IllegalActionError) as err2:
        game.act(0, "play 1 L", seen=game.version)
    assert not isinstance(err2.value, StaleActionError)
    assert err2.value.rule_id == "SPIT-MOVE-1"
    assert _snapshot(game) == before


def test_session_shows_the_waiting_rule_to_the_ready_seat() -> None:
    t = table("spit")
    assert not t.errors(t.act("a", "ready", 0.2))
    replies = t.act("a", "ready", 0.2)
    assert t.errors(replies) == ["illegal"]
    assert replies[0]["rule"] == "SPIT-SETUP-6"
    assert "ready and waits" in replies[0]["message"]


def test_third_party_game_without_waiting_rule_still_cites_core_turn_1() -> None:
    game = cardcore.new_game("drawgame", 2, seed=4)
    (mover,) = game.to_act
    text = str(game.legal_actions(mover)[0])
    with pytest.raises(IllegalActionError) as err:
        game.act(1 - mover, text)
    assert err.value.rule_id == "CORE-TURN-1"
    assert "turn" in str(err.value)


# -- a game whose parse_action reads only its legal text (no action_types) -------------------


class StrictDraw(drawgame.DrawLogic):
    """The draw game with the default parse_action (legal text only), as a game without
    ``action_types`` has, and a waiting_rule with a bug of its own."""

    action_types = ()

    def legal_actions(self, state: Any, seat: int) -> Any:
        if seat not in state.to_act:  # the core asks only for a seat to act
            return ()
        return super().legal_actions(state, seat)

    def waiting_rule(self, state: Any, action: Any) -> Any:
        raise RuntimeError("a bug in waiting_rule")


@pytest.fixture
def strict_draw() -> Iterator[None]:
    cardcore.register("cardcore.games", "strict-draw", _module("strict-draw", StrictDraw))
    yield
    cardcore.unregister("cardcore.games", "strict-draw")


def test_a_waiting_rule_that_raises_is_named_even_when_only_legal_text_parses(
    strict_draw: None,
) -> None:
    game = cardcore.new_game("strict-draw", 2, seed=4)
    (mover,) = game.to_act
    before = _snapshot(game)
    with pytest.raises(cardcore.PluginError, match="waiting_rule"):
        game.apply(drawgame.Draw(1 - mover))  # a well-formed draw of the seat that waits
    assert _snapshot(game) == before


# -- docs --------------------------------------------------------------------------------------


def test_plugin_guide_warns_that_waiting_rule_reasons_reach_the_refused_seat_as_written() -> None:
    from pathlib import Path

    text = (Path(__file__).parent.parent / "docs" / "plugin-guide" / "game.rst").read_text()
    start = text.index("Hiding cards is shared.")
    paragraph = text[start : text.index("\n\n", start)]
    assert "waiting_rule" in paragraph
