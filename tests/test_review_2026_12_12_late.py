"""Review of d6569a6 (choice view fields), db4d8dd (Tonk ``last``), e2a3e55 (argument
checks, Tonk samples after a take) and 53a7dab (the kit's scores check retry)."""

from __future__ import annotations

import array
import collections
import enum
import json
import math
import random
import types
from collections.abc import Iterator

import pytest

import cardcore
from cardcore import ArgumentError, Chance, OptionError, PluginError, ViewField
from cardcore.testing import check_game
from cardcore.testing._structure import kind_problem
from tests.plugins import drawgame

# --- d6569a6: view fields of kind "choice" ------------------------------------------------


def _encoding(fields: list[dict[str, object]], players: int = 3):  # type: ignore[no-untyped-def]
    from cardcore.rl.encoding import GenericEncoding

    return GenericEncoding({"zones": [], "fields": fields}, ["AS", "KS"], players, 4)


def _view(seat: int, table: dict[str, object]) -> dict[str, object]:
    return {"seat": seat, "zones": [], "table": table, "to_act": [], "is_over": False}


def test_choice_one_hot_fits_the_declared_planes_scalar_and_per_seat() -> None:
    suit = ViewField("called", "choice", choices=("C", "D", "H", "S"), nullable=True)
    calls = ViewField("calls", "per-seat", of="choice", choices=(1, 2))
    enc = _encoding([suit.to_json(), calls.to_json()])
    assert enc.planes == 5 + 3 * 3  # 4 suits + none; 3 seats of (2 values + none)
    seen = set()
    for value in ("C", "D", "H", "S", None, "X"):
        hot, _ = enc.observe(_view(0, {"called": value, "calls": [1, 2, None]}))
        assert all(0 <= h < enc.planes for h in hot)
        assert len(hot) == 4  # one place per choice slot
        seen.add(hot[0])
    assert len(seen) == 5  # each suit its own place; None and "X" both "none of them"
    # per-seat: the observer's own entry first
    hot1, _ = enc.observe(_view(1, {"called": "C", "calls": [1, 2, None]}))
    assert hot1[1:] == [5 + 1, 8 + 2, 11 + 0]  # seat 1 (2), seat 2 (none), seat 0 (1)


def test_choice_encoding_and_kit_tell_a_bool_from_an_int() -> None:
    enc = _encoding([ViewField("flag", "choice", choices=(True, False)).to_json()])
    assert enc.observe(_view(0, {"flag": 1}))[0] == [2]  # 1 is no choice of True: "none"
    assert enc.observe(_view(0, {"flag": True}))[0] == [0]
    assert kind_problem("choice", "", 1, 2, (True, False)) is not None
    assert kind_problem("choice", "", False, 2, (True, False)) is None
    assert kind_problem("per-seat", "choice", ["a", "b"], 2, ("a", "b")) is None
    assert "entry 1" in str(kind_problem("per-seat", "choice", ["a", "c"], 2, ("a", "b")))


def test_choice_declaration_checks_hold() -> None:
    assert ViewField("c", "choice", choices=["a", "b"]).choices == ("a", "b")
    assert ViewField("c", "choice", choices=("a",)).to_json()["choices"] == ["a"]
    for bad in ((1, 1.0), ("a", "a"), ("a", {"b": 1}), "ab", (), None):
        with pytest.raises(PluginError):
            ViewField("c", "choice", choices=bad)  # type: ignore[arg-type]
    with pytest.raises(PluginError, match="for kind 'choice' only"):
        ViewField("c", "per-seat", of="int", choices=(1,))


def test_cli_renders_a_hostile_choice_value_escaped() -> None:
    from cardcore.cli.render import _field_markup

    assert _field_markup("choice", "[red]x[/]", ["a", "b"], None) == "\\[red]x\\[/]"
    assert _field_markup("choice", "H", ["a", "b"], None) == "H"


@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_a_non_finite_choice_is_refused(value: float) -> None:
    with pytest.raises(PluginError):
        field = ViewField("c", "choice", choices=("a", value))
        json.dumps(field.to_json(), allow_nan=False)


def test_a_whole_float_choice_takes_the_same_int() -> None:
    assert kind_problem("choice", "", 1, 2, (1.0, 2.0)) is None
    enc = _encoding([ViewField("m", "choice", choices=(1.0, 2.0)).to_json()])
    assert enc.observe(_view(0, {"m": 1}))[0] == [0]


def test_an_int_and_a_bool_are_distinct_choices() -> None:
    assert ViewField("c", "choice", choices=(0, 1, False, True)).choices == (0, 1, False, True)


# --- db4d8dd: Tonk positions carry last=[hand, dealer] -------------------------------------


def _tonk_ended_between_hands() -> cardcore.Game:
    game = cardcore.new_game("tonk", 2, seed=4, options={"hands": 3})
    rng = random.Random(0)
    while game.view(0)["table"]["phase"] != "between":
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    game.act(game.to_act[0], "resign")
    return game


@pytest.fixture(scope="module")
def ended() -> tuple[cardcore.Game, str]:
    game = _tonk_ended_between_hands()
    position = game.position()
    assert " played=1 " in position and " last=[1,0] " in position
    return game, position


def _from(position: str) -> cardcore.Game:
    return cardcore.new_game("tonk", 2, position=position, seed=1, options={"hands": 3})


def test_tonk_position_without_last_still_loads_and_round_trips(ended) -> None:  # type: ignore[no-untyped-def]
    _, position = ended
    old = position.replace(" last=[1,0]", "")  # written before db4d8dd
    game = _from(old)
    assert game.is_over
    assert game.position() == old  # no last invented


def test_tonk_last_survives_clone_save_load_and_views(ended) -> None:  # type: ignore[no-untyped-def]
    original, position = ended
    # a void deal 2 by seat 1: the deal then passed left to seat 0 (TONK-DEALER-2)
    game = _from(
        position.replace("last=[1,0]", "last=[2,1]").replace("dealer=1 turn=1", "dealer=0 turn=0")
    )
    want = (2, 1)
    for g in (game, game.clone(), cardcore.load(game.save())):
        table = g.view(0)["table"]
        assert (table["hand_number"], table["dealer"]) == want
        assert " last=[2,1] " in g.position()
    table = original.view(1)["table"]
    assert (table["hand_number"], table["dealer"]) == (1, 0)


@pytest.mark.parametrize(
    "last", ["[true,0]", '["1",0]', "[1,0,0]", '{"hand":1}', "[1.0,0]", "[0,0]"]
)
def test_tonk_hostile_last_is_refused(ended, last: str) -> None:  # type: ignore[no-untyped-def]
    _, position = ended
    with pytest.raises(OptionError):
        _from(position.replace("last=[1,0]", f"last={last}"))


def test_tonk_last_must_agree_with_hands_played(ended) -> None:  # type: ignore[no-untyped-def]
    _, position = ended
    with pytest.raises(OptionError):
        _from(position.replace("last=[1,0]", "last=[3,0]"))


# --- e2a3e55: argument checks ----------------------------------------------------------------


class _Seat(enum.IntEnum):
    TWO = 2


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.shuffle((1, 2, 3)),
        lambda c: c.shuffle("abc"),
        lambda c: c.randrange(2.5),
        lambda c: c.randrange(None),
        lambda c: c.choice(None),
        lambda c: c.choice({1, 2}),
        lambda c: c.sample({1, 2, 3}, 2),
        lambda c: c.sample([1, 2, 3], 1.0),
        lambda c: c.getrandbits(3.0),
        lambda c: cardcore.shuffle((1, 2), c),
        lambda c: cardcore.shuffle((1, 2), random.Random(1)),
    ],
)
def test_chance_refuses_wrong_kinds_with_argument_error(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ArgumentError):
        call(Chance(1, 0))


def test_chance_still_takes_lists_deques_arrays_and_int_subclasses() -> None:
    c = Chance(5, 0)
    for items in (list(range(8)), collections.deque(range(8)), array.array("i", range(8))):
        cardcore.shuffle(items, c)
        assert sorted(items) == list(range(8))
    rr = random.Random(1)
    items = collections.deque(range(8))
    cardcore.shuffle(items, rr)  # the replay generator of records of format 1 and 2
    assert sorted(items) == list(range(8))
    assert c.randrange(_Seat.TWO) in (0, 1)
    assert c.choice(range(3)) in (0, 1, 2)
    assert c.choice("ab") in ("a", "b")
    assert len(c.sample(range(10), _Seat.TWO)) == 2
    # a built-in game's deal and cut still run
    assert cardcore.new_game("golf", 2, seed=3).view(0)
    assert cardcore.new_game("tonk", 3, seed=3).view(0)


@pytest.mark.parametrize("which", ["getrandbits", "sample", "randrange"])
def test_chance_takes_numpy_ints_as_random_random_does(which: str) -> None:
    np = pytest.importorskip("numpy")
    k = np.int64(2)
    for rng in (random.Random(1), Chance(1, 0)):
        if which == "getrandbits":
            assert 0 <= rng.getrandbits(k) < 4
        elif which == "sample":
            assert len(rng.sample([1, 2, 3], k)) == 2
        else:
            assert rng.randrange(k) in (0, 1)


def test_jsonable_of_self_containing_data_is_an_argument_error() -> None:
    from cardcore.events import jsonable

    loop: list[object] = [1]
    loop.append(loop)
    table: dict[str, object] = {}
    table["me"] = table
    for data in (loop, table, (1, loop)):
        with pytest.raises(ArgumentError, match="holds itself"):
            jsonable(data)
    assert jsonable([[1, (2, 3)], {"a": {4}}]) == [[1, [2, 3]], {"a": [4]}]


def test_event_to_json_of_self_containing_field_is_an_argument_error() -> None:
    from cardcore.events import RoundScored

    loop: list[object] = [1]
    loop.append(loop)
    with pytest.raises(ArgumentError):
        RoundScored(1, loop, ()).to_json()  # type: ignore[arg-type]


@pytest.mark.parametrize("name", [123, None, "__class__", "__init__", "__dict__", ("score_round",)])
def test_resolve_of_non_text_or_dunder_is_a_plugin_error(name: object) -> None:
    ruleset = cardcore.new_game("tonk", 2, seed=1).logic.ruleset
    with pytest.raises(PluginError, match="is not a hook of 'tonk'"):
        ruleset.resolve(name)  # type: ignore[arg-type]
    assert ruleset.resolve("score_round") is None  # a real hook, unimplemented


def test_resolve_takes_a_str_subclass_name() -> None:
    class Name(str):
        pass

    ruleset = cardcore.new_game("tonk", 2, seed=1).logic.ruleset
    assert ruleset.resolve(Name("score_round")) is None


def test_agent_helpers_refuse_wrong_kinds() -> None:
    from cardcore._agentspec import check_agent_params
    from cardcore.agents import check_agent, lend_views

    game = cardcore.new_game("tonk", 2, seed=1)
    with pytest.raises(ArgumentError), lend_views(None):  # type: ignore[arg-type]
        pass
    with pytest.raises(ArgumentError):
        check_agent("random", cardcore.load_agent("random"), "tonk")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        check_agent_params("random", lambda seed=0: None, [("seed", 1)])  # type: ignore[arg-type]
    check_agent("random", cardcore.load_agent("random"), game.logic.info)
    with lend_views(game) as views:
        assert views(0)["seat"] == 0


# --- e2a3e55: a Tonk sample after a take ----------------------------------------------------


def test_tonk_sample_after_a_take_is_uniform_and_keeps_what_the_viewer_knows() -> None:
    from cardcore.search import sample_position

    game = cardcore.new_game("tonk", 3, seed=0)
    rnd = random.Random(0)
    while game.view(None)["table"]["taken"] is None:
        legal = game.legal_actions(game.to_act[0])
        takes = [a for a in legal if str(a).startswith("take")]
        game.apply(takes[0] if takes else rnd.choice(legal))
    table = game.view(None)["table"]
    taker, taken = table["turn"], table["taken"]
    viewer = (taker + 1) % 3
    view = game.view(viewer)
    mine = next(z["cards"] for z in view["zones"] if z["name"] == f"hand.{viewer}")
    size = next(len(z["cards"]) for z in view["zones"] if z["name"] == f"hand.{taker}")
    counts: collections.Counter[str] = collections.Counter()
    runs = 400
    for i in range(runs):
        world = cardcore.new_game(
            "tonk", 3, position=sample_position(view, random.Random(i)), seed=1
        )
        zones = {z["name"]: z["cards"] for z in world.view(viewer)["zones"]}
        assert zones[f"hand.{viewer}"] == mine  # the viewer's own hand as it is
        hand = [
            c
            for z in world.view(taker)["zones"]
            if z["name"] == f"hand.{taker}"
            for c in z["cards"]
        ]
        assert taken in hand and len(hand) == size
        counts.update(c for c in hand if c != taken)
    unseen = 52 - len(mine) - 1
    assert len(counts) == unseen  # every unseen card can lie there
    p = (size - 1) / unseen
    mean, sd = runs * p, math.sqrt(runs * p * (1 - p))
    assert all(abs(n - mean) < 5 * sd for n in counts.values()), sorted(counts.values())


# --- 53a7dab: the scores check's retry with an "even" rule ----------------------------------


def _drawgame_variant(name: str, judge) -> types.ModuleType:  # type: ignore[no-untyped-def]
    """drawgame whose score_round hands the rules' answer to *judge* (which may refuse it)."""
    import attrs

    module = types.ModuleType(name)
    module.__dict__.update({k: v for k, v in vars(drawgame).items() if not k.startswith("__")})

    class Logic(drawgame.DrawLogic):
        def score_round(self, state, scores):  # type: ignore[no-untyped-def]
            out = super().score_round(state, scores)
            judge(list(scores), list(out))
            return out

    module.GAME = attrs.evolve(drawgame.GAME, name=name)
    module.create_logic = cardcore.hookimpl(lambda ruleset: Logic(ruleset))
    return module


def _never_lower(raw: list[int], out: list[int]) -> None:
    if any(o < r for o, r in zip(out, raw, strict=True)):
        raise PluginError("a seat's score went down")


def _split_then_crash(raw: list[int], out: list[int]) -> None:
    moved = {o - r for o, r in zip(out, raw, strict=True)}
    if len(moved) > 1:
        raise PluginError("refused: an uneven answer")
    if moved != {0}:
        raise PluginError("crashed on the even answer XYZ")


def _any_change(raw: list[int], out: list[int]) -> None:
    if out != raw:
        raise PluginError("no change allowed")


def _ignore(raw: list[int], out: list[int]) -> None:
    pass


@pytest.fixture
def variants() -> Iterator[None]:
    names = {"dg-lower": _never_lower, "dg-mixed": _split_then_crash, "dg-any": _any_change}
    for name, judge in names.items():
        cardcore.register("cardcore.games", name, _drawgame_variant(name, judge))
    yield
    for name in names:
        cardcore.unregister("cardcore.games", name)


def test_scores_check_still_fails_a_game_that_refuses_every_answer(variants: None) -> None:
    report = check_game("dg-any", games=2, checks={"scores"}, strict=False)
    assert not report.ok
    assert any("no change allowed" in f for f in report.failures)
    assert "scores" not in report.skipped
    assert report.scored >= 1  # it was called: no "never called" skip


def test_scores_check_still_fails_a_game_that_ignores_the_answer() -> None:
    class Ignoring(drawgame.DrawLogic):
        def score_round(self, state, scores):  # type: ignore[no-untyped-def]
            super().score_round(state, scores)
            return tuple(scores)

    import attrs

    module = types.ModuleType("dg-ignore")
    module.__dict__.update({k: v for k, v in vars(drawgame).items() if not k.startswith("__")})
    module.GAME = attrs.evolve(drawgame.GAME, name="dg-ignore")
    module.create_logic = cardcore.hookimpl(lambda ruleset: Ignoring(ruleset))
    cardcore.register("cardcore.games", "dg-ignore", module)
    try:
        report = check_game("dg-ignore", games=2, checks={"scores"}, strict=False)
    finally:
        cardcore.unregister("cardcore.games", "dg-ignore")
    assert not report.ok
    assert any("the result is the same without it" in f for f in report.failures)


def test_scores_check_fails_a_two_seat_game_that_crashes_on_a_lowered_score(variants: None) -> None:
    report = check_game("dg-lower", games=2, checks={"scores"}, strict=False)
    assert not report.ok


def test_scores_check_failure_names_the_even_rules_error(variants: None) -> None:
    # (four seats: the retry with the even rule is for games of partners)
    report = check_game("dg-mixed", players=4, games=2, checks={"scores"}, strict=False)
    assert not report.ok
    assert any("crashed on the even answer XYZ" in f for f in report.failures), report.failures
