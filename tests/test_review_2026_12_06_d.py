"""Review of 2244c04a (ISMCTS prior safeguard, conformance kit skips/dedupe) and c98aa808
(notation.rst on out-of-range numbers).

A small draw-and-discard game (as in tests/test_kit_audit_2026_12_06.py, written again here so
this file stands alone) and a few broken copies are registered in place. Strict xfails are
where the new code or docs do not hold (see each reason).
"""

from __future__ import annotations

import random
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
    CardDiscarded,
    CardDrawn,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    OptionError,
    TurnPassed,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore import testing as kit
from cardcore.dealing import deal_round_robin, draw_card, fill_stock
from cardcore.search import ISMCTSAgent
from cardcore.testing import Report, check_game
from cardcore.turns import end_game, next_seat, winners_by

STOCK, DISCARD = 0, 1
DECK = tuple(
    Card.parse(t)
    for t in ["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H", "AD", "2D", "3D", "4D", "AC", "2C"]
)
KW: dict[str, Any] = {"players": 2, "games": 3, "seed": 0, "strict": False}


def hand(seat: int) -> int:
    return 2 + seat


@frozen
class Discard(Action):
    card: Card
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {self.card}"


@cache
def layout(players: int) -> Layout:
    hands = [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of([ZoneSpec("stock"), ZoneSpec("discard", None, Visibility.TOP), *hands])


class RVState(GameState):
    __slots__ = ()
    _mutable = ("zones",)


class RVLogic(GameLogic[RVState, Discard]):
    """Deal 3 each from 14 cards; discard and draw until the stock is out; most hearts win."""

    action_types = (Discard,)
    position_fields = ("to_act",)

    def deck(self, players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        return DECK

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 100

    def blank_state(self, players: int, options: Mapping[str, Any]) -> RVState:
        return RVState(players, options, Zones(layout(players)))

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> RVState:
        state = RVState(players, options, Zones(layout(players)))
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        deal_round_robin(state, STOCK, [hand(s) for s in range(players)], 3)
        if emit is not None:
            emit(CardsDealt(tuple(3 for _ in range(players))))
        return state

    def legal_actions(self, state: RVState, seat: int) -> tuple[Discard, ...]:
        if seat not in state.to_act:
            return ()
        return tuple(Discard(seat, c) for c in sorted(state.zones.cards[hand(seat)], key=str))

    def rule_for(self, state: RVState, action: Discard) -> tuple[str, str]:
        return "RV-PLAY-1", f"seat {action.seat} may discard a card it holds"

    def apply(self, state: RVState, action: Discard, emit: Emit | None) -> None:
        z, seat = state.zones, action.seat
        z.move(hand(seat), DISCARD, z.cards[hand(seat)].index(action.card), mask=ALL)
        if emit is not None:
            emit(CardDiscarded(seat, action.card))
        drawn = draw_card(state, STOCK, hand(seat))
        if drawn is not None and emit is not None:
            emit(CardDrawn(seat, "stock", drawn, visible_to=1 << seat))
        if not z.cards[STOCK]:
            raw = [
                sum(c.suit is not None and c.suit.letter == "H" for c in z.cards[hand(s)])
                for s in range(state.players)
            ]
            made = self.score_round(state, raw)
            end_game(state, winners_by(made, lowest=False), made, "stock empty")
            return
        state.to_act = (nxt := next_seat(seat, state.players),)
        if emit is not None:
            emit(TurnPassed(nxt))

    def table(self, state: RVState, seat: int | None) -> dict[str, Any]:
        return {"stock": len(state.zones.cards[STOCK])}


FIELDS = (ViewField("stock", "int", "Cards left in the stock."),)


class ViewLeak(RVLogic):
    """Seat 1's first card in every table: a leak to seat 0 and to the spectator."""

    def table(self, state: RVState, seat: int | None) -> dict[str, Any]:
        other = state.zones.cards[hand(1)]
        return {"stock": len(state.zones.cards[STOCK]), "peek": str(other[0]) if other else ""}


class SeedView(RVLogic):
    def table(self, state: RVState, seat: int | None) -> dict[str, Any]:
        return {"stock": len(state.zones.cards[STOCK]), "seed": state.seed}


class OtherSeat(RVLogic):
    """Offers seat 0 its cards as actions of seat 1 (an action of another seat)."""

    def legal_actions(self, state: RVState, seat: int) -> tuple[Discard, ...]:
        own = super().legal_actions(state, seat)
        if seat == 0 and own:
            return (*own, Discard(1, own[0].card))
        return own


class LoseThenStop(RVLogic):
    """Loses a card (conservation fails in every game), and raises SystemExit only in a game
    with the kit's veto-only rule: the per-game checks all finish before the stop."""

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> RVState:
        if any(r.id == "KIT-VETO-1" for r in self.ruleset.rules):
            raise SystemExit(2)
        return super().new_state(players, options, cards, seed, emit)

    def apply(self, state: RVState, action: Discard, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        z = state.zones
        if len(z.cards[DISCARD]) == 2:
            z.cards[DISCARD].pop(0)
            z.seen[DISCARD].pop(0)


class RandomPolicy(RVLogic):
    """A rollout policy that draws its choice from the rng it is given."""

    def rollout_action(
        self, state: RVState, seat: int, legal: Any, rng: random.Random
    ) -> Action | None:
        return legal[rng.randrange(len(legal))]


class LastPolicy(RVLogic):
    """A deterministic rollout policy: always the last legal action."""

    def rollout_action(
        self, state: RVState, seat: int, legal: Any, rng: random.Random
    ) -> Action | None:
        return legal[-1]


def _extra(name: str, kind: str) -> tuple[ViewField, ...]:
    return (*FIELDS, ViewField(name, kind, "a field of a broken copy"))


GAMES: dict[str, tuple[Any, tuple[ViewField, ...]]] = {
    "ok": (RVLogic, FIELDS),
    "viewleak": (ViewLeak, _extra("peek", "str")),
    "seedview": (SeedView, _extra("seed", "int")),
    "otherseat": (OtherSeat, FIELDS),
    "losestop": (LoseThenStop, FIELDS),
    "randpolicy": (RandomPolicy, FIELDS),
    "lastpolicy": (LastPolicy, FIELDS),
}


def game_module(name: str, logic: Any, fields: tuple[ViewField, ...]) -> Any:
    import types

    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = GameInfo(name, "draw and discard", 2, 4, version="1.0.0", fields=fields)

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return logic(ruleset)

    module.create_logic = create_logic
    return module


@pytest.fixture(scope="module", autouse=True)
def _games() -> Iterator[None]:
    for short, (logic, fields) in GAMES.items():
        cardcore.register(
            "cardcore.games", f"rvd-{short}", game_module(f"rvd-{short}", logic, fields)
        )
    yield
    for short in GAMES:
        cardcore.unregister("cardcore.games", f"rvd-{short}")


def run(short: str, **kwargs: Any) -> Report:
    return check_game(f"rvd-{short}", **{**KW, **kwargs})


# --- conformance kit: what still holds --------------------------------------------------------


def test_correct_game_passes_and_skips_nothing() -> None:
    report = run("ok")
    assert report.ok and report.skipped == {}, (report.failures, report.skipped)
    assert set(report.checks) == kit.ALL_CHECKS


def test_check_game_still_catches_the_seed_handed_to_agents() -> None:
    """The default checks (agents among them) still inspect what the agents are handed."""
    report = run("seedview")
    assert not report.ok
    assert any(
        f.startswith("view handed to seat") and "carries the seed" in f for f in report.failures
    )
    assert any(f.startswith("view of seat") and "carries the seed" in f for f in report.failures)
    agents = kit.check_agents("rvd-seedview", **KW)
    assert not agents.ok and agents.leaks > 0
    assert all(f.startswith("view handed to seat") for f in agents.failures), agents.failures


def test_single_checks_report_only_their_own() -> None:
    conservation = kit.check_conservation("rvd-seedview", **KW)
    assert conservation.ok and conservation.failures == [], conservation.failures
    views = kit.check_views("rvd-seedview", **KW)
    assert not views.ok and any("carries the seed" in f for f in views.failures)
    assert not any(f.startswith("view handed to seat") for f in views.failures), views.failures
    clone = check_game("rvd-seedview", checks={"clone"}, **KW)
    assert clone.ok and clone.failures == []


def test_action_of_another_seat_is_still_caught() -> None:
    for report in (run("otherseat"), kit.check_agents("rvd-otherseat", **KW)):
        assert not report.ok
        assert any("an action of seat 1" in f for f in report.failures), report.failures


def test_spy_agent_without_check_still_reports_a_stuck_seat() -> None:
    game = cardcore.new_game("rvd-ok", 2, seed=3)
    report = Report("rvd-ok")
    agent = kit.SpyAgent(0, 1, report, check=False)
    with pytest.raises(Exception):  # noqa: B017 - the kit's Abort
        agent.choose(game.view(0), ())
    assert report.failed == 1 and "no legal action" in report.failures[0]


@pytest.mark.parametrize("kwargs", [{"samples_per_game": 0}, {"sample": 0.0}, {"sample": 1e-12}])
def test_unsampled_twins_and_clone_are_skipped(kwargs: dict[str, Any]) -> None:
    report = run("ok", **kwargs)
    assert report.ok and report.twins == 0
    for check in ("twins", "clone"):
        assert check not in report.checks and "no sampled point" in report.skipped[check]
    assert {"views", "rejections", "conservation"} <= set(report.checks)


def test_full_every_larger_than_games_still_samples_game_zero() -> None:
    report = run("ok", full_every=50, games=2, sample=1.0)
    assert report.ok and report.twins == run("ok", games=1, sample=1.0).twins > 0
    assert "twins" not in report.skipped and "clone" not in report.skipped


def test_games_zero_is_refused() -> None:
    with pytest.raises(OptionError):
        run("ok", games=0)


def test_realtime_game_unsampled_is_skipped_sampled_is_run() -> None:
    few = {"games": 1, "strict": False, "checks": {"twins", "clone", "conservation"}}
    none = check_game("spit", samples_per_game=0, **few)
    assert none.ok and set(none.skipped) == {"twins", "clone"}
    some = check_game("spit", samples_per_game=2, **few)
    assert some.ok and some.skipped == {} and some.twins > 0


def test_check_stopped_early_by_base_exception_is_skipped_not_finished() -> None:
    report = run("losestop", checks={"vetoes"})
    assert not report.ok and report.raw == 1
    assert report.checks == () and report.skipped["vetoes"].startswith("not finished")


# --- conformance kit: findings ------------------------------------------------------------------


def test_base_exception_late_does_not_mark_finished_checks_not_finished() -> None:
    # conservation fails in every game; SystemExit comes only in the vetoes check, after the
    # per-game checks (conservation, determinism, ...) have all run to the end
    report = run("losestop")
    assert report.cards_lost == 3 and report.games == 3
    assert any("the checks stopped" in f for f in report.failures)
    assert "conservation" not in report.skipped, report.skipped["conservation"]
    assert "conservation" in report.checks


def test_same_view_leak_at_a_seat_and_the_spectator_is_shown_once() -> None:
    report = run("viewleak", games=1)
    leaks = [f for f in report.failures if "shows cards it does not know" in f]
    assert report.failed >= 2
    assert len(leaks) == 1, leaks


# --- ISMCTS prior safeguard -----------------------------------------------------------------------


def _start() -> tuple[Mapping[str, Any], tuple[Action, ...]]:
    return _start_of("rvd-lastpolicy")


def _start_of(name: str) -> tuple[Mapping[str, Any], tuple[Action, ...]]:
    game = cardcore.new_game(name, 2, seed=5)
    return game.view(0), game.legal_actions(0)


def test_prior_keeps_policy_choice_with_one_visit_each() -> None:
    """Two iterations over three actions: each visited action has one rollout, so the policy's
    choice (always the last action here) stands at any prior > 0; prior=0 takes the most
    visited (ties by mean), which is not always the policy's."""
    view, legal = _start()
    assert len(legal) == 3
    for s in range(8):
        for prior in (1.0, 0.001, 100.0):
            assert ISMCTSAgent(seed=s, iterations=2, prior=prior).choose(view, legal) == legal[-1]
    plain = [ISMCTSAgent(seed=s, iterations=2, prior=0).choose(view, legal) for s in range(8)]
    assert any(a != legal[-1] for a in plain), plain


def test_prior_with_depth_and_reuse_keeps_policy_choice_with_few_visits() -> None:
    view, legal = _start()
    for s in range(4):
        for kw in ({"depth": 1}, {"reuse": 2}, {"depth": 1, "reuse": 2}):
            agent = ISMCTSAgent(seed=s, iterations=2, **kw)
            assert agent.choose(view, legal) == legal[-1], (s, kw)


def test_prior_keeps_policy_choice_never_visited() -> None:
    view, legal = _start_of("rvd-randpolicy")
    # the agent takes the policy's root choice with random.Random(0); this policy draws
    default = legal[random.Random(0).randrange(len(legal))]
    # two iterations: at most two of the three actions get one rollout each
    got = [ISMCTSAgent(seed=s, iterations=2).choose(view, legal) for s in range(12)]
    assert all(a == default for a in got), [str(a) for a in got]


def test_same_views_same_order_give_same_choices() -> None:
    """search-agents.rst: one stream runs on from decision to decision, so the same agent asked
    the same views in the same order (or a fresh agent each time) repeats its choices."""
    game = cardcore.new_game("golf", 2, options={"rounds": 1}, seed=11)
    asked: list[tuple[Mapping[str, Any], tuple[Action, ...]]] = []
    while len(asked) < 3 and not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        asked.append((game.view(seat), legal))
        game.apply(legal[0])
    runs = []
    for _ in range(2):
        agent = ISMCTSAgent(seed=4, iterations=12)
        runs.append([agent.choose(v, lg) for v, lg in asked])
    assert runs[0] == runs[1]
    fresh = [
        [ISMCTSAgent(seed=4, iterations=12).choose(v, lg) for v, lg in asked] for _ in range(2)
    ]
    assert fresh[0] == fresh[1]
    assert fresh[0][0] == runs[0][0]


# --- notation.rst: out-of-range numbers -----------------------------------------------------------


def _tonk() -> tuple[cardcore.Game, int, str]:
    game = cardcore.new_game("tonk", 2, seed=1)
    seat = game.to_act[0]
    game.act(seat, "draw")
    card = next(str(a).split()[1] for a in game.legal_actions(seat) if str(a).startswith("discard"))
    return game, seat, card


def _refused(game: cardcore.Game, seat: int, text: str, error: type[Exception]) -> None:
    before = game.save()
    with pytest.raises(error):
        game.act(seat, text)
    assert game.save() == before


def test_notation_out_of_range_numbers_as_documented() -> None:
    game, seat, card = _tonk()
    _refused(game, seat, f"hit 9 {card}", cardcore.IllegalActionError)
    _refused(game, seat, f"hit 09 {card}", cardcore.IllegalActionError)  # leading zero
    _refused(game, seat, f"hit 0 {card}", cardcore.NotationError)
    _refused(game, seat, f"hit 00 {card}", cardcore.NotationError)
    golf = cardcore.new_game("golf", 2, seed=1)
    _refused(golf, golf.to_act[0], "flip 6", cardcore.IllegalActionError)
    _refused(golf, golf.to_act[0], "flip 006", cardcore.IllegalActionError)
    spit = cardcore.new_game("spit", 2, seed=1)
    for s in (0, 1):
        spit.act(s, "ready")
    for text in ("play 6 L", "play 0 L", "play 05 L"):  # single digits 1 to 5 only
        _refused(spit, spit.to_act[0], text, cardcore.NotationError)


def test_golf_position_numbers_read_up_to_15_digits() -> None:
    """notation.rst: Golf's positions are any number of at most 15 digits: 15 digits are read
    then illegal, 16 are malformed (the review found the cap undocumented: now stated)."""
    golf = cardcore.new_game("golf", 2, seed=1)
    _refused(golf, golf.to_act[0], "flip " + "9" * 15, cardcore.IllegalActionError)
    _refused(golf, golf.to_act[0], "flip " + "9" * 16, cardcore.NotationError)
