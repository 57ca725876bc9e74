"""Mutation-testing audit of the core's safety code (2026-12-14).

About 50 small mutants of ``_bound.py``, ``_driver.py``, ``_bus.py``, ``records.py``,
``session/`` (``_flow.py``, ``session.py``, ``clocks.py``), ``zones.py`` and ``deck.py`` were
run one at a time in a scratch copy against ``tests/core``, ``tests/hardening``,
``tests/session`` and the review files about each module. Each test below kills a mutant
that suite let survive; its docstring names the mutant (file, function, change). The
``xfail(strict=True)`` test records a bug in the core the pass turned up. Only the public
API is used (``cardcore.new_game``, ``Game``, ``cardcore.replay``/``load``, ``Zones``,
``Chance``), with the test games ``drawgame`` and ``racegame`` of ``tests/plugins``.
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import cardcore
from cardcore import (
    STALE_WINDOW,
    CorruptStateError,
    Event,
    GameInfo,
    IllegalActionError,
    PluginError,
    SeatError,
    hookimpl,
)
from tests.plugins import drawgame

# --------------------------------------------------------------------------- helpers


def _module(name: str, logic: type) -> types.ModuleType:
    """A game plugin module: ``drawgame`` under *name* with the logic *logic*."""
    mod = types.ModuleType(f"{name}_game")
    g = drawgame.GAME
    mod.GAME = GameInfo(  # type: ignore[attr-defined]
        name, g.summary, g.min_players, g.max_players, options=g.options, fields=g.fields
    )

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return logic(ruleset)

    mod.create_logic = create_logic  # type: ignore[attr-defined]
    mod.card_points = drawgame.card_points  # type: ignore[attr-defined]
    return mod


SHORT = 6


class ShortDraw(drawgame.DrawLogic):
    """The draw game with an action bound of 6."""

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return SHORT


class BadResultAtBound(ShortDraw):
    """At its bound, its ``scores`` changes the state and answers a result of 1 seat."""

    def scores(self, state: Any) -> tuple[int, ...]:
        state.totals = [999] * state.players
        return (1,)


class FailingTable(drawgame.DrawLogic):
    """The draw game whose view (``table``) raises while ``fail`` is set."""

    fail = False

    def table(self, state: Any, seat: int | None) -> dict[str, Any]:
        if type(self).fail:
            raise RuntimeError("table broke")
        return super().table(state, seat)


@pytest.fixture
def games() -> Iterator[None]:
    made = [
        ("audit-short", ShortDraw),
        ("audit-bad-result", BadResultAtBound),
        ("audit-failing-table", FailingTable),
    ]
    for name, logic in made:
        cardcore.register("cardcore.games", name, _module(name, logic))
    yield
    FailingTable.fail = False
    for name, _ in made:
        cardcore.unregister("cardcore.games", name)


def _take_turns(game: cardcore.Game, until: int) -> None:
    """Play the draw game by taking the discard and discarding: it never ends by its rules."""
    while game.version < until and not game.is_over:
        game.apply(game.legal_actions(game.to_act[0])[-1])


def _finished() -> cardcore.Game:
    """A draw game played to its end by its rules (always draw from the stock)."""
    game = cardcore.new_game("drawgame", 2, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions(game.to_act[0])[0])
    assert game.result is not None and game.result.reason == "stock empty"
    return game


# --------------------------------------------------------------------------- _bound.py


def test_a_bad_result_at_the_bound_puts_back_what_scores_changed(games: None) -> None:
    """Kills ``_bound.py`` ``end_truncated``: ``undo(game, error)`` after a bad result at the
    bound -> ``pass`` (the state kept what the failing ``scores`` wrote)."""
    game = cardcore.new_game("audit-bad-result", 2, seed=1)
    _take_turns(game, SHORT - 1)
    with pytest.raises(PluginError, match="bad result"):
        game.apply(game.legal_actions(game.to_act[0])[-1])
    assert game.version == SHORT and not game.is_over  # the action stands, the game is open
    assert game.state.totals == [0, 0]  # scores' own write was put back


# --------------------------------------------------------------------------- _driver.py


def test_seen_one_version_before_the_window_is_refused_at_its_edge_accepted() -> None:
    """Kills ``_driver.py`` ``check_seen``: ``seen < game.version - STALE_WINDOW`` ->
    ``seen < game.version - STALE_WINDOW - 1`` (a view 65 versions old accepted)."""
    game = cardcore.new_game("drawgame", 2, seed=1)
    _take_turns(game, STALE_WINDOW + 6)
    seat = game.to_act[0]
    text = str(game.legal_actions(seat)[-1])
    now = game.version
    with pytest.raises(IllegalActionError, match="outside the window") as err:
        game.act(seat, text, seen=now - STALE_WINDOW - 1)
    assert err.value.rule_id == "CORE-RT-3" and game.version == now
    game.act(seat, text, seen=now - STALE_WINDOW)  # the oldest version inside the window
    assert game.version == now + 1


def test_a_failing_view_of_a_truncated_game_leaves_it_over(games: None) -> None:
    """Found while judging ``_driver.py`` ``rebuild_state``: ``if game._truncated and not
    state.is_over`` -> ``if False`` (survived). The main path of ``restore`` (checkpoint plus
    replay) never checks ``_truncated`` at all: after ``Game.truncate()``, a view whose
    ``table`` raises is undone by a replay that ends with the game open again, while its
    record still says ``truncated``."""
    game = cardcore.new_game("audit-failing-table", 2, seed=1)
    _take_turns(game, 5)
    game.truncate()
    assert game.is_over and game.result is not None
    FailingTable.fail = True
    with pytest.raises(PluginError, match="table broke"):
        game.view(0)
    FailingTable.fail = False
    assert game.is_over and game.state.is_over
    assert game.result is not None and game.result.reason == "truncated"
    assert all(game.legal_actions(s) == () for s in range(2))


# --------------------------------------------------------------------------- _bus.py


def test_subscribe_refuses_the_seat_one_past_the_last() -> None:
    """Kills ``_bus.py`` ``EventBus.subscribe``: ``seat >= seats`` -> ``seat > seats`` (a
    2-seat game's bus accepted ``seat=2``)."""
    game = cardcore.new_game("drawgame", 2, seed=1)
    with pytest.raises(SeatError, match="0 to 1") as err:
        game.events.subscribe(Event, lambda e: None, seat=2)
    assert err.value.rule_id == "CORE-SEAT-1"
    heard: list[Event] = []
    game.events.subscribe(Event, heard.append, seat=1)  # the last seat is fine
    _take_turns(game, 1)
    assert heard


# --------------------------------------------------------------------------- records.py


def test_a_record_three_actions_past_its_bound_is_refused_before_replay(games: None) -> None:
    """Kills ``records.py`` ``_replay``: ``len(actions) > bound + 2`` -> ``> bound + 3``
    (refused only later, as an action that cannot be replayed, not by its count)."""
    game = cardcore.new_game("audit-short", 2, seed=1)
    _take_turns(game, SHORT)
    assert game.is_over and game.result is not None and game.result.reason == "truncated"
    rec = game.record()
    assert len(rec["actions"]) == SHORT
    rec["actions"] += [list(a) for a in rec["actions"][:3]]  # bound + 3
    with pytest.raises(CorruptStateError, match="more than the game's bound 6"):
        cardcore.replay(rec)


def test_a_record_whose_result_was_edited_is_refused() -> None:
    """Kills ``records.py`` ``_replay``: the check of the record's result against the
    replayed one (``if claimed != actual and ...``) -> ``if False``."""
    rec = _finished().record()
    assert cardcore.replay(rec).result is not None  # the record as made replays
    rec["result"]["winners"] = [0]
    rec["result"]["scores"] = [14.0, 21.0]
    with pytest.raises(CorruptStateError, match="record result does not match"):
        cardcore.replay(rec)


def test_a_record_that_says_truncated_but_ends_by_the_rules_is_refused() -> None:
    """Kills ``records.py`` ``_replay``: the refusal of ``truncated: true`` for a game its
    actions end by the rules -> ``pass``."""
    rec = _finished().record()
    rec["truncated"] = True
    with pytest.raises(CorruptStateError, match="truncated, but its actions end it"):
        cardcore.replay(rec)


def test_a_save_whose_option_count_became_true_is_refused() -> None:
    """Kills ``records.py`` ``_same``: ``a is b and saved == replayed`` -> ``saved ==
    replayed`` (``true`` would stand for the count ``1``)."""
    game = cardcore.new_game("drawgame", 2, seed=1)
    _take_turns(game, 4)
    save = game.save()
    assert cardcore.load(save).version == 4
    save["config"]["options"]["rounds"] = True
    with pytest.raises(CorruptStateError, match="saved options"):
        cardcore.load(save)


def test_a_record_whose_rule_entry_carries_another_id_is_refused() -> None:
    """Kills ``records.py`` ``_check_record``: ``rule.get("id", rinfo.id) != rinfo.id`` ->
    ``if False`` (a rule entry naming one rule with another's ID replayed)."""
    game = cardcore.new_game("drawgame", 2, rules=["drawgame.kings-free"], seed=1)
    _take_turns(game, 2)
    rec = game.record()
    assert cardcore.replay(rec).rules == ("drawgame.kings-free",)
    entry = next(r for r in rec["rules"] if r["name"] == "drawgame.kings-free")
    assert entry["id"] == "DRAW-VAR-1"
    entry["id"] = "DRAW-VAR-4"
    with pytest.raises(CorruptStateError, match="carries the ID"):
        cardcore.replay(rec)


# --------------------------------------------------------------------------- zones.py

_LAYOUT = cardcore.Layout.of(
    [
        cardcore.ZoneSpec("stock"),
        cardcore.ZoneSpec("hand.0", 0, cardcore.Visibility.OWNER),
        cardcore.ZoneSpec("grid", None, cardcore.Visibility.NOBODY),
    ]
)
_STOCK, _HAND0, _GRID = range(3)


def test_a_card_dealt_to_a_hand_stays_known_to_its_owner_when_laid_face_down() -> None:
    """Kills ``zones.py`` ``Zones._entry_mask``: an ``OWNER`` pile widening the mask with
    its owner's bit (``mask | (1 << spec.owner)``) -> ``mask`` (the owner would forget a card
    of its own hand once it is laid face down elsewhere)."""
    z = cardcore.Zones(_LAYOUT)
    for text in ("2S", "3S", "4S"):
        z.put(_STOCK, cardcore.Card.parse(text))
    z.move(_STOCK, _HAND0)  # 4S: nobody had seen it in the stock
    assert z.seen[_HAND0] == [1]  # the owner's bit, and only it
    z.put(_HAND0, cardcore.Card.parse("KH"))  # put with no mask: the owner sees it all the same
    assert z.seen[_HAND0] == [1, 1]
    z.move(_HAND0, _GRID, 0)  # 4S laid face down: seat 0 knows it, seat 1 does not
    assert z.show(_GRID, 0) == ["4S"] and z.show(_GRID, 1) == [None]
    assert z.knows(_GRID, 0, 0) and not z.knows(_GRID, 0, 1)
    assert z.show(_GRID, None) == [None]


# --------------------------------------------------------------------------- deck.py


def test_randint_includes_both_ends() -> None:
    """Kills ``deck.py`` ``Chance.randint``: ``randrange(a, b + 1)`` -> ``randrange(a, b)``
    (``b`` never drawn, and ``randint(5, 5)`` an empty range)."""
    rng = cardcore.Chance(3, 1)
    assert rng.randint(5, 5) == 5
    drawn = {rng.randint(0, 1) for _ in range(64)}
    assert drawn == {0, 1}
