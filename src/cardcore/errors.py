"""Every error cardcore raises, each a subclass of :class:`CardcoreError`.

A rejected input never changes anything: the game, its events and its record
are exactly as they were before the call that raised.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "ArgumentError",
    "CardcoreError",
    "CorruptStateError",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "OtherGameRuleError",
    "PluginError",
    "PluginWarning",
    "RuleConflictError",
    "SeatError",
    "StaleActionError",
    "StalledGameError",
    "UnknownPluginError",
]


_ID = r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+"  # a rule ID; "/2" after one: a run (SPIT-START-1/2)
_RULE_AT_END = re.compile(rf"\(({_ID})(?:/[0-9]+)*(?:, {_ID}(?:/[0-9]+)*)*\)\s*$")


class CardcoreError(Exception):
    """Base class of every error cardcore raises on purpose.

    ``rule_id`` holds the ID of the rule the message cites at its end
    (``"... (CORE-NOTATION-2)"``; the first of a run of rules cited as
    ``"(SPIT-START-1/2)"`` or of a list, ``"(TONK-SPREAD-1, TONK-SPREAD-2)"``), or ``None``
    where it cites none.
    """

    rule_id: str | None

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        found = _RULE_AT_END.search(args[0]) if args and isinstance(args[0], str) else None
        self.rule_id = found.group(1) if found else None


class NotationError(CardcoreError, ValueError):
    """Text that is not a card, a list of cards or an action of the game."""


class IllegalActionError(CardcoreError, ValueError):
    """An action the rules forbid in the current state.

    :param msg: The message, ending with the rule ID in parentheses.
    :param action: The rejected action (or the text it was parsed from).
    :param rule_id: The ID of the rule that forbids it, e.g. ``"CORE-TURN-1"``; ``None``
        (the default): the ID the message cites at its end, if any, as for every error.
    """

    def __init__(self, msg: str, *, action: Any = None, rule_id: str | None = None) -> None:
        super().__init__(msg)
        self.action = action
        if rule_id is not None:  # else the ID the message cites at its end, if any
            self.rule_id = rule_id


class SeatError(IllegalActionError):
    """A seat that is not a seat of the game: not an int from 0 below the player count.

    Raised by every method that takes a seat (``act``, ``view``, ``legal_actions``,
    ``history``, ``events.subscribe``) with the rule ID CORE-SEAT-1. A subclass of
    :class:`IllegalActionError`, which such calls raised before.
    """


class ArgumentError(CardcoreError, TypeError):
    """An argument of the wrong kind given to a public method (not a seat, action or text).

    For example an event class that is not an :class:`~cardcore.Event` or a
    handler that is not callable, given to :meth:`cardcore.EventBus.subscribe`.
    """


class StaleActionError(IllegalActionError):
    """A real-time action that was legal in the state its player saw, but is not any more.

    Another player got there first. Like every rejection, it changes nothing. A subclass of
    :class:`IllegalActionError`, so one ``except`` catches both; tell them apart with
    ``isinstance(err, StaleActionError)`` (a stale action may be asked again on a fresh view).
    """


class RuleConflictError(CardcoreError, ValueError):
    """House rules that cannot be combined, or a rule whose requirements are missing."""


class CorruptStateError(CardcoreError, ValueError):
    """A saved game or record that fails validation; nothing of it is loaded."""


class PluginError(CardcoreError):
    """A plugin is malformed or raised inside a hook.

    :param msg: The message.
    :param plugin: The entry-point name (or module) of the plugin at fault.
    """

    def __init__(self, msg: str, *, plugin: str | None = None) -> None:
        super().__init__(msg)
        self.plugin = plugin


class UnknownPluginError(CardcoreError, LookupError):
    """A game, house rule or agent name that is not installed."""


class OptionError(CardcoreError, ValueError):
    """An option or player count that the game does not declare or accept."""


class StalledGameError(CardcoreError, RuntimeError):
    """A runner found that nobody can act and no automatic step applies."""


class OtherGameRuleError(UnknownPluginError, RuleConflictError):
    """A house rule asked for by a game it does not belong to.

    No house rule of that name is installed *for this game*, so it is an
    :class:`UnknownPluginError`; it was a :class:`RuleConflictError` before 0.3,
    and stays one so that code catching that keeps working.
    """


class PluginWarning(UserWarning):
    """A plugin declaration that is likely a mistake but may be meant: a house rule
    implementing no hook, a ``conflicts`` entry naming no installed rule."""
