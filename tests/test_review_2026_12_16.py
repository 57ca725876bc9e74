"""Review (2026-12-16) of the changes 7f7252e..d13622c: ``Zones`` masks, ``DeliveryFailure.handler``,
the kit's notation words, ``register`` of a namespace, ``serve_socket``, signed records, docs.

Strict xfails are bugs found; the passing tests pin claims that hold. Every game deals the
Mini Bridge test plugin's stacked deck (``deck=``) or a fixed seed; the kit runs are seeded.
"""

from __future__ import annotations

import asyncio
import types
from typing import Any, ClassVar

import attrs
import pytest

import cardcore
from cardcore import Card, CorruptStateError, Event, PluginError, RuleInfo, ViewField, hookimpl
from cardcore.testing import assert_view_known, check_game
from tests.plugins import bridge_2026_12_15 as mb

DECK = " ".join(str(c) for c in cardcore.decks(1))
# N (seat 0): 4S 8S QS 3H 7H JH 2D 6D 10D AC 5C 9C KC; W (seat 3): 3S 7S JS 2H 6H 10H AD 5D ...
LOWEST = "mb-lowest-review-1216"
PEEK = "mb-peek-review-1216"


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", mb.NAME, mb)
    yield
    cardcore.unregister("cardcore.games", mb.NAME)


def bridge() -> cardcore.Game:
    return cardcore.new_game(mb.NAME, 4, seed=3, deck=DECK)


def variant(name: str, logic: type[mb.BridgeLogic], *extra: ViewField) -> types.ModuleType:
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = attrs.evolve(mb.GAME, name=name, fields=(*mb.GAME.fields, *extra))  # type: ignore[attr-defined]
    module.create_logic = hookimpl(lambda ruleset: logic(ruleset))  # type: ignore[attr-defined]
    return module


# --- Zones: a bad mask (put and insert were fixed; move, insert_bottom and face-down piles not)


def sizes(zones: Any, *piles: int) -> list[tuple[int, int]]:
    return [(len(zones.cards[z]), len(zones.seen[z])) for z in piles]


def test_zones_insert_at_a_negative_place_keeps_cards_and_masks_in_step() -> None:
    zones = bridge().state.zones
    z = mb.hand(0)
    card = Card.parse("JK")
    zones.insert(z, -1, card)
    assert zones.cards[z][-2] == card and sizes(zones, z) == [(14, 14)]
    assert zones.seen[z][-2] & 1 and not zones.seen[z][-2] & 0b1110


def test_zones_move_with_a_bad_mask_leaves_both_piles_as_they_were() -> None:
    zones = bridge().state.zones
    src, dst = mb.hand(3), mb.hand(0)
    before = sizes(zones, src, dst)
    with pytest.raises((TypeError, ValueError)):
        zones.move(src, dst, 0, mask="x")  # type: ignore[arg-type]
    assert sizes(zones, src, dst) == before  # now [(12, 12), (14, 13)]


def test_zones_insert_bottom_with_a_bad_mask_keeps_cards_and_masks_in_step() -> None:
    zones = bridge().state.zones
    z = mb.hand(0)
    with pytest.raises((TypeError, ValueError)):
        zones.insert_bottom(z, Card.parse("JK"), None)  # type: ignore[arg-type]
    assert sizes(zones, z) == [(13, 13)]  # now [(14, 13)]


def test_zones_insert_on_a_face_down_pile_refuses_a_mask_that_is_no_int() -> None:
    game = bridge()
    zones = game.state.zones
    before = sizes(zones, mb.STOCK)
    with pytest.raises((TypeError, ValueError)):
        zones.insert(mb.STOCK, 0, Card.parse("JK"), "3")  # type: ignore[arg-type]
    assert sizes(zones, mb.STOCK) == before
    game.view(0)


# --- DeliveryFailure.handler ----------------------------------------------------------------


def test_delivery_failure_of_a_dropped_subscription_carries_its_handler() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    failures: list[Any] = []
    game.events.on_error = failures.append

    def boom(event: Event) -> None:
        raise RuntimeError("boom")

    sub = game.events.subscribe(Event, boom, drop_on_error=True)
    game.apply(game.legal_actions(game.to_act[0])[0])
    (failure,) = failures
    assert failure.handler is boom and failure.subscription is sub and failure.dropped
    assert sub.handler is not boom  # the placeholder: called no more


def test_delivery_failure_names_a_handler_that_unsubscribed_itself_before_raising() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    failures: list[Any] = []
    game.events.on_error = failures.append
    box: dict[str, Any] = {}

    def boom(event: Event) -> None:
        game.events.unsubscribe(box["sub"])  # clean up first, then the error surfaces
        raise RuntimeError("socket gone")

    box["sub"] = game.events.subscribe(Event, boom, drop_on_error=True)
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert len(failures) == 1
    assert failures[0].handler is boom


# --- the kit's notation words ---------------------------------------------------------------


class _Lowest(mb.BridgeLogic):
    """A correct game: the table also names the cheapest bid still open (public)."""

    def table(self, state: mb.BridgeState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        a = self.auction(state)
        r = 0 if a.level is None or a.strain is None else mb.bid_rank(a.level, a.strain) + 1
        out["lowest"] = None if r >= 35 else f"{1 + r // 5}{mb.STRAINS[r % 5]}"
        return out


class _Peek(mb.BridgeLogic):
    """A leak: North's table names the lowest heart of West's hand in a declared json field."""

    def table(self, state: mb.BridgeState, seat: int | None) -> dict[str, Any]:
        out = super().table(state, seat)
        hearts = [c for c in state.zones.cards[mb.hand(3)] if str(c).endswith("H")]
        shown = seat == 0 and hearts
        out["hint"] = str(min(hearts, key=lambda c: int(c.rank))) if shown else None
        return out


@pytest.fixture
def lowest():
    field = ViewField("lowest", "str", "The cheapest bid still open", nullable=True)
    cardcore.register("cardcore.games", LOWEST, variant(LOWEST, _Lowest, field))
    yield
    cardcore.unregister("cardcore.games", LOWEST)


@pytest.fixture
def peek():
    cardcore.register("cardcore.games", PEEK, variant(PEEK, _Peek, ViewField("hint", "json")))
    yield
    cardcore.unregister("cardcore.games", PEEK)


def test_kit_passes_plain_mini_bridge() -> None:
    """Control of the xfails below: the same game without the public 'lowest' field passes."""
    report = check_game(mb.NAME, players=4, games=3, seed=1, strict=False)
    assert report.leaks == 0 and not report.failures


def test_kit_does_not_flag_a_public_field_naming_the_cheapest_open_bid(lowest) -> None:
    game = cardcore.new_game(LOWEST, 4, seed=3, deck=DECK)
    game.act(0, "1NT")
    assert game.view(0)["table"]["lowest"] == "2C"
    assert "2C" not in {str(c) for c in game.state.zones.cards[mb.hand(0)]}
    assert_view_known(game, 0)


def test_check_game_passes_a_bridge_showing_the_cheapest_open_bid(lowest) -> None:
    report = check_game(LOWEST, players=4, games=3, seed=1, strict=False)
    assert report.leaks == 0, report.failures[:3]


def test_assert_view_known_excuses_a_bid_word_in_a_json_field_as_documented(peek) -> None:
    """testing-kit.rst: the word is excused in declared non-card fields (a json one too)."""
    game = cardcore.new_game(PEEK, 4, seed=3, deck=DECK)
    game.act(0, "2H")  # North's bid: the word 2H, and West holds the card 2H
    assert game.view(0)["table"]["hint"] == "2H"
    assert_view_known(game, 0)  # passes: the documented hole


def test_check_game_still_finds_the_json_field_leak_through_twins(peek) -> None:
    """...and 'a hidden card leaking under such a word in text is left to the twins check'."""
    report = check_game(PEEK, players=4, games=3, seed=1, strict=False)
    assert report.leaks > 0
    assert any("depends on cards hidden from seat 0" in f for f in report.failures)


# --- register of a namespace ----------------------------------------------------------------


def _veto(state: Any, action: Any) -> None:
    return None


def _score_round(state: Any, scores: Any) -> Any:  # deliberately NOT marked @hookimpl
    return [0] * len(scores)


def _rule(kind: str) -> tuple[str, Any]:
    name = f"golf.review-1216-{kind}"
    info = RuleInfo(id=f"GOLF-RVW{kind[0].upper()}-1", name=name, game="golf", summary="x")
    if kind == "module":
        target: Any = types.ModuleType("golf_review_1216_mod")
        target.RULE, target.forbid_action, target.score_round = info, hookimpl(_veto), _score_round
    else:
        target = types.SimpleNamespace(
            RULE=info, forbid_action=hookimpl(_veto), score_round=_score_round
        )
    return name, target


@pytest.mark.parametrize("kind", ["module", "namespace"])
def test_register_refuses_an_unmarked_hook_function(kind: str) -> None:
    name, target = _rule(kind)
    cardcore.register("cardcore.rules", name, target)
    try:
        with pytest.raises(PluginError, match="without @hookimpl"):
            cardcore.new_game("golf", 2, seed=1, rules=[name])
    finally:
        cardcore.unregister("cardcore.rules", name)


# --- serve_socket: the session's close, and a too-slow socket stuck on a write --------------


class _Socket:
    headers: ClassVar[dict[str, str]] = {}

    def __init__(self, stuck: bool) -> None:
        self.never = asyncio.Event()
        self.stuck = stuck
        self.closed: tuple[int, str] | None = None

    async def accept(self) -> None:
        return None

    async def receive(self) -> dict[str, Any]:
        await self.never.wait()
        raise AssertionError("unreachable")

    async def send_text(self, text: str) -> None:
        if self.stuck:  # a client that reads nothing: the write never completes
            await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = (code, reason)


def _serve(stuck: bool) -> tuple[tuple[int, str] | None, bool, list[Any]]:
    from cardcore.web import WebServer

    async def scenario() -> tuple[tuple[int, str] | None, bool, list[Any]]:
        server = WebServer(None, bot_delay=0.0)
        await server.start()
        try:
            sock = _Socket(stuck)
            before = set(server.host.connections)
            loop = asyncio.get_running_loop()
            handler = loop.create_task(server.serve_socket(sock))  # type: ignore[arg-type]
            await asyncio.sleep(0.05)
            (cid,) = set(server.host.connections) - before
            conn = server.host.connections[cid]
            if stuck:
                from cardcore.session import Outbound

                for _ in range(5000):  # the pump is stuck on the first: the queue overflows
                    server.host.deliver([Outbound(cid, {}, "x" * 1000)])
                    if conn.closed:
                        break
            else:
                await conn.close()  # as the session closes it (a flood, a new token ...)
            await asyncio.wait_for(handler, 3.0)
            await asyncio.sleep(0.01)
            left = [t for t in asyncio.all_tasks() if not t.done() and "_Socket." in repr(t)]
            return sock.closed, conn.ended.is_set(), left
        finally:
            await server.stop()

    return asyncio.run(scenario())


def test_serve_socket_ends_when_the_session_closes_the_connection() -> None:
    closed, ended, left = _serve(stuck=False)
    assert closed == (1008, "") and ended and left == []


def test_serve_socket_closes_a_too_slow_socket_stuck_on_a_write() -> None:
    from cardcore.web.app import TOO_SLOW

    closed, ended, left = _serve(stuck=True)
    assert closed == (1008, TOO_SLOW) and ended and left == []


# --- records signed with a str key; action_types; documented limits -------------------------


def test_record_and_save_take_a_str_key_as_replay_and_load_do() -> None:
    game = cardcore.new_game("golf", 2, seed=5)
    game.apply(game.legal_actions(game.to_act[0])[0])
    record, saved = game.record(key="sekret"), game.save(key="sekret")
    assert cardcore.replay(record, key="sekret").version == 1
    assert cardcore.replay(record, key=b"sekret").version == 1  # the same secret
    assert cardcore.load(saved, key="sekret").version == 1
    with pytest.raises(CorruptStateError):
        cardcore.replay(record, key="other")


class _NoTypes(mb.BridgeLogic):
    action_types = ()  # parse_action reads every action itself


def test_action_types_may_be_empty_for_a_game_that_reads_every_action() -> None:
    name = "mb-notypes-review-1216"
    cardcore.register("cardcore.games", name, variant(name, _NoTypes))
    try:
        game = cardcore.new_game(name, 4, seed=3, deck=DECK)
        for move in ("1NT", "pass", "pass", "pass"):
            game.act(game.to_act[0], move)
        seat = game.to_act[0]
        lead = str(game.legal_actions(seat)[0])  # read back by the game's own parse_action
        game.act(seat, lead.upper())
        assert game.version == 5 and lead.startswith("play ")
    finally:
        cardcore.unregister("cardcore.games", name)


def test_security_doc_limits_in_figures() -> None:
    from cardcore.session import Limits, aio

    limits = Limits()
    figures = (limits.max_message, limits.rate, limits.burst, limits.close_after)
    assert figures == (8192, 20, 40, 200)
    assert (limits.max_spectators, limits.max_per_seat) == (64, 4)
    assert (aio.MAX_QUEUED, aio.QUEUE) == (1 << 20, 4096)
