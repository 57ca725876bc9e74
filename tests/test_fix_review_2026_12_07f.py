"""Review of the fixes 30a9444e / 022df2e9 / 57aff8cc (2026-12-07f).

Attacks: the guard on functions a house rule's hook wrapper answers (hooks.rst: "A function
a hook answers ... that raises when the game calls it later is the rule's failure too"), the
blame of refused answers, score_round's message, check_configuration, Tonk's tonk_out_units
payout bound, Spit's claim-rule and deal-order checks, and the kit's clone check.
"""

from __future__ import annotations

import functools
import json
import random
import types
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardcore
from cardcore import OptionError, PluginError, RuleInfo, hookimpl
from cardcore_spit.actions import ClaimRule
from tests.games.spit.helpers import arrange, golden_game
from tests.games.tonk.helpers import pass_turn, tonk
from tests.test_review_fixes_2026_12_07e import game_module, kit, registered_game, state_variant

H20 = "10S 4H 3D 2C AS"
H15 = "5D 4C 3H 2D AD"
NATURAL = "tonk.natural-49-50"


@contextmanager
def house_rule(name: str, rule_id: str, game: str, **hooks: Any) -> Iterator[str]:
    module = types.ModuleType("rv7f_" + name.replace(".", "_").replace("-", "_"))
    module.RULE = RuleInfo(id=rule_id, name=name, game=game, summary="review rule")  # type: ignore[attr-defined]
    vars(module).update(hooks)
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.rules", name)


def every_card_once(game: cardcore.Game) -> bool:
    cards = [str(c) for pile in game.state.zones.cards for c in pile]
    return len(cards) == 52 and Counter(cards) == Counter(str(c) for c in cardcore.standard_52())


def snapshot(game: cardcore.Game) -> tuple[Any, ...]:
    return (game.position(), game.version, game.record(), game.view(0), game.view(1))


def at_last_discard(rules: list[str]) -> tuple[cardcore.Game, Any]:
    """Seat 0 has drawn the last stock card; the discard it makes starts seat 1's turn with
    the stock out, so the stock function is called inside that apply."""
    game = tonk([H20, H15], rules=rules)
    while game.view(None)["table"]["stock"] > 1:
        pass_turn(game, game.to_act[0])
    seat = game.to_act[0]
    game.act(seat, "draw")
    return game, next(a for a in game.legal_actions(seat) if a.verb == "discard")


# --- hook wrappers of tonk_hand_ends_on_empty_stock / tonk_deal_judge ---------------------


def replacing_stock(fn: Any, *, old_style: bool = False) -> Any:
    if old_style:

        @hookimpl(hookwrapper=True)
        def tonk_hand_ends_on_empty_stock() -> Any:
            outcome = yield
            outcome.force_result(fn)

        return tonk_hand_ends_on_empty_stock

    @hookimpl(wrapper=True)
    def tonk_hand_ends_on_empty_stock() -> Any:  # type: ignore[no-redef]
        yield
        return fn

    return tonk_hand_ends_on_empty_stock


def passing_stock() -> Any:
    @hookimpl(wrapper=True)
    def tonk_hand_ends_on_empty_stock() -> Any:
        return (yield)

    return tonk_hand_ends_on_empty_stock


def _raises_lookup(state: Any) -> bool:
    raise LookupError("oracle down")


class _Oracle:
    def __call__(self, state: Any) -> bool:
        raise LookupError("callable object down")

    def method(self, state: Any) -> bool:
        raise LookupError("bound method down")


RAISING = {
    "function": _raises_lookup,
    "lambda": lambda state: 1 // 0,
    "partial": functools.partial(int, "not a number"),
    "callable-object": _Oracle(),
    "bound-method": _Oracle().method,
}


@pytest.mark.parametrize("old_style", [False, True])
@pytest.mark.parametrize("kind", sorted(RAISING))
def test_a_function_a_stock_wrapper_answers_that_raises_is_the_wrappers(
    kind: str, old_style: bool
) -> None:
    stock = replacing_stock(RAISING[kind], old_style=old_style)
    with house_rule(
        "tonk.rv7f-wrap", "RV7F-WRAP-1", "tonk", tonk_hand_ends_on_empty_stock=stock
    ) as n:
        game, discard = at_last_discard([n])
        before = snapshot(game)
        with pytest.raises(PluginError) as failure:
            game.apply(discard)
        assert failure.value.plugin == n, str(failure.value)
        assert n in str(failure.value)
        assert snapshot(game) == before
        assert every_card_once(game)


def test_two_stock_wrappers_a_raising_function_names_neither_and_restores() -> None:
    with (
        house_rule(
            "tonk.rv7f-wa", "RV7F-WA-1", "tonk", tonk_hand_ends_on_empty_stock=passing_stock()
        ) as a,
        house_rule(
            "tonk.rv7f-wb",
            "RV7F-WB-1",
            "tonk",
            tonk_hand_ends_on_empty_stock=replacing_stock(_raises_lookup),
        ) as b,
    ):
        game, discard = at_last_discard([a, b])
        before = snapshot(game)
        with pytest.raises(PluginError) as failure:
            game.apply(discard)
        assert failure.value.plugin is None, str(failure.value)
        assert a in str(failure.value) and b in str(failure.value)
        assert "LookupError" in str(failure.value)
        assert snapshot(game) == before and every_card_once(game)


def test_a_wrapper_rule_in_a_clone_a_replay_and_a_load_is_blamed_the_same() -> None:
    stock = replacing_stock(_raises_lookup)
    with house_rule("tonk.rv7f-cl", "RV7F-CL-1", "tonk", tonk_hand_ends_on_empty_stock=stock) as n:
        game, discard = at_last_discard([n])
        copies = [
            game.clone(),
            cardcore.replay(game.record()),
            cardcore.load(json.loads(json.dumps(game.save()))),
        ]
        for copy in copies:
            assert copy.position() == game.position()
            with pytest.raises(PluginError) as failure:
                copy.apply(discard)
            assert failure.value.plugin == n
            assert copy.position() == game.position()


def _stock_out_game(rules: list[str]) -> cardcore.Game:
    game, discard = at_last_discard(rules)
    game.apply(discard)
    return game


def test_the_games_stock_function_through_a_passing_wrapper_plays_the_same() -> None:
    plain = _stock_out_game([])
    with house_rule(
        "tonk.rv7f-pass", "RV7F-PASS-1", "tonk", tonk_hand_ends_on_empty_stock=passing_stock()
    ) as n:
        wrapped = _stock_out_game([n])
    assert plain.is_over and plain.result.reason == "stock-out"  # TONK-STOCK-1
    assert wrapped.result == plain.result
    assert [str(a) for a in wrapped.record()["actions"]] == [
        str(a) for a in plain.record()["actions"]
    ]


def _stock_out_position() -> str:
    """A position at seat 1's turn start with the stock out (not reachable: TONK-STOCK-1)."""
    game, _ = at_last_discard([])
    return game.position()


def _load_error(position: str, rules: list[str]) -> OptionError:
    with pytest.raises(OptionError) as failure:
        cardcore.new_game("tonk", 2, position=position, rules=rules, without=[NATURAL])
    return failure.value


def test_without_a_wrapper_an_empty_stock_turn_start_cites_tonk_stock_1() -> None:
    p = _stock_out_position().replace('turn=0 phase="play"', 'turn=1 phase="start"')
    # the pre-discard position has seat 0 holding six: drop the drawn card onto the discards
    p = p.replace(" 10H@0", "").replace("discard: QC!", "discard: 10H QC!")
    assert "TONK-STOCK-1" in str(_load_error(p, []))


def test_a_passing_stock_wrapper_changes_nothing_the_game_decides() -> None:
    p = _stock_out_position().replace('turn=0 phase="play"', 'turn=1 phase="start"')
    p = p.replace(" 10H@0", "").replace("discard: QC!", "discard: 10H QC!")
    plain = str(_load_error(p, []))
    with house_rule(
        "tonk.rv7f-pass2", "RV7F-PASS-2", "tonk", tonk_hand_ends_on_empty_stock=passing_stock()
    ) as n:
        wrapped = str(_load_error(p, [n]))
    assert wrapped == plain


def _quiet_judge(hands: Any, points: Any) -> None:
    return None


@hookimpl
def plain_judge_rule() -> Any:
    return _quiet_judge


def wrapping_judges() -> Any:
    @hookimpl(wrapper=True)
    def tonk_deal_judge() -> Any:
        inner = yield
        out = []
        for judge in inner:

            @functools.wraps(judge)
            def mine(hands: Any, points: Any, judge: Any = judge) -> Any:
                raise LookupError("the wrapper's own code")

            out.append(mine)
        return out

    return tonk_deal_judge


def test_a_wrappers_own_function_wrapping_a_rules_judge_is_the_wrappers() -> None:
    with (
        house_rule("tonk.rv7f-pj", "RV7F-PJ-1", "tonk", tonk_deal_judge=plain_judge_rule) as a,
        house_rule("tonk.rv7f-wj", "RV7F-WJ-1", "tonk", tonk_deal_judge=wrapping_judges()) as b,
        pytest.raises(PluginError) as failure,
    ):
        tonk([H20, H15], rules=[a, b])
    assert failure.value.plugin == b, str(failure.value)


def test_a_judge_wrapper_raising_its_own_named_plugin_error_passes_as_it_is() -> None:
    @hookimpl(wrapper=True)
    def tonk_deal_judge() -> Any:
        yield
        raise PluginError("refused by the rule itself", plugin="tonk.rv7f-own")

    with (
        house_rule("tonk.rv7f-own", "RV7F-OWN-1", "tonk", tonk_deal_judge=tonk_deal_judge) as n,
        pytest.raises(PluginError) as failure,
    ):
        tonk([H20, H15], rules=[n])
    assert failure.value.plugin == n and str(failure.value) == "refused by the rule itself"


def _raises_option_error(state: Any) -> bool:
    raise OptionError("raised in play")


def _plain_stock(fn: Any) -> Any:
    @hookimpl
    def tonk_hand_ends_on_empty_stock() -> Any:
        return fn

    return tonk_hand_ends_on_empty_stock


@pytest.mark.parametrize("make", [replacing_stock, _plain_stock], ids=["wrapper", "plain"])
def test_an_option_error_a_rules_function_raises_in_play_is_the_rules(make: Any) -> None:
    with house_rule(
        "tonk.rv7f-opt",
        "RV7F-OPT-1",
        "tonk",
        tonk_hand_ends_on_empty_stock=make(_raises_option_error),
    ) as n:
        game, discard = at_last_discard([n])
        before = snapshot(game)
        with pytest.raises(PluginError) as failure:
            game.apply(discard)
        assert snapshot(game) == before
    assert failure.value.plugin == n, str(failure.value)


def _raises_unnamed_plugin_error(state: Any) -> bool:
    raise PluginError("the rule's own refusal")


def test_an_unnamed_plugin_error_a_wrappers_function_raises_is_not_the_games() -> None:
    stock = replacing_stock(_raises_unnamed_plugin_error)
    with house_rule("tonk.rv7f-pe", "RV7F-PE-1", "tonk", tonk_hand_ends_on_empty_stock=stock) as n:
        game, discard = at_last_discard([n])
        with pytest.raises(PluginError) as failure:
            game.apply(discard)
    assert failure.value.plugin != "tonk", str(failure.value)


# --- Golf: a scorer a wrapper answers gives the game the same values ---------------------


class _Sub(int):
    def __add__(self, other: Any) -> Any:
        return _Sub(int(self) + int(other))

    __radd__ = __add__


def _scorer_wrapper(subclass: bool) -> Any:
    @hookimpl(wrapper=True)
    def golf_scorer(layout: Any) -> Any:
        inner = yield
        if subclass:
            return lambda keys, points: _Sub(inner(keys, points))
        return lambda keys, points: inner(keys, points)

    return golf_scorer


def _played(game: cardcore.Game, seed: int = 3) -> cardcore.Game:
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    return game


@pytest.mark.parametrize("subclass", [False, True])
def test_a_scorer_a_wrapper_answers_scores_as_the_games_own(subclass: bool) -> None:
    plain = _played(cardcore.new_game("golf", 2, seed=11))
    with house_rule(
        "golf.rv7f-sc", "RV7F-SC-1", "golf", golf_scorer=_scorer_wrapper(subclass)
    ) as n:
        game = _played(cardcore.new_game("golf", 2, rules=[n], seed=11))
        again = cardcore.load(json.loads(json.dumps(game.save())))
    assert game.result == plain.result
    assert all(type(s) in (int, float) for s in game.result.scores)
    assert again.result == game.result


# --- score_round's refusals list the implementers ------------------------------------------


def tonk_before_out(rules: list[str], players: int = 2, **options: Any) -> cardcore.Game:
    """Seat 0 has laid 2C 3C 4C and drawn 7C: ``spread 5C 6C 7C`` empties its hand (a
    tonk-out with a new spread, TONK-OUT-1)."""
    hands = ["2C 3C 4C 5C 6C", "KH KS 8D 8S 10D", "9H 9D JS QD KD", "AH AD 4H 4D 10S"][:players]
    stock = ["JH", "QS", *["2H", "3H"][: players - 2], "7C"]
    if players == 4:
        options.setdefault("max_players", 4)
    game = tonk(hands, stock=" ".join(stock), rules=rules, **options)
    game.act(0, "draw")
    game.act(0, "spread 2C 3C 4C")
    game.act(0, "discard JH")
    for seat in range(1, players):
        pass_turn(game, seat)
    game.act(0, "draw")
    return game


def _score_round(value: Any) -> Any:
    @hookimpl
    def score_round(state: Any, scores: Any) -> Any:
        return value

    return score_round


@pytest.mark.parametrize(("a_value", "b_value", "blamed"), [([1], None, "a"), (None, [1], "b")])
def test_score_round_refusal_names_the_rule_and_lists_the_implementers(
    a_value: Any, b_value: Any, blamed: str
) -> None:
    with (
        house_rule("tonk.rv7f-sra", "RV7F-SRA-1", "tonk", score_round=_score_round(a_value)) as a,
        house_rule("tonk.rv7f-srb", "RV7F-SRB-1", "tonk", score_round=_score_round(b_value)) as b,
    ):
        game = tonk_before_out([a, b])
        before = snapshot(game)
        with pytest.raises(PluginError) as failure:
            game.act(0, "spread 5C 6C 7C")
        assert snapshot(game) == before
    name = a if blamed == "a" else b
    assert failure.value.plugin == name
    assert str(failure.value).startswith(f"score_round of {name!r}")
    assert (
        "(implemented by " in str(failure.value)
        and a in str(failure.value)
        and b in str(failure.value)
    )


# --- check_configuration: the games' own refusals stay OptionErrors ------------------------


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("golf", 2, {"dealer": 5}),
        ("golf", 2, {"dealer": "x"}),
        ("tonk", 4, {}),
        ("tonk", 5, {"max_players": 4}),
    ],
)
def test_a_games_validate_still_refuses_options_with_an_option_error(
    game: str, players: int, options: dict[str, Any]
) -> None:
    with pytest.raises(OptionError):
        cardcore.new_game(game, players, options=options, seed=1)


# --- Tonk: tonk_out_units answers against the ledger's bound -------------------------------


def _units(value: int) -> Any:
    @hookimpl
    def tonk_out_units(new_spread: bool, options: Any) -> int:
        return value

    return tonk_out_units


BOUND = 10**15


@pytest.mark.parametrize(
    ("players", "units", "stake"),
    [
        (2, BOUND, 1),  # winner takes exactly 10**15
        (2, -BOUND, 1),
        (3, BOUND // 2, 1),  # 2 x 5e14 = 10**15
        (4, 10**9, 333_333),  # 3 x 333333e9 < 10**15
    ],
)
def test_a_tonk_out_payout_at_the_bound_is_paid(players: int, units: int, stake: int) -> None:
    with house_rule("tonk.rv7f-u", "RV7F-U-1", "tonk", tonk_out_units=_units(units)) as n:
        game = tonk_before_out([n], players, stake=stake)
        game.act(0, "spread 5C 6C 7C")
    each = units * stake
    assert game.result.payouts == (each * (players - 1), *[-each] * (players - 1))


@pytest.mark.parametrize(
    ("players", "units", "stake"),
    [(2, 6 * 10**14, 2), (3, BOUND // 2 + 1, 1), (3, -(BOUND // 2) - 1, 1), (4, 10**9, 333_334)],
)
def test_a_tonk_out_payout_past_the_bound_is_refused_naming_the_rule(
    players: int, units: int, stake: int
) -> None:
    with house_rule("tonk.rv7f-u", "RV7F-U-1", "tonk", tonk_out_units=_units(units)) as n:
        game = tonk_before_out([n], players, stake=stake)
        before = (game.position(), game.version, game.record())
        with pytest.raises(PluginError) as failure:
            game.act(0, "spread 5C 6C 7C")
        assert (game.position(), game.version, game.record()) == before
        assert every_card_once(game)
    assert failure.value.plugin == n and n in str(failure.value)


def test_the_default_tonk_out_pays_as_before() -> None:
    game = tonk_before_out([], 3, stake=7)
    game.act(0, "spread 5C 6C 7C")
    (paid,) = {-p for p in game.result.payouts[1:]}
    assert paid % 7 == 0 and paid > 0 and game.result.payouts[0] == 2 * paid


def test_a_tonk_out_taking_a_balance_past_the_bound_names_the_rule() -> None:
    # 5e14 a tonk-out (within the bound); seat 0 already holds 6e14 from an earlier hand of
    # the same rule: 1.1e15 passes the ledger's bound on balances (scoring.py)
    with house_rule("tonk.rv7f-u2", "RV7F-U-2", "tonk", tonk_out_units=_units(5 * 10**14)) as n:
        p = tonk_before_out([n]).position()
        p = p.replace("balances=[0,0]", "balances=[600000000000000,-600000000000000]")
        game = cardcore.new_game(
            "tonk", 2, position=p, rules=[n], without=[NATURAL], options={"first_dealer": 1}
        )
        before = game.position()
        with pytest.raises(PluginError) as failure:
            game.act(0, "spread 5C 6C 7C")
        assert game.position() == before
    assert failure.value.plugin == n, str(failure.value)


# --- Spit: the claim rule and the deal order -----------------------------------------------


def _claim(word: Any, only: Any = False, rule_id: Any = "SPIT-END-9") -> Any:
    @hookimpl
    def spit_claim_rule() -> Any:
        return ClaimRule(word=word, emptier_only=only, rule_id=rule_id)

    return spit_claim_rule


def _end_of_deal(rules: list[str]) -> cardcore.Game:
    # seat 0's layout is 9H alone; 9H onto 8C empties it (SPIT-END-1): the claims are legal
    game = arrange(
        golden_game(rules),
        ["9H"],
        ["2D", "3D", "4D", "5D", "6D"],
        spit0="2C 3C 4C 5C 7C",
        left="KD 8C",
        right="5S",
    )
    game.act(0, "play 1 L")
    return game


@pytest.mark.parametrize("word", ["grab", "x", "a" * 20, "claim", "resign", "end"])
def test_a_claim_word_of_lowercase_letters_is_taken_and_claims(word: str) -> None:
    with house_rule("spit.rv7f-cw", "RV7F-CW-1", "spit", spit_claim_rule=_claim(word)) as n:
        game = _end_of_deal([n])
        assert [str(a) for a in game.legal_actions(0)] == [f"{word} L", f"{word} R"]
        game.act(0, f"{word} L")
        assert game.view(None)["table"]["mode"] == "single-pile"  # SPIT-END-5: 8 cards
        assert every_card_once(game)
        assert cardcore.replay(game.record()).position() == game.position()


@pytest.mark.parametrize(
    ("word", "only", "rule_id"),
    [
        ("play", False, "SPIT-END-9"),
        ("combine", False, "SPIT-END-9"),
        ("fill", False, "SPIT-END-9"),
        ("ready", False, "SPIT-END-9"),
        ("spit", False, "SPIT-END-9"),
        ("", False, "SPIT-END-9"),
        ("Slap", False, "SPIT-END-9"),
        ("a" * 21, False, "SPIT-END-9"),
        ("sl ap", False, "SPIT-END-9"),
        ("slap2", False, "SPIT-END-9"),
        ("slap", 1, "SPIT-END-9"),
        ("slap", None, "SPIT-END-9"),
        ("slap", False, "spit-end-2"),
        ("slap", False, "SPIT"),
        ("slap", False, ""),
    ],
)
def test_a_claim_rule_no_claim_can_use_is_refused_naming_the_rule(
    word: str, only: Any, rule_id: str
) -> None:
    with (
        house_rule(
            "spit.rv7f-bad", "RV7F-BAD-1", "spit", spit_claim_rule=_claim(word, only, rule_id)
        ) as n,
        pytest.raises(PluginError) as failure,
    ):
        cardcore.new_game("spit", 2, rules=[n], seed=1)
    assert failure.value.plugin == n and "spit_claim_rule" in str(failure.value)


def test_a_deal_order_laying_out_nothing_for_a_held_card_is_refused_naming_the_rule() -> None:
    @hookimpl
    def spit_deal_order(cards: int) -> Any:
        return ()

    with (
        house_rule("spit.rv7f-do", "RV7F-DO-1", "spit", spit_deal_order=spit_deal_order) as n,
        pytest.raises(PluginError) as failure,
    ):
        cardcore.new_game("spit", 2, rules=[n], seed=1)
    assert failure.value.plugin == n and "1 cards" in str(failure.value)


def test_a_one_card_deal_order_per_held_count_is_taken() -> None:
    @hookimpl
    def spit_deal_order(cards: int) -> Any:
        return (0,) if cards else ()

    with house_rule("spit.rv7f-do1", "RV7F-DO-2", "spit", spit_deal_order=spit_deal_order) as n:
        game = cardcore.new_game("spit", 2, rules=[n], seed=1)
    assert not game.is_over and every_card_once(game)


@pytest.mark.parametrize(
    "rules", [(), ("spit.canfield",), ("spit.chooser",), ("spit.canfield", "spit.chooser")]
)
def test_the_built_in_spit_rules_pass_their_own_checks(rules: tuple[str, ...]) -> None:
    assert not cardcore.new_game("spit", 2, rules=rules, seed=1).is_over


def test_speed_and_its_rule_still_build() -> None:
    assert not cardcore.new_game("speed", 2, rules=["speed.stuck-on-request"], seed=1).is_over


# --- the kit's clone check ------------------------------------------------------------------


def test_a_shared_read_only_mapping_proxy_slot_is_no_failure() -> None:
    module = game_module("rv7f-proxy", state_variant(lambda: types.MappingProxyType({"a": 1})))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 1}, sample=1.0)
    assert report.ok, report.failures


@pytest.mark.parametrize(
    "make",
    [lambda: ("a", 1), lambda: frozenset({1}), lambda: b"x"],
    ids=["tuple", "frozenset", "bytes"],
)
def test_a_shared_immutable_slot_is_no_failure(make: Callable[[], Any]) -> None:
    module = game_module("rv7f-immutable", state_variant(make))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 1}, sample=1.0)
    assert report.ok, report.failures


def test_a_shared_counter_slot_fails_named() -> None:
    module = game_module("rv7f-counter", state_variant(Counter))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 1}, sample=1.0)
    assert any("shares the mutable slot(s) 'extra'" in f for f in report.failures)


def test_a_shared_namespace_slot_fails_named() -> None:
    module = game_module("rv7f-ns", state_variant(lambda: types.SimpleNamespace(a=1)))
    with registered_game(module) as name:
        report = kit(name, options={"rounds": 1}, sample=1.0)
    assert any("shares the mutable slot(s) 'extra'" in f for f in report.failures)
