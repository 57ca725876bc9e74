"""The conformance kit: checks a game plugin's author runs from their own tests.

Every check plays seeded random games of one configuration (a game, its
house rules and options) through the public API and returns a small
:class:`Report`; on the first failures it raises :class:`AssertionError` with
a clear message (pass ``strict=False`` to collect failures instead).

>>> from cardcore.testing import check_game
>>> report = check_game("mygame", players=2, games=5)  # doctest: +SKIP
>>> report.cards_lost, report.leaks  # doctest: +SKIP
(0, 0)

What is checked (see :doc:`testing-kit` for the details):

* first, the plugin contract: ``create_logic`` answers a
  :class:`~cardcore.GameLogic` that overrides every required method,
  ``state.to_act`` is a tuple of seats (not empty while a turn-based game is
  on) after ``new_state`` and every ``apply``, and ``legal_actions`` answers a
  tuple of the seat's :class:`~cardcore.Action` objects; a mistake here is
  one failure naming it, and the checks that need a playable game are skipped;
* the legal actions of a seat have distinct notations, each read back by the
  game's ``parse_action`` as an equal action (past 64, a sample: see
  :doc:`/testing-kit`; check ``"notation"``);
* random playouts end within the game's declared ``action_bound``;
* every card is in exactly one place after every action (the multiset of
  ``state.zones.all_cards()`` equals ``logic.deck(players, options)``);
* views (``table`` and ``zones``), :meth:`~cardcore.Game.history` and per-seat
  events show a seat only cards it knows, per the zones' knowledge masks, and
  never the seed; a twin of the game that differs only in what is hidden from
  a seat (:meth:`cardcore.Game.determinize`) gives that seat the same view and
  the same events until it learns a new card;
* every view has the declared structure: each ``table`` key is declared in
  ``GameInfo.fields`` with a matching kind, and ``zones`` matches the layout;
* agents receive a read-only view mapping, never the game or its state;
* illegal, out-of-turn, wrong-seat, malformed and unknown-card inputs, and
  ``seen`` values that are not versions, raise the documented errors and
  change nothing (state, version, events, record);
* :meth:`~cardcore.Game.clone` is independent of its original;
* save -> load and record -> replay rebuild the same states and events;
* a game started from :meth:`~cardcore.Game.position` looks the same to every seat;
* a house rule that implements only ``forbid_action`` removes exactly the actions
  it vetoes, and one that implements only ``score_round`` changes the result
  of a game that scores rounds (third-party games included); when that rule
  raises (``RuntimeError``, ``KeyboardInterrupt``) the apply fails with
  :class:`~cardcore.PluginError` (or re-raises) and the game is byte-identical,
  the rule not called again (``Report.restored``);
* subscribers that raise cost no action and no other subscriber an event, and
  ``on_error`` hears of every failure;
* saves edited in one place (seat names, an option, action text in non-ASCII
  digits) and records with hostile JSON (huge integers, deep nesting, NaN) are
  refused with :class:`~cardcore.CorruptStateError`;
* the same seed gives the same game.

A check that tested nothing (``"positions"`` for a game without a position
notation, ``"scores"`` for one that never scores a round) is listed in
``Report.skipped`` with the reason, not passed silently. An error inside a
check becomes a failure: :func:`check_game` raises only
:class:`AssertionError`, or for its own arguments
:class:`~cardcore.OptionError`, :class:`~cardcore.UnknownPluginError`,
:class:`~cardcore.RuleConflictError` or :class:`~cardcore.ArgumentError` (house
rules given as one text instead of a list of names).

:func:`configurations` lists the configurations worth checking, chosen from
what the game and its house rules declare (``RuleInfo.applies``, conflicts,
requirements, option choices).
"""

from __future__ import annotations

from cardcore.testing._agents import (
    SpyAgent,
    assert_conserved,
    assert_view_known,
    assert_view_structure,
)
from cardcore.testing._configs import Configuration, applicable_options, configurations
from cardcore.testing._report import ALL_CHECKS, Report
from cardcore.testing._report import MAX_FAILURES as MAX_FAILURES
from cardcore.testing._run import (
    check_agents,
    check_bounds,
    check_clone,
    check_conservation,
    check_determinism,
    check_game,
    check_notation,
    check_persistence,
    check_positions,
    check_rejections,
    check_score_round,
    check_vetoes,
    check_views,
)

__all__ = [
    "ALL_CHECKS",
    "MAX_FAILURES",
    "Configuration",
    "Report",
    "SpyAgent",
    "applicable_options",
    "assert_conserved",
    "assert_view_known",
    "assert_view_structure",
    "check_agents",
    "check_bounds",
    "check_clone",
    "check_conservation",
    "check_determinism",
    "check_game",
    "check_notation",
    "check_persistence",
    "check_positions",
    "check_rejections",
    "check_score_round",
    "check_vetoes",
    "check_views",
    "configurations",
]
