"""Uno as a third-party cardcore game, written from the published docs only.

cardcore's cards are French cards (rank + suit, or the joker ``JK``: 53 distinct
codes), and :class:`cardcore.Card` refuses anything else, so the 108 Uno cards are
encoded on them (UNO-DECK-1, UNO-DECK-2):

* colour -> suit: red ``H``, yellow ``D``, green ``C``, blue ``S``;
* symbol -> rank: ``0`` -> ``10``, ``1`` -> ``A``, ``2``-``9`` -> ``2``-``9``,
  Skip -> ``J``, Reverse -> ``Q``, Draw Two -> ``K``;
* Wild and Wild Draw Four -> ``JK``. Uno needs 54 distinct codes, cardcore has 53,
  so the two wild kinds share the joker; which jokers are Wild Draw Fours is kept
  as counts in the state (``fours`` per hand, ``stock_fours``, ``pile_fours``): a
  joker's kind is drawn at random when it leaves the stock, with the chance a
  shuffled stock would give (UNO-DECK-2).

The actions speak Uno: ``play R7``, ``play GS`` (skip), ``play BR`` (reverse),
``play YD`` (draw two), ``wild R``, ``wild4 G``, ``draw``, ``pass`` (UNO-NOTE-1).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    ALL,
    JOKER,
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
    NotationError,
    Rank,
    Ruleset,
    Shuffled,
    Suit,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    shuffle,
)
from cardcore.dealing import deal_round_robin, draw_card, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game, next_seat

NAME = "uno"
RULES_MD = """# Uno

| ID | Rule |
|----|------|
| UNO-SEAT-1 | 2 to 10 players. |
| UNO-DECK-1 | 108 cards: per colour one 0, two each of 1-9, Skip, Reverse, Draw Two; 4 Wild, 4 Wild Draw Four. |
| UNO-DECK-2 | [D] Encoding on French cards: colour R/Y/G/B = H/D/C/S, 0 = 10, 1 = A, Skip = J, Reverse = Q, Draw Two = K, both wilds = JK (kind kept as counts). |
| UNO-DEAL-1 | 7 cards each, one at a time from seat 0; the dealer is the last seat. |
| UNO-START-1 | The next card is turned up to start the discard pile; [D] a wild is put under the stock and another turned. |
| UNO-START-2 | [D] A starting action card acts as if the dealer had played it. |
| UNO-MATCH-1 | Play a card of the colour in force, or of the same number or symbol as the top card. |
| UNO-WILD-1 | A Wild or Wild Draw Four may always be played; its player names the colour in force. |
| UNO-SKIP-1 | Skip: the next player loses the turn. |
| UNO-REV-1 | Reverse: the direction of play changes; with 2 players it acts as Skip. |
| UNO-DRAW2-1 | Draw Two: the next player draws 2 and loses the turn. |
| UNO-WILD4-1 | Wild Draw Four: the next player draws 4 and loses the turn. [D] No colour restriction, no challenge. |
| UNO-DRAW-1 | A player who cannot or will not play draws one card. |
| UNO-DRAW-2 | After drawing, the player may play the drawn card only, or pass. |
| UNO-DRAW-3 | [D] An empty stock is rebuilt from the discards but the top; with none, a draw draws nothing and ends the turn. |
| UNO-TURN-1 | Only the player to act may act. |
| UNO-END-1 | The first player to empty the hand wins. |
| UNO-SCORE-1 | The winner scores the points in the opponents' hands: numbers face value, action cards 20, wilds 50. |
| UNO-NOTE-1 | Notation: `play <colour><symbol>` (`R7`, `GS`, `BR`, `YD`), `wild <colour>`, `wild4 <colour>`, `draw`, `pass`. |
"""

COLOURS = ("R", "Y", "G", "B")
SUIT_OF = {"R": Suit.HEARTS, "Y": Suit.DIAMONDS, "G": Suit.CLUBS, "B": Suit.SPADES}
COLOUR_OF = {suit: colour for colour, suit in SUIT_OF.items()}
SYMBOLS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D")
RANK_OF = {
    "0": Rank.TEN,
    "1": Rank.ACE,
    **{str(n): Rank(n) for n in range(2, 10)},
    "S": Rank.JACK,
    "R": Rank.QUEEN,
    "D": Rank.KING,
}
SYMBOL_OF = {rank: symbol for symbol, rank in RANK_OF.items()}
FOURS = 4
"""Wild Draw Fours in the deck (UNO-DECK-1)."""

STOCK, DISCARD = 0, 1


def hand(seat: int) -> int:
    return 2 + seat


def card_of(word: str) -> Card:
    """The French card that encodes the Uno card *word* (``R7`` -> ``7H``)."""
    return Card.parse(RANK_OF[word[1:]].label + SUIT_OF[word[0]].value)


def word_of(card: Card) -> str:
    """The Uno word of a coloured card (``7H`` -> ``R7``), ``W`` for a joker."""
    if card.is_joker:
        return "W"
    assert card.suit is not None
    return COLOUR_OF[card.suit] + SYMBOL_OF[card.rank]


def points(card: Card) -> int:
    """UNO-SCORE-1."""
    if card.is_joker:
        return 50
    symbol = SYMBOL_OF[card.rank]
    return int(symbol) if symbol.isdigit() else 20


def build_uno_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for colour in COLOURS:
        for symbol in SYMBOLS:
            cards += [card_of(colour + symbol)] * (1 if symbol == "0" else 2)
    return (*cards, *[JOKER] * 8)


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """UNO-DECK-1: the 108-card Uno deck, encoded (UNO-DECK-2)."""
    return build_uno_deck()


# --- actions -----------------------------------------------------------------------------


@frozen
class Play(Action):
    """Play the coloured card *card* (its Uno word, ``R7``)."""

    card: str
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


@frozen
class Wild(Action):
    """Play a Wild, naming *colour*."""

    colour: str
    verb: ClassVar[str] = "wild"

    def notation(self) -> str:
        return f"wild {self.colour}"


@frozen
class Wild4(Action):
    """Play a Wild Draw Four, naming *colour*."""

    colour: str
    verb: ClassVar[str] = "wild4"

    def notation(self) -> str:
        return f"wild4 {self.colour}"


@frozen
class Draw(Action):
    verb: ClassVar[str] = "draw"

    def notation(self) -> str:
        return "draw"


@frozen
class Pass(Action):
    verb: ClassVar[str] = "pass"

    def notation(self) -> str:
        return "pass"


UnoAction = Play | Wild | Wild4 | Draw | Pass
WORDS = frozenset(c + s for c in COLOURS for s in SYMBOLS)


# --- state -------------------------------------------------------------------------------


def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP), *hands])


class UnoState(GameState):
    __slots__ = ("colour", "direction", "drawn", "fours", "pile_fours", "stock_fours", "top_four")
    _mutable = ("zones", "fours")
    colour: str
    direction: int
    drawn: str | None
    fours: list[int]
    stock_fours: int
    pile_fours: int
    top_four: bool


def jokers(state: UnoState, z: int) -> int:
    return sum(c.is_joker for c in state.zones.cards[z])


# --- the game ----------------------------------------------------------------------------

GAME = GameInfo(
    NAME,
    "Uno: match colour or symbol, wilds name the colour, first out wins",
    2,
    10,
    version="0.1.0",
    fields=(
        ViewField("colour", "choice", "The colour in force.", choices=COLOURS),
        ViewField("direction", "int", "1 clockwise (seat order), -1 the other way."),
        ViewField("top", "str", "The top discard as an Uno word (W or W4 for wilds)."),
        ViewField("stock", "int", "Cards in the stock."),
        ViewField(
            "drawn",
            "choice",
            "What the seat to act just drew (card, wild, wild4); hidden to the others.",
            choices=("card", "wild", "wild4", "hidden"),
            nullable=True,
        ),
        ViewField("wild4s", "int", "Wild Draw Fours in the viewer's own hand.", nullable=True),
        ViewField("pile_fours", "int", "Wild Draw Fours in the discard pile."),
        ViewField("top_four", "bool", "Whether the top discard is a Wild Draw Four."),
        ViewField("words", "json", "The viewer's own hand as Uno words.", nullable=True),
    ),
)


class UnoLogic(GameLogic[UnoState, UnoAction]):
    action_types = ()
    max_legal = 25
    position_fields = (
        "to_act",
        "colour",
        "direction",
        "drawn",
        "fours",
        "stock_fours",
        "pile_fours",
        "top_four",
    )

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 6000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> UnoState:
        state = UnoState(players, options, Zones(layout(players)))
        state.colour, state.direction, state.drawn = "R", 1, None
        state.fours, state.stock_fours, state.pile_fours = [0] * players, 0, 0
        state.top_four = False
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> UnoState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_round_robin(state, STOCK, [hand(s) for s in range(players)], 7)  # UNO-DEAL-1
        if emit is not None:
            emit(CardsDealt(tuple(7 for _ in range(players))))
        z = state.zones
        left, fours = jokers(state, STOCK) + sum(jokers(state, hand(s)) for s in range(players)), 4
        rng = state.rng()
        for s in range(players):  # UNO-DECK-2: each dealt joker's kind, as a shuffle would
            for _ in range(jokers(state, hand(s))):
                if rng.randrange(left) < fours:
                    state.fours[s] += 1
                    fours -= 1
                left -= 1
        state.stock_fours = fours
        while True:  # UNO-START-1
            card = z.move(STOCK, DISCARD)
            if emit is not None:
                emit(CardMoved(None, "stock", "discard", card))
            if not card.is_joker:
                break
            z.cards[DISCARD].pop()
            z.seen[DISCARD].pop()
            z.insert_bottom(STOCK, card, ALL)
            if emit is not None:
                emit(CardMoved(None, "discard", "stock", card))
        assert card.suit is not None
        state.colour = COLOUR_OF[card.suit]
        self._effect(state, players - 1, SYMBOL_OF[card.rank], emit)  # UNO-START-2
        return state

    # --- legality --------------------------------------------------------------------

    def _matches(self, state: UnoState, card: Card) -> bool:
        """UNO-MATCH-1."""
        if card.is_joker:
            return True
        assert card.suit is not None
        top = state.zones.cards[DISCARD][-1]
        return COLOUR_OF[card.suit] == state.colour or (not top.is_joker and top.rank == card.rank)

    def _wilds(self, state: UnoState, seat: int) -> tuple[UnoAction, ...]:
        held = jokers(state, hand(seat))
        out: list[UnoAction] = []
        if held > state.fours[seat]:
            out += [Wild(seat, c) for c in COLOURS]
        if state.fours[seat]:
            out += [Wild4(seat, c) for c in COLOURS]
        return tuple(out)

    def legal_actions(self, state: UnoState, seat: int) -> tuple[UnoAction, ...]:
        """Plays by Uno word (colours R Y G B, symbols 0-9 S R D), then ``wild C``,
        ``wild4 C`` (colours R Y G B), then ``draw``; after a draw, the drawn card's
        plays, then ``pass``."""
        cards = state.zones.cards[hand(seat)]
        if state.drawn is not None:  # UNO-DRAW-2
            top = cards[-1]
            if top.is_joker:
                wilds = self._wilds(state, seat)
                if state.drawn == "wild4":
                    wilds = tuple(a for a in wilds if isinstance(a, Wild4)) or wilds
                elif state.drawn == "wild":
                    wilds = tuple(a for a in wilds if isinstance(a, Wild)) or wilds
                return (*wilds, Pass(seat))
            if self._matches(state, top):
                return (Play(seat, word_of(top)), Pass(seat))
            return (Pass(seat),)
        words = {word_of(c) for c in cards if not c.is_joker and self._matches(state, c)}
        order = {w: i for i, w in enumerate(c + s for c in COLOURS for s in SYMBOLS)}
        plays = tuple(Play(seat, w) for w in sorted(words, key=order.__getitem__))
        return (*plays, *self._wilds(state, seat), Draw(seat))

    def rule_for(self, state: UnoState, action: UnoAction) -> tuple[str, str]:
        seat = action.seat
        if state.drawn is not None and not isinstance(action, Pass):
            return "UNO-DRAW-2", f"seat {seat} drew: it may play the card it drew or pass"
        if isinstance(action, Pass):
            return "UNO-DRAW-2", f"seat {seat} may pass only after drawing"
        if isinstance(action, Play):
            if card_of(action.card) not in state.zones.cards[hand(seat)]:
                return "UNO-MATCH-1", f"seat {seat} holds no {action.card}"
            return "UNO-MATCH-1", (
                f"{action.card} matches neither the colour {state.colour} nor the top card"
            )
        if isinstance(action, Wild):
            return "UNO-WILD-1", f"seat {seat} holds no Wild"
        if isinstance(action, Wild4):
            return "UNO-WILD4-1", f"seat {seat} holds no Wild Draw Four"
        return "UNO-DRAW-1", f"seat {seat} may not draw now"

    def parse_action(self, state: UnoState, seat: int, text: str) -> UnoAction:
        words = text.split()
        usage = "expected play <colour><symbol>, wild <colour>, wild4 <colour>, draw or pass"
        if not words:
            raise NotationError(f"empty action: {usage} (UNO-NOTE-1)")
        verb, rest = words[0].lower(), [w.upper() for w in words[1:]]
        if verb in ("draw", "pass") and not rest:
            return Draw(seat) if verb == "draw" else Pass(seat)
        if verb == "play" and len(rest) == 1 and rest[0] in WORDS:
            return Play(seat, rest[0])
        if verb in ("wild", "wild4") and len(rest) == 1 and rest[0] in COLOURS:
            return Wild(seat, rest[0]) if verb == "wild" else Wild4(seat, rest[0])
        shown = " ".join(words)[:40]
        raise NotationError(f"not an Uno action: {shown!r}: {usage} (UNO-NOTE-1)")

    # --- effects ---------------------------------------------------------------------

    def _draw(self, state: UnoState, seat: int, emit: Emit | None) -> Card | None:
        """Draw one card for *seat*; decide a joker's kind (UNO-DECK-2, UNO-DRAW-3)."""
        z = state.zones
        if not z.cards[STOCK] and len(z.cards[DISCARD]) > 1:
            state.stock_fours += state.pile_fours - int(state.top_four)
            state.pile_fours = int(state.top_four)
            if emit is not None:
                emit(Shuffled("stock", len(z.cards[DISCARD]) - 1))
        card = draw_card(state, STOCK, hand(seat), discard=DISCARD)
        if card is None:
            return None
        if card.is_joker:
            left = jokers(state, STOCK) + 1
            if state.rng().randrange(left) < state.stock_fours:
                state.fours[seat] += 1
                state.stock_fours -= 1
        if emit is not None:
            emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
        return card

    def _penalty(self, state: UnoState, victim: int, count: int, emit: Emit | None) -> None:
        for _ in range(count):
            if self._draw(state, victim, emit) is None:
                break

    def _effect(self, state: UnoState, seat: int, symbol: str, emit: Emit | None) -> None:
        """Set the next seat after *seat* played *symbol* (``W``, ``W4`` for wilds)."""
        n = state.players
        after = next_seat(seat, n, direction=state.direction)
        if symbol == "R":  # UNO-REV-1
            state.direction = -state.direction
            after = seat if n == 2 else next_seat(seat, n, direction=state.direction)
        elif symbol == "S":  # UNO-SKIP-1
            after = next_seat(after, n, direction=state.direction)
        elif symbol in ("D", "W4"):  # UNO-DRAW2-1, UNO-WILD4-1
            self._penalty(state, after, 2 if symbol == "D" else 4, emit)
            after = next_seat(after, n, direction=state.direction)
        state.to_act = (after,)

    def apply(self, state: UnoState, action: UnoAction, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        src = hand(seat)
        if isinstance(action, Draw):  # UNO-DRAW-1
            kinds = state.fours[seat]
            card = self._draw(state, seat, emit)
            if card is None:  # UNO-DRAW-3
                state.to_act = (next_seat(seat, state.players, direction=state.direction),)
            elif card.is_joker:
                state.drawn = "wild4" if state.fours[seat] > kinds else "wild"
            else:
                state.drawn = "card"
            return
        drawn, state.drawn = state.drawn, None
        if isinstance(action, Pass):  # UNO-DRAW-2
            state.to_act = (next_seat(seat, state.players, direction=state.direction),)
            return
        if isinstance(action, Play):
            target = card_of(action.card)
            index = len(z.cards[src]) - 1 if drawn else z.cards[src].index(target)
            card = z.move(src, DISCARD, index)
            state.colour, state.top_four, symbol = action.card[0], False, action.card[1:]
        else:
            index = max(i for i, c in enumerate(z.cards[src]) if c.is_joker)
            card = z.move(src, DISCARD, index)
            state.colour = action.colour  # UNO-WILD-1
            state.top_four = isinstance(action, Wild4)
            symbol = "W4" if state.top_four else "W"
            if state.top_four:
                state.fours[seat] -= 1
                state.pile_fours += 1
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "discard", card))
        self._effect(state, seat, symbol, emit)
        if not z.cards[src]:  # UNO-END-1, UNO-SCORE-1
            total = sum(points(c) for s in range(state.players) for c in z.cards[hand(s)])
            made = self.score_round(
                state, [total if s == seat else 0 for s in range(state.players)]
            )
            end_game(state, (seat,), made, "out")

    # --- views -----------------------------------------------------------------------

    def table(self, state: UnoState, seat: int | None) -> dict[str, Any]:
        top = state.zones.cards[DISCARD][-1] if state.zones.cards[DISCARD] else None
        own = seat is not None and 0 <= seat < state.players
        drawn = state.drawn
        if drawn is not None and not (own and state.to_act == (seat,)):
            drawn = "hidden"
        word = "" if top is None else word_of(top) + ("4" if state.top_four else "")
        return {
            "colour": state.colour,
            "direction": state.direction,
            "top": word,
            "stock": len(state.zones.cards[STOCK]),
            "drawn": drawn,
            "wild4s": state.fours[seat] if own and seat is not None else None,
            "pile_fours": state.pile_fours,
            "top_four": state.top_four,
            "words": (
                [word_of(c) for c in reversed(state.zones.cards[hand(seat)])]
                if own and seat is not None
                else None
            ),
        }

    def scores(self, state: UnoState) -> tuple[float, ...]:
        """While playing: minus the points in each hand (fewer is better)."""
        z = state.zones
        return tuple(-float(sum(points(c) for c in z.cards[hand(s)])) for s in range(state.players))

    # --- positions -------------------------------------------------------------------

    def check_position(self, state: UnoState) -> None:
        z, n = state.zones, state.players
        check(bool(z.cards[DISCARD]), "the discard pile must not be empty (UNO-START-1)")
        check(state.colour in COLOURS, "colour must be one of R Y G B, not {!r}", state.colour)
        check(state.direction in (1, -1), "direction must be 1 or -1, not {}", state.direction)
        top = z.cards[DISCARD][-1]
        if not top.is_joker:
            assert top.suit is not None
            check(
                COLOUR_OF[top.suit] == state.colour,
                "colour {} is not the colour of the top card {} (UNO-MATCH-1)",
                state.colour,
                word_of(top),
            )
        check(not state.top_four or top.is_joker, "top_four needs a joker on top (UNO-DECK-2)")
        total = sum(state.fours) + state.stock_fours + state.pile_fours
        check(total == FOURS, "the Wild Draw Four counts must add up to 4, not {}", total)
        for s in range(n):
            check(
                0 <= state.fours[s] <= jokers(state, hand(s)),
                "fours[{}] must count jokers of hand.{} (UNO-DECK-2)",
                s,
                s,
            )
        check(
            0 <= state.stock_fours <= jokers(state, STOCK),
            "stock_fours must count jokers of the stock (UNO-DECK-2)",
        )
        check(
            int(state.top_four) <= state.pile_fours <= jokers(state, DISCARD),
            "pile_fours must count jokers of the discard pile (UNO-DECK-2)",
        )
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(
            state.drawn in (None, "card", "wild", "wild4"),
            "drawn must be null, card, wild or wild4, not {!r}",
            state.drawn,
        )
        if state.drawn is not None and state.to_act:
            cards = z.cards[hand(state.to_act[0])]
            check(bool(cards), "drawn needs a card in the drawer's hand (UNO-DRAW-2)")
            check(
                cards[-1].is_joker == (state.drawn != "card"),
                "drawn must name the kind of the drawer's top card (UNO-DRAW-2)",
            )

    def position_from_view(self, view: Mapping[str, Any], zones: Zones) -> str:
        """A sample for search agents: the viewer's own Wild Draw Fours as its view says,
        the others spread over the jokers it cannot see."""
        players = len(view["players"])
        state = self.blank_state(players, view["options"])
        state.zones, state.to_act = zones, tuple(view["to_act"])
        table, seat = view["table"], view["seat"]
        state.colour, state.direction = table["colour"], table["direction"]
        state.pile_fours, state.top_four = table["pile_fours"], table["top_four"]
        # the view shows the discard pile's top only, so the sample dealt unseen cards under
        # it: swap jokers in until it holds the Wild Draw Fours the table counts
        hidden = [
            [len(zv["cards"]) - 1 - i for i, c in enumerate(zv["cards"]) if c is None]
            for zv in view["zones"]
        ]
        cards = zones.cards
        for i in hidden[DISCARD]:
            if jokers(state, DISCARD) >= state.pile_fours:
                break
            if cards[DISCARD][i].is_joker:
                continue
            spare = [
                (z, j)
                for z in range(len(cards))
                if z != DISCARD
                for j in hidden[z]
                if cards[z][j].is_joker
            ]
            if spare:
                z, j = spare[0]
                cards[z][j], cards[DISCARD][i] = cards[DISCARD][i], cards[z][j]
        own = table["wild4s"] if isinstance(seat, int) and seat >= 0 else None
        if own is not None:
            state.fours[seat] = own
        spread_fours(state, None if own is None else seat, random.Random(str(zones.cards)))
        if table["drawn"] is not None and state.to_act:
            drawer = state.to_act[0]
            state.drawn = table["drawn"] if table["drawn"] != "hidden" else None
            if state.drawn is None:
                state.drawn = drawn_kind(state, drawer)
        return self.write_position(state)


def drawn_kind(state: UnoState, seat: int) -> str:
    top = state.zones.cards[hand(seat)][-1]
    if not top.is_joker:
        return "card"
    return "wild" if jokers(state, hand(seat)) > state.fours[seat] else "wild4"


def spread_fours(state: UnoState, seat: int | None, rng: random.Random) -> None:
    """Put the Wild Draw Fours *seat* cannot place among the jokers it cannot see."""
    places: list[int] = []
    for s in range(state.players):
        if s != seat:
            state.fours[s] = 0
            places += [hand(s)] * jokers(state, hand(s))
    places += [STOCK] * jokers(state, STOCK)
    own = state.fours[seat] if seat is not None else 0
    free = FOURS - own - state.pile_fours
    state.stock_fours = 0
    for z in rng.sample(places, max(0, min(free, len(places)))):
        if z == STOCK:
            state.stock_fours += 1
        else:
            state.fours[z - 2] += 1


@hookimpl
def create_logic(ruleset: Ruleset) -> UnoLogic:
    return UnoLogic(ruleset)


@hookimpl
def determinize(state: UnoState, seat: int, rng: random.Random) -> bool:
    """Re-deal what *seat* cannot know, then the Wild Draw Fours among the unseen jokers."""
    zones = state.zones
    hidden = [
        [i for i in range(len(pile)) if not zones.knows(z, i, seat)]
        for z, pile in enumerate(zones.cards)
    ]
    cards = sorted((zones.cards[z][i] for z, places in enumerate(hidden) for i in places), key=str)
    shuffle(cards, rng)
    dealt = iter(cards)
    for z, places in enumerate(hidden):
        for i in places:
            zones.cards[z][i] = next(dealt)
    spread_fours(state, seat if 0 <= seat < state.players else None, rng)
    if state.drawn is not None and state.to_act and state.to_act[0] != seat:
        state.drawn = drawn_kind(state, state.to_act[0])
    return True


def word_list(cards: Sequence[Card]) -> list[str]:
    return [word_of(c) for c in cards]
