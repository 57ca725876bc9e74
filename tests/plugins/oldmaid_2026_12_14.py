"""Old Maid, written from cardcore's docs alone by a first-time plugin author (2026-12-14).

Registered in place with ``cardcore.register("cardcore.games", NAME, module)``. Rules:

* OLDMAID-SEAT-1: 2 to 6 players.
* OLDMAID-DECK-1: one 52-card deck less the queen of clubs (51 cards); the odd queen left
  at the end is the "old maid". (Decision: the removed card is always ``QC``, so the
  deck is fixed; the house rule ``oldmaid-2026-12-14.odd-rank`` removes another rank's
  club instead.)
* OLDMAID-DEAL-1: the whole deck is dealt one card at a time from seat 0 (51 cards to
  three seats: 17 each; to two: 26 and 25); each hand is in the deck's (hidden) order.
* OLDMAID-PAIR-1: a hand never holds two cards of one rank: at the deal every seat lays
  down every pair it holds at once, face up, on its ``pairs`` pile (decision: automatic,
  all seats at the deal; of three of a rank, the two nearest the top of the hand go);
  a drawn card that matches a card in hand goes down with it at once.
* OLDMAID-DRAW-1: in turn, the seat to act draws one card from the hand of the next seat
  to its left (seat + 1, + 2, ...) that still holds cards, naming a position in that hand
  as its owner holds it, top first (``draw 3``), without seeing it.
* OLDMAID-KNOW-1: the drawn card is shown to the drawer and known to the seat it was
  taken from (which knows its own hand's order) until it leaves that hand; nobody else
  learns it unless it is paired. The view's ``known`` field lists, per seat, the cards
  of that seat's hand the viewer knows.
* OLDMAID-MIX-1: the drawn card goes into the drawer's hand at a random place (the
  drawer mixes its hand), so the position of a card in a hand never tells another seat
  which card it is. (Decision: automatic, no ``shuffle`` action.)
* OLDMAID-TURN-1: the turn then passes to the next seat to the drawer's left that holds
  cards; a seat without cards is out and is skipped.
* OLDMAID-END-1: when only one seat holds cards (the old maid alone), it loses; every
  other seat wins. Score: 1 point for the loser, 0 for the others (lowest wins), passed
  through ``score_round``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    ALL,
    Action,
    Card,
    CardDrawn,
    CardMoved,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    decks,
    hookimpl,
    shuffle,
)
from cardcore.dealing import deal_all, fill_stock
from cardcore.errors import CardcoreError
from cardcore.positions import check
from cardcore.turns import end_game, next_seat, winners_by

NAME = "oldmaid-2026-12-14"
RULES_MD = __doc__
STOCK = 0


def hand(seat: int) -> int:
    """The zone id of *seat*'s hand (its owner sees it)."""
    return 1 + seat


def pairs(seat: int, players: int) -> int:
    """The zone id of *seat*'s pairs, face up."""
    return 1 + players + seat


@cache
def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    laid = [ZoneSpec(f"pairs.{s}", s, Visibility.EVERYONE) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), *hands, *laid])


@frozen
class Draw(Action):
    """Seat *seat* draws the card at *index* (top first) of the next holding seat's hand."""

    index: int
    verb: ClassVar[str] = "draw"

    def notation(self) -> str:
        return f"draw {self.index}"


draw = cache(Draw)


class OldMaidState(GameState):
    """The cards and the seat to act; every rule's state lives in the piles."""

    __slots__ = ()


def holders(state: GameState) -> list[int]:
    return [s for s in range(state.players) if state.zones.cards[hand(s)]]


def target(state: GameState, seat: int) -> int:
    """The seat *seat* draws from: the next one to its left that holds cards."""
    empty = {s for s in range(state.players) if s != seat and not state.zones.cards[hand(s)]}
    return next_seat(seat, state.players, skip=empty)


class OldMaidLogic(GameLogic[OldMaidState, Draw]):
    action_types = (Draw,)
    position_fields = ("to_act",)
    max_legal = 26

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 20000  # random play ends within a few hundred draws

    def blank_state(self, players: int, options: Mapping[str, Any]) -> OldMaidState:
        return OldMaidState(players, options, Zones(layout(players)))

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> OldMaidState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_all(state, STOCK, [hand(s) for s in range(players)])  # OLDMAID-DEAL-1
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(players))))
        for seat in range(players):  # OLDMAID-PAIR-1 at the deal
            self._lay_pairs(state, seat, emit)
        self._next(state, players - 1)
        return state

    def _lay_pairs(self, state: OldMaidState, seat: int, emit: Emit | None) -> None:
        z, src, dst = state.zones, hand(seat), pairs(seat, state.players)
        while True:
            cards = z.cards[src]
            counts = Counter(c.rank for c in cards)
            rank = next((r for r, n in counts.items() if n >= 2), None)
            if rank is None:
                return
            top = [i for i in range(len(cards) - 1, -1, -1) if cards[i].rank == rank][:2]
            for i in top:  # descending indices: the first move leaves the second in place
                card = z.move(src, dst, i, mask=ALL)
                if emit is not None:
                    emit(CardMoved(seat, f"hand.{seat}", f"pairs.{seat}", card))

    def _next(self, state: OldMaidState, seat: int) -> None:
        """Pass the turn from *seat* (OLDMAID-TURN-1) or end the game (OLDMAID-END-1)."""
        left = holders(state)
        if len(left) <= 1:
            made = self.score_round(state, [1 if s in left else 0 for s in range(state.players)])
            end_game(state, winners_by(made, lowest=True), made, "old maid")
            return
        empty = {s for s in range(state.players) if s not in left}
        state.to_act = (next_seat(seat, state.players, skip=empty),)

    def legal_actions(self, state: OldMaidState, seat: int) -> tuple[Draw, ...]:
        """``draw 0`` ... ``draw n-1``, n the size of the target's hand (OLDMAID-DRAW-1)."""
        if state.is_over or seat not in state.to_act:
            return ()
        n = len(state.zones.cards[hand(target(state, seat))])
        return tuple(draw(seat, i) for i in range(n))

    def rule_for(self, state: OldMaidState, action: Draw) -> tuple[str, str]:
        t = target(state, action.seat)
        n = len(state.zones.cards[hand(t)])
        return (
            "OLDMAID-DRAW-1",
            f"seat {action.seat} draws from seat {t}'s {n} cards: a position from 0 to "
            f"{n - 1}, not {action.index}",
        )

    def apply(self, state: OldMaidState, action: Draw, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        t = target(state, seat)
        src, dst = hand(t), hand(seat)
        n = len(z.cards[src])
        both = (1 << seat) | (1 << t)  # OLDMAID-KNOW-1
        card = z.move(src, dst, n - 1 - action.index, mask=both)
        k = state.rng().randrange(len(z.cards[dst]))  # OLDMAID-MIX-1
        z.cards[dst].insert(k, z.cards[dst].pop())
        z.seen[dst].insert(k, z.seen[dst].pop())
        if emit is not None:
            emit(CardDrawn(seat, f"hand.{t}", card, visible_to=both))
        self._lay_pairs(state, seat, emit)
        self._next(state, seat)

    def scores(self, state: OldMaidState) -> tuple[float, ...]:
        return tuple(float(len(state.zones.cards[hand(s)])) for s in range(state.players))

    def standings(self, state: OldMaidState) -> tuple[int, ...]:
        counts = [len(state.zones.cards[hand(s)]) for s in range(state.players)]
        return winners_by(counts, lowest=True)

    def table(self, state: OldMaidState, seat: int | None) -> dict[str, Any]:
        z, players = state.zones, state.players
        known: list[list[str]] = []
        for s in range(players):
            pile = z.cards[hand(s)]
            if seat is None or s == seat:
                known.append([])
            else:
                known.append(
                    sorted(str(c) for i, c in enumerate(pile) if z.knows(hand(s), i, seat))
                )
        to = None if state.is_over else target(state, state.to_act[0])
        return {
            "hand_sizes": [len(z.cards[hand(s)]) for s in range(players)],
            "pairs_laid": [len(z.cards[pairs(s, players)]) // 2 for s in range(players)],
            "target": to,
            "known": known,
        }

    def check_position(self, state: OldMaidState) -> None:
        cards, players, to_act = state.zones.cards, state.players, state.to_act
        check(not cards[STOCK], "the stock must be empty after the deal (OLDMAID-DEAL-1)")
        for s in range(players):
            ranks = [c.rank for c in cards[hand(s)]]
            check(len(set(ranks)) == len(ranks), "hand.{} holds a pair (OLDMAID-PAIR-1)", s)
            laid = [c.rank for c in cards[pairs(s, players)]]
            check(
                len(laid) % 2 == 0 and all(laid[i] == laid[i + 1] for i in range(0, len(laid), 2)),
                "pairs.{} must hold pairs of one rank (OLDMAID-PAIR-1)",
                s,
            )
        if not state.is_over:
            check(len(holders(state)) >= 2, "the game is over once one seat holds cards")
            check(
                len(to_act) == 1 and cards[hand(to_act[0])],
                "to_act must be one seat holding cards, not {}",
                list(to_act),
            )

    def position_from_view(self, view: Mapping[str, Any], zones: Zones) -> str:
        """For search agents: the cards the viewer knows in other hands go back there
        (OLDMAID-KNOW-1), and the hidden cards are dealt so no hand holds a pair."""
        players = len(view["players"])
        seat = view["seat"]
        state = self.blank_state(players, view["options"])
        state.zones, state.to_act = zones, tuple(view["to_act"])
        known = view["table"]["known"]
        z = state.zones
        hidden: dict[int, list[int]] = {}
        pool: list[Card] = []
        for s in range(players):
            shown = list(reversed(view["zones"][hand(s)]["cards"]))  # bottom to top
            places = [i for i, c in enumerate(shown) if c is None]
            hidden[hand(s)] = places
            pool += [z.cards[hand(s)][i] for i in places]
        must = {hand(s): [Card.parse(c) for c in known[s]] for s in range(players)}
        wanted = {c for cs in must.values() for c in cs}
        pool = [c for c in pool if c not in wanted]
        rng = random.Random(" ".join(map(str, pool)))  # the agent's deal, already random
        for h, cs in must.items():
            places = hidden[h]
            chosen = rng.sample(places, len(cs))
            for i, c in zip(chosen, cs, strict=True):
                z.cards[h][i] = c
                z.seen[h][i] = (1 << seat) | (1 << (h - 1))
            hidden[h] = [i for i in places if i not in chosen]
        deal_hidden(state, hidden, pool, rng)
        return self.write_position(state)


def deal_hidden(
    state: GameState, hidden: Mapping[int, Sequence[int]], cards: list[Card], rng: random.Random
) -> None:
    """Deal *cards* into the *hidden* places (pile -> indices) so that no hand holds two
    cards of one rank (OLDMAID-PAIR-1), at random."""
    z = state.zones
    cards = sorted(cards, key=str)
    for _ in range(500):
        shuffle(cards, rng)
        fixed = {
            h: Counter(c.rank for i, c in enumerate(z.cards[h]) if i not in set(places))
            for h, places in hidden.items()
        }
        room = {h: len(places) for h, places in hidden.items()}
        got: dict[int, list[Card]] = {h: [] for h in hidden}
        for card in cards:
            fits = [h for h in hidden if room[h] and not fixed[h][card.rank]]
            if not fits:
                break
            h = rng.choices(fits, weights=[room[f] for f in fits])[0]
            got[h].append(card)
            room[h] -= 1
            fixed[h][card.rank] += 1
        else:
            for h, places in hidden.items():
                for i, card in zip(places, got[h], strict=True):
                    z.cards[h][i] = card
            return
    raise CardcoreError(f"{NAME}: no deal of the hidden cards keeps every hand free of pairs")


GAME = GameInfo(
    NAME,
    "Old Maid: draw blind from your left, lay down pairs; the last seat with the odd queen loses",
    2,
    6,
    fields=(
        ViewField("hand_sizes", "per-seat", "Cards in each seat's hand.", of="int"),
        ViewField("pairs_laid", "per-seat", "Pairs each seat has laid down.", of="int"),
        ViewField("target", "seat", "The seat the seat to act draws from.", nullable=True),
        ViewField("known", "per-seat", "Cards of each seat's hand that you know.", of="cards"),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> OldMaidLogic:
    return OldMaidLogic(ruleset)


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """OLDMAID-DECK-1: one deck less the queen of clubs."""
    removed = Card.parse("QC")
    return tuple(c for c in decks(1) if c != removed)


@hookimpl
def determinize(state: GameState, seat: int, rng: random.Random) -> bool:
    """Re-deal the cards *seat* does not know so that no hand holds a pair."""
    z = state.zones
    hidden = {
        hand(s): [i for i in range(len(z.cards[hand(s)])) if not z.knows(hand(s), i, seat)]
        for s in range(state.players)
    }
    cards = [z.cards[h][i] for h, places in hidden.items() for i in places]
    deal_hidden(state, hidden, cards, rng)
    return True
