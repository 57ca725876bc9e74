"""One seat against agents: :class:`SeatRunner`, and the Gymnasium environment :class:`SeatEnv`.

The learner holds one seat; every other seat is an agent (a name installed in
the ``cardcore.agents`` entry-point group, such as ``"random"`` or
``"golf-greedy"``, or such a name with parameters, ``"random:seed=3"``, or an
agent object). An agent sees only its seat's
:class:`~cardcore.LazyView` and legal actions, as in :func:`cardcore.play`;
in real-time games its ``plan()`` gives the action and its own reaction delay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cardcore._agentspec import build_agent, check_agent_params, check_seedable, parse_agent_spec
from cardcore._text import one_of, plain, shown
from cardcore.actions import Action
from cardcore.agents import check_agent, lend_views
from cardcore.deck import derive_rng
from cardcore.errors import ArgumentError, CardcoreError, IllegalActionError, OptionError
from cardcore.plugins import load_agent
from cardcore.rl.aec import (
    RENDER_MODES,
    Seeds,
    action_index,
    bad_action,
    check_reset_options,
    check_seed,
    refuse_copy,
    spaces_of,
)
from cardcore.rl.match import Config, Match, as_int
from cardcore.rl.render import view_text

__all__ = ["REDEALS", "SeatEnv", "SeatRunner", "gym_env", "public_skipped"]

REDEALS = 1000
"""How many games in a row may end before the learner's first decision (each is dealt anew)."""

Obs = dict[str, npt.NDArray[Any]]


def _opponents(config: Config, seat: int, opponents: Any) -> list[Any]:
    """Per seat: ``None`` for the learner, else an agent spec (a name, or with parameters) or object."""
    n = config.players
    if type(seat) is not int or not 0 <= seat < n:  # (made plain by the callers)
        msg = f"seat must be a seat of a {n}-player game (0 to {n - 1}), not {shown(seat)}"
        raise OptionError(msg)
    others = (
        [opponents]
        if isinstance(opponents, str) or not isinstance(opponents, Sequence)
        else list(opponents)
    )
    if len(others) == 1:
        others *= n - 1
    if len(others) != n - 1:
        msg = f"need one opponent or {n - 1} (one per other seat), not {len(others)}"
        raise OptionError(msg)
    specs: list[Any] = [plain(spec) for spec in others]  # a str subclass could hash its own way
    specs.insert(seat, None)
    for i, spec in enumerate(specs):
        if isinstance(spec, str):
            continue  # checked by _Factory
        if spec is None and i != seat:
            msg = "an opponent is an installed agent's name, an agent spec or an agent object, not None"
            raise OptionError(msg)
        if isinstance(spec, type):
            msg = f"opponent {shown(spec)} is a class: pass an agent object, or an agent's installed name"
            raise OptionError(msg)
        if spec is not None:
            need = "plan" if config.realtime else "choose"
            if not callable(getattr(spec, need, None)):
                msg = f"opponent {shown(spec)} has no {need}() method, so it cannot play {config.game}"
                raise OptionError(msg)
    return specs


def public_skipped(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """*games* (:attr:`SeatRunner.skipped`) as an info lists them: ``{"actions", "reward",
    "result"}`` each, not the seed, which would let the learner deal the game it plays."""
    return [{k: v for k, v in game.items() if k != "seed"} for game in games]


class _BadAnswer(Exception):
    """An opponent's answer that is not one of its legal actions (raised as a CardcoreError)."""


class _Factory:
    """Builds the agent of an agent spec (``NAME`` or ``NAME:KEY=VALUE,...``) for each game.

    The spec's parameters go to the agent's factory, with a ``seed`` derived from
    the game's seed unless the spec sets one, so every game's agent is seeded and
    the games replay.

    :raises UnknownPluginError: No agent of that name is installed.
    :raises OptionError: A malformed spec, a parameter the agent does not take or refuses,
        or an agent that takes no ``seed`` keyword (refused as :func:`cardcore.simulate` does).
    :raises CardcoreError: The agent cannot play the configuration's game.
    """

    def __init__(self, config: Config, spec: str) -> None:
        name, params = parse_agent_spec(spec)
        factory = load_agent(name)
        check_agent(name, factory, config.info)
        check_agent_params(name, factory, params)
        check_seedable(name, factory, params, "the environment")  # as simulate and compare do
        if params:
            build_agent(name, factory, params)  # refuse the spec's values now, not at reset()
        self.name = name
        self.factory = factory
        self.params = params
        self.seeded = "seed" in params
        """Whether the spec sets the seed (else each game's agent gets one of its own)."""

    def build(self, seed: int) -> Any:
        """The agent of a game whose agent seed is *seed* (unless the spec sets one)."""
        params = self.params if self.seeded else {**self.params, "seed": seed}
        return self.factory(**params)  # the parameters were checked when the runner was built


class SeatRunner:
    """Plays one seat's games: the learner's decisions from outside, the others' by agents.

    :param config: The configuration.
    :param seat: The learner's seat.
    :param opponents: One agent (name, spec with parameters or object) for every
        other seat, or one for all.
    :raises OptionError: A bad seat or number of opponents, a bad agent spec, a class given
        as an opponent, or an object without the choose() (real time: plan()) it needs.
    :raises UnknownPluginError: An agent name that is not installed.
    :raises CardcoreError: An agent that cannot play this game.
    """

    def __init__(self, config: Config, seat: int, opponents: Any) -> None:
        index = as_int(seat)  # a numpy integer from a sweep; an int subclass made plain
        if index is not None:
            seat = index
        self.config = config
        self.seat = seat
        self.specs = _opponents(config, seat, opponents)
        names = dict.fromkeys(spec for spec in self.specs if isinstance(spec, str))
        self._factories = {spec: _Factory(config, spec) for spec in names}
        self.agents: list[Any] = [None] * config.players
        self.match: Match | None = None
        self.choices: dict[int, Action] = {}
        self.seeds = Seeds()
        self.collected = 0.0
        """The learner's reward since its last decision."""
        self.stale = False
        """Real time: whether the learner's last action was dropped unapplied (overtaken by
        another seat's action, refused as stale or no longer legal): it decides again."""
        self._stack = ExitStack()
        self._views: Any = None
        self._failed: str | None = None
        """Why the current game cannot go on (an opponent failed), until the next reset."""
        self.skipped: list[dict[str, Any]] = []
        """The games the last :meth:`reset` dealt and dropped, ended before the learner's
        first decision: ``{"seed", "actions", "reward", "result"}`` each (*reward* the
        learner's, *actions* how many were played: 0 for a deal that ends the game). The
        seeds are privileged (the game in play is dealt from the stream they start): the
        learner's info lists the games without them (:func:`public_skipped`)."""

    def reset(
        self, seed: int | None, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
    ) -> None:
        """Start a game (seed as :class:`~cardcore.rl.aec.Seeds` draws it) up to the learner's first decision.

        A game that ends before the learner is asked (a deal that ends it, or the
        opponents, who act first, ending it) is dealt anew with the stream's next seed
        and listed in :attr:`skipped`. Writes the learner's observation into *obs* and *mask*.

        :raises ArgumentError: *obs* or *mask* is not a writable 1-D numpy array of the
            observation's or the action space's size (float and int dtypes); checked before
            the game is dealt, so nothing changes.
        :raises IllegalActionError: :data:`REDEALS` games in a row ended before the learner
            acted (CORE-OVER-1): a game whose deals end it, or bound too low.
        """
        self.check_arrays(obs, mask)
        self.skipped = []
        for _ in range(REDEALS):
            game_seed = self.seeds.next(seed)
            seed = None
            self._start(game_seed)
            match = self._live()
            if not match.over:
                self.fill(obs, mask)
                return
            result = match.game.result
            self.skipped.append(
                {
                    "seed": game_seed,
                    "actions": match.game.version,
                    "reward": self.collected,
                    "result": None if result is None else result.to_json(),
                }
            )
        msg = f"{REDEALS} games of {self.config.game} in a row ended before seat {self.seat} acted"
        if all(g["result"] and g["result"]["reason"] == "truncated" for g in self.skipped[-3:]):
            msg += f": the action bound ({self.config.bound}, max_actions) cut them off"
        raise IllegalActionError(f"{msg} (CORE-OVER-1)", rule_id="CORE-OVER-1")

    def check_arrays(self, obs: Any, mask: Any) -> None:
        """Raise :class:`~cardcore.ArgumentError` unless *obs* and *mask* can take an observation.

        *obs*: a writable 1-D float numpy array of ``config.observer.size``; *mask*: a
        writable 1-D integer (or bool) numpy array of the action space's size.
        """
        observer = self.config.observer
        for name, array, size, kinds, dtype in (
            ("obs", obs, observer.size, "f", "float32"),
            ("mask", mask, observer.actions, "iub", "int8"),
        ):
            if (
                not isinstance(array, np.ndarray)
                or array.shape != (size,)
                or array.dtype.kind not in kinds
                or not array.flags.writeable
            ):
                given = (
                    f"a {'read-only ' if not array.flags.writeable else ''}{array.dtype}"
                    f" array of shape {array.shape}"
                    if isinstance(array, np.ndarray)
                    else shown(array)
                )
                msg = (
                    f"{name} must be a writable {dtype} numpy array of shape ({size},), not {given}"
                )
                raise ArgumentError(msg)

    def _start(self, game_seed: int) -> None:
        self._stack.close()
        self._failed = None
        match = self.match = Match(self.config, game_seed)
        for s, spec in enumerate(self.specs):
            if isinstance(spec, str):
                seed = derive_rng(game_seed, 0xA6E + s).getrandbits(63)
                try:
                    self.agents[s] = self._factories[spec].build(seed)
                except Exception as exc:  # named, and the game cannot go on until reset()
                    self._failed = f"the opponent in seat {s} failed to start"
                    msg = f"the opponent in seat {s} ({spec}) could not be built: {type(exc).__name__}: {exc}; call reset()"
                    raise CardcoreError(msg) from exc
            else:
                self.agents[s] = spec
        self._views = self._stack.enter_context(lend_views(match.game))
        self.collected = 0.0
        self.stale = False
        self._play_others()

    def _live(self) -> Match:
        if self.match is None:
            msg = "call reset() before using the environment"
            raise IllegalActionError(msg, rule_id="CORE-OVER-1")
        return self.match

    def _play_others(self) -> None:
        """Let the agents decide until the learner is asked or the game ends.

        :raises CardcoreError: An agent answered something else than one of its legal
            actions (or a plan of one); the game cannot go on until :meth:`reset`.
        """
        match = self._live()
        learner = self.seat
        views = self._views
        realtime = self.config.realtime
        while True:
            seat = match.seat
            if seat < 0 or seat == learner:
                break
            agent = self.agents[seat]
            legal = match.legal(seat)
            try:
                if realtime:
                    plan = agent.plan(views(seat), legal, match.now)
                    if plan is not None and getattr(plan, "action", None) not in legal:
                        raise self._bad_answer(seat, "plan()", plan)
                else:
                    action = agent.choose(views(seat), legal)
                    if action not in legal:
                        raise self._bad_answer(seat, "choose()", action)
            except _BadAnswer as exc:
                self._failed = f"the opponent in seat {seat} failed"
                raise CardcoreError(str(exc)) from None
            except Exception as exc:
                self._failed = f"the opponent in seat {seat} failed"
                msg = f"the opponent in seat {seat} ({self._name(seat)}) raised {type(exc).__name__}: {exc}; call reset()"
                raise CardcoreError(msg) from exc
            except BaseException:
                self._failed = f"the opponent in seat {seat} was interrupted"
                raise
            # the agent answered; what the engine (or a rule's hook) does with it is not its doing
            try:
                if not realtime:
                    match.act(action)
                elif plan is None:
                    match.wait()
                else:
                    match.act(plan.action, getattr(plan, "delay", None))
            except ArgumentError as exc:  # the plan's delay: the agent's answer after all
                self._failed = f"the opponent in seat {seat} failed"
                msg = f"the opponent in seat {seat} ({self._name(seat)}) answered {shown(plan)} from plan(): {exc}; call reset()"
                raise CardcoreError(msg) from None
            except BaseException:
                self._failed = f"the game failed while seat {seat}'s action was applied"
                raise
        self.collected += match.collect()[learner]

    def _name(self, seat: int) -> str:
        spec = self.specs[seat]
        return spec if isinstance(spec, str) else shown(self.agents[seat])

    def _bad_answer(self, seat: int, method: str, answer: Any) -> _BadAnswer:
        what = (
            "a Plan of one of its legal actions"
            if method == "plan()"
            else "one of its legal actions"
        )
        msg = (
            f"the opponent in seat {seat} ({self._name(seat)}) answered {shown(answer)} from"
            f" {method}, not {what}; call reset()"
        )
        return _BadAnswer(msg)

    def check(self, action: Any) -> Action | None:
        """The learner's legal action of index *action* (``None``: ``"wait"``); changes nothing.

        :raises IllegalActionError: *action* is not in the mask, or the game is over.
        """
        match = self._live()
        if self._failed is not None:
            msg = f"{self._failed}: call reset() before stepping again (CORE-OVER-1)"
            raise IllegalActionError(msg, action=action, rule_id="CORE-OVER-1")
        if match.over:
            msg = "the game is over: call reset() before stepping again (CORE-OVER-1)"
            raise IllegalActionError(msg, action=action, rule_id="CORE-OVER-1")
        choices = self.choices
        index = action_index(action)
        chosen = None if index is None else choices.get(index)
        wait = self.config.observer.wait
        if chosen is None and not (choices and index is not None and index == wait):
            raise bad_action(self.config, f"player_{self.seat}", action, choices)
        return chosen

    def step(
        self, action: Any, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
    ) -> tuple[float, bool, bool]:
        """Apply the learner's *action* (an index in its mask), let the others play, observe.

        :returns: The learner's reward since its last decision, and whether the
            game terminated (by its rules) or was truncated.
        :raises IllegalActionError: *action* is not in the mask, or the game is over.
        :raises ArgumentError: *obs* or *mask* cannot take the observation (as for
            :meth:`reset`); nothing changes.
        """
        chosen = self.check(action)
        self.check_arrays(obs, mask)
        return self.play(chosen, obs, mask)

    def play(
        self, chosen: Action | None, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
    ) -> tuple[float, bool, bool]:
        """Apply the learner's *chosen* action (from :meth:`check`; ``None``: it waits), as
        :meth:`step` does."""
        match = self._live()
        version = match.game.version
        learner = self.seat
        dropped = match.dropped[learner]
        try:
            # a failure (a rule's hook raising) leaves everything as it was,
            if chosen is None:
                match.wait()  # "wait"
            else:
                match.act(chosen)
        except BaseException:
            if match.game.version != version:  # unless it came after an action was applied
                self._failed = f"the game failed after seat {self.seat}'s action was applied"
            raise
        self._play_others()
        self.stale = match.dropped[learner] != dropped
        self.fill(obs, mask)
        reward = self.collected
        self.collected = 0.0
        over = match.over
        return reward, over and not match.truncated, over and match.truncated

    def fill(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> None:
        """Write the learner's observation and mask now (an empty mask once the game is over)."""
        match = self._live()
        self.choices = {}  # none until this observation is made: the last one's never play on
        try:
            legal = () if match.over else match.legal(self.seat)
            self.choices = self.config.observer.fill(match.game, self.seat, legal, obs, mask)
        except BaseException:  # (the game's view or the encoding): unseen, it cannot go on
            self._failed = "the observation failed"
            raise

    def close(self) -> None:
        """Stop lending views of the current game; a step then asks for :meth:`reset`."""
        self._stack.close()
        if self.match is not None:  # the agents can no longer see the game: it cannot go on
            self._failed = "the environment was closed"


class SeatEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a card game as a Gymnasium environment, the other seats played by agents.

    Observations are ``{"observation", "action_mask"}`` as in :class:`~cardcore.rl.aec.CardEnv`;
    ``action_masks()`` gives the mask as booleans (the convention of maskable
    policy libraries). Build it with :func:`gym_env`.

    :param runner: The seat's runner.
    :param render_mode: ``None``, ``"human"`` or ``"ansi"``.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012 - Gymnasium's convention

    def __init__(self, runner: SeatRunner, render_mode: str | None = None) -> None:
        if render_mode is not None and not (
            type(render_mode) is str and render_mode in RENDER_MODES
        ):
            msg = f"render_mode must be None or one of {one_of(RENDER_MODES)}, not {shown(render_mode)}"
            raise OptionError(msg)
        self.runner = runner
        self.render_mode = render_mode
        observation, action = spaces_of(runner.config)
        self.observation_space: spaces.Dict = observation
        self.action_space: spaces.Discrete = action  # (so a type checker knows its ``n``)
        self._obs = np.zeros(runner.config.observer.size, dtype=np.float32)
        self._mask = np.zeros(action.n, dtype=np.int8)

    @property
    def unwrapped(self) -> SeatEnv:
        """This environment itself, typed as it is (``env.unwrapped.runner``)."""
        return self

    def _out(self) -> Obs:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Start a game (game seed *seed*, or the stream's next) and return the first observation.

        Games that end before the learner's first decision are dealt anew; the info
        then lists them under ``"skipped"`` (see :attr:`SeatRunner.skipped`), with the
        learner's reward of each, so that an evaluation can count them.

        :param options: Only ``None`` or ``{}``: the game's options are the environment's
            (:func:`gym_env`'s *options*); build another environment to change them.
        :raises OptionError: *seed* is not ``None`` or an int from 0 below
            ``2**MAX_SEED_BITS`` (as for :func:`cardcore.new_game`), or *options* is
            not empty; nothing changes.
        """
        seed = check_seed(seed)
        check_reset_options(options, "gym_env")
        super().reset(seed=seed)
        runner = self.runner
        runner.reset(seed, self._obs, self._mask)
        if self.render_mode == "human":
            self.render()
        return self._out(), ({"skipped": public_skipped(runner.skipped)} if runner.skipped else {})

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Apply *action*, let the opponents play, return the learner's next observation.

        The info of a game's last step has ``"result"`` and ``"stalled"``; in real time
        ``"stale": True`` says *action* was dropped unapplied (overtaken by an opponent's
        action, it was refused as stale or no longer legal) and the learner decides again.

        :raises IllegalActionError: *action* is not in the mask, or the game is over.
        :raises PluginError: A rule's hook raised in the engine. Raised while an
            opponent's action was applied, the game needs :meth:`reset`.
        """
        runner = self.runner
        reward, terminated, truncated = runner.play(runner.check(action), self._obs, self._mask)
        info: dict[str, Any] = {}
        if terminated or truncated:
            match = self.runner._live()
            result = match.game.result
            info = {
                "result": None if result is None else result.to_json(),
                "stalled": match.stalled,
            }
        if runner.stale:  # real time: the action was overtaken and not applied
            info["stale"] = True
        if self.render_mode == "human":
            self.render()
        return self._out(), reward, terminated, truncated, info

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Refuse to be pickled or copied (see :func:`~cardcore.rl.aec.refuse_copy`)."""
        raise refuse_copy(self)

    def __deepcopy__(self, memo: Any) -> Any:
        """Refuse to be deep-copied (see :func:`~cardcore.rl.aec.refuse_copy`)."""
        raise refuse_copy(self)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The current action mask as booleans."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        """Show the learner's view as text (printed for ``"human"``, returned for ``"ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'human' or 'ansi')")
            return None
        text = view_text(self.runner._live().game.view(self.runner.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Stop lending views to the agents."""
        self.runner.close()


def gym_env(
    game: str,
    players: int | None = None,
    *,
    seat: int = 0,
    opponents: str | Any | Sequence[str | Any] = "random",
    rules: Sequence[str] = (),
    without: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    rewards: str = "win",
    max_actions: int | None = None,
    reaction: float | Sequence[float] = 0.5,
    wait: bool = False,
) -> SeatEnv:
    """Return a Gymnasium environment: *seat* of *game* against *opponents*.

    >>> env = gym_env("golf", 2, opponents="golf-greedy", options={"rounds": 1})  # doctest: +SKIP
    >>> obs, info = env.reset(seed=7)  # doctest: +SKIP

    :param seat: The learner's seat.
    :param opponents: Installed agent names (``cardcore.available_agents()``), agent
        specs with parameters (``"ismcts:iterations=100"``, as for
        :func:`cardcore.load_agent`) or agent objects: one for every other seat in
        seat order, or one for all. An agent whose spec sets no ``seed`` gets one
        derived from each game's seed (an agent named must take a ``seed`` keyword, as
        for :func:`cardcore.simulate`). An agent object is shared by every game and
        seat it is given and keeps its state (``reset(seed=...)`` does not reseed it).
    :param reaction: Real time: the learner's (and every seat's default) median
        reaction delay in seconds; agents draw their own.
    :param wait: Real time: add the learner's ``"wait"`` action, the last index: it plans
        nothing, the opponents play on, and it decides again after the next change.

    The other parameters are those of :func:`~cardcore.rl.aec_env`.
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
    return SeatEnv(SeatRunner(config, seat, opponents), render_mode=render_mode)
