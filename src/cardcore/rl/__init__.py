"""Reinforcement learning: PettingZoo and Gymnasium environments for every installed game.

Needs the ``rl`` extra (pettingzoo, gymnasium, numpy); numpy lives here only,
game hooks answer with plain Python values.

* :func:`aec_env`: a PettingZoo ``AECEnv`` for any game, rules and options;
* :func:`gym_env`: one seat as a Gymnasium environment against installed agents;
* :func:`vector_env`: N such games stepped in one process, Gymnasium vector style;
* :func:`observe`: one seat's observation and action mask of any :class:`~cardcore.Game`.

Observations follow the PettingZoo classic convention, ``{"observation": float32
array, "action_mask": int8 array}``, over a fixed ``Discrete`` action space per
configuration. A game's own encoding (``GameLogic.rl_encoding``) gives every
action a fixed index; any other game gets :class:`GenericEncoding` (card planes
from the declared zones and fields, the i-th legal action). See ``docs/rl.rst``.
"""

from __future__ import annotations

from typing import Any

try:  # the rl extra: a missing package is named with the extra that brings it
    import gymnasium  # noqa: F401
    import numpy as np
    import numpy.typing as npt
    import pettingzoo  # type: ignore[import-untyped]  # noqa: F401
except ImportError as exc:
    _msg = (
        "cardcore.rl needs the rl extra (pettingzoo, gymnasium, numpy): pip install"
        f" 'cardcore[rl]' (in a checkout: pip install -e '.[rl]'); {exc}"
    )
    _kind = ModuleNotFoundError if isinstance(exc, ModuleNotFoundError) else ImportError
    raise _kind(_msg, name=exc.name) from exc  # (pytest.importorskip skips on the first)

from cardcore._text import shown
from cardcore.errors import ArgumentError
from cardcore.game import Game
from cardcore.rl.aec import CardEnv, NotResetError, aec_env
from cardcore.rl.encoding import (
    DEFAULT_MAX_LEGAL,
    Encoding,
    GenericEncoding,
    Observer,
    encoding_for,
    misfit,
    seat_view,
)
from cardcore.rl.match import MAX_REACTION, Config, Match, as_int, win_rewards
from cardcore.rl.seat import SeatEnv, SeatRunner, gym_env
from cardcore.rl.vector import BatchEnv, vector_env

__all__ = [
    "DEFAULT_MAX_LEGAL",
    "MAX_REACTION",
    "BatchEnv",
    "CardEnv",
    "Config",
    "Encoding",
    "GenericEncoding",
    "Match",
    "NotResetError",
    "Observer",
    "SeatEnv",
    "SeatRunner",
    "aec_env",
    "encoding_for",
    "gym_env",
    "observe",
    "seat_view",
    "vector_env",
    "win_rewards",
]


def observe(game: Game, seat: int, encoding: Encoding | None = None) -> dict[str, npt.NDArray[Any]]:
    """Return *seat*'s observation and action mask of *game* now, as the environments give them:
    a dict ``{"observation": ..., "action_mask": ...}`` of numpy arrays. (An environment
    built with ``wait=True`` adds one last index to the mask, set whenever another is.)

    Only what *seat* may see goes in: two games the seat cannot tell apart (such
    as ``game.determinize(seat, seed)``) give it the same arrays.

    :param encoding: Default: the configuration's (:func:`encoding_for`); pass one to
        encode many games of one configuration without building it each time (an
        encoding of that same game, seats, rules and options).
    :raises ArgumentError: *game* is not a :class:`~cardcore.Game`, or *encoding* is
        not an encoding of its configuration (one from :func:`encoding_for` of another
        game, seats, rules or options; any other where that shows: another number of
        seats, or a view it cannot read).
    :raises SeatError: *seat* is not a seat of *game*.
    """
    if not isinstance(game, Game):
        msg = f"observe takes a Game, not {shown(game)}"
        raise ArgumentError(msg)
    plain = as_int(seat)  # a numpy integer, as the environments take it
    seat = seat if plain is None else plain
    legal = game.legal_actions(seat)  # checks the seat, over or not (SeatError)
    if encoding is None:
        obs, mask, _ = Observer(encoding_for(game)).arrays(game, seat, legal)
        return {"observation": obs, "action_mask": mask.astype(np.int8)}
    unfit = f"encoding {shown(encoding)} is not an encoding of this {game.name} game"
    reason = misfit(encoding, game)
    if reason is not None:
        msg = f"{unfit}: {reason}"
        raise ArgumentError(msg)
    try:
        obs, mask, _ = Observer(encoding).arrays(game, seat, legal)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        seats = "1 seat" if len(game.players) == 1 else f"{len(game.players)} seats"
        name = exc.name if isinstance(exc, AttributeError) and exc.obj is encoding else None
        why = f"it has no {shown(name, 40)}" if name else f"it failed ({type(exc).__name__})"
        msg = f"{unfit} ({seats}, its rules and options): {why}"
        raise ArgumentError(msg) from exc
    return {"observation": obs, "action_mask": mask.astype(np.int8)}
