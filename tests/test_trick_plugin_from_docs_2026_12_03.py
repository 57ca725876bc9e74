"""A 4-player Whist written from the plugin guide alone, then run through the kit and tools.

The game (rule IDs cited in the code):

- WHIST-SEAT-1: exactly four seats; seats 0 and 2 play against 1 and 3.
- WHIST-DEAL-1: 13 cards each, one at a time, from the seat left of the dealer; the
  dealer's last card is turned up (known to all) and names trump (the ``whist_trump`` hook).
- WHIST-PLAY-1: the leader plays any card; the others must follow the suit led if able.
- WHIST-TRICK-1: the highest trump wins, else the highest card of the suit led (ace high);
  the winner leads next.
- WHIST-SCORE-1: a team scores 1 point per trick above six; the next dealer is to the left.
- WHIST-END-1: the first team to reach ``target`` points (an option, 1 to 13) wins.
- WHIST-VAR-1 (house rule ``whist.no-trump``): no trump suit; the turned card is still shown.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
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
    Event,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    RuleInfo,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
    hookspec,
)
from cardcore.dealing import deal_round_robin, fill_stock, gather
from cardcore.positions import check
from cardcore.turns import end_game, next_seat, winners_by

GAME_NAME = "whist-docs"
RULE_NAME = "whist-docs.no-trump"
SUITS = ("S", "H", "D", "C")

# --------------------------------------------------------------------------- hookspecs


@hookspec(firstresult=True)
def _spec_whist_trump(card: Card) -> str | None:  # pragma: no cover - a specification
    """Name the trump suit for the turned-up *card*.

    The first non-``None`` answer wins.

    :param card: The dealer's last card, turned up.
    :returns: A suit letter, or ``""`` for no trump.
    """
    return None


HOOKSPECS = types.ModuleType("whist_docs_hookspecs")
HOOKSPECS.whist_trump = _spec_whist_trump  # type: ignore[attr-defined]

# --------------------------------------------------------------------------- actions


@frozen
class Play(Action):
    """Seat *seat* plays *card* to the trick (the card is public once played)."""

    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


# --------------------------------------------------------------------------- events


class TrickWon(Event):
    """Seat *seat* (of *team*) won trick *number* (from 1) holding *cards* (in play order)."""

    slug: ClassVar[str] = "whist-docs-trick-won"
    seat: int
    team: int
    number: int
    cards: str


class HandScored(Event):
    """Hand *hand* (from 1): *tricks* and *points* per team, running *totals* per team."""

    slug: ClassVar[str] = "whist-docs-hand-scored"
    hand: int
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


# --------------------------------------------------------------------------- state

STOCK, TRICK = 0, 5


def hand(seat: int) -> int:
    return 1 + seat


def won(team: int) -> int:
    return 6 + team


LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        *(ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(4)),
        ZoneSpec("trick", None, Visibility.EVERYONE),
        ZoneSpec("won.0", None, Visibility.EVERYONE),
        ZoneSpec("won.1", None, Visibility.EVERYONE),
    ]
)


class WhistState(GameState):
    """The cards, the dealer and leader, trump, tricks and totals per team."""

    __slots__ = ("dealer", "leader", "past", "totals", "tricks", "trump", "turned")
    _mutable = ("zones", "tricks", "totals", "past")
    dealer: int
    leader: int
    trump: str
    turned: str
    tricks: list[int]
    totals: list[int]
    past: list[int]  # flat: team 0's and team 1's points of each hand


def suit(card: Card) -> str:
    """The suit letter of *card* (a joker has none; this game deals none)."""
    return card.suit.letter if card.suit is not None else ""


def value(card: Card) -> int:
    return 14 if card.rank.value == 1 else int(card.rank.value)


# --------------------------------------------------------------------------- logic


class WhistLogic(GameLogic[WhistState, Play]):
    """Whist for four seats in two fixed partnerships."""

    action_types = (Play,)
    position_fields = (
        "to_act",
        "dealer",
        "leader",
        "trump",
        "turned",
        "tricks",
        "totals",
        "past",
    )
    max_legal = 13

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        trump = ruleset.resolve("whist_trump")
        if trump is None:
            raise cardcore.PluginError("whist_trump has no implementation")
        self.trump = trump

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 52 * 40

    def blank_state(self, players: int, options: Mapping[str, Any]) -> WhistState:
        state = WhistState(players, options, Zones(LAYOUT))
        state.dealer, state.leader, state.trump, state.turned = 0, 1, "", ""
        state.tricks, state.totals, state.past = [0, 0], [0, 0], []
        return state

    def _trump_for(self, card: Card) -> str:
        answer = self.trump(card=card)
        if answer not in ("", *SUITS):
            raise self.refused_answer("whist_trump", answer, "a suit letter or ''")
        return str(answer)

    def _deal(self, state: WhistState, emit: Emit | None) -> None:
        """WHIST-DEAL-1: 13 each from the dealer's left; the dealer's last card turns up."""
        hands = [hand(s) for s in range(4)]
        deal_round_robin(state, STOCK, hands, 13, first=(state.dealer + 1) % 4)
        h = hand(state.dealer)
        state.zones.seen[h][-1] = ALL
        card = state.zones.cards[h][-1]
        state.turned, state.trump = str(card), self._trump_for(card)
        state.leader = (state.dealer + 1) % 4
        state.tricks = [0, 0]
        state.to_act = (state.leader,)
        if emit is not None:
            emit(CardsDealt((13, 13, 13, 13)))

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> WhistState:
        state = self.blank_state(players, options)
        state.seed, state.dealer = seed, 0
        fill_stock(state, STOCK, cards)
        self._deal(state, emit)
        return state

    def legal_actions(self, state: WhistState, seat: int) -> tuple[Play, ...]:
        """The cards of the hand, suit by suit as dealt order (WHIST-PLAY-1)."""
        if state.is_over or seat not in state.to_act:
            return ()
        held = state.zones.cards[hand(seat)]
        trick = state.zones.cards[TRICK]
        if trick:
            led = trick[0].suit
            follow = [c for c in held if c.suit == led]
            if follow:
                held = follow
        ordered = sorted(held, key=lambda c: (SUITS.index(suit(c)), value(c)))
        return tuple(Play(seat, c) for c in ordered)

    def rule_for(self, state: WhistState, action: Play) -> tuple[str, str]:
        if action.card not in state.zones.cards[hand(action.seat)]:
            return "WHIST-PLAY-1", f"seat {action.seat} does not hold {action.card}"
        return "WHIST-PLAY-1", f"seat {action.seat} must follow the suit led"

    def _winner(self, state: WhistState) -> int:
        trick = state.zones.cards[TRICK]
        led = suit(trick[0])

        def strength(card: Card) -> int:
            if state.trump and suit(card) == state.trump:
                return 100 + value(card)
            return value(card) if suit(card) == led else 0

        best = max(range(4), key=lambda i: strength(trick[i]))
        return (state.leader + best) % 4

    def apply(self, state: WhistState, action: Play, emit: Emit | None) -> None:
        z, seat = state.zones, action.seat
        index = z.cards[hand(seat)].index(action.card)
        z.move(hand(seat), TRICK, index, mask=ALL)
        if emit is not None:
            emit(CardMoved(seat, f"hand.{seat}", "trick", action.card))
        if len(z.cards[TRICK]) < 4:
            state.to_act = (next_seat(seat, 4),)
            return
        winner, number = self._winner(state), sum(state.tricks) + 1  # WHIST-TRICK-1
        cards = " ".join(map(str, z.cards[TRICK]))
        team = winner % 2
        while z.cards[TRICK]:
            z.move(TRICK, won(team), 0)
        state.tricks[team] += 1
        if emit is not None:
            emit(TrickWon(winner, team, number, cards))
        state.leader = winner
        state.to_act = (winner,)
        if number < 13:
            return
        self._score(state, emit)

    def _score(self, state: WhistState, emit: Emit | None) -> None:
        """WHIST-SCORE-1 and WHIST-END-1."""
        points = [max(0, t - 6) for t in state.tricks]
        made = self.score_round(state, [points[s % 2] for s in range(4)])
        team_points = [made[0], made[1]]
        for t in (0, 1):
            state.totals[t] += team_points[t]
        state.past.extend(team_points)
        if emit is not None:
            emit(
                HandScored(
                    len(state.past) // 2,
                    tuple(state.tricks),
                    tuple(team_points),
                    tuple(state.totals),
                )
            )
        target = int(state.options["target"])
        if max(state.totals) >= target:
            per_seat = [state.totals[s % 2] for s in range(4)]
            end_game(state, winners_by(per_seat, lowest=False), per_seat, "target reached")
            return
        gather(state, STOCK)
        state.dealer = next_seat(state.dealer, 4)
        self._deal(state, emit)

    def scores(self, state: WhistState) -> tuple[float, ...]:
        return tuple(float(state.totals[s % 2]) for s in range(4))

    def standings(self, state: WhistState) -> tuple[int, ...]:
        return winners_by([state.totals[s % 2] for s in range(4)], lowest=False)

    def table(self, state: WhistState, seat: int | None) -> dict[str, Any]:
        return {
            "dealer": state.dealer,
            "leader": state.leader,
            "trump": state.trump or None,
            "turned": state.turned,
            "tricks": list(state.tricks),
            "totals": list(state.totals),
            "target": int(state.options["target"]),
        }

    def history(self, state: WhistState, seat: int | None, since: int) -> list[dict[str, Any]]:
        past = state.past
        hands = [{"hand": i + 1, "points": past[2 * i : 2 * i + 2]} for i in range(len(past) // 2)]
        return hands[since:]

    def rounds_played(self, state: WhistState) -> int:
        return len(state.past) // 2

    def check_position(self, state: WhistState) -> None:
        cards = state.zones.cards
        sizes = [len(cards[hand(s)]) for s in range(4)]
        check(
            state.is_over or len(state.to_act) == 1,
            "to_act must be one seat, not {}",
            list(state.to_act),
        )
        check(
            state.trump in ("", *SUITS), "trump must be a suit letter or '', not {!r}", state.trump
        )
        check(len(state.tricks) == 2 and len(state.totals) == 2, "tricks and totals are per team")
        check(len(cards[TRICK]) < 4, "a trick holds at most 3 cards between plays")
        check(max(sizes) - min(sizes) <= 1, "hands differ by more than one card: {}", sizes)


# --------------------------------------------------------------------------- plugin modules

GAME = GameInfo(
    GAME_NAME,
    "Whist: partners 0+2 against 1+3, trump turned by the dealer, game to target points",
    4,
    4,
    options=(Option("target", 5, "Points a team needs to win.", int, minimum=1, maximum=13),),
    version="1.0.0",
    hookspecs=HOOKSPECS,
    fields=(
        ViewField("dealer", "seat", "The seat that dealt this hand."),
        ViewField("leader", "seat", "The seat that led the current trick."),
        ViewField("trump", "str", "The trump suit, or none.", nullable=True),
        ViewField("turned", "card", "The dealer's card turned up for trump."),
        ViewField("tricks", "json", "Tricks won this hand by team 0+2 and team 1+3."),
        ViewField("totals", "json", "Points of team 0+2 and team 1+3."),
        ViewField("target", "int", "Points a team needs to win."),
    ),
)


@hookimpl
def _create_logic(ruleset: Ruleset) -> WhistLogic:
    return WhistLogic(ruleset)


@hookimpl(trylast=True)
def _game_trump(card: Card) -> str:
    return str(suit(card))


@hookimpl
def _no_trump(card: Card) -> str:
    return ""


def game_module() -> types.ModuleType:
    module = types.ModuleType("whist_docs")
    module.GAME = GAME  # type: ignore[attr-defined]
    module.create_logic = _create_logic  # type: ignore[attr-defined]
    module.whist_trump = _game_trump  # type: ignore[attr-defined]
    return module


def rule_module() -> types.ModuleType:
    module = types.ModuleType("whist_docs_no_trump")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="WHIST-VAR-1", name=RULE_NAME, game=GAME_NAME, summary="No trump suit", version="1.0.0"
    )
    module.whist_trump = _no_trump  # type: ignore[attr-defined]
    return module


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    cardcore.register("cardcore.games", GAME_NAME, game_module())
    cardcore.register("cardcore.rules", RULE_NAME, rule_module())
    yield
    cardcore.unregister("cardcore.rules", RULE_NAME)
    cardcore.unregister("cardcore.games", GAME_NAME)


def random_game(seed: int = 1, **kwargs: Any) -> cardcore.Game:
    game = cardcore.new_game(GAME_NAME, 4, seed=seed, **kwargs)
    cardcore.play(game, [cardcore.RandomAgent(seed + s) for s in range(4)])
    return game


RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def stacked(hands: Mapping[int, list[str]]) -> str:
    """A deck, top first, dealt by seat 0 (the first card to seat 1, the last to seat 0)."""
    return " ".join(hands[(i + 1) % 4][i // 4] for i in range(52))


def one_suit_each() -> dict[int, list[str]]:
    """Seat 0 spades (KS, its last card, turns up: trump S), 1 hearts, 2 clubs, 3 diamonds;
    seat 1's 2H and seat 2's KC traded, so seat 2 holds one heart."""
    hands = {s: [r + suit for r in RANKS] for s, suit in zip(range(4), "SHCD", strict=True)}
    hands[1][1], hands[2][12] = "KC", "2H"
    return hands


def drive(game: cardcore.Game, seed: int, until: Any) -> None:
    """Play seeded random actions until *until(game)* holds."""
    rng = random.Random(seed)
    while not until(game):
        seat = game.to_act[0]
        game.apply(rng.choice(game.legal_actions(seat)))


# --------------------------------------------------------------------------- tests: the game


def test_whist_plays_to_the_end_with_random_agents() -> None:
    game = random_game(options={"target": 1})
    assert game.result is not None and game.result.reason == "target reached"
    scores = game.result.scores
    assert scores[0] == scores[2] and scores[1] == scores[3]
    assert set(game.result.winners) in ({0, 2}, {1, 3})


def test_conformance_kit_on_every_configuration() -> None:
    from cardcore.testing import check_game, configurations

    configs = list(configurations(GAME_NAME))
    assert {c.rules for c in configs} == {(), (RULE_NAME,)}
    for config in configs:
        report = check_game(config.game, games=2, seed=3, **config.kwargs())
        assert report.ok and report.cards_lost == 0 and report.leaks == 0
        assert report.skipped == {}


def test_whist_deal_1_and_trick_1_trump_beats_the_suit_led() -> None:
    game = cardcore.new_game(GAME_NAME, 4, deck=stacked(one_suit_each()), seed=1)
    table = game.view(3)["table"]
    assert (table["trump"], table["turned"], game.to_act) == ("S", "KS", (1,))
    # the turned card is known to all, the rest of the dealer's hand to nobody else
    assert "KS" not in json.dumps(game.view(1)["zones"])
    for seat, text in [(1, "play AH"), (2, "play 2H"), (3, "play 2D"), (0, "play 2S")]:
        game.act(seat, text)
    assert game.view(None)["table"]["tricks"] == [1, 0] and game.to_act == (0,)


def test_whist_var_1_no_trump_rule_lets_the_suit_led_win() -> None:
    game = cardcore.new_game(GAME_NAME, 4, rules=["WHIST-VAR-1"], deck=stacked(one_suit_each()))
    assert game.rules == (RULE_NAME,)
    assert (game.view(0)["table"]["trump"], game.view(0)["table"]["turned"]) == (None, "KS")
    for seat, text in [(1, "play AH"), (2, "play 2H"), (3, "play 2D"), (0, "play 2S")]:
        game.act(seat, text)
    assert game.view(None)["table"]["tricks"] == [0, 1] and game.to_act == (1,)


def test_whist_play_1_must_follow_suit_and_errors_name_the_rule() -> None:
    game = cardcore.new_game(GAME_NAME, 4, deck=stacked(one_suit_each()), seed=1)
    game.act(1, "play AH")
    assert game.view(2)["legal"] == ["play 2H"]
    with pytest.raises(cardcore.IllegalActionError, match=r"follow the suit led \(WHIST-PLAY-1\)"):
        game.act(2, "play 3C")
    with pytest.raises(cardcore.IllegalActionError, match=r"does not hold AS \(WHIST-PLAY-1\)"):
        game.act(2, "play AS")
    with pytest.raises(cardcore.NotationError, match="CORE-NOTATION"):
        game.act(2, "play 2")
    with pytest.raises(cardcore.IllegalActionError, match="CORE-TURN-1"):
        game.act(3, "play 2D")
    assert game.version == 1


def test_option_bounds_are_enforced() -> None:
    with pytest.raises(cardcore.OptionError, match="at least 1"):
        cardcore.new_game(GAME_NAME, 4, options={"target": 0})
    with pytest.raises(cardcore.OptionError, match="at most 13"):
        cardcore.new_game(GAME_NAME, 4, options={"target": 14})
    with pytest.raises(cardcore.OptionError, match="CORE-SEAT-2"):
        cardcore.new_game(GAME_NAME, 3)


def test_events_per_seat_trick_won_and_hand_scored() -> None:
    seen: list[dict[str, Any]] = []
    game = cardcore.new_game(
        GAME_NAME,
        4,
        seed=5,
        options={"target": 1},
        subscribers=[(Event, lambda e: seen.append(e.to_json()), 1)],
    )
    cardcore.play(game, [cardcore.RandomAgent(s) for s in range(4)])
    slugs = [e["event"] for e in seen]
    assert slugs[:2] == ["game-started", "cards-dealt"] and slugs[-1] == "game-ended"
    assert slugs.count("whist-docs-trick-won") == 13 and slugs.count("action-applied") == 52
    scored = [e for e in seen if e["event"] == "whist-docs-hand-scored"]
    assert len(scored) == 1 and sum(scored[0]["tricks"]) == 13
    assert game.result is not None
    assert scored[0]["totals"] == [game.result.scores[0], game.result.scores[1]]


def test_position_round_trip_between_hands_and_mid_trick() -> None:
    game = cardcore.new_game(GAME_NAME, 4, seed=3)
    drive(game, 1, lambda g: g.history() != [])
    assert game.view(None)["table"]["dealer"] == 1
    for _ in range(2):
        text = game.position()
        again = cardcore.new_game(GAME_NAME, 4, position=text, seed=9)
        for seat in (0, 1, 2, 3, None):
            mine, theirs = again.view(seat), game.view(seat)
            assert {**mine, "version": 0} == {**theirs, "version": 0}
        assert again.history() == game.history() and again.position() == text
        drive(game, 2, lambda g: len(g.view(None)["zones"][TRICK]["cards"]) == 2)


def test_save_load_replay_and_clone() -> None:
    game = cardcore.new_game(GAME_NAME, 4, seed=8, rules=[RULE_NAME], options={"target": 13})
    drive(game, 4, lambda g: g.version == 70)
    twin = game.clone()
    loaded = cardcore.load(json.dumps(game.save(key=b"k")), key=b"k")
    replayed = cardcore.replay(json.dumps(game.record()))
    for other in (twin, loaded, replayed):
        assert other.version == 70 and other.rules == (RULE_NAME,)
        assert all(other.view(s) == game.view(s) for s in range(4))
    drive(twin, 5, lambda g: g.result is not None)
    assert game.version == 70 and game.result is None


def test_house_rule_mistakes_are_named_before_the_deal() -> None:
    @hookimpl
    def wrong_argument(cardd: Card) -> str:
        return ""

    module = types.ModuleType("whist_docs_typo")
    module.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="WHIST-TEST-1", name="whist-docs.typo", game=GAME_NAME, summary="typo"
    )
    module.whist_trupm = _no_trump  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "whist-docs.typo", module)
    try:
        with pytest.raises(cardcore.PluginError, match="did you mean 'whist_trump'"):
            cardcore.new_game(GAME_NAME, 4, rules=["whist-docs.typo"])
        del module.whist_trupm
        module.whist_trump = wrong_argument  # type: ignore[attr-defined]
        cardcore.register("cardcore.rules", "whist-docs.typo", module)  # a second push
        try:
            with pytest.raises(cardcore.PluginError, match="no argument 'cardd'"):
                cardcore.new_game(GAME_NAME, 4, rules=["whist-docs.typo"])
        finally:
            cardcore.unregister("cardcore.rules", "whist-docs.typo")
    finally:
        cardcore.unregister("cardcore.rules", "whist-docs.typo")


def test_resign_makes_the_resigning_seats_partner_a_winner() -> None:
    """CORE-RESIGN-1 as documented (every other seat wins): the guide never says that a
    partnership game must override ``resign``, so seat 2 wins when its partner gives up."""
    game = cardcore.new_game(GAME_NAME, 4, seed=1)
    game.act(0, "resign")
    assert game.result is not None and game.result.winners == (1, 2, 3)


# --------------------------------------------------------------------------- tests: tools


def run_cli(args: list[str], stdin: str = "") -> tuple[int, str]:
    from cardcore import cli

    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out):
        patch.setattr("sys.stdin", io.StringIO(stdin))
        code = cli.main(args)
    return code, out.getvalue()


def test_cli_rules_list_and_simulate_in_the_registering_process() -> None:
    code, out = run_cli(["rules", GAME_NAME])
    assert code == 0 and "1 to 13" in out and RULE_NAME in out
    code, out = run_cli(["simulate", GAME_NAME, "--games", "3", "-o", "target=1", "--quiet"])
    assert code == 0
    code, _ = run_cli(["simulate", GAME_NAME, "--games", "1", "-p", "3"])
    assert code == 2


def test_cli_play_a_hand_from_piped_input(tmp_path: Any) -> None:
    record = tmp_path / "whist.json"
    args = ["play", GAME_NAME, "--seed", "1", "-o", "target=1", "--record", str(record)]
    code, out = run_cli(args, "play ZZ\n" + "#1\n" * 13)
    assert code == 0 and "not understood" in out and "game over (target reached)" in out
    assert cardcore.replay(record.read_text()).result is not None


def test_simulate_and_ismcts_play_the_registered_game() -> None:
    summary = cardcore.simulate(GAME_NAME, games=4, options={"target": 1}, seed=2)
    assert summary.players == 4 and summary.truncated == 0
    assert summary.wins[0] == summary.wins[2] and summary.wins[1] == summary.wins[3]
    search = cardcore.simulate(
        GAME_NAME,
        games=1,
        agents=["ismcts:iterations=10", "random", "random", "random"],
        options={"target": 1},
    )
    assert search.reasons == {"target reached": 1}


def test_rl_aec_env_passes_the_pettingzoo_api_test() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test  # type: ignore[import-untyped]

    from cardcore.rl import aec_env

    env = aec_env(GAME_NAME, 4, options={"target": 1})
    env.reset(seed=3)
    obs, _, _, _, _ = env.last()
    assert (
        obs is not None
        and obs["action_mask"].shape == (13,)
        and int(obs["action_mask"].sum()) == 13
    )
    with pytest.warns(UserWarning):
        api_test(aec_env(GAME_NAME, 4, options={"target": 1}), num_cycles=30)


# --------------------------------------------------------------------------- findings


def test_cli_play_shows_the_cards_of_the_current_trick() -> None:
    # seed 1: seat 0 deals, the bots at seats 1-3 play before the human's first prompt
    code, out = run_cli(["play", GAME_NAME, "--seed", "1", "--no-record"], "quit\n")
    assert code == 0
    first_panel = out.split("legal:")[0]
    assert "trick: " in first_panel


def test_a_game_name_is_refused_or_its_positions_read_back() -> None:
    import attrs

    try:
        info = attrs.evolve(GAME, name="my whist")
    except cardcore.PluginError:
        return
    module = game_module()
    module.GAME = info  # type: ignore[attr-defined]
    cardcore.register("cardcore.games", "my whist", module)
    try:
        game = cardcore.new_game("my whist", 4, seed=1)
        again = cardcore.new_game("my whist", 4, position=game.position(), seed=1)
        assert again.view(0)["zones"] == game.view(0)["zones"]
    finally:
        cardcore.unregister("cardcore.games", "my whist")


def test_two_view_fields_of_one_name_are_refused() -> None:
    with pytest.raises(cardcore.PluginError):
        GameInfo("dup", "dup", 2, 2, fields=(ViewField("a", "int"), ViewField("a", "str")))


def test_simulate_counts_a_partnership_win_as_a_share_as_the_guide_says() -> None:
    """docs/plugin-guide/game.rst, Partnerships: "a win shared by k seats as 1/k to each ...
    seats 0 and 1 (two teams) add up to half the games"."""
    summary = cardcore.simulate(GAME_NAME, games=4, options={"target": 1}, seed=2)
    assert summary.wins[0] + summary.wins[1] == summary.games / 2
    assert summary.wins[0] == summary.wins[2] and summary.wins[1] == summary.wins[3]


def test_rl_score_rewards_need_a_game_s_own_encoding_as_rl_rst_says() -> None:
    """docs/rl.rst, Rewards: "with the generic encoding ``rewards="score"`` is refused with an
    OptionError that says so"."""
    pytest.importorskip("pettingzoo")
    from cardcore.rl import aec_env

    with pytest.raises(cardcore.OptionError, match="no score reward"):
        aec_env(GAME_NAME, 4, rewards="score", options={"target": 1})
    assert len(aec_env(GAME_NAME, options={"target": 1}).possible_agents) == 4  # its fewest


def test_rl_generic_observation_leaves_json_fields_out_as_the_guide_says() -> None:
    """docs/plugin-guide/game.rst: "``str`` and ``json`` fields reach an observation only through
    a game's own encoding"."""
    pytest.importorskip("numpy")
    from cardcore.rl import observe

    game = cardcore.new_game(GAME_NAME, 4, seed=1)
    text = game.position()
    assert "totals=[0,0]" in text
    ahead = cardcore.new_game(GAME_NAME, 4, position=text.replace("totals=[0,0]", "totals=[4,0]"))
    assert ahead.view(0)["table"]["totals"] == [4, 0]
    mine, theirs = observe(game, 0)["observation"], observe(ahead, 0)["observation"]
    assert list(mine) == list(theirs)  # totals are a json field here
