"""The plugin contract the kit checks first: mistakes that would otherwise stop every other check.

A game plugin can get the engine's shape wrong in ways that make the game
unplayable: ``create_logic`` answering something that is not a
:class:`~cardcore.GameLogic`, a required method left out, ``state.to_act``
left empty (or set to an int) while the game is on, ``legal_actions``
answering strings or ``None``. Before it plays, the kit builds the
configuration, starts one game and walks it (:data:`WALK_STEPS` random
actions), and while it plays it checks ``to_act`` and the next seat's legal
actions after every action. Each mistake becomes one failure saying what the
plugin did, what it must do instead and which hook or method did it; the
checks that need a playable game are then skipped.

The ``notation`` check: the legal actions of a seat have distinct notations
(``str(action)``), and the game's ``parse_action`` reads each back (past
:data:`READ_BACK` at a point, a sample) as an equal action, so ``act(seat, text)``
and records name one action each.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardcore._text import shown
from cardcore.actions import Action
from cardcore.errors import (
    ArgumentError,
    CardcoreError,
    OptionError,
    RuleConflictError,
    UnknownPluginError,
)
from cardcore.game import Game
from cardcore.logic import GameLogic
from cardcore.plugins import get_ruleset
from cardcore.state import GameState
from cardcore.testing._report import Report

__all__ = ["CALLER_ERRORS", "DIAGNOSE_ACTIONS", "READ_BACK", "REQUIRED", "WALK_STEPS", "Contract", "explain"]

REQUIRED = ("action_bound", "new_state", "legal_actions", "apply", "table")
"""The :class:`~cardcore.GameLogic` methods every game must override."""

WALK_STEPS = 60
"""How many random actions the first walk takes (checking the contract at each)."""

DIAGNOSE_ACTIONS = 40
"""How many legal actions of each seat :meth:`Contract.diagnose` tries after a failure."""

READ_BACK = 64
"""How many notations of one seat are read back at one point when it has more: spread over
its legal actions from a start that moves on at each point, with the first of each class."""

CALLER_ERRORS: tuple[type[CardcoreError], ...] = (
    ArgumentError,
    OptionError,
    RuleConflictError,
    UnknownPluginError,
)
"""Errors that blame the arguments of the check (raised, not reported)."""

_FIX_TURN = (
    "new_state and apply must leave state.to_act a tuple of the seats to act next, such as"
    " (1,), or end the game (cardcore.turns.end_game sets is_over and result and empties"
    " to_act)"
)


def explain(exc: BaseException) -> str:
    """Describe an error that stopped a check, naming a method left unimplemented."""
    raw = "" if isinstance(exc, CardcoreError) else "a raw "
    try:
        said = str(exc)
    except Exception:  # a message that cannot be printed
        said = "(no printable message)"
    said = said if len(said) <= 300 else said[:297] + "..."
    text = f"{raw}{type(exc).__name__}: {said}"
    cause = exc.__cause__ if exc.__cause__ is not None else exc
    if isinstance(cause, NotImplementedError):
        tb = cause.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        method = "a method" if tb is None else f"the method {tb.tb_frame.f_code.co_name}"
        text += (
            f" ({method} raised NotImplementedError: the game's GameLogic subclass must"
            " implement it)"
        )
    return text


def _applied(action: Action) -> Callable[[], str]:
    """``"apply('draw')"``, written only when a message needs it."""
    return lambda: f"apply({str(action)!r})"


def _kind(value: object) -> str:
    """``"an int"``, ``"a list"``: the type of *value* in words."""
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _table(game: Game) -> Any:
    """What the vetoes must leave as it is: the state's snapshot, when the configuration has
    a veto (``None`` otherwise: nothing to compare, nothing to pay)."""
    return None if game.ruleset.veto is None else game.state.snapshot()


def _seats(state: GameState) -> tuple[int, ...]:
    to_act = state.to_act
    return to_act if type(to_act) is tuple else ()


class Contract:
    """What the kit found out about one configuration's plugin contract; its checks share it.

    :param report: Where failures go.
    :param realtime: Whether the game is real-time (its ``to_act`` may be empty while on).
    :param notation: Whether the ``notation`` check runs.
    """

    def __init__(self, report: Report, realtime: bool, notation: bool) -> None:
        self.report = report
        self.realtime = realtime
        self.notation = notation
        self.broken: str | None = None
        """The first mistake that makes the game unplayable (``None``: none found)."""
        self.bad_notation = False
        """Whether some legal action's notation is shared or does not read back."""
        self._points = 0
        """How many points the notations were checked at: where the next sample starts."""
        self._said: set[object] = set()
        self._twin: Game | None = None  # the clone _probe applied the last action to

    def fail(self, key: object, message: str, *, fatal: bool = False) -> None:
        """Report *message* once per *key*; *fatal*: the game cannot be played."""
        if fatal and self.broken is None:
            self.broken = message
        if key not in self._said:
            self._said.add(key)
            self.report.fail(message)

    # -- the parts -------------------------------------------------------------------------

    def check_logic(self, logic: Any, name: str) -> bool:
        """Check what ``create_logic`` answered; return whether it can be played."""
        if not isinstance(logic, GameLogic):
            self.fail(
                "logic",
                f"create_logic of {name!r} returned {shown(logic)}, not a cardcore.GameLogic:"
                " the game's create_logic hook must return an instance of its GameLogic"
                " subclass (return MyLogic(ruleset))",
                fatal=True,
            )
            return False
        cls = type(logic).__name__
        for method in REQUIRED:
            if getattr(type(logic), method) is getattr(GameLogic, method):
                self.fail(
                    ("required", method),
                    f"{cls} does not implement the required method {method} (GameLogic.{method}"
                    f" only raises NotImplementedError): every game's logic must override it",
                    fatal=True,
                )
        return self.broken is None

    def check_turn(
        self, logic: Any, state: GameState, version: int, where: Callable[[], str]
    ) -> bool:
        """Check ``state.to_act`` after *where* (``"new_state"``, ``"apply('draw')"``) set it."""
        to_act = state.to_act
        players = state.players
        problem = None
        if type(to_act) is not tuple:
            problem = f"set state.to_act to {shown(to_act)} ({_kind(to_act)}, not a tuple)"
        elif any(type(s) is not int or not 0 <= s < players for s in to_act):
            bad = next(s for s in to_act if type(s) is not int or not 0 <= s < players)
            problem = (
                f"put {shown(bad)} in state.to_act {shown(to_act)}, which holds only seats"
                f" from 0 to {players - 1}"
            )
        elif len(set(to_act)) != len(to_act):
            problem = f"named a seat twice in state.to_act {to_act!r}"
        elif state.is_over and state.result is None:
            problem = "set state.is_over but left state.result None"
        elif not to_act and not state.is_over and not self.realtime:
            problem = "left state.to_act empty while the game is not over"
        if problem is None:
            return True
        cls = type(logic).__name__
        self.fail(
            "turn",
            f"{cls}.{where()} {problem} (version {version}): {_FIX_TURN}",
            fatal=True,
        )
        return False

    def check_legal(self, game: Game, seat: int, legal: Any, raw: bool = True) -> bool:
        """Check what ``legal_actions`` answered for *seat*: a tuple of that seat's actions."""
        cls = type(game.logic).__name__
        where = f"{cls}.legal_actions(state, {seat}) at version {game.version}"
        must = "it must return a tuple of the seat's Action objects (empty when it may not act)"
        problem = None
        if type(legal) is not tuple:
            what = "None" if legal is None else f"{shown(legal, 60)} ({_kind(legal)})"
            problem = f"{where} returned {what}: {must}"
        else:
            for action in legal:
                if isinstance(action, str):
                    problem = (
                        f"{where} returned the text {shown(action, 60)}: legal_actions must"
                        " return Action objects (such as Draw(seat)), not their notation"
                    )
                elif not isinstance(action, Action):
                    problem = f"{where} returned {shown(action, 60)}, not a cardcore.Action: {must}"
                elif type(action.seat) is not int or action.seat != seat:
                    problem = (
                        f"{where} returned {shown(action, 60)}, an action of seat"
                        f" {shown(action.seat)}: every legal action of seat {seat} has seat={seat}"
                    )
                if problem is not None:
                    break
        if problem is None:
            return True
        if not raw:
            problem += " (as the game offers them, after house rules' vetoes)"
        self.fail(("legal", type(legal).__name__), problem, fatal=True)
        return False

    def check_notation(self, game: Game) -> None:
        """Check that every seat to act has distinct legal notations that read back."""
        self._points += 1  # once a point: every seat's sample starts further on at the next
        logic = game.logic
        state = game.state
        cls = type(logic).__name__
        for seat in _seats(state):
            try:
                legal = logic.legal_actions(state, seat)
            except Exception:  # the checks that play report it, with the failing action
                return
            if not self.check_legal(game, seat, legal):
                return
            texts: dict[str, list[Action]] = {}
            for action in legal:
                texts.setdefault(str(action), []).append(action)
            single = []
            for text, same in texts.items():
                if len(same) > 1:
                    self._shared(game, seat, text, same)
                else:
                    single.append((text, same[0]))
            picked = self._sample(single)  # a parser may list the legal set for each text
            self.report.notations += len(picked)
            for text, action in picked:
                self._read_back(game, seat, text, action, cls)

    def _sample(self, single: list[tuple[str, Action]]) -> list[tuple[str, Action]]:
        """All of *single* up to READ_BACK; past it, the first of each action class and
        READ_BACK spread evenly from a start one further on at each point, so that over
        n // READ_BACK points every one is read (in the order the game listed them)."""
        n = len(single)
        if n <= READ_BACK:
            return single
        first: dict[type, int] = {}
        for i, (_, action) in enumerate(single):
            first.setdefault(type(action), i)
        spread = {(i * n // READ_BACK + self._points) % n for i in range(READ_BACK)}
        return [single[i] for i in sorted(spread | set(first.values()))]

    def _shared(self, game: Game, seat: int, text: str, same: list[Action]) -> None:
        self.bad_notation = True
        kinds = sorted({type(a).__name__ for a in same})
        listed = ", ".join(shown(a, 60) for a in same[:3]) + (", ..." if len(same) > 3 else "")
        self.fail(
            ("shared", tuple(kinds)),
            f"{len(same)} legal actions of seat {seat} at version {game.version} share the notation"
            f" {text!r} ({listed}): act({seat}, {text!r}) cannot tell them apart and a record of"
            f" them does not replay; give {' and '.join(kinds)} a notation() that writes every"
            " field (such as 'play 5H'), and parse it back (action_types or parse_action)",
        )

    def _read_back(self, game: Game, seat: int, text: str, action: Action, cls: str) -> None:
        try:
            back = game.logic.parse_action(game.state, seat, text)
        except Exception as exc:
            self.bad_notation = True
            self.fail(
                ("unread", type(action).__name__),
                f"the notation {text!r} of legal action {shown(action, 60)} (seat {seat},"
                f" version {game.version}) is refused by {cls}.parse_action with"
                f" {explain(exc)}: the game must read back the text of every action it offers",
            )
            return
        if back != action:
            self.bad_notation = True
            self.fail(
                ("misread", type(action).__name__),
                f"the notation {text!r} of legal action {shown(action, 60)} (seat {seat},"
                f" version {game.version}) reads back through {cls}.parse_action as"
                f" {shown(back, 60)}: notation() and parsing must agree, so each text names one"
                " action",
            )

    # -- the first walk ----------------------------------------------------------------------

    def walk(
        self,
        name: str,
        rules: tuple[str, ...],
        without: tuple[str, ...],
        make: Callable[[int], Game],
        seed: int,
    ) -> None:
        """Build the configuration, start a game and take :data:`WALK_STEPS` random actions.

        Checks the logic, ``to_act`` and legal actions (and notations) at every step.
        Errors of the game's own rules (a hook raising, a stuck seat) end the walk
        quietly: the checks that play report them with their context.
        """
        try:
            ruleset = get_ruleset(name, rules, without)
        except CALLER_ERRORS:
            raise
        except Exception as exc:
            self.fail("build", f"the configuration could not be built: {explain(exc)}", fatal=True)
            return
        if not self.check_logic(ruleset.logic, name):
            return
        try:
            game = make(seed)
        except CALLER_ERRORS:
            raise
        except Exception as exc:
            self.fail("start", f"new_game({name!r}) failed: {explain(exc)}", fatal=True)
            return
        rng = random.Random(seed)
        if not self.check_turn(game.logic, game.state, game.version, lambda: "new_state"):
            return
        for _ in range(WALK_STEPS):
            if game.is_over:
                return
            movers: list[tuple[int, tuple[Action, ...]]] = []
            for seat in game.state.to_act:
                try:
                    legal = game.logic.legal_actions(game.state, seat)
                    if not self.check_legal(game, seat, legal):
                        return
                    before = _table(game)
                    offered = game.legal_actions(seat)
                except Exception:
                    return
                if _table(game) != before:
                    self._veto_changed(game, f"seat {seat}'s legal actions were computed")
                    return
                if offered:
                    movers.append((seat, offered))
            if self.notation:
                self.check_notation(game)
            if not movers:
                return
            action = rng.choice(rng.choice(movers)[1])
            if not self._probe(game, action):
                return
            try:
                game.apply(action)
            except Exception:
                return
            if self._twin is not None and _table(game) != _table(self._twin):
                # the game's own apply (on the clone) and the applied action differ: what
                # else ran inside apply is the vetoes, computing the next legal actions
                self._veto_changed(game, f"the legal actions after {str(action)!r} were computed")
                return
            if not self.check_turn(game.logic, game.state, game.version, _applied(action)):
                return

    def _probe(self, game: Game, action: Action) -> bool:
        """Apply *action* with the game's own ``apply`` alone, on a clone, and check the turn.

        The core may refuse a bad turn itself (and restore the game); the clone shows
        what the game's code left, so the mistake is named the same either way.
        """
        self._twin = None
        try:
            twin = game.clone()
            twin.logic.apply(twin.state, action, None)
        except Exception:  # the playing checks report it, with their context
            return True
        self._twin = twin
        return self.check_turn(game.logic, twin.state, game.version + 1, _applied(action))

    def _veto_changed(self, game: Game, when: str) -> None:
        """Report the house rules' ``forbid_action`` changing the state it was given."""
        names = [
            i.plugin_name
            for i in reversed(game.ruleset.pm.hook.forbid_action.get_hookimpls())
            if i.plugin_name in game.rules
        ]
        self.fail(
            "veto-changed",
            f"forbid_action ({', '.join(names) or game.name}) changed the state while {when}"
            f" (version {game.version}): a veto must only read the state it is given, or the"
            " change stays in the game",
            fatal=True,
        )

    def diagnose(self, game: Game) -> None:
        """After a game failed: look for a contract mistake where it stopped (the core may
        have restored the game), so that it is named and the checks that need it skipped."""
        try:
            if not self.check_turn(game.logic, game.state, game.version, lambda: "apply"):
                return
            for seat in _seats(game.state):
                legal = game.logic.legal_actions(game.state, seat)
                if not self.check_legal(game, seat, legal):
                    return
                for action in legal[:DIAGNOSE_ACTIONS]:
                    if not self._probe(game, action):
                        return
        except Exception:  # nothing more to learn here: the failure is reported already
            return

    def after_action(self, game: Game, action: Action) -> bool:
        """Check ``to_act`` and the next seat's legal actions after *action*; ``False``: broken."""
        if not self.check_turn(game.logic, game.state, game.version, _applied(action)):
            return False
        state = game.state
        if self.realtime or state.is_over or not state.to_act:
            return True
        seat = state.to_act[0]
        try:
            legal = game.legal_actions(seat)  # cached: the next decision reads it for free
        except Exception:  # the playing loop meets it again and reports it
            return True
        return self.check_legal(game, seat, legal, raw=False)
