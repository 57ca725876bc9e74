"""How the core calls plugin code it resolved: plain call chains and the hook mark.

Split from :mod:`cardcore.plugins` so that module keeps to finding and
configuring plugins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardcore._markers import hookimpl


class HookMark:
    """The mark resolved hooks leave when they run: :attr:`Ruleset.hook_mark`'s holder.

    A slotted object, so the driver reads it in a few instructions after every apply.
    """

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


def plain_chain(
    funcs: tuple[tuple[Callable[..., Any], tuple[str, ...]], ...], first: bool
) -> Callable[..., Any]:
    """One callable for the implementations *funcs* (``firstresult`` when *first*)."""
    if first:
        if len(funcs) == 1:
            func, names = funcs[0]
            return lambda **kw: func(*[kw[n] for n in names])

        def call_first(**kw: Any) -> Any:
            for func, names in funcs:
                result = func(*[kw[n] for n in names])
                if result is not None:
                    return result
            return None

        return call_first

    def call_all(**kw: Any) -> list[Any]:
        out = []
        for func, names in funcs:
            result = func(*[kw[n] for n in names])
            if result is not None:
                out.append(result)
        return out

    return call_all


class ScoresUnchanged:
    """The core's last answer to ``score_round``, registered only where a rule implements it."""

    @hookimpl(trylast=True)
    def score_round(self, scores: Sequence[int]) -> list[int]:
        return list(scores)
