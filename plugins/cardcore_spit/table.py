"""Spit's state and rules engine (:class:`SpitState`, :class:`SpitLogic`).

Real time: no turns. ``to_act`` holds every seat that may act: both seats in
play, the seats not yet ready in the setup phase, the claimants at the end of a
two-pile deal. Every automatic step (turning up uncovered cards, spits when
nobody can progress, recycles, void deals, re-laying after a deal) happens
inside :meth:`SpitLogic.apply`.

Zones: ``layout.<seat>.<pile>`` (pile 1..5, face down, the face-up top known to
all), ``spit.<seat>`` (face down, known to nobody), ``pile.L`` and ``pile.R``
(the spit piles, face up).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardcore.actions import Action
from cardcore.cards import Card
from cardcore.deck import shuffle
from cardcore.errors import NotationError
from cardcore.events import CardMoved, CardRevealed, CardsDealt
from cardcore.logic import Emit, GameLogic
from cardcore.state import GameState, Result
from cardcore.zones import ALL, Layout, Visibility, Zones, ZoneSpec
from cardcore_spit import logic
from cardcore_spit.actions import (
    SIDES,
    Claim,
    ClaimRule,
    Combine,
    Fill,
    Play,
    Ready,
    RequestSpit,
)
from cardcore_spit.events import (
    CardSpat,
    CentreRecycled,
    DealEnded,
    DealStarted,
    DealVoided,
    PileClaimed,
    PlayStarted,
)

if TYPE_CHECKING:
    from cardcore.plugins import Ruleset

__all__ = ["CLAIM", "OVER", "PLAY", "SETUP", "SpitLogic", "SpitState"]

SETUP = 0
"""Phase: laying out and combining before the deal starts (SPIT-SETUP-6)."""
PLAY = 1
"""Phase: real-time play (SPIT-MOVE-1)."""
CLAIM = 2
"""Phase: a two-pile deal ended, the spit piles are claimed (SPIT-RT-3)."""
OVER = 3
"""Phase: the game is over."""

PHASE_NAMES = ("setup", "play", "claim", "over")
PILES = logic.PILES
SEATS = (0, 1)
ACTION_BOUND = 20_000


class SpitState(GameState):
    """The table of one Spit game (mutable, slotted).

    :ivar phase: :data:`SETUP`, :data:`PLAY`, :data:`CLAIM` or :data:`OVER`.
    :ivar deal: The current deal, from 1.
    :ivar single: ``-1`` in two-pile mode, else the seat whose pile is the only one.
    :ivar ready: Per seat, whether it declared ``ready`` this deal.
    :ivar requests: Per seat, an outstanding spit request.
    :ivar stall: Actions in a row without progress (SPIT-STUCK-3 c).
    :ivar recycled: A recycle happened and no layout card reached a spit pile since.
    :ivar emptier: The seat that emptied its layout (``-1`` while the deal runs).
    """

    __slots__ = ("deal", "emptier", "phase", "ready", "recycled", "requests", "single", "stall")
    _mutable = ("zones", "ready", "requests")  # every other slot holds an immutable value

    def __init__(self, players: int, options: Mapping[str, Any], zones: Zones) -> None:
        super().__init__(players, options, zones)
        self.phase = SETUP
        self.deal = 0
        self.single = -1
        self.ready = [False, False]
        self.requests = [False, False]
        self.stall = 0
        self.recycled = False
        self.emptier = -1


class SpitLogic(GameLogic):
    """The rules engine of one Spit configuration (shared, stateless).

    Hooks are resolved once here: the rank gaps (adjacency table), the deal
    order per card count and the claim rule.

    :param ruleset: The configuration.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        hook = ruleset.hook
        gaps: set[int] = set()
        for answer in hook.spit_rank_gaps():
            gaps.update(answer)
        self.gaps = frozenset(gaps)
        self.adj = logic.adjacency_table(self.gaps)
        self.orders: tuple[tuple[int, ...], ...] = tuple(
            tuple(hook.spit_deal_order(cards=n)) for n in range(53)
        )
        claim = hook.spit_claim_rule()
        assert claim is not None  # the game always answers
        self.claim: ClaimRule = claim
        specs = [
            ZoneSpec(f"layout.{s}.{k + 1}", s, Visibility.NOBODY) for s in SEATS for k in range(PILES)
        ]
        specs += [ZoneSpec(f"spit.{s}", s, Visibility.NOBODY) for s in SEATS]
        specs += [ZoneSpec(f"pile.{side}", None, Visibility.EVERYONE) for side in SIDES]
        self.layout = Layout.of(specs)
        self.lay = tuple(tuple(self.layout.id(f"layout.{s}.{k + 1}") for k in range(PILES)) for s in SEATS)
        self.spit = tuple(self.layout.id(f"spit.{s}") for s in SEATS)
        self.centre = tuple(self.layout.id(f"pile.{side}") for side in SIDES)
        self.names = tuple(spec.name for spec in specs)
        r5 = range(PILES)
        self.plays = tuple(tuple(tuple(Play(s, k, p) for p in (0, 1)) for k in r5) for s in SEATS)
        self.combines = tuple(tuple(tuple(Combine(s, j, i) for i in r5) for j in r5) for s in SEATS)
        self.fills = tuple(tuple(tuple(Fill(s, j, i) for i in r5) for j in r5) for s in SEATS)
        self.readies = tuple(Ready(s) for s in SEATS)
        self.requests = tuple(RequestSpit(s) for s in SEATS)
        self.claims = tuple(tuple(Claim(s, p, self.claim.word) for p in (0, 1)) for s in SEATS)
        # combines and fills depend only on which tops are equal or empty: at most 6**5 patterns
        self._move_cache: tuple[dict[tuple[int, ...], tuple[Action, ...]], ...] = ({}, {})

    # -- set-up -------------------------------------------------------------------------

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        """Return the action bound (SPIT-CAP-1)."""
        return ACTION_BOUND

    def new_state(self, players: int, options: Mapping[str, Any], cards: list[Card], seed: int) -> SpitState:
        """Deal 26/26 alternately from the top (SPIT-SETUP-1) and lay out (SPIT-SETUP-7)."""
        state = SpitState(players, options, Zones(self.layout))
        state.seed = seed
        top_first = cards[::-1]
        hands = [top_first[0::2], top_first[1::2]]
        self.lay_out(state, hands, False, None)
        return state

    # -- legality -----------------------------------------------------------------------

    def legal_actions(self, state: GameState, seat: int) -> tuple[Action, ...]:
        """Return *seat*'s legal actions.

        Order: plays (pile 1..5, each onto L then R), combines (source, then
        target, ascending), fills (likewise), then ``spit`` (play) or ``ready``
        (setup); at the end of a deal the claims (L, R).
        """
        assert isinstance(state, SpitState)
        if seat not in state.to_act:
            return ()
        phase = state.phase
        if phase == CLAIM:
            return self.claims[seat]
        cards = state.zones.cards
        lay = self.lay[seat]
        tops = [cards[z][-1].rank if cards[z] else -1 for z in lay]
        out: list[Action] = []
        if phase == PLAY:
            adj = self.adj
            plays = self.plays[seat]
            active = self._active(state)
            for k in range(PILES):
                t = tops[k]
                if t < 0:
                    continue
                row = adj[t]
                for p in active:
                    centre = cards[self.centre[p]]
                    if centre and row[centre[-1].rank]:
                        out.append(plays[k][p])
        out.extend(self._moves(seat, tops))
        if phase == PLAY:
            if not state.requests[seat]:
                out.append(self.requests[seat])
        else:
            out.append(self.readies[seat])
        return tuple(out)

    def _moves(self, seat: int, tops: list[int]) -> tuple[Action, ...]:
        """Return the combines and fills for these tops, cached by their equality pattern."""
        first: dict[int, int] = {}
        key = tuple(-1 if t < 0 else first.setdefault(t, k) for k, t in enumerate(tops))
        cache = self._move_cache[seat]
        found = cache.get(key)
        if found is None:
            combines = self.combines[seat]
            fills = self.fills[seat]
            moves: list[Action] = []
            for j in range(PILES):
                if key[j] >= 0:
                    moves.extend(combines[j][i] for i in range(PILES) if i != j and key[i] == key[j])
            for j in range(PILES):
                if key[j] >= 0:
                    moves.extend(fills[j][i] for i in range(PILES) if key[i] < 0)
            found = cache[key] = tuple(moves)
        return found

    def rule_for(self, state: GameState, action: Action) -> tuple[str, str]:
        """Return the rule that forbids *action* now, with a reason."""
        assert isinstance(state, SpitState)
        seat = action.seat
        phase = state.phase
        cards = state.zones.cards
        if isinstance(action, Claim):
            if phase != CLAIM:
                return "SPIT-RT-3", "no deal has ended, so there is nothing to claim"
            return self.claim.rule_id, f"seat {seat} may not claim a pile"
        if phase == CLAIM:
            return "SPIT-END-1", "the deal is over: only claims are accepted"
        if phase == OVER:
            return "SPIT-GEN-3", "the game is over"
        if isinstance(action, Ready):
            return "SPIT-SETUP-6", f"seat {seat} is not in a setup phase"
        if isinstance(action, RequestSpit):
            if phase != PLAY:
                return "SPIT-SETUP-6", "no spit before both players are ready"
            return "SPIT-STUCK-3", f"seat {seat} has already asked for a spit"
        if phase == SETUP and state.ready[seat]:
            return "SPIT-SETUP-6", f"seat {seat} is ready and waits for the other player"
        lay = self.lay[seat]
        if isinstance(action, Play):
            if phase == SETUP:
                return "SPIT-SETUP-6", "no plays before both players are ready"
            src = cards[lay[action.pile]]
            if not src:
                return "SPIT-MOVE-2", f"pile {action.pile + 1} is empty"
            centre = cards[self.centre[action.target]]
            if action.target not in self._active(state) or not centre:
                return "SPIT-START-2", f"there is no spit pile {SIDES[action.target]}"
            if src[-1].rank == centre[-1].rank:
                return "SPIT-MOVE-4", f"{src[-1]} has the same rank as {centre[-1]}"
            return "SPIT-MOVE-2", f"{src[-1]} is not next to {centre[-1]} in rank"
        if isinstance(action, Combine):
            return "SPIT-MOVE-5", "combine needs two non-empty piles whose tops have the same rank"
        if isinstance(action, Fill):
            return "SPIT-MOVE-6", "fill needs a non-empty source pile and an empty target position"
        return "SPIT-MOVE-9", f"{action!s} is not a spit action of seat {seat}"

    # -- notation -------------------------------------------------------------------------

    def parse_action(self, state: GameState, seat: int, text: str) -> Action:
        """Read SPIT-NOTE-1 notation; raise :class:`NotationError` when malformed.

        Well-formed but illegal text parses; the driver then rejects it.
        """
        if seat not in SEATS:
            raise self.parse_error(text, "a seat 0 or 1", "SPIT-NOTE-1")
        words = text.split() if isinstance(text, str) else []
        verb = words[0].lower() if words else ""
        n = len(words)
        if n == 1 and verb == "ready":
            return self.readies[seat]
        if n == 1 and verb == "spit":
            return self.requests[seat]
        if n == 3 and verb == "play":
            return self.plays[seat][_pile(text, words[1])][_side(text, words[2])]
        if n == 3 and verb in ("combine", "fill"):
            j, i = _pile(text, words[1]), _pile(text, words[2])
            if i == j:
                raise self.parse_error(text, "two different piles", "SPIT-NOTE-1")
            table = self.combines if verb == "combine" else self.fills
            return table[seat][j][i]
        if n == 2 and verb == self.claim.word:
            return self.claims[seat][_side(text, words[1])]
        expected = (
            "'play <pile 1-5> L|R', 'combine <pile> <pile>', 'fill <pile> <pile>', "
            f"'ready', 'spit' or '{self.claim.word} L|R'"
        )
        raise self.parse_error(text, expected, "SPIT-NOTE-1")

    # -- applying -------------------------------------------------------------------------

    def apply(self, state: GameState, action: Action, emit: Emit | None) -> None:
        """Apply a legal *action* and every automatic step it triggers."""
        assert isinstance(state, SpitState)
        kind = type(action)
        seat = action.seat
        if kind is Play:
            assert isinstance(action, Play)
            self._play(state, action, emit)
        elif kind is Combine or kind is Fill:
            assert isinstance(action, Combine | Fill)
            src = self.lay[seat][action.src]
            dst = self.lay[seat][action.dst]
            zones = state.zones
            card = zones.move(src, dst)
            if emit is not None:
                emit(CardMoved(seat, self.names[src], self.names[dst], card))
            uncovered = self._turn_up(state, src, seat, emit)
            if state.phase == PLAY:
                state.stall = 0 if uncovered else state.stall + 1
                self._settle(state, emit)
        elif kind is RequestSpit:
            state.requests[seat] = True
            state.stall += 1
            self._settle(state, emit)
        elif kind is Ready:
            state.ready[seat] = True
            if all(state.ready):
                self._start_play(state, emit)
            else:
                state.to_act = tuple(s for s in SEATS if not state.ready[s])
        elif kind is Claim:
            assert isinstance(action, Claim)
            self._claim(state, action, emit)
        else:  # pragma: no cover - the driver only passes legal actions
            msg = f"not a spit action: {action!r}"
            raise NotationError(msg)

    def _play(self, state: SpitState, action: Play, emit: Emit | None) -> None:
        seat = action.seat
        src = self.lay[seat][action.pile]
        dst = self.centre[action.target]
        card = state.zones.move(src, dst, mask=ALL)
        if emit is not None:
            emit(CardMoved(seat, self.names[src], self.names[dst], card))
        state.stall = 0
        state.requests[0] = state.requests[1] = False
        state.recycled = False
        self._turn_up(state, src, seat, emit)
        cards = state.zones.cards
        if not any(cards[z] for z in self.lay[seat]):
            self._end_deal(state, seat, emit)
        else:
            self._settle(state, emit)

    def _turn_up(self, state: SpitState, z: int, seat: int, emit: Emit | None) -> bool:
        """Turn up the new top of pile *z* if it is face down (SPIT-MOVE-7)."""
        seen = state.zones.seen[z]
        if seen and seen[-1] != ALL:
            seen[-1] = ALL
            if emit is not None:
                emit(CardRevealed(seat, self.names[z], len(seen) - 1, state.zones.cards[z][-1]))
            return True
        return False

    def _active(self, state: SpitState) -> tuple[int, ...]:
        return SEATS if state.single < 0 else (state.single,)

    def can_progress(self, state: SpitState, seat: int) -> bool:
        """Tell whether *seat* has a play or an uncovering move (SPIT-STUCK-3 b).

        The same answer as :func:`cardcore_spit.logic.can_progress`, inlined for speed.
        """
        zones = state.zones
        cards = zones.cards
        seen = zones.seen
        adj = self.adj
        targets = [cards[self.centre[p]][-1].rank for p in self._active(state) if cards[self.centre[p]]]
        space = False
        ranks: list[int] = []
        hidden: list[int] = []
        for z in self.lay[seat]:
            pile = cards[z]
            if not pile:
                space = True
                continue
            r = pile[-1].rank
            row = adj[r]
            for t in targets:
                if row[t]:
                    return True
            ranks.append(r)
            if len(pile) > 1 and seen[z][-2] != ALL:
                hidden.append(r)
        return any(space or ranks.count(r) > 1 for r in hidden)

    def _settle(self, state: SpitState, emit: Emit | None) -> None:
        """Spit while SPIT-STUCK-3 calls for it."""
        limit: int = state.options["stall_limit"]
        while state.phase == PLAY:
            due = (
                (state.requests[0] and state.requests[1])
                or state.stall >= limit
                or not (self.can_progress(state, 0) or self.can_progress(state, 1))
            )
            if not due:
                state.to_act = tuple(s for s in SEATS if not state.requests[s] or self._has_move(state, s))
                return
            self._spit(state, emit)

    def _has_move(self, state: SpitState, seat: int) -> bool:
        """Tell whether *seat* has a play, combine or fill (not counting ``spit``)."""
        cards = state.zones.cards
        tops = [cards[z][-1].rank if cards[z] else -1 for z in self.lay[seat]]
        if -1 in tops:
            return True
        if len(set(tops)) < PILES:
            return True
        adj = self.adj
        for p in self._active(state):
            centre = cards[self.centre[p]]
            if centre and any(adj[t][centre[-1].rank] for t in tops):
                return True
        return False

    def _spit(self, state: SpitState, emit: Emit | None) -> None:
        """Every player with spit cards spits onto its home pile (SPIT-STUCK-1/2/4/5/6)."""
        zones = state.zones
        cards = zones.cards
        spitters = [s for s in SEATS if cards[self.spit[s]]]
        if not spitters:
            if state.recycled:
                self._void(state, emit)
                return
            counts = [0, 0]
            for p in self._active(state):
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
                emit(CentreRecycled(tuple(counts)))
            spitters = [s for s in SEATS if cards[self.spit[s]]]
        for s in spitters:
            home = s if state.single < 0 else state.single
            card = zones.move(self.spit[s], self.centre[home], mask=ALL)
            if emit is not None:
                emit(CardSpat(s, card, SIDES[home]))
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
            emit(DealVoided(state.deal))
        hands = [self._gather(state, s) + self._take(state, s) for s in SEATS]
        self.lay_out(state, hands, True, emit)

    def _end_deal(self, state: SpitState, emptier: int, emit: Emit | None) -> None:
        """SPIT-END-1: the deal ends the moment *emptier*'s layout is empty."""
        if emit is not None:
            emit(DealEnded(state.deal, emptier))
        state.emptier = emptier
        if state.single < 0:
            state.phase = CLAIM
            state.to_act = (emptier,) if self.claim.emptier_only else SEATS
            return
        # SPIT-END-6: the emptier takes nothing, the other takes the spit pile
        other = 1 - emptier
        hands = [self._gather(state, s) for s in SEATS]
        hands[other] += self._take(state, state.single)
        self._next_deal(state, hands, emit)

    def _claim(self, state: SpitState, action: Claim, emit: Emit | None) -> None:
        """SPIT-END-2/4: the claimer takes the claimed pile, the other the other pile."""
        seat = action.seat
        pile = action.target
        if emit is not None:
            count = len(state.zones.cards[self.centre[pile]])
            emit(PileClaimed(seat, SIDES[pile], count, action.word))
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

    def lay_out(self, state: SpitState, hands: list[list[Card]], mix: bool, emit: Emit | None) -> None:
        """Lay out *hands* for a new deal and open its setup phase (SPIT-SETUP-2/3/4/7).

        The cards must be off the table (every other zone empty or already
        gathered). Public so tests and tutorials can set up any deal.

        :param state: The state to lay out on.
        :param hands: Per seat, its cards, first taken first.
        :param mix: Shuffle each hand with the game's chance first.
        :param emit: The event sink, or ``None``.
        """
        zones = state.zones
        for s in SEATS:
            own = hands[s]
            if mix:
                shuffle(own, state.rng())
            layout, reserve = logic.deal_layout(own, self.orders[len(own)])
            for k in range(PILES):
                z = self.lay[s][k]
                zones.cards[z] = layout[k]
                masks = [0] * len(layout[k])
                if masks:
                    masks[-1] = ALL
                zones.seen[z] = masks
            zones.cards[self.spit[s]] = reserve
            zones.seen[self.spit[s]] = [0] * len(reserve)
        counts = (len(hands[0]), len(hands[1]))
        state.deal += 1
        state.single = -1
        if logic.single_pile_mode(counts):
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
            emit(DealStarted(state.deal, counts, state.single >= 0))

    def _start_play(self, state: SpitState, emit: Emit | None) -> None:
        """SPIT-START-1/2: both ready, the starting spit cards are turned."""
        state.phase = PLAY
        state.to_act = SEATS
        if emit is not None:
            emit(PlayStarted(state.deal))
        self._spit(state, emit)
        self._settle(state, emit)

    # -- views ------------------------------------------------------------------------------

    def table(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """Return the game's part of a view: layouts (hidden cards as ``None``),
        reserve counts, spit piles, phase and flags (SPIT-VIEW-1)."""
        assert isinstance(state, SpitState)
        zones = state.zones
        active = self._active(state) if state.phase in (PLAY, CLAIM) else ()
        seats = []
        for s in SEATS:
            seats.append(
                {
                    "layout": [zones.show(z, seat) for z in self.lay[s]],
                    "spit_cards": zones.count(self.spit[s]),
                    "ready": state.ready[s],
                    "requested": state.requests[s],
                    "cards": sum(zones.count(z) for z in self.lay[s]) + zones.count(self.spit[s]),
                }
            )
        return {
            "phase": PHASE_NAMES[state.phase],
            "deal": state.deal,
            "mode": "two-pile" if state.single < 0 else "single-pile",
            "piles": {
                SIDES[p]: zones.show(self.centre[p], seat) if p in active or zones.count(self.centre[p]) else None
                for p in (0, 1)
            },
            "seats": seats,
            "stall": state.stall,
            "emptier": None if state.emptier < 0 else state.emptier,
            "claim": self.claim.word,
        }

    def scores(self, state: GameState) -> tuple[float, ...]:
        """Cards each seat holds (fewer is better)."""
        zones = state.zones
        return tuple(
            float(sum(zones.count(z) for z in self.lay[s]) + zones.count(self.spit[s])) for s in SEATS
        )

    def standings(self, state: GameState) -> tuple[int, ...]:
        """The seats holding the fewest cards."""
        scores = self.scores(state)
        best = min(scores)
        return tuple(s for s in SEATS if scores[s] == best)


def _pile(text: str, word: str) -> int:
    if word in ("1", "2", "3", "4", "5"):
        return int(word) - 1
    msg = f"cannot read {text!r}: expected a pile number 1-5, not {word!r} (SPIT-NOTE-1)"
    raise NotationError(msg)


def _side(text: str, word: str) -> int:
    side = word.upper()
    if side in SIDES:
        return SIDES.index(side)
    msg = f"cannot read {text!r}: expected L or R, not {word!r} (SPIT-NOTE-1)"
    raise NotationError(msg)

