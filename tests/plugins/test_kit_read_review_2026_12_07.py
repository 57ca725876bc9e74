"""Read review of the conformance kit (``cardcore.testing``): false passes and claims that hold.

Each broken game below is a small variant of the core's test draw game
(``tests/plugins/drawgame.py``), registered for one test and unregistered after.
A strict xfail marks a contract break the kit reports as fine; its passing twin
(the same break written the way the kit reads) shows the break is one the kit means
to catch.
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    Action,
    Card,
    CardsDealt,
    Emit,
    GameInfo,
    Layout,
    NotationError,
    Ruleset,
    ViewField,
    Visibility,
    ZoneSpec,
    hookimpl,
)
from cardcore.testing import (
    assert_conserved,
    assert_view_known,
    assert_view_structure,
    check_game,
    check_rejections,
    check_views,
)
from tests.plugins import drawgame
from tests.plugins.drawgame import HAND, STOCK, Draw, DrawLogic, DrawState

# -- building blocks ------------------------------------------------------------------------


def _plugin(name: str, logic: type[DrawLogic], extra: tuple[ViewField, ...] = ()) -> Any:
    module = types.ModuleType(f"tests.plugins.kit_read_review.{name}")
    info = GameInfo(
        name=name,
        summary="kit read review test game",
        min_players=2,
        max_players=4,
        options=drawgame.GAME.options,
        fields=(*drawgame.GAME.fields, *extra),
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> DrawLogic:
        return logic(ruleset)

    @hookimpl(trylast=True)
    def card_points(card: Card) -> int:
        return min(int(card.rank), 10)

    vars(module).update(GAME=info, create_logic=create_logic, card_points=card_points)
    return module


@contextmanager
def registered(
    name: str, logic: type[DrawLogic], extra: tuple[ViewField, ...] = ()
) -> Iterator[str]:
    cardcore.register("cardcore.games", name, _plugin(name, logic, extra))
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.games", name)


def _buried_layout(players: int) -> Layout:
    """The draw game's layout with a face-down discard pile (a 'bury' pile)."""
    specs = [ZoneSpec("stock"), ZoneSpec("buried")]
    specs += [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of(specs)


@frozen
class BuryText(Action):
    """Bury a card of the hand face down; the card held as its text (a ``str`` field)."""

    card: str
    verb: ClassVar[str] = "bury"

    def notation(self) -> str:
        return f"bury {self.card}"


@frozen
class BuryCard(Action):
    """The same action holding a :class:`Card`."""

    card: Card
    verb: ClassVar[str] = "bury"

    def notation(self) -> str:
        return f"bury {self.card}"


class _BuryBase(DrawLogic):
    """Draw from the stock (seen by the drawer only), then bury a card face down.

    Its flaw: the notation ``bury 7H`` is published to every seat (``ActionApplied``),
    so each opponent learns a card it never saw.
    """

    bury: type[Action] = BuryCard

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self._layouts = {n: _buried_layout(n) for n in range(2, 5)}

    def _deal(self, st: DrawState, emit: Emit | None) -> None:
        from cardcore.dealing import deal_round_robin

        deal_round_robin(st, STOCK, range(HAND, HAND + st.players), 3)
        st.phase = "draw"
        st.to_act = ((st.round - 1) % st.players,)
        if emit is not None:
            emit(CardsDealt((3,) * st.players))

    def legal_actions(self, state: DrawState, seat: int) -> tuple[Any, ...]:
        if state.phase == "draw":
            return (Draw(seat),)
        hand = state.zones.cards[HAND + seat]
        if self.bury is BuryText:
            return tuple(BuryText(seat, str(c)) for c in hand)
        return tuple(BuryCard(seat, c) for c in hand)

    def apply(self, state: DrawState, action: Any, emit: Emit | None) -> None:
        if not isinstance(action, BuryText | BuryCard):
            super().apply(state, action, emit)
            return
        z = state.zones
        hand = HAND + action.seat
        at = [str(c) for c in z.cards[hand]].index(str(action.card))
        z.move(hand, 1, at)  # face down onto the buried pile: nobody sees it
        state.phase = "draw"
        state.to_act = ((action.seat + 1) % state.players,)
        if not z.cards[STOCK]:
            self._end_round(state, emit)


class BuryTextLogic(_BuryBase):
    action_types = (Draw, BuryText)  # type: ignore[assignment]
    bury = BuryText


class BuryCardLogic(_BuryBase):
    action_types = (Draw, BuryCard)  # type: ignore[assignment]
    bury = BuryCard


# -- false passes ---------------------------------------------------------------------------


def test_control_a_buried_card_named_in_the_public_notation_is_a_leak() -> None:
    """The control: an action holding a ``Card`` whose notation names a card buried face
    down publishes it to every seat; check_views reports the leak (the hint names it)."""
    with registered("krr-bury-card", BuryCardLogic) as name:
        report = check_views(name, games=3, seed=1, strict=False)
    assert report.leaks > 0
    assert any("notation is public" in f for f in report.failures), report.failures


def test_a_buried_card_named_from_a_str_field_is_reported() -> None:
    with registered("krr-bury-text", BuryTextLogic) as name:
        report = check_views(name, games=3, seed=1, strict=False)
    assert report.leaks > 0, report.summary()


class ParseLeak(DrawLogic):
    """Refuses text it cannot read naming the opponent's hidden hand."""

    def parse_action(self, state: DrawState, seat: int, text: str) -> Any:
        try:
            return super().parse_action(state, seat, text)
        except NotationError:
            other = HAND + (seat + 1) % state.players
            hand = " ".join(map(str, state.zones.cards[other]))
            msg = f"cannot read {text[:20]!r} (your opponent holds {hand}) (DRAW-1)"
            raise NotationError(msg) from None


class RuleForLeak(DrawLogic):
    """Refuses an illegal action naming the hidden top card of the stock."""

    def rule_for(self, state: DrawState, action: Any) -> tuple[str, str]:
        rule, why = super().rule_for(state, action)
        top = state.zones.cards[STOCK][-1] if state.zones.cards[STOCK] else "nothing"
        return rule, f"{why}; the next card is {top}"


def test_control_a_refusal_naming_a_hidden_card_is_a_leak() -> None:
    with registered("krr-rule-for-leak", RuleForLeak) as name:
        report = check_rejections(name, games=3, seed=2, strict=False)
    assert report.leaks > 0
    assert any("names cards hidden" in f for f in report.failures), report.failures


def test_a_parse_refusal_naming_the_opponents_hand_is_reported() -> None:
    with registered("krr-parse-leak", ParseLeak) as name:
        report = check_rejections(name, games=3, seed=2, strict=False)
    assert report.bad_inputs > 0
    assert report.leaks > 0, report.summary()


class LostAtDeal(DrawLogic):
    """Loses a card while dealing, and the deal ends the game (a natural settled at once)."""

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        from cardcore.turns import end_game

        st = super().new_state(players, options, cards, seed, emit)
        st.zones.cards[STOCK].pop()  # one card gone
        end_game(st, (0,), [0] * players, "a natural at the deal")
        return st


def test_control_assert_conserved_sees_the_card_lost_at_the_deal() -> None:
    with registered("krr-lost-at-deal", LostAtDeal) as name:
        game = cardcore.new_game(name, 2, seed=5)
        assert game.is_over
        with pytest.raises(AssertionError, match="cards not conserved"):
            assert_conserved(game)


def test_check_conservation_catches_a_card_lost_in_a_deal_that_ends_the_game() -> None:
    with registered("krr-lost-at-deal", LostAtDeal) as name:
        report = cardcore.testing.check_conservation(name, games=3, seed=1, strict=False)
    assert report.cards_lost > 0 or "conservation" in report.skipped, report.summary()


@pytest.mark.parametrize("check", [assert_view_known, assert_view_structure])
def test_single_position_assertions_refuse_a_non_game_as_assert_conserved_does(check: Any) -> None:
    with pytest.raises(cardcore.ArgumentError):
        assert_conserved("not a game")  # type: ignore[arg-type]
    with pytest.raises(cardcore.ArgumentError):
        check("not a game", 0)


# -- claims that hold -----------------------------------------------------------------------


class SeedHex(DrawLogic):
    """Shows the game's seed written in hexadecimal (no decimal digits of it, no 'seed' key)."""

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        return {**super().table(state, seat), "deal": format(state.seed, "x")}


def test_a_seed_shown_in_another_form_still_fails_check_views() -> None:
    """The seed check reads the decimal number and the keys only, but a world dealt by
    ``determinize`` gets another seed, so the twins check fails such a view."""
    with registered("krr-seed-hex", SeedHex, (ViewField("deal", "str", "deal id"),)) as name:
        report = check_views(name, games=2, seed=1, strict=False)
    assert report.leaks > 0 and not report.ok


def test_the_kit_reports_the_same_on_the_same_seed() -> None:
    """The kit is deterministic: the same broken game and seed give the same report."""
    with registered("krr-bury-card", BuryCardLogic) as name:
        a = check_game(name, games=2, seed=4, strict=False)
        b = check_game(name, games=2, seed=4, strict=False)
    assert a.failures and a.failures == b.failures
    assert a.summary() == b.summary()


def test_a_correct_variant_passes_check_game() -> None:
    """No false failure: the face-down bury game without the public notation leak (the
    action-applied event still names the card, so check a text-free notation) passes."""

    @frozen
    class BuryAt(Action):
        index: int
        verb: ClassVar[str] = "bury"

        def notation(self) -> str:
            return f"bury {self.index}"

    class Clean(_BuryBase):
        action_types = (Draw, BuryAt)  # type: ignore[assignment]

        def legal_actions(self, state: DrawState, seat: int) -> tuple[Any, ...]:
            if state.phase == "draw":
                return (Draw(seat),)
            return tuple(BuryAt(seat, i) for i in range(len(state.zones.cards[HAND + seat])))

        def apply(self, state: DrawState, action: Any, emit: Emit | None) -> None:
            if isinstance(action, BuryAt):
                card = state.zones.cards[HAND + action.seat][action.index]
                action = BuryCard(action.seat, card)
            super().apply(state, action, emit)

    with registered("krr-bury-clean", Clean) as name:
        report = check_game(name, games=2, seed=1, strict=False)
    assert report.ok, report.failures
    assert report.leaks == 0 and report.twins > 0


@pytest.mark.parametrize("players", [True, "2", 2.0, 1, 99])
def test_check_game_refuses_a_bad_player_count_with_option_error(players: Any) -> None:
    with registered("krr-bury-card", BuryCardLogic) as name, pytest.raises(cardcore.OptionError):
        check_game(name, players=players, games=1, checks=["conservation"])


def test_checks_given_as_one_name_is_that_check() -> None:
    with registered("krr-bury-card", BuryCardLogic) as name:
        report = check_game(name, games=1, checks="conservation", strict=False)
    assert report.checks == ("conservation",)
