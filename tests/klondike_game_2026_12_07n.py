"""Klondike (draw one) for one player, written from the plugin guide as a third-party
author would: public names only, registered in-process with ``cardcore.register`` by
``test_klondike_author_2026_12_07n.py`` (``build_module()``).

Rules (each with its ID):

| KL-DEAL-1   | Seven tableau columns t0..t6 of 1..7 cards, the top of each face up;
|             | the other 24 cards face down on the stock.
| KL-DRAW-1   | ``draw`` turns the stock's top card face up onto the waste ``w``.
| KL-REDEAL-1 | ``redeal`` turns the waste over into the stock when the stock is empty;
|             | the option ``passes`` (1-3) is the number of passes through the stock.
| KL-FOUND-1  | A foundation (fc fd fh fs) is built up by suit from the ace to the king.
| KL-TAB-1    | A tableau column is built down in alternating colours.
| KL-TAB-2    | Only a king (or a run headed by one) may go to an empty column.
| KL-RUN-1    | Any number of a column's face-up cards move together; one card moves
|             | to a foundation; a foundation's top card may go back to the tableau.
| KL-TURN-1   | A face-down card left on top of a column is turned face up.
| KL-END-1    | Won when all 52 cards are on the foundations; ``stop`` ends the game,
|             | as does a position without a move. Score: cards on the foundations.
| KL-NOTE-1   | ``draw``, ``redeal``, ``stop``, ``move SRC DST N`` (piles w, t0..t6,
|             | fc fd fh fs; N cards), e.g. ``move t3 t5 2``.
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

import attrs
from attrs import frozen

from cardcore import (
    ALL,
    Action,
    Card,
    CardMoved,
    CardRevealed,
    CardsDealt,
    Emit,
    GameInfo,
    GameLogic,
    GameState,
    Layout,
    Option,
    Ruleset,
    ViewField,
    Visibility,
    Zones,
    ZoneSpec,
    hookimpl,
)
from cardcore.dealing import fill_stock
from cardcore.positions import check
from cardcore.turns import end_game

NAME = "klondike-n"
FOUNDS = ("fc", "fd", "fh", "fs")
TABS = tuple(f"t{i}" for i in range(7))
PILES = ("stock", "w", *FOUNDS, *TABS)
Z = {name: i for i, name in enumerate(PILES)}
STOCK, WASTE = Z["stock"], Z["w"]
RED = {"D", "H"}


@frozen
class Draw(Action):
    """Turn the stock's top card onto the waste (KL-DRAW-1)."""

    verb: ClassVar[str] = "draw"


@frozen
class Redeal(Action):
    """Turn the waste over into the stock (KL-REDEAL-1)."""

    verb: ClassVar[str] = "redeal"


@frozen
class Stop(Action):
    """End the game now (KL-END-1)."""

    verb: ClassVar[str] = "stop"


@frozen
class Move(Action):
    """Move the top *count* cards of pile *src* onto pile *dst* (KL-NOTE-1)."""

    src: str = attrs.field(converter=str.lower)
    dst: str = attrs.field(converter=str.lower)
    count: int = 1
    verb: ClassVar[str] = "move"

    def notation(self) -> str:
        return f"move {self.src} {self.dst} {self.count}"


KAction = Draw | Redeal | Stop | Move


@cache
def layout() -> Layout:
    specs = [ZoneSpec("stock"), ZoneSpec("w", None, Visibility.EVERYONE)]
    specs += [ZoneSpec(f, None, Visibility.EVERYONE) for f in FOUNDS]
    specs += [ZoneSpec(t) for t in TABS]  # face down; face-up cards are revealed (KL-TURN-1)
    return Layout.of(specs)


class KlondikeState(GameState):
    __slots__ = ("redeals",)
    _mutable = ("zones",)
    redeals: int


def on_foundation(state: GameState) -> int:
    return sum(len(state.zones.cards[Z[f]]) for f in FOUNDS)


def fits_tableau(card: Card, top: Card | None) -> bool:
    if top is None:
        return int(card.rank) == 13  # KL-TAB-2
    return int(card.rank) == int(top.rank) - 1 and (
        (card.suit.value in RED) != (top.suit.value in RED)
    )


def fits_foundation(card: Card, pile: str, zones: Zones) -> bool:
    return pile == "f" + card.suit.value.lower() and int(card.rank) == len(zones.cards[Z[pile]]) + 1


def face_up(zones: Zones, z: int) -> int:
    """How many cards on top of column *z* lie face up."""
    n = 0
    for mask in reversed(zones.seen[z]):
        if mask == 0:
            break
        n += 1
    return n


class KlondikeLogic(GameLogic[KlondikeState, KAction]):
    """Klondike for one seat. Legal actions, in this order: ``draw`` or ``redeal``; then
    moves by source (w, t0..t6, fc..fs), destination (fc..fs, t0..t6) and count; ``stop``."""

    action_types = (Draw, Redeal, Stop, Move)
    position_fields = ("to_act", "redeals")
    max_legal = 120

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        return 2000

    def blank_state(self, players: int, options: Mapping[str, Any]) -> KlondikeState:
        state = KlondikeState(players, options, Zones(layout()))
        state.redeals = 0
        return state

    def new_state(
        self,
        players: int,
        options: Mapping[str, Any],
        cards: list[Card],
        seed: int,
        emit: Emit | None,
    ) -> KlondikeState:
        state = self.blank_state(players, options)
        state.seed, state.to_act = seed, (0,)
        fill_stock(state, STOCK, cards)
        zones = state.zones
        for row in range(7):  # KL-DEAL-1
            for col in range(row, 7):
                zones.move(STOCK, Z[TABS[col]], mask=0)
        for col in TABS:
            zones.reveal(Z[col])
        if emit is not None:
            emit(CardsDealt((28,)))
        return state

    def _moves(self, state: KlondikeState) -> list[KAction]:
        zones, out = state.zones, []
        cards = zones.cards
        if cards[STOCK]:
            out.append(Draw(0))
        elif cards[WASTE] and state.redeals < state.options["passes"] - 1:
            out.append(Redeal(0))
        for src in ("w", *TABS, *FOUNDS):
            z = Z[src]
            if not cards[z]:
                continue
            up = face_up(zones, z) if src in TABS else 1
            for dst in (*FOUNDS, *TABS):
                if dst == src or (src in FOUNDS and dst in FOUNDS):
                    continue
                if dst in FOUNDS:
                    if fits_foundation(cards[z][-1], dst, zones):
                        out.append(Move(0, src, dst, 1))
                    continue
                top = zones.top(Z[dst])
                for n in range(1, up + 1):
                    if fits_tableau(cards[z][-n], top):
                        out.append(Move(0, src, dst, n))
        return out

    def legal_actions(self, state: KlondikeState, seat: int) -> tuple[KAction, ...]:
        if seat != 0 or state.is_over:
            return ()
        return (*self._moves(state), Stop(0))

    def rule_for(self, state: KlondikeState, action: KAction) -> tuple[str, str]:
        zones = state.zones
        if isinstance(action, Draw):
            return "KL-DRAW-1", "the stock is empty: redeal or move"
        if isinstance(action, Redeal):
            if zones.cards[STOCK]:
                return "KL-REDEAL-1", "the stock is not empty yet"
            return "KL-REDEAL-1", f"no pass left (passes={state.options['passes']})"
        if not isinstance(action, Move):
            return "KL-END-1", "not now"
        src, dst, n = action.src, action.dst, action.count
        if src not in Z or dst not in Z or src == "stock" or dst in ("stock", "w") or src == dst:
            return "KL-NOTE-1", f"no move from {src!r} to {dst!r}"
        z = Z[src]
        up = face_up(zones, z) if src in TABS else min(1, len(zones.cards[z]))
        if n < 1 or n > up:
            return "KL-RUN-1", f"{src} has {up} face-up card(s) to move, not {n}"
        if dst in FOUNDS:
            if n != 1:
                return "KL-RUN-1", "one card at a time goes to a foundation"
            return "KL-FOUND-1", f"{zones.cards[z][-1]} does not go on {dst}"
        if src in FOUNDS and dst in FOUNDS:
            return "KL-FOUND-1", "a foundation card goes back to the tableau only"
        card, top = zones.cards[z][-n], zones.top(Z[dst])
        if top is None:
            return "KL-TAB-2", f"only a king goes to the empty {dst}, not {card}"
        return "KL-TAB-1", f"{card} does not go on {top}: one lower, the other colour"

    def apply(self, state: KlondikeState, action: KAction, emit: Emit | None) -> None:
        zones = state.zones
        if isinstance(action, Stop):
            self._finish(state, "stopped")
            return
        if isinstance(action, Draw):
            card = zones.move(STOCK, WASTE, mask=ALL)
            if emit is not None:
                emit(CardMoved(0, "stock", "w", card))
        elif isinstance(action, Redeal):  # the waste turned over: the player saw every card
            while zones.cards[WASTE]:
                zones.move(WASTE, STOCK)
            state.redeals += 1
        else:
            src, dst = Z[action.src], Z[action.dst]
            start = len(zones.cards[src]) - action.count
            for _ in range(action.count):
                card = zones.move(src, dst, start)
                if emit is not None:
                    emit(CardMoved(0, action.src, action.dst, card))
            if action.src in TABS and zones.cards[src] and zones.seen[src][-1] == 0:  # KL-TURN-1
                card = zones.reveal(src)
                if emit is not None:
                    emit(CardRevealed(None, action.src, len(zones.cards[src]) - 1, card))
        if on_foundation(state) == 52:
            self._finish(state, "won")
        elif not self._moves(state):
            self._finish(state, "no moves")

    def _finish(self, state: KlondikeState, reason: str) -> None:
        (score,) = self.score_round(state, [on_foundation(state)])
        end_game(state, (0,) if reason == "won" else (), (float(score),), reason)

    def scores(self, state: KlondikeState) -> tuple[float, ...]:
        return (float(on_foundation(state)),)

    def utility(self, state: KlondikeState) -> tuple[float, ...]:
        return (float(on_foundation(state)),)

    def rollout_action(
        self, state: KlondikeState, seat: int, legal: Any, rng: Any
    ) -> KAction | None:
        moves = [a for a in legal if not isinstance(a, Stop)]  # play on: stopping never gains
        return rng.choice(moves) if moves else None

    def standings(self, state: KlondikeState) -> tuple[int, ...]:
        return (0,) if on_foundation(state) == 52 else ()

    def table(self, state: KlondikeState, seat: int | None) -> dict[str, Any]:
        return {
            "stock_left": len(state.zones.cards[STOCK]),
            "redeals": state.redeals,
            "redeals_left": state.options["passes"] - 1 - state.redeals,
            "foundations": on_foundation(state),
        }

    def check_position(self, state: KlondikeState) -> None:
        zones, passes = state.zones, state.options["passes"]
        check(
            state.is_over or state.to_act == (0,), "to_act must be [0], not {}", list(state.to_act)
        )
        check(0 <= state.redeals < passes, "redeals must be 0 to {} (KL-REDEAL-1)", passes - 1)
        for f in FOUNDS:
            cards = zones.cards[Z[f]]
            check(
                all(
                    c.suit.value.lower() == f[1] and int(c.rank) == i + 1
                    for i, c in enumerate(cards)
                ),
                "{} must hold its suit from the ace up (KL-FOUND-1)",
                f,
            )
        for t in TABS:
            z = Z[t]
            up = face_up(zones, z)
            check(not zones.cards[z] or up > 0, "the top of {} must be face up (KL-TURN-1)", t)
            check(
                all(m == 0 for m in zones.seen[z][: len(zones.cards[z]) - up]),
                "{}: face up over face down",
                t,
            )
            run = zones.cards[z][len(zones.cards[z]) - up :]
            check(
                all(fits_tableau(b, a) for a, b in itertools.pairwise(run)),
                "{} must build down (KL-TAB-1)",
                t,
            )


GAME = GameInfo(
    NAME,
    "Klondike, draw one: build the four foundations from the tableau and the stock",
    1,
    1,
    options=(
        Option("passes", 3, "Passes through the stock (KL-REDEAL-1).", int, minimum=1, maximum=3),
    ),
    version="1.0.0",
    fields=(
        ViewField("stock_left", "int", "Cards left in the stock."),
        ViewField("redeals", "int", "Times the waste was turned over into the stock."),
        ViewField("redeals_left", "int", "Times the waste may still be turned over."),
        ViewField("foundations", "int", "Cards on the foundations (the score)."),
    ),
)


def build_module() -> types.ModuleType:
    """A plugin module holding ``GAME`` and ``create_logic``, for ``cardcore.register``."""
    module = types.ModuleType("klondike_n")

    @hookimpl
    def create_logic(ruleset: Ruleset) -> KlondikeLogic:
        return KlondikeLogic(ruleset)

    module.GAME = GAME  # type: ignore[attr-defined]
    module.create_logic = create_logic  # type: ignore[attr-defined]
    return module
