"""Helpers for the Tonk tests: stacked decks and short-hand drivers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import cardcore
from cardcore import Card, Game
from cardcore_tonk.logic import TonkLogic
from cardcore_tonk.state import TonkState

NATURAL = "tonk.natural-49-50"


def stacked(hands: Sequence[str], upcard: str | None = None, stock: str = "") -> str:
    """Return a deck, top first, that deals *hands* when the dealer is the last seat.

    Seat 0 (left of the dealer) receives the first card (TONK-DEAL-1); then the
    upcard (if any), then the top of the stock.
    """
    split = [h.split() for h in hands]
    order = [split[s][r] for r in range(5) for s in range(len(hands))]
    if upcard is not None:
        order.append(upcard)
    order += stock.split()
    return " ".join(order)


def tonk(
    seats: Sequence[str],
    upcard: str | None = "QC",
    stock: str = "",
    *,
    rules: Iterable[str] = (),
    natural: bool = False,
    seed: int = 1,
    subscribers: Iterable[Any] = (),
    **options: Any,
) -> Game:
    """Start a stacked Tonk game dealing *seats* (one hand each), the last seat dealing.

    Seat 0 moves first.

    The base game runs without the default natural rule unless *natural*.
    """
    n = len(seats)
    opts: dict[str, Any] = {"first_dealer": n - 1}
    opts.update(options)
    return cardcore.new_game(
        "tonk",
        n,
        deck=stacked(seats, upcard, stock),
        seed=seed,
        rules=tuple(rules),
        without=() if natural else (NATURAL,),
        options=opts,
        subscribers=subscribers,
    )


def hand(game: Game, seat: int) -> list[str]:
    """Return *seat*'s hand as its own view shows it (sorted)."""
    return list(game.view(seat)["table"]["hand"])


def last_hand(game: Game, seat: int | None = None) -> dict[str, Any] | None:
    """Return the last finished hand from *seat*'s history (``None`` before the first ends)."""
    entries = [e for e in game.history(seat) if e["kind"] == "hand"]
    return entries[-1] if entries else None


def pass_turn(game: Game, seat: int) -> str:
    """Draw from the stock and discard the drawn card; return it."""
    before = set(hand(game, seat))
    game.act(seat, "draw")
    (drawn,) = set(hand(game, seat)) - before
    game.act(seat, f"discard {drawn}")
    return drawn


def cards_in(data: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Return every card text found in *data* (JSON-ready), skipping keys in *skip*."""
    out: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if k not in skip:
                out |= cards_in(v, skip)
    elif isinstance(data, list):
        for v in data:
            out |= cards_in(v, skip)
    elif isinstance(data, str):
        for word in data.split():
            try:
                card = Card.parse(word)
            except cardcore.NotationError:
                continue
            if card.suit is not None and word.upper() == str(card):
                out.add(str(card))
    return out


def state_of(game: Game) -> TonkState:
    """Return the game's full Tonk state (privileged; tests only)."""
    state = game.state
    assert isinstance(state, TonkState)
    return state


def logic_of(game: Game) -> TonkLogic:
    """Return the game's Tonk logic."""
    logic = game.logic
    assert isinstance(logic, TonkLogic)
    return logic
