"""Speed's rules engine: :class:`SpeedLogic`.

Speed shares Spit's real-time model and adjacency (SPEED-PLAY-1): no turns,
both seats in ``to_act``; refills, side-card turns, recycles and the stalemate
end happen inside :meth:`SpeedLogic.apply`. None of them is a seat's action,
so house-rule vetoes (applied by the core to ``legal_actions``) never touch them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from typing_extensions import override

from cardcore import (
    ALL,
    Card,
    CardDrawn,
    CardMoved,
    CardRevealed,
    CardsDealt,
    Emit,
    GameLogic,
    OptionError,
    Result,
    Ruleset,
    Zones,
    shuffle,
    standard_52,
    with_jokers,
)
from cardcore_spit import piles
from cardcore_spit.actions import SIDES
from cardcore_spit.events import CardSpat, CentreRecycled
from cardcore_spit.speed import encoding, position, search, timeouts, views
from cardcore_spit.speed.actions import PlayCard, SpeedAction, SpeedActionSet, Stuck, malformed
from cardcore_spit.speed.state import (
    HAND,
    HAND_SIZE,
    NAMES,
    PILE,
    SEATS,
    SIDE,
    STOCK,
    TABLE_LAYOUT,
    SpeedState,
)

__all__ = ["ACTION_BOUND", "SpeedLogic"]

ACTION_BOUND = 10_000
"""The most actions a Speed game may take before runners call it truncated (SPEED-CAP-1)."""


class SpeedLogic(GameLogic[SpeedState, SpeedAction]):
    """The rules engine of one Speed configuration (shared, stateless).

    :param ruleset: The configuration.
    """

    rl_encoding = encoding.SpeedEncoding  # cardcore.rl's fixed action indices and observation

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.adj = piles.adjacency_table(piles.BASE_GAPS)
        """``adj[card rank][pile rank]``: whether the play is allowed (jokers wild)."""
        self.layout = TABLE_LAYOUT
        self.names = NAMES
        self.hand = HAND
        self.stock = STOCK
        self.side = SIDE
        self.pile = PILE
        interned = self.interned = SpeedActionSet()
        """Every action, built once, with their notation parser."""
        self.plays = interned.plays
        self.stucks = interned.stucks
        # the plays of each card by the card's identity (cards are interned): no hashing per decision
        self.pairs: tuple[dict[int, tuple[PlayCard, PlayCard]], ...] = tuple(
            {id(card): (plays[card, 0], plays[card, 1]) for card, _ in plays}
            for plays in interned.plays
        )
        self.fits = tuple(sum(1 << r for r in range(14) if self.adj[r][t]) for t in range(14))
        """``fits[pile rank]``: bit ``r`` set for each card rank that may be played on it."""
        detect = ruleset.resolve("speed_stuck_detection")
        self.detect = self.checked_answer(
            "speed_stuck_detection", True if detect is None else detect(), bool
        )
        """Whether the side cards turn as soon as neither player can play (SPEED-STUCK-1),
        not only when both declare ``stuck`` (``False``: a house rule's answer)."""

    # -- set-up -------------------------------------------------------------------------

    @override
    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        """Return the action bound (SPEED-CAP-1)."""
        return ACTION_BOUND

    @override
    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        """The seats, and one standard deck with ``jokers`` jokers (SPEED-GEN-1/2)."""
        super().validate(players, options)
        self.require_deck(players, options, with_jokers(standard_52(), int(options["jokers"])))

    @override
    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> SpeedState:
        """Deal as SPEED-SETUP-1/2/3 describe and turn up the play piles (SPEED-PLAY-1)."""
        state = SpeedState(players, options, Zones(self.layout))
        state.seed = seed
        # whole piles at once, with the masks Zones.put would give (face up; the owner's hand)
        pile_cards = state.zones.cards
        pile_seen = state.zones.seen
        deck = cards[::-1]  # top first
        hand, stock, side = piles.speed_deal_sizes(
            int(options["side_pile"]), int(options["jokers"])
        )
        for s in SEATS:
            pile_cards[self.pile[s]] = [deck[s]]
            pile_seen[self.pile[s]] = [ALL]
        pos = 2
        for s in SEATS:
            part = deck[pos : pos + side]
            pos += side
            part.reverse()  # the first dealt ends on top
            pile_cards[self.side[s]] = part
            pile_seen[self.side[s]] = [0] * len(part)
        own = [deck[pos::2], deck[pos + 1 :: 2]]
        for s in SEATS:
            mine = own[s][: hand + stock]
            held = mine[:hand]
            pile_cards[self.hand[s]] = held
            pile_seen[self.hand[s]] = [1 << s] * len(held)
            rest = mine[hand:]
            rest.reverse()
            pile_cards[self.stock[s]] = rest
            pile_seen[self.stock[s]] = [0] * len(rest)
        state.to_act = SEATS
        state.draws = 1  # draw 0 shuffled the deck; a recycle at the start draws 1
        if emit is not None:
            # each player's own cards (hand and stock): side piles are centre piles (SPEED-SETUP-1)
            emit(CardsDealt(tuple(len(own[s][: hand + stock]) for s in SEATS)))
            for p in (0, 1):
                emit(CardRevealed(None, self.names[self.pile[p]], 0, deck[p]))
        if self.detect and self._nobody_can_play(state, 0):
            self._settle(state, emit)  # SPEED-STUCK-1: nobody can play on the first cards
        return state

    # -- legality -----------------------------------------------------------------------

    @override
    def legal_actions(self, state: SpeedState, seat: int) -> tuple[SpeedAction, ...]:
        """Return *seat*'s legal actions: plays in the order the hand was filled (the
        oldest card first: the reverse of a view, which lists the hand newest first), each
        onto L, then R; then ``stuck``."""
        if seat not in state.to_act:
            return ()
        cards = state.zones.cards
        adj = self.adj
        left = cards[self.pile[0]][-1].rank
        right = cards[self.pile[1]][-1].rank
        pairs = self.pairs[seat]
        out: list[SpeedAction] = []
        joker = False
        for card in cards[self.hand[seat]]:  # bottom (oldest) first: views show the reverse
            rank = card.rank
            if not rank:  # only the jokers can come twice (SPEED-GEN-1)
                if joker:
                    continue
                joker = True
            row = adj[rank]
            if row[left] or row[right]:
                pair = pairs.get(id(card))
                if pair is None:  # a card built outside the interned deck
                    pair = (self.plays[seat][card, 0], self.plays[seat][card, 1])
                if row[left]:
                    out.append(pair[0])
                if row[right]:
                    out.append(pair[1])
        if not state.requests[seat]:
            out.append(self.stucks[seat])
        return tuple(out)

    @override
    def is_legal(self, state: SpeedState, action: SpeedAction) -> bool:
        """Whether *action* is one of ``legal_actions(state, action.seat)``, from the card and
        the pile it touches.

        Only exact types are judged: an int seat and target and a :class:`~cardcore.Card`
        (what ``legal_actions`` and ``parse_action`` hand out). Anything else (an int
        subclass, a float, a card as text, a subclass of the action) is ``False``, even if
        it compares equal to a legal action: the core applies and records the object it is
        given, so its notation must be the legal action's.
        """
        seat = action.seat
        if type(seat) is not int or seat not in state.to_act:
            return False
        if type(action) is Stuck:
            return not state.requests[seat]
        if type(action) is not PlayCard:
            return False
        target = action.target
        card = action.card
        if type(target) is not int or type(card) is not Card or not 0 <= target <= 1:
            return False
        cards = state.zones.cards
        return (
            card in cards[self.hand[seat]]
            and self.adj[card.rank][cards[self.pile[target]][-1].rank]
        )

    @override
    def default_action(self, state: SpeedState, seat: int) -> SpeedAction | None:
        """On an idle timeout: ``stuck``, once (see ``cardcore_spit.speed.timeouts``)."""
        return timeouts.timeout_action(self.legal_actions(state, seat))

    @override
    def rule_for(self, state: SpeedState, action: SpeedAction) -> tuple[str, str]:
        """Return the rule that forbids *action* now, with a reason."""
        if type(action) is Stuck:
            return "SPEED-STUCK-1", f"seat {action.seat} has already declared it is stuck"
        if type(action) is PlayCard:
            why = malformed(action)
            if why is not None:  # a hand-built play (a target of -1, a card as text)
                return "CORE-ACTION-1", f"malformed action: {why}"
            if action.card not in state.zones.cards[self.hand[action.seat]]:
                return "SPEED-PLAY-1", f"{action.card} is not in seat {action.seat}'s hand"
            top = state.zones.cards[self.pile[action.target]][-1]
            if top.rank == action.card.rank:
                return "SPIT-MOVE-4", f"{action.card} has the same rank as {top}"
            return "SPIT-MOVE-2", f"{action.card} is not next to {top} in rank"
        return "SPEED-PLAY-1", f"{action!s} is not a speed action of seat {action.seat}"

    @override
    def parse_action(self, state: SpeedState, seat: int, text: str) -> SpeedAction:
        """Read SPEED-NOTE-1 notation; raise :class:`~cardcore.NotationError` when malformed.

        Well-formed but illegal text parses; the core then rejects it.
        """
        return self.interned.parse(seat, text)

    # -- applying -------------------------------------------------------------------------

    @override
    def apply(self, state: SpeedState, action: SpeedAction, emit: Emit | None) -> None:
        """Apply a legal *action* and every automatic step it triggers."""
        seat = action.seat
        if type(action) is Stuck:
            state.requests[seat] = True
            self._settle(state, emit)
            return
        if type(action) is not PlayCard:  # pragma: no cover - the core passes legal actions only
            msg = f"not a speed action: {action!r}"
            raise TypeError(msg)
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
        while len(zones.cards[hand]) < HAND_SIZE and zones.cards[stock]:  # SPEED-PLAY-2
            card = zones.move(stock, hand, mask=0)
            if emit is not None:
                emit(CardDrawn(seat, self.names[stock], card, visible_to=1 << seat))
        if not zones.cards[hand]:  # SPEED-END-1 (the stock is empty too)
            self._finish(state, (seat,), "out of cards")
            return
        state.to_act = SEATS
        # a play clears both requests: a side card is due only if nobody can play (SPEED-STUCK-1)
        if self.detect and self._nobody_can_play(state, seat):
            self._settle(state, emit)

    def _nobody_can_play(self, state: SpeedState, first: int) -> bool:
        """Whether no card in either hand fits either play pile (SPIT-MOVE-2/3/4, jokers
        wild); *first* is the hand looked at first (the seat that just played)."""
        cards = state.zones.cards
        fits = self.fits
        ranks = fits[cards[self.pile[0]][-1].rank] | fits[cards[self.pile[1]][-1].rank]
        for card in cards[self.hand[first]]:
            if ranks >> card.rank & 1:
                return False
        for card in cards[self.hand[1 - first]]:  # noqa: SIM110 (a loop: any() measured 3% slower)
            if ranks >> card.rank & 1:
                return False
        return True

    def _settle(self, state: SpeedState, emit: Emit | None) -> None:
        """Turn side cards while SPEED-STUCK-1 calls for it: both declared ``stuck``, or
        (unless a house rule said otherwise) neither player can play."""
        zones = state.zones
        cards = zones.cards
        detect = self.detect
        while True:
            if not (state.requests[0] and state.requests[1]) and not (
                detect and self._nobody_can_play(state, 0)
            ):
                state.to_act = SEATS  # a seat with no play still "may act" (``stuck``)
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

    # -- positions ----------------------------------------------------------------------------
    position_from_view = search.position_from_view  # the search hook: cardcore_spit.speed.search

    @override
    def write_position(self, state: SpeedState) -> str:
        """Write *state* in Speed's position notation (see :mod:`cardcore_spit.speed.position`)."""
        return position.write(state)

    @override
    def read_position(self, text: str, players: int, options: Mapping[str, Any]) -> SpeedState:
        """Read and validate a position written by :meth:`write_position`; one in which
        nobody can play is refused, as side cards are due in it (SPEED-STUCK-1)."""
        state = position.read(self.deck(players, options), text, players, options)
        self.check_position(state)
        return state

    @override
    def check_position(self, state: SpeedState) -> None:
        """Refuse a state in which nobody can play: side cards are due in it (SPEED-STUCK-1).
        So :meth:`cardcore.Game.determinize` never deals a seat such a world either."""
        if self.detect and self._nobody_can_play(state, 0):
            msg = (
                "bad position: no card in either hand fits a play pile, so side cards are"
                " due and nobody may act (SPEED-STUCK-1)"
            )
            raise OptionError(msg)

    # -- views ------------------------------------------------------------------------------

    @override
    def table(self, state: SpeedState, seat: int | None) -> dict[str, Any]:
        """Return the game's part of a view (SPEED-VIEW-1; see :mod:`cardcore_spit.speed.views`)."""
        return views.table(state, seat)

    @override
    def scores(self, state: SpeedState) -> tuple[float, ...]:
        """Cards each seat still holds in hand and stock (fewer is better)."""
        return tuple(float(views.held(state, s)) for s in SEATS)

    @override
    def standings(self, state: SpeedState) -> tuple[int, ...]:
        """The seats holding the fewest cards."""
        held = self.scores(state)
        return tuple(s for s in SEATS if held[s] == min(held))
