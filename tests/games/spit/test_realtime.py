"""Real-time behaviour: threads, stale actions, seeded determinism under run_realtime."""

from __future__ import annotations

import random
import sys
import threading
import time

import pytest
from tests.games.spit.helpers import speed_arrange

import cardcore
from cardcore import IllegalActionError, StaleActionError
from cardcore.testing import assert_conserved
from cardcore_spit.actions import Claim, Play
from cardcore_spit.agents import (
    GreedyBot,
    HumanBot,
    SpitBot,
    SpitGreedyAgent,
    SpitHumanAgent,
    reaction_delay,
)
from cardcore_spit.speed.actions import PlayCard


def _racer(
    game: cardcore.Game,
    seat: int,
    seed: int,
    stop: threading.Event,
    errors: list[BaseException],
    rejected: list[object],
) -> None:
    rng = random.Random(seed)
    try:
        while not stop.is_set() and not game.is_over:
            legal = game.legal_actions(seat)
            if not legal:
                continue
            plays = [a for a in legal if isinstance(a, Play | Claim | PlayCard)]
            action = rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(legal)
            try:
                game.apply(action)
            except IllegalActionError:
                rejected.append(action)  # stale or overtaken: the other thread was first
    except BaseException as exc:  # pragma: no cover - reported below
        errors.append(exc)


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_spit_rt_1_two_threads_never_corrupt_state(name: str) -> None:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        for seed in range(3):
            game = cardcore.new_game(name, 2, seed=seed)
            stop = threading.Event()
            errors: list[BaseException] = []
            rejected: list[object] = []
            threads = [
                threading.Thread(
                    target=_racer, args=(game, s, seed * 10 + s, stop, errors, rejected)
                )
                for s in (0, 1)
            ]
            for t in threads:
                t.start()
            for _ in range(40):  # check conservation on consistent snapshots while they race
                snap = game.clone()
                assert_conserved(snap)
                if game.is_over:
                    break
                threading.Event().wait(0.002)
            stop.set()
            for t in threads:
                t.join()
            assert not errors
            assert_conserved(game)
            assert {seat for seat, _, _ in game.record_entries()} == {0, 1}  # both threads acted
            # the record replays to the very same state: nothing was half-applied
            again = cardcore.replay(game.record())
            assert again.state.snapshot() == game.state.snapshot()
    finally:
        sys.setswitchinterval(old)


def test_spit_rt_1_speed_two_plays_on_one_pile() -> None:
    game = speed_arrange(
        cardcore.new_game("speed", 2, seed=1),
        "6H 2C 2D JC JD",
        "4C 3D 3H 3S 8C",
        left="5S",
        right="KH",
    )
    v = game.version  # both seats see 5S on L
    game.act(0, "play 6H L")
    with pytest.raises(
        StaleActionError, match="CORE-RT-1"
    ):  # 4C on 5S was legal when seat 1 looked
        game.act(1, "play 4C L", seen=v)
    with pytest.raises(IllegalActionError, match="SPIT-MOVE-2") as info:  # judged against now only
        game.act(1, "play 4C L")
    assert not isinstance(info.value, StaleActionError)
    with pytest.raises(IllegalActionError, match=r"\(SPIT-MOVE-2\)") as info:  # 8C on 5S never was
        game.act(1, "play 8C L", seen=v)
    assert not isinstance(info.value, StaleActionError)
    assert game.version == v + 1


def test_spit_rt_1_seen_outside_the_window_is_refused() -> None:
    game = speed_arrange(
        cardcore.new_game("speed", 2, seed=1),
        "6H 2C 2D JC JD",
        "4C 3D 3H 3S 8C",
        left="5S",
        right="KH",
    )
    with pytest.raises(IllegalActionError, match="outside the window") as info:
        game.act(1, "play 8C L", seen=game.version + 1)
    assert not isinstance(info.value, StaleActionError)


def _run(
    name: str, seed: int, agents: list[SpitGreedyAgent], **options: int
) -> list[tuple[int, str, float | None]]:
    game = cardcore.new_game(name, 2, seed=seed, options=options or None)
    cardcore.run_realtime(game, agents, seed=seed)
    return [(s, str(a), at) for s, a, at in game.record_entries()]


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_spit_rt_2_same_seed_same_game_and_timestamps(name: str) -> None:
    a = _run(name, 11, [SpitGreedyAgent(seed=1), SpitHumanAgent(seed=2)])
    b = _run(name, 11, [SpitGreedyAgent(seed=1), SpitHumanAgent(seed=2)])
    assert a == b and len(a) > 10
    assert all(x[2] is not None for x in a)
    assert [t for _, _, t in a] == sorted(t for _, _, t in a if t is not None)  # time order
    c = _run(name, 11, [SpitGreedyAgent(seed=3), SpitHumanAgent(seed=2)])
    assert c != a


def test_spit_rt_2_bots_registered_and_parameterised() -> None:
    assert {"spit-greedy", "spit-human"} <= set(cardcore.available_agents())
    assert cardcore.load_agent("spit-greedy") is SpitGreedyAgent
    assert cardcore.load_agent("spit-human") is SpitHumanAgent
    fast = cardcore.load_agent("spit-greedy")(seed=1)
    slow = cardcore.load_agent("spit-human")(seed=1)
    assert isinstance(fast, cardcore.RealtimeAgent)
    assert isinstance(fast, SpitGreedyAgent) and isinstance(slow, SpitGreedyAgent)
    assert fast.mean == 0.3 and slow.mean == 0.9
    # the old names stay as aliases
    assert SpitBot is GreedyBot is SpitGreedyAgent and HumanBot is SpitHumanAgent
    rng = random.Random(0)
    draws = [reaction_delay(rng, 0.9, 0.5) for _ in range(4000)]
    assert abs(sum(draws) / len(draws) - 0.9) < 0.03  # lognormal with the stated mean


@pytest.mark.parametrize("name", ["spit", "speed"])
def test_save_load_and_replay_round_trip(name: str) -> None:
    game = cardcore.new_game(name, 2, seed=4)
    cardcore.run_realtime(game, [SpitGreedyAgent(seed=1), SpitHumanAgent(seed=2)], seed=1)
    loaded = cardcore.load(game.save())
    assert loaded.state.snapshot() == game.state.snapshot() and loaded.result == game.result
    assert cardcore.replay(game.record()).result == game.result


def test_events_for_a_seat_never_leak_hidden_cards() -> None:
    game = cardcore.new_game("speed", 2, seed=6)
    mine: list[cardcore.Event] = []
    full: list[cardcore.Event] = []
    game.events.subscribe(cardcore.Event, mine.append, seat=1)
    game.events.subscribe(cardcore.Event, full.append)
    cardcore.run_realtime(game, [SpitGreedyAgent(seed=1), SpitGreedyAgent(seed=2)], seed=1)
    draws0 = [e for e in mine if isinstance(e, cardcore.CardDrawn) and e.seat == 0]
    assert draws0 and all(e.card is None for e in draws0)  # seat 0's refills stay private
    assert all(e.card is not None for e in full if isinstance(e, cardcore.CardDrawn))
    spit = cardcore.new_game("spit", 2, seed=6)
    slugs: list[str] = []
    spit.events.subscribe(cardcore.Event, lambda e: slugs.append(e.slug), seat=cardcore.SPECTATOR)
    cardcore.run_realtime(
        spit, [SpitGreedyAgent(seed=1), SpitGreedyAgent(seed=2)], seed=1, max_actions=40
    )
    assert {"play-started", "card-spat", "card-moved", "card-revealed"} <= set(slugs)


def test_spit_rt_1_a_clock_passed_as_at_is_read_under_the_lock() -> None:
    """Threads that stamp on arrival can race (the later stamp applied first refuses the
    earlier as CORE-RECORD-1); a clock passed as ``at`` is read under the game's lock."""
    ticks = iter(range(1, 10**6))
    clock_lock = threading.Lock()

    def clock() -> float:
        with clock_lock:
            return next(ticks) / 100

    game = cardcore.new_game("speed", 2, seed=4)
    refused: list[str] = []

    def race(seat: int) -> None:
        rng = random.Random(seat)
        deadline = time.monotonic() + 20  # bounded: a refused clock fails the test, never hangs it
        while time.monotonic() < deadline:
            if game.is_over or game.version >= 150:
                break
            legal = game.legal_actions(seat)
            if not legal:  # stuck declared: wait for the other seat (spinning ran out the loop)
                time.sleep(0.0001)
                continue
            try:
                game.apply(rng.choice(legal), at=clock, seen=game.version)
            except IllegalActionError as exc:
                if exc.rule_id == "CORE-RECORD-1":
                    refused.append(str(exc))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        threads = [threading.Thread(target=race, args=(s,)) for s in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    finally:
        sys.setswitchinterval(old)
    assert not refused
    times = [at for _, _, at in game.record()["actions"]]
    assert len(times) >= 20 and times == sorted(times) and None not in times
    assert cardcore.replay(game.record()).record() == game.record()
    fresh = cardcore.new_game("speed", 2, seed=4)
    action = next(a for s in (0, 1) for a in fresh.legal_actions(s))
    with pytest.raises(IllegalActionError, match="CORE-RECORD-1"):  # a clock must give a time
        fresh.apply(action, at=lambda: "soon")  # type: ignore[arg-type]
    assert fresh.version == 0
