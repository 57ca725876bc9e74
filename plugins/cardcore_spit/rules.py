"""The Spit game plugin: ``GAME`` and the game's own hook implementations.

Entry point ``spit = "cardcore_spit.rules"`` (group ``cardcore.games``). The
engine is :class:`cardcore_spit.logic.SpitLogic`; this module declares the game
and answers Spit's own hooks with the base rules.
"""

from __future__ import annotations

from cardcore import GameInfo, Option, Ruleset, hookimpl
from cardcore_spit import __version__, hookspecs, piles, views
from cardcore_spit.actions import SLAP, ClaimRule
from cardcore_spit.logic import STALL_LIMIT, SpitLogic

__all__ = ["GAME", "create_logic", "spit_claim_rule", "spit_deal_order", "spit_rank_gaps"]

GAME = GameInfo(
    name="spit",
    summary="Spit: two players race to shed their layouts onto two shared spit piles",
    min_players=2,
    max_players=2,
    options=(
        Option(
            "stall_limit",
            STALL_LIMIT,
            "actions in a row without progress before an automatic spit (SPIT-STUCK-3)",
            int,
            minimum=1,
            maximum=1000,
            rule_id="SPIT-STUCK-3",
        ),
    ),
    realtime=True,
    version=__version__,
    hookspecs=hookspecs,
    fields=views.FIELDS,
    notes=views.notes,  # the start spit, automatic spits, recycles and deals, in words
)
"""The game's static description (SPIT-GEN-1: exactly two players)."""


@hookimpl
def create_logic(ruleset: Ruleset) -> SpitLogic:
    """Build the Spit engine for *ruleset*."""
    return SpitLogic(ruleset)


@hookimpl
def spit_rank_gaps() -> list[int]:
    """One up or one down, the ace next to both 2 and K (SPIT-MOVE-2/3/4)."""
    return sorted(piles.BASE_GAPS)


@hookimpl(trylast=True)
def spit_deal_order(cards: int) -> tuple[int, ...]:
    """The row-wise layout (SPIT-SETUP-2/4)."""
    return piles.row_wise_order(cards)


@hookimpl(trylast=True)
def spit_claim_rule() -> ClaimRule:
    """The slap race (SPIT-END-2)."""
    return SLAP
