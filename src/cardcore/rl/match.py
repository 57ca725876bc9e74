"""One game as a sequence of decisions: the engine under every :mod:`cardcore.rl` environment.

A :class:`Config` checks a configuration once (game, rules, seats, options,
rewards) and builds its encoding; a :class:`Match` plays one game of it, one
decision at a time, and keeps the rewards each seat has earned since it last
collected them.

Turn-based games ask the seat in ``to_act``. Real-time games run on the
virtual clock of :func:`cardcore.run_realtime`: every seat with something to
do decides at the current virtual time, each decision becomes a plan due
after a reaction delay, and the earliest plan is applied (equal times broken
by a seeded draw). After each applied action the seat that acted decides
again, and so does every seat whose plan is no longer legal or that had none;
the others keep their plans and due times. Decisions asked at one virtual
time all see the same state, because nothing is applied until every one of
them is in.
"""

from __future__ import annotations

import math
import numbers
import operator
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from cardcore._driver import validate
from cardcore._options import plain_options
from cardcore._text import one_of, read_all, shown
from cardcore.actions import Action
from cardcore.deck import derive_rng
from cardcore.errors import (
    ArgumentError,
    IllegalActionError,
    OptionError,
    PluginError,
    StaleActionError,
)
from cardcore.game import MAX_TIME, Game
from cardcore.logic import GameLogic
from cardcore.plugins import game_info
from cardcore.positions import fair_ints
from cardcore.rl.encoding import Encoding, GenericEncoding, Observer, encoding_for, seat_view
from cardcore.setup import MAX_PLAYERS, new_game

__all__ = ["MAX_REACTION", "REWARDS", "SPREAD", "Config", "Match", "win_rewards"]

REWARDS = ("win", "score")
"""The reward schemes: ``"win"`` pays at the end of the game, ``"score"`` as standings change."""
SPREAD = 0.3
"""The sigma of the lognormal reaction delay drawn for an environment's own decisions."""
MAX_REACTION = 3600.0
"""The largest ``reaction`` (median delay in seconds) an environment takes: one hour, so
that a game's plans stay far below ``MAX_TIME`` (1e15 s), the latest time a game records."""


def as_int(value: Any) -> int | None:
    """*value* as a plain int if it is an integral number (a numpy integer too, not a bool), else ``None``.

    An int subclass is read by int's own method, never by its (perhaps failing) overrides.
    """
    kind = type(value)  # the real type: a claim through __class__ makes nothing a number
    if issubclass(kind, bool) or not issubclass(kind, numbers.Integral):
        return None
    if issubclass(kind, int):
        return int.__index__(value)
    try:  # an integral type of another library: its own conversion may fail
        return operator.index(value)
    except Exception:
        return None


def as_float(value: Any) -> float | None:
    """*value* as a plain float if it is a real number (a numpy scalar too, not a bool) that a
    float holds, else ``None`` (an int past a float's range too)."""
    kind = type(value)  # the real type: a claim through __class__ makes nothing a number
    if issubclass(kind, bool) or not issubclass(kind, numbers.Real):
        return None
    try:  # float() of an int past a float's range raises OverflowError
        if issubclass(kind, int):
            return float(int.__index__(value))
        return float.__float__(value) if issubclass(kind, float) else float(value)
    except Exception:  # also a real number of another library whose conversion fails
        return None


def win_rewards(winners: Sequence[int], players: int) -> list[float]:
    """The ``"win"`` rewards: +1 for each winner, the losers share the winners' total.

    Zero-sum: with *w* winners of *n* seats, a loser gets ``-w / (n - w)``
    (``-1`` in a two-seat game). No winner (a truncated game), or every seat a
    winner, pays 0 to all. The one exception is a one-seat game (a patience),
    which no reward can keep zero-sum: its win pays +1, and no winner (a loss,
    as a truncated game) pays 0.

    >>> from cardcore.rl import win_rewards
    >>> win_rewards([0], 2), win_rewards([0], 1), win_rewards([], 1)
    ([1.0, -1.0], [1.0], [0.0])

    :param winners: The winning seats, each an int from 0 below *players*.
    :param players: The number of seats, an int from 1 to 64.
    :raises ArgumentError: *players* is not an int from 1 to 64, or *winners* is not a
        list of seats of a *players*-seat game.
    """
    n = as_int(players)
    if n is None or not 1 <= n <= MAX_PLAYERS:
        msg = f"players must be an int from 1 to {MAX_PLAYERS} (the number of seats), not {shown(players)}"
        raise ArgumentError(msg)
    given: Any = winners
    if isinstance(given, str | bytes | Mapping) or not isinstance(given, Iterable):
        msg = f"winners must be a list of seats, not {shown(winners)}"
        raise ArgumentError(msg)
    seats: set[int] = set()
    for s in read_all(given, "winners"):  # (an iterable failing midway, a 0-d array)
        seat = as_int(s)
        if seat is None or not 0 <= seat < n:
            msg = f"winners must be seats of a {n}-player game (0 to {n - 1}), not {shown(s)} in {shown(winners)}"
            raise ArgumentError(msg)
        seats.add(seat)
    players = n
    w = len(seats)
    if players == 1:  # a patience: its win pays, with nobody to pay for it
        return [float(w)]
    if w == 0 or w >= players:
        return [0.0] * players
    loss = -w / (players - w)
    return [1.0 if s in seats else loss for s in range(players)]


class Config:
    """One environment configuration, checked once by starting a game of it.

    :param game: An installed game.
    :param players: The number of seats (default 2, or the nearest count the game
        seats).
    :param rules: House rules to add.
    :param without: Default rules to switch off.
    :param options: The game's options.
    :param rewards: ``"win"`` or ``"score"`` (see the "Rewards" section of ``docs/rl.rst``).
    :param max_actions: End a game as truncated after this many actions (default: the game's bound).
    :param reaction: Real time: the median reaction delay in seconds of the
        decisions an environment makes for a seat, one for all or one per seat, each
        from 0 to :data:`MAX_REACTION` (an hour).
    :param wait: Real time: add a ``"wait"`` action, the last index of the action space
        (:attr:`Observer.wait <cardcore.rl.Observer.wait>`): the seat plans
        nothing and decides again after the next change (:meth:`~cardcore.rl.Match.wait`).
    :raises UnknownPluginError: Unknown game or rule.
    :raises OptionError: Bad options, players, rewards or reaction; *wait* not a bool, or
        ``True`` for a turn-based game.
    :raises ArgumentError: *rules* or *without* is not a list of names.
    """

    def __init__(
        self,
        game: str,
        players: int | None = None,
        *,
        rules: Sequence[str] = (),
        without: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
        rewards: str = "win",
        max_actions: int | None = None,
        reaction: float | Sequence[float] = 0.5,
        wait: bool = False,
    ) -> None:
        if players is None:  # two, else the nearest the game seats (names an unknown game)
            info = game_info(game) if isinstance(game, str) else None
            players = max(info.min_players, min(2, info.max_players)) if info else 2
        seats = as_int(players)  # a numpy integer too
        if seats is None:
            msg = f"players must be a number of seats, not {shown(players)}"
            raise OptionError(msg)
        self.game = game
        self.players: int = seats
        for what, names in (("rules", rules), ("without", without)):
            if isinstance(names, str | bytes | bytearray | Mapping) or not isinstance(
                names, Iterable
            ):
                msg = f"{what} takes a list of names, not {shown(names)}"
                raise ArgumentError(msg)
        self.rules = tuple(rules)
        self.without = tuple(without)
        self.options = plain_options(options)
        probe = self.start(0)
        self.info = probe.ruleset.game
        """The game's :class:`~cardcore.GameInfo`."""
        self.option_names = frozenset(o.name for o in probe.ruleset.options)
        """The options of this configuration: the game's and its chosen rules' own."""
        self.realtime = self.info.realtime
        self.encoding: Encoding = encoding_for(probe)
        """The configuration's encoding (the game's own or the generic one)."""
        flag = isinstance(wait, bool | np.bool_)  # numpy's from a sweep too (as vector_env's copy)
        if not flag or (wait and not self.realtime):
            msg = (
                f"wait must be True or False, not {shown(wait)}"
                if not flag
                else f"wait=True is for real-time games; in {game}, a turn-based game, the seat to act must act"
            )
            raise OptionError(msg)
        self.observer = Observer(self.encoding, bool(wait))
        if not (type(rewards) is str and rewards in REWARDS):
            msg = f"rewards must be one of {one_of(REWARDS)}, not {shown(rewards)}"
            raise OptionError(msg)
        self._paid = (  # a stakes game without an encoding of its own: paid its net payouts
            rewards == "score"
            and isinstance(self.encoding, GenericEncoding)
            and type(probe.logic).payouts is not GameLogic.payouts
            and self._payouts(probe) is not None  # (None: no stakes in this configuration)
        )
        if rewards == "score" and self.progress(probe) is None:
            msg = f"{game} has no score reward (its encoding gives no progress, nor does it declare payouts): use rewards='win'"
            raise OptionError(msg)
        self.rewards = rewards
        bound = probe.logic.action_bound(seats, probe.options)
        if max_actions is not None:
            limit = as_int(max_actions)  # a numpy integer too
            if limit is None or limit < 1:
                msg = f"max_actions must be a positive int, not {shown(max_actions)}"
                raise OptionError(msg)
            bound = min(bound, limit)
        self.bound = bound
        """The most actions a game takes before it ends as truncated."""
        given: Any = reaction
        if as_float(given) is not None:  # numpy scalars too (a sweep's np.float32)
            medians = [as_float(given)] * seats
        elif isinstance(given, Sequence) and not isinstance(given, str | bytes | bytearray):
            medians = [as_float(m) for m in given]
        else:
            medians = []
        if len(medians) != seats or not all(
            m is not None and 0 <= m <= MAX_REACTION for m in medians
        ):
            msg = (
                f"reaction must be a finite delay in seconds from 0 to {MAX_REACTION:g}"
                f" (MAX_REACTION), or one per seat, not {shown(reaction)}"
            )
            raise OptionError(msg)
        self.reaction: list[float] = [m for m in medians if m is not None]

    def start(self, seed: int) -> Game:
        """Start a game of this configuration with *seed*."""
        return new_game(
            self.game,
            self.players,
            rules=self.rules,
            without=self.without,
            options=self.options,
            seed=seed,
        ).single_thread()  # an environment steps its game from one thread at a time

    def _payouts(self, game: Game) -> list[float] | None:
        """The game's net payouts so far as floats (``None``: it has no stakes).

        :raises PluginError: ``payouts`` raised or answered other than one int per seat.
        """
        name = self.info.name
        try:
            paid = game.logic.payouts(game.state)
        except Exception as exc:  # the game's own mistake, named
            msg = f"{name!r} raised {type(exc).__name__} in payouts: {shown(str(exc), 200)}"
            raise PluginError(msg, plugin=name) from exc
        if paid is not None and not fair_ints(paid, self.players):
            msg = f"{name!r} answered payouts {shown(paid)}: one int per seat or None"
            raise PluginError(msg, plugin=name)
        return None if paid is None else [float(x) for x in paid]

    def progress(self, game: Game) -> Sequence[float] | None:
        """Every seat's standing for ``"score"`` rewards, from the spectator's (public) view;
        for a stakes game with the generic encoding, its net payouts so far.

        :raises PluginError: The game's ``payouts`` answered other than one int per seat.
        """
        if self._paid:
            paid = self._payouts(game)
            if paid is None:
                msg = f"{self.info.name!r} answered payouts None mid-game after paying at the deal"
                raise PluginError(msg, plugin=self.info.name)
            return paid
        enc = self.encoding
        return enc.progress(seat_view(game, None, enc.needs))


class Match:
    """One game of a :class:`Config`, played one decision at a time.

    :param config: The configuration.
    :param seed: The game's seed, an int (reaction delays and ties draw from it too).
    :raises ArgumentError: For a *config* that is not a :class:`Config`.
    """

    def __init__(self, config: Config, seed: int) -> None:
        if not isinstance(config, Config):
            raise ArgumentError(f"Match takes a Config, not {shown(config, 60)}")
        self.config = config
        self.game = config.start(seed)
        self.players = n = config.players
        self.rng: random.Random = derive_rng(seed, 0x5EA7)
        self.now = 0.0
        """Real time: the virtual time in seconds."""
        self.steps = 0
        self.truncated = False
        """Whether the game ended by the action bound (or stalled) rather than by its rules."""
        self.stalled = False
        """Real time: whether it ended because nobody had anything to do."""
        self.plans: list[tuple[float, Action, int] | None] = [None] * n
        self.dropped = [0] * n
        """Real time: per seat, how many of its plans were dropped unapplied (refused as
        stale or too old to judge, or no longer legal after another seat's action): it
        decided again."""
        self.pending: list[int] = []
        self._rewards = [0.0] * n
        self._scored = config.rewards == "score"
        self._by_round = self._scored and getattr(config.encoding, "progress_by_round", 0) is True
        self._rounds = -1  # rounds played when the standing was last read (-1: never)
        # from nothing: what the deal settled (a Tonk natural) is paid with the first reward
        self._standing = [0.0] * n if self._scored else []
        self._rejected = 0
        self._kept: tuple[int, int, float] | None = None
        """Real time: (seat, version, delay) drawn for a decision a hook failure undid."""
        self._drawn: Any = None
        """Real time: the generator's state before this decision's first tie draw."""
        self._undo: (
            tuple[float, list[tuple[float, Action, int] | None], list[int], int, list[int]] | None
        ) = None
        """Real time: the fields before this decision's first stale plan was dropped."""
        game = self.game
        if not game.is_over:
            if config.realtime:
                self.pending = [s for s in range(n) if game.legal_actions(s)]
                if not self.pending:
                    self._stall()
            else:
                self.pending = [game.to_act[0]]
        self._settle_rewards()

    # -- reading ----------------------------------------------------------------------------

    @property
    def seat(self) -> int:
        """The seat whose decision is asked now, or -1 once the game is over."""
        if self.pending:
            return self.pending[0] if not self.game.is_over else -1
        if not self.game.is_over:  # a hook failed after an action was applied: ask again
            self._resume()
            return self.seat
        return -1

    def _resume(self) -> None:
        """Find who must decide after a failure left nobody asked in a game not over."""
        game = self.game
        if self.config.realtime:
            self._reask()
            self._run()
        else:
            self.pending = [game.to_act[0]]

    @property
    def over(self) -> bool:
        """Whether the game has ended (by its rules, truncation or a stall)."""
        return self.game.is_over

    def legal(self, seat: int) -> tuple[Action, ...]:
        """The legal actions of *seat* now."""
        return self.game.legal_actions(seat)

    def collect(self) -> list[float]:
        """Return every seat's rewards earned since the last call, and start afresh."""
        out = self._rewards
        self._rewards = [0.0] * self.players
        return out

    def delay(self, seat: int) -> float:
        """Draw a reaction delay for a decision the environment makes for *seat*."""
        return self.config.reaction[seat] * math.exp(SPREAD * self.rng.gauss(0.0, 1.0))

    # -- deciding ---------------------------------------------------------------------------

    def act(self, action: Action, delay: float | None = None) -> None:
        """The pending seat's decision: *action* (one of its legal actions).

        Turn-based games apply it at once. In real time it becomes a plan due
        after *delay* seconds (``None``: a delay drawn from the configuration's
        reaction time), and the clock runs until a seat must decide again.

        :raises IllegalActionError: Nobody is asked (the game is over), or a turn-based
            *action* the game refuses; nothing changes. Real time: a plan of an action that is
            not legal now, whatever its delay (nothing changes), or one the game refused when
            it came due for another reason than staleness (the messages name its seat).
        :raises ArgumentError: Real time: *action* is not an :class:`~cardcore.Action`
            of the pending seat, or *delay* is not a finite number of seconds, or the plan
            would be due past ``MAX_TIME`` (1e15 s), a time no game records; nothing changes.
        :raises PluginError: A rule's hook raised before the game took an action: the
            match's fields are as they were (a drawn delay is kept for the retry). One
            raised after an action was applied leaves that action in place.
        """
        seat = self.seat
        if seat < 0:
            msg = "no seat is asked: the game is over (CORE-OVER-1)"
            raise IllegalActionError(msg, action=action, rule_id="CORE-OVER-1")
        game = self.game
        if not self.config.realtime:
            game.apply(action, seen=game.version)  # a refusal raises before anything moves
            self.pending = [game.to_act[0]] if not game.is_over else []
            self._applied()
            return
        if not isinstance(action, Action) or action.seat != seat:
            msg = f"seat {seat} must plan one of its own actions, not {shown(action)}"
            raise ArgumentError(msg)
        known = game._legal.get(seat) if game._legal_v == game.version else None  # asked now
        if action not in (game.legal_actions(seat) if known is None else known):
            self._refuse(seat, action)  # whatever its delay: never dropped silently later
        drawn = delay is None
        if drawn:
            kept = self._kept
            if kept is not None and kept[0] == seat and kept[1] == game.version:
                wait = kept[2]  # the delay drawn for this decision before a hook failed
            else:
                wait = self.delay(seat)
        elif (seconds := as_float(delay)) is not None and math.isfinite(seconds):
            wait = max(0.0, seconds)
        else:
            msg = f"a plan's delay must be a finite number of seconds, not {shown(delay)}"
            raise ArgumentError(msg)
        if self.now + wait > MAX_TIME:
            msg = (
                f"a plan's delay of {wait:g} s makes it due at {self.now + wait:g} s, past the"
                f" latest time a game records ({MAX_TIME:g} s) (CORE-RECORD-1)"
            )
            raise ArgumentError(msg)
        version = game.version
        try:
            self._decide(seat, (self.now + wait, action, version))
        except BaseException:
            if drawn and game.version == version:
                self._kept = (seat, version, wait)  # drawn once, as if nothing had failed
            raise
        self._kept = None

    def wait(self) -> None:
        """Real time: the pending seat plans nothing; it decides again after the next change.

        :raises IllegalActionError: Nobody is asked (the game is over).
        :raises ArgumentError: The game is turn-based: its seat to act must act; nothing changes.
        """
        if self.seat < 0:
            msg = "no seat is asked: the game is over (CORE-OVER-1)"
            raise IllegalActionError(msg, rule_id="CORE-OVER-1")
        if not self.config.realtime:
            msg = (
                f"wait() is for real-time games; {self.config.game} is turn-based and"
                f" seat {self.seat} must act"
            )
            raise ArgumentError(msg)
        self._decide(self.seat, None)

    def _refuse(self, seat: int, action: Action) -> None:
        """Raise the game's reason why *action*, the pending *seat*'s plan, is not legal now."""
        try:
            validate(self.game, action, self.game.version)  # what apply says of it; changes nothing
        except IllegalActionError as exc:
            msg = f"seat {seat}'s plan {shown(action)} was refused: {exc}"
            raise IllegalActionError(msg, action=action, rule_id=exc.rule_id) from exc

    def _decide(self, seat: int, plan: tuple[float, Action, int] | None) -> None:
        """Real time: the pending *seat*'s *plan* (``None``: it waits); run the clock.

        A failure (a plugin hook raising) before any action was applied puts every
        field back as it was, so the same decision can be made again. One after an
        action was applied leaves the match as that action left it; the next
        :attr:`seat` asks again who must decide.
        """
        plans = self.plans
        old = plans[seat]
        version = self.game.version
        self._drawn = self._undo = None
        self.pending.pop(0)
        plans[seat] = plan
        try:
            self._run()  # runs only if nobody else is pending: then pending was [seat]
        except BaseException:
            if self.game.version == version:
                self._restore(seat, old)
            raise

    def _restore(self, seat: int, old: tuple[float, Action, int] | None) -> None:
        """Undo a decision of *seat* (its plan was *old*) whose clock applied nothing."""
        undo = self._undo
        if undo is not None:  # a stale plan was dropped on the way: as before that
            self.now, self.plans, self.pending, self._rejected, self.dropped = undo
        if self._drawn is not None:
            self.rng.setstate(self._drawn)
        self.plans[seat] = old
        self.pending = [seat]

    def _run(self) -> None:
        while not self.pending and not self.game.is_over:
            self._advance()

    def _advance(self) -> None:
        """Apply the earliest plan; then ask who must decide again.

        A failure of the apply (a plugin hook raising) changes none of the
        match's fields: they change only once the game has taken the action.
        """
        plans = self.plans
        due = [(p[0], s) for s, p in enumerate(plans) if p is not None]
        if not due:
            self._stall()
            return
        first = min(t for t, _ in due)
        tied = [s for t, s in due if t == first]
        if len(tied) > 1:
            if self._drawn is None:  # rare: kept so that a failure can put it back
                self._drawn = self.rng.getstate()
            seat = tied[int(self.rng.random() * len(tied))]
        else:
            seat = tied[0]
        plan = plans[seat]
        if plan is None:  # pragma: no cover - chosen among the seats with a plan
            return
        at, action, seen = plan
        game = self.game
        try:
            game.apply(action, at=at, seen=seen)
        except IllegalActionError as exc:
            if not isinstance(exc, StaleActionError) and exc.rule_id != "CORE-RT-3":
                msg = f"seat {seat}'s plan due at {at:g} s was refused: {exc}"
                raise IllegalActionError(msg, action=action, rule_id=exc.rule_id) from exc
            # overtaken (stale), or kept past the versions a game judges: decide again
            legal = game.legal_actions(seat)
            if self._undo is None:  # rare: kept so that a failure can put it back
                self._undo = (self.now, plans[:], self.pending[:], self._rejected, self.dropped[:])
            self.now = at
            plans[seat] = None
            self._rejected += 1
            self.dropped[seat] += 1
            if self._rejected > self.config.bound:
                self._stall()
            elif legal:
                self.pending.append(seat)
            return
        self.now = at
        plans[seat] = None
        self._applied()
        self._reask()

    def _reask(self) -> None:
        """Real time, after an action: ask every seat without a plan that is still legal."""
        game = self.game
        if game.is_over:
            return
        plans = self.plans
        legal = [game.legal_actions(other) for other in range(self.players)]
        for other, mine in enumerate(legal):
            p = plans[other]
            if p is None or p[1] not in mine:
                if p is not None:
                    self.dropped[other] += 1
                plans[other] = None
                if mine:
                    self.pending.append(other)

    def _applied(self) -> None:
        self.steps += 1
        game = self.game
        if not game.is_over and self.steps >= self.config.bound:
            game.truncate()
        if game.is_over and game.result is not None and game.result.reason == "truncated":
            self.truncated = True  # here, or by the core at the game's own bound
        self._settle_rewards()

    def _stall(self) -> None:
        self.stalled = self.truncated = True
        self.pending = []
        self.game.truncate()
        self._settle_rewards()

    def _add_progress(self, game: Game) -> None:
        now = Observer.standing(self.config.encoding, self.config.progress(game), self.players)
        for s, (a, b) in enumerate(zip(self._standing, now, strict=True)):
            self._rewards[s] += b - a
        self._standing = list(now)

    def _settle_rewards(self) -> None:
        game, by_round = self.game, self._by_round and not self.game.is_over
        if self._scored:  # by round: the standing changes only as a round (or the game) ends
            rounds = game.logic.rounds_played(game.state) if by_round else -1
            if rounds < 0 or rounds != self._rounds:
                self._add_progress(game)  # (a failing read: the round is paid at the next one)
                self._rounds = rounds
        elif game.is_over:
            result = game.result
            winners = () if result is None or self.truncated else result.winners
            for s, r in enumerate(win_rewards(winners, self.players)):
                self._rewards[s] += r
        if game.is_over:
            self.pending = []
