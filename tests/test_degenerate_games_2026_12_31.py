"""Degenerate but legal third-party games, written from the plugin guide, run through every layer.

Each game below is a small plugin registered in-process with :func:`cardcore.register`
(and unregistered after): a game over at the deal, one decision, a thousand forced turns,
the most seats the core allows and one seat, a one-card deck and a deck of ten, a deck
nobody sees and one everyone sees, more legal actions than any default, a real-time game of
every seat at once, and games with no chance or chance at every action.
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Iterator, Mapping
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
)
from cardcore.positions import check
from cardcore.setup import MAX_PLAYERS
from cardcore.turns import end_game, next_seat

STOCK = 0


@frozen
class Pick(Action):
    """Seat *seat* picks number *n* (the only kind of action of every game here)."""

    n: int
    verb: ClassVar[str] = "pick"

    def notation(self) -> str:
        return f"pick {self.n}"


class TinyState(GameState):
    __slots__ = ("count",)
    count: int


def make_game(
    name: str,
    *,
    seats: tuple[int, int] = (2, 2),
    cards: tuple[Card, ...] | None = None,
    length: int = 1,
    legal: int = 1,
    realtime: bool = False,
    over_at_deal: bool | Callable[[list[Card]], bool] = False,
    chance_each_action: bool = False,
    stock: Visibility = Visibility.NOBODY,
    hands: Visibility | None = None,
    max_legal: int | None = None,
    bound: int | None = None,
) -> types.SimpleNamespace:
    """A game module: *length* actions end it, each seat's legal actions ``pick 0`` ...
    ``pick <legal - 1>``; the cards lie in the ``stock`` (and one card each in ``hand.N``
    piles when *hands* is given). Turn-based games pass the turn each action; real-time
    games keep every seat in ``to_act``."""

    def layout(players: int) -> Layout:
        extra = [] if hands is None else [ZoneSpec(f"hand.{s}", s, hands) for s in range(players)]
        return Layout.of([ZoneSpec("stock", None, stock), *extra])

    class TinyLogic(GameLogic[TinyState, Pick]):
        action_types = (Pick,)
        position_fields = ("to_act", "count")

        def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
            return bound if bound is not None else length + 10

        def deck(self, players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
            return cards if cards is not None else super().deck(players, options)

        def blank_state(self, players: int, options: Mapping[str, Any]) -> TinyState:
            state = TinyState(players, options, Zones(layout(players)))
            state.count = 0
            return state

        def new_state(
            self,
            players: int,
            options: Mapping[str, Any],
            cards: list[Card],
            seed: int,
            emit: Emit | None,
        ) -> TinyState:
            state = self.blank_state(players, options)
            state.seed = seed
            mask = cardcore.ALL if stock is Visibility.EVERYONE else 0
            for card in cards:
                state.zones.put(STOCK, card, mask)
            if hands is not None:
                hmask = cardcore.ALL if hands is Visibility.EVERYONE else 0
                for s in range(players):
                    if state.zones.cards[STOCK]:
                        card, _ = state.zones.pop(STOCK)
                        state.zones.put(1 + s, card, hmask if hmask else 1 << s)
            if over_at_deal is True or (callable(over_at_deal) and over_at_deal(cards)):
                end_game(state, tuple(range(players)), (0.0,) * players, "nothing to decide")
            else:
                state.to_act = tuple(range(players)) if realtime else (0,)
            return state

        def legal_actions(self, state: TinyState, seat: int) -> tuple[Pick, ...]:
            """``pick 0`` up to ``pick <legal - 1>``, in that order."""
            return tuple(Pick(seat, n) for n in range(legal))

        def rule_for(self, state: TinyState, action: Pick) -> tuple[str, str]:
            return "TINY-PICK-1", f"pick a number below {legal}"

        def apply(self, state: TinyState, action: Pick, emit: Emit | None) -> None:
            state.count += 1
            if chance_each_action and len(state.zones.cards[STOCK]) > 1:
                state.zones.shuffle(STOCK, state.rng())
            if state.count >= length:
                scores = tuple(float(s == 0) for s in range(state.players))
                end_game(state, (0,), scores, "counted out")
            elif not realtime:
                state.to_act = (next_seat(action.seat, state.players),)

        def table(self, state: TinyState, seat: int | None) -> dict[str, Any]:
            return {"count": state.count}

        def check_position(self, state: TinyState) -> None:
            check(0 <= state.count <= length, "count must be from 0 to {}", length)

    if max_legal is not None:
        TinyLogic.max_legal = max_legal

    game = GameInfo(
        name,
        f"A degenerate test game ({name})",
        seats[0],
        seats[1],
        realtime=realtime,
        version="1.0.0",
        fields=(ViewField("count", "int", "Actions taken so far."),),
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> TinyLogic:
        return TinyLogic(ruleset)

    return types.SimpleNamespace(GAME=game, create_logic=create_logic)


@pytest.fixture
def registered() -> Iterator[Any]:
    """Register games for one test; unregister every one after it."""
    names: list[str] = []

    def register(name: str, **kw: Any) -> str:
        cardcore.register("cardcore.games", name, make_game(name, **kw))
        names.append(name)
        return name

    yield register
    for name in reversed(names):
        cardcore.unregister("cardcore.games", name)


def play_through(game: cardcore.Game, pick: int = 0) -> None:
    """Play *game* to its end, every seat to act taking ``pick <pick>``."""
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(Pick(seat, pick))


def all_layers_agree(name: str, players: int, seed: int = 5) -> cardcore.Game:
    """Play one game of *name* to its end and check that save/load, record/replay, the
    position and a clone all give back the same table; return the game."""
    game = cardcore.new_game(name, players, seed=seed)
    start = game.position()
    again = cardcore.new_game(name, players, position=start, seed=seed + 1)
    assert again.position() == start
    assert game.clone().position() == start
    play_through(game)
    assert cardcore.replay(game.record()).position() == game.position()
    loaded = cardcore.load(game.save())
    assert loaded.position() == game.position() and loaded.result == game.result
    return game


def session_of(name: str, players: int, *, config: Any = None, store: Any = None) -> Any:
    """A session of *name* with every seat joined (connection ``c<seat>``)."""
    from cardcore.session import Session

    session = Session.create(
        name, players, now=0.0, seed=3, config=config, store=store, session_id="s1"
    )
    for seat in range(players):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
    return session


def kinds(out: list[Any]) -> list[str]:
    return [o.message["type"] for o in out]


# --- a game that ends inside new_state ---------------------------------------------------


def test_over_at_deal_is_over_with_an_empty_record_and_refuses_every_action(
    registered: Any,
) -> None:
    """game.rst: such a game is over at new_game with an empty record; every action,
    resign too, is refused with CORE-OVER-1."""
    name = registered("dg-deal", over_at_deal=True)
    game = cardcore.new_game(name, 2, seed=1)
    assert game.is_over and game.to_act == () and game.version == 0
    assert game.result is not None and game.result.reason == "nothing to decide"
    assert game.record()["actions"] == []
    for action in (Pick(0, 0), cardcore.Resign(0), cardcore.EndMatch()):
        with pytest.raises(cardcore.IllegalActionError) as err:
            game.apply(action)
        assert err.value.rule_id == "CORE-OVER-1"
    assert game.version == 0 and game.record()["actions"] == []


def test_over_at_deal_reads_back_through_every_layer(registered: Any) -> None:
    name = registered("dg-deal", over_at_deal=True)
    game = cardcore.new_game(name, 2, seed=1)
    assert cardcore.replay(game.record()).result == game.result
    assert cardcore.load(game.save()).result == game.result
    back = cardcore.new_game(name, 2, position=game.position(), seed=2)
    assert back.is_over and back.result == game.result
    assert game.clone().result == game.result and game.determinize(0, 3).is_over


def test_over_at_deal_runners_count_no_action(registered: Any) -> None:
    """game.rst: runners take it as it is (simulate counts 0 actions)."""
    from cardcore.testing import check_game

    name = registered("dg-deal", over_at_deal=True)
    summary = cardcore.simulate(name, games=3, seed=1)
    assert summary.mean_actions == 0.0 and summary.truncated == 0
    assert summary.reasons == {"nothing to decide": 3}
    assert check_game(name, games=2).failures == []


def test_over_at_deal_rl_envs_refuse_after_redealing(registered: Any) -> None:
    """game.rst: the RL environments deal again, up to 1,000 times, then refuse it."""
    from cardcore.rl import aec_env, gym_env, vector_env

    name = registered("dg-deal", over_at_deal=True)
    for make in (
        lambda: aec_env(name, 2),
        lambda: gym_env(name, 2),
        lambda: vector_env(name, 2, 2),
    ):
        with pytest.raises(cardcore.IllegalActionError) as err:
            make().reset(seed=1)
        assert "CORE-OVER-1" in str(err.value) and "1000" in str(err.value)


def test_over_at_deal_session_is_over_once_seated_and_resumes_over(registered: Any) -> None:
    from cardcore.session import MemoryStore, Session, SessionConfig, TimeControl

    name = registered("dg-deal", over_at_deal=True)
    store = MemoryStore()
    config = SessionConfig(time=TimeControl(turn=5.0))
    session = session_of(name, 2, config=config, store=store)
    assert session.phase == "over" and session.next_deadline() is None
    out = session.handle("w", '{"type": "watch"}', now=2.0)
    views = [o.message["view"] for o in out if o.message["type"] == "view"]
    assert views and views[-1]["result"]["reason"] == "nothing to decide"  # over: no delay
    resumed = Session.resume(store, "s1", now=3.0)
    assert resumed.game is not None and session.game is not None
    assert resumed.phase == "over" and resumed.game.result == session.game.result


def test_action_bound_zero_is_refused_as_the_guide_says(registered: Any) -> None:
    """game.rst: a game over at the deal still declares an action_bound of at least 1."""
    name = registered("dg-b0", over_at_deal=True, bound=0)
    with pytest.raises(cardcore.PluginError, match="at least 1"):
        cardcore.new_game(name, 2, seed=1)


# --- one decision, and the same forced action for 1,000 turns ----------------------------


def test_one_decision_game_through_every_layer(registered: Any) -> None:
    from cardcore.testing import check_game

    name = registered("dg-one", length=1)
    game = all_layers_agree(name, 2)
    assert game.version == 1 and game.result is not None and game.result.winners == (0,)
    assert check_game(name, games=3).failures == []
    assert cardcore.simulate(name, games=2, seed=1).mean_actions == 1.0


def test_thousand_forced_turns_end_by_rule_not_truncated(registered: Any) -> None:
    name = registered("dg-1k", length=1000, bound=1010)
    game = all_layers_agree(name, 2)
    assert game.version == 1000 and game.result is not None and game.result.reason == "counted out"
    summary = cardcore.simulate(name, games=2, seed=1)
    assert summary.mean_actions == 1000.0 and summary.truncated == 0


def test_bound_equal_to_the_length_keeps_the_rules_reason(registered: Any) -> None:
    """CORE-BOUND-1: truncated only when the bound is reached *without* ending by rule."""
    name = registered("dg-eq", length=5, bound=5)
    game = cardcore.new_game(name, 2, seed=1)
    play_through(game)
    assert game.result is not None and game.result.reason == "counted out"
    assert cardcore.replay(game.record()).result == game.result


def test_thousand_turns_in_a_session_then_resumed(registered: Any) -> None:
    from cardcore.session import MemoryStore, Session

    name = registered("dg-1k", length=1000, bound=1010)
    store = MemoryStore()
    session = session_of(name, 2, store=store)
    for version in range(1000):
        seat = version % 2
        out = session.handle(
            f"c{seat}",
            json.dumps({"type": "act", "action": "pick 0", "seen": version}),
            2.0 + version,
        )
        assert "error" not in kinds(out), out
    assert session.phase == "over"
    resumed = Session.resume(store, "s1", now=5000.0)
    assert resumed.game is not None and session.game is not None
    assert resumed.phase == "over" and resumed.game.version == 1000
    assert resumed.game.result == session.game.result


def test_one_late_tick_plays_a_thousand_timeouts(registered: Any) -> None:
    """session.rst: one tick far past a deadline may play many timeouts (at most 10,000
    steps a call); each seat's clock runs from the previous deadline."""
    from cardcore.session import SessionConfig, TimeControl

    name = registered("dg-1k", length=1000, bound=1010)
    session = session_of(name, 2, config=SessionConfig(time=TimeControl(turn=1.0)))
    assert session.phase == "playing"
    session.tick(1e6)
    assert session.phase == "over" and session.game.version == 1000
    assert [session.cause(v) for v in (1, 1000)] == ["timeout", "timeout"]


# --- the most seats, and one seat ---------------------------------------------------------


def test_most_seats_is_64_and_65_is_refused_citing_core_seat_2(registered: Any) -> None:
    from cardcore.session import Session

    assert MAX_PLAYERS == 64
    name = registered(
        "dg-max", seats=(1, MAX_PLAYERS), length=3, hands=Visibility.OWNER, cards=cardcore.decks(2)
    )
    game = all_layers_agree(name, MAX_PLAYERS)
    assert len(game.players) == 64
    with pytest.raises(cardcore.OptionError, match="CORE-SEAT-2"):
        cardcore.new_game(name, MAX_PLAYERS + 1, seed=1)
    with pytest.raises(cardcore.OptionError):
        Session.create(name, MAX_PLAYERS + 1, now=0.0, seed=1)


def test_64_seats_views_hide_each_hand_from_the_other_63(registered: Any) -> None:
    name = registered(
        "dg-max", seats=(1, MAX_PLAYERS), length=3, hands=Visibility.OWNER, cards=cardcore.decks(2)
    )
    game = cardcore.new_game(name, MAX_PLAYERS, seed=1)
    hands = {z["name"]: z for z in game.view(63)["zones"] if z["name"].startswith("hand.")}
    assert hands["hand.63"]["cards"] != [None] and len(hands["hand.63"]["cards"]) == 1
    assert all(z["cards"] == [None] for n, z in hands.items() if n != "hand.63")
    spectator = [z for z in game.view(None)["zones"] if z["name"].startswith("hand.")]
    assert all(z["cards"] == [None] for z in spectator)
    # the seat's determinization keeps its own card and re-deals nobody else's into its hand
    det = game.determinize(63, 1)
    assert det.view(63)["zones"][-1]["cards"] == hands["hand.63"]["cards"]


def test_64_seats_through_the_kit_simulate_rl_and_session(registered: Any) -> None:
    from cardcore.rl import aec_env
    from cardcore.testing import check_game

    name = registered(
        "dg-max", seats=(1, MAX_PLAYERS), length=3, hands=Visibility.OWNER, cards=cardcore.decks(2)
    )
    assert check_game(name, players=64, games=1, samples_per_game=2).failures == []
    assert cardcore.simulate(name, players=64, games=1, seed=1).players == 64
    env = aec_env(name, 64)
    env.reset(seed=1)
    assert len(env.agents) == 64
    session = session_of(name, 64)
    assert session.phase == "playing"


def test_a_seat_range_past_the_core_limit_is_stated_consistently(registered: Any) -> None:
    """A game declaring max_players=65 (past MAX_PLAYERS) is accepted by GameInfo and
    register, but no game of 65 seats can start; simulate then says the game 'takes 1 to 65
    players, not 65' (CORE-SEAT-2), refusing a count inside the range it names."""
    if MAX_PLAYERS > 64:
        return
    try:
        name = registered("dg-65", seats=(1, MAX_PLAYERS + 1), length=2)
    except cardcore.PluginError:
        return  # the declaration refused, as min_players below 1 is
    with pytest.raises(cardcore.OptionError) as err:
        cardcore.simulate(name, players=MAX_PLAYERS + 1, games=1, seed=1)
    assert f"takes 1 to {MAX_PLAYERS + 1} players, not {MAX_PLAYERS + 1}" not in str(err.value)


def test_solo_game_resign_has_no_winner_and_end_crowns_the_lone_seat(registered: Any) -> None:
    """game.rst checklist: one-seat games."""
    name = registered("dg-solo", seats=(1, 1), length=4)
    game = cardcore.new_game(name, 1, seed=1)
    game.apply(cardcore.Resign(0))
    assert game.result is not None and game.result.winners == ()
    game = cardcore.new_game(name, 1, seed=1)
    game.apply(cardcore.EndMatch())
    assert game.result is not None and game.result.winners == (0,)


def test_solo_game_through_layers(registered: Any) -> None:
    from cardcore.rl import gym_env
    from cardcore.testing import check_game

    name = registered("dg-solo", seats=(1, 1), length=4)
    all_layers_agree(name, 1)
    assert check_game(name, players=1, games=2).failures == []
    env = gym_env(name, 1)
    obs, _ = env.reset(seed=1)
    total = 0.0
    for _ in range(10):
        obs, reward, terminated, truncated, _ = env.step(int(obs["action_mask"].nonzero()[0][0]))
        total += float(reward)
        if terminated or truncated:
            break
    assert terminated and not truncated and total == 1.0  # rewards="win": +1 for a win
    session = session_of(name, 1)
    assert session.phase == "playing"


def test_solo_takeback_needs_no_other_seat(registered: Any) -> None:
    """session.rst: every *other* seat must accept; with one seat there is none."""
    name = registered("dg-solo", seats=(1, 1), length=4, stock=Visibility.EVERYONE)
    session = session_of(name, 1)
    session.handle("c0", '{"type": "act", "action": "pick 0", "seen": 0}', now=2.0)
    assert session.game.version == 1
    out = session.handle("c0", '{"type": "takeback", "op": "request"}', now=3.0)
    assert "error" not in kinds(out) and session.game.version == 0


def test_solo_compare_has_no_first_seat_advantage(registered: Any) -> None:
    """game.rst checklist: with one seat, compare shows no first-seat advantage."""
    name = registered("dg-solo", seats=(1, 1), length=4)
    comparison = cardcore.compare(name, agents=["random"], players=1, games=3, seed=1)
    assert comparison.a.first_seat is None


def test_compare_interval_holds_its_mean_when_the_lone_seat_always_wins(registered: Any) -> None:
    """A solo game the lone seat always wins: 4 games, win share 1.0; the 95% interval
    must contain its own mean (low <= mean <= high). _wilson(1.0, 4) gives
    high = 0.9999999999999999 < 1.0 (no clamp to p)."""
    name = registered("dg-solo", seats=(1, 1), length=4)
    comparison = cardcore.compare(name, agents=["random"], players=1, games=4, seed=1)
    share = comparison.a.seat_wins[0]
    assert share.mean == 1.0
    assert share.low <= share.mean <= share.high


def test_cli_play_solo_does_not_announce_other_players(
    registered: Any, capsys: Any, monkeypatch: Any
) -> None:
    import io

    from cardcore import cli

    name = registered("dg-solo", seats=(1, 1), length=2)
    monkeypatch.setattr("sys.stdin", io.StringIO("pick 0\npick 0\n"))
    assert cli.main(["play", name, "--seed", "1", "--no-record"]) == 0
    out = capsys.readouterr().out
    assert "game over (counted out)" in out
    assert "the others are played by" not in out


def test_cli_play_and_simulate_take_a_game_over_at_the_deal(registered: Any, capsys: Any) -> None:
    import os

    from cardcore import cli

    name = registered("dg-deal", over_at_deal=True)
    assert cli.main(["play", name, "--seed", "1", "--no-record"]) == 0
    assert "game over (nothing to decide)" in capsys.readouterr().out
    assert cli.main(["simulate", name, "--games", "2", "--quiet", "--json", os.devnull]) == 0


# --- one card, and far more than 52 --------------------------------------------------------


@pytest.mark.parametrize("hands", [None, Visibility.OWNER])
def test_single_card_deck_through_every_layer(registered: Any, hands: Visibility | None) -> None:
    from cardcore.testing import check_game

    name = registered("dg-card1", cards=(Card.parse("7H"),), length=3, hands=hands)
    all_layers_agree(name, 2)
    assert check_game(name, games=2).failures == []
    game = cardcore.new_game(name, 2, seed=1)
    assert "7H" in game.determinize(1, 2).position()


def test_ten_decks_and_300_identical_cards_through_every_layer(registered: Any) -> None:
    from cardcore.testing import check_game

    for name in (
        registered("dg-big", cards=cardcore.decks(10), length=3, hands=Visibility.OWNER),
        registered("dg-same", cards=(Card.parse("AS"),) * 300, length=3, hands=Visibility.OWNER),
    ):
        all_layers_agree(name, 2)
        assert check_game(name, games=1, samples_per_game=3).failures == []
        game = cardcore.new_game(name, 2, seed=1)
        assert sum(z["count"] for z in game.determinize(0, 9).view(0)["zones"]) == len(
            game.logic.deck(2, {})  # every copy still placed once
        )


def test_copies_are_counted_in_deck_positions_and_saves(registered: Any) -> None:
    """design.md: every card accounted for; with copies, one copy too many is refused."""
    import copy

    ace, two = Card.parse("AS"), Card.parse("2C")
    name = registered("dg-dup", cards=(ace, ace, ace, two), length=2, hands=Visibility.OWNER)
    assert cardcore.new_game(name, 2, deck="AS AS", seed=1).version == 0  # two of three aces
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game(name, 2, deck="AS AS AS AS", seed=1)
    game = cardcore.new_game(name, 2, seed=1)
    position = game.position()
    with pytest.raises(cardcore.OptionError, match="CORE-POSITION-1"):
        cardcore.new_game(name, 2, position=position.replace("stock: ", "stock: AS "), seed=1)
    saved = game.save()
    bad = copy.deepcopy(saved)
    bad["state"]["zones"]["stock"]["cards"] = ["AS"] * len(bad["state"]["zones"]["stock"]["cards"])
    with pytest.raises(cardcore.CorruptStateError):
        cardcore.load(bad)


def test_generic_encoding_counts_copies_of_a_card(registered: Any) -> None:
    """rl.rst (GenericEncoding): copies of a card share one position, which counts them."""
    from cardcore.rl import observe

    ace, two = Card.parse("AS"), Card.parse("2C")
    name = registered("dg-3as", cards=(ace, ace, ace, two), stock=Visibility.EVERYONE, length=3)
    game = cardcore.new_game(name, 2, seed=1)
    obs = observe(game, 0)["observation"]
    # one zone (the stock), kinds sorted by text: 2C then AS; its visible-cards plane first
    assert list(obs[:2]) == [1.0, 3.0]


# --- every card hidden, every card public -----------------------------------------------------


def test_hidden_from_everyone_no_view_shows_a_card(registered: Any) -> None:
    name = registered("dg-dark", cards=cardcore.decks(1), length=3, stock=Visibility.NOBODY)
    game = cardcore.new_game(name, 2, seed=1)
    for seat in (0, 1, None):
        (stock,) = game.view(seat)["zones"]
        assert stock["count"] == 52 and set(stock["cards"]) == {None}
    session = session_of(name, 2)
    session.handle("c0", '{"type": "act", "action": "pick 0", "seen": 0}', now=2.0)
    out = session.handle("c1", '{"type": "resync", "last": 0}', now=3.0)
    (view,) = [o.message["view"] for o in out if o.message["type"] == "view"]
    assert set(view["zones"][0]["cards"]) == {None}


def test_public_everything_every_view_shows_every_card_and_determinize_changes_nothing(
    registered: Any,
) -> None:
    from cardcore.testing import check_game

    name = registered(
        "dg-pub",
        cards=cardcore.decks(1),
        length=3,
        stock=Visibility.EVERYONE,
        hands=Visibility.EVERYONE,
    )
    game = cardcore.new_game(name, 2, seed=1)
    shown = [sorted(c for z in game.view(s)["zones"] for c in z["cards"]) for s in (0, 1, None)]
    assert shown[0] == shown[1] == shown[2] == sorted(map(str, cardcore.decks(1)))
    assert game.determinize(0, 7).position() == game.position()
    assert check_game(name, games=2).failures == []


# --- more legal actions than any default -------------------------------------------------------


def test_three_thousand_legal_actions_in_order(registered: Any) -> None:
    from cardcore.testing import ALL_CHECKS, check_game

    name = registered("dg-wide", length=3, legal=3000)
    game = cardcore.new_game(name, 2, seed=1)
    assert game.view(0)["legal"] == [f"pick {n}" for n in range(3000)]
    assert game.act(0, "pick 2999") == Pick(0, 2999)
    with pytest.raises(cardcore.IllegalActionError, match="TINY-PICK-1"):
        game.act(1, "pick 3000")
    no_notation = sorted(set(ALL_CHECKS) - {"notation"})  # that one: see the test below
    assert check_game(name, games=1, checks=no_notation).failures == []
    agent = cardcore.load_agent("ismcts", seed=1, iterations=10)
    assert agent.choose(game.view(1), game.legal_actions(1)) in game.legal_actions(1)


def test_kit_notation_check_reads_back_a_wide_legal_set_without_relisting_it(
    registered: Any,
) -> None:
    """The kit read back each of a seat's L legal notations at a point; the default
    GameLogic.parse_action calls legal_actions again for each text and scans it, so one
    point cost L calls of legal_actions building L actions each (3,000 legal actions: 43 s
    for check_game(games=2) on this machine). Fixed: at most READ_BACK (64) notations of a
    seat are read back at one point, spread from the first to the last (testing-kit.rst),
    so a point costs at most 64 listings whatever L; every notation is still checked for
    being distinct."""
    from cardcore.testing import check_game
    from cardcore.testing._contract import READ_BACK

    legal = 300
    name = registered("dg-wide-count", length=3, legal=legal)
    logic_cls = type(cardcore.new_game(name, 2, seed=1).logic)
    calls = 0
    listed = logic_cls.legal_actions

    def counting(self: Any, state: Any, seat: int) -> Any:
        nonlocal calls
        calls += 1
        return listed(self, state, seat)

    logic_cls.legal_actions = counting  # type: ignore[method-assign]
    try:
        report = check_game(name, games=1, checks=["notation"], strict=False)
    finally:
        logic_cls.legal_actions = listed  # type: ignore[method-assign]
    assert report.failures == [] and report.notations > 0
    points = -(-report.notations // (READ_BACK + 1))  # at most READ_BACK + 1 kind a point
    assert calls < points * (READ_BACK + 8), (calls, points)  # not 300 listings a point
    assert calls < report.notations * 2 < points * legal // 2


def test_rl_action_space_past_the_default_warns_and_a_declared_max_legal_covers_all(
    registered: Any,
) -> None:
    """rl.rst: without max_legal the space is 64 and the rest is left out with a warning."""
    from cardcore.rl import DEFAULT_MAX_LEGAL, aec_env

    plain = registered("dg-wide", length=3, legal=3000)
    env = aec_env(plain, 2)
    with pytest.warns(RuntimeWarning, match="3000 legal actions but an action space of 64"):
        env.reset(seed=1)
        obs, *_ = env.last()
    assert obs["action_mask"].shape == (DEFAULT_MAX_LEGAL,) and obs["action_mask"].sum() == 64
    declared = registered("dg-wide-m", length=3, legal=3000, max_legal=4000)
    env = aec_env(declared, 2)
    env.reset(seed=1)
    obs, *_ = env.last()
    assert obs["action_mask"].shape == (4000,) and obs["action_mask"].sum() == 3000
    env.step(2999)
    assert env.match.game.record_entries()[0][1] == Pick(0, 2999)


# --- real time, every seat at once -----------------------------------------------------------


def test_realtime_every_seat_acts_at_once(registered: Any) -> None:
    name = registered("dg-rt", seats=(1, 8), length=20, legal=2, realtime=True)
    game = cardcore.new_game(name, 8, seed=1)
    assert game.to_act == tuple(range(8))
    game.act(7, "pick 1", at=1.0, seen=0)
    game.act(3, "pick 0", at=2.0, seen=0)  # still legal: applied, not stale
    with pytest.raises(cardcore.IllegalActionError) as err:
        game.act(2, "pick 0", at=1.5, seen=2)
    assert err.value.rule_id == "CORE-RECORD-1" and game.version == 2
    agents = [cardcore.load_agent("random", seed=s) for s in range(8)]
    result = cardcore.run_realtime(cardcore.new_game(name, 8, seed=2), agents, seed=3)
    assert result.reason == "counted out"


def test_realtime_every_seat_through_kit_rl_and_session(registered: Any) -> None:
    from cardcore.rl import aec_env
    from cardcore.session import MemoryStore, Session
    from cardcore.testing import check_game

    name = registered("dg-rt", seats=(1, 8), length=20, legal=2, realtime=True)
    assert check_game(name, players=8, games=2).failures == []
    assert check_game(name, players=1, games=2).failures == []
    env = aec_env(name, 8)
    env.reset(seed=1)
    for _ in env.agent_iter(400):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0]))
    assert env.match.game.is_over and env.match.game.version == 20
    store = MemoryStore()
    session = session_of(name, 8, store=store)
    for seat in range(8):  # eight seats on the same view: each applied, none stale
        out = session.handle(
            f"c{seat}", '{"type": "act", "action": "pick 1", "seen": 0}', now=2.0 + seat
        )
        assert "error" not in kinds(out)
    assert session.game.version == 8
    resumed = Session.resume(store, "s1", now=20.0)
    assert resumed.game is not None and session.game is not None
    assert resumed.game.version == 8 and resumed.game.position() == session.game.position()


# --- no chance, and chance at every action -----------------------------------------------------


def test_no_chance_game_deals_the_same_for_every_seed_given_a_deck(registered: Any) -> None:
    name = registered("dg-still", cards=cardcore.decks(1), length=4)
    order = " ".join(map(str, cardcore.decks(1)))
    a = cardcore.new_game(name, 2, seed=1, deck=order)
    b = cardcore.new_game(name, 2, seed=2, deck=order)
    play_through(a)
    play_through(b)
    assert a.position() == b.position()


def test_chance_at_every_action_is_replayed_cloned_and_never_foretold(registered: Any) -> None:
    """design.md: clone copies the chance; a determinization draws its own future chance
    (game.py determinize: 'never from the game's own seed')."""
    from cardcore.testing import check_game

    name = registered(
        "dg-chance",
        cards=cardcore.decks(1),
        length=5,
        chance_each_action=True,
        stock=Visibility.EVERYONE,
    )
    game = cardcore.new_game(name, 2, seed=1)
    clone, det = game.clone(), game.determinize(0, 9)
    assert det.position() == game.position()  # every card public: nothing to re-deal
    for g in (game, clone, det):
        g.apply(Pick(0, 0))

    def piles(g: cardcore.Game) -> str:
        return g.position().split("|", 1)[1]

    assert piles(clone) == piles(game)
    assert piles(det) != piles(game)  # 52 cards reshuffled from another stream
    play_through(game)
    assert cardcore.replay(game.record()).position() == game.position()
    assert check_game(name, games=2).failures == []


def test_rl_reset_redeals_a_game_over_at_its_deal_deterministically(registered: Any) -> None:
    """game.rst: the RL environments deal again looking for a decision; reset(seed=s) stays
    deterministic (rl.rst)."""
    from cardcore.rl import aec_env

    def red_on_top(cards: list[Card]) -> bool:
        return cards[-1].suit in (cardcore.Suit.HEARTS, cardcore.Suit.DIAMONDS)

    name = registered("dg-half", over_at_deal=red_on_top, length=2)
    over = [s for s in range(8) if cardcore.new_game(name, 2, seed=s).is_over]
    assert over and len(over) < 8  # both kinds of deal among the first seeds
    env = aec_env(name, 2)
    for seed in over:
        env.reset(seed=seed)
        first = env.match.game.position()
        assert not env.match.game.is_over
        env.reset(seed=seed)
        assert env.match.game.position() == first


def test_64_seat_realtime_learner_loss_pays_its_share(registered: Any) -> None:
    """rl match.win_rewards: a loser gets -w / (n - w); seat 0 always wins this game."""
    from cardcore.rl import gym_env

    name = registered("dg-rt64", seats=(1, 64), length=100, legal=2, realtime=True, bound=200)
    env = gym_env(name, 64, seat=63)
    obs, _ = env.reset(seed=1)
    for _ in range(200):
        obs, reward, terminated, truncated, _ = env.step(int(obs["action_mask"].nonzero()[0][0]))
        if terminated or truncated:
            break
    assert terminated and not truncated
    assert reward == pytest.approx(-1 / 63)
    agents = [cardcore.load_agent("random", seed=s) for s in range(64)]
    result = cardcore.run_realtime(cardcore.new_game(name, 64, seed=2), agents, seed=3)
    assert result.reason == "counted out" and result.winners == (0,)
