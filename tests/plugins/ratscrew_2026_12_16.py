"""Egyptian Ratscrew, a real-time game written from cardcore's docs alone (2026-12-16).

Registered in place with ``cardcore.register("cardcore.games", NAME, module)``. Rules
(``[D]`` marks a decision of this plugin where the common rules are silent or vary):

* RATS-SEAT-1: 2 to 4 players, one standard 52-card deck.
* RATS-DEAL-1: the whole deck is dealt face down, one card at a time from seat 0, into
  one pile per seat (``pile.S``, 3 players: 18, 17, 17). Nobody may look at a pile, its
  owner included: every view shows only its size.
* RATS-DEAL-2 [D]: seat 0 flips first.
* RATS-FLIP-1: ``flip``: the seat whose turn it is turns the top card of its pile face up
  onto the shared ``center`` pile (every center card shows to everyone). Flipping is
  turn-based: only the seat named by the table's ``turn`` may flip.
* RATS-TURN-1: after a flip that starts or continues no challenge, the turn passes to
  the next seat (clockwise, seat + 1) that holds cards.
* RATS-FACE-1: after a face card or an ace (J, Q, K, A), the next seat holding cards
  must flip up to 1, 2, 3, 4 cards (J, Q, K, A) to find another face card or ace.
* RATS-FACE-2: if it finds one, the challenge passes on: the next seat holding cards must
  answer that card in the same way.
* RATS-FACE-3: if the allowed cards run out without a face card, the seat that played
  the last face card (the *challenger*) takes the whole center pile with ``take``
  (until then, slaps are still allowed; ``flip`` is not).
* RATS-FACE-4 [D]: a challenged seat that runs out of cards before finding a face card
  has lost the challenge (RATS-FACE-3 applies). A face card played while no other seat
  holds cards starts no challenge.
* RATS-SLAP-1: ``slap <top>``: any seat may slap the center pile at any time, naming
  the card it sees on top (it is public). Naming the top makes each slap refer to one
  pile: a slap sent on a top that has since been covered or taken is stale (legal at the
  version its seat saw, not now) or illegal, and changes nothing.
* RATS-SLAP-2: a slap is valid when the top two cards are a pair (doubles) or the top
  and third cards are a pair (sandwich); house rules may add patterns (game hook
  ``ratscrew_slap_pattern``, every answer counts).
* RATS-SLAP-3: the first valid slap takes the whole center pile: it is turned face down
  and put under the slapper's pile (its top card ends at the very bottom) [D], any
  challenge is over, and the slapper flips next. [D] The cards taken are forgotten:
  nobody is assumed to remember them (their knowledge marks are cleared).
* RATS-SLAP-4: a false slap (no valid pattern) burns a card: the slapper's top card goes
  face up under the center pile. Nothing else changes (the turn, the challenge).
* RATS-OUT-1: a seat whose pile is empty is out of the flip order.
* RATS-OUT-2 [D]: a seat that is out may slap back in once per game: its valid slap
  takes the pile as any valid slap does. It cannot burn (it has no card), so a false
  slap of a seat that is out is illegal, citing this rule, and changes nothing.
* RATS-OUT-3 [D]: a seat that is out and has used its slap-in is out for good: it leaves
  ``to_act`` and every action of it is refused citing this rule.
* RATS-WIN-1 [D]: when only one seat holds cards, no challenge is waiting for its
  ``take``, and every other seat is out for good, that seat takes the center and wins.
* RATS-WIN-2 [D]: while a seat that is out may still slap back in, the last seat holding
  cards goes on flipping; when it flips its own last card with nobody else holding
  cards, it takes the center and wins.
* RATS-END-1: ``Result.scores`` counts the cards each seat holds; the winner holds all
  52. A resignation [D] ends the game; the seats still holding cards (other than the
  resigning one) win.
* RATS-RT-1: no turns for slaps: every seat that holds cards or may still slap back in
  is in ``to_act``; the table's ``turn`` says who flips (or takes).
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
    CardMoved,
    CardsDealt,
    Emit,
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    PluginError,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
)
from cardcore.dealing import deal_all, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game

NAME = "ratscrew-2026-12-16"
RULES_MD = __doc__
CENTER = 0
CHANCES = {11: 1, 12: 2, 13: 3, 1: 4}  # J Q K A (RATS-FACE-1)


# --- the game's own hook --------------------------------------------------------------
def _slap_pattern_spec(center: Sequence[Card], options: Mapping[str, Any]) -> str | None:
    """Name the slap pattern the center pile shows, or ``None``.

    Every implementation is asked; the slap is valid when any answers a name.

    :param center: The center pile, bottom to top.
    :param options: The game's resolved options (house rules' options included).
    :returns: A short pattern name (``"doubles"``), or ``None``.
    """


hookspecs = types.ModuleType("ratscrew_2026_12_16_hookspecs")
hookspecs.ratscrew_slap_pattern = hookspec(_slap_pattern_spec)  # type: ignore[attr-defined]


@hookimpl
def ratscrew_slap_pattern(center: Sequence[Card], options: Mapping[str, Any]) -> str | None:
    """RATS-SLAP-2: doubles (top two) or sandwich (top and third)."""
    if len(center) >= 2 and center[-1].rank == center[-2].rank:
        return "doubles"
    if len(center) >= 3 and center[-1].rank == center[-3].rank:
        return "sandwich"
    return None


# --- actions --------------------------------------------------------------------------
@frozen
class Flip(Action):
    """The seat whose turn it is flips its top card onto the center (RATS-FLIP-1)."""

    verb: ClassVar[str] = "flip"

    def notation(self) -> str:
        return "flip"


@frozen
class Take(Action):
    """The challenger takes the center after a lost challenge (RATS-FACE-3)."""

    verb: ClassVar[str] = "take"

    def notation(self) -> str:
        return "take"


@frozen
class Slap(Action):
    """Seat *seat* slaps the center pile, whose top it sees is *card* (RATS-SLAP-1)."""

    verb: ClassVar[str] = "slap"
    card: Card

    def notation(self) -> str:
        return f"slap {self.card}"


RatsAction = Flip | Take | Slap


# --- events ---------------------------------------------------------------------------
class PileTaken(Event):
    """Seat *seat* took the *count* cards of the center (*how*: slap, slap-in, challenge,
    last). The cards go face down; the event names none of them."""

    slug: ClassVar[str] = "ratscrew-pile-taken"
    seat: int
    count: int
    how: str


class CardBurned(Event):
    """Seat *seat* slapped falsely and burned *card* face up under the center."""

    slug: ClassVar[str] = "ratscrew-card-burned"
    seat: int
    card: Card


# --- state ----------------------------------------------------------------------------
@cache
def layout(players: int) -> Layout:
    specs = [ZoneSpec("center", None, Visibility.EVERYONE)]
    specs += [ZoneSpec(f"pile.{s}", s, Visibility.NOBODY) for s in range(players)]
    return Layout.of(specs)


def pile(seat: int) -> int:
    return 1 + seat


class RatsState(GameState):
    """The piles, whose turn it is to flip, the challenge and who used a slap-in."""

    __slots__ = ("challenger", "chances", "collect", "slapped_in", "turn")
    _mutable = ("zones", "slapped_in")
    turn: int
    challenger: int | None
    chances: int
    collect: bool
    slapped_in: list[bool]


# --- the logic ------------------------------------------------------------------------
class RatsLogic(GameLogic[RatsState, RatsAction]):
    """Egyptian Ratscrew for 2 to 4 players."""

    action_types = (Flip, Take, Slap)
    position_fields = ("to_act", "turn", "challenger", "chances", "collect", "slapped_in")
    max_legal = 2

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        pattern = ruleset.resolve("ratscrew_slap_pattern")
        if pattern is None:
            raise PluginError("ratscrew_slap_pattern has no implementation")
        self._pattern = pattern

    # -- helpers
    def pattern(self, state: RatsState) -> str | None:
        """The first pattern a hook names for the center, or ``None`` (RATS-SLAP-2)."""
        center = tuple(state.zones.cards[CENTER])
        if len(center) < 2:
            return None
        answers = self._pattern(center=center, options=state.options)
        for answer in answers or ():
            if answer is not None:
                if not isinstance(answer, str):
                    raise PluginError(f"ratscrew_slap_pattern answered {answer!r}, not a str")
                return answer
        return None

    @staticmethod
    def _holders(state: RatsState) -> list[int]:
        return [s for s in range(state.players) if state.zones.cards[pile(s)]]

    @staticmethod
    def _next_holder(state: RatsState, seat: int) -> int | None:
        """The next seat after *seat* (clockwise) holding cards, never *seat* itself."""
        for k in range(1, state.players):
            s = (seat + k) % state.players
            if state.zones.cards[pile(s)]:
                return s
        return None

    @staticmethod
    def _out_for_good(state: RatsState, seat: int) -> bool:
        return (
            not state.zones.cards[pile(seat)]
            and state.slapped_in[seat]
            and not (state.collect and state.turn == seat)
        )

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 30000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> RatsState:
        state = RatsState(players, options, Zones(layout(players)))
        state.turn, state.challenger, state.chances, state.collect = 0, None, 0, False
        state.slapped_in = [False] * players
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> RatsState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, CENTER, cards)  # the deck waits face down in the center
        deal_all(state, CENTER, [pile(s) for s in range(players)])  # RATS-DEAL-1
        for s in range(players):
            state.zones.forget(pile(s))
        state.to_act = tuple(range(players))  # RATS-RT-1, RATS-DEAL-2: seat 0 flips
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[pile(s)]) for s in range(players))))
        return state

    # -- legality
    def legal_actions(self, state: RatsState, seat: int) -> tuple[RatsAction, ...]:
        """``flip`` or ``take`` for the seat whose turn it is, then ``slap <top>``."""
        out: list[RatsAction] = []
        z = state.zones
        if seat == state.turn:
            if state.collect:
                out.append(Take(seat))
            elif z.cards[pile(seat)]:
                out.append(Flip(seat))
        top = z.top(CENTER)
        if top is not None:
            if z.cards[pile(seat)]:
                out.append(Slap(seat, top))  # RATS-SLAP-1/4: valid or false
            elif not state.slapped_in[seat] and self.pattern(state) is not None:
                out.append(Slap(seat, top))  # RATS-OUT-2: a slap-in, valid only
        return tuple(out)

    def rule_for(self, state: RatsState, action: RatsAction) -> tuple[str, str]:
        seat = action.seat
        if isinstance(action, Flip):
            if seat != state.turn:
                return "RATS-TURN-1", f"it is seat {state.turn}'s turn to flip"
            if state.collect:
                return "RATS-FACE-3", f"seat {seat} won the challenge: it takes the pile"
            return "RATS-OUT-1", f"seat {seat} has no cards to flip"
        if isinstance(action, Take):
            return "RATS-FACE-3", "only a challenger whose challenge was lost may take the pile"
        top = state.zones.top(CENTER)
        if top is None:
            return "RATS-SLAP-1", "the center pile is empty: there is nothing to slap"
        if action.card != top:
            return "RATS-SLAP-1", f"the center's top card is {top}, not {action.card}"
        if state.slapped_in[seat]:
            return "RATS-OUT-3", f"seat {seat} is out and has used its slap-in"
        return "RATS-OUT-2", f"seat {seat} is out: it may slap back in only on a valid slap"

    def waiting_rule(self, state: RatsState, action: RatsAction) -> tuple[str, str] | None:
        if self._out_for_good(state, action.seat):
            return "RATS-OUT-3", f"seat {action.seat} is out for good"
        return None

    # -- applying
    def apply(self, state: RatsState, action: RatsAction, emit: Emit | None) -> None:
        z, seat = state.zones, action.seat
        if isinstance(action, Flip):
            card = z.move(pile(seat), CENTER, mask=ALL)
            if emit is not None:
                emit(CardMoved(seat, f"pile.{seat}", "center", card))
            self._after_flip(state, seat, card)
        elif isinstance(action, Take):
            self._take(state, seat, "challenge", emit)
        elif self.pattern(state) is not None:  # RATS-SLAP-3, RATS-OUT-2
            was_out = not z.cards[pile(seat)]
            if was_out:
                state.slapped_in[seat] = True
            self._take(state, seat, "slap-in" if was_out else "slap", emit)
        else:  # RATS-SLAP-4: burn
            card, _ = z.pop(pile(seat))
            z.insert_bottom(CENTER, card, ALL)
            if emit is not None:
                emit(CardBurned(seat, card))
            if not z.cards[pile(seat)] and seat == state.turn and not state.collect:
                self._turn_seat_empty(state)
        self._settle(state, emit)

    def _after_flip(self, state: RatsState, seat: int, card: Card) -> None:
        z = state.zones
        if card.rank in CHANCES:  # RATS-FACE-1/2
            nxt = self._next_holder(state, seat)
            if nxt is None:  # RATS-FACE-4: nobody can answer
                state.challenger, state.chances, state.turn = None, 0, seat
            else:
                state.challenger, state.chances, state.turn = seat, CHANCES[card.rank], nxt
            return
        if state.challenger is not None:
            state.chances -= 1
            if state.chances == 0 or not z.cards[pile(seat)]:  # RATS-FACE-3/4
                state.turn, state.collect, state.chances = state.challenger, True, 0
            return
        if z.cards[pile(seat)]:
            self._pass(state, seat)
        else:
            self._turn_seat_empty(state)

    def _pass(self, state: RatsState, seat: int) -> None:
        nxt = self._next_holder(state, seat)  # RATS-TURN-1
        state.turn = seat if nxt is None else nxt

    def _turn_seat_empty(self, state: RatsState) -> None:
        """The seat to flip has no cards left (it flipped or burned its last)."""
        if state.challenger is not None:  # RATS-FACE-4: the challenge is lost
            state.turn, state.collect, state.chances = state.challenger, True, 0
        else:
            self._pass(state, state.turn)

    def _take(self, state: RatsState, seat: int, how: str, emit: Emit | None) -> None:
        """RATS-SLAP-3 / RATS-FACE-3: the center, turned face down, under *seat*'s pile."""
        z = state.zones
        count = len(z.cards[CENTER])
        while z.cards[CENTER]:
            card, _ = z.pop(CENTER, 0)  # bottom first: the center's top ends lowest
            z.insert_bottom(pile(seat), card, 0)
        state.turn, state.challenger, state.chances, state.collect = seat, None, 0, False
        if emit is not None:
            emit(PileTaken(seat, count, how))

    def _settle(self, state: RatsState, emit: Emit | None) -> None:
        """Who may act now (RATS-RT-1, RATS-OUT-3) and the end (RATS-WIN-1/2)."""
        z = state.zones
        holders = self._holders(state)
        if not state.collect:
            can_return = [
                s for s in range(state.players) if not z.cards[pile(s)] and not state.slapped_in[s]
            ]
            winner = None
            if len(holders) == 1 and not can_return:
                winner = holders[0]  # RATS-WIN-1
            elif not holders:
                winner = state.turn  # RATS-WIN-2: the last flipper
            if winner is not None:
                if z.cards[CENTER]:
                    self._take(state, winner, "last", emit)
                scores = self.scores(state)
                end_game(state, (winner,), scores, "last seat holding cards", reveal=False)
                return
        state.to_act = tuple(s for s in range(state.players) if not self._out_for_good(state, s))

    # -- ends
    def scores(self, state: RatsState) -> tuple[float, ...]:
        return tuple(float(len(state.zones.cards[pile(s)])) for s in range(state.players))

    def standings(self, state: RatsState) -> tuple[int, ...]:
        scores = self.scores(state)
        best = max(scores)
        return tuple(s for s in range(state.players) if scores[s] == best)

    def resign(self, state: RatsState, seat: int) -> None:
        others = [s for s in self._holders(state) if s != seat]
        if not others:
            others = [s for s in range(state.players) if s != seat]
        end_game(state, tuple(others), self.scores(state), "resigned", reveal=False)

    # -- views
    def table(self, state: RatsState, seat: int | None) -> dict[str, Any]:
        return {
            "turn": None if state.is_over else state.turn,
            "challenger": state.challenger,
            "chances": state.chances,
            "collect": state.collect,
            "slapped_in": list(state.slapped_in),
            "pattern": self.pattern(state),
        }

    def check_position(self, state: RatsState) -> None:
        n = state.players
        check(0 <= state.turn < n, "turn must be a seat, not {}", state.turn)
        check(
            state.challenger is None or 0 <= state.challenger < n,
            "challenger must be a seat or null, not {}",
            state.challenger,
        )
        check(0 <= state.chances <= 4, "chances must be 0 to 4, not {}", state.chances)
        check(
            not state.collect or (state.challenger == state.turn and state.chances == 0),
            "collect means the challenger takes: turn must be the challenger {}",
            "(RATS-FACE-3)",
        )
        for s in range(n):
            for i in range(len(state.zones.cards[pile(s)])):
                check(
                    not state.zones.knows(pile(s), i, s),
                    "pile.{} is face down, hidden from its owner too (RATS-DEAL-1)",
                    s,
                )


GAME = GameInfo(
    NAME,
    "Egyptian Ratscrew: flip in turn, slap pairs and sandwiches in real time",
    2,
    4,
    realtime=True,
    version="1.0.0",
    hookspecs=hookspecs,
    fields=(
        ViewField("turn", "seat", "The seat to flip (or take)", nullable=True),
        ViewField(
            "challenger", "seat", "The seat whose face card is being answered", nullable=True
        ),
        ViewField("chances", "int", "Cards the challenged seat may still flip"),
        ViewField("collect", "bool", "The challenge is lost: the challenger takes the pile"),
        ViewField("slapped_in", "per-seat", "Whether each seat used its slap-in", of="bool"),
        ViewField("pattern", "str", "The slap pattern the center shows", nullable=True),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> RatsLogic:
    return RatsLogic(ruleset)
