"""Klondike solitaire for one player, written from the docs only, as a third-party plugin.

Registered in place (``cardcore.register("cardcore.games", NAME, this_module)``), never
installed. The rules, with the IDs the code, the errors and the tests cite, are in
:data:`RULES_MD` (``cardcore rules klondike-author`` prints them).

Notation (every card a move names is face up, known to all):

* ``draw``: turn one card (``draw=3``: up to three) from the stock onto the waste;
* ``recycle``: turn the waste over into an empty stock (at most ``passes`` times);
* ``home <card>``: move the waste's top card or a tableau pile's top card to its
  foundation;
* ``tab <card> <pile>``: move a card to tableau pile 0-6: the waste's top card, a
  foundation's top card, or a face-up tableau card with every card above it (a run);
* ``resign``: the core's resignation (CORE-RESIGN-1) gives up; the game ends, no winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from itertools import pairwise
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    ALL,
    Action,
    Card,
    CardMoved,
    CardRevealed,
    CardsDealt,
    Emit,
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import fill_stock
from cardcore.positions import check
from cardcore.turns import end_game

NAME = "klondike-author"

RULES_MD = """\
# Klondike (third-party test plugin)

- **KL-SEAT-1** One player.
- **KL-DEAL-1** One 52-card deck. Seven tableau piles; pile i (0-6) gets i+1 cards, dealt
  row by row from the top of the deck (row r puts one card on each pile r..6); the top card
  of each pile is face up, the others face down, hidden from everyone, the player too.
  The other 24 cards are the face-down stock.
- **KL-DRAW-1** `draw` turns the top `draw` cards (option, 1 or 3; fewer if the stock holds
  fewer) of the stock face up onto the waste, one at a time.
- **KL-RECYCLE-1** When the stock is empty, `recycle` turns the whole waste over into the
  stock (its top becomes the stock's bottom), at most `passes` times a game (option).
- **KL-HOME-1** `home C` moves C, the waste's top card or a tableau pile's top card, onto
  its suit's foundation: an ace on an empty foundation, otherwise the next rank up.
- **KL-TAB-1** `tab C P` moves C onto tableau pile P when C is one rank below P's top card
  and of the other colour; onto an empty pile only a king.
- **KL-TAB-2** C may be the waste's top card, a foundation's top card, or any face-up
  tableau card together with every card above it (a run), from another pile.
- **KL-TURN-1** [D] A face-down card that becomes the top of a tableau pile is turned face
  up at once, as part of the move that uncovered it.
- **KL-WIN-1** The game is won when all 52 cards are on the foundations.
- **KL-END-1** [D] The game ends, lost, when no move is left (nothing to draw, no recycle
  left, no card to move).
- **KL-CAP-1** [D] Option `max_moves` (none: no cap) ends the game, lost, after that many
  moves. The core's `resign` gives up at any time (CORE-RESIGN-1).
- **KL-SCORE-1** The score is the number of cards on the foundations.
"""

GAME = GameInfo(
    NAME,
    "Klondike: build the four foundations from the seven tableau piles, stock and waste",
    1,
    1,
    version="1.0.0",
    options=(
        Option(
            "draw",
            1,
            "Cards turned from the stock at a time.",
            choices=(1, 3),
            minimum=1,
            maximum=3,
        ),
        Option(
            "passes",
            2,
            "How many times the waste may be turned over into the stock.",
            minimum=0,
            maximum=20,
        ),
        Option(
            "max_moves",
            600,
            "Moves before the game ends, lost (none: no cap).",
            minimum=10,
            maximum=5000,
            nullable=True,
            rule_id="KL-CAP-1",
        ),
    ),
    fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("passes", "int", "How many times the waste was recycled so far."),
        ViewField("passes_left", "int", "How many more times the waste may be recycled."),
        ViewField("moves", "int", "Moves made so far."),
        ViewField("foundations", "int", "Cards on the foundations (the score)."),
        ViewField("hidden", "json", "Face-down cards under each tableau pile (7 counts)."),
    ),
)

SUITS = "SHDC"
STOCK, WASTE = 0, 1
NO_CAP_BOUND = 3000
"""The action bound when ``max_moves`` is none (CORE-BOUND-1 truncates there)."""


def found(suit: str) -> int:
    return 2 + SUITS.index(suit)


def tab(pile: int) -> int:
    return 6 + pile


TABLEAU = tuple(range(6, 13))
PILE_NAMES = (
    "stock",
    "waste",
    *(f"foundation.{s}" for s in SUITS),
    *(f"tableau.{p}" for p in range(7)),
)
FOUNDATIONS = tuple(range(2, 6))


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec(PILE_NAMES[STOCK]),
            ZoneSpec(PILE_NAMES[WASTE], None, Visibility.EVERYONE),
            *(ZoneSpec(PILE_NAMES[f], None, Visibility.EVERYONE) for f in FOUNDATIONS),
            *(ZoneSpec(PILE_NAMES[t], None, Visibility.NOBODY) for t in TABLEAU),
        ]
    )


def red(card: Card) -> bool:
    return card.suit is not None and card.suit.is_red


def builds_on(card: Card, onto: Card | None) -> bool:
    """KL-TAB-1: one rank below, the other colour; a king onto an empty pile."""
    if onto is None:
        return card.rank.value == 13
    return card.rank.value == onto.rank.value - 1 and red(card) != red(onto)


def goes_home(card: Card, pile: list[Card]) -> bool:
    """KL-HOME-1: the ace on an empty foundation, then the next rank up."""
    return card.rank.value == len(pile) + 1


@frozen
class Draw(Action):
    verb: ClassVar[str] = "draw"


@frozen
class Recycle(Action):
    verb: ClassVar[str] = "recycle"


@frozen
class Home(Action):
    card: Card
    verb: ClassVar[str] = "home"

    def notation(self) -> str:
        return f"home {self.card}"


@frozen
class Tab(Action):
    card: Card
    pile: int
    verb: ClassVar[str] = "tab"

    def notation(self) -> str:
        return f"tab {self.card} {self.pile}"


KlAction = Draw | Recycle | Home | Tab


class Recycled(Event):
    """The waste (*count* cards) was turned over into the stock."""

    slug: ClassVar[str] = "klondike-author-recycled"
    count: int


class KlState(GameState):
    __slots__ = ("moves", "passes")
    moves: int
    passes: int


def face_up(zones: Zones, z: int, i: int) -> bool:
    return zones.seen[z][i] != 0


class KlondikeLogic(GameLogic[KlState, KlAction]):
    action_types = (Draw, Recycle, Home, Tab)
    position_fields = ("to_act", "moves", "passes")
    max_legal = 8 + 57 * 7 + 2

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        cap = options.get("max_moves")
        return NO_CAP_BOUND if cap is None else int(cap) + 1

    def blank_state(self, players: int, options: Mapping[str, Any]) -> KlState:
        state = KlState(players, options, Zones(layout()))
        state.moves = 0
        state.passes = 0
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> KlState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        z = state.zones
        fill_stock(state, STOCK, cards)
        for row in range(7):  # KL-DEAL-1
            for pile in range(row, 7):
                z.move(STOCK, tab(pile), mask=0)
        if emit is not None:
            emit(CardsDealt((28,)))
        for pile in range(7):  # the tops face up
            card = z.reveal(tab(pile), pile)
            if emit is not None:
                emit(CardRevealed(None, f"tableau.{pile}", pile, card))
        self._settle(state)
        return state

    # -- legality ----------------------------------------------------------------------------

    def _sources(self, state: KlState) -> list[tuple[int, int]]:
        """Every (pile, index) whose card may move to the tableau (KL-TAB-2), in order."""
        z = state.zones
        out: list[tuple[int, int]] = []
        if z.cards[WASTE]:
            out.append((WASTE, len(z.cards[WASTE]) - 1))
        for f in FOUNDATIONS:
            if z.cards[f]:
                out.append((f, len(z.cards[f]) - 1))
        for t in TABLEAU:
            out.extend((t, i) for i in range(len(z.cards[t])) if face_up(z, t, i))
        return out

    def legal_actions(self, state: KlState, seat: int) -> tuple[KlAction, ...]:
        """Home moves (waste, then piles 0-6), tab moves (waste, foundations, runs by pile and
        depth; targets 0-6), draw, recycle."""
        z = state.zones
        acts: list[KlAction] = []
        for src in (WASTE, *TABLEAU):
            if z.cards[src]:
                card = z.cards[src][-1]
                if goes_home(card, z.cards[found(card.suit.letter)]):  # type: ignore[union-attr]
                    acts.append(Home(seat, card))
        for src, i in self._sources(state):
            card = z.cards[src][i]
            for p, t in enumerate(TABLEAU):
                if t != src and builds_on(card, z.cards[t][-1] if z.cards[t] else None):
                    if src in TABLEAU and i == 0 and not z.cards[t]:
                        continue  # a king alone moving to an empty pile changes nothing
                    acts.append(Tab(seat, card, p))
        if z.cards[STOCK]:
            acts.append(Draw(seat))
        elif z.cards[WASTE] and state.passes < int(state.options["passes"]):
            acts.append(Recycle(seat))
        return tuple(acts)

    def _where(self, state: KlState, card: Card) -> tuple[int, int]:
        z = state.zones
        for pile, cards in enumerate(z.cards):
            if card in cards:
                return pile, cards.index(card)
        raise AssertionError(card)  # every card is somewhere

    def rule_for(self, state: KlState, action: KlAction) -> tuple[str, str]:
        z = state.zones
        if isinstance(action, Draw):
            return "KL-DRAW-1", "the stock is empty: recycle the waste or move a card"
        if isinstance(action, Recycle):
            if z.cards[STOCK]:
                return "KL-RECYCLE-1", "the stock is not empty yet"
            return "KL-RECYCLE-1", f"no recycle left (at most {state.options['passes']})"
        card = action.card
        if card not in self.deck(1, state.options):  # a joker: a card, but not of this game
            rule = "KL-HOME-1" if isinstance(action, Home) else "KL-TAB-2"
            return rule, f"{card} is not a card of this game"
        pile, i = self._where(state, card)
        movable = (pile == WASTE or pile in TABLEAU) and i == len(z.cards[pile]) - 1
        if isinstance(action, Home):
            if not movable or not face_up(z, pile, i):
                return "KL-HOME-1", f"{card} is not the top card of the waste or of a pile"
            return "KL-HOME-1", f"{card} does not follow its foundation's top card"
        if not 0 <= action.pile < 7:
            return "KL-TAB-1", f"there is no tableau pile {action.pile} (0-6)"
        top = pile in (WASTE, *FOUNDATIONS) and i == len(z.cards[pile]) - 1
        if not (top or (pile in TABLEAU and face_up(z, pile, i))) or pile == tab(action.pile):
            return "KL-TAB-2", f"{card} is not a face-up card that may move to pile {action.pile}"
        return "KL-TAB-1", f"{card} does not build on tableau pile {action.pile}"

    # -- applying ----------------------------------------------------------------------------

    def apply(self, state: KlState, action: KlAction, emit: Emit | None) -> None:
        z = state.zones
        state.moves += 1
        if isinstance(action, Draw):  # KL-DRAW-1
            for _ in range(min(int(state.options["draw"]), len(z.cards[STOCK]))):
                card = z.move(STOCK, WASTE, mask=ALL)
                if emit is not None:
                    emit(CardMoved(0, "stock", "waste", card))
        elif isinstance(action, Recycle):  # KL-RECYCLE-1
            count = len(z.cards[WASTE])
            while z.cards[WASTE]:
                z.move(WASTE, STOCK)  # known to all: the player saw every card go by
            state.passes += 1
            if emit is not None:
                emit(Recycled(count))
        else:
            src, i = self._where(state, action.card)
            if isinstance(action, Home):  # KL-HOME-1
                dst = found(action.card.suit.letter)  # type: ignore[union-attr]
                moved = [z.move(src, dst, i, mask=ALL)]
            else:  # KL-TAB-1, KL-TAB-2: the run from index i up
                dst = tab(action.pile)
                moved = [z.move(src, dst, i, mask=ALL) for _ in range(len(z.cards[src]) - i)]
            if emit is not None:
                for card in moved:
                    emit(CardMoved(0, PILE_NAMES[src], PILE_NAMES[dst], card))
            if src in TABLEAU and z.cards[src] and not face_up(z, src, len(z.cards[src]) - 1):
                k = len(z.cards[src]) - 1  # KL-TURN-1
                card = z.reveal(src, k)
                if emit is not None:
                    emit(CardRevealed(None, PILE_NAMES[src], k, card))
        self._settle(state)

    def _settle(self, state: KlState) -> None:
        """End the game when it is won (KL-WIN-1), stuck (KL-END-1) or capped (KL-CAP-1)."""
        home = self.foundation_count(state)
        cap = state.options.get("max_moves")
        if home == 52:
            end_game(state, (0,), self.score_round(state, [52]), "all cards home")
        elif not self.legal_actions(state, 0):
            end_game(state, (), self.score_round(state, [home]), "no move left", reveal=False)
        elif cap is not None and state.moves >= int(cap):
            end_game(state, (), self.score_round(state, [home]), "move cap", reveal=False)

    def resign(self, state: KlState, seat: int) -> None:
        """Giving up ends the game unwon; the face-down cards stay face down."""
        end_game(state, (), [self.foundation_count(state)], "resigned", reveal=False)

    @staticmethod
    def foundation_count(state: GameState) -> int:
        return sum(len(state.zones.cards[f]) for f in FOUNDATIONS)

    def scores(self, state: KlState) -> tuple[float, ...]:
        return (float(self.foundation_count(state)),)

    def standings(self, state: KlState) -> tuple[int, ...]:
        return (0,) if self.foundation_count(state) == 52 else ()

    def table(self, state: KlState, seat: int | None) -> dict[str, Any]:
        z = state.zones
        hidden = [sum(1 for i in range(len(z.cards[t])) if not face_up(z, t, i)) for t in TABLEAU]
        passes = int(state.options["passes"])
        return {
            "stock": len(z.cards[STOCK]),
            "passes": state.passes,
            "passes_left": passes - state.passes,
            "moves": state.moves,
            "foundations": self.foundation_count(state),
            "hidden": hidden,
        }

    def check_position(self, state: KlState) -> None:
        z = state.zones
        for s in SUITS:
            pile = z.cards[found(s)]
            check(
                all(
                    c.suit is not None and c.suit.letter == s and c.rank.value == n + 1
                    for n, c in enumerate(pile)
                ),
                "foundation.{} must hold its suit from the ace up (KL-HOME-1)",
                s,
            )
        for p, t in enumerate(TABLEAU):
            ups = [face_up(z, t, i) for i in range(len(z.cards[t]))]
            check(ups == sorted(ups), "tableau.{}: face-down cards lie under face-up ones", p)
            check(
                state.is_over or not ups or ups[-1],
                "tableau.{}: the top card must be face up (KL-TURN-1)",
                p,
            )
            run = [c for c, up in zip(z.cards[t], ups, strict=True) if up]
            check(
                all(builds_on(b, a) for a, b in pairwise(run)),
                "tableau.{}: the face-up cards must form a run (KL-TAB-1)",
                p,
            )
        check(0 <= state.passes <= int(state.options["passes"]), "passes out of range")


@hookimpl
def create_logic(ruleset: Ruleset) -> KlondikeLogic:
    return KlondikeLogic(ruleset)
