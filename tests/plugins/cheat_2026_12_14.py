"""Cheat (a.k.a. "I Doubt It"), written from cardcore's docs by a first-time plugin author.

Registered in place with ``cardcore.register("cardcore.games", NAME, module)`` (see
docs/plugin-guide/entry-points.rst, "Without installing"). One module: the rules text, the
game's own hookspec (built in place, docs/plugin-guide/hookspecs.rst), actions, events,
state, logic and ``GAME``.

Modelling choices (CHEAT-KNOW-1): a turn lays cards face down one at a time by their position
in the hand (``lay p``, top first as the seat's view lists its hand), so the public notation
never names a card; ``claim`` ends the lay. Cards laid face down are known to the seat that
laid them only. A challenge reveals the claimed cards to everyone; the taker's hand is
shuffled after taking the pile so that no position in it names a card the others saw.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from attrs import frozen

from cardcore import (
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
    Option,
    Rank,
    Ruleset,
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
)
from cardcore.dealing import fill_stock
from cardcore.errors import PluginError
from cardcore.positions import check
from cardcore.search import default_position
from cardcore.turns import end_game, next_seat, winners_by

NAME = "cheat-2026-12-14"

RULES_MD = """\
# Cheat (I Doubt It) -- rule IDs

| ID | rule |
|----|------|
| CHEAT-SEAT-1 | 3 to 5 players. |
| CHEAT-DEAL-1 | One 52-card deck is dealt out entirely, one card at a time from seat 0; seat 0 plays first. |
| CHEAT-RANK-1 | The rank to claim starts at A and goes up by one each turn (A 2 ... 10 J Q K A ...). |
| CHEAT-PLAY-1 | On your turn lay 1 to 4 cards face down, one at a time (`lay p`, p the position in your hand, top first), then `claim`; the 4th card claims at once. |
| CHEAT-PLAY-2 | A claim says every laid card is of the turn's rank; it may be a lie. |
| CHEAT-DOUBT-1 | After a claim every other seat says `doubt` or `pass`, in any order; the first `doubt` is the challenge; a seat that passed waits. |
| CHEAT-DOUBT-2 | Challenged, the claimed cards are shown to all: a lie gives the claimer the whole centre pile, an honest claim gives it to the doubter. The taker's hand is shuffled. |
| CHEAT-WIN-1 | A seat whose hand is empty when the doubt window closes (all passed, or a challenge proved it honest) wins. |
| CHEAT-CAP-1 | Option `max_turns`: after that many claims the game ends; fewest cards wins (ties share). |
| CHEAT-KNOW-1 | A face-down card is known only to the seat that laid it until a challenge shows it; a taken pile's unrevealed cards are known to the taker (and each to whoever laid it). |
"""

RANKS = tuple(Rank(n).label for n in range(1, 14))
"""The rank words, A low to K."""


# --- the game's own hookspec, in a module built in place --------------------------------


def _max_cards_spec(options: Mapping[str, Any]) -> int:
    """Return the most cards one turn may lay (CHEAT-PLAY-1).

    The first answer that is not ``None`` wins.

    :param options: The game's options (a house rule's own options among them).
    :returns: A whole number from 1 to 4.

    .. versionadded:: 0.1.0
    """
    raise NotImplementedError


hookspecs = types.ModuleType(f"{__name__}_hookspecs")
hookspecs.cheat_max_cards = hookspec(firstresult=True)(_max_cards_spec)  # type: ignore[attr-defined]


# --- actions -------------------------------------------------------------------------------


@frozen
class Lay(Action):
    """Seat *seat* lays the card at position *pos* of its hand (top first) face down."""

    pos: int
    verb: ClassVar[str] = "lay"

    def notation(self) -> str:
        return f"lay {self.pos}"


@frozen
class Claim(Action):
    """Seat *seat* ends its lay: every laid card is claimed to be of the turn's rank."""

    verb: ClassVar[str] = "claim"


@frozen
class Doubt(Action):
    """Seat *seat* calls "cheat" on the last claim."""

    verb: ClassVar[str] = "doubt"


@frozen
class Pass(Action):
    """Seat *seat* lets the last claim stand."""

    verb: ClassVar[str] = "pass"


CheatAction = Lay | Claim | Doubt | Pass


# --- events --------------------------------------------------------------------------------


class Claimed(Event):
    """Seat *seat* claimed *count* cards of *rank*."""

    slug: ClassVar[str] = "cheat-claimed"
    seat: int
    count: int
    rank: str


class Challenged(Event):
    """Seat *seat* doubted seat *claimer*'s claim; *honest* tells the outcome; *taker* took the pile."""

    slug: ClassVar[str] = "cheat-challenged"
    seat: int
    claimer: int
    honest: bool
    taker: int


# --- state ---------------------------------------------------------------------------------

CENTRE = 0


def hand(seat: int) -> int:
    return 1 + seat


_LAYOUTS: dict[int, Layout] = {}


def layout(players: int) -> Layout:
    if players not in _LAYOUTS:
        hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
        _LAYOUTS[players] = Layout.of([ZoneSpec("centre"), *hands])
    return _LAYOUTS[players]


class CheatState(GameState):
    """Piles: ``centre`` (face down), ``hand.0`` ...; the phase and the claim in progress."""

    __slots__ = ("laid", "passed", "phase", "rank", "revealed", "turn", "turns")
    _mutable = ("zones", "passed")
    phase: str  # "play" or "doubt"
    turn: int  # the seat laying, or whose claim is being judged
    rank: int  # index into RANKS of the turn's rank
    laid: int  # cards laid this turn (the top `laid` cards of the centre)
    passed: list[bool]  # per seat: passed on the claim being judged
    turns: int  # claims made so far
    revealed: tuple[str, ...]  # the cards the last challenge showed


# --- logic ---------------------------------------------------------------------------------


class CheatLogic(GameLogic[CheatState, CheatAction]):
    """Cheat for 3 to 5 players."""

    action_types = (Lay, Claim, Doubt, Pass)
    position_fields = ("to_act", "phase", "turn", "rank", "laid", "passed", "turns", "revealed")
    max_legal = 53  # 52 positions and the claim

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        answer = ruleset.resolve("cheat_max_cards")
        if answer is None:
            raise PluginError("cheat_max_cards has no implementation")
        self._max_cards = answer

    def max_cards(self, options: Mapping[str, Any]) -> int:
        value = self.checked_answer("cheat_max_cards", self._max_cards(options=options), int)
        if not 1 <= value <= 4:
            raise PluginError(f"cheat_max_cards answered {value}, not 1 to 4 (CHEAT-PLAY-1)")
        return int(value)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return int(options["max_turns"]) * (4 + players + 1) + 10

    def blank_state(self, players: int, options: Mapping[str, Any]) -> CheatState:
        state = CheatState(players, options, Zones(layout(players)))
        state.phase, state.turn, state.rank, state.laid = "play", 0, 0, 0
        state.passed, state.turns, state.revealed = [False] * players, 0, ()
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> CheatState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, CENTRE, cards)  # CHEAT-DEAL-1: the whole deck, one at a time
        n, z = len(cards), state.zones
        for i in range(n):
            z.move(CENTRE, hand(i % players))
        if emit is not None:
            emit(CardsDealt(tuple(len(z.cards[hand(s)]) for s in range(players))))
        return state

    # -- legality --

    def legal_actions(self, state: CheatState, seat: int) -> tuple[CheatAction, ...]:
        """Play phase: ``lay 0`` ... ``lay n-1`` (top first), then ``claim`` once a card is
        laid. Doubt phase: ``doubt``, ``pass``."""
        if seat not in state.to_act:
            return ()
        if state.phase == "doubt":
            return (Doubt(seat), Pass(seat))
        out: list[CheatAction] = []
        if state.laid < self.max_cards(state.options):
            out += [Lay(seat, p) for p in range(len(state.zones.cards[hand(seat)]))]
        if state.laid:
            out.append(Claim(seat))
        return tuple(out)

    def rule_for(self, state: CheatState, action: CheatAction) -> tuple[str, str]:
        seat = action.seat
        if state.phase == "doubt":
            return (
                "CHEAT-DOUBT-1",
                f"seat {seat} may only doubt or pass the claim of seat {state.turn}",
            )
        if isinstance(action, (Doubt, Pass)):
            return "CHEAT-PLAY-1", f"seat {seat} lays cards now; there is no claim to judge"
        if isinstance(action, Claim):
            return "CHEAT-PLAY-1", f"seat {seat} must lay at least one card before claiming"
        n = len(state.zones.cards[hand(seat)])
        if state.laid >= self.max_cards(state.options):
            return "CHEAT-PLAY-1", f"seat {seat} has laid the most cards a turn allows"
        return (
            "CHEAT-PLAY-1",
            f"seat {seat} holds {n} cards: lay a position from 0 to {n - 1}, not {action.pos}",
        )

    def waiting_rule(self, state: CheatState, action: CheatAction) -> tuple[str, str] | None:
        if state.is_over or state.phase != "doubt":
            return None
        seat = action.seat
        if seat == state.turn:
            return "CHEAT-DOUBT-1", f"seat {seat} waits while the others judge its claim"
        if 0 <= seat < state.players and state.passed[seat]:
            return "CHEAT-DOUBT-1", f"seat {seat} passed on this claim and waits"
        return None

    def default_action(self, state: CheatState, seat: int) -> CheatAction | None:
        if seat not in state.to_act:
            return None
        if state.phase == "doubt":
            return Pass(seat)
        return Claim(seat) if state.laid else Lay(seat, 0)

    # -- effects --

    def apply(self, state: CheatState, action: CheatAction, emit: Emit | None) -> None:
        seat, z = action.seat, state.zones
        if isinstance(action, Lay):
            h = hand(seat)
            index = len(z.cards[h]) - 1 - action.pos
            card = z.move(h, CENTRE, index, mask=1 << seat)  # CHEAT-KNOW-1: only the layer knows
            state.laid += 1
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", "centre", card, visible_to=1 << seat))
            if state.laid >= self.max_cards(state.options) or not z.cards[h]:
                self._claim(state, seat, emit)
            return
        if isinstance(action, Claim):
            self._claim(state, seat, emit)
            return
        if isinstance(action, Pass):
            state.passed[seat] = True
            state.to_act = tuple(s for s in state.to_act if s != seat)
            if not state.to_act:
                self._close(state, emit)
            return
        self._challenge(state, seat, emit)

    def _claim(self, state: CheatState, seat: int, emit: Emit | None) -> None:
        if emit is not None:
            emit(Claimed(seat, state.laid, RANKS[state.rank]))
        state.turns += 1
        state.phase = "doubt"
        state.passed = [False] * state.players
        state.to_act = tuple(s for s in range(state.players) if s != seat)  # CHEAT-DOUBT-1

    def _challenge(self, state: CheatState, doubter: int, emit: Emit | None) -> None:
        z, claimer, count = state.zones, state.turn, state.laid
        centre = z.cards[CENTRE]
        shown = []
        for i in range(len(centre) - count, len(centre)):  # CHEAT-DOUBT-2: show the claim
            shown.append(z.reveal(CENTRE, i))
        honest = all(c.label == RANKS[state.rank] for c in shown)
        taker = doubter if honest else claimer
        state.revealed = tuple(str(c) for c in shown)
        if emit is not None:
            from cardcore import CardRevealed

            base = len(centre) - count
            for i, c in enumerate(shown):
                emit(CardRevealed(doubter, "centre", base + i, c))
            emit(Challenged(doubter, claimer, honest, taker))
        while z.cards[CENTRE]:
            mask = z.seen[CENTRE][-1]
            card = z.move(CENTRE, hand(taker))
            if emit is not None:
                emit(
                    CardMoved(
                        taker, "centre", f"hand.{taker}", card, visible_to=mask | (1 << taker)
                    )
                )
        z.shuffle(hand(taker), state.rng())  # positions in the hand tell nothing (CHEAT-KNOW-1)
        if emit is not None:
            emit(Shuffled(f"hand.{taker}", len(z.cards[hand(taker)])))
        self._close(state, emit)

    def _close(self, state: CheatState, emit: Emit | None) -> None:
        """The doubt window closed: a win (CHEAT-WIN-1), the cap (CHEAT-CAP-1) or the next turn."""
        z, claimer = state.zones, state.turn
        counts = [len(z.cards[hand(s)]) for s in range(state.players)]
        if not counts[claimer]:
            scores = self.score_round(state, counts)
            end_game(state, (claimer,), scores, "hand emptied")
            return
        if state.turns >= state.options["max_turns"]:
            scores = self.score_round(state, counts)
            end_game(state, winners_by(scores), scores, "turn cap")
            return
        state.phase, state.laid = "play", 0
        state.passed = [False] * state.players
        state.rank = (state.rank + 1) % 13  # CHEAT-RANK-1
        state.turn = next_seat(claimer, state.players)
        state.to_act = (state.turn,)

    # -- views, scores, positions --

    def table(self, state: CheatState, seat: int | None) -> dict[str, Any]:
        z = state.zones
        return {
            "phase": state.phase,
            "turn": state.turn,
            "rank": RANKS[state.rank],
            "laid": state.laid,
            "pile_count": len(z.cards[CENTRE]),
            "passed": list(state.passed),
            "turns": state.turns,
            "revealed": list(state.revealed),
        }

    def position_from_view(self, view: Mapping[str, Any], zones: Zones) -> str:
        """For search agents: the table shows the rank as a word, the slot holds its index;
        the centre cards the seat sees are those it laid, known to it alone (CHEAT-KNOW-1)."""
        table = dict(view["table"])
        if table.get("rank") in RANKS:
            table["rank"] = RANKS.index(table["rank"])
        seat = view["seat"]
        if seat is not None:
            centre = zones.seen[CENTRE]
            zones.seen[CENTRE] = [1 << seat if m else 0 for m in centre]
        return default_position(self, {**view, "table": table}, zones)

    def scores(self, state: CheatState) -> tuple[float, ...]:
        return tuple(float(len(state.zones.cards[hand(s)])) for s in range(state.players))

    def standings(self, state: CheatState) -> tuple[int, ...]:
        return winners_by(self.scores(state))

    def check_position(self, state: CheatState) -> None:
        z = state.zones
        check(
            state.phase in ("play", "doubt"),
            "phase must be 'play' or 'doubt', not {!r}",
            state.phase,
        )
        check(0 <= state.turn < state.players, "turn must be a seat, not {}", state.turn)
        check(0 <= state.rank < 13, "rank must be 0 to 12, not {}", state.rank)
        check(
            0 <= state.laid <= min(4, len(z.cards[CENTRE])),
            "laid must be 0 to 4 and within the centre, not {}",
            state.laid,
        )
        check(all(type(p) is bool for p in state.passed), "passed must hold true/false per seat")
        if state.is_over:
            return
        if state.phase == "play":
            check(state.to_act == (state.turn,), "to_act must be the turn's seat {}", state.turn)
        else:
            check(state.laid >= 1, "a claim being judged has at least one card (CHEAT-PLAY-1)")
            check(
                state.turn not in state.to_act and all(not state.passed[s] for s in state.to_act),
                "to_act must be seats that have not passed, not the claimer",
            )


GAME = GameInfo(
    NAME,
    "Cheat: lay cards face down claiming the turn's rank; doubt a claim to make a liar take the pile",
    3,
    5,
    options=(
        Option(
            "max_turns",
            default=300,
            minimum=1,
            maximum=5000,
            doc="Claims before the game ends and the fewest cards win",
            rule_id="CHEAT-CAP-1",
        ),
    ),
    hookspecs=hookspecs,
    fields=(
        ViewField(
            "phase",
            "choice",
            "play: laying cards; doubt: judging a claim",
            choices=("play", "doubt"),
        ),
        ViewField("turn", "seat", "The seat laying, or whose claim is judged"),
        ViewField("rank", "choice", "The rank the turn claims", choices=RANKS),
        ViewField("laid", "int", "Cards laid this turn"),
        ViewField("pile_count", "int", "Cards in the centre pile"),
        ViewField("passed", "per-seat", "Seats that passed on the claim judged", of="bool"),
        ViewField("turns", "int", "Claims made so far"),
        ViewField("revealed", "cards", "The cards the last challenge showed"),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> CheatLogic:
    return CheatLogic(ruleset)


@hookimpl(trylast=True)
def cheat_max_cards(options: Mapping[str, Any]) -> int:
    return 4


def hand_of(game: Any, seat: int) -> list[str]:
    """Test helper: *seat*'s hand top first (privileged)."""
    return [str(c) for c in reversed(game.state.zones.cards[hand(seat)])]


def centre_of(game: Any) -> Sequence[str]:
    """Test helper: the centre pile bottom to top (privileged)."""
    return [str(c) for c in game.state.zones.cards[CENTRE]]
