"""The Golf rules engine: :class:`GolfLogic` (one per configuration, no per-game state).

Hot path: ``legal_actions`` returns interned tuples from the
:class:`~cardcore_golf.state.RoundPlan` and ``apply`` dispatches on the action's class; no
pluggy call happens per decision. House rules act through hooks resolved in ``__init__`` (and
per layout, once, in :meth:`GolfLogic.plan`); the core applies ``forbid_action`` vetoes and
calls ``score_round`` through :meth:`~cardcore.GameLogic.score_round`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from cardcore import (
    ALL,
    CardDiscarded,
    CardDrawn,
    CardRevealed,
    CardsDealt,
    Emit,
    GameLogic,
    PluginError,
    RoundScored,
    ScoreTable,
    Shuffled,
    shuffle,
)
from cardcore.dealing import fill_stock, rebuild_stock
from cardcore.turns import end_game, winners_by
from cardcore_golf import encoding, grids, position, search, timeouts, views
from cardcore_golf.actions import (
    Discard,
    Draw,
    Flip,
    GolfAction,
    Knock,
    Peek,
    Replace,
    Take,
    explain,
    parse_on,
)
from cardcore_golf.events import (
    GRID_ZONES,
    TURN_PASSED,
    CardPlaced,
    GroupRemoved,
    Knocked,
    LayoutCompleted,
    LayoutsRevealed,
    new_event,
)
from cardcore_golf.grids import LAYOUTS, layout_for, match_rounds, shape_of
from cardcore_golf.state import (
    DISCARD,
    DRAW_PHASE,
    HELD,
    OVER,
    PHASE_WORDS,
    PLACE,
    SETUP,
    STOCK,
    TAKEN,
    GolfState,
    PastRound,
    RoundPlan,
)

if TYPE_CHECKING:
    from cardcore import Card, Ruleset

__all__ = ["PLAN_CACHE", "GolfLogic"]

PLAN_CACHE = 64
"""How many round plans (per player count and options) one configuration remembers."""


class GolfLogic(GameLogic[GolfState, GolfAction]):
    """Golf for one configuration (game + house rules); every layout and player count.

    :param ruleset: The configuration; Golf's hooks and ``card_points`` are resolved here, once.
    """

    rl_encoding = encoding.GolfEncoding  # cardcore.rl's fixed action indices and observation

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        resolve = ruleset.resolve
        self._table_hook = self._required("golf_score_table")
        self._scorer_hook = self._required("golf_scorer")
        self._final_hook = self._required("golf_final_turns")
        self._groups_hook = resolve("golf_removable_groups")
        self._card_points = resolve("card_points")
        self._awards = resolve("golf_round_awards")
        self._penalty = resolve("golf_ender_penalty")
        self._ties_pay = self._required("golf_ender_ties_pay")
        self._plans: dict[tuple[int, Any], RoundPlan] = {}
        self._last: tuple[object, int, RoundPlan] | None = None

    def _required(self, name: str) -> Callable[..., Any]:
        hook = self.ruleset.resolve(name)
        if hook is None:
            msg = f"no plugin of golf answers {name}"
            raise PluginError(msg, plugin=self.info.name)
        return hook

    # -- configuration -------------------------------------------------------------------------

    def plan(self, players: int, options: Mapping[str, Any]) -> RoundPlan:
        """Return the cached :class:`RoundPlan` for *players* and the resolved *options*.

        Its card points cover the deck of :meth:`~cardcore.GameLogic.deck` (the core's cached
        ``build_deck``) for the same players and options; at most :data:`PLAN_CACHE` are kept."""
        last = self._last
        if last is not None and last[0] is options and last[1] == players:  # resolved, shared
            return last[2]
        key = (players, tuple(options.items()))
        plan = self._plans.get(key)
        if plan is None:
            layout = shape_of(options)
            asked = {"layout": layout}  # the other hooks' arguments: blame the rule that answered
            table = self._table_hook(layout=layout, options=options)
            if not isinstance(table, ScoreTable):
                why = {**asked, "options": options}  # this hook's arguments: blame its answerer
                raise self.refused_answer("golf_score_table", table, "a ScoreTable", asked=why)
            deck = self.deck(players, options)
            points = grids.card_points(self, table, deck, self._card_points, layout, options)
            answers = [] if self._groups_hook is None else self._groups_hook(layout=layout)
            groups = grids.groups_of(answers, layout.size)
            if groups is None:  # the first bad answer of the list, so its rule is blamed
                bad = next(a for a in answers if grids.groups_of([a], layout.size) is None)
                wanted = "groups of positions"
                raise self.refused_answer("golf_removable_groups", bad, wanted, asked=asked)
            scorer = self._scorer_hook(layout=layout)
            if not callable(scorer):
                wanted = "a function of (keys, points)"
                raise self.refused_answer("golf_scorer", scorer, wanted, asked=asked)
            final = self.checked_answer("golf_final_turns", self._final_hook(**asked), bool, asked)
            plan = RoundPlan(
                layout,
                players,
                table=table,
                points=points,
                scorer=scorer,
                final_turns=final,
                groups=tuple(groups),
                max_turns=options.get("max_turns"),
                rounds=match_rounds(options),
                points_limit=options.get("points_limit"),
            )
            if len(self._plans) >= PLAN_CACHE:  # many distinct options: drop the oldest
                del self._plans[next(iter(self._plans))]
            self._plans[key] = plan
        if type(options) is MappingProxyType:  # read-only: safe to know again by identity
            self._last = (options, players, plan)
        return plan

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        """Check the seats (GOLF-GEN-1/3), the layout, the dealer (GOLF-DEAL-3), the deck's size."""
        super().validate(players, options)
        cells = shape_of(options).size * players
        grids.check_dealer(options.get("dealer"), players)
        self.require_cards(players, options, cells + 1)  # every grid and the upcard (GOLF-DEAL-1/2)

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
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> GolfState:
        """Deal round 1 from *cards* (bottom to top) and open the setup phase (GOLF-DEAL-1..4)."""
        plan = self.plan(players, options)
        state = GolfState(players, options, plan)
        state.seed = seed
        dealer = options.get("dealer")
        if dealer == "random":
            state.dealer = state.rng().randrange(players)
        elif dealer is not None:
            state.dealer = int(dealer)
        fill_stock(state, plan.stock, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: GolfState, emit: Emit | None) -> None:
        """Deal from the stock: one card at a time from left of the dealer, then the upcard."""
        plan = state.plan
        cards = state.zones.cards
        seen = state.zones.seen
        stock = cards[STOCK]
        first = plan.next_seat[state.dealer]
        size = plan.layout.size
        for z, cut, mask in plan.deal_plan[first]:  # one card at a time from the top
            cards[z] = stock[cut]
            seen[z] = [mask] * size
        n = size * state.players
        del stock[-n:]
        cards[DISCARD].append(stock.pop())
        del seen[STOCK][-n - 1 :]  # the dealt cards and the upcard (all unseen)
        seen[DISCARD].append(ALL)
        state.slots = plan.no_slots
        state.down = [size] * state.players
        state.ender = state.final_left = -1
        state.turns = 0
        state.turn = first
        state.to_act = plan.to_act[first]
        if plan.layout.initial:
            state.phase = SETUP
            state.setup_left = plan.layout.initial
            state.setup_done = 0
            state.legal = plan.setup_legal(first, 0)
        else:
            state.phase = DRAW_PHASE
            state.setup_left = 0
            state.legal = plan.legal_start[first]
        if emit is not None:
            emit(CardsDealt(tuple([size] * state.players)))
            emit(CardRevealed(None, "discard", 0, cards[DISCARD][-1]))  # the upcard
            emit(TURN_PASSED[first])

    # -- play ------------------------------------------------------------------------------------

    def legal_actions(self, state: GolfState, seat: int) -> tuple[GolfAction, ...]:
        """Return *seat*'s legal actions in this order.

        Setup: ``flip``/``peek`` of each eligible position, ascending. Start of a turn:
        ``draw``, ``take``, then ``knock`` where allowed. Holding a card: ``replace`` of each
        position ascending, then ``discard`` (not after ``take``).
        """
        if seat != state.turn or state.is_over:
            return ()
        acts = state.legal
        return acts if acts is not None else state.compute_legal(seat)

    def is_legal(self, state: GolfState, action: GolfAction) -> bool:
        """Whether *action* is one of ``legal_actions(state, action.seat)``: identity first."""
        seat = action.seat
        if seat != state.turn or state.is_over:
            return False
        acts = state.legal
        if acts is None:
            acts = state.compute_legal(seat)
        for legal in acts:  # the interned actions
            if legal is action:
                return True
        return action in acts

    def apply(self, state: GolfState, action: GolfAction, emit: Emit | None) -> None:
        """Apply a legal Golf *action* (see :mod:`cardcore_golf.actions`)."""
        st = state
        cls = type(action)
        seat = action.seat
        zones = st.zones
        cards = zones.cards
        seen = zones.seen
        if cls is Draw:
            stock = cards[STOCK]
            if not stock:  # GOLF-STOCK-1: reshuffle all discards but the top, or end the round
                if not rebuild_stock(st, STOCK, DISCARD):
                    self._end_round(st, emit, ender=-1)
                    return
                stock = cards[STOCK]
                if emit is not None:
                    emit(Shuffled("stock", len(stock)))
            cards[HELD].append(stock.pop())
            del seen[STOCK][-1]
            seen[HELD].append(1 << seat)
            st.phase = PLACE
            st.legal = st.plan.legal_place[seat] if st.slots[seat] is None else None
            if emit is not None:
                emit(new_event(CardDrawn, (seat, "stock", cards[HELD][-1], 1 << seat)))
            return
        if cls is Take:
            cards[HELD].append(cards[DISCARD].pop())
            del seen[DISCARD][-1]
            seen[HELD].append(ALL)
            st.phase = TAKEN
            st.legal = st.plan.legal_taken[seat] if st.slots[seat] is None else None
            if emit is not None:
                emit(new_event(CardDrawn, (seat, "discard", cards[HELD][-1], ALL)))
            return
        plan = st.plan
        if type(action) is Replace:  # (not cls: narrows the type for mypy)
            pos = action.pos
            gz = seat + 3  # the seat's grid zone (see cardcore_golf.state)
            slots = st.slots[seat]
            i = pos if slots is None else slots[pos]
            grid = cards[gz]
            old = grid[i]
            grid[i] = cards[HELD].pop()
            cards[DISCARD].append(old)
            seen[DISCARD].append(ALL)
            masks = seen[gz]
            if plan.face_up_grid:
                del seen[HELD][-1]
                if masks[i] != ALL:
                    masks[i] = ALL
                    st.down[seat] -= 1
            else:
                masks[i] = seen[HELD].pop()
            if emit is not None:
                emit(new_event(CardPlaced, (seat, pos, grid[i], masks[i])))
                emit(new_event(CardDiscarded, (seat, old)))
            if plan.groups:
                self._remove_groups(st, seat, pos, emit)
        elif cls is Discard:
            card = cards[HELD].pop()
            del seen[HELD][-1]
            cards[DISCARD].append(card)
            seen[DISCARD].append(ALL)
            if emit is not None:
                emit(new_event(CardDiscarded, (seat, card)))
        elif type(action) is Flip:  # setup, not a turn (GOLF6-SETUP-2)
            pos = action.pos
            slots = st.slots[seat]
            i = pos if slots is None else slots[pos]
            seen[seat + 3][i] = ALL
            st.down[seat] -= 1
            if emit is not None:
                emit(
                    new_event(CardRevealed, (seat, GRID_ZONES[seat], pos, cards[seat + 3][i], ALL))
                )
            if plan.groups:
                self._remove_groups(st, seat, pos, emit)
            done = st.setup_done = st.setup_done | 1 << pos
            left = st.setup_left = st.setup_left - 1
            if left:  # the same seat flips again
                acts = plan.setup_table[seat][done]
                st.legal = acts if acts is not None else plan.setup_legal(seat, done)
            else:
                self._setup_passed(st, seat, emit)
            return
        else:
            self._apply_other(st, action, emit)
            return
        # the end of a turn (replace or discard): pass at once unless the round may end
        if st.final_left < 0 and plan.simple_end and (st.down[seat] or not plan.trigger):
            st.turn, st.to_act, st.legal = plan.pass_to[seat]
            st.phase = DRAW_PHASE
            if emit is not None:
                emit(TURN_PASSED[st.turn])
        else:
            st.turns += 1  # counted where the round may end (every turn under max_turns)
            self._end_turn(st, seat, emit)

    def _apply_other(self, st: GolfState, action: GolfAction, emit: Emit | None) -> None:
        """Apply a ``peek`` (setup) or a ``knock``."""
        seat = action.seat
        plan = st.plan
        cards = st.zones.cards
        seen = st.zones.seen
        gz = plan.grid[seat]
        if type(action) is Peek:  # GOLF4-SETUP-2
            pos = action.pos
            if seen[gz][pos] != ALL:
                seen[gz][pos] |= 1 << seat
            if emit is not None:
                emit(
                    new_event(
                        CardRevealed, (seat, GRID_ZONES[seat], pos, cards[gz][pos], 1 << seat)
                    )
                )
            st.setup_done |= 1 << pos
            st.setup_left -= 1
            if st.setup_left:
                st.legal = plan.setup_legal(seat, st.setup_done)
            else:
                self._setup_passed(st, seat, emit)
        elif type(action) is Knock:
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

    @staticmethod
    def _remove_groups(st: GolfState, seat: int, pos: int, emit: Emit | None) -> None:
        """GOLF-TURN-4 with a removing house rule: take complete cancelled groups away."""
        removed = st.remove_groups(seat, pos)
        if removed is not None and emit is not None:
            emit(GroupRemoved(seat, *removed))

    def _setup_passed(self, st: GolfState, seat: int, emit: Emit | None) -> None:
        """*seat* made its last setup action: the next seat sets up, or the first turn."""
        plan = st.plan
        nxt = plan.next_seat[seat]
        st.turn = nxt
        st.to_act = plan.to_act[nxt]
        st.setup_done = 0
        if nxt == plan.next_seat[st.dealer]:
            st.phase = DRAW_PHASE
            st.legal = plan.legal_start[nxt]
        else:
            st.setup_left = plan.layout.initial
            st.legal = plan.setup_legal(nxt, 0)
        if emit is not None:
            emit(TURN_PASSED[nxt])

    def _pass_turn(self, st: GolfState, seat: int, emit: Emit | None) -> None:
        nxt = (seat + 1) % st.players
        st.turn = nxt
        st.to_act = st.plan.to_act[nxt]
        st.phase = DRAW_PHASE
        st.legal = st.plan.legal_start[nxt] if st.ender < 0 else st.plan.legal_draw[nxt]
        if emit is not None:
            emit(TURN_PASSED[nxt])

    def _end_turn(self, st: GolfState, seat: int, emit: Emit | None) -> None:
        """Finish *seat*'s turn (counted): final turns, the layout trigger, the cap, then pass."""
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

    # -- rounds, the match, notation, views and positions ----------------------------------------

    def round_scores(self, st: GolfState, ender: int) -> list[int]:
        """Return each seat's round score: cancelling, awards, the ender penalty, then the
        core's :meth:`~cardcore.GameLogic.score_round` (GOLF-ROUND-1, GOLF-PEN-4). Reads only."""
        plan = st.plan
        scores = None
        if plan.columns and self._awards is None and st.slots is plan.no_slots:
            scores = plan.column_scores(st.zones.cards)  # the default scorer, without lists
        if scores is None:
            scorer = plan.scorer
            all_keys: list[list[int | None]] = []
            scores = []
            for seat in range(st.players):
                keys, pts = st.keys_and_points(seat)
                all_keys.append(keys)
                scores.append(scorer(keys, pts))
            asked = {"layout": plan.layout, "keys": all_keys}  # blame the rule that answered
            for score in scores:  # a rule's scorer's answers: refused by the rule's name
                self.checked_answer("golf_scorer", score, int, asked)
            for extra in [] if self._awards is None else self._awards(**asked):
                if not grids.awards_ok(extra, st.players):
                    wanted = "one int per seat"
                    raise self.refused_answer("golf_round_awards", extra, wanted, asked=asked)
                scores = [a + b for a, b in zip(scores, extra, strict=True)]
        if ender >= 0 and self._penalty is not None:
            once = {"layout": plan.layout}  # the hooks' arguments: blame the rule that answered
            ties = self.checked_answer("golf_ender_ties_pay", self._ties_pay(**once), bool, once)
            pays = grids.ender_pays(scores, ender, ties)
            asked = {**once, "scores": tuple(scores), "ender": ender, "pays": pays}
            penalty = self._penalty(**asked)
            if penalty is not None:  # read as an int first: never the answer's own __bool__
                scores[ender] += self.checked_answer("golf_ender_penalty", penalty, int, asked)
        return list(self.score_round(st, scores))

    def _end_round(self, st: GolfState, emit: Emit | None, ender: int) -> None:
        """Reveal everything, score the round, then deal the next one or end the match."""
        plan = st.plan
        seen = st.zones.seen
        for z in plan.grid:
            seen[z] = [ALL] * len(seen[z])
        st.ender = ender
        scores = self.round_scores(st, ender)
        st.sheet.add_round(scores)
        totals = st.sheet.totals
        if st.slots is not plan.no_slots:  # positions removed
            grids = tuple([tuple(st.layout_of(seat)) for seat in range(st.players)])
        else:  # each grid pile is the layout
            grids = tuple(map(tuple, map(st.zones.cards.__getitem__, plan.grid)))
        past = PastRound(
            st.round, grids, tuple(scores), tuple(totals), None if ender < 0 else ender
        )
        st.past = (*st.past, past)
        if emit is not None:
            emit(LayoutsRevealed(past.round, past.grids, past.ender))
            emit(RoundScored(past.round, past.scores, past.totals))
        if plan.rounds is not None and st.round >= plan.rounds:
            self._finish(st, "rounds")
        elif plan.points_limit is not None and max(totals) >= plan.points_limit:
            self._finish(st, "points-limit")
        else:
            self._next_round(st, emit)

    def _finish(self, st: GolfState, reason: str) -> None:
        st.phase, st.legal = OVER, ()
        end_game(st, self.standings(st), self.scores(st), reason, reveal=False)

    def _next_round(self, st: GolfState, emit: Emit | None) -> None:
        """Gather every card, shuffle from the seed and deal with the deal passed left."""
        zones = st.zones
        cards = zones.cards
        # every pile onto the stock in zone order (stock, discard, held, grids); the deal
        # replaces each grid pile, so only the discard pile and the held card need new lists
        stock = cards[STOCK]
        for z in st.plan.gather:
            stock += cards[z]
        cards[DISCARD] = []
        cards[HELD] = []
        seen = zones.seen
        seen[STOCK] = [0] * len(stock)
        seen[DISCARD] = []
        seen[HELD] = []
        shuffle(stock, st.rng())
        st.round += 1
        st.dealer = (st.dealer + 1) % st.players
        if emit is not None:
            emit(Shuffled("stock", len(stock)))
        self._deal(st, emit)

    def scores(self, state: GolfState) -> tuple[float, ...]:
        """The running totals per seat (GOLF-ROUND-1)."""
        return tuple(float(t) for t in state.sheet.totals)

    def standings(self, state: GolfState) -> tuple[int, ...]:
        """The seats with the lowest total (GOLF-GAME-2: ties share)."""
        return winners_by(state.sheet.totals)

    def resign(self, state: GolfState, seat: int) -> None:
        """GOLF-GAME-4: the match ends; the lowest total among the others wins."""
        totals = state.sheet.totals
        others = [s for s in range(state.players) if s != seat]
        state.phase, state.legal = OVER, ()
        winners = [s for s in others if totals[s] == min(totals[o] for o in others)]
        end_game(state, winners, self.scores(state), "resigned", reveal=False)

    def end_match(self, state: GolfState) -> None:
        """GOLF-GAME-3: the match ends now; the unfinished round is not scored."""
        state.phase, state.legal = OVER, ()
        super().end_match(state)

    def default_action(self, state: GolfState, seat: int) -> GolfAction | None:
        """On a timeout: flip, draw, then discard (see :mod:`cardcore_golf.timeouts`)."""
        return timeouts.timeout_for(self, state, seat)

    def parse_action(self, state: GolfState, seat: int, text: str) -> GolfAction:
        """Read GOLF-NOTE-1 notation; raise :class:`~cardcore.NotationError` for malformed text."""
        by_text = state.plan.by_text  # canonical text of a seat: one look-up, no call
        found = by_text[seat].get(text) if type(seat) is int and 0 <= seat < len(by_text) else None
        return found if found is not None else parse_on(state.plan, seat, text)

    def rule_for(self, state: GolfState, action: GolfAction) -> tuple[str, str]:
        """Cite the rule that forbids *action* now (see :func:`~cardcore_golf.actions.explain`)."""
        slots = state.slots[action.seat] if 0 <= action.seat < state.players else None
        return explain(
            action, PHASE_WORDS[state.phase], state.plan.layout, state.ender, self.ruleset, slots
        )

    def table(self, state: GolfState, seat: int | None) -> dict[str, Any]:
        """The Golf table as *seat* may know it (GOLF-VIEW-1); see :mod:`cardcore_golf.views`."""
        return views.table(state, seat)

    def history(self, state: GolfState, seat: int | None, since: int) -> list[dict[str, Any]]:
        """The finished rounds from number *since* (from 0), revealed: public to every seat."""
        return views.history(state, since)

    def write_position(self, state: GolfState) -> str:
        """Write *state* in Golf's position notation (see :mod:`cardcore_golf.position`)."""
        return position.write(state)

    def read_position(self, text: str, players: int, options: Mapping[str, Any]) -> GolfState:
        """Read a Golf position, validated (:mod:`cardcore_golf.position`); OptionError if not."""
        plan, deck = self.plan(players, options), self.deck(players, options)
        state = position.read(text, plan, deck, options, match_rounds(options), self.ruleset.veto)
        state.legal = state.compute_legal(state.turn)
        return state

    position_from_view = search.position_from_view  # the search hooks: cardcore_golf.search
    utility = search.utility
    rollout_action = search.rollout_action
    rounds_played = search.rounds_played
