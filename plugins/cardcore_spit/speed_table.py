"""Speed's state and rules engine (:class:`SpeedState`, :class:`SpeedLogic`).

Speed shares Spit's real-time model and adjacency (SPEED-PLAY-1): no turns,
both seats in ``to_act``; refills, side-card turns, recycles and the stalemate
end happen inside :meth:`SpeedLogic.apply`.

Zones: ``hand.<seat>`` (private to its owner), ``stock.<seat>`` and
``side.<seat>`` (face down, known to nobody), ``pile.L`` and ``pile.R`` (the
play piles, face up).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardcore.actions import Action
from cardcore.cards import Card
from cardcore.deck import shuffle, standard_52, with_jokers
from cardcore.errors import NotationError
from cardcore.events import CardDrawn, CardMoved
from cardcore.logic import Emit, GameLogic
from cardcore.state import GameState, Result
from cardcore.zones import ALL, Layout, Visibility, Zones, ZoneSpec
from cardcore_spit import logic
from cardcore_spit.actions import SIDES, PlayCard, Stuck
from cardcore_spit.events import CardSpat, CentreRecycled

if TYPE_CHECKING:
    from cardcore.plugins import Ruleset

__all__ = ["SpeedLogic", "SpeedState"]

SEATS = (0, 1)
HAND = 5
ACTION_BOUND = 10_000


class SpeedState(GameState):
    """The table of one Speed game (mutable, slotted).

    :ivar requests: Per seat, an outstanding ``stuck`` declaration.
    :ivar recycled: A recycle happened and no card was played since.
    """

    __slots__ = ("recycled", "requests")
    _mutable = ("zones", "requests")  # every other slot holds an immutable value

    def __init__(self, players: int, options: Mapping[str, Any], zones: Zones) -> None:
        super().__init__(players, options, zones)
        self.requests = [False, False]
        self.recycled = False


class SpeedLogic(GameLogic):
    """The rules engine of one Speed configuration (shared, stateless).

    :param ruleset: The configuration.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.adj = logic.adjacency_table(logic.BASE_GAPS)
        specs = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in SEATS]
        specs += [ZoneSpec(f"stock.{s}", s, Visibility.NOBODY) for s in SEATS]
        specs += [ZoneSpec(f"side.{s}", s, Visibility.NOBODY) for s in SEATS]
        specs += [ZoneSpec(f"pile.{side}", None, Visibility.EVERYONE) for side in SIDES]
        self.layout = Layout.of(specs)
        self.names = tuple(spec.name for spec in specs)
        self.hand = tuple(self.layout.id(f"hand.{s}") for s in SEATS)
        self.stock = tuple(self.layout.id(f"stock.{s}") for s in SEATS)
        self.side = tuple(self.layout.id(f"side.{s}") for s in SEATS)
        self.pile = tuple(self.layout.id(f"pile.{side}") for side in SIDES)
        every = with_jokers(standard_52(), 2)
        self.plays: tuple[dict[tuple[Card, int], PlayCard], ...] = tuple(
            {(card, p): PlayCard(s, card, p) for card in every for p in (0, 1)} for s in SEATS
        )
        self.stucks = tuple(Stuck(s) for s in SEATS)

    # -- set-up -------------------------------------------------------------------------

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        """Return the action bound (SPEED-CAP-1)."""
        return ACTION_BOUND

    def deck(self, players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        """One 52-card deck plus ``options["jokers"]`` jokers (SPEED-GEN-1/2)."""
        return with_jokers(standard_52(), int(options["jokers"]))

    def new_state(self, players: int, options: Mapping[str, Any], cards: list[Card], seed: int) -> SpeedState:
        """Deal as SPEED-SETUP-1/2/3 describe and turn up the play piles (SPEED-PLAY-1)."""
        state = SpeedState(players, options, Zones(self.layout))
        state.seed = seed
        zones = state.zones
        deck = cards[::-1]  # top first
        hand, stock, side = logic.speed_deal_sizes(int(options["side_pile"]), int(options["jokers"]))
        for s in SEATS:
            zones.put(self.pile[s], deck[s], ALL)
        pos = 2
        for s in SEATS:
            part = deck[pos : pos + side]
            pos += side
            for card in reversed(part):  # the first dealt ends on top
                zones.put(self.side[s], card)
        own = [deck[pos::2], deck[pos + 1 :: 2]]
        for s in SEATS:
            mine = own[s][: hand + stock]
            for card in mine[:hand]:
                zones.put(self.hand[s], card)
            for card in reversed(mine[hand:]):
                zones.put(self.stock[s], card)
        state.to_act = SEATS
        self._settle(state, None)
        return state

    # -- legality -----------------------------------------------------------------------

    def legal_actions(self, state: GameState, seat: int) -> tuple[Action, ...]:
        """Return *seat*'s legal actions: plays in hand order (each onto L, then R), then ``stuck``."""
        assert isinstance(state, SpeedState)
        if seat not in state.to_act:
            return ()
        out: list[Action] = self._plays(state, seat)
        if not state.requests[seat]:
            out.append(self.stucks[seat])
        return tuple(out)

    def _plays(self, state: SpeedState, seat: int) -> list[Action]:
        cards = state.zones.cards
        adj = self.adj
        targets = [cards[z][-1].rank for z in self.pile]
        plays = self.plays[seat]
        out: list[Action] = []
        done: set[Card] = set()
        for card in cards[self.hand[seat]]:
            if card in done:
                continue
            done.add(card)
            row = adj[card.rank]
            for p in (0, 1):
                if row[targets[p]]:
                    out.append(plays[card, p])
        return out

    def rule_for(self, state: GameState, action: Action) -> tuple[str, str]:
        """Return the rule that forbids *action* now, with a reason."""
        assert isinstance(state, SpeedState)
        if isinstance(action, Stuck):
            return "SPEED-STUCK-1", f"seat {action.seat} has already declared it is stuck"
        if isinstance(action, PlayCard):
            if action.card not in state.zones.cards[self.hand[action.seat]]:
                return "SPEED-PLAY-1", f"{action.card} is not in seat {action.seat}'s hand"
            top = state.zones.cards[self.pile[action.target]][-1]
            if top.rank == action.card.rank:
                return "SPIT-MOVE-4", f"{action.card} has the same rank as {top}"
            return "SPIT-MOVE-2", f"{action.card} is not next to {top} in rank"
        return "SPEED-PLAY-1", f"{action!s} is not a speed action of seat {action.seat}"

    def parse_action(self, state: GameState, seat: int, text: str) -> Action:
        """Read SPEED-NOTE-1 notation; raise :class:`NotationError` when malformed."""
        if seat not in SEATS:
            raise self.parse_error(text, "a seat 0 or 1", "SPEED-NOTE-1")
        words = text.split()
        verb = words[0].lower() if words else ""
        if len(words) == 1 and verb == "stuck":
            return self.stucks[seat]
        if len(words) == 3 and verb == "play":
            try:
                card = Card.parse(words[1])
            except NotationError:
                msg = f"cannot read {text!r}: {words[1]!r} is not a card (SPEED-NOTE-1)"
                raise NotationError(msg) from None
            side = words[2].upper()
            if side not in SIDES:
                msg = f"cannot read {text!r}: expected L or R, not {words[2]!r} (SPEED-NOTE-1)"
                raise NotationError(msg)
            p = SIDES.index(side)
            return self.plays[seat].get((card, p)) or PlayCard(seat, card, p)
        raise self.parse_error(text, "'play <card> L|R' or 'stuck'", "SPEED-NOTE-1")

    # -- applying -------------------------------------------------------------------------

    def apply(self, state: GameState, action: Action, emit: Emit | None) -> None:
        """Apply a legal *action* and every automatic step it triggers."""
        assert isinstance(state, SpeedState)
        seat = action.seat
        if type(action) is Stuck:
            state.requests[seat] = True
            self._settle(state, emit)
            return
        assert isinstance(action, PlayCard)
        zones = state.zones
        hand = self.hand[seat]
        index = zones.cards[hand].index(action.card)
        dst = self.pile[action.target]
        zones.move(hand, dst, index, mask=ALL)
        if emit is not None:
            emit(CardMoved(seat, self.names[hand], self.names[dst], action.card))
        state.requests[0] = state.requests[1] = False
        state.recycled = False
        stock = self.stock[seat]
        while len(zones.cards[hand]) < HAND and zones.cards[stock]:  # SPEED-PLAY-2
            card = zones.move(stock, hand, mask=0)
            if emit is not None:
                emit(CardDrawn(seat, self.names[stock], card, visible_to=1 << seat))
        if not zones.cards[hand]:  # SPEED-END-1 (the stock is empty too)
            self._finish(state, (seat,), "out of cards")
            return
        self._settle(state, emit)

    def _settle(self, state: SpeedState, emit: Emit | None) -> None:
        """Turn side cards while SPEED-STUCK-1 calls for it."""
        zones = state.zones
        cards = zones.cards
        while True:
            # SPEED-STUCK-4: only requests count; testing the hands would tell each
            # player whether the other holds a playable card
            if not (state.requests[0] and state.requests[1]):
                state.to_act = SEATS  # a seat with no play still "may act": to_act must not reveal its hand
                return
            if not (cards[self.side[0]] or cards[self.side[1]] or self._recycle(state, emit)):
                return
            for s in SEATS:  # SPEED-STUCK-1/3
                if cards[self.side[s]]:
                    card = zones.move(self.side[s], self.pile[s], mask=ALL)
                    if emit is not None:
                        emit(CardSpat(s, card, SIDES[s]))
            state.requests[0] = state.requests[1] = False

    def _recycle(self, state: SpeedState, emit: Emit | None) -> bool:
        """SPEED-STUCK-2, or the stalemate end (SPEED-END-2); ``False`` if the game ended."""
        zones = state.zones
        cards = zones.cards
        if state.recycled:
            self._stalemate(state)
            return False
        counts = [0, 0]
        for s in SEATS:
            z = self.pile[s]
            under = cards[z][:-1]
            cards[z] = cards[z][-1:]
            zones.seen[z] = [ALL]
            shuffle(under, state.rng())
            cards[self.side[s]] = under
            zones.seen[self.side[s]] = [0] * len(under)
            counts[s] = len(under)
        if not any(counts):
            self._stalemate(state)
            return False
        state.recycled = True
        if emit is not None:
            emit(CentreRecycled(tuple(counts)))
        return True

    def _stalemate(self, state: SpeedState) -> None:
        held = self.scores(state)
        best = min(held)
        self._finish(state, tuple(s for s in SEATS if held[s] == best), "stalemate")

    def _finish(self, state: SpeedState, winners: tuple[int, ...], reason: str) -> None:
        state.is_over = True
        state.to_act = ()
        state.result = Result(winners, self.scores(state), None, reason)

    # -- views ------------------------------------------------------------------------------

    def table(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """Return the game's part of a view (SPEED-VIEW-1): a hand only to its owner."""
        assert isinstance(state, SpeedState)
        zones = state.zones
        return {
            "piles": {SIDES[p]: zones.show(self.pile[p], seat) for p in (0, 1)},
            "seats": [
                {
                    "hand": zones.show(self.hand[s], seat),
                    "stock": zones.count(self.stock[s]),
                    "side": zones.count(self.side[s]),
                    "requested": state.requests[s],
                }
                for s in SEATS
            ],
        }

    def scores(self, state: GameState) -> tuple[float, ...]:
        """Cards each seat still holds in hand and stock (fewer is better)."""
        zones = state.zones
        return tuple(float(zones.count(self.hand[s]) + zones.count(self.stock[s])) for s in SEATS)

    def standings(self, state: GameState) -> tuple[int, ...]:
        """The seats holding the fewest cards."""
        held = self.scores(state)
        return tuple(s for s in SEATS if held[s] == min(held))
