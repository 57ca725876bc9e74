"""Every hook of the core, grouped by phase.

Hooks answer questions and report facts; they never change the state. Hot
hooks are resolved into plain callables when a configuration is built (see
:meth:`cardcore.Ruleset.chain`), so a house rule costs nothing per decision
unless it really filters decisions. Games add hookspecs of their own through
``GameInfo.hookspecs``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardcore._markers import hookspec
from cardcore.actions import Action
from cardcore.cards import Card
from cardcore.events import Event
from cardcore.info import Veto
from cardcore.state import GameState

if TYPE_CHECKING:
    from cardcore.logic import GameLogic
    from cardcore.plugins import Ruleset


__all__ = [
    "build_deck",
    "card_points",
    "create_logic",
    "determinize",
    "forbid_action",
    "hookspec",
    "on_event",
    "score_round",
]

# --- configuration: called once when a game + rules configuration is built -----------


@hookspec(firstresult=True)
def create_logic(ruleset: Ruleset) -> GameLogic | None:
    """Return the game logic for this configuration.

    Stops at the first non-``None`` result. The game implements it; house rules
    normally do not (they change behaviour through narrower hooks).

    :param ruleset: The configuration: game, rules and the plugin manager.
        Resolve every hook the hot path needs here, once.
    :returns: A :class:`~cardcore.GameLogic` instance, shared by every game of
        this configuration.

    .. versionadded:: 0.1
    """


@hookspec(firstresult=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...] | None:
    """Return every card in play for *players* seats and these *options*.

    Stops at the first non-``None`` result. The core answers one standard deck
    (``trylast``); games answer their own counts; house rules that add cards
    use ``wrapper=True`` and extend the deck the inner hooks return. Called at
    most once per (players, options) and configuration: the result is cached.

    :param players: The number of seats.
    :param options: The game's resolved options.
    :returns: The cards as a tuple (the order is irrelevant; it is shuffled).

    .. versionadded:: 0.1
    """


@hookspec(firstresult=True)
def card_points(card: Card) -> int | None:
    """Return the points *card* is worth when a hand is scored.

    Stops at the first non-``None`` result. Games implement this with
    ``trylast=True``; house rules return ``None`` for cards they ignore. Games
    ask it once per card when the configuration is built and keep the answers
    in a :class:`~cardcore.ScoreTable`.

    :param card: The card being valued.
    :returns: Points for *card*, or ``None`` to defer to the next plugin.

    .. versionadded:: 0.1
    """


# --- play: resolved once per configuration, called by the game's logic -------------------


@hookspec
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Forbid *action* in *state*, or return ``None`` to allow it.

    All results are collected; any :class:`~cardcore.Veto` makes the action
    illegal (the game leaves it out of ``legal_actions`` and cites the veto's
    rule ID if it is applied anyway). Games resolve this chain once, so only
    configurations that contain such a rule pay for it.

    :param state: The current table. Read it, never change it.
    :param action: A candidate action.
    :returns: A veto, or ``None``.

    .. versionadded:: 0.1
    """


@hookspec(firstresult=True)
def determinize(state: GameState, seat: int, rng: random.Random) -> bool | None:
    """Re-deal, in place, the cards of *state* that *seat* cannot know.

    Stops at the first non-``None`` result. The core's default (``trylast``)
    shuffles every card that *seat* does not know (see
    :meth:`cardcore.Zones.knows`) among the places those cards occupy, which
    is consistent with all that the seat has seen. A game whose players can
    infer more (a card known to be in some opponent's hand) implements it to
    keep those inferences true. Called by :meth:`cardcore.Game.determinize`
    on a clone, never on a live game.

    :param state: A cloned state, to change in place.
    :param seat: The seat whose knowledge must stay true.
    :param rng: The generator to shuffle with.
    :returns: ``True`` once done, or ``None`` to defer to the next plugin.

    .. versionadded:: 0.1
    """


# --- scoring -----------------------------------------------------------------------------


@hookspec(firstresult=True)
def score_round(state: GameState, scores: Sequence[int]) -> Sequence[int] | None:
    """Return the final scores of the round just played, one per seat.

    Stops at the first non-``None`` result; the core's default returns *scores*
    unchanged (``trylast``). House rules that adjust scores (a penalty for the
    player who ended the round) use ``wrapper=True`` and change what the inner
    hooks return.

    :param state: The table at scoring time, every card face up. Read only.
    :param scores: The scores the game computed by its base rules.
    :returns: The adjusted scores.

    .. versionadded:: 0.1
    """


# --- observation ---------------------------------------------------------------------------


@hookspec
def on_event(event: Event) -> None:
    """Observe *event* after it happened (full, unredacted).

    Results are ignored. Called after the game's lock is released, in version
    order, like subscribers. Plugins keep no per-game state, so this is for
    logging and metrics, not for rules.

    :param event: The event.

    .. versionadded:: 0.1
    """
