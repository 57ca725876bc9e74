"""Determinized worlds: a clone whose hidden cards are dealt again, for search agents.

Split from :mod:`cardcore._driver`, which keeps to applying actions.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter, deque
from itertools import chain
from typing import TYPE_CHECKING, Any

from cardcore._driver import BASE_EVERY, COLD, cause, plugin_error
from cardcore._hookcall import guarded
from cardcore._text import shown
from cardcore.deck import derive_rng
from cardcore.errors import CardcoreError, OptionError, PluginError

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["derive_seed", "determinized"]

TRIES = 64
"""Re-deals :meth:`cardcore.Game.determinize` tries for a world the game's
``check_position`` accepts; after them it keeps the last (as the game deals it)."""


def derive_seed(seed: int, purpose: str) -> int:
    """A seed of 63 bits drawn from *seed* for *purpose*, the same on every platform."""
    digest = hashlib.blake2b(f"{purpose}:{seed}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def determinized(new: Game, seat: int, seed: int) -> Game:
    """Re-deal what *seat* cannot see in the clone *new*, and give it a future of its own.

    The hidden cards come from ``derive_rng(seed, 0)``; the clone's seed becomes one
    derived from *seed* and its chance counter starts again, so every later shuffle
    of the clone comes from the caller's stream, never from the game's seed.
    """
    if type(seed) is not int or not 0 <= seed < 2**128:
        msg = f"seed must be an int from 0 below 2**128; {shown(seed)} is not one"
        raise OptionError(msg)  # as new_game's
    state = new._state
    new.seed = state.seed = derive_seed(seed, "determinize")  # before any hook: never the game's
    state.draws = 1
    determinize = _chain(new)
    if determinize is not None:
        rng = derive_rng(seed, 0)
        # a world the game's rules refuse is no world the seat is in (unless the real one is)
        tries = 1 if _refused(new) else TRIES
        for _ in range(tries):
            _redeal(new, determinize, seat, rng)
            if tries == 1 or not _refused(new):
                break
    new._legal_v = -1
    new._hot = COLD
    new._determinized = True
    new._checkpoints = deque(maxlen=2) if new._realtime else new._checkpoints
    new._base = (new.version, state.clone())
    new._next_base = min(new.version + BASE_EVERY, new._bound)
    return new


def _chain(new: Game) -> Any:
    """*new*'s ``determinize`` chain as one callable answering ``(answer, plugin)``: the
    answer and the plugin that gave it (the last asked when none did; ``None`` behind
    a wrapper, where pluggy does not say), so a bad answer names the plugin that gave
    it, not a house rule that passed (answered ``None``) before it. ``None``: no
    implementation."""
    ruleset = new.ruleset
    impls = list(reversed(ruleset.pm.hook.determinize.get_hookimpls()))
    if not impls:
        return None
    if any(i.wrapper or i.hookwrapper for i in impls):
        whole = ruleset.resolve("determinize", track=False)
        assert whole is not None
        return lambda **kw: (whole(**kw), None)
    house = set(ruleset.rule_names)
    funcs = [
        (
            i.plugin_name,
            guarded(i.function, i.plugin_name, "determinize")
            if i.plugin_name in house
            else i.function,
            tuple(i.argnames),
        )
        for i in impls
    ]

    def call(**kw: Any) -> tuple[Any, str | None]:
        name = None
        for name, func, args in funcs:
            answer = func(*[kw[a] for a in args])
            if answer is not None:
                return answer, name
        return None, name

    return call


def _redeal(new: Game, determinize: Any, seat: int, rng: random.Random) -> None:
    """Run the game's ``determinize`` once on *new*'s state; refuse an answer that is not
    ``True`` or a re-deal that did not keep every card (a ``PluginError`` naming it)."""
    state = new._state
    before = list(chain.from_iterable(state.zones.cards))
    try:
        answer, plugin = determinize(state=state, seat=seat, rng=rng)
    except PluginError:
        raise
    except Exception as exc:  # an OptionError too: the seed was checked, this is the plugin's
        raise (error := plugin_error(new, exc, "determinize")) from cause(error, exc)
    after = list(chain.from_iterable(state.zones.cards))
    kept = len(after) == len(before) and (  # the same cards (equal copies will do)
        sorted(map(id, after)) == sorted(map(id, before)) or Counter(after) == Counter(before)
    )
    if answer is not True or not kept:  # the core's own answers True: one said otherwise
        names = [i.plugin_name for i in reversed(new.ruleset.pm.hook.determinize.get_hookimpls())]
        if answer is not True:
            why = f"answered {shown(answer, 40)}, not True (re-dealt) or None (left to the next)"
        elif len(after) != len(before):
            why = f"left {len(after)} cards on the table, not {len(before)}: a re-deal must keep every card"
        else:
            why = "left other cards than it took (one twice, another gone): a re-deal must keep every card"
        blamed = plugin or names[0]
        msg = f"determinize of {blamed!r} (the chain: {', '.join(names)}) {why}"
        raise PluginError(msg, plugin=blamed)


def _refused(new: Game) -> bool:
    """Whether the game's :meth:`~cardcore.GameLogic.check_position` refuses *new*'s state
    (a world its rules would already have moved on from: the seat knows it is not in it)."""
    try:
        new.logic.check_position(new._state)
    except OptionError:
        return True
    except CardcoreError:
        raise
    except Exception as exc:
        raise (error := plugin_error(new, exc, "check_position")) from cause(error, exc)
    return False
