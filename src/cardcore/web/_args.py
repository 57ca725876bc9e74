"""The checks of :class:`~cardcore.web.WebServer`'s arguments, made before anything is opened."""

from __future__ import annotations

import numbers
import os
import re
from typing import Any

from cardcore._text import shown
from cardcore.session import Limits
from cardcore.session.sqlite import StoreError
from cardcore.web._quota import ServerLimits
from cardcore.web._requests import WebError

__all__ = ["MAX_BOT_DELAY", "MAX_BOT_PACE", "bounded", "checked_arguments"]

MAX_BOT_DELAY = 60.0
"""The longest pause in seconds of a turn-based bot (``WebServer(bot_delay=...)``; as
``cardcore serve --bot-delay``)."""
MAX_BOT_PACE = 100.0
"""The largest factor on a real-time bot's reaction delays (``WebServer(bot_pace=...)``)."""


def bounded(name: str, value: Any, high: float, what: str) -> float:
    """*value* as a float from 0 to *high*, else a :class:`WebError` naming *name*."""
    try:  # (a huge int overflows a float: out of range all the same)
        ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
        ok = ok and 0 <= float(value) <= high
    except (OverflowError, ValueError, TypeError):
        ok = False
    if not ok:
        msg = f"WebServer: {name} must be {what} from 0 to {high:g}, not {shown(value)}"
        raise WebError(msg)  # (NaN and infinities too; numpy's numbers are read)
    return float(value)


def checked_arguments(
    db: Any, limits: Any, server_limits: Any, clock: Any, instance: Any
) -> str | None:
    """Refuse a *db*, *limits*, *server_limits*, *clock* or *instance* of :class:`WebServer`
    of the wrong kind; return the instance's name (default: ``CARDCORE_INSTANCE``).

    :raises StoreError: *db* is no path (text, bytes or a path object), or holds a NUL
        character.
    :raises WebError: Another argument of the wrong kind, naming it.
    """
    if db is not None:
        try:  # (a path object's __fspath__ may answer no path, or raise)
            path = os.fspath(db) if isinstance(db, str | bytes | os.PathLike) else None
        except Exception:
            path = None
        if not isinstance(path, str | bytes):
            msg = f"WebServer: db must be the path of a database file, not {shown(db)}"
            raise StoreError(msg)
        if "\x00" in (path if isinstance(path, str) else path.decode("latin-1")):
            msg = f"cannot use {shown(path)} as a database: a path holds no NUL character"
            raise StoreError(msg)
    if limits is not None and not isinstance(limits, Limits):
        msg = f"WebServer: limits must be a cardcore.session.Limits, not {shown(limits)}"
        raise WebError(msg)
    if server_limits is not None and not isinstance(server_limits, ServerLimits):
        msg = f"WebServer: server_limits must be a ServerLimits, not {shown(server_limits)}"
        raise WebError(msg)
    if not callable(clock):
        msg = f"WebServer: clock must be a function returning the time, not {shown(clock)}"
        raise WebError(msg)
    instance = (os.environ.get("CARDCORE_INSTANCE") or None) if instance is None else instance
    if instance is not None and (
        not isinstance(instance, str) or not re.fullmatch(r"\w{1,16}", instance, re.ASCII)
    ):
        msg = f"an instance name is 1-16 letters, digits or '_', not {shown(instance)}"
        raise WebError(msg)
    return instance
