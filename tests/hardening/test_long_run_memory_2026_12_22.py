"""Long-run memory review of 2026-12-22: a server or training loop that runs for days.

Every module-level cache found in ``src/`` and ``plugins/`` is driven with many distinct
inputs and must stay within its bound; games, sessions and search worlds that are dropped
must be freed; caches keyed by ``id()`` must never hand a stale entry to a new object
that reuses a dead object's id. Growth is counted in entries and live objects, never in
wall-clock time. Strict xfails mark the growth that has no bound.
"""

from __future__ import annotations

import contextlib
import gc
import json
import random
import threading

import attrs
import pytest

import cardcore
import cardcore_golf.actions as golf_actions
import cardcore_tonk.actions as tonk_actions
from cardcore import plugins, positions
from cardcore.agents import _LENT
from cardcore.session import Hub, MemoryStore, Session

GAMES = [("golf", 2), ("tonk", 3), ("spit", 2), ("speed", 2), ("gofish", 3)]
REALTIME = {"spit", "speed"}


def _live(kind: type) -> int:
    gc.collect()
    return sum(type(o) is kind for o in gc.get_objects())


def _alive_games() -> set[int]:
    """The ids of the games alive now. A test compares sets, not counts: a game of an earlier
    test in the same process (held by a thread that has just ended) may be freed meanwhile."""
    gc.collect()
    return {id(o) for o in gc.get_objects() if type(o) is cardcore.Game}


def _play(game: cardcore.Game, players: int, limit: int) -> None:
    agents = [cardcore.RandomAgent() for _ in range(players)]
    if game.name in REALTIME:
        cardcore.run_realtime(game, agents, max_actions=limit)
    else:
        cardcore.play(game, agents, max_actions=limit)


# -- games dropped, with and without subscribers ------------------------------------------


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_dropped_games_are_freed_with_and_without_subscribers(name: str, players: int) -> None:
    """A game dropped by its host is freed: its bus, subscriptions and handlers (even one
    that closes over the game) keep nothing alive, and the runners' lent views are gone."""
    before = _alive_games()
    seen: list[object] = []
    for mode in ("none", "given", "subscribed", "unsubscribed"):
        for seed in range(3):
            given = [(cardcore.Event, seen.append)] if mode == "given" else ()
            game = cardcore.new_game(name, players, seed=seed, subscribers=given)
            if mode == "subscribed":
                game.events.subscribe(cardcore.Event, lambda e, g=game: g.version)
            if mode == "unsubscribed":
                sub = game.events.subscribe(cardcore.Event, seen.append)
                game.events.unsubscribe(sub)
            _play(game, players, 40)
            del game
    assert _alive_games() - before == set()
    assert len(_LENT) == 0


def test_subscribe_unsubscribe_churn_on_one_game_is_flat() -> None:
    """A long-lived game whose spectators come and go (subscribe, unsubscribe) does not grow."""
    game = cardcore.new_game("golf", 2, seed=1)

    def churn(n: int) -> None:
        for i in range(n):
            sub = game.events.subscribe(cardcore.Event, lambda e: None, seat=i % 2)
            game.legal_actions(game.to_act[0])
            game.events.unsubscribe(sub)

    churn(200)
    gc.collect()
    base = len(gc.get_objects())
    churn(2000)
    gc.collect()
    assert len(gc.get_objects()) - base < 100  # a leak would leave about 2,000 subscriptions


@pytest.mark.parametrize(("name", "players"), [("golf", 2), ("tonk", 3), ("gofish", 3)])
def test_determinize_and_clone_loop_is_flat(name: str, players: int) -> None:
    """A search loop's worlds (determinize, clone, apply) are freed after each iteration."""
    game = cardcore.new_game(name, players, seed=9)
    seat = game.to_act[0]

    def loop(n: int) -> None:
        for i in range(n):
            world = game.determinize(seat, i)
            copy = world.clone()
            if copy.to_act:
                copy.apply(copy.legal_actions(copy.to_act[0])[0])

    loop(100)
    games = _alive_games()
    base = len(gc.get_objects())
    loop(600)
    assert _alive_games() - games == set()
    assert len(gc.get_objects()) - base < 200  # a leak would keep hundreds of worlds


# -- rulesets and per-configuration caches -------------------------------------------------


def _golf_rule_sets(n: int) -> list[tuple[tuple[str, ...], int]]:
    """Up to *n* distinct Golf rule sets that new_game accepts (with the layout they need)."""
    rules = list(cardcore.available_rules("golf"))
    rnd = random.Random(1)
    found: dict[tuple[str, ...], int] = {}
    for _ in range(4000):
        chosen = tuple(sorted(rnd.sample(rules, rnd.randrange(0, 4))))
        if chosen in found:
            continue
        for layout in (6, 4):
            try:
                cardcore.new_game("golf", 2, rules=chosen, options={"layout": layout}, seed=0)
            except cardcore.CardcoreError:
                continue
            found[chosen] = layout
            break
        if len(found) >= n:
            break
    return list(found.items())


def test_ruleset_cache_stays_within_its_bound() -> None:
    """get_ruleset with hundreds of distinct rule combinations (names and IDs) keeps at most
    RULESET_CACHE entries, and every answer is still the ruleset asked for."""
    combos = _golf_rule_sets(400)
    assert len(combos) > 150
    for chosen, _ in combos:
        ruleset = cardcore.get_ruleset("golf", chosen)
        assert set(chosen) <= {r.name for r in ruleset.rules}
        ids = [cardcore.rule_info(r).id for r in chosen]
        assert {r.name for r in cardcore.get_ruleset("golf", ids).rules} == {
            r.name for r in ruleset.rules
        }
    assert len(plugins._rulesets) <= plugins.RULESET_CACHE


def test_ruleset_cache_under_threads_gives_the_right_ruleset() -> None:
    """Four threads build games with varied rules while four call get_ruleset, over more
    combinations than the cache holds: no exception, every game has the rules it asked for."""
    combos = _golf_rule_sets(400)
    expected = {
        c: tuple(sorted(r.name for r in cardcore.get_ruleset("golf", c).rules)) for c, _ in combos
    }
    plugins._rulesets.clear()  # (under no other thread: this test is alone here)
    problems: list[object] = []

    def worker(index: int) -> None:
        rnd = random.Random(index)
        for j in range(250):
            chosen, layout = rnd.choice(combos)
            try:
                if index < 4:
                    game = cardcore.new_game(
                        "golf", 2, rules=chosen, options={"layout": layout}, seed=j
                    )
                    got = tuple(sorted(game.rules))
                else:
                    got = tuple(sorted(r.name for r in cardcore.get_ruleset("golf", chosen).rules))
            except Exception as exc:
                problems.append(exc)
                continue
            if got != expected[chosen]:
                problems.append((chosen, got))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert problems == []
    assert len(plugins._rulesets) <= plugins.RULESET_CACHE


def test_checked_options_and_plans_stay_bounded() -> None:
    """new_game with a thousand distinct option values keeps the ruleset's checked options,
    the logic's decks and Golf's plans within their bounds."""
    from cardcore.logic import DECK_CACHE
    from cardcore_golf.logic import PLAN_CACHE

    ruleset = cardcore.get_ruleset("golf")
    for i in range(1000):
        cardcore.new_game(
            "golf", 2, options={"max_turns": 100 + i % 900, "points_limit": 50 + i // 2}, seed=i
        )
    assert len(ruleset.checked) <= 64
    assert len(ruleset.logic._decks) <= DECK_CACHE
    assert len(ruleset.logic._plans) <= PLAN_CACHE


def test_spit_rank_cache_stays_within_its_bound() -> None:
    """Spit's combine/fill cache by top ranks stays at most RANK_CACHE entries a seat."""
    from cardcore_spit.logic import RANK_CACHE

    logic = cardcore.new_game("spit", 2, seed=1).logic
    rnd = random.Random(3)
    for _ in range(RANK_CACHE + 2000):
        logic._moves(0, [rnd.randrange(-1, 13) for _ in range(5)])
    assert len(logic._rank_cache[0]) <= RANK_CACHE


# -- interning tables ----------------------------------------------------------------------


def test_tonk_interning_of_client_text_is_bounded() -> None:
    """Refused spreads and hits sent as text (a client's junk) do not grow Tonk's interning
    tables beyond the finite set of (spread number, card) pairs."""
    game = cardcore.new_game("tonk", 2, seed=1)
    spreads = [len(t) for t in tonk_actions._SPREADS]
    cards = [str(c) for c in cardcore.standard_52()]
    rnd = random.Random(0)
    for _ in range(3000):
        seat = game.to_act[0]
        for text in (
            "spread " + " ".join(rnd.sample(cards, rnd.randrange(3, 6))),
            f"hit {rnd.randrange(1, 200)} {rnd.choice(cards)}",
        ):
            with contextlib.suppress(cardcore.CardcoreError):
                game.act(seat, text)
    assert [len(t) for t in tonk_actions._SPREADS] == spreads  # text never interns a spread
    assert all(len(t) <= tonk_actions.MAX_SPREADS * 64 for t in tonk_actions._HITS)


def test_golf_text_with_huge_positions_interns_nothing() -> None:
    """Golf's notation refuses out-of-range positions before interning."""
    game = cardcore.new_game("golf", 2, seed=1)
    before = len(golf_actions._INTERNED)
    for i in range(1000):
        for text in (f"replace {10**6 + i}", f"flip {10**6 + i}", f"peek {10**6 + i}"):
            with pytest.raises(cardcore.CardcoreError):
                game.act(game.to_act[0], text)
    assert len(golf_actions._INTERNED) == before


def test_golf_constructing_out_of_range_actions_keeps_the_table_bounded() -> None:
    before = len(golf_actions._INTERNED)
    for i in range(1000):
        golf_actions.Replace(0, 10**6 + i)
    assert len(golf_actions._INTERNED) - before < 100


# -- caches keyed by id() ------------------------------------------------------------------


def test_deck_id_cache_never_returns_a_dead_decks_entry() -> None:
    """positions._deck_ids is keyed by id(deck): a new deck that reuses a dead deck's id gets
    its own count, not the dead one's (the entry keeps its deck and checks identity)."""
    cards = list(cardcore.standard_52())
    rnd = random.Random(5)
    for _ in range(2000):
        deck = rnd.sample(cards, rnd.randrange(1, 10))
        counts = positions._deck_ids(deck)
        assert counts == {id(c): deck.count(c) for c in deck}
        del deck  # its id may be reused by the next list
    assert len(positions._DECKS) <= positions._CACHE


@pytest.mark.parametrize(("name", "players"), [("spit", 2), ("speed", 2), ("tonk", 2)])
def test_encoding_action_cache_is_identity_checked(name: str, players: int) -> None:
    """The RL encodings cache action indices by id(action): an action built fresh (so with
    a possibly reused id) gets its own index, the same as its interned twin's."""
    from cardcore.rl import encoding_for

    game = cardcore.new_game(name, players, seed=2)
    seat = game.to_act[0]
    encoding = encoding_for(game)
    view = game.view(seat)
    legal = list(game.legal_actions(seat))
    want = list(encoding.action_indices(view, legal))
    for _ in range(200):
        fresh = [attrs.evolve(a) for a in legal]  # new objects where the game does not intern
        assert list(encoding.action_indices(view, fresh)) == want
        del fresh


# -- sessions ------------------------------------------------------------------------------


def _session_cycles(hub: Hub, start: int, n: int) -> None:
    for i in range(start, start + n):
        now = float(i)
        session = hub.create("golf", ["A", "B"], now=now, seed=i)
        a, b, w = f"a{i}", f"b{i}", f"w{i}"
        hub.handle(a, json.dumps({"type": "join", "seat": 0, "session": session.id}), now)
        hub.handle(b, json.dumps({"type": "join", "seat": 1, "session": session.id}), now)
        hub.handle(w, json.dumps({"type": "watch", "session": session.id}), now)
        hub.handle(a, json.dumps({"type": "act", "action": "flip 0", "seen": 0}), now)
        for conn in (a, b, w):
            hub.disconnect(conn, now)
        hub.close(session.id, now)


def test_hub_frees_closed_sessions_connections_and_limiter_buckets() -> None:
    """After create, join, watch, act, disconnect and close, the hub holds nothing of it:
    no session, route or rate-limiter bucket, and no Session object stays alive (of its own:
    another test in the same process may keep its own alive)."""
    before = _live(Session)
    hub = Hub(MemoryStore())
    _session_cycles(hub, 0, 40)
    assert hub.sessions == {}
    assert hub._routes == {}
    assert hub._limiter._buckets == {}
    assert _live(Session) == before


def test_memory_store_does_not_keep_closed_sessions_forever() -> None:
    store = MemoryStore()
    hub = Hub(store)
    _session_cycles(hub, 0, 60)
    assert len(store.session_ids(statuses=("closed",))) < 30
