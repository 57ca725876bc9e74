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


def test_the_kit_says_its_score_games_were_truncated_before_any_round_scored() -> None:
    """Gin written from the docs: the ``scores`` skip said the game never called
    ``score_round`` when every game of the check was cut off at a bound too small."""
    import types

    import cardcore
    from cardcore.testing import check_game
    from tests.plugins import drawgame

    class Short(drawgame.DrawLogic):
        def action_bound(self, players: int, options: Any) -> int:
            return 3  # no round of drawgame ends in three actions

    short = types.SimpleNamespace(
        GAME=attrs.evolve(drawgame.GAME, name="shortgame"),
        create_logic=cardcore.hookimpl(lambda ruleset: Short(ruleset)),
        card_points=drawgame.card_points,
    )
    cardcore.register("cardcore.games", "shortgame", short)
    try:
        report = check_game("shortgame", games=2, checks={"scores"}, strict=False)
    finally:
        cardcore.unregister("cardcore.games", "shortgame")
    why = report.skipped["scores"]
    assert "truncated at the game's action bound (3 actions)" in why, why
    assert "never called" not in why


def test_a_game_and_a_rule_registered_as_namespaces_play_and_blame_by_name() -> None:
    """register takes any object holding GAME/RULE and the hooks (it raised a raw
    AttributeError for a namespace at new_game)."""
    import types

    import cardcore
    from cardcore import PluginError, RuleInfo, hookimpl
    from tests.plugins import drawgame

    def fails(card: Card) -> int:
        raise ZeroDivisionError("boom")

    game = types.SimpleNamespace(
        GAME=attrs.evolve(drawgame.GAME, name="nsgame"),
        create_logic=drawgame.create_logic,
        card_points=drawgame.card_points,
    )
    rule = types.SimpleNamespace(
        RULE=RuleInfo("NS-1", "nsgame.boom", "nsgame", "fails"), card_points=hookimpl(fails)
    )
    cardcore.register("cardcore.games", "nsgame", game)
    cardcore.register("cardcore.rules", "nsgame.boom", rule)
    try:
        played = cardcore.new_game("nsgame", 2, seed=1)
        assert played.to_act == (0,)
        try:
            cardcore.new_game("nsgame", 2, rules=["nsgame.boom"], seed=1)
        except PluginError as exc:
            assert exc.plugin == "nsgame.boom"
        else:
            raise AssertionError("the failing rule was not blamed")
    finally:
        cardcore.unregister("cardcore.rules", "nsgame.boom")
        cardcore.unregister("cardcore.games", "nsgame")
