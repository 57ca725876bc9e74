"""A session's settings: time controls, limits, spectators, takebacks, fair deals.

Every setting is a frozen value with a JSON form, so the store keeps it with
the session and a restarted process runs the game under the same settings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardcore._earlier import earlier_rules, joining
from cardcore._options import own
from cardcore._text import one_of, plain, shown
from cardcore._versions import version_key
from cardcore.deck import _VERSION, CHANCE, LEGACY_CHANCE
from cardcore.errors import CardcoreError, CorruptStateError, OptionError, PluginError
from cardcore.game import Game
from cardcore.plugins import game_info, get_ruleset, rule_info
from cardcore.session.protocol import finite
from cardcore.setup import Listener, new_game

__all__ = ["GameSetup", "Limits", "SessionConfig", "TimeControl"]

MAX_KEEP = 1_000_000
"""The most messages a stream may keep for resyncs (a deque's length is an index-sized int)."""
_FALLBACKS = ("first", "resign", "wait")
_RESTARTS = ("pause", "continue")
_STARTS = ("seated", "now")


def _positive(name: str, value: Any, *, none: bool = True, unit: str = "seconds") -> None:
    if value is None and none:
        return
    if not finite(value) or value <= 0:
        msg = f"{name} must be a positive number of {unit}{' or None' if none else ''}, not {shown(value, 40)}"
        raise OptionError(msg)


def _count(name: str, value: Any, low: int = 0, high: int | None = None) -> None:
    if type(value) is not int or value < low or (high is not None and value > high):
        most = "" if high is None else f" and at most {high:,}"
        msg = f"{name} must be an integer of at least {low}{most}, not {shown(value, 40)}"
        raise OptionError(msg)


def _flag(name: str, value: Any) -> None:
    if type(value) is not bool:  # "no" is true
        msg = f"{name} must be True or False, not {shown(value)}"
        raise OptionError(msg)


def listed(what: str, value: Any) -> tuple[Any, ...]:
    """*value*, a list of names or cards, as a tuple: text alone would be read letter by letter.

    :raises OptionError: Text, a mapping, or something that is not a list.
    """
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        msg = f"{what} must be a list, not {shown(value)}"
        raise OptionError(msg)
    return tuple(value)


def mapping(what: str, value: Any) -> dict[Any, Any]:
    """*value*, a mapping, as a dict.

    :raises OptionError: Anything else (``dict("ab")`` raises a raw ValueError).
    """
    if not isinstance(value, Mapping):
        msg = f"{what} must be a mapping, not {shown(value)}"
        raise OptionError(msg)
    return dict(value)


def _fields(what: str, kind: type[Any], data: Any) -> dict[str, Any]:
    """*data*, a mapping of *kind*'s field names, as a dict.

    :raises OptionError: Not a mapping, or a key that names no field of *kind*.
    """
    values = mapping(what, data)
    names = [f.name for f in dataclasses.fields(kind)]
    for key in values:
        if key not in names:
            msg = f"no field {shown(key, 60)} in {what} (its fields: {one_of(names, 'and')})"
            raise OptionError(msg)
    return values


def _one_of(name: str, value: Any, options: tuple[str, ...]) -> None:
    if not (type(value) is str and value in options):  # (a str subclass may compare its way)
        msg = f"{name} must be one of {one_of(options)}, not {shown(value)}"
        raise OptionError(msg)


@dataclass(frozen=True)
class TimeControl:
    """How long seats may think, and what happens when the time is up.

    :param turn: Turn-based games: seconds a seat has for its turn, from the
        moment it is among the seats to act until it no longer is (a turn of
        several actions, such as draw then discard, shares one clock); the seat
        whose action ends a simultaneous round and begins the next gets a whole
        clock for it. Real-time games: seconds a seat that may act can stay idle, from when
        it has a legal action; each of its actions restarts its clock.
        ``None``: no turn clock.
    :param total: Seconds for the whole game from its start; when they run out
        the host ends the match (:class:`~cardcore.EndMatch`: the leaders win).
        Meant for real-time games. ``None``: no game clock.
    :param fallback: What a timed-out seat plays when the game's
        ``default_action`` answers ``None`` (or something illegal with no legal
        action of its kind: when a house rule vetoes the game's pick, the first
        legal action of the same kind is played instead): ``"first"`` its first
        legal action, ``"resign"`` it resigns, ``"wait"`` nothing (its clock
        starts again).
    :param forfeit: ``True``: a seat whose turn clock runs out resigns (the game's
        :class:`~cardcore.Resign`, as if it had resigned itself) instead of having a
        default action played for it: losing on time, as a tournament or a ranked
        table wants it. ``fallback`` and ``max_steps`` are then not used. It needs a
        *turn* clock (the game clock ends the match for everyone), and spares a
        real-time seat whose game says it has nothing to do now (Spit once a spit is
        asked for). Seats whose clocks run out at the same instant are taken in an
        order drawn from the game's seed, never by seat number.
    :param restart: Running clocks across a server restart: ``"pause"`` (the
        default) gives every running clock the time it had left when the session
        was last stored, counted again from the restart, so downtime is never
        charged to a seat; ``"continue"`` keeps the wall-clock deadlines, so a
        clock that ran out while the server was down fires at once.
    :param max_steps: Turn-based games: the most default actions one timeout
        plays while the seat stays to act (a turn is finished in steps; it stops
        where a new round begins).
    """

    turn: float | None = None
    total: float | None = None
    fallback: str = "first"
    restart: str = "pause"
    max_steps: int = 16
    forfeit: bool = False

    def __post_init__(self) -> None:
        _positive("turn", self.turn)
        _positive("total", self.total)
        _one_of("fallback", self.fallback, _FALLBACKS)
        _one_of("restart", self.restart, _RESTARTS)
        _count("max_steps", self.max_steps, 1)
        _flag("forfeit", self.forfeit)

    @property
    def is_on(self) -> bool:
        """Whether any clock runs."""
        return self.turn is not None or self.total is not None


@dataclass(frozen=True)
class Limits:
    """What one connection may send.

    :param max_message: The longest client message, in bytes of UTF-8 JSON.
    :param rate: Messages per second a connection may send on average.
    :param burst: Messages it may send at once.
    :param close_after: Messages dropped in a row before the connection is closed.
    :param max_spectators: Spectator connections at once.
    :param max_per_seat: Connections holding one seat at once (tabs, devices).
    """

    max_message: int = 8192
    rate: float = 20.0
    burst: int = 40
    close_after: int = 200
    max_spectators: int = 64
    max_per_seat: int = 4

    def __post_init__(self) -> None:
        _count("max_message", self.max_message, 64)
        _positive("rate", self.rate, none=False, unit="messages per second")
        _count("burst", self.burst, 1)
        _count("close_after", self.close_after, 1)
        _count("max_spectators", self.max_spectators)
        _count("max_per_seat", self.max_per_seat, 1)


@dataclass(frozen=True)
class SessionConfig:
    """How a session runs its game.

    :param time: The time controls (none by default).
    :param spectators: Whether spectators may watch.
    :param spectator_delay: Spectators see the game this many actions late
        (everything once it is over).
    :param takebacks: Whether seats of a turn-based game may ask for takebacks.
    :param takeback_timeout: Seconds the other seats have to answer a takeback request.
    :param fair: Publish a commitment to the deal at creation and reveal it at the
        end (see :mod:`cardcore.session.fair`). Refused for games from ``deck=``
        or ``position=``.
    :param seat_entropy: With *fair*: the deal waits until every seat has sent
        entropy of its own, mixed into the seed.
    :param entropy_wait: With *seat_entropy*: seconds, from the moment every
        seat is claimed, after which a missing seat's entropy counts as empty.
    :param start: ``"seated"``: the game is dealt once every seat is claimed;
        ``"now"``: at creation (entropy, when asked for, is still awaited).
    :param resync_keep: Messages kept per stream for resyncs (and in the store).
    :param token_ttl: Seconds a seat's token stays valid after the game ends.
    :param limits: What one connection may send.
    """

    time: TimeControl = field(default_factory=TimeControl)
    spectators: bool = True
    spectator_delay: int = 2
    takebacks: bool = True
    takeback_timeout: float = 60.0
    fair: bool = False
    seat_entropy: bool = False
    entropy_wait: float = 60.0
    start: str = "seated"
    resync_keep: int = 256
    token_ttl: float = 86400.0
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        _count("spectator_delay", self.spectator_delay)
        _positive("takeback_timeout", self.takeback_timeout, none=False)
        _positive("entropy_wait", self.entropy_wait, none=False)
        _positive("token_ttl", self.token_ttl, none=False)
        _count("resync_keep", self.resync_keep, 1, MAX_KEEP)
        _one_of("start", self.start, _STARTS)
        for flag in ("spectators", "takebacks", "fair", "seat_entropy"):
            _flag(flag, getattr(self, flag))
        for name, value, kind in (
            ("time", self.time, TimeControl),
            ("limits", self.limits, Limits),
        ):
            if not isinstance(value, kind):
                msg = f"{name} must be a {kind.__name__}, not {type(value).__name__}"
                raise OptionError(msg)
        if self.seat_entropy and not self.fair:
            msg = "seat_entropy needs fair=True (seats' entropy is mixed into a committed seed)"
            raise OptionError(msg)

    def to_json(self) -> dict[str, Any]:
        """Return the settings as JSON-ready data."""
        return dataclasses.asdict(self)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SessionConfig:
        """Read settings written by :meth:`to_json` (unknown keys are refused).

        :raises OptionError: A bad value.
        """
        values = _fields("session settings", cls, data)
        values["time"] = TimeControl(**_fields("time", TimeControl, values.get("time", {})))
        values["limits"] = Limits(**_fields("limits", Limits, values.get("limits", {})))
        return cls(**values)

    def public(self) -> dict[str, Any]:
        """The settings every client may know (sent in ``welcome``)."""
        return {
            "time": dataclasses.asdict(self.time),
            "spectators": self.spectators,
            "spectator_delay": self.spectator_delay,
            "takebacks": self.takebacks,
            "takeback_timeout": self.takeback_timeout,
            "fair": self.fair,
            "seat_entropy": self.seat_entropy,
            "max_message": self.limits.max_message,
            "rate": self.limits.rate,
            "burst": self.limits.burst,
        }


@dataclass(frozen=True)
class GameSetup:
    """The game a session plays: what :func:`cardcore.new_game` is given, but the seed.

    :param game: An installed game.
    :param players: The display names, one per seat.
    :param rules: House rules to add.
    :param without: Default rules switched off.
    :param options: The game's options.
    :param deck: Cards on top of the deck (no fair-deal commitment then).
    :param position: A starting position (no fair-deal commitment then).
    :raises OptionError: For a *game* or *position* that is not text, lists given as text
        (read letter by letter) or as something that is no list, or *options* that are not
        a mapping (what is in them, :meth:`build` checks).
    """

    game: str
    players: tuple[str, ...]
    rules: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    deck: tuple[str, ...] | None = None
    position: str | None = None

    def __post_init__(self) -> None:
        for what in ("game", "position"):  # a StrEnum or str subclass: its plain text
            object.__setattr__(self, what, plain(getattr(self, what)))
        if type(self.game) is not str or not (self.position is None or type(self.position) is str):
            msg = f"a game setup names its game (and any position) as text, not {shown(self.game)}, {shown(self.position)}"
            raise OptionError(msg)
        for what in ("players", "rules", "without", "deck"):
            if what != "deck" or self.deck is not None:
                object.__setattr__(self, what, listed(what, getattr(self, what)))
        options = mapping("options", self.options)  # its own copy of a list the caller keeps
        object.__setattr__(self, "options", {k: own(k, v) for k, v in options.items()})

    def to_json(self) -> dict[str, Any]:
        """Return the setup as JSON-ready data."""
        return {
            "game": self.game,
            "players": list(self.players),
            "rules": list(self.rules),
            "without": list(self.without),
            "options": _every_option(self),
            "deck": None if self.deck is None else list(self.deck),
            "position": self.position,
            "game_version": _installed_version(self.game),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> GameSetup:
        """Read a setup written by :meth:`to_json`.

        :meth:`to_json` writes every option, so a later change of a default does not
        change a stored game. A setup written by an earlier version of the game (or by
        cardcore 0.2.0, which wrote no version) gets the defaults of that version: an
        option it left out takes its earlier default (:attr:`cardcore.Option.default_before`),
        and the house rules that keep the earlier behaviour are added
        (:func:`cardcore.earlier_rules`), so a stored session resumes as it was played.

        :raises OptionError: *data* is not a setup: no game name or players, or a list
            or mapping of the wrong kind (what is in them, :meth:`build` checks).
        """
        data = mapping("a game setup", data)
        game = data.get("game")
        if type(game) is not str or "players" not in data:
            msg = f"a game setup names its game and its players, not {shown(data)}"
            raise OptionError(msg)
        deck: Sequence[str] | None = data.get("deck")
        rules = listed("rules", data.get("rules", ()))
        without = listed("without", data.get("without", ()))
        options = mapping("options", data.get("options", {}))
        version = data.get("game_version", "0")  # absent: written by cardcore 0.2.0
        if isinstance(version, str):
            rules += _earlier(game, version, rules, without, options)
        return cls(
            game=game,
            players=listed("players", data["players"]),
            rules=rules,
            without=without,
            options=options,
            deck=None if deck is None else listed("deck", deck),
            position=data.get("position"),
        )

    def build(
        self,
        seed: int,
        actions: Sequence[tuple[int, str, float | None]] = (),
        subscribers: Iterable[Listener] = (),
        after_each: Callable[[Game], None] | None = None,
        chance: int = CHANCE,
    ) -> Game:
        """Start the game with *seed* and replay *actions* (``(seat, notation, at)``) into it.

        :param subscribers: Subscriptions attached before the first card.
        :param after_each: Called after the deal (at version 0) and after each replayed action.
        :param chance: The chance derivation (:data:`cardcore.CHANCE`, or 2 for a session
            stored by cardcore 0.2.0 and earlier).
        :raises CorruptStateError: An action that does not replay, or *actions* not a list
            of ``(seat, notation, at)`` triples.
        :raises OptionError: *chance* is not a derivation this version knows
            (:data:`cardcore.CHANCE` or 2).
        """
        if type(chance) is not int or chance not in (LEGACY_CHANCE, CHANCE):
            msg = (
                f"chance must be {CHANCE} (or {LEGACY_CHANCE}, for 0.2.0), not {shown(chance, 40)}"
            )
            raise OptionError(msg)
        if (
            isinstance(actions, str)
            or not isinstance(actions, Sequence)
            or not all(isinstance(a, list | tuple) and len(a) == 3 for a in actions)
        ):
            msg = f"stored actions must be (seat, notation, at) triples, not {shown(actions, 60)}"
            raise CorruptStateError(msg)
        token = _VERSION.set(chance)
        try:
            game = new_game(
                self.game,
                list(self.players),
                rules=self.rules,
                without=self.without,
                options=dict(self.options),
                seed=seed,
                deck=None if self.deck is None else list(self.deck),
                position=self.position,
                subscribers=subscribers,
            )
        finally:
            _VERSION.reset(token)
        if after_each is not None:
            after_each(game)
        for i, (seat, text, at) in enumerate(actions):
            version = game.version
            try:
                game.act(seat, text, at=at)
            except CardcoreError as exc:
                if not (isinstance(exc, PluginError) and game.version == version + 1):
                    msg = f"stored action {i} ({seat}, {text!r}) does not replay: {exc}"
                    raise CorruptStateError(msg) from None
                # applied: the game's scores failed at its bound, as when it was played
                # (CORE-BOUND-1), and the session told and stored it then too
            if after_each is not None:
                after_each(game)
        return game


def _earlier(
    game: str,
    version: str,
    rules: tuple[str, ...],
    without: tuple[str, ...],
    options: dict[str, Any],
) -> tuple[str, ...]:
    """Fill in *options* left out with the defaults of game *version*; the rules it kept."""
    try:
        info = game_info(game)
        named = {*rules, *without}
        named |= {rule_info(r).id for r in named if isinstance(r, str) and _installed_rule(r)}
        added = tuple(
            r
            for r in earlier_rules(game, version)
            if r not in named and rule_info(r).id not in named
        )
    except (CardcoreError, TypeError):  # not installed, or odd rows: building will say so
        return ()
    mine = version_key(version)
    for opt in info.options:
        before = opt.default_before
        if before is not None and opt.name not in options and mine < version_key(before[0]):
            options[opt.name] = before[1]
    try:  # those that can join the rules named (applies, requires, conflicts)
        return joining(game, added, [r for r in rules if isinstance(r, str)], options)
    except (CardcoreError, TypeError):  # odd rows: building will say so
        return added


def _installed_rule(name: str) -> bool:
    try:
        rule_info(name)
    except CardcoreError:
        return False
    return True


def _every_option(setup: GameSetup) -> dict[str, Any]:
    """The setup's options with every default filled in, its rules' own options too
    (as given when they do not resolve)."""
    try:
        ruleset = get_ruleset(setup.game, setup.rules, setup.without)
        return dict(ruleset.resolve_options(setup.options))
    except CardcoreError:
        return dict(setup.options)


def _installed_version(game: str) -> str | None:
    try:
        return game_info(game).version
    except CardcoreError:
        return None
