"""Golf's own hookspecs, each exercised by a throw-away third-party house rule."""

from __future__ import annotations

import itertools
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from tests.games.golf.helpers import golf, play, round_scores, stack, state

import cardcore
from cardcore import RuleInfo, ScoreTable, hookimpl
from cardcore_golf import hookspecs
from cardcore_golf.grids import GridShape, Scorer

G0 = "7H 9C KD 4S 2D QH"
G1 = "3C 8D JS 3D 10H 6S"
DECK = stack([G0, G1], "5C", "7D KS 9H QS AH 2C")
_names = itertools.count()


@pytest.fixture
def third_party() -> Iterator[Callable[..., str]]:
    """Register throw-away house rules made of hook functions; remove them afterwards."""
    made: list[str] = []

    def make(*functions: Callable[..., Any]) -> str:
        name = f"golf.test-hook-{next(_names)}"
        module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
        for function in functions:
            setattr(module, function.__name__, hookimpl(function))
        module.RULE = RuleInfo(  # type: ignore[attr-defined]
            id=f"GOLF-TEST-{len(made) + 1}", name=name, game="golf", summary="test only"
        )
        cardcore.register("cardcore.rules", name, module)
        made.append(name)
        return name

    yield make
    for name in made:
        cardcore.unregister("cardcore.rules", name)


def scores(rules: Sequence[str], grids: Sequence[str] = (G0, G1), ender: int = -1) -> list[int]:
    game = golf(len(grids), stack(list(grids), "KS"), rules=list(rules))
    return round_scores(game, ender)


def test_hookspecs_module_lists_every_spec() -> None:
    specs = sorted(n for n in dir(hookspecs) if n.startswith("golf_"))
    assert specs == sorted(hookspecs.__all__)


def test_layouts_a_rule_serves_are_data_not_a_hook() -> None:
    # golf_check_options is gone: RuleInfo(applies={"layout": ...}) says where a rule applies
    assert not hasattr(hookspecs, "golf_check_options")
    info = cardcore.rule_info("golf.remove-triples")
    assert info.applies == {"layout": (9,)}  # the option's one value for GOLF9 ("9" reads 9)


def test_hook_golf_score_table(third_party: Callable[..., str]) -> None:
    def golf_score_table(layout: GridShape) -> ScoreTable:
        return ScoreTable.from_ranks({"K": 5}, default=1)

    name = third_party(golf_score_table)
    # seat 0: no pairs, K 5 + five cards at 1; seat 1: 3/3 cancel, four cards at 1
    assert scores([name]) == [10, 4]


def test_hook_golf_scorer(third_party: Callable[..., str]) -> None:
    def golf_scorer(layout: GridShape) -> Scorer:
        return lambda keys, points: 99

    assert scores([third_party(golf_scorer)]) == [99, 99]


def test_hook_golf_final_turns(third_party: Callable[..., str]) -> None:
    def golf_final_turns(layout: GridShape) -> bool:
        return False

    name = third_party(golf_final_turns)
    game = golf(2, DECK, rules=[name], options={"rounds": 2})
    play(game, (0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 3"))
    for pos in (2, 3, 4):
        play(game, (0, "draw"), (0, f"replace {pos}"), (1, "draw"), (1, "discard"))
    play(game, (0, "draw"), (0, "replace 5"))
    assert state(game).round == 2  # no final turn for seat 1


def test_hook_golf_removable_groups(third_party: Callable[..., str]) -> None:
    def golf_removable_groups(layout: GridShape) -> Sequence[Sequence[int]]:
        return ((0, 1),)  # the first two cards of the far row

    name = third_party(golf_removable_groups)
    game = golf(2, stack(["5S 5H KD 4S 2D QH", G1], "5C"), rules=[name])
    play(game, (0, "flip 0"), (0, "flip 1"))
    assert game.view(1)["table"]["grids"][0][:2] == ["--", "--"]


def test_hook_golf_round_awards(third_party: Callable[..., str]) -> None:
    def golf_round_awards(layout: GridShape, keys: Sequence[Sequence[int | None]]) -> list[int]:
        return [len(keys[0]), 0]

    assert scores([third_party(golf_round_awards)]) == [32 + 6, 34]


def test_hook_golf_ender_penalty(third_party: Callable[..., str]) -> None:
    def golf_ender_penalty(layout: GridShape, scores: Sequence[int], ender: int) -> int:
        return 7

    name = third_party(golf_ender_penalty)
    assert scores([name], ender=0) == [39, 34]
    assert scores([name]) == [32, 34]  # no ender, no penalty


def test_hook_golf_ender_penalty_is_told_whether_the_ender_pays(
    third_party: Callable[..., str],
) -> None:
    seen: list[bool] = []

    def golf_ender_penalty(layout: GridShape, scores: Sequence[int], ender: int, pays: bool) -> int:
        seen.append(pays)
        return 5 if pays else 0

    name = third_party(golf_ender_penalty)
    assert scores([name], ender=1) == [32, 34 + 5]  # 34 > 32: pays
    assert scores([name], ender=0) == [32, 34]  # lowest: does not
    assert seen == [True, False]


def test_hook_golf_ender_ties_pay(third_party: Callable[..., str]) -> None:
    tie = stack([G0, "7C 9D KH 4H 2H QD"], "5C", "7D KS 9H QS AH 2C")  # 32 and 32

    def golf_ender_ties_pay(layout: GridShape) -> bool:
        return layout.key == "6"

    def tie_scores(rules: list[str]) -> list[int]:
        return round_scores(golf(2, tie, rules=rules), 1)

    assert tie_scores(["golf.ender-penalty-10"]) == [32, 32]  # the game: ties do not pay
    assert tie_scores([third_party(golf_ender_ties_pay), "golf.ender-penalty-10"]) == [32, 42]

    def golf_ender_ties_pay_badly(layout: GridShape) -> Any:
        return "yes"

    golf_ender_ties_pay_badly.__name__ = "golf_ender_ties_pay"
    bad = third_party(golf_ender_ties_pay_badly)
    with pytest.raises(cardcore.PluginError, match="golf_ender_ties_pay"):
        tie_scores([bad, "golf.ender-penalty-10"])


def test_a_third_party_setup_veto_takes_part_in_checking_positions(
    third_party: Callable[..., str],
) -> None:
    # a rule of its own (no flip at position 5) refuses a setup position showing such a flip
    def forbid_action(state: Any, action: Any) -> Any:
        if str(action) == "flip 5":
            return cardcore.Veto("GOLF-TEST-X", "never position 5")
        return None

    name = third_party(forbid_action)
    game = golf(2, DECK)
    play(game, (0, "flip 4"), (0, "flip 5"))
    text = game.position()
    with pytest.raises(cardcore.OptionError, match=r"never position 5 \(GOLF-TEST-X\)"):
        cardcore.new_game("golf", 2, rules=[name], position=text)
    other = golf(2, DECK)
    play(other, (0, "flip 4"), (0, "flip 3"))
    cardcore.new_game("golf", 2, rules=[name], position=other.position())


def test_a_setup_veto_that_fails_on_a_position_is_a_plugin_error(
    third_party: Callable[..., str],
) -> None:
    def forbid_action(state: Any, action: Any) -> Any:
        raise ZeroDivisionError("broken rule")

    name = third_party(forbid_action)
    game = golf(2, DECK)
    play(game, (0, "flip 4"))
    with pytest.raises(cardcore.PluginError, match="broken rule"):
        cardcore.new_game("golf", 2, rules=[name], position=game.position())
