"""Spoons: a real-time party game for 3 to 6 players, written from cardcore's docs alone.

Every seat still in plays at once (``GameInfo(realtime=True)``): the dealer draws
from the stock, every other player takes the oldest card queued in front of it,
and everyone holding five cards passes one, face down, to the next player on the
left (the last player before the dealer throws it on the discard pile). Four of
a kind lets a player take a spoon; once one spoon is gone anyone may grab one.
There is one spoon fewer than players: whoever is left without one gets a letter
of S-P-O-O-N, and five letters put a player out. The rules, each with its ID,
are in :data:`RULES_MD`.

Notation: ``draw`` (the dealer), ``take`` (the oldest queued card), ``pass <pos>``
(a hand position, top first as the owner's view lists the hand, never the card:
a pass is face down) and ``grab <hand>`` (the hand number, so a grab aimed at an
earlier hand is stale, never applied to a later one).
"""

from __future__ import annotations

import types
from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
    Action,
    Card,
    CardDrawn,
    CardMoved,
    CardsDealt,
    Emit,
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
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
from cardcore.turns import end_game, seats_from, winners_by

RULES_MD = """\
# Spoons

Seats `0..N-1`; "left of seat i" is the next seat still in after i, counting up.

| ID | Rule |
|---|---|
| SPOONS-GEN-1 | `[S]` 3 to 6 players, one 52-card deck, no jokers. |
| SPOONS-DEAL-1 | `[S]` The dealer deals 4 cards to each player still in, one at a time, starting on the dealer's left; the rest is the face-down stock. `[D]` Seat 0 deals first; the deal passes left after every hand. |
| SPOONS-SPOON-1 | `[S]` There is one spoon fewer than players still in; the number left is public. |
| SPOONS-RT-1 | `[S]` There are no turns: every player still in may act at any time. |
| SPOONS-DRAW-1 | `[S]` The dealer, holding 4 cards, draws the top card of the stock (`draw`). |
| SPOONS-TAKE-1 | `[S]` Every other player, holding 4 cards, takes the oldest card passed to it (`take`); passed cards queue face down in front of a slow player, their number public. |
| SPOONS-PASS-1 | `[S]` A player holding 5 cards passes one face down to the player on its left (`pass <pos>`, a hand position, top first); the player before the dealer throws it on the face-down discard pile. A player never holds more than 5 cards. |
| SPOONS-STOCK-1 | `[S~]` When the stock is empty the dealer's `draw` first shuffles the discard pile into a new stock, at most `reshuffles` times a hand. |
| SPOONS-STOCK-2 | `[D]` When the stock is empty, no reshuffle is left and nobody has taken a spoon, the hand is void: no letter, the next dealer deals. |
| SPOONS-GRAB-1 | `[S]` A player holding four cards of one rank may take a spoon (`grab <hand>`). |
| SPOONS-GRAB-2 | `[S]` Once a spoon has been taken, any player without one may take one. |
| SPOONS-GRAB-3 | `[S]` One spoon per player per hand. `[D]` A grab names its hand; one aimed at an earlier hand is refused. |
| SPOONS-LETTER-1 | `[S]` When the last spoon is taken the player left without one gets a letter of S-P-O-O-N. |
| SPOONS-OUT-1 | `[S]` A player with five letters is out: it holds no cards and takes no part. |
| SPOONS-END-1 | `[S]` The last player still in wins. |
| SPOONS-END-2 | `[D]` After `max_hands` hands (void ones included) the game ends: fewest letters win, ties share. |
| SPOONS-VIEW-1 | `[D]` Hands, queued cards, the stock and the discards are face down; the spoons left, who holds one, the letters and the queue sizes are public. |
| SPOONS-VAR-1 | `[V]` House rule `spoons.short-word`: out at `spoons_letters` letters instead of five (PIG: 3). |
"""

WORD = "SPOON"
"""The letters of the game: five put a player out (SPOONS-OUT-1)."""

STOCK, DISCARD = 0, 1


def hand(seat: int) -> int:
    """The zone id of *seat*'s hand."""
    return 2 + seat


def queue(seat: int, players: int) -> int:
    """The zone id of the cards passed to *seat*, oldest on top."""
    return 2 + players + seat


@cache
def layout(players: int) -> Layout:
    """``stock``, ``discard``, ``hand.0`` ... and ``queue.0`` ..."""
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    queues = [ZoneSpec(f"queue.{s}", s, Visibility.NOBODY) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("discard"), *hands, *queues])


# --- the game's own hook (built in place, as a one-file game does) -------------


def _out_at_spec(options: Mapping[str, Any]) -> int:  # pragma: no cover - a specification
    """Return how many letters put a player out.

    The first answer wins; the game answers ``len("SPOON")`` (``trylast``).

    :param options: The game's resolved options (a house rule's own included).
    :returns: A whole number of at least 1.
    """
    raise NotImplementedError


hookspecs = types.ModuleType("spoons_hookspecs")
hookspecs.spoons_out_at = hookspec(firstresult=True)(_out_at_spec)  # type: ignore[attr-defined]


@hookimpl(trylast=True)
def spoons_out_at(options: Mapping[str, Any]) -> int:
    """Five letters, S-P-O-O-N (SPOONS-OUT-1)."""
    return len(WORD)


# --- actions -------------------------------------------------------------------


@frozen
class Draw(Action):
    """The dealer draws the top stock card (SPOONS-DRAW-1)."""

    verb: ClassVar[str] = "draw"


@frozen
class Take(Action):
    """A player takes the oldest card queued in front of it (SPOONS-TAKE-1)."""

    verb: ClassVar[str] = "take"


@frozen
class Pass(Action):
    """A player passes the card at hand position *pos*, top first (SPOONS-PASS-1)."""

    pos: int
    verb: ClassVar[str] = "pass"

    def notation(self) -> str:
        return f"pass {self.pos}"


@frozen
class Grab(Action):
    """A player takes a spoon in hand number *hand* (SPOONS-GRAB-1..3)."""

    hand: int
    verb: ClassVar[str] = "grab"

    def notation(self) -> str:
        return f"grab {self.hand}"


SpoonsAction = Draw | Take | Pass | Grab
draw, take, pass_, grab = cache(Draw), cache(Take), cache(Pass), cache(Grab)


# --- events --------------------------------------------------------------------


class SpoonTaken(Event):
    """Seat *seat* took a spoon; *left* remain on the table."""

    slug: ClassVar[str] = "spoons-spoon-taken"
    seat: int
    left: int


class LetterGiven(Event):
    """Seat *seat* was left without a spoon and now has *letters* letters (*out*: it is out)."""

    slug: ClassVar[str] = "spoons-letter-given"
    seat: int
    letters: int
    out: bool


class HandVoided(Event):
    """Hand *hand* ended without a spoon taken and with no reshuffle left (SPOONS-STOCK-2)."""

    slug: ClassVar[str] = "spoons-hand-voided"
    hand: int


# --- state ---------------------------------------------------------------------


class SpoonsState(GameState):
    """The cards, the dealer, the hand number, letters and spoons."""

    __slots__ = ("dealer", "hand_no", "letters", "log", "out_at", "reshuffles", "spoons")
    _mutable = ("zones", "letters", "spoons", "log")
    dealer: int
    hand_no: int
    letters: list[int]
    spoons: list[bool]
    reshuffles: int
    log: list[int]
    """Per finished hand, the seat that got a letter, or -1 for a void hand."""
    out_at: int


class SpoonsLogic(GameLogic[SpoonsState, SpoonsAction]):
    """Spoons for 3 to 6 players; every seat still in acts at once."""

    action_types = (Draw, Take, Pass, Grab)
    position_fields = ("to_act", "dealer", "hand_no", "letters", "spoons", "reshuffles", "log")
    max_legal = 7

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        out_at = ruleset.resolve("spoons_out_at")
        assert out_at is not None  # the game answers it itself
        self._out_at = out_at

    # configuration ----------------------------------------------------------

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        # every card drawn or dealt is passed at most once by each seat: 2 actions a seat
        cards = 52 * (int(options["reshuffles"]) + 1) + 4 * players
        return int(options["max_hands"]) * (cards * 2 * players + players + 1)

    def out_letters(self, options: Mapping[str, Any]) -> int:
        return int(self.checked_answer("spoons_out_at", self._out_at(options=options), int))

    def blank_state(self, players: int, options: Mapping[str, Any]) -> SpoonsState:
        state = SpoonsState(players, options, Zones(layout(players)))
        state.dealer, state.hand_no, state.reshuffles = 0, 1, 0
        state.letters, state.spoons, state.log = [0] * players, [False] * players, []
        state.out_at = max(1, self.out_letters(options))
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> SpoonsState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    # helpers ----------------------------------------------------------------

    def active(self, state: SpoonsState) -> list[int]:
        return [s for s in range(state.players) if state.letters[s] < state.out_at]

    def left_of(self, state: SpoonsState, seat: int) -> int:
        """The next seat still in after *seat* (SPOONS-PASS-1)."""
        for step in range(1, state.players + 1):
            other = (seat + step) % state.players
            if state.letters[other] < state.out_at:
                return other
        return seat

    def spoons_left(self, state: SpoonsState) -> int:
        return len(self.active(state)) - 1 - sum(state.spoons)  # SPOONS-SPOON-1

    def _deal(self, state: SpoonsState, emit: Emit | None) -> None:
        """SPOONS-DEAL-1: four cards to each seat still in, from the dealer's left."""
        seats = [
            s for s in seats_from(state.dealer, state.players) if state.letters[s] < state.out_at
        ]
        order = seats[1:] + seats[:1]
        deal_round_robin(state, STOCK, [hand(s) for s in order], 4)
        state.spoons = [False] * state.players
        state.reshuffles = 0
        state.to_act = tuple(sorted(seats))
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(state.players))))

    def _next_hand(self, state: SpoonsState, emit: Emit | None) -> None:
        active = self.active(state)
        if len(active) == 1:  # SPOONS-END-1
            end_game(state, (active[0],), [float(n) for n in state.letters], "last player in")
            return
        if len(state.log) >= state.options["max_hands"]:  # SPOONS-END-2
            end_game(state, self.standings(state), [float(n) for n in state.letters], "hand limit")
            return
        state.hand_no += 1
        state.dealer = self.left_of(state, state.dealer)
        gather(state, STOCK)
        if emit is not None:
            emit(Shuffled("stock", len(state.zones.cards[STOCK])))
        self._deal(state, emit)

    # legality ---------------------------------------------------------------

    def legal_actions(self, state: SpoonsState, seat: int) -> tuple[SpoonsAction, ...]:
        """``draw`` or ``take``, then ``pass 0`` .. ``pass 4``, then ``grab <hand>``."""
        if state.is_over or state.letters[seat] >= state.out_at:
            return ()
        cards = state.zones.cards
        held = cards[hand(seat)]
        out: list[SpoonsAction] = []
        if len(held) == 4:
            if seat == state.dealer:
                if cards[STOCK] or (
                    cards[DISCARD] and state.reshuffles < state.options["reshuffles"]
                ):
                    out.append(draw(seat))
            elif cards[queue(seat, state.players)]:
                out.append(take(seat))
        elif len(held) == 5:
            out.extend(pass_(seat, p) for p in range(5))
        if self._may_grab(state, seat):
            out.append(grab(seat, state.hand_no))
        return tuple(out)

    def _may_grab(self, state: SpoonsState, seat: int) -> bool:
        if state.spoons[seat] or self.spoons_left(state) <= 0:
            return False
        if any(state.spoons):  # SPOONS-GRAB-2
            return True
        counts = Counter(c.rank for c in state.zones.cards[hand(seat)])
        return max(counts.values(), default=0) >= 4  # SPOONS-GRAB-1

    def rule_for(self, state: SpoonsState, action: SpoonsAction) -> tuple[str, str]:
        seat = action.seat
        held = len(state.zones.cards[hand(seat)])
        if isinstance(action, Grab):
            if action.hand != state.hand_no:
                return "SPOONS-GRAB-3", f"this is hand {state.hand_no}, not hand {action.hand}"
            if state.spoons[seat]:
                return "SPOONS-GRAB-3", f"seat {seat} already holds a spoon"
            if self.spoons_left(state) <= 0:
                return "SPOONS-SPOON-1", "no spoon is left"
            return (
                "SPOONS-GRAB-1",
                f"seat {seat} holds no four of a kind and no spoon has been taken",
            )
        if isinstance(action, Pass):
            if held != 5:
                return (
                    "SPOONS-PASS-1",
                    f"seat {seat} holds {held} cards: it passes only when holding 5",
                )
            return "SPOONS-PASS-1", f"a hand of 5 has positions 0 to 4, not {action.pos}"
        if isinstance(action, Draw):
            if seat != state.dealer:
                return (
                    "SPOONS-DRAW-1",
                    f"only the dealer (seat {state.dealer}) draws from the stock",
                )
            if held != 4:
                return "SPOONS-PASS-1", f"seat {seat} must pass a card before drawing again"
            return "SPOONS-STOCK-1", "the stock is empty and cannot be rebuilt now"
        if seat == state.dealer:
            return "SPOONS-TAKE-1", "the dealer draws from the stock; nothing is passed to it"
        if held != 4:
            return "SPOONS-PASS-1", f"seat {seat} must pass a card before taking another"
        return "SPOONS-TAKE-1", f"no card is queued in front of seat {seat}"

    def waiting_rule(self, state: SpoonsState, action: SpoonsAction) -> tuple[str, str] | None:
        if state.letters[action.seat] >= state.out_at:
            return "SPOONS-OUT-1", f"seat {action.seat} is out of the game"
        return None

    # apply --------------------------------------------------------------------

    def apply(self, state: SpoonsState, action: SpoonsAction, emit: Emit | None) -> None:
        z, seat, players = state.zones, action.seat, state.players
        if isinstance(action, Grab):
            state.spoons[seat] = True
            left = self.spoons_left(state)
            if emit is not None:
                emit(SpoonTaken(seat, left))
            if left == 0:  # SPOONS-LETTER-1
                loser = next(s for s in self.active(state) if not state.spoons[s])
                state.letters[loser] += 1
                state.log.append(loser)
                out = state.letters[loser] >= state.out_at
                if emit is not None:
                    emit(LetterGiven(loser, state.letters[loser], out))
                if out:  # SPOONS-OUT-1: its cards go back with the others at the next deal
                    state.to_act = tuple(s for s in state.to_act if s != loser)
                self._next_hand(state, emit)
            return
        if isinstance(action, Draw):
            if not z.cards[STOCK]:  # SPOONS-STOCK-1
                while z.cards[DISCARD]:
                    z.move(DISCARD, STOCK, mask=0)
                z.shuffle(STOCK, state.rng())
                state.reshuffles += 1
                if emit is not None:
                    emit(Shuffled("stock", len(z.cards[STOCK])))
            card = z.move(STOCK, hand(seat), mask=1 << seat)
            if emit is not None:
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
        elif isinstance(action, Take):
            src = queue(seat, players)
            card = z.move(src, hand(seat))
            if emit is not None:
                emit(CardDrawn(seat, f"queue.{seat}", card, visible_to=z.seen[hand(seat)][-1]))
        else:
            cards = z.cards[hand(seat)]
            card, mask = z.pop(hand(seat), len(cards) - 1 - action.pos)
            receiver = self.left_of(state, seat)
            if receiver == state.dealer:
                dst, name = DISCARD, "discard"
                z.put(DISCARD, card, mask)
            else:
                dst, name = queue(receiver, players), f"queue.{receiver}"
                z.insert(dst, 0, card, mask)  # the newest card queues under the older ones
            if emit is not None:
                emit(
                    CardMoved(
                        seat,
                        f"hand.{seat}",
                        name,
                        card,
                        visible_to=z.seen[dst][0 if dst != DISCARD else -1],
                    )
                )
        if (
            not z.cards[STOCK]
            and state.reshuffles >= state.options["reshuffles"]
            and not any(state.spoons)
        ):  # SPOONS-STOCK-2
            state.log.append(-1)
            if emit is not None:
                emit(HandVoided(state.hand_no))
            self._next_hand(state, emit)

    # ends ---------------------------------------------------------------------

    def resign(self, state: SpoonsState, seat: int) -> None:
        winners = tuple(s for s in self.active(state) if s != seat)
        end_game(state, winners, [float(n) for n in state.letters], "resigned")

    def scores(self, state: SpoonsState) -> tuple[float, ...]:
        return tuple(float(n) for n in state.letters)

    def standings(self, state: SpoonsState) -> tuple[int, ...]:
        return tuple(winners_by([float(n) for n in state.letters]))

    def default_action(self, state: SpoonsState, seat: int) -> SpoonsAction | None:
        """An idle seat grabs when it may, else keeps the cards moving: it picks up, and
        passes the card of the rank it holds least (newest first); else nothing now."""
        legal = self.legal_actions(state, seat)
        grabs = [a for a in legal if isinstance(a, Grab)]
        if grabs:
            return grabs[0]
        pick = [a for a in legal if isinstance(a, Draw | Take)]
        if pick:
            return pick[0]
        if any(isinstance(a, Pass) for a in legal):
            shown = list(reversed(state.zones.cards[hand(seat)]))  # top first, as positions count
            counts = Counter(c.rank for c in shown)
            return pass_(seat, min(range(5), key=lambda p: (counts[shown[p].rank], p)))
        return None

    # views and positions ------------------------------------------------------

    def table(self, state: SpoonsState, seat: int | None) -> dict[str, Any]:
        z, players = state.zones, state.players
        return {
            "dealer": state.dealer,
            "hand_no": state.hand_no,
            "spoons_left": max(0, self.spoons_left(state)) if not state.is_over else 0,
            "spoons": list(state.spoons),
            "letters": list(state.letters),
            "word": [WORD[:n] if state.out_at == len(WORD) else "*" * n for n in state.letters],
            "out": [n >= state.out_at for n in state.letters],
            "queued": [len(z.cards[queue(s, players)]) for s in range(players)],
            "stock": len(z.cards[STOCK]),
            "discard": len(z.cards[DISCARD]),
            "reshuffles": state.reshuffles,
        }

    def history(self, state: SpoonsState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return [
            {"hand": i + 1, "letter_to": None if s < 0 else s}
            for i, s in enumerate(state.log)
            if i >= since
        ]

    def check_position(self, state: SpoonsState) -> None:
        players, cards = state.players, state.zones.cards
        active = self.active(state)
        check(
            all(0 <= n <= state.out_at for n in state.letters),
            "letters must lie in 0..{}",
            state.out_at,
        )
        if state.is_over:
            return
        check(len(active) >= 2, "at least two seats must still be in (SPOONS-END-1)")
        check(list(state.to_act) == active, "to_act must be the seats still in, {}", active)
        check(state.dealer in active, "the dealer must still be in (SPOONS-DEAL-1)")
        check(state.hand_no >= 1, "hand_no counts from 1")
        check(0 <= state.reshuffles <= state.options["reshuffles"], "reshuffles out of range")
        check(sum(state.spoons) <= len(active) - 2, "at most {} spoons taken", len(active) - 2)
        for s in range(players):
            n = len(cards[hand(s)])
            if s in active:
                check(n in (4, 5), "hand.{} must hold 4 or 5 cards (SPOONS-PASS-1)", s)
            else:
                check(
                    n == 0 and not cards[queue(s, players)] and not state.spoons[s],
                    "seat {} is out and holds nothing (SPOONS-OUT-1)",
                    s,
                )
        check(not cards[queue(state.dealer, players)], "nothing is passed to the dealer")


GAME = GameInfo(
    "spoons",
    "Spoons: pass cards at once, grab a spoon on four of a kind; no spoon, a letter",
    3,
    6,
    realtime=True,
    version="1.0.0",
    hookspecs=hookspecs,
    options=(
        Option(
            "max_hands",
            100,
            "Hands played at most; then fewest letters win",
            minimum=1,
            maximum=1000,
            rule_id="SPOONS-END-2",
        ),
        Option(
            "reshuffles",
            2,
            "How often a hand's discards may become a new stock",
            minimum=0,
            maximum=10,
            rule_id="SPOONS-STOCK-1",
        ),
    ),
    fields=(
        ViewField("dealer", "seat", "The seat that draws from the stock this hand."),
        ViewField("hand_no", "int", "The number of the hand being played, from 1."),
        ViewField("spoons_left", "int", "Spoons still on the table."),
        ViewField("spoons", "per-seat", "Who holds a spoon this hand.", of="bool"),
        ViewField("letters", "per-seat", "Letters of S-P-O-O-N each seat has.", of="int"),
        ViewField("word", "per-seat", "The letters each seat has, spelled.", of="str"),
        ViewField("out", "per-seat", "Seats out of the game.", of="bool"),
        ViewField("queued", "per-seat", "Cards passed to each seat and not yet taken.", of="int"),
        ViewField("stock", "int", "Cards in the stock."),
        ViewField("discard", "int", "Cards on the face-down discard pile."),
        ViewField("reshuffles", "int", "How often this hand's discards became the stock."),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> SpoonsLogic:
    """Build the engine of a configuration of Spoons."""
    return SpoonsLogic(ruleset)


class SpoonsQuickAgent:
    """A real-time agent: keeps the ranks it holds most, grabs at once, reacts in *reaction* s."""

    games = ("spoons",)
    parameter_bounds: ClassVar[dict[str, tuple[float, float]]] = {"reaction": (0.0, 60.0)}

    def __init__(self, seed: int = 0, reaction: float = 0.3) -> None:
        self.seed, self.reaction = seed, reaction

    def plan(self, view: Mapping[str, Any], legal: Any, now: float) -> Any:
        from cardcore import Plan

        if not legal:
            return None
        for action in legal:
            if isinstance(action, Grab):
                return Plan(action, self.reaction / 2)
        passes = [a for a in legal if isinstance(a, Pass)]
        if passes:
            seat = view["seat"]
            shown = next(zone["cards"] for zone in view["zones"] if zone["name"] == f"hand.{seat}")
            counts = Counter(str(c)[:-1] for c in shown)
            pos = min(range(len(shown)), key=lambda p: (counts[str(shown[p])[:-1]], p))
            return Plan(pass_(seat, pos), self.reaction)
        return Plan(legal[0], self.reaction)
