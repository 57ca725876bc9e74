"""Waiting for a game's lock, and refusing the one wait that would never end.

A game holds its lock while it runs plugin code: the game's own logic, house-rule
hooks, a clock passed as ``at=``. Such code that calls back into the same game would
wait for the lock it is running under, forever. Instead the call raises a
:class:`~cardcore.CardcoreError` saying so, which the hook's caller reports as the
plugin's :class:`~cardcore.PluginError` (the game is restored, as after any failing
hook). Plugin code works on the state it is given.

Only a call that finds the lock taken pays for finding out (a walk up its own
thread's stack); an uncontended call costs one argument more. A thread that merely
waits for another is let wait.
"""

from __future__ import annotations

import sys
import threading
import types
from typing import TYPE_CHECKING

from cardcore.errors import CardcoreError

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["Held", "held", "wait_for"]

_codes: tuple[frozenset[types.CodeType], frozenset[types.CodeType]] | None = None
"""The code of every method of :class:`~cardcore.Game`, and the code its methods call
with the lock released (event delivery, the re-deal of a clone); known at the first wait."""


def _known() -> tuple[frozenset[types.CodeType], frozenset[types.CodeType]]:
    global _codes
    if _codes is None:
        from cardcore._faults import deliver_kept
        from cardcore._worlds import determinized
        from cardcore.events import EventBus
        from cardcore.game import Game

        methods = set()
        for value in vars(Game).values():
            func = value.fget if isinstance(value, property) else value
            # defined in the class: not a function of another module bound to a name of it
            # (``_legal_for = legal_for``), which takes the game as ``game``, not ``self``
            if isinstance(func, types.FunctionType) and func.__qualname__.startswith("Game."):
                methods.add(func.__code__)
        released = frozenset(f.__code__ for f in (EventBus.deliver, deliver_kept, determinized))
        _codes = (frozenset(methods), released | frozenset(methods))
    return _codes


def wait_for(game: Game, lock: threading.Lock) -> bool:
    """Take *lock*, *game*'s, found taken: wait for another thread, or raise if this
    thread holds it (a call back from code the game runs under it)."""
    methods, released = _known()
    frame: types.FrameType | None = sys._getframe(1)
    child = None
    blocked = None  # the innermost method of this game: the one waiting
    while frame is not None:
        code = frame.f_code
        if code in methods and frame.f_locals.get("self") is game:
            if blocked is None:
                blocked = code.co_name
            elif child is not None and child not in released:
                where = frame.f_code.co_name
                msg = (
                    f"code the game ran under its lock in {where}() (a hook, the game's logic,"
                    f" a clock) called its {blocked}() ({game.name}, version {game.version}):"
                    " such code works on what it is given and never calls back into its own"
                    " game, which would wait for itself forever"
                )
                raise CardcoreError(msg)
        child = code
        frame = frame.f_back
    lock.acquire()
    return True


class Held:
    """``with held(game):``: the game's lock, taken as :func:`wait_for` takes it."""

    __slots__ = ("_lock",)

    def __init__(self, lock: threading.Lock) -> None:
        self._lock = lock

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def held(game: Game) -> Held:
    """Take *game*'s lock (see :func:`wait_for`); the returned object releases it on exit."""
    lock = game._lock
    if not lock.acquire(False):
        wait_for(game, lock)
    return Held(lock)
