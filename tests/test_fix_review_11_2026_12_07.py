"""Review of the latest fixes (``git show 6bfe6e46 3f0628c5 8ef26d0b f6b13d07``).

The fixes: a stored token hash compared as bytes; an option of choices and numbers taking an
int subclass as a plain int (and at most 128 bits); the testing kit reading rule IDs in any
case and finding required rules outside ``rules=``; a dev release of a post release ordered
as its release; house rules' option values limited to what a record keeps; a seat's failed
(``{}``) view built again at resync, join and resume; ``simulate`` naming an agent's
constructor failure; ``load_agent`` refusing a parameter given twice and reading ``name:``.

Each bug found is a strict xfail asserting the correct behaviour; each claim that held is a
plain test. Every plugin registered here is unregistered in a ``finally``.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import logging
import math
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardcore
from cardcore import CardcoreError, Option, OptionError, PluginError, RuleInfo, hookimpl
from cardcore.agents import RandomAgent
from cardcore.plugins import game_info
from cardcore.session import Mirror, Session
from cardcore.session.tokens import hash_token, token_matches
from cardcore.testing import configurations
from tests.session import test_session_read_review_2026_12_07b as review

RULES = "cardcore.rules"
AGENTS = "cardcore.agents"


@hookimpl
def _no_veto(action: Any) -> None:
    return None


@contextmanager
def registered(rule: RuleInfo) -> Iterator[None]:
    module = types.ModuleType("rv11_" + rule.name.replace(".", "_").replace("-", "_"))
    module.RULE = rule
    module.forbid_action = _no_veto
    cardcore.register(RULES, rule.name, module)
    try:
        yield
    finally:
        cardcore.unregister(RULES, rule.name)


@contextmanager
def agent(name: str, factory: Any) -> Iterator[None]:
    cardcore.register(AGENTS, name, factory)
    try:
        yield
    finally:
        cardcore.unregister(AGENTS, name)


def _object_rule(default: Any = 1) -> RuleInfo:
    return RuleInfo(
        id="GOLF-REVIEW-21", name="golf.review11-opt", game="golf", summary="x",
        options=(Option("review11_x", default, kind=object),),
    )  # fmt: skip


@pytest.fixture
def quiet() -> Iterator[None]:
    logger = logging.getLogger("cardcore.session")
    level, propagate = logger.level, logger.propagate
    logger.setLevel(logging.CRITICAL + 1)
    logger.propagate = False
    try:
        yield
    finally:
        logger.setLevel(level)
        logger.propagate = propagate


@pytest.fixture
def view_fails(quiet: None) -> Iterator[str]:
    """A Goofspiel whose table fails for seat 1 while ``review._VIEW["on"]``."""
    name = review.VIEW_FAILS
    cardcore.register("cardcore.games", name, review._goof_variant(name, review._SeatOneViewFails))
    review._VIEW["on"] = False
    try:
        yield name
    finally:
        review._VIEW["on"] = False
        cardcore.unregister("cardcore.games", name)


def _join(s: Session, conn: str, seat: int, now: float, token: str | None = None) -> list[Any]:
    message: dict[str, Any] = {"type": "join", "seat": seat}
    if token is not None:
        message["token"] = token
    return s.handle(conn, json.dumps(message), now)


def _failed_deal(name: str) -> tuple[Session, Mirror, str]:
    """A session whose seat 1 (conn "b") got ``{}`` at the deal; its mirror and token."""
    s = Session.create(name, ["Ann", "Bob"], now=0.0, seed=7)
    _join(s, "a", 0, 1.0)
    review._VIEW["on"] = True
    out = _join(s, "b", 1, 1.0)
    review._VIEW["on"] = False
    bob, token = Mirror(), None
    for o in out:
        if o.conn == "b":
            bob.feed(o.message)
            token = o.message.get("token", token)
    assert bob.view == {} and token is not None
    return s, bob, token


class _Seat(enum.IntEnum):
    ANN = 0
    BOB = 1


# --------------------------------------------------------------------------------------------
# Findings (strict xfails)
# --------------------------------------------------------------------------------------------


def test_a_second_connection_rebuilding_a_failed_view_leaves_the_first_one_whole(
    view_fails: str,
) -> None:
    s, bob, token = _failed_deal(view_fails)
    bob2 = Mirror()
    for o in _join(s, "b2", 1, 1.5, token):
        (bob2 if o.conn == "b2" else bob if o.conn == "b" else Mirror()).feed(o.message)
    game = s.game
    assert game is not None and bob2.view == game.view(1)  # the new connection: rebuilt
    out = review._act(s, "a", "bid 0", 2.0)
    for o in out:
        if o.conn == "b":
            bob.feed(o.message)  # a patch against a view this connection never had
    assert (bob.version, bob.view) == (game.version, game.view(1))


@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_a_rule_option_value_new_game_takes_replays_from_its_record(value: float) -> None:
    with registered(_object_rule()):
        try:
            game = cardcore.new_game(
                "golf", 2, rules=["golf.review11-opt"], seed=1, options={"review11_x": value}
            )
        except OptionError:
            return  # refused up front: as good
        cardcore.replay(json.dumps(game.record()))


def test_a_rule_object_option_takes_an_int_enum_as_a_plain_int() -> None:
    with registered(_object_rule()):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.review11-opt"], seed=1, options={"review11_x": _Seat.BOB}
        )
        assert type(game.options["review11_x"]) is int and game.options["review11_x"] == 1


class _BuiltBadly(RandomAgent):
    def __init__(self, **kwargs: Any) -> None:
        raise PluginError("the agent's model file is missing")


def test_simulate_names_the_game_of_an_agent_constructor_cardcore_error() -> None:
    with agent("review11-built-badly", _BuiltBadly), pytest.raises(PluginError) as caught:
        cardcore.simulate("golf", games=2, agents=["review11-built-badly", "random"], seed=1)
    assert "in golf game 0 (seed " in str(caught.value)


# --------------------------------------------------------------------------------------------
# Claims that held
# --------------------------------------------------------------------------------------------


def test_a_stored_token_hash_that_is_not_ascii_matches_no_token() -> None:
    digest = hash_token("t", "s", 0)
    assert token_matches("t", digest, "s", 0)
    assert not token_matches("t", "é" * len(digest), "s", 0)
    assert not token_matches("t", "\udcff" + digest[1:], "s", 0)  # a lone surrogate too
    assert not token_matches("u", digest, "s", 0)


def test_a_join_against_a_damaged_token_row_is_bad_token() -> None:
    s = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    _join(s, "a", 0, 1.0)
    s.tokens[0] = dataclasses.replace(s.tokens[0], digest="é" * 64)
    out = _join(s, "a2", 0, 2.0, "some-token")
    assert [o.message.get("code") for o in out if o.message["type"] == "error"] == ["bad-token"]


def test_an_object_option_takes_an_int_enum_seat_as_a_plain_int_within_128_bits() -> None:
    game = cardcore.new_game("golf", 2, seed=1, options={"dealer": _Seat.BOB})
    assert type(game.options["dealer"]) is int and game.options["dealer"] == 1
    for value in (True, 2**128, 2**127, -1, 1.0):
        with pytest.raises(OptionError):
            cardcore.new_game("golf", 2, seed=1, options={"dealer": value})
    with registered(
        RuleInfo(
            id="GOLF-REVIEW-22",
            name="golf.review11-big",
            game="golf",
            summary="x",
            options=(Option("review11_y", 1, kind=object, minimum=0, choices=("all",)),),
        )
    ):
        game = cardcore.new_game(
            "golf", 2, rules=["golf.review11-big"], seed=1, options={"review11_y": 2**128 - 1}
        )
        assert cardcore.replay(json.dumps(game.record())).options == game.options
        with pytest.raises(OptionError):
            cardcore.new_game(
                "golf", 2, rules=["golf.review11-big"], seed=1, options={"review11_y": 2**128}
            )


def test_the_kit_finds_a_required_rule_outside_rules_by_an_id_in_mixed_case() -> None:
    needs = RuleInfo(
        id="GOLF-REVIEW-23", name="golf.review11-needs", game="golf", summary="x",
        requires=("Golf-Score-2",),
    )  # fmt: skip
    with registered(needs):
        chosen = [c.rules for c in configurations("golf", rules=["golf.review11-needs"])]
        assert ("golf.hard", "golf.review11-needs") in chosen
        for rules in chosen:
            cardcore.new_game("golf", 2, rules=rules, seed=1)  # each one the core takes


def test_dev_releases_order_as_pep_440_has_them() -> None:
    from cardcore._versions import version_key

    assert version_key("0.4.0.dev0") < version_key("0.4.0") == version_key("0.4.0.post1.dev0")
    assert version_key("0.4.0.post1.dev0") == version_key("0.4.0.post1") < version_key("0.5a1")
    assert version_key("0.5rc1.post1.dev0") < version_key("0.5.0")


def test_every_built_in_and_example_rule_still_declares_and_plays() -> None:
    from cardcore.plugins import rule_info

    for name in cardcore.available_games():
        for rule in cardcore.available_rules(name):
            info = rule_info(rule)  # its options checked as it is read
            for opt in info.options:
                assert opt.default is None or type(opt.default) in (str, int, float, bool)
    game = cardcore.new_game("golf", 2, rules=["golf.bonus-card"], seed=1)
    assert cardcore.replay(json.dumps(game.record())).options == game.options


@pytest.mark.parametrize("default", [(1, 2), [1, 2]])
def test_a_rule_object_option_with_a_sequence_default_is_refused_clearly(default: Any) -> None:
    with pytest.raises(PluginError, match=r"option 'review11_x' with the value .*record"):
        _object_rule(default)


def test_a_rule_object_option_refuses_a_tuple_given_to_new_game() -> None:
    with registered(_object_rule()), pytest.raises(OptionError, match="review11_x"):
        cardcore.new_game(
            "golf", 2, rules=["golf.review11-opt"], seed=1, options={"review11_x": (1,)}
        )


def test_a_seat_whose_view_failed_is_rebuilt_whole_at_its_resync_after_missed_messages(
    view_fails: str,
) -> None:
    s, bob, _ = _failed_deal(view_fails)
    out = s.handle("b", json.dumps({"type": "resync", "last": bob.last}), 2.0)
    for o in out:
        if o.conn == "b":
            bob.feed(o.message)
    game = s.game
    assert game is not None and bob.view == game.view(1)
    for o in review._act(s, "a", "bid 0", 3.0):
        if o.conn == "b":
            bob.feed(o.message)
    assert (bob.version, bob.view) == (game.version, game.view(1))


def test_a_spectator_is_untouched_by_a_seats_failed_view(view_fails: str) -> None:
    s, _, _ = _failed_deal(view_fails)
    watcher = Mirror()
    for o in s.handle("w", json.dumps({"type": "watch"}), 2.0):
        if o.conn == "w":
            watcher.feed(o.message)
    game = s.game
    assert game is not None and watcher.view == game.view(None)  # whole, as at any deal


def test_load_agent_refuses_a_parameter_given_twice_and_reads_name_colon_as_name() -> None:
    assert cardcore.load_agent("random:") is cardcore.load_agent("random") is RandomAgent
    with pytest.raises(OptionError, match="given both in the spec and as a keyword"):
        cardcore.load_agent("random:seed=1", seed=2)
    assert cardcore.load_agent("random:seed=1", reaction=0.4).seed == 1


def test_every_caller_of_load_agent_builds_specs_with_parameters() -> None:
    from cardcore.cli.play import make_agent as play_agent
    from cardcore.compare._run import make_agent as compare_agent
    from cardcore.simulate import _make_agent
    from cardcore.web._bots import bot_agent

    assert play_agent("golf-greedy:seed=3", 99).seed == 3  # the spec's value wins
    assert compare_agent("golf-greedy:seed=3", 5).seed == 3
    assert _make_agent("golf-greedy:seed=3", 5).seed == 3
    built, params = bot_agent("golf-greedy:seed=3", {"seed": 4}, game_info("golf"))
    assert (built.seed, params) == (4, {"seed": 4})  # web.rst: params override the spec's
    built, params = bot_agent("golf-greedy:seed=3", {}, game_info("golf"))
    assert (built.seed, params) == (3, {})


class _StopsAtBirth(RandomAgent):
    def __init__(self, **kwargs: Any) -> None:
        raise StopIteration("no more models")


def test_simulate_names_an_agent_whose_constructor_raises_stop_iteration() -> None:
    with agent("review11-stops", _StopsAtBirth), pytest.raises(CardcoreError) as caught:
        cardcore.simulate("golf", games=3, agents=["review11-stops", "random"], seed=1)
    text = str(caught.value)
    assert "seat 0" in text and "golf game 0" in text and "seed " in text
    assert isinstance(caught.value.__cause__, StopIteration)
