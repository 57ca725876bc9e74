"""A house-rule lab: :func:`compare` plays two configurations on the same seeds.

Configuration A and B (rule sets, options, or agent line-ups on one rule set)
play the same seeded games: game *i* of both is seeded from ``(seed, i)``, so
where both deal the same cards (the same deck, the same dealing) the games are
duplicate deals, and every figure's difference B - A is paired game by game.
Where the decks differ (jokers, another layout) the seeds are shared but the
deals are not, and ``Comparison.deals`` says so. Each figure comes with a
95% confidence interval. Like :func:`cardcore.simulate`, it runs here or on any
:class:`concurrent.futures.Executor` (a Dask client's ``get_executor()``
included) and gives the same result however it is run (but for the agents' wall-clock
measures, ``slowest`` and ``decisions_per_s``, so two runs' :class:`Comparison` objects
compare equal only without them).
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, cast

from attrs import evolve, frozen

from cardcore._agentspec import check_seedable, seats_named
from cardcore._options import SPELLING
from cardcore._text import plain, read_all, shown
from cardcore.agents import check_agent
from cardcore.compare._report import plot_comparison, rows_of, text_table
from cardcore.compare._run import AgentFailure, Config, GameRecord, Task, make_agent, run_chunk
from cardcore.compare._stats import (
    ConfigSummary,
    Estimate,
    mean_ci,
    paired_share_diff,
    proportion_ci,
    share_ci,
)
from cardcore.errors import (
    ArgumentError,
    CardcoreError,
    OptionError,
    RuleConflictError,
    UnknownPluginError,
)
from cardcore.plugins import (
    available_agents,
    check_agent_params,
    game_info,
    get_ruleset,
    load_agent,
    parse_agent_spec,
    rule_info,
)
from cardcore.setup import new_game
from cardcore.simulate import _check_study, _died, _lineup, _lost_worker, seats_for

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "AgentFailure",
    "Comparison",
    "ConfigSummary",
    "Estimate",
    "GameRecord",
    "compare",
    "default_agent",
]

@frozen
class Comparison:
    """The result of :func:`compare`: both configurations and their paired differences.

    :param game: The game.
    :param players: Seats per game.
    :param games: Games per configuration (and as many skill probes, if any).
    :param seed: The study seed.
    :param same_deals: Whether both configurations deal the same cards from the same seed.
    :param deals: That fact in words (why the deals differ, when they do).
    :param skill_agents: ``(strong, weak)`` of the skill probes, or ``None``.
    :param move_time: Seconds an agent may take per decision (``None``: unlimited).
    :param a: Configuration A.
    :param b: Configuration B.
    :param diff: B - A of ``first_seat`` (not with one seat), ``actions``, ``rounds``,
        ``spread``, ``skill``
        and each end reason (``reason:<reason>``, the difference of the proportions), paired
        by seed: 95% intervals of the paired differences (for the shares and proportions,
        Newcombe's hybrid score interval; for counts and scores, the normal one).
    """

    game: str
    players: int
    games: int
    seed: int
    same_deals: bool
    deals: str
    skill_agents: tuple[str, str] | None
    move_time: float | None
    a: ConfigSummary
    b: ConfigSummary
    diff: Mapping[str, Estimate]

    def to_json(self) -> dict[str, Any]:
        """Return the comparison as JSON-ready data (for notebooks)."""
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "same_deals": self.same_deals,
            "deals": self.deals,
            "skill_agents": None if self.skill_agents is None else list(self.skill_agents),
            "move_time": self.move_time,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "diff": {k: e.to_json() for k, e in self.diff.items()},
        }

    def rows(self) -> list[tuple[str, str, str, str]]:
        """The table's rows: ``(figure, A, B, B - A)`` as text."""
        return rows_of(self)

    def table(self) -> str:
        """The comparison as a plain-text table (reStructuredText grid)."""
        return text_table(self)

    def plot(self, path: str | os.PathLike[str] | None = None) -> Figure | None:
        """Draw the figures with their intervals (needs matplotlib, extra ``plot``): write a
        PNG to *path*, or, without one, return the matplotlib ``Figure`` (a notebook cell shows
        it). Your pyplot backend and figures are left alone.

        :raises CardcoreError: matplotlib is not installed.
        :raises ArgumentError: *path* is not a file path (text or ``os.PathLike``).
        """
        return cast("Figure | None", plot_comparison(self, path))

    def __str__(self) -> str:
        """The :meth:`table` (``print(comparison)``)."""
        return self.table()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's display of a cell's result: the :meth:`table`."""
        printer.text(self.table())


def default_agent(game: str) -> str:
    """The first installed agent (by name) that declares it serves *game*, else ``"random"``."""
    game = plain(game)  # a str subclass could compare its own way
    if type(game) is not str:
        raise ArgumentError(f"a game is named by text, not {shown(game)}")
    for name in available_agents():
        try:
            games = getattr(load_agent(name), "games", None)
        except CardcoreError:
            continue
        if isinstance(games, tuple | list | frozenset | set) and game in games:
            return name
    return "random"


def _check_agents(game: str, agents: Sequence[str], what: str) -> None:
    """Fail fast: unknown agents, agents of another game, unknown or refused parameters
    (each refusal says *what* it came from: ``"skill"``)."""
    try:
        _check_each(game, agents)
    except _NAMED as exc:
        raise type(exc)(f"{what}: {exc}") from None


def _check_each(game: str, agents: Sequence[str]) -> None:
    info = game_info(game)
    for spec in dict.fromkeys(agents):
        name, params = parse_agent_spec(spec)
        factory = load_agent(name)
        try:
            check_agent(name, factory, info)
        except CardcoreError as exc:  # another game's agent, or of the other kind
            raise OptionError(str(exc)) from None
        check_agent_params(name, factory, params)
        check_seedable(name, factory, params, "compare")
        make_agent(spec, 0)  # values the agent refuses (iterations=-1) fail here, once


def _check_config(game: str, players: int, config: Config) -> None:
    flags = SPELLING.get()[0].startswith("--")  # the command line's words for B's rules
    spelling = SPELLING.set(
        ("--vs", "--vs-without") if flags else ("vs", "vs_without")
    ) if config.label == "B" else None  # fmt: skip
    try:
        new_game(
            game,
            players,
            rules=config.rules,
            without=config.without,
            options=config.options,
            seed=0,
        )
    except (OptionError, RuleConflictError, UnknownPluginError) as exc:
        raise type(exc)(f"configuration {config.label}: {exc}") from None
    finally:
        if spelling is not None:
            SPELLING.reset(spelling)
    _check_agents(game, config.agents, f"configuration {config.label}'s agents")


_NAMED = (OptionError, RuleConflictError, UnknownPluginError)
"""The refusals of a configuration said again with the argument they came from."""


def _by_name(config: Config) -> Config:
    """*config* with its rules named as :attr:`cardcore.Game.rules` names them: by name,
    not rule ID, each once, sorted by rule ID (``GOLF-SCORE-2`` and ``golf.hard`` are one
    rule)."""

    def names(refs: tuple[str, ...]) -> tuple[str, ...]:
        ids = {info.name: info.id for info in map(rule_info, refs)}
        return tuple(sorted(ids, key=lambda name: (ids[name], name)))

    return evolve(config, rules=names(config.rules), without=names(config.without))


def _deals(
    game: str, players: int, a: Config, b: Config, side_a: list[GameRecord], side_b: list[GameRecord]
) -> tuple[bool, str]:
    """Whether A and B dealt every game of the study alike (its piles right after the deal),
    and why not."""
    dealt = {r.index: r.deal for r in side_a if not r.probe}  # (a probe: its game's deal)
    played = [r for r in side_b if not r.probe]
    differ = sum(dealt.get(r.index) != r.deal for r in played)
    if not differ:
        return True, "both configurations deal the same cards from the same seed: duplicate deals"
    deck_a, deck_b = _deck(game, players, a), _deck(game, players, b)
    if deck_a != deck_b:
        what = f"{sum(deck_a.values())} and {sum(deck_b.values())} cards"
        if sum(deck_a.values()) == sum(deck_b.values()):
            what = "different cards"
        return False, (
            f"the decks differ ({what}): both play the same seeds, but the deals are not the same"
        )
    some = "" if differ == len(played) else f" in {differ} of {len(played)} games"
    return (
        False,
        f"the same deck is dealt differently{some} (a rule or option changes the deal): seeds"
        " shared, deals not",
    )


def _deck(game: str, players: int, config: Config) -> Counter[str]:
    g = new_game(
        game, players, rules=config.rules, without=config.without, options=config.options, seed=0
    )
    return Counter(str(c) for c in g.logic.deck(players, g.options))


def _agent_share(r: GameRecord, agents: tuple[str, ...], spec: str) -> float:
    """The share of game *r* won by the seats agent *spec* held (its places in the line-up,
    rotated by ``r.lineup``)."""
    n = len(agents)
    return sum(1.0 / len(r.winners) for s in r.winners if agents[(s + r.lineup) % n] == spec)


def _summary(
    config: Config, players: int, records: list[GameRecord], ends: frozenset[str] = frozenset()
) -> ConfigSummary:
    """One side's figures; *ends* are the end reasons seen on either side, each given a
    share here too (0 where this side never saw it), as the table shows them."""
    main = [r for r in records if not r.probe]
    probes = [r for r in records if r.probe]
    shares = [
        [(1.0 / len(r.winners) if s in r.winners else 0.0) for s in range(players)] for r in main
    ]
    reasons = Counter(dict.fromkeys(ends, 0))
    reasons.update(r.reason for r in main)
    seconds = [0.0] * players
    decisions = [0] * players
    overruns = [0] * players
    slowest = [0.0] * players
    probe_overruns = [0, 0]
    for r in records:
        for seat in range(players):
            if r.probe:
                probe_overruns[0 if seat == r.strong else 1] += r.overruns[seat]
                continue
            at = (seat + r.lineup) % players  # the agent's place in the line-up
            seconds[at] += r.seconds[seat]
            decisions[at] += r.decisions[seat]
            overruns[at] += r.overruns[seat]
            slowest[at] = max(slowest[at], r.slowest[seat])
    return ConfigSummary(
        label=config.label,
        rules=config.rules,
        without=config.without,
        options=dict(config.options),
        agents=config.agents,
        games=len(main),
        seat_wins=tuple(share_ci([row[s] for row in shares]) for s in range(players)),
        first_seat=None  # one seat: no other seat to have an advantage over
        if players < 2
        else share_ci(
            [row[r.first] - 1.0 / players for row, r in zip(shares, main, strict=True)],
            -1.0 / players,
            1.0 - 1.0 / players,
        ),
        actions=mean_ci([float(r.actions) for r in main]),
        rounds=mean_ci([float(r.rounds) for r in main]),
        spread=mean_ci([max(r.scores) - min(r.scores) for r in main]),
        reasons={k: proportion_ci(n, len(main)) for k, n in sorted(reasons.items())},
        skill=(
            share_ci([1.0 / len(r.winners) if r.strong in r.winners else 0.0 for r in probes])
            if probes
            else None
        ),
        overruns=tuple(overruns),
        probe_overruns=(probe_overruns[0], probe_overruns[1]),
        slowest=tuple(slowest),
        decisions_per_s=tuple(d / t if t else 0.0 for d, t in zip(decisions, seconds, strict=True)),
        agent_wins={
            spec: share_ci([_agent_share(r, config.agents, spec) for r in main])
            for spec in dict.fromkeys(config.agents)
            if len(set(config.agents)) > 1  # one agent everywhere wins every game
        },
    )


def _paired(
    a: list[GameRecord], b: list[GameRecord], agents_a: tuple[str, ...], agents_b: tuple[str, ...]
) -> dict[str, Estimate]:
    def by_index(records: list[GameRecord], probe: bool) -> dict[int, GameRecord]:
        return {r.index: r for r in records if r.probe is probe}

    ma, mb = by_index(a, False), by_index(b, False)
    keys = sorted(ma.keys() & mb.keys())

    def share(r: GameRecord, seat: int) -> float:
        return 1.0 / len(r.winners) if seat in r.winners else 0.0

    out = {
        "actions": mean_ci([float(mb[i].actions - ma[i].actions) for i in keys]),
        "rounds": mean_ci([float(mb[i].rounds - ma[i].rounds) for i in keys]),
        "spread": mean_ci(
            [
                (max(mb[i].scores) - min(mb[i].scores)) - (max(ma[i].scores) - min(ma[i].scores))
                for i in keys
            ]
        ),
    }
    if len(agents_a) > 1:  # one seat has no first-seat advantage
        first = paired_share_diff(
            [share(ma[i], ma[i].first) for i in keys], [share(mb[i], mb[i].first) for i in keys]
        )
        out = {"first_seat": first, **out}
    for reason in sorted({r.reason for r in (*ma.values(), *mb.values())}):
        out[f"reason:{reason}"] = paired_share_diff(
            [float(ma[i].reason == reason) for i in keys],
            [float(mb[i].reason == reason) for i in keys],
        )
    for spec in dict.fromkeys(agents_a):
        if spec in agents_b and len(set(agents_a)) > 1 and len(set(agents_b)) > 1:  # both mixed
            out[f"agent:{spec}"] = paired_share_diff(
                [_agent_share(ma[i], agents_a, spec) for i in keys],
                [_agent_share(mb[i], agents_b, spec) for i in keys],
            )
    pa, pb = by_index(a, True), by_index(b, True)
    probe_keys = sorted(pa.keys() & pb.keys())
    if probe_keys:
        out["skill"] = paired_share_diff(
            [share(pa[i], pa[i].strong) for i in probe_keys],
            [share(pb[i], pb[i].strong) for i in probe_keys],
        )
    return out


def _default_seats(
    game: str, rules: Sequence[str], without: Sequence[str], options: Mapping[str, Any] | None
) -> int:
    """Two, or the nearest count A's configuration seats (:func:`seats_for`, as the command
    line picks); two when the configuration does not start, so that the checks name why."""
    try:
        return seats_for(game, 2, rules=rules, without=without, options=options)
    except CardcoreError:
        return 2


def compare(
    game: str,
    *,
    rules: Sequence[str] = (),
    vs: Sequence[str] = (),
    without: Sequence[str] = (),
    vs_without: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    vs_options: Mapping[str, Any] | None = None,
    agents: Sequence[str] | str | None = None,
    vs_agents: Sequence[str] | str | None = None,
    players: int | None = None,
    games: int = 200,
    seed: int = 0,
    skill: tuple[str, str] | str | None = "auto",
    move_time: float | None = None,
    executor: Executor | None = None,
    chunk: int = 10,
    progress: Callable[[int], object] | None = None,
) -> Comparison:
    """Play configurations A and B of *game* on the same seeds and compare them.

    >>> result = compare("golf", rules=["golf.jokers"], games=20)  # doctest: +SKIP
    >>> result.diff["actions"].text()  # doctest: +SKIP

    :param game: An installed game.
    :param rules: A's house rules.
    :param vs: B's house rules (default none: the base game, its default rules on).
    :param without: Default rules A switches off.
    :param vs_without: Default rules B switches off.
    :param options: A's options; *vs_options* default to the same, less those that only
        A's house rules take (``rules=["golf.bonus-card"], options={"bonus_card": "Q"}`` asks
        what a bonus queen does to the base game). *vs_options*, when given, are B's whole set: A's are not
        carried over (``options={"rounds": 1}, vs_options={"rounds": 1, "layout": 4}``).
    :param agents: A's agents: one spec for every seat or one per seat (``"ismcts:iterations=50"``
        specs allowed; text of several, ``"golf-greedy,random"``, is one per seat: as many as
        *players*). Default: :func:`default_agent` of the game in every seat. A mixed
        line-up rotates seats game by game, so each agent sits everywhere equally often
        when *games* is a multiple of *players*.
    :param vs_agents: B's agents; default A's. A and B are two configurations, each
        played by its own line-up on the same seeds: to pit two agents against each
        other in one game, give a mixed line-up (``agents=["ismcts", "golf-greedy"]``).
    :param players: Seats per game (default: as many as *agents*, or else *vs_agents*,
        names when it names several; otherwise two, or the nearest count A's configuration
        seats, as ``cardcore compare`` picks: one for a one-seat game).
    :param games: Games per configuration. Each game's small record (about 670 bytes with
        two seats, 880 with four: ``python benchmarks/compare_memory.py``) is kept until the
        end, to pair the configurations' games: a million two-seat games per configuration
        with the skill probe hold about 2.7 GB.
    :param seed: The study seed: game *i* of both configurations is seeded from ``(seed, i)``.
    :param skill: The skill probe, ``(strong, weak)``: as many more games per configuration
        with the strong agent in one seat (rotating) and the weak one elsewhere; the strong
        agent's win share measures how much skill matters against luck. ``"auto"``: the
        game's :func:`default_agent` against ``"random"`` (no probe when that is random
        itself); ``None``: no probe.
    :param move_time: Seconds an agent may take per decision: longer decisions are
        counted per agent of the line-up (``ConfigSummary.overruns``) and per role in
        the skill probes; the run goes on.
    :param executor: Any :class:`concurrent.futures.Executor`; ``None`` runs here.
    :param chunk: Games per executor task.
    :param progress: Called with the number of games finished by each task: ``2 * games``
        in all, twice that with a skill probe (its games count too).
    :raises OptionError: Zero or negative *games* (or more than
        :data:`cardcore.simulate.MAX_GAMES`, 10,000,000) or *chunk*, a bad option or agent
        parameter, a rule that does not apply to the options, an *executor* without
        ``map()``, a *progress* that is not callable.
    :raises ArgumentError: *rules*, *vs*, *without* or *vs_without* is not a list of names.
    :raises UnknownPluginError: An unknown game, rule or agent.
    :raises RuleConflictError: Conflicting rules.
    :raises AgentFailure: An agent failed (the message names the configuration, the game,
        its seed, the seat and the agent); the run stops there.
    :raises CardcoreError: A worker of *executor* died (a process killed, out of memory: a
        ``concurrent.futures`` pool's ``BrokenExecutor``, now or in an earlier study; dask's
        ``KilledWorker``): the message says how many games had come back; none is returned.
    """
    for what, names in (
        ("rules", rules),
        ("vs", vs),
        ("without", without),
        ("vs_without", vs_without),
    ):
        if isinstance(names, str | bytes | bytearray | Mapping) or not isinstance(names, Iterable):
            msg = f"{what} takes a list of names, not {shown(names, 40)}"
            raise ArgumentError(msg)
    # read once: an iterator counted for the seats would be empty when the study is built
    rules, vs = read_all(rules, "rules"), read_all(vs, "vs")
    without, vs_without = read_all(without, "without"), read_all(vs_without, "vs_without")
    if players is None:  # as many as a line-up names, else two or the nearest the game seats
        players = seats_named(agents, vs_agents) or _default_seats(game, rules, without, options)
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
    if move_time is not None and (
        type(move_time) not in (int, float) or not 0 < move_time < math.inf
    ):
        msg = f"move_time must be a finite number of seconds above 0, not {move_time!r}"
        raise OptionError(msg)
    if vs_options is not None and not isinstance(vs_options, Mapping):
        msg = f"vs_options must be a mapping of option names to values, not {shown(vs_options, 40)}"
        raise OptionError(msg)
    game_info(game)  # an unknown game: the installed ones listed
    base = default_agent(game)
    lineup_a = _lineup(agents, players, (base,) * players, "agents")
    config_a = Config("A", tuple(rules), tuple(without), dict(options or {}), lineup_a)
    config_b = Config(
        "B",
        tuple(vs),
        tuple(vs_without),
        _options_of_b(game, vs, vs_without, options) if vs_options is None else dict(vs_options),
        _lineup(vs_agents, players, lineup_a, "vs_agents"),
    )
    for config in (config_a, config_b):
        _check_config(game, players, config)
    config_a, config_b = _by_name(config_a), _by_name(config_b)
    probe: tuple[str, str] | None
    if type(skill) is str and skill == "auto":
        probe = None if base == "random" else (base, "random")
    elif skill is None or (
        isinstance(skill, tuple | list) and len(skill) == 2 and all(type(s) is str for s in skill)
    ):
        probe = None if skill is None else (skill[0], skill[1])
    else:
        msg = f"skill must be 'auto', None or (strong, weak) agent specs, not {shown(skill)}"
        raise OptionError(msg)
    if probe is not None:
        _check_agents(game, probe, "skill")
    chunks: list[tuple[Task, int]] = [  # each names its games, not lists them
        ((game, players, config, side, is_probe, seed, i, probe, move_time), min(i + chunk, games))
        for side, config in enumerate((config_a, config_b))
        for is_probe in ((False, True) if probe is not None else (False,))
        for i in range(0, games, chunk)
    ]
    records: list[GameRecord] = []
    results: Any = None
    try:  # (map itself raises on a pool a worker of an earlier study broke)
        results = map(run_chunk, chunks) if executor is None else executor.map(run_chunk, chunks)
        for done in results:
            records.extend(done)
            if progress is not None:
                progress(len(done))
    except Exception as exc:
        if not _died(exc):
            raise
        raise _lost_worker(exc, len(records), sum(stop - task[6] for task, stop in chunks)) from exc
    finally:  # stopped early (an error, an interrupt): the chunks not started are cancelled
        close = getattr(results, "close", None)
        if close is not None:
            close()
    side_a = [r for r in records if r.side == 0]
    side_b = [r for r in records if r.side == 1]
    ends = frozenset(r.reason for r in records if not r.probe)
    same, note = _deals(game, players, config_a, config_b, side_a, side_b)
    return Comparison(
        game=game,
        players=players,
        games=games,
        seed=seed,
        same_deals=same,
        deals=note,
        skill_agents=probe,
        move_time=move_time,
        a=_summary(config_a, players, side_a, ends),
        b=_summary(config_b, players, side_b, ends),
        diff=_paired(side_a, side_b, config_a.agents, config_b.agents),
    )


# ``cardcore.compare`` is this function (the package's name, shadowed by ``cardcore``'s own
# export): its public names ride on it, so ``cardcore.compare.Estimate`` reads as documented
for _name in __all__:
    if _name != "compare":
        setattr(compare, _name, globals()[_name])
del _name


def _options_of_b(
    game: str, vs: Sequence[str], vs_without: Sequence[str], options: Mapping[str, Any] | None
) -> dict[str, Any]:
    """A's options that B's configuration takes (all of them when it cannot be built: it is
    refused with its own reason)."""
    try:
        takes = {opt.name for opt in get_ruleset(game, tuple(vs), tuple(vs_without)).options}
    except CardcoreError:
        return dict(options or {})
    return {k: v for k, v in (options or {}).items() if k in takes}
