"""Review of 40dc653, f27a604 and 03c9676 (2026-12-20, late).

The changes: ``turns.next_seat``/``seats_from`` validating ``skip`` and ``direction``; Tonk's
``rounds_played`` counting void deals through ``state.past``; the testing kit's sampled-position
probe (``cardcore.testing._sampled``) playing on as ISMCTS does and telling the game's own
fault from a sample's; ISMCTS wrapping a search hook's failure as a ``PluginError``;
``cardcore._names.marked``; RL ``progress_by_round``.

Plain tests pin the claims that hold; strict xfails show what is still wrong. No test depends
on what a random deal holds: the games here are fixed-deck games, or properties that hold for
any deal (checked over fixed seeds).
"""

from __future__ import annotations

import io
import random
import types
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import pytest
from attrs import frozen

import cardcore
from cardcore import (
    Action,
    ArgumentError,
    Card,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    RuleInfo,
    Ruleset,
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
from cardcore.rl import aec_env
from cardcore.testing import check_game
from cardcore.web._requests import WebError, _seat_name
from cardcore_tonk.encoding import TonkEncoding
from cardcore_tonk.melds import DealVerdict
from cardcore_tonk.search import rounds_played as tonk_rounds

# -- 1. turns -------------------------------------------------------------------------------------


def test_skip_takes_numpy_seats_and_refuses_bools_and_non_seats() -> None:
    assert turns.next_seat(0, 4, skip=np.array([1, 2], dtype=np.int64)) == 3
    assert turns.seats_from(0, 4, skip=[np.int32(3)]) == (0, 1, 2)
    for skip in ([True], [np.bool_(True)], [1.0], np.array([1.5]), [4], [-1]):
        for call in (turns.next_seat, turns.seats_from):
            with pytest.raises(ArgumentError, match="skip must hold seats from 0 to 3"):
                call(0, 4, skip=skip)


@pytest.mark.parametrize("direction", [0, 2, -2, True, 1.0])
def test_direction_other_than_one_or_minus_one_is_refused(direction: Any) -> None:
    for call in (turns.next_seat, turns.seats_from):
        with pytest.raises(ArgumentError, match="direction"):
            call(0, 4, direction=direction)


def test_every_seat_skipped_as_documented() -> None:
    with pytest.raises(ValueError, match="every seat"):
        turns.next_seat(0, 4, skip={0, 1, 2, 3})
    assert turns.seats_from(0, 4, skip=range(4)) == ()
    assert turns.seats_from(1, 4, direction=-1, skip=frozenset({2})) == (1, 0, 3)


def test_zero_dimensional_numpy_skip_is_refused_as_an_argument_error() -> None:
    with pytest.raises(ArgumentError):
        turns.next_seat(0, 4, skip=np.array(1))


def test_a_first_seat_outside_the_table_is_refused_as_skip_seats_are() -> None:
    with pytest.raises(ArgumentError):
        turns.seats_from(4, 4)


# -- 2. Tonk rounds_played counts void deals ---------------------------------------------------

TONK_RULES = [
    "tonk.deal-shows-every-hand",
    "tonk.double-needs-spread",
    "tonk.hit-blocks-drop",
    "tonk.must-lay-down",
    "tonk.natural-49-50",
    "tonk.no-upcard",
    "tonk.quiet-round-any-turns",
    "tonk.stock-out-discard-only",
    "tonk.void-deal-counts",
]


_DEALS = [0]  # deals judged since the last reset: every other one is void


def _void_rule() -> types.ModuleType:
    """A deal judge that voids (and redeals) every other deal it judges, the first included:
    void deals mixed with played hands whatever the cards (reset ``_DEALS`` per game)."""

    def judge(hands: Sequence[Sequence[int]], points: Sequence[int]) -> DealVerdict | None:
        _DEALS[0] += 1
        if _DEALS[0] % 2 == 0:
            return None
        return DealVerdict("misdeal", None, (0,) * len(hands), redeal=True)

    name = "tonk.review-late-void"
    mod = types.ModuleType(name)
    mod.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="REVIEW-LATE-VOID", name=name, game="tonk", summary="review: void deals"
    )
    mod.tonk_deal_judge = hookimpl(lambda: judge)  # type: ignore[attr-defined]
    return mod


@pytest.fixture
def void_rule() -> Iterator[str]:
    mod = _void_rule()
    cardcore.register("cardcore.rules", mod.RULE.name, mod)
    _DEALS[0] = 0
    try:
        yield mod.RULE.name
    finally:
        cardcore.unregister("cardcore.rules", mod.RULE.name)


def _play_monotone(game: cardcore.Game, rng: random.Random) -> list[int]:
    counts = [tonk_rounds(game.logic, game.state)]
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(legal[rng.randrange(len(legal))])
        counts.append(tonk_rounds(game.logic, game.state))
    return counts


@pytest.mark.parametrize("rule", [None, *TONK_RULES])
def test_tonk_rounds_played_never_decreases_also_from_positions(
    rule: str | None, void_rule: str
) -> None:
    voids = 0
    for players, hands, seed in [(2, 1, 1), (3, 3, 2), (4, 2, 3)]:
        rules = [void_rule] + ([rule] if rule else [])
        options = {"hands": hands, "max_players": 4}
        _DEALS[0] = 0
        game = cardcore.new_game("tonk", players, rules=rules, options=options, seed=seed)
        rng = random.Random(seed)
        positions: list[str] = []
        counts = [tonk_rounds(game.logic, game.state)]
        while not game.is_over:
            legal = game.legal_actions(game.to_act[0])
            game.apply(legal[rng.randrange(len(legal))])
            counts.append(tonk_rounds(game.logic, game.state))
            if game.version % 3 == 0:
                positions.append(game.position())
        assert counts == sorted(counts)
        assert counts[-1] == len(game.state.past) >= game.state.hand_no
        voids += len(game.state.past) - game.state.hand_no
        for text in positions[:: max(1, len(positions) // 4)]:
            again = cardcore.new_game(
                "tonk", players, rules=rules, options=options, position=text, seed=seed
            )
            start = tonk_rounds(again.logic, again.state)
            assert start == again.state.hand_no  # a position holds no past
            more = _play_monotone(again, random.Random(seed))
            assert more == sorted(more)
            assert more[-1] >= again.state.hand_no
    if rule != "tonk.void-deal-counts":
        assert voids > 0  # a void deal was dealt: the count could have gone wrong


def test_ismcts_plays_tonk_with_void_deals(void_rule: str) -> None:
    game = cardcore.new_game("tonk", 2, rules=[void_rule], options={"hands": 3}, seed=4)
    agent = cardcore.load_agent("ismcts")(seed=1, iterations=30)
    chosen = 0
    while not game.is_over and chosen < 6:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        action = agent.choose(game.view(seat), legal)
        assert action in legal
        chosen += len(legal) > 1
        game.apply(action)
    assert chosen


# -- 3. the kit's sampled-position probe; 4. ISMCTS wrapping a hook's failure ---------------------

DECK = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S")
STOCK, PILE = 0, 1


@frozen
class PlayCard(Action):
    card: Card
    verb: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card}"


@frozen
class Deal(Action):
    verb: ClassVar[str] = "deal"

    def notation(self) -> str:
        return "deal"


class LateState(GameState):
    __slots__ = ("between", "leader", "rota", "tally", "won")
    _mutable = ("zones", "rota", "tally", "won")
    between: bool  # a round ended: the trick's winner deals the next
    leader: int
    rota: list[int]  # who leads each round: not in the view, blank in a sample
    tally: list[int]  # a per-seat count the view does not show: blank in a sample
    won: list[int]


class LateLogic(GameLogic[LateState, PlayCard | Deal]):
    """Rounds of one trick of one card a seat from a hand of two, a card dealt to each seat
    per round while the stock lasts. The round
    and its leader follow from the view (the pile, ``leader``); the hidden slots are only read
    where a subclass says."""

    action_types = (PlayCard, Deal)
    position_fields = ("to_act", "between", "leader", "rota", "tally", "won")
    raising: ClassVar[BaseException | None] = None  # what rollout_action raises, if anything

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 8

    def blank_state(self, players: int, options: Mapping[str, Any]) -> LateState:
        hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
        lay = Layout.of([ZoneSpec("stock"), ZoneSpec("pile", None, Visibility.EVERYONE), *hands])
        state = LateState(players, options, Zones(lay))
        state.leader, state.rota, state.tally, state.won = 0, [], [], [0] * players
        state.between = False
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> LateState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        state.rota, state.tally = list(range(players)), [0] * players
        fill_stock(state, STOCK, cards)
        deal_round_robin(state, STOCK, [2 + s for s in range(players)], 2)
        return state

    def legal_actions(self, state: LateState, seat: int) -> tuple[PlayCard | Deal, ...]:
        if state.between:
            return (Deal(seat),)
        return tuple(PlayCard(seat, c) for c in state.zones.cards[2 + seat])

    def next_leader(self, state: LateState, winner: int) -> int:
        return winner

    def apply(self, state: LateState, action: PlayCard | Deal, emit: Emit | None) -> None:
        z, seat, players = state.zones, action.seat, state.players
        if isinstance(action, Deal):  # the next round
            if len(z.cards[STOCK]) >= players:
                deal_round_robin(state, STOCK, [2 + s for s in range(players)], 1)
            state.between = False
            state.leader = self.next_leader(state, seat)
            state.to_act = (state.leader,)
            return
        z.move(2 + seat, PILE, z.cards[2 + seat].index(action.card))
        pile = z.cards[PILE]
        if len(pile) % players:
            state.to_act = (turns.next_seat(seat, players),)
            return
        winner = (state.leader + tricks.trick_winner(pile[len(pile) - players :])) % players
        state.won[winner] += 1
        if any(z.cards[2 + s] for s in range(players)):
            state.between, state.to_act = True, (winner,)
        else:
            turns.end_game(state, turns.winners_by(state.won, lowest=False), state.won, "done")

    def rounds_played(self, state: LateState) -> int:
        return len(state.zones.cards[PILE]) // state.players

    def rollout_action(
        self, state: LateState, seat: int, legal: Sequence[PlayCard], rng: random.Random
    ) -> PlayCard | None:
        if type(self).raising is not None:
            raise type(self).raising
        return None

    def table(self, state: LateState, seat: int | None) -> dict[str, Any]:
        return {"won": list(state.won), "leader": state.leader, "between": state.between}


class RotaLogic(LateLogic):
    """The next round's leader comes from ``rota`` (blank in a sample): read only by the deal
    after a round has ended, where a search agent's rollouts and descents stop."""

    def next_leader(self, state: LateState, winner: int) -> int:
        return state.rota[(winner + 1) % len(state.rota)]


class TallyLogic(LateLogic):
    """Its utility reads ``tally``, blank in a sample: no seat's score there."""

    def utility(self, state: LateState) -> tuple[float, ...]:
        return tuple(float(t) for t in state.tally)


class CountLogic(LateLogic):
    """Its apply counts each seat's cards in ``tally``, blank in a sample: the game's own
    apply fails there, raw (an IndexError), and the core names the game."""

    def apply(self, state: LateState, action: PlayCard | Deal, emit: Emit | None) -> None:
        if isinstance(action, PlayCard):
            state.tally[action.seat] += 1
        super().apply(state, action, emit)


class TwoFaultLogic(LateLogic):
    """Two faults in its rollout policy: it reads ``tally`` (blank in a sample: an IndexError
    there at once), and it raises on its own whenever the pile holds three cards."""

    def rollout_action(
        self, state: LateState, seat: int, legal: Sequence[PlayCard | Deal], rng: random.Random
    ) -> PlayCard | Deal | None:
        if len(state.zones.cards[PILE]) == 3:
            msg = "the policy's own fault"
            raise RuntimeError(msg)
        return legal[state.tally[seat] % len(legal)]


def _game_module(name: str, logic: type[LateLogic]) -> types.ModuleType:
    @hookimpl
    def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        return DECK

    @hookimpl
    def create_logic(ruleset: Ruleset) -> LateLogic:
        return logic(ruleset)

    info = GameInfo(
        name,
        "review game: rounds of one trick of one card each",
        2,
        4,
        fields=(
            ViewField("won", "per-seat", "tricks won", of="int"),
            ViewField("leader", "seat", "the seat that led the trick"),
            ViewField("between", "bool", "a round ended: its winner deals"),
        ),
    )
    module = types.ModuleType(name)
    vars(module).update(GAME=info, build_deck=build_deck, create_logic=create_logic)
    return module


GAMES = {
    "reviewlate": LateLogic,
    "reviewrota": RotaLogic,
    "reviewtally": TallyLogic,
    "reviewcount": CountLogic,
    "reviewtwofaults": TwoFaultLogic,
}


@pytest.fixture(scope="module", autouse=True)
def _games() -> Iterator[None]:
    for name, logic in GAMES.items():
        cardcore.register("cardcore.games", name, _game_module(name, logic))
    try:
        yield
    finally:
        for name in GAMES:
            cardcore.unregister("cardcore.games", name)


@pytest.fixture
def raising() -> Iterator[type[LateLogic]]:
    try:
        yield LateLogic
    finally:
        LateLogic.raising = None


def _mid_game(name: str) -> tuple[cardcore.Game, int]:
    """A game in its second round, the seat to act holding two cards (the fixed deck: no
    random deal read), and that seat."""
    game = cardcore.new_game(name, 2, seed=1)
    while game.version < 3:  # two cards, then the deal
        game.apply(game.legal_actions(game.to_act[0])[0])
    assert not game.state.between and len(game.legal_actions(game.to_act[0])) == 2
    return game, game.to_act[0]


def test_kit_passes_the_plain_late_game() -> None:
    report = check_game("reviewlate", players=2, games=3, sample=1.0, checks=["positions"])
    assert report.failures == [] and report.positions > 0


def test_ismcts_searches_the_rota_game_from_samples_without_failing() -> None:
    game, seat = _mid_game("reviewrota")
    agent = cardcore.load_agent("ismcts")(seed=2, iterations=40)
    assert agent.choose(game.view(seat), game.legal_actions(seat)) in game.legal_actions(seat)
    first = cardcore.new_game("reviewrota", 2, seed=1)  # where the kit fails it: version 1
    first.apply(first.legal_actions(0)[0])
    legal = first.legal_actions(1)
    assert len(legal) == 2 and agent.choose(first.view(1), legal) in legal
    assert agent.last_iterations == 40


def test_kit_does_not_fail_a_game_ismcts_searches_without_failing() -> None:
    report = check_game(
        "reviewrota", players=2, games=3, sample=1.0, checks=["positions"], strict=False
    )
    assert report.failures == []


def test_ismcts_fails_on_a_utility_it_cannot_score_in_samples() -> None:
    game, seat = _mid_game("reviewtally")
    agent = cardcore.load_agent("ismcts")(seed=2, iterations=10)
    with pytest.raises(cardcore.PluginError, match="reviewtally's search hooks failed"):
        agent.choose(game.view(seat), game.legal_actions(seat))


def test_kit_reports_a_utility_ismcts_cannot_score_in_samples() -> None:
    report = check_game(
        "reviewtally", players=2, games=3, sample=1.0, checks=["positions"], strict=False
    )
    assert report.failures


def test_ismcts_lets_keyboard_interrupt_through_unchanged(raising: type[LateLogic]) -> None:
    game, seat = _mid_game("reviewlate")
    agent = cardcore.load_agent("ismcts")(seed=2, iterations=10)
    raising.raising = KeyboardInterrupt()
    with pytest.raises(KeyboardInterrupt):
        agent.choose(game.view(seat), game.legal_actions(seat))


def test_ismcts_passes_a_cardcore_error_of_the_game_unwrapped(raising: type[LateLogic]) -> None:
    game, seat = _mid_game("reviewlate")
    agent = cardcore.load_agent("ismcts")(seed=2, iterations=10)
    error = cardcore.CardcoreError("the game's own words")
    raising.raising = error
    with pytest.raises(cardcore.CardcoreError) as info:
        agent.choose(game.view(seat), game.legal_actions(seat))
    assert info.value is error


def test_ismcts_wraps_a_raw_hook_error_once_and_stays_usable(raising: type[LateLogic]) -> None:
    game, seat = _mid_game("reviewlate")
    legal = game.legal_actions(seat)
    agent = cardcore.load_agent("ismcts")(seed=2, iterations=10)
    raising.raising = ZeroDivisionError("hook")
    with pytest.raises(cardcore.PluginError) as info:
        agent.choose(game.view(seat), legal)
    assert "reviewlate's search hooks failed" in str(info.value)
    assert "ZeroDivisionError" in str(info.value)
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    raising.raising = None
    assert agent.choose(game.view(seat), legal) in legal
    assert agent.last_iterations == 10


def test_ismcts_passes_the_core_s_plugin_error_from_apply_once() -> None:
    game, seat = _mid_game("reviewcount")
    agent = cardcore.load_agent("ismcts")(seed=2, iterations=10)
    with pytest.raises(cardcore.PluginError) as info:
        agent.choose(game.view(seat), game.legal_actions(seat))
    text = str(info.value)
    assert "reviewcount" in text and "IndexError" in text
    assert "search hooks failed" not in text  # not wrapped a second time


def test_kit_tells_a_sample_s_blank_slot_from_the_game_s_own_fault() -> None:
    report = check_game(
        "reviewcount", players=2, games=2, sample=1.0, checks=["positions"], strict=False
    )
    assert report.failures
    assert all("blank in every sample" in f for f in report.failures)
    assert not any("the game's own fault" in f for f in report.failures)


def test_kit_blames_the_game_only_when_it_fails_the_same_way_from_its_own_position() -> None:
    report = check_game(
        "reviewtwofaults", players=2, games=2, sample=1.0, checks=["positions"], strict=False
    )
    blank = [f for f in report.failures if "IndexError" in f]
    assert blank  # the sample's failure is reported
    assert not any("the game's own fault" in f for f in blank)


# -- 5. names ending with a page's mark -----------------------------------------------------------

ORDINARY = [
    "Ann (Sr.)",
    "Bob (2)",
    "Ann (Jr) (2)",
    "王小明",
    "王 (你)",
    "김민준 (너)",
    "محمد (أنت)",
    "श्री (आप)",
    "Đặng Thị (Mẹ)",
    "Ivan (Ваня)",
    "Γιώργος (εσύ)",
    "Λου (υου)",
    "Ann 😀",
    "😀 (you) 😀",
    "👩\u200d👩\u200d👧 (fam)",
    "Jo (bot)",
    "Ann (botanist)",
    "Ann (robot)",
    "Ann (seat)",
    "Ann (seat one)",
    "Tom (2nd seat)",
    "Sam (yours)",
    "Kim (y0u)",
    "Bob (you).",
    "Ann (ran out)",
]


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_names_in_many_scripts_are_not_marked(name: str) -> None:
    assert marked(name) is None
    assert _seat_name(name) == name


@pytest.mark.parametrize(
    ("name", "mark"),
    [
        ("Bob (tіme ran out)", "(time ran out)"),  # Cyrillic і
        ("Bob (BOT golf-greedy:seed=3)", "(bot …)"),
        ("Bob ( seat 12 )", "(seat N)"),
        ("Bob (sеat 1)", "(seat N)"),  # Cyrillic е
        ("Bob (seat ３)", "(seat N)"),  # a fullwidth digit
        ("Bob (yo\u200bu)", "(you)"),
        ("Bob (you)\u2060", "(you)"),
        ("Bob ﴾you﴿", "(you)"),
        ("Bob（ＹＯＵ）", "(you)"),
        ("Bob (уοu)", "(you)"),  # Cyrillic у, Greek ο
    ],
)
def test_marks_written_otherwise_are_found(name: str, mark: str) -> None:
    assert marked(name) == mark
    with pytest.raises(WebError):  # (a format character is refused before the mark)
        _seat_name(name)


def _cli_play_error(name: str, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> tuple[int, str]:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    try:
        status = cli.main(["play", "golf", "--seed", "1", "--no-record", "--name", name])
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, capsys.readouterr().err


def test_cli_play_refuses_a_name_ending_with_a_seat_mark(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = _cli_play_error("Bob (Seat 1)", monkeypatch, capsys)
    assert status == 2 and "ends with '(seat N)'" in err  # the terminal's "you are Bob (seat 0)"


def test_cli_play_does_not_say_the_terminal_adds_a_bot_mark(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = _cli_play_error("Ann (bot random)", monkeypatch, capsys)
    assert status == 2 and "(bot" in err
    assert "the table adds it itself" not in err


# -- 6. RL progress_by_round with void deals -----------------------------------------------------


def _tonk_rewards(rules: Sequence[str], seed: int) -> list[tuple[str, float, bool]]:
    _DEALS[0] = 0  # both runs see the same void deals
    env = aec_env("tonk", 3, options={"hands": 3}, rules=list(rules), rewards="score")
    env.reset(seed=seed)
    rng = random.Random(seed)
    out = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        out.append((agent, reward, terminated or truncated))
        if terminated or truncated:
            env.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
    return out


@pytest.mark.parametrize("rule", [None, "tonk.void-deal-counts", "tonk.natural-49-50"])
def test_tonk_score_rewards_by_round_equal_every_action_with_void_deals(
    rule: str | None, void_rule: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = [void_rule] + ([rule] if rule else [])
    by_round = _tonk_rewards(rules, 5)
    monkeypatch.setattr(TonkEncoding, "progress_by_round", False)
    every = _tonk_rewards(rules, 5)
    assert by_round == every
    assert any(r for _, r, _ in by_round)  # something was paid: the comparison can fail
