"""Slapjack, a real-time game written from the docs alone, and tests of it.

Rules (IDs cited by the code and the errors):

| SLAP-DEAL-1 | The whole deck is dealt one card at a time, face down, to each seat's stack.
| SLAP-TURN-1 | A seat holding cards may turn its stack's top card face up onto the pile.
| SLAP-SLAP-1 | A seat still in may slap the pile's top card; a seat without cards only a Jack.
| SLAP-SLAP-2 | A slap on a Jack takes the pile: it goes under the slapper's stack, which is
|             | shuffled; every other seat without cards is out.
| SLAP-SLAP-3 | A wrong slap (not a Jack) puts the slapper's top card under the pile, face up.
| SLAP-END-1  | The last seat in wins; when no seat holds cards and no Jack is on top, the
|             | seat that turned last wins.
"""

from __future__ import annotations

import json
import random
import types
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    ALL,
    SPECTATOR,
    Action,
    Card,
    CardMoved,
    CardsDealt,
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Plan,
    Rank,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    turns,
)

NAME = "slapjack"
BOUND = 600


# --------------------------------------------------------------------------- the game


@frozen
class Turn(Action):
    """Turn the top card of your stack onto the pile."""

    verb: ClassVar[str] = "turn"


@frozen
class Slap(Action):
    """Slap the pile's top card (named, so a late slap is stale, not a wrong slap)."""

    card: Card
    verb: ClassVar[str] = "slap"

    def notation(self) -> str:
        return f"slap {self.card}"


class PileTaken(Event):
    """Seat *seat* slapped a Jack and took *count* cards."""

    slug: ClassVar[str] = "slapjack-pile-taken"
    seat: int
    count: int


class SeatOut(Event):
    """Seat *seat* is out of the game."""

    slug: ClassVar[str] = "slapjack-seat-out"
    seat: int


class SlapState(GameState):
    __slots__ = ("alive", "last")
    _mutable = ("zones", "alive")

    alive: list[bool]
    last: int


def is_jack(card: Card | None) -> bool:
    return card is not None and card.rank == Rank.JACK


class SlapLogic(GameLogic[SlapState, Turn | Slap]):
    """Slapjack. Legal actions, in order: ``turn`` (when holding cards), ``slap <top>``."""

    action_types = (Turn, Slap)
    position_fields = ("to_act", "alive", "last")
    max_legal = 2

    def __init__(self, ruleset: Any) -> None:
        super().__init__(ruleset)
        self._layouts: dict[int, Layout] = {}

    def layout(self, players: int) -> Layout:
        if players not in self._layouts:
            specs = [ZoneSpec(f"stack.{s}", s, Visibility.NOBODY) for s in range(players)]
            specs.append(ZoneSpec("pile", None, Visibility.EVERYONE))
            self._layouts[players] = Layout.of(specs)
        return self._layouts[players]

    def action_bound(self, players: int, options: Any) -> int:
        return BOUND

    def blank_state(self, players: int, options: Any) -> SlapState:
        state = SlapState(players, options, Zones(self.layout(players)))
        state.alive = [True] * players
        state.last = -1
        state.to_act = tuple(range(players))
        return state

    def new_state(
        self, players: int, options: Any, cards: list[Card], seed: int, emit: Any
    ) -> SlapState:
        state = self.blank_state(players, options)
        state.seed = seed
        zones = state.zones
        dealt = list(reversed(cards))  # cards[-1] is dealt first (SLAP-DEAL-1)
        for i, card in enumerate(dealt):
            zones.insert_bottom(i % players, card, 0)
        if emit is not None:
            emit(CardsDealt(tuple(zones.count(s) for s in range(players))))
        return state

    def legal_actions(self, state: SlapState, seat: int) -> tuple[Turn | Slap, ...]:
        if state.is_over or not state.alive[seat]:
            return ()
        zones = state.zones
        pile = state.players
        held = zones.count(seat) > 0
        out: list[Turn | Slap] = []
        if held:
            out.append(Turn(seat))
        top = zones.top(pile)
        if top is not None and (held or is_jack(top)):
            out.append(Slap(seat, top))
        return tuple(out)

    def rule_for(self, state: SlapState, action: Turn | Slap) -> tuple[str, str]:
        if isinstance(action, Turn):
            return "SLAP-TURN-1", f"seat {action.seat} has no card to turn"
        top = state.zones.top(state.players)
        if top is None:
            return "SLAP-SLAP-1", "the pile is empty: there is nothing to slap"
        if action.card != top:
            return "SLAP-SLAP-1", f"only the pile's top card ({top}) can be slapped"
        return "SLAP-SLAP-1", f"seat {action.seat} holds no card: it may slap only a Jack"

    def apply(self, state: SlapState, action: Turn | Slap, emit: Any) -> None:
        zones = state.zones
        seat = action.seat
        pile = state.players
        if isinstance(action, Turn):
            card = zones.move(seat, pile, mask=ALL)
            state.last = seat
            if emit is not None:
                emit(CardMoved(seat, f"stack.{seat}", "pile", card))
        elif is_jack(zones.top(pile)):
            count = zones.count(pile)
            while zones.count(pile):
                card, _ = zones.pop(pile, 0)
                zones.insert_bottom(seat, card, 0)
            zones.shuffle(seat, state.rng())
            if emit is not None:
                emit(PileTaken(seat, count))
            for other in range(state.players):
                if other != seat and state.alive[other] and not zones.count(other):
                    state.alive[other] = False
                    if emit is not None:
                        emit(SeatOut(other))
        else:
            card, _ = zones.pop(seat)
            zones.insert_bottom(pile, card, ALL)
            if emit is not None:
                emit(CardMoved(seat, f"stack.{seat}", "pile", card))
        self._settle(state)

    def _settle(self, state: SlapState) -> None:
        zones = state.zones
        seats = [s for s in range(state.players) if state.alive[s]]
        holders = [s for s in seats if zones.count(s)]
        if len(seats) == 1:
            turns.end_game(state, seats, self.scores(state), "last seat in")
        elif not holders and not is_jack(zones.top(state.players)):
            turns.end_game(state, [state.last], self.scores(state), "last to turn")
        else:
            state.to_act = tuple(seats)

    def scores(self, state: SlapState) -> tuple[float, ...]:
        return tuple(float(state.zones.count(s)) for s in range(state.players))

    def standings(self, state: SlapState) -> tuple[int, ...]:
        return turns.winners_by(list(self.scores(state)), lowest=False)

    def table(self, state: SlapState, seat: int | None) -> dict[str, Any]:
        return {
            "alive": list(state.alive),
            "last": state.last if state.last >= 0 else None,
            "jack_up": is_jack(state.zones.top(state.players)),
        }

    def check_position(self, state: SlapState) -> None:
        if not -1 <= state.last < state.players:
            raise cardcore.OptionError(f"bad position: last={state.last} is not a seat")


GAME = GameInfo(
    NAME,
    "Slapjack: turn cards onto a pile, slap the Jacks (real time)",
    2,
    4,
    realtime=True,
    version="1.0.0",
    fields=(
        ViewField("alive", "per-seat", "Whether each seat is still in", of="bool"),
        ViewField("last", "seat", "The seat that turned last", nullable=True),
        ViewField("jack_up", "bool", "Whether a Jack lies on top of the pile"),
    ),
)


@hookimpl
def create_logic(ruleset: Any) -> SlapLogic:
    return SlapLogic(ruleset)


class SlapjackQuickAgent:
    """Slaps a Jack fast, never slaps anything else, turns after *delay*."""

    games = (NAME,)

    def __init__(self, seed: int | None = 0, delay: float = 0.5) -> None:
        self.delay = delay + random.Random(seed).random() / 10

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        for action in legal:
            if isinstance(action, Slap) and is_jack(action.card):
                return Plan(action, self.delay / 5)
        for action in legal:
            if isinstance(action, Turn):
                return Plan(action, self.delay)
        return None


def make_module() -> types.ModuleType:
    module = types.ModuleType("slapjack_plugin")
    module.GAME = GAME  # type: ignore[attr-defined]
    module.create_logic = create_logic  # type: ignore[attr-defined]
    return module


@pytest.fixture(scope="module")
def slapjack() -> Iterator[str]:
    before = set(cardcore.available_games())
    cardcore.register("cardcore.games", NAME, make_module())
    try:
        yield NAME
    finally:
        cardcore.unregister("cardcore.games", NAME)
    assert set(cardcore.available_games()) == before


# Stacked decks, top first, dealt one card at a time: seat 0's stack starts with the 1st,
# 3rd, ... card (the first card it is dealt stays on top).
JACK_FIRST = "JH 5C 9S 2D"  # seat 0's top card is JH, seat 1's is 5C


def fresh(players: int = 2, deck: str = JACK_FIRST, seed: int = 1) -> cardcore.Game:
    return cardcore.new_game(NAME, players, deck=deck, seed=seed)


def position_with(players: int, stacks: list[list[str]], pile: list[str], alive: str) -> str:
    """A position: *stacks* and *pile* bottom to top; every other card to seat 0's bottom."""
    named = {c for cards in stacks for c in cards} | set(pile)
    rest = [str(c) for c in cardcore.standard_52() if str(c) not in named]
    stacks = [rest + stacks[0], *stacks[1:]]
    seats = ",".join(str(s) for s in range(players))
    parts = [f"{NAME} to_act=[{seats}] alive={alive} last=0"]
    parts += [f"stack.{seat}: " + " ".join(cards) for seat, cards in enumerate(stacks)]
    parts.append("pile: " + " ".join(f"{c}!" for c in pile))
    return " | ".join(parts)


def stack_cards_seen(game: cardcore.Game, seat: int | None) -> list[str]:
    """The cards of every stack that *seat*'s view shows."""
    zones = game.view(seat)["zones"]
    return [c for z in zones if z["name"].startswith("stack.") for c in z["cards"] if c]


# --------------------------------------------------------------------------- the kit


@pytest.mark.parametrize("players", [2, 4])
def test_conformance_kit(slapjack: str, players: int) -> None:
    from cardcore.testing import check_game

    report = check_game(slapjack, players=players, games=2, seed=3)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0
    assert report.games == 2 and report.actions > 0 and report.truncated == 0
    assert set(report.skipped) == {"scores"}  # a winner-only game scores no round


def test_game_is_declared_realtime(slapjack: str) -> None:
    assert cardcore.game_info(slapjack).realtime
    game = fresh()
    assert game.to_act == (0, 1)  # every seat at once
    assert [z["name"] for z in game.view(None)["zones"]] == ["stack.0", "stack.1", "pile"]
    assert game.view_schema()["game"] == slapjack


# --------------------------------------------------------------------------- the rules


def test_slap_deal_1_stacks_are_face_down_for_everyone(slapjack: str) -> None:
    game = fresh(4, deck="JH 5C 9S 2D")
    counts = [z["count"] for z in game.view(None)["zones"]]
    assert counts == [13, 13, 13, 13, 0]
    for seat in (0, 1, 2, 3, None):
        assert stack_cards_seen(game, seat) == []  # not even the owner sees its stack
    game.act(0, "turn", at=0.5)
    assert game.view(3)["zones"][-1]["cards"] == ["JH"]


def test_slap_turn_1_turn_moves_the_top_card_face_up(slapjack: str) -> None:
    game = fresh()
    assert game.view(0)["legal"] == ["turn"]  # nothing to slap yet
    game.act(1, "turn", at=1.0)
    assert game.view(None)["zones"][-1]["cards"] == ["5C"]
    assert game.view(0)["legal"] == ["turn", "slap 5C"]


def test_slap_slap_1_only_the_top_card_and_no_hidden_card_in_the_error(slapjack: str) -> None:
    game = fresh()
    game.act(0, "turn", at=1.0)
    hidden = game.state.zones.cards[1][-1]  # seat 1's own top card, 5C, hidden from all
    with pytest.raises(cardcore.IllegalActionError, match="SLAP-SLAP-1") as error:
        game.act(1, f"slap {hidden}", at=1.1)
    assert str(hidden) not in str(error.value).replace(f"'slap {hidden}'", "")
    assert game.version == 1


def test_slap_slap_2_a_jack_takes_the_pile_and_knocks_out_empty_seats(slapjack: str) -> None:
    stacks = [["4C", "JH"], ["5C"], []]
    game = cardcore.new_game(
        slapjack, 3, position=position_with(3, stacks, ["2S", "JD"], "[true,true,true]"), seed=4
    )
    assert game.view(2)["legal"] == ["slap JD"]  # a seat without cards may slap a Jack
    log: list[dict[str, Any]] = []
    game.events.subscribe(Event, lambda e: log.append(e.to_json()), seat=SPECTATOR)
    game.act(1, "slap JD", at=2.0, seen=0)
    assert game.view(None)["table"]["alive"] == [True, True, False]
    assert game.to_act == (0, 1) and game.view(None)["zones"][1]["count"] == 3
    assert [e["event"] for e in log] == [
        "action-applied",
        "slapjack-pile-taken",
        "slapjack-seat-out",
    ]
    assert stack_cards_seen(game, 1) == []  # the taken pile was shuffled face down


def test_slap_slap_3_a_wrong_slap_pays_a_card_under_the_pile(slapjack: str) -> None:
    game = fresh()
    game.act(1, "turn", at=1.0)  # 5C up
    game.act(0, "slap 5C", at=1.2)  # wrong: JH, seat 0's top, goes under the pile
    assert game.view(None)["zones"][-1]["cards"] == ["5C", "JH"]
    assert game.view(None)["zones"][0]["count"] == 25
    assert not game.view(None)["table"]["jack_up"]


def test_slap_end_1_last_seat_in_wins(slapjack: str) -> None:
    stacks = [["4C"], []]
    game = cardcore.new_game(
        slapjack, 2, position=position_with(2, stacks, ["JD"], "[true,true]"), seed=4
    )
    game.act(0, "slap JD", at=1.0)
    assert game.is_over and game.result is not None
    assert game.result.winners == (0,) and game.result.reason == "last seat in"
    assert stack_cards_seen(game, 1)  # end_game revealed the stacks


# --------------------------------------------------------------------------- real time


def test_two_slaps_on_one_jack_first_applied_wins_second_is_stale(slapjack: str) -> None:
    game = fresh()
    game.act(0, "turn", at=1.0)
    ann, bob = game.view(0), game.view(1)
    assert "slap JH" in ann["legal"] and "slap JH" in bob["legal"]
    game.act(1, "slap JH", at=1.30, seen=bob["version"])
    with pytest.raises(
        cardcore.StaleActionError, match=r"'slap JH' was legal at version 1.*CORE-RT-1"
    ):
        game.act(0, "slap JH", at=1.35, seen=ann["version"])
    assert game.version == 2 and game.record()["actions"][-1] == [1, "slap JH", 1.3]


def test_an_earlier_stamp_arriving_late_is_refused_by_time_order(slapjack: str) -> None:
    """Actions are never re-sorted (CORE-RT-1): the earlier stamp, arriving second, is
    refused by CORE-RECORD-1 (an IllegalActionError), not reported as stale."""
    game = fresh()
    game.act(0, "turn", at=1.0)
    seen = game.version
    game.act(1, "slap JH", at=1.40, seen=seen)
    with pytest.raises(cardcore.IllegalActionError, match=r"earlier than .*CORE-RECORD-1") as error:
        game.act(0, "slap JH", at=1.20, seen=seen)
    assert not isinstance(error.value, cardcore.StaleActionError)
    assert game.version == 2


def test_stale_even_when_the_first_slap_ended_the_game(slapjack: str) -> None:
    stacks = [["4C"], []]
    game = cardcore.new_game(
        slapjack, 2, position=position_with(2, stacks, ["JD"], "[true,true]"), seed=4
    )
    game.act(0, "slap JD", at=1.0, seen=0)
    with pytest.raises(cardcore.StaleActionError, match=r"ended the game.*CORE-RT-1"):
        game.act(1, "slap JD", at=1.01, seen=0)


def test_a_knocked_out_seat_slapping_from_an_old_view_is_stale(slapjack: str) -> None:
    stacks = [["4C"], ["5C"], []]
    game = cardcore.new_game(
        slapjack, 3, position=position_with(3, stacks, ["JD"], "[true,true,true]"), seed=4
    )
    game.act(1, "slap JD", at=1.0, seen=0)
    assert 2 not in game.to_act
    with pytest.raises(cardcore.StaleActionError, match="CORE-RT-1"):
        game.act(2, "slap JD", at=1.1, seen=0)
    with pytest.raises(cardcore.IllegalActionError, match="CORE-TURN-1"):
        game.act(2, "slap JD", at=1.1)


def test_a_seen_older_than_the_stale_window_is_refused(slapjack: str) -> None:
    game = fresh()
    at = 0.0
    while game.version < cardcore.STALE_WINDOW + 6:
        at += 1.0
        seat = next(s for s in game.to_act if game.legal_actions(s))
        legal = game.legal_actions(seat)
        jack = [a for a in legal if isinstance(a, Slap) and is_jack(a.card)]
        game.apply(jack[0] if jack else legal[0], at=at)
    assert not game.is_over
    seat = next(s for s in game.to_act if game.legal_actions(s))
    action = game.legal_actions(seat)[0]
    for seen in (game.version - cardcore.STALE_WINDOW - 1, game.version + 1, -1):
        with pytest.raises(cardcore.IllegalActionError, match=r"window.*CORE-RT-3"):
            game.apply(action, at=at, seen=seen)
    game.apply(action, at=at, seen=game.version - cardcore.STALE_WINDOW)  # inside: fine


def test_run_realtime_random_agents_play_to_the_end(slapjack: str) -> None:
    for players in (2, 3, 4):
        game = cardcore.new_game(slapjack, players, seed=players)
        agents = [cardcore.RandomAgent(seat) for seat in range(players)]
        result = cardcore.run_realtime(game, agents, seed=1)
        assert game.is_over and result is game.result
        assert game.version <= BOUND
        times = [at for _, _, at in game.record()["actions"]]
        assert all(t is not None for t in times) and times == sorted(times)


def test_run_realtime_quick_agents_race_for_jacks(slapjack: str) -> None:
    game = cardcore.new_game(slapjack, 3, seed=5)
    slaps: list[int] = []

    def watch(g: cardcore.Game, action: Action, at: float) -> None:
        if isinstance(action, Slap):
            slaps.append(action.seat)

    agents = [SlapjackQuickAgent(seat) for seat in range(3)]
    cardcore.run_realtime(game, agents, seed=2, on_action=watch)
    assert game.is_over and slaps  # they slapped Jacks (and only Jacks)
    assert all(
        is_jack(Card.parse(text.split()[1]))
        for _, text, _ in game.record()["actions"]
        if text.startswith("slap")
    )


class FixedAgent:
    """Turns, or slaps a Jack, always after the same delay."""

    def __init__(self, delay: float = 0.5) -> None:
        self.delay = delay

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        return Plan(legal[-1], self.delay) if legal else None


def test_equal_due_times_are_broken_by_a_seeded_draw_not_by_seat(slapjack: str) -> None:
    first = set()
    for seed in range(12):
        game = fresh()
        cardcore.run_realtime(game, [FixedAgent(), FixedAgent()], seed=seed, max_actions=1)
        first.add(game.record()["actions"][0][0])
    assert first == {0, 1}


def test_simulate_with_a_registered_agent(slapjack: str) -> None:
    cardcore.register("cardcore.agents", "slapjack-quick", SlapjackQuickAgent)
    try:
        summary = cardcore.simulate(
            slapjack, games=3, players=2, agents=["slapjack-quick", "random"], seed=2
        )
        assert summary.games == 3 and sum(summary.wins) + summary.truncated == 3
        with pytest.raises(cardcore.OptionError, match="plays slapjack"):
            cardcore.simulate("golf", games=1, players=2, agents=["slapjack-quick", "random"])
    finally:
        cardcore.unregister("cardcore.agents", "slapjack-quick")
    assert "slapjack-quick" not in cardcore.available_agents()


# --------------------------------------------------------------------------- hidden cards


def test_no_stack_card_reaches_another_seat(slapjack: str) -> None:
    streams: dict[Any, list[Event]] = {s: [] for s in (0, 1, 2, SPECTATOR)}
    subscribers = [(Event, streams[s].append, s) for s in streams]
    game = cardcore.new_game(slapjack, 3, seed=11, subscribers=subscribers)  # type: ignore[arg-type]
    public: set[str] = set()

    def watch(g: cardcore.Game, action: Action, at: float) -> None:
        public.update(c for c in g.view(None)["zones"][-1]["cards"] if c)
        if not g.is_over:
            for seat in (0, 1, 2, None):
                assert stack_cards_seen(g, seat) == []

    cardcore.run_realtime(
        game, [cardcore.RandomAgent(s) for s in range(3)], seed=3, on_action=watch
    )
    for seat, events in streams.items():
        shown = {
            str(v)
            for e in events[:-1]  # the last is game-ended, after the reveal
            for k, v in e.to_json().items()
            if k == "card" and v is not None
        }
        assert shown and shown <= public, (seat, shown - public)


def test_determinized_twin_looks_the_same(slapjack: str) -> None:
    game = fresh(3, seed=9)
    game.act(0, "turn", at=1.0)
    for seat in range(3):
        twin = game.determinize(seat, seed=5)
        assert twin.view(seat) == game.view(seat)


# --------------------------------------------------------------------------- persistence


def played(seed: int = 6) -> cardcore.Game:
    game = cardcore.new_game(NAME, 2, seed=seed)
    cardcore.run_realtime(
        game, [cardcore.RandomAgent(0), cardcore.RandomAgent(1)], seed=1, max_actions=40
    )
    return game


def test_save_load_record_replay_clone_position(slapjack: str) -> None:
    game = played()
    again = cardcore.load(json.dumps(game.save()))
    assert again.version == game.version and again.view(0) == game.view(0)
    record = game.record()
    assert all(at is not None for _, _, at in record["actions"])
    assert cardcore.replay(json.dumps(record)).view(None) == game.view(None)
    live = cardcore.new_game(slapjack, 2, seed=8)
    live.act(0, "turn", at=1.0)
    branch = live.clone()
    branch.act(1, "turn", at=2.0)
    assert (branch.version, live.version) == (2, 1)
    there = cardcore.new_game(slapjack, 2, position=live.position(), seed=3)
    assert there.view(1)["legal"] == live.view(1)["legal"]
    assert there.view(None)["zones"] == live.view(None)["zones"]


# --------------------------------------------------------------------------- the kit's reach


class LeakyErrorLogic(SlapLogic):
    """A plugin mistake: its reason for an illegal action names seat 1's hidden top card."""

    def rule_for(self, state: SlapState, action: Turn | Slap) -> tuple[str, str]:
        return "SLAP-SLAP-1", f"not now (seat 1's next card is {state.zones.top(1)})"


def test_kit_flags_an_error_message_naming_a_hidden_card(slapjack: str) -> None:
    from cardcore.testing import check_game

    module = types.ModuleType("leaky_slapjack")
    module.GAME = GameInfo(  # type: ignore[attr-defined]
        "leaky-slapjack", "Slapjack whose errors leak", 2, 4, realtime=True, fields=GAME.fields
    )

    @hookimpl
    def create_logic(ruleset: Any) -> SlapLogic:
        return LeakyErrorLogic(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "leaky-slapjack", module)
    try:
        game = cardcore.new_game("leaky-slapjack", 2, deck=JACK_FIRST, seed=1)
        with pytest.raises(cardcore.IllegalActionError, match="5C"):
            game.act(0, "slap 2D")  # seat 0 is told seat 1's face-down top card
        report = check_game("leaky-slapjack", players=2, games=2, strict=False)
        assert not report.ok and report.leaks > 0
    finally:
        cardcore.unregister("cardcore.games", "leaky-slapjack")


# --------------------------------------------------------------------------- RL


def test_rl_aec_env_plays_a_registered_realtime_game(slapjack: str) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from cardcore.rl import aec_env

    env = aec_env(slapjack, 3)
    env.reset(seed=3)
    steps = 0
    for _agent in env.agent_iter(max_iter=5 * BOUND):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        assert len(obs["action_mask"]) == SlapLogic.max_legal and len(legal)
        env.step(int(legal[-1]))  # slap when it can
        steps += 1
    assert steps > 0 and not env.agents
    with pytest.warns(UserWarning):  # PettingZoo's two warnings for dict observations
        api_test(aec_env(slapjack, 2), num_cycles=30)


def test_rl_gym_env_against_a_realtime_agent(slapjack: str) -> None:
    pytest.importorskip("gymnasium")
    from cardcore.rl import gym_env

    env = gym_env(slapjack, 2, opponents=SlapjackQuickAgent(seed=1))
    obs, info = env.reset(seed=1)
    for _ in range(5 * BOUND):
        obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].nonzero()[0][0]))
        if terminated or truncated:
            break
    assert terminated and not info["stalled"] and info["result"]["winners"] == [1]
    assert reward == -1.0


class TooSlowAgent:
    """Plans a turn due past MAX_TIME (1e15 s), which no game can record."""

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        return Plan(legal[0], 2e15) if legal else None


def test_run_realtime_refuses_a_plan_due_past_max_time(slapjack: str) -> None:
    game = fresh()
    with pytest.raises(cardcore.CardcoreError, match=r"seat 1 \(TooSlowAgent\).*past the latest"):
        cardcore.run_realtime(game, [SlapjackQuickAgent(), TooSlowAgent()], seed=1)


def test_rl_gym_env_names_an_opponent_whose_plan_is_due_past_max_time(slapjack: str) -> None:
    pytest.importorskip("gymnasium")
    from cardcore.rl import gym_env

    env = gym_env(slapjack, 2, opponents=TooSlowAgent())
    obs, _info = env.reset(seed=0)
    result: dict[str, Any] = {}
    with pytest.raises(cardcore.CardcoreError, match="TooSlowAgent"):
        for _ in range(5 * BOUND):
            obs, _, terminated, truncated, result = env.step(
                int(obs["action_mask"].nonzero()[0][0])
            )
            if terminated or truncated:
                break
    assert not result.get("stalled")  # today: a 'stalled' truncation, every plan dropped


def test_rl_aec_env_refuses_a_reaction_no_game_can_record(slapjack: str) -> None:
    from cardcore.rl import aec_env

    with pytest.raises(cardcore.OptionError, match="reaction"):
        env = aec_env(slapjack, 2, reaction=1e16)
        env.reset(seed=0)
        for _agent in env.agent_iter(max_iter=5 * BOUND):
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0]))


# --------------------------------------------------------------------------- a session


def test_session_two_clients_race_for_a_jack(slapjack: str) -> None:
    from cardcore.session import Session

    session = Session.create(slapjack, ["Ann", "Bob"], now=0.0, seed=7, deck=JACK_FIRST)
    wire: list[Any] = []
    wire += session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    out = session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    wire += out
    assert session.phase == "playing"
    views = {o.conn: o.message["view"] for o in out if o.message["type"] == "view"}
    assert views["ann"]["to_act"] == [0, 1] and views["bob"]["legal"] == ["turn"]
    wire += session.handle("ann", '{"type": "act", "action": "turn", "seen": 0}', now=3.0)
    out = session.handle("bob", '{"type": "act", "action": "slap JH", "seen": 1}', now=3.2)
    wire += out
    events = [e["event"] for o in out if o.message["type"] == "update" for e in o.message["events"]]
    assert "slapjack-pile-taken" in events
    out = session.handle("ann", '{"type": "act", "action": "slap JH", "seen": 1}', now=3.3)
    wire += out
    assert [(o.conn, o.message["type"], o.message["code"]) for o in out] == [
        ("ann", "error", "stale")
    ]
    assert out[0].message["rule"] == "CORE-RT-1"
    wire += session.handle("sam", '{"type": "watch"}', now=3.4)
    for conn in ("ann", "bob"):
        out = session.handle(conn, '{"type": "resync", "last": 0}', now=4.0)
        assert out and all(o.message["type"] != "error" for o in out)
        wire += out
    # nothing on the wire names a face-down card: 5C, 9S and 2D were never turned
    assert {o.conn for o in wire} == {"ann", "bob", "sam"}
    for o in wire:
        random_ids = ("token", "session")  # random text, which may hold any two letters
        text = json.dumps({k: v for k, v in o.message.items() if k not in random_ids})
        for hidden in ("5C", "9S", "2D"):
            assert hidden not in text, (o.conn, o.message["type"])


# --------------------------------------------------------------------------- more core rules


def test_core_position_1_a_position_after_a_knockout_reads_back(slapjack: str) -> None:
    position = position_with(3, [["4C"], ["5C"], []], ["JD"], "[true,true,true]")
    game = cardcore.new_game(slapjack, 3, position=position, seed=4)
    game.act(1, "slap JD", at=1.0)
    assert game.to_act == (0, 1)  # seat 2 is out
    there = cardcore.new_game(slapjack, 3, position=game.position(), seed=4)
    assert there.to_act == (0, 1)
    for seat in (0, 1, 2, None):
        view, again = game.view(seat), there.view(seat)
        assert again["legal"] == view["legal"] and again["zones"] == view["zones"]


def test_core_rt_1_an_action_legal_now_is_applied_whatever_seen_says(slapjack: str) -> None:
    game = fresh()
    game.act(1, "turn", at=1.0)  # 5C up; at version 0 there was nothing to slap
    game.act(0, "slap 5C", at=1.0, seen=0)  # equal stamps are in order
    assert game.version == 2
    with pytest.raises(cardcore.IllegalActionError, match="SLAP-SLAP-1"):
        game.act(0, "slap 9S", at=1.0, seen=0)  # never legal: illegal, not stale


def test_core_record_1_untimed_actions_keep_the_last_time(slapjack: str) -> None:
    game = fresh()
    game.act(0, "turn", at=5.0)
    game.act(1, "turn", at=None)
    with pytest.raises(cardcore.IllegalActionError, match="CORE-RECORD-1"):
        game.act(1, "turn", at=4.0)
    game.act(1, "turn", at=lambda: 6.5)  # a clock, read under the lock
    assert [at for _, _, at in game.record()["actions"]] == [5.0, None, 6.5]


class ShortLogic(SlapLogic):
    def action_bound(self, players: int, options: Any) -> int:
        return 6


def test_core_bound_1_a_hand_driven_game_ends_truncated_and_replays(slapjack: str) -> None:
    module = types.ModuleType("short_slapjack")
    module.GAME = GameInfo(  # type: ignore[attr-defined]
        "short-slapjack", "Slapjack of six actions", 2, 4, realtime=True, fields=GAME.fields
    )

    @hookimpl
    def create_logic(ruleset: Any) -> SlapLogic:
        return ShortLogic(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "short-slapjack", module)
    try:
        game = cardcore.new_game("short-slapjack", 2, seed=1)
        for i in range(6):
            game.act(i % 2, "turn", at=float(i))
        assert game.is_over and game.result is not None
        assert game.result.reason == "truncated" and game.result.winners == ()
        with pytest.raises(cardcore.IllegalActionError, match="CORE-OVER-1"):
            game.act(0, "turn", at=9.0)
        record = game.record()
        assert cardcore.replay(json.dumps(record)).result == game.result
        record["actions"].append([0, "turn", 9.0])
        with pytest.raises(cardcore.CorruptStateError):
            cardcore.replay(json.dumps(record))
    finally:
        cardcore.unregister("cardcore.games", "short-slapjack")


class BlankToActLogic(SlapLogic):
    """The workaround: leave the blank ``to_act`` at ``()`` (a tuple of any length)."""

    def blank_state(self, players: int, options: Any) -> SlapState:
        state = super().blank_state(players, options)
        state.to_act = ()
        return state

    def new_state(
        self, players: int, options: Any, cards: list[Card], seed: int, emit: Any
    ) -> SlapState:
        state = super().new_state(players, options, cards, seed, emit)
        state.to_act = tuple(range(players))
        return state


def test_positions_read_back_with_an_empty_blank_to_act(slapjack: str) -> None:
    from cardcore.testing import check_game

    module = types.ModuleType("blank_slapjack")
    module.GAME = GameInfo(  # type: ignore[attr-defined]
        "blank-slapjack", "Slapjack, blank to_act ()", 2, 4, realtime=True, fields=GAME.fields
    )

    @hookimpl
    def create_logic(ruleset: Any) -> SlapLogic:
        return BlankToActLogic(ruleset)

    module.create_logic = create_logic  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "blank-slapjack", module)
    try:
        text = position_with(3, [["4C"], ["5C"], []], ["JD"], "[true,true,true]")
        game = cardcore.new_game("blank-slapjack", 3, position=text.replace(NAME, "blank-slapjack"))
        game.act(1, "slap JD", at=1.0)
        there = cardcore.new_game("blank-slapjack", 3, position=game.position(), seed=4)
        assert there.to_act == (0, 1) and there.view(2) == {**game.view(2), "version": 0}
        report = check_game(
            "blank-slapjack", players=3, games=4, checks={"positions"}, sample=1.0, seed=1
        )
        assert report.ok and report.positions > 0
    finally:
        cardcore.unregister("cardcore.games", "blank-slapjack")


# --------------------------------------------------------------------------- hosts and rules


def test_two_threads_slap_one_jack_one_applied_one_stale(slapjack: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    game = fresh()
    game.act(0, "turn", at=1.0)

    def send(seat: int) -> str:
        try:
            game.act(seat, "slap JH", at=2.0, seen=1)
            return "applied"
        except cardcore.StaleActionError:
            return "stale"

    with ThreadPoolExecutor(2) as pool:
        outcomes = sorted(pool.map(send, [0, 1]))
    assert outcomes == ["applied", "stale"] and game.version == 2


def test_a_handler_that_slaps_is_queued_behind_the_turn(slapjack: str) -> None:
    game = fresh()

    def slap_jacks(event: CardMoved) -> None:
        if event.dst == "pile" and is_jack(event.card):
            game.act(1, f"slap {event.card}", at=3.0)

    game.events.subscribe(CardMoved, slap_jacks)
    game.act(0, "turn", at=2.0)
    assert game.record()["actions"] == [[0, "turn", 2.0], [1, "slap JH", 3.0]]


def no_wrong_slaps_module() -> types.ModuleType:
    module = types.ModuleType("slapjack_no_wrong_slaps")
    module.RULE = cardcore.RuleInfo(  # type: ignore[attr-defined]
        id="SLAPHOUSE-1",
        name="slapjack.no-wrong-slaps",
        game=NAME,
        summary="Only a Jack may be slapped",
    )

    @hookimpl
    def forbid_action(state: GameState, action: Action) -> cardcore.Veto | None:
        if isinstance(action, Slap) and not is_jack(action.card):
            return cardcore.Veto("SLAPHOUSE-1", "only a Jack may be slapped")
        return None

    module.forbid_action = forbid_action  # type: ignore[attr-defined]
    return module


def test_core_veto_1_a_house_rule_vetoes_in_real_time(slapjack: str) -> None:
    from cardcore.testing import check_game

    cardcore.register("cardcore.rules", "slapjack.no-wrong-slaps", no_wrong_slaps_module())
    try:
        game = cardcore.new_game(slapjack, 2, deck=JACK_FIRST, rules=["slapjack.no-wrong-slaps"])
        game.act(1, "turn", at=1.0)  # 5C up
        assert game.view(0)["legal"] == ["turn"]
        with pytest.raises(cardcore.IllegalActionError, match="SLAPHOUSE-1"):
            game.act(0, "slap 5C", at=1.1)
        game.act(0, "turn", at=1.2)  # JH up
        seen = game.version
        game.act(0, "slap JH", at=1.3, seen=seen)
        with pytest.raises(cardcore.StaleActionError, match="CORE-RT-1"):
            game.act(1, "slap JH", at=1.4, seen=seen)
        report = check_game(slapjack, players=3, rules=["slapjack.no-wrong-slaps"], games=2)
        assert report.ok and report.leaks == 0
    finally:
        cardcore.unregister("cardcore.rules", "slapjack.no-wrong-slaps")
    assert "slapjack.no-wrong-slaps" not in cardcore.available_rules(NAME)


class CountingAgent:
    """Turns after *delay*; remembers the version and time of every plan it was asked for."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.asked: list[tuple[int, float]] = []

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        self.asked.append((view["version"], now))
        turn = [a for a in legal if isinstance(a, Turn)]
        return Plan(turn[0], self.delay) if turn else None


def test_core_rt_2_an_agent_whose_plan_stays_legal_keeps_its_due_time(slapjack: str) -> None:
    game = fresh(deck="2H 5C 9S 2D 3C 4D")  # no Jack turns up in the first four
    slow, quick = CountingAgent(10.0), CountingAgent(1.0)
    cardcore.run_realtime(game, [slow, quick], seed=1, max_actions=4)
    assert game.record()["actions"] == [[1, "turn", float(t)] for t in range(1, 5)]
    assert slow.asked == [(0, 0.0)]  # its turn stayed legal: never asked again
    assert quick.asked[:4] == [(0, 0.0), (1, 1.0), (2, 2.0), (3, 3.0)]
    assert game.is_over and game.result is not None and game.result.reason == "truncated"


def test_run_realtime_asks_no_plan_for_a_position_it_then_truncates(slapjack: str) -> None:
    game = fresh(deck="2H 5C 9S 2D 3C 4D")
    slow, quick = CountingAgent(10.0), CountingAgent(1.0)
    cardcore.run_realtime(game, [slow, quick], seed=1, max_actions=4)
    assert game.result is not None and game.result.reason == "truncated"
    assert quick.asked == [(0, 0.0), (1, 1.0), (2, 2.0), (3, 3.0)]  # today also (4, 4.0)


def test_core_resign_1_a_knocked_out_seat_may_still_resign_and_end_the_game(slapjack: str) -> None:
    """CORE-RESIGN-1 as written: any seat, any time; an elimination game that wants otherwise
    must override ``GameLogic.resign`` (the plugin guide says so only for partnerships)."""
    stacks = [["4C"], ["5C"], []]
    game = cardcore.new_game(
        slapjack, 3, position=position_with(3, stacks, ["JD"], "[true,true,true]"), seed=4
    )
    game.act(1, "slap JD", at=1.0)
    assert 2 not in game.to_act and game.legal_actions(2) == ()
    game.act(2, "resign", at=1.5)
    assert game.result is not None and game.result.reason == "resigned"
    assert game.result.winners == (0, 1)
