"""What a stored session's rows must agree on, checked when it is resumed.

Every ``meta`` a session writes (format 3) carries an ``integrity`` entry, computed
from the session's own state at that commit:

* ``actions``: how many actions the record holds;
* ``record``: the last link of a SHA-256 chain over the record, each action's seat,
  time and notation hashed onto the link before it, from a start that names the
  session (one hash per action, appended as the action is);
* ``tokens``: the SHA-256 of the token rows (seat, hash, expiry);
* ``meta``: the SHA-256 of the rest of ``meta`` as canonical JSON (setup, settings,
  seed, fair-deal material, clocks, stream counters ...), with the session's id.

:func:`check` recomputes them from the rows a store hands back and names the first
that disagrees; :meth:`Session.resume <cardcore.session.Session.resume>` refuses the
session then (a :class:`~cardcore.session.CorruptSessionError`). Plain digests find
damage and edits made without them (a seed changed, an action row lost or changed,
two token rows swapped), not a forger who recomputes them. Kept stream messages are
covered by ``meta["tails"]`` (a digest of each stream's kept tail, bound to the stream's
name, in the ``meta`` digest): a tail that is not the one committed is never served
(a rejoin gets a fresh view) rather than the session refused; each kept message is also
read back as it is sent, and one that does not read as the message its row says is
logged and replaced by a fresh view. Nothing here is public.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore._text import shown
from cardcore.errors import CorruptStateError, OptionError
from cardcore.session.config import GameSetup, SessionConfig
from cardcore.session.store import StoredSession, TokenRow
from cardcore.session.tokens import hash_token

if TYPE_CHECKING:
    from cardcore.session._flow import Flow
    from cardcore.session.streams import Stream

__all__ = [
    "check",
    "link",
    "read_kept",
    "read_settings",
    "rebind",
    "seal",
    "start",
    "trim_tail",
    "unbound_seats",
]

LOG = logging.getLogger("cardcore.session")

KEY = "integrity"
"""The key of the digests in ``meta``."""

_RECORD = b"cardcore-session-record/1\0"
_TOKENS = b"cardcore-session-tokens/1\0"
_META = b"cardcore-session-meta/1\0"


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def start(session_id: str) -> bytes:
    """The first link of a session's record chain (no action yet)."""
    return hashlib.sha256(_RECORD + _utf8(session_id)).digest()


def link(prev: bytes, seat: int, text: str, at: float | None) -> bytes:
    """The link after *prev* for one action (a stored time reads back as a float)."""
    when = "-" if at is None else repr(float(at))
    return hashlib.sha256(prev + _utf8(f"{seat}\0{when}\0{text}")).digest()


def _tokens(session_id: str, rows: Iterable[TokenRow]) -> str:
    lines = [
        f"{r.seat}\0{r.digest}\0{'-' if r.expires is None else repr(float(r.expires))}\n"
        for r in rows
    ]
    return hashlib.sha256(
        _TOKENS + _utf8(session_id) + b"\0" + _utf8("".join(sorted(lines)))
    ).hexdigest()


def canonical(value: Any) -> str:
    """*value* as canonical JSON text (sorted keys, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


_FIXED = ("config", "setup")
"""Keys of ``meta`` whose values never change: a session works their texts out once."""


def _meta(session_id: str, meta: Mapping[str, Any], fixed: Mapping[str, str] | None = None) -> str:
    """The digest of *meta* but its ``integrity``: the canonical text of the rest, then that of
    each value of :data:`_FIXED`, from *fixed* if given there."""
    known = fixed or {}
    rest = canonical({k: v for k, v in meta.items() if k != KEY and k not in _FIXED})
    texts = [f"{k}\0{known[k] if k in known else canonical(meta.get(k))}\n" for k in _FIXED]
    body = _utf8(rest + "\0" + "".join(texts))
    return hashlib.sha256(_META + _utf8(session_id) + b"\0" + body).hexdigest()


def seal(
    meta: dict[str, Any],
    session_id: str,
    chain: Sequence[bytes],
    tokens: Iterable[TokenRow],
    fixed: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Add the ``integrity`` entry to *meta* (the session's meta of this commit) and return it.

    :param fixed: :func:`canonical` texts of values of *meta* that never change, by key.
    """
    meta[KEY] = {
        "actions": len(chain) - 1,
        "record": chain[-1].hex(),
        "tokens": _tokens(session_id, tokens),
        "meta": _meta(session_id, meta, fixed),
    }
    return meta


def read_settings(meta: Mapping[str, Any]) -> tuple[GameSetup, SessionConfig]:
    """The stored setup and settings.

    :raises CorruptStateError: Either cannot be read (the message names the field).
    """
    try:
        setup = GameSetup.from_data(meta["setup"])
    except (KeyError, OptionError) as exc:
        msg = (
            "its stored game setup is missing"
            if isinstance(exc, KeyError)
            else f"its stored game setup is damaged: {exc}"
        )
        raise CorruptStateError(msg) from None
    try:
        config = SessionConfig.from_data(meta["config"])
    except (KeyError, OptionError) as exc:
        msg = (
            "its stored settings are missing"
            if isinstance(exc, KeyError)
            else f"its stored settings are damaged: {exc}"
        )
        raise CorruptStateError(msg) from None
    return setup, config


def _time(at: Any) -> bool:
    """Whether *at* is a number (a numpy float a host's clock gave too), not a bool or text."""
    return isinstance(at, numbers.Real) and not isinstance(at, bool)


_ROWS = "its stored action rows differ from the ones committed (a seat, time or notation edited or damaged)"


def check(stored: StoredSession) -> list[bytes]:
    """Check *stored*'s rows against its digests; return its record chain.

    Sessions stored before the digests (format 1 and 2) have none to check.

    :raises CorruptStateError: What disagrees, first the meta, then the record, then the tokens.
    """
    sid, meta = stored.id, stored.meta
    chain = [start(sid)]
    broken = False  # a row of the wrong kinds (a time of text or bytes spelling a number
    try:  # would hash as the number) or shape: judged with the record below
        for seat, text, at in stored.actions:
            if type(seat) is not int or type(text) is not str or (at is not None and not _time(at)):
                broken = True
                break
            chain.append(link(chain[-1], seat, text, at))
    except (TypeError, ValueError, OverflowError):
        broken = True
    for row in stored.tokens:  # (a digest writes a seat "0" as it does 0; older formats have none)
        expires = row.expires
        if not (
            type(row.seat) is int
            and type(row.digest) is str
            and (expires is None or (_time(expires) and math.isfinite(expires)))
        ):
            msg = (
                "its stored token rows hold a seat, hash or expiry of the wrong kind"
                f" (seat {shown(row.seat, 20)}: a seat is an int, a hash text, an expiry a number)"
            )
            raise CorruptStateError(msg)
    sealed = meta.get(KEY)
    if sealed is None and meta.get("format_version") in (1, 2):
        if broken:
            raise CorruptStateError(_ROWS)
        return chain
    if not isinstance(sealed, Mapping):
        msg = "its stored meta has no integrity digests (meta format 3 always writes them)"
        raise CorruptStateError(msg)
    try:
        meta_ok = sealed.get("meta") == _meta(sid, meta)
    except (TypeError, ValueError):
        meta_ok = False
    if not meta_ok:
        msg = "its stored meta differs from the one last committed (setup, settings, seed, clocks or counters edited or damaged)"
        raise CorruptStateError(msg)
    count = sealed.get("actions")
    if count != len(stored.actions):
        msg = f"its stored record holds {len(stored.actions)} actions, but {count!r} were committed (an action row lost or added)"
        raise CorruptStateError(msg)
    if broken or sealed.get("record") != chain[-1].hex():
        raise CorruptStateError(_ROWS)
    if sealed.get("tokens") != _tokens(sid, stored.tokens):
        msg = "its stored token rows differ from the ones committed (a row edited, swapped, added or removed)"
        raise CorruptStateError(msg)
    return chain


def unbound_seats(stored: StoredSession) -> set[int]:
    """The seats whose stored token hash is not bound to its seat and session (written by format 1 or 2)."""
    if stored.meta.get("format_version") in (1, 2):
        return {t.seat for t in stored.tokens}
    return {int(s) for s in stored.meta.get("unbound_tokens", ())}


def rebind(flow: Flow, seat: int, token: str) -> None:
    """*seat*'s holder joined with *token*: if its row holds an unbound hash, store the bound one."""
    row = flow.tokens.get(seat)
    if row is None or seat not in flow.unbound:
        return
    flow.unbound.discard(seat)
    flow.tokens[seat] = row = TokenRow(seat, hash_token(token, flow.id, seat), row.expires)
    flow._batch.tokens.append(row)
    flow._dirty = True


def trim_tail(
    session_id: str, stream: Stream, rows: list[tuple[int, str]], tails: Any = None
) -> list[tuple[int, str]]:
    """The stored tail of *stream*, numbered without a gap up to its counter; rows out of that
    line are logged and dropped (a rejoin from before them gets a fresh view). With *tails*
    (``meta["tails"]``, the digest of each stream's tail when last committed), a tail that
    is not the one committed (rows edited, or swapped with another stream's) is dropped whole."""
    name, n = stream.name, stream.n
    keep: list[tuple[int, str]] = []
    expected = n
    for number, text in reversed(rows):
        if number != expected or type(text) is not str:  # (a body stored as bytes: dropped too)
            break
        keep.append((number, text))
        expected -= 1
    if len(keep) != len(rows):
        LOG.error(
            "session %s: the stored messages of stream %s are not numbered up to %d without a gap: "
            "%d of %d kept; a rejoin from before them gets a fresh view",
            session_id,
            name,
            n,
            len(keep),
            len(rows),
        )
    keep.reverse()
    if isinstance(tails, Mapping) and name in tails:
        from cardcore.session.streams import Stream

        if Stream(name, stream.keep, n, keep).digest() != tails[name]:
            LOG.error(
                "session %s: the stored messages of stream %s are not the ones committed "
                "(edited, or another stream's): a rejoin gets a fresh view",
                session_id,
                name,
            )
            stream.untrusted = True
            return []  # dropped whole: kept in memory, the next commit's digest would trust it
    return keep


def read_kept(
    session_id: str, stream: Stream, last: int, texts: list[str]
) -> list[dict[str, Any]] | None:
    """The kept messages *texts* (numbered from *last* + 1) read back, or ``None`` if one is not
    the message its row says: that row is logged, and it and the rows before it leave the tail."""
    out: list[dict[str, Any]] = []
    for i, text in enumerate(texts):
        number = last + 1 + i
        try:
            data = json.loads(text)
            ok = (
                isinstance(data, dict)
                and data.get("n") == number
                and isinstance(data.get("type"), str)
            )
        except (ValueError, RecursionError):
            ok = False
        if not ok:
            LOG.error(
                "session %s: stored message %d of stream %s is unreadable: a fresh view is sent instead",
                session_id,
                number,
                stream.name,
            )
            while stream.tail and stream.tail[0][0] <= number:
                stream.tail.popleft()
                stream.digests.popleft()
            stream.untrusted = stream.untrusted and bool(stream.tail)  # what was stored is gone
            return None
        out.append(data)
    if stream.untrusted and out:  # readable, but not what was committed to this stream
        stream.tail.clear()
        stream.digests.clear()
        stream.untrusted = False
        return None
    return out
