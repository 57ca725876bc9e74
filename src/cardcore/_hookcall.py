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


def vetoes_checked(
    chain: Callable[..., list[Any]], plugins: Sequence[str]
) -> Callable[..., list[Any]]:
    """Wrap the ``forbid_action`` chain so an answer that is not a :class:`~cardcore.Veto`
    (``False``, ``True``, a string) is a :class:`~cardcore.PluginError`, not a veto."""
    from cardcore._text import shown
    from cardcore.errors import PluginError
    from cardcore.info import Veto

    named = ", ".join(plugins)

    def forbid_action(**kw: Any) -> list[Any]:
        answers = chain(**kw)
        for answer in answers:
            if not isinstance(answer, Veto):
                msg = (
                    f"a forbid_action hook ({named}) answered {shown(answer)}: it must answer"
                    " a Veto to forbid the action, or None to allow it"
                )
                raise PluginError(msg, plugin=plugins[0] if len(plugins) == 1 else None)
        return answers

    return forbid_action
