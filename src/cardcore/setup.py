"""Starting games: :func:`new_game` and the first deal.

Kept apart from :mod:`cardcore.game` so the driver, records and the set-up
import each other in one direction only.
"""

from __future__ import annotations

import re
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

from cardcore import dealing as _dealing
from cardcore._bound import bound_of
from cardcore._faults import check_logic, check_turn
from cardcore._text import plain, read_all, shown
from cardcore._unasked import HUSHED, QUIET, UNASKED
from cardcore.cards import Card, parse_cards
from cardcore.deck import _VERSION, CHANCE, Chance, chance_version, generator, shuffle
from cardcore.errors import (
    ArgumentError,
    CardcoreError,
    OptionError,
    PluginError,
    RuleConflictError,
    UnknownPluginError,
)
from cardcore.events import Event, EventBus, GameEnded, GameStarted
from cardcore.game import Game
from cardcore.info import MAX_PLAYERS  # (exported here too: where new_game checks it)
from cardcore.plugins import Ruleset, get_ruleset, plugin_from_traceback
from cardcore.state import GameState

__all__ = ["MAX_PLAYERS", "MAX_SEED_BITS", "Listener", "deal", "new_game"]

MAX_SEED_BITS = 128
"""Seeds are integers from 0 below ``2**MAX_SEED_BITS``."""

Listener = (
    tuple[type[Event], Callable[[Any], object]]
    | tuple[type[Event], Callable[[Any], object], int | str | None]
)
"""A subscription given to :func:`new_game`: ``(EventType, handler)`` or ``(EventType, handler, seat)``."""


def deal(
    ruleset: Ruleset,
    players: int,
    options: Mapping[str, Any],
    seed: int,
    deck_top: tuple[Card, ...] | None,
    position: str | None,
    emit: Callable[[Event], None] | None,
) -> GameState:
    """Build the starting state: from *position*, or by dealing a shuffled (or stacked) deck."""
    logic = ruleset.logic
    if position is not None:
        state: GameState = logic.read_position(position, players, options)
        state.seed = seed
        check_turn(ruleset.game.name, state, "read_position")
        return state
    try:
        full = logic.deck(players, options)
    except (OptionError, PluginError):  # the game refusing its options; a plugin named
        raise
    except CardcoreError as exc:  # a Card the game's own deck() could not build, say
        plugin = plugin_from_traceback(ruleset, exc) or ruleset.game.name
        msg = f"plugin {plugin!r} raised {type(exc).__name__} while building its deck: {exc}"
        raise PluginError(msg, plugin=plugin) from exc
    if deck_top is None:
        order = list(full)
        version = _VERSION.get()
        if version == CHANCE:  # the common case, without the helpers' calls
            Chance(seed, 0).shuffle(order)
        else:
            shuffle(order, generator(seed, 0, version))
    else:
        rest = Counter(full)
        rest.subtract(deck_top)
        extra = [card for card, n in rest.items() if n < 0]
        if extra:
            msg = f"deck= holds cards the game does not use, or too many of them: {[str(c) for c in extra]!r}"
            raise OptionError(msg)
        remaining: list[Card] = []
        for card in full:
            if rest[card] > 0:
                rest[card] -= 1
                remaining.append(card)
        shuffle(remaining, generator(seed, 0, chance_version()))
        order = [*deck_top, *remaining]
    order.reverse()  # bottom -> top: the first card of the deck is dealt first
    dealt = _dealing._DEALT
    dealt[0], dealt[1] = order, len(order)
    try:
        state = cast(GameState, logic.new_state(players, options, order, seed, emit))
    finally:
        dealt[0] = None
    state.seed = seed
    if state.draws == 0:
        state.draws = 1
    to_act = state.to_act  # checked whole only if it looks wrong (or the deal ended the game)
    try:
        fine = to_act and 0 <= to_act[-1] < players and not state.is_over
    except TypeError:  # not a sequence of ints
        fine = False
    if not fine:
        check_turn(ruleset.game.name, state, "new_state")
    return state


_CHECKED = 64
"""How many option sets (per player count) one configuration remembers as checked."""


def _options_key(players: int, options: Any) -> tuple[Any, ...] | None:
    """A key for options given as a plain dict of plain values (``None``: not cached).

    Each value is keyed with its type, so ``1``, ``1.0`` and ``True`` stay apart, a float by
    its text too (``-0.0`` is not ``0.0``); a value of another type (a tuple, whose items
    could be ``1`` or ``1.0`` alike) is not cached: checked each time.
    """
    if type(options) is not dict or not all(type(k) is str for k in options):
        return None  # (a str subclass could compare and hash its own way)
    types = tuple(map(type, options.values()))
    if not _KEYED.issuperset(types):
        return None
    # in the dict's order: another order is only another entry, checked once too
    key = (players, *options.items(), *types)
    return key if float not in types else (*key, *map(repr, options.values()))


_KEYED = frozenset({int, str, bool, float, type(None)})
"""The types of option values a checked configuration is remembered by."""


def _shareable(resolved: Mapping[str, Any]) -> bool:
    """Whether games may share *resolved* (no value that changes in place: each game
    gets its own copy of a list, so such options are resolved for each game)."""
    try:
        return all(hash(v) is not None for v in resolved.values())
    except Exception:
        return False


_SEAT_NAMES = {n: tuple(f"Player {i + 1}" for i in range(n)) for n in range(1, 9)}
"""The display names of a game given a count of players (the common counts, built once)."""


def _names(players: int | Sequence[str], name: str, low: int, high: int) -> tuple[str, ...]:
    if type(players) is not int:  # an int subclass made plain, judged by its real type
        players = plain(players)
    if type(players) is int:
        if not 1 <= players <= MAX_PLAYERS:  # the game's range, as for any other count
            low, high = max(low, 1), min(high, MAX_PLAYERS)  # a declaration changed since
            count = f"exactly {low}" if low == high else f"{low} to {high}"
            msg = f"{name} takes {count} player{'s' * (high != 1)}, not {shown(players)} (CORE-SEAT-2)"
            raise OptionError(msg)
        return tuple(f"Player {i + 1}" for i in range(players))
    if type(players) is list or type(players) is tuple:  # the common case: no ABC check
        names = tuple(players)
        try:
            if names == _SEAT_NAMES.get(len(names)):
                return _SEAT_NAMES[len(names)]
        except Exception:  # an item comparing its own way (an array): refused below
            pass
    if isinstance(players, Sequence) and not isinstance(players, str | bytes | bytearray):
        try:  # plain text: a subclass of str could measure, encode or compare its own way
            names = tuple(plain(p) for p in players)
        except Exception:  # a sequence whose items fail to be read
            names = ()
        if 0 < len(names) <= MAX_PLAYERS and all(
            type(p) is str and 0 < len(p) <= 100 and _carried(p) and not _UNSHOWN.search(p)
            for p in names
        ):
            return names
    msg = (
        "players must be a count or a list of 1 to 64 names (each 1 to 100 characters"
        f" UTF-8 can carry, no control character), not {shown(players)}"
    )
    raise OptionError(msg)


_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Control characters and bidirectional overrides: a name holding one would reach a
terminal or a screen as a command (an escape sequence) or as other text than it is."""


def _carried(name: str) -> bool:
    """Whether UTF-8 can carry *name*: one with a lone surrogate (``"\\ud800"``) was
    accepted, and its record could then not be signed, saved to a file or sent."""
    try:
        name.encode()
    except UnicodeEncodeError:
        return False
    return True


def check_configuration(
    ruleset: Ruleset, players: int, options: Any, name: str | None = None
) -> tuple[Mapping[str, Any], int]:
    """What :func:`new_game` checks of *players* seats and *options* before it deals (the options
    resolved, each rule's ``applies``, the game's ``validate``); return the resolved options and
    the action bound. A host may ask it before it spends anything on a game (the web server's
    limits)."""
    check_logic(ruleset)  # once per configuration and options: a game's own mistakes
    resolved = ruleset.resolve_options(options)
    for info in ruleset.rules:
        info.check_applies(resolved, ruleset.game)
    try:
        ruleset.logic.validate(players, resolved)
    except (OptionError, PluginError, RuleConflictError, UnknownPluginError):
        raise  # the game refusing the options or the rules (or naming a plugin)
    except Exception as exc:  # the game's own mistake (a Card its deck() cannot build)
        plugin = plugin_from_traceback(ruleset, exc) or name or ruleset.game.name
        msg = f"plugin {plugin!r} raised {type(exc).__name__} while checking the options: {shown(str(exc), 200)}"
        raise PluginError(msg, plugin=plugin) from exc
    return resolved, bound_of(ruleset, players, resolved)


def new_game(
    name: str,
    players: int | Sequence[str],
    *,
    rules: Iterable[str] = (),
    without: Iterable[str] = (),
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    deck: str | Sequence[str | Card] | None = None,
    position: str | None = None,
    subscribers: Iterable[Listener] = (),
) -> Game:
    """Start a game of *name*.

    >>> game = new_game("mygame", 2, seed=7)  # doctest: +SKIP

    :param name: An installed game (see :func:`cardcore.available_games`).
    :param players: A number of seats or their display names (1 to 100 characters each,
        no control character: a name reaches terminals and screens as it is). Two names
        may be alike (``"Ann"`` twice, or with a Cyrillic ``А``): a host taking names from
        people refuses those itself, as the web lobby and ``cardcore play`` do.
    :param rules: House rules to add (entry-point names such as ``"mygame.wild-twos"``, or rule IDs).
    :param without: Default rules to switch off.
    :param options: Parameters the game declares (layout, match length, stake ...).
    :param seed: The seed of every chance event; ``None`` draws one from the OS
        (also with *deck* or *position*, so the cards not stacked stay secret).
    :param deck: Cards to put on top of the deck, top first (``"5H 9C ..."``);
        the rest of the deck follows in a seeded shuffle, drawn from the seed's first
        chance event as an unstacked deal's is (with nothing stacked, the same deal).
    :param position: Start from this position (see :meth:`Game.position`)
        instead of dealing; future chance comes from *seed*.
    :param subscribers: ``(EventType, handler)`` or ``(EventType, handler, seat)``
        subscriptions attached before the first card is dealt, so they receive
        every event of the game.
    :raises UnknownPluginError: Unknown game or rule (the message lists what is installed).
    :raises RuleConflictError: Rules that cannot be combined.
    :raises OptionError: Bad options or player count, a house rule that does not
        apply to these options, or a bad position.
    :raises NotationError: A card in *deck* that is not a card.
    """
    ruleset = get_ruleset(name, rules, without)
    names = _SEAT_NAMES.get(players) if type(players) is int else None
    if names is None:
        info = ruleset.game
        names = _names(players, info.name, info.min_players, info.max_players)
    key: Any = (
        len(names)  # no options and {} resolve alike
        if options is None or (type(options) is dict and not options)
        else _options_key(len(names), options)
    )
    known = None if key is None else ruleset.checked.get(key)
    if known is not None:
        resolved, bound = known
    else:
        resolved, bound = check_configuration(ruleset, len(names), options, name)
        if key is not None and len(ruleset.checked) < _CHECKED and _shareable(resolved):
            ruleset.checked[key] = (resolved, bound)  # these options for this count: checked once
    if seed is None:
        seed = secrets.randbits(63)
    elif type(seed) is not int and issubclass(type(seed), int) and type(seed) is not bool:
        seed = int.__index__(seed)  # plain: a subclass would be recorded as itself
    if type(seed) is not int or not 0 <= seed < 2**MAX_SEED_BITS:  # (a bool is no int here)
        msg = f"seed must be an int from 0 below 2**{MAX_SEED_BITS}; {shown(seed)} is not one"
        raise OptionError(msg)
    if deck is not None and position is not None:
        msg = "pass deck= or position=, not both"
        raise OptionError(msg)
    if position is not None and not issubclass(type(position), str):  # (the real type)
        msg = f"position must be text (from Game.position()), not {shown(position)}"
        raise OptionError(msg)
    if position is not None:
        position = str.__str__(position)  # plain: a subclass could split or strip its own way
    if deck is not None and not isinstance(deck, str | Sequence):
        msg = f"deck must be text or a list of cards, not {shown(deck)}"
        raise OptionError(msg)
    deck_top = None if deck is None else parse_cards(deck)
    if type(subscribers) is not tuple and (
        not isinstance(subscribers, Iterable)  # ABC: not for ()
        or isinstance(subscribers, str | bytes | bytearray | Mapping)
    ):
        msg = f"subscribers takes a list of (EventType, handler[, seat]), not {shown(subscribers)}"
        raise ArgumentError(msg)
    subscribers = read_all(subscribers, "subscribers")
    # no subscriber and no observing plugin: the game shares the unasked bus until asked
    observers = () if QUIET.get() else ruleset.observers  # hushed: a search world, a replay
    if subscribers or observers:
        bus = EventBus(observers, len(names))
    else:
        bus = HUSHED if ruleset.observers else UNASKED
    for listener in subscribers:
        if not isinstance(listener, tuple) or len(listener) not in (2, 3):
            msg = f"subscribers take (EventType, handler) or (EventType, handler, seat), not {shown(listener)}"
            raise ArgumentError(msg)
        bus.subscribe(*listener)
    batch: list[Event] | None = [] if bus.active else None
    if batch is not None and bus.wants(GameStarted):
        batch.append(GameStarted(name, names))
    emit = batch.append if batch is not None and bus.wants_game_events else None
    mark = ruleset.hooks.value
    try:
        state = deal(ruleset, len(names), resolved, seed, deck_top, position, emit)
    except CardcoreError:
        raise
    except Exception as exc:
        plugin = plugin_from_traceback(ruleset, exc) or name
        doing = "reading the position" if position is not None else "dealing"
        msg = f"plugin {plugin!r} raised {type(exc).__name__} while {doing}: {exc}"
        raise PluginError(msg, plugin=plugin) from exc
    # a hook ran while dealing: keep the deal, so undoing a failed apply never deals again
    base = state.clone() if ruleset.hooks.value is not mark else None
    game = Game(ruleset, names, resolved, seed, deck_top, state, bus, position, base, bound)
    result = state.result if state.is_over and position is None else None  # ended by its deal
    if batch is not None and result is not None and bus.wants_ended:
        batch.append(GameEnded(result.winners, result.scores, result.payouts, result.reason))
    if batch:
        bus.deliver(bus.ticket(batch), batch)
    return game
