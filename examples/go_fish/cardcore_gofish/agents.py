"""Go Fish agents: :class:`GoFishBasicAgent` (entry point ``gofish-basic``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore import Action, ArgumentError, OptionError
from cardcore_gofish.actions import Ask


class GoFishBasicAgent:
    """Asks a seat known to hold one of its ranks, else its commonest rank from the biggest hand.

    :param seed: Seed of its tie-breaks (a whole number from 0, or ``None`` for a fresh one).
    :raises OptionError: Another seed (a generator reads -1 as 1).
    """

    games = ("gofish",)

    def __init__(self, seed: int | None = 0) -> None:
        if seed is not None and (type(seed) is not int or seed < 0):
            msg = f"agent 'gofish-basic': seed must be a whole number from 0, not {seed!r}"
            raise OptionError(msg)
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return one of *legal*, judged from *view* alone."""
        if not legal:
            raise ArgumentError("gofish-basic has no legal action to choose from")
        hands = {z["owner"]: z["cards"] for z in view["zones"] if z["name"].startswith("hand.")}
        mine = Counter(card[:-1] for card in hands[view["seat"]])
        known = view["table"]["asked"]
        asks = [a for a in legal if isinstance(a, Ask)]
        if not asks:  # nothing to ask: the one other action
            return legal[0]
        return max(asks, key=lambda a: (a.rank in known[a.target], mine[a.rank],
                                        len(hands[a.target]), self.rng.random()))
