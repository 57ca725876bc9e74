"""Review (2026-12-07m): how the core blames and recovers from faulty house rules, in
corners the earlier reviews did not try.

A house rule answering a class switches its configuration to ``MovingMark`` (a checkpoint
after every apply, :mod:`cardcore._marks`); its class's code is recorded as the rule's
(``counted_class``); each rule's last answer is kept per thread (``Ruleset._gave``, read by
``_blame.gave`` in ``GameLogic.refused_answer``). Tried here: such a rule in a real-time
game, after ``single_thread()``, on a clone and its original, in ``replay`` and in
``simulate``; a wrapper (new and old style) answering a class; a plain rule's class passed
on by another rule's wrapper; two games of one configuration in two threads at once; and a
class failing only in the k-th game of its configuration.

Every rule is a real module written to ``tmp_path``, imported through ``sys.path`` and
registered as a house rule, always unregistered. Not repeated:
tests/test_moving_mark_review_2026_12_07j.py, tests/test_kept_class_review_2026_12_07i.py,
tests/test_blame_record_review_2026_12_07h.py, tests/test_fault_injection_review_2026_12_07g.py,
tests/test_blame_docs_claims_2026_12_07k.py.
"""

from __future__ import annotations

import importlib
import random
import sys
import textwrap
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import cardcore
from cardcore import PluginError
from cardcore._marks import HookMark, MovingMark

HEADER = """\
from cardcore import RuleInfo, hookimpl
RULE = RuleInfo(id={rule_id!r}, name={name!r}, game={game!r}, summary="review rule")
"""

GOLF_CLASS_SCORER = """
from cardcore_golf.grids import default_scorer

DOWN = [False]
CALLS = [0]


@hookimpl
def golf_scorer(layout):
    scorer = default_scorer(layout)

    class ServiceScorer:
        def __new__(cls, keys, pts):
            CALLS[0] += 1
            if DOWN[0]:
                raise ConnectionError("scoring service down")
            return scorer(keys, pts)

    return ServiceScorer
"""


@contextmanager
def rule(tmp_path: Path, name: str, rule_id: str, game: str, source: str) -> Iterator[ModuleType]:
    """A house rule: a real module in *tmp_path*, imported and registered (then undone)."""
    modname = "rv7m_" + name.replace(".", "_").replace("-", "_")
    text = HEADER.format(rule_id=rule_id, name=name, game=game) + textwrap.dedent(source)
    (tmp_path / f"{modname}.py").write_text(text)
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module(modname)
        cardcore.register("cardcore.rules", name, module)
        try:
            yield module
        finally:
            cardcore.unregister("cardcore.rules", name)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(modname, None)


def cards(game: cardcore.Game) -> Counter[str]:
    return Counter(str(c) for pile in game.state.zones.cards for c in pile)


def snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    seats = range(len(game.players))
    legal = tuple(tuple(map(str, game.legal_actions(s))) for s in game.to_act)
    return (
        game.position(),
        game.version,
        game.record(),
        game.view(None),
        *(game.view(s) for s in seats),
        legal,
    )


def step(game: cardcore.Game, rng: random.Random) -> None:
    game.apply(rng.choice(game.legal_actions(game.to_act[0])))


def play(game: cardcore.Game, rng: random.Random) -> None:
    while not game.is_over:
        step(game, rng)


def fail_next_scoring(game: cardcore.Game, down: list[bool], rng: random.Random) -> PluginError:
    """Random play until an apply calls the rule's class while it is down: the PluginError,
    the game checked unchanged (state, views, legal actions, record, every card once)."""
    while not game.is_over:
        action = rng.choice(game.legal_actions(game.to_act[0]))
        before, deck = snapshot(game), cards(game)
        down[0] = True
        try:
            game.apply(action)
        except PluginError as exc:
            down[0] = False
            assert snapshot(game) == before
            assert cards(game) == deck and max(deck.values()) == 1
            return exc
        finally:
            down[0] = False
    raise AssertionError("the rule's class was never called")


# --- 1. a rule answering a class: single_thread, clone, replay, simulate, real time -----------


def test_single_thread_game_of_a_class_rule_is_restored_and_names_the_rule(tmp_path: Path) -> None:
    with rule(tmp_path, "golf.rv7m-st", "RV7M-ST-1", "golf", GOLF_CLASS_SCORER) as mod:
        game = cardcore.new_game("golf", 2, rules=["golf.rv7m-st"], seed=31).single_thread()
        assert type(game.ruleset.hooks) is MovingMark
        rng = random.Random(4)
        error = fail_next_scoring(game, mod.DOWN, rng)
        assert error.plugin == "golf.rv7m-st"
        assert game._base[0] == game.version  # (a checkpoint at every apply)
        play(game, rng)
        again = cardcore.replay(game.record())
        assert again.result.scores == game.result.scores
        assert again.view(None) == game.view(None)


def test_a_clone_and_its_original_each_restore_a_class_rule_failure(tmp_path: Path) -> None:
    with rule(tmp_path, "golf.rv7m-cl", "RV7M-CL-1", "golf", GOLF_CLASS_SCORER) as mod:
        game = cardcore.new_game("golf", 2, rules=["golf.rv7m-cl"], seed=32)
        rng = random.Random(8)
        for _ in range(6):
            step(game, rng)
        twin = game.clone()
        twin_before = snapshot(twin)
        first = fail_next_scoring(game, mod.DOWN, random.Random(1))
        assert snapshot(twin) == twin_before  # the original's failure left the clone alone
        second = fail_next_scoring(twin, mod.DOWN, random.Random(1))
        assert first.plugin == second.plugin == "golf.rv7m-cl"
        assert game.position() == twin.position()  # the same failing action, the same restore
        play(game, random.Random(2))
        play(twin, random.Random(2))
        assert game.result.scores == twin.result.scores
        assert cardcore.replay(twin.record()).result.scores == twin.result.scores


def test_replaying_a_record_of_a_class_rule_names_it_when_down_and_matches_when_up(
    tmp_path: Path,
) -> None:
    with rule(tmp_path, "golf.rv7m-rp", "RV7M-RP-1", "golf", GOLF_CLASS_SCORER) as mod:
        game = cardcore.new_game("golf", 2, rules=["golf.rv7m-rp"], seed=33)
        play(game, random.Random(5))
        record = game.record()
        mod.DOWN[0] = True
        try:
            with pytest.raises(PluginError) as caught:
                cardcore.replay(record)
        finally:
            mod.DOWN[0] = False
        assert caught.value.plugin == "golf.rv7m-rp"
        again = cardcore.replay(record)
        assert (again.result.scores, again.result.winners) == (
            game.result.scores,
            game.result.winners,
        )
        assert again.record() == record


def test_simulate_with_a_class_rule_plays_as_the_game_and_names_it_when_down(
    tmp_path: Path,
) -> None:
    plain = cardcore.simulate("golf", games=4, seed=9)
    with rule(tmp_path, "golf.rv7m-sim", "RV7M-SIM-1", "golf", GOLF_CLASS_SCORER) as mod:
        with_rule = cardcore.simulate("golf", games=4, seed=9, rules=["golf.rv7m-sim"])
        assert mod.CALLS[0] > 0  # the class scored every round
        assert (with_rule.wins, with_rule.mean_scores) == (plain.wins, plain.mean_scores)
        mod.DOWN[0] = True
        try:
            with pytest.raises(PluginError) as caught:
                cardcore.simulate("golf", games=2, seed=9, rules=["golf.rv7m-sim"])
        finally:
            mod.DOWN[0] = False
        assert caught.value.plugin == "golf.rv7m-sim"


SPEED_CLASS_RULE = """
DOWN = [False]
CLASS = [False]


class Gap(int):
    pass


@hookimpl
def spit_rank_gaps():
    return [Gap] if CLASS[0] else [1]


@hookimpl
def forbid_action(state, action):
    if DOWN[0]:
        raise ConnectionError("veto service down")
    return None
"""


class Quick:
    """A real-time agent taking a seeded random legal action after a seeded delay."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def plan(self, view: Any, legal: Any, now: float) -> Any:
        return cardcore.Plan(self.rng.choice(legal), self.rng.uniform(0.2, 1.0)) if legal else None


def test_a_real_time_game_of_a_moved_configuration_restores_a_failing_rule(tmp_path: Path) -> None:
    """Speed: the rule's list hook answers a class (asked through ``Ruleset.resolve``, the
    one way to call a hook), so every apply keeps a checkpoint; then its ``forbid_action``
    goes down during ``run_realtime``: named, the game as after its last action, and it
    plays on and replays."""
    with rule(tmp_path, "spit.rv7m-rt", "RV7M-RT-1", "spit", SPEED_CLASS_RULE) as mod:
        game = cardcore.new_game("spit", 2, rules=["spit.rv7m-rt"], seed=34)
        mod.CLASS[0] = True
        assert game.ruleset.resolve("spit_rank_gaps")() is not None
        mod.CLASS[0] = False
        assert type(game.ruleset.hooks) is MovingMark
        deck = cards(game)
        last: list[Any] = []

        def on_action(g: cardcore.Game, action: Any, now: float) -> None:
            assert g._base[0] == g.version  # a checkpoint after every apply
            last[:] = [snapshot(g)]
            if g.version == 25:
                mod.DOWN[0] = True  # the veto service goes down after 25 actions

        try:
            with pytest.raises(PluginError) as caught:
                cardcore.run_realtime(game, [Quick(1), Quick(2)], seed=3, on_action=on_action)
        finally:
            mod.DOWN[0] = False
        assert caught.value.plugin == "spit.rv7m-rt"
        assert game.version == 25 and snapshot(game) == last[0]
        assert cards(game) == deck
        cardcore.run_realtime(game, [Quick(3), Quick(4)], seed=4, start=100.0)
        assert game.is_over
        again = cardcore.replay(game.record())
        assert again.view(None) == game.view(None) and again.result.scores == game.result.scores


# --- 2. wrappers answering a class -------------------------------------------------------------

NEW_WRAPPER = """
from cardcore_golf.grids import default_scorer

DOWN = [False]


@hookimpl(wrapper=True)
def golf_scorer(layout):
    yield
    scorer = default_scorer(layout)

    class Wrapped:
        def __new__(cls, keys, pts):
            if DOWN[0]:
                raise ConnectionError("scoring service down")
            return scorer(keys, pts)

    return Wrapped
"""

OLD_WRAPPER = """
from cardcore_golf.grids import default_scorer

DOWN = [False]


@hookimpl(hookwrapper=True)
def golf_scorer(layout):
    outcome = yield
    scorer = default_scorer(layout)

    class Forced:
        def __new__(cls, keys, pts):
            if DOWN[0]:
                raise ConnectionError("scoring service down")
            return scorer(keys, pts)

    outcome.force_result(Forced)
"""


@pytest.mark.parametrize("source", [NEW_WRAPPER, OLD_WRAPPER], ids=["wrapper", "hookwrapper"])
def test_a_wrapper_replacing_the_answer_with_a_class_is_tracked_and_blamed(
    tmp_path: Path, source: str
) -> None:
    name = "golf.rv7m-w" + ("new" if source is NEW_WRAPPER else "old")
    with rule(tmp_path, name, "RV7M-W-1", "golf", source) as mod:
        game = cardcore.new_game("golf", 2, rules=[name], seed=35)
        assert type(game.ruleset.hooks) is MovingMark  # as if a rule's own hook answered it
        error = fail_next_scoring(game, mod.DOWN, random.Random(6))
        assert error.plugin == name
        play(game, random.Random(6))
        assert cardcore.replay(game.record()).result.scores == game.result.scores


PASSING_WRAPPER = """
@hookimpl(wrapper=True)
def golf_scorer(layout):
    return (yield)
"""

FUNCTION_SCORER = """
from cardcore_golf.grids import default_scorer

DOWN = [False]


@hookimpl
def golf_scorer(layout):
    scorer = default_scorer(layout)

    def service(keys, pts):
        if DOWN[0]:
            raise ConnectionError("scoring service down")
        return scorer(keys, pts)

    return service
"""


def passed_on(tmp_path: Path, source: str, tag: str) -> tuple[PluginError, str]:
    """The error of the scorer rule *source* (answering through another rule's pass-through
    wrapper) going down inside an apply, and the scorer rule's name."""
    scorer, wrapper = f"golf.rv7m-{tag}", f"golf.rv7m-{tag}-pass"
    with ExitStack() as stack:
        mod = stack.enter_context(rule(tmp_path, scorer, f"RV7M-{tag.upper()}-1", "golf", source))
        stack.enter_context(
            rule(tmp_path, wrapper, f"RV7M-{tag.upper()}-2", "golf", PASSING_WRAPPER)
        )
        game = cardcore.new_game("golf", 2, rules=[scorer, wrapper], seed=36)
        error = fail_next_scoring(game, mod.DOWN, random.Random(7))
        play(game, random.Random(7))  # it plays on
        return error, scorer


def test_a_function_passed_on_by_another_rules_wrapper_names_the_rule_that_answered(
    tmp_path: Path,
) -> None:
    error, scorer = passed_on(tmp_path, FUNCTION_SCORER, "pf")
    assert error.plugin == scorer


def test_a_class_passed_on_by_another_rules_wrapper_names_the_rule_that_answered(
    tmp_path: Path,
) -> None:
    error, scorer = passed_on(tmp_path, GOLF_CLASS_SCORER, "pc")
    assert error.plugin == scorer


# --- 3. two games of one configuration in two threads at once ----------------------------------

THREAD_AWARDS = """
import threading

BARRIER = [None]
WRONG_IN = ["A"]
SEEN = set()


@hookimpl
def golf_round_awards(layout, keys):
    me = threading.current_thread().name
    if me not in SEEN:
        SEEN.add(me)
        BARRIER[0].wait()  # both threads' games are inside this hook at once
        if me == WRONG_IN[0]:
            return [0] * (len(keys) + 1)  # wrong (one award too many), once
    return [0] * len(keys)  # a valid answer
"""


def test_a_wrong_answer_in_one_thread_is_blamed_while_another_thread_answers_well(
    tmp_path: Path,
) -> None:
    with rule(tmp_path, "golf.rv7m-thr", "RV7M-THR-1", "golf", THREAD_AWARDS) as mod:
        mod.BARRIER[0] = threading.Barrier(2, timeout=10)
        out: dict[str, Any] = {}

        def run(tag: str, seed: int) -> None:
            game = cardcore.new_game("golf", 2, rules=["golf.rv7m-thr"], seed=seed)
            rng = random.Random(seed)
            try:
                while not game.is_over:
                    action = rng.choice(game.legal_actions(game.to_act[0]))
                    before = snapshot(game)
                    try:
                        game.apply(action)
                    except PluginError as exc:
                        out[tag] = (exc, snapshot(game) == before)
                        play(game, rng)  # it goes on (the rule answers well from now)
                        return
                out[tag] = game.result
            except BaseException as exc:  # reported below
                out[tag] = exc

        threads = [threading.Thread(target=run, args=t, name=t[0]) for t in (("A", 41), ("B", 42))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(15)
        error, unchanged = out["A"]
        assert isinstance(error, PluginError) and unchanged
        assert error.plugin == "golf.rv7m-thr"
        assert isinstance(out["B"], cardcore.Result)


# --- 4. a class failing only in the k-th game of its configuration ----------------------------

KTH_GAME = """
from cardcore_golf.grids import default_scorer

GAME = [0]
FAIL_IN = [None]


@hookimpl
def golf_scorer(layout):
    scorer = default_scorer(layout)

    class Scorer:
        def __new__(cls, keys, pts):
            if GAME[0] == FAIL_IN[0]:
                raise ConnectionError("scoring service down in this game")
            return scorer(keys, pts)

    return Scorer
"""


def test_a_class_failing_only_in_the_kth_game_leaves_the_others_and_restores_it(
    tmp_path: Path,
) -> None:
    k, games = 7, 9
    with rule(tmp_path, "golf.rv7m-kth", "RV7M-KTH-1", "golf", KTH_GAME) as mod:
        mod.FAIL_IN[0] = k
        results = []
        for i in range(games):
            mod.GAME[0] = i
            game = cardcore.new_game("golf", 2, rules=["golf.rv7m-kth"], seed=100 + i)
            rng = random.Random(i)
            if i != k:
                play(game, rng)
                results.append(game.result.scores)
                continue
            error = None
            while not game.is_over:
                action = rng.choice(game.legal_actions(game.to_act[0]))
                before = snapshot(game)
                try:
                    game.apply(action)
                except PluginError as exc:
                    error = exc
                    assert snapshot(game) == before
                    break
            assert error is not None and error.plugin == "golf.rv7m-kth"
            mod.FAIL_IN[0] = None  # the service is back: the k-th game goes on
            play(game, rng)
            assert cardcore.replay(game.record()).result.scores == game.result.scores
            results.append(game.result.scores)
    reference = []
    for i in range(games):  # the game's own scorer: the same results in every game
        game = cardcore.new_game("golf", 2, seed=100 + i)
        play(game, random.Random(i))
        reference.append(game.result.scores)
    assert results[:k] == reference[:k]
    assert type(cardcore.get_ruleset("golf", []).hooks) is HookMark
