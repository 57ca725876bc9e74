"""The public checks: :func:`check_game` and one function per check."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cardcore._text import one_of, shown
from cardcore.agents import RandomAgent, play, run_realtime
from cardcore.errors import CardcoreError, OptionError
from cardcore.game import Game
from cardcore.plugins import game_info, get_ruleset
from cardcore.setup import new_game
from cardcore.simulate import MAX_GAMES
from cardcore.testing._checker import Checker
from cardcore.testing._configs import rule_names
from cardcore.testing._contract import CALLER_ERRORS, Contract, explain
from cardcore.testing._faults import check_failing_rule
from cardcore.testing._hooks import check_score_rule, check_veto_rule
from cardcore.testing._report import ALL_CHECKS, Report
from cardcore.testing._util import fingerprint, game_seed

__all__ = [
    "check_agents",
    "check_bounds",
    "check_clone",
    "check_conservation",
    "check_determinism",
    "check_game",
    "check_notation",
    "check_persistence",
    "check_positions",
    "check_rejections",
    "check_score_round",
    "check_vetoes",
    "check_views",
]

_PER_GAME = ALL_CHECKS - {"vetoes", "scores"}
_BROKEN = "not run: the game breaks the plugin contract (see the failures)"
_UNREAD = (
    "not run: records hold each action's notation, and this game's legal actions have"
    " notations that are shared or do not read back (see the failures)"
)


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
    try:
        chosen = frozenset(checks)
    except TypeError:  # None, a number, names that cannot be told apart (lists)
        msg = f"checks must be a list of check names (known: {one_of(sorted(ALL_CHECKS), 'and')}), not {shown(checks, 40)}"
        raise OptionError(msg) from None
    unknown = chosen - ALL_CHECKS
    if not chosen:
        msg = f"no check chosen: a report would pass without testing anything (known: {one_of(sorted(ALL_CHECKS), 'and')})"
        raise OptionError(msg)
    if unknown:
        msg = f"unknown checks {one_of(sorted(map(str, unknown)), 'and')} (known: {one_of(sorted(ALL_CHECKS), 'and')})"
        raise OptionError(msg)
    if type(games) is not int or not 1 <= games <= MAX_GAMES:  # as simulate: never for ever
        msg = f"games must be an int from 1 to {MAX_GAMES:,}, not {shown(games, 40)}"
        raise OptionError(msg)
    for what, value, low in (
        ("full_every", full_every, 1),
        ("seed", seed, 0),
        ("samples_per_game", samples_per_game, 0),
    ):
        if type(value) is not int or value < low:
            msg = f"{what} must be an int of at least {low}, not {shown(value, 40)}"
            raise OptionError(msg)
    if type(sample) not in (int, float) or not 0 <= sample <= 1:
        msg = f"sample must be a share from 0 to 1, not {shown(sample, 40)}"
        raise OptionError(msg)
    if options is not None and not isinstance(options, Mapping):
        msg = f"options must be a mapping of option names to values, not {shown(options, 40)}"
        raise OptionError(msg)
    rules_t, without_t = rule_names("rules", rules), rule_names("without", without)
    report = Report(name, n, rules_t, dict(options or {}), checks=tuple(sorted(chosen)))
    if "bound" in chosen:
        try:  # the chosen rules' own options too (a rule that fails to load is reported below)
            declared = get_ruleset(name, rules_t, without_t).options
        except CardcoreError:
            declared = info.options
        for option in declared:
            bounded = option.choices is not None or None not in (option.minimum, option.maximum)
            if option.kind is int and not bounded:  # (choices bound it as well)
                of = name if option in info.options else "a chosen house rule"
                report.fail(
                    f"integer option {option.name!r} of {of} must declare a minimum and a maximum"
                    " (Option(..., minimum=..., maximum=...)) or its choices, so no caller can"
                    " pass a huge value"
                )

    def make(game_seed_: int, with_rules: tuple[str, ...]) -> Game:
        return new_game(
            name, n, rules=with_rules, without=without_t, options=options, seed=game_seed_
        )

    finished: set[str] = set()  # the checks done when a plugin's BaseException stops the rest
    try:  # a plugin's BaseException (SystemExit, GeneratorExit) is a failure too
        contract = Contract(report, info.realtime, "notation" in chosen)
        contract.walk(name, rules_t, without_t, lambda s: make(s, rules_t), game_seed(seed, 5_000))
        per_game = chosen & _PER_GAME
        if contract.bad_notation and "persistence" in per_game:
            per_game -= {"persistence"}
            report.skip("persistence", _UNREAD)

        def checker(which: frozenset[str], into: Report) -> Checker:
            return Checker(
                name, n, rules_t, without_t, options, which, into, sample, full_every,
                samples_per_game, contract=contract if into is report else None,
            )  # fmt: skip

        first: tuple[Game, list[dict[str, Any]]] | None = None
        main: Checker | None = None
        if per_game and contract.broken is None:
            main = checker(per_game, report)
            for i in range(games):
                failed = report.failed
                got = main.play(i, seed)
                if i == 0 and report.failed == failed:
                    first = got
                if contract.broken is not None:
                    break
        finished |= per_game - {"determinism"}
        if contract.broken is None and "determinism" in chosen:
            _guarded(
                report, "determinism", lambda: _determinism(report, name, first, checker, seed)
            )
        finished.add("determinism")
        hook_games = max(1, min(games, 3))
        if contract.broken is None and "vetoes" in chosen:
            _guarded(
                report,
                "vetoes",
                lambda: check_veto_rule(report, name, make, rules_t, hook_games, seed),
            )
        finished.add("vetoes")
        if contract.bad_notation and "scores" in chosen:
            report.skip("scores", _UNREAD)
        elif contract.broken is None and "scores" in chosen:
            _guarded(
                report,
                "scores",
                lambda: check_score_rule(report, name, make, rules_t, hook_games, seed, _play_out),
            )
            _guarded(
                report,
                "scores",
                lambda: check_failing_rule(report, name, make, rules_t, min(hook_games, 2), seed),
            )
        sampled = main.sampled if main is not None else 0
        _skip_empty(
            report, contract, lambda: get_ruleset(name, rules_t, without_t).logic, sampled
        )
    except CALLER_ERRORS:
        raise
    except KeyboardInterrupt:  # the user's, or indistinguishable from it
        raise
    except BaseException as exc:
        if _the_runners(exc):  # pytest.fail/skip, a test timeout, a cancelled task
            raise
        report.raw += 1
        report.fail(
            f"the checks stopped: a plugin raised {explain(exc)}, a BaseException that is not"
            " an Exception: cardcore lets it through, so it stops whoever plays the game"
        )
        for check in report.checks:  # those it stopped are not listed as run
            if check not in finished:
                report.skip(check, f"not finished: the checks stopped on {type(exc).__name__}")
    if strict:
        report.raise_if_failed()
    return report


def _the_runners(exc: BaseException) -> bool:
    """Whether *exc* belongs to whatever runs the kit (pytest's ``Failed`` and ``Skipped``,
    ``asyncio.CancelledError``, a greenlet's exit), not to the plugin under test."""
    return any(
        (kind.__module__ or "").split(".")[0]
        in ("_pytest", "pytest", "asyncio", "greenlet", "trio")
        for kind in type(exc).__mro__
    )


def _guarded(report: Report, check: str, run: Callable[[], object]) -> None:
    """Run one check; an error escaping it becomes a failure (never an error of check_game)."""
    try:
        run()
    except Exception as exc:
        report.raw += not isinstance(exc, CardcoreError)
        report.fail(f"the {check!r} check stopped: {explain(exc)}")


def _determinism(
    report: Report,
    name: str,
    first: tuple[Game, list[dict[str, Any]]] | None,
    checker: Callable[[frozenset[str], Report], Checker],
    seed: int,
) -> None:
    plain = frozenset({"determinism"})
    if first is None:  # game 0 failed a check: compare two plain plays instead
        first = checker(plain, Report(name)).play(0, seed)
    second = checker(plain, Report(name)).play(0, seed)
    if first is None or second is None:
        report.fail(f"game 0 of {name} did not start, so the same seed could not be replayed")
        return
    (game1, host1), (game2, host2) = first, second
    if [(s, str(a)) for s, a, _ in game1.record_entries()] != [
        (s, str(a)) for s, a, _ in game2.record_entries()
    ]:
        report.fail(f"the same seed gave two different games of {name}")
    elif fingerprint(game1) != fingerprint(game2) or (host1 and host2 and host1 != host2):
        report.fail(f"the same seed and actions gave different states or events in {name}")


def _skip_empty(
    report: Report, contract: Contract, get_logic: Callable[[], Any], sampled: int
) -> None:
    """Mark the checks that tested nothing as skipped, with the reason (never a silent pass)."""
    if contract.broken is not None:
        for check in report.checks:
            report.skip(check, _BROKEN)
        return
    unsampled = (
        "no sampled point was reached (sample or samples_per_game is 0, or every game ended"
        " or failed before one), so it compared nothing"
    )
    for check, count in (
        ("twins", report.twins),
        ("clone", sampled),
    ):
        if check in report.checks and count == 0:
            report.skip(check, unsampled)
    if "positions" in report.checks and report.positions == 0:
        logic = get_logic()
        if logic.has_positions():
            why = "no sampled point reached it (play more games or raise sample)"
        else:
            why = (
                f"{type(logic).__name__} has no position notation (it implements neither"
                " blank_state nor write_position and read_position), so no position was checked"
            )
        report.skip("positions", why)
    if "scores" in report.checks and report.scored == 0:
        report.skip(
            "scores",
            "no game reached a scored round before failing (see the failures)"
            if report.stopped and report.stopped == report.games
            else "the game never called GameLogic.score_round (in the games played with the"
            " kit's score-only rule), so that rule and the kit's failing rule had nothing to change",
        )
    if "vetoes" in report.checks and report.vetoed == 0:
        report.skip("vetoes", "the kit's veto-only rule vetoed none of the actions offered")
    if "notation" in report.checks and report.notations == 0 and not contract.bad_notation:
        report.skip("notation", "no legal action was offered at a checked point")


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
    :param samples_per_game: At most this many sampled points per game get the costly checks,
        besides one point in each doubling span from the game's 64th action (0, or a
        *sample* of 0: no costly check at all, late points included).
    :param checks: A subset of :data:`ALL_CHECKS`.
    :param strict: Raise on failure; with ``False`` the report only counts.
    :returns: The :class:`Report`. A plugin mistake that makes the game unplayable
        (``create_logic`` answering no :class:`~cardcore.GameLogic`, a required method
        left out, a bad ``to_act``, legal actions that are not a tuple of actions) is one
        failure naming it, and the other checks are in ``Report.skipped``; an error
        inside a check is a failure too, never an error of this function.
    :raises AssertionError: If a check failed (and *strict*), listing the failures
        and the skipped checks with their reasons.
    :raises OptionError: No check, an unknown one or *checks* that is no list of names,
        or *games* (a whole number from 1 to :data:`cardcore.simulate.MAX_GAMES`), *seed*,
        *sample*, *full_every*, *samples_per_game* or *options* of the wrong kind (all
        before any game is played), or options the game refuses.
    :raises UnknownPluginError: An unknown game or house rule.
    :raises RuleConflictError: House rules that cannot be combined.
    :raises ArgumentError: *rules* or *without* given as one text (a list of names is
        wanted), or not as an iterable.
    """
    return _run(
        name, checks, players=players, rules=rules, without=without, options=options, games=games,
        seed=seed, sample=sample, full_every=full_every, strict=strict, samples_per_game=samples_per_game,
    )  # fmt: skip


_COMMON = """

    Takes the keyword arguments of :func:`check_game` (not *checks*, *full_every*), with
    fewer games and more sampling by default (``games=10``, ``sample=0.5``).

    :returns: The :class:`Report`.
    :raises AssertionError: If the check failed (and *strict*).
    :raises OptionError: Arguments :func:`check_game` refuses, as it refuses them.
    :raises ArgumentError: *rules* or *without* given as one text, or not as an iterable.
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
        samples_per_game: int = 12,
    ) -> Report:
        return _run(
            name, needs, players=players, rules=rules, without=without, options=options,
            games=games, seed=seed, sample=sample, full_every=1, strict=strict,
            samples_per_game=samples_per_game,
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
    " seen values that are not versions) raise the documented errors and change nothing, and"
    " that no refusal's message names a card hidden from the refused seat.",
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
    "Check that the same seed gives the same game and events (in one process: see the"
    " testing-kit page on hash order).",
)
check_positions = _single(
    "positions",
    frozenset({"positions"}),
    "Check that a game started from :meth:`cardcore.Game.position` shows every seat the same"
    " view and legal actions and writes the same position, and that a position sampled from"
    " the view of the seat to act, as search agents sample it, starts a game that shows that"
    " seat the same view (a game without a position notation has the check in"
    " ``Report.skipped``, with the reason).",
)
check_notation = _single(
    "notation",
    frozenset({"notation"}),
    "Check that the legal actions of every seat to act have distinct notations"
    " (``str(action)``) and that the game's ``parse_action`` reads each back as an equal"
    " action (past 64 at a point, a sample that moves on from point to point and holds the"
    " first of each action class; ``Report.notations`` counts those read back).",
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
