"""Tonk's game logic on the cardcore core: the state, the deal, turns, endings, views.

Hot path habits: the plugin hooks are asked once, in :class:`TonkLogic`'s
``__init__``; cards are handled as indices 0..51 (``cardcore_tonk.logic.card_index``)
looked up by the identity of the interned core cards; actions are interned per
seat; events are built only when somebody listens, and the common ones are shared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore.actions import Action
from cardcore.cards import Card
from cardcore.deck import standard_52
from cardcore.errors import NotationError, OptionError
from cardcore.events import CardDiscarded, CardDrawn, Event, TurnPassed
from cardcore.logic import Emit, GameLogic
from cardcore.scoring import Ledger, ScoreTable
from cardcore.state import GameState, Result
from cardcore.zones import ALL, Layout, Visibility, Zones, ZoneSpec
from cardcore_tonk.actions import Deal, Discard, Draw, Drop, Hit, Spread, Take
from cardcore_tonk.events import (
    HandDealt,
    HandEnded,
    SpreadHit,
    SpreadLaid,
)
from cardcore_tonk.logic import (
    DealVerdict,
    Meld,
    card_index,
    drop_payout,
    hit_targets,
    meld_of,
    pay_from_each,
    spreads_of,
    stock_out_payout,
)

if TYPE_CHECKING:
    from cardcore.plugins import Ruleset

__all__ = [
    "BETWEEN",
    "CARDS",
    "DISCARD",
    "HAND0",
    "OVER",
    "PLAY",
    "START",
    "STOCK",
    "TonkLogic",
    "TonkState",
    "index_of",
]

CARDS: tuple[Card, ...] = tuple(sorted(standard_52(), key=card_index))
"""The 52 cards by index (``CARDS[card_index(c)] == c``)."""
_IDX: dict[int, int] = {id(c): i for i, c in enumerate(CARDS)}
_LABELS: tuple[str, ...] = tuple(CARDS[4 * r].label for r in range(13))
_MAX_SPREADS = 17  # 52 cards make at most 17 spreads

START = 0
"""Phase: the turn has begun; the player may drop, draw or take."""
PLAY = 1
"""Phase: the player has drawn; spreads, hits, then a discard."""
OVER = 2
"""Phase: the session is over."""
BETWEEN = 3
"""Phase: a hand has ended; the next dealer is to ``deal`` (TONK-SESSION-3)."""
_PHASES = ("start", "play", "over", "between")

STOCK = 0
"""Zone id of the stock."""
DISCARD = 1
"""Zone id of the discard pile."""
HAND0 = 2
"""Zone id of seat 0's hand; seat *s* holds ``HAND0 + s``, and ``HAND0 + players`` is the spreads."""


def index_of(card: Card) -> int:
    """Return the index of *card* (fast for interned cards).

    :param card: A card of the standard deck.
    :returns: Its index 0..51.
    """
    i = _IDX.get(id(card))
    return card_index(card) if i is None else i


class TonkState(GameState):
    """The table of one Tonk session (mutable, slotted; only :class:`TonkLogic` changes it).

    Zones: ``stock`` (face down), ``discard`` (top visible), ``hand.<seat>``
    (owner only) and ``spreads`` (face up: every spread on the table, one after the
    other in the order laid; spread *k* is the slice given by the sizes in
    :attr:`melds`). Public facts the house rules read: :attr:`was_hit`,
    :attr:`quiet_turns`, :attr:`spread_made`.
    """

    __slots__ = (
        "cut",
        "dealer",
        "hand_no",
        "hands",
        "last",
        "ledger",
        "melds",
        "owners",
        "phase",
        "quiet_turns",
        "shown",
        "spread_made",
        "stake",
        "taken",
        "targets",
        "touched",
        "turn",
        "was_hit",
    )

    def __init__(self, players: int, options: Mapping[str, Any], zones: Zones) -> None:
        super().__init__(players, options, zones)
        self.stake: int = options["stake"]
        """The stake S."""
        self.hands: int = options["hands"]
        """Hands in the session."""
        self.hand_no = 0
        """Hands finished so far (the current hand is number ``hand_no + 1``)."""
        self.dealer = 0
        """The dealer of the current hand."""
        self.turn = 0
        """The seat whose turn it is."""
        self.phase = START
        """:data:`START`, :data:`PLAY`, :data:`BETWEEN` or :data:`OVER`."""
        self.taken = -1
        """Index of the discard taken this turn, or -1 (TONK-TURN-4)."""
        self.melds: list[Meld] = []
        """The spreads on the table, by number - 1."""
        self.owners: list[int] = []
        """The seat that laid each spread."""
        self.targets: list[tuple[int, ...]] = []
        """The card indices that may hit each spread."""
        self.spread_made = False
        """Whether the player to act laid a new spread this turn."""
        self.touched = False
        """Whether the player to act laid a spread or hit this turn."""
        self.quiet_turns = 0
        """Completed turns in a row without a spread or a hit."""
        self.was_hit = 0
        """Seat mask: seats one of whose spreads another player hit since their last turn began."""
        self.ledger = Ledger(players)
        """Running balances of the session."""
        self.last: tuple[str, int | None, tuple[int, ...]] | None = None
        """The last finished hand: (reason, seat, amounts)."""
        self.shown: tuple[tuple[Card, ...], ...] | None = None
        """Hands shown at the end of the last hand (``None`` if they were not shown)."""
        self.cut: tuple[tuple[str | None, ...], ...] = ()
        """The cut for the first dealer, round by round (TONK-DEALER-1)."""

    def clone(self) -> TonkState:
        """Return an independent copy (a hand-written fast path of :meth:`GameState.clone`)."""
        new = object.__new__(TonkState)
        new.players = self.players
        new.options = self.options
        new.zones = self.zones.clone()
        new.to_act = self.to_act
        new.is_over = self.is_over
        new.result = self.result
        new.seed = self.seed
        new.draws = self.draws
        new.stake = self.stake
        new.hands = self.hands
        new.hand_no = self.hand_no
        new.dealer = self.dealer
        new.turn = self.turn
        new.phase = self.phase
        new.taken = self.taken
        new.melds = self.melds[:]
        new.owners = self.owners[:]
        new.targets = self.targets[:]
        new.spread_made = self.spread_made
        new.touched = self.touched
        new.quiet_turns = self.quiet_turns
        new.was_hit = self.was_hit
        new.ledger = self.ledger.clone()
        new.last = self.last
        new.shown = self.shown
        new.cut = self.cut
        return new


Veto = Callable[..., list[Any]]


class TonkLogic(GameLogic):
    """The rules of Tonk for one configuration (game + house rules), hooks resolved once.

    :param ruleset: The configuration.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        hook = ruleset.hook
        points = ruleset.chain("card_points")
        self.score_table = ScoreTable({}, {c: int(points(card=c)) for c in CARDS})
        """The card values (TONK-VAL-1), asked of the ``card_points`` hook once per card."""
        self.points: tuple[int, ...] = tuple(self.score_table[c] for c in CARDS)
        """The same values by card index, for the hot path."""
        upcard = hook.tonk_upcard()
        self.upcard: bool = True if upcard is None else bool(upcard)
        self.judges: tuple[
            Callable[[Sequence[Sequence[int]], Sequence[int]], DealVerdict | None], ...
        ] = tuple(hook.tonk_deal_judge())
        self.out_units: tuple[int, int] = (
            int(hook.tonk_out_units(new_spread=False)),
            int(hook.tonk_out_units(new_spread=True)),
        )
        self.ends_on_empty: Callable[[TonkState], bool] = hook.tonk_hand_ends_on_empty_stock()
        self.vetoes: Veto | None = (
            ruleset.chain("forbid_action") if ruleset.has_impls("forbid_action") else None
        )
        self._layouts: dict[int, Layout] = {}
        self._fixed: list[tuple[Drop, Draw, Take]] = [(Drop(s), Draw(s), Take(s)) for s in range(4)]
        self._starts: list[list[tuple[Action, ...]]] = [
            [
                tuple(a for a, on in zip(fx, (True, stock, disc), strict=True) if on)
                for stock in (False, True)
                for disc in (False, True)
            ]
            for fx in self._fixed
        ]
        self._deals: list[tuple[Deal]] = [(Deal(s),) for s in range(4)]
        # events are immutable values: the common ones are built once and shared
        self._passed: tuple[TurnPassed, ...] = tuple(TurnPassed(s) for s in range(4))
        self._events: dict[int, Event] = {}
        self._discards: list[tuple[Discard, ...]] = [
            tuple(Discard(s, c) for c in CARDS) for s in range(4)
        ]
        self._spreads: list[dict[int, Spread]] = [{} for _ in range(4)]
        self._hits: list[dict[int, Hit]] = [{} for _ in range(4)]

    # -- set-up -----------------------------------------------------------------------------

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        """Check the seat count against ``max_players`` (TONK-GEN-1) and ``first_dealer``."""
        high = options["max_players"]
        if not 2 <= players <= high:
            msg = f"tonk takes 2 to {high} players (option max_players), not {players} (TONK-GEN-1)"
            raise OptionError(msg)
        fd = options["first_dealer"]
        if fd is not None and not 0 <= fd < players:
            msg = f"option 'first_dealer' must be a seat from 0 to {players - 1}, not {fd!r}"
            raise OptionError(msg)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        """2,000 actions per hand (taking discards back and forth never empties the stock)."""
        hands: int = options["hands"]
        return 2000 * hands

    def layout(self, players: int) -> Layout:
        """Return the zone layout for *players* seats (cached)."""
        lay = self._layouts.get(players)
        if lay is None:
            specs = [
                ZoneSpec("stock", None, Visibility.NOBODY),
                ZoneSpec("discard", None, Visibility.TOP),
            ]
            specs += [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
            specs.append(ZoneSpec("spreads", None, Visibility.EVERYONE))
            lay = self._layouts[players] = Layout.of(specs)
        return lay

    def new_state(
        self, players: int, options: Mapping[str, Any], cards: list[Card], seed: int
    ) -> TonkState:
        """Cut for the dealer (TONK-DEALER-1) and deal the first hand from *cards*."""
        zones = Zones(self.layout(players))
        state = TonkState(players, options, zones)
        state.seed = seed
        state.draws = 1  # draw 0 shuffled the deck
        stock_cards = zones.cards[STOCK]
        ids = _IDX
        if (
            cards and id(cards[0]) in ids and id(cards[-1]) in ids
        ):  # the interned cards, as the core deals
            stock_cards.extend(cards)
        else:  # cards not built by Card.parse: use the interned ones
            stock_cards.extend(CARDS[card_index(c)] for c in cards)
        zones.seen[STOCK] = [0] * len(stock_cards)
        first = options["first_dealer"]
        if first is None:
            state.dealer, state.cut = self._cut(state)
        else:
            state.dealer = first
        self._deal_hand(state, None, fresh=False)
        return state

    def _cut(self, state: TonkState) -> tuple[int, tuple[tuple[str | None, ...], ...]]:
        """TONK-DEALER-1: deal cut cards from a separately shuffled pack until one is highest."""
        pack = list(range(52))  # card indices: rank = index // 4 + 1, king high, ace low
        rand = state.rng().random
        contenders = list(range(state.players))
        rounds: list[tuple[str | None, ...]] = []
        pos = 0
        while True:
            row: list[str | None] = [None] * state.players
            ranks = [0] * state.players
            for s in contenders:
                j = pos + int(rand() * (52 - pos))  # one step of a Fisher-Yates shuffle
                pack[pos], pack[j] = pack[j], pack[pos]
                x = pack[pos]
                pos += 1
                row[s] = _LABELS[x >> 2]  # only ranks matter; the cut cards never enter play
                ranks[s] = (x >> 2) + 1
            best = max(ranks)
            rounds.append(tuple(row))
            contenders = [s for s in contenders if ranks[s] == best]
            if len(contenders) == 1:
                return contenders[0], tuple(rounds)

    # -- the deal ---------------------------------------------------------------------------

    def _deal_hand(self, state: TonkState, emit: Emit | None, *, fresh: bool) -> None:
        """Deal one hand (TONK-DEAL-1/2), let house rules judge it, and start its first turn."""
        zones = state.zones
        n = state.players
        if fresh:
            self._gather(state, emit)
        dealer = state.dealer
        stock = zones.cards[STOCK]
        sseen = zones.seen[STOCK]
        # TONK-DEAL-1: five cards each, one at a time, from the dealer's left
        k = 5 * n
        dealt = stock[-k:]
        del stock[-k:]
        del sseen[-k:]
        dealt.reverse()  # the top card first
        for j in range(n):
            z = HAND0 + (dealer + 1 + j) % n
            zones.cards[z] = dealt[j::n]
            zones.seen[z] = [0] * 5
        upcard: Card | None = None
        if self.upcard:  # TONK-DEAL-2
            upcard = zones.move(STOCK, DISCARD, mask=ALL)
        state.phase = START
        state.turn = (dealer + 1) % n  # TONK-TURN-1
        if emit is not None:
            for s in range(n):
                cards = tuple(zones.cards[HAND0 + s])
                emit(HandDealt(state.hand_no + 1, dealer, s, upcard, cards, visible_to=1 << s))
        if self.judges:
            ids = _IDX
            hands = [[ids[id(c)] for c in zones.cards[HAND0 + s]] for s in range(n)]
            for judge in self.judges:
                verdict = judge(hands, self.points)
                if verdict is not None:
                    amounts = [u * state.stake for u in verdict.units]
                    self._end_hand(state, verdict.reason, verdict.seat, amounts, True, emit)
                    return
        state.to_act = (state.turn,)
        if emit is not None:
            emit(self._passed[state.turn])

    def _gather(self, state: TonkState, emit: Emit | None) -> None:
        """Collect every card into the stock and shuffle it for the next hand (TONK-SESSION-2)."""
        zones = state.zones
        stock = zones.cards[STOCK]
        for z in range(1, len(zones.cards)):
            pile = zones.cards[z]
            if pile:
                stock.extend(pile)
                pile.clear()
                zones.seen[z].clear()
        zones.shuffle(STOCK, state.rng())
        state.melds = []
        state.owners = []
        state.targets = []
        state.taken = -1
        state.spread_made = state.touched = False
        state.quiet_turns = 0
        state.was_hit = 0

    def _finish(self, state: TonkState) -> None:
        state.phase = OVER
        state.is_over = True
        state.to_act = ()
        totals = tuple(state.ledger.totals)
        best = max(totals)
        winners = tuple(s for s, t in enumerate(totals) if t == best)
        reason = state.last[0] if state.last is not None else "ended"
        state.result = Result(winners, tuple(t / state.stake for t in totals), totals, reason)

    def _post(
        self,
        state: TonkState,
        reason: str,
        seat: int | None,
        amounts: Sequence[int],
        show: bool,
        emit: Emit | None,
    ) -> None:
        """Settle the hand: pay, show hands, then count it and pass the deal (TONK-DEALER-2)."""
        zones = state.zones
        n = state.players
        if show:
            hands = zones.cards
            masks = zones.seen
            shown: list[tuple[Card, ...]] = []
            for s in range(n):
                z = HAND0 + s
                pile = hands[z]
                masks[z] = [ALL] * len(pile)
                shown.append(tuple(pile))
            state.shown = tuple(shown)
        else:
            state.shown = None
        state.ledger.post(amounts, reason)
        state.last = (reason, seat, tuple(amounts))
        if emit is not None:
            paid = tuple(amounts)
            balances = tuple(state.ledger.totals)
            if state.shown is not None:
                ids = _IDX
                points = self.points
                ordered = []
                totals = []
                for h in state.shown:
                    xs = sorted([ids[id(c)] for c in h])
                    ordered.append(tuple([CARDS[x] for x in xs]))
                    totals.append(sum([points[x] for x in xs]))
                emit(
                    HandEnded(
                        reason,
                        paid,
                        balances,
                        state.hand_no + 1,
                        seat,
                        tuple(ordered),
                        tuple(totals),
                    )
                )
            else:
                emit(HandEnded(reason, paid, balances, state.hand_no + 1, seat))
        state.hand_no += 1
        state.dealer = (state.dealer + 1) % n
        state.to_act = ()

    def _totals(self, state: TonkState) -> list[int]:
        points = self.points
        ids = _IDX
        cards = state.zones.cards
        return [sum([points[ids[id(c)]] for c in cards[HAND0 + s]]) for s in range(state.players)]

    def _end_hand(
        self,
        state: TonkState,
        reason: str,
        seat: int | None,
        amounts: Sequence[int],
        show: bool,
        emit: Emit | None,
    ) -> None:
        """Settle the hand, then wait for the next dealer's ``deal`` or end the session."""
        self._post(state, reason, seat, amounts, show, emit)
        if state.hand_no >= state.hands:
            self._finish(state)
            return
        state.phase = BETWEEN  # TONK-SESSION-3
        state.turn = state.dealer
        state.to_act = (state.dealer,)
        if emit is not None:
            emit(self._passed[state.dealer])

    # -- play -------------------------------------------------------------------------------

    def legal_actions(self, state: GameState, seat: int) -> tuple[Action, ...]:
        """The legal actions of *seat*, in the order of TONK-LEGAL-1."""
        assert isinstance(state, TonkState)
        if seat != state.turn or state.phase == OVER or state.is_over:
            return ()
        zones = state.zones
        phase = state.phase
        if phase == START:
            out: tuple[Action, ...] = self._starts[seat][
                2 * (len(zones.cards[STOCK]) > 0) + (len(zones.cards[DISCARD]) > 0)
            ]
        elif phase == PLAY:
            out = self._play_actions(state, seat)
        else:
            out = self._deals[seat]
        vetoes = self.vetoes
        if vetoes is not None:
            out = tuple(a for a in out if not vetoes(state=state, action=a))
        return out

    def _play_actions(self, state: TonkState, seat: int) -> tuple[Action, ...]:
        ids = _IDX
        idx = sorted([ids[id(c)] for c in state.zones.cards[HAND0 + seat]])
        taken = state.taken
        strand = taken >= 0 and taken in idx  # TONK-TURN-5
        n = len(idx)
        out: list[Action] = []
        spreads = self._spreads[seat]
        for sp in spreads_of(idx):
            if strand and n - len(sp) == 1 and taken not in sp:
                continue
            key = 0
            for x in sp:
                key |= 1 << x
            act = spreads.get(key)
            if act is None:
                act = spreads[key] = Spread(seat, tuple(CARDS[x] for x in sp))
            out.append(act)
        if state.targets:
            hits = self._hits[seat]
            for num, tg in enumerate(state.targets):
                for x in tg:
                    if x in idx:
                        if strand and n == 2 and x != taken:
                            continue
                        key = num * 64 + x
                        hit = hits.get(key)
                        if hit is None:
                            hit = hits[key] = Hit(seat, num + 1, CARDS[x])
                        out.append(hit)
        discards = self._discards[seat]
        for x in idx:
            if x != taken:  # TONK-TURN-4
                out.append(discards[x])
        return tuple(out)

    def apply(self, state: GameState, action: Action, emit: Emit | None) -> None:
        """Apply a legal Tonk action."""
        assert isinstance(state, TonkState)
        kind = action.kind  # type: ignore[attr-defined]
        seat = action.seat
        zones = state.zones
        hz = HAND0 + seat
        if kind == 1:  # draw (TONK-TURN-3)
            card = zones.move(STOCK, hz)
            state.phase = PLAY
            state.was_hit &= ~(1 << seat)
            if emit is not None:
                emit(self._event(0, seat, card))
        elif kind == 5:  # discard
            card = action.card  # type: ignore[attr-defined]
            hand = zones.cards[hz]
            zones.move(hz, DISCARD, _find(hand, card))
            if emit is not None:
                emit(self._event(1, seat, card))
            if not hand:  # TONK-OUT-2
                self._end_hand(
                    state, "out", seat, pay_from_each(seat, state.players, state.stake), False, emit
                )
                return
            self._next_turn(state, emit)
        elif kind == 3:  # spread
            cards: tuple[Card, ...] = action.cards  # type: ignore[attr-defined]
            k = len(state.melds)
            sz = HAND0 + state.players  # the spreads pile: a new spread goes on the end
            hand = zones.cards[hz]
            for c in cards:
                zones.move(hz, sz, _find(hand, c))
            meld = meld_of([index_of(c) for c in cards])
            assert meld is not None
            state.melds.append(meld)
            state.owners.append(seat)
            state.targets.append(hit_targets(meld))
            state.spread_made = state.touched = True
            if emit is not None:
                emit(SpreadLaid(seat, k + 1, cards))
            if not hand:
                self._tonk_out(state, seat, emit)
        elif kind == 4:  # hit
            number: int = action.number  # type: ignore[attr-defined]
            card = action.card  # type: ignore[attr-defined]
            k = number - 1
            hand = zones.cards[hz]
            melds = state.melds
            end = 0
            for i in range(number):  # the card joins the end of spread k's slice
                end += melds[i].size
            sz = HAND0 + state.players
            i = _find(hand, card)
            zones.cards[sz].insert(end, hand.pop(i))
            zones.seen[hz].pop(i)
            zones.seen[sz].insert(end, ALL)
            grown = _grow(melds[k], index_of(card))
            state.melds[k] = grown
            state.targets[k] = hit_targets(grown)
            owner = state.owners[k]
            if owner != seat:
                state.was_hit |= 1 << owner
            state.touched = True
            if emit is not None:
                emit(SpreadHit(seat, number, card))
            if not hand:
                self._tonk_out(state, seat, emit)
        elif kind == 2:  # take
            card = zones.move(DISCARD, hz, mask=ALL)
            state.taken = index_of(card)
            state.phase = PLAY
            state.was_hit &= ~(1 << seat)
            if emit is not None:
                emit(self._event(2, seat, card))
        elif kind == 6:  # deal the next hand (TONK-SESSION-3)
            self._deal_hand(state, emit, fresh=True)
        elif kind == 0:  # drop (TONK-TURN-2, TONK-DROP-1..5)
            totals = self._totals(state)
            amounts, caught = drop_payout(seat, totals, state.stake)
            self._end_hand(
                state, "drop-caught" if caught else "drop-won", seat, amounts, True, emit
            )
        else:  # pragma: no cover - legal_actions never offers anything else
            msg = f"not a tonk action: {action!r}"
            raise NotationError(msg)

    def _tonk_out(self, state: TonkState, seat: int, emit: Emit | None) -> None:
        """TONK-OUT-1: the hand emptied without a discard."""
        units = self.out_units[1 if state.spread_made else 0]
        self._end_hand(
            state,
            "tonk-out",
            seat,
            pay_from_each(seat, state.players, units * state.stake),
            False,
            emit,
        )

    def _next_turn(self, state: TonkState, emit: Emit | None) -> None:
        state.quiet_turns = 0 if state.touched else state.quiet_turns + 1
        state.turn = (state.turn + 1) % state.players
        state.phase = START
        state.taken = -1
        state.spread_made = state.touched = False
        if not state.zones.cards[STOCK] and self.ends_on_empty(state):  # TONK-STOCK-1
            amounts = stock_out_payout(self._totals(state), state.stake)
            self._end_hand(state, "stock-out", None, amounts, True, emit)
            return
        state.to_act = (state.turn,)
        if emit is not None:
            emit(self._passed[state.turn])

    def _event(self, what: int, seat: int, card: Card) -> Event:
        """Return the shared event: 0 drawn from the stock, 1 discarded, 2 taken from the discards."""
        key = (what * 4 + seat) * 64 + _IDX[id(card)]
        event = self._events.get(key)
        if event is None:
            if what == 0:
                event = CardDrawn(seat, "stock", card, visible_to=1 << seat)
            elif what == 1:
                event = CardDiscarded(seat, card)
            else:
                event = CardDrawn(seat, "discard", card)
            self._events[key] = event
        return event

    # -- text -------------------------------------------------------------------------------

    def parse_action(self, state: GameState, seat: int, text: str) -> Action:
        """Read the notation of TONK-NOTE-1; raise :class:`NotationError` if malformed."""
        words = text.split()
        if not words:
            raise self.parse_error(
                text,
                "drop, draw, take, spread <cards>, hit <n> <card>, discard <card> or deal",
                "TONK-NOTE-1",
            )
        verb = words[0].lower()
        args = words[1:]
        fixed = self._fixed[seat] if 0 <= seat < 4 else (Drop(seat), Draw(seat), Take(seat))
        if verb == "deal":
            if args:
                raise self.parse_error(text, "'deal' without arguments", "TONK-NOTE-1")
            return self._deals[seat][0] if 0 <= seat < 4 else Deal(seat)
        if verb in ("drop", "draw", "take"):
            if args:
                raise self.parse_error(text, f"{verb!r} without arguments", "TONK-NOTE-1")
            return fixed[("drop", "draw", "take").index(verb)]
        if verb == "discard":
            if len(args) != 1:
                raise self.parse_error(text, "'discard <card>'", "TONK-NOTE-1")
            return self._discards[seat][index_of(_card(args[0], text))]
        if verb == "hit":
            if len(args) != 2 or not args[0].isdecimal() or int(args[0]) < 1:
                raise self.parse_error(text, "'hit <spread number from 1> <card>'", "TONK-NOTE-1")
            number = int(args[0])
            card = _card(args[1], text)
            if number > _MAX_SPREADS:  # well-formed, never legal: not worth interning
                return Hit(seat, number, CARDS[index_of(card)])
            key = (number - 1) * 64 + index_of(card)
            hits = self._hits[seat]
            act = hits.get(key)
            if act is None:
                act = hits[key] = Hit(seat, number, CARDS[index_of(card)])
            return act
        if verb == "spread":
            if not args:
                raise self.parse_error(text, "'spread <card> <card> <card> ...'", "TONK-NOTE-1")
            idx = sorted(index_of(_card(a, text)) for a in args)
            if len(set(idx)) != len(idx):
                raise self.parse_error(text, "distinct cards", "TONK-NOTE-1")
            key = 0
            for x in idx:
                key |= 1 << x
            act2 = self._spreads[seat].get(key)  # interned when legal_actions offered it
            if act2 is None:
                act2 = Spread(seat, tuple(CARDS[x] for x in idx))
            return act2
        raise self.parse_error(
            text,
            "drop, draw, take, spread <cards>, hit <n> <card>, discard <card> or deal",
            "TONK-NOTE-1",
        )

    def rule_for(self, state: GameState, action: Action) -> tuple[str, str]:
        """Cite the Tonk rule that makes *action* illegal now."""
        assert isinstance(state, TonkState)
        seat = action.seat
        text = repr(str(action))
        vetoes = self.vetoes
        if vetoes is not None:
            for veto in vetoes(state=state, action=action):
                return veto.rule_id, veto.reason
        hand = [index_of(c) for c in state.zones.cards[HAND0 + seat]]
        if isinstance(action, Deal) or state.phase == BETWEEN:
            return (
                "TONK-SESSION-3",
                f"{text} is not possible: only the next dealer deals, and only between hands",
            )
        if isinstance(action, Drop | Draw | Take):
            if state.phase != START:
                return (
                    "TONK-TURN-2",
                    f"seat {seat} has drawn already: {text} is only allowed at the start of a turn",
                )
            if isinstance(action, Draw):
                return "TONK-STOCK-1", f"the stock is empty: {text} is not possible"
            return "TONK-TURN-3", f"the discard pile is empty: {text} is not possible"
        if state.phase != PLAY:
            return "TONK-TURN-3", f"seat {seat} must draw or take before {text}"
        if isinstance(action, Discard | Hit) and index_of(action.card) not in hand:
            return "TONK-TURN-3", f"seat {seat} does not hold {str(action.card)!r}: {text} rejected"
        if isinstance(action, Discard):
            return (
                "TONK-TURN-4",
                f"the card taken from the discard pile may not be discarded this turn: {text}",
            )
        if isinstance(action, Spread):
            idx = [index_of(c) for c in action.cards]
            missing = [str(CARDS[x]) for x in idx if x not in hand]
            if missing:
                return "TONK-TURN-3", f"seat {seat} does not hold {missing!r}: {text} rejected"
            if meld_of(idx) is None:
                ranks = {x >> 2 for x in idx}
                rule = "TONK-SPREAD-1" if len(ranks) < len(idx) else "TONK-SPREAD-2"
                return (
                    rule,
                    f"{text} is neither a book of 3-4 of a rank nor a run of 3+ in one suit (ace low)",
                )
            return "TONK-TURN-5", f"{text} would leave only the taken discard in hand"
        if isinstance(action, Hit):
            number = action.number
            if number > len(state.melds):
                return (
                    "TONK-HIT-1",
                    f"there is no spread number {number} on the table: {text} rejected",
                )
            if index_of(action.card) not in state.targets[number - 1]:
                return (
                    "TONK-HIT-1",
                    f"{text} does not extend spread {number} to a valid book or run",
                )
            return "TONK-TURN-5", f"{text} would leave only the taken discard in hand"
        return "CORE-LEGAL-1", f"{text} is not a legal action for seat {seat} now"

    # -- views ------------------------------------------------------------------------------

    def table(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """The Tonk table as *seat* may see it (TONK-VIEW-1)."""
        assert isinstance(state, TonkState)
        zones = state.zones
        n = state.players
        discard = zones.cards[DISCARD]
        spreads = []
        table = zones.cards[HAND0 + n]
        start = 0
        for k, meld in enumerate(state.melds):
            pile = table[start : start + meld.size]
            start += meld.size
            spreads.append(
                {
                    "number": k + 1,
                    "owner": state.owners[k],
                    "cards": [str(c) for c in sorted(pile, key=index_of)],
                }
            )
        out: dict[str, Any] = {
            "hand_number": min(state.hand_no + 1, state.hands),
            "hands": state.hands,
            "stake": state.stake,
            "dealer": state.dealer,
            "turn": state.turn,
            "phase": _PHASES[state.phase],
            "stock": len(zones.cards[STOCK]),
            "discard": {"top": str(discard[-1]) if discard else None, "count": len(discard)},
            "hand_sizes": [len(zones.cards[HAND0 + s]) for s in range(n)],
            "hand": None,
            "total": None,
            "spreads": spreads,
            "taken": None if state.taken < 0 else str(CARDS[state.taken]),
            "balances": list(state.ledger.totals),
            "last_hand": None,
            "cut": [list(r) for r in state.cut],
        }
        if seat is not None and 0 <= seat < n:
            mine = sorted(zones.cards[HAND0 + seat], key=index_of)
            out["hand"] = [str(c) for c in mine]
            out["total"] = sum(self.points[index_of(c)] for c in mine)
        if state.last is not None:
            reason, who, amounts = state.last
            out["last_hand"] = {
                "reason": reason,
                "seat": who,
                "amounts": list(amounts),
                "shown": None
                if state.shown is None
                else [[str(c) for c in sorted(h, key=index_of)] for h in state.shown],
            }
        return out

    # -- scores -----------------------------------------------------------------------------

    def scores(self, state: GameState) -> tuple[float, ...]:
        """Session balances in stakes (TONK-SESSION-1)."""
        assert isinstance(state, TonkState)
        return tuple(t / state.stake for t in state.ledger.totals)

    def payouts(self, state: GameState) -> tuple[int, ...] | None:
        """Session balances (TONK-SESSION-1)."""
        assert isinstance(state, TonkState)
        return tuple(state.ledger.totals)

    def standings(self, state: GameState) -> tuple[int, ...]:
        """The seats with the highest balance."""
        assert isinstance(state, TonkState)
        totals = state.ledger.totals
        best = max(totals)
        return tuple(s for s, t in enumerate(totals) if t == best)

    def hand_total(self, cards: Sequence[Card]) -> int:
        """Return the total of *cards* under this configuration's values (TONK-VAL-1)."""
        points = self.points
        return sum([points[index_of(c)] for c in cards])


def _find(pile: list[Card], card: Card) -> int:
    """Return the position of *card* in *pile*, by identity first (cards are interned)."""
    try:
        return [id(c) for c in pile].index(id(card))
    except ValueError:
        return pile.index(card)


def _grow(meld: Meld, x: int) -> Meld:
    """Return *meld* with card index *x* added (the hit was checked against its targets)."""
    r = (x >> 2) + 1
    if meld.kind == 0:
        return Meld(0, "", r, r, meld.size + 1)
    if r < meld.low:
        return Meld(1, meld.suit, r, meld.high, meld.size + 1)
    return Meld(1, meld.suit, meld.low, r, meld.size + 1)


def _card(word: str, text: str) -> Card:
    try:
        card = Card.parse(word)
    except NotationError:
        card = None
    if card is None or card.suit is None:
        msg = f"cannot read {text!r}: {word!r} is not a card of the 52-card deck (TONK-NOTE-1)"
        raise NotationError(msg)
    return card
