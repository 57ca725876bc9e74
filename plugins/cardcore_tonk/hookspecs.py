"""Tonk's own hookspecs, added to every Tonk configuration's plugin manager.

Every one of them is asked **once**, when a configuration is built
(:class:`cardcore_tonk.logic.TonkLogic`'s ``__init__``, through
``ruleset.resolve``); answers that must act during play are plain callables
the logic keeps and calls. No hook is called per decision. One exception:
:func:`tonk_out_units` is also asked at each tonk-out when an implementation
reads its *options* (a house rule's own option steering the payout). House rules that
forbid actions use the core's ``forbid_action`` hook, and rules that adjust a
hand's payouts the core's ``score_round`` (the core applies both).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardcore import hookspec
from cardcore_tonk.melds import DealVerdict
from cardcore_tonk.state import TonkState

__all__ = [
    "tonk_deal_judge",
    "tonk_deal_shows_every_hand",
    "tonk_hand_ends_on_empty_stock",
    "tonk_out_units",
    "tonk_quiet_from_discards",
    "tonk_upcard",
    "tonk_void_deal_counts",
]

# --- the deal ------------------------------------------------------------------------


@hookspec(firstresult=True)
def tonk_upcard() -> bool | None:
    """Return whether the deal turns the next card up to start the discard pile.

    Stops at the first non-``None`` result; the game answers ``True``
    (TONK-DEAL-2) with ``trylast=True``.

    :returns: ``True`` to turn an upcard, ``False`` to leave the pile empty.

    .. versionadded:: 0.1
    """


@hookspec
def tonk_deal_judge() -> (
    Callable[[Sequence[Sequence[int]], Sequence[int]], DealVerdict | None] | None
):
    """Return a function that may settle a hand right after the deal, before any turn.

    All results are collected; the game calls the functions in order after each
    deal and the first verdict that is not ``None`` ends the hand. The function
    receives the dealt hands as card indices (``cardcore_tonk.melds.card_index``)
    and the card values by index. A verdict with ``redeal=True`` is not one of the
    session's hands: the next dealer deals the hand again.

    :returns: The judging function, or ``None``.

    .. versionadded:: 0.1
    """


# --- the end of a hand -----------------------------------------------------------------


@hookspec(firstresult=True)
def tonk_out_units(new_spread: bool, options: Mapping[str, Any]) -> int | None:
    """Return how many stakes every other player pays a player who tonks out.

    Stops at the first non-``None`` result; the game answers 2 (TONK-OUT-1) with
    ``trylast=True``. Asked twice per configuration, once for each value of
    *new_spread*, with the configuration's default options; when an implementation
    takes *options*, asked again at each tonk-out with the game's own (so a house
    rule's option, ``options["tonk_multiple"]``, sets the payout). Only the answers under
    the default options are checked when the game is created; one refused under other
    options raises :class:`~cardcore.PluginError` at that tonk-out (the game restored), as
    does an answer whose payout (the answer times the stake, from each other player)
    would take a balance past the ledger's bound of ``10**15`` (checked before
    ``score_round`` adjusts the payout).

    :param new_spread: Whether the player laid a new spread in the turn they went out.
    :param options: The game's options, house rules' options included (read only).
    :returns: The number of stakes.

    .. versionadded:: 0.1
    .. versionchanged:: 0.6
       The *options* argument (an implementation may leave it out, as before).
    """


@hookspec(firstresult=True)
def tonk_hand_ends_on_empty_stock() -> Callable[[TonkState], bool] | None:
    """Return the function deciding whether a turn that begins with an empty stock ends the hand.

    Stops at the first non-``None`` result; the game answers a function that
    always says ``True`` (TONK-STOCK-1) with ``trylast=True``. The game calls the
    function only when a turn begins with an empty stock; when it says ``False``
    the turn goes on and the player may drop, take the top discard, or ask for
    the stock (``draw``), which ends the hand as TONK-STOCK-2. A rule that
    answers here makes ``draw`` legal with the stock out, whatever it answers.

    :returns: A function of the state.

    .. versionadded:: 0.1
    """


@hookspec(firstresult=True)
def tonk_quiet_from_discards() -> bool | None:
    """Return whether only turns played from the discards with the stock out count toward
    a quiet round (``TonkState.quiet_turns``, read by rules that end a hand after one).

    Stops at the first non-``None`` result; the game answers ``True`` with
    ``trylast=True``. ``False`` counts every turn without a spread or a hit, as Tonk
    did before 0.4.0.

    :returns: ``True`` or ``False``.

    .. versionadded:: 0.4
    """


@hookspec(firstresult=True)
def tonk_void_deal_counts() -> bool | None:
    """Return whether a void deal (a judge's verdict with ``redeal=True``) is one of the
    session's hands.

    Stops at the first non-``None`` result; the game answers ``False`` with
    ``trylast=True``: the next dealer deals the hand again. ``True`` counts it, as
    Tonk did before 0.4.0 (a one-hand session then ends on it).

    :returns: ``True`` or ``False``.

    .. versionadded:: 0.4
    """


@hookspec(firstresult=True)
def tonk_deal_shows_every_hand() -> bool | None:
    """Return whether a hand settled at the deal (a deal judge's verdict) shows every hand,
    whatever seats the verdict names.

    Stops at the first non-``None`` result; the game answers ``False`` with
    ``trylast=True``: only the seats the verdict names are shown (a natural's
    holder). ``True`` shows every hand, as Tonk did before 0.5.0.

    :returns: ``True`` or ``False``.

    .. versionadded:: 0.5
    """
