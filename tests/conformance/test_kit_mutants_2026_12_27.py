"""Mutation audit of the conformance kit itself (2026-12-27).

Each test builds a small deliberately broken variant of the test draw game (registered
the documented way: a module with ``GAME`` and a ``create_logic`` hook) and asserts that
the kit names the failure; its docstring names the mutant of ``src/cardcore/testing`` it
kills (a mutant that made the kit blind to that class of plugin bug). The sound games
pass, so the failures are the plugins', not the kit's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from attrs import frozen

import cardcore
from cardcore import (
    ALL,
    Card,
    CardDrawn,
    CardsDealt,
    Emit,
    Event,
    GameInfo,
    Layout,
    Option,
    Rank,
    Ruleset,
    ViewField,
    Visibility,
    ZoneSpec,
    hookimpl,
)
from cardcore.errors import IllegalActionError, NotationError
from cardcore.plugins import unregister
from cardcore.testing import check_game
from tests.plugins import drawgame
from tests.plugins.drawgame import DISCARD, HAND, STOCK, DrawAction, DrawLogic, DrawState


class StockTens(DrawLogic):
    """Shows every seat the tens still face down in the stock (and nothing else)."""

    extra_fields = (ViewField("stock_tens", "cards", "the tens in the stock (a leak)"),)

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        out["stock_tens"] = [str(c) for c in state.zones.cards[STOCK] if c.rank is Rank.TEN]
        return out


@frozen
class WordyTake(drawgame.Take):
    """``take`` written with a card-like word that names no card of the action (as a
    bridge bid ``2H`` does): the game's notation word, excused in text fields."""

    def notation(self) -> str:
        return "take 2C"


class NoteLeak(DrawLogic):
    """Writes the face-down top card of the stock into a declared text field (its
    ``take`` is written with a notation word, so the text fields are read as text)."""

    extra_fields = (ViewField("note", "str", "a remark (it names a hidden card: a leak)"),)

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        stock = state.zones.cards[STOCK]
        out["note"] = f"next up: {stock[-1]}" if stock else "stock empty"
        return out

    def legal_actions(self, state: DrawState, seat: int) -> tuple[DrawAction, ...]:
        legal = super().legal_actions(state, seat)
        return tuple(WordyTake(seat) if type(a) is drawgame.Take else a for a in legal)


class DealNumber(DrawLogic):
    """Shows everybody the game's seed as a "deal number"."""

    extra_fields = (ViewField("deal_no", "int", "the deal's number (the seed: a leak)"),)

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        return {**super().table(state, seat), "deal_no": state.seed}


class UnderTheTop(DrawLogic):
    """Plays with a face-up stock (only its top card is shown, ``Visibility.TOP``) and
    shows everybody the card under the top as well."""

    extra_fields = (
        ViewField("under", "card", "the card under the stock's top (a leak)", nullable=True),
    )

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self._layouts = {n: _top_stock_layout(n) for n in self._layouts}

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        stock = state.zones.cards[STOCK]
        under = str(stock[-2]) if len(stock) > 1 else None
        return {**super().table(state, seat), "under": under}


def _top_stock_layout(players: int) -> Layout:
    specs = [
        ZoneSpec("stock", None, Visibility.TOP),
        ZoneSpec("discard", None, Visibility.EVERYONE),
    ]
    specs += [ZoneSpec(f"hand.{s}", s, Visibility.OWNER) for s in range(players)]
    return Layout.of(specs)


class SwapsCard(DrawLogic):
    """A discard leaves a copy of the bottom stock card on the pile: one card is lost and
    another doubled, so the number of cards on the table never changes."""

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        z = state.zones
        stock, pile = z.cards[STOCK], z.cards[DISCARD]
        if type(action) is drawgame.Discard and stock and pile and pile[-1] != stock[0]:
            pile[-1] = stock[0]


class ShiftingDeal(DrawLogic):
    """Deals from a deck rotated by a counter the logic class keeps: the same seed gives a
    different deal every time a game starts (non-determinism that survives the seed)."""

    started: ClassVar[list[int]] = [0]

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        k = self.started[0] = self.started[0] + 1
        cards = cards[k:] + cards[:k]
        return super().new_state(players, options, cards, seed, emit)


class ShiftingEvent(DrawLogic):
    """Announces the deal with a count that changes from game to game (a counter the logic
    class keeps): the same seed gives the same states but other events."""

    started: ClassVar[list[int]] = [0]

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        k = self.started[0] = self.started[0] + 1
        st = super().new_state(players, options, cards, seed, emit)
        if emit is not None:
            emit(CardsDealt((k,) * players))
        return st


class SpectatorSeesHands(DrawLogic):
    """Shows the spectator (``seat=None``) every hand; the seats see only their own."""

    extra_fields = (
        ViewField("hands", "per-seat", "every hand, to the spectator (a leak)", of="cards"),
    )

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        z = state.zones
        out["hands"] = [
            [str(c) for c in z.cards[HAND + s]] if seat is None or s == seat else []
            for s in range(state.players)
        ]
        return out


class HistoryIgnoresSince(DrawLogic):
    """Answers ``history`` from the first round whatever *since* asks."""

    def history(self, state: DrawState, seat: int | None, since: int) -> list[dict[str, Any]]:
        return super().history(state, seat, 0)


class UnboundedRounds(DrawLogic):
    """Declares its ``rounds`` option as an int without a minimum or a maximum."""

    game_options = (Option("rounds", 1, "rounds to play (no bounds: a mistake)", int),)


class StrictIsLegal(DrawLogic):
    """Has its own ``is_legal`` that refuses ``take``, which ``legal_actions`` offers."""

    def is_legal(self, state: DrawState, action: DrawAction) -> bool:
        return type(action) is not drawgame.Take and super().is_legal(state, action)


class LaxIsLegal(DrawLogic):
    """Has its own ``is_legal`` that says yes to any action of the seat to act."""

    def is_legal(self, state: DrawState, action: DrawAction) -> bool:
        return True


class SetInHistory(DrawLogic):
    """Serves each past round's scores as a set, which JSON cannot carry."""

    def history(self, state: DrawState, seat: int | None, since: int) -> list[dict[str, Any]]:
        past = super().history(state, seat, since)
        return [{**entry, "scores": set(entry["scores"])} for entry in past]


class DealShowsAHand(DrawLogic):
    """Announces seat 1's first card to everybody at the deal, as if drawn in sight."""

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        st = super().new_state(players, options, cards, seed, emit)
        if emit is not None:
            emit(CardDrawn(1, "stock", st.zones.cards[HAND + 1][0], visible_to=ALL))
        return st


class SeatZeroOpen(DrawLogic):
    """Shows everybody seat 0's hand (and nobody any other hand)."""

    extra_fields = (ViewField("open_hand", "cards", "seat 0's hand, to all (a leak)"),)

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        return {
            **super().table(state, seat),
            "open_hand": [str(c) for c in state.zones.cards[HAND]],
        }


class PeriodMessage(DrawLogic):
    """Refuses unreadable text with a message that ends with a period."""

    def parse_action(self, state: DrawState, seat: int, text: str) -> DrawAction:
        try:
            return super().parse_action(state, seat, text)
        except NotationError:
            raise IllegalActionError("cannot read that move.") from None


class UncitedRule(DrawLogic):
    """Refuses unreadable text with an error whose rule ID the message does not end with."""

    def parse_action(self, state: DrawState, seat: int, text: str) -> DrawAction:
        try:
            return super().parse_action(state, seat, text)
        except NotationError:
            raise IllegalActionError("cannot read that move", rule_id="DRAW-9") from None


class ShuffleNoted(Event):
    """The deal was shuffled with *number* (the game's seed: a leak)."""

    slug: ClassVar[str] = "k27-shuffle-noted"
    number: int


class SeedInEvent(DrawLogic):
    """Announces the seed in an event of its own at the deal."""

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        st = super().new_state(players, options, cards, seed, emit)
        if emit is not None:
            emit(ShuffleNoted(seed))
        return st


class SoloOpenDraw(DrawLogic):
    """Plays alone too (one seat) and announces each card drawn from the stock to all, so
    only the spectator learns a card it does not know (the seat drew it)."""

    fewest_seats = 1

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self._layouts[1] = drawgame._layout(1)

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        if type(action) is drawgame.Draw and emit is not None:
            card = state.zones.cards[STOCK][-1]
            super().apply(state, action, None)
            emit(CardDrawn(action.seat, "stock", card, visible_to=ALL))
            return
        super().apply(state, action, emit)


class _TakeLogState(DrawState):
    __slots__ = ("takes",)
    _mutable = ("zones", "past", "totals")  # "takes" forgotten: clones share it
    takes: list[str]


class SharesTakeLog(DrawLogic):
    """Keeps a list of the cards taken from the discard pile in a slot ``_mutable`` leaves
    out, so a clone and its original share it (written on ``take`` only)."""

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        st = super().new_state(players, options, cards, seed, emit)
        new = _TakeLogState.__new__(_TakeLogState)
        for name in ("players", "options", "zones", "to_act", "is_over", "result", "seed", "draws"):
            setattr(new, name, getattr(st, name))
        for name in DrawState.__slots__:
            setattr(new, name, getattr(st, name))
        new.chance = st.chance
        new.takes = []
        return new

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        if type(action) is drawgame.Take and isinstance(state, _TakeLogState):
            state.takes.append(str(state.zones.cards[DISCARD][-1]))
        super().apply(state, action, emit)


class TellingRefusal(DrawLogic):
    """Refuses an illegal action naming a card of the next seat's hand."""

    def rule_for(self, state: DrawState, action: DrawAction) -> tuple[str, str]:
        rule, reason = super().rule_for(state, action)
        other = state.zones.cards[HAND + (action.seat + 1) % state.players]
        return rule, f"{reason}; the next seat holds {other[0]}" if other else reason


class MovesInLogic(DrawLogic):
    """Counts the actions in the logic object, not in the state, and shows the count."""

    extra_fields = (
        ViewField("moves", "int", "actions so far (kept outside the state: a mistake)"),
    )

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.moves = 0

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        self.moves += 1

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        return {**super().table(state, seat), "moves": self.moves}


class Ticked(Event):
    """Action number *number* of every game this process played (a counter outside the state)."""

    slug: ClassVar[str] = "k27-ticked"
    number: int


class TicksInClass(DrawLogic):
    """Numbers its events with a counter the logic class keeps: the state replays, the
    events do not."""

    ticks: ClassVar[list[int]] = [0]

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        self.ticks[0] += 1
        if emit is not None:
            emit(Ticked(self.ticks[0]))


class ReversedStock(DrawLogic):
    """Reads positions with the face-down stock upside down: every view is the same, but
    the next draw is another card (and the position written again differs)."""

    def read_position(self, text: str, players: int, options: Mapping[str, Any]) -> DrawState:
        st = super().read_position(text, players, options)
        st.zones.cards[STOCK].reverse()
        return st


class StockHint(Event):
    """Whether the new top card of the stock is red (a hint about a hidden card)."""

    slug: ClassVar[str] = "k27-stock-hint"
    red: bool


class HintingDraw(DrawLogic):
    """After each draw from the stock tells everybody whether the next card is red: no
    card text, so only a twin (the same game, other hidden cards) shows the leak."""

    def apply(self, state: DrawState, action: DrawAction, emit: Emit | None) -> None:
        super().apply(state, action, emit)
        stock = state.zones.cards[STOCK]
        if type(action) is drawgame.Draw and emit is not None and stock:
            emit(StockHint(stock[-1].suit is not None and stock[-1].suit.is_red))


class HashOrderDeal(DrawLogic):
    """Puts the first ten cards of the shuffled deck in the order of a set of their texts,
    which follows the string hash: one order in every game of a process, another in a
    process with another ``PYTHONHASHSEED``."""

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> DrawState:
        cards = [*map(Card.parse, {str(c) for c in cards[:10]}), *cards[10:]]
        return super().new_state(players, options, cards, seed, emit)


class LenientParser(DrawLogic):
    """Reads ``discard X`` for a card X not in the hand as discarding the hand's first card
    (a mistyped or unknown card is accepted as another action)."""

    def parse_action(self, state: DrawState, seat: int, text: str) -> DrawAction:
        action = super().parse_action(state, seat, text)
        hand = state.zones.cards[HAND + seat]
        if type(action) is drawgame.Discard and action.card not in hand and hand:
            return drawgame.Discard(seat, hand[0])
        return action


@frozen
class PlainDiscard(drawgame.Discard):
    """``discard`` written without its card: every discard of a hand reads alike."""

    def notation(self) -> str:
        return "discard"


class SameNotation(DrawLogic):
    """Offers discards that all write ``discard``."""

    def legal_actions(self, state: DrawState, seat: int) -> tuple[DrawAction, ...]:
        legal = super().legal_actions(state, seat)
        return tuple(
            PlainDiscard(seat, a.card) if type(a) is drawgame.Discard else a for a in legal
        )


class HintAfterDraw(DrawLogic):
    """While a seat holds a drawn card, shows everybody whether the stock's next card is
    red (no card text: a hint; nothing is shown while seats are to draw)."""

    extra_fields = (
        ViewField("next_red", "bool", "a hint about the stock (a leak)", nullable=True),
    )

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        stock = state.zones.cards[STOCK]
        red = None
        if state.phase == "discard" and stock:
            red = stock[-1].suit is not None and stock[-1].suit.is_red
        return {**super().table(state, seat), "next_red": red}


@frozen
class GoDraw(drawgame.Draw):
    """``draw`` written ``go``."""

    def notation(self) -> str:
        return "go"


@frozen
class GoDiscard(drawgame.Discard):
    """A discard written ``go``."""

    def notation(self) -> str:
        return "go"


class OnlyGo(DrawLogic):
    """Offers one action at a time, always written ``go`` (draw, then discard the first
    card): a notation the kit's veto-only rule never vetoes under its salts."""

    def legal_actions(self, state: DrawState, seat: int) -> tuple[DrawAction, ...]:
        if state.phase == "draw":
            return (GoDraw(seat),)
        return (GoDiscard(seat, state.zones.cards[HAND + seat][0]),)


class BadShapes(DrawLogic):
    """Declares eight table fields and gives each a value its declaration refuses (and
    leaves one out): no card is shown that a seat does not know."""

    extra_fields = (
        ViewField("pile", "cards", "a list of card texts"),
        ViewField("missing", "int", "declared, never given"),
        ViewField("maybe", "int", "an int, never None"),
        ViewField("dealer", "seat", "a seat of the game"),
        ViewField("mode", "choice", "one of two modes", choices=("a", "b")),
        ViewField("bids", "per-seat", "one bid per seat", of="int"),
        ViewField("flag", "bool", "a truth value"),
        ViewField("count", "int", "a number"),
    )
    WRONG: ClassVar[dict[str, Any]] = {
        "pile": ["seven of hearts"],
        "maybe": None,
        "dealer": 9,
        "mode": "c",
        "bids": [0],
        "flag": 1,
        "count": True,
    }

    def table(self, state: DrawState, seat: int | None) -> dict[str, Any]:
        return {**super().table(state, seat), **self.WRONG}


class ReadsTwoWords(DrawLogic):
    """Reads only the first two words of a move and ignores the rest."""

    def parse_action(self, state: DrawState, seat: int, text: str) -> DrawAction:
        return super().parse_action(state, seat, " ".join(text.split()[:2]))


class PlayAlias(DrawLogic):
    """A correct game: also reads ``play`` as ``draw`` (an alias) when a seat is to draw."""

    def parse_action(self, state: DrawState, seat: int, text: str) -> DrawAction:
        if text.strip().lower() == "play" and state.phase == "draw":
            return drawgame.Draw(seat)
        return super().parse_action(state, seat, text)


class HistoryPeek(DrawLogic):
    """Ends its history with an entry naming the face-down top card of the stock (a leak;
    ``since`` is honoured, so only the knowledge check can see it)."""

    def history(self, state: DrawState, seat: int | None, since: int) -> list[dict[str, Any]]:
        stock = state.zones.cards[STOCK]
        peek = [{"next": str(stock[-1])}] if stock else []
        return [*super().history(state, seat, 0), *peek][since:]


class NanUtility(DrawLogic):
    """Scores search rollouts with ``nan`` for every seat while a round is on."""

    def utility(self, state: DrawState) -> tuple[float, ...]:
        return (float("nan"),) * state.players


GAMES: dict[str, type[DrawLogic]] = {
    "broken-k27-nan-utility": NanUtility,
    "broken-k27-history-peek": HistoryPeek,
    "broken-k27-play-alias": PlayAlias,
    "broken-k27-reads-two-words": ReadsTwoWords,
    "broken-k27-bad-shapes": BadShapes,
    "broken-k27-only-go": OnlyGo,
    "broken-k27-hint-after-draw": HintAfterDraw,
    "broken-k27-lenient-parser": LenientParser,
    "broken-k27-same-notation": SameNotation,
    "broken-k27-hash-order-deal": HashOrderDeal,
    "broken-k27-reversed-stock": ReversedStock,
    "broken-k27-hinting-draw": HintingDraw,
    "broken-k27-moves-in-logic": MovesInLogic,
    "broken-k27-ticks-in-class": TicksInClass,
    "broken-k27-telling-refusal": TellingRefusal,
    "broken-k27-shares-take-log": SharesTakeLog,
    "broken-k27-seed-in-event": SeedInEvent,
    "broken-k27-solo-open-draw": SoloOpenDraw,
    "broken-k27-period-message": PeriodMessage,
    "broken-k27-uncited-rule": UncitedRule,
    "broken-k27-deal-shows-a-hand": DealShowsAHand,
    "broken-k27-seat-zero-open": SeatZeroOpen,
    "broken-k27-set-in-history": SetInHistory,
    "broken-k27-unbounded-option": UnboundedRounds,
    "broken-k27-strict-is-legal": StrictIsLegal,
    "broken-k27-lax-is-legal": LaxIsLegal,
    "broken-k27-stock-tens": StockTens,
    "broken-k27-note-leak": NoteLeak,
    "broken-k27-under-the-top": UnderTheTop,
    "broken-k27-deal-number": DealNumber,
    "broken-k27-swaps-card": SwapsCard,
    "broken-k27-shifting-deal": ShiftingDeal,
    "broken-k27-shifting-event": ShiftingEvent,
    "broken-k27-spectator-hands": SpectatorSeesHands,
    "broken-k27-history-since": HistoryIgnoresSince,
}


def _plugin(name: str, logic: type[DrawLogic]) -> types.ModuleType:
    module = types.ModuleType(f"tests.conformance.k27.{name}")
    info = GameInfo(
        name=name,
        summary="broken test game",
        min_players=getattr(logic, "fewest_seats", 2),
        max_players=4,
        options=getattr(logic, "game_options", drawgame.GAME.options),
        fields=(*drawgame.GAME.fields, *getattr(logic, "extra_fields", ())),
    )

    @hookimpl
    def create_logic(ruleset: Ruleset) -> DrawLogic:
        return logic(ruleset)

    @hookimpl(trylast=True)
    def card_points(card: Card) -> int:
        return min(int(card.rank), 10)

    vars(module).update(GAME=info, create_logic=create_logic, card_points=card_points)
    return module


@pytest.fixture(autouse=True, scope="module")
def _games() -> Iterator[None]:
    for name, logic in GAMES.items():
        cardcore.register("cardcore.games", name, _plugin(name, logic))
    yield
    for name in GAMES:
        unregister("cardcore.games", name)


def _failures(name: str, checks: set[str], **kwargs: Any) -> list[str]:
    kwargs.setdefault("games", 2)
    kwargs.setdefault("seed", 0)
    report = check_game(name, checks=checks, strict=False, **kwargs)
    return report.failures


# -- the sound games pass the same checks (the failures below are the plugins') ----------


def test_sound_draw_game_passes_the_checks_used_here() -> None:
    """Guards every test below: the checks they run pass on the sound game."""
    for checks in ({"views"}, {"twins"}, {"conservation"}, {"determinism"}):
        assert check_game("drawgame", options={"rounds": 3}, games=2, seed=0, checks=checks).ok


@pytest.mark.parametrize(
    ("game", "players", "games", "seed"),
    [("golf", 3, 1, 1), ("tonk", 2, 3, 2), ("spit", 2, 1, 1), ("gofish", 3, 1, 1)],
)
def test_kit_passes_the_shipped_games_and_go_fish(
    game: str, players: int, games: int, seed: int
) -> None:
    """Every check on the built-in games and examples/go_fish (installed as ``gofish``)
    passes. Kills _check_ends no longer editing the signed save it tries (``version`` left
    as it was: every correct game would fail "a changed signed save loads with its key"),
    and guards against any mutant that makes the kit fail a correct plugin."""
    report = check_game(game, players=players, games=games, seed=seed)
    assert report.ok and report.cards_lost == report.leaks == 0
    assert report.actions > 0 and report.views > 0 and report.reloads > 0


# -- leaks -------------------------------------------------------------------------------


def test_view_leaking_only_tens_is_caught() -> None:
    """Kills _util.CARD_TOKEN without ``10`` (the kit blind to every ten, the only
    two-digit rank)."""
    report = check_game("broken-k27-stock-tens", checks={"views"}, games=1, seed=0, strict=False)
    assert report.leaks > 0
    leak = next(f for f in report.failures if "shows cards it does not know" in f)
    assert "10" in leak


def test_card_named_in_a_declared_text_field_is_a_leak() -> None:
    """Kills view_leaks scanning only the piles and card fields (``str`` fields, where the
    game's notation words are excused, left unscanned)."""
    report = check_game("broken-k27-note-leak", checks={"views"}, games=1, seed=0, strict=False)
    assert report.leaks > 0
    assert any("shows cards it does not know" in f for f in report.failures)
    assert report.failed == report.leaks  # the notation word itself is excused


def test_seed_shown_as_a_number_is_a_leak() -> None:
    """Kills seed_in_text without its ``str(seed) in text`` test (only a "seed" key found),
    and Report._keep keeping messages that differ only in numbers (seat, version, seed)."""
    report = check_game("broken-k27-deal-number", checks={"views"}, games=1, seed=0, strict=False)
    assert report.leaks > 0
    shown = [f for f in report.failures if f.startswith("view of seat")]
    assert len(shown) == 1 and "carries the seed at the number" in shown[0]
    assert report.leaks > len(report.failures)  # every seat and version counted, shown once


def test_seed_in_the_view_handed_to_an_agent_is_a_leak() -> None:
    """Kills SpyAgent without its ``contains_seed`` test (the ``agents`` check alone)."""
    report = check_game("broken-k27-deal-number", checks={"agents"}, games=1, strict=False)
    assert report.leaks > 0
    assert any(f.startswith("view handed to seat 0 carries the seed") for f in report.failures)
    assert check_game("drawgame", checks={"agents"}, games=1).ok


def test_card_under_a_face_up_top_is_a_leak() -> None:
    """Kills known_by taking every card of a ``Visibility.TOP`` pile as known (not the top
    only)."""
    report = check_game("broken-k27-under-the-top", checks={"views"}, games=1, strict=False)
    assert report.leaks > 0
    assert any("shows cards it does not know" in f for f in report.failures)


def test_seed_in_an_event_is_a_leak() -> None:
    """Kills Checker.check_events without its ``seed_in_text`` test."""
    report = check_game("broken-k27-seed-in-event", checks={"events"}, games=1, strict=False)
    assert report.leaks > 0
    assert any("events sent to seat 0 carry the seed" in f for f in report.failures)


def test_event_leak_to_the_spectator_alone_is_caught() -> None:
    """Kills Checker.check_events skipping the spectator's stream (``key == SPECTATOR``)."""
    report = check_game("broken-k27-solo-open-draw", checks={"events"}, games=1, strict=False)
    assert report.players == 1 and report.leaks > 0
    assert any("sent to seat spectator show cards it does not know" in f for f in report.failures)


def test_spectator_only_leak_is_caught_by_the_view_check() -> None:
    """Kills Checker.check_views looking at the seats' views only (spectator left out)."""
    failures = _failures("broken-k27-spectator-hands", {"views"})
    assert any(f.startswith("view of the spectator") and "does not know" in f for f in failures)


def test_spectator_only_leak_is_caught_by_the_twin_check() -> None:
    """Kills check_twin comparing only the seat's own view (``for who in (seat,)``)."""
    failures = _failures("broken-k27-spectator-hands", {"twins"})
    assert any("view of the spectator" in f and "depends on cards hidden" in f for f in failures)


def test_event_leak_at_the_deal_is_caught() -> None:
    """Kills Checker.play skipping the deal's events and views (checked only after each
    action)."""
    failures = _failures("broken-k27-deal-shows-a-hand", {"events"}, games=1)
    assert any(
        f.startswith("events ['game-started', 'cards-dealt'")
        and "does not know" in f
        and "card-drawn" in f
        for f in failures
    ), failures


def test_leak_of_one_seats_hand_to_the_others_is_caught() -> None:
    """Kills Checker.check_views allowing a seat what the spectator or seat 0 knows (a
    seat's own knowledge only is allowed)."""
    report = check_game(
        "broken-k27-seat-zero-open", checks={"views", "events"}, games=1, strict=False
    )  # with the events watched, views are checked against what each seat has ever seen
    leak = next(f for f in report.failures if "shows cards it does not know" in f)
    assert leak.startswith(("view of seat 1 ", "view of the spectator "))


def test_event_hint_about_a_hidden_card_is_caught_by_the_twins() -> None:
    """Kills check_twin without its event comparison after an action (``ja != jb``), and
    check_twin returning after the first comparison (never playing on)."""
    failures = _failures("broken-k27-hinting-draw", {"twins"}, games=2)
    assert any(
        f.startswith("events sent to seat") and "depend on cards hidden from it" in f
        for f in failures
    )


def test_hint_shown_only_after_an_action_is_caught_by_the_twin_walk() -> None:
    """Kills check_twin without its view comparison after an action (``va != vb``): the one
    sampled point (seed 6) is a draw turn, where the hint is not shown yet."""
    failures = _failures(
        "broken-k27-hint-after-draw", {"twins"}, games=1, seed=6, samples_per_game=1
    )
    assert any(" after 'draw' depends on cards hidden from it" in f for f in failures)


@pytest.mark.parametrize(
    ("mutant", "problem"),
    [
        (
            "a cards field not checking its entries",
            "field 'pile' in the view of seat 0 must be of kind 'cards'",
        ),
        ("no missing-field test", "lacks the declared field(s) ['missing']"),
        (
            "None passed for a field not nullable",
            "field 'maybe' in the view of seat 0 must be of kind 'int', not None",
        ),
        (
            "a seat kind without its range",
            "field 'dealer' in the view of seat 0 must be of kind 'seat', not 9",
        ),
        (
            "a choice not checked against the choices",
            "field 'mode' in the view of seat 0 must be one of the declared choices ['a', 'b']",
        ),
        (
            "a per-seat list of any length",
            "field 'bids' in the view of seat 0 must be a list of one entry per seat (2)",
        ),
        ("bool taking ints", "field 'flag' in the view of seat 0 must be of kind 'bool', not 1"),
        ("int taking True", "field 'count' in the view of seat 0 must be of kind 'int', not True"),
    ],
)
def test_view_structure_problems_are_named(mutant: str, problem: str) -> None:
    """Kills each kind_problem/view_problems mutant named in *mutant* (the kit blind to
    that structure mistake)."""
    report = check_game("broken-k27-bad-shapes", checks={"views"}, games=1, strict=False)
    assert any(problem in f for f in report.failures), (mutant, report.failures)
    assert report.leaks == 0


def test_history_that_ignores_since_is_caught() -> None:
    """Kills Checker.check_views without its ``history(seat, since=1)`` comparison."""
    failures = _failures(
        "broken-k27-history-since",
        {"views"},
        options={"rounds": 3},
        games=1,
        sample=0.1,
        samples_per_game=40,  # sampled points in the later rounds too
    )
    assert any("since=1) is not history(" in f for f in failures)


def test_history_that_is_not_json_ready_is_named() -> None:
    """Kills Checker.check_views without its ``json.dumps`` of the view and history."""
    failures = _failures(
        "broken-k27-set-in-history",
        {"views"},
        options={"rounds": 3},
        games=1,
        sample=0.1,
        samples_per_game=40,  # sampled points in the later rounds too
    )
    assert any("history of seat 0 is not JSON-ready" in f for f in failures)


# -- cards -------------------------------------------------------------------------------


def test_card_swapped_for_a_duplicate_is_caught() -> None:
    """Kills conservation_problem comparing only the number of cards (a lost card and a
    doubled one cancel out)."""
    report = check_game("broken-k27-swaps-card", checks={"conservation"}, games=1, strict=False)
    assert report.cards_lost > 0
    assert any("cards not conserved" in f and "missing" in f for f in report.failures)


def test_clone_changed_by_its_original_is_caught() -> None:
    """Kills Checker.play without its ``pending`` test (a clone checked again after the
    original's next action: the clone drew, the original took)."""
    failures = _failures("broken-k27-shares-take-log", {"clone"}, games=3, seed=1)
    assert any(f.startswith("a clone changed when its original applied") for f in failures)


# -- persistence -------------------------------------------------------------------------


def test_view_that_does_not_survive_save_and_replay_is_caught() -> None:
    """Kills check_persistence comparing only fingerprints after save -> load, and without
    its record -> replay comparison (the views differ, the states do not)."""
    failures = _failures("broken-k27-moves-in-logic", {"persistence"}, games=1)
    assert any(f.startswith("save -> load at version") for f in failures)
    assert any(f.startswith("record -> replay at version") and "same game" in f for f in failures)


def test_view_changed_by_a_failed_apply_is_caught() -> None:
    """Kills check_failing_rule without its view comparison (the game restored byte for
    byte, the count kept in the logic object already moved on)."""
    failures = _failures("broken-k27-moves-in-logic", {"scores"}, games=1)
    assert any("the failed apply changed a view" in f for f in failures)


def test_events_that_a_replay_does_not_publish_again_are_caught() -> None:
    """Kills check_persistence without its event comparison (``seen != host``)."""
    failures = _failures("broken-k27-ticks-in-class", {"persistence"}, games=1)
    assert any("publishes different events" in f for f in failures)


def test_sound_game_passes_the_persistence_check() -> None:
    """Guards the two tests above."""
    assert check_game("drawgame", checks={"persistence"}, games=1).ok


def test_position_read_with_a_pile_reversed_is_caught() -> None:
    """Kills check_position without its ``again.position() != text`` test (the views and
    legal actions of the game read back are the same)."""
    failures = _failures("broken-k27-reversed-stock", {"positions"}, games=1)
    assert any("is not stable" in f for f in failures)


def test_unreadable_notation_skips_persistence_with_the_reason() -> None:
    """Kills _run running the persistence check on a game whose notations do not read back
    (every replay would fail for that one cause): it is skipped, saying why; and
    Report.raise_if_failed leaving the skipped checks out of its message."""
    report = check_game(
        "broken-k27-same-notation", checks={"notation", "persistence"}, games=1, strict=False
    )
    assert any("share the notation 'discard'" in f for f in report.failures)
    assert report.skipped["persistence"].startswith("not run: records hold each action's notation")
    assert not any(f.startswith(("save -> load", "record -> replay")) for f in report.failures)
    with pytest.raises(AssertionError, match=r"\(skipped 'persistence': not run: records hold"):
        check_game("broken-k27-same-notation", checks={"notation", "persistence"}, games=1)


def test_utility_that_is_not_a_number_is_caught() -> None:
    """Kills _walk without its ``utility`` test (a search agent's rollouts scored with
    ``nan``, found when a sampled world is played on)."""
    failures = _failures("broken-k27-nan-utility", {"positions"}, games=1)
    assert any("utility answered" in f and "not a finite number per seat" in f for f in failures)
    assert check_game("drawgame", checks={"positions"}, games=1).ok


# -- determinism -------------------------------------------------------------------------


def test_deal_that_ignores_the_seed_is_caught() -> None:
    """Kills _determinism without its record comparison, and ``second = first`` (one play
    compared with itself)."""
    failures = _failures("broken-k27-shifting-deal", {"determinism"})
    assert any("the same seed gave two different games" in f for f in failures)


def test_events_that_ignore_the_seed_are_caught() -> None:
    """Kills _determinism comparing fingerprints only (not the host's event streams)."""
    failures = _failures("broken-k27-shifting-event", {"determinism"})
    assert any("different states or events" in f for f in failures)


# -- refusals ---------------------------------------------------------------------------


def test_refusal_message_ending_with_a_period_is_named() -> None:
    """Kills message_problem without its period test (``if msg.endswith(".")``)."""
    failures = _failures("broken-k27-period-message", {"rejections"}, games=1)
    assert any("error message ends with a period" in f for f in failures)


def test_refusal_message_not_ending_with_its_rule_id_is_named() -> None:
    """Kills message_problem without its ``msg.endswith(f"({rule_id})")`` test."""
    failures = _failures("broken-k27-uncited-rule", {"rejections"}, games=1)
    assert any("does not end with its rule ID (DRAW-9)" in f for f in failures)


def test_refusal_naming_a_hidden_card_is_a_leak() -> None:
    """Kills check_rejections without ``hidden_in_message`` (a rule_for reason that names
    another seat's card), and hidden_in_message allowing what any seat knows."""
    report = check_game("broken-k27-telling-refusal", checks={"rejections"}, games=1, strict=False)
    assert report.leaks > 0
    assert any("names cards hidden from that seat" in f for f in report.failures)


def test_unknown_card_read_as_another_action_is_caught() -> None:
    """Kills check_rejections passing an input that was accepted (no failure, no Abort)."""
    failures = _failures("broken-k27-lenient-parser", {"rejections"}, games=1)
    assert any(" was accepted at version " in f for f in failures)


def test_move_with_trailing_words_accepted_is_caught() -> None:
    """Kills bad_inputs without its repeated and extra-words texts (``text + " " + text``)."""
    failures = _failures("broken-k27-reads-two-words", {"rejections"}, games=1)
    accepted = [re.match(r"act\(\d, '([^']*)'\) was accepted at version", f) for f in failures]
    assert any(m is not None and len(m.group(1).split()) > 2 for m in accepted), failures


def test_an_accepted_alias_is_not_taken_for_junk() -> None:
    """Kills bad_inputs trying junk texts without asking whether the game reads them as an
    alias of a legal action (``_accepted``): the kit would fail this correct game."""
    report = check_game("broken-k27-play-alias", checks={"rejections"}, games=3, seed=0)
    assert report.ok and report.rejected > 0


def test_sound_game_passes_the_rejections_check() -> None:
    """Guards the two tests above: the sound game's refusals are in house style."""
    assert check_game("drawgame", checks={"rejections"}, games=1).ok


def test_veto_check_that_vetoed_nothing_is_skipped_with_the_reason() -> None:
    """Kills _skip_empty without its ``vetoes`` case (a check that tested nothing would be
    listed as passed)."""
    report = check_game("broken-k27-only-go", checks={"vetoes"}, games=1)
    assert report.vetoed == 0 and report.checks == ()
    assert report.skipped["vetoes"].endswith("vetoed none of the actions offered")


# -- arguments and legality --------------------------------------------------------------


def test_integer_option_without_bounds_is_named() -> None:
    """Kills _run's option check switched off (``if option.kind is int and not bounded``)."""
    failures = _failures("broken-k27-unbounded-option", {"bound"}, games=1)
    assert any("integer option 'rounds'" in f and "must declare a minimum" in f for f in failures)
    assert check_game("drawgame", checks={"bound"}, games=1).ok  # its option has bounds


def test_is_legal_refusing_a_legal_action_is_named() -> None:
    """Kills check_is_legal reporting only a too lax answer (``bool(said) and not want``)."""
    failures = _failures("broken-k27-strict-is-legal", {"rejections"}, games=1)
    assert any("is_legal says False" in f and "in the legal set" in f for f in failures)


def test_is_legal_accepting_an_illegal_action_is_named() -> None:
    """Kills check_is_legal trying only the legal actions (the pool of others left out)."""
    failures = _failures("broken-k27-lax-is-legal", {"rejections"}, games=1)
    assert any("is_legal says True" in f and "not in the legal set" in f for f in failures)


_POSITION_IN_A_PROCESS = """
import cardcore, tests.conftest
from tests.conformance.test_kit_mutants_2026_12_27 import GAMES, _plugin
name = "broken-k27-hash-order-deal"
cardcore.register("cardcore.games", name, _plugin(name, GAMES[name]))
print(cardcore.new_game(name, 2, seed=7).position())
"""


def _position_under(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run(
        [sys.executable, "-c", _POSITION_IN_A_PROCESS],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return run.stdout.strip()


def test_deal_in_hash_order_differs_between_processes() -> None:
    """The plugin bug of the xfail below is real: the same seed deals another position in
    a process with another hash seed (so a record does not replay there)."""
    assert _position_under("1") != _position_under("2")


@pytest.mark.xfail(
    strict=True,
    reason="check_determinism plays the game twice in one process, where set and dict order"
    " by string hash is fixed: a plugin that deals in hash order passes, although the same"
    " seed gives another game in another process (PYTHONHASHSEED); docs/testing-kit.rst"
    " says only 'the same seed gives the same game and the same events'",
)
def test_kit_catches_a_deal_in_hash_order() -> None:
    report = check_game("broken-k27-hash-order-deal", checks={"determinism"}, games=1, strict=False)
    assert not report.ok


def test_history_leak_is_caught_with_the_events_watched() -> None:
    """The plugin bug of the xfail below is real, and the kit sees it when the per-seat
    events are watched too (as check_views does)."""
    report = check_game(
        "broken-k27-history-peek", checks={"views", "events"}, games=1, strict=False
    )
    assert report.leaks > 0
    assert any("shows cards it never saw" in f for f in report.failures)


def test_views_check_alone_catches_a_history_leak() -> None:
    report = check_game("broken-k27-history-peek", checks={"views"}, games=1, strict=False)
    assert report.leaks > 0
