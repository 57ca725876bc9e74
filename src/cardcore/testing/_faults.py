"""Private helper of :mod:`cardcore.testing`: faults and forgeries a game must survive.

* A house rule whose ``score_round`` keeps failing (a scoring service that went
  down and stays down): the failed ``apply`` leaves the game byte-identical
  (``save()`` before and after), raises :class:`~cardcore.PluginError` (a
  ``BaseException`` is re-raised as it is), and the restore never calls the
  failing hook again.
* Subscribers that raise (a dropped connection): every action is applied all the
  same, every other subscriber gets every event, every failure reaches ``on_error``.
* Saves edited in one place (options, players, action text in non-ASCII digits)
  and hostile JSON (deep, huge integers, NaN): refused with
  :class:`~cardcore.CorruptStateError`, never a raw exception.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from cardcore._markers import hookimpl
from cardcore.errors import CardcoreError, CorruptStateError, PluginError
from cardcore.events import Event
from cardcore.game import Game
from cardcore.info import RuleInfo
from cardcore.plugins import register, unregister
from cardcore.records import load, replay
from cardcore.state import GameState
from cardcore.testing._report import Report
from cardcore.testing._util import fingerprint, game_seed

__all__ = [
    "FAIL_RULE_ID",
    "RaisingSubscriber",
    "check_failing_rule",
    "check_tampered",
    "quiet_delivery_log",
]

FAIL_RULE_ID = "KIT-FAIL-1"
"""The rule ID of the kit's failing rule (its ``score_round`` raises when switched on)."""
FAIL_STEPS = 3000
"""How many actions a game with the failing rule plays at most to find a scored round."""


class _Switch:
    """The failing rule's state: the error it raises (``None``: it works) and its calls."""

    def __init__(self) -> None:
        self.error: type[BaseException] | None = None
        self.calls = 0


def _fail_module(game: str, switch: _Switch) -> types.ModuleType:
    module = types.ModuleType(f"cardcore.testing.kit_fail.{game}")

    @hookimpl
    def score_round(state: GameState, scores: Sequence[int]) -> Sequence[int] | None:
        switch.calls += 1
        if switch.error is not None:
            raise switch.error("the kit's scoring service is down")
        return None

    rule = RuleInfo(
        FAIL_RULE_ID, f"{game}.kit-fail", game, "the conformance kit's failing score_round"
    )
    vars(module).update(RULE=rule, score_round=score_round)
    return module


@contextlib.contextmanager
def _registered(module: types.ModuleType) -> Iterator[str]:
    name = module.RULE.name
    register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        unregister("cardcore.rules", name)


def _dump(game: Game) -> str:
    return json.dumps(game.save(), sort_keys=True)


def _scoring_actions(game: Game, switch: _Switch, rng: random.Random) -> list[int]:
    """Play *game* at random; return the indexes of the first two actions that scored a round."""
    scored: list[int] = []
    for _ in range(FAIL_STEPS):
        if game.is_over or len(scored) == 2:
            break
        seats = list(game.to_act)
        rng.shuffle(seats)
        for seat in seats:
            legal = game.legal_actions(seat)
            if legal:
                calls = switch.calls
                game.apply(rng.choice(legal))
                if switch.calls > calls:
                    scored.append(game.version - 1)
                break
        else:
            break  # nobody can act (a real-time game waiting for a clock)
    return scored


Make = Callable[[int, tuple[str, ...]], Game]


def check_failing_rule(
    report: Report, name: str, make: Make, rules: tuple[str, ...], games: int, seed: int
) -> None:
    """Fail the kit's ``score_round`` rule at a scored round; the game must be restored exactly.

    Game *i* fails with ``RuntimeError`` (even *i*) or ``KeyboardInterrupt`` (odd *i*)
    at the second scored round (the first if there is one only), so a restore that
    replays the record from the deal would call the failing hook again for the
    first. A game that never scores a round passes (``Report.restored`` stays 0).
    """
    switch = _Switch()
    with _registered(_fail_module(name, switch)) as rule:
        for index in range(games):
            error: type[BaseException] = (RuntimeError, KeyboardInterrupt)[index % 2]
            seed_ = game_seed(seed, 11_000 + index)
            switch.error, switch.calls = None, 0
            try:
                game = make(seed_, (*rules, rule))
                scored = _scoring_actions(game, switch, random.Random(seed_))
            except CardcoreError as exc:
                report.fail(f"a game with the kit's failing rule (switched off) failed: {exc}")
                return
            if not scored:
                continue
            target = scored[-1]
            entries = game.record_entries()
            again = make(seed_, (*rules, rule))
            for seat, action, at in entries[:target]:
                again.act(seat, str(action), at=at)
            seat, action, _ = entries[target]
            _fail_once(report, again, seat, str(action), switch, error)


def _fail_once(
    report: Report, game: Game, seat: int, text: str, switch: _Switch, error: type[BaseException]
) -> None:
    seats: list[int | None] = [*range(len(game.players)), None]
    before = _dump(game)
    views = [game.view(s) for s in seats]
    switch.error, switch.calls = error, 0
    where = f"{text!r} at version {game.version} (the kit's score_round raising {error.__name__})"
    try:
        game.act(seat, text)
    except PluginError:
        if error is not RuntimeError:
            report.fail(f"{where}: PluginError instead of the {error.__name__} re-raised")
    except KeyboardInterrupt:
        if error is not KeyboardInterrupt:
            raise
    except Exception as exc:
        report.raw += not isinstance(exc, CardcoreError)
        report.fail(f"{where}: raised {type(exc).__name__} ({exc}), not PluginError")
    else:
        report.fail(f"{where}: applied although its hook raised")
    finally:
        switch.error = None
    calls, switch.calls = switch.calls, 0
    if calls != 1:
        report.fail(f"{where}: the hook was called {calls} times (the restore must call it never)")
    if _dump(game) != before:
        report.fail(f"{where}: the failed apply left the game changed (save before != after)")
        return
    if [game.view(s) for s in seats] != views:
        report.fail(f"{where}: the failed apply changed a view")
        return
    try:
        if fingerprint(load(before)) != fingerprint(game):
            report.fail(f"{where}: the save after the failed apply loads another game")
        game.act(seat, text)  # the service is back
    except Exception as exc:
        report.raw += not isinstance(exc, CardcoreError)
        report.fail(f"{where}: after the restore: {type(exc).__name__}: {exc}")
        return
    report.restored += 1


class RaisingSubscriber:
    """A handler that raises ``ConnectionResetError`` on every event, counting them."""

    def __init__(self) -> None:
        self.raised = 0
        self.reported: list[Any] = []

    def __call__(self, event: Event) -> None:
        self.raised += 1
        msg = f"the kit's subscriber went away at {type(event).__name__}"
        raise ConnectionResetError(msg)

    def problem(self) -> str | None:
        """Why the failures were not all reported to ``on_error`` (``None``: they were)."""
        wrong = [f for f in self.reported if not isinstance(f.error, ConnectionResetError)]
        if wrong:
            return f"on_error got {type(wrong[0].error).__name__}, not the subscriber's error"
        if len(self.reported) != self.raised:
            return f"the subscribers raised {self.raised} times, on_error heard of {len(self.reported)}"
        return None


@contextlib.contextmanager
def quiet_delivery_log() -> Iterator[None]:
    """Silence the ``cardcore.events`` logger (the kit's own subscribers fail on purpose)."""
    logger = logging.getLogger("cardcore.events")
    was = logger.disabled
    logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = was


def _refused(report: Report, label: str, call: Callable[[Any], object], data: Any) -> None:
    report.bad_inputs += 1
    try:
        call(data)
    except CorruptStateError:
        report.rejected += 1
        return
    except Exception as exc:
        report.raw += not isinstance(exc, CardcoreError)
        report.fail(
            f"{label} raised {type(exc).__name__} ({str(exc)[:200]}), not CorruptStateError"
        )
        return
    report.fail(f"{label} loaded")


def check_tampered(report: Report, game: Game) -> None:
    """A save edited in one place, or holding hostile JSON, is refused with CorruptStateError."""
    save = json.loads(json.dumps(game.save()))
    record = save["record"]
    v = game.version
    edits: list[tuple[str, Callable[[dict[str, Any]], bool]]] = []

    def players(s: dict[str, Any]) -> bool:
        names = s["record"]["players"]
        if len(set(names)) < 2:
            return False
        names.reverse()
        return True

    def option(s: dict[str, Any]) -> bool:
        for o in game.ruleset.options:
            if o.kind is int and o.minimum is not None and o.maximum is not None:
                now = s["record"]["options"].get(o.name, o.default)
                for value in (o.minimum, o.maximum):
                    if value != now:
                        s["record"]["options"][o.name] = value
                        return True
        return False

    def digits(s: dict[str, Any]) -> bool:
        for entry in s["record"]["actions"]:
            if any(c in "0123456789" for c in entry[1]):
                entry[1] = "".join(
                    "\u0663" if c == "3" else "\uff15" if c.isdigit() else c for c in entry[1]
                )
                return True
        return False

    edits += [
        ("players swapped", players),
        ("an option changed", option),
        ("non-ASCII digits", digits),
    ]
    for label, edit in edits:
        forged = json.loads(json.dumps(save))
        if edit(forged):
            _refused(report, f"a save at version {v} with {label} in its record", load, forged)
    deep: list[Any] = []
    for _ in range(200):
        deep = [deep]
    hostile: dict[str, dict[str, Any]] = {
        "a seed of 600 bits": {"seed": 2**600},
        "a nested value 200 deep": {"options": dict(record["options"], deep=deep)},
        "a NaN": {"extra": float("nan")},
    }
    for label, change in hostile.items():
        _refused(report, f"a record at version {v} with {label}", replay, dict(record, **change))
