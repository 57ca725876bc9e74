"""CANASTA-VAR-1 (house rule ``canasta-1219.initial-meld``): a team's first meld must count
at least ``initial_meld_min`` points (its cards' values, CANASTA-SCORE-1), whether made from
the hand or with the top card of a taken pile. A veto only: ``draw`` and every ``discard``
stay legal, so no seat is ever left without an action."""

from __future__ import annotations

from cardcore import Action, GameState, Option, RuleInfo, Veto, hookimpl
from tests.plugins.canasta_2026_12_19 import (
    DISCARD,
    MELD_RANKS,
    NAME,
    WILD_ORDER,
    Meld,
    Mix,
    PickUp,
    card_value,
    hand,
    meld,
    natural,
    team,
)

RULE = RuleInfo(
    id="CANASTA-VAR-1",
    name=f"{NAME}.initial-meld",
    game=NAME,
    summary="A team's first meld must count at least initial_meld_min points",
    version="1.0.0",
    options=(
        Option(
            "initial_meld_min",
            50,
            "The fewest points a team's first meld may count",
            minimum=0,
            maximum=200,
            rule_id="CANASTA-VAR-1",
        ),
    ),
)


def first_meld_value(state: GameState, action: Action) -> int | None:
    """The points of the meld *action* would start for a team that has none, else ``None``."""
    z, seat = state.zones, action.seat
    if any(z.cards[meld(team(seat), r)] for r in MELD_RANKS):
        return None
    if isinstance(action, Meld | Mix):
        card = next((c for c in z.cards[hand(seat)] if natural(c, action.rank)), None)
        if card is None:
            return None  # not legal anyway: the game refuses it
        extra = card_value(card) if isinstance(action, Meld) else card_value(action.wild)
        return 2 * card_value(card) + extra
    if isinstance(action, PickUp):
        top = z.top(DISCARD)
        if top is None:
            return None
        held = z.cards[hand(seat)]
        if sum(natural(c, top.label) for c in held) >= 2:
            return 3 * card_value(top)
        wild = next((c for w in WILD_ORDER for c in held if str(c) == w), None)
        return None if wild is None else 2 * card_value(top) + card_value(wild)
    return None


@hookimpl
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Veto a first meld (or a pickup making one) worth less than the minimum."""
    value = first_meld_value(state, action)
    minimum = state.options["initial_meld_min"]
    if value is not None and value < minimum:
        return Veto("CANASTA-VAR-1", f"a first meld must count at least {minimum}, not {value}")
    return None
