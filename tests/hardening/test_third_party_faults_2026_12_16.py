"""Hostile house rules against the third-party test games (``tests/plugins/``): Spades and
Spite and Malice (2026-12-16, with their own house rules), Bridge, Euchre, Gin Rummy and
Nertz (2026-12-15, Nertz in real time).

The promise under test (docs/security.rst "Failing handlers and plugins", docs/hooks.rst,
docs/events.rst, the Game docstring): a hook that fails (raises an Exception or a
``KeyboardInterrupt``, changes the state and then raises, answers garbage) leaves the game
exactly as it was (position, record, version, every seat's view and legal actions), every
card in exactly one place, the caller gets a :class:`~cardcore.PluginError` naming the rule
(a ``BaseException`` as it is), and no other subscriber loses an event. Each fault fires on
the k-th call of the hook inside one ``apply``; the game is then driven on and compared with
the same game played without the fault. Everything is deterministic (fixed seeds; hypothesis
with ``derandomize=True``).
"""

from __future__ import annotations

import json
import random
import types
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardcore
from cardcore import SPECTATOR, ActionApplied, Event, PluginError, RuleInfo, hookimpl
from tests.plugins import bridge_2026_12_15 as bridge
from tests.plugins import euchre_2026_12_15 as euchre
from tests.plugins import gin_2026_12_15 as gin
from tests.plugins import gin_rules_2026_12_15 as gin_rules
from tests.plugins import nertz_2026_12_15 as nertz
from tests.plugins import spades_2026_12_16 as spades
from tests.plugins import spades_rules_2026_12_16 as spades_rules
from tests.plugins import spite_2026_12_16 as spite
from tests.plugins import spite_rules_2026_12_16 as spite_rules

GAMES = (spades, spite, bridge, euchre, gin, nertz)
RULES = (spades_rules, spite_rules, gin_rules)
PLAYERS = {
    spades.NAME: 4,
    spite.NAME: 2,
    bridge.NAME: 4,
    euchre.NAME: 4,
    gin.NAME: 2,
    nertz.NAME: 2,
}


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    for module in GAMES:
        cardcore.register("cardcore.games", module.NAME, module)
    for module in RULES:
        cardcore.register("cardcore.rules", module.NAME, module)
    yield
    for module in RULES:
        cardcore.unregister("cardcore.rules", module.NAME)
    for module in GAMES:
        cardcore.unregister("cardcore.games", module.NAME)


_made: list[str] = []


@pytest.fixture(autouse=True)
def hostile_cleanup() -> Iterator[None]:
    yield
    while _made:
        cardcore.unregister("cardcore.rules", _made.pop())


def hostile(game: str, tag: str, **hooks: Any) -> str:
    """Register a throw-away house rule of *game* with *hooks* (removed after the test)."""
    name = f"{game}.hostile-{tag}"
    if name in _made:
        return name
    module = types.ModuleType(name.replace("-", "_").replace(".", "_"))
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id=f"TEST-TPF-{len(_made) + 1}", name=name, game=game, summary="hostile"
    )
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    _made.append(name)
    return name


class Fault:
    """Fires on the *countdown*-th call of the hook while armed: raises, is interrupted, or
    loses a card and changes who acts and then raises."""

    def __init__(self) -> None:
        self.armed, self.countdown, self.mode, self.fired = False, 0, "raise", 0
        self.calls = 0  # calls while armed, fired or not

    def hit(self, state: Any = None) -> None:
        if not self.armed:
            return
        self.calls += 1
        self.countdown -= 1
        if self.countdown > 0:
            return
        self.armed = False
        self.fired += 1
        if self.mode == "interrupt":
            raise KeyboardInterrupt
        if self.mode == "vandal" and state is not None:
            for pile in state.zones.cards:
                if pile:
                    pile.pop()
                    break
            state.to_act = (7,)
        raise RuntimeError("the rule's service went down")


FAULT = Fault()


def fault_rule(game: str, hook: str) -> str:
    if hook == "score_round":

        @hookimpl
        def impl(state: Any, scores: Any) -> None:
            FAULT.hit(state)

    elif hook == "forbid_action":

        @hookimpl
        def impl(state: Any, action: Any) -> None:
            FAULT.hit(state)

    elif hook == "spite_wild_labels":

        @hookimpl
        def impl(options: Any) -> None:
            FAULT.hit(None)

    else:
        assert hook == "gin_knock_limit"

        @hookimpl
        def impl(upcard: Any, options: Any) -> None:
            FAULT.hit(None)

    return hostile(game, hook.replace("_", "-"), **{hook: impl})


def conserved(game: cardcore.Game) -> bool:
    deck = game.logic.deck(len(game.players), game.options)
    return Counter(game.state.zones.all_cards()) == Counter(deck)


def snapshot(game: cardcore.Game) -> dict[str, Any]:
    seats = range(len(game.players))
    return {
        "save": json.dumps(game.save(), sort_keys=True),
        "record": json.dumps(game.record(), sort_keys=True),
        "version": game.version,
        "position": game.position(),
        "views": [game.view(s) for s in [*seats, None]],
        "legal": [[str(a) for a in game.legal_actions(s)] for s in seats],
    }


def choose(game: cardcore.Game, rng: random.Random) -> cardcore.Action:
    seats = [s for s in game.to_act if game.legal_actions(s)]
    legal = game.legal_actions(rng.choice(seats))
    calm = [a for a in legal if type(a).__name__ != "Stuck"]  # Nertz: keep the race going
    return rng.choice(calm or legal)


def versions(events: list[Event]) -> list[int]:
    return [e.version for e in events if isinstance(e, ActionApplied)]


def play(
    game_name: str,
    rules: list[str],
    options: dict[str, int],
    seed: int,
    steps: int,
    fault: tuple[str, int] | None,
    rule: str,
) -> tuple[cardcore.Game, list[Any], list[Any], int]:
    """Play *steps* actions; with *fault* (mode, k), arm it for every apply and check each
    failed apply; return the game, the JSON of two seats' streams and the faults seen
    (without *fault*: the most calls of the hook inside one apply)."""
    game = cardcore.new_game(
        game_name, PLAYERS[game_name], rules=[*rules, rule], options=options, seed=seed
    )
    heard0: list[Event] = []
    heard_spec: list[Event] = []
    game.events.subscribe(Event, heard0.append, seat=0)
    game.events.subscribe(Event, heard_spec.append, seat=SPECTATOR)
    rng = random.Random(seed)
    failures = most = 0
    for _ in range(steps):
        if game.is_over:
            break
        action = choose(game, rng)
        before = snapshot(game) if fault else None
        FAULT.calls = 0
        if fault:
            FAULT.armed, FAULT.mode, FAULT.countdown = True, fault[0], fault[1]
        else:  # count the calls only: never fire
            FAULT.armed, FAULT.countdown = True, 1 << 60
        version = game.version
        try:
            game.apply(action)
        except (PluginError, KeyboardInterrupt) as error:
            FAULT.armed = False
            failures += 1
            if isinstance(error, PluginError):
                assert error.plugin == rule, error
                assert game.version == version
            if game.version == version:  # refused: nothing changed
                assert snapshot(game) == before
                assert conserved(game)
                game.apply(action)  # the same action goes through once the rule works
            # else: documented: an interrupt while the next legal actions were computed
            # comes after the action stood and its events were delivered
        finally:
            FAULT.armed = False
        most = max(most, FAULT.calls)
        assert conserved(game)
    assert versions(heard0) == list(range(1, game.version + 1))
    assert versions(heard_spec) == list(range(1, game.version + 1))
    streams = [[e.to_json() for e in heard0], [e.to_json() for e in heard_spec]]
    return game, streams, [], failures if fault else most


CASES = [
    pytest.param(spades.NAME, [], {}, "score_round", 70, id="spades-score_round"),
    pytest.param(
        spades.NAME,
        [spades_rules.NAME],
        {"blind_nil_deficit": 0},
        "forbid_action",
        40,
        id="spades+blind-nil-forbid_action",
    ),
    pytest.param(
        spite.NAME,
        [spite_rules.NAME],
        {"payoff": 2, "spite_jokers": 2},
        "spite_wild_labels",
        60,
        id="spite+jokers-spite_wild_labels",
    ),
    pytest.param(spite.NAME, [], {"payoff": 1}, "score_round", 200, id="spite-score_round"),
    pytest.param(gin.NAME, [gin_rules.NAME], {}, "gin_knock_limit", 150, id="gin+ok-knock_limit"),
    pytest.param(euchre.NAME, [], {}, "score_round", 60, id="euchre-score_round"),
    pytest.param(bridge.NAME, [], {}, "score_round", 120, id="bridge-score_round"),
    pytest.param(nertz.NAME, [], {}, "forbid_action", 30, id="nertz-forbid_action"),
]


#: Hooks called inside ``apply`` (Nertz, real time, lists its legal actions when asked).
IN_APPLY = [c for c in CASES if c.id != "nertz-forbid_action"]
WHILE_LISTING = [c for c in CASES if c.id == "nertz-forbid_action"]


@pytest.mark.parametrize(("game_name", "rules", "options", "hook", "steps"), IN_APPLY)
@settings(
    max_examples=6,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    mode=st.sampled_from(["raise", "interrupt", "vandal"]),
    k=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=3),
)
def test_a_hook_failing_at_any_point_changes_nothing_and_costs_no_event(
    game_name: str,
    rules: list[str],
    options: dict[str, int],
    hook: str,
    steps: int,
    mode: str,
    k: int,
    seed: int,
) -> None:
    rule = fault_rule(game_name, hook)
    clean, clean_streams, _, most = play(game_name, rules, options, seed, steps, None, rule)
    assert most >= 1  # the hook runs inside some apply: the fault below has a call to fail
    k = 1 + (k - 1) % most  # the k-th call of the hook inside the apply that calls it most
    FAULT.fired = 0
    faulty, streams, _, _ = play(game_name, rules, options, seed, steps, (mode, k), rule)
    assert FAULT.fired >= 1  # (a failure while the next legal actions are listed is no error)
    assert snapshot(faulty) == snapshot(clean)
    assert streams == clean_streams


@pytest.mark.parametrize(("game_name", "rules", "options", "hook", "steps"), WHILE_LISTING)
@pytest.mark.parametrize("mode", ["raise", "interrupt", "vandal"])
def test_a_forbid_action_failing_while_the_legal_actions_are_listed_changes_nothing(
    game_name: str, rules: list[str], options: dict[str, int], hook: str, steps: int, mode: str
) -> None:
    """At every step the first listing of the legal actions meets the failing hook: the
    caller gets the error, nothing changed, and the next listing (the rule working again)
    gives what a game without the fault gives."""
    rule = fault_rule(game_name, hook)
    clean = cardcore.new_game(
        game_name, PLAYERS[game_name], rules=[*rules, rule], options=options, seed=3
    )
    game = cardcore.new_game(
        game_name, PLAYERS[game_name], rules=[*rules, rule], options=options, seed=3
    )
    rng = random.Random(3)
    fired = 0
    for _ in range(steps):
        if game.is_over:
            break
        before = (json.dumps(game.save(), sort_keys=True), game.version, game.position())
        seat = game.to_act[0]
        FAULT.armed, FAULT.mode, FAULT.countdown, FAULT.fired = True, mode, 1, 0
        try:
            game.legal_actions(seat)
        except PluginError as error:
            assert error.plugin == rule, error
        except KeyboardInterrupt:
            pass
        finally:
            FAULT.armed = False
        fired += FAULT.fired
        after = (json.dumps(game.save(), sort_keys=True), game.version, game.position())
        assert after == before
        assert conserved(game)
        assert snapshot(game) == snapshot(clean)
        action = choose(game, rng)
        game.apply(action)
        clean.apply(action)
    assert fired >= steps // 2  # the hook was met at (nearly) every step


@pytest.mark.parametrize(
    ("game_name", "rules", "options", "hook", "steps"),
    [CASES[0], CASES[2], CASES[4], CASES[5], CASES[6]],
)
def test_the_fault_injection_does_fire(
    game_name: str, rules: list[str], options: dict[str, int], hook: str, steps: int
) -> None:
    """The driver above is not vacuous: with k=1 each of these hooks fails at least once
    inside an apply on seed 0, and the failures were refused and undone."""
    rule = fault_rule(game_name, hook)
    _, _, _, failures = play(game_name, rules, options, 0, steps, ("vandal", 1), rule)
    assert failures >= 1


@pytest.mark.parametrize("game_name", [spades.NAME, euchre.NAME, bridge.NAME])
def test_a_subscriber_that_fails_or_drops_another_costs_the_others_no_event(
    game_name: str,
) -> None:
    """docs/security.rst: each handler is isolated; a raising handler (and an ``on_error``
    that raises), a KeyboardInterrupt from a handler and a handler that unsubscribes another
    mid-delivery cost the other seats none of their events, and every action stays applied."""
    game = cardcore.new_game(game_name, 4, seed=3)
    got: dict[str, list[Event]] = {"a": [], "b": [], "c": [], "d": []}
    subs: dict[str, Any] = {}
    failures: list[Any] = []

    def a(event: Event) -> None:
        got["a"].append(event)
        if len(got["a"]) == 5:
            game.events.unsubscribe(subs["b"])
        if len(got["a"]) % 3 == 0:
            raise RuntimeError("socket closed")

    def c(event: Event) -> None:
        got["c"].append(event)
        if len(got["c"]) % 4 == 0:
            raise KeyboardInterrupt

    def on_error(failure: Any) -> None:
        failures.append(failure)
        raise ZeroDivisionError("on_error fails too")

    subs["a"] = game.events.subscribe(Event, a, seat=1)
    subs["b"] = game.events.subscribe(Event, got["b"].append, seat=2)
    subs["c"] = game.events.subscribe(Event, c, seat=SPECTATOR)
    subs["d"] = game.events.subscribe(Event, got["d"].append, seat=0)
    game.events.on_error = on_error
    rng = random.Random(3)
    interrupts = 0
    for _ in range(40):
        version = game.version
        action = choose(game, rng)
        try:
            game.apply(action)
        except KeyboardInterrupt:
            interrupts += 1
        assert game.version == version + 1  # the action stands
    every = list(range(1, 41))
    assert versions(got["a"]) == versions(got["c"]) == versions(got["d"]) == every
    assert interrupts >= 5 and len(failures) >= 5
    assert versions(got["b"]) == every[: len(versions(got["b"]))]
    assert len(versions(got["b"])) < 40
    assert conserved(game)


@pytest.mark.parametrize("answer", [5, object(), 2.5])
def test_spite_wild_labels_garbage_is_a_plugin_error_and_changes_nothing(answer: Any) -> None:
    """A jokers rule answering garbage for Spite's own hook: reads fail with a PluginError
    (no raw TypeError) and the game is unchanged."""

    @hookimpl
    def spite_wild_labels(options: Any) -> Any:
        return answer

    rule = hostile(spite.NAME, f"wild-{type(answer).__name__}", spite_wild_labels=spite_wild_labels)
    game = cardcore.new_game(spite.NAME, 2, rules=[rule], seed=1)
    save = json.dumps(game.save(), sort_keys=True)
    with pytest.raises(PluginError):
        game.legal_actions(0)
    with pytest.raises(PluginError):
        game.view(0)
    assert json.dumps(game.save(), sort_keys=True) == save and game.version == 0


def test_spite_wild_labels_garbage_names_the_house_rule() -> None:
    @hookimpl
    def spite_wild_labels(options: Any) -> Any:
        return 5

    rule = hostile(spite.NAME, "wild-blame", spite_wild_labels=spite_wild_labels)
    game = cardcore.new_game(spite.NAME, 2, rules=[rule], seed=1)
    with pytest.raises(PluginError) as info:
        game.legal_actions(0)
    assert info.value.plugin == rule


@pytest.mark.parametrize(("answer", "blamed"), [("3", True), (2.5, True), (True, True)])
def test_gin_knock_limit_garbage_is_refused_by_name_at_the_deal(answer: Any, blamed: bool) -> None:
    @hookimpl
    def gin_knock_limit(upcard: Any, options: Any) -> Any:
        return answer

    rule = hostile(gin.NAME, f"limit-{type(answer).__name__}", gin_knock_limit=gin_knock_limit)
    with pytest.raises(PluginError) as info:
        cardcore.new_game(gin.NAME, 2, rules=[rule], seed=1)
    assert info.value.plugin == rule


VETO_ARMED = {"on": False}


def _losing_veto(state: Any, action: Any) -> None:
    """A veto that loses a card of the table and then answers 'allowed'."""
    if VETO_ARMED["on"]:
        for pile in state.zones.cards:
            if pile:
                pile.pop()
                break
    return None


@pytest.mark.parametrize("game_name", [spades.NAME, spite.NAME])
def test_a_veto_that_loses_a_card_and_raises_in_a_read_is_undone(game_name: str) -> None:
    """The raising twin of the xfail below holds: the read fails by the rule's name and the
    game is as it was."""

    @hookimpl
    def forbid_action(state: Any, action: Any) -> None:
        if VETO_ARMED["on"]:
            _losing_veto(state, action)
            raise RuntimeError("veto service down")

    rule = hostile(game_name, "veto-raises", forbid_action=forbid_action)
    reference = cardcore.new_game(game_name, PLAYERS[game_name], rules=[rule], seed=5)
    game = cardcore.new_game(game_name, PLAYERS[game_name], rules=[rule], seed=5)
    VETO_ARMED["on"] = True
    try:
        with pytest.raises(PluginError) as info:
            game.legal_actions(game.to_act[0])
    finally:
        VETO_ARMED["on"] = False
    assert info.value.plugin == rule
    assert snapshot(game) == snapshot(reference) and conserved(game)


@pytest.mark.parametrize("game_name", [spades.NAME, spite.NAME])
def test_a_veto_that_loses_a_card_and_returns_is_refused_and_undone(game_name: str) -> None:
    rule = hostile(game_name, "veto-loses", forbid_action=hookimpl(_losing_veto))
    reference = cardcore.new_game(game_name, PLAYERS[game_name], rules=[rule], seed=5)
    game = cardcore.new_game(game_name, PLAYERS[game_name], rules=[rule], seed=5)
    VETO_ARMED["on"] = True
    try:
        with pytest.raises(PluginError) as info:
            game.legal_actions(game.to_act[0])
    finally:
        VETO_ARMED["on"] = False
    assert info.value.plugin == rule
    assert conserved(game)
    assert snapshot(game) == snapshot(reference)


@pytest.mark.parametrize("mode", ["raise", "interrupt", "vandal"])
def test_nertz_a_veto_failing_while_a_stale_action_is_judged_changes_nothing(mode: str) -> None:
    """Real time: an act with an old ``seen`` while a veto fails; if it is refused the game
    is as it was, if it went through the game matches a clone that applied it cleanly."""
    rule = fault_rule(nertz.NAME, "forbid_action")
    game = cardcore.new_game(nertz.NAME, 2, rules=[rule], seed=4)
    rng = random.Random(4)
    for _ in range(20):
        game.apply(choose(game, rng))
    seen = game.version - 8
    for seat in (0, 1):
        text = str(game.legal_actions(seat)[0])
        before = snapshot(game)
        clean = game.clone()
        FAULT.armed, FAULT.mode, FAULT.countdown = True, mode, 1
        try:
            game.act(seat, text, seen=seen)
        except (PluginError, KeyboardInterrupt, cardcore.IllegalActionError) as error:
            if isinstance(error, PluginError):
                assert error.plugin == rule
            if game.version == before["version"]:
                assert snapshot(game) == before
        finally:
            FAULT.armed = False
        if game.version != before["version"]:
            clean.act(seat, text, seen=seen)
            assert snapshot(game) == snapshot(clean)
        assert conserved(game)


@pytest.mark.parametrize("failure", [RuntimeError("log sink down"), KeyboardInterrupt()])
def test_an_on_event_observer_that_raises_costs_no_subscriber_an_event(
    failure: BaseException,
) -> None:
    """docs/security.rst: a plugin's on_event is isolated like a handler; a BaseException
    from it comes out of the act, which stays applied, after every handler had the batch."""
    calls = [0]

    @hookimpl
    def on_event(event: Event) -> None:
        calls[0] += 1
        if calls[0] % 7 == 0:
            raise failure

    rule = hostile(spades.NAME, f"observer-{type(failure).__name__}", on_event=on_event)
    game = cardcore.new_game(spades.NAME, 4, rules=[rule], seed=2)
    heard: list[Event] = []
    game.events.subscribe(Event, heard.append, seat=3)
    rng = random.Random(2)
    raised = 0
    for _ in range(60):
        version = game.version
        try:
            game.apply(choose(game, rng))
        except KeyboardInterrupt:
            raised += 1
        assert game.version == version + 1
    assert versions(heard) == list(range(1, 61))
    assert (raised > 0) == isinstance(failure, KeyboardInterrupt)
    assert conserved(game)
