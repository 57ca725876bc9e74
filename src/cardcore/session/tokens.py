"""Seat tokens: secrets that prove a connection holds a seat, kept only as hashes.

A token is 32 random bytes from the operating system, in URL-safe base64
(43 characters), given to the seat once, when it claims the seat (or to the
host, for an invitation link). The session and its store keep only its
SHA-256, and compare in constant time. A plain hash is enough here: unlike a
password, a token has 256 bits of entropy, so there is nothing to guess.

The hash covers the session's id and the seat with the token, so a stored hash
opens only the seat of the session it was made for: a hash copied to another
seat's row, or to another session, matches no token. Sessions stored before
cardcore put the seat and session in the hash (``meta`` format 1 and 2) hold
the plain hash of the token; such a row is checked as it was written, and is
replaced by the bound hash when its holder next joins with it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["TOKEN_BYTES", "hash_token", "new_token", "token_matches"]

TOKEN_BYTES = 32
"""Random bytes in a token."""

_TAG = b"cardcore-token/1\0"
_BOUND_TAG = b"cardcore-seat-token/2\0"


def new_token() -> str:
    """Return a fresh token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str, session_id: str | None = None, seat: int | None = None) -> str:
    """Return the SHA-256 (hex) a store keeps for *token*.

    :param session_id: The session the token opens, and
    :param seat: its seat: the hash is bound to both. Without them (either one),
        the unbound hash that sessions stored before the binding keep.
    """
    text = token.encode("utf-8", "surrogatepass")
    if session_id is None or seat is None:
        return hashlib.sha256(_TAG + text).hexdigest()
    where = f"{session_id}\0{seat}\0".encode("utf-8", "surrogatepass")
    return hashlib.sha256(_BOUND_TAG + where + text).hexdigest()


def token_matches(
    token: str, digest: str, session_id: str | None = None, seat: int | None = None
) -> bool:
    """Whether *token* hashes to *digest* (compared in constant time); the other arguments as
    for :func:`hash_token`."""
    mine = hash_token(token, session_id, seat).encode()  # as bytes: hmac refuses non-ASCII text
    return hmac.compare_digest(mine, str(digest).encode("utf-8", "replace"))
