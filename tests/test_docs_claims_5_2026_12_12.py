"""Claims of docs/api.rst, docs/search-agents.rst, docs/agents.rst and
docs/plugin-guide/migration.rst, checked against the real behaviour (review of
2026-12-12, fifth pass)."""

from __future__ import annotations

import math
import os
import random
import re
import subprocess
import sys
import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import (
    Action,
    CardcoreError,
    Chance,
    EndMatch,
    IllegalActionError,
    OptionError,
    Plan,
    PluginError,
    RandomAgent,
    Resign,
    RuleInfo,
    SeatError,
    StalledGameError,
    ViewField,
    hookimpl,
    new_game,
)
from cardcore.search import ISMCTSAgent, sample_position

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


@pytest.fixture(autouse=True)
def _ismcts_registered() -> Any:
    """``ismcts`` is an entry point when installed; register it for this process anyway."""
    if "ismcts" not in cardcore.available_agents():
        cardcore.register("cardcore.agents", "ismcts", ISMCTSAgent)
    yield


def _random_walk(game: cardcore.Game, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        acts = [a for s in game.to_act for a in game.legal_actions(s)]
        if not acts:
            return
        game.apply(rng.choice(acts))


# == api.rst ===================================================================================


def test_api_constants_have_their_documented_values() -> None:
    from cardcore.deck import LEGACY_CHANCE, MAX_DECKS
    from cardcore.logic import DECK_CACHE
    from cardcore.records import RECORD_FORMAT, RECORD_VERSIONS, SAVE_FORMAT, SAVE_VERSIONS
    from cardcore.setup import MAX_PLAYERS
    from cardcore.simulate import MAX_GAMES

    assert cardcore.__version__ == "0.3.0"
    assert cardcore.VIEW_FORMAT == "cardcore-view/2"
    assert cardcore.STALE_WINDOW == 64
    assert cardcore.CHANCE == 3
    assert cardcore.HOST == -1
    assert cardcore.ALL == -1
    assert cardcore.FIELD_KINDS == (
        "int",
        "float",
        "str",
        "bool",
        "card",
        "cards",
        "seat",
        "choice",
        "per-seat",
        "json",
    )
    assert DECK_CACHE == 64
    assert (MAX_PLAYERS, MAX_DECKS, LEGACY_CHANCE, MAX_GAMES) == (64, 10000, 2, 10_000_000)
    assert RECORD_FORMAT == ("cardcore-record", 3) and RECORD_VERSIONS == (1, 2, 3)
    assert SAVE_FORMAT == ("cardcore-save", 3) and SAVE_VERSIONS == (1, 2, 3)


def test_api_top_level_names_are_exported_and_ledger_error_is_not() -> None:
    text = (DOCS / "api.rst").read_text()
    names = set(
        re.findall(r"\.\. auto(?:class|function|exception):: cardcore\.(\w+)\b(?!\.)", text)
    )
    top = text.split("Names in the core")[0]
    names |= {n for n in re.findall(r"\.\. py:data:: (\w+)\n(?!   :module:)", top)}
    assert len(names) > 60
    assert sorted(n for n in names if n not in cardcore.__all__) == []
    assert all(hasattr(cardcore, n) for n in names)
    from cardcore.scoring import LedgerError

    assert not hasattr(cardcore, "LedgerError")
    assert issubclass(LedgerError, CardcoreError) and issubclass(LedgerError, ValueError)


def test_import_cardcore_simulate_as_module_binds_the_function() -> None:
    import cardcore.simulate as m

    assert callable(m) and m is cardcore.simulate
    from cardcore.simulate import MAX_GAMES

    with pytest.raises(OptionError, match="10,000,000"):
        cardcore.simulate("golf", games=MAX_GAMES + 1)


def test_limits_are_refused_with_cardcore_errors() -> None:
    with pytest.raises(CardcoreError, match="10001"):
        cardcore.decks(10_001)
    with pytest.raises(CardcoreError, match="10001"):
        cardcore.with_jokers(cardcore.standard_52(), 10_001)
    with pytest.raises(OptionError) as info:
        new_game("golf", 65)
    assert info.value.rule_id == "CORE-SEAT-2" and str(info.value).endswith("(CORE-SEAT-2)")


def test_stale_window_judges_exactly_64_versions_back_and_refuses_the_rest() -> None:
    game = new_game("spit", 2, seed=1)
    _random_walk(game, 80, 1)
    v = game.version
    assert v >= 70 and not game.is_over
    seat = next(s for s in game.to_act if game.legal_actions(s))
    action = game.legal_actions(seat)[0]
    for seen in (v + 1, v - cardcore.STALE_WINDOW - 1, -1, 10**40):
        c = game.clone()
        with pytest.raises(IllegalActionError) as info:
            c.apply(action, seen=seen)
        assert info.value.rule_id == "CORE-RT-3" and str(seen) in str(info.value)
        assert c.version == v
    for seen in ("x", True, 1.5, math.nan):
        c = game.clone()
        with pytest.raises(IllegalActionError, match="version number") as info:
            c.apply(action, seen=seen)
        assert info.value.rule_id == "CORE-RT-3" and c.version == v
    ok = game.clone()
    ok.apply(action, seen=v - cardcore.STALE_WINDOW)
    assert ok.version == v + 1


def _errors() -> list[CardcoreError]:
    g = new_game("golf", 2, seed=1)
    sp = new_game("spit", 2, seed=1)
    calls: list[Callable[[], object]] = [
        lambda: g.act(0, "flip 9"),
        lambda: g.act(1, "knock"),
        lambda: g.act(0, "fl ip"),
        lambda: g.act(5, "flip 0"),
        lambda: g.act(0, "flip ²"),
        lambda: g.act(0, None),
        lambda: g.apply(EndMatch(0)),
        lambda: sp.act(0, "xx"),
        lambda: new_game("golf", 2, options={"layout": 7}),
        lambda: new_game("golf", 2, options={"zz": 1}),
        lambda: new_game("nosuch", 2),
        lambda: new_game("golf", 2, rules=["nosuch"]),
        lambda: new_game("golf", 1),
        lambda: new_game("golf", 2, options={"layout": 6}, rules=["golf.diagonal-pairs"]),
        lambda: cardcore.replay({"format": "cardcore-record"}),
        lambda: cardcore.Card.parse("ZZ"),
    ]
    out = []
    for call in calls:
        with pytest.raises(CardcoreError) as info:
            call()
        out.append(info.value)
    return out


def test_an_error_citing_a_rule_ends_with_its_id_and_carries_it_as_rule_id() -> None:
    """api.rst, Errors: the rule ID in parentheses at the end is the error's ``rule_id``;
    configuration and data errors (options, unknown games or rules, records) carry None."""
    tail = re.compile(r"\(([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\)\s*$")
    errors = _errors()
    for e in errors:
        m = tail.search(str(e))
        assert (m.group(1) if m else None) == e.rule_id, str(e)
    by_msg = {str(e)[:25]: e.rule_id for e in errors}
    assert by_msg["game 'golf' has no option"] is None
    assert by_msg["no game called 'nosuch' i"] is None
    assert by_msg["not a cardcore record: it"] is None


def test_position_errors_cite_core_position_1() -> None:
    """api.rst's doctest shows ``(CORE-POSITION-1)`` on a bad position; the Errors paragraph
    still lists positions among the errors carrying ``rule_id`` None (stale text)."""
    with pytest.raises(OptionError) as info:
        new_game("golf", 2, position="golf garbage")
    assert info.value.rule_id == "CORE-POSITION-1"
    assert str(info.value).endswith("(CORE-POSITION-1)")


def test_view_field_kinds_are_checked_when_built() -> None:
    with pytest.raises(PluginError, match="'intt'"):
        ViewField("x", "intt", "d")
    with pytest.raises(PluginError, match="needs of="):
        ViewField("x", "per-seat", "d")
    with pytest.raises(PluginError, match="per-seat' only"):
        ViewField("x", "int", "d", of="int")
    with pytest.raises(PluginError, match="'zzz'"):
        ViewField("x", "per-seat", "d", of="zzz")
    assert ViewField("x", "per-seat", "d", of="json").to_json()["of"] == "json"


def test_only_the_host_may_apply_end_match() -> None:
    game = new_game("golf", 2, seed=1)
    with pytest.raises(IllegalActionError) as info:
        game.apply(EndMatch(0))
    assert info.value.rule_id == "CORE-END-1" and game.version == 0
    game.apply(EndMatch(cardcore.HOST))
    assert game.is_over


def test_chance_of_new_game_is_3_and_clone_copies_it() -> None:
    game = new_game("golf", 2, seed=1)
    assert game.state.chance == cardcore.CHANCE == 3
    assert game.clone().state.chance == 3
    old = game.record()
    old["format_version"] = 1
    del old["position"]
    assert cardcore.replay(old).state.chance == 2


@pytest.mark.parametrize("name", [None, 5, "__class__", "__dict__", "__init__"])
def test_ruleset_resolve_refuses_any_bad_name_with_a_plugin_error(name: Any) -> None:
    with pytest.raises(PluginError):
        cardcore.get_ruleset("tonk").resolve(name)


@pytest.mark.parametrize(
    "call",
    [
        lambda: Chance(1, 0).randrange(1.5),
        lambda: Chance(1, 0).randrange(None),
        lambda: Chance(1, 0).choice(None),
        lambda: Chance(1, 0).sample(None, 1),
        lambda: Chance(1, 0).sample([1, 2], 1.5),
        lambda: cardcore.shuffle((1, 2, 3), Chance(1, 0)),
        lambda: cardcore.shuffle(None, random.Random(1)),
        lambda: cardcore.shuffle("abc", random.Random(1)),
    ],
    ids=[
        "randrange-float",
        "randrange-None",
        "choice-None",
        "sample-None",
        "sample-k-float",
        "shuffle-tuple",
        "shuffle-None",
        "shuffle-str",
    ],
)
def test_chance_and_shuffle_refuse_bad_input_with_a_cardcore_error(
    call: Callable[[], object],
) -> None:
    with pytest.raises(CardcoreError):
        call()


def _lend(game: Any) -> Any:
    from cardcore.agents import lend_views

    with lend_views(game) as views:
        return dict(views(0))


def _cyclic() -> list[Any]:
    loop: list[Any] = []
    loop.append(loop)
    return loop


@pytest.mark.parametrize(
    "call",
    [
        lambda: _lend(None),
        lambda: _lend("golf"),
        lambda: __import__("cardcore.agents").agents.check_agent("x", RandomAgent, "golf"),
        lambda: __import__("cardcore.plugins").plugins.check_agent_params(
            "random", RandomAgent, None
        ),
        lambda: __import__("cardcore.plugins").plugins.check_agent_params(
            "random", RandomAgent, [1]
        ),
        lambda: cardcore.jsonable(_cyclic()),
    ],
    ids=[
        "lend_views-None",
        "lend_views-text",
        "check_agent-game-text",
        "check_agent_params-None",
        "check_agent_params-list",
        "jsonable-cycle",
    ],
)
def test_public_helpers_refuse_bad_input_with_a_cardcore_error(call: Callable[[], object]) -> None:
    with pytest.raises(CardcoreError):
        call()


def test_check_agent_and_check_agent_params_refuse_with_option_errors() -> None:
    from cardcore.agents import check_agent
    from cardcore.plugins import check_agent_params

    with pytest.raises(OptionError, match="plays golf, not 'tonk'"):
        check_agent("golf-greedy", cardcore.load_agent("golf-greedy"), cardcore.game_info("tonk"))
    with pytest.raises(OptionError, match=r"no plan\(\) method"):
        check_agent("c", _Answer, cardcore.game_info("spit"))
    with pytest.raises(OptionError, match="did you mean 'seed'"):
        check_agent_params("random", RandomAgent, {"sed": 1})


def test_shuffle_refuses_a_generator_that_is_neither_chance_nor_random() -> None:
    items = [1, 2, 3]
    for rng in (None, 7):
        with pytest.raises(cardcore.ArgumentError):
            cardcore.shuffle(items, rng)
    assert items == [1, 2, 3]


# == agents.rst ================================================================================


class _Answer:
    def __init__(self, f: Callable[[Mapping[str, Any], Sequence[Action]], Any]) -> None:
        self.f = f

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Any:
        return self.f(view, legal)


@pytest.mark.parametrize(
    ("answer", "rule"),
    [
        (lambda v, legal: str(legal[0]), "CORE-ACTION-1"),
        (lambda v, legal: None, "CORE-ACTION-1"),
        (lambda v, legal: Resign(1 - v["seat"]), "CORE-TURN-1"),
        (lambda v, legal: EndMatch(cardcore.HOST), "CORE-TURN-1"),
    ],
    ids=["text", "None", "resign-other", "end-match"],
)
def test_play_stops_an_agent_answer_the_game_refuses_naming_seat_and_class(
    answer: Any, rule: str
) -> None:
    game = new_game("golf", 2, seed=3)
    with pytest.raises(IllegalActionError) as info:
        cardcore.play(game, [_Answer(answer), RandomAgent(1)])
    assert "seat 0" in str(info.value) and "_Answer" in str(info.value)
    assert info.value.rule_id == rule
    assert game.version == 0 and not game.is_over


def test_play_lets_an_agents_own_exception_through_with_the_game_unchanged() -> None:
    class Boom(Exception):
        pass

    def boom(view: Any, legal: Any) -> Any:
        raise Boom("mine")

    game = new_game("golf", 2, seed=3)
    _random_walk(game, 0, 0)
    before = game.position()
    with pytest.raises(Boom):
        cardcore.play(game, [_Answer(boom), RandomAgent(1)])
    assert game.position() == before and game.version == 0


def test_play_refuses_real_time_games_and_bad_runner_arguments() -> None:
    with pytest.raises(OptionError, match="run_realtime"):
        cardcore.play(new_game("spit", 2, seed=1), [RandomAgent(0), RandomAgent(1)])
    for bad in (-1, 1.5, True, "5"):
        with pytest.raises(OptionError, match="max_actions"):
            cardcore.play(
                new_game("golf", 2, seed=1), [RandomAgent(0), RandomAgent(1)], max_actions=bad
            )
    with pytest.raises(OptionError, match="one agent per seat"):
        cardcore.play(new_game("golf", 2, seed=1), [RandomAgent(0)])


@pytest.mark.parametrize(("name", "players"), [("golf", 2), ("tonk", 3), ("gofish", 3)])
def test_legal_is_a_tuple_of_actions_matching_the_views_legal_text(name: str, players: int) -> None:
    seen: list[bool] = []

    def check(view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        seen.append(
            isinstance(legal, tuple)
            and all(isinstance(a, Action) and a.seat == view["seat"] for a in legal)
            and [str(a) for a in legal] == list(view["legal"])
        )
        return legal[-1]

    game = new_game(name, players, seed=2)
    cardcore.play(game, [_Answer(check)] * players, max_actions=120)
    assert len(seen) > 20 and all(seen)


def test_play_truncates_at_max_actions_and_a_kept_view_cannot_be_read_later() -> None:
    kept: list[Mapping[str, Any]] = []

    def keep(view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        kept.append(view)
        return legal[0]

    game = new_game("golf", 2, seed=4)
    assert cardcore.play(game, [_Answer(keep)] * 2, max_actions=5).reason == "truncated"
    assert game.version == 5 and len(kept) == 5
    with pytest.raises(CardcoreError, match="moved on"):
        kept[0]["seat"]


def test_agent_views_hide_the_other_seats_hands() -> None:
    """An agent's view never shows another seat's hidden cards (Tonk hands are OWNER piles)."""
    leaks: list[str] = []

    def look(view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        for z in view["zones"]:
            mine = z["visibility"] != "owner" or z["owner"] == view["seat"]
            if not mine and any(c is not None for c in z["cards"]):
                leaks.append(z["name"])
        assert "seed" not in view
        return legal[0]

    game = new_game("tonk", 3, seed=5)
    cardcore.play(game, [_Answer(look), RandomAgent(1), RandomAgent(2)], max_actions=60)
    assert leaks == []


class _Planner:
    def __init__(self, f: Callable[[Mapping[str, Any], Sequence[Action], float], Any]) -> None:
        self.f = f
        self.calls = 0

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Any:
        self.calls += 1
        return self.f(view, legal, now)


def _quick(delay: float) -> _Planner:
    return _Planner(lambda v, legal, now: Plan(legal[0], delay) if legal else None)


def test_run_realtime_breaks_equal_due_times_by_a_seeded_draw_not_by_seat() -> None:
    def first(seed: int) -> int:
        seats: list[int] = []
        game = new_game("speed", 2, seed=3)
        cardcore.run_realtime(
            game,
            [_quick(0.4), _quick(0.4)],
            seed=seed,
            max_actions=1,
            on_action=lambda g, a, t: seats.append(a.seat),
        )
        return seats[0]

    firsts = [first(s) for s in range(12)]
    assert set(firsts) == {0, 1}
    assert [first(s) for s in range(12)] == firsts


def _spit_ready() -> tuple[Mapping[str, Any], tuple[Action, ...]]:
    game = new_game("spit", 2, seed=1)
    legal = game.legal_actions(0)
    assert legal
    return game.view(0), legal


@pytest.mark.parametrize(
    ("name", "median", "sigma"),
    [
        ("random", 0.5, 0.3),
        ("spit-greedy", 0.3 * math.exp(-(0.35**2) / 2), 0.35),
        ("spit-human", 0.9 * math.exp(-(0.5**2) / 2), 0.5),
        ("ismcts", 0.5, 0.3),
    ],
)
def test_reaction_delays_are_lognormal_with_the_documented_median(
    name: str, median: float, sigma: float
) -> None:
    """agents.rst / search-agents.rst: RandomAgent and ISMCTS react after a lognormal delay of
    median ``reaction`` and sigma ``spread``; spit-greedy's ``mean`` is the mean, so its
    median is ``mean * exp(-sigma**2 / 2)``, about 0.28 s."""
    import statistics

    view, legal = _spit_ready()
    agent = cardcore.load_agent(name, seed=3)
    assert isinstance(agent, cardcore.RealtimeAgent)
    delays = [agent.plan(view, legal[:1], 0.0).delay for _ in range(1500)]
    assert statistics.median(delays) == pytest.approx(median, rel=0.05)
    assert statistics.pstdev([math.log(d) for d in delays]) == pytest.approx(sigma, rel=0.07)
    assert isinstance(RandomAgent(0), cardcore.Agent)


def test_run_realtime_never_starts_before_the_games_last_recorded_time() -> None:
    game = new_game("speed", 2, seed=3)
    for _ in range(2):
        seat = next(s for s in game.to_act if game.legal_actions(s))
        game.apply(game.legal_actions(seat)[0], at=10.0)
    cardcore.run_realtime(game, [_quick(0.2), _quick(0.3)], seed=0, start=0.0, max_actions=3)
    times = [at for _, _, at in game.record()["actions"]]
    assert times[:2] == [10.0, 10.0] and len(times) == 5
    assert all(t >= 10.2 for t in times[2:])


def test_views_are_built_only_when_an_agent_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    built = [0]
    real = cardcore.Game.view

    def counting(self: cardcore.Game, seat: int | None = None) -> dict[str, Any]:
        built[0] += 1
        return real(self, seat)

    monkeypatch.setattr(cardcore.Game, "view", counting)
    cardcore.play(new_game("golf", 2, seed=1), [RandomAgent(0), RandomAgent(1)], max_actions=30)
    assert built[0] == 0
    kinds: list[type] = []

    def reads(view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        kinds.append(type(view))
        view["seat"]
        view["to_act"]
        return legal[0]

    cardcore.play(new_game("golf", 2, seed=1), [_Answer(reads)] * 2, max_actions=10)
    assert built[0] == 10 and all(issubclass(k, cardcore.LazyView) for k in kinds)


def test_run_realtime_counts_a_negative_delay_as_zero() -> None:
    game = new_game("speed", 2, seed=3)
    cardcore.run_realtime(game, [_quick(-5.0), _quick(-5.0)], seed=0, max_actions=3)
    assert [at for _, _, at in game.record()["actions"]] == [0.0, 0.0, 0.0]


@pytest.mark.parametrize(
    "plan",
    [
        lambda v, legal, n: "x",
        lambda v, legal, n: (legal[0], 0.1) if legal else None,
        lambda v, legal, n: Plan(legal[0], math.nan) if legal else None,
        lambda v, legal, n: Plan(legal[0], math.inf) if legal else None,
        lambda v, legal, n: Plan(legal[0], True) if legal else None,
        lambda v, legal, n: Plan(str(legal[0]), 0.1) if legal else None,
        lambda v, legal, n: Plan(legal[0], 2e15) if legal else None,
    ],
    ids=["text", "tuple", "nan", "inf", "bool-delay", "text-action", "past-max-time"],
)
def test_run_realtime_stops_a_bad_plan_naming_seat_and_class(plan: Any) -> None:
    game = new_game("speed", 2, seed=3)
    with pytest.raises(CardcoreError) as info:
        cardcore.run_realtime(game, [_Planner(plan), _quick(0.5)], seed=0)
    assert "seat 0" in str(info.value) and "_Planner" in str(info.value)
    assert game.version == 0


def test_run_realtime_refuses_a_plan_of_another_seats_action() -> None:
    game = new_game("speed", 2, seed=3)
    other = _Planner(lambda v, legal, n: Plan(Resign(1 - v["seat"]), 0.1))
    with pytest.raises(IllegalActionError) as info:
        cardcore.run_realtime(game, [other, _quick(0.5)], seed=0)
    assert info.value.rule_id == "CORE-TURN-1" and game.version == 0


def test_run_realtime_raises_stalled_when_nobody_plans() -> None:
    game = new_game("speed", 2, seed=3)
    idle = _Planner(lambda v, legal, n: None)
    with pytest.raises(StalledGameError) as info:
        cardcore.run_realtime(game, [idle, _Planner(lambda v, legal, n: None)])
    assert info.value.rule_id == "CORE-RT-2"
    assert "no agent plans" in str(info.value) and "[0, 1]" in str(info.value)


class _Stubborn:
    """Plans its first legal action again and again, long after the game refuses it."""

    def __init__(self) -> None:
        self.first: Action | None = None

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Any:
        if self.first is None and legal:
            self.first = legal[0]
        return None if self.first is None else Plan(self.first, 0.1)


def test_run_realtime_stalls_when_agents_keep_planning_rejected_actions() -> None:
    game = new_game("speed", 2, seed=3)
    with pytest.raises(StalledGameError, match="keep planning rejected actions") as info:
        cardcore.run_realtime(game, [_Stubborn(), _Stubborn()], max_actions=5)
    assert "_Stubborn" in str(info.value) and "the last" in str(info.value)


def test_a_stall_from_repeated_rejections_cites_core_rt_2() -> None:
    game = new_game("speed", 2, seed=3)
    with pytest.raises(StalledGameError) as info:
        cardcore.run_realtime(game, [_Stubborn(), _Stubborn()], max_actions=5)
    assert info.value.rule_id == "CORE-RT-2"


def test_run_realtime_replans_only_agents_whose_plan_became_illegal() -> None:
    """agents.rst: after each apply only agents whose planned action became illegal plan
    again (an agent that planned nothing re-plans after every change)."""
    slow_last: list[Any] = [None]

    def slow_plan(view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Any:
        slow_last[0] = legal[0] if legal else None
        return Plan(legal[0], 1000.0) if legal else None

    slow = _Planner(slow_plan)
    expected = [1]  # the first plan

    applied = [0]

    def after(game: cardcore.Game, action: Action, t: float) -> None:
        applied[0] += 1
        if game.is_over or applied[0] == 25:  # the last: nobody plans a position unplayed
            return
        if action.seat == 1:
            expected[0] += 1
            return
        last = slow_last[0]
        if last is None or last not in game.legal_actions(1):
            expected[0] += 1

    game = new_game("speed", 2, seed=3)
    cardcore.run_realtime(game, [_quick(0.1), slow], seed=0, max_actions=25, on_action=after)
    assert slow.calls == expected[0]
    assert slow.calls < 25


def test_an_agent_for_one_game_is_refused_elsewhere() -> None:
    golf_greedy = cardcore.load_agent("golf-greedy")
    assert golf_greedy.games == ("golf",)
    with pytest.raises(OptionError, match="agent 'golf-greedy' plays golf, not 'tonk'"):
        cardcore.simulate("tonk", games=2, players=2, agents=["golf-greedy", "random"])
    game = new_game("tonk", 2, seed=1)
    with pytest.raises(CardcoreError, match="plays golf"):
        cardcore.play(game, [golf_greedy(), RandomAgent(1)])
    assert game.version == 0


def test_built_in_agent_names_and_their_old_aliases() -> None:
    import cardcore_golf.agents as golf
    import cardcore_spit.agents as spit
    import cardcore_tonk.agents as tonk

    assert cardcore.load_agent("golf-greedy") is golf.GolfGreedyAgent is golf.GreedyGolfAgent
    assert cardcore.load_agent("tonk-heuristic") is tonk.TonkHeuristicAgent is tonk.HeuristicAgent
    assert cardcore.load_agent("spit-greedy") is spit.SpitGreedyAgent is spit.GreedyBot
    assert cardcore.load_agent("spit-human") is spit.SpitHumanAgent is spit.HumanBot
    assert cardcore.load_agent("random") is RandomAgent


DOC_TABLE: dict[str, dict[str, Any]] = {
    "random": {"seed": 0, "reaction": 0.5, "spread": 0.3},
    "ismcts": {
        "seed": 0,
        "iterations": 200,
        "time": None,
        "c": 0.7,
        "rollout": "game",
        "max_rollout": 500,
        "observe": True,
        "depth": None,
        "prior": 1.0,
        "reuse": 1,
        "reaction": 0.5,
        "spread": 0.3,
    },
    "golf-greedy": {"seed": 0},
    "tonk-heuristic": {"seed": 0, "samples": 48, "drop_margin": 0.9},
    "spit-greedy": {"seed": 0, "mean": 0.3, "sigma": 0.35},
    "spit-human": {"seed": 0, "mean": 0.9, "sigma": 0.5},
    "gofish-basic": {"seed": 0},
}
DOC_BOUNDS: dict[str, dict[str, tuple[float, float]]] = {
    "random": {"reaction": (0, 60), "spread": (0, 3)},
    "ismcts": {
        "iterations": (1, 2000),
        "time": (0, 2),
        "c": (0, 100),
        "max_rollout": (1, 1000),
        "depth": (1, 1000),
        "prior": (0, 100),
        "reuse": (1, 2000),
        "reaction": (0, 60),
        "spread": (0, 3),
    },
    "tonk-heuristic": {"samples": (1, 10000), "drop_margin": (-100, 100)},
    "spit-greedy": {"mean": (0, 60), "sigma": (0, 3)},
    "spit-human": {"mean": (0, 60), "sigma": (0, 3)},
}


@pytest.mark.parametrize("name", sorted(DOC_TABLE))
def test_agent_parameter_table_matches_the_agents(name: str) -> None:
    assert cardcore.agent_parameters(name) == DOC_TABLE[name]
    bounds = getattr(cardcore.load_agent(name), "parameter_bounds", None) or {}
    assert {k: tuple(v) for k, v in bounds.items()} == DOC_BOUNDS.get(name, {})
    numeric = {k for k, v in DOC_TABLE[name].items() if type(v) in (int, float) and k != "seed"}
    assert numeric <= set(bounds)  # every numeric parameter but seed is bounded


@pytest.mark.parametrize(
    ("name", "param"),
    [(n, p) for n, b in sorted(DOC_BOUNDS.items()) for p in sorted(b)],
)
def test_load_agent_refuses_out_of_range_bool_nan_and_text(name: str, param: str) -> None:
    low, high = DOC_BOUNDS[name][param]
    for bad in (high + 1, low - 1, True, math.nan, "5"):
        with pytest.raises(OptionError, match=param):
            cardcore.load_agent(name, **{param: bad})


@pytest.mark.parametrize("name", sorted(DOC_TABLE))
def test_every_built_in_agent_refuses_a_negative_seed_and_takes_none(name: str) -> None:
    with pytest.raises(OptionError, match="seed"):
        cardcore.load_agent(name, seed=-1)
    if name != "gofish-basic":  # the Go Fish example is checked by name only
        with pytest.raises(OptionError, match="seed"):
            cardcore.load_agent(name)(seed=-1)
    assert cardcore.load_agent(name, seed=None) is not None


def test_built_in_game_agents_check_bounds_when_built_directly() -> None:
    import cardcore_spit.agents as spit
    import cardcore_tonk.agents as tonk

    with pytest.raises(OptionError, match="samples"):
        tonk.TonkHeuristicAgent(samples=10**9)
    with pytest.raises(OptionError, match="drop_margin"):
        tonk.TonkHeuristicAgent(drop_margin=1000.0)
    for cls in (spit.SpitGreedyAgent, spit.SpitHumanAgent):
        with pytest.raises(OptionError, match="mean"):
            cls(mean=100.0)
        with pytest.raises(OptionError, match="sigma"):
            cls(sigma=5.0)


def test_simulate_derives_agent_seeds_unless_a_spec_fixes_them() -> None:
    seeds: list[Any] = []

    class Rec(RandomAgent):
        def __init__(self, seed: int | None = 0, **kw: Any) -> None:
            seeds.append(seed)
            super().__init__(seed, **kw)

    cardcore.register("cardcore.agents", "rec5", Rec)
    try:
        opts = {"rounds": 1}
        cardcore.simulate("golf", games=3, players=2, agents=["rec5", "rec5"], options=opts)
        assert len(set(seeds)) == 6
        seeds.clear()
        cardcore.simulate("golf", games=3, players=2, agents=["rec5:seed=7", "rec5"], options=opts)
        assert seeds[0::2] == [7, 7, 7] and len(set(seeds[1::2])) == 3
        seeds.clear()
        cardcore.simulate(
            "golf", games=2, players=2, agents=["rec5:seed=none", "rec5"], options=opts
        )
        assert seeds[0::2] == [None, None]
    finally:
        cardcore.unregister("cardcore.agents", "rec5")


def test_split_agent_specs_continues_a_spec_with_key_value_pieces() -> None:
    assert cardcore.split_agent_specs("ismcts:iterations=200,seed=7,random") == [
        "ismcts:iterations=200,seed=7",
        "random",
    ]
    assert cardcore.parse_agent_spec("ismcts:seed=none") == ("ismcts", {"seed": None})
    for bad in ("random,,random", None):
        with pytest.raises(OptionError):
            cardcore.split_agent_specs(bad)


@pytest.mark.parametrize(
    ("name", "players"), [("golf", 2), ("tonk", 3), ("spit", 2), ("gofish", 3)]
)
def test_determinize_keeps_the_seats_view_and_redeals_what_it_cannot_see(
    name: str, players: int
) -> None:
    game = new_game(name, players, seed=8)
    _random_walk(game, 6, 8)
    for seat in range(players):
        twins = [game.determinize(seat, s) for s in range(4)]
        assert all(t.view(seat) == game.view(seat) for t in twins)
        assert any(t.position() != game.position() for t in twins)
        assert all(t.state.seed != game.state.seed for t in twins)
    twin = twins[0]
    with pytest.raises(CardcoreError, match="cannot be saved"):
        twin.save()
    with pytest.raises(CardcoreError, match="no faithful record"):
        twin.record()
    world = new_game(name, players, position=twin.position(), seed=12345)
    assert world.view(players - 1)["legal"] == game.view(players - 1)["legal"]


@pytest.mark.parametrize(("name", "players"), [("golf", 2), ("spit", 2), ("gofish", 3)])
def test_determinize_leaves_every_card_the_seat_knows_where_it_lies(
    name: str, players: int
) -> None:
    """agents.rst: the clone is consistent with everything the seat has seen (not only what
    its view shows now: a buried discard it saw stays buried where it was)."""
    game = new_game(name, players, seed=8)
    rng = random.Random(3)
    checked = 0
    for step in range(25):
        for seat in range(players):
            real, twin = game.state.zones, game.determinize(seat, step).state.zones
            for pile, masks, other in zip(real.cards, real.seen, twin.cards, strict=True):
                for i, (card, mask) in enumerate(zip(pile, masks, strict=True)):
                    if mask == cardcore.ALL or (mask >> seat) & 1:
                        checked += 1
                        assert other[i] == card
        acts = [a for s in game.to_act for a in game.legal_actions(s)]
        if game.is_over or not acts:
            break
        game.apply(rng.choice(acts))
    assert checked > 200


@pytest.mark.parametrize("seed", [-1, "x", True, 1.5, None, 2**128])
def test_determinize_refuses_a_bad_seed_or_seat(seed: Any) -> None:
    game = new_game("golf", 2, seed=8)
    with pytest.raises(OptionError, match="seed"):
        game.determinize(0, seed)
    with pytest.raises(SeatError):
        game.determinize(2, 1)


# == search-agents.rst =========================================================================


@pytest.mark.parametrize(
    ("name", "players"), [("golf", 2), ("golf", 3), ("tonk", 3), ("spit", 2), ("gofish", 3)]
)
def test_a_sample_keeps_every_card_the_view_shows_where_it_lies(name: str, players: int) -> None:
    checked = 0
    for step in range(60):
        if step % 20 == 0:
            game = new_game(name, players, seed=step)
            rng = random.Random(step)
        if game.is_over:
            continue
        for seat in range(players):
            view = game.view(seat)
            if name == "tonk" and view["table"]["taken"] and seat not in view["to_act"]:
                continue  # the xfail below
            world = new_game(
                name, players, position=sample_position(view, random.Random(step)), seed=9
            )
            wv = world.view(seat)
            assert (wv["zones"], wv["table"], wv["legal"]) == (
                view["zones"],
                view["table"],
                view["legal"],
            )
            checked += 1
        acts = [a for s in game.to_act for a in game.legal_actions(s)]
        if acts:
            game.apply(rng.choice(acts))
    assert checked >= 12


def _tonk_view_after_a_take() -> tuple[dict[str, Any], str, int]:
    """A view of a seat not to act in Tonk, just after the seat to act took the discard."""
    for seed in range(100):
        game = new_game("tonk", 3, seed=seed)
        for seat in game.to_act:
            take = [a for a in game.legal_actions(seat) if str(a) == "take"]
            if take:
                game.apply(take[0])
                view = game.view((seat + 1) % 3)
                assert view["table"]["taken"] is not None
                return view, view["table"]["taken"], seat
    raise AssertionError("no take found")


def test_a_tonk_sample_keeps_the_taken_discard_in_the_takers_hand() -> None:
    view, taken, taker = _tonk_view_after_a_take()
    for k in range(10):
        world = new_game("tonk", 3, position=sample_position(view, random.Random(k)), seed=1)
        hand = world.state.zones.cards[
            world.state.zones.layout.specs.index(
                next(z for z in world.state.zones.layout.specs if z.name == f"hand.{taker}")
            )
        ]
        assert taken in [str(c) for c in hand]


def test_ismcts_example_and_names() -> None:
    game = new_game("golf", 2, seed=7, options={"rounds": 1})
    result = cardcore.play(game, [ISMCTSAgent(seed=7, iterations=30), RandomAgent(1)])
    assert result.reason == "rounds"
    assert repr(cardcore.load_agent("ismcts", seed=7, iterations=200)) == (
        "ISMCTSAgent(seed=7, iterations=200, c=0.7, rollout='game')"
    )
    with pytest.raises(OptionError, match="did you mean 'iterations'"):
        cardcore.load_agent("ismcts", iters=3)
    agent = cardcore.load_agent("ismcts:time=0.5,iterations=none")
    assert agent.iterations is None and agent.time == 0.5
    with pytest.raises(OptionError, match="needs a budget"):
        cardcore.load_agent("ismcts:iterations=none")


def _golf_turn() -> cardcore.Game:
    game = new_game("golf", 2, seed=8, options={"rounds": 1})
    while len(game.legal_actions(game.to_act[0])) < 2 or game.to_act[0] != 0:
        seat = game.to_act[0]
        game.apply(game.legal_actions(seat)[0])
    return game


def test_ismcts_budgets() -> None:
    game = _golf_turn()
    view, legal = game.view(0), game.legal_actions(0)
    assert ISMCTSAgent(time=2.0).iterations == 200  # time alone keeps the cap
    both = ISMCTSAgent(seed=1, iterations=5, time=2.0)
    both.choose(view, legal)
    assert both.last_iterations == 5
    quick = ISMCTSAgent(seed=1, iterations=None, time=1e-9)
    quick.choose(view, legal)
    assert quick.last_iterations >= 1
    one = ISMCTSAgent(seed=1, iterations=50)
    assert one.choose(view, legal[1:2]) is legal[1] and one.last_iterations == 0


def test_ismcts_reuse_draws_one_sample_per_k_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardcore.search.ismcts as mod

    drawn = [0]
    real = mod.sample_of

    def counting(*args: Any) -> str:
        drawn[0] += 1
        return real(*args)

    monkeypatch.setattr(mod, "sample_of", counting)
    game = _golf_turn()
    agent = ISMCTSAgent(seed=1, iterations=40, reuse=4)
    agent.choose(game.view(0), game.legal_actions(0))
    assert agent.last_iterations == 40 and drawn[0] == 10


def test_ismcts_redraws_a_refused_sample_20_times_then_names_game_and_complaint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import cardcore.search.ismcts as mod

    drawn = [0]

    def garbage(*args: Any) -> str:
        drawn[0] += 1
        return "golf garbage"

    monkeypatch.setattr(mod, "sample_of", garbage)
    game = new_game("golf", 2, seed=1)
    with pytest.raises(CardcoreError, match=r"'golf'.*'garbage' is not a field"):
        ISMCTSAgent(seed=1, iterations=5).choose(game.view(0), game.legal_actions(0))
    assert drawn[0] == 20


def test_ismcts_choices_depend_on_the_view_not_on_the_hidden_cards() -> None:
    game = _golf_turn()
    text = game.determinize(0, 3).position()
    other = new_game("golf", 2, options={"rounds": 1}, position=text, seed=99)
    assert other.view(0) == game.view(0) and other.position() != game.position()
    a = ISMCTSAgent(seed=4, iterations=30).choose(game.view(0), game.legal_actions(0))
    b = ISMCTSAgent(seed=4, iterations=30).choose(other.view(0), other.legal_actions(0))
    assert str(a) == str(b)


_DET = """
import cardcore
from cardcore.search import ISMCTSAgent
out = []
for name, n, opts in [("golf", 2, {"rounds": 1}), ("tonk", 3, {})]:
    g = cardcore.new_game(name, n, seed=11, options=opts)
    agents = [ISMCTSAgent(seed=5, iterations=10, reuse=2)] + [cardcore.RandomAgent(i) for i in range(1, n)]
    cardcore.play(g, agents, max_actions=30, on_action=lambda game, a: out.append(str(a)))
print("|".join(out))
"""


def test_ismcts_is_deterministic_for_a_seed_whatever_the_hash_seed() -> None:
    runs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(
            [sys.executable, "-c", _DET],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=True,
        )
        runs.append(done.stdout)
    assert runs[0] == runs[1] and runs[0].count("|") > 20


@pytest.mark.parametrize(
    "mutate",
    [
        lambda v: None,
        lambda v: {},
        lambda v: dict(v, zones=None),
        lambda v: dict(v, zones=[dict(z, cards=["ZZ"] * len(z["cards"])) for z in v["zones"]]),
        lambda v: dict(v, zones=[dict(z, visibility="weird") for z in v["zones"]]),
        lambda v: dict(v, zones=v["zones"][:-1]),
        lambda v: dict(v, players=5),
        lambda v: dict(v, options={"zzz": 1}),
        lambda v: dict(v, game="nosuch"),
        lambda v: dict(v, table=None),
        lambda v: dict(v, seat=5),
        lambda v: dict(v, is_over=True),
    ],
    ids=[
        "None",
        "empty",
        "zones-None",
        "bad-card",
        "bad-visibility",
        "pile-missing",
        "players-int",
        "option-unknown",
        "game-unknown",
        "table-None",
        "seat-5",
        "over",
    ],
)
def test_ismcts_refuses_a_malformed_view_with_a_cardcore_error(mutate: Any) -> None:
    game = new_game("golf", 2, seed=1)
    view = mutate(game.view(0))
    with pytest.raises(CardcoreError):
        ISMCTSAgent(seed=1, iterations=3).choose(view, game.legal_actions(0))
    with pytest.raises(CardcoreError):
        sample_position(view, random.Random(1))


def test_ismcts_refuses_bad_legal_and_spectator_views() -> None:
    game = new_game("golf", 2, seed=1)
    agent = ISMCTSAgent(seed=1, iterations=3)
    with pytest.raises(cardcore.ArgumentError):
        agent.choose(game.view(0), game.view(0)["legal"])  # text, not Action objects
    with pytest.raises(cardcore.ArgumentError):
        agent.choose(game.view(0), ())
    with pytest.raises(cardcore.ArgumentError):
        agent.choose(game.view(None), game.legal_actions(0))
    with pytest.raises(cardcore.ArgumentError):
        sample_position(game.view(0), None)


def test_ismcts_plans_in_real_time_and_waits_without_a_legal_action() -> None:
    game = new_game("speed", 2, seed=3)
    agent = ISMCTSAgent(seed=2, iterations=4)
    assert agent.plan(game.view(0), (), 0.0) is None
    result = cardcore.run_realtime(
        game, [ISMCTSAgent(seed=1, iterations=4), ISMCTSAgent(seed=2, iterations=4)], max_actions=8
    )
    assert result is game.result
    times = [at for _, _, at in game.record()["actions"]]
    assert len(times) == 8 and all(t > 0 for t in times)


# == plugin-guide/migration.rst =================================================================


def test_resolve_answers_none_when_unimplemented_and_refuses_unknown_names() -> None:
    tonk = cardcore.get_ruleset("tonk")
    assert tonk.resolve("forbid_action") is None
    assert cardcore.get_ruleset("tonk", ["tonk.must-lay-down"]).resolve("forbid_action") is not None
    with pytest.raises(PluginError, match="did you mean 'card_points'"):
        tonk.resolve("card_points ")


_N = [0]


def _rule(game: str, **hooks: Callable[..., Any]) -> str:
    _N[0] += 1
    name = f"{game}.audit5-{_N[0]}"
    module = types.ModuleType(f"audit5_{_N[0]}")
    module.RULE = RuleInfo(id=f"AUD5-{_N[0]}", name=name, game=game, summary="test")  # type: ignore[attr-defined]
    for hook, f in hooks.items():
        setattr(module, hook, hookimpl(f))
    cardcore.register("cardcore.rules", name, module)
    return name


def test_an_unknown_hook_name_is_a_plugin_error_naming_the_closest() -> None:
    def forbid_actoin(state: Any, action: Any) -> None:
        return None

    name = _rule("golf", forbid_actoin=forbid_actoin)
    try:
        with pytest.raises(PluginError, match=r"forbid_actoin.*did you mean 'forbid_action'"):
            new_game("golf", 2, rules=[name], seed=1)
    finally:
        cardcore.unregister("cardcore.rules", name)


@pytest.mark.filterwarnings("ignore::cardcore.PluginWarning")  # it changes nothing in golf
def test_an_optional_hook_of_another_game_is_no_error() -> None:
    def tonk_only_hook(state: Any) -> None:  # a hook golf does not declare
        return None

    _N[0] += 1
    name = f"golf.audit5-{_N[0]}"
    module = types.ModuleType(f"audit5_{_N[0]}")
    module.RULE = RuleInfo(id=f"AUD5-{_N[0]}", name=name, game="golf", summary="t")  # type: ignore[attr-defined]
    module.tonk_only_hook = hookimpl(optionalhook=True)(tonk_only_hook)  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", name, module)
    try:
        assert new_game("golf", 2, rules=[name], seed=1).rules == (name,)
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_a_score_round_wrapper_always_receives_the_scores() -> None:
    inners: list[Any] = []
    passed: list[Any] = []

    def score_round(state: Any, scores: Any) -> Any:
        passed.append(list(scores))
        inner = yield
        inners.append(inner)
        return inner

    _N[0] += 1
    name = f"golf.audit5-{_N[0]}"
    module = types.ModuleType(f"audit5_{_N[0]}")
    module.RULE = RuleInfo(id=f"AUD5-{_N[0]}", name=name, game="golf", summary="t")  # type: ignore[attr-defined]
    module.score_round = hookimpl(wrapper=True)(score_round)  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", name, module)
    try:
        game = new_game("golf", 2, rules=[name], seed=3, options={"rounds": 2})
        cardcore.play(game, [RandomAgent(0), RandomAgent(1)])
    finally:
        cardcore.unregister("cardcore.rules", name)
    assert len(inners) == 2 and [list(i) for i in inners] == passed


@pytest.mark.parametrize(
    ("game", "players", "options", "answer", "match"),
    [
        ("golf", 2, {"rounds": 1}, lambda s: list(s)[:-1], "one integer per seat"),
        ("golf", 2, {"rounds": 1}, lambda s: [float(x) for x in s], "one integer per seat"),
        ("golf", 2, {"rounds": 1}, lambda s: [True] * len(s), "one integer per seat"),
        ("tonk", 2, {"hands": 1}, lambda s: [x + 1 for x in s], "zero sum"),
    ],
    ids=["short", "floats", "bools", "tonk-nonzero"],
)
def test_score_round_answers_are_checked_naming_the_rule(
    game: str, players: int, options: dict[str, Any], answer: Any, match: str
) -> None:
    def score_round(state: Any, scores: Any) -> Any:
        return answer(scores)

    name = _rule(game, score_round=score_round)
    try:
        g = new_game(game, players, rules=[name], seed=3, options=options)
        with pytest.raises(PluginError, match=match) as info:
            cardcore.play(g, [RandomAgent(s) for s in range(players)])
        assert name in str(info.value)
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_applicability_is_checked_before_the_deal_citing_the_rule() -> None:
    rule = RuleInfo(
        id="MY-VAR-1", name="golf.my-variant", game="golf", summary="s", applies={"layout": (4,)}
    )
    assert rule.describe_applies() == "layout 4"
    with pytest.raises(OptionError) as info:
        rule.check_applies({"layout": 6})
    assert info.value.rule_id == "MY-VAR-1"
    with pytest.raises(OptionError) as info:
        new_game("golf", 2, options={"layout": 6}, rules=["golf.diagonal-pairs"])
    assert str(info.value).endswith(f"({info.value.rule_id})") and info.value.rule_id


@pytest.mark.parametrize(("name", "players"), [("golf", 2), ("tonk", 3), ("gofish", 3)])
def test_subscribers_hear_the_first_deal_and_a_seat_hears_no_other_seats_secret(
    name: str, players: int
) -> None:
    heard: dict[int, list[Any]] = {s: [] for s in range(players)}
    subs = [(cardcore.Event, heard[s].append, s) for s in range(players)]
    game = new_game(name, players, seed=4, subscribers=subs)
    assert all(any(type(e).__name__ == "GameStarted" for e in heard[s]) for s in heard)
    assert all(len(heard[s]) > 1 for s in heard)  # the deal's events too, before any action
    _random_walk(game, 120, 1)
    masked = 0
    for seat, events in heard.items():
        for e in events:
            vis = getattr(e, "visible_to", cardcore.ALL)
            if type(e).secret and vis != cardcore.ALL and not (vis >> seat) & 1:
                masked += 1
                assert all(getattr(e, f) is None for f in type(e).secret), e
    assert masked > 0


def test_reads_are_pure_and_views_carry_zones_top_first() -> None:
    game = new_game("golf", 2, seed=1)
    _random_walk(game, 6, 1)
    v = game.version
    view = game.view(0)
    game.legal_actions(0)
    game.history(0)
    assert game.version == v and view["format"] == cardcore.VIEW_FORMAT
    for z, pile in zip(view["zones"], game.state.zones.cards, strict=True):
        assert set(z) >= {"name", "owner", "visibility", "count", "cards"}
        assert z["count"] == len(pile) == len(z["cards"])
        shown = [str(c) if c is not None else None for c in reversed(pile)]
        assert all(a is None or a == b for a, b in zip(z["cards"], shown, strict=True))
    with pytest.raises(SeatError) as info:
        game.legal_actions(2)
    assert isinstance(info.value, IllegalActionError) and info.value.rule_id == "CORE-SEAT-1"


@pytest.mark.parametrize(
    ("name", "players"), [("golf", 2), ("tonk", 3), ("spit", 2), ("gofish", 3)]
)
def test_a_position_reproduces_every_seats_view(name: str, players: int) -> None:
    """migration.rst: ``new_game(..., position=game.position())`` gives the same views and
    legal actions (the version counter alone starts again)."""
    game = new_game(name, players, seed=6)
    _random_walk(game, 7, 6)
    copy = new_game(name, players, position=game.position(), seed=1)
    for seat in range(players):
        a, b = game.view(seat), copy.view(seat)
        a.pop("version")
        b.pop("version")
        assert a == b


def test_a_tampered_version_1_save_loads_nothing() -> None:
    import json

    game = new_game("golf", 2, options={"rounds": 1}, seed=7)
    game.act(0, "flip 0")
    old = json.loads(json.dumps(cardcore.replay(_v1(game.record())).save()))
    old["format_version"] = old["record"]["format_version"] = 1
    del old["record"]["position"]
    assert cardcore.load(old).version == 1
    bad = json.loads(json.dumps(old))
    bad["record"]["actions"][0][1] = "flip 9"
    with pytest.raises(cardcore.CorruptStateError):
        cardcore.load(bad)


def _v1(record: dict[str, Any]) -> dict[str, Any]:
    record = dict(record, format_version=1)
    del record["position"]
    return record


def test_every_built_in_game_package_has_the_common_shape() -> None:
    modules = (
        "rules",
        "hookspecs",
        "actions",
        "events",
        "state",
        "logic",
        "views",
        "position",
        "agents",
    )
    for pkg in ("cardcore_golf", "cardcore_tonk", "cardcore_spit"):
        base = ROOT / "plugins" / pkg
        assert all((base / f"{m}.py").is_file() for m in modules), pkg
        assert (base / "house").is_dir()
    speed = ROOT / "plugins" / "cardcore_spit" / "speed"
    assert all(
        (speed / f"{m}.py").is_file()
        for m in ("rules", "logic", "state", "actions", "views", "position")
    )
    assert cardcore.game_info("speed").name == "speed"
    from cardcore import hookimpl as a
    from cardcore import hookspec as b

    assert a.project_name == b.project_name == "cardcore"
