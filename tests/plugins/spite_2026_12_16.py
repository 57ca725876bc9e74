"""Spite and Malice (Cat and Mouse), a two-player race written by a third-party author from
the docs.

Rules (each with its ID):

* SPITE-GEN-1: exactly 2 players.
* SPITE-DECK-1: two standard 52-card decks, no jokers (104 cards; the game's ``build_deck``).
* SPITE-DEAL-1: ``payoff`` cards (option, default 20, 1..40) to each payoff pile, one at a
  time, seat 0 first; then 5 cards to each hand, one at a time, seat 0 first; the rest is
  the stock (face down, nobody sees it).
* SPITE-DEAL-2: only the top card of a payoff pile is face up; the cards under it are
  hidden from everyone (its owner too) until they become the top.
* SPITE-TURN-1: seat 0 starts; turns alternate. At the start of each turn (but the first
  of each seat, already holding 5) the hand is refilled to 5 from the stock while it lasts.
* SPITE-TURN-2: a turn ends by discarding one card from the hand onto one of the seat's own
  four discard piles: ``discard <card> <d>`` (d = 0..3). Every discard-pile card is face up
  and the order is kept; only the top may be played from.
* SPITE-TURN-3: [D] a seat that empties its hand during its turn refills it to 5 from the
  stock at once; a seat with an empty hand and an empty stock ends its turn with ``pass``.
* SPITE-BUILD-1: there are 4 shared centre build piles (0..3). A card may go on a pile
  when its rank is the next one: A on an empty pile, then 2, 3, ... up to Q, regardless of
  suit. ``pay <pile>`` plays the payoff top, ``play <card> <pile>`` a hand card,
  ``lift <d> <pile>`` the top of own discard pile d.
* SPITE-WILD-1: kings are wild: a king may stand for any rank, namely the next rank the
  pile needs. What each pile stands at is the table field ``build_<i>`` (0 = empty, 1 = A,
  ..., 12 = Q), and the event ``spite-wild`` names the rank a wild card stands for.
* SPITE-BUILD-2: a pile completed through Q is shuffled back into the stock, and its slot
  is empty again.
* SPITE-WIN-1: the first seat to empty its payoff pile wins at once.
* SPITE-SCORE-1: each seat scores 5 per card its opponent has left in the payoff pile
  beyond its own (never below 0); the score passes through ``score_round``.
* SPITE-END-2: [D] when the stock and both hands are empty and two turns in a row end with
  no card built, the game ends: the seat with fewer payoff cards wins (a tie: both).

Actions are listed in this order: ``pay``, ``lift``, ``play``, ``discard``, ``pass``.

Game hook (for house rules): ``spite_wild_labels(options)`` answers the card labels that
are wild (default ``("K",)``).

House rule (module ``spite_rules_2026_12_16``): SPITE-JOKERS-1.
"""

from __future__ import annotations

import types
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
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    Rank,
    Shuffled,
    Suit,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game

NAME = "spite-2026-12-16"
PLAYERS = 2
HAND_SIZE = 5
PILES = 4
TOP_RANK = 12  # Q completes a pile

RULES_MD = "\n".join(
    f"- **{line.split(':', 1)[0].strip('* ')}** {line.split(':', 1)[1].strip()}"
    for line in (__doc__ or "").replace("\n  ", " ").splitlines()
    if line.startswith("* SPITE-")
)

STOCK = 0


def payoff(seat: int) -> int:
    return 1 + seat


def hand(seat: int) -> int:
    return 3 + seat


def build(i: int) -> int:
    return 5 + i


def discard(seat: int, d: int) -> int:
    return 9 + seat * PILES + d


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            *(ZoneSpec(f"payoff.{s}", s, Visibility.NOBODY) for s in range(PLAYERS)),
            *(ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(PLAYERS)),
            *(ZoneSpec(f"build.{i}", None, Visibility.EVERYONE) for i in range(PILES)),
            *(
                ZoneSpec(f"discard.{s}.{d}", s, Visibility.EVERYONE)
                for s in range(PLAYERS)
                for d in range(PILES)
            ),
        ]
    )


# --- the game's own hook, built in place (docs/plugin-guide/hookspecs.rst) -----------------


def _wild_labels_spec(options: Mapping[str, Any]) -> tuple[str, ...] | None:
    """Answer the labels of the wild cards (``("K",)`` by default); the first answer wins.

    :param options: The resolved options.
    :returns: A tuple of card labels, or ``None`` to leave the default.
    """


_LABELS = frozenset(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"))
"""The card labels a wild-labels answer may name."""

hookspecs = types.ModuleType("spite_2026_12_16_hookspecs")
setattr(hookspecs, "spite_wild_labels", hookspec(firstresult=True)(_wild_labels_spec))  # noqa: B010


GAME = GameInfo(
    NAME,
    "Spite and Malice: build A..Q from your payoff pile, kings wild; first to empty it wins",
    2,
    2,
    version="1.0.0",
    options=(Option("payoff", 20, "Cards in each payoff pile.", minimum=1, maximum=40),),
    hookspecs=hookspecs,
    fields=(
        *(
            ViewField(f"build_{i}", "int", f"The rank build pile {i} stands at (0 empty, 12 Q).")
            for i in range(PILES)
        ),
        ViewField("payoff_left", "per-seat", "Cards left in each payoff pile.", of="int"),
        ViewField("stock_left", "int", "Cards left in the stock."),
        ViewField("idle", "int", "Turns in a row that ended with no card built."),
        ViewField("built", "bool", "Whether a card was built this turn."),
    ),
)


class WildPlayed(Event):
    """Seat *seat* played the wild *card* on build pile *pile*, standing for *stands_for*."""

    slug: ClassVar[str] = "spite-wild"
    seat: int
    pile: int
    card: Card
    stands_for: str


@frozen
class Pay(Action):
    pile: int
    verb: ClassVar[str] = "pay"

    def notation(self) -> str:
        return f"pay {self.pile}"


@frozen
class Lift(Action):
    src: int
    pile: int
    verb: ClassVar[str] = "lift"

    def notation(self) -> str:
        return f"lift {self.src} {self.pile}"


@frozen
class Play(Action):
    card: Card
    pile: int
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card} {self.pile}"


@frozen
class Discard(Action):
    card: Card
    dst: int
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {self.card} {self.dst}"


@frozen
class Pass(Action):
    verb: ClassVar[str] = "pass"


SpiteAction = Pay | Lift | Play | Discard | Pass

LABELS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")


class SpiteState(GameState):
    __slots__ = ("built", "idle")
    idle: int
    built: bool


class SpiteLogic(GameLogic[SpiteState, SpiteAction]):
    action_types = (Pay, Lift, Play, Discard, Pass)
    position_fields = ("to_act", "idle", "built")
    max_legal = 4 + 16 + 20 + 20 + 1

    def __init__(self, ruleset: Any) -> None:
        super().__init__(ruleset)
        self._wild = ruleset.resolve("spite_wild_labels")

    def wild_labels(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        answer = self._wild(options=options) if self._wild is not None else None
        if answer is None:
            return ("K",)
        if type(answer) is not tuple or not all(type(x) is str and x in _LABELS for x in answer):
            raise self.refused_answer(  # a house rule's garbage, blamed on that rule by name
                "spite_wild_labels", answer, "a tuple of card labels", asked={"options": options}
            )
        return answer

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 6000

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        super().validate(players, options)

    def blank_state(self, players: int, options: Mapping[str, Any]) -> SpiteState:
        state = SpiteState(players, options, Zones(layout()))
        state.idle, state.built = 0, False
        state.to_act = (0,)
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> SpiteState:
        """SPITE-DEAL-1, SPITE-DEAL-2."""
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        n = int(options["payoff"])
        deal_round_robin(state, STOCK, [payoff(0), payoff(1)], n)
        deal_round_robin(state, STOCK, [hand(0), hand(1)], HAND_SIZE)
        if emit is not None:
            emit(CardsDealt((n + HAND_SIZE,) * 2))
        for s in range(PLAYERS):
            state.zones.forget(payoff(s))
            top = state.zones.reveal(payoff(s))
            if emit is not None:
                emit(CardRevealed(s, f"payoff.{s}", n - 1, top))
        state.to_act = (0,)
        return state

    # --- legality ---------------------------------------------------------------------------

    def _fits(self, state: SpiteState, card: Card, pile: int) -> bool:
        """SPITE-BUILD-1, SPITE-WILD-1."""
        if card.label in self.wild_labels(state.options):
            return True
        return int(card.rank) == len(state.zones.cards[build(pile)]) + 1

    def legal_actions(self, state: SpiteState, seat: int) -> tuple[SpiteAction, ...]:
        z = state.zones
        out: list[SpiteAction] = []
        top = z.top(payoff(seat))
        if top is not None:
            out += [Pay(seat, p) for p in range(PILES) if self._fits(state, top, p)]
        for d in range(PILES):
            t = z.top(discard(seat, d))
            if t is not None:
                out += [Lift(seat, d, p) for p in range(PILES) if self._fits(state, t, p)]
        held = sorted(set(z.cards[hand(seat)]), key=lambda c: (int(c.rank), str(c)))
        out += [Play(seat, c, p) for c in held for p in range(PILES) if self._fits(state, c, p)]
        out += [Discard(seat, c, d) for c in held for d in range(PILES)]
        if not held:
            out.append(Pass(seat))
        return tuple(out)

    def rule_for(self, state: SpiteState, action: SpiteAction) -> tuple[str, str]:
        z, seat = state.zones, action.seat
        if isinstance(action, Pass):
            return "SPITE-TURN-2", "a turn ends by discarding a card from the hand"
        if isinstance(action, Discard):
            if not 0 <= action.dst < PILES:
                return "SPITE-TURN-2", f"discard piles are 0-3, not {action.dst}"
            return "SPITE-TURN-2", f"seat {seat} holds no {action.card}"
        pile = action.pile
        if not 0 <= pile < PILES:
            return "SPITE-BUILD-1", f"build piles are 0-3, not {pile}"
        need = LABELS[len(z.cards[build(pile)]) + 1]
        if isinstance(action, Play) and action.card not in z.cards[hand(seat)]:
            return "SPITE-BUILD-1", f"seat {seat} holds no {action.card}"
        if isinstance(action, Lift) and not (
            0 <= action.src < PILES and z.cards[discard(seat, action.src)]
        ):
            return "SPITE-BUILD-1", f"seat {seat} has no card on discard pile {action.src}"
        return "SPITE-BUILD-1", f"build pile {pile} needs a {need} (or a wild card)"

    # --- applying ------------------------------------------------------------------------------

    def apply(self, state: SpiteState, action: SpiteAction, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        if isinstance(action, Discard):
            i = z.cards[hand(seat)].index(action.card)
            card = z.move(hand(seat), discard(seat, action.dst), i, mask=ALL)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", f"discard.{seat}.{action.dst}", card))
            self._end_turn(state, emit)
            return
        if isinstance(action, Pass):
            self._end_turn(state, emit)
            return
        if isinstance(action, Pay):
            src, i = payoff(seat), len(z.cards[payoff(seat)]) - 1
            name = f"payoff.{seat}"
        elif isinstance(action, Lift):
            src, i = discard(seat, action.src), len(z.cards[discard(seat, action.src)]) - 1
            name = f"discard.{seat}.{action.src}"
        else:
            src, i = hand(seat), z.cards[hand(seat)].index(action.card)
            name = f"hand.{seat}"
        pile = action.pile
        stands = LABELS[len(z.cards[build(pile)]) + 1]
        card = z.move(src, build(pile), i, mask=ALL)
        state.built = True
        if emit is not None:
            emit(CardMoved(seat, name, f"build.{pile}", card))
            if card.label in self.wild_labels(state.options):
                emit(WildPlayed(seat, pile, card, stands))
        if isinstance(action, Pay):
            left = len(z.cards[payoff(seat)])
            if left:
                top = z.reveal(payoff(seat))
                if emit is not None:
                    emit(CardRevealed(seat, name, left - 1, top))
            else:
                self._finish(state, "payoff emptied")  # SPITE-WIN-1
                return
        if len(z.cards[build(pile)]) == TOP_RANK:  # SPITE-BUILD-2
            while z.cards[build(pile)]:
                z.move(build(pile), STOCK, mask=0)
            z.shuffle(STOCK, state.rng())
            if emit is not None:
                emit(Shuffled("stock", len(z.cards[STOCK])))
        if isinstance(action, Play) and not z.cards[hand(seat)]:  # SPITE-TURN-3
            self._refill(state, seat, emit)

    def _refill(self, state: SpiteState, seat: int, emit: Emit | None) -> None:
        z = state.zones
        while len(z.cards[hand(seat)]) < HAND_SIZE and z.cards[STOCK]:
            card = z.move(STOCK, hand(seat), mask=1 << seat)
            if emit is not None:
                emit(CardDrawn(seat, "stock", card, 1 << seat))

    def _end_turn(self, state: SpiteState, emit: Emit | None) -> None:
        """SPITE-TURN-1, SPITE-END-2."""
        z = state.zones
        state.idle = 0 if state.built else state.idle + 1
        state.built = False
        nxt = 1 - state.to_act[0]
        if state.idle >= 2 and not z.cards[STOCK] and not z.cards[hand(0)] and not z.cards[hand(1)]:
            self._finish(state, "stalemate")
            return
        state.to_act = (nxt,)
        self._refill(state, nxt, emit)

    def _finish(self, state: SpiteState, reason: str) -> None:
        left = [len(state.zones.cards[payoff(s)]) for s in range(PLAYERS)]
        scores = self.score_round(state, [5 * max(0, left[1 - s] - left[s]) for s in range(2)])
        low = min(left)
        winners = tuple(s for s in range(PLAYERS) if left[s] == low)
        end_game(state, winners, [float(x) for x in scores], reason)

    def scores(self, state: SpiteState) -> tuple[float, ...]:
        left = [len(state.zones.cards[payoff(s)]) for s in range(PLAYERS)]
        return tuple(float(5 * max(0, left[1 - s] - left[s])) for s in range(PLAYERS))

    def table(self, state: SpiteState, seat: int | None) -> dict[str, Any]:
        z = state.zones
        out: dict[str, Any] = {f"build_{i}": len(z.cards[build(i)]) for i in range(PILES)}
        out["payoff_left"] = [len(z.cards[payoff(s)]) for s in range(PLAYERS)]
        out["stock_left"] = len(z.cards[STOCK])
        out["idle"] = state.idle
        out["built"] = state.built
        return out

    def check_position(self, state: SpiteState) -> None:
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        for i in range(PILES):
            n = len(state.zones.cards[build(i)])
            check(n < TOP_RANK, "build pile {} holds {} cards (12 completes it)", i, n)


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """SPITE-DECK-1: two standard decks, no jokers."""
    one = tuple(Card(r, Suit(s)) for s in ("C", "D", "H", "S") for r in Rank if r != Rank.JOKER)
    return one + one


@hookimpl
def create_logic(ruleset: Any) -> SpiteLogic:
    return SpiteLogic(ruleset)
