"""A game's or a house rule's code that answers wrongly, or fails outside ``apply``.

Each mistake becomes a :class:`~cardcore.PluginError` naming who made it, and the game
stays as it was (``save()`` before and after), never a raw exception later on.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import types
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs
import pytest

import cardcore
from cardcore import ActionApplied, Card, Event, GameInfo, PluginError, RuleInfo, Ruleset, hookimpl
from tests.conftest import register_test_plugins
from tests.plugins import drawgame
from tests.plugins.drawgame import DrawAction, DrawLogic, DrawState

register_test_plugins()

ARMED = {"on": False}


def _game_module(name: str, logic: Any) -> types.ModuleType:
    module = types.ModuleType(f"tests.hardening.faulty_game.{name}")
    info = GameInfo(
        name, "faulty test game", 2, 4, options=drawgame.GAME.options, fields=drawgame.GAME.fields
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> Any:
        return logic(ruleset) if isinstance(logic, type) else logic

    @hookimpl(trylast=True)
    def card_points(card: Card) -> int:
        return min(int(card.rank), 10)

    vars(module).update(GAME=info, create_logic=create_logic, card_points=card_points)
    return module


class EmptyTurn(DrawLogic):
    """Forgets who acts next once armed."""

    def apply(self, state: DrawState, action: DrawAction, emit: Any) -> None:
        super().apply(state, action, emit)
        if ARMED["on"]:
            state.to_act = ()


class IntTurn(DrawLogic):
    def apply(self, state: DrawState, action: DrawAction, emit: Any) -> None:
        super().apply(state, action, emit)
        if ARMED["on"]:
            state.to_act = 1  # type: ignore[assignment]


class FarTurn(DrawLogic):
    """Names a seat the game does not have once armed."""

    def apply(self, state: DrawState, action: DrawAction, emit: Any) -> None:
        super().apply(state, action, emit)
        if ARMED["on"]:
            state.to_act = (7,)


class TextLegal(DrawLogic):
    def legal_actions(self, state: DrawState, seat: int) -> Any:
        return tuple(str(a) for a in super().legal_actions(state, seat))


class NoneLegal(DrawLogic):
    def legal_actions(self, state: DrawState, seat: int) -> Any:
        return None if ARMED["on"] else super().legal_actions(state, seat)


class ListLegal(DrawLogic):
    def legal_actions(self, state: DrawState, seat: int) -> Any:
        return list(super().legal_actions(state, seat))


class NoBound(DrawLogic):
    action_bound = cardcore.GameLogic.action_bound


class OtherSeatLegal(DrawLogic):
    """Offers the actions of the seat after the one asked."""

    def legal_actions(self, state: DrawState, seat: int) -> Any:
        return tuple(
            attrs.evolve(a, seat=(seat + 1) % state.players)
            for a in super().legal_actions(state, seat)
        )


GAMES = {
    "faulty-empty-turn": EmptyTurn,
    "faulty-int-turn": IntTurn,
    "faulty-far-turn": FarTurn,
    "faulty-text-legal": TextLegal,
    "faulty-none-legal": NoneLegal,
    "faulty-list-legal": ListLegal,
    "faulty-other-seat-legal": OtherSeatLegal,
    "faulty-no-bound": NoBound,
    "faulty-not-logic": object(),
}


@hookimpl
def forbid_action(state: cardcore.GameState, action: cardcore.Action) -> None:
    """Loses a card, then fails: a veto must read only, and its failure must undo it."""
    if ARMED["on"]:
        zones = state.zones
        zones.cards[0].pop()
        zones.seen[0].pop()
        raise RuntimeError("the veto service is down")


@hookimpl(specname="forbid_action")
def _interrupted_veto(state: cardcore.GameState, action: cardcore.Action) -> None:
    """Loses a card, then is interrupted (once)."""
    if ARMED["on"]:
        ARMED["on"] = False
        state.zones.cards[0].pop()
        state.zones.seen[0].pop()
        raise KeyboardInterrupt


@hookimpl
def score_round(state: cardcore.GameState, scores: Sequence[int]) -> Any:
    return {s: 0 for s in range(len(scores))} if ARMED["on"] else None


@hookimpl(wrapper=True)
def build_deck(players: int, options: Mapping[str, Any]) -> Any:
    deck = yield
    return [*deck[:-1], "AS"] if ARMED["on"] else deck


@hookimpl(wrapper=True, specname="build_deck")
def _short_deck(players: int, options: Mapping[str, Any]) -> Any:
    deck = yield
    return deck[:10]


class _Scorer:
    """A scorer object (callable, not a function): tracked like a function."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __call__(self, keys: Any, points: Any) -> int:
        if ARMED["on"]:
            raise ConnectionError("the scoring service is down")
        result: int = self.inner(keys, points)
        return result


@hookimpl
def golf_scorer(layout: Any) -> Any:
    from cardcore_golf.grids import default_scorer

    return _Scorer(default_scorer(layout))


def _rule(name: str, game: str, **hooks: Any) -> types.ModuleType:
    module = types.ModuleType(f"tests.hardening.faulty_rule.{name}")
    vars(module).update(RULE=RuleInfo(f"TEST-{name.upper()}", name, game, "a faulty rule"), **hooks)
    return module


RULES = {
    "golf.faulty-veto": _rule("golf.faulty-veto", "golf", forbid_action=forbid_action),
    "golf.interrupted-veto": _rule(
        "golf.interrupted-veto", "golf", forbid_action=_interrupted_veto
    ),
    "drawgame.faulty-scores": _rule("drawgame.faulty-scores", "drawgame", score_round=score_round),
    "golf.faulty-deck": _rule("golf.faulty-deck", "golf", build_deck=build_deck),
    "golf.short-deck": _rule("golf.short-deck", "golf", build_deck=_short_deck),
    "golf.faulty-scorer-object": _rule(
        "golf.faulty-scorer-object", "golf", golf_scorer=golf_scorer
    ),
}


@pytest.fixture(autouse=True, scope="module")
def _registered() -> Iterator[None]:
    for name, logic in GAMES.items():
        cardcore.register("cardcore.games", name, _game_module(name, logic))
    for name, module in RULES.items():
        cardcore.register("cardcore.rules", name, module)
    try:
        yield
    finally:
        for name in GAMES:
            with contextlib.suppress(cardcore.UnknownPluginError):
                cardcore.unregister("cardcore.games", name)
        for name in RULES:
            with contextlib.suppress(cardcore.UnknownPluginError):
                cardcore.unregister("cardcore.rules", name)


@pytest.fixture(autouse=True)
def _disarmed() -> Iterator[None]:
    ARMED["on"] = False
    yield
    ARMED["on"] = False


def _dump(game: cardcore.Game) -> str:
    return json.dumps(game.save(), sort_keys=True)


def _cards(game: cardcore.Game) -> Counter[Card]:
    return Counter(c for pile in game.state.zones.cards for c in pile)


@pytest.mark.parametrize(
    ("name", "via"),  # apply: the published fast path (it checks to_act is a non-empty sequence)
    [
        ("faulty-empty-turn", "apply"),
        ("faulty-int-turn", "apply"),
        ("faulty-empty-turn", "act"),
        ("faulty-int-turn", "act"),
        ("faulty-far-turn", "act"),
    ],
)
def test_a_bad_turn_after_apply_is_a_plugin_error_and_changes_nothing(name: str, via: str) -> None:
    game = cardcore.new_game(name, 2, seed=3)
    before = _dump(game)
    action = game.legal_actions(game.to_act[0])[0]
    ARMED["on"] = True
    with pytest.raises(PluginError, match=rf"game '{name}' left a bad turn in apply: state.to_act"):
        if via == "apply":
            game.apply(action)
        else:
            game.act(action.seat, str(action))
    assert _dump(game) == before
    ARMED["on"] = False
    game.apply(action)  # the game goes on
    assert game.version == 1


@pytest.mark.parametrize(
    ("to_act", "match"),
    [
        ((), r"state\.to_act is empty"),
        (1, r"state\.to_act is 1: it must be a tuple"),
        ((7,), r"state\.to_act holds 7: not a seat from 0 to 1"),
        (("0",), r"state\.to_act holds '0'"),
    ],
)
def test_a_bad_turn_at_the_deal_is_refused_by_new_game(to_act: Any, match: str) -> None:
    class Dealt(DrawLogic):
        def new_state(self, *args: Any) -> DrawState:
            state = super().new_state(*args)
            state.to_act = to_act
            return state

    cardcore.register("cardcore.games", "faulty-dealt", _game_module("faulty-dealt", Dealt))
    try:
        with pytest.raises(PluginError, match=r"left a bad turn in new_state: " + match):
            cardcore.new_game("faulty-dealt", 2, seed=1)
    finally:
        cardcore.unregister("cardcore.games", "faulty-dealt")


def test_a_raw_error_from_a_games_option_check_is_a_plugin_error() -> None:
    """A game's ``validate`` that fails (here as golf's once did, printing an int of
    5,000 digits) must not hand the caller a raw ``ValueError``."""

    class Checks(DrawLogic):
        def validate(self, players: int, options: Mapping[str, Any]) -> None:
            str(10**5000)  # ValueError: Python will not print it

    cardcore.register("cardcore.games", "faulty-validate", _game_module("faulty-validate", Checks))
    try:
        with pytest.raises(PluginError, match=r"raised ValueError while checking the options"):
            cardcore.new_game("faulty-validate", 2, seed=1)
    finally:
        cardcore.unregister("cardcore.games", "faulty-validate")


def test_legal_actions_of_text_are_refused_when_acted_on() -> None:
    game = cardcore.new_game("faulty-text-legal", 2, seed=3)
    before = _dump(game)
    with pytest.raises(PluginError, match="not an Action"):
        game.act(game.to_act[0], "draw")
    assert _dump(game) == before


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("faulty-text-legal", "'draw', not an Action"),
        ("faulty-other-seat-legal", "an action of seat 1"),
    ],
)
def test_an_agent_passing_on_the_game_s_own_bad_legal_action_blames_the_game(
    name: str, what: str
) -> None:
    """The agent only passed on what the game offered: the game is named, not the agent."""
    game = cardcore.new_game(name, 2, seed=3)
    before = _dump(game)
    expected = rf"game '{name}' answered legal_actions for seat 0 with .*{what}"
    with pytest.raises(PluginError, match=expected):
        cardcore.play(game, [cardcore.RandomAgent(seed=1), cardcore.RandomAgent(seed=2)])
    with pytest.raises(PluginError, match=expected):  # a host that passes the version shown
        game.apply(game.legal_actions(0)[0], seen=game.version)
    assert _dump(game) == before


def test_legal_actions_of_none_are_a_plugin_error_in_every_read() -> None:
    game = cardcore.new_game("faulty-none-legal", 2, seed=3)
    ARMED["on"] = True
    seat = game.to_act[0]
    with pytest.raises(PluginError, match="answered legal_actions for seat 0 with None"):
        game.legal_actions(seat)
    with pytest.raises(PluginError, match="answered legal_actions"):
        game.view(seat)


def test_legal_actions_as_a_list_still_work_as_a_tuple() -> None:
    game = cardcore.new_game("faulty-list-legal", 2, seed=3)
    legal = game.legal_actions(game.to_act[0])
    assert type(legal) is tuple and legal
    game.apply(legal[0])
    assert game.version == 1


@pytest.mark.parametrize(
    ("name", "match"),
    [
        ("faulty-no-bound", "does not implement the required GameLogic method action_bound"),
        ("faulty-not-logic", "create_logic answered <object object"),
    ],
)
def test_a_logic_that_is_not_whole_is_refused_by_new_game(name: str, match: str) -> None:
    with pytest.raises(PluginError, match=match) as info:
        cardcore.new_game(name, 2, seed=1)
    assert info.value.plugin == name


def test_a_failing_veto_that_changed_the_state_is_undone_in_legal_actions() -> None:
    game = cardcore.new_game("golf", 2, rules=["golf.faulty-veto"], seed=1)
    before, cards = _dump(game), _cards(game)
    ARMED["on"] = True
    with pytest.raises(PluginError, match=r"golf\.faulty-veto"):
        game.legal_actions(game.to_act[0])
    assert _cards(game) == cards and _dump(game) == before


def test_a_failing_veto_after_an_apply_is_undone_and_the_action_stands() -> None:
    game = cardcore.new_game("golf", 2, rules=["golf.faulty-veto"], seed=1)
    action = game.legal_actions(game.to_act[0])[0]
    reference = cardcore.new_game("golf", 2, seed=1)
    reference.apply(action)
    cards = _cards(game)
    ARMED["on"] = True
    game.apply(action)  # applied; the veto fails while the next legal set is computed
    assert game.version == 1 and _cards(game) == cards
    assert game.state.zones.cards == reference.state.zones.cards
    with pytest.raises(PluginError, match=r"golf\.faulty-veto"):
        game.legal_actions(game.to_act[0])
    ARMED["on"] = False
    assert cardcore.load(game.save()).version == 1
    assert cardcore.replay(game.record()).version == 1


def test_score_round_answering_a_mapping_is_refused() -> None:
    game = cardcore.new_game("drawgame", 2, rules=["drawgame.faulty-scores"], seed=2)
    rng = random.Random(2)
    ARMED["on"] = True
    with pytest.raises(PluginError, match=r"drawgame\.faulty-scores.*one integer per seat"):
        while not game.is_over:
            before = _dump(game)
            game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    assert _dump(game) == before


def test_a_round_scored_out_of_range_is_refused() -> None:
    logic = cardcore.new_game("drawgame", 2, seed=2).logic
    state = cardcore.new_game("drawgame", 2, seed=2).state
    for bad in ([10**16, 0], [float("nan"), 0], [True, 0], (1,), "12"):
        with pytest.raises(PluginError, match="one integer per seat"):
            logic.score_round(state, bad)  # type: ignore[arg-type]
    assert logic.score_round(state, [10**15, -(10**15)]) == (10**15, -(10**15))


def test_build_deck_answering_text_is_refused_naming_the_rule() -> None:
    ARMED["on"] = True
    with pytest.raises(
        PluginError, match=r"build_deck \(golf.faulty-deck.*'AS' among its cards"
    ) as info:
        cardcore.new_game("golf", 2, rules=["golf.faulty-deck"], seed=1, options={"rounds": 1})
    assert info.value.plugin == "golf.faulty-deck"


def test_a_scorer_object_a_rule_answered_is_tracked_so_its_failure_is_undone() -> None:
    game = cardcore.new_game(
        "golf", 2, rules=["golf.faulty-scorer-object"], seed=5, options={"rounds": 3}
    )
    rng = random.Random(5)
    failed = False
    while not game.is_over and not failed:
        action = rng.choice(game.legal_actions(game.to_act[0]))
        before = _dump(game)
        if getattr(game.state, "round", 0) >= 2:  # past a round the scorer scored
            ARMED["on"] = True
        try:
            game.apply(action)
        except PluginError as exc:
            failed = True
            assert "ConnectionError" in str(exc)
            assert _dump(game) == before
        ARMED["on"] = False
    assert failed
    game.apply(action)  # the game goes on once the scorer works again


def test_a_handler_unsubscribed_by_another_gets_nothing_more_of_the_batch() -> None:
    game = cardcore.new_game("golf", 2, seed=7)
    after: list[str] = []
    gone = {"done": False}

    def killer(event: Event) -> None:
        if isinstance(event, ActionApplied) and not gone["done"]:
            game.events.unsubscribe(victim_sub)
            gone["done"] = True

    def victim(event: Event) -> None:
        if gone["done"]:
            after.append(event.slug)

    game.events.subscribe(Event, killer)
    victim_sub = game.events.subscribe(Event, victim)
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert gone["done"] and after == []


def test_legal_actions_of_none_published_by_apply_are_a_plugin_error_when_used() -> None:
    game = cardcore.new_game("faulty-none-legal", 2, seed=3)
    first = game.legal_actions(game.to_act[0])[0]
    ARMED["on"] = True
    game.apply(first)  # publishes the next seat's answer, unchecked (the hot path)
    seat = game.to_act[0]
    with pytest.raises(PluginError, match="answered legal_actions"):
        game.view(seat)
    ARMED["on"] = False
    before = _dump(game)
    game._hot = (game.version, seat, None)  # type: ignore[assignment]  # as published
    with pytest.raises(PluginError, match=f"answered legal_actions for seat {seat} with None"):
        game.apply(first)
    assert _dump(game) == before
    game.apply(game.legal_actions(seat)[0])  # the game goes on once the answers are sound


def _answers(hook: str, value: Any) -> Any:
    """A hook implementation of *hook* answering *value* (any arguments)."""
    specs = {
        "card_points": lambda card: value if card.label == "K" else None,
        "golf_final_turns": lambda layout: value,
        "golf_ender_penalty": lambda layout, scores, ender: value,
        "golf_round_awards": lambda layout, keys: value,
        "tonk_out_units": lambda new_spread: value,
        "tonk_upcard": lambda: value,
        "tonk_deal_judge": lambda: value,
        "golf_scorer": lambda layout: value,
        "golf_score_table": lambda layout: value,
        "golf_removable_groups": lambda layout: value,
        "spit_rank_gaps": lambda: value,
        "spit_deal_order": lambda cards: value,
        "spit_claim_rule": lambda: value,
    }
    return hookimpl(specname=hook)(specs[hook])


@pytest.mark.parametrize(
    ("game", "hook", "value"),
    [
        ("golf", "card_points", 2.5),
        ("golf", "golf_final_turns", "no"),
        ("golf", "golf_ender_penalty", "3"),
        ("golf", "golf_round_awards", [5]),
        ("golf", "golf_round_awards", [0, float("nan")]),
        ("golf", "golf_scorer", 42),
        ("golf", "golf_score_table", {"KS": 0}),
        ("golf", "golf_removable_groups", [[0, 99]]),
        ("golf", "golf_removable_groups", 7),
        ("spit", "spit_rank_gaps", 1),
        ("spit", "spit_deal_order", 3),
        ("spit", "spit_claim_rule", "smaller"),
        ("tonk", "card_points", "ten"),
        ("tonk", "tonk_out_units", 2.5),
        ("tonk", "tonk_upcard", "no"),
        ("tonk", "tonk_deal_judge", 42),
    ],
)
def test_a_rule_answering_a_value_of_the_wrong_kind_is_refused_by_name(
    game: str, hook: str, value: Any
) -> None:
    name = f"{game}.wrong-{hook.replace('_', '-')}"
    module = types.ModuleType(f"tests.hardening.wrong.{name}")
    vars(module).update(RULE=RuleInfo(f"TEST-WRONG-{hook.upper()}", name, game, "answers wrongly"))
    vars(module)[hook] = _answers(hook, value)
    cardcore.register("cardcore.rules", name, module)
    try:
        with pytest.raises(PluginError, match=rf"{hook} \(.*{re.escape(name)}.*answered") as info:
            game_ = cardcore.new_game(game, 2, rules=[name], seed=1)
            rng = random.Random(1)
            while not game_.is_over:  # the answers read at the end of a round
                game_.apply(rng.choice(game_.legal_actions(game_.to_act[0])))
        assert info.value.plugin == name or hook == "tonk_deal_judge"  # (answers of all rules)
    finally:
        cardcore.unregister("cardcore.rules", name)


@hookimpl(specname="determinize")
def _duplicating_determinize(state: cardcore.GameState, seat: int, rng: Any) -> bool:
    zones = state.zones
    zones.cards[0].append(zones.cards[0][0])  # a card made up by the re-deal
    zones.seen[0].append(0)
    return True


def test_a_re_deal_that_makes_up_a_card_is_refused_by_name() -> None:
    module = types.ModuleType("tests.hardening.wrong.golf.made-up-card")
    vars(module).update(
        RULE=RuleInfo("TEST-MADE-UP", "golf.made-up-card", "golf", "re-deals a card twice"),
        determinize=_duplicating_determinize,
    )
    cardcore.register("cardcore.rules", "golf.made-up-card", module)
    try:
        game = cardcore.new_game("golf", 2, rules=["golf.made-up-card"], seed=1)
        before = _dump(game)
        with pytest.raises(
            PluginError, match=r"golf\.made-up-card.*left 53 cards on the table, not 52"
        ):
            game.determinize(0, seed=5)
        assert _dump(game) == before  # the game itself is untouched (the world was a clone)
    finally:
        cardcore.unregister("cardcore.rules", "golf.made-up-card")


@pytest.mark.parametrize("where", ["legal_actions", "view", "apply"])
def test_an_interrupted_veto_that_changed_the_state_is_undone(where: str) -> None:
    game = cardcore.new_game("golf", 2, rules=["golf.interrupted-veto"], seed=1)
    reference = cardcore.new_game("golf", 2, seed=1)  # the same deal, without the rule
    first = reference.legal_actions(reference.to_act[0])[0]
    if where == "apply":
        assert game.legal_actions(game.to_act[0])[0] == first  # published: apply takes it as is
    before, cards = _dump(game), _cards(game)
    ARMED["on"] = True
    with pytest.raises(KeyboardInterrupt):
        if where == "apply":
            game.apply(first)  # applied; the veto is interrupted while the next set is published
        else:
            getattr(game, where)(game.to_act[0])
    assert _cards(game) == cards
    if where == "apply":
        reference.apply(first)
        assert game.version == 1 and game.state.zones.cards == reference.state.zones.cards
    else:
        assert _dump(game) == before
    assert cardcore.load(game.save()).version == game.version


@pytest.mark.parametrize("game", ["tonk", "spit", "speed"])
@pytest.mark.parametrize("extra", ["two decks", "jokers"])
def test_a_deck_the_game_is_not_built_for_is_refused_before_the_deal(game: str, extra: str) -> None:
    from cardcore import JOKER, standard_52

    cards = standard_52() * 2 if extra == "two decks" else (*standard_52(), JOKER, JOKER)
    name = f"{game}.other-deck"
    module = types.ModuleType(f"tests.hardening.wrong.{name}")
    vars(module).update(
        RULE=RuleInfo("TEST-OTHER-DECK", name, game, "plays another deck"),
        build_deck=hookimpl(specname="build_deck")(lambda players, options: list(cards)),
    )
    cardcore.register("cardcore.rules", name, module)
    try:
        with pytest.raises(
            PluginError, match=rf"build_deck \({re.escape(name)}.*answered {len(cards)} cards"
        ) as info:
            cardcore.new_game(game, 2, rules=[name], seed=1)
        assert info.value.plugin == name
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_a_house_rule_s_deck_too_short_to_deal_is_refused_by_name() -> None:
    """Ten cards cannot deal four 6-card grids and the upcard: refused before the deal,
    naming the rule (it failed mid-deal as the game's IndexError)."""
    with pytest.raises(
        PluginError,
        match=r"build_deck \(golf.short-deck.*answered 10 cards: golf needs at least 25 for 4 players",
    ) as err:
        cardcore.new_game("golf", 4, rules=["golf.short-deck"], seed=1)
    assert err.value.plugin == "golf.short-deck"
