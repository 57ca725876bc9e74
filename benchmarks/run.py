"""cardcore benchmarks (issues 8 and 14): throughput, per-operation costs, memory, scaling.

Run from the repository root::

    python benchmarks/run.py            # full run, 7 rounds per figure (a few minutes)
    python benchmarks/run.py --quick    # 3 rounds, smaller batches (about a minute)
    python benchmarks/run.py --json out.json

It prints a table (with ``rich`` if installed, plain text otherwise) and, with
``--json``, writes every figure. Each figure is the **median over rounds**; a
round is a fixed batch of work timed with ``time.process_time`` (CPU time of
this process, so other processes on a loaded machine disturb it less), except
the ``simulate`` figures, which are wall-clock (``time.perf_counter``) because
they span worker processes.

Random play goes through the public API only::

    while not game.is_over:
        legal = game.legal_actions(game.to_act[0])
        game.apply(legal[int(rand() * len(legal))])

with ``new_game`` inside the timed loop, no views and no agent objects; the
bare loops of ``bare_golf.py`` and ``bare_tonk.py`` make the same choices among
the same legal sets, and every engine throughput figure is also given as a
ratio to the bare loop of its game (Golf layouts other than 6 are compared
with the bare GOLF6 loop, marked ``~``). Each round times the bare loop right
before the engine, so a burst of load hits both.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bare_golf
import bare_tonk
import nullgame

import cardcore

__all__ = ["SIZES", "Sizes", "main", "run"]

clock = time.process_time


class Sizes:
    """How much work one run does.

    :param rounds: Rounds per figure (the median is reported).
    :param scale: Multiplier of every batch size.
    :param memory_games: Live games held for the memory figure.
    :param sim_games: Games per ``simulate`` round.
    """

    def __init__(self, rounds: int, scale: float, memory_games: int, sim_games: int) -> None:
        self.rounds = rounds
        self.scale = scale
        self.memory_games = memory_games
        self.sim_games = sim_games

    def n(self, base: int) -> int:
        """Scale a batch size, never below 1."""
        return max(1, int(base * self.scale))


SIZES = {
    "full": Sizes(rounds=7, scale=1.0, memory_games=1000, sim_games=1200),
    "quick": Sizes(rounds=3, scale=0.4, memory_games=1000, sim_games=400),
    "tiny": Sizes(rounds=1, scale=0.01, memory_games=20, sim_games=4),
}
"""Run sizes: ``full`` (default), ``quick`` (``--quick``), ``tiny`` (the smoke test)."""


class Config:
    """One game configuration to measure."""

    def __init__(
        self,
        key: str,
        name: str,
        players: int,
        options: Mapping[str, Any],
        *,
        bare: str | None,
        exact: bool,
        games: int,
        realtime: bool = False,
    ) -> None:
        self.key = key
        self.name = name
        self.players = players
        self.options = dict(options)
        self.bare = bare
        self.exact = exact
        self.games = games
        self.realtime = realtime


CONFIGS = (
    Config("golf-6", "golf", 4, {"layout": 6}, bare="golf", exact=True, games=60),
    Config("golf-8", "golf", 4, {"layout": 8}, bare="golf", exact=False, games=50),
    Config("golf-9", "golf", 4, {"layout": 9}, bare="golf", exact=False, games=50),
    Config("golf-10", "golf", 4, {"layout": 10}, bare="golf", exact=False, games=40),
    Config("golf-4", "golf", 4, {"layout": "4"}, bare="golf", exact=False, games=150),
    Config("golf-4h", "golf", 4, {"layout": "4h"}, bare="golf", exact=False, games=150),
    Config("tonk", "tonk", 3, {}, bare="tonk", exact=True, games=2500),
    Config("tonk-nodrop", "tonk", 3, {}, bare="tonk-nodrop", exact=True, games=400),
    Config("spit", "spit", 2, {}, bare=None, exact=False, games=8, realtime=True),
    Config("speed", "speed", 2, {}, bare=None, exact=False, games=60, realtime=True),
)

BARE_GAMES = {"golf": 150, "tonk": 6000, "tonk-nodrop": 1000}

NEW_GAME_LIMIT_US = {"golf": 20.0, "spit": 20.0, "speed": 20.0, "tonk": 25.0}
"""Issue 14: ``new_game`` budget per game (µs)."""


def _sink(event: object) -> None:
    """The one event subscriber: receives every event and does nothing."""


# -- random play ------------------------------------------------------------------------------


def engine_round(
    cfg: Config,
    games: int,
    seed: int,
    subscribe: bool,
    event_type: type[cardcore.Event] = cardcore.Event,
    single: bool = False,
) -> tuple[float, float]:
    """Play *games* random games through the public API; return (games/s, decisions/s).

    With *subscribe*, one subscriber to *event_type* is attached: every event by
    default, or only :class:`cardcore.ActionApplied` for a host that logs moves.
    With *single*, each game is told :meth:`~cardcore.Game.single_thread` (not a target:
    the targets keep the lock on).
    """
    rand = random.Random(seed).random
    new_game = cardcore.new_game
    name, players, options = cfg.name, cfg.players, cfg.options
    if cfg.key == "tonk-nodrop":
        return never_drop_round(cfg, games, seed, subscribe, event_type)
    decisions = 0
    start = clock()
    for i in range(games):
        game = new_game(name, players, options=options, seed=seed + i)
        if subscribe:
            game.events.subscribe(event_type, _sink)
        if single:
            game.single_thread()
        legal_actions = game.legal_actions
        apply = game.apply
        while not game.is_over:
            legal = legal_actions(game.to_act[0])
            apply(legal[int(rand() * len(legal))])
        decisions += game.version
    elapsed = clock() - start
    return games / elapsed, decisions / elapsed


def logic_round(cfg: Config, games: int, seed: int) -> tuple[float, float]:
    """Random play straight through the game's logic, no :class:`~cardcore.Game` driver
    (``logic.legal_actions`` and ``logic.apply`` on ``game.state``; ``new_game`` included;
    the same choices as :func:`engine_round`): the driver's share is the difference (not
    a target)."""
    rand = random.Random(seed).random
    new_game = cardcore.new_game
    name, players, options = cfg.name, cfg.players, cfg.options
    decisions = 0
    start = clock()
    for i in range(games):
        game = new_game(name, players, options=options, seed=seed + i)
        state = game.state
        legal_actions = game.logic.legal_actions
        apply = game.logic.apply
        while not state.is_over:
            legal = legal_actions(state, state.to_act[0])
            apply(state, legal[int(rand() * len(legal))], None)
            decisions += 1
    elapsed = clock() - start
    return games / elapsed, decisions / elapsed


def never_drop_round(
    cfg: Config, games: int, seed: int, subscribe: bool, event_type: type[cardcore.Event]
) -> tuple[float, float]:
    """Tonk with random players that never drop (``bare_tonk.py --no-drop``'s choices).

    ``drop`` is always the first legal action when legal (TONK-LEGAL-1), so the
    player picks among the others: the same choice stream as the bare loop in
    never-drop mode (``bare_tonk.check_against_engine(drop=False)`` checks it).
    """
    from cardcore_tonk.actions import Drop

    rand = random.Random(seed).random
    new_game = cardcore.new_game
    name, players, options = cfg.name, cfg.players, cfg.options
    decisions = 0
    start = clock()
    for i in range(games):
        game = new_game(name, players, options=options, seed=seed + i)
        if subscribe:
            game.events.subscribe(event_type, _sink)
        legal_actions = game.legal_actions
        apply = game.apply
        while not game.is_over:
            legal = legal_actions(game.to_act[0])
            if type(legal[0]) is Drop:
                apply(legal[1 + int(rand() * (len(legal) - 1))])
            else:
                apply(legal[int(rand() * len(legal))])
        decisions += game.version
    elapsed = clock() - start
    return games / elapsed, decisions / elapsed


def realtime_round(cfg: Config, games: int, seed: int, subscribe: bool) -> tuple[float, float]:
    """Play *games* games of two ``spit-greedy`` bots on the virtual clock."""
    bot = cardcore.load_agent("spit-greedy")
    decisions = 0
    start = clock()
    for i in range(games):
        game = cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=seed + i)
        if subscribe:
            game.events.subscribe(cardcore.Event, _sink)
        agents = [bot(seed=2 * (seed + i)), bot(seed=2 * (seed + i) + 1)]
        cardcore.run_realtime(game, agents, seed=seed + i)
        decisions += game.version
    elapsed = clock() - start
    return games / elapsed, decisions / elapsed


def bare_round(which: str, games: int, seed: int) -> tuple[float, float]:
    """Play *games* games of a bare loop; return (games/s, decisions/s)."""
    rnd = random.Random(seed)
    decisions = 0
    start = clock()
    if which == "golf":
        for _ in range(games):
            decisions += bare_golf.play_game(rnd, 4)
    elif which == "tonk-nodrop":
        rand = rnd.random
        for _ in range(games):
            decisions += bare_tonk.play_hand(rand, 3, drop=False)[0]
    else:
        for _ in range(games):
            decisions += bare_tonk.play_game(rnd, 3)[0]
    elapsed = clock() - start
    return games / elapsed, decisions / elapsed


def null_round(decisions: int, through_game: bool) -> float:
    """Decisions/s of the null game, through :class:`cardcore.Game` or its logic alone."""
    game = cardcore.new_game(nullgame.NAME, 4, options={"length": decisions}, seed=1)
    rand = random.Random(1).random
    start = clock()
    if through_game:
        legal_actions = game.legal_actions
        apply = game.apply
        while not game.is_over:
            legal = legal_actions(game.to_act[0])
            apply(legal[int(rand() * len(legal))])
    else:
        state = game.state
        logic = game.logic
        while not state.is_over:
            legal = logic.legal_actions(state, state.to_act[0])
            logic.apply(state, legal[int(rand() * len(legal))], None)
    return decisions / (clock() - start)


# -- single operations ---------------------------------------------------------------------------


def finished_game(cfg: Config, seed: int) -> cardcore.Game:
    """Play one whole game of *cfg* (random play, or the bots in real time)."""
    game = cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=seed)
    if cfg.realtime:
        bot = cardcore.load_agent("spit-greedy")
        cardcore.run_realtime(game, [bot(seed=2 * seed), bot(seed=2 * seed + 1)], seed=seed)
    else:
        rand = random.Random(seed).random
        while not game.is_over:
            legal = game.legal_actions(game.to_act[0])
            game.apply(legal[int(rand() * len(legal))])
    return game


def mid_game(
    cfg: Config,
    seed: int,
    entries: Sequence[tuple[int, cardcore.Action, float | None]] | None = None,
) -> cardcore.Game:
    """Return a game of *cfg* halfway through the actions of a whole game seeded *seed*."""
    if entries is None:
        entries = finished_game(cfg, seed).record_entries()
    game = cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=seed)
    for _seat, action, at in entries[: len(entries) // 2]:
        game.apply(action, at=at)
    return game


def per_call(fn: Callable[[], object], calls: int) -> float:
    """Return the CPU microseconds per call of *fn* over *calls* calls."""
    start = clock()
    for _ in range(calls):
        fn()
    return (clock() - start) / calls * 1e6


def operations_round(cfg: Config, sizes: Sizes, seed: int) -> dict[str, float]:
    """Time new_game, clone, view, save, load and replay once for *cfg*."""
    whole = finished_game(cfg, seed)
    for _ in range(200):  # a game long enough to have a middle (random Tonk often ends at once)
        if whole.version >= 10:
            break
        seed += 7919
        whole = finished_game(cfg, seed)
    game = mid_game(cfg, seed, whole.record_entries())
    seat = game.to_act[0] if game.to_act else 0
    saved = game.save()
    out: dict[str, float] = {}
    name, players, options = cfg.name, cfg.players, cfg.options
    counter = iter(range(10**9))
    out["new_game_us"] = per_call(
        lambda: cardcore.new_game(name, players, options=options, seed=next(counter)), sizes.n(2000)
    )
    out["clone_us"] = per_call(game.clone, sizes.n(5000))
    out["view_us"] = per_call(lambda: game.view(seat), sizes.n(2000))
    out["save_us"] = per_call(game.save, sizes.n(300))
    out["load_us"] = per_call(lambda: cardcore.load(saved), sizes.n(30 if cfg.realtime else 100))
    out["mid_game_actions"] = float(game.version)
    records = [
        finished_game(cfg, seed + 1000 + k).record()
        for k in range(sizes.n(10 if not cfg.realtime else 3))
    ]
    actions = sum(len(r["actions"]) for r in records)
    while actions < sizes.n(1500) and len(records) < sizes.n(500):  # short records: enough to time
        records.append(finished_game(cfg, seed + 1000 + len(records)).record())
        actions += len(records[-1]["actions"])
    start = clock()
    for r in records:
        cardcore.replay(r)
    elapsed = clock() - start
    out["replay_actions_per_s"] = actions / elapsed
    out["replay_us_per_record"] = elapsed / len(records) * 1e6
    out["replay_actions_per_record"] = actions / len(records)
    return out


# -- memory and simulate ---------------------------------------------------------------------------


def memory_per_game(count: int, seed: int = 7) -> dict[str, float]:
    """Hold *count* live 4-player GOLF6 games under tracemalloc; bytes per game.

    Each game stands halfway through a whole 9-round match of random play
    (about 360 actions), the size issue 14 budgets.
    """
    cfg = CONFIGS[0]
    entries = finished_game(cfg, seed).record_entries()
    half = entries[: len(entries) // 2]
    cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=seed)  # warm caches
    gc.collect()
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        games = []
        for _ in range(count):
            game = cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=seed)
            for _seat, action, at in half:
                game.apply(action, at=at)
            games.append(game)
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del games
    return {
        "games": float(count),
        "mid_game_actions": float(len(half)),
        "bytes_per_game": (current - base) / count,
        "peak_bytes_per_game": (peak - base) / count,
    }


def simulate_figures(sizes: Sizes, seed: int = 11) -> dict[str, Any]:
    """Golf ``simulate`` games/s in-process, with 1 and with 2 worker processes (wall clock).

    Each round also times a plain CPU task (C-level ``sum``) in the same two
    pools right after the study: the machine's own 2-vs-1 speed-up at that
    moment. Rounds in which the machine reached at least :data:`FREE` count as
    rounds with two free CPUs; the speed-up over those rounds is reported
    apart, since on a shared machine other jobs decide the rest.
    """
    games = sizes.sim_games
    chunk = max(1, games // 8)
    work = [range(sizes.n(2_000_000))] * 8
    rates: dict[str, list[float]] = {"none": [], "1": [], "2": [], "cpu1": [], "cpu2": []}
    with ProcessPoolExecutor(max_workers=1) as one, ProcessPoolExecutor(max_workers=2) as two:
        for workers, pool in ((1, one), (2, two)):  # start the workers, build the configuration
            cardcore.simulate("golf", games=2 * workers, players=4, executor=pool, chunk=1)
        plan: tuple[tuple[str, ProcessPoolExecutor | None], ...] = (
            ("1", one),
            ("2", two),
            ("none", None),
        )
        for r in range(sizes.rounds):
            for key, ex in plan:
                if key == "none" and r % 2:
                    continue  # the in-process figure is for reference; fewer rounds
                start = time.perf_counter()
                cardcore.simulate(
                    "golf", games=games, players=4, seed=seed + r, executor=ex, chunk=chunk
                )
                rates[key].append(games / (time.perf_counter() - start))
            for key, pool in (("cpu1", one), ("cpu2", two)):
                start = time.perf_counter()
                list(pool.map(sum, work))
                rates[key].append(1 / (time.perf_counter() - start))
    sim = [b / a for a, b in zip(rates["1"], rates["2"], strict=True)]
    machine = [b / a for a, b in zip(rates["cpu1"], rates["cpu2"], strict=True)]
    share = [x / m for x, m in zip(sim, machine, strict=True)]
    free = [x for x, m in zip(sim, machine, strict=True) if m >= FREE]
    return {
        "game": "golf-6",
        "games_per_round": games,
        "chunk": chunk,
        "games_per_s_in_process": statistics.median(rates["none"]),
        "games_per_s_1_worker": statistics.median(rates["1"]),
        "games_per_s_2_workers": statistics.median(rates["2"]),
        "speedup_2_vs_1": statistics.median(sim),
        "share_of_machine_speedup": statistics.median(share),
        "rounds_share_of_machine_speedup": share,
        "machine_speedup_2_vs_1": statistics.median(machine),
        "rounds": len(sim),
        "rounds_two_free_cpus": len(free),
        "speedup_2_vs_1_two_free_cpus": statistics.median(free) if free else None,
        "rounds_speedup": sim,
        "rounds_machine_speedup": machine,
        "cpu_count": os.cpu_count(),
    }


FREE = 1.8

LONG_NULL = 20_000
"""Actions played before the long clone-and-apply figure (issue 14: O(1) at 20,000)."""


def _step(game: cardcore.Game) -> None:
    game.apply(game.legal_actions(game.to_act[0])[0])


def clone_apply_us(game: cardcore.Game, calls: int) -> float:
    """CPU µs of ``clone()``, then one apply on the clone and one on the original.

    What a search agent pays per step: the original advances too, so the
    figure includes the first apply after a clone on both sides.
    """
    start = clock()
    for _ in range(calls):
        copy = game.clone()
        _step(copy)
        _step(game)
    return (clock() - start) / calls * 1e6


def clone_apply_figures(sizes: Sizes) -> dict[str, float]:
    """clone()+apply at action 100 and at action 20,000 (null game), and in Golf."""
    out: dict[str, float] = {}
    calls = sizes.n(3000)
    for at in (100, LONG_NULL):
        game = cardcore.new_game(nullgame.NAME, 4, options={"length": 10**7}, seed=1)
        for _ in range(at):
            _step(game)
        out[f"null_at_{at}_us"] = clone_apply_us(game, calls)
    cfg = CONFIGS[0]
    golf = mid_game(cfg, 3)
    out["golf_mid_at"] = float(golf.version)
    out["golf_mid_us"] = clone_apply_us(golf, min(calls, 150))
    out["growth"] = out[f"null_at_{LONG_NULL}_us"] / out["null_at_100_us"]
    return out


def view_over_rounds(sizes: Sizes, seed: int = 5) -> dict[str, float]:
    """Golf ``view()`` at the first action of round 2 and of a late round (a 60-round match)."""
    rounds = 60
    game = cardcore.new_game("golf", 4, options={"layout": 6, "rounds": rounds}, seed=seed)
    rand = random.Random(seed).random
    logic, at = game.logic, {}
    while not game.is_over:
        played = logic.rounds_played(game.state)
        if played in (1, rounds - 5) and played not in at:
            at[played] = game.clone()
        legal = game.legal_actions(game.to_act[0])
        game.apply(legal[int(rand() * len(legal))])
    calls = sizes.n(2000)
    early, late = at[1], at[rounds - 5]
    out = {
        "early_round": 2.0,
        "late_round": float(rounds - 4),
        "early_us": per_call(lambda: early.view(early.to_act[0]), calls),
        "late_us": per_call(lambda: late.view(late.to_act[0]), calls),
    }
    out["growth"] = out["late_us"] / out["early_us"]
    return out


"""A round's machine check at or above this 2-vs-1 speed-up counts as "two free CPUs"."""


# -- the run -----------------------------------------------------------------------------------------


def _median(rows: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in rows) for k in rows[0]}


def run(
    sizes: Sizes, only: Sequence[str] = (), progress: Callable[[str], object] | None = None
) -> dict[str, Any]:
    """Run every benchmark at *sizes* and return the results as JSON-ready data."""
    say = progress or (lambda _msg: None)
    nullgame.register()
    configs = [c for c in CONFIGS if not only or c.key in only or c.name in only]
    for cfg in configs:  # build every configuration once (plugin managers are cached)
        cardcore.new_game(cfg.name, cfg.players, options=cfg.options, seed=0)
    results: dict[str, Any] = {"games": {}, "bare": {}}
    bare_rows: dict[str, list[tuple[float, float]]] = {"golf": [], "tonk": [], "tonk-nodrop": []}
    plain: dict[str, list[tuple[float, float]]] = {c.key: [] for c in configs}
    sub: dict[str, list[tuple[float, float]]] = {c.key: [] for c in configs}
    log: dict[str, list[tuple[float, float]]] = {c.key: [] for c in configs}  # move-log subscriber
    solo: dict[str, list[tuple[float, float]]] = {c.key: [] for c in configs}  # single_thread()
    bare_logic: dict[str, list[tuple[float, float]]] = {c.key: [] for c in configs}  # no Game
    paired: dict[str, list[float]] = {c.key: [] for c in configs}  # bare decisions/s, same round
    ops: dict[str, list[dict[str, float]]] = {c.key: [] for c in configs}
    # rounds outside, configurations inside: a burst of load lands in one round of several
    # configurations, not in every round of one, and the medians filter it out
    for r in range(sizes.rounds):
        say(f"round {r + 1} of {sizes.rounds}")
        seed = 1000 * r + 1
        for cfg in configs:
            if cfg.bare:
                bare = bare_round(cfg.bare, sizes.n(BARE_GAMES[cfg.bare]), seed)
                if cfg.exact:
                    bare_rows[cfg.bare].append(bare)
                paired[cfg.key].append(bare[1])
            play = realtime_round if cfg.realtime else engine_round
            plain[cfg.key].append(play(cfg, sizes.n(cfg.games), seed, False))
            sub[cfg.key].append(play(cfg, sizes.n(cfg.games), seed, True))
            if cfg.exact:
                log[cfg.key].append(
                    engine_round(cfg, sizes.n(cfg.games), seed, True, cardcore.ActionApplied)
                )
            if cfg.key == "golf-6":
                solo[cfg.key].append(engine_round(cfg, sizes.n(cfg.games), seed, False, single=True))
                bare_logic[cfg.key].append(logic_round(cfg, sizes.n(cfg.games), seed))
            if cfg.key != "tonk-nodrop":  # the same operations as "tonk"
                ops[cfg.key].append(operations_round(cfg, sizes, 500 + r))
    for cfg in configs:
        p_rows, s_rows, b_rows = plain[cfg.key], sub[cfg.key], paired[cfg.key]
        row: dict[str, Any] = {
            "game": cfg.name,
            "players": cfg.players,
            "options": cfg.options,
            "realtime": cfg.realtime,
            "games_per_round": sizes.n(cfg.games),
            "games_per_s": statistics.median(p[0] for p in p_rows),
            "decisions_per_s": statistics.median(p[1] for p in p_rows),
            "games_per_s_subscriber": statistics.median(x[0] for x in s_rows),
            "decisions_per_s_subscriber": statistics.median(x[1] for x in s_rows),
            "decisions_per_game": statistics.median(p[1] / p[0] for p in p_rows),
            "bare": cfg.bare,
            "bare_exact": cfg.exact,
            "decisions_per_s_ratio": None,
            "decisions_per_s_subscriber_ratio": None,
            "rounds_decisions_per_s": [p[1] for p in p_rows],
            "rounds_decisions_per_s_subscriber": [x[1] for x in s_rows],
            "rounds_bare_decisions_per_s": b_rows,
        }
        if b_rows:  # the median of per-round ratios: a burst of load hits both sides of a pair
            row["decisions_per_s_ratio"] = statistics.median(
                p[1] / b for b, p in zip(b_rows, p_rows, strict=True)
            )
            row["decisions_per_s_subscriber_ratio"] = statistics.median(
                x[1] / b for b, x in zip(b_rows, s_rows, strict=True)
            )
        if log[cfg.key]:
            row["decisions_per_s_log_subscriber"] = statistics.median(x[1] for x in log[cfg.key])
            row["rounds_decisions_per_s_log_subscriber"] = [x[1] for x in log[cfg.key]]
            row["decisions_per_s_log_subscriber_ratio"] = statistics.median(
                x[1] / b for b, x in zip(b_rows, log[cfg.key], strict=True)
            )
        if solo[cfg.key]:
            row["decisions_per_s_single_thread"] = statistics.median(x[1] for x in solo[cfg.key])
            row["decisions_per_s_single_thread_ratio"] = statistics.median(
                x[1] / b for b, x in zip(b_rows, solo[cfg.key], strict=True)
            )
        if bare_logic[cfg.key]:
            row["decisions_per_s_logic_only"] = statistics.median(x[1] for x in bare_logic[cfg.key])
            row["decisions_per_s_logic_only_ratio"] = statistics.median(
                x[1] / b for b, x in zip(b_rows, bare_logic[cfg.key], strict=True)
            )
        if ops[cfg.key]:
            row.update(_median(ops[cfg.key]))
            row["rounds_replay_actions_per_s"] = [o["replay_actions_per_s"] for o in ops[cfg.key]]
        results["games"][cfg.key] = row
    for which, rows in bare_rows.items():
        if rows:
            results["bare"][which] = {
                "games_per_s": statistics.median(r[0] for r in rows),
                "decisions_per_s": statistics.median(r[1] for r in rows),
                "decisions_per_game": statistics.median(r[1] / r[0] for r in rows),
                "rounds_decisions_per_s": [r[1] for r in rows],
            }
    say("driver cost (null game)")
    n = sizes.n(100_000)
    via_game = statistics.median(null_round(n, True) for _ in range(sizes.rounds))
    via_logic = statistics.median(null_round(n, False) for _ in range(sizes.rounds))
    results["driver"] = {
        "decisions_per_s_game": via_game,
        "decisions_per_s_logic": via_logic,
        "driver_us_per_decision": (1 / via_game - 1 / via_logic) * 1e6,
    }
    if not only or "golf" in only or "golf-6" in only:
        say("clone and apply")
        results["clone_apply"] = _median([clone_apply_figures(sizes) for _ in range(sizes.rounds)])
        say("view over rounds")
        results["view_rounds"] = _median([view_over_rounds(sizes) for _ in range(sizes.rounds)])
        say("memory")
        results["memory"] = memory_per_game(sizes.memory_games)
        say("simulate")
        results["simulate"] = simulate_figures(sizes)
    results["targets"] = targets(results)
    return results


def _ratios(bare: Sequence[float], rows: Sequence[tuple[float, float]]) -> list[float]:
    return [x[1] / b for b, x in zip(bare, rows, strict=True)]


def targets(results: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Check the issue-14 targets against *results*; each row says pass or fail.

    A row carries the median and, where the figure has rounds, their range.
    """
    rows: list[dict[str, Any]] = []

    def check(
        name: str,
        where: str,
        value: float | None,
        limit: float,
        higher: bool,
        unit: str,
        spread: Sequence[float] = (),
    ) -> None:
        ok = None if value is None else (value >= limit if higher else value <= limit)
        rows.append({"target": name, "where": where, "value": value, "limit": limit,
                     "rule": ">=" if higher else "<=", "unit": unit, "pass": ok,
                     "range": [min(spread), max(spread)] if spread else None})  # fmt: skip

    games = results["games"]
    bare = results["bare"]
    for which, b in bare.items():
        if which == "golf":
            check("tuned bare loop speed", "bare golf-6, 4 players", b["decisions_per_s"] / 1e6,
                  2.6, True, "M decisions/s", [x / 1e6 for x in b["rounds_decisions_per_s"]])  # fmt: skip
    if "golf-6" in games:
        g = games["golf-6"]
        b_rows = g["rounds_bare_decisions_per_s"]
        for label, key, limit in (
            ("random play, no subscriber, vs bare", "", 0.25),
            ("random play, move-log subscriber, vs bare", "_log_subscriber", 0.20),
            ("random play, every-event subscriber, vs bare", "_subscriber", 0.15),
        ):
            ratio = g.get(f"decisions_per_s{key}_ratio")
            spread = [
                r / b
                for b, r in zip(b_rows, g.get(f"rounds_decisions_per_s{key}", []), strict=False)
            ]
            check(label, "golf-6, 4 players", ratio, limit, True, "x", spread)
    if "tonk-nodrop" in games:
        g = games["tonk-nodrop"]
        spread = [
            r / b
            for b, r in zip(
                g["rounds_bare_decisions_per_s"], g["rounds_decisions_per_s"], strict=True
            )
        ]
        check("random play, never-drop agent, vs bare --no-drop", "tonk, 3 players",
              g["decisions_per_s_ratio"], 0.30, True, "x", spread)  # fmt: skip
    for key, g in games.items():
        if "replay_actions_per_s" in g:
            where = f"{key} ({g['replay_actions_per_record']:.0f} actions/record)"
            check("replay", where, g["replay_actions_per_s"], 100_000, True, "actions/s",
                  g.get("rounds_replay_actions_per_s", ()))  # fmt: skip
    ca = results.get("clone_apply")
    if ca:
        check("clone()+apply on clone and original", f"at action {LONG_NULL:,} (null game)",
              ca[f"null_at_{LONG_NULL}_us"], 8, False, "us")  # fmt: skip
        check("clone()+apply growth, 20,000 vs 100 actions", "null game", ca["growth"],
              1.5, False, "x")  # fmt: skip
    vr = results.get("view_rounds")
    if vr:
        check("view() cost growth over rounds played",
              f"golf-6, round {vr['late_round']:.0f} vs round {vr['early_round']:.0f}",
              vr["growth"], 1.25, False, "x")  # fmt: skip
    for key, g in games.items():
        if "new_game_us" in g:
            limit = NEW_GAME_LIMIT_US[g["game"]]
            check("new_game", key, g["new_game_us"], limit, False, "us")
    if "memory" in results:
        m = results["memory"]
        check("memory per live game", f"golf-6, 4 players, at action {m['mid_game_actions']:.0f}",
              m["bytes_per_game"] / 1024, 12, False, "KB")  # fmt: skip
    for key, g in games.items():
        if "clone_us" in g:
            check("clone() mid-game", key, g["clone_us"], 5, False, "us")
    if "simulate" in results:
        sim = results["simulate"]
        check("simulate 2 workers: share of the machine's 2-copy speed-up",
              f"golf-6; sim {sim['speedup_2_vs_1']:.2f}x, machine {sim['machine_speedup_2_vs_1']:.2f}x",
              sim["share_of_machine_speedup"], 0.9, True, "x",
              sim["rounds_share_of_machine_speedup"])  # fmt: skip
    return rows


# -- output ------------------------------------------------------------------------------------------


def _fmt(value: float | None, digits: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"


def _ratio(value: float | None, exact: bool) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}x" if exact else f"~{value:.3f}x"


def tables(results: Mapping[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """Build the tables to print: (title, headers, rows)."""
    out: list[tuple[str, list[str], list[list[str]]]] = []
    rows = []
    for which, b in results["bare"].items():
        rows.append(
            [
                f"bare {which}",
                _fmt(b["games_per_s"]),
                _fmt(b["decisions_per_s"]),
                "1x",
                "",
                "",
                "",
                _fmt(b["decisions_per_game"], 1),
            ]
        )
    for key, g in results["games"].items():
        exact = g["bare_exact"]
        rows.append([
            key + (" (bots, virtual clock)" if g["realtime"] else ""),
            _fmt(g["games_per_s"]), _fmt(g["decisions_per_s"]), _ratio(g["decisions_per_s_ratio"], exact),
            _fmt(g["games_per_s_subscriber"]), _fmt(g["decisions_per_s_subscriber"]),
            _ratio(g["decisions_per_s_subscriber_ratio"], exact), _fmt(g["decisions_per_game"], 1),
        ])  # fmt: skip
    out.append((
        "Random play through legal_actions + apply (CPU time; medians of rounds; x bare: median of per-round ratios)",
        ["game", "games/s", "decisions/s", "x bare", "games/s (1 sub)", "decisions/s (1 sub)", "x bare (1 sub)", "decisions/game"],
        rows,
    ))  # fmt: skip
    rows = []
    for key, g in results["games"].items():
        if "new_game_us" not in g:
            continue
        rows.append([
            key, _fmt(g["new_game_us"], 1), _fmt(g["clone_us"], 2), _fmt(g["view_us"], 1),
            _fmt(g["save_us"], 1), _fmt(g["load_us"], 0), _fmt(g["replay_actions_per_s"]),
            _fmt(g["replay_us_per_record"]), _fmt(g["mid_game_actions"]),
        ])  # fmt: skip
    out.append((
        "Single operations (µs per call, mid-game; replay of whole records)",
        ["game", "new_game µs", "clone() µs", "view() µs", "save() µs", "load() µs", "replay actions/s", "replay µs/record", "mid-game at action"],
        rows,
    ))  # fmt: skip
    rows = []
    d = results.get("driver")
    if d:
        rows.append(["null game via logic only", _fmt(d["decisions_per_s_logic"]) + " decisions/s"])
        rows.append(["null game via Game", _fmt(d["decisions_per_s_game"]) + " decisions/s"])
        rows.append(["driver cost per decision", _fmt(d["driver_us_per_decision"], 2) + " µs"])
    g6 = results["games"].get("golf-6", {})
    if "decisions_per_s_single_thread" in g6:
        rows.append(["golf-6 random play after single_thread() (not a target: no lock)",
                     f"{_fmt(g6['decisions_per_s_single_thread'])} decisions/s,"
                     f" {g6['decisions_per_s_single_thread_ratio']:.3f}x bare"])  # fmt: skip
    if "decisions_per_s_logic_only" in g6:
        rows.append(["golf-6 random play through its logic alone, no Game (not a target)",
                     f"{_fmt(g6['decisions_per_s_logic_only'])} decisions/s,"
                     f" {g6['decisions_per_s_logic_only_ratio']:.3f}x bare"])  # fmt: skip
    ca = results.get("clone_apply")
    if ca:
        rows.append(["clone()+apply on clone and original, null game at action 100",
                     _fmt(ca["null_at_100_us"], 2) + " µs"])  # fmt: skip
        rows.append([f"clone()+apply on clone and original, null game at action {LONG_NULL:,}",
                     _fmt(ca[f"null_at_{LONG_NULL}_us"], 2) + " µs"])  # fmt: skip
        rows.append([f"clone()+apply on clone and original, golf-6 at action {ca['golf_mid_at']:.0f}",
                     _fmt(ca["golf_mid_us"], 2) + " µs"])  # fmt: skip
    vr = results.get("view_rounds")
    if vr:
        rows.append([f"golf-6 view() at round {vr['early_round']:.0f} / round {vr['late_round']:.0f}",
                     f"{vr['early_us']:.1f} / {vr['late_us']:.1f} µs"])  # fmt: skip
    m = results.get("memory")
    if m:
        rows.append([f"memory per live game ({int(m['games'])} GOLF6 4p at action {int(m['mid_game_actions'])})",
                     f"{m['bytes_per_game'] / 1024:.1f} KB (peak {m['peak_bytes_per_game'] / 1024:.1f} KB)"])  # fmt: skip
    s = results.get("simulate")
    if s:
        rows.append(
            [
                f"simulate golf-6, in process ({s['games_per_round']} games)",
                _fmt(s["games_per_s_in_process"]) + " games/s",
            ]
        )
        rows.append(["simulate, 1 worker process", _fmt(s["games_per_s_1_worker"]) + " games/s"])
        rows.append(["simulate, 2 worker processes", _fmt(s["games_per_s_2_workers"]) + " games/s"])
        rows.append(
            ["simulate speed-up, 2 vs 1 workers (wall clock)", f"{s['speedup_2_vs_1']:.2f}x"]
        )
        rows.append(
            [
                "the machine meanwhile: plain CPU task, 2 vs 1 workers",
                f"{s['machine_speedup_2_vs_1']:.2f}x",
            ]
        )
        free = s["speedup_2_vs_1_two_free_cpus"]
        rows.append(
            [
                f"simulate speed-up in rounds with two free CPUs"
                f" ({s['rounds_two_free_cpus']} of {s['rounds']})",
                "-" if free is None else f"{free:.2f}x",
            ]
        )
    out.append(("Driver, memory and simulate", ["figure", "value"], rows))
    rows = []
    for t in results["targets"]:
        v = t["value"]
        digits = {"x": 3, "us": 2, "KB": 1, "M decisions/s": 2}.get(t["unit"], 0)
        shown = "-" if v is None else f"{v:,.{digits}f}"
        verdict = "n/a" if t["pass"] is None else ("PASS" if t["pass"] else "FAIL")
        spread = t.get("range")
        span = "" if not spread else f"{spread[0]:,.{digits}f} .. {spread[1]:,.{digits}f}"
        rows.append(
            [
                t["target"],
                t["where"],
                f"{shown} {t['unit']}",
                span,
                f"{t['rule']} {t['limit']:g} {t['unit']}",
                verdict,
            ]
        )
    out.append((
        "Targets (issue 14; median of rounds, range of rounds)",
        ["target", "where", "median", "range", "target", "result"],
        rows,
    ))  # fmt: skip
    return out


def render(results: Mapping[str, Any], plain: bool = False) -> None:
    """Print the tables with rich, or as plain text if rich is missing or *plain*."""
    try:
        if plain:
            raise ImportError
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        for title, headers, rows in tables(results):
            widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows, strict=False)]
            print(f"\n{title}")
            print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
            print("  ".join("-" * w for w in widths))
            for row in rows:
                print(
                    "  ".join(
                        c.rjust(w) if i else c.ljust(w)
                        for i, (c, w) in enumerate(zip(row, widths, strict=True))
                    )
                )
        return
    console = Console(width=max(120, Console().width))
    for title, headers, rows in tables(results):
        table = Table(title=title, title_justify="left")
        for i, h in enumerate(headers):
            table.add_column(h, justify="left" if i == 0 else "right")
        for row in rows:
            styled = [
                f"[green]{c}[/]" if c == "PASS" else f"[red]{c}[/]" if c == "FAIL" else c
                for c in row
            ]
            table.add_row(*styled)
        console.print(table)


def meta(mode: str, argv: Sequence[str]) -> dict[str, Any]:
    """Describe the machine and the run."""
    return {
        "date_utc": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python benchmarks/run.py " + " ".join(argv),
        "mode": mode,
        "rounds": SIZES[mode].rounds,
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "cardcore": cardcore.__version__,
        "clock": "time.process_time (simulate: time.perf_counter)",
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: ``python benchmarks/run.py [--quick] [--json out.json]``."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description="cardcore benchmarks (issues 8 and 14)")
    parser.add_argument("--quick", action="store_true", help="3 rounds and smaller batches")
    parser.add_argument("--tiny", action="store_true", help="1 round, minimal batches (smoke test)")
    parser.add_argument("--json", metavar="PATH", help="write every figure to this JSON file")
    parser.add_argument(
        "--only", nargs="*", default=(), help="game keys or names (golf-6, tonk, spit ...)"
    )
    parser.add_argument(
        "--plain", action="store_true", help="plain-text tables even if rich is installed"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(args_list)
    mode = "tiny" if args.tiny else "quick" if args.quick else "full"
    info = meta(mode, args_list)
    say = None if args.quiet else (lambda msg: print(f"... {msg}", file=sys.stderr, flush=True))
    results = {"meta": info, **run(SIZES[mode], args.only, say)}
    results["meta"]["load_average_end"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    render(results, args.plain)
    print(f"\n{info['date_utc']}, Python {info['python']}, {info['cpu_count']} CPUs, {mode} run"
          f" ({info['rounds']} rounds), load average {info['load_average']} -> {results['meta']['load_average_end']}")  # fmt: skip
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2, sort_keys=True)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
