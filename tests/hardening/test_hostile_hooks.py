"""House rules that misbehave inside their hooks: each failure is a PluginError naming the
rule and the hook, and the game is left exactly as it was.

Found by hostile plugins written from the documentation alone (2 December 2026):

* a rule raising in ``score_round`` was reported as raising "in apply", and one raising
  ``StopIteration`` in ``forbid_action`` was blamed on the game (the generator that
  filters the legal actions turned it into ``RuntimeError``);
* an exception whose ``__str__`` fails reached the caller as a raw ``ValueError``
  (the core failed while writing the PluginError's message);
* a ``score_round`` that deleted a card and returned normally lost the card for good
  (the game could no longer be saved and loaded);
* a ``score_round`` answering ``int`` subclasses stored them in the state, so a later
  record held values that are not JSON data;
* a :class:`~cardcore.Veto` whose reason is a ``str`` subclass failing to format made
  applying the vetoed action raise that subclass's ``RuntimeError``.
"""

from __future__ import annotations

import itertools
import json
import random
import types
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import cardcore
from cardcore import GameState, PluginError, RuleInfo, Veto, hookimpl
from cardcore_golf.grids import default_scorer

_NUMBERS = itertools.count(1)
OPTIONS = {"golf": {"rounds": 3}, "tonk": {"hands": 3}}


@pytest.fixture
def house_rule() -> Iterator[Callable[..., str]]:
    """Register a throw-away house rule with the given hooks; removed after the test."""
    names: list[str] = []

    def make(game: str, **hooks: Any) -> str:
        n = next(_NUMBERS)
        name = f"{game}.hostile-{n}"
        module = types.ModuleType(f"hostile_{game}_{n}")
        module.RULE = RuleInfo(id=f"TEST-HOSTILE-{n}", name=name, game=game, summary="hostile")  # type: ignore[attr-defined]
        vars(module).update(hooks)
        cardcore.register("cardcore.rules", name, module)
        names.append(name)
        return name

    yield make
    for name in names:
        cardcore.unregister("cardcore.rules", name)


def _dump(game: cardcore.Game) -> str:
    return json.dumps(game.save(), sort_keys=True)


def _conserved(game: cardcore.Game) -> bool:
    deck = game.logic.deck(len(game.players), game.options)
    return Counter(game.state.zones.all_cards()) == Counter(deck)


def _play_until_error(game: cardcore.Game, seed: int) -> tuple[BaseException, str]:
    """Play random legal actions until one raises; return the error and the save before it."""
    rng = random.Random(seed)
    while not game.is_over:
        before = _dump(game)
        seat = rng.choice([s for s in game.to_act if game.legal_actions(s)])
        try:
            game.apply(rng.choice(game.legal_actions(seat)))
        except PluginError as error:
            return error, before
    raise AssertionError("no action failed")


def _finish(game: cardcore.Game, seed: int) -> None:
    rng = random.Random(seed)
    while not game.is_over:
        seat = rng.choice([s for s in game.to_act if game.legal_actions(s)])
        game.apply(rng.choice(game.legal_actions(seat)))
    assert _conserved(game)
    assert cardcore.load(json.loads(json.dumps(game.save()))).view(None) == game.view(None)
    assert cardcore.replay(game.record()).view(None) == game.view(None)  # as data, not text
    assert cardcore.load(game.save()).view(None) == game.view(None)


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise ValueError("no message")


@pytest.mark.parametrize("game_name", ["golf", "tonk"])
@pytest.mark.parametrize(
    ("error", "shown"),
    [
        (RuntimeError("scoring service down"), "scoring service down"),
        (StopIteration(), ""),
        (_Unprintable(), "could not be read"),
    ],
)
def test_a_rule_raising_in_score_round_is_named_with_the_hook(
    house_rule: Callable[..., str], game_name: str, error: Exception, shown: str
) -> None:
    switch = {"on": True}

    @hookimpl
    def score_round(state: GameState, scores: Any) -> None:
        if switch["on"]:
            raise error

    name = house_rule(game_name, score_round=score_round)
    game = cardcore.new_game(game_name, 2, rules=[name], options=OPTIONS[game_name], seed=3)
    failure, before = _play_until_error(game, 3)
    assert failure.plugin == name  # type: ignore[attr-defined]
    kind = type(error).__name__
    assert f"plugin {name!r} raised {kind} in score_round: " in str(failure)
    assert shown in str(failure)
    assert _dump(game) == before
    switch["on"] = False
    _finish(game, 4)


@pytest.mark.parametrize("game_name", ["golf", "tonk", "spit", "speed"])
def test_stop_iteration_in_a_veto_is_blamed_on_the_rule_not_the_game(
    house_rule: Callable[..., str], game_name: str
) -> None:
    switch = {"on": False}

    @hookimpl
    def forbid_action(state: GameState, action: cardcore.Action) -> None:
        if switch["on"]:
            raise StopIteration

    name = house_rule(game_name, forbid_action=forbid_action)
    game = cardcore.new_game(game_name, 2, rules=[name], options=OPTIONS.get(game_name), seed=5)
    before = _dump(game)
    switch["on"] = True
    seat = game.to_act[-1]
    with pytest.raises(PluginError) as failure:
        game.view(seat)  # computes the seat's legal actions, through the veto
    assert failure.value.plugin == name
    assert f"plugin {name!r} raised StopIteration in forbid_action" in str(failure.value)
    switch["on"] = False
    assert _dump(game) == before


@pytest.mark.parametrize("game_name", ["golf", "tonk"])
def test_a_score_round_that_deletes_a_card_and_returns_is_refused_and_undone(
    house_rule: Callable[..., str], game_name: str
) -> None:
    switch = {"on": True}

    @hookimpl
    def score_round(state: GameState, scores: Any) -> None:
        if switch["on"]:
            zones = state.zones
            zone = next(z for z in range(len(zones.cards)) if zones.cards[z])
            zones.pop(zone)  # a card lost, and the hook returns as if nothing happened

    name = house_rule(game_name, score_round=score_round)
    game = cardcore.new_game(game_name, 2, rules=[name], options=OPTIONS[game_name], seed=6)
    failure, before = _play_until_error(game, 6)
    assert failure.plugin == name  # type: ignore[attr-defined]
    assert "score_round" in str(failure) and "changed the state it was given" in str(failure)
    assert _dump(game) == before and _conserved(game)
    switch["on"] = False
    _finish(game, 7)


class _Sticky(int):
    """An int whose sums stay _Sticky: kept in the state, it would reach the record."""

    def __add__(self, other: object) -> _Sticky:
        return _Sticky(int.__index__(self) + int(other))  # type: ignore[call-overload]

    __radd__ = __add__

    def __repr__(self) -> str:
        return "sticky"

    __str__ = __repr__


@pytest.mark.parametrize("game_name", ["golf", "tonk"])
def test_int_subclasses_answered_by_score_round_are_kept_as_plain_ints(
    house_rule: Callable[..., str], game_name: str
) -> None:
    @hookimpl
    def score_round(state: GameState, scores: Any) -> list[int]:
        return [_Sticky(s) for s in scores]

    name = house_rule(game_name, score_round=score_round)
    game = cardcore.new_game(game_name, 2, rules=[name], options=OPTIONS[game_name], seed=8)
    _finish(game, 8)  # the record and the save hold plain data, and replay
    assert game.result is not None
    assert not any(isinstance(s, _Sticky) for s in game.result.scores)


class _BadText(str):
    def __format__(self, spec: str) -> str:
        raise RuntimeError("cannot format")

    def __str__(self) -> str:
        raise RuntimeError("cannot write")


def test_a_veto_whose_text_is_a_failing_str_subclass_is_read_as_plain_text(
    house_rule: Callable[..., str],
) -> None:
    @hookimpl
    def forbid_action(state: GameState, action: cardcore.Action) -> Veto | None:
        if action.verb == "take":
            return Veto(_BadText("DOCS-CLOSED-1"), _BadText("the discard pile is closed"))
        return None

    name = house_rule("golf", forbid_action=forbid_action)
    game = cardcore.new_game("golf", 2, rules=[name], seed=7)
    for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 0"), (1, "flip 3")]:
        game.act(seat, text)
    assert game.view(0)["legal"] == ["draw"]
    before = _dump(game)
    with pytest.raises(cardcore.IllegalActionError, match=r"closed \(DOCS-CLOSED-1\)$") as refused:
        game.act(0, "take")
    assert type(refused.value.rule_id) is str
    assert _dump(game) == before


def test_a_function_a_rule_answered_is_named_when_it_fails(house_rule: Callable[..., str]) -> None:
    switch = {"on": False}

    @hookimpl
    def golf_scorer(layout: Any) -> Callable[..., int]:
        base = default_scorer(layout)

        def scorer(keys: Any, points: Any) -> int:
            if switch["on"]:
                raise ValueError("scorer down")
            return base(keys, points)

        return scorer

    name = house_rule("golf", golf_scorer=golf_scorer)
    game = cardcore.new_game("golf", 2, rules=[name], options=OPTIONS["golf"], seed=9)
    switch["on"] = True
    failure, before = _play_until_error(game, 9)
    assert failure.plugin == name  # type: ignore[attr-defined]
    assert "in the function its golf_scorer hook answered: scorer down" in str(failure)
    assert _dump(game) == before
    switch["on"] = False
    _finish(game, 10)


class _NoTruth:
    """An answer whose truth cannot be asked."""

    def __bool__(self) -> bool:
        raise RuntimeError("no truth value")


def test_a_penalty_that_is_not_an_int_is_refused_by_name(house_rule: Callable[..., str]) -> None:
    """Before, Golf asked the answer's truth first: its RuntimeError was blamed on 'golf'."""

    @hookimpl
    def golf_ender_penalty(layout: Any, scores: Any, ender: int) -> Any:
        return _NoTruth()

    name = house_rule("golf", golf_ender_penalty=golf_ender_penalty)
    game = cardcore.new_game("golf", 2, rules=[name], options=OPTIONS["golf"], seed=11)
    failure, before = _play_until_error(game, 11)
    assert failure.plugin == name  # type: ignore[attr-defined]
    assert f"golf_ender_penalty ({name}) answered" in str(failure)
    assert _dump(game) == before


@pytest.mark.parametrize("hook", ["card_points", "golf_ender_penalty"])
def test_int_subclasses_a_golf_rule_answers_never_reach_the_save(
    house_rule: Callable[..., str], hook: str
) -> None:
    """Before, the game played on but its save held _Sticky values and did not load."""

    @hookimpl
    def card_points(card: cardcore.Card) -> int:
        return _Sticky(1)

    @hookimpl
    def golf_ender_penalty(layout: Any, scores: Any, ender: int) -> int:
        return _Sticky(5)

    hooks = {"card_points": card_points, "golf_ender_penalty": golf_ender_penalty}
    name = house_rule("golf", **{hook: hooks[hook]})
    game = cardcore.new_game("golf", 2, rules=[name], options=OPTIONS["golf"], seed=12)
    _finish(game, 12)


def test_a_tonk_stock_rule_that_is_not_a_function_is_refused_before_the_deal(
    house_rule: Callable[..., str],
) -> None:
    """Before, it was accepted, and the first empty stock raised TypeError blamed on 'tonk'."""

    @hookimpl
    def tonk_hand_ends_on_empty_stock() -> Any:
        return "no"

    name = house_rule("tonk", tonk_hand_ends_on_empty_stock=tonk_hand_ends_on_empty_stock)
    with pytest.raises(PluginError, match=rf"tonk_hand_ends_on_empty_stock \({name}") as failure:
        cardcore.new_game("tonk", 2, rules=[name], seed=13)
    assert failure.value.plugin == name


@pytest.mark.parametrize("misdeed", ["answer", "change"])
def test_a_tonk_stock_function_must_answer_a_bool_and_only_read(
    house_rule: Callable[..., str], misdeed: str
) -> None:
    """Before, an answer of 'yes' passed as true, and a card it removed was lost for good."""

    def ends(state: Any) -> Any:
        if misdeed == "answer":
            return "yes"
        state.zones.pop(next(z for z in range(len(state.zones.cards)) if state.zones.cards[z]))
        return True

    @hookimpl
    def tonk_hand_ends_on_empty_stock() -> Any:
        return ends

    name = house_rule("tonk", tonk_hand_ends_on_empty_stock=tonk_hand_ends_on_empty_stock)
    game = cardcore.new_game("tonk", 2, rules=[name], seed=14)
    rng = random.Random(14)
    while True:  # nobody drops or lays down: the stock runs out
        seat = game.to_act[0]
        calm = [a for a in game.legal_actions(seat) if a.verb in ("draw", "discard")]
        before = _dump(game)
        try:
            game.apply(rng.choice(calm))
        except PluginError as failure:
            assert failure.plugin == name
            assert f"tonk_hand_ends_on_empty_stock ({name}, tonk) answered" in str(failure)
            break
    assert _dump(game) == before and _conserved(game)


def test_a_cardcore_error_a_rule_raises_in_play_is_a_plugin_error(
    house_rule: Callable[..., str],
) -> None:
    """Before, a rule's own call failing with UnknownPluginError left apply as that error."""

    @hookimpl
    def score_round(state: GameState, scores: Any) -> None:
        cardcore.unregister("cardcore.rules", "golf.never-registered")

    name = house_rule("golf", score_round=score_round)
    game = cardcore.new_game("golf", 2, rules=[name], options=OPTIONS["golf"], seed=15)
    failure, before = _play_until_error(game, 15)
    assert failure.plugin == name  # type: ignore[attr-defined]
    assert f"plugin {name!r} raised UnknownPluginError in score_round" in str(failure)
    assert _dump(game) == before


def test_a_rules_own_error_stays_the_cause_of_the_plugin_error(
    house_rule: Callable[..., str],
) -> None:
    """``raise error from exc`` with the rule's PluginError passing through made the error its
    own cause: the rule's exception and traceback no longer showed."""

    @hookimpl
    def score_round(state: GameState, scores: Any) -> None:
        raise LookupError("the scoring service is down")

    name = house_rule("golf", score_round=score_round)
    game = cardcore.new_game("golf", 2, rules=[name], options=OPTIONS["golf"], seed=15)
    failure, _ = _play_until_error(game, 15)
    assert failure.__cause__ is not failure
    assert type(failure.__cause__) is LookupError
    assert str(failure.__cause__) == "the scoring service is down"


def test_enum_members_a_hook_answers_stay_enum_members() -> None:
    """The plain-int rule is for hostile int subclasses, not a game's own IntEnum values."""
    from cardcore._hookcall import guarded
    from cardcore.cards import Rank

    answer = guarded(lambda: [Rank(1), _Sticky(3), True], "golf.rule", "hook")()
    assert [type(x) for x in answer] == [Rank, int, bool]
