"""Seat tokens: secrets that prove a connection holds a seat, kept only as hashes.

A token is 32 random bytes from the operating system, in URL-safe base64
(43 characters), given to the seat once, when it claims the seat (or to the
host, for an invitation link). The session and its store keep only its
SHA-256, and compare in constant time. A plain hash is enough here: unlike a
password, a token has 256 bits of entropy, so there is nothing to guess.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["TOKEN_BYTES", "hash_token", "new_token", "token_matches"]

TOKEN_BYTES = 32
"""Random bytes in a token."""

_TAG = b"cardcore-token/1\0"


def new_token() -> str:
    """Return a fresh token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """Return the SHA-256 (hex) a store keeps for *token*."""
    return hashlib.sha256(_TAG + token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, digest: str) -> bool:
    """Whether *token* hashes to *digest* (compared in constant time)."""
    return hmac.compare_digest(hash_token(token), digest)
