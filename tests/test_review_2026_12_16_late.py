"""Review 2026-12-16 (late) of d13622c..7d5cbd9: zones' masks, the bus's handler read,
forbid_action's pile check, namespace plugins, the kit's legal words, a read's SeatError."""

from __future__ import annotations

import enum
import types
from typing import Any, ClassVar

import attrs
import pytest

import cardcore
from cardcore import (
    ALL,
    ArgumentError,
    Card,
    Event,
    PluginError,
    RuleInfo,
    Veto,
    ViewField,
    hookimpl,
)
from cardcore.testing import assert_view_known, check_game
from cardcore.testing._util import legal_words
from tests.plugins import bridge_2026_12_15 as mb

DECK = " ".join(str(c) for c in cardcore.decks(1))
# N (seat 0): 4S 8S QS 3H 7H JH 2D 6D 10D AC 5C 9C KC; W (seat 3) holds 2H
TELL = "mb-tell-review-1216-late"
PEEK = "mb-peek-review-1216-late"


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", mb.NAME, mb)
    yield
    cardcore.unregister("cardcore.games", mb.NAME)


def bridge(name: str = mb.NAME) -> cardcore.Game:
    return cardcore.new_game(name, 4, seed=3, deck=DECK)


def variant(name: str, logic: type[mb.BridgeLogic], *extra: ViewField) -> types.ModuleType:
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = attrs.evolve(mb.GAME, name=name, fields=(*mb.GAME.fields, *extra))  # type: ignore[attr-defined]
    module.create_logic = hookimpl(lambda ruleset: logic(ruleset))  # type: ignore[attr-defined]
    return module


def sizes(zones: Any, *piles: int) -> list[tuple[int, int]]:
    return [(len(zones.cards[z]), len(zones.seen[z])) for z in piles]


# --- Zones: masks checked before any pile changes ------------------------------------------


def test_zones_move_to_a_pile_that_does_not_exist_changes_no_pile() -> None:
    zones = bridge().state.zones
    src = mb.hand(3)
    before = sizes(zones, src)
    with pytest.raises(IndexError):
        zones.move(src, 99, 0)
    assert sizes(zones, src) == before


@pytest.mark.parametrize("method", ["put", "move", "insert", "insert_bottom"])
def test_zones_refuse_a_mask_that_is_no_number_on_every_pile_kind(method: str) -> None:
    zones = bridge().state.zones
    for z in (mb.STOCK, mb.hand(0)):
        before = sizes(zones, z, mb.hand(3))
        card = Card.parse("JK")
        call = {
            "put": lambda z=z, card=card: zones.put(z, card, "1"),
            "move": lambda z=z, card=card: zones.move(mb.hand(3), z, 0, mask="1"),
            "insert": lambda z=z, card=card: zones.insert(z, 0, card, "1"),
            "insert_bottom": lambda z=z, card=card: zones.insert_bottom(z, card, "1"),
        }[method]
        with pytest.raises(ArgumentError, match="knowledge mask is an int"):
            call()
        assert sizes(zones, z, mb.hand(3)) == before


def test_zones_all_and_plain_seat_bits_still_taken() -> None:
    zones = bridge().state.zones
    zones.move(mb.hand(3), mb.STOCK, 0, mask=ALL)
    zones.move(mb.hand(3), mb.STOCK, 0, mask=0b1001)
    zones.put(mb.STOCK, Card.parse("JK"), 1 << 70)
    assert zones.seen[mb.STOCK][-3:] == [ALL, 0b1001, 1 << 70]


class _Seen(enum.IntFlag):
    NORTH = 1
    WEST = 8


def test_zones_take_an_intflag_mask_which_is_an_int() -> None:
    zones = bridge().state.zones
    zones.put(mb.STOCK, Card.parse("JK"), _Seen.NORTH | _Seen.WEST)
    assert zones.seen[mb.STOCK][-1] == 9


# --- the bus: the handler read before the call ---------------------------------------------


class _Pinged(Event):
    """An event whose redaction lets the subscription go (another thread unsubscribing
    while the copy for the seat is made)."""

    slug: ClassVar[str] = "pinged-review-1216-late"
    seat: int
    box: ClassVar[dict[str, Any]] = {}

    def for_seat(self, seat: Any) -> Any:
        self.box["bus"].unsubscribe(self.box["sub"])
        return self


def test_a_handler_unsubscribed_during_its_redaction_receives_nothing() -> None:
    bus = cardcore.new_game("golf", 2, seed=5).events
    got: list[Event] = []
    _Pinged.box["bus"] = bus
    _Pinged.box["sub"] = bus.subscribe(_Pinged, got.append, seat=1)
    batch: list[Event] = [_Pinged(0)]
    bus.deliver(bus.ticket(batch), batch)
    assert got == []


def test_a_handler_that_unsubscribes_itself_then_raises_is_named() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    failures: list[Any] = []
    game.events.on_error = failures.append
    box: dict[str, Any] = {}

    def boom(event: Event) -> None:
        game.events.unsubscribe(box["sub"])
        raise RuntimeError("gone")

    box["sub"] = game.events.subscribe(Event, boom)
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert [f.handler for f in failures] == [boom]


# --- forbid_action: a veto that moves a card ----------------------------------------------


def _veto_rule(name: str, veto: Any) -> types.ModuleType:
    module = types.ModuleType(name.replace(".", "_"))
    module.RULE = RuleInfo(id="GOLF-REVIEW-91", game="golf", summary="review veto", name=name)  # type: ignore[attr-defined]
    module.forbid_action = hookimpl(veto)  # type: ignore[attr-defined]
    return module


def test_a_veto_that_moves_a_card_and_back_is_allowed_and_one_that_keeps_it_is_refused() -> None:
    def borrow(state: Any, action: Any) -> Veto | None:
        z = state.zones
        z.cards[0].append(z.cards[0].pop())  # a read that put the card back: sizes unchanged
        return None

    def keep(state: Any, action: Any) -> Veto | None:
        state.zones.move(0, 1)
        return None

    cardcore.register(
        "cardcore.rules", "golf.review-borrow", _veto_rule("golf.review-borrow", borrow)
    )
    cardcore.register("cardcore.rules", "golf.review-keep", _veto_rule("golf.review-keep", keep))
    try:
        ok = cardcore.new_game("golf", 2, seed=5, rules=["golf.review-borrow"])
        assert ok.legal_actions(ok.to_act[0])
        bad = cardcore.new_game("golf", 2, seed=5, rules=["golf.review-keep"])
        before = bad.state.snapshot()
        with pytest.raises(PluginError, match="moved, added or removed cards"):
            bad.legal_actions(bad.to_act[0])
        assert bad.state.snapshot() == before
        with pytest.raises(PluginError, match="moved, added or removed cards"):
            bad.act(bad.to_act[0], "draw")
        assert bad.state.snapshot() == before and bad.version == 0
    finally:
        cardcore.unregister("cardcore.rules", "golf.review-borrow")
        cardcore.unregister("cardcore.rules", "golf.review-keep")


# --- check_hooks_marked on a class ------------------------------------------------------------


class _ClassRule:
    RULE = RuleInfo(
        id="GOLF-REVIEW-92", game="golf", summary="a class rule", name="golf.review-class"
    )

    @staticmethod
    @hookimpl
    def forbid_action(state: Any, action: Any) -> Veto | None:
        return None

    @staticmethod
    def card_points(card: Any) -> int:  # a helper named like a hook, a staticmethod: not refused
        return 0


def test_a_class_rule_with_marked_hooks_and_a_static_helper_registers() -> None:
    cardcore.register("cardcore.rules", "golf.review-class", _ClassRule)
    try:
        game = cardcore.new_game("golf", 2, seed=5, rules=["golf.review-class"])
        assert game.legal_actions(game.to_act[0])
    finally:
        cardcore.unregister("cardcore.rules", "golf.review-class")


# --- the kit: words of the actions listed now ---------------------------------------------


class _Tell(mb.BridgeLogic):
    """A leak: the others' table names the lowest card of the seat to act (its legal play)."""

    def table(self, state: mb.BridgeState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        actor = state.to_act[0] if state.to_act else None
        plays = (
            []
            if actor is None
            else [a for a in self.legal_actions(state, actor) if isinstance(a, mb.Play)]
        )
        out["hint"] = None if seat == actor or not plays else str(plays[0].card)
        return out


class _Peek(mb.BridgeLogic):
    """A leak: North's table names the lowest heart of West's hand (2H) from the deal."""

    def table(self, state: mb.BridgeState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        hearts = [c for c in state.zones.cards[mb.hand(3)] if str(c).endswith("H")]
        out["hint"] = str(min(hearts, key=lambda c: int(c.rank))) if seat == 0 and hearts else None
        return out


@pytest.fixture
def tell():
    cardcore.register("cardcore.games", TELL, variant(TELL, _Tell, ViewField("hint", "json")))
    yield
    cardcore.unregister("cardcore.games", TELL)


@pytest.fixture
def peek():
    cardcore.register("cardcore.games", PEEK, variant(PEEK, _Peek, ViewField("hint", "json")))
    yield
    cardcore.unregister("cardcore.games", PEEK)


def test_a_legal_card_play_of_the_seat_to_act_is_not_excused_in_another_seats_text(tell) -> None:
    game = bridge(TELL)
    for text in ("1C", "pass", "pass", "pass"):
        game.act(game.to_act[0], text)
    assert game.to_act == (1,) and "play 2C" in [str(a) for a in game.legal_actions(1)]
    assert legal_words(game) == set()  # plays hold their Card: no word of their own
    assert game.view(3)["table"]["hint"] == "2C"
    with pytest.raises(AssertionError, match="2C"):
        assert_view_known(game, 3)


def test_check_game_still_finds_a_hidden_card_named_in_text_during_the_auction(peek) -> None:
    report = check_game(PEEK, players=4, games=2, seed=1, strict=False)
    assert report.leaks > 0


def test_assert_view_known_leaves_a_card_named_like_an_open_bid_to_the_twins(peek) -> None:
    """The documented trade-off (testing-kit.rst): every open bid's word (2C..7S) is excused
    in text fields for the whole auction, in every seat's view, so a correct game naming the
    cheapest open bid passes; a hidden card named there is left to check_game's twins
    (test_check_game_still_finds_a_hidden_card_named_in_text_during_the_auction)."""
    game = bridge(PEEK)
    assert game.version == 0 and game.view(0)["table"]["hint"] == "2H"
    assert_view_known(game, 0)  # excused here; the twins check above reports it


# --- a read's SeatError -------------------------------------------------------------------


def test_a_read_of_no_seat_names_the_spectator_not_the_host() -> None:
    game = bridge()
    with pytest.raises(cardcore.SeatError, match="SPECTATOR") as info:
        game.view(-1)
    assert "host" not in str(info.value) and "CORE-SEAT-1" in str(info.value)
    with pytest.raises(cardcore.SeatError, match="host"):
        game.act(-1, "pass")
