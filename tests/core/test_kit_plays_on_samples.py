"""The testing kit plays on from a sampled position, as a search agent's rollouts do.

A Euchre author's game passed the kit, then crashed under ISMCTS: it kept the seats of the
trick so far in a slot its view did not show, so every sampled position held that slot
blank, the sampled world showed the seat the same view, and only the next actions failed.
The kit's ``positions`` check now plays a few random legal actions on from each sample.
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    Action,
    Card,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    parse_cards,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.testing import check_game
from cardcore.tricks import trick_winner
from cardcore.turns import end_game, next_seat, winners_by

DECK = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S")
STOCK, PILE = 0, 1


@frozen
class PlayCard(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


class TrickState(GameState):
    __slots__ = ("leader", "played_by", "won")
    _mutable = ("zones", "played_by", "won")
    leader: int
    played_by: list[int]  # the seats of the trick so far: the view shows only the leader
    won: list[int]


def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("pile", None, Visibility.EVERYONE), *hands])


class TrickLogic(GameLogic[TrickState, PlayCard]):
    action_types = (PlayCard,)
    position_fields = ("to_act", "leader", "played_by", "won")
    shows_leader = False

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 2 * players

    def blank_state(self, players: int, options: Mapping[str, Any]) -> TrickState:
        state = TrickState(players, options, Zones(layout(players)))
        state.leader, state.played_by, state.won = 0, [], [0] * players
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> TrickState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_round_robin(state, STOCK, [2 + s for s in range(players)], 2)
        return state

    def legal_actions(self, state: TrickState, seat: int) -> tuple[PlayCard, ...]:
        return tuple(PlayCard(seat, c) for c in state.zones.cards[2 + seat])

    def apply(self, state: TrickState, action: PlayCard, emit: Emit | None) -> None:
        z, seat, players = state.zones, action.seat, state.players
        z.move(2 + seat, PILE, z.cards[2 + seat].index(action.card))
        state.played_by.append(seat)
        if len(z.cards[PILE]) % players:
            state.to_act = (next_seat(seat, players),)
            return
        pile = z.cards[PILE]
        trick = pile[len(pile) - players :]  # in the order played
        if self.shows_leader:  # the trick's seats follow from the leader, which the view shows
            winner = (state.leader + trick_winner(trick)) % players
        else:  # blank in a sampled world: an IndexError in the plugin
            winner = state.played_by[trick_winner(trick)]
        state.won[winner] += 1
        state.played_by, state.leader = [], winner
        if any(z.cards[2 + s] for s in range(players)):
            state.to_act = (winner,)
        else:
            end_game(state, winners_by(state.won, lowest=False), state.won, "all cards played")

    def table(self, state: TrickState, seat: int | None) -> dict[str, Any]:
        return {"won": list(state.won), "leader": state.leader}


class ShownLogic(TrickLogic):
    shows_leader = True


def plugin(name: str, logic: type[TrickLogic]) -> types.ModuleType:
    @hookimpl
    def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        return DECK

    @hookimpl
    def create_logic(ruleset: Ruleset) -> TrickLogic:
        return logic(ruleset)

    game = GameInfo(
        name,
        "test game: two tricks of one card each, aces high",
        2,
        4,
        fields=(
            ViewField("won", "per-seat", "tricks won", of="int"),
            ViewField("leader", "seat", "the seat that led the trick"),
        ),
    )
    module = types.ModuleType(name)
    vars(module).update(GAME=game, build_deck=build_deck, create_logic=create_logic)
    return module


@pytest.fixture(autouse=True, scope="module")
def _games() -> Iterator[None]:
    cardcore.register("cardcore.games", "kitplayon", plugin("kitplayon", TrickLogic))
    cardcore.register("cardcore.games", "kitplayonok", plugin("kitplayonok", ShownLogic))
    try:
        yield
    finally:
        cardcore.unregister("cardcore.games", "kitplayon")
        cardcore.unregister("cardcore.games", "kitplayonok")


def test_kit_fails_a_game_that_reads_a_slot_its_samples_leave_blank() -> None:
    report = check_game(
        "kitplayon", players=3, games=6, sample=1.0, checks=["positions"], strict=False
    )
    failures = "\n".join(report.failures)
    assert "played on as a search agent plays" in failures
    assert "a slot the view does not show is blank in every sample" in failures
    assert "IndexError" in failures  # the plugin's own error, named


def test_the_same_game_working_it_out_from_the_view_passes() -> None:
    report = check_game("kitplayonok", players=3, games=6, sample=1.0, checks=["positions"])
    assert report.failures == [] and report.actions > 0


def test_ismcts_meets_the_same_fault_the_kit_now_reports() -> None:
    game = cardcore.new_game("kitplayon", 3, deck="2S 3S 4S 5S 6S 7S 8S 9S", seed=1)
    game.apply(game.legal_actions(0)[0])
    agent = cardcore.load_agent("ismcts")(seed=3, iterations=20)
    with pytest.raises(cardcore.PluginError, match="IndexError"):
        agent.choose(game.view(1), game.legal_actions(1))
