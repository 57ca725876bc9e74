"""Fixes of the second session of 2026-12-06, each pinned by a test that failed before it."""

from __future__ import annotations

import types
from typing import Any

import pytest

import cardcore
from cardcore_tonk.position import stack_deals

_PACK = [
    f"{r}{s}"
    for s in "SHDC"
    for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
]


def _stacked(deals: int, **kwargs: object) -> str:
    """A position of the first of two hands, *deals* coming deals stacked on it."""
    game = cardcore.new_game("tonk", 3, options={"hands": 2}, seed=4, **kwargs)  # type: ignore[arg-type]
    assert game.version == 0 and not game.is_over
    return stack_deals(game.position(), [_PACK[::-1]] * deals)


def test_next_stacks_more_deals_than_hands_while_a_void_deal_is_dealt_again() -> None:
    """TONK-NOTE-2 (one list per deal) + TONK-49-2 (a void deal is dealt again): with the
    natural rule on, a void deal's re-deal is a coming deal of its own, so ``next`` may hold
    more lists than hands to come (it was capped at the hands)."""
    position = _stacked(3)
    game = cardcore.new_game("tonk", 3, options={"hands": 2}, position=position, seed=4)
    assert game.position().count("next=") == 1
    assert game.position() == position


@pytest.mark.parametrize(
    "how", [{"without": ["tonk.natural-49-50"]}, {"rules": ["tonk.void-deal-counts"]}]
)
def test_next_stays_capped_at_the_hands_when_no_deal_is_dealt_again(
    how: dict[str, list[str]],
) -> None:
    """Without the natural rule, or with void deals counting as hands, every deal is a hand:
    one list per hand to come, as before."""
    assert cardcore.new_game(
        "tonk", 3, options={"hands": 2}, position=_stacked(1, **how), seed=4, **how
    )  # type: ignore[arg-type]
    with pytest.raises(cardcore.OptionError, match="next must list at most 1 coming deals"):
        cardcore.new_game(
            "tonk", 3, options={"hands": 2}, position=_stacked(2, **how), seed=4, **how
        )  # type: ignore[arg-type]


def test_next_is_refused_in_the_last_hand_even_with_the_natural_rule() -> None:
    """No deal comes after the last hand in play, void or not: ``next`` must be empty."""
    game = cardcore.new_game("tonk", 3, seed=4)
    with pytest.raises(cardcore.OptionError, match="next must list at most 0 coming deals"):
        cardcore.new_game("tonk", 3, position=stack_deals(game.position(), [_PACK]), seed=4)


def _removing_rule(rule_id: str, *, fails_when_asked_again: bool = False) -> types.ModuleType:
    """A third-party Golf house rule removing cancelled columns of layout 6, as the
    plugin guide writes one."""
    module = types.ModuleType(f"fixes2_{rule_id.lower().replace('-', '_')}")
    calls = [0]

    @cardcore.hookimpl
    def golf_removable_groups(layout: Any) -> Any:
        calls[0] += 1
        if fails_when_asked_again and calls[0] > 1:
            raise RuntimeError("asked again")
        return [(0, 3), (1, 4), (2, 5)] if layout.key == "6" else None

    module.golf_removable_groups = golf_removable_groups  # type: ignore[attr-defined]
    module.RULE = cardcore.RuleInfo(  # type: ignore[attr-defined]
        id=rule_id,
        name=f"fixes2.{rule_id.lower()}",
        game="golf",
        summary="Cancelled columns leave the layout",
        applies={"layout": (6,)},
    )
    return module


def _refusal_of_a_removed_position(module: types.ModuleType) -> cardcore.IllegalActionError:
    name = module.RULE.name
    cardcore.register("cardcore.rules", name, module)
    try:
        # seat 0 gets 5C at 0 and 5D at 3 (a cancelled column once both are face up)
        probe = cardcore.new_game("golf", 2, options={"layout": 6}, deck=" ".join(_PACK))
        grid = probe.state.zones.cards[probe.state.plan.grid[0]]
        deck = list(_PACK)
        for pos, want in ((0, "5C"), (3, "5D")):
            i, j = deck.index(str(grid[pos])), deck.index(want)
            deck[i], deck[j] = deck[j], deck[i]
        game = cardcore.new_game(
            "golf", 2, rules=[name], options={"layout": 6}, deck=" ".join(deck)
        )
        for seat, text in [(0, "flip 0"), (0, "flip 3"), (1, "flip 1"), (1, "flip 2"), (0, "draw")]:
            game.act(seat, text)
        assert "replace 0" not in [str(a) for a in game.legal_actions(0)]
        version = game.version
        with pytest.raises(cardcore.IllegalActionError) as refused:
            game.act(0, "replace 0")
        assert game.version == version
        return refused.value
    finally:
        cardcore.unregister("cardcore.rules", name)


def test_replacing_a_position_a_third_party_rule_removed_cites_that_rule() -> None:
    """The rule that removed the position is cited by its own ID (not GOLF-TURN-2)."""
    error = _refusal_of_a_removed_position(_removing_rule("MY-REMOVE-1"))
    assert error.rule_id == "MY-REMOVE-1" and "it was removed" in str(error)


def test_a_removing_rule_failing_when_asked_again_leaves_the_core_citation() -> None:
    """Asking the rules again only explains a refusal: a rule that fails then is not blamed,
    and the refusal cites GOLF-TURN-2 as before."""
    error = _refusal_of_a_removed_position(
        _removing_rule("MY-REMOVE-2", fails_when_asked_again=True)
    )
    assert error.rule_id == "GOLF-TURN-2" and "it was removed" in str(error)
