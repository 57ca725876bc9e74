"""Finding plugins and building one cached plugin manager per configuration.

Entry points (groups ``cardcore.games``, ``cardcore.rules``, ``cardcore.agents``) are read
once per process. A configuration -- a game and the house rules chosen for it -- gets its
own :class:`pluggy.PluginManager`, built once and cached, so two games with different rules
run side by side and a simulation of a million games builds one manager.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pluggy

from cardcore import _blame, _declared, _earlier, _hookcall, _options, _registered, _registrations
from cardcore._agentspec import (
    build_agent,
    check_agent_params,
    parameters_of,
    parse_agent_spec,
    split_agent_specs,
)
from cardcore._hookcall import ScoresUnchanged, plain_chain, vetoes_checked
from cardcore._markers import hookimpl
from cardcore._marks import HookMark, counted_class
from cardcore._text import plain, plain_texts, shown
from cardcore.errors import (
    ArgumentError,
    CardcoreError,
    OtherGameRuleError,
    PluginError,
    RuleConflictError,
    UnknownPluginError,
)
from cardcore.info import GameInfo, RuleInfo, Veto

if TYPE_CHECKING:
    from cardcore.logic import GameLogic

__all__ = [
    "RULESET_CACHE",
    "Ruleset",
    "agent_parameters",
    "available_agents",
    "available_games",
    "available_rules",
    "check_agent_params",
    "game_info",
    "get_ruleset",
    "hookimpl",
    "load_agent",
    "parse_agent_spec",
    "register",
    "rule_info",
    "split_agent_specs",
    "unregister",
]


GROUPS = ("cardcore.games", "cardcore.rules", "cardcore.agents")

_lock = threading.RLock()
_registry: dict[str, dict[str, Any]] | None = None  # group -> name -> entry point or object
_loaded: dict[tuple[str, str], Any] = {}
_rulesets: OrderedDict[tuple[str, tuple[str, ...]], Ruleset] = OrderedDict()
_TICKS = itertools.count(1)
_bare: dict[str, Ruleset] = {}  # each game with its default rules, for the calls that name no rule

RULESET_CACHE = 256
"""How many configurations (game + rules, under each way of naming them) stay cached.

The least recently used one is dropped beyond that; games already started keep theirs.
"""


def _entries() -> dict[str, dict[str, Any]]:
    global _registry
    if _registry is None:
        with _lock:
            if _registry is None:
                reg: dict[str, dict[str, Any]] = {g: {} for g in GROUPS}
                eps = __import__("importlib.metadata").metadata.entry_points()  # (20 ms: here)
                for group in GROUPS:
                    for ep in eps.select(group=group):
                        reg[group].setdefault(ep.name, ep)
                _registry = reg
    return _registry


def register(group: str, name: str, target: ModuleType | Any) -> None:
    """Register a plugin without an installed entry point (tests, notebooks); one already
    registered or installed under *name* is replaced until :func:`unregister` puts it back (each
    register is undone by one unregister, nested or not: a cell run twice, unregister twice).

    :param group: ``"cardcore.games"``, ``"cardcore.rules"`` or ``"cardcore.agents"``.
    :param name: The name to find it by (``"hearts"``, ``"hearts.jack-of-diamonds"``).
    :param target: The module (games and rules: or any object holding ``GAME``/``RULE`` and
        the hook functions, such as a :class:`types.SimpleNamespace`) or class (agents).
    :raises PluginError: A game or house rule without ``GAME = GameInfo(...)`` or
        ``RULE = RuleInfo(...)``, or whose ``GAME.name`` or ``RULE.name`` is not *name*; an
        agent whose name holds a control character or a direction override, or that an
        agent spec cannot name (empty, or holding ``:``, ``=``, ``,`` or a space).
    :raises ArgumentError: *name* is not text.
    """
    group, name = _registrations.check_group(group, GROUPS), _registrations.check_name(name)
    _registered.check_registered(group, name, target)
    with _lock:
        _registrations.push(_entries()[group], group, name, target)
        _loaded.pop((group, name), None)  # an entry point is loaded at first use, as installed
        if not _registrations.is_entry_point(target):
            _loaded[group, name] = target
        _forget(group, name)


def unregister(group: str, name: str) -> None:
    """Undo the latest :func:`register` of *name*: what it replaced (an installed plugin or
    an earlier registration) comes back, or the name is removed if it held nothing. With no
    registration to undo, an installed plugin of that name is hidden for this process.

    Cached configurations that could use it are dropped.

    :param group: ``"cardcore.games"``, ``"cardcore.rules"`` or ``"cardcore.agents"``.
    :param name: The name it was registered under.
    :raises UnknownPluginError: If nothing is registered under *name*.
    """
    group = _registrations.check_group(group, GROUPS)
    with _lock:
        entries = _entries()[group]
        name = plain(name)  # a StrEnum: its text
        if type(name) is not str or name not in entries:  # (a dict is unhashable)
            msg = f"nothing is registered as {shown(name, 60)} in {group!r}"
            raise UnknownPluginError(msg)
        _registrations.pop(entries, group, name)
        _loaded.pop((group, name), None)
        _forget(group, name)


def _forget(group: str, name: str) -> None:
    """Drop the cached configurations that could use plugin *name* of *group*."""
    for key in [k for k in _rulesets if k[0] == name or group == "cardcore.rules"]:
        del _rulesets[key]
    _bare.clear()
    _earlier.invalidate()
    for forget in _registrations.forgetters:
        forget()


def _load(group: str, name: str) -> Any:
    name = plain(name)  # a StrEnum member: its text
    key = (group, name)
    if type(name) is str and key in _loaded:  # [] would raise TypeError: unhashable
        return _loaded[key]
    entries = _entries()[group]
    if type(name) is not str or name not in entries:
        kind = {
            "cardcore.games": "game",
            "cardcore.rules": "house rule",
            "cardcore.agents": "agent",
        }[group]
        known = ", ".join(sorted(entries)) or "none"
        msg = f"no {kind} called {shown(name, 60)} is installed (installed: {known})"
        raise UnknownPluginError(msg)
    target = entries[name]
    if _registrations.is_entry_point(target):
        try:
            target = target.load()
        except Exception as exc:
            msg = f"plugin {name!r} ({target.value}) failed to load: {exc}"
            raise PluginError(msg, plugin=name) from exc
    _loaded[key] = target
    return target


def available_games() -> tuple[str, ...]:
    """Return the names of the installed games, sorted, importing none (one that fails to
    import is listed too; :func:`game_info` on it raises a :class:`PluginError` naming why)."""
    return tuple(sorted(_entries()["cardcore.games"]))


def game_info(name: str) -> GameInfo:
    """Return the :class:`GameInfo` of the installed game *name*."""
    module = _load("cardcore.games", name := plain(name))  # a str subclass made plain
    info = getattr(module, "GAME", None)
    if not isinstance(info, GameInfo):
        msg = f"game plugin {name!r} has no GAME = GameInfo(...)"
        raise PluginError(msg, plugin=name)
    _declared.check_declared_name("cardcore.games", name, module)
    return info


def rule_info(name: str) -> RuleInfo:
    """Return the :class:`RuleInfo` of the installed house rule *name* (entry-point name or rule ID)."""
    return _rule_module(name)[1]


def _rule_module(name: str) -> tuple[ModuleType, RuleInfo]:
    name = plain(name)
    entries = _entries()["cardcore.rules"]
    if type(name) is not str or name not in entries:
        found = _declared.named_by_id(entries, name, _rule_id)
        if len(found) > 1:  # a rule ID names one rule: refuse to guess
            both = ", ".join(sorted(found))
            msg = f"rule ID {name!r} is declared by several installed house rules ({both}): name one by its name"
            raise PluginError(msg, plugin=sorted(found)[-1])
        name = found[0] if found else name
    module = _load("cardcore.rules", name)
    info = getattr(module, "RULE", None)
    if not isinstance(info, RuleInfo):
        msg = f"house-rule plugin {name!r} has no RULE = RuleInfo(...)"
        raise PluginError(msg, plugin=name)
    _declared.check_declared_name("cardcore.rules", name, module)
    return module, info


def _rule_id(name: str) -> object:
    """The rule ID of installed house rule *name*; ``None`` if it fails to load (a broken
    rule is not the one asked for by ID, and must not hide the one that is)."""
    try:
        return getattr(getattr(_load("cardcore.rules", name), "RULE", None), "id", None)
    except PluginError:
        return None


def available_rules(game: str) -> tuple[str, ...]:
    """Return the entry-point names of the installed house rules for *game*, sorted."""
    game_info(game := plain(game))  # unknown game -> clear error; a str subclass made plain
    out = []
    for name in _entries()["cardcore.rules"]:
        try:
            info = _rule_module(name)[1]
        except PluginError:
            continue
        if info.game == game:
            out.append(name)
    return tuple(sorted(out))


def available_agents() -> tuple[str, ...]:
    """Return the names of the installed agents, sorted."""
    return tuple(sorted(_entries()["cardcore.agents"]))


def load_agent(name: str, /, **params: Any) -> Any:
    """Return the agent class (or factory) registered as *name*; with *params*, an agent.

    Agents' parameters are their factory's keyword arguments: ``load_agent("ismcts",
    seed=7, iterations=200)`` and ``load_agent("ismcts:iterations=200,seed=7")`` build one.

    :raises UnknownPluginError: No agent of that name is installed.
    :raises OptionError: A parameter the agent does not take (or given twice), or a value it refuses.
    """
    name = plain(name)  # a str subclass could compare its own way (base == name below)
    base, spec_params = parse_agent_spec(name) if type(name) is str and ":" in name else (name, {})
    factory = _load("cardcore.agents", base)
    if not params and not spec_params:  # ("random:" is "random")
        return factory
    return build_agent(base, factory, params, spec_params)  # (a keyword given twice: refused)


def agent_parameters(name: str) -> dict[str, Any]:
    """Return the parameters agent *name* takes, with their defaults (``...`` when required)."""
    return parameters_of(_load("cardcore.agents", name))


class Ruleset:
    """One configuration: a game, its chosen house rules and their plugin manager.

    Built once per configuration by :func:`get_ruleset` and shared by every game
    of that configuration; it keeps no per-game state.
    """

    def __init__(
        self,
        game: GameInfo,
        game_module: ModuleType,
        rules: tuple[tuple[ModuleType, RuleInfo], ...],
    ) -> None:
        from cardcore import _defaults, hookspecs

        self.game = game
        """The game's :class:`GameInfo`."""
        self.rules: tuple[RuleInfo, ...] = tuple(info for _, info in rules)
        """The active house rules, sorted by ID."""
        self._house = frozenset(info.name for info in self.rules)
        self._gave = threading.local()  # each rule's last answers (see _hookcall.house_impl)
        self.pm = pluggy.PluginManager("cardcore")
        """The pluggy manager of this configuration."""
        self._modules: dict[str, str] = {}
        self.hooks = HookMark()
        """Where every call of a resolved hook leaves a mark (see :meth:`resolve`)."""
        self.checked: dict[Any, Any] = {}
        """Options resolved and checked, by player count and options given (``new_game``)."""
        self.options = _options.combined(game, self.rules)
        """The options this configuration takes: the game's, then its chosen rules' own."""
        registering = game.name
        try:
            self.pm.add_hookspecs(hookspecs)
            if game.hookspecs is not None:
                self.pm.add_hookspecs(game.hookspecs)
            for target, plugin in ((game_module, game.name), *((m, i.name) for m, i in rules)):
                registering = plugin
                self.pm.register(target, name=plugin)
                if isinstance(where := getattr(target, "__name__", None), str):  # (a namespace: none)
                    self._modules[where] = plugin
            # the defaults last: pluggy calls an earlier-registered trylast implementation first
            self.pm.register(_defaults, name="cardcore.defaults")
            self._modules[_defaults.__name__] = "cardcore.defaults"
        except pluggy.PluginValidationError as exc:
            raise _hookcall.spec_mismatch(self.pm, exc, registering) from exc
        _declared.check_hook_names(self.pm, game.name)
        _declared.check_hooks_marked(self.pm, game_module, game.name)
        for module, info in rules:
            _declared.check_hooks_marked(self.pm, module, info.name)
            _declared.check_implements_a_hook(self.pm, module, info)
        if self.pm.hook.score_round.get_hookimpls():
            # a rule scores: the scores pass on unchanged last, so a wrapper never gets None
            self.pm.register(ScoresUnchanged(), name="cardcore.scores-unchanged")
        self.observers: tuple[Callable[..., object], ...] = _hookcall.observers(self.pm)
        """Plain callables of the ``on_event`` implementations (``.names``: their plugins)."""
        _hookcall.sizes_checked(self.pm.hook.forbid_action.get_hookimpls())  # before resolving
        self.veto: Callable[..., list[Veto]] | None = self.resolve("forbid_action", track=False)
        if self.veto is not None:
            impls = self.pm.hook.forbid_action.get_hookimpls()
            wrappers = _hookcall.wrappers_checked(impls, list, "a list of Vetoes")
            self.veto = vetoes_checked(self.veto, [i.plugin_name for i in impls], wrappers)
        """The resolved ``forbid_action`` chain, or ``None`` when no rule vetoes anything."""
        self.score_round = _hookcall.read_only(self, "score_round", self.resolve("score_round"))
        """The resolved ``score_round`` chain, or ``None`` when no rule adjusts scores."""
        try:
            create = self.resolve("create_logic", track=False)
            logic = None if create is None else create(ruleset=self)
        except CardcoreError:
            raise
        except (
            Exception
        ) as exc:  # blame the innermost plugin in the traceback (a house rule's hook)
            culprit = plugin_from_traceback(self, exc) or game.name
            msg = f"plugin {culprit!r} raised {type(exc).__name__} while {game.name!r} built its logic: {exc}"
            raise PluginError(msg, plugin=culprit) from exc
        if logic is None:
            msg = f"game {game.name!r} implements no create_logic hook"
            raise PluginError(msg, plugin=game.name)
        self.logic: GameLogic[Any, Any] = logic
        """The shared game logic of this configuration."""
        # the default parser is built now, so bad action_types are refused before any play
        parser = _declared.check_action_types(logic, game.name)
        if parser is not None and getattr(logic, "_parser", None) is None:
            logic._parser = parser

    def resolve_options(self, options: Mapping[str, Any] | None) -> Mapping[str, Any]:
        """Check *options* against :attr:`options` and fill in defaults (read-only mapping).

        :raises OptionError: For a name no option has (or one of a rule not chosen) or a bad value.
        """
        return _options.resolve_for(self, options)

    @property
    def rule_names(self) -> tuple[str, ...]:
        """The entry-point names of the active house rules."""
        return tuple(r.name for r in self.rules)

    def resolve(self, name: str, *, track: bool = True) -> Callable[..., Any] | None:
        """Resolve hook *name* into a plain callable taking keyword arguments, once.

        The one way to call a hook. Resolve when the configuration is built
        (in the logic's ``__init__``) and call the result on every decision:
        it runs the implementations in pluggy's order, stops at the first
        non-``None`` answer for a ``firstresult`` hook and otherwise returns the
        list of non-``None`` answers. Wrappers are honoured (through pluggy).

        Each call of a house rule's implementation (and of a function it answers,
        such as a scorer) also sets :attr:`hook_mark`, so the core knows a house
        rule ran during an ``apply`` and takes a checkpoint after it: restoring a
        failed ``apply`` then never calls a house rule again (see :doc:`security`).
        The game's own implementations are part of its logic and cost nothing more.

        :param name: A hook of the core or of this game's hookspecs.
        :param track: Track the house rules' implementations (``False`` only for
            hooks never called inside ``apply``, such as ``forbid_action``).
        :returns: The callable, or ``None`` when no plugin implements the hook,
            so a configuration without such a rule pays nothing.
        :raises PluginError: If no specification has that name.
        """
        name = plain(name)  # never a dunder, below
        hc: Any = vars(self.pm.hook).get(name) if type(name) is str else None
        if getattr(hc, "spec", None) is None:
            raise _hookcall.no_such_hook(self.pm, self.game.name, name)
        impls = list(reversed(hc.get_hookimpls()))
        if not impls:
            return None
        house = self._house  # a house rule's failure names it and the hook (PluginError)
        if any(i.wrapper or i.hookwrapper for i in impls):
            call: Callable[..., Any] = lambda **kw: hc(**kw)  # noqa: E731
            if any(i.plugin_name in house for i in impls):
                tracked = self.tracked(call) if track else call  # answers: by the chain
                call = _hookcall.guarded_chain(self, name, tracked, track)
            return call
        return plain_chain(
            tuple(
                (
                    _hookcall.house_impl(self, i.function, i.plugin_name, name, track)
                    if i.plugin_name in house
                    else i.function,
                    tuple(i.argnames),
                )
                for i in impls
            ),
            bool(hc.spec.opts.get("firstresult")),
        )

    def tracked(self, func: Callable[..., Any], *, answers: bool = False) -> Callable[..., Any]:
        """Return *func* wrapped so that each call sets :attr:`hook_mark`.

        :meth:`resolve` does it for every house rule's implementation; a game that calls
        plugin code it got another way inside ``apply`` wraps it so (transactions stay exact).

        :param answers: Also track the functions *func* answers (anything callable
            but a class, or lists and tuples of them, two levels deep), such as a scorer.
        """
        tick = _TICKS.__next__
        marks = self.hooks
        if not answers:

            def call(*args: Any, **kw: Any) -> Any:
                marks.value = tick()
                return func(*args, **kw)

            call.__wrapped__ = func  # type: ignore[attr-defined]  # blame sees the plugin's code
            return call

        def call_and_track(*args: Any, **kw: Any) -> Any:
            marks.value = tick()
            return self._track_answer(func(*args, **kw), 2)

        call_and_track.__wrapped__ = func  # type: ignore[attr-defined]
        return call_and_track

    def _track_answer(self, answer: Any, depth: int) -> Any:
        """*answer* with every plain function in it tracked (see :meth:`tracked`)."""
        if isinstance(answer, type):  # a class stays itself (every apply keeps a checkpoint)
            return counted_class(self, answer)
        if callable(answer):  # a function, or an object called
            return answer if _blame.is_cores(self, answer) else self.tracked(answer)
        kind = type(answer)
        if depth and (kind is list or kind is tuple):
            return kind(self._track_answer(a, depth - 1) for a in answer)
        return answer

    @property
    def hook_mark(self) -> object:
        """A new value (compare with ``is``) after each hook run; at each read after a class."""
        return self.hooks.value

    def impl_codes(self) -> dict[Any, str]:
        """Map the code object of every hook implementation to its plugin's name."""
        codes: dict[Any, str] = {}
        for hc in vars(self.pm.hook).values():
            get = getattr(hc, "get_hookimpls", None)
            if get is None:
                continue
            for impl in get():  # a wrapper the core checks: its code and the plugin's own
                for fn in (impl.function, getattr(impl.function, "__wrapped__", None)):
                    if (code := getattr(fn, "__code__", None)) is not None:
                        codes[code] = impl.plugin_name
        return {**getattr(self, "_class_codes", {}), **codes}  # (classes answered: _marks)

    def plugin_of(self, module_name: str) -> str | None:
        """Return the plugin name that owns module *module_name*, if any (for error messages)."""
        return self._modules.get(module_name)

    def versions(self) -> dict[str, str]:
        """Return ``{plugin name: version}`` for the game and every active rule."""
        out = {self.game.name: self.game.version}
        out.update({r.name: r.version for r in self.rules})
        return out

    def __repr__(self) -> str:
        return f"<Ruleset {self.game.name} rules={list(self.rule_names)}>"


def _matches(ref: str, info: RuleInfo) -> bool:
    return ref == info.name or _declared.same_id(info.id, ref)


def get_ruleset(game: str, rules: Iterable[str] = (), without: Iterable[str] = ()) -> Ruleset:
    """Return the cached configuration for *game* with *rules* (plus defaults, minus *without*).

    :raises UnknownPluginError: For a game or rule that is not installed (the
        message lists what is), or a rule of another game (also a
        :class:`RuleConflictError`, as it was before).
    :raises RuleConflictError: For rules that conflict, a missing requirement,
        or a *without* that is not a default rule.
    :raises PluginError: For rules declaring one ID, or ``applies`` naming an
        option the game does not declare or a value it refuses.
    """
    if type(rules) is type(without) is tuple and not (rules or without) and type(game) is str:
        bare = _bare.get(game)
        if bare is not None:
            return bare
    if not issubclass(type(game), str):
        msg = f"a game is named by text, not {shown(game)} (installed: {', '.join(available_games())})"
        raise UnknownPluginError(msg)
    game = str.__str__(game)  # plain text: a subclass could hash or compare its own way
    for what, names in (("rules", rules), ("without", without)):
        if isinstance(names, str | bytes | bytearray | Mapping) or not isinstance(names, Iterable):
            msg = f"{what} takes a list of names, not {shown(names)}"
            raise ArgumentError(msg)
    rules, without = plain_texts(rules, "rules"), plain_texts(without, "without")
    for ref in (*rules, *without):
        if type(ref) is not str:  # (made plain above: a claim through __class__ is no text)
            msg = f"house rules are named by text (entry-point name or rule ID), not {shown(ref)}"
            raise UnknownPluginError(msg)
    key0 = (game, (*tuple(sorted(set(rules))), "|", *tuple(sorted(set(without)))))
    hit = _rulesets.get(key0)
    if hit is not None:
        with contextlib.suppress(KeyError):  # dropped by another thread meanwhile
            _rulesets.move_to_end(key0)
        return hit
    with _lock:
        info = game_info(game)
        module = _load("cardcore.games", game)
        chosen: dict[str, tuple[ModuleType, RuleInfo]] = {}
        default_infos = [_rule_module(n) for n in info.default_rules]
        for ref in without:
            if not any(_matches(ref, d[1]) for d in default_infos):
                defaults = ", ".join(info.default_rules) or "none"
                msg = f"{shown(ref)} is not a default rule of {game!r}, so it cannot be switched off (defaults: {defaults})"
                raise RuleConflictError(msg)
        for mod, rinfo in default_infos:
            if not any(_matches(ref, rinfo) for ref in without):
                chosen[rinfo.name] = (mod, rinfo)
        for ref in rules:
            try:
                mod, rinfo = _rule_module(ref)
            except UnknownPluginError:
                known = ", ".join(available_rules(game)) or "none"
                msg = f"no house rule called {shown(ref)} is installed for {game!r} (installed: {known})"
                raise UnknownPluginError(msg) from None
            if rinfo.game != game:
                msg = f"house rule {rinfo.name!r} belongs to {rinfo.game!r}, not {game!r} ({rinfo.id})"
                raise OtherGameRuleError(msg)
            if any(_matches(ref, d[1]) for d in default_infos) and any(
                _matches(w, rinfo) for w in without
            ):
                msg = f"house rule {rinfo.name!r} is both asked for and switched off ({rinfo.id})"
                raise RuleConflictError(msg)
            chosen[rinfo.name] = (mod, rinfo)
        infos = sorted(chosen.values(), key=lambda mi: mi[1].id)
        _declared.check_rule_set(info, [i for _, i in infos], lambda: _installed_rules())
        _registrations.check_requires(game, [i for _, i in infos], _installed_rules)
        for _, a in infos:
            for _, b in infos:
                if a is not b and any(_matches(ref, b) for ref in a.conflicts):
                    msg = (
                        f"house rules {a.name!r} and {b.name!r} cannot be combined ({a.id}, {b.id})"
                    )
                    raise RuleConflictError(msg)
            for ref in a.requires:
                if not any(_matches(ref, b) for _, b in infos):
                    msg = f"house rule {a.name!r} requires {ref!r}, which is not chosen ({a.id})"
                    raise RuleConflictError(msg)
        key = (game, tuple(sorted(chosen)))
        ruleset = _rulesets.get(key)
        if ruleset is None:
            ruleset = Ruleset(info, module, tuple(infos))
            _rulesets[key] = ruleset
        _rulesets[key0] = ruleset
        if not rules and not without:
            _bare[game] = ruleset
        while len(_rulesets) > RULESET_CACHE:
            _rulesets.popitem(last=False)
        return ruleset


def _installed_rules() -> list[RuleInfo]:
    out = []
    for name in _entries()["cardcore.rules"]:
        with contextlib.suppress(PluginError):
            out.append(_rule_module(name)[1])
    return out


def plugin_from_traceback(ruleset: Ruleset, exc: BaseException) -> str | None:
    """Return the name of the innermost plugin whose code appears in *exc*'s traceback."""
    codes = ruleset.impl_codes()
    found = _hookcall.wrapper_at_fault(codes, exc)  # pluggy's word on a wrapper: no frame of it
    tb = None if found is not None else exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        name = codes.get(frame.f_code) or ruleset.plugin_of(frame.f_globals.get("__name__", ""))
        if name is not None:
            found = name
        tb = tb.tb_next
    return found
