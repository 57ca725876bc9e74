"""Faulty plugins, written from the plugin guide alone (3 December 2026).

House rules registered at run time with :func:`cardcore.register` misbehave in ways the
other hardening tests do not try: wrong answers of many kinds from ``score_round``, a
real ``RecursionError``, ``MemoryError`` and a plugin's own ``BaseException`` in vetoes of
the real-time games, observers that interrupt or re-enter the game, a subscriber that acts
from another thread and subscribes mid-delivery, broken re-deals, game hooks of Tonk and
Golf answering what their callers cannot use, plugins failing while a save loads, hooks
that are not deterministic, and a hook that keeps the state and changes it later.

Each test checks the game is exactly as it was after the failure (fingerprint and save),
that every card is in one place, that the error is a PluginError naming the rule, and that
the game still plays, saves and replays. The ``xfail(strict=True)`` tests are findings.
"""

from __future__ import annotations

import itertools
import json
import random
import threading
import types
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import cardcore
from cardcore import Card, Event, GameState, PluginError, RuleInfo, hookimpl
from cardcore.testing._util import fingerprint

_NUMBERS = itertools.count(1)


class _Stop(BaseException):
    """A plugin's own BaseException, like KeyboardInterrupt."""


@pytest.fixture
def house_rule() -> Iterator[Callable[..., str]]:
    """Register a throw-away house rule with the given hooks; removed after the test."""
    names: list[str] = []

    def make(game: str, **hooks: Any) -> str:
        n = next(_NUMBERS)
        name = f"{game}.faulty-1203-{n}"
        module = types.ModuleType(f"faulty_1203_{game}_{n}")
        module.RULE = RuleInfo(  # type: ignore[attr-defined]
            id=f"TEST-FAULTY-1203-{n}", name=name, game=game, summary="faulty"
        )
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


def _acting(game: cardcore.Game) -> list[int]:
    return [s for s in game.to_act if game.legal_actions(s)]


def _step(game: cardcore.Game, rng: random.Random) -> None:
    seat = rng.choice(_acting(game))
    game.apply(rng.choice(game.legal_actions(seat)))


def _play_until_error(game: cardcore.Game, seed: int) -> tuple[PluginError, Any]:
    """Play random legal actions until one raises PluginError; return it and the
    fingerprint and save from just before."""
    rng = random.Random(seed)
    while not game.is_over:
        before = (fingerprint(game), _dump(game))
        try:
            _step(game, rng)
        except PluginError as error:
            return error, before
    raise AssertionError("no action failed")


def _finish(game: cardcore.Game, seed: int) -> None:
    """Play to the end; the game stays whole, saves, loads and replays."""
    rng = random.Random(seed)
    for _ in range(5000):
        if game.is_over:
            break
        _step(game, rng)
    assert _conserved(game)
    assert cardcore.load(json.loads(json.dumps(game.save()))).view(None) == game.view(None)
    assert cardcore.replay(game.record()).view(None) == game.view(None)


OPTIONS = {"golf": {"rounds": 2}, "tonk": {"hands": 2}}


# --- score_round answering what the core cannot use -------------------------------------------


def _gen(scores: Any) -> Iterator[int]:
    yield from scores


class _HostileList(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        raise RuntimeError("no iteration")

    def __len__(self) -> int:
        raise RuntimeError("no length")


class _HostileInt(int):
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no equality")

    def __hash__(self) -> int:
        raise RuntimeError("no hash")

    def __str__(self) -> str:
        raise RuntimeError("no text")

    __repr__ = __str__


WRONG_SCORES: dict[str, Callable[[Any], Any]] = {
    "generator": _gen,
    "nan": lambda s: [float("nan")] * len(s),
    "huge": lambda s: [10**100, -(10**100)],
    "too-short": lambda s: list(s)[:1],
    "bools": lambda s: [True, False],
    "text": lambda s: "00",
    "floats": lambda s: [float(x) for x in s],
    "mapping": lambda s: {0: 1},
    "set": lambda s: set(s),
}


@pytest.mark.parametrize("game_name", ["golf", "tonk"])
@pytest.mark.parametrize("kind", sorted(WRONG_SCORES))
def test_score_round_answers_of_the_wrong_kind_are_refused_by_name_and_undone(
    house_rule: Callable[..., str], game_name: str, kind: str
) -> None:
    switch = {"on": True}

    @hookimpl
    def score_round(state: GameState, scores: Any) -> Any:
        return WRONG_SCORES[kind](scores) if switch["on"] else None

    name = house_rule(game_name, score_round=score_round)
    game = cardcore.new_game(game_name, 2, rules=[name], options=OPTIONS[game_name], seed=3)
    failure, (fp, saved) = _play_until_error(game, 1)
    assert failure.plugin == name
    assert f"score_round of {name!r}" in str(failure)
    assert fingerprint(game) == fp and _dump(game) == saved and _conserved(game)
    switch["on"] = False
    _finish(game, 2)


@pytest.mark.parametrize("game_name", ["golf", "tonk"])
@pytest.mark.parametrize("kind", ["hostile-list", "hostile-ints"])
def test_score_round_answers_with_hostile_code_are_read_as_plain_values(
    house_rule: Callable[..., str], game_name: str, kind: str
) -> None:
    @hookimpl
    def score_round(state: GameState, scores: Any) -> Any:
        if kind == "hostile-list":
            return _HostileList(scores)
        return [_HostileInt(s) for s in scores]

    name = house_rule(game_name, score_round=score_round)
    game = cardcore.new_game(game_name, 2, rules=[name], options=OPTIONS[game_name], seed=3)
    _finish(game, 1)
    assert game.result is not None
    assert all(type(s) in (int, float) for s in game.result.scores)


# --- vetoes failing in every way, in the real-time games ----------------------------------------


def _deep(n: int) -> int:
    return _deep(n + 1)


def _lose_a_card(state: GameState) -> None:
    zones = state.zones
    z = next(i for i, pile in enumerate(zones.cards) if pile)
    zones.cards[z].pop()
    zones.seen[z].pop()


@pytest.mark.parametrize("game_name", ["spit", "speed"])
@pytest.mark.parametrize(
    "misdeed", ["recursion", "memory", "interrupt", "lose-then-interrupt", "iterator", "false"]
)
def test_a_failing_veto_in_real_time_is_named_and_undone_in_act_view_and_legal(
    house_rule: Callable[..., str], game_name: str, misdeed: str
) -> None:
    switch = {"on": False}

    @hookimpl
    def forbid_action(state: GameState, action: cardcore.Action) -> Any:
        if not switch["on"]:
            return None
        if misdeed == "recursion":
            _deep(0)  # a real RecursionError, raised deep in the stack
        if misdeed == "memory":
            raise MemoryError
        if misdeed == "lose-then-interrupt":
            _lose_a_card(state)
        if misdeed in ("interrupt", "lose-then-interrupt"):
            raise _Stop
        if misdeed == "iterator":
            return iter(())
        return False

    name = house_rule(game_name, forbid_action=forbid_action)
    game = cardcore.new_game(game_name, 2, rules=[name], seed=3)
    seat = _acting(game)[0]
    text = str(game.legal_actions(seat)[0])
    other = game.clone()  # legal actions not yet computed at this version
    before, saved = fingerprint(game), _dump(game)
    switch["on"] = True
    calls: list[Callable[[], object]] = [
        lambda: game.act(seat, text),
        lambda: game.view(seat),
        lambda: game.legal_actions(seat),
        lambda: other.legal_actions(seat),
    ]
    for call in calls:
        if misdeed in ("interrupt", "lose-then-interrupt"):
            with pytest.raises(_Stop):
                call()
        else:
            with pytest.raises(PluginError) as failure:
                call()
            assert failure.value.plugin == name
        assert fingerprint(game) == before and _dump(game) == saved
        assert _conserved(game) and _conserved(other)
    switch["on"] = False
    game.act(seat, text)  # the game goes on
    _finish(game, 5)


# --- observers (on_event) that interrupt or re-enter -------------------------------------------


def test_an_observer_s_base_exception_costs_no_subscriber_an_event(
    house_rule: Callable[..., str],
) -> None:
    armed = {"on": False}

    @hookimpl
    def on_event(event: Event) -> None:
        if armed["on"] and event.slug == "action-applied":
            armed["on"] = False
            raise _Stop

    name = house_rule("golf", on_event=on_event)
    host: list[Event] = []
    seat1: list[Event] = []
    game = cardcore.new_game(
        "golf",
        2,
        rules=[name],
        seed=7,
        subscribers=[(Event, host.append), (Event, seat1.append, 1)],
    )
    game.act(0, "flip 0")
    armed["on"] = True
    with pytest.raises(_Stop):
        game.act(0, "flip 1")
    assert game.version == 2  # the action stands
    slugs = [e.slug for e in host]
    assert slugs.count("action-applied") == 2 and slugs[-1] == "turn-passed"
    assert [e.slug for e in seat1] == slugs
    _finish(game, 1)


def test_an_observer_s_real_recursion_error_is_reported_naming_the_plugin(
    house_rule: Callable[..., str],
) -> None:
    @hookimpl
    def on_event(event: Event) -> None:
        _deep(0)

    name = house_rule("golf", on_event=on_event)
    game = cardcore.new_game("golf", 2, rules=[name], seed=7)
    failures: list[cardcore.DeliveryFailure] = []
    game.events.on_error = failures.append
    got: list[Event] = []
    game.events.subscribe(Event, got.append)
    game.act(0, "flip 0")
    assert game.version == 1 and [e.slug for e in got] == ["action-applied", "card-revealed"]
    assert len(failures) == 2
    assert all(isinstance(f.error, RecursionError) and f.plugin == name for f in failures)


def test_an_observer_that_acts_has_its_actions_delivered_in_version_order(
    house_rule: Callable[..., str],
) -> None:
    target: dict[str, cardcore.Game] = {}

    @hookimpl
    def on_event(event: Event) -> None:
        game = target.get("game")
        if game is not None and isinstance(event, cardcore.ActionApplied) and event.version < 4:
            game.apply(game.legal_actions(game.to_act[0])[0])

    name = house_rule("golf", on_event=on_event)
    game = cardcore.new_game("golf", 2, rules=[name], seed=7)
    versions: list[int] = []
    game.events.subscribe(cardcore.ActionApplied, lambda e: versions.append(e.version))
    target["game"] = game
    game.act(0, "flip 0")
    target.clear()
    assert game.version == 4 and versions == [1, 2, 3, 4]
    _finish(game, 3)


def test_a_subscriber_that_acts_from_another_thread_and_subscribes_mid_delivery() -> None:
    """The other thread's action waits for this batch; nothing is lost or duplicated, and a
    subscription made mid-delivery receives the rest of the batch."""
    game = cardcore.new_game("golf", 2, seed=7)
    host: list[str] = []
    seat1: list[str] = []
    late: list[str] = []
    threads: list[threading.Thread] = []

    def handler(event: Event) -> None:
        if isinstance(event, cardcore.ActionApplied) and event.version == 1:
            thread = threading.Thread(target=game.act, args=(0, "flip 1"))
            thread.start()
            threads.append(thread)
            thread.join(0.2)  # blocks a while on the other thread, then gives up
            game.events.subscribe(Event, lambda e: late.append(e.slug))

    game.events.subscribe(Event, handler)
    game.events.subscribe(Event, lambda e: host.append(e.slug))
    game.events.subscribe(Event, lambda e: seat1.append(e.slug), seat=1)
    game.act(0, "flip 0")
    for thread in threads:
        thread.join(10)
    assert not any(t.is_alive() for t in threads)
    assert game.version == 2
    assert host == [
        "action-applied",
        "card-revealed",
        "action-applied",
        "card-revealed",
        "turn-passed",
    ]
    assert seat1 == host
    assert late == host[1:]


# --- re-deals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("misdeed", ["raise", "recursion", "interrupt", "empty-then-raise"])
def test_a_failing_re_deal_leaves_the_game_as_it_was(
    house_rule: Callable[..., str], misdeed: str
) -> None:
    @hookimpl
    def determinize(state: GameState, seat: int, rng: random.Random) -> Any:
        if misdeed == "recursion":
            _deep(0)
        if misdeed == "interrupt":
            raise _Stop
        if misdeed == "empty-then-raise":
            for pile in state.zones.cards:
                pile.clear()
        raise ValueError("re-deal service down")

    name = house_rule("golf", determinize=determinize)
    game = cardcore.new_game("golf", 2, rules=[name], seed=3)
    before, saved = fingerprint(game), _dump(game)
    if misdeed == "interrupt":
        with pytest.raises(_Stop):
            game.determinize(0, 5)
    else:
        with pytest.raises(PluginError) as failure:
            game.determinize(0, 5)
        assert failure.value.plugin == name
    assert fingerprint(game) == before and _dump(game) == saved and _conserved(game)
    _finish(game, 4)


@pytest.mark.parametrize("answer", [False, "yes", 0])
def test_a_re_deal_answering_neither_true_nor_none_is_refused_by_name(
    house_rule: Callable[..., str], answer: Any
) -> None:
    @hookimpl
    def determinize(state: GameState, seat: int, rng: random.Random) -> Any:
        return answer

    name = house_rule("golf", determinize=determinize)
    game = cardcore.new_game("golf", 2, rules=[name], seed=3)
    with pytest.raises(PluginError) as failure:
        game.determinize(0, 5)
    assert failure.value.plugin == name


def test_a_re_deal_that_duplicates_a_card_and_keeps_the_count_is_refused(
    house_rule: Callable[..., str],
) -> None:
    @hookimpl
    def determinize(state: GameState, seat: int, rng: random.Random) -> Any:
        zones = state.zones
        stock = [s.name for s in zones.layout.specs].index("stock")
        zones.cards[stock][0] = zones.cards[stock][1]  # hidden from every seat
        return True

    name = house_rule("golf", determinize=determinize)
    game = cardcore.new_game("golf", 2, rules=[name], seed=3)
    try:
        world = game.determinize(0, 5)
    except PluginError as failure:
        assert failure.plugin == name
        return
    assert _conserved(world), "the world holds a card twice and misses another"


# --- Tonk's and Golf's own hooks answering what the game cannot use ------------------------------


class _NoTruth:
    def __bool__(self) -> bool:
        raise RuntimeError("no truth value")


@pytest.mark.parametrize(
    "answer", [False, 0.0, "", []], ids=["false", "zero-float", "empty-text", "empty-list"]
)
def test_tonk_refuses_a_falsy_card_points_answer_of_the_wrong_kind(
    house_rule: Callable[..., str], answer: Any
) -> None:
    @hookimpl
    def card_points(card: Card) -> Any:
        return answer if card.label == "Q" else None

    name = house_rule("tonk", card_points=card_points)
    with pytest.raises(PluginError) as failure:
        cardcore.new_game("tonk", 2, rules=[name], seed=1)
    assert failure.value.plugin == name


def test_tonk_blames_the_rule_whose_card_points_answer_has_no_truth_value(
    house_rule: Callable[..., str],
) -> None:
    @hookimpl
    def card_points(card: Card) -> Any:
        return _NoTruth() if card.label == "Q" else None

    name = house_rule("tonk", card_points=card_points)
    with pytest.raises(PluginError) as failure:
        cardcore.new_game("tonk", 2, rules=[name], seed=1)
    assert failure.value.plugin == name


class _Evil:
    """An answer none of whose code may run: text, length, iteration, equality, truth."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    __str__ = __repr__

    def __len__(self) -> int:
        raise RuntimeError("no length")

    def __iter__(self) -> Any:
        raise RuntimeError("no iteration")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no equality")

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        raise RuntimeError("no truth value")


@pytest.mark.parametrize(
    "hook",
    [
        "card_points",
        "golf_scorer",
        "golf_final_turns",
        "score_round",
        "golf_ender_penalty",
        "golf_round_awards",
    ],
)
def test_a_golf_hook_answering_an_object_whose_every_method_fails_is_refused_by_name(
    house_rule: Callable[..., str], hook: str
) -> None:
    armed = {"on": False}

    def answer(**_: Any) -> Any:
        return _Evil() if armed["on"] else None

    signatures: dict[str, Callable[..., Any]] = {
        "card_points": lambda card: answer(),
        "golf_scorer": lambda layout: answer(),
        "golf_final_turns": lambda layout: answer(),
        "score_round": lambda scores: answer(),
        "golf_ender_penalty": lambda layout, scores, ender: answer(),
        "golf_round_awards": lambda layout, keys: answer(),
    }
    name = house_rule("golf", **{hook: hookimpl(signatures[hook])})
    at_configuration = hook in ("card_points", "golf_scorer", "golf_final_turns")
    armed["on"] = at_configuration
    if at_configuration:
        with pytest.raises(PluginError, match=r"answered <a _Evil>") as refused:
            cardcore.new_game("golf", 2, rules=[name], options=OPTIONS["golf"], seed=3)
        assert refused.value.plugin == name
        return
    game = cardcore.new_game("golf", 2, rules=[name], options=OPTIONS["golf"], seed=3)
    armed["on"] = True
    failure, (fp, saved) = _play_until_error(game, 1)
    assert failure.plugin == name and "<a _Evil>" in str(failure)
    assert fingerprint(game) == fp and _dump(game) == saved and _conserved(game)
    armed["on"] = False
    _finish(game, 2)


def test_a_tonk_deal_judge_that_raises_is_named_and_undone(
    house_rule: Callable[..., str],
) -> None:
    switch = {"on": False}

    def judge(hands: Any, points: Any) -> Any:
        if switch["on"]:
            raise MemoryError("judge out of memory")
        return None

    @hookimpl
    def tonk_deal_judge() -> Any:
        return judge

    name = house_rule("tonk", tonk_deal_judge=tonk_deal_judge)
    game = cardcore.new_game("tonk", 2, rules=[name], options={"hands": 3}, seed=3)
    switch["on"] = True
    failure, (fp, saved) = _play_until_error(game, 0)
    assert failure.plugin == name and "MemoryError" in str(failure)
    assert fingerprint(game) == fp and _dump(game) == saved and _conserved(game)
    switch["on"] = False
    _finish(game, 1)


@pytest.mark.parametrize("verdict", ["text", "not-zero-sum"])
def test_a_tonk_deal_judge_s_unusable_verdict_is_refused_naming_the_rule(
    house_rule: Callable[..., str], verdict: str
) -> None:
    from cardcore_tonk.melds import DealVerdict

    switch = {"on": False}
    answers = {"text": "void", "not-zero-sum": DealVerdict("x", 0, (2, 2))}

    def judge(hands: Any, points: Any) -> Any:
        return answers[verdict] if switch["on"] else None

    @hookimpl
    def tonk_deal_judge() -> Any:
        return judge

    name = house_rule("tonk", tonk_deal_judge=tonk_deal_judge)
    game = cardcore.new_game("tonk", 2, rules=[name], options={"hands": 3}, seed=3)
    switch["on"] = True
    rng = random.Random(0)
    while not game.is_over:
        before = fingerprint(game)
        try:
            _step(game, rng)
        except cardcore.CardcoreError as error:
            assert fingerprint(game) == before  # holds already: the failure is undone
            assert isinstance(error, PluginError) and error.plugin == name
            return
    raise AssertionError("the judge was never asked")


def test_golf_refuses_removable_groups_given_as_generators_by_name(
    house_rule: Callable[..., str],
) -> None:
    @hookimpl
    def golf_removable_groups(layout: Any) -> Any:
        return [(p for p in (0, 1))]

    name = house_rule("golf", golf_removable_groups=golf_removable_groups)
    with pytest.raises(PluginError, match="golf_removable_groups") as failure:
        cardcore.new_game("golf", 2, rules=[name], seed=3)
    assert failure.value.plugin == name


class _NoHash(int):
    def __hash__(self) -> int:
        raise RuntimeError("no hash")


def test_golf_blames_the_rule_whose_removable_group_cannot_be_hashed(
    house_rule: Callable[..., str],
) -> None:
    @hookimpl
    def golf_removable_groups(layout: Any) -> Any:
        return [[_NoHash(0), 1]]

    name = house_rule("golf", golf_removable_groups=golf_removable_groups)
    with pytest.raises(PluginError) as failure:
        cardcore.new_game("golf", 2, rules=[name], seed=3)
    assert failure.value.plugin == name


# --- wrappers that break pluggy's protocol ------------------------------------------------------


@pytest.mark.parametrize("misdeed", ["second-yield", "no-yield"])
def test_a_score_round_wrapper_breaking_the_protocol_is_named_and_undone(
    house_rule: Callable[..., str], misdeed: str
) -> None:
    armed = {"on": False}

    @hookimpl(wrapper=True)
    def score_round(scores: Any) -> Any:
        if armed["on"] and misdeed == "no-yield":
            return list(scores)
        inner = yield
        if armed["on"]:
            yield
        return inner

    name = house_rule("golf", score_round=score_round)
    game = cardcore.new_game("golf", 2, rules=[name], options=OPTIONS["golf"], seed=3)
    armed["on"] = True
    failure, (fp, saved) = _play_until_error(game, 1)
    assert fingerprint(game) == fp and _dump(game) == saved  # holds already
    assert failure.plugin == name


def test_a_build_deck_wrapper_that_yields_twice_is_named(house_rule: Callable[..., str]) -> None:
    @hookimpl(wrapper=True)
    def build_deck(players: int, options: Any) -> Any:
        deck = yield
        yield
        return deck

    name = house_rule("golf", build_deck=build_deck)
    with pytest.raises(PluginError) as failure:
        cardcore.new_game("golf", 2, rules=[name], seed=3)
    assert failure.value.plugin == name


@pytest.mark.parametrize("answer", ["none", "int", "generator"])
def test_a_forbid_action_wrapper_answering_no_list_is_refused_by_name(
    house_rule: Callable[..., str], answer: str
) -> None:
    @hookimpl(wrapper=True)
    def forbid_action(state: GameState, action: cardcore.Action) -> Any:
        inner = yield
        if answer == "generator":
            return (veto for veto in inner)
        return None if answer == "none" else 5

    name = house_rule("golf", forbid_action=forbid_action)
    game = cardcore.new_game("golf", 2, rules=[name], seed=3)
    before = fingerprint(game)
    try:
        legal = game.legal_actions(0)
    except PluginError as failure:
        assert fingerprint(game) == before
        assert failure.plugin == name
        return
    assert legal, "every action of the seat was vetoed by an answer that is not a list"


def test_an_on_event_wrapper_is_called_or_refused(house_rule: Callable[..., str]) -> None:
    seen: list[str] = []

    @hookimpl(wrapper=True)
    def on_event(event: Event) -> Any:
        seen.append(event.slug)
        return (yield)

    name = house_rule("golf", on_event=on_event)
    try:
        game = cardcore.new_game("golf", 2, rules=[name], seed=3)
    except PluginError as failure:
        assert failure.plugin == name
        return
    game.act(0, "flip 0")
    assert "action-applied" in seen


def test_a_wrapper_that_swallows_another_rule_s_failure_is_blamed_for_its_answer(
    house_rule: Callable[..., str],
) -> None:
    @hookimpl(wrapper=True)
    def score_round(scores: Any) -> Any:
        try:
            inner = yield
        except Exception:
            return "swallowed"
        return inner

    @hookimpl
    def failing(scores: Any) -> None:
        raise ValueError("inner rule down")

    wrapper = house_rule("golf", score_round=score_round)
    inner = house_rule("golf", score_round=failing)
    game = cardcore.new_game("golf", 2, rules=[wrapper, inner], options=OPTIONS["golf"], seed=3)
    failure, (fp, saved) = _play_until_error(game, 1)
    assert failure.plugin == wrapper and "'swallowed'" in str(failure)
    assert fingerprint(game) == fp and _dump(game) == saved and _conserved(game)


# --- plugins while a save loads; hooks that are not deterministic -------------------------------


@pytest.mark.parametrize("via", ["load", "replay"])
@pytest.mark.parametrize("hook", ["score_round", "forbid_action"])
def test_a_plugin_failing_while_a_save_loads_is_a_plugin_error_naming_it(
    house_rule: Callable[..., str], via: str, hook: str
) -> None:
    down = {"on": False}

    @hookimpl
    def score_round(scores: Any) -> None:
        if down["on"]:
            raise ConnectionError("scoring service down")

    @hookimpl
    def forbid_action(action: cardcore.Action) -> None:
        if down["on"]:
            raise ConnectionError("veto service down")

    hooks = {"score_round": score_round, "forbid_action": forbid_action}
    name = house_rule("golf", **{hook: hooks[hook]})
    game = cardcore.new_game("golf", 2, rules=[name], options={"rounds": 1}, seed=3)
    _finish(game, 1)
    saved = game.save() if via == "load" else game.record()
    down["on"] = True  # the service is down while the host loads the save
    with pytest.raises(PluginError) as failure:
        (cardcore.load if via == "load" else cardcore.replay)(saved)
    assert failure.value.plugin == name


def test_a_score_round_that_is_not_deterministic_is_named_when_its_save_loads(
    house_rule: Callable[..., str],
) -> None:
    calls = itertools.count(2)  # another factor at every call: the replay scores otherwise

    @hookimpl
    def score_round(scores: Any) -> list[int]:
        factor = next(calls)
        return [s * factor for s in scores]

    name = house_rule("golf", score_round=score_round)
    game = cardcore.new_game("golf", 2, rules=[name], options={"rounds": 2}, seed=3)
    rng = random.Random(1)
    while not game.is_over:
        _step(game, rng)
    try:
        cardcore.load(game.save())
    except cardcore.CardcoreError as error:
        assert name in str(error), str(error)


# --- a hook that keeps the state and changes it later -------------------------------------------


def test_a_card_lost_through_a_kept_state_never_makes_an_unloadable_save(
    house_rule: Callable[..., str],
) -> None:
    kept: list[GameState] = []

    @hookimpl
    def forbid_action(state: GameState, action: cardcore.Action) -> None:
        kept.append(state)

    name = house_rule("golf", forbid_action=forbid_action)
    game = cardcore.new_game("golf", 2, rules=[name], seed=3)
    game.view(0)
    assert kept and kept[-1] is game.state  # the live state reaches the hook
    _lose_a_card(kept[-1])  # later, outside any hook: the plugin's own timer, say
    try:
        saved = game.save()
    except cardcore.CardcoreError:
        return  # refused when saving: acceptable
    cardcore.load(saved)  # a save the game itself wrote must load
