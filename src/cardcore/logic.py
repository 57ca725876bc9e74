"""The interface a game implements: :class:`GameLogic`.

One logic object serves every game of one configuration, so it keeps no
per-game state: everything that changes lives in the :class:`GameState` it is
handed. The core's :class:`~cardcore.Game` does the rest (turn and seat
checks, stale detection, locking, records, events, views' envelope).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore.actions import Action
from cardcore.cards import Card
from cardcore.errors import NotationError, OptionError
from cardcore.events import Event
from cardcore.state import GameState, Result

if TYPE_CHECKING:
    from cardcore.plugins import Ruleset

__all__ = ["Emit", "GameLogic"]

Emit = Callable[[Event], None]
"""The event sink handed to :meth:`GameLogic.apply`; ``None`` when nobody listens."""


class GameLogic:
    """Base class of a game's rules engine. Override the methods marked *required*.

    :param ruleset: The configuration this logic serves. Resolve hooks here.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.info = ruleset.game
        self._decks: dict[Any, tuple[Card, ...]] = {}

    # -- set-up ---------------------------------------------------------------------------

    def validate(self, players: int, options: Mapping[str, Any]) -> None:
        """Raise :class:`OptionError` if *players* seats with *options* cannot play.

        The default checks the game's declared seat range.
        """
        if not self.info.min_players <= players <= self.info.max_players:
            msg = (
                f"{self.info.name} takes {self.info.min_players} to {self.info.max_players} players,"
                f" not {players} (CORE-SEAT-2)"
            )
            raise OptionError(msg)

    def deck(self, players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
        """Return every card in play (a multiset); default: the ``build_deck`` hook, cached."""
        try:
            key: Any = (players, tuple(options.items()))
            return self._decks[key]
        except KeyError:
            pass
        except TypeError:  # an unhashable option value: let the ruleset key it
            key = None
        cards: tuple[Card, ...] = self.ruleset.cached(
            "build_deck", players=players, options=options
        )
        if key is not None:
            self._decks[key] = cards
        return cards

    def action_bound(self, players: int, options: Mapping[str, Any]) -> int:
        """*Required.* The most actions a game can take before runners call it truncated."""
        raise NotImplementedError

    def new_state(
        self, players: int, options: Mapping[str, Any], cards: list[Card], seed: int
    ) -> GameState:
        """*Required.* Deal a new game from *cards* (bottom to top: ``cards[-1]`` is dealt first).

        The state's ``seed`` is already known (for later shuffles through
        ``state.rng()``); the core sets ``state.seed`` and ``state.draws``
        after this returns.
        """
        raise NotImplementedError

    # -- play -----------------------------------------------------------------------------

    def legal_actions(self, state: GameState, seat: int) -> tuple[Action, ...]:
        """*Required.* The actions *seat* may take now, in a stable documented order.

        Return ``()`` for a seat that may not act. The core caches the answer
        per state version.
        """
        raise NotImplementedError

    def apply(self, state: GameState, action: Action, emit: Emit | None) -> None:
        """*Required.* Apply a legal *action* to *state* (the core checked legality).

        Set ``state.to_act``, and when the game ends ``state.is_over`` and
        ``state.result``. Build events only if *emit* is not ``None``. Must not
        fail half way: do every check before the first change.
        """
        raise NotImplementedError

    def parse_action(self, state: GameState, seat: int, text: str) -> Action:
        """Turn *text* into an action of *seat* or raise :class:`NotationError`.

        The default matches *text* (case- and space-insensitive) against the
        notation of the seat's legal actions, so a game whose actions are all
        enumerable needs nothing more; text that names no legal action raises
        :class:`NotationError`. Override it to tell malformed text from a
        well-formed but illegal action.
        """
        wanted = " ".join(text.split()).lower()
        for action in self.legal_actions(state, seat):
            if str(action).lower() == wanted:
                return action
        msg = f"not an action of {self.info.name} for seat {seat} now: {text!r} (CORE-NOTATION-1)"
        raise NotationError(msg)

    def rule_for(self, state: GameState, action: Action) -> tuple[str, str]:
        """Return ``(rule_id, reason)`` for an *action* that is not legal in *state*.

        Games override it to cite their own rules; the default cites CORE-LEGAL-1.
        """
        return "CORE-LEGAL-1", f"{str(action)!r} is not a legal action for seat {action.seat} now"

    # -- views ----------------------------------------------------------------------------

    def table(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """*Required.* The game's own part of a view: JSON-ready, only what *seat* may know.

        *seat* ``None`` is a spectator. Use :meth:`cardcore.Zones.show` so hidden
        cards come out as ``None``.
        """
        raise NotImplementedError

    def scores(self, state: GameState) -> tuple[float, ...]:
        """The current score per seat (used when a game stops early). Default: zeros."""
        return tuple(0.0 for _ in range(state.players))

    def payouts(self, state: GameState) -> tuple[int, ...] | None:
        """The current net payouts per seat, or ``None`` for games without stakes."""
        return None

    def standings(self, state: GameState) -> tuple[int, ...]:
        """The seats that lead now (used by :meth:`end_match`). Default: every seat."""
        return tuple(range(state.players))

    # -- early ends -------------------------------------------------------------------------

    def resign(self, state: GameState, seat: int) -> None:
        """End the game because *seat* resigned; by default every other seat wins."""
        state.is_over = True
        state.to_act = ()
        winners = tuple(s for s in range(state.players) if s != seat)
        state.result = Result(winners, self.scores(state), self.payouts(state), "resigned")

    def end_match(self, state: GameState) -> None:
        """End the game because the host stopped it; the leaders (:meth:`standings`) win."""
        state.is_over = True
        state.to_act = ()
        state.result = Result(
            self.standings(state), self.scores(state), self.payouts(state), "ended"
        )

    # -- helpers for subclasses -----------------------------------------------------------------

    @staticmethod
    def parse_error(text: str, expected: str, rule_id: str = "CORE-NOTATION-1") -> NotationError:
        """Build the standard :class:`NotationError` for malformed *text*."""
        return NotationError(f"cannot read {text!r}: expected {expected} ({rule_id})")

    @staticmethod
    def check_players(name: str, players: int, low: int, high: int) -> None:
        """Raise :class:`OptionError` unless ``low <= players <= high``."""
        if not low <= players <= high:
            msg = f"{name} takes {low} to {high} players, not {players} (CORE-SEAT-2)"
            raise OptionError(msg)

    @staticmethod
    def seats_in_order(first: int, players: int) -> Sequence[int]:
        """Seats clockwise starting at *first*."""
        return [(first + i) % players for i in range(players)]
