"""Durak ("the fool") for 2 to 4 players: a third-party game registered in place.

Written from cardcore's documentation alone (the plugin guide and Go Fish). The
rules, with their IDs, are in :data:`RULES_MD` (``cardcore rules durak`` prints
them while the game is registered). Register it with
``cardcore.register("cardcore.games", "durak", durak_2026_12_17)``.

Design of the bout (DURAK-TURN-1): the bout after the lead is a *simultaneous*
phase of a turn-based game. Every seat that may act now is in ``to_act`` at once:
the defender while an attack card is unbeaten and it has not taken, and every other
seat holding cards that has not passed and may still throw in. This is how Durak is
played at a table (anyone may throw in while the defender thinks, there is no order
among the attackers), and the core supports several seats in ``to_act`` in a
turn-based game (CORE-TURN-1). A turn order would invent an order the rules do not
have and make the defender wait for attackers who are not going to throw.
An attacker's ``pass`` lasts until the defender beats a card or takes.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    ALL,
    Action,
    Card,
    CardDrawn,
    CardMoved,
    CardRevealed,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    Rank,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    standard_52,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game, winners_by

RULES_MD = """# Durak: the rules, with their IDs

| ID | Rule |
|----|------|
| DURAK-SEAT-1 | 2 to 4 players. |
| DURAK-DECK-1 | Option `deck`: 36 cards (6 to A, the default) or 52 (2 to A). Ace is high: 2 < 3 < ... < 10 < J < Q < K < A. |
| DURAK-DEAL-1 | Six cards each, one at a time from seat 0. The bottom card of the stock (the last card of a stacked deck) is turned face up: its suit is trump. It stays visible to everyone until it is drawn, last. |
| DURAK-LEAD-1 | Seat 0 attacks first [D]. A bout starts with the attacker leading any one card: `attack <card>`. Nobody else acts before the lead. |
| DURAK-BEAT-1 | The defender beats an unbeaten attack card with a higher card of its suit, or with any trump (a trump only with a higher trump): `beat <attack> <card>`. |
| DURAK-THROW-1 | After the lead every player but the defender who holds cards (the attacker included) may throw in a card whose rank is already on the table (attack or defence): `attack <card>`. |
| DURAK-THROW-2 | At most `max_attacks` attack cards per bout (option, 1 to 6, default 6), and never more unbeaten attack cards than the defender holds. |
| DURAK-TURN-1 | After the lead the bout is simultaneous: the defender (while an attack is unbeaten and it has not taken) and every attacker that may still throw in and has not passed act in any order. `pass` says an attacker is done; a pass lasts until the defender beats a card or takes. |
| DURAK-TAKE-1 | While an attack is unbeaten the defender may `take`. It then beats nothing more; the attackers may still throw in (within DURAK-THROW-2); when none may or will, the defender picks up every card on the table (known to all). |
| DURAK-BITO-1 | When every attack card is beaten and no attacker may or will throw in, the bout is beaten off ("bito"): the table goes face down to the discard pile. |
| DURAK-DRAW-1 | After each bout hands are refilled to six from the stock: the attacker first, then the other players clockwise from the attacker, the defender last. |
| DURAK-NEXT-1 | After bito the defender attacks next; after a take the player to the defender's left does. The defender is always the next player with cards to the attacker's left. |
| DURAK-OUT-1 | Once the stock is empty a player without cards is out: skipped, never to act, no legal action. |
| DURAK-END-1 | The game ends after a bout when at most one player holds cards: that player is the fool (score -1, the loser) and every other player wins (score 0). If nobody holds cards it is a draw: no fool, everyone wins. |
| DURAK-KNOW-1 | Hands and the stock are hidden (the trump card apart); every card played on the table is known to all, also once taken into a hand or discarded. |
| DURAK-NOTE-1 | Notation: `attack <card>`, `beat <attack> <card>`, `take`, `pass`. |
"""

HAND_SIZE = 6
SLOTS = 6  # the most attack cards of one bout (max_attacks is at most 6)
STOCK, DISCARD, ATTACKS, DEFENCES = 0, 1, 2, 3
SUITS = ("S", "H", "D", "C")


def hand(seat: int) -> int:
    return 4 + seat


def power(card: Card) -> int:
    return 14 if card.rank is Rank.ACE else card.rank.value


def card_key(card: Card) -> tuple[int, str]:
    return (power(card), card.suit.value if card.suit else "")


@cache
def layout(players: int) -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("discard"),
            ZoneSpec("attacks", None, Visibility.EVERYONE, ordered=True),
            ZoneSpec("defences", None, Visibility.EVERYONE, ordered=True),
            *[ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)],
        ]
    )


@frozen
class Attack(Action):
    """Lead or throw in *card* (DURAK-LEAD-1, DURAK-THROW-1)."""

    card: Card
    verb: ClassVar[str] = "attack"

    def notation(self) -> str:
        return f"attack {self.card}"


@frozen
class Beat(Action):
    """Beat the attack card *attack* with *card* (DURAK-BEAT-1)."""

    attack: Card
    card: Card
    verb: ClassVar[str] = "beat"

    def notation(self) -> str:
        return f"beat {self.attack} {self.card}"


@frozen
class Take(Action):
    """The defender takes the table (DURAK-TAKE-1)."""

    verb: ClassVar[str] = "take"


@frozen
class Pass(Action):
    """An attacker is done throwing in for now (DURAK-TURN-1)."""

    verb: ClassVar[str] = "pass"


DurakAction = Attack | Beat | Take | Pass


class DurakState(GameState):
    __slots__ = ("attacker", "covered", "defender", "passed", "taken", "trump", "trump_card")
    _mutable = ("zones", "passed", "covered")
    attacker: int
    defender: int
    taken: bool
    passed: list[bool]
    covered: list[int]  # per attack slot: the index of its defence card, or -1
    trump: str
    trump_card: str


class DurakLogic(GameLogic[DurakState, DurakAction]):
    action_types = (Attack, Beat, Take, Pass)
    position_fields = (
        "to_act",
        "attacker",
        "defender",
        "taken",
        "passed",
        "covered",
        "trump",
        "trump_card",
    )
    max_legal = 1 + SLOTS * 52

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 10000  # random play: at most 435 actions in 90 games of 2-4 seats

    def blank_state(self, players: int, options: Mapping[str, Any]) -> DurakState:
        state = DurakState(players, options, Zones(layout(players)))
        state.attacker, state.defender, state.taken = 0, 1, False
        state.passed = [False] * players
        state.covered = [-1] * SLOTS
        state.trump, state.trump_card = "", ""
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DurakState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        deal_round_robin(state, STOCK, [hand(s) for s in range(players)], HAND_SIZE)  # DURAK-DEAL-1
        trump = state.zones.reveal(STOCK, 0)
        state.trump, state.trump_card = trump.suit.value, str(trump)
        if emit is not None:
            emit(CardsDealt(tuple(HAND_SIZE for _ in range(players))))
            emit(CardRevealed(None, "stock", 0, trump, ALL))
        state.attacker, state.defender = 0, 1  # DURAK-LEAD-1
        state.to_act = (0,)
        return state

    # -- helpers -----------------------------------------------------------------
    def beats(self, state: DurakState, attack: Card, card: Card) -> bool:
        if card.suit == attack.suit:
            return power(card) > power(attack)
        return card.suit.value == state.trump

    def unbeaten(self, state: DurakState) -> list[int]:
        return [i for i in range(len(state.zones.cards[ATTACKS])) if state.covered[i] < 0]

    def room(self, state: DurakState) -> bool:
        """May one more attack card go on the table (DURAK-THROW-2)?"""
        z = state.zones.cards
        return len(z[ATTACKS]) < state.options["max_attacks"] and len(self.unbeaten(state)) < len(
            z[hand(state.defender)]
        )

    def thrower(self, state: DurakState, seat: int) -> bool:
        return (
            seat != state.defender
            and bool(state.zones.cards[hand(seat)])
            and not state.passed[seat]
            and self.room(state)
        )

    def compute_to_act(self, state: DurakState) -> tuple[int, ...]:
        if not state.zones.cards[ATTACKS]:
            return (state.attacker,)
        seats = [s for s in range(state.players) if self.thrower(state, s)]
        if not state.taken and self.unbeaten(state):
            seats.append(state.defender)
        return tuple(sorted(seats))

    # -- the core's calls ----------------------------------------------------------
    def legal_actions(self, state: DurakState, seat: int) -> tuple[DurakAction, ...]:
        z = state.zones.cards
        mine = sorted(z[hand(seat)], key=card_key)
        if not z[ATTACKS]:
            return tuple(Attack(seat, c) for c in mine) if seat == state.attacker else ()
        if seat == state.defender:
            if state.taken:
                return ()
            out: list[DurakAction] = []
            for i in self.unbeaten(state):
                a = z[ATTACKS][i]
                out += [Beat(seat, a, c) for c in mine if self.beats(state, a, c)]
            return (*out, Take(seat)) if self.unbeaten(state) else ()
        if not self.thrower(state, seat):
            return ()
        ranks = {c.rank for c in z[ATTACKS]} | {c.rank for c in z[DEFENCES]}
        return (*(Attack(seat, c) for c in mine if c.rank in ranks), Pass(seat))

    def rule_for(self, state: DurakState, action: DurakAction) -> tuple[str, str]:
        seat, z = action.seat, state.zones.cards
        lead = not z[ATTACKS]
        if isinstance(action, Attack):
            if seat == state.defender and not lead:
                return "DURAK-THROW-1", f"seat {seat} defends this bout and may not attack"
            if action.card not in z[hand(seat)]:
                rule = "DURAK-LEAD-1" if lead else "DURAK-THROW-1"
                return rule, f"seat {seat} holds no {action.card} to attack with"
            if not self.room(state):
                return "DURAK-THROW-2", "no more attack cards fit this bout"
            return "DURAK-THROW-1", f"rank of {action.card} is not on the table"
        if isinstance(action, Beat):
            if seat != state.defender:
                return "DURAK-BEAT-1", f"only the defender (seat {state.defender}) beats"
            if action.attack not in [z[ATTACKS][i] for i in self.unbeaten(state)]:
                return "DURAK-BEAT-1", f"{action.attack} is no unbeaten attack card"
            if action.card not in z[hand(seat)]:
                return "DURAK-BEAT-1", f"seat {seat} holds no {action.card}"
            return "DURAK-BEAT-1", f"{action.card} does not beat {action.attack}"
        if isinstance(action, Take):
            if lead:
                return "DURAK-TAKE-1", "there is nothing on the table to take"
            return "DURAK-TAKE-1", f"only the defender (seat {state.defender}) takes"
        if lead:
            return "DURAK-LEAD-1", "the attacker must lead a card"
        return "DURAK-TURN-1", "the defender beats or takes; it does not pass"

    def waiting_rule(self, state: DurakState, action: Action) -> tuple[str, str] | None:
        seat = action.seat
        if not 0 <= seat < state.players or state.is_over:
            return None
        z = state.zones.cards
        if not z[hand(seat)] and not z[STOCK]:
            return "DURAK-OUT-1", f"seat {seat} is out: it holds no cards"
        if not z[ATTACKS]:
            return "DURAK-LEAD-1", f"seat {state.attacker} leads; seat {seat} waits for the lead"
        if seat == state.defender:
            if state.taken:
                return "DURAK-TAKE-1", f"seat {seat} has taken and waits for the throw-ins"
            return "DURAK-TURN-1", f"every attack is beaten; seat {seat} waits for the attackers"
        if state.passed[seat]:
            return (
                "DURAK-TURN-1",
                f"seat {seat} passed; it acts again once the defender beats or takes",
            )
        if not z[hand(seat)]:
            return "DURAK-OUT-1", f"seat {seat} holds no cards to throw in"
        return "DURAK-THROW-2", "no more attack cards fit this bout"

    def apply(self, state: DurakState, action: DurakAction, emit: Emit | None) -> None:
        z, seat = state.zones, action.seat
        if isinstance(action, Attack):
            i = z.cards[hand(seat)].index(action.card)
            z.move(hand(seat), ATTACKS, i, mask=ALL)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", "attacks", action.card, ALL))
        elif isinstance(action, Beat):
            slot = z.cards[ATTACKS].index(action.attack)
            i = z.cards[hand(seat)].index(action.card)
            z.move(hand(seat), DEFENCES, i, mask=ALL)
            state.covered[slot] = len(z.cards[DEFENCES]) - 1
            state.passed = [False] * state.players  # a new rank may be on the table
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", "defences", action.card, ALL))
        elif isinstance(action, Take):
            state.taken = True
            state.passed = [False] * state.players
        else:
            state.passed[seat] = True
        to_act = self.compute_to_act(state)
        if to_act:
            state.to_act = to_act
        else:
            self.end_bout(state, emit)

    def end_bout(self, state: DurakState, emit: Emit | None) -> None:
        z, players = state.zones, state.players
        attacker, defender, taken = state.attacker, state.defender, state.taken
        dst = hand(defender) if taken else DISCARD  # DURAK-TAKE-1 / DURAK-BITO-1
        for pile, name in ((ATTACKS, "attacks"), (DEFENCES, "defences")):
            while z.cards[pile]:
                card = z.move(pile, dst, 0, mask=ALL)
                if emit is not None:
                    emit(
                        CardMoved(None, name, f"hand.{defender}" if taken else "discard", card, ALL)
                    )
        state.taken, state.passed, state.covered = False, [False] * players, [-1] * SLOTS
        order = [s % players for s in range(attacker, attacker + players)]  # DURAK-DRAW-1
        order = [s for s in order if s != defender] + [defender]
        for s in order:
            while len(z.cards[hand(s)]) < HAND_SIZE and z.cards[STOCK]:
                known = z.seen[STOCK][-1] == ALL
                card = z.move(STOCK, hand(s), mask=ALL if known else 1 << s)
                if emit is not None:
                    emit(CardDrawn(s, "stock", card, ALL if known else 1 << s))
        holding = [s for s in range(players) if z.cards[hand(s)]]
        if len(holding) <= 1 and not z.cards[STOCK]:  # DURAK-END-1
            made = self.score_round(state, [-1 if s in holding else 0 for s in range(players)])
            reason = "draw" if not holding else "fool"
            end_game(state, winners_by(made, lowest=False), made, reason)
            return
        start = defender if not taken else (defender + 1) % players  # DURAK-NEXT-1
        state.attacker = self.next_with_cards(state, start, include=True)
        state.defender = self.next_with_cards(state, state.attacker + 1, include=True)
        state.to_act = (state.attacker,)

    def next_with_cards(self, state: DurakState, start: int, include: bool) -> int:
        for k in range(state.players):
            s = (start + k) % state.players
            if state.zones.cards[hand(s)]:
                return s
        raise AssertionError("no seat holds cards")

    def scores(self, state: DurakState) -> tuple[float, ...]:
        return tuple(-float(len(state.zones.cards[hand(s)])) for s in range(state.players))

    def table(self, state: DurakState, seat: int | None) -> dict[str, Any]:
        z = state.zones.cards
        pairs = [
            [str(a), str(z[DEFENCES][state.covered[i]]) if state.covered[i] >= 0 else None]
            for i, a in enumerate(z[ATTACKS])
        ]
        return {
            "trump": state.trump,
            "trump_card": state.trump_card,
            "stock": len(z[STOCK]),
            "attacker": state.attacker,
            "defender": state.defender,
            "taken": state.taken,
            "passed": list(state.passed),
            "covered": list(state.covered),
            "pairs": pairs,
        }

    def check_position(self, state: DurakState) -> None:
        z = state.zones.cards
        check(
            state.trump in SUITS,
            "trump must be a suit letter (DURAK-DEAL-1), not {!r}",
            state.trump,
        )
        check(
            state.trump_card[-1:] == state.trump,
            "trump_card {!r} must be of the trump suit (DURAK-DEAL-1)",
            state.trump_card,
        )
        n = len(z[ATTACKS])
        check(n <= SLOTS, "at most {} attack cards (DURAK-THROW-2)", SLOTS)
        used = [c for c in state.covered[:n] if c >= 0]
        check(
            sorted(used) == list(range(len(z[DEFENCES])))
            and all(c == -1 for c in state.covered[n:]),
            "covered must pair every defence card with one attack card, not {}",
            state.covered,
        )
        check(state.attacker != state.defender, "the attacker cannot defend (DURAK-NEXT-1)")
        if not state.is_over:
            check(
                tuple(state.to_act) == self.compute_to_act(state),
                "to_act must be {} here (DURAK-TURN-1), not {}",
                list(self.compute_to_act(state)),
                list(state.to_act),
            )


GAME = GameInfo(
    "durak",
    "Durak: beat off the attacks; the last player holding cards is the fool",
    2,
    4,
    version="1.0.0",
    options=(
        Option("deck", 36, "Cards in the deck: 36 (6 to A) or 52 (DURAK-DECK-1)", choices=(36, 52)),
        Option(
            "max_attacks", 6, "Most attack cards per bout (DURAK-THROW-2)", minimum=1, maximum=6
        ),
    ),
    fields=(
        ViewField("trump", "choice", "The trump suit.", choices=SUITS),
        ViewField("trump_card", "card", "The card turned up under the stock."),
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("attacker", "seat", "The seat that leads this bout."),
        ViewField("defender", "seat", "The seat that defends this bout."),
        ViewField("taken", "bool", "Whether the defender has taken."),
        ViewField(
            "passed", "per-seat", "Attackers that passed since the last beat or take.", of="bool"
        ),
        ViewField(
            "covered", "json", "Per attack slot, the index of the defence card beating it, or -1."
        ),
        ViewField(
            "pairs", "json", "The table: each attack card with the card beating it, or null."
        ),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> DurakLogic:
    return DurakLogic(ruleset)


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    full = standard_52()
    if options.get("deck", 36) == 52:
        return full
    return tuple(c for c in full if c.rank is Rank.ACE or c.rank.value >= 6)
