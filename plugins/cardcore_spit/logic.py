"""Spit's rules engine: :class:`SpitLogic`.

Real time: no turns. ``to_act`` holds every seat that may act: both seats in
play, the seats not yet ready in the setup phase, the claimants at the end of a
two-pile deal. Every automatic step (turning up uncovered cards, spits when
nobody can progress, recycles, void deals, re-laying after a deal) happens
inside :meth:`SpitLogic.apply`; none of them is a seat's action, so house-rule
vetoes (which the core applies to ``legal_actions``) never touch them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from typing_extensions import override

from cardcore import (
    ALL,
    Card,
    CardMoved,
    CardRevealed,
    CardsDealt,
    Emit,
    GameLogic,
    NotationError,
    Result,
    Ruleset,
    Zones,
    shuffle,
    standard_52,
)
from cardcore_spit import (
    answers,
    encoding,
    events,
    legality,
    piles,
    position,
    search,
    timeouts,
    views,
)
from cardcore_spit.actions import (
    SIDES,
    Claim,
    Combine,
    Fill,
    Play,
    Ready,
    RequestSpit,
    SpitAction,
    SpitActionSet,
)
from cardcore_spit.legality import COMBINE_CODE, FILL_CODE, settled
from cardcore_spit.piles import PILES
from cardcore_spit.state import (
    CENTRE,
    CLAIM,
    LAY,
    NAMES,
    OVER,
    PLAY,
    SEATS,
    SETUP,
    SPIT,
    TABLE_LAYOUT,
    SpitState,
)

__all__ = ["ACTION_BOUND", "RANK_CACHE", "STALL_LIMIT", "SpitLogic"]

ACTION_BOUND = 20_000
"""The most actions a Spit game may take at a ``stall_limit`` of 11 or more (SPIT-CAP-1)."""
STALL_LIMIT = 20  # the option's default (SPIT-STUCK-3): below 11 the bound grows by 20 // limit
RANK_CACHE = 8192
"""How many layouts' top ranks each seat's move cache remembers before starting afresh."""

_Moves = tuple[Combine | Fill, ...]


class SpitLogic(GameLogic[SpitState, SpitAction]):
    """The rules engine of one Spit configuration (shared, stateless).

    Spit's own hooks are resolved and answered once here: the rank gaps
    (an adjacency table), the deal order per card count and the claim rule.

    :param ruleset: The configuration.
    :raises PluginError: A hook answered something the game cannot use.
    """

    rl_encoding = encoding.SpitEncoding  # cardcore.rl's fixed action indices and observation

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        gaps: set[int] = set()
        rank_gaps = ruleset.resolve("spit_rank_gaps")
        for answer in [] if rank_gaps is None else rank_gaps():
            if not isinstance(answer, list | tuple | set | frozenset) or not all(
                type(g) is int and 0 <= g <= 12 for g in answer
            ):  # a gap of 13 or -1 is not taken mod 13: it says something else than it means
                wanted = "a list of rank differences, ints from 0 to 12"
                raise self.refused_answer("spit_rank_gaps", answer, wanted)
            gaps.update(answer)
        self.gaps = frozenset(gaps)
        """The rank differences that make a play legal (SPIT-MOVE-2/3/4 and any house rule)."""
        self.adj = piles.adjacency_table(self.gaps)
        """``adj[card rank][pile rank]``: whether the play is allowed."""
        self.playable = tuple(sum(1 << r for r in range(14) if self.adj[r][t]) for t in range(14))
        """``playable[pile rank]``: bit ``r`` set for each card rank that may be played on it."""
        self.orders = answers.deal_orders(self)
        """``orders[n]``: the layout pile of each card a player with *n* cards lays out."""
        self.hidden_limit = piles.hidden_limits(self.orders)
        """Per layout pile, the most face-down cards any deal leaves in it (for positions)."""
        self._picks = tuple(piles.layout_picks(order) for order in self.orders)
        self.claim = answers.claim_rule(self)
        """How the spit piles are claimed when a two-pile deal ends."""
        self.layout = TABLE_LAYOUT
        self.lay = LAY
        self.spit = SPIT
        self.centre = CENTRE
        self.names = NAMES
        interned = self.interned = SpitActionSet(self.claim.word)
        """Every action of this configuration, built once, with their notation parser."""
        self.plays = interned.plays
        self.combines = interned.combines
        self.fills = interned.fills
        self.readies = interned.readies
        self.requests = interned.requests
        self.claims = interned.claims
        # the piles each interned play, combine and fill touches, by the action's identity
        # (legality.is_legal): (source zone, target zone, centre pile or move code)
        self.touches: dict[int, tuple[int, int, int]] = {}
        for s in SEATS:
            lay = self.lay[s]
            for k in range(PILES):
                for p in (0, 1):
                    self.touches[id(self.plays[s][k][p])] = (lay[k], CENTRE[p], p)
                for i in range(PILES):
                    if i != k:
                        self.touches[id(self.combines[s][k][i])] = (lay[k], lay[i], COMBINE_CODE)
                        self.touches[id(self.fills[s][k][i])] = (lay[k], lay[i], FILL_CODE)
        # the canonical notation of every action (what records hold), per seat: parse skips the words
        self._by_text = tuple({a.notation(): a for a in _seat_actions(interned, s)} for s in SEATS)
        # combines and fills by pattern of equal or empty tops, and by the tops' ranks
        self._move_cache: tuple[dict[tuple[int, ...], _Moves], ...] = ({}, {})
        self._rank_cache: tuple[dict[tuple[int, ...], _Moves], ...] = ({}, {})

    default_action = (
        timeouts.spit_default
    )  # on an idle timeout: ready, spit, claim the smaller pile

    # -- set-up -------------------------------------------------------------------------

    @override
    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        """Return the action bound (SPIT-CAP-1): a smaller ``stall_limit`` forces more spits,
        so random games run longer (a median of 8,600 actions at 1, against 1,250 at 20)."""
        return ACTION_BOUND * max(1, STALL_LIMIT // int(options["stall_limit"]))

    @override
    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        """The seats, and one standard deck: the piles are built for its 52 cards."""
        super().validate(players, options)
        self.require_deck(players, options, standard_52())

    @override
    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> SpitState:
        """Deal 26/26 alternately from the top (SPIT-SETUP-1) and lay out (SPIT-SETUP-7)."""
        state = SpitState(players, options, Zones(self.layout))
        state.seed = seed
        top_first = cards[::-1]
        self.lay_out(state, [top_first[0::2], top_first[1::2]], False, emit)
        return state

    # -- legality -----------------------------------------------------------------------

    @override
    def legal_actions(self, state: SpitState, seat: int) -> tuple[SpitAction, ...]:
        """Return *seat*'s legal actions.

        Order: plays (pile 1..5, each onto L then R), combines (source, then
        target, ascending), fills (likewise), then ``spit`` (play) or ``ready``
        (setup); at the end of a deal the claims (L, R).
        """
        if seat not in state.to_act:
            return ()
        phase = state.phase
        if phase == CLAIM:
            return self.claims[seat]
        cards = state.zones.cards
        tops = [cards[z][-1].rank if cards[z] else -1 for z in self.lay[seat]]
        out: list[SpitAction] = []
        if phase == PLAY:
            adj = self.adj
            plays = self.plays[seat]
            centre = self.centre
            active = SEATS if state.single < 0 else (state.single,)
            targets = [(p, cards[centre[p]][-1].rank) for p in active if cards[centre[p]]]
            for k in range(PILES):
                t = tops[k]
                if t >= 0:
                    row = adj[t]
                    for p, target in targets:
                        if row[target]:
                            out.append(plays[k][p])
        out.extend(self._moves(seat, tops))
        if phase == PLAY:
            if not state.requests[seat]:
                out.append(self.requests[seat])
        else:
            out.append(self.readies[seat])
        return tuple(out)

    def _moves(self, seat: int, tops: list[int]) -> _Moves:
        """Return the combines and fills for these top ranks (-1: empty), cached by the ranks
        (up to :data:`RANK_CACHE`) and by their pattern of equal or empty tops (6**5 at most)."""
        raw = tuple(tops)
        by_ranks = self._rank_cache[seat]
        found = by_ranks.get(raw)
        if found is not None:
            return found
        first: dict[int, int] = {}
        key = tuple([-1 if t < 0 else first.setdefault(t, k) for k, t in enumerate(tops)])
        cache = self._move_cache[seat]
        found = cache.get(key)
        if found is None:
            combines = self.combines[seat]
            fills = self.fills[seat]
            moves: list[Combine | Fill] = []
            for j in range(PILES):
                if key[j] >= 0:
                    moves.extend(
                        combines[j][i] for i in range(PILES) if i != j and key[i] == key[j]
                    )
            for j in range(PILES):
                if key[j] >= 0:
                    moves.extend(fills[j][i] for i in range(PILES) if key[i] < 0)
            found = cache[key] = tuple(moves)
        if len(by_ranks) >= RANK_CACHE:
            by_ranks.clear()
        by_ranks[raw] = found
        return found

    is_legal = legality.is_legal  # the fast path of apply and replay: cardcore_spit.legality
    rule_for = legality.rule_for
    waiting_rule = legality.waiting_rule

    # -- notation -------------------------------------------------------------------------

    @override
    def parse_action(self, state: SpitState, seat: int, text: str) -> SpitAction:
        """Read SPIT-NOTE-1 notation; raise :class:`~cardcore.NotationError` when malformed.

        Well-formed but illegal text parses (to the interned action); the core
        then rejects it, citing the rule or the house-rule veto.
        """
        if seat == 0 or seat == 1:
            found = self._by_text[seat].get(text)
            if found is not None:
                return found
        return self.interned.parse(seat, text)

    # -- applying -------------------------------------------------------------------------

    @override
    def apply(self, state: SpitState, action: SpitAction, emit: Emit | None) -> None:
        """Apply a legal *action* and every automatic step it triggers."""
        seat = action.seat
        if type(action) is Play:
            # zones.move inlined: a card reaching a spit pile is face up (ALL)
            lay = self.lay[seat]
            src = lay[action.pile]
            dst = CENTRE[action.target]
            zones = state.zones
            cards = zones.cards
            pile = cards[src]
            seen = zones.seen[src]
            card = pile.pop()
            seen.pop()
            cards[dst].append(card)
            zones.seen[dst].append(ALL)
            if seat:  # the seat's layout changed: forget its summary (legality.summary)
                state.summary1 = -1
            else:
                state.summary0 = -1
            if emit is not None:
                emit(CardMoved(seat, NAMES[src], NAMES[dst], card))
            if seen and seen[-1] != ALL:  # SPIT-MOVE-7: turn up the new top
                seen[-1] = ALL
                if emit is not None:
                    emit(CardRevealed(seat, NAMES[src], len(seen) - 1, pile[-1]))
            state.stall = 0
            requests = state.requests
            requests[0] = requests[1] = False
            state.recycled = False
            if not pile:
                for z in lay:
                    if cards[z]:
                        break
                else:
                    self._end_deal(state, seat, emit)
                    return
            if not settled(self, state):
                self._settle(state, emit)
        elif type(action) is Combine or type(action) is Fill:
            # zones.move inlined: a layout pile keeps the card's mask (NOBODY)
            lay = self.lay[seat]
            src = lay[action.src]
            dst = lay[action.dst]
            zones = state.zones
            cards = zones.cards
            pile = cards[src]
            seen = zones.seen[src]
            card = pile.pop()
            cards[dst].append(card)
            zones.seen[dst].append(seen.pop())
            if seat:
                state.summary1 = -1
            else:
                state.summary0 = -1
            if emit is not None:
                emit(CardMoved(seat, NAMES[src], NAMES[dst], card))
            uncovered = False
            if seen and seen[-1] != ALL:  # SPIT-MOVE-7
                seen[-1] = ALL
                uncovered = True
                if emit is not None:
                    emit(CardRevealed(seat, NAMES[src], len(seen) - 1, pile[-1]))
            if state.phase == PLAY:
                state.stall = 0 if uncovered else state.stall + 1
                if not settled(self, state):
                    self._settle(state, emit)
        elif type(action) is RequestSpit:
            state.requests[seat] = True
            state.stall += 1
            self._settle(state, emit)
        elif type(action) is Ready:
            state.ready[seat] = True
            if all(state.ready):
                self._start_play(state, emit)
            else:
                state.to_act = tuple(s for s in SEATS if not state.ready[s])
        elif type(action) is Claim:
            self._claim(state, action, emit)
        else:  # pragma: no cover - the core passes legal actions only
            msg = f"not a spit action: {action!r}"
            raise NotationError(msg)

    def _settle(self, state: SpitState, emit: Emit | None) -> None:
        """Spit while SPIT-STUCK-3 calls for it, then set who may act."""
        while state.phase == PLAY and not settled(self, state):
            self._spit(state, emit)

    # SPIT-STUCK-3's progress checks, from per-seat layout summaries cached in the state
    can_progress = legality.can_progress
    spit_due = legality.spit_due
    set_to_act = legality.set_to_act
    _has_move = legality.has_move

    def _spit(self, state: SpitState, emit: Emit | None) -> None:
        """Every player with spit cards spits onto its home pile (SPIT-STUCK-1/2/4/5/6)."""
        zones = state.zones
        cards = zones.cards
        spitters = [s for s in SEATS if cards[SPIT[s]]]
        if not spitters:
            if state.recycled:
                self._void(state, emit)
                return
            counts = [0, 0]
            for p in state.active():
                z = self.centre[p]
                pile = cards[z]
                if len(pile) > 1:
                    under = pile[:-1]
                    cards[z] = pile[-1:]
                    zones.seen[z] = [ALL]
                    shuffle(under, state.rng())
                    cards[self.spit[p]] = under
                    zones.seen[self.spit[p]] = [0] * len(under)
                    counts[p] = len(under)
            if not any(counts):
                self._void(state, emit)
                return
            state.recycled = True
            if emit is not None:
                emit(events.CentreRecycled(tuple(counts)))
            spitters = [s for s in SEATS if cards[SPIT[s]]]
        seen = zones.seen
        for s in spitters:
            home = s if state.single < 0 else state.single
            # zones.move inlined: a spit card lands face up (ALL) on a spit pile
            card = cards[SPIT[s]].pop()
            seen[SPIT[s]].pop()
            cards[CENTRE[home]].append(card)
            seen[CENTRE[home]].append(ALL)
            if emit is not None:
                emit(events.CardSpat(s, card, SIDES[home]))
        state.requests[0] = state.requests[1] = False
        state.stall = 0

    def _gather(self, state: SpitState, seat: int) -> list[Card]:
        """Take *seat*'s layout and spit cards off the table."""
        zones = state.zones
        out: list[Card] = []
        for z in (*self.lay[seat], self.spit[seat]):
            out.extend(zones.cards[z])
            zones.cards[z] = []
            zones.seen[z] = []
        return out

    def _take(self, state: SpitState, pile: int) -> list[Card]:
        zones = state.zones
        z = self.centre[pile]
        out = zones.cards[z]
        zones.cards[z] = []
        zones.seen[z] = []
        return out

    def _void(self, state: SpitState, emit: Emit | None) -> None:
        """SPIT-STUCK-6: every player takes back its own cards and lays out again."""
        if emit is not None:
            emit(events.DealVoided(state.deal))
        hands = [self._gather(state, s) + self._take(state, s) for s in SEATS]
        self.lay_out(state, hands, True, emit)

    def _end_deal(self, state: SpitState, emptier: int, emit: Emit | None) -> None:
        """SPIT-END-1: the deal ends the moment *emptier*'s layout is empty."""
        if emit is not None:
            emit(events.DealEnded(state.deal, emptier))
        state.emptier = emptier
        if state.single < 0:
            state.phase = CLAIM
            state.to_act = self.claimants(state)
            return
        # SPIT-END-6: the emptier takes nothing, the other takes the spit pile
        other = 1 - emptier
        hands = [self._gather(state, s) for s in SEATS]
        hands[other] += self._take(state, state.single)
        self._next_deal(state, hands, emit)

    def claimants(self, state: SpitState) -> tuple[int, ...]:
        """The seats that may claim a spit pile now (SPIT-END-2, or the emptier alone)."""
        return (state.emptier,) if self.claim.emptier_only else SEATS

    def _claim(self, state: SpitState, action: Claim, emit: Emit | None) -> None:
        """SPIT-END-2/4: the claimer takes the claimed pile, the other the other pile."""
        seat = action.seat
        pile = action.target
        if emit is not None:
            count = len(state.zones.cards[self.centre[pile]])
            emit(events.PileClaimed(seat, SIDES[pile], count, action.word))
        hands = [self._gather(state, s) for s in SEATS]
        hands[seat] += self._take(state, pile)
        hands[1 - seat] += self._take(state, 1 - pile)
        self._next_deal(state, hands, emit)

    def _next_deal(self, state: SpitState, hands: list[list[Card]], emit: Emit | None) -> None:
        """Win (SPIT-WIN-1/4) or lay out the next deal (SPIT-END-4)."""
        for s in SEATS:
            if not hands[s]:
                # the game is won: leave every card in its owner's reserve pile
                for t in SEATS:
                    state.zones.cards[self.spit[t]] = hands[t]
                    state.zones.seen[self.spit[t]] = [0] * len(hands[t])
                state.phase = OVER
                state.to_act = ()
                state.is_over = True
                scores = tuple(float(len(h)) for h in hands)
                state.result = Result((s,), scores, None, "out of cards")
                return
        self.lay_out(state, hands, True, emit)

    def lay_out(
        self, state: SpitState, hands: list[list[Card]], mix: bool, emit: Emit | None
    ) -> None:
        """Lay out *hands* for a new deal and open its setup phase (SPIT-SETUP-2/3/4/7).

        The cards must be off the table (every other zone empty or already
        gathered). Public so tests and tutorials can set up any deal.

        :param state: The state to lay out on.
        :param hands: Per seat, its cards, first taken first.
        :param mix: Shuffle each hand with the game's chance first.
        :param emit: The event sink, or ``None``.
        """
        cards = state.zones.cards
        seen = state.zones.seen
        for s in SEATS:
            own = hands[s]
            if mix:
                shuffle(own, state.rng())
            pick, bounds, masks = self._picks[len(own)]  # piles.deal_layout, by positions
            laid = pick(own)
            lay = self.lay[s]
            for k in range(PILES):
                start, end = bounds[k]
                cards[lay[k]] = laid[start:end]
                seen[lay[k]] = list(masks[k])
            reserve = own[len(self.orders[len(own)]) :]
            reserve.reverse()
            cards[self.spit[s]] = reserve
            seen[self.spit[s]] = [0] * len(reserve)
        state.summary0 = state.summary1 = -1  # new layouts (legality.summary)
        counts = (len(hands[0]), len(hands[1]))
        state.deal += 1
        state.single = -1
        if piles.single_pile_mode(counts):
            state.single = 0 if counts[0] > counts[1] else 1
        state.phase = SETUP
        state.ready = [False, False]
        state.requests = [False, False]
        state.stall = 0
        state.recycled = False
        state.emptier = -1
        state.to_act = SEATS
        if emit is not None:
            emit(CardsDealt(counts))
            emit(events.DealStarted(state.deal, counts, state.single >= 0))

    def _start_play(self, state: SpitState, emit: Emit | None) -> None:
        """SPIT-START-1/2: both ready, the starting spit cards are turned."""
        state.phase = PLAY
        state.to_act = SEATS
        if emit is not None:
            emit(events.PlayStarted(state.deal))
        self._spit(state, emit)
        self._settle(state, emit)

    # -- positions ----------------------------------------------------------------------------
    position_from_view = search.position_from_view  # the search hooks: cardcore_spit.search
    rounds_played = search.rounds_played

    @override
    def write_position(self, state: SpitState) -> str:
        """Write *state* in Spit's position notation (see :mod:`cardcore_spit.position`)."""
        return position.write(state)

    @override
    def read_position(self, text: str, players: int, options: Mapping[str, Any]) -> SpitState:
        """Read and validate a position written by :meth:`write_position`."""
        return position.read(self, text, players, options)

    # -- views ------------------------------------------------------------------------------

    @override
    def table(self, state: SpitState, seat: int | None) -> dict[str, Any]:
        """Return the game's part of a view (SPIT-VIEW-1; see :mod:`cardcore_spit.views`)."""
        return views.table(state, seat, self.claim.word)

    @override
    def scores(self, state: SpitState) -> tuple[float, ...]:
        """Cards each seat holds (fewer is better)."""
        return tuple(float(views.held(state, s)) for s in SEATS)

    @override
    def standings(self, state: SpitState) -> tuple[int, ...]:
        """The seats holding the fewest cards."""
        scores = self.scores(state)
        best = min(scores)
        return tuple(s for s in SEATS if scores[s] == best)


def _seat_actions(interned: SpitActionSet, seat: int) -> list[SpitAction]:
    """Every interned action of *seat* its notation parses back to (not ``combine 1 1``)."""
    out: list[SpitAction] = [
        interned.readies[seat],
        interned.requests[seat],
        *interned.claims[seat],
    ]
    for plays in interned.plays[seat]:
        out.extend(plays)
    for table in (interned.combines, interned.fills):
        for row in table[seat]:
            out.extend(a for a in row if a.src != a.dst)
    return out
