"""A new trick-taking game ("Oh Hell lite") written from docs/ alone, as a third-party author.

Rules (IDs cited by the code and the errors):

* OHL-DEAL-1: each round, every seat gets ``hand`` cards (option, default 3); the next
  stock card is turned up, its suit is trumps.
* OHL-BID-1: from the seat left of the dealer, each seat bids 0..hand tricks, in turn.
* OHL-LEAD-1: the seat left of the dealer leads the first trick; a trick's winner leads next.
* OHL-FOLLOW-1: follow the suit led if able.
* OHL-TRICK-1: the highest trump wins, else the highest card of the suit led (aces high).
* OHL-SCORE-1: a seat that takes exactly its bid scores 10 + bid, else 0.
* OHL-END-1: after ``rounds`` rounds (option, default 2), the highest total wins (ties share).
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
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
    IllegalActionError,
    Layout,
    NotationError,
    Option,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    tricks,
    turns,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.positions import check
from cardcore.testing import assert_conserved, check_game

NAME = "ohhell-lite-docs"

# --------------------------------------------------------------------------- the game


@frozen
class Bid(Action):
    """Seat *seat* bids *tricks* tricks: ``bid 2`` (OHL-BID-1)."""

    tricks: int
    verb: ClassVar[str] = "bid"

    def notation(self) -> str:
        return f"bid {self.tricks}"


@frozen
class Play(Action):
    """Seat *seat* plays *card* to the trick: ``play 7H`` (OHL-FOLLOW-1)."""

    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


STOCK, TRUMP, TRICK = 0, 1, 2


def hand(seat: int) -> int:
    return 3 + seat


def won(seat: int, players: int) -> int:
    return 3 + players + seat


def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    taken = [ZoneSpec(f"won.{s}", s, Visibility.EVERYONE) for s in range(players)]
    fixed = [ZoneSpec("stock"), ZoneSpec("trump", None, Visibility.EVERYONE)]
    return Layout.of([*fixed, ZoneSpec("trick", None, Visibility.EVERYONE), *hands, *taken])


class OhHellState(GameState):
    __slots__ = ("bids", "dealer", "leader", "past", "phase", "round", "totals", "tricks")
    _mutable = ("zones", "bids", "tricks", "totals", "past")
    phase: str
    round: int
    bids: list[int]
    tricks: list[int]
    totals: list[int]
    leader: int
    dealer: int
    past: list[int]  # each finished round's scores, flat (a position slot holds flat lists only)


class OhHellLogic(GameLogic[OhHellState, Bid | Play]):
    action_types = (Bid, Play)
    position_fields = (
        "to_act",
        "phase",
        "round",
        "bids",
        "tricks",
        "totals",
        "leader",
        "dealer",
        "past",
    )

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return options["rounds"] * players * (options["hand"] + 1) + 10

    def blank_state(self, players: int, options: Mapping[str, Any]) -> OhHellState:
        state = OhHellState(players, options, Zones(layout(players)))
        state.phase, state.round, state.leader, state.dealer = "bid", 0, 0, 0
        state.bids, state.tricks, state.totals = [-1] * players, [0] * players, [0] * players
        state.past = []
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> OhHellState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: OhHellState, emit: Emit | None) -> None:
        n = state.players
        first = (state.dealer + 1) % n  # OHL-DEAL-1, OHL-BID-1
        deal_round_robin(
            state, STOCK, [hand(s) for s in range(n)], state.options["hand"], first=first
        )
        state.zones.move(STOCK, TRUMP, mask=ALL)
        state.phase, state.leader, state.to_act = "bid", first, (first,)
        state.bids, state.tricks = [-1] * n, [0] * n
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(n))))

    def trump(self, state: OhHellState) -> Any:
        return state.zones.cards[TRUMP][-1].suit

    def legal_actions(self, state: OhHellState, seat: int) -> tuple[Bid | Play, ...]:
        """Bids low to high; plays in the hand's order (bottom to top)."""
        if seat not in state.to_act:
            return ()
        if state.phase == "bid":
            return tuple(Bid(seat, b) for b in range(state.options["hand"] + 1))
        trick = state.zones.cards[TRICK]
        led = trick[0].suit if trick else None
        return tuple(Play(seat, c) for c in tricks.following(state.zones.cards[hand(seat)], led))

    def rule_for(self, state: OhHellState, action: Bid | Play) -> tuple[str, str]:
        if isinstance(action, Bid):
            if state.phase != "bid":
                return "OHL-BID-1", "bidding is over: play a card"
            return "OHL-BID-1", f"bid 0 to {state.options['hand']} tricks, not {action.tricks}"
        if state.phase != "play":
            return "OHL-BID-1", "bid first: play starts once every seat has bid"
        if action.card not in state.zones.cards[hand(action.seat)]:
            return "OHL-FOLLOW-1", "play a card from your own hand"
        return (
            "OHL-FOLLOW-1",
            f"follow suit: {state.zones.cards[TRICK][0].suit.name.lower()} was led",
        )

    def apply(self, state: OhHellState, action: Bid | Play, emit: Emit | None) -> None:
        n, seat = state.players, action.seat
        if isinstance(action, Bid):
            state.bids[seat] = action.tricks
            nxt = (seat + 1) % n
            if nxt == state.leader:
                state.phase = "play"
            state.to_act = (nxt,)
            if emit is not None:
                emit(cardcore.TurnPassed(nxt))
            return
        z = state.zones
        z.move(hand(seat), TRICK, z.cards[hand(seat)].index(action.card), mask=ALL)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "trick", action.card))
        if len(z.cards[TRICK]) < n:
            state.to_act = (nxt := (seat + 1) % n,)
            if emit is not None:
                emit(cardcore.TurnPassed(nxt))
            return
        order = turns.seats_from(state.leader, n)  # OHL-TRICK-1
        winner = order[tricks.trick_winner(z.cards[TRICK], trump=self.trump(state))]
        state.tricks[winner] += 1
        while z.cards[TRICK]:
            card = z.move(TRICK, won(winner, n), 0, mask=ALL)
            if emit is not None:
                emit(CardMoved(None, "trick", f"won.{winner}", card))
        state.leader = winner  # OHL-LEAD-1
        if z.cards[hand(winner)]:
            state.to_act = (winner,)
            if emit is not None:
                emit(cardcore.TurnPassed(winner))
            return
        made = [10 + b if b == t else 0 for b, t in zip(state.bids, state.tricks, strict=True)]
        made = list(self.score_round(state, made))  # OHL-SCORE-1
        state.totals = [a + b for a, b in zip(state.totals, made, strict=True)]
        state.past += made
        state.round += 1
        if state.round >= state.options["rounds"]:  # OHL-END-1
            turns.end_game(
                state, turns.winners_by(state.totals, lowest=False), state.totals, "rounds"
            )
            return
        gather(state, STOCK)
        state.dealer = (state.dealer + 1) % n
        self._deal(state, emit)

    def table(self, state: OhHellState, seat: int | None) -> dict[str, Any]:
        return {
            "phase": state.phase,
            "round": state.round,
            "bids": list(state.bids),
            "tricks": list(state.tricks),
            "totals": list(state.totals),
            "leader": state.leader,
            "dealer": state.dealer,
        }

    def history(self, state: OhHellState, seat: int | None, since: int) -> list[dict[str, Any]]:
        n = state.players
        rounds = [state.past[i : i + n] for i in range(0, len(state.past), n)]
        return [{"round": i, "scores": r} for i, r in enumerate(rounds) if i >= since]

    def scores(self, state: OhHellState) -> tuple[float, ...]:
        return tuple(map(float, state.totals))

    def check_position(self, state: OhHellState) -> None:
        check(state.phase in ("bid", "play"), "phase must be bid or play, not {!r}", state.phase)
        check(
            len(state.zones.cards[TRUMP]) == 1 or state.is_over, "one trump card must be turned up"
        )


GAME = GameInfo(
    NAME,
    "Oh Hell lite: bid your tricks exactly",
    3,
    4,
    options=(
        Option("hand", 3, "Cards dealt to each seat per round", minimum=1, maximum=10),
        Option("rounds", 2, "Rounds in a game", minimum=1, maximum=5),
    ),
    version="1.0.0",
    fields=(
        ViewField("phase", "choice", "Bidding or playing", choices=("bid", "play")),
        ViewField("round", "int", "Rounds finished"),
        ViewField("bids", "per-seat", "Each seat's bid, -1 before it bids", of="int"),
        ViewField("tricks", "per-seat", "Tricks taken this round", of="int"),
        ViewField("totals", "per-seat", "Points so far", of="int"),
        ViewField("leader", "seat", "Who led the current trick"),
        ViewField("dealer", "seat", "Who dealt this round"),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> OhHellLogic:
    return OhHellLogic(ruleset)


# --------------------------------------------------------------------------- fixtures / helpers


@pytest.fixture
def ohl() -> Iterator[str]:
    module = types.ModuleType("ohhell_lite_docs")
    module.GAME = GAME  # type: ignore[attr-defined]
    module.create_logic = create_logic  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", NAME, module)
    try:
        yield NAME
    finally:
        cardcore.unregister("cardcore.games", NAME)


def random_game(players: int, seed: int, **options: int) -> cardcore.Game:
    game = cardcore.new_game(NAME, players, seed=seed, options=options or None)
    agents = [cardcore.RandomAgent(seed * 10 + s) for s in range(players)]
    cardcore.play(game, agents)
    return game


def hands_of(view: dict[str, Any]) -> dict[str, list[Any]]:
    return {z["name"]: z["cards"] for z in view["zones"] if z["name"].startswith("hand.")}


def to_play_phase(game: cardcore.Game) -> None:
    while game.view(None)["table"]["phase"] == "bid":
        seat = game.to_act[0]
        game.act(seat, "bid 1")


# --------------------------------------------------------------------------- tests


def test_registered_game_is_listed_and_unregistered_after(ohl: str) -> None:
    assert ohl in cardcore.available_games()


def test_unregister_removes_it() -> None:
    assert NAME not in cardcore.available_games()


@pytest.mark.parametrize("players", [3, 4])
def test_random_playouts_end_by_rule(ohl: str, players: int) -> None:
    for seed in range(25):
        game = random_game(players, seed)
        assert game.is_over and game.result.reason == "rounds"
        assert len(game.result.scores) == players
        assert all(s == 0 or 10 <= s <= 2 * 13 for s in game.result.scores)
        assert_conserved(game)


def test_every_card_in_one_place_after_every_action(ohl: str) -> None:

    for seed in range(5):
        game = cardcore.new_game(NAME, 4, seed=seed)
        agents = [cardcore.RandomAgent(s) for s in range(4)]
        cardcore.play(game, agents, on_action=lambda g, a: assert_conserved(g))
        # and by hand, from a position: every one of the 52 cards once
        cards = [
            w.split("@")[0].rstrip("!")
            for p in game.position().split("|")[1:]
            for w in p.split()[1:]
        ]
        assert sorted(cards) == sorted(
            str(c) for c in cardcore.get_ruleset(NAME).logic.deck(4, game.options)
        )


def test_ohl_score_1_exact_bid_scores_ten_plus_bid(ohl: str) -> None:
    # 3 seats, 1 card each, 1 round; seat 1 (left of dealer 0) is dealt first.
    deck = "AS 2S 3S 4H"  # seat1 AS, seat2 2S, seat0 3S, trump 4H
    game = cardcore.new_game(NAME, 3, deck=deck, seed=1, options={"hand": 1, "rounds": 1})
    assert game.to_act == (1,)
    assert game.view(1)["zones"][3 + 1]["cards"] == ["AS"]
    for seat, text in [(1, "bid 1"), (2, "bid 0"), (0, "bid 1")]:
        game.act(seat, text)
    for seat, text in [(1, "play AS"), (2, "play 2S"), (0, "play 3S")]:
        game.act(seat, text)
    assert game.is_over
    assert game.result.scores == (0.0, 11.0, 10.0)
    assert game.result.winners == (1,)


def test_ohl_trick_1_trump_beats_led_suit(ohl: str) -> None:
    deck = "AS 2H 3S 4H"  # seat1 AS, seat2 2H (trump), seat0 3S, trump 4H
    game = cardcore.new_game(NAME, 3, deck=deck, seed=1, options={"hand": 1, "rounds": 1})
    for seat, text in [(1, "bid 1"), (2, "bid 1"), (0, "bid 0")]:
        game.act(seat, text)
    for seat, text in [(1, "play AS"), (2, "play 2H"), (0, "play 3S")]:
        game.act(seat, text)
    assert game.result.scores == (10.0, 0.0, 11.0)


def test_views_hide_other_hands(ohl: str) -> None:
    for seed in range(4):
        game = cardcore.new_game(NAME, 4, seed=seed)
        agents = [cardcore.RandomAgent(s) for s in range(4)]
        while not game.is_over:
            for seat in range(4):
                hands = hands_of(game.view(seat))
                assert all(c is not None for c in hands[f"hand.{seat}"])
                assert all(
                    c is None for name, cs in hands.items() if name != f"hand.{seat}" for c in cs
                )
            assert all(c is None for cs in hands_of(game.view(None)).values() for c in cs)
            seat = game.to_act[0]
            game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat)))


def test_not_following_suit_is_refused_and_changes_nothing(ohl: str) -> None:
    for seed in range(40):
        game = cardcore.new_game(NAME, 3, seed=seed, options={"hand": 5})
        to_play_phase(game)
        leader = game.to_act[0]
        game.act(leader, str(game.legal_actions(leader)[0]))
        seat = game.to_act[0]
        legal = {str(a) for a in game.legal_actions(seat)}
        held = [c for c in game.view(seat)["zones"][3 + seat]["cards"]]
        off = [c for c in held if f"play {c}" not in legal]
        if not off:
            continue
        before, view_before = game.save(), game.view(seat)
        with pytest.raises(IllegalActionError, match="OHL-FOLLOW-1"):
            game.act(seat, f"play {off[0]}")
        assert game.save() == before and game.view(seat) == view_before
        return
    pytest.fail("no deal where a seat could fail to follow suit")


def test_out_of_turn_and_malformed_are_refused_and_change_nothing(ohl: str) -> None:
    game = cardcore.new_game(NAME, 3, seed=3)
    before = game.save()
    other = (game.to_act[0] + 1) % 3
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(other, "bid 1")
    with pytest.raises(NotationError):
        game.act(game.to_act[0], "bid one")
    with pytest.raises(NotationError):
        game.act(game.to_act[0], "play 1X")
    with pytest.raises(NotationError):
        game.act(game.to_act[0], "shout")
    with pytest.raises(IllegalActionError, match="OHL-BID-1"):
        game.act(game.to_act[0], "bid 9")
    with pytest.raises(IllegalActionError, match="OHL-BID-1"):
        game.act(game.to_act[0], "play AS")
    assert game.save() == before and game.version == 0


def test_save_load_round_trip(ohl: str) -> None:
    for seed in range(5):
        game = cardcore.new_game(NAME, 4, seed=seed)
        agents = [cardcore.RandomAgent(s) for s in range(4)]
        for _ in range(7 + seed * 3):
            seat = game.to_act[0]
            game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat)))
        data = game.save()
        again = cardcore.load(json.loads(json.dumps(data)))
        assert again.save() == data
        assert all(again.view(s) == game.view(s) for s in (0, 1, 2, 3, None))
        cardcore.play(again, [cardcore.RandomAgent(9)] * 4)
        assert again.is_over


def test_record_replay_round_trip(ohl: str) -> None:
    for seed in range(5):
        game = random_game(3, seed)
        record = json.loads(json.dumps(game.record()))
        again = cardcore.replay(record)
        assert again.result == game.result
        assert again.position() == game.position()
        assert again.record() == game.record()


def test_testing_kit_passes(ohl: str) -> None:
    report = check_game(NAME, players=3, games=3)
    assert report.ok and report.skipped == {}


def test_testing_kit_passes_four_seats(ohl: str) -> None:
    report = check_game(NAME, players=4, games=2, options={"hand": 2, "rounds": 2})
    assert report.ok


def test_simulate(ohl: str) -> None:
    summary = cardcore.simulate(NAME, games=20, players=3, seed=5)
    again = cardcore.simulate(NAME, games=20, players=3, seed=5)
    assert summary == again
    assert summary.games == 20 and summary.truncated == 0 and summary.reasons == {"rounds": 20}


def test_ismcts_plays_it(ohl: str) -> None:
    bot = cardcore.load_agent("ismcts", seed=3, iterations=15)
    game = cardcore.new_game(NAME, 3, seed=11, options={"hand": 2, "rounds": 1})
    result = cardcore.play(game, [bot, cardcore.RandomAgent(1), cardcore.RandomAgent(2)])
    assert result.reason == "rounds"


def test_history_holds_past_rounds(ohl: str) -> None:
    game = random_game(3, 4, rounds=3)
    past = game.history()
    assert [h["round"] for h in past] == [0, 1, 2]
    assert [sum(col) for col in zip(*(h["scores"] for h in past), strict=True)] == list(
        game.result.scores
    )
    assert game.logic.rounds_played(game.state) == 3


def test_rejected_action_emits_no_event_and_keeps_record(ohl: str) -> None:
    game = cardcore.new_game(NAME, 3, seed=8)
    heard: list[Any] = []
    game.events.subscribe(cardcore.Event, heard.append)
    record = game.record()
    with pytest.raises(IllegalActionError):
        game.act(game.to_act[0], "bid 7")
    assert heard == [] and game.record() == record
    game.act(game.to_act[0], "bid 0")
    assert [e.slug for e in heard][:1] == ["action-applied"]


def test_hand_built_bool_field_is_recorded_as_the_legal_action(ohl: str) -> None:
    game = cardcore.new_game(NAME, 3, seed=2)
    seat = game.to_act[0]
    game.apply(Bid(seat, True))  # type: ignore[arg-type]
    assert game.record()["actions"][0][1] == "bid 1"


def test_a_slot_the_table_leaves_out_is_blank_in_samples_and_the_kit_passes_it(ohl: str) -> None:
    import random

    from cardcore.search import sample_position

    options = {"hand": 1, "rounds": 3}
    game = cardcore.new_game(NAME, 3, seed=1, options=options)
    while game.view(None)["table"]["round"] < 1:
        game.apply(game.legal_actions(game.to_act[0])[0])
    seat = game.to_act[0]
    world = cardcore.new_game(
        NAME,
        3,
        position=sample_position(game.view(seat), random.Random(1)),
        seed=2,
        options=options,
    )
    # the premise: the sample lost the slot the table leaves out (history, rounds_played)
    assert "past" not in game.view(seat)["table"]
    assert game.history() and not world.history()
    assert game.logic.rounds_played(game.state) == 1 and world.logic.rounds_played(world.state) == 0
    # the kit reports a slot left out only when a sample shows the seat another view (or
    # cannot be played on): "past" feeds history only, so it passes (testing.rst says so)
    report = check_game(
        NAME, players=3, games=3, options=options, checks={"positions"}, strict=False, sample=1.0
    )
    assert report.ok, report.failures
