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
