"""Many seeded games at once: :func:`simulate` and its :class:`Summary`.

Game *i* of a study seeded *s* is seeded from ``(s, i)``, and results are
combined in game order, so the same study gives the same summary whatever
executor runs it and however many workers it has.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

from attrs import frozen

from cardcore._agentspec import seats_named, split_agent_specs
from cardcore.deck import derive_rng
from cardcore.errors import CardcoreError, IllegalActionError

__all__ = ["MAX_GAMES", "GameOutcome", "Summary", "run_one", "simulate"]


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
    :param wins: Win shares per seat (a tie of k winners gives each 1/k).
    :param mean_scores: Mean final score per seat.
    :param sd_scores: Standard deviation of the final score per seat.
    :param mean_payouts: Mean net payout per seat, or ``None`` without stakes.
    :param sd_payouts: Standard deviation of the payouts, or ``None``.
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

    @property
    def win_rates(self) -> tuple[float, ...]:
        """Win shares divided by the number of games."""
        return tuple(w / self.games for w in self.wins) if self.games else self.wins

    def to_json(self) -> dict[str, Any]:
        """Return the summary as JSON-ready data."""
        return {
            "game": self.game,
            "games": self.games,
            "players": self.players,
            "agents": list(self.agents),
            "wins": list(self.wins),
            "win_rates": list(self.win_rates),
            "mean_scores": list(self.mean_scores),
            "sd_scores": list(self.sd_scores),
            "mean_payouts": None if self.mean_payouts is None else list(self.mean_payouts),
            "sd_payouts": None if self.sd_payouts is None else list(self.sd_payouts),
            "mean_actions": self.mean_actions,
            "truncated": self.truncated,
            "reasons": dict(self.reasons),
        }


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
    """
    from cardcore.agents import play, run_realtime
    from cardcore.setup import new_game

    name, players, agent_names, rules, without, options, study_seed, index = task
    seed = _seed_of(study_seed, index)
    game = new_game(name, players, rules=rules, without=without, options=options, seed=seed)
    game.single_thread()  # this task's thread is the only one that touches it
    agents = [
        _make_agent(spec, _seed_of(seed, 1000 + seat)) for seat, spec in enumerate(agent_names)
    ]
    try:
        if game.ruleset.game.realtime:
            result = run_realtime(game, agents, seed=seed)
        else:
            result = play(game, agents)
    except IllegalActionError as exc:  # an agent answered what the game refuses
        msg = f"in {name} game {index} (seed {seed}): {exc}"
        raise IllegalActionError(msg, action=exc.action, rule_id=exc.rule_id) from exc
    except CardcoreError:
        raise
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
        if n == 0:
            zeros = tuple(0.0 for _ in self.total)
            return zeros, zeros
        means = tuple(t / n for t in self.total)
        sds = tuple(math.sqrt(m2 / (n - 1)) if n > 1 else 0.0 for m2 in self.m2)
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
        :func:`cardcore.parse_agent_spec`); one spec (text) fills every seat, and
        text of several (``"golf-greedy,random"``) is one per seat, split as on the
        command line (give as many as *players*); default ``"random"`` everywhere.
    :param rules: House rules for every game.
    :param without: Default rules switched off.
    :param options: The game's options.
    :param seed: The study seed; game *i* is seeded from ``(seed, i)``.
    :param executor: Any :class:`concurrent.futures.Executor` (processes,
        threads, a dask client's executor); ``None`` runs here. Worker processes
        find games, rules and agents through their entry points: one added with
        :func:`cardcore.register` exists only in the process that registered it
        (and in processes forked from it after), not in spawned workers.
    :param chunk: Games per task sent to the executor.
    :param progress: Called with the number of games finished in each chunk.
    :raises OptionError: *games* or *chunk* not an int of at least 1 (*games* at most
        10,000,000), a seed that is
        not an int from 0 below ``2**128``, agents not one per seat, bad options or
        agent parameters, an *executor* without ``map()`` or a *progress* that is not callable.
    """
    from cardcore._agentspec import check_agent_bounds
    from cardcore._text import shown
    from cardcore.agents import check_agent
    from cardcore.errors import OptionError
    from cardcore.plugins import check_agent_params, game_info, load_agent, parse_agent_spec
    from cardcore.setup import MAX_PLAYERS, MAX_SEED_BITS, new_game

    if players is None:  # as many as the agents named, else the fewest the game seats
        players = seats_named(agents) or game_info(game).min_players  # names an unknown game
    checks = (("games", games, 1), ("players", players, 1), ("chunk", chunk, 1), ("seed", seed, 0))
    most = {"games": MAX_GAMES, "players": MAX_PLAYERS}  # ("random",) * 2**80 overflows
    for what, value, low in checks:
        if (
            type(value) is not int
            or value < low
            or (what == "seed" and value >= 2**MAX_SEED_BITS)
            or (what in most and value > most[what])
        ):
            span = f"from 0 below 2**{MAX_SEED_BITS}" if what == "seed" else f"of at least {low}"
            span += f" and at most {most[what]:,}" if what in most else ""
            msg = f"{what} must be an int {span}, not {shown(value)}"
            raise OptionError(msg)
    if executor is not None and not callable(getattr(executor, "map", None)):
        msg = (
            f"executor must be a concurrent.futures.Executor (it has map()), not {shown(executor)}"
        )
        raise OptionError(msg)
    if options is not None and not isinstance(options, Mapping):
        msg = f"options must be a mapping of option names to values, not {shown(options)}"
        raise OptionError(msg)
    if progress is not None and not callable(progress):
        msg = f"progress must be a function of the number of games done, or None, not {shown(progress)}"
        raise OptionError(msg)
    if isinstance(agents, str):  # "a,b" one per seat, as on the command line; one fills every seat
        specs = split_agent_specs(agents)
        agents = tuple(specs) * players if len(specs) == 1 else tuple(specs)
    if agents is None:
        agent_names: tuple[Any, ...] = ("random",) * players
    else:  # not a list of specs (a number, a mapping): refused below
        agent_names = tuple(agents) if isinstance(agents, Sequence) else ()
    if len(agent_names) != players or not all(isinstance(a, str) for a in agent_names):
        msg = f"agents takes one agent spec per seat ({players}) or one for every seat, not {shown(agents)}"
        raise OptionError(msg)

    new_game(game, players, rules=rules, without=without, options=options, seed=0)  # fail fast
    info = game_info(game)
    for spec in dict.fromkeys(agent_names):
        name, params = parse_agent_spec(spec)
        check_agent(name, load_agent(name), info)
        check_agent_params(name, load_agent(name), params)
        check_agent_bounds(name, load_agent(name), params)
    opts = dict(options or {})
    study = (game, players, agent_names, tuple(rules), tuple(without), opts, seed)
    # each chunk names its games, not lists them: an executor may take every chunk at once
    chunks = [(study, i, min(i + chunk, games)) for i in range(0, games, chunk)]
    tally = _Tally(game, players, agent_names)
    results = map(_run_chunk, chunks) if executor is None else executor.map(_run_chunk, chunks)
    for done in results:  # in game order, whatever the executor
        for outcome in done:
            tally.add(outcome)
        if progress is not None:
            progress(len(done))
    return tally.summary()
