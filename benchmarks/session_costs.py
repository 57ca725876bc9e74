"""The session page's figures: history and takeback requests, the digests of a commit.

docs/session.rst states four costs; this measures each in a 2-seat session driven
through :meth:`Session.handle <cardcore.session.Session.handle>` on a virtual clock
(seats ``"a"`` and ``"b"`` joined, a spectator ``"w"`` watching, random legal actions
from a fixed seed), as the page describes them:

1. ``history``: Tonk (``hands=10000``) played to version 4,000; seat 0 asks for the
   whole history, once at a new version (worked out) and 49 more times (kept text);
   the size of the reply in KB (1,000 bytes). Each round moves the game one action on.
2. Takeback requests, 50 on the last action each round: in the same Tonk game a
   ``draw`` (final: refused), the first request and the 49 after it; in Golf
   (``rounds=100``) at version 2,000 a ``take`` (allowed: the first request rebuilds the
   game from its record, and a takeback is pending), then 49 requests at once (refused:
   one is pending), then 49 times declined by the other seat (not timed) and asked
   again (allowed, from the kept verdict). A round acts again (the next ``draw`` or
   ``take``) first.
3. Per commit, the digests :func:`cardcore.session._integrity.seal` works out (tokens and
   meta; the record chain is linked per action) and :meth:`SQLiteStore.commit
   <cardcore.session.SQLiteStore.commit>` (a file in a temporary directory, WAL), both
   timed as the Tonk game plays its last 1,000 actions to version 4,000 (one commit an
   action); a round is 100 commits.
4. :meth:`Stream.digest <cardcore.session.streams.Stream.digest>` of each stream of the
   Tonk game at version 4,000 (256 messages kept, the default ``resync_keep``).

Run from the repository root::

    python benchmarks/session_costs.py            # 9 rounds, about 20 s
    python benchmarks/session_costs.py --quick    # 3 rounds, about 15 s (playing the games)

Prints the machine, the date and time (UTC), and per figure (in the order 4, 1, 2, 3) the median of the rounds
(each round's median of its calls, or its one call for a "first") and their range.
Timed with :func:`time.perf_counter` around each call.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardcore import Game
from cardcore.session import MemoryStore, Session, SessionConfig, SQLiteStore, Store
from cardcore.session import _integrity as integrity
from cardcore.session.store import Batch, TokenRow

CONNS = "ab"
"""The connection of each seat (the spectator is ``"w"``)."""


class Driver:
    """One 2-seat session on a virtual clock, played by random legal actions."""

    def __init__(self, game: str, options: Mapping[str, Any], store: Store, seed: int) -> None:
        self.now = 0.0
        self.session = Session.create(
            game, 2, now=self.now, options=options, config=SessionConfig(), store=store, seed=11
        )
        self.rng = random.Random(seed)
        for seat in range(2):
            self.send(CONNS[seat], {"type": "join", "seat": seat})
        self.send("w", {"type": "watch"})

    @property
    def game(self) -> Game:
        game = self.session.game
        assert game is not None
        return game

    def send(self, conn: str, message: Mapping[str, Any], dt: float = 0.1) -> list[dict[str, Any]]:
        """Send *message* from *conn* after *dt* seconds; return the messages to *conn*."""
        self.now += dt
        out = self.session.handle(conn, json.dumps(message), self.now)
        return [o.message for o in out if o.conn == conn]

    def act(self, action: str | None = None) -> tuple[int, str]:
        """The seat to act plays *action* (``None``: a random legal one); return both."""
        game = self.game
        seat = game.to_act[0]
        text = action or str(self.rng.choice(game.legal_actions(seat)))
        replies = self.send(CONNS[seat], {"type": "act", "action": text, "seen": game.version}, 0.1)
        errors = [r for r in replies if r["type"] == "error"]
        assert not errors, errors
        return seat, text

    def play_to(self, version: int) -> None:
        while self.game.version < version:
            assert not self.game.is_over, "the game ended early"
            self.act()

    def act_when(self, word: str) -> int:
        """Play on until the seat to act may play *word*; play it; return that seat."""
        while True:
            game = self.game
            if any(str(a) == word for a in game.legal_actions(game.to_act[0])):
                return self.act(word)[0]
            self.act()

    def timed(self, conn: str, message: Mapping[str, Any]) -> tuple[float, list[Any]]:
        """Seconds *conn*'s *message* took to handle, and the messages to *conn*."""
        self.now += 0.1  # (within the rate a connection may send: 20 a second)
        text = json.dumps(message)
        start = time.perf_counter()
        out = self.session.handle(conn, text, self.now)
        took = time.perf_counter() - start
        return took, [o for o in out if o.conn == conn]


class TimedStore(SQLiteStore):
    """A :class:`SQLiteStore` that keeps the time of each commit."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.times: list[float] = []

    def commit(self, session_id: str, batch: Batch) -> None:
        start = time.perf_counter()
        super().commit(session_id, batch)
        self.times.append(time.perf_counter() - start)


SEALS: list[float] = []
_seal = integrity.seal


def timed_seal(
    meta: dict[str, Any],
    session_id: str,
    chain: Sequence[bytes],
    tokens: Iterable[TokenRow],
    fixed: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """:func:`integrity.seal`, its time kept in :data:`SEALS`."""
    start = time.perf_counter()
    out = _seal(meta, session_id, chain, tokens, fixed)
    SEALS.append(time.perf_counter() - start)
    return out


def summary(rounds: Sequence[float], scale: float, unit: str) -> str:
    """The median of *rounds* (seconds) and their range, in *unit* (*scale* per second)."""
    values = [r * scale for r in rounds]
    digits = 2 if max(values) < 10 else 1 if max(values) < 100 else 0
    med, low, high = statistics.median(values), min(values), max(values)
    return (
        f"{med:.{digits}f} {unit} (range {low:.{digits}f}-{high:.{digits}f}, {len(values)} rounds)"
    )


def blocks(times: Sequence[float], size: int) -> list[float]:
    """The median of each block of *size* consecutive *times*."""
    return [statistics.median(times[i : i + size]) for i in range(0, len(times) - size + 1, size)]


def history_figure(tonk: Driver, rounds: int) -> None:
    firsts: list[float] = []
    agains: list[float] = []
    sizes: list[int] = []
    for _ in range(rounds):
        tonk.act()
        commits = len(tonk.session.store.times) if isinstance(tonk.session.store, TimedStore) else 0
        took, out = tonk.timed("a", {"type": "history"})
        assert len(out) == 1 and out[0].message["type"] == "history", out
        firsts.append(took)
        sizes.append(len(out[0].text.encode()))
        again = []
        for _ in range(49):
            took, out = tonk.timed("a", {"type": "history"})
            assert len(out) == 1 and out[0].message["type"] == "history", out
            again.append(took)
        agains.append(statistics.median(again))
        if isinstance(tonk.session.store, TimedStore):
            assert len(tonk.session.store.times) == commits, "a history request wrote to the store"
    print(
        f"1. history, Tonk at version {tonk.game.version - rounds + 1}-{tonk.game.version}, "
        f"{statistics.median(sizes) / 1000:.0f} KB (seat 0's reply):"
    )
    print(f"   first request at a version: {summary(firsts, 1e3, 'ms')}")
    print(f"   asked again (49):           {summary(agains, 1e3, 'ms')}")


def tonk_takeback_figure(tonk: Driver, rounds: int) -> None:
    firsts: list[float] = []
    agains: list[float] = []
    versions = []
    for _ in range(rounds):
        seat = tonk.act_when("draw")
        versions.append(tonk.game.version)
        times = []
        for _ in range(50):
            took, out = tonk.timed(CONNS[seat], {"type": "takeback", "op": "request"})
            assert [o.message.get("code") for o in out] == ["takeback-refused"], out
            assert "revealed a card" in out[0].message["message"], out
            times.append(took)
        assert tonk.session.takeback is None
        firsts.append(times[0])
        agains.append(statistics.median(times[1:]))
    print(
        f"2. takeback, Tonk: 50 refused requests on a 'draw', at versions {min(versions)}-{max(versions)}:"
    )
    print(f"   the first:                  {summary(firsts, 1e3, 'ms')}")
    print(f"   the 49 after it:            {summary(agains, 1e6, 'µs')}")


def golf_takeback_figure(golf: Driver, rounds: int) -> None:
    firsts: list[float] = []
    pending: list[float] = []
    agains: list[float] = []
    versions = []
    for _ in range(rounds):
        seat = golf.act_when("take")
        versions.append(golf.game.version)
        conn, other = CONNS[seat], CONNS[1 - seat]
        request = {"type": "takeback", "op": "request"}
        took, out = golf.timed(conn, request)
        assert not [o for o in out if o.message["type"] == "error"], out
        assert golf.session.takeback is not None
        firsts.append(took)
        times = []
        for _ in range(49):  # asked again at once: refused, one is pending
            took, out = golf.timed(conn, request)
            assert [o.message.get("code") for o in out] == ["takeback-refused"], out
            assert "pending already" in out[0].message["message"], out
            times.append(took)
        pending.append(statistics.median(times))
        times = []
        for _ in range(49):  # declined, and asked again: allowed, from the kept verdict
            declined = golf.send(other, {"type": "takeback", "op": "decline"})
            assert not [m for m in declined if m["type"] == "error"], declined
            took, out = golf.timed(conn, request)
            assert not [o for o in out if o.message["type"] == "error"], out
            assert golf.session.takeback is not None
            times.append(took)
        agains.append(statistics.median(times))
        golf.send(other, {"type": "takeback", "op": "decline"})
    print(f"   Golf: allowed requests on a 'take', at versions {min(versions)}-{max(versions)}:")
    print(f"   the first (a rebuild):      {summary(firsts, 1e3, 'ms')}")
    print(f"   49 more at once (refused, one pending): {summary(pending, 1e6, 'µs')}")
    print(f"   49 more, each after a decline (allowed): {summary(agains, 1e6, 'µs')}")


def tail_figure(tonk: Driver, rounds: int) -> None:
    streams = [*tonk.session.streams, tonk.session.spectators]
    assert all(len(s.tail) == 256 for s in streams), [len(s.tail) for s in streams]
    per_round = []
    calls = 1000
    for _ in range(rounds):
        each = []
        for stream in streams:
            start = time.perf_counter()
            for _ in range(calls):
                stream.digest()
            each.append((time.perf_counter() - start) / calls)
        per_round.append(statistics.median(each))
    names = ", ".join(s.name for s in streams)
    print(
        f"4. a stream's tail digest, 256 messages kept (Tonk at version {tonk.game.version}; {names}):"
    )
    print(f"   per stream:                 {summary(per_round, 1e6, 'µs')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds (under 20 s)")
    args = parser.parse_args()
    rounds = 3 if args.quick else 9
    began = time.perf_counter()
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"{now}, Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, {os.cpu_count()} CPUs{', --quick' if args.quick else ''}"
    )

    integrity.seal = timed_seal
    with tempfile.TemporaryDirectory() as tmp:
        store = TimedStore(os.path.join(tmp, "sessions.db"))
        tonk = Driver("tonk", {"hands": 10000}, store, seed=1)
        tonk.play_to(3000)
        del SEALS[:], store.times[:]
        tonk.play_to(4000)
        seals, commits = SEALS[:], store.times[:]
        integrity.seal = _seal
        tail_figure(tonk, rounds)
        history_figure(tonk, rounds)
        tonk_takeback_figure(tonk, rounds)
        golf = Driver("golf", {"rounds": 100}, MemoryStore(), seed=1)
        golf.play_to(2000)
        golf_takeback_figure(golf, rounds)
        store.close()
    print(f"3. per commit, Tonk versions 3000-4000 ({len(commits)} commits, rounds of 100):")
    print(f"   the digests (seal):         {summary(blocks(seals, 100), 1e6, 'µs')}")
    print(f"   the SQLite commit:          {summary(blocks(commits, 100), 1e6, 'µs')}")
    print(f"({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
