"""Snap race: a small real-time game written from the docs alone, and checks of the real-time pages.

Rules (SNAP-*), invented for this test:

* SNAP-DEAL-1: 2 or 3 players, one 52-card deck. The top card of the deck goes face up
  onto the shared ``centre``; the rest is dealt one card at a time from seat 0 into one
  face-down ``stock`` per seat (a seat's first dealt card is the top of its stock). Then
  every seat turns its top stock card face up into its face-up slot ``up``. Nobody sees
  a stock's cards, its owner neither.
* SNAP-PLAY-1: any seat may at any time play its face-up card onto the centre if its rank
  is one above or one below the centre's top rank (ranks wrap: K and A are neighbours).
  The action names the card (``play 6H``).
* SNAP-FLIP-1: a seat whose face-up slot is empty turns its top stock card face up into
  it (``flip``).
* SNAP-WIN-1: the first seat with an empty stock and an empty face-up slot wins.
* SNAP-STUCK-1: when, after the deal or an action, no seat may act, the centre is
  redealt: every face-up card goes face down under its owner's stock, every stock and
  the centre are shuffled, and every seat turns its top stock card face up again;
  repeated while nobody may act, at most 50 times.
* SNAP-STUCK-2: still stuck after that, the game ends: fewest cards left wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
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
    Layout,
    Plan,
    Ruleset,
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.turns import end_game, winners_by

NAME = "snap-race"
CENTRE = 0
REDEALS = 50


@frozen
class Play(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


@frozen
class Flip(Action):
    verb: ClassVar[str] = "flip"


def stock(seat: int) -> int:
    return 1 + seat


def up(seat: int, players: int) -> int:
    return 1 + players + seat


def layout(players: int) -> Layout:
    stocks = [ZoneSpec(f"stock.{s}", s, Visibility.NOBODY) for s in range(players)]
    ups = [ZoneSpec(f"up.{s}", s, Visibility.EVERYONE) for s in range(players)]
    return Layout.of([ZoneSpec("centre", None, Visibility.TOP), *stocks, *ups])


def neighbours(a: Card, b: Card) -> bool:
    return (a.rank.value - b.rank.value) % 13 in (1, 12)


class SnapState(GameState):
    __slots__ = ()


class SnapLogic(GameLogic[SnapState, Play | Flip]):
    action_types = (Play, Flip)
    position_fields = ("to_act",)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 2000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> SnapState:
        return SnapState(players, options, Zones(layout(players)))

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> SnapState:
        state = self.blank_state(players, options)
        state.seed = seed
        deck = cards[::-1]  # top first
        state.zones.put(CENTRE, deck[0], mask=ALL)
        rest = deck[1:]
        for s in range(players):
            for card in reversed(rest[s::players]):  # SNAP-DEAL-1: first dealt on top
                state.zones.put(stock(s), card)
        state.to_act = tuple(range(players))
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[stock(s)]) for s in range(players))))
        for s in range(players):
            self._turn_up(state, s, None, emit)
        self._settle(state, emit)
        return state

    def _turn_up(self, state: SnapState, seat: int, actor: int | None, emit: Emit | None) -> None:
        card = state.zones.move(stock(seat), up(seat, state.players), mask=ALL)
        if emit is not None:
            emit(CardMoved(actor, f"stock.{seat}", f"up.{seat}", card))

    def _anyone_can_act(self, state: SnapState) -> bool:
        return any(self.legal_actions(state, s) for s in range(state.players))

    def _settle(self, state: SnapState, emit: Emit | None) -> None:
        """SNAP-STUCK-1 and SNAP-STUCK-2."""
        zones, n = state.zones, state.players
        for _ in range(REDEALS):
            if self._anyone_can_act(state):
                return
            for s in range(n):
                while zones.cards[up(s, n)]:
                    card, _ = zones.pop(up(s, n))
                    zones.insert_bottom(stock(s), card, mask=0)
                    if emit is not None:
                        emit(CardMoved(None, f"up.{s}", f"stock.{s}", card))
                zones.shuffle(stock(s), state.rng())
                if emit is not None:
                    emit(Shuffled(f"stock.{s}", len(zones.cards[stock(s)])))
            zones.shuffle(CENTRE, state.rng())
            for i in range(len(zones.cards[CENTRE])):
                zones.seen[CENTRE][i] = ALL  # the centre's cards were all face up
            if emit is not None:
                emit(Shuffled("centre", len(zones.cards[CENTRE])))
            for s in range(n):
                self._turn_up(state, s, None, emit)
        if not self._anyone_can_act(state):
            scores = self.scores(state)
            end_game(state, winners_by(scores, lowest=True), scores, "stuck")

    def legal_actions(self, state: SnapState, seat: int) -> tuple[Play | Flip, ...]:
        """``play <card>`` (SNAP-PLAY-1), else ``flip`` (SNAP-FLIP-1)."""
        zones, n = state.zones, state.players
        mine = zones.top(up(seat, n))
        if mine is None:
            return (Flip(seat),) if zones.cards[stock(seat)] else ()
        top = zones.top(CENTRE)
        return (Play(seat, mine),) if top is not None and neighbours(mine, top) else ()

    def rule_for(self, state: SnapState, action: Play | Flip) -> tuple[str, str]:
        if isinstance(action, Flip):
            return "SNAP-FLIP-1", "flip only into an empty face-up slot"
        return "SNAP-PLAY-1", "play your face-up card on a card one rank away"

    def apply(self, state: SnapState, action: Play | Flip, emit: Emit | None) -> None:
        seat, zones, n = action.seat, state.zones, state.players
        if isinstance(action, Flip):
            self._turn_up(state, seat, seat, emit)
        else:
            card = zones.move(up(seat, n), CENTRE, mask=ALL)
            if emit is not None:
                emit(CardMoved(seat, f"up.{seat}", "centre", card))
            if not zones.cards[stock(seat)]:  # SNAP-WIN-1
                end_game(state, (seat,), self.scores(state), "emptied")
                return
        self._settle(state, emit)

    def scores(self, state: SnapState) -> tuple[float, ...]:
        n = state.players
        return tuple(
            float(len(state.zones.cards[stock(s)]) + len(state.zones.cards[up(s, n)]))
            for s in range(n)
        )

    def standings(self, state: SnapState) -> tuple[int, ...]:
        return winners_by(self.scores(state), lowest=True)

    def table(self, state: SnapState, seat: int | None) -> dict[str, Any]:
        return {"stock": [len(state.zones.cards[stock(s)]) for s in range(state.players)]}


GAME = GameInfo(
    NAME,
    "Snap race: play a neighbour rank on the centre, in real time",
    2,
    3,
    realtime=True,
    version="1.0.0",
    fields=(ViewField("stock", "per-seat", "Cards in each seat's stock.", of="int"),),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> SnapLogic:
    return SnapLogic(ruleset)


@pytest.fixture
def snap():
    import types

    module = types.ModuleType("snap_race")
    module.GAME, module.create_logic = GAME, create_logic
    cardcore.register("cardcore.games", NAME, module)
    try:
        yield NAME
    finally:
        cardcore.unregister("cardcore.games", NAME)


class Greedy:
    """Plays its first legal action after *react* seconds (plus a seeded jitter)."""

    def __init__(self, react: float, seed: int = 0) -> None:
        self.react = react
        self.rng = random.Random(seed)

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        return Plan(legal[0], self.react + self.rng.random() * 0.1) if legal else None


# ---------------------------------------------------------------- helpers


def all_cards(game: cardcore.Game) -> list[Card]:
    return [card for pile in game.state.zones.cards for card in pile]


def assert_conserved(game: cardcore.Game) -> None:
    cards = all_cards(game)
    assert len(cards) == 52 and len(set(cards)) == 52


def stock_cards(game: cardcore.Game) -> set[str]:
    n = len(game.players)
    return {str(c) for s in range(n) for c in game.state.zones.cards[stock(s)]}


def public_cards(game: cardcore.Game) -> set[str]:
    n = len(game.players)
    zones = game.state.zones.cards
    return {str(c) for c in zones[CENTRE]} | {str(c) for s in range(n) for c in zones[up(s, n)]}


def snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    return (
        game.version,
        game.position(),
        game.record(),
        [game.view(s) for s in range(len(game.players))],
    )


# Stacked: centre 5C; seat 0 shows 6H, seat 1 shows 4D, seat 2 shows 9S (SNAP-DEAL-1).
RACE_DECK = "5C 6H 4D 9S"


# ---------------------------------------------------------------- claims that hold


def test_legal_actions_for_several_seats_at_once(snap):
    game = cardcore.new_game(snap, 3, deck=RACE_DECK, seed=1)
    assert game.to_act == (0, 1, 2)
    assert game.view(None)["zones"][CENTRE]["cards"][0] == "5C"
    assert [str(a) for a in game.legal_actions(0)] == ["play 6H"]
    assert [str(a) for a in game.legal_actions(1)] == ["play 4D"]
    assert game.legal_actions(2) == ()
    for s in range(3):
        assert game.view(s)["legal"] == [str(a) for a in game.legal_actions(s)]
    with pytest.raises(cardcore.IllegalActionError, match="SNAP-PLAY-1"):
        game.act(2, "play 9S")


def test_race_second_play_at_same_seen_is_stale_and_changes_nothing(snap):
    game = cardcore.new_game(snap, 3, deck=RACE_DECK, seed=1)
    seen0, seen1 = game.view(0)["version"], game.view(1)["version"]
    assert seen0 == seen1 == game.version
    game.act(0, "play 6H", at=1.0, seen=seen0)
    events: list[Any] = []
    game.events.subscribe(cardcore.Event, events.append)
    before = snapshot(game)
    with pytest.raises(cardcore.StaleActionError, match="CORE-RT-1"):
        game.act(1, "play 4D", at=1.1, seen=seen1)  # 4D is no neighbour of 6H
    assert snapshot(game) == before and events == []
    # judged against the current state only, the same action is illegal, not stale
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.act(1, "play 4D", at=1.1)
    assert not isinstance(info.value, cardcore.StaleActionError)
    assert [str(a) for a in game.legal_actions(0)] == ["flip"]


def test_reads_do_not_change_what_counts_as_seen(snap):
    game = cardcore.new_game(snap, 3, deck=RACE_DECK, seed=1)
    seen = game.version
    game.act(0, "play 6H", at=1.0, seen=seen)
    for s in range(3):
        game.view(s), game.legal_actions(s), game.history(s)
    with pytest.raises(cardcore.StaleActionError):
        game.act(1, "play 4D", at=1.1, seen=seen)


def _first_legal_game(game: cardcore.Game, versions: int) -> None:
    """Apply the lowest seat's first legal action, timed 1 s apart, *versions* times."""
    t = 0.0
    while game.version < versions and not game.is_over:
        seat = next(s for s in game.to_act if game.legal_actions(s))
        t += 1.0
        game.apply(game.legal_actions(seat)[0], at=t)


def _long_game(snap: str, versions: int) -> cardcore.Game:
    for seed in range(50):
        game = cardcore.new_game(snap, 2, seed=seed)
        _first_legal_game(game, versions)
        if not game.is_over:
            return game
    raise AssertionError("no seed reached the version")


def test_seen_outside_the_window_is_refused(snap):
    window = cardcore.STALE_WINDOW
    game = _long_game(snap, window + 5)
    seat = next(s for s in game.to_act if game.legal_actions(s))
    text = str(game.legal_actions(seat)[0])
    t = game.record()["actions"][-1][2]
    for seen in (game.version - window - 1, game.version + 1, -1):
        before = snapshot(game)
        with pytest.raises(cardcore.IllegalActionError, match="CORE-RT-3"):
            game.act(seat, text, at=t, seen=seen)
        assert snapshot(game) == before
    game.act(seat, text, at=t, seen=game.version - window)  # the oldest seen inside the window


def test_at_never_goes_back(snap):
    game = cardcore.new_game(snap, 3, deck=RACE_DECK, seed=1)
    game.act(0, "play 6H", at=2.0)
    before = snapshot(game)
    with pytest.raises(cardcore.IllegalActionError, match="CORE-RECORD-1"):
        game.act(0, "flip", at=1.5)
    assert snapshot(game) == before
    game.act(0, "flip", at=2.0)  # equal times are in order
    assert [a[2] for a in game.record()["actions"]] == [2.0, 2.0]


def test_a_winning_play_makes_the_racing_play_stale_not_over(snap):
    """CORE-RT-1: stale also when the action that came first ended the game."""
    for seed in range(100):
        game = cardcore.new_game(snap, 2, seed=seed)
        t = 0.0
        while not game.is_over:
            zones = game.state.zones.cards
            mine, theirs = game.legal_actions(0), game.legal_actions(1)
            if (
                mine
                and theirs
                and isinstance(mine[0], Play)
                and isinstance(theirs[0], Play)
                and not zones[stock(0)]
            ):
                seen = game.version
                game.apply(mine[0], at=t + 1, seen=seen)  # SNAP-WIN-1: seat 0 empties its hand
                assert (
                    game.is_over and game.result.winners == (0,) and game.result.reason == "emptied"
                )
                before = snapshot(game)
                with pytest.raises(cardcore.StaleActionError, match="CORE-RT-1"):
                    game.apply(theirs[0], at=t + 2, seen=seen)
                assert snapshot(game) == before
                return
            seat = next(s for s in game.to_act if game.legal_actions(s))
            t += 1.0
            game.apply(game.legal_actions(seat)[0], at=t)
    raise AssertionError("no seed reached a winning race")


def test_truncated_game_refuses_with_core_over_1_not_stale(snap):
    game = cardcore.new_game(snap, 3, deck=RACE_DECK, seed=1)
    game.truncate()
    with pytest.raises(cardcore.IllegalActionError, match="CORE-OVER-1") as info:
        game.act(0, "play 6H", seen=0)
    assert not isinstance(info.value, cardcore.StaleActionError)


def test_stale_judged_exactly_in_the_window_and_alike_after_clone_load_replay(snap):
    """Every action legal somewhere in the window, sent at every seen of the window."""
    game = _long_game(snap, 70)
    record = game.record()
    states = {}
    for v in range(game.version - cardcore.STALE_WINDOW, game.version + 1):
        prefix = dict(record, actions=record["actions"][:v])
        states[v] = {
            (s, str(a)) for s in range(2) for a in cardcore.replay(prefix).legal_actions(s)
        }
    now = states[game.version]
    t = record["actions"][-1][2]
    copies = {
        "clone": game.clone,
        "load": lambda: cardcore.load(game.save()),
        "replay": lambda: cardcore.replay(game.record()),
    }
    tried = 0
    for seat, text in sorted(set().union(*states.values())):
        for seen in range(game.version - 5, game.version + 1):  # the near end of the window
            if (seat, text) in now:
                expected = "applied"
            elif (seat, text) in states[seen]:
                expected = "StaleActionError"
            else:
                expected = "IllegalActionError"
            for name, make in copies.items():
                target = make()
                try:
                    target.act(seat, text, at=t, seen=seen)
                    outcome = "applied"
                except cardcore.CardcoreError as error:
                    outcome = type(error).__name__
                assert outcome == expected, (name, seat, text, seen)
                tried += 1
    assert tried


def test_clock_callable_as_at(snap):
    game = cardcore.new_game(snap, 3, deck=RACE_DECK, seed=1)
    game.act(0, "play 6H", at=lambda: 2.0)
    for clock, error in (
        (lambda: 1.0, cardcore.IllegalActionError),
        (lambda: "soon", cardcore.IllegalActionError),
    ):
        before = snapshot(game)
        with pytest.raises(error, match="CORE-RECORD-1"):
            game.act(0, "flip", at=clock)
        assert snapshot(game) == before
    with pytest.raises(ZeroDivisionError):  # the clock's own exception reaches the caller as it is
        game.act(0, "flip", at=lambda: 1 / 0)
    for bad in (float("nan"), float("inf"), 2e15, "x"):
        with pytest.raises(cardcore.IllegalActionError, match="CORE-RECORD-1"):
            game.act(0, "flip", at=bad)
    game.act(0, "flip")  # at=None records no time
    with pytest.raises(cardcore.IllegalActionError, match="CORE-RECORD-1"):
        game.act(1, "play 4D", at=1.0)  # still earlier than the last timed action
    assert [a[2] for a in game.record()["actions"]] == [2.0, None]


def test_threads_racing_for_one_play(snap):
    from concurrent.futures import ThreadPoolExecutor

    game = cardcore.new_game(snap, 3, deck=RACE_DECK, seed=1)

    def send(seat: int, text: str) -> str:
        try:
            game.act(seat, text, seen=0)
            return "applied"
        except cardcore.StaleActionError:
            return "stale"

    with ThreadPoolExecutor(2) as pool:
        outcomes = sorted(pool.map(send, [0, 1], ["play 6H", "play 4D"]))
    assert outcomes == ["applied", "stale"] and game.version == 1


class Quick:
    """Plays its first legal action after a fixed delay; records the times it was asked."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.asked: list[float] = []

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        self.asked.append(now)
        return Plan(legal[0], self.delay) if legal else None


# centre 5C; seat 0 shows 6H (then 2C), seat 1 4D, seat 2 7S
KEEP_DECK = "5C 6H 4D 7S 2C"


def test_runner_keeps_due_times_of_plans_still_legal(snap):
    game = cardcore.new_game(snap, 3, deck=KEEP_DECK, seed=1)
    result = cardcore.run_realtime(
        game, [Quick(0.2), Quick(5.0), Quick(1.0)], seed=1, max_actions=3
    )
    # 0.2: seat 0 plays 6H (seat 1's 4D is overtaken, seat 2 plans 7S due 0.2 + 1.0);
    # 0.4: seat 0 flips, which leaves seat 2's plan legal, so it keeps 1.2
    assert game.record()["actions"] == [[0, "play 6H", 0.2], [0, "flip", 0.4], [2, "play 7S", 1.2]]
    assert result.reason == "truncated" and game.is_over
    again = cardcore.run_realtime(game, [Quick(0.2), Quick(5.0), Quick(1.0)], seed=1)
    assert again.reason == "truncated" and len(game.record()["actions"]) == 3
    assert cardcore.replay(game.record()).result.reason == "truncated"


def test_runner_ties_are_not_broken_by_seat_and_faster_wins_the_race(snap):
    firsts = set()
    for seed in range(12):
        game = cardcore.new_game(snap, 3, deck=RACE_DECK, seed=1)
        cardcore.run_realtime(game, [Quick(1.0), Quick(1.0), Quick(1.0)], seed=seed, max_actions=1)
        firsts.add(game.record()["actions"][0][0])
    assert firsts == {0, 1}
    game = cardcore.new_game(snap, 3, deck=RACE_DECK, seed=1)
    cardcore.run_realtime(game, [Quick(0.3), Quick(0.2), Quick(0.1)], seed=0, max_actions=1)
    assert game.record()["actions"] == [[1, "play 4D", 0.2]]


def test_runner_start_and_negative_delay(snap):
    game = cardcore.new_game(snap, 3, deck=RACE_DECK, seed=1)
    cardcore.run_realtime(
        game, [Quick(-1.0), Quick(5.0), Quick(5.0)], seed=1, start=3.0, max_actions=1
    )
    assert game.record()["actions"] == [[0, "play 6H", 3.0]]
    game = cardcore.new_game(snap, 2, seed=3)
    first = next(a for s in game.to_act for a in game.legal_actions(s))
    game.apply(first, at=10.0)
    cardcore.run_realtime(game, [Greedy(0.3, 1), Greedy(0.4, 2)], seed=1, start=0.0)
    times = [a[2] for a in game.record()["actions"]]
    assert times == sorted(times) and times[0] == 10.0 and min(times[1:]) >= 10.0


def test_runner_refusals(snap):
    class Never:
        def plan(self, view: Any, legal: Any, now: float) -> None:
            return None

    game = cardcore.new_game(snap, 3, deck=RACE_DECK, seed=1)
    with pytest.raises(cardcore.StalledGameError, match="CORE-RT-2"):
        cardcore.run_realtime(game, [Never(), Never(), Never()], seed=1)
    assert game.version == 0

    class Thief:
        def plan(self, view: Any, legal: Any, now: float) -> Plan:
            return Plan(Play(0, Card.parse("6H")), 0.1)

    with pytest.raises(cardcore.IllegalActionError, match="seat 2"):
        cardcore.run_realtime(game, [Quick(1.0), Quick(1.0), Thief()], seed=1)
    assert game.version == 0

    for delay in (float("nan"), float("inf"), 2e15):
        with pytest.raises(cardcore.CardcoreError, match=r"seat 0 \(Quick\)"):
            cardcore.run_realtime(game, [Quick(delay), Quick(1.0), Quick(1.0)], seed=1)
        assert game.version == 0
    with pytest.raises(cardcore.OptionError, match="run_realtime"):
        cardcore.play(
            game, [cardcore.RandomAgent(1), cardcore.RandomAgent(2), cardcore.RandomAgent(3)]
        )


def test_faster_bot_plays_more_cards(snap):
    """Snap race rewards speed less than the deal (SNAP-STUCK-2 counts cards), so check plays."""
    for fast in (0, 1):
        plays = [0, 0]
        for seed in range(6):
            game = cardcore.new_game(snap, 2, seed=seed)
            agents = [Greedy(0.6, seed), Greedy(0.6, seed + 1)]
            agents[fast] = Greedy(0.2, seed + 2)
            cardcore.run_realtime(game, agents, seed=seed)
            for seat, text, _ in game.record()["actions"]:
                plays[seat] += text.startswith("play")
        assert plays[fast] > plays[1 - fast]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_run_realtime_plays_to_the_end(snap, seed):
    game = cardcore.new_game(snap, 2 + seed % 2, seed=seed)
    times: list[float] = []
    hidden_leak: list[str] = []

    def on_action(game: cardcore.Game, action: Action, at: float) -> None:
        times.append(at)
        assert_conserved(game)
        if not game.is_over:
            for s in range(len(game.players)):
                shown = {c for z in game.view(s)["zones"] for c in z["cards"] if c is not None}
                hidden_leak.extend(shown & stock_cards(game))

    result = cardcore.run_realtime(
        game,
        [Greedy(0.3, seed), Greedy(0.5, seed + 100)][: len(game.players)]
        + [Greedy(0.4, seed + 200)] * (len(game.players) - 2),
        seed=seed,
        on_action=on_action,
    )
    assert game.is_over and result.reason in ("emptied", "stuck")
    assert times and times == sorted(times)
    assert [a[2] for a in game.record()["actions"]] == times
    assert hidden_leak == []
    if result.reason == "emptied":
        (w,) = result.winners
        assert result.scores[w] == 0.0
    assert_conserved(game)


def test_random_agents_plan_and_play_to_the_end(snap):
    for seed in (5, 6):
        game = cardcore.new_game(snap, 2, seed=seed)
        result = cardcore.run_realtime(
            game, [cardcore.RandomAgent(seed), cardcore.RandomAgent(seed + 1)], seed=seed
        )
        assert game.is_over and result.reason in ("emptied", "stuck", "truncated")
        assert_conserved(game)


def test_save_load_and_replay_round_trip_with_times(snap):
    game = cardcore.new_game(snap, 3, seed=7)
    cardcore.run_realtime(
        game, [Greedy(0.3, 1), Greedy(0.4, 2), Greedy(0.5, 3)], seed=7, max_actions=15
    )
    record = game.record()
    assert len(record["actions"]) == 15 and all(a[2] is not None for a in record["actions"])
    loaded = cardcore.load(game.save())
    assert loaded.position() == game.position() and loaded.record() == record
    assert [loaded.view(s) for s in range(3)] == [game.view(s) for s in range(3)]
    replayed = cardcore.replay(record)
    assert replayed.position() == game.position() and replayed.record() == record

    whole = cardcore.new_game(snap, 2, seed=8)
    cardcore.run_realtime(whole, [Greedy(0.3, 1), Greedy(0.4, 2)], seed=8)
    again = cardcore.replay(whole.record())
    assert again.position() == whole.position() and again.record() == whole.record()
    assert again.result == whole.result
    back = cardcore.load(whole.save())
    assert back.record() == whole.record() and back.result == whole.result


def test_save_load_mid_game_plays_on_identically(snap):
    game = cardcore.new_game(snap, 2, seed=9)
    _first_legal_game(game, 10)
    copy = cardcore.load(game.save())
    t = game.record()["actions"][-1][2]
    for g in (game, copy):
        _first_legal_game_from(g, t, 30)
    assert copy.record() == game.record() and copy.position() == game.position()


def _first_legal_game_from(game: cardcore.Game, t: float, versions: int) -> None:
    while game.version < versions and not game.is_over:
        seat = next(s for s in game.to_act if game.legal_actions(s))
        t += 0.5
        game.apply(game.legal_actions(seat)[0], at=t)


def test_hidden_stock_cards_never_in_views_or_events(snap):
    game = cardcore.new_game(snap, 3, seed=11)
    streams: dict[int, list[dict[str, Any]]] = {s: [] for s in range(3)}
    for s in range(3):
        game.events.subscribe(cardcore.Event, lambda e, s=s: streams[s].append(e.to_json()), seat=s)
    turned_up: set[str] = (
        set()
    )  # cards the host stream shows going face up (SNAP-FLIP-1, SNAP-STUCK-1)

    def host(event: cardcore.Event) -> None:
        data = event.to_json()
        if data.get("event") == "card-moved" and data["dst"].startswith(("up.", "centre")):
            turned_up.add(data["card"])

    game.events.subscribe(cardcore.Event, host)
    rng = random.Random(11)
    t = 0.0
    while not game.is_over and game.version < 300:
        turned_up.clear()
        seats = [s for s in game.to_act if game.legal_actions(s)]
        seat = rng.choice(seats)
        before_public, lengths = public_cards(game), {s: len(streams[s]) for s in range(3)}
        t += 0.25
        game.apply(rng.choice(game.legal_actions(seat)), at=t)
        if game.is_over:
            break
        allowed = before_public | public_cards(game) | turned_up
        for s in range(3):
            for event in streams[s][lengths[s] :]:
                card = event.get("card")
                assert card is None or card in allowed, (s, event)
            shown = {c for z in game.view(s)["zones"] for c in z["cards"] if c is not None}
            assert not shown & stock_cards(game)
    assert_conserved(game)


@pytest.mark.parametrize("players", [2, 3])
def test_conformance_kit_passes(snap, players):
    from cardcore.testing import check_game

    report = check_game(snap, players=players, games=2)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0
