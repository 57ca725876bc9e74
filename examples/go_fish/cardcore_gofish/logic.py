"""The engine of Go Fish: deal, legal asks, their effects and the end (rules in ``RULES.md``).

A game this small keeps its view (:meth:`GoFishLogic.table`) and the rules of
its positions (:meth:`GoFishLogic.check_position`) here. Its position notation
is the core's default: ``to_act`` and ``asked`` (one rank mask per seat, bit
*i* for rank *i* of ``A 2 ... K``), ``result`` once the game is over, then the
piles, every card with who knows it::

    gofish to_act=[0] asked=[0,2048] | stock: 5H 9C ... | hand.0: AS@0 ... | books.0: 7S! 7H! ...
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Any

from cardcore import ALL, Card, CardDrawn, CardMoved, CardsDealt, Emit, GameLogic, TurnPassed, Zones
from cardcore.dealing import deal_round_robin, draw_card, fill_stock
from cardcore.errors import CardcoreError
from cardcore.positions import check
from cardcore.turns import end_game, next_seat, winners_by
from cardcore_gofish.actions import BIT, RANKS, Ask
from cardcore_gofish.state import STOCK, GoFishState, book_counts, books, hand, layout

ask = cache(Ask)
"""Build each action once: ``ask(seat, target, rank)`` returns the interned :class:`Ask`."""


class GoFishLogic(GameLogic[GoFishState, Ask]):
    """Go Fish for 2 to 6 players; one logic serves every game of a configuration."""

    action_types = (Ask,)  # the default parser reads "ask <seat> <rank>"
    position_fields = ("to_act", "asked")  # the default position notation writes these slots
    max_legal = 65  # 13 ranks asked of each of 5 others: the size of cardcore.rl's action space

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 1000  # random play ends within 200; only wrong guesses with an empty stock go on

    def blank_state(self, players: int, options: Mapping[str, Any]) -> GoFishState:
        """An empty table: the piles of *players* seats, nothing asked yet."""
        state = GoFishState(players, options, Zones(layout(players)))
        state.asked = [0] * players
        return state

    def new_state(self, players: int, options: Mapping[str, Any], cards: list[Card], seed: int,
                  emit: Emit | None) -> GoFishState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)  # GOFISH-DEAL-1: 7 cards each to 2 or 3 players, else 5
        deal_round_robin(state, STOCK, [hand(s) for s in range(players)], 7 if players < 4 else 5)
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(players))))
        for seat in range(players):
            self._settle(state, seat, emit)
        return state

    def legal_actions(self, state: GoFishState, seat: int) -> tuple[Ask, ...]:
        """Asks by target seat, then rank low to high (GOFISH-ASK-1, GOFISH-ASK-2)."""
        cards = state.zones.cards
        ranks = sorted({c.rank for c in cards[hand(seat)]})
        others = [t for t in range(state.players) if t != seat and cards[hand(t)]]
        return tuple(ask(seat, t, r.label) for t in others for r in ranks)

    def rule_for(self, state: GoFishState, action: Ask) -> tuple[str, str]:
        seat, rank = action.seat, action.rank.upper()
        if not any(c.label == rank for c in state.zones.cards[hand(seat)]):
            return "GOFISH-ASK-1", f"seat {seat} may ask for a rank it holds, not {action.rank!r}"
        return "GOFISH-ASK-2", f"seat {seat} may ask another seat with cards, not {action.target}"

    def apply(self, state: GoFishState, action: Ask, emit: Emit | None) -> None:
        seat, target, rank = action.seat, action.target, action.rank
        z, players = state.zones, state.players
        state.asked[seat] |= BIT[rank]  # GOFISH-KNOW-1: everyone now knows the asker holds the rank
        state.asked[target] &= ~BIT[rank]  # and that the asked seat holds none after this
        given = [i for i, c in enumerate(z.cards[hand(target)]) if c.label == rank]
        for i in reversed(given):  # GOFISH-GIVE-1: every card of the rank, shown to all
            card = z.move(hand(target), hand(seat), i, mask=ALL)
            if emit is not None:
                emit(CardMoved(target, f"hand.{target}", f"hand.{seat}", card))
        again = bool(given)
        if not given and (drawn := draw_card(state, STOCK, hand(seat))):  # GOFISH-FISH-1: go fish
            again = drawn.label == rank  # drew the rank asked for: show it and go again
            if again:
                z.seen[hand(seat)][-1] = ALL
            if emit is not None:
                emit(CardDrawn(seat, "stock", drawn, visible_to=ALL if again else 1 << seat))
        self._settle(state, target, emit)
        self._settle(state, seat, emit)
        empty = {s for s in range(players) if not z.cards[hand(s)]}
        if len(empty) == players:  # GOFISH-END-1: all books are down; most books wins, ties share
            made = self.score_round(state, book_counts(state))
            end_game(state, winners_by(made, lowest=False), made, "all books made")
        elif not again or seat in empty:  # GOFISH-TURN-1
            state.to_act = (nxt := next_seat(seat, players, skip=empty),)
            if emit is not None and nxt != seat:
                emit(TurnPassed(nxt))

    def _settle(self, state: GoFishState, seat: int, emit: Emit | None) -> None:
        """Lay down *seat*'s books (GOFISH-BOOK-1); refill an empty hand (GOFISH-EMPTY-1)."""
        z, src, dst = state.zones, hand(seat), books(seat, state.players)
        for rank in [r for r, n in Counter(c.label for c in z.cards[src]).items() if n == 4]:
            state.asked[seat] &= ~BIT[rank]
            for i in reversed([i for i, c in enumerate(z.cards[src]) if c.label == rank]):
                card = z.move(src, dst, i)
                if emit is not None:
                    emit(CardMoved(seat, f"hand.{seat}", f"books.{seat}", card))
        if not z.cards[src] and z.cards[STOCK]:
            card = z.move(STOCK, src)
            if emit is not None:
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))

    def position_from_view(self, view: Mapping[str, Any], zones: Zones) -> str:
        """For search agents: the view's ``asked`` words as masks, each hand holding what it
        asked for (GOFISH-KNOW-1): a hidden card of that rank is swapped in from elsewhere."""
        state = self.blank_state(len(view["players"]), view["options"])
        state.zones, state.to_act = zones, tuple(view["to_act"])
        asked = view["table"]["asked"]
        if not (isinstance(asked, list) and all(
                isinstance(w, list) and all(type(r) is str and r in BIT for r in w)
                and len(set(w)) == len(w) for w in asked)):
            raise CardcoreError(f"not a gofish view: 'asked' must list rank words per seat, not {asked!r:.80}")
        state.asked = [sum(BIT[r] for r in words) for words in asked]
        consistent(state, [[i for i, c in enumerate(reversed(z["cards"])) if c is None] for z in view["zones"]])
        return self.write_position(state)

    def scores(self, state: GoFishState) -> tuple[float, ...]:
        return tuple(map(float, book_counts(state)))

    def table(self, state: GoFishState, seat: int | None) -> dict[str, Any]:
        """The fields of ``GAME.fields`` as every seat and spectator sees them: none is secret."""
        asked = [[r for r in RANKS if mask & BIT[r]] for mask in state.asked]
        return {"stock": len(state.zones.cards[STOCK]), "books": book_counts(state), "asked": asked}

    def check_position(self, state: GoFishState) -> None:
        """Refuse what the rules forbid (the core checked the cards, fields and ``to_act``)."""
        cards, seen, players, to_act = state.zones.cards, state.zones.seen, state.players, state.to_act
        check(state.is_over or (len(to_act) == 1 and cards[hand(to_act[0])]),
              "to_act must be one seat holding cards, not {}", list(to_act))
        # the core checks each card is there once, not who knows it: a known stock card shows
        check(not any(seen[STOCK]), "stock cards are face down: nobody may know them (GOFISH-FISH-1)")
        for s in range(players):
            held = [c.rank for c in cards[hand(s)]]
            laid = [c.rank for c in cards[books(s, players)]]
            check(not state.asked[s] & ~sum({1 << (r - 1) for r in held}),  # bit i: rank i + 1
                  "asked[{0}] must name ranks hand.{0} holds (GOFISH-KNOW-1)", s)
            check(laid == [r for r in laid[::4] for _ in range(4)],
                  "books.{} must hold whole books of one rank (GOFISH-BOOK-1)", s)
            check(max(map(held.count, {*held}), default=0) < 4,
                  "hand.{} holds a book it must lay down (GOFISH-BOOK-1)", s)
            check(held or not cards[STOCK], "hand.{} is empty, the stock not (GOFISH-EMPTY-1)", s)


def consistent(state: GoFishState, hidden: list[list[int]]) -> None:
    """Swap hidden cards (*hidden*: per pile, the indices of its cards a seat cannot see) so
    that each hand holds what it asked for (GOFISH-KNOW-1) and no book (GOFISH-BOOK-1)."""
    cards = state.zones.cards

    def spare(z: int, i: int) -> bool:  # may this hidden card leave its pile?
        s, rank = z - 1, cards[z][i].label
        needed = 0 <= s < state.players and state.asked[s] & BIT[rank]
        return not needed or sum(c.label == rank for c in cards[z]) > 1

    for s, mask in enumerate(state.asked):
        for rank in (r for r in RANKS if mask & BIT[r]):
            h = hand(s)
            if any(c.label == rank for c in cards[h]):
                continue
            give = [(z, i) for z in range(len(cards)) if z != h for i in hidden[z]
                    if cards[z][i].label == rank and spare(z, i)]
            take = [i for i in hidden[h] if spare(h, i)]
            if give and take:
                (z, i), j = give[0], take[0]
                cards[z][i], cards[h][j] = cards[h][j], cards[z][i]
    for h in map(hand, range(state.players)):  # a hand never holds a book (GOFISH-BOOK-1)
        for j in [j for j in hidden[h] if sum(c.label == cards[h][j].label for c in cards[h]) > 3]:
            rank = cards[h][j].label
            if sum(c.label == rank for c in cards[h]) < 4:
                continue  # another card of this book left already
            swap = [(z, i) for z in range(len(cards)) if z != h for i in hidden[z] if spare(z, i)
                    and sum(c.label == cards[z][i].label for c in cards[h]) < 3
                    and (z == STOCK or sum(c.label == rank for c in cards[z]) < 3)]
            if swap:
                (z, i) = swap[0]
                cards[z][i], cards[h][j] = cards[h][j], cards[z][i]
