"""Private helper of :mod:`cardcore.testing`: the hostile inputs tried on a game.

Each input is ``(label, call, allowed)``: calling it must raise one of the
*allowed* errors and leave the game exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardcore.actions import HOST, Action, Resign
from cardcore.errors import IllegalActionError, NotationError, SeatError
from cardcore.events import Event
from cardcore.testing._util import CARD_TOKEN

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["BadInput", "bad_inputs"]

BadInput = tuple[str, Callable[[], object], tuple[type[BaseException], ...]]
"""A hostile input: a label for messages, the call, and the errors it may raise."""

ILLEGAL = (IllegalActionError,)
REJECT = (NotationError, IllegalActionError)
SEAT = (SeatError,)

NON_ASCII_DIGITS = ("\u00b2", "\u0663", "\u2464", "\uff15", "\u096a", "\U0001d7d0")
"""Digits ``str.isdigit`` accepts and ``int`` may not: superscript two, Arabic-Indic three,
circled five, fullwidth five, Devanagari four, mathematical bold two."""
BAD_TIMES = (float("nan"), float("inf"), -float("inf"), "12:00", True, 10**400, [0.5])
"""Time stamps ``at=`` must refuse: not finite, not a number, too large."""
BAD_SEATS = (-1, 10**100, -(10**100), "0", 0.0, True, 1.5, [0], b"0")
"""Values that are no seat of any game (besides the player count itself)."""

JUNK = (
    "",
    "   ",
    "\x00",
    "\n\t",
    "ü",
    "🂡",
    "-1",
    "0",
    "99999999999999999999999",
    "none",
    "null",
    "{}",
    "[]",
    "drop table",
    "resign now",
    "end 0",
    "x" * 201,
    "play",
    "discard",
    "replace",
    "flip -1",
    "spread",
    "hit",
)
BAD_CARDS = ("1H", "11S", "ZZ", "0C", "JKX", "10X", "H5", "AA")
WELL_FORMED = (
    "JK",
    *(
        r + s
        for s in "SHDC"
        for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    ),
)
"""Every card word; those of cards the game does not hold are tried in place of a legal card."""


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def _accepted(game: Game, seat: int, text: str) -> bool:
    """Whether *text* is an accepted alias of a legal action (tried on a clone)."""
    try:
        game.clone().act(seat, text)
    except Exception:
        return False
    return True


def _ignore(event: Event) -> None:
    """A handler for subscriptions that must be refused."""


def _seat_reads(game: Game, seat: object) -> list[tuple[str, Callable[[], object]]]:
    """Every call that takes a seat, with *seat*, as (name, call)."""
    bad: Any = seat
    return [
        ("view", lambda: game.view(bad)),
        ("legal_actions", lambda: game.legal_actions(bad)),
        ("history", lambda: game.history(bad)),
        ("determinize", lambda: game.determinize(bad, 1)),
        ("events.subscribe", lambda: game.events.subscribe(Event, _ignore, seat=bad)),
    ]


def bad_inputs(game: Game, rng: random.Random, pool: dict[Action, None], realtime: bool) -> list[BadInput]:
    """Return the hostile inputs to try on *game* now.

    :param pool: Actions seen legal earlier in this game (for illegal and out-of-turn tries).
    :param realtime: Whether several seats may act at once.
    """
    n = len(game.players)
    out: list[BadInput] = []
    to_act = tuple(game.to_act)
    legal = {s: game.legal_actions(s) for s in range(n)}
    texts = {s: {_norm(str(a)) for a in legal[s]} | {"resign"} for s in range(n)}

    def act(seat: object, text: object) -> Callable[[], object]:
        def call() -> object:
            return game.act(seat, text)  # type: ignore[arg-type]

        call.seat, call.text = seat, text  # type: ignore[attr-defined]  # who sees a refusal
        call.again = lambda other: other.act(seat, text)  # type: ignore[attr-defined]
        return call

    def apply(action: object) -> Callable[[], object]:
        return lambda: game.apply(action)  # type: ignore[arg-type]

    def apply_seen(action: Action, seen: object) -> Callable[[], object]:
        return lambda: game.apply(action, seen=seen)  # type: ignore[arg-type]

    def apply_at(action: Action, at: object) -> Callable[[], object]:
        return lambda: game.apply(action, at=at)  # type: ignore[arg-type]

    def act_at(seat: int, text: str, at: object) -> Callable[[], object]:
        def call() -> object:
            return game.act(seat, text, at=at)  # type: ignore[arg-type]

        call.seat, call.text = seat, text  # type: ignore[attr-defined]
        call.again = lambda other: other.act(seat, text, at=at)  # type: ignore[attr-defined]
        return call

    # wrong types and wrong seats
    out.append(("apply of a non-action", apply("draw"), ILLEGAL))
    out.append(("apply of None", apply(None), ILLEGAL))
    out.append((f"resign of missing seat {n}", apply(Resign(n)), ILLEGAL))
    out.append(("resign of seat -3", apply(Resign(-3)), ILLEGAL))
    out.append(("act by the host", act(HOST, "resign"), ILLEGAL))
    out.append((f"act by missing seat {n}", act(n, "resign"), ILLEGAL))
    out.append(("act by seat True", act(True, "resign"), ILLEGAL))
    out.append(("act by seat '0'", act("0", "resign"), ILLEGAL))
    out.append(("act by seat 0.0", act(0.0, "resign"), ILLEGAL))
    out.append(("'end' from a seat", act(0, "end"), ILLEGAL))
    for not_text in (None, 5, b"draw", ["draw"]):
        out.append((f"act with text {not_text!r}", act(0, not_text), (NotationError,)))
    # malformed notation
    seat = rng.choice(to_act) if to_act else rng.randrange(n)
    noise = "".join(
        rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 HSDCJKQA-")
        for _ in range(rng.randrange(1, 12))
    )
    for text in [*rng.sample(JUNK, 6), noise]:
        if _norm(text) not in texts[seat] and not _accepted(game, seat, text):
            out.append((f"act({seat}, {text[:40]!r})", act(seat, text), REJECT))
    mine = list(legal[seat])
    if mine:
        action = rng.choice(mine)
        text = str(action)
        for extra in (text + " " + text, text + " 12345 extra words"):
            out.append((f"act({seat}, {extra!r})", act(seat, extra), REJECT))
        tokens = CARD_TOKEN.findall(text)
        if tokens:
            for bad_card in rng.sample(BAD_CARDS, 3):
                wrong = text.replace(tokens[0], bad_card, 1)
                out.append((f"unknown card: act({seat}, {wrong!r})", act(seat, wrong), REJECT))
            # a card the notation reads but the game does not hold (a joker in a 52-card game):
            # chosen without the generator, so the other tries stay those of earlier releases
            held = {str(c) for pile in game.state.zones.cards for c in pile}
            absent = [c for c in WELL_FORMED if c not in held]
            picks = (
                dict.fromkeys(absent[:1] + absent[game.version % len(absent) :][:1])
                if absent
                else {}
            )
            for card in picks:  # the first (a joker where none is dealt) and one more, in order
                wrong = text.replace(tokens[0], card, 1)
                what = f"a card not in the game: act({seat}, {wrong!r})"
                out.append((what, act(seat, wrong), REJECT))
    # legal text of one seat sent by another
    for other in range(n):
        if other == seat or not mine:
            continue
        text = str(rng.choice(mine))
        if _norm(text) not in texts[other]:
            out.append((f"wrong seat: act({other}, {text!r})", act(other, text), REJECT))
    # illegal and out-of-turn actions from earlier states
    stale = [a for a in pool if a not in legal.get(a.seat, ())]
    rng.shuffle(stale)
    for action in stale[:4]:
        label = "out-of-turn" if action.seat not in to_act else "illegal"
        out.append(
            (f"{label} apply({str(action)!r}) by seat {action.seat}", apply(action), ILLEGAL)
        )
        if _norm(str(action)) not in texts[action.seat]:
            out.append(
                (
                    f"{label} act({action.seat}, {str(action)!r})",
                    act(action.seat, str(action)),
                    REJECT,
                )
            )
    # non-ASCII digits where the notation has ASCII ones
    for action in mine[:1]:
        text = str(action)
        if any(c.isdigit() for c in text):
            for digit in rng.sample(NON_ASCII_DIGITS, 2):
                odd = "".join(digit if c.isdigit() else c for c in text)
                out.append((f"non-ASCII digits: act({seat}, {odd!r})", act(seat, odd), REJECT))
    # a legal action with a time stamp that is not a finite number
    for action in mine[:1]:
        for at in rng.sample(BAD_TIMES, 3):
            out.append(
                (f"apply({str(action)!r}, at={str(at)[:20]})", apply_at(action, at), ILLEGAL)
            )
            out.append(
                (
                    f"act({seat}, {str(action)!r}, at={str(at)[:20]})",
                    act_at(seat, str(action), at),
                    ILLEGAL,
                )
            )
    # reads, subscriptions and copies for seats the game does not have
    for bad in [n, *rng.sample(BAD_SEATS, 4)]:
        label = str(bad)[:20]
        for what, call in _seat_reads(game, bad):
            out.append((f"{what}({label})", call, SEAT))
    out.append(("events.subscribe(Event, seat=HOST)", _seat_reads(game, HOST)[-1][1], SEAT))
    # a seen that is not a version, or (real time) outside the window judged for staleness
    for bogus in ("0", 1.5, True, [game.version]):
        for action in mine[:1]:
            out.append(
                (f"apply({str(action)!r}, seen={bogus!r})", apply_seen(action, bogus), ILLEGAL)
            )
    if realtime:
        for action in stale[:1]:
            for far in (game.version + 1, -1, 10**100, -(10**100), game.version - 10**6):
                out.append(
                    (f"apply({str(action)!r}, seen={far})", apply_seen(action, far), ILLEGAL)
                )
    if game.is_over:
        out.append(("resign after the end", act(0, "resign"), ILLEGAL))
    return out
