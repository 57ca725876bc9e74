"""President, written from cardcore's docs by a first-time plugin author (2026-12-15).

Registered in place with ``cardcore.register("cardcore.games", NAME, module)`` (see
docs/plugin-guide/entry-points.rst, "Without installing"). One module: the rules text, the
game's own hookspec (built in place, docs/plugin-guide/hookspecs.rst), actions, events,
state, logic and ``GAME``.

Modelling choices:

* A pass does NOT shut a seat out of the trick (PRES-PASS-1): the trick ends when every other
  seat still in passes in a row after the last play.
* The Scum's two best cards (and the Vice-Scum's best) go to the President (the Vice) at once,
  as the new deal's automatic step (PRES-EXCH-1): they are forced, not a decision.
* The President and the Vice then give back in one simultaneous phase (both in ``to_act``,
  PRES-EXCH-2), one card per action, named by its position in the hand (``give 3``, top
  first), since every action's text is public (docs/plugin-guide/game.rst, "Views"). Hands are
  never sorted: their order is the deal's, and every card received is slipped in at a random
  place, so a position names no card to anyone but the owner.
* The revolution is a house rule through the game's own hook ``president_revolution``.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
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
    NotationError,
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
from cardcore.dealing import deal_all, fill_stock
from cardcore.errors import PluginError
from cardcore.notation import parse_int
from cardcore.positions import check
from cardcore.turns import end_game, next_seat, winners_by

NAME = "president-2026-12-15"

RULES_MD = """\
# President -- rule IDs

| ID | rule |
|----|------|
| PRES-SEAT-1 | 4 to 6 players. |
| PRES-DEAL-1 | One 52-card deck dealt out entirely, one card at a time from seat 0 (uneven hands allowed). Round 1: seat 0 leads. |
| PRES-RANK-1 | Ranks run 3 (low) 4 ... K A 2 (high); suits do not count. |
| PRES-LEAD-1 | The leader plays one card or a set of 2-4 cards of one rank; the leader may not pass. |
| PRES-FOLLOW-1 | Each next seat plays the same number of cards of a higher rank, or passes. |
| PRES-PASS-1 | A pass does not shut a seat out: it may play again when its turn comes round in the same trick. |
| PRES-TRICK-1 | When every other seat still in passes in a row after a play, the trick is cleared and the last seat to play leads; if it is out, the next seat still in leads. |
| PRES-OUT-1 | A seat that plays its last card is out for the round and skipped; when one seat is left holding cards, the round ends and it is last. |
| PRES-TITLE-1 | Finishing order gives titles: President, Vice, Citizen..., Vice-Scum, Scum. |
| PRES-SCORE-1 | Each round a seat scores players - 1 - its place (President players-1, Scum 0). |
| PRES-EXCH-1 | From round 2, after the deal, the Scum's two best cards go to the President and the Vice-Scum's best card to the Vice, at once (ties of rank: the suit order C D H S, highest last). |
| PRES-EXCH-2 | Then the President gives back any two cards to the Scum and the Vice any one card to the Vice-Scum, both at once (`give p`, p the position in the hand, top first). Only the two seats of a swap know its cards. |
| PRES-LEAD-2 | From round 2 the Scum leads once the exchange is done. |
| PRES-MATCH-1 | Option `rounds` (1-10): after that many rounds the highest total wins; ties share. |
| PRES-NOTE-1 | `play <cards>` (1-4 distinct cards, any order, written sorted by rank then suit), `pass`, `give <p>`. |
"""

LABELS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
"""Rank words from low to high (PRES-RANK-1)."""
SUITS = "CDHS"


def power(card: Card) -> int:
    """The card's rank index, 0 (3) to 12 (2)."""
    return LABELS.index(card.label)


def sort_key(card: Card) -> tuple[int, int]:
    return power(card), SUITS.index(str(card)[-1])


def title(place: int, players: int) -> str:
    """The title of finishing *place* (0-based) among *players* (PRES-TITLE-1)."""
    if place == 0:
        return "President"
    if place == players - 1:
        return "Scum"
    if place == 1:
        return "Vice"
    if place == players - 2:
        return "Vice-Scum"
    return "Citizen"


# --- the game's own hookspec, in a module built in place --------------------------------


def _revolution_spec(cards: Sequence[Card], options: Mapping[str, Any]) -> bool:
    """Say whether a play of *cards* reverses the rank order (until the next such play).

    The first answer that is not ``None`` wins.

    :param cards: The cards just played (one rank).
    :param options: The game's options (a house rule's own options among them).
    :returns: ``True`` to reverse the order.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


hookspecs = types.ModuleType(f"{__name__}_hookspecs")
hookspecs.president_revolution = hookspec(firstresult=True)(_revolution_spec)  # type: ignore[attr-defined]


# --- actions -------------------------------------------------------------------------------


@frozen
class Play(Action):
    """Seat *seat* plays *cards* (one rank, sorted) face up."""

    cards: tuple[Card, ...]
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return "play " + " ".join(str(c) for c in self.cards)


@frozen
class Pass(Action):
    """Seat *seat* passes (PRES-PASS-1: it stays in the trick)."""

    verb: ClassVar[str] = "pass"


@frozen
class Give(Action):
    """Seat *seat* gives the card at position *pos* of its hand (top first) in the exchange."""

    pos: int
    verb: ClassVar[str] = "give"

    def notation(self) -> str:
        return f"give {self.pos}"


PresAction = Play | Pass | Give


# --- events --------------------------------------------------------------------------------


class WentOut(Event):
    """Seat *seat* played its last card and finished *place* (0-based)."""

    slug: ClassVar[str] = "president-went-out"
    seat: int
    place: int


class TrickCleared(Event):
    """Every other seat passed: seat *leader* leads the next trick."""

    slug: ClassVar[str] = "president-trick-cleared"
    leader: int


class Revolution(Event):
    """The rank order is now reversed (*reversed* true) or normal again."""

    slug: ClassVar[str] = "president-revolution"
    reversed: bool


# --- state ---------------------------------------------------------------------------------

STOCK, TABLE, DISCARD = 0, 1, 2


def hand(seat: int) -> int:
    return 3 + seat


_LAYOUTS: dict[int, Layout] = {}


def layout(players: int) -> Layout:
    if players not in _LAYOUTS:
        hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
        _LAYOUTS[players] = Layout.of(
            [
                ZoneSpec("stock"),
                ZoneSpec("table", None, Visibility.EVERYONE),
                ZoneSpec("discard", None, Visibility.EVERYONE),
                *hands,
            ]
        )
    return _LAYOUTS[players]


class PresState(GameState):
    """Piles: ``stock`` (only between deals), ``table`` (the trick), ``discard``, hands."""

    __slots__ = (
        "count",
        "finished",
        "gives",
        "last",
        "passes",
        "phase",
        "prev",
        "reversed",
        "round",
        "top",
        "totals",
    )
    _mutable = ("zones", "totals", "gives")
    phase: str  # "play" or "exchange"
    round: int  # 1-based
    count: int  # cards per play in this trick; 0: a lead is due
    top: int  # rank index of the trick's top play, -1 none
    last: int  # the seat that played last in this trick, -1 none
    passes: int  # passes in a row since the last play
    finished: tuple[int, ...]  # this round's finishing order so far
    prev: tuple[int, ...]  # the previous round's finishing order (titles)
    totals: list[int]
    reversed: bool  # the rank order is reversed (revolution house rule)
    gives: list[int]  # exchange: cards each seat still gives back


# --- logic ---------------------------------------------------------------------------------


class PresLogic(GameLogic[PresState, PresAction]):
    """President for 4 to 6 players."""

    position_fields = (
        "to_act",
        "phase",
        "round",
        "count",
        "top",
        "last",
        "passes",
        "finished",
        "prev",
        "totals",
        "reversed",
        "gives",
    )
    max_legal = 64  # 13 cards hold at most 3 x 15 sets + 1 single + pass = 47

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        answer = ruleset.resolve("president_revolution")
        if answer is None:
            raise PluginError("president_revolution has no implementation")
        self._revolution = answer

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return int(options["rounds"]) * (52 * players + 20) + 10

    def blank_state(self, players: int, options: Mapping[str, Any]) -> PresState:
        state = PresState(players, options, Zones(layout(players)))
        state.phase, state.round, state.count, state.top, state.last = "play", 1, 0, -1, -1
        state.passes, state.finished, state.prev = 0, (), ()
        state.totals, state.reversed, state.gives = [0] * players, False, [0] * players
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> PresState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_all(state, STOCK, [hand(s) for s in range(players)])  # PRES-DEAL-1
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(players))))
        return state

    # -- notation --

    def parse_action(self, state: PresState, seat: int, text: str) -> PresAction:
        words = text.split()
        if not words:
            raise NotationError("empty action: expected play, pass or give (PRES-NOTE-1)")
        verb, args = words[0].lower(), words[1:]
        if verb == "pass" and not args:
            return Pass(seat)
        if verb == "give" and len(args) == 1:
            return Give(seat, parse_int(args[0]))
        if verb == "play" and 1 <= len(args) <= 4:
            cards = [Card.parse(w) for w in args]
            if any(c.suit is None for c in cards):  # (found by the kit's card-not-in-the-game try)
                raise NotationError(f"no joker is dealt in President: {text!r} (PRES-NOTE-1)")
            if len(set(cards)) != len(cards):
                raise NotationError(f"a card is named twice in {text!r} (PRES-NOTE-1)")
            return Play(seat, tuple(sorted(cards, key=sort_key)))
        raise NotationError(
            f"expected 'play <1-4 cards>', 'pass' or 'give <p>', not {text!r} (PRES-NOTE-1)"
        )

    # -- legality --

    def beats(self, state: PresState, rank: int) -> bool:
        if state.top < 0:
            return True
        return rank < state.top if state.reversed else rank > state.top

    def legal_actions(self, state: PresState, seat: int) -> tuple[PresAction, ...]:
        """Exchange: ``give 0`` ... ``give n-1``. Play: every set the seat may play, by rank
        (low to high) then size then suits, then ``pass`` when following."""
        if seat not in state.to_act:
            return ()
        cards = state.zones.cards[hand(seat)]
        if state.phase == "exchange":
            return tuple(Give(seat, p) for p in range(len(cards)))
        by_rank: dict[int, list[Card]] = {}
        for c in sorted(cards, key=sort_key):
            by_rank.setdefault(power(c), []).append(c)
        out: list[PresAction] = []
        sizes = (state.count,) if state.count else (1, 2, 3, 4)
        for rank in sorted(by_rank):
            if not self.beats(state, rank):
                continue
            group = by_rank[rank]
            for size in sizes:
                for combo in _combos(group, size):
                    out.append(Play(seat, combo))
        if state.count:
            out.append(Pass(seat))
        return tuple(out)

    def rule_for(self, state: PresState, action: PresAction) -> tuple[str, str]:
        seat = action.seat
        held = state.zones.cards[hand(seat)]
        if state.phase == "exchange":
            if not isinstance(action, Give):
                return "PRES-EXCH-2", f"seat {seat} gives back a card now: 'give <p>'"
            return (
                "PRES-EXCH-2",
                f"seat {seat} holds {len(held)} cards: give a position from 0 to "
                f"{len(held) - 1}, not {action.pos}",
            )
        if isinstance(action, Give):
            return "PRES-EXCH-2", "there is no exchange now"
        if isinstance(action, Pass):
            return "PRES-LEAD-1", f"seat {seat} leads and may not pass"
        cards = action.cards
        missing = [str(c) for c in cards if c not in held]
        if missing:
            return "PRES-LEAD-1", f"seat {seat} does not hold {' '.join(missing)}"
        if len({c.label for c in cards}) > 1:
            return "PRES-LEAD-1", "a set is of one rank"
        if state.count and len(cards) != state.count:
            return (
                "PRES-FOLLOW-1",
                f"this trick is played {state.count} card(s) at a time, not {len(cards)}",
            )
        return "PRES-FOLLOW-1", f"play a rank higher than {LABELS[state.top]}"

    def waiting_rule(self, state: PresState, action: PresAction) -> tuple[str, str] | None:
        if state.is_over:
            return None
        seat = action.seat
        if not 0 <= seat < state.players:
            return None
        if state.phase == "exchange":
            if state.gives[seat] == 0 and seat in state.prev[:2]:
                return "PRES-EXCH-2", f"seat {seat} has given its cards and waits"
            return "PRES-EXCH-2", f"seat {seat} waits while the President and Vice give back"
        if seat in state.finished:
            return "PRES-OUT-1", f"seat {seat} is out of this round"
        return None

    def default_action(self, state: PresState, seat: int) -> PresAction | None:
        legal = self.legal_actions(state, seat)
        if not legal:
            return None
        return Pass(seat) if isinstance(legal[-1], Pass) else legal[0]

    # -- effects --

    def apply(self, state: PresState, action: PresAction, emit: Emit | None) -> None:
        if isinstance(action, Give):
            self._give(state, action, emit)
        elif isinstance(action, Pass):
            self._pass(state, action.seat, emit)
        else:
            self._play(state, action, emit)

    def _play(self, state: PresState, action: Play, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        h = hand(seat)
        for card in action.cards:
            moved = z.move(h, TABLE, z.cards[h].index(card), mask=ALL)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", "table", moved))
        state.count, state.top = len(action.cards), power(action.cards[0])
        state.last, state.passes = seat, 0
        flip = self.checked_answer(
            "president_revolution",
            self._revolution(cards=action.cards, options=state.options),
            bool,
        )
        if flip:
            state.reversed = not state.reversed
            if emit is not None:
                emit(Revolution(state.reversed))
        if not z.cards[h]:  # PRES-OUT-1
            state.finished = (*state.finished, seat)
            if emit is not None:
                emit(WentOut(seat, len(state.finished) - 1))
            still = [s for s in range(state.players) if s not in state.finished]
            if len(still) == 1:
                self._end_round(state, still[0], emit)
                return
        state.to_act = (next_seat(seat, state.players, skip=set(state.finished)),)

    def _pass(self, state: PresState, seat: int, emit: Emit | None) -> None:
        state.passes += 1
        still = [s for s in range(state.players) if s not in state.finished]
        needed = len(still) - (1 if state.last in still else 0)
        if state.passes >= needed:  # PRES-TRICK-1
            if state.last in still:
                leader = state.last
            else:
                leader = next_seat(state.last, state.players, skip=set(state.finished))
            self._clear(state, emit)
            state.to_act = (leader,)
            if emit is not None:
                emit(TrickCleared(leader))
            return
        state.to_act = (next_seat(seat, state.players, skip=set(state.finished)),)

    def _clear(self, state: PresState, emit: Emit | None) -> None:
        z = state.zones
        while z.cards[TABLE]:
            z.move(TABLE, DISCARD, mask=ALL)
        state.count, state.top, state.last, state.passes = 0, -1, -1, 0

    def _end_round(self, state: PresState, scum: int, emit: Emit | None) -> None:
        z, n = state.zones, state.players
        state.finished = (*state.finished, scum)
        while z.cards[hand(scum)]:
            z.move(hand(scum), DISCARD, mask=ALL)
        self._clear(state, emit)
        points = [0] * n
        for place, s in enumerate(state.finished):
            points[s] = n - 1 - place  # PRES-SCORE-1
        points = list(self.score_round(state, points))
        state.totals = [a + b for a, b in zip(state.totals, points, strict=True)]
        state.prev = state.finished
        state.finished = ()
        if state.round >= state.options["rounds"]:  # PRES-MATCH-1
            end_game(state, winners_by(state.totals, lowest=False), state.totals, "rounds")
            return
        state.round += 1
        self._deal(state, emit)

    def _deal(self, state: PresState, emit: Emit | None) -> None:
        z, n = state.zones, state.players
        while z.cards[DISCARD]:
            z.move(DISCARD, STOCK, mask=0)
        z.shuffle(STOCK, state.rng())
        if emit is not None:
            emit(Shuffled("stock", len(z.cards[STOCK])))
        deal_all(state, STOCK, [hand(s) for s in range(n)])
        if emit is not None:
            emit(CardsDealt(tuple(len(z.cards[hand(s)]) for s in range(n))))
        pres, vice, vscum, scum = state.prev[0], state.prev[1], state.prev[-2], state.prev[-1]
        self._tribute(state, scum, pres, 2, emit)  # PRES-EXCH-1
        self._tribute(state, vscum, vice, 1, emit)
        state.phase = "exchange"
        state.gives = [0] * n
        state.gives[pres], state.gives[vice] = 2, 1
        state.to_act = (pres, vice)  # PRES-EXCH-2: at once

    def _best(self, state: PresState, cards: Sequence[Card]) -> int:
        """Index of the best card (highest in the current order; suit breaks ties)."""

        def key(i: int) -> tuple[int, int]:
            p, s = sort_key(cards[i])
            return (-p if state.reversed else p), s

        return max(range(len(cards)), key=key)

    def _tribute(self, state: PresState, src: int, dst: int, k: int, emit: Emit | None) -> None:
        z = state.zones
        for _ in range(k):
            i = self._best(state, z.cards[hand(src)])
            self._hand_over(state, src, dst, i, None, emit)

    def _hand_over(
        self, state: PresState, src: int, dst: int, index: int, seat: int | None, emit: Emit | None
    ) -> None:
        z = state.zones
        mask = (1 << src) | (1 << dst)
        card = z.cards[hand(src)].pop(index)
        z.seen[hand(src)].pop(index)
        at = state.rng().randrange(len(z.cards[hand(dst)]) + 1)  # a random place: no position tells
        z.cards[hand(dst)].insert(at, card)
        z.seen[hand(dst)].insert(at, mask)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{src}", f"hand.{dst}", card, visible_to=mask))

    def _give(self, state: PresState, action: Give, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        to = state.prev[-1] if seat == state.prev[0] else state.prev[-2]
        index = len(z.cards[hand(seat)]) - 1 - action.pos
        self._hand_over(state, seat, to, index, seat, emit)
        state.gives[seat] -= 1
        if state.gives[seat] == 0:
            state.to_act = tuple(s for s in state.to_act if s != seat)
        if not state.to_act:
            state.phase = "play"
            state.to_act = (state.prev[-1],)  # PRES-LEAD-2

    # -- views, scores, positions --

    def table(self, state: PresState, seat: int | None) -> dict[str, Any]:
        z, n = state.zones, state.players
        titles: list[str | None] = [None] * n
        for place, s in enumerate(state.prev):
            titles[s] = title(place, n)
        return {
            "phase": state.phase,
            "round": state.round,
            "count": state.count,
            "top": state.top,
            "last": state.last,
            "passes": state.passes,
            "finished": list(state.finished),
            "prev": list(state.prev),
            "titles": titles,
            "totals": list(state.totals),
            "reversed": state.reversed,
            "gives": list(state.gives),
            "hand_counts": [len(z.cards[hand(s)]) for s in range(n)],
        }

    def history(self, state: PresState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return []

    def scores(self, state: PresState) -> tuple[float, ...]:
        return tuple(float(t) for t in state.totals)

    def standings(self, state: PresState) -> tuple[int, ...]:
        return winners_by(state.totals, lowest=False)

    def check_position(self, state: PresState) -> None:
        n = state.players
        check(state.phase in ("play", "exchange"), "phase must be play or exchange")
        check(1 <= state.round <= state.options["rounds"], "round out of range: {}", state.round)
        check(0 <= state.count <= 4, "count must be 0 to 4, not {}", state.count)
        check(-1 <= state.top <= 12, "top must be -1 to 12, not {}", state.top)
        check(-1 <= state.last < n, "last must be -1 or a seat, not {}", state.last)
        check(len(state.zones.cards[TABLE]) >= state.count, "the table holds the trick")
        check(
            all(0 <= s < n for s in state.finished)
            and len(set(state.finished)) == len(state.finished),
            "finished must be distinct seats",
        )
        check(
            not state.prev or sorted(state.prev) == list(range(n)),
            "prev must be empty or every seat once",
        )
        check(all(0 <= g <= 2 for g in state.gives), "gives must be 0 to 2")
        for s in state.finished:
            check(not state.zones.cards[hand(s)], "seat {} is out but holds cards", s)
        if state.is_over:
            return
        check(len(state.to_act) == 1 or state.phase == "exchange", "one seat acts in play")
        if state.phase == "exchange":
            check(state.round >= 2 and len(state.prev) == n, "an exchange needs titles")
            check(
                all(state.gives[s] > 0 for s in state.to_act),
                "a seat to act in the exchange has cards to give",
            )


def _combos(group: list[Card], size: int) -> list[tuple[Card, ...]]:
    from itertools import combinations

    return [tuple(c) for c in combinations(group, size)]


GAME = GameInfo(
    NAME,
    "President: climb with sets of one rank; titles and a card exchange between rounds",
    4,
    6,
    options=(
        Option(
            "rounds",
            default=3,
            minimum=1,
            maximum=10,
            doc="Rounds in the match",
            rule_id="PRES-MATCH-1",
        ),
    ),
    hookspecs=hookspecs,
    fields=(
        ViewField("phase", "choice", "play or exchange", choices=("play", "exchange")),
        ViewField("round", "int", "The round, from 1"),
        ViewField("count", "int", "Cards per play in this trick (0: a lead is due)"),
        ViewField("top", "int", "Rank index (0 = 3 ... 12 = 2) of the trick's top, -1 none"),
        ViewField("last", "int", "The seat that played last in this trick, -1 none"),
        ViewField("passes", "int", "Passes in a row since the last play"),
        ViewField("finished", "json", "Seats out this round, in finishing order"),
        ViewField("prev", "json", "The previous round's finishing order"),
        ViewField("titles", "per-seat", "Each seat's title from the previous round", of="json"),
        ViewField("totals", "per-seat", "Points so far", of="int"),
        ViewField("reversed", "bool", "The rank order is reversed (revolution)"),
        ViewField("gives", "per-seat", "Cards each seat still gives back", of="int"),
        ViewField("hand_counts", "per-seat", "Cards in each hand", of="int"),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> PresLogic:
    return PresLogic(ruleset)


@hookimpl(trylast=True)
def president_revolution(cards: Sequence[Card], options: Mapping[str, Any]) -> bool:
    return False


def hand_of(game: Any, seat: int) -> list[str]:
    """Test helper: *seat*'s hand top first (privileged)."""
    return [str(c) for c in reversed(game.state.zones.cards[hand(seat)])]
