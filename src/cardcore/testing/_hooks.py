"""The core's cross-cutting hooks, tried on any game: a veto-only rule and a score-only rule.

The core applies ``forbid_action`` vetoes and runs ``score_round`` for every
game, so a house rule that implements only one of them must work in every
game, third-party ones included. These checks register such a rule for the
game under test (for the duration of the check), play seeded games with it
and compare with the game's own answers.
"""

from __future__ import annotations

import random
import types
import zlib
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from cardcore._markers import hookimpl
from cardcore.actions import Action
from cardcore.errors import CardcoreError, IllegalActionError, PluginError
from cardcore.game import Game
from cardcore.info import RuleInfo, Veto
from cardcore.plugins import game_info, register, unregister
from cardcore.state import GameState
from cardcore.testing._report import Report
from cardcore.testing._util import fingerprint, game_seed

__all__ = [
    "SCORE_RULE_ID",
    "VETO_RULE_ID",
    "Make",
    "check_score_rule",
    "check_veto_rule",
    "vetoed_by_kit",
]

VETO_RULE_ID = "KIT-VETO-1"
"""The rule ID of the kit's veto-only rule."""
SCORE_RULE_ID = "KIT-SCORE-1"
"""The rule ID of the kit's score-only rule."""
MAX_STEPS = 400
"""How many actions a veto walk takes at most."""
MIN_STEPS = 10
"""A walk shorter than this (every action of a seat vetoed) is tried again under another salt."""
SALTS = 4
"""How many salts a walk tries."""


def vetoed_by_kit(action: Action, salt: int = 0) -> bool:
    """Whether the kit's veto-only rule forbids *action*: about one notation in three.

    Which ones depends on *salt* (each walk of :func:`check_veto_rule` takes its own,
    so a game whose first actions are all vetoed under one salt is walked under another).
    """
    return zlib.crc32(f"{salt}:{action}".encode()) % 3 == 0


def _veto_module(game: str, salt: list[int]) -> types.ModuleType:
    module = types.ModuleType(f"cardcore.testing.kit_veto.{game}")

    @hookimpl
    def forbid_action(state: GameState, action: Action) -> Veto | None:
        if vetoed_by_kit(action, salt[0]):
            return Veto(VETO_RULE_ID, f"the kit forbids {str(action)!r}")
        return None

    rule = RuleInfo(VETO_RULE_ID, f"{game}.kit-veto", game, "the conformance kit's veto-only rule")
    vars(module).update(RULE=rule, forbid_action=forbid_action)
    return module


def _score_module(
    game: str,
    calls: list[tuple[int, ...]],
    bad: list[str],
    kept: list[tuple[int, ...]],
    even: bool = False,
) -> types.ModuleType:
    module = types.ModuleType(f"cardcore.testing.kit_score.{game}")
    zero_sum = game_info(game).zero_sum

    @hookimpl(wrapper=True)
    def score_round(
        state: GameState, scores: Sequence[int]
    ) -> Generator[None, Sequence[int] | None, Sequence[int]]:
        inner = yield
        given = tuple(scores)
        if len(given) != state.players or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in given
        ):
            bad.append(f"the game passed score_round {given!r}, not one integer per seat")
        out = list(given if inner is None else inner)
        if even:  # every seat alike (partners keep equal scores): double a zero sum, else +1
            if zero_sum and not any(out):
                kept.append(given)
                return out
            out = [2 * x for x in out] if zero_sum else [x + 1 for x in out]
        elif len(out) >= 2:
            out[0] -= 1  # one point (or stake) from seat 0 to seat 1: any zero sum stays zero
            out[1] += 1
        elif out and not zero_sum:
            out[0] += 1  # one seat: one point (or stake) more
        else:  # one seat of a zero-sum game: it can only score 0, so nothing to change
            kept.append(given)
            return out
        calls.append(given)
        return out

    rule = RuleInfo(
        SCORE_RULE_ID, f"{game}.kit-score", game, "the conformance kit's score-only rule"
    )
    vars(module).update(RULE=rule, score_round=score_round)
    return module


@contextmanager
def _registered(module: types.ModuleType) -> Iterator[str]:
    name = module.RULE.name
    register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        unregister("cardcore.rules", name)


Make = Callable[[int, tuple[str, ...]], Game]
"""Starts a game of the configuration under test: ``make(seed, rules)``."""


def check_veto_rule(
    report: Report, name: str, make: Make, rules: tuple[str, ...], games: int, seed: int
) -> None:
    """Walk *games* games with the kit's veto-only rule added to *rules*.

    At every step, each seat to act must be offered exactly the game's own
    legal actions minus every vetoed one (in the game's order), and applying an
    action the kit vetoes must raise :class:`~cardcore.IllegalActionError`
    citing a veto's rule ID and change nothing.
    """
    salt = [0]
    with _registered(_veto_module(name, salt)) as rule:
        for index in range(games):
            game_seed_ = game_seed(seed, 7_000 + index)
            # a walk stuck at once (all vetoed) tries another salt, and so does one that
            # vetoed nothing (a game of few notations, say "flip" and "slap")
            for attempt in range(SALTS):
                salt[0] = index * SALTS + attempt
                try:
                    game = make(game_seed_, (*rules, rule))
                except CardcoreError as exc:
                    report.fail(f"a game with the kit's veto-only rule did not start: {exc}")
                    return
                vetoed = report.vetoed
                steps = _veto_walk(report, game, random.Random(game_seed_), salt[0])
                if steps is None:
                    break
                if (steps >= MIN_STEPS or game.is_over) and report.vetoed > vetoed:
                    break


def _veto_walk(report: Report, game: Game, rng: random.Random, salt: int) -> int | None:
    """Walk *game*; return the steps taken (``None`` after a failure)."""
    veto = game.ruleset.veto
    logic = game.logic
    if veto is None:
        report.fail("the kit's veto-only rule was not resolved into the configuration's vetoes")
        return None
    for step in range(MAX_STEPS):
        if game.is_over:
            return step
        state = game.state
        movers = []
        for seat in game.to_act:
            own = logic.legal_actions(state, seat)
            offered = game.legal_actions(seat)
            want = tuple(a for a in own if not veto(state=state, action=a))
            if offered != want:
                report.fail(
                    f"with the kit's veto-only rule, seat {seat} at version {game.version} is offered"
                    f" {[str(a) for a in offered]} instead of {[str(a) for a in want]}"
                )
                return None
            removed = [a for a in own if vetoed_by_kit(a, salt)]
            report.vetoed += len(removed)
            if removed:
                _try_vetoed(report, game, rng.choice(removed), veto)
            if offered:
                movers.append((seat, offered))
        if not movers:
            return step  # every action left was vetoed: the walk ends here
        seat, offered = rng.choice(movers)
        game.apply(rng.choice(offered))
    return MAX_STEPS


def _try_vetoed(
    report: Report, game: Game, action: Action, veto: Callable[..., list[Veto]]
) -> None:
    before = fingerprint(game)
    report.bad_inputs += 1
    try:
        game.apply(action)
    except IllegalActionError as exc:
        ids = {v.rule_id for v in veto(state=game.state, action=action)}
        if exc.rule_id not in ids:
            report.fail(
                f"vetoed {str(action)!r} was rejected citing {exc.rule_id}, not a veto's rule ID"
            )
        elif fingerprint(game) != before:
            report.fail(f"rejecting vetoed {str(action)!r} changed the game")
        else:
            report.rejected += 1
    except CardcoreError as exc:
        report.fail(
            f"vetoed {str(action)!r} raised {type(exc).__name__}, not IllegalActionError: {exc}"
        )
    else:
        report.fail(
            f"{str(action)!r}, vetoed by {VETO_RULE_ID}, was applied at version {before[1]}"
        )


def check_score_rule(
    report: Report,
    name: str,
    make: Make,
    rules: tuple[str, ...],
    games: int,
    seed: int,
    play_out: Callable[[Game, int], object],
) -> None:
    """Play *games* games with the kit's score-only rule, replay each without it: results must differ.

    The rule moves one point (or stake) from seat 0 to seat 1 in every scored
    round (with one seat, it gives that seat one point more), so a game that
    scores rounds (calls ``GameLogic.score_round``) must end with another result
    -- or take another course -- than the same actions without the rule. A game
    of four seats or more that refuses that answer with a ``PluginError`` (a game of
    partners, whose two partners always score alike) is played again with a rule
    that changes every seat alike: one point more each, or every score doubled in
    a ``zero_sum`` game. A game
    that never scores a round passes (``scored`` stays 0). A one-seat game
    declared ``zero_sum`` can only score 0: the rule leaves its rounds as they
    are, and the check is skipped with that reason.
    """
    calls: list[tuple[int, ...]] = []
    bad: list[str] = []
    kept: list[tuple[int, ...]] = []
    cut: list[int] = []  # the games truncated at the action bound
    first: CardcoreError | None = None
    for even in (False, True):
        calls.clear()
        kept.clear()
        different: list[str] = []
        cut.clear()
        with _registered(_score_module(name, calls, bad, kept, even)) as rule:
            try:
                scored = _score_games(
                    make, rules, rule, games, seed, play_out, calls, different, cut
                )
            except CardcoreError as exc:
                partners = report.players >= 4 and isinstance(exc, PluginError)
                if not even and calls and partners:  # refused an answer that split partners?
                    first = exc
                    continue
                report.scored += len(calls)  # it was called: the skip must not say it was not
                again = "" if first is None else f" (and before it, the one-point rule: {first})"
                which = "changing every seat alike" if even else "score-only"
                report.fail(
                    f"a game with the kit's {which} rule failed: {type(exc).__name__}: {exc}{again}"
                )
                return
        report.scored += scored
        for problem in different:
            report.fail(problem)
        break
    if not calls and cut and len(cut) == games:  # said before "never called score_round"
        report.skip(
            "scores",
            f"the {games} game(s) it played (with the kit's score-only rule) were all truncated"
            f" at the game's action bound ({cut[0]} actions) before any round was scored: a"
            " game that may run longer needs a larger GameLogic.action_bound",
        )
    if kept and not calls:
        report.skip(
            "scores",
            f"a one-seat game declared zero_sum can only score 0 in a round, so the kit's"
            f" score-only rule had nothing to change in the {len(kept)} round(s) scored",
        )
    for problem in sorted(set(bad))[:3]:
        report.fail(problem)


def _score_games(
    make: Make,
    rules: tuple[str, ...],
    rule: str,
    games: int,
    seed: int,
    play_out: Callable[[Game, int], object],
    calls: list[tuple[int, ...]],
    different: list[str],
    cut: list[int],
) -> int:
    """Play the check's games with the kit's score rule *rule*; return the rounds it adjusted
    (and add to *cut* the length of each game truncated at its bound)."""
    total = 0
    for index in range(games):
        game_seed_ = game_seed(seed, 9_000 + index)
        before = len(calls)
        game = make(game_seed_, (*rules, rule))
        play_out(game, game_seed_)
        if game.result is not None and game.result.reason == "truncated":
            cut.append(game.version)
        scored = len(calls) - before
        total += scored
        if scored and not _differs(make, game, game_seed_, rules):
            different.append(
                f"the kit's score-only rule adjusted {scored} round(s) of game {index}, but the"
                f" result is the same without it: {game.result!r}"
            )
    return total


def _differs(make: Make, game: Game, seed: int, rules: tuple[str, ...]) -> bool:
    """Whether the same actions without the kit's rule give another course or result."""
    plain = make(seed, rules)
    for seat, action, at in game.record_entries():
        try:
            plain.act(seat, str(action), at=at)
        except CardcoreError:
            return True
    return plain.is_over != game.is_over or _result(plain) != _result(game)


def _result(game: Game) -> Mapping[str, Any] | None:
    return None if game.result is None else game.result.to_json()
