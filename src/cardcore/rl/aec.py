"""The PettingZoo environment: :class:`CardEnv` (an ``AECEnv``) and :func:`aec_env`.

Agents are named ``player_0`` ... ``player_{n-1}`` after their seats. An
observation is ``{"observation": float32 array, "action_mask": int8 array}``
(the PettingZoo classic convention); actions are indices into a fixed
``Discrete`` space (see :mod:`cardcore.rl.encoding`).
"""

from __future__ import annotations

import contextlib
import operator
import random
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast, overload

import numpy as np
import numpy.typing as npt
from gymnasium import logger, spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from cardcore._text import one_of, shown
from cardcore.actions import Action
from cardcore.errors import ArgumentError, CardcoreError, IllegalActionError, OptionError, SeatError
from cardcore.rl.match import Config, Match
from cardcore.rl.render import view_text
from cardcore.setup import MAX_SEED_BITS

__all__ = [
    "BUILDER_PARAMETERS",
    "PARAMETERS",
    "RENDER_MODES",
    "CardEnv",
    "NotResetError",
    "Seeds",
    "action_index",
    "aec_env",
    "bad_action",
    "check_reset_options",
    "check_seed",
    "fresh_match",
    "refuse_copy",
    "skipped_info",
    "spaces_of",
]

RENDER_MODES = ("human", "ansi")
"""``render()`` prints the view (``"human"``) or returns it as text (``"ansi"``)."""

Obs = dict[str, npt.NDArray[Any]]


def spaces_of(config: Config) -> tuple[spaces.Dict, spaces.Discrete]:
    """The observation space (a ``Dict``) and the action space of *config*'s seats."""
    observer = config.observer
    size, actions = observer.size, observer.actions
    observation = spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
        }
    )
    return observation, spaces.Discrete(actions)


def action_index(action: Any) -> int | None:
    """*action* as an action index: an int or a numpy integer; ``None`` for anything else.

    A bool is no index (``True`` would quietly play action 1), nor is a float.
    """
    if isinstance(action, bool | np.bool_):
        return None
    try:
        return operator.index(action)
    except Exception:  # no __index__ (TypeError), or one that fails: no index either
        return None


def bad_action(
    config: Config, who: str, action: Any, choices: Mapping[int, Action]
) -> IllegalActionError:
    """The error for *action* (an index) outside *who*'s action mask, naming the action."""
    names = config.observer.names
    legal = ", ".join(f"{i} {str(a)!r}" for i, a in sorted(choices.items())) or "none"
    if choices and config.observer.wait is not None:
        legal += f", {config.observer.wait} 'wait'"
    index = action_index(action)
    if index is None:
        msg = f"{who} needs an action index (an int), not {shown(action)}; legal now: {legal} (CORE-LEGAL-1)"
        return IllegalActionError(msg, action=action, rule_id="CORE-LEGAL-1")
    if not 0 <= index < len(names):
        msg = (
            f"action {shown(index)} is outside the action space Discrete({len(names)}) of"
            f" {config.game}; legal now for {who}: {legal} (CORE-LEGAL-1)"
        )
    else:
        msg = (
            f"action {index} ({names[index]!r}) is not in {who}'s action mask now;"
            f" legal: {legal} (CORE-LEGAL-1)"
        )
    return IllegalActionError(msg, action=action, rule_id="CORE-LEGAL-1")


def check_seed(seed: Any) -> int | None:
    """Return *seed* as a plain int (or ``None``); raise :class:`~cardcore.OptionError`
    unless it is ``None`` or a game seed.

    A game seed is an int from 0 below ``2**MAX_SEED_BITS``, as for
    :func:`cardcore.new_game`; bools, floats, numpy integers and text are refused. An int
    subclass is read by int's own method, never by its (perhaps failing) overrides.
    """
    if seed is None:
        return None
    if issubclass(type(seed), int) and type(seed) is not bool:  # the real type
        plain = int.__index__(seed)
        if 0 <= plain < 2**MAX_SEED_BITS:
            return plain
    msg = f"seed must be None or an int from 0 below 2**{MAX_SEED_BITS}, not {shown(seed)}"
    raise OptionError(msg)


_COMMON = ("game", "players", "rules", "without", "options")
_SETTINGS = ("rewards", "max_actions", "reaction", "wait")
BUILDER_PARAMETERS: dict[str, tuple[str, ...]] = {
    "aec_env": (*_COMMON, "render_mode", *_SETTINGS),
    "gym_env": (*_COMMON, "seat", "opponents", "render_mode", *_SETTINGS),
    "vector_env": (*_COMMON, "num_envs", "seat", "opponents", *_SETTINGS, "copy"),
}
"""Each environment builder's parameters, by builder name."""

PARAMETERS = frozenset(p for ps in BUILDER_PARAMETERS.values() for p in ps)
"""The parameters of the environment builders, which ``reset(options=...)`` does not take
(nor ``options`` given as a mapping of game options)."""


def check_reset_options(options: Any, builder: str, config: Config | None = None) -> None:
    """Raise :class:`~cardcore.OptionError` for ``reset(options=...)`` the environment cannot take.

    A game's options and the other settings belong to the environment, given to
    *builder* (``"aec_env"``, ``"gym_env"`` or ``"vector_env"``): ``reset`` refuses
    them rather than ignore them, naming where each goes (the builder's ``options=``
    or its parameter of that name). Without *config* every non-empty *options* is
    refused; with it (the AEC environment, whose ``reset`` PettingZoo's ``api_test``
    calls with ``options={"options": 1}``) only a mapping whose keys name none of
    *config*'s game options nor a builder's parameter is taken, and is not used.
    """
    try:  # a mapping of the caller's own that fails to be read is refused as one
        if options is None or (isinstance(options, Mapping) and not options):
            return
        keys = list(options) if isinstance(options, Mapping) else []
        nested = isinstance(options, Mapping) and isinstance(options.get("options"), Mapping)
    except Exception as exc:
        raise OptionError(f"reset's options could not be read: {shown(exc)}") from None
    game_options = frozenset() if config is None else config.option_names
    params = [k for k in keys if isinstance(k, str) and k in PARAMETERS]
    params = [k for k in params if k not in game_options and k != "options"]
    goes_to_options = nested or any(isinstance(k, str) and k in game_options for k in keys)
    if config is not None and isinstance(options, Mapping) and not (params or goes_to_options):
        return
    if (config is None and len(params) < len(keys)) or not isinstance(options, Mapping):
        goes_to_options = True  # what else a single-seat or batched reset is given
    own = BUILDER_PARAMETERS.get(builder, ())
    args = [f"{k}=..." for k in own if k in params] + ["options={...}"] * goes_to_options
    where = [f"build another with {builder}(..., {', '.join(args)})"] if args else []
    for key in (k for k in params if k not in own):
        takers = " and ".join(b for b, ps in BUILDER_PARAMETERS.items() if key in ps)
        where.append(f"{key}= is a parameter of {takers}, not of {builder}")
    msg = (
        f"reset() takes no game options or settings, not {shown(options)}: they are the"
        f" environment's; {'; '.join(where)}"
    )
    raise OptionError(msg)


def refuse_copy(env: Any) -> ArgumentError:
    """The error for copying or pickling environment *env*, naming what to use instead.

    An environment holds a live game and lends views of it to agents; a search copies
    the game (``clone()``, ``save()``, ``determinize(seat)``), and a replay builds a
    new environment with the same arguments and resets it with the same seed.
    """
    games = {"CardEnv": "env.match.game", "SeatEnv": "env.runner.match.game", "BatchEnv": "envs.runners[i].match.game"}
    where = games.get(type(env).__name__, "the environment's game")
    msg = (
        f"a {type(env).__name__} cannot be copied or pickled: copy its game instead"
        f" ({where}.clone(), .save(), or .determinize(seat) for what a seat may know),"
        f" or build a new environment with the same arguments and reset(seed=...)"
    )
    return ArgumentError(msg)


class Seeds:
    """Game seeds: ``reset(seed=s)`` plays seed *s*, later resets draw from a stream seeded by *s*
    (without any seed, a stream started from the operating system's entropy)."""

    def __init__(self) -> None:
        self._rng: random.Random | None = None

    def next(self, seed: int | None) -> int:
        """The seed of the next game.

        :raises OptionError: *seed* is not ``None`` or a game seed (:func:`check_seed`).
        """
        seed = check_seed(seed)
        if seed is not None:
            self._rng = random.Random(seed)
            return seed
        if self._rng is None:
            self._rng = random.Random(secrets.randbits(64))
        return self._rng.getrandbits(63)


def fresh_match(
    config: Config, seeds: Seeds, seed: int | None, skipped: list[Match] | None = None
) -> Match:
    """Start a game that someone still has to play: a deal that ends the game at once is redealt.

    Redeals take the next seeds of the stream, so they are deterministic too; each game
    dealt and dropped is appended to *skipped*, its rewards uncollected.
    """
    for _ in range(1000):
        match = Match(config, seeds.next(seed))
        seed = None
        if not match.over:
            return match
        if skipped is not None:
            skipped.append(match)
    msg = f"1000 deals of {config.game} in a row ended before anyone acted (CORE-OVER-1)"
    raise IllegalActionError(msg, rule_id="CORE-OVER-1")


def skipped_info(skipped: list[Match], seat: int, collected: list[list[float]]) -> dict[str, Any]:
    """*seat*'s ``{"skipped": [...]}`` info for the games :func:`fresh_match` dropped (empty if
    none): ``{"actions", "reward", "result"}`` each, as the single-seat environment's (no seed)."""
    if not skipped:
        return {}
    games = []
    for match, rewards in zip(skipped, collected, strict=True):
        result = match.game.result
        games.append(
            {
                "actions": match.game.version,
                "reward": rewards[seat],
                "result": None if result is None else result.to_json(),
            }
        )
    return {"skipped": games}


class NotResetError(IllegalActionError, AttributeError):
    """Used before ``reset()``: an ``IllegalActionError``, and an ``AttributeError`` (so
    ``hasattr`` and inspection read the attribute as absent)."""


class _SetByReset:
    """A class attribute for what ``reset()`` sets on the instance: reading it before is an error.
    A non-data descriptor: once ``reset()`` has set the instance's own, reading it costs nothing more."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, env: Any, owner: type | None = None) -> Any:
        if env is None:
            return self
        raise NotResetError(f"call reset() before using the environment ({self.name} is set by reset)")


class CardEnv(AECEnv):  # type: ignore[misc]
    """Any installed card game as a PettingZoo ``AECEnv``; build it with :func:`aec_env`.

    Rewards come at the end of the game (``"win"``: +1 to a winner; see
    :func:`cardcore.rl.match.win_rewards`), or as the game's standings change
    (``"score"``: games whose encoding gives a progress, and stakes games with the
    generic encoding, paid their net payouts). A game cut off by its
    action bound is *truncated*; one ended by its rules is *terminated*.

    :param config: The checked configuration.
    :param render_mode: ``None``, ``"human"`` or ``"ansi"``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention
        "render_modes": list(RENDER_MODES),
        "name": "cardcore",
        "is_parallelizable": False,
    }

    def __init__(self, config: Config, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and not (
            type(render_mode) is str and render_mode in RENDER_MODES
        ):
            msg = f"render_mode must be None or one of {one_of(RENDER_MODES)}, not {shown(render_mode)}"
            raise OptionError(msg)
        self.config = config
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"cardcore_{config.game}"}
        n = config.players
        self.possible_agents: list[str] = [f"player_{s}" for s in range(n)]
        self._seat_of = {name: s for s, name in enumerate(self.possible_agents)}
        observation, action = spaces_of(config)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {a: spaces.Discrete(action.n) for a in self.possible_agents}
        self._seeds = Seeds()
        self._match: Match | None = None
        self.skipped_seeds: list[int] = []  # the last reset's dropped deals (privileged: no info)
        self._choices: tuple[int, int, dict[int, Action]] = (-1, -1, {})
        self._stale: set[str] = set()  # agents whose plan was dropped, told when selected

    # Set by reset(); before it, reading one is a clear error (PettingZoo's loop reads them).
    if TYPE_CHECKING:  # (PettingZoo is untyped: declared here for a type checker)
        agents: list[str]
        agent_selection: str
        rewards: dict[str, float]
        _cumulative_rewards: dict[str, float]
        terminations: dict[str, bool]
        truncations: dict[str, bool]
        infos: dict[str, dict[str, Any]]
    else:
        agents = _SetByReset()
        agent_selection = _SetByReset()
        rewards = _SetByReset()
        _cumulative_rewards = _SetByReset()
        terminations = _SetByReset()
        truncations = _SetByReset()
        infos = _SetByReset()

    @property
    def match(self) -> Match:
        """The game being played (``match.game``), set by :meth:`reset` (before it: an error)."""
        return self._live()

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """PettingZoo's loop: the agent to act next, until every agent is done (or *max_iter*)."""
        return cast("Iterator[str]", super().agent_iter(max_iter))

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Refuse to be pickled or copied (see :func:`refuse_copy`)."""
        raise refuse_copy(self)

    def __deepcopy__(self, memo: Any) -> Any:
        """Refuse to be deep-copied (see :func:`refuse_copy`)."""
        raise refuse_copy(self)

    def _seat(self, agent: Any) -> int:
        """The seat of agent *agent* (``"player_0"`` ...); a :class:`~cardcore.SeatError` otherwise."""
        seat = self._seat_of.get(agent) if isinstance(agent, str) else None
        if seat is None:
            names = ", ".join(self.possible_agents)
            msg = f"not an agent of this environment: {shown(agent)} (its agents: {names}) (CORE-SEAT-1)"
            raise SeatError(msg, action=None, rule_id="CORE-SEAT-1")
        return seat

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of *agent* (the same for every seat)."""
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of *agent*: ``Discrete(actions)``."""
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: game seed *seed*, or the next of the stream the last seed started.

        :param options: No game option nor setting: those are the environment's
            (:func:`aec_env`'s *options* and parameters); build another environment to
            change them. Other keys are taken and not used (PettingZoo's ``api_test``
            resets with ``options={"options": 1}``).
        The seeds of the deals dropped are in ``skipped_seeds``: privileged, never in an info.

        :raises OptionError: *seed* is not ``None`` or an int from 0 below
            ``2**MAX_SEED_BITS`` (as for :func:`cardcore.new_game`), or *options*
            names a game option or an environment's parameter; nothing changes.
        """
        seed = check_seed(seed)
        check_reset_options(options, "aec_env", self.config)
        dropped: list[Match] = []
        match = self._match = fresh_match(self.config, self._seeds, seed, dropped)
        paid = [m.collect() for m in dropped]
        self.skipped_seeds = [m.game.seed for m in dropped]
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: skipped_info(dropped, s, paid) for s, a in enumerate(self.agents)}
        self._choices = (-1, -1, {})
        self._stale = set()
        self._skip_agent_selection = None
        if match.over:
            self.agent_selection = self.agents[0]
            self._finish()
        else:
            self.agent_selection = self.possible_agents[match.seat]
        if self.render_mode == "human":
            self.render()

    def _live(self) -> Match:
        match = self._match
        if match is None:
            raise NotResetError("call reset() before using the environment (match is set by reset)")
        return match

    def observe(self, agent: str) -> Obs:
        """*agent*'s observation and action mask now (only what its seat may see)."""
        match = self._live()
        seat = self._seat(agent)
        legal = () if match.over else match.legal(seat)
        obs, mask, choices = self.config.observer.arrays(match.game, seat, legal)
        if seat == match.seat:
            self._choices = (match.game.version, seat, choices)
        return {"observation": obs, "action_mask": mask}

    @overload
    def last(self, observe: Literal[True] = True) -> tuple[Obs, float, bool, bool, dict[str, Any]]: ...
    @overload
    def last(self, observe: Literal[False]) -> tuple[None, float, bool, bool, dict[str, Any]]: ...
    @overload
    def last(self, observe: bool) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]: ...
    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]:
        """``agent_selection``'s observation, cumulative reward, termination, truncation and info.

        :raises IllegalActionError: Before :meth:`reset`, or once every agent has stepped
            out of a finished game (``agents`` is empty: call :meth:`reset`).
        """
        self._live()
        if not self.agents:
            msg = "the game is over and every agent is done: call reset() (CORE-OVER-1)"
            raise IllegalActionError(msg, rule_id="CORE-OVER-1")
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def choices(self) -> dict[int, Action]:
        """The legal actions of the agent to act now, by action index (none once the game is over)."""
        match = self._live()
        seat = match.seat
        if seat < 0:
            return {}
        version, cached_seat, choices = self._choices
        if version != match.game.version or cached_seat != seat:
            observer = self.config.observer
            size = observer.actions
            obs = np.zeros(observer.size, dtype=np.float32)
            mask = np.zeros(size, dtype=np.int8)
            choices = observer.fill(match.game, seat, match.legal(seat), obs, mask)
            self._choices = (match.game.version, seat, choices)
        return choices

    def step(self, action: Any) -> None:
        """Apply *action* (an index in the mask) for ``agent_selection``.

        Real time, with ``wait=True``: the last index, ``"wait"``, plans nothing
        (:meth:`Match.wait <cardcore.rl.Match.wait>`).

        :raises IllegalActionError: *action* is not in the mask (the message names
            it and the legal ones), the game is over and every agent is done, or a
            done agent is stepped with something else than ``None``.
        :raises PluginError: A rule's hook raised while the engine applied the action;
            nothing changed, so the same step can be taken again (see "Failing plugins"
            in ``docs/rl.rst``).
        """
        match = self._live()
        if not self.agents:
            msg = "the game is over and every agent is done: call reset() (CORE-OVER-1)"
            raise IllegalActionError(msg, action=action, rule_id="CORE-OVER-1")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                msg = f"{agent} is done (the game is over): step it with None (CORE-OVER-1)"
                raise IllegalActionError(msg, action=action, rule_id="CORE-OVER-1")
            self._was_dead_step(None)
            return
        choices = self.choices()
        index = action_index(action)
        chosen = None if index is None else choices.get(index)
        wait = self.config.observer.wait
        waits = chosen is None and bool(choices) and index is not None and index == wait
        if chosen is None and not waits:
            raise bad_action(self.config, agent, action, choices)
        version, dropped = match.game.version, match.dropped[:]
        try:
            # a failure (a rule's hook raising) leaves everything as it was
            if chosen is None:
                match.wait()  # "wait": plan nothing, decide again after the next change
            else:
                match.act(chosen)
        except BaseException:
            if match.game.version != version:  # unless it came after an action was applied
                with contextlib.suppress(CardcoreError):  # the hook may fail again: say the first
                    self._acted(agent, match, dropped)
            raise
        self._acted(agent, match, dropped)
        if self.render_mode == "human":
            self.render()

    def _acted(self, agent: str, match: Match, dropped: list[int]) -> None:
        """After *agent*'s action: pay the rewards, mark the agents whose plans were dropped
        since (*dropped*: the counts before), and select the next agent."""
        infos = self.infos
        if "stale" in infos[agent]:  # said once, to the decision it concerned
            infos[agent] = {k: v for k, v in infos[agent].items() if k != "stale"}
        for s, before in enumerate(dropped):
            if match.dropped[s] != before:  # real time: overtaken, unapplied; it decides again
                self._stale.add(self.possible_agents[s])  # told when it is selected
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for s, r in enumerate(match.collect()):
            self.rewards[self.possible_agents[s]] = r
        if match.over:
            self._stale.clear()
            self._finish()
        else:
            selected = self.agent_selection = self.possible_agents[match.seat]
            if selected in self._stale:
                self._stale.discard(selected)
                infos[selected] = {**infos[selected], "stale": True}
            self._accumulate_rewards()

    def _finish(self) -> None:
        """Mark every agent done, pay the last rewards, and let the done agents step out."""
        match = self._live()
        result = match.game.result
        for a in self.agents:  # each its own info, its own result (a caller may edit one)
            self.terminations[a] = not match.truncated
            self.truncations[a] = match.truncated
            self.infos[a] = {"result": None if result is None else result.to_json(), "stalled": match.stalled}
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        """Show the view of the agent to act (or seat 0 once the game is over) as text."""
        if self.render_mode is None:
            logger.warn("render() called without a render_mode (use 'human' or 'ansi')")
            return None
        match = self._live()
        seat = match.seat if match.seat >= 0 else 0
        text = view_text(match.game.view(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Release nothing: the environment holds no outside resource."""


def aec_env(
    game: str,
    players: int | None = None,
    *,
    rules: Sequence[str] = (),
    without: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    rewards: str = "win",
    max_actions: int | None = None,
    reaction: float | Sequence[float] = 0.5,
    wait: bool = False,
) -> CardEnv:
    """Return a PettingZoo ``AECEnv`` for *game* with these rules and options.

    >>> env = aec_env("golf", 2, options={"rounds": 1})  # doctest: +SKIP
    >>> env.reset(seed=7)  # doctest: +SKIP

    :param game: An installed game (see :func:`cardcore.available_games`).
    :param players: The number of seats (agents ``player_0`` ...); default 2, or the
        nearest count the game seats (four for a partnership game, one for a solitaire).
    :param rules: House rules to add.
    :param without: Default rules to switch off.
    :param options: The game's options.
    :param render_mode: ``None``, ``"human"`` (print) or ``"ansi"`` (return text).
    :param rewards: ``"win"`` (at the end) or ``"score"`` (as standings change).
    :param max_actions: Truncate a game after this many actions (default, and at most: the
        game's own bound; a larger value is capped, ``config.bound`` holds the one in use).
    :param reaction: Real-time games: the median reaction delay (seconds) of each
        seat's decisions, one for all or one per seat.
    :param wait: Real-time games: add a ``"wait"`` action, the last index, in the mask
        whenever a seat may act: it plans nothing and decides again after the next change.
    :raises UnknownPluginError: Unknown game or rule.
    :raises OptionError: Bad options, players, rewards, reaction or wait.
    """
    config = Config(
        game,
        players,
        rules=rules,
        without=without,
        options=options,
        rewards=rewards,
        max_actions=max_actions,
        reaction=reaction,
        wait=wait,
    )
    return CardEnv(config, render_mode=render_mode)
