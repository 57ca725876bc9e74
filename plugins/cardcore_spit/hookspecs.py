"""Spit's own hookspecs, through which its house rules work.

The game answers each with a ``trylast`` (or plain, for list hooks) default in
:mod:`cardcore_spit.rules`. Every hook is resolved and called once when a
configuration is built and the answer is kept, so house rules cost nothing per
decision.
"""

from __future__ import annotations

from cardcore import hookspec
from cardcore_spit.actions import ClaimRule

__all__ = ["spit_claim_rule", "spit_deal_order", "spit_rank_gaps"]


@hookspec
def spit_rank_gaps() -> list[int]:
    """Return rank differences that make a play onto a spit pile legal.

    All results are merged. A difference is ``(pile rank - card rank) mod 13``;
    the game answers ``[1, 12]`` (one up or one down, ace wrapping).

    :returns: Allowed differences, ints from 0 to 12 (another answer is a
        :class:`~cardcore.PluginError` naming the rule).

    .. versionadded:: 0.1
    """
    raise NotImplementedError


@hookspec(firstresult=True)
def spit_deal_order(cards: int) -> tuple[int, ...] | None:
    """Return the layout pile (0-based) of each card a player lays out.

    Stops at the first non-``None`` result; the game answers the row-wise
    layout ``trylast``. Cards beyond the returned length are spit cards.
    Called once per card count (0..52) when the configuration is built; an answer of
    more pile numbers than cards, a number outside 0-4, or no layout card for a player
    holding cards (every deal would be void) is refused then, naming the rule.

    :param cards: How many cards the player holds.
    :returns: One pile index per layout card, in dealing order.

    .. versionadded:: 0.1
    """
    raise NotImplementedError


@hookspec(firstresult=True)
def spit_claim_rule() -> ClaimRule | None:
    """Return how the spit piles are claimed when a two-pile deal ends.

    Stops at the first non-``None`` result; the game answers the slap race
    ``trylast``. Checked when the configuration is built: the word 1-20 lowercase
    letters, none of Spit's other action words, ``emptier_only`` a bool and ``rule_id``
    a rule ID such as ``"SPIT-END-2"`` (a :class:`~cardcore.PluginError` naming the rule
    otherwise).

    :returns: The claim rule.

    .. versionadded:: 0.1
    """
    raise NotImplementedError
