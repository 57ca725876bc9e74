"""Slapjack, a real-time game written as a third-party plugin from the docs alone.

The plugin (game, its hookspec and one house rule) lives in this file; the
tests below check it the way the docs promise any game is checked.

Rules (IDs cited by the code and the tests):

* SLAP-SEAT-1: 2 to 4 players.
* SLAP-DEAL-1: the whole deck is dealt face down, one card at a time from the
  top, into one stack per seat; nobody sees any stack card. The centre pile
  starts empty and is face up.
* SLAP-FLIP-1: the seat whose turn it is (``turn``, seat 0 first) flips the top
  card of its stack face up onto the centre (``flip``); the turn passes to the
  next seat, in seat order, that holds cards.
* SLAP-SLAP-1: any seat holding cards may slap the centre pile while it holds a
  card (``slap <top card>``: a slap names the card it hits, so a slap sent
  after that card was covered is stale, not a slap on the new card). A good
  slap (the top card is a Jack) takes the whole centre pile, turned over, under
  the slapper's stack (face down, forgotten), and the slapper flips next.
* SLAP-WRONG-1: a wrong slap (the top card is not a Jack) costs the slapper
  the top card of its stack, put face up under the centre pile.
* SLAP-OUT-1: a seat with no cards is out, but may slap a Jack back in once
  (only a good slap is open to it); once it has come back, running out again
  eliminates it.
* SLAP-EMPTY-1: when no stack holds a card, the seat that put the last card on
  the centre gathers the centre pile back face down (``gather``) and flips
  next; until then a seat that may come back may still slap a Jack.
* SLAP-END-1: the game ends when one seat holds cards and no other seat can
  come back; that seat wins.
* SLAP-HOUSE-1 (house rule ``slapjack.doubles``): a slap is also good when the
  two top cards of the centre pile share a rank.
"""

from __future__ import annotations

import json
import types
from collections import Counter
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    ALL,
    Action,
    Card,
    CardMoved,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Plan,
    RandomAgent,
    RuleInfo,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
)
from cardcore.errors import (
    CardcoreError,
    CorruptStateError,
    IllegalActionError,
    NotationError,
    PluginError,
    StaleActionError,
)
from cardcore.turns import end_game, winners_by

# --------------------------------------------------------------------------- the plugin

CENTRE = 0


def stack(seat: int) -> int:
    return 1 + seat


@cache
def layout(players: int) -> Layout:
    stacks = [ZoneSpec(f"stack.{s}", s, Visibility.NOBODY) for s in range(players)]
    return Layout.of([ZoneSpec("centre", None, Visibility.EVERYONE), *stacks])


@frozen
class Flip(Action):
    """Turn the top card of the own stack face up onto the centre (SLAP-FLIP-1)."""

    verb: ClassVar[str] = "flip"


@frozen
class Slap(Action):
    """Slap the centre pile, whose top card is *card* (SLAP-SLAP-1)."""

    card: Card
    verb: ClassVar[str] = "slap"

    def notation(self) -> str:
        return f"slap {self.card}"


@frozen
class Gather(Action):
    """Take the centre pile back when no stack holds a card (SLAP-EMPTY-1)."""

    verb: ClassVar[str] = "gather"


flip, slap, gather = cache(Flip), cache(Slap), cache(Gather)
Move = Flip | Slap | Gather


class SlapState(GameState):
    __slots__ = ("last", "turn", "used")
    _mutable = ("zones", "used")
    turn: int
    used: list[bool]
    last: int


def _hookspecs() -> types.ModuleType:
    module = types.ModuleType("slapjack_hookspecs")

    @hookspec(firstresult=True)
    def slapjack_good_slap(centre: tuple[Card, ...]) -> bool | None:  # type: ignore[empty-body]
        """Say whether a slap on the centre pile (bottom to top) is good; the first answer wins.

        :param centre: The centre pile, bottom to top, never empty.
        :returns: ``True`` for a good slap, ``False`` for a wrong one, ``None`` to let
            the next implementation (finally the game: a Jack on top) decide.
        """

    module.slapjack_good_slap = slapjack_good_slap  # type: ignore[attr-defined]
    return module


class SlapLogic(GameLogic[SlapState, Move]):
    action_types = (Flip, Slap, Gather)
    position_fields = ("to_act", "turn", "used", "last")

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        good = ruleset.resolve("slapjack_good_slap")
        if good is None:
            raise PluginError("slapjack_good_slap has no implementation")
        self.good = good

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 20_000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> SlapState:
        state = SlapState(players, options, Zones(layout(players)))
        state.turn, state.used, state.last = 0, [False] * players, -1
        return state

    def new_state(self, players: int, options: Mapping[str, Any], cards: list[Card], seed: int,
                  emit: Emit | None) -> SlapState:
        state = self.blank_state(players, options)
        state.seed = seed
        for i, card in enumerate(reversed(cards)):  # SLAP-DEAL-1: from the top, one at a time
            state.zones.put(stack(i % players), card, 0)
        state.to_act = tuple(range(players))
        return state

    def _is_good(self, state: SlapState) -> bool:
        return bool(self.good(centre=tuple(state.zones.cards[CENTRE])))

    def legal_actions(self, state: SlapState, seat: int) -> tuple[Move, ...]:
        cards = state.zones.cards
        top = cards[CENTRE][-1] if cards[CENTRE] else None
        out: list[Move] = []
        if state.turn == seat and cards[stack(seat)]:
            out.append(flip(seat))
        if seat == state.last and not any(cards[stack(s)] for s in range(state.players)):
            out.append(gather(seat))
        if top is not None and (cards[stack(seat)] or (not state.used[seat] and self._is_good(state))):
            out.append(slap(seat, top))
        return tuple(out)

    def rule_for(self, state: SlapState, action: Move) -> tuple[str, str]:
        if isinstance(action, Gather):
            return "SLAP-EMPTY-1", f"seat {action.seat} may gather only when no stack holds a card and it played last"
        if isinstance(action, Flip):
            return "SLAP-FLIP-1", f"seat {action.seat} may flip only on its turn (seat {state.turn} flips)"
        if not state.zones.cards[stack(action.seat)]:
            return "SLAP-OUT-1", f"seat {action.seat} is out: it may only slap a Jack back in, once"
        return "SLAP-SLAP-1", f"seat {action.seat} may slap only the top card of the centre pile"

    def apply(self, state: SlapState, action: Move, emit: Emit | None) -> None:
        z, seat = state.zones, action.seat
        mine = stack(seat)
        if isinstance(action, Gather):  # SLAP-EMPTY-1
            self._take(state, seat, emit)
        elif isinstance(action, Flip):  # SLAP-FLIP-1
            card = z.move(mine, CENTRE, mask=ALL)
            state.last = seat
            if emit is not None:
                emit(CardMoved(seat, f"stack.{seat}", "centre", card))
            state.turn = self._next_holder(state, seat)
        elif self._is_good(state):  # SLAP-SLAP-1 (and SLAP-OUT-1: back in, once)
            if not z.cards[mine]:
                state.used[seat] = True
            self._take(state, seat, emit)
        else:  # SLAP-WRONG-1
            card, _ = z.pop(mine)
            z.insert_bottom(CENTRE, card, ALL)
            state.last = seat
            if emit is not None:
                emit(CardMoved(seat, f"stack.{seat}", "centre", card))
            if state.turn == seat and not z.cards[mine]:
                state.turn = self._next_holder(state, seat)
        self._settle(state, emit)

    def _take(self, state: SlapState, seat: int, emit: Emit | None) -> None:
        """Put the centre pile, turned over, under *seat*'s stack; *seat* flips next."""
        z = state.zones
        while z.cards[CENTRE]:
            card, _ = z.pop(CENTRE, 0)
            z.insert_bottom(stack(seat), card, 0)
            if emit is not None:
                emit(CardMoved(seat, "centre", f"stack.{seat}", card))
        state.turn = seat

    def _next_holder(self, state: SlapState, seat: int) -> int:
        n = state.players
        for k in range(1, n + 1):
            if state.zones.cards[stack((seat + k) % n)]:
                return (seat + k) % n
        return seat

    def _settle(self, state: SlapState, emit: Emit | None) -> None:
        z, n = state.zones, state.players
        holders = [s for s in range(n) if z.cards[stack(s)]]
        chances = [s for s in range(n) if not z.cards[stack(s)] and not state.used[s]]
        if len(holders) == 1 and not chances:  # SLAP-END-1
            counts = [float(len(z.cards[stack(s)])) for s in range(n)]
            end_game(state, holders, counts, "last player with cards", reveal=False)
        else:
            state.to_act = tuple(sorted({*holders, *chances, *([] if holders else [state.last])}))

    def default_action(self, state: SlapState, seat: int) -> Move | None:
        legal = [a for a in self.legal_actions(state, seat) if not isinstance(a, Slap)]
        return legal[0] if legal else None

    def scores(self, state: SlapState) -> tuple[float, ...]:
        return tuple(float(len(state.zones.cards[stack(s)])) for s in range(state.players))

    def standings(self, state: SlapState) -> tuple[int, ...]:
        return winners_by(self.scores(state), lowest=False)  # most cards leads

    def table(self, state: SlapState, seat: int | None) -> dict[str, Any]:
        return {"turn": state.turn, "used": list(state.used), "last": state.last}

    def check_position(self, state: SlapState) -> None:
        cards = state.zones.cards
        if not state.is_over and any(map(cards.__getitem__, map(stack, range(state.players)))) \
                and not cards[stack(state.turn)]:
            raise cardcore.OptionError(f"turn must be a seat holding cards, not {state.turn} (SLAP-FLIP-1)")


GAME_MODULE = types.ModuleType("slapjack_rules")
GAME_MODULE.GAME = GameInfo(  # type: ignore[attr-defined]
    "slapjack", "Slapjack: flip in turn, slap the Jacks; the last player with cards wins", 2, 4,
    realtime=True, hookspecs=_hookspecs(), fields=(
        ViewField("turn", "seat", "The seat that flips next."),
        ViewField("used", "per-seat", "Whether each seat has slapped back in.", of="bool"),
        ViewField("last", "int", "The seat that put the last card on the centre (-1: none yet)."),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> SlapLogic:
    return SlapLogic(ruleset)


@hookimpl(trylast=True)
def _game_good_slap(centre: tuple[Card, ...]) -> bool | None:
    return centre[-1].label == "J"


GAME_MODULE.create_logic = create_logic  # type: ignore[attr-defined]
GAME_MODULE.slapjack_good_slap = _game_good_slap  # type: ignore[attr-defined]

DOUBLES = types.ModuleType("slapjack_doubles")
DOUBLES.RULE = RuleInfo("SLAP-HOUSE-1", "slapjack.doubles", "slapjack",  # type: ignore[attr-defined]
                        "A slap is also good on two cards of the same rank")


@hookimpl
def _doubles_good_slap(centre: tuple[Card, ...]) -> bool | None:
    return True if len(centre) > 1 and centre[-1].rank == centre[-2].rank else None


DOUBLES.slapjack_good_slap = _doubles_good_slap  # type: ignore[attr-defined]

# --------------------------------------------------------------------------- fixtures and helpers


@pytest.fixture(autouse=True, scope="module")
def _registered() -> Iterator[None]:
    cardcore.register("cardcore.games", "slapjack", GAME_MODULE)
    cardcore.register("cardcore.rules", "slapjack.doubles", DOUBLES)
    yield
    cardcore.unregister("cardcore.rules", "slapjack.doubles")
    cardcore.unregister("cardcore.games", "slapjack")


def snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    return (game.version, json.dumps(game.save(), sort_keys=True), game.to_act)


def to_jack(game: cardcore.Game, limit: int = 200) -> None:
    """Flip in turn until a Jack lies on top of the centre pile."""
    for _ in range(limit):
        top = game.view(None)["zones"][CENTRE]["cards"]
        if top and top[0].startswith("J"):
            return
        game.act(game.view(None)["table"]["turn"], "flip")
    raise AssertionError("no Jack came up")


OTHERS = [c for c in cardcore.standard_52() if str(c) not in ("5C", "JH", "5H", "7D")]


def position(centre: str, stack0: list[Card], stack1: list[Card], *, turn: int = 0,
             used: str = "false,false", last: int = 0) -> str:
    """A two-seat position (piles bottom to top, as the notation writes them)."""
    def cards(pile: list[Card]) -> str:
        return " ".join(map(str, pile))
    holders = [s for s, pile in enumerate((stack0, stack1)) if pile]
    chances = [s for s, u in enumerate(used.split(",")) if u == "false" and s not in holders]
    to_act = ",".join(map(str, sorted(holders + chances)))
    return (f"slapjack to_act=[{to_act}] turn={turn} used=[{used}] last={last} | centre: {centre} "
            f"| stack.0: {cards(stack0)} | stack.1: {cards(stack1)}")


def stacks_hidden(view: Mapping[str, Any]) -> bool:
    return all(all(c is None for c in z["cards"]) for z in view["zones"] if z["name"].startswith("stack."))


class SlapFirst:
    """Slaps a Jack as soon as it can, else flips when it is its turn, after *delay*."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def plan(self, view: Mapping[str, Any], legal: Any, now: float) -> Plan | None:
        for action in legal:
            if str(action).startswith("slap J"):
                return Plan(action, self.delay)
        for action in legal:
            if str(action) == "flip":
                return Plan(action, self.delay)
        return None


# --------------------------------------------------------------------------- the conformance kit


@pytest.mark.parametrize("players", [2, 3, 4])
def test_slap_kit_conforms(players: int) -> None:
    from cardcore.testing import check_game

    report = check_game("slapjack", players=players, games=4, seed=players)
    assert report.ok and report.games == 4 and report.cards_lost == 0 and report.leaks == 0
    assert set(report.skipped) <= {"scores"}, report.skipped  # no rounds: nothing to score


def test_slap_house_1_kit_conforms_with_doubles() -> None:
    from cardcore.testing import check_game

    report = check_game("slapjack", players=3, rules=["slapjack.doubles"], games=3, seed=5)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0


# --------------------------------------------------------------------------- many seeded games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_slap_end_1_random_realtime_games_end_with_the_last_holder(players: int) -> None:
    reasons: Counter[str] = Counter()
    for seed in range(25):
        game = cardcore.new_game("slapjack", players, seed=1000 + seed)
        seen_views: list[bool] = []

        def watch(g: cardcore.Game, action: Action, at: float, seen_views: list[bool] = seen_views) -> None:
            cards = list(g.state.zones.all_cards())
            assert len(cards) == 52 and len(set(cards)) == 52  # every card in one place
            seen_views.append(all(stacks_hidden(g.view(s)) for s in (*range(players), None)))

        agents = [RandomAgent(seed=seed * 10 + s) for s in range(players)]
        result = cardcore.run_realtime(game, agents, seed=seed, on_action=watch)
        reasons[result.reason] += 1
        assert all(seen_views)
        assert game.is_over and len(result.winners) == 1
        winner = result.winners[0]
        stacks = [z["count"] for z in game.view(None)["zones"][1:]]
        assert stacks[winner] + game.view(None)["zones"][0]["count"] == 52
        times = [at for _, _, at in game.record()["actions"]]
        assert all(at is not None for at in times) and times == sorted(times)
        again = cardcore.replay(json.dumps(game.record()))
        assert again.result == game.result and again.view(None) == game.view(None)
    assert reasons == {"last player with cards": 25}


def test_slap_random_agents_tie_broken_by_seeded_draw_not_seat() -> None:
    base = cardcore.new_game("slapjack", 2, seed=11)
    to_jack(base)
    takers = Counter()
    for seed in range(24):
        game = base.clone()
        start = game.version
        cardcore.run_realtime(game, [SlapFirst(0.3), SlapFirst(0.3)], seed=seed, max_actions=start + 1)
        seat, action, _ = game.record()["actions"][start]
        assert action.startswith("slap J")
        takers[seat] += 1
    assert takers[0] > 0 and takers[1] > 0, takers


def test_slap_faster_agent_wins_the_race() -> None:
    base = cardcore.new_game("slapjack", 2, seed=11)
    to_jack(base)
    for seed in range(5):
        game = base.clone()
        start = game.version
        cardcore.run_realtime(game, [SlapFirst(0.5), SlapFirst(0.2)], seed=seed, max_actions=start + 1)
        assert game.record()["actions"][start][:2] == [1, game.record()["actions"][start][1]]
        assert game.record()["actions"][start][1].startswith("slap J")


# --------------------------------------------------------------------------- races and stale actions


def test_slap_slap_1_two_slaps_at_the_same_virtual_time() -> None:
    game = cardcore.new_game("slapjack", 2, seed=11)
    to_jack(game)
    v0, v1 = game.view(0), game.view(1)
    jack = v0["zones"][CENTRE]["cards"][0]
    assert f"slap {jack}" in v0["legal"] and f"slap {jack}" in v1["legal"]
    game.act(1, f"slap {jack}", at=5.0, seen=v1["version"])
    before = snapshot(game)
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(0, f"slap {jack}", at=5.0, seen=v0["version"])
    assert snapshot(game) == before
    assert game.view(None)["zones"][CENTRE]["count"] == 0 and game.view(None)["table"]["turn"] == 1


def test_slap_slap_1_slap_from_an_old_view_after_the_jack_is_covered_is_stale() -> None:
    game = cardcore.new_game("slapjack", 2, seed=11)
    to_jack(game)
    jack = game.view(None)["zones"][CENTRE]["cards"][0]
    old = game.view(1)
    game.act(game.view(None)["table"]["turn"], "flip", at=1.0)  # covers the Jack
    assert not game.view(None)["zones"][CENTRE]["cards"][0].startswith("J")
    before = snapshot(game)
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(1, f"slap {jack}", at=1.1, seen=old["version"])
    assert snapshot(game) == before
    with pytest.raises(IllegalActionError, match="SLAP-SLAP-1"):  # without seen: judged now
        game.act(1, f"slap {jack}", at=1.1)
    assert snapshot(game) == before


def test_slap_slap_1_good_slap_takes_the_pile_face_down() -> None:
    game = cardcore.new_game("slapjack", 2, seed=11)
    to_jack(game)
    centre = game.view(None)["zones"][CENTRE]["count"]
    stack1 = game.view(None)["zones"][2]["count"]
    jack = game.view(None)["zones"][CENTRE]["cards"][0]
    game.act(1, f"slap {jack}")
    view = game.view(None)
    assert view["zones"][CENTRE]["count"] == 0 and view["zones"][2]["count"] == stack1 + centre
    assert view["table"]["turn"] == 1 and stacks_hidden(view) and stacks_hidden(game.view(1))


def test_slap_wrong_1_wrong_slap_costs_the_top_card() -> None:
    game = cardcore.new_game("slapjack", 2, seed=1)
    game.act(0, "flip")  # AH
    game.act(1, "slap AH")
    view = game.view(None)
    assert view["zones"][CENTRE]["cards"] == ["AH", "4S"]  # under the pile, face up
    assert [z["count"] for z in view["zones"][1:]] == [25, 25]
    assert view["table"]["turn"] == 1


# --------------------------------------------------------------------------- rules from positions


def test_slap_out_1_an_out_seat_slaps_a_jack_back_in_once() -> None:
    text = position("5C JH", [*OTHERS, Card.parse("5H"), Card.parse("7D")], [])
    game = cardcore.new_game("slapjack", 2, position=text, seed=3)
    assert game.to_act == (0, 1) and game.view(1)["legal"] == ["slap JH"]
    game.act(1, "slap JH")
    view = game.view(None)
    assert view["table"]["used"] == [False, True] and view["zones"][2]["count"] == 2
    assert view["table"]["turn"] == 1


def test_slap_out_1_an_out_seat_may_not_slap_anything_else() -> None:
    text = position("JH 5C", [*OTHERS, Card.parse("5H"), Card.parse("7D")], [])
    game = cardcore.new_game("slapjack", 2, position=text, seed=3)
    assert game.view(1)["legal"] == []
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="SLAP-OUT-1"):
        game.act(1, "slap 5C")
    assert snapshot(game) == before


def test_slap_end_1_running_out_after_the_comeback_eliminates() -> None:
    text = position("5C", [*OTHERS, Card.parse("5H"), Card.parse("JH")], [Card.parse("7D")],
                    turn=1, used="false,true")
    game = cardcore.new_game("slapjack", 2, position=text, seed=3)
    game.act(1, "flip")
    assert game.is_over and game.result.winners == (0,) and game.to_act == ()


def test_slap_empty_1_the_last_card_played_takes_the_pile_back() -> None:
    text = position("", [Card.parse("7D")], [], turn=0)
    rest = " ".join(str(c) for c in [*OTHERS, Card.parse("5H"), Card.parse("JH"), Card.parse("5C")])
    text = text.replace("centre: ", f"centre: {rest}")
    game = cardcore.new_game("slapjack", 2, position=text, seed=3)
    game.act(0, "flip")  # 7D: nobody holds a card now
    assert game.to_act == (0, 1) and game.view(0)["legal"] == ["gather"]
    assert game.view(1)["legal"] == []
    game.act(0, "gather")
    view = game.view(None)
    assert view["zones"][CENTRE]["count"] == 0 and view["zones"][1]["count"] == 52
    assert game.to_act == (0, 1) and view["table"]["turn"] == 0 and not game.is_over


def test_slap_house_1_doubles_is_a_good_slap() -> None:
    text = position("5H 5C", [*OTHERS, Card.parse("JH")], [Card.parse("7D")], turn=0)
    plain = cardcore.new_game("slapjack", 2, position=text, seed=3)
    doubles = cardcore.new_game("slapjack", 2, rules=["slapjack.doubles"], position=text, seed=3)
    plain.act(1, "slap 5C")  # wrong: costs 7D, seat 1 is out
    assert plain.view(None)["zones"][2]["count"] == 0
    doubles.act(1, "slap 5C")  # good: takes both fives
    assert doubles.view(None)["zones"][2]["count"] == 3 and doubles.view(None)["zones"][CENTRE]["count"] == 0


# --------------------------------------------------------------------------- persistence, views, bad input


def test_slap_save_load_replay_mid_game() -> None:
    game = cardcore.new_game("slapjack", 3, seed=21)
    cardcore.run_realtime(game, [RandomAgent(seed=s) for s in range(3)], seed=2, max_actions=30)
    assert game.version >= 1
    mid = cardcore.new_game("slapjack", 3, seed=21)
    for seat, text, at in game.record()["actions"][:15]:
        mid.act(seat, text, at=at)
    loaded = cardcore.load(json.dumps(mid.save()))
    assert loaded.version == mid.version and all(loaded.view(s) == mid.view(s) for s in (0, 1, 2, None))
    replayed = cardcore.replay(json.dumps(mid.record()))
    assert replayed.position() == mid.position()
    again = cardcore.new_game("slapjack", 3, position=mid.position(), seed=4)
    assert all(again.view(s)["legal"] == mid.view(s)["legal"] for s in range(3))


def test_slap_tampered_save_is_refused() -> None:
    game = cardcore.new_game("slapjack", 2, seed=1)
    game.act(0, "flip")
    data = game.save()
    text = json.dumps(data)
    forged = text.replace('"AH"', '"AS"', 1) if '"AH"' in text else text.replace("AH", "AS", 1)
    assert forged != text
    with pytest.raises(CorruptStateError):
        cardcore.load(forged)


def test_slap_deal_1_views_and_events_never_show_a_stack_card() -> None:
    game = cardcore.new_game("slapjack", 4, seed=9)
    streams: dict[Any, list[dict[str, Any]]] = {s: [] for s in (0, 1, 2, 3, cardcore.SPECTATOR)}
    for s, stream in streams.items():
        game.events.subscribe(cardcore.Event, lambda e, stream=stream: stream.append(e.to_json()), seat=s)
    cardcore.run_realtime(game, [RandomAgent(seed=s) for s in range(4)], seed=1, max_actions=200)
    for s in (0, 1, 2, 3, None):
        assert stacks_hidden(game.view(s))
    for stream in streams.values():
        for event in stream:
            if event["event"] == "card-moved" and event["dst"].startswith("stack."):
                pass  # taken from the face-up centre: public
    assert "seed" not in json.dumps(game.view(0))


BAD_TEXTS = ["slap", "slap ZZ", "slap 11S", "flip 1", "flip flip", "", "   ", "jump", "slap AH AH",
             "slap JK", "resign 3", "\x00flip"]


@pytest.mark.parametrize("text", BAD_TEXTS)
def test_slap_bad_text_refused_and_changes_nothing(text: str) -> None:
    game = cardcore.new_game("slapjack", 2, seed=1)
    game.act(0, "flip")
    before = snapshot(game)
    with pytest.raises((NotationError, IllegalActionError)) as info:
        game.act(1, text)
    assert "(" in str(info.value) and str(info.value).rstrip().endswith(")")
    assert snapshot(game) == before


@pytest.mark.parametrize("seat", [2, -2, 99, True, "0", 0.0, None])
def test_slap_bad_seat_refused_and_changes_nothing(seat: Any) -> None:
    game = cardcore.new_game("slapjack", 2, seed=1)
    before = snapshot(game)
    with pytest.raises(CardcoreError):
        game.act(seat, "flip")
    assert snapshot(game) == before


def test_slap_flip_1_out_of_turn_refused() -> None:
    game = cardcore.new_game("slapjack", 2, seed=1)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="SLAP-FLIP-1"):
        game.act(1, "flip")
    assert snapshot(game) == before


@pytest.mark.parametrize("seen", [-1, 10**9, "0", 1.5, True])
def test_slap_bad_seen_refused_and_changes_nothing(seen: Any) -> None:
    game = cardcore.new_game("slapjack", 2, seed=1)
    game.act(0, "flip")
    before = snapshot(game)
    with pytest.raises(CardcoreError):
        game.act(1, "flip", seen=seen)
    assert snapshot(game) == before


@pytest.mark.parametrize("at", ["soon", float("nan"), float("inf"), -1.0, [1]])
def test_slap_bad_time_refused_and_changes_nothing(at: Any) -> None:
    game = cardcore.new_game("slapjack", 2, seed=1)
    game.act(0, "flip", at=2.0)
    before = snapshot(game)
    with pytest.raises(CardcoreError):
        game.act(1, "flip", at=at)
    assert snapshot(game) == before


def test_slap_unknown_rule_and_option_refused() -> None:
    with pytest.raises(cardcore.UnknownPluginError):
        cardcore.new_game("slapjack", 2, rules=["slapjack.triples"])
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game("slapjack", 2, options={"speed": 2})
    with pytest.raises(cardcore.OptionError):
        cardcore.new_game("slapjack", 5)


def test_slap_failing_house_rule_leaves_the_game_unchanged() -> None:
    boom = types.ModuleType("slapjack_boom")
    boom.RULE = RuleInfo("SLAP-BOOM-1", "slapjack.boom", "slapjack", "Raises")  # type: ignore[attr-defined]

    @hookimpl
    def slapjack_good_slap(centre: tuple[Card, ...]) -> bool | None:
        raise RuntimeError("boom")

    boom.slapjack_good_slap = slapjack_good_slap  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "slapjack.boom", boom)
    try:
        game = cardcore.new_game("slapjack", 2, rules=["slapjack.boom"], seed=1)
        game.act(0, "flip")
        before = snapshot(game)
        with pytest.raises(PluginError, match=r"slapjack\.boom"):
            game.act(1, "slap AH")
        assert snapshot(game) == before
    finally:
        cardcore.unregister("cardcore.rules", "slapjack.boom")


# --------------------------------------------------------------------------- sessions and RL


def _send(session: Any, conn: str, message: dict[str, Any], now: float) -> list[Any]:
    return session.handle(conn, json.dumps(message), now=now)


def test_slap_session_two_connections_race_and_hide_stacks() -> None:
    from cardcore.session import Session

    session = Session.create("slapjack", ["Ann", "Bob"], now=0.0, seed=7)
    wire: list[str] = []
    for conn, seat, now in (("ann", 0, 1.0), ("bob", 1, 2.0)):
        wire += [json.dumps(o.message) for o in _send(session, conn, {"type": "join", "seat": seat}, now)]
    assert session.phase == "playing"
    out = _send(session, "ann", {"type": "act", "action": "flip", "seen": 0}, 3.0)
    wire += [json.dumps(o.message) for o in out]
    first = next(o.message for o in out if o.conn == "bob")["events"][0]["card"]
    out = _send(session, "bob", {"type": "act", "action": "flip", "seen": 1}, 3.5)
    wire += [json.dumps(o.message) for o in out]
    out = _send(session, "ann", {"type": "act", "action": f"slap {first}", "seen": 1}, 3.6)
    assert [(o.conn, o.message["type"], o.message.get("code"), o.message.get("rule")) for o in out] == [
        ("ann", "error", "stale", "CORE-RT-1")]
    out = _send(session, "ann", {"type": "act", "action": "slap", "seen": 2}, 3.7)
    assert out[0].message["type"] == "error" and out[0].conn == "ann" and len(out) == 1
    for text in wire:  # no stack card on the wire: stack zones are all null
        message = json.loads(text)
        for zone in message.get("view", {}).get("zones", []):
            if zone["name"].startswith("stack."):
                assert set(zone["cards"]) <= {None}


def test_slap_rl_gym_env_plays_a_third_party_realtime_game() -> None:
    import numpy as np

    from cardcore import rl

    env = rl.gym_env("slapjack", 2)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(3000):
        mask = obs["action_mask"] if isinstance(obs, dict) and "action_mask" in obs else info["action_mask"]
        choice = int(rng.choice(np.flatnonzero(mask)))
        obs, _reward, terminated, truncated, info = env.step(choice)
        if terminated or truncated:
            break
    assert terminated or truncated


def test_slap_threads_race_for_one_jack() -> None:
    from concurrent.futures import ThreadPoolExecutor

    for seed in (11, 12, 13):
        game = cardcore.new_game("slapjack", 2, seed=seed)
        to_jack(game)
        jack, version = game.view(None)["zones"][CENTRE]["cards"][0], game.version

        def send(seat: int, game: cardcore.Game = game, jack: str = jack, version: int = version) -> str:
            try:
                game.act(seat, f"slap {jack}", seen=version)
            except StaleActionError:
                return "stale"
            return "applied"

        with ThreadPoolExecutor(2) as pool:
            outcomes = sorted(pool.map(send, [0, 1]))
        assert outcomes == ["applied", "stale"] and game.version == version + 1


def test_slap_seen_beyond_the_stale_window_is_refused() -> None:
    game = cardcore.new_game("slapjack", 2, seed=3)
    for _ in range(cardcore.STALE_WINDOW + 2):
        moves = [(s, t) for s in game.to_act for t in game.view(s)["legal"] if not t.startswith("slap")]
        game.act(*moves[0])
    assert game.version > cardcore.STALE_WINDOW and game.view(None)["zones"][CENTRE]["cards"]
    top = game.view(None)["zones"][CENTRE]["cards"][0]
    before = snapshot(game)
    with pytest.raises(CardcoreError, match="CORE-RT-3"):
        game.act(1, f"slap {top}", seen=0)
    assert snapshot(game) == before


def test_slap_loaded_game_refuses_an_earlier_time() -> None:
    game = cardcore.new_game("slapjack", 2, seed=1)
    game.act(0, "flip", at=10.0)
    loaded = cardcore.load(json.dumps(game.save()))
    before = snapshot(loaded)
    with pytest.raises(CardcoreError, match="CORE-RECORD-1"):
        loaded.act(1, "flip", at=9.0)
    assert snapshot(loaded) == before
    loaded.act(1, "flip", at=10.0)


def test_slap_session_idle_clock_plays_the_default_flip_never_a_resign() -> None:
    from cardcore.session import Session, SessionConfig, TimeControl

    config = SessionConfig(time=TimeControl(turn=5, fallback="resign"))
    session = Session.create("slapjack", ["Ann", "Bob", "Cy"], now=0.0, seed=7, config=config)
    for conn, seat in (("ann", 0), ("bob", 1), ("cy", 2)):
        _send(session, conn, {"type": "join", "seat": seat}, 1.0)
    watched = _send(session, "eve", {"type": "watch"}, 1.5)
    texts: list[tuple[int, str, str]] = []
    spectator: list[dict[str, Any]] = [o.message for o in watched]
    for _ in range(8):
        out = session.tick(session.next_deadline())
        spectator += [o.message for o in out if o.conn == "eve"]
        texts += [(o.message["action"]["seat"], o.message["action"]["text"], o.message["action"]["cause"])
                  for o in out if o.conn == "ann" and o.message["type"] == "update"]
    assert session.phase == "playing" and texts
    assert all(text == "flip" and cause == "timeout" for _, text, cause in texts)
    seats = [seat for seat, _, _ in texts]
    assert seats[:3] == [0, 1, 2]
    for message in spectator:
        for zone in message.get("view", {}).get("zones", []):
            if zone["name"].startswith("stack."):
                assert set(zone["cards"]) <= {None}


def test_slap_rl_aec_env_three_seats_zero_sum() -> None:
    import numpy as np

    from cardcore import rl

    env = rl.aec_env("slapjack", 3)
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    totals: Counter[str] = Counter()
    for _ in range(20_000):
        if not env.agents:
            break
        obs, reward, terminated, truncated, _info = env.last()
        totals[env.agent_selection] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents
    assert abs(sum(totals.values())) < 1e-9 and max(totals.values()) == pytest.approx(1.0)


def test_slap_session_idle_clock_starts_when_the_seat_may_act() -> None:
    from cardcore.session import Session, SessionConfig, TimeControl

    session = Session.create("slapjack", ["Ann", "Bob"], now=0.0, seed=7,
                             config=SessionConfig(time=TimeControl(turn=5)))
    for conn, seat in (("ann", 0), ("bob", 1)):
        _send(session, conn, {"type": "join", "seat": seat}, 1.0)
    assert session.game.view(1)["legal"] == []  # Bob has nothing to do until Ann flips
    _send(session, "ann", {"type": "act", "action": "flip", "seen": 0}, 5.9)
    assert session.game.view(1)["legal"]  # now Bob may flip (or slap)
    out = session.tick(6.0)
    played = [o.message["action"] for o in out if o.conn == "ann" and o.message["type"] == "update"]
    assert played == [], f"Bob's default was played 0.1 s after he could first act: {played}"
    assert session.next_deadline() >= 10.9


def test_slap_end_1_a_slap_overtaken_by_the_winning_flip_is_stale() -> None:
    text = position("JH", [*OTHERS, Card.parse("5H"), Card.parse("5C")], [Card.parse("7D")],
                    turn=1, used="false,true")
    game = cardcore.new_game("slapjack", 2, position=text, seed=3)
    old = game.view(0)
    assert "slap JH" in old["legal"]
    game.act(1, "flip", seen=old["version"])  # 7D covers the Jack; seat 1 is eliminated
    assert game.is_over and game.result.winners == (0,)
    before = snapshot(game)
    with pytest.raises(StaleActionError, match="CORE-RT-1"):
        game.act(0, "slap JH", seen=old["version"])
    assert snapshot(game) == before


def test_slap_slap_1_a_blind_slap_legal_now_is_applied_whatever_seen_says() -> None:
    game = cardcore.new_game("slapjack", 2, seed=11)
    old = game.view(1)
    to_jack(game)
    jack = game.view(None)["zones"][CENTRE]["cards"][0]
    game.act(1, f"slap {jack}", seen=old["version"])
    assert game.view(None)["zones"][CENTRE]["count"] == 0


def test_slap_house_1_save_names_the_rule_and_needs_it() -> None:
    game = cardcore.new_game("slapjack", 2, rules=["slapjack.doubles"], seed=1)
    game.act(0, "flip", at=1.0)
    text = json.dumps(game.save())
    assert cardcore.load(text).rules == ("slapjack.doubles",)
    cardcore.unregister("cardcore.rules", "slapjack.doubles")
    try:
        with pytest.raises(CorruptStateError, match=r"slapjack\.doubles"):
            cardcore.load(text)
    finally:
        cardcore.register("cardcore.rules", "slapjack.doubles", DOUBLES)


def test_slap_signed_record_refuses_a_forged_action() -> None:
    game = cardcore.new_game("slapjack", 2, seed=1)
    game.act(0, "flip", at=1.0)
    game.act(1, "flip", at=2.0)
    record = game.record(key="k")
    assert cardcore.replay(json.dumps(record), key="k").position() == game.position()
    forged = json.loads(json.dumps(record))
    forged["actions"][1][0] = 0
    with pytest.raises(CorruptStateError):
        cardcore.replay(json.dumps(forged), key="k")


def test_slap_twin_judges_seen_exactly_or_refuses_it() -> None:
    game = cardcore.new_game("slapjack", 2, seed=11)
    to_jack(game)
    jack, version = game.view(None)["zones"][CENTRE]["cards"][0], game.version
    game.act(game.view(None)["table"]["turn"], "flip")
    with pytest.raises(StaleActionError, match="CORE-RT-1"):  # the real game judges it exactly
        game.clone().act(1, f"slap {jack}", seen=version)
    twin = game.determinize(1, 3)
    assert twin.version == game.version
    with pytest.raises(CardcoreError, match=r"CORE-RT-[13]\)"):  # CORE-RT-3: exactly, or refused naming the window
        twin.act(1, f"slap {jack}", seen=version)


def test_slap_failing_subscriber_never_stops_or_splits_a_realtime_game() -> None:
    game = cardcore.new_game("slapjack", 3, seed=8)
    failures: list[Any] = []
    game.events.on_error = failures.append
    delivered: list[int] = []

    def bad(event: Any) -> None:
        raise KeyError("subscriber bug")

    game.events.subscribe(cardcore.CardMoved, bad, seat=1)
    game.events.subscribe(cardcore.ActionApplied, lambda e: delivered.append(e.version), seat=2)
    result = cardcore.run_realtime(game, [RandomAgent(seed=s) for s in range(3)], seed=4)
    assert game.is_over and result.reason == "last player with cards"
    assert delivered == list(range(1, game.version + 1))
    assert failures and len(game.record()["actions"]) == game.version
    assert cardcore.replay(json.dumps(game.record())).position() == game.position()


def test_slap_session_total_clock_ends_the_match_for_the_leader() -> None:
    from cardcore.session import Session, SessionConfig, TimeControl

    session = Session.create("slapjack", ["Ann", "Bob"], now=0.0, seed=7,
                             config=SessionConfig(time=TimeControl(total=10)))
    for conn, seat in (("ann", 0), ("bob", 1)):
        _send(session, conn, {"type": "join", "seat": seat}, 1.0)
    _send(session, "ann", {"type": "act", "action": "flip", "seen": 0}, 2.0)  # Ann 25, Bob 26
    session.tick(session.next_deadline())
    assert session.phase == "over"
    result = session.game.result
    assert result is not None and result.winners == (1,) and result.reason == "ended"


def test_slap_rl_observation_depends_only_on_what_the_seat_knows() -> None:
    import numpy as np

    from cardcore import rl

    full = cardcore.new_game("slapjack", 3, seed=5)
    cardcore.run_realtime(full, [RandomAgent(seed=s) for s in range(3)], seed=2, max_actions=40)
    game = cardcore.new_game("slapjack", 3, seed=5)  # max_actions ends the game: replay a prefix
    for seat, text, at in full.record()["actions"][:30]:
        game.act(seat, text, at=at)
    assert not game.is_over
    for seat in range(3):
        mine = rl.observe(game, seat)
        for seed in range(4):
            twin = rl.observe(game.determinize(seat, seed), seat)
            assert np.array_equal(np.asarray(mine["observation"]), np.asarray(twin["observation"]))
            assert np.array_equal(np.asarray(mine["action_mask"]), np.asarray(twin["action_mask"]))
