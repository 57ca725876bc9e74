"""The Tonk game plugin (entry point ``tonk = "cardcore_tonk.rules"``): ``GAME`` and hookimpls.

Each hookimpl cites the rule it implements; the engine is
:class:`cardcore_tonk.logic.TonkLogic`. Spec: ``seeds/tonk.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cardcore import Card, GameInfo, Option, Rank, hookimpl, standard_52
from cardcore_tonk import __version__, hookspecs
from cardcore_tonk.answers import always_ends
from cardcore_tonk.house import DEFAULT_RULES
from cardcore_tonk.logic import TonkLogic
from cardcore_tonk.state import TonkState
from cardcore_tonk.views import FIELDS

if TYPE_CHECKING:
    import random

    from cardcore import Ruleset

__all__ = [
    "GAME",
    "build_deck",
    "card_points",
    "create_logic",
    "determinize",
    "tonk_deal_shows_every_hand",
    "tonk_hand_ends_on_empty_stock",
    "tonk_out_units",
    "tonk_quiet_from_discards",
    "tonk_upcard",
    "tonk_void_deal_counts",
]

GAME = GameInfo(
    name="tonk",
    summary="Tonk (Tunk): a knock rummy for 2 or 3 players (4 by option) played for stakes",
    min_players=2,
    max_players=4,
    options=(
        Option(
            "max_players",
            3,
            "the most seats allowed: 3 as the source rules say, 4 when raised (TONK-GEN-1)",
            int,
            minimum=2,
            maximum=4,
            default_before=("0.3.0", 4),  # tonk 0.2.0 seated four without the option
            rule_id="TONK-GEN-1",
        ),
        Option(
            "stake",
            1,
            "the basic stake S; every payment is a multiple (TONK-STAKE-1)",
            int,
            minimum=1,
            maximum=1_000_000,
            rule_id="TONK-STAKE-1",
        ),
        Option(
            "hands",
            1,
            "hands in the session; the deal passes left (TONK-SESSION-1)",
            int,
            minimum=1,
            maximum=100000,
            rule_id="TONK-SESSION-1",
        ),
        Option(
            "first_dealer",
            None,
            "seat of the first dealer; None cuts for it (TONK-DEALER-1)",
            int,
            minimum=0,
            maximum=3,
            nullable=True,
            rule_id="TONK-DEALER-1",
        ),
    ),
    default_rules=DEFAULT_RULES,
    version=__version__,
    hookspecs=hookspecs,
    zero_sum=True,
    fields=FIELDS,
)
"""Tonk's static description: every hand's payouts sum to zero (TONK-STAKE-1), so ``zero_sum``."""


@hookimpl
def create_logic(ruleset: Ruleset) -> TonkLogic:
    """Build the Tonk engine for this configuration."""
    return TonkLogic(ruleset)


@hookimpl(tryfirst=True)
def determinize(state: TonkState, seat: int, rng: random.Random) -> None:
    """A re-dealt world forgets the deals a position stacked (TONK-NOTE-2): its later
    deals come from its own seed, as every chance of it; the re-deal is left to the next."""
    state.next_deals = ()


@hookimpl(trylast=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """TONK-GEN-2: one 52-card deck without jokers."""
    return standard_52()


@hookimpl(trylast=True)
def card_points(card: Card) -> int:
    """TONK-VAL-1: ace 1, two to ten face value, court cards 10."""
    return min(int(card.rank), 10) if card.rank is not Rank.JOKER else 0


@hookimpl(trylast=True)
def tonk_upcard() -> bool:
    """TONK-DEAL-2: the card after the deal starts the discard pile."""
    return True


@hookimpl(trylast=True)
def tonk_out_units(new_spread: bool) -> int:
    """TONK-OUT-1: a tonk-out collects 2S from every other player."""
    return 2


@hookimpl(trylast=True)
def tonk_hand_ends_on_empty_stock() -> Callable[[TonkState], bool]:
    """TONK-STOCK-1: a turn that begins with an empty stock ends the hand."""
    return always_ends


@hookimpl(trylast=True)
def tonk_quiet_from_discards() -> bool:
    """A quiet round counts the turns played from the discards with the stock out."""
    return True


@hookimpl(trylast=True)
def tonk_void_deal_counts() -> bool:
    """A void deal is dealt again by the next dealer: not one of the session's hands."""
    return False


@hookimpl(trylast=True)
def tonk_deal_shows_every_hand() -> bool:
    """A hand settled at the deal shows only the seats its verdict names (a natural's holder)."""
    return False
