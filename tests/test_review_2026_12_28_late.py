"""Late review of 2026-12-28's fixes (7c2eb7b..a0dea42): ``Ruleset.tracked`` keeping
``__wrapped__``, ``guarded_chain`` handing int subclasses back as plain ints, ``end_game``'s
refusals, ``find_rules`` of an object, the web session list and the quota's snapshot.

One strict xfail: ``guarded_chain`` turns int subclasses into ints one level deep in the
*chain's* answer, but a hook that collects answers (``golf_round_awards``) answers a list of
each rule's list, so an ``int`` subclass a rule answers in its list stays one beneath a
pass-through wrapper; Golf then refuses the answer (blaming both rules) where, without the
wrapper, the game goes on. A second strict xfail (older than these changes): beneath a
wrapper a function a rule answered is tracked but not guarded, so when it fails and its code
lives outside the rule's module (a helper, a rule registered in place) the error is blamed
on the game "in apply"; alone, the rule is named. Everything else here pins claims that
held. Fixed seeds and scripted or seeded play only; no timing.
"""

from __future__ import annotations

import inspect
import json
import random
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import cardcore
from cardcore import GameState, Veto, hookimpl
from cardcore.cli.rulebook import find_rules
from cardcore.errors import ArgumentError
from cardcore.turns import end_game
from cardcore_golf.grids import default_scorer
from tests.core.test_hook_mutants_2026_12_28 import _Int, _Rank, _registered, _rule
from tests.hardening.test_hostile_hooks import _dump, _finish, _play_until_error


class _Sticky(int):
    """An int subclass whose sums stay of the subclass (what the fix keeps out of states)."""

    def __add__(self, other: object) -> _Sticky:
        return _Sticky(int(self) + int(other))  # type: ignore[call-overload]

    __radd__ = __add__


def _passes_layout(layout: Any) -> Any:
    return (yield)


def _passes_layout_keys(layout: Any, keys: Any) -> Any:
    return (yield)


def _passes_nothing() -> Any:
    return (yield)


def _play(game: cardcore.Game, seed: int) -> None:
    rng = random.Random(seed)
    while not game.is_over:
        seat = rng.choice([s for s in game.to_act if game.legal_actions(s)])
        game.apply(rng.choice(game.legal_actions(seat)))


# --- guarded_chain: int subclasses, and nothing else, come back changed ----------------------


def _through_wrapper(value: Any) -> Any:
    """*value* answered by a house rule of the firstresult ``golf_final_turns``, passed on by
    another rule's wrapper, as the resolved hook answers it (untracked: identity kept)."""
    wrapper = _rule(
        "GOLF-LATE-1", "golf.late-wrap", golf_final_turns=hookimpl(wrapper=True)(_passes_layout)
    )
    answer = _rule(
        "GOLF-LATE-2", "golf.late-answer", golf_final_turns=hookimpl(lambda layout: value)
    )
    with _registered(wrapper, answer):
        ruleset = cardcore.get_ruleset("golf", [wrapper.RULE.name, answer.RULE.name])
        hook = ruleset.resolve("golf_final_turns", track=False)
        assert hook is not None
        return hook(layout=None)


def test_an_int_subclass_and_those_in_a_tuple_come_back_plain_ints() -> None:
    out = _through_wrapper(_Int(5))
    assert out == 5 and type(out) is int
    out = _through_wrapper((_Int(2), "x", _Rank.ACE, True))
    assert out == (2, "x", _Rank.ACE, True)
    assert [type(x) for x in out] == [int, str, _Rank, bool]


@pytest.mark.parametrize("value", [True, False, _Rank.ACE, 7], ids=repr)
def test_bools_enum_members_and_plain_ints_come_back_as_they_are(value: Any) -> None:
    assert _through_wrapper(value) is value


def test_a_list_subclass_and_a_generator_come_back_the_very_objects() -> None:
    class Listed(list[Any]):
        pass

    listed = Listed([_Int(1)])
    assert _through_wrapper(listed) is listed  # as guarded() answers it: not looked into
    assert type(listed[0]) is _Int

    def numbers() -> Iterator[int]:
        yield _Int(1)

    gen = numbers()
    assert _through_wrapper(gen) is gen
    assert type(next(gen)) is _Int  # never read by the guard


def test_vetoes_and_callables_in_a_list_come_back_the_same_items() -> None:
    veto = Veto("GOLF-LATE-9", "no")

    def judge() -> int:
        return 1

    out = _through_wrapper([veto, judge, None])
    assert type(out) is list and len(out) == 3 and out[0] is veto and out[2] is None
    # a function a rule answers comes back guarded (naming the rule if it fails, as without
    # a wrapper: the fix of the scorer test below), the very function beneath the guards
    assert inspect.unwrap(out[1]) is judge and out[1]() == 1


def test_a_forbid_action_veto_through_a_wrapper_still_vetoes_by_its_id() -> None:
    wrapper = _rule(
        "GOLF-LATE-3",
        "golf.late-veto-wrap",
        forbid_action=hookimpl(wrapper=True)(lambda action: (yield)),
    )
    vetoes = _rule(
        "GOLF-LATE-4",
        "golf.late-vetoes",
        forbid_action=hookimpl(lambda action: Veto("GOLF-LATE-4", "never")),
    )
    with _registered(wrapper, vetoes):
        ruleset = cardcore.get_ruleset("golf", [wrapper.RULE.name, vetoes.RULE.name])
        assert ruleset.veto is not None
        out = ruleset.veto(state=None, action="draw")
        game = cardcore.new_game("golf", 2, rules=[wrapper.RULE.name, vetoes.RULE.name], seed=1)
        assert game.legal_actions(game.to_act[0]) == ()
    assert type(out) is list and [v.rule_id for v in out] == ["GOLF-LATE-4"]


def test_round_awards_of_an_int_subclass_pass_through_a_wrapper_as_without_one() -> None:
    """Smallest reproduction: a rule answering ``golf_round_awards`` ``[_Sticky(3), 0]``
    and another rule's pass-through wrapper; without the wrapper the game ends and saves."""
    wrapper = _rule(
        "GOLF-LATE-5",
        "golf.late-awards-wrap",
        golf_round_awards=hookimpl(wrapper=True)(_passes_layout_keys),
    )
    awards = _rule(
        "GOLF-LATE-6",
        "golf.late-awards",
        golf_round_awards=hookimpl(lambda layout, keys: [_Sticky(3)] + [0] * (len(keys) - 1)),
    )
    results = []
    with _registered(wrapper, awards):
        for names in ([awards.RULE.name], [wrapper.RULE.name, awards.RULE.name]):
            game = cardcore.new_game("golf", 2, rules=names, options={"rounds": 1}, seed=3)
            _play(game, 3)
            json.dumps(game.save())
            results.append(game.state.result)
    assert results[0] == results[1]


def test_round_awards_of_plain_ints_pass_through_a_wrapper() -> None:
    """The same game with plain ints: the wrapper changes nothing (the xfail's control)."""
    wrapper = _rule(
        "GOLF-LATE-7",
        "golf.late-awards-wrap2",
        golf_round_awards=hookimpl(wrapper=True)(_passes_layout_keys),
    )
    awards = _rule(
        "GOLF-LATE-8",
        "golf.late-awards2",
        golf_round_awards=hookimpl(lambda layout, keys: [3] + [0] * (len(keys) - 1)),
    )
    results = []
    with _registered(wrapper, awards):
        for names in ([awards.RULE.name], [wrapper.RULE.name, awards.RULE.name]):
            game = cardcore.new_game("golf", 2, rules=names, options={"rounds": 1}, seed=3)
            _play(game, 3)
            results.append(game.state.result)
    assert results[0] == results[1]


# --- Ruleset.tracked keeps __wrapped__ -------------------------------------------------------


def test_tracked_functions_unwrap_to_the_plugins_code_and_still_set_the_hook_mark() -> None:
    ruleset = cardcore.get_ruleset("golf", [])

    def scorer(keys: Any, points: Any, *, bonus: int = 0) -> int:
        return 1 + bonus

    for answers in (False, True):
        tracked = ruleset.tracked(scorer, answers=answers)
        assert inspect.unwrap(tracked) is scorer
        assert inspect.signature(tracked) == inspect.signature(scorer)
        before = ruleset.hook_mark
        assert tracked(None, None, bonus=2) == 3
        assert ruleset.hook_mark != before
    judges = ruleset.tracked(lambda: [scorer, (scorer,)], answers=True)()
    assert [inspect.unwrap(judges[0]), inspect.unwrap(judges[1][0])] == [scorer, scorer]
    assert judges[0] is not scorer  # still tracked: calling it moves the mark
    before = ruleset.hook_mark
    judges[1][0](None, None)
    assert ruleset.hook_mark != before


@pytest.fixture
def house_rule() -> Iterator[Callable[..., str]]:
    """Register a house rule whose hooks are *source* run in its own module (so its code is
    the rule's, as in a plugin package), with *names* in that module; removed after."""
    names: list[str] = []

    def make(game: str, tag: str, source: str, **given: Any) -> str:
        name = f"{game}.late-{tag}"
        module = types.ModuleType(f"late_{game}_{tag.replace('-', '_')}")
        module.RULE = cardcore.RuleInfo(  # type: ignore[attr-defined]
            id=f"TEST-LATE-{tag.upper()}", name=name, game=game, summary="late review"
        )
        vars(module).update(given, hookimpl=hookimpl)
        exec(source, vars(module))  # the rule's code, in its module
        cardcore.register("cardcore.rules", name, module)
        names.append(name)
        return name

    yield make
    for name in names:
        cardcore.unregister("cardcore.rules", name)


SCORER = """
@hookimpl
def golf_scorer(layout):
    base = default_scorer(layout)

    def scorer(keys, points):
        if switch["on"]:
            raise ValueError("scorer down")
        return base(keys, points)

    return scorer
"""
WRAPS_SCORER = """
@hookimpl(wrapper=True)
def golf_scorer(layout):
    return (yield)
"""
JUDGE = """
def judge(hands, values):
    if switch["on"]:
        raise ValueError("judge down")

@hookimpl
def tonk_deal_judge():
    return judge
"""
WRAPS_JUDGE = """
@hookimpl(wrapper=True)
def tonk_deal_judge():
    return (yield)
"""


@pytest.mark.parametrize("wrapped", [False, True], ids=["alone", "beneath-a-wrapper"])
def test_a_scorer_failing_names_its_rule_and_changes_nothing(
    house_rule: Callable[..., str], wrapped: bool
) -> None:
    switch = {"on": False}
    name = house_rule("golf", "scorer", SCORER, switch=switch, default_scorer=default_scorer)
    rules = [house_rule("golf", "scorer-wrap", WRAPS_SCORER)] if wrapped else []
    game = cardcore.new_game("golf", 2, rules=[*rules, name], options={"rounds": 3}, seed=9)
    switch["on"] = True
    failure, before = _play_until_error(game, 9)
    assert getattr(failure, "plugin", None) == name
    assert "scorer down" in str(failure)
    assert _dump(game) == before
    assert _dump(cardcore.load(game.save())) == before
    switch["on"] = False
    _finish(game, 10)


@pytest.mark.parametrize("wrapped", [False, True], ids=["alone", "beneath-a-wrapper"])
def test_a_tonk_judge_in_the_list_failing_names_its_rule_and_changes_nothing(
    house_rule: Callable[..., str], wrapped: bool
) -> None:
    """``tonk_deal_judge`` collects functions: the hook answers a list of them."""
    switch = {"on": False}
    name = house_rule("tonk", "judge", JUDGE, switch=switch)
    rules = [house_rule("tonk", "judge-wrap", WRAPS_JUDGE)] if wrapped else []
    game = cardcore.new_game("tonk", 2, rules=[*rules, name], options={"hands": 3}, seed=5)
    switch["on"] = True
    failure, before = _play_until_error(game, 5)
    assert getattr(failure, "plugin", None) == name
    assert "judge down" in str(failure)
    assert _dump(game) == before
    switch["on"] = False
    _finish(game, 6)


def test_a_scorer_from_a_helper_failing_beneath_a_wrapper_names_its_rule() -> None:
    """Smallest reproduction: ``golf_scorer`` answers a function defined here (not in the
    rule's module); another rule's pass-through wrapper. Alone, the rule is named."""
    switch = {"on": False}

    def scorer(keys: Any, points: Any) -> int:
        if switch["on"]:
            raise ValueError("scorer down")
        return 0

    answers = _rule("GOLF-LATE-10", "golf.late-helper", golf_scorer=hookimpl(lambda: scorer))
    wrapper = _rule(
        "GOLF-LATE-11",
        "golf.late-helper-wrap",
        golf_scorer=hookimpl(wrapper=True)(_passes_nothing),
    )
    with _registered(answers, wrapper):
        names = [wrapper.RULE.name, answers.RULE.name]
        game = cardcore.new_game("golf", 2, rules=names, options={"rounds": 3}, seed=9)
        switch["on"] = True
        failure, before = _play_until_error(game, 9)
        assert _dump(game) == before
    assert getattr(failure, "plugin", None) == "golf.late-helper"


def test_a_scorer_from_a_helper_failing_alone_names_its_rule() -> None:
    """The xfail's control: without the wrapper the guard names the rule."""
    switch = {"on": False}

    def scorer(keys: Any, points: Any) -> int:
        if switch["on"]:
            raise ValueError("scorer down")
        return 0

    answers = _rule("GOLF-LATE-12", "golf.late-helper2", golf_scorer=hookimpl(lambda: scorer))
    with _registered(answers):
        game = cardcore.new_game(
            "golf", 2, rules=[answers.RULE.name], options={"rounds": 3}, seed=9
        )
        switch["on"] = True
        failure, before = _play_until_error(game, 9)
        assert _dump(game) == before
    assert getattr(failure, "plugin", None) == "golf.late-helper2"


# --- end_game ----------------------------------------------------------------------------------


def _state() -> GameState:
    return cardcore.new_game("golf", 2, seed=1).state


@pytest.mark.parametrize(
    ("winners", "scores", "payouts"),
    [
        ([True], [1, 2], None),
        ([0], [True, 2], None),
        ([0], ["1", 2], None),
        ([0], [b"1", 2], None),
        ([0], [1, 2], [1, False]),
        ([0], [1, 2], ["1", 0]),
        ([0], [1, 2], [1.5, 0]),
        ((w for w in [True]), [1, 2], None),
        ([0], (s for s in ["1", 2]), None),
        ([0], [1, 2], (p for p in [True, 0])),
    ],
    ids=lambda v: repr(v) if not inspect.isgenerator(v) else "gen",
)
def test_end_game_refuses_bools_and_texts_and_changes_nothing(
    winners: Any, scores: Any, payouts: Any
) -> None:
    state = _state()
    before = (state.is_over, state.result, state.to_act)
    with pytest.raises(ArgumentError, match="end_game takes winners"):
        end_game(state, winners, scores, "out", payouts=payouts)
    assert (state.is_over, state.result, state.to_act) == before


def test_end_game_reads_generators_once() -> None:
    state = _state()
    result = end_game(
        state, (w for w in [1]), (s for s in [3, 1.5]), "out", payouts=(p for p in [-2, 2])
    )
    assert (result.winners, result.scores, result.payouts) == ((1,), (3.0, 1.5), (-2, 2))
    assert state.is_over and state.to_act == ()


# --- find_rules --------------------------------------------------------------------------------


def test_find_rules_of_objects_with_and_without_names() -> None:
    text = "# Rules\n\n| X-1 | one |\n"
    assert find_rules(types.SimpleNamespace(RULES_MD=text)) == text  # no __name__ at all
    assert find_rules(types.SimpleNamespace()) is None
    assert find_rules(types.SimpleNamespace(__name__=3)) is None
    assert find_rules(types.SimpleNamespace(RULES_MD="  \n", __name__=None)) is None
    golf = find_rules("cardcore_golf.rules")
    assert golf is not None
    named = types.SimpleNamespace(RULES_MD="   ", __name__="cardcore_golf.rules")
    assert find_rules(named) == golf  # an empty RULES_MD falls back to the package's file


# --- the web session list and the quota --------------------------------------------------------

BOTS = [{"name": n, "agent": "random", "params": {"seed": i}} for i, n in enumerate("AB")]


def test_the_session_list_pages_newest_first_and_counts_listed_games_only() -> None:
    pytest.importorskip("starlette")
    from cardcore.web.app import ServerLimits
    from tests.web.helpers import create, serve

    limits = ServerLimits(max_bot_games=0)
    with serve(server_limits=limits, bot_delay=60.0) as (client, _server, _):
        ids = [create(client, "golf", BOTS)["session"] for _ in range(4)]
        waiting = create(client, "golf", [{"name": "Ann"}, {"name": "Bob"}])["session"]
        r = client.get("/api/sessions")
        assert [s["session"] for s in r.json()] == ids[::-1]
        assert r.headers["X-Total-Count"] == "4" and waiting not in r.text
        r = client.get("/api/sessions?offset=1&limit=2")
        assert [s["session"] for s in r.json()] == [ids[2], ids[1]]
        assert r.headers["X-Total-Count"] == "4"
        r = client.get("/api/sessions?offset=4")
        assert r.json() == [] and r.headers["X-Total-Count"] == "4"


def test_the_quota_counts_live_games_from_a_snapshot_of_the_sessions() -> None:
    """A session closed while the check reads the phases (another thread's sweep: here the
    reading itself removes one) is counted as it was; no "changed size" error."""
    pytest.importorskip("starlette")
    from cardcore.web._quota import LimitError, Quota
    from cardcore.web.app import ServerLimits

    sessions: dict[str, Any] = {}

    class Closing:
        def __init__(self, sid: str) -> None:
            self.id = sid

        @property
        def phase(self) -> str:
            sessions.pop("c", None)  # the sweep closes another game meanwhile
            return "playing"

    sessions.update({k: Closing(k) for k in "abc"})
    with pytest.raises(LimitError, match="holds 3 games already"):
        Quota(ServerLimits(max_sessions=3)).check(sessions, (), None, False)
    sessions.update(c=Closing("c"))
    Quota(ServerLimits(max_sessions=4)).check(sessions, (), None, False)
    assert "c" not in sessions
