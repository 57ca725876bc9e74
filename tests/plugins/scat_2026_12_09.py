"""Thirty-One (Scat) for 2-4 players with stakes, written from cardcore's docs only.

Rule IDs (the errors cite them):

- SCAT-DEAL-1: three cards each, one card turned face up on the discard pile.
- SCAT-TURN-1: a turn starts with ``draw`` (stock), ``take`` (discard top) or ``knock``.
- SCAT-TURN-2: after drawing or taking, ``discard <card>`` a held card.
- SCAT-TURN-3: a card taken from the discard pile may not be discarded in the same turn.
- SCAT-KNOCK-1: one knock per hand; every other seat then has one more turn.
- SCAT-VALUE-1: a hand is worth its best single-suit total (A=11, faces 10).
- SCAT-BLITZ-1: 31 on the deal, or after a discard, ends the hand at once; every
  other seat pays the stake to each seat holding 31.
- SCAT-PAY-1: at the showdown the lowest hand pays the stake to each other seat.
- SCAT-PAY-2: ties for lowest: the knocker is safe; else the first tied seat after
  the knocker pays (house rule ``scat.ties-all-pay`` makes every tied seat pay).
- SCAT-MATCH-1: ``hands`` hands are played; the ledger's totals decide.
- SCAT-VAR-1: house rule ``scat.ties-all-pay``.
- SCAT-VAR-2: house rule ``scat.no-early-knock``: no knock in the first round of turns.
"""

from __future__ import annotations

import types
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
    Ledger,
    Option,
    PaymentsMade,
    Rank,
    RuleInfo,
    Ruleset,
    Veto,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
)
from cardcore.dealing import deal_round_robin, draw_card, fill_stock, gather
from cardcore.positions import check
from cardcore.turns import end_game, next_seat, winners_by

NAME = "scat"
STOCK, DISCARD = 0, 1


def hand(seat: int) -> int:
    return 2 + seat


@cache
def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP), *hands])


def card_value(card: Card) -> int:
    if card.rank is Rank.ACE:
        return 11
    return min(int(card.rank.value), 10)


def hand_value(cards: Sequence[Card]) -> int:
    """SCAT-VALUE-1: the best single-suit total."""
    by_suit: dict[Any, int] = {}
    for c in cards:
        by_suit[c.suit] = by_suit.get(c.suit, 0) + card_value(c)
    return max(by_suit.values(), default=0)


# --- actions -------------------------------------------------------------------------


@frozen
class Draw(Action):
    verb: ClassVar[str] = "draw"

    def notation(self) -> str:
        return "draw"


@frozen
class Take(Action):
    verb: ClassVar[str] = "take"

    def notation(self) -> str:
        return "take"


@frozen
class Knock(Action):
    verb: ClassVar[str] = "knock"

    def notation(self) -> str:
        return "knock"


@frozen
class Discard(Action):
    card: Card
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {self.card}"


ScatAction = Draw | Take | Knock | Discard


# --- hookspecs -----------------------------------------------------------------------


def _payers_spec(
    values: tuple[int, ...], knocker: int, tied: tuple[int, ...]
) -> tuple[int, ...] | None:
    """Return the seats that pay at the showdown, among *tied* (the lowest hands).

    Stops at the first non-``None`` result. The game answers SCAT-PAY-2 with ``trylast``.

    :param values: Each seat's hand value.
    :param knocker: The seat that knocked.
    :param tied: The seats tied for the lowest value, in turn order after the knocker.
    :returns: A non-empty tuple of seats of *tied*.
    """


hookspecs = types.ModuleType("scat_hookspecs")
hookspecs.scat_payers = hookspec(firstresult=True)(_payers_spec)


# --- state ---------------------------------------------------------------------------


class ScatState(GameState):
    __slots__ = (
        "dealer",
        "hand_no",
        "knocker",
        "ledger",
        "past",
        "phase",
        "taken",
        "totals",
        "turns",
    )
    _mutable = ("zones", "totals", "ledger")
    phase: str
    knocker: int | None
    turns: int
    taken: str | None
    totals: list[int]
    hand_no: int
    dealer: int
    past: tuple[int, ...]
    ledger: Ledger


# --- logic ---------------------------------------------------------------------------


class ScatLogic(GameLogic[ScatState, ScatAction]):
    action_types = (Draw, Take, Knock, Discard)
    position_fields = (
        "to_act",
        "phase",
        "knocker",
        "turns",
        "taken",
        "totals",
        "hand_no",
        "dealer",
        "past",
    )
    max_legal = 4

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self._payers = ruleset.resolve("scat_payers")

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 600 * int(options["hands"])

    def blank_state(self, players: int, options: Mapping[str, Any]) -> ScatState:
        state = ScatState(players, options, Zones(layout(players)))
        state.phase, state.knocker, state.turns, state.taken = "draw", None, 0, None
        state.totals, state.hand_no, state.dealer, state.past = [0] * players, 0, 0, ()
        state.ledger = Ledger(players)
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> ScatState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: ScatState, emit: Emit | None) -> None:
        """SCAT-DEAL-1, then SCAT-BLITZ-1 on the deal."""
        n = state.players
        first = next_seat(state.dealer, n)
        deal_round_robin(state, STOCK, [hand(s) for s in range(n)], 3, first=first)
        state.zones.move(STOCK, DISCARD, mask=ALL)
        state.phase, state.knocker, state.turns, state.taken = "draw", None, 0, None
        state.to_act = (first,)
        if emit is not None:
            emit(CardsDealt(tuple(3 for _ in range(n))))
        self._check_blitz(state, emit)

    def _values(self, state: ScatState) -> tuple[int, ...]:
        return tuple(hand_value(state.zones.cards[hand(s)]) for s in range(state.players))

    def _check_blitz(self, state: ScatState, emit: Emit | None) -> bool:
        values = self._values(state)
        blitz = [s for s, v in enumerate(values) if v == 31]
        if not blitz:
            return False
        stake, n, k = int(state.options["stake"]), state.players, len(blitz)
        amounts = [stake * (n - k) if s in blitz else -stake * k for s in range(n)]
        self._settle(state, values, amounts, "blitz", emit)
        return True

    def _settle(
        self,
        state: ScatState,
        values: tuple[int, ...],
        amounts: list[int],
        reason: str,
        emit: Emit | None,
    ) -> None:
        paid = self.score_round(state, amounts)
        state.ledger.post(paid, reason)
        state.totals = [t + p for t, p in zip(state.totals, paid, strict=True)]
        state.past = (*state.past, *paid)
        state.hand_no += 1
        if emit is not None:
            emit(PaymentsMade(reason, tuple(paid), tuple(state.totals)))
        if state.hand_no >= int(state.options["hands"]):
            totals = tuple(state.totals)
            end_game(state, winners_by(totals, lowest=False), totals, reason, payouts=totals)
            return
        gather(state, STOCK)
        state.dealer = next_seat(state.dealer, state.players)
        self._deal(state, emit)

    def legal_actions(self, state: ScatState, seat: int) -> tuple[ScatAction, ...]:
        z = state.zones
        if state.phase == "discard":
            return tuple(
                Discard(seat, c)
                for c in z.cards[hand(seat)]
                if state.taken is None or str(c) != state.taken
            )
        out: list[ScatAction] = []
        if z.cards[STOCK] or len(z.cards[DISCARD]) > 1:
            out.append(Draw(seat))
        if z.cards[DISCARD]:
            out.append(Take(seat))
        if state.knocker is None:
            out.append(Knock(seat))
        return tuple(out)

    def rule_for(self, state: ScatState, action: ScatAction) -> tuple[str, str]:
        seat = action.seat
        if isinstance(action, Discard):
            if state.phase != "discard":
                return "SCAT-TURN-1", f"seat {seat} must draw, take or knock before discarding"
            if state.taken is not None and str(action.card) == state.taken:
                return "SCAT-TURN-3", f"seat {seat} may not discard the card it just took"
            return "SCAT-TURN-2", f"seat {seat} may discard only a card it holds"
        if state.phase == "discard":
            return "SCAT-TURN-2", f"seat {seat} must discard a card now"
        if isinstance(action, Knock):
            return "SCAT-KNOCK-1", "someone has already knocked this hand"
        return "SCAT-TURN-1", "there is no card to draw"

    def apply(self, state: ScatState, action: ScatAction, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        if isinstance(action, Draw):
            card = draw_card(state, STOCK, hand(seat), discard=DISCARD)
            state.phase = "discard"
            if emit is not None and card is not None:
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
            return
        if isinstance(action, Take):
            card = z.move(DISCARD, hand(seat), mask=ALL)
            state.phase, state.taken = "discard", str(card)
            if emit is not None:
                emit(CardDrawn(seat, "discard", card))
            return
        if isinstance(action, Knock):
            state.knocker = seat
            self._next_turn(state, seat, emit)
            return
        index = z.cards[hand(seat)].index(action.card)
        card = z.move(hand(seat), DISCARD, index, mask=ALL)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "discard", card))
        state.phase, state.taken = "draw", None
        if self._check_blitz(state, emit):
            return
        self._next_turn(state, seat, emit)

    def _next_turn(self, state: ScatState, seat: int, emit: Emit | None) -> None:
        state.turns += 1
        nxt = next_seat(seat, state.players)
        if state.knocker is not None and nxt == state.knocker:
            self._showdown(state, emit)
            return
        state.to_act = (nxt,)

    def _showdown(self, state: ScatState, emit: Emit | None) -> None:
        values, n, knocker = self._values(state), state.players, state.knocker
        assert knocker is not None
        low = min(values)
        order = [(knocker + i) % n for i in range(1, n + 1)]
        tied = tuple(s for s in order if values[s] == low)
        payers = (
            tuple(self._payers(values=values, knocker=knocker, tied=tied))
            if self._payers
            else tied[:1]
        )
        stake, k = int(state.options["stake"]), len(payers)
        amounts = [-stake * (n - k) if s in payers else stake * k for s in range(n)]
        self._settle(state, values, amounts, "showdown", emit)

    def default_action(self, state: ScatState, seat: int) -> ScatAction | None:
        legal = self.legal_actions(state, seat)
        if state.phase == "draw":
            return next((a for a in legal if isinstance(a, Draw)), legal[0] if legal else None)
        return min(
            legal, key=lambda a: card_value(a.card) if isinstance(a, Discard) else 99, default=None
        )

    def table(self, state: ScatState, seat: int | None) -> dict[str, Any]:
        return {
            "stock": len(state.zones.cards[STOCK]),
            "phase": state.phase,
            "knocker": state.knocker,
            "turns": state.turns,
            "taken": state.taken,
            "totals": list(state.totals),
            "hand_no": state.hand_no,
            "dealer": state.dealer,
        }

    def history(self, state: ScatState, seat: int | None, since: int) -> list[dict[str, Any]]:
        n = state.players
        hands = [list(state.past[i : i + n]) for i in range(0, len(state.past), n)]
        return [{"hand": i, "amounts": a} for i, a in enumerate(hands)][since:]

    def rounds_played(self, state: ScatState) -> int:
        return state.hand_no

    def scores(self, state: ScatState) -> tuple[float, ...]:
        return tuple(float(t) for t in state.totals)

    def payouts(self, state: ScatState) -> tuple[int, ...] | None:
        return tuple(state.totals)

    def utility(self, state: ScatState) -> tuple[float, ...]:
        return tuple(float(t) for t in state.totals)

    def standings(self, state: ScatState) -> tuple[int, ...]:
        return winners_by(state.totals, lowest=False)

    def read_position(self, text: str, players: int, options: Mapping[str, Any]) -> ScatState:
        state = super().read_position(text, players, options)
        state.ledger = Ledger(players)
        if any(state.totals):
            state.ledger.post(list(state.totals), "position")
        return state

    def check_position(self, state: ScatState) -> None:
        n, cards = state.players, state.zones.cards
        check(
            state.phase in ("draw", "discard"),
            "phase must be draw or discard, not {!r}",
            state.phase,
        )
        check(
            state.knocker is None or (isinstance(state.knocker, int) and 0 <= state.knocker < n),
            "knocker must be null or a seat, not {!r}",
            state.knocker,
        )
        check(sum(state.totals) == 0, "totals must sum to zero (SCAT-PAY-1), not {}", state.totals)
        check(len(state.past) == n * state.hand_no, "past must hold {} amounts per hand", n)
        if state.is_over:
            return
        check(len(state.to_act) == 1, "to_act must be one seat, not {}", list(state.to_act))
        actor = state.to_act[0]
        for s in range(n):
            want = 4 if (s == actor and state.phase == "discard") else 3
            check(len(cards[hand(s)]) == want, "hand.{} must hold {} cards", s, want)
        check(
            state.taken is None or state.phase == "discard",
            "taken is set only in the discard phase",
        )
        check(state.hand_no < int(state.options["hands"]), "hand_no must be below hands")


# --- the game's plugin hooks -----------------------------------------------------------

GAME = GameInfo(
    NAME,
    "Thirty-One (Scat): three cards, best suit total, knock or blitz; lowest pays",
    2,
    4,
    version="1.0.0",
    zero_sum=True,
    hookspecs=hookspecs,
    options=(
        Option(
            "stake",
            1,
            "What the lowest hand pays each other seat.",
            kind=int,
            minimum=1,
            maximum=100,
            rule_id="SCAT-PAY-1",
        ),
        Option(
            "hands",
            1,
            "How many hands make the match.",
            kind=int,
            minimum=1,
            maximum=5,
            rule_id="SCAT-MATCH-1",
        ),
    ),
    fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("phase", "str", "draw (draw, take or knock) or discard."),
        ViewField("knocker", "seat", "The seat that knocked this hand.", nullable=True),
        ViewField("turns", "int", "Turns taken this hand."),
        ViewField("taken", "card", "The card just taken from the discard pile.", nullable=True),
        ViewField("totals", "per-seat", "Money won (negative: lost) so far.", of="int"),
        ViewField("hand_no", "int", "Hands finished."),
        ViewField("dealer", "seat", "The dealer of this hand."),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> ScatLogic:
    return ScatLogic(ruleset)


@hookimpl(trylast=True)
def scat_payers(values: tuple[int, ...], knocker: int, tied: tuple[int, ...]) -> tuple[int, ...]:
    """SCAT-PAY-2: the knocker is safe on a tie; else the first tied seat after it pays."""
    others = tuple(s for s in tied if s != knocker)
    return (others or tied)[:1]


# --- house rules (each a module of its own) --------------------------------------------

TIES_RULE = RuleInfo(
    id="SCAT-VAR-1",
    name="scat.ties-all-pay",
    game=NAME,
    summary="A tie for lowest: every tied seat pays",
    version="1.0.0",
)
EARLY_RULE = RuleInfo(
    id="SCAT-VAR-2",
    name="scat.no-early-knock",
    game=NAME,
    summary="No knocking in the first round of turns",
    version="1.0.0",
)


def _house_modules() -> tuple[types.ModuleType, types.ModuleType]:
    """Build the two house-rule modules (their hooks must not live in the game's module)."""

    @hookimpl
    def scat_payers(
        values: tuple[int, ...], knocker: int, tied: tuple[int, ...]
    ) -> tuple[int, ...]:
        """SCAT-VAR-1: every seat tied for the lowest hand pays."""
        return tied

    @hookimpl
    def forbid_action(state: GameState, action: Action) -> Veto | None:
        """SCAT-VAR-2: a knock needs every seat to have had a turn this hand."""
        if isinstance(action, Knock) and getattr(state, "turns", 0) < state.players:
            return Veto("SCAT-VAR-2", "no knocking before the second round of turns")
        return None

    ties = types.ModuleType("scat_ties_all_pay")
    ties.RULE, ties.scat_payers = TIES_RULE, scat_payers
    early = types.ModuleType("scat_no_early_knock")
    early.RULE, early.forbid_action = EARLY_RULE, forbid_action
    return ties, early


ties_module, early_module = _house_modules()
