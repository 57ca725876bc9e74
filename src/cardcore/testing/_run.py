"""The public checks: :func:`check_game` and one function per check."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cardcore._text import shown
from cardcore.agents import RandomAgent, play, run_realtime
from cardcore.errors import OptionError
from cardcore.game import Game
from cardcore.plugins import game_info
from cardcore.setup import new_game
from cardcore.testing._checker import Checker
from cardcore.testing._faults import check_failing_rule
from cardcore.testing._hooks import check_score_rule, check_veto_rule
from cardcore.testing._report import ALL_CHECKS, Report
from cardcore.testing._util import fingerprint

__all__ = [
    "check_agents",
    "check_bounds",
    "check_clone",
    "check_conservation",
    "check_determinism",
    "check_game",
    "check_persistence",
    "check_positions",
    "check_rejections",
    "check_score_round",
    "check_vetoes",
    "check_views",
]

_PER_GAME = ALL_CHECKS - {"vetoes", "scores"}


def _play_out(game: Game, seed: int) -> None:
    agents = [RandomAgent(seed + s) for s in range(len(game.players))]
    if game.ruleset.game.realtime:
        run_realtime(game, agents, seed=seed)
    else:
        play(game, agents)


def _run(
    name: str,
    checks: Iterable[str],
    *,
    players: int | None,
    rules: Sequence[str],
    without: Sequence[str],
    options: Mapping[str, Any] | None,
    games: int,
    seed: int,
    sample: float,
    full_every: int,
    strict: bool,
    samples_per_game: int = 12,
) -> Report:
    info = game_info(name)
    n = info.min_players if players is None else players
    if isinstance(checks, str):  # one name, not its letters
        checks = (checks,)
    chosen = frozenset(checks)
    unknown = chosen - ALL_CHECKS
    if not chosen:
        msg = f"no check chosen: a report would pass without testing anything (known: {sorted(ALL_CHECKS)!r})"
        raise OptionError(msg)
    if unknown:
        msg = f"unknown checks {sorted(map(str, unknown))!r} (known: {sorted(ALL_CHECKS)!r})"
        raise OptionError(msg)
    for what, value, low in (("games", games, 1), ("full_every", full_every, 1), ("seed", seed, 0)):
        if type(value) is not int or value < low:
            msg = f"{what} must be an int of at least {low}, not {shown(value, 40)}"
            raise OptionError(msg)
    if type(sample) not in (int, float) or not 0 <= sample <= 1:
        msg = f"sample must be a share from 0 to 1, not {shown(sample, 40)}"
        raise OptionError(msg)
    if options is not None and not isinstance(options, Mapping):
        msg = f"options must be a mapping of option names to values, not {shown(options, 40)}"
        raise OptionError(msg)
    rules_t, without_t = tuple(rules), tuple(without)
    report = Report(name, n, rules_t, dict(options or {}), checks=tuple(sorted(chosen)))
    if "bound" in chosen:
        for option in info.options:
            if option.kind is int and (option.minimum is None or option.maximum is None):
                report.fail(
                    f"integer option {option.name!r} of {name} must declare a minimum and a maximum"
                    " (Option(..., minimum=..., maximum=...)), so no caller can pass a huge value"
                )

    def checker(which: frozenset[str], into: Report) -> Checker:
        return Checker(
            name, n, rules_t, without_t, options, which, into, sample, full_every, samples_per_game
        )

    first: tuple[Game, list[dict[str, Any]]] | None = None
    if chosen & _PER_GAME:
        main = checker(chosen & _PER_GAME, report)
        for i in range(games):
            failed = report.failed
            got = main.play(i, seed)
            if i == 0 and report.failed == failed:
                first = got
    if "determinism" in chosen and games > 0:
        plain = frozenset({"determinism"})
        if first is None:  # game 0 failed a check: compare two plain plays instead
            first = checker(plain, Report(name)).play(0, seed)
        game1, host1 = first
        game2, host2 = checker(plain, Report(name)).play(0, seed)
        if [(s, str(a)) for s, a, _ in game1.record_entries()] != [
            (s, str(a)) for s, a, _ in game2.record_entries()
        ]:
            report.fail(f"the same seed gave two different games of {name}")
        elif fingerprint(game1) != fingerprint(game2) or (host1 and host2 and host1 != host2):
            report.fail(f"the same seed and actions gave different states or events in {name}")

    def make(game_seed: int, with_rules: tuple[str, ...]) -> Game:
        return new_game(
            name, n, rules=with_rules, without=without_t, options=options, seed=game_seed
        )

    hook_games = max(1, min(games, 3))
    if "vetoes" in chosen and games > 0:
        check_veto_rule(report, name, make, rules_t, hook_games, seed)
    if "scores" in chosen and games > 0:
        check_score_rule(report, name, make, rules_t, hook_games, seed, _play_out)
        check_failing_rule(report, name, make, rules_t, min(hook_games, 2), seed)
    if strict:
        report.raise_if_failed()
    return report


def check_game(
    name: str,
    *,
    players: int | None = None,
    rules: Sequence[str] = (),
    without: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    games: int = 20,
    seed: int = 0,
    sample: float = 0.25,
    full_every: int = 1,
    checks: Iterable[str] = ALL_CHECKS,
    strict: bool = True,
    samples_per_game: int = 12,
) -> Report:
    """Run every conformance check on *games* seeded random games of one configuration.

    :param name: The game (any installed or registered game).
    :param players: Seats per game; default the game's minimum.
    :param rules: House rules to add.
    :param without: Default rules to switch off.
    :param options: Options for :func:`cardcore.new_game`.
    :param games: How many games to play (the ``vetoes`` and ``scores`` checks play
        at most three more each, with the kit's own rule added).
    :param seed: The seed of the whole check (game *i* gets its own large seed).
    :param sample: Share of actions after which the costly checks run (views,
        twins, hostile inputs, clones, positions).
    :param full_every: Run the costly checks on every n-th game only (long runs);
        conservation, bounds and the agents' type checks run on every game.
    :param samples_per_game: At most this many sampled points per game get the costly checks.
    :param checks: A subset of :data:`ALL_CHECKS`.
    :param strict: Raise on failure; with ``False`` the report only counts.
    :returns: The :class:`Report`.
    :raises AssertionError: If a check failed (and *strict*).
    :raises OptionError: An unknown check, or *games*, *seed*, *sample*, *full_every*
        or *options* of the wrong kind (before any game is played).
    """
    return _run(
        name, checks, players=players, rules=rules, without=without, options=options, games=games,
        seed=seed, sample=sample, full_every=full_every, strict=strict, samples_per_game=samples_per_game,
    )  # fmt: skip


_COMMON = """

    Takes the keyword arguments of :func:`check_game` (not *checks*, *full_every*).

    :returns: The :class:`Report`.
    :raises AssertionError: If the check failed (and *strict*).
    """


def _single(check: str, needs: frozenset[str], doc: str) -> Callable[..., Report]:
    def run(
        name: str,
        *,
        players: int | None = None,
        rules: Sequence[str] = (),
        without: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
        games: int = 10,
        seed: int = 0,
        sample: float = 0.5,
        strict: bool = True,
    ) -> Report:
        return _run(
            name, needs, players=players, rules=rules, without=without, options=options,
            games=games, seed=seed, sample=sample, full_every=1, strict=strict,
        )  # fmt: skip

    run.__name__ = run.__qualname__ = f"check_{check}"
    run.__doc__ = doc + _COMMON
    return run


check_bounds = _single(
    "bounds", frozenset({"bound"}), "Check that random playouts end within ``logic.action_bound``."
)
check_conservation = _single(
    "conservation",
    frozenset({"conservation"}),
    "Check that after every action the cards on the table are exactly the game's deck.",
)
check_views = _single(
    "views",
    frozenset({"views", "events", "twins"}),
    "Check views (table and zones), histories and per-seat events: only known cards, no seed,"
    " the declared structure, and twins that differ only in hidden cards look the same to the seat.",
)
check_agents = _single(
    "agents",
    frozenset({"agents"}),
    "Check that agents are only ever handed their own seat's view and legal actions.",
)
check_rejections = _single(
    "rejections",
    frozenset({"rejections"}),
    "Check that illegal, out-of-turn, wrong-seat, malformed and unknown-card inputs (and"
    " seen values that are not versions) raise the documented errors and change nothing.",
)
check_clone = _single(
    "clone",
    frozenset({"clone"}),
    "Check that :meth:`cardcore.Game.clone` is independent of its original.",
)
check_persistence = _single(
    "persistence",
    frozenset({"persistence"}),
    "Check that save -> load and record -> replay rebuild the same states, views and events.",
)
check_determinism = _single(
    "determinism",
    frozenset({"determinism"}),
    "Check that the same seed gives the same game and events.",
)
check_positions = _single(
    "positions",
    frozenset({"positions"}),
    "Check that a game started from :meth:`cardcore.Game.position` shows every seat the same"
    " view and legal actions and writes the same position (games without a notation pass).",
)
check_vetoes = _single(
    "vetoes",
    frozenset({"vetoes"}),
    "Check that a house rule implementing only ``forbid_action`` removes the actions it vetoes"
    " from the legal actions (and no others) and that applying one raises"
    " :class:`~cardcore.IllegalActionError` citing the veto's rule ID.",
)
check_score_round = _single(
    "score_round",
    frozenset({"scores"}),
    "Check that a house rule implementing only ``score_round`` changes the result of a game that"
    " scores rounds (``Report.scored`` counts the rounds it adjusted), and that when such a rule"
    " raises (``RuntimeError``, ``KeyboardInterrupt``) the apply fails with"
    " :class:`~cardcore.PluginError` (or re-raises) and leaves the game byte-identical without"
    " calling the rule again (``Report.restored`` counts them).",
)
