"""A default notation parser built from a game's action classes.

An action's notation is its verb followed by its fields in declaration order
(``"discard 7H"``, ``"ask 2 Q"``). :class:`ActionParser` reads that back for
fields typed ``int``, ``str`` or :class:`~cardcore.Card`, telling malformed text
(:class:`~cardcore.NotationError`) from a well-formed action, which the game
then judges (an illegal one raises :class:`~cardcore.IllegalActionError`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from cardcore._text import shown
from cardcore.actions import Action
from cardcore.cards import Card
from cardcore.errors import ArgumentError, NotationError

__all__ = ["DIGITS", "ActionParser", "parse_int"]


DIGITS = 15
"""The most digits :func:`parse_int` reads (a number below 10**15, the core's bound on a field)."""


def parse_int(word: str, what: str = "a whole number written 0-9") -> int:
    """Read an ASCII decimal integer (no sign, no other digits, at most :data:`DIGITS`), or
    raise :class:`NotationError`.

    ``str.isdigit`` accepts ``"²"`` and ``"٣"``, which ``int`` then refuses; this does not.
    """
    if type(word) is not str:
        msg = f"expected {what} as text, not {shown(word, 40)} (CORE-NOTATION-1)"
        raise NotationError(msg)
    if not (0 < len(word) <= DIGITS and word.isascii() and word.isdigit()):
        long = len(word) > DIGITS and word.isascii() and word.isdigit()
        msg = f"expected {what}{f' of at most {DIGITS} digits' if long else ''}, not {shown(word, 40)} (CORE-NOTATION-1)"
        raise NotationError(msg)
    return int(word)


def _reader(kind: Any) -> Callable[[str], Any] | None:
    name = kind if isinstance(kind, str) else getattr(kind, "__name__", "")
    if name == "int":
        return parse_int
    if name == "str":
        return lambda word: word
    if name == "Card":
        return Card.parse
    return None


class ActionParser:
    """Parse ``"verb arg ..."`` into one of *types*, for the seat that acts.

    >>> from attrs import frozen
    >>> from typing import ClassVar
    >>> @frozen
    ... class Ask(Action):
    ...     target: int
    ...     rank: str
    ...     verb: ClassVar[str] = "ask"
    ...     def notation(self) -> str:
    ...         return f"ask {self.target} {self.rank}"
    >>> ActionParser([Ask]).parse(0, "ask 1 Q")
    Ask(seat=0, target=1, rank='Q')

    The verb and cards are read in any case; a ``str`` field is passed on as written
    (``"ask 1 q"`` gives ``rank='q'``), so a game that wants one case normalises it.

    :param types: The game's action classes (frozen attrs subclasses of :class:`Action`),
        each with its own verb: one word, set on the class itself or inherited from
        a class not listed (not :class:`Action`'s placeholder ``"action"``).
    :raises TypeError: When the parser is built (a game's parser is built with
        its configuration, so :func:`cardcore.new_game` raises
        :class:`~cardcore.PluginError` for it): a class that is not an attrs
        subclass of :class:`Action`, a class without a verb of its own, a verb
        that is not one word, two classes with one verb (compared in any case),
        or a field of a type the parser cannot read.
    """

    def __init__(self, types: Sequence[type[Action]]) -> None:
        self._by_verb: dict[
            str, tuple[type[Action], tuple[tuple[str, Callable[[str], Any]], ...]]
        ] = {}
        for kind in types:
            # an attrs class itself, not a plain subclass whose own fields attrs never saw
            is_attrs = isinstance(kind, type) and "__attrs_attrs__" in vars(kind)
            if not (is_attrs and issubclass(kind, Action)):
                msg = f"{shown(kind)} is not an attrs subclass of cardcore.Action"
                raise TypeError(msg)
            verb = kind.verb
            if not isinstance(verb, str) or len(verb.split()) != 1 or verb != verb.strip():
                msg = f"{kind.__name__}.verb must be one word, not {shown(verb)}"
                raise TypeError(msg)
            if verb == Action.verb:
                msg = (
                    f"{kind.__name__} has no verb of its own (Action's placeholder"
                    f" {verb!r}): give it one, e.g. verb: ClassVar[str] = 'draw'"
                )
                raise TypeError(msg)
            fields = []
            for f in attrs.fields(kind):
                if f.name in ("seat", "_text") or not f.init:
                    continue
                read = _reader(f.type)
                if read is None:
                    msg = f"{kind.__name__}.{f.name}: the default parser reads int, str and Card fields"
                    raise TypeError(msg)
                fields.append((f.name, read))
            verb = verb.lower()
            taken = self._by_verb.get(verb)
            if taken is not None and taken[0] is not kind:
                msg = (
                    f"{taken[0].__name__} and {kind.__name__} share the verb {kind.verb!r}: give each"
                    " action class its own verb (a game whose actions of one verb vary in length"
                    " reads them in its own parse_action)"
                )
                raise TypeError(msg)
            self._by_verb[verb] = (kind, tuple(fields))

    @property
    def verbs(self) -> tuple[str, ...]:
        """The verbs this parser knows."""
        return tuple(self._by_verb)

    def parse(self, seat: int, text: str) -> Action:
        """Return the action *text* names for *seat*, or raise :class:`NotationError` if malformed
        (or not text).

        :raises ArgumentError: *seat* is not a seat number (an int from 0).
        """
        if type(seat) is not int or seat < 0:  # (Game.act checked it; a plugin's call may not)
            msg = f"parse takes a seat number (an int from 0), not {shown(seat, 40)}"
            raise ArgumentError(msg)
        try:
            words = text.split()
        except Exception:  # no text (Game.act passes text; a plugin calling it may not)
            msg = f"expected action text, not {shown(text, 40)} (CORE-NOTATION-1)"
            raise NotationError(msg) from None
        if not words:
            msg = "empty action text (CORE-NOTATION-1)"
            raise NotationError(msg)
        entry = self._by_verb.get(words[0].lower())
        if entry is None:
            known = ", ".join(sorted(self._by_verb))
            msg = f"unknown action {shown(words[0], 40)} (expected one of: {known}) (CORE-NOTATION-1)"
            raise NotationError(msg)
        kind, fields = entry
        args = words[1:]
        if len(args) != len(fields):
            shape = " ".join([kind.verb, *(name.upper() for name, _ in fields)])
            msg = f"cannot read {shown(text, 200)}: expected {shape!r} (CORE-NOTATION-1)"
            raise NotationError(msg)
        values = {name: read(word) for (name, read), word in zip(fields, args, strict=True)}
        return kind(seat, **values)
