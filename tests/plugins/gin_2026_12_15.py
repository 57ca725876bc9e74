"""Gin Rummy, written from cardcore's plugin guide by a third-party author (2026-12-15).

A single-module game (docs/plugin-guide/game.rst): ``GAME``, ``create_logic``, the actions
and their notation, the state, the logic and the game's own hookspec module built in place
(docs/plugin-guide/hookspecs.rst), through which the house rule Oklahoma
(``tests/plugins/gin_rules_2026_12_15.py``) sets the knock limit. Rules are in
:data:`RULES_MD`.

Design decisions (documented in RULES_MD):

* The engine, not the player, chooses the melds (GIN-MELD-3): a knock lays the partition
  of the ten kept cards with the least deadwood, the first such in a fixed order (sets
  before runs, low ranks first). So ``knock`` names only the face-down discard.
* The knock's discard lies face down, so ``knock <pos>`` names its position in the hand
  (top first, as the seat's view lists it), never the card (docs: "an action's notation
  is public").
* Lay-offs name the card and the meld pile it goes to: ``layoff 7H 1``; ``done`` ends them.
* After a knock the hands stay shown until the next hand's first player says ``next``.
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
    CardDiscarded,
    CardDrawn,
    CardMoved,
    CardRevealed,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    PluginError,
    RoundScored,
    Ruleset,
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.positions import check
from cardcore.turns import end_game

NAME = "gin-2026-12-15"
LINE_BONUS = 25  # GIN-MATCH-2: per hand won
GAME_BONUS = 100  # GIN-MATCH-2: to the match winner
UNDERCUT_BONUS = 25  # GIN-SCORE-2
GIN_BONUS = 25  # GIN-SCORE-3

RULES_MD = """\
# Gin Rummy (test plugin, 2026-12-15)

| ID | Rule |
|----|------|
| GIN-SEAT-1 | 2 players, one 52-card deck. |
| GIN-DEAL-1 | The dealer deals 10 cards each, one at a time, non-dealer first; the next card is the upcard (face up, the discard pile); the rest is the stock. Seat 1 deals the first hand; the deal alternates; after a dead hand the same dealer deals again. |
| GIN-UP-1 | The non-dealer may `take` the upcard or `pass`; if it passes the dealer may `take` or `pass`; if both pass the non-dealer must `draw` from the stock. |
| GIN-TURN-1 | A turn: `draw` (stock) or `take` (top discard), then `discard <card>` or `knock <pos>`. |
| GIN-TAKE-1 | A card just taken from the discard pile may not be discarded (nor knocked with) that turn. |
| GIN-MELD-1 | Melds: 3 or 4 cards of one rank; 3+ cards in sequence of one suit, ace low (A-2-3 yes, Q-K-A no). |
| GIN-MELD-2 | Deadwood: cards in no meld; A=1, 2-10 face value, J/Q/K=10. |
| GIN-MELD-3 | The engine chooses the melds: the partition with the least deadwood, the first in a fixed order among equals. |
| GIN-KNOCK-1 | A player whose ten kept cards have deadwood at most the knock limit (10; see the hook `gin_knock_limit`) may knock: `knock <pos>` discards the card at position <pos> (top first) face down. |
| GIN-KNOCK-2 | At a knock both hands are shown to everyone and the knocker's melds are laid (piles `meld.0` ...). |
| GIN-GIN-1 | Deadwood 0 at a knock is gin: no lay-offs. |
| GIN-LAY-1 | After a knock (not gin) the defender may lay off cards onto the knocker's melds: `layoff <card> <meld>` while a card fits, then `done`. |
| GIN-SCORE-1 | Knock: the knocker scores the defender's deadwood (after lay-offs) less its own. |
| GIN-SCORE-2 | Undercut (defender's deadwood <= knocker's): the defender scores the difference + 25. |
| GIN-SCORE-3 | Gin: 25 + the defender's deadwood. |
| GIN-DEAD-1 | A discard that leaves 2 cards (or fewer) in the stock ends the hand without a score (dead hand). |
| GIN-NEXT-1 | After a scored hand both hands stay shown; the next hand's first player deals on with `next`. |
| GIN-MATCH-1 | The match ends when a seat reaches `target` points (option, 10-1000, default 100). |
| GIN-MATCH-2 | Then each seat adds 25 (line bonus) per hand won, the winner 100 (game bonus); the payout is the difference of the totals. |
"""

PHASES = ("upcard", "upcard2", "forced", "draw", "discard", "layoff", "shown", "over")


def points(card: Card) -> int:
    """GIN-MELD-2: a card's deadwood value."""
    return min(card.rank, 10)


# -- the game's own hookspec, built in place (docs/plugin-guide/hookspecs.rst) -----------------


def knock_limit_spec(upcard: Card, options: Mapping[str, Any]) -> int | None:
    """Return the most deadwood a knocker may keep in this hand.

    Stops at the first non-``None`` result. The game answers 10 (GIN-KNOCK-1) with
    ``trylast=True``; a house rule may answer from the hand's first upcard.

    :param upcard: The upcard dealt for this hand.
    :param options: The game's options (with the chosen rules' options).
    :returns: A whole number from 0 (gin only) to 10, or ``None`` to defer.

    .. versionadded:: 0.1
    """


hookspecs = types.ModuleType("gin_2026_12_15_hookspecs")
hookspecs.gin_knock_limit = hookspec(firstresult=True)(knock_limit_spec)  # type: ignore[attr-defined]


GAME = GameInfo(
    NAME,
    "Gin Rummy: meld sets and runs, knock with 10 or less deadwood, gin with none",
    2,
    2,
    options=(Option("target", 100, "Points that end the match", minimum=10, maximum=1000),),
    version="1.0.0",
    hookspecs=hookspecs,
    fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("dealer", "seat", "The dealer of this hand."),
        ViewField("hand_no", "int", "The hand being played, from 1."),
        ViewField("phase", "choice", "What the seat to act does now.", choices=PHASES),
        ViewField("taken", "str", "The card taken from the discards this turn.", nullable=True),
        ViewField("knocker", "seat", "The seat that knocked this hand.", nullable=True),
        ViewField("knock_limit", "int", "The most deadwood a knocker may keep this hand."),
        ViewField("scores", "per-seat", "Match points of each seat.", of="int"),
        ViewField("wins", "per-seat", "Hands each seat has won.", of="int"),
        ViewField("deadwood", "per-seat", "Deadwood shown at the knock.", of="int", nullable=True),
    ),
)


# -- actions ----------------------------------------------------------------------------------


@frozen
class Draw(Action):
    """Draw the top card of the stock."""

    verb: ClassVar[str] = "draw"


@frozen
class Take(Action):
    """Take the top card of the discard pile (the upcard, or the last discard)."""

    verb: ClassVar[str] = "take"


@frozen
class Pass(Action):
    """Refuse the upcard (GIN-UP-1)."""

    verb: ClassVar[str] = "pass"


@frozen
class Discard(Action):
    """Discard *card* face up."""

    card: Card
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {self.card}"


@frozen
class Knock(Action):
    """Knock, discarding face down the card at position *pos* of the hand (top first)."""

    pos: int
    verb: ClassVar[str] = "knock"

    def notation(self) -> str:
        return f"knock {self.pos}"


@frozen
class Layoff(Action):
    """Lay *card* off onto the knocker's meld pile number *meld*."""

    card: Card
    meld: int
    verb: ClassVar[str] = "layoff"

    def notation(self) -> str:
        return f"layoff {self.card} {self.meld}"


@frozen
class Done(Action):
    """End the lay-offs."""

    verb: ClassVar[str] = "done"


@frozen
class Next(Action):
    """Deal the next hand."""

    verb: ClassVar[str] = "next"


GinAction = Draw | Take | Pass | Discard | Knock | Layoff | Done | Next


# -- state ------------------------------------------------------------------------------------

STOCK, DISCARD, KNOCKED = 0, 1, 2
MELDS = 3  # at most 3 melds among 10 cards


def hand(seat: int) -> int:
    return 3 + seat


def meld(i: int) -> int:
    return 5 + i


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("discard", None, Visibility.TOP),
            ZoneSpec("knocked"),  # GIN-KNOCK-1: the knock's face-down discard
            ZoneSpec("hand.0", 0, Visibility.OWNER),
            ZoneSpec("hand.1", 1, Visibility.OWNER),
            *(ZoneSpec(f"meld.{i}", None, Visibility.EVERYONE) for i in range(MELDS)),
        ]
    )


class GinState(GameState):
    __slots__ = ("dealer", "hand_no", "knock_limit", "knocker", "phase", "scores", "taken", "wins")
    _mutable = ("zones", "scores", "wins")
    dealer: int
    phase: str
    hand_no: int
    scores: list[int]
    wins: list[int]
    taken: str | None
    knocker: int | None
    knock_limit: int


# -- melds ------------------------------------------------------------------------------------


def is_set(cards: Sequence[Card]) -> bool:
    return 3 <= len(cards) <= 4 and len({c.rank for c in cards}) == 1


def is_run(cards: Sequence[Card]) -> bool:
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(c.rank for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def candidate_melds(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every meld among *cards*, sets first then runs, low ranks first (GIN-MELD-1)."""
    out: list[tuple[Card, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
    for rank in sorted(by_rank):
        group = sorted(by_rank[rank], key=str)
        if len(group) == 4:
            out.append(tuple(group))
        if len(group) >= 3:
            for skip in range(len(group)) if len(group) == 4 else [None]:
                out.append(tuple(c for i, c in enumerate(group) if i != skip))
    by_suit: dict[Any, dict[int, Card]] = {}
    for c in cards:
        by_suit.setdefault(c.suit.value, {})[c.rank] = c
    for suit in sorted(by_suit):
        held = by_suit[suit]
        for lo in range(1, 12):
            hi = lo
            while hi + 1 in held and lo in held:
                hi += 1
                if hi - lo >= 2:
                    out.append(tuple(held[r] for r in range(lo, hi + 1)))
    return out


def best_melds(cards: Sequence[Card]) -> tuple[int, list[tuple[Card, ...]]]:
    """GIN-MELD-3: (deadwood, melds) of the partition with the least deadwood."""
    cands = candidate_melds(cards)
    total = sum(points(c) for c in cards)
    best: list[Any] = [total, []]

    def search(start: int, used: frozenset[Card], chosen: list[tuple[Card, ...]], dw: int) -> None:
        if dw < best[0]:
            best[0], best[1] = dw, list(chosen)
        for i in range(start, len(cands)):
            m = cands[i]
            if used.isdisjoint(m):
                chosen.append(m)
                search(i + 1, used | frozenset(m), chosen, dw - sum(points(c) for c in m))
                chosen.pop()

    search(0, frozenset(), [], total)
    return best[0], best[1]


def fits(card: Card, pile: Sequence[Card]) -> bool:
    """GIN-LAY-1: may *card* extend the meld *pile*?"""
    if not pile:
        return False
    return is_set([*pile, card]) or is_run([*pile, card])


# -- logic ------------------------------------------------------------------------------------


class GinLogic(GameLogic[GinState, GinAction]):
    """Gin Rummy for two."""

    action_types = (Draw, Take, Pass, Discard, Knock, Layoff, Done, Next)
    position_fields = (
        "to_act",
        "dealer",
        "phase",
        "hand_no",
        "scores",
        "wins",
        "taken",
        "knocker",
        "knock_limit",
    )

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        limit = ruleset.resolve("gin_knock_limit")
        if limit is None:
            raise PluginError("gin_knock_limit has no implementation")
        self._limit = limit

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        # a hand takes at most ~70 actions; a scored hand gives at least 1 point; dead hands
        # add more: generous
        return 400 * int(options["target"]) + 2000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> GinState:
        state = GinState(players, options, Zones(layout()))
        state.dealer, state.phase, state.hand_no = 1, "upcard", 1
        state.scores, state.wins = [0, 0], [0, 0]
        state.taken, state.knocker, state.knock_limit = None, None, 10
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> GinState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: GinState, emit: Emit | None) -> None:
        """GIN-DEAL-1: 10 cards each, non-dealer first, then the upcard."""
        non = 1 - state.dealer
        deal_round_robin(state, STOCK, [hand(0), hand(1)], 10, first=non)
        up = state.zones.move(STOCK, DISCARD)
        state.knock_limit = self._checked_limit(state, up)
        state.phase, state.to_act = "upcard", (non,)
        state.taken, state.knocker = None, None
        if emit is not None:
            emit(CardsDealt((10, 10)))
            emit(CardMoved(None, "stock", "discard", up))

    def _checked_limit(self, state: GinState, up: Card) -> int:
        answer = self._limit(upcard=up, options=state.options)
        value = self.checked_answer("gin_knock_limit", answer, int)
        if not 0 <= value <= 10:
            raise PluginError(f"gin_knock_limit answered {value}, not 0-10")
        return int(value)

    # -- legality --

    def _hand(self, state: GinState, seat: int) -> list[Card]:
        return state.zones.cards[hand(seat)]

    def _knock_ok(self, state: GinState, seat: int, pos: int) -> bool:
        cards = self._hand(state, seat)
        n = len(cards)
        if not 0 <= pos < n or n != 11:
            return False
        card = cards[n - 1 - pos]
        if state.taken == str(card):
            return False
        kept = cards[: n - 1 - pos] + cards[n - pos :]
        return best_melds(kept)[0] <= state.knock_limit

    def legal_actions(self, state: GinState, seat: int) -> tuple[GinAction, ...]:
        """Order: take/pass/draw; discards by hand position; knocks by position; lay-offs
        by card then meld, then done; next."""
        phase = state.phase
        if phase in ("upcard", "upcard2"):
            return (Take(seat), Pass(seat))
        if phase == "forced":
            return (Draw(seat),)
        if phase == "draw":
            return (Draw(seat), Take(seat))
        if phase == "discard":
            cards = self._hand(state, seat)
            n = len(cards)
            out: list[GinAction] = [
                Discard(seat, cards[n - 1 - p])
                for p in range(n)
                if str(cards[n - 1 - p]) != state.taken
            ]
            out += [Knock(seat, p) for p in range(n) if self._knock_ok(state, seat, p)]
            return tuple(out)
        if phase == "layoff":
            piles = state.zones.cards
            lay: list[GinAction] = [
                Layoff(seat, c, m)
                for c in sorted(self._hand(state, seat), key=lambda c: (c.rank, c.suit.value))
                for m in range(MELDS)
                if fits(c, piles[meld(m)])
            ]
            return (*lay, Done(seat))
        if phase == "shown":
            return (Next(seat),)
        return ()

    def rule_for(self, state: GinState, action: GinAction) -> tuple[str, str]:
        phase, seat = state.phase, action.seat
        knocker = state.knocker
        if (
            isinstance(action, Layoff)
            and phase == "shown"
            and knocker is not None
            and not self._hand(state, knocker)
        ):
            return "GIN-GIN-1", "no lay-offs after gin"
        if isinstance(action, (Take, Pass)) and phase in ("upcard", "upcard2"):
            return "GIN-UP-1", "unreachable"
        if phase in ("upcard", "upcard2"):
            return "GIN-UP-1", f"seat {seat} may take the upcard or pass, not {action}"
        if phase == "forced":
            return "GIN-UP-1", "both passed the upcard: the non-dealer must draw from the stock"
        if phase == "draw":
            return "GIN-TURN-1", f"seat {seat} must draw or take first, not {action}"
        if phase == "discard":
            if isinstance(action, Discard):
                if str(action.card) == state.taken:
                    return "GIN-TAKE-1", f"{action.card} was just taken from the discards"
                return "GIN-TURN-1", f"seat {seat} holds no {action.card}"
            if isinstance(action, Knock):
                n = len(self._hand(state, seat))
                if not 0 <= action.pos < n:
                    return "GIN-KNOCK-1", f"there is no position {action.pos} in a hand of {n}"
                if str(self._hand(state, seat)[n - 1 - action.pos]) == state.taken:
                    return (
                        "GIN-TAKE-1",
                        "the card just taken from the discards may not be knocked with",
                    )
                return (
                    "GIN-KNOCK-1",
                    f"the deadwood kept would exceed the knock limit {state.knock_limit}",
                )
            return "GIN-TURN-1", f"seat {seat} must discard or knock, not {action}"
        if phase == "layoff":
            if isinstance(action, Layoff):
                return "GIN-LAY-1", f"{action.card} cannot be laid off on meld {action.meld}"
            return "GIN-LAY-1", f"seat {seat} may lay off or say done, not {action}"
        if phase == "shown":
            return "GIN-NEXT-1", f"the hand is over: 'next' deals the next one, not {action}"
        return "GIN-TURN-1", "the match is over"

    # -- apply --

    def apply(self, state: GinState, action: GinAction, emit: Emit | None) -> None:
        z, seat = state.zones, action.seat
        if isinstance(action, Pass):
            if state.phase == "upcard":
                state.phase, state.to_act = "upcard2", (state.dealer,)
            else:
                state.phase, state.to_act = "forced", (1 - state.dealer,)
        elif isinstance(action, Take):
            card = z.move(DISCARD, hand(seat), mask=ALL)
            state.taken, state.phase = str(card), "discard"
            if emit is not None:
                emit(CardDrawn(seat, "discard", card))
        elif isinstance(action, Draw):
            card = z.move(STOCK, hand(seat))
            state.taken, state.phase = None, "discard"
            if emit is not None:
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
        elif isinstance(action, Discard):
            i = z.cards[hand(seat)].index(action.card)
            z.move(hand(seat), DISCARD, i)
            state.taken = None
            if emit is not None:
                emit(CardDiscarded(seat, action.card))
            if len(z.cards[STOCK]) <= 2:  # GIN-DEAD-1
                self._next_hand(state, state.dealer, emit)
            else:
                state.phase, state.to_act = "draw", (1 - seat,)
        elif isinstance(action, Knock):
            self._knock(state, seat, action.pos, emit)
        elif isinstance(action, Layoff):
            i = z.cards[hand(seat)].index(action.card)
            z.move(hand(seat), meld(action.meld), i, mask=ALL)
            self._sort_meld(state, action.meld)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", f"meld.{action.meld}", action.card))
        elif isinstance(action, Done):
            self._score(state, emit)
        elif isinstance(action, Next):
            self._next_hand(state, 1 - state.dealer, emit)

    def _sort_meld(self, state: GinState, m: int) -> None:
        z = state.zones
        pile = z.cards[meld(m)]
        pile.sort(key=lambda c: (c.rank, c.suit.value))
        z.seen[meld(m)] = [ALL] * len(pile)

    def _knock(self, state: GinState, seat: int, pos: int, emit: Emit | None) -> None:
        z = state.zones
        n = len(z.cards[hand(seat)])
        down = z.move(hand(seat), KNOCKED, n - 1 - pos, mask=1 << seat)  # GIN-KNOCK-1: face down
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "knocked", down, visible_to=1 << seat))
        _, melds = best_melds(z.cards[hand(seat)])
        for m, group in enumerate(melds):  # GIN-KNOCK-2: the knocker's melds laid down
            for card in group:
                z.move(hand(seat), meld(m), z.cards[hand(seat)].index(card), mask=ALL)
            self._sort_meld(state, m)
        for s in (seat, 1 - seat):  # GIN-KNOCK-2: both hands shown
            for i in range(len(z.cards[hand(s)])):
                card = z.reveal(hand(s), i)
                if emit is not None:
                    emit(CardRevealed(s, f"hand.{s}", i, card))
        if emit is not None:
            for m, group in enumerate(melds):
                for card in sorted(group, key=lambda c: (c.rank, c.suit.value)):
                    emit(CardMoved(seat, f"hand.{seat}", f"meld.{m}", card))
        state.knocker, state.taken = seat, None
        if not z.cards[hand(seat)]:  # GIN-GIN-1: no lay-offs
            self._score(state, emit)
        else:
            state.phase, state.to_act = "layoff", (1 - seat,)

    def deadwood(self, state: GinState, seat: int) -> int:
        """The deadwood of *seat*'s hand as it lies (GIN-MELD-2/3)."""
        return best_melds(self._hand(state, seat))[0]

    def _score(self, state: GinState, emit: Emit | None) -> None:
        knocker = state.knocker
        assert knocker is not None
        defender = 1 - knocker
        k, d = self.deadwood(state, knocker), self.deadwood(state, defender)
        if k == 0:
            winner, pts = knocker, GIN_BONUS + d  # GIN-SCORE-3
        elif d <= k:
            winner, pts = defender, k - d + UNDERCUT_BONUS  # GIN-SCORE-2
        else:
            winner, pts = knocker, d - k  # GIN-SCORE-1
        made = self.score_round(state, [pts if s == winner else 0 for s in range(2)])
        for s in range(2):
            state.scores[s] += made[s]
        won = max(range(2), key=lambda s: made[s])
        if made[won] > 0:
            state.wins[won] += 1
        if emit is not None:
            emit(RoundScored(state.hand_no, tuple(made), tuple(state.scores)))
        target = int(state.options["target"])
        if max(state.scores) >= target:  # GIN-MATCH-1
            finals = self.final_totals(state)
            champion = 0 if state.scores[0] >= target else 1
            diff = finals[champion] - finals[1 - champion]
            pay = [diff if s == champion else -diff for s in range(2)]
            state.phase = "over"
            end_game(state, (champion,), tuple(map(float, finals)), "target", payouts=pay)
        else:
            state.phase, state.to_act = "shown", (state.dealer,)  # the next hand's non-dealer

    def final_totals(self, state: GinState) -> list[int]:
        """GIN-MATCH-2: points + line bonuses + the game bonus."""
        target = int(state.options["target"])
        return [
            state.scores[s]
            + LINE_BONUS * state.wins[s]
            + (GAME_BONUS if state.scores[s] >= target else 0)
            for s in range(2)
        ]

    def _next_hand(self, state: GinState, dealer: int, emit: Emit | None) -> None:
        gather(state, STOCK)
        if emit is not None:
            emit(Shuffled("stock", 52))
        state.dealer = dealer
        state.hand_no += 1
        self._deal(state, emit)

    # -- views and the rest --

    def table(self, state: GinState, seat: int | None) -> dict[str, Any]:
        shown = state.knocker is not None and state.phase in ("layoff", "shown", "over")
        return {
            "stock": len(state.zones.cards[STOCK]),
            "dealer": state.dealer,
            "hand_no": state.hand_no,
            "phase": state.phase,
            "taken": state.taken,
            "knocker": state.knocker,
            "knock_limit": state.knock_limit,
            "scores": list(state.scores),
            "wins": list(state.wins),
            "deadwood": [self.deadwood(state, s) for s in range(2)] if shown else None,
        }

    def rounds_played(self, state: GinState) -> int:
        return state.hand_no - 1 + (1 if state.phase in ("shown", "over") else 0)

    def scores(self, state: GinState) -> tuple[float, ...]:
        return tuple(map(float, state.scores))

    def payouts(self, state: GinState) -> tuple[int, ...] | None:
        if state.result is not None:
            return state.result.payouts
        d = state.scores[0] - state.scores[1]
        return (d, -d)

    def standings(self, state: GinState) -> tuple[int, ...]:
        top = max(state.scores)
        return tuple(s for s in range(2) if state.scores[s] == top)

    def check_position(self, state: GinState) -> None:
        check(state.phase in PHASES, "phase must be one of {}, not {}", PHASES, state.phase)
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(0 <= state.knock_limit <= 10, "knock_limit must be 0-10, not {}", state.knock_limit)


@hookimpl
def create_logic(ruleset: Ruleset) -> GinLogic:
    return GinLogic(ruleset)


@hookimpl(trylast=True)
def gin_knock_limit(upcard: Card, options: Mapping[str, Any]) -> int:
    """GIN-KNOCK-1: a knocker keeps at most 10 points of deadwood."""
    return 10
