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
