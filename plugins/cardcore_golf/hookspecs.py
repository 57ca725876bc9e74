"""Golf's own hookspecs, implemented by Golf house rules (``GAME.hookspecs``).

Every hook here is a configuration-time question: the Golf logic asks it once per
configuration, player count and options (its round plan; the scoring hooks once per round)
and keeps the answer, so no hook runs per decision. Decisions are filtered through the core's ``forbid_action``;
where a house rule applies (which layouts) is data on its ``RuleInfo(applies=...)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore import ScoreTable, hookspec
from cardcore_golf.grids import GridShape, Scorer

__all__ = [
    "golf_ender_penalty",
    "golf_ender_ties_pay",
    "golf_final_turns",
    "golf_removable_groups",
    "golf_round_awards",
    "golf_score_table",
    "golf_scorer",
]

# --- configuration ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def golf_score_table(layout: GridShape, options: Mapping[str, Any]) -> ScoreTable | None:
    """Return the points table (card -> points) before per-card overrides.

    Stops at the first non-``None`` result. The game answers BASIC (GOLF-SCORE-1) with
    ``trylast=True``; a house rule may answer another table. Per-card values from the core's
    ``card_points`` hook (jokers, bonus cards) take precedence over the table.

    :param layout: The chosen layout.
    :param options: The game's resolved options, a house rule's own among them, so a rule
        may set card values by its option (``BASIC.replace({"JH": options["jh_value"]})``);
        an implementation that needs none leaves it out of its arguments.
    :returns: A :class:`~cardcore.ScoreTable`, or ``None`` to defer. It must score every
        card of the deck that ``card_points`` does not (give it a ``default``) in whole
        points: a table that leaves a rank out is a :class:`~cardcore.PluginError` naming
        the rule, raised by ``new_game`` before anything is dealt.

    .. versionadded:: 0.1
    .. versionchanged:: 0.3
       The *options* argument.
    """


@hookspec(firstresult=True)
def golf_scorer(layout: GridShape) -> Scorer | None:
    """Return the function that scores one layout after cancelling.

    Stops at the first non-``None`` result. The game answers the seed's cancelling for every
    layout (``trylast``); house rules that change cancelling answer for the layouts they serve
    and ``None`` for the others. See :mod:`cardcore_golf.grids` for ready-made scorers.
    A removing rule (``golf_removable_groups``) keeps a group in the layout only under a
    ready-made scorer that chooses which equal cards cancel
    (:func:`~cardcore_golf.grids.cancels_without_choice`); a scorer of your own is taken
    to cancel without choice.

    :param layout: The chosen layout.
    :returns: A scorer ``(keys, points) -> int``, or ``None`` to defer.

    .. versionadded:: 0.1
    """


@hookspec(firstresult=True)
def golf_final_turns(layout: GridShape) -> bool | None:
    """Say whether completing a layout grants the other players one final turn each.

    Stops at the first non-``None`` result; the game answers ``True`` (GOLF6-END-1,
    ``trylast``).

    :param layout: The chosen layout.
    :returns: ``True`` or ``False``, or ``None`` to defer.

    .. versionadded:: 0.1
    """


@hookspec
def golf_removable_groups(layout: GridShape) -> Sequence[Sequence[int]] | None:
    """Return groups of positions removed from play once complete, face up and cancelled.

    All results are merged. The game answers nothing; a house rule may answer the columns
    of a two-row grid, or the rows and columns of GOLF9. A removed group's cards
    go to the bottom of the discard pile and its positions stay empty: a ``replace`` of
    one is refused citing the ``RuleInfo.id`` of the first rule (in call order; a wrapper is
    never asked) with a group through it whose positions are all empty.

    :param layout: The chosen layout (``layout.key`` is its text: ``"6"``, ``"4h"``).
    :returns: Position groups, or ``None``.

    .. versionadded:: 0.1
    """


# --- scoring (called once per round) ------------------------------------------------------------


@hookspec
def golf_round_awards(
    layout: GridShape, keys: Sequence[Sequence[int | None]]
) -> Sequence[int] | None:
    """Return points to add to each seat's round score (bonuses given to other players).

    All results are summed per seat; they are added before any ender penalty (GOLF-PEN-4).

    :param layout: The layout played.
    :param keys: Every seat's pairing keys by position (``None`` = empty position).
    :returns: One amount per seat, or ``None``.

    .. versionadded:: 0.1
    """


@hookspec(firstresult=True)
def golf_ender_ties_pay(layout: GridShape) -> bool | None:
    """Say whether an ender who ties for the lowest round score pays the ender penalty.

    Stops at the first non-``None`` result; the game answers ``False`` (GOLF-PEN-4,
    ``trylast``). Asked once per scored round that has an ender, when a house rule
    implements :func:`golf_ender_penalty` (without one nobody pays, so it is not asked);
    the answer reaches :func:`golf_ender_penalty` as part of *pays*.

    :param layout: The layout played.
    :returns: ``True`` or ``False``, or ``None`` to defer.

    .. versionadded:: 0.2
    """


@hookspec(firstresult=True)
def golf_ender_penalty(
    layout: GridShape, scores: Sequence[int], ender: int, pays: bool
) -> int | None:
    """Return the penalty added to the ender's round score (GOLF-PEN-1..4).

    Stops at the first non-``None`` result. The game has no penalty. Called only when the
    round has an ender.

    :param layout: The layout played.
    :param scores: Every seat's round score, awards included, before the penalty.
    :param ender: The seat that knocked or completed its layout.
    :param pays: Whether the ender must pay: another seat scored strictly lower, or the
        ender ties for the lowest score and :func:`golf_ender_ties_pay` says ties pay. The
        built-in penalties charge exactly when it is ``True``.
    :returns: The points to add (0 for none), or ``None`` to defer.

    .. versionadded:: 0.1
    .. versionchanged:: 0.2
       The *pays* argument.
    """
