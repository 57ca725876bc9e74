"""The Golf rules engine: :class:`GolfLogic` (one per configuration, no per-game state).

Hot path: ``legal_actions`` returns interned tuples from the :class:`~cardcore_golf.state.Plan`
and ``apply`` dispatches on a small int; no pluggy call happens per decision. House rules act
through hooks resolved in ``__init__`` (and per layout, once, in :meth:`GolfLogic.plan`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cardcore.actions import Action
from cardcore.cards import Card
from cardcore.deck import shuffle
from cardcore.errors import NotationError, OptionError
from cardcore.events import (
    CardDiscarded,
    CardDrawn,
    CardRevealed,
    CardsDealt,
    RoundScored,
    Shuffled,
    TurnPassed,
)
from cardcore.info import Veto
from cardcore.logic import Emit, GameLogic
from cardcore.scoring import ScoreTable
from cardcore.state import GameState, Result
from cardcore.zones import ALL
from cardcore_golf.actions import (
    DISCARD,
    DRAW,
    FLIP,
    KNOCK,
    PEEK,
    REPLACE,
    TAKE,
    Discard,
    Draw,
    Flip,
    GolfAction,
    Knock,
    Peek,
    Replace,
    Take,
)
from cardcore_golf.events import (
    CardPlaced,
    GroupRemoved,
    Knocked,
    LayoutCompleted,
    LayoutsRevealed,
)
from cardcore_golf.logic import LAYOUTS, Layout, layout_for
from cardcore_golf.state import (
    DRAW_PHASE,
    OVER,
    PHASE_NAMES,
    PLACE,
    SETUP,
    TAKEN,
    GolfState,
    Plan,
)

if TYPE_CHECKING:
    from cardcore.plugins import Ruleset

__all__ = ["VERBS", "GolfLogic", "match_rounds"]

#: GOLF-NOTE-1: words (and short forms) of the notation -> action class.
VERBS: dict[str, type[GolfAction]] = {
    "draw": Draw, "d": Draw, "take": Take, "t": Take, "discard": Discard, "x": Discard,
    "knock": Knock, "k": Knock, "replace": Replace, "r": Replace, "flip": Flip, "f": Flip,
    "peek": Peek, "p": Peek,
}  # fmt: skip

_WITH_POS = (Replace, Flip, Peek)


def match_rounds(options: Mapping[str, Any]) -> int | None:
    """GOLF-GAME-1: the rounds in a match: option ``rounds``; if unset, 9 without a
    ``points_limit`` and no cap with one (``None``)."""
    rounds = options.get("rounds")
    if rounds is not None:
        return int(rounds)
    return 9 if options.get("points_limit") is None else None


def _state(state: GameState) -> GolfState:
    assert isinstance(state, GolfState)
    return state


class GolfLogic(GameLogic):
    """Golf for one configuration (game + house rules); every layout and player count.

    :param ruleset: The configuration. Golf's own hooks and the core's ``card_points``,
        ``forbid_action`` and ``score_round`` are resolved here, once.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        chain = ruleset.chain
        self._check: Callable[..., Any] = chain("golf_check_options")
        self._table_hook: Callable[..., Any] = chain("golf_score_table")
        self._scorer_hook: Callable[..., Any] = chain("golf_scorer")
        self._final_hook: Callable[..., Any] = chain("golf_final_turns")
        self._groups_hook: Callable[..., Any] = chain("golf_removable_groups")
        self._card_points: Callable[..., Any] = chain("card_points")
        self._awards: Callable[..., Any] | None = (
            chain("golf_round_awards") if ruleset.has_impls("golf_round_awards") else None
        )
        self._penalty: Callable[..., Any] | None = (
            chain("golf_ender_penalty") if ruleset.has_impls("golf_ender_penalty") else None
        )
        # The core's own score_round returns the scores unchanged: call the chain only when a
        # plugin other than the core's defaults implements it.
        self._score_round: Callable[..., Any] | None = (
            chain("score_round")
            if any(
                impl.plugin_name != "cardcore.defaults"
                for impl in ruleset.pm.hook.score_round.get_hookimpls()
            )
            else None
        )
        self._veto: Callable[..., list[Veto]] | None = (
            chain("forbid_action") if ruleset.has_impls("forbid_action") else None
        )
        self._plans: dict[tuple[str, int, int | None], Plan] = {}
        self._decks: dict[tuple[str | None, int], tuple[Card, ...]] = {}

    # -- configuration -------------------------------------------------------------------------

    def plan(self, layout: Layout, players: int, max_turns: int | None = None) -> Plan:
        """Return the cached :class:`Plan` for *layout*, *players* and the turn cap."""
        key = (layout.key, players, max_turns)
        plan = self._plans.get(key)
        if plan is None:
            table: ScoreTable = self._table_hook(layout=layout)
            points: dict[Card, int] = {}
            for card in set(self.deck(players, {"layout": layout.key})):
                value = self._card_points(card=card)
                points[card] = table[card] if value is None else int(value)
            groups: list[tuple[int, ...]] = []
            for answer in self._groups_hook(layout=layout):
                groups.extend(tuple(g) for g in answer)
            plan = Plan(
                layout,
                players,
                table=table,
                points=points,
                scorer=self._scorer_hook(layout=layout),
                final_turns=bool(self._final_hook(layout=layout)),
                groups=tuple(groups),
                max_turns=max_turns,
            )
            self._plans[key] = plan
        return plan

    def deck(self, players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        """Return the cards in play (the ``build_deck`` hook), cached per layout and players."""
        layout = layout_for(options.get("layout", 6))
        key = (None if layout is None else layout.key, players)
        cards = self._decks.get(key)
        if cards is None:
            cards = self._decks[key] = tuple(
                self.ruleset.hook.build_deck(players=players, options=options)
            )
        return cards

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        """Check the seat count (GOLF-GEN-1/3), the layout, the dealer and house-rule limits."""
        super().validate(players, options)
        layout = layout_for(options.get("layout", 6))
        if layout is None:
            msg = (
                f"golf has no layout {options.get('layout')!r} (expected 6, 8, 9, 10, '4' or '4h')"
            )
            raise OptionError(msg)
        dealer = options.get("dealer")
        if not (
            dealer is None
            or dealer == "random"
            or (isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < players)
        ):
            msg = f"option 'dealer' must be a seat from 0 to {players - 1} or 'random', not {dealer!r} (GOLF-DEAL-3)"
            raise OptionError(msg)
        self._check(layout=layout, players=players, options=options)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        """At most ``rounds`` rounds of setup plus two actions per turn (turns capped or not)."""
        layout = layout_for(options.get("layout", 6)) or LAYOUTS["6"]
        cap = options.get("max_turns") or 500 * players
        rounds = match_rounds(options)
        if rounds is None:  # played to a points limit: assume a round adds at least 1 to a total
            rounds = int(options["points_limit"]) + 1
        return rounds * (players * layout.initial + 2 * int(cap) + 2) + 2

    # -- dealing ---------------------------------------------------------------------------------

    def new_state(
        self, players: int, options: Mapping[str, Any], cards: list[Card], seed: int
    ) -> GameState:
        """Deal round 1 from *cards* (bottom to top) and open the setup phase (GOLF-DEAL-1..4)."""
        layout = layout_for(options.get("layout", 6))
        assert layout is not None
        plan = self.plan(layout, players, options.get("max_turns"))
        state = GolfState(players, options, plan)
        state.seed = seed
        dealer = options.get("dealer")
        if dealer == "random":
            state.dealer = state.rng().randrange(players)
        elif dealer is not None:
            state.dealer = int(dealer)
        zones = state.zones
        zones.cards[plan.stock] = cards
        zones.seen[plan.stock] = [0] * len(cards)
        self._deal(state, None)
        return state

    def _deal(self, state: GolfState, emit: Emit | None) -> None:
        """Deal from the stock: one card at a time from left of the dealer, then the upcard."""
        plan = state.plan
        layout = plan.layout
        players = state.players
        cards = state.zones.cards
        seen = state.zones.seen
        stock = cards[plan.stock]
        stock_seen = seen[plan.stock]
        first = (state.dealer + 1) % players
        size = layout.size
        n = size * players
        dealt = stock[-n:]
        del stock[-n:]
        del stock_seen[-n:]
        dealt.reverse()  # dealt[k] goes to seat first + k % players, position k // players
        grid = plan.grid
        masks = plan.grid_mask
        for i in range(players):
            seat = (first + i) % players
            cards[grid[seat]] = dealt[i::players]
            seen[grid[seat]] = [masks[seat]] * size
        state.slots = plan.no_slots
        cards[plan.discard].append(stock.pop())
        stock_seen.pop()
        seen[plan.discard].append(ALL)
        state.down = [layout.size] * players
        state.ender = -1
        state.final_left = -1
        state.turns = 0
        state.turn = first
        state.to_act = plan.to_act[first]
        if layout.initial:
            state.phase = SETUP
            state.setup_left = layout.initial
            state.setup_done = 0
            state.legal = plan.setup_legal(first, 0)
        else:
            state.phase = DRAW_PHASE
            state.setup_left = 0
            state.legal = plan.legal_start[first]
        if emit is not None:
            emit(CardsDealt(tuple([layout.size] * players)))
            emit(CardRevealed(None, "discard", 0, cards[plan.discard][-1]))  # the upcard
            emit(TurnPassed(first))

    # -- play ------------------------------------------------------------------------------------

    def legal_actions(self, state: GameState, seat: int) -> tuple[Action, ...]:
        """Return *seat*'s legal actions in this order.

        Setup: ``flip``/``peek`` of each eligible position, ascending. Start of a turn:
        ``draw``, ``take``, then ``knock`` where allowed. Holding a card: ``replace`` of each
        position ascending, then ``discard`` (not after ``take``).
        """
        st: GolfState = state  # type: ignore[assignment]
        if seat != st.turn or st.is_over:
            return ()
        acts: tuple[Action, ...] | None = st.legal
        if acts is None:
            acts = self._compute_legal(st, seat)
        veto = self._veto
        if veto is not None:
            acts = tuple(a for a in acts if not veto(state=st, action=a))
        return acts

    def _compute_legal(self, st: GolfState, seat: int) -> tuple[Action, ...]:
        """The legal actions when ``st.legal`` holds no ready tuple (setup, removed cards)."""
        plan = st.plan
        phase = st.phase
        if phase == SETUP:
            return self._setup_actions(st, seat)
        if phase == PLACE:
            return self._present(st, seat, plan.legal_place[seat])
        if phase == TAKEN:
            return self._present(st, seat, plan.legal_taken[seat])
        if phase == DRAW_PHASE:
            return plan.legal_start[seat] if st.ender < 0 else plan.legal_draw[seat]
        return ()

    @staticmethod
    def _present(st: GolfState, seat: int, acts: tuple[Action, ...]) -> tuple[Action, ...]:
        slots = st.slots[seat]
        if slots is None:
            return acts
        return tuple(a for a in acts if not isinstance(a, Replace) or slots[a.pos] >= 0)

    @staticmethod
    def _setup_actions(st: GolfState, seat: int) -> tuple[Action, ...]:
        plan = st.plan
        seen = st.zones.seen[plan.grid[seat]]
        positions = range(plan.layout.size)
        if plan.layout.setup == "flip":
            return tuple(
                plan.flip_act[seat][p]
                for p in positions
                if (i := st.index(seat, p)) >= 0 and seen[i] != ALL
            )
        bit = 1 << seat
        return tuple(plan.peek_act[seat][p] for p in positions if not seen[p] & bit)

    def apply(self, state: GameState, action: Action, emit: Emit | None) -> None:
        """Apply a legal Golf *action* (see :mod:`cardcore_golf.actions`)."""
        st: GolfState = state  # type: ignore[assignment]
        kind = action.kind  # type: ignore[attr-defined]
        seat = action.seat
        plan = st.plan
        zones = st.zones
        cards = zones.cards
        seen = zones.seen
        if kind == REPLACE:
            pos = action.pos  # type: ignore[attr-defined]
            hz = plan.held[seat]
            card = cards[hz].pop()
            mask = seen[hz].pop()
            gz = plan.grid[seat]
            slots = st.slots[seat]
            i = pos if slots is None else slots[pos]
            grid_cards = cards[gz]
            old = grid_cards[i]
            grid_cards[i] = card
            grid_seen = seen[gz]
            if plan.face_up_grid:
                if grid_seen[i] != ALL:
                    st.down[seat] -= 1
                grid_seen[i] = ALL
            else:
                grid_seen[i] = mask
            cards[plan.discard].append(old)
            seen[plan.discard].append(ALL)
            if emit is not None:
                vis = ALL if plan.face_up_grid else mask
                emit(CardPlaced(seat, pos, card, visible_to=vis))
                emit(CardDiscarded(seat, old))
            if plan.groups:
                self._remove_groups(st, seat, pos, emit)
            if st.final_left < 0 and plan.simple_end and (st.down[seat] or not plan.trigger):
                nxt = seat + 1
                if nxt == st.players:
                    nxt = 0
                st.turn = nxt
                st.to_act = plan.to_act[nxt]
                st.phase = DRAW_PHASE
                st.legal = plan.legal_start[nxt]
                if emit is not None:
                    emit(TurnPassed(nxt))
            else:
                st.turns += 1
                self._end_turn(st, seat, emit)
        elif kind == DRAW:
            stock = cards[plan.stock]
            if not stock:
                discard = cards[plan.discard]
                if len(discard) <= 1:
                    self._end_round(st, emit, ender=-1)  # GOLF-STOCK-1
                    return
                top = discard.pop()
                cards[plan.stock] = discard
                seen[plan.stock] = [0] * len(discard)
                cards[plan.discard] = [top]
                seen[plan.discard] = [ALL]
                stock = discard
                shuffle(stock, st.rng())
                if emit is not None:
                    emit(Shuffled("stock", len(stock)))
            card = stock.pop()
            seen[plan.stock].pop()
            hz = plan.held[seat]
            cards[hz].append(card)
            seen[hz].append(1 << seat)
            st.phase = PLACE
            st.legal = plan.legal_place[seat] if st.slots[seat] is None else None
            if emit is not None:
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
        elif kind == TAKE:
            card = cards[plan.discard].pop()
            seen[plan.discard].pop()
            hz = plan.held[seat]
            cards[hz].append(card)
            seen[hz].append(ALL)
            st.phase = TAKEN
            st.legal = plan.legal_taken[seat] if st.slots[seat] is None else None
            if emit is not None:
                emit(CardDrawn(seat, "discard", card))
        elif kind == DISCARD:
            hz = plan.held[seat]
            card = cards[hz].pop()
            seen[hz].pop()
            cards[plan.discard].append(card)
            seen[plan.discard].append(ALL)
            if emit is not None:
                emit(CardDiscarded(seat, card))
            if st.final_left < 0 and plan.simple_end and (st.down[seat] or not plan.trigger):
                nxt = seat + 1
                if nxt == st.players:
                    nxt = 0
                st.turn = nxt
                st.to_act = plan.to_act[nxt]
                st.phase = DRAW_PHASE
                st.legal = plan.legal_start[nxt]
                if emit is not None:
                    emit(TurnPassed(nxt))
            else:
                st.turns += 1
                self._end_turn(st, seat, emit)
        elif kind == FLIP:
            pos = action.pos  # type: ignore[attr-defined]
            gz = plan.grid[seat]
            i = st.index(seat, pos)
            seen[gz][i] = ALL
            st.down[seat] -= 1
            st.setup_done |= 1 << pos
            if emit is not None:
                emit(CardRevealed(seat, f"grid.{seat}", pos, cards[gz][i]))
            if plan.groups:
                self._remove_groups(st, seat, pos, emit)
            self._setup_next(st, seat, emit)
        elif kind == PEEK:
            pos = action.pos  # type: ignore[attr-defined]
            gz = plan.grid[seat]
            if seen[gz][pos] != ALL:
                seen[gz][pos] |= 1 << seat
            st.setup_done |= 1 << pos
            if emit is not None:
                emit(CardRevealed(seat, f"grid.{seat}", pos, cards[gz][pos], visible_to=1 << seat))
            self._setup_next(st, seat, emit)
        elif kind == KNOCK:
            st.ender = seat
            st.final_left = st.players - 1
            st.turns += 1
            if emit is not None:
                emit(Knocked(seat))
            cap = plan.max_turns
            if cap is not None and st.turns >= cap:
                self._end_round(st, emit, ender=-1)  # GOLF-CAP-1
                return
            self._pass_turn(st, seat, emit)

    def _setup_next(self, st: GolfState, seat: int, emit: Emit | None) -> None:
        """Count one setup action; move to the next seat, or to the first turn (GOLF-DEAL-4)."""
        st.setup_left -= 1
        plan = st.plan
        if st.setup_left:
            st.legal = plan.setup_legal(seat, st.setup_done)
            return
        nxt = (seat + 1) % st.players
        st.turn = nxt
        st.to_act = plan.to_act[nxt]
        st.setup_done = 0
        if nxt == (st.dealer + 1) % st.players:
            st.phase = DRAW_PHASE
            st.legal = plan.legal_start[nxt]
        else:
            st.setup_left = plan.layout.initial
            st.legal = plan.setup_legal(nxt, 0)
        if emit is not None:
            emit(TurnPassed(nxt))

    def _pass_turn(self, st: GolfState, seat: int, emit: Emit | None) -> None:
        nxt = seat + 1
        if nxt == st.players:
            nxt = 0
        st.turn = nxt
        st.to_act = st.plan.to_act[nxt]
        st.phase = DRAW_PHASE
        st.legal = st.plan.legal_start[nxt] if st.ender < 0 else st.plan.legal_draw[nxt]
        if emit is not None:
            emit(TurnPassed(nxt))

    def _end_turn(self, st: GolfState, seat: int, emit: Emit | None) -> None:
        """Finish *seat*'s turn (already counted): final turns, the layout trigger, the turn
        cap, then pass."""
        plan = st.plan
        left = st.final_left
        if left >= 0:
            left -= 1
            st.final_left = left
            if left == 0:
                self._end_round(st, emit, ender=st.ender)  # GOLF6-END-1, GOLF4-KNOCK-1
                return
        elif plan.trigger and st.down[seat] == 0:
            st.ender = seat  # GOLF-PEN-1
            if emit is not None:
                emit(LayoutCompleted(seat))
            if not plan.final_turns:
                self._end_round(st, emit, ender=seat)
                return
            st.final_left = st.players - 1
        cap = plan.max_turns
        if cap is not None and st.turns >= cap:
            self._end_round(st, emit, ender=-1)  # GOLF-CAP-1
            return
        self._pass_turn(st, seat, emit)

    def _remove_groups(self, st: GolfState, seat: int, pos: int, emit: Emit | None) -> None:
        """Move complete face-up cancelled groups through *pos* under the discard pile.

        Overlapping complete groups (a row and a column sharing *pos*) go together.
        """
        plan = st.plan
        zones = st.zones
        gz = plan.grid[seat]
        pile = zones.cards[gz]
        masks = zones.seen[gz]
        keys = plan.keys
        complete: set[int] = set()
        for group in plan.group_of[pos]:
            index = [st.index(seat, p) for p in group]
            if min(index) < 0:
                continue
            key = keys[pile[index[0]]]
            if all(masks[i] == ALL and keys[pile[i]] == key for i in index):
                complete.update(group)
        if not complete:
            return
        positions = sorted(complete)
        index = [st.index(seat, p) for p in positions]
        removed = [pile[i] for i in index]
        for i in sorted(index, reverse=True):
            zones.pop(gz, i)
        for card in removed:
            zones.insert_bottom(plan.discard, card, ALL)
        slots: list[int] = []
        k = 0
        for p in range(plan.layout.size):
            if p in complete or st.index(seat, p) < 0:
                slots.append(-1)
            else:
                slots.append(k)
                k += 1
        all_slots = list(st.slots)
        all_slots[seat] = tuple(slots)
        st.slots = tuple(all_slots)
        if emit is not None:
            emit(GroupRemoved(seat, tuple(positions), tuple(removed)))

    # -- rounds and the match ----------------------------------------------------------------------

    def round_scores(self, st: GolfState, ender: int) -> list[int]:
        """Return each seat's round score: cancelling, awards, the ender penalty, then the
        core's ``score_round`` (GOLF-ROUND-1, GOLF-PEN-4). Reads the state only."""
        plan = st.plan
        cards = st.zones.cards
        key_by_id = plan.key_by_id
        points_by_id = plan.points_by_id
        scorer = plan.scorer
        all_keys: list[list[int | None]] = []
        scores: list[int] = []
        for seat in range(st.players):
            layout = cards[plan.grid[seat]] if st.slots[seat] is None else st.layout_of(seat)
            keys: list[int | None]
            try:
                keys = [key_by_id[id(card)] for card in layout]
                pts = [points_by_id[id(card)] for card in layout]
            except KeyError:  # a removed position, or a card object that is not interned
                keys = [None if c is None else plan.keys[c] for c in layout]
                pts = [0 if c is None else plan.points[c] for c in layout]
            all_keys.append(keys)
            scores.append(scorer(keys, pts))
        if self._awards is not None:
            for extra in self._awards(layout=plan.layout, keys=all_keys):
                scores = [a + b for a, b in zip(scores, extra, strict=True)]
        if ender >= 0 and self._penalty is not None:
            penalty = self._penalty(layout=plan.layout, scores=tuple(scores), ender=ender)
            if penalty:
                scores[ender] += int(penalty)
        if self._score_round is None:
            return scores
        final = self._score_round(state=st, scores=scores)
        return [int(s) for s in final]

    def _end_round(self, st: GolfState, emit: Emit | None, ender: int) -> None:
        """Reveal everything, score the round, then deal the next one or end the match."""
        plan = st.plan
        zones = st.zones
        seen = zones.seen
        for z in plan.grid:
            seen[z] = [ALL] * len(seen[z])
        st.ender = ender
        scores = self.round_scores(st, ender)
        st.sheet.add_round(scores)
        st.last = (
            st.round,
            tuple(tuple(st.layout_of(seat)) for seat in range(st.players)),
            tuple(scores),
            ender,
        )
        if emit is not None:
            emit(LayoutsRevealed(st.round, st.last[1], None if ender < 0 else ender))
            emit(RoundScored(st.round, tuple(scores), tuple(st.sheet.totals)))
        options = st.options
        limit = options.get("points_limit")
        totals = st.sheet.totals
        rounds = match_rounds(options)
        if rounds is not None and st.round >= rounds:
            self._finish(st, "rounds")
        elif limit is not None and max(totals) >= limit:
            self._finish(st, "points-limit")
        else:
            self._next_round(st, emit)

    def _finish(self, st: GolfState, reason: str) -> None:
        st.phase = OVER
        st.legal = ()
        st.is_over = True
        st.to_act = ()
        st.result = Result(self.standings(st), self.scores(st), None, reason)

    def _next_round(self, st: GolfState, emit: Emit | None) -> None:
        """Gather every card, shuffle from the seed and deal with the deal passed left."""
        plan = st.plan
        cards = st.zones.cards
        seen = st.zones.seen
        stock = cards[plan.stock]
        for z in range(1, len(cards)):
            pile = cards[z]
            if pile:
                stock.extend(pile)
                pile.clear()
                seen[z].clear()
        seen[plan.stock] = [0] * len(stock)
        shuffle(stock, st.rng())
        st.round += 1
        st.dealer = (st.dealer + 1) % st.players
        if emit is not None:
            emit(Shuffled("stock", len(stock)))
        self._deal(st, emit)

    def scores(self, state: GameState) -> tuple[float, ...]:
        """The running totals per seat (GOLF-ROUND-1)."""
        return tuple(float(t) for t in _state(state).sheet.totals)

    def standings(self, state: GameState) -> tuple[int, ...]:
        """The seats with the lowest total (GOLF-GAME-2: ties share)."""
        totals = _state(state).sheet.totals
        low = min(totals)
        return tuple(s for s, t in enumerate(totals) if t == low)

    def resign(self, state: GameState, seat: int) -> None:
        """GOLF-GAME-4: the match ends; the lowest total among the others wins."""
        st = _state(state)
        totals = st.sheet.totals
        others = [s for s in range(st.players) if s != seat]
        low = min(totals[s] for s in others)
        st.phase = OVER
        st.legal = ()
        st.is_over = True
        st.to_act = ()
        winners = tuple(s for s in others if totals[s] == low)
        st.result = Result(winners, self.scores(st), None, "resigned")

    def end_match(self, state: GameState) -> None:
        """GOLF-GAME-3: the match ends now; the unfinished round is not scored."""
        st = _state(state)
        st.phase = OVER
        st.legal = ()
        super().end_match(st)

    # -- notation and errors ----------------------------------------------------------------------

    def parse_action(self, state: GameState, seat: int, text: str) -> Action:
        """Read GOLF-NOTE-1 notation; raise :class:`NotationError` for malformed text."""
        st = _state(state)
        words = text.lower().split()
        cls = VERBS.get(words[0]) if words else None
        if cls is None or len(words) > 2:
            msg = f"not a golf action: {text!r} (expected draw, take, replace N, discard, flip N, peek N or knock) (GOLF-NOTE-1)"
            raise NotationError(msg)
        plan = st.plan
        if cls in _WITH_POS:
            if len(words) != 2 or not words[1].isdigit():
                msg = f"{words[0]!r} needs a position number: {text!r} (GOLF-NOTE-1)"
                raise NotationError(msg)
            pos = int(words[1])
            table = {Replace: plan.replace_act, Flip: plan.flip_act, Peek: plan.peek_act}[cls]
            if pos < plan.layout.size:
                return table[seat][pos]
            return cls(seat, pos)
        if len(words) != 1:
            msg = f"{words[0]!r} takes no argument: {text!r} (GOLF-NOTE-1)"
            raise NotationError(msg)
        single = {
            Draw: plan.draw_act,
            Take: plan.take_act,
            Discard: plan.discard_act,
            Knock: plan.knock_act,
        }
        return single[cls][seat]

    def rule_for(self, state: GameState, action: Action) -> tuple[str, str]:
        """Cite the rule that forbids *action* now."""
        st = _state(state)
        plan = st.plan
        seat = action.seat
        text = str(action)
        phase = st.phase
        pos = getattr(action, "pos", None)
        if pos is not None and not 0 <= pos < plan.layout.size:
            return (
                "GOLF-TURN-4",
                f"seat {seat} has no position {pos} in {plan.layout.name}: {text!r}",
            )
        if self._veto is not None and isinstance(action, GolfAction):
            for veto in self._veto(state=st, action=action):
                return veto.rule_id, f"{text!r} is forbidden: {veto.reason}"
        if isinstance(action, Knock):
            if plan.trigger:
                return "GOLF6-KNOCK-1", f"there is no knocking in {plan.layout.name}: {text!r}"
            if st.ender >= 0:
                return "GOLF4-KNOCK-2", f"seat {st.ender} has already knocked: {text!r}"
            return "GOLF4-KNOCK-1", f"seat {seat} may knock only instead of drawing: {text!r}"
        if isinstance(action, Flip | Peek):
            if phase != SETUP:
                if isinstance(action, Peek):
                    return "GOLF4-TURN-3", f"no peeking after the start: {text!r}"
                return "GOLF-DEAL-4", f"cards are turned up only in the setup phase: {text!r}"
            if isinstance(action, Flip) != (plan.layout.setup == "flip"):
                rid = "GOLF4-SETUP-2" if plan.layout.setup == "peek" else "GOLF6-SETUP-2"
                return (
                    rid,
                    f"{plan.layout.name} setup uses {plan.layout.setup or 'nothing'}: {text!r}",
                )
            if isinstance(action, Flip):
                return "GOLF6-SETUP-2", f"position {pos} is already face up: {text!r}"
            return "GOLF4-SETUP-2", f"position {pos} was already looked at: {text!r}"
        if phase == SETUP:
            return (
                "GOLF-DEAL-4",
                f"seat {seat} must finish the initial {plan.layout.setup}s first: {text!r}",
            )
        if isinstance(action, Draw | Take):
            return (
                "GOLF-TURN-2",
                f"seat {seat} already holds a card and must place or discard it: {text!r}",
            )
        if isinstance(action, Discard):
            if phase == TAKEN:
                return (
                    "GOLF-TURN-3",
                    f"a card taken from the discard pile must replace a layout card: {text!r}",
                )
            return "GOLF-TURN-1", f"seat {seat} must draw before discarding: {text!r}"
        if isinstance(action, Replace):
            if phase == DRAW_PHASE:
                return "GOLF-TURN-1", f"seat {seat} must draw or take a card first: {text!r}"
            return (
                "GOLF-TURN-2",
                f"position {pos} holds no card to replace (it was removed): {text!r}",
            )
        return super().rule_for(state, action)

    # -- views ------------------------------------------------------------------------------------

    def table(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """The Golf table as *seat* may know it (GOLF-VIEW-1); hidden cards are ``None``.

        Keys: ``layout``, ``rows``, ``cols``, ``round``, ``dealer``, ``turn``, ``phase``,
        ``grids`` (per seat, row-major; ``"--"`` = removed position), ``stock`` (count),
        ``discard`` (top card), ``discards`` (count), ``held`` (``{"seat", "card"}`` or
        ``None``), ``ender``, ``final_turns_left``, ``totals``, ``rounds`` (scores of past
        rounds) and ``last_round`` (the previous round revealed, or ``None``).
        """
        st = _state(state)
        plan = st.plan
        zones = st.zones
        cards = zones.cards
        seen = zones.seen
        bit = 0 if seat is None else 1 << seat
        hand = plan.layout.hand

        grids: list[list[str | None]] = []
        for owner, z in enumerate(plan.grid):
            pile = cards[z]
            masks = seen[z]
            own = hand and seat == owner
            row: list[str | None] = []
            for pos in range(plan.layout.size):
                i = st.index(owner, pos)
                if i < 0:
                    row.append("--")
                    continue
                mask = masks[i]
                row.append(str(pile[i]) if own or mask == ALL or mask & bit else None)
            grids.append(row)
        held = None
        hz = plan.held[0]
        if cards[hz] and not st.is_over:
            mask = seen[hz][-1]
            visible = mask == ALL or bool(mask & bit)
            held = {"seat": st.turn, "card": str(cards[hz][-1]) if visible else None}
        discard = cards[plan.discard]
        return {
            "layout": plan.layout.key,
            "rows": plan.layout.rows,
            "cols": plan.layout.cols,
            "round": st.round,
            "dealer": st.dealer,
            "turn": None if st.is_over else st.turn,
            "phase": PHASE_NAMES[st.phase],
            "grids": grids,
            "stock": len(cards[plan.stock]),
            "discard": str(discard[-1]) if discard else None,
            "discards": len(discard),
            "held": held,
            "ender": None if st.ender < 0 else st.ender,
            "final_turns_left": None if st.final_left < 0 else st.final_left,
            "totals": list(st.sheet.totals),
            "rounds": [list(r) for r in st.sheet.rounds],
            "last_round": _last_round(st.last),
        }


def _last_round(last: tuple[int, Any, tuple[int, ...], int] | None) -> dict[str, Any] | None:
    if last is None:
        return None
    number, grids, scores, ender = last
    return {
        "round": number,
        "grids": [["--" if c is None else str(c) for c in row] for row in grids],
        "scores": list(scores),
        "ender": None if ender < 0 else ender,
    }
