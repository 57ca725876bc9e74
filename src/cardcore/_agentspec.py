"""Agent specs: ``NAME:KEY=VALUE,...`` read into a name and parameters, and checked.

The one convention for agents' parameters (:func:`cardcore.load_agent`, the
command line's ``--agents``); re-exported by :mod:`cardcore.plugins`.
"""

from __future__ import annotations

import difflib
import inspect
import numbers
import sys
from collections.abc import Mapping
from typing import Any

from cardcore._text import shown
from cardcore.errors import ArgumentError, CardcoreError, OptionError

__all__ = [
    "build_agent",
    "check_agent_bounds",
    "check_agent_params",
    "check_seedable",
    "parameters_of",
    "parse_agent_spec",
    "seats_named",
    "split_agent_specs",
]


def check_agent_params(name: str, factory: Any, params: Mapping[str, Any]) -> None:
    """Raise :class:`OptionError` if agent *name* (built by *factory*) takes no parameter of *params*.

    Agents whose factory takes ``**kwargs`` accept every name.

    :raises ArgumentError: *params* is not a mapping.
    """
    if not isinstance(params, Mapping):
        raise ArgumentError(f"an agent's parameters are a mapping, not {shown(params, 40)}")
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return
    values = sig.parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in values):
        return
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    known = [p.name for p in values if p.kind in kinds]
    for key in params:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            takes = ", ".join(known) or "none"
            msg = f"agent {name!r} has no parameter {shown(key)} (it takes: {takes}){hint}"
            raise OptionError(msg)


def check_seedable(name: str, factory: Any, params: Mapping[str, Any], who: str) -> None:
    """Raise :class:`OptionError` if agent *name* takes no ``seed`` keyword and *params* give
    none: *who* (``simulate``, ``compare``) builds every agent as ``factory(seed=...)``."""
    if "seed" in params:
        return  # checked with the other parameters
    try:
        check_agent_params(name, factory, {"seed": 0})
    except OptionError:
        msg = (
            f"agent {name!r} takes no seed keyword, and {who} builds each game's agents as"
            f" factory(seed=...) so that a study replays: give it a seed parameter"
            " (seed=None is fine)"
        )
        raise OptionError(msg) from None


def check_agent_bounds(name: str, factory: Any, params: Mapping[str, Any]) -> None:
    """Raise :class:`OptionError` if a value of *params* is outside the bounds agent *name* declares.

    An agent class declares the range of each numeric parameter whose size costs
    time or memory as a class attribute, ``parameter_bounds = {"iterations": (1, 2_000)}``
    (lowest and highest, both allowed). A bounded parameter takes an ``int`` or a
    ``float`` (not a ``bool``, not NaN) in its range, or ``None`` (the agent decides
    whether ``None`` means something). The bounds keep one decision short wherever an
    agent is built by name (:func:`cardcore.load_agent`, ``--agents``, the web lobby);
    constructing the class directly in Python is not bounded. A ``seed`` given by name
    is never negative: Python's generator reads ``-1`` as ``1``, so two seeds would play
    one game.
    """
    seed = params.get("seed")
    if type(seed) is int and seed < 0:
        msg = f"agent {name!r}: seed must be a whole number of at least 0, not {_show(seed)} (a generator reads -1 as 1)"
        raise OptionError(msg)
    bounds = getattr(factory, "parameter_bounds", None)
    if not isinstance(bounds, Mapping):
        return
    for key, value in params.items():
        span = bounds.get(key)
        if span is None or value is None:
            continue
        low, high = span
        if type(value) not in (int, float, bool) and isinstance(value, numbers.Real):
            kind = f"{type(value).__module__}.{type(value).__name__}"
            msg = (
                f"agent {name!r}: {key} must be a Python int or float, not a {kind}"
                f" ({_show(value)}): convert it with int() or float()"
            )
            raise OptionError(msg)
        if type(value) not in (int, float) or not low <= value <= high:
            msg = f"agent {name!r}: {key} must be a number from {low} to {high}, not {_show(value)}"
            raise OptionError(msg)


def _show(value: Any) -> str:
    """*value*'s repr, cut short (and an int too long to print is described, not printed)."""
    try:
        text = repr(value)
    except ValueError:  # an int beyond sys.get_int_max_str_digits()
        return "an integer of thousands of digits"
    except Exception:  # a list nested too deep (RecursionError), a broken __repr__
        return f"<a {type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def _agent_value(key: str, text: str) -> Any:
    """A parameter's text as the value it spells: null, a bool, an int, a float, else the text.

    :raises OptionError: A whole number longer than Python reads (4,300 digits), which
        ``float()`` would have read as infinity.
    """
    low = text.lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if not text.isascii() or "_" in text:  # a number is ASCII digits, as on the command line
        return text  # ('1_0', '\u0663' stay text, which a number parameter refuses)
    try:
        return int(text)
    except ValueError:
        digits = text[1:] if text[:1] in ("+", "-") else text
        if digits.isdigit():
            msg = (
                f"agent parameter {shown(key)} is a whole number of {len(digits)} digits:"
                f" at most {sys.get_int_max_str_digits()} are read"
            )
            raise OptionError(msg) from None
    try:
        return float(text)
    except ValueError:
        pass
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Read an agent spec, ``NAME`` or ``NAME:KEY=VALUE,KEY=VALUE``, into its name and parameters.

    Values are read as ``none``/``null``, ``true``/``false``, whole numbers,
    numbers, or else text. Empty pieces are skipped: ``random:`` is ``random``, and
    ``ismcts:iterations=50,`` takes one parameter.

    >>> parse_agent_spec("ismcts:iterations=200,seed=7")
    ('ismcts', {'iterations': 200, 'seed': 7})

    :raises OptionError: A malformed spec (no name, a parameter without ``=``, one named
        twice, a whole number of more than 4,300 digits).
    """
    if not issubclass(type(spec), str):  # the real type, not a claim through __class__
        msg = f"an agent is a name like 'random' or 'ismcts:iterations=200', not {shown(spec, 60)}"
        raise OptionError(msg)
    spec = str.__str__(spec)  # plain: a subclass could split its own way
    name, colon, rest = spec.partition(":")
    name = name.strip()
    if not name or any(ch in name for ch in "=, "):
        msg = f"an agent spec starts with the agent's name (NAME:KEY=VALUE,...), not {shown(spec)}"
        raise OptionError(msg)
    params: dict[str, Any] = {}
    for part in rest.split(",") if colon else ():
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            msg = f"agent parameters are KEY=VALUE, not {shown(part)} (in {shown(spec)})"
            raise OptionError(msg)
        if key in params:
            msg = f"agent parameter {shown(key)} is given twice (in {shown(spec)})"
            raise OptionError(msg)
        params[key] = _agent_value(key, value.strip())
    return name, params


def split_agent_specs(text: str) -> list[str]:
    """Split a comma-separated list of agent specs, one per seat.

    A piece with ``=`` and no ``:`` continues the parameters of the spec before it:

    >>> split_agent_specs("ismcts:iterations=200,seed=7,random")
    ['ismcts:iterations=200,seed=7', 'random']

    Blank text names no agent (``[]``). A comma ending a spec's parameters
    (``"random:seed=2,"``) is allowed, as :func:`parse_agent_spec` allows it.

    :raises OptionError: Text that is not a string, or an empty agent name (two commas
        in a row, or one at an end: ``"golf-greedy,,random"`` is not two seats).
    """
    if not issubclass(type(text), str):  # the real type, not a claim through __class__
        msg = f"agent specs are text like 'ismcts:iterations=200,random', not {_show(text)}"
        raise OptionError(msg)
    text = str.__str__(text)
    if not text.strip():
        return []
    specs: list[str] = []
    parts = text.split(",")
    for n, part in enumerate(parts):
        piece = part.strip()
        if not piece:
            if n == len(parts) - 1 and ":" in specs[-1]:  # (specs: every piece before is one)
                continue  # the parameters' own trailing comma
            msg = (
                "agent specs have an empty agent name (two commas in a row, or one at an end):"
                f" {_show(text)}"
            )
            raise OptionError(msg)
        if "=" in piece and ":" not in piece and specs and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def seats_named(*lineups: Any) -> int | None:
    """The seat count the first line-up of several agents names (``None``: none does).

    One spec fills every seat, so only a line-up of two or more says how many seats
    there are, as on the command line (``--agents golf-greedy,random,random``: three).

    >>> seats_named(None, "golf-greedy,random,random")
    3
    """
    for lineup in lineups:
        if isinstance(lineup, str):
            n = len(split_agent_specs(lineup))
        elif isinstance(lineup, list | tuple):
            n = len(lineup)
        else:
            continue
        if n > 1:
            return n
    return None


def build_agent(
    name: str, factory: Any, params: Mapping[str, Any], spec: Mapping[str, Any] | None = None
) -> Any:
    """Build agent *name* with *params* (and *spec*'s, read from ``NAME:KEY=VALUE``), checked
    first (:func:`check_agent_params`, :func:`check_agent_bounds`).

    :raises OptionError: A parameter it does not take (or given both in *spec* and
        *params*: a keyword never overrides the spec), a value outside its declared bounds,
        or a value it refuses.
    """
    if spec:
        if twice := sorted(spec.keys() & params.keys()):
            msg = f"agent {name!r}: parameter {twice[0]!r} given both in the spec and as a keyword"
            raise OptionError(msg)
        params = {**spec, **params}
    check_agent_params(name, factory, params)
    check_agent_bounds(name, factory, params)
    try:
        return factory(**params)
    except CardcoreError:
        raise
    except (TypeError, ValueError) as exc:
        msg = f"agent {name!r} refused its parameters {_show(dict(params))}: {exc}"
        raise OptionError(msg) from None


def parameters_of(factory: Any) -> dict[str, Any]:
    """The keyword parameters *factory* takes, with their defaults (``...`` when required)."""
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return {}
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return {
        p.name: (... if p.default is inspect.Parameter.empty else p.default)
        for p in sig.parameters.values()
        if p.kind in kinds
    }
