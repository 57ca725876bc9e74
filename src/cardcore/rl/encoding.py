"""Encodings: how a seat's view becomes numbers, and actions become fixed indices.

An *encoding* (the :class:`Encoding` protocol) is plain Python: a game ships
its own (``GameLogic.rl_encoding``, a class called as ``cls(logic, players,
options)``), and every other game gets :class:`GenericEncoding`. Numpy stays in
:mod:`cardcore.rl`: an encoding answers with lists, and :class:`Observer` turns
them into arrays.

An observation is ``planes + scalars`` numbers: first a block of counts whose
set positions :meth:`Encoding.observe` lists (card planes, one-hot fields; a
position listed twice counts 2), then the scalars it returns. An encoding reads
only the seat's view, never the state, so two states the seat cannot tell apart
encode alike.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Mapping, Sequence
from operator import index
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from cardcore._options import choice_key
from cardcore._text import plain, shown
from cardcore.actions import Action
from cardcore.errors import ArgumentError, PluginError, SeatError
from cardcore.game import Game

__all__ = [
    "DEFAULT_MAX_LEGAL",
    "Encoding",
    "GenericEncoding",
    "Observer",
    "encoding_for",
    "misfit",
    "seat_view",
]

DEFAULT_MAX_LEGAL = 64
"""The generic action space's size when a game declares no ``max_legal``."""


@runtime_checkable
class Encoding(Protocol):
    """What :mod:`cardcore.rl` needs of a game: a fixed action index set and an observation.

    Built once per configuration (game, rules, players, options) and shared by
    every environment of it; it keeps no per-game state.

    An encoding whose :meth:`progress` changes only when a round or hand ends
    (:meth:`cardcore.GameLogic.rounds_played` grows) or the game ends may say so with a
    class attribute ``progress_by_round = True``: ``rewards="score"`` then reads it
    only then, not after every action (Golf and Tonk do; each read builds the
    spectator's table). A round that pays without ``rounds_played`` growing is then paid late.
    """

    actions: int
    """The size of the ``Discrete`` action space."""
    planes: int
    """The length of the count block at the start of the observation."""
    scalars: int
    """How many scalar features follow the count block."""
    needs: str
    """What :meth:`observe` reads: ``"table"`` (``seat``, ``to_act``, ``is_over`` and the
    game's ``table``) or ``"view"`` (the whole :meth:`cardcore.Game.view`)."""

    def action_names(self) -> Sequence[str]:
        """A label for each action index, in index order (for messages and docs)."""
        ...

    def action_indices(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Sequence[int]:
        """The index of each of *legal* (the seat's legal actions, in the game's order).

        ``-1`` leaves an action out of the action space (one the enumeration does
        not cover); two legal actions never share an index.
        """
        ...

    def observe(self, view: Mapping[str, Any]) -> tuple[Sequence[int], Sequence[float]]:
        """The positions to count in the plane block, and the scalars, for this *view*."""
        ...

    def progress(self, view: Mapping[str, Any]) -> Sequence[float] | None:
        """Each seat's standing so far in reward units, from public fields (``None``: none).

        ``rewards="score"`` pays its change after every action, so a seat's return
        is its final standing (documented per game).
        """
        ...


def seat_view(game: Game, seat: int | None, needs: str) -> Mapping[str, Any]:
    """What an encoding reads of *seat* (``None``: a spectator): the whole view, or its turn fields and table.

    ``"table"`` calls the same :meth:`cardcore.GameLogic.table` that
    :meth:`cardcore.Game.view` puts under ``"table"``, without building the
    zones an encoding does not read.

    :raises SeatError: *seat* is neither ``None`` nor a seat of *game* (CORE-SEAT-1; a numpy
        integer is read as its number).
    :raises ArgumentError: *game* is not a Game, or *needs* neither ``"view"`` nor ``"table"``.
    """
    if not issubclass(type(game), Game):
        raise ArgumentError(f"seat_view takes a Game, not {shown(game)}")
    if type(needs) is not str:
        needs = plain(needs)  # a str subclass could compare its own way
    if type(needs) is not str or needs not in ("view", "table"):
        raise ArgumentError(f"seat_view's needs is 'view' or 'table', not {shown(needs)}")
    if seat is not None and type(seat) is not int:  # a numpy integer is a seat, as observe() takes it
        from cardcore.rl.match import as_int

        number = as_int(seat)
        seat = seat if number is None else number
    if needs == "view":
        return game.view(seat)
    state = game.state
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        msg = f"not a seat of this {len(game.players)}-player game: {shown(seat, 40)}"
        raise SeatError(msg, action=None, rule_id="CORE-SEAT-1")
    return {
        "seat": seat,
        "to_act": state.to_act,
        "is_over": state.is_over,
        "table": game.logic.table(state, seat),
    }


class Observer:
    """Fills observation and mask arrays for one encoding (numpy lives here, not in games).

    :param encoding: The configuration's encoding.
    :param wait: Add a last action index, ``"wait"`` (real time: plan nothing and decide
        again after the next change), in the mask whenever the seat has a legal action.
    """

    def __init__(self, encoding: Encoding, wait: bool = False) -> None:
        self.encoding = encoding
        self.size = encoding.planes + encoding.scalars
        """The observation's length."""
        names = tuple(encoding.action_names())
        if len(names) != encoding.actions:
            owner = type(encoding).__module__.split(".")[0]
            msg = (
                f"encoding {type(encoding).__name__} names {len(names)} actions but"
                f" declares {encoding.actions}"
            )
            raise PluginError(msg, plugin=owner)
        self.wait: int | None = encoding.actions if wait else None
        """The index of the ``"wait"`` action, or ``None`` without one."""
        self.names = (*names, "wait") if wait else names
        """Every action index's name, the mask's length."""
        self.actions = len(self.names)
        """The size of the action space: the encoding's actions, and ``"wait"`` if added."""

    @staticmethod
    def standing(encoding: Encoding, answer: Any, players: int) -> list[float]:
        """*answer* (of *encoding*'s ``progress``, for ``rewards="score"``) as one float per seat.

        :raises PluginError: Naming the encoding, for ``None`` or another number of seats.
        """
        with contextlib.suppress(TypeError, ValueError):
            if (
                not isinstance(answer, str | bytes | None)
                and len(answer) == players
                and not any(isinstance(x, str | bytes) for x in answer)  # ("12": no standings)
            ):
                return [float(x) for x in answer]
        msg = (
            f"encoding {type(encoding).__name__} answered progress {shown(answer)}:"
            f" one number per seat ({players}) for rewards='score'"
        )
        raise PluginError(msg, plugin=type(encoding).__module__.split(".")[0])

    def _answered(self, what: str, exc: Exception) -> PluginError:
        """The error for an answer of the encoding's *what* that does not fit its arrays."""
        enc = self.encoding
        msg = f"encoding {type(enc).__name__}'s {what} does not fit its arrays: {shown(str(exc), 200)}"
        return PluginError(msg, plugin=type(enc).__module__.split(".")[0])

    def fill(
        self,
        game: Game,
        seat: int,
        legal: Sequence[Action],
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.int8],
    ) -> dict[int, Action]:
        """Write *seat*'s observation into *obs* and its action mask into *mask*.

        :param legal: The seat's legal actions now (empty when it may not act).
        :returns: The legal actions by action index (never ``"wait"``, which is no action:
            its index is in *mask* whenever another is).
        """
        enc = self.encoding
        view = seat_view(game, seat, enc.needs)
        hot, scalars = enc.observe(view)
        planes = enc.planes
        try:  # (a position past the planes, or scalars of another length: the encoding's)
            if len(hot):
                obs[:planes] = np.bincount(np.asarray(hot, dtype=np.intp), minlength=planes)
            else:
                obs[:planes] = 0
            obs[planes:] = scalars
        except (ValueError, TypeError, OverflowError) as exc:
            raise self._answered("observe", exc) from None
        mask.fill(0)
        if not legal:
            return {}
        by_index: dict[int, Action] = {}
        indices = enc.action_indices(view, legal)  # (its own error as it is)
        try:
            for i, action in zip(indices, legal, strict=True):
                i = index(i)  # (an int or a numpy integer; a float is no index)
                if i >= 0:
                    if i in by_index:
                        msg = f"index {i} for both {str(by_index[i])!r} and {str(action)!r}"
                        raise ValueError(msg)
                    by_index[i] = action
            if by_index and max(by_index) >= enc.actions:  # ("wait", past them, is no action)
                raise IndexError(f"index {max(by_index)} of {enc.actions} actions")
        except (ValueError, TypeError, IndexError) as exc:
            raise self._answered("action_indices", exc) from None
        if by_index:
            mask.put(list(by_index), 1)
            if self.wait is not None:
                mask[self.wait] = 1  # (not in by_index: waiting is no Action)
        return by_index

    def arrays(
        self, game: Game, seat: int, legal: Sequence[Action]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], dict[int, Action]]:
        """Return fresh observation and mask arrays for *seat*, and the legal actions by index."""
        obs = np.zeros(self.size, dtype=np.float32)
        mask = np.zeros(self.actions, dtype=np.int8)
        return obs, mask, self.fill(game, seat, legal, obs, mask)


# -- the generic encoding ----------------------------------------------------------------------


class GenericEncoding:
    """The encoding of any game without its own: card planes from the declared view structure.

    Observation: the planes and one-hots of every entry below, in this order, then the
    scalars of every entry, in the same order (as every encoding: counts, then scalars).
    A card plane has one position per distinct card text, in sorted text order
    (``"10C"`` first, then ``"2C"``, ..., ``"AS"``, ..., ``"QS"`` last, as ``card_index`` holds them). The entries, seats relative
    (the observing seat first):

    * per zone (shared zones first, then each seat's zones, the observer's first,
      when every seat owns alike; else in the layout's order): a plane of the
      visible cards (one position per distinct card of the deck: copies of a card,
      two ``7H`` of a double deck or its jokers, share one position, which counts them),
      a plane of its visible top card (the view's first card: for a hand, the card
      it got last; nothing when that card is hidden), and two scalars: its count
      and its hidden count, each over the deck's size;
    * per declared table field: ``int``/``float``/``bool`` one scalar (the raw value);
      ``seat`` a one-hot over the relative seats and "none" (last); ``choice`` a one-hot over
      its declared choices and "none of them"; ``card`` and ``cards``
      a card plane; ``per-seat`` one such entry per seat, the observer's first;
      ``str`` and ``json`` fields are left out;
    * two scalars: whether the seat may act now, and whether the game is over.

    Actions are positional: index *i* is the *i*-th legal action in the game's
    order, up to ``max_legal`` (``GameLogic.max_legal``, else
    :data:`DEFAULT_MAX_LEGAL`); further legal actions are left out of the space
    (a warning says so once).

    :param schema: :meth:`cardcore.Game.view_schema` of the configuration.
    :param deck: Every card in play (:meth:`cardcore.GameLogic.deck`).
    :param players: The number of seats.
    :param max_legal: The size of the action space.
    """

    needs = "view"

    def __init__(
        self, schema: Mapping[str, Any], deck: Sequence[Any], players: int, max_legal: int
    ) -> None:
        kinds = sorted({str(c) for c in deck})
        self.card_index = {text: i for i, text in enumerate(kinds)}
        """Card text -> position in a card plane."""
        k = self.kinds = len(kinds)
        self.deck_size = float(max(1, len(deck)))
        self.players = n = players
        self.actions = max_legal
        self._warned = False
        zones = list(schema["zones"])
        owned: dict[int, list[int]] = {}
        for z, spec in enumerate(zones):
            if spec["owner"] is not None:
                owned.setdefault(int(spec["owner"]), []).append(z)
        shared = [z for z, spec in enumerate(zones) if spec["owner"] is None]
        alike = len(owned) == n and len({len(v) for v in owned.values()}) == 1
        self.zone_order: tuple[tuple[int, ...], ...] = tuple(
            tuple(shared + [z for r in range(n) for z in owned[(seat + r) % n]])
            if alike
            else tuple(range(len(zones)))
            for seat in range(n)
        )
        """Per seat, the zones in observation order."""
        self.fields: list[tuple[str, str, str]] = []
        self.choices: dict[str, tuple[Any, ...]] = {}
        """Per ``"choice"`` field (or per-seat of them), its declared values in order."""
        self.choice_places: dict[str, dict[Any, int]] = {}
        """Per ``"choice"`` field, the place of each value (by :func:`choice_key`)."""
        planes = 2 * k * len(zones)
        scalars = 2 * len(zones)
        for f in schema["fields"]:
            kind, of = f["kind"], f["of"]
            self.choices[f["name"]] = choices = tuple(f.get("choices") or ())
            self.choice_places[f["name"]] = {choice_key(c): i for i, c in enumerate(choices)}
            width = self._width(of if kind == "per-seat" else kind, k, n, len(choices))
            count = n if kind == "per-seat" else 1
            if width is None:
                continue
            self.fields.append((f["name"], kind, of))
            if (of if kind == "per-seat" else kind) in ("int", "float", "bool"):
                scalars += count
            else:
                planes += count * width
        self.planes = planes
        self.scalars = scalars + 2

    @staticmethod
    def _width(kind: str, k: int, n: int, choices: int) -> int | None:
        if kind in ("int", "float", "bool"):
            return 1
        if kind in ("card", "cards"):
            return k
        if kind == "seat":
            return n + 1
        if kind == "choice":
            return choices + 1  # each declared value, then none of them
        return None

    def action_names(self) -> Sequence[str]:
        """``legal[i]``: the *i*-th legal action in the game's order."""
        return [f"legal[{i}]" for i in range(self.actions)]

    def action_indices(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Sequence[int]:
        """The position of each legal action, ``-1`` from ``max_legal`` on."""
        cap = self.actions
        if len(legal) <= cap:
            return range(len(legal))
        if not self._warned:
            self._warned = True
            msg = (
                f"{len(legal)} legal actions but an action space of {cap}: the rest are left out"
                " (declare GameLogic.max_legal)"
            )
            warnings.warn(msg, RuntimeWarning, stacklevel=2)
        return [i if i < cap else -1 for i in range(len(legal))]

    def observe(self, view: Mapping[str, Any]) -> tuple[Sequence[int], Sequence[float]]:
        """Card planes of every zone and the declared fields (see the class docstring)."""
        seat: int = view["seat"]
        n = self.players
        k = self.kinds
        index = self.card_index
        size = self.deck_size
        hot: list[int] = []
        scalars: list[float] = []
        zones = view["zones"]
        base = 0
        for z in self.zone_order[seat]:
            cards = zones[z]["cards"]
            hidden = 0
            for c in cards:
                if c is None:
                    hidden += 1
                elif c in index:
                    hot.append(base + index[c])
            if cards and cards[0] is not None and cards[0] in index:
                hot.append(base + k + index[cards[0]])
            scalars.append(len(cards) / size)
            scalars.append(hidden / size)
            base += 2 * k
        table = view["table"]
        for name, kind, of in self.fields:
            value = table.get(name)
            if kind == "per-seat":
                values = list(value) if isinstance(value, list | tuple) else [None] * n
                values = (values + [None] * n)[:n]
                for r in range(n):
                    base = self._field(values[(seat + r) % n], of, seat, base, hot, scalars, name)
            else:
                base = self._field(value, kind, seat, base, hot, scalars, name)
        scalars.append(1.0 if seat in view["to_act"] else 0.0)
        scalars.append(1.0 if view["is_over"] else 0.0)
        return hot, scalars

    def _field(
        self,
        value: Any,
        kind: str,
        seat: int,
        base: int,
        hot: list[int],
        scalars: list[float],
        name: str,
    ) -> int:
        """Encode one field value; return the next plane position."""
        if kind in ("int", "float", "bool"):
            scalars.append(float(value) if isinstance(value, int | float) else 0.0)
            return base
        if kind == "choice":  # as JSON tells them apart: True is no choice of 1, 1.0 is 1
            places = self.choice_places[name]
            hot.append(base + places.get(choice_key(value), len(places)))
            return base + len(places) + 1
        index = self.card_index
        if kind == "card":
            if isinstance(value, str) and value in index:
                hot.append(base + index[value])
            return base + self.kinds
        if kind == "cards":
            for c in value if isinstance(value, list | tuple) else ():
                if isinstance(c, str) and c in index:
                    hot.append(base + index[c])
            return base + self.kinds
        n = self.players  # kind == "seat"
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n:
            hot.append(base + (value - seat) % n)
        else:
            hot.append(base + n)
        return base + n + 1

    def progress(self, view: Mapping[str, Any]) -> Sequence[float] | None:
        """None: a game without its own encoding has no score reward."""
        return None


def encoding_for(game: Game) -> Encoding:
    """Return the encoding of *game*'s configuration: the game's own, or :class:`GenericEncoding`.

    It remembers the configuration (game, rules, seats, options), so that
    :func:`~cardcore.rl.observe` refuses it for a game of another (naming what differs).

    :raises ArgumentError: *game* is not a :class:`~cardcore.Game`.
    """
    if not isinstance(game, Game):
        msg = f"encoding_for takes a Game, not {shown(game)}"
        raise ArgumentError(msg)
    logic = game.logic
    players = len(game.players)
    cls = type(logic).rl_encoding
    enc: Encoding
    if cls is not None:
        enc = cls(logic, players, game.options)
    else:
        cap = type(logic).max_legal or DEFAULT_MAX_LEGAL
        enc = GenericEncoding(game.view_schema(), logic.deck(players, game.options), players, cap)
    # what misfit() compares; an encoding that takes no attribute is checked by its seats only
    with contextlib.suppress(Exception):
        setattr(enc, _MADE_FOR, (game.ruleset, game.name, game.rules, players, dict(game.options)))
    return enc


_MADE_FOR = "_cardcore_made_for"
"""The attribute :func:`encoding_for` sets: (ruleset, game name, rules, seats, options)."""


def misfit(encoding: Any, game: Game) -> str | None:
    """Why *encoding* is not an encoding of *game*'s configuration, or ``None`` if none shows.

    One from :func:`encoding_for` knows its game, rules, seats and options; of any
    other only a ``players`` attribute shows.
    """
    players = len(game.players)
    try:
        made_for = getattr(encoding, _MADE_FOR, None)
        if made_for is None:
            declared = getattr(encoding, "players", players)
            if declared == players:
                return None
            return f"it encodes {declared} seats, the game has {players}"
    except Exception:  # an object whose attributes fail: Observer says what is wrong
        return None
    ruleset, name, rules, seats, options = made_for
    if name != game.name:
        return f"it encodes {name}, not {game.name}"
    if seats != players:
        return f"it encodes {seats} seats, the game has {players}"
    if ruleset is not game.ruleset and rules != game.rules:
        return f"it encodes rules {list(rules)}, the game has {list(game.rules)}"
    if options != game.options:
        theirs = dict(game.options)
        keys = [k for k in {**options, **theirs} if options.get(k, ...) != theirs.get(k, ...)]
        mine, given = (
            ", ".join(f"{k}={d[k]!r}" if k in d else f"{k} unset" for k in keys)
            for d in (options, theirs)
        )
        return f"it encodes options {mine}, the game has {given}"
    return None
