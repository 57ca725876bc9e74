"""Review of 6c5925da (wrapper blame: ``is_cores``, ``passes``, ``answered=True``) and of
022df2e9 (Spit's own answers checked), written as a house-rule author would write rules:
in real modules on disk (so ``__module__`` and the frames' globals are the rule's, as for
an installed rule), with hook wrappers, ``functools.wraps`` copies, partials, classes,
helper modules, and two rules nesting wrappers.

Documented promises under attack (docs/hooks.rst, docs/security.rst "Hooks inside apply"):

* a function a hook answers that raises later is the rule's failure: the rule whose code
  failed in it, or else the rule (a wrapper included) that answered it;
* ``apply`` restores the game exactly and "Restoring calls no house rule, so a hook that
  keeps failing (a scoring service that went down and stays down) cannot fail the restore";
* a wrapper that only passes the answer on changes nothing in play.
"""

from __future__ import annotations

import functools
import importlib
import random
import sys
import textwrap
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import PluginError, RuleInfo, hookimpl
from cardcore_spit.actions import ClaimRule
from tests.test_fix_review_2026_12_07f import at_last_discard, house_rule, snapshot

# --- real rule modules on disk ---------------------------------------------------------------


@contextmanager
def modules(tmp_path: Path, sources: dict[str, str]) -> Iterator[dict[str, Any]]:
    """Write *sources* (dotted module name -> code) under *tmp_path*, import them, and
    register every module holding a ``RULE`` as that house rule."""
    sys.path.insert(0, str(tmp_path))
    done: list[str] = []
    roots = {name.partition(".")[0] for name in sources}
    try:
        for name, code in sources.items():
            parts = name.split(".")
            folder = tmp_path
            for part in parts[:-1]:
                folder = folder / part
                folder.mkdir(exist_ok=True)
                (folder / "__init__.py").touch()
            (folder / f"{parts[-1]}.py").write_text(textwrap.dedent(code))
        importlib.invalidate_caches()
        loaded = {name: importlib.import_module(name) for name in sources}
        for module in loaded.values():
            info = getattr(module, "RULE", None)
            if isinstance(info, RuleInfo):
                cardcore.register("cardcore.rules", info.name, module)
                done.append(info.name)
        yield loaded
    finally:
        for name in reversed(done):
            cardcore.unregister("cardcore.rules", name)
        for key in [k for k in sys.modules if k.partition(".")[0] in roots]:
            del sys.modules[key]
        sys.path.remove(str(tmp_path))


def rule_header(rid: str, name: str, game: str) -> str:
    return (
        "import functools\n"
        "from cardcore import RuleInfo, hookimpl, OptionError, PluginError, ArgumentError\n"
        f"RULE = RuleInfo(id={rid!r}, name={name!r}, game={game!r}, summary='review rule')\n"
    )


def apply_refused(game: cardcore.Game, action: Any) -> PluginError:
    before = snapshot(game)
    with pytest.raises(PluginError) as failure:
        game.apply(action)
    assert snapshot(game) == before
    return failure.value


# --- Tonk: a stock function a wrapper answers, made in the rule's helper module -------------

HELPERS = """
import functools
from cardcore import OptionError, PluginError, ArgumentError

def fail(kind):
    if kind == "option":
        raise OptionError("refused in play")
    if kind == "unnamed":
        raise PluginError("the rule's own refusal")
    if kind == "argument":
        raise ArgumentError("bad argument")
    raise LookupError("helper down")

def plain(inner, kind):
    def ends(state):
        fail(kind)
    return ends

def copied(inner, kind):
    @functools.wraps(inner)
    def ends(state):
        fail(kind)
    return ends

def partial(inner, kind):
    return functools.partial(fail, kind)
"""

STOCK_RULE = """
from rvg7g import helpers
@hookimpl(wrapper=True)
def tonk_hand_ends_on_empty_stock():
    inner = yield
    return helpers.{how}(inner, {kind!r})
"""


def _stock_rule(tmp_path: Path, how: str, kind: str) -> Any:
    return modules(
        tmp_path,
        {
            "rvg7g.helpers": HELPERS,
            "rvg7g.stock": rule_header("RVG7G-ST-1", "tonk.rvg7g-stock", "tonk")
            + STOCK_RULE.format(how=how, kind=kind),
        },
    )


@pytest.mark.parametrize("kind", ["lookup", "option", "unnamed", "argument"])
@pytest.mark.parametrize("how", ["plain", "partial"])
def test_a_helper_function_a_stock_wrapper_answers_is_the_wrappers(
    tmp_path: Path, how: str, kind: str
) -> None:
    with _stock_rule(tmp_path, how, kind):
        game, discard = at_last_discard(["tonk.rvg7g-stock"])
        error = apply_refused(game, discard)
    assert error.plugin == "tonk.rvg7g-stock", str(error)


@pytest.mark.parametrize("kind", ["lookup", "argument"])
def test_a_wraps_copy_of_the_games_stock_function_made_by_a_helper_is_the_wrappers(
    tmp_path: Path, kind: str
) -> None:
    with _stock_rule(tmp_path, "copied", kind):
        game, discard = at_last_discard(["tonk.rvg7g-stock"])
        error = apply_refused(game, discard)
    assert error.plugin == "tonk.rvg7g-stock", str(error)


def test_a_wraps_copy_defined_in_the_rule_module_itself_is_blamed_by_its_frame(
    tmp_path: Path,
) -> None:
    code = (
        rule_header("RVG7G-ST-2", "tonk.rvg7g-own", "tonk")
        + """
@hookimpl(wrapper=True)
def tonk_hand_ends_on_empty_stock():
    inner = yield
    @functools.wraps(inner)
    def ends(state):
        return inner(state) and {}["missing"]
    return ends
"""
    )
    with modules(tmp_path, {"rvg7g_own": code}):
        game, discard = at_last_discard(["tonk.rvg7g-own"])
        error = apply_refused(game, discard)
    assert error.plugin == "tonk.rvg7g-own", str(error)


# --- Golf: a scoring service that goes down at the second round ------------------------------

SCORER = """
CALLS = []
DOWN = []
{where}
def golf_scorer(layout):
    {inner}
    {deco}
    def score(keys, points):
        CALLS.append(1)
        if DOWN:
            raise LookupError("scoring service down")
        return {call}
    return score
"""

SCORERS = {
    # (wrapper or plain, how the function is made)
    "wrapper-own": dict(
        where="@hookimpl(wrapper=True)", inner="inner = yield", deco="", call="inner(keys, points)"
    ),
    "wrapper-wraps-copy": dict(
        where="@hookimpl(wrapper=True)",
        inner="inner = yield",
        deco="@functools.wraps(inner)",
        call="inner(keys, points)",
    ),
    "plain-own": dict(where="@hookimpl", inner="", deco="", call="sum(points)"),
}

CLASS_SCORER = """
CALLS = []
DOWN = []
class Score:
    def __new__(cls, keys, points):
        CALLS.append(1)
        if DOWN:
            raise LookupError("scoring service down")
        return sum(points)
@hookimpl
def golf_scorer(layout):
    return Score
"""


def _golf_scorer_rule(tmp_path: Path, kind: str) -> Any:
    body = CLASS_SCORER if kind == "plain-class" else SCORER.format(**SCORERS[kind])
    return modules(
        tmp_path, {"rvg7g_scorer": rule_header("RVG7G-SC-1", "golf.rvg7g-sc", "golf") + body}
    )


def _second_round_end(module: Any) -> tuple[cardcore.Game, Any]:
    """A three-round Golf game with the rule, just before the action that ends round 2
    (found on a clone: the scorer runs in it)."""
    game = cardcore.new_game("golf", 2, rules=["golf.rvg7g-sc"], options={"rounds": 3}, seed=5)
    rng = random.Random(1)
    ends = 0
    while not game.is_over:
        action = rng.choice(game.legal_actions(game.to_act[0]))
        calls = len(module.CALLS)
        game.clone().apply(action)
        if len(module.CALLS) > calls:
            if ends == 1:
                return game, action
            ends += 1
        game.apply(action)
    raise AssertionError("no second round end")


def _scoring_down(tmp_path: Path, kind: str) -> tuple[PluginError | BaseException, int, bool]:
    with _golf_scorer_rule(tmp_path, kind) as loaded:
        module = loaded["rvg7g_scorer"]
        game, action = _second_round_end(module)
        before = (game.save(), game.view(0), game.view(1), game.version, game.record())
        module.CALLS.clear()
        module.DOWN.append(1)
        try:
            game.apply(action)
        except BaseException as exc:
            error: BaseException = exc
        else:
            raise AssertionError("the scorer did not run")
        calls = len(module.CALLS)
        try:
            same = before == (game.save(), game.view(0), game.view(1), game.version, game.record())
        except PluginError:  # the game refuses every call: it could not be restored
            same = False
        module.DOWN.clear()
        if same:
            game.apply(action)  # goes through once the service is back
    return error, calls, same


@pytest.mark.parametrize("kind", ["wrapper-own", "plain-own"])
def test_a_scoring_service_down_at_round_two_restores_without_calling_the_rule(
    tmp_path: Path, kind: str
) -> None:
    error, calls, same = _scoring_down(tmp_path, kind)
    assert isinstance(error, PluginError) and error.plugin == "golf.rvg7g-sc", repr(error)
    assert calls == 1 and same


def test_a_wraps_copied_scorer_down_at_round_two_restores_without_calling_the_rule(
    tmp_path: Path,
) -> None:
    error, calls, same = _scoring_down(tmp_path, "wrapper-wraps-copy")
    assert isinstance(error, PluginError) and error.plugin == "golf.rvg7g-sc", repr(error)
    assert calls == 1 and same


def test_a_class_scorer_down_at_round_two_restores_without_calling_the_rule(
    tmp_path: Path,
) -> None:
    error, calls, same = _scoring_down(tmp_path, "plain-class")
    assert isinstance(error, PluginError) and error.plugin == "golf.rvg7g-sc", repr(error)
    assert calls == 1 and same


# --- rules whose module names share a prefix with the game's package -------------------------


@pytest.mark.parametrize("module", ["cardcore_tonk_extra", "plugins_rvg7g.cardcore_tonk"])
def test_a_rule_module_named_like_the_game_is_still_the_rules(tmp_path: Path, module: str) -> None:
    code = (
        rule_header("RVG7G-PX-1", "tonk.rvg7g-prefix", "tonk")
        + """
def _ends(state):
    raise LookupError("prefix rule down")
@hookimpl(wrapper=True)
def tonk_hand_ends_on_empty_stock():
    yield
    return _ends
"""
    )
    with modules(tmp_path, {module: code}):
        game, discard = at_last_discard(["tonk.rvg7g-prefix"])
        error = apply_refused(game, discard)
    assert error.plugin == "tonk.rvg7g-prefix", str(error)


# --- two rules nesting wrappers ---------------------------------------------------------------

NEST_OUTER = """
@hookimpl(wrapper=True)
def tonk_hand_ends_on_empty_stock():
    inner = yield
    def ends(state):
        {body}
    return ends
"""
NEST_INNER = """
def _ends(state):
    {body}
@hookimpl(wrapper=True)
def tonk_hand_ends_on_empty_stock():
    yield
    return _ends
"""


@pytest.mark.parametrize(
    ("outer", "inner", "blamed"),
    [
        ("return inner(state)", "raise LookupError('inner down')", "tonk.rvg7g-na"),
        ("raise LookupError('outer down')", "return True", "tonk.rvg7g-nb"),
        ("return inner(state)", "raise PluginError('unnamed')", "tonk.rvg7g-na"),
        ("return inner(state)", "raise OptionError('in play')", "tonk.rvg7g-na"),
        ("return inner(state) and {}['x']", "return True", "tonk.rvg7g-nb"),
    ],
)
def test_nested_wrappers_of_two_rules_name_the_rule_whose_code_failed(
    tmp_path: Path, outer: str, inner: str, blamed: str
) -> None:
    # pluggy calls the later-registered first: RVG7G-NB (registered after RVG7G-NA, IDs
    # sorted) is the outer wrapper, and its function calls the one NA's wrapper answered
    sources = {
        "rvg7g_na": rule_header("RVG7G-NA-1", "tonk.rvg7g-na", "tonk")
        + NEST_INNER.format(body=inner),
        "rvg7g_nb": rule_header("RVG7G-NB-1", "tonk.rvg7g-nb", "tonk")
        + NEST_OUTER.format(body=outer),
    }
    with modules(tmp_path, sources):
        game, discard = at_last_discard(["tonk.rvg7g-na", "tonk.rvg7g-nb"])
        error = apply_refused(game, discard)
    assert error.plugin == blamed, str(error)


def test_a_keyboard_interrupt_from_an_answered_function_passes_and_restores(
    tmp_path: Path,
) -> None:
    code = (
        rule_header("RVG7G-KI-1", "tonk.rvg7g-ki", "tonk")
        + """
def _ends(state):
    raise KeyboardInterrupt
@hookimpl(wrapper=True)
def tonk_hand_ends_on_empty_stock():
    yield
    return _ends
"""
    )
    with modules(tmp_path, {"rvg7g_ki": code}):
        game, discard = at_last_discard(["tonk.rvg7g-ki"])
        before = snapshot(game)
        with pytest.raises(KeyboardInterrupt):
            game.apply(discard)
        assert snapshot(game) == before


# --- a passing wrapper on every hook changes nothing in play ---------------------------------


def _passing_rule(game: str, old_style: bool) -> dict[str, Any]:
    hooks: dict[str, Any] = {}
    ruleset = cardcore.get_ruleset(game)
    for name, caller in vars(ruleset.pm.hook).items():
        if getattr(caller, "spec", None) is None or name == "on_event":
            continue
        if old_style:

            @hookimpl(hookwrapper=True)
            def passing() -> Any:
                yield

        else:

            @hookimpl(wrapper=True)
            def passing() -> Any:  # type: ignore[misc]
                return (yield)

        hooks[name] = passing
    return hooks


def _records(game: str, rules: list[str], seeds: range) -> list[tuple[Any, ...]]:
    out = []
    for seed in seeds:
        g = cardcore.new_game(game, 2, rules=rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            legal = [a for seat in g.to_act for a in g.legal_actions(seat)] if not g.is_over else []
            if not legal:  # (real time: a seat to act may have nothing to do)
                break
            g.apply(rng.choice(legal))
        record = g.record()
        out.append(
            (
                [str(a) for a in record["actions"]],
                record["deck"],
                record["result"],
                g.position(),
                {k: v for k, v in g.view(0).items() if k != "rules"},  # (the rule's name)
                {k: v for k, v in g.view(None).items() if k != "rules"},
            )
        )
    return out


@pytest.mark.parametrize("old_style", [False, True], ids=["wrapper", "hookwrapper"])
@pytest.mark.parametrize("game", ["golf", "tonk", "spit", "speed"])
def test_a_passing_wrapper_on_every_hook_plays_every_game_the_same(
    game: str, old_style: bool
) -> None:
    plain = _records(game, [], range(12))
    name = f"{game}.rvg7g-pass"
    with house_rule(name, "RVG7G-PASS-1", game, **_passing_rule(game, old_style)):
        wrapped = _records(game, [name], range(12))
    assert wrapped == plain


# --- Spit's own answers at the edges ----------------------------------------------------------


def _deal_order(answer: Any) -> Any:
    @hookimpl
    def spit_deal_order(cards: int) -> Any:
        return answer(cards)

    return spit_deal_order


def _build(**hooks: Any) -> cardcore.Game:
    with house_rule("spit.rvg7g-edge", "RVG7G-EDGE-1", "spit", **hooks) as n:
        game = cardcore.new_game("spit", 2, rules=[n], seed=1)
        assert cardcore.replay(game.record()).position() == game.position()
        cardcore.load(game.save())  # only plain values reach the state
        return game


@pytest.mark.parametrize(
    "answer",
    [
        lambda n: (True,) if n else (),
        lambda n: [False] * min(n, 1),
        lambda n: tuple([0] * (n + 1)),
        lambda n: list(range(10**5)) if n else [],
        lambda n: (5,) if n else (),
        lambda n: (-1,) if n else (),
        lambda n: (0.0,) if n else (),
        lambda n: "0" if n else (),
        lambda n: iter([0]) if n else (),
    ],
    ids=[
        "bool-true",
        "bool-false",
        "one-too-many",
        "huge",
        "pile-5",
        "pile-minus-1",
        "float",
        "text",
        "iterator",
    ],
)
def test_a_deal_order_outside_the_promise_is_refused_naming_the_rule(answer: Any) -> None:
    with pytest.raises(PluginError) as failure:
        _build(spit_deal_order=_deal_order(answer))
    assert failure.value.plugin == "spit.rvg7g-edge" and "spit_deal_order" in str(failure.value)


def test_a_numpy_int_deal_order_is_refused_or_played_as_plain_ints() -> None:
    np = pytest.importorskip("numpy")
    try:
        game = _build(
            spit_deal_order=_deal_order(lambda n: tuple(np.int64(0) for _ in range(min(n, 5))))
        )
    except PluginError as failure:
        assert failure.plugin == "spit.rvg7g-edge"
        return
    assert not game.is_over  # (_build replayed and loaded it)


@pytest.mark.parametrize(
    "answer",
    [lambda n: [0] * min(n, 5), lambda n: (4, 4, 4, 4, 4)[: min(n, 5)], lambda n: (0,) * min(n, 1)],
    ids=["list-duplicates", "all-last-pile", "one-card"],
)
def test_a_deal_order_within_the_promise_deals_and_replays(answer: Any) -> None:
    game = _build(spit_deal_order=_deal_order(answer))
    assert not game.is_over


@pytest.mark.parametrize(
    ("word", "only"),
    [("slap\n", False), ("slap", 0), ("slap", 1.0), ("sl\u0430p", False), ("claim", "yes")],
    ids=["newline", "zero", "float", "cyrillic-a", "text-flag"],
)
def test_a_claim_rule_at_the_edges_is_refused_naming_the_rule(word: str, only: Any) -> None:
    @hookimpl
    def spit_claim_rule() -> Any:
        return ClaimRule(word=word, emptier_only=only, rule_id="SPIT-END-9")

    with pytest.raises(PluginError) as failure:
        _build(spit_claim_rule=spit_claim_rule)
    assert failure.value.plugin == "spit.rvg7g-edge"


def test_a_partial_of_the_games_own_function_answered_by_a_wrapper_is_the_wrappers() -> None:
    from cardcore_tonk.answers import always_ends

    def broken(extra: Any, state: Any) -> bool:
        return always_ends(state) and extra["missing"]

    @hookimpl(wrapper=True)
    def tonk_hand_ends_on_empty_stock() -> Any:
        yield
        return functools.partial(broken, {})

    with house_rule(
        "tonk.rvg7g-part",
        "RVG7G-PART-1",
        "tonk",
        tonk_hand_ends_on_empty_stock=tonk_hand_ends_on_empty_stock,
    ) as n:
        game, discard = at_last_discard([n])
        error = apply_refused(game, discard)
    assert error.plugin == n, str(error)


# --- the kit's clone check on a deliberately broken toy game ----------------------------------


class _Notes(types.SimpleNamespace):
    """A game author's own namespace kind for a state slot."""


def test_a_shared_namespace_subclass_slot_fails_named() -> None:
    from tests.test_review_fixes_2026_12_07e import game_module, kit, registered_game, state_variant

    module = game_module("rv7g-ns-sub", state_variant(lambda: _Notes(a=1)))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 1}, sample=1.0)
    assert any("shares the mutable slot(s) 'extra'" in f for f in report.failures), report.failures
