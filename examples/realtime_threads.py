"""Two players on two threads racing in one real-time Spit game.

Each thread looks at its own view, asks its bot for a plan (an action and a
reaction time), sleeps that long (scaled down), and submits the action with
``seen=`` the version of the view it looked at (reading a view is a pure read;
the version travels with the action). ``Game.apply`` is atomic and thread-safe
and takes actions in the order they arrive, so when both players go for the
same spit pile the second action is rejected with ``StaleActionError`` (it was
legal in the state that player saw, not any more); the thread simply looks
again. At the end the example checks that every card is still accounted for,
that nothing illegal got through, and that the record replays to the same
result.

Run: ``python examples/realtime_threads.py [GAME]`` (default ``spit``; ``speed`` works too).
"""

from __future__ import annotations

import argparse
import contextlib
import threading
import time
from collections import Counter

import cardcore
from cardcore import IllegalActionError, StaleActionError

SCALE = 0.01
"""Reaction times are multiplied by this: a 0.3 s bot waits 3 ms."""
IDLE_LIMIT = 3.0
"""Seconds without any change after which the host ends the game."""


def demonstrate_stale(game: cardcore.Game) -> bool:
    """Find two actions that collide and show the second one being refused as stale (first
    playing on, each seat its first legal action, while no two can collide: Spit starts
    with both players calling "ready")."""
    for _ in range(20):
        for first in game.legal_actions(0):
            for second in game.legal_actions(1):
                trial = game.clone()
                trial.apply(first)
                if second not in trial.legal_actions(1):
                    seen = game.view(0)["version"]  # both players looked at this version
                    game.apply(first, seen=seen)
                    try:
                        game.apply(second, seen=seen)
                    except StaleActionError as exc:
                        print(
                            f"demo: seat 0 played {first}; seat 1's {second} came second -> {exc}"
                        )
                        return True
                    raise AssertionError("the second action should have been stale")
        movers = [s for s in (0, 1) if game.legal_actions(s)]
        if game.is_over or not movers:
            return False
        for seat in movers:  # no collision yet: everyone moves on once
            if game.legal_actions(seat):
                game.apply(game.legal_actions(seat)[0])
    return False


def player(
    game: cardcore.Game,
    seat: int,
    agent: cardcore.RealtimeAgent,
    stats: dict[str, int],
    lock: threading.Lock,
) -> None:
    """One player's thread: look, plan, wait, act; on a stale or illegal action, look again."""
    last_change = time.monotonic()
    seen_version = -1
    while not game.is_over:
        view = game.view(seat)  # a pure read: looking changes nothing
        seen = view["version"]  # the version this player acts on, sent with the action
        legal = game.legal_actions(seat)
        if game.version != seen:
            continue  # the game moved while we looked: look again
        if seen != seen_version:
            seen_version, last_change = seen, time.monotonic()
        plan = agent.plan(view, legal, time.monotonic())
        if plan is None:
            if time.monotonic() - last_change > IDLE_LIMIT:
                return
            time.sleep(0.001)
            continue
        time.sleep(plan.delay * SCALE)
        try:
            game.apply(plan.action, seen=seen)
        except StaleActionError:
            with lock:
                stats["stale"] += 1
        except IllegalActionError as exc:
            with lock:
                stats["too late: game over" if game.is_over else "illegal"] += 1
                if not game.is_over:
                    print(f"seat {seat}: refused: {exc}")
        else:
            with lock:
                stats[f"seat {seat}"] += 1


def main(name: str) -> None:
    game = cardcore.new_game(name, ["Ann", "Bob"], seed=2024)
    demo = demonstrate_stale(game)
    factory = cardcore.load_agent("spit-greedy")
    agents = [factory(seed=1), factory(seed=2)]
    stats: Counter[str] = Counter()
    lock = threading.Lock()
    failures: list[BaseException] = []

    def play(seat: int) -> None:
        try:
            player(game, seat, agents[seat], stats, lock)
        except BaseException as exc:  # a bot or a plugin failed: the run fails, below
            failures.append(exc)

    threads = [  # (daemons: a bot stuck for good cannot keep the process from exiting)
        threading.Thread(target=play, args=(seat,), name=f"seat-{seat}", daemon=True)
        for seat in (0, 1)
    ]
    started = time.perf_counter()
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    finally:  # Ctrl-C included: the host ends the game, and the players leave with it
        if not game.is_over:
            with contextlib.suppress(IllegalActionError):  # (it ended meanwhile: fine)
                game.apply(cardcore.EndMatch())  # (also a game nobody can move in)
        deadline = time.monotonic() + 10  # (waiting without join: a second Ctrl-C lands here too)
        for t in threads:
            while t.is_alive() and time.monotonic() < deadline:
                time.sleep(0.01)
    if failures:
        raise RuntimeError(f"a player's thread failed: {failures[0]!r}") from failures[0]
    elapsed = time.perf_counter() - started

    result = game.result
    assert result is not None
    print(
        f"{name}: {game.version} actions in {elapsed:.2f} s on two threads; ended by {result.reason}"
    )
    print(
        f"applied: seat 0 {stats['seat 0']}, seat 1 {stats['seat 1']}; "
        f"stale rejections handled: {stats['stale'] + int(demo)}; "
        f"after the end: {stats['too late: game over']}; other rejections: {stats['illegal']}"
    )
    print(
        "winner:",
        " and ".join(game.players[w] for w in result.winners) or "none",
        "| scores:",
        list(result.scores),
    )

    # Every card is still in exactly one pile: the same multiset as the deck.
    in_play = Counter(str(c) for c in game.state.zones.all_cards())
    deck = Counter(str(c) for c in game.logic.deck(len(game.players), game.options))
    assert in_play == deck, (in_play - deck, deck - in_play)
    print(f"all {sum(deck.values())} cards accounted for")
    assert stats["illegal"] == 0, (
        "an action judged on a consistent view can only be stale, never illegal"
    )

    # Rejected actions left no trace: the record replays to the same result.
    replayed = cardcore.replay(game.record())
    assert replayed.result == result and replayed.version == game.version
    print("record replays identically")
    print("ok")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Two threads race in one real-time game.")
    parser.add_argument("game", nargs="?", default="spit", help="a real-time game (spit, speed)")
    try:
        main(parser.parse_args().game)
    except cardcore.CardcoreError as exc:  # a misspelt game, or one without real time
        parser.error(str(exc))
