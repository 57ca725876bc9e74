"""Review of e2a3e55: simultaneous phases in turn-based sessions.

Two rules changed: (1) in a turn-based game an ``act`` is ``stale`` only if its
``seen`` is older than a change by another seat that altered its legal actions
(or any timeout, takeback, host action, or a failed view of that seat); (2) a
seat whose action leaves it among the seats to act while others join it gets a
fresh turn clock. Driven with the third-party Goofspiel plugin
(``tests/plugins/goofspiel_2026_12_12.py``: every seat bids by position, all in
``to_act`` at once) through :class:`tests.session.kit.Table`, whose leak check
reads every message each connection gets.
"""

from __future__ import annotations

import json
import types
from typing import Any

import pytest

import cardcore
from cardcore import hookimpl
from cardcore.session import MemoryStore, Session, SessionConfig, TimeControl
from cardcore.session.clocks import Clocks
from tests.plugins import goofspiel_2026_12_12 as goof
from tests.session.kit import Table

NAME = goof.NAME
CONNS = "abcd"


@pytest.fixture(autouse=True)
def registered():
    cardcore.register("cardcore.games", NAME, goof)
    cardcore.register("cardcore.rules", goof.CARRY_NAME, goof.CARRY)
    extra: list[str] = []
    yield extra
    for name in extra:
        cardcore.unregister("cardcore.games", name)
    cardcore.unregister("cardcore.rules", goof.CARRY_NAME)
    cardcore.unregister("cardcore.games", NAME)


def table(players: int = 2, name: str = NAME, seed: int = 7, **kwargs: Any) -> Table:
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    t = Table(Session.create(name, names, now=0.0, seed=seed, **kwargs))
    t.now = 1.0  # the deal, when the last seat joins
    for seat in range(players):
        t.join(CONNS[seat], seat)
    return t


def answer(replies: list[dict[str, Any]]) -> str:
    """``ok`` or the error code of an ``act``'s replies."""
    last = [r for r in replies if r["type"] in ("ok", "error")][-1]
    return "ok" if last["type"] == "ok" else last["code"]


def bid(t: Table, conn: str, seen: int, dt: float = 0.1, index: int = 0) -> str:
    return answer(t.act(conn, f"bid {index}", dt, seen=seen))


# -- rule 1: bids of one round on one view ------------------------------------------------------


@pytest.mark.parametrize("order", ["abc", "cba", "bca"])
def test_every_bid_of_a_round_made_on_the_deal_is_taken_in_any_order(order: str) -> None:
    t = table(3)
    assert [bid(t, conn, seen=0) for conn in order] == ["ok", "ok", "ok"]
    game = t.session.game
    assert game is not None and game.version == 3 and game.to_act == (0, 1, 2)
    assert t.view("a")["table"]["round"] == 2  # the round really ended: all three bids counted


def test_a_round_end_makes_the_other_seats_older_views_stale() -> None:
    t = table(3)
    bid(t, "a", 0)
    bid(t, "b", 1)
    bid(t, "c", 2)  # the last bid: round 2, every hand one card shorter
    for conn in "ab":  # their legal actions changed at version 3: a view before it is stale
        for seen in (0, 1, 2):
            assert bid(t, conn, seen) == "stale"
    assert bid(t, "a", 3) == "ok" and bid(t, "b", 3) == "ok"


def test_a_seat_that_already_bid_is_refused_out_of_turn_not_stale() -> None:
    t = table(2)
    bid(t, "a", 0)
    assert bid(t, "a", 0) == "illegal"  # its own bid left it out of to_act: CORE-TURN-1
    game = t.session.game
    assert game is not None and game.version == 1


def test_a_takeback_makes_every_older_view_stale() -> None:
    t = table(3)
    bid(t, "a", 0)
    bid(t, "b", 1)
    t.send("b", {"type": "takeback", "op": "request"}, 0.1)
    t.send("a", {"type": "takeback", "op": "accept"}, 0.1)
    t.send("c", {"type": "takeback", "op": "accept"}, 0.1)
    game = t.session.game
    assert game is not None and game.version == 1 and game.to_act == (1, 2)
    assert bid(t, "c", 0) == "stale"  # Cy's legal never changed; the takeback still counts
    assert bid(t, "c", 1) == "ok"


def test_the_stale_marks_survive_a_restart_from_the_store() -> None:
    store = MemoryStore()
    t = table(3, store=store)
    bid(t, "a", 0)
    bid(t, "b", 0)
    bid(t, "c", 0)  # round 2 at version 3: Ann's and Bob's views before it are stale
    bid(t, "a", 3)  # version 4, leaves Bob's legal as it was
    resumed = Session.resume(store, t.session.id, t.now + 1.0)
    t.restart(resumed)
    t.join("b", 1)
    assert bid(t, "b", 2) == "stale"  # persisted: a fresh session would have taken it
    assert bid(t, "b", 4) == "ok"


def test_the_answers_to_old_views_do_not_depend_on_the_hidden_cards() -> None:
    """The same plays on different deals get the same answers: ``stale`` follows a
    seat's own legal actions (positions, the same in every deal), never what the
    other seats hold or bid, nor who won a round."""

    def play(seed: int) -> list[str]:
        t = table(3, seed=seed)
        return [
            bid(t, "a", 0),
            bid(t, "b", 0, index=5),
            bid(t, "b", 0),  # out of turn
            bid(t, "c", 0, index=12),  # ends round 1 at version 3 (the winner depends on the deal)
            bid(t, "a", 1),
            bid(t, "b", 3),
            bid(t, "a", 3, index=12),  # a position past the end of the hand
            bid(t, "a", 3),
            bid(t, "c", 3),  # ends round 2 at version 6
            bid(t, "b", 5),
            bid(t, "a", 6, index=11),
        ]

    runs = [play(seed) for seed in (1, 2, 3, 4)]
    expected = [
        "ok",
        "ok",
        "illegal",
        "ok",
        "stale",
        "ok",
        "illegal",
        "ok",
        "ok",
        "stale",
        "illegal",
    ]
    assert runs == [expected] * 4


def broken_view_variant(registered: list[str]) -> tuple[str, dict[str, bool]]:
    """A Goofspiel whose ``table`` fails for seat 1 while ``flag["on"]``."""
    flag = {"on": False}

    class Broken(goof.GoofLogic):
        def table(self, state: Any, seat: int | None) -> dict[str, Any]:
            if flag["on"] and seat == 1:
                raise RuntimeError("seat 1's table")
            return super().table(state, seat)

    name = "goof-broken-view-1212"
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = goof.GameInfo(
        name,
        "Goofspiel variant",
        2,
        4,
        version="1.0.0",
        hookspecs=goof.SPECS,
        fields=goof.GAME.fields,
    )

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return Broken(ruleset)

    module.create_logic = create_logic
    module.build_deck = goof.build_deck
    module.goofspiel_carry_ties = goof.goofspiel_carry_ties
    cardcore.register("cardcore.games", name, module)
    registered.append(name)
    return name, flag


def test_a_seat_whose_view_failed_gets_stale_for_the_version_it_missed(registered) -> None:
    name, flag = broken_view_variant(registered)
    session = Session.create(name, ["Ann", "Bob", "Cy"], now=0.0, seed=7)
    for seat in range(3):
        session.handle(CONNS[seat], json.dumps({"type": "join", "seat": seat}), now=1.0)

    def send(conn: str, seen: int) -> str:
        message = json.dumps({"type": "act", "action": "bid 0", "seen": seen})
        out = session.handle(conn, message, now=2.0)
        return answer([o.message for o in out if o.conn == conn])

    flag["on"] = True
    assert send("a", 0) == "ok"  # Bob's view of version 1 failed: he never got it
    flag["on"] = False
    assert send("c", 0) == "ok"  # Cy's legal unchanged: fine
    assert send("b", 0) == "stale"  # Bob acted on version 0, older than what he missed


# -- rule 1: the seat whose own bid began the next round ---------------------------------------


@pytest.mark.parametrize("seen", [0, 1])
def test_a_repeated_last_bid_is_not_applied_to_the_next_round_unseen(seen: int) -> None:
    """Bob's bid ends round 1 and turns up round 2's prize, which he has not seen. A
    second ``bid 0`` sent on the same view (a double click, a client retry) must not
    become his round-2 bid: it was chosen without round 2's prize. (``seen=0``: before
    e2a3e55 Ann's bid made it stale; ``seen=1``: taken before e2a3e55 too.)"""
    t = table(2)
    bid(t, "a", 0)
    assert bid(t, "b", seen) == "ok"
    game = t.session.game
    assert game is not None and game.version == 2 and game.to_act == (0, 1)
    assert bid(t, "b", seen) == "stale"
    assert game.version == 2 and 1 in game.to_act


def open_auction_variant(registered: list[str]) -> str:
    """Goofspiel played as an open auction: each bid is turned face up as it is made
    (``to_act`` still holds every seat yet to bid), so a later bidder may answer it."""

    class Open(goof.GoofLogic):
        def apply(self, state: Any, action: Any, emit: Any) -> None:
            last = state.to_act == (action.seat,)
            super().apply(state, action, emit)
            if not last:
                card = state.zones.reveal(goof.bid_pile(action.seat))
                if emit is not None:
                    emit(goof.CardRevealed(action.seat, f"bid.{action.seat}", 0, card))

    name = "goof-open-1212"
    module = types.ModuleType(name.replace("-", "_"))
    module.GAME = goof.GameInfo(
        name,
        "Goofspiel variant",
        2,
        4,
        version="1.0.0",
        hookspecs=goof.SPECS,
        fields=goof.GAME.fields,
    )

    @hookimpl
    def create_logic(ruleset: Any) -> Any:
        return Open(ruleset)

    module.create_logic = create_logic
    module.build_deck = goof.build_deck
    module.goofspiel_carry_ties = goof.goofspiel_carry_ties
    cardcore.register("cardcore.games", name, module)
    registered.append(name)
    return name


def test_a_bid_made_before_another_seat_s_open_bid_was_shown_is_stale(registered) -> None:
    """In the open auction Ann's bid is shown to Bob at version 1, and leaves his legal
    actions as they were. A bid Bob made on version 0 was chosen without it: the
    information the ``seen`` check exists for (before e2a3e55: ``stale``)."""
    t = table(2, name=open_auction_variant(registered))
    assert bid(t, "a", 0, index=12) == "ok"
    assert any(card is not None for card in t.view("b")["zones"][goof.bid_pile(0)]["cards"])
    assert bid(t, "b", 0) == "stale"
    assert bid(t, "b", 1) == "ok"


# -- rule 2: turn clocks -----------------------------------------------------------------------


def clocked(players: int = 2, **time: Any) -> Table:
    return table(players, config=SessionConfig(time=TimeControl(turn=5.0, **time)))


def test_a_bid_before_the_last_leaves_the_waiting_seats_clocks_alone() -> None:
    t = clocked(3)
    t.act("a", "bid 0", 1.0, seen=0)  # 2.0
    t.act("b", "bid 0", 1.0, seen=1)  # 3.0
    assert t.session.clocks.turn == {2: 6.0}  # Cy's clock from the deal at 1.0, not restarted
    t.tick(2.9)  # 5.9
    game = t.session.game
    assert game is not None and game.version == 2
    t.tick(0.1)  # 6.0: Cy's clock ran out
    assert game.version >= 3


def test_the_last_bidder_gets_a_whole_clock_and_the_game_clock_runs_on() -> None:
    t = clocked(2, total=100.0)
    t.act("a", "bid 0", 1.0, seen=0)  # 2.0
    t.act("b", "bid 0", 3.9, seen=1)  # 5.9: round 2
    assert t.session.clocks.turn == {0: 10.9, 1: 10.9}
    assert t.session.clocks.total == 101.0  # from the deal at 1.0, untouched
    t.act("a", "bid 0", 1.0, seen=2)  # 6.9: Ann leaves, Bob's round-2 clock runs on
    assert t.session.clocks.turn == {1: 10.9}


@pytest.mark.parametrize(("restart", "fires"), [("pause", False), ("continue", True)])
def test_a_fresh_round_clock_across_a_restart(restart: str, fires: bool) -> None:
    store = MemoryStore()
    config = SessionConfig(time=TimeControl(turn=5.0, restart=restart))
    t = table(2, config=config, store=store)
    t.act("a", "bid 0", 1.0, seen=0)  # 2.0
    t.act("b", "bid 0", 3.9, seen=1)  # 5.9: round 2, Bob's clock to 10.9
    resumed = Session.resume(store, t.session.id, 50.0)
    expected = 10.9 + (50.0 - 5.9) if restart == "pause" else 10.9
    assert resumed.clocks.turn[1] == pytest.approx(expected)
    resumed.tick(51.0)
    game = resumed.game
    assert game is not None and (game.version > 2) is fires


def test_a_timed_out_last_bid_leaves_the_next_round_to_the_seat() -> None:
    """Docs, Clocks: the seat whose action ends a round "gets a whole clock for the new
    round". A timeout plays Bob's round-1 default bid at 6.0; that bid ends the round
    and Bob is to act again, so the timeout loop (``max_steps``, meant for a turn of
    several actions) bids for him in round 2 too, on a prize he never had time for."""
    t = clocked(2)
    t.act("a", "bid 0", 1.0, seen=0)  # 2.0
    out = t.tick(4.0)  # 6.0: Bob's clock (from the deal at 1.0) runs out
    timeouts = [o for o in out if o.conn == "a" and o.message["type"] == "update"]
    game = t.session.game
    assert game is not None
    assert len(timeouts) == 1 and game.version == 2
    assert game.to_act == (0, 1) and t.session.clocks.turn[1] == 11.0


def test_an_actor_cannot_keep_refreshing_its_own_clock() -> None:
    """Seat 0 stays to act throughout and is the only seat that ever acts: its actions
    alternately bring seat 1 in and send it out (a call and a withdrawal). No round
    ends (a simultaneous round ends only after the other seats acted), so this is one
    turn of several actions and shares one clock (docs, Clocks); instead every call
    gives seat 0 a whole clock again, and with one call each 4 s it never times out."""
    clocks = Clocks(TimeControl(turn=5.0), realtime=False)
    clocks.start((0,), 0.0)
    at = 0.0
    for _ in range(5):
        at += 2.0
        clocks.update((0, 1), at, 0)  # seat 0 calls seat 1 in
        at += 2.0
        clocks.update((0,), at, 0)  # seat 0 withdraws the call
    assert clocks.due(at) == (5.0, 0)


def test_a_round_ended_by_the_other_seats_gives_everyone_a_whole_clock() -> None:
    """The case the rule is for, at the Clocks level: seats 1 and 2 bid, seat 0 bids
    last and stays to act with the others joining it."""
    clocks = Clocks(TimeControl(turn=5.0), realtime=False)
    clocks.start((0, 1, 2), 0.0)
    clocks.update((0, 2), 1.0, 1)
    clocks.update((0,), 2.0, 2)
    assert clocks.turn == {0: 5.0}
    clocks.update((0, 1, 2), 4.0, 0)
    assert clocks.turn == {0: 9.0, 1: 9.0, 2: 9.0}


def test_session_messages_are_json() -> None:
    """The kit checked every message above for leaks; one more for the stale error's text."""
    t = table(2)
    bid(t, "a", 0)
    bid(t, "b", 1)
    replies = t.act("a", "bid 0", 0.1, seen=0)
    error = [r for r in replies if r["type"] == "error"][-1]
    assert error["code"] == "stale" and "version 2" in error["message"]
    assert json.loads(json.dumps(error)) == error
