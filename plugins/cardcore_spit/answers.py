"""The answers of Spit's own hooks, checked once when a configuration is built.

``spit_deal_order`` and ``spit_claim_rule`` shape every deal and every claim of a game,
so an answer a third-party rule gets wrong is refused by name here, before any card is
dealt, instead of dealing layouts that can never be played or claims with no notation.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cardcore import PluginError
from cardcore_spit.actions import ClaimRule
from cardcore_spit.piles import PILES

if TYPE_CHECKING:
    from cardcore_spit.logic import SpitLogic

OTHER_VERBS = frozenset({"play", "combine", "fill", "ready", "spit"})
"""The words of Spit's other actions: a claim word must differ from each."""

_WORD = re.compile(r"[a-z]{1,20}")
_RULE_ID = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")


def deal_orders(logic: SpitLogic) -> tuple[tuple[int, ...], ...]:
    """Resolve ``spit_deal_order`` for every card count 0..52 and check the answers: at
    most *n* pile numbers for *n* cards, and at least one (a player holding cards lays
    out at least one, or every deal would be void)."""
    hook = logic.ruleset.resolve("spit_deal_order")
    orders = []
    for n in range(53):
        answer = None if hook is None else hook(cards=n)
        if answer is None:
            msg = f"no plugin answered spit_deal_order for {n} cards"
            raise PluginError(msg, plugin=logic.info.name)
        order = tuple(answer) if isinstance(answer, list | tuple) else None
        if (
            order is None
            or len(order) > n
            or (n > 0 and not order)
            or not all(type(k) is int and 0 <= k < PILES for k in order)
        ):
            least = "1 to " if n > 0 else "at most "
            wanted = f"{least}{n} pile numbers 0-{PILES - 1} for {n} cards"
            raise logic.refused_answer("spit_deal_order", answer, wanted, asked={"cards": n})
        orders.append(order)
    return tuple(orders)


def claim_rule(logic: SpitLogic) -> ClaimRule:
    """Resolve ``spit_claim_rule`` and check the answer: a :class:`ClaimRule` whose word
    is 1-20 lowercase letters other than another action's, whose ``emptier_only`` is a
    bool and whose ``rule_id`` looks like ``SPIT-END-2``."""
    hook = logic.ruleset.resolve("spit_claim_rule")
    claim = None if hook is None else hook()
    if not isinstance(claim, ClaimRule):
        raise logic.refused_answer("spit_claim_rule", claim, "a ClaimRule")
    word, only, rule_id = claim.word, claim.emptier_only, claim.rule_id
    if type(word) is not str or not _WORD.fullmatch(word) or word in OTHER_VERBS:
        wanted = "a ClaimRule whose word is 1-20 lowercase letters, not another action's word"
        raise logic.refused_answer("spit_claim_rule", claim, wanted)
    if only is not True and only is not False:
        raise logic.refused_answer("spit_claim_rule", claim, "a ClaimRule whose emptier_only is True or False")
    if type(rule_id) is not str or not _RULE_ID.fullmatch(rule_id):
        wanted = "a ClaimRule whose rule_id is a rule ID such as 'SPIT-END-2'"
        raise logic.refused_answer("spit_claim_rule", claim, wanted)
    return claim
