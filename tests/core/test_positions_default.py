"""The default position notation of :class:`cardcore.GameLogic` (``position_fields``).

A tiny game defined here uses it: it declares its fields and its blank table,
checks its own counts in ``check_position``, and writes no codec of its own.
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
    CardcoreError,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    OptionError,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    parse_cards,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.positions import check, read_field, read_result
from cardcore.testing import check_game
from cardcore.turns import end_game, next_seat, winners_by

# -- the tiny game: play your two cards one at a time; the most pips played wins ----------------

DECK = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S")
STOCK, PILE = 0, 1


@frozen
class PlayCard(Action):
    """Play *card* from the hand face up onto the pile."""

    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


class TinyState(GameState):
    """Every field type the default notation knows: tuple, per-seat list, None, str, float, bool."""

    __slots__ = ("bonus", "doubled", "last", "phase", "points")
    _mutable = ("zones", "points")
    points: list[int]
    last: str | None
    bonus: float
    doubled: bool
    phase: str


def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("pile", None, Visibility.EVERYONE), *hands])


class TinyLogic(GameLogic[TinyState, PlayCard]):
    action_types = (PlayCard,)
    position_fields = ("to_act", "points", "last", "bonus", "doubled", "phase")

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 2 * players

    def blank_state(self, players: int, options: Mapping[str, Any]) -> TinyState:
        state = TinyState(players, options, Zones(layout(players)))
        state.points, state.last, state.bonus = [0] * players, None, 0.0
        state.doubled, state.phase = False, "play"
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
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_round_robin(state, STOCK, [2 + s for s in range(players)], 2)
        return state

    def legal_actions(self, state: TinyState, seat: int) -> tuple[PlayCard, ...]:
        return tuple(PlayCard(seat, c) for c in state.zones.cards[2 + seat])

    def apply(self, state: TinyState, action: PlayCard, emit: Emit | None) -> None:
        z, seat = state.zones, action.seat
        z.move(2 + seat, PILE, z.cards[2 + seat].index(action.card))
        state.points[seat] += int(action.card.rank)
        state.last, state.bonus = str(action.card), state.bonus + 0.5
        state.doubled = not state.doubled
        if all(not z.cards[2 + s] for s in range(state.players)):
            state.phase = "done"
            points = self.score_round(state, state.points)
            end_game(state, winners_by(points, lowest=False), points, "all cards played")
        else:
            state.to_act = (next_seat(seat, state.players),)

    def table(self, state: TinyState, seat: int | None) -> dict[str, Any]:
        return {"points": list(state.points), "last": state.last, "bonus": state.bonus}

    def scores(self, state: TinyState) -> tuple[float, ...]:
        return tuple(map(float, state.points))

    def check_position(self, state: TinyState) -> None:
        pile = len(state.zones.cards[PILE])
        check(state.phase in ("play", "done"), "phase must be play or done, not {!r}", state.phase)
        half = pile / 2
        check(state.bonus == half, "bonus must be half the plays ({}), not {}", half, state.bonus)


@hookimpl  # not trylast: the core's default deck is trylast and registered first, so it would win
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    return DECK


@hookimpl
def create_logic(ruleset: Ruleset) -> TinyLogic:
    return TinyLogic(ruleset)


GAME = GameInfo(
    "tinygame",
    "test game: play two cards each, most pips wins",
    2,
    3,
    fields=(
        ViewField("points", "per-seat", "pips played", of="int"),
        ViewField("last", "json", "the last card played"),
        # shown, so a search agent's sample of a view keeps it (check_position checks it)
        ViewField("bonus", "json", "half a point per card played"),
    ),
)
PLUGIN = types.ModuleType("tinygame")
vars(PLUGIN).update(GAME=GAME, build_deck=build_deck, create_logic=create_logic)


@pytest.fixture(autouse=True, scope="module")
def _tinygame() -> Iterator[None]:
    """Register the test game for this module only (other tests list every installed game)."""
    cardcore.register("cardcore.games", "tinygame", PLUGIN)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.games", "tinygame")


def tiny(players: int = 2, played: int = 0, **kwargs: Any) -> cardcore.Game:
    game = cardcore.new_game("tinygame", players, deck="2S 3S 4S 5S 6S 7S 9S 8S", seed=1, **kwargs)
    for _ in range(played):
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    return game


def same(a: cardcore.Game, b: cardcore.Game) -> bool:
    seats = [*range(len(a.players)), None]
    views = [{k: v for k, v in g.view(s).items() if k != "version"} for g in (a, b) for s in seats]
    legal = [g.legal_actions(s) for g in (a, b) for s in seats[:-1]]
    half = len(views) // 2
    return views[:half] == views[half:] and legal[: len(legal) // 2] == legal[len(legal) // 2 :]


# -- writing and reading ------------------------------------------------------------------------


def test_default_notation_writes_the_declared_slots_then_the_piles() -> None:
    game = tiny(played=1)
    text = game.position()
    assert text == (
        'tinygame to_act=[1] points=[2,0] last="2S" bonus=0.5 doubled=true phase="play"'
        " | stock: 8S 9S 7S 6S | pile: 2S! | hand.0: 4S@0 | hand.1: 3S@1 5S@1"
    )


@pytest.mark.parametrize("played", [0, 1, 3])
def test_default_notation_round_trips_a_mid_game_position(played: int) -> None:
    game = tiny(3, played)
    again = cardcore.new_game("tinygame", 3, position=game.position(), seed=9)
    assert same(game, again) and again.position() == game.position()
    state = again.state
    assert isinstance(state, TinyState)
    assert type(state.to_act) is tuple and type(state.points) is list  # tuples stay tuples
    assert type(state.bonus) is float and type(state.doubled) is bool


def test_a_finished_game_writes_its_result_and_reads_back_over() -> None:
    game = tiny(played=4)
    assert game.is_over and game.result is not None
    text = game.position()
    assert ' result={"winners":[1],"scores":[6.0,8.0],"payouts":null,' in text
    again = cardcore.new_game("tinygame", 2, position=text, seed=2)
    assert again.is_over and again.to_act == () and again.result == game.result
    assert same(game, again) and again.position() == text


def test_a_resigned_game_reads_back_with_its_own_result() -> None:
    game = tiny(played=1)
    game.act(1, "resign")
    again = cardcore.new_game("tinygame", 2, position=game.position(), seed=2)
    assert again.result == game.result and again.result is not None
    assert again.result.reason == "resigned"


def test_a_field_left_out_keeps_its_blank_value() -> None:
    text = tiny().position().replace(' last=null bonus=0.0 doubled=false phase="play"', "")
    state = cardcore.new_game("tinygame", 2, position=text, seed=1).state
    assert isinstance(state, TinyState)
    assert (state.last, state.bonus, state.doubled, state.phase) == (None, 0.0, False, "play")


def test_conformance_kit_probes_the_default_notation() -> None:
    report = check_game("tinygame", players=3, games=6, seed=4, sample=1.0)
    assert report.positions > 0 and report.games >= 6


def test_which_games_have_a_notation() -> None:
    assert tiny().logic.has_positions()  # the default one
    assert cardcore.new_game("drawgame", 3, seed=1).logic.has_positions()  # its own
    race = cardcore.new_game("racegame", 2, seed=1)
    assert not race.logic.has_positions()
    with pytest.raises(CardcoreError, match="racegame has no position notation"):
        race.position()
    with pytest.raises(OptionError, match="racegame has no position notation"):
        cardcore.new_game("racegame", 2, position="racegame", seed=1)


# -- what the default notation refuses ------------------------------------------------------------


def _positions() -> tuple[str, str]:
    cardcore.register("cardcore.games", "tinygame", PLUGIN)
    try:
        return tiny(played=1).position(), tiny(played=4).position()
    finally:
        cardcore.unregister("cardcore.games", "tinygame")


MID, OVER = _positions()  # written once, at collection, without leaving the game registered


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("to_act=[1]", "to_act=1", r"field 'to_act' must be a list of ints, strings, bools"),
        ("to_act=[1]", "to_act=[[1]]", r"field 'to_act' must be a list of ints"),
        ("to_act=[1]", "to_act=[2]", r"distinct seats of a 2-player game, not \[2\]"),
        ("to_act=[1]", "to_act=[1,1]", r"distinct seats .* not \[1, 1\]"),
        ("to_act=[1]", 'to_act=["1"]', "distinct seats"),
        ("to_act=[1]", "to_act=[true]", "distinct seats"),
        ("to_act=[1]", "to_act=[]", "nobody is to act"),
        ("points=[2,0]", "points=[2]", r"field 'points' must be a list of 2 ints, not \[2\]"),
        ("points=[2,0]", "points=[2,0.5]", "field 'points' must be a list of 2 ints"),
        ("points=[2,0]", "points=[2,false]", "field 'points' must be a list of 2 ints"),
        ("points=[2,0]", 'points="2,0"', "field 'points' must be a list of 2 ints"),
        (
            'last="2S"',
            "last=[1]",
            "field 'last' must be null, an int, a string, a bool or a number, not \\[1\\]",
        ),
        ("bonus=0.5", 'bonus="0.5"', "field 'bonus' must be a number, not \"0.5\""),
        ("bonus=0.5", "bonus=true", "field 'bonus' must be a number"),
        ("doubled=true", "doubled=1", "field 'doubled' must be a bool, not 1"),
        ('phase="play"', "phase=0", "field 'phase' must be a string"),
        ('phase="play"', 'phase="bid"', "phase must be play or done, not 'bid'"),  # the game's
        ("bonus=0.5", "bonus=1", r"bonus must be half the plays \(0.5\), not 1.0"),
        ("doubled=true", "doubled=true d=0", r"unknown fields \['d'\] \(tinygame has: to_act,"),
        ("to_act=[1]", 'to_act=[1] result={"winners":[0]}', 'field "result" must be'),
        ("hand.0: 4S@0", "hand.0: 4S@0 4S", "every card must be placed exactly once"),
        ("hand.0: 4S@0", "hand.0: 4S@2", "not a seat of a 2-player game"),
    ],
)
def test_default_notation_refuses_what_it_cannot_hold(old: str, new: str, message: str) -> None:
    assert old in MID
    with pytest.raises(OptionError, match=message):
        cardcore.new_game("tinygame", 2, position=MID.replace(old, new, 1), seed=1)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"winners":[1]', '"winners":[2]', 'field "result" must be'),
        ('"winners":[1]', '"winners":[1,1]', 'field "result" must be'),
        ('"scores":[6.0,8.0]', '"scores":[6.0]', 'field "result" must be'),
        ('"scores":[6.0,8.0]', '"scores":[6.0,"8"]', 'field "result" must be'),
        ('"payouts":null', '"payouts":[1]', 'field "result" must be'),
        ("to_act=[]", "to_act=[0]", r"the game is over \(result\), so nobody may act, not \[0\]"),
    ],
)
def test_default_notation_checks_a_finished_games_result(old: str, new: str, message: str) -> None:
    assert old in OVER
    with pytest.raises(OptionError, match=message):
        cardcore.new_game("tinygame", 2, position=OVER.replace(old, new, 1), seed=1)


def test_a_finished_result_with_payouts_reads_back() -> None:
    text = OVER.replace('"payouts":null', '"payouts":[-3,3]', 1)
    result = cardcore.new_game("tinygame", 2, position=text, seed=1).result
    assert result is not None and result.payouts == (-3, 3) and result.scores == (6.0, 8.0)


# -- the building blocks ------------------------------------------------------------------------


def test_read_field_checks_against_the_blank_value() -> None:
    assert read_field("n", 3, 0) == 3
    assert read_field("x", 2, 0.0) == 2.0 and type(read_field("x", 2, 0.0)) is float
    assert read_field("xs", [1, 2.5], [0.0, 0.0]) == [1.0, 2.5]
    assert read_field("who", "Ann", None) == "Ann" and read_field("who", None, None) is None
    assert read_field("seats", [2, 0], ()) == (2, 0)
    assert read_field("mixed", [1, "a"], [0, ""]) == [1, "a"]
    with pytest.raises(OptionError, match=r"'mixed' must be a list of 2 values typed like \[0,"):
        read_field("mixed", ["a", 1], [0, ""])
    with pytest.raises(OptionError, match="field 'n' must be an int, not true"):
        read_field("n", True, 0)
    with pytest.raises(
        OptionError, match="field 'who' must be null, an int, a string, a bool or a number, not"
    ):
        read_field("who", {"a": 1}, None)
    for bad in ({}, [[0]], [{}], object()):
        with pytest.raises(TypeError, match="fields hold ints, strings, bools"):
            read_field("odd", [], bad)


def test_read_result_and_check() -> None:
    got = read_result({"winners": [], "scores": [1, 2], "payouts": None, "reason": "void"}, 2)
    assert got == cardcore.Result((), (1.0, 2.0), None, "void")
    with pytest.raises(OptionError, match='field "result" must be'):
        read_result({"winners": [], "scores": [1, 2], "payouts": None, "reason": ""}, 2)
    check(True, "never formatted {}")  # a passing check formats nothing
    with pytest.raises(OptionError, match=r"^bad position: hand.2 is empty \(CORE-POSITION-1\)$"):
        check([], "hand.{} is empty", 2)
