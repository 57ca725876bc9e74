"""How the core calls plugin code it resolved: plain call chains and the hook mark.

Split from :mod:`cardcore.plugins` so that module keeps to finding and
configuring plugins.
"""

from __future__ import annotations

import contextlib
import difflib
import enum
import functools
import inspect
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

from cardcore import _blame
from cardcore._bus import Observers
from cardcore._markers import hookimpl
from cardcore._marks import counted_class
from cardcore._text import shown
from cardcore.errors import PluginError

if TYPE_CHECKING:
    from cardcore.plugins import Ruleset


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


def wrappers_checked(impls: Sequence[Any], kind: type, wanted: str) -> list[str]:
    """Make each new-style wrapper among the hook implementations *impls* check its own
    answer is a *kind*, so a wrong one names that wrapper, not a wrapper around it that
    passed it on; return the wrappers' plugins' names (old-style ones too)."""
    from cardcore._text import shown

    def checked(func: Callable[..., Any], plugin: str) -> Callable[..., Any]:
        def wrapper(*args: Any) -> Any:
            answer = yield from func(*args)
            if type(answer) is not kind:
                msg = f"a {plugin!r} wrapper answered {shown(answer)}: it must return {wanted}"
                raise PluginError(msg, plugin=plugin)
            return answer

        wrapper.__wrapped__ = func  # type: ignore[attr-defined]  # its code names the plugin
        # a code object of its own, named for the plugin: pluggy names a wrapper that breaks its
        # protocol (never yields) by its code's name and place, and the core maps codes to plugins
        wrapper.__code__ = wrapper.__code__.replace(co_name=f"{plugin} {func.__name__}")
        return wrapper

    for impl in impls:
        if impl.wrapper and not getattr(impl.function, "_checked", False):
            impl.function = checked(impl.function, impl.plugin_name)
            impl.function._checked = True
    return [i.plugin_name for i in impls if i.wrapper or i.hookwrapper]


def sizes_checked(impls: Sequence[Any]) -> None:
    """Make each plain ``forbid_action`` implementation among *impls* that takes the state
    compare the size of every pile around its call, so a veto that adds, removes or moves
    a card (changing a pile's size) is refused naming its own plugin (the caller restores
    the state). Wrappers are checked around the whole chain (:func:`vetoes_checked`)."""

    def checked(func: Callable[..., Any], plugin: str, at: int) -> Callable[..., Any]:
        def veto(*args: Any) -> Any:
            piles = getattr(getattr(args[at], "zones", None), "cards", None)
            if piles is None:  # asked through Ruleset.resolve without a game's state
                return func(*args)
            sizes = list(map(len, piles))
            answer = func(*args)
            if list(map(len, piles)) != sizes:
                msg = (
                    f"the forbid_action of {plugin!r} moved, added or removed cards (piles of"
                    f" {sizes} cards before): a veto must only read the state"
                )
                raise PluginError(msg, plugin=plugin)
            return answer

        veto.__wrapped__ = func  # type: ignore[attr-defined]  # its code names the plugin
        return veto

    for impl in impls:
        if impl.wrapper or impl.hookwrapper or getattr(impl.function, "_sized", False):
            continue
        if "state" in impl.argnames:
            impl.function = checked(impl.function, impl.plugin_name, impl.argnames.index("state"))
            impl.function._sized = True


def vetoes_checked(
    chain: Callable[..., list[Any]], plugins: Sequence[str], wrappers: Sequence[str] = ()
) -> Callable[..., list[Any]]:
    """Wrap the ``forbid_action`` chain so an answer that is not a :class:`~cardcore.Veto`
    (``False``, ``True``, a string) is a :class:`~cardcore.PluginError`, not a veto, and
    so is a whole answer that is not a list (a *wrappers*' ``None``, or a generator that
    would veto everything by being true)."""
    from cardcore._text import shown
    from cardcore.info import Veto

    named = ", ".join(plugins)
    blamed = [*wrappers[-1:], *plugins[-1:]]  # the outermost wrapper's answer is returned

    def not_a_list(answer: Any) -> PluginError:
        msg = (
            f"the forbid_action hooks ({named}) answered {shown(answer)}: a wrapper must"
            " return a list of Vetoes (the one it was given, or its own)"
        )
        return PluginError(msg, plugin=blamed[0])

    def refused(answer: Any) -> PluginError:
        if answer is None:  # pluggy leaves a plain hook's None out: a wrapper put it in
            msg = (
                f"the forbid_action hooks ({named}) answered a list holding None: a wrapper's"
                " list must hold only Vetoes (a hook allows an action by answering None)"
            )
            return PluginError(msg, plugin=blamed[0])
        msg = (
            f"a forbid_action hook ({named}) answered {shown(answer)}: it must answer"
            " a Veto to forbid the action, or None to allow it"
        )
        return PluginError(msg, plugin=plugins[0] if len(plugins) == 1 else None)

    def moved(sizes: list[int]) -> PluginError:
        msg = (
            f"a forbid_action hook ({named}) moved, added or removed cards (piles of"
            f" {sizes} cards before): a veto must only read the state"
        )
        return PluginError(msg, plugin=plugins[0] if len(plugins) == 1 else None)

    def forbid_action(**kw: Any) -> list[Any]:
        piles = (
            getattr(getattr(kw.get("state"), "zones", None), "cards", None) if wrappers else None
        )
        if piles is not None:  # a wrapper's change (each plain veto checks itself: sizes_checked)
            sizes = list(map(len, piles))
            answers = chain(**kw)
            if list(map(len, piles)) != sizes:  # the caller restores the state (a hook failed)
                raise moved(sizes)
        else:
            answers = chain(**kw)
        if type(answers) is not list:
            raise not_a_list(answers)
        for i, answer in enumerate(answers):
            if not isinstance(answer, Veto):
                raise refused(answer)
            if (
                type(answer) is not Veto
                or type(answer.rule_id) is not str
                or type(answer.reason) is not str
            ):
                answers[i] = plain_veto(answer, refused)
        return answers

    return forbid_action


def plain_veto(veto: Any, refused: Callable[[Any], PluginError]) -> Any:
    """*veto* (a Veto subclass, or text that is a ``str`` subclass) as a plain
    :class:`~cardcore.Veto` of plain text, so formatting it later runs no plugin code."""
    from cardcore.info import Veto

    try:
        rule_id, reason = veto.rule_id, veto.reason
        if isinstance(rule_id, str) and rule_id and isinstance(reason, str):
            return Veto(str.__str__(rule_id), str.__str__(reason))
    except Exception as exc:
        raise refused(veto) from exc
    raise refused(veto)


def no_such_hook(pm: pluggy.PluginManager, game: str, name: object) -> PluginError:
    """The error for a hook name no specification of *game*'s manager has (with the
    closest names, for a typo)."""
    known = sorted(n for n, c in vars(pm.hook).items() if getattr(c, "spec", None))
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6) if type(name) is str else ()
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    return PluginError(f"{shown(name, 60)} is not a hook of {game!r}{hint}", plugin=game)


def message_of(exc: BaseException) -> str:
    """*exc*'s message as plain text (at most 300 characters), even if its ``__str__`` fails."""
    try:
        text = str(exc)
        text = str.__str__(text) if isinstance(text, str) else "?"
    except Exception:
        return f"<the message of the {type(exc).__name__} could not be read>"
    return text if len(text) <= 300 else text[:300] + "..."


def hook_failure(plugin: str, where: str, exc: BaseException) -> PluginError:
    """The :class:`~cardcore.PluginError` for house rule *plugin* raising *exc* in *where*."""
    msg = f"plugin {plugin!r} raised {type(exc).__name__} in {where}: {message_of(exc)}"
    return PluginError(msg, plugin=plugin)


def guarded(
    func: Callable[..., Any],
    plugin: str,
    where: str,
    before: Callable[[], None] | None = None,
    after: Callable[[Any], Any] | None = None,
    answered: bool = False,
) -> Callable[..., Any]:
    """*func*, a house rule's code, so that an exception it raises is a
    :class:`~cardcore.PluginError` naming *plugin* and *where* (the hook), raised from it.

    A ``BaseException`` that is not an ``Exception`` (``KeyboardInterrupt``) passes as it
    is, and so do the errors :func:`_passes` lets through. An answer that is an instance
    of a subclass of ``int`` (or a list or tuple holding some) comes back as plain ints:
    only its value may reach the state, never its code (a sum that stays of the subclass
    would make the game's save unreadable). *before* runs before each call (the hook
    mark), *after* receives the answer and returns what the caller gets (answers tracked).
    *answered*: *func* is a function a hook answered, called in play, where an
    ``OptionError`` refuses no option of the caller's: it is the rule's failure too."""

    def call(*args: Any, **kw: Any) -> Any:
        if before is not None:
            before()
        try:
            answer = func(*args, **kw)
        except Exception as exc:
            if passes(exc, plugin, answered):
                raise
            raise hook_failure(plugin, where, exc) from exc
        kind = type(answer)
        if kind is not int and kind is not list and kind is not tuple:
            answer = _plain_int(answer)
        elif kind is not int:  # a list or tuple: its int subclasses (one level) as ints
            answer = kind(_plain_int(x) for x in answer)
        return answer if after is None else after(answer)

    with contextlib.suppress(Exception):  # shown by its own name in messages
        functools.update_wrapper(call, func)
    call._guarded = call  # type: ignore[attr-defined]  # (itself: a copy made by wraps is not)
    return call


def passes(exc: Exception, plugin: str, answered: bool = False) -> bool:
    """Whether *exc*, raised by house rule *plugin*'s code, reaches the caller as it is
    (:func:`_passes`; not an ``OptionError`` from a function a hook *answered*); a
    :class:`~cardcore.PluginError` that names no plugin (nor says none of several) is
    named *plugin* on its way."""
    if isinstance(exc, PluginError):
        if exc.plugin is None and not _blame.is_blamed(exc):
            exc.plugin = plugin
        return True
    return not answered and _passes(exc)


def _passes(exc: Exception) -> bool:
    """Whether *exc*, raised by a house rule, reaches the caller as it is (see :func:`guarded`):
    a :class:`~cardcore.PluginError` (it names its plugin already) or an
    :class:`~cardcore.OptionError` (the rule refuses the caller's options). Any other
    error, a cardcore one included (an ``UnknownPluginError`` from a call the rule made),
    says nothing true about the caller's action, so it becomes a PluginError naming the rule."""
    from cardcore.errors import OptionError

    return isinstance(exc, PluginError | OptionError)


def guarded_chain(
    ruleset: Ruleset, hook: str, call: Callable[..., Any], track: bool = True
) -> Callable[..., Any]:
    """A hook called through pluggy (it has wrappers): an exception whose innermost plugin
    frame is a house rule's is a :class:`~cardcore.PluginError` naming that rule and *hook*.
    Each house rule's implementation (not a wrapper) is called through :func:`named_call`,
    so a bad :class:`~cardcore.Veto` it builds names it, as on the plain chain; the answer's
    int subclasses come back as plain ints, as :func:`guarded` gives them; when *track*, the
    functions a rule answers are guarded as :func:`house_impl` guards them."""
    from cardcore.plugins import plugin_from_traceback

    house = {r.name for r in ruleset.rules}
    wrappers = []  # the house rules' wrappers: a function one answers is guarded below
    for impl in getattr(ruleset.pm.hook, hook).get_hookimpls():
        plain = not (impl.wrapper or impl.hookwrapper or getattr(impl.function, "_named", 0))
        if plain and impl.plugin_name in house:
            impl.function = named_call(
                impl.function, impl.plugin_name, hook if track else None, ruleset
            )
        elif impl.plugin_name in house and (impl.wrapper or impl.hookwrapper):
            wrappers.append(str(impl.plugin_name))

    def chain(**kw: Any) -> Any:
        try:
            answer = call(**kw)
        except Exception as exc:
            if _passes(exc):
                raise
            culprit = plugin_from_traceback(ruleset, exc)
            if culprit not in house:
                raise  # the game's own code: the core names the game
            raise hook_failure(culprit, hook, exc) from exc
        answer = _plain_answer(answer, 2)  # (a list hook's answers are each rule's own list)
        if not track:
            return answer
        if wrappers:  # a function a wrapper made is guarded, then every function tracked
            answer = _wrapped_answer(ruleset, hook, answer, wrappers, 2)
        return ruleset._track_answer(answer, 2)

    return chain


def _wrapped_answer(
    ruleset: Ruleset, hook: str, answer: Any, wrappers: list[str], depth: int
) -> Any:
    """*answer*, given through house-rule *wrappers*, with each function in it that no rule's
    own implementation guarded (one a wrapper made) guarded: failing later, it names the
    rule whose code failed, or else the wrapper that answered it (the game's own functions
    fail as they are, and the core names the game; of several wrappers, none is named)."""
    if isinstance(answer, type):  # (of several wrappers, none is named)
        return counted_class(ruleset, answer, wrappers[0] if len(wrappers) == 1 else None)
    if getattr(answer, "_guarded", None) is answer:
        return answer  # a rule's own, guarded already
    if callable(answer) and not _blame.is_cores(ruleset, answer):
        from cardcore.plugins import plugin_from_traceback

        where = f"the function its {hook} hook answered"

        def call(*args: Any, **kw: Any) -> Any:
            try:
                return answer(*args, **kw)
            except Exception as exc:
                culprit = plugin_from_traceback(ruleset, exc)
                if culprit is not None and culprit not in {r.name for r in ruleset.rules}:
                    culprit = None  # the game's code, called by the function: not its maker
                if culprit is not None or len(wrappers) == 1:
                    culprit = culprit or wrappers[0]
                    if passes(exc, culprit, answered=True):
                        raise
                    raise hook_failure(culprit, where, exc) from exc
                if isinstance(exc, PluginError) and _blame.is_blamed(exc):
                    raise
                msg = f"a function one of the {hook} wrappers ({', '.join(wrappers)}) answered raised {type(exc).__name__}: {message_of(exc)}"
                error = PluginError(msg)
                error.blamed = True  # type: ignore[attr-defined]  # none of several named
                raise error from exc

        call._guarded = call  # type: ignore[attr-defined]
        return call
    kind = type(answer)
    if depth and (kind is list or kind is tuple):
        return kind(_wrapped_answer(ruleset, hook, a, wrappers, depth - 1) for a in answer)
    return answer


def _plain_answer(answer: Any, depth: int) -> Any:
    """*answer* with its int subclasses as plain ints, in lists and tuples *depth* deep."""
    kind = type(answer)
    if kind is int:
        return answer
    if kind is list or kind is tuple:
        if depth > 1:
            return kind(_plain_answer(x, depth - 1) for x in answer)
        return kind(_plain_int(x) for x in answer)
    return _plain_int(answer)


def named_call(
    func: Callable[..., Any], plugin: str, hook: str | None = None, ruleset: Ruleset | None = None
) -> Callable[..., Any]:
    """*func*, a house rule's hook implementation that pluggy calls, called in a frame whose
    ``plugin`` names the rule (what ``cardcore.info`` looks for, as in :func:`guarded`'s);
    its errors pass unchanged. Given *hook*, the functions it answers (a scorer; in lists
    and tuples two deep) are :func:`guarded`, naming the rule when they fail later, as
    without a wrapper (their code may lie outside the rule's module, where no traceback
    finds it), and a class's code is the rule's (a wrapper passing it on did not make it);
    otherwise its answers pass unchanged too."""
    answered = f"the function its {hook} hook answered"

    def guard(answer: Any, depth: int = 2) -> Any:
        if isinstance(answer, type):  # (the rule's, before any wrapper sees it)
            return answer if ruleset is None else counted_class(ruleset, answer, plugin)
        if callable(answer):  # a function, or an object called
            return guarded(answer, plugin, answered, answered=True)
        kind = type(answer)
        if depth and (kind is list or kind is tuple):
            return kind(guard(a, depth - 1) for a in answer)
        return answer

    def call(*args: Any, plugin: str = plugin) -> Any:
        return guard(func(*args)) if hook is not None else func(*args)

    call.__wrapped__ = func  # type: ignore[attr-defined]  # its code names the plugin too
    name = getattr(func, "__name__", "hook")
    call.__code__ = call.__code__.replace(co_name=f"{plugin} {name}")  # a code of its own
    call._named = True  # type: ignore[attr-defined]
    return call


def house_impl(
    ruleset: Ruleset, func: Callable[..., Any], plugin: str, hook: str, track: bool
) -> Callable[..., Any]:
    """A house rule's implementation of *hook*, :func:`guarded`; when *track*, each call
    (and each call of a function it answers, such as a scorer) also sets the hook mark."""
    gave = ruleset._gave  # each rule's last answer, per thread: a refusal blames it
    key = (hook, plugin)

    def given(answer: Any) -> Any:
        try:  # (None too: an answer of an earlier call is no longer its last)
            gave.last[key] = answer
        except AttributeError:  # the thread's first answer
            gave.last = {key: answer}
        return answer

    if not track:
        return guarded(func, plugin, hook, after=given)
    mark = ruleset.tracked(_nothing)  # calling it sets the mark
    answered = f"the function its {hook} hook answered"

    def track_answer(answer: Any, depth: int = 2) -> Any:
        if isinstance(answer, type):  # a class stays itself, its calls uncounted
            return counted_class(ruleset, answer, plugin)
        if callable(answer):  # a function, or an object called
            return guarded(answer, plugin, answered, mark, answered=True)
        kind = type(answer)
        if depth and (kind is list or kind is tuple):
            return kind(track_answer(a, depth - 1) for a in answer)
        return answer

    return guarded(func, plugin, hook, mark, lambda answer: given(track_answer(answer)))


def _nothing() -> None:
    """What :func:`house_impl`'s mark calls (the mark is set by :meth:`Ruleset.tracked`)."""


def read_only(
    ruleset: Ruleset, hook: str, chain: Callable[..., Any] | None
) -> Callable[..., Any] | None:
    """The resolved *hook* chain (``score_round``), refusing an implementation that changes
    the ``state`` it is given: the hook reads the table, and a card it moved or deleted
    would stay moved once the apply that called it went through. Plain integers come back
    for integer subclasses (an answer's value, never its code, is kept in the state)."""
    if chain is None:
        return None

    def call(**kw: Any) -> Any:
        state = kw.get("state")
        before = None if state is None else state.snapshot()
        answer = chain(**kw)
        if state is not None and state.snapshot() != before:
            hc = getattr(ruleset.pm.hook, hook)
            house = {r.name for r in ruleset.rules}
            names = [i.plugin_name for i in reversed(hc.get_hookimpls()) if i.plugin_name in house]
            msg = (
                f"{hook} ({', '.join(names) or ruleset.game.name}) changed the state it was"
                " given: the hook must only read it"
            )
            raise PluginError(msg, plugin=names[0] if len(names) == 1 else None)
        if isinstance(answer, list):  # read as the base type: a subclass's code never runs
            return [_plain_int(x) for x in list.__iter__(answer)]
        if isinstance(answer, tuple):
            return tuple(_plain_int(x) for x in tuple.__iter__(answer))
        return answer

    return call


def _plain_int(value: Any) -> Any:
    """*value* as a plain ``int`` if it is an instance of a subclass of ``int``: not a bool,
    and not an enum member (``Rank.ACE``: a game's own values, meant as they are)."""
    if (
        isinstance(value, int)
        and type(value) is not int
        and not isinstance(value, bool | enum.Enum)
    ):
        return int.__index__(value)
    return value


def observers(pm: pluggy.PluginManager) -> Observers:
    """The plain ``on_event`` implementations of *pm*, in call order, with their plugins' names.

    :raises PluginError: An ``on_event`` marked as a wrapper: observers are called one by
        one, never as a chain, so it would silently never run.
    """
    impls = list(reversed(pm.hook.on_event.get_hookimpls()))
    for i in impls:
        if i.wrapper or i.hookwrapper:
            msg = (
                f"plugin {i.plugin_name!r}: on_event observes events one by one and is"
                " never a wrapper (drop wrapper=True or hookwrapper=True)"
            )
            raise PluginError(msg, plugin=i.plugin_name)
    return Observers((i.function for i in impls), (i.plugin_name for i in impls))


_HOOK_NAMED = re.compile(r"for hook '([^']+)'|\nhook '([^']+)'")


def spec_mismatch(
    pm: pluggy.PluginManager, exc: pluggy.PluginValidationError, registering: str
) -> PluginError:
    """Say once, in the core's words, why pluggy refused a hook implementation.

    For arguments the specification lacks: the plugin, the hook, the function, the
    arguments it does not offer and those it does. Other refusals keep pluggy's
    reason, without its repeated heading.
    """
    bad = pm.get_name(exc.plugin) or registering
    text = str(exc)
    found = _HOOK_NAMED.search(text)
    hook = (found.group(1) or found.group(2)) if found else None
    hc = getattr(pm.hook, hook, None) if hook else None
    spec: Any = getattr(hc, "spec", None)
    func, unknown, offered = None, [], set(getattr(spec, "argnames", ()))
    offered.update(getattr(spec, "kwargnames", ()))
    for attr in dir(exc.plugin) if spec is not None else ():
        opts = pm.parse_hookimpl_opts(exc.plugin, attr)
        if opts is not None and (opts.get("specname") or attr) == hook:
            func = getattr(exc.plugin, attr)
            impl = pluggy.HookImpl(exc.plugin, bad, func, opts)
            unknown = [a for a in impl.argnames if a not in offered]
            break
    if spec is not None and func is not None and unknown:
        offers = ", ".join(spec.argnames) or "no arguments"
        names = ", ".join(repr(a) for a in unknown)
        msg = (
            f"plugin {bad!r} implements hook {hook!r} as {_signature(func)}, but {hook!r} has"
            f" no argument {names} (it offers: {offers}; an implementation takes any of them, by name)"
        )
    else:
        lines = [
            line
            for line in text.splitlines()
            if line.strip() and not line.startswith(("Plugin ", "hook "))
        ]
        where = f", hook {hook!r}" if hook else ""
        msg = f"plugin {bad!r}{where} is refused: {' '.join(' '.join(lines).split())}"
    return PluginError(msg, plugin=bad)


def _signature(func: Any) -> str:
    try:
        return f"{func.__name__}{inspect.signature(func)}"
    except (TypeError, ValueError, AttributeError):
        return shown(func)


_WRAPFAIL = re.compile(r"wrap_controller at '([^']*)' (.+):(\d+) ")


def wrapper_at_fault(codes: dict[Any, str], exc: BaseException) -> str | None:
    """The plugin of the wrapper pluggy names when one breaks its protocol (yields twice,
    never yields): pluggy raises a ``RuntimeError`` of its own, with no frame of the
    wrapper in the traceback, but its message gives the wrapper's code's place."""
    if type(exc) is not RuntimeError or not str(exc).startswith("wrap_controller at "):
        return None
    found = _WRAPFAIL.match(str(exc))
    if found is None:
        return None
    name, path, line = found.group(1), found.group(2), int(found.group(3))
    for code, plugin in codes.items():
        if (code.co_name, code.co_filename, code.co_firstlineno) == (name, path, line):
            return plugin
    return None
