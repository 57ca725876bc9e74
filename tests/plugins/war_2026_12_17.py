"""War for two players, written from the docs only, as a third-party plugin.

A game with no decision at all: every step is automatic, so :meth:`WarLogic.new_state`
plays the whole game from the shuffled deck and hands back a finished state (no seat
ever acts, the record holds no action). Registered in place with
``cardcore.register("cardcore.games", NAME, this_module)``. Rules in :data:`RULES_MD`.
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
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_all, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game, winners_by

NAME = "war-author"

RULES_MD = """\
# War (third-party test plugin)

- **WAR-SEAT-1** Two players. Nobody makes a decision: every step is automatic.
- **WAR-DEAL-1** One 52-card deck dealt out one at a time, 26 face down to each pile, first
  card to seat 0. Nobody sees a pile.
- **WAR-BATTLE-1** A battle: each player turns the top card of their pile face up onto
  their side of the table; the higher rank (A high, then K ... 2) takes every card on the
  table, face-up and face-down, and puts them under their pile one by one, face down: seat
  0's face-up cards, then seat 1's, then the face-down ones, each in the order laid (the
  last card put under is the new bottom card). Face-up cards stay known to all.
- **WAR-WAR-1** Equal ranks start a war: each player lays three cards face down (nobody
  sees them, ever) and one face up; the new face-up cards decide, and another tie repeats
  the war.
- **WAR-SHORT-1** A player who cannot lay the four cards of a war loses at once; if neither
  can, the one with fewer cards loses (equal: nobody wins).
- **WAR-END-1** A player who has no card left before a battle loses.
- **WAR-CAP-1** [D] Option `max_battles`: after that many battles the player holding more
  cards wins (equal: both share the win).
- **WAR-SCORE-1** The score is the number of cards each player holds at the end.
"""

GAME = GameInfo(
    NAME,
    "War: turn up the top cards, the higher takes both; ties go to war (no decisions)",
    2,
    2,
    version="1.0.0",
    options=(
        Option(
            "max_battles",
            2000,
            "Battles before the bigger pile wins.",
            minimum=1,
            maximum=100000,
            rule_id="WAR-CAP-1",
        ),
    ),
    fields=(
        ViewField("battles", "int", "Battles fought."),
        ViewField("wars", "int", "Wars fought (ties)."),
        ViewField("held", "per-seat", "Cards each player holds.", of="int"),
    ),
)

TABLE_DOWN = 4
PILE_NAMES = ("deck", "pile.0", "pile.1", "up.0", "up.1", "down")
DECK = 0


def pile(seat: int) -> int:
    return 1 + seat


def up(seat: int) -> int:
    return 3 + seat


DOWN = 5


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("deck"),
            ZoneSpec("pile.0", 0, Visibility.NOBODY),
            ZoneSpec("pile.1", 1, Visibility.NOBODY),
            ZoneSpec("up.0", 0, Visibility.EVERYONE),
            ZoneSpec("up.1", 1, Visibility.EVERYONE),
            ZoneSpec("down", None, Visibility.NOBODY),
        ]
    )


def strength(card: Card) -> int:
    """A high (14), then K (13) ... 2."""
    return 14 if card.rank.value == 1 else card.rank.value


@frozen
class Flip(Action):
    """Never legal: War has no decision. Declared so the default parser has a verb."""

    verb: ClassVar[str] = "flip"


class BattleWon(Event):
    """Seat *seat* won battle *battle* (*cards* cards taken, *wars* wars in it)."""

    slug: ClassVar[str] = "war-author-battle-won"
    seat: int
    battle: int
    cards: int
    wars: int


class WarState(GameState):
    __slots__ = ("battles", "wars")
    battles: int
    wars: int


class WarLogic(GameLogic[WarState, Flip]):
    action_types = (Flip,)
    position_fields = ("to_act", "battles", "wars")
    max_legal = 1

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 1  # nothing is ever applied; the bound must be at least 1

    def blank_state(self, players: int, options: Mapping[str, Any]) -> WarState:
        state = WarState(players, options, Zones(layout()))
        state.battles = 0
        state.wars = 0
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> WarState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, DECK, cards)
        deal_all(state, DECK, [pile(0), pile(1)])  # WAR-DEAL-1
        if emit is not None:
            emit(CardsDealt((26, 26)))
        self._play_out(state, emit)
        return state

    def _held(self, state: WarState) -> list[int]:
        return [len(state.zones.cards[pile(s)]) for s in (0, 1)]

    def _play_out(self, state: WarState, emit: Emit | None) -> None:
        z = state.zones
        cap = int(state.options["max_battles"])
        while True:
            held = self._held(state)
            if 0 in held:  # WAR-END-1
                winner = 0 if held[0] else 1
                self._end(state, (winner,), "a player ran out of cards")
                return
            if state.battles >= cap:  # WAR-CAP-1
                self._end(state, winners_by(held, lowest=False), "battle cap")
                return
            state.battles += 1
            wars = 0
            for s in (0, 1):  # WAR-BATTLE-1
                self._lay(state, s, up(s), emit)
            while True:
                a, b = (strength(z.cards[up(s)][-1]) for s in (0, 1))
                if a != b:
                    break
                wars += 1  # WAR-WAR-1
                state.wars += 1
                short = [len(z.cards[pile(s)]) < TABLE_DOWN for s in (0, 1)]
                if any(short):  # WAR-SHORT-1: the table stays as it lies
                    held = self._held(state)
                    if all(short):
                        left = held[0] - held[1]
                        win: tuple[int, ...] = () if left == 0 else ((0,) if left > 0 else (1,))
                    else:
                        win = (1,) if short[0] else (0,)
                    self._end(state, win, "a player could not finish a war")
                    return
                for s in (0, 1):
                    for _ in range(3):
                        self._lay(state, s, DOWN, emit)
                for s in (0, 1):
                    self._lay(state, s, up(s), emit)
            winner = 0 if a > b else 1
            taken = self._gather(state, winner)
            if emit is not None:
                emit(BattleWon(winner, state.battles, taken, wars))

    def _lay(self, state: WarState, seat: int, dst: int, emit: Emit | None) -> None:
        face_up = dst != DOWN
        card = state.zones.move(pile(seat), dst, mask=ALL if face_up else None)
        if emit is not None:
            visible = ALL if face_up else 0
            emit(CardMoved(None, f"pile.{seat}", PILE_NAMES[dst], card, visible_to=visible))

    def _gather(self, state: WarState, winner: int) -> int:
        """Everything on the table to the bottom of *winner*'s pile, face down (WAR-BATTLE-1).

        The face-up cards stay known to all where they lie (knowledge never fades by itself);
        the face-down war cards stay unseen."""
        z = state.zones
        taken = [
            cm for src in (up(0), up(1), DOWN) for cm in zip(z.cards[src], z.seen[src], strict=True)
        ]
        for src in (up(0), up(1), DOWN):
            z.cards[src].clear()
            z.seen[src].clear()
        for card, mask in taken:
            z.insert_bottom(pile(winner), card)
            z.seen[pile(winner)][0] = mask  # seen face up stays known; face-down stays unseen
        return len(taken)

    def _end(self, state: WarState, winners: tuple[int, ...], reason: str) -> None:
        held = self._held(state)
        end_game(state, winners, self.score_round(state, held), reason, reveal=False)

    def legal_actions(self, state: WarState, seat: int) -> tuple[Flip, ...]:
        return ()

    def apply(self, state: WarState, action: Flip, emit: Emit | None) -> None:
        raise AssertionError("War has no action to apply")  # never called: nothing is legal

    def scores(self, state: WarState) -> tuple[float, ...]:
        return tuple(float(n) for n in self._held(state))

    def table(self, state: WarState, seat: int | None) -> dict[str, Any]:
        return {"battles": state.battles, "wars": state.wars, "held": self._held(state)}

    def check_position(self, state: WarState) -> None:
        z = state.zones
        check(not z.cards[DECK], "the deck is dealt out (WAR-DEAL-1)")
        check(state.is_over, "a game of War is always over: no position leaves a decision")


@hookimpl
def create_logic(ruleset: Ruleset) -> WarLogic:
    return WarLogic(ruleset)
