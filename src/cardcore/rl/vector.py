"""The batched environment: :class:`BatchEnv`, N games of one seat stepped in one process.

Gymnasium vector style: ``reset()`` and ``step(actions)`` take and return
arrays with one row per game, and a finished game is dealt again at once
(``AutoresetMode.SAME_STEP``): the row then holds the new game's first
observation, and ``infos["final_obs"]`` the last one of the old game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cardcore._faults import renamed
from cardcore._text import shown
from cardcore.actions import Action
from cardcore.deck import derive_rng
from cardcore.errors import IllegalActionError, OptionError
from cardcore.rl.aec import check_reset_options, check_seed, refuse_copy, spaces_of
from cardcore.rl.match import Config, as_int
from cardcore.rl.seat import SeatRunner, public_skipped

__all__ = ["BatchEnv", "vector_env"]

MAX_ENVS = 65_536
"""The most games one batch steps (each holds a game, its seat runner and a row of the arrays)."""

Obs = dict[str, npt.NDArray[Any]]


class BatchEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """*num_envs* games of one configuration, the learner in *seat* of each, stepped together.

    Observations are ``{"observation": float32 (num_envs, size), "action_mask": int8
    (num_envs, actions)}``; actions an int array of one index per game. Build it
    with :func:`vector_env`.

    :param config: The configuration.
    :param num_envs: How many games (1 to 65,536).
    :param seat: The learner's seat.
    :param opponents: As for :func:`~cardcore.rl.gym_env`.
    :param copy: Return copies of the observation arrays (``False``: the same
        arrays every step, overwritten by the next one). The rewards, the
        termination and truncation flags and ``final_obs`` are new arrays each step
        either way.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self, config: Config, num_envs: int, seat: int, opponents: Any, *, copy: bool = True
    ) -> None:
        count = as_int(num_envs)  # a numpy integer from a sweep; an int subclass made plain
        if count is None or not 1 <= count <= MAX_ENVS:
            msg = f"num_envs must be an int from 1 to {MAX_ENVS:,}, not {shown(num_envs)}"
            raise OptionError(msg)
        if not isinstance(copy, bool | np.bool_):  # "no" or None would read as a choice
            msg = f"copy must be True or False, not {shown(copy)}"
            raise OptionError(msg)
        self.config = config
        self.num_envs = num_envs = count
        self.runners = [SeatRunner(config, seat, opponents) for _ in range(num_envs)]
        observation, action = spaces_of(config)
        self.single_observation_space = observation
        self.single_action_space = action
        self.observation_space = batch_space(observation, num_envs)
        self.action_space = batch_space(action, num_envs)
        self.copy = bool(copy)
        self._obs = np.zeros((num_envs, config.observer.size), dtype=np.float32)
        self._mask = np.zeros((num_envs, action.n), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)

    def _out(self) -> Obs:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Obs, dict[str, Any]]:
        """Start every game: with an int *seed*, game *i* draws from its own stream derived from it.

        An int *seed* also seeds the batch's ``np_random`` (as gymnasium's ``reset`` does); a
        list of seeds leaves it as it was. A game that fails to start (an opponent or a
        plugin raising) is named (``game 1 of 4 at reset: ...``); call ``reset`` again.

        :param seed: ``None``, a game seed (an int from 0 below ``2**MAX_SEED_BITS``,
            as for :func:`cardcore.new_game`), or a list of one game seed or
            ``None`` per game.
        :param options: Only ``None`` or ``{}``: the games' options are the environment's
            (:func:`vector_env`'s *options*).
        :raises OptionError: Any other *seed*, or non-empty *options*; nothing changes.
        """
        check_reset_options(options, "vector_env")
        n = self.num_envs
        if seed is None or isinstance(seed, int):
            seed = check_seed(seed)
            seeds: list[int | None] = (
                [None] * n
                if seed is None
                else [derive_rng(seed, i).getrandbits(63) for i in range(n)]
            )
        elif isinstance(seed, Sequence) and not isinstance(seed, str | bytes | bytearray):
            seeds = list(seed)
            if len(seeds) != n:
                msg = f"need one seed per game ({n}), not {len(seeds)}"
                raise OptionError(msg)
            seeds = [check_seed(s) for s in seeds]
        else:
            msg = f"seed must be None, an int or a list of {n} seeds (one per game), not {shown(seed)}"
            raise OptionError(msg)
        if isinstance(seed, int):  # the batch's own np_random too, as gymnasium's reset seeds it
            super().reset(seed=seed)
        skipped: dict[int, list[dict[str, Any]]] = {}
        for i, runner in enumerate(self.runners):
            try:
                runner.reset(seeds[i], self._obs[i], self._mask[i])
            except Exception as exc:  # (an opponent's, a plugin's, an encoding's failure) named by its game
                self._raise(exc, i, 0, " at reset", f"the reset stopped at game {i}")
            if runner.skipped:
                skipped[i] = public_skipped(runner.skipped)
        return self._out(), self._skipped_info({}, skipped)

    def _skipped_info(
        self, infos: dict[str, Any], skipped: dict[int, list[dict[str, Any]]]
    ) -> dict[str, Any]:
        """Add ``infos["skipped"]`` (per game, the games dropped before its learner acted)."""
        if skipped:
            column = np.full(self.num_envs, None, dtype=object)
            mask = np.zeros(self.num_envs, dtype=np.bool_)
            for i, games in skipped.items():
                column[i] = games
                mask[i] = True
            infos["skipped"] = column
            infos["_skipped"] = mask
        return infos

    def step(
        self, actions: npt.NDArray[np.int64] | Sequence[int]
    ) -> tuple[Obs, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """Apply one action per game; a finished game is dealt again in the same step.

        The whole batch is checked before any game moves, so a refused batch changes nothing.
        A failure while the games move (an opponent, or a rule's hook, raising in game *k*)
        raises an error of the same class (a :class:`~cardcore.PluginError` stays one)
        naming game *k* and the games it had already moved (games 0 to *k* - 1, and
        game *k* if the learner's action was applied): their new observations are lost,
        so each of them refuses further steps until :meth:`reset`. Games after *k* did
        not move.

        Real time: ``infos["stale"]`` (masked by ``infos["_stale"]``) marks the games whose
        learner's action was dropped unapplied, overtaken by an opponent's (as the single-seat
        environment's ``info["stale"]``).

        :param actions: One action index per game: a list, or a 1-D array of ints
            (bools and floats are no indices).
        :raises IllegalActionError: *actions* is not one index per game, or an
            action is not in its game's mask (the message names the game and the action).
        """
        chosen = self._check(actions)
        obs = self._obs
        mask = self._mask
        rewards = self._rewards
        terminated = self._terminated
        truncated = self._truncated
        finals: list[tuple[int, Obs, dict[str, Any]]] = []
        skipped: dict[int, list[dict[str, Any]]] = {}
        stale: list[int] = []
        for i, runner in enumerate(self.runners):
            version = runner._live().game.version
            try:
                r, term, trunc = runner.play(chosen[i], obs[i], mask[i])
            except BaseException as exc:  # an opponent, a rule's hook or an encoding failed
                moved = i + (runner._live().game.version != version)
                self._lost(i, moved)  # (Ctrl-C too: the games that moved need reset())
                if not isinstance(exc, Exception):
                    raise
                self._raise(exc, i, moved)
            rewards[i] = r
            terminated[i] = term
            truncated[i] = trunc
            if runner.stale:  # real time: the learner's action was overtaken, not applied
                stale.append(i)
            if term or trunc:
                match = runner._live()
                result = match.game.result
                info = {
                    "result": None if result is None else result.to_json(),
                    "stalled": match.stalled,
                }
                finals.append(
                    (i, {"observation": obs[i].copy(), "action_mask": mask[i].copy()}, info)
                )
                try:
                    runner.reset(None, obs[i], mask[i])
                except Exception as exc:  # an opponent failed in the new game
                    self._lost(i, i + 1)
                    self._raise(exc, i, i + 1, " (dealt again)")
                if runner.skipped:
                    skipped[i] = public_skipped(runner.skipped)
        infos: dict[str, Any] = self._skipped_info({}, skipped)
        if stale:
            infos["stale"] = np.zeros(self.num_envs, dtype=np.bool_)
            infos["stale"][stale] = True
            infos["_stale"] = infos["stale"].copy()
        if finals:
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info = np.full(self.num_envs, None, dtype=object)
            ended = np.zeros(self.num_envs, dtype=np.bool_)
            for i, o, info in finals:
                final_obs[i] = o
                final_info[i] = info
                ended[i] = True
            infos.update(
                final_obs=final_obs, _final_obs=ended, final_info=final_info, _final_info=ended.copy()
            )
        return self._out(), rewards.copy(), terminated.copy(), truncated.copy(), infos

    def _lost(self, i: int, moved: int) -> None:
        """Games 0 to *moved* - 1 moved in a step that failed in game *i*: their new observations
        are lost, so each refuses a step until :meth:`reset` (game *i*'s own reason kept)."""
        for j in range(moved):
            if self.runners[j]._failed is None:
                self.runners[j]._failed = f"its new observation was lost when game {i} failed"

    def _raise(self, exc: Exception, i: int, moved: int, how: str = "", after: str = "") -> NoReturn:
        """Raise *exc* from game *i* naming the game and the *moved* games (0 to moved - 1) the
        step had already moved (or *after*): its class and data kept (see
        :func:`cardcore._faults.renamed`; a PluginError stays one)."""
        n = self.num_envs
        if not after and moved == 0:
            after = "no game moved"
        elif not after and moved == 1:
            after = "game 0 had moved, its new observation lost: call reset()"
        elif not after:
            after = f"games 0 to {moved - 1} had moved, their new observations lost: call reset()"
        out = renamed(exc, f"game {i} of {n}{how}: {exc} [{after}]")
        if out is exc:
            raise exc
        raise out from exc

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Refuse to be pickled or copied (see :func:`~cardcore.rl.aec.refuse_copy`)."""
        raise refuse_copy(self)

    def __deepcopy__(self, memo: Any) -> Any:
        """Refuse to be deep-copied (see :func:`~cardcore.rl.aec.refuse_copy`)."""
        raise refuse_copy(self)

    def _check(self, actions: Any) -> list[Action | None]:
        """Every game's legal action for *actions*, or the error of the first bad one; changes nothing."""
        n = self.num_envs
        if isinstance(actions, np.ndarray):
            items: list[Any] = actions.tolist() if actions.ndim == 1 else []
            size = actions.shape[0] if actions.ndim == 1 else -1
        elif isinstance(actions, Sequence) and not isinstance(actions, str | bytes | bytearray):
            items = list(actions)
            size = len(items)
        else:
            size = -1
        if size != n:
            given = f"{size} actions" if size >= 0 else shown(actions)
            msg = (
                f"actions must be one action index per game: a list or 1-D int array of"
                f" {n}, not {given} (CORE-LEGAL-1)"
            )
            raise IllegalActionError(msg, action=actions, rule_id="CORE-LEGAL-1")
        chosen: list[Action | None] = []  # None: "wait"
        for i, runner in enumerate(self.runners):
            try:
                chosen.append(runner.check(items[i]))
            except IllegalActionError as exc:
                msg = f"game {i} of {n}: {exc}"
                raise IllegalActionError(msg, action=exc.action, rule_id=exc.rule_id) from None
        return chosen

    def close_extras(self, **kwargs: Any) -> None:
        """Stop lending views to the agents."""
        for runner in self.runners:
            runner.close()


def vector_env(
    game: str,
    num_envs: int,
    players: int | None = None,
    *,
    seat: int = 0,
    opponents: str | Any | Sequence[str | Any] = "random",
    rules: Sequence[str] = (),
    without: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    rewards: str = "win",
    max_actions: int | None = None,
    reaction: float | Sequence[float] = 0.5,
    wait: bool = False,
    copy: bool = True,
) -> BatchEnv:
    """Return *num_envs* games of *game*, the learner in *seat* against *opponents*, batched.

    >>> envs = vector_env("golf", 64, opponents="random", options={"rounds": 1})  # doctest: +SKIP
    >>> obs, infos = envs.reset(seed=7)  # doctest: +SKIP
    >>> obs["observation"].shape  # doctest: +SKIP
    (64, ...)

    The parameters are those of :func:`~cardcore.rl.gym_env`, with *copy* as for
    :class:`BatchEnv`.
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
    return BatchEnv(config, num_envs, seat, opponents, copy=copy)
