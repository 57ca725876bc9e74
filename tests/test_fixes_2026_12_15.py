"""Fixes and doc claims of 2026-12-15, each from a finding of a plugin written from the docs."""

from __future__ import annotations

from typing import Any

import attrs

from cardcore import ALL, Action, Card, Layout, Visibility, Zones, ZoneSpec


def _zones() -> Zones:
    return Zones(
        Layout.of(
            [
                ZoneSpec("stock"),
                ZoneSpec("hand.0", 0, Visibility.OWNER),
                ZoneSpec("up", None, Visibility.EVERYONE),
            ]
        )
    )


def test_zones_insert_places_a_card_and_its_mask_together() -> None:
    zones = _zones()
    hand = zones.id("hand.0")
    for text in ("5H", "9C", "KD"):
        zones.put(hand, Card.parse(text))
    zones.insert(hand, 1, Card.parse("2S"), mask=0b10)
    assert [str(c) for c in zones.cards[hand]] == ["5H", "2S", "9C", "KD"]
    assert len(zones.seen[hand]) == 4
    assert zones.seen[hand][1] == 0b11  # seat 1's mark kept, the owner's added
    assert [zones.knows(hand, i, 1) for i in range(4)] == [False, True, False, False]
    assert zones.show(hand, 0) == ["KD", "9C", "2S", "5H"]  # the owner's view, top first
    up = zones.id("up")
    zones.insert(up, 0, Card.parse("AS"))
    assert zones.seen[up] == [ALL]  # a face-up pile shows it to everyone


def test_a_sorting_converter_gives_one_action_per_set_of_cards() -> None:
    """game.rst: cards have no order; a converter sorts every action built."""

    def ordered(cards: Any) -> tuple[Card, ...]:
        return tuple(sorted(cards, key=lambda c: (c.rank, c.suit.value)))

    @attrs.frozen
    class Play(Action):
        verb = "play"
        cards: tuple[Card, ...] = attrs.field(converter=ordered)

    a = Play(0, tuple(map(Card.parse, ("7H", "5C", "7C"))))
    b = Play(0, tuple(map(Card.parse, ("7C", "7H", "5C"))))
    assert a == b and hash(a) == hash(b)
    assert [str(c) for c in a.cards] == ["5C", "7C", "7H"]


def test_view_and_history_take_the_spectator_as_events_name_it() -> None:
    """Events subscribe the public stream with ``seat=SPECTATOR``; views read it too."""
    import cardcore
    from cardcore import SPECTATOR, SeatError

    game = cardcore.new_game("golf", 2, seed=1)
    assert game.view(SPECTATOR) == game.view(None)
    assert game.view(SPECTATOR)["seat"] is None
    assert game.history(SPECTATOR) == game.history(None)
    for bad in ("spectators", "Spectator", b"spectator"):
        try:
            game.view(bad)  # type: ignore[arg-type]
        except SeatError as exc:
            assert "CORE-SEAT-1" in str(exc)
        else:
            raise AssertionError(f"view({bad!r}) was accepted")
