"""The wire protocol: client messages, their validation, and what goes out.

Every message is one JSON object with a ``"type"``. A client message is
checked completely before anything happens: its size, that it is JSON (no
``NaN``, no duplicate keys), its type, that it has exactly the fields its type
allows with the right kinds of values. A message that fails raises
:class:`ProtocolError`, which the session turns into an ``error`` message to
that connection only.

Client messages (``?`` marks an optional field; every type also takes an
optional ``id``, a string of at most 64 characters or an integer, echoed in
the reply, and ``session``, the session's id)::

    {"type": "join", "seat": 0, "token"?: "...", "last"?: 17, "entropy"?: "..."}
    {"type": "watch", "last"?: 17}
    {"type": "act", "action": "draw", "seen": 12, "seat"?: 0}
    {"type": "resync", "last": 17}
    {"type": "takeback", "op": "request" | "accept" | "decline"}
    {"type": "entropy", "value": "..."}
    {"type": "history", "since"?: 0}
    {"type": "record"}
    {"type": "ping", "t"?: 1.5}
    {"type": "leave"}

See ``docs/session.rst`` for the server's messages and the whole exchange.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable, Mapping
from typing import Any

from cardcore._text import kind_of, one_of, shown, why_unreadable
from cardcore.errors import ArgumentError, CardcoreError

__all__ = [
    "ERROR_CODES",
    "MAX_ID",
    "MESSAGE_TYPES",
    "PROTOCOL",
    "Outbound",
    "ProtocolError",
    "RateLimiter",
    "dumps",
    "finite",
    "read_message",
]

PROTOCOL = "cardcore-session/1"
"""The protocol's name and version, sent in every ``welcome``."""

MAX_ID = 64
"""The longest client ``id`` (a string) echoed in replies."""

ERROR_CODES: dict[str, str] = {
    "bad-json": "the message is not one JSON object (or holds NaN or a repeated key)",
    "bad-message": "an unknown type, a missing or unknown field, or a value of the wrong kind",
    "too-large": "the message is longer than the session accepts",
    "rate-limited": "too many messages from this connection: it was dropped, unread",
    "no-session": "no session with this id (or it is closed)",
    "not-joined": "join a seat or watch before sending this",
    "already-joined": "this connection has already joined (send leave first)",
    "no-seat": "the game has no such seat",
    "seat-taken": "the seat is claimed: join it with its token",
    "bad-token": "the token is not this seat's",
    "token-expired": "the seat's token has expired",
    "full": "too many connections for this seat, or too many spectators",
    "not-a-seat": "spectators cannot do this",
    "not-your-seat": "the message names another seat than the one this connection holds",
    "not-started": "the game has not started yet",
    "game-over": "the game is over",
    "not-over": "the game is not over yet (a record is shown at its end)",
    "notation": "the action text is not an action of this game",
    "illegal": "the action is not legal now (the message ends with the rule ID)",
    "stale": "the action was legal in the view it was made on, not any more",
    "takeback-refused": "a takeback cannot be requested or granted now (the message says why)",
    "entropy-refused": "the seat's entropy cannot be set now",
    "internal": "the server failed while handling the message; nothing changed",
}
"""Every ``code`` an ``error`` message can carry, with what it means."""


class ProtocolError(CardcoreError):
    """A client message the session refuses; the session sends it as an ``error`` message.

    :param code: One of :data:`~cardcore.session.protocol.ERROR_CODES`.
    :param msg: The explanation, lowercase, quoting the offending input.
    :param rule_id: The rule that forbids an action, if any.
    """

    def __init__(self, code: str, msg: str, *, rule_id: str | None = None) -> None:
        super().__init__(msg)
        self.code = code
        self.rule_id = rule_id
        self.ref: Any = None
        """The refused message's own ``id``, when it is a valid one (to echo in the reply)."""


_DECODING = threading.Lock()  # an Outbound's first read of its message


class Outbound:
    """One message for one connection, as :meth:`Session.handle` and :meth:`Session.tick` return it.

    :param conn: The connection it goes to (the id the host passed in).
    :param message: The message *text* encodes, or ``None``. Not kept (nor compared with
        *text*): the session shares it, and the views inside it, between connections and
        builds later patches from it.
    :param text: The message as compact JSON, encoded once: what a transport sends.
    :param close: The session asks the transport to close this connection after sending.

    :attr:`message` is read back from *text* the first time it is asked for, so each
    ``Outbound`` has its own copy (a ``copy`` or pickle decodes the text afresh): a reader that
    changes it (an in-process bot feeding a :class:`~cardcore.session.Mirror`, a host's
    middleware) changes nothing the session or another connection holds. Being JSON, it
    has lists where a game's table had tuples, as every remote client sees it. Immutable,
    compared by (conn, text, close), and no longer a dataclass. A ``welcome`` holds the seat's token, and a
    message may hold cards only its connection may see: send it, never log it (nor
    its ``repr``, which shows the message).
    """

    __slots__ = ("_close", "_conn", "_message", "_text")
    __match_args__ = ("conn", "message", "text", "close")

    def __init__(self, conn: str, message: Mapping[str, Any] | None, text: str, close: bool = False) -> None:
        self._conn = conn
        self._text = text
        self._close = close
        self._message: dict[str, Any] | None = None

    @property
    def conn(self) -> str:
        """The connection it goes to."""
        return self._conn

    @property
    def text(self) -> str:
        """The message as compact JSON (shared between connections)."""
        return self._text

    @property
    def close(self) -> bool:
        """Whether the transport closes this connection after sending."""
        return self._close

    @property
    def message(self) -> dict[str, Any]:
        """The message, decoded from :attr:`text` once (under a lock: two threads get one dict)."""
        message = self._message
        if message is None:
            with _DECODING:
                message = self._message
                if message is None:
                    message = self._message = json.loads(self._text)
        return message

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outbound):
            return NotImplemented
        return (self._conn, self._text, self._close) == (other._conn, other._text, other._close)

    def __hash__(self) -> int:
        return hash((self._conn, self._text, self._close))

    def __reduce__(self) -> tuple[Any, ...]:  # pickle (every protocol) and copy: a fresh copy
        return (type(self), (self._conn, None, self._text, self._close))

    def __repr__(self) -> str:  # never raises: text that is no JSON (a host's own) shows as text
        try:
            shown: Any = self.message
        except ValueError:
            shown = self._text
        return f"Outbound(conn={self._conn!r}, message={shown!r}, close={self._close!r})"


def dumps(message: Mapping[str, Any]) -> str:
    """Encode *message* as compact JSON (UTF-8 text, no NaN)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


# -- field checks ------------------------------------------------------------------------------

Check = Callable[[str, Any], Any]


def _int(low: int, high: int) -> Check:
    def check(name: str, value: Any) -> Any:
        if type(value) is not int or not low <= value <= high:
            msg = f"field {name!r} must be an integer from {low} to {high}, not {_show(value)}"
            raise ProtocolError("bad-message", msg)
        return value

    return check


def _utf8(value: str) -> bool:
    """Whether *value* is text UTF-8 can carry (no lone surrogate from a ``\\ud800`` escape)."""
    try:
        str.encode(value, "utf-8")  # the str method: a subclass could encode its own way
    except UnicodeEncodeError:
        return False
    return True


def _text(longest: int, *, empty: bool = False) -> Check:
    def check(name: str, value: Any) -> Any:
        if (
            type(value) is not str
            or len(value) > longest
            or (not empty and not value)
            or not _utf8(value)
        ):
            msg = f"field {name!r} must be text of 1 to {longest} characters, not {_show(value)}"
            if type(value) is str and not _utf8(value):
                msg = f"field {name!r} holds a lone surrogate, which UTF-8 cannot carry"
            raise ProtocolError("bad-message", msg)
        return value

    return check


def _choice(*options: str) -> Check:
    def check(name: str, value: Any) -> Any:
        if type(value) is not str or value not in options:
            msg = f"field {name!r} must be one of {one_of(options)}, not {_show(value)}"
            raise ProtocolError("bad-message", msg)
        return value

    return check


def finite(value: Any) -> bool:
    """Whether *value* is an ``int`` or ``float`` (not a ``bool``) that a float holds, finite.

    An ``int`` beyond a float's range is not (``math.isfinite`` would raise ``OverflowError``).
    """
    if type(value) not in (int, float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _number(name: str, value: Any) -> Any:
    if not finite(value):
        msg = f"field {name!r} must be a finite number, not {_show(value)}"
        raise ProtocolError("bad-message", msg)
    return value


def _short_text(value: Any) -> bool:
    return type(value) is str and len(value) <= MAX_ID and _utf8(value)


def _id(name: str, value: Any) -> Any:
    if type(value) is int and abs(value) < 2**53:
        return value
    if _short_text(value):
        return value
    msg = (
        f"field 'id' must be text of at most {MAX_ID} characters or an integer below 2**53 in"
        f" size, not {_show(value)}"
    )
    if type(value) is str and not _utf8(value):
        msg = "field 'id' holds a lone surrogate, which UTF-8 cannot carry"
    raise ProtocolError("bad-message", msg)


_BIG = 2**53
_SEAT = _int(0, 63)
_COUNT = _int(0, _BIG)

MESSAGE_TYPES: dict[str, tuple[dict[str, Check], frozenset[str]]] = {
    "join": (
        {"seat": _SEAT, "token": _text(128), "last": _COUNT, "entropy": lambda name, value: value},
        frozenset({"seat"}),
    ),
    "watch": ({"last": _COUNT}, frozenset()),
    "act": ({"action": _text(200), "seen": _COUNT, "seat": _SEAT}, frozenset({"action", "seen"})),
    "resync": ({"last": _COUNT}, frozenset({"last"})),
    "takeback": ({"op": _choice("request", "accept", "decline")}, frozenset({"op"})),
    "entropy": ({"value": _text(128)}, frozenset({"value"})),  # (as ENTROPY)
    "history": ({"since": _COUNT}, frozenset()),
    "record": ({}, frozenset()),
    "ping": ({"t": _number}, frozenset()),
    "leave": ({}, frozenset()),
}
"""Per client message type: its fields with their checks, and the required ones. A join's
``entropy`` is checked (:data:`ENTROPY`) only before the deal: after it, it is ignored."""

ENTROPY = _text(128)
"""The check of a seat's entropy (a join's before the deal, an ``entropy`` message's)."""

_COMMON: dict[str, Check] = {"id": _id, "session": _text(64)}


def _show(value: Any) -> str:
    return shown(value, 60)  # (never raises: a deeply nested value, an int too long)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            msg = f"the key {key!r} appears twice"
            raise ProtocolError("bad-json", msg)
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    msg = f"{name} is not JSON"
    raise ProtocolError("bad-json", msg)


def read_message(raw: str | bytes | bytearray | Mapping[str, Any], max_size: int) -> dict[str, Any]:
    """Check one client message completely and return it as a new dict.

    :param raw: JSON text (``str`` or UTF-8 ``bytes``), or an already parsed mapping.
    :param max_size: The longest text accepted, in bytes of UTF-8.
    :raises ProtocolError: ``too-large``, ``bad-json`` or ``bad-message``.
    :raises ArgumentError: *max_size* is not an int of at least 1.
    """
    if type(max_size) is not int or max_size < 1:
        raise ArgumentError(f"max_size must be an int of at least 1, not {shown(max_size, 40)}")
    if isinstance(raw, bytes | bytearray):
        if len(raw) > max_size:
            msg = f"message of {len(raw)} bytes; at most {max_size} are read"
            raise ProtocolError("too-large", msg)
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            msg = "the message is not UTF-8 text"
            raise ProtocolError("bad-json", msg) from None
    if isinstance(raw, str):
        if len(raw) > max_size or len(raw.encode("utf-8", "surrogatepass")) > max_size:
            msg = f"message of {len(raw.encode('utf-8', 'surrogatepass'))} bytes; at most {max_size} are read"
            raise ProtocolError("too-large", msg)
        try:
            data = json.loads(raw, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
        except ProtocolError:
            raise
        except (ValueError, RecursionError) as exc:
            raise ProtocolError("bad-json", f"the message {why_unreadable(exc)}") from None
    else:
        data = raw
    if not isinstance(data, Mapping):
        msg = f"a message is a JSON object, not {kind_of(data)}"
        raise ProtocolError("bad-json", msg)
    if type(data) is not dict:  # the host's own mapping: read once, as a plain dict
        try:
            data = {k: data[k] for k in data}
        except Exception as exc:
            msg = f"the message could not be read ({type(exc).__name__})"
            raise ProtocolError("bad-message", msg) from None
    try:
        return _fields(data)
    except ProtocolError as exc:  # a valid id is echoed, so the client can match the error
        ref = data.get("id")
        exc.ref = ref if (type(ref) is int and abs(ref) < _BIG) or _short_text(ref) else None
        raise


def _fields(data: dict[Any, Any]) -> dict[str, Any]:
    kind = data.get("type")
    spec = MESSAGE_TYPES.get(kind) if type(kind) is str else None
    if spec is None:
        msg = f"unknown message type {_show(kind)} (known: {', '.join(sorted(MESSAGE_TYPES))})"
        raise ProtocolError("bad-message", msg)
    fields, required = spec
    out: dict[str, Any] = {"type": kind}
    for key, value in data.items():
        if key == "type":
            continue
        check = fields.get(key) if type(key) is str else None
        if check is None:
            check = _COMMON.get(key) if type(key) is str else None
        if check is None:
            allowed = sorted([*fields, *_COMMON])
            msg = (
                f"unknown field {_show(key)} in {'an' if str(kind)[:1] in 'aeiou' else 'a'} {kind!r} message (it takes: {', '.join(allowed)})"
            )
            raise ProtocolError("bad-message", msg)
        out[key] = check(key, value)
    missing = sorted(required - out.keys())
    if missing:
        msg = f"{'an' if str(kind)[:1] in 'aeiou' else 'a'} {kind!r} message needs the field {missing[0]!r}"
        raise ProtocolError("bad-message", msg)
    return out


class RateLimiter:
    """A token bucket per connection: *rate* messages a second, bursts of up to *burst*.

    A message over the limit is dropped unread. The first one of a flood gets an
    error; further ones get one error per second at most; after *close_after*
    drops in a row the session asks the transport to close the connection.

    :param rate: Messages per second refilled.
    :param burst: The bucket's size.
    :param close_after: Consecutive drops before the connection is closed.
    """

    __slots__ = ("_buckets", "burst", "close_after", "rate")

    def __init__(self, rate: float, burst: int, close_after: int) -> None:
        self.rate = rate
        self.burst = burst
        self.close_after = close_after
        # conn -> [tokens, last time, consecutive drops, last error time]
        self._buckets: dict[str, list[float]] = {}

    def take(self, conn: str, now: float) -> tuple[bool, bool, bool]:
        """Count one message of *conn* at *now*.

        :returns: ``(allowed, tell, close)``: whether to read it, whether to send a
            ``rate-limited`` error for it, whether to close the connection. An id that
            cannot be a key (a list) is no connection to answer: dropped, untold.
        """
        if not self.keyable(conn):
            return False, False, False
        bucket = self._buckets.get(conn)
        if bucket is None:
            bucket = self._buckets[conn] = [float(self.burst), now, 0.0, -math.inf]
        tokens = min(float(self.burst), bucket[0] + max(0.0, now - bucket[1]) * self.rate)
        bucket[1] = max(bucket[1], now)
        if tokens >= 1.0:
            bucket[0] = tokens - 1.0
            bucket[2] = 0.0
            return True, False, False
        bucket[0] = tokens
        bucket[2] += 1
        tell = now - bucket[3] >= 1.0
        if tell:
            bucket[3] = now
        close = bucket[2] == self.close_after  # asked once: the drops after it are only told
        return False, tell or close, close

    def forget(self, conn: str) -> None:
        """Drop the bucket of a closed connection."""
        if self.keyable(conn):
            self._buckets.pop(conn, None)

    @staticmethod
    def keyable(conn: object) -> bool:
        """Whether *conn* can name a connection: hashable (not a list, nor a value whose
        hash fails)."""
        try:
            hash(conn)
        except Exception:
            return False
        return True

    def __len__(self) -> int:
        return len(self._buckets)
