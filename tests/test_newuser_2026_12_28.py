"""A new user's Crazy Eights plugin and a Golf house rule, written from the docs alone.

The game, its house rule (a 2 makes the next player draw two) and a Golf house rule
(queens score an option's points) are built here in place and registered with
``cardcore.register`` as docs/plugin-guide/entry-points.rst allows, with a hookspec module
built in place as docs/plugin-guide/hookspecs.rst describes. The same plugin was also
installed as its own distribution (entry points) and played with ``cardcore play``,
``simulate``, ``replay``, the RL environments and the web server; these tests pin what held
and the two faults found (strict xfails at first, fixed the same day: ``cardcore rules``
read ``RULES_MD`` through ``sys.modules``; the kit blamed a misplaced card for a blank position
slot). Every game is stacked (``deck=``) or seeded.
"""

from __future__ import annotations

import io
import json
import sys
import types
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    SPECTATOR,
    Action,
    Card,
    CardDrawn,
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
    OptionError,
    PluginError,
    RuleInfo,
    Ruleset,
    ScoreTable,
    TurnPassed,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
    standard_52,
)
from cardcore.dealing import deal_round_robin, draw_card, fill_stock
from cardcore.errors import IllegalActionError, UnknownPluginError
from cardcore.turns import end_game, next_seat, winners_by

NAME = "crazy8nu"
BLANK = "crazy8nu-blank"
RULE_NAME = "crazy8nu.draw-two"
GOLF_RULE = "golf.queen-value-nu"
SUITS = ("C", "D", "H", "S")

RULES_MD = """# Crazy Eights

| ID | Rule |
|----|------|
| EIGHTS-DEAL-1 | 5 cards each (7 with two players), option `hand_size`; the next card starts the discard pile. |
| EIGHTS-PLAY-1 | Play a card matching the top discard's rank or suit (the called suit after an eight). |
| EIGHTS-WILD-1 | An eight may always be played; its player names a suit: `play 8H S`. |
| EIGHTS-DRAW-1 | A player who cannot play draws one card and may play it, else passes; empty stock: pass. |
| EIGHTS-END-1 | First out wins and scores the others' hands: 8 = 50, court = 10, ace = 1, others face value. |
| EIGHTS-END-2 | [D] Every seat passing in a row with an empty stock blocks the game: lowest hand wins. |
| EIGHTS-NOTE-1 | Malformed action text is refused. |
| EIGHTS-TWO-1 | [V] A 2 makes the next player draw two cards and lose the turn. |
"""

# --------------------------------------------------------------------------------------------
# The game, from docs/plugin-guide/game.rst
# --------------------------------------------------------------------------------------------


@frozen
class Play(Action):
    card: Card
    suit: str = ""
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card} {self.suit}" if self.suit else f"play {self.card}"


@frozen
class Draw(Action):
    verb: ClassVar[str] = "draw"

    def notation(self) -> str:
        return "draw"


@frozen
class Pass(Action):
    verb: ClassVar[str] = "pass"

    def notation(self) -> str:
        return "pass"


EightsAction = Play | Draw | Pass
STOCK, DISCARD = 0, 1


def hand(seat: int) -> int:
    return 2 + seat


@cache
def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP), *hands])


class EightsState(GameState):
    __slots__ = ("called", "drew", "passes")
    called: str | None
    drew: bool
    passes: int


def deal_size(players: int, options: Mapping[str, Any]) -> int:
    size = options.get("hand_size")
    return size if size is not None else (7 if players == 2 else 5)


def suit_of(card: Card) -> str:
    return card.suit.letter if card.suit is not None else ""


class EightsLogic(GameLogic[EightsState, EightsAction]):
    action_types = (Play, Draw, Pass)
    position_fields = ("to_act", "called", "drew", "passes")

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        points = ruleset.resolve("card_points")
        penalty = ruleset.resolve(f"{NAME}_penalty")
        if points is None or penalty is None:
            raise PluginError("crazy eights answers card_points and its penalty hook itself")
        self.points = ScoreTable.from_points(
            lambda card: self.checked_answer("card_points", points(card=card), int), standard_52()
        )
        self.penalty = {
            c: self.checked_answer(f"{NAME}_penalty", penalty(card=c), int) for c in standard_52()
        }

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        super().validate(players, options)
        self.require_cards(players, options, players * deal_size(players, options) + 1)

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 2000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> EightsState:
        state = EightsState(players, options, Zones(layout(players)))
        state.called, state.drew, state.passes = None, False, 0
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> EightsState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_round_robin(
            state, STOCK, [hand(s) for s in range(players)], deal_size(players, options)
        )
        state.zones.move(STOCK, DISCARD)
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(players))))
        return state

    def _fits(self, state: EightsState, card: Card) -> bool:
        top = state.zones.cards[DISCARD][-1]
        follow = state.called if state.called is not None else suit_of(top)
        return card.label in ("8", top.label) or suit_of(card) == follow

    @staticmethod
    def _plays(seat: int, card: Card) -> list[EightsAction]:
        return [Play(seat, card, s) for s in SUITS] if card.label == "8" else [Play(seat, card)]

    def legal_actions(self, state: EightsState, seat: int) -> tuple[EightsAction, ...]:
        if seat not in state.to_act:
            return ()
        cards = state.zones.cards[hand(seat)]
        if state.drew:
            drawn = cards[-1]
            return (*(self._plays(seat, drawn) if self._fits(state, drawn) else []), Pass(seat))
        plays: list[EightsAction] = []
        for card in sorted(set(cards), key=lambda c: (suit_of(c), int(c.rank))):
            if self._fits(state, card):
                plays.extend(self._plays(seat, card))
        if plays:
            return tuple(plays)
        return (Draw(seat),) if state.zones.cards[STOCK] else (Pass(seat),)

    def rule_for(self, state: EightsState, action: EightsAction) -> tuple[str, str]:
        cards = state.zones.cards[hand(action.seat)]
        if isinstance(action, Play):
            if action.card not in cards:
                return "EIGHTS-PLAY-1", f"seat {action.seat} may play only a card it holds"
            if state.drew and action.card != cards[-1]:
                return "EIGHTS-DRAW-1", "after drawing, only the drawn card may be played"
            if (action.card.label == "8") != bool(action.suit):
                return "EIGHTS-WILD-1", "an eight, and only an eight, names a suit: play 8H S"
            return "EIGHTS-PLAY-1", f"{action.card} matches neither the rank nor the suit to follow"
        if isinstance(action, Draw):
            return (
                "EIGHTS-DRAW-1",
                "draw only when you cannot play, once, from a stock that holds cards",
            )
        return "EIGHTS-DRAW-1", "pass only when you cannot play"

    def parse_action(self, state: EightsState, seat: int, text: str) -> EightsAction:
        words = text.split() if isinstance(text, str) else []
        if words and words[0].lower() == "play":
            if len(words) not in (2, 3):
                raise self.parse_error(text, "play CARD, or play 8X SUIT", "EIGHTS-NOTE-1")
            suit = words[2].upper() if len(words) == 3 else ""
            if suit and suit not in SUITS:
                raise self.parse_error(text, "a suit C, D, H or S", "EIGHTS-NOTE-1")
            return Play(seat, Card.parse(words[1]), suit)
        action = super().parse_action(state, seat, text)
        assert isinstance(action, Play | Draw | Pass)
        return action

    def apply(self, state: EightsState, action: EightsAction, emit: Emit | None) -> None:
        seat, z, players = action.seat, state.zones, state.players
        if isinstance(action, Draw):
            card = draw_card(state, STOCK, hand(seat))
            state.drew = True
            if emit is not None:
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
            return
        if isinstance(action, Pass):
            state.drew = False
            state.passes = 0 if z.cards[STOCK] else state.passes + 1
            if state.passes >= players:  # EIGHTS-END-2
                left = [self.points.total(z.cards[hand(s)]) for s in range(players)]
                won = winners_by(left)
                made = self.score_round(
                    state, [sum(left) - left[s] if s in won else 0 for s in range(players)]
                )
                end_game(state, won, made, "blocked")
                return
            state.to_act = (next_seat(seat, players),)
            if emit is not None:
                emit(TurnPassed(state.to_act[0]))
            return
        src = hand(seat)
        z.move(src, DISCARD, max(i for i, c in enumerate(z.cards[src]) if c == action.card))
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "discard", action.card))
        state.called, state.drew, state.passes = action.suit or None, False, 0
        if not z.cards[src]:  # EIGHTS-END-1
            left = [self.points.total(z.cards[hand(s)]) for s in range(players)]
            made = self.score_round(state, [sum(left) if s == seat else 0 for s in range(players)])
            end_game(state, (seat,), made, "out")
            return
        nxt = next_seat(seat, players)
        if self.penalty[action.card]:  # EIGHTS-TWO-1, a house rule through the game's own hook
            for _ in range(self.penalty[action.card]):
                drawn = draw_card(state, STOCK, hand(nxt))
                if drawn is None:
                    break
                if emit is not None:
                    emit(CardDrawn(nxt, "stock", drawn, visible_to=1 << nxt))
            nxt = next_seat(nxt, players)
        state.to_act = (nxt,)
        if emit is not None:
            emit(TurnPassed(nxt))

    def table(self, state: EightsState, seat: int | None) -> dict[str, Any]:
        return {
            "stock": len(state.zones.cards[STOCK]),
            "called": state.called,
            "hands": [len(state.zones.cards[hand(s)]) for s in range(state.players)],
            "drew": state.drew,
            "passes": state.passes,
        }

    def scores(self, state: EightsState) -> tuple[float, ...]:
        return tuple(
            -float(self.points.total(state.zones.cards[hand(s)])) for s in range(state.players)
        )

    def check_position(self, state: EightsState) -> None:
        if len(state.to_act) > 1:
            raise OptionError("crazy eights has one seat to act")
        if state.called is not None and state.called not in SUITS:
            raise OptionError(f"called must be one of {SUITS}")


class BlankSlotLogic(EightsLogic):
    """The same game, but its view leaves out two slots of ``position_fields`` (drew, passes)."""

    def table(self, state: EightsState, seat: int | None) -> dict[str, Any]:
        table = super().table(state, seat)
        del table["drew"], table["passes"]
        return table


FIELDS = (
    ViewField("stock", "int", "Cards left in the stock."),
    ViewField("called", "choice", "The suit the last eight called.", choices=SUITS, nullable=True),
    ViewField("hands", "per-seat", "Cards in each hand.", of="int"),
)
MORE_FIELDS = (
    ViewField("drew", "bool", "The seat to act has drawn this turn."),
    ViewField("passes", "int", "Passes in a row with an empty stock."),
)
HAND_SIZE = Option(
    "hand_size",
    None,
    "Cards dealt to each player (default 7 for two, else 5)",
    kind=int,
    minimum=1,
    maximum=10,
    nullable=True,
    rule_id="EIGHTS-DEAL-1",
)
POINTS = {"8": 50, "J": 10, "Q": 10, "K": 10, "A": 1}


def _penalty_spec(card: Card) -> int | None:
    """Return how many cards the next player draws (losing the turn) when *card* is played."""


def _card_points(card: Card) -> int | None:
    return POINTS.get(card.label, int(card.rank))


def _no_penalty(card: Card) -> int | None:
    return 0


def _two_penalty(card: Card) -> int | None:
    return 2 if card.label == "2" else None


def _game_module(
    name: str, logic: type[EightsLogic], fields: tuple[ViewField, ...]
) -> types.ModuleType:
    specs = types.ModuleType(f"{name.replace('-', '_')}_hookspecs")
    vars(specs)[f"{NAME}_penalty"] = hookspec(firstresult=True)(_penalty_spec)
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = GameInfo(
        name,
        "Crazy Eights: match rank or suit, eights are wild; first out wins",
        2,
        5,
        version="1.0.0",
        hookspecs=specs,
        options=(HAND_SIZE,),
        fields=fields,
    )
    module.RULES_MD = RULES_MD
    vars(module)["create_logic"] = hookimpl(lambda ruleset: logic(ruleset))
    vars(module)["card_points"] = hookimpl(trylast=True)(_card_points)
    vars(module)[f"{NAME}_penalty"] = hookimpl(trylast=True)(_no_penalty)
    return module


def _draw_two_module() -> types.ModuleType:
    module = types.ModuleType("crazy8nu_draw_two")
    module.RULE = RuleInfo(
        id="EIGHTS-TWO-1",
        name=RULE_NAME,
        game=NAME,
        summary="A 2 makes the next player draw two and lose the turn",
        version="1.0.0",
    )
    vars(module)[f"{NAME}_penalty"] = hookimpl(_two_penalty)
    return module


def _golf_queen_module() -> types.ModuleType:
    from cardcore_golf.rules import BASIC  # as docs/plugin-guide/house-rule.rst names it

    def golf_score_table(options: Mapping[str, Any]) -> ScoreTable:
        return BASIC.replace({"Q": options["queen_value"]})

    module = types.ModuleType("golf_queen_value_nu")
    module.RULE = RuleInfo(
        id="QUEEN-NU-1",
        name=GOLF_RULE,
        game="golf",
        summary="Queens score queen_value points",
        version="1.0.0",
        options=(
            Option(
                "queen_value",
                default=0,
                minimum=-5,
                maximum=20,
                doc="Points of a queen",
                rule_id="QUEEN-NU-1",
            ),
        ),
    )
    module.golf_score_table = hookimpl(golf_score_table)
    return module


@pytest.fixture(scope="module", autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, _game_module(NAME, EightsLogic, FIELDS + MORE_FIELDS))
    cardcore.register("cardcore.games", BLANK, _game_module(BLANK, BlankSlotLogic, FIELDS))
    cardcore.register("cardcore.rules", RULE_NAME, _draw_two_module())
    cardcore.register("cardcore.rules", GOLF_RULE, _golf_queen_module())
    yield
    cardcore.unregister("cardcore.rules", GOLF_RULE)
    cardcore.unregister("cardcore.rules", RULE_NAME)
    cardcore.unregister("cardcore.games", BLANK)
    cardcore.unregister("cardcore.games", NAME)


def hand_of(game: cardcore.Game, seat: int, viewer: int | None = None) -> list[str | None]:
    """Seat *seat*'s hand, top first, as *viewer* (default: the seat itself) sees it."""
    view = game.view(seat if viewer is None else viewer)
    return next(z["cards"] for z in view["zones"] if z["name"] == f"hand.{seat}")


# --------------------------------------------------------------------------------------------
# Claims that held
# --------------------------------------------------------------------------------------------


def test_conformance_kit_passes_for_the_game_and_its_house_rule():
    from cardcore.testing import check_game

    for players, rules in ((3, []), (2, [RULE_NAME])):
        report = check_game(NAME, players=players, rules=rules, games=4, seed=0)
        assert report.ok and report.cards_lost == 0 and report.leaks == 0
        assert "positions" not in report.skipped and "scores" not in report.skipped


def test_an_eight_is_wild_names_a_suit_and_the_suit_must_be_followed():
    # two players, two cards each: seat 0 gets 8D and 4S, seat 1 KC and 9H; 3H turns up
    game = cardcore.new_game(NAME, 2, options={"hand_size": 2}, deck="8D KC 4S 9H 3H", seed=1)
    assert game.view(0)["legal"] == ["play 8D C", "play 8D D", "play 8D H", "play 8D S"]
    game.act(0, "play 8d s")  # cards and suits read in any case
    assert game.view(1)["table"]["called"] == "S"
    assert game.view(1)["legal"] == ["draw"]  # neither KC nor 9H follows spades or an eight


def test_a_player_who_cannot_play_draws_then_plays_the_drawn_card_or_passes():
    # seat 0: 4S 5S, seat 1: KC 9C; 3H up; stock starts 7H then QD
    game = cardcore.new_game(NAME, 2, options={"hand_size": 2}, deck="4S KC 5S 9C 3H 7H QD", seed=1)
    assert game.view(0)["legal"] == ["draw"]
    game.act(0, "draw")
    assert hand_of(game, 0)[0] == "7H" and game.view(0)["legal"] == ["play 7H", "pass"]
    with pytest.raises(IllegalActionError, match=r"only the drawn card.*\(EIGHTS-DRAW-1\)"):
        game.act(0, "play 4S")
    game.act(0, "pass")
    assert game.to_act == (1,)


@pytest.mark.parametrize(("other", "points"), [("8C", 50), ("KC", 10), ("AC", 1), ("7C", 7)])
def test_first_out_scores_the_cards_left_in_the_other_hands(other, points):
    game = cardcore.new_game(NAME, 2, options={"hand_size": 1}, deck=f"5H {other} 3H", seed=1)
    game.act(0, "play 5H")
    assert game.is_over and game.result.winners == (0,) and game.result.scores == (points, 0)


def test_the_draw_two_house_rule_takes_effect_only_when_chosen():
    deck = "2H 5C 9S 6C 3H KD QD JD"  # seat 0: 2H 9S, seat 1: 5C 6C; 3H up; stock KD QD JD ...
    plain = cardcore.new_game(NAME, 2, options={"hand_size": 2}, deck=deck, seed=3)
    plain.act(0, "play 2H")
    assert plain.to_act == (1,) and len(hand_of(plain, 1)) == 2
    ruled = cardcore.new_game(
        NAME, 2, rules=[RULE_NAME], options={"hand_size": 2}, deck=deck, seed=3
    )
    assert ruled.rules == (RULE_NAME,)
    ruled.act(0, "play 2H")
    assert ruled.to_act == (0,)  # seat 1 drew two and lost the turn
    assert hand_of(ruled, 1) == ["QD", "KD", "6C", "5C"]
    assert hand_of(ruled, 1, viewer=0) == [None] * 4
    assert ruled.record()["rules"] == [
        {"name": RULE_NAME, "id": "EIGHTS-TWO-1", "version": "1.0.0"}
    ]
    again = cardcore.new_game(
        NAME, 2, rules=["EIGHTS-TWO-1"], options={"hand_size": 2}, deck=deck, seed=3
    )
    assert again.rules == (RULE_NAME,)  # a rule named by its ID


def test_refused_input_raises_clear_errors_and_changes_nothing():
    game = cardcore.new_game(
        NAME, 3, deck="9D 5C 6C QS 7C 8C 5S 9C 10C AS JC QC 9H 2C 3C 8D", seed=7
    )
    assert game.view(0)["legal"] == ["play 9D"]
    before, version = json.dumps(game.save(), sort_keys=True), game.version
    cases = [
        (1, "draw", IllegalActionError, r"not seat 1's turn.*\(CORE-TURN-1\)"),
        (0, "play KH", IllegalActionError, r"only a card it holds \(EIGHTS-PLAY-1\)"),
        (0, "play 9D S", IllegalActionError, r"\(EIGHTS-WILD-1\)"),
        (0, "draw", IllegalActionError, r"\(EIGHTS-DRAW-1\)"),
        (0, "pass", IllegalActionError, r"\(EIGHTS-DRAW-1\)"),
        (0, "play 8D X", NotationError, r"suit C, D, H or S \(EIGHTS-NOTE-1\)"),
        (0, "play", NotationError, r"\(EIGHTS-NOTE-1\)"),
        (0, "play ZZ", NotationError, r"not a card: 'ZZ'.*\(CORE-NOTATION-2\)"),
        (0, "fly away", NotationError, r"unknown action 'fly'.*\(CORE-NOTATION-1\)"),
        (0, "", NotationError, r"\(CORE-NOTATION-1\)"),
        (5, "draw", cardcore.SeatError, r"no seat 5.*\(CORE-SEAT-1\)"),
    ]
    for seat, text, error, message in cases:
        with pytest.raises(error, match=message):
            game.act(seat, text)
    assert game.version == version and json.dumps(game.save(), sort_keys=True) == before
    game.act(0, "play 9D")
    assert game.version == version + 1


def test_unknown_rules_other_games_rules_and_options_out_of_bounds_are_refused():
    with pytest.raises(
        UnknownPluginError,
        match=r"no house rule called 'crazy8nu.nope'.*installed: crazy8nu.draw-two",
    ):
        cardcore.new_game(NAME, 2, rules=["crazy8nu.nope"])
    with pytest.raises(UnknownPluginError, match=r"'golf.jokers' belongs to 'golf'"):
        cardcore.new_game(NAME, 2, rules=["golf.jokers"])
    with pytest.raises(
        OptionError, match=r"'hand_size' must be at most 10, not 11 \(EIGHTS-DEAL-1\)"
    ):
        cardcore.new_game(NAME, 2, options={"hand_size": 11})
    with pytest.raises(
        OptionError, match=r"'hand_size' must be at least 1, not 0 \(EIGHTS-DEAL-1\)"
    ):
        cardcore.new_game(NAME, 2, options={"hand_size": 0})
    with pytest.raises(OptionError, match=r"has no option 'hand_sz' \(it accepts: hand_size\)"):
        cardcore.new_game(NAME, 2, options={"hand_sz": 3})
    with pytest.raises(OptionError, match=r"takes 2 to 5 players, not 6 \(CORE-SEAT-2\)"):
        cardcore.new_game(NAME, 6)
    assert (
        cardcore.new_game(NAME, 5, options={"hand_size": 10}, seed=1).view(0)["table"]["stock"] == 1
    )


def test_views_and_events_hide_the_other_hands_and_draws():
    seen: dict[int | None, list[dict[str, Any]]] = {0: [], 1: [], SPECTATOR: []}

    def collect(seat: int | None) -> Any:
        return lambda event: seen[seat].append(event.to_json())

    subscribers = [(Event, collect(s), s) for s in seen]
    deck = "4S KC 5S 9C 3H 7H QD"
    game = cardcore.new_game(
        NAME, 2, options={"hand_size": 2}, deck=deck, seed=1, subscribers=subscribers
    )
    game.act(0, "draw")
    assert hand_of(game, 0) == ["7H", "5S", "4S"]
    assert hand_of(game, 0, viewer=1) == [None] * 3
    spectator = game.view(SPECTATOR)
    assert next(z["cards"] for z in spectator["zones"] if z["name"] == "hand.0") == [None] * 3
    draws = {s: [e for e in events if e["event"] == "card-drawn"] for s, events in seen.items()}
    assert draws[0] == [{"event": "card-drawn", "seat": 0, "source": "stock", "card": "7H"}]
    assert (
        draws[1]
        == draws[SPECTATOR]
        == [{"event": "card-drawn", "seat": 0, "source": "stock", "card": None}]
    )


def test_save_load_record_replay_and_position_round_trip():
    game = cardcore.new_game(NAME, 3, rules=[RULE_NAME], seed=11)
    result = cardcore.play(game, [cardcore.RandomAgent(s) for s in (1, 2, 3)])
    record = json.loads(json.dumps(game.record()))
    assert cardcore.replay(record).result == result
    loaded = cardcore.load(json.loads(json.dumps(game.save())))
    assert loaded.version == game.version and loaded.result == result
    fresh = cardcore.new_game(NAME, 3, seed=5)
    fresh.act(0, fresh.view(0)["legal"][0])
    again = cardcore.new_game(NAME, 3, position=fresh.position(), seed=9)
    assert all(again.view(s)["legal"] == fresh.view(s)["legal"] for s in range(3))


def test_cli_rules_simulate_play_and_replay_an_in_place_game(tmp_path, capsys, monkeypatch):
    from cardcore import cli

    assert cli.main(["rules", NAME]) == 0
    assert "hand_size=none" in capsys.readouterr().out  # the options, with their bounds
    summary = tmp_path / "summary.json"
    args = [
        "simulate",
        NAME,
        "--rules",
        RULE_NAME,
        "--games",
        "3",
        "--players",
        "3",
        "-q",
        "--json",
        str(summary),
    ]
    assert cli.main(args) == 0
    assert json.loads(summary.read_text())["rules"] == [RULE_NAME]
    assert cli.main(["simulate", NAME, "--rules", "crazy8nu.nope", "-q"]) == 2
    assert "no house rule called 'crazy8nu.nope'" in capsys.readouterr().err
    assert cli.main(["simulate", NAME, "-o", "hand_size=11", "-q"]) == 2
    assert "must be at most 10, not 11" in capsys.readouterr().err
    record = tmp_path / "c8.json"
    moves = "bogus\nplay 8D X\n" + "#1\n" * 120
    monkeypatch.setattr("sys.stdin", io.StringIO(moves))
    assert cli.main(["play", NAME, "--players", "3", "--seed", "7", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "not understood: unknown action 'bogus'" in out and "(EIGHTS-NOTE-1)" in out
    saved = json.loads(record.read_text())
    assert cardcore.replay(saved).is_over
    assert cli.main(["replay", str(record), "--final", "--seat", "1"]) == 0


def test_rl_environments_take_the_in_place_game():
    rl = pytest.importorskip("cardcore.rl")
    env = rl.aec_env(NAME, 2, rules=[RULE_NAME])
    env.reset(seed=7)
    steps = 0
    for _agent in env.agent_iter(max_iter=500):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(obs["action_mask"].nonzero()[0][0]))
        steps += 1
    assert steps > 0 and env.match.game.is_over


def test_web_server_lists_the_in_place_game_and_checks_its_options():
    pytest.importorskip("httpx")
    testclient = pytest.importorskip("starlette.testclient")
    from cardcore.web import WebServer, create_app

    with testclient.TestClient(create_app(WebServer(None))) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        option = games[NAME]["options"][0]
        assert (option["name"], option["minimum"], option["maximum"], option["nullable"]) == (
            "hand_size",
            1,
            10,
            True,
        )
        assert [r["name"] for r in games[NAME]["rules"]] == [RULE_NAME]
        bots = [{"agent": "random", "params": {"seed": s}} for s in (1, 2)]
        bad = client.post(
            "/api/sessions", json={"game": NAME, "seats": bots, "options": {"hand_size": 99}}
        )
        assert bad.status_code == 400 and "must be at most 10, not 99" in bad.json()["error"]
        bad = client.post(
            "/api/sessions", json={"game": NAME, "seats": bots, "rules": ["crazy8nu.nope"]}
        )
        assert (
            bad.status_code == 400 and "no house rule called 'crazy8nu.nope'" in bad.json()["error"]
        )


def test_golf_house_rule_with_its_own_option_takes_effect():
    agents = lambda: [cardcore.RandomAgent(1), cardcore.RandomAgent(2)]  # noqa: E731
    plain = cardcore.play(cardcore.new_game("golf", 2, seed=4, options={"rounds": 1}), agents())
    assert plain.scores == (53.0, 8.0)  # docs/plugin-guide/house-rule.rst's own figure
    scores = {}
    for value in (10, 0, 20):
        game = cardcore.new_game(
            "golf", 2, rules=[GOLF_RULE], seed=4, options={"rounds": 1, "queen_value": value}
        )
        assert game.record()["options"]["queen_value"] == value
        scores[value] = cardcore.play(game, agents()).scores
    assert scores[10] == plain.scores  # BASIC queens are 10: same play, same scores
    assert scores[0] == (33.0, 8.0) and scores[20] == (73.0, 8.0)  # seat 0 ends with two queens
    with pytest.raises(
        OptionError, match=r"'queen_value' must be at most 20, not 21 \(QUEEN-NU-1\)"
    ):
        cardcore.new_game("golf", 2, rules=[GOLF_RULE], options={"queen_value": 21})
    with pytest.raises(OptionError, match=r"house rule 'golf.queen-value-nu' takes it"):
        cardcore.new_game("golf", 2, options={"queen_value": 3})


def test_the_game_hook_checks_its_house_rules_answers_and_arguments():
    def rule(name: str, penalty: Any = None, **info: Any) -> types.ModuleType:
        module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
        module.RULE = RuleInfo(
            id=f"NU-{name[-1].upper()}-1", name=name, game=NAME, summary=name, **info
        )
        if penalty is not None:
            vars(module)[f"{NAME}_penalty"] = hookimpl(penalty)
        cardcore.register("cardcore.rules", name, module)
        return module

    rule(f"{NAME}.a", lambda cardd: 3)
    rule(f"{NAME}.b", lambda card: 2.5)
    rule(f"{NAME}.c", lambda card: None, applies={"hand_size": (7, 8)})
    try:
        with pytest.raises(PluginError, match=r"has no argument 'cardd' \(it offers: card"):
            cardcore.new_game(NAME, 2, rules=[f"{NAME}.a"])
        with pytest.raises(PluginError, match=r"answered 2.5: it must answer an int"):
            cardcore.new_game(NAME, 2, rules=[f"{NAME}.b"])
        with pytest.raises(
            OptionError, match=r"applies only with hand_size in \(7, 8\), not None \(NU-C-1\)"
        ):
            cardcore.new_game(NAME, 2, rules=[f"{NAME}.c"])
        assert cardcore.new_game(
            NAME, 2, rules=[f"{NAME}.c"], options={"hand_size": 7}, seed=1
        ).rules == (f"{NAME}.c",)
    finally:
        for name in "abc":
            cardcore.unregister("cardcore.rules", f"{NAME}.{name}")


def test_kit_reports_a_position_slot_the_view_leaves_blank():
    from cardcore.testing import check_positions

    report = check_positions(BLANK, players=3, games=5, seed=0, strict=False)
    assert report.failures  # the sampled position forgets that the seat has drawn


# --------------------------------------------------------------------------------------------
# Bugs
# --------------------------------------------------------------------------------------------


def test_rules_md_is_found_when_the_module_is_also_in_sys_modules(capsys, monkeypatch):
    from cardcore import cli

    module = _game_module("crazy8nu-md", EightsLogic, FIELDS + MORE_FIELDS)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    cardcore.register("cardcore.games", "crazy8nu-md", module)
    try:
        assert cli.main(["rules", "crazy8nu-md"]) == 0
    finally:
        cardcore.unregister("cardcore.games", "crazy8nu-md")
    assert "EIGHTS-WILD-1" in capsys.readouterr().out


def test_rules_md_of_a_game_registered_in_place_is_printed(capsys):
    from cardcore import cli

    assert cli.main(["rules", NAME]) == 0
    out = capsys.readouterr().out
    assert "EIGHTS-WILD-1" in out and "no rules text" not in out


def test_kit_names_the_blank_slot_rather_than_a_misplaced_card():
    from cardcore.testing import check_positions

    report = check_positions(BLANK, players=3, games=5, seed=0, strict=False)
    text = " ".join(report.failures)
    assert "drew" in text and "a card it knows in a pile the view does not show it in" not in text
