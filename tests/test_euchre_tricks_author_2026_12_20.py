"""A new author's 4-player partnership Euchre (written outside the repo, from the docs only):
the claims it relied on, pinned with a minimal inline plugin and :mod:`cardcore.tricks`.

The mini game below is the smallest shape of Euchre that touches every engine part the full
game used: a 12-card deck (9-A of hearts and diamonds, hearts trump, the jack of diamonds the
left bower), two cards each, an upcard the dealer (seat 3) picks up (a two-word verb,
``pick up``, read by the game's own ``parse_action``) into a place of its hand only it knows,
a discard named by position into a face-down kitty, seat 2 sitting out while its partner plays
alone (``waiting_rule``), two tricks won with ``trick_winner(..., suit_of=, order=)`` and
followed with ``following(..., suit_of=)``, team scores through ``score_round`` and an end that
keeps the kitty hidden (``end_game(..., reveal=False)``).
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    Action,
    ArgumentError,
    Card,
    CardMoved,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    IllegalActionError,
    Layout,
    Rank,
    Ruleset,
    Suit,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    parse_cards,
    tricks,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.testing import check_game
from cardcore.turns import end_game

# --- the bowers (hearts trump) -------------------------------------------------------------


def suit_of(card: Card) -> Suit | None:
    """The left bower (JD) is a heart; every other card keeps its printed suit."""
    return Suit.HEARTS if card == Card.parse("JD") else card.suit


def strength(card: Card) -> int:
    """Right bower above left bower above the ace; otherwise aces high."""
    if card == Card.parse("JH"):
        return 30
    if card == Card.parse("JD"):
        return 29
    return tricks.ACE_HIGH[card.rank]


def winner(text: str) -> int:
    return tricks.trick_winner(
        parse_cards(text), trump=Suit.HEARTS, order=strength, suit_of=suit_of
    )


def legal(hand: str, led: Suit | None) -> list[str]:
    return [str(c) for c in tricks.following(parse_cards(hand), led, suit_of=suit_of)]


# --- tricks: the claims held --------------------------------------------------------------


def test_trick_winner_right_bower_beats_left_bower_beats_ace_of_trump():
    assert winner("AH JD JH KH") == 2  # the right bower
    assert winner("AH JD QH KH") == 1  # the left bower over the ace
    assert winner("KH AH QH 9H") == 1  # no bower: aces high


def test_trick_winner_left_bower_lead_is_a_trump_lead():
    assert winner("JD AD 9H") == 0  # the ace of diamonds neither follows nor trumps
    assert winner("QD 9H JH") == 2  # trumped, the right bower highest
    assert winner("AD JD") == 1  # a diamond lead: the left bower trumps it


def test_following_left_bower_counts_as_trump_not_as_its_printed_suit():
    assert legal("JD AS 9C", Suit.HEARTS) == ["JD"]  # must follow trump with the left bower
    assert legal("JD AS 9D", Suit.DIAMONDS) == ["9D"]  # the left bower is no diamond
    assert legal("JD AS 9C", Suit.DIAMONDS) == ["JD", "AS", "9C"]  # void in diamonds: any card
    assert legal("JD AS 9C", None) == ["JD", "AS", "9C"]  # the lead: any card


def test_suit_of_answering_a_letter_is_an_argument_error_naming_the_card():
    with pytest.raises(ArgumentError, match="10H"):
        tricks.trick_winner(parse_cards("10H AH"), suit_of=lambda c: "H")
    with pytest.raises(ArgumentError, match="10H"):
        tricks.following(parse_cards("10H AH"), Suit.HEARTS, suit_of=lambda c: "H")


def test_order_answering_a_bool_or_a_float_is_refused():
    with pytest.raises(ArgumentError, match="whole-number strength"):
        tricks.trick_winner(parse_cards("10H AH"), order=lambda c: c.rank is Rank.ACE)
    with pytest.raises(ArgumentError, match="whole-number strength"):
        tricks.trick_winner(parse_cards("10H AH"), order=lambda c: 1.5)


# --- the mini game --------------------------------------------------------------------------

NAME = "mini-euchre-2026-12-20"
DECK = tuple(parse_cards("9H 10H JH QH KH AH 9D 10D JD QD KD AD"))
STOCK, UPCARD, KITTY, TRICK, TAKEN = range(5)
DEALER, OUT = 3, 2  # seat 0 plays alone: its partner, seat 2, sits out


def hand(seat: int) -> int:
    return 5 + seat


@cache
def layout() -> Layout:
    return Layout.of(
        [
            ZoneSpec("stock"),
            ZoneSpec("upcard", None, Visibility.EVERYONE),
            ZoneSpec("kitty"),
            ZoneSpec("trick", None, Visibility.EVERYONE),
            ZoneSpec("taken", None, Visibility.EVERYONE),
            *(ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(4)),
        ]
    )


@frozen
class PickUp(Action):
    verb: ClassVar[str] = "pick"

    def notation(self) -> str:
        return "pick up"


@frozen
class Discard(Action):
    pos: int
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {self.pos}"


@frozen
class Play(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


MiniAction = PickUp | Discard | Play


class MiniState(GameState):
    __slots__ = ("leader", "phase", "won")
    _mutable = ("zones", "won")
    phase: str
    leader: int
    won: list[int]


def trick_seats(leader: int) -> list[int]:
    return [s % 4 for s in range(leader, leader + 4) if s % 4 != OUT]


class MiniLogic(GameLogic[MiniState, MiniAction]):
    action_types = (Discard, Play)  # "pick up" is two words: read by parse_action below
    position_fields = ("to_act", "phase", "leader", "won")
    reveal = False

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 50

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        self.check_players(NAME, players, 4, 4)

    def blank_state(self, players: int, options: Mapping[str, Any]) -> MiniState:
        state = MiniState(players, options, Zones(layout()))
        state.phase, state.leader, state.won = "take", 0, [0, 0, 0, 0]
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> MiniState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        deal_round_robin(state, STOCK, [hand(s) for s in range(4)], 2)
        state.zones.move(STOCK, UPCARD)
        while state.zones.cards[STOCK]:
            state.zones.move(STOCK, KITTY)
        state.to_act = (DEALER,)
        return state

    def legal_actions(self, state: MiniState, seat: int) -> tuple[MiniAction, ...]:
        if seat not in state.to_act:
            return ()
        if state.phase == "take":
            return (PickUp(seat),)
        if state.phase == "discard":
            return tuple(Discard(seat, p) for p in range(3))
        trick = state.zones.cards[TRICK]
        led = suit_of(trick[0]) if trick else None
        cards = tricks.following(state.zones.cards[hand(seat)][::-1], led, suit_of=suit_of)
        return tuple(Play(seat, c) for c in sorted(cards, key=str))

    def rule_for(self, state: MiniState, action: MiniAction) -> tuple[str, str]:
        return "MINI-PLAY-1", f"not a legal {state.phase} action"

    def waiting_rule(self, state: MiniState, action: MiniAction) -> tuple[str, str] | None:
        if action.seat == OUT:
            return "MINI-ALONE-1", "seat 2 sits out while its partner plays alone"
        return None

    def parse_action(self, state: MiniState, seat: int, text: str) -> MiniAction:
        if text.lower().split() == ["pick", "up"]:
            return PickUp(seat)
        return super().parse_action(state, seat, text)

    def apply(self, state: MiniState, action: MiniAction, emit: Emit | None) -> None:
        z, seat = state.zones, action.seat
        if isinstance(action, PickUp):  # the upcard goes to a place only the dealer knows
            card, mask = z.pop(UPCARD)
            z.insert(hand(seat), state.rng().randrange(3), card, mask)
            state.phase = "discard"
        elif isinstance(action, Discard):  # face down: the others forget even a known upcard
            h = hand(seat)
            card = z.move(h, KITTY, len(z.cards[h]) - 1 - action.pos, mask=1 << seat)
            if emit is not None:
                emit(CardMoved(seat, f"hand.{seat}", "kitty", card, visible_to=1 << seat))
            state.phase, state.leader, state.to_act = "play", 0, (0,)
        else:
            z.move(hand(seat), TRICK, z.cards[hand(seat)].index(action.card))
            order = trick_seats(state.leader)
            if len(z.cards[TRICK]) < 3:
                state.to_act = (order[len(z.cards[TRICK])],)
                return
            won = order[
                tricks.trick_winner(
                    z.cards[TRICK], trump=Suit.HEARTS, order=strength, suit_of=suit_of
                )
            ]
            state.won[won] += 1
            while z.cards[TRICK]:
                z.move(TRICK, TAKEN)
            if sum(state.won) < 2:
                state.leader, state.to_act = won, (won,)
                return
            teams = [state.won[0] + state.won[2], state.won[1] + state.won[3]]
            got = self.score_round(state, [teams[s % 2] for s in range(4)])
            best = max(got)
            end_game(
                state,
                [s for s in range(4) if got[s] == best],
                got,
                "two tricks played",
                reveal=self.reveal,
            )

    def table(self, state: MiniState, seat: int | None) -> dict[str, Any]:
        return {"phase": state.phase, "leader": state.leader, "won": list(state.won)}


GAME = GameInfo(
    NAME,
    "Two tricks of Euchre with a kitty, the bowers and a loner",
    4,
    4,
    version="1.0.0",
    fields=(
        ViewField("phase", "choice", "The part of the hand.", choices=("take", "discard", "play")),
        ViewField("leader", "seat", "The seat that leads the trick."),
        ViewField("won", "per-seat", "Tricks won.", of="int"),
    ),
)


def plugin(logic: type[MiniLogic] = MiniLogic, name: str = NAME) -> types.ModuleType:
    module = types.ModuleType(name.replace("-", "_"))

    @hookimpl
    def create_logic(ruleset: Ruleset) -> MiniLogic:
        return logic(ruleset)

    @hookimpl(trylast=True)
    def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        return DECK

    info = (
        GAME
        if name == NAME
        else GameInfo(name, GAME.summary, 4, 4, version="1.0.0", fields=GAME.fields)
    )
    vars(module).update(GAME=info, create_logic=create_logic, build_deck=build_deck)
    return module


@pytest.fixture
def mini():
    cardcore.register("cardcore.games", NAME, plugin())
    yield NAME
    cardcore.unregister("cardcore.games", NAME)


# Dealt one at a time from seat 0: seat 0 9H QD, seat 1 AD KH, seat 2 JH 10D, seat 3 JD 9D;
# upcard AH; kitty QH KD 10H.
STACK = "9H AD JH JD QD KH 10D 9D AH QH KD 10H"


def zone(view: Mapping[str, Any], name: str) -> list[str | None]:
    return next(z["cards"] for z in view["zones"] if z["name"] == name)


def picked_up(seed: int = 1) -> cardcore.Game:
    game = cardcore.new_game(NAME, 4, deck=STACK, seed=seed)
    game.act(DEALER, "PICK   up")  # the game's own two-word verb, any case and spacing
    return game


def discard(game: cardcore.Game, card: str) -> None:
    game.act(DEALER, f"discard {zone(game.view(DEALER), 'hand.3').index(card)}")


def test_kit_passes_on_the_mini_euchre(mini):
    report = check_game(mini, players=4, games=4, seed=0)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0
    assert report.notations > 0 and report.positions > 0 and "positions" not in report.skipped


def test_two_word_verb_read_by_parse_action_with_super_for_the_rest(mini):
    game = picked_up()
    assert [str(a) for a in game.legal_actions(DEALER)] == ["discard 0", "discard 1", "discard 2"]
    assert game.view(0)["legal"] == [] and game.view(DEALER)["table"]["phase"] == "discard"


def test_upcard_taken_into_the_hand_is_hidden_in_the_others_views(mini):
    game = picked_up()
    assert sorted(zone(game.view(DEALER), "hand.3")) == ["9D", "AH", "JD"]
    for seat in (0, 1, 2, None):
        assert zone(game.view(seat), "hand.3") == [None, None, None]
        assert zone(game.view(seat), "upcard") == []


def test_discarded_upcard_is_seen_in_the_kitty_by_the_dealer_only(mini):
    game = picked_up()
    discard(game, "AH")
    assert zone(game.view(DEALER), "kitty")[0] == "AH"
    for seat in (0, 1, 2, None):
        assert zone(game.view(seat), "kitty") == [None, None, None, None]


def play_out(game: cardcore.Game) -> None:
    # Trick 1: seat 0 leads QD, seat 1 must follow with AD, seat 3 trumps with the left bower.
    for seat, card in [(0, "QD"), (1, "AD"), (3, "JD"), (3, "AH"), (0, "9H"), (1, "KH")]:
        game.act(seat, f"play {card}")


def test_left_bower_wins_a_diamond_lead_and_the_end_keeps_the_kitty_hidden(mini):
    game = picked_up()
    discard(game, "9D")
    play_out(game)
    assert game.is_over and game.view(0)["table"]["won"] == [0, 0, 0, 2]
    assert game.result.winners == (1, 3) and game.result.scores == (0, 2, 0, 2)
    for seat in (0, 1, 2, None):  # end_game(reveal=False): the buried discard stays buried
        assert zone(game.view(seat), "kitty") == [None, None, None, None]
    for seat in (0, 1, 3, None):  # and the idle partner's cards stay in its hand, hidden
        assert zone(game.view(seat), "hand.2") == [None, None]
    assert sorted(zone(game.view(OUT), "hand.2")) == ["10D", "JH"]
    assert zone(game.view(DEALER), "kitty")[0] == "9D"


def test_end_game_reveals_the_kitty_and_the_idle_hand_by_default(mini):
    class Revealing(MiniLogic):
        reveal = True

    cardcore.register("cardcore.games", NAME, plugin(Revealing))
    try:
        game = picked_up()
        discard(game, "9D")
        play_out(game)
        assert sorted(zone(game.view(1), "kitty")) == ["10H", "9D", "KD", "QH"]
        assert sorted(zone(game.view(1), "hand.2")) == ["10D", "JH"]
    finally:
        cardcore.unregister("cardcore.games", NAME)


def test_a_hand_holding_only_the_public_upcard_shows_face_up(mini):
    game = picked_up()
    discard(game, "9D")
    game.act(0, "play QD")
    game.act(1, "play AD")
    assert zone(game.view(0), "hand.3") == [None, None]
    game.act(DEALER, "play JD")  # left: the upcard, which every seat saw picked up
    assert zone(game.view(0), "hand.3") == ["AH"] and zone(game.view(None), "hand.3") == ["AH"]


def test_sitting_out_seat_is_refused_with_the_games_waiting_rule(mini):
    game = picked_up()
    discard(game, "9D")
    version = game.version
    with pytest.raises(IllegalActionError, match=r"sits out.*\(MINI-ALONE-1\)$"):
        game.act(OUT, "play JH")
    assert game.version == version


def test_record_and_save_round_trip(mini):
    game = picked_up()
    discard(game, "AH")
    game.act(0, "play QD")
    again = cardcore.replay(game.record())
    loaded = cardcore.load(game.save())
    for seat in (0, 3, None):
        assert again.view(seat) == game.view(seat) == loaded.view(seat)
    assert loaded.position() == game.position()


def test_simulate_counts_a_team_win_half_to_each_partner(mini):
    summary = cardcore.simulate(NAME, games=6, seed=3)
    assert summary.wins[0] == summary.wins[2] and summary.wins[1] == summary.wins[3]
    assert sum(summary.wins) == pytest.approx(6)


def test_kit_flags_a_hidden_discard_named_by_its_card():
    @frozen
    class DiscardCard(Action):
        card: Card
        verb: ClassVar[str] = "discard"

        def notation(self) -> str:
            return f"discard {self.card}"

    class Leaky(MiniLogic):
        action_types = (DiscardCard, Play)  # type: ignore[assignment]

        def legal_actions(self, state: MiniState, seat: int) -> tuple[Any, ...]:
            if state.phase == "discard" and seat in state.to_act:
                return tuple(
                    DiscardCard(seat, c) for c in sorted(state.zones.cards[hand(seat)], key=str)
                )
            return super().legal_actions(state, seat)

        def apply(self, state: MiniState, action: Any, emit: Emit | None) -> None:
            if isinstance(action, DiscardCard):
                cards = state.zones.cards[hand(action.seat)]
                action = Discard(action.seat, len(cards) - 1 - cards.index(action.card))
            super().apply(state, action, emit)

    name = "mini-euchre-leaky-2026-12-20"
    cardcore.register("cardcore.games", name, plugin(Leaky, name))
    try:
        report = check_game(name, players=4, games=3, seed=0, strict=False, checks=["events"])
    finally:
        cardcore.unregister("cardcore.games", name)
    assert not report.ok and report.leaks > 0
    assert any("name a position, not a hidden card" in f for f in report.failures)
