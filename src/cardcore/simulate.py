"""Many seeded games at once: :func:`simulate` and its :class:`Summary`.

Game *i* of a study seeded *s* is seeded from ``(s, i)``, and results are
combined in game order, so the same study gives the same summary whatever
executor runs it and however many workers it has. Exactly: game *i*'s seed is
``int(derive_rng(s, i).random() * 2**62)``, and the agent in seat *k* of a game
seeded *g* gets ``int(derive_rng(g, 1000 + k).random() * 2**62)`` (unless its spec sets
``seed``): an agent's seed follows the seat it sits in, so a rotating line-up moves it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import BrokenExecutor, Executor
from typing import Any

import attrs
from attrs import frozen

from cardcore._agentspec import check_seedable, seats_named, split_agent_specs
from cardcore._faults import renamed
from cardcore._text import plain, read_all, shown
from cardcore.deck import derive_rng
from cardcore.errors import (
    ArgumentError,
    CardcoreError,
    OptionError,
)

__all__ = ["MAX_GAMES", "GameOutcome", "Summary", "run_one", "seats_for", "simulate"]


@frozen
class GameOutcome:
    """What one simulated game produced (small, picklable)."""

    index: int
    seed: int
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    payouts: tuple[int, ...] | None
    reason: str
    actions: int


@frozen
class Summary:
    """The combined results of a study.

    :param game: The game's name.
    :param games: How many games were played.
    :param players: Seats per game.
    :param agents: The agent names per seat.
    :param wins: Win shares per seat (a tie of k winners gives each 1/k), summed over the
        games and rounded to 9 decimals (so three-way ties add up to whole numbers).
    :param mean_scores: Mean final score per seat.
    :param sd_scores: Sample standard deviation (divided by games - 1) of the final score
        per seat: not a number (``math.nan``; ``null`` in :meth:`to_json`) over one game,
        where it is undefined.
    :param mean_payouts: Mean net payout per seat over the games that had stakes (payouts
        not ``None``), or ``None`` when none had.
    :param sd_payouts: Sample standard deviation of the payouts (``math.nan`` over one
        game), or ``None``.
    :param mean_actions: Mean number of actions per game.
    :param truncated: Games stopped at the action bound.
    :param reasons: How many games ended for each reason.
    """

    game: str
    games: int
    players: int
    agents: tuple[str, ...]
    wins: tuple[float, ...]
    mean_scores: tuple[float, ...]
    sd_scores: tuple[float, ...]
    mean_payouts: tuple[float, ...] | None
    sd_payouts: tuple[float, ...] | None
    mean_actions: float
    truncated: int
    reasons: Mapping[str, int]

    def __eq__(self, other: object) -> bool:
        """Field by field, an undefined spread (NaN, over one game) equal to another:
        a summary sent through pickle (a process pool, dask) still equals itself."""
        if type(other) is not Summary:
            return NotImplemented
        return _same_nan(attrs.astuple(self, recurse=False), attrs.astuple(other, recurse=False))

    def __hash__(self) -> int:
        return hash((self.game, self.games, self.players, self.agents, self.wins))

    @property
    def win_rates(self) -> tuple[float, ...]:
        """Win shares divided by the number of games."""
        return tuple(w / self.games for w in self.wins) if self.games else self.wins

    def to_json(self) -> dict[str, Any]:
        """Return the summary as JSON-ready data (strict JSON: an undefined standard
        deviation, over one game, is ``None``, ``null`` in the JSON text)."""
        return {
            "game": self.game,
            "games": self.games,
            "players": self.players,
            "agents": list(self.agents),
            "wins": list(self.wins),
            "win_rates": list(self.win_rates),
            "mean_scores": list(self.mean_scores),
            "sd_scores": _finite(self.sd_scores),
            "mean_payouts": None if self.mean_payouts is None else list(self.mean_payouts),
            "sd_payouts": None if self.sd_payouts is None else _finite(self.sd_payouts),
            "mean_actions": self.mean_actions,
            "truncated": self.truncated,
            "reasons": dict(self.reasons),
        }


def _same_nan(a: Any, b: Any) -> bool:
    """``a == b`` with NaN equal to NaN (inside tuples too)."""
    if type(a) is tuple and type(b) is tuple:
        return len(a) == len(b) and all(map(_same_nan, a, b))
    if type(a) is float and type(b) is float and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


def _finite(values: Sequence[float]) -> list[float | None]:
    """*values* for JSON, which has no NaN: a value that is not a number is ``None``."""
    return [None if math.isnan(v) else v for v in values]


def _seed_of(study_seed: int, index: int) -> int:
    return int(derive_rng(study_seed, index).random() * 2**62)


def _make_agent(spec: str, seed: int) -> Any:
    """Agent *spec* (``NAME`` or ``NAME:KEY=VALUE,...``) seeded with *seed* unless the spec says."""
    from cardcore.plugins import load_agent, parse_agent_spec

    name, params = parse_agent_spec(spec)
    params.setdefault("seed", seed)
    return load_agent(name, **params)


def run_one(
    task: tuple[str, int, Sequence[str], Sequence[str], Sequence[str], Mapping[str, Any], int, int],
) -> GameOutcome:
    """Play one game of a study; the unit of work sent to executors.

    :param task: ``(game, players, agents, rules, without, options, study_seed, index)``.
    :raises ArgumentError: For a *task* that is not a tuple of those eight.
    :raises OptionError: For *agents* that are not a list of agent specs.
    """
    from cardcore.agents import play, run_realtime
    from cardcore.setup import new_game

    if not (isinstance(task, tuple | list) and len(task) == 8):
        msg = f"a task is (game, players, agents, rules, without, options, study_seed, index), not {shown(task, 60)}"
        raise ArgumentError(msg)
    name, players, agent_names, rules, without, options, study_seed, index = task
    if not (isinstance(agent_names, tuple | list) and all(type(a) is str for a in agent_names)):
        raise OptionError(f"a task's agents must be a list of agent specs, not {shown(agent_names, 60)}")
    seed = _seed_of(study_seed, index)
    game = new_game(name, players, rules=rules, without=without, options=options, seed=seed)
    game.single_thread()  # this task's thread is the only one that touches it
    agents = []
    for seat, spec in enumerate(agent_names):
        try:
            agents.append(_make_agent(spec, _seed_of(seed, 1000 + seat)))
        except OptionError:  # a parameter the agent refuses: as it is
            raise
        except CardcoreError as exc:  # named with the game, its class and data kept
            named = renamed(exc, f"in {name} game {index} (seed {seed}): {exc}")
            if named is exc:
                raise
            raise named from exc
        except Exception as exc:  # its constructor's own failure (StopIteration too: no map ends)
            msg = f"the agent of seat {seat} ({spec}) failed to be built for {name} game {index} (seed {seed}): {type(exc).__name__}: {exc}"
            raise CardcoreError(msg) from exc
    try:
        if game.ruleset.game.realtime:
            result = run_realtime(game, agents, seed=seed)
        else:
            result = play(game, agents)
    except CardcoreError as exc:  # an agent's refused answer, a plugin's failure, a stalled
        # game, an agent's own cardcore error: named with the game, its class and data kept
        named = renamed(exc, f"in {name} game {index} (seed {seed}): {exc}")
        if named is exc:
            raise
        raise named from exc
    except Exception as exc:  # only an agent raises anything else: the game wraps its own
        turn = game.to_act if not game.ruleset.game.realtime else ()
        who = (  # turn-based: the seat asked when it failed
            f"the agent of seat {turn[0]} ({agent_names[turn[0]]})"
            if len(turn) == 1
            else f"an agent ({', '.join(dict.fromkeys(agent_names))})"
        )
        msg = f"{who} failed in {name} game {index} (seed {seed}): {type(exc).__name__}: {exc}"
        raise CardcoreError(msg) from exc
    return GameOutcome(
        index, seed, result.winners, result.scores, result.payouts, result.reason, game.version
    )


Chunk = tuple[
    tuple[str, int, Sequence[str], Sequence[str], Sequence[str], Mapping[str, Any], int], int, int
]
"""``(study, start, stop)``: games *start* to *stop* - 1 of a study given as the first seven
fields of :func:`run_one`'s task; a few hundred bytes whatever the chunk's size."""


def _died(exc: BaseException) -> bool:
    """Whether *exc* says a worker died: a pool's ``BrokenExecutor``, dask's ``KilledWorker``
    (read by name: dask is an extra, not imported to catch it)."""
    kind = type(exc)
    return isinstance(exc, BrokenExecutor) or (
        kind.__name__ == "KilledWorker" and kind.__module__.startswith("distributed")
    )


def _lost_worker(exc: BaseException, finished: int, total: int) -> CardcoreError:
    """The error for an executor whose worker died mid-study (killed, out of memory): the
    games it finished are lost with it, and the same seed plays the same games again."""
    msg = (
        f"a worker of the executor stopped abruptly (killed, or out of memory?) after"
        f" {finished} of {total} games had come back: the study is abandoned; run it again"
        f" (the same seed plays the same games), with fewer workers if memory ran out"
        f" ({type(exc).__name__}: {_said(exc)})"
    )
    return CardcoreError(msg)


def _said(exc: BaseException) -> str:
    try:  # (dask's KilledWorker builds its text from what it holds: it can fail)
        return str(exc)[:400]
    except Exception:
        return "its message could not be read"


def _run_chunk(chunk: Chunk) -> list[GameOutcome]:
    study, start, stop = chunk
    return [run_one((*study, i)) for i in range(start, stop)]


class _Moments:
    """Per-seat running mean and spread of a column of values, fed in game order.

    The sum is kept as it is added (the mean is exactly the plain sum's), and the
    spread with Welford's update, so a study of millions of games keeps a few numbers
    per seat, not a row per game."""

    __slots__ = ("m2", "mean", "n", "total")

    def __init__(self, players: int) -> None:
        self.n = 0
        self.total = [0.0] * players
        self.mean = [0.0] * players
        self.m2 = [0.0] * players

    def add(self, row: Sequence[float]) -> None:
        self.n += 1
        n = self.n
        for s, x in enumerate(row):
            x = float(x)
            self.total[s] += x
            delta = x - self.mean[s]
            self.mean[s] += delta / n
            self.m2[s] += delta * (x - self.mean[s])

    def result(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        n = self.n
        if n < 2:  # the sample sd (ddof 1) needs two values: undefined, not zero
            undefined = tuple(math.nan for _ in self.total)
            return tuple(t / n if n else 0.0 for t in self.total), undefined
        means = tuple(t / n for t in self.total)
        sds = tuple(math.sqrt(m2 / (n - 1)) for m2 in self.m2)
        return means, sds


class _Tally:
    """A :class:`Summary` built as outcomes arrive (in game order), in constant memory."""

    def __init__(self, game: str, players: int, agents: Sequence[str]) -> None:
        self.game = game
        self.players = players
        self.agents = tuple(agents)
        self.games = 0
        self.actions = 0
        self.wins = [0.0] * players
        self.reasons: dict[str, int] = {}
        self.scores = _Moments(players)
        self.payouts = _Moments(players)

    def add(self, o: GameOutcome) -> None:
        self.games += 1
        self.actions += o.actions
        for w in o.winners:
            self.wins[w] += 1.0 / len(o.winners)
        self.reasons[o.reason] = self.reasons.get(o.reason, 0) + 1
        self.scores.add(o.scores)
        if o.payouts is not None:
            self.payouts.add(o.payouts)

    def summary(self) -> Summary:
        ms, ss = self.scores.result()
        mp: tuple[float, ...] | None = None
        sp: tuple[float, ...] | None = None
        if self.payouts.n:
            mp, sp = self.payouts.result()
        return Summary(
            game=self.game,
            games=self.games,
            players=self.players,
            agents=self.agents,
            wins=tuple(round(w, 9) for w in self.wins),
            mean_scores=ms,
            sd_scores=ss,
            mean_payouts=mp,
            sd_payouts=sp,
            mean_actions=self.actions / self.games if self.games else 0.0,
            truncated=self.reasons.get("truncated", 0),
            reasons=dict(sorted(self.reasons.items())),
        )


def summarize(
    game: str, players: int, agents: Sequence[str], outcomes: Iterable[GameOutcome]
) -> Summary:
    """Combine outcomes (in index order) into a :class:`Summary`."""
    tally = _Tally(game, players, agents)
    for o in sorted(outcomes, key=lambda o: o.index):
        tally.add(o)
    return tally.summary()


MAX_GAMES = 10_000_000
"""The most games one :func:`simulate` call plays."""


def seats_for(
    game: str,
    preferred: int,
    *,
    rules: Iterable[str] = (),
    without: Iterable[str] = (),
    options: Mapping[str, Any] | None = None,
) -> int:
    """The largest seat count up to *preferred* that this configuration of *game* accepts,
    else the smallest above it.

    *preferred* is first brought into the game's declared range; the counts from
    there down to the game's fewest are tried in turn (an option or rule may
    refuse some), then those above it up to the game's most (``dealer=3`` needs
    four seats), and the first that starts a game is the answer (the count in
    range when none does, so that the caller's own start names the problem).
    ``cardcore compare`` and :func:`cardcore.compare` share this rule, with
    *preferred* two.

    :raises ArgumentError: *preferred* is not an int of at least 1.
    :raises UnknownPluginError: An unknown game or rule.
    :raises RuleConflictError: Conflicting rules.
    """
    from cardcore.plugins import game_info
    from cardcore.setup import new_game

    if type(preferred) is not int or preferred < 1:
        msg = f"preferred must be a number of seats (an int of at least 1), not {shown(preferred)}"
        raise ArgumentError(msg)
    info = game_info(game)
    first = max(info.min_players, min(preferred, info.max_players))
    down, up = range(first, info.min_players - 1, -1), range(first + 1, info.max_players + 1)
    counts: list[int] = [*down, *up]
    for n in counts:
        try:
            new_game(game, n, rules=rules, without=without, options=options, seed=0)
        except OptionError:
            continue
        return n
    return first


def _check_study(
    game: str,
    *,
    games: object,
    players: object,
    seed: object,
    chunk: object,
    options: object,
    executor: object,
    progress: object,
) -> None:
    """Refuse a study's bad arguments in the words :func:`simulate` and
    :func:`cardcore.compare` share (the same bad value, the same message).

    A player count beyond any game (below 1, above ``MAX_PLAYERS``) is refused with
    the seats *game* takes (CORE-SEAT-2); one within that range but not *game*'s
    is left to :func:`cardcore.new_game`, which knows the options.

    :raises OptionError: *games* not a whole number from 1 to ``MAX_GAMES``,
        *players* or *chunk* not one of at least 1, a *seed* not an int from 0 below
        ``2**128``, *options* not a mapping, an *executor* without ``map()``, a
        *progress* that is not callable.
    :raises UnknownPluginError: *game* is not installed (only asked with a count of
        players beyond any game).
    """
    from cardcore.plugins import game_info
    from cardcore.setup import MAX_PLAYERS, MAX_SEED_BITS

    msg, players = "", plain(players)  # an int subclass read as new_game reads it
    if type(games) is not int or not 1 <= games <= MAX_GAMES:
        msg = (
            f"games must be a whole number of at least 1 and at most {MAX_GAMES:,},"
            f" not {shown(games, 40)}"
        )
    elif type(players) is not int:
        msg = (
            f"players must be a whole number of at least 1 and at most {MAX_PLAYERS},"
            f" not {shown(players, 40)}"
        )
    elif not 1 <= players <= MAX_PLAYERS:  # (x,) * 2**80 overflows: refused before any list
        info = game_info(game)
        low, high = info.min_players, info.max_players
        count = f"exactly {low}" if low == high else f"{low} to {high}"
        msg = (
            f"{info.name} takes {count} player{'s' * (high != 1)}, not {shown(players, 40)} (CORE-SEAT-2)"
        )
    elif type(seed) is not int or not 0 <= seed < 2**MAX_SEED_BITS:
        msg = f"seed must be an int from 0 below 2**{MAX_SEED_BITS}; {shown(seed, 40)} is not one"
    elif type(chunk) is not int or chunk < 1:
        msg = f"chunk must be a whole number of at least 1, not {shown(chunk, 40)}"
    elif options is not None and not isinstance(options, Mapping):
        msg = f"options must be a mapping of option names to values, not {shown(options, 40)}"
    elif executor is not None and not callable(getattr(executor, "map", None)):
        msg = (
            "executor must be a concurrent.futures.Executor (it has map()),"
            f" not {shown(executor, 40)}"
        )
    elif progress is not None and not callable(progress):
        msg = (
            "progress must be a function of the number of games done, or None,"
            f" not {shown(progress, 40)}"
        )
    if msg:
        raise OptionError(msg)


def _lineup(
    agents: object, players: int, default: tuple[str, ...], what: str = "agents"
) -> tuple[str, ...]:
    """The agent spec of every seat, from *agents* as :func:`simulate` and
    :func:`cardcore.compare` take it: ``None`` (*default*), one spec for every seat,
    or one per seat (a list, or text of several split as on the command line).

    :param what: The argument's name, for the message.
    :raises OptionError: Not a spec or a list of them; not one spec per seat or one for
        every seat.
    """
    if agents is None:
        return default
    specs: list[Any] | None = None
    if isinstance(agents, str):  # "a,b": one per seat, as on the command line
        specs = split_agent_specs(agents)
    elif isinstance(agents, Sequence):  # not a number or a mapping: refused below
        specs = [plain(a) for a in agents]  # a str subclass could hash its own way
    if specs is not None and len(specs) == 1:
        specs *= players
    if specs is None:
        msg = (
            f"{what} must be an agent spec or a list of them, one per seat, not {shown(agents, 60)}"
        )
        raise OptionError(msg)
    if len(specs) != players or not all(type(a) is str for a in specs):
        got = shown(agents, 60)
        if len(specs) != players:
            got = f"{len(specs)} specs: {got}"
        msg = f"{what} takes one agent spec per seat ({players}) or one for every seat, not {got}"
        if len(specs) == players:  # the count is right: objects, not names
            msg = (
                f"{what} takes agent specs (names, as text), not {got}: register an agent"
                " class by name (cardcore.register('cardcore.agents', NAME, CLASS)) and name it"
            )
        raise OptionError(msg)
    return tuple(specs)


def simulate(
    game: str,
    *,
    games: int = 100,
    players: int | None = None,
    agents: Sequence[str] | None = None,
    rules: Sequence[str] = (),
    without: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    executor: Executor | None = None,
    chunk: int = 50,
    progress: Callable[[int], object] | None = None,
) -> Summary:
    """Play *games* seeded games and summarize them.

    :param game: An installed game.
    :param games: How many games.
    :param players: Seats per game (default: as many as *agents* names when it names
        several, as on the command line; else the fewest the game seats, two for the
        built-in games).
    :param agents: Agents per seat: entry-point names of ``cardcore.agents``, or
        specs with parameters (``"ismcts:iterations=100"``, see
        :func:`cardcore.parse_agent_spec`); one spec (text, or a list of one) fills
        every seat, and a list or text of several (``"golf-greedy,random"``) is one
        per seat, text split as on the command line (give as many as *players*);
        default ``"random"`` everywhere. :func:`cardcore.compare` reads its line-ups
        the same way, and refuses the same values in the same words.
    :param rules: House rules for every game.
    :param without: Default rules switched off.
    :param options: The game's options.
    :param seed: The study seed; game *i* is seeded from ``(seed, i)``.
    :param executor: Any :class:`concurrent.futures.Executor` (processes,
        threads, a dask client's executor); ``None`` runs here. Worker processes
        find games, rules and agents through their entry points: one added with
        :func:`cardcore.register` exists only in the process that registered it
        (and in processes forked from it after), not in spawned workers.
    :param chunk: Games per task sent to the executor (an executor's ``map`` submits
        every task at once: a few hundred bytes each, so keep ``games / chunk`` to
        millions at most; run here, tasks are made as they are played).
    :param progress: Called with the number of games finished in each chunk. An
        exception it raises (``KeyboardInterrupt`` too) stops the study: the tasks an
        executor has not started are cancelled.
    :raises OptionError: *games* not a whole number from 1 to 10,000,000, *chunk* not
        one of at least 1, *players* not a count the game seats (beyond any game's: the
        game's range, CORE-SEAT-2), a seed that is not an int from 0 below ``2**128``,
        agents not one per seat, bad options or agent parameters, an *executor* without
        ``map()`` or a *progress* that is not callable.
    :raises CardcoreError: A worker of *executor* died (a process killed, out of memory: a
        ``concurrent.futures`` pool's ``BrokenExecutor``, now or in an earlier study; dask's
        ``KilledWorker``): the message says how many games had come back; none is returned.
        An agent that fails to be built or raises while it plays: named with its seat, the
        game's number and seed (the agent's error as its cause); a cardcore error of an
        agent or a plugin keeps its class, its message prefixed "in GAME game i (seed s)".
        A parameter only the agent's constructor refuses is its ``OptionError``, raised
        from the first game (in a worker, with an executor). No move has a time limit: an
        agent that hangs holds the study.
    """
    from cardcore._agentspec import check_agent_bounds
    from cardcore.agents import check_agent
    from cardcore.plugins import check_agent_params, game_info, load_agent, parse_agent_spec
    from cardcore.setup import new_game

    if players is None:  # as many as the agents named, else the fewest the game seats
        players = seats_named(agents) or game_info(game).min_players  # names an unknown game
    _check_study(
        game,
        games=games,
        players=players,
        seed=seed,
        chunk=chunk,
        options=options,
        executor=executor,
        progress=progress,
    )
    agent_names = _lineup(agents, players, ("random",) * players, "agents")

    # an iterator is read once: the fail-fast deal below would leave the study none
    rules = read_all(rules, "rules") if isinstance(rules, Iterator) else rules
    without = read_all(without, "without") if isinstance(without, Iterator) else without
    new_game(game, players, rules=rules, without=without, options=options, seed=0)  # fail fast
    info = game_info(game)
    for spec in dict.fromkeys(agent_names):
        name, params = parse_agent_spec(spec)
        check_agent(name, load_agent(name), info)
        check_agent_params(name, load_agent(name), params)
        check_seedable(name, load_agent(name), params, "simulate")
        check_agent_bounds(name, load_agent(name), params)
    opts = dict(options or {})
    study = (game, players, agent_names, tuple(rules), tuple(without), opts, seed)
    # each chunk names its games, not lists them: an executor may take every chunk at once
    chunks = ((study, i, min(i + chunk, games)) for i in range(0, games, chunk))  # made as read
    tally = _Tally(game, players, agent_names)
    # (an executor is given a list: a dask client refuses to map over an iterator)
    results: Any = None
    finished = 0
    try:  # (map itself raises on a pool a worker of an earlier study broke)
        results = map(_run_chunk, chunks) if executor is None else executor.map(_run_chunk, list(chunks))
        for done in results:  # in game order, whatever the executor
            for outcome in done:
                tally.add(outcome)
            finished += len(done)
            if progress is not None:
                progress(len(done))
    except Exception as exc:
        if _died(exc):
            raise _lost_worker(exc, finished, games) from exc
        raise
    finally:  # stopped early (an error, an interrupt): the chunks not started are cancelled
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return tally.summary()
