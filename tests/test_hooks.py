"""One test per core hook (``test_hook_<name>``), through the test game ``drawgame``.

The house rules come from ``tests/plugins/drawgame_rules.py`` and from the
plugin modules the documentation shows (``docs/snippets/*.py``), so every hook
example in the docs is run here.
"""

from __future__ import annotations

import importlib.util
import logging
import types
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardcore
from cardcore import (
    JOKER,
    Card,
    GameInfo,
    GameState,
    IllegalActionError,
    PluginError,
    RandomAgent,
    RuleInfo,
    hookimpl,
)
from cardcore import hookspecs as core_hookspecs
from tests.plugins import drawgame, drawgame_rules

SNIPPETS = Path(__file__).resolve().parent.parent / "docs" / "snippets"


_REGISTERED: list[str] = []


def _snippet(name: str) -> types.ModuleType:
    """Import ``docs/snippets/<name>.py`` and register it as a house rule (until the test ends)."""
    spec = importlib.util.spec_from_file_location(
        f"cardcore_docs_snippet_{name}", SNIPPETS / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cardcore.register("cardcore.rules", module.RULE.name, module)
    _REGISTERED.append(module.RULE.name)
    return module


@pytest.fixture(autouse=True)
def _plugins() -> Iterator[None]:
    cardcore.register("cardcore.games", "drawgame", drawgame)
    for module in (drawgame_rules.kings_free, drawgame_rules.no_hearts, drawgame_rules.penalty):
        cardcore.register("cardcore.rules", module.RULE.name, module)
    yield
    while _REGISTERED:
        cardcore.unregister("cardcore.rules", _REGISTERED.pop())


def _play(game: cardcore.Game, seed: int) -> cardcore.Result:
    agents = [RandomAgent(seed + seat) for seat in range(len(game.players))]
    return cardcore.play(game, agents)


def _hand_points(game: cardcore.Game, seat: int, points: dict[str, int]) -> int:
    zones = game.state.zones
    return sum(
        points.get(c.label, min(int(c.rank), 10)) for c in zones.cards[zones.id(f"hand.{seat}")]
    )


def test_every_core_hook_has_a_test_here() -> None:
    names = {n for n in core_hookspecs.__all__ if n != "hookspec"}
    tested = {n.removeprefix("test_hook_") for n in globals() if n.startswith("test_hook_")}
    assert names <= tested, f"hooks without a test_hook_<name>: {sorted(names - tested)}"


def test_hook_create_logic() -> None:
    a = cardcore.new_game("drawgame", 2, seed=1)
    b = cardcore.new_game("drawgame", 3, seed=2)
    assert isinstance(a.logic, drawgame.DrawLogic)
    assert a.logic is b.logic  # one logic per configuration, shared by its games
    other = cardcore.new_game("drawgame", 2, rules=["drawgame.kings-free"], seed=1)
    assert other.logic is not a.logic and isinstance(other.logic, drawgame.DrawLogic)

    # a house rule's hook that raises while the logic is built is blamed on the rule
    broken = types.ModuleType("tests_points_fail")

    @cardcore.hookimpl
    def card_points(card: Card) -> int:
        raise RuntimeError("the points table is missing")

    broken.RULE = cardcore.RuleInfo("TEST-POINTS-FAIL", "drawgame.points-fail", "drawgame", "fails")  # type: ignore[attr-defined]
    broken.card_points = card_points  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "drawgame.points-fail", broken)
    _REGISTERED.append("drawgame.points-fail")
    with pytest.raises(PluginError, match=r"'drawgame\.points-fail' raised RuntimeError") as failed:
        cardcore.new_game("drawgame", 2, rules=["drawgame.points-fail"], seed=1)
    assert failed.value.plugin == "drawgame.points-fail"

    empty = types.ModuleType("docs_no_logic_game")  # a game module without create_logic
    info = GameInfo(name="nologic", summary="no create_logic", min_players=2, max_players=2)
    with pytest.raises(PluginError, match="implements no create_logic hook"):
        cardcore.Ruleset(info, empty, ())  # built directly: nothing is left in the registry


def test_hook_build_deck() -> None:
    _snippet("two_jokers")
    base = cardcore.new_game("drawgame", 2, seed=3)
    assert Counter(base.logic.deck(2, base.options)) == Counter(
        cardcore.standard_52()
    )  # core default
    game = cardcore.new_game("drawgame", 2, rules=["drawgame.two-jokers"], seed=3)
    deck = game.logic.deck(2, game.options)
    assert len(deck) == 54 and Counter(deck)[JOKER] == 2
    on_table = list(game.state.zones.all_cards())
    assert Counter(on_table) == Counter(deck)  # the jokers were dealt into the game
    _play(game, 3)
    assert Counter(game.state.zones.all_cards()) == Counter(deck)


def _points(game: cardcore.Game) -> cardcore.ScoreTable:
    assert isinstance(game.logic, drawgame.DrawLogic)
    return game.logic.points


def test_hook_card_points() -> None:
    _snippet("kings_zero")
    king = Card.parse("KH")
    assert _points(cardcore.new_game("drawgame", 2, seed=1))[king] == 10
    for rule in ("drawgame.kings-zero", "drawgame.kings-free"):
        game = cardcore.new_game("drawgame", 2, rules=[rule], deck="KH 2S KD 3S 4C 5S 9D", seed=5)
        assert _points(game)[king] == 0
        assert _points(game)[Card.parse("QS")] == 10  # other cards left to the game
        result = _play(game, 5)
        expected = tuple(float(_hand_points(game, s, {"K": 0})) for s in range(2))
        assert result.scores == expected


def test_hook_forbid_action() -> None:
    _snippet("no_hearts")
    deck = "2H 3S 4H 5S 6C 7S 8D 9H"  # seat 0: 2H 4H 6C, seat 1: 3S 5S 7S; discard 8D; stock top 9H
    free = cardcore.new_game("drawgame", 2, deck=deck)
    free.act(0, "draw")
    assert [str(a) for a in free.legal_actions(0)] == [
        "discard 2H",
        "discard 4H",
        "discard 6C",
        "discard 9H",
    ]
    for rule, rule_id in (
        ("drawgame.hearts-stay", "DOCS-VAR-2"),
        ("drawgame.no-hearts", "DRAW-VAR-2"),
    ):
        game = cardcore.new_game("drawgame", 2, rules=[rule], deck=deck)
        game.act(0, "draw")
        assert [str(a) for a in game.legal_actions(0)] == ["discard 6C"]
        version = game.version
        with pytest.raises(
            IllegalActionError, match=rf"hearts may not be discarded: '2H' \({rule_id}\)"
        ) as info:
            game.act(0, "discard 2H")
        assert info.value.rule_id == rule_id
        assert game.version == version  # the rejected action changed nothing
        game.act(0, "discard 6C")


def _first_seed_with_high_score(limit: int) -> int:
    for seed in range(60):
        result = _play(cardcore.new_game("drawgame", 2, seed=seed), seed)
        if max(result.scores) > limit:
            return seed
    pytest.fail(f"no seed below 60 gives a score above {limit}")


def test_hook_score_round() -> None:
    _snippet("cap_twenty")
    seed = _first_seed_with_high_score(20)
    base = _play(cardcore.new_game("drawgame", 2, seed=seed), seed)
    capped = _play(cardcore.new_game("drawgame", 2, rules=["drawgame.cap-20"], seed=seed), seed)
    assert capped.scores == tuple(min(s, 20.0) for s in base.scores)
    assert capped.scores != base.scores
    penalty = _play(cardcore.new_game("drawgame", 2, rules=["drawgame.penalty"], seed=seed), seed)
    assert penalty.scores == (base.scores[0] + 100, *base.scores[1:])
    # no rule: the configuration resolves no chain, and the game's own scores stand
    game = cardcore.new_game("drawgame", 2, seed=seed)
    assert game.ruleset.score_round is None
    assert game.logic.score_round(game.state, [7, 9]) == (7, 9)
    # a rule takes part: a wrapper receives the game's scores (the core answers last)
    capped = cardcore.new_game("drawgame", 2, rules=["drawgame.cap-20"], seed=seed)
    assert capped.logic.score_round(capped.state, [7, 29]) == (7, 20)


def test_hook_on_event(caplog: pytest.LogCaptureFixture) -> None:
    _snippet("event_log")
    game = cardcore.new_game("drawgame", 2, rules=["drawgame.event-log"], seed=4)
    assert game.events.active  # an observer counts as a listener: the game builds events
    with caplog.at_level(logging.INFO, logger="cardcore.example.events"):
        _play(game, 4)
    logged = [r.getMessage() for r in caplog.records if r.name == "cardcore.example.events"]
    assert sum("'event': 'action-applied'" in m for m in logged) == game.version
    assert "'event': 'game-ended'" in logged[-1]
    stock_draws = [m for m in logged if "'event': 'card-drawn'" in m and "'source': 'stock'" in m]
    assert stock_draws and all(
        "'card': None" not in m for m in stock_draws
    )  # observers see full events
    quiet = cardcore.new_game("drawgame", 2, seed=4)
    assert not quiet.events.active  # no observer, no subscriber: no events are built


def _known(game: cardcore.Game, seat: int) -> list[tuple[int, int, Card]]:
    zones = game.state.zones
    return [
        (z, i, card)
        for z, pile in enumerate(zones.cards)
        for i, card in enumerate(pile)
        if zones.knows(z, i, seat)
    ]


def test_hook_determinize() -> None:
    game = cardcore.new_game("drawgame", 3, seed=6)
    game.act(0, "draw")
    changed = False
    for seed in range(5):
        twin = game.determinize(0, seed)
        assert _known(twin, 0) == _known(game, 0)  # the core's default keeps what seat 0 knows
        assert sorted(map(str, twin.state.zones.all_cards())) == sorted(
            map(str, game.state.zones.all_cards())
        )
        changed |= twin.state.zones.cards != game.state.zones.cards
    assert changed  # ... and re-deals the rest

    keep = types.ModuleType("docs_keep_hidden")
    rule = RuleInfo("DOCS-VAR-9", "drawgame.keep-hidden", "drawgame", "determinize changes nothing")
    keep.RULE = rule  # type: ignore[attr-defined]

    @hookimpl
    def determinize(state: GameState, seat: int, rng: object) -> bool:
        return True  # answered: the core's default (trylast) is not called

    keep.determinize = determinize  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "drawgame.keep-hidden", keep)
    _REGISTERED.append("drawgame.keep-hidden")
    game = cardcore.new_game("drawgame", 3, rules=["drawgame.keep-hidden"], seed=6)
    game.act(0, "draw")
    assert all(
        game.determinize(0, seed).state.zones.cards == game.state.zones.cards for seed in range(5)
    )
