"""Claims of docs/embedding.rst, docs/agents.rst, docs/search-agents.rst and
docs/performance.rst, checked against the real behaviour (docs audit of 2026-12-16).

Figures are re-measured by hand and reported with the review, never asserted here.
Every game is seeded or stacked; no test depends on a random deal.
"""

from __future__ import annotations

import copy
import logging
import pickle
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import (
    CardcoreError,
    IllegalActionError,
    OptionError,
    Plan,
    RandomAgent,
    Resign,
    StaleActionError,
    StalledGameError,
    new_game,
)
from cardcore.search import ISMCTSAgent, sample_position

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "core" / "data"

# the stacked Spit deck of docs/embedding.rst (the Spit worked example)
SPIT_DECK = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)


def spit_ready() -> cardcore.Game:
    game = new_game("spit", ["Ann", "Bob"], deck=SPIT_DECK, seed=2)
    game.act(0, "ready")
    game.act(1, "ready")
    return game


def play_randomly(game: cardcore.Game, steps: int, seed: int) -> cardcore.Game:
    """Apply *steps* seeded random actions (never ``resign``) to the first seat to act."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        legal = [a for a in game.legal_actions(game.to_act[0]) if str(a) != "resign"]
        if not legal:
            break
        game.apply(legal[rng.randrange(len(legal))])
    return game


class Quick:
    """The real-time agent of docs/agents.rst: the first legal action after a fixed delay."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        return Plan(legal[0], self.delay) if legal else None


# -- embedding.rst: one game, many callers ---------------------------------------------------


def test_rejected_action_changes_nothing_not_even_events_or_record() -> None:
    """embedding.rst:26-29: a rejected action changes no state, version, event or record."""
    game = new_game("tonk", ["Ann", "Bob", "Cy"], seed=5)
    heard: list[Any] = []
    game.events.subscribe(cardcore.Event, heard.append)
    saved, record = game.save(), game.record()
    for seat, text in [(0, "draw"), (1, "fly away"), (1, "discard QQ")]:
        with pytest.raises(cardcore.CardcoreError) as info:
            game.act(seat, text)
        assert str(info.value).endswith(f"({info.value.rule_id})")
    assert heard == []
    assert game.version == 0
    assert game.save() == saved
    assert game.record() == record


def test_stale_rejection_in_spit_changes_nothing() -> None:
    """embedding.rst:26-29 in real time: a stale action leaves the game as it was."""
    game = spit_ready()
    game.act(0, "play 1 L", at=1.0)
    saved = game.save()
    with pytest.raises(StaleActionError):
        game.act(1, "play 3 L", at=1.1, seen=2)
    assert game.save() == saved


def test_staleness_is_judged_by_legality_alone() -> None:
    """embedding.rst:55-62: legal at seen but not now -> stale; legal now -> applied
    whatever changed; never legal -> illegal."""
    game = spit_ready()
    game.act(0, "play 1 L", seen=2)
    with pytest.raises(StaleActionError):
        game.clone().act(1, "play 3 L", seen=2)
    with pytest.raises(IllegalActionError):
        game.clone().act(1, "play 1 L", seen=2)
    later = game.clone()
    later.act(1, "play 5 R", seen=2)  # legal at 2 and still legal at 3
    assert later.version == 4


def test_seen_must_lie_within_the_window() -> None:
    """embedding.rst:67-70: seen within STALE_WINDOW versions; older (or later) is refused."""
    game = play_randomly(new_game("golf", 2, seed=3), 80, seed=0)
    now = game.version
    assert now == 80
    window = cardcore.STALE_WINDOW

    def first(g: cardcore.Game) -> cardcore.Action:
        return next(a for a in g.legal_actions(g.to_act[0]) if str(a) != "resign")

    ok = game.clone()
    ok.apply(first(ok), seen=now - window)
    for seen in (now - window - 1, now + 1):
        bad = game.clone()
        with pytest.raises(IllegalActionError, match="CORE-RT-3"):
            bad.apply(first(bad), seen=seen)
        assert bad.version == now


def test_turn_based_seen_is_only_checked_against_the_window() -> None:
    """embedding.rst:58-61: in a turn-based game an old seen does not make an action stale."""
    game = new_game("golf", 2, seed=3)
    game.act(0, "flip 0")
    with pytest.raises(IllegalActionError) as info:
        game.act(1, "flip 1", seen=0)  # not seat 1's turn
    assert not isinstance(info.value, StaleActionError)


def test_realtime_times_in_order_and_the_clock_read_under_the_lock() -> None:
    """embedding.rst:95-107: an earlier time is refused; a clock's exception reaches the
    caller as it is; a clock value that is no time is refused naming the clock, nothing
    applied; at=None records no time."""
    game = spit_ready()
    game.act(0, "play 1 L", at=lambda: 3.0)
    assert game.record()["actions"][-1] == [0, "play 1 L", 3.0]
    with pytest.raises(IllegalActionError, match="CORE-RECORD-1"):
        game.clone().act(1, "play 5 R", at=2.0)

    def boom() -> float:
        raise ZeroDivisionError("the host's clock")

    with pytest.raises(ZeroDivisionError, match="the host's clock"):
        game.act(1, "play 5 R", at=boom)
    assert game.version == 3
    for bad in ("x", float("nan"), True, None):
        with pytest.raises(IllegalActionError, match="the clock passed as at"):
            game.act(1, "play 5 R", at=lambda bad=bad: bad)
        assert game.version == 3
    game.act(1, "play 5 R")
    assert game.record()["actions"][-1] == [1, "play 5 R", None]


def test_reads_are_pure() -> None:
    """embedding.rst:109-112: view, legal_actions and history change nothing."""
    game = play_randomly(new_game("golf", 3, seed=2), 10, seed=1)
    saved, record, version = game.save(), game.record(), game.version
    for seat in (None, 0, 1, 2):
        game.view(seat)
        game.history(seat)
    for seat in range(3):
        game.legal_actions(seat)
    assert (game.save(), game.record(), game.version) == (saved, record, version)


# -- embedding.rst: threads ------------------------------------------------------------------


def test_a_handler_that_applies_is_queued_behind_the_current_events() -> None:
    """embedding.rst:122-123: not deadlocked, delivered in version order."""
    game = new_game("golf", 2, seed=7)
    heard: list[tuple[str, int]] = []

    def handler(event: Any) -> None:
        heard.append((event.slug, game.version))
        if event.slug == "card-revealed" and game.version == 1:
            game.act(0, "flip 4")

    game.events.subscribe(cardcore.Event, handler)
    game.act(0, "flip 0")
    assert game.version == 2
    slugs = [slug for slug, _ in heard]
    assert slugs == [
        "action-applied",
        "card-revealed",
        "action-applied",
        "card-revealed",
        "turn-passed",
    ]


def test_handlers_run_in_the_thread_that_applied() -> None:
    """embedding.rst:155-156: subscribers run in the applying thread, after the lock."""
    game = new_game("golf", 2, seed=7)
    who: list[tuple[str, str]] = []
    first = threading.Event()

    def handler(event: Any) -> None:
        name = threading.current_thread().name
        who.append((event.slug, name))
        if name == "A" and not first.is_set():
            first.set()
            time.sleep(0.2)  # thread B applies meanwhile

    game.events.subscribe(cardcore.Event, handler)
    a = threading.Thread(target=lambda: game.act(0, "flip 0"), name="A")
    b = threading.Thread(target=lambda: (first.wait(), game.act(0, "flip 4")), name="B")
    a.start()
    b.start()
    a.join()
    b.join()
    assert who == [
        ("action-applied", "A"),
        ("card-revealed", "A"),
        ("action-applied", "B"),
        ("card-revealed", "B"),
        ("turn-passed", "B"),
    ]


def test_concurrent_apply_is_atomic() -> None:
    """embedding.rst:120-121: threads calling apply at once leave a consistent game."""
    game = new_game("golf", 2, seed=9, options={"rounds": 1})
    errors: list[BaseException] = []

    def worker(k: int) -> None:
        rng = random.Random(k)
        for _ in range(150):
            if game.is_over:
                return
            try:
                legal = [a for a in game.legal_actions(game.to_act[0]) if str(a) != "resign"]
                game.apply(legal[rng.randrange(len(legal))])
            except cardcore.CardcoreError:
                pass  # another thread came first: refused, nothing changed
            except BaseException as exc:  # collected for the assertion
                errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert game.version == len(game.record()["actions"])
    again = cardcore.load(game.save())  # replays and checks every card
    assert again.view(None) == game.view(None)


def test_single_thread_is_inherited_by_clones_and_worlds() -> None:
    """embedding.rst:141-145: single_thread() drops the hot lock; clones inherit it."""
    solo = new_game("golf", 2, seed=4).single_thread()
    for copy_ in (solo.clone(), copy.copy(solo), solo.determinize(0, seed=1)):
        assert copy_._hot_lock is None  # the lock single_thread() drops
    assert new_game("golf", 2, seed=4).clone()._hot_lock is not None
    # every other guarantee stands: a handler that applies is still queued
    solo.events.subscribe(
        cardcore.Event, lambda e: solo.act(0, "flip 4") if solo.version == 1 else None
    )
    solo.act(0, "flip 0")
    assert solo.version == 2


# -- embedding.rst: events, views, saves, records ----------------------------------------------


def test_a_failing_handler_costs_no_other_handler_its_events() -> None:
    """embedding.rst:280-286: on_error receives a DeliveryFailure; drop_on_error drops."""
    game = new_game("golf", 2, seed=7)
    calls: dict[str, list[Any]] = {"bad": [], "good": [], "spectator": [], "failures": []}

    def bad(event: Any) -> None:
        calls["bad"].append(event.slug)
        raise RuntimeError("dropped connection")

    game.events.subscribe(cardcore.Event, bad, drop_on_error=True)
    game.events.subscribe(cardcore.Event, lambda e: calls["good"].append(e.slug))
    game.events.subscribe(
        cardcore.Event, lambda e: calls["spectator"].append(e.slug), seat=cardcore.SPECTATOR
    )
    game.events.on_error = calls["failures"].append
    logging.disable(logging.CRITICAL)
    try:
        game.act(0, "flip 0")
        game.act(0, "flip 4")
    finally:
        logging.disable(logging.NOTSET)
    assert calls["bad"] == ["action-applied"]
    assert len(calls["good"]) == len(calls["spectator"]) == 5
    assert [type(f).__name__ for f in calls["failures"]] == ["DeliveryFailure"]


def test_zones_are_listed_in_the_same_order_in_every_view() -> None:
    """embedding.rst:220: same pile order in every view of a game."""
    for name, players, seed, steps in [("golf", 3, 2, 15), ("tonk", 3, 4, 3), ("spit", 2, 3, 15)]:
        game = play_randomly(new_game(name, players, seed=seed), steps, seed=2)
        orders = {
            tuple(z["name"] for z in game.view(seat)["zones"]) for seat in (None, *range(players))
        }
        assert len(orders) == 1, name


def test_default_actions_golf_flips_tonk_draws_then_discards() -> None:
    """embedding.rst:291-298."""
    golf = new_game("golf", 2, seed=7)
    assert str(golf.logic.default_action(golf.state, 0)).startswith("flip ")
    tonk = new_game("tonk", 3, seed=5)
    seat = tonk.to_act[0]
    first = tonk.logic.default_action(tonk.state, seat)
    assert str(first) == "draw"
    tonk.apply(first)
    assert str(tonk.logic.default_action(tonk.state, seat)).startswith("discard ")


def test_format_1_and_2_records_replay_and_are_recorded_in_format_2() -> None:
    """embedding.rst:328-330."""
    for path in sorted(DATA.glob("*_v[12]_record.json")):
        if path.name.startswith("drawgame"):
            continue  # a test-only game of its own module
        game = cardcore.replay(path.read_text(encoding="utf-8"))
        assert game.record()["format_version"] == 2, path.name


def test_a_bad_position_raises_option_error() -> None:
    """embedding.rst:356-357."""
    for text in ("garbage", "", "golf 1 2 3"):
        with pytest.raises(OptionError):
            new_game("spit", 2, position=text, seed=1)


def test_clone_is_independent_and_heard_by_no_subscriber() -> None:
    """embedding.rst:369-371: state and record copied, no subscribers, independent."""
    game = spit_ready()
    game.act(0, "play 1 L", at=1.2)
    heard: list[Any] = []
    game.events.subscribe(cardcore.Event, heard.append)
    branch = game.clone()
    assert branch.record() == game.record()
    position = game.position()
    play_randomly(branch, 20, seed=3)
    assert branch.version > game.version
    assert heard == []
    assert game.position() == position and game.version == 3


def test_the_host_may_end_and_it_is_recorded() -> None:
    """embedding.rst:385-387."""
    game = new_game("golf", 2, seed=7)
    game.act(cardcore.HOST, "end")
    assert game.is_over
    assert game.record()["actions"] == [[-1, "end", None]]
    assert cardcore.replay(game.record()).is_over


def test_simulate_gives_the_same_summary_with_any_executor() -> None:
    """embedding.rst:405-409 (threads; processes are the page's own doctest)."""
    here = cardcore.simulate("golf", games=6, players=2, seed=3, options={"rounds": 1})
    with ThreadPoolExecutor(2) as pool:
        there = cardcore.simulate(
            "golf", games=6, players=2, seed=3, options={"rounds": 1}, executor=pool, chunk=1
        )
    assert here == there


def test_own_loop_reaching_the_action_bound_ends_truncated() -> None:
    """embedding.rst:395-400: GameEnded comes with the last action's events; the record
    replays. Golf never ends when nobody replaces a card (draw, discard, GOLF-GAP-5)."""
    game = new_game("golf", 2, seed=4)
    bound = game.logic.action_bound(len(game.players), game.options)
    heard: list[tuple[int, str]] = []
    game.events.subscribe(cardcore.Event, lambda e: heard.append((game.version, e.slug)))
    for text in ("flip 0", "flip 4", "flip 1", "flip 5"):
        game.act(game.to_act[0], text)
    while not game.is_over:
        seat = game.to_act[0]
        names = [str(a) for a in game.legal_actions(seat)]
        game.act(
            seat, "draw" if "draw" in names else next(n for n in names if n.startswith("discard"))
        )
    assert game.version == bound
    assert game.result.reason == "truncated"
    assert heard[-1] == (bound, "game-ended")
    assert heard[-4][1] == "action-applied" and heard[-4][0] == bound
    again = cardcore.replay(game.record())
    assert again.is_over and again.result.reason == "truncated"


def test_a_hand_turned_face_up_is_listed_sorted() -> None:
    """embedding.rst:224-227: a dropped Tonk hand shows sorted, its drawn order private."""
    game = new_game("tonk", 3, seed=5)
    game.act(1, "drop")
    order = {
        r: i
        for i, r in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
    }
    suits = {s: i for i, s in enumerate("SHDC")}
    for seat in (None, 0, 1, 2):
        zones = {z["name"]: z for z in game.view(seat)["zones"]}
        for i in range(3):
            cards = zones[f"hand.{i}"]["cards"]
            assert None not in cards
            assert cards == sorted(cards, key=lambda c: (order[c[:-1]], suits[c[-1]]))


def test_no_pluggy_call_per_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """performance.rst:2163-2164: no pluggy call per decision (Golf, Spit)."""
    from pluggy._hooks import HookCaller

    games = [new_game("golf", 4, seed=3), spit_ready()]
    called: list[str] = []
    call = HookCaller.__call__

    def counting(self: HookCaller, *args: Any, **kwargs: Any) -> Any:
        called.append(self.name)
        return call(self, *args, **kwargs)

    monkeypatch.setattr(HookCaller, "__call__", counting)
    for game in games:
        play_randomly(game, 200, seed=1)
        assert game.version > 100
    assert called == []


# -- agents.rst -------------------------------------------------------------------------------


def test_play_refuses_other_seats_non_actions_and_real_time() -> None:
    """agents.rst:19-24: IllegalActionError naming seat and class; the agent's own
    exception as it is, game unchanged; a real-time game is an OptionError."""

    class OtherSeat:
        def choose(self, view: Any, legal: Any) -> Any:
            return Resign(seat=1 - legal[0].seat)

    class Text:
        def choose(self, view: Any, legal: Any) -> Any:
            return str(legal[0])

    class Boom:
        def choose(self, view: Any, legal: Any) -> Any:
            raise KeyError("the agent's own bug")

    for agent, error, words in [
        (OtherSeat(), IllegalActionError, "seat 0 (OtherSeat)"),
        (Text(), IllegalActionError, "seat 0 (Text)"),
        (Boom(), KeyError, "the agent's own bug"),
    ]:
        game = new_game("golf", 2, seed=4)
        saved = game.save()
        with pytest.raises(error, match=re.escape(words)):
            cardcore.play(game, [agent, agent])
        assert game.save() == saved
    with pytest.raises(OptionError, match="run_realtime"):
        cardcore.play(new_game("spit", 2, seed=1), [RandomAgent(0), RandomAgent(1)])


def test_legal_is_a_tuple_in_the_order_of_the_views_text() -> None:
    """agents.rst:13-16."""
    seen: list[bool] = []

    class Check:
        def choose(self, view: Any, legal: Any) -> Any:
            seen.append(type(legal) is tuple and [str(a) for a in legal] == view["legal"])
            return legal[-1]

    for name, players in (("golf", 2), ("tonk", 3)):
        cardcore.play(new_game(name, players, seed=6), [Check()] * players, max_actions=40)
    assert seen and all(seen)


def test_the_lazy_view_is_built_only_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """agents.rst:43-45: an agent that ignores its view costs no view."""
    built: list[int] = []
    view = cardcore.Game.view

    def counting(self: cardcore.Game, seat: Any = None) -> Any:
        built.append(seat)
        return view(self, seat)

    monkeypatch.setattr(cardcore.Game, "view", counting)
    game = new_game("golf", 2, seed=4)
    cardcore.play(game, [RandomAgent(0), RandomAgent(1)], max_actions=30)
    assert built == []

    class Reader:
        def choose(self, view: Any, legal: Any) -> Any:
            assert isinstance(view, cardcore.LazyView)
            assert view["seat"] == legal[0].seat
            return legal[0]

    cardcore.play(new_game("golf", 2, seed=4), [Reader(), Reader()], max_actions=4)
    assert len(built) == 4


def test_run_realtime_ties_are_drawn_by_seed_not_by_seat() -> None:
    """agents.rst:54-56: equal due times broken by a seeded draw, never by seat order."""
    firsts = set()
    for seed in range(8):
        game = new_game("speed", ["A", "B"], seed=3)
        cardcore.run_realtime(game, [Quick(0.5), Quick(0.5)], seed=seed, max_actions=3)
        firsts.add(game.record()["actions"][0][0])
    assert firsts == {0, 1}
    records = []
    for _ in range(2):
        game = new_game("speed", ["A", "B"], seed=3)
        cardcore.run_realtime(game, [Quick(0.5), Quick(0.5)], seed=4, max_actions=40)
        records.append(game.record())
    assert records[0] == records[1]


def test_run_realtime_replans_only_invalidated_agents() -> None:
    """agents.rst:56-57: after each apply only agents whose plan became illegal plan again."""

    class Track:
        def __init__(self, delay: float) -> None:
            self.delay = delay
            self.pending: Any = None
            self.replanned_while_legal = 0

        def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
            if self.pending is not None and self.pending in legal:
                self.replanned_while_legal += 1
            self.pending = legal[0] if legal else None
            return Plan(legal[0], self.delay) if legal else None

    agents = [Track(0.5), Track(0.7)]

    def applied(game: cardcore.Game, action: Any, at: float) -> None:
        agents[action.seat].pending = None  # its plan was consumed

    game = new_game("speed", ["A", "B"], seed=3)
    cardcore.run_realtime(game, agents, seed=1, max_actions=60, on_action=applied)
    assert game.version > 20
    assert [a.replanned_while_legal for a in agents] == [0, 0]


def test_run_realtime_delays_start_and_bad_plans() -> None:
    """agents.rst:58-68: negative delay is 0; an early start begins at the last time;
    bad plans stop the game naming seat and class; nobody planning stalls."""
    game = new_game("speed", ["A", "B"], seed=3)
    cardcore.run_realtime(game, [Quick(-5.0), Quick(-5.0)], seed=1, max_actions=2, start=10.0)
    assert [at for _, _, at in game.record()["actions"]] == [10.0, 10.0]

    game = new_game("speed", ["A", "B"], seed=3)
    game.act(0, str(game.legal_actions(0)[0]), at=10.0)
    cardcore.run_realtime(game, [Quick(1.0), Quick(1.0)], seed=1, max_actions=3, start=0.0)
    assert [at for _, _, at in game.record()["actions"]][:3] == [10.0, 11.0, 12.0]

    class Planner:
        def __init__(self, make: Any) -> None:
            self.make = make

        def plan(self, view: Any, legal: Any, now: float) -> Any:
            return self.make(legal)

    for make, error, words in [
        (lambda legal: "x", CardcoreError, "seat 0 (Planner)"),
        (lambda legal: Plan(legal[0], float("inf")), CardcoreError, "seat 0 (Planner)"),
        (lambda legal: (legal[0], 0.1), CardcoreError, "seat 0 (Planner)"),
        (lambda legal: Plan(legal[0], 2e15), CardcoreError, "1e+15"),
        (lambda legal: Plan(Resign(seat=1), 0.1), IllegalActionError, "seat 0 (Planner)"),
    ]:
        game = new_game("speed", ["A", "B"], seed=3)
        with pytest.raises(error, match=re.escape(words)):
            cardcore.run_realtime(game, [Planner(make), Quick(1.0)], seed=1)

    class Never:
        def plan(self, view: Any, legal: Any, now: float) -> None:
            return None

    with pytest.raises(StalledGameError, match="no agent plans"):
        cardcore.run_realtime(new_game("speed", ["A", "B"], seed=3), [Never(), Never()], seed=1)


def test_agents_declaring_games_are_refused_elsewhere() -> None:
    """agents.rst:130-133, with play and run_realtime too."""
    golf_only = cardcore.load_agent("golf-greedy")
    with pytest.raises(CardcoreError, match="plays golf, not 'tonk'"):
        cardcore.play(new_game("tonk", 2, seed=4), [golf_only(seed=0), RandomAgent(1)])

    class OnlyGolf:
        games = ("golf",)

        def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
            return Plan(legal[0], 0.1) if legal else None

    with pytest.raises(CardcoreError, match="plays golf, not 'spit'"):
        cardcore.run_realtime(new_game("spit", 2, seed=4), [OnlyGolf(), OnlyGolf()], seed=1)


def test_simulate_calls_an_agent_factory_with_seed() -> None:
    """agents.rst:101-104: simulate calls factory(seed=...)."""
    calls: list[dict[str, Any]] = []

    def factory(**kwargs: Any) -> RandomAgent:
        calls.append(kwargs)
        return RandomAgent(kwargs["seed"])

    cardcore.register("cardcore.agents", "docs-audit-capture", factory)
    try:
        cardcore.simulate(
            "golf",
            games=2,
            players=2,
            seed=1,
            options={"rounds": 1},
            agents=["docs-audit-capture", "random"],
        )
    finally:  # left registered, it became the web lobby's first (default) bot of later tests
        cardcore.unregister("cardcore.agents", "docs-audit-capture")
    assert len(calls) == 2
    assert all(set(kw) == {"seed"} for kw in calls)


BUILT_IN = ("random", "golf-greedy", "tonk-heuristic", "spit-greedy", "spit-human", "ismcts")


@pytest.fixture
def with_ismcts() -> Iterator[None]:
    registered = "ismcts" in cardcore.available_agents()
    if not registered:
        cardcore.register("cardcore.agents", "ismcts", ISMCTSAgent)
    yield
    if not registered:
        cardcore.unregister("cardcore.agents", "ismcts")


@pytest.mark.usefixtures("with_ismcts")
def test_the_parameter_table_matches_the_agents() -> None:
    """search-agents.rst:260-279 and agents.rst:153-157: defaults and bounds as listed;
    every numeric parameter but seed bounded."""
    table = {
        "random": (
            {"seed": 0, "reaction": 0.5, "spread": 0.3},
            {"reaction": (0, 60), "spread": (0, 3)},
        ),
        "ismcts": (
            {
                "seed": 0,
                "iterations": 200,
                "time": None,
                "c": 0.7,
                "rollout": "game",
                "max_rollout": 500,
                "observe": True,
                "depth": None,
                "prior": 1.0,
                "reuse": 1,
                "reaction": 0.5,
                "spread": 0.3,
            },
            {
                "iterations": (1, 2000),
                "time": (0, 2),
                "c": (0, 100),
                "max_rollout": (1, 1000),
                "depth": (1, 1000),
                "prior": (0, 100),
                "reuse": (1, 2000),
                "reaction": (0, 60),
                "spread": (0, 3),
            },
        ),
        "golf-greedy": ({"seed": 0}, {}),
        "tonk-heuristic": (
            {"seed": 0, "samples": 48, "drop_margin": 0.9},
            {"samples": (1, 10000), "drop_margin": (-100, 100)},
        ),
        "spit-greedy": (
            {"seed": 0, "mean": 0.3, "sigma": 0.35},
            {"mean": (0, 60), "sigma": (0, 3)},
        ),
        "spit-human": ({"seed": 0, "mean": 0.9, "sigma": 0.5}, {"mean": (0, 60), "sigma": (0, 3)}),
    }
    for name, (defaults, bounds) in table.items():
        assert cardcore.agent_parameters(name) == defaults, name
        assert dict(getattr(cardcore.load_agent(name), "parameter_bounds", {})) == bounds, name


@pytest.mark.usefixtures("with_ismcts")
def test_a_negative_seed_is_refused_by_every_built_in_agent() -> None:
    """agents.rst:155-157."""
    for name in BUILT_IN:
        with pytest.raises(OptionError):
            cardcore.load_agent(name, seed=-1)
        with pytest.raises(OptionError):
            cardcore.load_agent(name)(seed=-1)


@pytest.mark.usefixtures("with_ismcts")
def test_bounded_parameters_refuse_bool_nan_and_text_by_name() -> None:
    """agents.rst:149-153; the built-in game agents check their bounds built directly too."""
    for name, key in [("tonk-heuristic", "samples"), ("spit-greedy", "mean"), ("ismcts", "c")]:
        for value in (True, float("nan"), "5", 10**9):
            with pytest.raises(OptionError, match=key):
                cardcore.load_agent(name, **{key: value})
    for name, key, value in [
        ("tonk-heuristic", "samples", 10**9),
        ("spit-greedy", "mean", 100.0),
        ("spit-human", "sigma", 5.0),
    ]:
        with pytest.raises(OptionError):
            cardcore.load_agent(name)(**{key: value})


def test_determinize_keeps_the_seat_view_and_cannot_be_saved_or_recorded() -> None:
    """agents.rst:176-180, for every seat of three games, mid-game."""
    for name, players, seed, steps in [("golf", 3, 2, 12), ("spit", 2, 3, 12), ("tonk", 3, 8, 1)]:
        game = play_randomly(new_game(name, players, seed=seed), steps, seed=1)
        for seat in range(players):
            for world_seed in range(3):
                twin = game.determinize(seat, seed=world_seed)
                assert twin.view(seat) == game.view(seat)
                assert [str(a) for a in twin.legal_actions(seat)] == [
                    str(a) for a in game.legal_actions(seat)
                ]
    twin = new_game("golf", 2, seed=8).determinize(0, seed=1)
    for copy_ in (twin, twin.clone(), copy.deepcopy(twin), twin.determinize(1, seed=2)):
        with pytest.raises(CardcoreError, match="determinized"):
            copy_.save()
        with pytest.raises(CardcoreError, match="determinized"):
            copy_.record()
    with pytest.raises(CardcoreError, match="determinized"):
        pickle.dumps(twin)


def test_determinized_chance_comes_from_its_seed_not_the_games() -> None:
    """agents.rst:176-180 (Game.determinize): the same position under two game seeds gives
    the same world and the same future shuffles."""
    real = new_game("golf", 2, seed=8)
    other = new_game("golf", 2, position=real.position(), seed=999)
    a, b = real.determinize(0, seed=1), other.determinize(0, seed=1)
    assert a.position() == b.position() != real.position()
    rng = random.Random(0)
    rounds = len(a.history(None))
    while len(a.history(None)) < rounds + 2:  # two round ends: two fresh deals
        la, lb = a.legal_actions(a.to_act[0]), b.legal_actions(b.to_act[0])
        assert [str(x) for x in la] == [str(x) for x in lb]
        i = rng.randrange(len(la))
        a.apply(la[i])
        b.apply(lb[i])
    assert a.position() == b.position()


def test_a_world_from_a_position_has_its_own_chance() -> None:
    """agents.rst:189-193: a world started from the real position with its own seed does
    not see the real game's next deal."""
    real = new_game("golf", 2, seed=8)
    world = new_game("golf", 2, position=real.position(), seed=12345)
    rng = random.Random(0)
    while not real.history(None):  # play both to the end of the first round
        legal = real.legal_actions(real.to_act[0])
        action = str(legal[rng.randrange(len(legal))])
        real.act(real.to_act[0], action)
        world.act(world.to_act[0], action)
    assert real.view(None)["zones"] != world.view(None)["zones"]


# -- search-agents.rst ------------------------------------------------------------------------


@pytest.mark.usefixtures("with_ismcts")
def test_ismcts_budgets() -> None:
    """search-agents.rst:71-77: iterations default 200; time alone keeps the cap;
    iterations=none by name; at least one iteration runs."""
    assert ISMCTSAgent().iterations == 200
    assert ISMCTSAgent(time=0.5).iterations == 200
    assert cardcore.load_agent("ismcts:time=0.5,iterations=none").iterations is None
    game = new_game("golf", 2, seed=7, options={"rounds": 1})
    game.act(0, "flip 0")
    game.act(0, "flip 4")
    game.act(1, "flip 1")
    game.act(1, "flip 5")
    bot = ISMCTSAgent(seed=1, iterations=None, time=1e-9)
    bot.choose(game.view(0), game.legal_actions(0))
    assert bot.last_iterations >= 1


def test_ismcts_one_legal_action_is_taken_without_a_search() -> None:
    """search-agents.rst:57-58."""
    game = new_game("golf", 2, seed=7)
    bot = ISMCTSAgent(seed=1, iterations=5)
    legal = game.legal_actions(0)
    bot.choose(game.view(0), legal)
    assert bot.last_iterations == 5
    assert bot.choose(game.view(0), legal[:1]) is legal[0]
    assert bot.last_iterations == 0


def test_ismcts_reuse_draws_one_sample_per_k_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    """search-agents.rst:59-65: iterations=40, reuse=4 -> 10 samples."""
    drawn: list[int] = []
    sample = ISMCTSAgent._sample

    def counting(self: ISMCTSAgent, *args: Any) -> Any:
        drawn.append(1)
        return sample(self, *args)

    monkeypatch.setattr(ISMCTSAgent, "_sample", counting)
    game = new_game("golf", 2, seed=7)
    bot = ISMCTSAgent(seed=1, iterations=40, reuse=4)
    bot.choose(game.view(0), game.legal_actions(0))
    assert bot.last_iterations == 40
    assert len(drawn) == 10


def test_ismcts_redraws_a_refused_sample_20_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """search-agents.rst:137-139: then CardcoreError naming the game and the complaint."""
    import cardcore.search.ismcts as ismcts

    tries: list[int] = []

    def bad(*args: Any) -> str:
        tries.append(1)
        return "golf not a position"

    monkeypatch.setattr(ismcts, "sample_of", bad)
    game = new_game("golf", 2, seed=7)
    with pytest.raises(CardcoreError, match=r"'golf'.*bad position"):
        ISMCTSAgent(seed=1, iterations=5).choose(game.view(0), game.legal_actions(0))
    assert len(tries) == 20


def test_ismcts_in_real_time_plans_nothing_without_a_legal_action() -> None:
    """search-agents.rst:90-91."""
    game = spit_ready()
    assert ISMCTSAgent(seed=1, iterations=3).plan(game.view(0), (), 0.0) is None


def test_ismcts_is_deterministic_across_processes() -> None:
    """search-agents.rst:77-78: same seed and iteration budget, same choices on any machine
    (here: two processes with other string hashing)."""
    script = (
        "import cardcore\n"
        "from cardcore.search import ISMCTSAgent\n"
        "out = []\n"
        "for name, opts, n in (('golf', {'rounds': 1}, 2), ('tonk', {}, 3)):\n"
        "    g = cardcore.new_game(name, n, seed=11, options=opts)\n"
        "    agents = [ISMCTSAgent(seed=7, iterations=10)] + [cardcore.RandomAgent(i) for i in range(1, n)]\n"
        "    cardcore.play(g, agents, max_actions=40)\n"
        "    out.append(g.record()['actions'])\n"
        "print(out)\n"
    )
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**__import__("os").environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=60,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("'") > 10


def test_a_sample_shows_the_seat_what_it_sees() -> None:
    """search-agents.rst:297-300: a sample keeps every card the view shows where it lies."""
    for name, players, seed, steps in [("golf", 3, 2, 15), ("spit", 2, 3, 15)]:
        game = play_randomly(new_game(name, players, seed=seed), steps, seed=2)
        for seat in range(players):
            view = game.view(seat)
            for k in range(2):
                world = new_game(
                    name, players, position=sample_position(view, random.Random(k)), seed=1
                )
                shown = world.view(seat)
                assert {key: v for key, v in shown.items() if key != "version"} == {
                    key: v for key, v in view.items() if key != "version"
                }


# -- performance.rst --------------------------------------------------------------------------


def test_tonk_new_game_draws_two_chance_streams_and_seeds_no_random(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """performance.rst (corrected): since record format 3 a Tonk game's two chance events
    (the cut, the deal) are Chance streams; no random.Random is seeded."""
    new_game("tonk", 3, seed=5)  # the configuration's cache, built once
    seeded: list[int] = []
    streams: list[tuple[int, int]] = []
    seed = random.Random.seed
    init = cardcore.Chance.__init__

    def counting(self: random.Random, *args: Any, **kwargs: Any) -> Any:
        seeded.append(1)
        return seed(self, *args, **kwargs)

    def chance(self: cardcore.Chance, game_seed: int, counter: int) -> None:
        streams.append((game_seed, counter))
        init(self, game_seed, counter)

    monkeypatch.setattr(random.Random, "seed", counting)
    monkeypatch.setattr(cardcore.Chance, "__init__", chance)
    new_game("tonk", 3, seed=6)
    assert not seeded
    assert len(streams) == 2 and {s for s, _ in streams} == {6} and streams[0] == (6, 0)
    assert streams[1][1] > 0  # the cut's own counter


def test_simulate_chunks_fifty_games_and_run_py_cuts_eight() -> None:
    """performance.rst (corrected): simulate's own chunk is 50 games (20 games: one task);
    benchmarks/run.py passes chunk=games // 8."""

    class Counting(ThreadPoolExecutor):
        tasks = 0

        def map(self, fn: Any, *iterables: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            items = list(iterables[0])
            Counting.tasks = len(items)
            return super().map(fn, items, **kwargs)

    with Counting(2) as pool:
        cardcore.simulate("golf", games=20, players=2, seed=1, options={"rounds": 1}, executor=pool)
    assert Counting.tasks == 1
    with Counting(2) as pool:
        cardcore.simulate(
            "golf", games=24, players=2, seed=1, options={"rounds": 1}, executor=pool, chunk=3
        )
    assert Counting.tasks == 8
    bench = (Path(__file__).resolve().parents[1] / "benchmarks" / "run.py").read_text()
    assert "chunk=" in bench and "// 8" in bench
