"""Saved data read against what its record replays to: kind for kind, and where it differs."""

from __future__ import annotations

import json
import re
from typing import Any

from cardcore._text import shown

__all__ = ["difference", "normal", "same"]


def normal(value: Any) -> Any:
    """*value* as JSON reads it back (tuples as lists, keys as text)."""
    return json.loads(json.dumps(value, sort_keys=True))


def same(saved: Any, replayed: Any) -> bool:
    """Whether *saved* (read from JSON) says what *replayed* does, kind for kind: ``true``
    is not ``1`` and ``6.0`` is not the count ``6``; only an integral number a JSON writer
    wrote without its ``.0`` (as JavaScript does) may stand for a float."""
    a, b = type(saved), type(replayed)
    if a is dict:
        return (
            b is dict
            and saved.keys() == replayed.keys()
            and all(same(v, replayed[k]) for k, v in saved.items())
        )
    if a is list:
        return (
            (b is list or b is tuple)
            and len(saved) == len(replayed)
            and all(map(same, saved, replayed))
        )
    if a is int and b is float:
        return bool(saved == replayed)
    return a is b and bool(saved == replayed)


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")


def _step(key: Any) -> str:
    """A key in a path: ``.turns``, else quoted and short (``['hand.0']``: a tampered key
    may be long, hold a line break or mimic the message)."""
    return f".{key}" if type(key) is str and _NAME.fullmatch(key) else f"[{shown(key, 40)}]"


def difference(saved: Any, replayed: Any, path: str = "state") -> str | None:
    """Where *saved* first says otherwise than *replayed* (as :func:`same` reads them), keys
    in sorted order: a path such as ``state.turns`` or ``state.zones['hand.0']``, or ``None``
    if nowhere. Only the place, never a value: a saved state holds every hidden card (no
    snapshot is keyed by a card)."""
    if type(saved) is dict and type(replayed) is dict:
        for key in sorted(saved.keys() | replayed.keys(), key=str):
            if key not in saved or key not in replayed:
                return f"{path}{_step(key)} ({'not saved' if key not in saved else 'not replayed'})"
            found = difference(saved[key], replayed[key], f"{path}{_step(key)}")
            if found is not None:
                return found
        return None
    if type(saved) is list and type(replayed) in (list, tuple) and len(saved) == len(replayed):
        for i, (a, b) in enumerate(zip(saved, replayed, strict=True)):
            found = difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    return None if same(saved, replayed) else path
