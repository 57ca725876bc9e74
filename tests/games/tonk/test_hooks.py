"""Tonk's own hookspecs, each driven by a throw-away third-party house rule."""

from __future__ import annotations

import types
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from tests.games.tonk.helpers import tonk

import cardcore
from cardcore import RuleInfo, hookimpl
from cardcore import plugins as _plugins
from cardcore_tonk.melds import DealVerdict
from cardcore_tonk.state import TonkState

H20 = "10S 4H 3D 2C AS"
H15 = "5D 4C 3H 2D AD"
H30 = "10H 6S 7C 3C 4D"


@pytest.fixture(autouse=True)
def _forget_test_rules() -> Any:
    """Unregister the throw-away rules afterwards, so other tests never see them."""
    yield
    entries = _plugins._entries()["cardcore.rules"]
    for name in [n for n in entries if n.startswith("tonk.test-")]:
        del entries[name]
        _plugins._loaded.pop(("cardcore.rules", name), None)
    for key in [k for k in _plugins._rulesets if any("tonk.test-" in str(x) for x in k[1])]:
        del _plugins._rulesets[key]


def _rule(name: str, **impls: Callable[..., Any]) -> str:
    module = types.ModuleType(f"tonk_test_{name.replace('-', '_')}")
    rule = RuleInfo(
        id=f"TONK-TEST-{name.upper()}", name=f"tonk.test-{name}", game="tonk", summary=name
    )
    setattr(module, "RULE", rule)  # noqa: B010
    for hook, func in impls.items():
        setattr(module, hook, hookimpl(func))
    cardcore.register("cardcore.rules", f"tonk.test-{name}", module)
    return f"tonk.test-{name}"


def test_hook_tonk_upcard() -> None:
    def tonk_upcard() -> bool:
        return False

    game = tonk([H20, H15, H30], upcard=None, rules=[_rule("upcard", tonk_upcard=tonk_upcard)])
    table = game.view(0)["table"]
    assert (table["discard_top"], table["discard_count"]) == (None, 0)


def test_hook_tonk_deal_judge() -> None:
    def judge(hands: Sequence[Sequence[int]], points: Sequence[int]) -> DealVerdict | None:
        totals = [sum(points[x] for x in h) for h in hands]
        low = totals.index(min(totals))
        units = [-1] * len(hands)
        units[low] = len(hands) - 1
        return DealVerdict("lowest-dealt", low, tuple(units))

    def tonk_deal_judge() -> Callable[..., DealVerdict | None]:
        return judge

    game = tonk([H20, H15, H30], rules=[_rule("judge", tonk_deal_judge=tonk_deal_judge)])
    assert game.result is not None
    assert game.result.reason == "lowest-dealt" and game.result.payouts == (-1, 2, -1)


def test_hook_tonk_out_units() -> None:
    def tonk_out_units(new_spread: bool) -> int:
        return 3

    game = tonk(
        ["5H 6H 7H 9C 9D", H15, H30],
        stock="9S",
        rules=[_rule("units", tonk_out_units=tonk_out_units)],
    )
    for text in ("draw", "spread 5H 6H 7H", "spread 9S 9C 9D"):
        game.act(0, text)
    assert game.result is not None and game.result.payouts == (6, -3, -3)


def test_hook_tonk_hand_ends_on_empty_stock() -> None:
    calls: list[int] = []

    def never(state: TonkState) -> bool:
        calls.append(state.turn)
        return bool(not state.zones.cards[1])

    def tonk_hand_ends_on_empty_stock() -> Callable[[TonkState], bool]:
        return never

    game = tonk(
        ["10S 5H 3D AC AS", "2S 3H 4D 2C AH"],
        rules=[_rule("empty", tonk_hand_ends_on_empty_stock=tonk_hand_ends_on_empty_stock)],
    )
    while game.view(None)["table"]["stock"] > 0:
        seat = game.to_act[0]
        game.act(seat, "draw")
        game.act(seat, f"discard {game.state.zones.cards[2 + seat][-1]}")
    assert not game.is_over and calls == [game.to_act[0]]
    assert [str(a) for a in game.legal_actions(game.to_act[0])] == ["drop", "draw", "take"]


def test_hook_score_round_changes_tonk_results() -> None:
    # a rule implementing only the core's score_round: the dropper's winnings are doubled,
    # paid by the others (still zero-sum); Tonk hands it each hand's amounts in money
    seen: list[tuple[int, ...]] = []

    def score_round(state: TonkState, scores: Sequence[int]) -> list[int]:
        seen.append(tuple(scores))
        return [2 * x for x in scores]

    rule = _rule("double", score_round=score_round)
    assert cardcore.game_info("tonk").zero_sum
    game = tonk([H15, H20, H30], stake=3, hands=2, rules=[rule])
    game.act(0, "drop")  # drop won: (+2S, -S, -S) with S = 3, doubled by the rule
    assert seen == [(6, -3, -3)]
    assert game.view(None)["table"]["balances"] == [12, -6, -6]
    assert game.history(None)[-1]["amounts"] == [12, -6, -6]
    game.act(0, "deal")
    game.act(1, "drop")
    assert game.result is not None and game.result.payouts is not None
    assert len(seen) == 2
    assert game.result.payouts == tuple(
        a + 2 * b for a, b in zip((12, -6, -6), seen[1], strict=True)
    )
    base = tonk([H15, H20, H30], stake=3)
    base.act(0, "drop")
    assert base.result is not None and base.result.payouts == (6, -3, -3)


def test_hook_score_round_may_not_break_the_zero_sum() -> None:
    def score_round(state: TonkState, scores: Sequence[int]) -> list[int]:
        return [x + 1 for x in scores]

    game = tonk([H15, H20, H30], rules=[_rule("unfair", score_round=score_round)])
    with pytest.raises(cardcore.PluginError, match="zero sum"):
        game.act(0, "drop")
    assert game.version == 0 and not game.is_over  # a rejected action changes nothing
