"""Tonk's engine: :class:`TonkLogic` (the deal, turns, endings and scoring of a session).

Hot path habits: the plugin hooks are resolved once, in :class:`TonkLogic`'s
``__init__``; cards are handled as indices 0..51 (:func:`cardcore_tonk.melds.card_index`)
looked up by the identity of the interned core cards; actions are interned per
seat; events are built only when somebody listens, and the common ones are
shared. Views live in :mod:`cardcore_tonk.views`, the position notation in
:mod:`cardcore_tonk.position`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore import (
    ALL,
    Card,
    CardDiscarded,
    CardDrawn,
    CardsDealt,
    Emit,
    Event,
    GameLogic,
    Layout,
    OptionError,
    ScoreTable,
    TurnPassed,
    Visibility,
    Zones,
    ZoneSpec,
)
from cardcore.dealing import fill_stock
from cardcore.turns import end_game, winners_by
from cardcore_tonk import encoding as _encoding
from cardcore_tonk import position as _position
from cardcore_tonk import search as _search
from cardcore_tonk import timeouts as _timeouts
from cardcore_tonk import views as _views
from cardcore_tonk.actions import (
    SEATS,
    STARTS,
    STARTS_ASKING,
    Deal,
    Discard,
    Draw,
    Drop,
    Hit,
    Spread,
    Take,
    TonkAction,
    parse_action,
    why_illegal,
)
from cardcore_tonk.actions import is_legal as _is_legal
from cardcore_tonk.actions import legal_actions as _legal_actions
from cardcore_tonk.answers import VERDICT, always_ends, checked_ender, usable_verdict
from cardcore_tonk.events import DealerCut, HandDealt, HandEnded, SpreadHit, SpreadLaid
from cardcore_tonk.melds import (
    CARDS,
    DealVerdict,
    cut_for_dealer,
    drop_payout,
    grow,
    hit_targets,
    index_of,
    meld_of,
    pay_from_each,
    stock_out_payout,
)
from cardcore_tonk.state import (
    BETWEEN,
    DISCARD,
    HAND0,
    OVER,
    PLAY,
    START,
    STOCK,
    PastHand,
    TonkState,
)

if TYPE_CHECKING:
    from cardcore import Ruleset

__all__ = ["DealJudge", "TonkLogic"]

_IDX: dict[int, int] = {id(c): i for i, c in enumerate(CARDS)}

DealJudge = Callable[[Sequence[Sequence[int]], Sequence[int]], DealVerdict | None]
"""What a ``tonk_deal_judge`` answer is: dealt hands (card indices) and values -> a verdict."""


_TO_ACT = tuple((s,) for s in range(SEATS))
_EVERY = (1 << SEATS) - 1  # the mask of every seat: every hand shown


class TonkLogic(GameLogic[TonkState, TonkAction]):
    """The rules of Tonk for one configuration (game + house rules), hooks resolved once.

    :param ruleset: The configuration.
    """

    rl_encoding = _encoding.TonkEncoding  # cardcore.rl's fixed action indices and observation

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        resolve = ruleset.resolve
        points = resolve("card_points")
        self.score_table = ScoreTable.from_points(
            (lambda c: min(int(c.rank), 10))
            if points is None
            else (lambda c: self.checked_answer("card_points", points(card=c), int, {"card": c})),
            CARDS,
        )
        """The card values (TONK-VAL-1), asked of the ``card_points`` hook once per card."""
        self.points: tuple[int, ...] = tuple(self.score_table[c] for c in CARDS)
        """The same values by card index, for the hot path."""
        self._value_of: dict[int, int] = {id(c): v for c, v in zip(CARDS, self.points, strict=True)}
        upcard = resolve("tonk_upcard")
        self.upcard: bool = (
            True if upcard is None else self.checked_answer("tonk_upcard", upcard(), bool)
        )
        """Whether the deal turns an upcard (TONK-DEAL-2)."""
        judges = resolve("tonk_deal_judge")
        self.judges: tuple[DealJudge, ...] = () if judges is None else tuple(judges())
        """The functions that may settle a hand right after its deal."""
        for judge in self.judges:
            if not callable(judge):
                raise self.refused_answer("tonk_deal_judge", judge, "a function (a DealJudge)")
        units = resolve("tonk_out_units")
        defaults = ruleset.resolve_options({})
        self.out_units: tuple[int, int] = (
            (2, 2)
            if units is None
            else (self._units(units, False, defaults), self._units(units, True, defaults))
        )
        """Stakes a tonk-out collects from each player, without and with a new spread that turn
        (under the default options: see :attr:`units_by_options`)."""
        impls = ruleset.pm.hook.tonk_out_units.get_hookimpls()
        self.units_by_options = units if any("options" in i.argnames for i in impls) else None
        """The ``tonk_out_units`` hook when an implementation reads the options: asked again
        at each tonk-out, with the game's options."""
        ends = resolve("tonk_hand_ends_on_empty_stock")
        self.ends_on_empty: Callable[[TonkState], bool] = (
            always_ends if ends is None else checked_ender(self, ends())
        )
        """Whether a turn that begins with an empty stock ends the hand (TONK-STOCK-1)."""
        self.starts = STARTS if self.ends_on_empty is always_ends else STARTS_ASKING
        """The start-of-turn actions by seat and piles (:data:`~cardcore_tonk.actions.STARTS`)."""
        self.quiet_any: bool = not self._asked("tonk_quiet_from_discards", True)
        """Whether every turn without a spread or hit is quiet (Tonk before 0.4.0)."""
        self.void_counts: bool = self._asked("tonk_void_deal_counts", False)
        """Whether a void deal is one of the session's hands (Tonk before 0.4.0)."""
        self.deal_shows_all: bool = self._asked("tonk_deal_shows_every_hand", False)
        """Whether a hand settled at the deal shows every hand (Tonk before 0.5.0)."""
        self._layouts: dict[int, Layout] = {}
        # events are immutable values: the common ones are built once and shared
        self._passed: tuple[TurnPassed, ...] = tuple(TurnPassed(s) for s in range(SEATS))
        self._events: dict[int, Event] = {}

    def _asked(self, hook: str, default: bool) -> bool:
        """A yes-or-no hook's answer, checked (*default* when no plugin answers)."""
        answer = self.ruleset.resolve(hook)
        return default if answer is None else self.checked_answer(hook, answer(), bool)

    # -- set-up -----------------------------------------------------------------------------

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        """Check the seats (TONK-GEN-1: 2 to option ``max_players``, 3 unless raised to 4) and
        ``first_dealer``."""
        high = min(options["max_players"], self.info.max_players)
        if not self.info.min_players <= players <= high:
            more = ""
            if high < players <= self.info.max_players:
                more = f"; set the option max_players={players} to seat {players}"
            msg = f"tonk takes {self.info.min_players} to {high} players, not {players} (TONK-GEN-1{more})"
            error = OptionError(msg)
            error.rule_id = "TONK-GEN-1"  # the hint after the ID hides it from the parser
            raise error
        fd = options["first_dealer"]
        if fd is not None and not 0 <= fd < players:
            msg = f"option 'first_dealer' must be a seat from 0 to {players - 1}, not {fd!r} (TONK-DEALER-1)"
            raise OptionError(msg)
        self.require_deck(players, options, CARDS)  # hands are bit masks over these 52

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
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> TonkState:
        """Cut for the dealer (TONK-DEALER-1) and deal the first hand from *cards*.

        The cut's and the deal's events (a natural on the first deal included)
        go to *emit*, so subscribers given to ``new_game`` receive them.
        """
        state = TonkState(players, options, Zones(self.layout(players)))
        state.seed = seed
        state.draws = 1  # draw 0 shuffled the deck
        ids = _IDX
        if not (cards and id(cards[0]) in ids and id(cards[-1]) in ids):
            cards = [CARDS[index_of(c)] for c in cards]  # not the interned cards: use those
        fill_stock(state, STOCK, cards)
        first = options["first_dealer"]
        if first is None:
            state.dealer, state.cut = cut_for_dealer(state.rng().random, players)
            if emit is not None:
                emit(DealerCut(state.dealer, state.cut))
        else:
            state.dealer = first
        self._deal_hand(state, emit, fresh=False)
        return state

    # -- the deal ---------------------------------------------------------------------------

    def _deal_hand(self, state: TonkState, emit: Emit | None, *, fresh: bool) -> None:
        """Deal one hand (TONK-DEAL-1/2), let house rules judge it, and start its first turn.

        Dealing slices the stock instead of moving card by card
        (:func:`cardcore.dealing.deal_round_robin`): a hand of random play is
        only a few decisions long, so the deal is on the hot path.
        """
        zones = state.zones
        n = state.players
        if fresh:
            state.gather()  # every card back into the stock, shuffled (TONK-SESSION-2)
        dealer = state.dealer
        piles = zones.cards
        seen = zones.seen
        stock = piles[STOCK]
        # TONK-DEAL-1: five cards each, one at a time, from the dealer's left: the
        # j-th seat dealt to gets the cards j, j + n, ... from the top (the end)
        k = 5 * n
        dealt = stock[-k:]  # the dealt cards, bottom to top
        for j in range(n):
            z = HAND0 + (dealer + 1 + j) % n
            piles[z] = stock[-1 - j : -1 - j - k : -n]
            seen[z] = [0] * 5
        del stock[-k:]
        del seen[STOCK][-k:]
        upcard: Card | None = None
        if self.upcard:  # TONK-DEAL-2, face up (Zones.move's masks, inlined)
            upcard = stock.pop()
            del seen[STOCK][-1]
            piles[DISCARD].append(upcard)
            seen[DISCARD].append(ALL)
        state.phase = START
        turn = state.turn = (dealer + 1) % n  # TONK-TURN-1
        if emit is not None:
            emit(CardsDealt((5,) * n))  # the core's event, then each seat's own cards
            for s in range(n):
                cards = tuple(piles[HAND0 + s])
                emit(HandDealt(state.hand_no + 1, dealer, s, upcard, cards, 1 << s))
        if self.judges:
            dealt_idx = list(map(_IDX.__getitem__, map(id, dealt)))
            hands: list[list[int]] = [[]] * n  # per seat, its hand as card indices
            for j in range(n):
                hands[(dealer + 1 + j) % n] = dealt_idx[-1 - j :: -n]
            for judge in self.judges:
                verdict = judge(hands, self.points)
                if verdict is not None:
                    if not usable_verdict(verdict, n):  # refused by name, never half-used
                        raise self.refused_answer("tonk_deal_judge", verdict, VERDICT, judge)
                    amounts = [u * state.stake for u in verdict.units]
                    again = verdict.redeal and not self.void_counts
                    shown = None if self.deal_shows_all else verdict.shown
                    show = _EVERY if shown is None else sum(1 << s for s in set(shown))
                    self._end_hand(state, verdict.reason, verdict.seat, amounts, show, emit, again)
                    return
        state.to_act = _TO_ACT[turn]
        if emit is not None:
            emit(self._passed[turn])

    # -- endings ----------------------------------------------------------------------------

    def _end_hand(
        self,
        state: TonkState,
        reason: str,
        seat: int | None,
        amounts: Sequence[int],
        show: int,
        emit: Emit | None,
        redeal: bool = False,
    ) -> None:
        """Settle the hand (TONK-DEALER-2), then wait for the next dealer's ``deal`` or end the session.

        *show* is the mask of the seats whose hands are turned face up (TONK-VIEW-1).
        """
        zones = state.zones
        n = state.players
        shown: tuple[tuple[Card, ...] | None, ...] | None = None
        if show:  # the hands face up (TONK-DROP-1, TONK-VIEW-1; a deal judge names its seats)
            hands = zones.cards
            if show == _EVERY:  # the common case: every hand (a drop, the stock out)
                shown = tuple(map(tuple, hands[HAND0 : HAND0 + n]))
            else:
                shown = tuple([tuple(hands[HAND0 + s]) if show >> s & 1 else None for s in range(n)])
            for s in range(n):
                if show >> s & 1:
                    zones.seen[HAND0 + s] = [ALL] * len(hands[HAND0 + s])
        paid = self.score_round(state, amounts)  # the house rules' adjustments, checked
        ledger = state.ledger
        ledger.post(paid, reason)
        balances = tuple(ledger.totals)
        state.past.append(
            PastHand(state.hand_no + 1, state.dealer, reason, seat, paid, balances, shown)
        )
        if emit is not None:
            if shown is not None:
                ordered: list[tuple[Card, ...] | None] = []
                totals: list[int | None] = []
                for h in shown:
                    xs = None if h is None else sorted([_IDX[id(c)] for c in h])  # None: not shown
                    ordered.append(None if xs is None else tuple([CARDS[x] for x in xs]))
                    totals.append(None if xs is None else sum([self.points[x] for x in xs]))
                event = HandEnded(
                    reason, paid, balances, state.hand_no + 1, seat, tuple(ordered), tuple(totals)
                )
            else:
                event = HandEnded(reason, paid, balances, state.hand_no + 1, seat)
            emit(event)
        if not redeal:  # a void deal is dealt again, under the same number
            state.hand_no += 1
        state.dealer = (state.dealer + 1) % n  # TONK-DEALER-2: the deal passes left
        if state.hand_no >= state.hands:
            state.phase = OVER
            totals_now = ledger.totals
            best = max(totals_now)  # the highest balances win (winners_by, inline)
            stake = state.stake
            end_game(
                state,
                [s for s in range(n) if totals_now[s] == best],
                [t / stake for t in totals_now],
                reason,
                payouts=totals_now,
                reveal=False,
            )
            return
        state.phase = BETWEEN  # TONK-SESSION-3
        state.turn = state.dealer
        state.to_act = _TO_ACT[state.dealer]
        if emit is not None:
            emit(self._passed[state.dealer])

    def _totals(self, state: TonkState) -> list[int]:
        value = self._value_of.__getitem__
        hands = state.zones.cards[HAND0 : HAND0 + state.players]
        return [sum(map(value, map(id, hand))) for hand in hands]

    # -- play -------------------------------------------------------------------------------

    legal_actions = _legal_actions  # cardcore_tonk.actions.legal_actions (TONK-LEGAL-1)
    is_legal = _is_legal  # the fast path of apply and replay: cardcore_tonk.actions.is_legal

    def apply(self, state: TonkState, action: TonkAction, emit: Emit | None) -> None:
        """Apply a legal Tonk action (the core checked it)."""
        seat = action.seat
        zones = state.zones
        hz = HAND0 + seat
        kind = type(action)
        # the moves of Zones.move inlined: a hand shows itself to its owner, the
        # discard pile to everyone (the masks Zones.move would give)
        if type(action) is Discard:
            card = action.card
            piles = zones.cards
            seen = zones.seen
            hand = piles[hz]
            i = 0
            for c in hand:  # by identity first (cards are interned): no __eq__ call
                if c is card:
                    break
                i += 1
            else:
                i = hand.index(card)
            piles[DISCARD].append(hand.pop(i))
            del seen[hz][i]
            seen[DISCARD].append(ALL)
            if emit is not None:
                emit(self._event(1, seat, card))
            if not hand:  # TONK-OUT-2
                amounts = pay_from_each(seat, state.players, state.stake)
                self._end_hand(state, "out", seat, amounts, 0, emit)
                return
            # the next turn (TONK-TURN-1), inline: once per turn
            # a quiet turn: played from the discards with the stock out (for house rules)
            quiet = not state.touched and (
                self.quiet_any or (state.taken >= 0 and not piles[STOCK])
            )
            state.quiet_turns = state.quiet_turns + 1 if quiet else 0
            turn = state.turn + 1
            if turn == state.players:
                turn = 0
            state.turn = turn
            state.phase = START
            state.taken = -1
            state.spread_made = state.touched = False
            if not piles[STOCK] and self.ends_on_empty(state):  # TONK-STOCK-1
                amounts = stock_out_payout(self._totals(state), state.stake)
                self._end_hand(state, "stock-out", None, amounts, _EVERY, emit)
                return
            state.to_act = _TO_ACT[turn]
            if emit is not None:
                emit(self._passed[turn])
        elif kind is Draw:  # TONK-TURN-3
            piles = zones.cards
            if not piles[STOCK]:  # asked for the empty stock, playing on: the hand ends
                amounts = stock_out_payout(self._totals(state), state.stake)
                self._end_hand(state, "stock-out", None, amounts, _EVERY, emit)
                return
            seen = zones.seen
            card = piles[STOCK].pop()
            mask = seen[STOCK].pop()
            piles[hz].append(card)
            seen[hz].append(mask if mask == ALL else mask | 1 << seat)
            state.phase = PLAY
            state.was_hit &= ~(1 << seat)
            if emit is not None:
                emit(self._event(0, seat, card))
        elif kind is Take:
            card = zones.cards[DISCARD].pop()
            del zones.seen[DISCARD][-1]
            zones.cards[hz].append(card)
            zones.seen[hz].append(ALL)
            state.taken = index_of(card)
            state.phase = PLAY
            state.was_hit &= ~(1 << seat)
            if emit is not None:
                emit(self._event(2, seat, card))
        elif type(action) is Spread:
            cards = action.cards
            k = len(state.melds)
            sz = HAND0 + state.players  # the spreads pile: a new spread goes on the end
            hand = zones.cards[hz]
            for c in cards:
                zones.move(hz, sz, _find(hand, c))
            meld = meld_of([index_of(c) for c in cards])
            if meld is None:  # pragma: no cover - legal_actions offers spreads only
                msg = f"not a spread: {action}"
                raise ValueError(msg)
            state.melds.append(meld)
            state.owners.append(seat)
            state.targets.append(hit_targets(meld))
            state.spread_made = state.touched = True
            if emit is not None:
                emit(SpreadLaid(seat, k + 1, cards))
            if not hand:
                self._tonk_out(state, seat, emit)
        elif type(action) is Hit:
            number = action.number
            card = action.card
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
            grown = grow(melds[k], index_of(card))
            melds[k] = grown
            state.targets[k] = hit_targets(grown)
            owner = state.owners[k]
            if owner != seat:
                state.was_hit |= 1 << owner
            state.touched = True
            if emit is not None:
                emit(SpreadHit(seat, number, card))
            if not hand:
                self._tonk_out(state, seat, emit)
        elif kind is Drop:  # TONK-TURN-2, TONK-DROP-1..5
            amounts, caught = drop_payout(seat, self._totals(state), state.stake)
            reason = "drop-caught" if caught else "drop-won"
            self._end_hand(state, reason, seat, amounts, _EVERY, emit)
        elif kind is Deal:  # the next hand (TONK-SESSION-3)
            self._deal_hand(state, emit, fresh=True)
        else:  # pragma: no cover - legal_actions never offers anything else
            msg = f"not a tonk action: {action!r}"
            raise ValueError(msg)

    def _units(self, hook: Callable[..., Any], spread: bool, options: Mapping[str, Any]) -> int:
        asked = {"new_spread": spread, "options": options}
        return int(self.checked_answer("tonk_out_units", hook(**asked), int, asked))

    def _tonk_out(self, state: TonkState, seat: int, emit: Emit | None) -> None:
        """TONK-OUT-1: the hand emptied without a discard."""
        hook, spread, options = self.units_by_options, state.spread_made, state.options
        units = self.out_units[spread] if hook is None else self._units(hook, spread, options)
        amounts = pay_from_each(seat, state.players, units * state.stake)
        if any(abs(t + a) > 10**15 for t, a in zip(state.ledger.totals, amounts, strict=True)):
            wanted = f"units whose payout at stake {state.stake} keeps every balance within 1e+15"
            asked = {"new_spread": spread, "options": options}  # (the ledger's bound)
            raise self.refused_answer("tonk_out_units", units, wanted, asked=asked)
        self._end_hand(state, "tonk-out", seat, amounts, 0, emit)

    def _event(self, what: int, seat: int, card: Card) -> Event:
        """Return the shared event: 0 drawn from the stock, 1 discarded, 2 taken from the discards."""
        key = (what * 4 + seat) * 64 + _IDX[id(card)]
        event = self._events.get(key)
        if event is None:
            if what == 0:
                event = CardDrawn(seat, "stock", card, 1 << seat)
            elif what == 1:
                event = CardDiscarded(seat, card)
            else:
                event = CardDrawn(seat, "discard", card)
            self._events[key] = event
        return event

    # -- text -------------------------------------------------------------------------------

    def parse_action(self, state: TonkState, seat: int, text: str) -> TonkAction:
        """Read the notation of TONK-NOTE-1 (:func:`cardcore_tonk.actions.parse_action`)."""
        return parse_action(seat, text)

    def rule_for(self, state: TonkState, action: TonkAction) -> tuple[str, str]:
        """Cite the Tonk rule that makes *action* illegal now (:func:`cardcore_tonk.actions.why_illegal`)."""
        return why_illegal(state, action)

    # -- positions, views, scores -------------------------------------------------------------

    def write_position(self, state: TonkState) -> str:
        """Write *state* in Tonk's position notation (:mod:`cardcore_tonk.position`)."""
        return _position.write(state)

    def read_position(self, text: str, players: int, options: Mapping[str, Any]) -> TonkState:
        """Read and validate a Tonk position (:mod:`cardcore_tonk.position`)."""
        return _position.read(self, text, players, options)

    def table(self, state: TonkState, seat: int | None) -> dict[str, Any]:
        """The Tonk table as *seat* may see it (TONK-VIEW-1; fields in :data:`cardcore_tonk.views.FIELDS`)."""
        return _views.table(state, seat, self.points)

    def history(self, state: TonkState, seat: int | None, since: int) -> list[dict[str, Any]]:
        """The cut and the finished hands from entry *since* (:func:`cardcore_tonk.views.history`)."""
        return _views.history(state, since, self.points)

    def scores(self, state: TonkState) -> tuple[float, ...]:
        """Session balances in stakes (TONK-SESSION-1)."""
        return tuple(t / state.stake for t in state.ledger.totals)

    def payouts(self, state: TonkState) -> tuple[int, ...] | None:
        """Session balances (TONK-SESSION-1)."""
        return tuple(state.ledger.totals)

    def standings(self, state: TonkState) -> tuple[int, ...]:
        """The seats with the highest balance."""
        return winners_by(state.ledger.totals, lowest=False)

    def default_action(self, state: TonkState, seat: int) -> TonkAction | None:
        """On a timeout: draw, then discard the highest card (see :mod:`cardcore_tonk.timeouts`)."""
        return _timeouts.timeout_for(self, state, seat)

    def hand_total(self, cards: Sequence[Card]) -> int:
        """Return the total of *cards* under this configuration's values (TONK-VAL-1)."""
        points = self.points
        return sum([points[index_of(c)] for c in cards])

    # the search hooks (see cardcore_tonk.search)
    position_from_view = _search.position_from_view
    utility = _search.utility
    rounds_played = _search.rounds_played
    rollout_action = _search.rollout_action


def _find(pile: list[Card], card: Card) -> int:
    """Return the position of *card* in *pile*, by identity first (cards are interned)."""
    i = 0
    for c in pile:
        if c is card:
            return i
        i += 1  # noqa: SIM113 - a counter is cheaper than enumerate here (measured)
    return pile.index(card)
