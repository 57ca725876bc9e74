"""Nertz (Pounce), simplified, a real-time game written from cardcore's docs alone (2026-12-15).

Registered in place with ``cardcore.register("cardcore.games", NAME, module)``. Rules:

* NERTZ-SEAT-1: 2 to 4 players.
* NERTZ-DECK-1: every seat plays its own 52-card deck: the game's deck is ``decks(players)``.
  Cards of one code are equal values, so owners are told apart by *where* a card lies
  (every pile but the foundations belongs to one seat) and, on the foundations, by the
  per-seat count ``played``. The deal gives the k-th occurrence of a code, counting from
  the top of the shuffled (or stacked, ``deck=``) shoe, to seat k: every seat gets one
  whole deck. Stacking seat 0's 52 cards first, then seat 1's, ... deals each block to
  its seat, in that order.
* NERTZ-DEAL-1: from its own deck, top first, a seat gets its nertz pile (``nertz.S``,
  13 cards, the first card on top, face up, the other 12 face down and known to nobody,
  owner included), one face-up card on each of its four work piles (``work.S.0`` ..
  ``work.S.3``, cards 14-17) and the other 35 as its face-down stock (``stock.S``,
  card 18 on top), hidden from everyone, owner included.
* NERTZ-FOUND-1: ``found <card> <f>``: a seat plays its own playable card (the top of its
  nertz pile, of its waste or of one of its work piles) onto the shared foundation ``f``
  when the foundation's top is the card one rank below in the same suit. An ace starts
  a foundation: it may go only on the lowest-numbered empty foundation (``4 * players``
  foundations, one per ace, so one is always empty while an ace is out).
* NERTZ-MOVE-1: ``move <card> <k>``: a playable card of the seat goes onto its own work
  pile ``k`` when that pile is empty or its top is one rank higher and of the other
  colour. A work pile's only card never moves to an empty work pile (nothing changes).
* NERTZ-STOCK-1: ``turn``: the seat turns up to three cards, one by one, from its stock
  onto its waste (``waste.S``); only the waste's top card shows (to everyone). With an
  empty stock, ``turn`` turns the waste over as the new stock (face down, forgotten).
* NERTZ-OWN-1: a seat plays only its own cards: a card that is not one of its playable
  cards (another seat's, a face-down one, one buried in a pile) is refused without
  saying where that card is.
* NERTZ-UP-1: whenever a nertz or waste card leaves, the new top card turns face up.
* NERTZ-END-1: the hand ends at once when a seat empties its nertz pile (it "calls nertz").
* NERTZ-STUCK-1: ``stuck``: a seat declares it can (or will) do nothing more; when every
  seat has declared, the hand ends. A card reaching a foundation or leaving a nertz pile
  clears every declaration.
* NERTZ-STUCK-2: option ``idle_limit``: after that many actions in a row with no card
  reaching a foundation and none leaving a nertz pile, the hand ends (nobody can move, or
  nobody does).
* NERTZ-SCORE-1: each seat scores +1 per card it put on the foundations and -2 per card
  left in its nertz pile; the highest score wins (ties share). Scores pass through
  ``score_round``.
* NERTZ-RT-1: no turns: every seat is in ``to_act`` until the hand ends.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    Rank,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    decks,
    hookimpl,
)
from cardcore.positions import check
from cardcore.turns import end_game, winners_by

NAME = "nertz-2026-12-15"
RULES_MD = __doc__
NERTZ_SIZE = 13
WORK = 4
PER_SEAT = 3 + WORK  # nertz, stock, waste, work 0..3


# --- actions ---
@frozen
class Found(Action):
    """Seat *seat* plays its playable *card* onto foundation *f* (NERTZ-FOUND-1)."""

    verb: ClassVar[str] = "found"
    card: Card
    f: int

    def notation(self) -> str:
        return f"found {self.card} {self.f}"


@frozen
class Move(Action):
    """Seat *seat* moves its playable *card* onto its work pile *k* (NERTZ-MOVE-1)."""

    verb: ClassVar[str] = "move"
    card: Card
    k: int

    def notation(self) -> str:
        return f"move {self.card} {self.k}"


@frozen
class Turn(Action):
    """Seat *seat* turns three stock cards onto its waste, or the waste over (NERTZ-STOCK-1)."""

    verb: ClassVar[str] = "turn"


@frozen
class Stuck(Action):
    """Seat *seat* declares it is stuck (NERTZ-STUCK-1)."""

    verb: ClassVar[str] = "stuck"


NertzAction = Found | Move | Turn | Stuck


# --- state ---
@cache
def layout(players: int) -> Layout:
    specs = [ZoneSpec(f"found.{f}", None, Visibility.TOP) for f in range(4 * players)]
    for s in range(players):
        specs.append(ZoneSpec(f"nertz.{s}", s, Visibility.TOP))
        specs.append(ZoneSpec(f"stock.{s}", s, Visibility.NOBODY))
        specs.append(ZoneSpec(f"waste.{s}", s, Visibility.TOP))
        specs += [ZoneSpec(f"work.{s}.{k}", s, Visibility.EVERYONE) for k in range(WORK)]
    return Layout.of(specs)


def nertz(players: int, seat: int) -> int:
    return 4 * players + PER_SEAT * seat


def stock(players: int, seat: int) -> int:
    return nertz(players, seat) + 1


def waste(players: int, seat: int) -> int:
    return nertz(players, seat) + 2


def work(players: int, seat: int, k: int) -> int:
    return nertz(players, seat) + 3 + k


class NertzState(GameState):
    __slots__ = ("caller", "idle", "played", "stuck")
    _mutable = ("zones", "played", "stuck")
    played: list[int]
    stuck: list[bool]
    idle: int
    caller: int


def _sources(state: NertzState, seat: int) -> list[int]:
    n = state.players
    return [nertz(n, seat), waste(n, seat), *(work(n, seat, k) for k in range(WORK))]


def _red(card: Card) -> bool:
    return card.suit is not None and card.suit.is_red


class NertzLogic(GameLogic[NertzState, NertzAction]):
    action_types = (Found, Move, Turn, Stuck)
    position_fields = ("to_act", "played", "stuck", "idle", "caller")

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        # every stretch of idle actions ends with progress (a foundation card or a nertz
        # card leaving) or the end; there are at most 52 + 13 such per seat.
        return (65 * players + 1) * (int(options["idle_limit"]) + players + 1)

    def blank_state(self, players: int, options: Mapping[str, Any]) -> NertzState:
        state = NertzState(players, options, Zones(layout(players)))
        state.played, state.stuck = [0] * players, [False] * players
        state.idle, state.caller = 0, -1
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> NertzState:
        state = self.blank_state(players, options)
        state.seed = seed
        zones = state.zones
        own: list[list[Card]] = [[] for _ in range(players)]
        count: dict[Card, int] = {}
        for card in reversed(cards):  # NERTZ-DECK-1: top first, k-th copy to seat k
            k = count.get(card, 0)
            count[card] = k + 1
            own[k].append(card)
        for s, mine in enumerate(own):  # NERTZ-DEAL-1
            pile = nertz(players, s)
            for card in reversed(mine[:NERTZ_SIZE]):
                # face down, known to nobody: put() on a TOP pile would mark each card
                # known to all (it is the top when put), so place card and mask together
                zones.cards[pile].append(card)
                zones.seen[pile].append(0)
            zones.reveal(pile)
            for k in range(WORK):
                zones.put(work(players, s, k), mine[NERTZ_SIZE + k], ALL)
            for card in reversed(mine[NERTZ_SIZE + WORK :]):
                zones.put(stock(players, s), card, 0)
        state.to_act = tuple(range(players))
        if emit is not None:
            emit(CardsDealt(tuple(52 for _ in range(players))))
        return state

    # --- legality ---
    def _playable(self, state: NertzState, seat: int) -> list[tuple[int, Card]]:
        cards = state.zones.cards
        return [(z, cards[z][-1]) for z in _sources(state, seat) if cards[z]]

    def _foundation_for(self, state: NertzState, card: Card) -> int | None:
        cards = state.zones.cards
        if card.rank is Rank.ACE:
            for f in range(4 * state.players):
                if not cards[f]:
                    return f
            return None
        return None

    def legal_actions(self, state: NertzState, seat: int) -> tuple[NertzAction, ...]:
        """``found`` (by source: nertz, waste, work 0-3; foundation ascending), ``move``
        (same source order, then work pile), ``turn``, ``stuck``."""
        if state.is_over:
            return ()
        n, cards = state.players, state.zones.cards
        out: list[NertzAction] = []
        playable = self._playable(state, seat)
        for _z, card in playable:
            if card.rank is Rank.ACE:
                f = self._foundation_for(state, card)
                if f is not None:
                    out.append(Found(seat, card, f))
                continue
            for f in range(4 * n):
                top = cards[f][-1] if cards[f] else None
                if (
                    top is not None
                    and top.suit is card.suit
                    and top.rank.value + 1 == card.rank.value
                ):
                    out.append(Found(seat, card, f))
        for z, card in playable:
            for k in range(WORK):
                dst = work(n, seat, k)
                if dst == z:
                    continue
                pile = cards[dst]
                if not pile:
                    if z >= work(n, seat, 0) and len(cards[z]) == 1:
                        continue
                    out.append(Move(seat, card, k))
                elif pile[-1].rank.value == card.rank.value + 1 and _red(pile[-1]) != _red(card):
                    out.append(Move(seat, card, k))
        if cards[stock(n, seat)] or cards[waste(n, seat)]:
            out.append(Turn(seat))
        if not state.stuck[seat]:
            out.append(Stuck(seat))
        return tuple(out)

    def rule_for(self, state: NertzState, action: NertzAction) -> tuple[str, str]:
        seat, n = action.seat, state.players
        if isinstance(action, (Found, Move)):
            if not any(c == action.card for _z, c in self._playable(state, seat)):
                return (
                    "NERTZ-OWN-1",
                    f"seat {seat} may play only the top card of its own nertz pile, waste"
                    f" or work piles, and {action.card} is not one of them",
                )
            if isinstance(action, Found):
                if not 0 <= action.f < 4 * n:
                    return "NERTZ-FOUND-1", f"there is no foundation {action.f} (0-{4 * n - 1})"
                return (
                    "NERTZ-FOUND-1",
                    f"{action.card} does not go on foundation {action.f} (an ace starts the"
                    " lowest empty foundation; other cards follow in suit, one rank up)",
                )
            if not 0 <= action.k < WORK:
                return "NERTZ-MOVE-1", f"there is no work pile {action.k} (0-{WORK - 1})"
            return (
                "NERTZ-MOVE-1",
                f"{action.card} does not go on work pile {action.k} (one rank down,"
                " other colour, or an empty pile)",
            )
        if isinstance(action, Turn):
            return "NERTZ-STOCK-1", f"seat {seat} has no stock and no waste to turn"
        return "NERTZ-STUCK-1", f"seat {seat} has already declared it is stuck"

    def default_action(self, state: NertzState, seat: int) -> NertzAction | None:
        return None

    # --- applying ---
    def _turn_up(self, state: NertzState, z: int) -> None:
        if state.zones.cards[z]:
            state.zones.reveal(z)  # NERTZ-UP-1

    def apply(self, state: NertzState, action: NertzAction, emit: Emit | None) -> None:
        seat, n, zones = action.seat, state.players, state.zones
        cards = zones.cards
        names = zones.layout
        progress = False
        if isinstance(action, (Found, Move)):
            src = next(z for z, c in self._playable(state, seat) if c == action.card)
            dst = action.f if isinstance(action, Found) else work(n, seat, action.k)
            card = zones.move(src, dst, mask=ALL)
            if emit is not None:
                emit(CardMoved(seat, _name(names, src), _name(names, dst), card))
            if src in (nertz(n, seat), waste(n, seat)):
                self._turn_up(state, src)
            if isinstance(action, Found):
                state.played[seat] += 1
                progress = True
            if src == nertz(n, seat):
                progress = True
        elif isinstance(action, Turn):
            st, wa = stock(n, seat), waste(n, seat)
            if cards[st]:
                k = min(3, len(cards[st]))
                for i in range(k):
                    # only the last card shows; move(mask=0) onto a TOP pile would still
                    # mark the card known to all, so place card and mask together
                    card, _old = zones.pop(st)
                    cards[wa].append(card)
                    zones.seen[wa].append(ALL if i == k - 1 else 0)
                    if emit is not None:
                        seen = ALL if i == k - 1 else 0  # only the new top shows
                        emit(CardMoved(seat, f"stock.{seat}", f"waste.{seat}", card, seen))
            else:  # the waste turned over: the new stock, face down, forgotten
                while cards[wa]:
                    card, _old = zones.pop(wa)
                    cards[st].append(card)
                    zones.seen[st].append(0)
        else:
            state.stuck[seat] = True
        if progress:
            state.idle = 0
            state.stuck = [False] * n
        else:
            state.idle += 1
        if not cards[nertz(n, seat)]:  # NERTZ-END-1
            state.caller = seat
            self._finish(state, "nertz")
        elif all(state.stuck):  # NERTZ-STUCK-1
            self._finish(state, "stuck")
        elif state.idle >= state.options["idle_limit"]:  # NERTZ-STUCK-2
            self._finish(state, "idle limit")
        else:
            state.to_act = tuple(range(n))

    def _raw(self, state: NertzState) -> list[int]:
        n, cards = state.players, state.zones.cards
        return [state.played[s] - 2 * len(cards[nertz(n, s)]) for s in range(n)]

    def _finish(self, state: NertzState, reason: str) -> None:
        made = self.score_round(state, self._raw(state))  # NERTZ-SCORE-1
        end_game(state, winners_by(made, lowest=False), tuple(map(float, made)), reason)

    def scores(self, state: NertzState) -> tuple[float, ...]:
        return tuple(map(float, self._raw(state)))

    def standings(self, state: NertzState) -> tuple[int, ...]:
        return winners_by(self._raw(state), lowest=False)

    def table(self, state: NertzState, seat: int | None) -> dict[str, Any]:
        n, cards = state.players, state.zones.cards
        return {
            "nertz": [len(cards[nertz(n, s)]) for s in range(n)],
            "stock": [len(cards[stock(n, s)]) for s in range(n)],
            "waste": [len(cards[waste(n, s)]) for s in range(n)],
            "played": list(state.played),
            "stuck": list(state.stuck),
            "idle": state.idle,
            "caller": None if state.caller < 0 else state.caller,
        }

    def check_position(self, state: NertzState) -> None:
        n = state.players
        check(all(p >= 0 for p in state.played), "played must be at least 0, not {}", state.played)
        check(
            all(isinstance(x, bool) for x in state.stuck),
            "stuck must hold true or false, not {}",
            state.stuck,
        )
        check(state.idle >= 0, "idle must be at least 0, not {}", state.idle)
        check(-1 <= state.caller < n, "caller must be a seat or -1, not {}", state.caller)
        check(
            state.is_over or state.to_act == tuple(range(n)),
            "to_act must be every seat {}",
            list(range(n)),
        )


def _name(layout_: Layout, z: int) -> str:
    return str(layout_.specs[z].name)


GAME = GameInfo(
    NAME,
    "Nertz (Pounce): race your nertz pile onto shared foundations in real time",
    2,
    4,
    options=(
        Option(
            "idle_limit",
            default=200,
            minimum=10,
            maximum=5000,
            doc="Actions in a row without foundation or nertz progress that end the hand",
            rule_id="NERTZ-STUCK-2",
        ),
    ),
    realtime=True,
    version="1.0.0",
    fields=(
        ViewField("nertz", "per-seat", "Cards in each seat's nertz pile", of="int"),
        ViewField("stock", "per-seat", "Cards in each seat's stock", of="int"),
        ViewField("waste", "per-seat", "Cards in each seat's waste", of="int"),
        ViewField("played", "per-seat", "Cards each seat put on the foundations", of="int"),
        ViewField("stuck", "per-seat", "Whether each seat declared it is stuck", of="bool"),
        ViewField("idle", "int", "Actions since the last foundation or nertz progress"),
        ViewField("caller", "seat", "The seat that called nertz", nullable=True),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> NertzLogic:
    return NertzLogic(ruleset)


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """NERTZ-DECK-1: one standard deck per seat."""
    return decks(players)
