"""Go Fish agents: :class:`GoFishBasicAgent` (entry point ``gofish-basic``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore import Action
from cardcore_gofish.actions import Ask


class GoFishBasicAgent:
    """Asks a seat known to hold one of its ranks, else its commonest rank from the biggest hand.

    :param seed: Seed of its tie-breaks.
    """

    games = ("gofish",)

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return one of *legal*, judged from *view* alone."""
        hands = {z["owner"]: z["cards"] for z in view["zones"] if z["name"].startswith("hand.")}
        mine = Counter(card[:-1] for card in hands[view["seat"]])
        known = view["table"]["asked"]
        asks = [a for a in legal if isinstance(a, Ask)]
        return max(asks, key=lambda a: (a.rank in known[a.target], mine[a.rank],
                                        len(hands[a.target]), self.rng.random()))
