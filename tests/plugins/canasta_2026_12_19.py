"""Canasta for four players in two partnerships, written from cardcore's docs alone.

A single-module game plugin (``GAME`` + ``create_logic``), registered by the tests
with :func:`cardcore.register` under the name ``canasta-1219``. Simplified rules,
each with an ID (see ``RULES_MD``). Notation:

``draw`` (two from the stock), ``pickup`` (the whole discard pile), ``meld R``
(three natural cards of rank R), ``mix R W`` (two naturals of R and the wild W),
``add R`` (one natural onto the team's meld of R), ``wild R W`` (the wild W onto
the team's meld of R), ``discard C``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from attrs import field, frozen

from cardcore import (
    ALL,
    Action,
    Card,
    CardDiscarded,
    CardDrawn,
    CardMoved,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    Rank,
    RoundScored,
    Ruleset,
    Shuffled,
    Suit,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    decks,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.turns import end_game, next_seat, winners_by

NAME = "canasta-1219"

RULES_MD = """\
# Canasta (simplified), rule IDs

| ID | Rule |
|----|------|
| CANASTA-SEAT-1 | 4 players; seats 0 and 2 are partners against 1 and 3. |
| CANASTA-DECK-1 | Two 52-card decks and four jokers: 108 cards. |
| CANASTA-DEAL-1 | 11 cards each, one at a time; the next card starts the discard pile. |
| CANASTA-RED3-1 | A red three dealt or drawn is laid at once for the team and replaced from the stock. |
| CANASTA-DRAW-1 | A turn starts by drawing two cards from the stock, or by taking the pile. |
| CANASTA-PICK-1 | The pile may be taken only if its top card is melded at once with two natural cards of its rank from the hand; an unfrozen pile also with one natural and one wild card, or onto the team's meld of the rank. |
| CANASTA-PICK-2 | A wild card or a three on top of the pile can never be taken. |
| CANASTA-FREEZE-1 | The pile is frozen while it holds a wild card or a red three. |
| CANASTA-MELD-1 | A meld is 3+ cards of one rank (A, 4 to K), at most half of them wild; one meld per rank per team. |
| CANASTA-MELD-2 | Cards may be added to the team's melds; a meld never holds more wild than natural cards. |
| CANASTA-CANASTA-1 | A meld of 7+ cards is a canasta: natural (no wild card) 500, mixed 300. |
| CANASTA-OUT-1 | A player goes out by playing the last card; only when the team has a canasta. No play may leave a hand of fewer than two cards otherwise. |
| CANASTA-DISC-1 | A turn ends with a discard. |
| CANASTA-STOCK-1 | The hand ends when a turn would start with an empty stock. |
| CANASTA-SCORE-1 | Joker 50, 2 and A 20, K to 8 10, 7 to 4 and black 3 5: melded cards count for, cards left in hand against. |
| CANASTA-SCORE-2 | Going out 100. Red threes 100 each, 800 for all four; against a team that melded nothing. |
| CANASTA-GAME-1 | Hands are played until a team reaches `target` (5000) at the end of a hand, or `max_hands` hands; highest total wins, ties share. |
| CANASTA-VAR-1 | House rule `initial-meld`: a team's first meld must count at least `initial_meld_min` points. |
"""

MELD_RANKS = ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The ranks that may be melded, in the order of the notation's listings."""
WILD_ORDER = ("2S", "2H", "2D", "2C", "JK")
"""The wild cards, cheapest first (a pickup with a wild uses the cheapest)."""
HAND = 11
STOCK, DISCARD = 0, 1


def team(seat: int) -> int:
    """A seat's team: 0 for seats 0 and 2, 1 for seats 1 and 3 (CANASTA-SEAT-1)."""
    return seat % 2


def hand(seat: int) -> int:
    return 2 + seat


def reds(t: int) -> int:
    return 6 + t


def meld(t: int, rank: str) -> int:
    return 8 + t * len(MELD_RANKS) + MELD_RANKS.index(rank)


def is_wild(card: Card) -> bool:
    return card.is_joker or card.rank is Rank.TWO


def is_red_three(card: Card) -> bool:
    return card.rank is Rank.THREE and card.suit in (Suit.HEARTS, Suit.DIAMONDS)


def natural(card: Card, rank: str) -> bool:
    return not card.is_joker and card.label == rank


@cache
def layout() -> Layout:
    specs = [ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP)]
    specs += [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(4)]
    specs += [ZoneSpec(f"reds.{t}", None, Visibility.EVERYONE) for t in range(2)]
    specs += [
        ZoneSpec(f"meld.{t}.{r}", None, Visibility.EVERYONE) for t in range(2) for r in MELD_RANKS
    ]
    return Layout.of(specs)


def _upper(text: str) -> str:
    return str(text).upper()


@frozen
class Draw(Action):
    """Draw two cards from the stock (CANASTA-DRAW-1)."""

    verb: ClassVar[str] = "draw"


@frozen
class PickUp(Action):
    """Take the whole discard pile, melding its top card (CANASTA-PICK-1)."""

    verb: ClassVar[str] = "pickup"


@frozen
class Meld(Action):
    """A new meld of three natural cards of *rank* (CANASTA-MELD-1)."""

    rank: str = field(converter=_upper)
    verb: ClassVar[str] = "meld"

    def notation(self) -> str:
        return f"meld {self.rank}"


@frozen
class Mix(Action):
    """A new meld of two naturals of *rank* and the wild card *wild* (CANASTA-MELD-1)."""

    rank: str = field(converter=_upper)
    wild: Card
    verb: ClassVar[str] = "mix"

    def notation(self) -> str:
        return f"mix {self.rank} {self.wild}"


@frozen
class Add(Action):
    """One natural card of *rank* onto the team's meld of it (CANASTA-MELD-2)."""

    rank: str = field(converter=_upper)
    verb: ClassVar[str] = "add"

    def notation(self) -> str:
        return f"add {self.rank}"


@frozen
class Wild(Action):
    """The wild card *wild* onto the team's meld of *rank* (CANASTA-MELD-2)."""

    rank: str = field(converter=_upper)
    wild: Card
    verb: ClassVar[str] = "wild"

    def notation(self) -> str:
        return f"wild {self.rank} {self.wild}"


@frozen
class Discard(Action):
    """Discard *card*, ending the turn (CANASTA-DISC-1)."""

    card: Card
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {self.card}"


CanastaAction = Draw | PickUp | Meld | Mix | Add | Wild | Discard


class CanastaState(GameState):
    """The piles plus the phase of the turn, the hand number, the totals and the starter."""

    __slots__ = ("frozen", "hand_no", "past", "phase", "starter", "totals")
    _mutable = ("zones", "totals", "past")
    phase: str
    hand_no: int
    totals: list[int]
    starter: int
    frozen: bool
    """CANASTA-FREEZE-1: set when a wild card or a red three lands on the pile, cleared when
    the pile is taken (public, as the card turned sideways at the table)."""
    past: list[dict[str, Any]]


def card_value(card: Card) -> int:
    """CANASTA-SCORE-1."""
    if card.is_joker:
        return 50
    if card.rank in (Rank.TWO, Rank.ACE):
        return 20
    if card.rank >= Rank.EIGHT:
        return 10
    if card.rank is Rank.THREE:
        return 100 if is_red_three(card) else 5
    return 5


def pick(zones: Zones, z: int, pred: Any) -> int:
    """The index of a card of pile *z* matching *pred*, a copy known to all first."""
    found = [i for i, c in enumerate(zones.cards[z]) if pred(c)]
    known = [i for i in found if zones.seen[z][i] == ALL]
    return (known or found)[-1]


class CanastaLogic(GameLogic[CanastaState, CanastaAction]):
    """Four-handed partnership Canasta, simplified."""

    action_types = (Draw, PickUp, Meld, Mix, Add, Wild, Discard)
    position_fields = ("to_act", "phase", "hand_no", "totals", "starter", "frozen")
    max_legal = 200

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        points = ruleset.resolve("card_points")
        assert points is not None
        cards = set(decks(1, jokers_per_deck=1))
        self.points = {c: self.checked_answer("card_points", points(card=c), int) for c in cards}

    # ---- configuration
    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 700 * int(options["max_hands"]) + 10

    def blank_state(self, players: int, options: Mapping[str, Any]) -> CanastaState:
        state = CanastaState(players, options, Zones(layout()))
        state.phase, state.hand_no, state.starter = "draw", 1, 0
        state.totals, state.past, state.frozen = [0] * players, [], False
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> CanastaState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: CanastaState, emit: Emit | None) -> None:
        """CANASTA-DEAL-1 and CANASTA-RED3-1."""
        order = [hand((state.starter + k) % 4) for k in range(4)]
        deal_round_robin(state, STOCK, order, HAND)
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(4))))
        for k in range(4):
            self._lay_red_threes(state, (state.starter + k) % 4, emit)
        card = state.zones.move(STOCK, DISCARD)
        state.frozen = is_wild(card) or is_red_three(card)
        if emit is not None:
            emit(CardMoved(None, "stock", "discard", card))
        state.phase, state.to_act = "draw", (state.starter,)

    def _lay_red_threes(self, state: CanastaState, seat: int, emit: Emit | None) -> None:
        z = state.zones
        while any(is_red_three(c) for c in z.cards[hand(seat)]):
            i = next(i for i, c in enumerate(z.cards[hand(seat)]) if is_red_three(c))
            card = z.move(hand(seat), reds(team(seat)), i, mask=ALL)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", f"reds.{team(seat)}", card))
            self._draw_one(state, seat, emit)

    def _draw_one(self, state: CanastaState, seat: int, emit: Emit | None) -> None:
        if state.zones.cards[STOCK]:
            card = state.zones.move(STOCK, hand(seat))
            if emit is not None:
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))

    # ---- rules helpers
    def frozen(self, state: CanastaState) -> bool:
        """CANASTA-FREEZE-1."""
        return state.frozen

    @staticmethod
    def naturals(state: CanastaState, seat: int, rank: str) -> int:
        return sum(natural(c, rank) for c in state.zones.cards[hand(seat)])

    @staticmethod
    def has_canasta(state: CanastaState, t: int, extra: Mapping[str, int] | None = None) -> bool:
        extra = extra or {}
        return any(len(state.zones.cards[meld(t, r)]) + extra.get(r, 0) >= 7 for r in MELD_RANKS)

    @staticmethod
    def meld_counts(state: CanastaState, t: int, rank: str) -> tuple[int, int]:
        """(naturals, wilds) of the team's meld of *rank*."""
        cards = state.zones.cards[meld(t, rank)]
        wilds = sum(is_wild(c) for c in cards)
        return len(cards) - wilds, wilds

    def pickup_plan(self, state: CanastaState, seat: int) -> tuple[int, str | None] | None:
        """How the pile would be taken: (naturals from hand, wild used) or ``None`` if it cannot."""
        top = state.zones.top(DISCARD)
        if top is None or is_wild(top) or top.rank is Rank.THREE:
            return None  # CANASTA-PICK-2
        rank, t = top.label, team(seat)
        n = self.naturals(state, seat, rank)
        held = state.zones.cards[hand(seat)]
        if n >= 2:
            plan: tuple[int, str | None] = (2, None)
        elif self.frozen(state):
            return None
        elif state.zones.cards[meld(t, rank)]:
            plan = (0, None)
        elif n == 1 and (
            wild := next((w for w in WILD_ORDER if any(str(c) == w for c in held)), None)
        ):
            plan = (1, wild)
        else:
            return None
        used = plan[0] + (plan[1] is not None)
        left = len(held) - used + len(state.zones.cards[DISCARD]) - 1
        left -= sum(is_red_three(c) for c in state.zones.cards[DISCARD])
        added = 1 + used
        if left < 2 and not self.has_canasta(state, t, {rank: added}):
            return None  # CANASTA-OUT-1
        return plan

    def _leaves(self, state: CanastaState, seat: int, used: int, rank: str) -> bool:
        """May *seat* put *used* cards onto the meld of *rank* (CANASTA-OUT-1)?"""
        left = len(state.zones.cards[hand(seat)]) - used
        return left >= 2 or self.has_canasta(state, team(seat), {rank: used})

    # ---- legal actions
    def legal_actions(self, state: CanastaState, seat: int) -> tuple[CanastaAction, ...]:
        """Draw phase: ``draw``, ``pickup``. Play phase: melds, mixes, adds, wilds (by rank,
        then wild card), then discards (by card text)."""
        if state.phase == "draw":
            out: list[CanastaAction] = [Draw(seat)]
            if self.pickup_plan(state, seat) is not None:
                out.append(PickUp(seat))
            return tuple(out)
        held = state.zones.cards[hand(seat)]
        t = team(seat)
        wilds = sorted({str(c) for c in held if is_wild(c)}, key=WILD_ORDER.index)
        melds: list[CanastaAction] = []
        mixes: list[CanastaAction] = []
        adds: list[CanastaAction] = []
        wild_adds: list[CanastaAction] = []
        for rank in MELD_RANKS:
            n = self.naturals(state, seat, rank)
            if state.zones.cards[meld(t, rank)]:
                if n >= 1 and self._leaves(state, seat, 1, rank):
                    adds.append(Add(seat, rank))
                nat, wild = self.meld_counts(state, t, rank)
                if wild + 1 <= nat and self._leaves(state, seat, 1, rank):
                    wild_adds += [Wild(seat, rank, Card.parse(w)) for w in wilds]
            else:
                if n >= 3 and self._leaves(state, seat, 3, rank):
                    melds.append(Meld(seat, rank))
                if n >= 2 and self._leaves(state, seat, 3, rank):
                    mixes += [Mix(seat, rank, Card.parse(w)) for w in wilds]
        discards: list[CanastaAction] = []
        if len(held) >= 2 or self.has_canasta(state, t):
            discards = [Discard(seat, Card.parse(c)) for c in sorted({str(c) for c in held})]
        return (*melds, *mixes, *adds, *wild_adds, *discards)

    def rule_for(self, state: CanastaState, action: CanastaAction) -> tuple[str, str]:
        if state.phase == "draw" and not isinstance(action, Draw | PickUp):
            return "CANASTA-DRAW-1", "draw or take the pile first"
        if state.phase == "play" and isinstance(action, Draw | PickUp):
            return "CANASTA-DRAW-1", "you have drawn this turn already"
        if isinstance(action, PickUp):
            top = state.zones.top(DISCARD)
            if top is not None and (is_wild(top) or top.rank is Rank.THREE):
                return "CANASTA-PICK-2", "a wild card or a three on top of the pile cannot be taken"
            if self.frozen(state):
                return (
                    "CANASTA-FREEZE-1",
                    "the pile is frozen: two natural cards of its top's rank are needed",
                )
            return "CANASTA-PICK-1", "the top card of the pile cannot be melded from this hand"
        if isinstance(action, Meld | Mix | Add | Wild):
            if action.rank not in MELD_RANKS:
                return "CANASTA-MELD-1", f"{action.rank} cannot be melded"
            used = {Meld: 3, Mix: 3, Add: 1, Wild: 1}[type(action)]
            if not self._leaves(state, action.seat, used, action.rank):
                return (
                    "CANASTA-OUT-1",
                    "no play may leave fewer than two cards before the team has a canasta",
                )
            if isinstance(action, Wild) and state.zones.cards[meld(team(action.seat), action.rank)]:
                return "CANASTA-MELD-2", "a meld holds at most as many wild cards as natural ones"
            return "CANASTA-MELD-1", "no such meld from this hand"
        if isinstance(action, Discard) and len(state.zones.cards[hand(action.seat)]) == 1:
            return "CANASTA-OUT-1", "going out needs a canasta"
        return "CANASTA-OUT-1", "this play is not allowed now"

    # ---- apply
    def apply(self, state: CanastaState, action: CanastaAction, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        h, t = hand(seat), team(seat)
        if isinstance(action, Draw):
            for _ in range(2):
                self._draw_one(state, seat, emit)
                self._lay_red_threes(state, seat, emit)
            state.phase = "play"
            return
        if isinstance(action, PickUp):
            plan = self.pickup_plan(state, seat)
            assert plan is not None
            top = z.top(DISCARD)
            assert top is not None
            rank = top.label
            self._to_meld(state, seat, DISCARD, len(z.cards[DISCARD]) - 1, rank, emit)
            for _ in range(plan[0]):
                self._to_meld(state, seat, h, pick(z, h, lambda c: natural(c, rank)), rank, emit)
            if plan[1] is not None:
                self._to_meld(state, seat, h, pick(z, h, lambda c: str(c) == plan[1]), rank, emit)
            while z.cards[DISCARD]:
                card = z.move(DISCARD, h)
                if emit is not None:
                    emit(CardMoved(seat, "discard", f"hand.{seat}", card))
            for i in reversed([i for i, c in enumerate(z.cards[h]) if is_red_three(c)]):
                card = z.move(h, reds(t), i, mask=ALL)
                if emit is not None:
                    emit(CardMoved(seat, f"hand.{seat}", f"reds.{t}", card))
            state.phase, state.frozen = "play", False
        elif isinstance(action, Meld | Mix | Add):
            count = {Meld: 3, Mix: 2, Add: 1}[type(action)]
            rank = action.rank
            for _ in range(count):
                self._to_meld(state, seat, h, pick(z, h, lambda c: natural(c, rank)), rank, emit)
            if isinstance(action, Mix):
                w = str(action.wild)
                self._to_meld(state, seat, h, pick(z, h, lambda c: str(c) == w), rank, emit)
        elif isinstance(action, Wild):
            w = str(action.wild)
            self._to_meld(state, seat, h, pick(z, h, lambda c: str(c) == w), action.rank, emit)
        else:
            card_text = str(action.card)
            card = z.move(h, DISCARD, pick(z, h, lambda c: str(c) == card_text))
            state.frozen = state.frozen or is_wild(card)
            if emit is not None:
                emit(CardDiscarded(seat, card))
            if z.cards[h]:
                if not z.cards[STOCK]:  # CANASTA-STOCK-1
                    self._end_hand(state, None, emit)
                else:
                    state.phase, state.to_act = "draw", (next_seat(seat, 4),)
                return
        if not z.cards[h]:  # CANASTA-OUT-1: went out
            self._end_hand(state, seat, emit)

    def _to_meld(
        self, state: CanastaState, seat: int, src: int, i: int, rank: str, emit: Emit | None
    ) -> None:
        dst = meld(team(seat), rank)
        card = state.zones.move(src, dst, i, mask=ALL)
        if emit is not None:
            emit(
                CardMoved(
                    seat,
                    state.zones.layout.specs[src].name,
                    state.zones.layout.specs[dst].name,
                    card,
                )
            )

    # ---- scoring
    def hand_scores(self, state: CanastaState, out: int | None) -> list[int]:
        """Each team's points this hand (CANASTA-SCORE-1/2, CANASTA-CANASTA-1)."""
        z = state.zones
        team_points = [0, 0]
        for t in range(2):
            melded = False
            for r in MELD_RANKS:
                cards = z.cards[meld(t, r)]
                if not cards:
                    continue
                melded = True
                team_points[t] += sum(self.points[c] for c in cards)
                if len(cards) >= 7:
                    team_points[t] += 300 if any(is_wild(c) for c in cards) else 500
            threes = len(z.cards[reds(t)])
            bonus = 800 if threes == 4 else 100 * threes
            team_points[t] += bonus if melded else -bonus
            if out is not None and team(out) == t:
                team_points[t] += 100
            for s in (t, t + 2):
                team_points[t] -= sum(self.points[c] for c in z.cards[hand(s)])
        return team_points

    def _end_hand(self, state: CanastaState, out: int | None, emit: Emit | None) -> None:
        team_points = self.hand_scores(state, out)
        raw = [team_points[team(s)] for s in range(4)]
        scores = self.score_round(state, raw)
        if scores[0] != scores[2] or scores[1] != scores[3]:
            raise self.refused_answer(
                "score_round",
                list(scores),
                "one score per team",
                asked={"state": state, "scores": raw},
            )
        state.totals = [a + b for a, b in zip(state.totals, scores, strict=True)]
        state.past.append({"hand": state.hand_no, "scores": list(scores), "out": out})
        if emit is not None:
            emit(RoundScored(state.hand_no, tuple(scores), tuple(state.totals)))
        opts = state.options
        if max(state.totals) >= opts["target"] or state.hand_no >= opts["max_hands"]:
            reason = "target reached" if max(state.totals) >= opts["target"] else "hand limit"
            end_game(
                state,
                winners_by(state.totals, lowest=False),
                list(map(float, state.totals)),
                reason,
            )
            return
        state.hand_no += 1
        state.starter = (state.starter + 1) % 4
        gather(state, STOCK)
        if emit is not None:
            emit(Shuffled("stock", len(state.zones.cards[STOCK])))
        self._deal(state, emit)

    # ---- views and the rest
    def table(self, state: CanastaState, seat: int | None) -> dict[str, Any]:
        return {
            "stock": len(state.zones.cards[STOCK]),
            "phase": state.phase,
            "frozen": self.frozen(state),
            "hand_no": state.hand_no,
            "totals": list(state.totals),
            "starter": state.starter,
        }

    def history(self, state: CanastaState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return [dict(entry) for entry in state.past[since:]]

    def scores(self, state: CanastaState) -> tuple[float, ...]:
        return tuple(map(float, state.totals))

    def standings(self, state: CanastaState) -> tuple[int, ...]:
        return winners_by(state.totals, lowest=False)

    def resign(self, state: CanastaState, seat: int) -> None:
        """The resigning seat's partner loses with it (partnership checklist)."""
        winners = tuple(s for s in range(4) if team(s) != team(seat))
        end_game(state, winners, list(map(float, state.totals)), "resigned")

    def check_position(self, state: CanastaState) -> None:
        from cardcore.positions import check

        check(state.phase in ("draw", "play"), "phase must be draw or play, not {}", state.phase)
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(
            state.totals[0] == state.totals[2] and state.totals[1] == state.totals[3],
            "partners share one total, not {}",
            state.totals,
        )


GAME = GameInfo(
    NAME,
    "Canasta (simplified): two teams meld to 5000 with two decks and jokers",
    4,
    4,
    options=(
        Option("target", 5000, "Points that end the game", minimum=100, maximum=20000),
        Option("max_hands", 50, "Most hands played", minimum=1, maximum=200),
    ),
    version="1.0.0",
    fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("phase", "choice", "Draw or play part of the turn.", choices=("draw", "play")),
        ViewField("frozen", "bool", "Whether the discard pile is frozen."),
        ViewField("hand_no", "int", "The hand being played, from 1."),
        ViewField("totals", "per-seat", "Each seat's team total.", of="int"),
        ViewField("starter", "seat", "The seat that started this hand."),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> CanastaLogic:
    return CanastaLogic(ruleset)


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """CANASTA-DECK-1: two decks and four jokers."""
    return decks(2, jokers_per_deck=2)


@hookimpl(trylast=True)
def card_points(card: Card) -> int:
    return card_value(card)
