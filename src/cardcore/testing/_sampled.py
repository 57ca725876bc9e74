"""The kit's sampled-position probe: a position sampled from a seat's view, as a search agent
samples it, starts a game that shows the seat its real view and plays on as the agent does."""

from __future__ import annotations

import math
import random
from typing import Any

from cardcore._text import shown
from cardcore.errors import CardcoreError
from cardcore.game import Game
from cardcore.logic import GameLogic
from cardcore.setup import new_game
from cardcore.testing._report import Report

__all__ = ["PLAY_ON", "SAMPLE_ATTEMPTS", "check_sampled"]


def _view_differs(sampled: dict[str, Any], real: dict[str, Any]) -> str:
    """What a seat's view of a sampled world shows otherwise than its real view ("" if
    nothing): the seat knows the same in both. Legal actions are compared as a set (their
    order may follow the hand's, which a sample writes in the order the view shows)."""
    keys = [
        k
        for k in sorted({*real, *sampled})
        if k not in ("version", "legal", "table") and sampled.get(k) != real.get(k)
    ]
    table, mine = real.get("table") or {}, sampled.get("table") or {}
    keys += [f"table[{k!r}]" for k in sorted({*table, *mine}) if table.get(k) != mine.get(k)]
    if sorted(map(str, sampled.get("legal") or ())) != sorted(map(str, real.get("legal") or ())):
        keys.append("legal")
    return ", ".join(keys)


def _blank_slots(logic: GameLogic[Any, Any], view: dict[str, Any], state: Any = None) -> str:
    """The slots of ``position_fields`` the view's table does not show under their own
    names, or shows in another type or shape (bools for a slot of ints), or, given the
    real *state*, shows so that they read back as another value (a phase in capitals)
    (``"'drew', 'passes'"``; "" if none): the core's sampler leaves them blank or wrong."""
    from cardcore.errors import OptionError
    from cardcore.positions import read_field

    table = view.get("table") or {}
    try:
        blank = logic.blank_state(len(view["players"]), view["options"])
    except Exception:  # the sampler says why when it runs
        blank = None
    missing = []
    for field in logic.position_fields:
        if field == "to_act":
            continue
        if field not in table:
            missing.append(field)
            continue
        try:
            if blank is not None:
                got = read_field(field, table[field], getattr(blank, field))
                if state is not None and got != getattr(state, field, got):
                    missing.append(field)  # read back as another value than the real one
        except (OptionError, TypeError):  # as the sampler reads it: kept blank, which is
            if state is None or getattr(state, field, None) != getattr(blank, field, None):
                missing.append(field)  # wrong unless the real value is the blank one
        except Exception:  # a value compared its own way: judged by the views alone
            pass
    return ", ".join(map(repr, missing))


#: Samples of one view a search agent draws before it gives up (as ``ismcts`` does).
SAMPLE_ATTEMPTS = 20

#: Actions played on from a sampled position, as a search agent's rollout plays them (the
#: game's ``rollout_action``, else random legal ones), until the round ends (a trick or a round
#: of turns).
PLAY_ON = 12


def check_sampled(report: Report, game: Game, seed: int) -> None:
    """A position sampled from the view of the seat to act starts a game, as a search agent
    (``ismcts``) starts its worlds: a field the view does not show must read back blank,
    and the seat's view of that game must be its real one (legal actions as a set).

    A game that offers no sampling (its own notation and no ``position_from_view``) is
    skipped: a search agent says so when it is built for it.
    """
    from cardcore.errors import OptionError
    from cardcore.search.sampling import offers_sampling, sample_position

    seat = game.to_act[game.version % len(game.to_act)]  # every seat to act, in turn
    cls = type(game.logic)
    own = (  # the game samples itself: the advice is about its own code
        cls.sample_position is not GameLogic.sample_position
        or cls.position_from_view is not GameLogic.position_from_view
    )
    view = game.view(seat)
    rng = random.Random(seed)
    problem: CardcoreError | None = None
    config = game.ruleset.game
    for _ in range(SAMPLE_ATTEMPTS):
        try:
            text = sample_position(view, rng)
        except CardcoreError as exc:
            if not offers_sampling(game.logic):
                return  # its own notation and no hook: search agents say so when built
            report.fail(f"sampling seat {seat}'s view at version {game.version} failed: {exc}")
            return
        try:
            world = new_game(
                game.name,
                list(game.players),
                rules=[r for r in game.rules if r not in config.default_rules],
                without=sorted(set(config.default_rules) - set(game.rules)),
                options=dict(game.options),
                position=text,
                seed=rng.getrandbits(40),
            )
        except OptionError as exc:  # an inconsistent sample: a search agent draws another
            problem = exc
            continue
        except CardcoreError as exc:
            problem = exc
            break
        differs = _view_differs(world.view(seat), view)
        if differs:
            blank = _blank_slots(game.logic, view, game.state)
            if own:
                why = "the game's own sample_position or position_from_view writes it otherwise"
            elif blank:
                why = (
                    "the slots of position_fields the view's table does not show under their"
                    f" own names and types ({blank}) are blank in every sample; show each in"
                    " the table under its own name and type, or give the game position_from_view"
                )
            elif "table[" in differs:
                why = (
                    "a slot the table shows in another form, or under another name, is blank"
                    " in every sample; show the slot's own value under its own name, or give"
                    " the game position_from_view"
                )
            else:
                why = (
                    "the core's sampler cannot keep what the seat knows there (a card it knows"
                    " in a pile the view does not show it in); give the game position_from_view"
                )
            report.fail(
                f"a position sampled from seat {seat}'s view at version {game.version} shows the"
                f" seat another view ({differs}): {why}"
            )
        elif len(game.legal_actions(seat)) > 1:  # (an agent with one move plays it, unsearched)
            _play_on(report, world, rng, f"seat {seat}'s view at version {game.version}", own, game)
        return
    blank = "" if own else _blank_slots(game.logic, view, game.state)
    why = (
        "the game's own sample_position or position_from_view writes positions it refuses"
        if own
        else f"the slots of position_fields the view's table does not show ({blank}) are blank"
        " there; show each in the table under its own name and type, or give the game"
        " position_from_view"
        if blank
        else "a field the view does not show is blank there; give the game position_from_view"
    )
    report.fail(
        f"a search agent cannot sample seat {seat}'s view at version {game.version}: new_game"
        f" refuses the positions sampled from it ({why}): {problem}"
    )


def _play_on(
    report: Report, world: Game, rng: random.Random, where: str, own: bool, game: Game
) -> None:
    """Play on a few actions in a game started from a sampled position, as a search agent's
    rollouts do: a slot the view does not show is blank there, and a game that still reads
    it (the seats of the trick so far, say) fails on the next actions. A failure is the
    sample's only if the game (a clone of *game*) plays on from its own position."""
    seed = rng.getrandbits(32)
    failed = _walk(world, random.Random(seed))
    if failed is None:
        return
    done, how, what = failed
    after = "at its first action" if done == 0 else f"after {done} action{'s' * (done != 1)}"
    again = _walk(game.clone(), random.Random(seed))  # the same walk from the real position
    if again is not None and again[1] == how:  # the same hook failing the same way
        why = "it fails so from its own position too, not only from a sample: the game's own fault"
    elif own:
        why = "the game's own sample_position or position_from_view leaves out what it needs"
    else:
        why = (
            "a slot the view does not show is blank in every sample; work it out from what the"
            " view shows, or give the game position_from_view"
        )
    report.fail(
        f"a game started from a position sampled from {where} failed {after}, played on as a"
        f" search agent plays ({why}): {what}"
    )


def _walk(world: Game, rng: random.Random) -> tuple[int, tuple[str, str], str] | None:
    """Play up to :data:`PLAY_ON` actions as a search agent's rollout does (the game's
    ``rollout_action``, else a random legal action; then ``utility``, which must score every
    seat, and ``rounds_played``), to the end of the round as the agent stops there: how many
    were played, (the hook, the error's kind) and what failed; or ``None``."""
    logic = world.logic
    own_policy = type(logic).rollout_action is not GameLogic.rollout_action
    hook, done = "rounds_played", 0
    try:
        start = logic.rounds_played(world.state)
        for done in range(PLAY_ON):
            hook = "legal_actions"
            seats = [] if world.is_over else [s for s in world.to_act if world.legal_actions(s)]
            if not seats:
                return None
            seat = seats[rng.randrange(len(seats))]
            legal = world.legal_actions(seat)
            action = None
            if own_policy:
                hook = "rollout_action"
                action = logic.rollout_action(world.state, seat, legal, rng)
            hook = "apply"
            world.apply(legal[rng.randrange(len(legal))] if action is None else action)
            hook = "utility"
            scores = logic.utility(world.state)
            if len(scores) != world.state.players or not all(math.isfinite(v) for v in scores):
                return (
                    done,
                    (hook, "answer"),
                    f"utility answered {shown(scores, 80)}, not a finite number per seat",
                )
            hook = "rounds_played"
            if logic.rounds_played(world.state) != start:
                return None  # the round ended: an agent's descent and rollout stop here
    except CardcoreError as exc:
        return done, (hook, type(exc).__name__), f"{hook}: {exc}"
    except Exception as exc:  # a search hook, called directly as the agent calls it
        return done, (hook, type(exc).__name__), f"{hook} raised {type(exc).__name__}: {exc}"[:300]
    return None
