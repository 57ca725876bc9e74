"""Review of the real-time path (2026-12-06): ``run_realtime`` and its virtual clock,
``Game.apply(..., at=..., seen=...)`` in real time (the stale window, checkpoints, times),
copies of a real-time game mid-play (clone, save/load, record/replay), the host's end and
``truncate()`` racing a player, and Spit's slap race as the engine drives it.

Every test is deterministic: threads meet at barriers (never sleeps) and assert only what
holds whichever thread the lock lets in first; games are seeded or stacked.
"""

from __future__ import annotations

import json
import math
import threading
from typing import Any

import pytest

import cardcore
from cardcore import (
    STALE_WINDOW,
    CardcoreError,
    IllegalActionError,
    Plan,
    StaleActionError,
)

# the deck of docs/embedding.rst and seeds/spit/first-deal.json (top first)
DECK = (
    "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
    "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
)
# seat 0 plays its whole layout onto L: the deal ends at version 17 (claim phase)
FIRST_DEAL = ["play 1 L", "play 2 L", "play 2 L"] + ["play 3 L"] * 3 + ["play 4 L"] * 4
FIRST_DEAL += ["play 5 L"] * 5


def _spit_at_2() -> cardcore.Game:
    """Both ready: Ann may play 1 L (2H on AH), Bob 3 L (KS on AH), version 2."""
    game = cardcore.new_game("spit", ["Ann", "Bob"], deck=DECK, seed=2)
    game.act(0, "ready", at=0.5)
    game.act(1, "ready", at=0.6)
    assert game.version == 2
    assert "play 1 L" in game.view(0)["legal"] and "play 3 L" in game.view(1)["legal"]
    return game


def _spit_at_claim() -> cardcore.Game:
    game = _spit_at_2()
    for i, text in enumerate(FIRST_DEAL):
        game.act(0, text, at=1.0 + i)
    assert game.version == 17 and game.to_act == (0, 1)
    assert game.view(0)["legal"] == ["slap L", "slap R"] == game.view(1)["legal"]
    return game


def _race(game: cardcore.Game, moves: list[tuple[int, str]], seen: int, clock: Any) -> list[str]:
    """Send *moves* from one thread each, released together at a barrier; the outcome of each."""
    barrier = threading.Barrier(len(moves))
    out = [""] * len(moves)

    def send(i: int) -> None:
        seat, text = moves[i]
        barrier.wait()
        try:
            game.act(seat, text, at=clock, seen=seen)
            out[i] = "applied"
        except StaleActionError:
            out[i] = "stale"
        except IllegalActionError as exc:
            out[i] = f"illegal {exc.rule_id}"

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(moves))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


class _Clock:
    """A host clock that never goes backwards (read under the game's lock)."""

    def __init__(self, start: float) -> None:
        self.now = start
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            self.now += 0.25
            return self.now


# --- findings ------------------------------------------------------------------------------


def test_action_legal_at_seen_then_truncated_by_the_host_is_game_over_as_documented() -> None:
    """The host's ``end`` is an action that came first (stale, CORE-RT-1); truncating is no
    action: an action refused because the game was truncated at the version its player saw
    is CORE-OVER-1 (decided after this review; docs/core-rules.rst, CORE-RT-1), whether or
    not anyone was shown the end."""
    ended = _spit_at_2()
    ended.act(-1, "end")
    with pytest.raises(StaleActionError):  # holds: the host's end came first
        ended.act(1, "play 3 L", seen=2)

    for shown in (False, True):
        truncated = _spit_at_2()
        truncated.view(1)
        truncated.truncate()  # the runner's max_actions, or a host's own cap, at version 2
        if shown:
            truncated.view(1)  # the host shows Bob the end
        assert truncated.is_over and truncated.version == 2
        with pytest.raises(IllegalActionError, match="CORE-OVER-1") as caught:
            truncated.act(1, "play 3 L", seen=2)
        assert not isinstance(caught.value, StaleActionError)


# --- claims that hold: threads ---------------------------------------------------------------


def test_two_threads_onto_one_pile_exactly_one_wins_the_other_is_stale() -> None:
    """CORE-RT-1 and embedding.rst: of two plays onto L seen at version 2, whichever the lock
    lets in first is applied, the other is stale (never illegal); a clock passed as ``at``
    stamps them in the order applied."""
    for _ in range(12):
        game = _spit_at_2()
        out = _race(game, [(0, "play 1 L"), (1, "play 3 L")], 2, _Clock(1.0))
        assert sorted(out) == ["applied", "stale"], out
        assert game.version == 3
        times = [at for _, _, at in game.record()["actions"]]
        assert times == sorted(times) and times[-1] == 1.25
        again = cardcore.replay(json.loads(json.dumps(game.record())))
        assert again.view(None) == game.view(None) and again._last_at == game._last_at


def test_simultaneous_slaps_the_first_applied_takes_its_pile_the_other_is_stale() -> None:
    """SPIT-RT-3 / SPIT-END-2: at the end of a two-pile deal both seats slap at once; the first
    applied slap decides (the game moves to deal 2) and the other is stale, whichever pile."""
    for moves in ([(0, "slap L"), (1, "slap R")], [(0, "slap R"), (1, "slap R")]):
        for _ in range(6):
            game = _spit_at_claim()
            out = _race(game, moves, 17, _Clock(100.0))
            assert sorted(out) == ["applied", "stale"], (moves, out)
            assert game.version == 18
            winner = moves[out.index("applied")]
            assert game.record()["actions"][-1][:2] == [winner[0], winner[1]]
            assert game.view(None)["table"]["deal"] == 2


def test_a_second_slap_is_stale_with_seen_and_illegal_without() -> None:
    game = _spit_at_claim()
    game.act(1, "slap R", at=50.0, seen=17)
    with pytest.raises(StaleActionError):
        game.act(0, "slap L", at=50.0, seen=17)
    with pytest.raises(IllegalActionError) as info:  # without seen: the state now only
        game.act(0, "slap L", at=50.0)
    assert not isinstance(info.value, StaleActionError)
    # a slap sent on a view from before the deal ended was never legal there: illegal
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "slap L", at=50.0, seen=16)
    assert not isinstance(info.value, StaleActionError)
    assert game.version == 18


def test_the_host_end_and_a_resign_racing_a_play_leave_one_action_the_rest_stale() -> None:
    """EndMatch and Resign are accepted at any seen while the game runs: whichever of the
    three the lock takes first ends or moves the game; every loser is stale."""
    for _ in range(8):
        game = _spit_at_2()
        out = _race(game, [(-1, "end"), (0, "resign"), (1, "play 3 L")], 2, _Clock(1.0))
        assert "illegal" not in " ".join(out), out
        applied = out.count("applied")
        # the play may come first and the end or the resign after it (both still legal)
        assert applied in (1, 2) and game.is_over
        assert game.version == 2 + applied


# --- claims that hold: the stale window, copies --------------------------------------------


def _long_record() -> dict[str, Any]:
    game = cardcore.new_game("spit", 2, seed=11)
    agents = [cardcore.RandomAgent(seed=1), cardcore.RandomAgent(seed=2)]
    cardcore.run_realtime(game, agents, seed=3, max_actions=200)
    record = game.record()
    assert len(record["actions"]) == 200
    return record


def _prefix(record: dict[str, Any], n: int) -> cardcore.Game:
    part = dict(record, actions=record["actions"][:n], result=None, truncated=False)
    return cardcore.replay(part)


def test_stale_or_illegal_judged_alike_on_the_game_its_clone_its_load_and_replay() -> None:
    """CORE-RT-3 at the window's edge (seen = version - STALE_WINDOW, one past it, the last),
    against an oracle (the record replayed to seen): every action legal at seen but not now is
    stale and every other one not legal now illegal, on the game itself, a clone, a loaded
    save and a replayed record; one version older than the window is refused naming it."""
    record = _long_record()
    version = 150
    game = _prefix(record, version)
    for seat in (0, 1):  # the original has asked its legal actions on the way (cached)
        game.legal_actions(seat)
    copies = {
        "game": game,
        "clone": game.clone(),
        "load": cardcore.load(json.loads(json.dumps(game.save()))),
        "replay": cardcore.replay(json.loads(json.dumps(game.record()))),
    }
    window = range(version - STALE_WINDOW, version + 1)
    then = {(v, s): set(_prefix(record, v).legal_actions(s)) for v in window for s in (0, 1)}
    judged = 0
    for seen in (version - STALE_WINDOW, version - STALE_WINDOW + 1, version - 1):
        for seat in (0, 1):
            now = set(game.legal_actions(seat))
            ever = set().union(*(then[v, seat] for v in window)) - now
            for action in sorted(ever, key=str):
                stale = action in then[seen, seat]
                for name, copy in copies.items():
                    with pytest.raises(IllegalActionError) as info:
                        copy.apply(action, seen=seen)
                    got = isinstance(info.value, StaleActionError)
                    assert got is stale, (name, seen, str(action), info.value)
                    judged += stale
    assert judged > 0
    for name, copy in copies.items():
        assert copy.version == version, name
        with pytest.raises(IllegalActionError) as info:
            copy.apply(next(iter(then[version - 1, 0])), seen=version - STALE_WINDOW - 1)
        assert info.value.rule_id == "CORE-RT-3" and "window" in str(info.value), name


def test_times_survive_clone_save_load_and_replay_and_keep_their_order() -> None:
    """A real-time game's times are kept by every copy (past a sealed chunk of the record):
    an equal time is accepted, an earlier one refused (CORE-RECORD-1), on each alike."""
    record = _long_record()
    game = _prefix(record, 140)
    last = game._last_at
    assert last == record["actions"][139][2]
    copies = [
        game,
        game.clone(),
        cardcore.load(json.loads(json.dumps(game.save()))),
        cardcore.replay(json.loads(json.dumps(game.record()))),
    ]
    entries = [e[2] for e in game.record_entries()]
    for copy in copies:
        assert [e[2] for e in copy.record_entries()] == entries
        seat = copy.to_act[0]
        action = copy.legal_actions(seat)[0]
        with pytest.raises(IllegalActionError) as info:
            copy.apply(action, at=math.nextafter(last, -math.inf), seen=copy.version)
        assert info.value.rule_id == "CORE-RECORD-1" and copy.version == 140
        copy.apply(action, at=last, seen=copy.version)  # equal: accepted
        assert copy.record()["actions"][-1][2] == last
    assert len({json.dumps(c.record()) for c in copies}) == 1


def test_a_failed_apply_in_real_time_keeps_the_times_and_the_record() -> None:
    """A plugin failing inside apply (after changing the state) is undone from the real-time
    checkpoints: the record, its times and the latest time stay; the same action then
    applies with an equal time, and the record replays."""
    record = _long_record()
    game = _prefix(record, 130)  # past a sealed chunk (128) and a checkpoint (128)
    before = game.record()
    view = game.view(None)
    last = game._last_at
    real = game._logic_apply

    def failing(state: Any, action: Any, emit: Any) -> None:
        real(state, action, emit)
        raise RuntimeError("scoring service down")

    game._logic_apply = failing
    seat = game.to_act[0]
    action = game.legal_actions(seat)[0]
    with pytest.raises(cardcore.PluginError):
        game.apply(action, at=last + 5.0, seen=game.version)
    game._logic_apply = real
    assert game.record() == before and game.view(None) == view and game._last_at == last
    game.apply(action, at=last, seen=game.version)
    assert game.record()["actions"][-1] == [seat, str(action), last]
    assert cardcore.replay(game.record()).view(None) == game.view(None)


# --- claims that hold: run_realtime ------------------------------------------------------


class _Quick:
    """Plans its first legal action after a fixed delay."""

    def __init__(self, delay: Any) -> None:
        self.delay = delay

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        return Plan(legal[0], self.delay) if legal else None


def test_run_realtime_same_seeds_same_record() -> None:
    def run(seed: int) -> dict[str, Any]:
        game = cardcore.new_game("spit", 2, seed=4)
        agents = [cardcore.RandomAgent(seed=5), cardcore.RandomAgent(seed=6)]
        cardcore.run_realtime(game, agents, seed=seed, max_actions=120)
        return game.record()

    assert run(9) == run(9)
    game = cardcore.new_game("spit", 2, seed=4)
    cardcore.run_realtime(game, [_Quick(0.5), _Quick(0.5)], seed=1, max_actions=40)
    again = cardcore.new_game("spit", 2, seed=4)
    cardcore.run_realtime(again, [_Quick(0.5), _Quick(0.5)], seed=1, max_actions=40)
    assert game.record() == again.record()


def test_run_realtime_equal_due_times_are_drawn_not_by_seat() -> None:
    """CORE-RT-2: both agents plan ``ready`` for the same instant; the seeded draw, not the
    seat, decides who is first, and both recorded times are that instant."""
    firsts = set()
    for seed in range(16):
        game = cardcore.new_game("spit", 2, seed=4)
        cardcore.run_realtime(game, [_Quick(0.5), _Quick(0.5)], seed=seed, max_actions=2)
        actions = game.record()["actions"]
        assert [a[2] for a in actions] == [0.5, 0.5]
        firsts.add(actions[0][0])
    assert firsts == {0, 1}


@pytest.mark.parametrize("delay", [math.nan, math.inf, -math.inf, 1e300, True, "1"])
def test_run_realtime_refuses_a_bad_delay_naming_the_seat_before_any_apply(delay: Any) -> None:
    game = cardcore.new_game("spit", 2, seed=1)
    with pytest.raises(CardcoreError, match=r"agent at seat 0 \(_Quick\)"):
        cardcore.run_realtime(game, [_Quick(delay), _Quick(0.5)], seed=1)
    assert game.version == 0 and game.record()["actions"] == []


def test_run_realtime_zero_and_negative_delays_are_due_at_once() -> None:
    for delay in (0, 0.0, -5.0):
        game = cardcore.new_game("spit", 2, seed=1)
        cardcore.run_realtime(
            game, [_Quick(delay), _Quick(delay)], seed=1, start=3.0, max_actions=25
        )
        times = [a[2] for a in game.record()["actions"]]
        assert times == [3.0] * 25 and game.result is not None
        assert game.result.reason == "truncated"
        assert cardcore.replay(game.record()).record() == game.record()


def test_run_realtime_an_agent_that_raises_stops_the_run_with_its_own_error() -> None:
    class Broken:
        def __init__(self) -> None:
            self.calls = 0

        def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
            self.calls += 1
            if self.calls > 3:
                raise ValueError("agent broke")
            return Plan(legal[0], 0.25) if legal else None

    game = cardcore.new_game("spit", 2, seed=1)
    with pytest.raises(ValueError, match="agent broke"):
        cardcore.run_realtime(game, [Broken(), _Quick(1.0)], seed=1)
    assert not game.is_over and game.version > 0
    version = game.version
    # the game is left as it was: playable, its record replaying
    assert cardcore.replay(game.record()).view(None) == game.view(None)
    cardcore.run_realtime(game, [_Quick(0.25), _Quick(1.0)], seed=1, max_actions=5)
    assert game.version == version + 5


def test_run_realtime_a_plan_kept_past_the_window_is_applied() -> None:
    """agents.py: a kept plan made more than STALE_WINDOW versions ago is sent with seen=now
    (it was found legal after every step), never refused for its age (CORE-RT-3): seat 0
    plans a spit request 1000 s after both are ready, seat 1 moves every 0.01 s for 0.8 s;
    the request is applied at its first due time, 80 versions after it was planned."""

    class Patient:
        def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
            words = {str(a): a for a in legal}
            if "ready" in words:
                return Plan(words["ready"], 0.0)
            if "spit" in words:
                return Plan(words["spit"], 1000.0)
            return Plan(legal[0], 1000.0) if legal else None

    class Busy:
        def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
            if now >= 0.8:
                return None
            moves = [a for a in legal if str(a) != "spit"]
            return Plan(moves[0], 0.01) if moves else None

    game = cardcore.new_game("spit", 2, seed=0)
    spent: list[tuple[int, int, str, float]] = []
    cardcore.run_realtime(
        game,
        [Patient(), Busy()],
        seed=1,
        max_actions=100,
        on_action=lambda g, a, t: spent.append((g.version, a.seat, str(a), t)),
    )
    mine = [entry for entry in spent if entry[1] == 0]
    assert mine[0] == (1, 0, "ready", 0.0)
    version, _, text, at = mine[1]
    assert text == "spit" and at == 0.01 + 1000.0  # the plan made at version 2, kept
    assert version - 1 - 2 > STALE_WINDOW
    times = [t for *_, t in spent]
    assert times == sorted(times)
