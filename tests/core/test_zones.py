from __future__ import annotations

import pytest

from cardcore import ALL, Card, Layout, PluginError, Visibility, Zones, ZoneSpec
from cardcore.deck import derive_rng

LAYOUT = Layout.of(
    [
        ZoneSpec("stock"),
        ZoneSpec("discard", None, Visibility.EVERYONE),
        ZoneSpec("hand.0", 0, Visibility.OWNER),
        ZoneSpec("grid.1", 1, Visibility.NOBODY),
        ZoneSpec("pile", None, Visibility.TOP),
    ]
)
STOCK, DISCARD, HAND, GRID, PILE = range(5)


def make() -> Zones:
    z = Zones(LAYOUT)
    for text in ["2S", "3S", "4S", "5S", "6S", "7S"]:
        z.put(STOCK, Card.parse(text))
    return z


def test_layout_unique_names() -> None:
    with pytest.raises(PluginError, match="unique in a layout; named more than once: 'a'"):
        Layout.of([ZoneSpec("a"), ZoneSpec("a")])
    assert LAYOUT.id("grid.1") == GRID


def test_move_to_face_up_pile_becomes_public() -> None:
    z = make()
    card = z.move(STOCK, DISCARD)
    assert str(card) == "7S" and z.seen[DISCARD] == [ALL]
    assert z.show(DISCARD, None) == ["7S"] and z.show(DISCARD, 1) == ["7S"]


def test_hand_visible_to_owner_only() -> None:
    z = make()
    z.move(STOCK, HAND)
    assert z.show(HAND, 0) == ["7S"]
    assert z.show(HAND, 1) == [None]
    assert z.show(HAND, None) == [None]
    assert z.knows(HAND, 0, 0) and not z.knows(HAND, 0, 1)


def test_face_down_knowledge_per_card() -> None:
    z = make()
    z.move(STOCK, GRID)
    z.move(STOCK, GRID)
    assert z.show(GRID, 1) == [None, None]
    z.tell(GRID, 0, 1)
    assert z.show(GRID, 1) == [None, "7S"]  # top first: index 1 is 6S (hidden), index 0 is 7S
    assert z.show(GRID, 0) == [None, None]
    z.reveal(GRID, 1)
    assert z.show(GRID, 0) == ["6S", None] and z.show(GRID, None) == ["6S", None]


def test_top_pile_shows_only_top_but_remembers() -> None:
    z = make()
    z.move(STOCK, PILE)
    z.move(STOCK, PILE)
    assert z.show(PILE, 0) == ["6S", None]
    assert z.knows(PILE, 0, 0)  # 7S was seen by all when it was the top
    assert not z.is_visible(PILE, 0, 0)


def test_a_hand_known_to_all_lies_face_up() -> None:
    z = make()
    z.move(STOCK, HAND)
    z.move(STOCK, HAND, mask=ALL)  # one card shown, one not: the hand stays private
    assert z.show(HAND, 1) == [None, None] and z.show(HAND, None) == [None, None]
    assert not z.is_visible(HAND, 1, 1) and z.knows(HAND, 1, 1)
    z.seen[HAND] = [ALL, ALL]  # every card known to all: turned face up
    assert z.show(HAND, 1) == ["6S", "7S"] == z.show(HAND, None)
    assert z.is_visible(HAND, 0, None) and z.is_visible(HAND, 1, 1)
    assert Zones(LAYOUT).show(HAND, 1) == []  # an empty hand shows nothing either way


def test_end_game_reveal_shows_every_hand_in_views() -> None:
    import cardcore
    from cardcore.turns import end_game

    game = cardcore.new_game("gofish", 3, seed=4)
    hidden = {z["name"]: z["cards"] for z in game.view(1)["zones"]}
    assert all(c is None for c in hidden["hand.0"])
    end_game(game.state, [0], [0, 0, 0], "test")
    shown = {z["name"]: z["cards"] for z in game.view(1)["zones"]}
    assert shown["hand.0"] and None not in shown["hand.0"]


def test_card_taken_from_public_pile_stays_known() -> None:
    z = make()
    z.move(STOCK, DISCARD)
    z.move(DISCARD, GRID)
    assert z.show(GRID, 0) == ["7S"]


def test_shuffle_forgets_and_keeps_cards() -> None:
    z = make()
    z.tell(STOCK, 0, 0)
    before = sorted(map(str, z.cards[STOCK]))
    z.shuffle(STOCK, derive_rng(1, 1))
    assert sorted(map(str, z.cards[STOCK])) == before
    assert z.seen[STOCK] == [0] * 6


def test_clone_is_independent() -> None:
    z = make()
    c = z.clone()
    c.move(STOCK, DISCARD)
    assert z.count(STOCK) == 6 and c.count(STOCK) == 5
    assert c.layout is z.layout


def test_insert_bottom_and_pop() -> None:
    z = make()
    z.insert_bottom(DISCARD, Card.parse("KH"))
    z.move(STOCK, DISCARD)
    assert z.show(DISCARD, None) == ["7S", "KH"]
    card, mask = z.pop(DISCARD, 0)
    assert str(card) == "KH" and mask == ALL
    assert sorted(map(str, z.all_cards())) == ["2S", "3S", "4S", "5S", "6S", "7S"]


def test_snapshot_and_repr() -> None:
    z = make()
    snap = z.snapshot()
    assert snap["stock"]["cards"][-1] == "7S"
    assert "stock=6" in repr(z)
    assert z.top(DISCARD) is None and z.top(STOCK) == Card.parse("7S")
