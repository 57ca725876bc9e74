"""Adversarial review of commits 7e1c9502 and 2888f215 (2026-12-07e).

Attacks the four claims of the two fixes: the testing kit's late costly-check points (one in
each doubling span from a game's 64th action), the clone check failing at once on a mutable
slot shared with clones, the blame of a wrong hook answer on the plugin that gave it, and a
``CardcoreError`` in a game's own ``deck()`` / a ``legal_actions`` failing under the default
``parse_action`` being named rightly. Bugs found are ``xfail(strict=True)`` tests.

The small games here are variants of the core's real-time test game
(``tests/plugins/racegame.py``), registered under their own names for one test each.
"""

from __future__ import annotations

import collections
import contextlib
import json
import random
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

import cardcore
import cardcore.testing
import cardcore.testing._checker as kit_checker
from cardcore import (
    Card,
    CardcoreError,
    GameInfo,
    NotationError,
    Option,
    PluginError,
    RuleInfo,
    Zones,
    hookimpl,
)
from cardcore.dealing import fill_stock
from tests.plugins import racegame as rg

# -- helpers -------------------------------------------------------------------------------------

LONG = GameInfo(
    name="rv07e",
    summary="review test game: the race game, more rounds allowed",
    min_players=2,
    max_players=2,
    realtime=True,
    options=(Option("rounds", 1, "rounds to play", int, minimum=1, maximum=400),),
    fields=rg.GAME.fields,
)


def game_module(
    name: str, logic_cls: type, *, build_deck: Callable[..., Any] | None = None
) -> types.ModuleType:
    """A game plugin module: the race game's rules under *logic_cls*."""
    module = types.ModuleType("rv07e_game_" + name)
    module.GAME = GameInfo(  # type: ignore[attr-defined]
        name=name,
        summary=LONG.summary,
        min_players=2,
        max_players=2,
        realtime=True,
        options=LONG.options,
        fields=LONG.fields,
    )

    def create_logic(ruleset: Any) -> Any:
        return logic_cls(ruleset)

    module.create_logic = hookimpl(create_logic)  # type: ignore[attr-defined]
    if build_deck is not None:
        module.build_deck = hookimpl(build_deck)  # type: ignore[attr-defined]
    return module


@contextlib.contextmanager
def registered_game(module: types.ModuleType) -> Iterator[str]:
    name = module.GAME.name
    cardcore.register("cardcore.games", name, module)
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.games", name)


@contextlib.contextmanager
def house_rules(game: str, *specs: tuple[str, str, dict[str, Any]]) -> Iterator[None]:
    """Register house rules of *game*: each ``(entry-point name, rule ID, hooks)``."""
    done: list[str] = []
    try:
        for name, rule_id, hooks in specs:
            module = types.ModuleType("rv07e_rule_" + name.replace(".", "_").replace("-", "_"))
            module.RULE = RuleInfo(id=rule_id, name=name, game=game, summary="review test")  # type: ignore[attr-defined]
            for hook, fn in hooks.items():
                setattr(module, hook, fn)
            cardcore.register("cardcore.rules", name, module)
            done.append(name)
        yield
    finally:
        for name in reversed(done):
            cardcore.unregister("cardcore.rules", name)


def state_variant(make_extra: Callable[[], Any], *, fault_at: int | None = None) -> type:
    """Race logic whose state has an ``extra`` slot left out of ``_mutable`` (made by
    *make_extra*) and a ``moves`` count; from the *fault_at*-th action on, ``extra`` is a list
    written in place at every action (a real sharing bug from then on)."""

    class State(rg.RaceState):
        __slots__ = ("extra", "moves")
        _mutable = ("zones", "sheet")

        def __init__(self, players: int, options: Mapping[str, Any], zones: Zones) -> None:
            super().__init__(players, options, zones)
            self.extra = make_extra()
            self.moves = 0

    class Logic(rg.RaceLogic):
        def new_state(self, players, options, cards, seed, emit):  # type: ignore[no-untyped-def]
            st = State(players, options, Zones(rg.LAYOUT))
            st.seed = seed
            fill_stock(st, rg.STOCK, cards)
            self._deal(st, emit)
            return st

        def apply(self, state, action, emit):  # type: ignore[no-untyped-def]
            super().apply(state, action, emit)
            state.moves += 1
            if fault_at is not None and state.moves == fault_at:
                state.extra = []
            if fault_at is not None and state.moves > fault_at:
                state.extra.append(str(action))

    return Logic


def kit(name: str, **kw: Any) -> cardcore.testing.Report:
    kw.setdefault("games", 1)
    kw.setdefault("seed", 3)
    kw.setdefault("checks", {"clone"})
    return cardcore.testing.check_game(name, strict=False, **kw)


@pytest.fixture
def clone_points(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The actions (counted from 1) after which the kit ran its clone check."""
    seen: list[int] = []
    real = kit_checker.check_clone

    def spy(report: Any, game: Any, rng: Any, pending: Any) -> None:
        seen.append(game.state.moves if hasattr(game.state, "moves") else game.version)
        real(report, game, rng, pending)

    monkeypatch.setattr(kit_checker, "check_clone", spy)
    return seen


def spans(length: int) -> tuple[int, int]:
    """(doubling spans from 64 wholly inside actions 1..length, spans begun by then)."""
    whole = sum(1 for k in range(6, 40) if 2 ** (k + 1) - 1 <= length)
    begun = sum(1 for k in range(6, 40) if 2**k <= length)
    return whole, begun


def saved(game: cardcore.Game) -> str:
    return json.dumps(game.save(), sort_keys=True, default=str)


# -- 1. late costly-check points -----------------------------------------------------------------


@pytest.mark.parametrize("fault_at", [64, 300])
def test_a_fault_that_appears_only_late_in_a_long_game_is_caught(fault_at: int) -> None:
    """Early budget: one point (action 1, sample=1); the fault starts at action *fault_at*.
    The same game without the fault (same seed, same plays) is long enough that a whole
    doubling span lies past the fault, so a late point must fall on it."""
    clean = game_module("rv07e-late", state_variant(tuple, fault_at=None))
    with registered_game(clean) as name:
        control = kit(name, options={"rounds": 160}, sample=1.0, samples_per_game=1)
    assert control.ok, control.failures
    whole_past = [
        k for k in range(6, 40) if 2**k >= fault_at and 2 ** (k + 1) - 1 <= control.actions
    ]
    assert whole_past, control.actions
    faulty = game_module("rv07e-late", state_variant(tuple, fault_at=fault_at))
    with registered_game(faulty) as name:
        report = kit(name, options={"rounds": 160}, sample=1.0, samples_per_game=1)
    assert not report.ok
    assert any("'extra'" in f for f in report.failures), report.failures


@pytest.mark.parametrize(("sample", "per_game"), [(0.0, 12), (0.25, 0)])
def test_no_late_points_when_sample_or_samples_per_game_is_zero(
    sample: float, per_game: int, clone_points: list[int]
) -> None:
    module = game_module("rv07e-zero", state_variant(tuple, fault_at=64))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 40}, sample=sample, samples_per_game=per_game)
    assert report.actions >= 128
    assert clone_points == []
    assert report.ok, report.failures
    assert "clone" in report.skipped


def test_a_game_shorter_than_64_actions_gets_only_its_sampled_points(
    clone_points: list[int],
) -> None:
    module = game_module("rv07e-short", state_variant(tuple))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 1}, sample=1.0, samples_per_game=12)
    assert report.actions < 64
    assert clone_points == list(range(1, min(12, report.actions) + 1))


def test_late_points_one_per_doubling_span_so_the_cost_grows_with_the_log(
    clone_points: list[int],
) -> None:
    module = game_module("rv07e-count", state_variant(tuple))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 300}, sample=1.0, samples_per_game=1)
    length = report.actions
    assert length >= 2048
    whole, begun = spans(length)
    late = clone_points[1:]
    assert clone_points[0] == 1
    assert whole <= len(late) <= begun, (length, clone_points)
    for point in late:  # one in each span
        assert point >= 64
    assert len({p.bit_length() for p in late}) == len(late), late


def test_default_settings_on_a_long_game_stay_logarithmic(clone_points: list[int]) -> None:
    module = game_module("rv07e-default", state_variant(tuple))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 300})
    _, begun = spans(report.actions)
    assert len(clone_points) <= 12 + begun
    assert len([p for p in clone_points if p >= 64]) >= spans(report.actions)[0]


def test_the_kit_result_and_points_are_the_same_in_two_runs(clone_points: list[int]) -> None:
    module = game_module("rv07e-twice", state_variant(tuple, fault_at=100))
    runs = []
    with registered_game(module) as name:
        for _ in range(2):
            clone_points.clear()
            report = kit(name, options={"rounds": 60}, games=2, seed=11)
            runs.append((report.ok, list(report.failures), report.actions, list(clone_points)))
    assert runs[0] == runs[1]


# -- 2. the clone check and shared mutable slots -------------------------------------------------


@pytest.mark.parametrize("make", [list, dict, set, collections.Counter, bytearray])
def test_a_shared_mutable_slot_fails_at_once_named(make: Callable[[], Any]) -> None:
    """Never written by any action: only the new check can see it."""
    module = game_module("rv07e-shared", state_variant(make))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 1}, sample=1.0)
    assert not report.ok
    assert any("shares the mutable slot(s) 'extra'" in f for f in report.failures)


def test_a_shared_deque_slot_fails_at_once_named() -> None:
    module = game_module("rv07e-deque", state_variant(collections.deque))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 1}, sample=1.0)
    assert any("shares the mutable slot(s) 'extra'" in f for f in report.failures)


@pytest.mark.parametrize(
    "make", [tuple, frozenset, lambda: None, lambda: (1, "a"), lambda: frozenset({1})]
)
def test_an_immutable_or_empty_slot_out_of_mutable_does_not_fail(
    make: Callable[[], Any],
) -> None:
    module = game_module("rv07e-immutable", state_variant(make))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 3}, sample=1.0)
    assert report.ok, report.failures


# -- 3. blame of a wrong hook answer -------------------------------------------------------------


def play_until_error(game: cardcore.Game, seed: int = 0) -> tuple[PluginError, str, int]:
    """Play random legal actions until one raises a PluginError; return it, the save and
    version from before that action."""
    rng = random.Random(seed)
    for _ in range(5000):
        assert not game.is_over, "the game ended without the wrong answer being refused"
        seat = game.to_act[0]
        before, version = saved(game), game.version
        try:
            game.apply(rng.choice(game.legal_actions(seat)))
        except PluginError as exc:
            return exc, before, version
    raise AssertionError("no error")


def assert_unchanged(game: cardcore.Game, before: str, version: int) -> None:
    assert game.version == version
    assert saved(game) == before
    cardcore.load(json.loads(before))  # every card accounted for


def none_scores(state: Any, scores: Any) -> Any:
    return None


def short_scores(state: Any, scores: Any) -> Any:
    return [1]


def other_short_scores(state: Any, scores: Any) -> Any:
    return [2]


@pytest.mark.parametrize(("none_id", "bad_id"), [("RV7E-A", "RV7E-B"), ("RV7E-B", "RV7E-A")])
def test_score_round_wrong_answer_is_blamed_on_its_rule_either_order(
    none_id: str, bad_id: str
) -> None:
    with house_rules(
        "golf",
        ("golf.rv7e-none", none_id, {"score_round": hookimpl(none_scores)}),
        ("golf.rv7e-bad", bad_id, {"score_round": hookimpl(short_scores)}),
    ):
        for order in (["golf.rv7e-none", "golf.rv7e-bad"], ["golf.rv7e-bad", "golf.rv7e-none"]):
            game = cardcore.new_game("golf", 2, rules=order, seed=5)
            exc, before, version = play_until_error(game)
            assert exc.plugin == "golf.rv7e-bad"
            assert "'golf.rv7e-bad'" in str(exc) and "[1]" in str(exc)
            assert_unchanged(game, before, version)


def test_score_round_two_wrong_rules_the_one_asked_first_is_blamed() -> None:
    """House rules are asked by rule ID, the last sorting first (docs/hooks.rst)."""
    with house_rules(
        "golf",
        ("golf.rv7e-one", "RV7E-A", {"score_round": hookimpl(short_scores)}),
        ("golf.rv7e-two", "RV7E-B", {"score_round": hookimpl(other_short_scores)}),
        ("golf.rv7e-none", "RV7E-C", {"score_round": hookimpl(none_scores)}),
    ):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.rv7e-one", "golf.rv7e-two", "golf.rv7e-none"], seed=5
        )
        exc, before, version = play_until_error(game)
        assert_unchanged(game, before, version)
    assert exc.plugin == "golf.rv7e-two"
    assert "[2]" in str(exc)


def test_score_round_refusal_lists_the_implementers_as_the_hooks_page_says() -> None:
    with house_rules(
        "golf",
        ("golf.rv7e-none", "RV7E-B", {"score_round": hookimpl(none_scores)}),
        ("golf.rv7e-bad", "RV7E-A", {"score_round": hookimpl(short_scores)}),
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.rv7e-none", "golf.rv7e-bad"], seed=5)
        exc, _, _ = play_until_error(game)
    assert "golf.rv7e-none" in str(exc), str(exc)


def no_awards(layout: Any, keys: Any) -> Any:
    return None


def short_awards(layout: Any, keys: Any) -> Any:
    return [1]


def same_short_awards(layout: Any, keys: Any) -> Any:
    return [1]


def zero_awards(layout: Any, keys: Any) -> Any:
    return [0] * len(keys)


@pytest.mark.parametrize("other", [no_awards, zero_awards])
def test_golf_round_awards_wrong_answer_blamed_on_its_rule(other: Callable[..., Any]) -> None:
    with house_rules(
        "golf",
        ("golf.rv7e-aw-bad", "RV7E-A", {"golf_round_awards": hookimpl(short_awards)}),
        ("golf.rv7e-aw-other", "RV7E-B", {"golf_round_awards": hookimpl(other)}),
    ):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.rv7e-aw-bad", "golf.rv7e-aw-other"], seed=5
        )
        exc, before, version = play_until_error(game)
        assert_unchanged(game, before, version)
    assert exc.plugin == "golf.rv7e-aw-bad"


def test_golf_round_awards_two_alike_wrong_answers_blame_nobody() -> None:
    with house_rules(
        "golf",
        ("golf.rv7e-aw-bad", "RV7E-A", {"golf_round_awards": hookimpl(short_awards)}),
        ("golf.rv7e-aw-bad2", "RV7E-B", {"golf_round_awards": hookimpl(same_short_awards)}),
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.rv7e-aw-bad", "golf.rv7e-aw-bad2"], seed=5)
        exc, before, version = play_until_error(game)
        assert_unchanged(game, before, version)
    assert exc.plugin is None, (exc.plugin, str(exc))


def test_golf_round_awards_two_alike_wrong_answers_leave_the_game_unchanged() -> None:
    with house_rules(
        "golf",
        ("golf.rv7e-aw-bad", "RV7E-A", {"golf_round_awards": hookimpl(short_awards)}),
        ("golf.rv7e-aw-bad2", "RV7E-B", {"golf_round_awards": hookimpl(same_short_awards)}),
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.rv7e-aw-bad", "golf.rv7e-aw-bad2"], seed=5)
        exc, before, version = play_until_error(game)
        assert_unchanged(game, before, version)
    assert exc.plugin not in ("golf.rv7e-aw-bad", "golf.rv7e-aw-bad2")  # neither alone


def no_scorer(layout: Any) -> Any:
    return None


def float_scorer(layout: Any) -> Any:
    return lambda keys, points: 2.5


@pytest.mark.parametrize(("none_id", "bad_id"), [("RV7E-A", "RV7E-B"), ("RV7E-B", "RV7E-A")])
def test_golf_scorer_score_blamed_on_the_rule_whose_scorer_ran(none_id: str, bad_id: str) -> None:
    with house_rules(
        "golf",
        ("golf.rv7e-sc-none", none_id, {"golf_scorer": hookimpl(no_scorer)}),
        ("golf.rv7e-sc-bad", bad_id, {"golf_scorer": hookimpl(float_scorer)}),
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.rv7e-sc-none", "golf.rv7e-sc-bad"], seed=5)
        exc, before, version = play_until_error(game)
        assert_unchanged(game, before, version)
    assert exc.plugin == "golf.rv7e-sc-bad"
    assert "2.5" in str(exc)


def none_logic(ruleset: Any) -> Any:
    return None


def wrong_logic(ruleset: Any) -> Any:
    return 42


@pytest.mark.parametrize(("none_id", "bad_id"), [("RV7E-A", "RV7E-B"), ("RV7E-B", "RV7E-A")])
def test_a_rules_create_logic_wrong_answer_is_blamed_on_it(none_id: str, bad_id: str) -> None:
    module = game_module("rv07e-cl", rg.RaceLogic)
    with (
        registered_game(module) as name,
        house_rules(
            name,
            ("rv07e-cl.none", none_id, {"create_logic": hookimpl(tryfirst=True)(none_logic)}),
            ("rv07e-cl.bad", bad_id, {"create_logic": hookimpl(tryfirst=True)(wrong_logic)}),
        ),
    ):
        for _ in range(2):  # the cached configuration says the same
            with pytest.raises(PluginError) as info:
                cardcore.new_game(name, 2, rules=["rv07e-cl.none", "rv07e-cl.bad"], seed=1)
            assert info.value.plugin == "rv07e-cl.bad"
            assert "house rule 'rv07e-cl.bad'" in str(info.value)


def test_the_games_own_wrong_create_logic_is_blamed_on_the_game() -> None:
    module = game_module("rv07e-clg", rg.RaceLogic)
    module.create_logic = hookimpl(lambda ruleset: "nope")  # type: ignore[attr-defined]
    with (
        registered_game(module) as name,
        house_rules(
            name,
            ("rv07e-clg.none", "RV7E-A", {"create_logic": hookimpl(tryfirst=True)(none_logic)}),
        ),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game(name, 2, rules=["rv07e-clg.none"], seed=1)
    assert info.value.plugin == name
    assert str(info.value).startswith(f"game {name!r}: create_logic")


def none_deck(players: int, options: Any) -> Any:
    return None


def empty_deck(players: int, options: Any) -> Any:
    return []


@pytest.mark.parametrize(("none_id", "bad_id"), [("RV7E-A", "RV7E-B"), ("RV7E-B", "RV7E-A")])
def test_build_deck_wrong_answer_blamed_on_the_rule_or_the_game(none_id: str, bad_id: str) -> None:
    module = game_module("rv07e-bd", rg.RaceLogic)
    with (
        registered_game(module) as name,
        house_rules(
            name,
            ("rv07e-bd.none", none_id, {"build_deck": hookimpl(none_deck)}),
            ("rv07e-bd.bad", bad_id, {"build_deck": hookimpl(empty_deck)}),
        ),
    ):
        with pytest.raises(PluginError) as info:
            cardcore.new_game(name, 2, rules=["rv07e-bd.none", "rv07e-bd.bad"], seed=1)
        assert info.value.plugin == "rv07e-bd.bad"
    game_bad = game_module("rv07e-bdg", rg.RaceLogic, build_deck=lambda players, options: ["7H"])
    with (
        registered_game(game_bad) as name,
        house_rules(name, ("rv07e-bdg.none", none_id, {"build_deck": hookimpl(none_deck)})),
    ):
        with pytest.raises(PluginError) as info:
            cardcore.new_game(name, 2, rules=["rv07e-bdg.none"], seed=1)
        assert info.value.plugin == name
        assert "rv07e-bdg.none" in str(info.value)  # the implementers are listed


# -- 4. deck() and parse_action ------------------------------------------------------------------


class BadDeckLogic(rg.RaceLogic):
    def deck(self, players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        return (Card.parse("ZZ"),)


class BadDeckCheckedLogic(BadDeckLogic):
    """As docs advise (GameLogic.require_cards: 'call it from validate')."""

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        super().validate(players, options)
        self.require_cards(players, options, 10)


def test_a_cardcore_error_in_the_games_own_deck_is_its_plugin_error() -> None:
    with (
        registered_game(game_module("rv07e-deck", BadDeckLogic)) as name,
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game(name, 2, seed=1)
    assert info.value.plugin == name
    assert "NotationError" in str(info.value) and "building its deck" in str(info.value)


def test_a_cardcore_error_in_deck_read_by_validate_is_the_games_plugin_error() -> None:
    with (
        registered_game(game_module("rv07e-deckv", BadDeckCheckedLogic)) as name,
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game(name, 2, seed=1)
    assert info.value.plugin == name


class BadLegalLogic(rg.RaceLogic):
    def legal_actions(self, state: Any, seat: int) -> Any:
        if sum(len(state.zones.cards[h]) for h in rg.HANDS) < 10:  # after the first play
            raise ValueError("rv07e boom")
        return super().legal_actions(state, seat)


class BadParseLogic(rg.RaceLogic):
    def parse_action(self, state: Any, seat: int, text: str) -> Any:
        raise ValueError("rv07e parse boom")


def first_play(game: cardcore.Game) -> None:
    acts = game.legal_actions(0) or game.legal_actions(1)
    game.apply(acts[0])


def test_legal_actions_failing_under_parse_action_is_named_so() -> None:
    with registered_game(game_module("rv07e-legal", BadLegalLogic)) as name:
        game = cardcore.new_game(name, 2, seed=1)
        first_play(game)
        before, version = saved(game), game.version
        with pytest.raises(PluginError) as info:
            game.act(0, "play 5H")
        assert info.value.plugin == name
        assert "in legal_actions (read by parse_action)" in str(info.value)
        assert game.version == version and saved(game) == before


def test_the_games_own_parse_action_failing_is_still_named_parse_action() -> None:
    with registered_game(game_module("rv07e-parse", BadParseLogic)) as name:
        game = cardcore.new_game(name, 2, seed=1)
        with pytest.raises(PluginError) as info:
            game.act(0, "play 5H")
    assert info.value.plugin == name
    text = str(info.value)
    assert "in parse_action" in text and "legal_actions" not in text


def test_bad_text_for_a_healthy_game_stays_the_texts_fault() -> None:
    with registered_game(game_module("rv07e-text", rg.RaceLogic)) as name:
        game = cardcore.new_game(name, 2, seed=1)
        for text in ("play ZZ", "fly 5H"):
            with pytest.raises(CardcoreError) as info:
                game.act(0, text)
            assert not isinstance(info.value, PluginError)
            assert isinstance(info.value, NotationError | cardcore.IllegalActionError)


# -- more: adjacent cases ------------------------------------------------------------------------


def test_a_correct_long_game_passes_every_check_at_its_late_points(
    clone_points: list[int],
) -> None:
    """Past ``event_actions`` (1,500) a late point checks views untracked: no false alarm."""
    with registered_game(game_module("rv07e-full", state_variant(tuple))) as name:
        report = kit(name, options={"rounds": 200}, checks=cardcore.testing.ALL_CHECKS)
    assert report.ok, report.failures
    assert max(clone_points) >= 1024  # a late point of span 1024-2047 was checked


def test_a_score_round_wrapper_that_replaces_the_answer_is_blamed() -> None:
    @hookimpl(wrapper=True)
    def score_round(state: Any, scores: Any) -> Any:
        yield
        return [7]

    def keep(state: Any, scores: Any) -> Any:
        return list(scores)

    with house_rules(
        "golf",
        ("golf.rv7e-wrap", "RV7E-A", {"score_round": score_round}),
        ("golf.rv7e-ok", "RV7E-B", {"score_round": hookimpl(keep)}),
    ):
        game = cardcore.new_game("golf", 2, rules=["golf.rv7e-wrap", "golf.rv7e-ok"], seed=5)
        exc, before, version = play_until_error(game)
        assert_unchanged(game, before, version)
    assert exc.plugin == "golf.rv7e-wrap"


class NotationLegalLogic(rg.RaceLogic):
    def legal_actions(self, state: Any, seat: int) -> Any:
        if sum(len(state.zones.cards[h]) for h in rg.HANDS) < 10:
            raise NotationError("rv07e: a bug in the game, not the text")
        return super().legal_actions(state, seat)


def test_a_cardcore_error_from_legal_actions_under_parse_is_the_games_fault() -> None:
    """Before the fix it passed as the text's NotationError (where was 'parse_action')."""
    with registered_game(game_module("rv07e-legaln", NotationLegalLogic)) as name:
        game = cardcore.new_game(name, 2, seed=1)
        first_play(game)
        before = saved(game)
        with pytest.raises(PluginError) as info:
            game.act(0, "play 5H")
        assert saved(game) == before
    assert info.value.plugin == name
    assert "legal_actions (read by parse_action)" in str(info.value)


class HalfLogic(cardcore.GameLogic):  # type: ignore[type-arg]
    """A GameLogic implementing none of the required methods."""


def test_a_rules_create_logic_answering_an_incomplete_logic_is_blamed_on_the_rule() -> None:
    def half(ruleset: Any) -> Any:
        return HalfLogic(ruleset)

    module = game_module("rv07e-half", rg.RaceLogic)
    with (
        registered_game(module) as name,
        house_rules(
            name, ("rv07e-half.x", "RV7E-A", {"create_logic": hookimpl(tryfirst=True)(half)})
        ),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game(name, 2, rules=["rv07e-half.x"], seed=1)
    assert info.value.plugin == "rv07e-half.x", str(info.value)


def test_create_logic_refusal_lists_the_implementers_as_the_hooks_page_says() -> None:
    module = game_module("rv07e-cll", rg.RaceLogic)
    with (
        registered_game(module) as name,
        house_rules(
            name,
            ("rv07e-cll.none", "RV7E-B", {"create_logic": hookimpl(tryfirst=True)(none_logic)}),
            ("rv07e-cll.bad", "RV7E-A", {"create_logic": hookimpl(tryfirst=True)(wrong_logic)}),
        ),
        pytest.raises(PluginError) as info,
    ):
        cardcore.new_game(name, 2, rules=["rv07e-cll.none", "rv07e-cll.bad"], seed=1)
    assert info.value.plugin == "rv07e-cll.bad"
    assert "rv07e-cll.none" in str(info.value), str(info.value)
