"""Review of ``git diff 052e4ed..HEAD -- src plugins docs benchmarks`` (2026-12-20).

The changes: ``turns.seats_from(skip=)``, ``turns.team`` and ``skip`` refused clearly; the
testing kit's ``positions`` check playing on from each sampled position
(``cardcore.testing._sampled._play_on``); RL encodings declaring ``progress_by_round`` so
``rewards="score"`` reads the standing only as ``rounds_played`` grows or the game ends
(Golf, Tonk); seat names ending with a mark the pages add refused (``cardcore._names.marked``).

Plain tests pin the claims that hold; strict xfails show what is still wrong. Every game
here either ignores the deal or compares two runs of one fixed seed with each other.
"""

from __future__ import annotations

import io
import random
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import pytest
from attrs import frozen

import cardcore
import cardcore.testing._sampled as sampled
from cardcore import (
    Action,
    ArgumentError,
    Card,
    Emit,
    EndMatch,
    GameInfo,
    GameLogic,
    GameState,
    IllegalActionError,
    Layout,
    Resign,
    RuleInfo,
    Ruleset,
    Suit,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    cli,
    hookimpl,
    parse_cards,
    tricks,
    turns,
)
from cardcore._names import marked
from cardcore.dealing import deal_round_robin, fill_stock
from cardcore.rl import Config, Match
from cardcore.testing import check_game
from cardcore.web._requests import WebError, _seat_name
from cardcore_golf.encoding import GolfEncoding
from cardcore_tonk.encoding import TonkEncoding
from cardcore_tonk.melds import DealVerdict

# -- helpers -------------------------------------------------------------------------------------


def _rewards(
    match: Match, pick: Callable[[Sequence[Action]], Action], steps: int
) -> list[list[float]]:
    """The rewards collected at the start and after each of *steps* decisions."""
    out = [match.collect()]
    for _ in range(steps):
        if match.over:
            break
        match.act(pick(match.legal(match.seat)))
        out.append(match.collect())
    return out


def _first(legal: Sequence[Action]) -> Action:
    return legal[0]


# -- 1. turns: seats_from(skip=) and team ------------------------------------------------------


def test_seats_from_skip_and_team_as_documented() -> None:
    assert turns.seats_from(2, 4) == (2, 3, 0, 1)
    assert turns.seats_from(3, 4, skip={1}) == (3, 0, 2)
    assert turns.seats_from(0, 4, direction=-1, skip={1}) == (0, 3, 2)
    assert turns.team(1, 4) == (1, 3) and turns.team(0, 6, teams=3) == (0, 3)
    assert turns.team(3, 4, teams=4) == (3,) and turns.team(2, 4, teams=1) == (0, 1, 2, 3)
    # docs/api.rst: seat 1 sits out, 3 led, then 0 and 2; the ace (index 1) is seat 0's
    order = turns.seats_from(3, 4, skip={1})
    assert order[tricks.trick_winner(parse_cards("10H AH KH"))] == 0
    assert tricks.trick_winner(parse_cards("10H AH 2S KH"), trump=Suit.SPADES) == 2


@pytest.mark.parametrize("skip", [5, "12", b"1", None, iter([1])])
def test_skip_that_is_no_collection_is_refused_by_both(skip: Any) -> None:
    for call in (turns.seats_from, turns.next_seat):
        with pytest.raises(ArgumentError, match="skip must be a collection of seats"):
            call(0, 4, skip=skip)


@pytest.mark.parametrize(
    ("seat", "players", "teams"), [(4, 4, 2), (-1, 4, 2), (0, 4, 3), (0, 4, 0), (0, 4, True)]
)
def test_team_refuses_a_seat_out_of_range_or_teams_not_dividing(
    seat: int, players: int, teams: Any
) -> None:
    with pytest.raises(ArgumentError):
        turns.team(seat, players, teams=teams)


def test_seats_from_takes_a_numpy_array_of_seats_as_next_seat_does() -> None:
    skip = np.array([1, 2])
    assert turns.next_seat(0, 4, skip=skip) == 3
    assert turns.seats_from(0, 4, skip=skip) == (0, 3)


@pytest.mark.parametrize("skip", [["1"], {4}, {-1}])
def test_skip_holding_no_seats_is_refused(skip: Any) -> None:
    with pytest.raises(ArgumentError):
        turns.seats_from(0, 4, skip=skip)


@pytest.mark.parametrize("direction", [0, 2])
def test_seats_from_gives_every_seat_once_or_refuses_the_direction(direction: int) -> None:
    try:
        order = turns.seats_from(0, 4, direction=direction)
    except ArgumentError:
        return
    assert sorted(order) == [0, 1, 2, 3]


# -- 2. RL: progress_by_round ----------------------------------------------------------------


def _misdeal_rule(redeal: bool) -> types.ModuleType:
    """A Tonk deal judge as DealVerdict documents it: seat 0 pays seat 1 one stake on every
    deal; with *redeal* the deal is void and dealt again (``units`` need not be zero)."""

    def judge(hands: Sequence[Sequence[int]], points: Sequence[int]) -> DealVerdict:
        units = (-1, 1) + (0,) * (len(hands) - 2)
        return DealVerdict("misdeal", None, units, redeal=redeal)

    name = f"tonk.review-misdeal-{'void' if redeal else 'hand'}"
    mod = types.ModuleType(name)
    mod.RULE = RuleInfo(  # type: ignore[attr-defined]
        id=f"REVIEW-MISDEAL-{int(redeal)}", name=name, game="tonk", summary="review: a fee"
    )
    mod.tonk_deal_judge = hookimpl(lambda: judge)  # type: ignore[attr-defined]
    return mod


@pytest.fixture
def misdeal_rules() -> Iterator[None]:
    void, hand = _misdeal_rule(True), _misdeal_rule(False)
    cardcore.register("cardcore.rules", void.RULE.name, void)
    cardcore.register("cardcore.rules", hand.RULE.name, hand)
    try:
        yield
    finally:
        cardcore.unregister("cardcore.rules", hand.RULE.name)
        cardcore.unregister("cardcore.rules", void.RULE.name)


def _tonk_rewards(rule: str, by_round: bool, monkeypatch: pytest.MonkeyPatch) -> list[list[float]]:
    with monkeypatch.context() as m:
        m.setattr(TonkEncoding, "progress_by_round", by_round)
        config = Config("tonk", 3, rules=[rule], options={"hands": 2}, rewards="score")
        return _rewards(Match(config, seed=1), _first, 3)


@pytest.mark.usefixtures("misdeal_rules")
def test_a_hand_settled_at_the_deal_is_paid_when_dealt_by_round_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    by_round = _tonk_rewards("tonk.review-misdeal-hand", True, monkeypatch)
    every = _tonk_rewards("tonk.review-misdeal-hand", False, monkeypatch)
    assert by_round == every
    assert by_round[0] == [-1.0, 1.0, 0.0]  # the first deal, paid with the first reward
    assert by_round[1] == [-1.0, 1.0, 0.0]  # the second deal (a deal action) ended the session


@pytest.mark.usefixtures("misdeal_rules")
def test_read_after_every_action_a_void_deal_that_pays_is_paid_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    every = _tonk_rewards("tonk.review-misdeal-void", False, monkeypatch)
    assert every == [[-1.0, 1.0, 0.0]] * 4  # each deal action deals a void deal, paid


@pytest.mark.usefixtures("misdeal_rules")
def test_a_void_deal_that_pays_is_paid_at_once_by_round_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    by_round = _tonk_rewards("tonk.review-misdeal-void", True, monkeypatch)
    every = _tonk_rewards("tonk.review-misdeal-void", False, monkeypatch)
    assert by_round == every


GOLF_MORE = [  # the rules and layouts tests/rl/test_progress_by_round.py leaves out
    ({"layout": 8}, ()),
    ({"layout": 10}, ()),
    ({"layout": 4}, ("golf.diagonal-pairs",)),
    ({}, ("golf.ender-penalty-lowest-literal",)),
    ({}, ("golf.ender-penalty-ties",)),
    ({}, ("golf.final-stock-only",)),
    ({"layout": 4}, ("golf.knock-final-stock-only",)),
    ({"layout": "4h"}, ("golf.no-cancelling",)),
    ({}, ("golf.one-eyed-jacks",)),
    ({}, ("golf.pairs-anywhere",)),
    ({"layout": 4}, ("golf.peek-nearest",)),
    ({"layout": 9}, ("golf.remove-triples",)),
    ({}, ("golf.reveal-different-columns",)),
    ({}, ("golf.reveal-same-column",)),
]


def _golf_run(
    options: Mapping[str, Any],
    rules: Sequence[str],
    by_round: bool,
    end: Callable[[Match], None] | None,
    steps: int,
    max_actions: int | None = None,
) -> list[list[float]]:
    GolfEncoding.progress_by_round = by_round
    config = Config(
        "golf",
        3,
        options={"rounds": 2, **options},
        rules=list(rules),
        rewards="score",
        max_actions=max_actions,
    )
    match = Match(config, seed=7)
    rng = random.Random(7)
    out = _rewards(match, lambda legal: legal[rng.randrange(len(legal))], steps)
    if end is not None and not match.over:
        end(match)
        out.append(match.collect())
    return out


@pytest.mark.parametrize(("options", "rules"), GOLF_MORE)
def test_golf_by_round_equals_every_action_for_the_other_rules_and_layouts(
    options: dict[str, Any], rules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(GolfEncoding, "progress_by_round", True)
    by_round = _golf_run(options, rules, True, None, 400)
    every = _golf_run(options, rules, False, None, 400)
    assert by_round == every
    assert any(any(r) for r in by_round)  # a round was scored: the comparison can fail


@pytest.mark.parametrize(
    "end",
    [
        pytest.param(lambda m: m.act(Resign(m.seat)), id="resign"),
        pytest.param(lambda m: m.act(EndMatch()), id="host-ends"),
        pytest.param(None, id="truncated"),
    ],
)
def test_golf_by_round_equals_every_action_when_the_match_stops_mid_round(
    end: Callable[[Match], None] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(GolfEncoding, "progress_by_round", True)
    bound = 70 if end is None else None  # the action bound, in the second round
    by_round = _golf_run({}, (), True, end, 70, bound)
    every = _golf_run({}, (), False, end, 70, bound)
    assert by_round == every
    assert any(any(r) for r in by_round)


# -- 3. the kit plays on from sampled positions --------------------------------------------------

DECK = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S")
STOCK, PILE = 0, 1


@frozen
class PlayCard(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


class TrickState(GameState):
    __slots__ = ("leader", "played_by", "won")
    _mutable = ("zones", "played_by", "won")
    leader: int
    played_by: list[int]  # the seats of the trick so far: not in the view
    won: list[int]


class TrickLogic(GameLogic[TrickState, PlayCard]):
    """Tricks of one card a seat; the winner follows from the leader, which the view shows."""

    action_types = (PlayCard,)
    position_fields = ("to_act", "leader", "played_by", "won")

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 2 * players

    def blank_state(self, players: int, options: Mapping[str, Any]) -> TrickState:
        hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
        lay = Layout.of([ZoneSpec("stock"), ZoneSpec("pile", None, Visibility.EVERYONE), *hands])
        state = TrickState(players, options, Zones(lay))
        state.leader, state.played_by, state.won = 0, [], [0] * players
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> TrickState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_round_robin(state, STOCK, [2 + s for s in range(players)], 2)
        return state

    def legal_actions(self, state: TrickState, seat: int) -> tuple[PlayCard, ...]:
        return tuple(PlayCard(seat, c) for c in state.zones.cards[2 + seat])

    def apply(self, state: TrickState, action: PlayCard, emit: Emit | None) -> None:
        z, seat, players = state.zones, action.seat, state.players
        z.move(2 + seat, PILE, z.cards[2 + seat].index(action.card))
        state.played_by.append(seat)
        pile = z.cards[PILE]
        if len(pile) % players:
            state.to_act = (turns.next_seat(seat, players),)
            return
        winner = (state.leader + tricks.trick_winner(pile[len(pile) - players :])) % players
        state.won[winner] += 1
        state.played_by, state.leader = [], winner
        if any(z.cards[2 + s] for s in range(players)):
            state.to_act = (winner,)
        else:
            turns.end_game(state, turns.winners_by(state.won, lowest=False), state.won, "done")

    def table(self, state: TrickState, seat: int | None) -> dict[str, Any]:
        return {"won": list(state.won), "leader": state.leader}


class PolicyLogic(TrickLogic):
    """Its rollout policy reads who played what in the trick so far: blank in a sample."""

    def rollout_action(
        self, state: TrickState, seat: int, legal: Sequence[PlayCard], rng: random.Random
    ) -> PlayCard | None:
        pile = state.zones.cards[PILE]
        trick = pile[len(pile) - len(pile) % state.players :]
        who = dict(zip(trick, state.played_by, strict=True))  # card -> the seat that played it
        if (seat + 2) % state.players in who.values():  # a partner played: play low under them
            return min(legal, key=lambda a: int(a.card.rank))
        return None


class RefusingLogic(TrickLogic):
    """Refuses its own legal actions: every second card of a trick, wherever it started."""

    def apply(self, state: TrickState, action: PlayCard, emit: Emit | None) -> None:
        if len(state.zones.cards[PILE]) % state.players == 1:
            raise IllegalActionError("the game's own fault", action=action)
        super().apply(state, action, emit)


def _game_module(name: str, logic: type[TrickLogic]) -> types.ModuleType:
    @hookimpl
    def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        return DECK

    @hookimpl
    def create_logic(ruleset: Ruleset) -> TrickLogic:
        return logic(ruleset)

    info = GameInfo(
        name,
        "review game: two tricks of one card each",
        2,
        4,
        fields=(
            ViewField("won", "per-seat", "tricks won", of="int"),
            ViewField("leader", "seat", "the seat that led the trick"),
        ),
    )
    module = types.ModuleType(name)
    vars(module).update(GAME=info, build_deck=build_deck, create_logic=create_logic)
    return module


GAMES = {"reviewtricks": TrickLogic, "reviewpolicy": PolicyLogic, "reviewrefuses": RefusingLogic}


@pytest.fixture(scope="module", autouse=True)
def _games() -> Iterator[None]:
    for name, logic in GAMES.items():
        cardcore.register("cardcore.games", name, _game_module(name, logic))
    try:
        yield
    finally:
        for name in GAMES:
            cardcore.unregister("cardcore.games", name)


def test_kit_passes_a_game_that_works_out_the_trick_from_the_view() -> None:
    report = check_game("reviewtricks", players=3, games=4, sample=1.0, checks=["positions"])
    assert report.failures == [] and report.positions > 0


@pytest.mark.parametrize(("game", "players"), [("spit", 2), ("speed", 2)])
def test_kit_plays_on_in_real_time_games_without_false_failures(
    game: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[int] = []
    real = sampled._play_on

    def spy(report: Any, world: Any, *args: Any) -> None:
        before = world.version
        real(report, world, *args)
        played.append(world.version - before)

    monkeypatch.setattr(sampled, "_play_on", spy)
    report = check_game(game, players=players, games=2, sample=0.5, checks=["positions"], seed=3)
    assert report.failures == []
    assert played and max(played) > 0  # it did play on from the samples


def test_ismcts_fails_on_a_rollout_policy_reading_a_slot_blank_in_samples() -> None:
    game = cardcore.new_game("reviewpolicy", 3, seed=1)
    game.apply(game.legal_actions(0)[0])
    agent = cardcore.load_agent("ismcts")(seed=3, iterations=10)
    with pytest.raises(cardcore.PluginError, match=r"reviewpolicy's search hooks failed.*zip"):
        agent.choose(game.view(1), game.legal_actions(1))


def test_kit_reports_a_rollout_policy_that_fails_in_sampled_worlds() -> None:
    report = check_game("reviewpolicy", players=3, games=4, sample=1.0, strict=False)
    assert report.failures


def test_kit_does_not_blame_samples_for_a_game_failing_from_its_own_positions() -> None:
    report = check_game(
        "reviewrefuses", players=3, games=2, sample=1.0, checks=["positions"], strict=False
    )
    assert report.failures  # the game's own failure is reported
    assert not any("blank in every sample" in f for f in report.failures)


# -- 4. names ending with a page's mark ----------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["Bob (yours)", "Leo (you-know-who)", "Miyou", "Sam (yoyo)", "(you) Bob", "Ann (out)"]
)
def test_reasonable_names_are_not_marked(name: str) -> None:
    assert marked(name) is None
    assert _seat_name(name) == name


@pytest.mark.parametrize("name", ["Bob (you)", "Bob ⁽you⁾", "Ann (TIME RAN OUT)", "Bob (уоu)"])
def test_the_lobby_refuses_a_marked_name(name: str) -> None:
    with pytest.raises(WebError, match="must not end with"):
        _seat_name(name)


@pytest.mark.parametrize("tail", ["\u2800", "\u3164", "\u034f", "\ufe0f"])
def test_a_mark_followed_by_an_invisible_character_is_refused(tail: str) -> None:
    with pytest.raises(WebError):
        _seat_name("Bob (you)" + tail)


@pytest.mark.parametrize("name", ["Bob (yo\u03c5)", "Bob \u2768you\u2769"])
def test_a_mark_written_with_look_alikes_is_refused(name: str) -> None:
    assert marked(name) == "(you)"


def test_cli_play_refuses_a_name_ending_with_time_ran_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    argv = ["play", "golf", "--seed", "1", "--no-record", "--name"]
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    try:
        status = cli.main([*argv, "Bob (Time Ran Out)"])
    except SystemExit as exc:
        status = int(exc.code or 0)
    err = capsys.readouterr().err
    assert status == 2 and "ends with '(time ran out)'" in err
