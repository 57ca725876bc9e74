"""A third-party trick-taking game written from the docs alone: Oh Hell, with one house rule.

The plugin (``ohhell`` and its house rule ``ohhell.hook``) is built in this file from the
plugin guide, the API reference and the testing-kit pages, registered with
:func:`cardcore.register` (as the docs advise for tests), then tested as the docs promise.

Rules of the game (IDs cited by the code and the errors):

* OHHELL-SEAT-1: 3 to 7 players, one standard 52-card deck.
* OHHELL-DEAL-1: ``hands`` hands (option, 1 to 12); hand *k* (from 0) deals ``hands - k``
  cards each, one at a time from the dealer's left; the dealer of hand *k* is seat
  ``k % players``. The deal must leave a card to turn: ``hands * players < 52``.
* OHHELL-TRUMP-1: the top card of the stock is turned face up; its suit is trump.
* OHHELL-BID-1: from the dealer's left, each seat bids once how many tricks it will take,
  0 to the cards dealt (``bid N``); the dealer bids last.
* OHHELL-PLAY-1: the dealer's left leads the first trick; a seat plays a card it holds
  (``play QS``).
* OHHELL-FOLLOW-1: a seat that holds the suit led must follow it.
* OHHELL-TRICK-1: the highest trump wins the trick, else the highest card of the suit led
  (aces high); the winner leads the next trick.
* OHHELL-SCORE-1: at the end of a hand an exact bid scores 10 + the bid, anything else 0.
* OHHELL-END-1: after the last hand the highest total wins; ties share.
* OHHELL-HOOK-1 (house rule ``ohhell.hook``): the dealer may not bid so that the bids total
  the number of tricks of the hand.
"""

from __future__ import annotations

import copy
import json
import types
from collections.abc import Iterator, Mapping
from functools import cache
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
    CardRevealed,
    CardsDealt,
    CorruptStateError,
    Emit,
    Event,
    GameInfo,
    GameLogic,
    GameState,
    IllegalActionError,
    Layout,
    NotationError,
    Option,
    OptionError,
    PluginError,
    RoundScored,
    RuleInfo,
    Ruleset,
    SeatError,
    Shuffled,
    Veto,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.positions import check
from cardcore.testing import check_game, configurations
from cardcore.turns import end_game, next_seat, winners_by

# ----------------------------------------------------------------------------------------
# The game (what a third party would ship as cardcore_ohhell). Counted in the report.
# ----------------------------------------------------------------------------------------

SUITS = "SHDC"


@frozen
class Bid(Action):
    """Seat *seat* bids *amount* tricks (OHHELL-BID-1)."""

    amount: int
    verb: ClassVar[str] = "bid"

    def notation(self) -> str:
        return f"bid {self.amount}"


@frozen
class Play(Action):
    """Seat *seat* plays *card* to the trick, face up (OHHELL-PLAY-1)."""

    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


bid, play = cache(Bid), cache(Play)


class TrickWon(Event):
    """Seat *seat* won trick *number* (from 1) of the hand with *cards* (public)."""

    slug: ClassVar[str] = "ohhell-trick-won"
    seat: int
    number: int
    cards: tuple[Card, ...]


STOCK, TRUMP, TRICK, DONE = 0, 1, 2, 3


def hand(seat: int) -> int:
    return 4 + seat


@cache
def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("trump", None, Visibility.EVERYONE),
                      ZoneSpec("trick", None, Visibility.EVERYONE), ZoneSpec("done"), *hands])


class OhHellState(GameState):
    __slots__ = ("bids", "dealer", "hand_no", "lead", "past", "phase", "size", "totals", "tricks")
    _mutable = ("zones", "bids", "tricks", "totals", "past")
    hand_no: int
    dealer: int
    size: int
    phase: str
    bids: list[int]
    tricks: list[int]
    totals: list[int]
    lead: int
    past: list[dict[str, Any]]


def strength(card: Card, led: str, trump: str | None) -> int:
    """OHHELL-TRICK-1: trumps beat the suit led, which beats the rest; aces high."""
    rank = 14 if card.rank == 1 else int(card.rank)
    suit = card.suit.letter if card.suit else ""
    return rank + (200 if suit == trump else 100 if suit == led else 0)


class OhHellLogic(GameLogic[OhHellState, Bid | Play]):
    action_types = (Bid, Play)
    position_fields = ("to_act", "hand_no", "dealer", "size", "phase", "bids", "tricks", "totals", "lead")

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        hands = options["hands"]
        return 2 * players * (hands * (hands + 1) // 2 + hands) + 10

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        super().validate(players, options)
        if options["hands"] * players >= 52:  # OHHELL-DEAL-1
            raise OptionError(f"{options['hands']} hands of {players} players leave no trump to "
                              "turn: hands * players must be below 52 (OHHELL-DEAL-1)")

    def blank_state(self, players: int, options: Mapping[str, Any]) -> OhHellState:
        state = OhHellState(players, options, Zones(layout(players)))
        state.hand_no, state.dealer, state.size, state.phase = 0, 0, options["hands"], "bid"
        state.bids, state.tricks, state.totals = [-1] * players, [0] * players, [0] * players
        state.lead, state.past = 1 % players, []
        return state

    def new_state(self, players: int, options: Mapping[str, Any], cards: list[Card], seed: int,
                  emit: Emit | None) -> OhHellState:
        state = self.blank_state(players, options)
        state.seed = seed
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def _deal(self, state: OhHellState, emit: Emit | None) -> None:
        p = state.players  # OHHELL-DEAL-1
        state.size, state.dealer = state.options["hands"] - state.hand_no, state.hand_no % p
        state.lead = next_seat(state.dealer, p)
        deal_round_robin(state, STOCK, [hand(s) for s in range(p)], state.size, first=state.lead)
        trump = state.zones.move(STOCK, TRUMP)  # OHHELL-TRUMP-1
        state.phase, state.bids, state.tricks = "bid", [-1] * p, [0] * p
        state.to_act = (state.lead,)
        if emit is not None:
            emit(CardsDealt(tuple([state.size] * p)))
            emit(CardRevealed(state.dealer, "trump", 0, trump))

    def legal_actions(self, state: OhHellState, seat: int) -> tuple[Bid | Play, ...]:
        """Bids low to high; or the playable cards by suit (S H D C), then rank ace first."""
        if state.to_act != (seat,):
            return ()
        if state.phase == "bid":
            return tuple(bid(seat, n) for n in range(state.size + 1))
        held = state.zones.cards[hand(seat)]
        trick = state.zones.cards[TRICK]
        follow = [c for c in held if trick and c.suit == trick[0].suit]
        cards = sorted(follow or held, key=lambda c: (SUITS.index(c.suit.letter), int(c.rank)))
        return tuple(play(seat, c) for c in cards)

    def rule_for(self, state: OhHellState, action: Bid | Play) -> tuple[str, str]:
        if isinstance(action, Bid):
            if state.phase != "bid":
                return "OHHELL-PLAY-1", "the bidding is over: play a card"
            return "OHHELL-BID-1", f"a bid is 0 to {state.size}, not {action.amount}"
        if state.phase != "play":
            return "OHHELL-BID-1", "bid first: the cards are played once every seat has bid"
        if action.card not in state.zones.cards[hand(action.seat)]:
            return "OHHELL-PLAY-1", f"seat {action.seat} holds no {action.card}"
        led = state.zones.cards[TRICK][0].suit
        return "OHHELL-FOLLOW-1", f"seat {action.seat} holds {led.letter} and must follow it"

    def apply(self, state: OhHellState, action: Bid | Play, emit: Emit | None) -> None:
        seat, p, z = action.seat, state.players, state.zones
        if isinstance(action, Bid):  # OHHELL-BID-1
            state.bids[seat] = action.amount
            if seat == state.dealer:
                state.phase, state.to_act = "play", (state.lead,)
            else:
                state.to_act = (next_seat(seat, p),)
            return
        card = z.move(hand(seat), TRICK, z.cards[hand(seat)].index(action.card), mask=ALL)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "trick", card))
        if len(z.cards[TRICK]) < p:
            state.to_act = (next_seat(seat, p),)
            return
        trick = z.cards[TRICK]  # OHHELL-TRICK-1
        trump = z.cards[TRUMP][0].suit.letter if z.cards[TRUMP] and z.cards[TRUMP][0].suit else None
        best = max(range(p), key=lambda i: strength(trick[i], trick[0].suit.letter, trump))
        winner = (state.lead + best) % p
        state.tricks[winner] += 1
        won = tuple(trick)
        while z.cards[TRICK]:
            z.move(TRICK, DONE, mask=ALL)
        if emit is not None:
            emit(TrickWon(winner, sum(state.tricks), won))
        state.lead, state.to_act = winner, (winner,)
        if not z.cards[hand(winner)]:
            self._end_hand(state, emit)

    def _end_hand(self, state: OhHellState, emit: Emit | None) -> None:
        scores = [10 + b if t == b else 0 for b, t in zip(state.bids, state.tricks, strict=True)]
        made = self.score_round(state, scores)  # OHHELL-SCORE-1
        state.totals = [t + m for t, m in zip(state.totals, made, strict=True)]
        state.past.append({"hand": state.hand_no + 1, "dealer": state.dealer, "trump": str(state.zones.cards[TRUMP][0]),
                           "bids": list(state.bids), "tricks": list(state.tricks), "scores": list(made)})
        state.hand_no += 1
        if emit is not None:
            emit(RoundScored(state.hand_no, tuple(made), tuple(state.totals)))
        if state.hand_no == state.options["hands"]:  # OHHELL-END-1
            end_game(state, winners_by(state.totals, lowest=False), state.totals, "all hands played")
            return
        z = state.zones
        for pile in (TRUMP, DONE):
            while z.cards[pile]:
                z.move(pile, STOCK, mask=0)
        z.shuffle(STOCK, state.rng())
        if emit is not None:
            emit(Shuffled("stock", len(z.cards[STOCK])))
        self._deal(state, emit)

    def table(self, state: OhHellState, seat: int | None) -> dict[str, Any]:
        return {"hand_no": state.hand_no, "dealer": state.dealer, "size": state.size, "phase": state.phase,
                "bids": list(state.bids), "tricks": list(state.tricks), "totals": list(state.totals),
                "lead": state.lead}

    def history(self, state: OhHellState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return [dict(entry) for entry in state.past[since:]]

    def rounds_played(self, state: OhHellState) -> int:
        return state.hand_no

    def scores(self, state: OhHellState) -> tuple[float, ...]:
        return tuple(state.totals)

    def standings(self, state: OhHellState) -> tuple[int, ...]:
        return winners_by(state.totals, lowest=False)

    def check_position(self, state: OhHellState) -> None:
        cards, p, size = state.zones.cards, state.players, state.size
        check(state.options["hands"] - state.hand_no == size or state.is_over, "size must be hands - hand_no")
        check(state.dealer == (state.hand_no - state.is_over) % p, "dealer must be hand_no % players (OHHELL-DEAL-1)")
        check(0 <= state.hand_no <= state.options["hands"], "hand_no must be 0 to hands, not {}", state.hand_no)
        check(0 <= state.lead < p, "lead must be a seat, not {}", state.lead)
        check(state.phase in ("bid", "play"), "phase must be 'bid' or 'play', not {!r}", state.phase)
        check(all(-1 <= b <= size for b in state.bids), "bids must be -1 (none yet) or 0 to {}", size)
        check(len(cards[TRUMP]) == 1, "trump must hold one card (OHHELL-TRUMP-1)")
        check(len(cards[DONE]) == p * sum(state.tricks), "done must hold every won trick (OHHELL-TRICK-1)")
        played = len(cards[TRICK])
        for s in range(p):
            in_trick = (s - state.lead) % p < played
            check(state.is_over or len(cards[hand(s)]) == size - sum(state.tricks) - in_trick,
                  "hand.{} holds the wrong number of cards (OHHELL-DEAL-1)", s)


GAME = GameInfo(
    "ohhell", "Oh Hell: bid the exact number of tricks you will take", 3, 7, version="1.0.0",
    options=(Option("hands", 5, "Hands in the game; the first deals this many cards each, "
                    "one fewer each hand after", int, minimum=1, maximum=12),),
    fields=(
        ViewField("hand_no", "int", "Hands finished so far."),
        ViewField("dealer", "seat", "The dealer of this hand; bids last."),
        ViewField("size", "int", "Cards dealt to each seat this hand (tricks to take)."),
        ViewField("phase", "str", "'bid' or 'play'."),
        ViewField("bids", "per-seat", "Each seat's bid this hand, -1 before it bids.", of="int"),
        ViewField("tricks", "per-seat", "Tricks each seat took this hand.", of="int"),
        ViewField("totals", "per-seat", "Each seat's score so far.", of="int"),
        ViewField("lead", "seat", "The seat that leads (led) the current trick."),
    ),
)


@hookimpl
def create_logic(ruleset: Ruleset) -> OhHellLogic:
    return OhHellLogic(ruleset)


RULE = RuleInfo(id="OHHELL-HOOK-1", name="ohhell.hook", game="ohhell", version="1.0.0",
                summary="The dealer may not make the bids total the tricks")


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """OHHELL-HOOK-1: veto the dealer's bid that makes the bids total the hand's tricks."""
    if not isinstance(action, Bid) or not isinstance(state, OhHellState) or action.seat != state.dealer:
        return None
    others = sum(b for s, b in enumerate(state.bids) if s != action.seat and b >= 0)
    if others + action.amount == state.size:
        return Veto("OHHELL-HOOK-1", f"the dealer may not bid {action.amount}: "
                                     f"the bids would total the {state.size} tricks")
    return None


# ----------------------------------------------------------------------------------------
# End of the game's code. The tests follow.
# ----------------------------------------------------------------------------------------

GAME_MODULE = types.ModuleType("cardcore_ohhell")
GAME_MODULE.GAME, GAME_MODULE.create_logic = GAME, create_logic  # type: ignore[attr-defined]
RULE_MODULE = types.ModuleType("cardcore_ohhell_hook")
RULE_MODULE.RULE, RULE_MODULE.forbid_action = RULE, forbid_action  # type: ignore[attr-defined]


@pytest.fixture(autouse=True, scope="module")
def _registered() -> Iterator[None]:
    cardcore.register("cardcore.games", "ohhell", GAME_MODULE)
    cardcore.register("cardcore.rules", "ohhell.hook", RULE_MODULE)
    yield
    cardcore.unregister("cardcore.rules", "ohhell.hook")
    cardcore.unregister("cardcore.games", "ohhell")


def _play_to(game: cardcore.Game, stop: Any, seed: int = 0) -> None:
    """Play random legal actions until ``stop(game)`` holds (or the game ends)."""
    agent = cardcore.RandomAgent(seed)
    while not game.is_over and not stop(game):
        seat = game.to_act[0]
        game.apply(agent.choose(game.view(seat), game.legal_actions(seat)))


def _fingerprint(game: cardcore.Game) -> tuple[Any, ...]:
    return (game.version, game.position(), json.dumps(game.record(), sort_keys=True), game.to_act)


def test_plugin_is_found_by_name() -> None:
    assert "ohhell" in cardcore.available_games()
    assert cardcore.game_info("ohhell").name == "ohhell"
    assert cardcore.available_rules("ohhell") == ("ohhell.hook",)
    assert cardcore.rule_info("ohhell.hook").id == "OHHELL-HOOK-1"
    assert cardcore.rule_info("OHHELL-HOOK-1").name == "ohhell.hook"
    game = cardcore.new_game("ohhell", 4, rules=["OHHELL-HOOK-1"], seed=1)
    assert game.rules == ("ohhell.hook",)
    assert game.record()["rules"] == [{"name": "ohhell.hook", "id": "OHHELL-HOOK-1", "version": "1.0.0"}]


def test_unknown_rule_name_refused() -> None:
    with pytest.raises(cardcore.UnknownPluginError, match=r"ohhell\.hoook"):
        cardcore.new_game("ohhell", 4, rules=["ohhell.hoook"], seed=1)
    with pytest.raises(cardcore.UnknownPluginError):
        cardcore.new_game("ohhell", 4, rules=["golf.jokers"], seed=1)


@pytest.mark.parametrize("value", [0, 13, -1, "3", 2.5, True, None, 10**20])
def test_ohhell_deal_1_hands_option_bounds(value: Any) -> None:
    with pytest.raises(OptionError, match="hands"):
        cardcore.new_game("ohhell", 4, options={"hands": value}, seed=1)


def test_ohhell_deal_1_bounds_at_the_edges_accepted() -> None:
    assert cardcore.new_game("ohhell", 4, options={"hands": 1}, seed=1).state.size == 1
    assert cardcore.new_game("ohhell", 4, options={"hands": 12}, seed=1).state.size == 12


def test_ohhell_deal_1_too_many_cards_refused_and_unknown_option() -> None:
    with pytest.raises(OptionError, match="OHHELL-DEAL-1"):
        cardcore.new_game("ohhell", 5, options={"hands": 11}, seed=1)
    with pytest.raises(OptionError, match="hnads"):
        cardcore.new_game("ohhell", 4, options={"hnads": 3}, seed=1)


@pytest.mark.parametrize("players", [2, 8, 0, -1])
def test_ohhell_seat_1_player_count(players: int) -> None:
    with pytest.raises(OptionError):
        cardcore.new_game("ohhell", players, seed=1)


def test_ohhell_deal_1_trump_1_the_deal() -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 3}, seed=5)
    state = game.state
    assert [len(state.zones.cards[hand(s)]) for s in range(4)] == [3, 3, 3, 3]
    assert len(state.zones.cards[TRUMP]) == 1 and len(state.zones.cards[STOCK]) == 52 - 13
    assert game.to_act == (1,) and state.dealer == 0
    for seat in range(4):
        zones = {z["name"]: z for z in game.view(seat)["zones"]}
        assert zones["trump"]["cards"] == [str(state.zones.cards[TRUMP][0])]
        assert all(c is None for c in zones["stock"]["cards"])


def test_ohhell_bid_1_out_of_range_and_phase() -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 3}, seed=5)
    before = _fingerprint(game)
    assert game.view(1)["legal"] == ["bid 0", "bid 1", "bid 2", "bid 3"]
    with pytest.raises(IllegalActionError, match=r"OHHELL-BID-1\)$"):
        game.act(1, "bid 4")
    with pytest.raises(IllegalActionError, match=r"OHHELL-BID-1\)$"):
        game.act(1, f"play {game.state.zones.cards[hand(1)][0]}")
    with pytest.raises(NotationError, match="CORE-NOTATION-1"):
        game.act(1, "bid -1")
    assert _fingerprint(game) == before


@pytest.mark.parametrize("text", ["bid", "bid two", "bid 1 2", "play", "play 1H", "play QS QH", "",
                                  "wager 2", "bid ²", "x" * 300, "bid 99999999999999999999"])
def test_malformed_text_refused_unchanged(text: str) -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 3}, seed=5)
    before = _fingerprint(game)
    with pytest.raises(NotationError) as info:
        game.act(1, text)
    assert info.value.rule_id is not None and info.value.rule_id.startswith("CORE-NOTATION")
    assert _fingerprint(game) == before


def test_out_of_turn_refused_unchanged() -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 3}, seed=5)
    before = _fingerprint(game)
    with pytest.raises(IllegalActionError, match="CORE-TURN-1"):
        game.act(2, "bid 1")
    with pytest.raises(SeatError, match="CORE-SEAT-1"):
        game.act(4, "bid 1")
    with pytest.raises(IllegalActionError):
        game.apply(Bid(2, 1))
    assert _fingerprint(game) == before


def _to_play(seed: int, hands: int = 5) -> cardcore.Game:
    game = cardcore.new_game("ohhell", 4, options={"hands": hands}, seed=seed)
    for seat in (1, 2, 3, 0):
        game.act(seat, "bid 1")
    return game


def test_ohhell_follow_1_must_follow_suit() -> None:
    for seed in range(200):  # find a deal where seat 2 holds the suit led and another suit
        game = _to_play(seed)
        led = game.state.zones.cards[hand(1)][0]
        held = game.state.zones.cards[hand(2)]
        other = [c for c in held if c.suit != led.suit]
        if any(c.suit == led.suit for c in held) and other:
            break
    else:
        pytest.fail("no deal found")
    game.act(1, f"play {led}")
    legal = game.view(2)["legal"]
    assert legal and all(Card.parse(t.split()[1]).suit == led.suit for t in legal)
    before = _fingerprint(game)
    with pytest.raises(IllegalActionError, match=r"must follow it \(OHHELL-FOLLOW-1\)$"):
        game.act(2, f"play {other[0]}")
    assert _fingerprint(game) == before


def test_ohhell_play_1_card_not_held_and_not_leaked() -> None:
    game = _to_play(3)
    theirs = game.state.zones.cards[hand(2)][0]
    mine = game.state.zones.cards[hand(1)]
    before = _fingerprint(game)
    with pytest.raises(IllegalActionError) as info:
        game.act(1, f"play {theirs}")
    assert info.value.rule_id == "OHHELL-PLAY-1" and theirs not in mine
    # an out-of-turn seat naming a card learns nothing about where it lies
    messages = set()
    for card in ("2S", "KD", str(theirs), str(mine[0])):
        with pytest.raises(IllegalActionError) as info:
            game.act(3, f"play {card}")
        messages.add(info.value.rule_id)
    assert messages == {"CORE-TURN-1"}
    assert _fingerprint(game) == before


def test_ohhell_trick_1_winner_and_lead() -> None:
    # trick winners checked against the rule on random games, trick by trick
    for seed in range(5):
        game = cardcore.new_game("ohhell", 4, options={"hands": 4}, seed=seed)
        won: list[TrickWon] = []
        game.events.subscribe(TrickWon, won.append)
        agent = cardcore.RandomAgent(seed)
        while not game.is_over:
            state = game.state
            trump = state.zones.cards[TRUMP][0].suit
            lead = state.lead
            seat = game.to_act[0]
            hand_no = state.hand_no
            game.apply(agent.choose(game.view(seat), game.legal_actions(seat)))
            if won and won[-1] is not None:
                cards = won[-1].cards
                led = cards[0].suit
                trumps = [c for c in cards if c.suit == trump]
                pool = trumps or [c for c in cards if c.suit == led]
                best = max(pool, key=lambda c: 14 if c.rank == 1 else int(c.rank))
                assert won[-1].seat == (lead + cards.index(best)) % 4
                if not game.is_over and game.state.phase == "play":
                    # the winner leads the next trick, unless that trick ended the hand
                    assert game.to_act == (won[-1].seat,) or game.state.hand_no != hand_no
                won.append(None)  # type: ignore[arg-type]


def test_ohhell_score_1_end_1_many_seeded_random_games() -> None:
    summary = cardcore.simulate("ohhell", games=60, players=4, options={"hands": 3}, seed=11)
    assert summary.games == 60 and summary.truncated == 0
    assert dict(summary.reasons) == {"all hands played": 60}
    for seed in range(30):
        game = cardcore.new_game("ohhell", 4, options={"hands": 3}, seed=seed)
        result = cardcore.play(game, [cardcore.RandomAgent(seed * 4 + s) for s in range(4)])
        past = game.history()
        assert [h["hand"] for h in past] == [1, 2, 3]
        assert [sum(h["tricks"]) for h in past] == [3, 2, 1]
        for h in past:
            assert h["scores"] == [10 + b if b == t else 0 for b, t in zip(h["bids"], h["tricks"], strict=True)]
        totals = [sum(h["scores"][s] for h in past) for s in range(4)]
        assert list(result.scores) == totals
        assert set(result.winners) == {s for s in range(4) if totals[s] == max(totals)}
        assert result.reason == "all hands played"
        assert game.version == 4 * (3 + 2 + 1) + 4 * 3


def test_conformance_kit() -> None:
    report = check_game("ohhell", players=4, options={"hands": 3}, games=6, seed=3)
    assert report.ok and report.cards_lost == 0 and report.leaks == 0, report.failures
    assert report.skipped == {}, report.skipped
    assert report.positions > 0 and report.reloads > 0 and report.scored > 0 and report.vetoed > 0


def test_conformance_kit_with_the_house_rule_and_other_seats() -> None:
    for players, hands in ((3, 2), (7, 2)):
        report = check_game("ohhell", players=players, rules=["ohhell.hook"], options={"hands": hands},
                            games=2, seed=players)
        assert report.ok and report.skipped == {}, (report.failures, report.skipped)


def test_kit_configurations() -> None:
    configs = list(configurations("ohhell"))
    assert {c.players for c in configs} >= {3, 5, 7}
    assert any(c.rules == ("ohhell.hook",) for c in configs)
    for config in configs:
        kwargs = config.kwargs()
        kwargs["options"] = {**dict(kwargs.get("options") or {}), "hands": 2}
        assert check_game(config.game, games=1, **kwargs).ok


def test_views_never_show_another_hand() -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 4}, seed=9)
    agent = cardcore.RandomAgent(2)
    while not game.is_over:
        state = game.state
        for viewer in (0, 1, 2, 3, None):
            zones = {z["name"]: z for z in game.view(viewer)["zones"]}
            for s in range(4):
                shown = zones[f"hand.{s}"]["cards"]
                assert len(shown) == len(state.zones.cards[hand(s)])
                if viewer == s:
                    assert sorted(shown) == sorted(str(c) for c in state.zones.cards[hand(s)])
                else:
                    assert all(c is None for c in shown), (viewer, s, shown)
            assert all(c is None for c in zones["stock"]["cards"])
        seat = game.to_act[0]
        game.apply(agent.choose(game.view(seat), game.legal_actions(seat)))


def test_events_per_seat_never_show_another_hand() -> None:
    streams: dict[Any, list[dict[str, Any]]] = {s: [] for s in (0, 1, 2, 3, SPECTATOR)}
    subs = [(Event, (lambda e, s=s: streams[s].append(e.to_json())), s) for s in streams]
    game = cardcore.new_game("ohhell", 4, options={"hands": 2}, seed=4, subscribers=subs)
    first = {s: {str(c) for c in game.state.zones.cards[hand(s)]} for s in range(4)}
    trump = str(game.state.zones.cards[TRUMP][0])
    text = json.dumps(streams[SPECTATOR])
    assert trump in text and not any(card in text.split('"') for cards in first.values() for card in cards)
    for seat in range(4):
        text = json.dumps(streams[seat])
        for other in range(4):
            if other != seat:
                assert not any(f'"{card}"' in text for card in first[other])
    cardcore.play(game, [cardcore.RandomAgent(s) for s in range(4)])
    assert streams[0][-1]["event"] == "game-ended"


def test_save_load_and_replay_mid_game() -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 3}, seed=21)
    _play_to(game, lambda g: g.state.hand_no == 1 and g.state.phase == "play", seed=3)
    saved = json.loads(json.dumps(game.save()))
    loaded = cardcore.load(saved)
    replayed = cardcore.replay(json.dumps(game.record()))
    for other in (loaded, replayed):
        assert other.version == game.version and other.position() == game.position()
        for seat in (0, 1, 2, 3, None):
            assert other.view(seat) == game.view(seat)
        assert other.history() == game.history()
    # both continue identically, the reshuffle between hands included
    _play_to(game, lambda g: False, seed=8)
    _play_to(loaded, lambda g: False, seed=8)
    assert loaded.result == game.result and loaded.record() == game.record()


def test_tampered_save_and_record_refused() -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 2}, seed=21)
    _play_to(game, lambda g: g.version >= 7, seed=3)
    saved = game.save()
    forged = copy.deepcopy(saved)
    forged["record"]["actions"][0][1] = "bid 9"
    with pytest.raises(CorruptStateError):
        cardcore.load(forged)
    forged = copy.deepcopy(saved)
    forged["record"]["options"]["hands"] = 13
    with pytest.raises(CorruptStateError):
        cardcore.load(forged)
    signed = game.save(key=b"k")
    signed["record"]["seed"] = 22
    with pytest.raises(CorruptStateError):
        cardcore.load(signed, key=b"k")


def test_positions_round_trip_and_refused() -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 3}, seed=2)
    _play_to(game, lambda g: g.state.phase == "play" and len(g.state.zones.cards[TRICK]) == 2, seed=1)
    text = game.position()
    again = cardcore.new_game("ohhell", 4, options={"hands": 3}, position=text, seed=5)
    for seat in (0, 1, 2, 3, None):
        assert {**again.view(seat), "version": 0} == {**game.view(seat), "version": 0}
    assert again.position() == text
    with pytest.raises(OptionError, match="bad position"):
        cardcore.new_game("ohhell", 4, options={"hands": 3}, position=text.replace("phase=\"play\"", "phase=\"nap\""))
    for good, bad in (("dealer=0", "dealer=2"), ("lead=", "lead=9"), ("hand_no=0", "hand_no=-1"),
                      ("hand_no=0", "hand_no=0.0"), ("to_act=[", "to_act=[3,"), ("totals=[0", "totals=[1e400"),
                      ("bids=[", "bids=[true,"), ('phase="play"', "phase=null"), ("lead=", "zzz=1 lead=")):
        wrong = text.replace(good, bad, 1)
        assert wrong != text
        with pytest.raises(OptionError, match="bad position"):
            cardcore.new_game("ohhell", 4, options={"hands": 3}, position=wrong, seed=1)


def test_ohhell_hook_1_dealer_may_not_make_the_total() -> None:
    plain = cardcore.new_game("ohhell", 4, options={"hands": 3}, seed=5)
    hooked = cardcore.new_game("ohhell", 4, rules=["ohhell.hook"], options={"hands": 3}, seed=5)
    for game in (plain, hooked):
        for seat, amount in ((1, 1), (2, 0), (3, 1)):
            game.act(seat, f"bid {amount}")
    assert plain.view(0)["legal"] == ["bid 0", "bid 1", "bid 2", "bid 3"]
    assert hooked.view(0)["legal"] == ["bid 0", "bid 2", "bid 3"]
    before = _fingerprint(hooked)
    with pytest.raises(IllegalActionError, match=r"total the 3 tricks \(OHHELL-HOOK-1\)$"):
        hooked.act(0, "bid 1")
    assert _fingerprint(hooked) == before
    hooked.act(0, "bid 2")
    assert hooked.state.phase == "play"
    # every game with the rule: the dealer's bid never makes the total
    for seed in range(15):
        game = cardcore.new_game("ohhell", 4, rules=["ohhell.hook"], options={"hands": 3}, seed=seed)
        cardcore.play(game, [cardcore.RandomAgent(seed + s) for s in range(4)])
        assert all(sum(h["bids"]) != sum(h["tricks"]) for h in game.history())


def test_resign_and_host_end() -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 3}, seed=2)
    _play_to(game, lambda g: g.state.hand_no == 1, seed=1)
    totals = list(game.state.totals)
    ended = game.clone()
    ended.act(cardcore.HOST, "end")
    assert ended.result is not None and ended.result.reason == "ended"
    assert list(ended.result.scores) == totals
    assert set(ended.result.winners) == {s for s in range(4) if totals[s] == max(totals)}
    game.act(2, "resign")
    assert game.result is not None and game.result.reason == "resigned" and game.result.winners == (0, 1, 3)
    with pytest.raises(IllegalActionError, match="CORE-OVER-1"):
        game.act(game.state.lead, "bid 0")


def test_failing_subscriber_leaves_the_game_whole() -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 2}, seed=2)

    def boom(event: Event) -> None:
        raise RuntimeError("subscriber failed")

    game.events.subscribe(Event, boom)
    cardcore.play(game, [cardcore.RandomAgent(s) for s in range(4)])
    assert game.is_over and game.result is not None and game.result.reason == "all hands played"


def test_failing_house_rule_leaves_the_game_whole() -> None:
    module = types.ModuleType("ohhell_boom")
    module.RULE = RuleInfo(id="OHHELL-BOOM-1", name="ohhell.boom", game="ohhell", summary="Breaks")  # type: ignore[attr-defined]

    @hookimpl
    def score_round(state: GameState, scores: list[int]) -> list[int]:
        raise RuntimeError("boom")

    module.score_round = score_round  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "ohhell.boom", module)
    try:
        game = cardcore.new_game("ohhell", 4, rules=["ohhell.boom"], options={"hands": 2}, seed=2)
        _play_to(game, lambda g: g.state.phase == "play" and sum(len(g.state.zones.cards[hand(s)])
                                                                 for s in range(4)) == 1, seed=1)
        seat = game.to_act[0]
        (last,) = game.legal_actions(seat)
        before = _fingerprint(game)
        with pytest.raises(PluginError, match=r"ohhell\.boom"):
            game.apply(last)
        assert _fingerprint(game) == before
    finally:
        cardcore.unregister("cardcore.rules", "ohhell.boom")


def test_view_schema_declared() -> None:
    game = cardcore.new_game("ohhell", 4, seed=1)
    schema = game.view_schema()
    assert "bids" in json.dumps(schema)
    assert set(game.view(0)["table"]) == {f.name for f in GAME.fields}


# ----------------------------------------------------------------------------------------
# What the core checks of a game's answers: variants of the game with one mistake each.
# ----------------------------------------------------------------------------------------


@pytest.fixture
def variant() -> Iterator[Any]:
    """Register ``ohhell`` variants whose logic overrides some methods; unregister after."""
    names: list[str] = []

    def make(name: str, fields: tuple[ViewField, ...] = (), **methods: Any) -> str:
        logic = type("Variant", (OhHellLogic,), methods)
        module = types.ModuleType(name)

        @hookimpl
        def create_logic(ruleset: Ruleset) -> OhHellLogic:
            return logic(ruleset)  # type: ignore[no-any-return]

        module.GAME = GameInfo(name, GAME.summary, 3, 7, GAME.options, fields=GAME.fields + fields)  # type: ignore[attr-defined]
        module.create_logic = create_logic  # type: ignore[attr-defined]
        cardcore.register("cardcore.games", name, module)
        names.append(name)
        return name

    yield make
    for name in names:
        cardcore.unregister("cardcore.games", name)


def test_apply_failing_half_way_is_undone(variant: Any) -> None:
    def apply(self: OhHellLogic, state: OhHellState, action: Any, emit: Emit | None) -> None:
        state.bids[action.seat] = 7
        state.zones.move(STOCK, DONE)
        if emit is not None:
            emit(TrickWon(0, 1, ()))
        raise ValueError("half way")

    name = variant("ohhell-half", apply=apply)
    heard: list[Event] = []
    game = cardcore.new_game(name, 4, options={"hands": 3}, seed=1, subscribers=[(Event, heard.append)])
    before, count = _fingerprint(game), len(heard)
    with pytest.raises(PluginError, match="ohhell-half"):
        game.act(1, "bid 1")
    assert _fingerprint(game) == before and len(heard) == count


@pytest.mark.parametrize("answer", [(1, 2), ("x", "x", "x", "x"), (float("nan"),) * 4])
def test_bad_scores_answer_refused_at_an_early_end(variant: Any, answer: tuple[Any, ...]) -> None:
    name = variant("ohhell-scores", scores=lambda self, state: answer)
    game = cardcore.new_game(name, 4, options={"hands": 3}, seed=1)
    before = _fingerprint(game)
    with pytest.raises(PluginError, match="ohhell-scores"):
        game.act(cardcore.HOST, "end")
    assert _fingerprint(game) == before and not game.is_over


def test_bad_scores_answer_at_the_bound_is_not_a_raw_error(variant: Any) -> None:
    name = variant("ohhell-bound", action_bound=lambda self, players, options: 5,
                   scores=lambda self, state: ("x",) * state.players)
    with pytest.raises(PluginError, match="ohhell-bound"):  # as the docs promise, never a raw error
        cardcore.simulate(name, games=1, players=4, options={"hands": 3})


def test_bad_result_from_apply_refused(variant: Any) -> None:
    def end(self: OhHellLogic, state: OhHellState, emit: Emit | None) -> None:
        end_game(state, (9,), (1, 2), "bad")

    name = variant("ohhell-result", _end_hand=end)
    game = cardcore.new_game(name, 4, options={"hands": 1}, seed=1)
    _play_to(game, lambda g: sum(len(g.state.zones.cards[hand(s)]) for s in range(4)) == 1)
    (last,) = game.legal_actions(game.to_act[0])
    before = _fingerprint(game)
    with pytest.raises(PluginError, match="ohhell-result"):
        game.apply(last)
    assert _fingerprint(game) == before


def test_bad_standings_answer_refused(variant: Any) -> None:
    name = variant("ohhell-stand", standings=lambda self, state: (7,))
    game = cardcore.new_game(name, 4, options={"hands": 3}, seed=1)
    with pytest.raises(PluginError, match="ohhell-stand"):
        game.act(cardcore.HOST, "end")
    assert not game.is_over


def test_failing_check_position_named_as_reading_a_position(variant: Any) -> None:
    def check_position(self: OhHellLogic, state: OhHellState) -> None:
        raise ValueError("broken check")

    name = variant("ohhell-cp", check_position=check_position)
    text = cardcore.new_game(name, 4, options={"hands": 3}, seed=1).position()
    with pytest.raises(PluginError, match="ohhell-cp") as info:
        cardcore.new_game(name, 4, options={"hands": 3}, position=text, seed=1)
    assert "dealing" not in str(info.value) and "position" in str(info.value)


def test_history_since_error_cites_the_right_rule() -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 3}, seed=1)
    with pytest.raises(IllegalActionError) as info:
        game.history(0, since=-1)
    assert "since" in str(info.value)
    assert info.value.rule_id != "CORE-SEAT-1"


def test_session_shows_the_last_play_of_a_hand() -> None:
    from cardcore.session import Session

    session = Session.create("ohhell", ["A", "B", "C", "D"], now=0.0, seed=7, options={"hands": 2})
    for seat in range(4):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0)
    game, agent, now = session.game, cardcore.RandomAgent(1), 10.0
    texts: dict[int, list[Any]] = {s: [] for s in range(4)}
    while game.state.hand_no == 0:
        seat = game.to_act[0]
        text = str(agent.choose(game.view(seat), game.legal_actions(seat)))
        now += 1
        for out in session.handle(f"c{seat}", json.dumps({"type": "act", "action": text, "seen": game.version}),
                                  now=now):
            if out.message["type"] == "update":
                texts[int(out.conn[1:])].append(out.message["action"]["text"])
    last = str(game.record_entries()[-1][1])
    assert last.startswith("play ")
    assert all(texts[s][-1] == last for s in range(4)), {s: texts[s][-1] for s in range(4)}


def test_generic_rl_environment_plays_the_game() -> None:
    np = pytest.importorskip("numpy")
    from cardcore.rl import aec_env

    env = aec_env("ohhell", 4, options={"hands": 2})
    env.reset(seed=3)
    rng, steps = np.random.default_rng(0), 0
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
        steps += 1
    assert steps == 4 * 2 + 4 * (2 + 1) and env.match.game.is_over
    with pytest.raises(OptionError, match="score"):
        aec_env("ohhell", 4, options={"hands": 2}, rewards="score")


def test_search_agent_and_compare_play_the_game() -> None:
    summary = cardcore.simulate("ohhell", games=1, players=4, options={"hands": 2},
                                agents=["ismcts:iterations=8", "random", "random", "random"])
    assert summary.games == 1 and summary.truncated == 0
    comparison = cardcore.compare("ohhell", rules=["ohhell.hook"], players=4, games=6, options={"hands": 2},
                                  skill=None)
    assert comparison.games == 6 and "ohhell.hook" in comparison.table()


def _docs(*parts: str) -> str:
    from pathlib import Path

    return Path(__file__).resolve().parents[2].joinpath("docs", *parts).read_text(encoding="utf-8")


def test_api_reference_states_the_installed_version() -> None:
    assert f'``"{cardcore.__version__}"`` for this release' in _docs("api.rst")


def test_default_max_legal_is_documented_where_rl_rst_names_it() -> None:
    import re

    from cardcore.rl import DEFAULT_MAX_LEGAL

    page = _docs("rl.rst")
    entry = re.search(
        r"\.\. py:data:: (?:cardcore\.rl\.)?DEFAULT_MAX_LEGAL\n   :value: (\d+)\n(?:   :.*\n)*\n   (\S.*)", page
    )  # (a short name under ".. py:currentmodule:: cardcore.rl", indexed as cardcore.rl's)
    assert entry is not None, "rl.rst documents cardcore.rl.DEFAULT_MAX_LEGAL by hand, with its value"
    assert int(entry.group(1)) == DEFAULT_MAX_LEGAL
    assert "max_legal" in entry.group(2)  # its own words, not int()'s docstring
    assert "autodata:: cardcore.rl.DEFAULT_MAX_LEGAL" not in page


def test_ohhell_deal_1_stacked_deck_and_finished_position() -> None:
    deck = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KH"  # top first: one card at a time from seat 1
    game = cardcore.new_game("ohhell", 4, options={"hands": 3}, deck=deck, seed=1)
    held = {s: sorted(str(c) for c in game.state.zones.cards[hand(s)]) for s in range(4)}
    assert held == {1: ["5S", "9S", "AS"], 2: ["10S", "2S", "6S"], 3: ["3S", "7S", "JS"], 0: ["4S", "8S", "QS"]}
    assert [str(c) for c in game.state.zones.cards[TRUMP]] == ["KH"]
    cardcore.play(game, [cardcore.RandomAgent(s) for s in range(4)])
    again = cardcore.new_game("ohhell", 4, options={"hands": 3}, position=game.position(), seed=2)
    assert again.is_over and again.result == game.result


def test_record_of_another_major_version_refused() -> None:
    game = cardcore.new_game("ohhell", 4, rules=["ohhell.hook"], options={"hands": 2}, seed=3)
    _play_to(game, lambda g: g.version >= 5)
    record = game.record()
    assert json.loads(json.dumps(record)) == record
    for path in ("game", "rules"):
        forged = copy.deepcopy(record)
        text = json.dumps(forged)
        assert '"1.0.0"' in text
        forged = json.loads(text.replace('"1.0.0"', '"2.0.0"', 1 if path == "game" else 2))
        with pytest.raises(CorruptStateError):
            cardcore.replay(forged)


def test_truncate_ends_without_winner() -> None:
    game = cardcore.new_game("ohhell", 4, options={"hands": 3}, seed=3)
    _play_to(game, lambda g: g.state.hand_no == 1)
    game.truncate()
    assert game.result is not None and game.result.reason == "truncated" and game.result.winners == ()
    assert cardcore.replay(game.record()).result == game.result


def test_kit_catches_leaks_in_this_game(variant: Any) -> None:
    """The kit is what the docs rely on for hidden information: it must fail a leaky variant."""

    def peek(self: OhHellLogic, state: OhHellState, seat: int | None) -> dict[str, Any]:
        cards = state.zones.cards[hand(((seat or 0) + 1) % state.players)]
        return {**OhHellLogic.table(self, state, seat), "peek": str(cards[0]) if cards else None}

    def trumps(self: OhHellLogic, state: OhHellState, seat: int | None) -> dict[str, Any]:
        suit = state.zones.cards[TRUMP][0].suit
        held = [sum(c.suit == suit for c in state.zones.cards[hand(s)]) for s in range(state.players)]
        return {**OhHellLogic.table(self, state, seat), "trumps": held}

    for name, field, table in (("ohhell-peek", ViewField("peek", "card", "x", nullable=True), peek),
                               ("ohhell-trumps", ViewField("trumps", "per-seat", "x", of="int"), trumps)):
        report = check_game(variant(name, (field,), table=table), players=4, options={"hands": 3}, games=3,
                            seed=1, strict=False)
        assert not report.ok and report.leaks > 0, (name, report.summary())


def test_apply_losing_a_card_is_blamed_on_the_game(variant: Any) -> None:
    def apply(self: OhHellLogic, state: OhHellState, action: Any, emit: Emit | None) -> None:
        OhHellLogic.apply(self, state, action, emit)
        state.zones.pop(STOCK)  # the game's own mistake: a card leaves the table

    name = variant("ohhell-lose", apply=apply)
    game = cardcore.new_game(name, 4, options={"hands": 3}, seed=1)
    try:
        game.act(1, "bid 1")
    except PluginError as error:  # refused where the game can still be put back: fine
        assert "ohhell-lose" in str(error)
        return
    with pytest.raises(CorruptStateError) as info:
        game.save()
    assert "outside its hooks" not in str(info.value)
