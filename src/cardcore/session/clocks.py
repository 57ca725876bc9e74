"""A session's clocks: per-seat turn (or idle) clocks and the game clock.

Times are the host's ``now`` values (seconds; wall-clock time in production,
any clock in tests). A clock is a deadline; :meth:`Clocks.due` names the first
one that has passed, and the session plays the timeout at the deadline's time,
so a late ``tick`` changes nothing but when the messages go out.

Across a restart (:meth:`Clocks.load`): the store holds the deadlines and the
time they were written (``since``). With ``restart="pause"`` every deadline
moves by the time between ``since`` and the restart, so each running clock
gets back the time it had left when the session was last stored; with
``restart="continue"`` the deadlines stay, and those that passed while the
server was down fire on the first ``tick``.
"""

from __future__ import annotations

import hashlib
import logging
import math
from collections.abc import Iterable, Mapping
from typing import Any

from cardcore._text import shown
from cardcore.errors import OptionError
from cardcore.game import MAX_TIME
from cardcore.session.config import TimeControl

LOG = logging.getLogger("cardcore.session")

__all__ = ["CLOCK_RETRY", "GAME_CLOCK", "Clocks", "may_act"]

GAME_CLOCK = -1
"""The seat number :meth:`Clocks.due` gives the game clock."""
CLOCK_RETRY = 60.0
"""Seconds until the game clock's end is tried again when the game refused it (a plugin's
``end_match`` failed): the game goes on meanwhile, and the seats are told the new deadline."""


def _draw(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=8).digest()


class Clocks:
    """The running clocks of one game.

    :param control: The time controls.
    :param realtime: Whether the game is real-time (turn clocks become idle clocks).
    """

    __slots__ = ("control", "done", "realtime", "to_act", "total", "turn")

    def __init__(self, control: TimeControl, realtime: bool) -> None:
        self.control = control
        self.realtime = realtime
        self.turn: dict[int, float] = {}
        """Per seat that may act, the deadline of its turn (or idle) clock."""
        self.total: float | None = None
        """The deadline of the game clock."""
        self.to_act: tuple[int, ...] = ()
        self.done: set[int] = set()
        """Seats that left the seats to act by their own action since a seat last joined
        (the seats that made their part of a simultaneous round)."""

    def start(self, to_act: Iterable[int], at: float) -> None:
        """Start the clocks when the game starts at *at*."""
        if self.control.total is not None:
            self.total = at + self.control.total
        self.turn = {}
        self.to_act = ()
        self.done = set()
        self.update(to_act, at, None)

    def update(self, to_act: Iterable[int], at: float, actor: int | None, *, over: bool = False) -> None:
        """Follow the game after a change at *at* by *actor* (``None``: not a seat's action).

        Turn-based: a seat's clock runs from the moment it is among the seats to
        act until it no longer is, so a turn of several actions shares one clock;
        but an actor whose action ended a simultaneous round and began the next
        (:meth:`renews`) starts afresh. Real time: a seat's idle clock also
        restarts with each of its actions.
        """
        if over:
            self.turn = {}
            self.total = None
            self.to_act = ()
            return
        seats = tuple(to_act)
        limit = self.control.turn
        if limit is not None:
            before = self.turn
            was = set(self.to_act)
            fresh = self.realtime or self.renews(seats, actor)
            self.turn = {
                s: before[s]
                if s in before and s in was and not (fresh and s == actor)
                else at + limit
                for s in seats
            }
        self.follow(seats, actor)

    def renews(self, seats: Iterable[int], actor: int | None) -> bool:
        """Whether *actor*'s action, after which *seats* may act, ended a round and began the
        next in a turn-based game: it was the last seat to act, and the seats that join it
        again each made their part of the round before (a call that brings in a seat that
        never acted begins no round)."""
        now = set(seats)
        return (
            actor is not None
            and set(self.to_act) == {actor}
            and actor in now
            and len(now) > 1
            and now - {actor} <= self.done
        )

    def ends_round(self, actor: int | None, seats: Iterable[int]) -> bool:
        """Whether *actor*'s action (not yet followed; *seats* act after it) ended a round
        several seats made (a simultaneous phase): its views before it are then taken for
        the round that ended. It did as the last seat of the round, or by ending it early
        (the first ``doubt`` of a challenge window) when the seats to act changed beyond
        its leaving them. A last part made of several actions counts at its first, so a
        second one made on the view before the first is answered ``stale`` (asked again,
        never wrongly played)."""
        before = set(self.to_act)
        if actor is None or actor not in before:
            return False
        if len(before) == 1:
            return bool(self.done)
        after = set(seats)
        return not self.realtime and after != before and after != before - {actor}

    def follow(self, seats: tuple[int, ...], actor: int | None) -> None:
        """Keep *seats* as the seats to act, and which seats made their part of the round."""
        was = set(self.to_act)
        if any(s not in was for s in seats) or (actor is not None and was == {actor}):
            self.done = set()  # a seat joined, or the last seat acted: a new round (or turn)
        elif actor is not None and actor in was and actor not in seats:
            self.done.add(actor)
        self.to_act = seats

    def renewed(self, seat: int, at: float) -> bool:
        """Whether *seat*'s turn clock runs past *at*: asked just after its clock ran out at
        *at* (a timeout), whether the action played for it began a new round."""
        return self.control.turn is not None and self.turn.get(seat, at) > at

    def rearm(self, seat: int, at: float, idle_until: float | None = None) -> None:
        """Give *seat* a whole clock again from *at* (after a timeout that left it to act).

        *idle_until*: the timeout did nothing (its fallback waits) and a late tick came at
        that time: the clocks that ticks on time would have started, and run out doing
        nothing, by then are skipped (the deadline is the first of them after it)."""
        turn = self.control.turn
        if turn is None or seat not in self.turn:
            return
        deadline = at + turn
        if idle_until is not None and deadline <= idle_until:
            periods = (idle_until - at) / turn  # (a turn of 1e-300: past a float's range)
            if math.isfinite(periods):
                deadline = at + turn * (math.floor(periods) + 1)
            if deadline <= idle_until:  # (rounding; or a turn below the float spacing of now)
                deadline = max(deadline + turn, math.nextafter(idle_until, math.inf))
        self.turn[seat] = deadline

    def reset(self, to_act: Iterable[int], at: float) -> None:
        """Give every seat to act a whole clock from *at* (after a takeback); the game clock runs on."""
        self.turn = {}
        self.to_act = ()
        self.done = set()
        self.update(to_act, at, None)

    def next_deadline(self) -> float | None:
        """The earliest deadline, or ``None``."""
        times = list(self.turn.values())
        if self.total is not None:
            times.append(self.total)
        return min(times) if times else None

    def due(self, now: float, salt: str = "") -> tuple[float, int] | None:
        """The first clock that has run out by *now*: ``(deadline, seat)``, the game clock as
        :data:`GAME_CLOCK`; ``None`` if none has. Ties: the game clock, then the seats in an
        order drawn from *salt* (the game's seed) and the deadline, never by seat number
        (with ``forfeit`` the first to run out loses)."""
        best: tuple[float, int] | None = None
        if self.total is not None and self.total <= now:
            best = (self.total, GAME_CLOCK)
        tied: list[int] = []
        for seat, deadline in self.turn.items():
            if deadline <= now and (best is None or deadline <= best[0]):
                if best is None or deadline < best[0]:
                    best, tied = (deadline, seat), []
                tied.append(seat)
        if best is None or best[1] == GAME_CLOCK or len(tied) < 2:
            return best
        deadline = best[0]
        first = min(tied, key=lambda s: _draw(f"{salt}:{deadline!r}:{s}"))
        return deadline, first

    def public(self, seat: int | None = None) -> dict[str, Any]:
        """The clocks as *seat* sees them: deadlines on the server's clock.

        In real time a seat sees only its own idle clock: another seat's runs only while
        it has a legal action, which its hidden cards decide (see :func:`may_act`).
        """
        turn = self.turn
        if self.realtime and seat is not None:
            turn = {seat: turn[seat]} if seat in turn else {}
        return {"turn": {str(s): d for s, d in turn.items()}, "total": self.total}

    def to_json(self, now: float) -> dict[str, Any]:
        """The clocks for the store, stamped with *now*."""
        return {
            "since": now,
            "turn": {str(s): d for s, d in self.turn.items()},
            "total": self.total,
            "to_act": list(self.to_act),
            "done": sorted(self.done),
        }

    def load(self, data: Mapping[str, Any], now: float) -> None:
        """Restore clocks stored by :meth:`to_json`, at *now*, after a restart (see the module docstring)."""
        since = float(data.get("since", now))
        shift = max(0.0, now - since) if self.control.restart == "pause" else 0.0
        self.turn = {int(s): float(d) + shift for s, d in dict(data.get("turn", {})).items()}
        total = data.get("total")
        self.total = None if total is None else float(total) + shift
        self.to_act = tuple(int(s) for s in data.get("to_act", ()))
        self.done = {int(s) for s in data.get("done", ())}  # (absent before 2026-12: none)
        if any(not math.isfinite(d) for d in self.turn.values()):
            self.turn = {s: now + (self.control.turn or 0.0) for s in self.turn}


def may_act(game: Any) -> tuple[int, ...]:
    """The seats whose clocks run: the seats to act, and in real time only those with a
    legal action now (a Speed or Slapjack seat may be in ``to_act`` with nothing to do;
    its idle clock starts when it has something, not before)."""
    if not game.ruleset.game.realtime:
        return tuple(game.to_act)
    return tuple(s for s in game.to_act if _has_legal(game, s))


def _has_legal(game: Any, seat: int) -> bool:
    """Whether *seat* has a legal action; a plugin failing to say counts as yes (its clock
    runs: the action already applied stands, and the session goes on telling every seat)."""
    try:
        return bool(game.legal_actions(seat))
    except Exception:
        LOG.exception("the legal actions of seat %d failed at version %d", seat, game.version)
        return True


def check_time(now: Any) -> float:
    """*now* as a plain number (a numpy float a host's clock gave: a float), or refuse a host's
    time no game records (NaN, infinite, beyond MAX_TIME, not a number, a bool)."""
    if type(now) is not float and issubclass(type(now), float):  # (not isinstance: __class__ lies)
        now = float.__float__(now)  # (its own __float__ never runs: it could raise or lie)
    if not (type(now) in (int, float) and abs(now) <= MAX_TIME):
        msg = f"now must be a time of at most {MAX_TIME:g} in size (seconds), not {shown(now, 40)}"
        raise OptionError(msg)
    time: float = now
    return time
