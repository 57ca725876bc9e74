"""The lobby's HTTP requests: the body read with a cap, fields checked, text UTF-8 can carry.

Nothing here is public; :mod:`cardcore.web.app` re-exports the constants and :class:`WebError`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from cardcore._names import hidden as _hidden
from cardcore._names import marked as _marked
from cardcore._names import same_name as same_name
from cardcore._names import shows as _shows
from cardcore._names import tidy as _tidy
from cardcore._text import one_of, shown
from cardcore.errors import CardcoreError
from cardcore.info import GameInfo
from cardcore.plugins import get_ruleset
from cardcore.session.config import _FALLBACKS, TimeControl
from cardcore.setup import _names as seat_names
from cardcore.setup import check_configuration

__all__ = ["MAX_BODY", "MAX_CLOCK", "MAX_DEPTH", "WebError", "time_control"]

MAX_BODY = 65536
"""The largest lobby request (``POST /api/sessions``), in bytes: larger ones are refused with HTTP 413."""

MAX_DEPTH = 32
"""Levels of JSON nesting a lobby request may have (deeper: HTTP 400)."""


class WebError(CardcoreError):
    """A request the server refuses (HTTP 400 with the message)."""


def _get(data: Mapping[str, Any], key: str, kind: type, default: Any = ...) -> Any:
    value = data.get(key, default)
    if value is ...:
        msg = f"the request needs {key!r}"
        raise WebError(msg)
    if not isinstance(value, kind):
        msg = f"{key!r} must be a {kind.__name__}, not {type(value).__name__}"
        raise WebError(msg)
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 200 or not _utf8(value):
        msg = f"{what!r} must be text of 1 to 200 characters, not {value!r}"[:200]
        raise WebError(msg)
    return value


def _as_written(value: Any) -> str:
    """*value* as the JSON request wrote it: ``null``, ``true``, ``false``, a number or a
    text as written, else what it is (``a list``, ``an object``)."""
    if value is None or type(value) is bool:
        return json.dumps(value)
    if isinstance(value, str | int | float):
        return shown(value, 40)
    return "an object" if isinstance(value, dict) else "a list"


MAX_CLOCK = 86400.0
"""The longest turn or game clock a lobby request may set, in seconds (a day)."""
_CLOCKS = ("turn", "total")
_TIME_KEYS = (*_CLOCKS, "fallback", "forfeit")
_TAKES = "'turn', 'total', 'fallback' and 'forfeit'"


def time_control(value: Any) -> TimeControl:
    """The clocks of a lobby request's ``time``:
    ``{"turn": s, "total": s, "fallback": ..., "forfeit": false}``.

    Missing or ``null``: no clock. Each clock is ``null`` or from 1 second to
    :data:`MAX_CLOCK` (a shorter one would have the server time a seat out many times a
    second); *fallback* is what a timed-out seat plays, and ``"forfeit": true`` has it
    resign instead: it loses on time (:class:`~cardcore.session.TimeControl`).
    """
    if value is None:
        return TimeControl()
    if not isinstance(value, dict):
        msg = f"'time' must be an object with {_TAKES}, not {_as_written(value)}"
        raise WebError(msg)
    for key in value:
        if key not in _TIME_KEYS:
            msg = f"'time' takes {_TAKES}, not {shown(key, 40)}"
            raise WebError(msg)
    forfeit = value.get("forfeit", False)
    if type(forfeit) is not bool:
        msg = f"'time' 'forfeit' must be true or false, not {_as_written(forfeit)}"
        raise WebError(msg)
    for key in _CLOCKS:
        seconds = value.get(key)
        if seconds is not None and not (
            isinstance(seconds, int | float)
            and not isinstance(seconds, bool)
            and 1 <= seconds <= MAX_CLOCK
        ):
            msg = f"'time' {key!r} must be null or seconds from 1 to {MAX_CLOCK:g}, not {_as_written(seconds)}"
            raise WebError(msg)
    turn, total, fallback = (value.get(k) for k in (*_CLOCKS, "fallback"))
    if fallback is not None and not (type(fallback) is str and fallback in _FALLBACKS):
        msg = f"'time' 'fallback' must be one of {one_of(_FALLBACKS)}, not {_as_written(fallback)}"
        raise WebError(msg)
    try:  # (float(): a number of another kind, from Python, read as plain seconds)
        return TimeControl(
            None if turn is None else float(turn),
            None if total is None else float(total),
            "first" if fallback is None else fallback,
            forfeit=forfeit,
        )
    except CardcoreError as exc:  # the fallback: TimeControl's own message
        raise WebError(f"'time': {exc}") from None


_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Control characters and bidirectional overrides: a name holding one shows as something
else than it is (or as nothing) on other players' screens."""


def _cut(name: str) -> str:
    """*name* cut to at most 40 characters, never inside what shows as one (an emoji
    sequence, a flag, a keycap, a letter and its marks: :func:`_clusters`)."""
    if len(name) <= 40:
        return name
    out, size = [], 0
    for cluster in _clusters(name):
        if size + len(cluster) > 40:
            break
        out.append(cluster)
        size += len(cluster)
    cut = "".join(out) or name[:40]  # a first piece longer than 40: cut inside it
    while cut and unicodedata.category(cut[-1]) == "Cf":  # a non-joiner ending the cut
        cut = cut[:-1]
    return cut.rstrip()


def _clusters(name: str) -> Iterator[str]:
    """*name* in pieces that show as one: a character with its marks, skin tones,
    selectors and tags, joined to the next by a joiner; two regional indicators (a flag)."""
    i, n = 0, len(name)
    while i < n:
        j = i + 1
        if _RI <= name[i] <= _RI_END and j < n and _RI <= name[j] <= _RI_END:
            j += 1
        while j < n:
            if name[j] == "\u200d" and j + 1 < n:
                j += 2
            elif unicodedata.category(name[j]) in ("Mn", "Me", "Mc", "Sk", "Cf"):
                j += 1
            else:
                break
        yield name[i:j]
        i = j


_RI, _RI_END = "\U0001f1e6", "\U0001f1ff"  # the regional indicators


def _seat_name(value: Any) -> str:
    """A seat's display name from the lobby: text with something to show, no control
    character, no bidirectional override or invisible format character; its spaces
    collapsed (a page shows runs of spaces as one), composed (NFC) and cut to 40
    characters, then checked."""
    name = _text(value, "name")
    unshown = _UNSHOWN.search(name)
    name = "" if unshown else _cut(_tidy(name))
    if not _shows(name):
        if unshown:
            why = f"it holds U+{ord(unshown.group()[0]):04X}, a control character or direction override"
        else:
            why = f"it holds an invisible character ({h})" if (h := _hidden(name)) else "it shows nothing"
        msg = f"'name' must show as it is: {why}; not {shown(value, 40)}"
        raise WebError(msg)
    mark = _marked(name)
    if mark is not None:  # "Bob (you)" would read as Bob's own seat on Bob's page
        msg = f"'name' must not end with {mark!r}: the page adds it itself; not {shown(value, 40)}"
        raise WebError(msg)
    return name


def _utf8(text: str) -> bool:
    """Whether UTF-8 can carry *text* (no lone surrogate from a ``\\ud800`` escape)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_text(data: Any, where: str) -> None:
    """Refuse a request holding text UTF-8 cannot carry, anywhere: it could never be sent back,
    or nested deeper than :data:`MAX_DEPTH` levels.

    :raises WebError: Naming the field (``seats[0].name``), before anything is created.
    """
    stack = [(data, where, 0)]
    while stack:
        value, at, depth = stack.pop()
        # the request is level 1: a container at depth MAX_DEPTH, empty or not, is one more
        if depth > MAX_DEPTH or (depth == MAX_DEPTH and isinstance(value, dict | list)):
            msg = f"{at[:80] or 'the request'!r} is nested deeper than {MAX_DEPTH} levels"
            raise WebError(msg)
        if isinstance(value, str):
            if not _utf8(value):
                msg = f"{at[:80]!r} holds text that is not UTF-8 (a lone surrogate such as \\ud800)"
                raise WebError(msg)
        elif isinstance(value, dict):
            for key, item in value.items():
                if not _utf8(key):
                    msg = f"{at[:80] or 'the request'!r} has a key that is not UTF-8 (a lone surrogate such as \\ud800)"
                    raise WebError(msg)
                stack.append((item, f"{at}.{key}" if at else key, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{at}[{i}]", depth + 1) for i, item in enumerate(value))


async def _body(request: Request) -> bytes | JSONResponse:
    """The request's body, or the refusal: 400 for a ``Content-Length`` that is not a number,
    413 past :data:`MAX_BODY` bytes, declared or sent (read no further than the first chunk
    past the limit)."""
    too_large = _error(f"the request is larger than {MAX_BODY // 1024} KiB", 413)
    declared = request.headers.get("content-length", "")
    if declared and not (declared.isascii() and declared.isdigit()):
        return _error(f"Content-Length must be a number of bytes, not {declared[:20]!r}")
    digits = declared.lstrip("0")  # (zeros first are valid HTTP; int() limits its digits)
    if digits and (len(digits) > 9 or int(digits) > MAX_BODY):
        return too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return too_large
    return bytes(body)


def _first_line(text: str | None) -> str:
    return (text or "").strip().split("\n")[0]


def _count(text: str | None, default: int, what: str) -> int:
    if text is None:
        return default
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        msg = f"{what} is a number of at most 9 digits, not {text[:20]!r}"
        raise WebError(msg)
    return int(text)


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)



def check_seat_count(seats: int, info: GameInfo) -> None:
    """1 to 64 seats, as ``new_game`` says (naming the game's range), before any name is compared."""
    seat_names(seats, info.name, info.min_players, info.max_players)


def check_setup(game: str, seats: int, rules: list[str], without: list[str], options: Mapping[str, Any]) -> None:
    """What ``new_game`` checks before it deals (the rules, the options, the game's own check of
    its seats, :func:`~cardcore.setup.check_configuration`): before the server's limits, so a
    429 is only for a request the server takes once there is room."""
    check_configuration(get_ruleset(game, rules, without), seats, options, game)
