"""Go Fish for cardcore: ask a player for a rank you hold, collect books of four.

A third-party game distribution written with cardcore's public API and its
building blocks only. The entry point is :mod:`cardcore_gofish.rules`; the
rules with their IDs are in ``RULES.md``.
"""

from __future__ import annotations

__version__ = "1.0.0"
