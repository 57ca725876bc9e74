"""Fixes of 2026-12-14, each found by a plugin written from the docs or a review."""

from __future__ import annotations

import pytest

from cardcore import NotationError
from cardcore.cli.screen import resolve


@pytest.mark.parametrize(
    ("text", "legal", "hint"),
    [
        ("2", ["a", "b", "c"], "type #2 for menu item 2,"),
        ("0", ["a", "b", "c"], "type #1 to #3 for a menu item,"),  # the menu counts from #1
        ("4", ["a", "b", "c"], "type #1 to #3 for a menu item,"),
        ("7", ["a"], "type #1 for the menu item,"),
        ("1234567890123", ["a", "b"], "type #1 to #2 for a menu item,"),
        ("1", [], "no action to choose now"),
    ],
)
def test_a_bare_number_is_refused_with_a_menu_item_that_exists(
    text: str, legal: list[str], hint: str
) -> None:
    with pytest.raises(NotationError) as info:
        resolve(text, legal)
    assert str(info.value).startswith(hint) and "a bare number is not an action" in str(info.value)
    assert "#0" not in str(info.value)


def test_the_host_seat_is_told_it_may_only_end_the_match() -> None:
    import cardcore

    game = cardcore.new_game("golf", 2, seed=1)
    with pytest.raises(cardcore.SeatError, match=r"-1, the host, may only send 'end'"):
        game.act(-1, "flip 0")
    with pytest.raises(cardcore.SeatError) as info:
        game.act(-2, "flip 0")
    assert "host" not in str(info.value) and game.version == 0


def test_action_text_takes_any_whitespace_and_a_chat_text_normalised_as_documented() -> None:
    import cardcore

    game = cardcore.new_game("golf", 2, seed=1)
    game.act(0, "flip\t0")
    game.act(0, "  flip   4 ")
    chat = "flip\u00a01"  # a no-break space from a chat client: refused as it is
    with pytest.raises(NotationError, match="ASCII"):
        game.act(1, chat)
    game.act(1, " ".join(chat.split()))  # the docs' normalisation
    assert game.version == 3


def test_a_golf_rule_sets_card_values_by_its_own_option_through_the_score_table() -> None:
    """GOLF-SCORE-1 with a rule's option: ``golf_score_table`` receives the resolved options."""
    import types

    import cardcore
    from cardcore import Option, RuleInfo, hookimpl
    from cardcore_golf.rules import BASIC

    rule = types.ModuleType("fix14_one_eyed")
    rule.RULE = RuleInfo(  # type: ignore[attr-defined]
        id="FIX14-OEJ-1",
        name="golf.fix14-one-eyed",
        game="golf",
        summary="The one-eyed jacks score the rule's own value",
        version="1.0.0",
        options=(Option("one_eyed", default=-2, minimum=-10, maximum=10, doc="JH and JS"),),
    )

    @hookimpl
    def golf_score_table(layout: object, options: dict[str, int]) -> object:
        return BASIC.replace({"JH": options["one_eyed"], "JS": options["one_eyed"]})

    rule.golf_score_table = golf_score_table  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", "golf.fix14-one-eyed", rule)
    try:
        for value in (-2, 7):
            game = cardcore.new_game(
                "golf", 2, rules=["golf.fix14-one-eyed"], options={"one_eyed": value}, seed=1
            )
            points = game.logic.plan(2, game.options).points
            assert points[cardcore.Card.parse("JH")] == value
            assert points[cardcore.Card.parse("JS")] == value
            assert points[cardcore.Card.parse("JC")] == 10  # the other jacks as BASIC scores them
        plain = cardcore.new_game("golf", 2, seed=1)  # the game's own table takes no options
        assert plain.logic.plan(2, plain.options).points[cardcore.Card.parse("JH")] == 10
    finally:
        cardcore.unregister("cardcore.rules", "golf.fix14-one-eyed")
