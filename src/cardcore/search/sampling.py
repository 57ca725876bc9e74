"""Positions consistent with one seat's view: what a search agent plays out.

A search agent holds a seat's view and nothing else. To look ahead it needs
whole games, so it samples positions the seat cannot tell apart from the real
one: every card the view shows stays where it lies, and every hidden place is
filled from the cards the seat has not seen (the game's deck less every card
the view shows), shuffled with the agent's own generator. The game turns that
deal into its position notation, and the agent starts it with
``new_game(position=..., seed=<its own stream>)``, so it never sees the real
game's future chance.

Three layers, each a game may take over (see :class:`cardcore.GameLogic`):

1. ``GameLogic.sample_position(view, rng)``: the whole sample, for a game whose
   players infer more than the view's piles show;
2. otherwise :func:`deal_view` deals the hidden cards uniformly and
   ``GameLogic.position_from_view(view, zones)`` writes the game's fields;
3. otherwise :func:`default_position` writes the core's default notation
   (games with ``blank_state``): ``to_act`` from the view, each other field of
   ``position_fields`` from the view's table when it holds one of that name and
   type, else its blank value.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from cardcore._registrations import forgetters
from cardcore._text import shown
from cardcore.cards import Card
from cardcore.deck import shuffle
from cardcore.errors import ArgumentError, CardcoreError, OptionError, PluginError
from cardcore.logic import GameLogic
from cardcore.plugins import game_info, get_ruleset, rule_info
from cardcore.positions import read_field
from cardcore.zones import ALL, Layout, Visibility, Zones, ZoneSpec

__all__ = ["ViewConfig", "deal_view", "default_position", "sample_position", "view_config"]

_VISIBILITY = {v.value: v for v in Visibility}
_LAYOUTS: dict[tuple[tuple[str, int | None, str], ...], Layout] = {}
_CONFIGS: dict[tuple[str, int, str, str], ViewConfig] = {}
_CACHE = 256
"""How many distinct layouts and configurations the module remembers."""
forgetters.append(_CONFIGS.clear)  # a game registered again under its name: its new logic


@frozen
class ViewConfig:
    """The configuration a view belongs to, read from its envelope.

    :param game: The game's name.
    :param players: Seats.
    :param rules: The active house rules (defaults included), as the view names them.
    :param without: The game's default rules the view does not list (switched off).
    :param options: The resolved options.
    :param logic: The configuration's shared logic (stateless).
    """

    game: str
    players: int
    rules: tuple[str, ...]
    without: tuple[str, ...]
    options: Mapping[str, Any]
    logic: GameLogic[Any, Any]

    def deck(self) -> tuple[Card, ...]:
        """Every card of a game of this configuration (a multiset)."""
        return self.logic.deck(self.players, self.options)


def view_config(view: Mapping[str, Any]) -> ViewConfig:
    """Return the :class:`ViewConfig` of *view* (cached per configuration).

    *view* is a view as :meth:`cardcore.Game.view` returns it: a seat's view
    (``view["seat"]`` an int seat of the game) or a spectator's (``view["seat"]``
    ``None``; it lists no legal actions).

    :raises ArgumentError: *view* is not a mapping; ``view["seat"]`` is neither a seat of the game nor ``None``,
        or is ``None`` in a view that lists legal actions (a seat's view with its seat
        taken out: it shows that seat's cards).
    :raises OptionError: The view's options are not options of its game (an undeclared
        name, a bad value, a name that is not text).
    :raises CardcoreError: *view* is no view of an installed game.
    """
    config = _config(view)
    seat = view.get("seat")
    if type(seat) is int and 0 <= seat < config.players:
        return config
    if seat is None:
        legal = view.get("legal")
        if not isinstance(legal, list | tuple) or not legal:
            return config
        msg = (
            f"not a seat's or a spectator's view of {config.game!r}: its seat is None (a"
            f" spectator's) but it lists {len(legal)} legal actions (a seat's view)"
        )
        raise ArgumentError(msg)
    msg = (
        f"not a seat's or a spectator's view of {config.game!r}: its seat {shown(seat)} is"
        f" no int seat 0 to {config.players - 1} of the game, nor None (a spectator)"
    )
    raise ArgumentError(msg)


def _config(view: Mapping[str, Any]) -> ViewConfig:
    """The configuration of *view*, its seat unchecked (see :func:`view_config`)."""
    if not isinstance(view, Mapping):  # (a numpy scalar indexed by text raises IndexError)
        raise ArgumentError(f"a view is a mapping (from Game.view), not {shown(view)}")
    try:
        game = str(view["game"])
        players = len(view["players"])
        rules = tuple(str(r) for r in view["rules"])
        options = dict(view["options"])
    except Exception as exc:  # a key missing, a field of the wrong kind, or nested too deep
        msg = f"not a cardcore view (missing or bad {shown(exc)})"
        raise CardcoreError(msg) from None
    try:
        written = json.dumps(options, sort_keys=True, default=str)
    except Exception as exc:  # names that are not text, a huge int: no options of a game
        msg = (
            f"the options of a view of {shown(game)} are not options of a game (names are"
            f" text, values plain data): {type(exc).__name__}: {shown(str(exc), 120)}"
        )
        raise OptionError(msg) from None
    key = (game, players, "\n".join(rules), written)
    hit = _CONFIGS.get(key)
    if hit is not None:
        return hit
    info = game_info(game)
    names = set(rules)
    without = tuple(
        d for d in info.default_rules if rule_info(d).name not in names and d not in names
    )
    ruleset = get_ruleset(game, rules, without)
    try:  # once per configuration: a game's own sampling code never sees options it refuses
        ruleset.resolve_options(options)
    except OptionError as exc:
        msg = f"the options of a view of {game!r} are not options of the game: {exc}"
        raise OptionError(msg) from None
    config = ViewConfig(game, players, rules, without, options, ruleset.logic)
    if len(_CONFIGS) >= _CACHE:
        _CONFIGS.clear()
    _CONFIGS[key] = config
    return config


def _layout(zones: Sequence[Mapping[str, Any]]) -> Layout:
    try:  # a view's zones: each a mapping of a name, an owner and a visibility
        key = tuple((str(z["name"]), z["owner"], str(z["visibility"])) for z in zones)
        layout = _LAYOUTS.get(key)
    except Exception as exc:  # a field missing, nested too deep, or hashing its own way
        raise ArgumentError(f"a view's zones are not a view's: {shown(exc)}") from None
    if layout is None:
        layout = Layout.of([ZoneSpec(name, owner, _VISIBILITY[vis]) for name, owner, vis in key])
        if len(_LAYOUTS) >= _CACHE:
            _LAYOUTS.clear()
        _LAYOUTS[key] = layout
    return layout


def deal_view(view: Mapping[str, Any], deck: Sequence[Card], rng: random.Random) -> Zones:
    """Return the view's piles with every hidden place dealt from the cards the seat has not seen.

    The visible cards stay where the view shows them; the unseen cards (*deck*
    less every visible card) are shuffled with *rng* and dealt into the hidden
    places. Knowledge marks are guesses from what the view says: every card of
    a face-up or top-only pile is known to all (``TOP`` piles were seen as they
    were built), every card of a hand to its owner (to all when the view shows
    another seat's hand: it lies face up), a visible card of a face-down pile to
    all (a card turned face up), a hidden one to nobody.
    A game that knows better adjusts them in ``position_from_view``.

    :param view: A seat's view (format ``cardcore-view/2``).
    :param deck: Every card of the game (:meth:`ViewConfig.deck`).
    :param rng: The generator of the deal (the agent's own).
    :returns: New :class:`~cardcore.Zones` laid out as the view's ``zones``.
    :raises CardcoreError: The view shows cards the deck does not hold, or its
        counts do not add up to the deck.
    """
    shown = view["zones"]
    layout = _layout(shown)
    zones = Zones(layout)
    unseen = Counter(deck)
    parse = Card.parse
    piles: list[list[Card | None]] = []
    for z in shown:
        pile: list[Card | None] = []
        for text in reversed(z["cards"]):  # the view lists piles top first
            if text is None:
                pile.append(None)
                continue
            card = parse(text)
            unseen[card] -= 1
            pile.append(card)
        piles.append(pile)
    pool = list(unseen.elements())
    hidden = sum(pile.count(None) for pile in piles)
    if hidden != len(pool) or any(n < 0 for n in unseen.values()):
        msg = (
            f"the view of {view['game']!r} does not add up to its deck: {hidden} hidden places,"
            f" {len(pool)} unseen cards"
        )
        raise CardcoreError(msg)
    shuffle(pool, rng)
    for z, (spec, pile) in enumerate(zip(layout.specs, piles, strict=True)):
        vis = spec.visibility
        cards = zones.cards[z]
        seen = zones.seen[z]
        if vis is Visibility.EVERYONE or vis is Visibility.TOP:
            known, unknown = ALL, ALL
        elif vis is Visibility.OWNER:
            known = unknown = 0 if spec.owner is None else 1 << spec.owner
            if spec.owner != view.get("seat"):
                known = ALL  # a card of another seat's hand the view shows lies face up
        else:
            known, unknown = ALL, 0
        for shown_card in pile:
            if shown_card is None:
                cards.append(pool.pop())
                seen.append(unknown)
            else:
                cards.append(shown_card)
                seen.append(known)
    return zones


def default_position(logic: GameLogic[Any, Any], view: Mapping[str, Any], zones: Zones) -> str:
    """Write the core's default notation for *view* with the piles of *zones*.

    ``to_act`` comes from the view; every other field of ``position_fields``
    from the view's ``table`` when it holds a value of that name that fits the
    field, else the field keeps its blank value.

    :raises CardcoreError: The game has its own notation (and no
        ``position_from_view``), or none.
    """
    name = logic.info.name
    if not _default_notation(logic):
        msg = (
            f"search agents cannot sample positions of {name!r}: it has no default position"
            " notation (blank_state) and no position_from_view hook"
        )
        raise CardcoreError(msg)
    state = logic.blank_state(len(view["players"]), view["options"])
    state.zones = zones
    state.to_act = tuple(view["to_act"])
    table = view.get("table") or {}
    for field in logic.position_fields:
        if field == "to_act" or field not in table:
            continue
        try:
            setattr(state, field, read_field(field, table[field], getattr(state, field)))
        except (OptionError, TypeError):
            continue  # the table shows it in another shape: keep the blank value
    return logic.write_position(state)


def _default_notation(logic: GameLogic[Any, Any]) -> bool:
    cls = type(logic)
    return (
        cls.blank_state is not GameLogic.blank_state
        and cls.write_position is GameLogic.write_position
    )


def offers_sampling(logic: GameLogic[Any, Any]) -> bool:
    """Whether search agents can sample positions of the game of *logic*: its own
    ``sample_position`` or ``position_from_view``, or the core's default notation."""
    cls = type(logic)
    return (
        cls.sample_position is not GameLogic.sample_position
        or cls.position_from_view is not GameLogic.position_from_view
        or _default_notation(logic)
    )


def sample_position(view: Mapping[str, Any], rng: random.Random) -> str:
    """Return a position consistent with *view* (a seat's or a spectator's, see
    :func:`view_config`), hidden cards drawn with *rng*.

    The game's ``sample_position`` hook first; otherwise :func:`deal_view`
    and the game's ``position_from_view``; otherwise :func:`default_position`.
    The text is not validated here: ``new_game(position=...)`` reads it.

    :raises CardcoreError: The game cannot be sampled (see :func:`default_position`),
        or is over (nothing is left to choose), or *view* is no view of an installed
        game, or its piles are missing or malformed.
    :raises OptionError: The view's options are not options of its game.
    :raises ArgumentError: *rng* is not a :class:`random.Random`, or ``view["seat"]``
        is neither a seat of the game nor ``None`` (see :func:`view_config`).
    :raises PluginError: The game's own sampling failed (naming the game).
    """
    if not isinstance(rng, random.Random):
        msg = f"sample_position draws with a random.Random, not {shown(rng)}"
        raise ArgumentError(msg)
    return sample_of(view, view_config(view), rng)


def sample_of(view: Mapping[str, Any], config: ViewConfig, rng: random.Random) -> str:
    """:func:`sample_position` of *view* whose *config* :func:`view_config` returned (so
    checked): a search samples one view many times and checks it once."""
    if view.get("is_over") is True:
        msg = f"the {config.logic.info.name} game of this view is over: there is nothing to sample for"
        raise CardcoreError(msg)
    logic = config.logic
    text = _games(logic, logic.sample_position, view, rng)
    if text is not None:
        return text
    try:
        zones = deal_view(view, config.deck(), rng)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # the view's fault
        msg = f"not a cardcore view of {logic.info.name!r}: its zones are missing or malformed ({type(exc).__name__}: {str(exc)[:120]})"
        raise CardcoreError(msg) from None
    text = _games(logic, logic.position_from_view, view, zones)
    if text is not None:
        return text
    return default_position(logic, view, zones)


def _games(logic: GameLogic[Any, Any], hook: Any, *args: Any) -> str | None:
    """Call the game's own sampling code *hook*: what it raises is its error, named."""
    try:
        text: str | None = hook(*args)
    except CardcoreError:
        raise
    except Exception as exc:
        name = logic.info.name
        msg = f"plugin {name!r} raised {type(exc).__name__} while sampling a position: {str(exc)[:200]}"
        raise PluginError(msg, plugin=name) from exc
    return text
