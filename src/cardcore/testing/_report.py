"""The :class:`Report` every check of the conformance kit fills, and the names of the checks."""

from __future__ import annotations

import re
from typing import Any

from attrs import define, field

__all__ = ["ALL_CHECKS", "MAX_FAILURES", "Abort", "Report"]

ALL_CHECKS = frozenset(
    {
        "bound",
        "conservation",
        "views",
        "events",
        "twins",
        "agents",
        "rejections",
        "clone",
        "persistence",
        "determinism",
        "positions",
        "notation",
        "vetoes",
        "scores",
    }
)
"""The names of every check :func:`~cardcore.testing.check_game` runs."""

MAX_FAILURES = 20
"""How many failure messages a :class:`Report` keeps (the counters keep counting); a message
that differs from a kept one only in its numbers (seat, version) is not kept again."""

_DIGITS = re.compile(r"\b(?:seat \d+|seat spectator|the spectator)\b|\d+")
"""A seat (the spectator too), a version, a count: what one kind of failure varies in."""

_COUNTERS = (
    "games",
    "actions",
    "truncated",
    "bad_inputs",
    "rejected",
    "cards_lost",
    "leaks",
    "views",
    "twins",
    "reloads",
    "positions",
    "notations",
    "vetoed",
    "scored",
    "raw",
    "restored",
)


@define
class Report:
    """What a check did and found.

    :param game: The game's name.
    :param players: Seats per game.
    :param rules: The house rules asked for.
    :param options: The options given.
    :param games: Games played.
    :param actions: Actions applied in those games (twins and clones not counted).
    :param truncated: Games that reached the declared action bound.
    :param bad_inputs: Hostile inputs tried (illegal, out of turn, wrong seat, malformed...).
    :param rejected: Those rejected with a documented error and no change.
    :param cards_lost: Checks that found the cards on the table differ from the deck.
    :param leaks: Views, zones, history, events, twins or error messages that showed a seat
        something it may not know.
    :param views: Views, histories and event streams checked for leaks and structure.
    :param twins: Determinized twins compared.
    :param reloads: Save -> load and record -> replay round trips compared.
    :param positions: Positions written, read back and compared.
    :param notations: Legal actions whose notation was read back (check ``"notation"``).
    :param vetoed: Offered actions the kit's veto-only rule removed (check ``"vetoes"``).
    :param scored: Rounds the kit's score-only rule adjusted (check ``"scores"``).
    :param raw: Raw exceptions: errors that are not a :class:`~cardcore.CardcoreError`
        escaping the public API (each is also a failure).
    :param restored: Applies failed on purpose by the kit's failing rule (its
        ``score_round`` raising) after which the game was exactly as before (check ``"scores"``).
    :param checks: The names of the checks run (those asked for, less the skipped ones).
    :param skipped: Checks asked for that tested nothing, each with the reason: ``"positions"``
        for a game without a position notation, ``"scores"`` for one that never scores a round,
        and every check that needs a playable game when the plugin breaks its contract.
    :param failures: The first failure messages (at most :data:`MAX_FAILURES`), each kind
        once: messages that differ only in their numbers count, but are kept once.
    :param failed: How many failures there were in all.
    :param stopped: Games that stopped on an error (counted in *games*); a plugin's
        ``BaseException`` stops the whole check instead (counted in *failed* and *raw*, the
        checks it stopped in *skipped*).
    """

    game: str
    players: int = 0
    rules: tuple[str, ...] = ()
    options: dict[str, Any] = field(factory=dict)
    games: int = 0
    actions: int = 0
    truncated: int = 0
    bad_inputs: int = 0
    rejected: int = 0
    cards_lost: int = 0
    leaks: int = 0
    views: int = 0
    twins: int = 0
    reloads: int = 0
    positions: int = 0
    notations: int = 0
    vetoed: int = 0
    scored: int = 0
    raw: int = 0
    restored: int = 0
    checks: tuple[str, ...] = ()
    skipped: dict[str, str] = field(factory=dict)
    failures: list[str] = field(factory=list)
    failed: int = 0
    stopped: int = 0

    @property
    def ok(self) -> bool:
        """Whether no check failed."""
        return self.failed == 0

    def fail(self, message: str) -> None:
        """Record one failure (a message alike a kept one but for its numbers is counted only)."""
        self.failed += 1
        self._keep(message)

    def _keep(self, message: str) -> None:
        if len(self.failures) >= MAX_FAILURES:
            return
        shape = _DIGITS.sub("#", message)  # the same fault at another seat or version
        if all(_DIGITS.sub("#", kept) != shape for kept in self.failures):
            self.failures.append(message)

    def skip(self, check: str, reason: str) -> None:
        """Record that *check* tested nothing, and why (it leaves ``checks``)."""
        self.skipped.setdefault(check, reason)
        self.checks = tuple(c for c in self.checks if c != check)

    def merge(self, other: Report) -> Report:
        """Add *other*'s counters and failures to this report and return it."""
        for name in _COUNTERS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.checks = tuple(sorted(set(self.checks) | set(other.checks)))
        for check, reason in other.skipped.items():
            self.skipped.setdefault(check, reason)
        for msg in other.failures:
            self._keep(msg)
        self.failed += other.failed
        return self

    def raise_if_failed(self) -> None:
        """Raise :class:`AssertionError` listing the failures, if any."""
        if self.failed:
            head = f"{self.failed} conformance failure(s) in {self.label()} (each kind shown once):"
            raise AssertionError("\n  ".join([head, *self.failures, *self.skipped_lines()]))

    def label(self) -> str:
        """Return ``game players=N rules=[...] options={...}`` for messages."""
        return f"{self.game} players={self.players} rules={list(self.rules)} options={self.options}"

    def summary(self) -> str:
        """Return the counters on one line."""
        counts = " ".join(f"{name}={getattr(self, name)}" for name in _COUNTERS)
        return " ".join([f"{self.label()}: {counts} failed={self.failed}", *self.skipped_lines()])

    def skipped_lines(self) -> list[str]:
        """Return ``(skipped 'a', 'b': reason)`` for each reason in ``skipped``."""
        by_reason: dict[str, list[str]] = {}
        for check, why in sorted(self.skipped.items()):
            by_reason.setdefault(why, []).append(repr(check))
        return [f"(skipped {', '.join(c)}: {why})" for why, c in by_reason.items()]


class Abort(Exception):
    """Stop checking the current game (it was changed by an input that should have been rejected)."""
