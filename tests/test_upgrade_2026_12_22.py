"""Upgrade review of 2026-12-22: a user's own code written against the released 0.3.0 API.

The public names, signatures, hook specs, CLI flags, view/record/save shapes and
session messages of release 0.3.0 (commit ecddfb4) were compared with today's, the
0.3.0 docs' doctests and examples were run against today's code, and the 0.3.0
third-party plugin examples were tried. Each break found was looked up in
``docs/changelog.rst``: a documented break is pinned here as its documented new
behaviour; an undocumented one is a strict xfail.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest

import cardcore
from cardcore import Card, Rank, RuleInfo, hookimpl

ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = (ROOT / "docs" / "changelog.rst").read_text(encoding="utf-8")

# Every name listed in these modules' ``__all__`` at release 0.3.0 (ecddfb4).
OLD_ALL_030 = {
    "cardcore": (
        "ALL",
        "Action",
        "ActionApplied",
        "Agent",
        "ArgumentError",
        "CHANCE",
        "Card",
        "CardDiscarded",
        "CardDrawn",
        "CardMoved",
        "CardRevealed",
        "CardcoreError",
        "CardsDealt",
        "Chance",
        "Comparison",
        "CorruptStateError",
        "DeliveryFailure",
        "Emit",
        "EndMatch",
        "Event",
        "EventBus",
        "FIELD_KINDS",
        "Game",
        "GameEnded",
        "GameInfo",
        "GameLogic",
        "GameStarted",
        "GameState",
        "HOST",
        "IllegalActionError",
        "JOKER",
        "Layout",
        "LazyView",
        "Ledger",
        "NotationError",
        "Option",
        "OptionError",
        "OtherGameRuleError",
        "PaymentsMade",
        "Plan",
        "PluginError",
        "PluginWarning",
        "RandomAgent",
        "Rank",
        "RealtimeAgent",
        "Resign",
        "Result",
        "RoundScored",
        "RuleConflictError",
        "RuleInfo",
        "Ruleset",
        "SPECTATOR",
        "STALE_WINDOW",
        "ScoreSheet",
        "ScoreTable",
        "SeatError",
        "Shuffled",
        "StaleActionError",
        "StalledGameError",
        "Subscription",
        "Suit",
        "Summary",
        "TurnPassed",
        "UnknownPluginError",
        "VIEW_FORMAT",
        "Veto",
        "ViewField",
        "Visibility",
        "ZoneSpec",
        "Zones",
        "__version__",
        "agent_parameters",
        "available_agents",
        "available_games",
        "available_rules",
        "compare",
        "decks",
        "derive_rng",
        "earlier_rules",
        "game_info",
        "get_ruleset",
        "hookimpl",
        "hookspec",
        "jsonable",
        "load",
        "load_agent",
        "new_game",
        "parse_agent_spec",
        "parse_cards",
        "play",
        "register",
        "replay",
        "rule_info",
        "run_realtime",
        "shuffle",
        "simulate",
        "split_agent_specs",
        "standard_52",
        "unregister",
        "with_jokers",
    ),
    "cardcore.dealing": (
        "deal_round_robin",
        "draw_card",
        "fill_stock",
        "rebuild_stock",
    ),
    "cardcore.errors": (
        "ArgumentError",
        "CardcoreError",
        "CorruptStateError",
        "IllegalActionError",
        "NotationError",
        "OptionError",
        "OtherGameRuleError",
        "PluginError",
        "PluginWarning",
        "RuleConflictError",
        "SeatError",
        "StaleActionError",
        "StalledGameError",
        "UnknownPluginError",
    ),
    "cardcore.notation": (
        "ActionParser",
        "DIGITS",
        "parse_int",
    ),
    "cardcore.positions": (
        "MAX_FIELD_INT",
        "MAX_POSITION",
        "check",
        "read_field",
        "read_position",
        "read_result",
        "writable",
        "write_position",
    ),
    "cardcore.search": (
        "ISMCTSAgent",
        "ViewConfig",
        "deal_view",
        "default_position",
        "sample_position",
        "view_config",
    ),
    "cardcore.session": (
        "Batch",
        "CorruptSessionError",
        "ERROR_CODES",
        "FairDealError",
        "FairReport",
        "GameSetup",
        "Hub",
        "Limits",
        "MemoryStore",
        "Mirror",
        "Outbound",
        "PROTOCOL",
        "ProtocolError",
        "SQLiteStore",
        "Session",
        "SessionConfig",
        "SessionError",
        "Store",
        "StoreError",
        "StoredSession",
        "StreamGapError",
        "TimeControl",
        "TokenRow",
        "apply_patch",
        "diff",
        "verify_bundle",
    ),
    "cardcore.session.fair": (
        "BUNDLE_FORMAT",
        "FairDeal",
        "FairDealError",
        "FairReport",
        "commitment_of",
        "seed_of",
        "verify_bundle",
    ),
    "cardcore.testing": (
        "ALL_CHECKS",
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
    ),
    "cardcore.turns": (
        "end_game",
        "next_seat",
        "reveal_all",
        "seats_from",
        "winners_by",
    ),
}


@pytest.mark.parametrize("module", sorted(OLD_ALL_030))
def test_every_name_exported_by_0_3_0_is_still_exported(module: str) -> None:
    mod = importlib.import_module(module)
    missing = [n for n in OLD_ALL_030[module] if n not in mod.__all__ or not hasattr(mod, n)]
    assert missing == []


def test_tonk_melds_names_of_0_3_0_kept_or_their_removal_in_the_changelog() -> None:
    melds = importlib.import_module("cardcore_tonk.melds")
    for name in ("usable_verdict", "VERDICT"):
        assert name in getattr(melds, "__all__", ()) or f"``{name}``" in CHANGELOG, name


# -- an old-style third-party house rule (the 0.3.0 plugin tutorial's snowman) ---------

SNOWMAN_RULE = RuleInfo(
    id="SNOWMAN-1",
    name="golf.snowman-upgrade",
    game="golf",
    summary="Snowmen: every 8 scores 0 (0.3.0 third-party example, upgrade review)",
    conflicts=(),
    version="1.0.0",
)


@hookimpl
def _snowman_points(card: Card) -> int | None:
    return 0 if card.rank is Rank.EIGHT else None


def test_a_0_3_0_third_party_house_rule_still_plugs_in_and_is_recorded() -> None:
    plugin = SimpleNamespace(RULE=SNOWMAN_RULE, card_points=_snowman_points)
    cardcore.register("cardcore.rules", SNOWMAN_RULE.name, plugin)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", cardcore.PluginWarning)
            game = cardcore.new_game(
                "golf", 2, rules=[SNOWMAN_RULE.name], options={"rounds": 1}, seed=7
            )
        agents = [cardcore.RandomAgent(seed=s) for s in range(2)]
        result = cardcore.play(game, agents)
        rules = game.record()["rules"]
        assert [(r["name"], r["version"]) for r in rules] == [(SNOWMAN_RULE.name, "1.0.0")]
        assert cardcore.replay(game.record()).result == result
    finally:
        cardcore.unregister("cardcore.rules", SNOWMAN_RULE.name)


TONK_RULE = RuleInfo(
    id="UPG-TONK-1",
    name="tonk.upgrade-out-units",
    game="tonk",
    summary="An old-style tonk_out_units implementation without the new options argument",
    version="1.0.0",
)


@hookimpl
def _old_out_units(new_spread: bool) -> int | None:  # 0.3.0 spec: (new_spread) only
    return None


def test_a_0_3_0_hookimpl_without_the_arguments_added_since_is_still_accepted() -> None:
    # tonk_out_units gained ``options`` after 0.3.0; pluggy lets an impl take a subset
    plugin = SimpleNamespace(RULE=TONK_RULE, tonk_out_units=_old_out_units)
    cardcore.register("cardcore.rules", TONK_RULE.name, plugin)
    try:
        game = cardcore.new_game("tonk", 2, rules=[TONK_RULE.name], seed=3)
        agents = [cardcore.RandomAgent(seed=s) for s in range(2)]
        cardcore.play(game, agents)
        assert game.is_over
    finally:
        cardcore.unregister("cardcore.rules", TONK_RULE.name)


# -- documented breaks: the new behaviour, and the changelog entry that names it -------


def test_commitment_of_still_computes_the_0_3_0_commitment_with_chance_none() -> None:
    # 0.3.0's commitment_of(seed, salt) was sha256(b"cardcore-fair/1\0" + seed + salt);
    # its default is now the format-2 commitment the changelog spells out
    from cardcore.session.fair import commitment_of

    seed, salt = bytes(range(32)), bytes(range(32, 48))
    old = hashlib.sha256(b"cardcore-fair/1\0" + seed + salt).hexdigest()
    assert commitment_of(seed, salt, None) == old
    new = hashlib.sha256(b"cardcore-fair/2\0" + bytes((cardcore.CHANCE,)) + seed + salt)
    assert commitment_of(seed, salt) == new.hexdigest() != old
    assert 'sha256(b"cardcore-fair/2\\0" + chance + server_seed + salt)' in CHANGELOG


def test_an_agent_of_another_game_is_an_option_error_still_caught_as_cardcore_error() -> None:
    # the 0.3.0 agents page showed CardcoreError; it is an OptionError now (documented)
    with pytest.raises(cardcore.CardcoreError) as info:
        cardcore.simulate("tonk", games=2, players=2, agents=["golf-greedy", "random"])
    assert type(info.value) is cardcore.OptionError
    assert "an agent of another game is an ``OptionError`` everywhere" in CHANGELOG


def test_score_sheet_wrong_length_is_an_argument_error_as_the_changelog_says() -> None:
    # 0.3.0 raised a plain ValueError; ArgumentError is a TypeError, not a ValueError
    sheet = cardcore.ScoreSheet(3)
    with pytest.raises(cardcore.ArgumentError):
        sheet.add_round([1])
    assert "``ArgumentError`` where a wrong length was a plain\n  ``ValueError``" in CHANGELOG


def test_ismcts_repr_shows_its_seed_as_the_changelog_says() -> None:
    agent = cardcore.load_agent("ismcts:iterations=50,seed=7")
    assert repr(agent) == "ISMCTSAgent(seed=7, iterations=50, c=0.7, rollout='game')"
    assert "``ISMCTSAgent`` its\n  seed" in CHANGELOG


def test_a_session_record_asked_before_the_end_is_not_over_as_the_changelog_says() -> None:
    from cardcore.session import Session

    session = Session.create("golf", 2, now=0.0, seed=7)
    session.handle("a", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("b", '{"type": "join", "seat": 1}', now=2.0)
    out = session.handle("a", '{"type": "record"}', now=3.0)
    assert [(o.conn, o.message["type"], o.message["code"]) for o in out] == [
        ("a", "error", "not-over")
    ]
    assert "``record`` asked before the end is ``not-over``" in CHANGELOG


def test_the_session_protocol_name_and_0_3_0_message_types_are_unchanged() -> None:
    from cardcore.session import PROTOCOL
    from cardcore.session.client import STREAM_TYPES

    assert PROTOCOL == "cardcore-session/1"
    assert {"takeback", "reveal", "update", "view", "lobby"} <= STREAM_TYPES


def test_0_3_0_default_players_of_compare_still_two_for_the_built_in_games() -> None:
    # compare's players default became None ("as many as a line-up names, else two or
    # the nearest the game seats"): a 0.3.0 call without players still plays two seats
    result = cardcore.compare(
        "golf", vs=["golf.jokers"], games=2, options={"rounds": 1}, seed=1, skill=None
    )
    assert len(result.a.seat_wins) == 2 and len(result.b.seat_wins) == 2


def test_golf_view_at_the_end_has_no_final_turns_left_as_the_changelog_says() -> None:
    game = cardcore.new_game("golf", 2, options={"rounds": 1}, seed=3)
    cardcore.play(game, [cardcore.RandomAgent(seed=s) for s in range(2)])
    assert game.view(0)["table"]["final_turns_left"] is None
    assert "``final_turns_left`` is null once the game is over" in CHANGELOG
    json.dumps(game.view(0))
