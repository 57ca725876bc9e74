"""Agents for Spit and Speed: a greedy policy with seeded reaction times.

Both agents follow the core's real-time agent protocol
(:class:`cardcore.RealtimeAgent`): :meth:`SpitGreedyAgent.plan` returns a
:class:`~cardcore.Plan` (action, delay) drawn from a seeded lognormal
reaction-time distribution, so the same seed gives the same game under
:func:`cardcore.run_realtime`, move for move and with the same timestamps.
They also implement the turn-based :meth:`SpitGreedyAgent.choose`.

Registered under ``cardcore.agents``: ``spit-greedy`` (:class:`SpitGreedyAgent`,
mean reaction 0.3 s) and ``spit-human`` (:class:`SpitHumanAgent`, 0.9 s). They
play Speed as well. The old names stay as aliases: ``SpitBot`` and
``GreedyBot`` (= :class:`SpitGreedyAgent`), ``HumanBot`` (= :class:`SpitHumanAgent`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cardcore import Action, ArgumentError, Card, OptionError, Plan
from cardcore_spit.actions import Claim, Combine, Fill, Play, Ready, RequestSpit
from cardcore_spit.piles import auto_setup_step
from cardcore_spit.speed.actions import PlayCard, Stuck

__all__ = [
    "GreedyBot",
    "HumanBot",
    "SpitBot",
    "SpitGreedyAgent",
    "SpitHumanAgent",
    "reaction_delay",
]


def reaction_delay(rng: random.Random, mean: float, sigma: float) -> float:
    """Draw a lognormal reaction time with the given *mean* (seconds).

    :param rng: The bot's own generator.
    :param mean: The mean of the distribution.
    :param sigma: The sigma of the underlying normal (spread).
    :returns: A positive delay.
    """
    return mean * math.exp(sigma * rng.gauss(0.0, 1.0) - sigma * sigma / 2.0)


def _shown(value: object) -> str:
    """*value*'s repr for a message, cut short; an int too long to print is described."""
    try:
        text = repr(value)
    except Exception:  # an int beyond sys.get_int_max_str_digits(), a broken __repr__
        return "an integer too long to print" if isinstance(value, int) else "an unprintable value"
    return text if len(text) <= 60 else text[:57] + "..."


def _rank(text: str | None) -> int | None:
    if text is None:
        return None
    return int(Card.parse(text).rank)


class SpitGreedyAgent:
    """A greedy Spit/Speed player with seeded lognormal reaction times (``spit-greedy``).

    Policy. Setup: the :func:`~cardcore_spit.piles.auto_setup` step, then
    ``ready``. Play: a play that uncovers a face-down card, else any play (pile
    order), else a combine or fill that uncovers a face-down card, else ask for
    a spit (``stuck`` in Speed), else wait. End of a deal: claim the smaller
    spit pile.

    :param seed: Seed of the agent's own draws: an int of at least 0, or ``None`` for a
        fresh one from the operating system.
    :param mean: Mean reaction time in seconds (0.3 s: a fast player), from 0 to 60.
    :param sigma: Spread of the lognormal reaction time, from 0 to 3.
    :raises OptionError: A seed that is not an int of at least 0 or ``None`` (a generator
        reads ``-1`` as ``1``), or a *mean* or *sigma* that is not an int or float in its
        range (:attr:`parameter_bounds`, the same by name and built directly).
    """

    games: ClassVar[tuple[str, ...]] = ("spit", "speed")
    """The games this agent serves."""

    registered: ClassVar[str] = "spit-greedy"
    """The agent's entry-point name, which its errors name."""

    parameter_bounds: ClassVar[dict[str, tuple[float, float]]] = {
        "mean": (0.0, 60.0),
        "sigma": (0.0, 3.0),
    }
    """The range of each numeric parameter (lowest and highest, both allowed), by name or not."""

    def __init__(self, seed: int | None = 0, *, mean: float = 0.3, sigma: float = 0.35) -> None:
        name = repr(self.registered)
        if seed is not None and type(seed) is not int:
            msg = f"agent {name}: seed must be a whole number, not {seed!r}"
            raise OptionError(msg)
        if seed is not None and seed < 0:
            msg = f"agent {name}: seed must be a whole number of at least 0, not a negative one (a generator reads -1 as 1)"
            raise OptionError(msg)
        for what, value in (("mean", mean), ("sigma", sigma)):
            low, high = SpitGreedyAgent.parameter_bounds[what]
            if type(value) not in (int, float) or not low <= value <= high:  # NaN too
                msg = f"agent {name}: {what} must be a number from {low} to {high}, not {_shown(value)}"
                raise OptionError(msg)
        self.seed = seed
        self.rng = random.Random(seed)
        self.mean = mean
        self.sigma = sigma

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r}, mean={self.mean!r}, sigma={self.sigma!r})"

    def plan(self, view: Mapping[str, Any], legal: Sequence[Action], now: float) -> Plan | None:
        """Return the greedy action and a reaction delay, or ``None`` to wait.

        :param view: The seat's view.
        :param legal: The seat's legal actions.
        :param now: The virtual time (unused: the delay does not depend on it).
        """
        action = self.pick(view, legal)
        if action is None:
            return None
        return Plan(action, reaction_delay(self.rng, self.mean, self.sigma))

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Return the greedy action (turn-based protocol); the first legal one if none fits.

        :raises ArgumentError: *legal* is empty (the seat may not act now).
        """
        try:  # free on the hot path: only an empty *legal* pays for the message
            return self.pick(view, legal) or legal[0]
        except IndexError:
            if legal:
                raise
            msg = f"agent {type(self).__name__} has no legal action to choose from (its seat may not act now)"
            raise ArgumentError(msg) from None

    def pick(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """Return the action the policy prefers among *legal*, or ``None``."""
        if not legal:
            return None
        first = legal[0]
        if isinstance(first, Claim):
            return self._claim(view, legal)
        if isinstance(first, PlayCard | Stuck):
            for action in legal:
                if isinstance(action, PlayCard):
                    return action
            return legal[-1] if isinstance(legal[-1], Stuck) else None
        table: Mapping[str, Any] = view["table"]
        seat: int = view["seat"]
        layout: list[list[str | None]] = table["seats"][seat]["layout"]
        if table["phase"] == "setup":
            step = auto_setup_step([_rank(p[0]) if p else None for p in layout])
            if step is not None:
                for action in legal:
                    if isinstance(action, Combine) and (action.src, action.dst) == step:
                        return action
            for action in legal:
                if isinstance(action, Ready):
                    return action
            return None
        hidden = [len(p) > 1 and p[1] is None for p in layout]
        best: Action | None = None
        for action in legal:
            if isinstance(action, Play):
                if hidden[action.pile]:
                    return action
                if best is None:
                    best = action
        if best is not None:
            return best
        for action in legal:
            if isinstance(action, Combine | Fill) and hidden[action.src]:
                return action
        for action in legal:
            if isinstance(action, RequestSpit):
                return action
        return None

    def _claim(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        piles: Mapping[str, list[str | None] | None] = view["table"]["piles"]
        sizes = [len(piles[side] or ()) for side in ("L", "R")]
        want = 0 if sizes[0] <= sizes[1] else 1
        for action in legal:
            if isinstance(action, Claim) and action.target == want:
                return action
        return legal[0]


class SpitHumanAgent(SpitGreedyAgent):
    """The human-paced agent (``spit-human``): the greedy policy, mean reaction 0.9 s, wider spread.

    :param seed: Seed of the agent's own draws.
    :param mean: Mean reaction time in seconds, from 0 to 60.
    :param sigma: Spread of the lognormal reaction time, from 0 to 3.
    :raises OptionError: As :class:`SpitGreedyAgent`.
    """

    registered: ClassVar[str] = "spit-human"
    """The agent's entry-point name, which its errors name."""

    def __init__(self, seed: int | None = 0, *, mean: float = 0.9, sigma: float = 0.5) -> None:
        super().__init__(seed, mean=mean, sigma=sigma)


SpitBot = SpitGreedyAgent
"""The old name of :class:`SpitGreedyAgent` (kept as an alias)."""
GreedyBot = SpitGreedyAgent
"""The old name of :class:`SpitGreedyAgent`, the ``spit-greedy`` agent (kept as an alias)."""
HumanBot = SpitHumanAgent
"""The old name of :class:`SpitHumanAgent`, the ``spit-human`` agent (kept as an alias)."""
