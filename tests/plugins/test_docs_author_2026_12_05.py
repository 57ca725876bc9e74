"""A docs-only author's Crazy Eights plugin and house rule, and tests of them.

Written from ``docs/plugin-guide/*.rst``, ``docs/hooks.rst``, ``docs/api.rst`` and the
README only. The plugin (game, hookspecs, house rule) sits between the PLUGIN markers;
everything after them tests it and the engine's handling of plugin mistakes.

Rules (IDs cited by the code): C8-DEAL-1 5 cards each (7 for two players), a starter
turned up; C8-PLAY-1 play a card matching the top card's rank or the suit to follow;
C8-PLAY-2 any 8 may be played and names the suit to follow (``play 8H S``); C8-DRAW-1
draw one card instead, then play it if legal or pass; C8-DRAW-2 an empty stock is
rebuilt from the discards but the top; C8-PASS-1 a seat that can neither play nor draw
passes (a full 52-card deck never blocks: the eights are somewhere in the hands);
C8-END-1 the first seat out wins and scores the cards left in the other hands
(8 = 50, K/Q/J = 10, A = 1, others face value).
House rule C8-HOUSE-1 (``crazyeights.draw-until-play``): after drawing a card you cannot
play, draw again while anything can be drawn.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    ALL,
    Action,
    Card,
    CardDrawn,
    CardMoved,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    NotationError,
    RuleInfo,
    Ruleset,
    ScoreTable,
    Shuffled,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
    standard_52,
)
from cardcore.dealing import deal_round_robin, draw_card, fill_stock
from cardcore.positions import check
from cardcore.turns import end_game, next_seat

# ---------------------------------------------------------------- PLUGIN START

NAME = "crazyeights"
SUITS = ("S", "H", "D", "C")
STOCK, DISCARD = 0, 1


def hand(seat: int) -> int:
    """The zone id of *seat*'s hand."""
    return 2 + seat


@cache
def layout(players: int) -> Layout:
    """``stock`` (face down), ``discard`` (top face up), ``hand.0`` ..."""
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP), *hands])


class C8State(GameState):
    """The cards, the suit to follow, and whether the seat to act has drawn."""

    __slots__ = ("drew", "suit")
    _mutable = ("zones",)
    suit: str
    drew: bool


@frozen
class Play(Action):
    """Play *card*; an eight names *suit* (C8-PLAY-1, C8-PLAY-2)."""

    card: Card
    suit: str = ""
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card.text} {self.suit}" if self.suit else f"play {self.card.text}"


@frozen
class Draw(Action):
    """Draw one card from the stock (C8-DRAW-1)."""

    verb: ClassVar[str] = "draw"

    def notation(self) -> str:
        return "draw"


@frozen
class Pass(Action):
    """End the turn without playing (C8-DRAW-1, C8-PASS-1)."""

    verb: ClassVar[str] = "pass"

    def notation(self) -> str:
        return "pass"


C8Action = Play | Draw | Pass


def base_points(card: Card) -> int:
    """C8-END-1: 8 = 50, K/Q/J = 10, A = 1, others face value."""
    return 50 if card.label == "8" else min(int(card.rank), 10)


class C8Logic(GameLogic[C8State, C8Action]):
    """Crazy Eights for 2 to 5 players."""

    action_types = (Play, Draw, Pass)
    position_fields = ("to_act", "suit", "drew")

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        points = ruleset.resolve("card_points")
        keep = ruleset.resolve("crazy8_keep_drawing")
        if points is None or keep is None:
            raise cardcore.PluginError("crazyeights answers card_points and crazy8_keep_drawing")
        self.keep_drawing = keep
        self.points = ScoreTable.from_points(
            lambda card: self.checked_answer("card_points", points(card=card), int), standard_52()
        )

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 20000  # random play with the house rule: up to ~12000 seen in 90 games

    def blank_state(self, players: int, options: Mapping[str, Any]) -> C8State:
        state = C8State(players, options, Zones(layout(players)))
        state.suit, state.drew = "", False
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> C8State:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)  # C8-DEAL-1
        deal_round_robin(state, STOCK, [hand(s) for s in range(players)], 7 if players == 2 else 5)
        starter = state.zones.move(STOCK, DISCARD, mask=ALL)
        state.suit = starter.suit.letter if starter.suit else SUITS[0]
        if emit is not None:
            emit(CardsDealt(tuple(len(state.zones.cards[hand(s)]) for s in range(players))))
        return state

    def _plays(self, state: C8State, seat: int, cards: Sequence[Card]) -> tuple[Play, ...]:
        top = state.zones.cards[DISCARD][-1]
        plays: list[Play] = []
        for card in cards:
            if card.label == "8":  # C8-PLAY-2
                plays.extend(Play(seat, card, suit) for suit in SUITS)
            elif card.label == top.label or (card.suit and card.suit.letter == state.suit):
                plays.append(Play(seat, card))  # C8-PLAY-1
        return tuple(plays)

    def _can_draw(self, state: C8State) -> bool:
        cards = state.zones.cards
        return bool(cards[STOCK]) or len(cards[DISCARD]) > 1

    def legal_actions(self, state: C8State, seat: int) -> tuple[C8Action, ...]:
        """Plays in hand order (an eight once per suit, S H D C), then draw or pass."""
        if seat not in state.to_act:
            return ()
        held = state.zones.cards[hand(seat)]
        if state.drew:  # C8-DRAW-1: only the card just drawn may be played
            plays = self._plays(state, seat, held[-1:])
            keep = self.checked_answer(
                "crazy8_keep_drawing", self.keep_drawing(state=state, seat=seat), bool
            )
            if not plays and keep and self._can_draw(state):
                return (Draw(seat),)
            return (*plays, Pass(seat))
        plays = self._plays(state, seat, held)
        if self._can_draw(state):
            return (*plays, Draw(seat))
        return plays or (Pass(seat),)  # C8-PASS-1

    def rule_for(self, state: C8State, action: C8Action) -> tuple[str, str]:
        if isinstance(action, Play):
            if state.drew:
                return "C8-DRAW-1", "after drawing only the card drawn may be played"
            if action.card.label == "8":
                return "C8-PLAY-2", f"an eight names one suit of S H D C, not {action.suit!r}"
            return "C8-PLAY-1", f"{action.card.text} matches neither the rank nor the suit"
        if isinstance(action, Draw):
            return "C8-DRAW-1", "one card may be drawn per turn, from a stock or discards"
        return "C8-PASS-1", "a seat passes only when it cannot play or draw"

    def parse_action(self, state: C8State, seat: int, text: str) -> C8Action:
        words = text.split()
        verb = words[0].lower() if words else ""
        if verb == "play" and len(words) in (2, 3):
            card = Card.parse(words[1])
            suit = words[2].upper() if len(words) == 3 else ""
            if suit and suit not in SUITS:
                raise self.parse_error(text, "play <card> [S|H|D|C]")
            return Play(seat, card, suit)
        if verb in ("draw", "pass") and len(words) == 1:
            return Draw(seat) if verb == "draw" else Pass(seat)
        raise self.parse_error(text, "play <card> [suit], draw or pass")

    def apply(self, state: C8State, action: C8Action, emit: Emit | None) -> None:
        seat, z, players = action.seat, state.zones, state.players
        if isinstance(action, Draw):
            rebuilt = not z.cards[STOCK]
            card = draw_card(state, STOCK, hand(seat), discard=DISCARD)  # C8-DRAW-2
            state.drew = True
            if emit is not None:
                if rebuilt:
                    emit(Shuffled("stock", len(z.cards[STOCK]) + 1))
                emit(CardDrawn(seat, "stock", card, visible_to=1 << seat))
            return
        if isinstance(action, Pass):
            state.drew, state.to_act = False, (next_seat(seat, players),)
            return
        index = z.cards[hand(seat)].index(action.card)
        card = z.move(hand(seat), DISCARD, index, mask=ALL)
        state.suit = action.suit or (card.suit.letter if card.suit else state.suit)
        state.drew = False
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "discard", card))
        if z.cards[hand(seat)]:
            state.to_act = (next_seat(seat, players),)
            return
        left = sum(self.points.total(z.cards[hand(s)]) for s in range(players))  # C8-END-1
        made = self.score_round(state, [left if s == seat else 0 for s in range(players)])
        end_game(state, (seat,), made, "went out")

    def table(self, state: C8State, seat: int | None) -> dict[str, Any]:
        return {"stock": len(state.zones.cards[STOCK]), "suit": state.suit, "drew": state.drew}

    def check_position(self, state: C8State) -> None:
        check(state.is_over or bool(state.zones.cards[DISCARD]), "the discard pile is empty")
        check(state.suit in SUITS, "suit must be one of S H D C, not {!r}", state.suit)


@hookspec(firstresult=True)
def crazy8_keep_drawing(state: GameState, seat: int) -> bool | None:
    """Return whether *seat*, having drawn a card it cannot play, must draw again.

    Stops at the first non-``None`` result. The game answers ``False`` (``trylast``).

    :param state: The table. Read only.
    :param seat: The seat that drew.
    :returns: ``True`` to draw again, ``False`` to pass, ``None`` to defer.

    .. versionadded:: 1.0
    """


HOOKSPECS = types.ModuleType("crazyeights_hookspecs")
HOOKSPECS.crazy8_keep_drawing = crazy8_keep_drawing

GAME = GameInfo(
    NAME,
    "Crazy Eights: match the rank or the suit, eights are wild; first out wins",
    2,
    5,
    version="1.0.0",
    hookspecs=HOOKSPECS,
    fields=(
        ViewField("stock", "int", "Cards left in the stock."),
        ViewField("suit", "str", "The suit to follow."),
        ViewField("drew", "bool", "Whether the seat to act has drawn this turn."),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> C8Logic:
    """Build the engine of a configuration of Crazy Eights."""
    return C8Logic(ruleset)


@hookimpl(trylast=True)
def card_points(card: Card) -> int:
    """C8-END-1."""
    return base_points(card)


@hookimpl(trylast=True)
def game_keep_drawing(state: GameState, seat: int) -> bool:
    """C8-DRAW-1: one card per turn."""
    return False


@hookimpl
def rule_keep_drawing(state: GameState, seat: int) -> bool:
    """C8-HOUSE-1: draw until you can play."""
    return True


RULE = RuleInfo(
    id="C8-HOUSE-1",
    name=f"{NAME}.draw-until-play",
    game=NAME,
    summary="Draw until you can play",
)


def module(name: str, **attrs: Any) -> types.ModuleType:
    """A plugin module holding *attrs* (the docs' way to register without installing)."""
    mod = types.ModuleType(name)
    vars(mod).update(attrs)
    return mod


GAME_MODULE = module(
    "crazyeights_game",
    GAME=GAME,
    create_logic=create_logic,
    card_points=card_points,
    crazy8_keep_drawing=game_keep_drawing,
)
RULE_MODULE = module(
    "crazyeights_draw_until_play", RULE=RULE, crazy8_keep_drawing=rule_keep_drawing
)

# ---------------------------------------------------------------- PLUGIN END


# ---------------------------------------------------------------- tests

from cardcore import (  # noqa: E402
    CardcoreError,
    IllegalActionError,
    PluginError,
    RandomAgent,
)
from cardcore.testing import assert_conserved, check_game  # noqa: E402

# Seat 0 holds 8H 5S 6S 7S 9S 10S JS, seat 1 the clubs 2C-7C and 9C, the starter is KD,
# and the stock's top is 2H, then 3H (top first, dealt one card at a time).
DECK = "8H 2C 5S 3C 6S 4C 7S 5C 9S 6C 10S 7C JS 9C KD 2H 3H"


@pytest.fixture(autouse=True, scope="module")
def registered() -> Any:
    cardcore.register("cardcore.games", NAME, GAME_MODULE)
    cardcore.register("cardcore.rules", RULE.name, RULE_MODULE)
    yield
    cardcore.unregister("cardcore.rules", RULE.name)
    cardcore.unregister("cardcore.games", NAME)


@pytest.fixture
def plugins() -> Any:
    """Register extra plugins for one test; unregister them when it ends."""
    added: list[tuple[str, str]] = []

    def add(group: str, name: str, target: Any) -> None:
        cardcore.register(group, name, target)
        added.append((group, name))

    yield add
    for group, name in reversed(added):
        cardcore.unregister(group, name)


def variant(name: str, logic: type[C8Logic], **hooks: Any) -> types.ModuleType:
    """A game module like Crazy Eights' under another name, with another logic class."""
    info = GameInfo(
        name, GAME.summary, 2, 5, version="1.0.0", hookspecs=HOOKSPECS, fields=GAME.fields
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> C8Logic:
        return logic(ruleset)

    attrs = {"GAME": info, "create_logic": create_logic, "card_points": card_points}
    attrs["crazy8_keep_drawing"] = game_keep_drawing
    return module(f"{name}_game", **{**attrs, **hooks})


def rule_module(name: str, rule_id: str, game: str = NAME, **hooks: Any) -> types.ModuleType:
    info = RuleInfo(id=rule_id, name=name, game=game, summary="A test rule")
    return module(name.replace(".", "_").replace("-", "_"), RULE=info, **hooks)


def snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    return (
        game.version,
        game.position(),
        game.to_act,
        [game.view(s) for s in range(len(game.players))],
    )


def hand_of(game: cardcore.Game, seat: int) -> list[str]:
    return game.view(seat)["zones"][hand(seat)]["cards"]


# -- the plugin passes the testing kit ------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_conformance_kit(players: int) -> None:
    report = check_game(NAME, players=players, games=3, seed=players)
    assert report.ok and report.games == 3 and report.cards_lost == 0 and report.leaks == 0
    assert report.skipped == {}


def test_conformance_kit_with_house_rule() -> None:
    report = check_game(NAME, players=3, rules=[RULE.name], games=3, seed=11)
    assert report.ok and report.rules == (RULE.name,) and report.skipped == {}


# -- rules ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5), (5, 5)])
def test_c8_deal_1_hands_and_starter(players: int, size: int) -> None:
    game = cardcore.new_game(NAME, players, seed=players)
    view = game.view(None)
    counts = [z["count"] for z in view["zones"]]
    assert counts == [52 - players * size - 1, 1, *[size] * players]
    assert view["zones"][DISCARD]["cards"][0] is not None  # the starter is face up
    assert view["table"]["suit"] == view["zones"][DISCARD]["cards"][0][-1]
    assert game.to_act == (0,)


def test_c8_play_1_match_rank_or_suit() -> None:
    game = cardcore.new_game(NAME, 2, deck=DECK, seed=1)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"5S matches neither.*\(C8-PLAY-1\)"):
        game.act(0, "play 5S")
    assert snapshot(game) == before
    game.act(0, "play 8H C")
    assert game.view(1)["legal"][:3] == ["play 2C", "play 3C", "play 4C"]
    game.act(1, "play 9C")
    assert game.view(0)["legal"] == ["play 9S", "draw"]  # rank 9 matches; no clubs in hand


def test_c8_play_2_eight_names_a_suit() -> None:
    game = cardcore.new_game(NAME, 2, deck=DECK, seed=1)
    assert game.view(0)["legal"] == ["play 8H S", "play 8H H", "play 8H D", "play 8H C", "draw"]
    with pytest.raises(IllegalActionError, match="C8-PLAY-2"):
        game.act(0, "play 8H")
    game.act(0, "play 8H S")
    assert game.view(1)["table"]["suit"] == "S"
    assert game.view(1)["legal"] == ["draw"]  # clubs only: neither spades nor an eight


@pytest.mark.parametrize(
    "text", ["play", "play 8H X", "play ZZ", "play 8H S extra", "draw 1", "fold", ""]
)
def test_malformed_text_is_a_notation_error_and_changes_nothing(text: str) -> None:
    game = cardcore.new_game(NAME, 2, deck=DECK, seed=1)
    before = snapshot(game)
    with pytest.raises(NotationError):
        game.act(0, text)
    assert snapshot(game) == before


def test_c8_draw_1_draw_then_play_it_or_pass() -> None:
    game = cardcore.new_game(NAME, 2, deck=DECK, seed=1)
    game.act(0, "draw")  # 2H: neither a king nor a diamond
    assert hand_of(game, 0)[0] == "2H" and game.to_act == (0,)
    assert game.view(0)["legal"] == ["pass"]
    with pytest.raises(IllegalActionError, match="C8-DRAW-1"):
        game.act(0, "draw")
    with pytest.raises(IllegalActionError, match="C8-DRAW-1"):
        game.act(0, "play 8H S")  # only the card drawn may be played now
    game.act(0, "pass")
    assert game.to_act == (1,) and game.view(1)["table"]["drew"] is False
    game.act(1, "draw")  # 3H
    game.act(1, "pass")
    game.act(0, "play 8H H")
    game.act(1, "draw")  # the next card from the shuffled stock
    legal = game.view(1)["legal"]
    assert legal[-1] == "pass" and all(
        text.split()[1] == hand_of(game, 1)[0] for text in legal[:-1]
    )


def test_c8_house_1_draw_until_you_can_play() -> None:
    plain = cardcore.new_game(NAME, 2, deck=DECK, seed=1)
    house = cardcore.new_game(NAME, 2, deck=DECK, seed=1, rules=[RULE.name])
    for game in (plain, house):
        game.act(0, "draw")  # 2H cannot be played on KD
    assert plain.view(0)["legal"] == ["pass"]
    assert house.view(0)["legal"] == ["draw"]
    with pytest.raises(IllegalActionError):
        house.act(0, "pass")
    house.act(0, "draw")  # 3H
    assert house.to_act == (0,) and hand_of(house, 0)[:2] == ["3H", "2H"]


def test_c8_house_1_changes_the_games_played() -> None:
    def draws(rules: list[str]) -> int:
        total = 0
        for seed in range(6):
            game = cardcore.new_game(NAME, 3, rules=rules, seed=seed)
            cardcore.play(game, [RandomAgent(seed=s) for s in range(3)])
            total += sum(1 for _, action, _ in game.record_entries() if isinstance(action, Draw))
        return total

    assert draws([RULE.name]) > draws([])


def position(**piles: str) -> str:
    """A two-player position: the fields, then every pile (bottom to top)."""
    fields = piles.pop("fields", 'to_act=[0] suit="D" drew=false')
    used = {c for text in piles.values() for c in text.split()}
    rest = [c.text for c in standard_52() if c.text not in {u.rstrip("!@01") for u in used}]
    piles.setdefault("stock", "")
    text = " | ".join(f"{name.replace('_', '.')}: {cards}" for name, cards in piles.items())
    return f"{NAME} {fields} | {text}".replace("REST", " ".join(rest))


def test_c8_draw_2_empty_stock_is_rebuilt_from_the_discards_but_the_top() -> None:
    text = position(stock="", discard="REST KD!", hand_0="5S@0", hand_1="2C@1")
    game = cardcore.new_game(NAME, 2, position=text, seed=3)
    events: list[dict[str, Any]] = []
    game.events.subscribe(cardcore.Event, lambda e: events.append(e.to_json()), seat=1)
    game.act(0, "draw")
    view = game.view(0)
    assert view["zones"][DISCARD]["cards"] == ["KD"]
    assert view["zones"][STOCK]["count"] == 52 - 2 - 1 - 1
    assert any(e["event"] == "shuffled" for e in events)
    assert_conserved(game)


def test_c8_draw_2_the_rebuilt_stock_is_hidden_from_every_seat() -> None:
    text = position(stock="", discard="REST KD!", hand_0="5S@0", hand_1="2C@1")
    game = cardcore.new_game(NAME, 2, position=text, seed=3)
    game.act(0, "draw")
    for seat in (0, 1, None):
        assert set(game.view(seat)["zones"][STOCK]["cards"]) == {None}


def test_c8_end_1_first_out_scores_the_others_hands() -> None:
    # seat 1 holds 8S (50), KH QH JH (30), AS (1), 7D (7) = 88
    text = position(
        stock="REST", discard="5C!", hand_0="5H@0", hand_1="8S@1 KH@1 QH@1 JH@1 AS@1 7D@1"
    )
    game = cardcore.new_game(NAME, 2, position=text, seed=1)
    game.act(0, "play 5H")
    result = game.result
    assert game.is_over and result is not None
    assert (result.winners, result.scores, result.reason) == ((0,), (88.0, 0.0), "went out")
    assert "hand.1: 8S! KH! QH! JH! AS! 7D!" in game.position()  # revealed: known to all


# -- the public API from start to end ------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_random_play_to_the_end_through_the_public_api(players: int) -> None:
    game = cardcore.new_game(NAME, players, seed=40 + players)
    agents = [RandomAgent(seed=s) for s in range(players)]
    while not game.is_over:
        (seat,) = game.to_act
        view = game.view(seat)
        legal = game.legal_actions(seat)
        assert [str(a) for a in legal] == view["legal"]
        for other in range(players):
            assert other == seat or game.legal_actions(other) == ()
        action = agents[seat].choose(view, legal)
        if game.version % 2:
            game.act(seat, str(action), seen=view["version"])
        else:
            game.apply(action, seen=view["version"])
        assert_conserved(game)
        assert game.version < 20000
    result = game.result
    assert result is not None and result.reason == "went out"
    (winner,) = result.winners
    cards = game.state.zones.cards  # privileged: the hands left
    assert not cards[hand(winner)]
    assert result.scores[winner] == sum(
        base_points(c) for s in range(players) for c in cards[hand(s)]
    )
    assert sum(result.scores) == result.scores[winner] > 0


def test_views_and_events_hide_the_other_hands() -> None:
    game = cardcore.new_game(NAME, 3, deck=DECK, seed=5)
    seen: dict[Any, list[dict[str, Any]]] = {1: [], cardcore.SPECTATOR: []}
    for who in seen:
        game.events.subscribe(
            cardcore.Event, lambda e, who=who: seen[who].append(e.to_json()), seat=who
        )
    game.act(0, "draw")
    drawn = hand_of(game, 0)[0]
    for who in seen:
        view = game.view(None if who == cardcore.SPECTATOR else who)
        assert set(view["zones"][hand(0)]["cards"]) == {None}
        assert set(view["zones"][STOCK]["cards"]) == {None}
        assert drawn not in str(view) and drawn not in str(seen[who])
        assert next(e for e in seen[who] if e["event"] == "card-drawn")["card"] is None
    assert set(game.view(None)["zones"][hand(1)]["cards"]) == {None}
    assert game.view(0)["zones"][hand(0)]["cards"][0] == drawn


def test_save_load_record_replay_and_clone_round_trip() -> None:
    game = cardcore.new_game(NAME, 3, seed=9, rules=[RULE.name])
    agents = [RandomAgent(seed=s) for s in range(3)]
    for _ in range(25):
        (seat,) = game.to_act
        game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat)))
    twin = game.clone()
    loaded = cardcore.load(game.save())
    replayed = cardcore.replay(game.record())
    for other in (twin, loaded, replayed):
        assert other.position() == game.position() and other.rules == (RULE.name,)
        assert [other.view(s) for s in range(3)] == [game.view(s) for s in range(3)]
    (seat,) = twin.to_act
    before = game.position()
    twin.apply(twin.legal_actions(seat)[-1])
    assert game.position() == before and twin.position() != before
    cardcore.play(game, agents)
    again = cardcore.replay(game.record())
    assert again.result == game.result and again.position() == game.position()
    assert cardcore.load(game.save()).result == game.result


def test_a_position_starts_the_same_table() -> None:
    game = cardcore.new_game(NAME, 4, seed=12)
    game.act(0, "draw")
    again = cardcore.new_game(NAME, 4, position=game.position(), seed=1)
    assert again.position() == game.position() and again.version == 0
    for seat in range(4):
        assert {**again.view(seat), "version": 1} == game.view(seat)


def test_bad_positions_are_refused_with_a_cardcore_error() -> None:
    good = position(stock="REST", discard="5C!", hand_0="5H@0", hand_1="6H@1")
    for bad in (
        good.replace('suit="D"', 'suit="X"'),
        good.replace("drew=false", "drew=3"),
        good.replace("5H@0", "5H@0 5H@0"),
        good.replace("to_act=[0]", "to_act=[0,0]"),
    ):
        with pytest.raises(CardcoreError):
            cardcore.new_game(NAME, 2, position=bad, seed=1)


# -- the engine's handling of plugin mistakes the docs warn about ----------------------


class EmptyToAct(C8Logic):
    def apply(self, state: C8State, action: C8Action, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        state.to_act = ()  # forgot the next seat


class HalfWay(C8Logic):
    def apply(self, state: C8State, action: C8Action, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        raise RuntimeError("oops, after moving the card")


class ListLegal(C8Logic):
    def legal_actions(self, state: C8State, seat: int) -> Any:
        return list(super().legal_actions(state, seat))


class DirtyTable(C8Logic):
    def table(self, state: C8State, seat: int | None) -> dict[str, Any]:
        state.suit = "X"
        state.zones.move(STOCK, hand(1))
        raise KeyError("suit")


class DirtyLegal(C8Logic):
    def legal_actions(self, state: C8State, seat: int) -> tuple[C8Action, ...]:
        state.drew = True
        state.zones.move(STOCK, hand(seat))
        raise AttributeError("drew")


class DirtyParse(C8Logic):
    def parse_action(self, state: C8State, seat: int, text: str) -> C8Action:
        state.zones.move(STOCK, hand(seat))
        raise IndexError("no such word")


class NotAnAction(C8Logic):
    def parse_action(self, state: C8State, seat: int, text: str) -> Any:
        return text


@frozen
class Knock(Action):
    """An action class with the verb of another."""

    verb: ClassVar[str] = "DRAW"


class SharedVerb(C8Logic):
    action_types = (Play, Draw, Pass, Knock)


@pytest.mark.parametrize(
    ("name", "logic", "text", "message"),
    [
        ("c8-empty-to-act", EmptyToAct, "draw", "to_act"),
        ("c8-half-way", HalfWay, "play 8H S", "oops"),
        ("c8-not-an-action", NotAnAction, "draw", "c8-not-an-action"),
        ("c8-dirty-parse", DirtyParse, "draw", "c8-dirty-parse"),
    ],
)
def test_a_failing_game_method_is_a_plugin_error_and_changes_nothing(
    plugins: Any, name: str, logic: type[C8Logic], text: str, message: str
) -> None:
    plugins("cardcore.games", name, variant(name, logic))
    game = cardcore.new_game(name, 2, deck=DECK, seed=1)
    heard: list[str] = []
    game.events.subscribe(cardcore.Event, lambda e: heard.append(e.slug))
    before = snapshot(game)
    with pytest.raises(PluginError, match=message):
        game.act(0, text)
    assert snapshot(game) == before and heard == [] and game.record_entries() == []
    assert game.position() == cardcore.new_game(name, 2, deck=DECK, seed=1).position()


@pytest.mark.parametrize(
    ("name", "logic", "reads"),
    [
        ("c8-dirty-table", DirtyTable, ("view", "spectate")),
        ("c8-dirty-legal", DirtyLegal, ("view", "legal")),
    ],
)
def test_a_failing_read_is_a_plugin_error_and_its_changes_are_put_back(
    plugins: Any, name: str, logic: type[C8Logic], reads: tuple[str, ...]
) -> None:
    plugins("cardcore.games", name, variant(name, logic))
    text = position(stock="REST", discard="KD!", hand_0="8H@0 5S@0", hand_1="2C@1")
    game = cardcore.new_game(name, 2, position=text.replace(NAME, name, 1), seed=1)
    before = game.position()
    calls = {
        "view": lambda: game.view(0),
        "legal": lambda: game.legal_actions(0),
        "spectate": lambda: game.view(None),
    }
    for read in reads:
        with pytest.raises(PluginError, match=name):
            calls[read]()
        assert game.position() == before


class NotActions(C8Logic):
    def legal_actions(self, state: C8State, seat: int) -> Any:
        return ("draw",) if seat in state.to_act else ()  # text, not Action objects


class OtherSeats(C8Logic):
    def legal_actions(self, state: C8State, seat: int) -> Any:
        return (Draw(1 - seat),) if seat in state.to_act else ()  # another seat's action


@pytest.mark.parametrize(
    ("name", "logic"), [("c8-not-actions", NotActions), ("c8-other-seats", OtherSeats)]
)
def test_legal_actions_answering_no_actions_of_the_seat_is_a_plugin_error(
    plugins: Any, name: str, logic: type[C8Logic]
) -> None:
    plugins("cardcore.games", name, variant(name, logic))
    game = cardcore.new_game(name, 2, seed=1)
    with pytest.raises(PluginError, match=r"not an Action|an action of seat"):  # as play() says
        cardcore.play(game.clone(), [RandomAgent(seed=1), RandomAgent(seed=2)], max_actions=3)
    with pytest.raises(PluginError, match=name):
        game.legal_actions(0)
    with pytest.raises(PluginError, match=name):
        game.view(0)


def test_legal_actions_as_a_list_is_refused_by_the_kit(plugins: Any) -> None:
    plugins("cardcore.games", "c8-list", variant("c8-list", ListLegal))
    game = cardcore.new_game("c8-list", 2, deck=DECK, seed=1)
    assert game.legal_actions(0) == tuple(game.logic.legal_actions(game.state, 0))  # the core copes
    report = check_game("c8-list", players=2, games=1, strict=False)
    assert not report.ok and any("tuple" in failure for failure in report.failures)


def test_two_action_classes_sharing_a_verb_are_refused_before_the_deal(plugins: Any) -> None:
    plugins("cardcore.games", "c8-shared-verb", variant("c8-shared-verb", SharedVerb))
    with pytest.raises(PluginError, match=r"(?i)draw"):
        cardcore.new_game("c8-shared-verb", 2, seed=1)


def test_a_game_published_under_another_name_is_refused() -> None:
    with pytest.raises(PluginError, match="crazyeights"):
        cardcore.register("cardcore.games", "crazy-8s", GAME_MODULE)
    assert "crazy-8s" not in cardcore.available_games()


def test_a_house_rule_with_a_typo_in_a_hook_name_is_refused(plugins: Any) -> None:
    @hookimpl
    def crazy8_keep_drawnig(state: GameState, seat: int) -> bool:
        return True

    plugins(
        "cardcore.rules",
        f"{NAME}.typo",
        rule_module(f"{NAME}.typo", "C8-TYPO-1", crazy8_keep_drawnig=crazy8_keep_drawnig),
    )
    with pytest.raises(PluginError, match="crazy8_keep_drawing"):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.typo"], seed=1)


def test_a_house_rule_without_hookimpl_is_refused(plugins: Any) -> None:
    def crazy8_keep_drawing(state: GameState, seat: int) -> bool:
        return True

    plugins(
        "cardcore.rules",
        f"{NAME}.unmarked",
        rule_module(f"{NAME}.unmarked", "C8-MARK-1", crazy8_keep_drawing=crazy8_keep_drawing),
    )
    with pytest.raises(PluginError, match="hookimpl"):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.unmarked"], seed=1)


def test_a_house_rule_answering_yes_for_a_bool_is_refused_by_name(plugins: Any) -> None:
    @hookimpl
    def crazy8_keep_drawing(state: GameState, seat: int) -> Any:
        return "yes"

    plugins(
        "cardcore.rules",
        f"{NAME}.yes",
        rule_module(f"{NAME}.yes", "C8-YES-1", crazy8_keep_drawing=crazy8_keep_drawing),
    )
    game = cardcore.new_game(NAME, 2, rules=[f"{NAME}.yes"], deck=DECK, seed=1)
    game.act(0, "draw")
    before = game.position()
    with pytest.raises(PluginError, match=f"{NAME}.yes"):
        game.legal_actions(0)
    with pytest.raises(PluginError, match=f"{NAME}.yes"):
        game.act(0, "pass")
    assert game.position() == before and game.version == 1


def test_a_house_rule_scoring_2_5_for_a_card_is_refused_by_name(plugins: Any) -> None:
    @hookimpl
    def card_points(card: Card) -> Any:
        return 2.5 if card.label == "A" else None

    plugins(
        "cardcore.rules",
        f"{NAME}.half",
        rule_module(f"{NAME}.half", "C8-HALF-1", card_points=card_points),
    )
    with pytest.raises(PluginError, match=f"{NAME}.half"):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.half"], seed=1)


def test_a_score_round_answer_of_the_wrong_length_is_refused_and_changes_nothing(
    plugins: Any,
) -> None:
    @hookimpl
    def score_round(scores: Sequence[int]) -> list[int]:
        return [*scores, 0]

    plugins(
        "cardcore.rules",
        f"{NAME}.extra",
        rule_module(f"{NAME}.extra", "C8-EXTRA-1", score_round=score_round),
    )
    text = position(stock="REST", discard="5C!", hand_0="5H@0", hand_1="8S@1 KH@1")
    game = cardcore.new_game(NAME, 2, rules=[f"{NAME}.extra"], position=text, seed=1)
    with pytest.raises(PluginError, match=f"{NAME}.extra"):
        game.act(0, "play 5H")
    assert game.position() == text.replace(
        "REST", game.position().split("stock: ")[1].split(" |")[0]
    )
    assert not game.is_over and game.version == 0


def test_a_score_round_rule_changes_the_result() -> None:
    @hookimpl(wrapper=True)
    def score_round(scores: Sequence[int]) -> Any:
        inner = yield
        return [2 * s for s in inner]

    name = f"{NAME}.double"
    cardcore.register(
        "cardcore.rules", name, rule_module(name, "C8-DOUBLE-1", score_round=score_round)
    )
    try:
        text = position(stock="REST", discard="5C!", hand_0="5H@0", hand_1="8S@1 KH@1")
        game = cardcore.new_game(NAME, 2, rules=[name], position=text, seed=1)
        game.act(0, "play 5H")
        assert game.result is not None and game.result.scores == (120.0, 0.0)
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_an_empty_deck_from_a_house_rule_is_refused_before_the_deal(plugins: Any) -> None:
    @hookimpl(wrapper=True)
    def build_deck(players: int, options: Mapping[str, Any]) -> Any:
        yield
        return ()

    plugins(
        "cardcore.rules",
        f"{NAME}.no-deck",
        rule_module(f"{NAME}.no-deck", "C8-NODECK-1", build_deck=build_deck),
    )
    with pytest.raises(PluginError, match=f"{NAME}.no-deck"):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.no-deck"], seed=1)


def test_a_short_deck_from_a_house_rule_is_a_cardcore_error_before_the_deal(plugins: Any) -> None:
    @hookimpl(wrapper=True)
    def build_deck(players: int, options: Mapping[str, Any]) -> Any:
        deck = yield
        return deck[:8]

    plugins(
        "cardcore.rules",
        f"{NAME}.short",
        rule_module(f"{NAME}.short", "C8-SHORT-1", build_deck=build_deck),
    )
    with pytest.raises(CardcoreError):
        cardcore.new_game(NAME, 2, rules=[f"{NAME}.short"], seed=1)


def test_a_veto_that_changes_the_state_and_fails_is_put_back(plugins: Any) -> None:
    @hookimpl
    def forbid_action(state: GameState, action: Action) -> Any:
        state.zones.move(STOCK, DISCARD)
        raise ValueError("veto broke")

    plugins(
        "cardcore.rules",
        f"{NAME}.bad-veto",
        rule_module(f"{NAME}.bad-veto", "C8-VETO-1", forbid_action=forbid_action),
    )
    game = cardcore.new_game(NAME, 2, rules=[f"{NAME}.bad-veto"], deck=DECK, seed=1)
    before = game.position()
    with pytest.raises(PluginError, match=f"{NAME}.bad-veto"):
        game.legal_actions(0)
    with pytest.raises(PluginError, match=f"{NAME}.bad-veto"):
        game.act(0, "draw")
    assert game.position() == before and game.version == 0


def test_a_veto_only_rule_works_in_the_new_game(plugins: Any) -> None:
    @hookimpl
    def forbid_action(action: Action) -> Any:
        if action.verb == "play" and getattr(action, "suit", "") == "S":
            return cardcore.Veto("C8-NOSPADES-1", "no naming spades")
        return None

    plugins(
        "cardcore.rules",
        f"{NAME}.no-spades",
        rule_module(f"{NAME}.no-spades", "C8-NOSPADES-1", forbid_action=forbid_action),
    )
    game = cardcore.new_game(NAME, 2, rules=[f"{NAME}.no-spades"], deck=DECK, seed=1)
    assert game.view(0)["legal"] == ["play 8H H", "play 8H D", "play 8H C", "draw"]
    with pytest.raises(IllegalActionError, match="C8-NOSPADES-1"):
        game.act(0, "play 8H S")


def test_a_hook_calling_back_into_the_game_is_refused(plugins: Any) -> None:
    games: list[cardcore.Game] = []

    @hookimpl
    def crazy8_keep_drawing(state: GameState, seat: int) -> bool:
        games[0].view(seat)  # calls back into the Game it answers for
        return True

    plugins(
        "cardcore.rules",
        f"{NAME}.reentrant",
        rule_module(f"{NAME}.reentrant", "C8-REENTER-1", crazy8_keep_drawing=crazy8_keep_drawing),
    )
    game = cardcore.new_game(NAME, 2, rules=[f"{NAME}.reentrant"], deck=DECK, seed=1)
    games.append(game)
    game.act(0, "draw")
    before = game.position()
    with pytest.raises(PluginError):
        game.legal_actions(0)
    assert game.position() == before and game.version == 1


def test_a_failing_on_event_observer_never_costs_a_subscriber_an_event(plugins: Any) -> None:
    calls: list[str] = []

    @hookimpl
    def on_event(event: cardcore.Event) -> None:
        calls.append(event.slug)
        raise RuntimeError("observer broke")

    plugins(
        "cardcore.rules",
        f"{NAME}.broken-log",
        rule_module(f"{NAME}.broken-log", "C8-LOG-1", on_event=on_event),
    )
    game = cardcore.new_game(NAME, 2, rules=[f"{NAME}.broken-log"], deck=DECK, seed=1)
    heard: list[str] = []
    game.events.subscribe(cardcore.Event, lambda e: heard.append(e.slug), seat=1)
    game.act(0, "draw")
    game.act(0, "pass")
    assert game.version == 2 and heard == ["action-applied", "card-drawn", "action-applied"]
    assert calls[-3:] == heard


def test_a_failing_subscriber_never_costs_another_seat_an_event() -> None:
    game = cardcore.new_game(NAME, 3, deck=DECK, seed=1)
    heard: list[str] = []

    def broken(event: cardcore.Event) -> None:
        raise RuntimeError("subscriber broke")

    game.events.subscribe(cardcore.Event, broken, seat=0)
    game.events.subscribe(cardcore.Event, lambda e: heard.append(e.slug), seat=2)
    game.act(0, "draw")
    assert game.version == 1 and heard == ["action-applied", "card-drawn"]


def test_determinized_twins_and_rl_observations_hide_the_other_hands() -> None:
    np = pytest.importorskip("numpy")
    from cardcore.rl import observe

    game = cardcore.new_game(NAME, 3, seed=21)
    agents = [RandomAgent(seed=s) for s in range(3)]
    for _ in range(30):
        (seat,) = game.to_act
        game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat)))
        for who in range(3):
            twin = game.determinize(who, seed=game.version)
            assert twin.view(who) == game.view(who)
            mine, theirs = observe(game, who), observe(twin, who)
            assert np.array_equal(mine["observation"], theirs["observation"])
            assert np.array_equal(mine["action_mask"], theirs["action_mask"])


def test_the_gym_environment_plays_the_registered_game() -> None:
    pytest.importorskip("gymnasium")
    from cardcore.rl import gym_env

    env = gym_env(NAME, 2, opponents="random", rules=[RULE.name])
    obs, _ = env.reset(seed=3)
    done, steps = False, 0
    while not done:
        action = int(obs["action_mask"].nonzero()[0][0])
        obs, reward, terminated, truncated, _ = env.step(action)
        done, steps = terminated or truncated, steps + 1
    assert steps > 0 and reward in (-1, 0, 1, -1.0, 0.0, 1.0)


def test_a_search_agent_plays_the_game_from_views_alone() -> None:
    agent = cardcore.load_agent("ismcts", iterations=20, seed=1)
    game = cardcore.new_game(NAME, 2, seed=4)
    for _ in range(12):
        if game.is_over:
            break
        (seat,) = game.to_act
        choice = (agent if seat == 0 else RandomAgent(seed=2)).choose(
            game.view(seat), game.legal_actions(seat)
        )
        assert choice in game.legal_actions(seat)
        game.apply(choice)
    assert game.version > 0


class ShortBound(C8Logic):
    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 30  # random games go on longer: every game is truncated


def test_the_kit_judges_persistence_of_a_truncated_game_by_its_record(plugins: Any) -> None:
    plugins("cardcore.games", "c8-short", variant("c8-short", ShortBound))
    game = cardcore.new_game("c8-short", 3, seed=2)
    result = cardcore.play(game, [RandomAgent(seed=s) for s in range(3)])
    assert result.reason == "truncated" and game.version == 30
    for other in (cardcore.replay(game.record()), cardcore.load(game.save())):
        assert other.result == result and other.position() == game.position()
    report = check_game("c8-short", players=3, games=2, checks={"persistence"}, strict=False)
    assert report.failures == []


def test_a_game_played_by_hand_past_its_bound_can_still_be_saved_and_loaded(plugins: Any) -> None:
    plugins("cardcore.games", "c8-short", variant("c8-short", ShortBound))
    game = cardcore.new_game("c8-short", 3, seed=2)
    agents = [RandomAgent(seed=s) for s in range(3)]
    for _ in range(40):
        if game.is_over:
            break
        (seat,) = game.to_act
        try:  # a fix may stop the game at its bound instead
            game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat)))
        except CardcoreError:
            break
    for other in (cardcore.load(game.save()), cardcore.replay(game.record())):
        assert other.version == game.version and other.position() == game.position()
