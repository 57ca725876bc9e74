"""What search agents need from Tonk: positions from a seat's view, a rollout policy, a utility.

:class:`~cardcore_tonk.logic.TonkLogic` takes these functions as its methods (the optional
search hooks of :class:`cardcore.GameLogic`):

* :func:`position_from_view` writes a Tonk position (:mod:`cardcore_tonk.position`) from a
  seat's view whose hidden cards the search dealt at random: ``played``, ``dealer``,
  ``turn``, ``phase``, ``balances``, the spreads and the card taken this turn come from the
  view's table. Four facts are not in the view, so a sample takes their defaults: who was
  hit since their last turn (``hit``: where a house rule reads it, the agent's own moves
  are still judged right, since a search only tries the actions the real game offers),
  quiet turns, whether the seat to act laid or hit this turn, and the chance counter. A
  discard the seat to act took this turn is known to everyone: the table shows it
  (``taken``) but not where it lies, so the sample puts it into the taker's hand. A hand
  the table marks ``shown`` (turned
  face up at the end of a hand) is known to every seat in the sample, the viewer's own too.
* :func:`rollout_action`: drop with a hand of 5 or less, take a discard that makes a book
  with the hand, else draw; then lay the first spread, hit, or discard the costliest card
  (its value, less a bonus for a same-rank or suited neighbour in hand).
* :func:`utility` is the session's balances; :func:`rounds_played` the hands finished.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore import ALL, Card, Zones
from cardcore.positions import write_position
from cardcore_tonk.actions import Discard, Draw, Drop, Hit, Spread, Take, TonkAction
from cardcore_tonk.melds import index_of
from cardcore_tonk.state import DISCARD, HAND0, START, TonkState

if TYPE_CHECKING:
    from cardcore_tonk.logic import TonkLogic

__all__ = ["DROP_AT", "position_from_view", "rollout_action", "rounds_played", "utility"]

DROP_AT = 5
"""The rollout policy drops with a hand worth this much or less."""


def position_from_view(logic: TonkLogic, view: Mapping[str, Any], zones: Zones) -> str | None:
    """Write the Tonk position of *view* with the hidden cards dealt into *zones*."""
    table = view["table"]
    phase = table["phase"]
    played = table["hands"] if phase == "over" else int(table["hand_number"]) - 1
    fields: dict[str, Any] = {
        "played": played,
        "dealer": table["dealer"],
        "turn": table["turn"],
        "phase": phase,
        "balances": table["balances"],
        "chance": 1,
    }
    seen = zones.seen
    shown = [s for s, face_up in enumerate(table.get("shown") or ()) if face_up]
    for s in shown:  # a hand turned face up (the viewer's own too): every seat knows it
        seen[HAND0 + s] = [ALL] * len(seen[HAND0 + s])
    if phase in ("between", "over"):  # (a hand of taken cards is known to all, not shown)
        fields["shown"] = shown
    spreads = table["spreads"]
    if spreads:
        fields["spreads"] = [[len(sp["cards"]), sp["owner"]] for sp in spreads]
    if table["taken"] is not None:
        fields["taken"] = table["taken"]
        placed = any(table["taken"] in zone["cards"] for zone in view["zones"])
        if not placed:  # (laid in a spread, it lies where the view shows it)
            _hold_taken(zones, Card.parse(table["taken"]), HAND0 + table["turn"], view.get("seat"))
    return write_position("tonk", fields, zones)


def _hold_taken(zones: Zones, card: Card, hand: int, viewer: int | None) -> None:
    """Put the discard taken this turn into the taker's hand, known to every seat.

    The table shows it (``taken``) but the view not where it lies, so the deal put it among
    the hidden places: swap it with a card of the taker's hand the viewer does not know
    (the hidden cards are exchangeable, so the sample stays uniform)."""
    cards, seen = zones.cards, zones.seen
    if card in cards[hand]:
        seen[hand][cards[hand].index(card)] = ALL
        return
    where = next(((z, pile.index(card)) for z, pile in enumerate(cards) if card in pile), None)
    hidden = (lambda mask: mask != ALL) if viewer is None else (lambda mask: not mask >> viewer & 1)
    slot = next((i for i, mask in enumerate(seen[hand]) if hidden(mask)), None)
    if where is None or slot is None:  # (no hidden card in the taker's hand: it holds it)
        return
    z, i = where
    cards[z][i], cards[hand][slot] = cards[hand][slot], card
    seen[hand][slot] = ALL


def utility(logic: TonkLogic, state: TonkState) -> tuple[float, ...]:
    """The session's running balances (what each seat has won or paid)."""
    return tuple(float(t) for t in state.ledger.totals)


def rounds_played(logic: TonkLogic, state: TonkState) -> int:
    """The deals ended: the hands finished and the void deals dealt again under the same
    number (a dead hand counts, and a deal judge's void deal may pay). Counted from the
    first hand :attr:`~cardcore_tonk.state.TonkState.past` holds (a position holds none)."""
    past = state.past
    return past[0].hand - 1 + len(past) if past else state.hand_no


def rollout_action(
    logic: TonkLogic,
    state: TonkState,
    seat: int,
    legal: Sequence[TonkAction],
    rng: random.Random,
) -> TonkAction | None:
    """A quick heuristic from *seat*'s own hand and the table."""
    cards = state.zones.cards
    hand = [index_of(c) for c in cards[HAND0 + seat]]
    points = logic.points
    if state.phase == START:
        draw = take = None
        for action in legal:
            kind = type(action)
            if kind is Drop:
                if sum([points[x] for x in hand]) <= DROP_AT:
                    return action
            elif kind is Draw:
                draw = action
            elif kind is Take:
                take = action
        pile = cards[DISCARD]
        if take is not None and pile:
            rank = index_of(pile[-1]) >> 2
            if sum(1 for x in hand if x >> 2 == rank) >= 2 or draw is None:
                return take
        return draw
    best: TonkAction | None = None
    best_cost = -100.0
    for action in legal:
        kind = type(action)
        if kind is Spread or kind is Hit:
            return action
        if kind is Discard and isinstance(action, Discard):
            x = index_of(action.card)
            cost = points[x] - _bonus(x, hand)
            if cost > best_cost:
                best, best_cost = action, cost
    return best


def _bonus(x: int, hand: Sequence[int]) -> float:
    """What keeping card *x* is worth for future spreads: same ranks and suited neighbours."""
    rank, suit = x >> 2, x & 3
    bonus = 0.0
    for y in hand:
        if y == x:
            continue
        if y >> 2 == rank:
            bonus += 4.0
        elif y & 3 == suit and abs((y >> 2) - rank) <= 2:
            bonus += 3.0 if abs((y >> 2) - rank) == 1 else 1.5
    return bonus
