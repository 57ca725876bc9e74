"""Every hook of the core, grouped by phase.

Hooks answer questions and report facts; they never change the state. A game's
logic resolves the hooks it needs once, when a configuration is built, with
:meth:`cardcore.Ruleset.resolve` (``None`` when no plugin implements one), so a
house rule costs nothing per decision unless it really filters decisions. The
core itself applies :func:`forbid_action` and :func:`score_round` for every
game. Games add hookspecs of their own through ``GameInfo.hookspecs``; a plugin
implementing a hook that no specification of its configuration knows is
refused with :class:`~cardcore.PluginError` unless marked
``@hookimpl(optionalhook=True)``.
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
def create_logic(ruleset: Ruleset) -> GameLogic[Any, Any] | None:
    """Return the game logic for this configuration.

    Stops at the first non-``None`` result. The game implements it; house rules
    normally do not (they change behaviour through narrower hooks). Called once
    per configuration (a game and its chosen house rules).

    :param ruleset: The configuration: game, rules and the plugin manager.
        Resolve every hook the hot path needs here, once, with
        :meth:`~cardcore.Ruleset.resolve`.
    :returns: A :class:`~cardcore.GameLogic` instance (``GameLogic[S, A]``,
        generic over the game's state and action types), shared by every game
        of this configuration.

    .. versionadded:: 0.1
    """


@hookspec(firstresult=True)
def build_deck(players: int, options: Mapping[str, Any]) -> tuple[Card, ...] | None:
    """Return every card in play for *players* seats and these *options*.

    Stops at the first non-``None`` result. The core answers one standard deck
    (``trylast``); games answer their own counts; house rules that add cards
    use ``wrapper=True`` and extend the deck the inner implementations return
    (``build_deck`` always has an answer beneath a wrapper: the core's). Called
    at most once per (players, options) and configuration: the result is
    cached (see :meth:`cardcore.GameLogic.deck`).

    :param players: The number of seats.
    :param options: The game's resolved options.
    :returns: The cards as a tuple (the order is irrelevant; it is shuffled).

    .. versionadded:: 0.1
    """


@hookspec(firstresult=True)
def card_points(card: Card) -> int | None:
    """Return the points *card* is worth when a hand is scored.

    Stops at the first non-``None`` result. The core has no default (what a card
    scores is each game's own rule), so a game that scores cards implements this
    with ``trylast=True``; house rules return ``None`` for cards they ignore. Games
    ask it once per card when the configuration is built and keep the answers
    in a :class:`~cardcore.ScoreTable` (:meth:`ScoreTable.from_points
    <cardcore.ScoreTable.from_points>`), so it costs nothing per decision.

    :param card: The card being valued.
    :returns: Points for *card*, or ``None`` to defer to the next plugin.

    .. versionadded:: 0.1
    """


# --- play: resolved once per configuration, applied by the core ------------------------


@hookspec
def forbid_action(state: GameState, action: Action) -> Veto | None:
    """Forbid *action* in *state*, or return ``None`` to allow it.

    All results are collected; any :class:`~cardcore.Veto` makes the action
    illegal. The core applies it for every game, turn-based and real-time: it
    leaves vetoed actions out of :meth:`Game.legal_actions
    <cardcore.Game.legal_actions>` and, when one is applied anyway, raises
    :class:`~cardcore.IllegalActionError` citing the veto's rule ID. Games never
    call it. The chain is resolved once per configuration, so a configuration
    without a veto pays nothing. A rule that implements only this hook works in
    every game.

    :param state: The current table. Read it, never change it.
    :param action: A candidate action (its :attr:`~cardcore.Action.verb`, its
        fields and ``str(action)``, its notation, tell what it does).
    :returns: A veto, or ``None``.

    .. versionadded:: 0.1

    .. versionchanged:: 0.2
       Applied by the core for every game; games no longer wire it.
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
    on a clone, never on a live game. Put the hidden cards in an order of their
    own (sorted) before shuffling them: the caller chose the seed, and a shuffle
    of the cards as they lie could be undone to find where each one really is.

    :param state: A cloned state, to change in place.
    :param seat: The seat whose knowledge must stay true.
    :param rng: The generator to shuffle with.
    :returns: ``True`` once done, or ``None`` to defer to the next plugin.

    .. versionadded:: 0.1
    """


# --- scoring -----------------------------------------------------------------------------


@hookspec(firstresult=True)
def score_round(state: GameState, scores: Sequence[int]) -> Sequence[int] | None:
    """Adjust the scores of the round (or hand) just played, one integer per seat.

    Stops at the first non-``None`` result. The core applies it for every game
    that scores rounds: the game passes each round's contribution in its own
    unit (points in Golf, money in Tonk: stakes times the stake, ``[5, -5]`` at stake
    5) to :meth:`GameLogic.score_round
    <cardcore.GameLogic.score_round>` before adding it to any total, and the
    core calls this hook. Without a rule implementing it, nothing is called
    and the scores stand; with one, the core answers last (``trylast``) with
    *scores* unchanged. The core checks the answer: one integer per seat and,
    for a game declared ``GameInfo(zero_sum=True)``, a zero sum; anything else
    raises :class:`~cardcore.PluginError` naming the rule. A rule that composes
    with other score rules uses ``wrapper=True``: ``inner = yield`` is what the
    rules beneath it answered (the scores themselves when none changed them).

    :param state: The table at scoring time, every card face up. Read only.
    :param scores: The round's scores as the game's base rules computed them.
    :returns: The adjusted scores, or ``None`` to leave them to the next plugin.

    .. versionadded:: 0.1

    .. versionchanged:: 0.2
       Applied by the core for every game that scores rounds; the answer's
       length and zero sum are checked.
    """


# --- observation ---------------------------------------------------------------------------


@hookspec
def on_event(event: Event) -> None:
    """Observe *event* after it happened (full, unredacted).

    Results are ignored. Called after the game's lock is released, in version
    order, like subscribers. Plugins keep no per-game state, so this is for
    logging and metrics, not for rules. An observer counts as a listener: games
    build their events while one is registered.

    :param event: The event (it shows every hidden card: keep what you log private).

    .. versionadded:: 0.1
    """
